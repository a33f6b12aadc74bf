//! Derived linear sums for hard killers: over a union of houses (a run of rows or columns, or a
//! box) the digits add up to a known total, so the cages mostly inside it (the pieces) fix the
//! difference between the piece cells sticking out (+1 each) and the region cells the pieces
//! leave uncovered (-1 each). Innies (nothing sticks out), outies (nothing left uncovered) and
//! the mixed innie-outie sums all come out of one rule, without the small size limit of
//! `innies`, as are the rest of each house beside the cages wholly inside it (a hidden cage).
//!
//! After the region and cage unions of sigh's Interactive Sudoku Solver (`optimizer.js`:
//! `_makeInnieOutieSumHandlers`, `_makeHiddenCageHandlers`), written anew for this kernel. The
//! kernel enforces them only once a search proves hard (they cost more than they save on the
//! published killers, which need one or two nodes).

use super::cages::CageInfo;
use super::tables::Tables;
use crate::bitset::CellSet;
use crate::geometry::Cell;

/// At most this many linear sums (the kernel tracks them in a 256-bit set).
pub(crate) const MAX_LINEAR: usize = 256;
/// At most this many cells in one linear sum.
pub(crate) const MAX_TERMS: usize = 24;

/// One cell of a linear sum: its coefficient is +1 or -1, and cells of one `group` (all of one
/// sign) see each other, so they hold distinct digits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Term {
    pub(crate) cell: u8,
    pub(crate) negative: bool,
    pub(crate) group: u8,
}

/// A derived sum: `terms[start..start + len]` add up to `sum` (coefficients +-1).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Linear {
    pub(crate) start: u16,
    pub(crate) len: u8,
    pub(crate) sum: i16,
    /// All positive and mutually distinct: a cage in all but name, checked by combinations (its
    /// cells are in `LinearSet::cells`).
    pub(crate) cage: Option<CageInfo>,
    /// How many of the derived sums it stands for: 2 when its negation (the same cells with
    /// every sign flipped and the total negated) was derived too. The kernel's rules read a sum
    /// and its negation alike, so it keeps one; the branching's first conflict counts still
    /// count both.
    pub(crate) weight: u8,
}

/// The linear sums of one puzzle and which cells each one reads.
#[derive(Clone, Debug, Default)]
pub(crate) struct LinearSet {
    pub(crate) sums: Vec<Linear>,
    pub(crate) terms: Vec<Term>,
    /// Per cell, the sums holding it.
    pub(crate) of_cell: Vec<[u64; 4]>,
    /// Per cell, the sums holding it or one of its peers.
    pub(crate) near_cell: Vec<[u64; 4]>,
    /// The cells of the cage-like sums (see `Linear::cage`).
    pub(crate) cells: Vec<u8>,
    /// Keys (positive cells, negative cells) of the sums found, for removing repeats, with the
    /// index of the sum that stands for each.
    seen: Vec<(CellSet, CellSet, usize)>,
}

/// Cells kept in one linear sum of side `n`. Each sum is examined whenever one of its cells
/// changes, and the long ones rarely prune.
// Tuned: docs/solver-kernel.md, row D2 (six cells for 9x9; 2n, unmeasured, past it).
fn max_terms(n: usize) -> usize {
    let most = if n <= 9 { 6 } else { 2 * n };
    MAX_TERMS.min(most).min(2 * n)
}

