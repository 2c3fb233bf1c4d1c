//! XXL models and Destroy Wall (docs/RULES.md §4.4, §5.4), tested from the rules text: 2×2
//! moves, adjacency to the base, immunity, the action and its legal listing, and every LOS and
//! path table following a wall that comes down.

use crate::common::*;
use crate::los_props::{draw, square, world};
use overmind_core::geom::footprint;
use overmind_core::movement::{
    base_adjacent, block_path, block_reachable, can_step_block, path_distance, reachable,
    shortest_path,
};
use overmind_core::setup::AlienSetup;
use overmind_core::*;
use proptest::prelude::*;

/// A 10×6 board: a closed building (x 3..=6, y 2..=3) under open ground.
const BUILDING: &str = "
+-+-+-+-+-+-+-+-+-+-+
|. . . . . . . . . .|
+ + + + + + + + + + +
|. . . . . . . . . .|
+ + + +-+-+-+-+ + + +
|. . .|b b b b|. . .|
+ + + + + + + + + + +
|. . .|b b b b|. . .|
+ + + +-+-+-+-+ + + +
|. . . . . . . . . .|
+ + + + + + + + + + +
|. . . . . . . . . .|
+-+-+-+-+-+-+-+-+-+-+
";

/// Open ground split by a wall along y=2 with one gap, at x=3 (`wide`: x=3 and 4).
fn gap_map(wide: bool) -> Map {
    let mut mb = MapBuilder::new(8, 4);
    for x in 0..8 {
        if x != 3 && !(wide && x == 4) {
            mb.set_north(x, 2, Edge::Wall);
        }
    }
    mb.build()
}

/// The common world plus an XXL type `giant` (RUSH, Movement 4) and a plain one.
fn xxl_world() -> World {
    let mut w = world_fixture();
    let mut giant = alien("giant", 1, 4, &["rush"]);
    giant.xxl = true;
    giant.health = 6;
    w.content.aliens.insert(giant.id.clone(), giant);
    w
}

fn world_fixture() -> World {
    crate::common::world()
}

/// A game on `drawing` with hero `H` (trooper) and the giant `J` at `j`.
fn game_with_giant(drawing: &str, hero: [i32; 2], j: [i32; 2], w: &World) -> Game {
    let mut s = setup(drawing, &[("H", "trooper", hero)], &[]);
    s.aliens.push(AlienSetup {
        id: "J".into(),
        type_id: "giant".into(),
        at: vec![Pos::from(j)],
        health: None,
    });
    start(&s, w)
}

#[test]
fn a_two_by_two_base_does_not_pass_a_one_square_opening() {
    let narrow = gap_map(false);
    let o = Obstacles::new(&narrow);
    // A single square goes through the gap; the 2×2 base cannot.
    assert!(shortest_path(&narrow, &o, Pos::new(3, 0), Pos::new(3, 3)).is_some());
    assert_eq!(
        block_path(&narrow, &o, Pos::new(3, 0), Pos::new(3, 2)),
        None
    );
    let wide = gap_map(true);
    let o = Obstacles::new(&wide);
    assert_eq!(
        block_path(&wide, &o, Pos::new(3, 0), Pos::new(3, 2)),
        Some(vec![Pos::new(3, 0), Pos::new(3, 1), Pos::new(3, 2)])
    );
}

#[test]
fn every_square_of_every_step_must_be_free() {
    let map = MapBuilder::new(6, 6).build();
    let mut o = Obstacles::new(&map);
    // The mover's own base never blocks it.
    for p in footprint(Pos::new(0, 0), true) {
        o.insert(p);
    }
    assert!(can_step_block(&map, &o, Pos::new(0, 0), Pos::new(1, 0)));
    // A model on the square the base's right column enters blocks the step east...
    o.insert(Pos::new(2, 1));
    assert!(!can_step_block(&map, &o, Pos::new(0, 0), Pos::new(1, 0)));
    // ... and the diagonal step that would cut past it.
    assert!(!can_step_block(&map, &o, Pos::new(0, 0), Pos::new(1, 1)));
    assert!(can_step_block(&map, &o, Pos::new(0, 0), Pos::new(0, 1)));
    // Off the map: the base needs all four squares on it.
    assert!(!can_step_block(&map, &o, Pos::new(4, 4), Pos::new(5, 4)));
}

