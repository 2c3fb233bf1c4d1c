//! `overmind simulate --games N`: the AI against itself over many seeds, on every core. Each
//! thread loads its own packs (a Lua state is not `Send`); results are summed in seed order, so
//! everything but the timing is the same whatever `--jobs` is.
//!
//! `--shard I/N` plays only the I-th of N slices of the seeds (game i when i mod N = I − 1)
//! and writes the slice's totals as a mergeable JSON report; `overmind simulate merge` adds the
//! slices up and prints what one run over all the seeds prints. Every total is an integer
//! (counts, sums, sums of squares), so the merge is exact.

use crate::error::CliError;
use crate::packs::{self, PackSet};
use crate::report::{AlienRow, BehaviourRow, Report, Rounds, Wins};
use crate::stats::{per_use, wilson, AlienStats, BehaviourStats, GameStats, PerUse, Totals};
use overmind_core::ai::{play_ai_game_at, Level, Levels};
use overmind_core::{Content, Game};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(clap::Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "With --shard I/N only the I-th of N slices of the seeds is played (seed s \
    belongs to slice ((s - S) mod N) + 1) and a mergeable JSON report is written, to standard \
    output or to --out FILE; `overmind simulate merge FILE...` adds the N reports up and prints \
    what one run over all the seeds prints."
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Sub>,
    /// How many games.
    #[arg(long, value_name = "N", required = true)]
    pub games: Option<u64>,
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
    /// Play the same seeds again with this pack added, and report the difference. When the
    /// mission needs the pack, both runs play it, without and with the pack's behaviours.
    #[arg(long, value_name = "DIR")]
    pub compare: Option<PathBuf>,
    /// How well the AI plays the Overmind: greedy, standard or strong.
    #[arg(long = "overmind-ai", value_name = "LEVEL", default_value_t = Level::Standard)]
    pub overmind_ai: Level,
    /// How well the AI plays the Heroes: greedy, standard or strong.
    #[arg(long = "heroes-ai", value_name = "LEVEL", default_value_t = Level::Standard)]
    pub heroes_ai: Level,
    /// Play only the I-th of N slices of the seeds (1 ≤ I ≤ N ≤ 100000) and write that slice's
    /// mergeable JSON report.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Write the shard's report to FILE (atomically: a temporary file beside it, renamed).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub out: Option<PathBuf>,
    /// Also write the report as one self-contained HTML page of charts (both runs of a
    /// --compare on the same axes).
    #[arg(long, value_name = "OUT.html", conflicts_with = "shard")]
    pub html: Option<PathBuf>,
}

#[derive(clap::Subcommand, Debug)]
pub enum Sub {
    /// Add up the reports of `simulate --shard I/N` (every I from 1 to N, once each) and print
    /// what one `simulate` over all the seeds prints (the timings are the shards' sums).
    Merge(MergeArgs),
}

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The shards' reports.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// The most slices `--shard` cuts the seeds into.
pub const MAX_SHARDS: u64 = 100_000;

/// One slice of the seeds: the `index`-th (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole run.
    const ALL: Shard = Shard { index: 1, count: 1 };

    /// How many of `games` games fall in this slice.
    fn games(self, games: u64) -> u64 {
        let first = self.index - 1;
        if games > first {
            (games - first - 1) / self.count + 1
        } else {
            0
        }
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let expected = "expected I/N, the I-th of N slices of the seeds (for instance 2/8)";
        let Some((i, n)) = s.split_once('/') else {
            return Err(format!("`{s}` is not I/N: {expected}"));
        };
        let number = |x: &str, what: &str| {
            x.trim()
                .parse::<u64>()
                .map_err(|_| format!("{what} `{x}` is not a whole number: {expected}"))
        };
        let (index, count) = (number(i, "I")?, number(n, "N")?);
        if count == 0 || count > MAX_SHARDS {
            return Err(format!(
                "N must be 1 to {MAX_SHARDS}, found {count}: {expected}"
            ));
        }
        if index == 0 || index > count {
            return Err(format!(
                "I must be 1 to N ({count}), found {index}: {expected}"
            ));
        }
        Ok(Shard { index, count })
    }
}

/// Most actions in one game before it counts as unfinished.
const MAX_ACTIONS: usize = 20_000;

