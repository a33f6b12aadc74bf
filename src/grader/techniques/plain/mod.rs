//! Plain-sudoku techniques (locked candidates to forcing chains), on any size and jigsaw regions.
//!
//! Every finder is a pure `find_<name>(board) -> Option<Step>`: the first instance it sees, in a
//! fixed order (lowest digit, house and cell first), without changing the board. Killers add one
//! thing: two cells of one cage never hold the same digit (a weak link), and a digit every
//! combination of a cage needs, with exactly two places left in the cage, is a strong link.
//! Definitions follow SudokuWiki and HoDoKu (ideas only, no code).

pub mod als;
pub mod chains;
pub mod fish;
pub mod forcing;
pub mod locked;
pub mod single_digit;
pub mod subsets;
pub mod wings;

#[cfg(test)]
pub(crate) mod soundness;

pub use als::find_als_xz;
pub use chains::{find_aic, find_xy_chain};
pub use fish::{find_jellyfish, find_swordfish, find_x_wing};
pub use forcing::find_forcing_chain;
pub use locked::find_locked_candidates;
pub use single_digit::{
    find_simple_colouring, find_skyscraper, find_two_string_kite, find_x_chain,
};
pub use subsets::{
    find_hidden_pair, find_hidden_quad, find_hidden_triple, find_naked_pair, find_naked_quad,
    find_naked_triple,
};
pub use wings::{find_w_wing, find_xy_wing, find_xyz_wing};

use crate::bitset::{CellSet, DigitSet};
use crate::geometry::{Cell, Digit, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::puzzle::cell_name;
use crate::solver::combos::Combos;

/// A plain finder: the first step of one technique, or `None`.
pub type Finder = for<'a, 'p> fn(&'a Board<'p>) -> Option<Step>;

/// Every plain finder with its technique, easiest first (the grader's ladder may reorder them).
pub const FINDERS: &[(Technique, Finder)] = &[
    (Technique::LockedCandidates, find_locked_candidates),
    (Technique::NakedPair, find_naked_pair),
    (Technique::HiddenPair, find_hidden_pair),
    (Technique::NakedTriple, find_naked_triple),
    (Technique::HiddenTriple, find_hidden_triple),
    (Technique::XWing, find_x_wing),
    (Technique::Skyscraper, find_skyscraper),
    (Technique::TwoStringKite, find_two_string_kite),
    (Technique::Swordfish, find_swordfish),
    (Technique::XyWing, find_xy_wing),
    (Technique::XyzWing, find_xyz_wing),
    (Technique::WWing, find_w_wing),
    (Technique::SimpleColouring, find_simple_colouring),
    (Technique::NakedQuad, find_naked_quad),
    (Technique::HiddenQuad, find_hidden_quad),
    (Technique::Jellyfish, find_jellyfish),
    (Technique::XChain, find_x_chain),
    (Technique::XyChain, find_xy_chain),
    (Technique::Aic, find_aic),
    (Technique::AlsXz, find_als_xz),
    (Technique::ForcingChain, find_forcing_chain),
];

/// All houses of the board, rows then columns then regions.
pub(crate) fn houses(board: &Board) -> impl Iterator<Item = House> {
    (0..board.geometry().house_count()).map(|h| House::new(h as u8))
}

/// Is the cell still empty?
pub(crate) fn is_open(board: &Board, cell: Cell) -> bool {
    board.is_empty(cell)
}

/// The empty cells of the board, in index order.
pub(crate) fn open_cells<'a>(board: &'a Board) -> impl Iterator<Item = Cell> + 'a {
    board.geometry().cells().filter(move |&c| is_open(board, c))
}

/// Can two different cells not hold the same digit (one house, or one cage)?
pub(crate) fn sees(board: &Board, a: Cell, b: Cell) -> bool {
    board.sees(a, b)
}

/// The digits of an N x N board.
pub(crate) fn digits(board: &Board) -> impl Iterator<Item = Digit> {
    (1..=board.size() as u8).map(Digit::new)
}

/// "row 2", "column 3", "box 4" (or "region 4" on jigsaw grids), 1-based.
pub(crate) fn house_name(board: &Board, house: House) -> String {
    let n = board.size();
    let h = house.as_index();
    let kind = match h / n {
        0 => "row",
        1 => "column",
        _ if board.geometry().is_jigsaw() => "region",
        _ => "box",
    };
    format!("{kind} {}", h % n + 1)
}

/// Is the house a row, a column, or a region?
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum HouseKind {
    Row,
    Column,
    Region,
}

/// The kind of a house.
pub(crate) fn house_kind(board: &Board, house: House) -> HouseKind {
    match house.as_index() / board.size() {
        0 => HouseKind::Row,
        1 => HouseKind::Column,
        _ => HouseKind::Region,
    }
}

