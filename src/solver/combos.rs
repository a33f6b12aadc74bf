//! Digit-combination tables: every set of `k` distinct digits from `1..=N` that adds up to `s`.

/// All digit sets of 1..=N grouped by (size, sum), each group in ascending bit order.
#[derive(Clone, Debug)]
pub(crate) struct Combos {
    max_sum: usize,
    offsets: Vec<u32>,
    masks: Vec<u16>,
}

impl Combos {
    /// Build the table for digits `1..=n` (a counting sort of the `2^n` digit sets by key).
    pub(crate) fn new(n: usize) -> Self {
        let max_sum = n * (n + 1) / 2;
        let key = |mask: u32| {
            let sum: usize = (0..n).filter(|i| mask & (1 << i) != 0).map(|i| i + 1).sum();
            mask.count_ones() as usize * (max_sum + 1) + sum
        };
        let keys = (n + 1) * (max_sum + 1);
        let mut offsets = vec![0u32; keys + 1];
        for mask in 0..1u32 << n {
            offsets[key(mask) + 1] += 1;
        }
        for i in 0..keys {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut masks = vec![0u16; 1 << n];
        for mask in 0..1u32 << n {
            let k = key(mask);
            masks[next[k] as usize] = mask as u16;
            next[k] += 1;
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
        let c = Combos::new(9);
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
    fn mirror_pairs() {
        // 10 - {1, 3, 9} = {9, 7, 1}
        assert_eq!(mirror(0b1_0000_0101, 10), 0b1_0100_0001);
        // 20 - {4, 16} = {16, 4}
        assert_eq!(mirror(0b1000_0000_0000_1000, 20), 0b1000_0000_0000_1000);
        // 3 - {1, 2, 5} = {2, 1}
        assert_eq!(mirror(0b10011, 3), 0b11);
    }
}
