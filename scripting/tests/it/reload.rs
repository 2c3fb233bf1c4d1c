//! Hot reload against real files: edits to a temp copy of a pack go through the file watcher
//! and `PackSet::reload` into a game that keeps running (DESIGN.md "Hot reload").
//!
//! Every test waits for the watcher's report with a generous deadline but returns as soon as
//! the report comes; none sleeps and hopes.

use overmind_core::{
    Action, Blip, Contents, Controllers, Event, FirstOption, Game, HeroSetup, MapBuilder,
    Objective, Pos, Rules, Scripted, Setup, Side,
};
use overmind_scripting::pack::{Kind, PackSet, Reload};
use overmind_scripting::reload::{apply, is_content, WatchError, Watcher};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The longest a test waits for the watcher (a loaded CI box can be slow); the usual wait is
/// the debounce plus a few milliseconds.
const WAIT: Duration = Duration::from_secs(10);
const DEBOUNCE: Duration = Duration::from_millis(50);

/// The probe behaviour: logs `says` when performed.
fn behaviour(id: &str, says: &str) -> String {
    format!(
        r#"-- A probe for the hot-reload tests.
return behaviour {{
  id = "{id}",
  name = "{}",
  text = "Logs which version ran.",
  perform = function(unit, game)
    game:log("{says}")
  end,
}}
"#,
        id.to_uppercase()
    )
}

fn alien(id: &str, behaviour: &str, movement: u32, health: u32) -> String {
    format!(
        r#"return alien_type {{
  id = "{id}", name = "{id}", unit = {{ max = 1 }},
  movement = {movement}, melee = 2, defence = 1, health = {health},
  behaviours = {{ "{behaviour}" }},
}}
"#
    )
}

fn hero(id: &str, movement: u32) -> String {
    format!(
        r#"id = "{id}"
name = "{id}"
health = 8
movement = {movement}
dial = [{{ from = 1, melee = 2, defence = 1 }}]
"#
    )
}

/// A pack in a temp dir: a copy of the base pack when its scripts are there (else a minimal
/// pack), plus the probe behaviour `hot`, the alien type `hot` that performs it, and the hero
/// `hot`.
struct Pack {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

impl Pack {
    fn new() -> Pack {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().join("base");
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../behaviours");
        let has_scripts = fs::read_dir(base.join("behaviours")).is_ok_and(|rd| {
            rd.flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "lua"))
        });
        if has_scripts {
            copy_dir(&base, &dir);
        } else {
            fs::create_dir_all(&dir).expect("pack dir");
            fs::write(
                dir.join("pack.toml"),
                "name = \"base\"\nversion = \"0.1.0\"\n",
            )
            .expect("pack.toml");
            let p = Pack { _tmp: tmp, dir };
            p.write("behaviours/x.lua", &behaviour("x", "x"));
            p.write("aliens/a.lua", &alien("a", "x", 4, 2));
            p.write("heroes/h.toml", &hero("h", 4));
            return p.with_probes();
        }
        Pack { _tmp: tmp, dir }.with_probes()
    }

    fn with_probes(self) -> Pack {
        self.write("behaviours/hot.lua", &behaviour("hot", "hot v1"));
        self.write("aliens/hot.lua", &alien("hot", "hot", 4, 2));
        self.write("heroes/hot.toml", &hero("hot", 4));
        self
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.path(rel);
        if let Some(parent) = p.parent() {
            fs::create_dir_all(parent).expect("folder");
        }
        fs::write(&p, text).expect("write");
        p
    }

    /// Load the pack and start watching it.
    fn load(&self) -> (PackSet, Watcher) {
        let w = Watcher::with_debounce(std::slice::from_ref(&self.dir), DEBOUNCE).expect("watch");
        let set = match PackSet::load(std::slice::from_ref(&self.dir)) {
            Ok(s) => s,
            Err(ps) => panic!(
                "the test pack loads: {}",
                ps.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        };
        (set, w)
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("copy: folder");
    for e in fs::read_dir(from).expect("copy: read").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst);
        } else {
            fs::copy(&src, &dst).expect("copy: file");
        }
    }
}

