//! Win rates of the AI levels against each other on the demo mission with the native
//! behaviours: `cargo run --release -p overmind-core --example levels -- 200 standard greedy`
//! (games, the Overmind's level, the Heroes' level; a fourth argument `stats` adds how the
//! games went: rounds, Heroes lost, what was left at the round limit, damage by attack kind).
//! `levels trace SEED OVERMIND HEROES` prints one game's events, one a line, and how it ended
//! (`END=1`: only how it ended).

#[path = "../tests/it/common/mod.rs"]
mod common;

use overmind_core::ai::{play_ai_game_at, Level, Levels};
use overmind_core::event::AttackKind;
use overmind_core::{Event, Game, Side};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == "trace") {
        trace(&args);
        return;
    }
    let n: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let level = |i: usize| {
        args.get(i)
            .map_or(Ok(Level::Standard), |a| a.parse::<Level>())
            .unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            })
    };
    let levels = Levels {
        overmind: level(2),
        heroes: level(3),
    };
    let stats = args.get(4).is_some_and(|a| a == "stats");
    let content = common::base_like();
    let setup = common::demo_setup();
    let (mut heroes, mut by_limit) = (0u64, 0u64);
    let mut rounds = 0u64;
    let mut heroes_lost = 0u64;
    let mut left_at_limit = (0u64, 0u64, 0u64);
    let mut damage: BTreeMap<String, u64> = BTreeMap::new();
    let t = std::time::Instant::now();
    for seed in 0..n {
        let Ok(st) = setup.start(&content, seed) else {
            eprintln!("seed {seed}: the demo does not start");
            std::process::exit(1);
        };
        let mut g = Game::new(st, "demo", seed);
        play_ai_game_at(&mut g, &content, 20_000, levels);
        let limit = g
            .state
            .outcome
            .as_ref()
            .is_some_and(|o| o.winner == Side::Overmind && o.reason.contains("round"));
        match g.state.outcome.as_ref() {
            Some(o) if o.winner == Side::Heroes => heroes += 1,
            _ if limit => by_limit += 1,
            _ => {}
        }
        if !stats {
            continue;
        }
        rounds += u64::from(g.state.round);
        heroes_lost += g
            .state
            .units
            .iter()
            .filter(|u| u.side == Side::Heroes && !u.alive())
            .count() as u64;
        if limit {
            let decoys = g
                .state
                .blips
                .iter()
                .filter(|b| matches!(b.contents, Some(overmind_core::Contents::Decoy)))
                .count() as u64;
            left_at_limit.0 += g.state.blips.len() as u64 - decoys;
            left_at_limit.1 += decoys;
            left_at_limit.2 += g
                .state
                .units
                .iter()
                .filter(|u| u.side == Side::Overmind && u.alive())
                .count() as u64;
        }
        for e in &g.log {
            if let Event::Attack {
                attacker,
                kind,
                damage: d,
                ..
            } = e
            {
                let hero = g
                    .state
                    .units
                    .iter()
                    .any(|u| u.side == Side::Heroes && attacker.starts_with(u.id.as_str()));
                let k = match kind {
                    AttackKind::Melee => "melee",
                    AttackKind::Shoot => "shoot",
                    AttackKind::Overwatch => "overwatch",
                    AttackKind::FreeAttack => "free",
                    AttackKind::Fear => "fear",
                    AttackKind::Psychic => "psychic",
                };
                let who = if hero { "heroes" } else { "aliens" };
                *damage.entry(format!("{who} {k}")).or_default() += u64::from(*d);
                *damage.entry(format!("{who} {k} attacks")).or_default() += 1;
            }
        }
    }
    println!(
        "overmind {} vs heroes {}: {n} games, heroes won {heroes} ({:.1}%), Overmind by the round limit {by_limit}, {:.0} games/s",
        levels.overmind,
        levels.heroes,
        100.0 * heroes as f64 / n as f64,
        n as f64 / t.elapsed().as_secs_f64()
    );
    if stats {
        let per = |x: u64| x as f64 / n as f64;
        let lim = by_limit.max(1) as f64;
        println!(
            "  rounds {:.2}, heroes lost {:.2} a game; at the round limit: {:.2} unit blips, {:.2} decoys, {:.2} revealed units left",
            per(rounds),
            per(heroes_lost),
            left_at_limit.0 as f64 / lim,
            left_at_limit.1 as f64 / lim,
            left_at_limit.2 as f64 / lim
        );
        for (k, v) in &damage {
            println!("  {k}: {:.2} a game", per(*v));
        }
    }
}

/// `levels trace SEED OVERMIND HEROES`: one game's events, one a line.
fn trace(args: &[String]) {
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let level = |i: usize| {
        args.get(i)
            .and_then(|a| a.parse::<Level>().ok())
            .unwrap_or(Level::Standard)
    };
    let levels = Levels {
        overmind: level(3),
        heroes: level(4),
    };
    let content = common::base_like();
    let Ok(st) = common::demo_setup().start(&content, seed) else {
        return;
    };
    let mut g = Game::new(st, "demo", seed);
    play_ai_game_at(&mut g, &content, 20_000, levels);
    let end = std::env::var("END").is_ok();
    for e in g.log.iter().filter(|_| !end) {
        match e {
            Event::Attack {
                attacker,
                target,
                kind,
                dice,
                damage,
                ..
            } => println!("  attack {attacker} -> {target} {kind:?} dice {dice} damage {damage}"),
            Event::ActionTaken { .. } | Event::ActivationEnded { .. } => {}
            e => println!("{}", serde_json::to_string(e).unwrap_or_default()),
        }
    }
    println!("{:?} round {}", g.state.outcome, g.state.round);
    for u in &g.state.units {
        for m in &u.models {
            println!(
                "  {} {} {:?} {}/{} {:?}",
                u.id, m.kind, m.pos, m.health, m.max_health, m.status
            );
        }
    }
    for b in &g.state.blips {
        println!("  blip {} {:?} {:?}", b.id, b.pos, b.contents);
    }
}
