//! docs/RULES.md §15.6, issue 23 (a)–(c): a face-down Hidden Agenda tells the Heroes nothing
//! until it is turned up — its attack modifiers turn it up before the roll names it, a hook of
//! it that cannot run is reported without its name, and a step hook of it that does nothing
//! leaves the Heroes' own move one event, as if no such card were dealt.

use crate::common;

use common::*;
use overmind_core::card::{CardDef, CardTarget, Deck};
use overmind_core::event::Roll;
use overmind_core::trigger::{Hook, Owner, TriggerDef};
use overmind_core::*;
use std::rc::Rc;

/// A world whose only Hidden Agenda, `plot`, has the hooks `hooks`; `dealt` false leaves it
/// out of the game (the same world, no agenda dealt).
fn agenda_game(hooks: Vec<(Hook, Box<Body>)>, dealt: bool, depth: Option<u32>) -> (Game, World) {
    let mut w = world();
    w.content.cards.insert(
        "plot".into(),
        CardDef {
            id: "plot".into(),
            name: "The Plot".into(),
            text: String::new(),
            deck: Deck::HiddenAgenda,
            target: CardTarget::None,
            copies: 1,
            play: None,
        },
    );
    for (hook, body) in hooks {
        w.content.triggers.push(TriggerDef {
            source: "plot".into(),
            owner: Owner::Card("plot".into()),
            hook,
            handler: Rc::new(FnTrigger(body)),
        });
    }
    let mut s = setup(
        &wall_map(),
        &[("T", "trooper", [0, 0]), ("U", "trooper", [0, 5])],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    if dealt {
        s.decks = vec![Deck::HiddenAgenda];
    }
    if let Some(d) = depth {
        s.rules.max_behaviour_depth = d;
    }
    let g = start(&s, &w);
    (g, w)
}

/// Every string in the events, as JSON would carry them.
fn named(ev: &[Event]) -> String {
    serde_json::to_string(ev).expect("events serialise")
}

#[test]
fn a_face_down_agenda_that_changes_an_attack_is_turned_up_before_the_roll() {
    let (mut g, w) = agenda_game(
        vec![(
            Hook::BeforeAttack,
            Box::new(|ctx, _| ctx.modify_attack(Roll::Defence, 1)),
        )],
        true,
        None,
    );
    push_alien(&mut g.state, "A", "grunt", &[[3, 0]], 3);
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Shoot {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    let revealed = ev
        .iter()
        .position(|e| matches!(e, Event::CardRevealed { .. }))
        .expect("the agenda is turned up");
    let roll = ev
        .iter()
        .position(|e| matches!(e, Event::Attack { .. }))
        .expect("the attack");
    assert!(
        revealed < roll,
        "turned up before the roll names it: {ev:?}"
    );
    assert!(g.state.cards.agenda_revealed);
}

#[test]
fn a_face_down_hook_that_cannot_run_is_reported_without_its_name() {
    // A game-wide `after_damage` rule damages again; at depth 1 the agenda's own
    // `after_damage` hook, nested inside it, cannot run.
    let (mut g, mut w) = agenda_game(
        vec![(Hook::AfterDamage, Box::new(|_, _| Ok(())))],
        true,
        Some(1),
    );
    w.content.triggers.insert(
        0,
        TriggerDef {
            source: "echo".into(),
            owner: Owner::Game,
            hook: Hook::RoundStart,
            handler: Rc::new(FnTrigger(Box::new(|ctx, _| ctx.deal_damage("T", 1)))),
        },
    );
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 1, 0));
    let text = named(&ev);
    assert!(
        ev.iter().any(|e| matches!(e, Event::TriggerFailed { .. })),
        "{text}"
    );
    assert!(
        !text.contains("plot") && !text.contains("The Plot"),
        "the face-down card is not named: {text}"
    );
    assert!(!g.state.cards.agenda_revealed, "it never acted");
}

#[test]
fn a_face_down_step_hook_that_does_nothing_leaves_the_move_one_event() {
    let quiet = || -> Vec<(Hook, Box<Body>)> { vec![(Hook::Step, Box::new(|_, _| Ok(())))] };
    let moves = |dealt: bool| {
        let (mut g, w) = agenda_game(quiet(), dealt, None);
        let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 4, 0));
        ev.iter()
            .filter(|e| matches!(e, Event::Moved { .. }))
            .cloned()
            .collect::<Vec<_>>()
    };
    let with = moves(true);
    assert_eq!(with.len(), 1, "{with:?}");
    assert_eq!(
        with,
        moves(false),
        "the same events whether the card is dealt"
    );
}

