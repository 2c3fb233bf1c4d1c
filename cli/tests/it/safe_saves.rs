//! Saves from someone else (issue 23 h, i, j): what a save names is read only as a regular file
//! under a size cap (a device or a FIFO is refused at once, never read or waited on), its
//! lists are capped and a pack named twice is refused before any pack loads, and no control
//! character from it reaches the terminal raw (ids in records, the mission, the packs).

use crate::common;

use common::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Far longer than any of these runs takes: a regression that reads a device or waits on a
/// FIFO fails here instead of hanging the test run.
const GUARD: Duration = Duration::from_secs(120);

/// Run `overmind` from the workspace root with empty input, killed if it runs past [`GUARD`].
fn guarded(args: &[&str]) -> Output {
    let child = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .env_remove("OVERMIND_BASE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run overmind");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(GUARD) {
        Ok(o) => o.expect("wait for overmind"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("overmind {args:?} still ran after {GUARD:?}: killed");
        }
    }
}

fn base() -> String {
    root().join("behaviours").display().to_string()
}

/// A save of no records over `packs`, its mission `mission` (it is refused before its end is
/// looked at).
fn save_value(mission: &str, packs: &[String]) -> Value {
    json!({
        "version": 1,
        "mission": mission,
        "packs": packs,
        "seed": 1,
        "records": [],
        "final": {"events": 0, "log_hash": "0", "state_hash": "0", "round": 1},
    })
}

fn write(dir: &Path, name: &str, v: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(v).expect("json")).expect("write");
    path.display().to_string()
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(ok.success(), "mkfifo {}", path.display());
}

/// The three ways a save is opened: `replay`, `replay --html` and `play --load`.
fn openings(save: &str, dir: &Path) -> Vec<Vec<String>> {
    let html = dir.join("out.html").display().to_string();
    [
        vec!["replay", save],
        vec!["replay", save, "--html", &html],
        vec!["play", "--load", save, "--no-watch", "--json"],
    ]
    .into_iter()
    .map(|a| a.into_iter().map(String::from).collect())
    .collect()
}

fn refused(o: &Output, args: &[String]) -> String {
    assert_ne!(o.status.code(), Some(0), "{args:?} was not refused");
    stderr(o)
}

#[test]
fn a_device_or_a_fifo_as_the_mission_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("mission.toml");
    mkfifo(&fifo);
    for mission in ["/dev/zero".to_string(), fifo.display().to_string()] {
        let save = write(dir.path(), "g.json", &save_value(&mission, &[base()]));
        for args in openings(&save, dir.path()) {
            let o = guarded(&strs(&args));
            let err = refused(&o, &args);
            assert!(
                err.contains(&format!("{mission}: not a regular file")),
                "{args:?}: {err}"
            );
        }
    }
}

#[test]
fn a_mission_file_over_the_cap_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let big = dir.path().join("big.toml");
    let mut text = std::fs::read_to_string(root().join("behaviours/missions/small.toml"))
        .expect("small mission");
    text.push_str(&format!("# {}\n", "x".repeat(1024 * 1024)));
    std::fs::write(&big, text).expect("write");
    let mission = big.display().to_string();
    let save = write(dir.path(), "g.json", &save_value(&mission, &[base()]));
    let o = guarded(&["replay", &save]);
    let err = refused(&o, &[]);
    assert!(
        err.contains(&format!(
            "{mission}: larger than the 1 MiB a mission file may be"
        )),
        "{err}"
    );
}

