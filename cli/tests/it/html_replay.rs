//! `overmind replay SAVE --html OUT` (issue 15): one self-contained page per saved game, with a
//! cell per square and a step per event; clear errors naming the file; and a Heroes' page that
//! holds nothing the Heroes may not know (docs/RULES.md §10), over many seeded games: no
//! face-down Blip's contents, no seed, no event describing a Blip before its reveal, and
//! nothing else that differs from the full page.

use crate::common;

use common::*;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// Play an AI-against-AI game of the demo mission and save it to `save`.
fn saved_game(seed: u64, save: &Path) {
    let mut args = ai_game(seed, "overmind");
    args.extend(["--save".into(), save.display().to_string()]);
    let o = run(&strs(&args), "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// `overmind replay SAVE --html OUT --view VIEW`, which must succeed; the page's text.
fn page(save: &Path, out: &Path, view: &str) -> String {
    let o = run(
        &[
            "replay",
            &save.display().to_string(),
            "--html",
            &out.display().to_string(),
            "--view",
            view,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("replays identically"), "{}", stdout(&o));
    std::fs::read_to_string(out).expect("the page")
}

/// The JSON embedded in the page's `<script type="application/json" id="data">`.
fn data(html: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"data\">";
    let start = html.find(open).expect("the data element") + open.len();
    let end = start + html[start..].find("</script>").expect("its end");
    serde_json::from_str(&html[start..end]).expect("the data is JSON")
}

#[test]
fn a_replay_page_is_one_self_contained_file_with_a_cell_per_square_and_a_step_per_event() {
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("game.json");
    saved_game(3, &save);
    let out = dir.path().join("replay.html");
    let html = page(&save, &out, "overmind");
    // Nothing is fetched: no external script, style, image or font, no URL but the SVG
    // namespace.
    for bad in ["<link", " src=", "@import", "url("] {
        assert!(
            !html.contains(bad),
            "the page refers to something outside it: {bad}"
        );
    }
    let urls: BTreeSet<&str> = html
        .match_indices("://")
        .map(|(i, _)| &html[i.saturating_sub(5)..(i + 22).min(html.len())])
        .collect();
    assert!(
        urls.iter().all(|u| *u == "\"http://www.w3.org/2000/svg"),
        "{urls:?}"
    );
    let d = data(&html);
    let (w, h) = (d["map"]["w"].as_u64(), d["map"]["h"].as_u64());
    let squares = w.unwrap_or(0) * h.unwrap_or(0);
    assert_eq!(squares, 400, "the demo map is 20 by 20");
    assert_eq!(
        html.matches("<rect class=\"cell ").count() as u64,
        squares,
        "one cell per square"
    );
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("save")).expect("json");
    let steps = d["steps"].as_array().expect("steps");
    assert_eq!(Some(steps.len() as u64), saved["final"]["events"].as_u64());
    assert_eq!(
        d["actions"].as_u64(),
        Some(saved["records"].as_array().map_or(0, Vec::len) as u64)
    );
    // Each attack carries its dice; the full view names the seed.
    let attacks: Vec<&Value> = steps
        .iter()
        .filter(|s| s["ev"]["event"] == "attack")
        .collect();
    assert!(!attacks.is_empty());
    assert!(attacks.iter().all(|s| s["ev"]["faces"].is_array()));
    assert_eq!(d["seed"].as_u64(), saved["seed"].as_u64());
    // Written again over the old page, without a temporary file left beside it.
    page(&save, &out, "heroes");
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(left.len(), 2, "the save and the page only");
}

#[test]
fn bad_saves_and_unwritable_pages_are_named_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("game.json");
    saved_game(1, &save);
    let s = save.display().to_string();
    let fails = |args: &[&str], names: &str| {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(names),
            "{args:?}: the error names {names}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    };
    let missing = dir.path().join("no-such-save.json");
    let out = dir.path().join("p.html");
    let o = out.display().to_string();
    fails(
        &["replay", &missing.display().to_string(), "--html", &o],
        "no-such-save.json",
    );
    let not_a_save = dir.path().join("notes.txt");
    std::fs::write(&not_a_save, "hello").expect("write");
    fails(
        &["replay", &not_a_save.display().to_string(), "--html", &o],
        "notes.txt:1:1",
    );
    assert!(!out.exists());
    let nowhere = dir.path().join("no/such/dir/page.html");
    fails(
        &["replay", &s, "--html", &nowhere.display().to_string()],
        "page.html",
    );
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).expect("mkdir");
    fails(
        &["replay", &s, "--html", &sub.display().to_string()],
        "it is a directory",
    );
    #[cfg(unix)]
    {
        let target = dir.path().join("target.html");
        std::fs::write(&target, "mine").expect("write");
        let link = dir.path().join("link.html");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        fails(
            &["replay", &s, "--html", &link.display().to_string()],
            "symbolic link",
        );
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "mine");
    }
    // --view is about the page.
    let o = run(&["replay", &s, "--view", "heroes"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A game played with the author tools has no Heroes' page (play refuses that view too).
    let dev = dir.path().join("dev.json");
    let o = run(
        &[
            "play",
            "--json",
            "--no-watch",
            "--dev",
            "--save",
            &dev.display().to_string(),
        ],
        "spawn stalker 5,5\nquit\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = dir.path().join("dev.html").display().to_string();
    let d = dev.display().to_string();
    let o = run(&["replay", &d, "--html", &page, "--view", "heroes"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--dev"), "{}", stderr(&o));
    assert!(!dir.path().join("dev.html").exists());
    let o = run(&["replay", &d, "--html", &page], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(dir.path().join("dev.html")).expect("the page");
    assert!(html.contains("\"unit_spawned\""), "the spawn is a step");
}

/// Whether `text` names `id` as a word (`b1` in "b1 moves", not in "b10").
fn names(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + id.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The full page's data with what only the Overmind knows taken out: every Blip's `holds`,
/// the seed, the view's name.
fn without_secrets(full: &Value) -> Value {
    let mut v = full.clone();
    if let Some(m) = v.as_object_mut() {
        m.remove("seed");
        m.remove("view");
    }
    for s in v["steps"].as_array_mut().into_iter().flatten() {
        if let Some(e) = s["ev"].as_object_mut() {
            e.remove("seed");
        }
    }
    for f in v["frames"].as_array_mut().into_iter().flatten() {
        for p in f.as_array_mut().into_iter().flatten() {
            if p[2] == "blip" {
                p[10] = Value::from("");
            }
        }
    }
    v
}

#[test]
fn the_heroes_page_never_holds_what_a_face_down_blip_holds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut hidden_in_full, mut reveals) = (0, 0);
    for seed in 0..30 {
        let save = dir.path().join(format!("g{seed}.json"));
        saved_game(seed, &save);
        let full_html = page(&save, &dir.path().join("full.html"), "overmind");
        let heroes_html = page(&save, &dir.path().join("heroes.html"), "heroes");
        let (full, heroes) = (data(&full_html), data(&heroes_html));
        let what = format!("seed {seed}");
        assert_eq!(heroes["view"], "heroes");
        assert!(
            heroes.get("seed").is_none(),
            "{what}: the seed is in the page"
        );
        let saved: Value =
            serde_json::from_str(&std::fs::read_to_string(&save).expect("save")).expect("json");
        let seed_text = format!("seed {}", saved["seed"]);
        assert!(!heroes_html.contains(&seed_text), "{what}: {seed_text}");
        for word in ["\"holds\"", "\"contents\"", "\"seed\""] {
            assert!(!heroes_html.contains(word), "{what}: {word} is in the page");
        }
        // The alien types of the game, which a face-down Blip's text must not name.
        let mut types: BTreeSet<String> = BTreeSet::new();
        for f in full["frames"].as_array().into_iter().flatten() {
            for p in f.as_array().into_iter().flatten() {
                if p[2] == "alien" {
                    types.extend(p[4].as_str().map(String::from));
                }
                if p[2] == "blip" && p[10] != "" {
                    hidden_in_full += 1;
                }
            }
        }
        types.insert("decoy".into());
        types.insert("Decoy".into());
        // Every step before a Blip's reveal: no event describes it, no line names it with a
        // type, and no board shows what it holds.
        let steps = heroes["steps"].as_array().expect("steps");
        let blips: BTreeSet<String> = heroes["frames"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|f| f.as_array().into_iter().flatten())
            .filter(|p| p[2] == "blip")
            .filter_map(|p| p[0].as_str().map(String::from))
            .collect();
        let mut revealed_at: HashMap<&str, usize> = HashMap::new();
        for (i, s) in steps.iter().enumerate() {
            if s["ev"]["event"] == "blip_revealed" {
                if let Some(b) = s["ev"]["blip"].as_str() {
                    revealed_at.entry(b).or_insert(i);
                    reveals += 1;
                }
            }
        }
        for (i, s) in steps.iter().enumerate() {
            let text = s["text"].as_str().unwrap_or("");
            for b in &blips {
                if revealed_at.get(b.as_str()).is_some_and(|&r| i >= r) {
                    continue;
                }
                assert!(
                    !describes(&s["ev"], b),
                    "{what}: step {i} describes face-down Blip {b}: {}",
                    s["ev"]
                );
                if names(text, b) {
                    for t in &types {
                        assert!(!names(text, t), "{what}: step {i} says {text:?}");
                    }
                }
            }
        }
        for f in heroes["frames"].as_array().into_iter().flatten() {
            for p in f.as_array().into_iter().flatten() {
                if p[2] == "blip" {
                    assert_eq!(p[10], "", "{what}: a board shows what {} holds", p[0]);
                }
            }
        }
        // And nothing else differs from the full page.
        let mut h = heroes.clone();
        if let Some(m) = h.as_object_mut() {
            m.remove("view");
        }
        assert_eq!(h, without_secrets(&full), "{what}");
    }
    assert!(
        hidden_in_full > 100,
        "the full pages did show what Blips hold ({hidden_in_full}), so the check saw secrets"
    );
    assert!(reveals > 30, "the games revealed Blips ({reveals})");
}

#[test]
fn names_from_a_pack_are_escaped_in_the_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(root().join("behaviours/missions/small.toml"))
        .expect("small mission");
    let evil = "</script><script>alert(1)</script><b onmouseover='x'>&";
    let text = text.replacen(
        &text[text.find("name = ").expect("a name")..]
            .lines()
            .next()
            .unwrap_or_default()
            .to_string(),
        &format!("name = {evil:?}"),
        1,
    );
    let mission = dir.path().join("evil.toml");
    std::fs::write(&mission, text).expect("write");
    let save = dir.path().join("g.json");
    let mut args = ai_game(2, "overmind");
    args.extend([
        "--mission".into(),
        mission.display().to_string(),
        "--save".into(),
        save.display().to_string(),
    ]);
    let o = run(&strs(&args), "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = page(&save, &dir.path().join("p.html"), "overmind");
    assert!(!html.contains("alert(1)</script>") && !html.contains("<b onmouseover"));
    assert!(
        html.contains("&lt;/script&gt;&lt;script&gt;alert(1)"),
        "the title"
    );
    // The page's own scripts are the only ones: the data element and the script.
    assert_eq!(html.matches("<script").count(), 2);
    assert_eq!(
        data(&html)["mission"],
        evil,
        "the data reads back as it was"
    );
}
