//! What any Markdown the renderer writes must be, read back with a CommonMark parser
//! (pulldown-cmark, GFM tables on): no raw HTML, no link or image whose URL scheme is
//! outside the allow-list, and the text of every `<pre>` back byte for byte from its code
//! block. Shared by `tests/markdown_safety.rs` and the fuzz target `markdown_render`.

use mainline::internals::lines::{Line, Splitter};
use mainline::internals::markdown::{Options, Renderer};
use pulldown_cmark::{Event, LinkType, Parser, Tag, TagEnd};

/// The Markdown of `lines`, and the text each `<pre>` block of them must come back as.
pub fn render(lines: &[Line], opts: Options) -> (String, Vec<String>) {
    let mut md = String::new();
    let mut r = Renderer::new(opts);
    let mut pres: Vec<(u32, String)> = Vec::new();
    let mut last_pre = None;
    for line in lines {
        r.push(line, &mut md);
        let pre = line.structure.as_ref().and_then(|s| s.pre.as_ref());
        match pre {
            Some(p) if last_pre == Some(p.id) => {
                let text = &mut pres.last_mut().expect("a block is open").1;
                for _ in 0..p.blank_lines_before.min(1024) {
                    text.push('\n');
                }
                text.push_str(&line.text);
                text.push('\n');
            }
            Some(p) => pres.push((p.id, format!("{}\n", line.text))),
            None => {}
        }
        last_pre = pre.map(|p| p.id);
    }
    r.finish(&mut md);
    (md, pres.into_iter().map(|p| p.1).collect())
}

/// The lines and options a `markdown_render` fuzz input describes: its first byte gives
/// the options (bit 0 links, bit 1 images, bit 2 a base URL), its second, when not zero, a
/// pattern of lines to drop (as the model drops lines), the rest is the page. `None` for an
/// input too short, or a page the splitter refuses.
pub fn fuzz_case(data: &[u8]) -> Option<(Vec<Line>, Options)> {
    let [flags, keep, page @ ..] = data else {
        return None;
    };
    let mut s = Splitter::new().with_structure(true);
    if s.write(page).is_err() || s.end().is_err() {
        return None;
    }
    let lines = std::iter::from_fn(|| s.next_line())
        .enumerate()
        .filter(|(i, _)| *keep == 0 || keep.rotate_right(*i as u32) & 1 == 1)
        .map(|(_, l)| l)
        .collect();
    let opts = Options {
        links: flags & 1 != 0,
        images: flags & 2 != 0,
        base: (flags & 4 != 0).then(|| "https://e.org/dir/".to_string()),
    };
    Some((lines, opts))
}

/// The scheme of a URL as the URL standard reads it (leading and trailing C0 controls and
/// spaces trimmed, tabs and newlines removed), lower-cased; `None` when relative.
fn scheme(url: &str) -> Option<String> {
    let url: String = url
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let colon = url.find(':')?;
    let s = &url[..colon];
    let mut chars = s.chars();
    let ok = chars.next()?.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    ok.then(|| s.to_ascii_lowercase())
}

/// The allow-list: relative, http, https; mailto for links; data:image/… for images.
fn allowed(url: &str, image: bool) -> bool {
    match scheme(url).as_deref() {
        None | Some("http" | "https") => true,
        Some("mailto") => !image,
        Some("data") => {
            let rest = url
                .trim_matches(|c: char| c <= ' ')
                .replace(['\t', '\n', '\r'], "");
            image
                && rest[5..]
                    .trim_start()
                    .to_ascii_lowercase()
                    .starts_with("image/")
        }
        Some(_) => false,
    }
}

/// Checks `md` (see the module documentation); `pres`: the text of each `<pre>` block, in
/// order.
pub fn check(md: &str, pres: &[String]) -> Result<(), String> {
    let mut codes = Vec::new();
    let mut code: Option<String> = None;
    for ev in Parser::new_ext(md, pulldown_cmark::Options::ENABLE_TABLES) {
        match ev {
            Event::Html(h) | Event::InlineHtml(h) => return Err(format!("raw HTML {h:?}")),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) if link_type != LinkType::Email && !allowed(&dest_url, false) => {
                return Err(format!("link to {dest_url:?}"));
            }
            Event::Start(Tag::Image { dest_url, .. }) if !allowed(&dest_url, true) => {
                return Err(format!("image from {dest_url:?}"));
            }
            Event::Start(Tag::CodeBlock(_)) => code = Some(String::new()),
            Event::Text(t) => {
                if let Some(c) = &mut code {
                    c.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => codes.extend(code.take()),
            _ => {}
        }
    }
    if codes != pres {
        return Err(format!("code blocks {codes:?}, <pre> texts {pres:?}"));
    }
    Ok(())
}
