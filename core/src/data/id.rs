//! Ids of units, models, Blips and Heroes: small `Copy` values (an inline string of at most
//! [`Id::MAX_LEN`] bytes), so the rules copy and compare them without allocating; at the
//! boundary (JSON, saves, Lua) they read and write as the plain strings they are.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// An id: at most [`Id::MAX_LEN`] bytes of UTF-8, stored inline.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Id {
    len: u8,
    bytes: [u8; Id::MAX_LEN],
}

/// Why a string cannot be an [`Id`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadId {
    #[error("the id {0:?} is longer than {max} bytes", max = Id::MAX_LEN)]
    TooLong(String),
    /// Ids are printable: no C0, DEL or C1 control character (`source::is_control`).
    #[error("the id {0:?} holds a control character: expected printable text")]
    Control(String),
}

impl Id {
    /// Longest id in bytes (ids are names like `captain` or `b12.3`).
    pub const MAX_LEN: usize = 31;

    /// The id of `s`.
    ///
    /// # Errors
    /// `s` is longer than [`Id::MAX_LEN`] bytes, or holds a control character.
    pub fn new(s: &str) -> Result<Id, BadId> {
        if s.len() > Id::MAX_LEN {
            return Err(BadId::TooLong(s.to_string()));
        }
        if crate::data::source::has_control(s) {
            return Err(BadId::Control(s.to_string()));
        }
        let mut bytes = [0u8; Id::MAX_LEN];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        Ok(Id {
            len: s.len() as u8,
            bytes,
        })
    }

    /// The id of `s`; a longer `s` is cut on a character boundary and ends in `…`, which no
    /// id the engine or a pack makes contains, so a cut name never matches a real id (for
    /// names typed at the boundary, which the rules then refuse by name). A control
    /// character becomes U+FFFD, so that no id holds one.
    #[must_use]
    pub fn lossy(s: &str) -> Id {
        if let Ok(id) = Id::new(s) {
            return id;
        }
        if crate::data::source::has_control(s) {
            let printable: String = s
                .chars()
                .map(|c| {
                    if crate::data::source::is_control(c) {
                        '\u{fffd}'
                    } else {
                        c
                    }
                })
                .collect();
            return Id::lossy(&printable);
        }
        const MARK: &str = "…";
        let mut end = Id::MAX_LEN - MARK.len();
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0u8; Id::MAX_LEN];
        bytes[..end].copy_from_slice(&s.as_bytes()[..end]);
        bytes[end..end + MARK.len()].copy_from_slice(MARK.as_bytes());
        Id {
            len: (end + MARK.len()) as u8,
            bytes,
        }
    }

    /// The id as a string.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // SAFETY: every constructor (`new`, `lossy`, `default`) copies whole UTF-8 text, cut
        // on a character boundary, into `bytes[..len]`, and nothing else writes to them.
        // Checking again here cost a tenth of a whole game in the profile.
        unsafe { std::str::from_utf8_unchecked(self.as_bytes()) }
    }

    /// The id's bytes (UTF-8).
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl Default for Id {
    fn default() -> Id {
        Id {
            len: 0,
            bytes: [0; Id::MAX_LEN],
        }
    }
}

impl std::ops::Deref for Id {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Id {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

// Hashes as its string, as `Borrow<str>` requires: a map keyed by `Id` is searched by `&str`.
impl std::hash::Hash for Id {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_str().hash(h);
    }
}

impl std::borrow::Borrow<str> for Id {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Id) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Id {
    fn cmp(&self, other: &Id) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialEq<str> for Id {
    fn eq(&self, other: &str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for Id {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<String> for Id {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Id> for str {
    fn eq(&self, other: &Id) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Id> for &str {
    fn eq(&self, other: &Id) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Id> for String {
    fn eq(&self, other: &Id) -> bool {
        self == other.as_str()
    }
}

impl<T: AsRef<str> + ?Sized> From<&T> for Id {
    fn from(s: &T) -> Id {
        Id::lossy(s.as_ref())
    }
}

impl From<String> for Id {
    fn from(s: String) -> Id {
        Id::lossy(&s)
    }
}

impl From<Id> for String {
    fn from(id: Id) -> String {
        id.as_str().to_string()
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Id::new(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_strings_at_the_boundary() {
        let id = Id::new("b12.3").unwrap();
        assert_eq!(id, "b12.3");
        assert_eq!(id.to_string(), "b12.3");
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"b12.3\"");
        let back: Id = serde_json::from_str("\"b12.3\"").unwrap();
        assert_eq!(back, id);
        assert!(Id::new(&"x".repeat(Id::MAX_LEN + 1)).is_err());
        for bad in ["a\u{1b}[2J", "b\u{7}", "c\u{9b}", "d\u{7f}", "e\n"] {
            assert!(matches!(Id::new(bad), Err(BadId::Control(_))), "{bad:?}");
            assert!(serde_json::from_str::<Id>(&serde_json::to_string(bad).unwrap()).is_err());
            assert!(
                !crate::data::source::has_control(&Id::lossy(bad)),
                "{bad:?}"
            );
        }
        assert_eq!(Id::lossy("a\u{1b}b"), "a\u{fffd}b");
        assert!(serde_json::from_str::<Id>(&format!("\"{}\"", "x".repeat(40))).is_err());
        let cut = Id::lossy(&"é".repeat(20));
        assert_eq!(cut.len(), 31, "cut on a character boundary");
        assert!(cut.ends_with('…'));
        let long = format!("{}x", "a".repeat(Id::MAX_LEN));
        assert_ne!(Id::lossy(&long), Id::new(&"a".repeat(Id::MAX_LEN)).unwrap());
        let a = Id::new("a").unwrap();
        let b = Id::new("b").unwrap();
        assert!(a < b);
        assert_eq!(std::mem::size_of::<Id>(), 32);
        let map: std::collections::HashMap<Id, u32> = [(a, 1)].into_iter().collect();
        assert_eq!(map.get("a"), Some(&1), "looked up by its string");
    }
}
