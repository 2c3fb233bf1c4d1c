//! Loading scripts: the base pack's behaviours and example alien types load with exactly
//! their numbers; every broken script is a `ScriptError` at `path:line` saying what is wrong;
//! a reinstalled behaviour takes over the objects already handed to the core.

use crate::common;
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
        xxl: false,
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
        ("id = \"b\", name = \"B\", text = \"t\", perfrom = function() end, perform = function() end", "behaviour: unknown field 'perfrom' (did you mean perform?)"),
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
        ("id = \"bad\"", "id = \"bad\", speed = 3", 3, "alien_type: unknown field 'speed' (fields: id, name, unit, movement, melee, defence, health, fear, shoot, melee_effects, shoot_effects, behaviours, xxl, on)"),
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

// ---- every problem of a file in one run (issue 12, item 5) ----

/// The problems `check_behaviour` gives, as `overmind check` prints them.
fn behaviour_problems(source: &str) -> Vec<String> {
    match host().check_behaviour(Path::new("b.lua"), source) {
        Ok(def) => panic!("{} loaded, but the script is broken", def.id),
        Err(ps) => ps.iter().map(ToString::to_string).collect(),
    }
}

fn alien_problems(source: &str) -> Vec<String> {
    match host().check_alien(Path::new("a.lua"), source) {
        Ok(t) => panic!("{} loaded, but the script is broken", t.id),
        Err(b) => b.problems.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_behaviour_with_five_mistakes_is_five_problems_each_at_its_field() {
    let source = r#"-- five mistakes, one a line
return behaviour {
  id = "Bad Id",
  name = 5,
  txt = "Moves.",
  max_move = -3,
  perform = 4,
}
"#;
    assert_eq!(
        behaviour_problems(source),
        vec![
            "b.lua:3:3: behaviour: id must be an id (a string of a-z, 0-9 and _, at most 31 bytes), found string \"Bad Id\"",
            "b.lua:4:3: behaviour: name must be a string, found number 5",
            // `text` is missing only because it is misspelt: one problem, with the right name.
            "b.lua:5:3: behaviour: unknown field 'txt' (did you mean text?)",
            "b.lua:6:3: behaviour: max_move must be a whole number from 0 to 50, found number -3",
            "b.lua:7:3: behaviour: perform must be a function, found number 4",
        ]
    );
    // The first of them is still what `load_behaviour` says.
    assert_eq!(
        behaviour_err(source).to_string(),
        "behaviours/behaviours/bad.lua:3: behaviour: id must be an id (a string of a-z, 0-9 and _, at most 31 bytes), found string \"Bad Id\""
    );
}

#[test]
fn a_missing_field_is_placed_at_the_definition_and_several_fields_on_a_line_each_at_its_key() {
    let source = "local unused = 1\n\nreturn behaviour {\n  id = \"ok\", name = 5, text = {}, perform = function() end,\n}\n";
    let extra = "return behaviour {\n  id = \"ok\",\n  perform = function() end,\n}\n";
    assert_eq!(
        behaviour_problems(source),
        vec![
            "b.lua:4:14: behaviour: name must be a string, found number 5",
            "b.lua:4:24: behaviour: text must be a string, found a table",
        ]
    );
    assert_eq!(
        behaviour_problems(extra),
        vec![
            "b.lua:1:1: behaviour: name is missing (a string)",
            "b.lua:1:1: behaviour: text is missing (a string)",
        ]
    );
}

#[test]
fn an_alien_type_with_many_mistakes_lists_each_nested_ones_too() {
    let source = r#"-- many mistakes
return alien_type {
  id = "brute",
  name = "Brute",
  unit = { max = 13, leadr = "boss" },
  movment = 4,
  melee = 3,
  defence = 22,
  health = 0,
  shoot = { short = { range = 2, cv = 1 }, long = { range = 1, cv = "x" } },
  melee_effects = { "knockdown", "stun", "shakn" },
  behaviours = { "rush" },
}
"#;
    assert_eq!(
        alien_problems(source),
        vec![
            "a.lua:5:12: alien_type: unit.max must be a whole number from 1 to 12, found number 13",
            "a.lua:5:22: alien_type: unknown field 'leadr' in unit (did you mean leader?)",
            "a.lua:6:3: alien_type: unknown field 'movment' (did you mean movement?)",
            "a.lua:8:3: alien_type: defence must be a whole number from 0 to 20, found number 22",
            "a.lua:9:3: alien_type: health must be a whole number from 1 to 100, found number 0",
            // Not also "long.range must be at least short.range": shoot has a problem already.
            "a.lua:10:64: alien_type: shoot.long.cv must be a whole number from 0 to 20, found string \"x\"",
            "a.lua:11:21: alien_type: melee_effects[1] must be one of knock_down, push_back, shaken, stun, found string \"knockdown\"",
            "a.lua:11:42: alien_type: melee_effects[3] must be one of knock_down, push_back, shaken, stun, found string \"shakn\"",
        ]
    );
    // A broken type still hands over the behaviours it lists, for the pack to check.
    match host().check_alien(Path::new("a.lua"), source) {
        Err(b) => assert_eq!(b.behaviours, vec!["rush".to_string()]),
        Ok(_) => panic!("the type is broken"),
    }
}

#[test]
fn a_syntax_error_points_at_the_token_lua_names() {
    // Line 7 is `    local x = = 3`: the first `=` (column 13) is fine, the second (15) is not.
    let source = "return behaviour {\n  id = \"b\",\n  name = \"B\",\n  text = \"t\",\n  perform = function(unit, game)\n    -- a comment = with = signs\n    local x = = 3\n  end,\n}\n";
    assert_eq!(
        behaviour_problems(source),
        vec!["b.lua:7:15: unexpected symbol near '='"]
    );
    let at = |source: &str| behaviour_problems(source).join("\n");
    // A string token, after another string with the same text in a comment-free line.
    assert_eq!(
        at("local a = \"b\"\nlocal x = \"a\" \"b\"\n"),
        "b.lua:2:15: unexpected symbol near '\"b\"'"
    );
    // The lexer's own errors name the token as far as it read.
    assert_eq!(
        at("local ok = 1\nlocal n = 0x\n"),
        "b.lua:2:11: malformed number near '0x'"
    );
    // The end of the file: just past its last character.
    assert_eq!(
        at("return behaviour {\n  id = \"b\",\n\n"),
        "b.lua:2:12: unexpected symbol near <eof>"
    );
    // In a table: the name after a missing comma.
    assert_eq!(
        at("local t = { a = 1 b = 2 }\n"),
        "b.lua:1:19: '}' expected near 'b'"
    );
}

/// A temporary pack (after the base pack) holding one mission file.
fn pack_with_mission(mission: &str) -> (tempfile::TempDir, overmind_scripting::PackSet) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let write = |rel: &str, text: &str| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
    };
    write(
        "pack.toml",
        "name = \"m\"\nversion = \"1\"\ndepends = [\"base\"]\n",
    );
    write("missions/m.toml", mission);
    let set = match overmind_scripting::PackSet::load(&[pack(), dir.path().to_path_buf()]) {
        Ok(s) => s,
        Err(ps) => panic!("{ps:?}"),
    };
    (dir, set)
}

