//! docs/RULES.md §7.4 and the seed's chain, checked from the rules text: legality that never
//! plays, reveals that share their cause, a Blip's move that ends at its reveal, damage that
//! lands on the revealed unit, nothing taken back, the Overmind's path choice, waypoints,
//! views by type and the mission's two Decoys.

use crate::common;

use common::*;
use overmind_core::ai::{AiController, HeroAi, OvermindAi, Player};
use overmind_core::decision::DecisionKind;
use overmind_core::*;
use std::cell::RefCell;
use std::rc::Rc;

/// Records every decision asked of it, answering from a list and then with option 0.
struct Recorder {
    answers: Vec<usize>,
    asked: Rc<RefCell<Vec<Decision>>>,
}

impl Controller for Recorder {
    fn decide(&mut self, _: View<'_>, d: &Decision) -> usize {
        self.asked.borrow_mut().push(d.clone());
        if self.answers.is_empty() {
            0
        } else {
            self.answers.remove(0)
        }
    }
}

fn recording(answers: Vec<usize>) -> (Controllers, Rc<RefCell<Vec<Decision>>>) {
    let asked = Rc::new(RefCell::new(Vec::new()));
    let c = Controllers::new(
        Box::new(FirstOption),
        Box::new(Recorder {
            answers,
            asked: asked.clone(),
        }),
    );
    (c, asked)
}

/// Content like the base pack where every Alien Type performs the recording probe.
fn probed() -> (Content, Rc<RefCell<Vec<String>>>) {
    let ran = Rc::new(RefCell::new(Vec::new()));
    let mut c = base_like();
    c.add_behaviour(
        "probe",
        Rc::new(Probe {
            ran: ran.clone(),
            fail: false,
        }),
    );
    for t in c.aliens.values_mut() {
        t.behaviours = vec!["probe".into()];
    }
    (c, ran)
}

fn has_reveal(events: &[Event]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::BlipRevealed { .. }))
}

#[test]
fn legal_lists_are_the_same_whatever_face_down_blips_hold_and_building_them_plays_nothing() {
    let (content, ran) = probed();
    for seed in 0..6u64 {
        ran.borrow_mut().clear();
        let st = demo_setup().start(&content, seed).expect("demo starts");
        let mut a = Game::new(st.clone(), "demo", seed);
        // The same game but for what the Blips hold: every one a Decoy.
        let mut other = st;
        for b in &mut other.blips {
            b.contents = Some(Contents::Decoy);
        }
        let mut b = Game::new(other, "demo", seed);
        let mut ctl_a = Controllers::new(Box::new(AiController), Box::new(AiController));
        let mut ctl_b = Controllers::new(Box::new(AiController), Box::new(AiController));
        let (mut heroes, mut overmind) = (HeroAi, OvermindAi);
        for _ in 0..400 {
            let Some(side) = a.to_move() else { break };
            let before = a.state.clone();
            let log = a.log.len();
            let legal_a = a.legal_actions(&content);
            let legal_b = b.legal_actions(&content);
            assert_eq!(legal_a, legal_b, "seed {seed}: the lists differ");
            assert!(
                a.state == before && a.log.len() == log,
                "listing changed the game"
            );
            assert!(ran.borrow().is_empty(), "listing ran a behaviour");
            let action = match side {
                Side::Heroes => {
                    heroes.next_action(View::Heroes(&HeroesView::of(&a.state)), &content)
                }
                Side::Overmind => overmind.next_action(View::Overmind(&a.state), &content),
            };
            let action = if legal_a.contains(&action) {
                action
            } else {
                Action::End
            };
            let ea = a
                .apply(action.clone(), &content, &mut ctl_a)
                .expect("listed is legal");
            let eb = b
                .apply(action, &content, &mut ctl_b)
                .expect("listed is legal");
            if has_reveal(&ea) || has_reveal(&eb) {
                break; // from here the two games may rightly differ
            }
            ran.borrow_mut().clear();
        }
    }
}

/// Candidate actions for `side`: every actor with every kind, at random squares and targets.
fn candidates(g: &Game, rng: &mut u64) -> Vec<Action> {
    let mut next = || {
        *rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*rng >> 33) as i32
    };
    let st = &g.state;
    let mut names: Vec<String> = st.blips.iter().map(|b| b.id.to_string()).collect();
    for u in &st.units {
        names.push(u.id.to_string());
        names.extend(u.models.iter().map(|m| m.id.to_string()));
    }
    let targets = names.clone();
    let mut out = vec![Action::End];
    for n in &names {
        let (w, h) = (st.map.width(), st.map.height());
        let to = Pos::new(next().rem_euclid(w + 2) - 1, next().rem_euclid(h + 2) - 1);
        let near = Pos::new(next().rem_euclid(w), next().rem_euclid(h));
        out.push(Action::move_to(n.clone(), to));
        out.push(Action::sprint_to(n.clone(), to));
        out.push(Action::Move {
            unit: Id::from(&n),
            to,
            via: vec![near],
        });
        let t = targets[next().rem_euclid(targets.len() as i32) as usize].clone();
        out.push(Action::Shoot {
            unit: Id::from(&n),
            target: Id::from(&t),
        });
        out.push(Action::Melee {
            unit: Id::from(&n),
            target: Id::from(t),
        });
        out.push(Action::Overwatch { unit: Id::from(&n) });
        out.push(Action::Interact { unit: Id::from(&n) });
        out.push(Action::Flip { unit: Id::from(&n) });
    }
    out
}

