//! Campaigns (docs/RULES.md §16): the Mission Book's checks, the Resolution Phase and a mission
//! started with what the campaign carries. Written from the rules text.

use crate::common::{setup, start, world, World};
use overmind_core::campaign::{agenda_completed, carry_into, resolve, HEAL, WIN_XP};
use overmind_core::data::campaign::{level_for, ITEMS_FOR_A_WIN, XP_PER_LEVEL};
use overmind_core::data::event::Change;
use overmind_core::token::{Token, TokenClass, TokenKind};
use overmind_core::{
    Campaign, CampaignMission, Carry, Event, Game, HeroCarry, Id, Outcome, Phase, Pos, Setup, Side,
    Upgrade,
};

const MAP: &str = "\
+-+-+-+-+-+-+
|. . . . . .|
+           +
|. . . . . .|
+-+-+-+-+-+-+
";

fn items(w: &mut World) {
    for (id, symbol) in [("medkit", '$'), ("flare", ')')] {
        w.content.tokens.insert(
            id.into(),
            TokenKind {
                id: id.into(),
                name: id.into(),
                class: TokenClass::Item,
                symbol,
                text: String::new(),
            },
        );
    }
}

fn two_heroes() -> Setup {
    setup(
        MAP,
        &[("a", "trooper", [0, 0]), ("b", "brawler", [0, 1])],
        &[],
    )
}

fn mission(id: &str, heroes: Option<&str>, overmind: Option<&str>) -> CampaignMission {
    CampaignMission {
        id: id.into(),
        mission: id.into(),
        if_heroes_win: heroes.map(Into::into),
        if_overmind_wins: overmind.map(Into::into),
    }
}

fn book(missions: Vec<CampaignMission>) -> Campaign {
    Campaign {
        id: "c".into(),
        name: "C".into(),
        description: String::new(),
        missions,
        upgrades: vec![Upgrade::HandSize, Upgrade::Decoy],
        items: Vec::new(),
    }
}

fn end(g: &mut Game, winner: Side) {
    g.state.outcome = Some(Outcome {
        winner,
        reason: "test".into(),
    });
    g.state.phase = Phase::Over;
}

fn health(g: &Game, unit: &str) -> u32 {
    g.state.unit(unit).expect("unit").models[0].health
}

#[test]
fn a_level_per_three_xp_capped() {
    assert_eq!(level_for(0), 1);
    assert_eq!(level_for(XP_PER_LEVEL - 1), 1);
    assert_eq!(level_for(XP_PER_LEVEL), 2);
    assert_eq!(level_for(1000), 5);
}

#[test]
fn resolution_heals_one_brings_the_dead_back_and_keeps_xp() {
    let mut w = world();
    items(&mut w);
    let s = two_heroes();
    let mut g = start(&s, &w);
    let max = g.state.unit("a").unwrap().models[0].max_health;
    g.state
        .units
        .iter_mut()
        .find(|u| u.id == "a")
        .unwrap()
        .models[0]
        .health = 3;
    g.state.units.iter_mut().find(|u| u.id == "a").unwrap().xp = 4;
    g.state
        .units
        .iter_mut()
        .find(|u| u.id == "b")
        .unwrap()
        .models
        .clear();
    end(&mut g, Side::Overmind);
    let c = book(vec![mission("m", None, None)]);
    let r = resolve(&c, &c.missions[0], &Carry::default(), &s, &g, &w.content, 1);
    let a = &r.carry.heroes["trooper"];
    assert_eq!(a.health, (3 + HEAL).min(max));
    assert_eq!(a.xp, 4, "a loss gives no XP beyond the kills");
    assert_eq!(a.level(), 2);
    assert!(a.items.is_empty(), "no Items for a loss");
    let b = &r.carry.heroes["brawler"];
    assert_eq!(
        b.health, HEAL,
        "a Hero killed comes back with the Resolution's heal"
    );
    assert_eq!(r.carry.played.len(), 1);
    assert_eq!(r.carry.played[0].winner, Side::Overmind);
    assert_eq!(r.carry.upgrade_nodes, 0, "no Hidden Agenda was dealt");
}

#[test]
fn heroes_who_win_get_three_random_items_dealt_to_those_standing() {
    let mut w = world();
    items(&mut w);
    let s = two_heroes();
    let mut g = start(&s, &w);
    g.state
        .units
        .iter_mut()
        .find(|u| u.id == "b")
        .unwrap()
        .models
        .clear();
    end(&mut g, Side::Heroes);
    let c = book(vec![mission("m", None, None)]);
    let r = resolve(&c, &c.missions[0], &Carry::default(), &s, &g, &w.content, 9);
    let a = &r.carry.heroes["trooper"];
    assert_eq!(
        a.items.len(),
        ITEMS_FOR_A_WIN as usize,
        "all to the one standing"
    );
    assert!(a.items.iter().all(|i| i == "medkit" || i == "flare"));
    assert_eq!(a.xp, WIN_XP, "a win's XP to a Hero standing");
    assert!(r.carry.heroes["brawler"].items.is_empty());
    assert_eq!(r.carry.heroes["brawler"].xp, 0, "no win XP for the dead");
    // The same seed deals the same Items; the campaign replays.
    let again = resolve(&c, &c.missions[0], &Carry::default(), &s, &g, &w.content, 9);
    assert_eq!(again, r);
}

