//! Issue 25, tried as new players would: nothing is given away by accident (a phase with
//! units left is ended only when the player says so; hot-seat in line mode hides each side's
//! secrets; `--plain` wins over piped input), a human Overmind is asked which way to go only
//! when the ways differ, and a typo in the command and the unit is corrected in one step.
//! The full-screen parts are in tui.rs.

use crate::common;

use common::*;
use expectrl::session::OsSession;
use expectrl::{Eof, Expect};
use serde_json::Value;

/// The demo's alien types and the words that say what a Blip holds (as tui.rs's).
const SECRETS: &[&str] = &["dread", "spitter", "stalker", "warden", "decoy", "holds"];

fn secret(t: &str) -> Option<&'static str> {
    let lower = t.to_lowercase();
    SECRETS.iter().copied().find(|w| lower.contains(w))
}

/// What the program wrote up to and with `text`.
fn upto(s: &mut OsSession, text: &str) -> String {
    match s.expect(text) {
        Ok(found) => String::from_utf8_lossy(found.as_bytes()).into_owned(),
        Err(e) => panic!("waiting for {text:?}: {e}"),
    }
}

fn your_turn(side: &'static str) -> impl Fn(&Value) -> bool {
    move |v| v["event"] == "your_turn" && v["side"] == side
}

#[test]
fn a_blip_move_whose_ways_are_all_alike_asks_no_question() {
    let mut d = Driver::start(
        &root(),
        &[
            "play",
            "--json",
            "--no-watch",
            "--seed",
            "11",
            "--heroes",
            "ai",
            "--overmind",
            "human",
        ],
    );
    d.wait("the Overmind's turn", your_turn("overmind"));
    // Ten shortest ways from 2,2 to 2,7, none near a Hero, a token or anyone's sight.
    d.send("move b1 2,7");
    let moved = d.wait("b1's move", |v| {
        v["event"] == "moved" || v["event"] == "decision" || v["event"] == "error"
    });
    assert_eq!(moved["event"], "moved", "{moved}");
    assert_eq!(moved["unit"], "b1", "{moved}");
    assert_eq!(
        moved["path"].as_array().and_then(|p| p.last()),
        Some(&serde_json::json!([2, 7]))
    );
    d.send("quit");
    d.wait("the end", |v| v["event"] == "quit");
    assert!(
        of_kind(&d.seen, "decision").is_empty(),
        "{:#?}",
        of_kind(&d.seen, "decision")
    );
}

/// An open room north of a wall, a Hero alone south of it; a flare (a token) on 1,1.
const TOKEN_ROOM: &str = r#"name = "Ways"
map = """
+-+-+-+-+-+-+
|. . . . . .|
+           +
|. . . . . .|
+           +
|. . . . . .|
+-+-+-+-+-+-+
|y . . . . .|
+-+-+-+-+-+-+
"""
objective = { kind = "eliminate" }
max_rounds = 3
decoys = 0

[[tokens]]
kind = "flare"
at = [1, 1]

[[heroes]]
id = "alpha"
profile = "vance"
at = [0, 3]

[[blips]]
id = "b1"
at = [0, 1]
holds = "stalker"
size = 1
"#;

#[test]
fn a_path_question_is_asked_when_one_way_crosses_a_token() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mission = dir.path().join("ways.toml");
    std::fs::write(&mission, TOKEN_ROOM).expect("write mission");
    let m = mission.display().to_string();
    let mut d = Driver::start(
        &root(),
        &[
            "play",
            "--json",
            "--no-watch",
            "--seed",
            "1",
            "--heroes",
            "human",
            "--overmind",
            "human",
            "--mission",
            &m,
        ],
    );
    d.wait("the Heroes' turn", your_turn("heroes"));
    d.send("end");
    d.wait("the Overmind's turn", your_turn("overmind"));
    // 0,1 to 2,1 goes by 1,0, 1,1 (the flare) or 1,2: the way matters, so it is asked.
    d.send("move b1 2,1");
    let q = d.wait("the question", |v| {
        v["event"] == "decision" || v["event"] == "moved" || v["event"] == "error"
    });
    assert_eq!(q["event"], "decision", "{q}");
    assert_eq!(q["kind"], "path", "{q}");
    assert_eq!(q["options"].as_array().map(Vec::len), Some(3), "{q}");
    d.send("1");
    d.send("quit");
    d.wait("the end", |v| v["event"] == "quit");
}

#[test]
fn a_typo_in_the_command_and_the_unit_is_corrected_at_once() {
    let o = run(
        &["play", "--json", "--no-watch", "--seed", "11"],
        "mvoe captian 2,14\nquit\n",
    );
    let ev = events(&stdout(&o));
    let errors = of_kind(&ev, "error");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(
        errors[0]["suggestion"], "move captain 2,14",
        "{}",
        errors[0]
    );
}

