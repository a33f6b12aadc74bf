//! Streams of independent items (puzzles to solve or grade): read on a thread of their own one
//! batch ahead, worked in parallel batches, handed back in input order on the calling thread.
//! Reading and writing overlap the work, so a file is handled about as fast as the work alone.

use super::PipelineError;
use rayon::prelude::*;
use std::sync::mpsc::sync_channel;

/// Items per parallel batch: with one batch read ahead and one being handed back, memory stays
/// bounded whatever the input's length.
const BATCH: usize = 1024;

/// How an ordered stream ended early.
#[derive(Debug)]
pub enum Stop<E> {
    /// An item of the input failed: the results before it were handed back.
    Input(E),
    /// Handing a result back failed (e.g. a closed pipe).
    Output(std::io::Error),
    /// The reader thread could not be started.
    Pipeline(PipelineError),
}

/// Read `items` on a reader thread, apply `work` to each on `threads` workers (0 = one per
/// core), and call `emit` with each item and its result in input order. The first `Err` item
/// stops the stream after the results before it.
///
/// Three stages overlap, one batch apart: reading (its own thread), the work (the pool, driven
/// by a thread of its own), and handing back (the calling thread). A failed `emit` returns at
/// once: the other stages stop at their next batch, or end with the process.
pub fn ordered<T, R, E>(
    items: impl Iterator<Item = Result<T, E>> + Send + 'static,
    threads: usize,
    work: impl Fn(&T) -> R + Send + Sync + 'static,
    mut emit: impl FnMut(T, R) -> std::io::Result<()>,
) -> Result<(), Stop<E>>
where
    T: Send + Sync + 'static,
    R: Send + 'static,
    E: Send + 'static,
{
    ordered_batches(items, threads, work, |batch, results| {
        for (item, result) in batch.into_iter().zip(results) {
            emit(item, result)?;
        }
        Ok(())
    })
}

/// The three stages of [`ordered`], handing back whole batches with their results.
fn ordered_batches<T, R, E>(
    items: impl Iterator<Item = Result<T, E>> + Send + 'static,
    threads: usize,
    work: impl Fn(&T) -> R + Send + Sync + 'static,
    mut emit: impl FnMut(Vec<T>, Vec<R>) -> std::io::Result<()>,
) -> Result<(), Stop<E>>
where
    T: Send + Sync + 'static,
    R: Send + 'static,
    E: Send + 'static,
{
    let pool = super::thread_pool(threads).map_err(Stop::Pipeline)?;
    let (to_work, read) = sync_channel::<(Vec<T>, Option<E>)>(1);
    let reader = spawn("reader", move || {
        let mut items = items.fuse();
        loop {
            let mut batch = Vec::with_capacity(BATCH);
            let mut failure = None;
            for item in items.by_ref().take(BATCH) {
                match item {
                    Ok(item) => batch.push(item),
                    Err(err) => {
                        failure = Some(err);
                        break;
                    }
                }
            }
            let last = failure.is_some() || batch.len() < BATCH;
            // A closed channel means the stream was given up: stop reading.
            if to_work.send((batch, failure)).is_err() || last {
                return;
            }
        }
    })?;
    let (to_emit, worked) = sync_channel::<(Vec<T>, Vec<R>, Option<E>)>(1);
    let worker = spawn("worker", move || {
        for (batch, failure) in read.iter() {
            let results = pool.install(|| batch.par_iter().map(&work).collect());
            if to_emit.send((batch, results, failure)).is_err() {
                return;
            }
        }
        join(reader);
    })?;
    for (batch, results, failure) in worked.iter() {
        emit(batch, results).map_err(Stop::Output)?;
        if let Some(err) = failure {
            return Err(Stop::Input(err));
        }
    }
    join(worker);
    Ok(())
}

