//! The replay and report pages in a real browser (issue 15): headless Chromium loads each page
//! and the DOM it leaves is read back (`--dump-dom`). No error is raised, the board has one
//! cell per square, the buttons, keys and slider step where they should, `#step=end` shows
//! the save's final positions (from replaying the save with the engine itself), the log sits beside the board at 1280×800 and below it on a
//! phone-sized screen, and screenshots are kept in `target/ci-artifacts/`. Skipped, saying
//! so, where `/usr/bin/chromium` is not installed, unless `OVERMIND_REQUIRE_CHROMIUM` is set
//! (`.ci/run` installs it and sets that).

use crate::common;

use common::*;
use overmind_core::{Game, Record};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";

/// Chromium, or `None` with the reason printed.
fn chromium() -> Option<&'static str> {
    if Path::new(CHROMIUM).exists() {
        Some(CHROMIUM)
    } else if std::env::var_os("OVERMIND_REQUIRE_CHROMIUM").is_some_and(|v| !v.is_empty()) {
        panic!(
            "{CHROMIUM} is not installed and OVERMIND_REQUIRE_CHROMIUM is set (.ci/run sets it)"
        );
    } else {
        eprintln!("skipped: {CHROMIUM} is not installed (apt-get install chromium; .ci/run does)");
        None
    }
}

/// Where screenshots are kept: `$CI_ARTIFACTS`, else `target/ci-artifacts/` in the workspace.
fn artifacts() -> PathBuf {
    let dir = std::env::var_os("CI_ARTIFACTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/ci-artifacts"));
    std::fs::create_dir_all(&dir).expect("the artifacts directory");
    dir
}

/// Run headless Chromium on `url` with `extra` arguments; its standard output and error.
fn browse(url: &str, size: &str, extra: &[&str]) -> (String, String) {
    let profile = tempfile::tempdir().expect("a profile directory");
    let mut cmd = Command::new(CHROMIUM);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--user-data-dir={}", profile.path().display()))
    .arg(format!("--window-size={size}"))
    .args(extra)
    .arg(url)
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let child = cmd.spawn().expect("start chromium");
    let id = child.id();
    // A browser that hangs fails the test rather than the whole run.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let started = Instant::now();
    match rx.recv_timeout(Duration::from_secs(120)) {
        Ok(Ok(o)) => (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        ),
        _ => {
            let _ = Command::new("kill").arg(id.to_string()).status();
            panic!("chromium did not finish {url} in {:?}", started.elapsed());
        }
    }
}

/// The page's self-check element as the browser left it.
fn selfcheck(dom: &str) -> String {
    let start = dom
        .find("<p id=\"selfcheck\"")
        .expect("the self-check element");
    let end = start + dom[start..].find("</p>").expect("its end");
    dom[start..end].to_string()
}

fn attr(el: &str, name: &str) -> String {
    let key = format!("{name}=\"");
    let Some(i) = el.find(&key) else {
        return String::new();
    };
    let rest = &el[i + key.len()..];
    rest[..rest.find('"').unwrap_or(0)].to_string()
}

/// No script error reached the console, and the self-check passed.
fn assert_clean(dom: &str, stderr: &str, what: &str) -> String {
    for line in stderr.lines() {
        let console_error = line.contains("CONSOLE") && line.contains("ERROR")
            || line.contains("Uncaught")
            || line.contains("Refused to");
        assert!(!console_error, "{what}: {line}");
    }
    let check = selfcheck(dom);
    assert!(check.contains(">selfcheck: ok"), "{what}: {check}");
    check
}

/// Pieces drawn in the DOM: (id, x, y).
fn pieces(dom: &str) -> BTreeSet<(String, i64, i64)> {
    dom.match_indices("<g class=\"piece")
        .map(|(i, _)| {
            let el = &dom[i..i + dom[i..].find('>').unwrap_or(0)];
            let n = |k: &str| attr(el, k).parse::<i64>().unwrap_or(-1);
            (attr(el, "data-id"), n("data-x"), n("data-y"))
        })
        .collect()
}

/// Every model, Blip and token on the map at the end of the saved game, by replaying it with
/// the engine (not the page's code).
fn final_positions(save: &Path) -> BTreeSet<(String, i64, i64)> {
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(save).expect("save")).expect("json");
    let set = overmind_scripting::pack::PackSet::load(&[root().join("behaviours")])
        .expect("the base pack");
    let mission = v["mission"].as_str().expect("mission");
    let seed = v["seed"].as_u64().expect("seed");
    let start = set.start(mission, seed).expect("start");
    let name = match start.log.first() {
        Some(overmind_core::Event::GameStarted { mission, .. }) => mission.clone(),
        _ => mission.to_string(),
    };
    let records: Vec<Record> = v["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| {
            let mut r = r.clone();
            if let Some(m) = r.as_object_mut() {
                m.remove("events_hash");
            }
            serde_json::from_value(r).expect("a record")
        })
        .collect();
    let game = Game::replay(start.state, &name, seed, &records, &set.content).expect("replays");
    assert!(game.state.is_over(), "the saved game ended");
    let st = &game.state;
    let at = |id: &str, p: overmind_core::Pos| (id.to_string(), i64::from(p.x), i64::from(p.y));
    st.units
        .iter()
        .flat_map(|u| u.models.iter().map(|m| at(m.id.as_str(), m.pos)))
        .chain(st.blips.iter().map(|b| at(b.id.as_str(), b.pos)))
        .chain(
            st.tokens
                .iter()
                .filter(|t| t.carried_by.is_none())
                .map(|t| at(t.id.as_str(), t.pos)),
        )
        .collect()
}

