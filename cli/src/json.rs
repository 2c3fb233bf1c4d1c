//! The machine front end (`--json`, or standard input not a terminal): commands come in line
//! by line, and everything that happens goes out as one JSON object per line with an `"event"`
//! field. Core's events are written as core serialises them; the host adds its own (decision,
//! error, reload, your_turn, …). With the Heroes' view nothing the Heroes may not know is
//! written. The stream is a pure function of mission, packs, seed and input.

use crate::human::{answer_for, Frontend, Input, Lines, Note};
use crate::packs::Reload;
use crate::session::Session;
use crate::turn::Turn;
use overmind_core::decision::DecisionKind;
use overmind_core::{Choice, Decision, Event, GameState, Side, View};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The host's own events.
#[derive(Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum Host<'a> {
    /// `game_started` as the Heroes see it: without the seed, which would let a program
    /// compute what the Blips hold.
    GameStarted {
        mission: &'a str,
    },
    /// Who plays which side, and whose view this stream is.
    Session {
        mission: &'a str,
        heroes: &'a str,
        overmind: &'a str,
        view: &'a str,
    },
    YourTurn(&'a Turn),
    Decision {
        who: Side,
        kind: DecisionKind,
        prompt: &'a str,
        /// Answer with the option's number: 1 for the first.
        options: &'a [Choice],
    },
    Error {
        message: &'a str,
        /// For an action the rules refused, the rule that refused it (`RefusalKind::name`).
        #[serde(skip_serializing_if = "Option::is_none")]
        refusal: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        suggestion: Option<&'a str>,
    },
    Reload {
        path: Option<PathBuf>,
        /// `updated`, `added`, `failed` or `removed`.
        outcome: &'a str,
        message: String,
    },
    State {
        state: &'a GameState,
    },
    Map {
        text: &'a str,
    },
    /// The answer to `log`: past events (`log` itself is core's event for a script's message).
    History {
        events: Vec<serde_json::Value>,
    },
    /// The game is over: result, rounds, losses, kills, each behaviour's use.
    GameSummary {
        #[serde(flatten)]
        summary: &'a crate::summary::Summary,
    },
    Help {
        text: &'a str,
    },
    Saved {
        path: &'a str,
    },
    Undone {
        action: &'a str,
    },
    Quit {
        reason: &'a str,
    },
}

/// The JSON-lines front end.
pub struct Machine {
    out: Box<dyn Write>,
    /// Whose knowledge the stream shows: `Side::Heroes` writes only what the Heroes may know.
    view: Side,
    lines: Option<Lines>,
    broken: bool,
    /// Who controls each side, for the `session` event.
    pub sides: (&'static str, &'static str),
    /// How many of the resolving action's events were written before a decision.
    early: usize,
}

impl Machine {
    #[must_use]
    pub fn new(out: Box<dyn Write>, view: Side, sides: (&'static str, &'static str)) -> Machine {
        Machine {
            out,
            view,
            lines: None,
            broken: false,
            sides,
            early: 0,
        }
    }

    fn lines(&mut self) -> &Lines {
        self.lines.get_or_insert_with(Lines::stdin)
    }

    fn write_all(&mut self, buf: &[u8]) {
        if self.broken {
            return;
        }
        if self
            .out
            .write_all(buf)
            .and_then(|()| self.out.flush())
            .is_err()
        {
            self.broken = true;
        }
    }

    fn host(&mut self, e: &Host<'_>) {
        let mut buf = Vec::new();
        push(&mut buf, e);
        self.write_all(&buf);
    }

    /// An event as this view writes it.
    fn push_event(&self, buf: &mut Vec<u8>, e: &Event) {
        match e {
            Event::GameStarted { mission, .. } if self.view == Side::Heroes => {
                push(buf, &Host::GameStarted { mission });
            }
            _ => push(buf, e),
        }
    }

    /// Write a decision's `decision` event; the answer is read by whoever holds the input (a
    /// network seat reads its own).
    pub fn ask(&mut self, d: &Decision) {
        self.host(&Host::Decision {
            who: d.who,
            kind: d.kind,
            prompt: &d.prompt,
            options: &d.options,
        });
    }

    fn event_value(&self, e: &Event) -> serde_json::Value {
        let mut buf = Vec::new();
        self.push_event(&mut buf, e);
        serde_json::from_slice(&buf).unwrap_or(serde_json::Value::Null)
    }
}

/// One object and a newline. Serialising the host's plain data cannot fail; were it to, the
/// line is left out rather than half written.
fn push<T: Serialize>(buf: &mut Vec<u8>, v: &T) {
    if let Ok(bytes) = serde_json::to_vec(v) {
        buf.extend_from_slice(&bytes);
        buf.push(b'\n');
    }
}

