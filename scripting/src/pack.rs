//! Content packs: loading a pack's files, stacking expansions on the base pack, checking every
//! file, and reloading one file while a game runs (DESIGN.md "Content packs").

use crate::problem::Problem;
use crate::runtime::ScriptHost;
use crate::ScriptError;
use overmind_core::{Content, Game, HeroProfile, Mission, Rules};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// `pack.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackInfo {
    /// The pack's name, which other packs' `depends` refer to.
    pub name: String,
    /// The pack's version, free text.
    pub version: String,
    /// One line for people.
    #[serde(default)]
    pub description: String,
    /// Packs that must be loaded before this one.
    #[serde(default)]
    pub depends: Vec<String>,
    /// Ids of behaviours, alien types or heroes of earlier packs this pack deliberately
    /// replaces. Any other clash of ids is an error.
    #[serde(default)]
    pub overrides: Vec<String>,
    /// The folder the pack was loaded from.
    #[serde(skip)]
    pub dir: PathBuf,
}

/// What a content file defines.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `behaviours/*.lua`
    Behaviour,
    /// `aliens/*.lua`
    Alien,
    /// `heroes/*.toml`
    Hero,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Behaviour => "behaviour",
            Kind::Alien => "alien type",
            Kind::Hero => "hero",
        }
    }

    /// The kind of a content file, by the folder it sits in.
    #[must_use]
    pub fn of(path: &Path) -> Option<Kind> {
        let folder = path.parent()?.file_name()?.to_str()?;
        let ext = path.extension()?.to_str()?;
        match (folder, ext) {
            ("behaviours", "lua") => Some(Kind::Behaviour),
            ("aliens", "lua") => Some(Kind::Alien),
            ("heroes", "toml") => Some(Kind::Hero),
            _ => None,
        }
    }
}

/// Every pack loaded for a game, merged: the rules, the content, the missions.
pub struct PackSet {
    /// The packs, in load order.
    pub packs: Vec<PackInfo>,
    /// The base rules with every pack's `rules.toml` on top, in order.
    pub rules: Rules,
    /// Hero profiles, Alien Types and behaviours of all packs.
    pub content: Content,
    /// Mission id (file stem) to file; later packs' missions of the same id replace earlier.
    pub missions: BTreeMap<String, PathBuf>,
    /// The Lua state the scripts live in.
    pub host: Rc<ScriptHost>,
    /// Which file defines each id.
    origins: BTreeMap<(Kind, String), PathBuf>,
}

/// What a file change did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reload {
    /// The new definition is live.
    #[allow(missing_docs)]
    Updated {
        kind: Kind,
        id: String,
        path: PathBuf,
    },
    /// A new file's definition is live.
    #[allow(missing_docs)]
    Added {
        kind: Kind,
        id: String,
        path: PathBuf,
    },
    /// The file is broken; the last good definition stays.
    Failed(Problem),
    /// The file is gone; the last good definition stays so units using it keep working.
    #[allow(missing_docs)]
    Removed {
        kind: Kind,
        id: String,
        path: PathBuf,
    },
    /// Not a content file this host reloads (missions and rules are read at game start).
    Ignored,
}

impl std::fmt::Display for Reload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reload::Updated { kind, id, .. } => write!(f, "{} {id} reloaded", kind.name()),
            Reload::Added { kind, id, .. } => write!(f, "{} {id} added", kind.name()),
            Reload::Failed(p) => write!(f, "{p} (the last good version stays)"),
            Reload::Removed { kind, id, path } => write!(
                f,
                "warning: {} was deleted; {} {id} keeps its last good version",
                path.display(),
                kind.name()
            ),
            Reload::Ignored => Ok(()),
        }
    }
}

