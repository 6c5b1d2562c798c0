//! `mainline train`: labelled CSV in, model file out.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use mainline::internals::features::{self, FeatureSet, MAX_CONTEXT};
use mainline_training::model::ModelExt;
use mainline_training::train::{self, ModelType, Recipe};

/// Train a line classifier on a labelled CSV and write it as a model file (JSON).
///
/// The CSV comes from `mainline label` (or `mainline lines` with the label column filled
/// in). A share of the sites (the `group` column) is held out, whole, for validation: the
/// MLP stops when the validation loss stops improving, and the decision threshold is the
/// one with the best validation F1. Features are standardised with statistics stored in the
/// model. Training is deterministic for a given --seed. Progress and validation metrics are
/// printed to standard error.
///
/// With --stack K the model has two stages: the per-line classifier above, and a second
/// classifier that decides each line from the first-stage scores of the K lines on each
/// side, running averages of the scores before it, and a few features of the line itself.
/// The second stage learns from out-of-fold scores (the training sites are split into
/// groups, the recipe's `inner_folds`, each scored by a first stage trained on the others),
/// and the filter then holds K more lines before deciding.
///
/// With --page as well, the second stage also sees the page as a whole: the line's score
/// against the page's mean, maximum and quantiles, and the scores pooled over the elements
/// that contain the line (its block, container, region and further up, and the element
/// that gathers the most text scored as content). The filter then holds a page's lines, in
/// blocks of at most 4,096 lines and 4 MiB of text, before deciding them. Needs a CSV
/// written by this version of `mainline label` (with the `path` column).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline train wcxb-dev.csv --recipe training/default.toml -o default.json\n  \
    mainline train wcxb-dev.csv --recipe training/default.toml --seed 7 -o seed7.json\n  \
    mainline train data.csv --learner logistic --features seed --context 1 -o seed-slp.json\n  \
    mainline train data.csv --stack 8 --page --threshold-objective accuracy -o page.json\n\n\
A recipe file (TOML, or JSON when its name ends in .json) sets every field; training/README.md \
lists them. The flags below override single fields of it (without --recipe, of the defaults).")]
pub struct Args {
    /// The labelled CSV.
    #[arg(value_name = "DATA.csv")]
    data: PathBuf,

    /// Where to write the model.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,

    /// The recipe file: every setting of the model (training/default.toml rebuilds the
    /// built-in model). It is recorded in the model's provenance.
    #[arg(long, value_name = "FILE")]
    recipe: Option<PathBuf>,

    /// The classifier: `logistic` (the seed's single-layer perceptron, fitted by
    /// linfa-logistic), `mlp` (a multi-layer perceptron with 1–2 hidden layers) or `trees`
    /// (gradient-boosted oblivious decision trees). Default: mlp.
    #[arg(long = "learner", alias = "model", value_name = "LEARNER", value_parser = super::args::parse_model)]
    model: Option<ModelType>,

    /// Which features: `seed` (density, HTML bytes and text length of the line and its
    /// neighbours, as in the seed design) or `full` (every column of the schema). Default:
    /// full.
    #[arg(long, value_parser = parse_features)]
    features: Option<FeatureSet>,

    /// Neighbour lines on each side the features look at (0–3; the seed uses 1). A line is
    /// decided once this many following lines have been read. Default: 1.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=MAX_CONTEXT as i64))]
    context: Option<u8>,

    /// MLP: hidden layer widths, comma-separated (one or two layers), e.g. 32 or 64,16.
    /// Default: 32.
    #[arg(long, value_delimiter = ',')]
    hidden: Option<Vec<usize>>,

    /// Seed for the split, the initial weights and the batch order. Default: 42.
    #[arg(long)]
    seed: Option<u64>,

    /// Add a second stage that reads the first-stage scores of this many lines on each side
    /// (0–32; see above).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(0..=mainline::internals::second_stage::MAX_LOOKAHEAD as i64))]
    stack: Option<u8>,

    /// Two-stage models: the second stage also reads page-level inputs (see above).
    #[arg(long)]
    page: bool,

    #[command(flatten)]
    recipe_args: super::args::RecipeArgs,

    /// What the training data is, recorded in the file (default: the recipe's `data`, or
    /// the CSV's path).
    #[arg(long, value_name = "TEXT")]
    data_name: Option<String>,

