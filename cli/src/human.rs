//! A person (or a program speaking for one) at the host: the [`Frontend`] both the terminal
//! screen and the JSON stream implement, and the [`Controller`] that puts the rules' decisions
//! to it.

use crate::packs::Reload;
use crate::session::Session;
use crate::turn::Turn;
use overmind_core::{
    Choice, Controller, Decision, DecisionKind, Event, GameState, LineOfSight, Pos, Side, View,
};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

/// What reading a line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// A line that could not be read as a command (not UTF-8): what was wrong. The host says
    /// so and reads on.
    Invalid(String),
    /// Nothing came within the wait; the host may reload scripts and ask again.
    Idle,
    /// The input is closed.
    Eof,
}

/// Something said to the player that is not a game event.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Note {
    Help,
    Saved,
    Undone,
    Quit,
}

/// What the host shows and asks. The terminal draws a screen; the JSON stream writes events.
pub trait Frontend {
    /// The game has begun.
    fn started(&mut self, s: &Session);
    /// What an action did.
    fn events(&mut self, s: &Session, events: &[Event]);
    /// Scripts were reloaded.
    fn reloads(&mut self, rs: &[Reload]);
    /// A command was refused or not understood.
    fn error(&mut self, message: &str, suggestion: Option<&str>);
    /// An action the rules refused: the rule that refused it and why.
    fn refused(&mut self, refusal: &overmind_core::Refusal, suggestion: Option<&str>) {
        self.error(&refusal.message, suggestion);
    }
    /// A note: help text, a save, an undo.
    fn note(&mut self, kind: Note, text: &str);
    /// A human side is to act: show the situation.
    fn turn(&mut self, s: &Session, turn: &Turn);
    /// The state as the viewer may see it.
    fn status(&mut self, s: &Session);
    /// The map.
    fn map(&mut self, s: &Session);
    /// The last `n` events of the log (all for `None`).
    fn log(&mut self, s: &Session, n: Option<usize>);
    /// Read a command for `side`, waiting at most `wait` where the input allows.
    fn read(&mut self, side: Side, wait: Duration) -> Input;
    /// Put a decision to the player; the answer is an index into `d.options`.
    fn decide(&mut self, view: View<'_>, d: &Decision) -> usize;
    /// Whether the output is gone (a closed pipe): the host stops.
    fn broken(&self) -> bool;
    /// The action being resolved so far, before a decision it leads to: show what is new
    /// since the last call, and leave it out of the next [`Frontend::events`].
    fn context(&mut self, so_far: &[Event]) {
        let _ = so_far;
    }
    /// Whose knowledge is shown to the player of `side` (what `los` and `reach` may use). The
    /// default is the Heroes', which shows least.
    fn viewer(&self, side: Side) -> Side {
        let _ = side;
        Side::Heroes
    }
    /// Whether the screen takes ANSI colours.
    fn colour(&self) -> bool {
        false
    }
    /// Ask the player to confirm `question` (yes or no). Programs are not asked: the default
    /// says yes.
    fn confirm(&mut self, side: Side, question: &str) -> bool {
        let _ = (side, question);
        true
    }
    /// Between a campaign's missions (docs/RULES.md §16): what carries on, the Resolution
    /// Phase, the campaign's end. Shown as a note by default.
    fn campaign(&mut self, news: &crate::campaign::News) {
        self.note(Note::Help, &news.text());
    }
    /// The game is over: show the summary.
    fn game_over(&mut self, summary: &crate::summary::Summary) {
        let _ = summary;
    }
}

/// The shared front end, as the play loop and the controllers hold it.
pub type Shared = Rc<RefCell<Box<dyn Frontend>>>;

/// Answers a side's decisions by asking the person at the front end.
pub struct Human {
    pub frontend: Shared,
}

impl Controller for Human {
    fn decide(&mut self, view: View<'_>, d: &Decision) -> usize {
        // Asking which of several equal ways to take wastes the player's time: the first.
        if d.kind == DecisionKind::Path && paths_alike(view.state(), d) {
            return 0;
        }
        // The play loop never holds the front end while the rules run, so this borrow is free;
        // were it not, the first option is the rules' own fallback.
        match self.frontend.try_borrow_mut() {
            Ok(mut f) => f.decide(view, d),
            Err(_) => 0,
        }
    }

