//! Mission files: the drawn map and the units placed on it, read from TOML with errors that
//! point at `path:line:column`.
//!
//! A mission file is TOML with a `map` string drawn at double resolution (squares on odd rows
//! and columns, edges and corners between them; `docs/MISSIONS.md` has the legend), an optional
//! `name`, and `[[heroes]]` / `[[blips]]` tables with `id` and `at = [x, y]`.
//!
//! Choices this parser makes:
//! - **Unknown fields are kept, not rejected.** Keys other than `name`, `map`, `heroes` and
//!   `blips` go into [`Mission::extra`]; keys of a placement other than `id` and `at` go into
//!   [`Placement::extra`]. Later issues give them meaning (`objective`, `max_rounds`, …), so
//!   a file written for a newer version still loads here.
//! - **The map's first line (the north border) sets the width** and must be drawn in full; any
//!   line may be shorter only by trailing blanks, and a line of squares may not leave a square
//!   out. Blank lines after the last map line (such as the one before a closing `"""` on its own
//!   line) are ignored.
//! - **Positions are exact** for basic (`"""`) and literal (`'''`) strings, escapes included
//!   (see [`crate::data::source::string_chars`]); columns count characters.
//! - **Every problem is reported**, not just the first: all map characters, all placements.
//!   Only a TOML syntax error stops the parse, since nothing after it can be trusted. Past
//!   [`crate::data::source::MAX_PROBLEMS`] (50) one last error says how many more there are.
//! - **A map is at most [`MAX_MAP_SIDE`] squares across and down.**
//!
//! [`Mission::parse`] is pure; [`Mission::load`] only adds reading the file;
//! [`Mission::parse_partial`] also keeps the mission as far as it reads.

use crate::data::geom::Pos;
use crate::data::map::{Edge, Map, MapBuilder, Obstacles, Terrain};
use crate::data::source::{string_chars, LineIndex};
use serde::Deserialize as _;
use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;

/// A parsed mission: an unchecked setup (docs/RULES.md §2, §7.2) from which a game is later
/// validated.
#[derive(Clone, Debug, PartialEq)]
pub struct Mission {
    /// `name` from the file, or the file's stem when it has none.
    pub name: String,
    pub map: Map,
    pub heroes: Vec<Placement>,
    pub blips: Vec<Placement>,
    /// Top-level keys this version does not read, kept for later ones.
    pub extra: toml::Table,
    pub path: PathBuf,
}

/// A unit (hero or Blip Token) placed on the map by a mission file.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub id: String,
    pub at: Pos,
    /// Keys of the placement other than `id` and `at`, kept for later versions.
    pub extra: toml::Table,
    /// The 1-based file line where the placement's table begins (its `[[heroes]]` header).
    pub line: usize,
}

/// What sort of problem a [`MissionError`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read.
    Io,
    /// Not valid TOML.
    Syntax,
    /// Valid TOML, but a key is missing or has the wrong type.
    Schema,
    /// A character of the map drawing, or its shape.
    Map,
    /// A unit placement: off the map, on a solid square, on another unit, a reused id.
    Placement,
}

/// One problem in a mission file. `line` and `column` are 1-based and point at the offending
/// character; both are 0 when there is no position (the file could not be read).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", path.display(), LineCol(*line, *column))]
pub struct MissionError {
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
    pub kind: ErrorKind,
    /// What was found and what was expected.
    pub message: String,
}

/// Displays `:line:column`, or nothing when there is no position.
struct LineCol(usize, usize);

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            Ok(())
        } else {
            write!(f, ":{}:{}", self.0, self.1)
        }
    }
}

/// Every problem found in one mission file, in file order; never empty.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct MissionErrors(pub Vec<MissionError>);

