//! The rule of 45 as derived sum constraints: over a union of whole houses (one house, or a run
//! of consecutive rows or columns) the digits add up to `houses x N(N+1)/2`, so the cells left
//! after the cages lying wholly inside (the innies) have a known total, and so do the cells of
//! the cages poking out (the outies). Small ones become extra "virtual" cages for the kernel
//! (on the published 9x9 killers 12 nodes a puzzle fall to about 1.3: docs/solver-kernel.md, I1).

use super::cages::CageInfo;
use super::tables::Tables;
use crate::bitset::CellSet;
use crate::geometry::Cell;

/// Largest derived constraint kept for side `n`: larger grids keep more.
// Tuned: docs/solver-kernel.md, rows I1 (two cells on 9x9) and I2 (n / 2 past it).
fn max_len(n: usize) -> usize {
    if n <= 9 {
        2
    } else {
        n / 2
    }
}
/// Largest derived constraint over cells that need not differ (the kernel's rule for those
/// works on one or two cells).
pub(crate) const MAX_LOOSE: usize = 2;
/// At most this many derived constraints (the kernel tracks them in one 64-bit word).
pub(crate) const MAX_VIRTUAL: usize = 64;

/// A derived sum constraint: `cells` add up to `sum`; `distinct` when they all see each other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Virtual {
    pub(crate) cells: CellSet,
    pub(crate) len: usize,
    pub(crate) sum: u16,
    pub(crate) distinct: bool,
}

/// Cells, count and total of some cages taken together.
#[derive(Copy, Clone, Debug, Default)]
struct Tally {
    cells: CellSet,
    len: usize,
    sum: i64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.cells = self.cells.union(&other.cells);
        self.len += other.len;
        self.sum += other.sum;
    }
}

/// A cage's row and column intervals (a cage is connected, so both are intervals) and its box
/// if it lies in one.
type Span = ([(usize, usize); 2], Option<usize>);

/// Scratch of the derivation, kept between puzzles.
#[derive(Clone, Debug, Default)]
pub(crate) struct Deriver {
    /// Each cage as a tally of its own.
    cages: Vec<Tally>,
    /// Where each cage lies.
    spans: Vec<Span>,
    /// The cage of each cell (`u16::MAX` if uncaged): the one real cage a derived constraint
    /// could copy is the cage of its first cell.
    cage_at: Vec<u16>,
    /// The boxes each cage meets (bit per box).
    boxes_met: Vec<u32>,
    /// Per direction, the cages whose interval is `[i, j]`, at `i * n + j`.
    by_interval: Vec<Tally>,
    /// The derived constraints.
    pub(crate) found: Vec<Virtual>,
}

impl Deriver {
    /// Fill `found` with the innie and outie constraints of the cages, smallest first, without
    /// repeats or copies of real cages.
    pub(crate) fn derive(&mut self, tables: &Tables, infos: &[CageInfo], cells: &[u8]) {
        let n = tables.n;
        self.found.clear();
        self.cages.clear();
        self.spans.clear();
        self.cage_at.clear();
        self.boxes_met.clear();
        self.cage_at.resize(tables.cells, u16::MAX);
        for (i, info) in infos.iter().enumerate() {
            let members = &cells[info.start as usize..][..info.len as usize];
            let mut tally = Tally {
                len: members.len(),
                sum: info.sum as i64,
                ..Tally::default()
            };
            let box_of = |c: u8| tables.houses_of[c as usize][2] as usize - 2 * n;
            let mut span = ([(n, 0); 2], Some(box_of(members[0])));
            let mut met = 0u32;
            for &c in members {
                met |= 1 << box_of(c);
                tally.cells.insert(Cell::new(c));
                self.cage_at[c as usize] = i as u16;
                let [row, col, _] = tables.houses_of[c as usize].map(usize::from);
                for (line, at) in span.0.iter_mut().zip([row, col - n]) {
                    *line = (line.0.min(at), line.1.max(at));
                }
                if span.1 != Some(box_of(c)) {
                    span.1 = None;
                }
            }
            self.cages.push(tally);
            self.spans.push(span);
            self.boxes_met.push(met);
        }
        let mut caged = Tally::default();
        for t in &self.cages {
            caged.add(t);
        }
        for dir in 0..2 {
            self.lines(tables, &caged, dir);
        }
        self.boxes(tables);
        self.found.sort_by_key(|v| v.len);
        self.found.truncate(MAX_VIRTUAL);
    }

    /// Every run of 1..N-1 consecutive rows (dir 0) or columns (dir 1). A cage lies inside the
    /// run when its interval does, and meets it unless it lies wholly before or after it.
    fn lines(&mut self, tables: &Tables, caged: &Tally, dir: usize) {
        let n = tables.n;
        self.by_interval.clear();
        self.by_interval.resize(n * n, Tally::default());
        let mut before = [Tally::default(); 17];
        let mut after = [Tally::default(); 17];
        // Per end `j`, the starts `i` of the intervals `[i, j]` some cage has (bit per start):
        // most intervals have none, and adding an empty tally changes nothing.
        let mut starts = [0u32; 16];
        for (t, span) in self.cages.iter().zip(&self.spans) {
            let (i, j) = span.0[dir];
            self.by_interval[i * n + j].add(t);
            starts[j] |= 1 << i;
            before[j + 1].add(t);
            after[i].add(t);
        }
        // Make them cumulative: `before[lo]` ends before `lo`, `after[hi + 1]` starts past `hi`.
        for i in 1..=n {
            let prev = before[i - 1];
            before[i].add(&prev);
            let next = after[n - i + 1];
            after[n - i].add(&next);
        }
        for (lo, before_lo) in before[..n].iter().enumerate() {
            let mut inside = Tally::default();
            let mut region = CellSet::EMPTY;
            for hi in lo..n.min(lo + n - 1) {
                let mut from = starts[hi] >> lo << lo;
                while from != 0 {
                    let i = from.trailing_zeros() as usize;
                    from &= from - 1;
                    let t = self.by_interval[i * n + hi];
                    inside.add(&t);
                }
                region = region.union(&tables.house_bits[dir * n + hi]);
                let outside = [before_lo, &after[hi + 1]];
                self.region(tables, &region, hi - lo + 1, &inside, caged, outside);
            }
        }
    }