    fn context(&mut self, so_far: &[Event]) {
        if let Ok(mut f) = self.frontend.try_borrow_mut() {
            f.context(so_far);
        }
    }
}

/// Whether the shortest paths a `path` decision offers differ in nothing the mover could
/// care about, so the first may be taken without asking: no square any of them crosses holds a
/// token (a hazard or item), lies in the sight of a Hero holding an Overwatch token (its range
/// is not known here, so sight alone counts), or is next to a Hero (Free Attacks); nor, for a
/// Blip, is in any Hero's sight (a reveal there). Every input is public, so whether the
/// Overmind is asked tells the Heroes nothing. `via` still picks any other path.
#[must_use]
pub fn paths_alike(state: &GameState, d: &Decision) -> bool {
    let paths: Vec<&Vec<Pos>> = d
        .options
        .iter()
        .filter_map(|o| match o {
            Choice::Path(p) => Some(p),
            _ => None,
        })
        .collect();
    if paths.len() != d.options.len() || paths.is_empty() {
        return false;
    }
    let obstacles = state.compute_obstacles();
    let sees = |a: Pos, b: Pos| state.rules.los.visible(&state.map, &obstacles, a, b);
    let heroes: Vec<(Pos, bool)> = state
        .units
        .iter()
        .filter(|u| u.side == Side::Heroes && !u.extracted)
        .flat_map(|u| u.models.iter().map(move |m| (m.pos, u.overwatch.is_some())))
        .collect();
    let blip = d
        .subject
        .as_deref()
        .is_some_and(|s| state.blip(s).is_some());
    let matters = |p: Pos| {
        state
            .tokens
            .iter()
            .any(|t| t.carried_by.is_none() && t.pos == p)
            || heroes
                .iter()
                .any(|&(h, watching)| h.distance(p) <= 1 || ((watching || blip) && sees(h, p)))
    };
    // Leaving a Hero's side may draw a Free Attack whichever way is taken.
    let start_alone = paths
        .first()
        .and_then(|p| p.first())
        .is_none_or(|&s| heroes.iter().all(|&(h, _)| h.distance(s) > 1));
    start_alone
        && paths.iter().all(|p| {
            let inner = p.len().saturating_sub(1);
            p.iter().take(inner).skip(1).all(|&q| !matters(q))
        })
}

/// Lines of standard input, read on a thread so that the host can wait with a timeout (and
/// reload scripts meanwhile).
pub struct Lines {
    rx: std::sync::mpsc::Receiver<Result<String, String>>,
}

impl Lines {
    /// Start reading standard input.
    #[must_use]
    pub fn stdin() -> Lines {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            read_lines(&mut stdin, |l| tx.send(l).is_ok());
        });
        Lines { rx }
    }

    /// The next line, waiting at most `wait`.
    pub fn next(&self, wait: Duration) -> Input {
        match self.rx.recv_timeout(wait) {
            Ok(Ok(l)) => Input::Line(l),
            Ok(Err(m)) => Input::Invalid(m),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Input::Idle,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Input::Eof,
        }
    }

    /// The next line, however long it takes.
    pub fn wait(&self) -> Input {
        match self.rx.recv() {
            Ok(Ok(l)) => Input::Line(l),
            Ok(Err(m)) => Input::Invalid(m),
            Err(_) => Input::Eof,
        }
    }
}

/// The longest line the host reads, in bytes (without its line ending): 64 KiB, far more than
/// any command or JSON action needs. A longer line is refused with [`too_long`], read no
/// further than the cap (the rest up to its newline is skipped unbuffered), and the host reads
/// on; so nothing a line goes through can take long.
pub const MAX_LINE: usize = 64 * 1024;

/// The error for a line longer than [`MAX_LINE`].
#[must_use]
pub fn too_long() -> String {
    format!("a line may be at most {MAX_LINE} bytes; this one is longer")
}

/// `line` as a command, or the [`too_long`] error: for line editors that hand over a whole
/// line (rustyline, the full-screen prompt).
#[must_use]
pub fn capped(line: String) -> Input {
    if line.len() > MAX_LINE {
        Input::Invalid(too_long())
    } else {
        Input::Line(line)
    }
}

/// Each line of `input` to `send` (without its line ending) until the input ends, fails, or
/// `send` returns false. A line that is not UTF-8 is sent as an error naming the column of its
/// first bad byte, and reading goes on. A line longer than [`MAX_LINE`] is sent as the
/// [`too_long`] error: at most `MAX_LINE` and its line ending are held, the rest is skipped.
pub fn read_lines(
    input: &mut dyn std::io::BufRead,
    mut send: impl FnMut(Result<String, String>) -> bool,
) {
    use std::io::{BufRead as _, Read as _};
    // The cap and a `\r\n`: a line of exactly MAX_LINE bytes still fits with its ending.
    let hold = MAX_LINE as u64 + 2;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut *input).take(hold).read_until(b'\n', &mut line);
        let ended = line.last() == Some(&b'\n');
        match read {
            Ok(0) | Err(_) => break,
            Ok(_) if !ended && line.len() as u64 == hold => {
                if skip_line(input).is_err() || !send(Err(too_long())) {
                    break;
                }
            }
            Ok(_) => {
                while line.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                    line.pop();
                }
                let item = if line.len() > MAX_LINE {
                    Err(too_long())
                } else {
                    overmind_core::source::utf8_text(std::mem::take(&mut line)).map_err(|e| {
                        format!(
                            "this line is not a command: at column {}, {}",
                            e.column, e.message
                        )
                    })
                };
                if !send(item) {
                    break;
                }
            }
        }
    }
}

