//! Site mode in the command: `mainline site learn`, and what `filter --by-site` and
//! `filter --site-profile` share (the learning pass, the host of each page).

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};

use super::args::{InputFormat, parse_size};
use super::walk::{self, Found};
use mainline::site::{PageTemplate, Profile};

/// `mainline site`: learn the template of sites from their pages.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    Learn(LearnArgs),
}

/// Learn the template of each site (host) from its pages and save it as a site profile,
/// for `mainline filter --site-profile FILE`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline site learn -r crawl/ -o crawl.profile\n  \
    mainline site learn CC-MAIN-00000.warc.gz -o sites.profile\n  \
    curl -s https://example.org/a | mainline filter --site-profile crawl.profile --url https://example.org/a")]
pub struct LearnArgs {
    /// HTML files (plain or gzip), WARC files, JSON lines files (--input-format jsonl), or
    /// directories with --recursive.
    #[arg(value_name = "PAGES", required = true)]
    files: Vec<PathBuf>,

    /// The profile file to write.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,

    /// Walk directories for pages (and WARC files).
    #[arg(short, long)]
    recursive: bool,

    /// The URL of every page given, whose host is their site (else each page's canonical
    /// link, or a WARC record's URI).
    #[arg(long, value_name = "URL")]
    url: Option<String>,

    /// The most memory the sites' tables take, with an optional K, M or G suffix: 72 KiB
    /// a site; the pages of sites met after it is reached are not learnt.
    #[arg(long, value_name = "BYTES", default_value = "512M", value_parser = parse_size)]
    site_memory: usize,

    /// With WARC input: the most bytes of a record read.
    #[arg(long, value_name = "BYTES", default_value = "16M", value_parser = parse_size)]
    max_payload: usize,

    /// What the inputs hold, as `filter --input-format` reads them: `html` (pages; inputs
    /// that start with "WARC/1." are read as WARC files), `jsonl` (one JSON object per
    /// line, the page in its "html" field, its site the host of its "url" field) or `warc`.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = InputFormat::Html)]
    input_format: InputFormat,

    /// With --input-format jsonl: the longest record (input line) learnt, in bytes, with
    /// an optional K, M or G suffix.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    max_record_bytes: usize,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let Command::Learn(args) = args.command;
    usage_ensure!(
        !args.files.iter().any(|f| f.as_os_str() == "-"),
        "site learn reads its pages twice; give files or directories, not standard input"
    );
    super::check_writable(&args.output)?;
    let walk::Expanded { found, .. } =
        walk::expand(args.files, args.recursive, walk::Wanted::Pages);
    let mut learner = Learner::new(args.site_memory, args.url.as_deref(), args.max_payload);
    if args.input_format == InputFormat::Jsonl {
        learner = learner.jsonl(args.max_record_bytes);
    }
    for f in &found {
        learner.add(f);
    }
    let Learner {
        profile,
        pages,
        failed,
        ..
    } = learner;
    mainline_training::atomic::write(&args.output, profile.to_json() + "\n")
        .with_context(|| format!("writing {}", args.output.display()))?;
    eprintln!(
        "mainline: {} pages of {} sites learnt ({} without a host, {} not learnt beyond \
         the memory cap, {failed} unreadable) into {}",
        pages.learnt,
        profile.sites(),
        pages.no_host,
        profile.skipped(),
        args.output.display()
    );
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Counts of the pages read by a learning pass.
#[derive(Debug, Default)]
pub struct Pages {
    pub learnt: u64,
    pub no_host: u64,
}

/// The learning pass over pages and WARC files.
pub struct Learner {
    pub profile: Profile,
    /// The host of `--url`, which every page has.
    url_host: Option<String>,
    /// The host of each HTML file read.
    pub hosts: HashMap<PathBuf, String>,
    pub pages: Pages,
    pub failed: u64,
    max_payload: usize,
    /// The inputs are JSON lines (each record's page in its "html" field), read with this
    /// cap on a record's bytes.
    jsonl: Option<usize>,
    /// Say on standard error which inputs cannot be read (`filter --by-site` leaves that
    /// to its second pass, which reads them again).
    report: bool,
}

impl Learner {
    pub fn new(memory: usize, url: Option<&str>, max_payload: usize) -> Self {
        Learner {
            profile: Profile::new().with_memory(memory),
            url_host: url.and_then(mainline::site::host),
            hosts: HashMap::new(),
            pages: Pages::default(),
            failed: 0,
            max_payload,
            jsonl: None,
            report: true,
        }
    }

