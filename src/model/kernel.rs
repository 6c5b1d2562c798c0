//! A model's weights laid out once for fast scoring of one row at a time.
//!
//! [`Kernel`] gives bit for bit the scores of [`Model::score`]: the same standardisation,
//! and each output of each layer summed in the same order (its bias, then the product with
//! each input in input order; see [`super::mlp::forward`]). Only the layout differs: a
//! layer's weights are stored input-major, so that the inner loop over the outputs of a
//! block reads contiguous weights and adds one input's product to 32 outputs at once (16
//! or 8 for the outputs left over). The compiler vectorises it for any target (SSE2 on
//! baseline x86-64), and, with the `simd` feature, a second time for AVX2, chosen at run
//! time when the CPU has it (`pulp`); no multiply-add is fused, so scores are the same on
//! every CPU.

use super::Model;
use super::mlp::activate;
use super::{Activation, Layer, ModelKind, Scaler, dot, sigmoid};

/// Outputs summed together in one group (two SSE vectors, one AVX vector).
const GROUP: usize = 8;

/// Groups of a wide block: 32 outputs, whose sums stay in 8 SSE registers.
const BLOCK: usize = 4;

/// The weights (or sums) of [`GROUP`] consecutive outputs for one input.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C, align(32))]
struct Group([f32; GROUP]);

/// Consecutive blocks of `G` groups of outputs, input-major: entry `b * inputs + i` of
/// `weights` holds the weights of input `i` for the outputs of block `b`.
#[derive(Debug, Clone, PartialEq)]
struct Blocks<const G: usize> {
    weights: Vec<[Group; G]>,
    bias: Vec<[Group; G]>,
}

impl<const G: usize> Blocks<G> {
    /// `count` blocks of `layer`, the first starting at output `first`.
    fn lay_out(layer: &Layer, first: usize, count: usize) -> Self {
        let inputs = layer.inputs();
        let group_of =
            |first: usize, f: &dyn Fn(usize) -> f32| Group(std::array::from_fn(|k| f(first + k)));
        let mut weights = Vec::with_capacity(count * inputs);
        let mut bias = Vec::with_capacity(count);
        for b in 0..count {
            let start = |g: usize| first + (b * G + g) * GROUP;
            for i in 0..inputs {
                weights.push(std::array::from_fn(|g| {
                    group_of(start(g), &|o| layer.weights[o * inputs + i])
                }));
            }
            bias.push(std::array::from_fn(|g| {
                group_of(start(g), &|o| layer.bias[o])
            }));
        }
        Blocks { weights, bias }
    }

    /// Number of outputs.
    fn outputs(&self) -> usize {
        self.bias.len() * G * GROUP
    }

    /// Writes the sums of the outputs, in order, to the start of `out`.
    #[inline(always)]
    fn forward(&self, input: &[f32], out: &mut [f32]) {
        let mut o = 0;
        for (w, bias) in self.weights.chunks_exact(input.len()).zip(&self.bias) {
            for g in block(w, bias, input) {
                out[o..o + GROUP].copy_from_slice(&g.0);
                o += GROUP;
            }
        }
    }
}

impl<const G: usize> Blocks<G> {
    /// [`Blocks::forward`] for `R` rows at once: the sums of each row, in order, written
    /// to its `out` from offset `at` on.
    #[inline(always)]
    fn forward_rows<const R: usize>(
        &self,
        inputs: &[&[f32]; R],
        out: &mut [&mut [f32]; R],
        at: usize,
    ) {
        let mut o = at;
        for (w, bias) in self.weights.chunks_exact(inputs[0].len()).zip(&self.bias) {
            // NOTE: two groups of `R` rows at a time (8 AVX vectors of sums for 4 rows):
            // more sums than registers are kept in memory, a value at a time.
            let mut write = |first: usize, sums: &[[Group; 2]; R], n: usize| {
                for (out, sums) in out.iter_mut().zip(sums) {
                    for (k, g) in sums.iter().take(n).enumerate() {
                        let at = o + (first + k) * GROUP;
                        out[at..at + GROUP].copy_from_slice(&g.0);
                    }
                }
            };
            match G {
                1 => {
                    let sums = block_rows::<G, 1, R, 0>(w, bias, inputs);
                    write(0, &sums.map(|s| [s[0], Group::default()]), 1);
                }
                2 => write(0, &block_rows::<G, 2, R, 0>(w, bias, inputs), 2),
                4 => {
                    write(0, &block_rows::<G, 2, R, 0>(w, bias, inputs), 2);
                    write(2, &block_rows::<G, 2, R, 2>(w, bias, inputs), 2);
                }
                _ => unreachable!("blocks of 1, 2 or 4 groups"),
            }
            o += G * GROUP;
        }
    }
}

