//! A problem in a pack's file, as `overmind check` prints it: `path:line:column: message`.

use std::fmt;
use std::path::{Path, PathBuf};

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
    let max = overmind_core::source::MAX_PROBLEMS;
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
