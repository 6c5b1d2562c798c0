//! Command-line interface: the `Cli` definition and what the subcommands share.
// NOTE: the doc comments of the argument structs are the command's --help text (clap),
// written for a terminal: `<stem>` there is a placeholder, not an HTML tag.
#![allow(rustdoc::invalid_html_tags)]

/// `println!` that returns the error of a failed write (a closed pipe, a full disk) from the
/// enclosing function instead of panicking.
macro_rules! outln {
    () => {
        out!("\n")
    };
    ($($arg:tt)*) => {
        anyhow::Context::context(
            std::io::Write::write_fmt(&mut std::io::stdout(), format_args!("{}\n", format_args!($($arg)*))),
            "writing to standard output",
        )?
    };
}

/// `print!` that returns the error of a failed write from the enclosing function.
macro_rules! out {
    ($($arg:tt)*) => {
        anyhow::Context::context(
            std::io::Write::write_fmt(&mut std::io::stdout(), format_args!($($arg)*)),
            "writing to standard output",
        )?
    };
}

/// Returns a [`UsageError`] from the enclosing function unless the condition holds.
macro_rules! usage_ensure {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            return Err(anyhow::Error::new($crate::UsageError(format!($($arg)*))));
        }
    };
}

mod args;
mod eval;
mod filter;
mod finetune;
mod label;
mod lines;
#[cfg(feature = "plot")]
mod plot;
mod review;
mod site;
mod train;
mod walk;

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use mainline::internals::extract::{Decision, Extractor, Scorer};

/// The `mainline` command: parses the arguments, runs the subcommand, prints the error chain
/// and maps it to an exit code (0 success, 1 some input or output failed, 2 usage error,
/// from clap or options found not to go together after parsing). Writing into a closed pipe
/// (`mainline filter page.html | head`) ends quietly with 0.
pub fn main() -> ExitCode {
    let args = Cli::parse();
    match run(args) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) if err.downcast_ref::<UsageError>().is_some() => {
            eprintln!("error: {err:#}\n\nFor more information, try '--help'.");
            ExitCode::from(2)
        }
        Err(err) => {
            eprintln!("mainline: {err:#}");
            ExitCode::from(1)
        }
    }
}

/// mainline: extract the main content of web pages, line by line, as a stream.
///
/// Each line of a page (what a text-mode browser shows on a line of its own) gets its text
/// density and neighbour features; a trained perceptron, or a fixed density threshold,
/// decides which lines are main content.
#[derive(Debug, Parser)]
#[command(name = "mainline", version, about, long_about = None, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Filter(filter::Args),
    Lines(lines::Args),
    Label(label::Args),
    Train(train::Args),
    Eval(eval::Args),
    #[cfg(feature = "plot")]
    Plot(plot::Args),
    Review(review::Args),
    Site(site::Args),
}

/// Runs the parsed command line.
pub(crate) fn run(cli: Cli) -> Result<ExitCode> {
    remove_unfinished_files_on_signals();
    match cli.command {
        Command::Filter(args) => filter::run(args),
        Command::Lines(args) => lines::run(args),
        Command::Label(args) => label::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Train(args) => train::run(args),
        #[cfg(feature = "plot")]
        Command::Plot(args) => plot::run(args),
        Command::Review(args) => review::run(args),
        Command::Site(args) => site::run(args),
    }
}

/// On SIGINT, SIGTERM or SIGHUP: removes the temporary files of the outputs being written
/// ([`mainline_training::atomic`]) and exits with 128 + the signal's number, as a shell reports a
/// process killed by it. Without this the process would die with its temporary files left
/// behind (no destructor runs when a signal kills a process).
///
/// NOTE: signal-hook runs the cleanup on an ordinary thread that the signal handler wakes,
/// so it may take locks and remove files; its handler itself only writes to a pipe.
fn remove_unfinished_files_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        // Without the handler, signals keep their default action: the run still stops.
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            mainline_training::atomic::remove_unfinished();
            std::process::exit(128 + signal);
        }
    });
}

/// Checks, before any work, that an output file can be written: its directory exists and
/// takes a new file, and the path is not a directory. Outputs are written through a
/// temporary file beside them ([`mainline_training::atomic`]), so this creates and removes one.
pub(crate) fn check_writable(path: &Path) -> Result<()> {
    let what = || format!("cannot write {}", path.display());
    anyhow::ensure!(
        !path.is_dir(),
        "cannot write {}: it is a directory",
        path.display()
    );
    mainline_training::atomic::AtomicFile::create(path).with_context(what)?;
    Ok(())
}

