//! An interactive game in line mode (`--plain`) in a pseudo-terminal: the real binary with
//! rustyline, typed at like a person would — a typo and its suggestion, moves, Overwatch,
//! history recall with the Up arrow, ending activations and the phase, the Overmind's reply,
//! `status` and `quit`; and hot-seat's handover prompt on a cleared screen. (The full-screen
//! UI's tests are tui.rs.)

use crate::common;

use common::*;
use expectrl::session::OsSession;
use expectrl::{Eof, Expect};

fn spawn(args: &[&str]) -> Option<OsSession> {
    pty(args)
}

fn expect(s: &mut OsSession, text: &str) {
    expect_text(s, text);
}

#[test]
fn a_person_plays_several_activations() {
    let Some(mut s) = spawn(&["play", "--plain", "--seed", "11", "--no-watch"]) else {
        return;
    };
    expect(&mut s, "Type `help` for the commands");
    expect(&mut s, "choose a unit to activate");
    expect(&mut s, "heroes> ");

    s.send_line("mvoe captain 2,14").expect("type");
    expect(&mut s, "unknown command `mvoe`");
    expect(&mut s, "did you mean: move captain 2,14");

    s.send_line("move captain 2,14").expect("type");
    expect(&mut s, "captain moves from 2,17 to 2,14");
    expect(&mut s, "captain is activating: 1 action left; used: move");

    s.send_line("overwatch").expect("type");
    expect(&mut s, "captain sets weak Overwatch");
    expect(&mut s, "captain is done");
    expect(&mut s, "heroes> ");

    // Up arrow: the last line again (`overwatch`, which now names no active unit).
    s.send("\x1b[A").expect("type");
    s.send("\r").expect("type");
    expect(&mut s, "usage: overwatch UNIT");

    s.send_line("move medic 1,15").expect("type");
    expect(&mut s, "medic moves from 1,18 to 1,15");
    s.send_line("end").expect("type");
    expect(&mut s, "medic is done");
    s.send_line("end").expect("type");
    // Three Heroes have not activated: ending the phase asks first.
    expect(&mut s, "heavy, scout, engineer have not activated");
    s.send_line("y").expect("type");
    expect(&mut s, "--- Overmind phase ---");
    expect(&mut s, "=== Round 2 ===");
    expect(&mut s, "heroes> ");

    s.send_line("status").expect("type");
    expect(&mut s, "captain");
    expect(&mut s, "Round 2/15");

    s.send_line("quit").expect("type");
    expect(&mut s, "quit");
    s.expect(Eof).expect("the game ends");
}

#[test]
fn hot_seat_in_line_mode_clears_the_screen_and_hands_over() {
    let Some(mut s) = spawn(&[
        "play",
        "--plain",
        "--seed",
        "11",
        "--no-watch",
        "--heroes",
        "human",
        "--overmind",
        "human",
    ]) else {
        return;
    };
    expect(&mut s, "heroes> ");
    s.send_line("end").expect("type");
    expect(&mut s, "go on? [y/N]> ");
    s.send_line("y").expect("type");
    // Home, clear the screen and the scrollback, then the handover.
    expect(
        &mut s,
        "\x1b[H\x1b[2J\x1b[3JPass the keyboard to the Overmind — press Enter",
    );
    expect(&mut s, "overmind> ");
    s.send_line("").expect("type");
    expect(&mut s, "Overmind phase");
    expect(&mut s, "overmind> ");
    s.send_line("end").expect("type");
    expect(&mut s, "go on? [y/N]> ");
    s.send_line("y").expect("type");
    expect(&mut s, "Pass the keyboard to the Heroes — press Enter");
    s.send_line("").expect("type");
    expect(&mut s, "Round 2/15");
    expect(&mut s, "heroes> ");
    s.send_line("quit").expect("type");
    s.expect(Eof).expect("the game ends");
}
