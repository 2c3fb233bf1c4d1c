//! docs/RULES.md §2 and §6 modifiers and effects: green sides, buildings, weak Overwatch, Push
//! Back, and §7.3's stat-triggered reveal.

use crate::common;
use common::*;
use overmind_core::*;
use std::rc::Rc;

fn with_alien(s: &Setup, w: &World, alien: &str, at: [i32; 2], health: u32) -> Game {
    let mut st = s.start(&w.content, 3).unwrap();
    push_alien(&mut st, "A", alien, &[at], health);
    Game::new(st, "t", 3)
}

fn first_attack(ev: &[Event]) -> (u32, u32, u32) {
    ev.iter()
        .find_map(|e| match e {
            Event::Attack {
                dice,
                penalty,
                defence_dice,
                ..
            } => Some((*dice, *penalty, *defence_dice)),
            _ => None,
        })
        .expect("an attack")
}

/// The first attack's modifiers as (roll, cause, change): the roll line names each (issue 13).
fn causes(ev: &[Event]) -> Vec<(event::Roll, event::Cause, i32)> {
    ev.iter()
        .find_map(|e| match e {
            Event::Attack { modifiers, .. } => Some(
                modifiers
                    .iter()
                    .map(|m| (m.on, m.cause, m.change))
                    .collect(),
            ),
            _ => None,
        })
        .expect("an attack")
}

#[test]
fn a_green_side_adds_defence_only_against_attacks_across_it() {
    let w = world();
    let mut b = MapBuilder::new(12, 6);
    b.set_terrain(Pos::new(3, 3), Terrain::Green);
    b.set_north(3, 3, Edge::Green);
    let mut s = setup("", &[("T", "trooper", [3, 0])], &[]);
    s.map = b.build();
    s.rules.die = all_hits();
    let mut g = with_alien(&s, &w, "grunt", [3, 3], 9);
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Shoot {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    assert_eq!(
        first_attack(&ev).2,
        2,
        "defence 1 + 1 across the green north side"
    );
    assert_eq!(
        causes(&ev),
        [(event::Roll::Defence, event::Cause::GreenSide, 1)]
    );
    s.heroes[0].at = Pos::new(3, 5);
    let mut g = with_alien(&s, &w, "grunt", [3, 3], 9);
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Shoot {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    assert_eq!(first_attack(&ev).2, 1, "from the south: no cover");
    assert!(causes(&ev).is_empty(), "{:?}", causes(&ev));
}

#[test]
fn shooting_into_a_building_from_outside_rolls_one_die_fewer() {
    let w = world();
    let mut b = MapBuilder::new(12, 6);
    b.set_terrain(Pos::new(5, 2), Terrain::Building);
    b.set_north(5, 2, Edge::Wall)
        .set_north(5, 3, Edge::Wall)
        .set_west(6, 2, Edge::Wall);
    let mut s = setup("", &[("T", "trooper", [2, 2])], &[]);
    s.map = b.build();
    s.rules.die = all_hits();
    let mut g = with_alien(&s, &w, "grunt", [5, 2], 9);
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Shoot {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    assert_eq!(first_attack(&ev).1, 1, "building penalty");
    assert_eq!(
        causes(&ev),
        [(event::Roll::Attack, event::Cause::Building, -1)]
    );
    let mut s2 = s.clone();
    s2.map = MapBuilder::new(12, 6).build();
    let mut g = with_alien(&s2, &w, "grunt", [5, 2], 9);
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Shoot {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    assert_eq!(first_attack(&ev).1, 0);
}

#[test]
fn overwatch_as_second_action_is_weak() {
    let w = world();
    let mut s = setup(&wall_map(), &[("T", "trooper", [0, 0])], &[]);
    s.rules.die = all_hits();
    let mut g = with_alien(&s, &w, "grunt", [5, 5], 9);
    let mut c = ctl(vec![]);
    apply(&mut g, &w, &mut c, mv("T", 1, 0));
    let ev = apply(&mut g, &w, &mut c, Action::Overwatch { unit: "T".into() });
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::OverwatchSet {
            mode: state::Overwatch::Weak,
            ..
        }
    )));
    let ev = apply(&mut g, &w, &mut c, mv("A.1", 4, 2));
    let (_, penalty, _) = first_attack(&ev);
    assert_eq!(penalty, 1, "weak Overwatch: one die fewer");
    assert_eq!(
        causes(&ev),
        [(event::Roll::Attack, event::Cause::WeakOverwatch, -1)]
    );
}

#[test]
fn push_back_moves_the_target_away_or_stuns_it_without_room() {
    let mut w = world();
    if let Some(h) = w.content.heroes.get_mut("trooper") {
        h.melee_effects = vec![Effect::PushBack];
    }
    let mut s = setup("", &[("T", "trooper", [2, 2])], &[]);
    s.map = MapBuilder::new(12, 6).build();
    s.rules.die = all_hits();
    let mut g = with_alien(&s, &w, "grunt", [3, 2], 9);
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![1]),
        Action::Melee {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    let at = g.state.find_model("A.1").unwrap().1.pos;
    assert_eq!(
        at,
        Pos::new(4, 2),
        "the Overmind (owner) chose the second of (4,1) (4,2) (4,3)"
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Status {
            status: event::StatusChange::PushedBack { .. },
            ..
        }
    )));
    let mut b = MapBuilder::new(12, 6);
    for y in 1..4 {
        b.set_terrain(Pos::new(4, y), Terrain::Solid);
    }
    s.map = b.build();
    let mut g = with_alien(&s, &w, "grunt", [3, 2], 9);
    apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Melee {
            unit: "T".into(),
            target: "A.1".into(),
        },
    );
    let m = g.state.find_model("A.1").unwrap().1;
    assert_eq!(m.pos, Pos::new(3, 2));
    assert!(m.status.stunned, "no square away: Stunned instead");
}

