//! Box-line reduction (locked candidates) over the box-line parts, and the cage crossings: the
//! same rule with a cage for the box, read in the hidden-singles pass of a hard search.

use super::state::MUST_CAGES;
use super::{Contradiction, Search, State, Step};
use crate::geometry::MAX_CELLS;
use crate::solver::tables::Tables;

/// Most parts (box-line meetings, `Tables::part_cells`): every cell once along rows and once
/// along columns.
pub(super) const MAX_PARTS: usize = 2 * MAX_CELLS;

/// The union of the candidates `cand` of every part of `tables` (`Tables::part_cells`) into
/// `unions`: for boxes in closed form (row parts are runs of cells, column parts the same
/// columns of a band's rows), which the compiler unrolls for 9x9.
#[inline(always)]
fn read_parts(tables: &Tables, cand: &[u16; MAX_CELLS], unions: &mut [u16; MAX_PARTS]) {
    match tables.box_shape {
        Some((3, 3)) => read_box_parts(cand, unions, 9, 3, 3),
        Some((rows, cols)) => read_box_parts(cand, unions, tables.n, rows, cols),
        None => {
            let chunks = tables.part_cells.chunks_exact(tables.part_len);
            for (u, cells) in unions.iter_mut().zip(chunks) {
                *u = cells.iter().fold(0, |u, &c| u | cand[c as usize]);
            }
        }
    }
}

/// `read_parts` for boxes of `rows` x `cols` cells in a grid of side `n`.
#[inline(always)]
fn read_box_parts(
    cand: &[u16; MAX_CELLS],
    unions: &mut [u16; MAX_PARTS],
    n: usize,
    rows: usize,
    cols: usize,
) {
    let cells = n * n;
    let (row_parts, col_parts) = unions.split_at_mut(cells / cols);
    for (u, run) in row_parts.iter_mut().zip(cand[..cells].chunks_exact(cols)) {
        *u = run.iter().fold(0, |u, &x| u | x);
    }
    for (band, out) in col_parts[..cells / rows].chunks_exact_mut(n).enumerate() {
        let first = band * rows * n;
        out.copy_from_slice(&cand[first..first + n]);
        for i in 1..rows {
            let row = &cand[first + i * n..first + (i + 1) * n];
            for (u, &x) in out.iter_mut().zip(row) {
                *u |= x;
            }
        }
    }
}

