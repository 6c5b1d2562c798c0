//! `mainline plot`: the seed design's two figures of one page, HTML bytes per line and text
//! density per line, with the model's score and decisions drawn over them.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use mainline::internals::extract::{Extractor, ModelScorer, Scorer};

use super::display_name;
use super::walk::stem;

/// Draw the HTML bytes and the text density of every line of one page, as charts.
///
/// Writes two files into the current directory (or --out-dir DIR), named after the page
/// (<stem> is its file name without .gz, .html, .htm), the seed design's two figures:
///
/// <stem>-bytes.svg: HTML bytes per line on a log scale, the bars of the lines the model keeps
/// in green, the mean as a dashed line.
///
/// <stem>-density.svg: text density per line (text bytes / HTML bytes, 0 to 1) with the fixed
/// threshold of the seed design's rule (--mark-threshold, 0.5), and the model's score per line
/// with its own threshold; the lines the model keeps are shaded and their score markers filled.
///
/// With --image-format png the files are <stem>-bytes.png and <stem>-density.png. Each file
/// is written whole or not at all.
///
/// Limit: a page of more than 10,000 lines is refused (its input is not read further): a
/// chart 1400 pixels wide cannot show more; `mainline filter --format jsonl` lists them.
///
/// Fonts: the text of PNG charts is drawn with DejaVu Sans, which is built into mainline, so
/// no system font is needed. SVG charts hold their text as <text> elements in the generic
/// sans-serif family, which the viewer draws with its own font.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline plot page.html --out-dir plots/\n  \
    mainline plot --image-format png --mark-threshold 0.4 page.html.gz --out-dir plots/")]
pub struct Args {
    /// The HTML file (plain or gzip); `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// Write the charts into DIR (created when missing) instead of the current directory.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out_dir: PathBuf,

    /// Image format of the charts: `svg` (scalable, text as text) or `png` (1400×520
    /// pixels).
    #[arg(long, alias = "format", value_enum, value_name = "FORMAT", default_value_t = ImageFormat::Svg)]
    image_format: ImageFormat,

    /// Where to draw the fixed threshold of the seed design's rule (keep a line when its
    /// density is above X), between 0 and 1. It only draws a line: the lines kept are the
    /// model's decisions.
    #[arg(long, alias = "threshold", value_name = "X", default_value_t = 0.5, value_parser = super::parse_unit)]
    mark_threshold: f32,

    /// Score the lines with the model in FILE (written by `mainline train`) instead of the
    /// built-in model.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ImageFormat {
    /// Scalable vector graphics.
    Svg,
    /// A bitmap.
    Png,
}

impl ImageFormat {
    fn extension(self) -> &'static str {
        match self {
            ImageFormat::Svg => "svg",
            ImageFormat::Png => "png",
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let scorer = match &args.model {
        Some(path) => {
            let model = mainline::internals::model::Model::load(path)?;
            ModelScorer::new(model)
                .with_context(|| format!("cannot use the model {}", path.display()))?
        }
        None => ModelScorer::builtin(),
    };
    let name = display_name(&args.file);
    let input = super::open_input(&args.file).with_context(|| name.clone())?;
    let page = Page::extract(input, scorer, args.mark_threshold).with_context(|| name.clone())?;

    register_font()?;
    fs::create_dir_all(&args.out_dir)
        .with_context(|| format!("creating output directory {}", args.out_dir.display()))?;
    let stem = stem(&args.file);
    let title = stem.to_string_lossy();
    let mut out = super::stdout();
    for chart in [Chart::Bytes, Chart::Density] {
        let path = args
            .out_dir
            .join(file_name(&stem, chart, args.image_format));
        write_chart(&path, args.image_format, chart, &page, &title)?;
        writeln!(out, "{}", path.display()).context("writing to standard output")?;
    }
    super::finish(out)?;
    Ok(ExitCode::SUCCESS)
}

/// What is drawn about one line.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Point {
    index: u64,
    html_bytes: u64,
    density: f64,
    score: f32,
    keep: bool,
}

/// The lines of a page and the thresholds they are drawn against.
#[derive(Debug)]
struct Page {
    points: Vec<Point>,
    /// The fixed density threshold (`--mark-threshold`).
    fixed: f32,
    /// The model's own decision threshold on its score.
    model_threshold: f32,
}

