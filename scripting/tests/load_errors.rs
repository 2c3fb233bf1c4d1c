//! Loading scripts: the base pack's behaviours and example alien types load with exactly
//! their numbers; every broken script is a `ScriptError` at `path:line` saying what is wrong;
//! a reinstalled behaviour takes over the objects already handed to the core.

mod common;
use common::*;
use overmind_core::*;
use overmind_scripting::{ErrorKind, ScriptError};
use std::path::Path;

fn behaviour_err(source: &str) -> ScriptError {
    host()
        .load_behaviour(Path::new("behaviours/behaviours/bad.lua"), source)
        .expect_err("the script is broken")
}

fn alien_err(source: &str) -> ScriptError {
    host()
        .load_alien(Path::new("behaviours/aliens/bad.lua"), source)
        .expect_err("the script is broken")
}

const GOOD_ALIEN: &str = r#"-- example
return alien_type {
  id = "bad", name = "Bad",
  unit = { max = 2 },
  movement = 4, melee = 3, defence = 2, health = 2,
  shoot = { short = { range = 2, cv = 2 }, long = { range = 4, cv = 1 } },
  melee_effects = { "knock_down" },
  behaviours = { "rush" },
}"#;

#[test]
fn the_base_pack_behaviours_load_with_their_cards() {
    let h = host();
    let mut c = Content::default();
    install_lua(&h, &mut c);
    let names: Vec<(String, String, Option<u32>)> = c
        .behaviours
        .iter()
        .map(|(id, b)| (id.clone(), b.name(), b.max_move()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("protect".into(), "PROTECT".into(), None),
            ("quick_shot".into(), "QUICK SHOT".into(), None),
            ("rush".into(), "RUSH".into(), Some(5)),
            ("take_cover".into(), "TAKE COVER".into(), Some(5)),
            (
                "terrifying_presence".into(),
                "TERRIFYING PRESENCE".into(),
                None
            ),
        ]
    );
    let rush = h.definition("rush").expect("rush");
    assert!(rush
        .text
        .starts_with("Must move 5 Squares towards the closest visible Hero"));
    assert!(h.has_behaviour("protect") && !h.has_behaviour("nope"));
}

#[test]
fn the_example_alien_types_load_with_their_numbers() {
    let h = host();
    let load = |id: &str| {
        let p = pack().join(format!("aliens/{id}.lua"));
        let text = std::fs::read_to_string(&p).expect("read");
        h.load_alien(&p, &text).unwrap_or_else(|e| panic!("{e}"))
    };
    let band = |range, cv| Band { range, cv };
    let t = |id: &str,
             max,
             movement,
             melee,
             defence,
             health,
             fear,
             shoot: Option<Shoot>,
             melee_effects: Vec<Effect>,
             b: &[&str]| AlienType {
        id: id.into(),
        name: format!("{}{}", id[..1].to_uppercase(), &id[1..]),
        unit: Makeup { max, leader: None },
        movement,
        melee,
        defence,
        health,
        fear,
        shoot,
        melee_effects,
        shoot_effects: vec![],
        behaviours: b.iter().map(|s| s.to_string()).collect(),
    };
    assert_eq!(
        load("stalker"),
        t(
            "stalker",
            3,
            6,
            3,
            2,
            2,
            0,
            Some(Shoot {
                short: band(2, 2),
                long: band(4, 1)
            }),
            vec![],
            &["rush", "quick_shot"]
        )
    );
    assert_eq!(
        load("spitter"),
        t(
            "spitter",
            2,
            4,
            1,
            2,
            2,
            0,
            Some(Shoot {
                short: band(4, 3),
                long: band(8, 2)
            }),
            vec![],
            &["quick_shot", "take_cover"]
        )
    );
    assert_eq!(
        load("warden"),
        t(
            "warden",
            2,
            4,
            3,
            3,
            3,
            0,
            None,
            vec![Effect::KnockDown],
            &["protect"]
        )
    );
    assert_eq!(
        load("dread"),
        t(
            "dread",
            1,
            3,
            4,
            3,
            5,
            3,
            None,
            vec![],
            &["terrifying_presence", "rush"]
        )
    );
}

#[test]
fn a_syntax_error_names_its_line() {
    let e = behaviour_err("return behaviour {\n  id = \"bad\",\n  name = = \"BAD\",\n}");
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert!(
        e.to_string()
            .starts_with("behaviours/behaviours/bad.lua:3:"),
        "{e}"
    );
}

#[test]
fn a_missing_perform_names_the_definitions_line() {
    let e = behaviour_err("-- no perform\n\nreturn behaviour {\n  id = \"bad\", name = \"BAD\", text = \"Nothing.\",\n}\n");
    assert_eq!(
        e.to_string(),
        "behaviours/behaviours/bad.lua:3: behaviour: perform is missing (a function)"
    );
}

#[test]
fn behaviour_fields_are_checked() {
    let cases = [
        ("id = \"Bad Id\", name = \"B\", text = \"t\", perform = function() end", "behaviour: id must be an id (a string of a-z, 0-9 and _, at most 31 bytes), found string \"Bad Id\""),
        ("id = \"b\", name = 5, text = \"t\", perform = function() end", "behaviour: name must be a string, found number 5"),
        ("id = \"b\", name = \"B\", text = \"t\", max_move = 2.5, perform = function() end", "behaviour: max_move must be a whole number from 0 to 50, found number 2.5"),
        ("id = \"b\", name = \"B\", text = \"t\", perform = 3", "behaviour: perform must be a function, found number 3"),
        ("id = \"b\", name = \"B\", text = \"t\", perfrom = function() end, perform = function() end", "behaviour: unknown field 'perfrom' (fields: id, name, text, max_move, perform, ai_score)"),
    ];
    for (fields, message) in cases {
        let e = behaviour_err(&format!("return behaviour {{\n  {fields},\n}}"));
        assert_eq!(
            e.to_string(),
            format!("behaviours/behaviours/bad.lua:2: {message}")
        );
    }
}

