//! The terminal front end: a person at a keyboard. Line editing and history come from
//! rustyline; the screen is redrawn after what changed, events read as sentences, decisions
//! are numbered menus.

use crate::describe;
use crate::human::{answer_for, capped, Frontend, Input, Lines, Note, MAX_LINE};
use crate::packs::Reload;
use crate::screen;
use crate::session::Session;
use crate::turn::Turn;
use anstyle::{AnsiColor, Color, Style};
use overmind_core::{Decision, Event, Side, View};
use rustyline::error::ReadlineError;
use rustyline::DefaultEditor;
use std::io::Write;
use std::time::Duration;

/// Where lines come from: rustyline on its own thread, or plain lines when it cannot start.
enum Reader {
    Edit(Editing),
    Plain(Lines),
}

/// rustyline on a thread of its own, so that the host can wait for a line with a timeout:
/// while the player thinks, the host polls the script watcher and reports a reload at once
/// (printed above the prompt by rustyline's external printer), and the next line typed runs
/// the new code.
struct Editing {
    prompts: std::sync::mpsc::Sender<String>,
    lines: std::sync::mpsc::Receiver<Input>,
    /// The prompt that is up while its line is not yet read.
    reading: Option<String>,
    /// Lines that came in one read (a paste of several lines), queued in order: each is a
    /// command of its own (or the error for one over the cap).
    queued: std::collections::VecDeque<Input>,
}

impl Editing {
    fn start(mut ed: DefaultEditor) -> Editing {
        let (prompts, asked) = std::sync::mpsc::channel::<String>();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for prompt in asked {
                let input = match ed.readline(&prompt) {
                    Ok(l) => {
                        // A line over the cap is refused (below), not remembered.
                        if !l.trim().is_empty() && l.len() <= MAX_LINE {
                            let _ = ed.add_history_entry(l.as_str());
                        }
                        Input::Line(l)
                    }
                    // Ctrl-C drops the line being typed, as in a shell.
                    Err(ReadlineError::Interrupted) => Input::Line(String::new()),
                    Err(_) => Input::Eof,
                };
                let end = matches!(input, Input::Eof);
                if tx.send(input).is_err() || end {
                    break;
                }
            }
        });
        Editing {
            prompts,
            lines,
            reading: None,
            queued: std::collections::VecDeque::new(),
        }
    }

    /// The next line for `prompt`, waiting at most `wait` (`None`: as long as it takes).
    fn line(&mut self, prompt: &str, wait: Option<Duration>) -> Input {
        if let Some(i) = self.queued.pop_front() {
            return i;
        }
        if self.reading.is_none() {
            if self.prompts.send(prompt.to_string()).is_err() {
                return Input::Eof;
            }
            self.reading = Some(prompt.to_string());
        }
        let got = match wait {
            Some(w) => match self.lines.recv_timeout(w) {
                Ok(i) => Some(i),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return Input::Idle,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => None,
            },
            None => self.lines.recv().ok(),
        };
        self.reading = None;
        match got {
            Some(Input::Line(l)) if l.contains(['\n', '\r']) => {
                self.queued.extend(split_lines(&l).into_iter().map(capped));
                self.queued
                    .pop_front()
                    .unwrap_or(Input::Line(String::new()))
            }
            Some(Input::Line(l)) => capped(l),
            Some(i) => i,
            None => Input::Eof,
        }
    }
}

/// What was typed at the terminal and not yet read (the line editor is not reading): each
/// line, the unfinished one last. Read by switching the terminal to raw mode for a moment,
/// which hands over what it held without waiting; nothing when standard input is no terminal.
fn typed_ahead() -> Vec<String> {
    use crossterm::event::{self, Event as TermEvent, KeyCode, KeyEventKind};
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || crossterm::terminal::enable_raw_mode().is_err() {
        return Vec::new();
    }
    let mut lines = vec![String::new()];
    while matches!(event::poll(Duration::ZERO), Ok(true)) {
        let Ok(e) = event::read() else { break };
        let text = match e {
            TermEvent::Key(k) if k.kind != KeyEventKind::Release => match k.code {
                KeyCode::Enter => "\n".to_string(),
                KeyCode::Char(c) => c.to_string(),
                _ => String::new(),
            },
            TermEvent::Paste(p) => p,
            _ => String::new(),
        };
        for c in text.chars() {
            match c {
                '\n' | '\r' => lines.push(String::new()),
                c => lines.last_mut().map_or((), |l| l.push(c)),
            }
        }
    }
    let _ = crossterm::terminal::disable_raw_mode();
    lines
}

