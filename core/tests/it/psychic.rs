//! docs/RULES.md §6.8: a Psychic attack (an ability's) needs no Line of Sight and the target
//! rolls no Defence unless the ability lets it; on a face-down Blip it is a damage-triggered
//! reveal (§7.6): reveal, placement, the damage on the revealed unit, then its behaviour.

use crate::common;
use common::*;
use overmind_core::trigger::{Hook, Owner, TriggerDef};
use overmind_core::*;
use std::rc::Rc;

/// The trooper's ability: at the start of its activation, a Psychic attack with `cv` on
/// `target` (`defends`: the target may roll its Defence).
fn psy(w: &mut World, target: &'static str, cv: u32, defends: bool) {
    w.content.triggers.push(TriggerDef {
        source: "psy".into(),
        owner: Owner::Hero("trooper".into()),
        hook: Hook::ActivationStart,
        handler: Rc::new(FnTrigger(Box::new(move |ctx, m| {
            let unit = m.unit.map(|u| u.to_string()).unwrap_or_default();
            ctx.psychic_attack(&unit, target, cv, defends)
        }))),
    });
}

/// The trooper west of a closed wall (1,2), a grunt unit east of it (8,2) with Defence 3 and
/// Health 9; every die face a hit.
fn walled(w: &World) -> Game {
    let mut s = setup(&wall_map(), &[("T", "trooper", [1, 2])], &[]);
    s.rules.die = all_hits();
    let mut st = s.start(&w.content, 3).unwrap();
    push_alien(&mut st, "A", "grunt", &[[8, 2]], 9);
    Game::new(st, "t", 3)
}

fn tough_grunts() -> World {
    let mut w = world();
    if let Some(a) = w.content.aliens.get_mut("grunt") {
        a.defence = 3;
    }
    w
}

/// (kind, cv, dice, defence dice, damage) of each attack.
fn attacks(ev: &[Event]) -> Vec<(AttackKind, u32, u32, u32, u32)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Attack {
                kind,
                cv,
                dice,
                defence_dice,
                damage,
                ..
            } => Some((*kind, *cv, *dice, *defence_dice, *damage)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_psychic_attack_needs_no_line_of_sight_and_the_target_rolls_no_defence() {
    let mut w = tough_grunts();
    psy(&mut w, "A.1", 2, false);
    let mut g = walled(&w);
    let mut c = ctl(vec![]);
    // No Line of Sight through the wall: a Shoot is refused.
    let shoot = Action::Shoot {
        unit: "T".into(),
        target: "A.1".into(),
    };
    assert!(g
        .clone()
        .apply(shoot, &w.content, &mut ctl(vec![]))
        .is_err());
    let ev = apply(&mut g, &w, &mut c, mv("T", 1, 3));
    assert_eq!(
        attacks(&ev),
        [(AttackKind::Psychic, 2, 2, 0, 2)],
        "CV 2, no defence dice against Defence 3: {ev:#?}"
    );
    assert_eq!(g.state.find_model("A.1").unwrap().1.health, 7);
}

#[test]
fn a_psychic_attack_the_ability_lets_the_target_defend_rolls_its_defence() {
    let mut w = tough_grunts();
    psy(&mut w, "A.1", 2, true);
    let mut g = walled(&w);
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 1, 3));
    assert_eq!(attacks(&ev), [(AttackKind::Psychic, 2, 2, 3, 2)]);
}

#[test]
fn a_psychic_attack_on_a_blip_reveals_it_then_damages_the_unit_then_its_behaviour() {
    let mut w = world();
    psy(&mut w, "B", 1, false);
    let mut s = setup(
        &wall_map(),
        &[("T", "trooper", [1, 2])],
        &[("B", [8, 2], unit("grunt", 2))],
    );
    s.rules.die = all_hits();
    let mut g = start(&s, &w);
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 1, 3));
    assert_eq!(
        revealed(&ev),
        [("B".to_string(), RevealCause::Damage, true)],
        "a Hero's ability caused it: its behaviour follows"
    );
    let at = |f: &dyn Fn(&Event) -> bool| ev.iter().position(f).expect("present");
    let reveal = at(&|e| matches!(e, Event::BlipRevealed { .. }));
    let placed = at(&|e| matches!(e, Event::ModelsPlaced { .. }));
    let attack = at(&|e| matches!(e, Event::Attack { .. }));
    let behaviour = at(&|e| matches!(e, Event::BehaviourPerformed { .. }));
    assert!(
        reveal < placed && placed < attack && attack < behaviour,
        "{ev:#?}"
    );
    assert_eq!(attacks(&ev), [(AttackKind::Psychic, 1, 1, 0, 1)]);
    assert!(g.state.blip("B").is_none());
    let hurt: u32 = g
        .state
        .unit("B")
        .map(|u| u.models.iter().map(|m| m.max_health - m.health).sum())
        .unwrap_or(0);
    assert_eq!(hurt, 1, "the revealed unit takes the damage");
    assert_eq!(w.ran.borrow().as_slice(), ["B"]);
}

#[test]
fn a_psychic_attack_on_a_decoy_removes_it_and_rolls_nothing() {
    let mut w = world();
    psy(&mut w, "B", 1, false);
    let mut s = setup(
        &wall_map(),
        &[("T", "trooper", [1, 2])],
        &[("B", [8, 2], decoy())],
    );
    s.rules.die = all_hits();
    let mut g = start(&s, &w);
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 1, 3));
    assert_eq!(revealed(&ev).len(), 1);
    assert!(attacks(&ev).is_empty());
    assert!(g.state.blip("B").is_none());
}

#[test]
fn a_psychic_attack_refuses_its_own_side_and_the_overminds_own_blips() {
    let mut w = world();
    w.content.triggers.push(TriggerDef {
        source: "psy".into(),
        owner: Owner::Hero("trooper".into()),
        hook: Hook::ActivationStart,
        handler: Rc::new(FnTrigger(Box::new(|ctx, _| {
            let own = ctx.psychic_attack("T", "T", 1, false);
            let overmind_blip = ctx.psychic_attack("A", "B", 1, false);
            let zero = ctx.psychic_attack("T", "A.1", 0, false);
            for r in [own, overmind_blip, zero] {
                if r.is_ok() {
                    return Err(BehaviourError::new("accepted"));
                }
            }
            ctx.log("all refused");
            Ok(())
        }))),
    });
    let mut s = setup(
        &wall_map(),
        &[("T", "trooper", [1, 2])],
        &[("B", [10, 2], unit("grunt", 1))],
    );
    s.rules.die = all_hits();
    let mut st = s.start(&w.content, 3).unwrap();
    push_alien(&mut st, "A", "grunt", &[[8, 2]], 9);
    let mut g = Game::new(st, "t", 3);
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 1, 3));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Log { message, .. } if message == "all refused")),
        "{ev:#?}"
    );
    assert!(attacks(&ev).is_empty());
    assert!(g.state.blip("B").is_some());
}
