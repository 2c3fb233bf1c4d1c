//! What `simulate` prints: each run's report as tables or JSON, and a comparison's difference.

use super::outcome::{Meta, Outcome, Run};
use crate::packs;
use crate::report::{AlienRow, BehaviourRow, Report, Rounds, Wins};
use crate::stats::{per_use, wilson, AlienStats, BehaviourStats, PerUse};
use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt::Write as _;

pub(super) fn json<T: Serialize>(v: &T) -> String {
    format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default())
}

fn rate(x: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        x as f64 / secs
    } else {
        0.0
    }
}

/// One run's report.
pub(super) fn report(m: &Meta, r: &Run) -> Report {
    let t = &r.totals;
    Report {
        mission: m.mission.clone(),
        packs: r.packs.clone(),
        games: t.games,
        first_seed: m.first_seed,
        overmind_ai: m.levels.overmind,
        heroes_ai: m.levels.heroes,
        jobs: r.jobs,
        wins: Wins {
            heroes: wilson(t.heroes, t.games),
            overmind: wilson(t.overmind, t.games),
        },
        unfinished: t.unfinished,
        rounds: Rounds {
            mean: t.mean_rounds(),
            min: t.min_rounds,
            max: t.max_rounds,
        },
        behaviours: t
            .behaviours
            .iter()
            .map(|(id, b)| {
                let row = BehaviourRow {
                    damage_per_use: per_use(b.chosen, b.damage_dealt, b.damage_dealt_sq),
                    stats: b.clone(),
                };
                (id.clone(), row)
            })
            .collect(),
        behaviours_skipped: t.skipped,
        aliens: t
            .aliens
            .iter()
            .map(|(id, a)| {
                let row = AlienRow {
                    damage_per_use: per_use(a.revealed, a.damage_dealt, a.damage_dealt_sq),
                    stats: a.clone(),
                };
                (id.clone(), row)
            })
            .collect(),
        cards: t.cards.clone(),
        interrupts: t.interrupts,
        seconds: r.seconds,
        games_per_second: rate(t.games, r.seconds),
        cpu_seconds: r.cpu_seconds,
        games_per_cpu_second: rate(t.games, r.cpu_seconds),
    }
}

/// What `simulate` prints for a whole simulation.
pub(super) fn render(o: &Outcome, as_json: bool) -> String {
    let base = report(&o.meta, &o.base);
    let Some(c) = &o.compare else {
        return if as_json { json(&base) } else { table(&base) };
    };
    let with = report(&o.meta, &c.run);
    if as_json {
        let mut v = serde_json::json!({
            "base": base,
            "compare": with,
            "difference": difference(&base, &with),
        });
        if let (Some(line), Some(m)) = (&c.comparison, v.as_object_mut()) {
            m.insert("comparison".into(), serde_json::Value::from(line.as_str()));
        }
        if let Some(m) = v.as_object_mut() {
            m.insert("left_out".into(), serde_json::json!(c.left_out));
        }
        return json(&v);
    }
    let pack = with
        .packs
        .last()
        .map(|p| packs::shown(p))
        .unwrap_or_default();
    let left_out = if c.left_out.is_empty() {
        String::new()
    } else {
        format!(", which leaves out {}", c.left_out.join(", "))
    };
    match &c.comparison {
        None => format!(
            "Without {0}{4}:\n{1}\nWith {0}:\n{2}\n{3}",
            pack,
            table(&base),
            table(&with),
            difference_table(&base, &with),
            left_out
        ),
        Some(line) => format!(
            "{line}\nWithout the behaviours of {0}{4}:\n{1}\nWith {0}:\n{2}\n{3}",
            pack,
            table(&base),
            table(&with),
            difference_table(&base, &with),
            left_out
        ),
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn per(x: u64, n: u64) -> String {
    if n == 0 {
        "-".into()
    } else {
        format!("{:.2}", x as f64 / n as f64)
    }
}

/// A per-use interval as `lo to hi`, `-` with fewer than two uses.
fn interval(p: &PerUse) -> String {
    match p.ci95 {
        Some([lo, hi]) => format!("{lo:.2} to {hi:.2}"),
        None => "-".into(),
    }
}

/// The report as tables.
fn table(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} games of {} (seeds {}..{}) on {} thread{} in {:.2} s: {:.0} games/s, \
         {:.0} games per CPU-second ({:.2} s of CPU), overmind AI {}, heroes AI {}",
        r.games,
        r.mission,
        r.first_seed,
        r.first_seed.wrapping_add(r.games.saturating_sub(1)),
        r.jobs,
        if r.jobs == 1 { "" } else { "s" },
        r.seconds,
        r.games_per_second,
        r.games_per_cpu_second,
        r.cpu_seconds,
        r.overmind_ai,
        r.heroes_ai
    );
    let _ = writeln!(
        s,
        "\n{:<12} {:>7} {:>7}   95% CI (Wilson)",
        "winner", "games", "rate"
    );
    for (name, w) in [("Heroes", &r.wins.heroes), ("Overmind", &r.wins.overmind)] {
        let _ = writeln!(
            s,
            "{name:<12} {:>7} {:>7}   {} to {}",
            w.count,
            pct(w.rate),
            pct(w.ci95[0]),
            pct(w.ci95[1])
        );
    }
    if r.unfinished > 0 {
        let _ = writeln!(s, "{:<12} {:>7}", "unfinished", r.unfinished);
    }
    let _ = writeln!(
        s,
        "Rounds: mean {:.2}, min {}, max {}",
        r.rounds.mean, r.rounds.min, r.rounds.max
    );
    let _ = writeln!(
        s,
        "\n{:<22} {:>7} {:>9} {:>6} {:>8} {:>9} {:>6} {:>8}   dmg/use 95% CI",
        "behaviour", "chosen", "performed", "failed", "dmg dealt", "dmg/use", "kills", "dmg taken"
    );
    for (id, row) in &r.behaviours {
        let b = &row.stats;
        let _ = writeln!(
            s,
            "{id:<22} {:>7} {:>9} {:>6} {:>8} {:>9} {:>6} {:>8}   {}",
            b.chosen,
            b.performed,
            b.failed,
            b.damage_dealt,
            per(b.damage_dealt, b.chosen),
            b.hero_kills,
            b.damage_taken,
            interval(&row.damage_per_use)
        );
    }
    if r.behaviours_skipped > 0 {
        let _ = writeln!(
            s,
            "(no behaviour could be performed {} times)",
            r.behaviours_skipped
        );
    }
    let _ = writeln!(
        s,
        "\n{:<14} {:>8} {:>9} {:>9} {:>9} {:>11} {:>10}   dmg/unit 95% CI",
        "alien type", "revealed", "dmg dealt", "dmg/unit", "dmg taken", "models lost", "hero kills"
    );
    for (id, row) in &r.aliens {
        let a = &row.stats;
        let _ = writeln!(
            s,
            "{id:<14} {:>8} {:>9} {:>9} {:>9} {:>11} {:>10}   {}",
            a.revealed,
            a.damage_dealt,
            per(a.damage_dealt, a.revealed),
            a.damage_taken,
            a.models_lost,
            a.hero_kills,
            interval(&row.damage_per_use)
        );
    }
    if !r.cards.is_empty() {
        let _ = writeln!(
            s,
            "\n{:<14} {:>8} {:>8} {:>9}",
            "card", "played", "failed", "revealed"
        );
        for (id, c) in &r.cards {
            let _ = writeln!(
                s,
                "{id:<14} {:>8} {:>8} {:>9}",
                c.played, c.failed, c.revealed
            );
        }
        let _ = writeln!(
            s,
            "(the Overmind interrupted the Hero phase {} times)",
            r.interrupts
        );
    }
    s
}

