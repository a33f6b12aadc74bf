//! Difficulty levels: easy, medium, hard, expert, extreme; a technique's (its rung's), and a
//! puzzle's (the hardest its path needs, raised by its score).

/// A difficulty level. Each rung of the ladder has one; a puzzle's is at least the highest of the
/// rungs its path needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Singles and the simplest cage facts, including the rule of 45 on one house.
    Easy,
    /// Must-contain digits, innie–outie differences, locked candidates, pairs and triples.
    Medium,
    /// Multi-house innies/outies, cage permutations and clashes, quads, fish and wings.
    Hard,
    /// Chains, ALS, sum algebra (two rule-of-45 equations at once).
    Expert,
    /// The heavy set theory (combination blocking, cage interactions: several cages filled
    /// together with a virtual cage or a house), forcing chains and trial.
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
    ];
    /// Lower-case name ("easy" .. "extreme"), as stored and printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of the five levels.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {0:?}: use easy, medium, hard, expert or extreme")]
pub struct UnknownLevel(pub String);

impl std::str::FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}
