//! `mainline lines`: the per-line feature table of pages, ready for labelling.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};

use mainline::internals::extract::{AllFeatures, Decision, Scorer};

use super::{Failure, display_name, inputs_or_stdin, stream_file};

/// Write the per-line feature table of pages as CSV.
///
/// Columns: doc (the input's name, as given), group, line, label (empty: fill in 1 for
/// content, 0 for boilerplate to make training data), then every feature column (see the
/// README for their meaning), then the line's text. The header is the feature schema that
/// `mainline train` and model files use. Several inputs give one table, under one header:
/// each input's lines in order, the inputs in the order given. An input that cannot be read
/// is reported on standard error with its name, the others are still written, and the exit
/// code is 1.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline lines page.html > page.csv\n  \
    mainline lines pages/*.html.gz > pages.csv")]
pub struct Args {
    /// HTML files (plain or gzip). `-` or no file reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let scorer: Arc<dyn Scorer> = Arc::new(AllFeatures);
    let mut out = csv::Writer::from_writer(super::stdout());
    out.write_record(super::csv_header())
        .context("writing to standard output")?;
    let mut failed = false;
    for file in inputs_or_stdin(args.files) {
        let doc = display_name(&file);
        let mut sink = |d: Decision| super::write_csv_row(&mut out, &doc, "", (None, None), &d);
        match stream_file(&file, &scorer, true, &mut sink) {
            Ok(_) => {}
            Err(Failure::Input(e)) => {
                eprintln!("mainline: {doc}: {e:#}");
                failed = true;
            }
            Err(Failure::Output(e)) => {
                return Err(anyhow::Error::new(e).context("writing output"));
            }
        }
    }
    out.flush().context("writing to standard output")?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