impl MissionErrors {
    pub fn iter(&self) -> std::slice::Iter<'_, MissionError> {
        self.0.iter()
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One error a line.
impl fmt::Display for MissionErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a MissionErrors {
    type Item = &'a MissionError;
    type IntoIter = std::slice::Iter<'a, MissionError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for MissionErrors {
    type Item = MissionError;
    type IntoIter = std::vec::IntoIter<MissionError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl Mission {
    /// Parse a mission from its text; `path` is only used to name the file in errors.
    ///
    /// # Errors
    /// Every problem of the file, each with its position (see the module docs).
    pub fn parse(path: &Path, text: &str) -> Result<Mission, MissionErrors> {
        match Parser::new(path, text).mission() {
            (Some(m), errors) if errors.is_empty() => Ok(m),
            (_, errors) => Err(MissionErrors(errors)),
        }
    }

    /// [`Mission::parse`], keeping the mission as far as it reads along with every problem:
    /// the mission is there whenever the file is TOML and its map has a usable shape, even
    /// when other things are wrong (a unit off the map, a bad square), so that a check can go
    /// on to what its setup says in the same run. Its placements are all kept, those with
    /// problems too. The mission is good only when there is no problem.
    #[must_use]
    pub fn parse_partial(path: &Path, text: &str) -> (Option<Mission>, Vec<MissionError>) {
        Parser::new(path, text).mission()
    }

    /// Read and parse a mission file.
    ///
    /// # Errors
    /// As [`Mission::parse`]; a file that cannot be read, or is not UTF-8, is one error naming
    /// the path.
    pub fn load(path: impl AsRef<Path>) -> Result<Mission, MissionErrors> {
        let path = path.as_ref();
        let io_error = |message: String| {
            MissionErrors(vec![MissionError {
                path: path.to_path_buf(),
                line: 0,
                column: 0,
                kind: ErrorKind::Io,
                message,
            }])
        };
        match crate::data::source::read_text_capped(
            path,
            crate::data::source::MAX_MISSION_BYTES,
            "a mission file",
        ) {
            Ok(text) => Mission::parse(path, &text),
            Err(e) if e.line == 0 => Err(io_error(e.message)),
            Err(e) => Err(MissionErrors(vec![MissionError {
                path: path.to_path_buf(),
                line: e.line,
                column: e.column,
                kind: ErrorKind::Syntax,
                message: e.message,
            }])),
        }
    }

    /// The squares holding a placed unit, heroes and Blips alike.
    #[must_use]
    pub fn obstacles(&self) -> Obstacles {
        let mut o = Obstacles::new(&self.map);
        for p in self.heroes.iter().chain(&self.blips) {
            o.insert(p.at);
        }
        o
    }
}

/// Heroes or Blips: the two kinds of placement, named in messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Side {
    Hero,
    Blip,
}

impl Side {
    fn noun(self) -> &'static str {
        match self {
            Side::Hero => "hero",
            Side::Blip => "blip",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Side::Hero => "heroes",
            Side::Blip => "blips",
        }
    }
}

/// A placement with the spans its later checks point at.
struct Placed {
    side: Side,
    placement: Placement,
    id_span: Range<usize>,
    at_span: Range<usize>,
}

struct Parser<'t> {
    path: &'t Path,
    text: &'t str,
    lines: LineIndex<'t>,
    errors: Vec<MissionError>,
    /// Problems found once `errors` held [`KEEP_ERRORS`]: only counted.
    uncounted: usize,
}

/// Most problems a parse keeps (sorted, the first [`crate::data::source::MAX_PROBLEMS`] are
/// reported); past it they are only counted, so a file full of mistakes parses in linear time
/// and bounded memory.
const KEEP_ERRORS: usize = 1000;

/// The most squares a map may have across or down.
pub const MAX_MAP_SIDE: usize = 100;

