//! `overmind simulate … --html OUT`: the report `simulate` prints, as inline-SVG charts — win
//! rates with their Wilson intervals, rounds, each behaviour's and alien type's use and damage
//! per use — with both runs of a `--compare` on the same axes.

use super::escape;
use crate::error::CliError;
use crate::report::Report;
use crate::stats::PerUse;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

const CSS: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");

/// One bar: a value, its 95% interval if it has one, and which run it is (0 base, 1 compared).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bar {
    value: Option<f64>,
    ci: Option<[f64; 2]>,
    series: usize,
}

/// A labelled group of bars (one per run).
struct Row {
    label: String,
    bars: Vec<Bar>,
}

/// How a chart writes its numbers.
#[derive(Clone, Copy)]
enum Unit {
    Percent,
    Number,
}

impl Unit {
    fn text(self, v: f64) -> String {
        match self {
            Unit::Percent => format!("{:.1}%", v * 100.0),
            Unit::Number if v.fract() == 0.0 && v.abs() < 1e9 => format!("{v:.0}"),
            Unit::Number => format!("{v:.2}"),
        }
    }
}

const LABEL_W: f64 = 150.0;
const PLOT_W: f64 = 480.0;
const BAR_H: f64 = 16.0;
const GAP: f64 = 10.0;

/// A round, readable upper end for an axis that must reach `max`.
fn nice_max(max: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 1.0;
    }
    let step = 10f64.powf(max.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if m * step >= max {
            return m * step;
        }
    }
    10.0 * step
}

