//! The headline at the top of a page's Markdown.
//!
//! A Markdown document starts with `# headline`: the page's own headline line (its first
//! `<h1>`, unless that only repeats the site's name, as a logo's does), else its title
//! metadata. Benchmarks of main-content extraction leave the headline out of the text, so
//! the model mostly drops it; a reader and a retrieval store expect a document to say what
//! it is. The headline is written before the first kept line (a page that keeps nothing
//! stays empty), and a kept heading of the same text is not written a second time.

use crate::lines::{Block, Line, NO_ELEMENT, PATH_LEVELS, Totals};
use crate::meta::Metadata;

use super::Renderer;

/// The headline of a page: its first `<h1>` unless that is the site's name, else its
/// title; `None` when it has neither. Whitespace is collapsed.
pub fn of(meta: &Metadata) -> Option<String> {
    let clean = |s: &Option<String>| {
        s.as_deref()
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|s| !s.is_empty())
    };
    let site = clean(&meta.site_name).map(|s| s.to_lowercase());
    clean(&meta.first_h1)
        .filter(|h| site.as_deref() != Some(h.to_lowercase().as_str()))
        .or_else(|| clean(&meta.title))
}

/// Writes kept lines through a [`Renderer`] with the headline first (see the module
/// documentation).
#[derive(Debug, Default)]
pub struct Headline {
    /// The headline, until it is written.
    pending: Option<String>,
    /// The headline, compared without case, until a kept heading repeats it.
    written: Option<String>,
    /// Whether a line has been written.
    started: bool,
}

impl Headline {
    /// A headline to write before the first kept line; `None` writes none.
    pub fn new(text: Option<String>) -> Self {
        Headline {
            pending: text,
            written: None,
            started: false,
        }
    }

    /// Sets the headline while no line has been written (for a stream whose metadata is
    /// known once the first line is kept).
    pub fn set(&mut self, text: Option<String>) {
        if !self.started {
            self.pending = text;
        }
    }

    /// Renders the next kept line into `out`, after the headline when it is the first.
    pub fn push(&mut self, r: &mut Renderer, line: &Line, out: &mut String) {
        self.started = true;
        if let Some(text) = self.pending.take() {
            r.push(&heading(text.clone()), out);
            self.written = Some(text.to_lowercase());
        }
        if line.heading > 0 {
            if let Some(h) = &self.written {
                let same = line
                    .text
                    .split_whitespace()
                    .map(str::to_lowercase)
                    .eq(h.split(' ').map(str::to_string));
                if same {
                    self.written = None;
                    return;
                }
            }
        }
        r.push(line, out);
    }
}

/// A line that renders as a first-level heading of `text`.
fn heading(text: String) -> Line {
    let bytes = text.len() as u64;
    Line {
        index: 0,
        text,
        start: 0,
        html_bytes: 0,
        text_bytes: bytes,
        link_bytes: 0,
        block: Block::Heading,
        heading: 1,
        depth: 0,
        context: 0,
        hints: 0,
        container: Totals::default(),
        region: Totals::default(),
        ancestors: Vec::new(),
        path: [NO_ELEMENT; PATH_LEVELS],
        structure: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::Splitter;

    fn render(html: &str, headline: Option<&str>) -> String {
        let mut s = Splitter::new().with_structure(true);
        s.write(html.as_bytes()).unwrap();
        s.end().unwrap();
        let mut r = Renderer::new(super::super::Options::default());
        let mut h = Headline::new(headline.map(str::to_string));
        let mut out = String::new();
        while let Some(line) = s.next_line() {
            h.push(&mut r, &line, &mut out);
        }
        r.finish(&mut out);
        out
    }

    #[test]
    fn the_headline_comes_first_and_is_not_repeated() {
        let page = "<p>Kicker</p><h1>Tides  of the North</h1><p>The tide comes in.</p>";
        assert_eq!(
            render(page, Some("Tides of the North")),
            "# Tides of the North\n\nKicker\n\nThe tide comes in.\n"
        );
        // Another heading stays; text that reads as Markdown is escaped.
        assert_eq!(
            render("<h2>Tides</h2><p>Words.</p>", Some("*Sea* notes")),
            "# \\*Sea\\* notes\n\n## Tides\n\nWords.\n"
        );
        assert_eq!(render("<p>Words.</p>", None), "Words.\n");
        assert_eq!(render("", Some("Nothing kept")), "");
    }

    #[test]
    fn the_headline_is_the_first_h1_unless_it_is_the_site_name() {
        let mut m = Metadata {
            title: Some("Tides".into()),
            first_h1: Some("Sea  Notes".into()),
            ..Metadata::default()
        };
        assert_eq!(of(&m).as_deref(), Some("Sea Notes"));
        m.site_name = Some("sea notes".into());
        assert_eq!(of(&m).as_deref(), Some("Tides"));
        m.title = None;
        assert_eq!(of(&m), None);
    }
}
