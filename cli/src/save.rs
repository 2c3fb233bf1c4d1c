//! Saved games: the mission, the packs, the seed and every record (action and answers), with
//! hashes of what each record did and of the end, so `overmind replay` can tell whether a
//! fresh process ends identically. Written atomically; a bad file is reported as
//! `path:line:column: message`.

use crate::error::CliError;
use overmind_core::decision::Answer;
use overmind_core::{Action, Event, Game, Outcome, Side};
use serde::{Deserialize, Serialize};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The save format this build writes and reads.
pub const VERSION: u32 = 1;

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
    /// Every accepted action, in order.
    pub records: Vec<SavedRecord>,
    /// How the game stood when saved.
    #[serde(rename = "final")]
    pub end: Final,
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
    /// Write atomically: a temporary file in the same directory, then a rename over `path`.
    ///
    /// # Errors
    /// The file cannot be written; the message names it.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text =
            serde_json::to_string_pretty(self).map_err(|e| format!("{}: {e}", path.display()))?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let fail = |e: std::io::Error| format!("cannot save to {}: {e}", path.display());
        let mut tmp = tempfile::Builder::new()
            .prefix(".overmind-save")
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(fail)?;
        tmp.write_all(text.as_bytes()).map_err(fail)?;
        tmp.write_all(b"\n").map_err(fail)?;
        tmp.as_file().sync_all().map_err(fail)?;
        tmp.persist(path).map_err(|e| fail(e.error))?;
        Ok(())
    }

    /// Read and check a save.
    ///
    /// # Errors
    /// `path:line:column: message` for a file that is not a save this build reads.
    pub fn read(path: &Path) -> Result<Save, CliError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            CliError::Problems(vec![format!("{}: cannot read: {e}", path.display())])
        })?;
        Save::parse(path, &text)
    }

    /// Parse a save's text.
    ///
    /// # Errors
    /// `path:line:column: message`.
    pub fn parse(path: &Path, text: &str) -> Result<Save, CliError> {
        let at = |line: usize, column: usize, msg: String| {
            CliError::Problems(vec![format!("{}:{line}:{column}: {msg}", path.display())])
        };
        // The version first, so a newer format is named as such rather than as a bad field.
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| at(e.line(), e.column(), message(&e)))?;
        let (vl, vc) = position_of(text, "\"version\"");
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == u64::from(VERSION) => {}
            Some(v) => {
                return Err(at(
                    vl,
                    vc,
                    format!(
                        "save version {v} is not supported (this overmind reads version {VERSION})"
                    ),
                ));
            }
            None => {
                return Err(at(
                    vl,
                    vc,
                    "not an overmind save: no number `version`".to_string(),
                ))
            }
        }
        serde_json::from_str(text).map_err(|e| at(e.line(), e.column(), message(&e)))
    }
}

/// serde_json's message without its own " at line L column C" suffix.
fn message(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// 1-based line and column of the first `needle`, or 1:1.
fn position_of(text: &str, needle: &str) -> (usize, usize) {
    let Some(i) = text.find(needle) else {
        return (1, 1);
    };
    let before = &text[..i];
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map_or(i, |nl| i - nl - 1) + 1;
    (line, column)
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
            "g.json:2:3: save version 9 is not supported (this overmind reads version 1)"
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
        };
        s.write(&path).expect("write");
        s.write(&path).expect("overwrite");
        assert_eq!(Save::read(&path).expect("read"), s);
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
    }
}
