//! Content packs: loading a pack's files, stacking expansions on the base pack, checking every
//! file, and reloading one file while a game runs (DESIGN.md "Content packs").

use crate::problem::Problem;
use crate::runtime::{AbilityDef, CardFile, RuleDef, ScriptHost, TokenDef};
use crate::ScriptError;
use overmind_core::setup::Checks;
use overmind_core::trigger::{Owner, TriggerDef};
use overmind_core::{Content, Game, HeroProfile, Mission, Rules};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

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
    /// `tokens/*.lua`
    Token,
    /// `abilities/*.lua` (after heroes: an ability names its hero profile)
    Ability,
    /// `triggers/*.lua`
    Trigger,
    /// `cards/*.lua`
    Card,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Behaviour => "behaviour",
            Kind::Alien => "alien type",
            Kind::Hero => "hero",
            Kind::Token => "token kind",
            Kind::Ability => "ability",
            Kind::Trigger => "trigger",
            Kind::Card => "card",
        }
    }

    /// Whether a trigger of the core is one that a file of this kind and id registered.
    fn registered(self, id: &str, t: &TriggerDef) -> bool {
        let owner_ok = matches!(
            (self, &t.owner),
            (Kind::Alien, Owner::Alien(_))
                | (Kind::Token, Owner::Token(_))
                | (Kind::Ability, Owner::Hero(_))
                | (Kind::Trigger, Owner::Game)
                | (Kind::Card, Owner::Card(_))
        );
        owner_ok && t.source == id
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
            ("tokens", "lua") => Some(Kind::Token),
            ("abilities", "lua") => Some(Kind::Ability),
            ("triggers", "lua") => Some(Kind::Trigger),
            ("cards", "lua") => Some(Kind::Card),
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
    /// Hero profiles, Alien Types, behaviours, token kinds and triggers of all packs.
    pub content: Content,
    /// Hero abilities by id (their triggers are in `content.triggers`).
    pub abilities: BTreeMap<String, AbilityDef>,
    /// The packs' game-wide rules (`trigger { ... }`) by id (their triggers are in
    /// `content.triggers`).
    pub game_rules: BTreeMap<String, RuleDef>,
    /// Mission id (file stem) to file; later packs' missions of the same id replace earlier.
    pub missions: BTreeMap<String, PathBuf>,
    /// Campaign id (file stem) to file (docs/RULES.md §16); later packs' replace earlier.
    pub campaigns: BTreeMap<String, PathBuf>,
    /// The Lua state the scripts live in.
    pub host: Rc<ScriptHost>,
    /// Which file defines each id.
    origins: BTreeMap<(Kind, String), PathBuf>,
    /// The texts it was loaded from instead of the disk (a save's), for its missions too.
    overlay: Option<Rc<Overlay>>,
    /// Ids that content files with problems may define and that are not loaded.
    unloaded: Vec<String>,
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
pub(crate) fn read_data(path: &Path, problems: &mut Vec<Problem>) -> Option<String> {
    read_capped(
        path,
        overmind_core::source::MAX_TEXT_BYTES,
        "a data file",
        problems,
    )
}

/// [`read`] with another cap on the file's length, `what` naming the file when it is longer.
fn read_capped(path: &Path, cap: u64, what: &str, problems: &mut Vec<Problem>) -> Option<String> {
    match overlaid(path) {
        Some(Some(text)) => return Some(text),
        Some(None) => {
            problems.push(Problem::new(
                path,
                0,
                0,
                "cannot read: the file was not there when the game began".to_string(),
            ));
            return None;
        }
        None => {}
    }
    match overmind_core::source::read_text_capped(path, cap, what) {
        Ok(t) => Some(t),
        Err(e) => {
            problems.push(Problem::new(path, e.line, e.column, e.message));
            None
        }
    }
}

/// Files of one extension in a pack's subfolder, sorted (a missing folder has none), as the
/// overlay in force has them.
fn files(dir: &Path, sub: &str, ext: &str) -> Vec<PathBuf> {
    let folder = dir.join(sub);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&folder)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().and_then(|e| e.to_str()) == Some(ext))
                .collect()
        })
        .unwrap_or_default();
    OVERLAY.with(|o| {
        if let Some(o) = o.borrow().as_ref() {
            v.retain(|p| !matches!(o.0.get(p), Some(None)));
            for (p, text) in &o.0 {
                let here = p.parent() == Some(folder.as_path())
                    && p.extension().and_then(|e| e.to_str()) == Some(ext);
                if here && text.is_some() && !v.contains(p) {
                    v.push(p.clone());
                }
            }
        }
    });
    v.sort();
    v
}

/// Texts to read instead of the files on disk: a save's record of the files a game was
/// played with, by absolute path. `Some(text)` is the file's text then, `None` a file that
/// was not there; a file it does not name is read from the disk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overlay(pub BTreeMap<PathBuf, Option<String>>);

