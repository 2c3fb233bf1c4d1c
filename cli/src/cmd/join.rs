//! `overmind join`: play a seat of a served game. With `--json` the seat's stream is written
//! to standard output exactly as the server sends it and each line of standard input is sent
//! as a command; without it the stream is told in words, in lines. A lost connection is opened
//! again with the same token, and the stream starts over from `session`.

use crate::error::CliError;
use crate::human::{Input, Lines};
use crate::net::client::{self, Conn, Got};
use crate::net::{NetError, TAKEN_OVER};
use overmind_core::{Event, Side};
use serde_json::Value;
use std::io::Write as _;
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
    /// Line mode: the stream told in words (the default; the full screen is not offered over
    /// the network yet).
    #[arg(long)]
    pub plain: bool,
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
    let lines = Lines::stdin();
    let mut show = Show::new(args.json);
    loop {
        match pump(&mut ws, &lines, &mut show)? {
            End::Closed(Some((code, reason))) if code == TAKEN_OVER => {
                return Err(CliError::Failed(format!(
                    "the seat was taken: {reason} (the same token from elsewhere)"
                )));
            }
            End::Closed(_) => return Ok(()),
            End::Lost(why) => {
                show.note(&format!("connection lost ({why}); reconnecting"));
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

/// What the player is shown: the JSON lines as they are, or in words.
struct Show {
    json: bool,
    quit_sent: bool,
}

impl Show {
    fn new(json: bool) -> Show {
        Show {
            json,
            quit_sent: false,
        }
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
        if self.json {
            let v = serde_json::json!({"event": "error", "message": message});
            Show::out(&format!("{v}\n"))
        } else {
            Show::out(&format!("error: {message}\n"))
        }
    }

    fn line(&mut self, line: &str) -> Result<(), CliError> {
        if self.json {
            return Show::out(&format!("{line}\n"));
        }
        let text = words(line);
        if text.is_empty() {
            return Ok(());
        }
        Show::out(&overmind_core::source::escape_controls(&text))
    }
}

/// One line of the stream told in words (empty for what is not worth a line).
fn words(line: &str) -> String {
    let Ok(v) = serde_json::from_str::<Value>(line) else {
        return format!("{line}\n");
    };
    let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
    match v["event"].as_str().unwrap_or("") {
        "session" => format!(
            "Mission {}: you play the {} (Heroes: {}, Overmind: {})\n",
            s("mission"),
            s("view"),
            s("heroes"),
            s("overmind")
        ),
        "game_started" => format!("Game started: {}\n", s("mission")),
        "your_turn" => your_turn(&v),
        "decision" => {
            let mut t = format!("{}\n", s("prompt"));
            for (i, o) in v["options"].as_array().into_iter().flatten().enumerate() {
                t.push_str(&format!("  {}. {}\n", i + 1, choice(o)));
            }
            t.push_str("answer with a number> ");
            t
        }
        "error" => match v["suggestion"].as_str() {
            Some(sg) => format!("error: {} (did you mean `{sg}`?)\n", s("message")),
            None => format!("error: {}\n", s("message")),
        },
        "help" | "map" => s("text"),
        "state" => "(the state: type `map` to see the board)\n".into(),
        "history" => v["events"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| words(&e.to_string()))
            .collect(),
        "reload" => format!("{}\n", s("message")),
        "saved" => format!("saved to {}\n", s("path")),
        "undone" => format!("undone: {}\n", s("action")),
        "quit" => format!("left ({})\n", s("reason")),
        "game_summary" => format!(
            "Game over after {} rounds: {}\n",
            v["rounds"],
            v["winner"].as_str().unwrap_or("no winner")
        ),
        _ => match serde_json::from_value::<Event>(v.clone()) {
            Ok(e) => crate::describe::event(&e)
                .map(|t| format!("{t}\n"))
                .unwrap_or_default(),
            Err(_) => String::new(),
        },
    }
}

fn choice(o: &Value) -> String {
    match o {
        Value::String(s) => s.clone(),
        Value::Array(a) if a.len() == 2 && a.iter().all(Value::is_number) => {
            format!("{},{}", a[0], a[1])
        }
        Value::Array(a) => a.iter().map(choice).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

fn your_turn(v: &Value) -> String {
    let mut t = format!("Your turn: round {} of {}", v["round"], v["max_rounds"]);
    if let Some(a) = v["active"].as_str() {
        t.push_str(&format!(
            ", {a} activating ({} actions left)",
            v["actions_left"]
        ));
    }
    t.push_str("\nYou may:\n");
    for g in v["legal"].as_array().into_iter().flatten() {
        let action = g["action"].as_str().unwrap_or("?");
        let who = g["unit"].as_str().or(g["card"].as_str()).unwrap_or("");
        let what = g["to"]
            .as_array()
            .or(g["targets"].as_array())
            .map(|xs| xs.iter().map(choice).collect::<Vec<_>>().join(" "))
            .unwrap_or_default();
        t.push_str(&format!("  {action} {who} {what}\n").replace("  \n", "\n"));
    }
    t.push_str("> ");
    t
}
