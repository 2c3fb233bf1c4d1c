//! The clocks the benches time with: wall time (criterion) or this thread's CPU time (the
//! interleaved-rounds tables), shared by `los` and `paths`.
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// A clock: wall time (criterion) or this thread's CPU time (the rounds table).
pub type Clock = fn() -> Duration;

/// Wall time since the first call.
pub fn wall_clock() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// This thread's CPU time so far.
pub fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through the pointer, which is valid.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if !ok {
        return wall_clock();
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}
