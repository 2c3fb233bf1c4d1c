//! Movement benchmarks on a 20×20 demo-like map: the distance field is the engine's hot path.

use criterion::{criterion_group, criterion_main, Criterion};
use overmind_core::movement::{reachable, shortest_path, towards, DistanceField, Goal};
use overmind_core::{Edge, Map, MapBuilder, Obstacles, Pos, Terrain};
use std::hint::black_box;

/// Walls round the building x0..=x1, y0..=y1 (inclusive), building terrain inside.
fn building(b: &mut MapBuilder, (x0, y0): (i32, i32), (x1, y1): (i32, i32)) {
    for x in x0..=x1 {
        b.set_north(x, y0, Edge::Wall)
            .set_north(x, y1 + 1, Edge::Wall);
        for y in y0..=y1 {
            b.set_terrain(Pos::new(x, y), Terrain::Building);
        }
    }
    for y in y0..=y1 {
        b.set_west(x0, y, Edge::Wall)
            .set_west(x1 + 1, y, Edge::Wall);
    }
}

/// 4×4 tiles of 5×5 squares: two buildings with openings, scenery, a short wall line.
fn demo_map() -> Map {
    let mut b = MapBuilder::new(20, 20);
    building(&mut b, (2, 2), (7, 6));
    b.set_north(4, 7, Edge::Open).set_west(8, 4, Edge::Open);
    building(&mut b, (12, 11), (17, 16));
    b.set_north(14, 11, Edge::Open).set_west(12, 13, Edge::Open);
    b.set_west(15, 15, Edge::Wall).set_north(15, 14, Edge::Wall);
    for (x, y) in [
        (10, 5),
        (10, 6),
        (11, 6),
        (5, 12),
        (6, 12),
        (15, 4),
        (16, 4),
        (9, 17),
    ] {
        b.set_terrain(Pos::new(x, y), Terrain::Solid);
    }
    for y in 0..4 {
        b.set_west(10, y, Edge::Wall);
    }
    for x in 0..3 {
        b.set_terrain(Pos::new(x, 19), Terrain::Yellow);
    }
    b.build()
}

const HEROES: [(i32, i32); 6] = [(0, 18), (1, 18), (2, 18), (0, 19), (1, 19), (2, 19)];
const BLIPS: [(i32, i32); 12] = [
    (18, 1),
    (14, 2),
    (4, 4),
    (6, 9),
    (11, 9),
    (17, 8),
    (13, 13),
    (16, 12),
    (8, 14),
    (3, 15),
    (18, 18),
    (10, 10),
];

fn paths(c: &mut Criterion) {
    let map = demo_map();
    let mut obstacles = Obstacles::new(&map);
    for (x, y) in HEROES.iter().chain(&BLIPS) {
        obstacles.insert(Pos::new(*x, *y));
    }
    let hero = Pos::new(1, 18);
    let blip = Pos::new(10, 10);
    let heroes: Vec<Pos> = HEROES.iter().map(|&(x, y)| Pos::new(x, y)).collect();
    let inside = Pos::new(15, 14);
    assert!(shortest_path(&map, &obstacles, hero, inside).is_some());

    c.bench_function("paths/distance_field", |b| {
        b.iter(|| DistanceField::from(&map, &obstacles, black_box(hero)))
    });
    c.bench_function("paths/shortest_path", |b| {
        b.iter(|| shortest_path(&map, &obstacles, black_box(hero), black_box(inside)))
    });
    c.bench_function("paths/towards_5", |b| {
        b.iter(|| {
            let goal = Goal::AdjacentTo(heroes.clone());
            towards(&map, &obstacles, black_box(blip), goal, 5)
        })
    });
    c.bench_function("paths/reachable_5", |b| {
        b.iter(|| reachable(&map, &obstacles, black_box(hero), 5))
    });
}

criterion_group!(benches, paths);
criterion_main!(benches);
