//! Run settings: compiled-in defaults, TOML presets, command-line overrides, one validation into
//! typed values (`Plan`), and the settings hash stored with every run.
//!
//! Layers, later wins: `config/default.toml` (compiled in; equal to `Settings::default()`), the
//! `--config FILE` preset, then flags. A preset may list `[[batch]]` tables: each is a set of
//! `[generator]` overrides run as a run of its own, one after another; `--variant` and `--size`
//! then pick the batches they match instead of overriding.

mod load;
mod mix_table;
mod toml_error;

pub use load::{load, select};
pub use mix_table::default_mix_table;
pub use toml_error::TomlError;

use crate::fingerprint::fingerprint;
use crate::generator::level::LevelsSetting;
use crate::generator::{ConfigError, GeneratorConfig, Variant};
use crate::shard::Shard;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

/// The documented defaults, `config/default.toml`.
pub const DEFAULT_TOML: &str = include_str!("../../config/default.toml");

/// The largest `count`: work item indices stay below 2^40.
pub const MAX_COUNT: u64 = 1 << 40;
/// The largest `seed`: SQLite stores it as a signed 64-bit integer.
pub const MAX_SEED: u64 = i64::MAX as u64;
/// The most worker threads.
pub const MAX_THREADS: u32 = 1024;
/// The largest `chunk_size`.
pub const MAX_CHUNK: u32 = 1 << 20;

/// All settings of one run, as written in TOML: `[run]` and `[generator]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// How much to make, where, and how.
    pub run: RunSettings,
    /// What to make (the generator's own settings).
    pub generator: GeneratorConfig,
}

/// The `[run]` table: how many, which seed and share, where to store, how many threads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunSettings {
    /// Work items `0..count` (each yields one puzzle unless rejected or a duplicate).
    pub count: u64,
    /// The run's seed; item `i` depends only on `(seed, i, generator settings)`.
    pub seed: u64,
    /// Worker threads; 0 = one per core.
    pub threads: u32,
    /// The SQLite database to fill.
    pub db: PathBuf,
    /// This process's share `I/N` of the work items.
    pub shard: String,
    /// Work items per transaction.
    pub chunk_size: u32,
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings {
            count: 1000,
            seed: 1,
            threads: 0,
            db: PathBuf::from("output/puzzles.db"),
            shard: "0/1".into(),
            chunk_size: 1024,
        }
    }
}

/// Where a setting came from, for error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The compiled-in defaults.
    Defaults,
    /// A `--config` file.
    File(PathBuf),
    /// Command-line flags.
    CommandLine,
    /// Settings stored with a run in a database.
    Database(PathBuf),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Defaults => write!(f, "in the defaults"),
            Origin::File(p) => write!(f, "in {}", p.display()),
            Origin::CommandLine => write!(f, "on the command line"),
            Origin::Database(p) => write!(f, "in the run settings stored in {}", p.display()),
        }
    }
}

/// Why settings cannot be used; each names the key, the value, what is allowed, and where it was.
#[derive(Debug, Error)]
pub enum SettingsError {
    /// The config file cannot be read.
    #[error("{path}: cannot read the settings file")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not TOML, an unknown key, or a value of the wrong type (the message names line and key).
    #[error("{origin}: {message}")]
    Parse {
        /// Where.
        origin: Origin,
        /// The parser's message, with line and column.
        message: String,
    },
    /// A run setting out of its range.
    #[error("{key} = {value} {origin} is out of range: use {allowed}")]
    Range {
        /// The key (the flag has the same name).
        key: &'static str,
        /// The value given.
        value: String,
        /// The allowed values.
        allowed: String,
        /// Where it was set.
        origin: Origin,
    },
    /// A generator setting that does not work.
    #[error("[generator]{batch} {origin}")]
    Generator {
        /// `" (batch NAME)"` or empty.
        batch: String,
        /// Where it was set.
        origin: Origin,
        /// The generator's complaint, naming the key.
        source: ConfigError,
    },
    /// `--variant` / `--size` match none of the preset's batches.
    #[error("{origin}: no [[batch]] has {wanted}; the batches are: {available}")]
    NoBatch {
        /// Where the batches are.
        origin: Origin,
        /// What was asked for.
        wanted: String,
        /// What there is.
        available: String,
    },
}