impl Search<'_> {
    /// Box-line reduction over every segment: a digit of the intersection missing from the rest
    /// of the box leaves the rest of the line, and one missing from the rest of the line leaves
    /// the rest of the box. All digits at once, from three unions of candidates, each the union
    /// of parts (box-line meetings, each shared by five segments on 9x9), all read once per
    /// call and again after a removal (rare; docs/solver-kernel.md, row K5).
    /// True if any candidate was removed.
    pub(super) fn locked_candidates(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        let tables = self.tables;
        let mut any = false;
        // Only segments whose box or line changed since the last look can find anything new.
        let todo = self.sdirty | self.hdirty;
        self.sdirty = 0;
        if todo == 0 {
            return Ok(false);
        }
        self.read_parts(st);
        for seg in &tables.segments {
            if seg.houses & todo == 0 {
                continue;
            }
            let parts = &tables.segment_parts[seg.parts as usize..];
            let (in_box_parts, rest) = parts[1..].split_at(seg.box_parts as usize);
            let union = |ps: &[u16]| {
                ps.iter()
                    .fold(0, |u, &p| u | self.part_union[p as usize & (MAX_PARTS - 1)])
            };
            let in_meet = self.part_union[parts[0] as usize & (MAX_PARTS - 1)];
            let in_box = union(in_box_parts);
            let in_line = union(&rest[..seg.line_parts as usize]);
            let from_line = in_meet & !in_box & in_line;
            let from_box = in_meet & !in_line & in_box;
            if from_line | from_box == 0 {
                continue;
            }
            let cells = &tables.segment_cells[seg.start as usize..];
            let (meet, rest) = (seg.meet as usize, seg.rest as usize);
            for (gone, part) in [
                (from_line, &cells[meet + rest..meet + 2 * rest]),
                (from_box, &cells[meet..meet + rest]),
            ] {
                if gone != 0 {
                    any = true;
                    for &c in part {
                        self.remove(st, c as usize, gone)?;
                    }
                }
            }
            self.read_parts(st);
        }
        Ok(any)
    }

    /// The union of candidates of every part into `part_union`.
    #[inline]
    pub(super) fn read_parts(&mut self, st: &State) {
        read_parts(self.tables, &st.cand, &mut self.part_union);
    }

    /// Hidden singles of house `h` (`done` its placed digits) read part by part, cage by cage,
    /// and the cage crossings: a digit the rest of a house cannot hold sits where a cage crosses
    /// that house, so it leaves the rest of the cage, and the cage must hold it (`State::must`,
    /// which the cage rules read).
    #[inline(always)]
    pub(super) fn crossings(&mut self, st: &mut State, h: usize, done: u16) -> Step {
        let cages = self.cages;
        let (first, end) = cages.crossings_of_house[h];
        let parts = &cages.crossings[first as usize..end as usize];
        let mut unions = [0u16; 16];
        let (mut ones, mut twos, mut part_ones, mut part_twos) = (0u16, 0u16, 0u16, 0u16);
        for (u, x) in unions.iter_mut().zip(parts) {
            let cells = &cages.crossing_cells[x.start as usize..][..x.meet as usize];
            let mut union = 0;
            for &c in cells {
                let x = st.cand[c as usize];
                twos |= ones & x;
                ones |= x;
                union |= x;
            }
            *u = union;
            part_twos |= part_ones & union;
            part_ones |= union;
        }
        self.place_hidden(st, self.tables.house(h), ones, twos, done)?;
        // Digits in one part only, but not in one cell only (hidden singles, placed above).
        let once = part_ones & !part_twos & !done & !(ones & !twos);
        if once == 0 {
            return Ok(());
        }
        let real = cages.cages.len() as u16;
        for (&u, x) in unions.iter().zip(parts) {
            let gone = u & once;
            if gone == 0 || x.cage == real {
                continue;
            }
            let at = x.start as usize + x.meet as usize;
            for &c in &cages.crossing_cells[at..][..x.cage_rest as usize] {
                if st.cand[c as usize] & gone != 0 {
                    self.remove(st, c as usize, gone)?;
                }
            }
            let k = x.cage as usize;
            if k >= MUST_CAGES {
                self.cheap_cage(st, k, gone)?;
            } else if gone & !st.must[k] != 0 {
                st.must[k] |= gone;
                self.cheap_cage(st, k, 0)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{read_parts, MAX_PARTS};
    use crate::geometry::{Geometry, MAX_CELLS};
    use crate::solver::tables::Tables;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    #[test]
    fn parts_of_boxes_in_closed_form_match_their_cells() {
        let mut rng = Pcg64::seed_from_u64(7);
        for (n, rows, cols) in [(9, 3, 3), (12, 3, 4), (16, 4, 4), (6, 2, 3), (8, 4, 2)] {
            let tables = Tables::new(&Geometry::boxed(n, rows, cols).unwrap());
            for _ in 0..20 {
                let mut cand = [0u16; MAX_CELLS];
                for x in &mut cand[..tables.cells] {
                    *x = rng.random::<u16>() & tables.all;
                }
                let mut got = [0u16; MAX_PARTS];
                read_parts(&tables, &cand, &mut got);
                let chunks = tables.part_cells.chunks_exact(tables.part_len);
                assert_eq!(chunks.len(), tables.cells / rows + tables.cells / cols);
                for (p, cells) in chunks.enumerate() {
                    let want = cells.iter().fold(0, |u, &c| u | cand[c as usize]);
                    assert_eq!(got[p], want, "{n}x{n} part {p}");
                }
            }
        }
    }
}
