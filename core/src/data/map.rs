//! The static Mission Map: square kinds, walls and green sides on edges, buildings
//! (docs/RULES.md §2).

use crate::data::geom::{Dir, Pos};
use serde::{Deserialize, Serialize};

/// What a square is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Plain,
    /// Defence −1 for a model standing on it.
    Red,
    /// Defence +1 against attacks across one of its green sides.
    Green,
    /// Deployment and extraction point.
    Yellow,
    /// Part of a building: entered through openings.
    Building,
    /// Wholly solid scenery: an obstacle, impassable.
    Solid,
}

impl Terrain {
    /// The character that draws this terrain in a mission's `map`.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Terrain::Plain => '.',
            Terrain::Red => 'r',
            Terrain::Green => 'g',
            Terrain::Yellow => 'y',
            Terrain::Building => 'b',
            Terrain::Solid => '#',
        }
    }

    #[must_use]
    pub fn from_symbol(c: char) -> Option<Terrain> {
        Some(match c {
            '.' => Terrain::Plain,
            'r' => Terrain::Red,
            'g' => Terrain::Green,
            'y' => Terrain::Yellow,
            'b' => Terrain::Building,
            '#' => Terrain::Solid,
            _ => return None,
        })
    }
}

/// What lies on the edge between two squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    Open,
    Wall,
    /// An open edge marked as a green side of the square(s) beside it.
    Green,
    /// A Ruined Wall: a wall an XXL model destroyed (docs/RULES.md §5.4). It blocks neither
    /// movement nor sight; it still bounds its building, which is now a Ruin.
    Ruined,
}

/// Index of a building: a 4-connected group of building squares not split by walls.
pub type BuildingId = u16;

/// The static map. Units are not part of it; see [`Obstacles`].
///
/// Invariant: the outer border is all walls, and `buildings` matches the terrain and walls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "MapBuilder", into = "MapBuilder")]
pub struct Map {
    width: i32,
    height: i32,
    terrain: Vec<Terrain>,
    /// `(width + 1) * height`: the edge west of square (x, y) is `v_edges[y * (width + 1) + x]`.
    v_edges: Vec<Edge>,
    /// `width * (height + 1)`: the edge north of square (x, y) is `h_edges[y * width + x]`.
    h_edges: Vec<Edge>,
    buildings: Vec<Option<BuildingId>>,
    building_count: u16,
    /// Buildings that became Ruins (a wall of theirs destroyed), in order.
    ruins: Vec<BuildingId>,
    /// What blocks sight, built by the board layer on the first LOS query (not serialised).
    pub(crate) los: BoardCache,
    /// Walls and solid squares in the movement search's layout, built on first use.
    pub(crate) moves: MoveCache,
}

/// A table the board layer derives from a map and keeps with it, of a type this layer does
/// not know: never serialised, never part of equality; a clone of the map keeps what the
/// table's own clone keeps.
#[derive(Default)]
pub(crate) struct BoardCache(std::sync::OnceLock<Box<dyn CacheSlot>>);

/// A table kept in a [`BoardCache`].
pub(crate) trait CacheSlot: std::any::Any + Send + Sync {
    /// The copy a clone of the map starts with.
    fn clone_slot(&self) -> Box<dyn CacheSlot>;
    fn as_any(&self) -> &dyn std::any::Any;
}

impl BoardCache {
    /// The table, made by `init` on first use.
    pub(crate) fn get_or_init<T: CacheSlot>(&self, init: impl FnOnce() -> T) -> &T {
        let slot = self.0.get_or_init(|| Box::new(init()));
        match slot.as_any().downcast_ref::<T>() {
            Some(t) => t,
            // One type is ever kept here (the board's); a map's cache is never shared between
            // kinds of table.
            None => unreachable!("a board cache holds one kind of table"),
        }
    }
}

impl Clone for BoardCache {
    fn clone(&self) -> Self {
        let c = BoardCache::default();
        if let Some(v) = self.0.get() {
            let _ = c.0.set(v.clone_slot());
        }
        c
    }
}

impl PartialEq for BoardCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for BoardCache {}

impl std::fmt::Debug for BoardCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BoardCache")
    }
}

/// A lazily built, derived table: never serialised, never part of equality.
#[derive(Debug, Default)]
pub(crate) struct MoveCache(std::sync::OnceLock<Vec<u8>>);

