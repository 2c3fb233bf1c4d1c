//! Movement benchmarks, side by side with the `pathfinding` crate over the very same grid
//! successors: for each scene, the legal steps of every square (walls, solid squares, the
//! diagonal rule, every model blocking) are tabled once, untimed, and the peer's `bfs`, `astar`
//! and `dijkstra_reach` walk that table, so both sides search the same graph.
//!
//! Maps: the demo mission's 20×20 map (`behaviours/missions/demo.toml`), and the same map tiled
//! 4×4 (80×80) and 8×8 (160×160), the tiles' borders left open. Scenes: 6 Heroes and 12 Blips
//! per 20×20 tile on random free squares, all of them obstacles. Queries: random pairs of free
//! squares holding no model (so the start square is free for both sides).
//!
//! - `paths/<size>/shortest_path_cold`: `shortest_path` on random pairs, each start different
//!   from the last one's (the search remembered from the last question is no use);
//!   `shortest_path_warm`: the same pair asked again right after (what validation and the
//!   engine ask after the AI's `towards` for one move: the remembered search answers);
//!   `shortest_path_bfs`, `shortest_path_astar`: the peer (`astar` with the Chebyshev distance
//!   as its heuristic, exact for these steps).
//! - `distance_field_cold` / `_warm`: `DistanceField::from` a random start; the peer drains
//!   `dijkstra_reach` into a table of step counts.
//! - `reachable_5_cold`: `reachable` within 5 steps; the peer takes `dijkstra_reach` while
//!   the cost is at most 5 and sorts alike.
//! - `towards_6`: one `towards` (6 steps, next to any of the 6 Heroes) from a random Blip.
//! - `plan_towards`, `plan_goal_field`: the AI's pattern: the 12 Blips one after another each
//!   ask for 6 steps towards the Heroes and move to the first end, with `towards` afresh or
//!   with one `GoalField` kept through the 12 (its answers are the same); time per model.
//!
//! With `PATHS_ROUNDS=<n>` set, the binary first prints a table of the same measures taken in
//! `n` interleaved rounds (per-thread CPU time, median per query), each with its ratio to its
//! peer, then runs criterion as usual.

#[path = "common/clock.rs"]
mod clock;
use clock::{thread_cpu, wall_clock, Clock};
use criterion::{criterion_group, Criterion};
use overmind_core::movement::{
    neighbours, reachable, shortest_path, towards, DistanceField, Goal, GoalField,
};
use overmind_core::{Dir, Map, MapBuilder, Mission, Obstacles, Pos};
use pathfinding::prelude::{astar, bfs, dijkstra_reach};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::hint::black_box;
use std::time::Duration;

/// The demo mission's map.
fn demo() -> Map {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../behaviours/missions/demo.toml"
    );
    let text = std::fs::read_to_string(path).expect("the demo mission");
    Mission::parse(std::path::Path::new(path), &text)
        .expect("the demo parses")
        .map
}

/// The demo map tiled `t`×`t`; the tiles' own borders are left open.
fn tiled(t: i32) -> Map {
    let demo = demo();
    let (w, h) = (demo.width(), demo.height());
    let mut mb = MapBuilder::new(w * t, h * t);
    for ty in 0..t {
        for tx in 0..t {
            let (ox, oy) = (tx * w, ty * h);
            for y in 0..h {
                for x in 0..w {
                    mb.set_terrain(Pos::new(ox + x, oy + y), demo.terrain(Pos::new(x, y)));
                    if x > 0 {
                        mb.set_west(ox + x, oy + y, demo.west_edge(x, y));
                    }
                    if y > 0 {
                        mb.set_north(ox + x, oy + y, demo.north_edge(x, y));
                    }
                }
            }
        }
    }
    mb.build()
}

/// One mid-game position: its obstacles, the peer's table of legal steps, and the questions.
struct Scene {
    obstacles: Obstacles,
    /// By map index: bit k = a legal step in `Dir::ALL[k]` (as `movement::neighbours` says).
    steps: Vec<u8>,
    /// Random pairs of free squares holding no model.
    pairs: Vec<(Pos, Pos)>,
    heroes: Vec<Pos>,
    blips: Vec<Pos>,
}

