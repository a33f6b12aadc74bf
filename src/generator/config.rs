//! `GeneratorConfig`: the generator's plain-data settings, their defaults, and their validation.

use super::cage_layout::LayoutRules;
use super::level::LevelsSetting;
use crate::geometry::{Geometry, MAX_SIZE};
use crate::grader::Level;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Which kind of puzzle to make.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// Killer Sudoku on rectangular boxes.
    #[default]
    Killer,
    /// Plain Sudoku (givens only) on rectangular boxes.
    Classic,
    /// Plain Sudoku on random jigsaw regions.
    Jigsaw,
    /// Killer Sudoku on random jigsaw regions.
    KillerJigsaw,
}

impl Variant {
    /// Does this variant draw cages?
    pub fn has_cages(self) -> bool {
        matches!(self, Variant::Killer | Variant::KillerJigsaw)
    }
    /// Does this variant use jigsaw regions?
    pub fn is_jigsaw(self) -> bool {
        matches!(self, Variant::Jigsaw | Variant::KillerJigsaw)
    }
}

/// How cages are drawn on the solution grid.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CageBuilderKind {
    /// Book-quality layouts: cage sizes drawn from the distribution of published 9x9 killers.
    #[default]
    Book,
    /// The source documents' left-to-right scan (append left/above past a threshold).
    Ordered,
    /// The source documents' random walk ("snake") up to the maximum cage size.
    RandomWalk,
}

/// What happens to the givens of a killer.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GivensPolicy {
    /// No givens: a layout that is not unique is reshaped where its solutions differ.
    #[default]
    Zero,
    /// The source documents' approach: start from the full grid and remove givens (in random order)
    /// while the puzzle stays unique, keeping the layout as drawn. Plain variants always do this.
    Minimal,
}

/// Settings of the generator; `Default` is book-quality 9x9 zero-given killers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GeneratorConfig {
    /// The kind of puzzle.
    pub variant: Variant,
    /// Side N, 1..=16 (default 9).
    pub size: u8,
    /// Box height; with `box_cols` unset too, the most square shape for `size` (2x3 for 6, 3x3 for 9).
    pub box_rows: Option<u8>,
    /// Box width; `box_rows * box_cols` must equal `size`.
    pub box_cols: Option<u8>,
    /// Solution grids made from one backtracked seed grid by random transforms (>= 1, default 16).
    pub variations_per_seed: u32,
    /// How cages are drawn (default `book`).
    pub cage_builder: CageBuilderKind,
    /// Largest cage, 2..=N (1 only with single cells allowed). Default for `book` by size: 4x4: 4,
    /// 6x6: 4, 8x8: 5, 9x9 and larger: 7; for `ordered` and `random-walk` the source documents' 5
    /// (at most N).
    pub max_cage_size: Option<u8>,
    /// Fewest cages of a `book` layout; default 80% of cells / mean published cage size (24 for 9x9).
    pub min_cages: Option<u16>,
    /// Most cages of a `book` layout; default 120% of cells / mean published cage size (37 for 9x9).
    pub max_cages: Option<u16>,
    /// Allow single-cell cages (each is in effect a given); default false.
    pub allow_single_cells: bool,
    /// Zero givens (default) or minimal givens under the drawn cages.
    pub givens: GivensPolicy,
    /// Layout repairs (zero givens; a redrawn layout counts as one) before the item is rejected,
    /// default 40.
    pub max_repairs: u32,
    /// The `ordered` builder's threshold (source documents: 0.3), in [0, 0.5).
    pub ordered_threshold: f64,
    /// Target levels: every puzzle is steered to a level drawn for its item from this list
    /// (equally likely) or mix (`{ easy = 0.2, hard = 0.8 }`); `["any"]`: no target; unset: the
    /// default mix for the variant and size (`mix::DEFAULT_MIX`), or no target where the
    /// configuration shapes its own layout ([`GeneratorConfig::shapes_layout`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub levels: Option<LevelsSetting>,
}

impl Default for GeneratorConfig {
    fn default() -> Self {
        GeneratorConfig {
            variant: Variant::Killer,
            size: 9,
            box_rows: None,
            box_cols: None,
            variations_per_seed: 16,
            cage_builder: CageBuilderKind::Book,
            max_cage_size: None,
            min_cages: None,
            max_cages: None,
            allow_single_cells: false,
            givens: GivensPolicy::Zero,
            max_repairs: 40,
            ordered_threshold: 0.3,
            levels: None,
        }
    }
}