/// [`ordered`] with `emit` lending each item instead of giving it away: each batch, once
/// handed back, goes back to the reader thread to be freed there. Freeing memory on the thread
/// that allocated it is cheaper (the allocator's per-thread caches take it back, with no lock
/// shared between threads) and leaves the calling thread only the handing back.
pub fn ordered_by_ref<T, R, E>(
    items: impl Iterator<Item = Result<T, E>> + Send + 'static,
    threads: usize,
    work: impl Fn(&T) -> R + Send + Sync + 'static,
    mut emit: impl FnMut(&T, R) -> std::io::Result<()>,
) -> Result<(), Stop<E>>
where
    T: Send + Sync + 'static,
    R: Send + 'static,
    E: Send + 'static,
{
    // Unbounded, but holds at most the few batches handed back while the reader waits.
    let (to_free, handed_back) = std::sync::mpsc::channel::<Vec<T>>();
    let items = FreeingBehind {
        items,
        handed_back,
        count: 0,
    };
    ordered_batches(items, threads, work, |batch, results| {
        for (item, result) in batch.iter().zip(results) {
            emit(item, result)?;
        }
        // The reader may have stopped already: then the batch is freed here.
        let _ = to_free.send(batch);
        Ok(())
    })
}

/// The reader's items, freeing the batches handed back at the start of each batch.
struct FreeingBehind<I, T> {
    items: I,
    handed_back: std::sync::mpsc::Receiver<Vec<T>>,
    count: usize,
}

impl<I: Iterator, T> Iterator for FreeingBehind<I, T> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        if self.count.is_multiple_of(BATCH) {
            while let Ok(batch) = self.handed_back.try_recv() {
                drop(batch);
            }
        }
        self.count += 1;
        self.items.next()
    }
}

fn spawn<E>(
    name: &str,
    body: impl FnOnce() + Send + 'static,
) -> Result<std::thread::JoinHandle<()>, Stop<E>> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(body)
        .map_err(|e| {
            Stop::Pipeline(PipelineError::Threads {
                threads: 1,
                detail: format!("the {name} thread: {e}"),
            })
        })
}

/// Wait for a stage whose channel closed: it finished, or it panicked, which must not pass for
/// the end of the input.
fn join(stage: std::thread::JoinHandle<()>) {
    if let Err(panic) = stage.join() {
        std::panic::resume_unwind(panic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_input_order_across_batches_and_threads() {
        for threads in [1, 2, 3] {
            let items = (0..3 * BATCH as u64 + 7).map(Ok::<u64, String>);
            let mut seen = Vec::new();
            ordered(
                items,
                threads,
                |&x| x * x,
                |x, sq| {
                    seen.push((x, sq));
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(seen.len(), 3 * BATCH + 7);
            assert!(seen
                .iter()
                .enumerate()
                .all(|(i, &(x, sq))| x == i as u64 && sq == x * x));
            let items = (0..3 * BATCH as u64 + 7).map(|x| Ok::<String, String>(x.to_string()));
            let mut lent = Vec::new();
            ordered_by_ref(
                items,
                threads,
                |x| x.len(),
                |x, len| {
                    lent.push((x.parse::<usize>().unwrap(), len));
                    Ok(())
                },
            )
            .unwrap();
            assert!(lent.len() == 3 * BATCH + 7);
            assert!(lent
                .iter()
                .enumerate()
                .all(|(i, &(x, len))| x == i && len == i.to_string().len()));
        }
    }

    #[test]
    fn an_input_error_stops_after_the_items_before_it() {
        let items = (0..2 * BATCH as u64).map(|x| match x {
            1500 => Err(format!("bad {x}")),
            x => Ok(x),
        });
        let mut count = 0;
        let stop = ordered(
            items,
            2,
            |&x| x,
            |_, _| {
                count += 1;
                Ok(())
            },
        );
        assert!(matches!(stop, Err(Stop::Input(e)) if e == "bad 1500"));
        assert_eq!(count, 1500);
    }

    #[test]
    fn an_output_error_stops_the_stream_at_once() {
        let items = (0..10 * BATCH as u64).map(Ok::<u64, String>);
        let mut count = 0;
        let stop = ordered(
            items,
            1,
            |&x| x,
            |_, _| {
                count += 1;
                match count {
                    10 => Err(std::io::Error::other("closed")),
                    _ => Ok(()),
                }
            },
        );
        assert!(matches!(stop, Err(Stop::Output(_))));
        assert_eq!(count, 10);
    }
}
