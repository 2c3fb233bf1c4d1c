//! docs/RULES.md §8.5: each of the five seed Alien Behaviours (native reference versions; the Lua
//! ones are tested against the same positions in the scripting crate).

use crate::common;
use common::*;
use overmind_core::*;
use std::cell::RefCell;
use std::rc::Rc;

/// An open board; heroes placed; Blips dropped straight into sight so that the Heroes' next
/// step reveals them (a Hero-caused reveal: it always triggers).
fn scene(
    map: Map,
    heroes: &[(&str, &str, [i32; 2])],
    blips: &[(&str, [i32; 2], &str, u32)],
    die: dice::DieFaces,
) -> (Game, World) {
    let w = world();
    let mut s = setup("", heroes, &[]);
    s.map = map;
    s.rules.die = die;
    let mut st = s.start(&w.content, 5).unwrap();
    for (id, at, t, n) in blips {
        st.blips.push(Blip {
            id: Id::from(id),
            pos: Pos::from(*at),
            contents: unit(t, *n),
            activated: false,
            used: vec![],
        });
    }
    st.moved();
    (Game::new(st, "t", 5), w)
}

fn open() -> Map {
    MapBuilder::new(12, 6).build()
}

fn moved_steps(ev: &[Event], unit: &str) -> usize {
    ev.iter()
        .filter_map(|e| match e {
            Event::Moved { unit: u, path, .. } if u == unit => Some(path.len() - 1),
            _ => None,
        })
        .sum()
}

fn pos(g: &Game, model: &str) -> Pos {
    g.state.find_model(model).unwrap().1.pos
}

#[test]
fn rush_moves_exactly_five_towards_the_closest_visible_hero() {
    let (mut g, w) = scene(
        open(),
        &[("H", "brawler", [0, 2])],
        &[("R", [10, 2], "rusher", 1)],
        all_blanks(),
    );
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("H", 1, 2));
    assert_eq!(performed(&ev), vec!["R".to_string()]);
    assert_eq!(
        moved_steps(&ev, "R.1"),
        5,
        "Movement 6, but RUSH moves 5: {ev:#?}"
    );
    assert_eq!(
        pos(&g, "R.1").x,
        5,
        "any of the Overmind's equally good squares 5 west"
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Attack { .. })),
        "not in melee: no attack"
    );
}

#[test]
fn rush_that_ends_in_melee_attacks_with_one_die_fewer() {
    let (mut g, w) = scene(
        open(),
        &[("H", "brawler", [0, 2])],
        &[("R", [5, 2], "rusher", 1)],
        all_hits(),
    );
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("H", 1, 2));
    assert!(
        movement::adjacent(&g.state.map, pos(&g, "R.1"), Pos::new(1, 2)),
        "stops once adjacent"
    );
    assert_eq!(moved_steps(&ev, "R.1"), 3);
    let a = ev.iter().find_map(|e| match e {
        Event::Attack {
            kind: AttackKind::Melee,
            cv,
            dice,
            penalty,
            ..
        } => Some((*cv, *dice, *penalty)),
        _ => None,
    });
    assert_eq!(a, Some((2, 1, 1)), "melee CV 2 rolls 1 die: {ev:#?}");
}

#[test]
fn rush_goes_for_the_closest_visible_hero_not_a_closer_hidden_one() {
    let mut b = MapBuilder::new(12, 6);
    // A rock hides S (3 steps away) from the rusher; N is 6 steps away but in sight.
    b.set_terrain(Pos::new(8, 4), Terrain::Solid);
    b.set_terrain(Pos::new(8, 5), Terrain::Solid);
    let (mut g, w) = scene(
        b.build(),
        &[("N", "brawler", [1, 0]), ("S", "brawler", [7, 5])],
        &[("R", [9, 3], "rusher", 1)],
        all_blanks(),
    );
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("N", 2, 0));
    assert_eq!(performed(&ev), vec!["R".to_string()]);
    let at = pos(&g, "R.1");
    assert!(
        at.distance(Pos::new(2, 0)) < Pos::new(9, 3).distance(Pos::new(2, 0)),
        "went for N: {at}"
    );
    assert!(
        !movement::adjacent(&g.state.map, at, Pos::new(7, 5)),
        "not for the hidden S"
    );
}

#[test]
fn quick_shot_shoots_with_one_die_fewer() {
    let (mut g, w) = scene(
        open(),
        &[("H", "brawler", [0, 2])],
        &[("Q", [3, 2], "shooter", 1)],
        all_hits(),
    );
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("H", 1, 2));
    let a = ev.iter().find_map(|e| match e {
        Event::Attack {
            kind: AttackKind::Shoot,
            cv,
            dice,
            penalty,
            ..
        } => Some((*cv, *dice, *penalty)),
        _ => None,
    });
    assert_eq!(a, Some((2, 1, 1)), "{ev:#?}");
    let named = ev.iter().any(|e| {
        matches!(e, Event::Attack { modifiers, .. } if modifiers.iter().any(|m| {
            m.cause == event::Cause::Behaviour
                && m.change == -1
                && m.source.as_ref().is_some_and(|b| b == "quick_shot")
        }))
    });
    assert!(named, "the penalty names the behaviour: {ev:#?}");
}

