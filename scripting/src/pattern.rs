//! Lua 5.4 pattern matching, ported from `lstrlib.c`, with a step budget.
//!
//! Lua's own matcher is C code: the instruction hook never runs inside it, and backtracking
//! patterns take exponential time (`("a"):rep(1e5):find(".-.-.-.-b")`). This port matches
//! exactly what `lstrlib.c` matches (same classes in the C locale, same captures, same errors)
//! but counts a step for every match attempt and every subject byte it examines, and stops
//! with [`PatternError::Budget`] when the steps exceed the allowance the call has left.

/// Lua's `LUA_MAXCAPTURES`.
pub const MAX_CAPTURES: usize = 32;
/// Lua's `MAXCCALLS` for the matcher: recursion depth before "pattern too complex".
const MAX_MATCH_DEPTH: u32 = 200;
const CAP_UNFINISHED: isize = -1;
const CAP_POSITION: isize = -2;
const SPECIALS: &[u8] = b"^$*+?.([%-";

/// Why a match stopped without an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternError {
    /// A malformed pattern; the message is Lua's.
    Malformed(String),
    /// The step allowance ran out.
    Budget,
}

/// One capture of a successful match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// A substring of the subject, as a byte range.
    Str(usize, usize),
    /// A position capture `()`: a 1-based position.
    Position(usize),
    /// A capture still open at the end of the match (only from a lazy search).
    Unfinished,
}

/// A successful match: the byte range of the whole match and its captures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// Byte offset where the match starts.
    pub start: usize,
    /// Byte offset just past the match.
    pub end: usize,
    /// The captures, or the whole match when asked for and the pattern has none.
    pub captures: Vec<Capture>,
}

/// A matcher over one subject and one pattern.
pub struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    level: usize,
    capture: [(usize, isize); MAX_CAPTURES],
    depth: u32,
    steps: u64,
    allowance: u64,
}

fn malformed<T>(message: impl Into<String>) -> Result<T, PatternError> {
    Err(PatternError::Malformed(message.into()))
}

/// Character classes of the C locale, as `lstrlib.c` sees them.
fn match_class(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c < 32 || c == 127,
        b'd' => c.is_ascii_digit(),
        b'g' => (33..=126).contains(&c),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0,
        _ => return cl == c,
    };
    if cl.is_ascii_lowercase() {
        res
    } else {
        !res
    }
}

/// True when the pattern has none of Lua's special characters (a plain search suffices).
#[must_use]
pub fn no_specials(pat: &[u8]) -> bool {
    !pat.iter().any(|b| SPECIALS.contains(b))
}

impl<'a> Matcher<'a> {
    /// A matcher for `pat` over `src` that may take at most `allowance` steps.
    #[must_use]
    pub fn new(src: &'a [u8], pat: &'a [u8], allowance: u64) -> Self {
        Self {
            src,
            pat,
            level: 0,
            capture: [(0, 0); MAX_CAPTURES],
            depth: MAX_MATCH_DEPTH,
            steps: 0,
            allowance,
        }
    }

