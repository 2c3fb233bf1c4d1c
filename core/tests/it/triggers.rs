//! docs/RULES.md §14: triggers, effects and tokens, written from the rules — each
//! trigger fires at its moment for the owner it concerns, runs like a behaviour (a failure is
//! logged and what it did stands), and each effect is checked and announced by source.

use crate::common;

use common::*;
use overmind_core::event::{Change, Roll};
use overmind_core::state::{Stat, StatusName, Until};
use overmind_core::token::{Token, TokenClass, TokenKind};
use overmind_core::trigger::{Hook, Owner, TriggerDef};
use overmind_core::*;
use std::cell::RefCell;
use std::rc::Rc;

fn add(w: &mut World, source: &str, owner: Owner, hook: Hook, body: Box<Body>) {
    w.content.triggers.push(TriggerDef {
        source: source.into(),
        owner,
        hook,
        handler: Rc::new(FnTrigger(body)),
    });
}

fn token_kind(w: &mut World, id: &str, class: TokenClass, symbol: char) {
    w.content.tokens.insert(
        id.into(),
        TokenKind {
            id: id.into(),
            name: id.into(),
            class,
            symbol,
            text: String::new(),
        },
    );
}

fn lay(g: &mut Game, id: &str, kind: &str, x: i32, y: i32) {
    g.state.tokens.push(Token {
        id: id.into(),
        kind: kind.into(),
        pos: Pos::new(x, y),
        carried_by: None,
        symbol: '~',
    });
}

fn one_hero(w: &World) -> Game {
    let s = setup(
        &wall_map(),
        &[("T", "trooper", [0, 0]), ("U", "trooper", [0, 5])],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    start(&s, w)
}

fn fired(ev: &[Event]) -> Vec<(String, Hook)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Triggered { source, hook, .. } => Some((source.to_string(), *hook)),
            _ => None,
        })
        .collect()
}

#[test]
fn round_phase_and_activation_hooks_fire_at_their_moments_naming_the_source() {
    let mut w = world();
    for hook in Hook::ALL {
        if matches!(
            hook,
            Hook::RoundStart
                | Hook::RoundEnd
                | Hook::PhaseStart
                | Hook::PhaseEnd
                | Hook::ActivationStart
                | Hook::ActivationEnd
        ) {
            add(
                &mut w,
                "clock",
                Owner::Game,
                hook,
                Box::new(|ctx, _| {
                    ctx.log("tick");
                    Ok(())
                }),
            );
        }
    }
    let mut g = one_hero(&w);
    let mut c = ctl(vec![]);
    let ev = apply(&mut g, &w, &mut c, mv("T", 1, 0));
    assert_eq!(
        fired(&ev),
        [
            ("clock".to_string(), Hook::RoundStart),
            ("clock".to_string(), Hook::PhaseStart),
            ("clock".to_string(), Hook::ActivationStart),
        ],
        "round 1's start comes with the first action, before it"
    );
    let ev = apply(&mut g, &w, &mut c, Action::End);
    assert_eq!(fired(&ev), [("clock".to_string(), Hook::ActivationEnd)]);
    // U's activation, then the Heroes' phase ends; the Overmind's begins.
    apply(&mut g, &w, &mut c, mv("U", 1, 5));
    let ev = apply(&mut g, &w, &mut c, Action::End);
    let hooks: Vec<Hook> = fired(&ev).into_iter().map(|(_, h)| h).collect();
    assert_eq!(
        hooks,
        [Hook::ActivationEnd, Hook::PhaseEnd, Hook::PhaseStart],
        "{ev:#?}"
    );
    // The Overmind ends its phase: the round ends and the next begins.
    let ev = apply(&mut g, &w, &mut c, Action::End);
    let hooks: Vec<Hook> = fired(&ev).into_iter().map(|(_, h)| h).collect();
    assert_eq!(
        hooks,
        [
            Hook::PhaseEnd,
            Hook::RoundEnd,
            Hook::RoundStart,
            Hook::PhaseStart
        ],
        "{ev:#?}"
    );
}

