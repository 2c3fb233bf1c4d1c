//! Watches pack folders so that scripts edited during a game go live at once (DESIGN.md "Hot reload").
//!
//! A [`Watcher`] turns file-system events into a sorted list of changed content files
//! (`.lua` and `.toml`), after a debounce so that one save is one change; [`apply`] hands them to
//! [`PackSet::reload`], which compiles each in a fresh environment and keeps the last good
//! definition when the new one is broken or gone.
//!
//! What an editor's save looks like on disk varies: written in place; written to a temp file
//! that is renamed over the original; the original renamed to a backup (`x.lua~`) and written
//! anew. Every one of them is reported as the original path, and editor debris (`*.swp`, `*~`,
//! `.#*`, vim's `4913` probe, anything hidden) is not reported at all. Reading a file — as a
//! reload does — is not a change, so a reload never triggers another.

use crate::pack::{Kind, PackSet, Reload};
use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// How long after a file's last change it is reported, unless the host asks for another value.
///
/// One save's events come within a few milliseconds, so any debounce takes a save as one
/// change; the debouncer looks for expired events every eighth of the debounce, so a change
/// is live between `debounce` and `9/8 debounce` after the write, plus the reload itself
/// (well under a millisecond for a behaviour). 80 ms keeps the worst case within the 100 ms
/// DESIGN.md aims for (docs/BENCHMARKS.md, "Hot reload").
pub const DEFAULT_DEBOUNCE: Duration = Duration::from_millis(80);

/// The shortest debounce accepted; shorter values are raised to it.
pub const MIN_DEBOUNCE: Duration = Duration::from_millis(5);

/// Deepest folder level looked into when a whole folder appears or the watcher asks for a
/// rescan (packs are two levels deep; this only stops runaway trees).
const MAX_DEPTH: usize = 8;

/// A problem watching a pack directory.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WatchError {
    /// The directory could not be watched: it is missing or unreadable, or the OS limit on
    /// watches is reached.
    #[error("cannot watch {}: {}", dir.display(), describe(error))]
    Watch {
        /// The pack directory.
        dir: PathBuf,
        /// What notify said.
        error: notify::Error,
    },
    /// The watcher reported a problem while running; changes may have been missed.
    #[error("watching {}: {}", dir.display(), describe(error))]
    Event {
        /// The pack directory.
        dir: PathBuf,
        /// What notify said.
        error: notify::Error,
    },
    /// The watcher's thread is gone; later edits will not be seen until the host restarts.
    #[error("watching {}: the file watcher stopped; restart to pick up further edits", dir.display())]
    Stopped {
        /// The (first) pack directory.
        dir: PathBuf,
    },
}

impl WatchError {
    /// The pack directory the problem is about.
    #[must_use]
    pub fn dir(&self) -> &Path {
        match self {
            WatchError::Watch { dir, .. }
            | WatchError::Event { dir, .. }
            | WatchError::Stopped { dir } => dir,
        }
    }
}

/// notify's messages, made to read well after "cannot watch DIR: ".
fn describe(e: &notify::Error) -> String {
    match &e.kind {
        notify::ErrorKind::PathNotFound => "no such directory".to_string(),
        notify::ErrorKind::MaxFilesWatch => {
            "the OS limit on watched files is reached (on Linux, raise fs.inotify.max_user_watches)"
                .to_string()
        }
        notify::ErrorKind::Io(io) => io.to_string(),
        notify::ErrorKind::Generic(s) => s.clone(),
        _ => e.to_string(),
    }
}

/// One watched pack directory, with the other spellings events may use for it (notify reports
/// absolute paths, and macOS's FSEvents canonical ones).
struct Root {
    dir: PathBuf,
    spellings: Vec<PathBuf>,
}

