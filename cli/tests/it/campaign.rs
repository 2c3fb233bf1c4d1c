//! Campaigns (docs/RULES.md §16): `overmind campaign` played to its end by the AI and by a JSON
//! player, saved and resumed between and within missions; the carry-over seen in the next
//! mission's state; `resolution` hooks; `simulate --campaign`; a broken Mission Book.

use crate::common;

use common::*;
use serde_json::Value;
use std::path::Path;

/// The base pack's EXAMPLE campaign, AI against AI, as JSON lines.
fn ai_campaign(seed: &str) -> Vec<Value> {
    let o = run(
        &[
            "campaign",
            "example",
            "--json",
            "--no-watch",
            "--heroes",
            "ai",
            "--overmind",
            "ai",
            "--seed",
            seed,
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    events(&stdout(&o))
}

/// The campaign mission the Mission Book (behaviours/campaigns/example.toml) plays after `id`
/// when `winner` won it.
fn book_next(id: &str, winner: &str) -> Option<&'static str> {
    match (id, winner) {
        ("landing", "heroes") => Some("outpost"),
        ("landing", "overmind") => Some("fallback"),
        ("fallback", _) => Some("outpost"),
        _ => None,
    }
}

#[test]
fn an_ai_campaign_follows_the_mission_book_to_its_end() {
    for seed in ["1", "4"] {
        let es = ai_campaign(seed);
        let starts = of_kind(&es, "campaign_mission");
        let resolutions = of_kind(&es, "resolution");
        assert_eq!(
            starts[0]["id"], "landing",
            "the first mission listed is played first"
        );
        assert_eq!(starts.len(), resolutions.len(), "every mission is resolved");
        assert_eq!(of_kind(&es, "game_summary").len(), starts.len());
        for (i, r) in resolutions.iter().enumerate() {
            let id = r["id"].as_str().unwrap_or_default();
            let winner = r["winner"].as_str().unwrap_or_default();
            let next = book_next(id, winner);
            assert_eq!(r["next"].as_str(), next, "{r}");
            match next {
                Some(n) => {
                    assert_eq!(starts[i + 1]["id"], n);
                    assert_eq!(starts[i + 1]["number"], i + 2);
                    // What the Resolution Phase left is what the next mission carries in.
                    assert_eq!(starts[i + 1]["heroes"], r["heroes"]);
                }
                None => assert_eq!(i + 1, resolutions.len(), "the campaign ends there"),
            }
        }
        let over = of_kind(&es, "campaign_over");
        assert_eq!(over.len(), 1);
        let last = resolutions.last().map(|r| r["winner"].clone());
        assert_eq!(
            Some(over[0]["winner"].clone()),
            last,
            "the last mission decides"
        );
        assert!(
            over[0]["missions"][0].get("seed").is_none(),
            "no mission's seed is told"
        );
    }
}

#[test]
fn the_resolution_phase_heals_one_and_keeps_xp_from_kills() {
    let es = ai_campaign("1");
    let first = of_kind(&es, "resolution")[0];
    for h in first["heroes"].as_array().cloned().unwrap_or_default() {
        let health = h["health"].as_u64().unwrap_or(0);
        assert!(health >= 1, "a Hero killed comes back with 1 Health: {h}");
        let xp = h["xp"].as_u64().unwrap_or(0);
        assert_eq!(h["level"].as_u64(), Some((1 + xp / 3).min(5)), "{h}");
    }
    if first["winner"] == "heroes" {
        let items: usize = first["heroes"]
            .as_array()
            .map(|hs| {
                hs.iter()
                    .map(|h| h["items"].as_array().map_or(0, Vec::len))
                    .sum()
            })
            .unwrap_or(0);
        assert!(items >= 3, "a win gives 3 Items: {first}");
    }
}

/// A JSON Heroes player that deploys on the first square offered and ends every turn; quits
/// (sends `quit`) at its `quit_at`-th turn, if any. Gives every event read, up to
/// `campaign_over`, or to `saved` after a quit.
fn passive_player(args: &[&str], quit_at: Option<usize>) -> Vec<Value> {
    let mut d = Driver::start(&root(), args);
    let mut turns = 0;
    loop {
        let e = d.wait("the next prompt", |e| {
            ["decision", "your_turn", "campaign_over", "saved"]
                .contains(&e["event"].as_str().unwrap_or(""))
        });
        match e["event"].as_str().unwrap_or("") {
            "decision" => d.send("1"),
            "your_turn" => {
                turns += 1;
                d.send(if Some(turns) == quit_at {
                    "quit"
                } else {
                    "end"
                });
            }
            _ => break,
        }
    }
    d.seen.clone()
}

fn campaign_args(save: &str) -> Vec<&str> {
    vec![
        "campaign",
        "example",
        "--json",
        "--no-watch",
        "--heroes",
        "human",
        "--overmind",
        "ai",
        "--seed",
        "4",
        "--save",
        save,
    ]
}

fn missions_of(es: &[Value]) -> Vec<Value> {
    of_kind(es, "campaign_over")
        .first()
        .map(|o| o["missions"].clone())
        .into_iter()
        .collect()
}

#[test]
fn a_json_campaign_is_saved_and_resumed_within_and_between_missions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let whole = dir.path().join("whole.json");
    let whole = whole.to_string_lossy().to_string();
    let straight = passive_player(&campaign_args(&whole), None);
    let expected = missions_of(&straight);
    assert_eq!(expected.len(), 1, "the campaign ends: {straight:#?}");

    // Within a mission: quit at the 5th turn, then the same command goes on from there.
    let part = dir.path().join("part.json");
    let part = part.to_string_lossy().to_string();
    let first = passive_player(&campaign_args(&part), Some(5));
    assert!(of_kind(&first, "campaign_over").is_empty());
    assert_eq!(of_kind(&first, "saved").len(), 1, "{first:#?}");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&part).expect("save")).expect("json");
    assert_eq!(saved["kind"], "campaign");
    assert!(saved["game"].is_object(), "saved within the mission");
    let rest = passive_player(&campaign_args(&part), None);
    assert!(
        of_kind(&rest, "help").iter().any(|h| h["text"]
            .as_str()
            .unwrap_or("")
            .starts_with("resuming campaign")),
        "{rest:#?}"
    );
    assert_eq!(
        missions_of(&rest),
        expected,
        "resumed within a mission, it ends the same"
    );

    // Between missions: the save written before the first Resolution Phase is told holds
    // the second mission to play, and nothing of one in progress.
    let between = dir.path().join("between.json");
    let mut d = Driver::start(&root(), &campaign_args(&between.to_string_lossy()));
    loop {
        let e = d.wait("a prompt or the resolution", |e| {
            ["decision", "your_turn", "resolution"].contains(&e["event"].as_str().unwrap_or(""))
        });
        match e["event"].as_str().unwrap_or("") {
            "decision" => d.send("1"),
            "your_turn" => d.send("end"),
            _ => break,
        }
    }
    let kept = dir.path().join("kept.json");
    std::fs::copy(&between, &kept).expect("copy the save");
    drop(d);
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&kept).expect("save")).expect("json");
    assert!(saved.get("game").is_none(), "between missions: {saved}");
    assert_eq!(saved["carry"]["played"].as_array().map(Vec::len), Some(1));
    let rest = passive_player(&campaign_args(&kept.to_string_lossy()), None);
    assert_eq!(
        missions_of(&rest),
        expected,
        "resumed between missions, it ends the same"
    );
}

