//! Input that forgives (issue 13), at a real pseudo-terminal in line mode: lines pasted at
//! once all run, in order; naming another unit while one is activating with actions left asks
//! first (a typo must not cost the action); Heroes answer to their map numbers.

use crate::common;

use common::*;
use expectrl::session::OsSession;
use expectrl::Expect;

fn spawn(args: &[&str]) -> Option<OsSession> {
    pty(args)
}

fn expect(s: &mut OsSession, text: &str) {
    expect_text(s, text);
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
    expect(&mut s, "Round 1/15");

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
