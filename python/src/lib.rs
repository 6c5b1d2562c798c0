//! `mainline._mainline`: the compiled core of the Python package `mainline`.
//!
//! The pure-Python package in `py_src/mainline` re-exports what is defined here and adds the
//! adapters (datatrove). Everything that touches a page runs with the GIL released; a Rust
//! panic is caught and raised as `mainline.MainlineError`, never unwound into the
//! interpreter.

mod convert;
mod extractor;
mod pages;
mod site;
mod threads;
mod warc;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use convert::{Document, Line};
use extractor::{PyExtractor, builtin};
use site::{PySiteProfile, site_host};
use warc::WarcPages;

create_exception!(
    mainline,
    MainlineError,
    PyValueError,
    "A page or a model that mainline cannot read: the message is the library's, naming \
     the input when it has a name (a URL, a page index or a model file)."
);
/// The compiled core of `mainline`.
#[pymodule]
fn _mainline(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MODEL_VERSION", builtin().1.as_str())?;
    m.add(
        "FEATURE_NAMES",
        mainline::internals::features::names().to_vec(),
    )?;
    m.add("MainlineError", m.py().get_type::<MainlineError>())?;
    m.add_class::<PyExtractor>()?;
    m.add_class::<Document>()?;
    m.add_class::<Line>()?;
    m.add_class::<WarcPages>()?;
    m.add_class::<PySiteProfile>()?;
    m.add_function(wrap_pyfunction!(site_host, m)?)?;
    Ok(())
}
