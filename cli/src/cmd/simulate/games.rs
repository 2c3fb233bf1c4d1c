//! Playing a run's games on `--jobs` threads, summed in seed order, once or twice (`--compare`).

use super::args::{Args, Shard};
use super::outcome::{Compared, Meta, Outcome, Run};
use crate::error::CliError;
use crate::packs::{self, PackSet};
use crate::stats::{GameStats, Totals};
use overmind_core::ai::{play_ai_game_at, Levels};
use overmind_core::{Content, Game};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Most actions in one game before it counts as unfinished.
const MAX_ACTIONS: usize = 20_000;

/// How one run's content is put together.
#[derive(Clone, Debug)]
struct Spec {
    /// The packs loaded: the mission, its rules and (unless `earlier`) the content.
    dirs: Vec<PathBuf>,
    /// For a pack's own mission played without the pack's behaviours: the packs before it,
    /// whose content is played, with the pack's new alien types and heroes added (the mission
    /// needs them) but none of its behaviours, and none of its replacements.
    earlier: Option<Vec<PathBuf>>,
}

/// Play the seeds of `shard`: the run, or with `--compare` the run without the compared pack
/// and the run with it. `set` holds the packs of `dirs`, loaded.
///
/// # Errors
/// Pack or mission problems.
pub(super) fn simulate(
    args: &Args,
    set: PackSet,
    dirs: Vec<PathBuf>,
    games: u64,
    jobs: usize,
    shard: Shard,
) -> Result<Outcome, CliError> {
    let meta = |set: &PackSet| Meta {
        mission: packs::mission_ref(set, &args.mission),
        games,
        first_seed: args.seed,
        levels: Levels {
            heroes: args.heroes_ai,
            overmind: args.overmind_ai,
        },
    };
    let outcome = match &args.compare {
        None => {
            set.start(&args.mission, args.seed)
                .map_err(packs::problems)?;
            let meta = meta(&set);
            drop(set);
            let base = play(&plain(&dirs), &meta, args, jobs, shard)?;
            Outcome {
                meta,
                base,
                compare: None,
            }
        }
        Some(extra) => {
            let pack = packs::absolute(extra);
            let mut with = dirs.clone();
            with.push(pack.clone());
            match set.start(&args.mission, args.seed) {
                // The mission plays without the pack: the pack is added to it.
                Ok(_) => {
                    let meta = meta(&set);
                    let full = packs::load(&with)?;
                    let left_out = pack_items(&full.content, &set.content, false);
                    drop((full, set));
                    let base = play(&plain(&dirs), &meta, args, jobs, shard)?;
                    let run = play(&plain(&with), &meta, args, jobs, shard)?;
                    Outcome {
                        meta,
                        base,
                        compare: Some(Compared {
                            pack,
                            comparison: None,
                            left_out,
                            run,
                        }),
                    }
                }
                // The mission needs the pack (its own mission, or one using its alien types):
                // both runs play it, the first without the pack's behaviours.
                Err(without_problems) => {
                    let full = packs::load(&with)?;
                    if let Err(with_problems) = full.start(&args.mission, args.seed) {
                        // The pack's own mission is wrong: say so, rather than that it is not
                        // one of the earlier packs' missions.
                        let own = set.mission_path(&args.mission).is_err()
                            && full.mission_path(&args.mission).is_ok();
                        return Err(packs::problems(if own {
                            with_problems
                        } else {
                            without_problems
                        }));
                    }
                    let meta = meta(&full);
                    // The pack as given, not made absolute: shards played from checkouts at other
                    // paths say the same (the line is part of what `merge` compares).
                    let line = comparison_line(&meta.mission, extra, &full, &set);
                    let left_out = pack_items(&full.content, &set.content, true);
                    drop((full, set));
                    let stripped = Spec {
                        dirs: with.clone(),
                        earlier: Some(dirs.clone()),
                    };
                    let mut base = play(&stripped, &meta, args, jobs, shard)?;
                    base.packs = dirs;
                    let run = play(&plain(&with), &meta, args, jobs, shard)?;
                    Outcome {
                        meta,
                        base,
                        compare: Some(Compared {
                            pack,
                            comparison: Some(line),
                            left_out,
                            run,
                        }),
                    }
                }
            }
        }
    };
    Ok(outcome)
}

fn plain(dirs: &[PathBuf]) -> Spec {
    Spec {
        dirs: dirs.to_vec(),
        earlier: None,
    }
}

