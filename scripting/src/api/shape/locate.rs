//! Where a bad field is written: the line and column of its key, or of the bad item in it.

use super::check::Invalid;

/// Where a problem of a definition written on line `def_line` of `source` is: the line and
/// column (1-based, in characters) of its field's key, found by following its path of keys
/// forward from the definition (`unit`, then `max` after it); of the bad item inside the field
/// when the problem names one. What cannot be found is placed at the last key found, else at
/// the definition's line.
pub(crate) fn position(source: &str, def_line: u32, bad: &Invalid) -> (usize, usize) {
    let lines: Vec<&str> = source.lines().collect();
    let first = usize::try_from(def_line.max(1)).unwrap_or(1);
    // (0-based line, byte in the line) from which the next key is looked for.
    let mut at = (first - 1, 0);
    let mut found = None;
    for key in &bad.path {
        match find_key(&lines, at, key) {
            Some(p) => {
                found = Some(p);
                at = (p.0, p.1 + key.len());
            }
            None => break,
        }
    }
    if let (Some(start), Some(item)) = (found, &bad.item) {
        if let Some(p) = find_item(&lines, start, item) {
            found = Some(p);
        }
    }
    match found {
        Some((l, b)) => {
            let column = lines.get(l).map_or(1, |t| t[..b].chars().count() + 1);
            (l + 1, column)
        }
        None => {
            let column = lines.get(first - 1).map_or(1, |l| {
                l.chars().take_while(|c| c.is_whitespace()).count() + 1
            });
            (first.min(lines.len().max(1)), column)
        }
    }
}

/// The code of a line: what comes before a `--` comment.
fn code(line: &str) -> &str {
    line.split("--").next().unwrap_or("")
}

/// The first `key =` (not `==`, not part of a longer name) at or after `from`.
fn find_key(lines: &[&str], from: (usize, usize), key: &str) -> Option<(usize, usize)> {
    // An empty key (`[""] = 1`) is written nowhere findable.
    if key.is_empty() {
        return None;
    }
    for (l, line) in lines.iter().enumerate().skip(from.0) {
        let text = code(line);
        let mut start = if l == from.0 { from.1 } else { 0 };
        while let Some(i) = text.get(start..).and_then(|t| t.find(key)) {
            let b = start + i;
            let end = b + key.len();
            let bytes = text.as_bytes();
            let before_ok =
                b == 0 || !(bytes[b - 1].is_ascii_alphanumeric() || bytes[b - 1] == b'_');
            let rest = text[end..].trim_start();
            if before_ok && rest.starts_with('=') && !rest.starts_with("==") {
                return Some((l, b));
            }
            start = end;
        }
    }
    None
}

/// The first `"item"` or `'item'` at or after `from`.
fn find_item(lines: &[&str], from: (usize, usize), item: &str) -> Option<(usize, usize)> {
    let quoted = [format!("\"{item}\""), format!("'{item}'")];
    for (l, line) in lines.iter().enumerate().skip(from.0) {
        let text = code(line);
        let start = if l == from.0 { from.1 } else { 0 };
        let hit = quoted
            .iter()
            .filter_map(|q| text.get(start..).and_then(|t| t.find(q.as_str())))
            .min();
        if let Some(i) = hit {
            return Some((l, start + i));
        }
    }
    None
}
