//! The model file: JSON in and out, and the checks a model must pass before it scores.

use std::path::Path;

use super::{Activation, MIN_MODEL_FORMAT_VERSION, MODEL_FORMAT_VERSION, Model, ModelKind};
use crate::{Error, Result};

/// The largest model file [`Model::load`] reads: 32 MiB. The built-in model is 121 KB; a
/// thousand boosted trees of depth 8 take about 5 MB.
pub const MAX_MODEL_BYTES: u64 = 32 << 20;

/// The most feature names a model (or its second stage) lists: 1,048,576. The schema has
/// about a hundred, a second stage a few hundred; an array of empty names takes 8 times
/// its text as strings.
pub(crate) const MAX_FEATURE_NAMES: usize = 1 << 20;

/// The most bytes of JSON a model's provenance takes: 1 MiB. `mainline train` writes a few
/// KB; its values are kept as JSON values, which take about 16 times their text.
pub(crate) const MAX_PROVENANCE_BYTES: usize = 1 << 20;

/// The raw value of the top-level object's first `"format"` field, the rest of the text
/// checked (it must be JSON) but skipped without being built.
fn format_field(s: &str) -> Result<Option<&serde_json::value::RawValue>> {
    use serde::Deserializer as _;
    use serde::de::{IgnoredAny, MapAccess, Visitor};
    use serde_json::value::RawValue;

    struct FormatOf;
    impl<'de> Visitor<'de> for FormatOf {
        type Value = Option<&'de RawValue>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(
            self,
            mut map: A,
        ) -> std::result::Result<Self::Value, A::Error> {
            let mut format = None;
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if key == "format" && format.is_none() {
                    format = Some(map.next_value::<&'de RawValue>()?);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(format)
        }
    }

    let mut de = serde_json::Deserializer::from_str(s);
    let found = de
        .deserialize_any(FormatOf)
        .and_then(|f| de.end().map(|()| f));
    found.map_err(|e| match e.classify() {
        serde_json::error::Category::Data => {
            Error::ModelFormat("expected a JSON object with a \"format\" field".into())
        }
        _ => Error::ModelFormat(format!("not valid JSON: {e}")),
    })
}

/// Deserialises a list of feature names, refusing one of more than [`MAX_FEATURE_NAMES`]
/// while it is read.
pub(crate) fn bounded_names<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Vec<String>, D::Error> {
    use serde::de::{Error as _, SeqAccess, Visitor};

    struct Names;
    impl<'de> Visitor<'de> for Names {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a list of at most {MAX_FEATURE_NAMES} feature names")
        }
        fn visit_seq<A: SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> std::result::Result<Self::Value, A::Error> {
            let mut names = Vec::new();
            while let Some(name) = seq.next_element::<String>()? {
                if names.len() == MAX_FEATURE_NAMES {
                    return Err(A::Error::custom(format!(
                        "more than {MAX_FEATURE_NAMES} feature names"
                    )));
                }
                names.push(name);
            }
            Ok(names)
        }
    }
    d.deserialize_seq(Names)
}

impl<'de> serde::Deserialize<'de> for super::Provenance {
    /// Reads each value as raw JSON text first, refusing a provenance of more than
    /// `MAX_PROVENANCE_BYTES` (1 MiB) before it is built into JSON values. Unknown keys go to
    /// [`Provenance::extra`](super::Provenance::extra).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde::de::{Error as _, MapAccess, Visitor};
        use serde_json::value::RawValue;

