//! Input lines are capped (issue 23 k): a line longer than 64 KiB is refused with an error
//! naming the cap, without being held whole, and the session reads on; a long word costs no
//! more than its length. Each game runs under a hang guard: a regression fails instead of
//! hanging (the guard is generous, not a timing assertion).

use crate::common::*;

use expectrl::Expect as _;
use serde_json::Value;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// How long a game may take before it counts as hung.
const GUARD: Duration = Duration::from_secs(60);

/// What the host says of a line over the cap.
const TOO_LONG: &str = "a line may be at most 65536 bytes; this one is longer";

/// `overmind ARGS` fed `input` (then end of input) from a thread, its standard output once it
/// ends; killed, and the test failed, if that takes longer than [`GUARD`].
fn guarded(args: &[&str], input: Vec<u8>) -> String {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env_remove("OVERMIND_BASE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run overmind");
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::spawn(move || {
        // The game may end before it reads everything: a closed pipe is fine.
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        let _ = tx.send(out);
    });
    match rx.recv_timeout(GUARD) {
        Ok(out) => {
            let _ = child.wait();
            String::from_utf8_lossy(&out).into_owned()
        }
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("overmind {args:?} did not finish within {GUARD:?}");
        }
    }
}

/// `head`, then a line of `n` bytes of `x`, then `tail`.
fn with_long_line(head: &str, n: usize, tail: &str) -> Vec<u8> {
    let mut input = head.as_bytes().to_vec();
    input.resize(input.len() + n, b'x');
    input.push(b'\n');
    input.extend_from_slice(tail.as_bytes());
    input
}

#[test]
fn a_30_mb_line_in_json_gets_one_error_naming_the_cap_and_the_next_line_is_answered() {
    let input = with_long_line("", 30 << 20, "status\n");
    let out = guarded(&["play", "--json", "--seed", "11", "--no-watch"], input);
    let events = events(&out);
    let errors = of_kind(&events, "error");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0]["message"], TOO_LONG);
    assert!(errors[0].get("suggestion").is_none(), "{:?}", errors[0]);
    // The line after it is read and answered.
    let at = events.iter().position(|e| e["event"] == "error");
    let state = events.iter().position(|e| e["event"] == "state");
    assert!(
        matches!((at, state), (Some(a), Some(s)) if a < s),
        "{:?}",
        kinds(&events)
    );
    assert_eq!(
        events.last().map(|e| &e["event"]),
        Some(&Value::from("quit"))
    );
}

#[test]
fn a_long_unknown_word_is_answered_with_no_suggestion() {
    // Under the cap: parsed, and refused as a command, with no suggestion for a word of 60 000
    // letters; a near one still gets its suggestion.
    let word = format!("mvoe{}", "e".repeat(60_000));
    let input = format!("{word} 2,14\nmvoe captain 2,14\n");
    let out = guarded(
        &["play", "--json", "--seed", "11", "--no-watch"],
        input.into_bytes(),
    );
    let events = events(&out);
    let errors = of_kind(&events, "error");
    assert_eq!(errors.len(), 2, "{errors:#?}");
    let message = errors[0]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("unknown command `mvoe"),
        "{message:.80}"
    );
    assert!(errors[0].get("suggestion").is_none(), "{:.200}", errors[0]);
    assert_eq!(errors[1]["suggestion"], "move captain 2,14");
}

/// Read the pseudo-terminal until `text` has come, keeping only a tail of what was read (a long
/// line's echo is not searched again and again) and leaving in `tail` what came after `text`;
/// fail past [`GUARD`].
fn await_text(s: &mut expectrl::session::OsSession, tail: &mut Vec<u8>, text: &str) {
    let deadline = Instant::now() + GUARD;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        if let Some(at) = tail.windows(text.len()).position(|w| w == text.as_bytes()) {
            tail.drain(..at + text.len());
            return;
        }
        let keep = tail.len().saturating_sub(text.len());
        tail.drain(..keep);
        assert!(Instant::now() < deadline, "no {text:?} within {GUARD:?}");
        match s.try_read(&mut buf) {
            Ok(0) => panic!(
                "the game ended before {text:?}: {:?}",
                String::from_utf8_lossy(tail)
            ),
            Ok(n) => tail.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => panic!("waiting for {text:?}: {e}"),
        }
    }
}

#[test]
fn a_long_paste_at_the_terminal_in_line_mode_is_refused_and_the_next_line_is_answered() {
    let Some(mut s) = pty(&["play", "--plain", "--seed", "11", "--no-watch"]) else {
        return;
    };
    let tail = &mut Vec::new();
    await_text(&mut s, tail, "heroes> ");
    // A paste, as a terminal delivers it (bracketed), of a line over the cap. rustyline holds a
    // paste whole and lays it out before the host sees it; 1 MiB, as its layout's row count (a
    // `u16`) overflows past about 5 MB at 80 columns, which a debug build's checks turn into a
    // panic (a rustyline limit, not the host's).
    let mut paste = b"\x1b[200~".to_vec();
    paste.resize(paste.len() + (1 << 20), b'x');
    paste.extend_from_slice(b"\x1b[201~\r");
    // rustyline reads the paste whole before it draws anything, so it can be written at once.
    s.write_all(&paste).expect("paste");
    s.flush().expect("paste");
    await_text(&mut s, tail, TOO_LONG);
    await_text(&mut s, tail, "heroes> ");
    s.send("status\r").expect("type");
    await_text(&mut s, tail, "Round 1/15");
    s.send("quit\r").expect("type");
}
