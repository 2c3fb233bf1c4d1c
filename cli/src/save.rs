//! Saved games: the mission, the packs, the seed and every record (action and answers), with
//! hashes of what each record did and of the end, so `overmind replay` can tell whether a
//! fresh process ends identically. Written atomically; a bad file is reported as
//! `path:line:column: message`.

use crate::error::CliError;
use crate::json_file;
use overmind_core::decision::Answer;
use overmind_core::{Action, Content, Controllers, Event, Game, Outcome, Scripted, Side};
use serde::{Deserialize, Serialize};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The save format this build writes. Version 2 adds `content` (docs/PROTOCOL.md); this build
/// reads version 1 too.
pub const VERSION: u32 = 2;

/// The oldest save format this build reads.
pub const OLDEST_VERSION: u32 = 1;

/// Most bytes of a save file. A long game's save is a few hundred KiB (each record a few
/// hundred bytes; a game is at most `MAX_ROUNDS` rounds); a longer file is refused before
/// it is read.
pub const MAX_SAVE_BYTES: u64 = 64 * 1024 * 1024;

/// Most packs a save names (the base pack and its expansions); each at most once. Both are
/// checked before any pack is loaded.
pub const MAX_SAVE_PACKS: usize = 64;

/// Most records a save holds: more than any game's actions (the AI plays at most 100,000 in
/// one game, and a game is at most `MAX_ROUNDS` rounds).
pub const MAX_SAVE_RECORDS: usize = 200_000;

/// Most answers one record holds (one per decision its action asked for).
pub const MAX_RECORD_ANSWERS: usize = 10_000;

/// A saved game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Save {
    pub version: u32,
    /// The mission as given to `play`: a pack's mission id, or an absolute path.
    pub mission: String,
    /// Pack directories in load order, the base pack first (absolute).
    pub packs: Vec<PathBuf>,
    pub seed: u64,
    /// The author tools were on (`play --dev`): the records may hold `perform` and `spawn`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dev: bool,
    /// Every accepted action, in order.
    pub records: Vec<SavedRecord>,
    /// How the game stood when saved.
    #[serde(rename = "final")]
    pub end: Final,
    /// The content the records were resolved with (version 2): replays use it whatever has
    /// changed on disk since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<crate::saved_content::SavedContent>,
    /// What a campaign carried into this mission (docs/RULES.md §16): the game starts with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carry: Option<overmind_core::Carry>,
}

/// One record with the hash of the events it produced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedRecord {
    pub side: Side,
    pub action: Action,
    #[serde(default)]
    pub answers: Vec<Answer>,
    /// FNV-1a 64 of the record's events as JSON lines, hex.
    pub events_hash: String,
}

/// The end of the saved game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Final {
    /// Events in the whole log.
    pub events: usize,
    /// FNV-1a 64 of the whole log as JSON lines, hex.
    pub log_hash: String,
    /// FNV-1a 64 of the final state as JSON, hex.
    pub state_hash: String,
    pub round: u32,
    #[serde(default)]
    pub outcome: Option<Outcome>,
}

/// FNV-1a, 64 bits: a stable hash (std's hashers may change between releases).
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    #[must_use]
    pub fn hex(self) -> String {
        format!("{:016x}", self.0)
    }
}

/// The hash of events as JSON lines.
#[must_use]
pub fn hash_events(events: &[Event]) -> String {
    let mut h = Fnv::default();
    for e in events {
        // Serialising an event cannot fail (plain data, string keys).
        if let Ok(bytes) = serde_json::to_vec(e) {
            h.write(&bytes);
        }
        h.write(b"\n");
    }
    h.hex()
}

/// The hash of a value as JSON.
#[must_use]
pub fn hash_json<T: Serialize>(v: &T) -> String {
    let mut h = Fnv::default();
    if let Ok(bytes) = serde_json::to_vec(v) {
        h.write(&bytes);
    }
    h.hex()
}

impl Final {
    #[must_use]
    pub fn of(game: &Game) -> Final {
        Final {
            events: game.log.len(),
            log_hash: hash_events(&game.log),
            state_hash: hash_json(&game.state),
            round: game.state.round,
            outcome: game.state.outcome.clone(),
        }
    }
}