impl Page {
    /// The lines of the page read from `html`, streamed: reading stops, with an error, at
    /// the line after [`MAX_LINES`].
    fn extract(mut html: impl Read, scorer: ModelScorer, fixed: f32) -> Result<Page> {
        let model_threshold = scorer.model().threshold;
        let scorer: Arc<dyn Scorer> = Arc::new(scorer);
        let mut ex = Extractor::new(scorer);
        let mut points = Vec::new();
        let mut take = |ex: &mut Extractor| -> Result<()> {
            while let Some(d) = ex.next_decision() {
                anyhow::ensure!(
                    points.len() < MAX_LINES,
                    "the page has more than {MAX_LINES} lines; plot draws at most that many (a \
                     chart is {} pixels wide); `mainline filter --format jsonl` lists every line",
                    SIZE.0
                );
                points.push(Point {
                    index: d.line.index,
                    html_bytes: d.line.html_bytes,
                    density: d.line.density(),
                    score: d.score,
                    keep: d.keep,
                });
            }
            Ok(())
        };
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match html.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            ex.write(&buf[..n])?;
            take(&mut ex)?;
        }
        ex.end()?;
        take(&mut ex)?;
        Ok(Page {
            points,
            fixed,
            model_threshold,
        })
    }

    fn kept(&self) -> usize {
        self.points.iter().filter(|p| p.keep).count()
    }

    /// Lines the fixed rule keeps: density above the threshold.
    fn kept_by_threshold(&self) -> usize {
        self.points
            .iter()
            .filter(|p| p.density > f64::from(self.fixed))
            .count()
    }

    /// The x range: one unit per line, each line centred on its index.
    fn x_range(&self) -> std::ops::Range<f64> {
        let last = self.points.last().map_or(0, |p| p.index) as f64;
        -0.5..last + 0.5
    }

    fn mean_html_bytes(&self) -> f64 {
        if self.points.is_empty() {
            return 0.0;
        }
        self.points.iter().map(|p| p.html_bytes as f64).sum::<f64>() / self.points.len() as f64
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chart {
    Bytes,
    Density,
}

/// `<stem>-bytes.svg`, `<stem>-density.png`, …
fn file_name(stem: &std::ffi::OsStr, chart: Chart, format: ImageFormat) -> std::ffi::OsString {
    let kind = match chart {
        Chart::Bytes => "bytes",
        Chart::Density => "density",
    };
    let mut name = stem.to_os_string();
    name.push(format!("-{kind}.{}", format.extension()));
    name
}

/// Runs of consecutive `true` values, as half-open ranges of positions.
fn runs(flags: impl IntoIterator<Item = bool>) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    let mut len = 0;
    for (i, flag) in flags.into_iter().enumerate() {
        match (flag, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            _ => {}
        }
        len = i + 1;
    }
    if let Some(s) = start {
        out.push(s..len);
    }
    out
}

/// The top of the log-scale byte axis: a little above the largest line, at least 10.
fn bytes_axis_top(max_bytes: u64) -> f64 {
    (max_bytes.max(1) as f64 * 1.5).max(10.0)
}

/// Radii in pixels of the density and the score markers: smaller when many lines share the
/// width, so that neighbours stay apart.
fn marker_radii(lines: usize) -> (u32, u32) {
    if lines > 400 { (1, 2) } else { (2, 3) }
}

const SIZE: (u32, u32) = (1400, 520);

/// The most lines a chart draws. Beyond a few per pixel a chart shows nothing more, and a
/// page of a million lines took 588 MB and wrote an SVG of 342 MB.
const MAX_LINES: usize = 10_000;
/// Width of the legend panel, right of the chart.
const LEGEND_WIDTH: u32 = 290;
const FONT: &str = "sans-serif";

const KEPT: RGBColor = RGBColor(44, 160, 44);
const DROPPED: RGBColor = RGBColor(170, 170, 170);
const DENSITY: RGBColor = RGBColor(31, 119, 180);
const SCORE: RGBColor = RGBColor(255, 127, 14);
const THRESHOLD: RGBColor = RGBColor(214, 39, 40);

/// Makes DejaVu Sans, built into the binary, the font of every chart, so that no system font
/// is looked up (PNG text is drawn from it; SVG text is laid out with its metrics).
fn register_font() -> Result<()> {
    plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
        .map_err(|_| anyhow::anyhow!("the built-in font cannot be read"))
}

