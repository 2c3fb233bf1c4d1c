//! Finding the base pack and loading packs for a game: the one place the CLI talks to the
//! scripting crate's loader, so the rest of the host sees plain `PackSet`s and problems.

use crate::error::CliError;
use std::path::{Path, PathBuf};

pub use overmind_scripting::pack::{PackSet, Reload};
pub use overmind_scripting::problem::Problem;

/// The environment variable naming the base pack when there is no `behaviours/` here.
pub const BASE_ENV: &str = "OVERMIND_BASE";

/// The base pack the binary was built with.
const BUILT_IN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../behaviours");

/// The base pack: `behaviours/` in the current directory, else `$OVERMIND_BASE`, else the one
/// beside the sources the binary was built from.
#[must_use]
pub fn base_dir() -> PathBuf {
    let here = PathBuf::from("behaviours");
    if here.join("pack.toml").is_file() {
        return here;
    }
    if let Some(dir) = std::env::var_os(BASE_ENV).filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    PathBuf::from(BUILT_IN)
}

/// The base pack followed by the expansions, in load order, made absolute so that a save
/// names them wherever it is replayed from.
#[must_use]
pub fn dirs(extra: &[PathBuf]) -> Vec<PathBuf> {
    std::iter::once(base_dir())
        .chain(extra.iter().cloned())
        .map(|d| absolute(&d))
        .collect()
}

/// The expansions a command loads: those given with `--pack`, else, inside a pack's folder (a
/// `pack.toml` here that is not the base pack's), that pack, with the line that says so.
#[must_use]
pub fn given_or_here(extra: &[PathBuf]) -> (Vec<PathBuf>, Option<String>) {
    if !extra.is_empty() || !Path::new("pack.toml").is_file() {
        return (extra.to_vec(), None);
    }
    let here = std::fs::canonicalize(".").ok();
    let base = std::fs::canonicalize(base_dir()).ok();
    if here.is_none() || here == base {
        return (Vec::new(), None);
    }
    let name = overmind_scripting::pack::pack_name(Path::new("."))
        .map_or_else(String::new, |n| format!(" ({n})"));
    let note = format!("using the pack in this folder{name} after the base pack (no --pack given)");
    (vec![PathBuf::from(".")], Some(note))
}

/// The packs a game loads: a resumed save's own (as it names them), else the base pack and
/// the expansions given.
#[must_use]
pub fn dirs_for(save: Option<&crate::save::Save>, extra: &[PathBuf]) -> Vec<PathBuf> {
    match save {
        Some(s) => crate::save::portable(&s.packs)
            .iter()
            .map(|d| absolute(d))
            .collect(),
        None => dirs(extra),
    }
}

/// `path` as people read it: relative to the current directory when it lies inside it (a pack
/// made absolute for loading, shown as it was typed), else whole.
#[must_use]
pub fn shown(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

/// `path` made absolute without resolving links (falls back to the path as given).
#[must_use]
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Load `dirs` in order.
///
/// # Errors
/// Every problem of every pack, as `path:line:column: message`.
pub fn load(dirs: &[PathBuf]) -> Result<PackSet, CliError> {
    PackSet::load(dirs).map_err(problems)
}

/// Problems as the CLI's error.
#[must_use]
pub fn problems(ps: Vec<Problem>) -> CliError {
    CliError::Problems(ps.iter().map(ToString::to_string).collect())
}

/// The file of a mission given as a file or as the id of a mission in the base pack or in
/// `extra` packs (as `play --mission` takes it). A path that exists is taken as it is, without
/// loading any pack.
///
/// # Errors
/// The packs' problems, or no such mission (naming the ids there are).
pub fn mission_file(mission: &str, extra: &[PathBuf]) -> Result<PathBuf, CliError> {
    let p = PathBuf::from(mission);
    // What looks like a path is one: its own error ("cannot read") says more than "no mission".
    if p.is_file() || mission.contains(std::path::MAIN_SEPARATOR) || mission.ends_with(".toml") {
        return Ok(p);
    }
    let set = load(&dirs(extra))?;
    set.mission_path(mission).map_err(|e| problems(vec![e]))
}

/// A mission given as an id stays an id; a path is made absolute for saves.
#[must_use]
pub fn mission_ref(set: &PackSet, mission: &str) -> String {
    if set.missions.contains_key(mission) {
        mission.to_string()
    } else {
        absolute(Path::new(mission)).display().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_inside_the_current_directory_is_shown_relative_to_it() {
        let cwd = std::env::current_dir().expect("cwd");
        let inside = cwd.join("examples").join("expansion");
        assert_eq!(
            shown(&inside),
            Path::new("examples")
                .join("expansion")
                .display()
                .to_string()
        );
        // The directory itself, and a path outside it, are shown whole.
        assert_eq!(shown(&cwd), cwd.display().to_string());
        let outside = Path::new("/nowhere-near/pack");
        if !outside.starts_with(&cwd) {
            assert_eq!(shown(outside), "/nowhere-near/pack");
        }
    }
}
