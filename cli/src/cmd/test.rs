//! `overmind test [--pack DIR]... [--all] [--filter TEXT] [--verbose]`: play packs' scenario tests and report each.
//!
//! The base pack loads first, then each `--pack`. The scenarios played are those of the
//! packs named with `--pack` (the base pack's when none is named; every loaded pack's with
//! `--all`): every `tests/*.toml`, each scenario printing `PASS  path: name` or
//! `FAIL  path: name` followed by what was expected, what happened and the events that show
//! it. A file with problems prints them as `path:line:column: message` and counts as failed.
//! Exits 1 when anything failed, or when `--filter` matches no scenario.

use super::check::{pack_dirs, print};
use crate::packs::PackSet;
use overmind_scripting::scenario;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// An expansion pack to load after the base pack (repeatable; loaded in the order given).
    #[arg(long = "pack", value_name = "DIR")]
    pub packs: Vec<PathBuf>,
    /// Also play the base pack's scenarios (and those of every loaded pack), not only those of
    /// the packs named with --pack.
    #[arg(long)]
    pub all: bool,
    /// Play only the scenarios whose `path: name` contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// Also print the whole game of every scenario played: each event and each decision.
    #[arg(long, short)]
    pub verbose: bool,
}

/// Counts for the summary line.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    filtered: usize,
    bad_files: usize,
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}

/// Play every scenario of the packs in `dirs`; the report and the tally.
fn test(set: &PackSet, dirs: &[PathBuf], filter: Option<&str>, verbose: bool) -> (String, Tally) {
    let mut out = String::new();
    let mut t = Tally::default();
    let files = scenario::files(set)
        .into_iter()
        .filter(|f| dirs.iter().any(|d| f.starts_with(d)));
    for file in files {
        let scenarios = match scenario::load_file(set, &file) {
            Ok(s) => s,
            Err(problems) => {
                t.bad_files += 1;
                let _ = writeln!(out, "FAIL  {}: the file has problems", file.display());
                for p in problems {
                    let _ = writeln!(out, "      {p}");
                }
                continue;
            }
        };
        for s in scenarios {
            let title = format!("{}: {}", file.display(), s.name);
            if filter.is_some_and(|f| !title.contains(f)) {
                t.filtered += 1;
                continue;
            }
            let r = s.run(&set.content);
            if r.passed() {
                t.passed += 1;
                let _ = writeln!(out, "PASS  {title}");
            } else {
                t.failed += 1;
                let _ = writeln!(out, "FAIL  {title}");
                for f in &r.failures {
                    out.push_str(&indent(&f.to_string(), "      "));
                }
            }
            if verbose {
                let _ = writeln!(out, "      the game as played:");
                for l in &r.transcript {
                    let _ = writeln!(out, "        {l}");
                }
            }
        }
    }
    (out, t)
}

/// Run `overmind test`.
#[must_use]
pub fn run(args: &Args) -> ExitCode {
    let (extra, note) = crate::packs::given_or_here(&args.packs);
    if let Some(n) = &note {
        print(&format!("{n}\n"));
    }
    let dirs = pack_dirs(&extra);
    let set = match PackSet::load(&dirs) {
        Ok(set) => set,
        Err(problems) => {
            let mut text = String::new();
            for p in &problems {
                let _ = writeln!(text, "{p}");
            }
            let _ = writeln!(text, "the packs do not load ({} problems): no scenario was played; `overmind check` lists the same problems", problems.len());
            print(&text);
            return ExitCode::FAILURE;
        }
    };
    // The packs whose scenarios are played: those named, else the base pack.
    let chosen: &[PathBuf] = if args.all || dirs.len() == 1 {
        &dirs
    } else {
        &dirs[1..]
    };
    let (mut text, t) = test(&set, chosen, args.filter.as_deref(), args.verbose);
    let played = t.passed + t.failed;
    // A filter that matches nothing is a mistake, not a pass.
    let unmatched = played == 0 && args.filter.is_some();
    let ok = t.failed + t.bad_files == 0 && !unmatched;
    let mut summary = format!("{} passed, {} failed", t.passed, t.failed);
    if t.bad_files > 0 {
        let _ = write!(summary, ", {} file(s) with problems", t.bad_files);
    }
    if t.filtered > 0 {
        let _ = write!(summary, ", {} left out by --filter", t.filtered);
    }
    let verdict = if ok { "ok" } else { "FAILED" };
    let _ = writeln!(text, "\ntest result: {verdict}. {summary}");
    if unmatched {
        let filter = args.filter.as_deref().unwrap_or("");
        let _ = writeln!(text, "no scenario matches --filter {filter:?}");
    } else if played == 0 && t.bad_files == 0 {
        let _ = writeln!(
            text,
            "no scenarios in the chosen packs: write them as tests/*.toml in a pack (docs/SCENARIOS.md)"
        );
    }
    print(&text);
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
