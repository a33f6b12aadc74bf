//! Per-geometry tables built once per solver: house cells, peers (as lists and bitboards).

use super::combos::Combos;
use crate::bitset::CellSet;
use crate::geometry::{Cell, Geometry, House, MAX_CELLS};

/// Where a box (or jigsaw region) meets a row or column in two or more cells.
#[derive(Clone, Debug)]
pub(crate) struct Segment {
    /// The box's cells outside the intersection.
    pub(crate) box_rest: CellSet,
    /// The line's cells outside the intersection.
    pub(crate) line_rest: CellSet,
    /// Its cells in `Tables::segment_cells`: the intersection, the box's rest, the line's rest.
    pub(crate) start: u16,
    /// Cells in the intersection.
    pub(crate) meet: u8,
    /// Cells in the box's rest (the line's rest has as many: both houses hold N cells).
    pub(crate) rest: u8,
    /// Its box and its line as a bit set over houses (for the kernel's dirty houses).
    pub(crate) houses: u64,
    /// Its parts in `Tables::segment_parts`: the intersection, then the `box_parts` other parts
    /// of its box along its line's direction, then the `line_parts` other parts of its line.
    pub(crate) parts: u16,
    pub(crate) box_parts: u8,
    pub(crate) line_parts: u8,
}

/// Every table the kernel reads that depends on the geometry only.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    /// Side N.
    pub(crate) n: usize,
    /// Cells N².
    pub(crate) cells: usize,
    /// Every cell of the grid.
    pub(crate) grid: CellSet,
    /// Words of a cell set that hold cells: ceil(N² / 64), at most 4.
    pub(crate) words: usize,
    /// Digits 1..=N as bits.
    pub(crate) all: u16,
    /// The N cells of house `h` at `houses[h * n..(h + 1) * n]` (rows, columns, boxes).
    pub(crate) houses: Vec<u8>,
    /// The three houses of each cell.
    pub(crate) houses_of: Vec<[u8; 3]>,
    /// Peers of cell `c` at `peers[peer_start[c]..peer_start[c + 1]]`.
    pub(crate) peers: Vec<u8>,
    /// Offsets into `peers`, `cells + 1` of them.
    pub(crate) peer_start: Vec<u16>,
    /// The peers of each cell as a cell set.
    pub(crate) peer_bits: Box<[CellSet; MAX_CELLS]>,
    /// The cells of each house as a cell set.
    pub(crate) house_bits: Box<[CellSet; 64]>,
    /// The three houses of each cell as a bit set over houses.
    pub(crate) cell_houses: Box<[u64; MAX_CELLS]>,
    /// The houses that meet a cell or one of its peers, as a bit set over houses.
    pub(crate) peer_houses: Box<[u64; MAX_CELLS]>,
    /// Box-line intersections of two or more cells, for locked candidates.
    pub(crate) segments: Vec<Segment>,
    /// The cells of every segment (see `Segment::start`).
    pub(crate) segment_cells: Vec<u8>,
    /// The segments of box `b` (0-based among boxes) are
    /// `segments[segment_start[b]..segment_start[b + 1]]`.
    pub(crate) segment_start: Vec<u16>,
    /// Where each box meets each row (row by row), then each column: the cells of part `p` are
    /// `part_cells[p * part_len..(p + 1) * part_len]`, a cell repeated where a part has fewer.
    /// The parts along rows cover every cell once, and so do those along columns.
    pub(crate) part_cells: Vec<u8>,
    pub(crate) part_len: usize,
    /// Rows and columns of a box (`None` for jigsaw regions): the parts in closed form.
    pub(crate) box_shape: Option<(usize, usize)>,
    /// The parts of every segment (see `Segment::parts`).
    pub(crate) segment_parts: Vec<u16>,
    /// Digit combinations by (count, sum).
    pub(crate) combos: &'static Combos,
}