/// One layer, input-major.
#[derive(Debug, Clone, PartialEq)]
struct Dense {
    inputs: usize,
    outputs: usize,
    activation: Activation,
    /// Blocks of `BLOCK × GROUP` outputs.
    wide: Blocks<BLOCK>,
    /// Then a pair of groups (16 outputs), if two whole groups follow.
    pair: Blocks<2>,
    /// Then one whole group of outputs, if one follows.
    narrow: Blocks<1>,
    /// The last outputs (fewer than a group), row-major as in [`Layer::weights`].
    rest: Vec<f32>,
    rest_bias: Vec<f32>,
}

impl Dense {
    fn new(layer: &Layer) -> Self {
        let (inputs, outputs) = (layer.inputs(), layer.outputs());
        let n_wide = outputs / (BLOCK * GROUP);
        let groups_left = (outputs - n_wide * BLOCK * GROUP) / GROUP;
        let wide = Blocks::lay_out(layer, 0, n_wide);
        let pair = Blocks::lay_out(layer, wide.outputs(), groups_left / 2);
        let narrow = Blocks::lay_out(layer, wide.outputs() + pair.outputs(), groups_left % 2);
        let first_rest = wide.outputs() + pair.outputs() + narrow.outputs();
        Dense {
            inputs,
            outputs,
            activation: layer.activation,
            wide,
            pair,
            narrow,
            rest: layer.weights[first_rest * inputs..].to_vec(),
            rest_bias: layer.bias[first_rest..].to_vec(),
        }
    }

    /// `out = activation(W · input + bias)`; `input` has `inputs` values, `out` `outputs`.
    #[inline(always)]
    fn forward(&self, input: &[f32], out: &mut [f32]) {
        let input = &input[..self.inputs];
        let out = &mut out[..self.outputs];
        let (wide, out_rest) = out.split_at_mut(self.wide.outputs());
        self.wide.forward(input, wide);
        let (pair, out_rest) = out_rest.split_at_mut(self.pair.outputs());
        self.pair.forward(input, pair);
        let (narrow, out_rest) = out_rest.split_at_mut(self.narrow.outputs());
        self.narrow.forward(input, narrow);
        self.forward_rest(input, out_rest);
        activate(self.activation, out);
    }

    /// The sums of the outputs after the blocks (`out` holds exactly those), one at a time.
    #[inline(always)]
    fn forward_rest(&self, input: &[f32], out: &mut [f32]) {
        for ((o, w), &bias) in out
            .iter_mut()
            .zip(self.rest.chunks_exact(self.inputs))
            .zip(&self.rest_bias)
        {
            let mut s = bias;
            for (w, x) in w.iter().zip(input) {
                s += w * x;
            }
            *o = s;
        }
    }

    /// [`Dense::forward`] for [`ROWS`] rows at once, with the same values bit for bit.
    #[inline(always)]
    fn forward_rows(&self, inputs: [&[f32]; ROWS], out: &mut [&mut [f32]; ROWS]) {
        let inputs = inputs.map(|x| &x[..self.inputs]);
        self.wide.forward_rows::<ROWS>(&inputs, out, 0);
        let at = self.wide.outputs();
        self.pair.forward_rows::<ROWS>(&inputs, out, at);
        let at = at + self.pair.outputs();
        self.narrow.forward_rows::<ROWS>(&inputs, out, at);
        let first_rest = at + self.narrow.outputs();
        for (input, out) in inputs.iter().zip(out.iter_mut()) {
            let out = &mut out[..self.outputs];
            self.forward_rest(input, &mut out[first_rest..]);
            activate(self.activation, out);
        }
    }
}