impl<'t> Parser<'t> {
    fn new(path: &'t Path, text: &'t str) -> Parser<'t> {
        Parser {
            path,
            text,
            lines: LineIndex::new(text),
            errors: Vec::new(),
            uncounted: 0,
        }
    }

    fn error(&mut self, kind: ErrorKind, offset: usize, message: impl Into<String>) {
        if self.errors.len() >= KEEP_ERRORS {
            self.uncounted += 1;
            return;
        }
        let (line, column) = self.lines.line_col(offset);
        self.error_at(kind, line, column, message);
    }

    fn error_at(
        &mut self,
        kind: ErrorKind,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) {
        if self.errors.len() >= KEEP_ERRORS {
            self.uncounted += 1;
            return;
        }
        self.errors.push(MissionError {
            path: self.path.to_path_buf(),
            line,
            column,
            kind,
            message: message.into(),
        });
    }

    /// The source text of a span on one line, shortened, for "found `...`" messages.
    fn snippet(&self, span: &Range<usize>) -> String {
        let raw = self.text.get(span.clone()).unwrap_or("");
        let first = raw.lines().next().unwrap_or("");
        let mut s: String = first.chars().take(40).collect();
        if s.len() < raw.len() {
            s.push('…');
        }
        s
    }

    /// The value with every problem, sorted and capped.
    fn finish<T>(mut self, value: Option<T>) -> (Option<T>, Vec<MissionError>) {
        self.errors.sort_by_key(|e| (e.line, e.column));
        crate::data::source::cap_problems_at(
            &mut self.errors,
            crate::data::source::MAX_PROBLEMS,
            self.uncounted,
            |first, n| MissionError {
                message: crate::data::source::more_problems(n),
                ..first.clone()
            },
        );
        (value, self.errors)
    }

    fn mission(mut self) -> (Option<Mission>, Vec<MissionError>) {
        let (root, syntax) = DeTable::parse_recoverable(self.text);
        if !syntax.is_empty() {
            for e in syntax {
                let offset = e.span().map_or(0, |s| s.start);
                let message = e.message().lines().collect::<Vec<_>>().join("; ");
                self.error(
                    ErrorKind::Syntax,
                    offset,
                    format!("invalid TOML: {message}"),
                );
            }
            return self.finish(None);
        }
        let root = root.into_inner();

        let mut name = None;
        let mut map = None;
        let mut map_seen = false;
        let mut placed = Vec::new();
        let mut extra = toml::Table::new();
        for (key, value) in root.iter() {
            match key.get_ref().as_ref() {
                "name" => match value.get_ref() {
                    DeValue::String(s) => name = Some(s.to_string()),
                    v => self.wrong_type(value.span(), "`name`", v, "a string"),
                },
                "map" => {
                    map_seen = true;
                    match value.get_ref() {
                        DeValue::String(s) => map = self.map(value.span(), s),
                        v => self.wrong_type(
                            value.span(),
                            "`map`",
                            v,
                            "a multi-line string (map = \"\"\"...\"\"\")",
                        ),
                    }
                }
                "heroes" => self.placements(Side::Hero, value, &mut placed),
                "blips" => self.placements(Side::Blip, value, &mut placed),
                other => {
                    if let Some(v) = self.keep_value(value) {
                        extra.insert(other.to_string(), v);
                    }
                }
            }
        }
        if !map_seen {
            self.error_at(
                ErrorKind::Schema,
                1,
                1,
                "no `map` in this file: expected a key `map = \"\"\"...\"\"\"` holding the drawn map",
            );
        }
        placed.sort_by_key(|p: &Placed| p.id_span.start);
        self.check_placements(map.as_ref(), &placed);

        let name = name.unwrap_or_else(|| {
            self.path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        let mission = map.map(|map| {
            let (heroes, blips): (Vec<_>, Vec<_>) =
                placed.into_iter().partition(|p| p.side == Side::Hero);
            Mission {
                name,
                map,
                heroes: heroes.into_iter().map(|p| p.placement).collect(),
                blips: blips.into_iter().map(|p| p.placement).collect(),
                extra,
                path: self.path.to_path_buf(),
            }
        });
        self.finish(mission)
    }

    fn wrong_type(&mut self, span: Range<usize>, what: &str, v: &DeValue<'_>, expected: &str) {
        let message = format!("{what} is {}: expected {expected}", a_type(v));
        self.error(ErrorKind::Schema, span.start, message);
    }

    /// Keep a value this version does not read, as plain TOML.
    fn keep_value(&mut self, value: &Spanned<DeValue<'_>>) -> Option<toml::Value> {
        match toml::Value::deserialize(ValueDeserializer::from(value.clone())) {
            Ok(v) => Some(v),
            Err(e) => {
                let offset = e.span().map_or(value.span().start, |s| s.start);
                self.error(ErrorKind::Schema, offset, e.message().to_string());
                None
            }
        }
    }

    /// Read the map drawing, recording its problems; `None` if it has no usable shape.
    fn map(&mut self, span: Range<usize>, decoded: &str) -> Option<Map> {
        let chars = string_chars(self.text, span.clone(), decoded);
        // Split into lines, each with the offset where it ends (its newline or the closing
        // quotes), so a character missing past the end can still be placed.
        let mut rows: Vec<(Vec<(char, usize)>, usize)> = Vec::new();
        let mut row = Vec::new();
        for &(c, offset) in &chars.chars {
            if c == '\n' {
                if row.last().is_some_and(|&(c, _)| c == '\r') {
                    row.pop();
                }
                rows.push((std::mem::take(&mut row), offset));
            } else {
                row.push((c, offset));
            }
        }
        rows.push((row, chars.end));
        while rows
            .last()
            .is_some_and(|(r, _)| r.iter().all(|&(c, _)| c == ' ' || c == '\t'))
        {
            rows.pop();
        }
        let Some((first, _)) = rows.first() else {
            self.error(
                ErrorKind::Map,
                span.start,
                "the map is empty: expected 2H+1 lines of 2W+1 characters drawing a W×H map",
            );
            return None;
        };

        let drawn =
            |r: &[(char, usize)]| r.len() - r.iter().rev().take_while(|&&(c, _)| c == ' ').count();
        let full = drawn(first);
        if full < 3 || full % 2 == 0 {
            let at = first.first().map_or(span.start, |&(_, o)| o);
            self.error(
                ErrorKind::Map,
                at,
                format!(
                    "the first map line is {full} characters wide: expected an odd width 2W+1 \
                     of at least 3 (the north border, drawn in full: it sets the map's width)"
                ),
            );
            return None;
        }
        let n = rows.len();
        let shape_ok = n >= 3 && n % 2 == 1;
        if !shape_ok {
            let at = rows[n - 1].0.first().map_or(rows[n - 1].1, |&(_, o)| o);
            self.error(
                ErrorKind::Map,
                at,
                format!(
                    "the map has {n} lines: expected an odd number 2H+1 of at least 3 (the north \
                     border, then a line of squares and a line of edges for each row)"
                ),
            );
        }
        let (w, h) = ((full - 1) / 2, (n.saturating_sub(1)) / 2);
        if w > MAX_MAP_SIDE || h > MAX_MAP_SIDE {
            let at = first.first().map_or(span.start, |&(_, o)| o);
            self.error(
                ErrorKind::Map,
                at,
                format!(
                    "the map is {w}×{h} squares: expected at most {MAX_MAP_SIDE} squares across \
                     and {MAX_MAP_SIDE} down ({} characters wide, {} lines)",
                    2 * MAX_MAP_SIDE + 1,
                    2 * MAX_MAP_SIDE + 1
                ),
            );
            return None;
        }
        let (Ok(wi), Ok(hi)) = (i32::try_from(w), i32::try_from(h)) else {
            self.error(ErrorKind::Map, span.start, "the map is too large");
            return None;
        };
        let mut b = MapBuilder::new(wi, hi);
        for (r, (row, end)) in rows.iter().enumerate() {
            let len = drawn(row);
            if len > full {
                self.error(
                    ErrorKind::Map,
                    row[full].1,
                    format!(
                        "found '{}' past the east border: this map line is {len} characters long, \
                         expected {full} (the width of the first line)",
                        row[full].0.escape_debug()
                    ),
                );
            }
            if r % 2 == 1 && len < 2 * w {
                // Squares sit at odd columns: name the first one left out, pointing where it
                // would be drawn (past the line's end if need be).
                let c = len | 1;
                let (line, col) = match row.get(c) {
                    Some(&(_, o)) => self.lines.line_col(o),
                    None => {
                        let (line, col) = self.lines.line_col(*end);
                        (line, col + c - row.len())
                    }
                };
                self.error_at(
                    ErrorKind::Map,
                    line,
                    col,
                    format!(
                        "this map line ends before square {},{}: expected {full} characters \
                         (a square may not be left out)",
                        (c - 1) / 2,
                        (r - 1) / 2
                    ),
                );
            }
            for (c, &(ch, offset)) in row.iter().enumerate().take(len.min(full)) {
                let (ci, ri) = (c as i32, r as i32);
                let problem = match (r % 2 == 1, c % 2 == 1) {
                    (true, true) => {
                        let p = Pos::new((ci - 1) / 2, (ri - 1) / 2);
                        match Terrain::from_symbol(ch) {
                            Some(t) => {
                                b.set_terrain(p, t);
                                None
                            }
                            None => Some(format!(
                                "at square {p}: expected a square: '.' plain, 'r' red, \
                                 'g' green, 'y' yellow, 'b' building or '#' solid"
                            )),
                        }
                    }
                    (true, false) => match ch {
                        '|' | ' ' | ':' => {
                            b.set_west(ci / 2, (ri - 1) / 2, edge(ch));
                            None
                        }
                        _ => Some(format!(
                            "on {}: expected '|' wall, ':' green side or ' ' open",
                            edge_name(c == 0, c == 2 * w, "west", Pos::new(ci / 2, (ri - 1) / 2))
                        )),
                    },
                    (false, true) => match ch {
                        '-' | ' ' | '=' => {
                            b.set_north((ci - 1) / 2, ri / 2, edge(ch));
                            None
                        }
                        _ => Some(format!(
                            "on {}: expected '-' wall, '=' green side or ' ' open",
                            edge_name(r == 0, r + 1 == n, "north", Pos::new((ci - 1) / 2, ri / 2))
                        )),
                    },
                    (false, false) => match ch {
                        '+' | ' ' => None,
                        _ => Some("at a corner: expected '+' or ' '".to_string()),
                    },
                };
                if let Some(p) = problem {
                    let found = if ch == ' ' {
                        "a blank".to_string()
                    } else {
                        format!("'{}'", ch.escape_debug())
                    };
                    self.error(ErrorKind::Map, offset, format!("found {found} {p}"));
                }
            }
        }
        // A map with bad characters still has a shape, so placements can be checked against
        // it (unknown squares read as plain); the errors keep the mission from being accepted.
        shape_ok.then(|| b.build())
    }

    /// Read a `heroes` or `blips` array of tables into `out`, recording problems.
    fn placements(&mut self, side: Side, value: &Spanned<DeValue<'_>>, out: &mut Vec<Placed>) {
        let DeValue::Array(items) = value.get_ref() else {
            let what = format!("`{}`", side.key());
            let expected = format!("an array of tables ([[{}]])", side.key());
            self.wrong_type(value.span(), &what, value.get_ref(), &expected);
            return;
        };
        for item in items.iter() {
            let item_span = item.span();
            let DeValue::Table(table) = item.get_ref() else {
                let what = format!("an entry of `{}`", side.key());
                self.wrong_type(
                    item_span,
                    &what,
                    item.get_ref(),
                    "a table with `id` and `at`",
                );
                continue;
            };
            let mut id = None;
            let mut at = None;
            let mut extra = toml::Table::new();
            for (key, v) in table.iter() {
                match key.get_ref().as_ref() {
                    "id" => match v.get_ref() {
                        DeValue::String(s) => id = Some((s.to_string(), v.span())),
                        other => self.wrong_type(v.span(), "`id`", other, "a string"),
                    },
                    "at" => match pair(v.get_ref()) {
                        Some(p) => at = Some((p, v.span())),
                        None => {
                            let found = self.snippet(&v.span());
                            self.error(
                                ErrorKind::Schema,
                                v.span().start,
                                format!(
                                    "found `at = {found}`: expected a pair of integers \
                                     `at = [x, y]`"
                                ),
                            );
                        }
                    },
                    other => {
                        if let Some(val) = self.keep_value(v) {
                            extra.insert(other.to_string(), val);
                        }
                    }
                }
            }
            let has = |k: &str| table.keys().any(|key| key.get_ref().as_ref() == k);
            for (key, example) in [("id", "id = \"...\""), ("at", "at = [x, y]")] {
                if !has(key) {
                    self.error(
                        ErrorKind::Schema,
                        item_span.start,
                        format!("this {} has no `{key}`: expected `{example}`", side.noun()),
                    );
                }
            }
            if let (Some((id, id_span)), Some((at, at_span))) = (id, at) {
                let (line, _) = self.lines.line_col(item_span.start);
                out.push(Placed {
                    side,
                    placement: Placement {
                        id,
                        at,
                        extra,
                        line,
                    },
                    id_span,
                    at_span,
                });
            }
        }
    }

    /// Ids unique; units on the map, not on solid squares, one a square.
    fn check_placements(&mut self, map: Option<&Map>, placed: &[Placed]) {
        let mut ids: HashMap<&str, &Placed> = HashMap::new();
        let mut squares: HashMap<Pos, &Placed> = HashMap::new();
        for p in placed {
            let (noun, id, at) = (p.side.noun(), &p.placement.id, p.placement.at);
            if let Some(first) = ids.get(id.as_str()) {
                let message = format!(
                    "found id \"{id}\" again: the {} at line {} has it; expected ids unique \
                     across heroes and blips",
                    first.side.noun(),
                    first.placement.line
                );
                self.error(ErrorKind::Placement, p.id_span.start, message);
            } else {
                ids.insert(id, p);
            }
            if let Some(map) = map {
                if !map.in_bounds(at) {
                    let message = format!(
                        "{noun} \"{id}\" at {at} is outside the map: expected x from 0 to {} and \
                         y from 0 to {}",
                        map.width() - 1,
                        map.height() - 1
                    );
                    self.error(ErrorKind::Placement, p.at_span.start, message);
                    continue;
                }
                if map.is_solid(at) {
                    let message = format!(
                        "{noun} \"{id}\" at {at} is on a solid square ('#'): expected a square a \
                         unit can stand on"
                    );
                    self.error(ErrorKind::Placement, p.at_span.start, message);
                }
            }
            if let Some(first) = squares.get(&at) {
                let message = format!(
                    "{noun} \"{id}\" at {at} is on the same square as {} \"{}\" (line {}): \
                     expected at most one unit a square",
                    first.side.noun(),
                    first.placement.id,
                    first.placement.line
                );
                self.error(ErrorKind::Placement, p.at_span.start, message);
            } else {
                squares.insert(at, p);
            }
        }
    }
}

/// "the west border", "the edge north of square 3,4", … for messages.
fn edge_name(first: bool, last: bool, side: &str, p: Pos) -> String {
    let border = |s: &str| format!("the {s} border");
    match (first, last, side) {
        (true, _, "west") => border("west"),
        (_, true, "west") => border("east"),
        (true, _, _) => border("north"),
        (_, true, _) => border("south"),
        _ => format!("the edge {side} of square {p}"),
    }
}

fn edge(c: char) -> Edge {
    match c {
        '|' | '-' => Edge::Wall,
        ':' | '=' => Edge::Green,
        _ => Edge::Open,
    }
}

/// `[x, y]` as a square, if it is exactly two integers that fit.
fn pair(v: &DeValue<'_>) -> Option<Pos> {
    let DeValue::Array(items) = v else {
        return None;
    };
    let [x, y] = items.as_ref() else {
        return None;
    };
    let int = |v: &Spanned<DeValue<'_>>| match v.get_ref() {
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix())
            .ok()
            .and_then(|n| i32::try_from(n).ok()),
        _ => None,
    };
    Some(Pos::new(int(x)?, int(y)?))
}

