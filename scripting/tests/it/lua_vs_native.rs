//! Each seed behaviour in Lua (`behaviours/behaviours/*.lua`) plays exactly like its native
//! Rust version (`core/src/native.rs`): same events, same decisions asked in the same order,
//! same final state and RNG — in small positions and in whole AI-vs-AI games.

use crate::common;
use common::*;
use overmind_core::ai::play_ai_game;
use overmind_core::*;

fn pos(p: &Played, model: &str) -> Pos {
    p.game
        .state
        .find_model(model)
        .map(|(_, m)| m.pos)
        .unwrap_or_else(|| panic!("no model {model}"))
}

fn moved_steps(ev: &[Event], unit: &str) -> usize {
    ev.iter()
        .filter_map(|e| match e {
            Event::Moved { unit: u, path, .. } if u == unit => Some(path.len() - 1),
            _ => None,
        })
        .sum()
}

fn attacks(ev: &[Event], kind: AttackKind) -> Vec<(String, u32, u32)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Attack {
                kind: k,
                target,
                cv,
                dice,
                ..
            } if *k == kind => Some((target.to_string(), *cv, *dice)),
            _ => None,
        })
        .collect()
}

fn logs(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Log { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

fn rush_scene(
    heroes: Vec<(&'static str, &'static str, [i32; 2])>,
    blip: [i32; 2],
    kind: &'static str,
    n: u32,
) -> Scene {
    let mut s = Scene::new(open(12, 6)).die(all_blanks());
    s.heroes = heroes;
    s.blips = vec![("R", blip, kind, n)];
    s
}

#[test]
fn rush_moves_five_towards_the_closest_visible_hero() {
    let mut s = rush_scene(vec![("H", "brawler", [0, 2])], [10, 2], "rusher", 1);
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert_eq!(performed(&p.events), vec!["rush"]);
    assert_eq!(moved_steps(&p.events, "R.1"), 5);
    assert_eq!(pos(&p, "R.1").x, 5);
}

#[test]
fn rush_that_ends_in_melee_attacks_with_one_die_fewer() {
    let mut s = rush_scene(vec![("H", "brawler", [0, 2])], [5, 2], "rusher", 1).die(all_hits());
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert_eq!(
        attacks(&p.events, AttackKind::Melee),
        vec![("H".to_string(), 2, 1)]
    );
}

#[test]
fn rush_goes_for_the_visible_hero_not_a_closer_hidden_one() {
    let mut b = MapBuilder::new(12, 6);
    b.set_terrain(Pos::new(8, 4), Terrain::Solid);
    b.set_terrain(Pos::new(8, 5), Terrain::Solid);
    let mut s = Scene::new(b.build()).die(all_blanks());
    s.heroes = vec![("N", "brawler", [1, 0]), ("S", "brawler", [7, 5])];
    s.blips = vec![("R", [9, 3], "rusher", 1)];
    s.steps = vec![mv("N", 2, 0)];
    let p = same(&s);
    assert_eq!(performed(&p.events), vec!["rush"]);
}

#[test]
fn rush_of_a_three_model_unit_moves_model_by_model_in_the_overminds_order() {
    let mut s = rush_scene(vec![("H", "brawler", [0, 2])], [9, 2], "rusher", 3).die(all_hits());
    // Placement answers for models 2 and 3, then the model order: last model first.
    s.answers = vec![0, 3, 1, 1];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    let orders = p
        .decisions
        .iter()
        .filter(|(d, _)| d.kind == DecisionKind::ModelOrder)
        .count();
    assert!(orders >= 2, "{:#?}", p.decisions);
    assert!(moved_steps(&p.events, "R.2") > 0 && moved_steps(&p.events, "R.3") > 0);
}

#[test]
fn rush_may_decline_its_melee_attack_but_not_its_move() {
    let mut s = rush_scene(vec![("H", "brawler", [0, 2])], [5, 2], "rusher", 1).die(all_hits());
    // Where to end the move (asked: equally good squares), which shortest path (the first),
    // then no to the Melee attack. Whether to move is not asked: it is a "must".
    s.answers = vec![0, 0, 1];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert_eq!(
        moved_steps(&p.events, "R.1"),
        3,
        "it still moves next to the Hero"
    );
    assert!(
        attacks(&p.events, AttackKind::Melee).is_empty(),
        "{:#?}",
        p.decisions
    );
    let confirms: Vec<_> = p
        .decisions
        .iter()
        .filter(|(d, _)| d.kind == DecisionKind::Confirm)
        .collect();
    assert_eq!(confirms.len(), 1, "{:#?}", p.decisions);
    assert!(confirms[0].0.prompt.contains("Melee"), "{:#?}", confirms);
}

#[test]
fn rush_whose_first_model_is_killed_by_overwatch_still_completes() {
    // K, the closest visible Hero, stands on Overwatch: its short-range shot (CV 2, all hits,
    // no shields) kills the first rusher on its first step. The others rush on.
    let mut s = rush_scene(
        vec![("H", "brawler", [0, 2]), ("K", "trooper", [8, 5])],
        [9, 2],
        "rusher",
        3,
    )
    .die(all_hits());
    s.steps = vec![
        Step::Act(Action::Overwatch { unit: "K".into() }),
        mv("H", 1, 2),
    ];
    let p = same(&s);
    let killed: Vec<(String, Option<String>)> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ModelKilled { model, by, .. } => {
                Some((model.to_string(), by.map(|b| b.to_string())))
            }
            _ => None,
        })
        .collect();
    assert_eq!(killed.len(), 1, "{:#?}", p.events);
    assert_eq!(killed[0].1.as_deref(), Some("K"));
    let dead = &killed[0].0;
    assert_eq!(performed(&p.events), vec!["rush"], "RUSH does not fail");
    assert!(p.game.state.find_model(dead).is_none(), "{dead} stays dead");
    let survivors: Vec<String> = p
        .game
        .state
        .unit("R")
        .map(|u| u.models.iter().map(|m| m.id.to_string()).collect())
        .unwrap_or_default();
    assert_eq!(survivors.len(), 2);
    assert!(
        survivors.iter().any(|m| moved_steps(&p.events, m) > 0),
        "the others rush on: {:#?}",
        p.events
    );
}

