//! Fixtures for the rules tests: a small content set, boards drawn in ASCII, scripted sides.
#![allow(dead_code)]

use overmind_core::ai::AiController;
use overmind_core::dice::DieFaces;
use overmind_core::*;
use std::cell::RefCell;
use std::rc::Rc;

pub fn hero(id: &str, shoot: Option<(u32, u32)>) -> HeroProfile {
    HeroProfile {
        id: id.into(),
        name: id.into(),
        health: 8,
        movement: 4,
        shoot: shoot.map(|(short, long)| Shoot {
            short: Band {
                range: short,
                cv: 2,
            },
            long: Band { range: long, cv: 1 },
        }),
        melee_effects: vec![],
        shoot_effects: vec![],
        dial: vec![profile::DialStep {
            from: 1,
            melee: Some(2),
            defence: Some(1),
            movement: None,
        }],
        dial_stats: vec![
            overmind_core::state::Stat::Melee,
            overmind_core::state::Stat::Defence,
        ],
        melee: None,
        defence: None,
    }
}

pub fn alien(id: &str, max: u32, movement: u32, behaviours: &[&str]) -> AlienType {
    AlienType {
        id: id.into(),
        name: id.into(),
        unit: Makeup { max, leader: None },
        movement,
        melee: 2,
        defence: 1,
        health: 2,
        fear: 2,
        shoot: Some(Shoot {
            short: Band { range: 2, cv: 2 },
            long: Band { range: 4, cv: 1 },
        }),
        melee_effects: vec![],
        shoot_effects: vec![],
        behaviours: behaviours.iter().map(|s| s.to_string()).collect(),
        xxl: false,
    }
}

/// Records that it ran; optionally moves a model first and then fails.
pub struct Probe {
    pub ran: Rc<RefCell<Vec<String>>>,
    pub fail: bool,
}

impl Behaviour for Probe {
    fn name(&self) -> String {
        "PROBE".into()
    }
    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        self.ran.borrow_mut().push(ctx.unit().to_string());
        ctx.log("probe performed");
        if self.fail {
            let unit = ctx.unit().to_string();
            let m = ctx.models_of(&unit)[0].clone();
            let _ = ctx.move_towards(&m.id, Goal::Squares(vec![Pos::new(0, 0)]), 2);
            return Err(BehaviourError::new("probe failed on purpose"));
        }
        Ok(())
    }
}

/// The body of a native test trigger or card play.
pub type Body = dyn Fn(&mut BehaviourCtx<'_, '_>, &trigger::Moment) -> Result<(), BehaviourError>;

/// A trigger (or a card's play) that runs a [`Body`].
pub struct FnTrigger(pub Box<Body>);

impl trigger::Trigger for FnTrigger {
    fn fire(
        &self,
        ctx: &mut BehaviourCtx<'_, '_>,
        m: &trigger::Moment,
    ) -> Result<(), BehaviourError> {
        (self.0)(ctx, m)
    }
}

pub struct World {
    pub content: Content,
    pub ran: Rc<RefCell<Vec<String>>>,
}

/// Heroes "trooper" (shoot 3/8), "brawler" (no gun); aliens "grunt" (probe), "lurker"
/// (long range 10, probe), "broken" (failing probe), "horror" (movement 2) and one per
/// native behaviour.
pub fn world() -> World {
    let ran = Rc::new(RefCell::new(Vec::new()));
    let mut c = Content::default();
    overmind_core::native::install(&mut c);
    c.add_behaviour(
        "probe",
        Rc::new(Probe {
            ran: ran.clone(),
            fail: false,
        }),
    );
    c.add_behaviour(
        "broken",
        Rc::new(Probe {
            ran: ran.clone(),
            fail: true,
        }),
    );
    for h in [hero("trooper", Some((3, 8))), hero("brawler", None)] {
        c.heroes.insert(h.id.clone(), h);
    }
    let mut lurker = alien("lurker", 1, 4, &["probe"]);
    lurker.shoot = Some(Shoot {
        short: Band { range: 5, cv: 2 },
        long: Band { range: 10, cv: 1 },
    });
    for a in [
        alien("grunt", 3, 4, &["probe"]),
        alien("broken", 1, 4, &["broken"]),
        alien("horror", 1, 2, &["probe"]),
        alien("two", 1, 4, &["probe", "rush"]),
        alien("rusher", 3, 6, &["rush"]),
        alien("shooter", 1, 4, &["quick_shot"]),
        alien("protector", 1, 6, &["protect"]),
        alien("coward", 1, 6, &["take_cover"]),
        alien("terror", 1, 4, &["terrifying_presence"]),
        lurker,
    ] {
        c.aliens.insert(a.id.clone(), a);
    }
    World { content: c, ran }
}