impl Root {
    fn new(dir: &Path) -> Root {
        let mut spellings = vec![dir.to_path_buf()];
        if let Ok(abs) = std::path::absolute(dir) {
            spellings.push(abs);
        }
        if let Ok(canon) = dir.canonicalize() {
            spellings.push(canon);
        }
        spellings.dedup();
        Root {
            dir: dir.to_path_buf(),
            spellings,
        }
    }
}

/// What [`Watcher::poll`] carries from one call to the next.
#[derive(Default)]
struct State {
    /// Content files known to exist, so that removing or renaming a whole folder reports the
    /// files that went with it.
    known: BTreeSet<PathBuf>,
    /// When each file was last reported.
    reported: BTreeMap<PathBuf, Instant>,
    errors: Vec<WatchError>,
    stopped: bool,
}

/// Watches pack directories recursively and reports changed content files, debounced.
///
/// Paths are reported under the directories as they were given (so they match the paths
/// [`PackSet`] loaded), deduplicated and sorted. A deleted file is reported too;
/// [`PackSet::reload`] turns it into [`Reload::Removed`]. Create the watcher before
/// [`PackSet::load`] to miss no edit made while the packs load.
pub struct Watcher {
    /// Kept for its `Drop`, which stops the watching thread.
    _debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    events: Receiver<DebounceEventResult>,
    roots: Vec<Root>,
    debounce: Duration,
    state: Cell<State>,
}

impl fmt::Debug for Watcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Watcher")
            .field("dirs", &self.dirs())
            .field("debounce", &self.debounce)
            .finish_non_exhaustive()
    }
}

impl Watcher {
    /// Watch `dirs` (recursively) with the [`DEFAULT_DEBOUNCE`].
    ///
    /// # Errors
    /// A directory cannot be watched (the error names it).
    pub fn new(dirs: &[PathBuf]) -> Result<Watcher, WatchError> {
        Watcher::with_debounce(dirs, DEFAULT_DEBOUNCE)
    }

    /// Watch `dirs` (recursively); a change is reported `debounce` after it happened (at most
    /// an eighth more), so the events of one save come as one report. `debounce` is raised to
    /// [`MIN_DEBOUNCE`] if shorter.
    ///
    /// # Errors
    /// A directory cannot be watched (the error names it).
    pub fn with_debounce(dirs: &[PathBuf], debounce: Duration) -> Result<Watcher, WatchError> {
        let debounce = debounce.max(MIN_DEBOUNCE);
        // The debouncer lets events go at its first tick after they are `debounce` old.
        let tick = (debounce / 8).clamp(Duration::from_millis(1), Duration::from_millis(25));
        let (tx, events) = std::sync::mpsc::channel();
        let first = dirs.first().cloned().unwrap_or_default();
        let mut debouncer = new_debouncer(debounce, Some(tick), tx)
            .map_err(|error| WatchError::Watch { dir: first, error })?;
        for dir in dirs {
            debouncer
                .watch(dir, RecursiveMode::Recursive)
                .map_err(|error| WatchError::Watch {
                    dir: dir.clone(),
                    error,
                })?;
        }
        let roots: Vec<Root> = dirs.iter().map(|d| Root::new(d)).collect();
        let mut known = BTreeSet::new();
        for r in &roots {
            walk(&r.dir, &r.dir, 0, &mut known);
        }
        Ok(Watcher {
            _debouncer: debouncer,
            events,
            roots,
            debounce,
            state: Cell::new(State {
                known,
                ..State::default()
            }),
        })
    }

    /// The watched directories, as given.
    #[must_use]
    pub fn dirs(&self) -> Vec<PathBuf> {
        self.roots.iter().map(|r| r.dir.clone()).collect()
    }

    /// The debounce in force.
    #[must_use]
    pub fn debounce(&self) -> Duration {
        self.debounce
    }

    /// Content files changed, added or deleted since the last call, without waiting.
    #[must_use]
    pub fn poll(&self) -> Vec<PathBuf> {
        let mut state = self.state.take();
        let mut out = BTreeSet::new();
        self.drain(&mut state, &mut out);
        self.finish(state, out)
    }

