//! docs/RULES.md §5–§6: activations, combat values, modifiers, effects, Overwatch, Free Attacks.

use crate::common;
use common::*;
use overmind_core::*;

fn attack_event(ev: &[Event]) -> (u32, u32, u32) {
    ev.iter()
        .find_map(|e| match e {
            Event::Attack {
                cv, dice, penalty, ..
            } => Some((*cv, *dice, *penalty)),
            _ => None,
        })
        .expect("an attack")
}

fn defence_dice(ev: &[Event]) -> u32 {
    ev.iter()
        .find_map(|e| match e {
            Event::Attack { defence_dice, .. } => Some(*defence_dice),
            _ => None,
        })
        .expect("an attack")
}

/// A game on the wall map with hero T and an Alien Unit placed directly (no Blip).
fn fight(
    hero_at: [i32; 2],
    alien: &str,
    alien_at: &[[i32; 2]],
    tweak: impl FnOnce(&mut Setup),
) -> (Game, World) {
    let w = world();
    let mut s = setup(&wall_map(), &[("T", "trooper", hero_at)], &[]);
    s.rules.die = all_hits();
    tweak(&mut s);
    let mut st = s.start(&w.content, 3).unwrap();
    let t = w.content.aliens[alien].clone();
    push_alien(&mut st, "A", alien, alien_at, t.health);
    (Game::new(st, "t", 3), w)
}

#[test]
fn two_different_actions_then_the_activation_ends() {
    let (mut g, w) = fight([0, 0], "grunt", &[[5, 5]], |_| {});
    let mut c = ctl(vec![]);
    apply(&mut g, &w, &mut c, mv("T", 1, 0));
    let e = g.apply(mv("T", 2, 0), &w.content, &mut c).unwrap_err();
    assert!(e.message.contains("must differ"), "{e}");
    apply(
        &mut g,
        &w,
        &mut c,
        Action::Sprint {
            unit: "T".into(),
            to: Pos::new(3, 0),
            via: Vec::new(),
        },
    );
    assert_eq!(g.state.active, None, "two actions end the activation");
    assert!(
        g.state.phase == Phase::Overmind,
        "every Hero activated: the Overmind's phase"
    );
    let e = g.apply(mv("T", 2, 0), &w.content, &mut c).unwrap_err();
    assert!(
        e.message.contains("overmind") || e.message.contains("belongs"),
        "{e}"
    );
}

#[test]
fn sprint_is_half_movement_rounded_down() {
    let (mut g, w) = fight([0, 0], "grunt", &[[5, 5]], |_| {});
    let mut c = ctl(vec![]);
    assert!(g
        .apply(
            Action::Sprint {
                unit: "T".into(),
                to: Pos::new(3, 0),
                via: Vec::new()
            },
            &w.content,
            &mut c
        )
        .is_err());
    apply(
        &mut g,
        &w,
        &mut c,
        Action::Sprint {
            unit: "T".into(),
            to: Pos::new(2, 0),
            via: Vec::new(),
        },
    );
}

#[test]
fn units_attack_together_and_the_target_defends_once() {
    // Three grunts (melee 2 each) around the hero: CV 6, 5 dice, one BLANK→HIT upgrade only
    // with blanks, so with all-hit dice: 5 hits.
    let (mut g, w) = fight([2, 2], "grunt", &[[1, 2], [3, 2], [2, 3]], |_| {});
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
    assert_eq!(attack_event(&ev), (6, 5, 0));
    let dmg: u32 = ev
        .iter()
        .filter_map(|e| match e {
            Event::Damage { amount, .. } => Some(*amount),
            _ => None,
        })
        .sum();
    assert_eq!(dmg, 5, "5 dice, 5 hits, defence rolls hits not shields");
}