impl Tables {
    /// Build the tables for `geometry`.
    pub(crate) fn new(geometry: &Geometry) -> Self {
        let n = geometry.size();
        let cells = geometry.cell_count();
        let houses: Vec<u8> = (0..geometry.house_count())
            .flat_map(|h| geometry.house_cells(House::new(h as u8)))
            .map(Cell::get)
            .collect();
        let houses_of: Vec<[u8; 3]> = geometry
            .cells()
            .map(|c| geometry.houses_of(c).map(House::get))
            .collect();
        let mut peers = Vec::new();
        let mut peer_start = vec![0u16];
        let mut peer_bits = Vec::with_capacity(cells);
        for (c, hs) in houses_of.iter().enumerate() {
            let mut bits = CellSet::EMPTY;
            for &h in hs {
                let h = h as usize;
                for &p in &houses[h * n..(h + 1) * n] {
                    if p as usize != c {
                        bits.insert(Cell::new(p));
                    }
                }
            }
            peers.extend(bits.iter().map(Cell::get));
            peer_start.push(peers.len() as u16);
            peer_bits.push(bits);
        }
        let house_bits: Vec<CellSet> = houses
            .chunks(n)
            .map(|cells| cells.iter().map(|&p| Cell::new(p)).collect())
            .collect();
        let cell_houses: Vec<u64> = houses_of
            .iter()
            .map(|hs| hs.iter().fold(0, |m, &h| m | 1 << h))
            .collect();
        let peer_houses: Vec<u64> = (0..cells)
            .map(|c| {
                let start = peer_start[c] as usize..peer_start[c + 1] as usize;
                peers[start]
                    .iter()
                    .fold(cell_houses[c], |m, &p| m | cell_houses[p as usize])
            })
            .collect();
        // Parts: each box's meetings with the rows, then with the columns (part ids by box
        // and line, `u16::MAX` where they do not meet), padded to one length by repeating a cell.
        let mut meetings = Vec::new();
        let mut part_of = vec![[u16::MAX; 64]; n];
        for lines in [0..n, n..2 * n] {
            // Along rows, then along columns, each in the order of its first cell (for boxes:
            // row parts are runs of `box_cols` cells, column parts band by band).
            let mut half = Vec::new();
            for line in lines {
                for b in 2 * n..3 * n {
                    let meet = house_bits[b].intersection(&house_bits[line]);
                    if !meet.is_empty() {
                        half.push((
                            meet.iter().map(Cell::get).collect::<Vec<u8>>(),
                            b - 2 * n,
                            line,
                        ));
                    }
                }
            }
            half.sort_by_key(|(cells, _, _)| cells[0]);
            for (cells, b, line) in half {
                part_of[b][line] = meetings.len() as u16;
                meetings.push(cells);
            }
        }
        let part_len = meetings.iter().map(Vec::len).max().unwrap_or(1);
        let part_cells: Vec<u8> = meetings
            .iter()
            .flat_map(|cells| (0..part_len).map(|i| cells[i.min(cells.len() - 1)]))
            .collect();
        let mut segments = Vec::new();
        let mut segment_cells = Vec::new();
        let mut segment_start = vec![0u16];
        let mut segment_parts = Vec::new();
        for b in 2 * n..3 * n {
            for line in 0..2 * n {
                let (bx, ln) = (&house_bits[b], &house_bits[line]);
                let meet = bx.intersection(ln);
                let meet_len = meet.len();
                if meet_len >= 2 {
                    let box_rest = bx.difference(&meet);
                    let line_rest = ln.difference(&meet);
                    let start = segment_cells.len() as u16;
                    for part in [&meet, &box_rest, &line_rest] {
                        segment_cells.extend(part.iter().map(Cell::get));
                    }
                    let parts = segment_parts.len() as u16;
                    let box_row = &part_of[b - 2 * n];
                    segment_parts.push(box_row[line]);
                    let lines = if line < n { 0..n } else { n..2 * n };
                    let in_box: Vec<u16> = lines
                        .filter(|&l| l != line && box_row[l] != u16::MAX)
                        .map(|l| box_row[l])
                        .collect();
                    let in_line: Vec<u16> = (0..n)
                        .filter(|&o| o != b - 2 * n && part_of[o][line] != u16::MAX)
                        .map(|o| part_of[o][line])
                        .collect();
                    segment_parts.extend(&in_box);
                    segment_parts.extend(&in_line);
                    segments.push(Segment {
                        box_rest,
                        line_rest,
                        start,
                        meet: meet_len as u8,
                        rest: (n - meet_len) as u8,
                        houses: 1 << b | 1 << line,
                        parts,
                        box_parts: in_box.len() as u8,
                        line_parts: in_line.len() as u8,
                    });
                }
            }
            segment_start.push(segments.len() as u16);
        }
        // Fixed-length tables: a `u8` cell or a masked house index needs no bounds check.
        let mut fixed_peers = Box::new([CellSet::EMPTY; MAX_CELLS]);
        fixed_peers[..cells].copy_from_slice(&peer_bits);
        let mut fixed_houses = Box::new([CellSet::EMPTY; 64]);
        fixed_houses[..house_bits.len()].copy_from_slice(&house_bits);
        let mut fixed_cell_houses = Box::new([0; MAX_CELLS]);
        fixed_cell_houses[..cells].copy_from_slice(&cell_houses);
        let mut fixed_peer_houses = Box::new([0; MAX_CELLS]);
        fixed_peer_houses[..cells].copy_from_slice(&peer_houses);
        Tables {
            n,
            cells,
            grid: CellSet::first_n(cells),
            words: cells.div_ceil(64),
            all: crate::bitset::DigitSet::all(n).bits(),
            houses,
            houses_of,
            peers,
            peer_start,
            peer_bits: fixed_peers,
            house_bits: fixed_houses,
            cell_houses: fixed_cell_houses,
            peer_houses: fixed_peer_houses,
            segments,
            segment_cells,
            segment_start,
            part_cells,
            part_len,
            box_shape: geometry.box_shape(),
            segment_parts,
            combos: Combos::of(n),
        }
    }

