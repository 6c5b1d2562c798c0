//! Splits by group: the rows of one page or domain are never on both sides, so validation
//! scores measure how well a model does on sites it has not seen.

use std::collections::{BTreeMap, HashMap};

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

/// Distinct groups in a seeded random order, each with its number of rows. Independent of
/// the order of the rows.
fn shuffled_groups(groups: &[String], seed: u64) -> Vec<(&str, usize)> {
    let mut sizes: BTreeMap<&str, usize> = BTreeMap::new();
    for g in groups {
        *sizes.entry(g.as_str()).or_default() += 1;
    }
    let mut order: Vec<(&str, usize)> = sizes.into_iter().collect();
    order.shuffle(&mut StdRng::seed_from_u64(seed));
    order
}

/// Splits rows into training and validation rows, keeping each group on one side.
///
/// Groups are visited in a seeded random order; a group joins the validation side while that
/// brings the validation side closer to `val_fraction` of the rows. With two or more groups
/// each side gets at least one group; with a single group every row is for training.
/// Returns `(train_rows, val_rows)`, each in ascending order. The same groups and seed
/// always give the same split.
pub fn group_split(groups: &[String], val_fraction: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let order = shuffled_groups(groups, seed);
    let target = val_fraction * groups.len() as f64;
    let mut in_val = vec![false; order.len()];
    let mut val_rows = 0_usize;
    if order.len() >= 2 {
        for (i, &(_, size)) in order.iter().enumerate() {
            // Join if that moves the validation size closer to the target.
            if val_rows as f64 + size as f64 / 2.0 <= target {
                in_val[i] = true;
                val_rows += size;
            }
        }
        if !in_val.contains(&true) && val_fraction > 0.0 {
            in_val[0] = true;
        }
        if !in_val.contains(&false) {
            let last = in_val.len() - 1;
            in_val[last] = false;
        }
    }
    let side: HashMap<&str, bool> = order
        .iter()
        .zip(&in_val)
        .map(|(&(g, _), &v)| (g, v))
        .collect();
    let mut train = Vec::with_capacity(groups.len() - val_rows.min(groups.len()));
    let mut val = Vec::with_capacity(val_rows);
    for (row, g) in groups.iter().enumerate() {
        if side[g.as_str()] {
            val.push(row);
        } else {
            train.push(row);
        }
    }
    (train, val)
}

/// Assigns each row a fold in `0..k` for cross-validation by group: all rows of a group get
/// the same fold, and folds have about the same number of rows.
///
/// Groups are visited in a seeded random order and each goes to the fold with the fewest
/// rows so far (the lowest fold on ties). With fewer groups than `k` some folds are empty.
///
/// # Panics
///
/// If `k` is 0.
pub fn group_kfold(groups: &[String], k: usize, seed: u64) -> Vec<usize> {
    assert!(k > 0, "group_kfold needs at least one fold");
    let order = shuffled_groups(groups, seed);
    let mut load = vec![0_usize; k];
    let mut fold_of: HashMap<&str, usize> = HashMap::with_capacity(order.len());
    for (g, size) in order {
        let (fold, _) = load
            .iter()
            .enumerate()
            .min_by_key(|&(i, &rows)| (rows, i))
            .expect("k > 0");
        load[fold] += size;
        fold_of.insert(g, fold);
    }
    groups.iter().map(|g| fold_of[g.as_str()]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn names(ids: &[u8]) -> Vec<String> {
        ids.iter().map(|i| format!("g{i}")).collect()
    }

    #[test]
    fn a_single_group_is_all_training() {
        let (train, val) = group_split(&names(&[1, 1, 1]), 0.5, 0);
        assert_eq!((train, val), (vec![0, 1, 2], vec![]));
    }

    #[test]
    fn two_groups_always_give_one_to_each_side() {
        for fraction in [0.01, 0.5, 0.99] {
            let (train, val) = group_split(&names(&[1, 2, 2, 2, 2]), fraction, 3);
            assert!(!train.is_empty() && !val.is_empty(), "{fraction}");
        }
    }

    #[test]
    fn the_split_does_not_depend_on_row_order() {
        let groups = names(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        let reversed: Vec<String> = groups.iter().rev().cloned().collect();
        let (_, val) = group_split(&groups, 0.3, 9);
        let (_, val_rev) = group_split(&reversed, 0.3, 9);
        let mut a: Vec<&String> = val.iter().map(|&i| &groups[i]).collect();
        let mut b: Vec<&String> = val_rev.iter().map(|&i| &reversed[i]).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    #[test]
    fn different_seeds_give_different_splits() {
        let groups: Vec<String> = (0..200).map(|i| format!("g{}", i % 50)).collect();
        let splits: std::collections::HashSet<Vec<usize>> =
            (0..5).map(|s| group_split(&groups, 0.2, s).1).collect();
        assert!(splits.len() > 1);
    }

    proptest! {
        #[test]
        fn group_split_never_puts_a_group_on_both_sides(
            ids in proptest::collection::vec(0u8..12, 0..200),
            fraction in 0.01f64..0.99,
            seed in any::<u64>(),
        ) {
            let groups = names(&ids);
            let (train, val) = group_split(&groups, fraction, seed);
            let mut all: Vec<usize> = train.iter().chain(&val).copied().collect();
            all.sort();
            prop_assert_eq!(all, (0..groups.len()).collect::<Vec<_>>());
            for &v in &val {
                prop_assert!(train.iter().all(|&t| groups[t] != groups[v]));
            }
            prop_assert_eq!(group_split(&groups, fraction, seed), (train, val));
        }

        #[test]
        fn group_kfold_keeps_each_group_in_one_fold(
            ids in proptest::collection::vec(0u8..30, 1..300),
            k in 1usize..6,
            seed in any::<u64>(),
        ) {
            let groups = names(&ids);
            let fold = group_kfold(&groups, k, seed);
            prop_assert_eq!(fold.len(), groups.len());
            for (i, g) in groups.iter().enumerate() {
                prop_assert!(fold[i] < k);
                let first = groups.iter().position(|h| h == g).unwrap();
                prop_assert_eq!(fold[i], fold[first]);
            }
        }
    }
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_train_split_group_split() -> Result<(), Box<dyn std::error::Error>> {
        use crate::train::group_split;

        let groups: Vec<String> = (0..100).map(|i| format!("site{}", i % 10)).collect();
        let (train, val) = group_split(&groups, 0.2, 42);
        assert_eq!(train.len() + val.len(), 100);
        assert_eq!(val.len(), 20);
        assert!(
            train
                .iter()
                .all(|&t| val.iter().all(|&v| groups[t] != groups[v]))
        );
        Ok(())
    }

    #[test]
    fn doc_train_split_group_kfold() -> Result<(), Box<dyn std::error::Error>> {
        use crate::train::group_kfold;

        let groups: Vec<String> = (0..60).map(|i| format!("site{}", i % 6)).collect();
        let fold = group_kfold(&groups, 3, 1);
        for f in 0..3 {
            assert_eq!(fold.iter().filter(|&&x| x == f).count(), 20);
        }
        Ok(())
    }
}
