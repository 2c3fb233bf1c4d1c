//! Line of Sight benchmarks, side by side with a peer: the `line_drawing` crate's Supercover
//! line with edge walls, which is what a grid game would use (walk the squares the line between
//! the two centres passes through; blocked when a visited square other than the ends is an
//! obstacle or a crossed edge is a wall). The peer is not the same rule (it tries one line,
//! the exact rule tries every line), so it answers differently on some pairs; it is there to
//! say what a cheap, usual LOS costs on the same map, pairs and units.
//!
//! Maps: the demo mission's 20×20 map, and the same map tiled 4×4 (80×80) and 8×8 (160×160),
//! the tiles' borders left open. Units: random mid-game scenes, 6 Heroes and 12 Blips per
//! 20×20 tile on random free squares. Pairs: random pairs of distinct free squares.
//!
//! - `los/<size>/supercover`: the peer on random pairs;
//! - `los/<size>/exact_cold`: the exact rule on pairs the map was never asked about: each batch
//!   runs on a fresh copy of the map (nothing remembered: no pair table entry, no memo) and
//!   asks each unordered pair once;
//! - `los/<size>/exact_unseen`: pairs never asked, on a map in use: one map meets a long
//!   stream of distinct pairs (on 20×20 every pair of free squares, shuffled), each once, so
//!   what it remembers is about other pairs; only after the whole stream does a fresh copy take
//!   over. Unlike `exact_cold`, the map's tables are not new (not out of the processor's
//!   caches);
//! - `los/<size>/exact_warm`: the same pairs, same units, asked before (what the map remembers
//!   about the pair and its units answers, where it can);
//! - `los/<size>/exact_moved`: pairs asked before, but with units elsewhere (another scene):
//!   only what walls and solid squares decide is reused;
//! - `los/<size>/recompute_*`: every Hero against every Blip (6×12) on a random scene, as after
//!   a move: `supercover`, `exact_cold` (a fresh copy of the map for each pass over the 16
//!   scenes, which share no pair) and `exact_warm` (map warmed on those scenes before).
//!
//! With `LOS_ROUNDS=<n>` set, the binary first prints a table of the same measures taken in
//! `n` interleaved rounds (per-thread CPU time, median per query), with each one's ratio to the
//! peer, then runs criterion as usual.

#[path = "common/clock.rs"]
mod clock;
use clock::{thread_cpu, wall_clock, Clock};
use criterion::{criterion_group, Criterion};
use line_drawing::Supercover;
use overmind_core::{Edge, LineOfSight, LosRule, Map, MapBuilder, Obstacles, Pos};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::collections::HashSet;
use std::hint::black_box;
use std::time::Duration;

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

