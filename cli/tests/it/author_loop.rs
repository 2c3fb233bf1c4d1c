//! Issue 12's loop, from the docs as written: docs/WRITING_BEHAVIOURS.md step 0's commands
//! (the ```` ```sh author-loop ```` block) run in a fresh folder — a new pack, `check`, `test`,
//! the three linters, then `play --dev` — and the game-prompt lines (```` ```text
//! author-loop-prompt ````) are typed into the running game: a Brute is spawned and performs
//! the pack's behaviour; the behaviour file is edited and saved; the reload is reported and the
//! next `perform` runs the new code. The elapsed time is printed (`--nocapture`), not asserted.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The lines of every fenced block whose info string is exactly `info`.
fn block(doc: &str, info: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if line.strip_prefix("```").map(str::trim) != Some(info) {
            continue;
        }
        for l in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            let l = l.trim();
            if !l.is_empty() && !l.starts_with('#') {
                out.push(l.to_string());
            }
        }
    }
    out
}

/// Where the pinned Lua tools are (`.ci/run` puts them there and on `PATH`).
fn tools_dir() -> PathBuf {
    std::env::var_os("OVERMIND_TOOLS").map_or_else(
        || {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/overmind-tools")
        },
        PathBuf::from,
    )
}

fn search_path() -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_overmind"));
    let bin_dir = bin.parent().map(Path::to_path_buf).unwrap_or_default();
    format!(
        "{}:{}:{}",
        bin_dir.display(),
        tools_dir().join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn found(tool: &str) -> bool {
    search_path()
        .split(':')
        .any(|d| Path::new(d).join(tool).is_file())
}

fn shell(dir: &Path, cmd: &str) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .env("PATH", search_path())
        .env("OVERMIND_BASE", root().join("behaviours"))
        .env("NO_COLOR", "1");
    c
}

/// The game's JSON lines, as they come.
fn lines_of(child: &mut Child) -> Receiver<Value> {
    let (tx, rx) = channel();
    if let Some(out) = child.stdout.take() {
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                let Ok(v) = serde_json::from_str::<Value>(&l) else {
                    panic!("not JSON: {l}");
                };
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
    }
    rx
}

fn wait(rx: &Receiver<Value>, seen: &mut Vec<Value>, what: &str, pred: impl Fn(&Value) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(v) => {
                let hit = pred(&v);
                seen.push(v);
                if hit {
                    return;
                }
            }
            Err(_) => panic!("no {what} within 30 s; saw:\n{seen:#?}"),
        }
    }
}

fn kind(v: &Value) -> &str {
    v.get("event").and_then(Value::as_str).unwrap_or("")
}

#[test]
fn a_new_behaviour_fires_in_a_running_game_from_the_docs_commands() {
    let doc = match std::fs::read_to_string(root().join("docs/WRITING_BEHAVIOURS.md")) {
        Ok(d) => d,
        Err(e) => panic!("cannot read docs/WRITING_BEHAVIOURS.md: {e}"),
    };
    let commands = block(&doc, "sh author-loop");
    let prompt = block(&doc, "text author-loop-prompt");
    assert!(
        commands.iter().any(|c| c.starts_with("overmind new pack"))
            && commands.iter().any(|c| c.contains("--dev")),
        "step 0 makes a pack and plays it with --dev: {commands:#?}"
    );
    assert!(
        prompt.iter().any(|l| l.starts_with("spawn "))
            && prompt.iter().any(|l| l.starts_with("perform ")),
        "{prompt:#?}"
    );
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("no temporary directory: {e}"),
    };
    let started = Instant::now();
    let linters = ["stylua", "luacheck", "emmylua_check"];
    let mut play = None;
    for cmd in &commands {
        if cmd.starts_with("overmind play") {
            play = Some(cmd.clone());
            continue;
        }
        if linters.iter().any(|t| cmd.contains(t)) && !linters.iter().all(|t| found(t)) {
            // CI installs them (.ci/run); a machine without them skips only this line.
            eprintln!("skipped (linters not installed): {cmd}");
            continue;
        }
        let o = match shell(dir.path(), cmd).stdin(Stdio::null()).output() {
            Ok(o) => o,
            Err(e) => panic!("cannot run `{cmd}`: {e}"),
        };
        assert!(
            o.status.success(),
            "`{cmd}` failed ({}):\n{}\n{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let Some(play) = play else {
        panic!("step 0 plays no game");
    };
    let Some(perform) = prompt.iter().find(|l| l.starts_with("perform ")).cloned() else {
        panic!("no perform line");
    };
    let behaviour = perform.split_whitespace().nth(2).unwrap_or("").to_string();
    let file = dir
        .path()
        .join("quick/behaviours")
        .join(format!("{behaviour}.lua"));
    assert!(file.is_file(), "{} is what the docs edit", file.display());

    // Standard input is a pipe, so the game speaks JSON lines, as a program would see it.
    let mut game = match shell(dir.path(), &format!("exec {play}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => panic!("cannot start `{play}`: {e}"),
    };
    let rx = lines_of(&mut game);
    let mut seen = Vec::new();
    let mut send = |line: &str| {
        if let Some(stdin) = game.stdin.as_mut() {
            let _ = writeln!(stdin, "{line}");
        }
    };
    wait(&rx, &mut seen, "first prompt", |v| kind(v) == "your_turn");
    for line in &prompt {
        send(line);
    }
    wait(&rx, &mut seen, "unit_spawned", |v| {
        kind(v) == "unit_spawned"
    });
    wait(&rx, &mut seen, "the behaviour performed", |v| {
        kind(v) == "behaviour_performed" && v["behaviour"] == behaviour.as_str()
    });
    assert!(
        seen.iter()
            .any(|v| kind(v) == "moved" && v["unit"] == "s1.1"),
        "the Brute lunged at the Hero in sight: {seen:#?}"
    );

    // The author's edit: one new line at the top of perform.
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let edited = text.replacen(
        "perform = function(unit, game)\n",
        "perform = function(unit, game)\n    game:log(\"edited while the game runs\")\n",
        1,
    );
    assert_ne!(edited, text, "the behaviour has a perform function to edit");
    if let Err(e) = std::fs::write(&file, edited) {
        panic!("cannot save the edit: {e}");
    }
    wait(&rx, &mut seen, "the reload", |v| {
        kind(v) == "reload" && v.to_string().contains(&behaviour)
    });
    send(&perform);
    wait(&rx, &mut seen, "the new code's log line", |v| {
        kind(v) == "log" && v["message"] == "edited while the game runs"
    });
    send("quit");
    let _ = game.kill();
    let _ = game.wait();
    eprintln!(
        "author loop: nothing to an edited behaviour firing in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn blocks_are_found_by_their_info_string() {
    let doc = "```sh\nnot this\n```\n```sh author-loop\n# a comment\none\n\ntwo\n```\n";
    assert_eq!(block(doc, "sh author-loop"), ["one", "two"]);
    assert_eq!(block(doc, "sh"), ["not this"]);
}
