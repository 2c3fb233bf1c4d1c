//! `overmind simulate … --html OUT` (issue 15): the report as inline-SVG charts whose bars are
//! the numbers `simulate --json` reports — win rates with their Wilson intervals, rounds, each
//! behaviour's and alien type's use and damage per use — and with `--compare` both runs in
//! every chart, on the same axes.

use crate::common;

use common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The bars of the chart `<figure id=ID>`: (label, series) → value.
fn bars(html: &str, id: &str) -> BTreeMap<(String, usize), f64> {
    let open = format!("<figure class=\"chart\" id=\"{id}\">");
    let start = html.find(&open).unwrap_or_else(|| panic!("no chart {id}"));
    let end = start + html[start..].find("</figure>").expect("its end");
    let fig = &html[start..end];
    let mut out = BTreeMap::new();
    for (i, _) in fig.match_indices("<g class=\"bar s") {
        let rest = &fig[i + "<g class=\"bar s".len()..];
        let series: usize = rest[..1].parse().expect("series");
        let v = rest.split("data-value=\"").nth(1).expect("value");
        let value: f64 = v[..v.find('"').expect("quote")].parse().expect("number");
        let t = rest.split("<title>").nth(1).expect("title");
        let label = t[..t.find(": ").unwrap_or(0)].to_string();
        out.insert((label, series), value);
    }
    out
}

fn simulate(args: &[&str], out: &Path) -> (Value, String) {
    let mut all = vec!["simulate", "--games", "6", "--jobs", "2", "--json"];
    all.extend(args);
    let o = out.display().to_string();
    all.extend(["--html", &o]);
    let run = run(&all, "");
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let json: Value = serde_json::from_str(&stdout(&run)).expect("the JSON report");
    (json, std::fs::read_to_string(out).expect("the page"))
}

fn close(a: f64, b: Option<f64>) -> bool {
    b.is_some_and(|b| (a - b).abs() < 1e-9)
}

/// Every bar of series `s` is the number the JSON report `r` gives.
fn assert_charts_match(html: &str, r: &Value, s: usize) {
    let wins = bars(html, "wins");
    assert!(close(
        wins[&("Heroes win".into(), s)],
        r["wins"]["heroes"]["rate"].as_f64()
    ));
    assert!(close(
        wins[&("Overmind win".into(), s)],
        r["wins"]["overmind"]["rate"].as_f64()
    ));
    let rounds = bars(html, "rounds");
    assert!(rounds
        .iter()
        .any(|((_, k), v)| *k == s && close(*v, r["rounds"]["mean"].as_f64())));
    let (used, dmg) = (bars(html, "behaviour-use"), bars(html, "behaviour-damage"));
    let behaviours = r["behaviours"].as_object().expect("behaviours");
    assert!(!behaviours.is_empty());
    for (id, b) in behaviours {
        assert!(close(used[&(id.clone(), s)], b["chosen"].as_f64()), "{id}");
        if let Some(mean) = b["damage_per_use"]["mean"].as_f64() {
            assert!(close(dmg[&(id.clone(), s)], Some(mean)), "{id}");
        }
    }
    let (used, dmg) = (bars(html, "alien-use"), bars(html, "alien-damage"));
    let aliens = r["aliens"].as_object().expect("aliens");
    assert!(!aliens.is_empty());
    for (id, a) in aliens {
        assert!(
            close(used[&(id.clone(), s)], a["revealed"].as_f64()),
            "{id}"
        );
        if let Some(mean) = a["damage_per_use"]["mean"].as_f64() {
            assert!(close(dmg[&(id.clone(), s)], Some(mean)), "{id}");
        }
    }
}

#[test]
fn the_charts_show_the_numbers_simulate_reports() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("report.html");
    let (json, html) = simulate(&[], &out);
    assert_charts_match(&html, &json, 0);
    // The intervals are drawn: two win rates, and a whisker per interval.
    assert!(html.matches("class=\"ci\"").count() >= 2);
    assert!(!html.contains("<link") && !html.contains(" src="));
    assert!(!html.contains("bar s1"), "one run, one series");
}

#[test]
fn a_comparison_draws_both_runs_in_each_chart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("compare.html");
    let pack = root().join("examples/expansion").display().to_string();
    let (json, html) = simulate(&["--compare", &pack], &out);
    assert_charts_match(&html, &json["base"], 0);
    assert_charts_match(&html, &json["compare"], 1);
    // Same axes: one figure per measure, each holding both series.
    for id in ["wins", "rounds", "behaviour-use", "alien-use"] {
        assert_eq!(html.matches(&format!("id=\"{id}\"")).count(), 1);
        let b = bars(&html, id);
        assert!(
            b.keys().any(|(_, s)| *s == 0) && b.keys().any(|(_, s)| *s == 1),
            "{id}"
        );
    }
}

#[test]
fn html_refuses_shards_and_names_a_page_it_cannot_write() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("x.html").display().to_string();
    let o = run(
        &["simulate", "--games", "2", "--shard", "1/2", "--html", &out],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let bad = dir.path().join("missing/dir/r.html").display().to_string();
    let o = run(&["simulate", "--games", "1", "--html", &bad], "");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("r.html"), "{}", stderr(&o));
}