#[test]
fn a_hazard_hurts_the_model_that_steps_on_it_and_stops_its_move() {
    let mut w = world();
    token_kind(&mut w, "acid", TokenClass::Hazard, '~');
    add(
        &mut w,
        "acid",
        Owner::Token("acid".into()),
        Hook::Step,
        Box::new(|ctx, m| {
            let model = m.model.map(|m| m.to_string()).unwrap_or_default();
            ctx.deal_damage(&model, 2)?;
            ctx.set_status(&model, StatusName::KnockedDown, true)
        }),
    );
    let mut g = one_hero(&w);
    lay(&mut g, "a1", "acid", 2, 0);
    let through = Action::Move {
        unit: "T".into(),
        to: Pos::new(4, 0),
        via: vec![Pos::new(2, 0)],
    };
    let ev = apply(&mut g, &w, &mut ctl(vec![]), through);
    let t = g
        .state
        .find_model("T")
        .map(|(_, m)| m.clone())
        .expect("alive");
    assert_eq!(t.pos, Pos::new(2, 0), "the move stops on the hazard");
    assert_eq!(t.health, 6, "8 - 2");
    assert!(t.status.knocked_down);
    assert!(ev.iter().any(|e| matches!(e, Event::Effect { source, change: Change::Damage { amount: 2, .. } } if source == "acid")));
    // Stepping anywhere else fires nothing.
    let mut g = one_hero(&w);
    lay(&mut g, "a1", "acid", 2, 1);
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 4, 0));
    assert!(fired(&ev).is_empty(), "{ev:#?}");
}

#[test]
fn an_item_is_interacted_with_next_to_it_carried_and_dropped_where_its_carrier_dies() {
    let mut w = world();
    token_kind(&mut w, "spanner", TokenClass::Item, 's');
    add(
        &mut w,
        "spanner",
        Owner::Token("spanner".into()),
        Hook::Interact,
        Box::new(|ctx, m| {
            let model = m.model.map(|m| m.to_string()).unwrap_or_default();
            let token = m.token.map(|t| t.to_string()).unwrap_or_default();
            ctx.take_token(&model, &token)
        }),
    );
    let mut g = one_hero(&w);
    lay(&mut g, "s1", "spanner", 3, 0);
    let far = g.validate(&w.content, &Action::Interact { unit: "T".into() });
    assert!(far.is_err(), "nothing to interact with two squares away");
    let mut c = ctl(vec![]);
    apply(&mut g, &w, &mut c, mv("T", 2, 0));
    apply(&mut g, &w, &mut c, Action::Interact { unit: "T".into() });
    assert_eq!(
        g.state.token("s1").and_then(|t| t.carried_by),
        Some(Id::from("T"))
    );
    apply(&mut g, &w, &mut c, mv("U", 1, 5));
    apply(&mut g, &w, &mut c, Action::End);
    // Carried: it moves with T next round.
    apply(&mut g, &w, &mut c, Action::End);
    apply(&mut g, &w, &mut c, mv("T", 0, 1));
    assert_eq!(g.state.token("s1").map(|t| t.pos), Some(Pos::new(0, 1)));
}

#[test]
fn before_attack_adds_a_stated_modifier_that_the_roll_names() {
    let mut w = world();
    add(
        &mut w,
        "fog",
        Owner::Game,
        Hook::BeforeAttack,
        Box::new(|ctx, _| ctx.modify_attack(Roll::Defence, 2)),
    );
    let s = setup(&wall_map(), &[("T", "trooper", [0, 0])], &[]);
    let mut st = s.start(&w.content, 3).expect("valid");
    push_alien(&mut st, "A", "grunt", &[[3, 0]], 3);
    let mut g = Game::new(st, "t", 3);
    g.state.started = true;
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Shoot {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    let (dd, mods) = ev
        .iter()
        .find_map(|e| match e {
            Event::Attack {
                defence_dice,
                modifiers,
                ..
            } => Some((*defence_dice, modifiers.clone())),
            _ => None,
        })
        .expect("an attack");
    assert_eq!(dd, 3, "Defence 1 + 2 from the trigger");
    assert!(
        mods.iter()
            .any(|m| m.on == Roll::Defence && m.change == 2 && m.source.as_deref() == Some("fog")),
        "{mods:?}"
    );
}

#[test]
fn a_modifier_lasts_until_the_end_of_the_activation() {
    let mut w = world();
    add(
        &mut w,
        "stim",
        Owner::Hero("trooper".into()),
        Hook::ActivationStart,
        Box::new(|ctx, m| {
            let unit = m.unit.map(|u| u.to_string()).unwrap_or_default();
            ctx.modify(&unit, Stat::Movement, 2, Until::ActivationEnd)
        }),
    );
    let mut g = one_hero(&w);
    g.state.started = true;
    let mut c = ctl(vec![]);
    // The activation starts with the first action; from then on Movement is 4 + 2, so a
    // Sprint (half, rounded down) goes 3 squares instead of 2.
    apply(&mut g, &w, &mut c, mv("T", 1, 0));
    assert_eq!(g.state.stat_change("T", Stat::Movement), 2);
    // The second action ends the activation, and the modifier with it.
    let ev = apply(&mut g, &w, &mut c, Action::sprint_to("T", Pos::new(4, 0)));
    assert_eq!(
        g.state.find_model("T").map(|(_, m)| m.pos),
        Some(Pos::new(4, 0))
    );
    assert_eq!(g.state.stat_change("T", Stat::Movement), 0);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Effect {
            change: Change::ModifierEnded { .. },
            ..
        }
    )));
}

