//! `overmind serve` and `join` (issue 25 item 4) on loopback, with real sockets: a seat's
//! stream is what `play --json` writes for that side, byte for byte; a wrong token, a
//! command for the other side and an oversize message are refused; a second connection takes
//! the seat over; a server killed mid-game and resumed from its journal ends as one that never
//! stopped; `join` plays a seat on the full screen.

use crate::common::*;
use expectrl::Expect as _;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::client::ClientRequestBuilder;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Ws = WebSocket<MaybeTlsStream<TcpStream>>;

/// A guard against a hang, never a measure of speed.
const PATIENCE: Duration = Duration::from_secs(120);

/// A running `overmind serve` and what it printed first.
struct Server {
    child: Child,
    url: String,
    /// The seat lines' tokens: heroes, overmind.
    tokens: [Option<String>; 2],
}

impl Server {
    /// Start `overmind serve ARGS --listen 127.0.0.1:0 --no-watch` (unless ARGS listen), read
    /// its first lines up to the seats'.
    fn start(args: &[&str], seats: usize) -> Server {
        let mut all: Vec<&str> = vec!["serve", "--no-watch"];
        if !args.contains(&"--listen") && !args.contains(&"--resume") {
            all.extend(["--listen", "127.0.0.1:0"]);
        }
        all.extend(args);
        let mut child = Command::new(BIN)
            .args(&all)
            .current_dir(root())
            .env_remove("OVERMIND_BASE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run overmind serve");
        let out = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(out).lines().map_while(Result::ok);
        let first = lines.next().unwrap_or_default();
        let url = first
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("first line: {first}"))
            .to_string();
        let journal = lines.next().unwrap_or_default();
        assert!(journal.starts_with("journal "), "{journal}");
        let mut tokens = [None, None];
        for _ in 0..seats {
            let l = lines.next().unwrap_or_default();
            let words: Vec<&str> = l.split(' ').collect();
            match words[..] {
                ["seat", "heroes", t] => tokens[0] = Some(t.to_string()),
                ["seat", "overmind", t] => tokens[1] = Some(t.to_string()),
                _ => panic!("not a seat line: {l}"),
            }
        }
        // The rest of standard output is not read: the server writes nothing more there.
        std::thread::spawn(move || for _ in lines {});
        Server { child, url, tokens }
    }

    fn token(&self, seat: &str) -> String {
        let i = usize::from(seat == "overmind");
        self.tokens[i].clone().expect("a token for the seat")
    }

    /// Wait for the server to end by itself; its exit status.
    fn wait(&mut self) -> std::process::ExitStatus {
        let until = Instant::now() + PATIENCE;
        loop {
            if let Ok(Some(s)) = self.child.try_wait() {
                return s;
            }
            assert!(Instant::now() < until, "the server did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Open `seat` at `url` with `token` (none: no Authorization header).
fn open(url: &str, seat: &str, token: Option<&str>) -> Result<Ws, tungstenite::Error> {
    let uri: tungstenite::http::Uri = format!("{url}/{seat}").parse().expect("a URI");
    let mut req = ClientRequestBuilder::new(uri);
    if let Some(t) = token {
        req = req.with_header("Authorization", format!("Bearer {t}"));
    }
    let (ws, _) = tungstenite::connect(req)?;
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        let _ = s.set_read_timeout(Some(PATIENCE));
    }
    Ok(ws)
}

fn status_of(e: &tungstenite::Error) -> Option<u16> {
    match e {
        tungstenite::Error::Http(r) => Some(r.status().as_u16()),
        _ => None,
    }
}

/// What reading a seat gave: a line, or the close (its code).
enum Read {
    Line(String),
    Closed(Option<u16>),
}

fn read(ws: &mut Ws) -> Read {
    let mut code = None;
    loop {
        match ws.read() {
            Ok(Message::Text(t)) if code.is_none() => return Read::Line(t.to_string()),
            // Read on, so that the library answers the close and the server sees it done.
            Ok(Message::Close(f)) => code = f.map(|f| u16::from(f.code)),
            Ok(_) => {}
            Err(_) => return Read::Closed(code),
        }
    }
}

/// Read lines until one of kind `kind`; every line read.
fn read_until(ws: &mut Ws, kind: &str) -> Vec<String> {
    let mut got = Vec::new();
    loop {
        match read(ws) {
            Read::Line(l) => {
                let done = kind_of(&l) == kind;
                got.push(l);
                if done {
                    return got;
                }
            }
            Read::Closed(c) => panic!("closed ({c:?}) before {kind}; read {got:#?}"),
        }
    }
}

fn kind_of(line: &str) -> String {
    serde_json::from_str::<Value>(line)
        .ok()
        .and_then(|v| v["event"].as_str().map(String::from))
        .unwrap_or_default()
}

/// A simple player: the first attack it may make, else a move of a unit not yet activated
/// (to the last square offered), else `end`; a decision's first option. A pure function of
/// the line, so it plays the same whoever asks and however often.
fn reply(line: &str) -> Option<String> {
    let v: Value = serde_json::from_str(line).ok()?;
    match v["event"].as_str()? {
        "decision" => Some("1".into()),
        "your_turn" => {
            let legal = v["legal"].as_array()?;
            for g in legal {
                if matches!(g["action"].as_str(), Some("shoot" | "melee")) {
                    if let (Some(u), Some(t)) = (g["unit"].as_str(), g["targets"][0].as_str()) {
                        return Some(format!("{} {u} {t}", g["action"].as_str()?));
                    }
                }
            }
            if v["active"].is_null() {
                for g in legal {
                    if g["action"] == "move" {
                        let to = g["to"].as_array()?.last()?;
                        return Some(format!("move {} {},{}", g["unit"].as_str()?, to[0], to[1]));
                    }
                }
            }
            Some("end".into())
        }
        _ => None,
    }
}

/// Play a seat with [`reply`] until the server closes it (the game is over), or until `stop`
/// says so after a reply was sent. Every line read, and every line sent.
fn play_seat(
    ws: &mut Ws,
    stop: &mut dyn FnMut(usize) -> bool,
) -> (Vec<String>, Vec<String>, Option<u16>) {
    let (mut got, mut sent) = (Vec::new(), Vec::new());
    loop {
        match read(ws) {
            Read::Line(l) => {
                let answer = reply(&l);
                got.push(l);
                if let Some(a) = answer {
                    if ws.send(Message::text(a.clone())).is_err() {
                        return (got, sent, None);
                    }
                    sent.push(a);
                    if stop(sent.len()) {
                        return (got, sent, None);
                    }
                }
            }
            Read::Closed(c) => return (got, sent, c),
        }
    }
}

fn core_events(lines: &[String]) -> Vec<Value> {
    lines
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(crate::common::is_core_event)
        .collect()
}

fn path_in(dir: &Path, name: &str) -> String {
    dir.join(name).to_string_lossy().into_owned()
}

const GAME: &[&str] = &[
    "--mission",
    "small",
    "--seed",
    "7",
    "--overmind-ai",
    "greedy",
];

#[test]
fn a_heroes_seat_plays_a_whole_game_and_sees_what_play_json_shows() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let journal = path_in(dir.path(), "j.json");
    let mut args = GAME.to_vec();
    args.extend(["--save", &journal]);
    let mut server = Server::start(&args, 1);
    let mut ws = open(&server.url, "heroes", Some(&server.token("heroes"))).expect("the seat");
    let (got, sent, close) = play_seat(&mut ws, &mut |_| false);
    assert_eq!(close, Some(1000), "closed when the game is over");
    let kinds: Vec<String> = got.iter().map(|l| kind_of(l)).collect();
    assert!(kinds.contains(&"game_over".to_string()), "{kinds:?}");
    assert_eq!(kinds.last().map(String::as_str), Some("game_summary"));
    assert!(server.wait().success());

    // The same inputs to `play --json --view heroes`: the same bytes.
    let mut local = vec!["play", "--json", "--no-watch", "--view", "heroes"];
    local.extend(GAME);
    let input: String = sent.iter().map(|l| format!("{l}\n")).collect();
    let o = run(&local, &input);
    assert!(o.status.success(), "{}", stderr(&o));
    let want: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(got.len(), want.len(), "as many lines");
    for (i, (a, b)) in got.iter().zip(&want).enumerate() {
        assert_eq!(a, b, "line {i} differs");
    }

    // The journal is a save that replays to the same end.
    let o = run(&["replay", &journal], "");
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn two_seats_each_see_only_their_side() {
    let mut args = GAME.to_vec();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let journal = path_in(dir.path(), "j.json");
    args.extend(["--overmind", "human", "--save", &journal]);
    let mut server = Server::start(&args, 2);
    let mut overmind =
        open(&server.url, "overmind", Some(&server.token("overmind"))).expect("seat");
    let mut heroes = open(&server.url, "heroes", Some(&server.token("heroes"))).expect("seat");

    // A command for the other side is refused by the rules; the seat plays on.
    let first = read_until(&mut heroes, "your_turn");
    assert!(first[0].contains(r#""view":"heroes""#), "{}", first[0]);
    heroes.send(Message::text("move b1 3,3")).expect("sent");
    let refused = read_until(&mut heroes, "error");
    let err: Value = serde_json::from_str(refused.last().expect("a line")).expect("JSON");
    assert_eq!(err["refusal"], "not_yours", "{err}");
    // The prompt still stands: answer it.
    let answer = reply(first.last().expect("your_turn")).expect("a reply");
    heroes.send(Message::text(answer)).expect("sent");

    let o = std::thread::spawn(move || play_seat(&mut overmind, &mut |_| false));
    let (rest, _, hc) = play_seat(&mut heroes, &mut |_| false);
    let h: Vec<String> = first.into_iter().chain(refused).chain(rest).collect();
    let Ok((o, _, oc)) = o.join() else {
        panic!("the Overmind's player failed")
    };
    assert_eq!((hc, oc), (Some(1000), Some(1000)));
    assert!(server.wait().success());

    let parsed = |ls: &[String]| -> Vec<Value> {
        ls.iter()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    };
    let (hv, ov) = (parsed(&h), parsed(&o));
    for v in &hv {
        match v["event"].as_str() {
            Some("your_turn") => assert_eq!(v["side"], "heroes", "{v}"),
            Some("decision") => assert_eq!(v["who"], "heroes", "{v}"),
            Some("game_started") => assert!(v.get("seed").is_none(), "{v}"),
            Some("state") => panic!("nobody asked: {v}"),
            _ => {}
        }
    }
    assert!(
        ov.iter()
            .filter(|v| v["event"] == "your_turn")
            .all(|v| v["side"] == "overmind"),
        "the Overmind's seat is asked only for the Overmind"
    );
    // The Overmind's questions went to its seat alone, some of them in the Heroes' actions.
    let asked: Vec<&Value> = ov.iter().filter(|v| v["event"] == "decision").collect();
    assert!(!asked.is_empty(), "the Overmind was asked something");
    assert!(asked.iter().all(|v| v["who"] == "overmind"), "{asked:?}");
    assert!(ov[0]["view"] == "overmind", "{}", ov[0]);
    // The table's events are the same in both streams, but for the seed.
    let strip = |mut vs: Vec<Value>| {
        for v in &mut vs {
            if v["event"] == "game_started" {
                if let Some(o) = v.as_object_mut() {
                    o.remove("seed");
                }
            }
        }
        vs
    };
    let (hc, oc) = (strip(core_events(&h)), strip(core_events(&o)));
    assert!(hc.iter().any(|v| v["event"] == "game_over"));
    assert_eq!(hc, oc);
}

#[test]
fn wrong_tokens_other_seats_and_oversize_messages_are_refused() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let journal = path_in(dir.path(), "j.json");
    let mut args = GAME.to_vec();
    args.extend(["--save", &journal]);
    let server = Server::start(&args, 1);
    let token = server.token("heroes");
    assert_eq!(token.len(), 32, "{token}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");

    // No seat to serve: refused at once.
    let o = run(&["serve", "--heroes", "ai", "--no-watch"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));

    // Refused in the handshake, before any line of the game.
    let wrong = "0".repeat(32);
    let cases = [
        ("heroes", Some(wrong.as_str()), 401),
        ("heroes", None, 401),
        ("overmind", Some(token.as_str()), 404),
        ("spectator", Some(token.as_str()), 404),
    ];
    for (seat, t, status) in cases {
        match open(&server.url, seat, t) {
            Ok(_) => panic!("{seat} with {t:?} was let in"),
            Err(e) => assert_eq!(status_of(&e), Some(status), "{seat} {t:?}: {e}"),
        }
    }

    // A message over the cap: an error, and the connection is closed as too big.
    let mut ws = open(&server.url, "heroes", Some(&token)).expect("the seat");
    let before = read_until(&mut ws, "your_turn");
    let big = "x".repeat(70 * 1024);
    let _ = ws.send(Message::text(big));
    let mut lines = Vec::new();
    let code = loop {
        match read(&mut ws) {
            Read::Line(l) => lines.push(l),
            Read::Closed(c) => break c,
        }
    };
    assert_eq!(code, Some(1009), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("at most 65538 bytes")),
        "{lines:?}"
    );

    // The seat is still there: a new connection gets the same stream from the start.
    let mut again = open(&server.url, "heroes", Some(&token)).expect("the seat again");
    assert_eq!(read_until(&mut again, "your_turn"), before);
    // A second connection with the token takes the seat over; the first is closed.
    let mut third = open(&server.url, "heroes", Some(&token)).expect("the seat a third time");
    assert_eq!(read_until(&mut third, "your_turn"), before);
    let code = loop {
        match read(&mut again) {
            Read::Line(_) => {}
            Read::Closed(c) => break c,
        }
    };
    assert_eq!(code, Some(4000), "taken over");
}

#[test]
fn a_killed_server_resumes_from_its_journal_and_ends_the_same() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // Uninterrupted.
    let whole = path_in(dir.path(), "whole.json");
    let mut args = GAME.to_vec();
    args.extend(["--save", &whole]);
    let mut server = Server::start(&args, 1);
    let mut ws = open(&server.url, "heroes", Some(&server.token("heroes"))).expect("seat");
    let (want, sent, _) = play_seat(&mut ws, &mut |_| false);
    assert!(server.wait().success());
    assert!(sent.len() > 6, "a real game: {} commands", sent.len());

    // Killed (SIGKILL) after the reply to the k-th command was read, then resumed.
    let cut = path_in(dir.path(), "cut.json");
    let mut args = GAME.to_vec();
    args.extend(["--save", &cut]);
    let mut server = Server::start(&args, 1);
    let token = server.token("heroes");
    let mut ws = open(&server.url, "heroes", Some(&token)).expect("seat");
    let k = sent.len() / 2;
    let (_, _, _) = play_seat(&mut ws, &mut |n| n == k);
    // What the k-th command did is on the wire (and in the journal) once the next prompt is.
    loop {
        match read(&mut ws) {
            Read::Line(l) if reply(&l).is_some() => break,
            Read::Line(_) => {}
            Read::Closed(c) => panic!("closed ({c:?}) mid-game"),
        }
    }
    let _ = server.child.kill();
    let _ = server.child.wait();
    drop(ws);

    let mut resumed = Server::start(&["--resume", &cut], 1);
    assert_eq!(resumed.url, server.url, "the same address");
    assert_eq!(resumed.token("heroes"), token, "the same token");
    let mut ws = open(&resumed.url, "heroes", Some(&token)).expect("seat again");
    let (got, _, close) = play_seat(&mut ws, &mut |_| false);
    assert_eq!(close, Some(1000));
    assert!(resumed.wait().success());

    // The resumed stream starts over with every event so far: the same as the whole game's.
    assert_eq!(core_events(&got), core_events(&want));
    let save = |p: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap_or_default()).expect("a save")
    };
    let (a, b) = (save(&whole), save(&cut));
    assert_eq!(a["records"], b["records"]);
    assert_eq!(a["final"], b["final"]);
}