#[test]
fn the_next_mission_starts_with_the_carried_health_and_xp() {
    let mut d = Driver::start(
        &root(),
        &[
            "campaign",
            "example",
            "--json",
            "--no-watch",
            "--heroes",
            "human",
            "--overmind",
            "ai",
            "--seed",
            "4",
            "--view",
            "heroes",
        ],
    );
    let mut missions = 0;
    let carried = loop {
        let e = d.wait("a prompt", |e| {
            ["decision", "your_turn", "campaign_mission"]
                .contains(&e["event"].as_str().unwrap_or(""))
        });
        match e["event"].as_str().unwrap_or("") {
            "campaign_mission" => {
                missions += 1;
                if missions == 2 {
                    break e;
                }
            }
            "decision" => d.send("1"),
            _ => d.send("end"),
        }
    };
    d.wait("the first turn of mission 2", |e| e["event"] == "your_turn");
    d.send("status");
    let st = d.wait("the state", |e| e["event"] == "state");
    let mut matched = 0;
    for h in carried["heroes"].as_array().cloned().unwrap_or_default() {
        let profile = h["profile"].as_str().unwrap_or_default();
        let unit = st["state"]["units"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|u| u["models"][0]["kind"] == profile);
        // A Hero of the campaign not in this mission sits it out.
        let Some(u) = unit else { continue };
        assert_eq!(u["models"][0]["health"], h["health"], "{profile}: {u}");
        assert_eq!(u["xp"], h["xp"], "{profile}: {u}");
        matched += 1;
    }
    assert!(
        matched >= 2,
        "the second mission has Heroes of the first: {st}"
    );
    assert!(
        carried["heroes"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|h| h["health"].as_u64().unwrap_or(0) < 8),
        "this seed carries a wounded Hero in, so Health is shown to carry: {carried}"
    );
}

