//! `mainline train --init MODEL`: fine-tune a model on a few labelled pages.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};

use mainline::model::Model;
use mainline::train::{self, FineTuneParams, StageInputs, TunedStage};

pub fn run(init: &str, data_path: &Path, output: &Path, seed: u64) -> Result<ExitCode> {
    let model = if init == "builtin" {
        mainline::extract::ModelScorer::builtin().model().clone()
    } else {
        Model::load(Path::new(init)).with_context(|| format!("reading the model {init}"))?
    };
    let columns = train::fine_tune_columns(&model);
    let data = train::read_labelled_csv(data_path, Some(&columns))?;
    let csv = data_path.display();
    let inputs = if model.stack.as_deref().is_some_and(|s| s.page) {
        let paths = train::read_paths(data_path)?.with_context(|| {
            format!("{csv} has no \"path\" column, which fine-tuning this model needs")
        })?;
        let sigs = train::read_signatures(data_path)?.with_context(|| {
            format!("{csv} has no \"sig\" column, which fine-tuning this model needs")
        })?;
        Some(
            StageInputs::of(&data, &train::stage2_base_names(&model))?
                .with_paths(paths)?
                .with_signatures(sigs)?,
        )
    } else {
        None
    };
    let content = data.y.iter().filter(|&&y| y).count();
    eprintln!(
        "read {} lines ({content} content) of {} pages from {csv}",
        data.len(),
        {
            let mut docs = data.docs.clone();
            docs.dedup();
            docs.len()
        }
    );
    let params = FineTuneParams {
        seed,
        ..FineTuneParams::default()
    };
    let (mut tuned, stage) = train::fine_tune(&model, &data, inputs.as_ref(), &params, &mut |e| {
        eprintln!(
            "pass {:>2}/{}: loss {:.4}, line F1 {:.3}",
            e.epoch, e.epochs, e.train_loss, e.val_f1
        )
    })?;
    let which = match stage {
        TunedStage::First => "first",
        TunedStage::Second => "second",
    };
    let p = &mut tuned.provenance;
    p.recipe = format!("mainline train --init {init} ({which} stage fine-tuned)");
    p.data = format!("{csv}: {} lines", data.len());
    p.created_by = mainline::model::created_by();
    p.extra.insert(
        "fine_tuned".into(),
        serde_json::json!({
            "from": init,
            "from_recipe": model.provenance.recipe,
            "stage": which,
            "params": params.to_json(),
        }),
    );
    tuned
        .save(output)
        .with_context(|| format!("writing the model {}", output.display()))?;
    eprintln!("wrote {} ({which} stage fine-tuned)", output.display());
    Ok(ExitCode::SUCCESS)
}