/// Why a configuration cannot be used; each names the setting and what would be accepted.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ConfigError {
    /// `size` outside 1..=16.
    #[error("size = {0}: use a size from 1 to {MAX_SIZE}")]
    Size(u8),
    /// A box shape that does not tile the grid, or one given for jigsaw.
    #[error("box_rows = {rows:?}, box_cols = {cols:?}: {why}")]
    BoxShape {
        /// As configured.
        rows: Option<u8>,
        /// As configured.
        cols: Option<u8>,
        /// What to change.
        why: &'static str,
    },
    /// `variations_per_seed` of 0.
    #[error("variations_per_seed = 0: use 1 or more")]
    Variations,
    /// `max_cage_size` outside its range.
    #[error("max_cage_size = {got}: use {min} to {max} for a {size}x{size} grid")]
    MaxCageSize {
        /// As configured.
        got: u8,
        /// Smallest allowed (1 with single cells allowed, else 2).
        min: u8,
        /// Largest allowed, N.
        max: u8,
        /// Grid side.
        size: u8,
    },
    /// A cage-count range that is empty or cannot cover the grid.
    #[error("min_cages = {min}, max_cages = {max}: need 1 <= min <= max, min <= {cells} cells, and max x max_cage_size >= {cells}")]
    CageCount {
        /// Resolved minimum.
        min: u16,
        /// Resolved maximum.
        max: u16,
        /// Cells in the grid.
        cells: usize,
    },
    /// `levels` that name no level, an unknown one, or a weight that is not positive.
    #[error("levels: {0}")]
    Levels(String),
    /// `ordered_threshold` outside [0, 0.5).
    #[error("ordered_threshold = {0}: use a value from 0 up to (not including) 0.5")]
    Threshold(f64),
    /// A killer too small to draw cages of two or more cells on.
    #[error("size = {0}: killers need size 2 or more (or allow_single_cells = true)")]
    KillerSize(u8),
}

/// Cage sizes of published 9x9 killers (per mille, index = size): 800 krazydad puzzles have
/// 60.0% two-cell cages, 22.7% three, 9.6% four, 4.9% five, 1.6% six, 1.0% seven (0.3% larger),
/// 30 cages on average (23 to 37). The default cage-count range derives from it.
const PUBLISHED_SIZE_WEIGHTS: [u32; 8] = [0, 0, 600, 227, 96, 49, 16, 10];

/// Target cage-size weights of `book` layouts (per mille, index = size). Growth sometimes stops
/// short of its target and repairs reshape a little, so these were calibrated from the published
/// weights (two rounds of w × published / measured over 1,000 default puzzles, with
/// `examples/generator_stats`) until finished puzzles show the published distribution.
const BOOK_SIZE_WEIGHTS: [u32; 8] = [0, 0, 593, 195, 99, 94, 32, 21];

/// A configuration checked and with every default filled in for its size.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    /// The geometry for non-jigsaw variants (the jigsaw stage replaces its regions).
    pub geometry: Geometry,
    /// What cage layouts must respect.
    pub rules: LayoutRules,
    /// Target levels with their weights, easiest first (empty: no target, any level).
    pub levels: Vec<(Level, f64)>,
    /// How an item aimed at extreme is made (shaped on demand, or merged in a default batch).
    pub extreme: super::extreme::ExtremeKind,
}