#[test]
fn plain_wins_over_piped_input() {
    let o = run(
        &["play", "--plain", "--no-watch", "--seed", "11"],
        "status\nquit\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines().all(|l| !l.starts_with("{\"event\"")),
        "line mode, not JSON: {out}"
    );
    assert!(out.contains("You may:") && out.contains("Key: "), "{out}");
    assert!(out.contains("Round 1/15 · Heroes phase"), "{out}");
    // Asking for both is a mistake, said at once.
    let o = run(&["play", "--plain", "--json", "--no-watch"], "quit\n");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn hot_seat_in_line_mode_shows_each_side_only_its_own() {
    let Some(mut s) = pty(&[
        "play",
        "--plain",
        "--seed",
        "11",
        "--no-watch",
        "--heroes",
        "human",
        "--overmind",
        "human",
    ]) else {
        return;
    };
    let first = upto(&mut s, "heroes> ");
    assert!(
        first.contains("Each side sees only what it may know"),
        "{first}"
    );
    assert_eq!(secret(&first), None, "the Heroes' first screen: {first}");
    s.send_line("status").expect("type");
    let status = upto(&mut s, "heroes> ");
    assert!(status.contains("b11"), "{status}");
    assert_eq!(secret(&status), None, "the Heroes' status: {status}");
    // Ending the phase with every Hero unused asks first.
    s.send_line("end").expect("type");
    upto(&mut s, "go on? [y/N]> ");
    s.send_line("y").expect("type");
    upto(&mut s, "Pass the keyboard to the Overmind — press Enter");
    // The handover's own prompt, then the Overmind's screen.
    upto(&mut s, "overmind> ");
    s.send_line("").expect("type");
    let overmind = upto(&mut s, "overmind> ");
    assert!(
        secret(&overmind).is_some(),
        "the Overmind sees what its Blips hold: {overmind}"
    );
    s.send_line("end").expect("type");
    upto(&mut s, "go on? [y/N]> ");
    s.send_line("y").expect("type");
    upto(&mut s, "Pass the keyboard to the Heroes — press Enter");
    upto(&mut s, "heroes> ");
    s.send_line("").expect("type");
    let back = upto(&mut s, "heroes> ");
    assert!(back.contains("Round 2/15"), "{back}");
    assert_eq!(secret(&back), None, "the Heroes' second screen: {back}");
    s.send_line("quit").expect("type");
    s.expect(Eof).expect("the game ends");
}

#[test]
fn ending_a_phase_with_heroes_unused_asks_and_no_keeps_the_phase() {
    let Some(mut s) = pty(&["play", "--plain", "--seed", "11", "--no-watch"]) else {
        return;
    };
    upto(&mut s, "heroes> ");
    s.send_line("move captain 2,14").expect("type");
    upto(&mut s, "heroes> ");
    // Ending the captain's activation asks nothing: it ends no phase.
    s.send_line("end").expect("type");
    upto(&mut s, "captain is done");
    upto(&mut s, "heroes> ");
    s.send_line("end").expect("type");
    let q = upto(&mut s, "go on? [y/N]> ");
    assert!(
        q.contains(
            "`end` ends the Heroes' phase: medic, heavy, scout, engineer have not activated"
        ),
        "{q}"
    );
    s.send_line("n").expect("type");
    upto(&mut s, "nothing done: the phase goes on");
    upto(&mut s, "heroes> ");
    s.send_line("status").expect("type");
    let t = upto(&mut s, "heroes> ");
    assert!(t.contains("Round 1/15 · Heroes phase"), "{t}");
    s.send_line("quit").expect("type");
    s.expect(Eof).expect("the game ends");
}

/// Issue 25: the map's key names every token symbol on the map, and a roll comes with which
/// faces count for whom.
#[test]
fn the_key_names_every_token_and_rolls_say_what_their_faces_count() {
    let o = run(&["play", "--plain", "--no-watch", "--seed", "11"], "quit\n");
    let out = stdout(&o);
    let key = out
        .lines()
        .find(|l| l.starts_with("Key: "))
        .unwrap_or_default();
    for token in [
        "~ acid pool",
        "; live wire",
        "^ spanner",
        "$ medkit",
        ") flare",
        "[ supply cache",
        "] nest",
        "{ terminal",
    ] {
        assert!(key.contains(token), "{token}: {key}");
    }
    // The AI against itself, in line mode: every roll is followed by the key to its dice.
    let o = run(
        &[
            "play",
            "--plain",
            "--no-watch",
            "--seed",
            "3",
            "--heroes",
            "ai",
            "--overmind",
            "ai",
        ],
        "",
    );
    let out = stdout(&o);
    let rolls = out.lines().filter(|l| l.contains("] against ")).count();
    assert!(rolls > 0, "{out}");
    assert!(
        out.contains(
            "Dice: the attacker counts HIT 1, DOUBLE-HIT 2 and CRITICAL 1 (no shield stops a \
             critical); the defender counts SHIELD 1 and DOUBLE-SHIELD 2"
        ),
        "{out}"
    );
}
