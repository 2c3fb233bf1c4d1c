//! docs/RULES.md §5: validation hands resolution a checked plan (`Game::check`, `Game::play`):
//! a typed move is searched for a path once, from validation to resolution; a refusal names
//! the rule (`RefusalKind`) and the reason that applies.

use crate::common;

use common::*;
use overmind_core::card::{CardDef, CardTarget, Deck};
use overmind_core::movement::path_searches;
use overmind_core::*;

/// Heroes T (0,0) and U (0,2) west of the wall of [`wall_map`], a Blip far east.
fn game(w: &World, hand: bool) -> Game {
    let mut s = setup(
        &wall_map(),
        &[("T", "trooper", [0, 0]), ("U", "trooper", [0, 2])],
        &[("B", [11, 5], unit("grunt", 1))],
    );
    if hand {
        s.decks = vec![Deck::Mutation];
    }
    start(&s, w)
}

fn cards_world() -> World {
    let mut w = world();
    w.content.cards.insert(
        "dud".into(),
        CardDef {
            id: "dud".into(),
            name: "dud".into(),
            text: String::new(),
            deck: Deck::Mutation,
            target: CardTarget::None,
            copies: 3,
            play: None,
        },
    );
    w
}

#[test]
fn a_typed_move_searches_for_its_path_once() {
    let w = world();
    let mut g = game(&w, false);
    let mut c = ctl(vec![]);
    for a in [mv("T", 3, 3), Action::sprint_to("U", Pos::new(1, 3))] {
        let before = path_searches();
        apply(&mut g, &w, &mut c, a.clone());
        assert_eq!(path_searches() - before, 1, "{a:?}");
    }
}

#[test]
fn an_overmind_move_with_a_choice_of_paths_searches_once() {
    let w = world();
    let mut g = game(&w, false);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    let before = path_searches();
    let ev = apply(&mut g, &w, &mut c, mv("B", 9, 3));
    assert_eq!(path_searches() - before, 1);
    assert!(
        ev.iter().any(|e| matches!(e, Event::Moved { .. })),
        "the Blip moved: {ev:?}"
    );
}

#[test]
fn a_checked_action_is_played_without_validating_again_and_a_stale_one_is_checked_again() {
    let w = world();
    let mut g = game(&w, false);
    let mut c = ctl(vec![]);
    let checked = g.check(&w.content, &mv("T", 2, 0)).expect("legal");
    let before = path_searches();
    g.play(checked, &w.content, &mut c).expect("played");
    assert_eq!(path_searches(), before, "no search after the check");
    assert_eq!(g.state.unit("T").unwrap().models[0].pos, Pos::new(2, 0));

    // Checked before T's activation ended: once it has, the plan is checked again.
    let stale = g
        .check(&w.content, &Action::sprint_to("T", Pos::new(2, 1)))
        .expect("legal");
    apply(&mut g, &w, &mut c, Action::End);
    let e = g
        .play(stale, &w.content, &mut c)
        .expect_err("T has activated");
    assert_eq!(e.kind, RefusalKind::AlreadyActivated, "{e}");
    assert_eq!(g.state.unit("T").unwrap().models[0].pos, Pos::new(2, 0));
}

#[test]
fn a_refusal_names_the_reason_that_applies_not_the_activation_under_way() {
    let w = cards_world();
    let mut g = game(&w, true);
    push_alien(&mut g.state, "A", "grunt", &[[1, 2]], 2);
    let mut c = ctl(vec![]);
    apply(&mut g, &w, &mut c, mv("T", 1, 0));
    // U is next to A: it cannot shoot it, whoever is active.
    let shoot = Action::Shoot {
        unit: "U".into(),
        target: "A.1".into(),
    };
    let e = g.validate(&w.content, &shoot).expect_err("adjacent");
    assert_eq!(e.kind, RefusalKind::Target, "{e}");
    assert!(e.message.contains("adjacent"), "{e}");
    // A Melee, legal but for T's activation: that is the reason given.
    let melee = Action::Melee {
        unit: "U".into(),
        target: "A.1".into(),
    };
    let e = g.validate(&w.content, &melee).expect_err("T is active");
    assert_eq!(e.kind, RefusalKind::EndActivationFirst, "{e}");
    assert!(e.message.contains("end T's activation first"), "{e}");
}

#[test]
fn refusals_are_typed() {
    let w = world();
    let mut g = game(&w, false);
    let mut c = ctl(vec![]);
    let kind = |g: &Game, a: Action| g.validate(&w.content, &a).expect_err("refused").kind;
    assert_eq!(kind(&g, mv("Nobody", 1, 1)), RefusalKind::Unknown);
    assert_eq!(kind(&g, mv("B", 10, 5)), RefusalKind::NotYours);
    assert_eq!(kind(&g, mv("T", 11, 0)), RefusalKind::Path);
    assert_eq!(
        kind(&g, Action::Flip { unit: "T".into() }),
        RefusalKind::Unable
    );
    apply(&mut g, &w, &mut c, mv("T", 1, 0));
    assert_eq!(kind(&g, mv("T", 2, 0)), RefusalKind::SameAction);
    g.state.model_mut("U").unwrap().status.knocked_down = true;
    assert_eq!(kind(&g, mv("U", 1, 2)), RefusalKind::Status);
}
