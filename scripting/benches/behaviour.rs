//! One Lua behaviour call against the native Rust one, and the cost of a bare API call.
//!
//! Only the behaviour's own `perform` is timed: a wrapper behaviour measures the inner call
//! while a Hero's move reveals the Blip (so setup, the reveal and the rest of the action are
//! not counted). Both sides run the same position with the same seed and answers.
//!
//! `CARGO_TARGET_DIR=/work/target-api cargo bench -p overmind-scripting --bench behaviour`

use criterion::{criterion_group, criterion_main, Criterion};
use overmind_core::ai::AiController;
use overmind_core::*;
use overmind_scripting::ScriptHost;
use std::cell::Cell;
use std::hint::black_box;
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Runs the inner behaviour and adds the time it took.
struct Timed {
    inner: Rc<dyn Behaviour>,
    spent: Rc<Cell<Duration>>,
}

impl Behaviour for Timed {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn max_move(&self) -> Option<u32> {
        self.inner.max_move()
    }
    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        let t = Instant::now();
        let r = self.inner.perform(ctx);
        self.spent.set(self.spent.get() + t.elapsed());
        r
    }
}

fn pack() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../behaviours")
}

fn lua_behaviour(host: &Rc<ScriptHost>, path: &Path, source: &str) -> Rc<dyn Behaviour> {
    let def = host
        .load_behaviour(path, source)
        .unwrap_or_else(|e| panic!("{e}"));
    host.install_behaviour(def)
}