/// A named set of settings from a preset (one run each).
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    /// `name` of its `[[batch]]` table, or `default` for a preset without batches.
    pub name: String,
    /// Its settings.
    pub settings: Settings,
}

/// Command-line values that override the loaded settings (`None` = not given).
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--count`.
    pub count: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--threads`.
    pub threads: Option<u32>,
    /// `--db`.
    pub db: Option<PathBuf>,
    /// `--shard`.
    pub shard: Option<String>,
    /// `--chunk-size`.
    pub chunk_size: Option<u32>,
    /// `--variant`.
    pub variant: Option<Variant>,
    /// `--size`.
    pub size: Option<u8>,
    /// `--level` (repeatable): target levels, equally likely.
    pub levels: Option<Vec<String>>,
}

/// Settings checked and turned into the typed values a run uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The batch name.
    pub name: String,
    /// Work items of the whole run.
    pub count: u64,
    /// The seed.
    pub seed: u64,
    /// Worker threads (resolved: never 0).
    pub threads: usize,
    /// The database.
    pub db: PathBuf,
    /// This process's share.
    pub shard: Shard,
    /// Work items per transaction.
    pub chunk_size: usize,
    /// The generator settings.
    pub generator: GeneratorConfig,
    /// Hash of the output-affecting settings (`[generator]`).
    pub settings_hash: String,
    /// The settings as TOML, to store with the run.
    pub settings_toml: String,
}

/// The grid sides `generate` makes: 4 to 16 (smaller grids are no puzzle anyone prints, and
/// feed slots take the same range).
pub const SIZES: std::ops::RangeInclusive<usize> = 4..=16;

/// The one rule for which grids `generate` makes: a side in [`SIZES`], and for the boxed variants
/// (killer, classic) boxes of at least 2 rows and 2 columns that tile the grid (sides 4, 6, 8,
/// 9, 10, 12, 14, 15, 16; a 1-row "box" is only a row again). Jigsaw variants take any side in
/// [`SIZES`]. `None` when `geometry` is accepted, else what is accepted.
pub fn size_refusal(variant: Variant, geometry: &crate::geometry::Geometry) -> Option<String> {
    use crate::geometry::Regions;
    if !SIZES.contains(&geometry.size()) {
        return Some(accepted_sizes());
    }
    match geometry.regions() {
        Regions::Boxes { rows, cols } if !variant.is_jigsaw() && (*rows < 2 || *cols < 2) => {
            Some(accepted_sizes())
        }
        _ => None,
    }
}

/// What [`size_refusal`] accepts, in words.
fn accepted_sizes() -> String {
    "sizes 4 to 16; killer and classic grids need boxes of 2 or more rows and columns, so sides 4, 6, 8, 9, 10, 12, 14, 15, 16 (5, 7, 11 and 13 as jigsaw or killer-jigsaw only)".into()
}

/// A grid's side and box shape as messages show them: `5 (boxes 1x5)`.
fn size_text(geometry: &crate::geometry::Geometry) -> String {
    match geometry.regions() {
        crate::geometry::Regions::Boxes { rows, cols } => {
            format!("{} (boxes {rows}x{cols})", geometry.size())
        }
        _ => geometry.size().to_string(),
    }
}

/// The lower-case name of a variant, as in TOML and on the command line.
pub fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Killer => "killer",
        Variant::Classic => "classic",
        Variant::Jigsaw => "jigsaw",
        Variant::KillerJigsaw => "killer-jigsaw",
    }
}

/// The variant with this name (`killer`, `classic`, `jigsaw`, `killer-jigsaw`).
pub fn parse_variant(name: &str) -> Result<Variant, String> {
    [
        Variant::Killer,
        Variant::Classic,
        Variant::Jigsaw,
        Variant::KillerJigsaw,
    ]
    .into_iter()
    .find(|&v| variant_name(v) == name)
    .ok_or_else(|| format!("{name:?}: use killer, classic, jigsaw or killer-jigsaw"))
}

impl Settings {
    /// Settings stored with a run (`[run]` + `[generator]` TOML).
    pub fn from_toml(text: &str, origin: &Origin) -> Result<Settings, SettingsError> {
        toml::from_str(text).map_err(|e| load::parse_error(text, &e, origin))
    }

