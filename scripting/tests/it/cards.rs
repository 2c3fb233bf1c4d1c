//! docs/RULES.md §15 in Lua: `card { ... }` loaded from a pack's `cards/`, checked by `check`
//! (unknown fields with "did you mean", a bad deck, a card that cannot act), played from the
//! Overmind's hand like a hook runs (its failure logged at its line, what it did standing), and
//! hot-reloaded in place: the next play runs the new code.

use overmind_core::card::Deck;
use overmind_core::{
    Action, Controllers, Event, FirstOption, Game, HeroSetup, MapBuilder, Model, Objective, Pos,
    Rules, Scripted, Setup, Side, Unit,
};
use overmind_scripting::pack::{Kind, PackSet, Reload};

use crate::common::temp_pack::Pack;
use std::fs;

const HERO: &str = r#"id = "trooper"
name = "Trooper"
health = 8
movement = 4
dial = [{ from = 1, melee = 2, defence = 1 }]
"#;

/// Takes `N` Health from the Hero it is played on.
const STING: &str = r#"return card {
  id = "sting",
  name = "Sting",
  text = "The Hero loses 1 Health.",
  deck = "mutation",
  target = "hero",
  copies = 2,
  play = function(game, ctx)
    game:damage(ctx.unit:models()[1], 1)
  end,
}
"#;

/// An open board, Hero T, the Mutation deck dealt; the Overmind holds `hand`, in its phase.
fn overmind_phase(set: &PackSet, hand: &[&str]) -> Game {
    let setup = Setup {
        name: "t".into(),
        map: MapBuilder::new(8, 4).build(),
        rules: Rules {
            decoys: 0,
            ..set.rules.clone()
        },
        heroes: vec![HeroSetup {
            id: "T".into(),
            profile: "trooper".into(),
            at: Pos::new(0, 0),
            health: None,
        }],
        blips: vec![],
        pool: vec![],
        decoys: Some(0),
        objective: Objective::Survive,
        max_rounds: Some(10),
        tokens: Vec::new(),
        decks: vec![Deck::Mutation],
        aliens: Vec::new(),
        hand: None,
        agenda: None,
        deployment: Default::default(),
        squad: Vec::new(),
    };
    let mut g = match setup.start(&set.content, 5) {
        Ok(st) => Game::new(st, "t", 5),
        Err(es) => panic!("test setup: {es:?}"),
    };
    g.state.cards.draw.clear();
    g.state.cards.hand = hand.iter().map(|c| (*c).into()).collect();
    // An Alien Unit yet to activate keeps the Overmind phase going.
    g.state.units.push(Unit {
        id: "A".into(),
        side: Side::Overmind,
        models: vec![Model {
            id: "A.1".into(),
            kind: "ghost".into(),
            pos: Pos::new(7, 3),
            health: 1,
            max_health: 1,
            status: Default::default(),
            xxl: false,
        }],
        activated: false,
        used: vec![],
        overwatch: None,
        xp: 0,
        from_blip: None,
        extracted: false,
    });
    g.state.moved();
    act(&mut g, set, Action::End);
    assert_eq!(g.to_move(), Some(Side::Overmind));
    g
}

fn act(g: &mut Game, set: &PackSet, a: Action) -> Vec<Event> {
    let mut ctl = Controllers::new(Box::new(FirstOption), Box::new(Scripted::new([])));
    match g.apply(a.clone(), &set.content, &mut ctl) {
        Ok(ev) => ev,
        Err(e) => panic!("{a:?} refused: {e}"),
    }
}

fn play(card: &str) -> Action {
    Action::Play {
        card: card.into(),
        target: Some("T".into()),
        at: None,
    }
}

fn health(g: &Game) -> u32 {
    g.state.find_model("T").map_or(0, |(_, m)| m.health)
}

#[test]
fn a_card_loads_with_its_deck_target_and_copies() {
    let pack = Pack::new(&[("heroes/trooper.toml", HERO)]);
    pack.write("cards/sting.lua", STING);
    let set = pack.load();
    let c = set.content.cards.get("sting").expect("loaded");
    assert_eq!(
        (c.deck, c.copies, c.play.is_some()),
        (Deck::Mutation, 2, true)
    );
}