/// A horizontal bar chart: one group per row, one bar per run, whiskers for intervals, a
/// shared axis from 0 to `max` (at least every value and interval end).
fn chart(id: &str, title: &str, rows: &[Row], unit: Unit, max: Option<f64>) -> String {
    let top = rows
        .iter()
        .flat_map(|r| r.bars.iter())
        .flat_map(|b| [b.value, b.ci.map(|c| c[1])])
        .flatten()
        .fold(0.0_f64, f64::max);
    let max = max.unwrap_or_else(|| nice_max(top)).max(f64::MIN_POSITIVE);
    let x = |v: f64| LABEL_W + (v.clamp(0.0, max) / max) * PLOT_W;
    let per_row = rows.iter().map(|r| r.bars.len()).max().unwrap_or(1) as f64;
    let row_h = per_row * BAR_H + GAP;
    let height = 24.0 + rows.len() as f64 * row_h + 22.0;
    let width = LABEL_W + PLOT_W + 70.0;
    let mut s = String::new();
    let _ = write!(
        s,
        "<figure class=\"chart\" id=\"{id}\"><figcaption>{}</figcaption>\
         <svg viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{}\" \
         xmlns=\"http://www.w3.org/2000/svg\">",
        escape(title),
        escape(title)
    );
    // Grid lines and the axis's numbers.
    for i in 0..=4 {
        let v = max * f64::from(i) / 4.0;
        let gx = x(v);
        let _ = write!(
            s,
            "<line class=\"grid\" x1=\"{gx:.1}\" y1=\"16\" x2=\"{gx:.1}\" y2=\"{:.1}\"/>\
             <text class=\"tick\" x=\"{gx:.1}\" y=\"{:.1}\">{}</text>",
            height - 20.0,
            height - 6.0,
            escape(&unit.text(v))
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let y0 = 20.0 + i as f64 * row_h;
        let _ = write!(
            s,
            "<text class=\"label\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            LABEL_W - 8.0,
            y0 + per_row * BAR_H / 2.0 + 4.0,
            escape(&r.label)
        );
        for (j, b) in r.bars.iter().enumerate() {
            let y = y0 + j as f64 * BAR_H;
            let Some(v) = b.value else {
                let _ = write!(
                    s,
                    "<text class=\"value none\" x=\"{:.1}\" y=\"{:.1}\">none</text>",
                    LABEL_W + 4.0,
                    y + BAR_H - 4.0
                );
                continue;
            };
            let tip = match b.ci {
                Some([lo, hi]) => format!(
                    "{}: {} (95% interval {} to {})",
                    r.label,
                    unit.text(v),
                    unit.text(lo),
                    unit.text(hi)
                ),
                None => format!("{}: {}", r.label, unit.text(v)),
            };
            let _ = write!(
                s,
                "<g class=\"bar s{}\" data-value=\"{v}\"><title>{}</title>\
                 <rect x=\"{LABEL_W}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"/>",
                b.series,
                escape(&tip),
                y + 1.0,
                x(v) - LABEL_W,
                BAR_H - 3.0
            );
            let mut end = x(v);
            if let Some([lo, hi]) = b.ci {
                let (l, h, m) = (x(lo), x(hi), y + BAR_H / 2.0);
                end = end.max(h);
                let _ = write!(
                    s,
                    "<path class=\"ci\" d=\"M{l:.1} {m:.1}H{h:.1}M{l:.1} {:.1}V{:.1}M{h:.1} {:.1}V{:.1}\"/>",
                    m - 4.0,
                    m + 4.0,
                    m - 4.0,
                    m + 4.0
                );
            }
            let _ = write!(
                s,
                "<text class=\"value\" x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
                end + 4.0,
                y + BAR_H - 4.0,
                escape(&unit.text(v))
            );
        }
    }
    s.push_str("</svg></figure>\n");
    s
}

/// The range chart of rounds: each run's min to max, its mean marked.
fn rounds(runs: &[&Report]) -> String {
    let top = runs.iter().map(|r| r.rounds.max).max().unwrap_or(1).max(1);
    let max = f64::from(top);
    let x = |v: f64| LABEL_W + (v / max) * PLOT_W;
    let height = 24.0 + runs.len() as f64 * (BAR_H + GAP) + 22.0;
    let width = LABEL_W + PLOT_W + 70.0;
    let mut s = format!(
        "<figure class=\"chart\" id=\"rounds\"><figcaption>Rounds per game: min to max, mean \
         marked</figcaption><svg viewBox=\"0 0 {width} {height}\" role=\"img\" \
         aria-label=\"rounds per game\" xmlns=\"http://www.w3.org/2000/svg\">"
    );
    for i in 0..=top {
        if top > 12 && i % 2 == 1 {
            continue;
        }
        let gx = x(f64::from(i));
        let _ = write!(
            s,
            "<line class=\"grid\" x1=\"{gx:.1}\" y1=\"16\" x2=\"{gx:.1}\" y2=\"{:.1}\"/>\
             <text class=\"tick\" x=\"{gx:.1}\" y=\"{:.1}\">{i}</text>",
            height - 20.0,
            height - 6.0
        );
    }
    for (i, r) in runs.iter().enumerate() {
        let y = 20.0 + i as f64 * (BAR_H + GAP) + BAR_H / 2.0;
        let (lo, hi, mean) = (
            x(f64::from(r.rounds.min)),
            x(f64::from(r.rounds.max)),
            x(r.rounds.mean),
        );
        let _ = write!(
            s,
            "<text class=\"label\" x=\"{:.1}\" y=\"{:.1}\">{}</text>\
             <g class=\"bar s{i}\" data-value=\"{}\"><title>mean {:.2}, min {}, max {}</title>\
             <path class=\"range\" d=\"M{lo:.1} {y:.1}H{hi:.1}\"/>\
             <circle cx=\"{mean:.1}\" cy=\"{y:.1}\" r=\"6\"/>\
             <text class=\"value\" x=\"{:.1}\" y=\"{:.1}\">{:.2}</text></g>",
            LABEL_W - 8.0,
            y + 4.0,
            if runs.len() > 1 {
                series_name(i)
            } else {
                "all games"
            },
            r.rounds.mean,
            r.rounds.mean,
            r.rounds.min,
            r.rounds.max,
            hi + 8.0,
            y + 4.0,
            r.rounds.mean
        );
    }
    s.push_str("</svg></figure>\n");
    s
}

fn series_name(i: usize) -> &'static str {
    if i == 0 {
        "without"
    } else {
        "with"
    }
}