fn write_chart(
    path: &Path,
    format: ImageFormat,
    chart: Chart,
    page: &Page,
    title: &str,
) -> Result<()> {
    let writing = || format!("writing {}", path.display());
    match format {
        ImageFormat::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
                draw(&root, chart, page, title).with_context(writing)?;
                root.present().map_err(plot_error).with_context(writing)?;
            }
            mainline_training::atomic::write(path, svg).with_context(writing)
        }
        ImageFormat::Png => {
            // The backend opens the file by name and picks the encoder by its extension.
            let file = mainline_training::atomic::AtomicFile::with_suffix(path, ".tmp.png")
                .with_context(writing)?;
            {
                let root = BitMapBackend::new(file.path(), SIZE).into_drawing_area();
                draw(&root, chart, page, title).with_context(writing)?;
                root.present().map_err(plot_error).with_context(writing)?;
            }
            file.commit().with_context(writing)
        }
    }
}

fn plot_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

/// How a series looks in the legend.
#[derive(Debug, Clone, Copy)]
enum Key {
    /// A filled box (bars, shaded bands).
    Swatch(RGBAColor),
    /// A dashed line (thresholds, the mean).
    Dashed(ShapeStyle),
    /// A line through a marker (a series of points); the marker is hollow when `filled` is
    /// false.
    Marker { color: RGBColor, filled: bool },
}

/// Draws the caption across the top, the chart on the left and its legend on the right.
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: Chart,
    page: &Page,
    title: &str,
) -> Result<()> {
    root.fill(&WHITE).map_err(plot_error)?;
    let (what, legend) = match chart {
        Chart::Bytes => ("HTML bytes per line", bytes_legend(page)),
        Chart::Density => (
            "text density and model score per line",
            density_legend(page),
        ),
    };
    let caption = format!(
        "{title}: {what} ({} lines, {} kept by the model)",
        page.points.len(),
        page.kept()
    );
    let body = root
        .margin(8, 0, 0, 0)
        .titled(&caption, (FONT, 22))
        .map_err(plot_error)?;
    let (plot, side) = body.split_horizontally(SIZE.0 - LEGEND_WIDTH);
    match chart {
        Chart::Bytes => draw_bytes(&plot, page)?,
        Chart::Density => draw_density(&plot, page)?,
    }
    draw_legend(&side, &legend)
}

/// The legend as a column of keys and labels, framed, at the top of `area`.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(Key, String)],
) -> Result<()> {
    const ROW: i32 = 24;
    let (x, y) = (8, 12);
    let frame = [
        (x, y),
        (LEGEND_WIDTH as i32 - 10, y + 8 + ROW * entries.len() as i32),
    ];
    area.draw(&Rectangle::new(frame, BLACK.mix(0.4)))
        .map_err(plot_error)?;
    let text = TextStyle::from((FONT, 14)).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (key, label)) in entries.iter().enumerate() {
        let cy = y + 4 + ROW * i as i32 + ROW / 2;
        let (x0, x1) = (x + 10, x + 34);
        match *key {
            Key::Swatch(color) => area.draw(&Rectangle::new(
                [(x0, cy - 6), (x1, cy + 6)],
                color.filled(),
            )),
            Key::Dashed(style) => area
                .draw(&PathElement::new([(x0, cy), (x0 + 9, cy)], style))
                .and_then(|()| area.draw(&PathElement::new([(x0 + 15, cy), (x1, cy)], style))),
            Key::Marker { color, filled } => {
                let centre = ((x0 + x1) / 2, cy);
                let fill = if filled {
                    color.filled()
                } else {
                    WHITE.filled()
                };
                area.draw(&PathElement::new([(x0, cy), (x1, cy)], color.mix(0.6)))
                    .and_then(|()| area.draw(&Circle::new(centre, 4, fill)))
                    .and_then(|()| area.draw(&Circle::new(centre, 4, color.stroke_width(1))))
            }
        }
        .map_err(plot_error)?;
        area.draw(&Text::new(label.clone(), (x1 + 10, cy), text.clone()))
            .map_err(plot_error)?;
    }
    Ok(())
}

fn bytes_legend(page: &Page) -> Vec<(Key, String)> {
    let mut keys = vec![
        (Key::Swatch(KEPT.to_rgba()), "kept by the model".to_string()),
        (Key::Swatch(DROPPED.to_rgba()), "dropped".to_string()),
    ];
    let mean = page.mean_html_bytes();
    if mean > 0.0 {
        keys.push((
            Key::Dashed(BLACK.stroke_width(1)),
            format!("mean: {mean:.0} bytes"),
        ));
    }
    keys
}