impl MoveCache {
    pub(crate) fn get_or_init(&self, f: impl FnOnce() -> Vec<u8>) -> &Vec<u8> {
        self.0.get_or_init(f)
    }
}

impl Clone for MoveCache {
    fn clone(&self) -> Self {
        let c = MoveCache::default();
        if let Some(v) = self.0.get() {
            let _ = c.0.set(v.clone());
        }
        c
    }
}

impl PartialEq for MoveCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for MoveCache {}

impl Map {
    #[must_use]
    pub fn width(&self) -> i32 {
        self.width
    }

    #[must_use]
    pub fn height(&self) -> i32 {
        self.height
    }

    #[must_use]
    pub fn in_bounds(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// Row-major index of an in-bounds square.
    #[must_use]
    pub fn index(&self, p: Pos) -> usize {
        debug_assert!(self.in_bounds(p));
        (p.y * self.width + p.x) as usize
    }

    #[must_use]
    pub fn pos_of(&self, index: usize) -> Pos {
        let i = index as i32;
        Pos::new(i % self.width, i / self.width)
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.terrain.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.terrain.is_empty()
    }

    /// Every square, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// Terrain of a square; out-of-bounds squares read as solid.
    #[must_use]
    pub fn terrain(&self, p: Pos) -> Terrain {
        if self.in_bounds(p) {
            self.terrain[self.index(p)]
        } else {
            Terrain::Solid
        }
    }

    #[must_use]
    pub fn is_solid(&self, p: Pos) -> bool {
        self.terrain(p) == Terrain::Solid
    }

    /// The edge west of square (x, y), for `0 <= x <= width`, `0 <= y < height`.
    #[must_use]
    pub fn west_edge(&self, x: i32, y: i32) -> Edge {
        if x < 0 || x > self.width || y < 0 || y >= self.height {
            return Edge::Wall;
        }
        self.v_edges[(y * (self.width + 1) + x) as usize]
    }

    /// The edge north of square (x, y), for `0 <= x < width`, `0 <= y <= height`.
    #[must_use]
    pub fn north_edge(&self, x: i32, y: i32) -> Edge {
        if x < 0 || x >= self.width || y < 0 || y > self.height {
            return Edge::Wall;
        }
        self.h_edges[(y * self.width + x) as usize]
    }

    /// The edge on side `d` (orthogonal) of square `p`.
    #[must_use]
    pub fn side(&self, p: Pos, d: Dir) -> Edge {
        match d {
            Dir::N => self.north_edge(p.x, p.y),
            Dir::S => self.north_edge(p.x, p.y + 1),
            Dir::W => self.west_edge(p.x, p.y),
            Dir::E => self.west_edge(p.x + 1, p.y),
            _ => Edge::Open,
        }
    }

    /// Is there a wall on side `d` (orthogonal) of square `p`?
    #[must_use]
    pub fn wall(&self, p: Pos, d: Dir) -> bool {
        self.side(p, d) == Edge::Wall
    }

    /// Is side `d` of a green square `p` a green side? Non-green squares have none.
    #[must_use]
    pub fn is_green_side(&self, p: Pos, d: Dir) -> bool {
        self.terrain(p) == Terrain::Green && self.side(p, d) == Edge::Green
    }

    #[must_use]
    pub fn building(&self, p: Pos) -> Option<BuildingId> {
        if self.in_bounds(p) {
            self.buildings[self.index(p)]
        } else {
            None
        }
    }

    #[must_use]
    pub fn building_count(&self) -> u16 {
        self.building_count
    }

    /// Has building `b` become a Ruin (docs/RULES.md §5.4)?
    #[must_use]
    pub fn is_ruin(&self, b: BuildingId) -> bool {
        self.ruins.contains(&b)
    }

    /// The building `p` belongs to, unless it is a Ruin: what "inside a building" means for
    /// the rules (a Ruin gives no cover, docs/RULES.md §5.4).
    #[must_use]
    pub fn intact_building(&self, p: Pos) -> Option<BuildingId> {
        self.building(p).filter(|b| !self.is_ruin(*b))
    }

    /// This map with a Ruined Wall on each edge `(square, side)` that holds a wall, and the
    /// buildings those walls bound made Ruins: a new map, so every table derived from the old
    /// one (sight, steps) is built afresh for it.
    #[must_use]
    pub fn with_ruined(&self, edges: &[(Pos, Dir)]) -> Map {
        let mut m = Map {
            width: self.width,
            height: self.height,
            terrain: self.terrain.clone(),
            v_edges: self.v_edges.clone(),
            h_edges: self.h_edges.clone(),
            buildings: self.buildings.clone(),
            building_count: self.building_count,
            ruins: self.ruins.clone(),
            los: BoardCache::default(),
            moves: MoveCache::default(),
        };
        for &(p, d) in edges {
            if !self.wall(p, d) || !self.in_bounds(p) || !self.in_bounds(p.offset(d)) {
                continue;
            }
            m.set_side(p, d, Edge::Ruined);
            for b in [self.building(p), self.building(p.offset(d))]
                .into_iter()
                .flatten()
            {
                if !m.ruins.contains(&b) {
                    m.ruins.push(b);
                }
            }
        }
        m
    }

    /// Back to an editable builder (tests, editors).
    #[must_use]
    pub fn into_builder(self) -> MapBuilder {
        MapBuilder::from(self)
    }

    /// Squares of one terrain kind, row by row.
    pub fn squares_of(&self, t: Terrain) -> impl Iterator<Item = Pos> + '_ {
        self.squares().filter(move |&p| self.terrain(p) == t)
    }
}

