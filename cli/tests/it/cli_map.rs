//! End-to-end tests of `overmind map` and `overmind los`, running the built binary.
//!
//! They live in the cli crate (not the workspace `tests/` crate) because only here does Cargo
//! build the binary first and name it in `CARGO_BIN_EXE_overmind`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

const SMALL: &str = "behaviours/missions/small.toml";
const DEMO: &str = "behaviours/missions/demo.toml";

/// Run `overmind` from the workspace root, so mission paths print the same everywhere.
fn overmind(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_overmind"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .output()
        .expect("run overmind")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn map_plain_small() {
    let o = overmind(&["map", "--plain", SMALL]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!(stdout(&o));
}

#[test]
fn map_plain_demo_has_legend_and_every_unit() {
    let o = overmind(&["map", "--plain", DEMO]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("Outpost Kappa (20×20)"), "{out}");
    assert!(out.contains("Legend:") && out.contains("Units:"));
    for id in [
        "captain", "medic", "heavy", "scout", "engineer", "b1", "b11",
    ] {
        assert!(out.contains(id), "{id} missing from\n{out}");
    }
    assert!(!out.contains('\u{1b}'), "--plain has no escape codes");
    assert!(out.contains("19 |"), "y labels down the side");
}

/// The square `at` of a `map --plain` drawing: row `y` starts `"{y:>w} |"`, then each square is
/// one character followed by an edge.
fn square(out: &str, x: usize, y: usize) -> Option<char> {
    let row = out
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{y} |")))?;
    let start = row.find('|')? + 1;
    row.chars().nth(start + 2 * x)
}

#[test]
fn map_draws_the_tokens_a_mission_lays_and_lists_them() {
    // docs/RULES.md §14: tokens are drawn by their pack's symbol, and listed in the legend.
    let o = overmind(&["map", "--plain", DEMO]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let mission = std::fs::read_to_string(root().join(DEMO)).expect("demo");
    let doc: toml::Table = mission.parse().expect("demo parses");
    let laid = doc["tokens"].as_array().expect("the demo lays tokens");
    assert!(!laid.is_empty());
    for t in laid {
        let kind = t["kind"].as_str().expect("kind");
        let at = t["at"].as_array().expect("at");
        let (x, y) = (
            at[0].as_integer().expect("x") as usize,
            at[1].as_integer().expect("y") as usize,
        );
        let script = std::fs::read_to_string(root().join(format!("behaviours/tokens/{kind}.lua")))
            .expect("token script");
        let symbol = script
            .lines()
            .find_map(|l| l.trim().strip_prefix("symbol = \""))
            .and_then(|s| s.chars().next())
            .expect("symbol");
        assert_eq!(
            square(&out, x, y),
            Some(symbol),
            "{kind} at {x},{y}:\n{out}"
        );
        assert!(
            out.lines().any(|l| l.trim_start().starts_with(symbol)
                && l.contains(kind)
                && l.contains(&format!("at {x},{y}"))),
            "{kind} listed under Tokens:\n{out}"
        );
    }
    assert!(out.contains("Tokens:"), "{out}");
}

#[test]
fn map_of_a_mission_laying_an_unknown_token_names_its_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tok.toml");
    let text = "name = \"T\"\nmap = \"\"\"\n+-+-+\n|y .|\n+-+-+\n\"\"\"\nobjective = { kind = \"survive\" }\n\n[[heroes]]\nid = \"h\"\nprofile = \"vance\"\nat = [0, 0]\n\n[[tokens]]\nkind = \"acid_pol\"\nat = [1, 0]\n";
    std::fs::write(&path, text).expect("write");
    let p = path.to_string_lossy();
    let o = overmind(&["map", "--plain", &p]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "{p}:15:8: token t1: no token kind named \"acid_pol\""
        )),
        "names the kind at its line: {err}"
    );
    assert!(err.contains("acid_pol"), "{err}");
}

#[test]
fn map_is_plain_when_not_a_terminal() {
    let o = overmind(&["map", SMALL]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), stdout(&overmind(&["map", "--plain", SMALL])));
}

fn broken_mission() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("broken.toml");
    let text = "map = \"\"\"\n+-+-+\n|. x|\n+-+-+\n\"\"\"\n\n[[heroes]]\nid = \"h\"\nat = [5, 0]\n";
    std::fs::write(&path, text).expect("write");
    (dir, path)
}

