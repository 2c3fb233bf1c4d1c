//! AI levels (issue 11): the look-ahead plays on copies only, so a game the `standard` or
//! `strong` AI played replays exactly from its recorded inputs alone (no look-ahead on the
//! replay), and the same seed always gives the same game.

use crate::common;

use common::{base_like, demo_setup};
use overmind_core::ai::{play_ai_game_at, Level, Levels};
use overmind_core::Game;

fn played(seed: u64, levels: Levels) -> Game {
    let content = base_like();
    let st = demo_setup().start(&content, seed).expect("the demo starts");
    let mut g = Game::new(st, "demo", seed);
    play_ai_game_at(&mut g, &content, 20_000, levels);
    g
}

fn same_game(a: &Game, b: &Game) {
    assert_eq!(a.log, b.log);
    assert_eq!(
        serde_json::to_value(&a.state).expect("state"),
        serde_json::to_value(&b.state).expect("state")
    );
}

#[test]
fn look_ahead_games_replay_from_their_inputs_alone() {
    let content = base_like();
    for (seed, levels) in [
        (
            1,
            Levels {
                heroes: Level::Standard,
                overmind: Level::Standard,
            },
        ),
        (
            2,
            Levels {
                heroes: Level::Greedy,
                overmind: Level::Standard,
            },
        ),
        (
            3,
            Levels {
                heroes: Level::Standard,
                overmind: Level::Greedy,
            },
        ),
        (
            4,
            Levels {
                heroes: Level::Greedy,
                overmind: Level::Strong,
            },
        ),
    ] {
        let g = played(seed, levels);
        assert!(g.state.outcome.is_some(), "seed {seed}: the game ends");
        let chosen = g
            .log
            .iter()
            .filter(|e| matches!(e, overmind_core::Event::BehaviourChosen { .. }))
            .count();
        assert!(chosen > 0, "seed {seed}: some behaviour was chosen");
        let start = demo_setup().start(&content, seed).expect("the demo starts");
        let replayed =
            Game::replay(start, "demo", seed, &g.record, &content).expect("the record replays");
        same_game(&g, &replayed);
        same_game(&g, &played(seed, levels));
    }
}

#[test]
fn levels_by_name() {
    for l in Level::ALL {
        assert_eq!(l.name().parse::<Level>(), Ok(l));
        assert_eq!(l.to_string(), l.name());
    }
    assert_eq!(Level::default(), Level::Standard);
    assert_eq!(
        "hard".parse::<Level>(),
        Err("no AI level `hard`: expected greedy, standard or strong".to_string())
    );
}

/// The look-ahead changes the Overmind's play: over the same seeds the standard Overmind
/// chooses some behaviour the greedy one does not (the greedy AI is the unchanged reference).
#[test]
fn the_standard_overmind_chooses_differently_from_the_greedy_one() {
    let greedy = Levels {
        heroes: Level::Greedy,
        overmind: Level::Greedy,
    };
    let standard = Levels {
        heroes: Level::Greedy,
        overmind: Level::Standard,
    };
    let differs = (0..10).any(|seed| played(seed, greedy).log != played(seed, standard).log);
    assert!(differs);
    // The greedy level is the old AI exactly.
    let content = base_like();
    for seed in 0..5 {
        let st = demo_setup().start(&content, seed).expect("the demo starts");
        let mut old = Game::new(st, "demo", seed);
        overmind_core::ai::play_ai_game(&mut old, &content, 20_000);
        same_game(&old, &played(seed, greedy));
    }
}

/// One Hero's activation at `level`: every action its AI takes until the activation ends, and
/// the events.
fn hero_activation(g: &mut Game, w: &common::World, level: Level) -> Vec<overmind_core::Event> {
    let mut c = common::ctl(vec![]);
    let mut p = overmind_core::ai::player(overmind_core::Side::Heroes, level);
    let mut events = Vec::new();
    for _ in 0..4 {
        let view = overmind_core::HeroesView::of(&g.state);
        let a = p.next_action(overmind_core::View::Heroes(&view), &w.content);
        let done = a == overmind_core::Action::End;
        events.extend(common::apply(g, w, &mut c, a));
        if done || g.state.active.is_none() {
            break;
        }
    }
    events
}

fn attacked(events: &[overmind_core::Event], by: &str) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            overmind_core::Event::Attack {
                attacker, target, ..
            } if attacker == by => Some(target.to_string()),
            _ => None,
        })
        .collect()
}

/// Focus fire: with a healthy alien nearer and a wounded one a little farther, both in short
/// range and sight, the `standard` Hero shoots the one it can kill; the `greedy` one shoots
/// the nearest.
#[test]
fn the_standard_hero_shoots_the_alien_it_can_kill() {
    let w = common::world();
    let s = common::setup(common::DOOR, &[("t", "trooper", [1, 2])], &[]);
    let shot = |level: Level| {
        let mut g = common::start(&s, &w);
        common::push_alien(&mut g.state, "near", "grunt", &[[3, 1]], 2);
        common::push_alien(&mut g.state, "hurt", "grunt", &[[4, 3]], 1);
        attacked(&hero_activation(&mut g, &w, level), "t")
    };
    assert_eq!(shot(Level::Standard), vec!["hurt.1".to_string()]);
    assert_eq!(shot(Level::Greedy), vec!["near.1".to_string()]);
}

/// Focus fire for the Overmind: a revealed unit next to two Heroes strikes the one it can
/// kill at `standard`, the first it finds at `greedy`.
#[test]
fn the_standard_overmind_strikes_the_hero_it_can_kill() {
    let w = common::world();
    let s = common::setup(
        common::DOOR,
        &[("a", "trooper", [1, 1]), ("b", "trooper", [1, 3])],
        &[],
    );
    let struck = |level: Level| {
        let mut g = common::start(&s, &w);
        common::push_alien(&mut g.state, "g", "grunt", &[[1, 2]], 2);
        if let Some(m) = g.state.unit_mut("b").and_then(|u| u.models.first_mut()) {
            m.health = 1;
        }
        let mut c = common::ctl(vec![]);
        common::to_overmind(&mut g, &w, &mut c);
        let mut p = overmind_core::ai::player(overmind_core::Side::Overmind, level);
        p.next_action(overmind_core::View::Overmind(&g.state), &w.content)
    };
    let melee = |target: &str| overmind_core::Action::Melee {
        unit: "g".into(),
        target: target.into(),
    };
    assert_eq!(struck(Level::Standard), melee("b"));
    assert_eq!(struck(Level::Greedy), melee("a"));
}