/// An unchecked, editable map: what a parser or a test fills in before [`MapBuilder::build`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MapBuilder {
    pub width: i32,
    pub height: i32,
    pub terrain: Vec<Terrain>,
    pub v_edges: Vec<Edge>,
    pub h_edges: Vec<Edge>,
    /// Buildings that are Ruins, by their index (see [`Map::is_ruin`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ruins: Vec<BuildingId>,
}

impl MapBuilder {
    /// An open map of plain squares (the border is walled on build).
    #[must_use]
    pub fn new(width: i32, height: i32) -> MapBuilder {
        let (w, h) = (width.max(1) as usize, height.max(1) as usize);
        MapBuilder {
            width: w as i32,
            height: h as i32,
            terrain: vec![Terrain::Plain; w * h],
            v_edges: vec![Edge::Open; (w + 1) * h],
            h_edges: vec![Edge::Open; w * (h + 1)],
            ruins: Vec::new(),
        }
    }

    pub fn set_terrain(&mut self, p: Pos, t: Terrain) -> &mut Self {
        if p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height {
            self.terrain[(p.y * self.width + p.x) as usize] = t;
        }
        self
    }

    /// Set the edge west of square (x, y).
    pub fn set_west(&mut self, x: i32, y: i32, e: Edge) -> &mut Self {
        if (0..=self.width).contains(&x) && (0..self.height).contains(&y) {
            self.v_edges[(y * (self.width + 1) + x) as usize] = e;
        }
        self
    }

    /// Set the edge north of square (x, y).
    pub fn set_north(&mut self, x: i32, y: i32, e: Edge) -> &mut Self {
        if (0..self.width).contains(&x) && (0..=self.height).contains(&y) {
            self.h_edges[(y * self.width + x) as usize] = e;
        }
        self
    }

