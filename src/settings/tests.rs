//! Unit tests of settings loading, overrides, validation and hashing.

use super::*;
use std::path::Path;

fn config(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("config")
        .join(name)
}

/// The error and its sources, as the binary prints them.
fn full(e: SettingsError) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        text += &format!(": {s}");
        source = s.source();
    }
    text
}

fn write_temp(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("preset.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn default_toml_documents_the_code_defaults() {
    let batches = load(None).unwrap();
    assert_eq!(batches.len(), 1);
    assert_eq!(batches[0].settings, Settings::default());
    let from_file = load(Some(&config("default.toml"))).unwrap();
    assert_eq!(from_file[0].settings, Settings::default());
}

#[test]
fn every_preset_loads_and_validates() {
    for name in ["book-9x9.toml", "nightly.toml", "variants.toml"] {
        let batches = load(Some(&config(name))).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!batches.is_empty());
    }
    let variants = load(Some(&config("variants.toml"))).unwrap();
    let sizes: Vec<u8> = variants.iter().map(|b| b.settings.generator.size).collect();
    assert!(sizes.contains(&4) && sizes.contains(&6));
    assert!(variants
        .iter()
        .any(|b| b.settings.generator.variant == Variant::Jigsaw));
}

#[test]
fn unknown_keys_name_the_key_the_file_and_the_line() {
    let (_dir, path) = write_temp("[run]\ncount = 5\ncuont = 7\n");
    let msg = load(Some(&path)).unwrap_err().to_string();
    assert!(msg.contains("preset.toml"), "{msg}");
    assert!(msg.contains("cuont"), "{msg}");
    assert!(msg.contains("line 3"), "{msg}");
    let (_dir, path) = write_temp("[generator]\nsise = 9\n");
    assert!(load(Some(&path)).unwrap_err().to_string().contains("sise"));
    let (_dir, path) = write_temp("[[batch]]\nname = \"x\"\nsise = 4\n");
    let msg = load(Some(&path)).unwrap_err().to_string();
    assert!(msg.contains("batch") && msg.contains("sise"), "{msg}");
}

#[test]
fn out_of_range_values_name_key_value_range_and_origin() {
    let (_dir, path) = write_temp("[run]\ncount = 0\n");
    let msg = load(Some(&path)).unwrap_err().to_string();
    assert!(msg.starts_with("count = 0 in "), "{msg}");
    assert!(msg.contains("preset.toml") && msg.contains("1 to"), "{msg}");
    let (_dir, path) = write_temp("[generator]\nsize = 17\n");
    let msg = full(load(Some(&path)).unwrap_err());
    assert!(
        msg.contains("size = 17") && msg.contains("preset.toml"),
        "{msg}"
    );
    let (_dir, path) = write_temp("[run]\ncount = -3\n");
    assert!(load(Some(&path)).unwrap_err().to_string().contains("count"));
}

#[test]
fn flags_override_and_are_blamed_for_their_errors() {
    let overrides = Overrides {
        count: Some(7),
        seed: Some(99),
        shard: Some("1/3".into()),
        size: Some(6),
        ..Overrides::default()
    };
    let plans = select(load(None).unwrap(), &overrides, &Origin::Defaults).unwrap();
    assert_eq!(plans.len(), 1);
    let plan = &plans[0];
    assert_eq!((plan.count, plan.seed), (7, 99));
    assert_eq!(plan.shard, Shard::new(1, 3).unwrap());
    assert_eq!(plan.generator.size, 6);
    assert!(plan.threads >= 1);

    let bad = Overrides {
        shard: Some("3/3".into()),
        ..Overrides::default()
    };
    let err = select(load(None).unwrap(), &bad, &Origin::Defaults).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("shard = \"3/3\" on the command line") && msg.contains("0 to 2"),
        "{msg}"
    );
}

#[test]
fn variant_and_size_choose_batches() {
    let batches = load(Some(&config("variants.toml"))).unwrap();
    let origin = Origin::File(config("variants.toml"));
    let by_size = Overrides {
        size: Some(4),
        ..Overrides::default()
    };
    let plans = select(batches.clone(), &by_size, &origin).unwrap();
    assert_eq!(plans.len(), 1);
    assert_eq!(plans[0].generator.size, 4);
    let all = select(batches.clone(), &Overrides::default(), &origin).unwrap();
    assert_eq!(all.len(), batches.len());
    let none = Overrides {
        size: Some(12),
        ..Overrides::default()
    };
    let msg = select(batches, &none, &origin).unwrap_err().to_string();
    assert!(
        msg.contains("size 12") && msg.contains("killer-4x4"),
        "{msg}"
    );
}

#[test]
fn hash_follows_output_settings_only() {
    let base = Settings::default();
    let plan = base.validate("default", &Origin::Defaults).unwrap();
    let mut other = base.clone();
    other.run.threads = 2;
    other.run.chunk_size = 3;
    other.run.db = "elsewhere.db".into();
    other.run.count = 5;
    assert_eq!(
        other
            .validate("default", &Origin::Defaults)
            .unwrap()
            .settings_hash,
        plan.settings_hash
    );
    other.generator.size = 6;
    assert_ne!(settings_hash(&other.generator), plan.settings_hash);
    assert_eq!(plan.settings_hash.len(), 16);
}

#[test]
fn stored_toml_round_trips() {
    let mut s = Settings::default();
    s.run.seed = 12345;
    s.generator.variant = Variant::KillerJigsaw;
    let back = Settings::from_toml(&s.to_toml(), &Origin::Defaults).unwrap();
    assert_eq!(back, s);
}

#[test]
fn dominoes_on_an_odd_grid_are_refused_up_front() {
    let mut settings = Settings::default();
    settings.generator.max_cage_size = Some(2);
    let err = settings
        .validate("default", &Origin::Defaults)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("81 cells cannot be covered by 2-cell cages"),
        "{err}"
    );
    settings.generator.size = 4;
    assert!(settings.validate("default", &Origin::Defaults).is_ok());
}