/// The lines of a paste, blank ones dropped (a trailing newline is not a command).
fn split_lines(text: &str) -> Vec<String> {
    let lines: Vec<String> = text
        .split(['\n', '\r'])
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    if lines.is_empty() {
        vec![String::new()]
    } else {
        lines
    }
}

/// The terminal front end.
pub struct Terminal {
    reader: Reader,
    colour: bool,
    /// Whose eyes the screen is for (unless `per_side`).
    view: Side,
    /// Hot-seat without `--view`: each side sees only its own knowledge, as on the full
    /// screen; `at` is the side at the keyboard.
    per_side: bool,
    at: Side,
    broken: bool,
    /// Event lines kept for the next screen, so that what just happened is shown right above
    /// the prompt rather than scrolled away by the map.
    pending: Vec<String>,
    /// Keep event lines for the next screen (a person plays) or print them at once (watching
    /// the AI play itself).
    hold: bool,
    /// How many of the resolving action's events were shown before a decision.
    early: usize,
}

/// Most event lines shown on a screen; `log` shows the rest.
const MAX_HAPPENED: usize = 40;

const ERROR: Style = Style::new()
    .fg_color(Some(Color::Ansi(AnsiColor::BrightRed)))
    .bold();
const NOTE: Style = Style::new().fg_color(Some(Color::Ansi(AnsiColor::BrightYellow)));
const STRONG: Style = Style::new().bold();

impl Terminal {
    /// Line mode for `view`'s eyes; `per_side`: for each side at the keyboard its own.
    #[must_use]
    pub fn new(view: Side, per_side: bool, colour: bool, hold: bool) -> Terminal {
        let reader = match DefaultEditor::new() {
            Ok(e) => Reader::Edit(Editing::start(e)),
            Err(_) => Reader::Plain(Lines::stdin()),
        };
        Terminal {
            reader,
            colour,
            view,
            per_side,
            at: Side::Heroes,
            broken: false,
            pending: Vec::new(),
            hold,
            early: 0,
        }
    }

    /// Whose knowledge the screen shows now.
    fn eyes(&self) -> Side {
        if self.per_side {
            self.at
        } else {
            self.view
        }
    }

    /// A phase began: pasted lines still queued, and whatever was typed ahead at the
    /// terminal, are not carried into it (an `end` meant for the last phase must not end
    /// this one). Piped input is not typed ahead, and is read on.
    fn drop_typed_ahead(&mut self, phase: Side) {
        let mut dropped: Vec<String> = Vec::new();
        if let Reader::Edit(ed) = &mut self.reader {
            for i in ed.queued.drain(..) {
                if let Input::Line(l) = i {
                    dropped.push(l);
                }
            }
        }
        if let Reader::Edit(Editing { reading: None, .. }) = &self.reader {
            dropped.extend(typed_ahead());
        }
        let dropped: Vec<String> = dropped
            .into_iter()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .map(|l| format!("`{l}`"))
            .collect();
        if !dropped.is_empty() {
            let text = format!(
                "not run, typed before the {} phase began: {}",
                describe::title(phase),
                dropped.join(", ")
            );
            let line = format!("  {}\n", self.styled(NOTE, &text));
            self.pending.push(line);
        }
    }

    /// Print the event lines kept so far.
    fn flush(&mut self) {
        if !self.pending.is_empty() {
            let text = std::mem::take(&mut self.pending).concat();
            self.print(&text);
        }
    }