#[test]
fn validation_agrees_with_apply_and_a_refused_action_changes_nothing() {
    let content = base_like();
    let mut rng = 99u64;
    for seed in 0..4u64 {
        let st = demo_setup().start(&content, seed).expect("demo starts");
        let mut g = Game::new(st, "demo", seed);
        let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
        let (mut heroes, mut overmind) = (HeroAi, OvermindAi);
        for _ in 0..300 {
            let Some(side) = g.to_move() else { break };
            let legal = g.legal_actions(&content);
            for a in candidates(&g, &mut rng) {
                let mut copy = g.clone();
                let mut c = Controllers::new(Box::new(AiController), Box::new(AiController));
                let valid = g.validate(&content, &a);
                let applied = copy.apply(a.clone(), &content, &mut c);
                assert_eq!(
                    valid.is_ok(),
                    applied.is_ok(),
                    "{a:?}: {valid:?} vs {applied:?}"
                );
                if applied.is_err() {
                    assert!(
                        copy.state == g.state,
                        "{a:?} was refused but changed the state"
                    );
                }
                let listed = legal.contains(&a);
                if listed {
                    assert!(valid.is_ok(), "listed but illegal: {a:?}");
                }
            }
            for a in &legal {
                assert!(g.is_legal(&content, a), "listed but illegal: {a:?}");
            }
            let action = match side {
                Side::Heroes => {
                    heroes.next_action(View::Heroes(&HeroesView::of(&g.state)), &content)
                }
                Side::Overmind => overmind.next_action(View::Overmind(&g.state), &content),
            };
            if g.apply(action, &content, &mut ctl).is_err() {
                g.apply(Action::End, &content, &mut ctl)
                    .expect("end is legal");
            }
        }
    }
}

/// 12x5, a wall at x=5|6 with a door in row 2 (see `DOOR`).
#[test]
fn blips_revealed_by_one_hero_step_share_its_cause_and_all_trigger() {
    let w = world();
    let mut s = setup(
        DOOR,
        &[("T", "brawler", [0, 2])],
        &[
            ("B1", [8, 0], unit("grunt", 1)),
            ("B2", [8, 4], unit("grunt", 1)),
        ],
    );
    // Even when the Overmind's reveals never trigger: these are the Heroes' doing.
    s.rules.overmind_reveal_trigger = RevealTrigger::Never;
    let mut g = start(&s, &w);
    let mut c = ctl(vec![1]);
    // Along row 2, the map's mirror line: whenever the Hero sees one Blip it sees both.
    let along = Action::Move {
        unit: "T".into(),
        to: Pos::new(4, 2),
        via: vec![Pos::new(1, 2), Pos::new(2, 2), Pos::new(3, 2)],
    };
    let ev = apply(&mut g, &w, &mut c, along);
    let r = revealed(&ev);
    assert_eq!(
        r,
        vec![
            ("B2".to_string(), RevealCause::Hero, true),
            ("B1".to_string(), RevealCause::Hero, true)
        ],
        "both revealed by the Hero's step, in the Overmind's order: {ev:#?}"
    );
    assert!(ev.iter().all(|e| !matches!(
        e,
        Event::BlipRevealed { by, .. } if *by != Side::Heroes
    )));
    // Both are placed before either behaviour runs (docs/RULES.md §7.4).
    let last_reveal = ev
        .iter()
        .rposition(|e| matches!(e, Event::ModelsPlaced { .. }))
        .unwrap();
    let first_behaviour = ev
        .iter()
        .position(|e| matches!(e, Event::BehaviourChosen { .. }))
        .unwrap();
    assert!(last_reveal < first_behaviour);
    assert_eq!(performed(&ev), vec!["B2".to_string(), "B1".to_string()]);
    assert_eq!(g.state.unit("T").unwrap().models[0].pos, Pos::new(4, 2));
}

