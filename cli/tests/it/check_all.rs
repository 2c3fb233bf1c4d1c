//! `overmind check` lists every problem of every file in one run (issue 12): a behaviour with
//! five mistakes is five problems, each at its field; a syntax error points at the token Lua
//! names; a mission's independent mistakes are all found though a script of the pack is broken;
//! and the summary counts them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn overmind(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_overmind"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn write(path: &Path, text: &str) {
    if let Err(e) = std::fs::write(path, text) {
        panic!("cannot write {}: {e}", path.display());
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// 1-based line and column (characters) where `needle` first is in `text`.
fn at(text: &str, needle: &str) -> (usize, usize) {
    let Some(i) = text.find(needle) else {
        panic!("{needle:?} is not in the file:\n{text}");
    };
    let before = &text[..i];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A pack made by `overmind new pack`, which checks clean before it is broken.
fn new_pack(tmp: &Path) -> PathBuf {
    let dir = tmp.join("p");
    let d = dir.to_str().expect("UTF-8 path");
    assert_eq!(overmind(&["new", "pack", d]).status.code(), Some(0));
    let o = overmind(&["check", "--pack", d]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Problems name files by their full path when the pack is outside the current folder.
    std::fs::canonicalize(&dir).unwrap_or(dir)
}

const FIVE_MISTAKES: &str = r#"-- LUNGE, with five mistakes
return behaviour {
  id = "p_lunge",
  name = 5,
  txt = "Must move 3 Squares towards the closest visible Hero.",
  max_move = -3,
  perform = "later",
  ai_score = true,
}
"#;

#[test]
fn every_problem_of_every_file_is_listed_in_one_run_and_counted() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = new_pack(tmp.path());
    let behaviour = dir.join("behaviours/p_lunge.lua");
    write(&behaviour, FIVE_MISTAKES);
    // A second behaviour that does not parse: Lua stops at the second `=`.
    let syntax = dir.join("behaviours/p_typo.lua");
    write(
        &syntax,
        "return behaviour {\n  id = \"p_typo\",\n  name = \"TYPO\",\n  text = \"Nothing.\",\n  perform = function(unit, game)\n    -- x = = 3 in a comment is no error\n    local x = = 3\n  end,\n}\n",
    );
    // The mission: two heroes of profiles no pack has, a Blip off the map.
    let mission = dir.join("missions/p.toml");
    let original = read(&mission);
    let broken = original
        .replacen("profile = \"vance\"", "profile = \"vanse\"", 1)
        .replacen("profile = \"mira\"", "profile = \"nobody\"", 1)
        .replacen("at = [6, 0]", "at = [16, 0]", 1);
    assert_eq!(broken.matches("\"vanse\"").count(), 1, "{original}");
    assert_eq!(broken.matches("\"nobody\"").count(), 1, "{original}");
    assert_eq!(broken.matches("[16, 0]").count(), 1, "{original}");
    write(&mission, &broken);

    let d = dir.to_str().expect("UTF-8 path");
    let o = overmind(&["check", "--pack", d]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let b = behaviour.display();
    let s = syntax.display();
    let m = mission.display();
    let (vl, vc) = at(&broken, "\"vanse\"");
    let (nl, nc) = at(&broken, "\"nobody\"");
    let (ol, oc) = at(&broken, "[16, 0]");
    let expected = vec![
        format!("{b}:4:3: behaviour: name must be a string, found number 5"),
        // `text` is missing because it is misspelt: one problem, naming the right field.
        format!("{b}:5:3: behaviour: unknown field 'txt' (did you mean text?)"),
        format!(
            "{b}:6:3: behaviour: max_move must be a whole number from 0 to 50, found number -3"
        ),
        format!("{b}:7:3: behaviour: perform must be a function, found string \"later\""),
        format!("{b}:8:3: behaviour: ai_score must be a function, found boolean true"),
        format!("{s}:7:15: unexpected symbol near '='"),
        format!("{m}:{vl}:{vc}: hero alpha: no hero profile named \"vanse\""),
        format!("{m}:{nl}:{nc}: hero bravo: no hero profile named \"nobody\""),
        format!(
            "{m}:{ol}:{oc}: blip \"b3\" at 16,0 is outside the map: expected x from 0 to 9 and y \
             from 0 to 4"
        ),
    ];
    let lines: Vec<&str> = out.lines().collect();
    let (summary, problems) = lines.split_last().expect("a summary line");
    assert_eq!(problems, expected.as_slice(), "{out}");
    // The alien type that lists the broken LUNGE is not a second problem; the scenario test
    // that plays LUNGE waits for it to load, and the summary says so.
    assert!(!out.contains("which no loaded pack defines"), "{out}");
    assert!(
        summary.ends_with(&format!("; {} problems", expected.len())),
        "{summary}"
    );
    assert!(
        summary.contains(
            "(1 mission or scenario file not checked: it uses content whose file has problems)"
        ),
        "{summary}"
    );
}

#[test]
fn a_pack_whose_scripts_are_fixed_checks_its_missions_and_tests_again() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = new_pack(tmp.path());
    let behaviour = dir.join("behaviours/p_lunge.lua");
    let good = read(&behaviour);
    write(&behaviour, FIVE_MISTAKES);
    let d = dir.to_str().expect("UTF-8 path");
    let o = overmind(&["check", "--pack", d]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.trim_end().ends_with("; 5 problems"), "{out}");
    write(&behaviour, &good);
    let o = overmind(&["check", "--pack", d]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(!out.contains("not checked"), "{out}");
    assert!(out.trim_end().ends_with("; 0 problems"), "{out}");
}