/// The demo map tiled `t`×`t`; the tiles' own borders are left open (the big map's border is
/// walled on build).
fn tiled(t: i32) -> Map {
    let demo = MapBuilder::from_drawing(MAP).build();
    let (w, h) = (demo.width(), demo.height());
    let mut mb = MapBuilder::new(w * t, h * t);
    for ty in 0..t {
        for tx in 0..t {
            let (ox, oy) = (tx * w, ty * h);
            for y in 0..h {
                for x in 0..w {
                    let p = Pos::new(x, y);
                    mb.set_terrain(Pos::new(ox + x, oy + y), demo.terrain(p));
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

/// The peer: the map as flags, one byte a square, and the `line_drawing` Supercover walk.
struct Peer {
    width: i32,
    /// Bit 0: solid; bit 1: wall on the west edge; bit 2: wall on the north edge.
    flags: Vec<u8>,
}

impl Peer {
    fn of(map: &Map) -> Peer {
        let flags = map
            .squares()
            .map(|p| {
                u8::from(map.is_solid(p))
                    | (u8::from(map.west_edge(p.x, p.y) == Edge::Wall) << 1)
                    | (u8::from(map.north_edge(p.x, p.y) == Edge::Wall) << 2)
            })
            .collect();
        Peer {
            width: map.width(),
            flags,
        }
    }

    #[inline]
    fn flag(&self, x: i32, y: i32) -> u8 {
        self.flags[(y * self.width + x) as usize]
    }

    /// The wall between orthogonal neighbours.
    #[inline]
    fn wall(&self, (x0, y0): (i32, i32), (x1, y1): (i32, i32)) -> bool {
        if y0 == y1 {
            self.flag(x0.max(x1), y0) & 2 != 0
        } else {
            self.flag(x0, y0.max(y1)) & 4 != 0
        }
    }

    #[inline]
    fn blocked(&self, obstacles: &Obstacles, (x, y): (i32, i32)) -> bool {
        self.flag(x, y) & 1 != 0 || obstacles.contains(Pos::new(x, y))
    }

    /// Walk the Supercover squares from `a`'s centre to `b`'s. A step through a corner (the
    /// line through a grid point) gets by when one of the two ways round it is open.
    fn visible(&self, obstacles: &Obstacles, a: Pos, b: Pos) -> bool {
        let end = (b.x, b.y);
        for (p0, p1) in Supercover::new((a.x, a.y), end).steps() {
            if p0.0 != p1.0 && p0.1 != p1.1 {
                let open = |m: (i32, i32)| {
                    !self.wall(p0, m)
                        && !self.wall(m, p1)
                        && (m == end || !self.blocked(obstacles, m))
                };
                if !open((p1.0, p0.1)) && !open((p0.0, p1.1)) {
                    return false;
                }
            } else if self.wall(p0, p1) {
                return false;
            }
            if p1 != end && self.blocked(obstacles, p1) {
                return false;
            }
        }
        true
    }
}

/// One size: the map, its peer, random scenes and random pairs.
struct Setup {
    name: String,
    map: Map,
    peer: Peer,
    /// Random mid-game scenes: the units as obstacles, and the Heroes' and Blips' squares.
    scenes: Vec<Scene>,
    /// Distinct unordered pairs of distinct free squares.
    pairs: Vec<(Pos, Pos)>,
    /// More of them, in random order (on 20×20, every pair of free squares), asked one after
    /// the other of `stream`'s map, each once: a map in use meeting pairs it was never asked.
    unseen: Vec<(Pos, Pos)>,
    /// That map, and the next pair of `unseen` it meets.
    stream: RefCell<(Map, usize)>,
}

struct Scene {
    obstacles: Obstacles,
    heroes: Vec<Pos>,
    blips: Vec<Pos>,
}

const SCENES: usize = 16;
/// The pair a fresh map is first asked about, never among the timed pairs.
const TOUCH: (Pos, Pos) = (Pos::new(0, 0), Pos::new(1, 0));
const PAIRS: usize = 2048;
/// Most pairs in `Setup::unseen`.
const UNSEEN: usize = 1 << 18;

impl Setup {
    fn new(tiles: i32, seed: u64) -> Setup {
        let map = tiled(tiles);
        let free: Vec<Pos> = map.squares().filter(|&p| !map.is_solid(p)).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let per_tile = (tiles * tiles) as usize;
        // Every Hero-Blip pair of every scene is a different pair of squares, so that a map that
        // answered some scenes was never asked about the next one's pairs.
        let mut asked = HashSet::new();
        let mut scenes = Vec::new();
        while scenes.len() < SCENES {
            let scene = {
                let mut taken = HashSet::new();
                let mut pick = |n: usize| {
                    let mut out = Vec::new();
                    while out.len() < n {
                        let p = free[rng.random_range(0..free.len())];
                        if taken.insert(p) {
                            out.push(p);
                        }
                    }
                    out
                };
                let heroes = pick(6 * per_tile);
                let blips = pick(12 * per_tile);
                let mut obstacles = Obstacles::new(&map);
                for &p in heroes.iter().chain(&blips) {
                    obstacles.insert(p);
                }
                // The recompute: 6 Heroes against 12 Blips.
                let heroes = heroes[..6].to_vec();
                let blips = blips[..12].to_vec();
                Scene {
                    obstacles,
                    heroes,
                    blips,
                }
            };
            let pairs: Vec<(Pos, Pos)> = scene
                .heroes
                .iter()
                .flat_map(|&h| scene.blips.iter().map(move |&b| (h.min(b), h.max(b))))
                .collect();
            if pairs.iter().all(|p| *p != TOUCH && !asked.contains(p)) {
                asked.extend(pairs);
                scenes.push(scene);
            }
        }
        let mut seen = HashSet::new();
        let mut pairs = Vec::new();
        while pairs.len() < PAIRS {
            let a = free[rng.random_range(0..free.len())];
            let b = free[rng.random_range(0..free.len())];
            let key = (a.min(b), a.max(b));
            if a != b && key != TOUCH && seen.insert(key) {
                pairs.push((a, b));
            }
        }
        let mut unseen: Vec<(Pos, Pos)> = if free.len() * free.len() / 2 <= UNSEEN {
            (0..free.len())
                .flat_map(|i| (i + 1..free.len()).map(move |j| (i, j)))
                .map(|(i, j)| (free[i], free[j]))
                .filter(|&(a, b)| (a.min(b), a.max(b)) != TOUCH)
                .collect()
        } else {
            let mut seen = HashSet::new();
            let mut out = Vec::new();
            while out.len() < UNSEEN {
                let a = free[rng.random_range(0..free.len())];
                let b = free[rng.random_range(0..free.len())];
                let key = (a.min(b), a.max(b));
                if a != b && key != TOUCH && seen.insert(key) {
                    out.push((a, b));
                }
            }
            out
        };
        // Shuffle, and ask each pair either way round.
        for i in (1..unseen.len()).rev() {
            let j = rng.random_range(0..=i);
            unseen.swap(i, j);
            if rng.random_range(0..2) == 0 {
                let (a, b) = unseen[i];
                unseen[i] = (b, a);
            }
        }
        let mut setup = Setup {
            name: format!("{}x{}", map.width(), map.height()),
            peer: Peer::of(&map),
            stream: RefCell::new((map.clone(), 0)),
            map,
            scenes,
            pairs,
            unseen,
        };
        setup.stream = RefCell::new((setup.fresh(), 0));
        setup
    }

    fn scene(&self, i: usize) -> &Scene {
        &self.scenes[i % self.scenes.len()]
    }

    /// A copy of the map that remembers nothing about any pair.
    fn fresh(&self) -> Map {
        let fresh = self.map.clone();
        // Whatever a map builds on its first query (bit sets, tables) is built here, as it
        // would be long before in a game, by a pair that is not among `pairs`.
        let (a, b) = TOUCH;
        let _ = LosRule::Exact.visible(&fresh, &Obstacles::new(&fresh), a, b);
        fresh
    }
}

/// Run `f` on `iters` pairs, cycling; the time taken.
fn timed(
    clock: Clock,
    iters: u64,
    pairs: &[(Pos, Pos)],
    mut f: impl FnMut(Pos, Pos) -> bool,
) -> Duration {
    let start = clock();
    let mut i = 0;
    for _ in 0..iters {
        let (a, b) = pairs[i];
        black_box(f(black_box(a), black_box(b)));
        i += 1;
        if i == pairs.len() {
            i = 0;
        }
    }
    clock() - start
}

/// The measures, each as "time `n` runs": shared by criterion and the rounds table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Measure {
    Supercover,
    ExactCold,
    ExactUnseen,
    ExactWarm,
    ExactMoved,
    RecomputeSupercover,
    RecomputeCold,
    RecomputeWarm,
}

impl Measure {
    const ALL: [Measure; 8] = [
        Measure::Supercover,
        Measure::ExactCold,
        Measure::ExactUnseen,
        Measure::ExactWarm,
        Measure::ExactMoved,
        Measure::RecomputeSupercover,
        Measure::RecomputeCold,
        Measure::RecomputeWarm,
    ];

    fn name(self) -> &'static str {
        match self {
            Measure::Supercover => "supercover",
            Measure::ExactCold => "exact_cold",
            Measure::ExactUnseen => "exact_unseen",
            Measure::ExactWarm => "exact_warm",
            Measure::ExactMoved => "exact_moved",
            Measure::RecomputeSupercover => "recompute_supercover",
            Measure::RecomputeCold => "recompute_exact_cold",
            Measure::RecomputeWarm => "recompute_exact_warm",
        }
    }

    /// Its peer, for the ratio.
    fn peer(self) -> Measure {
        match self {
            Measure::RecomputeCold | Measure::RecomputeWarm | Measure::RecomputeSupercover => {
                Measure::RecomputeSupercover
            }
            _ => Measure::Supercover,
        }
    }

    /// Queries per run.
    fn queries(self) -> u64 {
        match self {
            Measure::RecomputeSupercover | Measure::RecomputeCold | Measure::RecomputeWarm => 72,
            _ => 1,
        }
    }

    /// Time `iters` runs (a query, or a 6×12 recompute) by `clock`; what is set up (fresh
    /// maps, putting the warm map's units back) is not timed.
    fn run(self, s: &Setup, warm: &Map, iters: u64, clock: Clock) -> Duration {
        let rule = LosRule::Exact;
        match self {
            Measure::Supercover => {
                let obs = &s.scene(0).obstacles;
                timed(clock, iters, &s.pairs, |a, b| s.peer.visible(obs, a, b))
            }
            Measure::ExactWarm => {
                let obs = &s.scene(0).obstacles;
                // Asked before with these units (again, in case other measures crowded them
                // out of what the map remembers).
                for &(a, b) in &s.pairs {
                    black_box(rule.visible(warm, obs, a, b));
                }
                timed(clock, iters, &s.pairs, |a, b| rule.visible(warm, obs, a, b))
            }
            Measure::ExactMoved => {
                // `warm` was last asked with scene 0: the units are elsewhere now. Each pass over
                // the pairs uses another scene, and what a pass taught is undone after it by
                // asking every pair again with scene 0 (untimed).
                let mut total = Duration::ZERO;
                let mut left = iters;
                let mut scene = 1;
                while left > 0 {
                    let n = left.min(s.pairs.len() as u64);
                    let obs = &s.scene(scene).obstacles;
                    total += timed(clock, n, &s.pairs, |a, b| rule.visible(warm, obs, a, b));
                    for &(a, b) in &s.pairs {
                        black_box(rule.visible(warm, &s.scene(0).obstacles, a, b));
                    }
                    left -= n;
                    scene = scene % (SCENES - 1) + 1;
                }
                total
            }
            Measure::ExactUnseen => {
                let mut total = Duration::ZERO;
                let mut left = iters;
                let obs = &s.scene(0).obstacles;
                while left > 0 {
                    let mut st = s.stream.borrow_mut();
                    let at = st.1;
                    let n = left.min((s.unseen.len() - at) as u64);
                    let pairs = &s.unseen[at..at + n as usize];
                    total += timed(clock, n, pairs, |a, b| rule.visible(&st.0, obs, a, b));
                    left -= n;
                    st.1 += n as usize;
                    if st.1 == s.unseen.len() {
                        // Every pair asked: start again on a fresh copy (untimed).
                        *st = (s.fresh(), 0);
                    }
                }
                total
            }
            Measure::ExactCold => {
                let mut total = Duration::ZERO;
                let mut left = iters;
                let mut scene = 0;
                while left > 0 {
                    let n = left.min(s.pairs.len() as u64);
                    let fresh = s.fresh();
                    let obs = &s.scene(scene).obstacles;
                    total += timed(clock, n, &s.pairs, |a, b| rule.visible(&fresh, obs, a, b));
                    left -= n;
                    scene += 1;
                }
                total
            }
            Measure::RecomputeSupercover => {
                let start = clock();
                for i in 0..iters as usize {
                    black_box(recompute(s.scene(i), |o, a, b| s.peer.visible(o, a, b)));
                }
                clock() - start
            }
            Measure::RecomputeWarm => {
                let start = clock();
                for i in 0..iters as usize {
                    black_box(recompute(s.scene(i), |o, a, b| rule.visible(warm, o, a, b)));
                }
                clock() - start
            }
            Measure::RecomputeCold => {
                // One fresh map for each pass over the scenes (no two share a pair).
                let mut total = Duration::ZERO;
                let mut i = 0;
                while i < iters as usize {
                    let n = (iters as usize - i).min(SCENES);
                    let fresh = s.fresh();
                    let start = clock();
                    for k in 0..n {
                        let sc = s.scene(k);
                        black_box(recompute(sc, |o, a, b| rule.visible(&fresh, o, a, b)));
                    }
                    total += clock() - start;
                    i += n;
                }
                total
            }
        }
    }
}

/// Every Hero against every Blip of a scene: how many pairs see each other.
fn recompute(sc: &Scene, mut f: impl FnMut(&Obstacles, Pos, Pos) -> bool) -> usize {
    let mut seen = 0;
    for &h in &sc.heroes {
        for &b in &sc.blips {
            seen += usize::from(f(black_box(&sc.obstacles), h, b));
        }
    }
    seen
}

/// A map that has answered every pair of every scene before (scene 0 last).
fn warmed(s: &Setup) -> Map {
    let warm = s.fresh();
    for i in (0..SCENES).rev() {
        let sc = s.scene(i);
        recompute(sc, |o, a, b| LosRule::Exact.visible(&warm, o, a, b));
    }
    for &(a, b) in &s.pairs {
        LosRule::Exact.visible(&warm, &s.scene(0).obstacles, a, b);
    }
    warm
}

fn setups() -> Vec<Setup> {
    vec![Setup::new(1, 1), Setup::new(4, 4), Setup::new(8, 8)]
}

fn bench(c: &mut Criterion) {
    for s in setups() {
        let warm = warmed(&s);
        let mut g = c.benchmark_group(format!("los/{}", s.name));
        for m in Measure::ALL {
            g.bench_function(m.name(), |b| {
                b.iter_custom(|iters| m.run(&s, &warm, iters, wall_clock))
            });
        }
        g.finish();
    }
}

/// The rounds table: every measure of a size run in turn, `rounds` times, each for about 20 ms
/// of CPU time; the median time per query of each, and its ratio to its peer.
fn rounds(rounds: usize) {
    println!("interleaved rounds: {rounds}, per-thread CPU time, median ns per query");
    println!("| size | measure | ns per query | ratio to the peer |");
    println!("| --- | --- | --- | --- |");
    for s in setups() {
        let warm = warmed(&s);
        // Calibrate: how many runs make about 20 ms.
        let iters: Vec<u64> = Measure::ALL
            .iter()
            .map(|&m| {
                let t = m.run(&s, &warm, 64, thread_cpu).as_nanos().max(1) as u64;
                (20_000_000 * 64 / t).max(16)
            })
            .collect();
        let mut per_query: Vec<Vec<f64>> = vec![Vec::new(); Measure::ALL.len()];
        for _ in 0..rounds {
            for (k, &m) in Measure::ALL.iter().enumerate() {
                let cpu = m.run(&s, &warm, iters[k], thread_cpu);
                per_query[k].push(cpu.as_nanos() as f64 / (iters[k] * m.queries()) as f64);
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let med: Vec<f64> = per_query.iter_mut().map(median).collect();
        for (k, &m) in Measure::ALL.iter().enumerate() {
            let p = Measure::ALL
                .iter()
                .position(|&x| x == m.peer())
                .unwrap_or(0);
            println!(
                "| {} | {} | {:.1} | {:.2}× |",
                s.name,
                m.name(),
                med[k],
                med[k] / med[p]
            );
        }
    }
}

criterion_group!(benches, bench);

fn main() {
    if let Some(n) = std::env::var("LOS_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        rounds(n);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
