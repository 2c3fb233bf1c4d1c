//! End-to-end tests of `overmind play --json`: a scripted game driven line by line, errors
//! with suggestions, saves, and the stream's determinism (same seed and input, same bytes).

use crate::common;

use common::*;
use serde_json::Value;

const SCRIPT: &str = "\
mvoe captain 2,14
move captian 2,14
move captain 2,14
undo
move captain 2,14
7
overwatch
status
help move
move medic 30,30
end
log 5
quit
";

fn scripted(save: &str) -> std::process::Output {
    let input = SCRIPT.replace("quit", &format!("save {save}\nquit"));
    run(&["play", "--json", "--no-watch", "--seed", "11"], &input)
}

#[test]
fn a_scripted_json_game() {
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("mid.json");
    let o = scripted(&save.display().to_string());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ev = events(&stdout(&o));
    let k = kinds(&ev);
    assert_eq!(
        &k[..4],
        ["session", "game_started", "round_started", "phase_started"]
    );
    assert_eq!(
        ev[0]["view"], "heroes",
        "a person playing the Heroes sees the Heroes' view"
    );
    assert!(
        ev[1].get("seed").is_none(),
        "the Heroes' stream hides the seed: {}",
        ev[1]
    );
    assert_eq!(k[4], "your_turn");
    let legal = ev[4]["legal"].as_array().expect("legal actions");
    assert!(
        legal
            .iter()
            .any(|g| g["action"] == "move" && g["unit"] == "captain"),
        "{legal:?}"
    );
    assert_eq!(
        legal.last().map(|g| &g["action"]),
        Some(&Value::from("end"))
    );

    let errors = of_kind(&ev, "error");
    assert_eq!(
        errors[0]["suggestion"], "move captain 2,14",
        "{}",
        errors[0]
    );
    assert_eq!(
        errors[1]["suggestion"], "move captain 2,14",
        "{}",
        errors[1]
    );
    assert!(errors[1]["message"]
        .as_str()
        .unwrap_or("")
        .contains("captian"));
    assert!(
        errors[2]["message"]
            .as_str()
            .unwrap_or("")
            .contains("no decision is waiting"),
        "{}",
        errors[2]
    );
    assert!(
        errors[3]["message"]
            .as_str()
            .unwrap_or("")
            .contains("off the map")
            || errors[3]["message"].as_str().unwrap_or("").contains("away"),
        "{}",
        errors[3]
    );
    assert!(
        errors[3].get("suggestion").is_some(),
        "a refused move suggests the nearest legal one: {}",
        errors[3]
    );

    let moved = of_kind(&ev, "moved");
    assert_eq!(moved[0]["unit"], "captain");
    assert_eq!(
        moved[0]["path"].as_array().and_then(|p| p.last()),
        Some(&serde_json::json!([2, 14]))
    );
    assert_eq!(of_kind(&ev, "undone")[0]["action"], "move captain 2,14");
    assert_eq!(
        of_kind(&ev, "overwatch_set")[0]["unit"],
        "captain",
        "`overwatch` alone names the active unit"
    );

    let state = &of_kind(&ev, "state")[0]["state"];
    for b in state["blips"].as_array().expect("blips") {
        assert!(
            b.get("contents").is_none(),
            "the Heroes' state hides Blip contents: {b}"
        );
    }
    assert!(of_kind(&ev, "help")[0]["text"]
        .as_str()
        .unwrap_or("")
        .contains("move UNIT X,Y"));
    // `end` ended the Heroes' phase; the Overmind's AI played its phase; round 2 began.
    let phases: Vec<&Value> = of_kind(&ev, "phase_started")
        .into_iter()
        .map(|e| &e["side"])
        .collect();
    assert!(phases.contains(&&Value::from("overmind")), "{phases:?}");
    assert!(of_kind(&ev, "round_started").len() >= 2);
    assert_eq!(
        of_kind(&ev, "history")[0]["events"]
            .as_array()
            .map(Vec::len),
        Some(5)
    );
    assert_eq!(of_kind(&ev, "saved")[0]["path"], save.display().to_string());
    assert_eq!(k.last(), Some(&"quit"));

    let r = run(&["replay", &save.display().to_string()], "");
    assert_eq!(r.status.code(), Some(0), "{}{}", stdout(&r), stderr(&r));
    assert!(stdout(&r).contains("replays identically"), "{}", stdout(&r));
}

#[test]
fn the_stream_is_the_same_bytes_for_the_same_seed_and_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("s.json").display().to_string();
    let a = scripted(&save);
    let b = scripted(&save);
    assert!(!a.stdout.is_empty());
    assert_eq!(stdout(&a), stdout(&b));
    for view in ["heroes", "overmind"] {
        let args = ai_game(4, view);
        let a = run(&strs(&args), "");
        let b = run(&strs(&args), "");
        assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
        assert_eq!(stdout(&a), stdout(&b), "view {view}");
        let ev = events(&stdout(&a));
        let k = kinds(&ev);
        assert_eq!(
            k[k.len().saturating_sub(2)..],
            ["game_over", "game_summary"],
            "an AI game plays to the end, then sums up"
        );
    }
    let other = run(&strs(&ai_game(5, "overmind")), "");
    assert_ne!(
        stdout(&other),
        stdout(&run(&strs(&ai_game(4, "overmind")), "")),
        "the seed matters"
    );
}

