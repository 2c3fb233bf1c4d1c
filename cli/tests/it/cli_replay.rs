//! `overmind replay`: saved games from many seeds replay identically in a fresh process; a
//! tampered save is caught (exit 1, naming the action); a broken save names its
//! `path:line:column`. Also `overmind simulate`, whose numbers must not depend on `--jobs`.

use crate::common;

use common::*;
use serde_json::Value;

fn save_ai_game(dir: &std::path::Path, seed: u64) -> std::path::PathBuf {
    let path = dir.join(format!("g{seed}.json"));
    let mut args = ai_game(seed, "overmind");
    args.extend(["--save".to_string(), path.display().to_string()]);
    let o = run(&strs(&args), "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    path
}

#[test]
fn saved_games_from_many_seeds_replay_identically() {
    let dir = tempfile::tempdir().expect("tempdir");
    for seed in 100..112 {
        let path = save_ai_game(dir.path(), seed);
        let o = run(&["replay", "--json", &path.display().to_string()], "");
        assert_eq!(
            o.status.code(),
            Some(0),
            "seed {seed}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        let v: Value = serde_json::from_str(stdout(&o).trim()).expect("verdict JSON");
        assert_eq!(v["identical"], true);
        let saved: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("save");
        assert_eq!(v["events"], saved["final"]["events"]);
        assert!(v["actions"].as_u64().is_some_and(|n| n > 10), "{v}");
    }
}

#[test]
fn a_tampered_save_does_not_replay() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = save_ai_game(dir.path(), 7);
    let text = std::fs::read_to_string(&path).expect("read");
    let mut v: Value = serde_json::from_str(&text).expect("save");
    // Another seed: the same actions now roll other dice, or are refused.
    v["seed"] = Value::from(8);
    std::fs::write(&path, serde_json::to_string_pretty(&v).expect("json")).expect("write");
    let o = run(&["replay", &path.display().to_string()], "");
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("does not replay identically") && err.contains("action "),
        "{err}"
    );
}

#[test]
fn a_broken_save_names_its_place() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.json");
    std::fs::write(
        &path,
        "{\n  \"version\": 1,\n  \"mission\": \"demo\",\n  \"seed\": \"x\"\n}\n",
    )
    .expect("write");
    let o = run(&["replay", &path.display().to_string()], "");
    assert_eq!(o.status.code(), Some(1));
    let p = path.display().to_string();
    let err = stderr(&o);
    assert!(err.starts_with(&format!("error: {p}:4:")), "{err}");
    assert!(err.contains("invalid type"), "{err}");
    std::fs::write(&path, "{\"version\": 3}").expect("write");
    let err = stderr(&run(&["replay", &p], ""));
    assert!(
        err.contains(&format!("{p}:1:2: save version 3 is not supported")),
        "{err}"
    );
    let err = stderr(&run(
        &[
            "replay",
            &dir.path().join("none.json").display().to_string(),
        ],
        "",
    ));
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn simulate_reports_the_same_numbers_on_any_number_of_threads() {
    let sim = |jobs: &str| {
        let o = run(
            &[
                "simulate", "--games", "12", "--seed", "40", "--jobs", jobs, "--json",
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let mut v: Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
        assert!(
            v["games_per_second"].as_f64().is_some_and(|g| g > 0.0),
            "{v}"
        );
        assert!(
            v["games_per_cpu_second"].as_f64().is_some_and(|g| g > 0.0),
            "{v}"
        );
        for k in [
            "games_per_second",
            "seconds",
            "jobs",
            "cpu_seconds",
            "games_per_cpu_second",
        ] {
            v.as_object_mut().map(|m| m.remove(k));
        }
        v
    };
    let one = sim("1");
    assert_eq!(one, sim("2"));
    assert_eq!(one["games"], 12);
    let h = &one["wins"]["heroes"];
    let (lo, rate, hi) = (
        h["ci95"][0].as_f64(),
        h["rate"].as_f64(),
        h["ci95"][1].as_f64(),
    );
    assert!(lo <= rate && rate <= hi, "{h}");
    let chosen: u64 = one["behaviours"]
        .as_object()
        .map(|m| m.values().filter_map(|b| b["chosen"].as_u64()).sum())
        .unwrap_or(0);
    assert!(chosen > 0, "behaviours fired: {one}");
    assert!(
        one["aliens"].as_object().is_some_and(|m| !m.is_empty()),
        "{one}"
    );

    let table = run(&["simulate", "--games", "4", "--jobs", "2"], "");
    assert_eq!(table.status.code(), Some(0), "{}", stderr(&table));
    let t = stdout(&table);
    assert!(
        t.contains("95% CI") && t.contains("games/s") && t.contains("behaviour"),
        "{t}"
    );
    let bad = run(&["simulate", "--games", "0"], "");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn simulate_compares_with_an_extra_pack() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pack = dir.path().join("extra");
    std::fs::create_dir_all(&pack).expect("mkdir");
    std::fs::write(
        pack.join("pack.toml"),
        "name = \"extra\"\nversion = \"0.1.0\"\ndepends = [\"base\"]\n",
    )
    .expect("write");
    let o = run(
        &[
            "simulate",
            "--games",
            "4",
            "--json",
            "--compare",
            &pack.display().to_string(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    // An empty expansion changes nothing.
    assert_eq!(v["difference"]["heroes_win_rate"], 0.0, "{v}");
    assert_eq!(v["base"]["wins"], v["compare"]["wins"]);
}

#[test]
fn a_save_from_another_checkout_finds_the_base_pack_here() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = save_ai_game(dir.path(), 5);
    let text = std::fs::read_to_string(&path).expect("read");
    let mut v: Value = serde_json::from_str(&text).expect("save");
    v["packs"] = Value::from(vec!["/elsewhere/overmind/behaviours"]);
    std::fs::write(&path, serde_json::to_string_pretty(&v).expect("json")).expect("write");
    let o = run(&["replay", &path.display().to_string()], "");
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("replays identically"), "{}", stdout(&o));
}
