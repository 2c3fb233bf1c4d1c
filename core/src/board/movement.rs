//! Movement and paths (docs/RULES.md §4): legal steps, step-count distances and "move towards"
//! choices.
//!
//! Distances are a hand-written breadth-first search over a byte grid padded by one square on
//! every side, so the hot loop needs no bounds arithmetic. Each map caches its walls, solid
//! squares and the legal steps ignoring models, one step mask a square; a search copies the
//! masks, takes out the steps into or diagonally past each model, and reuses per-thread buffers,
//! so a visited square costs one mask load. Measured choice (20×20 benchmark map, 2 cores): a
//! whole-map field took ≈5 µs before the cached masks (≈2.5 µs now); the `pathfinding` crate's
//! `dijkstra_all` / `dijkstra_reach` over the very same grid successors take ≈32–35 µs (hash maps
//! and a heap for unit costs), and ≈60 µs over [`neighbours`]; its `bfs` for one path ≈31 µs
//! against ≈4 µs for [`shortest_path`] then. So no dependency. See `docs/BENCHMARKS.md`.
//!
//! The moving model's own square is its start: it may be in the caller's [`Obstacles`] (it holds
//! the mover itself) and its model never blocks, not even a later diagonal cutting past it, as
//! the mover has left it. (Solid terrain stays solid: no model stands there.)

use crate::data::geom::{Dir, Pos};
use crate::data::map::{Edge, Map, Obstacles};

/// Are `a` and `b` adjacent (docs/RULES.md §4.1)? Purely about walls: occupancy and solid squares
/// are ignored (a solid square never holds a model, so its adjacency never matters to the rules).
///
/// Orthogonal neighbours are adjacent unless a wall lies on their shared edge; diagonal
/// neighbours unless *both* two-step orthogonal routes between them cross a wall. A square is
/// not adjacent to itself; squares off the map are adjacent to nothing.
#[must_use]
pub fn adjacent(map: &Map, a: Pos, b: Pos) -> bool {
    // Looked up in the map's cached layout: bit k of a square = adjacent to its neighbour
    // `Dir::ALL[k]` (see `static_adjacent`).
    let (dx, dy) = (b.x.wrapping_sub(a.x), b.y.wrapping_sub(a.y));
    if !(-1..=1).contains(&dx) || !(-1..=1).contains(&dy) {
        return false;
    }
    let layout = Layout::of(map);
    let Some(i) = layout.index(a) else {
        return false;
    };
    // By (dy + 1) * 3 + (dx + 1): the bit of that direction; none for the square itself.
    const BIT: [u8; 9] = [1 << 7, 1, 1 << 1, 1 << 6, 0, 1 << 2, 1 << 5, 1 << 4, 1 << 3];
    layout.adjacent[i] & BIT[((dy + 1) * 3 + dx + 1) as usize] != 0
}

/// [`adjacent`] read from the walls themselves: the definition the cached layout must match.
#[cfg(test)]
fn adjacent_by_walls(map: &Map, a: Pos, b: Pos) -> bool {
    if !map.in_bounds(a) || !map.in_bounds(b) {
        return false;
    }
    let Some(d) = Dir::between(a, b) else {
        return false;
    };
    let Some((v, h)) = components(d) else {
        return !map.wall(a, d);
    };
    let via_v = map.wall(a, v) || map.wall(a.offset(v), h);
    let via_h = map.wall(a, h) || map.wall(a.offset(h), v);
    !(via_v && via_h)
}

/// Can a model on `from` make one legal step to `to`? `from` itself never blocks (it is the
/// mover's square); every other square involved must not be [`Map::blocked`].
///
/// An orthogonal step needs no wall on the shared edge. A diagonal step needs both squares it
/// cuts past to be unblocked and none of the four edges of the two orthogonal routes to be a wall.
#[must_use]
pub fn can_step(map: &Map, obstacles: &Obstacles, from: Pos, to: Pos) -> bool {
    if !map.in_bounds(from) || map.blocked(obstacles, to) {
        return false;
    }
    let Some(d) = Dir::between(from, to) else {
        return false;
    };
    let Some((v, h)) = components(d) else {
        return !map.wall(from, d);
    };
    let (pv, ph) = (from.offset(v), from.offset(h));
    !map.blocked(obstacles, pv)
        && !map.blocked(obstacles, ph)
        && !map.wall(from, v)
        && !map.wall(pv, h)
        && !map.wall(from, h)
        && !map.wall(ph, v)
}

/// The squares one legal step from `from`, in [`Dir::ALL`] order.
pub fn neighbours(map: &Map, obstacles: &Obstacles, from: Pos) -> impl Iterator<Item = Pos> {
    // Decided eagerly so the iterator borrows nothing.
    let mut mask = 0u8;
    for (k, d) in Dir::ALL.into_iter().enumerate() {
        if can_step(map, obstacles, from, from.offset(d)) {
            mask |= 1 << k;
        }
    }
    Dir::ALL
        .into_iter()
        .enumerate()
        .filter(move |&(k, _)| mask & (1 << k) != 0)
        .map(move |(_, d)| from.offset(d))
}

/// The vertical and horizontal parts of a diagonal direction; `None` for an orthogonal one.
fn components(d: Dir) -> Option<(Dir, Dir)> {
    match d {
        Dir::NE => Some((Dir::N, Dir::E)),
        Dir::SE => Some((Dir::S, Dir::E)),
        Dir::SW => Some((Dir::S, Dir::W)),
        Dir::NW => Some((Dir::N, Dir::W)),
        _ => None,
    }
}

const FREE: u8 = 1;
/// Wall on the cell's north edge.
const WALL_N: u8 = 2;
/// Wall on the cell's west edge.
const WALL_W: u8 = 4;
const UNREACHED: u32 = u32::MAX;

/// For a square holding a model, by the direction `k` from it to a neighbour: the steps of that
/// neighbour the model forbids (bit k' = `Dir::ALL[k']`). The step into the model's square,
/// and for an orthogonal one also the two diagonals cutting past it.
const BLOCKED_BY: [u8; 8] = {
    let mut t = [0u8; 8];
    let mut k = 0;
    while k < 8 {
        let back = (k + 4) % 8;
        t[k] = if back % 2 == 0 {
            1 << back | 1 << ((back + 1) % 8) | 1 << ((back + 7) % 8)
        } else {
            1 << back
        };
        k += 1;
    }
    t
};

/// The map's static movement layout, cached on the map (see [`Map`]'s `moves`): three padded
/// byte planes of `stride * (height + 2)` cells each, with a one-square border so all eight
/// neighbours of any map square are valid indices.
/// - `cells`: `FREE` (not solid), `WALL_N`, `WALL_W` per square;
/// - `steps`: the legal steps ignoring models (bit k = `Dir::ALL[k]`);
/// - `adjacent`: the [`adjacent`] neighbours (bit k = `Dir::ALL[k]`).
struct Layout<'a> {
    width: i32,
    height: i32,
    stride: usize,
    cells: &'a [u8],
    steps: &'a [u8],
    adjacent: &'a [u8],
}

impl Layout<'_> {
    fn of(map: &Map) -> Layout<'_> {
        let (width, height) = (map.width().max(0), map.height().max(0));
        let stride = width as usize + 2;
        let n = stride * (height as usize + 2);
        let all = map
            .moves
            .get_or_init(|| build_layout(map, width, height, stride));
        let (cells, rest) = all.split_at(n);
        let (steps, adjacent) = rest.split_at(n);
        Layout {
            width,
            height,
            stride,
            cells,
            steps,
            adjacent,
        }
    }

    fn index(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height)
            .then(|| (p.y as usize + 1) * self.stride + p.x as usize + 1)
    }
}

/// Builds the three planes of [`Layout`].
fn build_layout(map: &Map, width: i32, height: i32, stride: usize) -> Vec<u8> {
    let n = stride * (height as usize + 2);
    let mut all = vec![0u8; 3 * n];
    all[..n].fill(WALL_N | WALL_W);
    for y in 0..height {
        let row = (y as usize + 1) * stride + 1;
        for x in 0..width {
            let mut c = 0;
            if !map.is_solid(Pos::new(x, y)) {
                c |= FREE;
            }
            if map.north_edge(x, y) == Edge::Wall {
                c |= WALL_N;
            }
            if map.west_edge(x, y) == Edge::Wall {
                c |= WALL_W;
            }
            all[row + x as usize] = c;
        }
    }
    for y in 0..height {
        let row = (y as usize + 1) * stride + 1;
        for x in 0..width {
            let i = row + x as usize;
            all[n + i] = static_steps(&all[..n], stride, i);
            // The neighbours on the map: none beyond an outer row or column.
            let mut on_map = 0xFFu8;
            if y == 0 {
                on_map &= !0x83; // N, NE, NW
            }
            if y == height - 1 {
                on_map &= !0x38; // SE, S, SW
            }
            if x == 0 {
                on_map &= !0xE0; // SW, W, NW
            }
            if x == width - 1 {
                on_map &= !0x0E; // NE, E, SE
            }
            all[2 * n + i] = static_adjacent(&all[..n], stride, i) & on_map;
        }
    }
    all
}

/// The [`adjacent`] neighbours of map cell `i` of a `cells` plane, as a bit mask in
/// [`Dir::ALL`] order, assuming every neighbour is on the map.
fn static_adjacent(c: &[u8], s: usize, i: usize) -> u8 {
    let (n, so, e, w) = (i - s, i + s, i + 1, i - 1);
    let wall_n = |j: usize| c[j] & WALL_N != 0;
    let wall_w = |j: usize| c[j] & WALL_W != 0;
    // Walls on the north, south, west and east sides of cell `i`.
    let (north, south, west, east) = (wall_n(i), wall_n(so), wall_w(i), wall_w(e));
    // A diagonal is adjacent unless both routes cross a wall: vertical step first, or
    // horizontal first.
    let north_east = !((north || wall_w(n + 1)) && (east || wall_n(e)));
    let south_east = !((south || wall_w(so + 1)) && (east || wall_n(so + 1)));
    let south_west = !((south || wall_w(so)) && (west || wall_n(so - 1)));
    let north_west = !((north || wall_w(n)) && (west || wall_n(w)));
    u8::from(!north)
        | u8::from(north_east) << 1
        | u8::from(!east) << 2
        | u8::from(south_east) << 3
        | u8::from(!south) << 4
        | u8::from(south_west) << 5
        | u8::from(!west) << 6
        | u8::from(north_west) << 7
}