#[test]
fn rush_breaks_ties_between_equally_close_heroes_by_asking() {
    let mut s = rush_scene(
        vec![("A", "brawler", [1, 1]), ("B", "brawler", [2, 3])],
        [10, 2],
        "rusher",
        1,
    );
    s.answers = vec![1];
    s.steps = vec![mv("A", 2, 1)];
    let p = same(&s);
    let tie = p
        .decisions
        .iter()
        .find(|(d, _)| d.kind == DecisionKind::Choice);
    assert!(
        tie.is_some_and(|(d, _)| d.options.len() == 2),
        "{:#?}",
        p.decisions
    );
}

#[test]
fn rush_with_no_visible_hero_logs_why() {
    // The Overmind flips a Blip out of every Hero's sight; "always" makes it trigger anyway.
    let mut map = String::from("+-+-+-+-+-+-+-+-+-+-+-+-+\n");
    for y in 0..6 {
        map.push_str("|. . . . . .|. . . . . .|\n");
        map.push_str(if y == 5 {
            "+-+-+-+-+-+-+-+-+-+-+-+-+\n"
        } else {
            "+ + + + + + + + + + + + +\n"
        });
    }
    let mut s = Scene::new(MapBuilder::from_drawing(&map).build());
    s.rules.overmind_reveal_trigger = RevealTrigger::Always;
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("R", [9, 2], "rusher", 1)];
    s.steps = vec![
        Step::ToOvermind,
        Step::Act(Action::Flip { unit: "R".into() }),
    ];
    let p = same(&s);
    assert_eq!(logs(&p.events), vec!["no visible Hero to rush"]);
}

#[test]
fn quick_shot_shoots_with_one_die_fewer() {
    let mut s = Scene::new(open(12, 6)).die(all_hits());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("Q", [3, 2], "shooter", 1)];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert_eq!(
        attacks(&p.events, AttackKind::Shoot),
        vec![("H".to_string(), 2, 1)]
    );
}

#[test]
fn quick_shot_asks_which_hero_and_shoots_the_answer() {
    let mut s = Scene::new(open(12, 6)).die(all_hits());
    s.heroes = vec![("A", "brawler", [0, 1]), ("B", "brawler", [0, 3])];
    s.blips = vec![("Q", [4, 2], "sniper", 2)];
    // Where the second model goes, yes to the shot, then the second Hero.
    s.answers = vec![0, 0, 1];
    s.steps = vec![mv("A", 1, 1)];
    let p = same(&s);
    let shots = attacks(&p.events, AttackKind::Shoot);
    assert_eq!(shots.len(), 1);
    assert_eq!(shots[0].0, "B", "{:#?}", p.decisions);
}

#[test]
fn quick_shot_may_be_declined() {
    let mut s = Scene::new(open(12, 6)).die(all_hits());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("Q", [3, 2], "shooter", 1)];
    s.answers = vec![1];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    let asked = p
        .decisions
        .iter()
        .find(|(d, _)| d.kind == DecisionKind::Confirm);
    assert!(asked.is_some_and(|(_, a)| *a == 1), "{:#?}", p.decisions);
    assert!(attacks(&p.events, AttackKind::Shoot).is_empty());
    assert_eq!(performed(&p.events), vec!["quick_shot"]);
}

