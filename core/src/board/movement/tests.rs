//! Hand-drawn and randomised checks of adjacency, steps, paths, "towards", "away" and the kept
//! goal fields.

use super::grid::{Grid, UNREACHED};
use super::layout::Layout;
use super::repair::Repair;
use super::steps::adjacent_by_walls;
use super::*;
use crate::data::geom::{Dir, Pos};
use crate::data::map::{Edge, Map, MapBuilder, Obstacles};

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
