//! `overmind join`: play a seat of a served game. With `--json` the seat's stream is written
//! to standard output exactly as the server sends it and each line of standard input is sent
//! as a command; without it `play`'s own full-screen or line-mode front end shows a copy of
//! the game kept from the stream. A lost connection is opened again with the same token, and
//! the stream starts over from `session`.

use crate::command::{self, Command, Names};
use crate::error::CliError;
use crate::human::{Frontend, Input, Lines, Note};
use crate::net::client::{self, Conn, Got};
use crate::net::{NetError, TAKEN_OVER};
use crate::packs;
use crate::session::Session;
use crate::summary::Summary;
use crate::turn::Turn;
use overmind_core::ai::{controller, Level};
use overmind_core::{Controllers, Decision, HeroesView, View};
use overmind_core::{Event, Side};
use serde_json::Value;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The server, as `overmind serve` printed it: ws://HOST:PORT.
    #[arg(value_name = "URL")]
    pub url: String,
    /// The seat to play.
    #[arg(long, value_enum)]
    pub seat: SeatArg,
    /// The seat's token, as `overmind serve` printed it.
    #[arg(long, value_name = "TOKEN")]
    pub token: String,
    /// Write the seat's JSON stream and read commands line by line (docs/PROTOCOL.md), as
    /// `play --json` does.
    #[arg(long, conflicts_with = "plain")]
    pub json: bool,
    /// Line mode at a terminal (the screen scrolls) instead of the full-screen UI.
    #[arg(long)]
    pub plain: bool,
    /// An expansion pack the served game uses, loaded after the base pack (repeatable, in
    /// order): the screen takes unit profiles and names from the packs.
    #[arg(long = "pack", value_name = "DIR")]
    pub packs: Vec<PathBuf>,
    /// How long to keep trying to reconnect a lost connection, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub retry: u64,
}

/// A seat on the command line.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum SeatArg {
    Heroes,
    Overmind,
}

/// How often a lost connection is tried again.
const AGAIN: Duration = Duration::from_millis(250);

/// # Errors
/// The server cannot be reached or refused the seat, or the connection was lost for longer
/// than `--retry` (exit 1); the seat was taken by another connection (exit 1).
pub fn run(args: &Args) -> Result<(), CliError> {
    let side = match args.seat {
        SeatArg::Heroes => Side::Heroes,
        SeatArg::Overmind => Side::Overmind,
    };
    let failed = |e: NetError| CliError::Failed(e.to_string());
    let mut ws = client::connect(&args.url, side, &args.token).map_err(failed)?;
    let mut screen = if args.json {
        None
    } else {
        Some(Screen::new(side, args))
    };
    let lines = if args.json {
        Some(Lines::stdin())
    } else {
        None
    };
    let mut show = Show::new();
    loop {
        let end = match (&mut screen, &lines) {
            (Some(sc), _) => sc.pump(&mut ws)?,
            (None, Some(lines)) => pump(&mut ws, lines, &mut show)?,
            (None, None) => return Ok(()),
        };
        match end {
            End::Closed(Some((code, reason))) if code == TAKEN_OVER => {
                return Err(CliError::Failed(format!(
                    "the seat was taken: {reason} (the same token from elsewhere)"
                )));
            }
            End::Closed(_) => return Ok(()),
            // The player left: a connection lost meanwhile is not opened again.
            End::Lost(_) if show.quit_sent || screen.as_ref().is_some_and(|s| s.quit_sent) => {
                return Ok(());
            }
            End::Lost(why) => {
                let note = format!("connection lost ({why}); reconnecting");
                match &mut screen {
                    Some(sc) => sc.front.error(&note, None),
                    None => show.note(&note),
                }
                ws = reconnect(args, side, why)?;
            }
        }
    }
}

/// Open the seat again, for up to `--retry` seconds; a refusal ends it at once.
fn reconnect(args: &Args, side: Side, why: String) -> Result<Conn, CliError> {
    let until = Instant::now() + Duration::from_secs(args.retry);
    let mut last = why;
    while Instant::now() < until {
        match client::connect(&args.url, side, &args.token) {
            Ok(ws) => return Ok(ws),
            Err(e @ NetError::Refused { .. }) => return Err(CliError::Failed(e.to_string())),
            Err(e) => last = e.to_string(),
        }
        std::thread::sleep(AGAIN);
    }
    Err(CliError::Failed(
        NetError::Lost {
            url: args.url.clone(),
            why: last,
        }
        .to_string(),
    ))
}