    /// Steps taken so far.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    fn step(&mut self, n: u64) -> Result<(), PatternError> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.allowance {
            Err(PatternError::Budget)
        } else {
            Ok(())
        }
    }

    fn pat_at(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    fn src_at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    /// Searches for the first match starting at `init` or later (only at `init` when
    /// `anchored`), skipping a match that ends at `last_end` (gmatch/gsub's rule against
    /// matching the same empty string twice). With `whole`, a pattern without captures
    /// captures the whole match (as `string.match` returns it). With `lazy`, a capture that is
    /// still open when the match ends is returned as [`Capture::Unfinished`] instead of failing
    /// the search (`gsub` with a replacement string only fails if the replacement uses it).
    ///
    /// # Errors
    /// A malformed pattern, or the step allowance running out.
    pub fn search(
        &mut self,
        init: usize,
        anchored: bool,
        last_end: Option<usize>,
        whole: bool,
        lazy: bool,
    ) -> Result<Option<Match>, PatternError> {
        let mut s1 = init;
        loop {
            self.level = 0;
            self.depth = MAX_MATCH_DEPTH;
            self.step(1)?;
            if let Some(end) = self.do_match(s1, 0)? {
                if Some(end) != last_end {
                    let captures = self.captures(s1, end, whole, lazy)?;
                    return Ok(Some(Match {
                        start: s1,
                        end,
                        captures,
                    }));
                }
            }
            if anchored || s1 >= self.src.len() {
                return Ok(None);
            }
            s1 += 1;
        }
    }

    fn captures(
        &self,
        s: usize,
        e: usize,
        whole: bool,
        lazy: bool,
    ) -> Result<Vec<Capture>, PatternError> {
        let n = if self.level == 0 && whole {
            1
        } else {
            self.level
        };
        (0..n)
            .map(|i| match self.one_capture(i, s, e) {
                Err(PatternError::Malformed(_)) if lazy => Ok(Capture::Unfinished),
                other => other,
            })
            .collect()
    }

    fn one_capture(&self, i: usize, s: usize, e: usize) -> Result<Capture, PatternError> {
        if i >= self.level {
            if i != 0 {
                return malformed(format!("invalid capture index %{}", i + 1));
            }
            return Ok(Capture::Str(s, e));
        }
        let (init, len) = self.capture[i];
        match len {
            CAP_UNFINISHED => malformed("unfinished capture"),
            CAP_POSITION => Ok(Capture::Position(init + 1)),
            len => Ok(Capture::Str(init, init + len.unsigned_abs())),
        }
    }

    fn class_end(&self, p: usize) -> Result<usize, PatternError> {
        let plen = self.pat.len();
        let c = self.pat_at(p);
        let mut p = p + 1;
        match c {
            b'%' => {
                if p >= plen {
                    return malformed("malformed pattern (ends with '%')");
                }
                Ok(p + 1)
            }
            b'[' => {
                if self.pat_at(p) == b'^' {
                    p += 1;
                }
                loop {
                    if p >= plen {
                        return malformed("malformed pattern (missing ']')");
                    }
                    let c = self.pat[p];
                    p += 1;
                    if c == b'%' && p < plen {
                        p += 1;
                    }
                    if self.pat_at(p) == b']' {
                        break;
                    }
                }
                Ok(p + 1)
            }
            _ => Ok(p),
        }
    }

    /// `p` is at `[`, `ec` at the closing `]`.
    fn match_bracket_class(&self, c: u8, p: usize, ec: usize) -> bool {
        let mut sig = true;
        let mut p = p;
        if self.pat_at(p + 1) == b'^' {
            sig = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= ec {
                break;
            }
            let pc = self.pat[p];
            if pc == b'%' {
                p += 1;
                if match_class(c, self.pat_at(p)) {
                    return sig;
                }
            } else if self.pat_at(p + 1) == b'-' && p + 2 < ec {
                p += 2;
                if self.pat[p - 2] <= c && c <= self.pat[p] {
                    return sig;
                }
            } else if pc == c {
                return sig;
            }
        }
        !sig
    }

    fn single_match(&self, s: usize, p: usize, ep: usize) -> bool {
        if s >= self.src.len() {
            return false;
        }
        let c = self.src[s];
        match self.pat[p] {
            b'.' => true,
            b'%' => match_class(c, self.pat_at(p + 1)),
            b'[' => self.match_bracket_class(c, p, ep - 1),
            pc => pc == c,
        }
    }

    fn match_balance(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        if p + 1 >= self.pat.len() {
            return malformed("malformed pattern (missing arguments to '%b')");
        }
        if s >= self.src.len() || self.src[s] != self.pat[p] {
            return Ok(None);
        }
        let (open, close) = (self.pat[p], self.pat[p + 1]);
        let mut depth = 1u64;
        let mut s = s;
        loop {
            s += 1;
            if s >= self.src.len() {
                return Ok(None);
            }
            self.step(1)?;
            let c = self.src[s];
            if c == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(Some(s + 1));
                }
            } else if c == open {
                depth += 1;
            }
        }
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>, PatternError> {
        let mut i = 0usize;
        while self.single_match(s + i, p, ep) {
            self.step(1)?;
            i += 1;
        }
        loop {
            if let Some(res) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(res));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    fn min_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>, PatternError> {
        let mut s = s;
        loop {
            if let Some(res) = self.do_match(s, ep + 1)? {
                return Ok(Some(res));
            }
            if self.single_match(s, p, ep) {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(
        &mut self,
        s: usize,
        p: usize,
        what: isize,
    ) -> Result<Option<usize>, PatternError> {
        if self.level >= MAX_CAPTURES {
            return malformed("too many captures");
        }
        self.capture[self.level] = (s, what);
        self.level += 1;
        let res = self.do_match(s, p)?;
        if res.is_none() {
            self.level -= 1;
        }
        Ok(res)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        let Some(l) = (0..self.level)
            .rev()
            .find(|&l| self.capture[l].1 == CAP_UNFINISHED)
        else {
            return malformed("invalid pattern capture");
        };
        let start = self.capture[l].0;
        self.capture[l].1 = isize::try_from(s - start).unwrap_or(isize::MAX);
        let res = self.do_match(s, p)?;
        if res.is_none() {
            self.capture[l].1 = CAP_UNFINISHED;
        }
        Ok(res)
    }

    fn match_capture(&mut self, s: usize, digit: u8) -> Result<Option<usize>, PatternError> {
        let l = usize::from(digit.wrapping_sub(b'1'));
        if digit < b'1' || l >= self.level || self.capture[l].1 == CAP_UNFINISHED {
            return malformed(format!(
                "invalid capture index %{}",
                i32::from(digit) - i32::from(b'0')
            ));
        }
        let (init, len) = self.capture[l];
        let Ok(len) = usize::try_from(len) else {
            // A position capture never matches as a back-reference (Lua compares a huge length).
            return Ok(None);
        };
        self.step(1 + (len as u64) / 8)?;
        if self.src.len() - s >= len && self.src[init..init + len] == self.src[s..s + len] {
            Ok(Some(s + len))
        } else {
            Ok(None)
        }
    }

    fn do_match(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        if self.depth == 0 {
            return malformed("pattern too complex");
        }
        self.depth -= 1;
        self.step(1)?;
        let result = self.match_body(s, p);
        self.depth += 1;
        result
    }

    fn match_body(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        let plen = self.pat.len();
        let (mut s, mut p) = (s, p);
        loop {
            if p == plen {
                return Ok(Some(s));
            }
            let c = self.pat[p];
            let next = self.pat_at(p + 1);
            if c == b'(' {
                return if next == b')' {
                    self.start_capture(s, p + 2, CAP_POSITION)
                } else {
                    self.start_capture(s, p + 1, CAP_UNFINISHED)
                };
            }
            if c == b')' {
                return self.end_capture(s, p + 1);
            }
            if c == b'$' && p + 1 == plen {
                return Ok((s == self.src.len()).then_some(s));
            }
            if c == b'%' && next == b'b' {
                match self.match_balance(s, p + 2)? {
                    Some(ns) => {
                        s = ns;
                        p += 4;
                        continue;
                    }
                    None => return Ok(None),
                }
            }
            if c == b'%' && next == b'f' {
                p += 2;
                if self.pat_at(p) != b'[' {
                    return malformed("missing '[' after '%f' in pattern");
                }
                let ep = self.class_end(p)?;
                let previous = if s == 0 { 0 } else { self.src_at(s - 1) };
                let current = self.src_at(s);
                if !self.match_bracket_class(previous, p, ep - 1)
                    && self.match_bracket_class(current, p, ep - 1)
                {
                    p = ep;
                    continue;
                }
                return Ok(None);
            }
            if c == b'%' && next.is_ascii_digit() {
                match self.match_capture(s, next)? {
                    Some(ns) => {
                        s = ns;
                        p += 2;
                        continue;
                    }
                    None => return Ok(None),
                }
            }
            // A single-character class, with an optional repetition suffix.
            let ep = self.class_end(p)?;
            let suffix = self.pat_at(ep);
            if !self.single_match(s, p, ep) {
                if matches!(suffix, b'*' | b'?' | b'-') {
                    p = ep + 1;
                    continue;
                }
                return Ok(None);
            }
            match suffix {
                b'?' => {
                    if let Some(res) = self.do_match(s + 1, ep + 1)? {
                        return Ok(Some(res));
                    }
                    p = ep + 1;
                }
                b'+' => return self.max_expand(s + 1, p, ep),
                b'*' => return self.max_expand(s, p, ep),
                b'-' => return self.min_expand(s, p, ep),
                _ => {
                    s += 1;
                    p = ep;
                    self.step(1)?;
                }
            }
        }
    }
}

/// A plain substring search from `init`, counting a step per byte examined.
///
/// # Errors
/// [`PatternError::Budget`] when the steps exceed `allowance`.
pub fn plain_find(
    src: &[u8],
    needle: &[u8],
    init: usize,
    allowance: u64,
    steps: &mut u64,
) -> Result<Option<usize>, PatternError> {
    if needle.is_empty() {
        return Ok(Some(init));
    }
    if needle.len() > src.len().saturating_sub(init) {
        return Ok(None);
    }
    let last = src.len() - needle.len();
    let mut at = init;
    while at <= last {
        *steps = steps.saturating_add(1);
        if *steps > allowance {
            return Err(PatternError::Budget);
        }
        if src[at] == needle[0] {
            *steps = steps.saturating_add(needle.len() as u64 / 8);
            if &src[at..at + needle.len()] == needle {
                return Ok(Some(at));
            }
        }
        at += 1;
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(src: &str, pat: &str) -> Option<(usize, usize)> {
        let (pat, anchored) = match pat.strip_prefix('^') {
            Some(rest) => (rest, true),
            None => (pat, false),
        };
        Matcher::new(src.as_bytes(), pat.as_bytes(), u64::MAX)
            .search(0, anchored, None, false, false)
            .ok()
            .flatten()
            .map(|m| (m.start + 1, m.end))
    }

    #[test]
    fn matches_like_lua() {
        assert_eq!(find("hello world", "o w"), Some((5, 7)));
        assert_eq!(find("hello", "l+"), Some((3, 4)));
        assert_eq!(find("hello", "^h.-l"), Some((1, 3)));
        assert_eq!(find("hello", "^e"), None);
        assert_eq!(find("f(a(b)c)d", "%b()"), Some((2, 8)));
        assert_eq!(find("THE (quick) fox", "%f[%a]%a+"), Some((1, 3)));
        assert_eq!(find("abcabc", "(abc)%1"), Some((1, 6)));
        assert_eq!(find("x = 12", "%d+$"), Some((5, 6)));
        assert_eq!(find("[x]", "[%]]"), Some((3, 3)));
        assert_eq!(find("a-b", "[a%-]+"), Some((1, 2)));
    }

    #[test]
    fn captures_and_positions() {
        let m = Matcher::new(b"key = value", b"(%w+)%s*=%s*()(%w+)", u64::MAX)
            .search(0, false, None, false, false)
            .ok()
            .flatten();
        assert_eq!(
            m.map(|m| m.captures),
            Some(vec![
                Capture::Str(0, 3),
                Capture::Position(7),
                Capture::Str(6, 11)
            ])
        );
    }

    #[test]
    fn malformed_patterns_report_lua_messages() {
        let err = |p: &str| {
            Matcher::new(b"abc", p.as_bytes(), u64::MAX).search(0, false, None, false, false)
        };
        assert_eq!(
            err("%"),
            Err(PatternError::Malformed(
                "malformed pattern (ends with '%')".into()
            ))
        );
        assert_eq!(
            err("[a"),
            Err(PatternError::Malformed(
                "malformed pattern (missing ']')".into()
            ))
        );
        assert_eq!(
            err("(a"),
            Err(PatternError::Malformed("unfinished capture".into()))
        );
        assert_eq!(
            err("a)"),
            Err(PatternError::Malformed("invalid pattern capture".into()))
        );
        assert_eq!(
            err("%1"),
            Err(PatternError::Malformed("invalid capture index %1".into()))
        );
    }

    #[test]
    fn pathological_backtracking_runs_out_of_steps() {
        let subject = "a".repeat(100_000);
        let mut m = Matcher::new(subject.as_bytes(), b".-.-.-.-.-.-b", 1_000_000);
        assert_eq!(
            m.search(0, false, None, false, false),
            Err(PatternError::Budget)
        );
        assert!(m.steps() > 1_000_000);
    }
}
