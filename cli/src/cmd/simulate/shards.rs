//! Shard reports (`simulate --shard I/N`): writing, reading and checking them, and `merge`.

use super::args::{MergeArgs, Shard, MAX_SHARDS};
use super::outcome::{Compared, Meta, Outcome, Run};
use super::render::render;
use crate::error::CliError;
use crate::json_file;
use crate::stats::Totals;
use overmind_core::ai::{Level, Levels};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Most bytes of a shard report read by `simulate --merge`: reports hold totals, not games,
/// and are a few KiB; a longer file is refused before it is read.
const MAX_SHARD_BYTES: u64 = 64 * 1024 * 1024;

/// The `format` of a shard report.
const SHARD_FORMAT: &str = "overmind simulate shard";
/// The shard report version this build writes and reads (2: shards are told apart by what
/// their packs hold, [`content_fingerprint`](super::fingerprint::content_fingerprint), not by
/// where the packs are).
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
    /// [`content_fingerprint`](super::fingerprint::content_fingerprint).
    pub content: String,
}

impl ShardFile {
    pub(super) fn of(o: &Outcome, shard: Shard, content: String) -> ShardFile {
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
        let text = json_file::read_text(path, MAX_SHARD_BYTES, "a shard report")?;
        ShardFile::parse(path, &text)
    }

    /// Parse a shard report's text.
    ///
    /// # Errors
    /// `path:line:column: message`.
    fn parse(path: &Path, text: &str) -> Result<ShardFile, CliError> {
        let at = |needle: &str, msg: &str| {
            json_file::problem(path, json_file::position_of(text, needle), msg)
        };
        let value: serde_json::Value = json_file::parse(path, text)?;
        if value.get("format").and_then(serde_json::Value::as_str) != Some(SHARD_FORMAT) {
            return Err(at(
                "\"format\"",
                &format!(
                    "not a report of `overmind simulate --shard`: no \"format\": \"{SHARD_FORMAT}\""
                ),
            ));
        }
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == u64::from(SHARD_VERSION) => {}
            other => {
                let found = other.map_or_else(|| "none".to_string(), |v| v.to_string());
                return Err(at(
                    "\"version\"",
                    &format!(
                        "shard report version {found} is not supported (this overmind reads \
                         version {SHARD_VERSION})"
                    ),
                ));
            }
        }
        let file: ShardFile = json_file::parse(path, text)?;
        // The shard and its seeds must agree with each other, so a hand-edited file is caught.
        let s = file.shard;
        if s.count == 0 || s.count > MAX_SHARDS || s.index == 0 || s.index > s.count {
            return Err(at(
                "\"shard\"",
                &format!("shard {s} is not a slice: expected I/N with 1 ≤ I ≤ N ≤ {MAX_SHARDS}"),
            ));
        }
        let want = Seeds {
            first: file.first_seed.wrapping_add(s.index - 1),
            step: s.count,
            count: s.games(file.games),
        };
        let runs = std::iter::once(&file.base).chain(file.compare.as_ref().map(|c| &c.run));
        if file.seeds != want || runs.into_iter().any(|r| r.totals.games != want.count) {
            return Err(at(
                "\"seeds\"",
                &format!(
                    "shard {s} of {} games from seed {} plays {} games from seed {} (every {}), \
                     which this report does not hold",
                    file.games, file.first_seed, want.count, want.first, want.step
                ),
            ));
        }
        Ok(file)
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
pub(super) fn merge(args: &MergeArgs) -> Result<(), CliError> {
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
pub(super) fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
    crate::save::write_regular(path, text, "cannot write", "a report").map_err(CliError::Failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_shard_file_names_its_place() {
        let path = Path::new("s.json");
        let e = ShardFile::parse(path, "{\n  \"format\": 3,,\n}").expect_err("bad");
        assert!(e.lines()[0].starts_with("s.json:2:15: "), "{:?}", e.lines());
        let e = ShardFile::parse(path, "{\"version\": 1}").expect_err("no format");
        assert!(e.lines()[0].contains("not a report"), "{:?}", e.lines());
    }
}
