//! `simulate --compare-item ID`: the same seeds played with every item loaded and with one item
//! left out, item by item, and the paired differences (with minus without) in the Heroes' win
//! rate and in each side's damage per game, each with its 95% interval.

use super::args::Args;
use crate::error::CliError;
use crate::packs::{self, PackSet};
use crate::stats::{GameStats, Totals};
use overmind_core::ai::{play_ai_game_at, Levels};
use overmind_core::trigger::Owner;
use overmind_core::{Content, Game, Side};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Most actions in one game before it counts as unfinished (as the other runs).
const MAX_ACTIONS: usize = 20_000;

/// What kind of item an id names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    Behaviour,
    Card,
    TokenKind,
    Ability,
    Rule,
}

impl ItemKind {
    fn name(self) -> &'static str {
        match self {
            ItemKind::Behaviour => "behaviour",
            ItemKind::Card => "card",
            ItemKind::TokenKind => "token kind",
            ItemKind::Ability => "ability",
            ItemKind::Rule => "rule",
        }
    }
}

/// `content` without the item `id`, and what the item is and what leaving it out means.
///
/// # Errors
/// No item has that id.
pub fn without(content: &Content, id: &str) -> Result<(ItemKind, String, Content), String> {
    let mut c = content.clone();
    if c.behaviours.remove(id).is_some() {
        let mut fall_back = Vec::new();
        for (t, a) in &mut c.aliens {
            if a.behaviours.iter().any(|b| b == id) {
                a.behaviours.retain(|b| b != id);
                fall_back.push(if a.behaviours.is_empty() {
                    // It then performs no behaviour: the game says so at each of its turns.
                    format!("{t} (none: it performs no behaviour)")
                } else {
                    format!("{t} ({})", a.behaviours.join(", "))
                });
            }
        }
        let what = if fall_back.is_empty() {
            "no alien type lists it".to_string()
        } else {
            format!("its types fall back to {}", fall_back.join("; "))
        };
        return Ok((ItemKind::Behaviour, what, c));
    }
    if c.cards.remove(id).is_some() {
        c.triggers.retain(|t| t.owner != Owner::Card(id.into()));
        return Ok((ItemKind::Card, "left out of its deck".into(), c));
    }
    if c.tokens.contains_key(id) {
        c.triggers.retain(|t| t.owner != Owner::Token(id.into()));
        return Ok((
            ItemKind::TokenKind,
            "its tokens are laid but do nothing".into(),
            c,
        ));
    }
    let own: Vec<&Owner> = content
        .triggers
        .iter()
        .filter(|t| t.source == id)
        .map(|t| &t.owner)
        .collect();
    // An Alien Type's or hero's own hooks are part of the type, not an item of their own.
    if !own.is_empty() && !c.aliens.contains_key(id) && !c.heroes.contains_key(id) {
        let kind = if own.iter().all(|o| **o == Owner::Game) {
            ItemKind::Rule
        } else {
            ItemKind::Ability
        };
        c.triggers.retain(|t| t.source != id);
        return Ok((kind, "its hooks do not run".into(), c));
    }
    let mut known: Vec<&str> = content
        .behaviours
        .keys()
        .chain(content.cards.keys())
        .chain(content.tokens.keys())
        .map(String::as_str)
        .chain(content.triggers.iter().filter_map(|t| {
            let id = t.source.as_str();
            (!content.aliens.contains_key(id) && !content.heroes.contains_key(id)).then_some(id)
        }))
        .collect();
    known.sort_unstable();
    known.dedup();
    Err(format!(
        "--compare-item {id}: no behaviour, card, token kind, ability or rule of the loaded packs \
         is called {id:?} (loaded: {})",
        known.join(", ")
    ))
}

/// One game's measures: the Heroes won (1 or 0), damage the Heroes dealt, damage the
/// Overmind dealt.
type Measures = [f64; 3];

