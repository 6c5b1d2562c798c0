//! `--input-format warc`: WARC files in, one JSON line per HTML record out.
//!
//! The contract (also in `mainline filter --help`):
//!
//! - the `response` records whose HTTP payload is HTML give one output line each, in file
//!   order: `warc_record_id`, `url` (the `WARC-Target-URI`), `warc_date`, then `text`, the
//!   kept lines joined by `\n`;
//! - other records (requests, metadata, revisits, other media types, non-2xx responses)
//!   give no line and are counted in the summary;
//! - a record that cannot be read or decoded gives a line with what is known of it,
//!   `warc_offset`, `"text": null` and `"error"`; a payload over `--max-payload` gives the
//!   text of its beginning and an `"error"` saying it was cut. Either makes the exit code
//!   1, and the file is read on from the next record.
//!
//! One thread reads and decompresses the WARC files (the producer of [`ordered::run`]),
//! `--jobs` threads extract batches of records, and the output keeps the file order.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use flate2::write::GzEncoder;

use mainline::source::ordered;
use mainline::source::warc::{self as source, Batch, Batches, Spares};
use mainline::warc::{HtmlOptions, Record, RecordError};
use mainline_training::atomic::AtomicFile;

use super::jsonl::Extra;
use super::{Engine, display_name, progress_bar};
use crate::is_broken_pipe;
use crate::walk::Found;

/// Whether a file name is that of a WARC file: `.warc` or `.warc.gz`, in any case.
pub fn is_warc(name: &OsStr) -> bool {
    let lower = name.as_encoded_bytes().to_ascii_lowercase();
    let lower = lower.strip_suffix(b".gz").unwrap_or(&lower);
    lower.len() > ".warc".len() && lower.ends_with(b".warc")
}

/// Whether the inputs are WARC files, judged by their first bytes (after gzip): `Ok(true)`
/// when every input that can be read starts with `WARC/1.`, `Ok(false)` when none does.
/// Standard input (`-`) is looked at too, unless it is a terminal: its first bytes are
/// read ahead and read again by whichever path takes it ([`mainline::internals::input::stdin_head`]).
/// Files named like pages (`.html`, `.htm`, gzipped or not) are not opened: they count as
/// HTML.
///
/// # Errors
/// A usage error when some inputs are WARC files and others are not.
pub fn detect(found: &[Found]) -> Result<bool> {
    let mut warc: Option<&Path> = None;
    let mut html: Option<&Path> = None;
    for f in found {
        let Found::Page { path, .. } = f else {
            continue;
        };
        let page_name = path.file_name().is_some_and(crate::walk::is_page);
        let is = if path.as_os_str() == "-" {
            // NOTE: a read error here makes standard input count as HTML; reading it for
            // real reports the error if it persists.
            !io::stdin().is_terminal()
                && mainline::internals::input::stdin_head(7)
                    .is_ok_and(|head| mainline::warc::looks_like_warc(&head))
        } else {
            // NOTE: a file named like a WARC file is one even when its first bytes are
            // damaged (a first gzip member cut short), so that its other records are read.
            path.file_name().is_some_and(is_warc)
                || !page_name
                    && mainline::internals::input::open(path).is_ok_and(|mut input| {
                        let mut head = [0u8; 7];
                        let mut n = 0;
                        while n < head.len() {
                            match input.read(&mut head[n..]) {
                                Ok(0) | Err(_) => break,
                                Ok(k) => n += k,
                            }
                        }
                        mainline::warc::looks_like_warc(&head[..n])
                    })
        };
        if is {
            warc.get_or_insert(path);
        } else {
            html.get_or_insert(path);
        }
        if let (Some(w), Some(h)) = (warc, html) {
            return Err(anyhow::Error::new(crate::UsageError(format!(
                "{} is a WARC file and {} is not; filter them separately (WARC files give JSON lines)",
                display_name(w),
                display_name(h)
            ))));
        }
    }
    Ok(warc.is_some())
}

/// What the WARC run needs from the command line.
pub struct Settings {
    /// Write one `<stem>.jsonl.gz` per WARC file here instead of standard output.
    pub out_dir: Option<PathBuf>,
    /// Where the JSON lines go without `out_dir`: standard output or the file of `-o`.
    pub output: super::super::Output,
    /// The cap on a record's block and on a decoded payload.
    pub max_payload: usize,
    /// Also read responses whose status is not 2xx.
    pub any_status: bool,
    /// Threads that extract.
    pub threads: usize,
    /// No progress bar and no summary.
    pub quiet: bool,
}

