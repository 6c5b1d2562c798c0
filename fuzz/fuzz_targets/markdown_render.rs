//! Markdown from any page, read back with a CommonMark parser.
//!
//! The first byte chooses the options (bit 0 links, bit 1 images, bit 2 a base URL); the
//! second, when not zero, a pattern of lines to drop (as the model drops lines); the rest
//! is the page. Checks (`tests/common/markdown_oracle.rs`): no raw HTML, no link or image
//! whose URL scheme is outside the allow-list, every `<pre>` text back byte for byte from
//! its code block.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mainline::lines::Splitter;
use mainline::markdown::Options;

#[path = "../../tests/common/markdown_oracle.rs"]
mod oracle;

fuzz_target!(|data: &[u8]| {
    let (flags, keep, page) = match data {
        [f, k, rest @ ..] => (*f, *k, rest),
        _ => return,
    };
    let mut s = Splitter::new().with_structure(true);
    if s.write(page).is_err() || s.end().is_err() {
        return;
    }
    let lines: Vec<_> = std::iter::from_fn(|| s.next_line())
        .enumerate()
        .filter(|(i, _)| keep == 0 || keep.rotate_right(*i as u32) & 1 == 1)
        .map(|(_, l)| l)
        .collect();
    let opts = Options {
        links: flags & 1 != 0,
        images: flags & 2 != 0,
        base: (flags & 4 != 0).then(|| "https://e.org/dir/".to_string()),
    };
    let (md, pres) = oracle::render(&lines, opts);
    if let Err(e) = oracle::check(&md, &pres) {
        panic!("{e}\nmarkdown:\n{md}");
    }
});
