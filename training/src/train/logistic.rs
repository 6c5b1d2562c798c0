//! Logistic regression fitted by linfa-logistic, turned into plain weights.

use linfa::prelude::Fit;
use linfa_logistic::LogisticRegression;
use ndarray::{Array1, ArrayView2, ShapeBuilder};

use super::TrainParams;
use mainline::internals::model::ModelKind;
use mainline::{Error, Result};

/// Fits weights and bias such that `sigmoid(w · z + b)` is P(content) for standardised rows
/// `z`.
pub(super) fn fit(z: ArrayView2<f32>, y: &[bool], params: &TrainParams) -> Result<ModelKind> {
    // NOTE: column-major on purpose. linfa computes the gradient as `x.t().dot(..)`, which
    // for a row-major `x` walks columns with a stride of a whole row (ndarray's fallback
    // matrix-vector product); column-major makes those walks contiguous. On 400k × 80
    // (training/src/tests/train.rs, `time_training_on_400k_rows_of_80_features`) this took the whole
    // logistic training from 14 s to 5 s of CPU time.
    let (n, f) = z.dim();
    let x = ndarray::Array2::from_shape_fn((n, f).f(), |(i, j)| f64::from(z[[i, j]]));
    let targets = Array1::from(y.to_vec());
    // linfa's loss is a sum over rows, ours a mean: scale the penalty to match.
    let fitted = LogisticRegression::default()
        .alpha(params.l2 * n as f64)
        .max_iterations(params.max_iterations)
        .fit(&linfa::Dataset::new(x, targets))
        .map_err(|e| Error::Training(format!("logistic regression: {e}")))?;
    // NOTE: linfa-logistic calls the more frequent class "positive" and returns its
    // probability. When boilerplate is the majority, the fitted weights predict
    // boilerplate; negate them so the model always gives P(content).
    let sign = if fitted.labels().pos.class { 1.0 } else { -1.0 };
    let weights = fitted.params().iter().map(|w| (sign * w) as f32).collect();
    let bias = (sign * fitted.intercept()) as f32;
    Ok(ModelKind::Logistic { weights, bias })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::ModelType;
    use linfa_logistic::FittedLogisticRegression;
    use mainline::internals::model::{Model, Scaler};
    use ndarray::Array2;

    /// Standardised-looking rows where content depends on both features, with `content`
    /// of `n` rows labelled content.
    fn data(n: usize, content: usize) -> (Array2<f32>, Vec<bool>) {
        let z = Array2::from_shape_fn((n, 2), |(i, j)| {
            let t = i as f32 / n as f32;
            if j == 0 {
                t * 4.0 - 2.0
            } else {
                ((i * 7919) % 13) as f32 / 6.0 - 1.0
            }
        });
        // Overlapping classes so the optimum is finite.
        let y = (0..n).map(|i| (i + (i * 31) % 17) >= n - content).collect();
        (z, y)
    }

    fn linfa_fit(z: &Array2<f32>, y: &[bool], alpha: f64) -> FittedLogisticRegression<f64, bool> {
        LogisticRegression::default()
            .alpha(alpha)
            .max_iterations(200)
            .fit(&linfa::Dataset::new(
                z.mapv(f64::from),
                Array1::from(y.to_vec()),
            ))
            .unwrap()
    }

    #[test]
    fn the_saved_model_gives_linfas_probability_of_content_whichever_class_is_larger() {
        for content in [60, 240] {
            let (z, y) = data(300, content);
            let params = TrainParams::new(ModelType::Logistic).l2(1e-3);
            let kind = fit(z.view(), &y, &params).unwrap();
            let model = Model::new(vec!["a".into(), "b".into()], Scaler::identity(2), kind);
            model.validate().unwrap();

            let reference = linfa_fit(&z, &y, 1e-3 * 300.0);
            let majority_is_content = content > 150;
            assert_eq!(reference.labels().pos.class, majority_is_content);
            let p = reference.predict_probabilities(&z.mapv(f64::from));
            for (i, row) in z.outer_iter().enumerate() {
                let p_content = if reference.labels().pos.class {
                    p[i]
                } else {
                    1.0 - p[i]
                };
                let ours = model.score(row.as_slice().unwrap()) as f64;
                assert!(
                    (ours - p_content).abs() < 1e-5,
                    "row {i}: {ours} vs {p_content}"
                );
            }
        }
    }
}
