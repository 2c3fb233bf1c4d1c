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
}
