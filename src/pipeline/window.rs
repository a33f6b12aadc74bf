//! Positions worked on all threads with no barrier between batches, results taken in position
//! order: each worker takes the next free position as soon as it finishes one, within a window
//! ahead of the first position not yet taken, so a slow item holds up only the rows after it
//! (bounded) instead of idling every other thread until a whole batch is done.
//!
//! Measured on `generate --size 12 --count 3000 --seed 6` (2 threads), where items take 0.7 to
//! 56 ms: with a parallel batch per chunk, each chunk waited 20-45 ms for its slowest items, 4.5%
//! of the run's wall time.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// How often a worker waiting for the window to move checks `stop`.
const POLL: Duration = Duration::from_millis(50);

/// Which positions the workers may take.
struct Gate {
    state: Mutex<GateState>,
    moved: Condvar,
}

struct GateState {
    /// The next position to hand out.
    next: u64,
    /// Positions from here on wait until the window moves.
    limit: u64,
    /// No more positions are handed out (the consumer is done, or a worker panicked).
    closed: bool,
}

impl Gate {
    fn lock(&self) -> MutexGuard<'_, GateState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next position below `total` for a worker, once it is inside the window; `None` when
    /// the work is over (all handed out, `stop` set or the gate closed).
    fn claim(&self, total: u64, stop: &AtomicBool) -> Option<u64> {
        let mut g = self.lock();
        loop {
            if g.closed || g.next >= total || stop.load(Ordering::Relaxed) {
                return None;
            }
            if g.next < g.limit {
                g.next += 1;
                return Some(g.next - 1);
            }
            g = self
                .moved
                .wait_timeout(g, POLL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    fn update(&self, f: impl FnOnce(&mut GateState)) {
        f(&mut self.lock());
        self.moved.notify_all();
    }
}

/// Closes the gate when a worker unwinds, so that the others stop and the consumer sees the end
/// of the results (the scope then passes the panic on).
struct CloseOnPanic<'a>(&'a Gate);

impl Drop for CloseOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.update(|g| g.closed = true);
        }
    }
}

/// The consumer's side: the results in position order.
pub(super) struct Feed<'a, R> {
    results: Receiver<(u64, R)>,
    gate: &'a Gate,
    window: u64,
    /// The end of the positions.
    total: u64,
    /// The position of `pending[0]`.
    first: u64,
    /// Results received from `first` on, in position order (`None`: not in yet).
    pending: VecDeque<Option<R>>,
    /// How many results at the front of `pending` are in.
    ready: usize,
}

impl<R> Feed<'_, R> {
    /// The results of the next `n` positions (fewer at the end of the positions), in order, once
    /// all are in; `None` when the workers stopped first (`stop` was set, or one panicked).
    pub(super) fn take(&mut self, n: u64) -> Option<Vec<R>> {
        let n = n.min(self.total.saturating_sub(self.first)) as usize;
        // The batch may be longer than the window: let the workers reach its end.
        let end = self.first + n as u64;
        self.gate.update(|g| g.limit = g.limit.max(end));
        while self.ready < n {
            let (pos, result) = self.results.recv().ok()?;
            self.put(pos, result);
        }
        let out = self.pending.drain(..n).flatten().collect();
        self.ready -= n;
        self.advance(n as u64);
        Some(out)
    }

    fn count_ready(&mut self) {
        while self.pending.get(self.ready).is_some_and(Option::is_some) {
            self.ready += 1;
        }
    }

    /// The results in hand from the next position on, as far as they run without a gap (what
    /// `take` could not complete once the workers stopped).
    pub(super) fn take_ready(&mut self) -> Vec<R> {
        while let Ok((pos, result)) = self.results.try_recv() {
            self.put(pos, result);
        }
        let n = self.ready;
        let out = self.pending.drain(..n).flatten().collect();
        self.ready = 0;
        self.advance(n as u64);
        out
    }

    fn put(&mut self, pos: u64, result: R) {
        let Some(i) = pos.checked_sub(self.first) else {
            return; // skipped over (see `skip_to`)
        };
        let i = i as usize;
        if self.pending.len() <= i {
            self.pending.resize_with(i + 1, || None);
        }
        self.pending[i] = Some(result);
        self.count_ready();
    }

    /// Continue at `pos` (ahead of the next position): the results before it are dropped.
    pub(super) fn skip_to(&mut self, pos: u64) {
        if let Some(gap) = pos.checked_sub(self.first) {
            let drop = (gap as usize).min(self.pending.len());
            self.pending.drain(..drop);
            self.ready = 0;
            self.count_ready();
            self.advance(gap);
            self.gate.update(|g| g.next = g.next.max(pos));
        }
    }

    fn advance(&mut self, n: u64) {
        self.first += n;
        let limit = self.first.saturating_add(self.window);
        self.gate.update(|g| g.limit = g.limit.max(limit));
    }
}