pub fn unit(t: &str, size: u32) -> Option<Contents> {
    Some(Contents::Unit {
        type_id: t.into(),
        size,
        leader: None,
    })
}

pub fn decoy() -> Option<Contents> {
    Some(Contents::Decoy)
}

/// Every face a single HIT: each attack die is one hit, defence never shields.
pub fn all_hits() -> DieFaces {
    DieFaces {
        blank: 0,
        hit: 12,
        double_hit: 0,
        critical: 0,
        shield: 0,
        double_shield: 0,
    }
}

/// Every face BLANK: nothing ever hits.
pub fn all_blanks() -> DieFaces {
    DieFaces {
        blank: 12,
        hit: 0,
        double_hit: 0,
        critical: 0,
        shield: 0,
        double_shield: 0,
    }
}

pub fn setup(
    drawing: &str,
    heroes: &[(&str, &str, [i32; 2])],
    blips: &[(&str, [i32; 2], Option<Contents>)],
) -> Setup {
    Setup {
        name: "test".into(),
        map: MapBuilder::from_drawing(drawing).build(),
        rules: Rules {
            decoys: 0,
            ..Rules::default()
        },
        heroes: heroes
            .iter()
            .map(|(id, p, at)| HeroSetup {
                id: id.to_string(),
                profile: p.to_string(),
                at: Pos::from(*at),
                health: None,
            })
            .collect(),
        blips: blips
            .iter()
            .map(|(id, at, c)| BlipSetup {
                id: id.to_string(),
                at: Pos::from(*at),
                contents: c.clone(),
            })
            .collect(),
        pool: vec![],
        // The fixed Decoys are all the mission's Decoy Tokens: none is drawn.
        decoys: Some(blips.iter().filter(|(_, _, c)| *c == decoy()).count() as u32),
        objective: Objective::Eliminate,
        max_rounds: Some(10),
        tokens: Vec::new(),
        decks: Vec::new(),
        aliens: Vec::new(),
        hand: None,
        agenda: None,
        deployment: Default::default(),
        squad: Vec::new(),
    }
}

pub fn start(s: &Setup, w: &World) -> Game {
    let st = s.start(&w.content, 7).expect("valid setup");
    Game::new(st, &s.name, 7)
}

/// Controllers: scripted Overmind answers then AI; Heroes always first option.
pub fn ctl(overmind: Vec<usize>) -> Controllers {
    Controllers::new(
        Box::new(FirstOption),
        Box::new(Scripted {
            answers: overmind.into(),
            fallback: AiController,
        }),
    )
}

pub fn apply(g: &mut Game, w: &World, c: &mut Controllers, a: Action) -> Vec<Event> {
    match g.apply(a.clone(), &w.content, c) {
        Ok(e) => e,
        Err(e) => panic!("{a:?} refused: {e}"),
    }
}

pub fn mv(unit: &str, x: i32, y: i32) -> Action {
    Action::Move {
        unit: unit.into(),
        to: Pos::new(x, y),
        via: Vec::new(),
    }
}

/// End activations until it is the Overmind's phase.
pub fn to_overmind(g: &mut Game, w: &World, c: &mut Controllers) {
    while g.to_move() == Some(Side::Heroes) {
        apply(g, w, c, Action::End);
    }
}

pub fn revealed(events: &[Event]) -> Vec<(String, RevealCause, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::BlipRevealed {
                blip,
                cause,
                triggers_behaviour,
                ..
            } => Some((blip.to_string(), *cause, *triggers_behaviour)),
            _ => None,
        })
        .collect()
}

pub fn performed(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::BehaviourPerformed { unit, .. } => Some(unit.to_string()),
            _ => None,
        })
        .collect()
}

/// A 12x5 board: a wall with a door at x=6 splits west from east.
pub const DOOR: &str = "
+-+-+-+-+-+-+-+-+-+-+-+-+
|. . . . . .|. . . . . .|
+ + + + + + + + + + + + +
|. . . . . .|. . . . . .|
+ + + + + + + + + + + + +
|. . . . . . . . . . . .|
+ + + + + + + + + + + + +
|. . . . . .|. . . . . .|
+ + + + + + + + + + + + +
|. . . . . .|. . . . . .|
+-+-+-+-+-+-+-+-+-+-+-+-+
";

