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

use crate::geom::{Dir, Pos};
use crate::map::{Edge, Map, Obstacles};

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

/// Buffers the searches of one thread reuse, so that a search does not allocate.
struct Scratch {
    steps: Vec<u8>,
    dist: Vec<u32>,
    order: Vec<usize>,
    dist2: Vec<u32>,
    order2: Vec<usize>,
}

impl Scratch {
    const fn new() -> Scratch {
        Scratch {
            steps: Vec::new(),
            dist: Vec::new(),
            order: Vec::new(),
            dist2: Vec::new(),
            order2: Vec::new(),
        }
    }
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch::new()
    }
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = const { std::cell::Cell::new(Scratch::new()) };
}

/// Runs `f` with this thread's [`Scratch`] (taken out meanwhile, so never shared).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut scratch = SCRATCH.with(std::cell::Cell::take);
    let r = f(&mut scratch);
    SCRATCH.with(|c| c.set(scratch));
    r
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
    with_scratch(|sc| {
        let grid = Grid::new(map, obstacles, &[a], std::mem::take(&mut sc.steps));
        let found = grid.index(a).zip(grid.index(b)).and_then(|(ia, ib)| {
            grid.bfs(&mut sc.dist, &mut sc.order, &[ia], UNREACHED, Some(ib));
            Some(sc.dist[ib]).filter(|&d| d != UNREACHED)
        });
        sc.steps = grid.steps;
        found
    })
}

/// A shortest legal path from `a` to `b`, both included (see [`DistanceField::path_to`] for
/// which one).
#[must_use]
pub fn shortest_path(map: &Map, obstacles: &Obstacles, a: Pos, b: Pos) -> Option<Vec<Pos>> {
    with_scratch(|sc| {
        let grid = Grid::new(map, obstacles, &[a], std::mem::take(&mut sc.steps));
        let path = grid.index(a).zip(grid.index(b)).and_then(|(ia, ib)| {
            grid.bfs(&mut sc.dist, &mut sc.order, &[ia], UNREACHED, Some(ib));
            grid.path(&sc.dist, ib)
        });
        sc.steps = grid.steps;
        path
    })
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
    let field = DistanceField::from(map, obstacles, a);
    let Some(total) = field.get(b) else {
        return Vec::new();
    };
    let mut out: Vec<Vec<Pos>> = Vec::new();
    // Walk back from `b`, one step closer to `a` each time, neighbours in `Dir::ALL` order
    // (the order `path_to` picks its one path by).
    let mut rev: Vec<Pos> = vec![b];
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
        let Some(&q) = rev.last() else {
            return;
        };
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
    back(map, obstacles, &field, a, &mut rev, &mut out, cap);
    debug_assert!(out.iter().all(|p| p.len() as u32 == total + 1));
    out
}

/// Squares a model on `from` can reach in at most `max_steps` legal steps, with their step
/// counts, `from` included at 0; sorted by (steps, y, x). Empty if `from` is off the map.
#[must_use]
pub fn reachable(map: &Map, obstacles: &Obstacles, from: Pos, max_steps: u32) -> Vec<(Pos, u32)> {
    with_scratch(|sc| {
        let grid = Grid::new(map, obstacles, &[from], std::mem::take(&mut sc.steps));
        let mut out = Vec::new();
        if let Some(start) = grid.index(from) {
            let (dist, order) = (&mut sc.dist, &mut sc.order);
            grid.bfs(dist, order, &[start], max_steps, None);
            out = order.iter().map(|&i| (grid.pos(i), dist[i])).collect();
            out.sort_unstable_by_key(|&(p, d)| (d, p.y, p.x));
        }
        sc.steps = grid.steps;
        out
    })
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
#[must_use]
pub fn towards(map: &Map, obstacles: &Obstacles, from: Pos, goal: Goal, max_steps: u32) -> Towards {
    with_scratch(|sc| {
        let grid = Grid::new(map, obstacles, &[from], std::mem::take(&mut sc.steps));
        let t = towards_on(map, obstacles, &grid, sc, from, &goal, max_steps);
        sc.steps = grid.steps;
        t
    })
}

/// [`towards`] on the mover's grid, with `sc`'s search buffers.
fn towards_on(
    map: &Map,
    obstacles: &Obstacles,
    grid: &Grid,
    sc: &mut Scratch,
    from: Pos,
    goal: &Goal,
    max_steps: u32,
) -> Towards {
    let Some(start) = grid.index(from) else {
        return Towards {
            ends: Vec::new(),
            remaining: Remaining::NoGoal,
            steps: 0,
            paths: Vec::new(),
        };
    };
    let layout = Layout::of(map);
    let offsets = offsets(grid.stride);
    // Goal squares must be free: not solid, and holding no model but perhaps the mover.
    let free =
        |i: usize| layout.cells[i] & FREE != 0 && (i == start || !obstacles.contains(grid.pos(i)));
    let goal_cells: Vec<usize> = match goal {
        Goal::Squares(squares) => squares
            .iter()
            .filter_map(|&p| grid.index(p))
            .filter(|&i| free(i))
            .collect(),
        // The squares adjacent to each target, in `Dir::ALL` order.
        Goal::AdjacentTo(targets) => targets
            .iter()
            .filter_map(|&t| layout.index(t))
            .flat_map(|t| {
                let adj = layout.adjacent[t];
                (0..8)
                    .filter(move |&k| adj & (1 << k) != 0)
                    .map(move |k| t.wrapping_add_signed(offsets[k]))
            })
            .filter(|&i| free(i))
            .collect(),
    };
    let (to_goal, goal_order) = (&mut sc.dist2, &mut sc.order2);
    grid.seed(to_goal, goal_order, &goal_cells);
    // The mover's search first, up to the first level holding a goal square if any: then the
    // best ends are the goal squares there. Otherwise only the least distance to the goal of
    // any square the mover reached matters, so the goal's search stops after the first level
    // holding one (every square of that level is reached by then); squares it has not reached
    // are farther, whatever their true distance, so they can never be best.
    let (moves, order) = (&mut sc.dist, &mut sc.order);
    grid.seed(moves, order, &[start]);
    if to_goal[start] != 0
        && grid
            .search(moves, order, max_steps, true, |j| to_goal[j] == 0)
            .is_none()
    {
        grid.search(to_goal, goal_order, UNREACHED, true, |j| {
            moves[j] != UNREACHED
        });
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::MapBuilder;

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
        assert_eq!(m.terrain(p(2, 1)), crate::map::Terrain::Building);
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
}
