//! docs/WRITING_BEHAVIOURS.md works as written: its files are written and its shell commands run, in order, in a fresh folder.
//!
//! A fenced `lua` or `toml` block whose first line is a comment naming a path under `my_pack/`
//! is that file's content; every line of a fenced `sh` block is a command, run with the built
//! `overmind` first on `PATH`. `overmind play` needs a person at a terminal, so it is run as
//! the two AIs playing over JSON (`--heroes ai --overmind ai --json --no-watch`). Step 6, the
//! edit made while a game runs, is played for real: a game waits on its JSON input while the
//! new version of the script is saved, and must report the reload.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// One step of the tutorial.
#[derive(Debug)]
enum Step {
    /// Write a file (path relative to the working folder).
    File { path: String, text: String },
    /// Run a shell command.
    Run(String),
}

/// The steps of a Markdown text, in order.
fn steps(doc: &str) -> Vec<Step> {
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(lang) = line.strip_prefix("```") else {
            continue;
        };
        let mut body = Vec::new();
        for l in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            body.push(l);
        }
        match lang.trim() {
            "sh" => {
                for l in body
                    .iter()
                    .map(|l| l.trim())
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                {
                    out.push(Step::Run(l.to_string()));
                }
            }
            "lua" | "toml" => {
                let first = body.first().copied().unwrap_or("");
                let path = first
                    .trim_start_matches("--")
                    .trim_start_matches('#')
                    .trim();
                if path.starts_with("my_pack/") && !path.contains(' ') {
                    out.push(Step::File {
                        path: path.to_string(),
                        text: body.iter().map(|l| format!("{l}\n")).collect(),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The command as the test runs it: `overmind play` as AI against AI over JSON.
fn runnable(cmd: &str) -> String {
    if cmd.starts_with("overmind play") && !cmd.contains("--json") {
        let mut c = cmd.to_string();
        for (flag, value) in [("--heroes", "ai"), ("--overmind", "ai")] {
            if !c.contains(flag) {
                c.push_str(&format!(" {flag} {value}"));
            }
        }
        c.push_str(" --json --no-watch");
        c
    } else {
        cmd.to_string()
    }
}

/// `sh -c cmd` in `dir`, with the built `overmind` first on `PATH` and the repository's base
/// pack.
fn shell(dir: &Path, cmd: &str) -> Command {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_overmind"));
    let bin_dir = bin.parent().map(Path::to_path_buf).unwrap_or_default();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .env("PATH", path)
        .env("OVERMIND_BASE", root().join("behaviours"))
        .env("NO_COLOR", "1");
    c
}

fn run(dir: &Path, cmd: &str) -> Output {
    match shell(dir, cmd).stdin(Stdio::null()).output() {
        Ok(o) => o,
        Err(e) => panic!("cannot run `{cmd}`: {e}"),
    }
}

fn tutorial() -> Vec<Step> {
    match std::fs::read_to_string(root().join("docs/WRITING_BEHAVIOURS.md")) {
        Ok(d) => steps(&d),
        Err(e) => panic!("cannot read docs/WRITING_BEHAVIOURS.md: {e}"),
    }
}

fn write(dir: &Path, path: &str, text: &str) {
    let target = dir.join(path);
    if let Some(parent) = target.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    if let Err(e) = std::fs::write(&target, text) {
        panic!("cannot write {path}: {e}");
    }
}

#[test]
fn the_tutorial_runs_as_written() {
    let steps = tutorial();
    let commands: Vec<&str> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Run(c) => Some(c.as_str()),
            Step::File { .. } => None,
        })
        .collect();
    for want in [
        "overmind check",
        "overmind play",
        "overmind test",
        "overmind simulate",
    ] {
        assert!(
            commands.iter().any(|c| c.starts_with(want)),
            "the tutorial runs no `{want}`: {commands:#?}"
        );
    }
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("no temporary directory: {e}"),
    };
    let mut written = 0;
    for step in &steps {
        match step {
            Step::File { path, text } => {
                write(dir.path(), path, text);
                written += 1;
            }
            Step::Run(cmd) => {
                let cmd = runnable(cmd);
                let o = run(dir.path(), &cmd);
                let stdout = String::from_utf8_lossy(&o.stdout);
                let stderr = String::from_utf8_lossy(&o.stderr);
                assert!(
                    o.status.success(),
                    "`{cmd}` failed ({}):\n{stdout}\n{stderr}",
                    o.status
                );
                check_output(&cmd, &stdout);
            }
        }
    }
    assert!(
        written >= 4,
        "the tutorial writes its pack, behaviour, alien type and scenario"
    );
}

/// What each kind of command must have said.
fn check_output(cmd: &str, out: &str) {
    if cmd.starts_with("overmind check") {
        let summary = out.lines().last().unwrap_or("");
        assert!(
            summary.starts_with("checked 2 packs:")
                && summary.contains("snipe")
                && summary.ends_with("; 0 problems"),
            "{out}"
        );
    } else if cmd.starts_with("overmind test") && cmd.contains("--filter") {
        // "Your first card": only its scenario.
        assert!(out.contains("test result: ok. 1 passed, 0 failed"), "{out}");
    } else if cmd.starts_with("overmind test") {
        assert!(
            out.contains("PASS  my_pack/tests/snipe.toml: SNIPE shoots the weakest Hero"),
            "{out}"
        );
        assert!(out.contains("test result: ok. 1 passed, 0 failed"), "{out}");
    } else if cmd.starts_with("overmind play") {
        assert!(
            out.lines().filter(|l| l.starts_with('{')).count() > 10,
            "one JSON event per line: {out}"
        );
        assert!(out.contains("game_over"), "the AIs finish the game: {out}");
    } else if cmd.starts_with("overmind simulate") {
        assert!(
            out.contains("snipe"),
            "the comparison shows the new behaviour in use: {out}"
        );
    } else if cmd.starts_with("overmind api --lua") {
        // Redirected into the pack: nothing on standard output.
        assert!(out.is_empty(), "{out}");
    }
}

/// Step 6: the first version of each file is in place and a game is running; saving the new
/// version of the behaviour makes it live, and the game says so.
#[test]
fn the_edit_goes_live_in_a_running_game() {
    let steps = tutorial();
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("no temporary directory: {e}"),
    };
    let mut edits = Vec::new();
    let mut seen = Vec::new();
    for step in &steps {
        if let Step::File { path, text } = step {
            if seen.contains(path) {
                edits.push((path.clone(), text.clone()));
            } else {
                write(dir.path(), path, text);
                seen.push(path.clone());
            }
        }
    }
    let Some((path, text)) = edits.last().cloned() else {
        panic!("the tutorial shows no edited version of a file");
    };
    let mut game = match shell(
        dir.path(),
        "exec overmind play --pack my_pack --seed 7 --json",
    )
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    {
        Ok(c) => c,
        Err(e) => panic!("cannot start the game: {e}"),
    };
    let (tx, rx) = mpsc::channel();
    if let Some(out) = game.stdout.take() {
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    // Wait for the game to be up (its first event), then save the new version.
    let first = rx.recv_timeout(Duration::from_secs(30));
    assert!(first.is_ok(), "the game wrote nothing");
    write(dir.path(), &path, &text);
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut reloaded = None;
    while Instant::now() < deadline {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) if line.contains("\"reload\"") => {
                reloaded = Some(line);
                break;
            }
            Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    drop(game.stdin.take());
    let _ = game.kill();
    let _ = game.wait();
    let line = reloaded.unwrap_or_else(|| panic!("no reload event within 20 s of saving {path}"));
    assert!(line.contains("behaviour snipe reloaded"), "{line}");
}

#[test]
fn play_commands_become_ai_games() {
    assert_eq!(
        runnable("overmind play --pack my_pack --seed 7"),
        "overmind play --pack my_pack --seed 7 --heroes ai --overmind ai --json --no-watch"
    );
    assert_eq!(
        runnable("overmind check --pack my_pack"),
        "overmind check --pack my_pack"
    );
    let s = steps("x\n```sh\n# a comment\nmkdir -p a\n\n```\n```lua\n-- my_pack/b.lua\nreturn 1\n```\n```toml\n# not a path here\n```\n");
    assert_eq!(s.len(), 2, "{s:?}");
}