/// What every run of one simulation shares.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Meta {
    /// The mission as a save names it (an id, or an absolute path).
    mission: String,
    /// Games of the whole run (of every slice).
    games: u64,
    first_seed: u64,
    levels: Levels,
}

/// One run's totals over the seeds it played, and what it took.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// Pack directories in load order, the base pack first.
    pub packs: Vec<PathBuf>,
    pub totals: Totals,
    pub jobs: usize,
    pub seconds: f64,
    pub cpu_seconds: f64,
}

/// The run with the compared pack.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compared {
    /// The pack added.
    pub pack: PathBuf,
    /// When the mission needs the pack: the `compare:` line saying what was compared. `None`
    /// when the mission is played without the pack and with it.
    pub comparison: Option<String>,
    pub run: Run,
}

/// A whole simulation: one run, or two with `--compare`.
struct Outcome {
    meta: Meta,
    base: Run,
    compare: Option<Compared>,
}

/// How one run's content is put together.
#[derive(Clone, Debug)]
struct Spec {
    /// The packs loaded: the mission, its rules and (unless `earlier`) the content.
    dirs: Vec<PathBuf>,
    /// For a pack's own mission played without the pack's behaviours: the packs before it,
    /// whose content is played, with the pack's new alien types and heroes added (the mission
    /// needs them) but none of its behaviours, and none of its replacements.
    earlier: Option<Vec<PathBuf>>,
}