#[test]
fn a_fifo_or_a_device_as_the_save_or_a_pack_file_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("g.json");
    mkfifo(&fifo);
    for save in [fifo.display().to_string(), "/dev/zero".to_string()] {
        for args in openings(&save, dir.path()) {
            let o = guarded(&strs(&args));
            let err = refused(&o, &args);
            assert!(
                err.contains(&format!("{save}: not a regular file")),
                "{args:?}: {err}"
            );
        }
    }
    // A pack one of whose scripts is a FIFO.
    let pack = dir.path().join("pack");
    copy_dir(&root().join("examples/expansion"), &pack);
    mkfifo(&pack.join("behaviours/evil.lua"));
    let packs = [base(), pack.display().to_string()];
    let save = write(dir.path(), "p.json", &save_value("small", &packs));
    for args in openings(&save, dir.path()) {
        let o = guarded(&strs(&args));
        let err = refused(&o, &args);
        assert!(
            err.contains("evil.lua: not a regular file"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_pack_named_twice_is_refused_at_the_second_before_any_loads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let b = serde_json::to_string(&base()).expect("json");
    let mut text = String::from("{\"version\": 1, \"mission\": \"small\", \"packs\": [\n");
    let packs = vec![b; 20_000];
    text.push_str(&packs.join(",\n"));
    text.push_str(
        "\n], \"seed\": 1, \"records\": [], \
         \"final\": {\"events\": 0, \"log_hash\": \"0\", \"state_hash\": \"0\", \"round\": 1}}\n",
    );
    let path = dir.path().join("twice.json");
    std::fs::write(&path, text).expect("write");
    let save = path.display().to_string();
    for args in openings(&save, dir.path()) {
        let o = guarded(&strs(&args));
        let err = refused(&o, &args);
        assert!(
            err.contains(&format!("{save}:3:1: pack ")) && err.contains("is named twice"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_save_of_too_many_packs_is_refused_at_the_first_too_many() {
    let dir = tempfile::tempdir().expect("tempdir");
    let packs: Vec<String> = std::iter::once(base())
        .chain((1..=64).map(|i| format!("/nowhere/pack{i}")))
        .collect();
    let save = write(dir.path(), "many.json", &save_value("small", &packs));
    let o = guarded(&["replay", &save]);
    let err = refused(&o, &[]);
    // Pretty JSON, its keys sorted: `"packs": [` on line 9, the 65th pack on line 74.
    assert!(
        err.contains(&format!("{save}:74:5: a save names at most 64 packs")),
        "{err}"
    );
}

/// No ESC, BEL or C1 control reaches the terminal.
fn assert_clean(bytes: &[u8], what: &str) {
    let text = String::from_utf8_lossy(bytes);
    let bad = text
        .chars()
        .find(|&c| c == '\u{1b}' || c == '\u{7}' || ('\u{80}'..='\u{9f}').contains(&c));
    assert!(bad.is_none(), "{what} holds {bad:?}: {text:?}");
}

const NASTY: &str = "x\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}31m";

fn with_record(action: Value) -> Value {
    let mut v = save_value("small", &[base()]);
    v["records"] = json!([{"side": "heroes", "action": action, "events_hash": "0"}]);
    v
}

#[test]
fn control_characters_in_a_save_are_refused_and_never_printed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut pack_dir = base();
    pack_dir.push_str(NASTY);
    let saves = [
        (
            "unit",
            with_record(json!({"action": "move", "unit": NASTY, "to": [1, 1]})),
        ),
        (
            "card",
            with_record(json!({"action": "discard", "card": NASTY})),
        ),
        ("mission", save_value(&format!("small{NASTY}"), &[base()])),
        (
            "mission path",
            save_value(&format!("/tmp/{NASTY}.toml"), &[base()]),
        ),
        ("pack", save_value("small", &[pack_dir])),
    ];
    for (what, v) in saves {
        let save = write(dir.path(), "g.json", &v);
        for args in openings(&save, dir.path()) {
            let o = guarded(&strs(&args));
            let err = refused(&o, &args);
            assert!(err.contains("control character"), "{what} {args:?}: {err}");
            assert_clean(&o.stdout, &format!("{what} {args:?}: stdout"));
            assert_clean(&o.stderr, &format!("{what} {args:?}: stderr"));
        }
    }
}

#[test]
fn control_characters_in_a_saved_missions_unit_ids_are_refused_and_never_printed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(root().join("behaviours/missions/small.toml"))
        .expect("small mission");
    let text = text.replace("id = \"alpha\"", "id = \"al\\u001b[2J\\u0007pha\\u009b\"");
    let mission: PathBuf = dir.path().join("m.toml");
    std::fs::write(&mission, text).expect("write");
    let save = write(
        dir.path(),
        "g.json",
        &save_value(&mission.display().to_string(), &[base()]),
    );
    for args in openings(&save, dir.path()) {
        let o = guarded(&strs(&args));
        let err = refused(&o, &args);
        assert!(err.contains("control character"), "{args:?}: {err}");
        assert_clean(&o.stdout, &format!("{args:?}: stdout"));
        assert_clean(&o.stderr, &format!("{args:?}: stderr"));
    }
}