    /// The kept event lines for a screen: the last [`MAX_HAPPENED`], and how many were left out.
    fn happened(&mut self) -> String {
        let lines = std::mem::take(&mut self.pending);
        let skip = lines.len().saturating_sub(MAX_HAPPENED);
        let mut out = String::new();
        if skip > 0 {
            out.push_str(&format!(
                "  ({skip} earlier lines: type `log {}` to see them)\n",
                lines.len()
            ));
        }
        out.push_str(&lines[skip..].concat());
        out
    }

    fn print(&mut self, text: &str) {
        if self.broken {
            return;
        }
        // A prompt is up (a reload while the player thinks): print over its line and draw the
        // prompt again below. (rustyline's external printer garbles the line being edited.)
        let text = match &self.reader {
            Reader::Edit(Editing {
                reading: Some(prompt),
                ..
            }) => format!("\r\x1b[2K{text}{prompt}"),
            _ => text.to_string(),
        };
        let mut out = std::io::stdout().lock();
        if out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            self.broken = true;
        }
    }

    fn styled(&self, style: Style, text: &str) -> String {
        if self.colour {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_string()
        }
    }

    fn line(&mut self, prompt: &str) -> Input {
        self.line_within(prompt, None)
    }

    /// A line for `prompt`, waiting at most `wait` (`None`: as long as it takes).
    fn line_within(&mut self, prompt: &str, wait: Option<Duration>) -> Input {
        match &mut self.reader {
            Reader::Edit(ed) => ed.line(prompt, wait),
            Reader::Plain(lines) => {
                let mut out = std::io::stdout().lock();
                if out
                    .write_all(prompt.as_bytes())
                    .and_then(|()| out.flush())
                    .is_err()
                {
                    self.broken = true;
                }
                lines.wait()
            }
        }
    }

    fn event_lines(&self, events: &[Event]) -> Vec<String> {
        let mut out = Vec::new();
        for e in events {
            let Some(text) = describe::event(e) else {
                continue;
            };
            let strong = matches!(
                e,
                Event::BlipRevealed { .. }
                    | Event::GameOver { .. }
                    | Event::ModelKilled { .. }
                    | Event::BehaviourFailed { .. }
            );
            let text = if strong {
                self.styled(STRONG, &text)
            } else {
                text
            };
            out.push(format!("  {text}\n"));
        }
        // Rolls come with what their faces mean.
        if events.iter().any(|e| matches!(e, Event::Attack { .. })) {
            out.push(format!("  {}\n", describe::DICE_KEY));
        }
        out
    }
}

impl Frontend for Terminal {
    fn started(&mut self, s: &Session) {
        let eyes = if self.per_side {
            "Each side sees only what it may know: the screen is cleared between the sides"
                .to_string()
        } else {
            format!("You see the game as {}", describe::side_name(self.view))
        };
        let text = format!("Type `help` for the commands. {eyes}.\n");
        self.print(&text);
        let lines = self.event_lines(&s.game.log);
        self.pending.extend(lines);
        if !self.hold {
            self.flush();
        }
    }

    fn context(&mut self, so_far: &[Event]) {
        let new = so_far.get(self.early..).unwrap_or_default();
        let lines = self.event_lines(new);
        self.pending.extend(lines);
        self.early = so_far.len();
    }

    fn events(&mut self, _: &Session, events: &[Event]) {
        // Those shown before a decision during the action are not shown again.
        let events = events
            .get(std::mem::take(&mut self.early)..)
            .unwrap_or_default();
        let lines = self.event_lines(events);
        self.pending.extend(lines);
        if let Some(side) = events.iter().rev().find_map(|e| match e {
            Event::PhaseStarted { side } => Some(*side),
            _ => None,
        }) {
            self.drop_typed_ahead(side);
        }
        let over = events.iter().any(|e| matches!(e, Event::GameOver { .. }));
        if over || !self.hold {
            self.flush();
        }
    }

    fn reloads(&mut self, rs: &[Reload]) {
        let mut text = String::new();
        for r in rs {
            let style = if matches!(r, Reload::Failed(_)) {
                ERROR
            } else {
                NOTE
            };
            text.push_str(&self.styled(style, &format!("reload: {r}")));
            text.push('\n');
        }
        self.print(&text);
    }