#[test]
fn a_script_must_return_its_definition() {
    let e = behaviour_err("local t = { id = \"x\" }\nreturn t\n");
    assert_eq!(e.to_string(), "behaviours/behaviours/bad.lua:2: the script must end with `return behaviour { ... }`; it returned a table");
    let e = behaviour_err(GOOD_ALIEN);
    assert!(
        e.to_string().ends_with("it returned alien_type { ... }"),
        "{e}"
    );
    let e = alien_err("behaviour({})\n");
    assert!(e.to_string().contains("it returned nil"), "{e}");
}

#[test]
fn errors_and_budgets_of_the_top_level_are_located() {
    let e = behaviour_err("local x = nil\nlocal y = x.field\n");
    assert_eq!(e.kind(), ErrorKind::Runtime);
    assert!(
        e.to_string()
            .starts_with("behaviours/behaviours/bad.lua:2:"),
        "{e}"
    );
    let e = behaviour_err("while true do end\n");
    assert_eq!(e.kind(), ErrorKind::InstructionBudget);
    let e = behaviour_err("return behaviour(5)\n");
    assert_eq!(e.to_string(), "behaviours/behaviours/bad.lua:1: behaviour: expects a table, e.g. behaviour { id = \"...\", ... }, got number 5");
}

#[test]
fn a_good_alien_loads() {
    let t = host()
        .load_alien(Path::new("a.lua"), GOOD_ALIEN)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.melee_effects, vec![Effect::KnockDown]);
    assert_eq!(t.fear, 0);
}

#[test]
fn bad_alien_numbers_name_the_field_and_its_line() {
    let cases = [
        ("movement = 4", "movement = -1", 5, "alien_type: movement must be a whole number from 0 to 20, found number -1"),
        ("health = 2", "health = 0", 5, "alien_type: health must be a whole number from 1 to 100, found number 0"),
        ("health = 2", "health = \"two\"", 5, "alien_type: health must be a whole number from 1 to 100, found string \"two\""),
        ("max = 2", "max = 13", 4, "alien_type: unit.max must be a whole number from 1 to 12, found number 13"),
        ("long = { range = 4", "long = { range = 1", 6, "alien_type: shoot.long.range (1) must be at least shoot.short.range (2)"),
        ("cv = 1 }", "cv = 99 }", 6, "alien_type: shoot.long.cv must be a whole number from 0 to 20, found number 99"),
        ("\"knock_down\"", "\"knockdown\"", 7, "alien_type: melee_effects[1] must be one of knock_down, push_back, shaken, stun, found string \"knockdown\""),
        ("\"rush\"", "\"Rush\"", 8, "alien_type: behaviours[1] must be an id (a string of a-z, 0-9 and _, at most 31 bytes), found string \"Rush\""),
        ("id = \"bad\"", "id = \"bad\", speed = 3", 3, "alien_type: unknown field 'speed' (fields: id, name, unit, movement, melee, defence, health, fear, shoot, melee_effects, shoot_effects, behaviours)"),
        ("unit = { max = 2 },\n", "", 2, "alien_type: unit is missing (a table (max, leader))"),
    ];
    for (from, to, line, message) in cases {
        let src = GOOD_ALIEN.replacen(from, to, 1);
        assert_ne!(src, GOOD_ALIEN, "{from}");
        let e = alien_err(&src);
        assert_eq!(
            e.to_string(),
            format!("behaviours/aliens/bad.lua:{line}: {message}"),
            "{src}"
        );
    }
}

#[test]
fn a_reinstalled_behaviour_takes_over_the_objects_already_in_play() {
    let h = host();
    let v1 = "return behaviour { id = \"hot\", name = \"HOT ONE\", text = \"v1\", perform = function(unit, game) game:log(\"v1\") end }";
    let v2 = "return behaviour { id = \"hot\", name = \"HOT TWO\", text = \"v2\", max_move = 2, perform = function(unit, game) game:log(\"v2\") end }";
    let first = h.install_behaviour(h.load_behaviour(Path::new("hot.lua"), v1).expect("v1"));
    assert_eq!(
        (first.name(), first.max_move()),
        ("HOT ONE".to_string(), None)
    );
    let second = h.install_behaviour(h.load_behaviour(Path::new("hot.lua"), v2).expect("v2"));
    assert_eq!(
        (first.name(), first.max_move()),
        ("HOT TWO".to_string(), Some(2))
    );
    assert!(h
        .load_behaviour(Path::new("hot.lua"), "return behaviour {")
        .is_err());
    assert_eq!(first.name(), "HOT TWO", "a broken reload installs nothing");

    let mut c = world(Flavour::Lua);
    c.add_behaviour("hot", first);
    c.aliens
        .insert("subject".into(), alien("subject", 1, 4, &["hot"]));
    let mut s = Scene::new(open(12, 6));
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("R", [6, 2], "subject", 1)];
    s.steps = vec![mv("H", 1, 2)];
    let p = play(&s, &c);
    assert!(
        p.events
            .iter()
            .any(|e| matches!(e, Event::Log { message, .. } if message == "v2")),
        "{:#?}",
        p.events
    );
    drop(second);
}
