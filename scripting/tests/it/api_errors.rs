//! An illegal API call, a bad argument, a script error or a spent budget fails the behaviour
//! with a `behaviour_failed` event naming the script's `path:line` and what went wrong. The
//! behaviour ends there: every call it made before was validated and stands (nothing a player
//! has seen is taken back), and play goes on (RULES.md §8).

use crate::common;
use common::*;
use overmind_core::*;

/// A Hero's move reveals Blip R (a "subject" unit of `size` models at 6,2) whose only
/// behaviour is the script `source` (id "subject").
fn run(source: &str, size: u32) -> Played {
    run_with(source, size, |_| {})
}

fn run_with(source: &str, size: u32, tweak: impl FnOnce(&mut Scene)) -> Played {
    let mut c = world(Flavour::Lua);
    let h = host();
    install_source(&h, &mut c, "tests/subject.lua", source);
    c.aliens
        .insert("subject".into(), alien("subject", 3, 6, &["subject"]));
    // Z sits in the north-east corner walled off by rock, so it stays face down.
    let mut b = MapBuilder::new(12, 6);
    for (x, y) in [(10, 0), (10, 1), (11, 1)] {
        b.set_terrain(Pos::new(x, y), Terrain::Solid);
    }
    let mut s = Scene::new(b.build()).die(all_hits());
    s.heroes = vec![("H", "brawler", [0, 2]), ("K", "brawler", [0, 5])];
    s.blips = vec![("R", [6, 2], "subject", size), ("Z", [11, 0], "grunt", 1)];
    s.steps = vec![mv("H", 1, 2)];
    tweak(&mut s);
    play(&s, &c)
}

fn failure(p: &Played) -> String {
    let f = failures(&p.events);
    assert_eq!(f.len(), 1, "expected one failure: {:#?}", p.events);
    f[0].clone()
}

/// The events of the behaviour, from its choice to its end.
fn behaviour_events(p: &Played) -> Vec<&Event> {
    p.events
        .iter()
        .skip_while(|e| !matches!(e, Event::BehaviourChosen { .. }))
        .skip(1)
        .collect()
}

/// A behaviour that failed at its first call changed nothing: the unit stands where it was
/// placed, nobody is hurt, and the failure follows the choice at once.
fn untouched(p: &Played) {
    let at = p.game.state.find_model("R.1").map(|(_, m)| m.pos);
    assert_eq!(at, Some(Pos::new(6, 2)), "{:#?}", p.events);
    assert!(
        matches!(
            behaviour_events(p).first(),
            Some(Event::BehaviourFailed { .. })
        ),
        "{:#?}",
        p.events
    );
    assert!(p
        .game
        .state
        .units
        .iter()
        .all(|u| u.models.iter().all(|m| m.health == m.max_health)));
}

/// What the behaviour did before it failed stands: `model` moved `steps` squares, in moves
/// logged before the failure.
fn stands(p: &Played, model: &str, steps: usize) {
    let ev = behaviour_events(p);
    let moved: usize = ev
        .iter()
        .filter_map(|e| match e {
            Event::Moved { unit, path, .. } if unit == model => Some(path.len() - 1),
            _ => None,
        })
        .sum();
    assert_eq!(moved, steps, "{ev:#?}");
    let last_move = ev
        .iter()
        .rposition(|e| matches!(e, Event::Moved { unit, .. } if unit == model));
    let failed = ev
        .iter()
        .position(|e| matches!(e, Event::BehaviourFailed { .. }));
    assert!(
        matches!((last_move, failed), (Some(m), Some(f)) if m < f),
        "the move, then the failure: {ev:#?}"
    );
    let at = p.game.state.find_model(model).map(|(_, m)| m.pos);
    assert_ne!(at, Some(Pos::new(6, 2)), "it is where the move took it");
}

fn health(p: &Played, model: &str) -> Option<u32> {
    p.game.state.find_model(model).map(|(_, m)| m.health)
}