/// # Errors
/// Pack or mission problems (exit 1), bad numbers (exit 2), shards that do not merge (exit 1).
pub fn run(args: &Args) -> Result<(), CliError> {
    if let Some(Sub::Merge(m)) = &args.command {
        return merge(m);
    }
    let games = args.games.unwrap_or(0);
    if games == 0 {
        return Err(CliError::Usage("--games must be at least 1".into()));
    }
    let jobs = match args.jobs {
        Some(0) => return Err(CliError::Usage("--jobs must be at least 1".into())),
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let shard = args.shard.unwrap_or(Shard::ALL);
    let dirs = packs::dirs(&args.packs);
    let set = packs::load(&dirs)?;
    let content = args.shard.map(|_| {
        let mut all = dirs.clone();
        all.extend(args.compare.as_deref().map(packs::absolute));
        content_fingerprint(&all, set.mission_path(&args.mission).ok().as_deref())
    });
    let meta = |set: &PackSet| Meta {
        mission: packs::mission_ref(set, &args.mission),
        games,
        first_seed: args.seed,
        levels: Levels {
            heroes: args.heroes_ai,
            overmind: args.overmind_ai,
        },
    };
    let outcome = match &args.compare {
        None => {
            set.start(&args.mission, args.seed)
                .map_err(packs::problems)?;
            let meta = meta(&set);
            drop(set);
            let base = play(&plain(&dirs), &meta, args, jobs, shard)?;
            Outcome {
                meta,
                base,
                compare: None,
            }
        }
        Some(extra) => {
            let pack = packs::absolute(extra);
            let mut with = dirs.clone();
            with.push(pack.clone());
            match set.start(&args.mission, args.seed) {
                // The mission plays without the pack: the pack is added to it.
                Ok(_) => {
                    let meta = meta(&set);
                    drop(set);
                    let base = play(&plain(&dirs), &meta, args, jobs, shard)?;
                    let run = play(&plain(&with), &meta, args, jobs, shard)?;
                    Outcome {
                        meta,
                        base,
                        compare: Some(Compared {
                            pack,
                            comparison: None,
                            run,
                        }),
                    }
                }
                // The mission needs the pack (its own mission, or one using its alien types):
                // both runs play it, the first without the pack's behaviours.
                Err(without_problems) => {
                    let full = packs::load(&with)?;
                    if let Err(with_problems) = full.start(&args.mission, args.seed) {
                        // The pack's own mission is wrong: say so, rather than that it is not
                        // one of the earlier packs' missions.
                        let own = set.mission_path(&args.mission).is_err()
                            && full.mission_path(&args.mission).is_ok();
                        return Err(packs::problems(if own {
                            with_problems
                        } else {
                            without_problems
                        }));
                    }
                    let meta = meta(&full);
                    // The pack as given, not made absolute: shards played from checkouts at other
                    // paths say the same (the line is part of what `merge` compares).
                    let line = comparison_line(&meta.mission, extra, &full, &set);
                    drop((full, set));
                    let stripped = Spec {
                        dirs: with.clone(),
                        earlier: Some(dirs.clone()),
                    };
                    let mut base = play(&stripped, &meta, args, jobs, shard)?;
                    base.packs = dirs;
                    let run = play(&plain(&with), &meta, args, jobs, shard)?;
                    Outcome {
                        meta,
                        base,
                        compare: Some(Compared {
                            pack,
                            comparison: Some(line),
                            run,
                        }),
                    }
                }
            }
        }
    };
    match args.shard {
        Some(shard) => {
            let text = json(&ShardFile::of(&outcome, shard, content.unwrap_or_default()));
            match &args.out {
                Some(path) => write_atomically(path, &text),
                None => Ok(crate::output::print(&text)?),
            }
        }
        None => {
            if let Some(path) = &args.html {
                let base = report(&outcome.meta, &outcome.base);
                let with = outcome
                    .compare
                    .as_ref()
                    .map(|c| report(&outcome.meta, &c.run));
                let line = outcome
                    .compare
                    .as_ref()
                    .and_then(|c| c.comparison.as_deref());
                let text = render(&outcome, false);
                crate::html::report::write(path, &base, with.as_ref(), line, &text)?;
            }
            Ok(crate::output::print(&render(&outcome, args.json))?)
        }
    }
}

fn plain(dirs: &[PathBuf]) -> Spec {
    Spec {
        dirs: dirs.to_vec(),
        earlier: None,
    }
}

/// The `compare:` line of a comparison over a pack's own mission.
fn comparison_line(mission: &str, pack: &Path, full: &PackSet, earlier: &PackSet) -> String {
    let new: Vec<&str> = full
        .content
        .behaviours
        .keys()
        .filter(|id| !earlier.content.behaviours.contains_key(*id))
        .map(String::as_str)
        .collect();
    let replaced: Vec<&str> = full
        .packs
        .last()
        .map(|p| {
            p.overrides
                .iter()
                .filter(|id| {
                    earlier.content.behaviours.contains_key(*id)
                        || earlier.content.aliens.contains_key(*id)
                        || earlier.content.heroes.contains_key(*id)
                })
                .map(String::as_str)
                .collect()
        })
        .unwrap_or_default();
    let list = |v: &[&str]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let mut line = format!(
        "compare: mission {mission} cannot be played without {}, so both runs play it with the \
         pack's missions, heroes and alien types; the first leaves out the pack's behaviours \
         ({})",
        pack.display(),
        list(&new)
    );
    if !replaced.is_empty() {
        let _ = write!(
            line,
            " and plays the earlier packs' versions of what it replaces ({})",
            list(&replaced)
        );
    }
    line
}

/// The content of a pack's mission without the pack's behaviours: the earlier packs' content,
/// with the alien types, heroes and token kinds only the full set has (the mission places
/// them), each with its own triggers (an alien type's ability is part of the type).
fn stripped(full: &Content, earlier: &Content) -> Content {
    use overmind_core::trigger::Owner;
    let mut c = earlier.clone();
    let mut added: Vec<Owner> = Vec::new();
    for (id, a) in &full.aliens {
        if !c.aliens.contains_key(id) {
            c.aliens.insert(id.clone(), a.clone());
            added.push(Owner::Alien(id.as_str().into()));
        }
    }
    for (id, h) in &full.heroes {
        if !c.heroes.contains_key(id) {
            c.heroes.insert(id.clone(), h.clone());
            added.push(Owner::Hero(id.as_str().into()));
        }
    }
    for (id, t) in &full.tokens {
        if !c.tokens.contains_key(id) {
            c.tokens.insert(id.clone(), t.clone());
            added.push(Owner::Token(id.as_str().into()));
        }
    }
    c.triggers.extend(
        full.triggers
            .iter()
            .filter(|t| added.contains(&t.owner))
            .cloned(),
    );
    c
}

fn json<T: Serialize>(v: &T) -> String {
    format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default())
}

/// Record the first failure of any thread.
fn fail(failure: &Mutex<Option<CliError>>, e: CliError) {
    if let Ok(mut f) = failure.lock() {
        f.get_or_insert(e);
    }
}