fn measures(g: &GameStats) -> Measures {
    let heroes_won = f64::from(u8::from(g.winner == Some(Side::Heroes)));
    let taken: u64 = g.aliens.values().map(|a| a.damage_taken).sum();
    let dealt: u64 = g.aliens.values().map(|a| a.damage_dealt).sum();
    [heroes_won, taken as f64, dealt as f64]
}

/// A difference with its 95% interval (normal approximation of the paired mean).
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    pub difference: f64,
    pub ci95: [f64; 2],
    /// The interval excludes 0.
    pub clear: bool,
}

fn paired(diffs: &[f64]) -> Difference {
    let n = diffs.len().max(1) as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let var = if diffs.len() > 1 {
        diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = 1.96 * (var / n).sqrt();
    let ci95 = [mean - half, mean + half];
    Difference {
        difference: mean,
        ci95,
        clear: ci95[0] > 0.0 || ci95[1] < 0.0,
    }
}

/// What leaving one item out changed.
#[derive(Clone, Debug, Serialize)]
pub struct ItemResult {
    pub id: String,
    pub kind: ItemKind,
    /// What leaving it out means (which behaviours its types fall back to, …).
    pub left_out: String,
    /// Heroes' win rate, with minus without (a fraction: 0.05 is 5 points).
    pub heroes_win_rate: Difference,
    /// Damage the Heroes dealt per game, with minus without.
    pub heroes_damage_per_game: Difference,
    /// Damage the Overmind dealt per game, with minus without.
    pub overmind_damage_per_game: Difference,
    /// Any of the three intervals excludes 0.
    pub clear: bool,
}

/// The whole comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Items {
    pub mission: String,
    pub games: u64,
    pub first_seed: u64,
    pub heroes_ai: String,
    pub overmind_ai: String,
    pub items: Vec<ItemResult>,
}

