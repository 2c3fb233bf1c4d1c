//! docs/RULES.md §7.3 through the Lua API: a Blip's id, square and Movement are free to read; reading
//! any other stat reveals it (cause `stat`), may trigger the revealed unit's own behaviour
//! inside the running one (nested Lua calls, still budgeted), then answers from the unit.

use crate::common;
use common::*;
use overmind_core::*;
use std::path::Path;

/// 12x6, a closed wall between x=5 and x=6: the east side is out of every western Hero's sight.
fn wall_map() -> Map {
    let mut s = String::from("+-+-+-+-+-+-+-+-+-+-+-+-+\n");
    for y in 0..6 {
        s.push_str("|. . . . . .|. . . . . .|\n");
        s.push_str(if y == 5 {
            "+-+-+-+-+-+-+-+-+-+-+-+-+\n"
        } else {
            "+ + + + + + + + + + + + +\n"
        });
    }
    MapBuilder::from_drawing(&s).build()
}

const HIDDEN: &str = r#"alien_type {
  id = "hidden", name = "Hidden", unit = { max = 2 },
  movement = 4, melee = 3, defence = 4, health = 3, fear = 1,
  behaviours = { "spin" },
}"#;

/// One host for everything: behaviour "subject" (the script under test) on type "subject",
/// behaviour "inner" on type "hidden" (defined in Lua, so its stats are known to the host).
fn content(subject: &str, inner: &str) -> Content {
    let h = host();
    let mut c = world(Flavour::Lua);
    install_lua(&h, &mut c);
    install_source(&h, &mut c, "tests/subject.lua", subject);
    install_source(&h, &mut c, "tests/inner.lua", inner);
    let t = h
        .load_alien(Path::new("tests/hidden.lua"), &format!("return {HIDDEN}"))
        .unwrap_or_else(|e| panic!("{e}"));
    c.aliens.insert(t.id.clone(), t);
    c.aliens
        .insert("subject".into(), alien("subject", 1, 4, &["subject"]));
    c
}

const QUIET: &str = r#"return behaviour {
  id = "spin", name = "SPIN", text = "Says so.",
  perform = function(unit, game) game:log("inner " .. unit.id) end,
}"#;

/// Hero H's step reveals R (west, "subject"); Blip Z (east, out of sight) holds `z`.
fn run(subject: &str, inner: &str, z: &'static str, trigger: RevealTrigger) -> Played {
    let mut s = Scene::new(wall_map()).die(all_blanks());
    s.rules.overmind_reveal_trigger = trigger;
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("R", [4, 2], "subject", 1), ("Z", [9, 3], z, 2)];
    s.steps = vec![mv("H", 1, 2)];
    play(&s, &content(subject, inner))
}

fn reading(field_code: &str) -> String {
    format!(
        "return behaviour {{\n  id = \"subject\", name = \"SUBJECT\", text = \"Reads a Blip.\",\n  perform = function(unit, game)\n    local b = game:blip(\"Z\")\n    game:log({field_code})\n  end,\n}}"
    )
}

fn logs(p: &Played) -> Vec<(String, String)> {
    p.events
        .iter()
        .filter_map(|e| match e {
            Event::Log { unit, message } => Some((unit.to_string(), message.to_string())),
            _ => None,
        })
        .collect()
}

fn reveals(p: &Played) -> Vec<(String, RevealCause, Side)> {
    p.events
        .iter()
        .filter_map(|e| match e {
            Event::BlipRevealed {
                blip, cause, by, ..
            } => Some((blip.to_string(), *cause, *by)),
            _ => None,
        })
        .collect()
}

#[test]
fn reading_movement_id_and_square_does_not_reveal() {
    let p = run(
        &reading(
            r#"b.id .. " " .. b.movement .. " " .. b.x .. "," .. b.y .. " " .. b.pos.x .. " " .. #game:blips()"#,
        ),
        QUIET,
        "hidden",
        RevealTrigger::Always,
    );
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(logs(&p), vec![("R".to_string(), "Z 5 9,3 9 1".to_string())]);
    assert_eq!(
        reveals(&p),
        vec![("R".to_string(), RevealCause::Hero, Side::Heroes)],
        "only R, by the Hero"
    );
    assert!(p.game.state.blip("Z").is_some(), "Z is still face down");
}

