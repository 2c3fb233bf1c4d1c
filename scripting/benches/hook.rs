//! What one call of a hook that does nothing costs: the same Hero's one-square Move in the demo,
//! with and without a pack's game-wide `step` hook whose function is empty, in the same run.
//! The difference is one hook call (the move fires `step` once); the game is cloned outside the
//! timed part.
//!
//! `cargo bench -p overmind-scripting --bench hook`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use overmind_core::{Action, Controllers, FirstOption, Game, Side};
use overmind_scripting::pack::PackSet;
use std::hint::black_box;
use std::path::PathBuf;

fn base() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../behaviours"))
}

fn packs(dirs: &[PathBuf]) -> PackSet {
    match PackSet::load(dirs) {
        Ok(s) => s,
        Err(ps) => panic!("packs load: {ps:?}"),
    }
}

/// The demo at its start and a one-square Move of the first Hero that has one.
fn position(set: &PackSet) -> (Game, Action) {
    let game = match set.start("demo", 7) {
        Ok(g) => g,
        Err(ps) => panic!("demo starts: {ps:?}"),
    };
    assert_eq!(game.to_move(), Some(Side::Heroes));
    let one_step = game
        .legal_actions(&set.content)
        .into_iter()
        .find(|a| match a {
            Action::Move { unit, to, .. } => game
                .state
                .find_model(unit.as_str())
                .is_some_and(|(_, m)| m.pos.distance(*to) == 1),
            _ => false,
        });
    (game, one_step.expect("a Hero can step one square"))
}

/// A pack whose one trigger listens to `step` with the hook `body`, in a folder of `tmp`.
fn hook_pack(tmp: &std::path::Path, name: &str, body: &str) -> PathBuf {
    let dir = tmp.join(name);
    std::fs::create_dir_all(dir.join("triggers")).expect("folder");
    std::fs::write(
        dir.join("pack.toml"),
        format!("name = \"{name}\"\nversion = \"0.1.0\"\n"),
    )
    .expect("write");
    std::fs::write(
        dir.join("triggers/noop.lua"),
        format!(
            "return trigger {{\n  id = \"{name}\",\n  name = \"Nothing\",\n  \
             text = \"Nothing.\",\n  on = {{ step = {body} }},\n}}\n"
        ),
    )
    .expect("write");
    dir
}

fn hook(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("temp dir");
    // The empty hook; one that takes its moment (so the moment table is made); one that reads a
    // global (so the call gets its scratch environment).
    let empty = hook_pack(tmp.path(), "noop", "function() end");
    let moment = hook_pack(tmp.path(), "moment", "function(game, moment) end");
    let global = hook_pack(
        tmp.path(),
        "global",
        "function(game, moment) local _ = type end",
    );
    let plain = packs(&[base()]);
    let hooked = packs(&[base(), empty]);
    let with_moment = packs(&[base(), moment]);
    let with_global = packs(&[base(), global]);
    let mut group = c.benchmark_group("hook");
    for (name, set) in [
        ("move_1_no_hook", &plain),
        ("move_1_empty_step_hook", &hooked),
        ("move_1_moment_step_hook", &with_moment),
        ("move_1_global_step_hook", &with_global),
    ] {
        let (game, action) = position(set);
        group.bench_function(name, |b| {
            b.iter_batched(
                || game.clone(),
                |mut g| {
                    let mut ctl = Controllers::new(Box::new(FirstOption), Box::new(FirstOption));
                    black_box(g.apply(action.clone(), &set.content, &mut ctl).is_ok())
                },
                BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, hook);
criterion_main!(benches);