impl Save {
    /// Write atomically, and only ever a regular file: `path` must be missing, a regular file,
    /// or a symbolic link to one (the file it leads to is replaced); anything else (a directory,
    /// a FIFO, a device, a socket, a link to one of those or to nothing) is refused. The save
    /// goes to a temporary file of a unique name in the same directory, is synced, and is
    /// renamed over the file: killed at any moment, the file holds the old save or the new one,
    /// complete.
    ///
    /// # Errors
    /// The file cannot be written, or is not a regular file; the message names it.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let mut text =
            serde_json::to_string_pretty(self).map_err(|e| format!("{}: {e}", path.display()))?;
        text.push('\n');
        write_regular(path, &text, "cannot save to", "a save")
    }

    /// Read and check a save.
    ///
    /// # Errors
    /// `path:line:column: message` for a file that is not a save this build reads (a file
    /// that is not UTF-8 at its first bad byte).
    pub fn read(path: &Path) -> Result<Save, CliError> {
        let text = json_file::read_text(path, MAX_SAVE_BYTES, "a save")?;
        Save::parse(path, &text)
    }

    /// Parse a save's text.
    ///
    /// # Errors
    /// `path:line:column: message`.
    pub fn parse(path: &Path, text: &str) -> Result<Save, CliError> {
        // The version first, so a newer format is named as such rather than as a bad field.
        let value: serde_json::Value = json_file::parse(path, text)?;
        let at = json_file::position_of(text, "\"version\"");
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if (u64::from(OLDEST_VERSION)..=u64::from(VERSION)).contains(&v) => {}
            Some(v) => {
                return Err(json_file::problem(
                    path,
                    at,
                    &format!(
                        "save version {v} is not supported (this overmind reads versions \
                         {OLDEST_VERSION} to {VERSION})"
                    ),
                ));
            }
            None => {
                return Err(json_file::problem(
                    path,
                    at,
                    "not an overmind save: no number `version`",
                ))
            }
        }
        let save: Save = json_file::parse(path, text)?;
        save.check_lists(path, text)?;
        Ok(save)
    }

    /// Each pack named once, and the lists' caps: checked before anything is loaded, so that a
    /// save naming a pack thousands of times is refused at once, at the second.
    fn check_lists(&self, path: &Path, text: &str) -> Result<(), CliError> {
        if overmind_core::source::has_control(&self.mission) {
            return Err(json_file::problem(
                path,
                json_file::position_of(text, "\"mission\""),
                "the mission holds a control character: expected a mission id or a path of \
                 printable text",
            ));
        }
        // The `i`-th entry of the list `key` (or the list itself) is wrong: `message` there.
        let at_item = |key: &str, i: usize, message: &str| -> Result<(), CliError> {
            let at = json_file::array_items(text, key)
                .get(i)
                .copied()
                .unwrap_or_else(|| json_file::position_of(text, &format!("\"{key}\"")));
            Err(json_file::problem(path, at, message))
        };
        if let Some(i) = self
            .packs
            .iter()
            .position(|p| overmind_core::source::has_control(&p.to_string_lossy()))
        {
            return at_item(
                "packs",
                i,
                &format!(
                    "pack {} holds a control character: expected a path of printable text",
                    i + 1
                ),
            );
        }
        let mut seen: std::collections::HashMap<&Path, usize> =
            std::collections::HashMap::with_capacity(self.packs.len());
        for (i, p) in self.packs.iter().enumerate() {
            if let Some(first) = seen.get(p.as_path()) {
                return at_item(
                    "packs",
                    i,
                    &format!(
                        "pack {:?} is named twice (first as pack {}): a save names each pack once",
                        p.display().to_string(),
                        first + 1
                    ),
                );
            }
            seen.insert(p, i);
        }
        if self.packs.len() > MAX_SAVE_PACKS {
            return at_item(
                "packs",
                MAX_SAVE_PACKS,
                &format!(
                    "a save names at most {MAX_SAVE_PACKS} packs: this one names {}",
                    self.packs.len()
                ),
            );
        }
        if self.records.len() > MAX_SAVE_RECORDS {
            return at_item(
                "records",
                MAX_SAVE_RECORDS,
                &format!(
                    "a save holds at most {MAX_SAVE_RECORDS} records: this one holds {}",
                    self.records.len()
                ),
            );
        }
        if let Some((i, r)) = self
            .records
            .iter()
            .enumerate()
            .find(|(_, r)| r.answers.len() > MAX_RECORD_ANSWERS)
        {
            return at_item(
                "records",
                i,
                &format!(
                    "record {} holds {} answers: a record holds at most {MAX_RECORD_ANSWERS}",
                    i + 1,
                    r.answers.len()
                ),
            );
        }
        if let Some(c) = &self.content {
            if let Some(m) = c.problem(self.packs.len(), self.records.len()) {
                return Err(json_file::problem(
                    path,
                    json_file::position_of(text, "\"content\""),
                    &m,
                ));
            }
        }
        Ok(())
    }
}

