//! Gradient-boosted oblivious decision trees: the scoring side of
//! [`ModelKind::Trees`](super::ModelKind::Trees).
//!
//! An oblivious tree asks the same question of every row at each of its levels: is feature
//! `features[k]` of the standardised row at least `thresholds[k]`? The answers, level 0
//! first, are the bits of the leaf's index (level 0 the most significant), so a tree of
//! depth `d` has `2^d` leaves and scoring it takes `d` comparisons and no branches on the
//! data. The model's logit is its bias plus one leaf value per tree; the score is the
//! logistic function of that. A value that is NaN answers no.

use serde::{Deserialize, Serialize};

use super::{Scaler, sigmoid};

/// Deepest tree a model file may hold (2^16 leaves).
pub const MAX_DEPTH: usize = 16;

/// One oblivious tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tree {
    /// The feature each level compares, level 0 first (indices into the model's features).
    pub features: Vec<u32>,
    /// The value each level compares it with, on the standardised scale.
    pub thresholds: Vec<f32>,
    /// The logit each leaf adds, `2^depth` of them.
    pub leaves: Vec<f32>,
}

impl Tree {
    /// Levels of the tree.
    pub fn depth(&self) -> usize {
        self.features.len()
    }

    /// The leaf a standardised row `z` falls into.
    #[inline]
    pub fn leaf(&self, z: &[f32]) -> usize {
        let mut index = 0;
        for (&f, &t) in self.features.iter().zip(&self.thresholds) {
            index = (index << 1) | usize::from(z[f as usize] >= t);
        }
        index
    }

    /// Why the tree cannot score rows of `n` features, if it cannot.
    pub(crate) fn check(&self, n: usize) -> Option<String> {
        let depth = self.depth();
        if depth > MAX_DEPTH {
            return Some(format!(
                "is {depth} levels deep; at most {MAX_DEPTH} are allowed"
            ));
        }
        if self.thresholds.len() != depth {
            return Some(format!(
                "has {} thresholds for {depth} levels",
                self.thresholds.len()
            ));
        }
        if self.leaves.len() != 1 << depth {
            return Some(format!(
                "has {} leaves; {depth} levels make {}",
                self.leaves.len(),
                1usize << depth
            ));
        }
        if let Some(f) = self.features.iter().find(|&&f| f as usize >= n) {
            return Some(format!("reads feature {f} of {n}"));
        }
        if self.thresholds.iter().any(|t| t.is_nan()) {
            return Some("has a threshold that is not a number".into());
        }
        if self.leaves.iter().any(|v| !v.is_finite()) {
            return Some("has a leaf value that is not finite".into());
        }
        None
    }
}

/// The logit of standardised row `z`: `bias` plus the leaf of each tree, added in order.
#[inline]
pub(crate) fn logit(trees: &[Tree], bias: f32, z: &[f32]) -> f32 {
    let mut sum = bias;
    for tree in trees {
        sum += tree.leaves[tree.leaf(z)];
    }
    sum
}

/// The score of a raw row: standardised with `scaler`, then [`logit`] through the sigmoid.
pub(crate) fn score(trees: &[Tree], bias: f32, scaler: &Scaler, row: &[f32]) -> f32 {
    let mut z = vec![0.0; row.len()];
    scaler.standardise_into(row, &mut z);
    sigmoid(logit(trees, bias, &z))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stump(feature: u32, threshold: f32, leaves: [f32; 2]) -> Tree {
        Tree {
            features: vec![feature],
            thresholds: vec![threshold],
            leaves: leaves.to_vec(),
        }
    }

    #[test]
    fn level_zero_is_the_most_significant_bit_of_the_leaf() {
        let tree = Tree {
            features: vec![0, 1],
            thresholds: vec![0.5, -1.0],
            leaves: vec![0.0, 1.0, 2.0, 3.0],
        };
        assert_eq!(tree.leaf(&[0.0, -2.0]), 0);
        assert_eq!(tree.leaf(&[0.0, 0.0]), 1);
        assert_eq!(tree.leaf(&[0.5, -2.0]), 2);
        assert_eq!(tree.leaf(&[9.0, 9.0]), 3);
        assert_eq!(tree.leaf(&[f32::NAN, f32::NAN]), 0, "NaN answers no");
    }

    #[test]
    fn the_logit_adds_the_bias_and_one_leaf_per_tree() {
        let trees = [stump(0, 0.0, [-1.0, 2.0]), stump(1, 0.0, [0.5, -0.25])];
        assert_eq!(logit(&trees, 0.125, &[1.0, -1.0]), 0.125 + 2.0 + 0.5);
        let scaler = Scaler {
            mean: vec![1.0, 0.0],
            std: vec![2.0, 1.0],
        };
        // Raw 0 standardises to -0.5: the left leaf of the first tree.
        assert_eq!(
            score(&trees, 0.0, &scaler, &[0.0, 3.0]),
            sigmoid(-1.0 - 0.25)
        );
    }

    #[test]
    fn malformed_trees_are_described() {
        let mut t = stump(0, 0.0, [0.0, 0.0]);
        assert_eq!(t.check(1), None);
        assert!(t.check(0).unwrap().contains("feature 0 of 0"));
        t.leaves.push(1.0);
        assert!(t.check(1).unwrap().contains("3 leaves"));
        t.leaves.pop();
        t.thresholds[0] = f32::NAN;
        assert!(t.check(1).unwrap().contains("threshold"));
    }
}