    /// Every box (or jigsaw region) alone.
    fn boxes(&mut self, tables: &Tables) {
        let n = tables.n;
        let mut inside = [Tally::default(); 16];
        let mut meeting = [Tally::default(); 16];
        for ((t, span), &met) in self.cages.iter().zip(&self.spans).zip(&self.boxes_met) {
            let mut bits = met;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                meeting[b].add(t);
            }
            if let Some(b) = span.1 {
                inside[b].add(t);
            }
        }
        for b in 0..n {
            let region = tables.house_bits[2 * n + b];
            let none = Tally::default();
            self.region(tables, &region, 1, &inside[b], &meeting[b], [&none, &none]);
        }
    }

    /// Record the innies and outies of a union of `houses` houses, given the cages inside it
    /// and the cages meeting it (`meeting` less the two `outside` groups).
    fn region(
        &mut self,
        tables: &Tables,
        region: &CellSet,
        houses: usize,
        inside: &Tally,
        meeting: &Tally,
        outside: [&Tally; 2],
    ) {
        let n = tables.n;
        let size = houses * n;
        let total = (size * (n + 1) / 2) as i64;
        let innies = size - inside.len;
        if (1..=max_len(n)).contains(&innies) {
            let cells = region.difference(&inside.cells);
            self.push(tables, cells, innies, total - inside.sum);
        }
        // The counts first: most regions have too many outies, and their cell sets are not needed.
        let meeting_len = meeting.len - outside[0].len - outside[1].len;
        let outies = meeting_len.saturating_sub(size);
        if !(1..=max_len(n)).contains(&outies) {
            return;
        }
        let meeting_cells = meeting
            .cells
            .difference(&outside[0].cells)
            .difference(&outside[1].cells);
        // Outies need every cell of the region caged: an uncaged cell's digit is in no total.
        if region.is_subset(&meeting_cells) {
            let meeting_sum = meeting.sum - outside[0].sum - outside[1].sum;
            let cells = meeting_cells.difference(region);
            self.push(tables, cells, outies, meeting_sum - total);
        }
    }

    fn push(&mut self, tables: &Tables, cells: CellSet, len: usize, sum: i64) {
        let repeat = self.found.iter().any(|v| v.len == len && v.cells == cells);
        let copy = cells
            .iter()
            .next()
            .and_then(|c| self.cage_at.get(c.as_index()))
            .and_then(|&i| self.cages.get(i as usize))
            .is_some_and(|t| t.len == len && t.cells == cells);
        if repeat || copy {
            return;
        }
        // Distinct when every member sees every other member.
        let distinct = cells.iter().all(|a| {
            let mut others = cells;
            others.remove(a);
            others.is_subset(&tables.peer_bits[a.as_index()])
        });
        if !distinct && len > MAX_LOOSE {
            return;
        }
        self.found.push(Virtual {
            cells,
            len,
            // A negative total means no solution; 0 is as impossible for one cell or more.
            sum: sum.clamp(0, u16::MAX as i64) as u16,
            distinct,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    fn info(start: u16, len: u8, sum: u16) -> CageInfo {
        CageInfo {
            start,
            len,
            sum,
            distinct: true,
        }
    }

    #[test]
    fn innies_of_a_row_and_a_column() {
        // 4x4: cage {r1c1, r1c2} = 3 inside row 1, cage {r1c3, r2c3} = 7 across rows 1 and 2;
        // r1c4 and the rest of column 3 uncaged.
        let tables = Tables::new(&Geometry::standard(4).unwrap());
        let mut deriver = Deriver::default();
        deriver.derive(&tables, &[info(0, 2, 3), info(2, 2, 7)], &[0, 1, 2, 6]);
        let found = |cells: u64, sum: u16| Virtual {
            cells: CellSet::from_words([cells, 0, 0, 0]),
            len: cells.count_ones() as usize,
            sum,
            distinct: true,
        };
        // Row 1: 10 - 3 over r1c3 and r1c4. Column 3: 10 - 7 over r3c3 and r4c3.
        assert!(deriver.found.contains(&found(1 << 2 | 1 << 3, 7)));
        assert!(deriver.found.contains(&found(1 << 10 | 1 << 14, 3)));
        // Row 2 has uncaged cells, so it has no outies (r1c3 alone would be one).
        let r1c3 = CellSet::from_words([1 << 2, 0, 0, 0]);
        assert!(!deriver.found.iter().any(|v| v.cells == r1c3));
    }

    #[test]
    fn outies_of_a_fully_caged_row() {
        // 4x4: row 1 caged by {r1c1, r1c2} = 3 and {r1c3, r1c4, r2c4} = 8: the outie r2c4 holds
        // 3 + 8 - 10 = 1.
        let tables = Tables::new(&Geometry::standard(4).unwrap());
        let mut deriver = Deriver::default();
        deriver.derive(&tables, &[info(0, 2, 3), info(2, 3, 8)], &[0, 1, 2, 3, 7]);
        let outie = Virtual {
            cells: CellSet::from_words([1 << 7, 0, 0, 0]),
            len: 1,
            sum: 1,
            distinct: true,
        };
        assert!(deriver.found.contains(&outie), "{:?}", deriver.found);
    }
}