    /// Leaves the inputs that cannot be read unreported (counted in `failed`).
    pub fn unreported(mut self) -> Self {
        self.report = false;
        self
    }

    /// Reads the inputs as JSON lines, records of at most `max_record` bytes.
    pub fn jsonl(mut self, max_record: usize) -> Self {
        self.jsonl = Some(max_record);
        self
    }

    /// Reads one input (a page or a WARC file), learning its pages; an input that cannot
    /// be read is reported on standard error and counted.
    pub fn add(&mut self, f: &Found) {
        let Found::Page { path, .. } = f else {
            return;
        };
        if let Err(e) = self.add_path(path) {
            self.failed += 1;
            if self.report {
                eprintln!("mainline: {}: {e:#}", super::display_name(path));
            }
        }
    }

    fn add_path(&mut self, path: &Path) -> Result<()> {
        if let Some(cap) = self.jsonl {
            return self.add_jsonl(std::io::BufReader::new(super::open_input(path)?), cap);
        }
        let mut bytes = Vec::new();
        let mut input = super::open_input(path)?.take(MAX_PAGE + 1);
        // The head first: a WARC file is not read whole.
        (&mut input).take(8).read_to_end(&mut bytes)?;
        if mainline::warc::looks_like_warc(&bytes) {
            // The WARC reader reads the file as it is, member by member.
            let file = std::fs::File::open(path)?;
            return self.add_warc(std::io::BufReader::new(file));
        }
        input.read_to_end(&mut bytes)?;
        anyhow::ensure!(
            bytes.len() as u64 <= MAX_PAGE,
            "longer than {} MiB, the most a page learnt may be",
            MAX_PAGE >> 20
        );
        let (fps, url) = mainline::site::read_page(&bytes, None, self.url_host.is_none())?;
        let host = self
            .url_host
            .clone()
            .or_else(|| url.as_deref().and_then(mainline::site::host));
        match host {
            Some(h) => {
                self.profile
                    .learn_fingerprints(&h, mainline::site::digest(&bytes), fps);
                self.hosts.insert(path.to_path_buf(), h);
                self.pages.learnt += 1;
            }
            None => self.pages.no_host += 1,
        }
        Ok(())
    }

    /// Learns the pages of JSON lines records; lines that are not records with an html
    /// string, and longer ones than `cap`, are passed over (the second pass reports them).
    fn add_jsonl(&mut self, mut input: impl std::io::BufRead, cap: usize) -> Result<()> {
        use mainline::source::jsonl;
        while let Some(line) = jsonl::read_line(&mut input, cap)? {
            let jsonl::Line::Record(line) = line else {
                continue;
            };
            let Some((url, html)) = jsonl::page_of(&line) else {
                continue;
            };
            let want_url = url.is_none() && self.url_host.is_none();
            let Ok((fps, canonical)) =
                mainline::site::read_page(&record_page(&html), None, want_url)
            else {
                continue;
            };
            let host = self
                .url_host
                .clone()
                .or_else(|| url.or(canonical).as_deref().and_then(mainline::site::host));
            match host {
                Some(h) => {
                    self.profile
                        .learn_fingerprints(&h, mainline::site::digest(&html), fps);
                    self.pages.learnt += 1;
                }
                None => self.pages.no_host += 1,
            }
        }
        Ok(())
    }

