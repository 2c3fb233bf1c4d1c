//! Byte offsets to `line:column` positions, so every data-file error can point into its file.
//!
//! Lines and columns are 1-based; a column counts characters (Unicode scalar values), not
//! bytes, so a position matches what an editor shows for ASCII and for most other text.

/// Line starts of a text, for many offset lookups without rescanning it.
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset at which each line begins; `starts[0] == 0`.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    #[must_use]
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { text, starts }
    }

    /// The 1-based `(line, column)` of a byte offset. An offset past the end reads as the end
    /// of the text; an offset inside a multi-byte character reads as that character.
    #[must_use]
    pub fn line_col(&self, byte_offset: usize) -> (usize, usize) {
        let offset = byte_offset.min(self.text.len());
        // `starts` is sorted and begins with 0, so the line is the last start <= offset.
        let line = self.starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.starts[line];
        let column = self
            .text
            .get(start..)
            .unwrap_or("")
            .char_indices()
            .take_while(|&(i, c)| start + i + c.len_utf8() <= offset)
            .count();
        // A newline at `offset` is the end of its line, so it keeps that line's number.
        (line + 1, column + 1)
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

/// The 1-based `(line, column)` of a byte offset in `text`. For many lookups in one text, build
/// a [`LineIndex`] once instead.
#[must_use]
pub fn line_col(text: &str, byte_offset: usize) -> (usize, usize) {
    LineIndex::new(text).line_col(byte_offset)
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