/// Where a command writes: a file given with `-o` (written whole or not at all, see
/// [`mainline_training::atomic`]) or standard output.
pub(crate) enum Output {
    /// A file, committed by [`Output::finish`].
    File(mainline_training::atomic::AtomicFile),
    /// Standard output, buffered.
    Stdout(io::BufWriter<io::StdoutLock<'static>>),
}

impl Output {
    /// The file `path`, or standard output when `None`.
    pub fn to(path: Option<&Path>) -> Result<Output> {
        Ok(match path {
            Some(path) => Output::File(
                mainline_training::atomic::AtomicFile::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?,
            ),
            None => Output::Stdout(stdout()),
        })
    }

    /// Flushes, and puts a file in place.
    ///
    /// # Errors
    /// Naming the file, when its last bytes or the rename fail (the file is then left as
    /// it was before the run).
    pub fn finish(self) -> Result<()> {
        match self {
            Output::File(f) => {
                let target = f.target().to_path_buf();
                f.commit()
                    .with_context(|| format!("writing {}", target.display()))
            }
            Output::Stdout(s) => finish(s),
        }
    }

    /// What to call this output in messages.
    pub fn name(&self) -> String {
        match self {
            Output::File(f) => f.target().display().to_string(),
            Output::Stdout(_) => "standard output".to_string(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::File(f) => f.write(buf),
            Output::Stdout(s) => s.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::File(f) => f.write_all(buf),
            Output::Stdout(s) => s.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::File(f) => f.flush(),
            Output::Stdout(s) => s.flush(),
        }
    }
}

/// A usage error found after parsing (options that do not go together): reported like
/// clap's own usage errors, with exit code 2.
#[derive(Debug)]
pub(crate) struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// A threshold: a finite number in [0, 1] (NaN is refused).
pub(crate) fn parse_unit(s: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        Ok(x) if x.is_finite() => Err(format!("{x} is outside [0, 1]")),
        Ok(x) => Err(format!(
            "expected a finite number in [0, 1] such as 0.5, got {x}"
        )),
        Err(e) => Err(format!("expected a number in [0, 1] such as 0.5: {e}")),
    }
}

/// A number of threads: at least 1.
pub(crate) fn parse_jobs(s: &str) -> Result<std::num::NonZeroUsize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number"))?;
    std::num::NonZeroUsize::new(n).ok_or_else(|| "must be at least 1".to_string())
}

/// Whether an error (anywhere in its chain) is a write into a closed pipe, also when a CSV
/// writer wrapped the I/O error.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    fn csv_pipe(e: &csv::Error) -> bool {
        matches!(e.kind(), csv::ErrorKind::Io(io) if io.kind() == io::ErrorKind::BrokenPipe)
    }
    err.chain().any(|e| {
        if let Some(io) = e.downcast_ref::<io::Error>() {
            io.kind() == io::ErrorKind::BrokenPipe
                || io
                    .get_ref()
                    .and_then(|inner| inner.downcast_ref::<csv::Error>())
                    .is_some_and(csv_pipe)
        } else {
            e.downcast_ref::<csv::Error>().is_some_and(csv_pipe)
        }
    })
}

/// Size of the pieces read from an input.
pub(crate) const CHUNK: usize = 64 * 1024;

/// Why one input could not be processed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Reading or parsing the input failed: report it and go on with the next input.
    Input(anyhow::Error),
    /// Writing the output failed (a closed pipe, a full disk): stop.
    Output(io::Error),
}

/// Streams one input through an extractor, handing each decision to `sink` as soon as it
/// is made. Returns the number of input bytes read.
pub(crate) fn stream_file(
    path: &Path,
    scorer: &Arc<dyn Scorer>,
    with_features: bool,
    sink: &mut dyn FnMut(Decision) -> io::Result<()>,
) -> Result<u64, Failure> {
    let mut ex = Extractor::new(Arc::clone(scorer)).with_features(with_features);
    let mut drain = |ex: &mut Extractor| {
        while let Some(d) = ex.next_decision() {
            sink(d).map_err(Failure::Output)?;
        }
        Ok(())
    };
    let total = read_input(path, |piece| {
        ex.write(piece).map_err(|e| Failure::Input(e.into()))?;
        drain(&mut ex)
    })?;
    ex.end().map_err(|e| Failure::Input(e.into()))?;
    drain(&mut ex)?;
    Ok(total)
}

/// Opens `path` ([`open_input`]: gzip recognised by content, a warning about trailing
/// bytes on standard error with the input's name) and hands its decompressed bytes to
/// `piece` in pieces of at most [`CHUNK`] bytes, retrying reads interrupted by a signal.
/// Returns the number of bytes read.
///
/// # Errors
/// [`Failure::Input`] when the input cannot be opened or read; whatever `piece` returns.
pub(crate) fn read_input(
    path: &Path,
    mut piece: impl FnMut(&[u8]) -> Result<(), Failure>,
) -> Result<u64, Failure> {
    let mut input = open_input(path).map_err(|e| Failure::Input(e.into()))?;
    let mut buf = vec![0u8; CHUNK];
    let mut total = 0u64;
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => return Ok(total),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Input(e.into())),
        };
        total += n as u64;
        piece(&buf[..n])?;
    }
}