/// Play the games of `shard` on `jobs` threads and sum them in seed order.
fn play(spec: &Spec, meta: &Meta, args: &Args, jobs: usize, shard: Shard) -> Result<Run, CliError> {
    // Check the packs and the mission once here, so problems are reported once.
    {
        let (set, earlier) = load(spec)?;
        let content = earlier.as_ref().map(|e| stripped(&set.content, &e.content));
        let setup = set.setup(&args.mission).map_err(packs::problems)?;
        if let Some(c) = &content {
            setup.start(c, args.seed).map_err(|es| {
                CliError::Problems(
                    es.iter()
                        .map(|e| format!("{} (without the compared pack's behaviours)", e))
                        .collect(),
                )
            })?;
        }
    }
    let n = usize::try_from(shard.games(meta.games)).unwrap_or(usize::MAX);
    let jobs = jobs.min(n).max(1);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, GameStats)>> = Mutex::new(Vec::with_capacity(n));
    let failure: Mutex<Option<CliError>> = Mutex::new(None);
    let started = Instant::now();
    let cpu_started = cpu_time::ProcessTime::try_now().ok();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                let (set, earlier) = match load(spec) {
                    Ok(sets) => sets,
                    Err(e) => return fail(&failure, e),
                };
                let own = earlier.as_ref().map(|e| stripped(&set.content, &e.content));
                let content = own.as_ref().unwrap_or(&set.content);
                // The mission is read and parsed once per thread, not once per game.
                let setup = match set.setup(&args.mission) {
                    Ok(setup) => setup,
                    Err(ps) => return fail(&failure, packs::problems(ps)),
                };
                let mut mine = Vec::new();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= n {
                        break;
                    }
                    // The k-th game of the slice is game i of the whole run.
                    let i = (shard.index - 1).wrapping_add((k as u64).wrapping_mul(shard.count));
                    let seed = meta.first_seed.wrapping_add(i);
                    let started = match setup.start(content, seed) {
                        Ok(st) => Ok(Game::new(st, &setup.name, seed)),
                        // The same start again through the packs, for problems with places.
                        Err(es) if own.is_some() => Err(CliError::Problems(
                            es.iter().map(ToString::to_string).collect(),
                        )),
                        Err(_) => set.start(&args.mission, seed).map_err(packs::problems),
                    };
                    match started {
                        Ok(mut game) => {
                            play_ai_game_at(&mut game, content, MAX_ACTIONS, meta.levels);
                            mine.push((k, GameStats::of(&game.log, game.state.round)));
                        }
                        Err(e) => {
                            fail(&failure, e);
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
    results.sort_by_key(|(k, _)| *k);
    let mut totals = Totals::default();
    for (_, g) in &results {
        totals.add(g);
    }
    Ok(Run {
        packs: spec.dirs.clone(),
        totals,
        jobs,
        seconds,
        cpu_seconds,
    })
}

/// The packs of a run, and the earlier packs whose content it plays.
fn load(spec: &Spec) -> Result<(PackSet, Option<PackSet>), CliError> {
    let set = packs::load(&spec.dirs)?;
    let earlier = match &spec.earlier {
        Some(d) => Some(packs::load(d)?),
        None => None,
    };
    Ok((set, earlier))
}

fn rate(x: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        x as f64 / secs
    } else {
        0.0
    }
}

