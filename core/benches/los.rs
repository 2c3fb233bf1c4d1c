//! Line of Sight benchmarks on a 20×20 demo-like map: after every step the engine asks whether
//! any hero sees any Blip, so a query and the 6×12 recompute are the hot paths.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use overmind_core::{LineOfSight, LosRule, Map, MapBuilder, Obstacles, Pos};
use std::hint::black_box;

/// 4×4 tiles of 5×5 squares: barracks and a reactor hall with doors, a solid wall line with a
/// gate, a hut, crates (the demo mission's layout).
const MAP: &str = "
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
|. . . . . . . . . . y . . . . . . . . .|
+ +-+-+-+-+-+-+-+       +-+-+-+-+-+-+-+ +
|.|b b b|b b b b|. . . .|b b b b b b b|.|
+ +     +       +       +             + +
|.|b b b b b b b|. . . . b b b b b b b|.|
+ +     +       +       +             + +
|.|b b b|b b b b|. . . .|b b b b b b b|.|
+ +     +       +       +-+-+ +-+-+-+-+ +
|.|b b b|b b b b|. # # .|b b b b b b b|.|
+ +     +       +       +             + +
|.|b b b|b b b b . # # .|b b b b b b b|.|
+ +     +       +       +             + +
|.|b b b|b b b b|. . . .|b b b b b b b|.|
+ +-+ +-+-+-+-+-+       +             + +
|. . . . . . . . . . . .|b b b b b b b|.|
+                       +-+-+-+-+-+ +-+ +
|y . . . . . . . . # # . . . . . . . . .|
+                                       +
|. . . . . . . . . . . . . . . . . . . .|
+                                       +
|# # # # r # # # # . . # # # # # r # # #|
+                                       +
|. . . . . . . . . r r . . . . . . . . .|
+    = = =                   = = =      +
|. . g g g . . . . . . . . . g g g . . .|
+                                       +
|. . . . . . . . . . . . . . . . . . . .|
+               +-+-+ +-+               +
|. . . . . . . .|b b b b|. . . . . . . .|
+               +       +               +
|. . . . . . . . b b b b . . . . . . . .|
+               +       +               +
|. . . . . . # .|b b b b|. # . . . . . .|
+               +-+-+-+-+               +
|. . . . . . # . . . . . . . # . . . . .|
+                                       +
|. . y . . . . . . . g . . . . . . y . .|
+                                       +
|. . . . . . . . . . . . . . . . . . . .|
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
";

/// Mid-game: the heroes have pushed up to the wall line; Blips are in the buildings, at the gate
/// and in the open.
const HEROES: [(i32, i32); 6] = [(3, 12), (6, 11), (9, 12), (10, 11), (14, 12), (17, 13)];
const BLIPS: [(i32, i32); 12] = [
    (3, 3),
    (6, 5),
    (10, 2),
    (12, 6),
    (15, 3),
    (18, 6),
    (0, 7),
    (9, 9),
    (11, 8),
    (19, 9),
    (5, 15),
    (13, 17),
];

fn scene() -> (Map, Obstacles, Vec<(Pos, Pos)>) {
    let map = MapBuilder::from_drawing(MAP).build();
    let mut obstacles = Obstacles::new(&map);
    let pos = |&(x, y): &(i32, i32)| Pos::new(x, y);
    for p in HEROES.iter().chain(BLIPS.iter()).map(pos) {
        obstacles.insert(p);
    }
    let pairs = HEROES
        .iter()
        .flat_map(|h| BLIPS.iter().map(move |b| (pos(h), pos(b))))
        .collect();
    (map, obstacles, pairs)
}

fn bench(c: &mut Criterion) {
    let (map, obstacles, pairs) = scene();
    for rule in [LosRule::Exact, LosRule::Centre] {
        let name = match rule {
            LosRule::Exact => "exact",
            LosRule::Centre => "centre",
        };
        let seen = pairs
            .iter()
            .filter(|&&(h, b)| rule.visible(&map, &obstacles, h, b))
            .count();
        println!("{name}: {seen} of {} hero-Blip pairs visible", pairs.len());
        // One query per iteration, cycling through all 72 hero-Blip pairs (warm map).
        c.bench_function(&format!("los/{name}_single"), |bench| {
            let mut i = 0;
            bench.iter(|| {
                i = (i + 1) % pairs.len();
                let (h, b) = pairs[i];
                rule.visible(black_box(&map), black_box(&obstacles), h, b)
            });
        });
        // Every hero against every Blip, as after each step of a move. The map remembers which
        // pairs walls and solid squares alone block, so after the first pass those are free.
        c.bench_function(&format!("los/{name}_6x12_recompute"), |bench| {
            bench.iter(|| {
                pairs
                    .iter()
                    .filter(|&&(h, b)| rule.visible(black_box(&map), black_box(&obstacles), h, b))
                    .count()
            });
        });
        // The same on a fresh copy of the map each time, so nothing is remembered: pairs of
        // squares never asked about before. (The copy's pair table is allocated by a query on
        // another pair during setup, as it would be long before in a game.)
        c.bench_function(&format!("los/{name}_6x12_recompute_cold"), |bench| {
            bench.iter_batched(
                || {
                    let fresh = map.clone();
                    rule.visible(&fresh, &obstacles, Pos::new(0, 19), Pos::new(1, 19));
                    fresh
                },
                |fresh| {
                    let seen = pairs
                        .iter()
                        .filter(|&&(h, b)| rule.visible(&fresh, black_box(&obstacles), h, b))
                        .count();
                    (seen, fresh)
                },
                BatchSize::SmallInput,
            );
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
