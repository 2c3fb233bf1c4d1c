//! Byte offsets to `line:column` positions, so every data-file error can point into its file.
//!
//! Lines and columns are 1-based; a column counts characters (Unicode scalar values), not
//! bytes, so a position matches what an editor shows for ASCII and for most other text.

/// Bytes between the character counts [`LineIndex`] keeps, so that a lookup counts at most
/// this many bytes whatever the length of the line.
const CHECKPOINT: usize = 256;

/// Line starts of a text, for many offset lookups without rescanning it.
///
/// A lookup costs a binary search and at most [`CHECKPOINT`] bytes counted, so reporting many
/// errors on one very long line stays linear in the text.
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset at which each line begins; `starts[0] == 0`.
    starts: Vec<usize>,
    /// `chars[k]`: the characters in `text[..k * CHECKPOINT]` (counted as the bytes that begin
    /// a character, so the count is defined for any byte prefix).
    chars: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    #[must_use]
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let mut chars = Vec::with_capacity(text.len() / CHECKPOINT + 1);
        let mut total = 0;
        chars.push(0);
        for block in text.as_bytes().chunks(CHECKPOINT) {
            total += char_starts(block);
            chars.push(total);
        }
        LineIndex {
            text,
            starts,
            chars,
        }
    }

    /// The characters in `text[..offset]`, `offset` a character boundary.
    fn chars_before(&self, offset: usize) -> usize {
        let block = offset / CHECKPOINT;
        let from = block * CHECKPOINT;
        self.chars[block] + char_starts(&self.text.as_bytes()[from..offset])
    }

    /// The 1-based `(line, column)` of a byte offset. An offset past the end reads as the end
    /// of the text; an offset inside a multi-byte character reads as that character.
    #[must_use]
    pub fn line_col(&self, byte_offset: usize) -> (usize, usize) {
        let mut offset = byte_offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        // `starts` is sorted and begins with 0, so the line is the last start <= offset.
        let line = self.starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.starts[line];
        let column = self.chars_before(offset) - self.chars_before(start);
        // A newline at `offset` is the end of its line, so it keeps that line's number.
        (line + 1, column + 1)
    }

    /// The 1-based `(line, column)` of the character that ends at byte `bytes` of a 1-based
    /// line (`bytes` counted from the line's start, as JSON parsers report columns): the column
    /// in characters, at least 1. A line past the end reads as the end of the text.
    #[must_use]
    pub fn byte_column(&self, line: usize, bytes: usize) -> (usize, usize) {
        let Some(start) = self.line_start(line.max(1)) else {
            return self.line_col(self.text.len());
        };
        let end = self
            .starts
            .get(line.max(1))
            .map_or(self.text.len(), |&next| next.saturating_sub(1));
        let mut at = start.saturating_add(bytes).min(end);
        while !self.text.is_char_boundary(at) {
            at += 1;
        }
        let column = self.chars_before(at) - self.chars_before(start);
        (line.max(1), column.max(1))
    }

    /// Byte offset of the first character of a 1-based line, if the text has that line.
    #[must_use]
    pub fn line_start(&self, line: usize) -> Option<usize> {
        line.checked_sub(1)
            .and_then(|i| self.starts.get(i).copied())
    }

    /// The number of lines (a text ending in a newline has an empty last line).
    #[must_use]
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }
}

/// The bytes of `bytes` that begin a character (all but UTF-8 continuation bytes).
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

/// The 1-based `(line, column)` of a byte offset in `text`. For many lookups in one text, build
/// a [`LineIndex`] once instead.
#[must_use]
pub fn line_col(text: &str, byte_offset: usize) -> (usize, usize) {
    let mut end = byte_offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
    let line = text.as_bytes()[..line_start]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    (line + 1, char_starts(&text.as_bytes()[line_start..end]) + 1)
}

/// Most problems reported for one file; the rest are counted in one last line
/// ([`cap_problems`]), so that a file full of mistakes is reported in time linear in its size.
pub const MAX_PROBLEMS: usize = 50;