/// The file a save to `path` replaces: `path` itself when it is missing or a regular file, the
/// regular file a symbolic link leads to; anything else is refused, saying what it is.
/// Write `text` to `path` atomically, and only ever a regular file (see [`Save::write`]).
/// Messages start with `cannot` (e.g. "cannot save to PATH") and call the file `kind` (e.g. "a
/// save") when they refuse what stands there.
///
/// # Errors
/// The file cannot be written, or is not a regular file; the message names it.
pub fn write_regular(path: &Path, text: &str, cannot: &str, kind: &str) -> Result<(), String> {
    let refuse = |why: String| format!("{cannot} {}: {why}", path.display());
    let target = regular_target(path, kind).map_err(refuse)?;
    let Some(name) = target.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Err(refuse("expected a file name".into()));
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let fail = |e: std::io::Error| refuse(e.to_string());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(fail)?;
    tmp.write_all(text.as_bytes()).map_err(fail)?;
    // Writing over an older file keeps its permissions.
    if let Ok(m) = std::fs::metadata(&target) {
        let _ = tmp.as_file().set_permissions(m.permissions());
    }
    tmp.as_file().sync_all().map_err(fail)?;
    // Looked at again just before the rename, in case something else was put there.
    if regular_target(path, kind).map_err(refuse)? != target {
        return Err(refuse("it changed while it was being written".into()));
    }
    tmp.persist(&target).map_err(|e| fail(e.error))?;
    // The rename itself is durable once the directory is synced (where that is possible).
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

fn regular_target(path: &Path, kind: &str) -> Result<PathBuf, String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(path.to_path_buf()),
        Err(e) => Err(e.to_string()),
        Ok(m) if m.file_type().is_file() => Ok(path.to_path_buf()),
        Ok(m) if m.file_type().is_symlink() => match std::fs::metadata(path) {
            Ok(t) if t.is_file() => std::fs::canonicalize(path).map_err(|e| e.to_string()),
            Ok(t) => Err(format!(
                "it is a symbolic link to {}, not to a regular file",
                overmind_core::source::file_kind(&t.file_type())
            )),
            Err(e) => Err(format!("it is a symbolic link that leads nowhere ({e})")),
        },
        Ok(m) => Err(format!(
            "it is {}: {kind} only replaces a regular file",
            overmind_core::source::file_kind(&m.file_type())
        )),
    }
}

impl SavedRecord {
    /// Controllers that answer this record's decisions as they were answered.
    #[must_use]
    pub fn controllers(&self) -> Controllers {
        let answers = |who: Side| -> Vec<usize> {
            self.answers
                .iter()
                .filter(|a| a.who == who)
                .map(|a| a.index)
                .collect()
        };
        Controllers::new(
            Box::new(Scripted::new(answers(Side::Heroes))),
            Box::new(Scripted::new(answers(Side::Overmind))),
        )
    }

    /// How messages name the record at index `i`: `action 3 (heroes: move alpha 3,1)`.
    #[must_use]
    pub fn label(&self, i: usize) -> String {
        format!(
            "action {} ({}: {})",
            i + 1,
            self.side.name(),
            crate::command::text_of(&self.action)
        )
    }
}

