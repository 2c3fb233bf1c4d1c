//! What a save records of the content its game was played with (save version 2): a
//! fingerprint of every file the packs loaded at the start, the text of each file reloaded
//! during the game, and the start text of every file that changed on disk since; and the packs
//! that replay it exactly from those texts, reloading what was reloaded before the record it
//! was reloaded before.

use crate::error::CliError;
use crate::packs::{self, PackSet};
use crate::save::{Fnv, Save};
use overmind_scripting::pack::{content_files, Overlay};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Most files a save fingerprints, and most reloads it records.
pub const MAX_CONTENT_FILES: usize = 10_000;

/// A file of the content: which pack (its index in the save's `packs`; `None` for a mission
/// file outside every pack, whose `path` is then absolute) and its path inside the pack.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileRef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pack: Option<usize>,
    pub path: PathBuf,
}

/// A file as the game began with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartFile {
    pub file: FileRef,
    /// FNV-1a 64 of its text, hex.
    pub hash: String,
}

/// A reload during the game: before record `before` (0-based; the number of records played
/// when it happened), `file` became the text of `hash` (`None`: it was deleted, and its last
/// good definition stayed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedReload {
    pub before: usize,
    pub file: FileRef,
    pub hash: Option<String>,
}

/// The content record of a save.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedContent {
    /// Every file loaded when the game began, with its hash.
    pub files: Vec<StartFile>,
    /// Every reload, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reloads: Vec<SavedReload>,
    /// The texts the save carries, by hash: each reload's, and the start text of each file
    /// that was reloaded or changed on disk before the save was written.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub texts: BTreeMap<String, String>,
}

impl SavedContent {
    /// What is wrong with the record, if anything: too many files, reloads or texts; a file
    /// of a pack the save does not name, or whose path leaves its pack; a reload after the
    /// last record, or out of order; a reload's text missing.
    #[must_use]
    pub fn problem(&self, packs: usize, records: usize) -> Option<String> {
        let n = self
            .files
            .len()
            .max(self.reloads.len())
            .max(self.texts.len());
        if n > MAX_CONTENT_FILES {
            return Some(format!(
                "content: at most {MAX_CONTENT_FILES} files, reloads and texts each: this one \
                 has {n}"
            ));
        }
        let files = self.files.iter().map(|f| &f.file);
        for f in files.chain(self.reloads.iter().map(|r| &r.file)) {
            let inside = f
                .path
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            match f.pack {
                Some(i) if i >= packs => {
                    return Some(format!(
                        "content: {} is in pack {}, but the save names {packs}",
                        f.path.display(),
                        i + 1
                    ))
                }
                Some(_) if !inside => {
                    return Some(format!(
                        "content: {}: expected a path inside its pack",
                        f.path.display()
                    ))
                }
                None if !f.path.is_absolute() => {
                    return Some(format!(
                        "content: {}: a file outside the packs is named by its absolute path",
                        f.path.display()
                    ))
                }
                _ => {}
            }
        }
        let mut last = 0;
        for r in &self.reloads {
            if r.before < last || r.before > records {
                return Some(format!(
                    "content: a reload before record {} is out of order (records: {records})",
                    r.before + 1
                ));
            }
            last = r.before;
            if let Some(h) = &r.hash {
                if !self.texts.contains_key(h) {
                    return Some(format!(
                        "content: the reload of {} names text {h}, which the save does not hold",
                        r.file.path.display()
                    ));
                }
            }
        }
        None
    }
}

/// FNV-1a 64 of a text, hex.
#[must_use]
pub fn text_hash(text: &str) -> String {
    let mut h = Fnv::default();
    h.write(text.as_bytes());
    h.hex()
}

