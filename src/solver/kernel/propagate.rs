//! The propagation loop: new singles first, then the cage rules, the derived sums, hidden
//! singles (and in a hard search the cage crossings), box-line reduction, the linear sums and
//! the exact cage rule, cheapest first, back to the start whenever one of them changes anything.

use super::{Contradiction, Search, State, Step, DIRTY_WORDS, QUEUE};

impl Search<'_> {
    /// Apply every deduction until none applies (or a contradiction shows).
    pub(super) fn propagate(&mut self, st: &mut State) -> Step {
        loop {
            while self.qlen > 0 {
                self.qlen -= 1;
                let c = self.queue[self.qlen & (QUEUE - 1)] as usize;
                self.assign(st, c)?;
            }
            if let Some(i) = self.pop_dirty() {
                self.cheap_cage(st, i, 0)?;
                continue;
            }
            if self.vdirty != 0 {
                let i = self.vdirty.trailing_zeros() as usize;
                self.vdirty &= self.vdirty - 1;
                let info = self.cages.virtuals[i];
                if info.distinct {
                    self.cage(st, info)?;
                } else {
                    self.sum_only(st, info)?;
                }
                continue;
            }
            // The linear sums before the exact cage rule: a linear sum costs a fifth of an exact
            // cage, and what it prunes the exact rule then sees at once (the same fixpoint).
            // This order, cheapest first: docs/solver-kernel.md, rows K6-K9.
            let before = self.edits;
            self.hidden_singles(st)?;
            if self.qlen == 0
                && self.edits == before
                && !self.locked_candidates(st)?
                && !self.linear_sums(st)?
                && !self.exact_cages(st)?
            {
                return Ok(());
            }
        }
    }

    /// The derived linear sums, last (they cost the most): true once one of them pruned.
    pub(super) fn linear_sums(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        let Some(set) = self.linear_set else {
            return Ok(false);
        };
        let before = self.edits;
        while let Some(i) = self.pop_linear() {
            self.linear(st, set.sums[i])?;
            if self.edits != before {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The cheap rule of real cage `i` (which holds `must`), leaving it to the exact rule when
    /// that could find more.
    #[inline(always)]
    pub(super) fn cheap_cage(&mut self, st: &mut State, i: usize, must: u16) -> Step {
        if self.real_cage(st, i, must, false)? && self.exact {
            self.xdirty[(i >> 6) & (DIRTY_WORDS - 1)] |= 1 << (i & 63);
        }
        Ok(())
    }

    /// The exact cage rule over the cages changed since it last saw them (hard searches only,
    /// after the cheaper rules): true once one of them pruned.
    pub(super) fn exact_cages(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        if !self.exact {
            return Ok(false);
        }
        let before = self.edits;
        for w in 0..self.dirty_words {
            while self.xdirty[w] != 0 {
                let tz = self.xdirty[w].trailing_zeros() as usize;
                self.xdirty[w] &= self.xdirty[w] - 1;
                self.real_cage(st, w * 64 + tz, 0, true)?;
                if self.edits != before {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    #[inline]
    pub(super) fn pop_linear(&mut self) -> Option<usize> {
        for w in 0..4 {
            if self.ldirty[w] != 0 {
                let tz = self.ldirty[w].trailing_zeros() as usize;
                self.ldirty[w] &= self.ldirty[w] - 1;
                return Some(w * 64 + tz);
            }
        }
        None
    }

    #[inline]
    pub(super) fn pop_dirty(&mut self) -> Option<usize> {
        let count = self.cages.cages.len();
        for w in 0..self.dirty_words {
            while self.dirty[w] != 0 {
                let tz = self.dirty[w].trailing_zeros() as usize;
                self.dirty[w] &= self.dirty[w] - 1;
                let i = w * 64 + tz;
                if i < count {
                    return Some(i);
                }
            }
        }
        None
    }

    /// A digit with one place left in a house goes there; a digit with none is a contradiction.
    /// In a hard search, also the cage crossings (`crossings`).
    pub(super) fn hidden_singles(&mut self, st: &mut State) -> Step {
        let tables = self.tables;
        let all = tables.all;
        let crossings = self.linear_set.is_some() && !self.cages.crossings_of_house.is_empty();
        // Only houses with a cell changed since the last look can find anything new.
        let mut todo = self.hdirty;
        self.hdirty = 0;
        self.sdirty |= todo;
        while todo != 0 {
            let h = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let done = st.placed[h];
            if done == all {
                continue;
            }
            if crossings {
                self.crossings(st, h, done)?;
                continue;
            }
            let cells = tables.house(h);
            let (mut ones, mut twos) = (0u16, 0u16);
            for &c in cells {
                let x = st.cand[c as usize];
                twos |= ones & x;
                ones |= x;
            }
            self.place_hidden(st, cells, ones, twos, done)?;
        }
        Ok(())
    }

    /// The hidden singles of a house: `ones` and `twos` are the digits its `cells` hold once
    /// and more than once, `done` those placed.
    #[inline(always)]
    pub(super) fn place_hidden(
        &mut self,
        st: &mut State,
        cells: &[u8],
        ones: u16,
        twos: u16,
        done: u16,
    ) -> Step {
        if ones != self.tables.all {
            return Err(Contradiction);
        }
        let mut hidden = ones & !twos & !done;
        while hidden != 0 {
            let b = hidden & hidden.wrapping_neg();
            hidden ^= b;
            // An earlier hidden single of this house may have taken the only cell of `b`.
            let c = cells
                .iter()
                .map(|&c| c as usize)
                .find(|&c| st.cand[c] & b != 0)
                .ok_or(Contradiction)?;
            self.set(st, c, b)?;
        }
        Ok(())
    }
}