struct Setup {
    name: String,
    map: Map,
    scenes: Vec<Scene>,
}

const SCENES: usize = 8;
const PAIRS: usize = 64;

impl Setup {
    fn new(tiles: i32, seed: u64) -> Setup {
        let map = tiled(tiles);
        let free: Vec<Pos> = map.squares().filter(|&p| !map.is_solid(p)).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let per_tile = (tiles * tiles) as usize;
        let scenes = (0..SCENES)
            .map(|_| {
                let mut taken = HashSet::new();
                let mut pick = |rng: &mut ChaCha8Rng, n: usize| {
                    let mut out = Vec::new();
                    while out.len() < n {
                        let p = free[rng.random_range(0..free.len())];
                        if taken.insert(p) {
                            out.push(p);
                        }
                    }
                    out
                };
                let heroes = pick(&mut rng, 6 * per_tile);
                let blips = pick(&mut rng, 12 * per_tile);
                let mut obstacles = Obstacles::new(&map);
                for &p in heroes.iter().chain(&blips) {
                    obstacles.insert(p);
                }
                let steps = map
                    .squares()
                    .map(|p| {
                        neighbours(&map, &obstacles, p)
                            .map(|q| 1u8 << dir_index(p, q))
                            .fold(0, |a, b| a | b)
                    })
                    .collect();
                let mut pairs = Vec::new();
                while pairs.len() < PAIRS {
                    let a = free[rng.random_range(0..free.len())];
                    let b = free[rng.random_range(0..free.len())];
                    let last = pairs.last().map(|&(s, _)| s);
                    if a != b && !taken.contains(&a) && !taken.contains(&b) && last != Some(a) {
                        pairs.push((a, b));
                    }
                }
                Scene {
                    obstacles,
                    steps,
                    pairs,
                    heroes: heroes[..6].to_vec(),
                    blips: blips[..12].to_vec(),
                }
            })
            .collect();
        // Whatever a map builds on its first search (its movement layout) is built here, as it
        // would be long before in a game.
        let _ = reachable(&map, &Obstacles::new(&map), free[0], 1);
        Setup {
            name: format!("{}x{}", map.width(), map.height()),
            map,
            scenes,
        }
    }
}

fn dir_index(p: Pos, q: Pos) -> usize {
    Dir::ALL
        .iter()
        .position(|&d| p.offset(d) == q)
        .expect("a neighbour")
}

/// The peer's successors: the scene's table.
fn succ<'a>(map: &'a Map, steps: &'a [u8]) -> impl Fn(&Pos) -> SuccIter + 'a {
    move |&p| SuccIter {
        p,
        mask: steps[map.index(p)],
    }
}

/// The legal steps from one square, out of its mask.
struct SuccIter {
    p: Pos,
    mask: u8,
}

