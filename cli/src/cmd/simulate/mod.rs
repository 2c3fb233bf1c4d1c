//! `overmind simulate --games N`: the AI against itself over many seeds, on every core. Each
//! thread loads its own packs (a Lua state is not `Send`); results are summed in seed order, so
//! everything but the timing is the same whatever `--jobs` is.
//!
//! `--shard I/N` plays only the I-th of N slices of the seeds (game i when i mod N = I − 1)
//! and writes the slice's totals as a mergeable JSON report; `overmind simulate merge` adds the
//! slices up and prints what one run over all the seeds prints. Every total is an integer
//! (counts, sums, sums of squares), so the merge is exact.

mod args;
mod campaigns;
mod fingerprint;
mod games;
mod items;
mod outcome;
mod render;
mod shards;

use crate::error::CliError;
use crate::packs;
use args::{Shard, Sub};
use render::{json, render, report};
use shards::ShardFile;

pub use args::Args;

/// # Errors
/// Pack or mission problems (exit 1), bad numbers (exit 2), shards that do not merge (exit 1).
pub fn run(args: &Args) -> Result<(), CliError> {
    if let Some(Sub::Merge(m)) = &args.command {
        return shards::merge(m);
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
    let (extra, note) = packs::given_or_here(&args.packs);
    if let Some(n) = &note {
        // The first line of a text report; beside a JSON one, on standard error.
        if args.json || args.shard.is_some() {
            eprintln!("{n}");
        } else {
            crate::output::print(&format!("{n}\n"))?;
        }
    }
    let dirs = packs::dirs(&extra);
    if let Some(id) = &args.campaign {
        let report = campaigns::run(args, id, &dirs, games, jobs)?;
        return Ok(crate::output::print(&if args.json {
            json(&report)
        } else {
            report.text()
        })?);
    }
    let set = packs::load(&dirs)?;
    if !args.compare_item.is_empty() {
        return compare_items(args, &set, &dirs, games, jobs);
    }
    let content = args.shard.map(|_| {
        let mut all = dirs.clone();
        all.extend(args.compare.as_deref().map(packs::absolute));
        fingerprint::content_fingerprint(&all, set.mission_path(&args.mission).ok().as_deref())
    });
    let outcome = games::simulate(args, set, dirs, games, jobs, shard)?;
    match args.shard {
        Some(shard) => {
            let text = json(&ShardFile::of(&outcome, shard, content.unwrap_or_default()));
            match &args.out {
                Some(path) => shards::write_atomically(path, &text),
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

/// `simulate --compare-item ID...`: the text or JSON report, and the HTML page with the run
/// of every item and the items' table.
fn compare_items(
    args: &args::Args,
    set: &packs::PackSet,
    dirs: &[std::path::PathBuf],
    games: u64,
    jobs: usize,
) -> Result<(), CliError> {
    let started = std::time::Instant::now();
    let cpu_started = cpu_time::ProcessTime::try_now().ok();
    let (items, totals) = items::compare_items(args, set, dirs, games, jobs)?;
    let text = items::table(&items);
    if let Some(path) = &args.html {
        let meta = outcome::Meta {
            mission: items.mission.clone(),
            games,
            first_seed: args.seed,
            levels: overmind_core::ai::Levels {
                heroes: args.heroes_ai,
                overmind: args.overmind_ai,
            },
        };
        let run = outcome::Run {
            packs: dirs.to_vec(),
            totals,
            jobs,
            seconds: started.elapsed().as_secs_f64(),
            cpu_seconds: cpu_started
                .and_then(|c| c.try_elapsed().ok())
                .map_or(0.0, |d| d.as_secs_f64()),
        };
        let base = report(&meta, &run);
        crate::html::report::write(path, &base, None, Some(&text), &text)?;
    }
    if args.json {
        Ok(crate::output::print(&json(&items))?)
    } else {
        Ok(crate::output::print(&text)?)
    }
}
