//! `overmind check [--pack DIR]...`: compile and validate every script, mission, hero and scenario file of the packs.
//!
//! The base pack loads first (found as `play` finds it), then each `--pack` in order. Every
//! problem of every file is printed in one run on standard output as
//! `path:line:column: message` (what follows from another problem is left out: a mission that
//! uses an alien type whose file is broken waits for that fix), then one summary line naming
//! what was found and counting the problems. Exits 1 when there is any problem, 0 otherwise.

use crate::packs::{self, PackSet, Problem};
use overmind_scripting::scenario;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// An expansion pack to load after the base pack (repeatable; loaded in the order given).
    #[arg(long = "pack", value_name = "DIR")]
    pub packs: Vec<PathBuf>,
}

/// The base pack and then `extra`, each shown relative to the current directory when it lies
/// inside it (so problems read `behaviours/aliens/x.lua:3:1: ...`), else absolute.
#[must_use]
pub fn pack_dirs(extra: &[PathBuf]) -> Vec<PathBuf> {
    let here = std::env::current_dir().ok();
    std::iter::once(packs::base_dir())
        .chain(extra.iter().cloned())
        .map(|d| {
            let full = std::fs::canonicalize(&d).unwrap_or(d);
            match &here {
                Some(h) => full
                    .strip_prefix(h)
                    .map_or_else(|_| full.clone(), Path::to_path_buf),
                None => full,
            }
        })
        .map(|d| {
            if d.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                d
            }
        })
        .collect()
}

/// Write `text` to standard output; a closed pipe is the reader's choice, not a failure.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What one check found: the problems and the summary line.
struct Report {
    problems: Vec<Problem>,
    summary: String,
}

fn check(dirs: &[PathBuf]) -> Report {
    // What loads is checked on even when some files have problems, so one run lists the
    // problems of every file.
    let (set, mut problems) = PackSet::load_partial(dirs);
    let Some(set) = set.filter(|s| !s.packs.is_empty()) else {
        let summary = format!(
            "checked {}: the packs do not load",
            plural(dirs.len(), "pack", "packs")
        );
        return Report { problems, summary };
    };
    // A mission or scenario file naming content whose file has problems waits for that fix:
    // its own problems could follow from it.
    let mut waiting = 0;
    let mut waits = |path: &Path| {
        let text = overmind_core::source::read_text(path).unwrap_or_default();
        let unloaded = set.unloaded_in(&text).is_some();
        waiting += usize::from(unloaded);
        unloaded
    };
    for (id, path) in &set.missions {
        if waits(path) {
            continue;
        }
        if let Err(ps) = set.start(id, 0) {
            problems.extend(ps);
        }
    }
    for (id, path) in &set.campaigns {
        if waits(path) {
            continue;
        }
        if let Err(ps) = set.campaign(id) {
            problems.extend(ps);
        }
    }
    let files = scenario::files(&set);
    let mut scenarios = 0;
    for f in &files {
        if waits(f) {
            continue;
        }
        match scenario::load_file(&set, f) {
            Ok(s) => scenarios += s.len(),
            Err(ps) => problems.extend(ps),
        }
    }
    // A scenario on a mission repeats that mission's problems: each is shown once.
    let mut seen = std::collections::HashSet::new();
    problems.retain(|p| seen.insert(p.to_string()));
    let behaviours: Vec<&str> = set.content.behaviours.keys().map(String::as_str).collect();
    let mut summary = format!("checked {}", plural(dirs.len(), "pack", "packs"));
    let unread = dirs.len().saturating_sub(set.packs.len());
    if unread > 0 {
        let _ = write!(
            summary,
            " ({unread} {} not load)",
            if unread == 1 { "does" } else { "do" }
        );
    }
    summary.push_str(": ");
    let _ = write!(
        summary,
        "{} ({}), {}, {}{}, {}{}, {} in {}",
        plural(behaviours.len(), "behaviour", "behaviours"),
        behaviours.join(", "),
        plural(set.content.aliens.len(), "alien type", "alien types"),
        plural(set.content.heroes.len(), "hero", "heroes"),
        if set.content.cards.is_empty() {
            String::new()
        } else {
            format!(", {}", plural(set.content.cards.len(), "card", "cards"))
        },
        plural(set.missions.len(), "mission", "missions"),
        if set.campaigns.is_empty() {
            String::new()
        } else {
            format!(", {}", plural(set.campaigns.len(), "campaign", "campaigns"))
        },
        plural(scenarios, "scenario", "scenarios"),
        plural(files.len(), "file", "files"),
    );
    if waiting > 0 {
        let _ = write!(
            summary,
            " ({} not checked: {} content whose file has problems)",
            plural(
                waiting,
                "mission or scenario file",
                "mission and scenario files"
            ),
            if waiting == 1 { "it uses" } else { "they use" },
        );
    }
    Report { problems, summary }
}

/// Run `overmind check`.
#[must_use]
pub fn run(args: &Args) -> ExitCode {
    let (extra, note) = packs::given_or_here(&args.packs);
    let dirs = pack_dirs(&extra);
    let report = check(&dirs);
    let mut text = note.map(|n| format!("{n}\n")).unwrap_or_default();
    for p in &report.problems {
        let _ = writeln!(text, "{p}");
    }
    let _ = writeln!(
        text,
        "{}; {}",
        report.summary,
        plural(report.problems.len(), "problem", "problems")
    );
    print(&text);
    if report.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_pack_checks_clean() {
        let base = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../behaviours"));
        let r = check(&[base]);
        let shown: Vec<String> = r.problems.iter().map(ToString::to_string).collect();
        assert!(shown.is_empty(), "{}", shown.join("\n"));
        for b in [
            "protect",
            "quick_shot",
            "rush",
            "take_cover",
            "terrifying_presence",
        ] {
            assert!(r.summary.contains(b), "{}", r.summary);
        }
    }

    #[test]
    fn a_missing_pack_is_a_problem_not_a_panic() {
        let r = check(&[PathBuf::from("/nonexistent/pack")]);
        assert!(!r.problems.is_empty());
        assert!(r.summary.contains("do not load"), "{}", r.summary);
    }
}
