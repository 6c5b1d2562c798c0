//! Tests across the library's modules that need its internals: streaming invariants,
//! two-stage and page-level models (hand-made and trained), training end to end, and the
//! `#[ignore]`d tests on the corpora beside the repository. Tests of the `mainline` command
//! are under `tests/`.

mod common;
mod corpus;
mod label_corpus;
mod methods_corpus;
mod model_corpus;
mod page_stage;
mod streaming;
mod train;
mod two_stage;
