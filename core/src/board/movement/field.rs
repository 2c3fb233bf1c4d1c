//! Distance fields: breadth-first step counts from one or more sources, kept whole.

use super::grid::{offsets, Grid, UNREACHED};
use super::scratch::{with_scratch, with_walk};
use crate::data::geom::Pos;
use crate::data::map::{Map, Obstacles};

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
    ///
    /// [`Dir::ALL`]: crate::data::geom::Dir::ALL
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