/// What a session keeps to write a save's content record: the texts the game began with and
/// the reloads since.
#[derive(Clone, Debug, Default)]
pub struct ContentLog {
    /// Pack directories, as the save names them.
    dirs: Vec<PathBuf>,
    /// Every file loaded at the start (absolute), with its text then.
    start: BTreeMap<PathBuf, String>,
    /// (records played, file, its new text) for each reload that changed the content.
    reloads: Vec<(usize, PathBuf, Option<String>)>,
}

impl ContentLog {
    /// The log of a resumed game: its start texts and reloads as `save` records them (the
    /// start text from the save where it holds one, else from the disk), or for a save
    /// without a content record, the files as they are now.
    #[must_use]
    pub fn resumed(save: &Save, dirs: &[PathBuf], mission: Option<&Path>) -> ContentLog {
        let Some(c) = &save.content else {
            return ContentLog::begin(dirs, mission);
        };
        let abs = |f: &FileRef| match f.pack {
            None => Some(f.path.clone()),
            Some(i) => dirs.get(i).map(|d| d.join(&f.path)),
        };
        let mut start = BTreeMap::new();
        for f in &c.files {
            let Some(path) = abs(&f.file) else { continue };
            let text = c
                .texts
                .get(&f.hash)
                .cloned()
                .or_else(|| overmind_core::source::read_text(&path).ok());
            if let Some(t) = text {
                start.insert(path, t);
            }
        }
        let reloads = c
            .reloads
            .iter()
            .filter_map(|r| {
                let path = abs(&r.file)?;
                let text = r.hash.as_ref().and_then(|h| c.texts.get(h).cloned());
                Some((r.before, path, text))
            })
            .collect();
        ContentLog {
            dirs: dirs.to_vec(),
            start,
            reloads,
        }
    }

    /// The texts of every content file of `dirs` now, and of the mission file if it lies
    /// outside them: call it when the packs are loaded for a new game.
    #[must_use]
    pub fn begin(dirs: &[PathBuf], mission: Option<&Path>) -> ContentLog {
        let mut start = BTreeMap::new();
        let mut paths: Vec<PathBuf> = dirs.iter().flat_map(|d| content_files(d)).collect();
        if let Some(m) = mission {
            let m = packs::absolute(m);
            if !paths.contains(&m) {
                paths.push(m);
            }
        }
        for p in paths {
            if let Ok(t) = overmind_core::source::read_text(&p) {
                start.insert(p, t);
            }
        }
        ContentLog {
            dirs: dirs.to_vec(),
            start,
            reloads: Vec::new(),
        }
    }

    /// A reload made live after `records` records (with the text it loaded; `None`: deleted).
    pub fn reloaded(&mut self, records: usize, path: &Path, text: Option<String>) {
        self.reloads.push((records, packs::absolute(path), text));
    }

    fn file_ref(&self, path: &Path) -> FileRef {
        for (i, d) in self.dirs.iter().enumerate() {
            if let Ok(rel) = path.strip_prefix(d) {
                return FileRef {
                    pack: Some(i),
                    path: rel.to_path_buf(),
                };
            }
        }
        FileRef {
            pack: None,
            path: path.to_path_buf(),
        }
    }

    /// The record a save holds: the start files' hashes, the reloads with their texts, and the
    /// start text of each file reloaded or changed on disk by now.
    #[must_use]
    pub fn record(&self) -> SavedContent {
        let mut texts = BTreeMap::new();
        let reloaded: Vec<&PathBuf> = self.reloads.iter().map(|(_, p, _)| p).collect();
        let files = self
            .start
            .iter()
            .map(|(p, text)| {
                let hash = text_hash(text);
                let now = overmind_core::source::read_text(p).ok();
                if reloaded.contains(&p) || now.as_deref() != Some(text.as_str()) {
                    texts.insert(hash.clone(), text.clone());
                }
                StartFile {
                    file: self.file_ref(p),
                    hash,
                }
            })
            .collect();
        let reloads = self
            .reloads
            .iter()
            .map(|(before, p, text)| {
                let hash = text.as_ref().map(|t| {
                    let h = text_hash(t);
                    texts.insert(h.clone(), t.clone());
                    h
                });
                SavedReload {
                    before: *before,
                    file: self.file_ref(p),
                    hash,
                }
            })
            .collect();
        SavedContent {
            files,
            reloads,
            texts,
        }
    }
}

