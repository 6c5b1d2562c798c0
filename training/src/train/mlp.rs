//! The multi-layer perceptron's training: mini-batch Adam on the mean binary cross-entropy,
//! early stopping on the validation loss.

use ndarray::linalg::general_mat_mul;
use ndarray::{Array1, Array2, ArrayView2, ArrayViewMut2, Axis, Slice, Zip};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::metrics::LineMetrics;
use super::{EpochReport, TrainParams};
use mainline::internals::model::{Activation, Layer};
use mainline::{Error, Result};

/// The weights to keep and how training went.
pub(super) struct MlpFit {
    pub layers: Vec<Layer>,
    pub epochs_run: usize,
    pub best_epoch: usize,
    pub train_loss: f64,
    pub val_loss: f64,
}

/// A validation loss must drop by more than this to count as an improvement.
const MIN_IMPROVEMENT: f64 = 1e-5;
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;
/// Rows per forward pass when evaluating a whole split.
const EVAL_CHUNK: usize = 8192;

#[derive(Clone)]
struct Dense {
    /// `outputs × inputs`, the layout of [`Layer::weights`].
    w: Array2<f32>,
    b: Array1<f32>,
    act: Activation,
}

struct AdamState {
    mw: Array2<f32>,
    vw: Array2<f32>,
    mb: Array1<f32>,
    vb: Array1<f32>,
}

/// Per-class loss weights `(boilerplate, content)`.
fn class_weights(y: &[bool], balance: bool) -> (f32, f32) {
    if !balance {
        return (1.0, 1.0);
    }
    let n = y.len() as f64;
    let pos = y.iter().filter(|&&c| c).count() as f64;
    let neg = n - pos;
    ((n / (2.0 * neg)) as f32, (n / (2.0 * pos)) as f32)
}

/// `log(1 + exp(z)) - y·z`: the cross-entropy of `sigmoid(z)` against `y`, without overflow.
pub(super) fn bce_from_logit(z: f32, y: bool) -> f64 {
    let z = f64::from(z);
    z.max(0.0) - if y { z } else { 0.0 } + (-z.abs()).exp().ln_1p()
}

/// `log(1 + exp(z)) - t·z`: the cross-entropy of `sigmoid(z)` against a target probability
/// `t`; [`bce_from_logit`] for `t` of 0 or 1.
fn bce_soft(z: f32, t: f32) -> f64 {
    let z = f64::from(z);
    z.max(0.0) - f64::from(t) * z + (-z.abs()).exp().ln_1p()
}

/// Derivative of the activation, from its input `z` and output `a`.
fn derivative(act: Activation, z: f32, a: f32) -> f32 {
    match act {
        Activation::Tanh => 1.0 - a * a,
        Activation::Relu => {
            if z > 0.0 {
                1.0
            } else {
                0.0
            }
        }
        Activation::Sigmoid => a * (1.0 - a),
        Activation::Identity => 1.0,
    }
}

fn init(inputs: usize, params: &TrainParams, prior_logit: f32, rng: &mut StdRng) -> Vec<Dense> {
    let mut sizes = vec![inputs];
    sizes.extend(&params.hidden);
    sizes.push(1);
    let last = sizes.len() - 2;
    (0..=last)
        .map(|l| {
            let (fan_in, fan_out) = (sizes[l], sizes[l + 1]);
            let act = if l == last {
                Activation::Sigmoid
            } else {
                params.activation
            };
            // Glorot uniform; He uniform for ReLU.
            let limit = if act == Activation::Relu {
                (6.0 / fan_in as f64).sqrt()
            } else {
                (6.0 / (fan_in + fan_out) as f64).sqrt()
            } as f32;
            let w =
                Array2::from_shape_simple_fn((fan_out, fan_in), || rng.gen_range(-limit..limit));
            let mut b = Array1::zeros(fan_out);
            if l == last {
                // Start from the base rate so early epochs need not learn it.
                b[0] = prior_logit;
            }
            Dense { w, b, act }
        })
        .collect()
}

/// Where fine-tuning starts: trained layers, and how strongly the loss pulls the weights
/// back towards them (an L2 penalty on the change, `anchor / 2 · |w - w0|²`).
pub(super) struct Start<'a> {
    pub layers: &'a [Layer],
    pub anchor: f32,
}

