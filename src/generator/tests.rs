//! End-to-end checks of `generate_puzzle`: uniqueness, cage rules, givens policy, determinism.

use super::*;
use crate::bitset::DigitSet;
use crate::solver;

/// Generate items `0..count`, check each puzzle, and require at least `min_ok` of them (the rest
/// may only be rejected as not unique within the repair bound).
fn check_batch(config: &GeneratorConfig, seed: u64, count: u64, min_ok: usize) {
    let mut ok = 0;
    for index in 0..count {
        match generate_puzzle(config, seed, index) {
            Outcome::Generated(g) => {
                check(config, &g);
                ok += 1;
            }
            Outcome::Rejected(Rejection::NotUnique { .. }) => {}
            Outcome::Rejected(other) => panic!("item {index} of {config:?}: {other:?}"),
        }
    }
    assert!(ok >= min_ok, "{ok} of {count} generated for {config:?}");
}

/// Check everything a generated puzzle promises.
fn check(config: &GeneratorConfig, g: &Generated) {
    let p = &g.puzzle;
    assert_eq!(p.size(), config.size as usize);
    assert!(p.is_solution(&g.solution));
    assert_eq!(solver::solve(p, 2).solutions, vec![g.solution.clone()]);
    assert_eq!(g.metrics.givens, p.givens().count_filled());
    if config.variant.has_cages() {
        assert_eq!(
            p.caged_cells().len(),
            p.geometry().cell_count(),
            "every cell caged"
        );
        for cage in p.cages() {
            assert!(cage.len() >= 2 || config.allow_single_cells);
            assert!(p.geometry().is_connected(&cage.cells));
            let digits: DigitSet = cage
                .cells
                .iter()
                .map(|&c| g.solution.get(c).unwrap())
                .collect();
            assert_eq!(digits.len() as usize, cage.len(), "no repeated digit");
            let sum: u16 = digits.iter().map(|d| d.get() as u16).sum();
            assert_eq!(sum, cage.sum);
        }
        assert_eq!(g.metrics.cage_count, p.cages().len());
        if config.cage_builder == CageBuilderKind::Book
            && config.validate().unwrap().levels.is_empty()
        {
            let (min, max) = config.validate().unwrap().rules.cage_count;
            assert!(
                (min..=max).contains(&p.cages().len()),
                "cage count in range"
            );
        }
        if config.givens == GivensPolicy::Zero {
            assert_eq!(g.metrics.givens, 0);
        }
    } else {
        assert!(p.cages().is_empty());
        // Minimal: no given can go.
        for cell in p
            .geometry()
            .cells()
            .filter(|&c| p.givens().get(c).is_some())
        {
            let mut fewer = p.givens().clone();
            fewer.set(cell, None);
            let q = Puzzle::plain(p.geometry().clone(), fewer).unwrap();
            assert_eq!(
                solver::count_solutions(&q, 2),
                2,
                "given at {cell:?} is redundant"
            );
        }
    }
}

/// Unsteered generation (no target level): the default mix is tested in `mix.rs`.
fn config(variant: Variant, size: u8) -> GeneratorConfig {
    GeneratorConfig {
        variant,
        size,
        levels: Some(level::LevelsSetting::any()),
        ..GeneratorConfig::default()
    }
}

#[test]
fn small_killers_are_unique_with_zero_givens() {
    check_batch(&config(Variant::Killer, 4), 1, 30, 25);
    check_batch(&config(Variant::Killer, 6), 2, 6, 5);
}

#[test]
fn nine_by_nine_puzzles_of_every_variant() {
    check_batch(&config(Variant::Killer, 9), 6, 30, 29);
    check_batch(&config(Variant::Classic, 9), 6, 10, 10);
    check_batch(&config(Variant::Jigsaw, 9), 6, 5, 5);
    check_batch(&config(Variant::KillerJigsaw, 9), 6, 5, 4);
}

