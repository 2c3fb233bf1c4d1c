//! Adjacency and legal steps between neighbouring squares (docs/RULES.md §4.1).

use super::layout::Layout;
use crate::data::geom::{Dir, Pos};
use crate::data::map::{Map, Obstacles};

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

/// [`adjacent`] read from the walls themselves: the definition the cached layout must match.
#[cfg(test)]
pub(super) fn adjacent_by_walls(map: &Map, a: Pos, b: Pos) -> bool {
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
