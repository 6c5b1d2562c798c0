//! Model files: any text either loads or is rejected with an error, never a panic, and a
//! model that loads scores any feature row without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mainline::internals::features::N_FEATURES;
use mainline::internals::model::Model;
use mainline::{ModelScorer, Scorer};

fuzz_target!(|text: &str| {
    let Ok(model) = Model::from_json(text) else {
        return;
    };
    let _ = model.to_json();
    let Ok(scorer) = ModelScorer::new(model) else {
        return;
    };
    let mut scratch = Vec::new();
    for row in [
        vec![0.0; N_FEATURES],
        vec![1.0; N_FEATURES],
        vec![-1e30; N_FEATURES],
        vec![f32::MAX; N_FEATURES],
    ] {
        // NOTE: extreme rows may score NaN (infinite activations); only panics are bugs.
        let _ = scorer.decide(&row, &mut scratch);
    }
});