/// Opens an input as [`mainline::internals::input::open`] does; a warning about it (trailing garbage
/// after gzip data) goes to standard error with the input's name, and the run goes on.
pub(crate) fn open_input(path: &Path) -> mainline::Result<mainline::internals::input::Input> {
    let name = display_name(path);
    mainline::internals::input::open_with_warnings(
        path,
        Box::new(move |warning| eprintln!("mainline: {name}: warning: {warning}")),
    )
}

/// How an input is named in messages.
pub(crate) fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// The inputs of a command: `-` (standard input) when none are given.
pub(crate) fn inputs_or_stdin(files: Vec<PathBuf>) -> Vec<PathBuf> {
    if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files
    }
}

/// Standard output, buffered.
pub(crate) fn stdout() -> io::BufWriter<io::StdoutLock<'static>> {
    io::BufWriter::with_capacity(64 * 1024, io::stdout().lock())
}

/// The header of the per-line CSV: `doc, group, line, label, path, sig, hints, aligned`,
/// the feature columns, `text`.
pub(crate) fn csv_header() -> Vec<String> {
    let mut h: Vec<String> = [
        "doc", "group", "line", "label", "path", "sig", "hints", "aligned",
    ]
    .map(String::from)
    .to_vec();
    h.extend(mainline::internals::features::names().iter().cloned());
    h.push("text".to_string());
    h
}

/// Writes one CSV row for a decision that carries its features; `label` and `aligned`
/// (whether the page aligned well with its gold text) are empty when unknown.
pub(crate) fn write_csv_row<W: Write>(
    out: &mut csv::Writer<W>,
    doc: &str,
    group: &str,
    label_aligned: (Option<bool>, Option<bool>),
    d: &Decision,
) -> io::Result<()> {
    out.write_record(csv_fields(doc, group, label_aligned, d))
        .map_err(io::Error::other)
}

/// The fields of [`write_csv_row`]'s row, in [`csv_header`]'s order.
pub(crate) fn csv_fields(
    doc: &str,
    group: &str,
    (label, aligned): (Option<bool>, Option<bool>),
    d: &Decision,
) -> Vec<String> {
    let bit = |b: Option<bool>| match b {
        Some(true) => "1".to_string(),
        Some(false) => "0".to_string(),
        None => String::new(),
    };
    let features = d.features.as_deref().unwrap_or(&[]);
    let mut record: Vec<String> = Vec::with_capacity(features.len() + 8);
    record.push(doc.to_string());
    record.push(group.to_string());
    record.push(d.line.index.to_string());
    record.push(bit(label));
    record.push(mainline::internals::second_stage::format_path(&d.line.path));
    record.push(mainline::internals::second_stage::format_signature(
        &mainline::internals::second_stage::page::signature(&d.line),
    ));
    record.push(
        d.hints
            .as_ref()
            .map(|h| mainline::internals::second_stage::hints::format_hints(h))
            .unwrap_or_default(),
    );
    record.push(bit(aligned));
    record.extend(features.iter().map(|v| format_value(*v)));
    record.push(d.line.text.clone());
    record
}

/// Shortest text that reads back as the same f32.
fn format_value(v: f32) -> String {
    if v == 0.0 {
        "0".to_string()
    } else if v == 1.0 {
        "1".to_string()
    } else {
        v.to_string()
    }
}

/// The scorer chosen on the command line: a fixed threshold, a model file, or the model
/// built into mainline.
pub(crate) fn scorer(threshold: Option<f32>, model: Option<&Path>) -> Result<Arc<dyn Scorer>> {
    if let Some(t) = threshold {
        anyhow::ensure!(
            t.is_finite(),
            "--threshold must be a number, e.g. 0.5 (got {t})"
        );
        return Ok(Arc::new(mainline::internals::extract::Threshold(t)));
    }
    if let Some(path) = model {
        let model = mainline::internals::model::Model::load(path)?;
        let scorer = mainline::internals::extract::ModelScorer::new(model)
            .with_context(|| format!("cannot use the model {}", path.display()))?;
        return Ok(Arc::new(scorer));
    }
    Ok(Arc::new(
        mainline::internals::extract::ModelScorer::builtin(),
    ))
}

/// Flushes `out`, treating nothing specially: a closed pipe surfaces as an error the
/// caller maps to a quiet exit.
pub(crate) fn finish(mut out: impl Write) -> Result<()> {
    out.flush().context("writing to standard output")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_valid() {
        Cli::command().debug_assert();
    }
}
