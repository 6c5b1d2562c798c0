//! (in progress)
pub mod label;