impl LinearSet {
    /// Derive the sums of a puzzle with the given cages (`cells` holds their cells; `known`
    /// lists cell sets whose sums the kernel already has, skipped here).
    pub(crate) fn derive(
        &mut self,
        tables: &Tables,
        infos: &[CageInfo],
        cells: &[u8],
        known: &[CellSet],
    ) {
        self.sums.clear();
        self.terms.clear();
        self.seen.clear();
        self.cells.clear();
        let n = tables.n;
        let cages: Vec<(CellSet, usize, i64)> = infos
            .iter()
            .map(|info| {
                let members = &cells[info.start as usize..][..info.len as usize];
                let b = members.iter().map(|&c| Cell::new(c)).collect();
                (b, info.len as usize, info.sum as i64)
            })
            .collect();
        let house_total = (n * (n + 1) / 2) as i64;
        let mut found: Vec<(CellSet, CellSet, i64)> = Vec::new();
        let mut regions: Vec<(CellSet, i64)> = Vec::new();
        for dir in 0..2 {
            for lo in 0..n {
                let mut region = CellSet::EMPTY;
                for hi in lo..n.min(lo + n - 1) {
                    region = region.union(&tables.house_bits[dir * n + hi]);
                    regions.push((region, (hi - lo + 1) as i64 * house_total));
                }
            }
        }
        for b in 0..n {
            regions.push((tables.house_bits[2 * n + b], house_total));
        }
        for (region, total) in &regions {
            // Three choices of pieces: the cages wholly inside, those mostly inside, and every
            // cage meeting the region.
            for rule in 0..3 {
                let (mut pieces, mut sum) = (CellSet::EMPTY, 0i64);
                for (cage, len, s) in &cages {
                    let inside = cage.intersection(region).len();
                    let take = match rule {
                        0 => inside == *len,
                        1 => 2 * inside > *len,
                        _ => inside > 0,
                    };
                    if take {
                        pieces = pieces.union(cage);
                        sum += s;
                    }
                }
                let mut plus = pieces.difference(region);
                let mut minus = region.difference(&pieces);
                let mut sum = sum - total;
                // A whole house on either side adds a known total: fold it into the sum (a sum
                // of whole houses alone says nothing and costs a pass over its cells each time).
                for house in &tables.house_bits[..3 * n] {
                    for (part, sign) in [(&mut plus, 1), (&mut minus, -1)] {
                        if house.is_subset(part) {
                            *part = part.difference(house);
                            sum -= sign * house_total;
                        }
                    }
                }
                let size = plus.len() + minus.len();
                if size == 0 || size > max_terms(n) {
                    continue;
                }
                found.push((plus, minus, sum));
            }
        }
        found.sort_by_key(|(p, m, _)| p.len() + m.len());
        // Sums found, their negations that joined them included (so that the cap keeps the
        // same equations as when both were kept).
        let mut kept = 0;
        for (plus, minus, sum) in found {
            if kept == MAX_LINEAR {
                break;
            }
            if self.seen.iter().any(|&(p, m, _)| (p, m) == (plus, minus))
                || (minus.is_empty() && known.contains(&plus))
            {
                continue;
            }
            if cages.iter().any(|(c, _, _)| minus.is_empty() && *c == plus) {
                continue;
            }
            kept += 1;
            // The negation of a sum kept already: the same equation, enforced alike (row D3 of
            // docs/solver-kernel.md). An all-positive sum stays, since it may be cage-like.
            let twin = self
                .seen
                .iter()
                .find(|&&(p, m, _)| (p, m) == (minus, plus))
                .map(|&(_, _, i)| i);
            match twin {
                Some(i) if !minus.is_empty() => {
                    self.sums[i].weight += 1;
                    self.seen.push((plus, minus, i));
                }
                _ => {
                    self.seen.push((plus, minus, self.sums.len()));
                    self.push(tables, &plus, &minus, sum);
                }
            }
        }
        self.of_cell.clear();
        self.of_cell.resize(tables.cells, [0; 4]);
        self.near_cell.clear();
        self.near_cell.resize(tables.cells, [0; 4]);
        for (i, s) in self.sums.iter().enumerate() {
            for t in &self.terms[s.start as usize..][..s.len as usize] {
                let c = t.cell as usize;
                self.of_cell[c][i >> 6] |= 1 << (i & 63);
                self.near_cell[c][i >> 6] |= 1 << (i & 63);
                for &p in tables.peers(c) {
                    self.near_cell[p as usize][i >> 6] |= 1 << (i & 63);
                }
            }
        }
    }

    /// The cells of a cage-like sum.
    #[inline]
    pub(crate) fn cells_in(&self, info: CageInfo) -> &[u8] {
        &self.cells[info.start as usize..info.start as usize + info.len as usize]
    }