/// One run's report.
fn report(m: &Meta, r: &Run) -> Report {
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
fn render(o: &Outcome, as_json: bool) -> String {
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
        return json(&v);
    }
    let pack = with
        .packs
        .last()
        .map(|p| packs::shown(p))
        .unwrap_or_default();
    match &c.comparison {
        None => format!(
            "Without {0}:\n{1}\nWith {0}:\n{2}\n{3}",
            pack,
            table(&base),
            table(&with),
            difference_table(&base, &with)
        ),
        Some(line) => format!(
            "{line}\nWithout the behaviours of {0}:\n{1}\nWith {0}:\n{2}\n{3}",
            pack,
            table(&base),
            table(&with),
            difference_table(&base, &with)
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

// ---- Shards ------------------------------------------------------------------------------

/// The `format` of a shard report.
const SHARD_FORMAT: &str = "overmind simulate shard";
/// The shard report version this build writes and reads (2: shards are told apart by what
/// their packs hold, [`content_fingerprint`], not by where the packs are).
const SHARD_VERSION: u32 = 2;

/// The seeds a shard played: `first`, `first + step`, … (`count` of them, wrapping like the
/// seeds of a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seeds {
    pub first: u64,
    pub step: u64,
    pub count: u64,
}

/// What `simulate --shard I/N` writes: everything `merge` needs to add the slices up exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardFile {
    pub format: String,
    pub version: u32,
    pub shard: Shard,
    pub seeds: Seeds,
    /// The mission as a save names it (an id, or an absolute path).
    pub mission: String,
    pub overmind_ai: Level,
    pub heroes_ai: Level,
    /// Games of the whole run (every slice together).
    pub games: u64,
    /// The whole run's first seed: game i plays seed `first_seed + i`.
    pub first_seed: u64,
    /// The run without the compared pack (the only run without `--compare`).
    pub base: Run,
    /// The run with the compared pack.
    pub compare: Option<Compared>,
    /// What the packs (and the compared pack) and the mission file hold:
    /// [`content_fingerprint`].
    pub content: String,
}

/// A fingerprint of everything a run reads that can change a game: each pack's files in load
/// order (`overmind_scripting::pack::content_files`: `pack.toml`, `rules.toml`, the content
/// folders), each named by its path inside its pack, then the mission file. Shards of one
/// simulation run on other machines, from checkouts at other paths, agree on it; shards whose
/// packs differ in one byte do not. FNV-1a, 64 bits, as the saves' hashes.
fn content_fingerprint(dirs: &[PathBuf], mission: Option<&Path>) -> String {
    let mut h = crate::save::Fnv::default();
    let file = |h: &mut crate::save::Fnv, name: &Path, path: &Path| {
        h.write(name.to_string_lossy().as_bytes());
        h.write(&[0]);
        match std::fs::read(path) {
            Ok(bytes) => {
                h.write(&(bytes.len() as u64).to_le_bytes());
                h.write(&bytes);
            }
            Err(_) => h.write(b"unreadable"),
        }
    };
    for dir in dirs {
        h.write(b"pack\0");
        for path in overmind_scripting::pack::content_files(dir) {
            let name = path.strip_prefix(dir).unwrap_or(&path);
            file(&mut h, name, &path);
        }
    }
    if let Some(m) = mission {
        h.write(b"mission\0");
        file(&mut h, Path::new(""), m);
    }
    h.hex()
}

impl ShardFile {
    fn of(o: &Outcome, shard: Shard, content: String) -> ShardFile {
        ShardFile {
            format: SHARD_FORMAT.into(),
            version: SHARD_VERSION,
            shard,
            seeds: Seeds {
                first: o.meta.first_seed.wrapping_add(shard.index - 1),
                step: shard.count,
                count: shard.games(o.meta.games),
            },
            mission: o.meta.mission.clone(),
            overmind_ai: o.meta.levels.overmind,
            heroes_ai: o.meta.levels.heroes,
            games: o.meta.games,
            first_seed: o.meta.first_seed,
            base: o.base.clone(),
            compare: o.compare.clone(),
            content,
        }
    }

    /// Read and check a shard report.
    ///
    /// # Errors
    /// `path:line:column: message` for a file that is not a shard report this build reads.
    fn read(path: &Path) -> Result<ShardFile, CliError> {
        let text = overmind_core::source::read_text(path).map_err(|e| {
            let at = if e.line == 0 {
                String::new()
            } else {
                format!(":{}:{}", e.line, e.column)
            };
            CliError::Problems(vec![format!("{}{at}: {}", path.display(), e.message)])
        })?;
        ShardFile::parse(path, &text)
    }

    /// Parse a shard report's text.
    ///
    /// # Errors
    /// `path:line:column: message`.
    fn parse(path: &Path, text: &str) -> Result<ShardFile, CliError> {
        let lines = overmind_core::source::LineIndex::new(text);
        let at = |line: usize, column: usize, msg: String| {
            CliError::Problems(vec![format!("{}:{line}:{column}: {msg}", path.display())])
        };
        // serde_json counts bytes from 0 at the start of a line: columns here count characters
        // from 1.
        let json_at = |e: serde_json::Error| {
            let (line, column) = lines.byte_column(e.line(), e.column());
            at(line, column, json_message(&e))
        };
        let value: serde_json::Value = serde_json::from_str(text).map_err(json_at)?;
        let position = |needle: &str| match text.find(needle) {
            Some(i) => overmind_core::source::line_col(text, i),
            None => (1, 1),
        };
        if value.get("format").and_then(serde_json::Value::as_str) != Some(SHARD_FORMAT) {
            let (l, c) = position("\"format\"");
            return Err(at(
                l,
                c,
                format!(
                    "not a report of `overmind simulate --shard`: no \"format\": \"{SHARD_FORMAT}\""
                ),
            ));
        }
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == u64::from(SHARD_VERSION) => {}
            other => {
                let (l, c) = position("\"version\"");
                let found = other.map_or_else(|| "none".to_string(), |v| v.to_string());
                return Err(at(
                    l,
                    c,
                    format!(
                        "shard report version {found} is not supported (this overmind reads \
                         version {SHARD_VERSION})"
                    ),
                ));
            }
        }
        let file: ShardFile = serde_json::from_str(text).map_err(json_at)?;
        // The shard and its seeds must agree with each other, so a hand-edited file is caught.
        let s = file.shard;
        let (l, c) = position("\"shard\"");
        if s.count == 0 || s.count > MAX_SHARDS || s.index == 0 || s.index > s.count {
            return Err(at(
                l,
                c,
                format!("shard {s} is not a slice: expected I/N with 1 ≤ I ≤ N ≤ {MAX_SHARDS}"),
            ));
        }
        let want = Seeds {
            first: file.first_seed.wrapping_add(s.index - 1),
            step: s.count,
            count: s.games(file.games),
        };
        let runs = std::iter::once(&file.base).chain(file.compare.as_ref().map(|c| &c.run));
        if file.seeds != want || runs.into_iter().any(|r| r.totals.games != want.count) {
            let (l, c) = position("\"seeds\"");
            return Err(at(
                l,
                c,
                format!(
                    "shard {s} of {} games from seed {} plays {} games from seed {} (every {}), \
                     which this report does not hold",
                    file.games, file.first_seed, want.count, want.first, want.step
                ),
            ));
        }
        Ok(file)
    }
}

