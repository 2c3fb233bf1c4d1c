//! Win rates of the AI levels against each other on the demo mission with the native
//! behaviours: `cargo run --release -p overmind-core --example levels -- 200 standard greedy`
//! (games, the Overmind's level, the Heroes' level).

#[path = "../tests/common/mod.rs"]
mod common;

use overmind_core::ai::{play_ai_game_at, Level, Levels};
use overmind_core::{Game, Side};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let level = |i: usize| {
        args.get(i)
            .map_or(Ok(Level::Standard), |a| a.parse::<Level>())
            .unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            })
    };
    let levels = Levels {
        overmind: level(2),
        heroes: level(3),
    };
    let content = common::base_like();
    let setup = common::demo_setup();
    let (mut heroes, mut by_limit) = (0u64, 0u64);
    let t = std::time::Instant::now();
    for seed in 0..n {
        let Ok(st) = setup.start(&content, seed) else {
            eprintln!("seed {seed}: the demo does not start");
            std::process::exit(1);
        };
        let mut g = Game::new(st, "demo", seed);
        play_ai_game_at(&mut g, &content, 20_000, levels);
        match g.state.outcome.as_ref() {
            Some(o) if o.winner == Side::Heroes => heroes += 1,
            Some(o) if o.reason.contains("round") => by_limit += 1,
            _ => {}
        }
    }
    println!(
        "overmind {} vs heroes {}: {n} games, heroes won {heroes} ({:.1}%), Overmind by the round limit {by_limit}, {:.0} games/s",
        levels.overmind,
        levels.heroes,
        100.0 * heroes as f64 / n as f64,
        n as f64 / t.elapsed().as_secs_f64()
    );
}
