//! `overmind simulate --games N`: the AI against itself over many seeds, on every core. Each
//! thread loads its own packs (a Lua state is not `Send`); results are summed in seed order, so
//! everything but the timing is the same whatever `--jobs` is.

use crate::error::CliError;
use crate::packs;
use crate::stats::{wilson, AlienStats, BehaviourStats, GameStats, Rate, Totals};
use overmind_core::ai::play_ai_game;
use overmind_core::Game;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// How many games.
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Threads (default: every core).
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// The first game's seed; game i plays seed S+i.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The mission: a pack's mission id or a mission file.
    #[arg(long, value_name = "ID|PATH", default_value = "demo")]
    pub mission: String,
    /// An expansion pack, loaded after the base pack (repeatable).
    #[arg(long = "pack", value_name = "DIR")]
    pub packs: Vec<PathBuf>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Play the same seeds again with this pack added, and report the difference.
    #[arg(long, value_name = "DIR")]
    pub compare: Option<PathBuf>,
}

/// Most actions in one game before it counts as unfinished.
const MAX_ACTIONS: usize = 20_000;

/// The summary of one run.
#[derive(Serialize)]
pub struct Report {
    pub mission: String,
    pub packs: Vec<PathBuf>,
    pub games: u64,
    pub first_seed: u64,
    pub jobs: usize,
    pub wins: Wins,
    pub unfinished: u64,
    pub rounds: Rounds,
    pub behaviours: BTreeMap<String, BehaviourStats>,
    pub behaviours_skipped: u64,
    pub aliens: BTreeMap<String, AlienStats>,
    pub seconds: f64,
    pub games_per_second: f64,
    /// CPU time of the whole process while the games ran (every thread, loading included).
    pub cpu_seconds: f64,
    pub games_per_cpu_second: f64,
}

#[derive(Serialize)]
pub struct Wins {
    pub heroes: Rate,
    pub overmind: Rate,
}

#[derive(Serialize)]
pub struct Rounds {
    pub mean: f64,
    pub min: u32,
    pub max: u32,
}

/// # Errors
/// Pack or mission problems (exit 1), bad numbers (exit 2).
pub fn run(args: &Args) -> Result<(), CliError> {
    if args.games == 0 {
        return Err(CliError::Usage("--games must be at least 1".into()));
    }
    let jobs = match args.jobs {
        Some(0) => return Err(CliError::Usage("--jobs must be at least 1".into())),
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let dirs = packs::dirs(&args.packs);
    let base = simulate(&dirs, args, jobs)?;
    let compared = match &args.compare {
        Some(extra) => {
            let mut with = dirs.clone();
            with.push(packs::absolute(extra));
            Some(simulate(&with, args, jobs)?)
        }
        None => None,
    };
    let text = match (&compared, args.json) {
        (None, true) => json(&base),
        (None, false) => table(&base),
        (Some(c), true) => json(&serde_json::json!({
            "base": base,
            "compare": c,
            "difference": difference(&base, c),
        })),
        (Some(c), false) => format!(
            "Without {0}:\n{1}\nWith {0}:\n{2}\n{3}",
            c.packs
                .last()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            table(&base),
            table(c),
            difference_table(&base, c)
        ),
    };
    crate::output::print(&text)?;
    Ok(())
}

fn json<T: Serialize>(v: &T) -> String {
    format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default())
}