    /// Parse a small map from the mission drawing without error positions (for tests and
    /// programs; missions use [`crate::data::mission`] which reports `path:line:column`).
    ///
    /// # Panics
    /// Never; malformed characters read as plain squares and open edges.
    #[must_use]
    pub fn from_drawing(drawing: &str) -> MapBuilder {
        let lines: Vec<Vec<char>> = drawing
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.chars().collect())
            .collect();
        let height = (lines.len().saturating_sub(1) / 2) as i32;
        let width = (lines
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
            .saturating_sub(1)
            / 2) as i32;
        let mut b = MapBuilder::new(width, height);
        for (r, line) in lines.iter().enumerate() {
            for (c, &ch) in line.iter().enumerate() {
                let (r, c) = (r as i32, c as i32);
                match (r % 2 == 1, c % 2 == 1) {
                    (true, true) => {
                        if let Some(t) = Terrain::from_symbol(ch) {
                            b.set_terrain(Pos::new((c - 1) / 2, (r - 1) / 2), t);
                        }
                    }
                    (true, false) => {
                        let e = match ch {
                            '|' => Edge::Wall,
                            ':' => Edge::Green,
                            _ => Edge::Open,
                        };
                        b.set_west(c / 2, (r - 1) / 2, e);
                    }
                    (false, true) => {
                        let e = match ch {
                            '-' => Edge::Wall,
                            '=' => Edge::Green,
                            _ => Edge::Open,
                        };
                        b.set_north((c - 1) / 2, r / 2, e);
                    }
                    (false, false) => {}
                }
            }
        }
        b
    }

    /// Wall the border, give unmarked green squares four green sides, find buildings.
    #[must_use]
    pub fn build(mut self) -> Map {
        let (w, h) = (self.width, self.height);
        for y in 0..h {
            self.set_west(0, y, Edge::Wall);
            self.set_west(w, y, Edge::Wall);
        }
        for x in 0..w {
            self.set_north(x, 0, Edge::Wall);
            self.set_north(x, h, Edge::Wall);
        }
        let mut map = Map {
            width: w,
            height: h,
            terrain: self.terrain,
            v_edges: self.v_edges,
            h_edges: self.h_edges,
            buildings: Vec::new(),
            building_count: 0,
            ruins: Vec::new(),
            los: BoardCache::default(),
            moves: MoveCache::default(),
        };
        // A green square with no marked green side has all four sides green.
        let greens: Vec<Pos> = map.squares_of(Terrain::Green).collect();
        for p in greens {
            let marked = Dir::ORTHOGONAL
                .iter()
                .any(|&d| map.side(p, d) == Edge::Green);
            if !marked {
                for d in Dir::ORTHOGONAL {
                    if map.side(p, d) == Edge::Open {
                        map.set_side(p, d, Edge::Green);
                    }
                }
            }
        }
        map.find_buildings();
        let mut ruins = self.ruins;
        ruins.retain(|&b| b < map.building_count);
        map.ruins = ruins;
        map
    }
}

impl Map {
    fn set_side(&mut self, p: Pos, d: Dir, e: Edge) {
        let w = self.width;
        let i = match d {
            Dir::N => Some((false, p.y * w + p.x)),
            Dir::S => Some((false, (p.y + 1) * w + p.x)),
            Dir::W => Some((true, p.y * (w + 1) + p.x)),
            Dir::E => Some((true, p.y * (w + 1) + p.x + 1)),
            _ => None,
        };
        match i {
            Some((true, i)) => self.v_edges[i as usize] = e,
            Some((false, i)) => self.h_edges[i as usize] = e,
            None => {}
        }
    }

    fn find_buildings(&mut self) {
        let mut ids = vec![None; self.terrain.len()];
        let mut next: u16 = 0;
        for start in 0..self.terrain.len() {
            if ids[start].is_some() || self.terrain[start] != Terrain::Building {
                continue;
            }
            let mut stack = vec![self.pos_of(start)];
            ids[start] = Some(next);
            while let Some(p) = stack.pop() {
                for d in Dir::ORTHOGONAL {
                    let q = p.offset(d);
                    // A Ruined Wall still bounds its building.
                    let side = self.side(p, d);
                    if self.terrain(q) != Terrain::Building
                        || side == Edge::Wall
                        || side == Edge::Ruined
                    {
                        continue;
                    }
                    let qi = self.index(q);
                    if ids[qi].is_none() {
                        ids[qi] = Some(next);
                        stack.push(q);
                    }
                }
            }
            next = next.saturating_add(1);
        }
        self.buildings = ids;
        self.building_count = next;
    }
}

impl From<MapBuilder> for Map {
    fn from(b: MapBuilder) -> Map {
        b.build()
    }
}

impl From<Map> for MapBuilder {
    fn from(m: Map) -> MapBuilder {
        MapBuilder {
            width: m.width,
            height: m.height,
            terrain: m.terrain,
            v_edges: m.v_edges,
            h_edges: m.h_edges,
            ruins: m.ruins,
        }
    }
}

/// Squares holding a model or a Blip Token: obstacles to movement and Line of Sight.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Obstacles {
    width: i32,
    bits: Vec<u64>,
}

impl Obstacles {
    #[must_use]
    pub fn new(map: &Map) -> Obstacles {
        Obstacles {
            width: map.width(),
            bits: vec![0; map.len().div_ceil(64)],
        }
    }