        struct Fields;
        impl<'de> Visitor<'de> for Fields {
            type Value = super::Provenance;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the provenance object")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                let mut p = super::Provenance::default();
                let mut bytes = 0usize;
                while let Some(key) = map.next_key::<String>()? {
                    let raw: Box<RawValue> = map.next_value()?;
                    bytes += key.len() + raw.get().len();
                    if bytes > MAX_PROVENANCE_BYTES {
                        return Err(A::Error::custom(format!(
                            "the provenance is longer than {} MiB",
                            MAX_PROVENANCE_BYTES >> 20
                        )));
                    }
                    let text = raw.get();
                    let field = |e: serde_json::Error| {
                        A::Error::custom(format!("provenance field `{key}`: {e}"))
                    };
                    match key.as_str() {
                        "recipe" => p.recipe = serde_json::from_str(text).map_err(field)?,
                        "data" => p.data = serde_json::from_str(text).map_err(field)?,
                        "created_by" => p.created_by = serde_json::from_str(text).map_err(field)?,
                        "params" => p.params = serde_json::from_str(text).map_err(field)?,
                        "validation" => p.validation = serde_json::from_str(text).map_err(field)?,
                        _ => {
                            let value = serde_json::from_str(text).map_err(field)?;
                            p.extra.insert(key, value);
                        }
                    }
                }
                Ok(p)
            }
        }
        d.deserialize_map(Fields)
    }
}

impl<'de> serde::Deserialize<'de> for super::ModelKind {
    /// Reads each field straight into its type, whatever their order. (The derived
    /// deserialisation of an internally tagged enum buffers the whole object as generic
    /// values first, about 30 bytes per number of a weight array.)
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use super::{Layer, ModelKind, Tree};
        use serde::de::{Error as _, MapAccess, Visitor};

        const FIELDS: &[&str] = &["type", "weights", "bias", "layers", "trees"];
        const VARIANTS: &[&str] = &["logistic", "mlp", "trees"];

        fn once<T, E: serde::de::Error>(
            slot: &mut Option<T>,
            value: T,
            name: &'static str,
        ) -> std::result::Result<(), E> {
            if slot.replace(value).is_some() {
                return Err(E::duplicate_field(name));
            }
            Ok(())
        }

        /// Numbers read as f64 and rounded to f32 one by one.
        struct F32sViaF64(Vec<f32>);
        impl<'de> serde::Deserialize<'de> for F32sViaF64 {
            fn deserialize<D: serde::Deserializer<'de>>(
                d: D,
            ) -> std::result::Result<Self, D::Error> {
                struct Numbers;
                impl<'de> Visitor<'de> for Numbers {
                    type Value = F32sViaF64;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("a list of numbers")
                    }
                    fn visit_seq<A: serde::de::SeqAccess<'de>>(
                        self,
                        mut seq: A,
                    ) -> std::result::Result<Self::Value, A::Error> {
                        let mut out = Vec::new();
                        while let Some(v) = seq.next_element::<f64>()? {
                            #[allow(clippy::cast_possible_truncation)]
                            out.push(v as f32);
                        }
                        Ok(F32sViaF64(out))
                    }
                }
                d.deserialize_seq(Numbers)
            }
        }

        struct Fields;
        impl<'de> Visitor<'de> for Fields {
            type Value = ModelKind;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a classifier object with a \"type\"")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                let mut kind: Option<String> = None;
                let mut weights: Option<Vec<f32>> = None;
                let mut bias: Option<f32> = None;
                let mut layers: Option<Vec<Layer>> = None;
                let mut trees: Option<Vec<Tree>> = None;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "type" => once(&mut kind, map.next_value()?, "type")?,
                        "weights" => {
                            let w = map.next_value::<F32sViaF64>()?.0;
                            once(&mut weights, w, "weights")?;
                        }
                        // NOTE: read as f64 and rounded to f32, as the derived enum read
                        // them: a value beyond the f32 range becomes an infinity, which
                        // `validate` names, not a parse error.
                        #[allow(clippy::cast_possible_truncation)]
                        "bias" => once(&mut bias, map.next_value::<f64>()? as f32, "bias")?,
                        "layers" => once(&mut layers, map.next_value()?, "layers")?,
                        "trees" => once(&mut trees, map.next_value()?, "trees")?,
                        other => return Err(A::Error::unknown_field(other, FIELDS)),
                    }
                }
                let kind = kind.ok_or_else(|| A::Error::missing_field("type"))?;
                let (allowed, present): (&[&'static str], _) = match kind.as_str() {
                    "logistic" => (
                        &["type", "weights", "bias"],
                        [layers.is_some(), trees.is_some()],
                    ),
                    "mlp" => (
                        &["type", "layers"],
                        [weights.is_some(), trees.is_some() || bias.is_some()],
                    ),
                    "trees" => (
                        &["type", "trees", "bias"],
                        [weights.is_some(), layers.is_some()],
                    ),
                    other => return Err(A::Error::unknown_variant(other, VARIANTS)),
                };
                if present.iter().any(|&p| p) {
                    let extra = [
                        ("weights", weights.is_some()),
                        ("bias", bias.is_some()),
                        ("layers", layers.is_some()),
                        ("trees", trees.is_some()),
                    ]
                    .into_iter()
                    .find(|(name, p)| *p && !allowed.contains(name))
                    .map_or("?", |(name, _)| name);
                    return Err(A::Error::unknown_field(extra, allowed));
                }
                let need = |name: &'static str| A::Error::missing_field(name);
                Ok(match kind.as_str() {
                    "logistic" => ModelKind::Logistic {
                        weights: weights.ok_or_else(|| need("weights"))?,
                        bias: bias.ok_or_else(|| need("bias"))?,
                    },
                    "mlp" => ModelKind::Mlp {
                        layers: layers.ok_or_else(|| need("layers"))?,
                    },
                    _ => ModelKind::Trees {
                        trees: trees.ok_or_else(|| need("trees"))?,
                        bias: bias.ok_or_else(|| need("bias"))?,
                    },
                })
            }
        }
        d.deserialize_map(Fields)
    }
}

