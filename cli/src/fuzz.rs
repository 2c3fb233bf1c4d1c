//! Fuzzing the two parsers the binary keeps to itself (issue 9): the save loader
//! ([`Save::parse`]) and the command line the JSON stream and the terminal read
//! ([`command::parse`]). Random and mutated inputs (a real save of a game of the base pack,
//! real commands and JSON actions): no panic, and every error placed — a save's at
//! `path:line:column` with both from 1, a JSON action's at a column from 1.
//!
//! These are unit tests because the binary has no library to reach them from `tests/`.

use crate::command::{self, Names};
use crate::save::Save;
use crate::session::Session;
use overmind_core::ai::{HeroAi, OvermindAi};
use overmind_core::{Action, Controllers, FirstOption, Pos, Side};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::path::Path;

/// The save of a few AI turns of the base pack's small mission, as the binary writes it.
fn real_save() -> String {
    let dirs = crate::packs::dirs(&[]);
    let ctl = Controllers::new(Box::new(FirstOption), Box::new(FirstOption));
    let mut s = match Session::start(dirs, "small", 3, ctl) {
        Ok(s) => s,
        Err(e) => panic!("the small mission starts: {e}"),
    };
    let (mut heroes, mut overmind) = (HeroAi, OvermindAi);
    for _ in 0..40 {
        match s.game.to_move() {
            Some(Side::Heroes) => s.ai_step(&mut heroes),
            Some(Side::Overmind) => s.ai_step(&mut overmind),
            None => break,
        };
    }
    serde_json::to_string_pretty(&s.save()).unwrap_or_default()
}

fn edit(mut bytes: Vec<u8>, edits: &[(u8, usize, Vec<u8>)]) -> Vec<u8> {
    for (kind, at, piece) in edits {
        let n = bytes.len();
        let at = at % (n + 1);
        match kind % 4 {
            0 => {
                bytes.splice(at..at, piece.iter().copied());
            }
            1 => {
                let end = (at + piece.len() + 1).min(n);
                bytes.drain(at..end);
            }
            2 if n > 0 => bytes[at % n] = piece.first().copied().unwrap_or(b'"'),
            _ => bytes.truncate(at),
        }
    }
    bytes
}

fn piece() -> impl Strategy<Value = Vec<u8>> {
    let fixed: Vec<&'static [u8]> = vec![
        b"\"",
        b"{",
        b"}",
        b"[",
        b"]",
        b",",
        b":",
        b"\n",
        b"null",
        b"-1",
        b"18446744073709551616",
        b"1e999",
        b"\"\\u",
        b"\xff",
        b"\xc3\xa9",
        b"\"version\": 2",
        b"{\"action\":\"move\",\"unit\":\"alpha\",\"to\":[1,1]}",
    ];
    prop_oneof![
        3 => proptest::sample::select(fixed).prop_map(<[u8]>::to_vec),
        1 => proptest::collection::vec(any::<u8>(), 0..6),
    ]
}

fn edits() -> impl Strategy<Value = Vec<(u8, usize, Vec<u8>)>> {
    proptest::collection::vec((any::<u8>(), any::<usize>(), piece()), 1..6)
}

/// Every line of a save's error is `g.json:LINE:COLUMN: message`, both from 1.
fn check_save(text: &str) {
    let Err(e) = Save::parse(Path::new("g.json"), text) else {
        return;
    };
    for line in e.lines() {
        let rest = line.strip_prefix("g.json:").unwrap_or("");
        let mut parts = rest.splitn(3, ':');
        let (l, c) = (parts.next(), parts.next());
        let ok = |p: Option<&str>| {
            p.and_then(|p| p.parse::<usize>().ok())
                .is_some_and(|n| n >= 1)
        };
        assert!(ok(l) && ok(c), "no position in {line:?} for {text:?}");
    }
}