/// Keep the first [`MAX_PROBLEMS`] of `problems` (already in file order); if there are more,
/// add one made by `more(first_left_out, how_many_left_out)`, such as "and 12 more problems"
/// placed where the first one left out is.
pub fn cap_problems<T>(problems: &mut Vec<T>, more: impl FnOnce(&T, usize) -> T) {
    cap_problems_at(problems, MAX_PROBLEMS, 0, more);
}

/// [`cap_problems`] keeping at most `max`, for a list that already left `uncounted` problems
/// out (found after it was full; counted in the last line, which is placed where the first
/// problem past `max` is, or the last one kept).
pub fn cap_problems_at<T>(
    problems: &mut Vec<T>,
    max: usize,
    uncounted: usize,
    more: impl FnOnce(&T, usize) -> T,
) {
    let left_out = problems.len().saturating_sub(max) + uncounted;
    if left_out == 0 {
        return;
    }
    let Some(first) = problems.get(max).or(problems.last()) else {
        return;
    };
    let last = more(first, left_out);
    problems.truncate(max);
    problems.push(last);
}

/// The message of the line that stands for the problems [`cap_problems`] leaves out.
#[must_use]
pub fn more_problems(n: usize) -> String {
    if n == 1 {
        "and 1 more problem".to_string()
    } else {
        format!("and {n} more problems")
    }
}

/// Why a text file could not be read: no such file, or unreadable (`line` 0), or not UTF-8
/// (`line` and `column` of the first byte that is not, both 1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ReadError {
    /// 1-based line of the first byte that is not UTF-8; 0 when the file could not be read.
    pub line: usize,
    /// 1-based column (characters) of that byte; 0 when the file could not be read.
    pub column: usize,
    /// What went wrong ("cannot read: …" or "found a byte that is not UTF-8 …").
    pub message: String,
    /// The I/O error's kind when the file could not be read (`NotFound`: there is no file).
    pub io: Option<std::io::ErrorKind>,
}

/// Most bytes of a pack's data file (a script, `pack.toml`, `rules.toml`, a scenario file):
/// the Lua sandbox's limit on a script's source. [`read_text`] refuses a longer file.
pub const MAX_TEXT_BYTES: u64 = 4 * 1024 * 1024;

/// Most bytes of a mission file (the biggest bundled mission is under 2 KiB; a map of the
/// largest size, 100 by 100 squares, drawn with walls, is under 100 KiB).
pub const MAX_MISSION_BYTES: u64 = 1024 * 1024;

/// Read a text file: its contents if they are UTF-8, else where the first bad byte is. The
/// file must be a regular file of at most [`MAX_TEXT_BYTES`] (see [`read_regular`]).
///
/// # Errors
/// The file cannot be read, is not a regular file, is too long, or is not UTF-8 (see
/// [`ReadError`]).
pub fn read_text(path: &std::path::Path) -> Result<String, ReadError> {
    read_text_capped(path, MAX_TEXT_BYTES, "a data file")
}

/// [`read_text`] with another cap: `what` names the file in the message when it is longer
/// (`larger than the 1 MiB a mission file may be`).
///
/// # Errors
/// As [`read_text`].
pub fn read_text_capped(path: &std::path::Path, cap: u64, what: &str) -> Result<String, ReadError> {
    utf8_text(read_regular(path, cap, what)?)
}

/// The bytes of the regular file at `path`, at most `cap` of them. The file is opened first
/// (without waiting, so a FIFO cannot block the open) and the opened file is then looked at,
/// so what is read is what was checked even if the path is changed meanwhile: a directory, a
/// FIFO, a device or a socket is refused without reading a byte, and at most `cap + 1` bytes
/// are read of a file longer than `cap` (a file growing as it is read is caught too). Every
/// file the engine and the CLI read from a pack, a mission or a save goes through here.
///
/// # Errors
/// `cannot read: …`, `not a regular file (…)`, or `larger than the N MiB what may be`, with
/// `line` 0.
pub fn read_regular(path: &std::path::Path, cap: u64, what: &str) -> Result<Vec<u8>, ReadError> {
    use std::io::Read as _;
    let fail = |message: String, io: Option<std::io::ErrorKind>| ReadError {
        line: 0,
        column: 0,
        message,
        io,
    };
    let cannot = |e: std::io::Error| fail(format!("cannot read: {e}"), Some(e.kind()));
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        // Opening a FIFO for reading waits for a writer unless it is non-blocking; on a
        // regular file the flag changes nothing.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(fail(
            format!("not a regular file ({})", file_kind(&meta.file_type())),
            Some(std::io::ErrorKind::InvalidInput),
        ));
    }
    let too_long = || {
        fail(
            format!("larger than the {} {what} may be", size_name(cap)),
            Some(std::io::ErrorKind::InvalidData),
        )
    };
    if meta.len() > cap {
        return Err(too_long());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > cap {
        return Err(too_long());
    }
    Ok(bytes)
}

