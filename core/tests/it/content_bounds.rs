//! docs/SANDBOX.md, issue 23 (e), (f): what content can add to a game is bounded — effects per
//! script call (`max_effects`), tokens (`max_tokens`), stat modifiers in force
//! (`max_modifiers`), units and Blips (`max_units`) — each refused at the call that would pass
//! it, as that call's failure, with what it did before standing.

use crate::common;

use common::*;
use overmind_core::state::{Contents, Stat, Until};
use overmind_core::token::{TokenClass, TokenKind};
use overmind_core::trigger::{Hook, Owner, TriggerDef};
use overmind_core::*;
use std::rc::Rc;

/// A game whose round 1 starts with the hook `body` (a pack's `round_start` rule), under
/// `rules`; the first action runs it.
fn hooked(rules: impl Fn(&mut Rules), body: Box<Body>) -> (Game, World, Vec<Event>) {
    let mut w = world();
    w.content.tokens.insert(
        "mine".into(),
        TokenKind {
            id: "mine".into(),
            name: "Mine".into(),
            class: TokenClass::Hazard,
            symbol: '~',
            text: String::new(),
        },
    );
    w.content.triggers.push(TriggerDef {
        source: "greedy".into(),
        owner: Owner::Game,
        hook: Hook::RoundStart,
        handler: Rc::new(FnTrigger(body)),
    });
    let mut s = setup(
        &wall_map(),
        &[("T", "trooper", [0, 0])],
        &[("B", [10, 3], unit("grunt", 1))],
    );
    rules(&mut s.rules);
    let mut g = start(&s, &w);
    let ev = apply(&mut g, &w, &mut ctl(vec![]), mv("T", 1, 0));
    (g, w, ev)
}

/// The reason the hook failed with, if it did.
fn failure(ev: &[Event]) -> Option<String> {
    ev.iter().find_map(|e| match e {
        Event::TriggerFailed { reason, .. } => Some(reason.clone()),
        _ => None,
    })
}

/// Asks for `n` at most, stopping at the first refusal (and passing it on).
fn repeat(
    n: u32,
    mut f: impl FnMut(&mut BehaviourCtx<'_, '_>, u32) -> Result<(), BehaviourError>,
) -> impl FnMut(&mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
    move |ctx| (0..n).try_for_each(|i| f(ctx, i))
}

#[test]
fn a_hook_cannot_lay_more_tokens_than_the_game_may_hold() {
    let (g, _, ev) = hooked(
        |r| r.max_tokens = 7,
        Box::new(|ctx, _| {
            repeat(5_000, |ctx, i| {
                ctx.place_token("mine", Pos::new(6 + (i % 6) as i32, (i / 6 % 6) as i32))
                    .map(|_| ())
            })(ctx)
        }),
    );
    assert_eq!(
        g.state.tokens.len(),
        7,
        "the tokens laid before the cap stand"
    );
    let why = failure(&ev).expect("the eighth token is refused");
    assert!(
        why.contains("at most 7 tokens") && why.contains("max_tokens"),
        "{why}"
    );
}

#[test]
fn token_ids_stay_unique_when_earlier_ones_were_removed() {
    let (g, _, ev) = hooked(
        |_| {},
        Box::new(|ctx, _| {
            let a = ctx.place_token("mine", Pos::new(6, 0))?;
            ctx.place_token("mine", Pos::new(7, 0))?;
            ctx.remove_token(a.as_str())?;
            ctx.place_token("mine", Pos::new(8, 0)).map(|_| ())
        }),
    );
    assert_eq!(failure(&ev), None);
    let mut ids: Vec<&str> = g.state.tokens.iter().map(|t| t.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 2, "{ids:?}");
}

#[test]
fn a_hook_cannot_stack_modifiers_past_the_cap() {
    let (g, _, ev) = hooked(
        |r| r.max_modifiers = 4,
        Box::new(|ctx, _| {
            repeat(5_000, |ctx, _| {
                ctx.modify("T", Stat::Melee, 1, Until::RoundEnd)
            })(ctx)
        }),
    );
    assert_eq!(g.state.stat_mods.len(), 4);
    let why = failure(&ev).expect("the fifth modifier is refused");
    assert!(why.contains("at most 4 stat modifiers"), "{why}");
}

#[test]
fn one_call_causes_at_most_max_effects_effects() {
    let (_, _, ev) = hooked(
        |r| r.max_effects = 10,
        Box::new(|ctx, _| repeat(5_000, |ctx, _| ctx.heal("T", 1).map(|_| ()))(ctx)),
    );
    let heals = ev
        .iter()
        .filter(|e| matches!(e, Event::Effect { .. }))
        .count();
    assert_eq!(heals, 10, "ten effects, then the call fails");
    let why = failure(&ev).expect("the eleventh effect is refused");
    assert!(
        why.contains("at most 10 effects") && why.contains("max_effects"),
        "{why}"
    );
}

#[test]
fn a_hook_cannot_spawn_past_the_game_s_units() {
    let (g, _, ev) = hooked(
        |r| r.max_units = 4,
        Box::new(|ctx, _| {
            repeat(5_000, |ctx, i| {
                ctx.spawn_blip(
                    Pos::new(6 + (i % 6) as i32, (i / 6 % 6) as i32),
                    Contents::Decoy,
                )
                .map(|_| ())
            })(ctx)
        }),
    );
    // One Hero and one Blip at the start: two spawned.
    assert_eq!(g.state.units.len() + g.state.blips.len(), 4);
    let why = failure(&ev).expect("the fifth is refused");
    assert!(why.contains("at most 4 units and Blips"), "{why}");
}

#[test]
fn the_caps_are_settings_with_ranges() {
    for key in ["max_effects", "max_tokens", "max_modifiers", "max_units"] {
        assert!(settings::KEYS.contains(&key), "{key}");
        let bad = Rules::default()
            .overlay_toml(&format!("{key} = 1000000"))
            .expect_err(key);
        assert!(bad.iter().any(|e| e.message.starts_with(key)), "{bad:?}");
    }
}