#[test]
fn hits_on_a_unit_finish_a_wounded_model_first() {
    let (mut g, w) = fight([2, 2], "grunt", &[[1, 2], [3, 2]], |s| {
        s.rules.die = all_hits()
    });
    let mut c = ctl(vec![1]);
    // Trooper shoots? Adjacent: melee with CV 2 → 2 hits. Overmind puts the first hit on A.2;
    // the second must go to the wounded A.2 too.
    let ev = apply(
        &mut g,
        &w,
        &mut c,
        Action::Melee {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    let hit: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Damage { model, .. } => Some(model.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(hit, vec!["A.2", "A.2"]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::ModelKilled { model, .. } if model == "A.2")));
    assert_eq!(
        g.state.unit("T").unwrap().xp,
        1,
        "a Hero gains 1 XP per kill"
    );
}

#[test]
fn shoot_uses_the_short_band_inside_short_range_and_needs_no_adjacency() {
    let (mut g, w) = fight([0, 0], "grunt", &[[3, 0]], |_| {});
    let mut c = ctl(vec![]);
    let ev = apply(
        &mut g,
        &w,
        &mut c,
        Action::Shoot {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    assert_eq!(attack_event(&ev).0, 2, "distance 3 = short band CV 2");
    let from = ev
        .iter()
        .find_map(|e| match e {
            Event::Attack { from, .. } => Some(from.clone()),
            _ => None,
        })
        .unwrap_or_default();
    assert_eq!(
        from,
        [event::Contribution {
            model: "T".into(),
            cv: 2,
            band: Some(event::RangeBand::Short),
            distance: Some(3),
        }],
        "the roll names the band and the distance"
    );
    let (mut g, w) = fight([0, 0], "grunt", &[[1, 0]], |_| {});
    assert!(
        g.apply(
            Action::Shoot {
                unit: "T".into(),
                target: "A.1".into()
            },
            &w.content,
            &mut ctl(vec![])
        )
        .is_err(),
        "adjacent: melee only"
    );
}

#[test]
fn red_square_lowers_defence() {
    // Defence 1 - 1 = 0 would be below 1: kept at 1 (modifiers never bring a CV below 1).
    let (mut g, w) = fight([0, 0], "grunt", &[[3, 0]], |s| {
        s.map = MapBuilder::from_drawing(&wall_map().replacen(". . . . . .|", ". . . r . .|", 1))
            .build();
    });
    assert_eq!(g.state.map.terrain(Pos::new(3, 0)), Terrain::Red);
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Shoot {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    let def = defence_dice(&ev);
    assert_eq!(def, 1);
    let mods: Vec<(event::Cause, i32)> = ev
        .iter()
        .find_map(|e| match e {
            Event::Attack { modifiers, .. } => {
                Some(modifiers.iter().map(|m| (m.cause, m.change)).collect())
            }
            _ => None,
        })
        .unwrap_or_default();
    assert_eq!(
        mods,
        [(event::Cause::RedSquare, -1), (event::Cause::Floor, 1)],
        "the red square, then the floor of 1"
    );
}

#[test]
fn overwatch_fires_once_when_an_enemy_moves_into_range_and_sight() {
    let (mut g, w) = fight([0, 0], "grunt", &[[5, 5]], |_| {});
    let mut c = ctl(vec![]);
    let ev = apply(&mut g, &w, &mut c, Action::Overwatch { unit: "T".into() });
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::OverwatchSet {
            mode: state::Overwatch::Full,
            ..
        }
    )));
    assert!(
        g.state.phase == Phase::Overmind,
        "full overwatch takes both actions"
    );
    let ev = apply(&mut g, &w, &mut c, mv("A.1", 4, 2));
    let shots = ev
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Attack {
                    kind: AttackKind::Overwatch,
                    ..
                }
            )
        })
        .count();
    assert_eq!(shots, 1, "{ev:#?}");
    assert_eq!(g.state.unit("T").unwrap().overwatch, None, "the token goes");
}

