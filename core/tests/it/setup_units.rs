//! A mission's starting position (docs/RULES.md §7.2) with what scenarios start from: Alien
//! Units already revealed, a Hero's Health, the Overmind's hand and Hidden Agenda. Each is
//! checked by `Setup::start` like the heroes and Blips: a unit stands on free squares of the
//! map, is of a loaded type and has an id of its own; a card is a loaded card of its deck.

use crate::common;

use common::*;
use overmind_core::card::{CardDef, CardTarget, Deck};
use overmind_core::*;

/// A corridor of 7 squares with a solid one at 2,0, and a room sealed off at 7,0.
const CORRIDOR: &str = "\
+-+-+-+-+-+-+-+-+
|. . # . . . .|.|
+-+-+-+-+-+-+-+-+
";

/// Hero `T` (trooper, Health 8) at 0,0 and a Decoy `B` out of sight in the room.
fn corridor() -> Setup {
    setup(
        CORRIDOR,
        &[("T", "trooper", [0, 0])],
        &[("B", [7, 0], decoy())],
    )
}

fn alien(id: &str, type_id: &str, at: &[[i32; 2]], health: Option<u32>) -> AlienSetup {
    AlienSetup {
        id: id.into(),
        type_id: type_id.into(),
        at: at.iter().map(|p| Pos::from(*p)).collect(),
        health,
    }
}

/// The world with a Mutation card `dud` and a Hidden Agenda `plan`.
fn with_cards() -> World {
    let mut w = world();
    for (id, deck) in [("dud", Deck::Mutation), ("plan", Deck::HiddenAgenda)] {
        w.content.cards.insert(
            id.into(),
            CardDef {
                id: id.into(),
                name: id.into(),
                text: String::new(),
                deck,
                target: CardTarget::None,
                copies: 2,
                play: None,
            },
        );
    }
    w
}