#[test]
fn other_box_shapes_and_sizes() {
    let shaped = |size, rows, cols| GeneratorConfig {
        box_rows: Some(rows),
        box_cols: Some(cols),
        ..config(Variant::Killer, size)
    };
    check_batch(&shaped(6, 3, 2), 7, 5, 4);
    check_batch(&shaped(8, 2, 4), 7, 3, 2);
    check_batch(&config(Variant::Classic, 8), 7, 3, 3);
}

/// 12x12 killers (cages grown towards few combinations) are unique with zero givens.
#[test]
fn twelve_by_twelve_killers_are_unique_with_zero_givens() {
    check_batch(&config(Variant::Killer, 12), 5, 4, 4);
}

#[test]
fn small_plain_and_jigsaw_puzzles_are_unique_and_minimal() {
    check_batch(&config(Variant::Classic, 4), 3, 10, 10);
    check_batch(&config(Variant::Jigsaw, 4), 3, 10, 10);
    check_batch(&config(Variant::Classic, 6), 4, 3, 3);
    check_batch(&config(Variant::Jigsaw, 5), 4, 3, 3);
    check_batch(&config(Variant::KillerJigsaw, 5), 4, 3, 2);
}

#[test]
fn source_builders_and_minimal_givens() {
    for builder in [CageBuilderKind::Ordered, CageBuilderKind::RandomWalk] {
        for givens in [GivensPolicy::Zero, GivensPolicy::Minimal] {
            let c = GeneratorConfig {
                cage_builder: builder,
                givens,
                ..config(Variant::Killer, 4)
            };
            check_batch(&c, 5, 8, 6);
        }
    }
}

#[test]
fn an_item_depends_only_on_config_seed_and_index() {
    let c = config(Variant::Killer, 4);
    let a = generate_puzzle(&c, 9, 17);
    assert_eq!(a, generate_puzzle(&c, 9, 17));
    assert_ne!(a, generate_puzzle(&c, 9, 18));
    assert_ne!(a, generate_puzzle(&c, 10, 17));
}

#[test]
fn a_cached_seed_grid_gives_the_same_items() {
    let c = GeneratorConfig {
        variations_per_seed: 4,
        ..config(Variant::KillerJigsaw, 6)
    };
    let resolved = c.validate().unwrap();
    let group = seed_grid(&c, &resolved, 5, 2).unwrap();
    for index in 8..12 {
        let cached = generate_from_seed(&c, &resolved, &group, 5, index);
        assert_eq!(cached, generate_puzzle(&c, 5, index));
    }
    assert_ne!(Some(group), seed_grid(&c, &resolved, 5, 3));
}

#[test]
fn invalid_config_is_a_rejection() {
    let c = config(Variant::Killer, 0);
    assert_eq!(
        generate_puzzle(&c, 1, 1),
        Outcome::Rejected(Rejection::InvalidConfig(ConfigError::Size(0)))
    );
}

/// Targeted items come out at their level (or are rejected as off-level), unique, zero givens,
/// with every cage valid; the same item gives the same puzzle twice.
#[test]
fn targets_are_met_or_rejected() {
    for level in ["medium", "hard"] {
        let config = GeneratorConfig {
            levels: Some(level::LevelsSetting::List(vec![level.into()])),
            ..GeneratorConfig::default()
        };
        let mut made = 0;
        for index in 0..6 {
            match generate_puzzle(&config, 11, index) {
                Outcome::Generated(g) => {
                    let mut unbounded = config.clone();
                    unbounded.max_cage_size = Some(9);
                    check(&unbounded, &g);
                    assert_eq!(g.metrics.grade.level.map(|l| l.as_str()), Some(level));
                    assert_eq!(g.metrics.grade, grader::grade(&g.puzzle));
                    assert_eq!(generate_puzzle(&config, 11, index), Outcome::Generated(g));
                    made += 1;
                }
                Outcome::Rejected(Rejection::OffLevel { target }) => {
                    assert_eq!(target.as_str(), level)
                }
                Outcome::Rejected(other) => panic!("{other:?}"),
            }
        }
        assert!(made >= 3, "{made} of 6 {level} items made");
    }
}