    /// Fine-tune this model (a model file, or `builtin` for the model built into mainline)
    /// on the labelled rows instead of training a new one: a few labelled pages of a site
    /// (from `mainline review`) adapt it to that site. The model keeps its shape,
    /// standardisation and thresholds; its first stage (an MLP) takes 100 Adam steps
    /// (mini-batches of 32 lines, content and boilerplate weighed equally) at learning rate
    /// 3e-4, pulled back towards the starting weights, with --seed; the other training
    /// options do not apply.
    #[arg(long, value_name = "MODEL")]
    init: Option<String>,
}

impl Args {
    /// The recipe to train: the file's (or the defaults), with the flags given over it, and
    /// how to name it in the model's provenance.
    fn recipe(&self) -> Result<(Recipe, String)> {
        let (mut r, mut name) = match &self.recipe {
            Some(path) => (Recipe::load(path)?, path.display().to_string()),
            None => (Recipe::default(), String::new()),
        };
        let mut given = Vec::new();
        if let Some(m) = self.model {
            r.learner = m;
            given.push(format!("--learner {m}"));
        }
        if let Some(f) = self.features {
            r.features = f;
            given.push(format!("--features {}", feature_word(f)));
        }
        if let Some(c) = self.context {
            r.context = c as usize;
            given.push(format!("--context {c}"));
        }
        if let Some(h) = &self.hidden {
            r.hidden = h.clone();
            let h: Vec<String> = h.iter().map(|n| n.to_string()).collect();
            given.push(format!("--hidden {}", h.join(",")));
        }
        given.extend(self.recipe_args.apply(&mut r));
        if let Some(s) = self.seed {
            r.seed = s;
            given.push(format!("--seed {s}"));
        }
        if let Some(k) = self.stack {
            r.stack.get_or_insert_with(Default::default).lookahead = k as usize;
            given.push(format!("--stack {k}"));
        }
        let mut stage2 = Vec::new();
        if self.page {
            stage2.push("--page".to_string());
        }
        // Checked on a scratch second stage, so that flags given without one are named.
        let mut scratch = r.stack.clone().unwrap_or_default();
        scratch.page |= self.page;
        stage2.extend(self.recipe_args.apply_stack(&mut scratch));
        match r.stack.as_mut() {
            Some(stack) => *stack = scratch,
            None => usage_ensure!(
                stage2.is_empty(),
                "{} set a second stage: give --stack K too, or a recipe with a [stack] table",
                stage2.join(" ")
            ),
        }
        given.extend(stage2);
        if let Some(d) = &self.data_name {
            r.data = Some(d.clone());
        }
        r.check()?;
        if name.is_empty() {
            name = std::iter::once("mainline train".to_string())
                .chain(given)
                .collect::<Vec<_>>()
                .join(" ");
        } else if !given.is_empty() {
            name = format!("{name} with {}", given.join(" "));
        }
        Ok((r, name))
    }
}

fn feature_word(f: FeatureSet) -> &'static str {
    match f {
        FeatureSet::Seed => "seed",
        FeatureSet::Full => "full",
    }
}

fn parse_features(s: &str) -> Result<FeatureSet, String> {
    s.parse()
}