#[test]
fn moving_too_far_fails_naming_the_line_and_the_allowance() {
    let p = run(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Moves too far.", max_move = 5,
  perform = function(unit, game)
    local model = unit:models()[1]
    model:move_towards({ x = 6, y = 0 }, 2)
    model:move_towards(game:heroes()[1], 6)
  end,
}"#,
        1,
    );
    let reason = failure(&p);
    assert_eq!(
        reason,
        "tests/subject.lua:6: move: 6 squares asked, SUBJECT allows 3 for R.1"
    );
    stands(&p, "R.1", 2);
    assert_eq!(
        p.game.state.find_model("R.1").map(|(_, m)| m.pos),
        Some(Pos::new(6, 0))
    );
}

#[test]
fn attacking_a_blip_fails() {
    let p = run(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Shoots its own Blip.",
  perform = function(unit, game)
    unit:shoot(game:blips()[1])
  end,
}"#,
        1,
    );
    assert_eq!(
        failure(&p),
        "tests/subject.lua:4: shoot: behaviours cannot attack the Overmind's own Blips"
    );
    untouched(&p);
}

#[test]
fn melee_with_no_adjacent_target_fails_and_says_why() {
    let p = run(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Melees from afar.",
  perform = function(unit, game)
    unit:melee(game:heroes()[1], { penalty = 1 })
  end,
}"#,
        1,
    );
    assert_eq!(
        failure(&p),
        "tests/subject.lua:4: melee: R cannot attack H at 1,2: R.1 is 5 squares from H, not adjacent"
    );
    untouched(&p);
}

#[test]
fn wrong_argument_types_fail_naming_the_parameter() {
    let cases = [
        ("unit:models()[1]:move_towards(game:heroes()[1], \"five\")", "move_towards: steps must be a whole number from 0 to 1000, got string \"five\""),
        ("game:closest(unit, 5)", "closest: models must be an array of Models, got number 5"),
        ("game:closest(unit, { game:blips()[1] })", "closest: models[1] must be a Model, got Blip(Z)"),
        ("game:distance(1, 2)", "distance: a must be a Model, a Blip or a square { x =, y = }, got number 1"),
        ("game:log()", "log: message must be a string, got nil"),
        ("unit:melee(game:heroes()[1], { dice = 1 })", "melee: unknown option 'dice' (options: penalty)"),
        ("game:los(unit, unit)", "los: a must be a Model, a Blip or a square { x =, y = }, got Unit(R)"),
        ("game:terrain({ x = 1 })", "terrain: square must be a Model, a Blip or a square { x =, y = }, got a table"),
        ("unit:models()[1]:move_towards({ game:heroes()[1], { x = 1, y = 1 } })", "move_towards: target mixes models (end next to them) and squares (end on them); pass one kind"),
        ("game:heroes(1)", "heroes: takes 0 arguments, 1 given"),
        ("game:squares(\"grass\")", "squares: terrain must be one of \"plain\", \"red\", \"green\", \"yellow\", \"building\", \"solid\", got string \"grass\""),
        ("local _ = unit.helth", "Unit has no field or method 'helth'"),
    ];
    for (call, message) in cases {
        let src = format!(
            "return behaviour {{\n  id = \"subject\", name = \"SUBJECT\", text = \"Calls wrongly.\",\n  perform = function(unit, game)\n    {call}\n  end,\n}}"
        );
        let p = run(&src, 1);
        assert_eq!(
            failure(&p),
            format!("tests/subject.lua:4: {message}"),
            "{call}"
        );
        untouched(&p);
    }
}

#[test]
fn only_the_performing_unit_acts() {
    let p = run_with(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Moves another unit.",
  perform = function(unit, game)
    local other = game:unit("F")
    other:move_towards(game:heroes()[1], 1)
  end,
}"#,
        1,
        |s| s.units = vec![("F", "grunt", vec![[9, 5]])],
    );
    assert_eq!(
        failure(&p),
        "tests/subject.lua:5: move_towards: only the performing unit R can do this, not F"
    );
    let p = run_with(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Moves another unit's model.",
  perform = function(unit, game)
    game:model("F.1"):move_to(9, 4)
  end,
}"#,
        1,
        |s| s.units = vec![("F", "grunt", vec![[9, 5]])],
    );
    assert_eq!(
        failure(&p),
        "tests/subject.lua:4: move_to: F.1 is not a model of the performing unit R"
    );
}