#[test]
fn items_still_carried_at_the_end_carry_over_and_used_ones_do_not() {
    let mut w = world();
    items(&mut w);
    let s = two_heroes();
    let mut g = start(&s, &w);
    g.state.tokens.push(Token {
        id: "k".into(),
        kind: "medkit".into(),
        pos: Pos::new(0, 0),
        carried_by: Some(Id::from("a")),
        symbol: '$',
    });
    end(&mut g, Side::Overmind);
    let c = book(vec![mission("m", None, None)]);
    let r = resolve(&c, &c.missions[0], &Carry::default(), &s, &g, &w.content, 1);
    assert_eq!(r.carry.heroes["trooper"].items, vec!["medkit".to_string()]);
    assert!(r.carry.heroes["brawler"].items.is_empty());
}

#[test]
fn a_completed_hidden_agenda_is_an_upgrade_node_and_nodes_buy_in_order() {
    let mut w = world();
    items(&mut w);
    let s = two_heroes();
    let mut g = start(&s, &w);
    g.state.cards.agenda = Some(Id::from("cull"));
    end(&mut g, Side::Overmind);
    assert!(
        !agenda_completed(&g),
        "an Overmind win the agenda did not declare"
    );
    g.log.push(Event::Effect {
        source: Id::from("cull"),
        change: Change::Win {
            winner: Side::Overmind,
            reason: "agenda".into(),
        },
    });
    assert!(agenda_completed(&g));
    let c = book(vec![mission("m", None, None)]);
    let mut carry = resolve(&c, &c.missions[0], &Carry::default(), &s, &g, &w.content, 1).carry;
    assert_eq!(carry.upgrade_nodes, 1);
    assert_eq!(carry.buy(&c), vec![Upgrade::HandSize]);
    assert_eq!(carry.buy(&c), vec![], "a node is spent once");
    carry.upgrade_nodes = 5;
    assert_eq!(
        carry.buy(&c),
        vec![Upgrade::Decoy],
        "nodes past the list buy nothing"
    );
    let hand = s.rules.hand_size;
    let up = s.carrying(&carry);
    assert_eq!(up.rules.hand_size, hand + 1);
    assert_eq!(up.decoys, Some(s.decoys.unwrap_or(0) + 1));
}

#[test]
fn a_mission_starts_with_the_carried_health_xp_and_items() {
    let mut w = world();
    items(&mut w);
    let s = two_heroes();
    let mut carry = Carry::default();
    carry.heroes.insert(
        "trooper".into(),
        HeroCarry {
            health: 2,
            xp: 7,
            items: vec!["medkit".into(), "flare".into()],
        },
    );
    let mut st = s.start(&w.content, 3).expect("starts");
    carry_into(&mut st, &s, &carry, &w.content);
    let g = Game::new(st, "t", 3);
    assert_eq!(health(&g, "a"), 2);
    assert_eq!(g.state.unit("a").unwrap().xp, 7);
    assert_eq!(
        g.state.unit("b").unwrap().xp,
        0,
        "a Hero the campaign does not know"
    );
    let carried: Vec<(&str, Option<&str>)> = g
        .state
        .tokens
        .iter()
        .map(|t| (t.kind.as_str(), t.carried_by.as_deref()))
        .collect();
    assert_eq!(
        carried,
        vec![("medkit", Some("a")), ("flare", Some("a"))],
        "carried by their Hero"
    );
}

#[test]
fn carried_health_never_passes_the_profile() {
    let mut w = world();
    items(&mut w);
    let s = two_heroes();
    let mut carry = Carry::default();
    carry.heroes.insert(
        "trooper".into(),
        HeroCarry {
            health: 99,
            xp: 0,
            items: Vec::new(),
        },
    );
    let mut st = s.start(&w.content, 3).expect("starts");
    let max = st.unit("a").unwrap().models[0].max_health;
    carry_into(&mut st, &s, &carry, &w.content);
    assert_eq!(st.unit("a").unwrap().models[0].health, max);
}

#[test]
fn the_mission_book_must_end_and_reach_every_mission() {
    let mut w = world();
    items(&mut w);
    let has = |_: &str| true;
    let ok = book(vec![
        mission("a", Some("b"), Some("c")),
        mission("c", Some("b"), Some("b")),
        mission("b", None, None),
    ]);
    assert_eq!(ok.problems(&w.content, &has), vec![]);
    let looped = book(vec![
        mission("a", Some("b"), None),
        mission("b", Some("a"), None),
    ]);
    let p = looped.problems(&w.content, &has);
    assert!(
        p.iter().any(|(_, m)| m.contains("a campaign must end")),
        "{p:?}"
    );
    let stray = book(vec![mission("a", None, None), mission("b", None, None)]);
    let p = stray.problems(&w.content, &has);
    assert!(
        p.iter()
            .any(|(k, m)| k == "missions[1]" && m.contains("leads to")),
        "{p:?}"
    );
    let unknown = book(vec![mission("a", Some("z"), None)]);
    let p = unknown.problems(&w.content, &|m| m != "a");
    assert!(p.iter().any(|(k, _)| k == "missions[0].mission"), "{p:?}");
    assert!(
        p.iter().any(|(k, _)| k == "missions[0].if_heroes_win"),
        "{p:?}"
    );
}