#[test]
fn map_of_a_broken_file_lists_every_error() {
    let (_dir, path) = broken_mission();
    let p = path.to_string_lossy();
    let o = overmind(&["map", "--plain", &p]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(&format!("error: {p}:3:4: found 'x' at square 1,0")),
        "{err}"
    );
    assert!(
        lines[1].starts_with(&format!("error: {p}:9:6: hero \"h\" at 5,0 is outside")),
        "{err}"
    );
}

#[test]
fn map_of_a_missing_file() {
    let o = overmind(&["map", "no/such/mission.toml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("error: no/such/mission.toml: cannot read"));
}

fn los(args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["los", SMALL];
    all.extend_from_slice(args);
    let o = overmind(&all);
    let text = if o.status.success() {
        stdout(&o)
    } else {
        stderr(&o)
    };
    (o.status.code(), text)
}

fn first_line(args: &[&str]) -> String {
    let (code, text) = los(args);
    assert_eq!(code, Some(0), "{text}");
    text.lines().next().unwrap_or_default().to_string()
}

#[test]
fn los_along_an_open_row_is_visible() {
    assert_eq!(first_line(&["0,5", "7,5"]), "visible");
    assert_eq!(first_line(&["0,0", "6,0"]), "visible");
}

#[test]
fn los_through_a_door_is_visible() {
    assert_eq!(first_line(&["5,0", "5,2"]), "visible");
}

#[test]
fn los_across_a_wall_is_blocked() {
    assert_eq!(first_line(&["3,1", "5,1"]), "blocked");
}

#[test]
fn los_past_a_unit_or_a_solid_square_is_blocked() {
    assert_eq!(first_line(&["1,3", "1,5"]), "blocked", "hero bravo at 1,4");
    assert_eq!(first_line(&["2,3", "2,5"]), "blocked", "solid 2,4");
}

#[test]
fn los_end_squares_never_block() {
    // Both ends hold units (hero alpha, hero bravo), which do not block their own LOS.
    assert_eq!(first_line(&["0,5", "1,4"]), "visible");
}

#[test]
fn los_centre_rule() {
    assert_eq!(first_line(&["--rule", "centre", "0,5", "7,5"]), "visible");
    assert_eq!(first_line(&["3,1", "5,1", "--rule", "centre"]), "blocked");
}

#[test]
fn los_explain_adds_lines() {
    let (code, text) = los(&["0,5", "7,5", "--explain"]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "visible");
    assert!(
        text.contains("from 0,5: yellow square, hero \"alpha\""),
        "{text}"
    );
    assert!(
        text.contains("visible: the line from (0.5, 5.5) to (7.5, 5.5)"),
        "the witness segment: {text}"
    );
    let (_, blocked) = los(&["3,1", "5,1", "--explain"]);
    assert!(blocked.starts_with("blocked\n"), "{blocked}");
    assert!(blocked.contains("blocked by wall west of 4,1"), "{blocked}");
}

#[test]
fn los_explain_names_blocking_units() {
    let (_, text) = los(&["1,3", "1,5", "--explain"]);
    assert!(text.contains("blocked by obstacle at 1,4"), "{text}");
    assert!(text.contains("1,4: plain square, hero \"bravo\""), "{text}");
}

#[test]
fn los_bad_square_is_a_usage_error() {
    let (code, text) = los(&["3;4", "1,1"]);
    assert_eq!(code, Some(2));
    assert!(text.contains("expected X,Y"), "{text}");
    let (code, text) = los(&["8,0", "1,1"]);
    assert_eq!(code, Some(2));
    assert!(text.contains("square 8,0 is off the map"), "{text}");
    assert!(
        text.contains("expected X from 0 to 7 and Y from 0 to 5"),
        "{text}"
    );
    let (code, _) = los(&["-1,0", "1,1"]);
    assert_eq!(code, Some(2));
}

#[test]
fn los_on_a_broken_file_exits_1() {
    let (_dir, path) = broken_mission();
    let p = path.to_string_lossy();
    let o = overmind(&["los", &p, "0,0", "1,0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(":3:4: found 'x'"));
}

/// `map` and `los` take a mission id as `play --mission` does (issue 12).
#[test]
fn map_and_los_take_a_mission_id() {
    let o = overmind(&["map", "demo", "--plain"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("Outpost Kappa (20×20): demo"));
    let o = overmind(&["los", "small", "0,0", "1,0"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = overmind(&["map", "nope"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no mission \"nope\": give a path or one of demo, landing, small"),
        "{}",
        stderr(&o)
    );
}
