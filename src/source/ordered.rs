//! Jobs on several threads, their outputs handed on in the jobs' order, in bounded memory.
//!
//! A producer thread takes the jobs in order and gives each a bounded channel for its
//! output; worker threads take the jobs first come, first served and send what they write
//! in pieces through that channel; the calling thread reads the channels one after the
//! other, in job order. Memory is bounded whatever the sizes of the outputs:
//!
//! - at most `window` jobs wait between the producer and the caller, plus one per worker;
//! - a job's channel holds at most [`PIECES`] pieces of about [`PIECE_BYTES`]: a worker
//!   ahead of the caller waits until the caller reaches its job.
//!
//! NOTE: no deadlock: jobs are taken from one FIFO queue, so when the caller waits for job
//! `j`, every job before `j` is finished and `j` has been taken by a worker (or is next).
//! Workers block on full channels, which is why this uses its own threads, not rayon's
//! pool (whose tasks should not block). The threads are not scoped so that a caller that
//! fails (a closed pipe) can return at once, even while the producer waits for input.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};

/// Bytes a worker collects before it sends them on.
pub const PIECE_BYTES: usize = 64 * 1024;

/// Pieces a job's channel holds before its worker waits.
pub const PIECES: usize = 4;

/// What the caller is handed, in job order.
#[derive(Debug)]
pub enum Event<O> {
    /// Output of the current job.
    Data(Vec<u8>),
    /// The current job is finished; the next event belongs to the next job.
    Done(O),
    /// Nothing is ready yet (a good moment to flush).
    Idle,
}

enum Msg<O> {
    Data(Vec<u8>),
    Done(O),
}

/// The writer a job writes its output into: pieces go to the caller through the job's
/// channel. Writing fails with [`io::ErrorKind::BrokenPipe`] once the caller has stopped.
pub struct Pieces<'a, O> {
    tx: &'a SyncSender<Msg<O>>,
    buf: Vec<u8>,
}

impl<O> Pieces<'_, O> {
    fn send(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let piece = std::mem::replace(&mut self.buf, Vec::with_capacity(PIECE_BYTES));
        self.tx
            .send(Msg::Data(piece))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the output was closed"))
    }
}

impl<O> Write for Pieces<'_, O> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        // NOTE: at most a piece at a time (`write_all` loops), so that a large write (the
        // text of a large JSON lines record) is not copied whole into one piece.
        let n = bytes
            .len()
            .min(PIECE_BYTES.saturating_sub(self.buf.len()).max(1));
        self.buf.extend_from_slice(&bytes[..n]);
        if self.buf.len() >= PIECE_BYTES {
            self.send()?;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send()
    }
}

/// Runs `work` on every job of `jobs` on `threads` threads and hands `consume` the output
/// and the result of each job, in the order of `jobs`.
///
/// Returns the error of `consume` as soon as it fails, without waiting for the other
/// threads: jobs not yet started are skipped, running jobs see their writes fail, and a
/// producer blocked on a slow input is left to end with the process.
///
/// # Panics
/// When a worker or the producer panics.
pub fn run<J, O>(
    jobs: impl Iterator<Item = J> + Send + 'static,
    threads: usize,
    window: usize,
    work: impl Fn(J, &mut dyn Write) -> O + Send + Sync + 'static,
    mut consume: impl FnMut(Event<O>) -> io::Result<()>,
) -> io::Result<()>
where
    J: Send + 'static,
    O: Send + 'static,
{
    let cancel = Arc::new(AtomicBool::new(false));
    let (order_tx, order_rx) = mpsc::sync_channel::<Receiver<Msg<O>>>(window.max(1));
    let (work_tx, work_rx) = mpsc::sync_channel::<(J, SyncSender<Msg<O>>)>(threads.max(1));
    let work_rx = Arc::new(Mutex::new(work_rx));
    let work = Arc::new(work);
    let mut handles = Vec::with_capacity(threads + 1);
    let stop = Arc::clone(&cancel);
    handles.push(std::thread::spawn(move || {
        for job in jobs {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let (tx, rx) = mpsc::sync_channel(PIECES);
            if order_tx.send(rx).is_err() || work_tx.send((job, tx)).is_err() {
                break;
            }
        }
    }));
    for _ in 0..threads.max(1) {
        let (work_rx, work, stop) = (Arc::clone(&work_rx), Arc::clone(&work), Arc::clone(&cancel));
        handles.push(std::thread::spawn(move || {
            loop {
                let next = work_rx
                    .lock()
                    .expect("no worker panics holding the queue")
                    .recv();
                let Ok((job, tx)) = next else { break };
                if stop.load(Ordering::Relaxed) {
                    continue;
                }
                let mut out = Pieces {
                    tx: &tx,
                    buf: Vec::with_capacity(PIECE_BYTES),
                };
                let outcome = work(job, &mut out);
                // NOTE: a failed send means the caller stopped; nothing is left to do.
                let _ = out.send();
                let _ = tx.send(Msg::Done(outcome));
            }
        }));
    }
    if let Err(e) = drain(&order_rx, &mut consume) {
        cancel.store(true, Ordering::Relaxed);
        return Err(e);
    }
    for handle in handles {
        if let Err(panic) = handle.join() {
            std::panic::resume_unwind(panic);
        }
    }
    Ok(())
}

