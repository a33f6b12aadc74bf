//! Small copyable bitsets: `DigitSet` over digits 1..=16 and `CellSet` over up to 256 cells.

use crate::geometry::{Cell, Digit, MAX_CELLS};

/// A set of digits, bit `d - 1` for digit `d`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DigitSet(u16);

impl DigitSet {
    /// The empty set.
    pub const EMPTY: DigitSet = DigitSet(0);

    /// From raw bits (bit `d - 1` = digit `d`).
    pub const fn from_bits(bits: u16) -> Self {
        DigitSet(bits)
    }
    /// Digits `1..=n`.
    pub const fn all(n: usize) -> Self {
        DigitSet(if n >= 16 { u16::MAX } else { (1u16 << n) - 1 })
    }
    /// The set holding one digit.
    pub const fn single(d: Digit) -> Self {
        DigitSet(1 << d.as_index())
    }
    /// The raw bits.
    pub const fn bits(self) -> u16 {
        self.0
    }
    /// Number of digits.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// Is the set empty?
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Does it hold `d`?
    pub const fn contains(self, d: Digit) -> bool {
        self.0 & (1 << d.as_index()) != 0
    }
    /// Add a digit.
    pub fn insert(&mut self, d: Digit) {
        self.0 |= 1 << d.as_index();
    }
    /// Remove a digit.
    pub fn remove(&mut self, d: Digit) {
        self.0 &= !(1 << d.as_index());
    }
    /// The smallest digit, if any.
    pub fn first(self) -> Option<Digit> {
        (self.0 != 0).then(|| Digit::new(self.0.trailing_zeros() as u8 + 1))
    }
    /// Union.
    pub const fn union(self, other: Self) -> Self {
        DigitSet(self.0 | other.0)
    }
    /// Intersection.
    pub const fn intersection(self, other: Self) -> Self {
        DigitSet(self.0 & other.0)
    }
    /// Difference.
    pub const fn difference(self, other: Self) -> Self {
        DigitSet(self.0 & !other.0)
    }
    /// The digits in ascending order.
    pub fn iter(self) -> DigitIter {
        DigitIter(self.0)
    }
}

/// Iterator over a `DigitSet`, ascending.
#[derive(Clone, Debug)]
pub struct DigitIter(u16);

impl Iterator for DigitIter {
    type Item = Digit;
    fn next(&mut self) -> Option<Digit> {
        if self.0 == 0 {
            return None;
        }
        let tz = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Digit::new(tz as u8 + 1))
    }
}

impl FromIterator<Digit> for DigitSet {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> Self {
        let mut s = DigitSet::EMPTY;
        iter.into_iter().for_each(|d| s.insert(d));
        s
    }
}

const WORDS: usize = MAX_CELLS / 64;

/// A set of cells, bit `i` for cell index `i`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet([0; WORDS]);

    /// The set holding one cell.
    #[inline]
    pub fn single(c: Cell) -> Self {
        let mut s = Self::EMPTY;
        s.insert(c);
        s
    }
    /// From raw words (bit `i % 64` of word `i / 64` for cell `i`).
    #[inline]
    pub const fn from_words(words: [u64; WORDS]) -> Self {
        CellSet(words)
    }
    /// The raw words (bit `i % 64` of word `i / 64` for cell `i`), for word-parallel loops.
    #[inline]
    pub const fn words(&self) -> &[u64; WORDS] {
        &self.0
    }
    /// Cells `0..n`.
    #[inline]
    pub fn first_n(n: usize) -> Self {
        let mut s = Self::EMPTY;
        for (w, word) in s.0.iter_mut().enumerate() {
            let lo = w * 64;
            if n >= lo + 64 {
                *word = u64::MAX;
            } else if n > lo {
                *word = (1u64 << (n - lo)) - 1;
            }
        }
        s
    }
    /// Number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// Is the set empty?
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// Does it hold `c`?
    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        let i = c.as_index();
        self.0[i / 64] & (1 << (i % 64)) != 0
    }
    /// Add a cell.
    #[inline]
    pub fn insert(&mut self, c: Cell) {
        let i = c.as_index();
        self.0[i / 64] |= 1 << (i % 64);
    }
    /// Remove a cell.
    #[inline]
    pub fn remove(&mut self, c: Cell) {
        let i = c.as_index();
        self.0[i / 64] &= !(1 << (i % 64));
    }
    /// Union.
    #[inline]
    pub fn union(&self, other: &Self) -> Self {
        CellSet(std::array::from_fn(|w| self.0[w] | other.0[w]))
    }
    /// Intersection.
    #[inline]
    pub fn intersection(&self, other: &Self) -> Self {
        CellSet(std::array::from_fn(|w| self.0[w] & other.0[w]))
    }
    /// Difference.
    #[inline]
    pub fn difference(&self, other: &Self) -> Self {
        CellSet(std::array::from_fn(|w| self.0[w] & !other.0[w]))
    }
    /// Is every cell of `self` in `other`?
    #[inline]
    pub fn is_subset(&self, other: &Self) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a & !b == 0)
    }
    /// Do the sets share a cell?
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }
    /// The cells in ascending order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let tz = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(Cell::new((w * 64 + tz) as u8))
            })
        })
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut s = CellSet::EMPTY;
        iter.into_iter().for_each(|c| s.insert(c));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_set_basics() {
        let s: DigitSet = [1, 5, 9].into_iter().map(Digit::new).collect();
        assert_eq!(s.len(), 3);
        assert_eq!(s.iter().map(Digit::get).collect::<Vec<_>>(), vec![1, 5, 9]);
        assert_eq!(DigitSet::all(16).len(), 16);
        assert_eq!(DigitSet::all(9).bits(), 0x1ff);
        assert_eq!(s.first(), Some(Digit::new(1)));
    }

    #[test]
    fn cell_set_basics() {
        let s: CellSet = [0u8, 63, 64, 255].into_iter().map(Cell::new).collect();
        assert_eq!(s.len(), 4);
        assert!(s.contains(Cell::new(255)));
        assert_eq!(
            s.iter().map(Cell::get).collect::<Vec<_>>(),
            vec![0, 63, 64, 255]
        );
        assert_eq!(CellSet::first_n(81).len(), 81);
        assert_eq!(CellSet::first_n(256).len(), 256);
    }

    #[test]
    fn cell_set_words_and_subsets() {
        let s: CellSet = [1u8, 64, 200].into_iter().map(Cell::new).collect();
        assert_eq!(s.words(), &[1 << 1, 1, 0, 1 << (200 - 192)]);
        assert_eq!(CellSet::from_words(*s.words()), s);
        assert!(s.is_subset(&CellSet::first_n(201)));
        assert!(!s.is_subset(&CellSet::first_n(200)));
        assert!(CellSet::EMPTY.is_subset(&s));
        let mut t = s;
        t.remove(Cell::new(64));
        assert!(t.is_subset(&s) && !s.is_subset(&t));
    }
}