thread_local! {
    /// The overlay of the load or mission read under way on this thread, if any.
    static OVERLAY: std::cell::RefCell<Option<Rc<Overlay>>> = const { std::cell::RefCell::new(None) };
}

/// Run `f` with `overlay` in force on this thread (the one before it back afterwards).
fn with_overlay<R>(overlay: Option<&Rc<Overlay>>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Rc<Overlay>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let old = self.0.take();
            OVERLAY.with(|o| *o.borrow_mut() = old);
        }
    }
    let old = OVERLAY.with(|o| std::mem::replace(&mut *o.borrow_mut(), overlay.cloned()));
    let _restore = Restore(old);
    f()
}

/// The overlay's text of `path`: `Some(Some(text))`, `Some(None)` for a file that was not
/// there, `None` when the overlay does not name it (or there is none).
fn overlaid(path: &Path) -> Option<Option<String>> {
    OVERLAY.with(|o| o.borrow().as_ref().and_then(|o| o.0.get(path).cloned()))
}

/// Whether `path` is a file, as the overlay in force has it.
fn is_file(path: &Path) -> bool {
    match overlaid(path) {
        Some(t) => t.is_some(),
        None => path.is_file(),
    }
}

/// The folders a pack's content is read from, with their files' extension, in load order.
const CONTENT_FOLDERS: [(&str, &str); 9] = [
    ("behaviours", "lua"),
    ("aliens", "lua"),
    ("heroes", "toml"),
    ("missions", "toml"),
    ("tokens", "lua"),
    ("abilities", "lua"),
    ("triggers", "lua"),
    ("cards", "lua"),
    ("campaigns", "toml"),
];

/// Every file of the pack in `dir` that loading it reads: `pack.toml`, `rules.toml` (when
/// there is one), then each content folder's files, sorted. Its scenario tests and API stubs
/// are not among them: they change nothing a game does.
#[must_use]
pub fn content_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ["pack.toml", "rules.toml"]
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| is_file(p))
        .collect();
    for (sub, ext) in CONTENT_FOLDERS {
        out.extend(files(dir, sub, ext));
    }
    out
}

/// A script error as a problem in `path`: at the token a syntax error names, else at its
/// line's first non-blank character.
pub fn script_problem(path: &Path, text: &str, e: &ScriptError) -> Problem {
    if let ScriptError::Syntax {
        line: Some(line),
        message,
        ..
    } = e
    {
        if let Some((l, c)) = crate::error::syntax_position(text, *line, message) {
            return Problem::new(path, l, c, message.clone());
        }
    }
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

/// A TOML file's text as one value for [`crate::problem::read_all`], or its syntax error.
fn toml_root<'t>(path: &Path, text: &'t str) -> Result<Spanned<DeValue<'t>>, Problem> {
    let root = DeTable::parse(text).map_err(|e| toml_problem(path, text, &e))?;
    Ok(Spanned::new(root.span(), DeValue::Table(root.into_inner())))
}

/// `read_all`'s problems as problems of `path`.
fn spanned_problems(path: &Path, text: &str, found: Vec<(Range<usize>, String)>) -> Vec<Problem> {
    let lines = overmind_core::source::LineIndex::new(text);
    found
        .into_iter()
        .map(|(span, message)| {
            let (l, c) = lines.line_col(span.start);
            Problem::new(path, l, c, message)
        })
        .collect()
}

/// The name `dir`'s `pack.toml` gives its pack, as loading reads it (`None` when it does not
/// read).
#[must_use]
pub fn pack_name(dir: &Path) -> Option<String> {
    let path = dir.join("pack.toml");
    let text = std::fs::read_to_string(&path).ok()?;
    pack_info(&path, &text, &mut Vec::new()).map(|p| p.name)
}

/// `pack.toml`, every problem of it in `problems`. A pack whose `pack.toml` has problems but
/// still reads (say, one unknown key) is loaded, so its files are checked in the same run;
/// not when its `overrides` do not read, as every id it overrides would then be a clash.
fn pack_info(path: &Path, text: &str, problems: &mut Vec<Problem>) -> Option<PackInfo> {
    let root = match toml_root(path, text) {
        Ok(r) => r,
        Err(p) => {
            problems.push(p);
            return None;
        }
    };
    let read = crate::problem::read_all::<PackInfo>(root);
    let mut found = spanned_problems(path, text, read.problems);
    found.sort_by_key(|p| (p.line, p.column));
    problems.extend(found);
    read.value
        .filter(|_| !read.cut.iter().any(|k| k == "overrides"))
}

