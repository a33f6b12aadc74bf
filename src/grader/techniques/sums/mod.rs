//! The rule of 45 as equations: over a region of whole houses (one house, 2 to 4 adjacent rows or
//! columns, two neighbouring boxes) the digits total `houses x N(N+1)/2`. Taking the cages inside
//! the region, and any choice of the cages that poke out of it, leaves innie cells (in the region,
//! not covered) and outie cells (covered, outside): `outies - innies = cage sums - region total`.
//! A cage that holds a set of innies splits into that set and the rest (cage splitting).
//!
//! The equations depend only on the layout, so they are derived once per puzzle; a finder
//! evaluates those whose unknown cells changed, enumerating the assignments the candidates allow
//! (cells that share a house or cage differ) and removing every digit no assignment uses.
//!
//! The files follow the work: `regions` derives the rule-of-45 equations of a layout, `algebra`
//! combines them two by two (sum algebra), `evaluate` enumerates the assignments of one
//! equation, and `finders` turns what an evaluation keeps into steps, one finder per technique.

mod algebra;
mod evaluate;
mod finders;
mod regions;

pub(crate) use evaluate::Witnesses;
pub(crate) use finders::source_text;
pub use finders::{
    innie_outie_difference, multi_house_innie_outie, multi_innie_outie, single_innie_outie,
    sum_algebra,
};

use crate::bitset::CellSet;
use crate::geometry::{Cell, House};
use crate::grader::step::Technique;
use std::hash::Hasher;

/// Largest equation kept (cells with a coefficient).
const MAX_TERMS: usize = 6;
/// Largest number of unknown cells enumerated.
const MAX_UNKNOWN: usize = 5;
/// Enumeration budget per evaluation (search nodes).
const MAX_NODES: usize = 20_000;
/// At most this many cages poking out of a region are combined (2^this choices).
const MAX_PARTIAL: usize = 5;
/// Largest sum-algebra equation kept (cells with a coefficient).
const MAX_ALGEBRA_TERMS: usize = 8;
/// At most this many sum-algebra equations per puzzle.
const MAX_ALGEBRA: usize = 4_000;

/// How an equation came about, for its technique and its words.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Cells inside the region left over by the cages inside: their sum is known.
    Innies,
    /// Cells outside the region of the cages covering it: their sum is known.
    Outies,
    /// Outies minus innies is known.
    Difference,
    /// The rest of a cage that holds a set of innies or outies.
    Split,
    /// The sum or difference of two equations (or of an equation and a cage), sum algebra.
    Algebra,
}

/// Most cells an equation holds (a split cage's rest: a cage has at most N <= 16 cells).
const TERM_ROOM: usize = 16;

/// A region of whole houses with the cages inside it and those poking out of it (shared by the
/// region's equations).
#[derive(Clone, Debug)]
pub(crate) struct Region {
    pub(crate) houses: Vec<House>,
    inside: Vec<usize>,
    partial: Vec<usize>,
}

/// `sum(coef * cell) = total` over a few cells. Kept without heap parts of its own (a puzzle
/// derives hundreds): terms inline, the region's houses and cages in `Equations::regions`.
#[derive(Clone, Debug)]
pub(crate) struct Equation {
    /// Cells with coefficient +1 or -1, ascending by cell (the first `len`).
    terms: [(Cell, i8); TERM_ROOM],
    len: u8,
    /// Houses in the region.
    houses: u8,
    pub(crate) total: i32,
    pub(crate) kind: Kind,
    /// The region (index into `Equations::regions`); `chosen` says which of its partial cages
    /// are used.
    region: u32,
    chosen: u64,
    /// The cage split by a `Split` equation (`usize::MAX` otherwise).
    split: usize,
}

impl Equation {
    /// The cells with their coefficients.
    pub(crate) fn terms(&self) -> &[(Cell, i8)] {
        &self.terms[..self.len as usize]
    }
    /// Cages used.
    fn cages(&self, regions: &[Region]) -> Vec<usize> {
        let r = &regions[self.region as usize];
        let mut cages = r.inside.clone();
        cages.extend(
            r.partial
                .iter()
                .enumerate()
                .filter(|&(i, _)| self.chosen & (1 << i) != 0)
                .map(|(_, &k)| k),
        );
        if self.split != usize::MAX {
            cages.push(self.split);
        }
        cages
    }
}

/// The rule-of-45 equations of a layout, with the lists each technique walks. Those of one house
/// are derived with the context; those of several houses only when a finder first needs them
/// (most puzzles are solved before).
#[derive(Clone, Debug, Default)]
pub(crate) struct Equations {
    pub(crate) list: Vec<Equation>,
    regions: Vec<Region>,
    /// Indices into `list` per technique, in `list` order (see `slot`).
    by_technique: [Vec<u32>; 4],
    /// The cells of each `list` equation, as a set.
    pub(crate) sets: Vec<CellSet>,
    /// Are the equations of several houses in `list`?
    multi: bool,
    /// Sum algebra: sums and differences of two equations (or of an equation and a cage) that
    /// cancel the cells they share, derived when the finder first runs.
    pub(crate) algebra: Vec<Equation>,
    /// The cells of each `algebra` equation, as a set.
    algebra_cells: Vec<CellSet>,
    /// The two parents of each `algebra` equation and the sign the second was added with.
    parents: Vec<(Source, Source, i8)>,
    /// Is `algebra` derived?
    algebra_done: bool,
}

/// What a sum-algebra equation was combined from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// An equation of `Equations::list`.
    Equation(u32),
    /// A cage of the puzzle: its cells total its sum.
    Cage(u32),
}

/// The list a technique walks.
fn slot(technique: Technique) -> Option<usize> {
    match technique {
        Technique::SingleInnieOutie => Some(0),
        Technique::MultiInnieOutie => Some(1),
        Technique::InnieOutieDifference => Some(2),
        Technique::MultiHouseInnieOutie => Some(3),
        _ => None,
    }
}

impl Equations {
    /// Are the equations of several houses derived?
    pub(crate) fn has_multi(&self) -> bool {
        self.multi
    }

    /// Is sum algebra derived?
    pub(crate) fn has_algebra(&self) -> bool {
        self.algebra_done
    }

    /// The houses of an equation's region.
    pub(crate) fn houses(&self, e: &Equation) -> &[House] {
        &self.regions[e.region as usize].houses
    }
}

/// Terms into the inline array (`None` when they do not fit).
fn inline_terms(terms: &[(Cell, i8)]) -> Option<([(Cell, i8); TERM_ROOM], u8)> {
    if terms.len() > TERM_ROOM {
        return None;
    }
    let mut out = [(Cell::new(0), 0i8); TERM_ROOM];
    out[..terms.len()].copy_from_slice(terms);
    Some((out, terms.len() as u8))
}

/// An equation's identity: its + cells, its - cells, its total.
type Key = (CellSet, CellSet, i32);

/// A small multiplicative hasher for the keys (they are not attacker-controlled).
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Which technique an equation with `unknown` empty cells is, in the ladder's terms.
pub(crate) fn technique_of(e: &Equation, unknown: usize) -> Technique {
    match (e.houses, e.kind) {
        (_, Kind::Algebra) => Technique::SumAlgebra,
        (1, Kind::Innies | Kind::Outies) if unknown == 1 => Technique::SingleInnieOutie,
        (1, Kind::Innies | Kind::Outies | Kind::Split) => Technique::MultiInnieOutie,
        (1, Kind::Difference) => Technique::InnieOutieDifference,
        _ => Technique::MultiHouseInnieOutie,
    }
}
