//! Play N AI-against-AI games of the demo mission with the native behaviours and print a
//! summary: `cargo run --release -p overmind-core --example ai_games -- 200`.

#[path = "../tests/common/mod.rs"]
mod common;

use overmind_core::ai::play_ai_game;
use overmind_core::{Game, Side};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let content = common::base_like();
    let setup = common::demo_setup();
    let (mut heroes, mut rounds) = (0u64, 0u64);
    // A fingerprint of every event of every game, to check that a speed-up changed nothing.
    let mut fingerprint = std::collections::hash_map::DefaultHasher::new();
    let start = std::time::Instant::now();
    for seed in 0..n {
        let Ok(st) = setup.start(&content, seed) else {
            eprintln!("seed {seed}: the demo does not start");
            std::process::exit(1);
        };
        let mut g = Game::new(st, "demo", seed);
        play_ai_game(&mut g, &content, 20_000);
        rounds += u64::from(g.state.round);
        for e in &g.log {
            std::hash::Hash::hash(&format!("{e:?}"), &mut fingerprint);
        }
        if g.state.outcome.as_ref().map(|o| o.winner) == Some(Side::Heroes) {
            heroes += 1;
        }
    }
    overmind_core::ai::print_stats();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} games: heroes won {heroes}, mean rounds {:.1}, {:.0} games/s (wall clock), events {:016x}",
        rounds as f64 / n as f64,
        n as f64 / secs,
        std::hash::Hasher::finish(&fingerprint)
    );
}
