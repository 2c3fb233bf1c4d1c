//! A program plays the Heroes over `play --json`, choosing every action from the `legal` lists,
//! against a pack whose behaviours count their calls in `game.storage`. Listing `legal` plays
//! nothing (docs/RULES.md §5, §10): each behaviour's count goes 1, 2, 3… in the log, with no
//! call lost to a listing, and the saved game replays identically.

use crate::common;

use common::*;
use serde_json::{json, Value};
use std::path::Path;

const IDS: [&str; 5] = [
    "rush",
    "quick_shot",
    "take_cover",
    "protect",
    "terrifying_presence",
];

/// A pack replacing the five base behaviours with ones that count their calls.
fn counting_pack(dir: &Path) {
    std::fs::create_dir_all(dir.join("behaviours")).expect("mkdir");
    let overrides: Vec<String> = IDS.iter().map(|i| format!("\"{i}\"")).collect();
    std::fs::write(
        dir.join("pack.toml"),
        format!(
            "name = \"counting\"\nversion = \"0.1.0\"\ndescription = \"Counts.\"\n\
             depends = [\"base\"]\noverrides = [{}]\n",
            overrides.join(", ")
        ),
    )
    .expect("pack.toml");
    for id in IDS {
        std::fs::write(
            dir.join("behaviours").join(format!("{id}.lua")),
            format!(
                "return behaviour {{\n  id = \"{id}\", name = \"COUNTED\", text = \"Counts its calls.\",\n  \
                 perform = function(unit, game)\n    \
                 game.storage.calls = (game.storage.calls or 0) + 1\n    \
                 game:log(\"{id} call \" .. game.storage.calls)\n  end,\n}}\n"
            ),
        )
        .expect("behaviour");
    }
}

/// Pick an action from a `legal` list: a simple deterministic walk through the entries.
fn pick(legal: &[Value], n: usize) -> Value {
    let entry = &legal[n % legal.len()];
    let action = entry["action"].as_str().unwrap_or("end");
    match action {
        "move" | "sprint" => {
            let to = entry["to"].as_array().cloned().unwrap_or_default();
            let sq = to[(n / 3) % to.len()].clone();
            json!({"action": action, "unit": entry["unit"], "to": sq})
        }
        "shoot" | "melee" => {
            let t = entry["targets"].as_array().cloned().unwrap_or_default();
            json!({"action": action, "unit": entry["unit"], "target": t[n % t.len()]})
        }
        _ => entry.clone(),
    }
}

#[test]
fn a_json_game_chosen_from_the_legal_lists_counts_every_call_once_and_replays() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pack = dir.path().join("counting");
    counting_pack(&pack);
    let mut calls = 0;
    for seed in [3u64, 11, 21] {
        let save = dir.path().join(format!("game{seed}.json"));
        let args = [
            "play",
            "--json",
            "--no-watch",
            "--heroes",
            "human",
            "--overmind",
            "ai",
            "--view",
            "overmind",
            "--seed",
            &seed.to_string(),
            "--pack",
            &pack.display().to_string(),
            "--save",
            &save.display().to_string(),
        ]
        .map(String::from);
        let mut d = Driver::start(&root(), &strs(&args));
        for n in 0..400 {
            let e = d.wait("a turn, a decision or the end", |v| {
                matches!(
                    v["event"].as_str(),
                    Some("your_turn" | "decision" | "game_over")
                )
            });
            match e["event"].as_str() {
                Some("game_over") => break,
                Some("decision") => d.send("1"),
                _ => {
                    let legal = e["legal"].as_array().cloned().unwrap_or_default();
                    let a = if n > 300 {
                        json!({"action": "end"})
                    } else {
                        pick(&legal, n * 7 + seed as usize)
                    };
                    d.send(&a.to_string());
                }
            }
        }
        d.send("quit");
        d.wait("the save", |v| v["event"] == "saved");
        // Each behaviour's count in the log goes 1, 2, 3…: no call was spent on a listing.
        for id in IDS {
            let counts: Vec<u64> = d
                .seen
                .iter()
                .filter(|v| v["event"] == "log")
                .filter_map(|v| v["message"].as_str())
                .filter_map(|m| m.strip_prefix(&format!("{id} call ")))
                .filter_map(|n| n.parse().ok())
                .collect();
            let expected: Vec<u64> = (1..=counts.len() as u64).collect();
            assert_eq!(counts, expected, "seed {seed}: {id} counted {counts:?}");
            calls += counts.len();
        }
        assert!(
            !d.seen.iter().any(|v| v["event"] == "error"),
            "every legal action was accepted: {:#?}",
            d.seen
                .iter()
                .filter(|v| v["event"] == "error")
                .collect::<Vec<_>>()
        );
        let o = run(&["replay", "--json", &save.display().to_string()], "");
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        let v: Value = serde_json::from_str(stdout(&o).trim()).expect("verdict");
        assert_eq!(v["identical"], true, "seed {seed}");
    }
    assert!(calls > 0, "the games revealed Blips and ran behaviours");
}