    /// Like [`poll`](Self::poll), but waits up to `timeout` for a change, returning as soon as
    /// one is reported (an empty list means none came in time).
    #[must_use]
    pub fn wait(&self, timeout: Duration) -> Vec<PathBuf> {
        let deadline = Instant::now().checked_add(timeout);
        let mut state = self.state.take();
        let mut out = BTreeSet::new();
        loop {
            self.drain(&mut state, &mut out);
            if !out.is_empty() {
                break;
            }
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if left == Some(Duration::ZERO) {
                break;
            }
            if state.stopped {
                // Nothing will come: still block as asked, so an idle loop does not spin.
                std::thread::sleep(left.unwrap_or(Duration::from_secs(1)));
                break;
            }
            let got = match left {
                Some(left) => self.events.recv_timeout(left),
                None => self
                    .events
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match got {
                Ok(batch) => self.take(batch, &mut state, &mut out),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => self.stop(&mut state),
            }
        }
        self.finish(state, out)
    }

    /// Problems the watcher met since the last call (e.g. a directory it could no longer
    /// read). They never stop [`poll`](Self::poll); the host shows them as warnings.
    #[must_use]
    pub fn errors(&self) -> Vec<WatchError> {
        let mut state = self.state.take();
        let errors = std::mem::take(&mut state.errors);
        self.state.set(state);
        errors
    }

    fn drain(&self, state: &mut State, out: &mut BTreeSet<PathBuf>) {
        loop {
            match self.events.try_recv() {
                Ok(batch) => self.take(batch, state, out),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.stop(state);
                    break;
                }
            }
        }
    }

    fn stop(&self, state: &mut State) {
        if !state.stopped {
            state.stopped = true;
            let dir = self
                .roots
                .first()
                .map(|r| r.dir.clone())
                .unwrap_or_default();
            state.errors.push(WatchError::Stopped { dir });
        }
    }

    /// One debounced batch into `out`.
    fn take(&self, batch: DebounceEventResult, state: &mut State, out: &mut BTreeSet<PathBuf>) {
        let events = match batch {
            Ok(events) => events,
            Err(errors) => {
                for error in errors {
                    let dir = error
                        .paths
                        .first()
                        .and_then(|p| self.root_of(p))
                        .or_else(|| self.roots.first())
                        .map(|r| r.dir.clone())
                        .unwrap_or_default();
                    state.errors.push(WatchError::Event { dir, error });
                }
                return;
            }
        };
        for event in events {
            if event.need_rescan() {
                // Events were lost (the OS queue overflowed): report everything there is.
                for r in &self.roots {
                    walk(&r.dir, &r.dir, 0, out);
                }
                continue;
            }
            match event.kind {
                // A write finished.
                EventKind::Access(AccessKind::Close(AccessMode::Write)) => {}
                // Opening and reading change nothing (and a reload reads the file).
                EventKind::Access(_) | EventKind::Other => continue,
                _ => {}
            }
            let mut found = BTreeSet::new();
            for p in &event.paths {
                let (path, root) = self.respell(p);
                let root_dir = root.map_or_else(|| path.clone(), |r| r.dir.clone());
                if is_content(&root_dir, &path) {
                    found.insert(path);
                } else if path.is_dir() {
                    // A folder created or moved in: its files are new.
                    walk(&root_dir, &path, 0, &mut found);
                } else if !path.exists() {
                    // A folder deleted or moved away: its files are gone.
                    found.extend(state.known.iter().filter(|k| k.starts_with(&path)).cloned());
                }
            }
            // The debouncer lets each event go once it is `debounce` old, so the events of one
            // save can straddle two of its ticks and come in two batches. An event older than
            // the file's last report changed nothing the caller has not reloaded since.
            found.retain(|p| state.reported.get(p).is_none_or(|r| event.time > *r));
            out.append(&mut found);
        }
    }