#[test]
fn a_second_melee_attack_fails() {
    let p = run(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Attacks twice.",
  perform = function(unit, game)
    local hero = game:heroes()[1]
    unit:move_towards(hero)
    unit:melee(hero)
    unit:melee(hero)
  end,
}"#,
        1,
    );
    let reason = failure(&p);
    assert!(
        reason.starts_with(
            "tests/subject.lua:7: melee: subject: the unit has already made its Melee attack"
        ),
        "{reason}"
    );
    stands(&p, "R.1", 4);
    assert!(health(&p, "H") < Some(8), "the first Melee attack stands");
}

#[test]
fn a_script_error_fails_at_its_line_and_what_it_did_before_stands() {
    let p = run(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Moves, attacks, then breaks.",
  perform = function(unit, game)
    local hero = game:heroes()[1]
    unit:move_towards(hero)
    unit:melee(hero)
    error("out of ideas")
  end,
}"#,
        2,
    );
    assert_eq!(failure(&p), "tests/subject.lua:7: out of ideas");
    let ev = behaviour_events(&p);
    let attack = ev.iter().position(|e| {
        matches!(
            e,
            Event::Attack {
                kind: AttackKind::Melee,
                ..
            }
        )
    });
    let failed = ev
        .iter()
        .position(|e| matches!(e, Event::BehaviourFailed { .. }));
    assert!(
        matches!((attack, failed), (Some(a), Some(f)) if a < f),
        "{ev:#?}"
    );
    assert!(health(&p, "H") < Some(8), "the melee damage stands");
    let near = p
        .game
        .state
        .unit("R")
        .is_some_and(|u| u.models.iter().any(|m| m.pos.distance(Pos::new(1, 2)) == 1));
    assert!(near, "the move stands: {:#?}", p.events);
}

#[test]
fn a_caught_api_error_does_not_fail_the_behaviour() {
    let p = run(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Tries, then does something legal.",
  perform = function(unit, game)
    local ok, why = pcall(function() unit:shoot(game:blips()[1]) end)
    game:log(tostring(ok) .. " " .. tostring(why))
  end,
}"#,
        1,
    );
    assert!(failures(&p.events).is_empty());
    let logged = p.events.iter().find_map(|e| match e {
        Event::Log { message, .. } => Some(message.clone()),
        _ => None,
    });
    assert_eq!(
        logged.as_deref(),
        Some("false tests/subject.lua:4: shoot: behaviours cannot attack the Overmind's own Blips")
    );
}

#[test]
fn a_spent_budget_fails_the_behaviour_and_play_goes_on() {
    let p = run(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Never ends.",
  perform = function(unit, game)
    unit:move_towards(game:heroes()[1], 1)
    while true do end
  end,
}"#,
        1,
    );
    let reason = failure(&p);
    assert!(
        reason.starts_with("tests/subject.lua:5: instruction budget exhausted"),
        "{reason}"
    );
    stands(&p, "R.1", 1);
    assert_eq!(p.game.to_move(), Some(Side::Heroes), "the game goes on");
}

#[test]
fn handles_do_not_outlive_their_call() {
    // Nothing a call makes can be kept for the next: not in a top-level local (refused when
    // the script loads), nor in a global (each call has its own).
    let kept_local = r#"local kept
return behaviour {
  id = "subject", name = "SUBJECT", text = "Remembers.",
  perform = function(unit, game)
    kept = { unit = unit, model = unit:models()[1], game = game }
  end,
}"#;
    let err = common::host()
        .load_behaviour(std::path::Path::new("tests/subject.lua"), kept_local)
        .expect_err("refused at load");
    assert!(
        err.to_string()
            .starts_with("tests/subject.lua:5: `kept` is a local"),
        "{err}"
    );
    let src = r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Remembers.",
  perform = function(unit, game)
    game:log(kept and ("kept " .. kept.unit.id) or ("fresh " .. unit.id))
    kept = { unit = unit, model = unit:models()[1], game = game }
  end,
}"#;
    let p = run_with(src, 1, |s| {
        s.blips.push(("S", [6, 4], "subject", 1));
    });
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    let mut logs: Vec<&str> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Log { message, .. } => Some(message.as_str()),
            _ => None,
        })
        .collect();
    logs.sort_unstable();
    assert_eq!(logs, vec!["fresh R", "fresh S"]);
}