impl GeneratorConfig {
    /// Check every setting; `Ok` carries the values the generator will use.
    pub fn validate(&self) -> Result<Resolved, ConfigError> {
        let n = self.size;
        if n == 0 || n as usize > MAX_SIZE {
            return Err(ConfigError::Size(n));
        }
        let geometry = self.geometry()?;
        if self.variations_per_seed == 0 {
            return Err(ConfigError::Variations);
        }
        if !(0.0..0.5).contains(&self.ordered_threshold) {
            return Err(ConfigError::Threshold(self.ordered_threshold));
        }
        if self.variant.has_cages() && n < 2 && !self.allow_single_cells {
            return Err(ConfigError::KillerSize(n));
        }
        let smallest = if self.allow_single_cells { 1 } else { 2 };
        let cells = n as usize * n as usize;
        // Few cages (a sparse layout: more than four cells a cage on average) need big ones.
        let sparse = self
            .max_cages
            .is_some_and(|max| cells > 4 * max.max(1) as usize);
        let default_max = if sparse {
            n
        } else {
            default_max_cage_size(n, self.cage_builder)
        };
        let max_cage_size = self.max_cage_size.unwrap_or(default_max).min(n);
        if self.variant.has_cages() && !(smallest..=n).contains(&max_cage_size) {
            return Err(ConfigError::MaxCageSize {
                got: max_cage_size,
                min: smallest,
                max: n,
                size: n,
            });
        }
        let max_cage_size = max_cage_size as usize;
        let published = truncated(&PUBLISHED_SIZE_WEIGHTS, max_cage_size);
        let total: u32 = published.iter().sum();
        let mean = published
            .iter()
            .enumerate()
            .map(|(k, &w)| k as f64 * w as f64)
            .sum::<f64>()
            / total.max(1) as f64;
        let expected = cells as f64 / mean.max(1.0);
        let (default_min, default_max) = (
            (0.8 * expected).floor().max(1.0) as u16,
            (1.2 * expected).ceil() as u16,
        );
        // One bound set: the other follows it (a range of about 20%) where the default would
        // make the range empty, so `max_cages = 12` alone asks for 10 to 12 cages.
        let (min, max) = match (self.min_cages, self.max_cages) {
            (Some(min), Some(max)) => (min, max),
            (None, Some(max)) => (default_min.min(max - max / 5).max(1), max),
            (Some(min), None) => (min, default_max.max(min.saturating_add(min / 5))),
            (None, None) => (default_min, default_max),
        };
        let coverable = max as usize * max_cage_size >= cells;
        if min == 0 || min > max || min as usize > cells || !coverable {
            return Err(ConfigError::CageCount { min, max, cells });
        }
        // The book weights, unless a cage-count range asks for another mean cage size: then the
        // weights tilted (and extended to the largest size) until their mean is the range's.
        let size_weights = if self.min_cages.is_none() && self.max_cages.is_none() {
            truncated(&BOOK_SIZE_WEIGHTS, max_cage_size)
        } else {
            let mid = (min as f64 + max as f64) / 2.0;
            tilted(&BOOK_SIZE_WEIGHTS, max_cage_size, cells as f64 / mid)
        };
        let levels = match &self.levels {
            Some(setting) => setting.to_mix().map_err(ConfigError::Levels)?,
            None if self.shapes_layout() => Vec::new(),
            None => super::mix::default_mix(self.variant, n),
        };
        Ok(Resolved {
            levels,
            extreme: super::extreme::ExtremeKind::of(self),
            geometry,
            rules: LayoutRules {
                max_size: max_cage_size,
                allow_singles: self.allow_single_cells,
                cage_count: (min as usize, max as usize),
                size_weights,
                threshold: self.ordered_threshold,
            },
        })
    }

    /// Does this killer configuration shape its own layout (a builder other than `book`, or
    /// `max_cage_size`, `min_cages` or `max_cages` set)? Then unset `levels` keeps the level each
    /// puzzle comes out at instead of the default mix, whose easy and medium targets would draw
    /// small cages over the chosen shape.
    pub fn shapes_layout(&self) -> bool {
        self.variant.has_cages()
            && (self.cage_builder != CageBuilderKind::Book
                || self.max_cage_size.is_some()
                || self.min_cages.is_some()
                || self.max_cages.is_some())
    }

    fn geometry(&self) -> Result<Geometry, ConfigError> {
        let n = self.size as usize;
        let shape_error = |why| ConfigError::BoxShape {
            rows: self.box_rows,
            cols: self.box_cols,
            why,
        };
        if self.variant.is_jigsaw() {
            if self.box_rows.is_some() || self.box_cols.is_some() {
                return Err(shape_error("jigsaw variants have no boxes; remove both"));
            }
            return Geometry::standard(n).map_err(|_| ConfigError::Size(self.size));
        }
        let shape = match (self.box_rows, self.box_cols) {
            (None, None) => return Geometry::standard(n).map_err(|_| ConfigError::Size(self.size)),
            (Some(r), None) if r > 0 && n.is_multiple_of(r as usize) => {
                (r as usize, n / r as usize)
            }
            (None, Some(c)) if c > 0 && n.is_multiple_of(c as usize) => {
                (n / c as usize, c as usize)
            }
            (Some(r), Some(c)) => (r as usize, c as usize),
            _ => return Err(shape_error("the box side must divide the size")),
        };
        Geometry::boxed(n, shape.0, shape.1)
            .map_err(|_| shape_error("box_rows x box_cols must equal the size"))
    }
}

/// The default largest cage: for `book` by side (4x4: 4, 6x6: 4, 8x8: 5, 9x9 and larger: 7), for
/// the source builders their 5.
fn default_max_cage_size(n: u8, builder: CageBuilderKind) -> u8 {
    if builder != CageBuilderKind::Book {
        return n.min(5);
    }
    match n {
        0..=3 => n,
        4 => 4,
        5 | 6 => 4,
        7 | 8 => 5,
        _ => 7,
    }
}

/// Extra drawn size a cage needs to end at a given mean: growth stops short of its drawn size
/// where no free neighbour with a new digit is left (measured with `scripts/level_probe.rs`).
const GROWTH_SHORTFALL: f64 = 1.15;