/// What a job came to.
#[derive(Default)]
struct Outcome {
    /// The file the job belongs to, and whether it ended.
    file: usize,
    ended: bool,
    pages: u64,
    html_bytes: u64,
    compressed: u64,
    skipped: BTreeMap<String, u64>,
    /// Records with an error, and the messages for standard error.
    errors: Vec<String>,
    failure: Option<anyhow::Error>,
}

/// Filters the records of one job into `out`.
fn execute(
    job: Batch,
    engine: &Engine,
    inputs: &[PathBuf],
    options: &HtmlOptions,
    spares: &Spares,
    out: &mut dyn Write,
) -> io::Result<Outcome> {
    match job {
        Batch::End {
            file,
            read,
            failure,
        } => Ok(Outcome {
            file,
            ended: true,
            compressed: read,
            failure: failure.map(anyhow::Error::new),
            ..Outcome::default()
        }),
        Batch::Records { file, records } => {
            let mut o = Outcome {
                file,
                ..Outcome::default()
            };
            let mut line = Vec::with_capacity(4096);
            for r in records {
                line.clear();
                let record = match r {
                    Ok(record) => record,
                    Err(e) => {
                        o.errors.push(e.to_string());
                        error_line(&mut line, &e);
                        out.write_all(&line)?;
                        continue;
                    }
                };
                let container = &inputs[file];
                match source::read(&record, options, container, |html, page| {
                    engine.warc_text(html, page)
                }) {
                    source::Outcome::Skipped(kind) => *o.skipped.entry(kind).or_default() += 1,
                    source::Outcome::Failed(e) => {
                        o.errors.push(e.to_string());
                        error_line(&mut line, &e);
                    }
                    source::Outcome::Page {
                        html_bytes,
                        value,
                        error,
                    } => {
                        o.html_bytes += html_bytes;
                        match &error {
                            Some(message) => {
                                o.errors.push(record.error(message.clone()).to_string())
                            }
                            None => o.pages += 1,
                        }
                        let (text, extra) = match value {
                            Some((text, extra)) => (Some(text), extra),
                            None => (None, Extra::new()),
                        };
                        record_line(
                            &mut line,
                            &record,
                            text.as_deref(),
                            &extra,
                            error.as_deref(),
                        );
                    }
                }
                spares.give_back(record);
                if !line.is_empty() {
                    out.write_all(&line)?;
                }
            }
            Ok(o)
        }
    }
}

fn push_field(line: &mut Vec<u8>, key: &str, value: Option<&str>) {
    if line.len() > 1 {
        line.push(b',');
    }
    push_json_str(line, key);
    line.push(b':');
    match value {
        Some(v) => push_json_str(line, v),
        None => line.extend_from_slice(b"null"),
    }
}

/// `s` as a JSON string, escaped byte for byte as `serde_json` escapes it: `"` and `\\`,
/// the short escapes `\b \t \n \f \r`, other bytes below 0x20 as `\u00xx`.
// NOTE: a page's text is most of an output line; runs of bytes that need no escape are
// found 8 bytes at a time and copied whole, where serde_json looks each byte up.
fn push_json_str(out: &mut Vec<u8>, s: &str) {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    /// Whether any byte of `w` is below 0x20, a `"` or a `\\` (the words' high bits
    /// mark them; a byte of 0x80 or more never counts).
    fn special(w: u64) -> bool {
        let below = w.wrapping_sub(LOW * 0x20);
        let quote = w ^ (LOW * u64::from(b'"'));
        let backslash = w ^ (LOW * u64::from(b'\\'));
        let zero = |x: u64| x.wrapping_sub(LOW);
        ((below | zero(quote) | zero(backslash)) & !w & HIGH) != 0
    }
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut done = 0;
    let mut i = 0;
    while i < bytes.len() {
        if i + 8 <= bytes.len() {
            let w = u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
            if !special(w) {
                i += 8;
                continue;
            }
        }
        let b = bytes[i];
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => b"",
            _ => {
                i += 1;
                continue;
            }
        };
        out.extend_from_slice(&bytes[done..i]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0xf)]);
        } else {
            out.extend_from_slice(escape);
        }
        i += 1;
        done = i;
    }
    out.extend_from_slice(&bytes[done..]);
    out.push(b'"');
}

