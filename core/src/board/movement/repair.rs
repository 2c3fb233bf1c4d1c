//! The dynamic update of breadth-first distances from one grid and set of sources to another.

use super::grid::{offsets, UNREACHED};

/// Brings breadth-first distances from one grid and set of sources to another (a dynamic
/// shortest-path update for unit steps): the cells whose distance lost every shortest way to
/// it are found in order of distance and forgotten, then they and whatever the new steps or
/// sources bring closer are settled again in order of distance. Cells the change cannot alter
/// are never visited.
#[derive(Debug, Default)]
pub(super) struct Repair {
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
    pub(super) fn run(
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
