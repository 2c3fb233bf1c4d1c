//! docs/RULES.md §14.1 and §15.8 at the terminal and in JSON: a Hazard token is a target of
//! `shoot`/`melee` (typed and as a JSON action), listed in `legal`; destroying it turns a
//! Hazard card; neither can be undone.

use crate::common::*;

/// The small mission with the event decks dealt and an acid pool `acid` three squares from
/// `alpha` (0,5), in its sight.
fn mission(dir: &std::path::Path) -> String {
    let small = std::fs::read_to_string(root().join("behaviours/missions/small.toml"))
        .expect("small mission");
    let text = small.replacen(
        "decoys = 1",
        "decoys = 1\ndecks = [\"hazard\", \"item\", \"exploration\"]",
        1,
    ) + "\n[[tokens]]\nid = \"acid\"\nkind = \"acid_pool\"\nat = [3, 4]\n";
    let path = dir.join("hazard.toml");
    std::fs::write(&path, text).expect("write the mission");
    path.to_string_lossy().into_owned()
}

fn play(input: &str) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().expect("tempdir");
    let m = mission(dir.path());
    let o = run(
        &[
            "play",
            "--json",
            "--no-watch",
            "--seed",
            "5",
            "--mission",
            &m,
            "--heroes",
            "human",
            "--overmind",
            "ai",
        ],
        input,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    events(&stdout(&o))
}

#[test]
fn a_hazard_is_listed_typed_and_shot_and_its_card_turned() {
    let ev = play("shoot alpha acid\nundo\nquit\n");
    let first = of_kind(&ev, "your_turn")[0].clone();
    let listed = first["legal"].as_array().into_iter().flatten().any(|a| {
        a["action"] == "shoot"
            && a["unit"] == "alpha"
            && a["targets"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t == "acid"))
    });
    assert!(listed, "{first}");
    let attack = &of_kind(&ev, "hazard_attack")[0];
    assert_eq!(attack["token"], "acid");
    assert_eq!(attack["kind"], "shoot");
    // Seed 5: a critical and a hit, two damage: destroyed, and a Hazard card turned.
    assert_eq!(attack["destroyed"], true, "{attack}");
    let turned = &of_kind(&ev, "card_turned")[0];
    assert_eq!(turned["deck"], "hazard");
    assert_eq!(turned["unit"], "alpha");
    let refused = of_kind(&ev, "error");
    assert!(
        refused.iter().any(|e| e["message"]
            .as_str()
            .is_some_and(|m| m.contains("cannot be unseen") || m.contains("rolled dice"))),
        "the shot cannot be taken back: {refused:?}"
    );
}

#[test]
fn a_hazard_is_a_json_actions_target_too() {
    let ev = play("{\"action\":\"melee\",\"unit\":\"alpha\",\"target\":\"acid\"}\n{\"action\":\"shoot\",\"unit\":\"alpha\",\"target\":\"acid\"}\nquit\n");
    let errors = of_kind(&ev, "error");
    assert!(
        errors.iter().any(|e| e["refusal"] == "target"
            && e["message"]
                .as_str()
                .is_some_and(|m| m.contains("not adjacent"))),
        "Melee from 3 squares is refused, saying why: {errors:?}"
    );
    assert_eq!(of_kind(&ev, "hazard_attack").len(), 1, "{ev:?}");
}
