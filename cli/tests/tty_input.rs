//! Input that forgives (issue 13), at a real pseudo-terminal in line mode: lines pasted at
//! once all run, in order; naming another unit while one is activating with actions left asks
//! first (a typo must not cost the action); Heroes answer to their map numbers.

mod common;

use common::*;
use expectrl::session::OsSession;
use expectrl::{Expect, Session};
use std::process::Command;
use std::time::Duration;

fn spawn(args: &[&str]) -> Option<OsSession> {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env_remove("OVERMIND_BASE");
    match Session::spawn(cmd) {
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

fn expect(s: &mut OsSession, text: &str) {
    if let Err(e) = s.expect(text) {
        panic!("waiting for {text:?}: {e}");
    }
}

#[test]
fn pasted_lines_all_run_and_switching_units_asks_first() {
    let Some(mut s) = spawn(&["play", "--plain", "--seed", "11", "--no-watch"]) else {
        return;
    };
    expect(&mut s, "heroes> ");
    // Two lines in one write, as a paste delivers them.
    s.send("move captain 2,14\rstatus\r").expect("type");
    expect(&mut s, "captain moves from 2,17 to 2,14");
    expect(&mut s, "Round 1/12");

    s.send_line("move medic 1,15").expect("type");
    expect(
        &mut s,
        "ends captain's activation with 1 action left: go on? [y/N]",
    );
    s.send_line("n").expect("type");
    expect(&mut s, "nothing done: the activation goes on");

    // The captain is Hero 1 on the map.
    s.send_line("overwatch 1").expect("type");
    expect(&mut s, "captain sets weak Overwatch");
    // No activation under way now: nothing to ask.
    s.send_line("move medic 1,15").expect("type");
    expect(&mut s, "medic moves from 1,18 to 1,15");
    s.send_line("move captain 2,13").expect("type");
    expect(&mut s, "captain has already activated");
    s.send_line("quit").expect("type");
}