#[test]
fn join_json_writes_the_stream_play_json_writes() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let journal = path_in(dir.path(), "j.json");
    let mut args = GAME.to_vec();
    args.extend(["--save", &journal]);
    let server = Server::start(&args, 1);
    let input = "status\nmove b1 3,3\nend\nend\n";
    let o = run(
        &[
            "join",
            &server.url,
            "--seat",
            "heroes",
            "--token",
            &server.token("heroes"),
            "--json",
        ],
        input,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut local = vec!["play", "--json", "--no-watch", "--view", "heroes"];
    local.extend(GAME);
    let l = run(&local, input);
    let (got, want) = (stdout(&o), stdout(&l));
    let (got, want): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    // All but the end: the input ended (`play`), the seat left with `quit` (`join`).
    assert_eq!(got.len(), want.len());
    assert_eq!(got[..got.len() - 1], want[..want.len() - 1]);
    assert_eq!(got.last(), Some(&r#"{"event":"quit","reason":"quit"}"#));
    assert_eq!(
        want.last(),
        Some(&r#"{"event":"quit","reason":"end of input"}"#)
    );

    let o = run(
        &[
            "join",
            &server.url,
            "--seat",
            "heroes",
            "--token",
            "nope",
            "--json",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty(), "nothing before the refusal");
    assert!(stderr(&o).contains("401"), "{}", stderr(&o));
}

/// The screen a pseudo-terminal running `overmind ARGS` paints, or `None` (with the reason
/// printed) where the system has none to give.
struct Tty {
    s: expectrl::session::OsSession,
    vt: vt100::Parser,
    ended: bool,
}

impl Tty {
    fn start(args: &[&str]) -> Option<Tty> {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .current_dir(root())
            .env("NO_COLOR", "1")
            .env("TERM", "xterm")
            .env_remove("OVERMIND_BASE");
        let mut s = match expectrl::Session::spawn(cmd) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("skipped: cannot open a pseudo-terminal: {e}");
                return None;
            }
        };
        s.get_process_mut()
            .set_window_size(160, 50)
            .expect("size the terminal");
        let n = |v: u16| std::num::NonZeroU16::new(v).unwrap_or(std::num::NonZeroU16::MIN);
        let vt = vt100::Parser::new(n(50), n(160), 0);
        Some(Tty {
            s,
            vt,
            ended: false,
        })
    }

    fn wait_for(&mut self, what: &str, ok: impl Fn(&str) -> bool) {
        let until = Instant::now() + PATIENCE;
        let mut buf = [0u8; 16384];
        loop {
            loop {
                match self.s.try_read(&mut buf) {
                    Ok(0) => self.ended = true,
                    Ok(n) => {
                        self.vt.process(&buf[..n]);
                        continue;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                    Err(_) => self.ended = true,
                }
                break;
            }
            let text = self.vt.screen().contents();
            if ok(&text) {
                return;
            }
            assert!(
                !self.ended && Instant::now() < until,
                "waiting for {what}; the screen:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_line(&mut self, line: &str) {
        self.s.send(line).expect("type");
        self.s.send("\r").expect("type");
    }
}

#[test]
fn join_plays_a_seat_on_the_full_screen() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let journal = path_in(dir.path(), "j.json");
    let mut args = GAME.to_vec();
    args.extend(["--save", &journal]);
    let server = Server::start(&args, 1);
    let token = server.token("heroes");
    let join = ["join", &server.url, "--seat", "heroes", "--token", &token];
    let Some(mut t) = Tty::start(&join) else {
        return;
    };
    t.wait_for("the first turn", |s| {
        s.contains("alpha") && s.contains("Round 1") && s.contains("heroes> ")
    });
    // A line typed before the phase began on this screen (the stream can still be arriving)
    // is dropped, and the log says so: type it again then.
    let mut refused = false;
    for _ in 0..3 {
        t.type_line("move b1 3,3");
        t.wait_for("the refusal", |s| {
            s.contains("only the Overmind moves Blips") || s.contains("not run, typed before")
        });
        if t.vt
            .screen()
            .contents()
            .contains("only the Overmind moves Blips")
        {
            refused = true;
            break;
        }
    }
    assert!(refused, "{}", t.vt.screen().contents());
    t.type_line("end");
    t.wait_for("the next round or the question", |s| {
        s.contains("Round 2") || s.contains("go on? [y/N]")
    });
    if !t.vt.screen().contents().contains("Round 2") {
        t.type_line("y");
        t.wait_for("the next round", |s| s.contains("Round 2"));
    }
    // Ctrl-C leaves: the seat is free again and the terminal restored.
    t.s.send("\x03").expect("type");
    let until = Instant::now() + PATIENCE;
    let mut buf = [0u8; 16384];
    while !t.ended {
        match t.s.try_read(&mut buf) {
            Ok(0) => t.ended = true,
            Ok(n) => t.vt.process(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                assert!(Instant::now() < until, "join did not leave");
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(_) => t.ended = true,
        }
    }
    assert!(
        !t.vt.screen().alternate_screen(),
        "the terminal is restored"
    );
}

#[test]
fn a_dropped_client_comes_back_with_its_token_and_plays_on() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let journal = path_in(dir.path(), "j.json");
    let mut args = GAME.to_vec();
    args.extend(["--save", &journal]);
    let mut server = Server::start(&args, 1);
    let token = server.token("heroes");
    let mut ws = open(&server.url, "heroes", Some(&token)).expect("seat");
    let (want, sent, _) = play_seat(&mut ws, &mut |_| false);
    assert!(server.wait().success());

    let mut server = Server::start(&args, 1);
    let token = server.token("heroes");
    let mut ws = open(&server.url, "heroes", Some(&token)).expect("seat");
    let k = sent.len() / 3;
    let _ = play_seat(&mut ws, &mut |n| n == k);
    // Gone without a goodbye: the socket is shut under the WebSocket.
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        let _ = s.shutdown(std::net::Shutdown::Both);
    }
    drop(ws);
    let mut ws = open(&server.url, "heroes", Some(&token)).expect("the seat again");
    let (got, _, close) = play_seat(&mut ws, &mut |_| false);
    assert_eq!(close, Some(1000));
    assert!(server.wait().success());
    assert_eq!(got[0], want[0], "the stream starts over from `session`");
    assert_eq!(core_events(&got), core_events(&want));
}