impl Iterator for SuccIter {
    type Item = Pos;
    fn next(&mut self) -> Option<Pos> {
        if self.mask == 0 {
            return None;
        }
        let k = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(self.p.offset(Dir::ALL[k]))
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Measure {
    ShortestCold,
    ShortestWarm,
    ShortestBfs,
    ShortestAstar,
    FieldCold,
    FieldWarm,
    FieldDijkstra,
    ReachCold,
    ReachDijkstra,
    Towards,
    PlanTowards,
    PlanGoalField,
}

/// Repeats of one warm question per pair, timed together.
const WARM: u64 = 8;

impl Measure {
    const ALL: [Measure; 12] = [
        Measure::ShortestCold,
        Measure::ShortestWarm,
        Measure::ShortestBfs,
        Measure::ShortestAstar,
        Measure::FieldCold,
        Measure::FieldWarm,
        Measure::FieldDijkstra,
        Measure::ReachCold,
        Measure::ReachDijkstra,
        Measure::Towards,
        Measure::PlanTowards,
        Measure::PlanGoalField,
    ];

    fn name(self) -> &'static str {
        match self {
            Measure::ShortestCold => "shortest_path_cold",
            Measure::ShortestWarm => "shortest_path_warm",
            Measure::ShortestBfs => "shortest_path_bfs",
            Measure::ShortestAstar => "shortest_path_astar",
            Measure::FieldCold => "distance_field_cold",
            Measure::FieldWarm => "distance_field_warm",
            Measure::FieldDijkstra => "distance_field_dijkstra_reach",
            Measure::ReachCold => "reachable_5_cold",
            Measure::ReachDijkstra => "reachable_5_dijkstra_reach",
            Measure::Towards => "towards_6",
            Measure::PlanTowards => "plan_towards",
            Measure::PlanGoalField => "plan_goal_field",
        }
    }

    /// What the ratio is taken against (itself: no peer).
    fn peer(self) -> Measure {
        match self {
            Measure::ShortestCold | Measure::ShortestWarm => Measure::ShortestBfs,
            Measure::FieldCold | Measure::FieldWarm => Measure::FieldDijkstra,
            Measure::ReachCold => Measure::ReachDijkstra,
            Measure::PlanGoalField => Measure::PlanTowards,
            m => m,
        }
    }

    /// Queries in one run.
    fn queries(self) -> u64 {
        match self {
            Measure::ShortestWarm | Measure::FieldWarm => WARM,
            Measure::PlanTowards | Measure::PlanGoalField => 12,
            _ => 1,
        }
    }

    /// The time of `iters` runs, going through the scenes and their pairs.
    fn run(self, s: &Setup, iters: u64, clock: Clock) -> Duration {
        let map = &s.map;
        let mut total = Duration::ZERO;
        let mut start = clock();
        let mut n = 0u64;
        'all: loop {
            for sc in &s.scenes {
                let o = &sc.obstacles;
                let next = succ(map, &sc.steps);
                if matches!(self, Measure::PlanTowards | Measure::PlanGoalField) {
                    if n == iters {
                        break 'all;
                    }
                    black_box(plan(map, sc, self == Measure::PlanGoalField));
                    n += 1;
                    continue;
                }
                for (i, &(a, b)) in sc.pairs.iter().enumerate() {
                    if n == iters {
                        break 'all;
                    }
                    n += 1;
                    match self {
                        Measure::ShortestCold => {
                            black_box(shortest_path(map, o, black_box(a), b));
                        }
                        Measure::ShortestWarm | Measure::FieldWarm => {
                            // The first question, untimed; then the same again.
                            total += clock() - start;
                            let warm = self == Measure::ShortestWarm;
                            if warm {
                                black_box(shortest_path(map, o, a, b));
                            } else {
                                black_box(DistanceField::from(map, o, a));
                            }
                            start = clock();
                            for _ in 0..WARM {
                                if warm {
                                    black_box(shortest_path(map, o, black_box(a), b));
                                } else {
                                    black_box(DistanceField::from(map, o, black_box(a)));
                                }
                            }
                        }
                        Measure::ShortestBfs => {
                            black_box(bfs(&black_box(a), &next, |p| *p == b));
                        }
                        Measure::ShortestAstar => {
                            black_box(astar(
                                &black_box(a),
                                |p| next(p).map(|q| (q, 1u32)),
                                |p| p.distance(b),
                                |p| *p == b,
                            ));
                        }
                        Measure::FieldCold => {
                            black_box(DistanceField::from(map, o, black_box(a)));
                        }
                        Measure::FieldDijkstra => {
                            let mut dist = vec![u32::MAX; map.len()];
                            for it in dijkstra_reach(&black_box(a), |p| next(p).map(|q| (q, 1u32)))
                            {
                                dist[map.index(it.node)] = it.total_cost;
                            }
                            black_box(dist);
                        }
                        Measure::ReachCold => {
                            black_box(reachable(map, o, black_box(a), 5));
                        }
                        Measure::ReachDijkstra => {
                            let mut out: Vec<(Pos, u32)> =
                                dijkstra_reach(&black_box(a), |p| next(p).map(|q| (q, 1u32)))
                                    .take_while(|it| it.total_cost <= 5)
                                    .map(|it| (it.node, it.total_cost))
                                    .collect();
                            out.sort_unstable_by_key(|&(p, d)| (d, p.y, p.x));
                            black_box(out);
                        }
                        Measure::Towards => {
                            let from = sc.blips[i % sc.blips.len()];
                            let goal = Goal::AdjacentTo(sc.heroes.clone());
                            black_box(towards(map, o, black_box(from), goal, 6));
                        }
                        Measure::PlanTowards | Measure::PlanGoalField => unreachable!(),
                    }
                }
            }
        }
        total + (clock() - start)
    }
}