/// Legal steps from map cell `i` of a `cells` plane, as a bit mask in [`Dir::ALL`] order.
fn static_steps(c: &[u8], s: usize, i: usize) -> u8 {
    let (n, so, e, w) = (i - s, i + s, i + 1, i - 1);
    let free = |j: usize| c[j] & FREE != 0;
    let north = c[i] & WALL_N == 0 && free(n);
    let south = c[so] & WALL_N == 0 && free(so);
    let west = c[i] & WALL_W == 0 && free(w);
    let east = c[e] & WALL_W == 0 && free(e);
    // A diagonal also needs the two far edges of its routes open: each is the north or west
    // edge of a cell beside the target.
    let (ne, se, sw, nw) = (n + 1, so + 1, so - 1, n - 1);
    let north_east = north && east && free(ne) && c[ne] & WALL_W == 0 && c[e] & WALL_N == 0;
    let south_east = south && east && free(se) && c[se] & (WALL_W | WALL_N) == 0;
    let south_west = south && west && free(sw) && c[so] & WALL_W == 0 && c[sw] & WALL_N == 0;
    let north_west = north && west && free(nw) && c[n] & WALL_W == 0 && c[w] & WALL_N == 0;
    u8::from(north)
        | u8::from(north_east) << 1
        | u8::from(east) << 2
        | u8::from(south_east) << 3
        | u8::from(south) << 4
        | u8::from(south_west) << 5
        | u8::from(west) << 6
        | u8::from(north_west) << 7
}

/// One search's grid: the map's static steps minus those into, or diagonally past, a square
/// holding a model or Blip.
struct Grid {
    width: i32,
    height: i32,
    stride: usize,
    /// Legal steps by padded cell, bit k = `Dir::ALL[k]`.
    steps: Vec<u8>,
}

impl Grid {
    /// `freed` squares (the movers' starts) count as free whatever model holds them; solid
    /// terrain stays solid (a search may still start there, as [`can_step`] never checks `from`).
    /// `steps` is a buffer to reuse (its contents are replaced).
    fn new(map: &Map, obstacles: &Obstacles, freed: &[Pos], mut steps: Vec<u8>) -> Grid {
        let layout = Layout::of(map);
        let stride = layout.stride;
        steps.clear();
        steps.extend_from_slice(layout.steps);
        let offsets = offsets(stride);
        let len = map.len();
        for (w, &word) in obstacles.words().iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if i >= len {
                    continue;
                }
                let p = map.pos_of(i);
                if freed.contains(&p) {
                    continue;
                }
                let c = (p.y as usize + 1) * stride + p.x as usize + 1;
                for (k, &off) in offsets.iter().enumerate() {
                    steps[c.wrapping_add_signed(off)] &= !BLOCKED_BY[k];
                }
            }
        }
        Grid {
            width: layout.width,
            height: layout.height,
            stride,
            steps,
        }
    }

    fn index(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height)
            .then(|| (p.y as usize + 1) * self.stride + p.x as usize + 1)
    }

    fn pos(&self, i: usize) -> Pos {
        Pos::new((i % self.stride) as i32 - 1, (i / self.stride) as i32 - 1)
    }

    /// Breadth-first step counts from `sources` (map cells), not expanding past `limit` steps
    /// and stopping early once `stop` is reached. Returns distances by cell and the cells in
    /// the order reached.
    /// `dist` and `order` are buffers to reuse (their contents are replaced).
    fn bfs(
        &self,
        dist: &mut Vec<u32>,
        order: &mut Vec<usize>,
        sources: &[usize],
        limit: u32,
        stop: Option<usize>,
    ) {
        self.seed(dist, order, sources);
        if stop.is_some_and(|t| dist[t] != UNREACHED) {
            return;
        }
        let stop = stop.unwrap_or(usize::MAX);
        self.search(dist, order, limit, false, |j| j == stop);
    }

    /// Resets `dist` and `order` to hold only `sources` (first occurrences, at 0).
    fn seed(&self, dist: &mut Vec<u32>, order: &mut Vec<usize>, sources: &[usize]) {
        dist.clear();
        dist.resize(self.steps.len(), UNREACHED);
        order.clear();
        self.reseed(dist, order, sources);
    }

    /// [`Grid::seed`] for a `dist` whose labelled cells are all in `order` (as a search leaves
    /// them): when they are few, only those are reset.
    fn reseed(&self, dist: &mut Vec<u32>, order: &mut Vec<usize>, sources: &[usize]) {
        if dist.len() == self.steps.len() && order.len() < dist.len() / 8 {
            for &i in order.iter() {
                dist[i] = UNREACHED;
            }
        } else {
            dist.clear();
            dist.resize(self.steps.len(), UNREACHED);
        }
        order.clear();
        order.reserve(self.steps.len());
        for &s in sources {
            if dist[s] == UNREACHED {
                dist[s] = 0;
                order.push(s);
            }
        }
    }

    /// Continues a breadth-first search whose `dist` and `order` hold its sources (at 0, in
    /// order): not expanding past `limit` steps, calling `hit` on each newly reached cell. After
    /// the first hit it stops at once, or with `finish_level` once every cell as far as the hit
    /// has been reached. Returns the steps of the first hit.
    fn search(
        &self,
        dist: &mut [u32],
        order: &mut Vec<usize>,
        limit: u32,
        finish_level: bool,
        mut hit: impl FnMut(usize) -> bool,
    ) -> Option<u32> {
        let offsets = offsets(self.stride);
        let mut found = None;
        let mut head = 0;
        while let Some(&i) = order.get(head) {
            head += 1;
            let d = dist[i];
            if d >= limit {
                continue;
            }
            if found.is_some_and(|f| d >= f) {
                break;
            }
            let mut mask = self.steps[i];
            while mask != 0 {
                let k = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let j = i.wrapping_add_signed(offsets[k]);
                if dist[j] == UNREACHED {
                    dist[j] = d + 1;
                    order.push(j);
                    if found.is_none() && hit(j) {
                        found = Some(d + 1);
                        if !finish_level {
                            return found;
                        }
                    }
                }
            }
        }
        found
    }

    /// A shortest path sources..=`target` over `dist` (from [`Grid::bfs`] on this grid): walking
    /// back from the target, always the first square in [`Dir::ALL`] order one step closer.
    fn path(&self, dist: &[u32], target: usize) -> Option<Vec<Pos>> {
        let mut d = *dist.get(target)?;
        if d == UNREACHED {
            return None;
        }
        let offsets = offsets(self.stride);
        let mut path = Vec::with_capacity(d as usize + 1);
        path.push(self.pos(target));
        let mut cur = target;
        while d > 0 {
            // The step j -> cur has direction opposite to k, i.e. Dir::ALL[(k + 4) % 8].
            let prev = offsets.iter().enumerate().find_map(|(k, &off)| {
                let j = cur.wrapping_add_signed(off);
                let closer = dist.get(j) == Some(&(d - 1));
                (closer && self.steps[j] & (1 << ((k + 4) % 8)) != 0).then_some(j)
            })?;
            path.push(self.pos(prev));
            cur = prev;
            d -= 1;
        }
        path.reverse();
        Some(path)
    }
}

/// Index offsets of the eight neighbours in a padded plane of `stride`, in [`Dir::ALL`] order.
fn offsets(stride: usize) -> [isize; 8] {
    let s = stride as isize;
    [-s, 1 - s, 1, s + 1, s, s - 1, -1, -s - 1]
}

/// A breadth-first search from one start over one grid, kept so that it can be taken further
/// later. `order` holds the labelled cells in the order reached, so by distance, and
/// `order[head..]` are not expanded yet; every cell at most `done` steps away is labelled in
/// `dist` (`done` is the distance of `order[head]`, or `u32::MAX` once nothing is left).
#[derive(Debug, Default)]
struct Walk {
    dist: Vec<u32>,
    order: Vec<usize>,
    head: usize,
    done: u32,
}

impl Walk {
    /// A new search from `start` over a grid of `len` cells. When the last search labelled few
    /// cells, only those are reset (all of them are in `order`), so that a short search on a
    /// big map costs what it visits.
    fn restart(&mut self, len: usize, start: usize) {
        if self.dist.len() == len && self.order.len() < len / 8 {
            for &i in &self.order {
                self.dist[i] = UNREACHED;
            }
        } else {
            self.dist.clear();
            self.dist.resize(len, UNREACHED);
        }
        self.order.clear();
        self.order.reserve(len);
        self.dist[start] = 0;
        self.order.push(start);
        self.head = 0;
        self.done = 0;
    }

    /// Nothing more can be reached: every cell the search will ever label is labelled.
    fn exhausted(&self) -> bool {
        self.head == self.order.len()
    }

    /// Expands the next cell.
    fn expand(&mut self, steps: &[u8], offsets: &[isize; 8]) {
        let i = self.order[self.head];
        self.head += 1;
        let d = self.dist[i];
        let mut mask = steps[i];
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let j = i.wrapping_add_signed(offsets[k]);
            if self.dist[j] == UNREACHED {
                self.dist[j] = d + 1;
                self.order.push(j);
            }
        }
    }

    /// Sets `done` from where the search stands.
    fn settle(&mut self) {
        self.done = self
            .order
            .get(self.head)
            .map_or(u32::MAX, |&i| self.dist[i]);
    }

    /// Labels every cell at most `level` steps away.
    fn advance(&mut self, steps: &[u8], offsets: &[isize; 8], level: u32) {
        if level <= self.done {
            return;
        }
        while let Some(&i) = self.order.get(self.head) {
            if self.dist[i] >= level {
                break;
            }
            self.expand(steps, offsets);
        }
        self.settle();
    }

    /// Takes the search on until `target` is labelled (and no further); its steps, or `None`
    /// when it cannot be reached.
    fn reach(&mut self, steps: &[u8], offsets: &[isize; 8], target: usize) -> Option<u32> {
        let &d = self.dist.get(target)?;
        if d != UNREACHED {
            return Some(d);
        }
        while !self.exhausted() && self.dist[target] == UNREACHED {
            self.expand(steps, offsets);
        }
        self.settle();
        Some(self.dist[target]).filter(|&d| d != UNREACHED)
    }

    /// The labelled cells at most `level` steps away (complete when `level` ≤ `done`).
    fn within(&self, level: u32) -> &[usize] {
        let n = self.order.partition_point(|&i| self.dist[i] <= level);
        &self.order[..n]
    }
}