/// Rows scored together by [`Kernel::score_rows`].
const ROWS: usize = 4;

/// [`block`] for `R` rows at once, for the `H` groups of the block from group `FIRST` on:
/// each row's sums are added in the same order, but the rows' sums do not wait on each
/// other.
// NOTE: one row's sum of an output adds its inputs one after the other, each addition
// waiting for the one before (several cycles each, however wide the vectors); the sums of
// several rows interleaved keep the vector units busy meanwhile. `G × R` sums stay in
// registers (8 AVX vectors for the choices of `Blocks::forward_rows`).
#[inline(always)]
fn block_rows<const G: usize, const H: usize, const R: usize, const FIRST: usize>(
    w: &[[Group; G]],
    bias: &[Group; G],
    x: &[&[f32]; R],
) -> [[Group; H]; R] {
    let mut acc = [std::array::from_fn::<Group, H, _>(|h| bias[FIRST + h]); R];
    let x = x.map(|x| &x[..w.len()]);
    for (i, wi) in w.iter().enumerate() {
        for (acc, x) in acc.iter_mut().zip(&x) {
            let xi = x[i];
            for h in 0..H {
                for k in 0..GROUP {
                    acc[h].0[k] += wi[FIRST + h].0[k] * xi;
                }
            }
        }
    }
    acc
}

/// The sums of the outputs of one block: each starts at its bias and adds the product
/// with each input in order.
// NOTE: whole `[Group; G]` arrays by value keep the `G × GROUP` sums in vector registers;
// each input costs one broadcast and `G × GROUP / 4` SSE multiplies and adds.
#[inline(always)]
fn block<const G: usize>(w: &[[Group; G]], bias: &[Group; G], x: &[f32]) -> [Group; G] {
    let mut acc = *bias;
    let mut add = |wi: &[Group; G], xi: f32| {
        for g in 0..G {
            for k in 0..GROUP {
                acc[g].0[k] += wi[g].0[k] * xi;
            }
        }
    };
    // Two inputs per turn of the loop, still added one after the other.
    let (w2, w1) = w.split_at(w.len() - w.len() % 2);
    for (wi, xi) in w2.chunks_exact(2).zip(x.chunks_exact(2)) {
        add(&wi[0], xi[0]);
        add(&wi[1], xi[1]);
    }
    if let (Some(wi), Some(&xi)) = (w1.first(), x.get(w2.len())) {
        add(wi, xi);
    }
    acc
}

/// A call of [`Kernel::forward`] for `pulp::Arch::dispatch`. A struct with an
/// always-inlined method, not a closure: a closure's body stays a function of its own,
/// compiled for the baseline.
#[cfg(feature = "simd")]
struct Forward<'k, 'a> {
    kernel: &'k Kernel,
    row: &'k [f32],
    cur: &'a mut [f32],
    next: &'a mut [f32],
}

#[cfg(feature = "simd")]
impl pulp::WithSimd for Forward<'_, '_> {
    type Output = f32;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) -> f32 {
        self.kernel.forward(self.row, self.cur, self.next)
    }
}

/// A call of [`Kernel::forward_rows`] for `pulp::Arch::dispatch` (see [`Forward`]).
#[cfg(feature = "simd")]
struct ForwardRows<'k, 'a> {
    kernel: &'k Kernel,
    rows: [&'k [f32]; ROWS],
    buf: &'a mut [f32],
}

#[cfg(feature = "simd")]
impl pulp::WithSimd for ForwardRows<'_, '_> {
    type Output = [f32; ROWS];

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) -> [f32; ROWS] {
        self.kernel.forward_rows(self.rows, self.buf)
    }
}

/// The classifier part of a [`Kernel`].
#[derive(Debug, Clone, PartialEq)]
enum Net {
    Logistic { weights: Vec<f32>, bias: f32 },
    Mlp(Vec<Dense>),
    Trees { trees: Vec<super::Tree>, bias: f32 },
}