/// Weights (index = size) reaching up to `max_size`, reweighted by `exp(lambda x size)` so their
/// mean is `mean` x the growth shortfall (capped to what `max_size` allows); sizes past the base
/// table continue its last weight, halving per cell.
fn tilted(base: &[u32], max_size: usize, mean: f64) -> Vec<u32> {
    let last = base.len() - 1;
    let w0: Vec<f64> = (0..=max_size)
        .map(|k| match k {
            0 | 1 => 0.0,
            k if k <= last => base[k] as f64,
            k => base[last] as f64 * 0.5f64.powi((k - last) as i32),
        })
        .collect();
    if max_size < 2 {
        return truncated(base, max_size);
    }
    let goal = (mean * GROWTH_SHORTFALL).clamp(2.0, max_size as f64 - 0.05);
    let mean_at = |lambda: f64| {
        let (mut s, mut sk) = (0.0, 0.0);
        for (k, &w) in w0.iter().enumerate() {
            let x = w * (lambda * k as f64).exp();
            s += x;
            sk += x * k as f64;
        }
        sk / s
    };
    // The mean grows with lambda: bisect.
    let (mut lo, mut hi) = (-20.0f64, 20.0f64);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if mean_at(mid) < goal {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let raw: Vec<f64> = w0
        .iter()
        .enumerate()
        .map(|(k, &w)| w * (lo * k as f64).exp())
        .collect();
    let top = raw.iter().cloned().fold(0.0, f64::max);
    raw.iter()
        .map(|&x| (1_000_000.0 * x / top).round() as u32)
        .collect()
}

/// Weights cut at `max_size` (single cells never drawn on purpose).
fn truncated(weights: &[u32], max_size: usize) -> Vec<u32> {
    let mut w: Vec<u32> = (0..=max_size)
        .map(|k| weights.get(k).copied().unwrap_or(0))
        .collect();
    if w.iter().all(|&x| x == 0) {
        // Only single cells fit (max size 1).
        w[max_size] = 1;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_book_9x9() {
        let r = GeneratorConfig::default().validate().unwrap();
        assert_eq!(r.geometry.box_shape(), Some((3, 3)));
        assert_eq!(r.rules.max_size, 7);
        assert_eq!(r.rules.cage_count, (24, 37));
    }

    /// `max_cages` alone asks for a sparse layout: cages up to N cells, a range below it, and
    /// size weights whose mean matches the range.
    #[test]
    fn a_cage_count_range_tilts_the_sizes() {
        let mean = |w: &[u32]| {
            let total: f64 = w.iter().map(|&x| x as f64).sum();
            w.iter()
                .enumerate()
                .map(|(k, &x)| k as f64 * x as f64)
                .sum::<f64>()
                / total
        };
        let sparse = GeneratorConfig {
            max_cages: Some(12),
            ..GeneratorConfig::default()
        }
        .validate()
        .unwrap();
        assert_eq!(sparse.rules.max_size, 9);
        assert_eq!(sparse.rules.cage_count, (10, 12));
        assert!(mean(&sparse.rules.size_weights) > 81.0 / 12.0);
        let fine = GeneratorConfig {
            min_cages: Some(40),
            ..GeneratorConfig::default()
        }
        .validate()
        .unwrap();
        assert_eq!(fine.rules.max_size, 7);
        assert_eq!(fine.rules.cage_count, (40, 48));
        assert!(mean(&fine.rules.size_weights) < 2.7);
    }

    #[test]
    fn bad_settings_are_named() {
        let bad = |f: fn(&mut GeneratorConfig)| {
            let mut c = GeneratorConfig::default();
            f(&mut c);
            c.validate().unwrap_err()
        };
        assert_eq!(bad(|c| c.size = 17), ConfigError::Size(17));
        assert!(matches!(
            bad(|c| c.box_rows = Some(2)),
            ConfigError::BoxShape { .. }
        ));
        assert!(matches!(
            bad(|c| c.max_cage_size = Some(1)),
            ConfigError::MaxCageSize { .. }
        ));
        assert!(matches!(
            bad(|c| c.max_cages = Some(5)),
            ConfigError::CageCount { .. }
        ));
        assert_eq!(bad(|c| c.variations_per_seed = 0), ConfigError::Variations);
        assert!(matches!(
            bad(|c| {
                c.variant = Variant::Jigsaw;
                c.box_rows = Some(3);
            }),
            ConfigError::BoxShape { .. }
        ));
    }

    #[test]
    fn serde_round_trip_and_names() {
        let c = GeneratorConfig {
            variant: Variant::KillerJigsaw,
            cage_builder: CageBuilderKind::RandomWalk,
            ..GeneratorConfig::default()
        };
        let json = serde_json::to_string(&c).unwrap();
        assert!(json.contains("\"killer-jigsaw\"") && json.contains("\"random-walk\""));
        assert_eq!(serde_json::from_str::<GeneratorConfig>(&json).unwrap(), c);
        assert!(serde_json::from_str::<GeneratorConfig>("{\"sise\": 9}").is_err());
    }
}
