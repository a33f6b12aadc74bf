//! Killer cages: a sum over a connected group of cells whose digits are all different.

use crate::geometry::Cell;

/// A cage: its cells must hold distinct digits adding up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cage {
    /// The required total.
    pub sum: u16,
    /// The cells, in ascending index order once part of a validated `Puzzle`.
    pub cells: Vec<Cell>,
}

impl Cage {
    /// A cage from its sum and cells.
    pub fn new(sum: u16, cells: Vec<Cell>) -> Self {
        Cage { sum, cells }
    }
    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    /// Does the cage have no cells?
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

/// The smallest total of `k` distinct digits: 1 + 2 + ... + k.
pub const fn min_sum(k: usize) -> usize {
    k * (k + 1) / 2
}

/// The largest total of `k` distinct digits from 1..=n: n + (n-1) + ... + (n-k+1).
pub const fn max_sum(k: usize, n: usize) -> usize {
    if k > n {
        0
    } else {
        k * (2 * n + 1 - k) / 2
    }
}

/// Can `k` distinct digits from 1..=n add up to `sum`? (Every total between the extremes is reachable.)
pub const fn is_reachable(k: usize, sum: usize, n: usize) -> bool {
    k >= 1 && k <= n && sum >= min_sum(k) && sum <= max_sum(k, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_bounds() {
        assert_eq!((min_sum(2), max_sum(2, 9)), (3, 17));
        assert_eq!((min_sum(9), max_sum(9, 9)), (45, 45));
        assert!(is_reachable(3, 6, 9));
        assert!(!is_reachable(3, 5, 9));
        assert!(!is_reachable(10, 45, 9));
    }
}