    fn slot(&self, p: Pos) -> Option<(usize, u64)> {
        if p.x < 0 || p.y < 0 || p.x >= self.width {
            return None;
        }
        let i = (p.y * self.width + p.x) as usize;
        (i / 64 < self.bits.len()).then_some((i / 64, 1u64 << (i % 64)))
    }

    #[must_use]
    pub fn contains(&self, p: Pos) -> bool {
        self.slot(p).is_some_and(|(w, m)| self.bits[w] & m != 0)
    }

    pub fn insert(&mut self, p: Pos) {
        if let Some((w, m)) = self.slot(p) {
            self.bits[w] |= m;
        }
    }

    pub fn remove(&mut self, p: Pos) {
        if let Some((w, m)) = self.slot(p) {
            self.bits[w] &= !m;
        }
    }

    /// The raw bitset, row-major, 64 squares a word.
    #[must_use]
    pub fn words(&self) -> &[u64] {
        &self.bits
    }
}

impl Map {
    /// Is `p` blocked for movement and LOS: off the map, solid, or holding a unit?
    #[must_use]
    pub fn blocked(&self, obstacles: &Obstacles, p: Pos) -> bool {
        !self.in_bounds(p) || self.is_solid(p) || obstacles.contains(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "
+-+-+-+-+
|. . r .|
+ +-+=+ +
|.|b b|y|
+-+- -+-+
";

    #[test]
    fn drawing_reads_terrain_and_edges() {
        let m = MapBuilder::from_drawing(SMALL).build();
        assert_eq!((m.width(), m.height()), (4, 2));
        assert_eq!(m.terrain(Pos::new(2, 0)), Terrain::Red);
        assert_eq!(m.terrain(Pos::new(1, 1)), Terrain::Building);
        assert!(m.wall(Pos::new(1, 0), Dir::S));
        assert!(!m.wall(Pos::new(0, 0), Dir::S));
        assert_eq!(m.side(Pos::new(2, 0), Dir::S), Edge::Green);
        assert!(m.wall(Pos::new(0, 1), Dir::E));
        assert!(!m.wall(Pos::new(1, 1), Dir::E));
        assert!(m.wall(Pos::new(3, 0), Dir::E), "border is a wall");
        assert!(
            m.wall(Pos::new(2, 1), Dir::S),
            "drawn gap in the border is still walled"
        );
    }

    #[test]
    fn border_always_walled() {
        let m = MapBuilder::from_drawing(
            "
+ + +
|. .
+ + +
",
        )
        .build();
        assert!(m.wall(Pos::new(0, 0), Dir::N));
        assert!(m.wall(Pos::new(1, 0), Dir::E));
        assert!(m.wall(Pos::new(1, 0), Dir::S));
    }

    #[test]
    fn buildings_are_connected_groups_split_by_walls() {
        let m = MapBuilder::from_drawing(
            "
+-+-+-+-+
|b b|b .|
+-+-+-+-+
",
        )
        .build();
        assert_eq!(m.building_count(), 2);
        assert_eq!(m.building(Pos::new(0, 0)), m.building(Pos::new(1, 0)));
        assert_ne!(m.building(Pos::new(1, 0)), m.building(Pos::new(2, 0)));
        assert_eq!(m.building(Pos::new(3, 0)), None);
    }

    #[test]
    fn unmarked_green_square_has_four_green_sides() {
        let m = MapBuilder::from_drawing(
            "
+-+-+-+
|. g .|
+ + + +
|. g .|
+ +=+ +
|. . .|
+-+-+-+
",
        )
        .build();
        let all = Pos::new(1, 0);
        for d in Dir::ORTHOGONAL {
            assert!(m.is_green_side(all, d) || m.wall(all, d), "{d:?}");
        }
        let marked = Pos::new(1, 1);
        assert!(m.is_green_side(marked, Dir::S) || m.wall(marked, Dir::S));
        assert!(!m.is_green_side(marked, Dir::W));
    }

    #[test]
    fn obstacles_set_and_clear() {
        let m = MapBuilder::new(10, 10).build();
        let mut o = Obstacles::new(&m);
        o.insert(Pos::new(9, 9));
        assert!(o.contains(Pos::new(9, 9)));
        assert!(m.blocked(&o, Pos::new(9, 9)));
        o.remove(Pos::new(9, 9));
        assert!(!o.contains(Pos::new(9, 9)));
        assert!(m.blocked(&o, Pos::new(10, 0)));
    }
}