/// The packs a save's records are replayed with: as the game began, then reloaded as it was.
pub struct SavedPacks {
    pub set: PackSet,
    /// The pack directories loaded (the save's, made portable).
    pub dirs: Vec<PathBuf>,
    /// The reloads still to make: (before record, absolute file, text).
    pending: Vec<(usize, PathBuf, Option<String>)>,
    /// Each reload made: (before record, file as the save names it inside its pack).
    pub made: Vec<(usize, String)>,
}

impl SavedPacks {
    /// Load `save`'s packs as its game began: a version 1 save (or one with no content
    /// record) from the disk as it is; a version 2 save from the texts it records, each file
    /// the disk still holds unchanged read from it.
    ///
    /// # Errors
    /// Pack problems, or a file that changed since the save and whose text it does not hold.
    pub fn load(save: &Save) -> Result<SavedPacks, CliError> {
        let dirs: Vec<PathBuf> = crate::save::portable(&save.packs)
            .iter()
            .map(|d| packs::absolute(d))
            .collect();
        let Some(content) = &save.content else {
            return Ok(SavedPacks {
                set: packs::load(&dirs)?,
                dirs,
                pending: Vec::new(),
                made: Vec::new(),
            });
        };
        let abs = |f: &FileRef| -> Result<PathBuf, CliError> {
            match f.pack {
                None => Ok(f.path.clone()),
                Some(i) => dirs.get(i).map(|d| d.join(&f.path)).ok_or_else(|| {
                    CliError::Failed(format!(
                        "the save's content names pack {} of {}",
                        i + 1,
                        dirs.len()
                    ))
                }),
            }
        };
        let text_of = |hash: &str, what: &Path| -> Result<String, CliError> {
            content.texts.get(hash).cloned().ok_or_else(|| {
                CliError::Failed(format!(
                    "{} changed since the game was saved, and the save does not hold the text \
                     it was played with",
                    what.display()
                ))
            })
        };
        let mut overlay = BTreeMap::new();
        let mut known = Vec::new();
        for f in &content.files {
            let path = abs(&f.file)?;
            let now = overmind_core::source::read_text(&path).ok();
            if now.as_deref().map(text_hash).as_deref() != Some(f.hash.as_str()) {
                overlay.insert(path.clone(), Some(text_of(&f.hash, &path)?));
            }
            known.push(path);
        }
        // A file added since the game began was not loaded then.
        for d in &dirs {
            for f in content_files(d) {
                if !known.contains(&f) {
                    overlay.insert(f, None);
                }
            }
        }
        let set = PackSet::load_with(&dirs, Overlay(overlay)).map_err(packs::problems)?;
        let mut pending = Vec::new();
        for r in &content.reloads {
            let path = abs(&r.file)?;
            let text = match &r.hash {
                Some(h) => Some(text_of(h, &path)?),
                None => None,
            };
            pending.push((r.before, path, text));
        }
        Ok(SavedPacks {
            set,
            dirs,
            pending,
            made: Vec::new(),
        })
    }

    /// Make the reloads recorded before record `i` (or, with `i` past the last record, every
    /// one left).
    pub fn before(&mut self, i: usize) {
        while self.pending.first().is_some_and(|(b, _, _)| *b <= i) {
            let (b, path, text) = self.pending.remove(0);
            self.set.reload_from(&path, text.as_deref());
            let shown = self
                .dirs
                .iter()
                .find_map(|d| path.strip_prefix(d).ok())
                .unwrap_or(&path)
                .display()
                .to_string();
            self.made.push((b, shown));
        }
    }
}