#[test]
fn a_blips_own_move_ends_at_its_reveal_and_the_unit_has_only_its_other_action() {
    let w = world();
    let s = setup(
        &shaft_map(),
        &[("T", "brawler", [4, 0])],
        &[("B1", [9, 3], unit("grunt", 1))],
    );
    let mut g = start(&s, &w);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    apply(&mut g, &w, &mut c, mv("B1", 9, 0));
    let at = g.state.unit("B1").unwrap().models[0].pos;
    assert_eq!(at, Pos::new(9, 1), "revealed on entering sight");
    // The Blip's Move was the activation's first action: no more moving in it.
    for name in ["B1", "B1.1"] {
        let err = g
            .apply(mv(name, 9, 0), &w.content, &mut c)
            .expect_err("the Move is spent");
        assert!(err.message.contains("move action"), "{err}");
        assert!(!g.is_legal(&w.content, &mv(name, 9, 0)));
    }
    assert_eq!(g.state.unit("B1").unwrap().models[0].pos, at);
    // A different second action is left.
    apply(&mut g, &w, &mut c, Action::sprint_to("B1", Pos::new(9, 0)));
    let err = g
        .apply(Action::sprint_to("B1", Pos::new(8, 0)), &w.content, &mut c)
        .expect_err("two actions in all");
    assert!(!err.message.is_empty());
}

#[test]
fn damage_that_reveals_lands_even_when_placement_blocks_the_line() {
    let w = world();
    let mut s = setup(
        &shaft_map(),
        &[("T", "trooper", [5, 0])],
        &[("B1", [9, 3], unit("grunt", 2))],
    );
    s.rules.die = all_hits();
    let mut g = start(&s, &w);
    let mut c = ctl(vec![]);
    apply(&mut g, &w, &mut c, Action::Overwatch { unit: "T".into() });
    to_overmind(&mut g, &w, &mut c);
    // Overwatch fires as the Blip enters (9,1); the second model goes to (9,0) (option 2 of
    // (8,0), (9,0), (10,0), (9,2)), which blocks every line from the corridor into (9,1).
    let mut c = ctl(vec![1]);
    let ev = apply(&mut g, &w, &mut c, mv("B1", 9, 0));
    assert_eq!(
        revealed(&ev),
        vec![("B1".to_string(), RevealCause::Damage, true)]
    );
    let placed = ev
        .iter()
        .position(|e| matches!(e, Event::ModelsPlaced { models, .. } if models.iter().any(|m| m.at == Pos::new(9, 0))))
        .expect("the second model blocks the line");
    let attack = ev
        .iter()
        .position(|e| matches!(e, Event::Attack { attacker, target, damage, .. } if attacker == "T" && target == "B1.1" && *damage == 1))
        .expect("the attack still resolves against the revealed unit");
    assert!(placed < attack);
    let hurt: u32 = g
        .state
        .unit("B1")
        .unwrap()
        .models
        .iter()
        .map(|m| m.max_health - m.health)
        .sum();
    assert_eq!(hurt, 1, "the damage landed");
}

#[test]
fn a_failed_behaviour_keeps_what_the_players_saw_overwatch_and_a_kill_included() {
    let w = world();
    let mut s = setup(
        &shaft_map(),
        &[("T", "trooper", [11, 0])],
        &[("B", [9, 3], unit("broken", 1))],
    );
    s.rules.die = all_hits();
    let mut g = start(&s, &w);
    let mut c = ctl(vec![]);
    apply(&mut g, &w, &mut c, Action::Overwatch { unit: "T".into() });
    to_overmind(&mut g, &w, &mut c);
    // Flipped out of sight; its behaviour walks up the shaft into the Overwatch (two dice at
    // short range, each a hit: the model dies), then fails on purpose.
    let ev = apply(&mut g, &w, &mut c, Action::Flip { unit: "B".into() });
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::BehaviourFailed { .. })),
        "{ev:#?}"
    );
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Attack { attacker, kind: AttackKind::Overwatch, .. } if attacker == "T")
        ),
        "{ev:#?}"
    );
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::ModelKilled { model, .. } if model == "B.1")));
    assert_eq!(
        g.state.unit("T").unwrap().overwatch,
        None,
        "the token is spent"
    );
    assert!(
        !g.state.unit("B").is_some_and(|u| u.alive()),
        "the killed model stays dead"
    );
    assert_eq!(g.state.unit("T").unwrap().xp, 1, "and the kill counts");
    let attacks = g
        .log
        .iter()
        .filter(|e| matches!(e, Event::Attack { .. }))
        .count();
    assert_eq!(attacks, 1, "no dice rolled twice");
}