/// `r1c1` of a cell.
pub(crate) fn name(board: &Board, cell: Cell) -> String {
    cell_name(board.geometry(), cell)
}

/// `r1c1, r2c3` of a list of cells.
pub(crate) fn names(board: &Board, cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|&c| name(board, c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `1/2/7` of a digit set.
pub(crate) fn digit_list(set: DigitSet) -> String {
    set.iter()
        .map(|d| d.get().to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// Digits every possible combination of a cage's empty cells contains (set level: each digit of a
/// combination has a cell for it and each cell a digit of it). Empty when no combination fits.
pub(crate) fn cage_must(board: &Board, cage: usize) -> DigitSet {
    cage_live(board, cage).map_or(DigitSet::EMPTY, |(must, _)| must)
}

/// `(must, may)`: the digits in every / some live combination of a cage's empty cells (both
/// empty for a full cage with the right sum); `None` when no combination fits (a contradiction).
pub(crate) fn cage_live(board: &Board, cage: usize) -> Option<(DigitSet, DigitSet)> {
    let k = &board.puzzle().cages()[cage];
    let mut placed = DigitSet::EMPTY;
    let mut placed_sum = 0u16;
    // A cage has at most N <= 16 cells: its open cells' candidates fit inline.
    let mut room = [DigitSet::EMPTY; 16];
    let mut len = 0;
    let mut union = DigitSet::EMPTY;
    for &c in &k.cells {
        match board.placed(c) {
            Some(d) => {
                placed.insert(d);
                placed_sum += u16::from(d.get());
            }
            None => {
                room[len] = board.candidates(c);
                len += 1;
                union = union.union(board.candidates(c));
            }
        }
    }
    let open = &room[..len];
    if placed_sum > k.sum {
        return None;
    }
    if open.is_empty() {
        return (placed_sum == k.sum).then_some((DigitSet::EMPTY, DigitSet::EMPTY));
    }
    let table = Combos::of(board.size());
    let mut must = u16::MAX;
    let mut may = 0u16;
    for &m in table.get(open.len(), usize::from(k.sum - placed_sum)) {
        let set = DigitSet::from_bits(m);
        if !set.intersection(placed).is_empty()
            || !set.difference(union).is_empty()
            || open.iter().any(|c| c.intersection(set).is_empty())
        {
            continue;
        }
        must &= m;
        may |= m;
    }
    (may != 0).then(|| (DigitSet::from_bits(must), DigitSet::from_bits(may)))
}

/// For every cell, the cells that cannot share its digit (its houses and its cage).
pub(crate) fn peer_table(board: &Board) -> Vec<CellSet> {
    let g = board.geometry();
    g.cells()
        .map(|c| {
            let mut s = CellSet::EMPTY;
            for h in g.houses_of(c) {
                s = s.union(board.house_set(h));
            }
            if let Some(k) = board.cage_of(c) {
                for &x in &board.puzzle().cages()[k].cells {
                    s.insert(x);
                }
            }
            s.remove(c);
            s
        })
        .collect()
}

/// Where a strong link on one digit comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum LinkVia {
    /// The digit's only two places in a house.
    House(House),
    /// The only two places in a cage of a digit the cage must contain.
    Cage(usize),
}

/// A strong link on one digit: one of the two cells holds it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct StrongLink {
    pub a: Cell,
    pub b: Cell,
    pub via: LinkVia,
}

/// Words for where a link comes from: "row 3" or "the 15(3) cage at r1c1".
pub(crate) fn via_name(board: &Board, via: LinkVia) -> String {
    match via {
        LinkVia::House(h) => house_name(board, h),
        LinkVia::Cage(k) => cage_name(board, k),
    }
}

/// Strong links on `digit`: houses first (rows, columns, regions), then cages; a pair of cells is
/// listed once (under its first source).
pub(crate) fn strong_links(board: &Board, digit: Digit) -> Vec<StrongLink> {
    let mut links: Vec<StrongLink> = Vec::new();
    let push = |links: &mut Vec<StrongLink>, a: Cell, b: Cell, via: LinkVia| {
        if !links
            .iter()
            .any(|l| (l.a == a && l.b == b) || (l.a == b && l.b == a))
        {
            links.push(StrongLink { a, b, via });
        }
    };
    let plane = *board.plane(digit);
    for h in houses(board) {
        let places = board.house_set(h).intersection(&plane);
        if places.len() == 2 {
            let mut it = places.iter();
            let (a, b) = (it.next().unwrap(), it.next().unwrap());
            push(&mut links, a, b, LinkVia::House(h));
        }
    }
    for (k, cage) in board.puzzle().cages().iter().enumerate() {
        let mut places = cage.cells.iter().copied().filter(|&c| plane.contains(c));
        if let (Some(a), Some(b), None) = (places.next(), places.next(), places.next()) {
            if cage_must(board, k).contains(digit) {
                push(&mut links, a, b, LinkVia::Cage(k));
            }
        }
    }
    links
}

/// A step of `technique` removing `digit` from `cells`, with its reason and the cells it rests on.
pub(crate) fn elimination_step(
    technique: Technique,
    digit: Digit,
    cells: &[Cell],
    pattern: Vec<Cell>,
    reason: String,
) -> Step {
    let mut step = Step::new(technique);
    step.eliminations = cells.iter().map(|&c| (c, digit)).collect();
    step.eliminations.sort();
    step.cells = pattern;
    step.reason = reason;
    step
}

/// Empty cells with candidate `digit` (outside `except`) that see every cell of `cells`.
pub(crate) fn seeing_all(
    board: &Board,
    cells: &[Cell],
    digit: Digit,
    except: &CellSet,
) -> Vec<Cell> {
    open_cells(board)
        .filter(|&c| {
            !except.contains(c)
                && board.candidates(c).contains(digit)
                && cells.iter().all(|&x| sees(board, c, x))
        })
        .collect()
}

/// Empty cells holding any digit of `set`.
pub(crate) fn digit_cells_any(board: &Board, set: DigitSet) -> CellSet {
    set.iter()
        .fold(CellSet::EMPTY, |acc, d| acc.union(board.plane(d)))
}

/// "the 15(3) cage at r1c1".
pub(crate) fn cage_name(board: &Board, cage: usize) -> String {
    let k = &board.puzzle().cages()[cage];
    let first = k.cells.iter().min().copied().unwrap_or(Cell::new(0));
    format!(
        "the {}({}) cage at {}",
        k.sum,
        k.cells.len(),
        name(board, first)
    )
}

/// The largest subset `for_each_subset` lists (the finders ask for 2 to 4).
const MAX_SUBSET: usize = 16;

/// All `k`-element subsets of `0..n` (`k` at most `MAX_SUBSET`), in lexicographic order, passed
/// to `visit` until it returns `Some`.
pub(crate) fn for_each_subset<T>(
    n: usize,
    k: usize,
    visit: &mut dyn FnMut(&[usize]) -> Option<T>,
) -> Option<T> {
    if k == 0 || k > n || k > MAX_SUBSET {
        return None;
    }
    // The indices in a fixed array: the subset finders list them per house on every look.
    let mut idx = [0usize; MAX_SUBSET];
    for (j, x) in idx[..k].iter_mut().enumerate() {
        *x = j;
    }
    loop {
        if let Some(t) = visit(&idx[..k]) {
            return Some(t);
        }
        // Advance the rightmost index that can move.
        let mut i = k;
        loop {
            if i == 0 {
                return None;
            }
            i -= 1;
            if idx[i] < n - k + i {
                break;
            }
            if i == 0 {
                return None;
            }
        }
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

#[cfg(test)]
pub(crate) mod test_util;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_in_lexicographic_order() {
        let mut seen = Vec::new();
        let none: Option<()> = for_each_subset(5, 3, &mut |idx| {
            seen.push(idx.to_vec());
            None
        });
        assert!(none.is_none());
        assert_eq!(seen.len(), 10);
        assert_eq!(seen[0], vec![0, 1, 2]);
        assert_eq!(seen[9], vec![2, 3, 4]);
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
        let mut count = 0;
        for_each_subset::<()>(4, 4, &mut |_| {
            count += 1;
            None
        });
        assert_eq!(count, 1);
        assert_eq!(
            for_each_subset(3, 2, &mut |idx| (idx == [0, 2]).then_some(7)),
            Some(7)
        );
        assert!(for_each_subset::<()>(2, 3, &mut |_| panic!("no subset")).is_none());
    }

    #[test]
    fn cage_must_and_strong_links_from_a_cage() {
        use test_util::*;
        // 7(3) = {1,2,4}: every combination holds 1, 2 and 4.
        let p = killer(9, &[(7, &[(5, 5), (5, 6), (6, 5)])]);
        let mut b = board(&p);
        assert_eq!(digit_list(cage_must(&b, 0)), "1/2/4");
        assert!(!strong_links(&b, d(4))
            .iter()
            .any(|l| l.via == LinkVia::Cage(0)));
        b.eliminate(at(&b, 5, 5), d(4));
        let links = strong_links(&b, d(4));
        let cage_link = links.iter().find(|l| l.via == LinkVia::Cage(0)).unwrap();
        assert_eq!((cage_link.a, cage_link.b), (at(&b, 5, 6), at(&b, 6, 5)));
        // A cage that cannot reach its sum has no live combination.
        set(&mut b, 5, 5, &[9]);
        assert_eq!(cage_live(&b, 0), None);
    }
}
