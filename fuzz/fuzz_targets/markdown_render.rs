//! Markdown from any page, read back with a CommonMark parser.
//!
//! The first byte chooses the options (bit 0 links, bit 1 images, bit 2 a base URL); the
//! second, when not zero, a pattern of lines to drop (as the model drops lines); the rest
//! is the page. Checks (`tests/common/markdown_oracle.rs`): no raw HTML, no link or image
//! whose URL scheme is outside the allow-list, every `<pre>` text back byte for byte from
//! its code block.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/markdown_oracle.rs"]
mod oracle;

fuzz_target!(|data: &[u8]| {
    let Some((lines, opts)) = oracle::fuzz_case(data) else {
        return;
    };
    let (md, pres) = oracle::render(&lines, opts);
    if let Err(e) = oracle::check(&md, &pres) {
        panic!("{e}\nmarkdown:\n{md}");
    }
});