#[test]
fn reading_health_reveals_with_cause_stat_and_answers_from_the_unit() {
    let p = run(
        &reading(r#""health " .. b.health"#),
        QUIET,
        "hidden",
        RevealTrigger::Never,
    );
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(
        reveals(&p)[1],
        ("Z".to_string(), RevealCause::Stat, Side::Overmind)
    );
    assert_eq!(logs(&p), vec![("R".to_string(), "health 3".to_string())]);
    assert!(p.game.state.blip("Z").is_none());
    assert_eq!(p.game.state.unit("Z").map(|u| u.models.len()), Some(2));
}

#[test]
fn reading_type_and_the_other_stats_reveals_once_and_answers_each() {
    let p = run(
        &reading(
            r#"b.type .. " " .. b.size .. " " .. b.unit.id .. " " .. b.defence .. " " .. b.melee .. " " .. b.fear .. " " .. tostring(b.decoy)"#,
        ),
        QUIET,
        "hidden",
        RevealTrigger::Never,
    );
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(
        logs(&p),
        vec![("R".to_string(), "hidden 2 Z 4 3 1 false".to_string())]
    );
    assert_eq!(reveals(&p).iter().filter(|r| r.0 == "Z").count(), 1);
}

#[test]
fn a_decoy_read_is_removed_and_answers_decoy() {
    let p = run(
        &reading(r#"tostring(b.decoy) .. " " .. tostring(b.type) .. " " .. b.size"#),
        QUIET,
        "decoy",
        RevealTrigger::Always,
    );
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(logs(&p), vec![("R".to_string(), "true nil 0".to_string())]);
    assert!(p
        .events
        .iter()
        .any(|e| matches!(e, Event::DecoyRemoved { blip, .. } if blip == "Z")));
}

#[test]
fn a_stat_read_can_trigger_the_revealed_units_lua_behaviour_inside_the_running_one() {
    let p = run(
        &reading(r#""after " .. b.health"#),
        QUIET,
        "hidden",
        RevealTrigger::Always,
    );
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(
        logs(&p),
        vec![
            ("Z".to_string(), "inner Z".to_string()),
            ("R".to_string(), "after 3".to_string())
        ],
        "the inner behaviour runs during the read, before the outer one goes on"
    );
    assert_eq!(performed(&p.events), vec!["spin", "subject"]);
}

#[test]
fn a_nested_behaviour_stays_budgeted() {
    let spin = r#"return behaviour {
  id = "spin", name = "SPIN", text = "Never ends.",
  perform = function(unit, game) while true do end end,
}"#;
    let p = run(
        &reading(r#""after " .. b.health"#),
        spin,
        "hidden",
        RevealTrigger::Always,
    );
    let f = failures(&p.events);
    assert!(!f.is_empty(), "{:#?}", p.events);
    assert!(
        f.iter().all(|r| r.contains("instruction budget exhausted")),
        "{f:?}"
    );
    assert!(f[0].starts_with("tests/inner.lua:3:"), "{f:?}");
    assert_eq!(p.game.to_move(), Some(Side::Heroes), "the game goes on");
    assert!(
        p.game.state.blip("Z").is_none() && p.game.state.unit("Z").is_some(),
        "the failed behaviours end where they failed; the reveal stands: {:#?}",
        p.events
    );
}

#[test]
fn a_script_that_reveals_a_blip_and_then_fails_leaves_it_revealed() {
    // RULES.md §8: a failed script ends where it failed; everything before stands (§7: the
    // read revealed the Blip, and nothing a player has seen is taken back).
    let subject = r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Peeks, then breaks.",
  perform = function(unit, game)
    local b = game:blip("Z")
    game:log("health " .. b.health)
    error("broken after the peek")
  end,
}"#;
    let p = run(subject, QUIET, "hidden", RevealTrigger::Never);
    assert_eq!(
        failures(&p.events),
        vec!["tests/subject.lua:6: broken after the peek".to_string()]
    );
    assert_eq!(
        reveals(&p)[1],
        ("Z".to_string(), RevealCause::Stat, Side::Overmind)
    );
    assert!(p.game.state.blip("Z").is_none(), "Z stays revealed");
    assert_eq!(p.game.state.unit("Z").map(|u| u.models.len()), Some(2));
    assert_eq!(logs(&p), vec![("R".to_string(), "health 3".to_string())]);
}

#[test]
fn lua_randomness_comes_from_the_game_rng() {
    let roll = reading(r#"math.random(1, 1000000) .. " " .. math.random(6)"#);
    let a = run(&roll, QUIET, "hidden", RevealTrigger::Never);
    let b = run(&roll, QUIET, "hidden", RevealTrigger::Never);
    assert!(failures(&a.events).is_empty(), "{:#?}", a.events);
    assert_eq!(logs(&a), logs(&b), "same seed, same rolls");
    assert_eq!(a.game.state.rng, b.game.state.rng);
    let quiet = run(
        &reading(r#""no roll""#),
        QUIET,
        "hidden",
        RevealTrigger::Never,
    );
    assert_ne!(
        a.game.state.rng, quiet.game.state.rng,
        "the rolls were drawn from the game's RNG"
    );
}

#[test]
fn a_nested_behaviour_sees_its_own_storage() {
    let subject = r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Keeps a note, peeks, reads the note.",
  perform = function(unit, game)
    game.storage.who = "outer"
    local b = game:blip("Z")
    game:log("outer sees " .. game.storage.who .. " after health " .. b.health)
  end,
}"#;
    let inner = r#"return behaviour {
  id = "spin", name = "SPIN", text = "Keeps its own note.",
  perform = function(unit, game)
    game:log("inner sees " .. tostring(game.storage.who))
    game.storage.who = "inner"
  end,
}"#;
    let p = run(subject, inner, "hidden", RevealTrigger::Always);
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(
        logs(&p),
        vec![
            ("Z".to_string(), "inner sees nil".to_string()),
            (
                "R".to_string(),
                "outer sees outer after health 3".to_string()
            )
        ]
    );
    use overmind_core::storage::{Key, Value};
    let note = |s: &str| Value::Table(vec![(Key::Str("who".into()), Value::Str(s.into()))]);
    assert_eq!(p.game.state.storage("subject"), Some(&note("outer")));
    assert_eq!(p.game.state.storage("spin"), Some(&note("inner")));
}