/// 12x6: a closed wall between x=5 and x=6; nothing on one side sees the other.
pub fn wall_map() -> String {
    let mut s = String::from("+-+-+-+-+-+-+-+-+-+-+-+-+\n");
    for y in 0..6 {
        s.push_str("|. . . . . .|. . . . . .|\n");
        s.push_str(if y == 5 {
            "+-+-+-+-+-+-+-+-+-+-+-+-+\n"
        } else {
            "+ + + + + + + + + + + + +\n"
        });
    }
    s
}

/// 12x4: a corridor along y=0 above solid rock, with a one-square shaft going down at x=9.
/// From the corridor, the shaft's bottom (9,3) is seen only from x = 8..=10; (9,1) from
/// further away; (9,2) only from x = 8..=10 too.
pub fn shaft_map() -> String {
    let mut s = String::from("+-+-+-+-+-+-+-+-+-+-+-+-+\n|. . . . . . . . . . . .|\n");
    for y in 1..4 {
        s.push_str("+-+-+-+-+-+-+-+-+-+ +-+-+\n");
        s.push_str("|#|#|#|#|#|#|#|#|#|.|#|#|\n");
        let _ = y;
    }
    s.push_str("+-+-+-+-+-+-+-+-+-+-+-+-+\n");
    s
}

/// Content shaped like the base pack (same ids), for whole-game tests without Lua.
pub fn base_like() -> Content {
    let mut c = Content::default();
    overmind_core::native::install(&mut c);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../behaviours/heroes");
    for e in std::fs::read_dir(dir).expect("heroes dir") {
        let p = e.expect("entry").path();
        let text = std::fs::read_to_string(&p).expect("read");
        let h = HeroProfile::from_toml(&p.display().to_string(), &text).expect("hero parses");
        c.heroes.insert(h.id.clone(), h);
    }
    let mk = |id: &str,
              max,
              mv,
              melee,
              def,
              hp,
              fear,
              shoot: Option<(u32, u32, u32, u32)>,
              b: &[&str]| AlienType {
        id: id.into(),
        name: id.into(),
        unit: Makeup { max, leader: None },
        movement: mv,
        melee,
        defence: def,
        health: hp,
        fear,
        shoot: shoot.map(|(sr, sc, lr, lc)| Shoot {
            short: Band { range: sr, cv: sc },
            long: Band { range: lr, cv: lc },
        }),
        melee_effects: vec![],
        shoot_effects: vec![],
        behaviours: b.iter().map(|s| s.to_string()).collect(),
        xxl: false,
    };
    let mut warden = mk("warden", 2, 4, 3, 3, 3, 0, None, &["protect"]);
    warden.melee_effects = vec![Effect::KnockDown];
    for t in [
        mk(
            "stalker",
            3,
            6,
            3,
            2,
            2,
            0,
            Some((2, 2, 4, 1)),
            &["rush", "quick_shot"],
        ),
        mk(
            "spitter",
            2,
            4,
            1,
            2,
            2,
            0,
            Some((4, 3, 8, 2)),
            &["quick_shot", "take_cover"],
        ),
        warden,
        mk(
            "dread",
            1,
            3,
            4,
            3,
            5,
            3,
            None,
            &["terrifying_presence", "rush"],
        ),
    ] {
        c.aliens.insert(t.id.clone(), t);
    }
    c
}

/// The demo mission's setup over default rules.
pub fn demo_setup() -> Setup {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../behaviours/missions/demo.toml"
    );
    let text = std::fs::read_to_string(path).expect("demo mission");
    let m = Mission::parse(std::path::Path::new(path), &text).expect("demo parses");
    let mut s = m.setup(&text, &Rules::default()).expect("demo setup");
    // Its tokens and cards are Lua content (docs/RULES.md §14, §15), which the native
    // fixtures do not load.
    s.tokens.clear();
    s.decks.clear();
    s
}

/// Put an already-revealed Alien Unit `id` of `kind` on the map, one model per square
/// (`id.1`, `id.2`, ...), each with `health`.
pub fn push_alien(st: &mut GameState, id: &str, kind: &str, at: &[[i32; 2]], health: u32) {
    st.units.push(Unit::new(
        id.into(),
        Side::Overmind,
        at.iter()
            .enumerate()
            .map(|(i, p)| Model {
                id: Id::from(&format!("{id}.{}", i + 1)),
                kind: kind.into(),
                pos: Pos::from(*p),
                health,
                max_health: health,
                status: Default::default(),
                xxl: false,
            })
            .collect(),
    ));
    st.moved();
}