/// A hero profile (`heroes/*.toml`): every problem of its keys and values, then those of its
/// numbers that do not follow from them, each at its `path:line:column`.
///
/// # Errors
/// Every problem, in file order.
pub fn hero_from_toml(path: &Path, text: &str) -> Result<HeroProfile, Vec<Problem>> {
    let root = toml_root(path, text).map_err(|p| vec![p])?;
    let read = crate::problem::read_all::<HeroProfile>(root);
    let mut problems = spanned_problems(path, text, read.problems);
    if let Some(h) = &read.value {
        for message in h.validate() {
            let key = message.split(':').next().unwrap_or("").to_string();
            // A key left out for its own problem reads as its default here.
            if read.cut.contains(&key) {
                continue;
            }
            let (line, column) = overmind_core::profile::find_key(text, &key);
            problems.push(Problem::new(path, line, column, message));
        }
    }
    match read.value {
        Some(h) if problems.is_empty() => Ok(h),
        _ => {
            problems.sort_by_key(|p| (p.line, p.column));
            Err(problems)
        }
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
        match Self::load_partial(dirs) {
            (Some(set), problems) if problems.is_empty() => Ok(set),
            (_, problems) => Err(problems),
        }
    }

    /// [`PackSet::load`] from the texts of `overlay` where it names a file (a save's record of
    /// the files a game began with), the disk elsewhere; its missions are read so too.
    ///
    /// # Errors
    /// All problems found.
    pub fn load_with(dirs: &[PathBuf], overlay: Overlay) -> Result<PackSet, Vec<Problem>> {
        let overlay = Rc::new(overlay);
        with_overlay(Some(&overlay), || Self::load(dirs))
    }

    /// [`PackSet::load`], keeping what loaded: the set holds every definition whose file has
    /// no problem (none when the Lua state cannot be made), so that `overmind check` can go on
    /// to the missions and scenarios in the same run; [`PackSet::unloaded_in`] tells which of
    /// those name content that did not load. Use the set for a game only when there is no
    /// problem.
    #[must_use]
    pub fn load_partial(dirs: &[PathBuf]) -> (Option<PackSet>, Vec<Problem>) {
        let mut problems = Vec::new();
        let mut packs: Vec<PackInfo> = Vec::new();
        let mut rules = Rules::default();
        for dir in dirs {
            let path = dir.join("pack.toml");
            let Some(text) = read_data(&path, &mut problems) else {
                continue;
            };
            if let Some(mut p) = pack_info(&path, &text, &mut problems) {
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
            let rpath = dir.join("rules.toml");
            if is_file(&rpath) {
                if let Some(text) = read_data(&rpath, &mut problems) {
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
                return (None, problems);
            }
        };
        let mut set = PackSet {
            packs: Vec::new(),
            rules,
            content: Content::default(),
            abilities: BTreeMap::new(),
            game_rules: BTreeMap::new(),
            missions: BTreeMap::new(),
            campaigns: BTreeMap::new(),
            host,
            origins: BTreeMap::new(),
            overlay: OVERLAY.with(|o| o.borrow().clone()),
            unloaded: Vec::new(),
        };
        let mut broken_aliens = Vec::new();
        for p in &packs {
            set.load_pack(p, &mut problems, &mut broken_aliens);
        }
        set.packs = packs;
        // Content files with problems: what names what they define is not a second problem.
        let mut broken: Vec<(Kind, String, String)> = Vec::new();
        for p in &problems {
            let Some(kind) = Kind::of(&p.path) else {
                continue;
            };
            let stem = p
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !broken.iter().any(|(k, s, _)| *k == kind && *s == stem) {
                let text = overmind_core::source::read_text(&p.path).unwrap_or_default();
                broken.push((kind, stem, text));
            }
        }
        let broken_defines = |k: Kind, b: &str| {
            broken.iter().any(|(kind, stem, text)| {
                *kind == k && (stem == b || text.contains(&format!("\"{b}\"")))
            })
        };
        for (kind, stem, text) in &broken {
            for id in declared_ids(stem, text) {
                let defined = match kind {
                    Kind::Behaviour => set.content.behaviours.contains_key(&id),
                    Kind::Alien => set.content.aliens.contains_key(&id),
                    Kind::Hero => set.content.heroes.contains_key(&id),
                    Kind::Token => set.content.tokens.contains_key(&id),
                    Kind::Ability => set.abilities.contains_key(&id),
                    Kind::Trigger => set.game_rules.contains_key(&id),
                    Kind::Card => set.content.cards.contains_key(&id),
                };
                if !defined && !set.unloaded.contains(&id) {
                    set.unloaded.push(id);
                }
            }
        }
        // Every behaviour an alien type lists must exist: those of the types that loaded, and
        // those of the types whose list is fine though something else in them is not.
        let listed = set
            .content
            .aliens
            .iter()
            .map(|(id, t)| {
                let path = set
                    .origins
                    .get(&(Kind::Alien, id.clone()))
                    .cloned()
                    .unwrap_or_default();
                (id.clone(), path, t.behaviours.clone())
            })
            .chain(broken_aliens);
        for (id, path, behaviours) in listed {
            let text = overmind_core::source::read_text(&path).unwrap_or_default();
            for b in &behaviours {
                if !set.content.behaviours.contains_key(b) && !broken_defines(Kind::Behaviour, b) {
                    let (l, c) = find_text(&text, &format!("\"{b}\""));
                    let near = crate::problem::nearest(
                        b,
                        set.content.behaviours.keys().map(String::as_str),
                    )
                    .map_or_else(String::new, |n| format!(" (did you mean {n}?)"));
                    problems.push(Problem::new(
                        &path,
                        l,
                        c,
                        format!(
                            "alien type {id} lists behaviour {b:?}, which no loaded pack defines{near}"
                        ),
                    ));
                }
            }
        }
        for (id, t) in &set.content.aliens {
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
        // Every ability's hero profile must be loaded (unless its own file is broken).
        for a in set.abilities.values() {
            if !broken_defines(Kind::Hero, &a.hero) {
                problems.extend(set.unknown_hero(a));
            }
        }
        (Some(set), crate::problem::cap_per_file(problems))
    }

    /// The problem of an ability whose hero profile no loaded pack defines, if it is one.
    fn unknown_hero(&self, a: &AbilityDef) -> Option<Problem> {
        if self.content.heroes.contains_key(&a.hero) {
            return None;
        }
        let path = a.hooks.path();
        let text = overmind_core::source::read_text(path).unwrap_or_default();
        let (l, c) = field_position(&text, a.hooks.def_line(), "hero", Some(&a.hero));
        let near = crate::problem::nearest(&a.hero, self.content.heroes.keys().map(String::as_str))
            .map_or_else(String::new, |n| format!(" (did you mean {n}?)"));
        Some(Problem::new(
            path,
            l,
            c,
            format!(
                "ability {} is for hero profile {:?}, which no loaded pack defines{near}",
                a.id, a.hero
            ),
        ))
    }

    /// The problem of a token kind whose symbol another kind already draws with, if it is one.
    fn symbol_taken(&self, t: &TokenDef, text: &str) -> Option<Problem> {
        let other = self
            .content
            .tokens
            .values()
            .find(|k| k.symbol == t.kind.symbol && k.id != t.kind.id)?;
        let (l, c) = field_position(text, t.hooks.def_line(), "symbol", None);
        Some(Problem::new(
            t.hooks.path(),
            l,
            c,
            format!(
                "token kind {}: symbol {:?} is already token kind {}'s; the map could not tell them apart",
                t.kind.id, t.kind.symbol, other.id
            ),
        ))
    }

    /// Make `defs` the triggers a file of `kind` registered for `id`: in place of the ones it
    /// registered before, where they were (so the order triggers run in stays), else last.
    fn set_triggers(&mut self, kind: Kind, id: &str, defs: Vec<TriggerDef>) {
        let triggers = &mut self.content.triggers;
        let at = triggers
            .iter()
            .position(|t| kind.registered(id, t))
            .unwrap_or(triggers.len());
        triggers.retain(|t| !kind.registered(id, t));
        let at = at.min(triggers.len());
        triggers.splice(at..at, defs);
    }

    /// The first id that `text` (a mission or scenario file) names in quotes which a content
    /// file with problems may define but that did not load: its problems may follow from that
    /// file's, so it is better checked once that file is fixed. None for a set without problems.
    #[must_use]
    pub fn unloaded_in(&self, text: &str) -> Option<&str> {
        self.unloaded
            .iter()
            .find(|id| text.contains(&format!("\"{id}\"")))
            .map(String::as_str)
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

    /// Loads one pack's content files into the set; every problem goes to `problems`, and an
    /// alien type that does not load but whose list of behaviours is fine goes to `lists` as
    /// (name, file, behaviours), so its references are checked too.
    fn load_pack(
        &mut self,
        pack: &PackInfo,
        problems: &mut Vec<Problem>,
        lists: &mut Vec<(String, PathBuf, Vec<String>)>,
    ) {
        let dir = &pack.dir;
        for path in files(dir, "behaviours", "lua") {
            let Some(text) = read_data(&path, problems) else {
                continue;
            };
            match self.host.check_behaviour(&path, &text) {
                Ok(def) => {
                    let id = def.id.clone();
                    if self.claim(pack, Kind::Behaviour, &id, &path, &text, problems) {
                        let b = self.host.install_behaviour(def);
                        self.content.behaviours.insert(id, b);
                    }
                }
                Err(ps) => problems.extend(ps),
            }
        }
        for path in files(dir, "aliens", "lua") {
            let Some(text) = read_data(&path, problems) else {
                continue;
            };
            match self.host.check_alien_type(&path, &text) {
                Ok((t, hooks)) => {
                    if self.claim(pack, Kind::Alien, &t.id.clone(), &path, &text, problems) {
                        let defs = hooks.map_or_else(Vec::new, |h| self.host.install_hooks(h));
                        self.set_triggers(Kind::Alien, &t.id, defs);
                        self.content.aliens.insert(t.id.clone(), t);
                    }
                }
                Err(broken) => {
                    problems.extend(broken.problems);
                    if !broken.behaviours.is_empty() {
                        let name = path
                            .file_stem()
                            .map(|s| s.to_string_lossy().into_owned())
                            .unwrap_or_default();
                        lists.push((name, path.clone(), broken.behaviours));
                    }
                }
            }
        }
        for path in files(dir, "heroes", "toml") {
            let Some(text) = read_data(&path, problems) else {
                continue;
            };
            match hero_from_toml(&path, &text) {
                Ok(h) => {
                    if self.claim(pack, Kind::Hero, &h.id.clone(), &path, &text, problems) {
                        self.content.heroes.insert(h.id.clone(), h);
                    }
                }
                Err(ps) => problems.extend(ps),
            }
        }
        self.load_hooked::<TokenDef>(pack, problems);
        self.load_hooked::<AbilityDef>(pack, problems);
        self.load_hooked::<RuleDef>(pack, problems);
        self.load_hooked::<CardFile>(pack, problems);
        for path in files(dir, "missions", "toml") {
            if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
                self.missions.insert(stem.to_string(), path.clone());
            }
        }
        for path in files(dir, "campaigns", "toml") {
            if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
                self.campaigns.insert(stem.to_string(), path.clone());
            }
        }
    }

    /// Every file of one pack's folder of `T`s, each checked, claimed and installed.
    fn load_hooked<T: HookedDef>(&mut self, pack: &PackInfo, problems: &mut Vec<Problem>) {
        for path in files(&pack.dir, T::FOLDER, "lua") {
            let Some(text) = read_data(&path, problems) else {
                continue;
            };
            match T::check(&self.host, &path, &text) {
                Ok(def) => {
                    let id = def.id();
                    if let Some(p) = def.refused(self, &text, true) {
                        problems.push(p);
                    } else if self.claim(pack, T::KIND, &id, &path, &text, problems) {
                        def.install(self);
                    }
                }
                Err(ps) => problems.extend(ps),
            }
        }
    }

    /// A `T`'s file changed: its id, live now, or why the last good version stays.
    fn reload_hooked<T: HookedDef>(&mut self, path: &Path, text: &str) -> Result<String, Reload> {
        let def = T::load(&self.host, path, text)
            .map_err(|e| Reload::Failed(script_problem(path, text, &e)))?;
        let id = def.id();
        let refused = self
            .clash(T::KIND, &id, path, text)
            .or_else(|| def.refused(self, text, false));
        if let Some(p) = refused {
            return Err(Reload::Failed(p));
        }
        def.install(self);
        Ok(id)
    }

    /// Find a mission by id (a file stem in some pack) or by path.
    pub fn mission_path(&self, id_or_path: &str) -> Result<PathBuf, Problem> {
        if let Some(p) = self.missions.get(id_or_path) {
            return Ok(p.clone());
        }
        let p = PathBuf::from(id_or_path);
        if with_overlay(self.overlay.as_ref(), || is_file(&p)) || p.exists() {
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
    /// Every problem of the mission file: its map and placements, and its keys.
    pub fn setup(&self, id_or_path: &str) -> Result<overmind_core::Setup, Vec<Problem>> {
        let read = self.read_mission(id_or_path)?;
        match read.setup {
            Some(setup) if read.problems.is_empty() => Ok(setup),
            _ => Err(finish_problems(read.problems, &read.path)),
        }
    }

    /// Start a game of a mission with a seed.
    ///
    /// # Errors
    /// Every problem of the mission file and of its deployment, in file order: a unit off the
    /// map, a hero of an unknown profile and a Blip in a Hero's sight are found in one run.
    pub fn start(&self, id_or_path: &str, seed: u64) -> Result<Game, Vec<Problem>> {
        self.start_carrying(id_or_path, seed, None)
    }

    /// [`PackSet::start`] as a campaign plays the mission, with what it carries in
    /// (docs/RULES.md §16): the Overmind's upgrades, the Heroes' Health, XP and Items.
    ///
    /// # Errors
    /// As [`PackSet::start`].
    pub fn start_carrying(
        &self,
        id_or_path: &str,
        seed: u64,
        carry: Option<&overmind_core::Carry>,
    ) -> Result<Game, Vec<Problem>> {
        let read = self.read_mission(id_or_path)?;
        let mut problems = read.problems;
        let Some(setup) = read.setup else {
            return Err(finish_problems(problems, &read.path));
        };
        let setup = match carry {
            Some(c) => setup.carrying(c),
            None => setup,
        };
        match setup.start_checked(&self.content, seed, read.checks) {
            Ok(mut st) if problems.is_empty() => {
                if let Some(c) = carry {
                    overmind_core::campaign::carry_into(&mut st, &setup, c, &self.content);
                }
                return Ok(Game::new(st, &setup.name, seed));
            }
            Ok(_) => {}
            Err(es) => problems.extend(es.into_iter().map(|e| {
                let (l, c) = setup_error_position(&read.text, &e);
                Problem::new(&read.path, l, c, e.to_string())
            })),
        }
        Err(finish_problems(problems, &read.path))
    }

    /// A mission file read as far as it goes, with every problem found on the way.
    fn read_mission(&self, id_or_path: &str) -> Result<MissionRead, Vec<Problem>> {
        let path = self.mission_path(id_or_path).map_err(|p| vec![p])?;
        let mut problems = Vec::new();
        let text = with_overlay(self.overlay.as_ref(), || {
            read_capped(
                &path,
                overmind_core::source::MAX_MISSION_BYTES,
                "a mission file",
                &mut problems,
            )
        })
        .ok_or(problems)?;
        let conv = |es: Vec<overmind_core::MissionError>| -> Vec<Problem> {
            es.into_iter()
                .map(|e| Problem::new(&e.path, e.line, e.column, e.message))
                .collect()
        };
        let (mission, errors) = Mission::parse_partial(&path, &text);
        // A bad map character reads as a plain square: what is in sight across it may not be.
        let map_ok = !errors
            .iter()
            .any(|e| e.kind == overmind_core::mission::ErrorKind::Map);
        let mut problems = conv(errors);
        // The parse placed every unit, so where they stand is not reported again.
        let mut checks = Checks {
            placements: false,
            pool: true,
            sight: map_ok,
        };
        let setup = match mission {
            None => None,
            Some(m) => match m.setup(&text, &self.rules) {
                Ok(s) => Some(s),
                Err(es) => {
                    problems.extend(conv(es.0));
                    // Its units alone can still be checked: the pool, rules and sight depend
                    // on keys that do not read.
                    checks.pool = false;
                    checks.sight = false;
                    units_only(&m, &self.rules)
                }
            },
        };
        if setup.is_none() && problems.is_empty() {
            problems.push(Problem::new(&path, 1, 1, "the mission does not read"));
        }
        Ok(MissionRead {
            path,
            text,
            setup,
            checks,
            problems,
        })
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
        self.reload_read(path).0
    }

    /// [`PackSet::reload`], with the text it read (`None` when the file is gone or was not
    /// read): what a save records so that the game replays with the same content.
    pub fn reload_read(&mut self, path: &Path) -> (Reload, Option<String>) {
        if Kind::of(path).is_none() {
            return (Reload::Ignored, None);
        }
        match overmind_core::source::read_text(path) {
            Ok(t) => {
                let r = self.reload_from(path, Some(&t));
                (r, Some(t))
            }
            // Gone (or a link to nothing): the last good definition stays.
            Err(e) if e.io == Some(std::io::ErrorKind::NotFound) => {
                (self.reload_from(path, None), None)
            }
            // There but unreadable, or not UTF-8: a broken file, not a deleted one.
            Err(e) => (
                Reload::Failed(Problem::new(path, e.line, e.column, e.message)),
                None,
            ),
        }
    }

    /// [`PackSet::reload`] of `path` with the text `text` (`None`: the file is gone), read
    /// from wherever: a save replays its recorded reloads through this.
    pub fn reload_from(&mut self, path: &Path, text: Option<&str>) -> Reload {
        let Some(kind) = Kind::of(path) else {
            return Reload::Ignored;
        };
        let existing = self
            .origins
            .iter()
            .find(|(_, p)| same_file(p, path))
            .map(|((k, id), _)| (*k, id.clone()));
        let Some(text) = text else {
            return match existing {
                Some((kind, id)) => Reload::Removed {
                    kind,
                    id,
                    path: path.to_path_buf(),
                },
                None => Reload::Ignored,
            };
        };
        let text = text.to_string();
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
                match self.host.load_alien_type(path, &text) {
                    Ok((t, hooks)) => {
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
                        let defs = hooks.map_or_else(Vec::new, |h| self.host.install_hooks(h));
                        self.set_triggers(Kind::Alien, &id, defs);
                        self.content.aliens.insert(id.clone(), t);
                        (id, true)
                    }
                    Err(e) => return Reload::Failed(script_problem(path, &text, &e)),
                }
            }
            Kind::Token => match self.reload_hooked::<TokenDef>(path, &text) {
                Ok(id) => (id, true),
                Err(failed) => return failed,
            },
            Kind::Ability => match self.reload_hooked::<AbilityDef>(path, &text) {
                Ok(id) => (id, true),
                Err(failed) => return failed,
            },
            Kind::Trigger => match self.reload_hooked::<RuleDef>(path, &text) {
                Ok(id) => (id, true),
                Err(failed) => return failed,
            },
            Kind::Card => match self.reload_hooked::<CardFile>(path, &text) {
                Ok(id) => (id, true),
                Err(failed) => return failed,
            },
            Kind::Hero => match hero_from_toml(path, &text) {
                Ok(h) => {
                    if let Some(p) = self.clash(kind, &h.id, path, &text) {
                        return Reload::Failed(p);
                    }
                    let id = h.id.clone();
                    self.content.heroes.insert(id.clone(), h);
                    (id, true)
                }
                Err(ps) => {
                    let first = ps.into_iter().next().unwrap_or_else(|| {
                        Problem::new(path, 1, 1, "the hero profile does not load")
                    });
                    return Reload::Failed(first);
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

/// A Lua definition that registers triggers (`tokens/`, `abilities/`, `triggers/`): how a
/// pack reads, refuses and installs one, the same way at load and at reload.
trait HookedDef: Sized {
    const KIND: Kind;
    const FOLDER: &'static str;
    fn check(host: &ScriptHost, path: &Path, text: &str) -> Result<Self, Vec<Problem>>;
    fn load(host: &ScriptHost, path: &Path, text: &str) -> Result<Self, ScriptError>;
    fn id(&self) -> String;
    /// Why the loaded packs refuse it; while the packs load (`loading`), what depends on
    /// packs not loaded yet waits for the end.
    fn refused(&self, _set: &PackSet, _text: &str, _loading: bool) -> Option<Problem> {
        None
    }
    /// Make it live: its entry and its triggers, in place of its last version's.
    fn install(self, set: &mut PackSet);
}

impl HookedDef for TokenDef {
    const KIND: Kind = Kind::Token;
    const FOLDER: &'static str = "tokens";
    fn check(host: &ScriptHost, path: &Path, text: &str) -> Result<Self, Vec<Problem>> {
        host.check_token(path, text)
    }
    fn load(host: &ScriptHost, path: &Path, text: &str) -> Result<Self, ScriptError> {
        host.load_token(path, text)
    }
    fn id(&self) -> String {
        self.kind.id.clone()
    }
    fn refused(&self, set: &PackSet, text: &str, _loading: bool) -> Option<Problem> {
        set.symbol_taken(self, text)
    }
    fn install(self, set: &mut PackSet) {
        let id = self.kind.id.clone();
        let defs = set.host.install_hooks(self.hooks);
        set.set_triggers(Kind::Token, &id, defs);
        set.content.tokens.insert(id, self.kind);
    }
}

impl HookedDef for AbilityDef {
    const KIND: Kind = Kind::Ability;
    const FOLDER: &'static str = "abilities";
    fn check(host: &ScriptHost, path: &Path, text: &str) -> Result<Self, Vec<Problem>> {
        host.check_ability(path, text)
    }
    fn load(host: &ScriptHost, path: &Path, text: &str) -> Result<Self, ScriptError> {
        host.load_ability(path, text)
    }
    fn id(&self) -> String {
        self.id.clone()
    }
    fn refused(&self, set: &PackSet, _text: &str, loading: bool) -> Option<Problem> {
        // A hero profile may come in a later pack: checked once all are loaded.
        if loading {
            None
        } else {
            set.unknown_hero(self)
        }
    }
    fn install(self, set: &mut PackSet) {
        let defs = set.host.install_hooks(self.hooks.clone());
        set.set_triggers(Kind::Ability, &self.id, defs);
        set.abilities.insert(self.id.clone(), self);
    }
}

impl HookedDef for RuleDef {
    const KIND: Kind = Kind::Trigger;
    const FOLDER: &'static str = "triggers";
    fn check(host: &ScriptHost, path: &Path, text: &str) -> Result<Self, Vec<Problem>> {
        host.check_trigger(path, text)
    }
    fn load(host: &ScriptHost, path: &Path, text: &str) -> Result<Self, ScriptError> {
        host.load_trigger(path, text)
    }
    fn id(&self) -> String {
        self.id.clone()
    }
    fn install(self, set: &mut PackSet) {
        let defs = set.host.install_hooks(self.hooks.clone());
        set.set_triggers(Kind::Trigger, &self.id, defs);
        set.game_rules.insert(self.id.clone(), self);
    }
}

impl HookedDef for CardFile {
    const KIND: Kind = Kind::Card;
    const FOLDER: &'static str = "cards";
    fn check(host: &ScriptHost, path: &Path, text: &str) -> Result<Self, Vec<Problem>> {
        host.check_card(path, text)
    }
    fn load(host: &ScriptHost, path: &Path, text: &str) -> Result<Self, ScriptError> {
        host.load_card(path, text)
    }
    fn id(&self) -> String {
        self.card.id.to_string()
    }
    fn install(self, set: &mut PackSet) {
        // In place: games hold only the card's id, so the next play and the next moment use
        // the new code (docs/RULES.md §15).
        let id = self.id();
        let (card, defs) = set.host.install_card(self);
        set.set_triggers(Kind::Card, &id, defs);
        set.content.cards.insert(id, card);
    }
}

/// A mission file as far as it reads: its setup (when its map and keys read; when only its
/// keys do not, a setup of its units alone), which of the setup's checks to report, and the
/// problems so far.
struct MissionRead {
    path: PathBuf,
    text: String,
    setup: Option<overmind_core::Setup>,
    checks: Checks,
    problems: Vec<Problem>,
}

/// The setup of a mission's heroes and Blips alone, leaving out the keys and the units whose
/// own fields do not read (their problems are reported): so the profiles and Blip contents of
/// the others are checked in the same run.
fn units_only(m: &Mission, rules: &Rules) -> Option<overmind_core::Setup> {
    let is_str = |p: &overmind_core::Placement, k: &str| {
        matches!(p.extra.get(k), None | Some(toml::Value::String(_)))
    };
    let mut bare = m.clone();
    bare.extra = toml::Table::new();
    bare.heroes
        .retain(|h| matches!(h.extra.get("profile"), Some(toml::Value::String(_))));
    bare.blips.retain(|b| {
        let size_ok = match b.extra.get("size") {
            None => true,
            Some(toml::Value::Integer(n)) => (1..=99).contains(n),
            Some(_) => false,
        };
        is_str(b, "holds") && is_str(b, "leader") && size_ok
    });
    bare.setup("", rules).ok()
}

/// Where a deployment problem is written: the name the problem quotes (a hero's profile),
/// looked for from the unit's id on; else the unit's id; else the file's start.
fn setup_error_position(text: &str, e: &overmind_core::SetupError) -> (usize, usize) {
    let quoted = |m: &str| {
        m.split('"')
            .nth(1)
            .filter(|q| !q.is_empty())
            .map(|q| format!("\"{q}\""))
    };
    let shown;
    let (from, message) = match e {
        overmind_core::SetupError::Unit { what, id, message }
        | overmind_core::SetupError::Field {
            what, id, message, ..
        } => {
            match text
                .find(&format!("\"{id}\""))
                .or_else(|| laid_token(text, what, id))
            {
                Some(at) => (at, message),
                None => return (1, 1),
            }
        }
        overmind_core::SetupError::Other(m) => (0, m),
        overmind_core::SetupError::Card { .. } => {
            shown = e.to_string();
            (0, &shown)
        }
    };
    let at = quoted(message)
        .and_then(|q| text.get(from..).and_then(|t| t.find(&q)))
        .map_or(from, |i| from + i);
    overmind_core::source::line_col(text, at)
}

/// Where the `[[tokens]]` entry a token id without an `id` of its own names starts: the mission
/// numbers those `t1`, `t2`, ... in file order.
fn laid_token(text: &str, what: &str, id: &str) -> Option<usize> {
    let n: usize = id.strip_prefix('t')?.parse().ok()?;
    if what != "token" || n == 0 {
        return None;
    }
    text.match_indices("[[tokens]]")
        .filter(|(at, _)| {
            text[..*at]
                .rsplit('\n')
                .next()
                .is_some_and(|l| l.trim().is_empty())
        })
        .nth(n - 1)
        .map(|(at, _)| at)
}

/// A file's problems in file order, at most [`crate::problem::cap_per_file`] of them.
fn finish_problems(mut problems: Vec<Problem>, path: &Path) -> Vec<Problem> {
    problems.sort_by_key(|p| (p.path != path, p.line, p.column));
    crate::problem::cap_per_file(problems)
}

/// The ids a content file may define: its file stem, and what its `id = "..."` says.
fn declared_ids(stem: &str, text: &str) -> Vec<String> {
    let mut ids = vec![stem.to_string()];
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("id") else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        let value = value.trim_start();
        let Some(quote) = value.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        if let Some(id) = value[1..].split(quote).next() {
            if !id.is_empty() && !ids.iter().any(|i| i == id) {
                ids.push(id.to_string());
            }
        }
    }
    ids
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b || (a.canonicalize().ok().is_some() && a.canonicalize().ok() == b.canonicalize().ok())
}

/// Where field `key` of the definition written on line `def_line` is (of `item` in it, when
/// given), as [`crate::api::shape`] places a field's problems.
fn field_position(text: &str, def_line: u32, key: &str, item: Option<&str>) -> (usize, usize) {
    let mut at = crate::api::shape::Invalid::new(vec![key.to_string()], "");
    at.item = item.map(str::to_string);
    crate::api::shape::position(text, def_line, &at)
}

/// 1-based position of the first occurrence of `needle`, or 1:1.
fn find_text(text: &str, needle: &str) -> (usize, usize) {
    match text.find(needle) {
        Some(i) => overmind_core::source::line_col(text, i),
        None => (1, 1),
    }
}
