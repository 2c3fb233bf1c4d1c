//! docs/RULES.md §15.6 and §7, issue 23: what the Heroes are shown is a function of public
//! information only, with Lua content. Pairs of demo games differ only in which Hidden Agenda
//! is dealt (a quiet one, or a sly one whose hooks listen everywhere, spend budget, count in
//! storage, fail and change an attack), or only in what two Blips hold; the same actions and
//! answers are played in both, and the Heroes' stream (the game's log) is byte-identical until
//! the card or the Blip is turned up.

use crate::common::temp_pack::{lines, Pack};
use overmind_core::ai::{ai_step, AiController, Level};
use overmind_core::{Controllers, Event, Game, Side};
use overmind_scripting::pack::PackSet;
use std::path::PathBuf;

/// Spends about `2 * n` VM instructions and shows nothing.
const BURN: &str = "local function burn(n)\n  local x = 0\n  for i = 1, n do\n    x = x + i\n  end\n  return x\nend\n";

fn quiet() -> String {
    "return card {\n  id = \"quiet\",\n  name = \"Quiet Plot\",\n  text = \"Hidden Agenda: nothing.\",\n  deck = \"hidden_agenda\",\n}\n".to_string()
}

/// Hostile hidden hooks: a step hook and an `after_damage` that spend budget and do nothing (the
/// second most of a call's budget, nested in the public `press` rule's call), a `before_attack`
/// that counts in storage and changes the sixth attack, a `round_start` that fails in round 4.
fn sly() -> String {
    format!(
        "{BURN}return card {{\n  id = \"sly\",\n  name = \"Sly Plot\",\n  text = \"Hidden Agenda: it listens.\",\n  deck = \"hidden_agenda\",\n  on = {{\n    step = function()\n      burn(20000)\n    end,\n    after_damage = function()\n      burn(400000)\n    end,\n    before_attack = function(game)\n      game.storage.n = (game.storage.n or 0) + 1\n      if game.storage.n == 6 then\n        game:modify_attack(\"defence\", 1)\n      end\n    end,\n    round_start = function(_, moment)\n      if moment.round == 4 then\n        error(\"the plot unravels\")\n      end\n    end,\n  }},\n}}\n"
    )
}

/// A public rule: at each round's start it spends 300,000 instructions, hurts and heals a
/// Hero with Health to spare (which fires `after_damage` hooks inside its call), and spends 300,000 more.
fn press() -> String {
    format!(
        "{BURN}return trigger {{\n  id = \"press\",\n  name = \"Press\",\n  text = \"Each round: a scratch.\",\n  on = {{\n    round_start = function(game)\n      burn(150000)\n      for _, hero in ipairs(game:heroes()) do\n        if hero.health > 1 then\n          game:damage(hero, 1)\n          game:heal(hero, 1)\n          break\n        end\n      end\n      burn(150000)\n    end,\n  }},\n}}\n"
    )
}

fn packs(extra: &Pack) -> PackSet {
    let base = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../behaviours"));
    match PackSet::load(&[base, extra.dir.clone()]) {
        Ok(set) => set,
        Err(ps) => panic!("the packs load: {}", lines(&ps)),
    }
}

fn hostile() -> Pack {
    Pack::new(&[
        ("cards/quiet.lua", &quiet()),
        ("cards/sly.lua", &sly()),
        ("triggers/press.lua", &press()),
    ])
}

/// The demo's start for `seed`, changed by `change`.
fn start(set: &PackSet, seed: u64, change: impl FnOnce(&mut Game)) -> Game {
    let mut g = match set.start("demo", seed) {
        Ok(g) => g,
        Err(ps) => panic!("demo does not start: {}", lines(&ps)),
    };
    change(&mut g);
    g
}

/// Greedy AIs play `g` for at most `steps` actions.
fn play(g: &mut Game, set: &PackSet, steps: usize) {
    let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
    let mut heroes = overmind_core::ai::player(Side::Heroes, Level::Greedy);
    let mut overmind = overmind_core::ai::player(Side::Overmind, Level::Greedy);
    for _ in 0..steps {
        if !ai_step(
            g,
            &set.content,
            &mut ctl,
            heroes.as_mut(),
            overmind.as_mut(),
        ) {
            break;
        }
    }
}

/// The log as the Heroes' stream carries it, up to the first event `until` picks.
fn shown(g: &Game, until: impl Fn(&Event) -> bool) -> Vec<String> {
    g.log
        .iter()
        .take_while(|e| !until(e))
        .map(|e| serde_json::to_string(e).unwrap_or_default())
        .collect()
}

/// Panics at the first event the two streams differ in.
fn same(seed: u64, a: &[String], b: &[String]) -> usize {
    let n = a.len().min(b.len());
    if let Some(i) = (0..n).find(|&i| a[i] != b[i]) {
        panic!("seed {seed}: event {i} differs:\n  {}\n  {}", a[i], b[i]);
    }
    n
}

