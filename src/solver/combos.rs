//! Digit-combination tables: every set of `k` distinct digits from `1..=N` that adds up to `s`.

use crate::geometry::MAX_SIZE;
use std::sync::OnceLock;

/// All digit sets of 1..=N grouped by (size, sum), each group in ascending bit order.
#[derive(Clone, Debug)]
pub(crate) struct Combos {
    max_sum: usize,
    offsets: Vec<u32>,
    masks: Vec<u16>,
}

impl Combos {
    /// The table for digits `1..=n` (1 <= n <= 16), built on first use and shared afterwards.
    pub(crate) fn of(n: usize) -> &'static Combos {
        static TABLES: [OnceLock<Combos>; MAX_SIZE + 1] = [const { OnceLock::new() }; MAX_SIZE + 1];
        TABLES[n].get_or_init(|| Combos::new(n))
    }

    /// Build the table for digits `1..=n`: a counting sort of the `2^n` digit sets by key.
    fn new(n: usize) -> Self {
        let max_sum = n * (n + 1) / 2;
        // Keys by dynamic programming: a set's key is its set without the lowest digit's, plus
        // one more digit of that value.
        let mut keys = vec![0u32; 1 << n];
        for mask in 1..1usize << n {
            let low = mask.trailing_zeros() as usize;
            keys[mask] = keys[mask & (mask - 1)] + (max_sum + 1) as u32 + low as u32 + 1;
        }
        let key_count = (n + 1) * (max_sum + 1);
        let mut offsets = vec![0u32; key_count + 1];
        for &key in &keys {
            offsets[key as usize + 1] += 1;
        }
        for i in 0..key_count {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut masks = vec![0u16; 1 << n];
        for (mask, &key) in keys.iter().enumerate() {
            masks[next[key as usize] as usize] = mask as u16;
            next[key as usize] += 1;
        }
        Combos {
            max_sum,
            offsets,
            masks,
        }
    }

    /// The digit sets of exactly `k` digits adding up to `sum` (empty if there is none).
    #[inline]
    pub(crate) fn get(&self, k: usize, sum: usize) -> &[u16] {
        if sum > self.max_sum {
            return &[];
        }
        let key = k * (self.max_sum + 1) + sum;
        match self.offsets.get(key..key + 2) {
            Some(&[lo, hi]) => &self.masks[lo as usize..hi as usize],
            _ => &[],
        }
    }
}

/// `{ s - d : d in digits }` as a digit set over 1..=16: the partner digits of a two-cell sum.
#[inline]
pub(crate) fn mirror(digits: u16, s: usize) -> u16 {
    // Reversing the 16 bits sends digit d (bit d-1) to bit 16-d; the target bit s-d-1 is that
    // shifted by s-17. Digits that would leave 1..=16 fall off either end.
    let r = u32::from(digits.reverse_bits());
    let shifted = if s >= 17 {
        r << (s - 17)
    } else {
        r >> (17 - s)
    };
    shifted as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_digit_groups() {
        let c = Combos::of(9);
        assert_eq!(c.get(2, 3), &[0b11]);
        assert_eq!(c.get(2, 17), &[0b1_1000_0000]);
        assert_eq!(c.get(3, 6), &[0b111]);
        assert_eq!(c.get(9, 45), &[0x1ff]);
        assert_eq!(c.get(4, 20).len(), 12);
        assert!(c.get(2, 2).is_empty());
        assert!(c.get(3, 200).is_empty());
        let total: usize = (0..=9)
            .map(|k| (0..=45).map(|s| c.get(k, s).len()).sum::<usize>())
            .sum();
        assert_eq!(total, 512);
    }

    #[test]
    fn sixteen_digit_groups_hold_every_set_once() {
        let c = Combos::of(16);
        let mut total = 0;
        for k in 0..=16 {
            for sum in 0..=136 {
                for &m in c.get(k, sum) {
                    let digits: usize = (0..16).filter(|i| m & (1 << i) != 0).map(|i| i + 1).sum();
                    assert_eq!((m.count_ones() as usize, digits), (k, sum));
                    total += 1;
                }
            }
        }
        assert_eq!(total, 1 << 16);
        assert!(std::ptr::eq(c, Combos::of(16)));
    }

    #[test]
    fn mirror_pairs() {
        // 10 - {1, 3, 9} = {9, 7, 1}
        assert_eq!(mirror(0b1_0000_0101, 10), 0b1_0100_0001);
        // 20 - {4, 16} = {16, 4}
        assert_eq!(mirror(0b1000_0000_0000_1000, 20), 0b1000_0000_0000_1000);
        // 3 - {1, 2, 5} = {2, 1}
        assert_eq!(mirror(0b10011, 3), 0b11);
    }
}
