//! docs/RULES.md §5: the list of legal actions and legality agree both ways — an action is in
//! `legal_actions` exactly when `is_legal` accepts it — on random mid-game states whose stat
//! modifiers (−10 to +10), Health dial positions, statuses, tokens, hands and interruptions
//! were drawn at random (shakmaty's fuzz target: `legal_moves().contains(m) == is_legal(m)`).
//!
//! Actions are compared in the form the list names them: a unit of one model by its unit id,
//! a model of a larger unit by its model id; attack targets by model or Blip id; a move by its
//! destination (no waypoints).

use crate::common;

use common::*;
use overmind_core::card::{CardDef, CardTarget, Deck};
use overmind_core::interrupt::Interrupt;
use overmind_core::state::{Phase, Stat, StatMod, Until};
use overmind_core::token::{Token, TokenClass, TokenKind};
use overmind_core::trigger::{Hook, Moment, Owner, Trigger, TriggerDef};
use overmind_core::*;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::rc::Rc;

/// A trigger or card play that does nothing.
struct Nothing;

impl Trigger for Nothing {
    fn fire(&self, _: &mut BehaviourCtx<'_, '_>, _: &Moment) -> Result<(), BehaviourError> {
        Ok(())
    }
}

/// The base pack's shapes without Lua, plus a card of each target kind, a Hidden Agenda and
/// a token that can be interacted with.
fn content() -> Content {
    let mut c = base_like();
    for (id, target) in [
        ("plain", CardTarget::None),
        ("on_alien", CardTarget::Alien),
        ("on_hero", CardTarget::Hero),
        ("on_square", CardTarget::Square),
    ] {
        c.cards.insert(
            id.into(),
            CardDef {
                id: id.into(),
                name: id.into(),
                text: String::new(),
                deck: Deck::Mutation,
                target,
                copies: 2,
                play: Some(Rc::new(Nothing)),
            },
        );
    }
    c.cards.insert(
        "idle".into(),
        CardDef {
            id: "idle".into(),
            name: "idle".into(),
            text: String::new(),
            deck: Deck::HiddenAgenda,
            target: CardTarget::None,
            copies: 1,
            play: None,
        },
    );
    c.tokens.insert(
        "cache".into(),
        TokenKind {
            id: "cache".into(),
            name: "Cache".into(),
            class: TokenClass::Item,
            symbol: '$',
            text: String::new(),
        },
    );
    // A hazard, which a Melee or Shoot may target (docs/RULES.md §14.1), and a Hazard card.
    c.tokens.insert(
        "mine".into(),
        TokenKind {
            id: "mine".into(),
            name: "Mine".into(),
            class: TokenClass::Hazard,
            symbol: '!',
            text: String::new(),
        },
    );
    c.cards.insert(
        "blast".into(),
        CardDef {
            id: "blast".into(),
            name: "blast".into(),
            text: String::new(),
            deck: Deck::Hazard,
            target: CardTarget::None,
            copies: 2,
            play: Some(Rc::new(Nothing)),
        },
    );
    c.triggers.push(TriggerDef {
        source: "cache".into(),
        owner: Owner::Token("cache".into()),
        hook: Hook::Interact,
        handler: Rc::new(Nothing),
    });
    c
}

