//! Alternating inference chains over candidates: X-chains (one digit), XY-chains (bivalue cells)
//! and AICs (both, plus killer cage links).
//!
//! A node is "digit d in cell c". A strong link (at least one end true) comes from a bivalue cell,
//! a digit's only two places in a house, or a digit every combination of a cage needs with two
//! places left in the cage. A weak link (at most one end true) joins two digits of one cell or one
//! digit in two cells that see each other (a house or a cage). A chain that starts and ends with
//! a strong link proves that one of its ends is true. Search is breadth first from every start,
//! so the shortest chain wins; lengths are bounded.

use super::{cage_name, digits, name, open_cells, sees, strong_links, Board, LinkVia};
use crate::bitset::CellSet;
use crate::geometry::{Cell, Digit};
use crate::grader::step::{Step, Technique};

/// Which links a chain may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// One digit: house and cage strong links, weak links between cells.
    XChain,
    /// Bivalue cells: strong links inside cells, weak links between cells on one digit.
    XyChain,
    /// Everything.
    Aic,
}

impl Mode {
    fn max_links(self) -> usize {
        match self {
            Mode::XChain | Mode::XyChain => 11,
            Mode::Aic => 13,
        }
    }
    fn technique(self) -> Technique {
        match self {
            Mode::XChain => Technique::XChain,
            Mode::XyChain => Technique::XyChain,
            Mode::Aic => Technique::Aic,
        }
    }
}

/// Where a strong link comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Via {
    Cell,
    Link(LinkVia),
}

/// Placements or eliminations.
type Marks = Vec<(Cell, Digit)>;

fn node(cell: Cell, digit: Digit) -> usize {
    cell.as_index() * 16 + digit.as_index()
}
fn cell_of(n: usize) -> Cell {
    Cell::new((n / 16) as u8)
}
fn digit_of(n: usize) -> Digit {
    Digit::new((n % 16) as u8 + 1)
}

/// XY-chain: a chain of bivalue cells; one end holds the digit.
pub fn find_xy_chain(board: &Board) -> Option<Step> {
    search(board, Mode::XyChain)
}

/// Alternating inference chain (with cage links in killers).
pub fn find_aic(board: &Board) -> Option<Step> {
    search(board, Mode::Aic)
}

struct Graph {
    strong: Vec<Vec<(usize, Via)>>,
    peers: Vec<CellSet>,
    digit_cells: Vec<CellSet>,
    /// For a cell of a cage with two empty cells left: the other cell, the two cells' sum, and
    /// the cage (digits that do not add up to it cannot both be true: a weak link).
    pair: Vec<Option<(Cell, u16, usize)>>,
}

/// The two-empty-cell cages of the board, per cell.
fn cage_pairs(board: &Board) -> Vec<Option<(Cell, u16, usize)>> {
    let mut pair = vec![None; board.geometry().cell_count()];
    for (k, cage) in board.puzzle().cages().iter().enumerate() {
        let open: Vec<Cell> = cage
            .cells
            .iter()
            .copied()
            .filter(|&c| board.is_empty(c))
            .collect();
        if open.len() != 2 {
            continue;
        }
        let placed: u16 = cage
            .cells
            .iter()
            .filter_map(|&c| board.placed(c))
            .map(|d| u16::from(d.get()))
            .sum();
        let Some(rest) = cage.sum.checked_sub(placed) else {
            continue;
        };
        pair[open[0].as_index()] = Some((open[1], rest, k));
        pair[open[1].as_index()] = Some((open[0], rest, k));
    }
    pair
}

