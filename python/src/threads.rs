//! The threads of `extract_many` and `iter_warc`.

use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

/// The most threads `extract_many` and `iter_warc` start: the CPUs this process may run on
/// (`std::thread::available_parallelism`, which heeds CPU affinity and cgroup quotas).
/// More threads than that only wait for a CPU, each with its stack.
fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// How many threads `threads=N` runs on: N, at most [`max_threads`].
pub(crate) fn capped(threads: Option<usize>) -> Option<usize> {
    threads.map(|n| n.min(max_threads()))
}

/// The thread pool of `threads=N` (N already [`capped`]): one pool is kept for the process,
/// and a call with another N replaces it (the old pool's threads end when the calls using
/// it are done), so the threads alive stay at most a pool's, whatever Ns are asked for.
pub(crate) fn pool(threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOL: Mutex<Option<Arc<rayon::ThreadPool>>> = Mutex::new(None);
    let mut kept = POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(p) = kept.as_ref().filter(|p| p.current_num_threads() == threads) {
        return Ok(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("mainline-{i}"))
        .build()
        .map_err(|e| PyOSError::new_err(format!("cannot start {threads} threads: {e}")))?;
    let p = Arc::new(p);
    *kept = Some(Arc::clone(&p));
    Ok(p)
}