/// Buffers the searches of one thread reuse, so that a search does not allocate; and the last
/// single-source search with the grid it ran on, so that the next question about the same
/// start over the same grid (the AI's `towards`, then validation's `shortest_path`, then the
/// engine's `shortest_paths` for one move) goes on from it instead of searching afresh.
#[derive(Default)]
struct Scratch {
    steps: Vec<u8>,
    order: Vec<usize>,
    dist2: Vec<u32>,
    order2: Vec<usize>,
    /// The grid of `walk` (its steps; stride and start cell in `memo`).
    memo_steps: Vec<u8>,
    memo: Option<(usize, usize)>,
    walk: Walk,
    repair: Repair,
    cells: Vec<usize>,
    changed: Vec<usize>,
}

thread_local! {
    static PATH_SEARCHES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static SCRATCH: std::cell::Cell<Option<Box<Scratch>>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with this thread's [`Scratch`] (taken out meanwhile, so never shared; a nested call
/// gets a fresh one).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut scratch = SCRATCH.with(std::cell::Cell::take).unwrap_or_default();
    let r = f(&mut scratch);
    SCRATCH.with(|c| c.set(Some(scratch)));
    r
}

/// Runs `f` on the grid of a model moving from `from` and the breadth-first search from it
/// (`sc.walk`, whatever levels it has done), the last one of this thread if that was from the
/// same start over the same grid, else a new one. `None` if `from` is off the map.
fn with_walk<R>(
    map: &Map,
    obstacles: &Obstacles,
    from: Pos,
    f: impl FnOnce(&Grid, usize, &mut Scratch) -> R,
) -> Option<R> {
    with_scratch(|sc| {
        let mut grid = Grid::new(map, obstacles, &[from], std::mem::take(&mut sc.steps));
        let Some(start) = grid.index(from) else {
            sc.steps = grid.steps;
            return None;
        };
        let key = Some((grid.stride, start));
        if sc.memo != key || sc.memo_steps != grid.steps {
            std::mem::swap(&mut sc.memo_steps, &mut grid.steps);
            sc.memo = key;
            sc.walk.restart(sc.memo_steps.len(), start);
        }
        sc.steps = std::mem::replace(&mut grid.steps, std::mem::take(&mut sc.memo_steps));
        let r = f(&grid, start, sc);
        sc.memo_steps = grid.steps;
        Some(r)
    })
}

/// Breadth-first step counts over legal steps from one or more source squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistanceField {
    width: i32,
    height: i32,
    stride: usize,
    /// By padded grid cell (see `Grid`); `UNREACHED` where no legal path leads.
    dist: Vec<u32>,
    sources: Vec<Pos>,
}

impl DistanceField {
    /// Step counts from `source`, which is free whatever `obstacles` says of it. A source off
    /// the map reaches nothing.
    #[must_use]
    pub fn from(map: &Map, obstacles: &Obstacles, source: Pos) -> DistanceField {
        DistanceField::from_many(map, obstacles, &[source])
    }

    /// Step counts from the nearest of `sources`. Every source is treated like a mover's start:
    /// its model does not block leaving it or cutting past it. Sources off the map are ignored.
    #[must_use]
    pub fn from_many(map: &Map, obstacles: &Obstacles, sources: &[Pos]) -> DistanceField {
        let sources: Vec<Pos> = sources
            .iter()
            .copied()
            .filter(|&p| map.in_bounds(p))
            .collect();
        if let [one] = sources[..] {
            let field = with_walk(map, obstacles, one, |grid, _, sc| {
                let offsets = offsets(grid.stride);
                sc.walk.advance(&grid.steps, &offsets, u32::MAX);
                DistanceField {
                    width: grid.width,
                    height: grid.height,
                    stride: grid.stride,
                    dist: sc.walk.dist.clone(),
                    sources: sources.clone(),
                }
            });
            if let Some(field) = field {
                return field;
            }
        }
        with_scratch(|sc| {
            let grid = Grid::new(map, obstacles, &sources, std::mem::take(&mut sc.steps));
            let cells: Vec<usize> = sources.iter().filter_map(|&p| grid.index(p)).collect();
            let mut dist = Vec::new();
            grid.bfs(&mut dist, &mut sc.order, &cells, UNREACHED, None);
            let field = DistanceField {
                width: grid.width,
                height: grid.height,
                stride: grid.stride,
                dist,
                sources,
            };
            sc.steps = grid.steps;
            field
        })
    }

    /// Steps from the nearest source to `p`; `None` when unreachable or off the map.
    #[must_use]
    pub fn get(&self, p: Pos) -> Option<u32> {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return None;
        }
        let i = (p.y as usize + 1) * self.stride + p.x as usize + 1;
        self.dist.get(i).copied().filter(|&d| d != UNREACHED)
    }

    /// The source squares (those on the map).
    #[must_use]
    pub fn sources(&self) -> &[Pos] {
        &self.sources
    }

    /// A shortest legal path from a source to `target`, both included. Deterministic: walking
    /// back from `target`, always the first neighbour in [`Dir::ALL`] order one step closer.
    /// `map` and `obstacles` must be those the field was built from; otherwise the answer may be
    /// `None` (never an illegal path).
    #[must_use]
    pub fn path_to(&self, map: &Map, obstacles: &Obstacles, target: Pos) -> Option<Vec<Pos>> {
        if map.width() != self.width || map.height() != self.height {
            return None;
        }
        self.get(target)?;
        with_scratch(|sc| {
            let grid = Grid::new(map, obstacles, &self.sources, std::mem::take(&mut sc.steps));
            let path = grid.path(&self.dist, grid.index(target)?);
            sc.steps = grid.steps;
            path
        })
    }
}

/// Steps of a shortest legal path for a model on `a` to reach `b` (`a` is free, `b` must not be
/// blocked unless it is `a`); `None` if there is none or either is off the map.
#[must_use]
pub fn path_distance(map: &Map, obstacles: &Obstacles, a: Pos, b: Pos) -> Option<u32> {
    with_walk(map, obstacles, a, |grid, _, sc| {
        let ib = grid.index(b)?;
        sc.walk.reach(&grid.steps, &offsets(grid.stride), ib)
    })
    .flatten()
}

/// Path searches ([`shortest_path`], [`shortest_paths`]) this thread has made so far: what
/// the tests count to show that a move is searched once, validation to resolution.
#[must_use]
pub fn path_searches() -> u64 {
    PATH_SEARCHES.with(std::cell::Cell::get)
}

fn count_search() {
    PATH_SEARCHES.with(|c| c.set(c.get() + 1));
}

/// A shortest legal path from `a` to `b`, both included (see [`DistanceField::path_to`] for
/// which one).
#[must_use]
pub fn shortest_path(map: &Map, obstacles: &Obstacles, a: Pos, b: Pos) -> Option<Vec<Pos>> {
    count_search();
    with_walk(map, obstacles, a, |grid, _, sc| {
        let ib = grid.index(b)?;
        sc.walk.reach(&grid.steps, &offsets(grid.stride), ib)?;
        grid.path(&sc.walk.dist, ib)
    })
    .flatten()
}

/// Most distinct shortest paths [`shortest_paths`] lists.
pub const MAX_PATH_OPTIONS: usize = 64;

/// Every distinct shortest legal path from `a` to `b` (both included), at most `cap` of them,
/// in a fixed order whose first is [`shortest_path`]'s. Empty when there is none.
#[must_use]
pub fn shortest_paths(
    map: &Map,
    obstacles: &Obstacles,
    a: Pos,
    b: Pos,
    cap: usize,
) -> Vec<Vec<Pos>> {
    count_search();
    // Walk back from `b`, one step closer to `a` each time, neighbours in `Dir::ALL` order
    // (the order `path_to` picks its one path by). A step is taken when the grid allows it,
    // which on a shortest path is exactly when `can_step` does: the grid differs only in
    // letting the mover's square `a` be entered or cut past, and neither can happen one step
    // closer to `a` (both neighbours of such a step would be one step from `a`).
    fn back(
        grid: &Grid,
        dist: &[u32],
        offsets: &[isize; 8],
        rev: &mut Vec<usize>,
        out: &mut Vec<Vec<Pos>>,
        cap: usize,
    ) {
        let Some(&q) = rev.last() else {
            return;
        };
        let d = dist[q];
        if d == 0 {
            out.push(rev.iter().rev().map(|&i| grid.pos(i)).collect());
            return;
        }
        for (k, &off) in offsets.iter().enumerate() {
            let p = q.wrapping_add_signed(off);
            if dist[p] == d - 1 && grid.steps[p] & (1 << ((k + 4) % 8)) != 0 {
                rev.push(p);
                back(grid, dist, offsets, rev, out, cap);
                rev.pop();
                if out.len() >= cap {
                    return;
                }
            }
        }
    }
    with_walk(map, obstacles, a, |grid, _, sc| {
        let mut out: Vec<Vec<Pos>> = Vec::new();
        let Some(ib) = grid.index(b) else {
            return out;
        };
        let offsets = offsets(grid.stride);
        let Some(total) = sc.walk.reach(&grid.steps, &offsets, ib) else {
            return out;
        };
        if cap > 0 {
            let mut rev = Vec::with_capacity(total as usize + 1);
            rev.push(ib);
            back(grid, &sc.walk.dist, &offsets, &mut rev, &mut out, cap);
        }
        debug_assert!(out.iter().all(|p| p.len() as u32 == total + 1));
        out
    })
    .unwrap_or_default()
}