/// A pack with a small campaign over the base `small` mission and two `resolution` hooks: one
/// that gives XP and says so, one that leaves a Health out of range.
fn hooked_pack(dir: &Path) {
    std::fs::create_dir_all(dir.join("campaigns")).expect("dir");
    std::fs::create_dir_all(dir.join("triggers")).expect("dir");
    std::fs::write(
        dir.join("pack.toml"),
        "name = \"hooks\"\nversion = \"0.1.0\"\n",
    )
    .expect("w");
    std::fs::write(
        dir.join("campaigns/short.toml"),
        "name = \"Short\"\n\n[[missions]]\nid = \"one\"\nmission = \"small\"\nif_heroes_win = \"two\"\nif_overmind_wins = \"two\"\n\n[[missions]]\nid = \"two\"\nmission = \"small\"\n",
    )
    .expect("w");
    std::fs::write(
        dir.join("triggers/drill.lua"),
        "return trigger {\n  id = \"drill\",\n  name = \"Drill\",\n  text = \"+5 XP each.\",\n  resolution = function(r)\n    for _, h in pairs(r.heroes) do\n      h.xp = h.xp + 5\n    end\n    r.log[#r.log + 1] = \"drilled\"\n  end,\n}\n",
    )
    .expect("w");
    std::fs::write(
        dir.join("triggers/greedy.lua"),
        "return trigger {\n  id = \"greedy\",\n  name = \"Greedy\",\n  text = \"Too much.\",\n  resolution = function(r)\n    for _, h in pairs(r.heroes) do\n      h.health = 99\n    end\n    r.upgrade_nodes = 3\n  end,\n}\n",
    )
    .expect("w");
}

