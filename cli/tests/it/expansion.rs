//! The example expansion (examples/expansion) through the built binary: `check` and `test` accept it, and a clash of ids is an error unless the pack says it overrides.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Run `overmind` from the workspace root (where `behaviours/` is the base pack).
fn overmind(args: &[&str]) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_overmind"))
        .args(args)
        .current_dir(root())
        .env_remove("OVERMIND_BASE")
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run overmind: {e}"),
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn check_accepts_the_expansion_and_lists_its_behaviour() {
    let o = overmind(&["check", "--pack", "examples/expansion"]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let summary = out.lines().last().unwrap_or("");
    assert!(summary.starts_with("checked 2 packs:"), "{out}");
    assert!(
        summary.contains("ambush"),
        "the summary lists the new behaviour: {out}"
    );
    assert!(summary.contains("0 problems"), "{out}");
}

#[test]
fn the_expansion_scenarios_pass() {
    let o = overmind(&["test", "--pack", "examples/expansion"]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains(
            "PASS  examples/expansion/tests/ambush.toml: AMBUSH moves a Lurker next to the Hero"
        ),
        "{out}"
    );
    assert!(
        !out.contains("behaviours/tests/"),
        "only the named pack's scenarios without --all: {out}"
    );
    assert!(out.contains("test result: ok."), "{out}");
}

#[test]
fn test_all_plays_the_base_pack_scenarios_too() {
    let o = overmind(&[
        "test",
        "--pack",
        "examples/expansion",
        "--all",
        "--filter",
        "RUSH",
    ]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("PASS  behaviours/tests/rush.toml:"), "{out}");
    assert!(
        !out.contains("ambush.toml"),
        "--filter leaves the others out: {out}"
    );
}

/// A copy of the expansion in a temporary directory, with an extra behaviour file.
fn clashing_copy(overrides: bool) -> tempfile::TempDir {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("no temporary directory: {e}"),
    };
    let src = root().join("examples/expansion");
    copy_tree(&src, dir.path());
    let clash = "return behaviour {\n  id = \"rush\",\n  name = \"RUSH\",\n  text = \"A gentler rush.\",\n  max_move = 3,\n  perform = function(unit, game) game:log(\"rushing gently\") end,\n}\n";
    write(&dir.path().join("behaviours/rush.lua"), clash);
    if overrides {
        let pack = std::fs::read_to_string(dir.path().join("pack.toml")).unwrap_or_default();
        write(
            &dir.path().join("pack.toml"),
            &format!("{pack}overrides = [\"rush\"]\n"),
        );
    }
    dir
}

fn write(path: &Path, text: &str) {
    if let Err(e) = std::fs::write(path, text) {
        panic!("cannot write {}: {e}", path.display());
    }
}

fn copy_tree(from: &Path, to: &Path) {
    let entries = match std::fs::read_dir(from) {
        Ok(e) => e,
        Err(e) => panic!("cannot read {}: {e}", from.display()),
    };
    for e in entries.flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            let _ = std::fs::create_dir_all(&target);
            copy_tree(&e.path(), &target);
        } else if let Err(err) = std::fs::copy(e.path(), &target) {
            panic!("cannot copy {}: {err}", e.path().display());
        }
    }
}

#[test]
fn a_clash_of_ids_without_overrides_is_an_error_naming_both_files() {
    let dir = clashing_copy(false);
    let pack = dir.path().display().to_string();
    let o = overmind(&["check", "--pack", &pack]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("already defined"))
        .unwrap_or_else(|| panic!("no clash reported: {out}"));
    let ours = std::fs::canonicalize(dir.path().join("behaviours/rush.lua")).unwrap_or_default();
    assert!(
        line.starts_with(&format!("{}:", ours.display())),
        "the problem is in the new file: {line}"
    );
    assert!(
        line.contains("behaviours/behaviours/rush.lua"),
        "and names the base pack's file: {line}"
    );
    assert!(
        line.contains("overrides"),
        "and says how to mean it: {line}"
    );
}

#[test]
fn a_clash_listed_in_overrides_is_accepted() {
    let dir = clashing_copy(true);
    let pack = dir.path().display().to_string();
    let o = overmind(&["check", "--pack", &pack]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("0 problems"), "{out}");
}