#[test]
fn check_reports_unknown_fields_bad_decks_and_cards_that_cannot_act_at_their_lines() {
    let pack = Pack::new(&[("heroes/trooper.toml", HERO)]);
    pack.write(
        "cards/typo.lua",
        &STING.replace("  copies = 2,", "  copeis = 2,"),
    );
    pack.write(
        "cards/deck.lua",
        &STING
            .replace("\"sting\"", "\"deck\"")
            .replace("deck = \"mutation\"", "deck = \"mutations\""),
    );
    pack.write(
        "cards/idle.lua",
        "return card {\n  id = \"idle\",\n  name = \"Idle\",\n  text = \"t\",\n  deck = \"mutation\",\n}\n",
    );
    pack.write(
        "cards/agenda.lua",
        &STING
            .replace("\"sting\"", "\"agenda\"")
            .replace("deck = \"mutation\"", "deck = \"hidden_agenda\""),
    );
    let shown: Vec<String> = pack.problems().iter().map(ToString::to_string).collect();
    let has = |file: &str, line: usize, text: &str| {
        assert!(
            shown
                .iter()
                .any(|p| p.contains(&format!("{file}:{line}:")) && p.contains(text)),
            "{file}:{line}: {text}\n{shown:#?}"
        );
    };
    has(
        "typo.lua",
        7,
        "unknown field 'copeis' (did you mean copies?)",
    );
    has("deck.lua", 5, "mutations");
    has("idle.lua", 1, "does nothing without `play");
    has("agenda.lua", 8, "never played");
}

#[test]
fn a_played_cards_error_is_logged_at_its_line_and_what_it_did_before_stands() {
    let pack = Pack::new(&[("heroes/trooper.toml", HERO)]);
    pack.write(
        "cards/sting.lua",
        &STING.replace(
            "    game:damage(ctx.unit:models()[1], 1)\n",
            "    game:damage(ctx.unit:models()[1], 1)\n    error(\"the sting broke\")\n",
        ),
    );
    let set = pack.load();
    let mut g = overmind_phase(&set, &["sting"]);
    let ev = act(&mut g, &set, play("sting"));
    assert_eq!(health(&g), 7, "the damage before the error stands");
    let failed = ev.iter().find_map(|e| match e {
        Event::CardFailed { card, reason } if card.as_str() == "sting" => Some(reason.clone()),
        _ => None,
    });
    let reason = failed.expect("card_failed");
    assert!(
        reason.contains("sting.lua:10") && reason.contains("the sting broke"),
        "{reason}"
    );
    assert!(g.state.cards.hand.is_empty(), "the card is spent");
}

#[test]
fn a_card_file_reloaded_changes_what_the_next_play_does_and_a_broken_edit_keeps_the_last() {
    let pack = Pack::new(&[("heroes/trooper.toml", HERO)]);
    let path = pack.write("cards/sting.lua", STING);
    let mut set = pack.load();
    let mut g = overmind_phase(&set, &["sting", "sting"]);
    act(&mut g, &set, play("sting"));
    assert_eq!(health(&g), 7);
    fs::write(&path, STING.replace("[1], 1)", "[1], 3)")).expect("write");
    let r = set.reload(&path);
    assert!(
        matches!(&r, Reload::Updated { kind: Kind::Card, id, .. } if id == "sting"),
        "{r:?}"
    );
    fs::write(
        &path,
        STING.replace("deck = \"mutation\"", "dek = \"mutation\""),
    )
    .expect("write");
    let r = set.reload(&path);
    assert!(
        matches!(&r, Reload::Failed(p) if p.message.contains("did you mean deck")),
        "{r:?}"
    );
    act(&mut g, &set, play("sting"));
    assert_eq!(
        health(&g),
        4,
        "the card in hand played the new version (3 damage)"
    );
}

/// A Lua card played on a square (`target = "square"`): `ctx.at` is that square; the card hits
/// a Hero standing there. The `standard` Overmind AI weighs it on the squares where a card can
/// matter and plays it on the Hero's square (docs/RULES.md §15.7 "The AI").
const MORTAR: &str = r#"return card {
  id = "mortar",
  name = "Mortar",
  text = "A Hero on the square loses 2 Health.",
  deck = "mutation",
  target = "square",
  play = function(game, ctx)
    for _, hero in ipairs(game:heroes()) do
      if hero.x == ctx.at.x and hero.y == ctx.at.y then
        game:damage(hero, 2)
      end
    end
  end,
}
"#;

#[test]
fn a_square_card_acts_on_its_square_and_the_ai_plays_it_where_it_hurts() {
    let pack = Pack::new(&[("heroes/trooper.toml", HERO)]);
    pack.write("cards/mortar.lua", MORTAR);
    let set = pack.load();
    let on = |x, y| Action::Play {
        card: "mortar".into(),
        target: None,
        at: Some(Pos::new(x, y)),
    };
    let mut g = overmind_phase(&set, &["mortar", "mortar"]);
    act(&mut g, &set, on(3, 2));
    assert_eq!(health(&g), 8, "nobody on 3,2");
    act(&mut g, &set, on(0, 0));
    assert_eq!(health(&g), 6, "the Hero on 0,0 is hit");

    let g = overmind_phase(&set, &["mortar"]);
    let chosen = overmind_core::ai::player(Side::Overmind, overmind_core::ai::Level::Standard)
        .next_action(overmind_core::View::Overmind(&g.state), &set.content);
    assert_eq!(chosen, on(0, 0), "the AI aims at the Hero");
}
