//! An expansion's own hazard and item act in a running game, and an edit to the hazard is live
//! for the next step (issue 14's "done when"): a `--json` game of the example expansion's
//! Lurker Den, on a temporary copy of `examples/expansion`.

use crate::common;

use common::*;

/// The expansion's Spore Cloud, edited while the game runs: 2 damage now, and a new log line.
const SPORES_V2: &str = r#"-- Edited while a game runs.
return token {
  id = "spore_cloud",
  name = "Spore Cloud",
  class = "hazard",
  symbol = "%",
  text = "A Hero who enters the cloud takes 2 damage.",
  on = {
    step = function(game, moment)
      local model = moment.model
      if model == nil or type(model) == "string" or model.side ~= "heroes" then
        return
      end
      game:log("spores v2 are live")
      game:damage(model, 2)
    end,
  },
}
"#;

/// The first `effect` event of `source` from here on, or a failure of it.
fn effect_of(g: &mut Driver, source: &str) -> serde_json::Value {
    let e = g.wait(source, |e| {
        (e["event"] == "effect" || e["event"] == "trigger_failed") && e["source"] == source
    });
    assert_eq!(e["event"], "effect", "{e}");
    e
}

#[test]
fn an_expansions_hazard_and_item_act_in_a_game_and_the_hazard_reloads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pack = dir.path().join("expansion");
    copy_dir(&root().join("examples/expansion"), &pack);
    let mut g = Driver::start(
        dir.path(),
        &[
            "play",
            "--json",
            "--seed",
            "1",
            "--pack",
            "expansion",
            "--mission",
            "lurker_den",
        ],
    );
    g.wait("your_turn", |e| e["event"] == "your_turn");

    // The hazard as the pack wrote it: the scout walks through the cloud (2,5).
    g.send("move scout 3,5 via 2,5");
    let e = effect_of(&mut g, "spore_cloud");
    assert_eq!(e["effect"], "damage", "{e}");
    assert_eq!(e["model"], "scout", "{e}");
    assert_eq!(e["amount"], 1, "{e}");
    g.wait("your_turn", |e| e["event"] == "your_turn");

    // Edited during the game: the scout's next step into the cloud meets the new code.
    std::fs::write(pack.join("tokens/spore_cloud.lua"), SPORES_V2).expect("edit");
    let r = g.wait("reload", |e| e["event"] == "reload");
    assert_eq!(r["outcome"], "updated", "{r}");
    assert!(
        r["path"]
            .as_str()
            .is_some_and(|p| p.ends_with("spore_cloud.lua")),
        "{r}"
    );
    g.send("sprint scout 2,5");
    let log = g.wait("the new code's log", |e| {
        e["event"] == "log" && e["unit"] == "scout" || e["event"] == "trigger_failed"
    });
    assert_eq!(log["message"], "spores v2 are live", "{log}");
    let e = effect_of(&mut g, "spore_cloud");
    assert_eq!(e["model"], "scout", "{e}");
    assert_eq!(e["amount"], 2, "{e}");

    // The item: the captain stands next to the Adrenaline Shot (0,4); it gives the action back.
    g.send("interact captain");
    let e = effect_of(&mut g, "adrenaline");
    assert_eq!(e["effect"], "actions", "{e}");
    assert_eq!(e["unit"], "captain", "{e}");
    let turn = g.wait("your_turn", |e| e["event"] == "your_turn");
    assert_eq!(turn["active"], "captain", "{turn}");
    assert_eq!(turn["actions_left"], 2, "{turn}");

    g.send("quit");
    g.wait("quit", |e| e["event"] == "quit");
    let status = g.child.wait().expect("exit");
    assert!(status.success());
}