/// A model prepared for scoring rows one at a time (see the module `kernel`).
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    /// Where the model's features are in the rows given to [`Kernel::score`]: runs of
    /// consecutive columns `(column of the row, feature, length)`.
    runs: Vec<(usize, usize, usize)>,
    scaler: Scaler,
    net: Net,
    /// Widest vector of the forward pass (the features or a layer's outputs).
    widest: usize,
    /// The instruction set the forward pass is compiled for, chosen at run time.
    isa: Isa,
}

/// The widest instruction set of the running CPU that the kernel has code for (AVX2 on
/// x86-64 CPUs since 2013, the target's baseline otherwise). Every choice gives the same
/// scores bit for bit: the code is the same, only the width of the vectors the compiler
/// gives it differs, and no multiply-add is fused; kernels are equal whatever their choice.
///
/// Without the `simd` feature the code is compiled for the target's baseline alone.
#[cfg(feature = "simd")]
#[derive(Debug, Clone, Copy)]
struct Isa(pulp::Arch);

#[cfg(not(feature = "simd"))]
#[derive(Debug, Clone, Copy)]
struct Isa;

impl Isa {
    /// The widest instruction set of the running CPU.
    fn detect() -> Isa {
        #[cfg(feature = "simd")]
        return Isa(pulp::Arch::new());
        #[cfg(not(feature = "simd"))]
        Isa
    }
}

impl PartialEq for Isa {
    fn eq(&self, _: &Isa) -> bool {
        true
    }
}

impl Kernel {
    /// The kernel of a [validated](Model::validate) model reading rows of its own features.
    pub fn new(model: &Model) -> Self {
        let columns: Vec<usize> = (0..model.n_features()).collect();
        Kernel::with_columns(&model.kind, &model.scaler, &columns)
    }

    /// The kernel of a validated classifier whose feature `i` is column `columns[i]` of the
    /// rows it will be given.
    pub(crate) fn with_columns(kind: &ModelKind, scaler: &Scaler, columns: &[usize]) -> Self {
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        for (feature, &column) in columns.iter().enumerate() {
            match runs.last_mut() {
                Some((c, f, len)) if *c + *len == column && *f + *len == feature => *len += 1,
                _ => runs.push((column, feature, 1)),
            }
        }
        let net = match kind {
            ModelKind::Logistic { weights, bias } => Net::Logistic {
                weights: weights.clone(),
                bias: *bias,
            },
            ModelKind::Mlp { layers } => Net::Mlp(layers.iter().map(Dense::new).collect()),
            ModelKind::Trees { trees, bias } => Net::Trees {
                trees: trees.clone(),
                bias: *bias,
            },
        };
        let widest = match kind {
            ModelKind::Logistic { .. } | ModelKind::Trees { .. } => columns.len(),
            ModelKind::Mlp { layers } => layers
                .iter()
                .map(Layer::outputs)
                .fold(columns.len(), usize::max),
        };
        Kernel {
            runs,
            scaler: scaler.clone(),
            net,
            widest,
            isa: Isa::detect(),
        }
    }

    /// The score of a row, equal to [`Model::score`] of the model's features taken from it.
    /// `scratch` is resized as needed and may be reused between calls.
    ///
    /// # Panics
    ///
    /// If `row` lacks a column the model reads.
    #[inline]
    pub fn score(&self, row: &[f32], scratch: &mut Vec<f32>) -> f32 {
        if scratch.len() < 2 * self.widest {
            scratch.resize(2 * self.widest, 0.0);
        }
        let (cur, next) = scratch.split_at_mut(self.widest);
        self.score_in(row, cur, next)
    }

