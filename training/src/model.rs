//! What training does with a [`Model`] beyond scoring one row: scoring a whole matrix of
//! rows, and writing the model file.

use std::path::Path;

use mainline::internals::model::Kernel;
use mainline::{Error, Model, Result};
use ndarray::{Array1, ArrayView2};

/// Training's uses of a [`Model`]: [`ModelExt::score_batch`] and [`ModelExt::save`].
pub trait ModelExt {
    /// Scores of every row of `rows` (one line per row, features in model order).
    ///
    /// Each score is bit-for-bit the value [`Model::score`] gives for that row.
    ///
    /// # Panics
    ///
    /// If the number of columns differs from the number of features.
    fn score_batch(&self, rows: ArrayView2<f32>) -> Array1<f32>;

    /// Writes the model to `path` as [JSON](Model::to_json), replacing the file whole or
    /// not at all ([`crate::atomic`]): a full disk or an interruption leaves the previous
    /// file in place.
    ///
    /// # Errors
    ///
    /// [`Error::ModelFile`] naming the file, wrapping the I/O error.
    fn save(&self, path: &Path) -> Result<()>;
}

impl ModelExt for Model {
    fn score_batch(&self, rows: ArrayView2<f32>) -> Array1<f32> {
        assert_eq!(
            rows.ncols(),
            self.n_features(),
            "rows have {} columns, the model reads {} features",
            rows.ncols(),
            self.n_features()
        );
        let kernel = Kernel::new(self);
        let mut scratch = Vec::new();
        let mut buf = Vec::new();
        rows.outer_iter()
            .map(|row| match row.as_slice() {
                Some(r) => kernel.score(r, &mut scratch),
                None => {
                    buf.clear();
                    buf.extend(row.iter().copied());
                    kernel.score(&buf, &mut scratch)
                }
            })
            .collect()
    }

    fn save(&self, path: &Path) -> Result<()> {
        crate::atomic::write(path, self.to_json()).map_err(|e| Error::ModelFile {
            path: path.to_path_buf(),
            cause: Box::new(e.into()),
        })
    }
}

#[cfg(test)]
mod tests {
    use mainline::internals::model::{Activation, Layer, ModelKind, Scaler, Tree};

    use super::*;

    fn logistic(features: &[&str], weights: Vec<f32>, bias: f32) -> Model {
        Model::new(
            features.iter().map(|s| s.to_string()).collect(),
            Scaler::identity(features.len()),
            ModelKind::Logistic { weights, bias },
        )
    }

    fn mlp() -> Model {
        Model::new(
            ["f0", "f1", "f2"].map(String::from).to_vec(),
            Scaler::identity(3),
            ModelKind::Mlp {
                layers: vec![
                    Layer {
                        activation: Activation::Tanh,
                        weights: vec![0.5; 6],
                        bias: vec![0.0, 0.1],
                    },
                    Layer {
                        activation: Activation::Sigmoid,
                        weights: vec![1.0, -1.0],
                        bias: vec![0.2],
                    },
                ],
            },
        )
    }

    #[test]
    fn score_batch_equals_score_row_by_row_even_for_non_contiguous_rows() {
        let m = logistic(&["a", "b", "c"], vec![0.3, -0.7, 1.1], 0.1);
        let x = ndarray::Array2::from_shape_fn((5, 3), |(i, j)| (i * 3 + j) as f32 * 0.37 - 2.0);
        let batch = m.score_batch(x.view());
        for (i, row) in x.outer_iter().enumerate() {
            assert_eq!(
                batch[i].to_bits(),
                m.score(row.as_slice().unwrap()).to_bits()
            );
        }
        // The same rows through a transposed copy: rows are strided, not contiguous.
        let xt = x.t().to_owned();
        let strided = m.score_batch(xt.t());
        assert_eq!(strided, batch);
    }

    #[test]
    fn trees_score_the_same_row_by_row_and_in_batches_whatever_their_depths() {
        let tree = |features: Vec<u32>, thresholds: Vec<f32>| {
            let leaves = (0..1 << features.len())
                .map(|i| i as f32 * 0.25 - 0.5)
                .collect();
            Tree {
                features,
                thresholds,
                leaves,
            }
        };
        let even = vec![
            tree(vec![0, 1], vec![0.0, 0.5]),
            tree(vec![2, 0], vec![-0.3, 1.0]),
        ];
        let mut mixed = even.clone();
        mixed.push(tree(vec![1], vec![0.1]));
        let x = ndarray::Array2::from_shape_fn((7, 3), |(i, j)| (i * 3 + j) as f32 * 0.29 - 2.0);
        for trees in [even, mixed] {
            let m = Model::new(
                vec!["a".into(), "b".into(), "c".into()],
                Scaler {
                    mean: vec![0.5, -0.25, 0.0],
                    std: vec![2.0, 1.0, 0.5],
                },
                ModelKind::Trees { trees, bias: 0.3 },
            );
            m.validate().unwrap();
            let batch = m.score_batch(x.view());
            for (i, row) in x.outer_iter().enumerate() {
                assert_eq!(
                    batch[i].to_bits(),
                    m.score(row.as_slice().unwrap()).to_bits()
                );
            }
            assert!(
                batch.iter().any(|&s| s != batch[0]),
                "the rows fall in different leaves"
            );
        }
    }

    #[test]
    fn load_and_save_name_the_file_in_their_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.json");
        let m = mlp();
        m.save(&path).unwrap();
        assert_eq!(Model::load(&path).unwrap(), m);

        let missing = dir.path().join("absent.json");
        let err = Model::load(&missing).unwrap_err();
        assert!(matches!(&err, Error::ModelFile { cause, .. } if matches!(**cause, Error::Io(_))));
        assert!(err.to_string().contains("absent.json"), "{err}");

        std::fs::write(&path, m.to_json().replace("\"format\": 3", "\"format\": 9")).unwrap();
        let err = Model::load(&path).unwrap_err();
        assert!(matches!(&err, Error::ModelFile { cause, .. }
            if matches!(**cause, Error::ModelVersion { found: 9, .. })));
        assert!(err.to_string().contains("model.json"), "{err}");

        let err = m.save(&dir.path().join("no/such/dir.json")).unwrap_err();
        assert!(err.to_string().contains("dir.json"), "{err}");
    }
}
