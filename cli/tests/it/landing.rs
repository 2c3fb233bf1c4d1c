//! The second mission, `landing`, deployed by the rules (docs/RULES.md §7.2): people answer the
//! `deploy` decisions in JSON, AI games end and replay, and simulate plays it through.

use crate::common;

use common::*;
use serde_json::Value;

#[test]
fn a_json_heroes_player_chooses_its_yellow_squares_and_the_squares_around_them() {
    let mut d = Driver::start(
        &root(),
        &[
            "play",
            "--json",
            "--no-watch",
            "--mission",
            "landing",
            "--heroes",
            "human",
            "--overmind",
            "ai",
            "--seed",
            "3",
        ],
    );
    // Asked first: alpha's Yellow Square, among the Heroes' two (the map's others are near a
    // Blip marker).
    let e = d.wait("the first deploy decision", |e| e["event"] == "decision");
    assert_eq!(e["kind"], "deploy", "{e}");
    assert_eq!(e["who"], "heroes", "{e}");
    let options = e["options"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        options,
        vec![Value::from(vec![3, 11]), Value::from(vec![12, 11])]
    );
    d.send("2");
    let e = d.wait("alpha deployed", |e| {
        e["event"] == "deployed" && e["unit"] == "alpha"
    });
    assert_eq!(e["at"], Value::from(vec![12, 11]));
    assert_eq!(e["side"], "heroes");
    // bravo takes the one left without being asked; charlie and delta are asked in turn,
    // each among squares next to their group's Yellow Square.
    for (hero, anchor) in [("charlie", [12, 11]), ("delta", [3, 11])] {
        let e = d.wait("a deploy decision", |e| e["event"] == "decision");
        assert_eq!(e["kind"], "deploy", "{e}");
        assert!(e["prompt"].as_str().unwrap_or("").contains(hero), "{e}");
        for o in e["options"].as_array().cloned().unwrap_or_default() {
            let (x, y) = (o[0].as_i64().unwrap_or(-9), o[1].as_i64().unwrap_or(-9));
            assert!(
                (x - anchor[0]).abs() <= 1 && (y - anchor[1]).abs() <= 1,
                "{hero}: {o} is not next to {anchor:?}"
            );
        }
        d.send("1");
    }
    let e = d.wait("the Heroes' turn", |e| e["event"] == "your_turn");
    assert_eq!(e["side"], "heroes");
    assert_ne!(
        e["legal"].as_array().map(Vec::len),
        Some(1),
        "after deploying, the Heroes' actions: {e}"
    );
    d.send("quit");
}

#[test]
fn ai_games_of_the_landing_mission_end_and_replay_identically() {
    let dir = tempfile::tempdir().expect("tempdir");
    for seed in 0..4u64 {
        let path = dir.path().join(format!("l{seed}.json"));
        let seed_s = seed.to_string();
        let save = path.display().to_string();
        let o = run(
            &[
                "play",
                "--json",
                "--no-watch",
                "--mission",
                "landing",
                "--heroes",
                "ai",
                "--overmind",
                "ai",
                "--seed",
                &seed_s,
                "--save",
                &save,
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let ev = events(&stdout(&o));
        assert!(
            ev.iter().any(|e| e["event"] == "game_over"),
            "seed {seed}: the game ends"
        );
        let deployed = ev.iter().filter(|e| e["event"] == "deployed").count();
        assert_eq!(
            deployed,
            4 + 8,
            "seed {seed}: 4 Heroes and 8 Blips deployed"
        );
        let o = run(&["replay", "--json", &save], "");
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        let v: Value = serde_json::from_str(stdout(&o).trim()).expect("verdict JSON");
        assert_eq!(v["identical"], true, "seed {seed}");
    }
    let o = run(
        &[
            "simulate",
            "--mission",
            "landing",
            "--games",
            "30",
            "--json",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("report JSON");
    assert_eq!(v["unfinished"], 0, "{v}");
    assert_eq!(v["games"], 30);
    // The pool's XXL Juggernaut comes out of its Blip and plays (docs/RULES.md §4.4).
    let revealed = v["aliens"]["juggernaut"]["revealed"].as_u64().unwrap_or(0);
    assert!(
        revealed > 0,
        "no Juggernaut revealed in 30 games: {}",
        v["aliens"]
    );
}

#[test]
fn the_replay_page_draws_each_unit_from_its_deployment_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("l.json").display().to_string();
    let o = run(
        &[
            "play",
            "--json",
            "--no-watch",
            "--mission",
            "landing",
            "--heroes",
            "ai",
            "--overmind",
            "ai",
            "--seed",
            "1",
            "--save",
            &save,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = dir.path().join("l.html").display().to_string();
    let o = run(&["replay", &save, "--html", &out, "--view", "heroes"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&out).expect("the page");
    let open = "<script type=\"application/json\" id=\"data\">";
    let start = html.find(open).expect("the data element") + open.len();
    let end = start + html[start..].find("</script>").expect("its end");
    let d: Value = serde_json::from_str(&html[start..end]).expect("the data is JSON");
    let frames = d["frames"].as_array().expect("frames");
    let steps = d["steps"].as_array().expect("steps");
    // Before the first `deployed`, nobody is on the board.
    assert_eq!(frames[0].as_array().map(Vec::len), Some(0));
    // At each `deployed` step, the unit stands on its square, and a Blip's contents stay
    // hidden from the Heroes.
    for s in steps.iter().filter(|s| s["ev"]["event"] == "deployed") {
        let frame = &frames[s["frame"].as_u64().expect("frame") as usize];
        let piece = frame
            .as_array()
            .and_then(|f| f.iter().find(|p| p[0] == s["ev"]["unit"]))
            .unwrap_or_else(|| panic!("{} is drawn once deployed", s["ev"]["unit"]));
        assert_eq!(piece[5], s["ev"]["at"][0]);
        assert_eq!(piece[6], s["ev"]["at"][1]);
        if s["ev"]["side"] == "overmind" {
            assert_eq!(
                piece[10], "",
                "a Blip's contents in the Heroes' page: {piece}"
            );
        }
    }
}
