//! docs/RULES.md §6.6: Push Back and Shaken act on the whole Alien Unit hit (every model), a
//! blocked model Stunned instead; a Hero is one model.

use crate::common;
use common::*;
use overmind_core::*;

/// A trooper at 2,3 with `effect` on its Melee, next to a three-model grunt unit on an open
/// 12x8 map (solid squares as given), every die a hit.
fn scene(effect: Effect, solid: &[[i32; 2]]) -> (World, Game) {
    let mut w = world();
    if let Some(h) = w.content.heroes.get_mut("trooper") {
        h.melee_effects = vec![effect];
    }
    let mut s = setup("", &[("T", "trooper", [2, 3])], &[]);
    let mut b = MapBuilder::new(12, 8);
    for p in solid {
        b.set_terrain(Pos::from(*p), Terrain::Solid);
    }
    s.map = b.build();
    s.rules.die = all_hits();
    let mut st = s.start(&w.content, 3).unwrap();
    push_alien(&mut st, "A", "grunt", &[[3, 3], [3, 4], [5, 3]], 9);
    (w, Game::new(st, "t", 3))
}

fn melee_a1(w: &World, g: &mut Game) -> Vec<Event> {
    apply(
        g,
        w,
        &mut ctl(vec![]),
        Action::Melee {
            unit: "T".into(),
            target: "A.1".into(),
        },
    )
}

fn at(g: &Game, model: &str) -> Pos {
    g.state.find_model(model).expect("alive").1.pos
}

#[test]
fn push_back_moves_every_model_of_the_alien_unit_one_square_away() {
    let (w, mut g) = scene(Effect::PushBack, &[]);
    let ev = melee_a1(&w, &mut g);
    let pushed = ev
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Status {
                    status: event::StatusChange::PushedBack { .. },
                    ..
                }
            )
        })
        .count();
    assert_eq!(pushed, 3, "all three models are pushed back: {ev:#?}");
    // Farthest from the attacker first (the AI's default order), each to the first of its three
    // squares away (sorted by row, then column).
    assert_eq!(at(&g, "A.3"), Pos::new(6, 2));
    assert_eq!(at(&g, "A.1"), Pos::new(4, 2));
    assert_eq!(at(&g, "A.2"), Pos::new(4, 4));
    let trooper = Pos::new(2, 3);
    for m in ["A.1", "A.2", "A.3"] {
        assert!(!g.state.find_model(m).unwrap().1.status.stunned);
        assert!(at(&g, m).distance(trooper) >= 2, "{m} moved away");
    }
}

#[test]
fn push_back_stuns_a_blocked_model_and_moves_the_others() {
    // Nothing free beyond A.3 (5,3): 6,2 6,3 6,4 are solid.
    let (w, mut g) = scene(Effect::PushBack, &[[6, 2], [6, 3], [6, 4]]);
    melee_a1(&w, &mut g);
    let a3 = g.state.find_model("A.3").unwrap().1;
    assert_eq!(a3.pos, Pos::new(5, 3), "blocked: stays");
    assert!(a3.status.stunned, "blocked: Stunned instead");
    for (m, from) in [("A.1", Pos::new(3, 3)), ("A.2", Pos::new(3, 4))] {
        let model = g.state.find_model(m).unwrap().1;
        assert_ne!(model.pos, from, "{m} is pushed back");
        assert!(!model.status.stunned, "{m} had room");
    }
}

#[test]
fn shaken_makes_the_whole_alien_unit_flee() {
    let (w, mut g) = scene(Effect::Shaken, &[]);
    let before: Vec<u32> = ["A.1", "A.2", "A.3"]
        .iter()
        .map(|m| at(&g, m).distance(Pos::new(2, 3)))
        .collect();
    melee_a1(&w, &mut g);
    for (m, d0) in ["A.1", "A.2", "A.3"].iter().zip(before) {
        let model = g.state.find_model(m).unwrap().1;
        assert_eq!(
            model.status.shaken_by.as_deref(),
            Some("T"),
            "{m} is Shaken by T"
        );
        let d = model.pos.distance(Pos::new(2, 3));
        assert!(d > d0 && d >= 5, "{m} fled from 2,3: {d0} → {d}");
    }
}

#[test]
fn a_hero_pushed_back_is_one_model_as_before() {
    let mut w = world();
    if let Some(a) = w.content.aliens.get_mut("grunt") {
        a.melee_effects = vec![Effect::PushBack];
    }
    let mut s = setup("", &[("T", "trooper", [2, 3])], &[]);
    s.map = MapBuilder::new(12, 8).build();
    s.rules.die = all_hits();
    let mut st = s.start(&w.content, 3).unwrap();
    push_alien(&mut st, "A", "grunt", &[[3, 3], [3, 4]], 9);
    let mut g = Game::new(st, "t", 3);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    let ev = apply(
        &mut g,
        &w,
        &mut c,
        Action::Melee {
            unit: "A".into(),
            target: "T".into(),
        },
    );
    let pushed: Vec<&Event> = ev
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Status {
                    status: event::StatusChange::PushedBack { .. },
                    ..
                }
            )
        })
        .collect();
    assert_eq!(pushed.len(), 1, "one Hero model pushed once: {ev:#?}");
    assert_eq!(at(&g, "A.1"), Pos::new(3, 3), "the attackers stay");
}
