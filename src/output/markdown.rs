//! [`Format::Markdown`](super::Format::Markdown): the kept lines as GitHub-flavoured
//! Markdown (rendered line by line as the lines are decided), after the page's headline.

use crate::Document;
use crate::markdown::{self, Renderer};

/// The document's Markdown, with links and images as its options say.
pub(crate) fn render(doc: &Document) -> String {
    let opts = &doc.opts;
    let mut r = Renderer::new(markdown::Options {
        links: opts.links,
        images: opts.images,
        base: markdown::base_url(opts.url.as_deref(), doc.metadata.base.as_deref()),
    });
    let headline = (!opts.no_headline)
        .then(|| markdown::headline::of(&doc.metadata))
        .flatten();
    let mut h = markdown::headline::Headline::new(headline);
    let mut out = String::new();
    for d in doc.lines.iter().filter(|d| d.keep) {
        h.push(&mut r, &d.line, &mut out);
    }
    r.finish(&mut out);
    out
}
