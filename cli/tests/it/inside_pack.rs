//! Issue 27: `check`, `test` and `simulate` run inside a pack's folder use that pack without
//! `--pack .`, saying so in their first line; `new mission` names the pack it is in.

use std::path::Path;
use std::process::{Command, Output};

fn overmind_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_overmind"))
        .current_dir(dir)
        .env_remove("OVERMIND_BASE")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const NOTE: &str = "using the pack in this folder (bog) after the base pack (no --pack given)";

#[test]
fn commands_run_inside_a_pack_use_it_and_say_so_first() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path().join("bog");
    let o = overmind_in(tmp.path(), &["new", "pack", "bog"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    // A problem only the pack has: `check` inside it must find it.
    std::fs::write(dir.join("aliens/broken.lua"), "return alien_type {\n").expect("write");
    let o = overmind_in(&dir, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let text = out(&o);
    assert_eq!(text.lines().next(), Some(NOTE), "{text}");
    assert!(text.contains("aliens/broken.lua:"), "{text}");
    assert!(!text.contains("; 0 problems"), "{text}");
    std::fs::remove_file(dir.join("aliens/broken.lua")).expect("remove");
    // `test` plays the pack's own scenario, not the base pack's.
    let o = overmind_in(&dir, &["test"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let text = out(&o);
    assert_eq!(text.lines().next(), Some(NOTE), "{text}");
    assert!(
        text.contains("test result: ok. 1 passed, 0 failed"),
        "{text}"
    );
    // `simulate` finds the pack's own mission.
    let o = overmind_in(
        &dir,
        &[
            "simulate",
            "--games",
            "2",
            "--jobs",
            "1",
            "--mission",
            "bog",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        out(&o),
        String::from_utf8_lossy(&o.stderr)
    );
    let text = out(&o);
    assert_eq!(text.lines().next(), Some(NOTE), "{text}");
    assert!(text.contains("bog_brute"), "{text}");
    // With --json the report stays one JSON document; the note goes to standard error.
    let o = overmind_in(
        &dir,
        &[
            "simulate",
            "--games",
            "2",
            "--jobs",
            "1",
            "--mission",
            "bog",
            "--json",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(serde_json::from_str::<serde_json::Value>(&out(&o)).is_ok());
    assert!(String::from_utf8_lossy(&o.stderr).contains(NOTE));
    // An explicit --pack wins, and says nothing.
    let o = overmind_in(&dir, &["check", "--pack", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(!out(&o).contains("using the pack"), "{}", out(&o));
}

#[test]
fn a_new_mission_names_the_pack_it_is_in() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let o = overmind_in(tmp.path(), &["new", "pack", "marsh"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let dir = tmp.path().join("marsh");
    let o = overmind_in(&dir, &["new", "mission", "ambush"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let text = std::fs::read_to_string(dir.join("missions/ambush.toml")).expect("written");
    assert!(
        text.starts_with("# A small mission for the marsh pack:"),
        "{}",
        text.lines().next().unwrap_or("")
    );
}