#[test]
fn closed_input_ends_the_game_and_saves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("eof.json");
    let o = run(
        &[
            "play",
            "--json",
            "--no-watch",
            "--seed",
            "2",
            "--save",
            &save.display().to_string(),
        ],
        "move captain 2,15\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ev = events(&stdout(&o));
    let quit = of_kind(&ev, "quit");
    assert_eq!(quit[0]["reason"], "end of input");
    assert_eq!(kinds(&ev).last(), Some(&"saved"));
    let text = std::fs::read_to_string(&save).expect("saved");
    let v: Value = serde_json::from_str(&text).expect("save is JSON");
    assert_eq!(v["version"], 2);
    assert_eq!(v["mission"], "demo");
    assert_eq!(v["seed"], 2);
    assert_eq!(v["records"][0]["action"]["action"], "move");
}

#[test]
fn impossible_options_are_usage_errors() {
    let o = run(
        &["play", "--json", "--overmind", "human", "--view", "heroes"],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--view heroes"), "{}", stderr(&o));
    let o = run(&["play", "--json", "--mission", "no-such-mission"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no mission") && stderr(&o).contains("demo"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_human_overmind_answers_decisions_by_number() {
    // The Overmind flips Blips until one reveals a unit of several models, whose placement is
    // the Overmind's decision: the host asks with a `decision` event and reads the number.
    let mut input = String::new();
    for b in 1..=11 {
        input.push_str(&format!("flip b{b}\n2\n1\n1\n1\nend\n"));
    }
    input.push_str("quit\n");
    let o = run(
        &[
            "play",
            "--json",
            "--no-watch",
            "--heroes",
            "ai",
            "--overmind",
            "human",
            "--seed",
            "3",
        ],
        &input,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ev = events(&stdout(&o));
    assert_eq!(ev[0]["view"], "overmind");
    let decisions = of_kind(&ev, "decision");
    assert!(!decisions.is_empty(), "some decision was asked");
    for d in &decisions {
        assert_eq!(d["who"], "overmind");
        assert!(d["options"].as_array().is_some_and(|o| o.len() > 1), "{d}");
        assert!(d["prompt"].as_str().is_some_and(|p| !p.is_empty()));
    }
    assert!(!of_kind(&ev, "blip_revealed").is_empty());
}

/// A command for one entry of `your_turn`'s `legal`, the `k`th square or target.
fn command_for(g: &Value, k: usize) -> String {
    let action = g["action"].as_str().unwrap_or("end");
    let unit = g["unit"]
        .as_str()
        .map(|u| format!(" {u}"))
        .unwrap_or_default();
    // A card group names its card: `play acid_spit captain`.
    let card = g["card"]
        .as_str()
        .map(|c| format!(" {c}"))
        .unwrap_or_default();
    let unit = format!("{unit}{card}");
    if let Some(to) = g["to"].as_array().filter(|t| !t.is_empty()) {
        let p = &to[k % to.len()];
        return format!("{action}{unit} {},{}", p[0], p[1]);
    }
    if let Some(ts) = g["targets"].as_array().filter(|t| !t.is_empty()) {
        return format!("{action}{unit} {}", ts[k % ts.len()].as_str().unwrap_or(""));
    }
    format!("{action}{unit}")
}

#[test]
fn every_action_listed_as_legal_is_accepted() {
    for (who, seed) in [("heroes", 21), ("overmind", 22), ("heroes", 23)] {
        let args = match who {
            "heroes" => vec!["play", "--json", "--no-watch", "--view", "overmind"],
            _ => vec![
                "play",
                "--json",
                "--no-watch",
                "--heroes",
                "ai",
                "--overmind",
                "human",
            ],
        };
        let seed = seed.to_string();
        let mut args = args.clone();
        args.extend(["--seed", seed.as_str()]);
        let mut d = Driver::start(&root(), &args);
        let mut tried = 0;
        for step in 0..120usize {
            let e = d.wait("your_turn or the end", |e| {
                ["your_turn", "game_over", "decision", "error"]
                    .contains(&e["event"].as_str().unwrap_or(""))
            });
            match e["event"].as_str() {
                Some("your_turn") => {}
                Some("decision") => {
                    d.send("1");
                    continue;
                }
                Some("error") => panic!("{who} seed {seed}: a legal action was refused: {e}"),
                _ => break,
            }
            let legal = e["legal"].as_array().cloned().unwrap_or_default();
            assert_eq!(
                legal.last().map(|g| &g["action"]),
                Some(&Value::from("end"))
            );
            // Mostly act; now and then end, so the game moves on.
            let pick = if step % 5 == 4 || legal.len() == 1 {
                legal.len() - 1
            } else {
                (step * 7) % (legal.len() - 1)
            };
            d.send(&command_for(&legal[pick], step * 13));
            tried += 1;
        }
        assert!(tried > 20, "{who}: tried {tried} actions");
        d.send("quit");
    }
}

#[test]
fn input_that_is_not_a_terminal_gets_the_json_protocol() {
    let o = run(&["play", "--no-watch", "--seed", "2"], "status\nquit\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ev = events(&stdout(&o));
    assert_eq!(kinds(&ev).first(), Some(&"session"));
    assert_eq!(kinds(&ev).last(), Some(&"quit"));
}

#[test]
fn a_refused_action_names_the_rule_that_refused_it() {
    let input = "move captain 30,30\nshoot captain medic\nmove captian 2,14\nquit\n";
    let o = run(&["play", "--json", "--no-watch", "--seed", "11"], input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let errors: Vec<Value> = events(&stdout(&o))
        .into_iter()
        .filter(|e| e["event"] == "error")
        .collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    // Off the map: the move's squares; a Hero at a Hero: the target; a misspelt unit is not
    // a command the rules saw, so it names no rule.
    assert_eq!(errors[0]["refusal"], "path", "{}", errors[0]);
    assert_eq!(errors[1]["refusal"], "target", "{}", errors[1]);
    assert!(errors[2].get("refusal").is_none(), "{}", errors[2]);
}