#[test]
fn adjacency_and_distance_count_the_whole_base() {
    let map = MapBuilder::new(8, 8).build();
    let j = Pos::new(2, 2);
    // Touching the lower-right square, two squares from the top-left one.
    assert!(base_adjacent(&map, j, true, Pos::new(4, 4), false));
    assert!(!base_adjacent(&map, j, true, Pos::new(5, 4), false));
    assert_eq!(geom::base_distance(j, true, Pos::new(6, 3), false), 3);
    // Across a wall along the base's east side, not adjacent (nor diagonally past it).
    let mut mb = MapBuilder::new(8, 8);
    mb.set_west(4, 2, Edge::Wall).set_west(4, 3, Edge::Wall);
    let walled = mb.build();
    assert!(!base_adjacent(&walled, j, true, Pos::new(4, 3), false));
    assert!(base_adjacent(&walled, j, true, Pos::new(4, 4), false));
}

#[test]
fn an_xxl_model_blocks_all_four_squares_and_is_placed_by_its_top_left_square() {
    let w = xxl_world();
    let mut g = game_with_giant(BUILDING, [0, 5], [0, 0], &w);
    let o = g.state.compute_obstacles();
    for p in footprint(Pos::new(0, 0), true) {
        assert!(o.contains(p), "{p} is part of the base");
    }
    assert!(!o.contains(Pos::new(2, 0)));
    assert!(g.state.los(Pos::new(0, 5), Pos::new(1, 1)));
    // A square behind the base along the row is hidden by it.
    assert!(!g.state.los(Pos::new(0, 2), Pos::new(0, 0)));
    // A wall through a base is refused at setup.
    let mut s = setup(BUILDING, &[("H", "trooper", [0, 5])], &[]);
    s.aliens.push(AlienSetup {
        id: "J".into(),
        type_id: "giant".into(),
        at: vec![Pos::new(2, 1)],
        health: None,
    });
    let errs = s.start(&w.content, 7).expect_err("a wall runs through it");
    assert!(
        errs.iter()
            .any(|e| e.to_string().contains("wall runs through")),
        "{errs:?}"
    );
}

#[test]
fn destroy_wall_opens_two_squares_makes_a_ruin_and_the_listing_agrees() {
    let w = xxl_world();
    let mut g = game_with_giant(BUILDING, [9, 5], [4, 0], &w);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    let destroy = Action::DestroyWall { unit: "J".into() };
    assert!(
        g.is_legal(&w.content, &destroy),
        "J stands against the wall"
    );
    assert!(g.legal_actions(&w.content).contains(&destroy));
    let b = g.state.map.building(Pos::new(4, 2));
    let events = apply(&mut g, &w, &mut c, destroy.clone());
    let edges = events.iter().find_map(|e| match e {
        Event::WallDestroyed { edges, .. } => Some(edges.clone()),
        _ => None,
    });
    assert_eq!(
        edges,
        Some(vec![
            [Pos::new(4, 1), Pos::new(4, 2)],
            [Pos::new(5, 1), Pos::new(5, 2)]
        ])
    );
    let map = g.state.map.clone();
    assert!(!map.wall(Pos::new(4, 1), Dir::S) && !map.wall(Pos::new(5, 1), Dir::S));
    assert_eq!(map.side(Pos::new(4, 1), Dir::S), Edge::Ruined);
    assert!(map.wall(Pos::new(3, 1), Dir::S), "only the two edges");
    assert!(b.is_some_and(|b| map.is_ruin(b)));
    assert_eq!(map.intact_building(Pos::new(4, 2)), None);
    // Its activation's Interact is spent: a second Destroy Wall is refused, and not listed.
    assert!(!g.is_legal(&w.content, &destroy));
    assert!(!g.legal_actions(&w.content).contains(&destroy));
}

#[test]
fn destroy_wall_is_refused_to_a_model_that_is_not_xxl() {
    let w = xxl_world();
    let mut s = setup(BUILDING, &[("H", "trooper", [9, 5])], &[]);
    s.aliens.push(AlienSetup {
        id: "G".into(),
        type_id: "grunt".into(),
        at: vec![Pos::new(4, 1)],
        health: None,
    });
    let mut g = start(&s, &w);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    let r = g.validate(&w.content, &Action::DestroyWall { unit: "G".into() });
    assert!(r.is_err_and(|e| e.message.contains("not an XXL model")));
}

