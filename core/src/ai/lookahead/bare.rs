//! Step counts over the bare map (walls and solid squares only), kept per thread.

use crate::data::geom::Pos;
use crate::data::map::Obstacles;

/// Step counts over the bare map (walls and solid squares; models and Blips left out, as they
/// move): a pure function of the map and the sources, so they are kept per thread (for the
/// last map asked about), and so are the legal steps out of each square.
#[derive(Debug, Default)]
pub(super) struct Bare {
    map: Option<std::sync::Arc<crate::data::map::Map>>,
    /// The legal steps out of each square, by bit in [`crate::data::geom::Dir::ALL`] order.
    steps: Vec<u8>,
    near: std::collections::HashMap<(Pos, u32), std::rc::Rc<Near>>,
    enemies: Option<(Vec<Pos>, std::rc::Rc<Near>)>,
}

thread_local! {
    static BARE: std::cell::RefCell<Bare> = std::cell::RefCell::new(Bare::default());
}

/// Steps from the nearest source to the squares at most some depth away.
#[derive(Debug)]
pub(super) struct Near {
    width: i32,
    height: i32,
    steps: Vec<u8>,
}

impl Near {
    pub(super) fn get(&self, p: Pos) -> Option<u32> {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return None;
        }
        let s = self.steps.get((p.y * self.width + p.x) as usize).copied()?;
        (s != u8::MAX).then_some(u32::from(s))
    }
}

impl Bare {
    /// `f` of the cache for `map`.
    fn with<R>(map: &std::sync::Arc<crate::data::map::Map>, f: impl FnOnce(&mut Bare) -> R) -> R {
        BARE.with(|b| {
            let mut b = b.borrow_mut();
            let same = match b.map.as_ref() {
                Some(m) if std::sync::Arc::ptr_eq(m, map) => true,
                Some(m) if **m == **map => {
                    // The same map in another game: keep what was worked out for it.
                    b.map = Some(std::sync::Arc::clone(map));
                    true
                }
                _ => false,
            };
            if !same {
                let bare = Obstacles::new(map);
                let steps = map
                    .squares()
                    .map(|p| {
                        crate::data::geom::Dir::ALL
                            .iter()
                            .enumerate()
                            .filter(|&(_, &d)| {
                                crate::board::movement::can_step(map, &bare, p, p.offset(d))
                            })
                            .fold(0u8, |m, (k, _)| m | (1 << k))
                    })
                    .collect();
                *b = Bare {
                    map: Some(std::sync::Arc::clone(map)),
                    steps,
                    ..Bare::default()
                };
            }
            f(&mut b)
        })
    }

    /// Breadth-first step counts from `from` out to `depth` (at most 254) over the bare map.
    fn search(&self, map: &crate::data::map::Map, from: &[Pos], depth: u32) -> Near {
        self.walk(map, None, from, depth).0
    }

    /// Breadth-first step counts from `from` out to `depth` (at most 254): over the bare map,
    /// or with `blocked` squares too (a legal step, as [`crate::board::movement::can_step`] says,
    /// neither enters one nor cuts past one diagonally; the sources are free).
    fn walk(
        &self,
        map: &crate::data::map::Map,
        blocked: Option<&Obstacles>,
        from: &[Pos],
        depth: u32,
    ) -> (Near, Vec<usize>) {
        let (width, height) = (map.width().max(0), map.height().max(0));
        let len = (width * height) as usize;
        let mut steps = vec![u8::MAX; len];
        let depth = depth.min(254) as u8;
        let w = width as isize;
        // Offsets by direction, and for a diagonal the two squares it cuts past.
        let mut offset = [0isize; 8];
        let mut cut = [(0isize, 0isize); 8];
        for (k, d) in crate::data::geom::Dir::ALL.iter().enumerate() {
            let (dx, dy) = d.delta();
            offset[k] = dy as isize * w + dx as isize;
            cut[k] = (dy as isize * w, dx as isize);
        }
        // Blocked squares by bit (the obstacles' own layout: square y * width + x), the
        // sources cleared.
        let mut bits: Vec<u64> = blocked.map(|o| o.words().to_vec()).unwrap_or_default();
        for p in from {
            let i = (p.y * width + p.x) as usize;
            if let Some(w) = bits.get_mut(i / 64) {
                *w &= !(1u64 << (i % 64));
            }
        }
        let free = |i: usize| bits.get(i / 64).is_none_or(|w| w & (1u64 << (i % 64)) == 0);
        let mut queue: Vec<usize> = Vec::with_capacity(64);
        for p in from {
            if map.in_bounds(*p) {
                let i = (p.y * width + p.x) as usize;
                if steps.get(i) == Some(&u8::MAX) {
                    steps[i] = 0;
                    queue.push(i);
                }
            }
        }
        let mut head = 0;
        while let Some(&i) = queue.get(head) {
            head += 1;
            let d = steps[i];
            if d >= depth {
                continue;
            }
            let mask = self.steps.get(i).copied().unwrap_or(0);
            for k in 0..8 {
                if mask & (1 << k) == 0 {
                    continue;
                }
                // The static mask keeps every step on the map.
                let j = (i as isize + offset[k]) as usize;
                if steps.get(j) != Some(&u8::MAX) || !free(j) {
                    continue;
                }
                if k % 2 == 1 {
                    let (a, b) = cut[k];
                    let (pa, pb) = ((i as isize + a) as usize, (i as isize + b) as usize);
                    if !free(pa) || !free(pb) {
                        continue;
                    }
                }
                steps[j] = d + 1;
                queue.push(j);
            }
        }
        (
            Near {
                width,
                height,
                steps,
            },
            queue,
        )
    }

    /// The squares a model on `from` can reach in at most `steps` legal steps past `blocked`,
    /// with their step counts (as [`reachable`], `from` left out).
    ///
    /// [`reachable`]: crate::board::movement::reachable
    pub(super) fn reach(
        map: &std::sync::Arc<crate::data::map::Map>,
        blocked: &Obstacles,
        from: Pos,
        steps: u32,
    ) -> Vec<(Pos, u32)> {
        Bare::with(map, |b| {
            let (near, order) = b.walk(map, Some(blocked), &[from], steps);
            order
                .into_iter()
                .filter_map(|i| {
                    let n = *near.steps.get(i)?;
                    (n > 0).then(|| (map.pos_of(i), u32::from(n)))
                })
                .collect()
        })
    }

    pub(super) fn near(
        map: &std::sync::Arc<crate::data::map::Map>,
        from: Pos,
        depth: u32,
    ) -> std::rc::Rc<Near> {
        Bare::with(map, |b| {
            if let Some(n) = b.near.get(&(from, depth)) {
                return n.clone();
            }
            let n = std::rc::Rc::new(b.search(map, &[from], depth));
            b.near.insert((from, depth), n.clone());
            n
        })
    }

    pub(super) fn enemies(
        map: &std::sync::Arc<crate::data::map::Map>,
        from: &[Pos],
    ) -> std::rc::Rc<Near> {
        Bare::with(map, |b| {
            if let Some((k, f)) = &b.enemies {
                if k == from {
                    return f.clone();
                }
            }
            let f = std::rc::Rc::new(b.search(map, from, 254));
            b.enemies = Some((from.to_vec(), f.clone()));
            f
        })
    }
}
