//! The map's static movement layout: walls, solid squares, legal steps and adjacency, one byte
//! a square, built once and cached on the map.

use crate::data::geom::Pos;
use crate::data::map::{Edge, Map};

pub(super) const FREE: u8 = 1;
/// Wall on the cell's north edge.
const WALL_N: u8 = 2;
/// Wall on the cell's west edge.
const WALL_W: u8 = 4;

/// The map's static movement layout, cached on the map (see [`Map`]'s `moves`): three padded
/// byte planes of `stride * (height + 2)` cells each, with a one-square border so all eight
/// neighbours of any map square are valid indices.
/// - `cells`: `FREE` (not solid), `WALL_N`, `WALL_W` per square;
/// - `steps`: the legal steps ignoring models (bit k = `Dir::ALL[k]`);
/// - `adjacent`: the [`adjacent`] neighbours (bit k = `Dir::ALL[k]`).
///
/// [`adjacent`]: super::adjacent
pub(super) struct Layout<'a> {
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) stride: usize,
    pub(super) cells: &'a [u8],
    pub(super) steps: &'a [u8],
    pub(super) adjacent: &'a [u8],
}

impl Layout<'_> {
    pub(super) fn of(map: &Map) -> Layout<'_> {
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

    pub(super) fn index(&self, p: Pos) -> Option<usize> {
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
///
/// [`adjacent`]: super::adjacent
/// [`Dir::ALL`]: crate::data::geom::Dir::ALL
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
///
/// [`Dir::ALL`]: crate::data::geom::Dir::ALL
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