    /// The cells of house `h`.
    #[inline]
    pub(crate) fn house(&self, h: usize) -> &[u8] {
        &self.houses[h * self.n..(h + 1) * self.n]
    }

    /// The peers of cell `c` (cells sharing a house with it, itself excluded).
    #[inline]
    pub(crate) fn peers(&self, c: usize) -> &[u8] {
        &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_by_nine_peers() {
        let tables = Tables::new(&Geometry::standard(9).unwrap());
        assert!((0..81).all(|c| tables.peers(c).len() == 20));
        assert_eq!(tables.house(9), &[0, 9, 18, 27, 36, 45, 54, 63, 72]);
        assert_eq!(tables.house(18), &[0, 1, 2, 9, 10, 11, 18, 19, 20]);
        assert_eq!(tables.houses_of[80], [8, 17, 26]);
        let p: Vec<u8> = tables.peer_bits[40].iter().map(Cell::get).collect();
        assert_eq!(p, tables.peers(40));
    }

    /// The cells of part `p`, without the repeats that pad it.
    fn part(tables: &Tables, p: u16) -> CellSet {
        let cells = &tables.part_cells[p as usize * tables.part_len..][..tables.part_len];
        cells.iter().map(|&c| Cell::new(c)).collect()
    }

    #[test]
    fn segment_parts_cover_the_meet_and_both_rests() {
        // A 4x4 jigsaw with regions of different shapes (an L, an S and squares would do).
        let jigsaw = Geometry::jigsaw(4, vec![0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 1, 3, 2, 3, 3, 3]);
        let geometries = [
            Geometry::standard(9).unwrap(),
            Geometry::standard(12).unwrap(),
            Geometry::standard(16).unwrap(),
            Geometry::boxed(6, 2, 3).unwrap(),
            jigsaw.unwrap(),
        ];
        for geometry in &geometries {
            let tables = Tables::new(geometry);
            let parts = tables.part_cells.len() / tables.part_len;
            // Along rows, then along columns, the parts cover every cell once: twice in all.
            let mut times = vec![0; tables.cells];
            for p in 0..parts {
                for c in part(&tables, p as u16).iter() {
                    times[c.as_index()] += 1;
                }
            }
            assert!(times.iter().all(|&t| t == 2));
            for seg in &tables.segments {
                let ids = &tables.segment_parts[seg.parts as usize..];
                let (boxes, rest) = ids[1..].split_at(seg.box_parts as usize);
                let lines = &rest[..seg.line_parts as usize];
                let union = |ps: &[u16]| {
                    ps.iter()
                        .fold(CellSet::EMPTY, |u, &p| u.union(&part(&tables, p)))
                };
                let cells = &tables.segment_cells[seg.start as usize..];
                let meet: Vec<u8> = part(&tables, ids[0]).iter().map(Cell::get).collect();
                assert_eq!(meet, &cells[..seg.meet as usize]);
                assert_eq!(union(boxes), seg.box_rest);
                assert_eq!(union(lines), seg.line_rest);
            }
        }
    }
}
