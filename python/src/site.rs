//! `mainline.SiteProfile`: a site's template learnt from its pages, and pages extracted
//! without it.

use std::path::PathBuf;

use mainline::Options;
use pyo3::prelude::*;

use crate::pages::{PageArg, document_of, guarded, py_error};

/// What a site repeats on most of its pages — menus, a "Most read" list, a newsletter box,
/// footer paragraphs — is its template: a site profile learns it from the site's pages
/// and extracts each page without it (see the README's "Sites").
///
/// ``SiteProfile(pages)`` learns from an iterable of pages: each ``str`` or ``bytes``
/// (its site is the host of its canonical link) or a ``(url, html)`` pair. ``learn`` adds
/// one more; ``extract`` gives a page's text with its site's template dropped (a page of
/// a site with no other page learnt is extracted as ``mainline.extract`` does). ``save``
/// and ``load`` write and read the profile file of ``mainline site learn``.
#[pyclass(module = "mainline", name = "SiteProfile")]
pub(crate) struct PySiteProfile {
    profile: mainline::site::Profile,
}

impl PySiteProfile {
    /// Learns one item of an iterable: a page, or a `(url, page)` pair.
    fn learn_item(&mut self, py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        if let Ok((url, html)) = item.extract::<(Option<String>, Bound<'_, PyAny>)>() {
            return self.learn(py, &html, url.as_deref());
        }
        self.learn(py, item, None)
    }
}

#[pymethods]
impl PySiteProfile {
    #[new]
    #[pyo3(signature = (pages = None, *, memory = mainline::site::DEFAULT_MEMORY))]
    fn new(py: Python<'_>, pages: Option<&Bound<'_, PyAny>>, memory: usize) -> PyResult<Self> {
        let mut p = PySiteProfile {
            profile: mainline::site::Profile::new().with_memory(memory),
        };
        if let Some(pages) = pages {
            for item in pages.try_iter()? {
                p.learn_item(py, &item?)?;
            }
        }
        Ok(p)
    }

    /// Learns one page; returns its site (the host of ``url``, else of the page's
    /// canonical link), or None when it has none (then it is not learnt).
    #[pyo3(signature = (html, *, url = None))]
    fn learn(
        &mut self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<&str>,
    ) -> PyResult<Option<String>> {
        let arg = PageArg::new(html)?;
        let bytes = arg.page().bytes;
        let profile = &mut self.profile;
        py.detach(|| guarded(|| profile.learn_page(bytes, url)))
            .map_err(|e| py_error(&e, url))
    }

    /// The main text of one page (as ``mainline.extract``), its site's template dropped.
    #[pyo3(signature = (html, *, url = None))]
    fn extract(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<&str>,
    ) -> PyResult<String> {
        let arg = PageArg::new(html)?;
        let page = arg.page();
        let profile = &self.profile;
        py.detach(|| {
            guarded(|| {
                let template = profile.page_template(page.bytes, url);
                let doc = document_of(&Options::new().site(template), page)?;
                Ok(doc.text().to_string())
            })
        })
        .map_err(|e| py_error(&e, url))
    }

    /// The number of sites learnt.
    #[getter]
    fn sites(&self) -> usize {
        self.profile.sites()
    }

    /// The number of pages learnt of ``host``.
    fn pages(&self, host: &str) -> u32 {
        self.profile.site(host).map_or(0, |t| t.pages())
    }

    /// The profile as JSON (the profile file's text).
    fn to_json(&self) -> String {
        self.profile.to_json()
    }

    /// A profile from ``to_json``'s text; raises ``MainlineError`` when it is not one.
    #[staticmethod]
    fn from_json(json: &str) -> PyResult<Self> {
        let profile = mainline::site::Profile::from_json(json).map_err(|e| py_error(&e, None))?;
        Ok(PySiteProfile { profile })
    }

    /// Writes the profile file.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        self.profile
            .save(&path)
            .map_err(|e| py_error(&e, path.to_str()))
    }

    /// Reads a profile file (of ``save`` or ``mainline site learn``).
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Self> {
        let profile = mainline::site::Profile::load(&path).map_err(|e| py_error(&e, None))?;
        Ok(PySiteProfile { profile })
    }

    fn __repr__(&self) -> String {
        format!("SiteProfile(sites={})", self.profile.sites())
    }
}

/// The site of a URL as site mode groups pages: its host, lowercased, without a port or a
/// leading ``www.``; None when it has none.
#[pyfunction]
pub(crate) fn site_host(url: &str) -> Option<String> {
    mainline::site::host(url)
}