/// "a string", "an integer", … for messages.
fn a_type(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::geom::Dir;

    fn parse(text: &str) -> Result<Mission, MissionErrors> {
        Mission::parse(Path::new("m.toml"), text)
    }

    const SMALL: &str = r#"name = "small"
map = """
+-+-+-+
|. b|y|
+ +=+ +
|g . #|
+-+-+-+
"""

[[heroes]]
id = "h1"
at = [2, 0]
hp = 3

[[blips]]
id = "b1"
at = [0, 1]
"#;

    #[test]
    fn reads_map_and_units() {
        let m = parse(SMALL).expect("valid");
        assert_eq!(m.name, "small");
        assert_eq!((m.map.width(), m.map.height()), (3, 2));
        assert_eq!(m.map.terrain(Pos::new(1, 0)), Terrain::Building);
        assert_eq!(m.map.terrain(Pos::new(2, 1)), Terrain::Solid);
        assert!(m.map.wall(Pos::new(1, 0), Dir::E));
        assert_eq!(m.map.side(Pos::new(1, 0), Dir::S), Edge::Green);
        assert_eq!(m.heroes.len(), 1);
        assert_eq!(m.heroes[0].at, Pos::new(2, 0));
        assert_eq!(m.heroes[0].line, 10);
        assert_eq!(m.heroes[0].extra.get("hp"), Some(&toml::Value::Integer(3)));
        assert_eq!(m.blips[0].id, "b1");
        assert!(m.obstacles().contains(Pos::new(0, 1)));
    }

    #[test]
    fn literal_and_escaped_strings_read_alike() {
        let literal = SMALL.replace("\"\"\"", "'''");
        let a = parse(SMALL).expect("basic");
        let b = parse(&literal).expect("literal");
        assert_eq!(a.map, b.map);
        let one_line = "map = \"+-+\\n|.|\\n+-+\"\n";
        assert_eq!(parse(one_line).expect("escaped").map.width(), 1);
    }

    #[test]
    fn escaped_map_errors_point_at_the_character() {
        let err = parse("map = \"+-+\\n|x|\\n+-+\"\n").expect_err("bad square");
        assert_eq!((err.0[0].line, err.0[0].column), (1, 14));
    }

    #[test]
    fn a_partial_parse_keeps_the_mission_and_every_problem() {
        let text = SMALL.replace("at = [0, 1]", "at = [7, 1]");
        let (m, errors) = Mission::parse_partial(Path::new("m.toml"), &text);
        let m = m.expect("the map reads, so the mission is kept");
        assert_eq!(m.blips[0].at, Pos::new(7, 1), "with its bad placement");
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            vec![
                "m.toml:17:6: blip \"b1\" at 7,1 is outside the map: expected x from 0 to 2 and y \
                 from 0 to 1"
            ]
        );
        assert_eq!(parse(&text).map_err(|e| e.0), Err(errors));
        let (m, errors) = Mission::parse_partial(Path::new("m.toml"), "map = 3\n");
        assert!(m.is_none() && errors.len() == 1, "{errors:?}");
    }

    #[test]
    fn name_defaults_to_file_stem() {
        let m = Mission::parse(Path::new("dir/tiny.toml"), "map = '''\n+-+\n|.|\n+-+'''")
            .expect("valid");
        assert_eq!(m.name, "tiny");
    }

    #[test]
    fn io_error_names_the_path() {
        let err = Mission::load("/nonexistent/overmind/x.toml").expect_err("missing file");
        assert_eq!(err.0[0].kind, ErrorKind::Io);
        assert!(err
            .to_string()
            .starts_with("/nonexistent/overmind/x.toml: cannot read"));
    }
}
