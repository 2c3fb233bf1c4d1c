//! `play --dev` (issue 12): the author tools are refused with `--view heroes` and without
//! `--dev`, and a game that used them saves and replays identically.

use crate::common;

use common::*;

#[test]
fn dev_is_refused_in_the_heroes_view() {
    let o = run(&["play", "--dev", "--view", "heroes", "--no-watch"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--dev"), "{}", stderr(&o));
}

#[test]
fn without_dev_the_tools_are_refused_and_the_game_goes_on() {
    let o = run(
        &["play", "--json", "--no-watch", "--seed", "3"],
        "spawn stalker 5,5\nquit\n",
    );
    let ev = events(&stdout(&o));
    let errors = of_kind(&ev, "error");
    assert!(
        errors
            .iter()
            .any(|e| e["message"].as_str().unwrap_or("").contains("play --dev")),
        "{errors:?}"
    );
    assert!(of_kind(&ev, "unit_spawned").is_empty());
}

#[test]
fn a_dev_game_saves_and_replays_identically() {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("no temporary directory: {e}"),
    };
    let save = dir.path().join("dev.json");
    let save_arg = save.to_string_lossy().into_owned();
    // The demo's map: find a free square from the first state the game prints.
    let o = run(
        &[
            "play",
            "--json",
            "--no-watch",
            "--dev",
            "--seed",
            "5",
            "--save",
            &save_arg,
        ],
        "status\nquit\n",
    );
    let ev = events(&stdout(&o));
    let state = &of_kind(&ev, "state")[0]["state"];
    let (w, h) = (
        state["map"]["width"].as_i64().unwrap_or(0),
        state["map"]["height"].as_i64().unwrap_or(0),
    );
    let taken: Vec<(i64, i64)> = state["units"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|u| u["models"].as_array().cloned().unwrap_or_default())
        .chain(state["blips"].as_array().cloned().unwrap_or_default())
        .map(|m| {
            (
                m["pos"][0].as_i64().unwrap_or(-1),
                m["pos"][1].as_i64().unwrap_or(-1),
            )
        })
        .collect();
    let terrain = state["map"]["terrain"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let free = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .find(|&(x, y)| terrain[(y * w + x) as usize] != "solid" && !taken.contains(&(x, y)));
    let Some((x, y)) = free else {
        panic!("no free square on the demo map");
    };
    let input = format!("spawn stalker {x},{y} 2\nperform s1 rush\nend\nquit\n");
    let o = run(
        &[
            "play",
            "--json",
            "--no-watch",
            "--dev",
            "--seed",
            "5",
            "--save",
            &save_arg,
        ],
        &input,
    );
    let ev = events(&stdout(&o));
    // The author's own (the AI's cards may bring units on too, with their card as source).
    let by_dev = of_kind(&ev, "unit_spawned")
        .into_iter()
        .filter(|e| e["source"] == "dev")
        .count();
    assert_eq!(by_dev, 1, "{ev:#?}");
    assert_eq!(of_kind(&ev, "behaviour_on_demand").len(), 1, "{ev:#?}");
    let text = std::fs::read_to_string(&save).unwrap_or_default();
    assert!(text.contains("\"dev\": true"), "{text}");
    let r = run(&["replay", &save_arg], "");
    assert!(r.status.success(), "{}{}", stdout(&r), stderr(&r));
    assert!(stdout(&r).contains("replays identically"), "{}", stdout(&r));
}