/// Squares a model on `from` can reach in at most `max_steps` legal steps, with their step
/// counts, `from` included at 0; sorted by (steps, y, x). Empty if `from` is off the map.
#[must_use]
pub fn reachable(map: &Map, obstacles: &Obstacles, from: Pos, max_steps: u32) -> Vec<(Pos, u32)> {
    with_walk(map, obstacles, from, |grid, _, sc| {
        let walk = &mut sc.walk;
        walk.advance(&grid.steps, &offsets(grid.stride), max_steps);
        let mut out: Vec<(Pos, u32)> = walk
            .within(max_steps)
            .iter()
            .map(|&i| (grid.pos(i), walk.dist[i]))
            .collect();
        out.sort_unstable_by_key(|&(p, d)| (d, p.y, p.x));
        out
    })
    .unwrap_or_default()
}

/// Where a move "towards" something wants to end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// End [`adjacent`] to any of these squares (a Hero, an Alien Unit): they are usually
    /// occupied, so they are not entered.
    AdjacentTo(Vec<Pos>),
    /// End on any of these squares (green squares, building squares, an exit…).
    Squares(Vec<Pos>),
}

impl Goal {
    /// Does a model on `p` satisfy the goal?
    #[must_use]
    pub fn is_met(&self, map: &Map, p: Pos) -> bool {
        match self {
            Goal::AdjacentTo(targets) => targets.iter().any(|&t| adjacent(map, p, t)),
            Goal::Squares(squares) => map.in_bounds(p) && squares.contains(&p),
        }
    }

    /// The squares the fallback measures Chebyshev distance to: the targets or the squares.
    fn anchors(&self) -> &[Pos] {
        match self {
            Goal::AdjacentTo(v) | Goal::Squares(v) => v,
        }
    }
}

/// How far the ends of a [`Towards`] still are from the goal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Remaining {
    /// Legal steps still needed from each end; 0 = the goal is reached.
    Path(u32),
    /// No legal path from anywhere the mover can reach leads to the goal: the ends minimise the
    /// Chebyshev distance to the nearest goal square (for [`Goal::AdjacentTo`], the nearest
    /// target square itself), which is this.
    Chebyshev(u32),
    /// The goal names no square on the map: the mover stays.
    NoGoal,
}

/// The equally good end squares of a "move up to N steps towards" order, for the Overmind to
/// choose among.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Towards {
    /// Best end squares, sorted by (y, x). Empty only when the mover is off the map.
    pub ends: Vec<Pos>,
    /// Distance still left from each end to the goal.
    pub remaining: Remaining,
    /// Steps used to reach each end (all ends need the same number).
    pub steps: u32,
    /// A path for each end, parallel to `ends`.
    paths: Vec<Vec<Pos>>,
}

impl Towards {
    /// The answer for a mover off the map.
    fn nowhere() -> Towards {
        Towards {
            ends: Vec::new(),
            remaining: Remaining::NoGoal,
            steps: 0,
            paths: Vec::new(),
        }
    }

    /// A legal path from the start to `end` (both included) if `end` is one of the ends.
    #[must_use]
    pub fn path(&self, end: Pos) -> Option<Vec<Pos>> {
        let k = self.ends.iter().position(|&e| e == end)?;
        self.paths.get(k).filter(|p| !p.is_empty()).cloned()
    }

    /// Do the ends satisfy the goal?
    #[must_use]
    pub fn reached(&self) -> bool {
        self.remaining == Remaining::Path(0)
    }
}

/// "Move up to `max_steps` steps towards `goal`": every best end square.
///
/// Best means, among squares reachable in at most `max_steps` legal steps: least remaining
/// legal-path distance to a square meeting the goal (the mover's start counts as free); then
/// fewest steps used. If no reachable square has any legal path to the goal, the fallback is
/// least Chebyshev distance to the nearest goal square (see [`Remaining::Chebyshev`]), then
/// fewest steps. A mover already at the goal stays (0 steps). Because fewer steps win ties, a
/// best end's path never passes through a goal square before it: the mover stops on the first.
///
/// A caller moving many models towards one goal can keep a [`GoalField`] instead: its
/// [`GoalField::towards`] gives the same answers without searching the goal's side afresh.
#[must_use]
pub fn towards(map: &Map, obstacles: &Obstacles, from: Pos, goal: Goal, max_steps: u32) -> Towards {
    with_walk(map, obstacles, from, |grid, start, sc| {
        let Scratch {
            walk,
            dist2,
            order2,
            cells,
            ..
        } = sc;
        goal_cells(map, grid, obstacles, &goal, start, cells);
        // `dist2` and `order2` serve this search alone, so the last one's labels are all in
        // `order2`.
        grid.reseed(dist2, order2, cells);
        towards_on(
            map,
            grid,
            walk,
            start,
            &goal,
            max_steps,
            ToGoal::Search(dist2, order2),
        )
    })
    .unwrap_or_else(Towards::nowhere)
}

/// The cells of `grid` meeting `goal` that a model may end on, into `out` (in no particular
/// order, perhaps twice): not solid, and holding no model unless it is the mover's `start`.
fn goal_cells(
    map: &Map,
    grid: &Grid,
    obstacles: &Obstacles,
    goal: &Goal,
    start: usize,
    out: &mut Vec<usize>,
) {
    let layout = Layout::of(map);
    out.clear();
    let mut add = |p: Pos| {
        if let Some(i) = grid.index(p) {
            if layout.cells[i] & FREE != 0 && (i == start || !obstacles.contains(p)) {
                out.push(i);
            }
        }
    };
    match goal {
        Goal::Squares(squares) => squares.iter().for_each(|&p| add(p)),
        // The squares adjacent to each target.
        Goal::AdjacentTo(targets) => {
            for &t in targets {
                let Some(ti) = layout.index(t) else {
                    continue;
                };
                let adj = layout.adjacent[ti];
                for (k, d) in Dir::ALL.into_iter().enumerate() {
                    if adj & (1 << k) != 0 {
                        add(t.offset(d));
                    }
                }
            }
        }
    }
}

/// Where [`towards_on`] gets the distances to the goal from.
enum ToGoal<'a> {
    /// A search on the mover's grid seeded with the goal cells (at 0), to be taken as far as
    /// needed.
    Search(&'a mut Vec<u32>, &'a mut Vec<usize>),
    /// Every distance to the goal on the mover's grid, exact.
    Field(&'a [u32]),
}

/// [`towards`] from `start` on the mover's `grid`, with the mover's search `walk`.
fn towards_on(
    map: &Map,
    grid: &Grid,
    walk: &mut Walk,
    start: usize,
    goal: &Goal,
    max_steps: u32,
    mut to_goal: ToGoal<'_>,
) -> Towards {
    let offsets = offsets(grid.stride);
    let at_goal = |g: &ToGoal<'_>, i: usize| match g {
        ToGoal::Search(d, _) => d[i] == 0,
        ToGoal::Field(d) => d[i] == 0,
    };
    // The mover's search first, level by level up to the first holding a goal square if any:
    // then the best ends are the goal squares there. Otherwise only the least distance to the
    // goal of any square the mover reached matters, so the goal's search stops after the first
    // level holding one (every square of that level is reached by then); squares it has not
    // reached are farther, whatever their true distance, so they can never be best.
    let mut level = 0;
    let mut reached = 1;
    let mut hit = at_goal(&to_goal, start);
    while !hit && level < max_steps {
        walk.advance(&grid.steps, &offsets, level + 1);
        let order = &walk.order;
        let mut end = reached;
        while end < order.len() && walk.dist[order[end]] == level + 1 {
            end += 1;
        }
        if end == reached && walk.exhausted() {
            break;
        }
        level += 1;
        hit = order[reached..end].iter().any(|&i| at_goal(&to_goal, i));
        reached = end;
    }
    let order = &walk.order[..reached];
    let moves = &walk.dist;
    let in_reach = |j: usize| moves[j] <= level;
    let to_goal: &[u32] = match &mut to_goal {
        ToGoal::Search(dist, goal_order) => {
            if !hit {
                grid.search(dist, goal_order, UNREACHED, true, in_reach);
            }
            dist
        }
        ToGoal::Field(dist) => dist,
    };

    // One (primary, steps) key per reachable square; the best ends share the least key.
    let path_key = |i: usize| (to_goal[i], moves[i]);
    let best_path = order.iter().map(|&i| path_key(i)).min();
    if let Some(best @ (d, _)) = best_path.filter(|k| k.0 != UNREACHED) {
        let ends: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| path_key(i) == best)
            .collect();
        return finish(grid, moves, ends, Remaining::Path(d), best.1);
    }
    let anchors: Vec<Pos> = goal
        .anchors()
        .iter()
        .copied()
        .filter(|&p| map.in_bounds(p))
        .collect();
    let keys: Vec<(u32, u32)> = order
        .iter()
        .map(|&i| {
            let p = grid.pos(i);
            let cheb = anchors.iter().map(|&a| p.distance(a)).min().unwrap_or(0);
            (cheb, moves[i])
        })
        .collect();
    let remaining = match keys.iter().min() {
        Some(&(c, _)) if !anchors.is_empty() => Remaining::Chebyshev(c),
        _ => Remaining::NoGoal,
    };
    let best = keys.iter().min().copied().unwrap_or((0, 0));
    let ends: Vec<usize> = order
        .iter()
        .zip(&keys)
        .filter(|&(_, k)| *k == best)
        .map(|(&i, _)| i)
        .collect();
    finish(grid, moves, ends, remaining, best.1)
}

/// The [`Towards`] of the best `ends` (cells of `grid`, reached with `moves` in `steps`).
fn finish(
    grid: &Grid,
    moves: &[u32],
    mut ends: Vec<usize>,
    remaining: Remaining,
    steps: u32,
) -> Towards {
    ends.sort_unstable_by_key(|&i| {
        let p = grid.pos(i);
        (p.y, p.x)
    });
    // Every end was reached by this BFS, so each has a path; an empty one would mean none.
    let paths: Vec<Vec<Pos>> = ends
        .iter()
        .map(|&i| grid.path(moves, i).unwrap_or_default())
        .collect();
    Towards {
        ends: ends.iter().map(|&i| grid.pos(i)).collect(),
        remaining,
        steps,
        paths,
    }
}