/// Play the games on `jobs` threads and sum them in seed order.
fn simulate(dirs: &[PathBuf], args: &Args, jobs: usize) -> Result<Report, CliError> {
    // Check the packs and the mission once here, so problems are reported once.
    let set = packs::load(dirs)?;
    set.start(&args.mission, args.seed)
        .map_err(packs::problems)?;
    let mission = packs::mission_ref(&set, &args.mission);
    drop(set);
    let n = usize::try_from(args.games).unwrap_or(usize::MAX);
    let jobs = jobs.min(n).max(1);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, GameStats)>> = Mutex::new(Vec::with_capacity(n));
    let failure: Mutex<Option<CliError>> = Mutex::new(None);
    let started = Instant::now();
    let cpu_started = cpu_time::ProcessTime::try_now().ok();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                let set = match packs::load(dirs) {
                    Ok(set) => set,
                    Err(e) => {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                        return;
                    }
                };
                // The mission is read and parsed once per thread, not once per game.
                let setup = match set.setup(&args.mission) {
                    Ok(setup) => setup,
                    Err(ps) => {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(packs::problems(ps));
                        }
                        return;
                    }
                };
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let seed = args.seed.wrapping_add(i as u64);
                    let started = match setup.start(&set.content, seed) {
                        Ok(st) => Ok(Game::new(st, &setup.name, seed)),
                        // The same start again through the packs, for problems with places.
                        Err(_) => set.start(&args.mission, seed),
                    };
                    match started {
                        Ok(mut game) => {
                            play_ai_game(&mut game, &set.content, MAX_ACTIONS);
                            mine.push((i, GameStats::of(&game.log, game.state.round)));
                        }
                        Err(ps) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(packs::problems(ps));
                            }
                            break;
                        }
                    }
                }
                if let Ok(mut r) = results.lock() {
                    r.extend(mine);
                }
            });
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let cpu_seconds = cpu_started
        .and_then(|c| c.try_elapsed().ok())
        .map_or(0.0, |d| d.as_secs_f64());
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(i, _)| *i);
    let mut t = Totals::default();
    for (_, g) in &results {
        t.add(g);
    }
    Ok(Report {
        mission,
        packs: dirs.to_vec(),
        games: t.games,
        first_seed: args.seed,
        jobs,
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
        games_per_second: if seconds > 0.0 {
            t.games as f64 / seconds
        } else {
            0.0
        },
        behaviours: t.behaviours,
        behaviours_skipped: t.skipped,
        aliens: t.aliens,
        seconds,
        cpu_seconds,
        games_per_cpu_second: if cpu_seconds > 0.0 {
            t.games as f64 / cpu_seconds
        } else {
            0.0
        },
    })
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

/// The report as tables.
fn table(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} games of {} (seeds {}..{}) on {} thread{} in {:.2} s: {:.0} games/s, \
         {:.0} games per CPU-second ({:.2} s of CPU)",
        r.games,
        r.mission,
        r.first_seed,
        r.first_seed.wrapping_add(r.games.saturating_sub(1)),
        r.jobs,
        if r.jobs == 1 { "" } else { "s" },
        r.seconds,
        r.games_per_second,
        r.games_per_cpu_second,
        r.cpu_seconds
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
        "\n{:<22} {:>7} {:>9} {:>6} {:>8} {:>9} {:>6} {:>8}",
        "behaviour", "chosen", "performed", "failed", "dmg dealt", "dmg/use", "kills", "dmg taken"
    );
    for (id, b) in &r.behaviours {
        let _ = writeln!(
            s,
            "{id:<22} {:>7} {:>9} {:>6} {:>8} {:>9} {:>6} {:>8}",
            b.chosen,
            b.performed,
            b.failed,
            b.damage_dealt,
            per(b.damage_dealt, b.chosen),
            b.hero_kills,
            b.damage_taken
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
        "\n{:<14} {:>8} {:>9} {:>9} {:>9} {:>11} {:>10}",
        "alien type", "revealed", "dmg dealt", "dmg/unit", "dmg taken", "models lost", "hero kills"
    );
    for (id, a) in &r.aliens {
        let _ = writeln!(
            s,
            "{id:<14} {:>8} {:>9} {:>9} {:>9} {:>11} {:>10}",
            a.revealed,
            a.damage_dealt,
            per(a.damage_dealt, a.revealed),
            a.damage_taken,
            a.models_lost,
            a.hero_kills
        );
    }
    s
}

/// Per-game averages of a comparison, `compare - base`.
fn difference(base: &Report, with: &Report) -> serde_json::Value {
    let per_game = |x: u64, r: &Report| x as f64 / r.games.max(1) as f64;
    let mut behaviours = serde_json::Map::new();
    let ids: std::collections::BTreeSet<&String> = base
        .behaviours
        .keys()
        .chain(with.behaviours.keys())
        .collect();
    let zero = BehaviourStats::default();
    for id in ids {
        let (a, b) = (
            base.behaviours.get(id).unwrap_or(&zero),
            with.behaviours.get(id).unwrap_or(&zero),
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
    let ids: std::collections::BTreeSet<&String> =
        base.aliens.keys().chain(with.aliens.keys()).collect();
    let none = AlienStats::default();
    for id in ids {
        let (a, b) = (
            base.aliens.get(id).unwrap_or(&none),
            with.aliens.get(id).unwrap_or(&none),
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