#[test]
fn quick_shot_with_nothing_in_range_does_nothing_and_says_why() {
    let (mut g, w) = scene(
        open(),
        &[("H", "brawler", [0, 2])],
        &[("Q", [10, 2], "shooter", 1)],
        all_hits(),
    );
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("H", 1, 2));
    assert!(!ev.iter().any(|e| matches!(e, Event::Attack { .. })));
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Log { message, .. } if message.contains("no Hero"))));
}

#[test]
fn protect_moves_to_the_nearest_other_unit_and_stops_once_adjacent() {
    let (mut g, w) = scene(
        open(),
        &[("H", "brawler", [0, 2])],
        &[("P", [8, 0], "protector", 1)],
        all_blanks(),
    );
    push_alien(&mut g.state, "F", "grunt", &[[8, 5]], 2);
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("H", 1, 2));
    assert!(movement::adjacent(
        &g.state.map,
        pos(&g, "P.1"),
        Pos::new(8, 5)
    ));
    assert_eq!(
        moved_steps(&ev, "P.1"),
        4,
        "stops once adjacent, not after Movement 6"
    );
}

#[test]
fn take_cover_moves_to_a_green_square_within_five() {
    let mut b = MapBuilder::new(12, 6);
    b.set_terrain(Pos::new(9, 2), Terrain::Green);
    b.set_terrain(Pos::new(11, 5), Terrain::Building);
    let (mut g, w) = scene(
        b.build(),
        &[("H", "brawler", [0, 2])],
        &[("C", [6, 2], "coward", 1)],
        all_blanks(),
    );
    apply(&mut g, &w, &mut ctl(vec![]), mv("H", 1, 2));
    assert_eq!(pos(&g, "C.1"), Pos::new(9, 2));
}

#[test]
fn take_cover_without_cover_in_reach_stays() {
    let mut b = MapBuilder::new(12, 6);
    b.set_terrain(Pos::new(11, 5), Terrain::Green);
    let (mut g, w) = scene(
        b.build(),
        &[("H", "brawler", [0, 2])],
        &[("C", [4, 0], "coward", 1)],
        all_blanks(),
    );
    apply(&mut g, &w, &mut ctl(vec![]), mv("H", 1, 2));
    assert_eq!(pos(&g, "C.1"), Pos::new(4, 0), "green square is 7 away");
}

#[test]
fn terrifying_presence_fear_attacks_every_hero_that_sees_the_unit() {
    let mut b = MapBuilder::new(12, 6);
    // A rock wall at x=4 with a gap at y=2..3; Z is sealed in a corner.
    for p in [(4, 0), (4, 1), (4, 4), (4, 5), (0, 4), (1, 4), (1, 5)] {
        b.set_terrain(Pos::new(p.0, p.1), Terrain::Solid);
    }
    let map = b.build();
    let (mut g, w) = scene(
        map,
        &[
            ("X", "brawler", [0, 2]),
            ("Y", "brawler", [0, 3]),
            ("Z", "brawler", [0, 5]),
        ],
        &[("T", [8, 2], "terror", 1)],
        all_hits(),
    );
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("X", 1, 2));
    let feared: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Attack {
                kind: AttackKind::Fear,
                target,
                ..
            } => Some(target.as_str()),
            _ => None,
        })
        .collect();
    let mut seeing: Vec<String> = ["X", "Y", "Z"]
        .iter()
        .filter(|h| {
            g.state.rules.los.visible(
                &g.state.map,
                &g.state.compute_obstacles(),
                Pos::new(8, 2),
                pos(&g, h),
            ) || feared.contains(h)
        })
        .map(|s| s.to_string())
        .collect();
    seeing.sort();
    let mut f: Vec<String> = feared.iter().map(|s| s.to_string()).collect();
    f.sort();
    assert!(
        f.contains(&"X".to_string()) && f.contains(&"Y".to_string()),
        "{ev:#?}"
    );
    assert!(!f.contains(&"Z".to_string()), "Z cannot see the unit");
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Status {
                status: event::StatusChange::Shaken { .. },
                ..
            }
        )),
        "a hit shakes"
    );
    let _ = seeing;
}

fn attacks(ev: &[Event], kind: AttackKind) -> usize {
    ev.iter()
        .filter(|e| matches!(e, Event::Attack { kind: k, .. } if *k == kind))
        .count()
}

fn confirms(d: &[(Decision, usize)]) -> Vec<String> {
    d.iter()
        .filter(|(d, _)| d.kind == DecisionKind::Confirm)
        .map(|(d, _)| d.prompt.clone())
        .collect()
}

/// Every decision asked, with its answer.
type Asked = Rc<RefCell<Vec<(Decision, usize)>>>;

