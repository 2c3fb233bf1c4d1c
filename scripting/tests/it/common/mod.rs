//! Fixtures for the scripting tests: small games (after core's `tests/it/common`), content with
//! the native or the Lua seed behaviours, and a controller that records every decision asked.
#![allow(dead_code)]

pub mod temp_pack;

use overmind_core::ai::AiController;
use overmind_core::dice::DieFaces;
use overmind_core::*;
use overmind_scripting::ScriptHost;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The base pack.
pub fn pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../behaviours")
}

pub fn host() -> Rc<ScriptHost> {
    ScriptHost::new(&Rules::default()).expect("a script host")
}

fn sorted(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("pack folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

/// Load and install the base pack's Lua behaviours into `c` (replacing natives of the same id).
pub fn install_lua(host: &Rc<ScriptHost>, c: &mut Content) {
    for p in sorted(&pack().join("behaviours"), "lua") {
        let text = std::fs::read_to_string(&p).expect("read");
        let def = host
            .load_behaviour(&p, &text)
            .unwrap_or_else(|e| panic!("{e}"));
        let id = def.id.clone();
        c.add_behaviour(&id, host.install_behaviour(def));
    }
}

/// A behaviour script from text, installed under its id.
pub fn install_source(host: &Rc<ScriptHost>, c: &mut Content, path: &str, source: &str) {
    let def = host
        .load_behaviour(Path::new(path), source)
        .unwrap_or_else(|e| panic!("{e}"));
    let id = def.id.clone();
    c.add_behaviour(&id, host.install_behaviour(def));
}

#[path = "../../../../core/tests/it/common/mod.rs"]
mod core_fixture;
#[allow(unused_imports)] // not every test module uses all of them
pub use core_fixture::{alien, all_blanks, all_hits, hero};

/// Which seed behaviours a world uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flavour {
    Native,
    Lua,
}

/// Heroes "trooper" (shoot 3/8) and "brawler" (no gun); one alien type per seed behaviour
/// ("rusher" comes 3 to a unit, "pack" 2 rushers with Movement 4), plus "grunt" (lists
/// nothing) and "sniper" (QUICK SHOT with long range 10).
pub fn world(flavour: Flavour) -> Content {
    let mut c = Content::default();
    native::install(&mut c);
    if flavour == Flavour::Lua {
        let h = host();
        install_lua(&h, &mut c);
    }
    for h in [hero("trooper", Some((3, 8))), hero("brawler", None)] {
        c.heroes.insert(h.id.clone(), h);
    }
    let mut sniper = alien("sniper", 2, 4, &["quick_shot"]);
    sniper.shoot = Some(Shoot {
        short: Band { range: 5, cv: 2 },
        long: Band { range: 10, cv: 1 },
    });
    for a in [
        alien("grunt", 3, 4, &[]),
        alien("rusher", 3, 6, &["rush"]),
        alien("pack", 2, 4, &["rush"]),
        alien("shooter", 1, 4, &["quick_shot"]),
        alien("protector", 2, 6, &["protect"]),
        alien("coward", 2, 6, &["take_cover"]),
        alien("terror", 1, 4, &["terrifying_presence"]),
        alien("two", 1, 4, &["quick_shot", "rush"]),
        sniper,
    ] {
        c.aliens.insert(a.id.clone(), a);
    }
    c
}

/// Records every decision asked and the answer given.
pub struct Recorder {
    pub inner: Box<dyn Controller>,
    pub log: Rc<RefCell<Vec<(Decision, usize)>>>,
}

impl Controller for Recorder {
    fn decide(&mut self, view: overmind_core::View<'_>, d: &Decision) -> usize {
        let i = self.inner.decide(view, d);
        self.log.borrow_mut().push((d.clone(), i));
        i
    }
}

/// One step of a scenario.
#[derive(Clone, Debug)]
pub enum Step {
    Act(Action),
    /// End activations until it is the Overmind's phase.
    ToOvermind,
}

pub fn mv(unit: &str, x: i32, y: i32) -> Step {
    Step::Act(Action::Move {
        unit: unit.into(),
        to: Pos::new(x, y),
        via: Vec::new(),
    })
}

/// A small game: a map, Heroes, face-down Blips (dropped in after the setup, so they may
/// stand in sight), extra Alien Units, rules, the steps to play and the Overmind's answers
/// (then the AI's).
#[derive(Clone, Debug)]
pub struct Scene {
    pub map: Map,
    pub heroes: Vec<(&'static str, &'static str, [i32; 2])>,
    pub blips: Vec<(&'static str, [i32; 2], &'static str, u32)>,
    pub units: Vec<(&'static str, &'static str, Vec<[i32; 2]>)>,
    pub rules: Rules,
    pub steps: Vec<Step>,
    pub answers: Vec<usize>,
    /// Changes the state once everything is placed, before play (statuses, tokens).
    pub prepare: Option<fn(&mut GameState)>,
}

impl Scene {
    pub fn new(map: Map) -> Scene {
        Scene {
            map,
            heroes: vec![],
            blips: vec![],
            units: vec![],
            rules: Rules {
                decoys: 0,
                ..Rules::default()
            },
            steps: vec![],
            answers: vec![],
            prepare: None,
        }
    }

    pub fn die(mut self, d: DieFaces) -> Scene {
        self.rules.die = d;
        self
    }
}

/// What a scenario produced.
#[derive(Debug)]
pub struct Played {
    pub game: Game,
    /// Events of the steps played (the game's log without its opening).
    pub events: Vec<Event>,
    pub decisions: Vec<(Decision, usize)>,
}

pub fn open(w: i32, h: i32) -> Map {
    MapBuilder::new(w, h).build()
}

/// Play a scene with some content.
pub fn play(scene: &Scene, content: &Content) -> Played {
    let setup = Setup {
        name: "test".into(),
        map: scene.map.clone(),
        rules: scene.rules.clone(),
        heroes: scene
            .heroes
            .iter()
            .map(|(id, p, at)| HeroSetup {
                id: id.to_string(),
                profile: p.to_string(),
                at: Pos::from(*at),
                health: None,
            })
            .collect(),
        blips: vec![],
        pool: vec![],
        decoys: Some(0),
        objective: Objective::Eliminate,
        max_rounds: Some(10),
        tokens: Vec::new(),
        decks: Vec::new(),
        aliens: Vec::new(),
        hand: None,
        agenda: None,
        deployment: Default::default(),
        squad: Vec::new(),
    };
    let mut st = setup.start(content, 5).expect("valid setup");
    for (id, at, t, n) in &scene.blips {
        let contents = if *t == "decoy" {
            Contents::Decoy
        } else {
            Contents::Unit {
                type_id: Id::from(t),
                size: *n,
                leader: None,
            }
        };
        st.blips.push(Blip {
            id: Id::from(id),
            pos: Pos::from(*at),
            contents: Some(contents),
            activated: false,
            used: vec![],
        });
    }
    for (id, kind, at) in &scene.units {
        let hp = content.aliens.get(*kind).map_or(2, |t| t.health);
        st.units.push(Unit {
            id: Id::from(id),
            side: Side::Overmind,
            models: at
                .iter()
                .enumerate()
                .map(|(i, p)| Model {
                    id: overmind_core::Id::from(&format!("{id}.{}", i + 1)),
                    kind: Id::from(kind),
                    pos: Pos::from(*p),
                    health: hp,
                    max_health: hp,
                    status: Default::default(),
                    xxl: false,
                })
                .collect(),
            activated: false,
            used: vec![],
            overwatch: None,
            xp: 0,
            from_blip: None,
            extracted: false,
        });
    }
    if let Some(prepare) = scene.prepare {
        prepare(&mut st);
    }
    st.moved();
    let mut g = Game::new(st, "t", 5);
    let start = g.log.len();
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut ctl = Controllers::new(
        Box::new(FirstOption),
        Box::new(Recorder {
            inner: Box::new(Scripted {
                answers: scene.answers.clone().into(),
                fallback: AiController,
            }),
            log: Rc::clone(&log),
        }),
    );
    for step in &scene.steps {
        match step {
            Step::Act(a) => {
                if let Err(e) = g.apply(a.clone(), content, &mut ctl) {
                    panic!("{a:?} refused: {e}");
                }
            }
            Step::ToOvermind => {
                while g.to_move() == Some(Side::Heroes) {
                    g.apply(Action::End, content, &mut ctl).expect("end");
                }
            }
        }
    }
    let events = g.log[start..].to_vec();
    let decisions = log.borrow().clone();
    Played {
        game: g,
        events,
        decisions,
    }
}

/// Play a scene with the native and with the Lua seed behaviours; assert that both games went
/// exactly alike (events, decisions asked and answered, final state incl. the RNG). Returns
/// the Lua game.
pub fn same(scene: &Scene) -> Played {
    let native = play(scene, &world(Flavour::Native));
    let lua = play(scene, &world(Flavour::Lua));
    for (i, (a, b)) in native.events.iter().zip(&lua.events).enumerate() {
        assert_eq!(
            a, b,
            "event {i} differs\nnative: {:#?}\nlua: {:#?}",
            native.events, lua.events
        );
    }
    assert_eq!(
        native.events.len(),
        lua.events.len(),
        "native: {:#?}\nlua: {:#?}",
        native.events,
        lua.events
    );
    assert_eq!(native.decisions, lua.decisions, "decisions asked differ");
    assert_eq!(native.game.state, lua.game.state, "final states differ");
    assert_eq!(native.game.record, lua.game.record, "records differ");
    assert!(
        !lua.events
            .iter()
            .any(|e| matches!(e, Event::BehaviourFailed { .. })),
        "{:#?}",
        lua.events
    );
    lua
}

pub fn failures(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::BehaviourFailed { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

/// Ids of the behaviours performed, in order.
pub fn performed(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::BehaviourPerformed { behaviour, .. } => Some(behaviour.to_string()),
            _ => None,
        })
        .collect()
}
