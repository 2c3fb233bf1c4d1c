//! The Overmind's hand and Hidden Agenda never reach the Heroes (docs/RULES.md §15.5): over many
//! seeded AI-against-AI games of the demo mission (which deals the base pack's cards), no event,
//! no Heroes' view of the state and no Heroes' legal action names a card (its id or its name)
//! the Overmind holds, has discarded or has face down, before that card is played or revealed;
//! and the games do use cards (plays, and interruptions).

use overmind_core::ai::{ai_step, AiController, Level};
use overmind_core::{Controllers, Event, Game, HeroesView, Side};
use overmind_scripting::pack::PackSet;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn base_set() -> PackSet {
    let base = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../behaviours"));
    match PackSet::load(&[base]) {
        Ok(set) => set,
        Err(ps) => panic!("the base pack does not load: {ps:?}"),
    }
}

/// Every string anywhere inside `v`.
fn strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(s) => out.push(s),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// The card (by id) that a string names, if any: its id or its name.
fn names_card<'a>(s: &str, cards: &'a [(String, String)]) -> Option<&'a str> {
    cards
        .iter()
        .find(|(id, name)| s == id || s == name)
        .map(|(id, _)| id.as_str())
}

/// Assert nothing in `v` names a card not yet public.
fn assert_public(v: &Value, public: &BTreeSet<String>, cards: &[(String, String)], what: &str) {
    let mut all = Vec::new();
    strings(v, &mut all);
    for s in all {
        if let Some(id) = names_card(s, cards) {
            assert!(
                public.contains(id),
                "{what}: names card {id} before it was played or revealed: {v}"
            );
        }
    }
}

#[test]
fn hands_and_agendas_never_reach_the_heroes() {
    let set = base_set();
    let content = &set.content;
    let cards: Vec<(String, String)> = content
        .cards
        .values()
        .map(|c| (c.id.to_string(), c.name.clone()))
        .collect();
    assert!(cards.len() >= 6, "the base pack has its cards");
    let (mut plays, mut interrupts, mut shown_hands) = (0, 0, 0);
    for seed in 0..50u64 {
        let mut game: Game = match set.start("demo", seed) {
            Ok(g) => g,
            Err(ps) => panic!("demo does not start: {ps:?}"),
        };
        assert!(game.state.cards.agenda.is_some(), "demo deals an agenda");
        // The game's own hand (5, drawing 2), not the demo's smaller one: more held cards to
        // leak, and enough of them for the Overmind to interrupt.
        let mut rules = (*game.state.rules).clone();
        rules.hand_size = overmind_core::Rules::default().hand_size;
        rules.hand_draw = overmind_core::Rules::default().hand_draw;
        game.state.rules = std::sync::Arc::new(rules);
        let mut public: BTreeSet<String> = BTreeSet::new();
        let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
        let mut heroes = overmind_core::ai::player(Side::Heroes, Level::Greedy);
        let mut overmind = overmind_core::ai::player(Side::Overmind, Level::Greedy);
        for e in &game.log {
            let v = serde_json::to_value(e).unwrap_or(Value::Null);
            assert_public(&v, &public, &cards, &format!("seed {seed}, start"));
        }
        for step in 0..3000 {
            let what = format!("seed {seed}, step {step}");
            // What the Heroes see before each action: their view and, on their turn, their
            // legal actions.
            let view = HeroesView::of(&game.state);
            let state = serde_json::to_value(view.state()).unwrap_or(Value::Null);
            assert_public(&state, &public, &cards, &format!("{what}: Heroes' view"));
            if view.state().cards.hand.iter().any(|c| c.as_str() == "?") {
                shown_hands += 1;
            }
            if game.to_move() == Some(Side::Heroes) {
                let legal = game.legal_actions(content);
                let legal = serde_json::to_value(&legal).unwrap_or(Value::Null);
                assert_public(
                    &legal,
                    &public,
                    &cards,
                    &format!("{what}: Heroes' legal actions"),
                );
            }
            let before = game.log.len();
            if !ai_step(
                &mut game,
                content,
                &mut ctl,
                heroes.as_mut(),
                overmind.as_mut(),
            ) {
                break;
            }
            for e in &game.log[before..] {
                match e {
                    Event::CardPlayed { card, .. } => {
                        plays += 1;
                        public.insert(card.to_string());
                    }
                    Event::CardRevealed { card, .. } => {
                        public.insert(card.to_string());
                    }
                    Event::Interrupted { .. } => interrupts += 1,
                    _ => {}
                }
                let v = serde_json::to_value(e).unwrap_or(Value::Null);
                assert_public(&v, &public, &cards, &format!("{what}: event"));
            }
        }
    }
    assert!(plays > 50, "AI games play cards: {plays} plays");
    assert!(interrupts > 0, "the AI interrupts the Hero phase at times");
    assert!(
        shown_hands > 0,
        "the Heroes' view shows the hand as hidden cards"
    );
}
