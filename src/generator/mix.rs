//! The default level mix: the share of each level a batch aims at when no level is asked for,
//! per variant and size, and how far a stored batch is from it.
//!
//! Each row names the levels its grids reach at a sane rate (at least one item in three aimed at
//! the level is made, measured with `generate --level X --threads 1 --seed 9`); a level the grid
//! cannot reach has no share, and its weight went to its neighbours. A row also keeps the measured
//! rate per level, so the draw aims a little more often at the levels that are rejected more
//! often, and the stored shares come out at the target.

use super::Variant;
use crate::grader::Level;

/// One row of the default mix: a variant over a range of sides.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MixRow {
    /// The variant.
    pub variant: Variant,
    /// The smallest side the row covers.
    pub from: u8,
    /// The largest side the row covers.
    pub to: u8,
    /// The side the reach was measured on.
    pub measured: u8,
    /// Target share of stored puzzles per level, easy to extreme, in percent (sum 100).
    pub percent: [u8; 5],
    /// Percent of the items aimed at each level that are made (measured; 0: not reached).
    pub reach: [u8; 5],
}

/// A row; `measured` is the side of the measurement.
const fn row(
    variant: Variant,
    sizes: (u8, u8),
    measured: u8,
    percent: [u8; 5],
    reach: [u8; 5],
) -> MixRow {
    MixRow {
        variant,
        from: sizes.0,
        to: sizes.1,
        measured,
        percent,
        reach,
    }
}

use Variant::{Classic, Jigsaw, Killer, KillerJigsaw};

/// The default mix, easy → extreme, per variant and range of sides (4 to 16 for every variant).
/// The base is 20/30/25/20/5; a level a grid does not reach gives its share to the nearest level
/// that it does, and where the reach falls to about half (6x6) the harder levels get less.
#[rustfmt::skip]
pub const DEFAULT_MIX: &[MixRow] = &[
    row(Killer,       (4, 5),   4, [100,  0,  0,  0,  0], [100,   0,   0,   0,   0]),
    row(Killer,       (6, 7),   6, [ 35, 35, 20, 10,  0], [100,  84,  50,  39,   3]),
    row(Killer,       (8, 9),   9, [ 20, 30, 25, 20,  5], [100, 100, 100, 100, 100]),
    row(Killer,       (10, 13), 12, [ 20, 30, 25, 20,  5], [ 62,  94,  96, 100, 100]),
    row(Killer,       (14, 16), 16, [  0,  0,  0, 95,  5], [  0,   0,   0, 100, 100]),
    row(KillerJigsaw, (4, 5),   5, [100,  0,  0,  0,  0], [100,  32,   9,   2,   0]),
    row(KillerJigsaw, (6, 6),   6, [ 20, 30, 25, 25,  0], [100,  88,  69,  63,   9]),
    row(KillerJigsaw, (7, 9),   9, [ 20, 30, 25, 20,  5], [ 98, 100, 100, 100, 100]),
    row(KillerJigsaw, (10, 13), 12, [ 20, 30, 25, 20,  5], [ 45,  95,  90, 100, 100]),
    row(KillerJigsaw, (14, 16), 16, [  0,  0,  0, 95,  5], [  0,   0,   0, 100, 100]),
    row(Classic,      (4, 7),   6, [100,  0,  0,  0,  0], [100,   2,  20,   2,   0]),
    row(Classic,      (8, 8),   8, [ 20, 30, 25, 25,  0], [100,  42,  69,  50,   5]),
    row(Classic,      (9, 9),   9, [ 20, 30, 25, 25,  0], [100,  80,  83,  72,  16]),
    row(Classic,      (10, 16), 12, [ 20, 30, 25, 20,  5], [100, 100,  98, 100, 100]),
    row(Jigsaw,       (4, 4),   4, [100,  0,  0,  0,  0], [100,   0,   0,   0,   0]),
    row(Jigsaw,       (5, 6),   6, [ 35, 40, 25,  0,  0], [100,  73,  48,   8,   2]),
    row(Jigsaw,       (7, 7),   7, [ 20, 30, 25, 25,  0], [100,  83,  70,  67,  15]),
    row(Jigsaw,       (8, 16),  9, [ 20, 30, 25, 20,  5], [100, 100,  95,  95,  83]),
];

impl MixRow {
    /// Percent of the work items expected to be stored: the draw aims at level i with weight
    /// `percent[i] / reach[i]`, so the items made are 100 over the sum of those weights.
    pub fn stored_percent(&self) -> f64 {
        let drawn: f64 = self
            .percent
            .iter()
            .zip(&self.reach)
            .filter(|&(&p, _)| p > 0)
            .map(|(&p, &r)| p as f64 * 100.0 / r as f64)
            .sum();
        100.0 * 100.0 / drawn
    }
}

