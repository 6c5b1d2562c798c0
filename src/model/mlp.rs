//! The multi-layer perceptron's layers and its forward pass for one row. No training code.

use serde::{Deserialize, Serialize};

use super::{Scaler, sigmoid};

/// One fully connected layer:
/// `output[j] = activation(bias[j] + Σ_i weights[j * inputs + i] * input[i])`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    /// Applied to each output.
    pub activation: Activation,
    /// Row-major `outputs × inputs` matrix: the weights of output `j` are
    /// `weights[j * inputs..(j + 1) * inputs]`.
    pub weights: Vec<f32>,
    /// One bias per output; its length is the number of outputs.
    pub bias: Vec<f32>,
}

impl Layer {
    /// Number of outputs (the length of [`Layer::bias`]).
    pub fn outputs(&self) -> usize {
        self.bias.len()
    }

    /// Number of inputs implied by the weights (`weights.len() / outputs`), or 0 for a layer
    /// without outputs.
    pub fn inputs(&self) -> usize {
        self.weights.len().checked_div(self.bias.len()).unwrap_or(0)
    }
}

/// Activation function of a [`Layer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// Hyperbolic tangent.
    Tanh,
    /// `max(0, x)`.
    Relu,
    /// The logistic function; the output layer of every MLP model uses it.
    Sigmoid,
    /// No activation.
    Identity,
}

impl Activation {
    /// Applies the activation to one value.
    #[inline]
    pub fn apply(self, x: f32) -> f32 {
        match self {
            Activation::Tanh => tanh(x),
            Activation::Relu => x.max(0.0),
            Activation::Sigmoid => sigmoid(x),
            Activation::Identity => x,
        }
    }

    /// The lowercase name used in model files.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Tanh => "tanh",
            Activation::Relu => "relu",
            Activation::Sigmoid => "sigmoid",
            Activation::Identity => "identity",
        }
    }
}

impl std::fmt::Display for Activation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Activation {
    type Err = crate::Error;

    /// Parses `tanh`, `relu`, `sigmoid` or `identity`.
    fn from_str(s: &str) -> crate::Result<Self> {
        match s {
            "tanh" => Ok(Activation::Tanh),
            "relu" => Ok(Activation::Relu),
            "sigmoid" => Ok(Activation::Sigmoid),
            "identity" => Ok(Activation::Identity),
            _ => Err(crate::Error::Other(format!(
                "unknown activation \"{s}\"; expected tanh, relu, sigmoid or identity"
            ))),
        }
    }
}

/// Hyperbolic tangent by a rational approximation, `x · p(x²) / q(x²)` on `x` clamped to
/// ±7.9 (where `tanh` is 1 in `f32`).
///
/// NOTE: the platform's `tanhf` took most of the time of scoring a line with a 32-unit
/// hidden layer; this is several times faster, vectorises, and gives the same bits on
/// every platform. Its error is below 5e-7 (test
/// `fast_tanh_is_within_a_millionth_of_tanh`). Training uses it too, so a model is trained
/// with exactly the function it is scored with. The coefficients are the minimax fit used
/// by the Eigen library's fast `tanh` for `float`.
#[inline]
pub fn tanh(x: f32) -> f32 {
    const CLAMP: f32 = 7.905_311;
    const ALPHA: [f32; 7] = [
        4.893_524_6e-3,
        6.372_619_3e-4,
        1.485_722_4e-5,
        5.122_297e-8,
        -8.604_672e-11,
        2.000_188e-13,
        -2.760_768_5e-16,
    ];
    const BETA: [f32; 4] = [4.893_525e-3, 2.268_434_6e-3, 1.185_347_1e-4, 1.198_258_4e-6];
    let small = x.abs() < 4e-4;
    let x0 = x;
    let x = x.clamp(-CLAMP, CLAMP);
    let x2 = x * x;
    let mut p = ALPHA[6];
    for &a in ALPHA[..6].iter().rev() {
        p = p * x2 + a;
    }
    let mut q = BETA[3];
    for &b in BETA[..3].iter().rev() {
        q = q * x2 + b;
    }
    // Near 0, tanh(x) = x - x³/3 + ... rounds to x in f32. A select, not a branch, so that
    // a layer's activations vectorise.
    if small { x0 } else { x * p / q }
}

/// Widest layer (or input) scored without a heap allocation.
pub(super) const STACK_WIDTH: usize = 256;

/// The single output of the network for one raw row. `layers` must be consistent
/// (see `Model::validate`).
#[inline]
pub(super) fn forward(layers: &[Layer], scaler: &Scaler, row: &[f32]) -> f32 {
    let widest = layers
        .iter()
        .map(Layer::outputs)
        .fold(row.len(), usize::max);
    if widest <= STACK_WIDTH {
        let mut a = [0.0_f32; STACK_WIDTH];
        let mut b = [0.0_f32; STACK_WIDTH];
        forward_in(layers, scaler, row, &mut a, &mut b)
    } else {
        let mut a = vec![0.0_f32; widest];
        let mut b = vec![0.0_f32; widest];
        forward_in(layers, scaler, row, &mut a, &mut b)
    }
}