/// A network that starts from trained `layers` (fine-tuning), checked against `inputs`.
fn from_layers(layers: &[Layer], inputs: usize) -> Result<Vec<Dense>> {
    let mut width = inputs;
    let mut net = Vec::with_capacity(layers.len());
    for (i, layer) in layers.iter().enumerate() {
        let outputs = layer.bias.len();
        if outputs == 0 || layer.weights.len() != outputs * width {
            return Err(Error::Training(format!(
                "layer {} of the starting model has {} weights and {outputs} biases, \
                 which do not fit {width} inputs",
                i + 1,
                layer.weights.len()
            )));
        }
        let w = Array2::from_shape_vec((outputs, width), layer.weights.clone())
            .map_err(|e| Error::Training(format!("layer {} of the starting model: {e}", i + 1)))?;
        net.push(Dense {
            w,
            b: Array1::from(layer.bias.clone()),
            act: layer.activation,
        });
        width = outputs;
    }
    if width != 1 || net.is_empty() {
        return Err(Error::Training(
            "the starting model's network does not end in one output".into(),
        ));
    }
    Ok(net)
}

/// Logits of every row of `x`, computed in chunks.
fn logits(net: &[Dense], x: ArrayView2<f32>) -> Vec<f32> {
    let mut out = Vec::with_capacity(x.nrows());
    for chunk in x.axis_chunks_iter(Axis(0), EVAL_CHUNK) {
        let mut a = chunk.to_owned();
        for (l, layer) in net.iter().enumerate() {
            let mut z = a.dot(&layer.w.t());
            z += &layer.b;
            if l + 1 < net.len() {
                z.mapv_inplace(|v| layer.act.apply(v));
            }
            a = z;
        }
        out.extend(a.column(0).iter().copied());
    }
    out
}

/// Mean (class-weighted) cross-entropy of the network on `x`, and its decisions at 0.5.
fn evaluate(net: &[Dense], x: ArrayView2<f32>, y: &[bool], cw: (f32, f32)) -> (f64, LineMetrics) {
    let z = logits(net, x);
    let loss: f64 = z
        .iter()
        .zip(y)
        .map(|(&z, &y)| f64::from(if y { cw.1 } else { cw.0 }) * bce_from_logit(z, y))
        .sum();
    let loss = if y.is_empty() {
        0.0
    } else {
        loss / y.len() as f64
    };
    // sigmoid(z) >= 0.5 exactly when z >= 0.
    (loss, LineMetrics::new(z.iter().map(|&z| z >= 0.0), y))
}

// NOTE: ndarray's `s!` macro expands to `allow(unsafe_code)`, which the crate forbids;
// these two helpers slice the first rows instead.

/// The first `n` rows.
fn rows(a: &Array2<f32>, n: usize) -> ArrayView2<'_, f32> {
    a.slice_axis(Axis(0), Slice::from(..n))
}

/// The first `n` rows, mutable.
fn rows_mut(a: &mut Array2<f32>, n: usize) -> ArrayViewMut2<'_, f32> {
    a.slice_axis_mut(Axis(0), Slice::from(..n))
}

/// Buffers for one mini-batch, allocated once.
struct Workspace {
    /// Batch rows (the first `bs` rows are in use).
    xb: Array2<f32>,
    yb: Vec<bool>,
    /// The rows' targets: 0 or 1 from `yb`, or the probabilities being distilled.
    tb: Vec<f32>,
    /// Pre-activations, activations and loss gradients of each layer's outputs.
    z: Vec<Array2<f32>>,
    a: Vec<Array2<f32>>,
    delta: Vec<Array2<f32>>,
    /// Gradients of each layer's weights and biases.
    gw: Vec<Array2<f32>>,
    gb: Vec<Array1<f32>>,
}

impl Workspace {
    fn new(net: &[Dense], batch: usize, inputs: usize) -> Self {
        let z: Vec<Array2<f32>> = net
            .iter()
            .map(|d| Array2::zeros((batch, d.w.nrows())))
            .collect();
        Workspace {
            xb: Array2::zeros((batch, inputs)),
            yb: vec![false; batch],
            tb: vec![0.0; batch],
            a: z.clone(),
            delta: z.clone(),
            z,
            gw: net.iter().map(|d| Array2::zeros(d.w.raw_dim())).collect(),
            gb: net.iter().map(|d| Array1::zeros(d.b.raw_dim())).collect(),
        }
    }