#[test]
fn level_settings_are_checked() {
    let with = |s: &str| GeneratorConfig {
        levels: Some(
            toml::from_str::<toml::Table>(s).unwrap()["levels"]
                .clone()
                .try_into()
                .unwrap(),
        ),
        ..GeneratorConfig::default()
    };
    assert!(with("levels = [\"hard\", \"easy\"]").validate().is_ok());
    let mix = with("levels = { easy = 0.2, hard = 0.8 }")
        .validate()
        .unwrap();
    assert_eq!(mix.levels.len(), 2);
    for bad in [
        "levels = []",
        "levels = [\"tough\"]",
        "levels = { hard = 0 }",
    ] {
        assert!(
            matches!(with(bad).validate(), Err(ConfigError::Levels(_))),
            "{bad}"
        );
    }
}

/// A sparse target (`max_cages` alone, well below the book range) is shaped against the
/// solution's unavoidable sets and the solver's second solutions: unique, zero givens, every cage valid, at most `max_cages` cages.
#[test]
fn sparse_layouts_are_unique_with_few_cages() {
    let config = GeneratorConfig {
        max_cages: Some(18),
        ..GeneratorConfig::default()
    };
    let resolved = config.validate().unwrap();
    assert!(sparse::is_sparse(&resolved.rules, 81));
    let mut made = 0;
    for index in 0..3 {
        if let Outcome::Generated(g) = generate_puzzle(&config, 2, index) {
            check(&config, &g);
            assert!(g.metrics.cage_count <= 18);
            made += 1;
        }
    }
    assert!(made >= 2, "{made} of 3 sparse items made");
}

/// Recording changes nothing: `generate_recorded` makes what `generate_puzzle` makes, for every
/// path through the stages (zero-given repairs, minimal givens, sparse shaping, jigsaw, plain,
/// level steering), and its events open with the seed and close with `Done` when it succeeds.
#[test]
fn recording_makes_the_same_puzzles_and_tells_every_stage() {
    use super::record::{CheckVerdict, Event};
    let configs = [
        GeneratorConfig::default(),
        GeneratorConfig {
            givens: GivensPolicy::Minimal,
            size: 6,
            ..GeneratorConfig::default()
        },
        GeneratorConfig {
            max_cages: Some(18),
            ..GeneratorConfig::default()
        },
        GeneratorConfig {
            variant: Variant::Jigsaw,
            size: 6,
            ..GeneratorConfig::default()
        },
        GeneratorConfig {
            variant: Variant::Classic,
            ..GeneratorConfig::default()
        },
        GeneratorConfig {
            levels: Some(level::LevelsSetting::List(vec![
                "hard".into(),
                "easy".into(),
            ])),
            ..GeneratorConfig::default()
        },
    ];
    for config in &configs {
        for index in 0..3 {
            let mut events = Vec::new();
            let recorded = generate_recorded(config, 11, index, &mut |e| events.push(e));
            assert_eq!(
                recorded,
                generate_puzzle(config, 11, index),
                "{config:?} {index}"
            );
            assert!(matches!(events.first(), Some(Event::Seed { .. })));
            assert!(matches!(events.get(1), Some(Event::Variation { .. })));
            let checks: Vec<CheckVerdict> = events
                .iter()
                .filter_map(|e| match e {
                    Event::Check { verdict, .. } => Some(*verdict),
                    _ => None,
                })
                .collect();
            if let Outcome::Generated(g) = &recorded {
                assert!(matches!(events.last(), Some(Event::Done { .. })));
                assert!(!checks.is_empty() || config.max_cages.is_some());
                if config.variant.has_cages() {
                    let last_layout = events.iter().rev().find_map(|e| match e {
                        Event::Layout { cages, .. } | Event::Repair { cages, .. } => Some(cages),
                        Event::Level {
                            cages: Some(cages), ..
                        } => Some(cages),
                        _ => None,
                    });
                    assert_eq!(last_layout.map(Vec::as_slice), Some(g.puzzle.cages()));
                }
            }
        }
    }
}