#[test]
fn quick_shot_with_nothing_in_range_logs_why() {
    let mut s = Scene::new(open(12, 6)).die(all_hits());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("Q", [10, 2], "shooter", 1)];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert_eq!(logs(&p.events), vec!["no Hero to shoot"]);
}

#[test]
fn protect_moves_to_the_nearest_other_unit_and_stops_once_adjacent() {
    let mut s = Scene::new(open(12, 6)).die(all_blanks());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("P", [8, 0], "protector", 2)];
    s.units = vec![
        ("F", "grunt", vec![[8, 5]]),
        ("G", "grunt", vec![[2, 5], [3, 5]]),
    ];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert!(movement::adjacent(
        &p.game.state.map,
        pos(&p, "P.1"),
        Pos::new(8, 5)
    ));
}

#[test]
fn protect_with_no_other_unit_logs_why() {
    let mut s = Scene::new(open(12, 6)).die(all_blanks());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("P", [8, 0], "protector", 1)];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert_eq!(logs(&p.events), vec!["no other Alien Unit to protect"]);
}

#[test]
fn take_cover_moves_to_a_green_square_within_five() {
    let mut b = MapBuilder::new(12, 6);
    b.set_terrain(Pos::new(9, 2), Terrain::Green);
    b.set_terrain(Pos::new(11, 5), Terrain::Building);
    let mut s = Scene::new(b.build());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("C", [6, 2], "coward", 2)];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert_eq!(pos(&p, "C.1"), Pos::new(9, 2));
    assert_eq!(
        logs(&p.events).len(),
        1,
        "the second model finds the square taken or none: {:#?}",
        p.events
    );
}

/// The squares a TAKE COVER decision offered, and the answer.
fn cover_choice(p: &Played) -> (Vec<Choice>, usize) {
    let (d, answer) = p
        .decisions
        .iter()
        .find(|(d, _)| d.kind == DecisionKind::Choice)
        .unwrap_or_else(|| panic!("no choice asked: {:#?}", p.decisions));
    (d.options.clone(), *answer)
}

#[test]
fn take_cover_offers_every_cover_square_in_reach_and_staying_and_goes_where_told() {
    let green = [(9, 2), (8, 5), (11, 0), (0, 0), (2, 5)];
    let mut b = MapBuilder::new(12, 6);
    for (x, y) in green {
        b.set_terrain(Pos::new(x, y), Terrain::Green);
    }
    let mut s = Scene::new(b.build());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("C", [6, 2], "coward", 1)];
    s.answers = vec![1];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    let (options, answer) = cover_choice(&p);
    assert_eq!(
        options.last(),
        Some(&Choice::Id("stay".into())),
        "{options:?}"
    );
    let mut squares: Vec<Pos> = options
        .iter()
        .filter_map(|c| match c {
            Choice::Square(q) => Some(*q),
            _ => None,
        })
        .collect();
    squares.sort();
    // Within 5 squares of (6,2): not (0,0), six away.
    let mut want: Vec<Pos> = [(9, 2), (8, 5), (11, 0), (2, 5)]
        .iter()
        .map(|&(x, y)| Pos::new(x, y))
        .collect();
    want.sort();
    assert_eq!(squares, want, "{options:?}");
    let Choice::Square(chosen) = options[answer] else {
        panic!("{options:?}")
    };
    assert_eq!(pos(&p, "C.1"), chosen, "{:#?}", p.events);

    // The rules' reach: within 3, only the two nearest remain.
    s.rules.take_cover_steps = 3;
    s.answers = vec![];
    let p = same(&s);
    let (options, _) = cover_choice(&p);
    let mut offered: Vec<String> = options.iter().map(ToString::to_string).collect();
    offered.sort();
    assert_eq!(offered, vec!["8,5", "9,2", "stay"], "{options:?}");
}

#[test]
fn take_cover_into_a_building() {
    let drawing = "
+-+-+-+-+-+-+-+-+-+-+-+-+
|. . . . . . . . . . . .|
+ + + + + + + + + + + + +
|. . . . . . . . . . . .|
+ + + + + + + + +-+-+ + +
|. . . . . . . . b b|. .|
+ + + + + + + + + + + + +
|. . . . . . . .|b b|. .|
+ + + + + + + + +-+-+ + +
|. . . . . . . . . . . .|
+-+-+-+-+-+-+-+-+-+-+-+-+
";
    let mut s = Scene::new(MapBuilder::from_drawing(drawing).build());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("C", [6, 2], "coward", 1)];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert!(
        p.game.state.map.building(pos(&p, "C.1")).is_some(),
        "{:#?}",
        p.events
    );
}