    /// `backprop_weighted` with every row weighing 1.
    #[cfg(test)]
    fn backprop(&mut self, net: &[Dense], bs: usize, cw: (f32, f32), l2: f32) -> f64 {
        self.backprop_weighted(net, bs, cw, None, l2)
    }

    /// Sets `gw` and `gb` to the gradient of the mean class-weighted cross-entropy (classes
    /// from `yb`, targets from `tb`) over the first `bs` rows of `xb`, each row's loss also multiplied by `rw[r]` when given, plus
    /// the L2 penalty; returns the summed weighted loss.
    fn backprop_weighted(
        &mut self,
        net: &[Dense],
        bs: usize,
        cw: (f32, f32),
        rw: Option<&[f32]>,
        l2: f32,
    ) -> f64 {
        let last = net.len() - 1;
        let Workspace {
            xb,
            yb,
            tb,
            z,
            a,
            delta,
            gw,
            gb,
        } = self;

        // Forward.
        for l in 0..=last {
            let input = if l == 0 {
                rows(xb, bs)
            } else {
                rows(&a[l - 1], bs)
            };
            let mut zl = rows_mut(&mut z[l], bs);
            general_mat_mul(1.0, &input, &net[l].w.t(), 0.0, &mut zl);
            zl += &net[l].b;
            let act = net[l].act;
            Zip::from(rows_mut(&mut a[l], bs))
                .and(&zl)
                .for_each(|a, &z| *a = act.apply(z));
        }

        // Output delta of the mean weighted cross-entropy: weight · (p - t) / bs.
        let inv_bs = 1.0 / bs as f32;
        let mut loss_sum = 0.0;
        for r in 0..bs {
            let (zr, p) = (z[last][[r, 0]], a[last][[r, 0]]);
            let weight = if yb[r] { cw.1 } else { cw.0 } * rw.map_or(1.0, |w| w[r]);
            loss_sum += f64::from(weight) * bce_soft(zr, tb[r]);
            delta[last][[r, 0]] = weight * (p - tb[r]) * inv_bs;
        }

        // Backward.
        for l in (0..=last).rev() {
            let input = if l == 0 {
                rows(xb, bs)
            } else {
                rows(&a[l - 1], bs)
            };
            let (below, here) = delta.split_at_mut(l);
            let d = rows(&here[0], bs);
            general_mat_mul(1.0, &d.t(), &input, 0.0, &mut gw[l]);
            if l2 > 0.0 {
                Zip::from(&mut gw[l])
                    .and(&net[l].w)
                    .for_each(|g, &w| *g += l2 * w);
            }
            gb[l].fill(0.0);
            for row in d.outer_iter() {
                gb[l] += &row;
            }
            if l > 0 {
                let mut prev = rows_mut(&mut below[l - 1], bs);
                general_mat_mul(1.0, &d, &net[l].w, 0.0, &mut prev);
                let act = net[l - 1].act;
                Zip::from(&mut prev)
                    .and(rows(&z[l - 1], bs))
                    .and(rows(&a[l - 1], bs))
                    .for_each(|d, &z, &a| *d *= derivative(act, z, a));
            }
        }
        loss_sum
    }
}