pub fn run(args: Args) -> Result<ExitCode> {
    // Checked before the training, which may take hours.
    super::check_writable(&args.output)?;
    if let Some(init) = &args.init {
        return super::finetune::run(init, &args.data, &args.output, args.seed.unwrap_or(42));
    }
    let (recipe, recipe_name) = args.recipe()?;
    let context = recipe.context;
    let wanted = features::select(recipe.features, context);
    let stack_params = recipe.stack_params();
    let mut columns = wanted.clone();
    if let Some(stack_params) = &stack_params {
        for name in stack_params
            .base
            .iter()
            .map(String::as_str)
            .chain(["ln_text_bytes"])
        {
            if !columns.iter().any(|c| c == name) {
                columns.push(name.to_string());
            }
        }
    }
    check_memory(&args.data, columns.len(), stack_params.is_some())?;
    let all = train::read_labelled_csv(&args.data, Some(&columns))?;
    // NOTE: one copy of the rows when the second stage reads no extra column (the data
    // set is the largest thing training holds).
    let (all, data) = if columns.len() == wanted.len() {
        (None, all)
    } else {
        let data = train::Dataset {
            features: wanted.clone(),
            x: all
                .x
                .select(ndarray::Axis(1), &(0..wanted.len()).collect::<Vec<_>>()),
            y: all.y.clone(),
            groups: all.groups.clone(),
            docs: all.docs.clone(),
        };
        (Some(all), data)
    };
    let aligned = if recipe.skip_poorly_aligned {
        let aligned = train::read_aligned(&args.data)?;
        let aligned = needed_column(aligned, "aligned", "skip_poorly_aligned", &args.data)?;
        let keep: Vec<usize> = (0..aligned.len()).filter(|&r| aligned[r]).collect();
        eprintln!(
            "leaving {} lines of poorly aligned pages out of training",
            aligned.len() - keep.len()
        );
        Some(keep)
    } else {
        None
    };
    // The rows of page variants (`mainline label --augment`) train only as the recipe's
    // `augment` says.
    let variants = train::read_variants(&args.data)?;
    let augment = recipe.augment();
    if !augment.variants.is_empty() && variants.is_none() {
        anyhow::bail!(
            "{} has no \"variant\" column, which the recipe's augment needs; write it with \
             mainline label --augment {}",
            args.data.display(),
            augment.variants[0]
        );
    }
    let aligned = match &variants {
        Some(variants) => {
            let rows: Vec<usize> = aligned.unwrap_or_else(|| (0..data.len()).collect());
            let keep: Vec<usize> = rows
                .into_iter()
                .filter(|&r| augment.trains(variants[r], &data.docs[r]))
                .collect();
            let of_variants = keep.iter().filter(|&&r| variants[r].is_some()).count();
            eprintln!("training on {of_variants} lines of page variants");
            Some(keep)
        }
        None => aligned,
    };
    let (all, data) = match &aligned {
        Some(keep) => (all.map(|a| a.select(keep)), data.select(keep)),
        None => (all, data),
    };
    let content = data.y.iter().filter(|&&y| y).count();
    eprintln!(
        "read {} lines ({} content) of {} features from {}",
        data.len(),
        content,
        wanted.len(),
        args.data.display()
    );
    let params = recipe.train_params().recipe(recipe_name).data(
        recipe
            .data
            .clone()
            .unwrap_or_else(|| args.data.display().to_string()),
    );
    let (mut model, report) = match &stack_params {
        None => train::train(&data, &params, &mut |epoch| eprintln!("{epoch}"))?,
        Some(stack_params) => {
            let mut inputs =
                train::StageInputs::of(all.as_ref().unwrap_or(&data), &stack_params.base)?;
            if stack_params.page {
                let paths =
                    needed_column(train::read_paths(&args.data)?, "path", "page", &args.data)?;
                inputs = inputs.with_paths(kept(paths, aligned.as_deref()))?;
                if stack_params.repeats {
                    let sigs = train::read_signatures(&args.data)?;
                    let sigs = needed_column(sigs, "sig", "repeats", &args.data)?;
                    inputs = inputs.with_signatures(kept(sigs, aligned.as_deref()))?;
                }
                if stack_params.hints {
                    let hints = train::read_hints(&args.data)?;
                    let hints = needed_column(hints, "hints", "hints", &args.data)?;
                    inputs = inputs.with_hints(kept(hints, aligned.as_deref()))?;
                }
            }
            // Variant rows train, but the thresholds are chosen on the pages as written.
            if let Some(variants) = &variants {
                let marks = variants.iter().map(Option::is_some).collect();
                inputs = inputs.with_variants(kept(marks, aligned.as_deref()))?;
            }
            let rows: Vec<usize> = (0..data.len()).collect();
            train::train_stacked(&data, &inputs, &rows, &params, stack_params, &mut |m| {
                eprintln!("{m}")
            })?
        }
    };
    if let Some(s2) = &model.stack {
        let r = &model.provenance.validation["stage2"];
        eprintln!(
            "second stage ({} inputs, lookahead {}): threshold {:.2}, validation accuracy {:.4}, F1 {:.4}, {} errors",
            s2.features.len(),
            s2.lookahead,
            s2.threshold,
            r["validation"]["accuracy"].as_f64().unwrap_or(f64::NAN),
            r["validation"]["f1"].as_f64().unwrap_or(f64::NAN),
            r["validation"]["errors"]
        );
    }
    model
        .provenance
        .extra
        .insert("settings".into(), recipe.to_json());
    model
        .save(&args.output)
        .with_context(|| format!("writing the model to {}", args.output.display()))?;
    let v = &report.validation;
    eprintln!(
        "validation ({} lines of {} sites): threshold {:.2}, accuracy {:.4}, precision {:.4}, recall {:.4}, F1 {:.4}, {} errors",
        report.val_rows,
        report.val_groups,
        report.threshold,
        v.accuracy,
        v.precision,
        v.recall,
        v.f1,
        v.errors
    );
    if let Some(b) = &report.baseline {
        eprintln!(
            "fixed threshold density > 0.5 on the same lines: accuracy {:.4}, F1 {:.4}, {} errors",
            b.accuracy, b.f1, b.errors
        );
    }
    eprintln!("wrote {}", args.output.display());
    Ok(ExitCode::SUCCESS)
}

