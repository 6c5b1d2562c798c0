//! Hand-built models: any value of the `Model` struct, deserialised without the checks of
//! `Model::from_json`, is either refused by `ModelScorer::new` with an error or scores a
//! page without panicking. This is the path a caller takes that builds or edits a model in
//! memory (the Python package does).
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use mainline::internals::model::Model;
use mainline::{Extractor, ModelScorer};

const PAGE: &[u8] = b"<html><body><nav><a href=/>Home</a> <a href=/about>About</a></nav>\
    <article><h1>A title</h1><p>A first paragraph of text, long enough to be content.</p>\
    <p>And a second one, with a <a href=/x>link</a> in it.</p></article>\
    <footer>Copyright</footer></body></html>";

fuzz_target!(|text: &str| {
    // NOTE: serde alone, not Model::from_json: the fields arrive unchecked, as in a model
    // built by hand.
    let Ok(model) = serde_json::from_str::<Model>(text) else {
        return;
    };
    let Ok(scorer) = ModelScorer::new(model) else {
        return;
    };
    let mut ex = Extractor::new(Arc::new(scorer));
    for piece in PAGE.chunks(17) {
        ex.write(piece).expect("a page of HTML is accepted");
        while ex.next_decision().is_some() {}
    }
    ex.end().expect("a page of HTML is accepted");
    while ex.next_decision().is_some() {}
});