fn per(p: &PerUse, series: usize) -> Bar {
    Bar {
        value: p.mean,
        ci: p.ci95,
        series,
    }
}

fn count(n: u64, series: usize) -> Bar {
    Bar {
        value: Some(n as f64),
        ci: None,
        series,
    }
}

/// The page's body for one run or a comparison.
fn body(runs: &[&Report], comparison: Option<&str>, text: &str) -> String {
    let Some(first) = runs.first() else {
        return String::new();
    };
    let mut s = String::new();
    let _ = write!(
        s,
        "<header><h1>Balance report: {}</h1><p>{} games (seeds {} to {}), Overmind AI {}, \
         Heroes AI {}{}</p>",
        escape(&first.mission),
        first.games,
        first.first_seed,
        first.first_seed.wrapping_add(first.games.saturating_sub(1)),
        first.overmind_ai,
        first.heroes_ai,
        if first.unfinished > 0 {
            format!(", {} unfinished", first.unfinished)
        } else {
            String::new()
        }
    );
    if runs.len() > 1 {
        let pack = runs
            .get(1)
            .and_then(|r| r.packs.last())
            .map(|p| crate::packs::shown(p))
            .unwrap_or_default();
        let _ = write!(
            s,
            "<p class=\"series\"><span class=\"key s0\"></span>without {0} \
             <span class=\"key s1\"></span>with {0} (the same seeds)</p>",
            escape(&pack)
        );
        if let Some(line) = comparison {
            let _ = write!(s, "<p class=\"muted\">{}</p>", escape(line));
        }
    }
    s.push_str("</header>\n<main id=\"report\">\n");
    let wins = ["Heroes", "Overmind"]
        .into_iter()
        .map(|side| Row {
            label: format!("{side} win"),
            bars: runs
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let w = if side == "Heroes" {
                        &r.wins.heroes
                    } else {
                        &r.wins.overmind
                    };
                    Bar {
                        value: Some(w.rate),
                        ci: Some(w.ci95),
                        series: i,
                    }
                })
                .collect(),
        })
        .collect::<Vec<_>>();
    s.push_str(&chart(
        "wins",
        "Win rate, with its 95% Wilson interval",
        &wins,
        Unit::Percent,
        Some(1.0),
    ));
    s.push_str(&rounds(runs));
    let behaviours: BTreeSet<&String> = runs.iter().flat_map(|r| r.behaviours.keys()).collect();
    let rows = |f: &dyn Fn(&Report, &str, usize) -> Bar, ids: &BTreeSet<&String>| -> Vec<Row> {
        ids.iter()
            .map(|id| Row {
                label: (*id).clone(),
                bars: runs.iter().enumerate().map(|(i, r)| f(r, id, i)).collect(),
            })
            .collect()
    };
    if behaviours.is_empty() {
        s.push_str("<p class=\"muted\">No Alien Behaviour was chosen.</p>");
    } else {
        let used = rows(
            &|r, id, i| count(r.behaviours.get(id).map_or(0, |b| b.stats.chosen), i),
            &behaviours,
        );
        s.push_str(&chart(
            "behaviour-use",
            "Alien Behaviours: times chosen",
            &used,
            Unit::Number,
            None,
        ));
        let dmg = rows(
            &|r, id, i| match r.behaviours.get(id) {
                Some(b) => per(&b.damage_per_use, i),
                None => per(
                    &PerUse {
                        mean: None,
                        ci95: None,
                    },
                    i,
                ),
            },
            &behaviours,
        );
        s.push_str(&chart(
            "behaviour-damage",
            "Alien Behaviours: damage to Heroes per use, with its 95% interval",
            &dmg,
            Unit::Number,
            None,
        ));
    }
    let aliens: BTreeSet<&String> = runs.iter().flat_map(|r| r.aliens.keys()).collect();
    if aliens.is_empty() {
        s.push_str("<p class=\"muted\">No alien unit was revealed.</p>");
    } else {
        let used = rows(
            &|r, id, i| count(r.aliens.get(id).map_or(0, |a| a.stats.revealed), i),
            &aliens,
        );
        s.push_str(&chart(
            "alien-use",
            "Alien types: units revealed",
            &used,
            Unit::Number,
            None,
        ));
        let dmg = rows(
            &|r, id, i| match r.aliens.get(id) {
                Some(a) => per(&a.damage_per_use, i),
                None => per(
                    &PerUse {
                        mean: None,
                        ci95: None,
                    },
                    i,
                ),
            },
            &aliens,
        );
        s.push_str(&chart(
            "alien-damage",
            "Alien types: damage per revealed unit, with its 95% interval",
            &dmg,
            Unit::Number,
            None,
        ));
    }
    let _ = write!(
        s,
        "<details><summary>The numbers, as <code>overmind simulate</code> prints them</summary>\
         <pre>{}</pre></details>\n</main>\n<p id=\"selfcheck\" hidden></p>",
        escape(text)
    );
    s
}

