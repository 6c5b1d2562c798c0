//! Training and evaluation of mainline's models: labelled corpora ([`corpus`]), training
//! from a labelled CSV ([`train`]), cross-validation ([`cv`]), word F1 and the comparisons
//! `mainline eval` prints ([`eval`]), the DOM-based comparison methods ([`methods`]), and
//! what training does with a model besides scoring a row ([`model::ModelExt`]: batches,
//! saving).
//!
//! It reaches the library's insides through `mainline::internals`, which is not part of
//! the library's stable API; this crate is mainline's own and is not published.
#![deny(rustdoc::broken_intra_doc_links)]
#![warn(missing_docs)]

pub mod atomic;
pub mod corpus;
pub mod cv;
pub mod eval;
pub mod methods;
pub mod model;
pub mod train;

#[cfg(test)]
mod tests;