/// Skip the rest of the line, up to and with its newline, holding nothing of it.
fn skip_line(input: &mut dyn std::io::BufRead) -> std::io::Result<()> {
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

/// Parse a decision answer: the option's number as shown, 1 to `n`.
///
/// # Errors
/// What was expected.
pub fn answer(line: &str, n: usize) -> Result<usize, String> {
    match line.trim().parse::<usize>() {
        Ok(k) if (1..=n).contains(&k) => Ok(k - 1),
        _ => Err(format!(
            "`{}`: answer with the number of an option, 1 to {n}",
            line.trim()
        )),
    }
}

/// Parse a decision answer against its options: the option's number, or, for a `path`
/// decision, the whole path (squares `x,y` separated by spaces or arrows, or a JSON array of
/// `[x, y]` pairs) of one of the options.
///
/// # Errors
/// What was expected.
pub fn answer_for(line: &str, options: &[Choice]) -> Result<usize, String> {
    let n = options.len();
    if let Ok(i) = answer(line, n) {
        return Ok(i);
    }
    if options.iter().any(|o| matches!(o, Choice::Path(_))) {
        if let Some(path) = parse_path(line) {
            return options
                .iter()
                .position(|o| matches!(o, Choice::Path(p) if *p == path))
                .ok_or_else(|| {
                    format!(
                        "`{}` is not one of the {n} paths offered; answer with its number, 1 to {n}",
                        line.trim()
                    )
                });
        }
    }
    answer(line, n)
}

fn parse_path(line: &str) -> Option<Vec<Pos>> {
    let t = line.trim();
    if t.starts_with('[') {
        return serde_json::from_str::<Vec<Pos>>(t).ok();
    }
    let squares: Option<Vec<Pos>> = t
        .split(|c: char| c.is_whitespace() || c == '→' || c == '>')
        .filter(|w| !w.is_empty() && *w != "-")
        .map(|w| {
            let (x, y) = w.split_once(',')?;
            Some(Pos::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
        })
        .collect();
    squares.filter(|s| s.len() >= 2)
}

#[cfg(test)]
mod tests {
    use super::{answer, answer_for, read_lines, too_long, MAX_LINE};
    use overmind_core::{Choice, Pos};

    fn lines_of(input: &[u8]) -> Vec<Result<String, String>> {
        let mut got = Vec::new();
        read_lines(&mut std::io::BufReader::new(input), |l| {
            got.push(l);
            true
        });
        got
    }

    #[test]
    fn a_line_over_the_cap_is_refused_and_reading_goes_on() {
        assert_eq!(
            too_long(),
            "a line may be at most 65536 bytes; this one is longer"
        );
        let at_cap = "a".repeat(MAX_LINE);
        let mut input = Vec::new();
        input.extend_from_slice(b"status\n");
        input.extend(std::iter::repeat_n(b'x', 30 << 20));
        input.extend_from_slice(b"\nmap\r\n");
        input.extend_from_slice(at_cap.as_bytes());
        input.extend_from_slice(b"\r\n");
        input.extend(std::iter::repeat_n(b'y', MAX_LINE + 1));
        input.extend_from_slice(b"\n");
        input.extend(std::iter::repeat_n(b'z', MAX_LINE + 1));
        input.extend_from_slice(b"\r\nend\n");
        input.extend(std::iter::repeat_n(b'w', MAX_LINE + 5));
        assert_eq!(
            lines_of(&input),
            [
                Ok("status".to_string()),
                Err(too_long()),
                Ok("map".to_string()),
                Ok(at_cap),
                Err(too_long()),
                Err(too_long()),
                Ok("end".to_string()),
                Err(too_long()),
            ]
        );
    }

    #[test]
    fn a_path_decision_takes_the_whole_path() {
        let a = vec![Pos::new(0, 0), Pos::new(1, 0), Pos::new(2, 0)];
        let b = vec![Pos::new(0, 0), Pos::new(1, 1), Pos::new(2, 0)];
        let options = vec![Choice::Path(a), Choice::Path(b)];
        assert_eq!(answer_for("2", &options), Ok(1));
        assert_eq!(answer_for("0,0 1,1 2,0", &options), Ok(1));
        assert_eq!(answer_for("0,0 → 1,0 → 2,0", &options), Ok(0));
        assert_eq!(answer_for("[[0,0],[1,1],[2,0]]", &options), Ok(1));
        assert!(answer_for("0,0 0,1 2,0", &options)
            .unwrap_err()
            .contains("not one of the 2 paths"));
    }

    #[test]
    fn answers_are_one_based() {
        assert_eq!(answer("1", 3), Ok(0));
        assert_eq!(answer(" 3 ", 3), Ok(2));
        assert!(answer("0", 3).is_err());
        assert!(answer("4", 3).is_err());
        assert!(answer("two", 3).unwrap_err().contains("1 to 3"));
    }
}
