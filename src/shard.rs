//! `Shard`: which share `I/N` of a run's work items a process handles (item `i` belongs to `i % N`).

use std::fmt;

/// Share `index` of `count`: work items `i` with `i % count == index`, in ascending order.
///
/// Interleaving (rather than contiguous blocks) keeps every shard's load alike whatever the count,
/// and lets a run grow (a larger `count`) without moving items between shards.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// The largest number of shards.
pub const MAX_SHARDS: u32 = 1_000_000;

impl Default for Shard {
    /// The whole run: shard `0/1`.
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl Shard {
    /// Share `index` of `count`, if `1 <= count <= MAX_SHARDS` and `index < count`.
    pub fn new(index: u32, count: u32) -> Option<Shard> {
        ((1..=MAX_SHARDS).contains(&count) && index < count).then_some(Shard { index, count })
    }

    /// Parse `I/N`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| "write the shard as I/N, e.g. 0/4".to_string())?;
        let parse = |s: &str, what| {
            s.trim()
                .parse::<u32>()
                .map_err(|_| format!("the {what} {s:?} is not a whole number"))
        };
        let (i, n) = (parse(i, "shard index")?, parse(n, "shard count")?);
        if n == 0 || n > MAX_SHARDS {
            return Err(format!("the shard count must be 1 to {MAX_SHARDS}"));
        }
        Shard::new(i, n)
            .ok_or_else(|| format!("the shard index must be 0 to {} for {n} shards", n - 1))
    }

    /// This shard's index `I`.
    pub fn index(self) -> u32 {
        self.index
    }
    /// The number of shards `N`.
    pub fn count(self) -> u32 {
        self.count
    }
    /// Is this the whole run (`0/1`)?
    pub fn is_whole(self) -> bool {
        self.count == 1
    }
    /// How many of the work items `0..items` belong to this shard.
    pub fn positions(self, items: u64) -> u64 {
        let (i, n) = (self.index as u64, self.count as u64);
        if items > i {
            (items - i - 1) / n + 1
        } else {
            0
        }
    }
    /// The work item at `position` of this shard's sequence.
    pub fn item_at(self, position: u64) -> u64 {
        position * self.count as u64 + self.index as u64
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_items() {
        for n in 1..6u32 {
            let mut seen = Vec::new();
            for i in 0..n {
                let s = Shard::new(i, n).unwrap();
                seen.extend((0..s.positions(17)).map(|p| s.item_at(p)));
            }
            seen.sort_unstable();
            assert_eq!(seen, (0..17).collect::<Vec<u64>>());
        }
        assert_eq!(Shard::new(3, 4).unwrap().positions(3), 0);
    }

    #[test]
    fn parse_names_the_problem() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard::new(1, 4).unwrap()));
        assert!(Shard::parse("4/4").unwrap_err().contains("0 to 3"));
        assert!(Shard::parse("1/0").unwrap_err().contains("count"));
        assert!(Shard::parse("x/2").unwrap_err().contains("\"x\""));
        assert!(Shard::parse("3").unwrap_err().contains("I/N"));
        assert_eq!(Shard::default().to_string(), "0/1");
    }
}
