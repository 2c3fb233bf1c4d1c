//! Play N AI-against-AI games of the demo mission with the native behaviours and print a
//! summary: `cargo run --release -p overmind-core --example ai_games -- 200`.
//!
//! Only the games are timed (wall clock and this thread's CPU time); the fingerprint of every
//! event of every game, printed to check that a speed-up changed nothing, is taken outside the
//! timed part.

#[path = "../tests/it/common/mod.rs"]
mod common;

use overmind_core::ai::play_ai_game;
use overmind_core::{Game, Side};
use std::time::{Duration, Instant};

/// This thread's CPU time so far.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through the pointer, which is valid.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let content = common::base_like();
    let setup = common::demo_setup();
    let (mut heroes, mut rounds) = (0u64, 0u64);
    let mut fingerprint = std::collections::hash_map::DefaultHasher::new();
    let (mut wall, mut cpu) = (Duration::ZERO, Duration::ZERO);
    for seed in 0..n {
        let (w0, c0) = (Instant::now(), thread_cpu());
        let Ok(st) = setup.start(&content, seed) else {
            eprintln!("seed {seed}: the demo does not start");
            std::process::exit(1);
        };
        let mut g = Game::new(st, "demo", seed);
        play_ai_game(&mut g, &content, 20_000);
        wall += w0.elapsed();
        cpu += thread_cpu() - c0;
        // Untimed from here.
        rounds += u64::from(g.state.round);
        for e in &g.log {
            std::hash::Hash::hash(&format!("{e:?}"), &mut fingerprint);
        }
        if g.state.outcome.as_ref().map(|o| o.winner) == Some(Side::Heroes) {
            heroes += 1;
        }
    }
    let per = |d: Duration| n as f64 / d.as_secs_f64().max(1e-9);
    println!(
        "{n} games: heroes won {heroes}, mean rounds {:.1}, {:.0} games/s (wall clock), \
         {:.0} games per CPU-second, events {:016x}",
        rounds as f64 / n as f64,
        per(wall),
        per(cpu),
        std::hash::Hasher::finish(&fingerprint)
    );
}