/// "a directory", "a FIFO (named pipe)", … for messages.
#[must_use]
pub fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// A byte count as messages give caps: `1 MiB`, `64 KiB`, `100 bytes`.
#[must_use]
pub fn size_name(bytes: u64) -> String {
    const KIB: u64 = 1024;
    if bytes >= KIB * KIB && bytes.is_multiple_of(KIB * KIB) {
        format!("{} MiB", bytes / (KIB * KIB))
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// A control character: C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F). Terminals act
/// on them (ESC starts a command sequence, BEL rings, CSI U+009B is ESC `[`), so text from a
/// file or a script never reaches one with them raw; ids never hold one.
#[must_use]
pub fn is_control(c: char) -> bool {
    c.is_control()
}

/// Whether `s` holds a [control character](is_control).
#[must_use]
pub fn has_control(s: &str) -> bool {
    // Fast path: every control character is a byte below 0x20, 0x7f, or starts with 0xc2.
    s.bytes().any(|b| b < 0x20 || b == 0x7f || b == 0xc2) && s.chars().any(is_control)
}

/// `text` with every [control character](is_control) but newline and tab written out as
/// `\u{1b}` (as Rust and Lua write them): the one function hosts pass text through that came
/// from a file or a script (names, ids, `log` messages) before it reaches a terminal.
#[must_use]
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| is_control(c) && c != '\n' && c != '\t';
    if !has_control(text) || !text.chars().any(bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if bad(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Bytes as text if they are UTF-8, else the position of the first byte that is not.
///
/// # Errors
/// The bytes are not UTF-8: the error has the bad byte's 1-based `line:column`.
pub fn utf8_text(bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // The prefix before the first bad byte is UTF-8 by definition.
        let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or("");
        let (line, column) = line_col(prefix, valid);
        ReadError {
            line,
            column,
            message: format!(
                "found the byte 0x{:02x}, which is not UTF-8: expected UTF-8 text",
                bytes.get(valid).copied().unwrap_or(0)
            ),
            io: None,
        }
    })
}

/// The characters of a TOML string value and where each one stands in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StringChars {
    /// Each decoded character with the byte offset, in the file, of the source text that
    /// produced it (for an escape such as `\n`, its backslash).
    pub chars: Vec<(char, usize)>,
    /// The byte offset just past the string's content: where its closing quotes begin.
    pub end: usize,
    /// False when the source could not be matched to the decoded value, so every offset is
    /// only the start of the string.
    pub exact: bool,
}

/// Map the decoded value of a TOML string back to file offsets.
///
/// `span` is the byte span of the whole string token in `text` (quotes included, as
/// `toml::Spanned` gives it) and `decoded` its value. Handles basic and literal strings, single-
/// and multi-line, the newline TOML drops after an opening `"""`/`'''`, every escape, and the
/// line-ending backslash. If the source does not decode to `decoded` (it always should), every
/// character is placed at the string's start and `exact` is false.
#[must_use]
pub fn string_chars(text: &str, span: std::ops::Range<usize>, decoded: &str) -> StringChars {
    let raw = text.get(span.clone()).unwrap_or("");
    match scan_string(raw) {
        Some((chars, end)) if chars.iter().map(|&(c, _)| c).eq(decoded.chars()) => StringChars {
            chars: chars
                .into_iter()
                .map(|(c, o)| (c, o + span.start))
                .collect(),
            end: end + span.start,
            exact: true,
        },
        _ => StringChars {
            chars: decoded.chars().map(|c| (c, span.start)).collect(),
            end: span.start,
            exact: false,
        },
    }
}

/// Decode a TOML string token, keeping each character's offset within `raw`; also returns
/// where the closing delimiter begins. `None` if `raw` is not a well-formed string token.
fn scan_string(raw: &str) -> Option<(Vec<(char, usize)>, usize)> {
    let (delim, literal) = if raw.starts_with("\"\"\"") {
        (3, false)
    } else if raw.starts_with("'''") {
        (3, true)
    } else if raw.starts_with('"') {
        (1, false)
    } else if raw.starts_with('\'') {
        (1, true)
    } else {
        return None;
    };
    let end = raw.len().checked_sub(delim).filter(|&e| e >= delim)?;
    let mut start = delim;
    if delim == 3 {
        // TOML drops a newline that directly follows the opening delimiter.
        let rest = raw.get(start..end)?;
        start += if rest.starts_with("\r\n") {
            2
        } else {
            usize::from(rest.starts_with('\n'))
        };
    }
    let body = raw.get(start..end)?;
    if literal {
        return Some((
            body.char_indices().map(|(i, c)| (c, start + i)).collect(),
            end,
        ));
    }
    let mut out = Vec::with_capacity(body.len());
    let mut it = body.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if c != '\\' {
            out.push((c, start + i));
            continue;
        }
        let (_, e) = it.next()?;
        let decoded = match e {
            'b' => '\u{8}',
            't' => '\t',
            'n' => '\n',
            'f' => '\u{c}',
            'r' => '\r',
            'e' => '\u{1b}',
            '"' => '"',
            '\\' => '\\',
            'x' | 'u' | 'U' => {
                let digits = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut v: u32 = 0;
                for _ in 0..digits {
                    let (_, h) = it.next()?;
                    v = v.checked_mul(16)?.checked_add(h.to_digit(16)?)?;
                }
                char::from_u32(v)?
            }
            ' ' | '\t' | '\r' | '\n' if delim == 3 => {
                // A line-ending backslash trims all whitespace and newlines after it.
                while it
                    .peek()
                    .is_some_and(|&(_, w)| matches!(w, ' ' | '\t' | '\r' | '\n'))
                {
                    it.next();
                }
                continue;
            }
            _ => return None,
        };
        out.push((decoded, start + i));
    }
    Some((out, end))
}