const MISSION: &str = r#"name = "three mistakes"
map = """
+-+-+-+-+-+-+
|. . . . . .|
+     +-+   +
|. . .|#|. .|
+     +-+   +
|. . . . . .|
+-+-+-+-+-+-+
"""

[[heroes]]
id = "h1"
profile = "vanse"
at = [0, 2]

[[heroes]]
id = "h2"
profile = "nobody"
at = [1, 2]

[[blips]]
id = "b1"
at = [9, 0]
"#;

#[test]
fn a_mission_with_several_mistakes_reports_each_of_them() {
    let (dir, set) = pack_with_mission(MISSION);
    let problems = match set.start("m", 0) {
        Ok(_) => panic!("the mission is broken"),
        Err(ps) => ps,
    };
    let path = dir.path().join("missions/m.toml");
    let shown: Vec<String> = problems
        .iter()
        .map(|p| {
            assert_eq!(p.path, path);
            format!("{}:{}: {}", p.line, p.column, p.message)
        })
        .collect();
    assert_eq!(
        shown,
        vec![
            "14:11: hero h1: no hero profile named \"vanse\"",
            "19:11: hero h2: no hero profile named \"nobody\"",
            "24:6: blip \"b1\" at 9,0 is outside the map: expected x from 0 to 5 and y from 0 to 2",
        ]
    );
    // And a Blip in sight is found along with a mistake of another kind.
    let seen = MISSION
        .replace("profile = \"nobody\"", "profile = \"mira\"")
        .replace("at = [9, 0]", "at = [5, 2]");
    let (_dir, set) = pack_with_mission(&seen);
    let shown: Vec<String> = match set.start("m", 0) {
        Ok(_) => panic!("the mission is broken"),
        Err(ps) => ps
            .iter()
            .map(|p| format!("{}:{}: {}", p.line, p.column, p.message))
            .collect(),
    };
    assert_eq!(
        shown,
        vec![
            "14:11: hero h1: no hero profile named \"vanse\"",
            // h2 stands between h1 and the Blip: sight is checked with every unit in place.
            "23:6: blip b1: starts at 5,2 in the Line of Sight of hero h2 at 1,2",
        ]
    );
}