#[test]
fn a_face_down_step_hook_that_acts_turns_the_card_up_after_the_steps_before_it() {
    let (mut g, w) = agenda_game(
        vec![(
            Hook::Step,
            Box::new(|ctx, m| {
                // The second step, whichever way the path goes.
                if m.at.is_some_and(|p| p.distance(Pos::new(0, 0)) == 2) {
                    ctx.log("the plot thickens");
                }
                Ok(())
            }),
        )],
        true,
        None,
    );
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 4, 0));
    let kinds: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Moved { path, .. } => Some(if path.len() == 3 { "moved 2" } else { "moved" }),
            Event::CardRevealed { .. } => Some("revealed"),
            Event::Log { .. } => Some("log"),
            _ => None,
        })
        .collect();
    // Turned up, its step hook is as public as any: where it does nothing, it splits nothing
    // (docs/RULES.md §14), so the rest of the move is one event.
    assert_eq!(kinds, ["moved 2", "revealed", "log", "moved 2"], "{ev:?}");
}

/// The demo mission with two Hidden Agendas in the content, `agenda` dealt: `quiet` has no
/// hooks; `sly` listens everywhere and shows nothing (a no-op step hook, a no-op
/// `before_attack`, an `after_damage` that only counts in `game.storage`).
fn demo_with_agenda(agenda: &str, seed: u64) -> (Game, Content) {
    let mut c = base_like();
    for id in ["quiet", "sly"] {
        c.cards.insert(
            id.into(),
            CardDef {
                id: id.into(),
                name: id.into(),
                text: String::new(),
                deck: Deck::HiddenAgenda,
                target: CardTarget::None,
                copies: 1,
                play: None,
            },
        );
    }
    let sly: Vec<(Hook, Box<Body>)> = vec![
        (Hook::Step, Box::new(|_, _| Ok(()))),
        (Hook::BeforeAttack, Box::new(|_, _| Ok(()))),
        (
            Hook::AfterDamage,
            Box::new(|ctx, _| {
                let n = match ctx.storage() {
                    Some(storage::Value::Int(n)) => *n,
                    _ => 0,
                };
                ctx.set_storage(storage::Value::Int(n + 1))
            }),
        ),
    ];
    for (hook, body) in sly {
        c.triggers.push(TriggerDef {
            source: "sly".into(),
            owner: Owner::Card("sly".into()),
            hook,
            handler: Rc::new(FnTrigger(body)),
        });
    }
    let mut s = demo_setup();
    s.agenda = Some(agenda.to_string());
    let st = s.start(&c, seed).expect("the demo starts");
    (Game::new(st, "demo", seed), c)
}

#[test]
fn the_heroes_see_the_same_game_whichever_agenda_is_dealt_until_it_is_turned_up() {
    for seed in 0..12 {
        // The same actions and answers in both games: a leak is any difference in what the
        // Heroes are shown before the card is turned up.
        let (mut quiet, c) = demo_with_agenda("quiet", seed);
        let mut ctl = Controllers::new(Box::new(ai::AiController), Box::new(ai::AiController));
        let (mut h, mut o) = (ai::HeroAi, ai::OvermindAi);
        for _ in 0..400 {
            if !ai::ai_step(&mut quiet, &c, &mut ctl, &mut h, &mut o) {
                break;
            }
        }
        let (sly, c2) = demo_with_agenda("sly", seed);
        let replayed = Game::replay(sly.state, "demo", seed, &quiet.record, &c2);
        let sly = match replayed {
            Ok(g) => g,
            Err((i, e)) => panic!("seed {seed}: action {i} refused with the other agenda: {e}"),
        };
        let shown = |g: &Game| -> Vec<String> {
            g.log
                .iter()
                .take_while(|e| !matches!(e, Event::CardRevealed { .. }))
                .map(|e| serde_json::to_string(e).expect("serialises"))
                .collect()
        };
        let (a, b) = (shown(&quiet), shown(&sly));
        let n = a.len().min(b.len());
        if let Some(i) = (0..n).find(|&i| a[i] != b[i]) {
            panic!("seed {seed}: event {i} differs: {} / {}", a[i], b[i]);
        }
        assert!(
            n > 50,
            "seed {seed}: the games went on ({n} events compared)"
        );
    }
}
