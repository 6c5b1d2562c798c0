//! `mainline train`: labelled CSV in, model file out.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use mainline::features::{self, FeatureSet, MAX_CONTEXT};
use mainline::model::Activation;
use mainline::train::{self, ModelType, ThresholdObjective, ThresholdRows, TrainParams};

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
/// --inner-folds groups, each scored by a first stage trained on the others), and the
/// filter then holds K more lines before deciding.
///
/// With --page as well, the second stage also sees the page as a whole: the line's score
/// against the page's mean, maximum and quantiles, and the scores pooled over the elements
/// that contain the line (its block, container, region and further up, and the element
/// that gathers the most text scored as content). The filter then holds a page's lines, in
/// blocks of at most 4,096 lines and 4 MiB of text, before deciding them. Needs a CSV
/// written by this version of `mainline label` (with the `path` column).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline train training/wcxb-dev.csv --learner mlp --features full --context 3 -o models/default.json\n  \
    mainline train data.csv --learner logistic --features seed --context 1 -o seed-slp.json\n  \
    mainline train training/wcxb-dev.csv --context 1 --stack 8 --threshold-objective accuracy -o two-stage.json\n  \
    mainline train training/wcxb-dev.csv --context 1 --stack 8 --page --threshold-objective accuracy -o page.json")]
pub struct Args {
    /// The labelled CSV.
    #[arg(value_name = "DATA.csv")]
    data: PathBuf,

    /// Where to write the model.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,

    /// The classifier: `logistic` (the seed's single-layer perceptron, fitted by
    /// linfa-logistic), `mlp` (a multi-layer perceptron with 1–2 hidden layers) or `trees`
    /// (gradient-boosted oblivious decision trees).
    #[arg(long = "learner", alias = "model", value_name = "LEARNER", default_value = "mlp", value_parser = super::args::parse_model)]
    model: ModelType,

    /// Which features: `seed` (density, HTML bytes and text length of the line and its
    /// neighbours, as in the seed design) or `full` (every column of the schema).
    #[arg(long, default_value = "full", value_parser = parse_features)]
    features: FeatureSet,

    /// Neighbour lines on each side the features look at (0–3; the seed uses 1). A line is
    /// decided once this many following lines have been read.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=MAX_CONTEXT as i64))]
    context: u8,

    /// MLP: hidden layer widths, comma-separated (one or two layers), e.g. 32 or 64,16.
    #[arg(long, value_delimiter = ',', default_value = "32")]
    hidden: Vec<usize>,

    /// MLP: hidden activation, `tanh` or `relu`.
    #[arg(long, default_value = "tanh")]
    activation: Activation,

    /// MLP: most passes over the training rows.
    #[arg(long, default_value_t = 40)]
    epochs: usize,

    /// MLP: rows per mini-batch.
    #[arg(long, default_value_t = 256)]
    batch_size: usize,

    /// MLP: Adam learning rate.
    #[arg(long, default_value_t = 1e-3)]
    learning_rate: f64,

    /// MLP: stop after this many epochs without a better validation loss.
    #[arg(long, default_value_t = 5)]
    patience: usize,

    #[command(flatten)]
    tree_args: super::args::TreeArgs,

    /// L2 penalty on the weights (trees: on the leaf values).
    #[arg(long, default_value_t = 1e-4)]
    l2: f64,

    /// MLP: weight both classes equally in the loss.
    #[arg(long)]
    balance_classes: bool,

    /// MLP and trees: weight a site's lines in the loss so that it counts as at most this
    /// many lines (big sites otherwise dominate training).
    #[arg(long, value_name = "N")]
    site_lines: Option<usize>,

    /// Leave the pages whose gold text aligned poorly with their lines (the CSV's `aligned`
    /// column, from `mainline label`) out of training: their labels say little about what
    /// the main content is.
    #[arg(long)]
    skip_poorly_aligned: bool,

    /// Share of the sites held out for validation.
    #[arg(long, default_value_t = 0.2)]
    val_fraction: f64,

    /// Seed for the split, the initial weights and the batch order.
    #[arg(long, default_value_t = 42)]
    seed: u64,

    /// Logistic: most L-BFGS iterations.
    #[arg(long, default_value_t = 200)]
    max_iterations: u64,

    /// What the decision threshold maximises (on the sites --threshold-rows names): `f1`
    /// (line F1 of the content class) or `accuracy` (fewest misclassified lines).
    #[arg(long, default_value = "f1")]
    threshold_objective: ThresholdObjective,