/// The items `full` has that `earlier` has not, as `kind id`, in kind order: behaviours,
/// cards, token kinds, alien types, heroes, abilities and rules. With `kept`, the alien types,
/// heroes and token kinds are left out of the list (a pack's own mission keeps them).
fn pack_items(full: &Content, earlier: &Content, kept: bool) -> Vec<String> {
    let new = |a: Vec<&String>, b: &dyn Fn(&str) -> bool, kind: &str| -> Vec<String> {
        a.into_iter()
            .filter(|id| !b(id))
            .map(|id| format!("{kind} {id}"))
            .collect()
    };
    let mut out = Vec::new();
    out.extend(new(
        full.behaviours.keys().collect(),
        &|id| earlier.behaviours.contains_key(id),
        "behaviour",
    ));
    out.extend(new(
        full.cards.keys().collect(),
        &|id| earlier.cards.contains_key(id),
        "card",
    ));
    if !kept {
        out.extend(new(
            full.tokens.keys().collect(),
            &|id| earlier.tokens.contains_key(id),
            "token kind",
        ));
        out.extend(new(
            full.aliens.keys().collect(),
            &|id| earlier.aliens.contains_key(id),
            "alien type",
        ));
        out.extend(new(
            full.heroes.keys().collect(),
            &|id| earlier.heroes.contains_key(id),
            "hero",
        ));
    }
    // Hooks of their own: abilities (on a hero or alien type) and rules (the whole game);
    // an alien type's, hero's or token kind's own hooks go with it.
    let mut hooks: Vec<String> = Vec::new();
    for t in &full.triggers {
        let id = t.source.as_str();
        let part_of_type = full.aliens.contains_key(id)
            || full.heroes.contains_key(id)
            || full.tokens.contains_key(id)
            || full.cards.contains_key(id);
        if part_of_type || earlier.triggers.iter().any(|e| e.source == t.source) {
            continue;
        }
        let kind = if t.owner == overmind_core::trigger::Owner::Game {
            "rule"
        } else {
            "ability"
        };
        let item = format!("{kind} {id}");
        if !hooks.contains(&item) {
            hooks.push(item);
        }
    }
    out.extend(hooks);
    out
}

/// The `compare:` line of a comparison over a pack's own mission.
fn comparison_line(mission: &str, pack: &Path, full: &PackSet, earlier: &PackSet) -> String {
    let new: Vec<&str> = full
        .content
        .behaviours
        .keys()
        .filter(|id| !earlier.content.behaviours.contains_key(*id))
        .map(String::as_str)
        .collect();
    let replaced: Vec<&str> = full
        .packs
        .last()
        .map(|p| {
            p.overrides
                .iter()
                .filter(|id| {
                    earlier.content.behaviours.contains_key(*id)
                        || earlier.content.aliens.contains_key(*id)
                        || earlier.content.heroes.contains_key(*id)
                })
                .map(String::as_str)
                .collect()
        })
        .unwrap_or_default();
    let list = |v: &[&str]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let mut line = format!(
        "compare: mission {mission} cannot be played without {}, so both runs play it with the \
         pack's missions, heroes and alien types; the first leaves out the pack's behaviours \
         ({}), cards, abilities and rules",
        pack.display(),
        list(&new)
    );
    if !replaced.is_empty() {
        let _ = write!(
            line,
            " and plays the earlier packs' versions of what it replaces ({})",
            list(&replaced)
        );
    }
    line
}

/// The content of a pack's mission without the pack's behaviours: the earlier packs' content,
/// with the alien types, heroes and token kinds only the full set has (the mission places
/// them), each with its own triggers (an alien type's ability is part of the type).
fn stripped(full: &Content, earlier: &Content) -> Content {
    use overmind_core::trigger::Owner;
    let mut c = earlier.clone();
    let mut added: Vec<Owner> = Vec::new();
    for (id, a) in &full.aliens {
        if !c.aliens.contains_key(id) {
            c.aliens.insert(id.clone(), a.clone());
            added.push(Owner::Alien(id.as_str().into()));
        }
    }
    for (id, h) in &full.heroes {
        if !c.heroes.contains_key(id) {
            c.heroes.insert(id.clone(), h.clone());
            added.push(Owner::Hero(id.as_str().into()));
        }
    }
    for (id, t) in &full.tokens {
        if !c.tokens.contains_key(id) {
            c.tokens.insert(id.clone(), t.clone());
            added.push(Owner::Token(id.as_str().into()));
        }
    }
    c.triggers.extend(
        full.triggers
            .iter()
            .filter(|t| added.contains(&t.owner))
            .cloned(),
    );
    c
}