/// Forward pass using two scratch buffers at least as wide as the widest layer.
fn forward_in<'a>(
    layers: &[Layer],
    scaler: &Scaler,
    row: &[f32],
    mut cur: &'a mut [f32],
    mut next: &'a mut [f32],
) -> f32 {
    let mut width = row.len();
    scaler.standardise_into(row, cur);
    for layer in layers {
        let out = layer.outputs();
        layer_forward(layer, &cur[..width], &mut next[..out]);
        std::mem::swap(&mut cur, &mut next);
        width = out;
    }
    cur[0]
}

/// `out = activation(W · input + bias)` for one layer, from its row-major weights.
///
/// Each output is its bias plus the product with each input, added in input order; the
/// [`Kernel`](super::kernel::Kernel) of the filter sums in the same order from input-major
/// weights, so both give the same bits.
#[inline]
fn layer_forward(layer: &Layer, input: &[f32], out: &mut [f32]) {
    let n = input.len();
    // NOTE: eight outputs at a time give the CPU eight independent sums to overlap.
    const AT_ONCE: usize = 8;
    for ((out, bias), rows) in out
        .chunks_mut(AT_ONCE)
        .zip(layer.bias.chunks(AT_ONCE))
        .zip(layer.weights.chunks(AT_ONCE * n))
    {
        let mut acc = [0.0_f32; AT_ONCE];
        acc[..bias.len()].copy_from_slice(bias);
        for (i, &x) in input.iter().enumerate() {
            for (a, row) in acc.iter_mut().zip(rows.chunks_exact(n)) {
                *a += row[i] * x;
            }
        }
        out.copy_from_slice(&acc[..out.len()]);
    }
    activate(layer.activation, out);
}

/// Applies `activation` to every value of `out`.
// NOTE: after the sums, so that their work is independent and vectorises.
#[inline]
pub(super) fn activate(activation: Activation, out: &mut [f32]) {
    match activation {
        Activation::Tanh => out.iter_mut().for_each(|v| *v = tanh(*v)),
        Activation::Relu => out.iter_mut().for_each(|v| *v = v.max(0.0)),
        Activation::Sigmoid => out.iter_mut().for_each(|v| *v = sigmoid(*v)),
        Activation::Identity => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_computes_a_two_layer_network_by_hand() {
        let layers = vec![
            Layer {
                activation: Activation::Relu,
                // 2 outputs × 3 inputs
                weights: vec![1.0, 0.0, -1.0, 0.5, 0.5, 0.5],
                bias: vec![0.0, -1.0],
            },
            Layer {
                activation: Activation::Identity,
                weights: vec![2.0, -3.0],
                bias: vec![0.25],
            },
        ];
        let scaler = Scaler {
            mean: vec![0.0, 1.0, 0.0],
            std: vec![1.0, 1.0, 2.0],
        };
        // standardised: [3, 1, -1]; hidden: [relu(3 + 1), relu(0.5*(3) - 1)] = [4, 0.5]
        let out = forward(&layers, &scaler, &[3.0, 2.0, -2.0]);
        assert_eq!(out, 0.25 + 2.0 * 4.0 - 3.0 * 0.5);
    }

    #[test]
    fn wide_layers_fall_back_to_heap_buffers_with_the_same_result() {
        let width = STACK_WIDTH + 3;
        let layers = vec![
            Layer {
                activation: Activation::Tanh,
                weights: (0..width * 2).map(|i| (i % 7) as f32 * 0.01).collect(),
                bias: vec![0.0; width],
            },
            Layer {
                activation: Activation::Sigmoid,
                weights: vec![0.01; width],
                bias: vec![0.0],
            },
        ];
        let scaler = Scaler::identity(2);
        let wide = forward(&layers, &scaler, &[1.0, -1.0]);
        let mut a = vec![0.0; width];
        let mut b = vec![0.0; width];
        let direct = forward_in(&layers, &scaler, &[1.0, -1.0], &mut a, &mut b);
        assert_eq!(wide.to_bits(), direct.to_bits());
        assert!(wide > 0.0 && wide < 1.0);
    }

    #[test]
    fn fast_tanh_is_within_a_millionth_of_tanh() {
        let mut worst = (0.0_f64, 0.0_f32);
        for i in -2_000_000..=2_000_000 {
            let x = i as f32 * 1e-5;
            let err = (f64::from(tanh(x)) - f64::from(x).tanh()).abs();
            if err > worst.0 {
                worst = (err, x);
            }
        }
        assert!(worst.0 < 1e-6, "error {:e} at {}", worst.0, worst.1);
        for x in [1e-30_f32, 1e-5, 3.9e-4, 4e-4, 100.0, f32::MAX] {
            assert!(
                (f64::from(tanh(x)) - f64::from(x).tanh()).abs() < 1e-6,
                "{x}"
            );
            assert_eq!(tanh(-x), -tanh(x));
        }
        assert_eq!(tanh(0.0), 0.0);
        assert!(tanh(f32::NAN).is_nan());
        assert_eq!(tanh(f32::INFINITY), tanh(7.905_311));
    }

    #[test]
    fn activations_parse_from_their_file_names() {
        for a in [
            Activation::Tanh,
            Activation::Relu,
            Activation::Sigmoid,
            Activation::Identity,
        ] {
            assert_eq!(a.name().parse::<Activation>().unwrap(), a);
        }
        assert!("softmax".parse::<Activation>().is_err());
    }
}