/// The 12 Blips of `sc`, one after another, each 6 steps towards the Heroes and onto its first
/// end; with one `GoalField` kept through them or `towards` afresh. The squares they end on.
fn plan(map: &Map, sc: &Scene, keep: bool) -> Vec<Pos> {
    let mut o = sc.obstacles.clone();
    let goal = Goal::AdjacentTo(sc.heroes.clone());
    let mut field = GoalField::new();
    sc.blips
        .iter()
        .map(|&from| {
            let t = if keep {
                field.towards(map, &o, from, &goal, 6)
            } else {
                towards(map, &o, from, goal.clone(), 6)
            };
            let to = t.ends.first().copied().unwrap_or(from);
            o.remove(from);
            o.insert(to);
            to
        })
        .collect()
}

fn setups() -> Vec<Setup> {
    vec![Setup::new(1, 1), Setup::new(4, 4), Setup::new(8, 8)]
}

/// Checks, untimed, that both sides of each comparison answer alike.
fn check(s: &Setup) {
    let map = &s.map;
    for sc in &s.scenes {
        let next = succ(map, &sc.steps);
        for &(a, b) in &sc.pairs {
            let ours = shortest_path(map, &sc.obstacles, a, b);
            let peer = bfs(&a, &next, |p| *p == b);
            assert_eq!(ours.map(|p| p.len()), peer.map(|p| p.len()), "{a} to {b}");
            let field = DistanceField::from(map, &sc.obstacles, a);
            for it in dijkstra_reach(&a, |p| next(p).map(|q| (q, 1u32))) {
                assert_eq!(field.get(it.node), Some(it.total_cost));
            }
        }
        assert_eq!(plan(map, sc, true), plan(map, sc, false));
    }
}

fn bench(c: &mut Criterion) {
    for s in setups() {
        check(&s);
        let mut g = c.benchmark_group(format!("paths/{}", s.name));
        for m in Measure::ALL {
            g.bench_function(m.name(), |b| {
                b.iter_custom(|iters| {
                    let t = m.run(&s, iters, wall_clock);
                    t / u32::try_from(m.queries()).unwrap_or(1)
                })
            });
        }
        g.finish();
    }
}

/// The rounds table: every measure of a size run in turn, `rounds` times, each for about 20 ms
/// of CPU time; the median time per query of each, and its ratio to its peer.
fn rounds(rounds: usize) {
    println!("interleaved rounds: {rounds}, per-thread CPU time, median µs per query");
    println!("| size | measure | µs per query | ratio to the peer |");
    println!("| --- | --- | --- | --- |");
    for s in setups() {
        check(&s);
        let iters: Vec<u64> = Measure::ALL
            .iter()
            .map(|&m| {
                let t = m.run(&s, 16, thread_cpu).as_nanos().max(1) as u64;
                (20_000_000 * 16 / t).max(4)
            })
            .collect();
        let mut per_query: Vec<Vec<f64>> = vec![Vec::new(); Measure::ALL.len()];
        for _ in 0..rounds {
            for (k, &m) in Measure::ALL.iter().enumerate() {
                let cpu = m.run(&s, iters[k], thread_cpu);
                per_query[k].push(cpu.as_nanos() as f64 / 1e3 / (iters[k] * m.queries()) as f64);
            }
        }
        let med: Vec<f64> = per_query
            .iter_mut()
            .map(|v| {
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            })
            .collect();
        for (k, &m) in Measure::ALL.iter().enumerate() {
            let p = Measure::ALL
                .iter()
                .position(|&x| x == m.peer())
                .unwrap_or(k);
            let ratio = if p == k {
                "—".to_string()
            } else {
                format!("{:.2}× {}", med[k] / med[p], Measure::ALL[p].name())
            };
            println!("| {} | {} | {:.3} | {ratio} |", s.name, m.name(), med[k]);
        }
    }
}

criterion_group!(benches, bench);

fn main() {
    if let Some(n) = std::env::var("PATHS_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        rounds(n);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