/// The equally good end squares of a "move up to N steps away from" order, for the Overmind
/// to choose among.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Away {
    /// Best end squares, sorted by (y, x). Empty only when the mover is off the map.
    pub ends: Vec<Pos>,
    /// The distance ([`Pos::distance`], the game's range) from each end to the nearest of the
    /// squares moved away from; `None` when none of them is on the map (the mover stays).
    pub distance: Option<u32>,
    /// Steps used to reach each end (all ends need the same number).
    pub steps: u32,
    /// A path for each end, parallel to `ends`.
    paths: Vec<Vec<Pos>>,
}

impl Away {
    /// A legal path from the start to `end` (both included) if `end` is one of the ends.
    #[must_use]
    pub fn path(&self, end: Pos) -> Option<Vec<Pos>> {
        let k = self.ends.iter().position(|&e| e == end)?;
        self.paths.get(k).filter(|p| !p.is_empty()).cloned()
    }
}

/// "Move up to `max_steps` steps away from `threats`": every best end square.
///
/// Best means, among the squares [`reachable`] in at most `max_steps` legal steps (the start
/// included): greatest distance ([`Pos::distance`], the game's range) to the nearest threat on
/// the map; then fewest steps used. So a mover no square of which is farther stays, and every
/// end is reached by a legal path exactly as a move to it would take. Threats off the map are
/// ignored; with none on the map the mover stays (0 steps, `distance` `None`).
#[must_use]
pub fn away(map: &Map, obstacles: &Obstacles, from: Pos, threats: &[Pos], max_steps: u32) -> Away {
    let threats: Vec<Pos> = threats
        .iter()
        .copied()
        .filter(|&p| map.in_bounds(p))
        .collect();
    with_walk(map, obstacles, from, |grid, start, sc| {
        let walk = &mut sc.walk;
        let moves = if threats.is_empty() { 0 } else { max_steps };
        walk.advance(&grid.steps, &offsets(grid.stride), moves);
        let far = |i: usize| {
            let p = grid.pos(i);
            threats.iter().map(|&t| p.distance(t)).min()
        };
        // The least key is best: farthest first (reversed), then fewest steps.
        let key = |i: usize| (std::cmp::Reverse(far(i)), walk.dist[i]);
        let within = walk.within(moves);
        let best = within.iter().map(|&i| key(i)).min();
        let mut ends: Vec<usize> = match best {
            Some(b) => within.iter().copied().filter(|&i| key(i) == b).collect(),
            None => vec![start],
        };
        ends.sort_unstable_by_key(|&i| {
            let p = grid.pos(i);
            (p.y, p.x)
        });
        let steps = ends.first().map_or(0, |&i| walk.dist[i]);
        let distance = ends.first().and_then(|&i| far(i));
        Away {
            ends: ends.iter().map(|&i| grid.pos(i)).collect(),
            distance,
            steps,
            paths: ends
                .iter()
                .map(|&i| grid.path(&walk.dist, i).unwrap_or_default())
                .collect(),
        }
    })
    .unwrap_or(Away {
        ends: Vec::new(),
        distance: None,
        steps: 0,
        paths: Vec::new(),
    })
}

/// The distances to one goal, kept from one [`GoalField::towards`] to the next so that moving
/// several models towards the same goal (a unit's models one after another, a side's
/// activations) does not search the goal's side afresh for each.
///
/// The field holds every square's distance to the goal over the grid of the last query (its
/// mover's square free, every other model blocking). The next query brings it up to date with
/// its own grid and goal cells by re-settling only the squares whose distance the differences
/// can alter (a dynamic shortest-path update, see `Repair`): when a model has moved and the
/// next one plans, that is the squares around the two, not the map. Its answers are always
/// those of [`towards`], whatever was asked before: goal, map and obstacles may all differ from
/// one query to the next (a large difference just costs a full search).
#[derive(Clone, Debug)]
pub struct GoalField {
    /// The grid the distances are exact for, its stride, and its goal cells (sorted).
    steps: Vec<u8>,
    stride: usize,
    sources: Vec<usize>,
    dist: Vec<u32>,
    /// The least map (in squares) the field is kept on: [`REPAIR_FROM`] (0 in tests).
    keep_from: usize,
}

impl Default for GoalField {
    fn default() -> GoalField {
        GoalField {
            steps: Vec::new(),
            stride: 0,
            sources: Vec::new(),
            dist: Vec::new(),
            keep_from: REPAIR_FROM,
        }
    }
}

/// The least map (in squares) on which a [`GoalField`] is kept and repaired.
const REPAIR_FROM: usize = 60 * 60;

impl GoalField {
    /// An empty field (the first query searches).
    #[must_use]
    pub fn new() -> GoalField {
        GoalField::default()
    }

    /// Exactly [`towards`]`(map, obstacles, from, goal.clone(), max_steps)`.
    #[must_use]
    pub fn towards(
        &mut self,
        map: &Map,
        obstacles: &Obstacles,
        from: Pos,
        goal: &Goal,
        max_steps: u32,
    ) -> Towards {
        // Below this many squares a repair visits more than the one-off search, which stops
        // at the first level it needs (measured: `paths/*/plan_*` in core/benches/paths.rs,
        // 3.2× slower kept on 20×20, 1.4× on 40×40, even on 60×60, 0.64× on 80×80, 0.39× on
        // 160×160), so the field is not kept there.
        if map.len() < self.keep_from {
            self.steps.clear();
            return towards(map, obstacles, from, goal.clone(), max_steps);
        }
        with_walk(map, obstacles, from, |grid, start, sc| {
            let mut sources = std::mem::take(&mut sc.cells);
            goal_cells(map, grid, obstacles, goal, start, &mut sources);
            sources.sort_unstable();
            sources.dedup();
            self.update(grid, &mut sources, sc);
            sc.cells = sources;
            towards_on(
                map,
                grid,
                &mut sc.walk,
                start,
                goal,
                max_steps,
                ToGoal::Field(&self.dist),
            )
        })
        .unwrap_or_else(Towards::nowhere)
    }

    /// Makes the field exact for `grid` and its goal cells `sources` (sorted; swapped with the
    /// field's old ones): repaired when few cells differ from the grid it was exact for, else
    /// searched afresh.
    fn update(&mut self, grid: &Grid, sources: &mut Vec<usize>, sc: &mut Scratch) {
        let n = grid.steps.len();
        if self.stride == grid.stride && self.steps.len() == n {
            let limit = n / 8 + 8;
            let moved = sym_diff_len(&self.sources, sources);
            let changed = &mut sc.changed;
            changed.clear();
            if moved <= limit {
                differing(&self.steps, &grid.steps, limit - moved, changed);
            }
            if moved + changed.len() <= limit {
                if moved > 0 || !changed.is_empty() {
                    sc.repair.run(
                        (&self.steps, &self.sources),
                        (&grid.steps, sources),
                        changed,
                        &mut self.dist,
                        grid.stride,
                    );
                    for &i in changed.iter() {
                        self.steps[i] = grid.steps[i];
                    }
                    std::mem::swap(&mut self.sources, sources);
                }
                return;
            }
        }
        grid.bfs(&mut self.dist, &mut sc.order, sources, UNREACHED, None);
        self.steps.clone_from(&grid.steps);
        self.stride = grid.stride;
        std::mem::swap(&mut self.sources, sources);
    }
}

/// The cells where `a` and `b` (of one length) differ, into `out`; stops once more than `limit`.
fn differing(a: &[u8], b: &[u8], limit: usize, out: &mut Vec<usize>) {
    const W: usize = 16;
    for (c, (x, y)) in a.chunks(W).zip(b.chunks(W)).enumerate() {
        if x == y {
            continue;
        }
        for (k, (p, q)) in x.iter().zip(y).enumerate() {
            if p != q {
                out.push(c * W + k);
            }
        }
        if out.len() > limit {
            return;
        }
    }
}

/// How many cells are in exactly one of two sorted lists.
fn sym_diff_len(a: &[usize], b: &[usize]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => (i, n) = (i + 1, n + 1),
            std::cmp::Ordering::Greater => (j, n) = (j + 1, n + 1),
            std::cmp::Ordering::Equal => (i, j) = (i + 1, j + 1),
        }
    }
    n + (a.len() - i) + (b.len() - j)
}

/// Brings breadth-first distances from one grid and set of sources to another (a dynamic
/// shortest-path update for unit steps): the cells whose distance lost every shortest way to
/// it are found in order of distance and forgotten, then they and whatever the new steps or
/// sources bring closer are settled again in order of distance. Cells the change cannot alter
/// are never visited.
#[derive(Debug, Default)]
struct Repair {
    /// Cells by distance, to visit in order (`buckets[d]`).
    buckets: Vec<Vec<usize>>,
    lost: Vec<usize>,
    /// Per cell: `stamp` once lost; `stamp` in `new_src` for a new source, in `old_src` for an
    /// old one.
    mark: Vec<u32>,
    new_src: Vec<u32>,
    old_src: Vec<u32>,
    stamp: u32,
}

impl Repair {
    fn push(buckets: &mut Vec<Vec<usize>>, d: u32, v: usize) {
        let d = d as usize;
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push(v);
    }