/// The row of the default mix for this variant and side, if one covers it.
pub fn default_row(variant: Variant, size: u8) -> Option<&'static MixRow> {
    DEFAULT_MIX
        .iter()
        .find(|r| r.variant == variant && (r.from..=r.to).contains(&size))
}

/// The levels a default batch draws its targets from, with their weights (target share over
/// reach), easiest first; empty (no target) where no row covers the side.
pub fn default_mix(variant: Variant, size: u8) -> Vec<(Level, f64)> {
    let Some(row) = default_row(variant, size) else {
        return Vec::new();
    };
    Level::ALL
        .into_iter()
        .zip(row.percent.iter().zip(&row.reach))
        .filter(|&(_, (&p, &r))| p > 0 && r > 0)
        .map(|(level, (&p, &r))| (level, p as f64 / r as f64))
        .collect()
}

/// One level of a stored batch beside its target.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LevelShare {
    /// The level.
    pub level: Level,
    /// Puzzles stored at it.
    pub stored: u64,
    /// Their share of the graded puzzles, in percent.
    pub share: f64,
    /// The default mix's share, in percent.
    pub target: f64,
}

impl LevelShare {
    /// Stored share minus target, in percentage points.
    pub fn gap(&self) -> f64 {
        self.share - self.target
    }
}

/// How far the stored levels of one variant and size are from the default mix.
#[derive(Clone, Debug, PartialEq)]
pub struct MixGap {
    /// Every level, easiest first.
    pub levels: Vec<LevelShare>,
    /// Puzzles with a level (the shares' whole).
    pub graded: u64,
}

impl MixGap {
    /// Compare stored counts per level with the default mix of `variant` at side `size`; `None`
    /// where no row covers it or nothing is graded.
    pub fn of(variant: Variant, size: u8, counts: &[(Level, u64)]) -> Option<MixGap> {
        let row = default_row(variant, size)?;
        let graded: u64 = counts.iter().map(|&(_, c)| c).sum();
        if graded == 0 {
            return None;
        }
        let levels = Level::ALL
            .into_iter()
            .zip(row.percent)
            .map(|(level, percent)| {
                let stored: u64 = counts
                    .iter()
                    .filter(|&&(l, _)| l == level)
                    .map(|&(_, c)| c)
                    .sum();
                LevelShare {
                    level,
                    stored,
                    share: 100.0 * stored as f64 / graded as f64,
                    target: percent as f64,
                }
            })
            .collect();
        Some(MixGap { levels, graded })
    }

    /// The level furthest from its target (the first of equals).
    pub fn largest(&self) -> LevelShare {
        self.levels
            .iter()
            .copied()
            .reduce(|a, b| if b.gap().abs() > a.gap().abs() { b } else { a })
            .expect("a gap has every level")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome};

    /// Every variant has exactly one row for each side 4 to 16; shares sum to 100 and go only to
    /// levels at least one item in three reaches.
    #[test]
    fn the_table_covers_every_side_once_and_shares_only_reached_levels() {
        for variant in [Killer, KillerJigsaw, Classic, Jigsaw] {
            for size in 4..=16u8 {
                let rows = DEFAULT_MIX
                    .iter()
                    .filter(|r| r.variant == variant && (r.from..=r.to).contains(&size))
                    .count();
                assert_eq!(rows, 1, "{variant:?} {size}");
            }
        }
        for r in DEFAULT_MIX {
            assert!((r.from..=r.to).contains(&r.measured), "{r:?}");
            assert_eq!(
                r.percent.iter().map(|&p| p as u32).sum::<u32>(),
                100,
                "{r:?}"
            );
            for (&p, &reach) in r.percent.iter().zip(&r.reach) {
                assert!(reach <= 100 && (p == 0 || reach >= 33), "{r:?}");
            }
            assert!((1.0..=100.0).contains(&r.stored_percent()), "{r:?}");
        }
    }

    /// The draw aims more often at a level fewer items reach, and never at a level without a share.
    #[test]
    fn the_draw_weights_are_share_over_reach() {
        let mix = default_mix(Killer, 6);
        let levels: Vec<Level> = mix.iter().map(|&(l, _)| l).collect();
        assert_eq!(
            levels,
            [Level::Easy, Level::Medium, Level::Hard, Level::Expert]
        );
        assert!((mix[2].1 - 20.0 / 50.0).abs() < 1e-12);
        assert_eq!(default_mix(Killer, 4), [(Level::Easy, 1.0)]);
        assert!(default_mix(Killer, 17).is_empty());
        let r = default_row(Killer, 9).unwrap();
        assert!((r.stored_percent() - 100.0).abs() < 1e-9);
    }