    /// [`Kernel::score`] with buffers of the calling thread.
    // NOTE: the second stage scores every line this way; two zeroed arrays of STACK_WIDTH
    // on the stack were 2 KiB of stores per line. Every value of the buffers is written
    // before it is read (as with `score`'s reused scratch), so they need no zeroing.
    pub(crate) fn score_alone(&self, row: &[f32]) -> f32 {
        thread_local! {
            static SCRATCH: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        SCRATCH.with(|s| match s.try_borrow_mut() {
            Ok(mut s) => self.score(row, &mut s),
            Err(_) => self.score(row, &mut Vec::new()),
        })
    }

    /// The scores of consecutive rows of `width` values (`rows.len()` a multiple of it),
    /// given to `each` in order: each bit for bit [`Kernel::score`] of its row, several
    /// rows computed together (see [`block_rows`]).
    pub(crate) fn score_rows(&self, rows: &[f32], width: usize, mut each: impl FnMut(f32)) {
        assert!(
            width > 0 && rows.len() % width == 0,
            "rows of {width} values"
        );
        let mlp = matches!(self.net, Net::Mlp(_));
        let mut groups = rows.chunks_exact(ROWS * width);
        if mlp {
            thread_local! {
                static BUF: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
            }
            BUF.with(|buf| {
                let mut buf = buf.borrow_mut();
                if buf.len() < 2 * ROWS * self.widest {
                    buf.resize(2 * ROWS * self.widest, 0.0);
                }
                for group in &mut groups {
                    let rows = std::array::from_fn(|r| &group[r * width..(r + 1) * width]);
                    #[cfg(feature = "simd")]
                    let scores = self.isa.0.dispatch(ForwardRows {
                        kernel: self,
                        rows,
                        buf: &mut buf,
                    });
                    #[cfg(not(feature = "simd"))]
                    let scores = self.forward_rows(rows, &mut buf);
                    scores.into_iter().for_each(&mut each);
                }
            });
        }
        let rest = if mlp { groups.remainder() } else { rows };
        for row in rest.chunks_exact(width) {
            each(self.score_alone(row));
        }
    }

    /// [`Kernel::forward`] of a multi-layer network for [`ROWS`] rows at once; `buf` holds
    /// at least `2 * ROWS * widest` values.
    #[inline(always)]
    fn forward_rows(&self, rows: [&[f32]; ROWS], buf: &mut [f32]) -> [f32; ROWS] {
        let Net::Mlp(layers) = &self.net else {
            unreachable!("forward_rows is called for multi-layer networks")
        };
        let (cur, next) = buf[..2 * ROWS * self.widest].split_at_mut(ROWS * self.widest);
        let mut cur_rows = cur.chunks_exact_mut(self.widest);
        let mut cur: [&mut [f32]; ROWS] =
            std::array::from_fn(|_| cur_rows.next().expect("room for every row"));
        let mut next_rows = next.chunks_exact_mut(self.widest);
        let mut next: [&mut [f32]; ROWS] =
            std::array::from_fn(|_| next_rows.next().expect("room for every row"));
        for (row, cur) in rows.iter().zip(cur.iter_mut()) {
            self.standardize(row, cur);
        }
        let mut width = self.scaler.mean.len();
        for layer in layers {
            let inputs = std::array::from_fn(|r| &cur[r][..width]);
            layer.forward_rows(inputs, &mut next);
            std::mem::swap(&mut cur, &mut next);
            width = layer.outputs;
        }
        std::array::from_fn(|r| cur[r][0])
    }

    fn score_in(&self, row: &[f32], cur: &mut [f32], next: &mut [f32]) -> f32 {
        #[cfg(feature = "simd")]
        return self.isa.0.dispatch(Forward {
            kernel: self,
            row,
            cur,
            next,
        });
        #[cfg(not(feature = "simd"))]
        self.forward(row, cur, next)
    }

    /// Writes the model's inputs of `row`, standardised, to the first values of `z` (the
    /// model's columns are read from their places in the row, run by run).
    #[inline(always)]
    fn standardize(&self, row: &[f32], z: &mut [f32]) {
        let (mean, std) = (&self.scaler.mean, &self.scaler.std);
        for &(column, feature, len) in &self.runs {
            let x = &row[column..column + len];
            let (m, s) = (&mean[feature..feature + len], &std[feature..feature + len]);
            let z = &mut z[feature..feature + len];
            for (z, ((x, m), s)) in z.iter_mut().zip(x.iter().zip(m).zip(s)) {
                *z = (x - m) / s;
            }
        }
    }

    /// [`Kernel::score_in`] for the instruction set of the caller: everything it calls is
    /// inlined, so that it is compiled with the wider vectors inside `dispatch`.
    #[inline(always)]
    fn forward<'a>(&self, row: &[f32], mut cur: &'a mut [f32], mut next: &'a mut [f32]) -> f32 {
        self.standardize(row, cur);
        let n = self.scaler.mean.len();
        match &self.net {
            Net::Logistic { weights, bias } => sigmoid(bias + dot(weights, &cur[..n])),
            Net::Trees { trees, bias } => sigmoid(super::trees::logit(trees, *bias, &cur[..n])),
            Net::Mlp(layers) => {
                let mut width = n;
                for layer in layers {
                    layer.forward(&cur[..width], next);
                    std::mem::swap(&mut cur, &mut next);
                    width = layer.outputs;
                }
                cur[0]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The plainest forward pass: each output its bias plus the products in input order.
    #[allow(clippy::needless_range_loop)] // indices, as in the definition
    fn reference(layers: &[Layer], scaler: &Scaler, row: &[f32]) -> f32 {
        let mut x: Vec<f32> = row
            .iter()
            .zip(&scaler.mean)
            .zip(&scaler.std)
            .map(|((x, m), s)| (x - m) / s)
            .collect();
        for layer in layers {
            let n = x.len();
            let mut out = Vec::with_capacity(layer.outputs());
            for j in 0..layer.outputs() {
                let mut s = layer.bias[j];
                for i in 0..n {
                    s += layer.weights[j * n + i] * x[i];
                }
                out.push(layer.activation.apply(s));
            }
            x = out;
        }
        x[0]
    }

    /// The kernel running the baseline code, whatever the CPU offers.
    fn baseline(kernel: &Kernel) -> Kernel {
        #[cfg(feature = "simd")]
        let kernel = &Kernel {
            isa: Isa(pulp::Arch::Scalar),
            ..kernel.clone()
        };
        kernel.clone()
    }

    fn random_mlp(rng: &mut StdRng, widths: &[usize], hidden: Activation) -> Model {
        let n = widths[0];
        let mut layers = Vec::new();
        for (k, pair) in widths.windows(2).enumerate() {
            let (inputs, outputs) = (pair[0], pair[1]);
            let last = k + 2 == widths.len();
            layers.push(Layer {
                activation: if last { Activation::Sigmoid } else { hidden },
                weights: (0..inputs * outputs)
                    .map(|_| rng.gen_range(-1.0..1.0))
                    .collect(),
                bias: (0..outputs).map(|_| rng.gen_range(-0.5..0.5)).collect(),
            });
        }
        let model = Model::new(
            (0..n).map(|i| format!("f{i}")).collect(),
            Scaler {
                mean: (0..n).map(|_| rng.gen_range(-2.0..2.0)).collect(),
                std: (0..n).map(|_| rng.gen_range(0.1..3.0)).collect(),
            },
            ModelKind::Mlp { layers },
        );
        model.validate().unwrap();
        model
    }

    fn random_row(rng: &mut StdRng, n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| match i % 4 {
                0 => 0.0,
                1 => 1.0,
                _ => rng.gen_range(-5.0..15.0),
            })
            .collect()
    }

    #[test]
    fn the_kernel_scores_bit_for_bit_like_the_plain_forward_pass() {
        let mut rng = StdRng::seed_from_u64(7);
        // Hidden widths around the block (32) and group (8) sizes: wide blocks, narrow
        // groups and scalar outputs, alone and together; odd input counts.
        let shapes: &[&[usize]] = &[
            &[1, 1],
            &[3, 1],
            &[63, 32, 1],
            &[63, 33, 1],
            &[7, 31, 1],
            &[5, 8, 1],
            &[9, 7, 1],
            &[17, 40, 1],
            &[13, 45, 9, 1],
            &[64, 64, 1],
            &[2, 300, 1],
        ];
        for shape in shapes {
            for hidden in [Activation::Tanh, Activation::Relu, Activation::Identity] {
                let model = random_mlp(&mut rng, shape, hidden);
                let ModelKind::Mlp { layers } = &model.kind else {
                    unreachable!()
                };
                let kernel = Kernel::new(&model);
                let baseline = baseline(&kernel);
                let mut scratch = Vec::new();
                for _ in 0..20 {
                    let row = random_row(&mut rng, shape[0]);
                    let want = reference(layers, &model.scaler, &row);
                    let got = kernel.score(&row, &mut scratch);
                    assert_eq!(got.to_bits(), want.to_bits(), "{shape:?} {hidden}");
                    assert_eq!(kernel.score_alone(&row).to_bits(), want.to_bits());
                    assert_eq!(baseline.score_alone(&row).to_bits(), want.to_bits());
                    assert_eq!(model.score(&row).to_bits(), want.to_bits());
                }
            }
        }
    }

    /// Rows scored together have the scores of each row scored alone, bit for bit, for
    /// any number of rows (whole groups and the rows left over).
    #[test]
    fn rows_scored_together_score_as_each_alone() {
        let mut rng = StdRng::seed_from_u64(19);
        let shapes: &[&[usize]] = &[
            &[3, 1],
            &[149, 16, 1],
            &[63, 32, 1],
            &[7, 31, 1],
            &[9, 7, 1],
            &[13, 45, 9, 1],
            &[2, 300, 1],
        ];
        for shape in shapes {
            let model = random_mlp(&mut rng, shape, Activation::Tanh);
            let kernel = Kernel::new(&model);
            let baseline = baseline(&kernel);
            for n in [0, 1, 3, 4, 5, 8, 11] {
                let rows: Vec<f32> = (0..n)
                    .flat_map(|_| random_row(&mut rng, shape[0]))
                    .collect();
                let want: Vec<u32> = rows
                    .chunks_exact(shape[0])
                    .map(|r| kernel.score_alone(r).to_bits())
                    .collect();
                for k in [&kernel, &baseline] {
                    let mut got = vec![0.5];
                    k.score_rows(&rows, shape[0], |s| got.push(s));
                    let got: Vec<u32> = got[1..].iter().map(|s| s.to_bits()).collect();
                    assert_eq!(got, want, "{shape:?}, {n} rows");
                }
            }
        }
    }

    #[test]
    fn the_kernel_gathers_its_columns_from_a_wider_row() {
        let mut rng = StdRng::seed_from_u64(11);
        let model = random_mlp(&mut rng, &[10, 32, 1], Activation::Tanh);
        // Two runs of consecutive columns, one out of order, one repeated.
        let columns = [0, 1, 2, 3, 20, 21, 22, 5, 5, 30];
        let kernel = Kernel::with_columns(&model.kind, &model.scaler, &columns);
        assert_eq!(kernel.runs.len(), 5);
        let mut scratch = Vec::new();
        for _ in 0..20 {
            let full = random_row(&mut rng, 31);
            let row: Vec<f32> = columns.iter().map(|&c| full[c]).collect();
            assert_eq!(
                kernel.score(&full, &mut scratch).to_bits(),
                model.score(&row).to_bits()
            );
        }
    }

    #[test]
    fn the_kernel_of_a_logistic_model_scores_like_the_model() {
        let mut rng = StdRng::seed_from_u64(3);
        for n in [1, 7, 8, 9, 63] {
            let model = Model::new(
                (0..n).map(|i| format!("f{i}")).collect(),
                Scaler {
                    mean: (0..n).map(|_| rng.gen_range(-2.0..2.0)).collect(),
                    std: (0..n).map(|_| rng.gen_range(0.1..3.0)).collect(),
                },
                ModelKind::Logistic {
                    weights: (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect(),
                    bias: 0.3,
                },
            );
            let kernel = Kernel::new(&model);
            for _ in 0..20 {
                let row = random_row(&mut rng, n);
                assert_eq!(
                    kernel.score_alone(&row).to_bits(),
                    model.score(&row).to_bits()
                );
            }
        }
    }

    #[test]
    fn a_nan_feature_gives_a_nan_score() {
        let mut rng = StdRng::seed_from_u64(5);
        let model = random_mlp(&mut rng, &[9, 32, 1], Activation::Tanh);
        let mut row = random_row(&mut rng, 9);
        row[4] = f32::NAN;
        assert!(Kernel::new(&model).score_alone(&row).is_nan());
    }
}
