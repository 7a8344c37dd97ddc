//! Indexed work on every core: each index run once, results back in index order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Runs `f` for `0..n` on up to `threads` threads and returns `(index, result)` in index
/// order. Indices are taken in order and none after one that failed, so every index below
/// the first failure has run: the lowest failure is the one to report.
pub fn in_order<T: Send, E: Send>(
    n: usize,
    threads: usize,
    f: impl Fn(usize) -> Result<T, E> + Sync,
) -> Vec<(usize, Result<T, E>)> {
    let next = AtomicUsize::new(0);
    let failed_at = AtomicUsize::new(usize::MAX);
    let done = Mutex::new(Vec::with_capacity(n));
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, n.max(1)) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= n || k > failed_at.load(Ordering::Relaxed) {
                    break;
                }
                let r = f(k);
                if r.is_err() {
                    failed_at.fetch_min(k, Ordering::Relaxed);
                }
                if let Ok(mut d) = done.lock() {
                    d.push((k, r));
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_by_key(|(k, _)| *k);
    done
}