    fn add_warc(&mut self, input: impl Read) -> Result<()> {
        let options = mainline::warc::HtmlOptions {
            any_status: false,
            max_payload: self.max_payload,
        };
        let reader = mainline::warc::Reader::new(input).max_block(self.max_payload);
        for r in reader {
            let Ok(record) = r else { continue };
            let Ok(mainline::warc::Content::Html(html)) = record.html(&options) else {
                continue;
            };
            let host = self
                .url_host
                .clone()
                .or_else(|| record.target_uri().and_then(mainline::site::host));
            let Some(host) = host else {
                self.pages.no_host += 1;
                continue;
            };
            let Ok((fps, _)) = mainline::site::read_page(&html.body, html.charset, false) else {
                continue;
            };
            self.profile
                .learn_fingerprints(&host, mainline::site::digest(&html.body), fps);
            self.pages.learnt += 1;
        }
        Ok(())
    }
}

/// The longest page learnt, in bytes.
const MAX_PAGE: u64 = 64 << 20;

/// A JSON lines record's page (its html field, decoded) as the splitter reads it: a byte
/// order mark first, so that it is read as the UTF-8 it is whatever a `<meta>` in it
/// declares, as the filter reads records.
fn record_page(html: &[u8]) -> Vec<u8> {
    let mut page = Vec::with_capacity(html.len() + 3);
    page.extend_from_slice("\u{feff}".as_bytes());
    page.extend_from_slice(html);
    page
}

/// How `filter` finds each page's site template.
pub struct SiteMode {
    pub profile: Arc<Profile>,
    /// The pages were learnt by a first pass over the same inputs (`--by-site`): every
    /// page of a learnt site is one of its pages.
    pub learnt: bool,
    /// The host of `--url`.
    pub url_host: Option<String>,
    /// The host of each HTML file (from the first pass).
    pub hosts: HashMap<PathBuf, String>,
}

impl SiteMode {
    /// The template of a page of `host`, whose bytes are `html` when known.
    pub fn template(&self, host: Option<&str>, html: Option<&[u8]>) -> Option<PageTemplate> {
        let host = self.url_host.as_deref().or(host)?;
        if self.learnt {
            self.profile.learnt_page(host)
        } else {
            match html {
                Some(html) => self.profile.page(host, html),
                None => self.profile.stream_page(host),
            }
        }
    }

    /// The template of a JSON lines record with the `url` field `url` (if any) and the
    /// page `html` (its html field, decoded): its site is the host of --url, else of
    /// `url`, else of the page's canonical link, as the first pass took it.
    pub fn record_template(&self, url: Option<&str>, html: &[u8]) -> Option<PageTemplate> {
        let host = match (&self.url_host, url.and_then(mainline::site::host)) {
            (Some(_), _) => None,
            (None, Some(h)) => Some(h),
            (None, None) => mainline::site::read_page(&record_page(html), None, true)
                .ok()?
                .1
                .as_deref()
                .and_then(mainline::site::host),
        };
        self.template(host.as_deref(), Some(html))
    }

    /// The template of the HTML file `path`.
    pub fn file_template(&self, path: &Path) -> Option<PageTemplate> {
        let host = self.hosts.get(path).map(String::as_str);
        if self.learnt {
            return self.template(host, None);
        }
        if path.as_os_str() == "-" {
            return self.template(None, None);
        }
        // A saved profile: the page is read to know its host (its canonical link) and
        // whether it is one of those learnt.
        let mut bytes = Vec::new();
        let input = super::open_input(path).ok()?;
        input.take(MAX_PAGE).read_to_end(&mut bytes).ok()?;
        let url = match &self.url_host {
            Some(_) => None,
            None => mainline::site::read_page(&bytes, None, true).ok()?.1,
        };
        self.template(
            url.as_deref().and_then(mainline::site::host).as_deref(),
            Some(&bytes),
        )
    }
}
