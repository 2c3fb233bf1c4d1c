//! The host against hostile input and hostile paths (issue 9): a save writes regular files
//! only and is whole whenever the process dies; a line that is not UTF-8 on the JSON stream is
//! an `error` and the game goes on; a save file that is not UTF-8, or cut short, is placed at
//! `path:line:column` with a real column; hot reload reports a file that is there but broken as
//! failed, never as deleted.

use crate::common;

use common::*;
use serde_json::Value;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GAME: &[&str] = &[
    "play",
    "--json",
    "--no-watch",
    "--mission",
    "small",
    "--seed",
    "1",
];

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(unix)]
fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt as _;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[cfg(unix)]
#[test]
fn save_refuses_what_is_not_a_regular_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    if !mkfifo(&d.join("fifo")) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    std::fs::create_dir(d.join("folder")).expect("mkdir");
    std::os::unix::fs::symlink("fifo", d.join("to_fifo")).expect("symlink");
    std::os::unix::fs::symlink("folder", d.join("to_folder")).expect("symlink");
    std::os::unix::fs::symlink("nowhere", d.join("dangling")).expect("symlink");
    std::fs::write(d.join("old.json"), "old").expect("write");
    std::os::unix::fs::symlink("old.json", d.join("to_old")).expect("symlink");
    let before = listing(d);

    let mut input = String::new();
    for name in ["fifo", "folder", "to_fifo", "to_folder", "dangling"] {
        input.push_str(&format!("save {}\n", d.join(name).display()));
    }
    input.push_str(&format!("save {}\nquit\n", d.join("to_old").display()));
    let out = run(GAME, &input);
    let evs = events(&stdout(&out));
    let errors: Vec<&str> = of_kind(&evs, "error")
        .iter()
        .filter_map(|e| e["message"].as_str())
        .collect();
    assert_eq!(errors.len(), 5, "{errors:#?}");
    for (e, what) in errors.iter().zip([
        "it is a FIFO",
        "it is a directory",
        "it is a symbolic link to a FIFO",
        "it is a symbolic link to a directory",
        "it is a symbolic link that leads nowhere",
    ]) {
        assert!(e.contains("cannot save to") && e.contains(what), "{e}");
    }
    assert_eq!(
        of_kind(&evs, "saved").len(),
        1,
        "the link to a file is saved through"
    );

    assert!(is_fifo(&d.join("fifo")), "the FIFO is still a FIFO");
    assert!(d.join("folder").is_dir());
    assert!(std::fs::symlink_metadata(d.join("to_old")).is_ok_and(|m| m.file_type().is_symlink()));
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("old.json")).expect("read"))
            .expect("the file the link leads to holds the save");
    assert_eq!(saved["version"], 2);
    assert_eq!(
        listing(d),
        before,
        "nothing else was written, no temporary file left"
    );
}

/// Each kill leaves the save path holding a complete save: the one before, or the new one.
#[test]
fn a_save_killed_at_any_moment_is_the_old_or_the_new_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("game.json");
    let mut saves_seen = std::collections::BTreeSet::new();
    for round in 0..12u64 {
        let mut child = Command::new(BIN)
            .args(GAME)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run overmind");
        let mut stdin = child.stdin.take().expect("stdin");
        let line = format!("save {}\n", path.display());
        let writer = std::thread::spawn(move || {
            for i in 0..400 {
                let text = if i % 3 == 2 { "end\n" } else { line.as_str() };
                if stdin.write_all(text.as_bytes()).is_err() {
                    break;
                }
            }
        });
        // Kill it somewhere among the saves (the first round after the first one).
        std::thread::sleep(Duration::from_millis(40 + 23 * round));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let _ = writer.join();
        if let Ok(text) = std::fs::read_to_string(&path) {
            let save: Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("round {round}: a partial save ({e}): {text:?}"));
            assert_eq!(save["version"], 2, "round {round}");
            assert!(save["final"]["log_hash"].is_string(), "round {round}");
            saves_seen.insert(save["final"]["events"].to_string());
        }
    }
    eprintln!("distinct saves seen: {saves_seen:?}");
    assert!(path.exists(), "some save was written");
    // Only the save itself and possibly the temporary files of killed saves are left.
    for name in listing(dir.path()) {
        assert!(
            name == "game.json" || (name.starts_with(".game.json.") && name.ends_with(".tmp")),
            "{name}"
        );
    }
}

#[test]
fn a_line_that_is_not_utf8_is_an_error_and_the_game_goes_on() {
    let mut child = Command::new(BIN)
        .args(GAME)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run overmind");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"status\nmove \xff\xfe alpha\n\xc3\nmap\nquit\n");
    }
    let out = child.wait_with_output().expect("wait");
    let evs = events(&stdout(&out));
    let kinds = kinds(&evs);
    let errors = of_kind(&evs, "error");
    assert_eq!(errors.len(), 2, "{kinds:?}");
    assert!(
        errors[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("at column 6") && m.contains("not UTF-8")),
        "{}",
        errors[0]
    );
    assert!(
        kinds.contains(&"map"),
        "read on after the bad lines: {kinds:?}"
    );
    assert_eq!(
        of_kind(&evs, "quit")
            .first()
            .and_then(|q| q["reason"].as_str()),
        Some("quit")
    );
}

#[test]
fn a_save_that_is_not_utf8_or_cut_short_is_placed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("game.json");
    let out = run(GAME, &format!("save {}\nquit\n", path.display()));
    assert!(out.status.success(), "{}", stderr(&out));
    let good = std::fs::read(&path).expect("saved");

    let mut bad = good.clone();
    let at = bad.iter().position(|&b| b == b'\n').unwrap_or(0) + 4;
    bad[at] = 0xff;
    std::fs::write(&path, &bad).expect("write");
    let out = run(&["replay", &path.display().to_string()], "");
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{}:2:4: found the byte 0xff, which is not UTF-8",
            path.display()
        )),
        "{err}"
    );

    for cut in [good.len() - 2, 1] {
        std::fs::write(&path, &good[..cut]).expect("write");
        let out = run(&["replay", &path.display().to_string()], "");
        let err = stderr(&out);
        let line = err
            .lines()
            .find(|l| l.contains("EOF while parsing"))
            .unwrap_or_else(|| panic!("{err}"));
        let rest = line
            .split(&format!("{}:", path.display()))
            .nth(1)
            .unwrap_or("");
        let mut parts = rest.splitn(3, ':');
        let l: usize = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        let c: usize = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        assert!(l >= 1 && c >= 1, "{line}");
    }
}

#[test]
fn hot_reload_reports_a_broken_file_as_failed_not_deleted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pack = dir.path().join("behaviours");
    copy_dir(&root().join("behaviours"), &pack);
    let rush = pack.join("behaviours/rush.lua");
    let mut g = Driver::start(
        dir.path(),
        &["play", "--json", "--seed", "1", "--mission", "small"],
    );
    g.wait("your_turn", |e| e["event"] == "your_turn");

    let mut text = std::fs::read(&rush).expect("read");
    let line = text.iter().filter(|&&b| b == b'\n').count() + 1;
    text.extend_from_slice(b"-- \xff\n");
    std::fs::write(&rush, &text).expect("break rush");
    let started = Instant::now();
    let r = g.wait("reload", |e| e["event"] == "reload");
    assert_eq!(r["outcome"], "failed", "{r}");
    let msg = r["message"].as_str().unwrap_or_default();
    assert!(
        msg.contains(&format!("rush.lua:{line}:4: found the byte 0xff")),
        "{msg}"
    );
    assert!(!msg.contains("deleted"), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(30));
    g.send("quit");
}
