//! docs/RULES.md §14.1 and §15.8: a Hazard token can be attacked by Melee or Shoot; two or more
//! damage in one attack, or one critical hit, destroys it and draws a Hazard card whose effect
//! applies. The event decks are shuffled with the game's RNG, drawn in that order, and replay
//! exactly.

use crate::common;
use common::*;
use overmind_core::card::{CardDef, CardTarget, Deck};
use overmind_core::dice::DieFaces;
use overmind_core::token::{Token, TokenClass, TokenKind};
use overmind_core::*;
use std::rc::Rc;

/// The world plus a hazard kind `mine` and Hazard cards `c1`..`cN`, each of which takes 1
/// Health from the drawing unit's first model (its effect).
fn hazard_world(cards: usize) -> World {
    let mut w = world();
    w.content.tokens.insert(
        "mine".into(),
        TokenKind {
            id: "mine".into(),
            name: "Mine".into(),
            class: TokenClass::Hazard,
            symbol: '!',
            text: String::new(),
        },
    );
    for i in 1..=cards {
        let id = format!("c{i}");
        w.content.cards.insert(
            id.clone(),
            CardDef {
                id: Id::from(&id),
                name: id.clone(),
                text: String::new(),
                deck: Deck::Hazard,
                target: CardTarget::None,
                copies: 1,
                play: Some(Rc::new(FnTrigger(Box::new(|ctx, m| {
                    let unit = m.unit.map(|u| u.to_string()).unwrap_or_default();
                    let model = ctx.models_of(&unit).first().map(|m| m.id.to_string());
                    match model {
                        Some(model) => ctx.deal_damage(&model, 1),
                        None => Ok(()),
                    }
                })))),
            },
        );
    }
    w
}

/// The trooper (Shoot 2 dice to 3 squares, Melee 2) at 2,2 on an open 12x6 map, mines laid
/// at `mines`, the Hazard deck dealt, `die` for every roll, `max_dice` dice at most.
fn scene(w: &World, mines: &[[i32; 2]], die: DieFaces, max_dice: u32, seed: u64) -> Game {
    let mut s = setup("", &[("T", "trooper", [2, 2])], &[]);
    s.map = MapBuilder::new(12, 6).build();
    s.rules.die = die;
    s.rules.max_dice = max_dice;
    s.objective = Objective::Survive;
    s.decks = vec![Deck::Hazard];
    let mut st = s.start(&w.content, seed).unwrap();
    for (i, p) in mines.iter().enumerate() {
        st.tokens.push(Token {
            id: Id::from(&format!("m{}", i + 1)),
            kind: Id::from("mine"),
            pos: Pos::from(*p),
            carried_by: None,
            symbol: '!',
        });
    }
    Game::new(st, "t", seed)
}

fn shoot(target: &str) -> Action {
    Action::Shoot {
        unit: "T".into(),
        target: target.into(),
    }
}

/// (destroyed, damage, crits) of each hazard attack, and the cards turned.
fn outcome(ev: &[Event]) -> (Vec<(bool, u32, u32)>, Vec<String>) {
    let attacks = ev
        .iter()
        .filter_map(|e| match e {
            Event::HazardAttack {
                destroyed,
                damage,
                crits,
                ..
            } => Some((*destroyed, *damage, *crits)),
            _ => None,
        })
        .collect();
    let cards = ev
        .iter()
        .filter_map(|e| match e {
            Event::CardTurned { card, deck, .. } if *deck == Deck::Hazard => Some(card.to_string()),
            _ => None,
        })
        .collect();
    (attacks, cards)
}

fn criticals() -> DieFaces {
    DieFaces {
        blank: 0,
        hit: 0,
        double_hit: 0,
        critical: 12,
        shield: 0,
        double_shield: 0,
    }
}

#[test]
fn two_damage_in_one_attack_destroy_a_hazard_and_its_card_applies() {
    let w = hazard_world(1);
    let mut g = scene(&w, &[[5, 2]], all_hits(), 5, 3);
    let ev = apply(&mut g, &w, &mut ctl(vec![]), shoot("m1"));
    let (attacks, cards) = outcome(&ev);
    assert_eq!(attacks, [(true, 2, 0)], "two dice, two hits: {ev:#?}");
    assert_eq!(cards, ["c1"]);
    assert!(g.state.tokens.is_empty(), "the token is destroyed");
    assert_eq!(
        g.state.find_model("T").unwrap().1.health,
        7,
        "the card's effect: the drawing unit loses 1 Health"
    );
    assert_eq!(
        g.state.cards.events[&Deck::Hazard].discard,
        [Id::from("c1")]
    );
}

