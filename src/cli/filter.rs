//! `mainline filter`: the main job. HTML in, main-content text out.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};

use mainline::extract::{Decision, Scorer};
use mainline::features;
use mainline::methods::Method;

use super::{Failure, display_name, inputs_or_stdin, stream_file};

/// Write the main content of HTML pages as text, one output line per kept line.
///
/// Each input is read as a stream (gzip is decompressed, the character encoding is taken
/// from a byte order mark, a <meta> charset or detection; output is always UTF-8) and each
/// line is decided as soon as the lines after it that the model needs have been read.
///
/// By default the model built into mainline decides; --model uses another model file and
/// --threshold the seed design's fixed rule (keep a line when its text density is above X).
///
/// An input that cannot be read is reported on standard error with its name, the other
/// inputs are still processed, and the exit code is 1.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline filter page.html\n  \
    mainline filter --out-dir texts/ pages/*.html.gz\n  \
    curl -s https://example.org | mainline filter --format jsonl | jq 'select(.keep|not).text'")]
pub struct Args {
    /// HTML files (plain or gzip). `-` or no file reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,

    /// Write each input's text to DIR/<stem>.txt (the file name without .gz, .html, .htm)
    /// instead of standard output. Each file is written whole or not at all.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,

    /// Output format: `text` (the kept lines) or `jsonl` (one JSON object for every line of
    /// the page with its text, byte counts, density, score, decision and feature values).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Keep lines whose text density (text bytes / HTML bytes) is above X, the seed
    /// design's fixed rule (its value: 0.5), instead of using a model.
    #[arg(long, value_name = "X", conflicts_with = "model")]
    threshold: Option<f32>,

    /// Decide with the model in FILE (written by `mainline train`) instead of the
    /// built-in model.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,

    /// Extract with another algorithm instead of the streaming line filter, for comparison:
    /// `most-linked`, `text-distribution`, `eatiht` or `lte-ratio` (the seed algorithms; see
    /// the README). These are whole-document DOM methods, NOT streaming: each page is read
    /// and parsed whole (html5ever) before anything is written. --format jsonl does not
    /// apply to them.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["model", "threshold"])]
    method: Option<Method>,

    /// With --method most-linked: also write the seed's graphviz graph of the pruned tree,
    /// with the chosen node filled, to FILE (for one input; render with `dot -Tpng`).
    #[arg(long, value_name = "FILE", requires = "method")]
    dot: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// The kept lines.
    Text,
    /// Every line as a JSON object, with features, score and decision.
    Jsonl,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if let Some(method) = args.method {
        return run_dom(method, &args);
    }
    let scorer = super::scorer(args.threshold, args.model.as_deref())?;
    if let Some(dir) = &args.out_dir {
        fs::create_dir_all(dir)
            .with_context(|| format!("creating output directory {}", dir.display()))?;
    }
    let inputs = inputs_or_stdin(args.files);
    let mut failed = 0usize;
    let mut stdout = super::stdout();
    for path in &inputs {
        let result = match &args.out_dir {
            Some(dir) => filter_to_dir(path, dir, &scorer, args.format),
            None => filter_one(path, &scorer, args.format, &mut stdout),
        };
        match result {
            Ok(()) => {}
            Err(Failure::Input(e)) => {
                failed += 1;
                eprintln!("mainline: {}: {e:#}", display_name(path));
            }
            Err(Failure::Output(e)) => {
                return Err(anyhow::Error::new(e).context("writing output"));
            }
        }
    }
    super::finish(stdout)?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--method`: a whole-document algorithm per input.
fn run_dom(method: Method, args: &Args) -> Result<ExitCode> {
    anyhow::ensure!(
        args.format == Format::Text,
        "--format jsonl describes the lines of the streaming filter; --method {method} writes text only"
    );
    anyhow::ensure!(
        args.dot.is_none() || method == Method::MostLinked,
        "--dot draws the tree of most-linked; use it with --method most-linked"
    );
    if let Some(dir) = &args.out_dir {
        fs::create_dir_all(dir)
            .with_context(|| format!("creating output directory {}", dir.display()))?;
    }
    let inputs = inputs_or_stdin(args.files.clone());
    anyhow::ensure!(
        args.dot.is_none() || inputs.len() == 1,
        "--dot writes one graph: give one input"
    );
    let mut failed = 0usize;
    let mut stdout = super::stdout();
    for path in &inputs {
        let html = match read_decoded(path) {
            Ok(h) => h,
            Err(e) => {
                failed += 1;
                eprintln!("mainline: {}: {e:#}", display_name(path));
                continue;
            }
        };
        let mut text = method.extract(&html);
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        if let Some(dot) = &args.dot {
            fs::write(dot, mainline::methods::most_linked::dot(&html))
                .with_context(|| format!("writing {}", dot.display()))?;
        }
        match &args.out_dir {
            Some(dir) => {
                write_atomically(&dir.join(format!("{}.txt", stem(path))), text.as_bytes())?
            }
            None => stdout
                .write_all(text.as_bytes())
                .context("writing to standard output")?,
        }
    }
    super::finish(stdout)?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reads a whole input (decompressed) and decodes it to UTF-8 with the splitter's rules.
fn read_decoded(path: &Path) -> Result<String> {
    let mut bytes = Vec::new();
    let mut input = mainline::input::open(path)?;
    std::io::Read::read_to_end(&mut input, &mut bytes)?;
    if let Some(kind) = mainline::input::binary_kind(&bytes) {
        anyhow::bail!("not an HTML document: the data looks like a {kind}");
    }
    let encoding = mainline::input::sniff(&bytes, true).encoding;
    Ok(encoding.decode(&bytes).0.into_owned())
}

fn write_atomically(target: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = target.with_file_name(format!(
        ".{}.tmp{}",
        target
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    fs::rename(&tmp, target)
        .with_context(|| format!("renaming {} to {}", tmp.display(), target.display()))
}

fn filter_one(
    path: &Path,
    scorer: &Arc<dyn Scorer>,
    format: Format,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let doc = display_name(path);
    let mut sink = |d: Decision| write_decision(out, &doc, &d, format);
    stream_file(path, scorer, format == Format::Jsonl, &mut sink).map(|_| ())
}

/// Writes into a temporary file beside the target and renames it into place, so an
/// interrupted run never leaves a half-written file under the final name.
fn filter_to_dir(
    path: &Path,
    dir: &Path,
    scorer: &Arc<dyn Scorer>,
    format: Format,
) -> Result<(), Failure> {
    let ext = match format {
        Format::Text => "txt",
        Format::Jsonl => "jsonl",
    };
    let target = dir.join(format!("{}.{ext}", stem(path)));
    let tmp = dir.join(format!(".{}.{ext}.tmp{}", stem(path), std::process::id()));
    let file = fs::File::create(&tmp)
        .with_context(|| format!("creating {}", tmp.display()))
        .map_err(Failure::Input)?;
    let mut out = io::BufWriter::new(file);
    let result = filter_one(path, scorer, format, &mut out).and_then(|()| {
        out.flush()
            .and_then(|()| out.get_ref().sync_all())
            .map_err(Failure::Output)
    });
    drop(out);
    match result {
        Ok(()) => fs::rename(&tmp, &target)
            .with_context(|| format!("renaming {} to {}", tmp.display(), target.display()))
            .map_err(Failure::Input),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// The output name of an input: its file name without `.gz`, then without `.html`/`.htm`.
fn stem(path: &Path) -> String {
    if path.as_os_str() == "-" {
        return "stdin".to_string();
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".to_string());
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let lower = name.to_ascii_lowercase();
    for ext in [".html", ".htm", ".xhtml"] {
        if lower.ends_with(ext) && name.len() > ext.len() {
            return name[..name.len() - ext.len()].to_string();
        }
    }
    name.to_string()
}

fn write_decision(out: &mut dyn Write, doc: &str, d: &Decision, format: Format) -> io::Result<()> {
    match format {
        Format::Text => {
            if d.keep {
                out.write_all(d.line.text.as_bytes())?;
                out.write_all(b"\n")?;
            }
            Ok(())
        }
        Format::Jsonl => {
            let line = &d.line;
            let mut obj = serde_json::json!({
                "doc": doc,
                "line": line.index,
                "text": line.text,
                "keep": d.keep,
                "score": d.score,
                "html_bytes": line.html_bytes,
                "text_bytes": line.text_bytes,
                "link_bytes": line.link_bytes,
                "density": line.density(),
                "block": line.block.name(),
                "heading": line.heading,
                "depth": line.depth,
                "ancestors": line.ancestors,
            });
            if let Some(values) = &d.features {
                let map: serde_json::Map<String, serde_json::Value> = features::names()
                    .iter()
                    .zip(values)
                    .map(|(n, v)| (n.clone(), serde_json::json!(v)))
                    .collect();
                obj["features"] = serde_json::Value::Object(map);
            }
            serde_json::to_writer(&mut *out, &obj)?;
            out.write_all(b"\n")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_drop_compression_and_html_extensions() {
        assert_eq!(stem(Path::new("a/0001.html.gz")), "0001");
        assert_eq!(stem(Path::new("page.HTM")), "page");
        assert_eq!(stem(Path::new("notes.txt")), "notes.txt");
        assert_eq!(stem(Path::new(".html")), ".html");
        assert_eq!(stem(Path::new("-")), "stdin");
    }
}