/// The output line of an HTML record: its WARC fields, the text, and what --format json or
/// markdown adds (`extra`).
fn record_line(
    line: &mut Vec<u8>,
    r: &Record,
    text: Option<&str>,
    extra: &Extra,
    error: Option<&str>,
) {
    line.push(b'{');
    push_field(line, "warc_record_id", r.id());
    push_field(line, "url", r.target_uri());
    push_field(line, "warc_date", r.date());
    push_field(line, "text", text);
    for (k, v) in extra {
        if !matches!(
            k.as_str(),
            "warc_record_id" | "url" | "warc_date" | "text" | "error"
        ) {
            line.push(b',');
            serde_json::to_writer(&mut *line, k).expect("writing into memory");
            line.push(b':');
            serde_json::to_writer(&mut *line, v).expect("writing into memory");
        }
    }
    if let Some(e) = error {
        push_field(line, "error", Some(e));
        line.extend_from_slice(format!(",\"warc_offset\":{}", r.offset()).as_bytes());
    }
    line.extend_from_slice(b"}\n");
}

/// The output line of a record that could not be read.
fn error_line(line: &mut Vec<u8>, e: &RecordError) {
    line.push(b'{');
    push_field(line, "warc_record_id", e.id.as_deref());
    push_field(line, "url", e.target_uri.as_deref());
    push_field(line, "warc_date", e.date.as_deref());
    push_field(line, "text", None);
    push_field(line, "error", Some(&e.message));
    line.extend_from_slice(format!(",\"warc_offset\":{}", e.offset).as_bytes());
    line.extend_from_slice(b"}\n");
}

/// The output file of one input, being written under a temporary name.
struct Output {
    file: usize,
    gz: GzEncoder<io::BufWriter<AtomicFile>>,
}

/// Where the output goes: standard output, or one gzip file per input, each written to a
/// temporary file and renamed into place when the input is done ([`AtomicFile`]).
enum Sink {
    /// Standard output, or the file of `-o`.
    Stdout(super::super::Output),
    Dir {
        targets: Vec<PathBuf>,
        /// The input being written, its temporary file and the encoder.
        open: Option<Box<Output>>,
    },
}

impl Sink {
    fn file(&mut self, file: usize) -> io::Result<&mut dyn Write> {
        match self {
            Sink::Stdout(out) => Ok(out),
            Sink::Dir { targets, open } => {
                if open.as_ref().is_none_or(|o| o.file != file) {
                    let w = io::BufWriter::with_capacity(
                        256 * 1024,
                        AtomicFile::create(&targets[file])?,
                    );
                    let gz = GzEncoder::new(w, flate2::Compression::default());
                    *open = Some(Box::new(Output { file, gz }));
                }
                Ok(&mut open.as_mut().expect("opened above").gz)
            }
        }
    }

    /// The end of input `file`: its output file is completed and renamed into place (or,
    /// when the input could not be read at all, not written).
    fn end(&mut self, file: usize, failed: bool) -> io::Result<()> {
        if let Sink::Stdout(_) = self {
            return Ok(());
        }
        if !failed {
            // An input without HTML records still gets its (empty) output file.
            self.file(file)?;
        }
        let Sink::Dir { open, .. } = self else {
            unreachable!("standard output returned above")
        };
        let Some(current) = open.take() else {
            return Ok(());
        };
        if failed {
            // Dropped without a commit: the temporary file is removed.
            return Ok(());
        }
        current
            .gz
            .finish()?
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?
            .commit()
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(out) => out.flush(),
            Sink::Dir { .. } => Ok(()),
        }
    }
}

/// The output name of a WARC file below --out-dir: its name (or path found by walking)
/// without `.gz` and `.warc`, then `.jsonl.gz`.
fn target(dir: &Path, out_name: &Path) -> PathBuf {
    let name = out_name.to_string_lossy();
    let lower = name.to_ascii_lowercase();
    let stem = if lower.ends_with(".warc") && name.len() > 5 {
        &name[..name.len() - 5]
    } else {
        &name[..]
    };
    dir.join(format!("{stem}.jsonl.gz"))
}

