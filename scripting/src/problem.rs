//! A problem in a pack's file, as `overmind check` prints it: `path:line:column: message`.

use serde::de::DeserializeOwned;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::de::{DeValue, ValueDeserializer};
use toml::Spanned;

/// One problem, pointing into a file. Line and column are 1-based; 0 means "no position"
/// (the file could not be read at all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file.
    pub path: PathBuf,
    /// 1-based line; 0 when there is no position.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl Problem {
    /// A problem at a position.
    pub fn new(path: &Path, line: usize, column: usize, message: impl Into<String>) -> Problem {
        Problem {
            path: path.to_path_buf(),
            line,
            column,
            message: message.into(),
        }
    }

    /// A problem at a line of a text, its column the line's first non-blank character.
    pub fn at_line(path: &Path, text: &str, line: usize, message: impl Into<String>) -> Problem {
        let column = text
            .lines()
            .nth(line.saturating_sub(1))
            .map_or(1, |l| l.len() - l.trim_start().len() + 1);
        Problem::new(path, line.max(1), column, message)
    }
}

/// At most [`overmind_core::source::MAX_PROBLEMS`] problems of each file, in the order given;
/// past that, one problem per file (where the first left out is) says how many more there are.
#[must_use]
pub fn cap_per_file(problems: Vec<Problem>) -> Vec<Problem> {
    use std::collections::HashMap;
    let max = MAX_FILE_PROBLEMS;
    let mut total: HashMap<PathBuf, usize> = HashMap::new();
    for p in &problems {
        *total.entry(p.path.clone()).or_default() += 1;
    }
    let mut seen: HashMap<PathBuf, usize> = HashMap::new();
    let mut out = Vec::with_capacity(problems.len().min(4 * max));
    for p in problems {
        let n = seen.entry(p.path.clone()).or_default();
        *n += 1;
        if *n <= max {
            out.push(p);
        } else if *n == max + 1 {
            let left_out = total.get(&p.path).map_or(1, |t| t - max);
            out.push(Problem {
                message: overmind_core::source::more_problems(left_out),
                ..p
            });
        }
    }
    out
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path.display(), self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.path.display(),
                self.line,
                self.column,
                self.message
            )
        }
    }
}

impl std::error::Error for Problem {}

/// The longest word (in characters) [`nearest`] finds a suggestion for; no id is near as long.
pub const NEAREST_MAX: usize = 64;

/// The candidate nearest to `word`, for "did you mean ...?": the only one it is a prefix of,
/// else the closest by Damerau–Levenshtein distance (ignoring case) when that is small for the
/// word's length; ties go to the earlier candidate. The CLI's suggestions are this one too.
/// A word longer than [`NEAREST_MAX`] characters gets none, and only candidates within the
/// distance allowed in length are compared, so the work is bounded whatever the word.
#[must_use]
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if word.is_empty() || word.len() > NEAREST_MAX * 4 || word.chars().count() > NEAREST_MAX {
        return None;
    }
    let word = word.to_lowercase();
    let candidates: Vec<&str> = candidates.into_iter().collect();
    let prefixed: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| word.len() >= 2 && c.to_lowercase().starts_with(&word))
        .collect();
    if let [only] = prefixed.as_slice() {
        return Some(only);
    }
    let len = word.chars().count();
    let limit = match len {
        0..=2 => 1,
        3..=5 => 2,
        _ => 3,
    };
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let lower = c.to_lowercase();
        // The distance is at least the difference in length.
        if lower.chars().count().abs_diff(len) > limit {
            continue;
        }
        let d = strsim::damerau_levenshtein(&word, &lower);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// A TOML value read into `T` as far as it goes, and every problem on the way.
pub(crate) struct ReadAll<T> {
    /// `T`, when it could be read once the problems' values were left out.
    pub(crate) value: Option<T>,
    /// Each problem: the span of the text it is about, and the message.
    pub(crate) problems: Vec<(Range<usize>, String)>,
    /// The top-level keys under which values were left out (what depends on them is not to be
    /// checked further: its problems would be consequences).
    pub(crate) cut: Vec<String>,
}

/// Most times [`read_all`] reads the value again; each time leaves out one more part of it.
const MAX_READS: usize = 4 * MAX_FILE_PROBLEMS + 100;

/// Problems of one file [`cap_per_file`] keeps.
pub(crate) const MAX_FILE_PROBLEMS: usize = overmind_core::source::MAX_PROBLEMS;