/// The demo mission played `plies` random legal actions from `seed`, then (when `shaken`)
/// changed at random as content may change it.
fn mid_game(c: &Content, seed: u64, plies: usize, shaken: bool) -> Game {
    let mut s = demo_setup();
    s.decks = vec![Deck::Mutation, Deck::HiddenAgenda, Deck::Hazard];
    let st = s.start(c, seed).expect("the demo starts");
    let mut g = Game::new(st, "demo", seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut ctl = ctl(vec![]);
    for _ in 0..plies {
        let legal = g.legal_actions(c);
        if legal.is_empty() {
            break;
        }
        // End seldom, so that activations are under way.
        let i = rng.random_range(0..legal.len());
        let a = if legal[i] == Action::End && rng.random_bool(0.7) {
            legal[rng.random_range(0..legal.len())].clone()
        } else {
            legal[i].clone()
        };
        g.apply(a, c, &mut ctl)
            .expect("a listed action is accepted");
    }
    if shaken {
        shake(&mut g, c, &mut rng);
    }
    g
}

/// What cards, tokens, abilities and triggers may do to a game: stat modifiers, Health,
/// statuses, tokens, the Overmind's hand and an interruption offered.
fn shake(g: &mut Game, c: &Content, rng: &mut ChaCha8Rng) {
    if g.state.is_over() {
        return;
    }
    let st = &mut g.state;
    let units: Vec<Id> = st.units.iter().map(|u| u.id).collect();
    let models: Vec<(Id, Side, u32)> = st
        .units
        .iter()
        .flat_map(|u| u.models.iter().map(move |m| (m.id, u.side, m.max_health)))
        .collect();
    for (id, side, max) in models {
        for stat in [Stat::Movement, Stat::Melee, Stat::Defence, Stat::Shoot] {
            if rng.random_bool(0.4) {
                st.stat_mods.push(StatMod {
                    model: id,
                    stat,
                    change: rng.random_range(-10..=10),
                    until: Until::RoundEnd,
                    source: Id::from("test"),
                });
            }
        }
        let shaken = rng
            .random_bool(0.1)
            .then(|| units[rng.random_range(0..units.len())]);
        let knocked = rng.random_bool(0.15);
        let stunned = rng.random_bool(0.1);
        let health = (side == Side::Heroes).then(|| rng.random_range(1..=max.max(1)));
        if let Some(m) = st.model_mut(&id) {
            m.status.knocked_down |= knocked;
            m.status.stunned |= stunned;
            if shaken.is_some() {
                m.status.shaken_by = shaken;
            }
            if let Some(h) = health {
                m.health = h;
            }
        }
    }
    for i in 0..rng.random_range(0..4) {
        let at = Pos::new(
            rng.random_range(0..st.map.width()),
            rng.random_range(0..st.map.height()),
        );
        st.tokens.push(Token {
            id: Id::from(&format!("cache{i}")),
            kind: Id::from("cache"),
            pos: at,
            carried_by: None,
            symbol: '$',
        });
    }
    // Hazards near the Heroes, where a Shoot or a Melee can reach them.
    let heroes: Vec<Pos> = st.hero_models().map(|m| m.pos).collect();
    for i in 0..rng.random_range(0..4) {
        let Some(&h) = heroes.get(rng.random_range(0..heroes.len().max(1))) else {
            break;
        };
        let at = Pos::new(
            (h.x + rng.random_range(-4..=4)).clamp(0, st.map.width() - 1),
            (h.y + rng.random_range(-4..=4)).clamp(0, st.map.height() - 1),
        );
        st.tokens.push(Token {
            id: Id::from(&format!("mine{i}")),
            kind: Id::from("mine"),
            pos: at,
            carried_by: None,
            symbol: '!',
        });
    }
    let cards: Vec<Id> = c
        .cards
        .values()
        .filter(|d| d.deck == Deck::Mutation)
        .map(|d| Id::from(&d.id))
        .collect();
    st.cards.hand = (0..rng.random_range(0..4))
        .map(|_| cards[rng.random_range(0..cards.len())])
        .collect();
    if st.phase == Phase::Heroes && st.active.is_none() && rng.random_bool(0.3) {
        st.interrupt = Some(Interrupt::Offered);
    }
    st.moved();
}

/// Every action of the side to move worth asking about, in the list's form: moves and
/// sprints to every square within the mover's reach + 10, attacks on every enemy, the other
/// actions of every unit, model and Blip, card plays on every target, `End`.
fn candidates(g: &Game, c: &Content) -> Vec<Action> {
    let Some(side) = g.to_move() else {
        return Vec::new();
    };
    let st = &g.state;
    let mut out = Vec::new();
    let squares_near = |at: Pos, reach: u32| -> Vec<Pos> {
        let r = reach as i32 + 10;
        let mut v = Vec::new();
        for y in at.y - r..=at.y + r {
            for x in at.x - r..=at.x + r {
                let p = Pos::new(x, y);
                if st.map.in_bounds(p) {
                    v.push(p);
                }
            }
        }
        v
    };
    let mut movers: Vec<(Id, Pos, u32)> = Vec::new();
    let mut actors: Vec<Id> = Vec::new();
    for u in st.units.iter().filter(|u| u.side == side) {
        actors.push(u.id);
        let single = u.models.len() == 1;
        for m in &u.models {
            let name = if single { u.id } else { m.id };
            let reach = Stats::of(st, c, side, m).movement;
            movers.push((name, m.pos, reach));
        }
    }
    if side == Side::Overmind {
        for b in &st.blips {
            actors.push(b.id);
            movers.push((b.id, b.pos, st.rules.blip_movement));
        }
    }
    for (name, at, reach) in movers {
        for to in squares_near(at, reach) {
            out.push(Action::Move {
                unit: name,
                to,
                via: vec![],
            });
            out.push(Action::Sprint {
                unit: name,
                to,
                via: vec![],
            });
        }
    }
    let targets: Vec<Id> = st
        .units
        .iter()
        .filter(|u| u.side != side)
        .flat_map(|u| u.models.iter().map(|m| m.id))
        .chain(st.blips.iter().map(|b| b.id))
        .chain(st.tokens.iter().map(|t| t.id))
        .collect();
    for &a in &actors {
        for &t in &targets {
            out.push(Action::Shoot { unit: a, target: t });
            out.push(Action::Melee { unit: a, target: t });
        }
        out.push(Action::Overwatch { unit: a });
        out.push(Action::Interact { unit: a });
        out.push(Action::Flip { unit: a });
    }
    let aliens: Vec<Id> = st
        .units
        .iter()
        .filter(|u| u.side == Side::Overmind)
        .map(|u| u.id)
        .collect();
    let heroes: Vec<Id> = st
        .units
        .iter()
        .filter(|u| u.side == Side::Heroes)
        .map(|u| u.id)
        .collect();
    let mut held: Vec<Id> = st.cards.hand.clone();
    held.sort();
    held.dedup();
    for card in held {
        out.push(Action::Discard { card });
        out.push(Action::Play {
            card,
            target: None,
            at: None,
        });
        for &t in aliens.iter().chain(&heroes) {
            out.push(Action::Play {
                card,
                target: Some(t),
                at: None,
            });
        }
        for y in 0..st.map.height() {
            for x in 0..st.map.width() {
                out.push(Action::Play {
                    card,
                    target: None,
                    at: Some(Pos::new(x, y)),
                });
            }
        }
    }
    out.push(Action::End);
    out
}

/// Both directions on one state: every listed action is legal, and every candidate is
/// listed exactly when it is legal.
fn agree(g: &Game, c: &Content) -> Result<(), TestCaseError> {
    let legal = g.legal_actions(c);
    let listed: HashSet<String> = legal.iter().map(|a| format!("{a:?}")).collect();
    for a in &legal {
        prop_assert!(
            g.validate(c, a).is_ok(),
            "listed but refused: {a:?}: {:?}",
            g.validate(c, a)
        );
    }
    for a in candidates(g, c) {
        let ok = g.validate(c, &a);
        prop_assert_eq!(
            listed.contains(&format!("{a:?}")),
            ok.is_ok(),
            "{:?}: validation says {:?}",
            a,
            ok
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn legal_actions_are_exactly_what_validation_accepts(seed in 0u64..1_000_000, plies in 0usize..40) {
        let c = content();
        let g = mid_game(&c, seed, plies, true);
        agree(&g, &c)?;
    }
}

/// The player's case from the issue: Movement +2 until the end of the round lists the squares
/// 6 away, and −3 lists none the rules refuse.
#[test]
fn a_movement_modifier_moves_the_listed_squares() {
    let c = content();
    for change in [2, -3] {
        let mut g = mid_game(&c, 3, 0, false);
        let hero = g
            .state
            .units
            .iter()
            .find(|u| u.side == Side::Heroes)
            .map(|u| u.models[0].id)
            .expect("a Hero");
        g.state.stat_mods.push(StatMod {
            model: hero,
            stat: Stat::Movement,
            change,
            until: Until::RoundEnd,
            source: Id::from("flare"),
        });
        g.state.moved();
        agree(&g, &c).expect("the lists follow the modifier");
        let st = &g.state;
        let (u, m) = st.find_model(&hero).expect("the Hero");
        let movement = Stats::of(st, &c, u.side, m).movement;
        let farthest = g
            .legal_actions(&c)
            .iter()
            .filter_map(|a| match a {
                Action::Move { to, .. } if a.actor() == Some(u.id.as_str()) => {
                    Some(to.distance(m.pos))
                }
                _ => None,
            })
            .max()
            .unwrap_or(0);
        assert!(farthest <= movement, "{farthest} > {movement}");
        assert!(
            farthest + 2 > movement,
            "Movement {movement} (changed by {change}) lists squares only {farthest} away"
        );
    }
}
