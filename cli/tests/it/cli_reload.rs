//! Hot reload during a game: a `--json` game runs on a temporary copy of the base pack; the test
//! rewrites RUSH while the host waits for a command, sees the `reload` event, then reveals a
//! Rusher (whose only behaviour is RUSH) and sees the new code run. A broken edit is
//! reported with `path:line` and the last good version stays.

use crate::common;

use common::*;

/// A Hero west of a room whose door is the opening west of 4,1; a Stalker's Blip inside.
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

/// An alien type whose only behaviour is RUSH, so the reveal must perform it.
const RUSHER: &str = r#"return alien_type {
  id = "rusher", name = "Rusher", unit = { max = 1 },
  movement = 6, melee = 3, defence = 2, health = 2,
  behaviours = { "rush" },
}
"#;

const RUSH_V2: &str = r#"-- RUSH, edited during the game.
return behaviour {
  id = "rush",
  name = "RUSH",
  text = "Edited while a game runs.",
  perform = function(unit, game)
    game:log("rush v2 is live")
  end,
}
"#;

const RUSH_BROKEN: &str = "return behaviour {\n  id = \"rush\",\n  perform = function(unit, game)\n    game:log(\n  end\n}\n";

#[test]
fn an_edited_behaviour_is_live_for_the_next_reveal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pack = dir.path().join("behaviours");
    copy_dir(&root().join("behaviours"), &pack);
    std::fs::write(pack.join("missions/reload.toml"), MISSION).expect("write mission");
    std::fs::write(pack.join("aliens/rusher.lua"), RUSHER).expect("write alien");
    let rush = pack.join("behaviours/rush.lua");

    let mut g = Driver::start(
        dir.path(),
        &["play", "--json", "--seed", "1", "--mission", "reload"],
    );
    g.wait("your_turn", |e| e["event"] == "your_turn");

    std::fs::write(&rush, RUSH_V2).expect("edit rush");
    let r = g.wait("reload", |e| e["event"] == "reload");
    assert_eq!(r["outcome"], "updated", "{r}");
    assert_eq!(r["message"], "behaviour rush reloaded", "{r}");
    assert!(
        r["path"].as_str().is_some_and(|p| p.ends_with("rush.lua")),
        "{r}"
    );

    // Walk into the doorway: the Blip is revealed by the Hero, so a behaviour follows.
    g.send("move alpha 3,1");
    let rev = g.wait("blip_revealed", |e| e["event"] == "blip_revealed");
    assert_eq!(rev["triggers_behaviour"], true, "{rev}");
    let chosen = g.wait("behaviour_chosen", |e| e["event"] == "behaviour_chosen");
    assert_eq!(chosen["behaviour"], "rush", "{chosen}");
    let log = g.wait("the new code's log", |e| {
        e["event"] == "log" || e["event"] == "behaviour_failed"
    });
    assert_eq!(log["message"], "rush v2 is live", "{log}");
    g.wait("behaviour_performed", |e| {
        e["event"] == "behaviour_performed"
    });

    // A broken edit: reported with its place; the last good version stays.
    std::fs::write(&rush, RUSH_BROKEN).expect("break rush");
    let r = g.wait("reload", |e| e["event"] == "reload");
    assert_eq!(r["outcome"], "failed", "{r}");
    let msg = r["message"].as_str().unwrap_or_default();
    assert!(msg.contains("rush.lua:"), "names path:line: {msg}");
    assert!(msg.contains("last good version stays"), "{msg}");

    g.send("quit");
    g.wait("quit", |e| e["event"] == "quit");
    let status = g.child.wait().expect("exit");
    assert!(status.success());
}
