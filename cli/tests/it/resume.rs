//! `play --load SAVE` (issue 13): a game saved at action k and resumed plays on exactly as if
//! it had never stopped — the resumed stream's core events equal an uninterrupted game's — and
//! a finished game ends with its summary. A save whose records no longer replay is refused.

use crate::common;

use common::*;
use serde_json::Value;
use std::path::Path;

fn core_events(stream: &str) -> Vec<Value> {
    events(stream)
        .into_iter()
        .filter(crate::common::is_core_event)
        .collect()
}

/// The input lines that replay a save's records with a person on both sides, one group per
/// record: its action as JSON, then its answers (1-based) in the order they were asked.
fn input_of(save: &Value) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    for r in save["records"].as_array().into_iter().flatten() {
        let mut lines = vec![r["action"].to_string()];
        for a in r["answers"].as_array().into_iter().flatten() {
            lines.push((a["index"].as_u64().unwrap_or(0) + 1).to_string());
        }
        records.push(lines);
    }
    records
}

fn joined(groups: &[Vec<String>]) -> String {
    groups.iter().flatten().map(|l| format!("{l}\n")).collect()
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn humans(extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "play",
        "--json",
        "--no-watch",
        "--heroes",
        "human",
        "--overmind",
        "human",
    ]
    .map(String::from)
    .to_vec();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn run_owned(args: &[String], input: &str) -> std::process::Output {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&refs, input)
}

#[test]
fn a_resumed_game_plays_on_exactly_as_if_it_never_stopped() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("no temporary directory: {e}"));
    let path = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
    // The inputs: a whole game the AIs played, as a person on each side would type it.
    let ai = path("ai.json");
    let o = run(
        &[
            "play",
            "--json",
            "--no-watch",
            "--heroes",
            "ai",
            "--overmind",
            "ai",
            "--seed",
            "21",
            "--save",
            &ai,
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let records = input_of(&read_json(Path::new(&ai)));
    assert!(records.len() > 20, "a real game: {} actions", records.len());

    let whole = run_owned(&humans(&["--seed", "21"]), &joined(&records));
    let whole_events = core_events(&stdout(&whole));
    assert!(
        whole_events.iter().any(|e| e["event"] == "game_over"),
        "the typed game finishes as the AIs' did"
    );
    let summary = events(&stdout(&whole))
        .into_iter()
        .find(|e| e["event"] == "game_summary");
    let Some(summary) = summary else {
        panic!("no game_summary after game_over");
    };
    assert!(summary["rounds"].as_u64().unwrap_or(0) >= 1, "{summary}");
    assert!(summary["behaviours"].is_object(), "{summary}");

    // Stop after action k, save, quit; then load and type the rest.
    for k in [1, records.len() / 3, records.len() - 1] {
        let mid = path(&format!("mid{k}.json"));
        let first = format!("{}save {mid}\nquit\n", joined(&records[..k]));
        let o = run_owned(&humans(&["--seed", "21"]), &first);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = run_owned(&humans(&["--load", &mid]), &joined(&records[k..]));
        assert!(o.status.success(), "{}", stderr(&o));
        let resumed = core_events(&stdout(&o));
        assert_eq!(
            resumed.len(),
            whole_events.len(),
            "resumed after action {k}"
        );
        for (i, (a, b)) in resumed.iter().zip(&whole_events).enumerate() {
            assert_eq!(a, b, "event {i} differs, resumed after action {k}");
        }
    }
}

#[test]
fn a_save_that_no_longer_replays_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("no temporary directory: {e}"));
    let save = dir.path().join("s.json");
    let s = save.to_string_lossy().into_owned();
    let o = run(
        &[
            "play",
            "--json",
            "--no-watch",
            "--heroes",
            "ai",
            "--overmind",
            "ai",
            "--seed",
            "3",
            "--save",
            &s,
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Tamper with the first record's hash: it no longer has "the same outcome".
    let mut v = read_json(&save);
    v["records"][0]["events_hash"] = Value::String("0000000000000000".into());
    std::fs::write(&save, v.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let o = run(&["play", "--json", "--no-watch", "--load", &s], "");
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("cannot resume") && stderr(&o).contains("action 1"),
        "{}",
        stderr(&o)
    );
    let o = run(&["play", "--load", &s, "--seed", "4"], "");
    assert_eq!(
        o.status.code(),
        Some(2),
        "--load takes the seed from the save"
    );
}