    #[test]
    fn the_gap_compares_stored_shares_with_the_targets() {
        let counts = [(Level::Easy, 30), (Level::Expert, 50), (Level::Medium, 20)];
        let gap = MixGap::of(Killer, 9, &counts).unwrap();
        assert_eq!(gap.graded, 100);
        let shares: Vec<(u64, f64, f64)> = gap
            .levels
            .iter()
            .map(|l| (l.stored, l.share, l.target))
            .collect();
        assert_eq!(
            shares,
            [
                (30, 30.0, 20.0),
                (20, 20.0, 30.0),
                (0, 0.0, 25.0),
                (50, 50.0, 20.0),
                (0, 0.0, 5.0)
            ]
        );
        let largest = gap.largest();
        assert_eq!((largest.level, largest.gap()), (Level::Expert, 30.0));
        assert_eq!(MixGap::of(Killer, 9, &[]), None);
        assert_eq!(MixGap::of(Killer, 3, &counts), None);
    }

    /// Unset levels resolve to the default mix, unless the killer shapes its own layout;
    /// `["any"]` resolves to no target and stands only alone.
    #[test]
    fn unset_levels_take_the_default_mix_and_any_takes_none() {
        use crate::generator::level::LevelsSetting;
        let levels = |c: GeneratorConfig| c.validate().map(|r| r.levels);
        let mix = default_mix(Killer, 9);
        assert_eq!(levels(GeneratorConfig::default()), Ok(mix));
        let any = GeneratorConfig {
            levels: Some(LevelsSetting::any()),
            ..GeneratorConfig::default()
        };
        assert_eq!(levels(any), Ok(Vec::new()));
        let shaped = GeneratorConfig {
            max_cages: Some(14),
            ..GeneratorConfig::default()
        };
        assert_eq!(levels(shaped), Ok(Vec::new()));
        let plain = GeneratorConfig {
            variant: Classic,
            max_cages: Some(14),
            ..GeneratorConfig::default()
        };
        assert_eq!(levels(plain), Ok(default_mix(Classic, 9)));
        let list =
            |names: &[&str]| LevelsSetting::List(names.iter().map(|n| n.to_string()).collect());
        assert_eq!(list(&["ANY"]).to_mix(), Ok(Vec::new()));
        assert!(list(&["any", "hard"])
            .to_mix()
            .unwrap_err()
            .contains("stands alone"));
        let weighted = LevelsSetting::Mix([("any".to_string(), 1.0)].into_iter().collect());
        assert!(weighted.to_mix().unwrap_err().contains("stands alone"));
    }

    /// Levels of the default batch `0..count` of `config` at `seed` (rejected items left out).
    fn batch_levels(config: &GeneratorConfig, seed: u64, count: u64) -> Vec<(Level, u64)> {
        let mut counts: Vec<(Level, u64)> = Level::ALL.iter().map(|&l| (l, 0)).collect();
        for index in 0..count {
            if let Outcome::Generated(g) = generate_puzzle(config, seed, index) {
                let level = g.metrics.grade.level.expect("a made puzzle is graded");
                counts[level as usize].1 += 1;
            }
        }
        counts
    }

    /// A default batch of 60 9x9 killers has every level of the mix, each level's count within
    /// four binomial standard deviations of its share.
    #[test]
    fn a_default_9x9_batch_spans_the_levels() {
        let config = GeneratorConfig::default();
        let counts = batch_levels(&config, 5, 60);
        let made: u64 = counts.iter().map(|&(_, c)| c).sum();
        assert!(made >= 57, "{counts:?}");
        let row = default_row(Killer, 9).unwrap();
        for (&(level, count), &percent) in counts.iter().zip(&row.percent) {
            let p = percent as f64 / 100.0;
            let (mean, sigma) = (made as f64 * p, (made as f64 * p * (1.0 - p)).sqrt());
            assert!(count > 0, "{level}: {counts:?}");
            assert!(
                (count as f64 - mean).abs() <= 4.0 * sigma,
                "{level}: {count} of {made}, expected {mean:.1} ± 4 x {sigma:.1}"
            );
        }
    }

    /// A default 6x6 batch is no longer nearly all easy (it was 98.6% easy without a target).
    #[test]
    fn a_default_6x6_batch_is_not_all_easy() {
        let config = GeneratorConfig {
            size: 6,
            ..GeneratorConfig::default()
        };
        let counts = batch_levels(&config, 5, 60);
        let made: u64 = counts.iter().map(|&(_, c)| c).sum();
        let easy = counts[0].1;
        assert!(made >= 20, "{counts:?}");
        assert!((easy as f64) < 0.7 * made as f64, "{counts:?}");
        assert!(counts[1].1 > 0 && counts[2].1 > 0, "{counts:?}");
    }
}