/// Run `work` on positions `from..total` on every thread of `pool`, handing the results to
/// `consume` (on the calling thread) through a `Feed`. Workers run at most `window` positions
/// ahead of the first result `consume` has not taken (or to the end of the batch it is taking),
/// and take no new position once `stop` is set or `consume` has returned.
pub(super) fn in_order<R: Send, T>(
    pool: &rayon::ThreadPool,
    (from, total): (u64, u64),
    window: u64,
    stop: &AtomicBool,
    work: impl Fn(u64) -> R + Sync,
    consume: impl FnOnce(&mut Feed<'_, R>) -> T,
) -> T {
    let window = window.max(1);
    let gate = Gate {
        state: Mutex::new(GateState {
            next: from,
            limit: from.saturating_add(window),
            closed: false,
        }),
        moved: Condvar::new(),
    };
    pool.in_place_scope(|scope| {
        let (sender, results) = channel();
        for _ in 0..pool.current_num_threads() {
            let (sender, gate, work) = (sender.clone(), &gate, &work);
            scope.spawn(move |_| {
                let _close = CloseOnPanic(gate);
                while let Some(pos) = gate.claim(total, stop) {
                    if sender.send((pos, work(pos))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut feed = Feed {
            results,
            gate: &gate,
            window,
            total,
            first: from,
            pending: VecDeque::new(),
            ready: 0,
        };
        let out = consume(&mut feed);
        gate.update(|g| g.closed = true);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// Work that takes longer on some positions, so results arrive out of order.
    fn uneven(pos: u64) -> u64 {
        if pos.is_multiple_of(7) {
            std::thread::sleep(Duration::from_millis(2));
        }
        pos * pos
    }

    #[test]
    fn results_come_in_position_order_in_any_batch_sizes() {
        for threads in [1, 2, 3] {
            let never = AtomicBool::new(false);
            let taken = in_order(&pool(threads), (5, 300), 16, &never, uneven, |feed| {
                let mut taken = Vec::new();
                for n in [1, 3, 16, 7, 100, 1000] {
                    taken.extend(feed.take(n).unwrap());
                }
                taken
            });
            let expected: Vec<u64> = (5..300).map(|p| p * p).collect();
            assert_eq!(taken, expected, "{threads} threads");
        }
    }

    #[test]
    fn workers_stay_inside_the_window() {
        let started = AtomicU64::new(0);
        let never = AtomicBool::new(false);
        let work = |pos: u64| {
            started.fetch_add(1, Ordering::SeqCst);
            pos
        };
        in_order(&pool(3), (0, 1000), 10, &never, work, |feed| {
            assert_eq!(feed.take(4).unwrap(), vec![0, 1, 2, 3]);
            // Taken 4: the workers fill the window, positions below 4 + 10, and must stop there.
            // No sleep: once 14 have started, the gate itself says it handed out no more.
            while started.load(Ordering::SeqCst) < 14 {
                std::thread::yield_now();
            }
            let gate = feed.gate.lock();
            assert_eq!((gate.next, gate.limit), (14, 14));
            drop(gate);
            feed.take(996).unwrap();
        });
    }

    #[test]
    fn skipping_drops_the_results_before_the_new_position() {
        let never = AtomicBool::new(false);
        let taken = in_order(&pool(2), (0, 100), 8, &never, uneven, |feed| {
            let mut taken = feed.take(3).unwrap();
            feed.skip_to(50);
            taken.extend(feed.take(5).unwrap());
            feed.skip_to(40); // behind: nothing changes
            taken.extend(feed.take(1).unwrap());
            taken
        });
        assert_eq!(taken, vec![0, 1, 4, 2500, 2601, 2704, 2809, 2916, 3025]);
    }

    #[test]
    fn stop_ends_the_feed_and_the_workers() {
        let stop = AtomicBool::new(false);
        let done = AtomicU64::new(0);
        let work = |pos: u64| {
            if pos == 20 {
                stop.store(true, Ordering::SeqCst);
            }
            done.fetch_add(1, Ordering::SeqCst);
            pos
        };
        let got = in_order(&pool(2), (0, 1_000_000), 64, &stop, work, |feed| {
            let first = feed.take(10);
            let rest = feed.take(1_000_000);
            (first, (rest, feed.take_ready()))
        });
        assert_eq!(got.0, Some((0..10).collect::<Vec<_>>()));
        let (rest, ready) = got.1;
        assert_eq!(rest, None);
        // What was made before the stop, from 10 on without a gap, is still handed over.
        assert!(ready.len() >= 11, "{ready:?}");
        assert!(ready.iter().copied().eq(10..10 + ready.len() as u64));
        assert!(done.load(Ordering::SeqCst) < 100);
    }

    #[test]
    fn a_panicking_worker_does_not_hang_the_others() {
        let never = AtomicBool::new(false);
        let outcome = std::panic::catch_unwind(|| {
            in_order(
                &pool(2),
                (0, 1000),
                4,
                &never,
                |pos| {
                    assert!(pos != 9, "work failed at 9");
                    pos
                },
                |feed| feed.take(1000),
            )
        });
        assert!(outcome.is_err());
    }
}