#[test]
fn the_heroes_see_the_same_game_whichever_lua_agenda_is_dealt_until_it_is_turned_up() {
    let pack = hostile();
    let set = packs(&pack);
    let deal = |id: &'static str| move |g: &mut Game| g.state.cards.agenda = Some(id.into());
    let mut turned_up = 0;
    for seed in 0..8 {
        let mut q = start(&set, seed, deal("quiet"));
        play(&mut q, &set, 250);
        // The same actions and answers, until the card is turned up (then the games part).
        let revealed = |e: &Event| matches!(e, Event::CardRevealed { .. });
        let mut s = start(&set, seed, deal("sly"));
        for (i, r) in q.record.iter().enumerate() {
            if let Err(e) = s.play_record(r, &set.content) {
                panic!("seed {seed}: action {i} refused with the other agenda: {e}");
            }
            if s.log.iter().any(revealed) {
                break;
            }
        }
        let n = same(seed, &shown(&q, revealed), &shown(&s, revealed));
        assert!(
            n > 50,
            "seed {seed}: the games went on ({n} events compared)"
        );
        if s.log.iter().any(revealed) {
            turned_up += 1;
        }
        // The public rule's call never ran out: what the hidden hook nested in it spent was
        // its own (issue 23 (d)).
        for g in [&q, &s] {
            let press_failed: Vec<&Event> = g
                .log
                .iter()
                .filter(|e| {
                    matches!(e, Event::TriggerFailed { source, .. } if source.as_str() == "press")
                })
                .collect();
            assert!(
                press_failed.is_empty(),
                "seed {seed}: the public rule failed: {press_failed:?}"
            );
        }
    }
    assert!(
        turned_up > 0,
        "the sly agenda's hooks turn it up in some games"
    );
}

#[test]
fn a_hidden_hook_nested_in_a_public_call_spends_its_own_budget() {
    let pack = hostile();
    let set = packs(&pack);
    let mut g = start(&set, 1, |g| g.state.cards.agenda = Some("sly".into()));
    // Round 1 started with the demo: `press` ran, and `after_damage` of the sly agenda ran
    // inside it (800,000 instructions: with the 600,000 of its own, more than one call's
    // budget). Neither failed, and the agenda is still face down.
    play(&mut g, &set, 1);
    let failed: Vec<String> = g
        .log
        .iter()
        .filter_map(|e| match e {
            Event::TriggerFailed { source, reason, .. } => Some(format!("{source}: {reason}")),
            _ => None,
        })
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
    assert!(
        !g.log
            .iter()
            .any(|e| matches!(e, Event::CardRevealed { .. })),
        "the agenda stays face down"
    );
    assert!(
        g.log
            .iter()
            .any(|e| matches!(e, Event::Effect { source, .. } if source.as_str() == "press")),
        "press ran: {:?}",
        g.log
    );
}

#[test]
fn the_heroes_see_the_same_game_whatever_two_blips_hold_until_one_is_revealed() {
    let pack = hostile();
    let set = packs(&pack);
    let mut compared = 0;
    for seed in 0..8 {
        // Swap what the first two Blips hold (a Decoy for a unit, or two units of kinds).
        let swap = |g: &mut Game| {
            let blips = &mut g.state.blips;
            if blips.len() >= 2 {
                let first = blips[0].contents.take();
                blips[0].contents = blips[1].contents.take();
                blips[1].contents = first;
            }
        };
        let plain = |_: &mut Game| {};
        let mut a = start(&set, seed, plain);
        let ids: Vec<String> = a
            .state
            .blips
            .iter()
            .take(2)
            .map(|b| b.id.to_string())
            .collect();
        assert_eq!(ids.len(), 2, "the demo has two Blips");
        let differ = a.state.blips[0].contents != a.state.blips[1].contents;
        play(&mut a, &set, 250);
        // The other game: the same actions and answers, up to the one that revealed one of
        // the two Blips.
        let revealed = |e: &Event| matches!(e, Event::BlipRevealed { blip, .. } if ids.iter().any(|i| i == blip.as_str()));
        let mut b = start(&set, seed, swap);
        for (i, r) in a.record.iter().enumerate() {
            if let Err(e) = b.play_record(r, &set.content) {
                panic!("seed {seed}: action {i} refused with other Blips: {e}");
            }
            if b.log.iter().any(revealed) {
                break;
            }
        }
        let a_shown = shown(&a, revealed);
        let b_shown = shown(&b, revealed);
        let n = same(seed, &a_shown, &b_shown);
        if differ {
            compared += n;
        }
    }
    assert!(
        compared > 100,
        "Blips that differ were compared ({compared} events)"
    );
}