#[test]
fn the_api_works_inside_a_scripts_coroutine_and_a_stray_yield_fails_cleanly() {
    let p = run(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Uses a coroutine.",
  perform = function(unit, game)
    local co = coroutine.wrap(function()
      coroutine.yield(#game:heroes())
      game:log("inside")
    end)
    game:log("heroes " .. co())
    co()
  end,
}"#,
        1,
    );
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    let logs: Vec<&str> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Log { message, .. } => Some(message.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(logs, vec!["heroes 2", "inside"]);

    let p = run(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Yields to nobody.",
  perform = function(unit, game)
    unit:move_towards(game:heroes()[1], 1)
    coroutine.yield()
  end,
}"#,
        1,
    );
    let reason = failure(&p);
    assert!(reason.contains("yield"), "{reason}");
    stands(&p, "R.1", 1);
}

#[test]
fn a_killed_models_handle_says_so_and_acting_with_it_names_the_killer() {
    // K (on Overwatch, short range: CV 2, all hits, no shields) kills R.1 on its first step.
    let src = r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "Steps into fire, then tries again.",
  perform = function(unit, game)
    local m = unit:models()[1]
    game:log("before " .. tostring(m.alive) .. " " .. tostring(unit.alive))
    m:move_towards({ x = 6, y = 5 }, 1)
    game:log("after " .. tostring(m.alive) .. " " .. tostring(unit.alive))
    local _, moving = pcall(function() m:move_towards({ x = 6, y = 5 }, 1) end)
    local _, shooting = pcall(function() unit:shoot(game:heroes()[1]) end)
    game:log(tostring(moving))
    game:log(tostring(shooting))
    m:move_to(6, 4)
  end,
}"#;
    let p = run_with(src, 1, |s| {
        s.heroes = vec![("H", "brawler", [0, 2]), ("K", "trooper", [6, 5])];
        s.steps = vec![
            Step::Act(Action::Overwatch { unit: "K".into() }),
            mv("H", 1, 2),
        ];
    });
    let logs: Vec<&str> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Log { message, .. } => Some(message.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        logs,
        vec![
            "before true true",
            "after false false",
            "tests/subject.lua:8: move_towards: R.1 was killed by K (check `model.alive` before \
             using a handle after a move or an attack)",
            "tests/subject.lua:9: shoot: R has no model left on the map: R.1 was killed by K \
             (check `unit.alive`)",
        ],
        "{:#?}",
        p.events
    );
    assert_eq!(
        failure(&p),
        "tests/subject.lua:12: move_to: R.1 was killed by K (check `model.alive` before using a \
         handle after a move or an attack)"
    );
    assert!(p.game.state.find_model("R.1").is_none(), "it stays dead");
}

/// A behaviour whose `perform` is the one line `call`, as line 4 of tests/subject.lua.
fn one_line(call: &str) -> String {
    format!(
        "return behaviour {{\n  id = \"subject\", name = \"SUBJECT\", text = \"Calls wrongly.\",\n  perform = function(unit, game)\n    {call}\n  end,\n}}"
    )
}

/// Each call fails the behaviour at once with exactly its message, after the script's line.
fn fails_with(cases: &[(&str, &str)], tweak: fn(&mut Scene)) {
    for (call, message) in cases {
        let p = run_with(&one_line(call), 1, tweak);
        assert_eq!(
            failure(&p),
            format!("tests/subject.lua:4: {message}"),
            "{call}"
        );
        untouched(&p);
    }
}

