//! mainline: streaming main-content extraction from HTML.
#![deny(rustdoc::broken_intra_doc_links)]

pub mod corpus;
pub mod cv;
pub mod error;
pub mod eval;
pub mod extract;
pub mod features;
pub mod input;
pub mod lines;
pub mod meta;
pub mod methods;
pub mod model;
pub mod stack;
pub mod train;

pub use error::{Error, Result};
