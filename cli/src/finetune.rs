//! `mainline train --init MODEL`: fine-tune a model on a few labelled pages.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};

use mainline::internals::model::Model;
use mainline_training::model::ModelExt;
use mainline_training::train::{self, FineTuneParams};

pub fn run(init: &str, data_path: &Path, output: &Path, seed: u64) -> Result<ExitCode> {
    let model = if init == "builtin" {
        mainline::internals::extract::ModelScorer::builtin()
            .model()
            .clone()
    } else {
        Model::load(Path::new(init)).with_context(|| format!("reading the model {init}"))?
    };
    let data = train::read_labelled_csv(data_path, Some(&model.features))?;
    let csv = data_path.display();
    let mut docs = data.docs.clone();
    docs.dedup();
    eprintln!(
        "read {} lines ({} content) of {} pages from {csv}",
        data.len(),
        data.y.iter().filter(|&&y| y).count(),
        docs.len()
    );
    let params = FineTuneParams {
        seed,
        ..FineTuneParams::default()
    };
    let mut tuned = train::fine_tune(&model, &data, &params, &mut |e| {
        eprintln!(
            "pass {:>3}/{}: loss {:.4}, line F1 {:.3}",
            e.epoch, e.epochs, e.train_loss, e.val_f1
        )
    })?;
    let p = &mut tuned.provenance;
    p.recipe = format!("mainline train --init {init}");
    p.data = format!("{csv}: {} lines of {} pages", data.len(), docs.len());
    p.created_by = mainline::internals::model::created_by();
    p.extra.insert(
        "fine_tuned".into(),
        serde_json::json!({
            "from": init,
            "from_recipe": model.provenance.recipe,
            "params": params.to_json(),
        }),
    );
    tuned
        .save(output)
        .with_context(|| format!("writing the model {}", output.display()))?;
    eprintln!("wrote {} (first stage fine-tuned)", output.display());
    Ok(ExitCode::SUCCESS)
}