#[test]
fn a_failing_trigger_is_logged_and_what_it_did_first_stands() {
    let mut w = world();
    add(
        &mut w,
        "half",
        Owner::Game,
        Hook::ActivationStart,
        Box::new(|ctx, m| {
            let unit = m.unit.map(|u| u.to_string()).unwrap_or_default();
            ctx.heal(&unit, 1)?;
            ctx.deal_damage(&unit, 1)?;
            Err(BehaviourError::new("half:3: failed on purpose"))
        }),
    );
    let mut g = one_hero(&w);
    g.state.started = true;
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 1, 0));
    assert!(ev.iter().any(|e| matches!(e, Event::TriggerFailed { source, reason, .. } if source == "half" && reason.contains("failed on purpose"))));
    assert_eq!(g.state.find_model("T").map(|(_, m)| m.health), Some(7));
    assert_eq!(
        g.state.find_model("T").map(|(_, m)| m.pos),
        Some(Pos::new(1, 0)),
        "the action goes on"
    );
}

#[test]
fn victory_check_may_declare_a_winner() {
    let mut w = world();
    add(
        &mut w,
        "doom",
        Owner::Game,
        Hook::VictoryCheck,
        Box::new(|ctx, m| {
            if m.round >= 1
                && ctx
                    .state()
                    .units
                    .iter()
                    .any(|u| u.id == "T" && u.models[0].pos.x >= 2)
            {
                ctx.declare_winner(Side::Overmind, "T walked into the doom zone");
            }
            Ok(())
        }),
    );
    let mut g = one_hero(&w);
    g.state.started = true;
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 2, 0));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::GameOver {
            winner: Side::Overmind,
            ..
        }
    )));
    assert!(g.state.is_over());
}