/// Record the first failure of any thread.
fn fail(failure: &Mutex<Option<CliError>>, e: CliError) {
    if let Ok(mut f) = failure.lock() {
        f.get_or_insert(e);
    }
}

/// Play the games of `shard` on `jobs` threads and sum them in seed order.
fn play(spec: &Spec, meta: &Meta, args: &Args, jobs: usize, shard: Shard) -> Result<Run, CliError> {
    // Check the packs and the mission once here, so problems are reported once.
    {
        let (set, earlier) = load(spec)?;
        let content = earlier.as_ref().map(|e| stripped(&set.content, &e.content));
        let setup = set.setup(&args.mission).map_err(packs::problems)?;
        if let Some(c) = &content {
            setup.start(c, args.seed).map_err(|es| {
                CliError::Problems(
                    es.iter()
                        .map(|e| format!("{} (without the compared pack's behaviours)", e))
                        .collect(),
                )
            })?;
        }
    }
    let n = usize::try_from(shard.games(meta.games)).unwrap_or(usize::MAX);
    let jobs = jobs.min(n).max(1);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, GameStats)>> = Mutex::new(Vec::with_capacity(n));
    let failure: Mutex<Option<CliError>> = Mutex::new(None);
    let started = Instant::now();
    let cpu_started = cpu_time::ProcessTime::try_now().ok();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            // Each game thread gets the main thread's stack: nested behaviours recurse
            // through the engine, and the depth limits must end them before the stack does.
            let spawned = std::thread::Builder::new()
                .stack_size(crate::GAME_STACK_BYTES)
                .spawn_scoped(s, || {
                    let (set, earlier) = match load(spec) {
                        Ok(sets) => sets,
                        Err(e) => return fail(&failure, e),
                    };
                    let own = earlier.as_ref().map(|e| stripped(&set.content, &e.content));
                    let content = own.as_ref().unwrap_or(&set.content);
                    // The mission is read and parsed once per thread, not once per game.
                    let setup = match set.setup(&args.mission) {
                        Ok(setup) => setup,
                        Err(ps) => return fail(&failure, packs::problems(ps)),
                    };
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= n {
                            break;
                        }
                        // The k-th game of the slice is game i of the whole run.
                        let i =
                            (shard.index - 1).wrapping_add((k as u64).wrapping_mul(shard.count));
                        let seed = meta.first_seed.wrapping_add(i);
                        let started = match setup.start(content, seed) {
                            Ok(st) => Ok(Game::new(st, &setup.name, seed)),
                            // The same start again through the packs, for problems with places.
                            Err(es) if own.is_some() => Err(CliError::Problems(
                                es.iter().map(ToString::to_string).collect(),
                            )),
                            Err(_) => set.start(&args.mission, seed).map_err(packs::problems),
                        };
                        match started {
                            Ok(mut game) => {
                                play_ai_game_at(&mut game, content, MAX_ACTIONS, meta.levels);
                                mine.push((k, GameStats::of(&game.log, game.state.round)));
                            }
                            Err(e) => {
                                fail(&failure, e);
                                break;
                            }
                        }
                    }
                    if let Ok(mut r) = results.lock() {
                        r.extend(mine);
                    }
                });
            if let Err(e) = spawned {
                fail(
                    &failure,
                    CliError::Failed(format!("cannot start a game thread: {e}")),
                );
            }
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let cpu_seconds = cpu_started
        .and_then(|c| c.try_elapsed().ok())
        .map_or(0.0, |d| d.as_secs_f64());
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(k, _)| *k);
    let mut totals = Totals::default();
    for (_, g) in &results {
        totals.add(g);
    }
    Ok(Run {
        packs: spec.dirs.clone(),
        totals,
        jobs,
        seconds,
        cpu_seconds,
    })
}

/// The packs of a run, and the earlier packs whose content it plays.
fn load(spec: &Spec) -> Result<(PackSet, Option<PackSet>), CliError> {
    let set = packs::load(&spec.dirs)?;
    let earlier = match &spec.earlier {
        Some(d) => Some(packs::load(d)?),
        None => None,
    };
    Ok((set, earlier))
}