/// Trains the MLP on standardised training rows `x` and validation rows `val_x`.
///
/// With `targets`, the training rows' loss is the cross-entropy against those
/// probabilities instead of their labels `y` (distillation); the labels still choose the
/// class weights, and validation is always against the labels.
#[allow(clippy::too_many_arguments)]
pub(super) fn fit(
    x: ArrayView2<f32>,
    y: &[bool],
    targets: Option<&[f32]>,
    val_x: ArrayView2<f32>,
    val_y: &[bool],
    params: &TrainParams,
    row_weights: Option<&[f32]>,
    start: Option<Start<'_>>,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<MlpFit> {
    let (n, f) = x.dim();
    let x = x.as_standard_layout();
    let rows = x
        .as_slice()
        .expect("as_standard_layout gives a contiguous array");
    let cw = class_weights(y, params.balance_classes);
    let pos = y.iter().filter(|&&c| c).count() as f64 * f64::from(cw.1);
    let neg = (n - y.iter().filter(|&&c| c).count()) as f64 * f64::from(cw.0);
    let prior_logit = (pos / neg).ln() as f32;

    let mut rng = StdRng::seed_from_u64(params.seed);
    let mut net = match &start {
        Some(s) => from_layers(s.layers, f)?,
        None => init(f, params, prior_logit, &mut rng),
    };
    // The weights fine-tuning is pulled back towards.
    let anchor = match &start {
        Some(s) if s.anchor > 0.0 => Some((net.clone(), s.anchor)),
        _ => None,
    };
    let mut adam: Vec<AdamState> = net
        .iter()
        .map(|d| AdamState {
            mw: Array2::zeros(d.w.raw_dim()),
            vw: Array2::zeros(d.w.raw_dim()),
            mb: Array1::zeros(d.b.raw_dim()),
            vb: Array1::zeros(d.b.raw_dim()),
        })
        .collect();

    let batch = params.batch_size.min(n).max(1);
    let mut ws = Workspace::new(&net, batch, f);
    let lr = params.learning_rate;
    let l2 = params.l2 as f32;
    let mut order: Vec<usize> = (0..n).collect();
    let mut step = 0_i32;
    let mut wb = vec![1.0_f32; batch];
    let mut best = (f64::INFINITY, net.clone(), 0_usize, 0.0_f64);
    let mut since_best = 0;
    let mut epochs_run = 0;

    for epoch in 1..=params.epochs {
        order.shuffle(&mut rng);
        let mut loss_sum = 0.0_f64;
        for ids in order.chunks(batch) {
            let bs = ids.len();
            {
                let dst = ws.xb.as_slice_mut().expect("xb is a fresh standard array");
                for (r, &i) in ids.iter().enumerate() {
                    dst[r * f..(r + 1) * f].copy_from_slice(&rows[i * f..(i + 1) * f]);
                    ws.yb[r] = y[i];
                    ws.tb[r] = targets.map_or(if y[i] { 1.0 } else { 0.0 }, |t| t[i]);
                    if let Some(w) = row_weights {
                        wb[r] = w[i];
                    }
                }
            }
            let rw = row_weights.map(|_| &wb[..]);
            loss_sum += ws.backprop_weighted(&net, bs, cw, rw, l2);
            if let Some((init, strength)) = &anchor {
                for ((layer, from), (g_w, g_b)) in net
                    .iter()
                    .zip(init)
                    .zip(ws.gw.iter_mut().zip(ws.gb.iter_mut()))
                {
                    Zip::from(g_w)
                        .and(&layer.w)
                        .and(&from.w)
                        .for_each(|g, &w, &w0| *g += strength * (w - w0));
                    Zip::from(g_b)
                        .and(&layer.b)
                        .and(&from.b)
                        .for_each(|g, &b, &b0| *g += strength * (b - b0));
                }
            }

            // Adam.
            step += 1;
            let bc1 = 1.0 - BETA1.powi(step);
            let bc2 = 1.0 - BETA2.powi(step);
            let rate = (lr * bc2.sqrt() / bc1) as f32;
            let eps = (EPSILON * bc2.sqrt()) as f32;
            let (b1, b2) = (BETA1 as f32, BETA2 as f32);
            let update = |w: &mut f32, m: &mut f32, v: &mut f32, g: f32| {
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w -= rate * *m / (v.sqrt() + eps);
            };
            for ((layer, st), (g_w, g_b)) in
                net.iter_mut().zip(&mut adam).zip(ws.gw.iter().zip(&ws.gb))
            {
                Zip::from(&mut layer.w)
                    .and(&mut st.mw)
                    .and(&mut st.vw)
                    .and(g_w)
                    .for_each(|w, m, v, &g| update(w, m, v, g));
                Zip::from(&mut layer.b)
                    .and(&mut st.mb)
                    .and(&mut st.vb)
                    .and(g_b)
                    .for_each(|w, m, v, &g| update(w, m, v, g));
            }
        }
        epochs_run = epoch;

        let train_loss = loss_sum / n as f64;
        if !train_loss.is_finite() {
            return Err(Error::Training(format!(
                "the MLP's loss became {train_loss} in epoch {epoch}; try a lower learning_rate"
            )));
        }
        let (val_loss, val) = evaluate(&net, val_x, val_y, cw);
        let improved = val_loss < best.0 - MIN_IMPROVEMENT;
        if improved {
            best = (val_loss, net.clone(), epoch, train_loss);
            since_best = 0;
        } else {
            since_best += 1;
        }
        progress(&EpochReport {
            epoch,
            epochs: params.epochs,
            train_loss,
            val_loss,
            val_accuracy: val.accuracy,
            val_f1: val.f1,
            improved,
        });
        if since_best >= params.patience {
            break;
        }
    }

    let (val_loss, net, best_epoch, train_loss) = best;
    if best_epoch == 0 {
        return Err(Error::Training(
            "the MLP's validation loss was never finite; try a lower learning_rate".into(),
        ));
    }
    let layers = net
        .into_iter()
        .map(|d| Layer {
            activation: d.act,
            weights: d.w.iter().copied().collect(),
            bias: d.b.to_vec(),
        })
        .collect();
    Ok(MlpFit {
        layers,
        epochs_run,
        best_epoch,
        train_loss,
        val_loss,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_entropy_from_logits_is_stable_and_correct() {
        let p: f64 = 1.0 / (1.0 + (-2.0_f64).exp());
        assert!((bce_from_logit(2.0, true) + p.ln()).abs() < 1e-12);
        assert!((bce_from_logit(2.0, false) + (1.0 - p).ln()).abs() < 1e-12);
        assert!(bce_from_logit(1000.0, true) < 1e-300);
        assert!((bce_from_logit(-1000.0, true) - 1000.0).abs() < 1e-9);
        for z in [-30.0, -2.0, 0.0, 0.5, 40.0] {
            assert_eq!(bce_soft(z, 1.0), bce_from_logit(z, true));
            assert_eq!(bce_soft(z, 0.0), bce_from_logit(z, false));
        }
        // Against a probability, the loss is least where the model predicts it.
        let at = |z: f32| bce_soft(z, 0.2);
        let best = (0.2_f32 / 0.8).ln();
        assert!(at(best) < at(best - 0.1) && at(best) < at(best + 0.1));
    }

    #[test]
    fn balanced_weights_give_both_classes_the_same_total() {
        let y = [true, false, false, false];
        let (neg, pos) = class_weights(&y, true);
        assert_eq!(pos * 1.0, neg * 3.0);
        assert_eq!(class_weights(&y, false), (1.0, 1.0));
    }

    /// Trained towards probabilities, the network predicts them, where the labels alone
    /// would push it towards certainty.
    #[test]
    fn targets_replace_the_labels_in_the_loss() {
        let mut rng = StdRng::seed_from_u64(3);
        let n = 2000;
        let x = Array2::from_shape_simple_fn((n, 1), || rng.gen_range(-2.0_f32..2.0));
        let y: Vec<bool> = x.column(0).iter().map(|&v| v > 0.0).collect();
        let soft: Vec<f32> = x
            .column(0)
            .iter()
            .map(|&v| 1.0 / (1.0 + (-v).exp()))
            .collect();
        let params = TrainParams::default()
            .hidden(vec![4])
            .epochs(40)
            .patience(40)
            .learning_rate(0.01)
            .seed(7);
        let p_at_1 = |targets: Option<&[f32]>| {
            let fit = fit(
                x.view(),
                &y,
                targets,
                x.view(),
                &y,
                &params,
                None,
                None,
                &mut |_| {},
            )
            .unwrap();
            let net: Vec<Dense> = fit
                .layers
                .iter()
                .map(|l| Dense {
                    w: Array2::from_shape_vec((l.outputs(), l.inputs()), l.weights.clone())
                        .unwrap(),
                    b: Array1::from(l.bias.clone()),
                    act: l.activation,
                })
                .collect();
            let z = logits(&net, ndarray::array![[1.0_f32]].view())[0];
            1.0 / (1.0 + (-z).exp())
        };
        let towards = p_at_1(Some(&soft));
        let sigmoid_1 = 1.0 / (1.0 + (-1.0_f32).exp());
        assert!(
            (towards - sigmoid_1).abs() < 0.06,
            "{towards} vs {sigmoid_1}"
        );
        let hard = p_at_1(None);
        assert!(hard > 0.9, "{hard}");
    }

    /// The gradients of `backprop` match finite differences of the loss, for every weight
    /// and bias of a two-hidden-layer network.
    #[test]
    fn backpropagation_matches_numerical_gradients() {
        for act in [Activation::Tanh, Activation::Relu, Activation::Sigmoid] {
            let params = TrainParams::default().hidden(vec![3, 2]).activation(act);
            let mut rng = StdRng::seed_from_u64(5);
            let net = init(2, &params, 0.3, &mut rng);
            let x = ndarray::array![[0.5_f32, -1.0], [1.5, 0.25], [-0.7, 0.9]];
            let y = [true, false, true];
            let cw = (0.75, 1.5);
            let l2 = 0.01_f32;
            let loss = |net: &[Dense]| {
                let penalty: f64 = net
                    .iter()
                    .map(|d| d.w.iter().map(|&w| f64::from(w * w)).sum::<f64>())
                    .sum();
                evaluate(net, x.view(), &y, cw).0 + f64::from(l2) / 2.0 * penalty
            };

            let mut ws = Workspace::new(&net, 4, 2);
            rows_mut(&mut ws.xb, 3).assign(&x);
            ws.yb[..3].copy_from_slice(&y);
            for (t, &c) in ws.tb.iter_mut().zip(&y) {
                *t = if c { 1.0 } else { 0.0 };
            }
            let summed = ws.backprop(&net, 3, cw, l2);
            assert!((summed / 3.0 - evaluate(&net, x.view(), &y, cw).0).abs() < 1e-6);

            let h = 1e-3_f32;
            let check = |analytic: f32, nudge: &dyn Fn(&mut Vec<Dense>, f32)| {
                let mut plus = net.clone();
                nudge(&mut plus, h);
                let mut minus = net.clone();
                nudge(&mut minus, -h);
                let numeric = (loss(&plus) - loss(&minus)) / (2.0 * f64::from(h));
                let analytic = f64::from(analytic);
                assert!(
                    (analytic - numeric).abs() < 2e-3 * numeric.abs().max(0.05),
                    "{act}: {analytic} vs {numeric}"
                );
            };
            for l in 0..net.len() {
                for ((o, i), &g) in ws.gw[l].indexed_iter() {
                    check(g, &|n, d| n[l].w[[o, i]] += d);
                }
                for (o, &g) in ws.gb[l].indexed_iter() {
                    check(g, &|n, d| n[l].b[o] += d);
                }
            }
        }
    }

    #[test]
    fn the_anchor_holds_fine_tuned_weights_near_their_start() {
        // Rows labelled by the sign of the first column, then the labels flipped: without
        // an anchor, fine-tuning moves the weights far; with a strong one, little.
        let x = Array2::from_shape_fn((64, 2), |(i, j)| ((i * 7 + j * 3) % 11) as f32 - 5.0);
        let y: Vec<bool> = x.outer_iter().map(|r| r[0] > 0.0).collect();
        let flipped: Vec<bool> = y.iter().map(|b| !b).collect();
        let params = TrainParams::default()
            .hidden(vec![3])
            .epochs(30)
            .patience(30)
            .learning_rate(0.01)
            .seed(3);
        let fit0 = fit(
            x.view(),
            &y,
            None,
            x.view(),
            &y,
            &params,
            None,
            None,
            &mut |_| {},
        );
        let start = fit0.unwrap().layers;
        let moved = |anchor: f32| {
            let s = Start {
                layers: &start,
                anchor,
            };
            let tuned = fit(
                x.view(),
                &flipped,
                None,
                x.view(),
                &flipped,
                &params,
                None,
                Some(s),
                &mut |_| {},
            )
            .unwrap()
            .layers;
            tuned
                .iter()
                .zip(&start)
                .flat_map(|(a, b)| a.weights.iter().zip(&b.weights))
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f32>()
        };
        let free = moved(0.0);
        let held = moved(100.0);
        assert!(held < free / 10.0, "anchored {held}, free {free}");
    }
}
