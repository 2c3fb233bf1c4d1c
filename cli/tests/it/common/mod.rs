//! Shared helpers of the CLI's end-to-end tests: run the built binary from the workspace root
//! (so it finds the base pack as `behaviours/`), feed it input, read its JSON lines.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_overmind");

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Run `overmind` in `dir` with `input` on standard input.
pub fn run_in(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("OVERMIND_BASE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run overmind");
    if let Some(mut stdin) = child.stdin.take() {
        // The game may end before it reads everything: a closed pipe is fine.
        let _ = stdin.write_all(input.as_bytes());
    }
    child.wait_with_output().expect("wait for overmind")
}

/// Run `overmind` from the workspace root.
pub fn run(args: &[&str], input: &str) -> Output {
    run_in(&root(), args, input)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every line of a JSON stream, parsed; panics on a line that is not one JSON object with an
/// `event` field.
pub fn events(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let v: Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"));
            assert!(
                v.get("event").and_then(Value::as_str).is_some(),
                "no event field: {l}"
            );
            v
        })
        .collect()
}

/// The `event` field of each event.
pub fn kinds(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| e.get("event").and_then(Value::as_str))
        .collect()
}

/// The events of one kind.
pub fn of_kind<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["event"] == kind).collect()
}

/// An AI-against-AI game's arguments.
pub fn ai_game(seed: u64, view: &str) -> Vec<String> {
    [
        "play",
        "--json",
        "--no-watch",
        "--heroes",
        "ai",
        "--overmind",
        "ai",
        "--view",
        view,
        "--seed",
    ]
    .iter()
    .map(ToString::to_string)
    .chain([seed.to_string()])
    .collect()
}

pub fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Copy the directory `from` (a pack) to `to`, recursively: tests edit the copy.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir").flatten() {
        let (p, target) = (e.path(), to.join(e.file_name()));
        if p.is_dir() {
            copy_dir(&p, &target);
        } else {
            std::fs::copy(&p, &target).expect("copy");
        }
    }
}

/// A running `overmind play --json`, driven line by line.
pub struct Driver {
    pub child: Child,
    lines: Receiver<Value>,
    /// Every event read so far.
    pub seen: Vec<Value>,
}

impl Driver {
    /// Start `overmind ARGS` in `dir`.
    pub fn start(dir: &Path, args: &[&str]) -> Driver {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(dir)
            .env_remove("OVERMIND_BASE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run overmind");
        let out = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                let v: Value =
                    serde_json::from_str(&l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Driver {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Send one line. A game that has ended reads no more; what it wrote says so.
    pub fn send(&mut self, line: &str) {
        if let Some(stdin) = self.child.stdin.as_mut() {
            let _ = writeln!(stdin, "{line}");
        }
    }

    /// Wait for the first event (not yet waited past) that `pred` accepts.
    pub fn wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(v) => {
                    self.seen.push(v.clone());
                    if pred(&v) {
                        return v;
                    }
                }
                Err(_) => panic!("no {what} within 30 s; saw:\n{:#?}", self.seen),
            }
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The binary in a new pseudo-terminal (from the workspace root, no colours, an `xterm`), or
/// `None` (with the reason printed) where the system has none to give.
pub fn pty(args: &[&str]) -> Option<expectrl::session::OsSession> {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env_remove("OVERMIND_BASE");
    match expectrl::Session::spawn(cmd) {
        Ok(mut s) => {
            s.set_expect_timeout(Some(Duration::from_secs(60)));
            Some(s)
        }
        Err(e) => {
            eprintln!("skipped: cannot open a pseudo-terminal: {e}");
            None
        }
    }
}

/// Wait for `text` on a pseudo-terminal, or fail naming it.
pub fn expect_text(s: &mut expectrl::session::OsSession, text: &str) {
    use expectrl::Expect as _;
    if let Err(e) = s.expect(text) {
        panic!("waiting for {text:?}: {e}");
    }
}

/// Keys that describe what a Blip holds.
pub const SECRET_KEYS: &[&str] = &["type", "decoy", "holds", "contents", "size", "leader"];

/// Whether `v` (anywhere inside) describes the contents of Blip `blip`: an object naming the
/// Blip or one of its models and carrying a secret key.
pub fn describes(v: &Value, blip: &str) -> bool {
    match v {
        Value::Object(m) => {
            let names = ["blip", "unit", "id", "model"].iter().any(|k| {
                m.get(*k).and_then(Value::as_str).is_some_and(|s| {
                    s == blip || s.strip_prefix(blip).is_some_and(|r| r.starts_with('.'))
                })
            });
            (names && SECRET_KEYS.iter().any(|k| m.contains_key(*k)))
                || m.values().any(|x| describes(x, blip))
        }
        Value::Array(a) => a.iter().any(|x| describes(x, blip)),
        _ => false,
    }
}

/// The host's own JSON events (docs/PROTOCOL.md); every other event in a stream is one of
/// core's.
pub const HOST_EVENTS: &[&str] = &[
    "session",
    "your_turn",
    "decision",
    "error",
    "reload",
    "state",
    "map",
    "history",
    "help",
    "saved",
    "undone",
    "quit",
    "game_summary",
];

/// Whether a JSON line of a stream is one of core's events rather than the host's.
pub fn is_core_event(v: &serde_json::Value) -> bool {
    !HOST_EVENTS.contains(&v["event"].as_str().unwrap_or(""))
}
