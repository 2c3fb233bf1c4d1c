//! The Heroes' stream leaks nothing (docs/RULES.md §10): over many seeded AI-against-AI games with
//! `--view heroes`, no event says what a face-down Blip holds (its type, its size, whether it
//! is a Decoy) before that Blip's `blip_revealed`, no Overmind decision is shown, and the seed
//! is not given away. A second test swaps what two Blips hold: the Heroes' streams must be the
//! same bytes up to the first reveal of either.

use crate::common;

use common::*;
use serde_json::Value;
use std::collections::HashMap;

/// Check one Heroes' stream; `blips` are the ids of every Blip of the mission.
fn assert_no_leak(ev: &[Value], blips: &[String], what: &str) {
    let mut revealed_at: HashMap<&str, usize> = HashMap::new();
    for (i, e) in ev.iter().enumerate() {
        if e["event"] == "blip_revealed" {
            if let Some(b) = e["blip"].as_str() {
                revealed_at.entry(b).or_insert(i);
            }
        }
    }
    for (i, e) in ev.iter().enumerate() {
        assert!(
            !(e["event"] == "decision" && e["who"] == "overmind"),
            "{what}: an Overmind decision is shown: {e}"
        );
        if e["event"] == "game_started" {
            assert!(e.get("seed").is_none(), "{what}: the seed is shown: {e}");
        }
        for b in blips {
            let before = revealed_at.get(b.as_str()).is_none_or(|&r| i < r);
            if before {
                assert!(
                    !describes(e, b),
                    "{what}: event {i} describes face-down Blip {b}: {e}"
                );
            }
        }
        if e["event"] == "state" {
            for b in e["state"]["blips"].as_array().into_iter().flatten() {
                assert!(
                    b.get("contents").is_none(),
                    "{what}: a state dump shows contents: {b}"
                );
            }
        }
    }
}

fn demo_blips() -> Vec<String> {
    (1..=11).map(|i| format!("b{i}")).collect()
}

#[test]
fn the_heroes_stream_never_shows_what_a_face_down_blip_holds() {
    let blips = demo_blips();
    let mut reveals = 0;
    for seed in 0..40 {
        let heroes = run(&strs(&ai_game(seed, "heroes")), "");
        assert_eq!(heroes.status.code(), Some(0), "{}", stderr(&heroes));
        let ev = events(&stdout(&heroes));
        assert_no_leak(&ev, &blips, &format!("seed {seed}"));
        reveals += of_kind(&ev, "blip_revealed").len();
        // The full stream differs only in what the Heroes may not know.
        let full = run(&strs(&ai_game(seed, "overmind")), "");
        let full = events(&stdout(&full));
        assert_eq!(full.len(), ev.len(), "seed {seed}");
        for (h, f) in ev.iter().zip(&full).skip(1) {
            if h["event"] != "game_started" {
                assert_eq!(h, f, "seed {seed}");
            }
        }
    }
    assert!(
        reveals > 24,
        "the games revealed Blips ({reveals}), so the check saw reveals"
    );
}