/// A behaviour that reads a stat of another Blip, revealing it.
struct Peek;
impl Behaviour for Peek {
    fn name(&self) -> String {
        "PEEK".into()
    }
    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        let other = ctx.blips().into_iter().next().map(|(id, _)| id);
        if let Some(id) = other {
            ctx.reveal_for_stat(&id)?;
        }
        Ok(())
    }
}

#[test]
fn reading_a_blips_stat_reveals_it_as_an_overmind_reveal() {
    let mut w = world();
    w.content.add_behaviour("peek", Rc::new(Peek));
    let mut peeker = common::alien("peeker", 1, 4, &["peek"]);
    peeker.shoot = None;
    w.content.aliens.insert("peeker".into(), peeker);
    for (trigger, fires) in [(RevealTrigger::Always, true), (RevealTrigger::Never, false)] {
        let mut s = setup(
            &wall_map(),
            &[("T", "trooper", [0, 0])],
            &[
                ("P", [9, 0], unit("peeker", 1)),
                ("Q", [11, 5], unit("grunt", 1)),
            ],
        );
        s.rules.overmind_reveal_trigger = trigger;
        let mut g = start(&s, &w);
        let mut c = ctl(vec![]);
        to_overmind(&mut g, &w, &mut c);
        // Flip P under "always": its PEEK reveals Q by reading a stat.
        let ev = apply(&mut g, &w, &mut c, Action::Flip { unit: "P".into() });
        let r = revealed(&ev);
        if fires {
            assert_eq!(r[1], ("Q".to_string(), RevealCause::Stat, true), "{ev:#?}");
            assert!(
                w.ran.borrow().contains(&"Q".to_string()),
                "Q's behaviour ran"
            );
        } else {
            assert_eq!(
                r.len(),
                1,
                "P's own behaviour did not trigger, so nothing peeked"
            );
        }
    }
}