#[test]
fn free_attack_when_stepping_away_from_an_adjacent_enemy() {
    let (mut g, w) = fight([2, 2], "grunt", &[[3, 2]], |_| {});
    let mut c = ctl(vec![]);
    let ev = apply(&mut g, &w, &mut c, mv("T", 0, 2));
    assert!(ev.iter().any(|e| matches!(e, Event::Attack { kind: AttackKind::FreeAttack, attacker, .. } if attacker == "A")), "{ev:#?}");
    assert_eq!(
        g.state.unit("T").unwrap().models[0].pos,
        Pos::new(0, 2),
        "a survivor finishes its move"
    );
}

#[test]
fn knock_down_spends_the_next_move_standing_up() {
    let (mut g, w) = fight([2, 2], "grunt", &[[3, 2]], |_| {});
    g.state.model_mut("T").unwrap().status.knocked_down = true;
    let mut c = ctl(vec![]);
    assert!(
        g.apply(
            Action::Melee {
                unit: "T".into(),
                target: "A.1".into()
            },
            &w.content,
            &mut c
        )
        .is_err(),
        "no attack before standing"
    );
    let ev = apply(&mut g, &w, &mut c, mv("T", 2, 2));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Status {
            status: event::StatusChange::StoodUp,
            ..
        }
    )));
    assert_eq!(
        g.state.unit("T").unwrap().models[0].pos,
        Pos::new(2, 2),
        "the Move was spent standing up"
    );
}

#[test]
fn a_stunned_model_cannot_defend_against_melee() {
    let (mut g, w) = fight([2, 2], "grunt", &[[3, 2]], |_| {});
    g.state.model_mut("T").unwrap().status.stunned = true;
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
    let def = defence_dice(&ev);
    assert_eq!(def, 0);
}

#[test]
fn terrifying_presence_needs_a_hero_to_see_the_unit() {
    let w = world();
    let mut s = setup(
        "",
        &[("T", "trooper", [0, 2])],
        &[("B", [11, 0], unit("terror", 1))],
    );
    s.rules.die = all_hits();
    s.rules.overmind_reveal_trigger = RevealTrigger::Always;
    // A wall of solid squares, open only at the bottom, hides the Blip.
    let mut b = MapBuilder::new(12, 6);
    for y in 0..6 {
        b.set_terrain(Pos::new(9, y), Terrain::Solid);
    }
    b.set_terrain(Pos::new(9, 5), Terrain::Plain);
    s.map = b.build();
    let mut g = start(&s, &w);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    // Flip: TERRIFYING PRESENCE, but nobody sees the unit behind the rock.
    let ev = apply(&mut g, &w, &mut c, Action::Flip { unit: "B".into() });
    assert!(
        !ev.iter().any(|e| matches!(
            e,
            Event::Attack {
                kind: AttackKind::Fear,
                ..
            }
        )),
        "no Hero has it in sight"
    );
}

#[test]
fn victory_eliminate_and_all_heroes_dead() {
    let (mut g, w) = fight([2, 2], "grunt", &[[3, 2]], |_| {});
    g.state.unit_mut("A").unwrap().models[0].health = 1;
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Melee {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::GameOver {
            winner: Side::Heroes,
            ..
        }
    )));
    let (mut g, w) = fight([2, 2], "grunt", &[[1, 2], [3, 2], [2, 3]], |_| {});
    g.state.model_mut("T").unwrap().health = 2;
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
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::GameOver {
            winner: Side::Overmind,
            ..
        }
    )));
    assert!(
        g.apply(Action::End, &w.content, &mut c).is_err(),
        "the game is over"
    );
}