/// Every problem of starting `s`, as shown; panics if it starts.
fn refused(s: &Setup, w: &World) -> Vec<String> {
    match s.start(&w.content, 1) {
        Ok(_) => panic!("the setup started"),
        Err(es) => es.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_revealed_unit_starts_on_its_squares_with_its_types_health() {
    let w = world();
    let mut s = corridor();
    s.aliens = vec![
        alien("G", "grunt", &[[4, 0], [5, 0]], None),
        alien("H", "grunt", &[[6, 0]], Some(1)),
    ];
    let st = s.start(&w.content, 1).expect("valid setup");
    let g = st.unit("G").expect("G is on the map");
    assert_eq!(g.side, Side::Overmind);
    let models: Vec<(&str, Pos, u32, u32)> = g
        .models
        .iter()
        .map(|m| (m.id.as_str(), m.pos, m.health, m.max_health))
        .collect();
    assert_eq!(
        models,
        vec![("G.1", Pos::new(4, 0), 2, 2), ("G.2", Pos::new(5, 0), 2, 2)],
        "one model per square, named in order, each with the type's Health"
    );
    assert!(g.models.iter().all(|m| m.kind == "grunt"));
    let h = &st.unit("H").expect("H is on the map").models[0];
    assert_eq!(
        (h.health, h.max_health),
        (1, 2),
        "a Health given is less than the type's"
    );
    assert!(st.blip("B").is_some(), "the Blips are there too");
}

#[test]
fn a_unit_on_a_solid_taken_or_off_map_square_is_refused() {
    let w = world();
    let mut s = corridor();
    s.aliens = vec![
        alien("S", "grunt", &[[2, 0]], None),
        alien("T2", "grunt", &[[0, 0]], None),
        alien("Q", "grunt", &[[7, 0]], None),
        alien("O", "grunt", &[[3, 0], [9, 0]], None),
        alien("W", "grunt", &[[4, 0], [4, 0]], None),
        alien("X", "grunt", &[[5, 0], [3, 0]], None),
    ];
    assert_eq!(
        refused(&s, &w),
        vec![
            "unit S: model 1: 2,0 is a solid square",
            "unit T2: model 1: 0,0 is already taken",
            "unit Q: model 1: 7,0 is already taken",
            "unit O: model 2: 9,0 is outside the 8x1 map",
            "unit W: model 2: 4,0 is already taken",
            "unit X: model 2: 3,0 is already taken",
        ],
        "a hero's, a Blip's, its own and an earlier unit's squares are taken"
    );
}

#[test]
fn a_unit_of_an_unknown_type_too_many_models_or_too_much_health_is_refused() {
    let w = world();
    let mut s = corridor();
    s.aliens = vec![
        alien("N", "nope", &[[4, 0]], None),
        alien("M", "horror", &[[4, 0], [5, 0]], None),
        alien("E", "grunt", &[], None),
        alien("P", "grunt", &[[6, 0]], Some(3)),
        alien("Z", "grunt", &[[6, 0]], Some(0)),
    ];
    let shown = refused(&s, &w);
    assert!(
        shown[0].starts_with("unit N: no Alien Type named \"nope\"; the loaded packs define "),
        "{shown:?}"
    );
    assert_eq!(
        shown[1..],
        [
            "unit M: 2 models, expected 1 to 1 for horror",
            "unit E: 0 models, expected 1 to 3 for grunt",
            "unit P: health 3, expected 1 to 2 for grunt",
            "unit Z: health 0, expected 1 to 2 for grunt",
        ],
        "none of them is placed, so none takes 4,0 or 6,0 from another"
    );
}

#[test]
fn a_units_id_used_twice_or_too_long_is_refused() {
    let w = world();
    let mut s = corridor();
    s.aliens = vec![
        alien("T", "grunt", &[[3, 0]], None),
        alien("B", "grunt", &[[4, 0]], None),
        alien("G", "grunt", &[[5, 0]], None),
        alien("G", "grunt", &[[6, 0]], None),
        alien(&"g".repeat(28), "grunt", &[[6, 0]], None),
    ];
    let shown = refused(&s, &w);
    assert_eq!(
        shown,
        vec![
            "unit T: this id is used twice".to_string(),
            "unit B: this id is used twice".to_string(),
            "unit G: this id is used twice".to_string(),
            format!(
                "unit {}: this id is 28 bytes long: expected at most 27 (its models' ids add `.N`)",
                "g".repeat(28)
            ),
        ],
        "a hero's id, a Blip's and an earlier unit's"
    );
    // The problems say which entry and field they are about, for callers that place them.
    let Err(es) = s.start(&w.content, 1) else {
        panic!("the setup started")
    };
    assert!(matches!(
        &es[2],
        SetupError::Field {
            what: "unit",
            index: 3,
            field: "id",
            ..
        }
    ));
}

#[test]
fn a_revealed_unit_blocks_sight_at_the_start() {
    let w = world();
    let mut s = setup(
        "+-+-+-+-+-+-+\n|. . . . . .|\n+-+-+-+-+-+-+\n",
        &[("T", "trooper", [0, 0])],
        &[("B", [5, 0], decoy())],
    );
    assert_eq!(
        refused(&s, &w),
        vec!["blip B: starts at 5,0 in the Line of Sight of hero T at 0,0"]
    );
    s.aliens = vec![alien("G", "grunt", &[[2, 0]], None)];
    assert!(
        s.start(&w.content, 1).is_ok(),
        "the unit between them hides the Blip"
    );
}

#[test]
fn a_heros_health_is_given_from_1_to_its_profiles() {
    let w = world();
    let mut s = corridor();
    s.heroes[0].health = Some(3);
    let st = s.start(&w.content, 1).expect("valid setup");
    let t = &st.unit("T").expect("T").models[0];
    assert_eq!((t.health, t.max_health), (3, 8));
    for bad in [0, 9] {
        s.heroes[0].health = Some(bad);
        assert_eq!(
            refused(&s, &w),
            vec![format!(
                "hero T: health {bad}: expected 1 to 8 (the profile's health)"
            )]
        );
    }
}

#[test]
fn a_hand_given_is_the_overminds_hand_and_an_agenda_its_hidden_agenda() {
    let w = with_cards();
    let s = corridor();
    let st = s.start(&w.content, 1).expect("valid setup");
    assert!(!st.cards.has_hand(), "no deck, no hand");
    let mut s = corridor();
    s.hand = Some(vec!["dud".into(), "dud".into()]);
    s.agenda = Some("plan".into());
    let st = s.start(&w.content, 1).expect("valid setup");
    assert!(st.cards.has_hand(), "a hand given is a hand to play");
    assert_eq!(st.cards.hand, vec![Id::from("dud"), Id::from("dud")]);
    assert!(st.cards.draw.is_empty(), "the setup deals no Mutation deck");
    assert_eq!(st.cards.agenda, Some(Id::from("plan")));
    assert!(st.cards.decks.contains(&Deck::HiddenAgenda));
    assert!(st.cards.hidden_agenda(&Id::from("plan")), "face down");
    // With the decks dealt, the hand and the agenda are still the ones given.
    s.decks = vec![Deck::Mutation, Deck::HiddenAgenda];
    let st = s.start(&w.content, 1).expect("valid setup");
    assert_eq!(st.cards.hand, vec![Id::from("dud"), Id::from("dud")]);
    assert_eq!(st.cards.draw.len(), 2, "the dealt draw pile");
    assert_eq!(st.cards.agenda, Some(Id::from("plan")));
}

#[test]
fn a_card_of_the_wrong_deck_or_not_loaded_is_refused() {
    let w = with_cards();
    let mut s = corridor();
    s.hand = Some(vec!["dud".into(), "plan".into(), "nope".into()]);
    s.agenda = Some("dud".into());
    assert_eq!(
        refused(&s, &w),
        vec![
            "card \"plan\" is a hidden_agenda card, not a mutation one",
            "no mutation card \"nope\" is loaded",
            "card \"dud\" is a mutation card, not a hidden_agenda one",
        ]
    );
    let Err(es) = s.start(&w.content, 1) else {
        panic!("the setup started")
    };
    assert_eq!(
        es[0],
        SetupError::Card {
            slot: CardSlot::Hand(1),
            card: "plan".into(),
            deck: Some(Deck::HiddenAgenda),
        },
        "the problem says where the card is given"
    );
}

/// A setup written before aliens, hands and agendas reads as one with none.
#[test]
fn a_setup_without_the_new_fields_still_reads() {
    let s = corridor();
    let mut v = serde_json::to_value(&s).expect("serialises");
    let obj = v.as_object_mut().expect("an object");
    assert!(
        !obj.contains_key("aliens") && !obj.contains_key("hand") && !obj.contains_key("agenda"),
        "empty ones are not written"
    );
    obj["heroes"][0]
        .as_object_mut()
        .expect("a hero")
        .remove("health");
    let back: Setup = serde_json::from_value(v).expect("reads");
    assert_eq!(back, s);
}

/// A Blip is checked against every hero, then against the Blips before it; reusing a hero's
/// id is that one mistake, not a second one on its square.
#[test]
fn a_blip_on_a_heros_id_or_square_is_refused_once() {
    let w = world();
    let s = setup(
        CORRIDOR,
        &[("T", "trooper", [0, 0])],
        &[
            ("T", [0, 0], decoy()),
            ("C", [0, 0], decoy()),
            ("D", [0, 0], decoy()),
        ],
    );
    let checks = setup::Checks {
        sight: false,
        ..setup::Checks::default()
    };
    let Err(es) = s.start_checked(&w.content, 1, checks) else {
        panic!("the setup started")
    };
    let shown: Vec<String> = es.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        vec![
            "blip T: this id is used twice (hero T too)",
            // The hero T's square, then the Blip T's.
            "blip C: 0,0 is already taken by T",
            "blip C: 0,0 is already taken by T",
            "blip D: 0,0 is already taken by T",
            "blip D: 0,0 is already taken by T",
        ],
        "each Blip against the hero, then against the Blips before it"
    );
}