#[test]
fn one_normal_damage_does_not_destroy_a_hazard() {
    let w = hazard_world(1);
    let mut g = scene(&w, &[[5, 2]], all_hits(), 1, 3);
    let ev = apply(&mut g, &w, &mut ctl(vec![]), shoot("m1"));
    let (attacks, cards) = outcome(&ev);
    assert_eq!(attacks, [(false, 1, 0)]);
    assert!(cards.is_empty());
    assert_eq!(g.state.tokens.len(), 1, "the hazard holds");
    assert_eq!(g.state.find_model("T").unwrap().1.health, 8);
}

#[test]
fn one_critical_hit_destroys_a_hazard_in_melee() {
    let w = hazard_world(1);
    let mut g = scene(&w, &[[3, 3]], criticals(), 1, 3);
    let ev = apply(
        &mut g,
        &w,
        &mut ctl(vec![]),
        Action::Melee {
            unit: "T".into(),
            target: "m1".into(),
        },
    );
    let (attacks, cards) = outcome(&ev);
    assert_eq!(attacks, [(true, 1, 1)]);
    assert_eq!(cards, ["c1"]);
    assert!(g.state.tokens.is_empty());
}

#[test]
fn hazard_attacks_are_listed_exactly_when_validation_accepts_them() {
    let w = hazard_world(1);
    // m1 in short range, m2 next to the trooper (Melee only), m3 beyond long range (8).
    let g = scene(&w, &[[5, 2], [3, 2], [11, 5]], all_hits(), 5, 3);
    let legal = g.legal_actions(&w.content);
    for (target, kind, listed) in [
        ("m1", "shoot", true),
        ("m1", "melee", false),
        ("m2", "melee", true),
        ("m2", "shoot", false),
        ("m3", "shoot", false),
        ("m3", "melee", false),
    ] {
        let a = if kind == "shoot" {
            shoot(target)
        } else {
            Action::Melee {
                unit: "T".into(),
                target: target.into(),
            }
        };
        let ok = g.validate(&w.content, &a).is_ok();
        assert_eq!(legal.contains(&a), ok, "{a:?}: listed iff accepted");
        assert_eq!(ok, listed, "{a:?}");
    }
    // Not a hazard: an unknown name is refused as before.
    assert!(g.validate(&w.content, &shoot("nothing")).is_err());
}

#[test]
fn event_decks_are_drawn_in_the_seeds_order_and_replay_identically() {
    let w = hazard_world(6);
    let mines: Vec<[i32; 2]> = (0..6).map(|i| [5, i]).collect();
    let play = |seed: u64| -> (Game, Vec<String>) {
        let mut g = scene(&w, &mines, all_hits(), 5, seed);
        let dealt: Vec<String> = g.state.cards.events[&Deck::Hazard]
            .draw
            .iter()
            .rev()
            .map(ToString::to_string)
            .collect();
        let mut c = ctl(vec![]);
        let mut turned = Vec::new();
        // One mine a round: the trooper shoots it and ends; the Overmind, with nothing, ends.
        for i in 0..3 {
            let ev = apply(&mut g, &w, &mut c, shoot(&format!("m{}", 2 * i + 1)));
            turned.extend(outcome(&ev).1);
            let ev = apply(&mut g, &w, &mut c, Action::End);
            turned.extend(outcome(&ev).1);
            while g.to_move() == Some(Side::Overmind) {
                apply(&mut g, &w, &mut c, Action::End);
            }
        }
        assert_eq!(turned, dealt[..3], "drawn from the top, in the dealt order");
        (g, dealt)
    };
    let (a, dealt_a) = play(11);
    let (_, dealt_again) = play(11);
    assert_eq!(dealt_a, dealt_again, "the same seed deals the same order");
    let orders: std::collections::BTreeSet<Vec<String>> = (0..8).map(|s| play(s).1).collect();
    assert!(orders.len() > 1, "the order comes from the seed");
    // A replay from the record gives the same events, card for card.
    let start = scene(&w, &mines, all_hits(), 5, 11).state;
    let b = Game::replay(start, "t", 11, &a.record, &w.content).expect("replays");
    assert_eq!(a.log, b.log);
    assert_eq!(a.state.cards, b.state.cards);
}

#[test]
fn the_heroes_view_hides_the_order_of_an_event_deck() {
    let w = hazard_world(3);
    let g = scene(&w, &[], all_hits(), 5, 3);
    let v = HeroesView::of(&g.state);
    let pile = &v.state().cards.events[&Deck::Hazard];
    assert_eq!(pile.draw.len(), 3);
    assert!(pile.draw.iter().all(|c| c.as_str() == "?"));
}
