//! Author tools (docs/RULES.md §13, issue 12): `perform` runs a behaviour on demand and
//! `spawn` puts an alien unit on the map, only in a game with the tools on; both are
//! validated like any action, replay exactly and are never offered as legal actions.

use crate::common;

use common::*;
use overmind_core::*;

fn dev_game(w: &World) -> Game {
    let s = setup(
        &wall_map(),
        &[("T", "trooper", [0, 0])],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    let mut g = start(&s, w);
    g.state.set_dev(true);
    g
}

fn spawn(alien: &str, x: i32, y: i32, models: u32) -> Action {
    Action::Spawn {
        alien: alien.into(),
        at: Pos::new(x, y),
        models,
    }
}

#[test]
fn without_the_tools_both_are_refused_and_nothing_changes() {
    let w = world();
    let s = setup(
        &wall_map(),
        &[("T", "trooper", [0, 0])],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    let mut g = start(&s, &w);
    let before = g.state.clone();
    let mut c = ctl(vec![]);
    for a in [
        spawn("grunt", 8, 0, 1),
        Action::Perform {
            unit: "T".into(),
            behaviour: "probe".into(),
        },
    ] {
        let e = g.apply(a, &w.content, &mut c).unwrap_err();
        assert!(e.message.contains("play --dev"), "{e}");
    }
    assert_eq!(g.state, before);
    assert!(g.record.is_empty());
}

#[test]
fn spawn_places_a_unit_and_perform_runs_its_behaviour_out_of_turn() {
    let w = world();
    let mut g = dev_game(&w);
    let mut c = ctl(vec![]);
    let ev = apply(&mut g, &w, &mut c, spawn("grunt", 8, 0, 1));
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::UnitSpawned { unit, type_id, models, source }
            if unit == "s1" && type_id == "grunt" && source == "dev"
                && models.len() == 1 && models[0].at == Pos::new(8, 0))
        ),
        "{ev:?}"
    );
    let u = g.state.unit("s1").expect("spawned");
    assert_eq!(u.side, Side::Overmind);
    assert_eq!(u.models[0].pos, Pos::new(8, 0));
    // It is still the Heroes' phase, and no Hero activation started.
    assert_eq!(g.to_move(), Some(Side::Heroes));
    assert_eq!(g.state.active, None);

    w.ran.borrow_mut().clear();
    let ev = apply(
        &mut g,
        &w,
        &mut c,
        Action::Perform {
            unit: "s1".into(),
            behaviour: "probe".into(),
        },
    );
    assert_eq!(*w.ran.borrow(), vec!["s1".to_string()]);
    let kinds: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            Event::BehaviourOnDemand { .. } => Some("on_demand"),
            Event::BehaviourPerformed { .. } => Some("performed"),
            Event::BehaviourChosen { .. } => Some("chosen"),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, ["on_demand", "performed"]);
    assert_eq!(g.to_move(), Some(Side::Heroes));
    assert!(g.state.unit("s1").expect("still there").used.is_empty());
}

#[test]
fn a_second_spawn_gets_the_next_free_id_and_its_models_go_next_to_it() {
    let w = world();
    let mut g = dev_game(&w);
    let mut c = ctl(vec![]);
    apply(&mut g, &w, &mut c, spawn("grunt", 8, 0, 1));
    apply(&mut g, &w, &mut c, spawn("grunt", 8, 4, 3));
    let u = g.state.unit("s2").expect("second unit");
    assert_eq!(u.models.len(), 3);
    let first = u.models[0].pos;
    assert_eq!(first, Pos::new(8, 4));
    // As a reveal places them (§7.5): each next to a model placed before it.
    for (i, m) in u.models.iter().enumerate().skip(1) {
        assert!(
            u.models[..i].iter().any(|p| p.pos.distance(m.pos) == 1),
            "{} at {} is next to no earlier model",
            m.id,
            m.pos
        );
    }
}

#[test]
fn bad_spawns_and_performs_are_refused_with_the_reason() {
    let w = world();
    let mut g = dev_game(&w);
    let mut c = ctl(vec![]);
    let refused = |g: &Game, a: Action| g.validate(&w.content, &a).unwrap_err().message;
    assert!(refused(&g, spawn("nope", 8, 0, 1)).contains("no loaded alien type"));
    assert!(refused(&g, spawn("grunt", 0, 0, 1)).contains("holds a model"));
    assert!(refused(&g, spawn("grunt", 10, 3, 1)).contains("holds a model"));
    assert!(refused(&g, spawn("grunt", 40, 0, 1)).contains("off the map"));
    assert!(refused(&g, spawn("grunt", 8, 0, 4)).contains("1 to 3 models"));
    assert!(refused(&g, spawn("grunt", 8, 0, 0)).contains("1 to 3 models"));
    let perform = |unit: &str, b: &str| Action::Perform {
        unit: unit.into(),
        behaviour: b.into(),
    };
    assert!(refused(&g, perform("T", "probe")).contains("is a Hero"));
    assert!(refused(&g, perform("B", "probe")).contains("face-down Blip"));
    assert!(refused(&g, perform("zz", "probe")).contains("no unit zz"));
    apply(&mut g, &w, &mut c, spawn("grunt", 8, 0, 1));
    assert!(refused(&g, perform("s1", "nothing")).contains("no loaded behaviour"));
}

#[test]
fn the_tools_are_never_legal_actions() {
    let w = world();
    let g = dev_game(&w);
    let legal = g.legal_actions(&w.content);
    assert!(!legal.iter().any(dev::is_dev), "{legal:?}");
}

#[test]
fn a_game_with_tools_used_replays_exactly() {
    let w = world();
    let mut g = dev_game(&w);
    let start = g.state.clone();
    let mut c = ctl(vec![]);
    apply(&mut g, &w, &mut c, spawn("rusher", 6, 0, 3));
    apply(
        &mut g,
        &w,
        &mut c,
        Action::Perform {
            unit: "s1".into(),
            behaviour: "rush".into(),
        },
    );
    apply(&mut g, &w, &mut c, Action::End);
    let again = Game::replay(start, "test", 7, &g.record, &w.content).expect("replays");
    assert_eq!(again.log, g.log);
    assert_eq!(again.state, g.state);
}