    /// Which sites the decision threshold is chosen on: `validation` (the held-out
    /// validation sites alone) or `all` (the training and validation sites together: the
    /// training sites' scores are in-sample, but five times as many sites make the
    /// threshold steadier). Early stopping still watches the validation sites. In a
    /// two-stage model this is the first stage's; --stack-threshold-rows sets the second's.
    #[arg(long, default_value = "validation")]
    threshold_rows: ThresholdRows,

    /// Add a second stage that reads the first-stage scores of this many lines on each side
    /// (0–32; see above).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(0..=mainline::stack::MAX_LOOKAHEAD as i64))]
    stack: Option<u8>,

    /// With --stack: the second stage also reads page-level inputs (see above).
    #[arg(long, requires = "stack")]
    page: bool,

    #[command(flatten)]
    stack_args: super::args::StackArgs,

    /// How the model was made, recorded in the file (e.g. the recipe script's path).
    #[arg(long, value_name = "TEXT")]
    recipe: Option<String>,

    /// What the training data is, recorded in the file (default: the CSV's path).
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

fn parse_features(s: &str) -> Result<FeatureSet, String> {
    s.parse()
}

pub fn run(args: Args) -> Result<ExitCode> {
    // Checked before the training, which may take hours.
    super::check_writable(&args.output)?;
    if let Some(init) = &args.init {
        return super::finetune::run(init, &args.data, &args.output, args.seed);
    }
    let context = args.context as usize;
    let wanted = features::select(args.features, context);
    let mut stack_params = args.stack_args.params(args.stack.unwrap_or(0) as usize)?;
    stack_params.page = args.page;
    let mut columns = wanted.clone();
    if args.stack.is_some() {
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
    check_memory(&args.data, columns.len(), args.stack.is_some())?;
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
    let aligned = if args.skip_poorly_aligned {
        let aligned = train::read_aligned(&args.data)?;
        let aligned = needed_column(aligned, "aligned", "--skip-poorly-aligned", &args.data)?;
        let keep: Vec<usize> = (0..aligned.len()).filter(|&r| aligned[r]).collect();
        eprintln!(
            "leaving {} lines of poorly aligned pages out of training",
            aligned.len() - keep.len()
        );
        Some(keep)
    } else {
        None
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
    let feature_word = match args.features {
        FeatureSet::Seed => "seed",
        FeatureSet::Full => "full",
    };
    let recipe = args.recipe.unwrap_or_else(|| {
        let stack = args
            .stack
            .map(|k| format!(" --stack {k}{}", if args.page { " --page" } else { "" }))
            .unwrap_or_default();
        format!(
            "mainline train --learner {} --features {feature_word} --context {context}{stack}",
            args.model
        )
    });
    let params = args
        .tree_args
        .apply(TrainParams::new(args.model))
        .hidden(args.hidden)
        .activation(args.activation)
        .epochs(args.epochs)
        .batch_size(args.batch_size)
        .learning_rate(args.learning_rate)
        .patience(args.patience)
        .l2(args.l2)
        .balance_classes(args.balance_classes)
        .site_lines(args.site_lines)
        .val_fraction(args.val_fraction)
        .seed(args.seed)
        .max_iterations(args.max_iterations)
        .threshold_objective(args.threshold_objective)
        .threshold_rows(args.threshold_rows)
        .context(context)
        .recipe(recipe)
        .data(
            args.data_name
                .unwrap_or_else(|| args.data.display().to_string()),
        );
    let (model, report) = match args.stack {
        None => train::train(&data, &params, &mut |epoch| eprintln!("{epoch}"))?,
        Some(_) => {
            let mut inputs =
                train::StageInputs::of(all.as_ref().unwrap_or(&data), &stack_params.base)?;
            if args.page {
                let paths =
                    needed_column(train::read_paths(&args.data)?, "path", "--page", &args.data)?;
                inputs = inputs.with_paths(kept(paths, aligned.as_deref()))?;
                if stack_params.repeats {
                    let sigs = train::read_signatures(&args.data)?;
                    let sigs = needed_column(sigs, "sig", "--repeats", &args.data)?;
                    inputs = inputs.with_signatures(kept(sigs, aligned.as_deref()))?;
                }
            }
            let rows: Vec<usize> = (0..data.len()).collect();
            train::train_stacked(&data, &inputs, &rows, &params, &stack_params, &mut |m| {
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
            "{} has no \"{name}\" column, which {flag} needs; write it again with this \
             version of mainline label",
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
