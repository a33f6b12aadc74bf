//! House partitions: the cages lying in a house and its other empty cells share out the digits
//! the house lacks, each once.

use super::{unit_text, units, Unit, Units};
use crate::bitset::DigitSet;
use crate::geometry::House;
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::context::{Context, Memo};
use crate::grader::text::{house_name, set_text};

/// Search nodes a house partition may spend.
const PARTITION_NODES: usize = 20_000;

/// The search of a house partition: pick one combination per cage unit, no digit twice, and
/// leave digits the free cells can take one each.
struct Partition<'a> {
    /// The combinations of each cage unit.
    cages: Vec<&'a [u16]>,
    free: Vec<u16>,
    /// Per cage unit, the combinations some partition uses (bit per combination index).
    used: Vec<u32>,
    /// Union of the digits the free cells take in some partition.
    free_digits: u16,
    picks: Vec<usize>,
    nodes: usize,
}

impl Partition<'_> {
    fn go(&mut self, i: usize, left: u16) {
        self.nodes += 1;
        if self.nodes > PARTITION_NODES {
            return;
        }
        if i == self.cages.len() {
            if matches(&self.free, left) {
                for (j, &p) in self.picks.iter().enumerate() {
                    self.used[j] |= 1 << p;
                }
                self.free_digits |= left;
            }
            return;
        }
        for p in 0..self.cages[i].len() {
            let m = self.cages[i][p];
            if m & !left == 0 {
                self.picks[i] = p;
                self.go(i + 1, left & !m);
            }
        }
    }
}

/// Can the cells (candidate masks) take the digits of `left` one each (as many cells as digits)?
/// A bipartite matching by augmenting paths (Kuhn): polynomial, where trying every assignment
/// was exponential on 16x16 houses with many free cells and no matching.
fn matches(cells: &[u16], left: u16) -> bool {
    /// Finds a digit for cell `i`, moving earlier cells to other digits of theirs if need be.
    fn augment(
        cells: &[u16],
        left: u16,
        i: usize,
        owner: &mut [usize; 16],
        seen: &mut u16,
    ) -> bool {
        let mut opts = cells[i] & left & !*seen;
        while opts != 0 {
            let d = opts.trailing_zeros() as usize;
            opts &= opts - 1;
            *seen |= 1 << d;
            if owner[d] == usize::MAX || augment(cells, left, owner[d], owner, seen) {
                owner[d] = i;
                return true;
            }
        }
        false
    }
    if cells.len() != left.count_ones() as usize {
        return false;
    }
    let mut owner = [usize::MAX; 16];
    (0..cells.len()).all(|i| augment(cells, left, i, &mut owner, &mut 0))
}

/// House partition: the cages lying in a house and its other empty cells share out the digits the
/// house lacks, each once. A combination of a cage that no such sharing uses dies; a free cell
/// keeps only digits some sharing leaves it.
pub fn house_partition(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let n = board.size();
    let mut units = Units::default();
    for h in 0..board.geometry().house_count() {
        let house = House::new(h as u8);
        if ctx.unchanged_house(board, Memo::HousePartition, h) {
            continue;
        }
        let before = out.len();
        partition_in(board, house, n, &mut units, out);
        if out.len() == before {
            ctx.remember(board, Memo::HousePartition, h);
        }
    }
}

fn partition_in(board: &Board, house: House, n: usize, scratch: &mut Units, out: &mut Vec<Step>) {
    {
        if !units(board, house, scratch) {
            return;
        }
        let scratch = &*scratch;
        let units = &scratch.list;
        let cages: Vec<&Unit> = units.iter().filter(|u| u.cage.is_some()).collect();
        if cages.is_empty()
            || (cages.len() < 2 && units.len() - cages.len() < 2)
            || cages.iter().any(|u| scratch.combos(u).len() > 32)
        {
            return;
        }
        let free_units: Vec<&Unit> = units.iter().filter(|u| u.cage.is_none()).collect();
        let missing = DigitSet::all(n).difference(board.placed_in(house)).bits();
        let mut search = Partition {
            used: vec![0; cages.len()],
            picks: vec![0; cages.len()],
            free: free_units
                .iter()
                .map(|u| scratch.combos(u).iter().fold(0, |a, &m| a | m))
                .collect(),
            cages: cages.iter().map(|u| scratch.combos(u)).collect(),
            free_digits: 0,
            nodes: 0,
        };
        search.go(0, missing);
        if search.nodes > PARTITION_NODES || search.used.contains(&0) {
            return;
        }
        let mut step = Step::new(Technique::HousePartition);
        let mut dead = Vec::new();
        for (j, (u, combos)) in cages.iter().zip(&search.cages).enumerate() {
            let may = combos
                .iter()
                .enumerate()
                .filter(|&(p, _)| search.used[j] & (1 << p) != 0)
                .fold(0u16, |a, (_, &m)| a | m);
            for (p, &m) in combos.iter().enumerate() {
                if search.used[j] & (1 << p) == 0 {
                    dead.push(set_text(DigitSet::from_bits(m)));
                }
            }
            for &c in u.cells.iter() {
                let gone = board.candidates(c).bits() & !may;
                step.eliminations
                    .extend(DigitSet::from_bits(gone).iter().map(|x| (c, x)));
            }
        }
        for u in &free_units {
            let c = u.cells[0];
            let gone = board.candidates(c).bits() & !search.free_digits;
            step.eliminations
                .extend(DigitSet::from_bits(gone).iter().map(|x| (c, x)));
        }
        if step.eliminations.is_empty() {
            return;
        }
        if board.explaining() {
            let names: Vec<String> = cages.iter().map(|u| unit_text(board, u)).collect();
            step.reason = format!(
                "the cages {} and the other cells of {} share out its digits once each{}",
                names.join(", "),
                house_name(board.geometry(), house),
                match dead.is_empty() {
                    true => String::new(),
                    false => format!(", which rules out {}", dead.join(", ")),
                }
            );
        }
        step.houses.push(house);
        step.cages = cages.iter().filter_map(|u| u.cage).collect();
        step.cells = units.iter().flat_map(|u| u.cells.iter().copied()).collect();
        out.push(step);
    }
}

#[cfg(test)]
mod tests {
    use super::matches;
    use rand::{Rng, SeedableRng};

    /// Every assignment tried: the obvious answer the matching must agree with.
    fn brute(cells: &[u16], left: u16) -> bool {
        match cells.split_first() {
            None => left == 0,
            Some((&c, rest)) => (0..16)
                .filter(|d| c & left & (1 << d) != 0)
                .any(|d| brute(rest, left & !(1 << d))),
        }
    }

    #[test]
    fn matching_agrees_with_trying_every_assignment() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(45);
        let mut both = [0usize; 2];
        for _ in 0..20_000 {
            let n = rng.random_range(0..=7usize);
            let width = rng.random_range(n.max(1) as u32..=9u32);
            let all = (1u16 << width) - 1;
            let cells: Vec<u16> = (0..n).map(|_| rng.random::<u16>() & all).collect();
            let mut left = 0u16;
            while (left.count_ones() as usize) < n {
                left |= 1 << rng.random_range(0..width);
            }
            let expected = brute(&cells, left);
            both[expected as usize] += 1;
            assert_eq!(matches(&cells, left), expected, "{cells:?} {left:#b}");
        }
        // Both answers occur often, so the comparison means something.
        assert!(both[0] > 1_000 && both[1] > 1_000, "{both:?}");
    }
}