/// serde_json's message without its own " at line L column C" suffix.
fn json_message(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// How two shards of one simulation must agree, as `(what, value)` pairs for messages.
fn identity(f: &ShardFile) -> Vec<(&'static str, String)> {
    // Packs are told apart by what they hold, not where they are: each machine may have its
    // checkout elsewhere. Their names stay in the report, for people.
    let names = |v: &[PathBuf]| {
        v.iter()
            .map(|p| file_name(p))
            .collect::<Vec<_>>()
            .join(", ")
    };
    vec![
        ("mission", file_name(Path::new(&f.mission))),
        ("overmind AI", f.overmind_ai.to_string()),
        ("heroes AI", f.heroes_ai.to_string()),
        ("games in all", f.games.to_string()),
        ("first seed", f.first_seed.to_string()),
        ("number of shards", f.shard.count.to_string()),
        ("packs", names(&f.base.packs)),
        (
            "compared pack",
            f.compare
                .as_ref()
                .map_or_else(|| "none".into(), |c| file_name(&c.pack)),
        ),
        ("content of the packs and the mission", f.content.clone()),
        (
            "comparison",
            f.compare
                .as_ref()
                .and_then(|c| c.comparison.clone())
                .unwrap_or_else(|| "none".into()),
        ),
    ]
}

/// The last part of a path (a mission id is its own).
fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Two runs of slices, added up.
fn add_runs(a: &mut Run, b: &Run) {
    a.totals.merge(&b.totals);
    a.jobs += b.jobs;
    a.seconds += b.seconds;
    a.cpu_seconds += b.cpu_seconds;
}

/// `overmind simulate merge FILE...`.
///
/// # Errors
/// A file that is not a shard report, shards of different simulations, a shard given twice
/// or missing (exit 1).
fn merge(args: &MergeArgs) -> Result<(), CliError> {
    let mut files: Vec<(&Path, ShardFile)> = Vec::new();
    let mut problems = Vec::new();
    for path in &args.files {
        match ShardFile::read(path) {
            Ok(f) => files.push((path, f)),
            Err(e) => problems.extend(e.lines()),
        }
    }
    if !problems.is_empty() {
        return Err(CliError::Problems(problems));
    }
    let Some((first_path, first)) = files.first() else {
        return Err(CliError::Usage(
            "merge needs at least one shard report".into(),
        ));
    };
    let want = identity(first);
    for (path, f) in &files[1..] {
        for ((what, a), (_, b)) in want.iter().zip(identity(f)) {
            if *a != b {
                problems.push(format!(
                    "{}: not a shard of the same simulation as {}: {what} {b} here, {a} there",
                    path.display(),
                    first_path.display()
                ));
            }
        }
    }
    if !problems.is_empty() {
        return Err(CliError::Problems(problems));
    }
    let count = first.shard.count;
    let mut by_index: BTreeMap<u64, &Path> = BTreeMap::new();
    for (path, f) in &files {
        if let Some(other) = by_index.insert(f.shard.index, path) {
            problems.push(format!(
                "{}: shard {} is given twice (also {})",
                path.display(),
                f.shard,
                other.display()
            ));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(20).map(String::as_str).collect();
        problems.push(format!(
            "shard{} {}{} of this simulation {} missing: merge needs all {count}",
            if missing.len() == 1 { "" } else { "s" },
            shown.join(", "),
            if missing.len() > shown.len() {
                format!(" and {} more", missing.len() - shown.len())
            } else {
                String::new()
            },
            if missing.len() == 1 { "is" } else { "are" }
        ));
    }
    if !problems.is_empty() {
        return Err(CliError::Problems(problems));
    }
    let mut base = Run {
        totals: Totals::default(),
        jobs: 0,
        seconds: 0.0,
        cpu_seconds: 0.0,
        ..first.base.clone()
    };
    let mut compare = first.compare.clone().map(|c| Compared {
        run: Run {
            totals: Totals::default(),
            jobs: 0,
            seconds: 0.0,
            cpu_seconds: 0.0,
            ..c.run
        },
        ..c
    });
    for (_, f) in &files {
        add_runs(&mut base, &f.base);
        if let (Some(c), Some(fc)) = (compare.as_mut(), f.compare.as_ref()) {
            add_runs(&mut c.run, &fc.run);
        }
    }
    let outcome = Outcome {
        meta: Meta {
            mission: first.mission.clone(),
            games: first.games,
            first_seed: first.first_seed,
            levels: Levels {
                heroes: first.heroes_ai,
                overmind: first.overmind_ai,
            },
        },
        base,
        compare,
    };
    crate::output::print(&render(&outcome, args.json))?;
    Ok(())
}

/// Write `text` to `path` atomically, and only ever a regular file: `path` must be missing, a
/// regular file or a symbolic link to one (the file it leads to is replaced). The text goes to a
/// temporary file of a unique name in the same directory, is synced, and is renamed over the
/// file: killed at any moment, the file holds the old report or the new one, complete.
///
/// # Errors
/// The file cannot be written, or is not a regular file; the message names it.
fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
    crate::save::write_regular(path, text, "cannot write", "a report").map_err(CliError::Failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_range_checked() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(
            "100000/100000".parse::<Shard>().map(|s| s.count),
            Ok(100_000)
        );
        for bad in [
            "0/3", "4/3", "1/0", "1/100001", "x/3", "2", "2/3/4", "-1/3", "",
        ] {
            let e = bad.parse::<Shard>().expect_err(bad);
            assert!(e.contains("I/N"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_slices_cover_every_game_once() {
        for games in [1u64, 2, 7, 24, 25] {
            for count in 1..=30 {
                let total: u64 = (1..=count)
                    .map(|index| Shard { index, count }.games(games))
                    .sum();
                assert_eq!(total, games, "{games} games in {count} slices");
            }
        }
        assert_eq!(Shard { index: 3, count: 3 }.games(24), 8);
        assert_eq!(Shard { index: 3, count: 3 }.games(2), 0);
    }

    #[test]
    fn a_bad_shard_file_names_its_place() {
        let path = Path::new("s.json");
        let e = ShardFile::parse(path, "{\n  \"format\": 3,,\n}").expect_err("bad");
        assert!(e.lines()[0].starts_with("s.json:2:15: "), "{:?}", e.lines());
        let e = ShardFile::parse(path, "{\"version\": 1}").expect_err("no format");
        assert!(e.lines()[0].contains("not a report"), "{:?}", e.lines());
    }
}