#[test]
fn take_cover_may_be_declined_and_without_cover_logs_why() {
    let mut b = MapBuilder::new(12, 6);
    b.set_terrain(Pos::new(9, 2), Terrain::Green);
    let mut s = Scene::new(b.build());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("C", [6, 2], "coward", 1)];
    s.answers = vec![1];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert_eq!(pos(&p, "C.1"), Pos::new(6, 2), "declined");

    let mut b = MapBuilder::new(12, 6);
    b.set_terrain(Pos::new(11, 5), Terrain::Green);
    let mut s = Scene::new(b.build());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("C", [4, 0], "coward", 1)];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert_eq!(
        logs(&p.events),
        vec!["C.1: no Green Square or Building within 5"]
    );
}

#[test]
fn terrifying_presence_fear_attacks_every_hero_that_sees_the_unit() {
    let mut b = MapBuilder::new(12, 6);
    for p in [(4, 0), (4, 1), (4, 4), (4, 5), (0, 4), (1, 4), (1, 5)] {
        b.set_terrain(Pos::new(p.0, p.1), Terrain::Solid);
    }
    let mut s = Scene::new(b.build()).die(all_hits());
    s.heroes = vec![
        ("X", "brawler", [0, 2]),
        ("Y", "brawler", [0, 3]),
        ("Z", "brawler", [0, 5]),
    ];
    s.blips = vec![("T", [8, 2], "terror", 1)];
    s.steps = vec![mv("X", 1, 2)];
    let p = same(&s);
    let feared: Vec<String> = attacks(&p.events, AttackKind::Fear)
        .into_iter()
        .map(|a| a.0)
        .collect();
    assert!(feared.contains(&"X".to_string()) && feared.contains(&"Y".to_string()));
    assert!(!feared.contains(&"Z".to_string()));
}

#[test]
fn a_unit_with_two_behaviours_lets_the_overmind_choose() {
    let mut s = Scene::new(open(12, 6)).die(all_hits());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![("W", [6, 2], "two", 1)];
    s.answers = vec![1];
    s.steps = vec![mv("H", 1, 2)];
    let p = same(&s);
    assert_eq!(performed(&p.events), vec!["rush"]);
}

/// The base pack's own content (heroes, the four example alien types from Lua) with the
/// native or the Lua seed behaviours.
fn base_pack(flavour: Flavour) -> Content {
    let h = host();
    let mut c = Content::default();
    native::install(&mut c);
    if flavour == Flavour::Lua {
        install_lua(&h, &mut c);
    }
    let dir = pack();
    for e in std::fs::read_dir(dir.join("heroes")).expect("heroes") {
        let p = e.expect("entry").path();
        let text = std::fs::read_to_string(&p).expect("read");
        let hp = HeroProfile::from_toml(&p.display().to_string(), &text).expect("hero");
        c.heroes.insert(hp.id.clone(), hp);
    }
    for e in std::fs::read_dir(dir.join("aliens")).expect("aliens") {
        let p = e.expect("entry").path();
        let text = std::fs::read_to_string(&p).expect("read");
        let t = h.load_alien(&p, &text).unwrap_or_else(|e| panic!("{e}"));
        c.aliens.insert(t.id.clone(), t);
    }
    c
}

fn demo_game(content: &Content, seed: u64) -> Game {
    let path = pack().join("missions/demo.toml");
    let text = std::fs::read_to_string(&path).expect("demo");
    let m = Mission::parse(&path, &text).expect("demo parses");
    let mut setup = m.setup(&text, &Rules::default()).expect("demo setup");
    // The comparison is of behaviours: the mission's tokens and cards (Lua content) are left
    // out.
    setup.tokens.clear();
    setup.decks.clear();
    let st = setup.start(content, seed).expect("demo starts");
    let mut g = Game::new(st, "demo", seed);
    play_ai_game(&mut g, content, 20_000);
    g
}

#[test]
fn whole_ai_games_of_the_demo_go_alike_with_lua_and_native_behaviours() {
    let native = base_pack(Flavour::Native);
    let lua = base_pack(Flavour::Lua);
    let mut behaviours = 0;
    for seed in 0..12 {
        let a = demo_game(&native, seed);
        let b = demo_game(&lua, seed);
        assert_eq!(
            a.log.len(),
            b.log.len(),
            "seed {seed}: logs differ in length"
        );
        for (i, (x, y)) in a.log.iter().zip(&b.log).enumerate() {
            assert_eq!(x, y, "seed {seed}: event {i} differs");
        }
        assert_eq!(a.state, b.state, "seed {seed}");
        assert_eq!(a.record, b.record, "seed {seed}");
        assert!(
            failures(&b.log).is_empty(),
            "seed {seed}: {:?}",
            failures(&b.log)
        );
        behaviours += performed(&b.log).len();
    }
    assert!(behaviours > 0, "the games performed no behaviour at all");
}