#[test]
fn victory_extract_interact_survive_and_round_limit() {
    // Extract: interact on a yellow square.
    let (mut g, w) = fight([0, 0], "grunt", &[[8, 5]], |s| {
        s.map = MapBuilder::from_drawing(&wall_map().replacen("|. . . . . .|", "|y . . . . .|", 1))
            .build();
        s.objective = Objective::Extract {
            count: 1,
            squares: vec![],
        };
    });
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Interact { unit: "T".into() },
    );
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::GameOver {
                winner: Side::Heroes,
                ..
            }
        )),
        "{ev:#?}"
    );
    // Interact objectives.
    let (mut g, w) = fight([0, 0], "grunt", &[[8, 5]], |s| {
        s.objective = Objective::Interact {
            squares: vec![Pos::new(0, 0), Pos::new(1, 0)],
        }
    });
    let mut c = ctl(vec![]);
    let ev = apply(&mut g, &w, &mut c, Action::Interact { unit: "T".into() });
    assert!(!ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    apply(&mut g, &w, &mut c, mv("T", 1, 0));
    assert!(
        g.apply(Action::Interact { unit: "T".into() }, &w.content, &mut c)
            .is_err(),
        "two different actions; interact used"
    );
    // Survive and the round limit.
    for (obj, winner) in [
        (Objective::Survive, Side::Heroes),
        (Objective::Eliminate, Side::Overmind),
    ] {
        let (mut g, w) = fight([0, 0], "grunt", &[[8, 5]], |s| {
            s.objective = obj.clone();
            s.max_rounds = Some(2);
        });
        let mut c = ctl(vec![]);
        for _ in 0..20 {
            if g.state.is_over() {
                break;
            }
            apply(&mut g, &w, &mut c, Action::End);
        }
        assert_eq!(g.state.outcome.as_ref().map(|o| o.winner), Some(winner));
        assert_eq!(g.state.round, 2);
    }
}

#[test]
fn interact_recovers_from_stun_and_a_stunned_model_cannot_move() {
    let (mut g, w) = fight([2, 2], "grunt", &[[5, 5]], |_| {});
    g.state.model_mut("T").unwrap().status.stunned = true;
    let mut c = ctl(vec![]);
    let e = g.apply(mv("T", 1, 2), &w.content, &mut c).unwrap_err();
    assert!(e.message.contains("Stunned"), "{e}");
    let ev = apply(&mut g, &w, &mut c, Action::Interact { unit: "T".into() });
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Status {
            status: event::StatusChange::Recovered,
            ..
        }
    )));
    assert!(!g.state.model_mut("T").unwrap().status.stunned);
    apply(&mut g, &w, &mut c, mv("T", 1, 2));
}

/// Each decision asked, with the kinds of the events shown before it.
type Asked = std::rc::Rc<std::cell::RefCell<Vec<(DecisionKind, Vec<String>)>>>;

/// Records each decision with the kinds of the events it was shown first.
struct Watching {
    seen: std::rc::Rc<std::cell::RefCell<Vec<String>>>,
    asked: Asked,
}

impl Controller for Watching {
    fn decide(&mut self, _: View<'_>, d: &Decision) -> usize {
        let seen = self.seen.borrow().clone();
        self.asked.borrow_mut().push((d.kind, seen));
        0
    }
    fn context(&mut self, so_far: &[Event]) {
        *self.seen.borrow_mut() = so_far
            .iter()
            .map(|e| {
                serde_json::to_value(e)
                    .ok()
                    .and_then(|v| v["event"].as_str().map(str::to_string))
                    .unwrap_or_default()
            })
            .collect();
    }
}

/// Issue 13: the Overmind is shown the roll before it is asked which model takes the hit.
#[test]
fn a_decision_comes_after_the_events_that_led_to_it() {
    let (mut g, w) = fight([2, 2], "grunt", &[[1, 2], [3, 2]], |s| {
        s.rules.die = all_hits()
    });
    let asked = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let mut c = Controllers::new(
        Box::new(FirstOption),
        Box::new(Watching {
            seen: Default::default(),
            asked: asked.clone(),
        }),
    );
    apply(
        &mut g,
        &w,
        &mut c,
        Action::Melee {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    let asked = asked.borrow();
    let (kind, seen) = asked.first().expect("the Overmind was asked");
    assert_eq!(*kind, DecisionKind::HitAllocation);
    assert!(
        seen.iter().any(|k| k == "attack"),
        "the roll came first: {seen:?}"
    );
}
