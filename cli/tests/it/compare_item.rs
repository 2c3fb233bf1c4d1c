//! Issue 27: `simulate --compare-item ID` plays the same seeds with every item and without each
//! one, and reports each item's own difference; `--compare DIR` names every item it leaves out.

use crate::common;

use common::*;
use serde_json::Value;

#[test]
fn a_behaviour_and_a_card_of_one_pack_each_get_their_own_difference() {
    let o = run(
        &[
            "simulate",
            "--games",
            "30",
            "--jobs",
            "2",
            "--json",
            "--compare-item",
            "rush",
            "--compare-item",
            "acid_spit",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("one JSON report");
    let items = v["items"].as_array().expect("items");
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["id"], "rush");
    assert_eq!(items[0]["kind"], "behaviour");
    assert!(
        items[0]["left_out"]
            .as_str()
            .is_some_and(|s| s.contains("fall back to")),
        "{}",
        items[0]
    );
    assert_eq!(items[1]["id"], "acid_spit");
    assert_eq!(items[1]["kind"], "card");
    for i in items {
        for m in [
            "heroes_win_rate",
            "heroes_damage_per_game",
            "overmind_damage_per_game",
        ] {
            let d = &i[m];
            let (lo, x, hi) = (
                d["ci95"][0].as_f64().expect("low"),
                d["difference"].as_f64().expect("difference"),
                d["ci95"][1].as_f64().expect("high"),
            );
            assert!(lo <= x && x <= hi, "{m}: {d}");
            assert_eq!(d["clear"].as_bool(), Some(lo > 0.0 || hi < 0.0), "{m}: {d}");
        }
    }
    // Leaving out different items changes different games: the two differences are the
    // item's own, not one difference of the whole pack reported twice.
    assert_ne!(
        items[0]["heroes_damage_per_game"],
        items[1]["heroes_damage_per_game"]
    );
    // The text report: one row per item and what leaving it out means; the HTML page holds it.
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("items.html").display().to_string();
    let o = run(
        &[
            "simulate",
            "--games",
            "4",
            "--jobs",
            "2",
            "--compare-item",
            "acid_spit",
            "--html",
            &page,
        ],
        "",
    );
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(
        html.contains("without acid_spit (card)"),
        "the page names the item"
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("acid_spit            card"), "{text}");
    assert!(
        text.contains("without acid_spit (card): left out of its deck"),
        "{text}"
    );
}

#[test]
fn an_unknown_item_is_a_usage_error_listing_what_is_loaded() {
    let o = run(
        &[
            "simulate",
            "--games",
            "2",
            "--compare-item",
            "no_such_thing",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("no behaviour, card, token kind, ability or rule"),
        "{e}"
    );
    assert!(e.contains("rush") && e.contains("acid_spit"), "{e}");
}

#[test]
fn compare_names_every_item_the_pack_adds() {
    let o = run(
        &[
            "simulate",
            "--games",
            "2",
            "--jobs",
            "1",
            "--compare",
            "examples/expansion",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let first = stdout(&o).lines().next().unwrap_or_default().to_string();
    for item in [
        "behaviour ambush",
        "token kind adrenaline",
        "token kind spore_cloud",
        "alien type lurker",
    ] {
        assert!(first.contains(item), "{item} not named: {first}");
    }
}
