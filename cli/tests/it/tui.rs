//! The full-screen UI through a pseudo-terminal: the real binary, its output fed to a terminal
//! emulator (vt100) so that the tests read the screen a person would see — the map and the
//! log on screen, a move redrawing the map, a resize redrawing the layout, hot reload reported
//! at once, Ctrl-C leaving (and saving) with the terminal restored, and a hot-seat game whose
//! Heroes never see what a face-down Blip holds, with handover screens between the sides.

use crate::common;

use common::*;
use expectrl::session::OsSession;
use expectrl::{Expect, Session};
use std::num::NonZeroU16;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The longest any one wait may take before the test fails: a bound, not a measurement.
const PATIENCE: Duration = Duration::from_secs(60);

/// The demo's alien types: the words that would say what a Blip holds (cli_leak.rs's
/// `type`), with `decoy` and `holds`.
const SECRETS: &[&str] = &["dread", "spitter", "stalker", "warden", "decoy", "holds"];

/// A game in a pseudo-terminal and the screen its output paints.
struct Screen {
    s: OsSession,
    vt: vt100::Parser,
    /// The program's output has ended.
    ended: bool,
}

fn size(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).unwrap_or(NonZeroU16::MIN)
}

impl Screen {
    /// `overmind ARGS` in `dir` in a pseudo-terminal of `cols`×`rows`, or `None` (with the
    /// reason printed) where the system has none to give.
    fn start(dir: &Path, args: &[&str], cols: u16, rows: u16) -> Option<Screen> {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .env("TERM", "xterm")
            .env_remove("OVERMIND_BASE");
        let mut s = match Session::spawn(cmd) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("skipped: cannot open a pseudo-terminal: {e}");
                return None;
            }
        };
        s.get_process_mut()
            .set_window_size(cols, rows)
            .expect("size the terminal");
        Some(Screen {
            s,
            vt: vt100::Parser::new(size(rows), size(cols), 0),
            ended: false,
        })
    }

    /// Feed everything the program has written so far to the emulator.
    fn pump(&mut self) {
        let mut buf = [0u8; 16384];
        loop {
            match self.s.try_read(&mut buf) {
                Ok(0) => {
                    self.ended = true;
                    return;
                }
                Ok(n) => self.vt.process(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                // The pty's other end closed (EIO on Linux): the program has exited.
                Err(_) => {
                    self.ended = true;
                    return;
                }
            }
        }
    }

    /// The screen's text, row by row.
    fn text(&self) -> String {
        self.vt.screen().contents()
    }

    fn rows(&self) -> Vec<String> {
        let (_, cols) = self.vt.screen().size();
        self.vt.screen().rows(0, cols.get()).collect()
    }

    /// Wait until the screen satisfies `ok`; the screen then.
    fn wait(&mut self, what: &str, ok: impl Fn(&Screen) -> bool) -> String {
        let start = Instant::now();
        loop {
            self.pump();
            if ok(self) {
                return self.text();
            }
            if self.ended || start.elapsed() > PATIENCE {
                panic!(
                    "waiting for {what} ({}); the screen:\n{}",
                    if self.ended {
                        "the program ended"
                    } else {
                        "timed out"
                    },
                    self.text()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn wait_for(&mut self, text: &str) -> String {
        self.wait(&format!("{text:?}"), |s| s.text().contains(text))
    }

    fn type_line(&mut self, line: &str) {
        self.s.send(line).expect("type");
        self.s.send("\r").expect("type");
    }

    /// Resize the terminal: the emulator first, so the redraw lands on the new size.
    fn resize(&mut self, cols: u16, rows: u16) {
        self.pump();
        self.vt.screen_mut().set_size(size(rows), size(cols));
        self.s
            .get_process_mut()
            .set_window_size(cols, rows)
            .expect("resize the terminal");
    }

    /// Wait for the program to exit; the normal screen must be back.
    fn wait_exit(&mut self) {
        self.wait("the program to exit", |s| s.ended);
        assert!(
            !self.vt.screen().alternate_screen(),
            "the alternate screen was left on"
        );
    }
}

fn demo(args: &[&str]) -> Option<Screen> {
    Screen::start(&root(), args, 160, 50)
}

/// The row of the screen that starts the map's row `y` (`17 |. . 1 …`, ` 3 |…`).
fn map_row(rows: &[String], y: u32) -> String {
    let label = format!("{y} |");
    rows.iter()
        .find(|r| r.trim_start().starts_with(&label))
        .cloned()
        .unwrap_or_default()
}

#[test]
fn the_map_and_the_log_stay_on_screen_and_a_move_redraws_the_map() {
    let Some(mut s) = demo(&["play", "--seed", "11", "--no-watch"]) else {
        return;
    };
    s.wait_for("heroes> ");
    let t = s.text();
    assert!(t.contains("Log · PgUp/PgDn"), "{t}");
    assert!(t.contains("--- Heroes phase ---"), "{t}");
    assert!(t.contains("Key: "), "the map's key: {t}");
    // The captain (1) at 2,17 is selected: its panel shows its stats and status.
    assert!(t.contains("1 captain"), "{t}");
    for stat in [
        "Movement 4",
        "Melee CV",
        "Defence",
        "Health 8/8",
        "Shoot: CV",
    ] {
        assert!(t.contains(stat), "{stat}: {t}");
    }
    assert!(t.contains("Not yet activated this round: 2 actions"), "{t}");
    assert!(t.contains("You may"), "{t}");
    // Issue 25: XP says what it is; the Tokens line wraps rather than being cut, and the
    // map's key names every token symbol.
    assert!(
        t.contains("XP 0 (experience: a Hero gains 1 per kill)"),
        "{t}"
    );
    assert!(t.contains("t8 terminal at 15,3"), "{t}");
    assert!(t.contains("{ terminal"), "{t}");
    let rows = s.rows();
    assert!(map_row(&rows, 17).starts_with("17 |. . 1 . ."), "{rows:#?}");
    assert!(map_row(&rows, 14).starts_with("14 |. . . . ."), "{rows:#?}");

    s.type_line("move captain 2,14");
    s.wait_for("captain moves from 2,17 to 2,14");
    s.wait("the map to show the move", |s| {
        let rows = s.rows();
        map_row(&rows, 14).starts_with("14 |. . 1 . .")
            && map_row(&rows, 17).starts_with("17 |. . . . .")
    });
    let t = s.wait_for("Activating: 1 action left (used: move)");
    // The map stayed: it was not pushed off the screen by the log.
    assert!(
        t.contains("Key: ") && t.contains("0 1 2 3 4 5 6 7 8 9"),
        "{t}"
    );

    // A typo is answered in the log, and the prompt is back.
    s.type_line("mvoe 2,13");
    s.wait_for("unknown command `mvoe`");

    s.type_line("quit");
    s.wait_exit();
    // The end of the game is left on the normal screen.
    assert!(s.text().contains("quit"), "{}", s.text());
}

#[test]
fn a_resize_redraws_the_layout_at_the_new_size() {
    let Some(mut s) = demo(&["play", "--seed", "11", "--no-watch"]) else {
        return;
    };
    s.wait_for("heroes> ");
    // 160×50: the panels beside the whole map, the roster among them.
    let rows = s.rows();
    assert!(rows[0].contains("Round 1/15"), "{rows:#?}");
    assert!(s.text().contains("Units · Tab selects"), "{}", s.text());
    assert!(
        rows.iter()
            .any(|r| r.starts_with(" 0 |") && r.contains('│')),
        "panels beside the map's first row: {rows:#?}"
    );
    assert!(map_row(&rows, 0).len() > 44 && !map_row(&rows, 19).is_empty());

    // 70×30: the panels go below a map scrolled to the selected captain (at 2,17). (From 75
    // columns, the demo's map and the panels sit side by side: see the 80×24 test.)
    s.resize(70, 30);
    s.wait("the narrow layout", |s| {
        let rows = s.rows();
        let t = s.text();
        // The panel's box now starts at the left edge, under the map.
        rows.iter().any(|r| r.starts_with("┌1 captain"))
            && rows[29].starts_with("heroes> ")
            && rows[28].contains("Round 1/15")
            && !t.contains("Units · Tab selects")
            && !map_row(&rows, 17).is_empty()
            && map_row(&rows, 0).is_empty()
    });
    let rows = s.rows();
    assert!(
        !rows
            .iter()
            .any(|r| r.starts_with("17 |") && r.contains('│')),
        "nothing beside the map: {rows:#?}"
    );
    assert!(s.text().contains("Log · PgUp/PgDn"));

    // Back to a big terminal: everything beside the map again.
    s.resize(150, 48);
    s.wait("the wide layout", |s| {
        let rows = s.rows();
        rows.len() == 48
            && rows[47].starts_with("heroes> ")
            && s.text().contains("Units · Tab selects")
            && !map_row(&rows, 0).is_empty()
    });

    // Too small to play in: it says so, and it comes back.
    s.resize(38, 12);
    s.wait_for("Make the terminal at least 40×16");
    s.resize(100, 40);
    s.wait("the game again", |s| {
        s.rows().len() == 40 && s.text().contains("heroes> ")
    });

    s.type_line("quit");
    s.wait_exit();
}

/// Whether the screen says anything a face-down Blip holds.
fn secret(t: &str) -> Option<&'static str> {
    let lower = t.to_lowercase();
    SECRETS.iter().copied().find(|w| lower.contains(w))
}

#[test]
fn hot_seat_hides_each_sides_secrets_with_a_handover_between() {
    let Some(mut s) = demo(&[
        "play",
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
    // The Heroes' screen: Blips are `?` and their panel says nothing of what they hold.
    let t = s.wait_for("heroes> ");
    assert_eq!(secret(&t), None, "the Heroes see a secret: {t}");
    assert!(t.contains("you see the Heroes"), "{t}");
    // Tab selects the next unit; Shift-Tab goes back past the first to the last Blip.
    s.s.send("\t").expect("type");
    let t = s.wait_for("2 medic ·");
    assert_eq!(secret(&t), None, "{t}");
    s.s.send("\x1b[Z\x1b[Z").expect("type");
    let t = s.wait_for("? b11 · Blip Token");
    assert!(t.contains("face down: what it holds is hidden"), "{t}");
    assert_eq!(
        secret(&t.replace("what it holds is hidden", "")),
        None,
        "{t}"
    );

    // The Heroes end their phase (saying yes, with every Hero unused): a handover screen,
    // with nothing else on it.
    s.type_line("end");
    s.wait_for("go on? [y/N]> ");
    s.type_line("y");
    let t = s.wait_for("Pass the keyboard to the Overmind — press Enter");
    assert!(
        !t.contains("heroes>") && !t.contains("Log") && !t.contains("+-+"),
        "{t}"
    );
    assert_eq!(secret(&t), None, "{t}");

    // The Overmind's screen shows what the Blips hold.
    s.type_line("");
    let t = s.wait_for("overmind> ");
    assert!(t.contains("you see the Overmind"), "{t}");
    let shown: Vec<&str> = SECRETS.iter().copied().filter(|w| t.contains(w)).collect();
    assert!(
        shown.len() >= 2,
        "the Overmind sees what the Blips hold: {t}"
    );
    // The Heroes' own lines (`heroes> end`) were theirs alone.
    assert!(!t.contains("heroes> end"), "{t}");
    s.type_line("end");
    s.wait_for("go on? [y/N]> ");
    s.type_line("y");

    // Round 2: back to the Heroes, through a handover cleared of the Overmind's screen.
    let t = s.wait_for("Pass the keyboard to the Heroes — press Enter");
    assert!(!t.contains("overmind>") && !t.contains("+-+"), "{t}");
    assert_eq!(secret(&t), None, "the handover shows a secret: {t}");
    s.type_line("");
    let t = s.wait("the Heroes' round 2", |s| {
        s.text().contains("heroes> ") && s.text().contains("=== Round 2 ===")
    });
    assert_eq!(secret(&t), None, "the Heroes see a secret: {t}");
    assert!(!t.contains("overmind> end"), "{t}");
    s.type_line("status");
    let t = s.wait_for("Round 2/15 · Heroes phase");
    assert_eq!(secret(&t), None, "`status` shows the Heroes a secret: {t}");

    s.type_line("quit");
    s.wait_exit();
}

#[test]
fn an_edited_script_is_reported_in_the_log_while_the_player_thinks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pack = dir.path().join("behaviours");
    copy_dir(&root().join("behaviours"), &pack);
    let Some(mut s) = Screen::start(dir.path(), &["play", "--seed", "11"], 160, 50) else {
        return;
    };
    s.wait_for("heroes> ");
    // Half a command typed: the reload must not wait for it.
    s.s.send("move capt").expect("type");
    s.wait_for("heroes> move capt");
    let rush = pack.join("behaviours/rush.lua");
    let text = std::fs::read_to_string(&rush).expect("read rush");
    std::fs::write(&rush, format!("-- edited\n{text}")).expect("edit rush");
    s.wait_for("reload: behaviour rush reloaded");
    // The line being typed is still there, and runs.
    s.type_line("ain 2,14");
    s.wait_for("captain moves from 2,17 to 2,14");
    s.type_line("quit");
    s.wait_exit();
}

#[test]
fn ctrl_c_leaves_saves_and_restores_the_terminal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("game.json");
    let save_arg = save.display().to_string();
    let Some(mut s) = demo(&["play", "--seed", "11", "--no-watch", "--save", &save_arg]) else {
        return;
    };
    s.wait_for("heroes> ");
    s.type_line("move captain 2,14");
    s.wait_for("captain moves from 2,17 to 2,14");
    s.s.send("\x03").expect("type");
    s.wait_exit();
    assert!(s.text().contains("saved to"), "{}", s.text());
    let saved = std::fs::read_to_string(&save).expect("the game was saved");
    assert!(saved.contains("\"records\""), "{saved}");

    // Ctrl-D on an empty line ends the input the same way.
    let Some(mut s) = demo(&["play", "--seed", "11", "--no-watch"]) else {
        return;
    };
    s.wait_for("heroes> ");
    s.s.send("\x04").expect("type");
    s.wait_exit();
    assert!(s.text().contains("end of input"), "{}", s.text());
}

#[test]
fn the_game_over_screen_sums_up_and_waits_for_enter() {
    let Some(mut s) = demo(&["play", "--seed", "3", "--no-watch", "--mission", "small"]) else {
        return;
    };
    s.wait_for("heroes> ");
    // The Heroes pass every round until the game ends (the round limit, or the aliens).
    let mut over = false;
    for round in 1..=8 {
        s.type_line("end");
        s.wait_for("go on? [y/N]> ");
        s.type_line("y");
        let next = format!("Round {}/8 · Heroes phase", round + 1);
        let t = s.wait(&next, |s| {
            let t = s.text();
            t.contains(&next) || t.contains("Game over — press Enter to leave")
        });
        if t.contains("Game over — press Enter to leave") {
            over = true;
            break;
        }
    }
    assert!(over, "the game ended within its 8 rounds: {}", s.text());
    let t = s.text();
    assert!(t.contains("GAME OVER: the Overmind wins"), "{t}");
    assert!(t.contains("=== the Overmind wins: "), "the summary: {t}");
    s.type_line("");
    s.wait_exit();
    assert!(s.text().contains("=== the Overmind wins: "), "{}", s.text());
}

#[test]
fn reach_is_marked_on_the_map_and_switching_units_asks_first() {
    let Some(mut s) = demo(&["play", "--seed", "11", "--no-watch"]) else {
        return;
    };
    s.wait_for("heroes> ");
    // The captain's reach: `+` a Sprint, `*` a Move, drawn on the pinned map itself.
    s.type_line("reach 1");
    s.wait_for("a Sprint reaches 16 squares (+), a Move 44");
    let rows = s.rows();
    assert!(map_row(&rows, 13).starts_with("13 |* * * *"), "{rows:#?}");
    assert!(map_row(&rows, 17).starts_with("17 |+ + 1 + +"), "{rows:#?}");
    // The next line clears the marks.
    s.type_line("move captain 2,14");
    s.wait("the marks gone and the move made", |s| {
        let rows = s.rows();
        map_row(&rows, 14).starts_with("14 |. . 1 . .") && !map_row(&rows, 13).contains('*')
    });
    // Naming another Hero would end the captain's activation: asked on the prompt line.
    s.type_line("move medic 1,15");
    let t = s.wait_for("go on? [y/N]> ");
    assert!(t.contains("Confirm"), "{t}");
    s.type_line("n");
    s.wait_for("nothing done: the activation goes on");
    s.wait_for("Activating: 1 action left (used: move)");
    s.type_line("quit");
    s.wait_exit();
}

/// A Hero west of a room whose door is the opening west of 4,1; two Stalkers' Blip inside.
const ROOM: &str = r#"name = "Handover"
map = """
+-+-+-+-+-+-+-+-+-+-+
|. . . . . . . . . .|
+       +-+-+-+-+-+-+
|. . . . . . . . . .|
+       +           +
|y . . .|. . . . . .|
+       +-+-+-+-+-+-+
|. . . .|. . . . . .|
+-+-+-+-+-+-+-+-+-+-+
"""
objective = { kind = "eliminate" }
max_rounds = 4
decoys = 0

[[heroes]]
id = "alpha"
profile = "vance"
at = [0, 2]

[[blips]]
id = "b1"
at = [8, 2]
holds = "stalker"
size = 2
"#;

#[test]
fn a_decision_for_the_other_side_mid_action_hands_the_keyboard_over_and_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mission = dir.path().join("room.toml");
    std::fs::write(&mission, ROOM).expect("write mission");
    let m = mission.display().to_string();
    let Some(mut s) = demo(&[
        "play",
        "--seed",
        "1",
        "--no-watch",
        "--heroes",
        "human",
        "--overmind",
        "human",
        "--mission",
        &m,
    ]) else {
        return;
    };
    let t = s.wait_for("heroes> ");
    assert_eq!(secret(&t), None, "{t}");
    // Into the doorway: the Blip is revealed, and the Overmind places its Stalkers.
    s.type_line("move alpha 3,1");
    let t = s.wait_for("Pass the keyboard to the Overmind — press Enter");
    assert!(!t.contains("heroes>"), "{t}");
    s.type_line("");
    let t = s.wait_for("Decision for the Overmind");
    // What led to it came first, and the squares offered are numbered on the map.
    assert!(t.contains("alpha moves from 0,2 to 3,1"), "{t}");
    assert!(t.contains("Where does stalker of b1 go?"), "{t}");
    assert!(map_row(&s.rows(), 1).contains("1 2 3|"), "{:#?}", s.rows());
    // Answer each of the Overmind's questions until the keyboard goes back.
    // A slow machine can show a question already answered a moment longer, so one answer too
    // many may be typed: at the handover it is the Enter that hands the keyboard back.
    let back = |t: &str| t.contains("heroes> ") && t.contains("is revealed");
    let mut answered = 0;
    loop {
        let t = s.wait("a question or the handover", |s| {
            let t = s.text();
            t.contains("Pass the keyboard to the Heroes")
                || back(&t)
                || (t.contains("choose 1-") && t.matches("choose> 1").count() == answered)
        });
        if t.contains("Pass the keyboard to the Heroes") || back(&t) {
            break;
        }
        assert!(answered < 10, "the questions do not end: {t}");
        s.type_line("1");
        answered += 1;
    }
    assert!(answered >= 1);
    if !back(&s.text()) {
        s.type_line("");
    }
    let t = s.wait("the Heroes' screen", |s| {
        s.text().contains("heroes> ") && s.text().contains("is revealed")
    });
    // The Overmind's answers were its own; the reveal and where the models stand are the
    // table's.
    assert!(!t.contains("choose> 1"), "{t}");
    assert!(
        !t.contains("Decision for the Overmind") && !t.contains("Where does"),
        "{t}"
    );
    assert!(t.contains("Activating: 1 action left"), "{t}");
    s.type_line("quit");
    s.wait_exit();
}

#[test]
fn an_error_before_the_game_restores_the_terminal_and_is_printed() {
    let Some(mut s) = demo(&["play", "--no-watch", "--mission", "no-such-mission"]) else {
        return;
    };
    s.wait_exit();
    let t = s.text();
    assert!(t.contains("error:") && t.contains("no-such-mission"), "{t}");
}

/// Issue 25: ending a phase with Heroes unused asks first, and what was typed before a phase
/// began is not run in it: an `end` typed on after the one that ended the phase would
/// otherwise give away the next phase too.
#[test]
fn input_typed_before_a_phase_is_not_carried_into_it() {
    let Some(mut s) = demo(&["play", "--seed", "11", "--no-watch"]) else {
        return;
    };
    s.wait_for("heroes> ");
    s.type_line("end");
    let t = s.wait_for("go on? [y/N]> ");
    assert!(
        t.contains("captain, medic, heavy, scout, engineer have not activated"),
        "{t}"
    );
    // Yes, and a second `end` typed straight after, while the Overmind plays.
    s.s.send("y\rend\r").expect("type");
    let t = s.wait("round 2's Heroes phase", |s| {
        s.text().contains("Round 2/15 · Heroes phase") && s.text().contains("heroes> ")
    });
    assert!(!t.contains("go on? [y/N]"), "{t}");
    // The log says what was dropped (scrolled back to, past the Overmind's phase).
    // Page by page, each page read once it is drawn (a slow machine draws after the key),
    // until the log's first line is in view.
    let mut said = false;
    for _ in 0..16 {
        let page = s.text();
        if page.contains("not run, typed before the") {
            said = true;
            break;
        }
        if page.contains("Mission: Outpost Kappa") {
            break;
        }
        s.s.send("\x1b[5~").expect("type");
        s.wait("the log scrolled back", |s| {
            let now = s.text();
            now != page && now.contains("newer lines below")
        });
    }
    assert!(said, "{}", s.text());
    assert!(s.text().contains("phase began: `end`"), "{}", s.text());
    s.s.send("\x1b[6~\x1b[6~\x1b[6~\x1b[6~\x1b[6~\x1b[6~\x1b[6~\x1b[6~")
        .expect("type");
    s.type_line("status");
    s.wait_for("Round 2/15 · Heroes phase · choose a unit to activate");
    s.type_line("quit");
    s.wait_exit();
}

/// Issue 25: an 80×24 terminal is playable. The map takes the height beside the panels and
/// follows the unit acting; Shift and the arrows pan it; F3 shows every option in full, F2 the
/// key, `map` the map alone; a few turns are played, the acting unit and its panel in view.
#[test]
fn an_80_by_24_terminal_plays_with_the_acting_unit_its_panel_and_every_option_in_reach() {
    let Some(mut s) = Screen::start(&root(), &["play", "--seed", "11", "--no-watch"], 80, 24)
    else {
        return;
    };
    let t = s.wait_for("heroes> ");
    // The captain (1) at 2,17 is the focus: on the map, and its panel beside it.
    let rows = s.rows();
    assert!(map_row(&rows, 17).starts_with("17 |. . 1"), "{t}");
    assert!(
        rows.iter()
            .any(|r| r.starts_with(" 0 1 2") || r.contains("│")),
        "{t}"
    );
    assert!(t.contains("1 captain") && t.contains("Health 8/8"), "{t}");
    assert!(t.contains("You may"), "{t}");

    // F3: every option in full.
    s.s.send("\x1bOR").expect("type");
    s.wait_for("You may · F3 or Esc: back");
    // Read once its last line is drawn: a screen read mid-draw holds only part of the box.
    let t = s.wait_for("end (end the activation, or the phase when none is under way)");
    for line in [
        // t1, the acid pool at 9,9, is a hazard in the captain's range (docs/RULES.md §14.1).
        "captain: move X,Y (44 squares) · sprint X,Y (16 squares) · shoot t1",
        "medic: move X,Y",
        "heavy: move X,Y",
        "scout: move X,Y",
        "engineer: move X,Y",
        "end (end the activation, or the phase when none is under way)",
    ] {
        assert!(t.contains(line), "{line}: {t}");
    }
    // F2: the key, whole, with the dice's and XP.
    s.s.send("\x1bOQ").expect("type");
    let t = s.wait_for("Key · F2 or Esc: back");
    for what in [
        "{ terminal",
        "~ acid pool",
        "Dice: the attacker counts",
        "XP: experience",
    ] {
        assert!(t.contains(what), "{what}: {t}");
    }
    s.s.send("\x1b").expect("type");
    s.wait("the game again", |s| {
        map_row(&s.rows(), 17).starts_with("17 |. . 1")
    });

    // The scout (4) at 16,17 acts: the map and the panel follow it.
    s.type_line("move scout 16,15");
    s.wait_for("scout moves from 16,17 to 16,15");
    let t = s.wait("the scout in view", |s| {
        // (The whole frame: a screen read half-drawn lacks its bottom.)
        map_row(&s.rows(), 15).contains('4')
            && s.text().contains("4 scout")
            && s.text().contains("scout is activating: 1 action left")
            && s.text().contains("heroes> ")
    });
    assert!(t.contains("Movement 5 (Sprint 2) · Melee CV"), "{t}");
    // Shift and Up pan the map to its top row; the next turn brings the scout back.
    for _ in 0..6 {
        s.s.send("\x1b[1;2A").expect("type");
    }
    s.wait("the map panned to its top", |s| {
        !map_row(&s.rows(), 0).is_empty() && map_row(&s.rows(), 15).is_empty()
    });
    s.type_line("overwatch");
    s.wait_for("scout sets weak Overwatch");
    s.wait("the map back on the next unit", |s| {
        !map_row(&s.rows(), 17).is_empty()
    });
    // `map`: the map alone, as large as fits.
    s.type_line("map");
    s.wait_for("the whole map: Shift+arrows pan, Esc back");
    s.s.send("\x1b").expect("type");
    // (An Esc and a key at once read as Alt and the key: wait for the Esc to land.)
    s.wait("the map back beside the panels", |s| {
        !s.text().contains("the whole map") && s.text().contains("You may")
    });

    // The phase ends (asked first, in the Confirm box), the Overmind plays, and round 2
    // comes back.
    s.type_line("end");
    s.wait_for("y: yes · n or Enter: no");
    s.type_line("y");
    s.wait("round 2", |s| {
        s.text().contains("Round 2/15 · Heroes phase") && s.text().contains("heroes> ")
    });
    s.type_line("move captain 2,14");
    s.wait("the captain acting in view", |s| {
        map_row(&s.rows(), 14).starts_with("14 |. . 1")
            && s.text().contains("1 captain")
            && s.text().contains("captain is activating: 1 action left")
            && s.text().contains("heroes> ")
    });
    s.s.send("\x1bOR").expect("type");
    let t = s.wait_for("You may · F3 or Esc: back");
    assert!(t.contains("captain: "), "{t}");
    assert!(t.contains("end (end the activation"), "{t}");
    s.s.send("\x1bOR").expect("type");
    s.type_line("quit");
    s.wait_exit();
}