/// Play `games` seeds with every item and without each `--compare-item`, on `jobs` threads;
/// with the totals of the games with every item.
///
/// # Errors
/// Pack, mission or item problems.
pub(super) fn compare_items(
    args: &Args,
    set: &PackSet,
    dirs: &[PathBuf],
    games: u64,
    jobs: usize,
) -> Result<(Items, Totals), CliError> {
    // Every id checked once, before any game.
    let mut kinds = Vec::new();
    for id in &args.compare_item {
        let (kind, what, _) = without(&set.content, id).map_err(CliError::Usage)?;
        kinds.push((id.clone(), kind, what));
    }
    set.start(&args.mission, args.seed)
        .map_err(packs::problems)?;
    let mission = packs::mission_ref(set, &args.mission);
    let levels = Levels {
        heroes: args.heroes_ai,
        overmind: args.overmind_ai,
    };
    let n = usize::try_from(games).unwrap_or(usize::MAX);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Vec<Measures>, GameStats)>> = Mutex::new(Vec::with_capacity(n));
    let failure: Mutex<Option<CliError>> = Mutex::new(None);
    let fail = |e: CliError| {
        if let Ok(mut f) = failure.lock() {
            f.get_or_insert(e);
        }
    };
    std::thread::scope(|s| {
        for _ in 0..jobs.min(n).max(1) {
            // Each game thread gets the main thread's stack: nested behaviours recurse
            // through the engine, and the depth limits must end them before the stack does.
            let spawned = std::thread::Builder::new()
                .stack_size(crate::GAME_STACK_BYTES)
                .spawn_scoped(s, || {
                    // Content is not shared between threads: each loads the packs itself.
                    let set = match packs::load(dirs) {
                        Ok(set) => set,
                        Err(e) => return fail(e),
                    };
                    let mut variants = vec![set.content.clone()];
                    for id in &args.compare_item {
                        match without(&set.content, id) {
                            Ok((_, _, c)) => variants.push(c),
                            Err(e) => return fail(CliError::Usage(e)),
                        }
                    }
                    let setup = match set.setup(&args.mission) {
                        Ok(setup) => setup,
                        Err(ps) => return fail(packs::problems(ps)),
                    };
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= n {
                            break;
                        }
                        let seed = args.seed.wrapping_add(k as u64);
                        let mut row = Vec::with_capacity(variants.len());
                        let mut base = None;
                        for content in &variants {
                            match setup.start(content, seed) {
                                Ok(st) => {
                                    let mut game = Game::new(st, &setup.name, seed);
                                    play_ai_game_at(&mut game, content, MAX_ACTIONS, levels);
                                    let stats = GameStats::of(&game.log, game.state.round);
                                    row.push(measures(&stats));
                                    base.get_or_insert(stats);
                                }
                                Err(es) => {
                                    return fail(CliError::Problems(
                                        es.iter().map(ToString::to_string).collect(),
                                    ))
                                }
                            }
                        }
                        mine.push((k, row, base.unwrap_or_default()));
                    }
                    if let Ok(mut r) = results.lock() {
                        r.extend(mine);
                    }
                });
            if let Err(e) = spawned {
                fail(CliError::Failed(format!("cannot start a game thread: {e}")));
            }
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut rows = results.into_inner().unwrap_or_default();
    rows.sort_by_key(|(k, _, _)| *k);
    let mut totals = Totals::default();
    for (_, _, g) in &rows {
        totals.add(g);
    }
    let items = kinds
        .into_iter()
        .enumerate()
        .map(|(i, (id, kind, left_out))| {
            let diff = |m: usize| -> Vec<f64> {
                rows.iter()
                    .map(|(_, row, _)| row[0][m] - row[i + 1][m])
                    .collect()
            };
            let (w, h, o) = (paired(&diff(0)), paired(&diff(1)), paired(&diff(2)));
            let clear = w.clear || h.clear || o.clear;
            ItemResult {
                id,
                kind,
                left_out,
                heroes_win_rate: w,
                heroes_damage_per_game: h,
                overmind_damage_per_game: o,
                clear,
            }
        })
        .collect();
    let items = Items {
        mission,
        games,
        first_seed: args.seed,
        heroes_ai: args.heroes_ai.to_string(),
        overmind_ai: args.overmind_ai.to_string(),
        items,
    };
    Ok((items, totals))
}

/// The text report: one row per item.
#[must_use]
pub fn table(r: &Items) -> String {
    let mut s = format!(
        "{} games of {} (seeds {}..{}), heroes AI {}, overmind AI {}: each item left out on the \
         same seeds; with minus without, 95% intervals\n\n",
        r.games,
        r.mission,
        r.first_seed,
        r.first_seed.saturating_add(r.games).saturating_sub(1),
        r.heroes_ai,
        r.overmind_ai
    );
    let _ = writeln!(
        s,
        "{:<20} {:<10} {:<28} {:<24} {:<24} verdict",
        "item", "kind", "Heroes win rate (points)", "Heroes' damage/game", "Overmind's damage/game"
    );
    let cell = |d: &Difference, scale: f64, digits: usize| {
        format!(
            "{:+.p$} [{:+.p$}, {:+.p$}]",
            d.difference * scale,
            d.ci95[0] * scale,
            d.ci95[1] * scale,
            p = digits
        )
    };
    for i in &r.items {
        let _ = writeln!(
            s,
            "{:<20} {:<10} {:<28} {:<24} {:<24} {}",
            i.id,
            i.kind.name(),
            cell(&i.heroes_win_rate, 100.0, 1),
            cell(&i.heroes_damage_per_game, 1.0, 2),
            cell(&i.overmind_damage_per_game, 1.0, 2),
            if i.clear {
                "clear change"
            } else {
                "no clear change"
            }
        );
    }
    s.push('\n');
    for i in &r.items {
        let _ = writeln!(s, "without {} ({}): {}", i.id, i.kind.name(), i.left_out);
    }
    s
}
