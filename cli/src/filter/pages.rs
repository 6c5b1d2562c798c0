//! Writing one page in the output's format as it is read ([`Sink`]), with extractors
//! kept from page to page; and a page read whole for the comparison methods.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use mainline::output::Sink;
use mainline::{Extractor, Options};

use super::super::{Failure, display_name, read_input};

/// Reads a whole input (decompressed) and decodes it to UTF-8 with the splitter's rules.
/// Also returns the number of bytes read.
///
/// # Errors
/// Also when the input is longer than the comparison methods parse
/// ([`mainline_training::methods::MAX_DOCUMENT_BYTES`]): it is not read further.
pub(super) fn read_decoded(path: &Path) -> Result<(String, u64)> {
    use std::io::Read;
    let max = mainline_training::methods::MAX_DOCUMENT_BYTES;
    let mut bytes = Vec::new();
    let input = super::super::open_input(path)?;
    input.take(max as u64 + 1).read_to_end(&mut bytes)?;
    anyhow::ensure!(
        bytes.len() <= max,
        "longer than {} MiB, the most the comparison methods (--method) parse",
        max >> 20
    );
    if let Some(kind) = mainline::internals::input::binary_kind(&bytes) {
        anyhow::bail!(
            "not an HTML document: the data looks like {}",
            mainline::internals::input::a_binary_kind(kind)
        );
    }
    let encoding = mainline::internals::input::sniff(&bytes, true).encoding;
    Ok((encoding.decode(&bytes).0.into_owned(), bytes.len() as u64))
}

/// The streaming filter on one input into `out`, in the options' format, written as the
/// lines are decided ([`Sink`]); returns the input bytes read.
pub(super) fn filter_one(
    path: &Path,
    options: &Options,
    extractors: &Extractors,
    out: &mut dyn Write,
) -> Result<u64, Failure> {
    let name = display_name(path);
    let mut sink = Sink::new(options, Some(&name));
    // NOTE: as stream_file, with an extractor kept from page to page, which takes the
    // written lines back for later ones.
    extractors.with(
        || Sink::new(options, None).extractor(),
        |ex| {
            sink.ready(ex);
            let run = || {
                let total = read_input(path, |piece| {
                    ex.write(piece).map_err(|e| Failure::Input(e.into()))?;
                    sink.take(ex, out).map_err(Failure::Output)
                })?;
                ex.end().map_err(|e| Failure::Input(e.into()))?;
                sink.finish(ex, out).map_err(Failure::Output)?;
                Ok(total)
            };
            let total = run();
            ex.reset();
            total
        },
    )
}

/// Extractors between documents, reset ([`Extractor::reset`]): one for each thread that
/// has needed one at the same time. Reusing one saves building it and growing its buffers
/// again for every page.
#[derive(Default)]
pub(super) struct Extractors(std::sync::Mutex<Vec<Extractor>>);

impl Extractors {
    /// Runs `f` with an extractor kept, or else the one `make` makes (every extractor of
    /// a run is made alike), which `f` leaves reset.
    pub(super) fn with<T>(
        &self,
        make: impl FnOnce() -> Extractor,
        f: impl FnOnce(&mut Extractor) -> T,
    ) -> T {
        let kept = self.0.lock().ok().and_then(|mut v| v.pop());
        let mut ex = kept.unwrap_or_else(make);
        let t = f(&mut ex);
        if let Ok(mut v) = self.0.lock() {
            v.push(ex);
        }
        t
    }
}