    /// `dist` holds the exact distances from the cells `old.1` over the steps `old.0`; makes
    /// them the exact distances from `new.1` over `new.0`. Every cell whose steps differ must be
    /// in `changed`.
    fn run(
        &mut self,
        old: (&[u8], &[usize]),
        new: (&[u8], &[usize]),
        changed: &[usize],
        dist: &mut [u32],
        stride: usize,
    ) {
        let ((old_steps, old_sources), (new_steps, new_sources)) = (old, new);
        let offsets = offsets(stride);
        let n = dist.len();
        if self.mark.len() != n || self.stamp == u32::MAX {
            self.mark = vec![0; n];
            self.new_src = vec![0; n];
            self.old_src = vec![0; n];
            self.stamp = 0;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        let Repair {
            buckets,
            lost,
            mark,
            new_src,
            old_src,
            ..
        } = self;
        for &s in new_sources {
            new_src[s] = stamp;
        }
        for &s in old_sources {
            old_src[s] = stamp;
        }
        lost.clear();

        // 1. Cells that may have lost their distance: the ends of removed steps that were on a
        // shortest way, and sources no longer sources; in order of (old) distance, so that a
        // cell's possible supports are decided before it. It keeps its distance if it is a
        // source, or a neighbour one closer and not lost still steps to it; else it is lost, and
        // so may be each cell it was one closer to.
        for &i in changed {
            let removed = old_steps[i] & !new_steps[i];
            if removed == 0 || dist[i] == UNREACHED {
                continue;
            }
            for (k, &off) in offsets.iter().enumerate() {
                let j = i.wrapping_add_signed(off);
                if removed & (1 << k) != 0 && dist[j] == dist[i] + 1 {
                    Self::push(buckets, dist[j], j);
                }
            }
        }
        for &s in old_sources {
            if new_src[s] != stamp && dist[s] == 0 {
                Self::push(buckets, 0, s);
            }
        }
        let mut d = 0;
        while d < buckets.len() {
            while let Some(v) = buckets[d].pop() {
                if mark[v] == stamp || new_src[v] == stamp {
                    continue;
                }
                let du = d as u32;
                let kept = du > 0
                    && offsets.iter().enumerate().any(|(k, &off)| {
                        let u = v.wrapping_add_signed(-off);
                        new_steps[u] & (1 << k) != 0 && dist[u] == du - 1 && mark[u] != stamp
                    });
                if kept {
                    continue;
                }
                mark[v] = stamp;
                lost.push(v);
                let mut mask = old_steps[v];
                while mask != 0 {
                    let k = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let w = v.wrapping_add_signed(offsets[k]);
                    if dist[w] == du + 1 && mark[w] != stamp {
                        Self::push(buckets, du + 1, w);
                    }
                }
            }
            d += 1;
        }

        // 2. Forget the lost cells, then give each the best its kept neighbours offer; add what
        // new steps and new sources bring closer.
        for &v in lost.iter() {
            dist[v] = UNREACHED;
        }
        for &v in lost.iter() {
            let best = offsets
                .iter()
                .enumerate()
                .filter_map(|(k, &off)| {
                    let u = v.wrapping_add_signed(-off);
                    (new_steps[u] & (1 << k) != 0 && dist[u] != UNREACHED).then(|| dist[u] + 1)
                })
                .min();
            if let Some(best) = best {
                dist[v] = best;
                Self::push(buckets, best, v);
            }
        }
        for &i in changed {
            let added = new_steps[i] & !old_steps[i];
            if added == 0 || dist[i] == UNREACHED {
                continue;
            }
            for (k, &off) in offsets.iter().enumerate() {
                let j = i.wrapping_add_signed(off);
                if added & (1 << k) != 0 && dist[i] + 1 < dist[j] {
                    dist[j] = dist[i] + 1;
                    Self::push(buckets, dist[j], j);
                }
            }
        }
        for &s in new_sources {
            if old_src[s] != stamp || dist[s] != 0 {
                dist[s] = 0;
                Self::push(buckets, 0, s);
            }
        }

        // 3. Settle in order of distance over the new steps.
        let mut d = 0;
        while d < buckets.len() {
            while let Some(v) = buckets[d].pop() {
                let du = d as u32;
                if dist[v] != du {
                    continue;
                }
                let mut mask = new_steps[v];
                while mask != 0 {
                    let k = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let w = v.wrapping_add_signed(offsets[k]);
                    if du + 1 < dist[w] {
                        dist[w] = du + 1;
                        Self::push(buckets, du + 1, w);
                    }
                }
            }
            d += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::map::MapBuilder;

    /// A small xorshift generator, so these checks need no crate and repeat exactly.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n.max(1)
        }
    }

    /// A random map: walls on about `walls` sixteenths of the edges, solid squares on `solid`.
    /// A random map of 2 to 10 squares a side, about one square in eight occupied, and a
    /// start square (occupied too, as a mover's own square is): (map, obstacles, start, w, h).
    fn random_scene(rng: &mut Rng) -> (Map, Obstacles, Pos, i32, i32) {
        let (w, h) = (2 + rng.below(9) as i32, 2 + rng.below(9) as i32);
        let (walls, solid) = (rng.below(5), rng.below(4));
        let m = random_map(rng, w, h, walls, solid);
        let mut o = Obstacles::new(&m);
        for q in m.squares() {
            if rng.below(8) == 0 {
                o.insert(q);
            }
        }
        let a = p(rng.below(w as u64) as i32, rng.below(h as u64) as i32);
        o.insert(a);
        (m, o, a, w, h)
    }

    fn random_map(rng: &mut Rng, w: i32, h: i32, walls: u64, solid: u64) -> Map {
        let mut b = MapBuilder::new(w, h);
        for y in 0..h {
            for x in 0..w {
                if rng.below(16) < solid {
                    b.set_terrain(p(x, y), crate::data::map::Terrain::Solid);
                }
                if rng.below(16) < walls {
                    b.set_north(x, y, Edge::Wall);
                }
                if rng.below(16) < walls {
                    b.set_west(x, y, Edge::Wall);
                }
            }
        }
        b.build()
    }

    /// `shortest_paths` as it was: a whole field, then `can_step` for each step back.
    fn shortest_paths_by_can_step(
        map: &Map,
        o: &Obstacles,
        a: Pos,
        b: Pos,
        cap: usize,
    ) -> Vec<Vec<Pos>> {
        let field = DistanceField::from(map, o, a);
        if field.get(b).is_none() {
            return Vec::new();
        }
        let mut out = Vec::new();
        fn back(
            map: &Map,
            o: &Obstacles,
            field: &DistanceField,
            a: Pos,
            rev: &mut Vec<Pos>,
            out: &mut Vec<Vec<Pos>>,
            cap: usize,
        ) {
            if out.len() >= cap {
                return;
            }
            let q = *rev.last().unwrap_or(&a);
            if q == a {
                out.push(rev.iter().rev().copied().collect());
                return;
            }
            let Some(d) = field.get(q) else {
                return;
            };
            for dir in Dir::ALL {
                let p = q.offset(dir);
                if field.get(p) == Some(d.wrapping_sub(1)) && can_step(map, o, p, q) {
                    rev.push(p);
                    back(map, o, field, a, rev, out, cap);
                    rev.pop();
                    if out.len() >= cap {
                        return;
                    }
                }
            }
        }
        back(map, o, &field, a, &mut vec![b], &mut out, cap);
        out
    }

    #[test]
    fn shortest_paths_match_the_can_step_walk_back() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for case in 0..300 {
            let (m, o, a, w, h) = random_scene(&mut rng);
            for _ in 0..6 {
                let b = p(rng.below(w as u64) as i32, rng.below(h as u64) as i32);
                let cap = rng.below(6) as usize;
                let want = shortest_paths_by_can_step(&m, &o, a, b, cap);
                // Asked cold and after other questions about the same start (the memo).
                assert_eq!(
                    shortest_paths(&m, &o, a, b, cap),
                    want,
                    "case {case}: {a} to {b}"
                );
                let _ = reachable(&m, &o, a, rng.below(4) as u32);
                assert_eq!(
                    shortest_paths(&m, &o, a, b, cap),
                    want,
                    "case {case}: {a} to {b}"
                );
                if cap > 0 {
                    assert_eq!(shortest_path(&m, &o, a, b).as_ref(), want.first());
                }
            }
        }
    }