fn density_legend(page: &Page) -> Vec<(Key, String)> {
    vec![
        (Key::Swatch(KEPT.mix(0.18)), "kept by the model".to_string()),
        (
            Key::Dashed(THRESHOLD.stroke_width(2)),
            format!(
                "fixed threshold {} ({} above)",
                page.fixed,
                page.kept_by_threshold()
            ),
        ),
        (
            Key::Marker {
                color: DENSITY,
                filled: true,
            },
            "text density".to_string(),
        ),
        (
            Key::Dashed(SCORE.stroke_width(1)),
            format!("model threshold {}", page.model_threshold),
        ),
        (
            Key::Marker {
                color: SCORE,
                filled: true,
            },
            "model score, line kept".to_string(),
        ),
        (
            Key::Marker {
                color: SCORE,
                filled: false,
            },
            "model score, line dropped".to_string(),
        ),
    ]
}

/// The axes of a chart, with the line index across.
fn mesh<'a, DB: DrawingBackend + 'a, Y: Ranged + ValueFormatter<<Y as Ranged>::ValueType>>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, Y>>,
    y_desc: &str,
    y_format: &dyn Fn(&Y::ValueType) -> String,
) -> Result<()> {
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.08))
        .x_desc("line")
        .y_desc(y_desc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(y_format)
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 16))
        .draw()
        .map_err(plot_error)
}

/// Seed figure 1: how many HTML bytes each line takes, on a log scale.
fn draw_bytes<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, page: &Page) -> Result<()> {
    let max = page.points.iter().map(|p| p.html_bytes).max().unwrap_or(1);
    let bottom = 1.0;
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(76)
        .build_cartesian_2d(page.x_range(), (bottom..bytes_axis_top(max)).log_scale())
        .map_err(plot_error)?;
    mesh(&mut chart, "HTML bytes (log scale)", &|y| format!("{y:.0}"))?;

    let bar = |p: &Point| {
        let x = p.index as f64;
        let top = (p.html_bytes as f64).max(bottom);
        let color = if p.keep { KEPT } else { DROPPED };
        Rectangle::new([(x - 0.4, bottom), (x + 0.4, top)], color.filled())
    };
    chart
        .draw_series(page.points.iter().map(bar))
        .map_err(plot_error)?;

    let mean = page.mean_html_bytes();
    if mean > 0.0 {
        let range = page.x_range();
        chart
            .draw_series(DashedLineSeries::new(
                [(range.start, mean), (range.end, mean)],
                9,
                6,
                BLACK.stroke_width(1),
            ))
            .map_err(plot_error)?;
    }
    Ok(())
}