enum End {
    Closed(Option<(u16, String)>),
    Lost(String),
}

/// Lines both ways until the connection ends. When standard input ends, `quit` is sent: the
/// server answers and closes, and the seat waits for its player to come back.
fn pump(ws: &mut Conn, lines: &Lines, show: &mut Show) -> Result<End, CliError> {
    let mut closing = None;
    loop {
        match lines.next(Duration::ZERO) {
            Input::Line(l) => {
                if let Err(why) = client::send(ws, &l) {
                    return Ok(End::Lost(why));
                }
            }
            Input::Invalid(m) => show.error(&m)?,
            Input::Eof if !show.quit_sent => {
                show.quit_sent = true;
                if let Err(why) = client::send(ws, "quit") {
                    return Ok(End::Lost(why));
                }
            }
            Input::Eof | Input::Idle => {}
        }
        match client::next(ws, &mut closing) {
            Got::Line(l) => show.line(&l)?,
            Got::Idle => {}
            Got::Closed(c) => return Ok(End::Closed(c)),
            Got::Lost(why) => return Ok(End::Lost(why)),
        }
    }
}

/// The JSON lines, as they are.
struct Show {
    quit_sent: bool,
}

impl Show {
    fn new() -> Show {
        Show { quit_sent: false }
    }

    fn out(text: &str) -> Result<(), CliError> {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
        Ok(())
    }

    /// A note of the client's own (a reconnection): standard error, so that the JSON stream
    /// holds only the server's lines.
    fn note(&self, text: &str) {
        let _ = writeln!(std::io::stderr().lock(), "{text}");
    }

    fn error(&self, message: &str) -> Result<(), CliError> {
        let v = serde_json::json!({"event": "error", "message": message});
        Show::out(&format!("{v}\n"))
    }

    fn line(&mut self, line: &str) -> Result<(), CliError> {
        Show::out(&format!("{line}\n"))
    }
}

/// `play`'s front end on a copy of the game kept from the seat's stream: the state from
/// `state` (asked for with `status` at each turn), the log from the events.
struct Screen {
    side: Side,
    front: Box<dyn Frontend>,
    packs: Vec<PathBuf>,
    /// The copy: local packs, the server's state and events.
    copy: Option<Session>,
    /// A `your_turn` shown once the state it goes with has come.
    turn: Option<Turn>,
    /// `status` commands sent by this client, whose `state` is not the player's to see.
    asked: usize,
    decision: Option<Decision>,
    quit_sent: bool,
    /// Events already shown, when the stream starts over after a reconnection: those come
    /// again and go to the copy only.
    shown: usize,
}

impl Screen {
    fn new(side: Side, args: &Args) -> Screen {
        let person = true;
        let front = crate::tui::frontend(side, false, false, person, args.plain);
        Screen {
            side,
            front,
            packs: args.packs.clone(),
            copy: None,
            turn: None,
            asked: 0,
            decision: None,
            quit_sent: false,
            shown: 0,
        }
    }

    /// The copy of the game for the mission the server named: its map and units come from the
    /// server's `state`; the packs give profiles and names.
    fn start(&mut self, mission: &str) -> Result<(), CliError> {
        let dirs = packs::dirs(&self.packs);
        let ctl = || Controllers::new(controller(Level::Greedy), controller(Level::Greedy));
        // The server's mission file may not be here: the state replaces the board anyway.
        let mut copy = match Session::start(dirs.clone(), mission, 0, ctl()) {
            Ok(s) => s,
            Err(_) => Session::start(dirs, "demo", 0, ctl())?,
        };
        copy.game.state = copy.game.state.view(self.side);
        copy.game.log.clear();
        self.front.started(&copy);
        self.copy = Some(copy);
        Ok(())
    }

    fn send(ws: &mut Conn, line: &str) -> Result<(), End> {
        client::send(ws, line).map_err(End::Lost)
    }