/// A file's text; a file that cannot be read is a problem without a position, one that is not
/// UTF-8 a problem at its first bad byte.
fn read(path: &Path, problems: &mut Vec<Problem>) -> Option<String> {
    match overmind_core::source::read_text(path) {
        Ok(t) => Some(t),
        Err(e) => {
            problems.push(Problem::new(path, e.line, e.column, e.message));
            None
        }
    }
}

/// Files of one extension in a pack's subfolder, sorted (a missing folder has none).
fn files(dir: &Path, sub: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().and_then(|e| e.to_str()) == Some(ext))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A script error as a problem in `path`.
pub fn script_problem(path: &Path, text: &str, e: &ScriptError) -> Problem {
    let full = e.to_string();
    match e.location() {
        Some(loc) => {
            let prefix = format!("{}: ", loc);
            let msg = full.strip_prefix(&prefix).unwrap_or(&full).to_string();
            Problem::at_line(path, text, loc.line as usize, msg)
        }
        None => Problem::new(path, 1, 1, full),
    }
}

fn toml_problem(path: &Path, text: &str, e: &toml::de::Error) -> Problem {
    let (line, column) = e
        .span()
        .map_or((1, 1), |s| overmind_core::source::line_col(text, s.start));
    Problem::new(path, line, column, e.message().trim())
}

/// A `rules.toml` (its text, read from `path`) over `base`, key by key: every key known, every
/// value of its type and within its range ([`Rules::overlay`]).
///
/// # Errors
/// Every problem, each at its `path:line:column`.
pub fn rules_from_toml(base: &Rules, path: &Path, text: &str) -> Result<Rules, Vec<Problem>> {
    base.overlay_toml(text).map_err(|es| {
        let lines = overmind_core::source::LineIndex::new(text);
        let problems = es
            .into_iter()
            .map(|e| {
                let (l, c) = lines.line_col(e.span.start);
                Problem::new(path, l, c, e.message)
            })
            .collect();
        crate::problem::cap_per_file(problems)
    })
}

impl PackSet {
    /// Load packs in order (the base pack first, then expansions). Every problem of every file
    /// is reported, not just the first.
    ///
    /// # Errors
    /// All problems found.
    pub fn load(dirs: &[PathBuf]) -> Result<PackSet, Vec<Problem>> {
        let mut problems = Vec::new();
        let mut packs: Vec<PackInfo> = Vec::new();
        let mut rules = Rules::default();
        for dir in dirs {
            let path = dir.join("pack.toml");
            let Some(text) = read(&path, &mut problems) else {
                continue;
            };
            match toml::from_str::<PackInfo>(&text) {
                Ok(mut p) => {
                    for d in &p.depends {
                        if !packs.iter().any(|q| &q.name == d) {
                            let (l, c) = overmind_core::profile::find_key(&text, "depends");
                            problems.push(Problem::new(&path, l, c, format!("depends on pack {d:?}, which is not loaded before it (pass its --pack first)")));
                        }
                    }
                    if let Some(q) = packs.iter().find(|q| q.name == p.name) {
                        problems.push(Problem::new(
                            &path,
                            1,
                            1,
                            format!(
                                "pack {:?} is loaded twice (also {})",
                                p.name,
                                q.dir.display()
                            ),
                        ));
                    }
                    p.dir = dir.clone();
                    packs.push(p);
                }
                Err(e) => problems.push(toml_problem(&path, &text, &e)),
            }
            let rpath = dir.join("rules.toml");
            if rpath.exists() {
                if let Some(text) = read(&rpath, &mut problems) {
                    match rules_from_toml(&rules, &rpath, &text) {
                        Ok(r) => rules = r,
                        Err(ps) => problems.extend(ps),
                    }
                }
            }
        }
        let host = match ScriptHost::new(&rules) {
            Ok(h) => h,
            Err(e) => {
                problems.push(Problem::new(Path::new("<scripting>"), 0, 0, e.to_string()));
                return Err(problems);
            }
        };
        let mut set = PackSet {
            packs: Vec::new(),
            rules,
            content: Content::default(),
            missions: BTreeMap::new(),
            host,
            origins: BTreeMap::new(),
        };
        for p in &packs {
            set.load_pack(p, &mut problems);
        }
        set.packs = packs;
        // Behaviour scripts that did not load: what names them is not a second problem.
        let broken: Vec<(String, String)> = problems
            .iter()
            .filter(|p| {
                p.path.extension().is_some_and(|e| e == "lua")
                    && p.path
                        .parent()
                        .and_then(Path::file_name)
                        .is_some_and(|d| d == "behaviours")
            })
            .map(|p| {
                let stem = p
                    .path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (stem, std::fs::read_to_string(&p.path).unwrap_or_default())
            })
            .collect();
        let broken_defines = |b: &str| {
            broken
                .iter()
                .any(|(stem, text)| stem == b || text.contains(&format!("\"{b}\"")))
        };
        // Every behaviour an alien type lists must exist.
        for (id, t) in &set.content.aliens {
            for b in &t.behaviours {
                if !set.content.behaviours.contains_key(b) && !broken_defines(b) {
                    let path = set
                        .origins
                        .get(&(Kind::Alien, id.clone()))
                        .cloned()
                        .unwrap_or_default();
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    let (l, c) = find_text(&text, &format!("\"{b}\""));
                    problems.push(Problem::new(
                        &path,
                        l,
                        c,
                        format!(
                            "alien type {id} lists behaviour {b:?}, which no loaded pack defines"
                        ),
                    ));
                }
            }
            if let Some(l) = &t.unit.leader {
                if !set.content.aliens.contains_key(l) {
                    let path = set
                        .origins
                        .get(&(Kind::Alien, id.clone()))
                        .cloned()
                        .unwrap_or_default();
                    problems.push(Problem::new(
                        &path,
                        1,
                        1,
                        format!("alien type {id} is led by {l:?}, which no loaded pack defines"),
                    ));
                }
            }
        }
        if problems.is_empty() {
            Ok(set)
        } else {
            Err(crate::problem::cap_per_file(problems))
        }
    }