#[test]
fn an_unknown_name_suggests_the_nearest_known_one_when_it_is_close() {
    fails_with(
        &[
            (
                "unit:shoot_target()",
                "Unit has no field or method 'shoot_target' (did you mean shoot_targets?)",
            ),
            (
                "local _ = unit.knid",
                "Unit has no field or method 'knid' (did you mean kind?)",
            ),
            (
                "game:heros()",
                "Game has no field or method 'heros' (did you mean heroes?)",
            ),
            (
                "game:visible_heros(unit)",
                "Game has no field or method 'visible_heros' (did you mean visible_heroes?)",
            ),
            (
                "local _ = game.widht",
                "Game has no field or method 'widht' (did you mean width?)",
            ),
            (
                "local _ = game.rules.rush_stpes",
                "Rules has no field or method 'rush_stpes' (did you mean rush_steps?)",
            ),
            (
                "local _ = unit:models()[1].knocked",
                "Model has no field or method 'knocked' (did you mean knocked_down?)",
            ),
            (
                "unit:models()[1]:move_awya_from(game:heroes()[1])",
                "Model has no field or method 'move_awya_from' (did you mean move_away_from?)",
            ),
            (
                "local _ = unit.type.movment",
                "UnitType has no field or method 'movment' (did you mean movement?)",
            ),
            (
                "local _ = game:blips()[1].helth",
                "Blip has no field or method 'helth' (did you mean health?)",
            ),
            // Nothing close: no guess.
            ("game:fly()", "Game has no field or method 'fly'"),
            ("local _ = unit.hp", "Unit has no field or method 'hp'"),
            ("local _ = unit[1]", "Unit has no field or method number 1"),
        ],
        |_| {},
    );
}

#[test]
fn attack_errors_name_the_target_model_and_why_each_model_cannot() {
    fails_with(
        &[
            (
                "unit:shoot(game:heroes()[1])",
                "shoot: R cannot attack H at 1,2: R.1 is 5 squares from H, beyond its range 4",
            ),
            (
                "unit:shoot(\"H\")",
                "shoot: R cannot attack H at 1,2: R.1 is 5 squares from H, beyond its range 4",
            ),
            (
                "unit:melee(game:unit(\"H\"))",
                "melee: R cannot attack H at 1,2: R.1 is 5 squares from H, not adjacent",
            ),
            (
                "unit:shoot(unit:models()[1])",
                "shoot: R cannot attack R.1: it is on the Overmind's own side",
            ),
            (
                "unit:melee(game:model(\"F.1\"))",
                "melee: R cannot attack F.1: it is on the Overmind's own side",
            ),
            ("unit:shoot(\"nobody\")", "shoot: no model nobody"),
        ],
        |s| s.units = vec![("F", "grunt", vec![[9, 5]])],
    );
    // K stands 3 squares below R behind a row of rock: in range, out of sight.
    fails_with(
        &[(
            "unit:shoot(game:model(\"K\"))",
            "shoot: R cannot attack K at 6,5: R.1 has no Line of Sight to K",
        )],
        |s| {
            let mut b = MapBuilder::new(12, 6);
            for (x, y) in [(10, 0), (10, 1), (11, 1), (5, 3), (6, 3), (7, 3)] {
                b.set_terrain(Pos::new(x, y), Terrain::Solid);
            }
            s.map = b.build();
            s.heroes = vec![("H", "brawler", [0, 2]), ("K", "brawler", [6, 5])];
        },
    );
}

#[test]
fn every_model_of_the_unit_says_why_it_cannot_attack() {
    // K, at 0,5, is out of range of both models (placed at 6,2 and 5,1).
    let p = run(&one_line("unit:shoot(game:model(\"K\"))"), 2);
    let st = &p.game.state;
    let k = st.find_model("K").map(|(_, m)| m.pos).expect("K");
    let why: Vec<String> = st
        .unit("R")
        .expect("R")
        .models
        .iter()
        .map(|m| {
            format!(
                "{} is {} squares from K, beyond its range 4",
                m.id,
                m.pos.distance(k)
            )
        })
        .collect();
    assert_eq!(why.len(), 2);
    assert_eq!(
        failure(&p),
        format!(
            "tests/subject.lua:4: shoot: R cannot attack K at 0,5: {}",
            why.join("; ")
        )
    );
    assert_eq!(
        why,
        [
            "R.1 is 6 squares from K, beyond its range 4",
            "R.2 is 5 squares from K, beyond its range 4"
        ]
    );
}