/// Seed figure 2: text density per line against the fixed threshold, with the model's
/// score and decisions.
fn draw_density<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, page: &Page) -> Result<()> {
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(page.x_range(), -0.03f64..1.03)
        .map_err(plot_error)?;
    mesh(
        &mut chart,
        "density (text bytes / HTML bytes), score",
        &|y| format!("{y:.1}"),
    )?;

    // The kept lines, shaded behind everything else; one band per run of kept lines.
    chart
        .draw_series(
            runs(page.points.iter().map(|p| p.keep))
                .into_iter()
                .map(|r| {
                    let first = page.points[r.start].index as f64;
                    let last = page.points[r.end - 1].index as f64;
                    Rectangle::new(
                        [(first - 0.5, 0.0), (last + 0.5, 1.0)],
                        KEPT.mix(0.18).filled(),
                    )
                }),
        )
        .map_err(plot_error)?;

    let range = page.x_range();
    let level = |y: f32| [(range.start, f64::from(y)), (range.end, f64::from(y))];
    chart
        .draw_series(DashedLineSeries::new(
            level(page.fixed),
            9,
            6,
            THRESHOLD.stroke_width(2),
        ))
        .map_err(plot_error)?;
    chart
        .draw_series(DashedLineSeries::new(
            level(page.model_threshold),
            9,
            6,
            SCORE.stroke_width(1),
        ))
        .map_err(plot_error)?;

    let (small, large) = marker_radii(page.points.len());
    let density = |p: &Point| (p.index as f64, p.density);
    chart
        .draw_series(LineSeries::new(
            page.points.iter().map(density),
            DENSITY.stroke_width(1),
        ))
        .map_err(plot_error)?;
    chart
        .draw_series(
            page.points
                .iter()
                .map(|p| Circle::new(density(p), small, DENSITY.filled())),
        )
        .map_err(plot_error)?;

    let score = |p: &Point| (p.index as f64, f64::from(p.score));
    chart
        .draw_series(LineSeries::new(
            page.points.iter().map(score),
            SCORE.mix(0.6).stroke_width(1),
        ))
        .map_err(plot_error)?;
    // Filled markers for the kept lines, hollow ones (white inside an outline) for the others.
    chart
        .draw_series(page.points.iter().map(|p| {
            let fill = if p.keep {
                SCORE.filled()
            } else {
                WHITE.filled()
            };
            Circle::new(score(p), large, fill)
        }))
        .map_err(plot_error)?;
    chart
        .draw_series(
            page.points
                .iter()
                .map(|p| Circle::new(score(p), large, SCORE.stroke_width(1))),
        )
        .map_err(plot_error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_carry_the_chart_and_the_format() {
        assert_eq!(
            file_name("0001".as_ref(), Chart::Bytes, ImageFormat::Svg),
            "0001-bytes.svg"
        );
        assert_eq!(
            file_name("page".as_ref(), Chart::Density, ImageFormat::Png),
            "page-density.png"
        );
    }

    #[test]
    fn runs_are_the_stretches_of_true() {
        let none: Vec<std::ops::Range<usize>> = Vec::new();
        assert_eq!(runs([]), none);
        assert_eq!(runs([false, false]), none);
        assert_eq!(runs([true]), vec![0..1]);
        assert_eq!(
            runs([true, true, false, true, false, false, true, true]),
            vec![0..2, 3..4, 6..8]
        );
    }

    #[test]
    fn markers_shrink_on_long_pages() {
        assert_eq!(marker_radii(55), (2, 3));
        assert_eq!(marker_radii(2000), (1, 2));
    }

    #[test]
    fn the_byte_axis_covers_the_largest_line() {
        assert_eq!(bytes_axis_top(0), 10.0);
        assert_eq!(bytes_axis_top(4), 10.0);
        assert!(bytes_axis_top(5000) > 5000.0);
    }

    #[test]
    fn a_page_gives_one_point_per_line_and_counts_its_keeps() {
        let html = b"<html><body><nav><a href=/>Home</a> <a href=/a>About</a></nav>\
            <p>A long paragraph of plain text, dense with words and nothing else.</p>\
            <p>Another paragraph, also of plain words only.</p></body></html>";
        let page = Page::extract(&html[..], ModelScorer::builtin(), 0.5).unwrap();
        assert!(page.points.len() >= 3, "{:?}", page.points);
        let indexes: Vec<u64> = page.points.iter().map(|p| p.index).collect();
        assert_eq!(indexes, (0..page.points.len() as u64).collect::<Vec<_>>());
        // The keeps are the model's decisions, and the threshold's those of density > 0.5,
        // worked out here without the chart code.
        let mut ex = mainline::internals::extract::Extractor::new(std::sync::Arc::new(
            ModelScorer::builtin(),
        ));
        ex.write(&html[..]).unwrap();
        ex.end().unwrap();
        let decided: Vec<bool> = std::iter::from_fn(|| ex.next_decision())
            .map(|d| d.keep)
            .collect();
        let keeps: Vec<bool> = page.points.iter().map(|p| p.keep).collect();
        assert_eq!(keeps, decided);
        assert_eq!(page.kept(), decided.iter().filter(|&&k| k).count());
        let dense = mainline::internals::lines::split(&html[..])
            .unwrap()
            .iter()
            .filter(|l| l.density() > 0.5)
            .count();
        assert_eq!(page.kept_by_threshold(), dense);
        assert!(dense >= 2, "the two paragraphs");
        assert_eq!(page.x_range(), -0.5..page.points.len() as f64 - 0.5);
        assert!(page.mean_html_bytes() > 0.0);
    }

    #[test]
    fn an_empty_page_draws_empty_charts() {
        let page = Page::extract(&b""[..], ModelScorer::builtin(), 0.5).unwrap();
        assert!(page.points.is_empty());
        assert_eq!(page.x_range(), -0.5..0.5);
        register_font().unwrap();
        for chart in [Chart::Bytes, Chart::Density] {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
                draw(&root, chart, &page, "empty").unwrap();
                root.present().unwrap();
            }
            assert!(svg.starts_with("<svg"), "{svg}");
        }
    }
}
