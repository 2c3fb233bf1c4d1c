//! docs/RULES.md §15: cards, decks, the Overmind's hand, Interruption and Hidden Agendas,
//! written from the rules — the hand is drawn up to its size at the start of the Overmind phase,
//! shuffled from the seed; only the Overmind plays and discards, in its phase or when it
//! interrupts; the interruption is offered after each Hero activation whatever the cards; the
//! Heroes' view and the events never name a card before it is played or revealed.

use crate::common;

use common::*;
use overmind_core::card::{CardDef, CardTarget, Deck};
use overmind_core::interrupt::Interrupt;
use overmind_core::trigger::{Hook, Owner, Trigger, TriggerDef};
use overmind_core::*;
use std::rc::Rc;

fn card(
    w: &mut World,
    id: &str,
    deck: Deck,
    target: CardTarget,
    copies: u32,
    play: Option<Box<Body>>,
) {
    w.content.cards.insert(
        id.into(),
        CardDef {
            id: id.into(),
            name: format!("Card {id}"),
            text: String::new(),
            deck,
            target,
            copies,
            play: play.map(|b| Rc::new(FnTrigger(b)) as Rc<dyn Trigger>),
        },
    );
}

/// A Mutation card `dud` that does nothing, 3 copies.
fn dud(w: &mut World) {
    card(
        w,
        "dud",
        Deck::Mutation,
        CardTarget::None,
        3,
        Some(Box::new(|_, _| Ok(()))),
    );
}

/// A Hidden Agenda `idle` that never acts (a game dealing both decks needs one).
fn idle_agenda(w: &mut World) {
    card(w, "idle", Deck::HiddenAgenda, CardTarget::None, 1, None);
}

/// Game `seed` of [`card_game`] once the Heroes have ended their first phase: the Overmind's
/// phase, its hand drawn.
fn in_overmind_phase(w: &World, seed: u64, c: &mut Controllers) -> Game {
    let mut g = card_game(w, seed);
    apply(&mut g, w, c, Action::End);
    assert_eq!(g.state.phase, state::Phase::Overmind);
    g
}

/// Two Mutation cards: `bite` (a Hero loses 1 Health) and `dud` (does nothing), 3 copies each;
/// one Hidden Agenda `plan` whose `victory_check` wins once the log of the script says so.
fn card_world() -> World {
    let mut w = world();
    card(
        &mut w,
        "bite",
        Deck::Mutation,
        CardTarget::Hero,
        3,
        Some(Box::new(|ctx, m| {
            let unit = m.unit.expect("a target");
            ctx.deal_damage(unit.as_str(), 1)
        })),
    );
    dud(&mut w);
    card(
        &mut w,
        "plan",
        Deck::HiddenAgenda,
        CardTarget::None,
        1,
        None,
    );
    w.content.triggers.push(TriggerDef {
        source: "plan".into(),
        owner: Owner::Card("plan".into()),
        hook: Hook::RoundEnd,
        handler: Rc::new(FnTrigger(Box::new(|ctx, m| {
            if m.round >= 2 {
                ctx.declare_winner(Side::Overmind, "the plan worked");
            }
            Ok(())
        }))),
    });
    w
}