#[test]
fn a_move_target_off_the_map_says_so_and_a_square_out_of_reach_says_why() {
    fails_with(
        &[
            (
                "unit:models()[1]:move_to(20, 1)",
                "move: 20,1 is off the 12x6 map",
            ),
            (
                "unit:models()[1]:move_to({ x = 3, y = -1 })",
                "move: 3,-1 is off the 12x6 map",
            ),
            (
                "unit:models()[1]:move_towards({ x = 12, y = 5 })",
                "move: 12,5 is off the 12x6 map",
            ),
            (
                "unit:move_towards({ { x = 3, y = 3 }, { x = -1, y = 0 } }, 2)",
                "move: -1,0 is off the 12x6 map",
            ),
            (
                "unit:models()[1]:move_away_from({ x = 12, y = 6 })",
                "move: 12,6 is off the 12x6 map",
            ),
            (
                "unit:move_away_from({ game:heroes()[1], { x = 0, y = 9 } })",
                "move: 0,9 is off the 12x6 map",
            ),
            (
                "unit:models()[1]:reachable_away_from({ x = 40, y = 0 })",
                "reachable_away_from: 40,0 is off the 12x6 map",
            ),
            (
                "unit:models()[1]:reachable_away_from(game:heroes()[1], 8)",
                "reachable_away_from: 8 squares asked, SUBJECT allows 6 for R.1",
            ),
            (
                "game:los({ x = 20, y = 1 }, unit:models()[1])",
                "los: 20,1 is off the 12x6 map",
            ),
            (
                "game:path_distance(unit:models()[1], { x = 0, y = 6 })",
                "path_distance: 0,6 is off the 12x6 map",
            ),
            (
                "unit:models()[1]:move_to(11, 0)",
                "move: R.1 has no legal path to 11,0: Blip Z stands there",
            ),
            (
                "unit:models()[1]:move_to(1, 2)",
                "move: R.1 has no legal path to 1,2: H stands there",
            ),
            (
                "unit:models()[1]:move_to(10, 0)",
                "move: R.1 has no legal path to 10,0: it is a solid square",
            ),
            (
                "unit:models()[1]:move_away_from(game:heroes()[1], 7)",
                "move: 7 squares asked, SUBJECT allows 6 for R.1",
            ),
        ],
        |_| {},
    );
    // 11,5 is free but closed off by rock.
    fails_with(
        &[(
            "unit:models()[1]:move_to(11, 5)",
            "move: R.1 has no legal path to 11,5: walls, solid squares and models close it off",
        )],
        |s| {
            let mut b = MapBuilder::new(12, 6);
            for (x, y) in [(10, 0), (10, 1), (11, 1), (10, 4), (11, 4), (10, 5)] {
                b.set_terrain(Pos::new(x, y), Terrain::Solid);
            }
            s.map = b.build();
        },
    );
}

#[test]
fn a_behaviours_psychic_attack_rolls_no_defence_and_the_behaviour_penalty() {
    let p = run(
        r#"return behaviour {
  id = "subject", name = "SUBJECT", text = "A Psy blast (docs/RULES.md §6.8).",
  perform = function(unit, game)
    game:psychic_attack(unit, game:heroes()[1], { cv = 3 })
  end,
}"#,
        1,
    );
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    let psychic: Vec<(u32, u32, u32, u32)> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Attack {
                kind: AttackKind::Psychic,
                cv,
                dice,
                penalty,
                defence_dice,
                ..
            } => Some((*cv, *dice, *penalty, *defence_dice)),
            _ => None,
        })
        .collect();
    assert_eq!(psychic, [(3, 2, 1, 0)], "CV 3, one die fewer, no defence");
}

#[test]
fn psychic_attack_refuses_its_own_blip_and_a_bad_cv() {
    for (script, want) in [
        (
            "game:psychic_attack(unit, game:blips()[1], { cv = 2 })",
            "the Overmind cannot attack its own Blips",
        ),
        (
            "game:psychic_attack(unit, game:heroes()[1], { cv = 0 })",
            "options.cv must be a whole number from 1 to 20",
        ),
        (
            "game:psychic_attack(unit, game:heroes()[1], { cv = 2, range = 3 })",
            "unknown option 'range' (options: cv, defence)",
        ),
        (
            "game:draw_card(\"mutation\", unit)",
            "deck must be one of \"hazard\", \"item\", \"exploration\"",
        ),
    ] {
        let source = format!(
            "return behaviour {{\n  id = \"subject\", name = \"SUBJECT\", text = \"Fails.\",\n  perform = function(unit, game)\n    {script}\n  end,\n}}"
        );
        let p = run(&source, 1);
        let f = failure(&p);
        assert!(f.contains(want), "{script}: {f}");
        untouched(&p);
    }
}