    /// These settings as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("plain settings always serialize to TOML")
    }

    /// Lay command-line values over these settings.
    pub fn apply(&mut self, o: &Overrides) {
        let run = &mut self.run;
        run.count = o.count.unwrap_or(run.count);
        run.seed = o.seed.unwrap_or(run.seed);
        run.threads = o.threads.unwrap_or(run.threads);
        run.chunk_size = o.chunk_size.unwrap_or(run.chunk_size);
        if let Some(db) = &o.db {
            run.db = db.clone();
        }
        if let Some(shard) = &o.shard {
            run.shard = shard.clone();
        }
        if let Some(v) = o.variant {
            self.generator.variant = v;
        }
        if let Some(s) = o.size {
            self.generator.size = s;
        }
        if let Some(levels) = &o.levels {
            self.generator.levels = Some(LevelsSetting::List(levels.clone()));
        }
    }

    /// Check every value once; `origin` says where to look when one is wrong.
    pub fn validate(&self, name: &str, origin: &Origin) -> Result<Plan, SettingsError> {
        let run = &self.run;
        let range = |key, value: String, allowed: String| SettingsError::Range {
            key,
            value,
            allowed,
            origin: origin.clone(),
        };
        if !(1..=MAX_COUNT).contains(&run.count) {
            return Err(range(
                "count",
                run.count.to_string(),
                format!("1 to {MAX_COUNT}"),
            ));
        }
        if run.seed > MAX_SEED {
            return Err(range(
                "seed",
                run.seed.to_string(),
                format!("0 to {MAX_SEED}"),
            ));
        }
        if run.threads > MAX_THREADS {
            return Err(range(
                "threads",
                run.threads.to_string(),
                format!("0 (one per core) to {MAX_THREADS}"),
            ));
        }
        if !(1..=MAX_CHUNK).contains(&run.chunk_size) {
            return Err(range(
                "chunk_size",
                run.chunk_size.to_string(),
                format!("1 to {MAX_CHUNK}"),
            ));
        }
        if run.db.as_os_str().is_empty() {
            return Err(range("db", "\"\"".into(), "a file path".into()));
        }
        let shard = Shard::parse(&run.shard)
            .map_err(|why| range("shard", format!("{:?}", run.shard), format!("I/N: {why}")))?;
        let size = usize::from(self.generator.size);
        if !SIZES.contains(&size) {
            return Err(range("size", size.to_string(), accepted_sizes()));
        }
        let resolved = self
            .generator
            .validate()
            .map_err(|source| SettingsError::Generator {
                batch: if name == "default" {
                    String::new()
                } else {
                    format!(" (batch {name})")
                },
                origin: origin.clone(),
                source,
            })?;
        let g = &self.generator;
        if let Some(allowed) = size_refusal(g.variant, &resolved.geometry) {
            return Err(range("size", size_text(&resolved.geometry), allowed));
        }
        let cells = usize::from(g.size) * usize::from(g.size);
        if g.variant.has_cages()
            && !g.allow_single_cells
            && g.max_cage_size == Some(2)
            && cells % 2 == 1
        {
            // Dominoes cannot tile an odd number of cells: every item would be rejected.
            return Err(range(
                "max_cage_size",
                "2".into(),
                format!(
                    "3 or more, or allow_single_cells = true ({0}x{0} = {cells} cells cannot be covered by 2-cell cages)",
                    g.size
                ),
            ));
        }
        let threads = match run.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n as usize,
        };
        Ok(Plan {
            name: name.to_string(),
            count: run.count,
            seed: run.seed,
            threads,
            db: run.db.clone(),
            shard,
            chunk_size: run.chunk_size as usize,
            generator: self.generator.clone(),
            settings_hash: settings_hash(&self.generator),
            settings_toml: self.to_toml(),
        })
    }
}

/// The stable hash of the settings that affect output: the top 64 bits of the FNV-1a-128
/// fingerprint of the generator settings as JSON, 16 hex digits. Threads, chunk size, count,
/// shard and database do not change a puzzle, so they are left out.
pub fn settings_hash(generator: &GeneratorConfig) -> String {
    let json = serde_json::to_vec(generator).expect("generator settings serialize to JSON");
    format!("{:016x}", (fingerprint(&json) >> 64) as u64)
}

#[cfg(test)]
mod tests;
