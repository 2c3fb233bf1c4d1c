//! `overmind new pack DIR` (issue 12): the pack it makes checks clean, its scenario test
//! passes, its mission plays with the pack's own alien type, and its editor and linter files are
//! what `overmind api` generates.

use std::path::Path;
use std::process::{Command, Output};

fn overmind(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_overmind"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_new_pack_checks_clean_and_its_test_passes() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path().join("Swamp Things");
    let d = dir.to_str().expect("UTF-8 path");
    let o = overmind(&["new", "pack", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).starts_with("made pack swamp_things in "),
        "{}",
        text(&o)
    );
    for f in [
        "pack.toml",
        "behaviours/swamp_things_lunge.lua",
        "aliens/swamp_things_brute.lua",
        "missions/swamp_things.toml",
        "tests/swamp_things_lunge.toml",
        "types/overmind.d.lua",
        ".luarc.json",
        ".luacheckrc",
        ".stylua.toml",
    ] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let o = overmind(&["check", "--pack", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("; 0 problems"), "{}", text(&o));
    let o = overmind(&["test", "--pack", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("test result: ok. 1 passed, 0 failed"),
        "{}",
        text(&o)
    );
    // The mission's pool holds the pack's own type, and the AI performs its behaviour.
    let o = overmind(&[
        "simulate",
        "--games",
        "6",
        "--jobs",
        "1",
        "--pack",
        d,
        "--mission",
        "swamp_things",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("swamp_things_brute"), "{}", text(&o));
    assert!(text(&o).contains("swamp_things_lunge"), "{}", text(&o));
    // The stubs and configs are the generated ones.
    let same = |file: &str, args: &[&str]| {
        let o = overmind(args);
        let written = std::fs::read_to_string(dir.join(file)).expect("written");
        assert_eq!(written, String::from_utf8_lossy(&o.stdout), "{file}");
    };
    same("types/overmind.d.lua", &["api", "--lua"]);
    same(".luacheckrc", &["api", "--luacheckrc"]);
    same(".luarc.json", &["api", "--luarc"]);
}

#[test]
fn new_pack_refuses_a_directory_in_use_or_a_name_that_makes_no_id() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let used = tmp.path().join("used");
    std::fs::create_dir(&used).expect("mkdir");
    std::fs::write(used.join("keep.txt"), "mine").expect("write");
    let o = overmind(&["new", "pack", used.to_str().expect("UTF-8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("not empty"), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(used.join("keep.txt")).expect("kept"),
        "mine",
        "nothing the user made is touched"
    );
    let bad = tmp.path().join("42");
    let o = overmind(&["new", "pack", bad.to_str().expect("UTF-8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("makes none"), "{}", text(&o));
    assert!(!Path::new(&bad).exists());
}

/// A behaviour with a syntax error is one problem, not two: the alien type that lists it is
/// not also reported for listing a behaviour "no loaded pack defines" (issue 12).
#[test]
fn a_broken_behaviour_is_one_problem_not_two() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path().join("p");
    let d = dir.to_str().expect("UTF-8 path");
    assert_eq!(overmind(&["new", "pack", d]).status.code(), Some(0));
    let file = dir.join("behaviours/p_lunge.lua");
    let source = std::fs::read_to_string(&file).expect("written");
    let broken = source.replace("max_move = 3,", "max_move = = 3,");
    assert_ne!(broken, source);
    std::fs::write(&file, broken).expect("write");
    let o = overmind(&["check", "--pack", d]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains("p_lunge.lua:") && out.contains("unexpected symbol"),
        "{out}"
    );
    assert!(!out.contains("which no loaded pack defines"), "{out}");
    assert!(out.contains("; 1 problem"), "{out}");
}

/// `new behaviour|alien|mission|test NAME` inside a pack: each adds one file, the pack still
/// checks clean and every test passes; a name that is no id, a file that exists, a directory
/// that is no pack and a behaviour no alien type lists are refused.
#[test]
fn files_added_one_at_a_time_keep_the_pack_clean() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path().join("bog");
    let d = dir.to_str().expect("UTF-8 path");
    let o = overmind(&["new", "pack", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    for args in [
        vec!["new", "behaviour", "snap", "--pack", d],
        vec![
            "new",
            "alien",
            "crawler",
            "--behaviour",
            "snap",
            "--pack",
            d,
        ],
        vec![
            "new",
            "alien",
            "lurker2",
            "--behaviour",
            "snap",
            "--behaviour",
            "rush",
            "--pack",
            d,
        ],
        vec!["new", "mission", "lair", "--alien", "crawler", "--pack", d],
        vec![
            "new",
            "test",
            "snap_alone",
            "--alien",
            "crawler",
            "--pack",
            d,
        ],
        vec![
            "new",
            "test",
            "snap_chosen",
            "--alien",
            "lurker2",
            "--behaviour",
            "snap",
            "--pack",
            d,
        ],
    ] {
        let o = overmind(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o));
        assert!(text(&o).starts_with("made "), "{}", text(&o));
    }
    for f in [
        "behaviours/snap.lua",
        "aliens/crawler.lua",
        "aliens/lurker2.lua",
        "missions/lair.toml",
        "tests/snap_alone.toml",
        "tests/snap_chosen.toml",
    ] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let lurker = std::fs::read_to_string(dir.join("aliens/lurker2.lua")).expect("written");
    assert!(
        lurker.contains(r#"behaviours = { "snap", "rush" }"#),
        "{lurker}"
    );
    let o = overmind(&["check", "--pack", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("snap") && text(&o).contains("; 0 problems"),
        "{}",
        text(&o)
    );
    let o = overmind(&["test", "--pack", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("test result: ok. 3 passed, 0 failed"),
        "{}",
        text(&o)
    );
    // The new mission holds the type it was given.
    let mission = std::fs::read_to_string(dir.join("missions/lair.toml")).expect("written");
    assert!(mission.contains(r#"type = "crawler""#), "{mission}");

    let refused = |args: &[&str], says: &str| {
        let o = overmind(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(says), "{args:?}: {}", text(&o));
    };
    refused(&["new", "behaviour", "snap", "--pack", d], "exists already");
    refused(&["new", "behaviour", "Snap!", "--pack", d], "is not an id");
    refused(
        &["new", "alien", "x", "--behaviour", "nope", "--pack", d],
        "no loaded behaviour is called \"nope\"",
    );
    refused(
        &[
            "new",
            "test",
            "t",
            "--alien",
            "crawler",
            "--behaviour",
            "rush",
            "--pack",
            d,
        ],
        "does not list behaviour \"rush\"",
    );
    let elsewhere = tmp.path().to_str().expect("UTF-8 path");
    refused(
        &["new", "behaviour", "x", "--pack", elsewhere],
        "not a pack",
    );
}