    /// One line of the stream.
    fn line(&mut self, ws: &mut Conn, line: &str) -> Result<Option<End>, CliError> {
        let Ok(mut v) = serde_json::from_str::<Value>(line) else {
            return Ok(None);
        };
        let kind = v["event"].as_str().unwrap_or("").to_string();
        let text = |k: &str| v[k].as_str().unwrap_or("").to_string();
        if kind == "session" {
            // The first line of a stream, or of one starting over after a reconnection.
            self.turn = None;
            self.decision = None;
            self.asked = 0;
            return match &mut self.copy {
                Some(c) => {
                    self.shown = c.game.log.len();
                    c.game.log.clear();
                    Ok(None)
                }
                None => self.start(&text("mission")).map(|()| None),
            };
        }
        let Some(copy) = self.copy.as_mut() else {
            return Ok(None);
        };
        match kind.as_str() {
            "your_turn" => {
                if let Ok(t) = serde_json::from_value::<Turn>(v) {
                    self.turn = Some(t);
                    self.asked += 1;
                    if let Err(e) = Screen::send(ws, "status") {
                        return Ok(Some(e));
                    }
                }
            }
            "state" => {
                if let Ok(st) = serde_json::from_value(v["state"].take()) {
                    copy.game.state = st;
                }
                if self.asked > 0 {
                    self.asked -= 1;
                    if let Some(t) = self.turn.take() {
                        self.front.turn(copy, &t);
                    }
                } else {
                    self.front.status(copy);
                }
            }
            "decision" => self.decision = serde_json::from_value(v).ok(),
            "error" => self.front.error(&text("message"), v["suggestion"].as_str()),
            "help" | "map" | "reload" => {
                let t = if kind == "reload" {
                    text("message")
                } else {
                    text("text")
                };
                self.front.note(Note::Help, &t);
            }
            "history" => {
                let n = v["events"].as_array().map_or(0, Vec::len);
                self.front.log(copy, Some(n));
            }
            "undone" => self.front.note(Note::Undone, &text("action")),
            "saved" => self.front.note(Note::Saved, &text("path")),
            "quit" => self.front.note(Note::Quit, &text("reason")),
            "game_summary" => {
                if let Ok(summary) = serde_json::from_value::<Summary>(v) {
                    self.front.game_over(&summary);
                }
            }
            _ => {
                // The Heroes' game_started has no seed: the copy needs none.
                if kind == "game_started" && v.get("seed").is_none() {
                    v["seed"] = Value::from(0);
                }
                if let Ok(e) = serde_json::from_value::<Event>(v) {
                    copy.game.log.push(e.clone());
                    if copy.game.log.len() > self.shown {
                        self.front.events(copy, &[e]);
                    }
                }
            }
        }
        Ok(None)
    }

    /// The stream in and the player's commands out until the connection ends.
    fn pump(&mut self, ws: &mut Conn) -> Result<End, CliError> {
        let mut closing = None;
        loop {
            loop {
                match client::next(ws, &mut closing) {
                    Got::Line(l) => {
                        if let Some(end) = self.line(ws, &l)? {
                            return Ok(end);
                        }
                    }
                    Got::Idle => break,
                    Got::Closed(c) => return Ok(End::Closed(c)),
                    Got::Lost(why) => return Ok(End::Lost(why)),
                }
            }
            let Some(copy) = self.copy.as_ref() else {
                continue;
            };
            if let Some(d) = self.decision.take() {
                let state = &copy.game.state;
                let heroes;
                let view = match self.side {
                    Side::Heroes => {
                        heroes = HeroesView::of(state);
                        View::Heroes(&heroes)
                    }
                    Side::Overmind => View::Overmind(state),
                };
                let i = self.front.decide(view, &d);
                if let Err(e) = Screen::send(ws, &(i + 1).to_string()) {
                    return Ok(e);
                }
                continue;
            }
            if self.quit_sent {
                // Leaving: nothing more is sent; the server's close ends it.
                std::thread::sleep(client::TICK);
                continue;
            }
            match self.front.read(self.side, crate::cmd::play::POLL) {
                Input::Line(l)
                    if matches!(command::parse(&l, &Names::default()), Ok(Command::Quit)) =>
                {
                    // The player leaves now, not on the seat's next turn: the connection is
                    // closed, and the server keeps the seat for them.
                    self.quit_sent = true;
                    let _ = ws.close(None);
                }
                Input::Line(l) => {
                    if let Err(e) = Screen::send(ws, &l) {
                        return Ok(e);
                    }
                }
                Input::Invalid(m) => self.front.error(&m, None),
                Input::Eof => {
                    self.quit_sent = true;
                    let _ = ws.close(None);
                }
                Input::Idle => {}
            }
        }
    }
}