/// A frame of `width` by `height` holding `page` (the phone-sized check: headless Chromium's
/// window is at least 500 wide, a frame can be narrower). The page posts its self-check to
/// the frame's parent, which writes it into its own DOM.
fn framed(dir: &Path, page: &Path, width: u32, height: u32) -> PathBuf {
    let harness = dir.join(format!(
        "phone-{}",
        page.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    ));
    let name = page
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    std::fs::write(
        &harness,
        format!(
            "<!DOCTYPE html><html><body style=\"margin:0;background:#16181d\">\
             <iframe src=\"{name}#step=end\" width=\"{width}\" height=\"{height}\" \
             style=\"border:0;display:block\"></iframe><pre id=\"framed\" hidden></pre><script>\
             addEventListener(\"message\", function (e) {{ document.getElementById(\"framed\")\
             .textContent = String(e.data); }});</script></body></html>"
        ),
    )
    .expect("write the frame");
    harness
}

fn url(p: &Path) -> String {
    format!("file://{}", p.display())
}

/// The phone-sized check of a page: the frame's message, unescaped.
fn phone_check(dir: &Path, page: &Path, shot: &Path) -> String {
    let harness = framed(dir, page, 390, 844);
    let (dom, err) = browse(&url(&harness), "500,844", &["--dump-dom"]);
    let open = "<pre id=\"framed\" hidden=\"\">";
    let start = dom.find(open).expect("the frame's report") + open.len();
    let text = &dom[start..start + dom[start..].find("</pre>").unwrap_or(0)];
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    assert!(
        text.contains(">selfcheck: ok"),
        "phone-sized {}: {text} {err}",
        page.display()
    );
    let shot_arg = format!("--screenshot={}", shot.display());
    browse(&url(&harness), "500,844", &[&shot_arg]);
    assert_png(shot);
    text
}

fn assert_png(p: &Path) {
    let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 1000,
        "{}",
        p.display()
    );
}