    #[test]
    fn goal_field_answers_as_towards_over_moves() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for game in 0..60 {
            let (w, h) = (3 + rng.below(14) as i32, 3 + rng.below(14) as i32);
            let (walls, solid) = (rng.below(4), rng.below(3));
            let m = random_map(&mut rng, w, h, walls, solid);
            let free: Vec<Pos> = m.squares().filter(|&q| !m.is_solid(q)).collect();
            if free.len() < 4 {
                continue;
            }
            // Models on distinct free squares; one side's targets among them.
            let mut models: Vec<Pos> = Vec::new();
            for _ in 0..(2 + rng.below(free.len() as u64 / 3)) {
                let q = free[rng.below(free.len() as u64) as usize];
                if !models.contains(&q) {
                    models.push(q);
                }
            }
            let mut field = GoalField {
                keep_from: 0,
                ..GoalField::new()
            };
            for step in 0..40 {
                let mut o = Obstacles::new(&m);
                for &q in &models {
                    o.insert(q);
                }
                let targets: Vec<Pos> = models.iter().copied().take(1 + models.len() / 3).collect();
                let goal = match rng.below(5) {
                    0 => Goal::Squares(
                        (0..3)
                            .map(|_| free[rng.below(free.len() as u64) as usize])
                            .collect(),
                    ),
                    1 => Goal::AdjacentTo(vec![p(-1, 0)]),
                    _ => Goal::AdjacentTo(targets),
                };
                let k = rng.below(models.len() as u64) as usize;
                let from = models[k];
                let steps = rng.below(7) as u32;
                let want = towards(&m, &o, from, goal.clone(), steps);
                let got = field.towards(&m, &o, from, &goal, steps);
                assert_eq!(
                    got, want,
                    "game {game} step {step}: {from} towards {goal:?}"
                );
                // Move the mover to its first end (or anywhere free now and then).
                let to = if rng.below(6) == 0 {
                    free[rng.below(free.len() as u64) as usize]
                } else {
                    want.ends.first().copied().unwrap_or(from)
                };
                if !models.contains(&to) {
                    models[k] = to;
                }
            }
        }
    }

    #[test]
    fn repaired_distances_equal_a_fresh_search() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let mut repair = Repair::default();
        for case in 0..400 {
            let (w, h) = (2 + rng.below(12) as i32, 2 + rng.below(12) as i32);
            let (walls, solid) = (rng.below(5), rng.below(4));
            let m = random_map(&mut rng, w, h, walls, solid);
            let layout = Layout::of(&m);
            let n = layout.steps.len();
            let cells: Vec<usize> = m.squares().filter_map(|q| layout.index(q)).collect();
            let pick = |rng: &mut Rng, k: u64| -> Vec<usize> {
                let mut v: Vec<usize> = (0..k)
                    .map(|_| cells[rng.below(cells.len() as u64) as usize])
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            let block = |rng: &mut Rng| {
                let mut o = Obstacles::new(&m);
                for q in m.squares() {
                    if rng.below(6) == 0 {
                        o.insert(q);
                    }
                }
                Grid::new(&m, &o, &[], Vec::new())
            };
            let (g0, g1) = (block(&mut rng), block(&mut rng));
            let (k0, k1) = (1 + rng.below(4), rng.below(4));
            let (s0, s1) = (pick(&mut rng, k0), pick(&mut rng, k1));
            let (mut d0, mut d1, mut order) = (Vec::new(), Vec::new(), Vec::new());
            g0.bfs(&mut d0, &mut order, &s0, UNREACHED, None);
            g1.bfs(&mut d1, &mut order, &s1, UNREACHED, None);
            let changed: Vec<usize> = (0..n).filter(|&i| g0.steps[i] != g1.steps[i]).collect();
            repair.run(
                (&g0.steps, &s0),
                (&g1.steps, &s1),
                &changed,
                &mut d0,
                g0.stride,
            );
            assert_eq!(d0, d1, "case {case}");
        }
    }

    fn map(drawing: &str) -> Map {
        MapBuilder::from_drawing(drawing).build()
    }

    fn p(x: i32, y: i32) -> Pos {
        Pos::new(x, y)
    }

    fn obstacles(map: &Map, at: &[Pos]) -> Obstacles {
        let mut o = Obstacles::new(map);
        for &q in at {
            o.insert(q);
        }
        o
    }

    fn open(w: i32, h: i32) -> Map {
        MapBuilder::new(w, h).build()
    }

    #[test]
    fn wall_between_orthogonal_neighbours() {
        let m = map("
+-+-+-+
|.|. .|
+-+-+-+
");
        let o = Obstacles::new(&m);
        assert!(!adjacent(&m, p(0, 0), p(1, 0)));
        assert!(!can_step(&m, &o, p(0, 0), p(1, 0)));
        assert!(adjacent(&m, p(1, 0), p(2, 0)));
        assert!(can_step(&m, &o, p(2, 0), p(1, 0)));
        assert_eq!(path_distance(&m, &o, p(0, 0), p(2, 0)), None);
        assert_eq!(neighbours(&m, &o, p(0, 0)).count(), 0);
    }

    #[test]
    fn cached_adjacency_matches_the_walls() {
        let maps = [
            map(ROOM),
            map("
+-+-+-+
|.|. .|
+ +-+ +
|. #|.|
+-+ + +
|.|. .|
+-+-+-+
"),
            open(4, 3),
        ];
        for m in &maps {
            for a in m.squares() {
                for dx in -2..=2 {
                    for dy in -2..=2 {
                        let b = Pos::new(a.x + dx, a.y + dy);
                        assert_eq!(adjacent(m, a, b), adjacent_by_walls(m, a, b), "{a:?} {b:?}");
                        assert_eq!(adjacent(m, b, a), adjacent_by_walls(m, b, a), "{b:?} {a:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn adjacency_is_not_reflexive_nor_long_range_nor_off_map() {
        let m = open(3, 3);
        assert!(!adjacent(&m, p(1, 1), p(1, 1)));
        assert!(!adjacent(&m, p(0, 0), p(2, 2)));
        assert!(!adjacent(&m, p(0, 0), p(-1, 0)));
        assert!(adjacent(&m, p(0, 0), p(1, 1)));
    }

    #[test]
    fn diagonal_past_one_wall_is_adjacent_but_no_step() {
        // A wall segment north of (1,1) touches the corner between the four squares.
        let m = map("
+-+-+
|. .|
+ +-+
|. .|
+-+-+
");
        let o = Obstacles::new(&m);
        assert!(adjacent(&m, p(0, 0), p(1, 1)), "route via (0,1) is clear");
        assert!(
            !can_step(&m, &o, p(0, 0), p(1, 1)),
            "route via (1,0) crosses the wall"
        );
        assert!(!can_step(&m, &o, p(1, 1), p(0, 0)));
        assert!(adjacent(&m, p(1, 0), p(0, 1)));
        assert!(!can_step(&m, &o, p(1, 0), p(0, 1)));
        assert_eq!(path_distance(&m, &o, p(0, 0), p(1, 1)), Some(2));
        assert_eq!(
            shortest_path(&m, &o, p(0, 0), p(1, 1)),
            Some(vec![p(0, 0), p(0, 1), p(1, 1)])
        );
    }

    #[test]
    fn diagonal_with_both_routes_walled_is_not_adjacent() {
        let m = map("
+-+-+
|.|.|
+-+ +
|. .|
+-+-+
");
        assert!(!adjacent(&m, p(0, 0), p(1, 1)));
        assert!(!adjacent(&m, p(1, 1), p(0, 0)));
        assert!(adjacent(&m, p(1, 0), p(0, 1)), "via (1,1) is clear");
        let o = Obstacles::new(&m);
        assert_eq!(
            path_distance(&m, &o, p(0, 0), p(1, 1)),
            None,
            "(0,0) is walled in"
        );
    }

    #[test]
    fn diagonal_step_past_a_model_is_blocked() {
        let m = open(2, 2);
        let o = obstacles(&m, &[p(1, 0)]);
        assert!(adjacent(&m, p(0, 0), p(1, 1)));
        assert!(!can_step(&m, &o, p(0, 0), p(1, 1)));
        assert_eq!(
            neighbours(&m, &o, p(0, 0)).collect::<Vec<_>>(),
            vec![p(0, 1)]
        );
        assert_eq!(
            shortest_path(&m, &o, p(0, 0), p(1, 1)),
            Some(vec![p(0, 0), p(0, 1), p(1, 1)])
        );
    }

    #[test]
    fn diagonal_step_past_solid_is_blocked() {
        let m = map("
+-+-+
|. #|
+ + +
|. .|
+-+-+
");
        let o = Obstacles::new(&m);
        assert!(!can_step(&m, &o, p(0, 0), p(1, 1)));
        assert!(!can_step(&m, &o, p(0, 0), p(1, 0)));
        assert_eq!(path_distance(&m, &o, p(0, 0), p(1, 1)), Some(2));
    }

    #[test]
    fn no_passing_through_models() {
        let m = open(3, 1);
        let o = obstacles(&m, &[p(0, 0), p(1, 0)]);
        assert_eq!(path_distance(&m, &o, p(0, 0), p(2, 0)), None);
        assert_eq!(reachable(&m, &o, p(0, 0), 5), vec![(p(0, 0), 0)]);
        assert!(!can_step(&m, &o, p(0, 0), p(1, 0)));
        // The mover's own square never blocks, even though it is in the obstacles.
        assert_eq!(path_distance(&m, &o, p(1, 0), p(2, 0)), Some(1));
        // A model cannot end on another model's square.
        assert_eq!(path_distance(&m, &o, p(2, 0), p(1, 0)), None);
    }

    #[test]
    fn mover_square_never_blocks_but_other_models_do() {
        let m = open(2, 2);
        let o = obstacles(&m, &[p(0, 0), p(1, 0)]);
        // The model on (0,0) is the mover: it leaves freely, diagonally too.
        let f = DistanceField::from(&m, &o, p(0, 0));
        assert_eq!(f.get(p(0, 0)), Some(0));
        assert_eq!(f.get(p(1, 0)), None, "another model's square");
        assert_eq!(f.get(p(0, 1)), Some(1));
        assert_eq!(
            f.get(p(1, 1)),
            Some(2),
            "no diagonal past the model on (1,0)"
        );
        // Seen from (1,0), the model on (0,0) blocks the diagonal to (0,1).
        let f = DistanceField::from(&m, &o, p(1, 0));
        assert_eq!(f.get(p(0, 1)), Some(2));
        // Several movers at once: each source's model is lifted for the others as well.
        let f = DistanceField::from_many(&m, &o, &[p(0, 0), p(1, 0)]);
        assert_eq!((f.get(p(0, 1)), f.get(p(1, 1))), (Some(1), Some(1)));
    }

    /// A room at x 1..=3, y 1..=2 with one doorway, south of (2,2).
    const ROOM: &str = "
+-+-+-+-+-+
|. . . . .|
+ +-+-+-+ +
|.|b b b|.|
+ + + + + +
|.|b b b|.|
+ +-+ +-+ +
|. . . . .|
+-+-+-+-+-+
";

    #[test]
    fn doorway_is_the_only_way_in() {
        let m = map(ROOM);
        let o = Obstacles::new(&m);
        assert_eq!(m.terrain(p(2, 1)), crate::data::map::Terrain::Building);
        // Round the room's side and in through the door: (2,0) (1,0) (0,0) (0,1) (0,2) (0,3)
        // (1,3) (2,3) (2,2) (2,1), mirrored on the east side.
        assert_eq!(path_distance(&m, &o, p(2, 0), p(2, 1)), Some(9));
        let path = shortest_path(&m, &o, p(2, 0), p(2, 1)).unwrap_or_default();
        assert_eq!(path.len(), 10, "{path:?}");
        assert_eq!((path[0], path[9]), (p(2, 0), p(2, 1)));
        assert_eq!(&path[7..], &[p(2, 3), p(2, 2), p(2, 1)]);
        for pair in path.windows(2) {
            assert!(can_step(&m, &o, pair[0], pair[1]), "{pair:?}");
        }
        // Blocking the doorway square shuts the room.
        let o = obstacles(&m, &[p(2, 3)]);
        assert_eq!(path_distance(&m, &o, p(2, 0), p(2, 1)), None);
    }

    #[test]
    fn reachable_within_n_respects_walls() {
        let m = map(ROOM);
        let o = obstacles(&m, &[p(2, 2)]);
        let r = reachable(&m, &o, p(2, 2), 2);
        let expected = vec![
            (p(2, 2), 0),
            (p(1, 1), 1),
            (p(2, 1), 1),
            (p(3, 1), 1),
            (p(1, 2), 1),
            (p(3, 2), 1),
            (p(2, 3), 1),
            (p(1, 3), 2),
            (p(3, 3), 2),
        ];
        assert_eq!(r, expected);
        assert_eq!(reachable(&m, &o, p(2, 2), 0), vec![(p(2, 2), 0)]);
    }

    #[test]
    fn distance_field_multi_source_and_paths() {
        let m = open(5, 1);
        let o = obstacles(&m, &[p(0, 0), p(4, 0)]);
        let f = DistanceField::from_many(&m, &o, &[p(0, 0), p(4, 0), p(9, 9)]);
        assert_eq!(f.sources(), &[p(0, 0), p(4, 0)]);
        let got: Vec<_> = (0..5).map(|x| f.get(p(x, 0))).collect();
        assert_eq!(got, vec![Some(0), Some(1), Some(2), Some(1), Some(0)]);
        assert_eq!(
            f.path_to(&m, &o, p(2, 0)),
            Some(vec![p(4, 0), p(3, 0), p(2, 0)]),
            "back-trace prefers E before W"
        );
        assert_eq!(f.path_to(&m, &o, p(7, 0)), None);
        assert_eq!(f.path_to(&open(3, 3), &o, p(1, 0)), None, "other map");
    }

    #[test]
    fn towards_ties_are_returned_as_a_set() {
        let m = open(5, 5);
        let o = obstacles(&m, &[p(0, 2)]);
        let t = towards(&m, &o, p(0, 2), Goal::Squares(vec![p(4, 2)]), 2);
        assert_eq!(t.ends, (0..5).map(|y| p(2, y)).collect::<Vec<_>>());
        assert_eq!(t.remaining, Remaining::Path(2));
        assert_eq!(t.steps, 2);
        for &e in &t.ends {
            let path = t.path(e).unwrap_or_default();
            assert_eq!(path.len(), 3);
            assert_eq!((path[0], path[2]), (p(0, 2), e));
        }
        assert_eq!(t.path(p(1, 2)), None);
    }

    #[test]
    fn towards_occupied_target_ends_adjacent() {
        let m = open(5, 5);
        let o = obstacles(&m, &[p(0, 2), p(4, 2)]);
        let goal = Goal::AdjacentTo(vec![p(4, 2)]);
        let t = towards(&m, &o, p(0, 2), goal.clone(), 6);
        assert_eq!(t.ends, vec![p(3, 1), p(3, 2), p(3, 3)]);
        assert_eq!((t.remaining, t.steps), (Remaining::Path(0), 3));
        assert!(t.reached());
        assert!(t.ends.iter().all(|&e| goal.is_met(&m, e)));
        // Not enough movement: get as close as possible.
        let t = towards(&m, &o, p(0, 2), goal.clone(), 1);
        assert_eq!(t.ends, vec![p(1, 1), p(1, 2), p(1, 3)]);
        assert_eq!((t.remaining, t.steps), (Remaining::Path(2), 1));
        // Already adjacent: stay.
        let o = obstacles(&m, &[p(3, 2), p(4, 2)]);
        let t = towards(&m, &o, p(3, 2), goal, 6);
        assert_eq!((t.ends.clone(), t.steps), (vec![p(3, 2)], 0));
        assert_eq!(t.path(p(3, 2)), Some(vec![p(3, 2)]));
    }

    #[test]
    fn towards_adjacency_respects_walls() {
        // The target sits behind a wall: the square beside it across the wall is no goal.
        let m = map("
+-+-+-+-+
|. . .|.|
+ + + + +
|. . . .|
+-+-+-+-+
");
        let o = obstacles(&m, &[p(0, 0), p(3, 0)]);
        let t = towards(&m, &o, p(0, 0), Goal::AdjacentTo(vec![p(3, 0)]), 5);
        assert_eq!(t.ends, vec![p(2, 1)]);
        assert_eq!((t.remaining, t.steps), (Remaining::Path(0), 2));
    }

    #[test]
    fn towards_unreachable_goal_falls_back_to_chebyshev() {
        let m = map("
+-+-+-+-+-+
|. . .|. .|
+ + + + + +
|. . .|. .|
+-+-+-+-+-+
");
        let o = obstacles(&m, &[p(0, 0)]);
        let t = towards(&m, &o, p(0, 0), Goal::Squares(vec![p(4, 1)]), 9);
        assert_eq!(t.ends, vec![p(2, 0), p(2, 1)]);
        assert_eq!((t.remaining, t.steps), (Remaining::Chebyshev(2), 2));
        assert!(!t.reached());
        // An occupied goal square is unreachable too.
        let o = obstacles(&m, &[p(0, 0), p(2, 0)]);
        let t = towards(&m, &o, p(0, 0), Goal::Squares(vec![p(2, 0)]), 1);
        assert_eq!(t.ends, vec![p(1, 0), p(1, 1)]);
        assert_eq!((t.remaining, t.steps), (Remaining::Chebyshev(1), 1));
        // No goal on the map: stay.
        let t = towards(&m, &o, p(0, 0), Goal::AdjacentTo(vec![p(-3, 0)]), 4);
        assert_eq!(
            (t.ends, t.remaining, t.steps),
            (vec![p(0, 0)], Remaining::NoGoal, 0)
        );
    }

    #[test]
    fn towards_stops_at_the_first_goal_square() {
        let m = open(6, 1);
        let o = Obstacles::new(&m);
        let goal = Goal::Squares(vec![p(2, 0), p(3, 0), p(4, 0)]);
        let t = towards(&m, &o, p(0, 0), goal, 6);
        assert_eq!((t.ends, t.steps), (vec![p(2, 0)], 2));
    }

    #[test]
    fn off_map_inputs_reach_nothing() {
        let m = open(3, 3);
        let o = Obstacles::new(&m);
        let out = p(-1, 7);
        assert!(!can_step(&m, &o, out, p(0, 0)));
        assert!(!can_step(&m, &o, p(0, 0), out));
        assert_eq!(neighbours(&m, &o, out).count(), 0);
        assert_eq!(DistanceField::from(&m, &o, out).get(p(0, 0)), None);
        assert_eq!(DistanceField::from(&m, &o, p(0, 0)).get(out), None);
        assert_eq!(path_distance(&m, &o, out, p(0, 0)), None);
        assert_eq!(shortest_path(&m, &o, p(0, 0), out), None);
        assert!(reachable(&m, &o, out, 3).is_empty());
        let t = towards(&m, &o, out, Goal::Squares(vec![p(1, 1)]), 3);
        assert!(t.ends.is_empty());
        let o = Obstacles::default();
        assert_eq!(path_distance(&m, &o, p(0, 0), p(2, 2)), Some(2));
    }

    #[test]
    fn away_ends_are_the_farthest_reachable_squares_by_legal_paths() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for case in 0..300 {
            let (m, o, a, w, h) = random_scene(&mut rng);
            let threats: Vec<Pos> = (0..1 + rng.below(3))
                .map(|_| p(rng.below(w as u64) as i32, rng.below(h as u64) as i32))
                .collect();
            let steps = rng.below(7) as u32;
            let got = away(&m, &o, a, &threats, steps);
            // By brute force over `reachable`: farthest from the nearest threat, then fewest steps.
            let far = |q: Pos| threats.iter().map(|&t| q.distance(t)).min();
            let reach = reachable(&m, &o, a, steps);
            if reach.is_empty() {
                assert!(got.ends.is_empty(), "case {case}");
                continue;
            }
            let best = reach
                .iter()
                .map(|&(q, n)| (std::cmp::Reverse(far(q)), n))
                .min()
                .expect("the start at least");
            let mut want: Vec<Pos> = reach
                .iter()
                .filter(|&&(q, n)| (std::cmp::Reverse(far(q)), n) == best)
                .map(|&(q, _)| q)
                .collect();
            want.sort_by_key(|q| (q.y, q.x));
            assert_eq!(got.ends, want, "case {case}");
            assert_eq!(got.steps, best.1, "case {case}");
            assert_eq!(got.distance, best.0 .0, "case {case}");
            for &end in &got.ends {
                let path = got.path(end).expect("a path to each end");
                assert_eq!(path.len() as u32, got.steps + 1, "case {case}");
                assert_eq!((path[0], path[path.len() - 1]), (a, end));
                for w in path.windows(2) {
                    assert!(can_step(&m, &o, w[0], w[1]), "case {case}: {path:?}");
                }
            }
        }
    }

    #[test]
    fn away_with_no_threat_on_the_map_stays() {
        let m = MapBuilder::new(4, 4).build();
        let o = Obstacles::new(&m);
        for threats in [vec![], vec![p(9, 9)]] {
            let a = away(&m, &o, p(1, 1), &threats, 3);
            assert_eq!((a.ends, a.steps, a.distance), (vec![p(1, 1)], 0, None));
        }
        // From a corner, the farthest squares from 1,1 are on the far row and column.
        let a = away(&m, &o, p(0, 0), &[p(1, 1)], 3);
        assert_eq!((a.distance, a.steps), (Some(2), 3));
        let far: Vec<Pos> = m.squares().filter(|q| q.x == 3 || q.y == 3).collect();
        let mut ends = a.ends.clone();
        ends.sort_by_key(|q| (q.x, q.y));
        let mut far = far;
        far.sort_by_key(|q| (q.x, q.y));
        assert_eq!(ends, far);
        // With 2 steps the best is 1 away, reached in 1 step: no farther square is reachable.
        let a = away(&m, &o, p(0, 0), &[p(1, 1)], 2);
        assert_eq!((a.distance, a.steps, a.ends), (Some(1), 0, vec![p(0, 0)]));
        assert!(away(&m, &o, p(7, 0), &[p(1, 1)], 3).ends.is_empty());
    }
}