#[test]
fn an_alien_types_trigger_fires_only_for_its_own_units_and_killed_knows_the_dead() {
    let mut w = world();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s2 = seen.clone();
    add(
        &mut w,
        "grunt_death",
        Owner::Alien("grunt".into()),
        Hook::Killed,
        Box::new(move |_, m| {
            s2.borrow_mut()
                .push(m.model.map(|x| x.to_string()).unwrap_or_default());
            Ok(())
        }),
    );
    let s = setup(
        &wall_map(),
        &[("T", "trooper", [0, 0]), ("U", "trooper", [0, 5])],
        &[],
    );
    let mut st = s.start(&w.content, 3).expect("valid");
    push_alien(&mut st, "A", "grunt", &[[3, 0]], 1);
    push_alien(&mut st, "H", "horror", &[[3, 5]], 1);
    st.rules = std::sync::Arc::new(Rules {
        die: all_hits(),
        ..(*st.rules).clone()
    });
    let mut g = Game::new(st, "t", 3);
    g.state.started = true;
    let mut c = ctl(vec![]);
    apply(
        &mut g,
        &w,
        &mut c,
        Action::Shoot {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    assert_eq!(*seen.borrow(), ["A.1"], "the grunt's death, by its type");
    apply(
        &mut g,
        &w,
        &mut c,
        Action::Shoot {
            unit: "U".into(),
            target: "H.1".into(),
        },
    );
    assert!(g.state.find_model("H.1").is_none(), "the horror died too");
    assert_eq!(*seen.borrow(), ["A.1"], "not the horror's");
}

#[test]
fn effects_are_checked_before_they_change_anything() {
    let mut w = world();
    let errors = Rc::new(RefCell::new(Vec::new()));
    let e2 = errors.clone();
    add(
        &mut w,
        "bad",
        Owner::Game,
        Hook::ActivationStart,
        Box::new(move |ctx, _| {
            for r in [
                ctx.deal_damage("nobody", 1).err(),
                ctx.deal_damage("T", 0).err(),
                ctx.heal("T", 99).err(),
                ctx.modify("T", Stat::Melee, 0, Until::RoundEnd).err(),
                ctx.place_token("nope", Pos::new(1, 1)).err(),
                ctx.spawn_unit("grunt", Pos::new(0, 0), 1).err(),
                ctx.change_actions("T", 5).err(),
            ] {
                e2.borrow_mut()
                    .push(r.map(|e| e.message).unwrap_or_default());
            }
            Ok(())
        }),
    );
    let mut g = one_hero(&w);
    g.state.started = true;
    let before = g.state.find_model("T").map(|(_, m)| m.health);
    apply(&mut g, &w, &mut ctl(vec![]), mv("T", 1, 0));
    let errs = errors.borrow();
    assert!(
        errs.iter().all(|e| !e.is_empty()),
        "every bad effect refused: {errs:?}"
    );
    assert!(errs[5].contains("holds a model"), "{}", errs[5]);
    assert_eq!(g.state.find_model("T").map(|(_, m)| m.health), before);
}

#[test]
fn a_game_with_triggers_replays_exactly() {
    let mut w = world();
    token_kind(&mut w, "acid", TokenClass::Hazard, '~');
    add(
        &mut w,
        "acid",
        Owner::Token("acid".into()),
        Hook::Step,
        Box::new(|ctx, m| {
            let model = m.model.map(|m| m.to_string()).unwrap_or_default();
            let n = 1 + ctx.random(2) as u32;
            ctx.deal_damage(&model, n)
        }),
    );
    let mut g = one_hero(&w);
    lay(&mut g, "a1", "acid", 1, 0);
    let start = g.state.clone();
    let mut c = ctl(vec![]);
    apply(&mut g, &w, &mut c, mv("T", 3, 0));
    apply(&mut g, &w, &mut c, Action::End);
    let again = Game::replay(start, "test", 7, &g.record, &w.content).expect("replays");
    assert_eq!(again.log, g.log);
    assert_eq!(again.state, g.state);
}

#[test]
fn a_mission_lays_tokens_of_loaded_kinds_on_squares_of_the_map() {
    let mut w = world();
    token_kind(&mut w, "acid", TokenClass::Hazard, '~');
    let text = format!(
        "name = \"t\"\nmap = \"\"\"{}\"\"\"\n\n[[heroes]]\nid = \"T\"\nprofile = \"trooper\"\nat = [0, 0]\n\n[[tokens]]\nkind = \"acid\"\nat = [2, 0]\n\n[[tokens]]\nid = \"pool\"\nkind = \"acid\"\nat = [3, 1]\n",
        wall_map()
    );
    let m = Mission::parse(std::path::Path::new("t.toml"), &text).expect("parses");
    let s = m.setup(&text, &Rules::default()).expect("a setup");
    assert_eq!(s.tokens.len(), 2);
    let st = s.start(&w.content, 1).expect("starts");
    let ids: Vec<(&str, Pos, char)> = st
        .tokens
        .iter()
        .map(|t| (t.id.as_str(), t.pos, t.symbol))
        .collect();
    assert_eq!(
        ids,
        [("t1", Pos::new(2, 0), '~'), ("pool", Pos::new(3, 1), '~')]
    );
    // An unknown kind and a square off the map are named.
    let mut bad = s.clone();
    bad.tokens[0].kind = "lava".into();
    bad.tokens[1].at = Pos::new(40, 0);
    let errs: Vec<String> = bad
        .start(&w.content, 1)
        .expect_err("refused")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        errs.iter()
            .any(|e| e.contains("token t1") && e.contains("no token kind named \"lava\"")),
        "{errs:?}"
    );
    assert!(
        errs.iter()
            .any(|e| e.contains("token pool") && e.contains("off the map")),
        "{errs:?}"
    );
}

/// Issue 14 item 5: a Hero's Health dial may move Movement; a wounded Hero moves less.
#[test]
fn a_dial_that_moves_movement_slows_a_wounded_hero() {
    let mut w = world();
    if let Some(h) = w.content.heroes.get_mut("trooper") {
        h.dial_stats = vec![Stat::Movement, Stat::Defence];
        h.melee = Some(2);
        h.dial = vec![
            profile::DialStep {
                from: 5,
                melee: None,
                defence: Some(1),
                movement: Some(4),
            },
            profile::DialStep {
                from: 1,
                melee: None,
                defence: Some(1),
                movement: Some(2),
            },
        ];
    }
    let mut g = one_hero(&w);
    g.state.started = true;
    assert!(
        g.is_legal(&w.content, &mv("T", 4, 0)),
        "Movement 4 at full Health"
    );
    if let Some(m) = g.state.model_mut("T") {
        m.health = 3;
    }
    let e = g.validate(&w.content, &mv("T", 4, 0)).unwrap_err();
    assert!(e.message.contains("a move allows 2"), "{e}");
}

/// A trigger that does nothing leaves no trace; one that acts is announced before its effects.
#[test]
fn a_trigger_is_announced_only_when_it_acts() {
    let mut w = world();
    add(
        &mut w,
        "idle",
        Owner::Game,
        Hook::ActivationStart,
        Box::new(|_, _| Ok(())),
    );
    add(
        &mut w,
        "loud",
        Owner::Game,
        Hook::ActivationStart,
        Box::new(|ctx, _| {
            ctx.log("here");
            Ok(())
        }),
    );
    let mut g = one_hero(&w);
    g.state.started = true;
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 1, 0));
    assert_eq!(fired(&ev), [("loud".to_string(), Hook::ActivationStart)]);
    let at = ev
        .iter()
        .position(|e| matches!(e, Event::Triggered { .. }))
        .expect("announced");
    assert!(
        matches!(&ev[at + 1], Event::Log { message, .. } if message == "here"),
        "{ev:#?}"
    );
}