/// Write the report page of `base` (and, for `--compare`, `with` and the comparison's line)
/// to `out`; `text` is what `simulate` prints, shown under the charts.
///
/// # Errors
/// The page cannot be written; the message names the file.
pub fn write(
    out: &Path,
    base: &Report,
    with: Option<&Report>,
    comparison: Option<&str>,
    text: &str,
) -> Result<(), CliError> {
    let runs: Vec<&Report> = std::iter::once(base).chain(with).collect();
    let title = format!("{}: balance report", base.mission);
    let data = serde_json::json!({
        "charts": if with.is_some() { "compare" } else { "single" },
        "runs": runs.len(),
    });
    let page = super::page(
        &title,
        CSS,
        &body(&runs, comparison, text),
        &super::json_for_script(&data),
        SCRIPT,
    );
    super::write(out, &page)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_end_on_round_numbers_that_hold_every_value() {
        assert_eq!(nice_max(0.0), 1.0);
        assert_eq!(nice_max(3.2), 5.0);
        assert_eq!(nice_max(7.0), 10.0);
        assert_eq!(nice_max(18.0), 20.0);
        assert_eq!(nice_max(0.21), 0.25);
    }

    #[test]
    fn a_chart_escapes_its_labels_and_draws_every_bar_and_interval() {
        let rows = vec![
            Row {
                label: "<script>".into(),
                bars: vec![
                    Bar {
                        value: Some(2.0),
                        ci: Some([1.0, 3.0]),
                        series: 0,
                    },
                    Bar {
                        value: None,
                        ci: None,
                        series: 1,
                    },
                ],
            },
            Row {
                label: "rush".into(),
                bars: vec![
                    Bar {
                        value: Some(4.0),
                        ci: None,
                        series: 0,
                    },
                    Bar {
                        value: Some(1.0),
                        ci: None,
                        series: 1,
                    },
                ],
            },
        ];
        let s = chart("c", "t & u", &rows, Unit::Number, None);
        assert!(!s.contains("<script>") && s.contains("&lt;script&gt;"));
        assert!(s.contains("t &amp; u"));
        assert_eq!(s.matches("<g class=\"bar").count(), 3);
        assert_eq!(s.matches("class=\"ci\"").count(), 1);
        assert_eq!(s.matches(">none<").count(), 1);
        // The axis runs to 5 (the interval's end is 3, the largest bar 4).
        assert!(s.contains(">5<"), "{s}");
    }
}