fn build(board: &Board, mode: Mode) -> Graph {
    let g = board.geometry();
    let cells = g.cell_count();
    let mut strong: Vec<Vec<(usize, Via)>> = vec![Vec::new(); cells * 16];
    let mut digit_cells = vec![CellSet::EMPTY; 16];
    for c in open_cells(board) {
        for d in board.candidates(c).iter() {
            digit_cells[d.as_index()].insert(c);
        }
    }
    if mode != Mode::XyChain {
        for d in digits(board) {
            for l in strong_links(board, d) {
                strong[node(l.a, d)].push((node(l.b, d), Via::Link(l.via)));
                strong[node(l.b, d)].push((node(l.a, d), Via::Link(l.via)));
            }
        }
    }
    if mode != Mode::XChain {
        for c in open_cells(board) {
            let cand = board.candidates(c);
            if cand.len() == 2 {
                let mut it = cand.iter();
                let (x, y) = (it.next().unwrap(), it.next().unwrap());
                strong[node(c, x)].push((node(c, y), Via::Cell));
                strong[node(c, y)].push((node(c, x), Via::Cell));
            }
        }
    }
    let peers = super::peer_table(board);
    let pair = if mode == Mode::Aic {
        cage_pairs(board)
    } else {
        Vec::new()
    };
    Graph {
        strong,
        peers,
        digit_cells,
        pair,
    }
}

/// What a proven "one of these two nodes is true" removes.
fn conclusions(board: &Board, a: usize, b: usize) -> (Marks, Marks) {
    let (ca, da, cb, db) = (cell_of(a), digit_of(a), cell_of(b), digit_of(b));
    let mut elim = Vec::new();
    if a == b {
        return (vec![(ca, da)], elim);
    }
    if da == db {
        for c in open_cells(board) {
            if c != ca
                && c != cb
                && board.candidates(c).contains(da)
                && sees(board, c, ca)
                && sees(board, c, cb)
            {
                elim.push((c, da));
            }
        }
    } else if ca == cb {
        for d in board.candidates(ca).iter() {
            if d != da && d != db {
                elim.push((ca, d));
            }
        }
    } else if sees(board, ca, cb) {
        if board.candidates(ca).contains(db) {
            elim.push((ca, db));
        }
        if board.candidates(cb).contains(da) {
            elim.push((cb, da));
        }
    }
    elim.sort();
    (Vec::new(), elim)
}

/// The shortest chain of this mode with a conclusion, as a step.
pub(crate) fn search(board: &Board, mode: Mode) -> Option<Step> {
    let graph = build(board, mode);
    let total = graph.strong.len();
    // State = node * 2 + (1 if the node is true).
    let mut parent = vec![usize::MAX; total * 2];
    let mut depth = vec![0usize; total * 2];
    let mut seen_at = vec![usize::MAX; total * 2];
    let mut best: Option<(usize, Vec<usize>, Marks, Marks)> = None;
    let mut queue = Vec::new();
    let mut next: Vec<usize> = Vec::new();
    for start in 0..total {
        if graph.strong[start].is_empty() {
            continue;
        }
        let limit = best.as_ref().map_or(mode.max_links(), |b| b.0 - 1);
        if limit < 3 {
            break;
        }
        queue.clear();
        let s0 = start * 2;
        seen_at[s0] = start;
        parent[s0] = usize::MAX;
        depth[s0] = 0;
        queue.push(s0);
        let mut head = 0;
        'bfs: while head < queue.len() {
            let state = queue[head];
            head += 1;
            if depth[state] >= limit {
                continue;
            }
            let n = state / 2;
            let is_true = state % 2 == 1;
            next.clear();
            if !is_true {
                next.extend(graph.strong[n].iter().map(|&(m, _)| m * 2 + 1));
            } else {
                let (c, d) = (cell_of(n), digit_of(n));
                // Same digit in cells that see this one.
                if mode != Mode::XyChain || board.candidates(c).len() == 2 {
                    for p in graph.peers[c.as_index()]
                        .intersection(&graph.digit_cells[d.as_index()])
                        .iter()
                    {
                        if mode == Mode::XyChain && board.candidates(p).len() != 2 {
                            continue;
                        }
                        next.push(node(p, d) * 2);
                    }
                }
                // Other digits of the same cell, and in a two-cell cage the partner digits that
                // miss the sum.
                if mode == Mode::Aic {
                    for e in board.candidates(c).iter() {
                        if e != d {
                            next.push(node(c, e) * 2);
                        }
                    }
                    if let Some((o, sum, _)) = graph.pair[c.as_index()] {
                        for w in board.candidates(o).iter() {
                            if w != d && u16::from(d.get() + w.get()) != sum {
                                next.push(node(o, w) * 2);
                            }
                        }
                    }
                }
            }
            for &s in &next {
                if seen_at[s] == start {
                    continue;
                }
                seen_at[s] = start;
                parent[s] = state;
                depth[s] = depth[state] + 1;
                queue.push(s);
                if s % 2 == 1 && depth[s] >= 3 {
                    let (place, elim) = conclusions(board, start, s / 2);
                    if !place.is_empty() || !elim.is_empty() {
                        let mut path = vec![s];
                        while let Some(&last) = path.last() {
                            if parent[last] == usize::MAX {
                                break;
                            }
                            path.push(parent[last]);
                        }
                        path.reverse();
                        best = Some((depth[s], path, place, elim));
                        break 'bfs;
                    }
                }
            }
        }
    }
    let (_, path, place, elim) = best?;
    Some(chain_step(board, &graph, mode, &path, place, elim))
}