/// Three Heroes west of the wall, a Blip east of it; the mission deals both decks.
fn card_game(w: &World, seed: u64) -> Game {
    let mut s = setup(
        &wall_map(),
        &[
            ("T", "trooper", [0, 0]),
            ("U", "trooper", [0, 2]),
            ("V", "trooper", [0, 4]),
        ],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    s.decks = vec![Deck::Mutation, Deck::HiddenAgenda];
    // The whole hand at once: every test starts from a full hand.
    s.rules.hand_draw = 5;
    let st = s.start(&w.content, seed).expect("valid setup");
    Game::new(st, "cards", seed)
}

fn drawn(ev: &[Event]) -> Vec<(u32, u32)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::CardDrawn { cards, hand, .. } => Some((*cards, *hand)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_decks_are_built_from_the_cards_and_shuffled_by_the_seed() {
    let w = card_world();
    let g = card_game(&w, 1);
    let mut pile: Vec<String> = g.state.cards.draw.iter().map(|c| c.to_string()).collect();
    assert_eq!(pile.len(), 6, "every Mutation card, `copies` times");
    assert_eq!(
        g.state.cards.agenda.map(|a| a.to_string()).as_deref(),
        Some("plan")
    );
    assert!(
        g.state.cards.hand.is_empty(),
        "no card before the first Overmind phase"
    );
    assert_eq!(
        card_game(&w, 1).state.cards,
        g.state.cards,
        "the same seed, the same deck"
    );
    let orders: std::collections::BTreeSet<Vec<Id>> =
        (0..20).map(|s| card_game(&w, s).state.cards.draw).collect();
    assert!(orders.len() > 1, "other seeds shuffle otherwise");
    pile.sort();
    assert_eq!(pile, ["bite", "bite", "bite", "dud", "dud", "dud"]);
}

#[test]
fn a_mission_dealing_a_deck_no_card_is_of_is_refused() {
    let w = world();
    let mut s = setup(
        &wall_map(),
        &[("T", "trooper", [0, 0])],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    s.decks = vec![Deck::Mutation];
    let e = s
        .start(&w.content, 1)
        .expect_err("no mutation card is loaded");
    assert!(
        e.iter().any(|e| e.to_string().contains("mutation deck")),
        "{e:?}"
    );
}

#[test]
fn the_overmind_draws_up_to_its_hand_size_at_the_start_of_its_phase_and_the_heroes_see_counts() {
    let w = card_world();
    let mut g = card_game(&w, 3);
    let mut c = ctl(vec![]);
    let ev = apply(&mut g, &w, &mut c, Action::End);
    assert_eq!(g.to_move(), Some(Side::Overmind));
    assert_eq!(
        drawn(&ev),
        [(5, 5)],
        "drawn up to hand_size (5), the count said"
    );
    assert_eq!(g.state.cards.hand.len(), 5);
    let text = serde_json::to_string(&ev).expect("events serialise");
    for id in ["bite", "dud", "plan"] {
        assert!(!text.contains(id), "no event names a card: {text}");
    }
    let view = HeroesView::of(&g.state);
    assert_eq!(view.cards.hand.len(), 5, "the count is public");
    assert!(view.cards.hand.iter().all(|c| c.as_str() == "?"));
    assert!(view.cards.draw.iter().all(|c| c.as_str() == "?"));
    assert_eq!(
        view.cards.agenda.map(|a| a.to_string()).as_deref(),
        Some("?")
    );
    let shown = serde_json::to_string(view.state()).expect("view serialises");
    for id in ["bite", "dud", "plan"] {
        assert!(
            !shown.contains(id),
            "the Heroes' view names no card: {shown}"
        );
    }
}

#[test]
fn only_the_overmind_plays_in_its_phase_a_card_it_holds_on_the_target_it_names() {
    let w = card_world();
    let mut g = card_game(&w, 3);
    let mut c = ctl(vec![]);
    let play = |card: &str, target: Option<&str>| Action::Play {
        card: card.into(),
        target: target.map(Id::from),
        at: None,
    };
    let e = g
        .validate(&w.content, &play("bite", Some("T")))
        .expect_err("Heroes' phase");
    assert_eq!(
        e.message, "only the Overmind plays cards",
        "nothing about its hand"
    );
    apply(&mut g, &w, &mut c, Action::End);
    let held: Vec<String> = g.state.cards.hand.iter().map(|c| c.to_string()).collect();
    let other = if held.contains(&"bite".to_string()) {
        "bite"
    } else {
        "dud"
    };
    let missing = ["bite", "dud"]
        .into_iter()
        .find(|c| !held.iter().any(|h| h == c));
    if let Some(m) = missing {
        assert!(
            g.validate(&w.content, &play(m, Some("T"))).is_err(),
            "not in the hand"
        );
    }
    if other == "bite" {
        assert!(
            g.validate(&w.content, &play("bite", None)).is_err(),
            "bite names a Hero"
        );
        assert!(
            g.validate(&w.content, &play("bite", Some("B"))).is_err(),
            "a Blip is no Hero"
        );
        let before = g.state.clone();
        assert!(g.validate(&w.content, &play("bite", Some("T"))).is_ok());
        assert_eq!(g.state, before, "validation plays nothing");
        let ev = apply(&mut g, &w, &mut c, play("bite", Some("T")));
        assert!(
            matches!(&ev[0], Event::CardPlayed { card, target: Some(t), hand: 4, .. }
            if card.as_str() == "bite" && t.as_str() == "T")
        );
        assert_eq!(g.state.find_model("T").map(|(_, m)| m.health), Some(7));
        assert_eq!(g.state.cards.hand.len(), 4);
        assert_eq!(
            g.state.cards.discard.len(),
            1,
            "a card without hooks is spent"
        );
    }
    let d = g.state.cards.hand[0];
    let ev = apply(&mut g, &w, &mut c, Action::Discard { card: d });
    assert!(
        matches!(ev.as_slice(), [Event::CardDiscarded { cards: 1, .. }]),
        "a discard is face down: {ev:?}"
    );
}

#[test]
fn the_interruption_is_offered_after_each_hero_activation_and_declining_shows_nothing() {
    let w = card_world();
    let mut g = card_game(&w, 3);
    let mut c = ctl(vec![]);
    // Round 1: no cards in the Hero phase, so no offer.
    apply(&mut g, &w, &mut c, mv("T", 1, 0));
    apply(&mut g, &w, &mut c, Action::End);
    assert_eq!(g.to_move(), Some(Side::Heroes), "no cards, no offer");
    to_overmind(&mut g, &w, &mut c);
    apply(&mut g, &w, &mut c, Action::End);
    assert_eq!(g.state.round, 2);
    // Round 2: the Overmind holds 5; after T's activation it is offered.
    apply(&mut g, &w, &mut c, mv("T", 2, 0));
    let ev = apply(&mut g, &w, &mut c, Action::End);
    assert_eq!(g.state.interrupt, Some(Interrupt::Offered));
    assert_eq!(
        g.to_move(),
        Some(Side::Overmind),
        "the game waits for the Overmind"
    );
    assert!(!ev.iter().any(|e| matches!(e, Event::Interrupted { .. })));
    let legal = g.legal_actions(&w.content);
    assert!(
        legal
            .iter()
            .all(|a| matches!(a, Action::Interrupt { .. } | Action::End)),
        "{legal:?}"
    );
    assert!(g
        .validate(&w.content, &Action::Flip { unit: "B".into() })
        .is_err());
    let ev = apply(&mut g, &w, &mut c, Action::End);
    assert!(ev.is_empty(), "declining shows the Heroes nothing: {ev:?}");
    assert_eq!(g.to_move(), Some(Side::Heroes));
    // A Hero's activation ends before another's starts, so the offer comes between them.
    apply(&mut g, &w, &mut c, mv("U", 1, 2));
    let e = g
        .validate(&w.content, &mv("V", 1, 4))
        .expect_err("U is activating");
    assert!(e.message.contains("end U's activation first"), "{e}");
}

#[test]
fn interrupting_discards_two_and_the_overmind_activates_one_unit_then_the_heroes_go_on() {
    let w = card_world();
    let mut g = card_game(&w, 3);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    apply(&mut g, &w, &mut c, Action::End);
    apply(&mut g, &w, &mut c, mv("T", 2, 0));
    apply(&mut g, &w, &mut c, Action::End);
    let two = vec![g.state.cards.hand[0], g.state.cards.hand[1]];
    assert!(
        g.validate(
            &w.content,
            &Action::Interrupt {
                discard: two[..1].to_vec()
            }
        )
        .is_err(),
        "it takes 2"
    );
    let ev = apply(&mut g, &w, &mut c, Action::Interrupt { discard: two });
    assert!(
        matches!(
            ev.as_slice(),
            [Event::Interrupted {
                discarded: 2,
                hand: 3
            }]
        ),
        "{ev:?}"
    );
    assert_eq!(g.to_move(), Some(Side::Overmind));
    // One activation: the Blip moves, and that is its activation for the round.
    apply(&mut g, &w, &mut c, mv("B", 10, 1));
    let ev = apply(&mut g, &w, &mut c, Action::End);
    assert!(
        ev.iter().any(|e| matches!(e, Event::InterruptEnded)),
        "{ev:?}"
    );
    assert_eq!(g.to_move(), Some(Side::Heroes), "the Heroes go on");
    assert_eq!(g.state.phase, Phase::Heroes);
    assert!(
        g.state.blip("B").is_some_and(|b| b.activated),
        "B has activated this round"
    );
}

/// An interruption's activation (docs/RULES.md §15.4) is spent by the `standard` AI on an Alien
/// Unit that can attack a Hero now; with none that can, it lets the Heroes go on and keeps its
/// units for its own phase. `greedy`, the reference, only ever plays cards when interrupting.
#[test]
fn interrupting_the_standard_overmind_attacks_with_a_unit_that_can() {
    let mut w = card_world();
    dud(&mut w);
    let mut g = card_game(&w, 3);
    let acting = |g: &mut Game, at: [i32; 2]| {
        let mut st = g.state.clone();
        st.phase = Phase::Heroes;
        st.active = None;
        st.interrupt = Some(Interrupt::Acting { unit: None });
        st.cards.hand = vec![Id::from("dud"); 3];
        push_alien(&mut st, "G", "grunt", &[at], 1);
        st
    };
    let choose = |st: &state::GameState, level| {
        ai::player(Side::Overmind, level).next_action(View::Overmind(st), &w.content)
    };
    // Next to Hero T at 0,0.
    let near = acting(&mut g, [1, 0]);
    let standard = choose(&near, ai::Level::Standard);
    assert!(
        matches!(&standard, Action::Melee { unit, .. } if unit.as_str() == "G"),
        "the grunt attacks: {standard:?}"
    );
    assert_eq!(choose(&near, ai::Level::Greedy), Action::End);
    // Far from every Hero: nothing to attack now.
    let far = acting(&mut g, [8, 4]);
    assert_eq!(choose(&far, ai::Level::Standard), Action::End);
    // The attack is legal as the AI gives it, and it is the interruption's one activation.
    g.state = near;
    let mut c = ctl(vec![]);
    apply(&mut g, &w, &mut c, standard);
    assert_eq!(
        g.state.interrupt,
        Some(Interrupt::Acting {
            unit: Some(Id::from("G"))
        })
    );
}

#[test]
fn a_hidden_agenda_is_turned_up_when_it_acts_and_wins_for_the_overmind() {
    let w = card_world();
    let mut g = card_game(&w, 3);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    let ev = apply(&mut g, &w, &mut c, Action::End);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::CardRevealed { .. })),
        "round 1: it waits"
    );
    assert!(!g.state.cards.agenda_revealed);
    // Round 2: the Heroes pass (declining every offer), and so does the Overmind.
    while g.state.round == 2 && !g.state.is_over() {
        apply(&mut g, &w, &mut c, Action::End);
    }
    let tail: Vec<&Event> = g.log.iter().rev().take(3).collect();
    assert!(
        matches!(
            tail[0],
            Event::GameOver {
                winner: Side::Overmind,
                ..
            }
        ),
        "{tail:?}"
    );
    assert!(
        g.log
            .iter()
            .any(|e| matches!(e, Event::CardRevealed { card, .. } if card.as_str() == "plan")),
        "the agenda is revealed before it wins"
    );
    let view = HeroesView::of(&g.state);
    assert_eq!(
        view.cards.agenda.map(|a| a.to_string()).as_deref(),
        Some("plan")
    );
}