    /// Record what the reported files are now, and hand the state back.
    fn finish(&self, mut state: State, out: BTreeSet<PathBuf>) -> Vec<PathBuf> {
        let now = Instant::now();
        for p in &out {
            state.reported.insert(p.clone(), now);
            if p.is_file() {
                state.known.insert(p.clone());
            } else {
                state.known.remove(p);
            }
        }
        self.state.set(state);
        out.into_iter().collect()
    }

    /// The watched directory holding `p`: the longest spelling that prefixes it.
    fn root_of(&self, p: &Path) -> Option<&Root> {
        self.respell(p).1
    }

    /// `p` spelled under the directory as it was given, and that directory.
    fn respell(&self, p: &Path) -> (PathBuf, Option<&Root>) {
        let mut best: Option<(usize, &Root, PathBuf)> = None;
        for r in &self.roots {
            for s in &r.spellings {
                if let Ok(rest) = p.strip_prefix(s) {
                    let len = s.as_os_str().len();
                    if best.as_ref().is_none_or(|(l, ..)| len > *l) {
                        best = Some((len, r, rest.to_path_buf()));
                    }
                }
            }
        }
        match best {
            Some((_, r, rest)) if rest.as_os_str().is_empty() => (r.dir.clone(), Some(r)),
            Some((_, r, rest)) => (r.dir.join(rest), Some(r)),
            None => (p.to_path_buf(), None),
        }
    }
}

/// Whether `path` (under `root`) is a content file worth reloading: `.lua` or `.toml`, not an
/// editor's swap, backup or lock file, not in a hidden folder.
#[must_use]
pub fn is_content(root: &Path, path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let ext_ok = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("lua" | "toml")
    );
    let debris = name.starts_with(".#") // emacs lock
        || name.starts_with('#')        // emacs autosave
        || name.ends_with('~')          // emacs/vim backup
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name == "4913"; // vim's "can I write here" probe
    let rel = path.strip_prefix(root).unwrap_or(path);
    let hidden = rel.components().any(|c| {
        c.as_os_str()
            .to_str()
            .is_some_and(|s| s.starts_with('.') && s != "." && s != "..")
    });
    ext_ok && !debris && !hidden
}

/// Content files under `dir` into `out`.
fn walk(root: &Path, dir: &Path, depth: usize, out: &mut BTreeSet<PathBuf>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let hidden = e.file_name().to_str().is_none_or(|n| n.starts_with('.'));
        match e.file_type() {
            Ok(t) if t.is_dir() && !hidden => walk(root, &path, depth + 1, out),
            Ok(t) if t.is_file() && is_content(root, &path) => {
                out.insert(path);
            }
            _ => {}
        }
    }
}

/// Reload every changed file into `set`, dropping the files it does not reload
/// ([`Reload::Ignored`]). Behaviours go first, then alien types, heroes, token kinds,
/// abilities and triggers, so that a new alien type may use a behaviour added in the same
/// batch, and a new ability a hero profile.
pub fn apply(set: &mut PackSet, paths: &[PathBuf]) -> Vec<Reload> {
    apply_read(set, paths)
        .into_iter()
        .map(|(r, _, _)| r)
        .collect()
}

/// [`apply`], with each file's path and the text it read (`None`: gone, or not read).
pub fn apply_read(set: &mut PackSet, paths: &[PathBuf]) -> Vec<(Reload, PathBuf, Option<String>)> {
    let mut order: Vec<&PathBuf> = paths.iter().collect();
    order.sort_by_key(|p| {
        let kind = Kind::of(p);
        (kind.is_none(), kind, *p)
    });
    order
        .into_iter()
        .map(|p| {
            let (r, text) = set.reload_read(p);
            (r, p.clone(), text)
        })
        .filter(|(r, _, _)| *r != Reload::Ignored)
        .collect()
}
