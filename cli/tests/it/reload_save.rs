//! Issue 27: a save made while scripts were hot-reloaded replays exactly. The save records the
//! content each action was resolved with (save version 2): the files the game began with and
//! the text of each reload; `replay` and `play --load` use them, whatever the disk holds now.

use crate::common;

use common::*;
use serde_json::Value;

/// A Hero west of a room whose door is the opening west of 4,1; a Rusher's Blip inside.
const MISSION: &str = r#"name = "Reload"
map = """
+-+-+-+-+-+-+-+-+-+-+
|. . . . . . . . . .|
+       +-+-+-+-+-+-+
|. . . . . . . . . .|
+       +           +
|y . . .|. . . . . .|
+       +-+-+-+-+-+-+
|. . . .|. . . . . .|
+-+-+-+-+-+-+-+-+-+-+
"""
objective = { kind = "eliminate" }
max_rounds = 4
decoys = 0

[[heroes]]
id = "alpha"
profile = "vance"
at = [0, 2]

[[blips]]
id = "b1"
at = [8, 2]
holds = "rusher"
size = 1
"#;

/// An alien type whose only behaviour is RUSH, so every reveal and activation performs it.
const RUSHER: &str = r#"return alien_type {
  id = "rusher", name = "Rusher", unit = { max = 1 },
  movement = 6, melee = 3, defence = 2, health = 2,
  behaviours = { "rush" },
}
"#;

fn rush(version: &str) -> String {
    format!(
        "return behaviour {{\n  id = \"rush\",\n  name = \"RUSH\",\n  text = \"Edited.\",\n  \
         perform = function(unit, game)\n    game:log(\"rush {version} is live\")\n  end,\n}}\n"
    )
}

#[test]
fn a_dev_game_with_two_hot_reloads_saves_and_replays_identically() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pack = dir.path().join("behaviours");
    copy_dir(&root().join("behaviours"), &pack);
    std::fs::write(pack.join("missions/reload.toml"), MISSION).expect("write mission");
    std::fs::write(pack.join("aliens/rusher.lua"), RUSHER).expect("write alien");
    let rush_file = pack.join("behaviours/rush.lua");
    let save = dir.path().join("dev.json");
    let save_s = save.display().to_string();

    let mut g = Driver::start(
        dir.path(),
        &[
            "play",
            "--json",
            "--dev",
            "--seed",
            "1",
            "--mission",
            "reload",
            "--save",
            &save_s,
        ],
    );
    g.wait("your_turn", |e| e["event"] == "your_turn");
    // First reload, then an action that runs it.
    std::fs::write(&rush_file, rush("v2")).expect("edit rush");
    let r = g.wait("reload", |e| e["event"] == "reload");
    assert_eq!(r["outcome"], "updated", "{r}");
    g.send("move alpha 3,1");
    let log = g.wait("v2's log", |e| e["event"] == "log");
    assert_eq!(log["message"], "rush v2 is live", "{log}");
    g.wait("your_turn", |e| e["event"] == "your_turn");
    // Second reload; the Rusher's next behaviour runs it.
    std::fs::write(&rush_file, rush("v3")).expect("edit rush again");
    let r = g.wait("reload", |e| e["event"] == "reload");
    assert_eq!(r["outcome"], "updated", "{r}");
    g.send("perform b1 rush");
    let log = g.wait("v3's log", |e| e["event"] == "log");
    assert_eq!(log["message"], "rush v3 is live", "{log}");
    g.wait("your_turn", |e| e["event"] == "your_turn");
    g.send("quit");
    g.wait("saved", |e| e["event"] == "saved");
    let status = g.child.wait().expect("exit");
    assert!(status.success());

    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("read")).expect("save");
    assert_eq!(saved["version"], 2);
    let reloads = saved["content"]["reloads"].as_array().expect("reloads");
    assert_eq!(reloads.len(), 2, "{}", saved["content"]);
    assert_eq!(reloads[0]["file"]["path"], "behaviours/rush.lua");

    // The author edits on: the disk no longer holds any version the game was played with.
    std::fs::write(&rush_file, rush("v4")).expect("edit after the game");
    let o = run_in(dir.path(), &["replay", "--json", &save_s], "");
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).expect("verdict");
    assert_eq!(v["identical"], true, "{v}");
    // The replay page marks where each reload happened and names the file.
    let page = dir.path().join("dev.html");
    let page_s = page.display().to_string();
    let o = run_in(
        dir.path(),
        &["replay", &save_s, "--html", &page_s, "--view", "overmind"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let html = std::fs::read_to_string(&page).expect("page");
    assert_eq!(
        html.matches("reloaded behaviours/rush.lua").count(),
        2,
        "two reloads marked"
    );
    // `play --load` resumes it with the same content, and goes on with the last reload's.
    let o = run_in(
        dir.path(),
        &["play", "--json", "--load", &save_s],
        "perform b1 rush\nquit\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("rush v3 is live"), "resumed with v3: {out}");
    // A save whose recorded texts were cut out no longer claims to replay: it names the file.
    let mut cut = saved.clone();
    cut["content"]["texts"] = serde_json::json!({});
    let cut_path = dir.path().join("cut.json");
    std::fs::write(&cut_path, serde_json::to_string(&cut).expect("json")).expect("write");
    let o = run_in(
        dir.path(),
        &["replay", "--json", &cut_path.display().to_string()],
        "",
    );
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("rush.lua"), "{}", stderr(&o));
}
