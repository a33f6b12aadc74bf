//! A grid shape's house tables, built once per thread and shape and shared by every board and
//! finder context graded on it.

use crate::bitset::CellSet;
use crate::geometry::{Cell, Geometry, House};
use std::cell::RefCell;
use std::sync::Arc;

/// The houses of one geometry, in the forms the board and the finders read.
#[derive(Debug)]
pub(crate) struct Houses {
    /// The geometry these tables are of.
    geometry: Geometry,
    /// Cells of every house (rows, columns, regions), as sets.
    pub(crate) sets: Arc<Vec<CellSet>>,
    /// Cells of every house in index order, N per house.
    pub(crate) cells: Vec<Cell>,
    /// The three houses of every cell.
    pub(crate) of_cell: Vec<[u8; 3]>,
    /// Cells sharing a row, column or region with each cell (not the cell itself).
    pub(crate) peers: Arc<Vec<CellSet>>,
}

thread_local! {
    /// The tables of the last geometry graded on this thread: a generator thread grades
    /// thousands of puzzles of one shape, and building them per board and context (a region's
    /// cells are found by scanning the grid, each house's list grown as it is collected) was
    /// 1.7% of the instructions of 9x9 `generate --level any`.
    static LAST: RefCell<Option<Arc<Houses>>> = const { RefCell::new(None) };
}

impl Houses {
    /// The tables of `geometry`: this thread's last ones when they are of the same geometry.
    pub(crate) fn of(geometry: &Geometry) -> Arc<Houses> {
        LAST.with_borrow_mut(|last| match last {
            Some(h) if h.geometry == *geometry => Arc::clone(h),
            _ => Arc::clone(last.insert(Arc::new(Houses::build(geometry)))),
        })
    }

    fn build(g: &Geometry) -> Houses {
        let lists: Vec<Vec<Cell>> = (0..g.house_count())
            .map(|h| g.house_cells(House::new(h as u8)))
            .collect();
        let sets: Vec<CellSet> = lists
            .iter()
            .map(|cells| cells.iter().copied().collect())
            .collect();
        let peers = g
            .cells()
            .map(|c| {
                let [a, b, k] = g.houses_of(c).map(|h| &sets[h.as_index()]);
                let mut s = a.union(b).union(k);
                s.remove(c);
                s
            })
            .collect();
        Houses {
            geometry: g.clone(),
            cells: lists.concat(),
            of_cell: g
                .cells()
                .map(|c| g.houses_of(c).map(|h| h.as_index() as u8))
                .collect(),
            sets: Arc::new(sets),
            peers: Arc::new(peers),
        }
    }
}