#[test]
fn a_human_heroes_stream_with_every_command_leaks_nothing() {
    let mut input = String::new();
    for _ in 0..6 {
        input.push_str("status\nmap\nlog all\nmove captain 2,14\nundo\nshoot captain b1\nflip b1\nmove b1 2,3\nend\n");
    }
    for seed in [1, 2, 3] {
        let o = run(
            &["play", "--json", "--no-watch", "--seed", &seed.to_string()],
            &input,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let ev = events(&stdout(&o));
        assert!(!of_kind(&ev, "state").is_empty());
        assert_no_leak(&ev, &demo_blips(), &format!("human heroes, seed {seed}"));
        for e in of_kind(&ev, "map") {
            assert!(!e["text"].as_str().unwrap_or("").contains("holds"));
        }
    }
}

/// The small mission with b1 and b2's contents given explicitly.
fn small_with(b1: &str, b2: &str) -> String {
    let path = root().join("behaviours/missions/small.toml");
    let text = std::fs::read_to_string(path).expect("small mission");
    let head = text
        .split("[[blips]]")
        .next()
        .unwrap_or_default()
        .to_string();
    format!("{head}[[blips]]\nid = \"b1\"\nat = [5, 2]\n{b1}\n[[blips]]\nid = \"b2\"\nat = [7, 0]\n{b2}\n")
}

#[test]
fn swapping_what_blips_hold_changes_nothing_the_heroes_see_before_a_reveal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = dir.path().join("a.toml");
    let b = dir.path().join("b.toml");
    std::fs::write(
        &a,
        small_with("holds = \"stalker\"\nsize = 2", "holds = \"decoy\""),
    )
    .expect("write");
    std::fs::write(
        &b,
        small_with("holds = \"decoy\"", "holds = \"stalker\"\nsize = 2"),
    )
    .expect("write");
    for seed in 0..8 {
        let play = |m: &std::path::Path| {
            let mut args = ai_game(seed, "heroes");
            args.extend(["--mission".to_string(), m.display().to_string()]);
            let o = run(&strs(&args), "");
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            stdout(&o)
        };
        let (sa, sb) = (play(&a), play(&b));
        let (la, lb): (Vec<&str>, Vec<&str>) = (sa.lines().collect(), sb.lines().collect());
        let first_reveal = |ls: &[&str]| {
            ls.iter()
                .position(|l| l.contains("\"event\":\"blip_revealed\""))
                .unwrap_or(ls.len())
        };
        let n = first_reveal(&la).min(first_reveal(&lb));
        assert!(n > 3, "seed {seed}: the game started");
        // The first line, `session`, names the two mission files.
        assert_eq!(
            la[1..n],
            lb[1..n],
            "seed {seed}: the streams differ before any reveal"
        );
        // The reveal itself happens at the same moment to the same Blip.
        if n < la.len() && n < lb.len() {
            let (ea, eb): (Value, Value) = (
                serde_json::from_str(la[n]).expect("json"),
                serde_json::from_str(lb[n]).expect("json"),
            );
            assert_eq!(
                (&ea["blip"], &ea["at"], &ea["cause"]),
                (&eb["blip"], &eb["at"], &eb["cause"]),
                "seed {seed}"
            );
        }
        assert_no_leak(
            &events(&sa),
            &["b1".into(), "b2".into()],
            &format!("swap a, seed {seed}"),
        );
    }
}

/// The base pack's cards, by id and name (docs/RULES.md §15).
const CARDS: &[(&str, &str)] = &[
    ("acid_spit", "Acid Spit"),
    ("regrowth", "Regrowth"),
    ("frenzy", "Frenzy"),
    ("swarm", "Swarm"),
    ("cull", "Cull the Herd"),
    ("overrun", "Overrun"),
];

/// Every string anywhere inside `v`.
fn strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(s) => out.push(s),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

#[test]
fn a_human_heroes_stream_never_names_a_card_the_overmind_holds() {
    // Several rounds of the demo (which deals the cards), asking for everything there is to
    // see, and trying the Overmind's card commands as the Heroes.
    let mut input = String::new();
    for _ in 0..8 {
        input.push_str("status\nlog all\nplay acid_spit captain\nplay no_such_card captain\ndiscard swarm\ninterrupt frenzy regrowth\nend\n");
    }
    let (mut plays, mut refusals) = (0, Vec::new());
    for seed in [1, 2, 3, 4] {
        let o = run(
            &[
                "play",
                "--json",
                "--no-watch",
                "--view",
                "heroes",
                "--seed",
                &seed.to_string(),
            ],
            &input,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let ev = events(&stdout(&o));
        let mut public: Vec<&str> = Vec::new();
        for (i, e) in ev.iter().enumerate() {
            if e["event"] == "error" {
                // What the Heroes typed comes back; what matters is that the answer is the
                // same whatever the Overmind holds.
                refusals.push(e["message"].as_str().unwrap_or("").to_string());
                continue;
            }
            if e["event"] == "card_played" || e["event"] == "card_revealed" {
                plays += 1;
                if let Some(c) = e["card"].as_str() {
                    public.push(CARDS.iter().find(|(id, _)| *id == c).map_or(c, |x| x.0));
                }
            }
            let mut all = Vec::new();
            strings(e, &mut all);
            for s in all {
                for (id, name) in CARDS {
                    if s == *id || s == *name || s.contains(&format!("{name} ")) {
                        assert!(
                            public.contains(id),
                            "seed {seed}, line {i}: names card {id} before it was played: {e}"
                        );
                    }
                }
            }
        }
    }
    assert!(plays > 0, "the AI Overmind played cards in these games");
    refusals.sort();
    refusals.dedup();
    assert!(
        refusals
            .iter()
            .all(|m| !CARDS.iter().any(|(id, _)| m.contains(id))),
        "a refusal names a card: {refusals:#?}"
    );
}