/// Hands on the output of every job, in order, until the producer is done.
fn drain<O>(
    order: &Receiver<Receiver<Msg<O>>>,
    consume: &mut impl FnMut(Event<O>) -> io::Result<()>,
) -> io::Result<()> {
    for job in order {
        loop {
            let msg = match job.try_recv() {
                Ok(msg) => msg,
                Err(TryRecvError::Empty) => {
                    consume(Event::Idle)?;
                    match job.recv() {
                        Ok(msg) => msg,
                        // The worker ended without a result: it panicked, which the scope
                        // reports once all threads have ended.
                        Err(_) => break,
                    }
                }
                Err(TryRecvError::Disconnected) => break,
            };
            match msg {
                Msg::Data(bytes) => consume(Event::Data(bytes))?,
                Msg::Done(outcome) => {
                    consume(Event::Done(outcome))?;
                    break;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs jobs that write `n` copies of their number, slower for early jobs, and returns
    /// what the caller saw.
    fn collect(jobs: Vec<usize>, threads: usize) -> (Vec<u8>, Vec<usize>) {
        let mut out = Vec::new();
        let mut done = Vec::new();
        run(
            jobs.into_iter(),
            threads,
            2,
            |n: usize, w: &mut dyn Write| {
                std::thread::sleep(std::time::Duration::from_millis((10 - n % 10) as u64));
                for _ in 0..n * 10_000 {
                    w.write_all(&[n as u8]).unwrap();
                }
                n
            },
            |ev| {
                match ev {
                    Event::Data(d) => out.extend(d),
                    Event::Done(n) => done.push(n),
                    Event::Idle => {}
                }
                Ok(())
            },
        )
        .unwrap();
        (out, done)
    }

    #[test]
    fn outputs_come_in_job_order_whatever_the_threads() {
        let jobs: Vec<usize> = (0..24).collect();
        let (out, done) = collect(jobs.clone(), 4);
        assert_eq!(done, jobs);
        let expected: Vec<u8> = jobs
            .iter()
            .flat_map(|&n| std::iter::repeat_n(n as u8, n * 10_000))
            .collect();
        assert_eq!(out, expected);
        assert_eq!(collect(jobs, 1).0, expected);
    }

    #[test]
    fn a_large_write_is_handed_on_in_pieces() {
        let mut sizes = Vec::new();
        let mut out = Vec::new();
        run(
            [7usize, 9].into_iter(),
            2,
            2,
            |n: usize, w: &mut dyn Write| {
                w.write_all(b"x").unwrap();
                w.write_all(&vec![n as u8; 10 * PIECE_BYTES + 3]).unwrap();
            },
            |ev| {
                if let Event::Data(d) = ev {
                    sizes.push(d.len());
                    out.extend(d);
                }
                Ok(())
            },
        )
        .unwrap();
        assert!(sizes.iter().all(|&n| n <= PIECE_BYTES), "{sizes:?}");
        assert_eq!(out.len(), 2 * (10 * PIECE_BYTES + 4));
        assert_eq!(
            out[1..10 * PIECE_BYTES + 4],
            vec![7u8; 10 * PIECE_BYTES + 3][..]
        );
    }

    #[test]
    fn a_failing_consumer_stops_the_run_with_its_error() {
        let mut seen = 0;
        let err = run(
            0..1000,
            3,
            4,
            |n: usize, w: &mut dyn Write| w.write_all(&vec![1u8; n * 1000]).is_ok(),
            |ev| {
                if let Event::Done(_) = ev {
                    seen += 1;
                    if seen == 5 {
                        return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
                    }
                }
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(seen, 5);
    }
}