#[test]
fn the_replay_pages_work_in_a_browser_and_end_on_the_saves_final_positions() {
    let Some(_) = chromium() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("game.json");
    let mut args = ai_game(3, "overmind");
    args.extend(["--save".into(), save.display().to_string()]);
    let o = run(&strs(&args), "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want = final_positions(&save);
    assert!(!want.is_empty());
    let out = artifacts();
    for view in ["heroes", "overmind"] {
        let page = dir.path().join(format!("replay-{view}.html"));
        let o = run(
            &[
                "replay",
                &save.display().to_string(),
                "--html",
                &page.display().to_string(),
                "--view",
                view,
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let what = format!("{view} page");
        // At the end: the final positions, one cell per square, beside the log. `selftest`
        // has the page first drive its buttons, keys, slider and log, checking where each
        // lands, then go back to the step asked for.
        let (dom, err) = browse(
            &format!("{}#step=end&selftest", url(&page)),
            "1280,800",
            &["--dump-dom"],
        );
        let check = assert_clean(&dom, &err, &what);
        assert_eq!(attr(&check, "data-selftest"), "ok", "{what}: {check}");
        assert_eq!(attr(&check, "data-cells"), "400", "{what}: {check}");
        assert_eq!(attr(&check, "data-squares"), "400", "{what}");
        assert_eq!(
            attr(&check, "data-step"),
            attr(&check, "data-last"),
            "{what}"
        );
        assert_eq!(
            attr(&check, "data-layout"),
            "side-by-side",
            "{what}: {check}"
        );
        assert_eq!(
            pieces(&dom),
            want,
            "{what}: the board at the end is the save's"
        );
        // At the start the board is the mission's: the Heroes and every Blip.
        let (dom, err) = browse(
            &format!("{}#step=0", url(&page)),
            "1280,800",
            &["--dump-dom"],
        );
        assert_clean(&dom, &err, &what);
        assert_eq!(
            pieces(&dom)
                .iter()
                .filter(|(id, _, _)| id.starts_with('b'))
                .count(),
            11,
            "{what}: the demo's 11 Blips at the start"
        );
        let shot = out.join(format!("replay-{view}-1280x800.png"));
        let shot_arg = format!("--screenshot={}", shot.display());
        browse(
            &format!("{}#step=end", url(&page)),
            "1280,800",
            &[&shot_arg],
        );
        assert_png(&shot);
        // On a phone-sized screen the log goes below the board, and nothing is wider than it.
        let phone = phone_check(
            dir.path(),
            &page,
            &out.join(format!("replay-{view}-390x844.png")),
        );
        assert_eq!(attr(&phone, "data-layout"), "stacked", "{what}: {phone}");
        assert_eq!(attr(&phone, "data-viewport"), "390", "{what}: {phone}");
        let (w, v) = (
            attr(&phone, "data-page-width"),
            attr(&phone, "data-viewport"),
        );
        assert!(
            w.parse::<u32>().unwrap_or(9999) <= v.parse::<u32>().unwrap_or(0),
            "{what}: {phone}"
        );
    }
}

#[test]
fn the_report_page_works_in_a_browser() {
    let Some(_) = chromium() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("report.html");
    let pack = root().join("examples/expansion").display().to_string();
    let o = run(
        &[
            "simulate",
            "--games",
            "4",
            "--compare",
            &pack,
            "--html",
            &page.display().to_string(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (dom, err) = browse(&url(&page), "1280,800", &["--dump-dom"]);
    let check = assert_clean(&dom, &err, "report");
    assert_eq!(attr(&check, "data-charts"), "6", "{check}");
    assert_eq!(attr(&check, "data-runs"), "2", "{check}");
    let out = artifacts();
    let shot = out.join("report-1280x800.png");
    browse(
        &url(&page),
        "1280,800",
        &[&format!("--screenshot={}", shot.display())],
    );
    assert_png(&shot);
    let phone = phone_check(dir.path(), &page, &out.join("report-390x844.png"));
    let (w, v) = (
        attr(&phone, "data-page-width"),
        attr(&phone, "data-viewport"),
    );
    assert!(
        w.parse::<u32>().unwrap_or(9999) <= v.parse::<u32>().unwrap_or(0),
        "{phone}"
    );
}

/// A Hero standing on a medkit from the start, the Blip walled off.
const UNDERFOOT: &str = r#"name = "Underfoot"
map = """
+-+-+-+-+-+-+
|. . . . . .|
+           +
|. . . . . .|
+           +
|. . . . . .|
+-+-+-+-+-+-+
|y . . . . .|
+-+-+-+-+-+-+
"""
objective = { kind = "eliminate" }
max_rounds = 2
decoys = 0

[[tokens]]
kind = "medkit"
at = [0, 3]

[[heroes]]
id = "alpha"
profile = "vance"
at = [0, 3]

[[blips]]
id = "b1"
at = [5, 0]
holds = "stalker"
size = 1
"#;

/// Issue 25: a model on a token is drawn over it and the token stays visible; the dice are
/// shapes (no font glyph), a blank blank, with a key (`#selftest` checks the first roll of
/// the other test's game; this page's source holds no glyph a font must supply).
#[test]
fn a_token_under_a_model_stays_visible_and_dice_need_no_font() {
    let Some(_) = chromium() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let mission = dir.path().join("underfoot.toml");
    std::fs::write(&mission, UNDERFOOT).expect("write mission");
    let save = dir.path().join("game.json");
    let m = mission.display().to_string();
    let s = save.display().to_string();
    let o = run(
        &[
            "play",
            "--json",
            "--no-watch",
            "--heroes",
            "ai",
            "--overmind",
            "ai",
            "--seed",
            "1",
            "--mission",
            &m,
            "--save",
            &s,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = dir.path().join("replay.html");
    let o = run(&["replay", &s, "--html", &page.display().to_string()], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let source = std::fs::read_to_string(&page).expect("the page");
    for glyph in ['✶', '✹', '⛨'] {
        assert!(!source.contains(glyph), "the page needs a font for {glyph}");
    }
    let (dom, err) = browse(
        &format!("{}#step=0", url(&page)),
        "1280,800",
        &["--dump-dom"],
    );
    let check = assert_clean(&dom, &err, "underfoot");
    assert_eq!(attr(&check, "data-tokens-under"), "1", "{check}");
    assert_eq!(attr(&check, "data-tokens-hidden"), "0", "{check}");
    // Both pieces are on the board, the token first (under the Hero).
    let token = dom.find("data-id=\"t1\"").expect("the token is drawn");
    let hero = dom.find("data-id=\"alpha\"").expect("the Hero is drawn");
    assert!(token < hero, "the Hero is drawn over the token");
    let shot = artifacts().join("replay-underfoot-1280x800.png");
    browse(
        &format!("{}#step=0", url(&page)),
        "1280,800",
        &[&format!("--screenshot={}", shot.display())],
    );
    assert_png(&shot);
}