#[test]
fn listed_moves_of_an_xxl_model_are_exactly_the_accepted_ones() {
    let w = xxl_world();
    let mut g = game_with_giant(BUILDING, [9, 5], [0, 0], &w);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    let listed = g.legal_actions(&w.content);
    for p in g.state.map.squares() {
        for a in [Action::move_to("J", p), Action::sprint_to("J", p)] {
            assert_eq!(
                listed.contains(&a),
                g.is_legal(&w.content, &a),
                "{a:?}: the list and validation disagree"
            );
        }
    }
    // It cannot enter the building: no square inside is listed.
    assert!(!listed.contains(&Action::move_to("J", Pos::new(3, 2))));
}

#[test]
fn ai_games_with_an_xxl_unit_end_and_replay() {
    let w = xxl_world();
    for levels in [
        ai::Levels::default(),
        ai::Levels {
            heroes: ai::Level::Greedy,
            overmind: ai::Level::Greedy,
        },
    ] {
        let mut g = game_with_giant(BUILDING, [9, 5], [0, 0], &w);
        ai::play_ai_game_at(&mut g, &w.content, 2000, levels);
        assert!(g.state.is_over(), "the game ends within its round limit");
        assert!(
            g.log
                .iter()
                .any(|e| matches!(e, Event::Moved { unit, .. } if unit == "J.1")),
            "the giant moved"
        );
        let mut again = game_with_giant(BUILDING, [9, 5], [0, 0], &w);
        ai::play_ai_game_at(&mut again, &w.content, 2000, levels);
        assert_eq!(g.log, again.log, "the same seed plays the same game");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// After random walls come down, every LOS and path answer on the ruined map — whose
    /// predecessor answered many questions first, filling the pair tables, the step masks and
    /// this thread's last search — equals a fresh map's built with those walls open.
    #[test]
    fn caches_follow_walls_coming_down(
        w in world(9),
        ruin in proptest::collection::vec((any::<u16>(), any::<bool>()), 1..10),
    ) {
        let map = &w.map;
        // Warm every table of the old map.
        for a in map.squares() {
            let _ = reachable(map, &w.obs, a, 4);
            let _ = block_reachable(map, &w.obs, a, 3);
            for b in map.squares() {
                let _ = LosRule::Exact.visible(map, &w.obs, a, b);
                let _ = LosRule::Centre.visible(map, &w.obs, a, b);
            }
        }
        let edges: Vec<(Pos, Dir)> = ruin
            .iter()
            .map(|&(i, east)| (square(map, i), if east { Dir::E } else { Dir::S }))
            .collect();
        let ruined = map.with_ruined(&edges);
        let mut mb = MapBuilder::from(map.clone());
        for &(p, d) in &edges {
            if map.wall(p, d) && map.in_bounds(p.offset(d)) {
                match d {
                    Dir::E => { mb.set_west(p.x + 1, p.y, Edge::Open); }
                    _ => { mb.set_north(p.x, p.y + 1, Edge::Open); }
                }
            }
        }
        let fresh = mb.build();
        for a in map.squares() {
            prop_assert_eq!(
                reachable(&ruined, &w.obs, a, 4),
                reachable(&fresh, &w.obs, a, 4),
                "reachable from {}\n{}", a, draw(&w)
            );
            prop_assert_eq!(
                block_reachable(&ruined, &w.obs, a, 3),
                block_reachable(&fresh, &w.obs, a, 3),
                "2×2 reachable from {}", a
            );
            for b in map.squares() {
                for rule in [LosRule::Exact, LosRule::Centre] {
                    prop_assert_eq!(
                        rule.visible(&ruined, &w.obs, a, b),
                        rule.visible(&fresh, &w.obs, a, b),
                        "{:?} {} -> {}", rule, a, b
                    );
                }
                prop_assert_eq!(
                    path_distance(&ruined, &w.obs, a, b),
                    path_distance(&fresh, &w.obs, a, b),
                    "path {} -> {}", a, b
                );
            }
        }
    }
}