fn hero(id: &str) -> HeroProfile {
    HeroProfile {
        id: id.into(),
        name: id.into(),
        health: 8,
        movement: 4,
        shoot: Some(Shoot {
            short: Band { range: 3, cv: 2 },
            long: Band { range: 8, cv: 1 },
        }),
        melee_effects: vec![],
        shoot_effects: vec![],
        dial: vec![profile::DialStep {
            from: 1,
            melee: Some(2),
            defence: Some(2),
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

/// The example Stalker (base pack numbers), performing behaviour `id`.
fn content(id: &str, behaviour: Rc<dyn Behaviour>, spent: &Rc<Cell<Duration>>) -> Content {
    let mut c = Content::default();
    c.add_behaviour(
        id,
        Rc::new(Timed {
            inner: behaviour,
            spent: Rc::clone(spent),
        }),
    );
    c.heroes.insert("trooper".into(), hero("trooper"));
    c.aliens.insert(
        "stalker".into(),
        AlienType {
            id: "stalker".into(),
            name: "Stalker".into(),
            unit: Makeup {
                max: 3,
                leader: None,
            },
            movement: 6,
            melee: 3,
            defence: 2,
            health: 2,
            fear: 0,
            shoot: Some(Shoot {
                short: Band { range: 2, cv: 2 },
                long: Band { range: 4, cv: 1 },
            }),
            melee_effects: vec![],
            shoot_effects: vec![],
            behaviours: vec![id.into()],
            xxl: false,
        },
    );
    c
}

/// A 20×20 map with scattered scenery; four Heroes in the south-west; a Blip of three Stalkers
/// eight squares north-east of them, revealed by the first Hero's step.
fn position(content: &Content) -> Game {
    let mut b = MapBuilder::new(20, 20);
    for (x, y) in [
        (6, 10),
        (7, 10),
        (12, 6),
        (12, 7),
        (3, 4),
        (15, 15),
        (16, 15),
        (9, 13),
    ] {
        b.set_terrain(Pos::new(x, y), Terrain::Solid);
    }
    let setup = Setup {
        name: "bench".into(),
        map: b.build(),
        rules: Rules {
            decoys: 0,
            ..Rules::default()
        },
        heroes: [
            ("A", [2, 16]),
            ("B", [3, 17]),
            ("C", [4, 16]),
            ("D", [2, 18]),
        ]
        .iter()
        .map(|(id, at)| HeroSetup {
            id: id.to_string(),
            profile: "trooper".into(),
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
    let mut st = setup.start(content, 3).expect("bench setup");
    st.blips.push(Blip {
        id: "R".into(),
        pos: Pos::new(10, 10),
        contents: Some(Contents::Unit {
            type_id: "stalker".into(),
            size: 3,
            leader: None,
        }),
        activated: false,
        used: vec![],
    });
    st.moved();
    Game::new(st, "bench", 3)
}

/// Play the revealing move on a copy of `game`; the time of the behaviour call.
fn one_call(game: &Game, content: &Content, spent: &Cell<Duration>) -> (Duration, Vec<Event>) {
    let mut g = game.clone();
    let mut ctl = Controllers::new(Box::new(FirstOption), Box::new(AiController));
    spent.set(Duration::ZERO);
    let events = g
        .apply(
            Action::Move {
                unit: "A".into(),
                to: Pos::new(3, 15),
                via: Vec::new(),
            },
            content,
            &mut ctl,
        )
        .expect("the move is legal");
    (spent.get(), events)
}

fn rush(c: &mut Criterion) {
    let host = ScriptHost::new(&Rules::default()).expect("host");
    let path = pack().join("behaviours/rush.lua");
    let source = std::fs::read_to_string(&path).expect("rush.lua");
    let spent = Rc::new(Cell::new(Duration::ZERO));
    let native = content("rush", Rc::new(native::Rush), &spent);
    let lua = content("rush", lua_behaviour(&host, &path, &source), &spent);
    let game = position(&native);
    let (_, a) = one_call(&game, &native, &spent);
    let (_, b) = one_call(&game, &lua, &spent);
    assert_eq!(a, b, "the Lua and the native RUSH must play alike");
    assert!(
        a.iter()
            .any(|e| matches!(e, Event::BehaviourPerformed { .. })),
        "{a:#?}"
    );

    let mut group = c.benchmark_group("behaviour");
    for (name, content) in [("rush_native", &native), ("rush_lua", &lua)] {
        group.bench_function(name, |bench| {
            bench.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    total += black_box(one_call(&game, content, &spent)).0;
                }
                total
            });
        });
    }
    group.finish();
}

/// Calls per timed behaviour in the API benchmarks.
const N: u32 = 10_000;

fn api_calls(c: &mut Criterion) {
    // 10,000 sight lines cost more than the default budget charges a call (12 units a square):
    // the bench measures the calls, so it allows them.
    let rules = Rules {
        lua_instructions: 50_000_000,
        ..Rules::default()
    };
    let host = ScriptHost::new(&rules).expect("host");
    let spent = Rc::new(Cell::new(Duration::ZERO));
    let loop_of = |body: &str| {
        format!(
            "return behaviour {{ id = \"bench\", name = \"BENCH\", text = \"Loops.\",\n\
             perform = function(unit, game)\n\
               local a, b = unit:models()[1], game:heroes()[1]\n\
               for i = 1, {N} do {body} end\n\
             end }}"
        )
    };
    let mut group = c.benchmark_group("api");
    for (name, body) in [
        ("empty_loop", "local _ = a"),
        ("distance", "local _ = game:distance(a, b)"),
        ("los", "local _ = game:los(a, b)"),
        ("round", "local _ = game.round"),
        ("field", "local _ = a.x"),
    ] {
        let b = lua_behaviour(&host, Path::new(name), &loop_of(body));
        let content = content("bench", b, &spent);
        let game = position(&content);
        let (_, events) = one_call(&game, &content, &spent);
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::BehaviourFailed { .. })),
            "{name}: {events:#?}"
        );
        group.bench_function(format!("{name}_x{N}"), |bench| {
            bench.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    total += black_box(one_call(&game, &content, &spent)).0;
                }
                total
            });
        });
    }
    group.finish();

    // One whole behaviour call with nothing in it: the per-call cost of running the script's
    // top level afresh (its environment, its definition) and of `game.storage`.
    let mut group = c.benchmark_group("call");
    for (name, def) in [
        (
            "empty",
            "perform = function(unit, game) return helper(lookup) end",
        ),
        (
            "storage_counter",
            "perform = function(unit, game) game.storage.n = (game.storage.n or 0) + 1 end",
        ),
    ] {
        let src = format!(
            "local helper = function(x) return x end\n\
             local lookup = {{ a = {{ 1, 2, 3 }}, b = {{ x = 1 }} }}\n\
             return behaviour {{ id = \"bench\", name = \"BENCH\", text = \"Nothing.\",\n{def} }}"
        );
        let b = lua_behaviour(&host, Path::new(name), &src);
        let content = content("bench", b, &spent);
        let game = position(&content);
        let (_, events) = one_call(&game, &content, &spent);
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::BehaviourFailed { .. })),
            "{name}: {events:#?}"
        );
        group.bench_function(name, |bench| {
            bench.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    total += black_box(one_call(&game, &content, &spent)).0;
                }
                total
            });
        });
    }
    group.finish();

    let path = pack().join("behaviours/rush.lua");
    let source = std::fs::read_to_string(&path).expect("rush.lua");
    c.bench_function("load/rush_lua", |bench| {
        bench.iter(|| black_box(host.load_behaviour(&path, &source).expect("loads")));
    });
}

criterion_group!(benches, rush, api_calls);
criterion_main!(benches);
