//! `mainline lines`: the per-line feature table of one page, ready for labelling.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};

use crate::extract::{Decision, Observe, Scorer};

use super::{Failure, display_name, stream_file};

/// Write the per-line feature table of a page as CSV.
///
/// Columns: doc, group, line, label (empty: fill in 1 for content, 0 for boilerplate to make
/// training data), then every feature column (see the README for their meaning), then the
/// line's text. The header is the feature schema that `mainline train` and model files use.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The HTML file (plain or gzip); `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let scorer: Arc<dyn Scorer> = Arc::new(Observe);
    let doc = display_name(&args.file);
    let mut out = csv::Writer::from_writer(super::stdout());
    out.write_record(super::csv_header())
        .context("writing to standard output")?;
    let mut sink = |d: Decision| super::write_csv_row(&mut out, &doc, "", (None, None), &d);
    match stream_file(&args.file, &scorer, true, &mut sink) {
        Ok(_) => {}
        Err(Failure::Input(e)) => {
            eprintln!("mainline: {doc}: {e:#}");
            return Ok(ExitCode::from(1));
        }
        Err(Failure::Output(e)) => return Err(anyhow::Error::new(e).context("writing output")),
    }
    out.flush().context("writing to standard output")?;
    Ok(ExitCode::SUCCESS)
}
