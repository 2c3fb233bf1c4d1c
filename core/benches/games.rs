//! Whole AI-against-AI games of the demo mission with the native behaviours, on one core.

#[path = "../tests/it/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use overmind_core::ai::play_ai_game;
use overmind_core::Game;

fn games(c: &mut Criterion) {
    let content = common::base_like();
    let setup = common::demo_setup();
    let mut g = c.benchmark_group("games");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("demo_ai_vs_ai", |b| {
        b.iter(|| {
            seed += 1;
            let st = setup.start(&content, seed).expect("demo starts");
            let mut game = Game::new(st, "demo", seed);
            play_ai_game(&mut game, &content, 20_000);
            game.state.round
        })
    });
    g.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