/// A column of the labelled CSV that a flag needs, or an error saying how to get it.
/// Refuses, before reading the training set, one that would not fit in the memory this
/// process may use: rather than stop with an allocation failure hours in, or be killed.
///
/// NOTE: the rows are counted by their line ends (a text with line breaks in it counts
/// more), and the estimate is [`train::memory_needed`], measured on the peak of real runs.
fn check_memory(path: &Path, columns: usize, stacked: bool) -> Result<()> {
    let Some(available) = available_memory() else {
        return Ok(());
    };
    let rows = count_lines(path).with_context(|| format!("reading {}", path.display()))?;
    let need = train::memory_needed(rows, columns, stacked);
    let gb = |b: u64| b as f64 / 1e9;
    anyhow::ensure!(
        need <= available,
        "{}: training on about {rows} rows of {columns} columns needs about {:.1} GB of \
         memory, and {:.1} GB is available; train on a sample of the sites, or where there is \
         more memory",
        path.display(),
        gb(need),
        gb(available)
    );
    Ok(())
}

/// Line ends in a file.
fn count_lines(path: &Path) -> std::io::Result<u64> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut buf = vec![0u8; 1 << 16];
    let mut lines = 0u64;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => return Ok(lines),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
    }
}

/// The memory this process may still allocate, in bytes, where the system says (Linux):
/// the least of the memory available, the cgroup's limit less its use, and the address
/// space limit less what is mapped. `None` when nothing is known.
fn available_memory() -> Option<u64> {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let kib_field = |text: &str, key: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace()
            .nth(1)?
            .parse::<u64>()
            .ok()
            .map(|k| k * 1024)
    };
    let mut limits = Vec::new();
    if let Some(m) = read("/proc/meminfo").and_then(|t| kib_field(&t, "MemAvailable:")) {
        limits.push(m);
    }
    let cgroup = read("/sys/fs/cgroup/memory.max").and_then(|t| t.trim().parse::<u64>().ok());
    let used = read("/sys/fs/cgroup/memory.current").and_then(|t| t.trim().parse::<u64>().ok());
    if let (Some(max), Some(used)) = (cgroup, used) {
        limits.push(max.saturating_sub(used));
    }
    let address_space = read("/proc/self/limits").and_then(|t| {
        let line = t.lines().find(|l| l.starts_with("Max address space"))?;
        line.split_whitespace().nth(3)?.parse::<u64>().ok()
    });
    let mapped = read("/proc/self/status").and_then(|t| kib_field(&t, "VmSize:"));
    if let (Some(limit), Some(mapped)) = (address_space, mapped) {
        limits.push(limit.saturating_sub(mapped));
    }
    limits.into_iter().min()
}

fn needed_column<T>(column: Option<T>, name: &str, flag: &str, csv: &Path) -> Result<T> {
    column.with_context(|| {
        format!(
            "{} has no \"{name}\" column, which the recipe's {flag} needs; write it again \
             with this version of mainline label",
            csv.display()
        )
    })
}

/// The values of the rows kept for training (all of them without a selection).
fn kept<T: Copy>(values: Vec<T>, keep: Option<&[usize]>) -> Vec<T> {
    match keep {
        Some(keep) => keep.iter().map(|&r| values[r]).collect(),
        None => values,
    }
}