impl Model {
    /// Parses and [validates](Model::validate) a model file's text.
    ///
    /// The format version is checked before anything else, so a file from another version
    /// of mainline reports its version rather than a confusing field error.
    ///
    /// # Errors
    ///
    /// - [`Error::ModelVersion`] when `"format"` is not between [`MIN_MODEL_FORMAT_VERSION`]
    ///   and [`MODEL_FORMAT_VERSION`];
    /// - [`Error::ModelFormat`] when the text is not JSON, a field is missing, unknown or of
    ///   the wrong type (with line and column), or [`Model::validate`] fails.
    pub fn from_json(s: &str) -> Result<Model> {
        // NOTE: the first pass reads the "format" field alone and skips the rest without
        // building it (a `serde_json::Value` of a 32 MiB array takes a gigabyte).
        let format = format_field(s)?;
        let Some(format) = format else {
            return Err(Error::ModelFormat("no \"format\" field".into()));
        };
        let Ok(found) = serde_json::from_str::<u64>(format.get()) else {
            let text = format.get();
            let shown: String = text.chars().take(40).collect();
            let more = if shown.len() < text.len() { "…" } else { "" };
            return Err(Error::ModelFormat(format!(
                "\"format\" must be a non-negative integer, found {shown}{more}"
            )));
        };
        if !(u64::from(MIN_MODEL_FORMAT_VERSION)..=u64::from(MODEL_FORMAT_VERSION)).contains(&found)
        {
            return Err(Error::ModelVersion {
                expected: MODEL_FORMAT_VERSION,
                found: u32::try_from(found).unwrap_or(u32::MAX),
            });
        }
        // The model itself: its arrays become vectors of numbers (4 bytes per value, written
        // in 2 bytes or more), the lists of names and the provenance are capped while they
        // are read (`bounded_names`, `Provenance`'s `Deserialize`), so memory stays a few
        // times the file's size. Field errors carry a line and column.
        let model: Model =
            serde_json::from_str(s).map_err(|e| Error::ModelFormat(e.to_string()))?;
        model.validate()?;
        Ok(model)
    }