/// Counts what the jobs came to and reports errors.
struct Tally {
    start: Instant,
    progress: Option<indicatif::ProgressBar>,
    inputs: Vec<PathBuf>,
    pages: u64,
    html_bytes: u64,
    compressed: u64,
    skipped: BTreeMap<String, u64>,
    bad_records: u64,
    failed: u64,
}

impl Tally {
    fn add(&mut self, o: &mut Outcome) {
        let name = display_name(&self.inputs[o.file]);
        let say = |m: String| match &self.progress {
            Some(bar) => bar.suspend(|| eprintln!("{m}")),
            None => eprintln!("{m}"),
        };
        for e in o.errors.drain(..) {
            say(format!("mainline: {name}: {e}"));
        }
        if let Some(e) = o.failure.take() {
            say(format!("mainline: {name}: {e:#}"));
            self.failed += 1;
        }
        self.pages += o.pages;
        self.html_bytes += o.html_bytes;
        self.compressed += o.compressed;
        for (k, v) in std::mem::take(&mut o.skipped) {
            *self.skipped.entry(k).or_default() += v;
        }
        if let Some(bar) = &self.progress {
            let secs = self.start.elapsed().as_secs_f64().max(1e-9);
            bar.inc(o.pages);
            bar.set_message(format!(
                "{:.0} pages/s, {:.1} MB/s of HTML",
                self.pages as f64 / secs,
                self.html_bytes as f64 / secs / 1e6
            ));
        }
    }

    fn finish(&self, quiet: bool) {
        if let Some(bar) = &self.progress {
            bar.finish_and_clear();
        }
        if quiet {
            return;
        }
        let secs = self.start.elapsed().as_secs_f64();
        let skipped: u64 = self.skipped.values().sum();
        let kinds: Vec<String> = self
            .skipped
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect();
        let per = |b: u64| b as f64 / 1e6 / secs.max(1e-9);
        let s = |n: u64| if n == 1 { "" } else { "s" };
        eprintln!(
            "mainline: {} WARC file{} ({} failed), {} HTML record{}, {} record{} with errors, {skipped} skipped{}, \
             {:.1} MB read, {:.1} MB of HTML in {secs:.2} s, {:.1} MB/s read, {:.1} MB/s of HTML",
            self.inputs.len(),
            s(self.inputs.len() as u64),
            self.failed,
            self.pages,
            s(self.pages),
            self.bad_records,
            s(self.bad_records),
            if kinds.is_empty() {
                String::new()
            } else {
                format!(" ({})", kinds.join(", "))
            },
            self.compressed as f64 / 1e6,
            self.html_bytes as f64 / 1e6,
            per(self.compressed),
            per(self.html_bytes),
        );
    }
}