/// Apply every saved record to `game` (started from the save's mission and seed), answering
/// each decision as recorded; the first difference, if any. `marks` gets each record's log
/// length before it and the hash of its events.
pub fn replay_into(
    game: &mut Game,
    save: &Save,
    packs: &mut crate::saved_content::SavedPacks,
    marks: &mut Vec<(usize, String)>,
) -> Option<String> {
    for (i, r) in save.records.iter().enumerate() {
        // The content as it was when this record was played (a hot reload before it).
        packs.before(i);
        let content: &Content = &packs.set.content;
        let mut ctl = r.controllers();
        let what = r.label(i);
        let before = game.log.len();
        match game.apply(r.action.clone(), content, &mut ctl) {
            Ok(events) => {
                let hash = hash_events(&events);
                if hash != r.events_hash {
                    return Some(format!("{what} no longer has the same outcome"));
                }
                marks.push((before, hash));
            }
            Err(e) => return Some(format!("{what} is now refused: {e}")),
        }
    }
    packs.before(usize::MAX);
    let now = Final::of(game);
    if now != save.end {
        return Some(format!(
            "the end differs: {} events (saved {}), round {} (saved {})",
            now.events, save.end.events, now.round, save.end.round
        ));
    }
    None
}

/// Saves name packs by absolute path; on another machine (or checkout) the base pack is found
/// where this host finds it, and a missing expansion is looked for by its folder name in the
/// current directory.
#[must_use]
pub fn portable(dirs: &[PathBuf]) -> Vec<PathBuf> {
    dirs.iter()
        .enumerate()
        .map(|(i, d)| {
            if d.join("pack.toml").is_file() {
                d.clone()
            } else if i == 0 {
                crate::packs::base_dir()
            } else {
                d.file_name().map_or_else(|| d.clone(), PathBuf::from)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(e: CliError) -> Vec<String> {
        e.lines()
    }

    #[test]
    fn bad_json_names_its_place() {
        let p = Path::new("g.json");
        let e = lines(Save::parse(p, "{\n  \"version\": 1,\n  \"seed\": x\n}").unwrap_err());
        assert!(e[0].starts_with("g.json:3:11: expected value"), "{e:?}");
    }

    #[test]
    fn other_versions_are_named() {
        let p = Path::new("g.json");
        let e = lines(Save::parse(p, "{\n  \"version\": 9\n}").unwrap_err());
        assert_eq!(
            e[0],
            "g.json:2:3: save version 9 is not supported (this overmind reads versions 1 to 2)"
        );
        let e = lines(Save::parse(p, "[]").unwrap_err());
        assert!(e[0].contains("no number `version`"), "{e:?}");
    }

    #[test]
    fn missing_fields_are_named() {
        let p = Path::new("g.json");
        let e = lines(Save::parse(p, "{\"version\": 1, \"mission\": \"demo\"}").unwrap_err());
        assert!(
            e[0].starts_with("g.json:1:") && e[0].contains("missing field"),
            "{e:?}"
        );
    }

    #[test]
    fn fnv_is_the_reference_function() {
        let mut h = Fnv::default();
        h.write(b"a");
        assert_eq!(h.hex(), "af63dc4c8601ec8c");
    }

    #[test]
    fn a_save_round_trips_and_writes_atomically() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("game.json");
        let s = Save {
            version: VERSION,
            mission: "demo".into(),
            packs: vec![PathBuf::from("/packs/base")],
            seed: 7,
            dev: false,
            records: vec![SavedRecord {
                side: Side::Heroes,
                action: Action::End,
                answers: vec![],
                events_hash: "0".into(),
            }],
            end: Final {
                events: 3,
                log_hash: "1".into(),
                state_hash: "2".into(),
                round: 1,
                outcome: None,
            },
            content: None,
            carry: None,
        };
        s.write(&path).expect("write");
        s.write(&path).expect("overwrite");
        assert_eq!(Save::read(&path).expect("read"), s);
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
    }
}
