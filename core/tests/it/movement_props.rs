//! Property tests for movement: the BFS fields and "towards" agree with a naive Bellman-Ford
//! oracle built only from `can_step`, and no path breaks the step rules or its allowance.

use overmind_core::movement::{
    adjacent, can_step, neighbours, path_distance, reachable, shortest_path, towards,
    DistanceField, Goal, Remaining,
};
use overmind_core::{Dir, Edge, Map, MapBuilder, Obstacles, Pos, Terrain};
use proptest::collection::vec;
use proptest::prelude::*;

/// A random map with walls, solid squares and models, plus positions and a goal to ask about.
#[derive(Clone, Debug)]
struct Case {
    map: Map,
    obstacles: Obstacles,
    a: Pos,
    b: Pos,
    goal: Goal,
    max_steps: u32,
}

fn arb_case() -> impl Strategy<Value = Case> {
    // Densities vary per case (a value below its threshold out of 16 places the feature), so
    // both open maps and mazes occur.
    let dims = (1i32..=12, 1i32..=12, 0u8..4, 0u8..6, 0u8..7);
    dims.prop_flat_map(|(w, h, solid, model, wall)| {
        let n = (w * h) as usize;
        let cells = (
            vec(0u8..16, n),
            vec(0u8..16, n),
            vec(0u8..16, (w as usize + 1) * h as usize),
            vec(0u8..16, w as usize * (h as usize + 1)),
        );
        let asks = (0..n, 0..n, vec(0..n, 0..4), any::<bool>(), 0u32..8);
        (cells, asks).prop_map(
            move |((terrain, models, v, hz), (a, b, goal_squares, adj, max_steps))| {
                let mut mb = MapBuilder::new(w, h);
                let pos = |i: usize| Pos::new(i as i32 % w, i as i32 / w);
                let edge = |e: u8| if e < wall { Edge::Wall } else { Edge::Open };
                for (i, &t) in terrain.iter().enumerate() {
                    if t < solid {
                        mb.set_terrain(pos(i), Terrain::Solid);
                    }
                }
                for (i, &e) in v.iter().enumerate() {
                    mb.set_west(i as i32 % (w + 1), i as i32 / (w + 1), edge(e));
                }
                for (i, &e) in hz.iter().enumerate() {
                    mb.set_north(i as i32 % w, i as i32 / w, edge(e));
                }
                let map = mb.build();
                let mut obstacles = Obstacles::new(&map);
                for (i, &m) in models.iter().enumerate() {
                    if m < model {
                        obstacles.insert(pos(i));
                    }
                }
                let squares = goal_squares.into_iter().map(pos).collect();
                Case {
                    map,
                    obstacles,
                    a: pos(a),
                    b: pos(b),
                    goal: if adj {
                        Goal::AdjacentTo(squares)
                    } else {
                        Goal::Squares(squares)
                    },
                    max_steps,
                }
            },
        )
    })
}

fn without(obstacles: &Obstacles, freed: &[Pos]) -> Obstacles {
    let mut o = obstacles.clone();
    for &p in freed {
        o.remove(p);
    }
    o
}