    fn claim(
        &mut self,
        pack: &PackInfo,
        kind: Kind,
        id: &str,
        path: &Path,
        text: &str,
        problems: &mut Vec<Problem>,
    ) -> bool {
        if let Some(prev) = self.origins.get(&(kind, id.to_string())) {
            let same_pack = prev.starts_with(&pack.dir);
            if same_pack || !pack.overrides.iter().any(|o| o == id) {
                let (l, c) = find_text(text, &format!("\"{id}\""));
                problems.push(Problem::new(
                    path,
                    l,
                    c,
                    format!(
                        "{} id {id:?} is already defined by {}; rename it, or list it in `overrides` in {} to replace it",
                        kind.name(),
                        prev.display(),
                        pack.dir.join("pack.toml").display()
                    ),
                ));
                return false;
            }
        }
        self.origins
            .insert((kind, id.to_string()), path.to_path_buf());
        true
    }

    fn load_pack(&mut self, pack: &PackInfo, problems: &mut Vec<Problem>) {
        let dir = &pack.dir;
        for path in files(dir, "behaviours", "lua") {
            let Some(text) = read(&path, problems) else {
                continue;
            };
            match self.host.load_behaviour(&path, &text) {
                Ok(def) => {
                    let id = def.id.clone();
                    if self.claim(pack, Kind::Behaviour, &id, &path, &text, problems) {
                        let b = self.host.install_behaviour(def);
                        self.content.behaviours.insert(id, b);
                    }
                }
                Err(e) => problems.push(script_problem(&path, &text, &e)),
            }
        }
        for path in files(dir, "aliens", "lua") {
            let Some(text) = read(&path, problems) else {
                continue;
            };
            match self.host.load_alien(&path, &text) {
                Ok(t) => {
                    if self.claim(pack, Kind::Alien, &t.id.clone(), &path, &text, problems) {
                        self.content.aliens.insert(t.id.clone(), t);
                    }
                }
                Err(e) => problems.push(script_problem(&path, &text, &e)),
            }
        }
        for path in files(dir, "heroes", "toml") {
            let Some(text) = read(&path, problems) else {
                continue;
            };
            match HeroProfile::from_toml(&path.display().to_string(), &text) {
                Ok(h) => {
                    if self.claim(pack, Kind::Hero, &h.id.clone(), &path, &text, problems) {
                        self.content.heroes.insert(h.id.clone(), h);
                    }
                }
                Err(es) => problems.extend(
                    es.into_iter()
                        .map(|e| Problem::new(&path, e.line, e.column, e.message)),
                ),
            }
        }
        for path in files(dir, "missions", "toml") {
            if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
                self.missions.insert(stem.to_string(), path.clone());
            }
        }
    }

    /// Find a mission by id (a file stem in some pack) or by path.
    pub fn mission_path(&self, id_or_path: &str) -> Result<PathBuf, Problem> {
        if let Some(p) = self.missions.get(id_or_path) {
            return Ok(p.clone());
        }
        let p = PathBuf::from(id_or_path);
        if p.exists() {
            return Ok(p);
        }
        let known: Vec<&str> = self.missions.keys().map(String::as_str).collect();
        Err(Problem::new(
            &p,
            0,
            0,
            format!(
                "no mission {id_or_path:?}: give a path or one of {}",
                known.join(", ")
            ),
        ))
    }

    /// Parse a mission and build its setup over these packs' rules.
    ///
    /// # Errors
    /// Every problem of the mission file.
    pub fn setup(&self, id_or_path: &str) -> Result<overmind_core::Setup, Vec<Problem>> {
        let path = self.mission_path(id_or_path).map_err(|p| vec![p])?;
        let mut problems = Vec::new();
        let text = read(&path, &mut problems).ok_or(problems)?;
        let conv = |es: overmind_core::MissionErrors| -> Vec<Problem> {
            es.0.into_iter()
                .map(|e| Problem::new(&e.path, e.line, e.column, e.message))
                .collect()
        };
        let m = Mission::parse(&path, &text).map_err(conv)?;
        m.setup(&text, &self.rules).map_err(conv)
    }

    /// Start a game of a mission with a seed.
    ///
    /// # Errors
    /// Problems with the mission file or its deployment.
    pub fn start(&self, id_or_path: &str, seed: u64) -> Result<Game, Vec<Problem>> {
        let setup = self.setup(id_or_path)?;
        let path = self.mission_path(id_or_path).map_err(|p| vec![p])?;
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let st = setup.start(&self.content, seed).map_err(|es| {
            es.into_iter()
                .map(|e| {
                    let (l, c) = match &e {
                        overmind_core::SetupError::Unit { id, .. } => {
                            find_text(&text, &format!("\"{id}\""))
                        }
                        overmind_core::SetupError::Other(_) => (1, 1),
                    };
                    Problem::new(&path, l, c, e.to_string())
                })
                .collect::<Vec<_>>()
        })?;
        Ok(Game::new(st, &setup.name, seed))
    }

    /// Every mission of every pack, checked as far as a game start (seed 0).
    pub fn check_missions(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        for id in self.missions.keys() {
            if let Err(ps) = self.start(id, 0) {
                out.extend(ps);
            }
        }
        out
    }

    /// The pack directories, for watching.
    #[must_use]
    pub fn dirs(&self) -> Vec<PathBuf> {
        self.packs.iter().map(|p| p.dir.clone()).collect()
    }

    /// A content file changed (or appeared, or vanished): compile and validate it in a fresh
    /// environment and make it live, or keep the last good definition and say why.
    pub fn reload(&mut self, path: &Path) -> Reload {
        let Some(kind) = Kind::of(path) else {
            return Reload::Ignored;
        };
        let existing = self
            .origins
            .iter()
            .find(|(_, p)| same_file(p, path))
            .map(|((k, id), _)| (*k, id.clone()));
        let text = match overmind_core::source::read_text(path) {
            Ok(t) => t,
            // Gone (or a link to nothing): the last good definition stays.
            Err(e) if e.io == Some(std::io::ErrorKind::NotFound) => {
                return match existing {
                    Some((kind, id)) => Reload::Removed {
                        kind,
                        id,
                        path: path.to_path_buf(),
                    },
                    None => Reload::Ignored,
                }
            }
            // There but unreadable, or not UTF-8: a broken file, not a deleted one.
            Err(e) => return Reload::Failed(Problem::new(path, e.line, e.column, e.message)),
        };
        let (id, live) = match kind {
            Kind::Behaviour => match self.host.load_behaviour(path, &text) {
                Ok(def) => {
                    let id = def.id.clone();
                    if let Some(p) = self.clash(kind, &id, path, &text) {
                        return Reload::Failed(p);
                    }
                    let b = self.host.install_behaviour(def);
                    self.content.behaviours.insert(id.clone(), b);
                    (id, true)
                }
                Err(e) => return Reload::Failed(script_problem(path, &text, &e)),
            },
            Kind::Alien => {
                match self.host.load_alien(path, &text) {
                    Ok(t) => {
                        if let Some(p) = self.clash(kind, &t.id, path, &text) {
                            return Reload::Failed(p);
                        }
                        if let Some(b) = t
                            .behaviours
                            .iter()
                            .find(|b| !self.content.behaviours.contains_key(*b))
                        {
                            let (l, c) = find_text(&text, &format!("\"{b}\""));
                            return Reload::Failed(Problem::new(path, l, c, format!("alien type {} lists behaviour {b:?}, which no loaded pack defines", t.id)));
                        }
                        let id = t.id.clone();
                        self.content.aliens.insert(id.clone(), t);
                        (id, true)
                    }
                    Err(e) => return Reload::Failed(script_problem(path, &text, &e)),
                }
            }
            Kind::Hero => match HeroProfile::from_toml(&path.display().to_string(), &text) {
                Ok(h) => {
                    if let Some(p) = self.clash(kind, &h.id, path, &text) {
                        return Reload::Failed(p);
                    }
                    let id = h.id.clone();
                    self.content.heroes.insert(id.clone(), h);
                    (id, true)
                }
                Err(es) => {
                    let e = &es[0];
                    return Reload::Failed(Problem::new(path, e.line, e.column, e.message.clone()));
                }
            },
        };
        let _ = live;
        self.origins.insert((kind, id.clone()), path.to_path_buf());
        match existing {
            Some(_) => Reload::Updated {
                kind,
                id,
                path: path.to_path_buf(),
            },
            None => Reload::Added {
                kind,
                id,
                path: path.to_path_buf(),
            },
        }
    }

    /// A reloaded file may not take over an id another file defines.
    fn clash(&self, kind: Kind, id: &str, path: &Path, text: &str) -> Option<Problem> {
        let prev = self.origins.get(&(kind, id.to_string()))?;
        // A file renamed away frees its id for the new name.
        if same_file(prev, path) || !prev.exists() {
            return None;
        }
        let (l, c) = find_text(text, &format!("\"{id}\""));
        Some(Problem::new(
            path,
            l,
            c,
            format!(
                "{} id {id:?} is already defined by {}",
                kind.name(),
                prev.display()
            ),
        ))
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b || (a.canonicalize().ok().is_some() && a.canonicalize().ok() == b.canonicalize().ok())
}

/// 1-based position of the first occurrence of `needle`, or 1:1.
fn find_text(text: &str, needle: &str) -> (usize, usize) {
    match text.find(needle) {
        Some(i) => overmind_core::source::line_col(text, i),
        None => (1, 1),
    }
}
