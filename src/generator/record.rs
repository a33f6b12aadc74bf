//! The generator's recording hook: what one work item did, stage by stage, for "How it was made".
//!
//! The stages call [`Recorder::emit`] with a closure that builds the [`Event`]; with the recorder
//! off (the pipeline's [`Recorder::off`]) the closure never runs, so generation costs one branch
//! per event and its output is unchanged. Events carry whole grids and layouts only where they
//! change (the seed, the variation, a layout laid or repaired, a kept level edit, the givens).

use crate::cage::Cage;
use crate::grader::Level;
use crate::grid::Grid;
use crate::transform::GridTransform;

/// What a uniqueness check found, as recorded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckVerdict {
    /// Exactly the intended solution.
    Unique,
    /// Two or more solutions.
    Several,
    /// The node budget ran out before it was decided.
    Undecided,
}

impl CheckVerdict {
    /// The contract's word: `unique`, `several` or `undecided`.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckVerdict::Unique => "unique",
            CheckVerdict::Several => "several",
            CheckVerdict::Undecided => "undecided",
        }
    }
}

/// What a uniqueness check was asked about.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckSubject {
    /// A zero-given cage layout.
    Layout,
    /// Givens with some removed (`givens` left after the removal).
    Removal {
        /// Givens in the tried puzzle.
        givens: usize,
    },
    /// The final puzzle of the givens removal.
    Final,
    /// A layout after level-steering merges.
    Merge,
}

/// How the level steering changed the puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LevelEdit {
    /// `count` pairs of touching cages merged (harder).
    Merge {
        /// Merges in this batch.
        count: usize,
    },
    /// A big cage split in two (easier).
    Split,
    /// Two touching cages merged, the pair leaving a shaped extreme the fewest easy ways in
    /// (`extreme::reach`; not graded one by one).
    Shape,
    /// One more given from the solution (easier, plain puzzles).
    Given,
}

/// One thing the generator did.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The seed grid of the item's group was filled (with its jigsaw regions, if any).
    Seed {
        /// The complete seed grid.
        grid: Grid,
        /// The jigsaw region of each cell (`None` for boxes).
        regions: Option<Vec<u8>>,
    },
    /// The item's own validity-preserving transform of the seed grid.
    Variation {
        /// The transform drawn.
        transform: GridTransform,
        /// The solution it gives.
        grid: Grid,
        /// The region map after the transform (jigsaw only).
        regions: Option<Vec<u8>>,
    },
    /// The level the item aims at.
    Target {
        /// The target level.
        level: Level,
    },
    /// A cage layout was laid (a first draw or a redraw).
    Layout {
        /// The whole layout.
        cages: Vec<Cage>,
        /// Drawn afresh after the repairs of the last one ran out (or its check was undecided).
        redrawn: bool,
    },
    /// A uniqueness check and its verdict.
    Check {
        /// What was checked.
        subject: CheckSubject,
        /// What it found.
        verdict: CheckVerdict,
        /// Search nodes it took.
        nodes: u64,
    },
    /// The layout was reshaped where a second solution differs (moves and exchanges of cells).
    Repair {
        /// The whole layout after the repair.
        cages: Vec<Cage>,
        /// Second solutions it had to rule out.
        alternatives: usize,
    },
    /// Givens were removed while the puzzle stayed unique (minimal givens).
    Givens {
        /// The givens left.
        givens: Grid,
    },
    /// A level-steering edit, graded.
    Level {
        /// The edit.
        edit: LevelEdit,
        /// The grade's level after it (`None`: past the target or not unique).
        level: Option<Level>,
        /// Was the edit kept?
        kept: bool,
        /// The whole layout after a kept cage edit.
        cages: Option<Vec<Cage>>,
        /// The givens after a kept given.
        givens: Option<Grid>,
    },
    /// An attempt ended without a puzzle and a fresh one starts (level attempts).
    Retry {
        /// Why, in words.
        reason: String,
    },
    /// No layout of a shaped extreme item needed trial: the hardest puzzle above expert that its
    /// attempts met is taken back.
    Fallback {
        /// That puzzle's layout.
        cages: Vec<Cage>,
        /// The layouts tried.
        attempts: usize,
        /// Its grade's score.
        score: f64,
    },
    /// The puzzle is finished.
    Done {
        /// Its level (`None` if unrated).
        level: Option<Level>,
        /// Its score.
        score: f64,
    },
}

/// Where the generator's events go: nowhere ([`Recorder::off`]) or into a callback.
pub struct Recorder<'a> {
    sink: Option<&'a mut dyn FnMut(Event)>,
}

impl<'a> Recorder<'a> {
    /// A recorder that drops everything without building it.
    pub fn off() -> Self {
        Recorder { sink: None }
    }

    /// A recorder that hands every event to `sink`.
    pub fn new(sink: &'a mut dyn FnMut(Event)) -> Self {
        Recorder { sink: Some(sink) }
    }

    /// Is anything listening?
    pub fn is_on(&self) -> bool {
        self.sink.is_some()
    }

    /// Record the event `make` builds (only called when the recorder is on).
    #[inline]
    pub fn emit(&mut self, make: impl FnOnce() -> Event) {
        if let Some(sink) = self.sink.as_mut() {
            sink(make());
        }
    }
}

impl From<&super::unique::Verdict> for CheckVerdict {
    fn from(v: &super::unique::Verdict) -> Self {
        match v {
            super::unique::Verdict::Unique => CheckVerdict::Unique,
            super::unique::Verdict::Multiple(_) => CheckVerdict::Several,
            super::unique::Verdict::Undecided => CheckVerdict::Undecided,
        }
    }
}