/// Issue 24: a `step` hook that does nothing changes nothing — the move stays one `moved`
/// event, and a move pushed back by an Overwatch shot goes on (or stops) as when nothing
/// listens.
#[test]
fn a_step_hook_that_does_nothing_changes_nothing() {
    let idle = |w: &mut World| {
        for (source, owner) in [
            ("everyone", Owner::Game),
            ("trooper", Owner::Hero("trooper".into())),
            ("grunt", Owner::Alien("grunt".into())),
        ] {
            add(w, source, owner, Hook::Step, Box::new(|_, _| Ok(())));
        }
    };
    // A Hero's move.
    let hero_move = |listen: bool| {
        let mut w = world();
        if listen {
            idle(&mut w);
        }
        let mut g = one_hero(&w);
        apply(&mut g, &w, &mut ctl(vec![]), mv("T", 4, 0))
    };
    let quiet = hero_move(false);
    assert_eq!(
        quiet
            .iter()
            .filter(|e| matches!(e, Event::Moved { .. }))
            .count(),
        1,
        "{quiet:#?}"
    );
    assert_eq!(hero_move(true), quiet);
    // An alien's move, pushed back by Overwatch at its first step, then resumed.
    let pushed = |listen: bool| {
        let mut w = world();
        if let Some(h) = w.content.heroes.get_mut("trooper") {
            h.shoot_effects = vec![Effect::PushBack];
        }
        if listen {
            idle(&mut w);
        }
        let mut s = setup("", &[("T", "trooper", [0, 2])], &[]);
        s.map = MapBuilder::new(12, 6).build();
        s.rules.die = all_hits();
        let mut st = s.start(&w.content, 3).expect("valid setup");
        push_alien(&mut st, "A", "grunt", &[[8, 2]], 9);
        let mut g = Game::new(st, "t", 3);
        let mut c = ctl(vec![]);
        apply(&mut g, &w, &mut c, Action::Overwatch { unit: "T".into() });
        to_overmind(&mut g, &w, &mut c);
        let ev = apply(&mut g, &w, &mut c, mv("A.1", 4, 2));
        (ev, g.state.find_model("A.1").map(|(_, m)| m.pos))
    };
    let (quiet, at) = pushed(false);
    assert!(
        quiet.iter().any(|e| matches!(
            e,
            Event::Status {
                status: event::StatusChange::PushedBack { .. },
                ..
            }
        )),
        "{quiet:#?}"
    );
    let (heard, heard_at) = pushed(true);
    assert_eq!(heard, quiet);
    assert_eq!(heard_at, at);
}