/// Filters WARC files.
pub fn run(found: Vec<Found>, engine: Engine, settings: Settings) -> Result<ExitCode> {
    let mut inputs: Vec<PathBuf> = Vec::with_capacity(found.len());
    let mut targets: Vec<PathBuf> = Vec::with_capacity(found.len());
    let mut unreadable = Vec::new();
    for f in found {
        match f {
            Found::Page { path, out_name } => {
                if let Some(dir) = &settings.out_dir {
                    let t = target(dir, &out_name);
                    if let Some(i) = targets.iter().position(|x| x == &t) {
                        anyhow::bail!(
                            "{} and {} would both be written to {}; filter them separately",
                            display_name(&inputs[i]),
                            display_name(&path),
                            t.display()
                        );
                    }
                    targets.push(t);
                }
                inputs.push(path);
            }
            Found::Unreadable { path, error } => unreadable.push((path, error)),
        }
    }
    for (path, error) in &unreadable {
        eprintln!(
            "mainline: {}: reading the directory: {error}",
            display_name(path)
        );
    }
    let to_file =
        settings.out_dir.is_some() || matches!(settings.output, super::super::Output::File(_));
    let mut sink = match &settings.out_dir {
        Some(_) => {
            for t in &targets {
                if let Some(parent) = t.parent() {
                    fs::create_dir_all(parent).with_context(|| {
                        format!("creating output directory {}", parent.display())
                    })?;
                }
            }
            Sink::Dir {
                targets,
                open: None,
            }
        }
        None => Sink::Stdout(settings.output),
    };
    let options = HtmlOptions {
        any_status: settings.any_status,
        max_payload: settings.max_payload,
    };
    let jobs = Batches::new(inputs.clone(), settings.max_payload);
    let names: Arc<[PathBuf]> = inputs.clone().into();
    let spares = jobs.spares();
    let progress =
        (!settings.quiet && io::stderr().is_terminal() && (to_file || !io::stdout().is_terminal()))
            .then(|| progress_bar(None));
    let mut tally = Tally {
        start: Instant::now(),
        progress,
        inputs,
        pages: 0,
        html_bytes: 0,
        compressed: 0,
        skipped: BTreeMap::new(),
        bad_records: 0,
        failed: unreadable.len() as u64,
    };
    let mut consume = |o: io::Result<Outcome>, sink: &mut Sink| -> io::Result<()> {
        let mut o = o?;
        tally.bad_records += o.errors.len() as u64;
        if o.ended {
            sink.end(o.file, o.failure.is_some())?;
        }
        tally.add(&mut o);
        Ok(())
    };
    let result = if settings.threads > 1 {
        let engine = Arc::new(engine);
        let mut current = 0usize;
        ordered::run(
            jobs,
            settings.threads,
            (4 * settings.threads).max(8),
            move |job, out| {
                let file = job.file();
                (file, execute(job, &engine, &names, &options, &spares, out))
            },
            |event| match event {
                ordered::Event::Data(bytes) => sink.file(current)?.write_all(&bytes),
                ordered::Event::Done((file, o)) => {
                    let ended = o.as_ref().is_ok_and(|o| o.ended);
                    consume(o, &mut sink)?;
                    if ended {
                        current = file + 1;
                    }
                    Ok(())
                }
                ordered::Event::Idle => sink.flush(),
            },
        )
    } else {
        (|| {
            for job in jobs {
                let file = job.file();
                let o = execute(job, &engine, &names, &options, &spares, sink.file(file)?);
                consume(o, &mut sink)?;
            }
            Ok(())
        })()
    };
    let result = result.and_then(|()| sink.flush());
    if let Err(e) = result {
        let e = anyhow::Error::new(e).context("writing output");
        if is_broken_pipe(&e) {
            return Ok(ExitCode::SUCCESS);
        }
        return Err(e);
    }
    if let Sink::Stdout(output) = sink {
        output.finish()?;
    }
    tally.finish(settings.quiet);
    Ok(if tally.failed > 0 || tally.bad_records > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warc_files_are_recognised_by_their_extension() {
        let is = |n: &str| is_warc(OsStr::new(n));
        assert!(is("CC-MAIN-1.warc.gz") && is("a.WARC"));
        assert!(!is(".warc") && !is("a.warc.txt") && !is("a.html"));
    }

    #[test]
    fn output_names_drop_the_warc_extension() {
        let dir = Path::new("out");
        assert_eq!(
            target(dir, Path::new("crawl-00001.warc")),
            dir.join("crawl-00001.jsonl.gz")
        );
        assert_eq!(target(dir, Path::new("sub/x")), dir.join("sub/x.jsonl.gz"));
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut cases: Vec<String> = vec![String::new(), "plain".into(), "é\u{7f}€😀".into()];
        // Every byte below 0x80 at every offset of a window, between runs of plain text.
        for b in 0u8..0x80 {
            for at in 0..10 {
                let mut s = "abcdefghijklmnop".to_string();
                s.insert(at, char::from(b));
                cases.push(s);
            }
        }
        let mut seed = 7u64;
        for _ in 0..2000 {
            let len = (seed >> 33) as usize % 40;
            let s: String = (0..len)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    [
                        'a', '"', '\\', '\n', '\u{1}', '\u{1f}', ' ', 'é', '\u{7f}', 'Z', '\t',
                    ][(seed >> 40) as usize % 11]
                })
                .collect();
            cases.push(s);
        }
        for s in cases {
            let mut ours = Vec::new();
            push_json_str(&mut ours, &s);
            assert_eq!(ours, serde_json::to_vec(&s).unwrap(), "{s:?}");
        }
    }
}
