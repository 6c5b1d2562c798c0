//! Gradient boosting of oblivious decision trees ([`mainline::internals::model::Tree`]) on the logistic
//! loss.
//!
//! Each feature's training values are cut into at most [`BINS`] bins at their quantiles;
//! a split is "bin above b", which is "value at least the bin's lower edge", so the trees
//! compare raw (standardised) values when they score. Each round grows one tree of
//! `params.depth` levels from the loss's first and second derivatives at the current
//! logits (Newton boosting): at every level the one (feature, edge) pair that most lowers
//! the loss summed over all the level's nodes, and finally each leaf's value
//! `-G / (H + λ)`, shrunk by `params.shrinkage`. `λ` is [`TrainParams::l2`] times the
//! training rows, the same penalty per mean loss as the other models' L2. Row weights
//! ([`TrainParams::site_lines`]) multiply both derivatives.
//!
//! After each round the validation rows' loss is computed; training stops once it has not
//! improved for [`PATIENCE`] rounds or after `params.trees` rounds, and keeps the trees up
//! to the best round. Nothing is random: the same rows give the same trees.

use ndarray::ArrayView2;

use super::{EpochReport, LineMetrics, TrainParams, mlp::bce_from_logit};
use mainline::internals::model::Tree;
use mainline::{Error, Result};

/// Most bins per feature (so a bin index fits a byte).
pub const BINS: usize = 64;

/// Rounds without a lower validation loss before training stops.
pub const PATIENCE: usize = 20;

/// Rows sampled (evenly spaced) to place the bin edges of a feature.
const EDGE_SAMPLE: usize = 200_000;

/// What boosting made: the trees kept, their bias, and how training went.
pub(super) struct TreesFit {
    pub trees: Vec<Tree>,
    pub bias: f32,
    pub rounds_run: usize,
    pub best_round: usize,
    pub train_loss: f64,
    pub val_loss: f64,
}

/// Bin edges of each column of `x`: the distinct quantiles at 1/BINS, 2/BINS, ….
fn edges(x: ArrayView2<f32>) -> Vec<Vec<f32>> {
    let n = x.nrows();
    let step = n.div_ceil(EDGE_SAMPLE).max(1);
    x.columns()
        .into_iter()
        .map(|col| {
            let mut v: Vec<f32> = col
                .iter()
                .step_by(step)
                .copied()
                .filter(|v| !v.is_nan())
                .collect();
            v.sort_by(f32::total_cmp);
            let mut e: Vec<f32> = Vec::with_capacity(BINS - 1);
            if v.is_empty() {
                return e;
            }
            for q in 1..BINS {
                let c = v[(v.len() - 1) * q / BINS];
                // An edge at the minimum would leave its lower bin empty.
                if c > v[0] && e.last().is_none_or(|&l| c > l) {
                    e.push(c);
                }
            }
            e
        })
        .collect()
}

/// The bin of `v` among `edges`: how many edges are at most `v` (0 for NaN).
#[inline]
fn bin(edges: &[f32], v: f32) -> u8 {
    edges.partition_point(|&e| e <= v) as u8
}

