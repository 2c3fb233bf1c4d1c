//! Issue 24, item 3: a hook that does nothing changes nothing. A copy of the base pack whose
//! every Alien Type also listens to `step` with a hook that does nothing plays, seed by seed, the
//! very games the base pack plays with the same greedy AIs: the same events (byte-identical
//! JSON), the same outcome. Before the fix seed 0 differed first where a revealed Warden moved
//! (its move split into one `moved` event per step), and seed 16 where an Overwatch shot pushed
//! a moving model back (the step hook's check stopped the move that the walk resumes).

use crate::common::pack;
use crate::common::temp_pack::lines;
use overmind_core::ai::{ai_step, AiController, Level};
use overmind_core::{Controllers, Game, Side};
use overmind_scripting::pack::PackSet;
use std::fs;
use std::path::Path;

/// Copies the folder `from` into `to`, recursively.
fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("folder");
    for entry in fs::read_dir(from).expect("pack folder") {
        let entry = entry.expect("entry");
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst);
        } else {
            fs::copy(&src, &dst).expect("copy");
        }
    }
}

/// An Alien Type's script with a `step` hook that does nothing added to its `on` table (made
/// when it has none).
fn with_noop_step(text: &str) -> String {
    const ON: &str = "\n  on = {\n";
    if text.contains(ON) {
        text.replacen(ON, "\n  on = {\n    step = function() end,\n", 1)
    } else {
        let end = text.rfind('}').expect("the alien_type table ends");
        format!(
            "{}  on = {{ step = function() end }},\n{}",
            &text[..end],
            &text[end..]
        )
    }
}

/// The base pack, copied into `dir` with a no-op `step` hook on every Alien Type.
fn noop_pack(dir: &Path) -> usize {
    copy_dir(&pack(), dir);
    let mut n = 0;
    for entry in fs::read_dir(dir.join("aliens")).expect("aliens folder") {
        let p = entry.expect("entry").path();
        if p.extension().is_some_and(|e| e == "lua") {
            let text = fs::read_to_string(&p).expect("read");
            let edited = with_noop_step(&text);
            assert_ne!(edited, text, "{} gets its hook", p.display());
            fs::write(&p, edited).expect("write");
            n += 1;
        }
    }
    n
}

fn load(dir: &Path) -> PackSet {
    match PackSet::load(&[dir.to_path_buf()]) {
        Ok(set) => set,
        Err(ps) => panic!("{} loads: {}", dir.display(), lines(&ps)),
    }
}

/// The demo for `seed`, played by greedy AIs for at most `steps` actions; its log as JSON.
fn play(set: &PackSet, seed: u64, steps: usize) -> (Game, Vec<String>) {
    let mut g = match set.start("demo", seed) {
        Ok(g) => g,
        Err(ps) => panic!("demo does not start: {}", lines(&ps)),
    };
    let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
    let mut heroes = overmind_core::ai::player(Side::Heroes, Level::Greedy);
    let mut overmind = overmind_core::ai::player(Side::Overmind, Level::Greedy);
    for _ in 0..steps {
        if !ai_step(
            &mut g,
            &set.content,
            &mut ctl,
            heroes.as_mut(),
            overmind.as_mut(),
        ) {
            break;
        }
    }
    let log = g
        .log
        .iter()
        .map(|e| serde_json::to_string(e).expect("an event as JSON"))
        .collect();
    (g, log)
}

#[test]
fn a_noop_step_hook_on_every_alien_type_changes_no_game() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("noop");
    assert_eq!(noop_pack(&dir), 5, "the base pack's five Alien Types");
    let base = load(&pack());
    let noop = load(&dir);
    for seed in 0..20 {
        let (a, la) = play(&base, seed, 2000);
        let (b, lb) = play(&noop, seed, 2000);
        if let Some(i) = (0..la.len().min(lb.len())).find(|&i| la[i] != lb[i]) {
            let before = la[i.saturating_sub(3)..i].join("\n  ");
            panic!(
                "seed {seed}: event {i} differs, after\n  {before}\nbase: {}\nnoop: {}",
                la[i], lb[i]
            );
        }
        assert_eq!(la.len(), lb.len(), "seed {seed}: the logs' lengths");
        assert!(a.state.outcome.is_some(), "seed {seed}: the game ends");
        assert_eq!(a.state.outcome, b.state.outcome, "seed {seed}: the outcome");
    }
}