    fn error(&mut self, message: &str, suggestion: Option<&str>) {
        let message = overmind_core::source::escape_controls(message);
        let mut text = self.styled(ERROR, &format!("error: {message}"));
        if let Some(s) = suggestion {
            text.push_str(&format!("\n  did you mean: {s}"));
        }
        text.push('\n');
        self.print(&text);
    }

    fn game_over(&mut self, summary: &crate::summary::Summary) {
        self.flush();
        let text = self.styled(NOTE, &summary.text());
        self.print(&text);
    }

    fn note(&mut self, kind: Note, text: &str) {
        if kind == Note::Quit {
            self.flush();
        }
        let line = match kind {
            Note::Help => text.to_string(),
            Note::Saved => self.styled(NOTE, &format!("saved to {text}\n")),
            Note::Undone => self.styled(NOTE, &format!("undone: {text}\n")),
            Note::Quit => self.styled(NOTE, &format!("{text}\n")),
        };
        self.print(&line);
    }

    fn turn(&mut self, s: &Session, turn: &Turn) {
        self.at = turn.side;
        let state = s.game.state.view(self.eyes());
        let happened = self.happened();
        let text = screen::turn_screen(&s.shown_name(), &state, turn, &happened, self.colour);
        self.print(&text);
    }

    fn status(&mut self, s: &Session) {
        let state = s.game.state.view(self.eyes());
        let mut text = screen::units(&state, self.colour);
        if let Some(t) = Turn::of(&s.game, s.content()) {
            text.push_str(&t.status_line());
            text.push('\n');
        }
        self.print(&text);
    }

    fn map(&mut self, s: &Session) {
        let state = s.game.state.view(self.eyes());
        let text = format!(
            "{}{}",
            screen::board(&state, self.colour),
            crate::render::key(self.colour, &screen::token_key(&state))
        );
        self.print(&text);
    }

    fn log(&mut self, s: &Session, n: Option<usize>) {
        let log = &s.game.log;
        let from = n.map_or(0, |n| log.len().saturating_sub(n));
        let text = self.event_lines(&log[from..]).concat();
        self.print(&text);
    }

    fn read(&mut self, side: Side, wait: Duration) -> Input {
        self.at = side;
        self.line_within(&format!("{}> ", side.name()), Some(wait))
    }

    fn decide(&mut self, _: View<'_>, d: &Decision) -> usize {
        self.at = d.who;
        // What led to the question comes first.
        self.flush();
        let mut text = format!(
            "Decision for {}: {}\n",
            describe::side_name(d.who),
            d.prompt
        );
        for (i, o) in d.options.iter().enumerate() {
            text.push_str(&format!("  {}) {o}\n", i + 1));
        }
        self.print(&text);
        loop {
            match self.line(&format!("choose 1-{}> ", d.options.len())) {
                Input::Line(l) => match answer_for(&l, &d.options) {
                    Ok(i) => return i,
                    Err(m) => self.error(&m, None),
                },
                Input::Invalid(m) => self.error(&m, None),
                Input::Eof | Input::Idle => return 0,
            }
        }
    }

    fn viewer(&self, side: Side) -> Side {
        if self.per_side {
            side
        } else {
            self.view
        }
    }

    fn colour(&self) -> bool {
        self.colour
    }

    fn confirm(&mut self, side: Side, question: &str) -> bool {
        self.at = side;
        self.flush();
        loop {
            match self.line(&format!("{question} [y/N]> ")) {
                Input::Line(l) => match l.trim().to_ascii_lowercase().as_str() {
                    "y" | "yes" => return true,
                    "" | "n" | "no" => return false,
                    _ => self.error("answer y or n", None),
                },
                Input::Invalid(m) => self.error(&m, None),
                Input::Eof | Input::Idle => return false,
            }
        }
    }

    fn broken(&self) -> bool {
        self.broken
    }
}

#[cfg(test)]
mod tests {
    use super::split_lines;

    #[test]
    fn a_pasted_block_is_one_command_per_line() {
        assert_eq!(
            split_lines("move alpha 1,2\r\nend\n\nstatus\n"),
            ["move alpha 1,2", "end", "status"]
        );
        assert_eq!(split_lines("\n"), [""]);
    }
}
