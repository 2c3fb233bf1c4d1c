//! Reading the CLI's JSON files (saves, shard reports): problems as `path:line:column: message`.

use crate::error::CliError;
use serde::de::DeserializeOwned;
use std::path::Path;

/// Read a JSON file's text: a regular file of at most `cap` bytes, `what` naming it when it is
/// longer (`larger than the 64 MiB a save may be`); a FIFO or a device is refused without
/// reading or waiting (see `overmind_core::source::read_regular`).
///
/// # Errors
/// `path: cannot read: …`, `path: not a regular file (…)` or `path: larger than …` for a file
/// that cannot be read, `path:line:column: …` at the first byte of one that is not UTF-8.
pub fn read_text(path: &Path, cap: u64, what: &str) -> Result<String, CliError> {
    overmind_core::source::read_text_capped(path, cap, what).map_err(|e| {
        let at = if e.line == 0 {
            String::new()
        } else {
            format!(":{}:{}", e.line, e.column)
        };
        CliError::Problems(vec![format!("{}{at}: {}", path.display(), e.message)])
    })
}

/// Parse `text`, the text of the JSON file at `path`, as a `T`.
///
/// # Errors
/// `path:line:column: message` where the text is not JSON or not a `T`.
pub fn parse<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, CliError> {
    serde_json::from_str(text).map_err(|e| {
        // serde_json counts bytes from 0 at the start of a line (0 at the end of the text):
        // columns here count characters from 1.
        let lines = overmind_core::source::LineIndex::new(text);
        problem(path, lines.byte_column(e.line(), e.column()), &message(&e))
    })
}

/// The problem `message` at `(line, column)` of the file at `path`.
#[must_use]
pub fn problem(path: &Path, (line, column): (usize, usize), message: &str) -> CliError {
    CliError::Problems(vec![format!(
        "{}:{line}:{column}: {message}",
        path.display()
    )])
}

/// 1-based line and column (characters) of the first `needle` in `text`, or 1:1: where a
/// problem with a field is reported.
#[must_use]
pub fn position_of(text: &str, needle: &str) -> (usize, usize) {
    match text.find(needle) {
        Some(i) => overmind_core::source::line_col(text, i),
        None => (1, 1),
    }
}

/// 1-based line and column (characters) of each item of the array that is the value of the
/// top-level object's field `key` in `text` (JSON that parsed), in order; empty when there is
/// no such array. One pass over the text, so that every item of a long list can be placed.
#[must_use]
pub fn array_items(text: &str, key: &str) -> Vec<(usize, usize)> {
    let lines = overmind_core::source::LineIndex::new(text);
    item_offsets(text, key)
        .into_iter()
        .map(|at| lines.line_col(at))
        .collect()
}

/// Byte offsets of the items [`array_items`] places.
fn item_offsets(text: &str, key: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    // The last string read at depth 1 and whether it was followed by `:` (a key).
    let mut last: Option<(usize, usize)> = None;
    let mut in_array = false;
    let mut want_item = false;
    let mut items = Vec::new();
    while i < bytes.len() {
        let b = bytes[i];
        if in_array && depth == 2 && want_item && !b.is_ascii_whitespace() && b != b']' {
            items.push(i);
            want_item = false;
        }
        match b {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if depth == 1 {
                    last = Some((start + 1, i.min(bytes.len())));
                }
            }
            b'{' | b'[' => {
                depth += 1;
                if b == b'[' && depth == 2 && !in_array && items.is_empty() {
                    let named = last.is_some_and(|(a, z)| {
                        serde_json::from_str::<String>(&text[a - 1..=z.min(text.len() - 1)])
                            .is_ok_and(|k| k == key)
                    });
                    if named {
                        in_array = true;
                        want_item = true;
                    }
                }
            }
            b'}' | b']' => {
                if in_array && depth == 2 {
                    return items;
                }
                depth = depth.saturating_sub(1);
            }
            b',' if in_array && depth == 2 => want_item = true,
            b',' if depth == 1 => last = None,
            _ => {}
        }
        i += 1;
    }
    items
}

/// serde_json's message without its own " at line L column C" suffix.
fn message(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_placed_in_characters() {
        let p = Path::new("f.json");
        let e = parse::<serde_json::Value>(p, "{\"é\": x}").expect_err("bad value");
        assert_eq!(e.lines(), vec!["f.json:1:7: expected value".to_string()]);
        let e = parse::<u32>(p, "\n\"x\"").expect_err("not a number");
        assert!(
            e.lines()[0].starts_with("f.json:2:3: invalid type"),
            "{:?}",
            e.lines()
        );
        assert_eq!(position_of("{\n  \"version\": 1}", "\"version\""), (2, 3));
        assert_eq!(position_of("{}", "\"version\""), (1, 1));
    }

    #[test]
    fn array_items_are_placed() {
        let text =
            "{\"a\": [\"[x\", 1],\n \"packs\": [\"p\\\"]\",\n  {\"packs\": [2]}, [3]], \"z\": []}";
        assert_eq!(array_items(text, "packs"), vec![(2, 12), (3, 3), (3, 19)]);
        assert_eq!(array_items(text, "a"), vec![(1, 8), (1, 14)]);
        assert!(array_items(text, "z").is_empty());
        assert!(array_items(text, "none").is_empty());
        assert!(array_items("[\"packs\", [1]]", "packs").is_empty());
    }
}