#[test]
fn the_overmind_chooses_among_every_shortest_path_of_a_blips_move() {
    let w = world();
    let s = setup(
        &wall_map(),
        &[("T", "brawler", [0, 0])],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    let mut g = start(&s, &w);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    let (mut c, asked) = recording(vec![2]);
    let ev = apply(&mut g, &w, &mut c, mv("B", 8, 3));
    let asked = asked.borrow();
    let d = asked
        .iter()
        .find(|d| d.kind == DecisionKind::Path)
        .expect("a path decision");
    let paths: Vec<Vec<Pos>> = d
        .options
        .iter()
        .map(|o| match o {
            Choice::Path(p) => p.clone(),
            _ => panic!("path options are paths"),
        })
        .collect();
    // (10,3) to (8,3): through (9,2), (9,3) or (9,4).
    let mids: Vec<Pos> = paths.iter().map(|p| p[1]).collect();
    assert_eq!(paths.len(), 3, "{paths:?}");
    for m in [Pos::new(9, 2), Pos::new(9, 3), Pos::new(9, 4)] {
        assert!(mids.contains(&m), "{m} missing from {paths:?}");
    }
    assert!(paths
        .iter()
        .all(|p| p.len() == 3 && p[0] == Pos::new(10, 3) && p[2] == Pos::new(8, 3)));
    let moved = ev
        .iter()
        .find_map(|e| match e {
            Event::Moved { unit, path, .. } if unit == "B" => Some(path.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(moved, paths[2], "the chosen path is walked");
}

#[test]
fn a_move_through_a_waypoint_walks_it_and_a_waypoint_too_far_is_refused() {
    let w = world();
    let s = setup(
        &wall_map(),
        &[("T", "brawler", [0, 0])],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    let mut g = start(&s, &w);
    let mut c = ctl(vec![]);
    let via = Action::Move {
        unit: "T".into(),
        to: Pos::new(2, 0),
        via: vec![Pos::new(1, 1)],
    };
    let ev = apply(&mut g, &w, &mut c, via);
    let path = ev
        .iter()
        .find_map(|e| match e {
            Event::Moved { path, .. } => Some(path.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(path, vec![Pos::new(0, 0), Pos::new(1, 1), Pos::new(2, 0)]);
    // Sprint 2: to (3,0) via (2,3) is 3 + 3 = 6 steps.
    let far = Action::Sprint {
        unit: "T".into(),
        to: Pos::new(3, 0),
        via: vec![Pos::new(2, 3)],
    };
    let err = g.validate(&w.content, &far).unwrap_err();
    assert!(err.message.contains("allows 2"), "{err}");
    let off = Action::Sprint {
        unit: "T".into(),
        to: Pos::new(2, 0),
        via: vec![Pos::new(-1, 0)],
    };
    assert!(g
        .validate(&w.content, &off)
        .unwrap_err()
        .message
        .contains("off the map"));
}

#[test]
fn a_heroes_controller_is_handed_a_view_without_blip_contents() {
    let w = world();
    let s = setup(
        &wall_map(),
        &[("T", "brawler", [0, 0])],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    let g = start(&s, &w);
    struct Peek(Rc<RefCell<Option<bool>>>);
    impl Controller for Peek {
        fn decide(&mut self, view: View<'_>, _: &Decision) -> usize {
            let hidden = matches!(view, View::Heroes(_))
                && view.state().blips.iter().all(|b| b.contents.is_none());
            *self.0.borrow_mut() = Some(hidden);
            0
        }
    }
    let seen = Rc::new(RefCell::new(None));
    let mut c = Controllers::new(Box::new(Peek(seen.clone())), Box::new(FirstOption));
    let d = Decision {
        who: Side::Heroes,
        kind: DecisionKind::Choice,
        prompt: "?".into(),
        options: vec![Choice::Id("a".into()), Choice::Id("b".into())],
        subject: None,
    };
    c.ask(&g.state, &d);
    assert_eq!(*seen.borrow(), Some(true));
    assert!(
        g.state.blips[0].contents.is_some(),
        "the game itself still knows"
    );
}

#[test]
fn decoys_a_mission_fixes_count_towards_its_two() {
    let w = world();
    let mut s = setup(
        &wall_map(),
        &[("T", "brawler", [0, 0])],
        &[
            ("D1", [10, 0], decoy()),
            ("D2", [10, 2], decoy()),
            ("P1", [10, 4], None),
            ("P2", [8, 4], None),
        ],
    );
    s.decoys = None;
    s.rules.decoys = 2; // the rules' two
    s.pool = vec![PoolEntry {
        type_id: "grunt".into(),
        size: 1,
        count: 2,
        leader: None,
    }];
    for seed in 0..20 {
        let st = s.start(&w.content, seed).expect("valid");
        let decoys = st
            .blips
            .iter()
            .filter(|b| b.contents == Some(Contents::Decoy))
            .count();
        assert_eq!(
            decoys, 2,
            "seed {seed}: the two fixed Decoys are the mission's two"
        );
    }
    s.blips[2].contents = decoy();
    let err = s.start(&w.content, 1).unwrap_err();
    assert!(format!("{err:?}").contains("Decoy Tokens"), "{err:?}");
}
