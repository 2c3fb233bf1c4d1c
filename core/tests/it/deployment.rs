//! Deployment by the rules (docs/RULES.md §7.2), written from the rules text: "the Heroes
//! choose two Yellow Squares and put one Hero on each, the others on squares adjacent to those
//! two, split as evenly as possible; then the Overmind deploys its Blips within
//! `blip_deploy_radius` of the mission's Blip markers and out of every Hero's LOS. Each choice
//! is a decision (kind `deploy`)."

use crate::common::*;
use overmind_core::*;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::path::Path;
use std::rc::Rc;

/// 9x7: Blip markers at 1,0 and 7,0; a solid row at y 2 with a gap at x 3..5; Yellow Squares
/// at 0,6, 4,6 and 8,6 (the Heroes'), and 2,1 (next to a marker: the Overmind's).
const MISSION: &str = r#"name = "Drop"
deployment = "rules"
map = """
+-+-+-+-+-+-+-+-+-+
|. . . . . . . . .|
+                 +
|. . y . . . . . .|
+                 +
|# # # . . . # # #|
+                 +
|. . . . . . . . .|
+                 +
|. . . . . . . . .|
+                 +
|. . . . . . . . .|
+                 +
|y . . . y . . . y|
+-+-+-+-+-+-+-+-+-+
"""
[[squad]]
id = "h1"
profile = "trooper"
[[squad]]
id = "h2"
profile = "trooper"
[[squad]]
id = "h3"
profile = "brawler"
[[squad]]
id = "h4"
profile = "brawler"
[[squad]]
id = "h5"
profile = "brawler"
[[blips]]
id = "b1"
at = [1, 0]
holds = "grunt"
[[blips]]
id = "b2"
at = [7, 0]
holds = "grunt"
"#;

fn setup_of(text: &str) -> Result<Setup, MissionErrors> {
    let m = Mission::parse(Path::new("drop.toml"), text).expect("map parses");
    let mut s = m.setup(text, &Rules::default())?;
    s.decoys = Some(0);
    Ok(s)
}

/// Answers from a list (then the first option), keeping every decision it was asked.
struct Recorder {
    answers: VecDeque<usize>,
    seen: Rc<RefCell<Vec<Decision>>>,
}

impl Controller for Recorder {
    fn decide(&mut self, _: View<'_>, d: &Decision) -> usize {
        self.seen.borrow_mut().push(d.clone());
        self.answers.pop_front().unwrap_or(0)
    }
}

type Seen = Rc<RefCell<Vec<Decision>>>;

fn recorders(heroes: Vec<usize>, overmind: Vec<usize>) -> (Controllers, Seen, Seen) {
    let (h, o) = (Seen::default(), Seen::default());
    let ctl = Controllers::new(
        Box::new(Recorder {
            answers: heroes.into(),
            seen: h.clone(),
        }),
        Box::new(Recorder {
            answers: overmind.into(),
            seen: o.clone(),
        }),
    );
    (ctl, h, o)
}

fn squares(d: &Decision) -> Vec<Pos> {
    d.options
        .iter()
        .map(|c| match c {
            Choice::Square(p) => *p,
            other => panic!("a deploy option that is not a square: {other:?}"),
        })
        .collect()
}

fn pos_of(g: &Game, id: &str) -> Pos {
    g.state.unit(id).expect("deployed").models[0].pos
}

#[test]
fn nothing_is_on_the_map_and_only_deploy_is_legal_until_it_is_taken() {
    let w = world();
    let g = start(&setup_of(MISSION).expect("setup"), &w);
    assert!(g.state.units.is_empty() && g.state.blips.is_empty());
    assert_eq!(g.legal_actions(&w.content), vec![Action::Deploy]);
    for a in [Action::End, mv("h1", 0, 5)] {
        let r = g
            .validate(&w.content, &a)
            .expect_err("refused before deploying");
        assert_eq!(r.kind, RefusalKind::Deployment, "{a:?}: {r}");
    }
    // The Heroes may not learn what the waiting Blips hold.
    let view = HeroesView::of(&g.state);
    let waiting = view.deploying.as_ref().expect("waiting");
    assert!(waiting.blips.iter().all(|b| b.contents.is_none()));
    let own = g.state.deploying.as_ref().expect("waiting");
    assert!(own.blips.iter().all(|b| b.contents.is_some()));
}

#[test]
fn heroes_take_two_yellow_squares_and_the_rest_go_next_to_them_split_evenly() {
    let w = world();
    let mut g = start(&setup_of(MISSION).expect("setup"), &w);
    // h1 on the third Yellow Square offered, h2 on the first of those left.
    let (mut ctl, heroes, overmind) = recorders(vec![2, 0], vec![]);
    let events = g
        .apply(Action::Deploy, &w.content, &mut ctl)
        .expect("deploy is legal");
    let asked = heroes.borrow();
    assert!(asked
        .iter()
        .all(|d| d.kind == DecisionKind::Deploy && d.who == Side::Heroes));
    // The Heroes' Yellow Squares: not 2,1, which is within blip_deploy_radius of a marker.
    let first = squares(&asked[0]);
    assert_eq!(first, vec![Pos::new(0, 6), Pos::new(4, 6), Pos::new(8, 6)]);
    assert_eq!(asked[0].subject.as_deref(), Some("h1"));
    assert_eq!(squares(&asked[1]), vec![Pos::new(0, 6), Pos::new(4, 6)]);
    assert_eq!(pos_of(&g, "h1"), Pos::new(8, 6));
    assert_eq!(pos_of(&g, "h2"), Pos::new(0, 6));
    // Three Heroes: h3 and h5 with h1, h4 with h2 (3 and 2), each next to its Yellow Square.
    for (h, anchor) in [("h3", (8, 6)), ("h4", (0, 6)), ("h5", (8, 6))] {
        let a = Pos::new(anchor.0, anchor.1);
        let at = pos_of(&g, h);
        assert_eq!(at.distance(a), 1, "{h} at {at}, next to {a}");
        let d = asked
            .iter()
            .find(|d| d.subject.as_deref() == Some(h))
            .expect("asked");
        assert!(squares(d).iter().all(|p| p.distance(a) == 1), "{d:?}");
    }
    // Every Hero is deployed, then every Blip, in the mission's order, each said.
    let deployed: Vec<(String, Side)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Deployed { unit, side, .. } => Some((unit.to_string(), *side)),
            _ => None,
        })
        .collect();
    let order: Vec<(String, Side)> = ["h1", "h2", "h3", "h4", "h5"]
        .iter()
        .map(|h| (h.to_string(), Side::Heroes))
        .chain(["b1", "b2"].iter().map(|b| (b.to_string(), Side::Overmind)))
        .collect();
    assert_eq!(deployed, order);
    assert!(overmind.borrow().iter().all(|d| d.who == Side::Overmind));
    assert!(g.state.deploying.is_none());
    assert_ne!(g.legal_actions(&w.content), vec![Action::Deploy]);
}