fn chain_step(
    board: &Board,
    graph: &Graph,
    mode: Mode,
    path: &[usize],
    place: Vec<(Cell, Digit)>,
    elim: Vec<(Cell, Digit)>,
) -> Step {
    let nodes: Vec<usize> = path.iter().map(|s| s / 2).collect();
    let mut text = String::new();
    let single = mode == Mode::XChain;
    let label = |n: usize| {
        if single {
            name(board, cell_of(n))
        } else {
            format!("({}){}", digit_of(n).get(), name(board, cell_of(n)))
        }
    };
    text.push_str(&label(nodes[0]));
    let mut cages = Vec::new();
    let mut houses = Vec::new();
    for (i, w) in nodes.windows(2).enumerate() {
        if i % 2 == 0 {
            // Strong link from w[0] to w[1].
            let via = graph.strong[w[0]]
                .iter()
                .find(|&&(m, _)| m == w[1])
                .map(|&(_, v)| v);
            match via {
                Some(Via::Link(LinkVia::Cage(k))) => {
                    text.push_str(&format!(" =[{}]= ", cage_name(board, k)));
                    cages.push(k);
                }
                Some(Via::Link(LinkVia::House(h))) => {
                    houses.push(h);
                    text.push_str(" = ");
                }
                _ => text.push_str(" = "),
            }
        } else if cell_of(w[0]) != cell_of(w[1]) && digit_of(w[0]) != digit_of(w[1]) {
            // A weak link through the sum of a two-cell cage.
            let k = graph.pair[cell_of(w[0]).as_index()].map_or(0, |(_, _, k)| k);
            text.push_str(&format!(" -[{}]- ", cage_name(board, k)));
            cages.push(k);
        } else {
            text.push_str(" - ");
        }
        text.push_str(&label(w[1]));
    }
    let (first, last) = (nodes[0], *nodes.last().unwrap());
    let first_last = format!(
        "({}){} or ({}){}",
        digit_of(first).get(),
        name(board, cell_of(first)),
        digit_of(last).get(),
        name(board, cell_of(last))
    );
    let what = match mode {
        Mode::XChain => format!("X-chain on {}", digit_of(first).get()),
        Mode::XyChain => "XY-chain".to_string(),
        Mode::Aic => "Alternating inference chain".to_string(),
    };
    let mut step = Step::new(mode.technique());
    step.reason = if place.is_empty() {
        format!("{what}: {text}; {first_last} is true")
    } else {
        format!(
            "{what}: {text}; if {} were not {} it would have to be, so it is",
            name(board, cell_of(first)),
            digit_of(first).get()
        )
    };
    let mut cells: Vec<Cell> = nodes.iter().map(|&n| cell_of(n)).collect();
    cells.dedup();
    step.cells = cells;
    cages.sort();
    cages.dedup();
    step.cages = cages;
    houses.sort();
    houses.dedup();
    step.houses = houses;
    step.placements = place;
    step.eliminations = elim;
    step
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grader::techniques::plain::test_util::*;

    #[test]
    fn xy_chain_of_four_cells() {
        let p = empty(9);
        let mut b = board(&p);
        // r1c1 {1,2} - r1c5 {2,3} - r4c5 {3,4} - r4c9 {4,1}: r1c1 or r4c9 is 1.
        set(&mut b, 1, 1, &[1, 2]);
        set(&mut b, 1, 5, &[2, 3]);
        set(&mut b, 4, 5, &[3, 4]);
        set(&mut b, 4, 9, &[1, 4]);
        let step = find_xy_chain(&b).unwrap();
        assert_eq!(step.technique, Technique::XyChain);
        // r1c9 and r4c1 see both ends.
        assert_eq!(step.eliminations, cells_digit(&b, &[(1, 9), (4, 1)], 1));
        assert_eq!(
            step.reason,
            "XY-chain: (1)r1c1 = (2)r1c1 - (2)r1c5 = (3)r1c5 - (3)r4c5 = (4)r4c5 - (4)r4c9 = (1)r4c9; (1)r1c1 or (1)r4c9 is true"
        );
    }

    #[test]
    fn aic_through_a_cell_and_two_houses() {
        let p = empty(9);
        let mut b = board(&p);
        // (1)r1c1 = (2)r1c1 - (2)r1c5 = (2)r7c5 - (1)r7c5 = (1)r7c1: r1c1 or r7c1 is 1.
        set(&mut b, 1, 1, &[1, 2]);
        only_in_col(&mut b, 2, 5, &[1, 7]);
        only_in_row(&mut b, 1, 7, &[1, 5]);
        assert!(find_xy_chain(&b).is_none());
        assert!(super::super::find_x_chain(&b).is_none());
        let step = find_aic(&b).unwrap();
        assert_eq!(step.technique, Technique::Aic);
        let want: Vec<_> = [2, 3, 4, 5, 6, 8, 9].map(|r| (r, 1)).to_vec();
        assert_eq!(step.eliminations, cells_digit(&b, &want, 1));
        assert_eq!(
            step.reason,
            "Alternating inference chain: (1)r1c1 = (2)r1c1 - (2)r1c5 = (2)r7c5 - (1)r7c5 = (1)r7c1; (1)r1c1 or (1)r7c1 is true"
        );
    }

    #[test]
    fn aic_through_the_sum_of_a_two_cell_cage() {
        // 10(2) at r5c1, r6c1: r5c1 {3,6}, r6c1 {4,7}, so 6 in r5c1 rules out 7 in r6c1.
        let p = killer(9, &[(10, &[(5, 1), (6, 1)])]);
        let mut b = board(&p);
        set(&mut b, 5, 1, &[3, 6]);
        set(&mut b, 6, 1, &[4, 7]);
        set(&mut b, 5, 9, &[3, 7]);
        only_in_row(&mut b, 7, 6, &[1, 9]);
        assert!(find_xy_chain(&b).is_none());
        let step = find_aic(&b).unwrap();
        // (3)r5c1 = (6)r5c1 -cage- (7)r6c1 = (7)r6c9 - (7)r5c9 = (3)r5c9: row 5 loses 3.
        let want: Vec<_> = (2..=8).map(|c| (5, c)).collect();
        assert_eq!(step.eliminations, cells_digit(&b, &want, 3));
        assert_eq!(step.cages, vec![0]);
        assert!(
            step.reason
                .contains("(6)r5c1 -[the 10(2) cage at r5c1]- (7)r6c1"),
            "{}",
            step.reason
        );
    }
}
