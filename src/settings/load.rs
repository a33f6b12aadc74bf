//! Loading presets: the TOML file (or the compiled-in defaults) into batches, then the
//! command-line overrides and the choice of batches.

use super::toml_error::TomlError;
use super::{
    variant_name, Batch, Origin, Overrides, Plan, RunSettings, Settings, SettingsError,
    DEFAULT_TOML,
};
use crate::generator::GeneratorConfig;
use serde::Deserialize;
use std::path::Path;

/// A settings file as read: `[run]`, `[generator]` and `[[batch]]` tables (name + overrides).
#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct SettingsFile {
    run: RunSettings,
    generator: GeneratorConfig,
    batch: Vec<toml::Table>,
}

/// Load the preset `path` (or the defaults) into its batches, each validated where it was written.
pub fn load(path: Option<&Path>) -> Result<Vec<Batch>, SettingsError> {
    let (text, origin) = match path {
        Some(p) => (
            std::fs::read_to_string(p).map_err(|source| SettingsError::Read {
                path: p.to_path_buf(),
                source,
            })?,
            Origin::File(p.to_path_buf()),
        ),
        None => (DEFAULT_TOML.to_string(), Origin::Defaults),
    };
    let file: SettingsFile = toml::from_str(&text).map_err(|e| parse_error(&text, &e, &origin))?;
    let base = Settings {
        run: file.run,
        generator: file.generator,
    };
    let batches = if file.batch.is_empty() {
        vec![Batch {
            name: "default".into(),
            settings: base,
        }]
    } else {
        file.batch
            .into_iter()
            .enumerate()
            .map(|(i, table)| overlay_batch(&base, i, table, &origin))
            .collect::<Result<_, _>>()?
    };
    for batch in &batches {
        batch.settings.validate(&batch.name, &origin)?;
    }
    Ok(batches)
}

/// A one-line parse error: `line L, column C ("the line"): what`.
pub(super) fn parse_error(text: &str, e: &toml::de::Error, origin: &Origin) -> SettingsError {
    SettingsError::Parse {
        origin: origin.clone(),
        message: TomlError::new(text, e).to_string(),
    }
}

/// `base` with one `[[batch]]` table's generator keys laid over its `[generator]`.
fn overlay_batch(
    base: &Settings,
    i: usize,
    mut table: toml::Table,
    origin: &Origin,
) -> Result<Batch, SettingsError> {
    let parse_error = |message: String| SettingsError::Parse {
        origin: origin.clone(),
        message: format!("[[batch]] number {}: {message}", i + 1),
    };
    let name = match table.remove("name") {
        None => format!("batch-{}", i + 1),
        Some(toml::Value::String(s)) => s,
        Some(other) => return Err(parse_error(format!("name = {other} is not a string"))),
    };
    let mut merged =
        toml::Table::try_from(&base.generator).map_err(|e| parse_error(e.to_string()))?;
    merged.extend(table);
    let generator = GeneratorConfig::deserialize(toml::Value::Table(merged))
        .map_err(|e| parse_error(e.to_string()))?;
    Ok(Batch {
        name,
        settings: Settings {
            run: base.run.clone(),
            generator,
        },
    })
}

/// Apply command-line overrides: with several batches, `--variant`/`--size` select; otherwise they
/// override. Every result is validated again (problems now come from the command line).
pub fn select(
    batches: Vec<Batch>,
    overrides: &Overrides,
    origin: &Origin,
) -> Result<Vec<Plan>, SettingsError> {
    let several = batches.len() > 1;
    let available = batches
        .iter()
        .map(|b| describe(&b.name, &b.settings.generator))
        .collect::<Vec<_>>()
        .join(", ");
    let chosen: Vec<Batch> = batches
        .into_iter()
        .filter(|b| {
            !several
                || (overrides
                    .variant
                    .is_none_or(|v| v == b.settings.generator.variant)
                    && overrides
                        .size
                        .is_none_or(|s| s == b.settings.generator.size))
        })
        .collect();
    if chosen.is_empty() {
        let mut wanted = Vec::new();
        if let Some(v) = overrides.variant {
            wanted.push(format!("variant {}", variant_name(v)));
        }
        if let Some(s) = overrides.size {
            wanted.push(format!("size {s}"));
        }
        return Err(SettingsError::NoBatch {
            origin: origin.clone(),
            wanted: wanted.join(" and "),
            available,
        });
    }
    chosen
        .into_iter()
        .map(|mut b| {
            b.settings.apply(overrides);
            b.settings.validate(&b.name, &Origin::CommandLine)
        })
        .collect()
}

fn describe(name: &str, g: &GeneratorConfig) -> String {
    format!("{name} ({} {}x{})", variant_name(g.variant), g.size, g.size)
}
