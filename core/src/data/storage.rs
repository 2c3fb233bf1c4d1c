//! `game.storage`: what a script keeps between calls, as plain values that are part of the game
//! state (docs/RULES.md §8.4), so saves, replays and look-ahead copies carry it exactly.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most values (table entries, counted recursively) one script's storage may hold.
pub const MAX_STORAGE_VALUES: usize = 10_000;
/// Most bytes of strings (keys and values) one script's storage may hold.
pub const MAX_STORAGE_BYTES: usize = 1024 * 1024;
/// Deepest nesting of tables in storage.
pub const MAX_STORAGE_DEPTH: usize = 32;

/// A key of a storage table: an integer or a string (Lua's other key types are refused).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Key {
    Int(i64),
    Str(String),
}

/// A plain value: what a script may keep. No functions, userdata, threads or metatables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Int(i64),
    /// Always finite: NaN and infinities are refused on the way in, so two equal games
    /// compare equal.
    Num(f64),
    Str(String),
    /// Entries in key order (integers before strings), each key once.
    Table(Vec<(Key, Value)>),
}

impl Value {
    /// An empty table.
    #[must_use]
    pub fn table() -> Value {
        Value::Table(Vec::new())
    }

    /// Check the limits above; the message names the first thing over.
    ///
    /// # Errors
    /// Too many values, too many bytes, nesting too deep, a non-finite number, or a table
    /// with a key twice or out of order.
    pub fn check(&self) -> Result<(), String> {
        let mut count = 0usize;
        let mut bytes = 0usize;
        self.check_inner(0, &mut count, &mut bytes)
    }

    /// How many values and how many bytes of strings (keys included) it holds, as
    /// [`check`](Self::check) counts them.
    #[must_use]
    pub fn measure(&self) -> (usize, usize) {
        match self {
            Value::Str(s) => (1, s.len()),
            Value::Table(entries) => entries.iter().fold((1, 0), |(n, b), (k, v)| {
                let (vn, vb) = v.measure();
                let kb = match k {
                    Key::Str(s) => s.len(),
                    Key::Int(_) => 0,
                };
                (n + vn, b + vb + kb)
            }),
            _ => (1, 0),
        }
    }

    fn check_inner(
        &self,
        depth: usize,
        count: &mut usize,
        bytes: &mut usize,
    ) -> Result<(), String> {
        *count += 1;
        if *count > MAX_STORAGE_VALUES {
            return Err(format!(
                "storage holds more than {MAX_STORAGE_VALUES} values"
            ));
        }
        match self {
            Value::Num(n) if !n.is_finite() => Err("storage numbers must be finite".into()),
            Value::Str(s) => {
                *bytes += s.len();
                if *bytes > MAX_STORAGE_BYTES {
                    return Err(format!("storage holds more than {MAX_STORAGE_BYTES} bytes"));
                }
                Ok(())
            }
            Value::Table(entries) => {
                if depth >= MAX_STORAGE_DEPTH {
                    return Err(format!(
                        "storage tables nest deeper than {MAX_STORAGE_DEPTH}"
                    ));
                }
                for w in entries.windows(2) {
                    if w[0].0 >= w[1].0 {
                        return Err("storage table keys must be distinct and in order".into());
                    }
                }
                for (k, v) in entries {
                    if let Key::Str(s) = k {
                        *bytes += s.len();
                        if *bytes > MAX_STORAGE_BYTES {
                            return Err(format!(
                                "storage holds more than {MAX_STORAGE_BYTES} bytes"
                            ));
                        }
                    }
                    v.check_inner(depth + 1, count, bytes)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// Every script's storage, by the script's id (a behaviour's id).
pub type Storage = BTreeMap<String, Value>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_json_with_ints_and_floats_apart() {
        let v = Value::Table(vec![
            (Key::Int(1), Value::Int(3)),
            (Key::Int(2), Value::Num(0.5)),
            (Key::Str("seen".into()), Value::Bool(true)),
            (
                Key::Str("t".into()),
                Value::Table(vec![(Key::Str("a".into()), Value::Str("x".into()))]),
            ),
        ]);
        let s = serde_json::to_string(&v).unwrap();
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
        assert!(v.check().is_ok());
    }

    #[test]
    fn limits_are_enforced() {
        assert!(Value::Num(f64::NAN).check().is_err());
        let big = Value::Table(
            (0..MAX_STORAGE_VALUES as i64 + 1)
                .map(|i| (Key::Int(i), Value::Bool(true)))
                .collect(),
        );
        assert!(big.check().unwrap_err().contains("more than"));
        let unordered = Value::Table(vec![
            (Key::Int(2), Value::Int(0)),
            (Key::Int(1), Value::Int(0)),
        ]);
        assert!(unordered.check().is_err());
        let mut deep = Value::table();
        for _ in 0..MAX_STORAGE_DEPTH + 1 {
            deep = Value::Table(vec![(Key::Int(1), deep)]);
        }
        assert!(deep.check().unwrap_err().contains("deeper"));
    }
}
