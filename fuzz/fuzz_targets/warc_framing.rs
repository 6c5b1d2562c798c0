//! WARC record framing: the bytes describe a WARC file (records with altered lengths and
//! line ends, garbage, chunked bodies good and bad, plain or in gzip members split
//! anywhere, one member maybe damaged; see `tests/common/warc_framing.rs`, compiled in
//! by path), and every well-formed record in it must come out of the reader exactly
//! once, with its block, as `tests/warc_framing.rs` checks by proptest.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/warc_framing.rs"]
mod case;

fuzz_target!(|data: &[u8]| {
    let c = case::build(data);
    if let Err(e) = case::check(&c) {
        panic!("{e}");
    }
});