/// Fits boosted trees to standardised rows `x` with labels `y`, stopping early on `val_x`.
#[allow(clippy::too_many_arguments)]
pub(super) fn fit(
    x: ArrayView2<f32>,
    y: &[bool],
    val_x: ArrayView2<f32>,
    val_y: &[bool],
    params: &TrainParams,
    row_weights: Option<&[f32]>,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<TreesFit> {
    let (n, f) = x.dim();
    if n == 0 || y.len() != n || val_x.nrows() != val_y.len() || val_x.ncols() != f {
        return Err(Error::Training(
            "boosting needs training rows with one label each".into(),
        ));
    }
    let ones = vec![1.0f32; n];
    let w = row_weights.unwrap_or(&ones);
    let edges = edges(x);
    // Column-major bins: one pass over a feature reads contiguous bytes.
    let mut bins = vec![0u8; n * f];
    for (j, col) in x.columns().into_iter().enumerate() {
        for (b, &v) in bins[j * n..(j + 1) * n].iter_mut().zip(col.iter()) {
            *b = bin(&edges[j], v);
        }
    }
    let (wsum, wpos) = y.iter().zip(w).fold((0.0f64, 0.0f64), |(s, p), (&c, &wi)| {
        (s + f64::from(wi), p + if c { f64::from(wi) } else { 0.0 })
    });
    let prior = (wpos / wsum).clamp(1e-6, 1.0 - 1e-6);
    let bias = (prior / (1.0 - prior)).ln() as f32;
    let lambda = params.l2 * n as f64;
    let depth = params.depth;
    let leaves = 1usize << depth;

    let val_x = val_x.as_standard_layout();
    let mut logit = vec![bias; n];
    let mut val_logit = vec![bias; val_y.len()];
    let mut g = vec![0.0f32; n];
    let mut h = vec![0.0f32; n];
    let mut node = vec![0u32; n];
    let mut hist = vec![[0.0f64; 2]; leaves / 2 * BINS];
    let mut gains = vec![0.0f64; BINS];
    let mut trees: Vec<Tree> = Vec::new();
    let (mut best, mut best_round, mut best_train) = (f64::INFINITY, 0usize, f64::NAN);
    let mut rounds_run = 0;
    for round in 1..=params.trees {
        rounds_run = round;
        let mut train_loss = 0.0;
        for i in 0..n {
            let p = mainline::internals::model::sigmoid(logit[i]);
            let t = if y[i] { 1.0 } else { 0.0 };
            g[i] = w[i] * (p - t);
            h[i] = w[i] * (p * (1.0 - p)).max(1e-6);
            train_loss += f64::from(w[i]) * bce_from_logit(logit[i], y[i]);
        }
        train_loss /= wsum;
        node.fill(0);
        let mut features = Vec::with_capacity(depth);
        let mut thresholds = Vec::with_capacity(depth);
        for level in 0..depth {
            let nodes = 1usize << level;
            // (gain, feature, bin): the first best in feature then bin order wins ties.
            let mut chosen: Option<(f64, usize, usize)> = None;
            for (j, e) in edges.iter().enumerate() {
                if e.is_empty() {
                    continue;
                }
                let hist = &mut hist[..nodes * BINS];
                hist.fill([0.0; 2]);
                let col = &bins[j * n..(j + 1) * n];
                for i in 0..n {
                    let cell = &mut hist[node[i] as usize * BINS + col[i] as usize];
                    cell[0] += f64::from(g[i]);
                    cell[1] += f64::from(h[i]);
                }
                let gains = &mut gains[..e.len()];
                gains.fill(0.0);
                for k in 0..nodes {
                    let cells = &hist[k * BINS..(k + 1) * BINS];
                    let (gt, ht) = cells
                        .iter()
                        .fold((0.0, 0.0), |(a, b), c| (a + c[0], b + c[1]));
                    let (mut gl, mut hl) = (0.0, 0.0);
                    for (b, gain) in gains.iter_mut().enumerate() {
                        gl += cells[b][0];
                        hl += cells[b][1];
                        let (gr, hr) = (gt - gl, ht - hl);
                        *gain += gl * gl / (hl + lambda) + gr * gr / (hr + lambda);
                    }
                }
                for (b, &gain) in gains.iter().enumerate() {
                    if chosen.is_none_or(|(best, _, _)| gain > best) {
                        chosen = Some((gain, j, b));
                    }
                }
            }
            let Some((_, j, b)) = chosen else {
                return Err(Error::Training(
                    "every feature is constant in the training rows; trees cannot split".into(),
                ));
            };
            let col = &bins[j * n..(j + 1) * n];
            for (nd, &c) in node.iter_mut().zip(col) {
                *nd = (*nd << 1) | u32::from(c as usize > b);
            }
            features.push(j as u32);
            thresholds.push(edges[j][b]);
        }
        let mut sums = vec![[0.0f64; 2]; leaves];
        for i in 0..n {
            let s = &mut sums[node[i] as usize];
            s[0] += f64::from(g[i]);
            s[1] += f64::from(h[i]);
        }
        let values: Vec<f32> = sums
            .iter()
            .map(|s| (-s[0] / (s[1] + lambda) * params.shrinkage) as f32)
            .collect();
        for (l, &nd) in logit.iter_mut().zip(&node) {
            *l += values[nd as usize];
        }
        let tree = Tree {
            features,
            thresholds,
            leaves: values,
        };
        let mut val_loss = 0.0;
        for (i, row) in val_x.outer_iter().enumerate() {
            let row = row.as_slice().expect("standard layout");
            val_logit[i] += tree.leaves[tree.leaf(row)];
            val_loss += bce_from_logit(val_logit[i], val_y[i]);
        }
        val_loss /= val_y.len().max(1) as f64;
        trees.push(tree);
        let improved = val_loss < best;
        if improved {
            (best, best_round, best_train) = (val_loss, round, train_loss);
        }
        if improved || round % 10 == 0 || round == params.trees {
            let val = LineMetrics::new(val_logit.iter().map(|&z| z >= 0.0), val_y);
            progress(&EpochReport {
                epoch: round,
                epochs: params.trees,
                train_loss,
                val_loss,
                val_accuracy: val.accuracy,
                val_f1: val.f1,
                improved,
            });
        }
        if round - best_round >= PATIENCE {
            break;
        }
    }
    trees.truncate(best_round.max(1));
    Ok(TreesFit {
        trees,
        bias,
        rounds_run,
        best_round: best_round.max(1),
        train_loss: best_train,
        val_loss: best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    #[test]
    fn bins_count_the_edges_at_or_below_a_value() {
        let e = [0.0, 1.0, 2.0];
        assert_eq!(
            [-1.0, 0.0, 0.5, 2.0, 9.0].map(|v| bin(&e, v)),
            [0, 1, 1, 3, 3]
        );
        assert_eq!(bin(&e, f32::NAN), 0);
    }

    #[test]
    fn edges_are_distinct_and_above_the_minimum() {
        let x = Array2::from_shape_fn(
            (1000, 2),
            |(i, j)| if j == 0 { (i % 4) as f32 } else { 5.0 },
        );
        let e = edges(x.view());
        assert_eq!(e[0], [1.0, 2.0, 3.0]);
        assert!(e[1].is_empty(), "a constant column has nothing to split");
    }

    #[test]
    fn boosting_learns_an_interaction_a_linear_model_cannot() {
        // Content when exactly one of the two features is positive (xor).
        let x = Array2::from_shape_fn((400, 2), |(i, j)| {
            let v = ((i * 37 + j * 11) % 100) as f32 / 50.0 - 1.0;
            if j == 0 {
                v
            } else {
                ((i * 53) % 100) as f32 / 50.0 - 1.0
            }
        });
        let y: Vec<bool> = x
            .outer_iter()
            .map(|r| (r[0] > 0.0) != (r[1] > 0.0))
            .collect();
        let params = TrainParams::new(super::super::ModelType::Trees)
            .trees(50)
            .depth(2)
            .shrinkage(0.5);
        let fit = fit(x.view(), &y, x.view(), &y, &params, None, &mut |_| {}).unwrap();
        let right = x
            .outer_iter()
            .zip(&y)
            .filter(|(r, y)| {
                let row = r.as_slice().unwrap();
                let z: f32 =
                    fit.bias + fit.trees.iter().map(|t| t.leaves[t.leaf(row)]).sum::<f32>();
                (z >= 0.0) == **y
            })
            .count();
        assert!(right >= 390, "{right} of 400 right");
        assert!(fit.best_round <= fit.rounds_run && fit.trees.len() == fit.best_round);
    }
}