#[test]
fn blips_are_offered_exactly_the_free_squares_near_a_marker_that_no_hero_sees() {
    let w = world();
    let mut g = start(&setup_of(MISSION).expect("setup"), &w);
    // Heroes on 4,6 (looking through the gap) and 0,6; the Overmind takes the last option.
    let (mut ctl, _, overmind) = recorders(vec![1, 0], vec![usize::MAX, usize::MAX]);
    g.apply(Action::Deploy, &w.content, &mut ctl)
        .expect("deploy is legal");
    let asked = overmind.borrow();
    assert_eq!(asked.len(), 2, "one decision a Blip");
    // The oracle for the first Blip: the Heroes as deployed, no Blip yet.
    let mut st = g.state.clone();
    st.blips.clear();
    st.moved();
    let heroes: Vec<Pos> = st.hero_models().map(|m| m.pos).collect();
    let markers = [Pos::new(1, 0), Pos::new(7, 0)];
    let mut expected = Vec::new();
    let mut seen_near = 0;
    for y in 0..st.map.height() {
        for x in 0..st.map.width() {
            let p = Pos::new(x, y);
            if st.map.is_solid(p) || markers.iter().all(|m| m.distance(p) > 2) {
                continue;
            }
            if heroes.iter().any(|&h| st.los(h, p)) {
                seen_near += 1;
            } else {
                expected.push(p);
            }
        }
    }
    assert!(
        seen_near > 0,
        "the map lets a Hero see some square near a marker"
    );
    assert_eq!(squares(&asked[0]), expected);
    // An answer out of range is taken as the first option, as every decision's.
    let b1 = g.state.blip("b1").expect("deployed").pos;
    assert_eq!(b1, expected[0]);
    // The second Blip is not offered the first one's square.
    assert!(!squares(&asked[1]).contains(&b1));
    // None starts in a Hero's sight.
    let mut st = g.state.clone();
    for b in g.state.blips.iter() {
        assert!(heroes.iter().all(|&h| !st.los(h, b.pos)), "{} seen", b.id);
    }
}

#[test]
fn a_deployed_game_replays_exactly_from_its_records() {
    let w = world();
    let s = setup_of(MISSION).expect("setup");
    let mut g = start(&s, &w);
    let (mut ctl, _, _) = recorders(vec![1, 2, 0, 1, 0], vec![3, 1]);
    g.apply(Action::Deploy, &w.content, &mut ctl)
        .expect("deploy");
    g.apply(mv("h1", 4, 4), &w.content, &mut ctl)
        .expect("a move after deploying");
    let fresh = s.start(&w.content, 7).expect("start");
    let again = Game::replay(fresh, "Drop", 7, &g.record, &w.content).expect("replays");
    assert_eq!(again.state, g.state);
    assert_eq!(again.log, g.log);
    // Deployment cannot be taken again.
    let r = g.validate(&w.content, &Action::Deploy).expect_err("done");
    assert_eq!(r.kind, RefusalKind::Deployment);
}

#[test]
fn a_mission_that_cannot_be_deployed_by_the_rules_says_why() {
    let placed = MISSION.replace(
        "[[squad]]\nid = \"h1\"\nprofile = \"trooper\"",
        "[[heroes]]\nid = \"h0\"\nprofile = \"trooper\"\nat = [4, 4]\n[[squad]]\nid = \"h1\"\nprofile = \"trooper\"",
    );
    let w = world();
    let e = setup_of(&placed)
        .expect("setup")
        .start(&w.content, 1)
        .expect_err("refused");
    assert!(
        e.iter().any(|e| e.to_string().contains("under [[squad]]")),
        "{e:?}"
    );
    // Only one Yellow Square is the Heroes': 0,6 and 8,6 become plain.
    let one = MISSION.replace("|y . . . y . . . y|", "|. . . . y . . . .|");
    let e = setup_of(&one)
        .expect("setup")
        .start(&w.content, 1)
        .expect_err("refused");
    assert!(
        e.iter()
            .any(|e| e.to_string().contains("two Yellow Squares")),
        "{e:?}"
    );
    // A squad without `deployment = "rules"` is a mistake, not silently dropped.
    let fixed = MISSION.replace("deployment = \"rules\"\n", "");
    let e = setup_of(&fixed)
        .expect("setup")
        .start(&w.content, 1)
        .expect_err("refused");
    assert!(
        e.iter()
            .any(|e| e.to_string().contains("deployment = \"rules\"")),
        "{e:?}"
    );
}