/// Wait until the watcher has reported all of `want`; everything it reported meanwhile.
fn changed(w: &Watcher, want: &[&Path]) -> Vec<PathBuf> {
    let deadline = Instant::now() + WAIT;
    let mut got = BTreeSet::new();
    while !want.iter().all(|p| got.contains(*p)) {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(
            !left.is_zero(),
            "the watcher did not report {want:?} within {WAIT:?} (it reported {got:?}; errors: {:?})",
            w.errors()
        );
        got.extend(w.wait(left));
    }
    got.into_iter().collect()
}

/// Reload what the watcher reports once `want` are all among it.
fn reload(set: &mut PackSet, w: &Watcher, want: &[&Path]) -> Vec<Reload> {
    let paths = changed(w, want);
    apply(set, &paths)
}

/// A 12x6 open board with the heroes `H`, `G` and `K` (profile `hot`) at (0,2), (0,3) and
/// (0,4), and no Blips yet. Each reveals a Blip with its step: one move action per activation.
fn game(set: &PackSet) -> Game {
    let setup = Setup {
        name: "hot".into(),
        map: MapBuilder::new(12, 6).build(),
        rules: Rules {
            decoys: 0,
            ..set.rules.clone()
        },
        heroes: [("H", 2), ("G", 3), ("K", 4)]
            .into_iter()
            .map(|(id, y)| HeroSetup {
                id: id.into(),
                profile: "hot".into(),
                at: Pos::new(0, y),
                health: None,
            })
            .collect(),
        blips: vec![],
        pool: vec![],
        decoys: Some(0),
        objective: Objective::Eliminate,
        max_rounds: Some(10),
        tokens: Vec::new(),
        decks: Vec::new(),
        aliens: Vec::new(),
        hand: None,
        agenda: None,
        deployment: Default::default(),
        squad: Vec::new(),
    };
    let st = match setup.start(&set.content, 5) {
        Ok(st) => st,
        Err(es) => panic!("test setup: {es:?}"),
    };
    Game::new(st, "hot", 5)
}

fn ctl() -> Controllers {
    Controllers::new(Box::new(FirstOption), Box::new(Scripted::new([])))
}

fn act(g: &mut Game, set: &PackSet, a: Action) -> Vec<Event> {
    match g.apply(a.clone(), &set.content, &mut ctl()) {
        Ok(ev) => ev,
        Err(e) => panic!("{a:?} refused: {e}"),
    }
}

fn mv(unit: &str, x: i32, y: i32) -> Action {
    Action::Move {
        unit: unit.into(),
        to: Pos::new(x, y),
        via: Vec::new(),
    }
}

/// Drop a Blip holding one `kind` alien in the hero's sight; the hero's next step reveals
/// it, which makes its behaviour run.
fn drop_blip(g: &mut Game, id: &str, at: [i32; 2], kind: &str) {
    g.state.blips.push(Blip {
        id: id.into(),
        pos: Pos::from(at),
        contents: Some(Contents::Unit {
            type_id: kind.into(),
            size: 1,
            leader: None,
        }),
        activated: false,
        used: vec![],
    });
    g.state.moved();
}