/// Step counts from `sources` by Bellman-Ford relaxation over `can_step` alone.
fn oracle(map: &Map, obstacles: &Obstacles, sources: &[Pos]) -> Vec<Option<u32>> {
    let mut dist = vec![None; map.len()];
    for &s in sources {
        dist[map.index(s)] = Some(0);
    }
    loop {
        let mut changed = false;
        for p in map.squares() {
            let Some(d) = dist[map.index(p)] else {
                continue;
            };
            for dir in Dir::ALL {
                let q = p.offset(dir);
                if can_step(map, obstacles, p, q) {
                    let slot = &mut dist[map.index(q)];
                    if slot.is_none_or(|old| old > d + 1) {
                        *slot = Some(d + 1);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return dist;
        }
    }
}

fn assert_legal(
    c: &Case,
    freed: &Obstacles,
    path: &[Pos],
    from: Pos,
    max: u32,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(path.first(), Some(&from));
    prop_assert!(
        path.len() as u32 <= max + 1,
        "{} steps > {}",
        path.len() - 1,
        max
    );
    for pair in path.windows(2) {
        prop_assert!(
            can_step(&c.map, freed, pair[0], pair[1]),
            "illegal step {:?}",
            pair
        );
    }
    for &q in &path[1..] {
        prop_assert!(
            !c.map.blocked(&c.obstacles, q),
            "path enters obstacle {}",
            q
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn diagonal_step_is_both_orthogonal_routes(c in arb_case()) {
        let (m, o, a) = (&c.map, &c.obstacles, c.a);
        for d in [Dir::NE, Dir::SE, Dir::SW, Dir::NW] {
            let (dx, dy) = d.delta();
            let (pv, ph, t) = (Pos::new(a.x, a.y + dy), Pos::new(a.x + dx, a.y), a.offset(d));
            let routes = can_step(m, o, a, pv) && can_step(m, o, pv, t)
                && can_step(m, o, a, ph) && can_step(m, o, ph, t);
            prop_assert_eq!(can_step(m, o, a, t), routes, "{:?}", d);
            // Adjacency: not both routes cross a wall (obstacles ignored).
            let wall_free = |x: Pos, y: Pos| m.in_bounds(x) && m.in_bounds(y) && adjacent(m, x, y);
            let open_v = wall_free(a, pv) && wall_free(pv, t);
            let open_h = wall_free(a, ph) && wall_free(ph, t);
            prop_assert_eq!(adjacent(m, a, t), m.in_bounds(t) && (open_v || open_h));
            prop_assert_eq!(adjacent(m, a, t), adjacent(m, t, a));
        }
        let listed: Vec<Pos> = neighbours(m, o, a).collect();
        let expected: Vec<Pos> =
            Dir::ALL.iter().map(|&d| a.offset(d)).filter(|&q| can_step(m, o, a, q)).collect();
        prop_assert_eq!(listed, expected);
    }

    #[test]
    fn distance_field_matches_oracle(c in arb_case()) {
        let freed = without(&c.obstacles, &[c.a]);
        let want = oracle(&c.map, &freed, &[c.a]);
        let field = DistanceField::from(&c.map, &c.obstacles, c.a);
        for q in c.map.squares() {
            prop_assert_eq!(field.get(q), want[c.map.index(q)], "at {}", q);
        }
        prop_assert_eq!(path_distance(&c.map, &c.obstacles, c.a, c.b), want[c.map.index(c.b)]);
    }

    #[test]
    fn multi_source_field_matches_oracle(c in arb_case()) {
        let sources = [c.a, c.b];
        let freed = without(&c.obstacles, &sources);
        let want = oracle(&c.map, &freed, &sources);
        let field = DistanceField::from_many(&c.map, &c.obstacles, &sources);
        for q in c.map.squares() {
            prop_assert_eq!(field.get(q), want[c.map.index(q)], "at {}", q);
            if let Some(path) = field.path_to(&c.map, &c.obstacles, q) {
                prop_assert_eq!(path.len() as u32, want[c.map.index(q)].unwrap_or(0) + 1);
                prop_assert!(sources.contains(&path[0]));
                for pair in path.windows(2) {
                    prop_assert!(can_step(&c.map, &freed, pair[0], pair[1]));
                }
            } else {
                prop_assert_eq!(want[c.map.index(q)], None);
            }
        }
    }

    #[test]
    fn shortest_path_is_legal_and_as_long_as_the_distance(c in arb_case()) {
        let freed = without(&c.obstacles, &[c.a]);
        let dist = path_distance(&c.map, &c.obstacles, c.a, c.b);
        let path = shortest_path(&c.map, &c.obstacles, c.a, c.b);
        prop_assert_eq!(dist.is_some(), path.is_some());
        if let (Some(d), Some(path)) = (dist, path) {
            prop_assert_eq!(path.len() as u32, d + 1);
            prop_assert_eq!(path.last(), Some(&c.b));
            assert_legal(&c, &freed, &path, c.a, d)?;
            let field = DistanceField::from(&c.map, &c.obstacles, c.a);
            prop_assert_eq!(field.path_to(&c.map, &c.obstacles, c.b), Some(path));
        }
    }

    #[test]
    fn path_distance_is_symmetric(c in arb_case()) {
        // Models never stand on solid squares; a solid start could leave but not be entered.
        prop_assume!(!c.map.is_solid(c.a) && !c.map.is_solid(c.b));
        let o = without(&c.obstacles, &[c.a, c.b]);
        prop_assert_eq!(path_distance(&c.map, &o, c.a, c.b), path_distance(&c.map, &o, c.b, c.a));
        // The movers' own squares may be in the obstacles: only the other end then blocks.
        let mut both = o.clone();
        both.insert(c.a);
        prop_assert_eq!(path_distance(&c.map, &both, c.a, c.b), path_distance(&c.map, &o, c.a, c.b));
    }

    #[test]
    fn reachable_is_the_oracle_within_n(c in arb_case()) {
        let freed = without(&c.obstacles, &[c.a]);
        let want = oracle(&c.map, &freed, &[c.a]);
        let mut expected: Vec<(Pos, u32)> = c
            .map
            .squares()
            .filter_map(|q| want[c.map.index(q)].filter(|&d| d <= c.max_steps).map(|d| (q, d)))
            .collect();
        expected.sort_by_key(|&(q, d)| (d, q.y, q.x));
        let got = reachable(&c.map, &c.obstacles, c.a, c.max_steps);
        prop_assert_eq!(&got, &expected);
        for (q, d) in got {
            if let Some(path) = shortest_path(&c.map, &c.obstacles, c.a, q) {
                prop_assert_eq!(path.len() as u32, d + 1);
                assert_legal(&c, &freed, &path, c.a, c.max_steps)?;
            } else {
                prop_assert!(false, "no path to reachable {}", q);
            }
        }
    }

    #[test]
    fn towards_picks_exactly_the_best_ends(c in arb_case()) {
        let (m, from, n) = (&c.map, c.a, c.max_steps);
        let freed = without(&c.obstacles, &[from]);
        let moves = oracle(m, &freed, &[from]);
        let goal_squares: Vec<Pos> = m
            .squares()
            .filter(|&q| !m.blocked(&freed, q))
            .filter(|&q| match &c.goal {
                Goal::Squares(v) => v.contains(&q),
                Goal::AdjacentTo(t) => t.iter().any(|&t| adjacent(m, q, t)),
            })
            .collect();
        let to_goal = oracle(m, &freed, &goal_squares);
        let cands: Vec<(Pos, u32)> = m
            .squares()
            .filter_map(|q| moves[m.index(q)].filter(|&d| d <= n).map(|d| (q, d)))
            .collect();
        let by_path = cands
            .iter()
            .filter_map(|&(q, s)| to_goal[m.index(q)].map(|d| (d, s)))
            .min();
        let anchors: Vec<Pos> = match &c.goal {
            Goal::Squares(v) | Goal::AdjacentTo(v) => v.clone(),
        };
        let key = |q: Pos, s: u32| -> (u32, u32) {
            match by_path {
                Some(_) => (to_goal[m.index(q)].unwrap_or(u32::MAX), s),
                None => (anchors.iter().map(|&a| q.distance(a)).min().unwrap_or(0), s),
            }
        };
        let best = cands.iter().map(|&(q, s)| key(q, s)).min().unwrap_or((0, 0));
        let mut ends: Vec<Pos> =
            cands.iter().filter(|&&(q, s)| key(q, s) == best).map(|&(q, _)| q).collect();
        ends.sort_by_key(|q| (q.y, q.x));
        let remaining = match by_path {
            Some((d, _)) => Remaining::Path(d),
            None if anchors.is_empty() => Remaining::NoGoal,
            None => Remaining::Chebyshev(best.0),
        };

        let t = towards(m, &c.obstacles, from, c.goal.clone(), n);
        prop_assert_eq!(&t.ends, &ends);
        prop_assert_eq!(t.remaining, remaining);
        prop_assert_eq!(t.steps, best.1);
        prop_assert_eq!(t.reached(), remaining == Remaining::Path(0));
        for &e in &t.ends {
            let path = t.path(e);
            prop_assert!(path.is_some(), "no path to end {}", e);
            let path = path.unwrap_or_default();
            prop_assert_eq!(path.len() as u32, t.steps + 1);
            prop_assert_eq!(path.last(), Some(&e));
            assert_legal(&c, &freed, &path, from, n)?;
            if t.reached() {
                prop_assert!(c.goal.is_met(m, e));
                // Stops at the first goal square: none earlier on the path.
                for &q in &path[..path.len() - 1] {
                    prop_assert!(!goal_squares.contains(&q), "passes goal square {}", q);
                }
            }
        }
    }

    #[test]
    fn off_map_positions_never_panic(c in arb_case(), dx in -3i32..3, dy in -3i32..3) {
        let out = Pos::new(
            if dx < 0 { dx } else { c.map.width() + dx },
            if dy < 0 { dy } else { c.map.height() + dy },
        );
        let (m, o) = (&c.map, &c.obstacles);
        prop_assert!(!adjacent(m, out, c.a) && !can_step(m, o, out, c.a) && !can_step(m, o, c.a, out));
        prop_assert_eq!(neighbours(m, o, out).count(), 0);
        prop_assert_eq!(path_distance(m, o, c.a, out), None);
        prop_assert_eq!(shortest_path(m, o, out, c.a), None);
        prop_assert!(reachable(m, o, out, 5).is_empty());
        prop_assert!(towards(m, o, out, c.goal.clone(), 5).ends.is_empty());
        let field = DistanceField::from(m, o, out);
        prop_assert!(m.squares().all(|q| field.get(q).is_none()));
        prop_assert_eq!(field.path_to(m, o, c.a), None);
        let t = towards(m, o, c.a, Goal::Squares(vec![out]), 5);
        prop_assert_eq!((t.ends, t.remaining, t.steps), (vec![c.a], Remaining::NoGoal, 0));
    }
}