    /// Store one sum, grouping its cells greedily into sets of mutual peers.
    fn push(&mut self, tables: &Tables, plus: &CellSet, minus: &CellSet, sum: i64) {
        let start = self.terms.len();
        let mut groups: Vec<(CellSet, bool)> = Vec::new();
        for (part, negative) in [(plus, false), (minus, true)] {
            for c in part.iter() {
                let peers = &tables.peer_bits[c.as_index()];
                let g = groups
                    .iter()
                    .position(|(g, neg)| *neg == negative && g.is_subset(peers));
                let g = match g {
                    Some(g) => g,
                    None => {
                        groups.push((CellSet::EMPTY, negative));
                        groups.len() - 1
                    }
                };
                groups[g].0.insert(c);
                self.terms.push(Term {
                    cell: c.get(),
                    negative,
                    group: g as u8,
                });
            }
        }
        // Keep each group's cells together (the kernel walks a group as one run).
        self.terms[start..].sort_by_key(|t| t.group);
        let len = self.terms.len() - start;
        let cage = (groups.len() == 1 && !groups[0].1 && sum > 0).then(|| {
            let at = self.cells.len() as u16;
            self.cells
                .extend(self.terms[start..].iter().map(|t| t.cell));
            CageInfo {
                start: at,
                len: len as u8,
                sum: sum as u16,
                distinct: true,
            }
        });
        self.sums.push(Linear {
            start: start as u16,
            len: len as u8,
            sum: sum.clamp(i16::MIN as i64, i16::MAX as i64) as i16,
            cage,
            weight: 1,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    #[test]
    fn innie_outie_of_a_row() {
        // 4x4: cage {r1c1, r1c2, r2c2} = 7 mostly in row 1; row 1 sums to 10, so r2c2 - r1c3 -
        // r1c4 = 7 - 10 = -3.
        let tables = Tables::new(&Geometry::standard(4).unwrap());
        let info = CageInfo {
            start: 0,
            len: 3,
            sum: 7,
            distinct: true,
        };
        let mut set = LinearSet::default();
        set.derive(&tables, &[info], &[0, 1, 5], &[]);
        let found = set.sums.iter().any(|s| {
            let terms = &set.terms[s.start as usize..][..s.len as usize];
            let mut t: Vec<(u8, bool)> = terms.iter().map(|t| (t.cell, t.negative)).collect();
            t.sort();
            s.sum == -3 && t == [(2, true), (3, true), (5, false)]
        });
        assert!(found);
    }

    #[test]
    fn whole_houses_fold_into_the_total() {
        // 4x4: one cage {r1c1, r1c2} = 3. Rows 1 and 2 together say r1c3 + r1c4 + row 2 = 17;
        // row 2 adds up to 10, so that is row 1's r1c3 + r1c4 = 7 again (one sum), and no sum
        // keeps a whole house.
        let tables = Tables::new(&Geometry::standard(4).unwrap());
        let info = CageInfo {
            start: 0,
            len: 2,
            sum: 3,
            distinct: true,
        };
        let mut set = LinearSet::default();
        set.derive(&tables, &[info], &[0, 1], &[]);
        let cells_of = |s: &Linear| -> Vec<(u8, bool)> {
            let mut t: Vec<(u8, bool)> = set.terms[s.start as usize..][..s.len as usize]
                .iter()
                .map(|t| (t.cell, t.negative))
                .collect();
            t.sort();
            t
        };
        let pair = set
            .sums
            .iter()
            .filter(|s| cells_of(s) == [(2, true), (3, true)])
            .collect::<Vec<_>>();
        assert_eq!(pair.len(), 1);
        assert_eq!(pair[0].sum, -7);
        for s in &set.sums {
            let cells: Vec<u8> = cells_of(s).iter().map(|&(c, _)| c).collect();
            for h in 0..12 {
                assert!(
                    !tables.house(h).iter().all(|c| cells.contains(c)),
                    "house {h} whole in {cells:?}"
                );
            }
        }
    }
}