/// Per-game averages of a comparison, `compare - base`.
fn difference(base: &Report, with: &Report) -> serde_json::Value {
    let per_game = |x: u64, r: &Report| x as f64 / r.games.max(1) as f64;
    let mut behaviours = serde_json::Map::new();
    let ids: BTreeSet<&String> = base
        .behaviours
        .keys()
        .chain(with.behaviours.keys())
        .collect();
    let zero = BehaviourStats::default();
    for id in ids {
        let (a, b) = (
            base.behaviours.get(id).map_or(&zero, |r| &r.stats),
            with.behaviours.get(id).map_or(&zero, |r| &r.stats),
        );
        behaviours.insert(
            id.clone(),
            serde_json::json!({
                "chosen_per_game": per_game(b.chosen, with) - per_game(a.chosen, base),
                "damage_dealt_per_game": per_game(b.damage_dealt, with) - per_game(a.damage_dealt, base),
            }),
        );
    }
    let mut aliens = serde_json::Map::new();
    let ids: BTreeSet<&String> = base.aliens.keys().chain(with.aliens.keys()).collect();
    let none = AlienStats::default();
    for id in ids {
        let (a, b) = (
            base.aliens.get(id).map_or(&none, |r| &r.stats),
            with.aliens.get(id).map_or(&none, |r| &r.stats),
        );
        aliens.insert(
            id.clone(),
            serde_json::json!({
                "damage_dealt_per_game": per_game(b.damage_dealt, with) - per_game(a.damage_dealt, base),
                "models_lost_per_game": per_game(b.models_lost, with) - per_game(a.models_lost, base),
            }),
        );
    }
    serde_json::json!({
        "heroes_win_rate": with.wins.heroes.rate - base.wins.heroes.rate,
        "overmind_win_rate": with.wins.overmind.rate - base.wins.overmind.rate,
        "intervals_overlap": with.wins.heroes.ci95[0] <= base.wins.heroes.ci95[1] && base.wins.heroes.ci95[0] <= with.wins.heroes.ci95[1],
        "mean_rounds": with.rounds.mean - base.rounds.mean,
        "behaviours": behaviours,
        "aliens": aliens,
    })
}

fn difference_table(base: &Report, with: &Report) -> String {
    let d = difference(base, with);
    let f = |k: &str| d.get(k).and_then(serde_json::Value::as_f64).unwrap_or(0.0);
    let overlap = d
        .get("intervals_overlap")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(true);
    format!(
        "Difference (with minus without, same seeds):\n  Heroes win rate {:+.1} points{}\n  Overmind win rate {:+.1} points\n  mean rounds {:+.2}\n",
        f("heroes_win_rate") * 100.0,
        if overlap { " (the 95% intervals overlap: not a clear change)" } else { " (the 95% intervals do not overlap)" },
        f("overmind_win_rate") * 100.0,
        f("mean_rounds")
    )
}
