//! One search's grid (the map's steps minus those models forbid) and its breadth-first
//! searches.

use super::layout::Layout;
use crate::data::geom::Pos;
use crate::data::map::{Map, Obstacles};

pub(super) const UNREACHED: u32 = u32::MAX;

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

/// One search's grid: the map's static steps minus those into, or diagonally past, a square
/// holding a model or Blip.
pub(super) struct Grid {
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) stride: usize,
    /// Legal steps by padded cell, bit k = `Dir::ALL[k]`.
    pub(super) steps: Vec<u8>,
}

impl Grid {
    /// `freed` squares (the movers' starts) count as free whatever model holds them; solid
    /// terrain stays solid (a search may still start there, as [`can_step`] never checks `from`).
    /// `steps` is a buffer to reuse (its contents are replaced).
    ///
    /// [`can_step`]: super::can_step
    pub(super) fn new(map: &Map, obstacles: &Obstacles, freed: &[Pos], mut steps: Vec<u8>) -> Grid {
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

    pub(super) fn index(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height)
            .then(|| (p.y as usize + 1) * self.stride + p.x as usize + 1)
    }

    pub(super) fn pos(&self, i: usize) -> Pos {
        Pos::new((i % self.stride) as i32 - 1, (i / self.stride) as i32 - 1)
    }

    /// Breadth-first step counts from `sources` (map cells), not expanding past `limit` steps
    /// and stopping early once `stop` is reached. Returns distances by cell and the cells in
    /// the order reached.
    /// `dist` and `order` are buffers to reuse (their contents are replaced).
    pub(super) fn bfs(
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
    pub(super) fn reseed(&self, dist: &mut Vec<u32>, order: &mut Vec<usize>, sources: &[usize]) {
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
    pub(super) fn search(
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
    ///
    /// [`Dir::ALL`]: crate::data::geom::Dir::ALL
    pub(super) fn path(&self, dist: &[u32], target: usize) -> Option<Vec<Pos>> {
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
///
/// [`Dir::ALL`]: crate::data::geom::Dir::ALL
pub(super) fn offsets(stride: usize) -> [isize; 8] {
    let s = stride as isize;
    [-s, 1 - s, 1, s + 1, s, s - 1, -1, -s - 1]
}