#[test]
fn a_card_game_replays_exactly_from_its_seed_and_inputs() {
    let w = card_world();
    let mut g = card_game(&w, 5);
    overmind_core::ai::play_ai_game(&mut g, &w.content, 3000);
    assert!(g.state.is_over());
    let start = card_game(&w, 5).state;
    let r = Game::replay(start, "cards", 5, &g.record, &w.content).expect("replays");
    assert_eq!(r.log, g.log);
    assert_eq!(r.state, g.state);
}

#[test]
fn each_overmind_phase_draws_hand_draw_cards_and_never_more_than_hand_size() {
    let w = card_world();
    let mut s = setup(
        &wall_map(),
        &[("T", "trooper", [0, 0])],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    s.decks = vec![Deck::Mutation];
    s.rules.hand_draw = 2;
    s.rules.hand_size = 3;
    let st = s.start(&w.content, 2).expect("valid setup");
    let mut g = Game::new(st, "cards", 2);
    let mut c = ctl(vec![]);
    let mut seen = Vec::new();
    for _ in 0..3 {
        to_overmind(&mut g, &w, &mut c);
        seen.push(g.state.cards.hand.len());
        apply(&mut g, &w, &mut c, Action::End);
    }
    assert_eq!(seen, [2, 3, 3], "2 a phase, at most 3 held");
}

/// The levels' card rules (docs/RULES.md §15 "The AI"): a play that gains a little — a Hero
/// Knocked Down, worth less than a point of Health — is made by the `standard` Overmind, which
/// plays whatever gains, and not by `greedy`, which plays a card only for a large gain; a card
/// that gains nothing is played by neither.
#[test]
fn the_standard_overmind_plays_a_small_gain_that_greedy_leaves() {
    let mut w = world();
    card(
        &mut w,
        "trip",
        Deck::Mutation,
        CardTarget::Hero,
        3,
        Some(Box::new(|ctx, m| {
            let unit = m.unit.expect("a target");
            ctx.set_status(unit.as_str(), state::StatusName::KnockedDown, true)
        })),
    );
    dud(&mut w);
    // The game deals a Hidden Agenda too: one that never acts.
    idle_agenda(&mut w);
    let mut c = ctl(vec![]);
    let mut saw_trip = false;
    for seed in 0..6 {
        let g = in_overmind_phase(&w, seed, &mut c);
        let holds_trip = g.state.cards.hand.iter().any(|c| c.as_str() == "trip");
        saw_trip |= holds_trip;
        let choose = |level| {
            ai::player(Side::Overmind, level).next_action(View::Overmind(&g.state), &w.content)
        };
        let standard = choose(ai::Level::Standard);
        let greedy = choose(ai::Level::Greedy);
        assert!(
            !matches!(greedy, Action::Play { .. }),
            "seed {seed}: greedy plays only for a gain of 10: {greedy:?}"
        );
        if holds_trip {
            assert!(
                matches!(&standard, Action::Play { card, target: Some(_), .. } if card.as_str() == "trip"),
                "seed {seed}: standard trips a Hero: {standard:?}"
            );
        }
        // With only duds in hand, no level plays.
        let mut duds = g.state.clone();
        let n = duds.cards.hand.len();
        duds.cards.hand = vec![Id::from("dud"); n];
        let standard = ai::player(Side::Overmind, ai::Level::Standard)
            .next_action(View::Overmind(&duds), &w.content);
        assert!(
            !matches!(standard, Action::Play { .. }),
            "seed {seed}: a dud gains nothing: {standard:?}"
        );
    }
    assert!(saw_trip, "some seed deals the trip card");
}

/// A card that targets a square is played by the AI too (docs/RULES.md §15.7 "The AI"): weighed
/// on the squares where a card can matter, it lands on a Hero's square when that is where it
/// hurts; on an empty square it does nothing and is not played there.
#[test]
fn the_standard_overmind_plays_a_square_card_where_it_gains() {
    let mut w = world();
    card(
        &mut w,
        "mortar",
        Deck::Mutation,
        CardTarget::Square,
        6,
        Some(Box::new(|ctx, m| {
            let at = m.at.expect("a square");
            let hit = ctx
                .state()
                .units
                .iter()
                .find(|u| u.side == Side::Heroes && u.models.iter().any(|x| x.pos == at))
                .map(|u| u.id);
            match hit {
                Some(unit) => ctx.deal_damage(unit.as_str(), 2),
                None => Ok(()),
            }
        })),
    );
    idle_agenda(&mut w);
    let mut c = ctl(vec![]);
    let mut g = in_overmind_phase(&w, 0, &mut c);
    assert!(g.state.cards.hand.iter().all(|c| c.as_str() == "mortar"));
    let heroes: Vec<Pos> = g.state.hero_models().map(|m| m.pos).collect();
    let action = ai::player(Side::Overmind, ai::Level::Standard)
        .next_action(View::Overmind(&g.state), &w.content);
    match &action {
        Action::Play {
            card,
            target: None,
            at: Some(p),
        } => {
            assert_eq!(card.as_str(), "mortar");
            assert!(heroes.contains(p), "on a Hero's square {heroes:?}: {p:?}");
        }
        other => panic!("the standard Overmind plays the mortar: {other:?}"),
    }
    // The play is legal as the AI gives it, and hurts the Hero there.
    let events = apply(&mut g, &w, &mut c, action);
    assert!(
        events.iter().any(|e| matches!(e, Event::Damage { .. })),
        "{events:#?}"
    );
}

/// `legal_card_actions` (what the card AI weighs) is exactly the card part (plays, discards,
/// interruptions) of the legal actions a host lists: in the Heroes' phase (none), at the start
/// of the Overmind's and after a play.
#[test]
fn the_legal_card_actions_are_the_card_part_of_the_legal_actions() {
    let w = card_world();
    let mut c = ctl(vec![]);
    let card_part = |g: &Game| -> Vec<Action> {
        g.legal_actions(&w.content)
            .into_iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::Play { .. } | Action::Discard { .. } | Action::Interrupt { .. }
                )
            })
            .collect()
    };
    for seed in 0..4 {
        let mut g = card_game(&w, seed);
        assert!(
            g.legal_card_actions(&w.content).is_empty(),
            "the Heroes play no card"
        );
        apply(&mut g, &w, &mut c, Action::End);
        let cards = g.legal_card_actions(&w.content);
        assert!(!cards.is_empty(), "seed {seed}: a full hand to play");
        assert_eq!(cards, card_part(&g), "seed {seed}");
        let first = cards[0].clone();
        apply(&mut g, &w, &mut c, first);
        assert_eq!(
            g.legal_card_actions(&w.content),
            card_part(&g),
            "seed {seed}"
        );
    }
}