    /// The model as pretty-printed JSON (one value per line, so that two versions of a
    /// model diff well), ending with a newline. Floats are written with the fewest digits
    /// that read back to the same `f32`, so [`Model::from_json`] restores identical scores.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self)
            .expect("a Model has only string keys and plain values, which always serialise");
        s.push('\n');
        s
    }

    /// Reads and validates a model file of at most [`MAX_MODEL_BYTES`].
    ///
    /// # Errors
    ///
    /// [`Error::ModelFile`] naming the file, wrapping the I/O error, an
    /// [`Error::ModelFormat`] for a file longer than [`MAX_MODEL_BYTES`] (it is not read
    /// further: `/dev/zero` fails at once) or the error of [`Model::from_json`].
    pub fn load(path: &Path) -> Result<Model> {
        use std::io::Read;
        let in_file = |cause: Error| Error::ModelFile {
            path: path.to_path_buf(),
            cause: Box::new(cause),
        };
        let file = std::fs::File::open(path).map_err(|e| in_file(e.into()))?;
        let mut bytes = Vec::new();
        file.take(MAX_MODEL_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| in_file(e.into()))?;
        if bytes.len() as u64 > MAX_MODEL_BYTES {
            return Err(in_file(Error::ModelFormat(format!(
                "the file is longer than {} MiB, more than any model mainline writes",
                MAX_MODEL_BYTES >> 20
            ))));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            in_file(Error::Io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "stream did not contain valid UTF-8 (invalid byte at offset {})",
                    e.utf8_error().valid_up_to()
                ),
            )))
        })?;
        Model::from_json(&text).map_err(in_file)
    }

    /// Checks that the model can score: the format version, one scaler entry and one input
    /// weight per feature, consistent layer shapes, an MLP ending in one sigmoid output, a
    /// threshold in `[0, 1]`, positive standard deviations and finite numbers throughout.
    ///
    /// # Errors
    ///
    /// [`Error::ModelVersion`] for another format version, otherwise
    /// [`Error::ModelFormat`] saying what is inconsistent and where.
    pub fn validate(&self) -> Result<()> {
        if !(MIN_MODEL_FORMAT_VERSION..=MODEL_FORMAT_VERSION).contains(&self.format) {
            return Err(Error::ModelVersion {
                expected: MODEL_FORMAT_VERSION,
                found: self.format,
            });
        }
        let bad = |msg: String| Err(Error::ModelFormat(msg));
        let n = self.features.len();
        if n == 0 {
            return bad("the model has no features".into());
        }
        let mut seen = std::collections::HashSet::with_capacity(n);
        for name in &self.features {
            if name.is_empty() {
                return bad("a feature name is empty".into());
            }
            if !seen.insert(name.as_str()) {
                return bad(format!("feature \"{name}\" is listed twice"));
            }
        }
        if !(0.0..=1.0).contains(&self.threshold) {
            return bad(format!(
                "threshold {} is outside [0, 1]; it applies to a probability",
                self.threshold
            ));
        }

        let scaler = &self.scaler;
        if scaler.mean.len() != n || scaler.std.len() != n {
            return bad(format!(
                "scaler has {} means and {} standard deviations for {n} features",
                scaler.mean.len(),
                scaler.std.len()
            ));
        }
        for (i, (m, s)) in scaler.mean.iter().zip(&scaler.std).enumerate() {
            let name = &self.features[i];
            if !m.is_finite() {
                return bad(format!("scaler mean of feature \"{name}\" is not finite"));
            }
            if !(s.is_finite() && *s > 0.0) {
                return bad(format!(
                    "scaler std of feature \"{name}\" is {s}; it must be positive and finite"
                ));
            }
            // NOTE: standardising divides by the std: one so small that its reciprocal
            // overflows (1e-45) turns every value into an infinity and the scores into NaN.
            if !(1.0 / s).is_finite() {
                return bad(format!(
                    "scaler std of feature \"{name}\" is {s}, too small to divide by (at \
                     least {:e})",
                    1.0 / f32::MAX
                ));
            }
        }

        match &self.kind {
            ModelKind::Logistic { weights, bias } => {
                if weights.len() != n {
                    return bad(format!(
                        "logistic model has {} weights for {n} features",
                        weights.len()
                    ));
                }
                if let Some(i) = weights.iter().position(|w| !w.is_finite()) {
                    return bad(format!(
                        "logistic weight of feature \"{}\" is not finite",
                        self.features[i]
                    ));
                }
                if !bias.is_finite() {
                    return bad("logistic bias is not finite".into());
                }
            }
            ModelKind::Mlp { layers } => {
                if layers.is_empty() {
                    return bad("MLP model has no layers".into());
                }
                let mut inputs = n;
                for (k, layer) in layers.iter().enumerate() {
                    let k = k + 1;
                    let outputs = layer.outputs();
                    if outputs == 0 {
                        return bad(format!("MLP layer {k} has no outputs (empty bias)"));
                    }
                    let from = if k == 1 {
                        format!("the {n} features")
                    } else {
                        format!("the {inputs} outputs of layer {}", k - 1)
                    };
                    if layer.weights.len() != outputs * inputs {
                        return bad(format!(
                            "MLP layer {k} has {} weights; expected {outputs} outputs × {inputs} \
                             inputs = {} (its input is {from})",
                            layer.weights.len(),
                            outputs * inputs
                        ));
                    }
                    if let Some(i) = layer.weights.iter().position(|w| !w.is_finite()) {
                        return bad(format!(
                            "MLP layer {k} weight {} (output {}, input {}) is not finite",
                            i,
                            i / inputs,
                            i % inputs
                        ));
                    }
                    if let Some(j) = layer.bias.iter().position(|b| !b.is_finite()) {
                        return bad(format!("MLP layer {k} bias {j} is not finite"));
                    }
                    inputs = outputs;
                }
                let last = layers.last().expect("checked non-empty above");
                if last.outputs() != 1 {
                    return bad(format!(
                        "the last MLP layer has {} outputs; it must have 1 (the probability of \
                         content)",
                        last.outputs()
                    ));
                }
                if last.activation != Activation::Sigmoid {
                    return bad(format!(
                        "the last MLP layer's activation is {}; it must be sigmoid so that the \
                         output is a probability",
                        last.activation
                    ));
                }
            }
            ModelKind::Trees { trees, bias } => {
                if !bias.is_finite() {
                    return bad("the trees' bias is not finite".into());
                }
                for (k, tree) in trees.iter().enumerate() {
                    if let Some(why) = tree.check(n) {
                        return bad(format!("tree {} {why}", k + 1));
                    }
                }
            }
        }
        if let Some(stage2) = &self.stack {
            if self.format < 2 {
                return bad(format!(
                    "a second stage (\"stack\") needs model format 2; the file says format {}",
                    self.format
                ));
            }
            if stage2.page && self.format < 3 {
                return bad(format!(
                    "a second stage with page inputs needs model format 3; the file says \
                     format {}",
                    self.format
                ));
            }
            self.validate_stage2(stage2)?;
        }
        Ok(())
    }

    fn validate_stage2(&self, s: &super::Stage2) -> Result<()> {
        use crate::second_stage::{LINE_PREFIX, MAX_LOOKAHEAD, window_names};
        let bad = |msg: String| Err(Error::ModelFormat(format!("second stage: {msg}")));
        if s.lookahead > MAX_LOOKAHEAD {
            return bad(format!(
                "lookahead {} is more than {MAX_LOOKAHEAD} lines",
                s.lookahead
            ));
        }
        if s.repeats && !s.page {
            return bad(
                "the signature inputs (\"repeats\") need the page inputs (\"page\")".into(),
            );
        }
        if s.hints && !s.page {
            return bad("the page hints (\"hints\") need the page inputs (\"page\")".into());
        }
        let expected = if s.page {
            crate::second_stage::page_input_names(s.lookahead, s.repeats, s.hints, &[])
        } else {
            window_names(s.lookahead)
        };
        let n = expected.len();
        if s.features.len() < n || s.features[..n] != expected[..] {
            return bad(format!(
                "its first inputs are not the {n} score-window{} inputs this build computes \
                 for a lookahead of {} lines; retrain the model with this build",
                if s.page { " and page" } else { "" },
                s.lookahead
            ));
        }
        if let Some(name) = s.features[n..]
            .iter()
            .find(|f| f.strip_prefix(LINE_PREFIX).is_none_or(str::is_empty))
        {
            return bad(format!(
                "input \"{name}\" is neither a score-window input nor a copied feature \
                 (\"{LINE_PREFIX}<feature>\")"
            ));
        }
        let as_model = Model {
            format: MODEL_FORMAT_VERSION,
            provenance: Default::default(),
            features: s.features.clone(),
            context: 0,
            threshold: s.threshold,
            scaler: s.scaler.clone(),
            kind: s.kind.clone(),
            stack: None,
        };
        as_model.validate().map_err(|e| match e {
            Error::ModelFormat(msg) => Error::ModelFormat(format!("second stage: {msg}")),
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Layer, Scaler};
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("f{i}")).collect()
    }

    fn logistic() -> Model {
        let mut m = Model::new(
            names(3),
            Scaler {
                mean: vec![0.1, -2.5, 3.0e-7],
                std: vec![1.0, 0.3, 12.5],
            },
            ModelKind::Logistic {
                weights: vec![0.1, -0.2, 0.3],
                bias: 0.7,
            },
        );
        m.context = 2;
        m.threshold = 0.43;
        m.provenance.recipe = "recipe".into();
        m.provenance.validation = serde_json::json!({ "f1": 0.9 });
        m
    }

    fn mlp() -> Model {
        Model::new(
            names(3),
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

    fn trees() -> Model {
        Model::new(
            names(3),
            Scaler::identity(3),
            ModelKind::Trees {
                trees: vec![super::super::Tree {
                    features: vec![2, 0],
                    thresholds: vec![0.25, -1.5],
                    leaves: vec![-1.0, 0.5, 0.75, 2.0],
                }],
                bias: -0.125,
            },
        )
    }

    fn format_message(json: &str) -> String {
        match Model::from_json(json) {
            Err(Error::ModelFormat(msg)) => msg,
            other => panic!("expected ModelFormat, got {other:?}"),
        }
    }

    #[test]
    fn json_round_trip_gives_an_equal_model() {
        for m in [logistic(), mlp(), trees()] {
            let back = Model::from_json(&m.to_json()).unwrap();
            assert_eq!(back, m);
        }
    }

    #[test]
    fn f32_values_survive_json_bit_for_bit() {
        // Random bit patterns over the whole finite range, plus awkward values.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut values = vec![f32::MIN_POSITIVE, f32::MAX, f32::MIN, 1.0e-45, 0.1, -0.0];
        while values.len() < 100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let v = f32::from_bits(state as u32);
            if v.is_finite() {
                values.push(v);
            }
        }
        let mut m = logistic();
        m.features = names(values.len());
        m.scaler = Scaler::identity(values.len());
        m.kind = ModelKind::Logistic {
            weights: values.clone(),
            bias: 0.0,
        };
        let back = Model::from_json(&m.to_json()).unwrap();
        let ModelKind::Logistic { weights, .. } = back.kind else {
            panic!("kind changed")
        };
        for (a, b) in values.iter().zip(&weights) {
            assert_eq!(a.to_bits(), b.to_bits(), "{a:e} read back as {b:e}");
        }
    }

    #[test]
    fn the_file_starts_with_its_format_and_keeps_unknown_provenance_keys() {
        let json = logistic().to_json();
        assert!(json.starts_with("{\n  \"format\": 3,"), "{json}");
        let edited = json.replace(
            "\"recipe\": \"recipe\",",
            "\"recipe\": \"recipe\",\n    \"notes\": \"hand-checked\",",
        );
        let m = Model::from_json(&edited).unwrap();
        assert_eq!(m.provenance.extra["notes"], "hand-checked");
        assert!(m.to_json().contains("\"notes\": \"hand-checked\""));
    }

    #[test]
    fn another_format_version_is_a_version_error() {
        for version in [0, 4] {
            let json = logistic()
                .to_json()
                .replace("\"format\": 3", &format!("\"format\": {version}"));
            match Model::from_json(&json) {
                Err(Error::ModelVersion { expected, found }) => {
                    assert_eq!((expected, found), (3, version));
                }
                other => panic!("expected ModelVersion, got {other:?}"),
            }
        }
        // Version 1 and 2 files (no page inputs) are still read.
        for old in [1, 2] {
            let json = logistic()
                .to_json()
                .replace("\"format\": 3", &format!("\"format\": {old}"));
            assert_eq!(Model::from_json(&json).unwrap().format, old);
        }
        // Checked before any other field, even in a file that otherwise would not parse.
        assert!(matches!(
            Model::from_json(r#"{"format": 7, "weights": "new layout"}"#),
            Err(Error::ModelVersion { found: 7, .. })
        ));
    }

    #[test]
    fn malformed_json_is_a_format_error() {
        assert!(format_message("{\"format\": 1,").contains("not valid JSON"));
        assert!(format_message("[1, 2]").contains("\"format\""));
        assert!(format_message("{}").contains("no \"format\" field"));
        assert!(format_message("{\"format\": \"1\"}").contains("non-negative integer"));
    }

    #[test]
    fn unknown_and_missing_fields_are_format_errors() {
        let json = logistic()
            .to_json()
            .replace("\"context\": 2,", "\"context\": 2,\n  \"colour\": 3,");
        assert!(format_message(&json).contains("unknown field `colour`"));
        let json = logistic().to_json().replace("\"threshold\": 0.43,", "");
        assert!(format_message(&json).contains("missing field `threshold`"));
        let json = logistic()
            .to_json()
            .replace("\"type\": \"logistic\"", "\"type\": \"forest\"");
        assert!(format_message(&json).contains("forest"));
    }

    #[test]
    fn inconsistent_dimensions_are_format_errors_saying_which() {
        let mut m = logistic();
        m.kind = ModelKind::Logistic {
            weights: vec![1.0; 2],
            bias: 0.0,
        };
        assert!(
            format_message(&m.to_json()).contains("logistic model has 2 weights for 3 features")
        );

        let mut m = logistic();
        m.scaler.std.pop();
        assert!(format_message(&m.to_json()).contains("3 means and 2 standard deviations"));

        let mut m = mlp();
        if let ModelKind::Mlp { layers } = &mut m.kind {
            layers[1].weights.push(0.0);
        }
        let msg = format_message(&m.to_json());
        assert!(
            msg.contains("MLP layer 2 has 3 weights; expected 1 outputs × 2 inputs"),
            "{msg}"
        );

        let mut m = mlp();
        if let ModelKind::Mlp { layers } = &mut m.kind {
            layers[1].activation = Activation::Identity;
        }
        assert!(format_message(&m.to_json()).contains("must be sigmoid"));

        let mut m = mlp();
        if let ModelKind::Mlp { layers } = &mut m.kind {
            layers.pop();
        }
        assert!(format_message(&m.to_json()).contains("last MLP layer has 2 outputs"));

        let mut m = trees();
        if let ModelKind::Trees { trees, .. } = &mut m.kind {
            trees[0].features[1] = 3;
        }
        assert!(format_message(&m.to_json()).contains("tree 1 reads feature 3 of 3"));
        let mut m = trees();
        if let ModelKind::Trees { trees, .. } = &mut m.kind {
            trees[0].leaves.pop();
        }
        assert!(format_message(&m.to_json()).contains("tree 1 has 3 leaves"));
    }

    #[test]
    fn non_finite_or_out_of_range_values_are_format_errors() {
        let json = logistic().to_json().replace("0.7", "1e39");
        assert!(format_message(&json).contains("bias is not finite"));
        let json = logistic().to_json().replace("12.5", "0.0");
        assert!(format_message(&json).contains("std of feature \"f2\" is 0"));
        let json = logistic()
            .to_json()
            .replace("\"threshold\": 0.43", "\"threshold\": 1.5");
        assert!(format_message(&json).contains("threshold 1.5 is outside [0, 1]"));
        let mut m = logistic();
        m.features[2] = "f0".into();
        assert!(format_message(&m.to_json()).contains("\"f0\" is listed twice"));
    }
}