#[test]
fn a_hero_profile_reports_every_key_and_value_problem() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("zed.toml");
    let text = "id = \"zed\"\nnme = \"Zed\"\nhealth = \"lots\"\nmovement = 4\ndial = [\n  { from = 6, melee = \"x\", defence = 3 },\n  { from = 1, melee = 1, defence = 2, extra = 1 },\n]\n";
    let shown: Vec<String> = match overmind_scripting::pack::hero_from_toml(&path, text) {
        Ok(_) => panic!("the profile is broken"),
        Err(ps) => ps
            .iter()
            .map(|p| format!("{}:{}: {}", p.line, p.column, p.message))
            .collect(),
    };
    assert_eq!(
        shown,
        vec![
            // Not also "missing field `name`": it is misspelt.
            "2:1: unknown field `nme`, expected one of `id`, `name`, `health`, `movement`, `shoot`, `melee_effects`, `shoot_effects`, `dial`, `dial_stats`, `melee`, `defence` (did you mean `name`?)",
            "3:10: invalid type: string \"lots\", expected u32",
            "6:23: invalid type: string \"x\", expected u32",
            "7:39: unknown field `extra`, expected one of `from`, `melee`, `defence`, `movement`",
        ]
    );
    // With its keys right, the numbers are checked.
    let numbers = "id = \"zed\"\nname = \"Zed\"\nmovement = 0\ndial = []\n";
    let shown: Vec<String> = match overmind_scripting::pack::hero_from_toml(&path, numbers) {
        Ok(_) => panic!("the profile is broken"),
        Err(ps) => ps
            .iter()
            .map(|p| format!("{}:{}", p.line, p.message))
            .collect(),
    };
    assert_eq!(
        shown,
        vec![
            "3:movement: expected 1 to 20, found 0",
            "4:dial: expected at least one step",
        ]
    );
}

#[test]
fn a_scenario_reports_every_misspelt_or_mistyped_key_and_a_pack_toml_too() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let write = |rel: &str, text: &str| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
    };
    // An unknown key in pack.toml does not keep the pack's files from being checked.
    write(
        "pack.toml",
        "name = \"s\"\nversion = \"1\"\ndepends = [\"base\"]\ndescripton = \"x\"\n",
    );
    write(
        "tests/t.toml",
        "[[scenario]]\nname = \"x\"\nmision = \"demo\"\nseed = \"one\"\nactions = [\"end\", 3]\n\n[[scenario.heroes]]\nid = \"H\"\nprofil = \"vance\"\nat = [0, 2]\n",
    );
    let (set, problems) =
        overmind_scripting::PackSet::load_partial(&[pack(), dir.path().to_path_buf()]);
    let shown: Vec<String> = problems
        .iter()
        .map(|p| format!("{}:{}: {}", p.line, p.column, p.message))
        .collect();
    assert_eq!(
        shown,
        vec!["4:1: unknown field `descripton`, expected one of `name`, `version`, `description`, `depends`, `overrides` (did you mean `description`?)"]
    );
    let set = set.expect("what loads is kept");
    let file = dir.path().join("tests/t.toml");
    let shown: Vec<String> = match overmind_scripting::scenario::load_file(&set, &file) {
        Ok(_) => panic!("the scenario is broken"),
        Err(ps) => ps
            .iter()
            .map(|p| format!("{}:{}: {}", p.line, p.column, p.message))
            .collect(),
    };
    assert_eq!(shown.len(), 4, "{shown:#?}");
    for (i, (at, start)) in [
        ("3:1", "unknown field `mision`"),
        ("4:8", "invalid type: string \"one\", expected u64"),
        ("5:19", "invalid type: integer `3`, expected a string"),
        ("9:1", "unknown field `profil`"),
    ]
    .iter()
    .enumerate()
    {
        assert!(
            shown[i].starts_with(&format!("{at}: {start}")),
            "{shown:#?}"
        );
    }
    assert!(
        shown[0].ends_with("(did you mean `mission`?)"),
        "{}",
        shown[0]
    );
    assert!(
        shown[3].ends_with("(did you mean `profile`?)"),
        "{}",
        shown[3]
    );
}

#[test]
fn a_script_with_many_distinct_strings_loads() {
    // Lua's compiler keeps a chunk's constants in a table; the sandbox's cap on a script's
    // table keys (256 outside the array part) is not the compiler's.
    let names: Vec<String> = (0..400).map(|i| format!("\"name_{i}\"")).collect();
    let src = format!(
        "local names = {{ {} }}\nreturn behaviour {{ id = \"many\", name = \"MANY\", text = \"Names.\",\n  \
         perform = function(unit, game) game:log(names[400]) end }}",
        names.join(", ")
    );
    let host = crate::common::host();
    if let Err(e) = host.load_behaviour(std::path::Path::new("tests/many.lua"), &src) {
        panic!("{e}");
    }
}