/// Overmind answers (then the AI), recording every decision asked.
fn recording(answers: Vec<usize>) -> (Controllers, Asked) {
    struct Recorder(Scripted<ai::AiController>, Asked);
    impl Controller for Recorder {
        fn decide(&mut self, view: View<'_>, d: &Decision) -> usize {
            let i = self.0.decide(view, d);
            self.1.borrow_mut().push((d.clone(), i));
            i
        }
    }
    let log = Rc::new(RefCell::new(Vec::new()));
    let c = Controllers::new(
        Box::new(FirstOption),
        Box::new(Recorder(
            Scripted {
                answers: answers.into(),
                fallback: ai::AiController,
            },
            Rc::clone(&log),
        )),
    );
    (c, log)
}

#[test]
fn rush_whose_first_model_is_killed_by_overwatch_completes_and_the_model_stays_dead() {
    // K, the closest visible Hero, stands on Overwatch: its short-range shot (CV 2, all hits,
    // no shields) kills the first rusher (Health 2) on its first step.
    let (mut g, w) = scene(
        open(),
        &[("H", "brawler", [0, 2]), ("K", "trooper", [8, 5])],
        &[("R", [9, 2], "rusher", 3)],
        all_hits(),
    );
    g.state.unit_mut("K").unwrap().overwatch = Some(state::Overwatch::Full);
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("H", 1, 2));
    let killed: Vec<(&str, Option<&str>)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::ModelKilled { model, by, .. } => Some((model.as_str(), by.as_deref())),
            _ => None,
        })
        .collect();
    assert_eq!(killed.len(), 1, "{ev:#?}");
    assert_eq!(killed[0].1, Some("K"));
    let chosen = ev
        .iter()
        .position(|e| matches!(e, Event::BehaviourChosen { .. }));
    let kill = ev
        .iter()
        .position(|e| matches!(e, Event::ModelKilled { .. }));
    assert!(chosen < kill, "killed during the RUSH: {ev:#?}");
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::BehaviourPerformed { behaviour, .. } if behaviour == "rush"
        )),
        "{ev:#?}"
    );
    assert!(!ev
        .iter()
        .any(|e| matches!(e, Event::BehaviourFailed { .. })));
    assert!(g.state.find_model(killed[0].0).is_none(), "it stays dead");
    assert_eq!(g.state.unit("R").map(|u| u.models.len()), Some(2));
}

#[test]
fn rush_moves_anyway_but_may_decline_its_melee_attack() {
    let (mut g, w) = scene(
        open(),
        &[("H", "brawler", [0, 2])],
        &[("R", [5, 2], "rusher", 1)],
        all_hits(),
    );
    // The end square of the move (equally good ones), its path (the first of the shortest),
    // then no to the Melee attack.
    let (mut c, asked) = recording(vec![0, 0, 1]);
    let ev = apply(&mut g, &w, &mut c, mv("H", 1, 2));
    assert_eq!(moved_steps(&ev, "R.1"), 3, "the move is a must");
    assert_eq!(attacks(&ev, AttackKind::Melee), 0, "{ev:#?}");
    assert_eq!(
        confirms(&asked.borrow()),
        vec!["rush: Make the Melee attack?"]
    );
}

#[test]
fn quick_shot_may_be_declined() {
    let (mut g, w) = scene(
        open(),
        &[("H", "brawler", [0, 2])],
        &[("Q", [3, 2], "shooter", 1)],
        all_hits(),
    );
    let (mut c, asked) = recording(vec![1]);
    let ev = apply(&mut g, &w, &mut c, mv("H", 1, 2));
    assert_eq!(attacks(&ev, AttackKind::Shoot), 0, "{ev:#?}");
    assert_eq!(
        confirms(&asked.borrow()),
        vec!["quick_shot: Make the Quick Shot?"]
    );
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::BehaviourPerformed { .. })));
}

#[test]
fn take_cover_offers_each_cover_square_within_five_or_staying() {
    let mut b = MapBuilder::new(12, 6);
    for (x, y) in [(9, 2), (11, 0), (0, 0)] {
        b.set_terrain(Pos::new(x, y), Terrain::Green);
    }
    let drawn = b.build();
    let play = |answers: Vec<usize>| {
        let (mut g, w) = scene(
            drawn.clone(),
            &[("H", "brawler", [0, 2])],
            &[("C", [6, 2], "coward", 1)],
            all_blanks(),
        );
        let (mut c, asked) = recording(answers);
        apply(&mut g, &w, &mut c, mv("H", 1, 2));
        let choice = asked
            .borrow()
            .iter()
            .find(|(d, _)| d.kind == DecisionKind::Choice)
            .map(|(d, _)| d.options.clone())
            .expect("a choice");
        (pos(&g, "C.1"), choice)
    };
    // (0,0) is six squares away; staying is offered last.
    let (at, options) = play(vec![1]);
    assert_eq!(
        options,
        vec![
            Choice::Square(Pos::new(9, 2)),
            Choice::Square(Pos::new(11, 0)),
            Choice::Id("stay".into())
        ]
    );
    assert_eq!(at, Pos::new(11, 0), "the farther square, as told");
    let (at, _) = play(vec![2]);
    assert_eq!(at, Pos::new(6, 2), "stays");
}