impl Frontend for Machine {
    fn started(&mut self, s: &Session) {
        let view = self.view.name();
        let (heroes, overmind) = self.sides;
        let mut buf = Vec::new();
        push(
            &mut buf,
            &Host::Session {
                mission: &s.mission,
                heroes,
                overmind,
                view,
            },
        );
        for e in &s.game.log {
            self.push_event(&mut buf, e);
        }
        self.write_all(&buf);
    }

    fn context(&mut self, so_far: &[Event]) {
        let mut buf = Vec::new();
        for e in so_far.get(self.early..).unwrap_or_default() {
            self.push_event(&mut buf, e);
        }
        self.write_all(&buf);
        self.early = so_far.len();
    }

    fn events(&mut self, _: &Session, events: &[Event]) {
        // Those written before a decision during the action are not written again.
        let events = events
            .get(std::mem::take(&mut self.early)..)
            .unwrap_or_default();
        let mut buf = Vec::new();
        for e in events {
            self.push_event(&mut buf, e);
        }
        self.write_all(&buf);
    }

    fn reloads(&mut self, rs: &[Reload]) {
        for r in rs {
            let (path, outcome) = reload_parts(r);
            self.host(&Host::Reload {
                path,
                outcome,
                message: r.to_string(),
            });
        }
    }

    fn error(&mut self, message: &str, suggestion: Option<&str>) {
        self.host(&Host::Error {
            message,
            refusal: None,
            suggestion,
        });
    }

    fn refused(&mut self, refusal: &overmind_core::Refusal, suggestion: Option<&str>) {
        self.host(&Host::Error {
            message: &refusal.message,
            refusal: Some(refusal.kind.name()),
            suggestion,
        });
    }

    fn note(&mut self, kind: Note, text: &str) {
        let e = match kind {
            Note::Help => Host::Help { text },
            Note::Saved => Host::Saved { path: text },
            Note::Undone => Host::Undone { action: text },
            Note::Quit => Host::Quit { reason: text },
        };
        self.host(&e);
    }

    fn turn(&mut self, _: &Session, turn: &Turn) {
        self.host(&Host::YourTurn(turn));
    }

    fn status(&mut self, s: &Session) {
        let state = s.game.state.view(self.view);
        self.host(&Host::State { state: &state });
    }

    fn map(&mut self, s: &Session) {
        let text = crate::screen::board(&s.game.state.view(self.view), false);
        self.host(&Host::Map { text: &text });
    }

    fn log(&mut self, s: &Session, n: Option<usize>) {
        let log = &s.game.log;
        let from = n.map_or(0, |n| log.len().saturating_sub(n));
        let events = log[from..].iter().map(|e| self.event_value(e)).collect();
        self.host(&Host::History { events });
    }

    fn read(&mut self, _: Side, wait: Duration) -> Input {
        self.lines().next(wait)
    }

    fn decide(&mut self, _: View<'_>, d: &Decision) -> usize {
        if d.who == Side::Overmind && self.view == Side::Heroes {
            // Never shown to the Heroes; the host refuses a human Overmind with this view.
            return 0;
        }
        self.ask(d);
        loop {
            match self.lines().wait() {
                Input::Line(l) => match answer_for(&l, &d.options) {
                    Ok(i) => return i,
                    Err(m) => self.host(&Host::Error {
                        message: &format!("a decision is waiting: {m}"),
                        refusal: None,
                        suggestion: None,
                    }),
                },
                Input::Invalid(m) => self.host(&Host::Error {
                    message: &format!("a decision is waiting: {m}"),
                    refusal: None,
                    suggestion: None,
                }),
                Input::Eof | Input::Idle => return 0,
            }
        }
    }

    fn viewer(&self, _: Side) -> Side {
        self.view
    }

    fn game_over(&mut self, summary: &crate::summary::Summary) {
        self.host(&Host::GameSummary { summary });
    }

    fn campaign(&mut self, news: &crate::campaign::News) {
        let mut buf = Vec::new();
        push(&mut buf, news);
        self.write_all(&buf);
    }

    fn broken(&self) -> bool {
        self.broken
    }
}

/// The path a reload is about and one word for what happened.
#[must_use]
pub fn reload_parts(r: &Reload) -> (Option<PathBuf>, &'static str) {
    match r {
        Reload::Updated { path, .. } => (Some(path.clone()), "updated"),
        Reload::Added { path, .. } => (Some(path.clone()), "added"),
        Reload::Removed { path, .. } => (Some(path.clone()), "removed"),
        Reload::Failed(p) => (Some(p.path.clone()), "failed"),
        Reload::Ignored => (None, "ignored"),
    }
}