/// Reads `value` into `T`, reporting every problem serde finds, not only the first: after
/// each one the entry it is about is left out of the value and the value read again. A
/// required field that is missing only because it was left out is not reported again.
pub(crate) fn read_all<T: DeserializeOwned>(mut value: Spanned<DeValue<'_>>) -> ReadAll<T> {
    let mut problems = Vec::new();
    let mut cut: Vec<String> = Vec::new();
    // (span of a table, key) for every entry left out, to recognise "missing field" that
    // the leaving out caused.
    let mut removed: Vec<(Range<usize>, String)> = Vec::new();
    // (span of a table, field) for every unknown field reported with a suggestion.
    let mut suggested: Vec<(Range<usize>, String)> = Vec::new();
    let whole = value.span();
    for _ in 0..MAX_READS {
        let e = match T::deserialize(ValueDeserializer::from(value.clone())) {
            Ok(t) => {
                return ReadAll {
                    value: Some(t),
                    problems,
                    cut,
                }
            }
            Err(e) => e,
        };
        let span = e.span().unwrap_or_else(|| whole.clone());
        let message = e.message().trim().lines().collect::<Vec<_>>().join("; ");
        // Missing because it was left out, or because it is misspelt (already reported with
        // the right name).
        let ours = missing_field(&message).is_some_and(|k| {
            removed
                .iter()
                .chain(&suggested)
                .any(|(s, r)| *s == span && r == k)
        });
        let (message, near) = with_suggestion(message);
        if !ours {
            problems.push((span.clone(), message));
        }
        if let Some(k) = top_key(&value, &span) {
            if !cut.contains(&k) {
                cut.push(k);
            }
        }
        let before = removed.len();
        if !matches!(leave_out(&mut value, &span, &mut removed), Cut::Done) {
            break;
        }
        if let (Some(n), Some((table, _))) = (near, removed.get(before)) {
            suggested.push((table.clone(), n));
        }
    }
    ReadAll {
        value: None,
        problems,
        cut,
    }
}

/// The field serde's "missing field `x`" names.
fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.split('`').next()
}

/// Serde's "unknown field `nme`, expected one of `id`, `name`" (or "unknown variant") with
/// "(did you mean `name`?)" added when one of the expected names is near; and that name.
fn with_suggestion(message: String) -> (String, Option<String>) {
    let Some(rest) = message
        .strip_prefix("unknown field `")
        .or_else(|| message.strip_prefix("unknown variant `"))
    else {
        return (message, None);
    };
    let Some((word, expected)) = rest.split_once('`') else {
        return (message, None);
    };
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    match nearest(word, known).map(str::to_string) {
        Some(n) => (format!("{message} (did you mean `{n}`?)"), Some(n)),
        None => (message, None),
    }
}

/// The top-level key whose entry holds `span`.
fn top_key(value: &Spanned<DeValue<'_>>, span: &Range<usize>) -> Option<String> {
    let DeValue::Table(t) = value.get_ref() else {
        return None;
    };
    t.iter()
        .find(|(k, v)| holds(&k.span(), span) || holds(&extent(v), span))
        .map(|(k, _)| k.get_ref().to_string())
}

fn holds(outer: &Range<usize>, inner: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// All of the text a value is written in. A table written under a `[header]` has the
/// header's span, its entries lie after it: the extent covers both.
fn extent(value: &Spanned<DeValue<'_>>) -> Range<usize> {
    let mut r = value.span();
    let mut widen = |s: Range<usize>| {
        r.start = r.start.min(s.start);
        r.end = r.end.max(s.end);
    };
    match value.get_ref() {
        DeValue::Table(t) => {
            for (k, v) in t.iter() {
                widen(k.span());
                widen(extent(v));
            }
        }
        DeValue::Array(items) => {
            for v in items.iter() {
                widen(extent(v));
            }
        }
        _ => {}
    }
    r
}

/// What [`leave_out`] did.
enum Cut {
    /// Left out the entry the span is about.
    Done,
    /// The span is this whole value: its container must leave it out.
    Whole,
}

/// Leaves out of `value` the innermost table entry or array-of-tables item that `span` is
/// about. An item of an array of plain values is not left out alone (a shorter `[x, y]` would
/// be a new problem): the whole array is.
fn leave_out(
    value: &mut Spanned<DeValue<'_>>,
    span: &Range<usize>,
    removed: &mut Vec<(Range<usize>, String)>,
) -> Cut {
    let own = value.span();
    match value.get_mut() {
        DeValue::Table(t) => {
            if own == *span {
                return Cut::Whole;
            }
            let Some(key) = t
                .iter()
                .find(|(k, v)| holds(&k.span(), span) || holds(&extent(v), span))
                .map(|(k, _)| k.clone())
            else {
                return Cut::Whole;
            };
            let name = key.get_ref().to_string();
            let in_key = holds(&key.span(), span);
            let inner = match t.get_mut(name.as_str()) {
                Some(v) if !in_key => leave_out(v, span, removed),
                _ => Cut::Whole,
            };
            if matches!(inner, Cut::Whole) {
                t.remove(name.as_str());
                removed.push((own, name));
            }
            Cut::Done
        }
        DeValue::Array(items) => {
            // Items first: an array of `[[tables]]` has the span of its first item's header.
            let Some(i) = items.iter().position(|v| holds(&extent(v), span)) else {
                return Cut::Whole;
            };
            if !matches!(items[i].get_ref(), DeValue::Table(_)) {
                return Cut::Whole;
            }
            let whole = items
                .get_mut(i)
                .is_none_or(|item| matches!(leave_out(item, span, removed), Cut::Whole));
            if whole {
                let kept: toml::de::DeArray<'_> = items
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, v)| v.clone())
                    .collect();
                *items = kept;
            }
            Cut::Done
        }
        _ => Cut::Whole,
    }
}