/// What behaviours logged.
fn logs(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Log { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

/// Reveal a fresh `kind` Blip at `at` by a step of `hero`; the behaviour's log lines.
fn reveal(
    g: &mut Game,
    set: &PackSet,
    id: &str,
    at: [i32; 2],
    kind: &str,
    hero: &str,
) -> Vec<String> {
    drop_blip(g, id, at, kind);
    let from = g.state.find_model(hero).map(|(_, m)| m.pos).or_else(|| {
        g.state
            .unit(hero)
            .and_then(|u| u.models.first())
            .map(|m| m.pos)
    });
    let from = from.unwrap_or_else(|| panic!("hero {hero}"));
    let ev = act(g, set, mv(hero, from.x + 1, from.y));
    assert!(
        g.state.unit(id).is_some(),
        "the Blip {id} was revealed: {ev:#?}"
    );
    logs(&ev)
}

#[test]
fn an_edited_behaviour_is_live_for_the_next_call() {
    let pack = Pack::new();
    let (mut set, w) = pack.load();
    let mut g = game(&set);
    assert_eq!(reveal(&mut g, &set, "R1", [6, 0], "hot", "H"), ["hot v1"]);

    let path = pack.write("behaviours/hot.lua", &behaviour("hot", "hot v2"));
    let r = reload(&mut set, &w, &[&path]);
    assert_eq!(
        r,
        [Reload::Updated {
            kind: Kind::Behaviour,
            id: "hot".into(),
            path: path.clone()
        }]
    );
    assert_eq!(r[0].to_string(), "behaviour hot reloaded");
    // Same game, next call: the new code.
    assert_eq!(reveal(&mut g, &set, "R2", [6, 5], "hot", "G"), ["hot v2"]);
}

#[test]
fn a_broken_edit_fails_with_its_line_and_the_old_definition_keeps_working() {
    let pack = Pack::new();
    let (mut set, w) = pack.load();
    let mut g = game(&set);
    assert_eq!(reveal(&mut g, &set, "R1", [6, 0], "hot", "H"), ["hot v1"]);

    // A syntax error on line 3.
    let broken = "return behaviour {\n  id = \"hot\",\n  perform = function(unit, game) game:log(\"hot v2\" end,\n}\n";
    let path = pack.write("behaviours/hot.lua", broken);
    let r = reload(&mut set, &w, &[&path]);
    let [Reload::Failed(p)] = r.as_slice() else {
        panic!("a broken edit fails: {r:?}");
    };
    assert_eq!((p.path.as_path(), p.line), (path.as_path(), 3), "{p}");
    let shown = r[0].to_string();
    assert!(
        shown.starts_with(&format!("{}:3:", path.display())),
        "path:line: message — {shown}"
    );
    assert!(shown.ends_with("(the last good version stays)"), "{shown}");
    assert_eq!(
        reveal(&mut g, &set, "R2", [6, 5], "hot", "G"),
        ["hot v1"],
        "the last good version runs"
    );

    // Fixing it makes the fix live.
    let path = pack.write("behaviours/hot.lua", &behaviour("hot", "hot v3"));
    let r = reload(&mut set, &w, &[&path]);
    assert!(matches!(r.as_slice(), [Reload::Updated { .. }]), "{r:?}");
    assert_eq!(reveal(&mut g, &set, "R3", [9, 0], "hot", "K"), ["hot v3"]);
}

#[test]
fn a_deleted_script_in_use_keeps_its_last_good_version_and_warns() {
    let pack = Pack::new();
    let (mut set, w) = pack.load();
    let mut g = game(&set);
    assert_eq!(reveal(&mut g, &set, "R1", [6, 0], "hot", "H"), ["hot v1"]);

    let path = pack.path("behaviours/hot.lua");
    fs::remove_file(&path).expect("delete");
    let r = reload(&mut set, &w, &[&path]);
    assert_eq!(
        r,
        [Reload::Removed {
            kind: Kind::Behaviour,
            id: "hot".into(),
            path: path.clone()
        }]
    );
    let warning = r[0].to_string();
    assert!(
        warning.starts_with("warning:") && warning.contains("keeps its last good version"),
        "{warning}"
    );
    assert_eq!(reveal(&mut g, &set, "R2", [6, 5], "hot", "G"), ["hot v1"]);
}

#[test]
fn a_new_behaviour_and_an_alien_type_using_it_are_added_together() {
    let pack = Pack::new();
    let (mut set, w) = pack.load();
    // The alien file sorts first, but needs the behaviour: `apply` loads behaviours first.
    let a = pack.write("aliens/fresh.lua", &alien("fresh", "fresh", 4, 2));
    let b = pack.write("behaviours/fresh.lua", &behaviour("fresh", "fresh v1"));
    let r = reload(&mut set, &w, &[&a, &b]);
    assert_eq!(
        r,
        [
            Reload::Added {
                kind: Kind::Behaviour,
                id: "fresh".into(),
                path: b.clone()
            },
            Reload::Added {
                kind: Kind::Alien,
                id: "fresh".into(),
                path: a.clone()
            },
        ]
    );
    let mut g = game(&set);
    assert_eq!(
        reveal(&mut g, &set, "F", [6, 0], "fresh", "H"),
        ["fresh v1"]
    );
}

#[test]
fn an_alien_type_edit_changes_units_on_the_map_at_their_next_use_and_keeps_their_health() {
    let pack = Pack::new();
    let (mut set, w) = pack.load();
    let mut g = game(&set);
    reveal(&mut g, &set, "R", [6, 2], "hot", "H");
    while g.to_move() == Some(Side::Heroes) {
        act(&mut g, &set, Action::End);
    }
    // Movement 4: five squares is too far.
    let far = mv("R", 11, 2);
    assert!(
        g.apply(far.clone(), &set.content, &mut ctl()).is_err(),
        "movement 4 cannot go 5 squares"
    );

    let path = pack.write("aliens/hot.lua", &alien("hot", "hot", 6, 5));
    let r = reload(&mut set, &w, &[&path]);
    assert_eq!(
        r,
        [Reload::Updated {
            kind: Kind::Alien,
            id: "hot".into(),
            path: path.clone()
        }]
    );
    assert_eq!(set.content.aliens["hot"].movement, 6);
    // The unit already on the map moves with the new Movement...
    act(&mut g, &set, far);
    let (_, m) = g.state.find_model("R.1").expect("R's model");
    assert_eq!(m.pos, Pos::new(11, 2));
    // ...and keeps the health it had.
    assert_eq!((m.health, m.max_health), (2, 2));
}

#[test]
fn a_hero_profile_edit_is_live_for_the_hero_on_the_map() {
    let pack = Pack::new();
    let (mut set, w) = pack.load();
    let mut g = game(&set);
    let far = mv("H", 6, 2);
    assert!(
        g.apply(far.clone(), &set.content, &mut ctl()).is_err(),
        "movement 4 cannot go 6 squares"
    );

    let path = pack.write("heroes/hot.toml", &hero("hot", 6));
    let r = reload(&mut set, &w, &[&path]);
    assert_eq!(
        r,
        [Reload::Updated {
            kind: Kind::Hero,
            id: "hot".into(),
            path: path.clone()
        }]
    );
    act(&mut g, &set, far);
    let (_, m) = g
        .state
        .find_model("H")
        .or_else(|| g.state.find_model("H.1"))
        .expect("H");
    assert_eq!(m.pos, Pos::new(6, 2));
    assert_eq!(m.health, 8);

    // A bad number is refused with its line; the profile stays.
    let path = pack.write(
        "heroes/hot.toml",
        &hero("hot", 6).replace("health = 8", "health = \"many\""),
    );
    let r = reload(&mut set, &w, &[&path]);
    let [Reload::Failed(p)] = r.as_slice() else {
        panic!("a bad hero fails: {r:?}");
    };
    assert_eq!(p.line, 3, "{p}");
    assert_eq!(set.content.heroes["hot"].movement, 6);
}

#[test]
fn an_editor_save_by_rename_reports_the_original_path_only() {
    let pack = Pack::new();
    let (mut set, w) = pack.load();
    let path = pack.path("behaviours/hot.lua");
    // vim: probe file, swap file, original renamed to a backup, new original written.
    let dir = pack.path("behaviours");
    fs::write(dir.join("4913"), "").expect("probe");
    fs::remove_file(dir.join("4913")).expect("probe gone");
    fs::write(dir.join(".hot.lua.swp"), "swap").expect("swap");
    fs::rename(&path, dir.join("hot.lua~")).expect("backup");
    fs::write(&path, behaviour("hot", "hot v2")).expect("write");
    fs::remove_file(dir.join("hot.lua~")).expect("backup gone");
    assert_eq!(changed(&w, &[&path]), std::slice::from_ref(&path));
    // Atomic save: a temp file renamed over the original; emacs' lock file alongside.
    let tmp = dir.join(".hot.lua.tmp1234");
    fs::write(&tmp, behaviour("hot", "hot v3")).expect("temp");
    fs::write(dir.join(".#hot.lua"), "lock").expect("lock");
    fs::rename(&tmp, &path).expect("rename over");
    assert_eq!(changed(&w, &[&path]), std::slice::from_ref(&path));
    let r = apply(&mut set, std::slice::from_ref(&path));
    assert!(matches!(r.as_slice(), [Reload::Updated { .. }]), "{r:?}");
    let mut g = game(&set);
    assert_eq!(reveal(&mut g, &set, "R", [6, 0], "hot", "H"), ["hot v3"]);
}

#[test]
fn one_save_is_reported_once_and_a_reload_does_not_report_again() {
    let pack = Pack::new();
    let (mut set, _) = pack.load();
    // A short debounce means short debouncer ticks, which a save's events straddle more often.
    let w = Watcher::with_debounce(std::slice::from_ref(&pack.dir), Duration::from_millis(20))
        .expect("watch");
    // Saving right after a report is when the events of a save straddle two debouncer ticks
    // most often; each save must still be one change.
    for n in 2..10 {
        let path = pack.write(
            "behaviours/hot.lua",
            &behaviour("hot", &format!("hot v{n}")),
        );
        let r = reload(&mut set, &w, &[&path]);
        assert_eq!(r.len(), 1, "{r:?}");
        // The reload opened and read the file: that is no change either.
        let quiet = w.wait(DEBOUNCE * 3);
        assert!(quiet.is_empty(), "save {n} reported again: {quiet:?}");
    }
}

#[test]
fn a_deleted_folder_reports_its_files_and_rules_and_missions_are_ignored() {
    let pack = Pack::new();
    let (mut set, w) = pack.load();
    let mut aliens: Vec<PathBuf> = fs::read_dir(pack.path("aliens"))
        .expect("aliens")
        .flatten()
        .map(|e| e.path())
        .collect();
    aliens.sort();
    assert!(aliens.contains(&pack.path("aliens/hot.lua")));
    fs::remove_dir_all(pack.path("aliens")).expect("rm -r aliens");
    let want: Vec<&Path> = aliens.iter().map(PathBuf::as_path).collect();
    let got = changed(&w, &want);
    assert_eq!(
        got, aliens,
        "every file of the folder is reported, nothing else"
    );
    let r = apply(&mut set, &got);
    assert_eq!(r.len(), aliens.len(), "{r:?}");
    assert!(
        r.iter().all(|r| matches!(
            r,
            Reload::Removed {
                kind: Kind::Alien,
                ..
            }
        )),
        "{r:?}"
    );
    // The types stay, for the units on the map.
    assert!(set.content.aliens.contains_key("hot"));
    // Missions and rules are read at game start: reported, but not reloaded.
    let m = pack.write("missions/new.toml", "name = \"x\"\n");
    let got = changed(&w, &[&m]);
    assert!(apply(&mut set, &got).is_empty());
}

#[test]
fn poll_does_not_block_and_a_missing_directory_is_named() {
    let pack = Pack::new();
    let (_set, w) = pack.load();
    let t = Instant::now();
    assert!(w.poll().is_empty());
    assert!(
        t.elapsed() < Duration::from_millis(50),
        "poll returns at once"
    );
    assert_eq!(w.debounce(), DEBOUNCE);
    assert_eq!(w.dirs(), std::slice::from_ref(&pack.dir));

    let missing = pack.path("no-such-pack");
    let e = Watcher::new(&[pack.dir.clone(), missing.clone()]).expect_err("missing dir");
    assert!(
        matches!(&e, WatchError::Watch { dir, .. } if *dir == missing),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!("cannot watch {}: no such directory", missing.display())
    );
}

#[test]
fn content_files_exclude_editor_debris() {
    let root = Path::new("/p");
    for ok in ["/p/behaviours/rush.lua", "/p/heroes/a.toml", "/p/pack.toml"] {
        assert!(is_content(root, Path::new(ok)), "{ok}");
    }
    for no in [
        "/p/behaviours/.rush.lua.swp",
        "/p/behaviours/rush.lua~",
        "/p/behaviours/.#rush.lua",
        "/p/behaviours/#rush.lua#",
        "/p/behaviours/4913",
        "/p/behaviours/rush.lua.tmp",
        "/p/.git/x.lua",
        "/p/README.md",
    ] {
        assert!(!is_content(root, Path::new(no)), "{no}");
    }
    // A hidden folder above the pack (like a temp dir) does not count.
    assert!(is_content(
        Path::new("/tmp/.x/p"),
        Path::new("/tmp/.x/p/aliens/a.lua")
    ));
}