/// A JSON action's error says where it stopped, from column 1.
fn check_command(line: &str, names: &Names) {
    let Err(e) = command::parse(line, names) else {
        return;
    };
    if line.trim().starts_with('{') {
        let column = e
            .message
            .rsplit_once(" at column ")
            .and_then(|(_, c)| c.parse::<usize>().ok());
        assert!(
            column.is_some_and(|c| c >= 1 && c <= line.trim().chars().count().max(1)),
            "{:?} for {line:?}",
            e.message
        );
    }
}

fn names() -> Names {
    Names {
        ids: vec!["alpha".into(), "bravo".into(), "B1".into()],
        active: None,
        behaviours: vec!["rush".into()],
        aliens: vec!["stalker".into()],
        ..Names::default()
    }
}

fn commands() -> Vec<String> {
    let actions = [
        Action::Move {
            unit: "alpha".into(),
            to: Pos::new(3, 4),
            via: vec![Pos::new(1, 1)],
        },
        Action::Shoot {
            unit: "alpha".into(),
            target: "B1".into(),
        },
        Action::Flip { unit: "B1".into() },
        Action::End,
    ];
    let mut v: Vec<String> = actions
        .iter()
        .filter_map(|a| serde_json::to_string(a).ok())
        .collect();
    v.extend(
        [
            "move alpha 3,4 via 1,1 2,2",
            "sprint bravo 3, 4",
            "shoot alpha B1",
            "log 5",
            "save /tmp/x y.json",
            "help move",
            "undo",
            "2",
        ]
        .map(String::from),
    );
    v
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn mutated_saves_are_read_or_placed(edits in edits()) {
        thread_local!(static SAVE: String = real_save());
        let bytes = SAVE.with(|s| edit(s.clone().into_bytes(), &edits));
        match overmind_core::source::utf8_text(bytes) {
            Ok(text) => check_save(&text),
            Err(e) => prop_assert!(e.line >= 1 && e.column >= 1),
        }
    }

    #[test]
    fn random_saves_are_read_or_placed(text in "[ -~\n\"{}\\[\\]:,é]{0,120}") {
        check_save(&text);
    }

    #[test]
    fn mutated_commands_are_parsed_or_placed(
        which in any::<proptest::sample::Index>(),
        edits in edits(),
    ) {
        let seeds = commands();
        let seed = which.get(&seeds).clone();
        let line = String::from_utf8_lossy(&edit(seed.into_bytes(), &edits)).into_owned();
        let line = line.lines().next().unwrap_or("").to_string();
        check_command(&line, &names());
        check_command(&line, &Names::default());
    }

    #[test]
    fn random_commands_are_parsed_or_placed(line in "\\{?[ -~é→]{0,80}") {
        check_command(&line, &names());
    }
}

#[test]
fn a_save_cut_short_points_at_a_real_column() {
    let save = real_save();
    for cut in [0, 1, save.len() / 2, save.len() - 2] {
        check_save(&save[..cut]);
    }
    let e = Save::parse(Path::new("g.json"), "").expect_err("empty");
    assert_eq!(
        e.lines(),
        vec!["g.json:1:1: EOF while parsing a value".to_string()]
    );
    let e = Save::parse(Path::new("g.json"), "{\n  \"version\": 1,\n").expect_err("cut");
    assert!(
        e.lines()[0].starts_with("g.json:3:1: EOF"),
        "{:?}",
        e.lines()
    );
    let e = Save::parse(Path::new("g.json"), "{\"é\": x}").expect_err("bad value");
    assert!(e.lines()[0].starts_with("g.json:1:7: "), "{:?}", e.lines());
}

#[test]
fn a_bad_json_action_names_its_column() {
    let e = command::parse("{\"action\": ", &Names::default()).expect_err("cut");
    assert!(e.message.ends_with(" at column 10"), "{}", e.message);
    let e = command::parse("{", &Names::default()).expect_err("cut");
    assert!(e.message.ends_with(" at column 1"), "{}", e.message);
}