#[test]
fn resolution_hooks_change_the_carry_and_a_bad_one_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    hooked_pack(dir.path());
    let pack = dir.path().to_string_lossy().to_string();
    let o = run(
        &[
            "campaign",
            "short",
            "--pack",
            &pack,
            "--json",
            "--no-watch",
            "--heroes",
            "ai",
            "--overmind",
            "ai",
            "--seed",
            "2",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let es = events(&stdout(&o));
    let r = of_kind(&es, "resolution")[0];
    let lines: Vec<&str> = r["lines"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    assert!(lines.contains(&"drill: drilled"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l
            .starts_with("resolution hook of greedy failed, and changed nothing")
            && l.contains("greedy.lua")
            && l.contains("health")),
        "{lines:?}"
    );
    assert_eq!(
        r["upgrade_nodes"], 0,
        "the failed hook's nodes are not kept"
    );
    for h in r["heroes"].as_array().cloned().unwrap_or_default() {
        assert!(h["xp"].as_u64().unwrap_or(0) >= 5, "drilled: {h}");
        assert!(h["health"].as_u64().unwrap_or(99) <= 8, "{h}");
    }
}

#[test]
fn simulate_campaign_reports_campaigns_missions_and_paths_whatever_the_jobs() {
    let sim = |jobs: &str| {
        let o = run(
            &[
                "simulate",
                "--campaign",
                "example",
                "--games",
                "6",
                "--jobs",
                jobs,
                "--json",
            ],
            "",
        );
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str::<Value>(&stdout(&o)).expect("one JSON object")
    };
    let one = sim("1");
    assert_eq!(one, sim("2"), "the same report on any number of threads");
    assert_eq!(one["campaigns"], 6);
    let heroes = one["heroes_wins"].as_u64().unwrap_or(0);
    let overmind = one["overmind_wins"].as_u64().unwrap_or(0);
    assert_eq!(heroes + overmind, 6);
    let missions = one["missions"].as_array().cloned().unwrap_or_default();
    let played = |id: &str| {
        missions
            .iter()
            .find(|m| m["id"] == id)
            .and_then(|m| m["played"].as_u64())
            .unwrap_or(0)
    };
    assert_eq!(
        played("landing"),
        6,
        "every campaign begins with the landing"
    );
    assert_eq!(played("outpost"), 6, "and every path ends at the outpost");
    let landing = missions
        .iter()
        .find(|m| m["id"] == "landing")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        played("fallback"),
        landing["overmind_wins"].as_u64().unwrap_or(99),
        "the fallback is played after each landing the Overmind won"
    );
    let outpost = missions
        .iter()
        .find(|m| m["id"] == "outpost")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        outpost["heroes_wins"].as_u64(),
        Some(heroes),
        "the last mission decides"
    );
    let paths: u64 = one["paths"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["campaigns"].as_u64())
        .sum();
    assert_eq!(paths, 6);
}

#[test]
fn a_mission_book_that_loops_is_a_problem_at_its_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("campaigns")).expect("dir");
    std::fs::write(
        dir.path().join("pack.toml"),
        "name = \"loop\"\nversion = \"0.1.0\"\n",
    )
    .expect("w");
    let file = dir.path().join("campaigns/loop.toml");
    std::fs::write(
        &file,
        "name = \"Loop\"\n\n[[missions]]\nid = \"a\"\nmission = \"small\"\nif_heroes_win = \"b\"\n\n[[missions]]\nid = \"b\"\nmission = \"small\"\nif_overmind_wins = \"a\"\nif_heroes_win = \"nowhere\"\n",
    )
    .expect("w");
    let pack = dir.path().to_string_lossy().to_string();
    let o = run(&["check", "--pack", &pack], "");
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "{}:12:1: missions[1].if_heroes_win: no mission \"nowhere\"",
            file.display()
        )),
        "{out}"
    );
    std::fs::write(
        &file,
        "name = \"Loop\"\n\n[[missions]]\nid = \"a\"\nmission = \"small\"\nif_heroes_win = \"b\"\n\n[[missions]]\nid = \"b\"\nmission = \"small\"\nif_overmind_wins = \"a\"\n",
    )
    .expect("w");
    let o = run(&["check", "--pack", &pack], "");
    let out = stdout(&o);
    assert!(out.contains("a campaign must end"), "{out}");
    let o = run(&["campaign", "loop", "--pack", &pack, "--json"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("a campaign must end"), "{}", stderr(&o));
}