#[cfg(test)]
mod tests {
    use super::*;
    fn offsets_of(raw: &str, decoded: &str) -> StringChars {
        let text = format!("k = {raw}");
        string_chars(&text, 4..text.len(), decoded)
    }

    fn offsets(s: &StringChars) -> Vec<usize> {
        s.chars.iter().map(|&(_, o)| o).collect()
    }

    #[test]
    fn literal_multiline_skips_first_newline() {
        let s = offsets_of("'''\nab\ncd'''", "ab\ncd");
        assert!(s.exact);
        assert_eq!(offsets(&s), vec![8, 9, 10, 11, 12]);
        assert_eq!(s.end, 13);
    }

    #[test]
    fn basic_escapes_point_at_their_backslash() {
        let s = offsets_of(r#""a\tb\u00e9c""#, "a\tb\u{e9}c");
        assert!(s.exact);
        assert_eq!(offsets(&s), vec![5, 6, 8, 9, 15]);
    }

    #[test]
    fn line_ending_backslash_is_trimmed() {
        let s = offsets_of("\"\"\"\nab\\\n   cd\"\"\"", "abcd");
        assert!(s.exact);
        assert_eq!(s.chars[2], ('c', 15));
    }

    #[test]
    fn mismatch_falls_back_to_string_start() {
        let s = offsets_of("\"ab\"", "xyz");
        assert!(!s.exact);
        assert!(s.chars.iter().all(|&(_, o)| o == 4));
    }

    #[test]
    fn first_character_is_1_1() {
        assert_eq!(line_col("abc", 0), (1, 1));
        assert_eq!(line_col("", 0), (1, 1));
    }

    #[test]
    fn offsets_after_newlines_start_new_lines() {
        let t = "ab\ncd\n\nef";
        assert_eq!(line_col(t, 1), (1, 2));
        assert_eq!(line_col(t, 2), (1, 3), "the newline ends line 1");
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 6), (3, 1));
        assert_eq!(line_col(t, 8), (4, 2));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let t = "é×x";
        assert_eq!(line_col(t, 4), (1, 3));
        assert_eq!(line_col(t, 1), (1, 1), "inside 'é' reads as 'é'");
    }

    #[test]
    fn index_and_free_function_agree() {
        let t = "ab\né×x\n\nlast line ünïcode\n";
        let ix = LineIndex::new(t);
        for o in 0..=t.len() + 2 {
            assert_eq!(ix.line_col(o), line_col(t, o), "offset {o}");
        }
        let long = format!("{}é{}", "x".repeat(700), "y".repeat(700));
        let ix = LineIndex::new(&long);
        for o in (0..long.len()).step_by(37) {
            assert_eq!(ix.line_col(o), line_col(&long, o), "offset {o}");
        }
    }

    #[test]
    fn json_byte_columns_become_character_columns() {
        let ix = LineIndex::new("{\n  \"é\": x\n");
        assert_eq!(ix.byte_column(2, 9), (2, 8), "é is two bytes, one column");
        assert_eq!(
            ix.byte_column(3, 0),
            (3, 1),
            "the end of the text is column 1"
        );
        assert_eq!(ix.byte_column(1, 0), (1, 1));
    }

    #[test]
    fn only_regular_files_under_the_cap_are_read() {
        let dir = std::env::temp_dir().join(format!("overmind-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let file = dir.join("f.txt");
        std::fs::write(&file, "12345").expect("write");
        assert_eq!(
            read_regular(&file, 5, "a test file").expect("at the cap"),
            b"12345"
        );
        let e = read_regular(&file, 4, "a test file").expect_err("over the cap");
        assert_eq!(e.message, "larger than the 4 bytes a test file may be");
        let e = read_text(&dir).expect_err("a directory");
        assert_eq!(e.message, "not a regular file (a directory)");
        #[cfg(unix)]
        {
            let e = read_text(std::path::Path::new("/dev/zero")).expect_err("a device");
            assert_eq!(e.message, "not a regular file (a character device)");
        }
        assert_eq!(size_name(MAX_MISSION_BYTES), "1 MiB");
        assert_eq!(size_name(64 * 1024), "64 KiB");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(
            escape_controls("a\u{1b}[2J\u{7}\u{9b}\u{7f}é\n\tb"),
            "a\\u{1b}[2J\\u{7}\\u{9b}\\u{7f}é\n\tb"
        );
        assert!(matches!(
            escape_controls("plain é"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert!(has_control("x\u{85}") && has_control("\u{0}") && !has_control("Â…é"));
    }

    #[test]
    fn not_utf8_names_the_first_bad_byte() {
        let e = utf8_text(b"ab\nc\xc3\xa9d\xffe".to_vec()).expect_err("not UTF-8");
        assert_eq!((e.line, e.column), (2, 4));
        assert!(e.message.contains("0xff"), "{}", e.message);
        assert_eq!(utf8_text(b"ok".to_vec()).as_deref(), Ok("ok"));
    }

    #[test]
    fn problems_are_capped_with_a_count() {
        let mut v: Vec<usize> = (0..120).collect();
        cap_problems(&mut v, |first, n| 1000 * first + n);
        assert_eq!(v.len(), MAX_PROBLEMS + 1);
        assert_eq!(v[MAX_PROBLEMS], 50 * 1000 + 70);
        let mut short: Vec<usize> = (0..3).collect();
        cap_problems(&mut short, |_, _| 99);
        assert_eq!(short, vec![0, 1, 2]);
        assert_eq!(more_problems(2), "and 2 more problems");
    }

    #[test]
    fn past_the_end_clamps() {
        assert_eq!(line_col("ab\n", 99), (2, 1));
    }

    #[test]
    fn line_starts() {
        let ix = LineIndex::new("a\nbc\n");
        assert_eq!(ix.line_start(1), Some(0));
        assert_eq!(ix.line_start(2), Some(2));
        assert_eq!(ix.line_start(3), Some(5));
        assert_eq!(ix.line_start(4), None);
        assert_eq!(ix.line_start(0), None);
        assert_eq!(ix.line_count(), 3);
    }
}
