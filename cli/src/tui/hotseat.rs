//! Hot-seat in line mode: before the other side's screen is printed, the terminal and its
//! scrollback are cleared (ANSI) and the keyboard is handed over with a prompt.

use crate::describe;
use crate::human::{Frontend, Input, Note};
use crate::packs::Reload;
use crate::session::Session;
use crate::turn::Turn;
use overmind_core::{Decision, Event, Side, View};
use std::time::Duration;

/// What the handover screen (and line mode's handover) says.
#[must_use]
pub fn handover_text(to: Side) -> String {
    format!(
        "Pass the keyboard to {} — press Enter",
        describe::side_name(to)
    )
}

/// A line-mode front end with a handover between the two people at it.
pub struct Handover {
    inner: Box<dyn Frontend>,
    /// The side at the keyboard.
    at: Option<Side>,
    /// The input ended during a handover: the host is to stop.
    quit: bool,
}

impl Handover {
    #[must_use]
    pub fn new(inner: Box<dyn Frontend>) -> Handover {
        Handover {
            inner,
            at: None,
            quit: false,
        }
    }

    /// Clear the screen and wait for `side`'s player to press Enter, unless they have it.
    fn hand_to(&mut self, side: Side) {
        let before = self.at.replace(side);
        if self.quit || before.is_none_or(|b| b == side) {
            return;
        }
        // Home, clear the screen, clear the scrollback.
        let text = format!("\x1b[H\x1b[2J\x1b[3J{}\n", handover_text(side));
        self.inner.note(Note::Help, &text);
        loop {
            match self.inner.read(side, Duration::from_secs(1)) {
                Input::Idle => {}
                Input::Eof => {
                    self.quit = true;
                    return;
                }
                Input::Line(_) | Input::Invalid(_) => return,
            }
        }
    }
}

impl Frontend for Handover {
    fn started(&mut self, s: &Session) {
        self.inner.started(s);
    }

    fn events(&mut self, s: &Session, events: &[Event]) {
        self.inner.events(s, events);
    }

    fn reloads(&mut self, rs: &[Reload]) {
        self.inner.reloads(rs);
    }

    fn error(&mut self, message: &str, suggestion: Option<&str>) {
        self.inner.error(message, suggestion);
    }

    fn note(&mut self, kind: Note, text: &str) {
        self.inner.note(kind, text);
    }

    fn turn(&mut self, s: &Session, turn: &Turn) {
        self.hand_to(turn.side);
        if !self.quit {
            self.inner.turn(s, turn);
        }
    }

    fn status(&mut self, s: &Session) {
        self.inner.status(s);
    }

    fn map(&mut self, s: &Session) {
        self.inner.map(s);
    }

    fn log(&mut self, s: &Session, n: Option<usize>) {
        self.inner.log(s, n);
    }

    fn read(&mut self, side: Side, wait: Duration) -> Input {
        self.hand_to(side);
        if self.quit {
            return Input::Eof;
        }
        self.inner.read(side, wait)
    }

    fn decide(&mut self, view: View<'_>, d: &Decision) -> usize {
        self.hand_to(d.who);
        if self.quit {
            // The rules' own fallback; the next read stops the host.
            return 0;
        }
        self.inner.decide(view, d)
    }

    fn broken(&self) -> bool {
        self.inner.broken()
    }

    fn context(&mut self, so_far: &[Event]) {
        self.inner.context(so_far);
    }

    fn viewer(&self, side: Side) -> Side {
        self.inner.viewer(side)
    }

    fn colour(&self) -> bool {
        self.inner.colour()
    }

    fn confirm(&mut self, side: Side, question: &str) -> bool {
        self.inner.confirm(side, question)
    }

    fn game_over(&mut self, summary: &crate::summary::Summary) {
        self.inner.game_over(summary);
    }
}
