//! An illegal API call, a bad argument, a script error or a spent budget fails the behaviour
//! with a `behaviour_failed` event naming the script's `path:line` and what went wrong, and the
//! game is rolled back to before the behaviour; play goes on.

mod common;
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
    let mut s = Scene::new(open(12, 6)).die(all_hits());
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

/// After a failed behaviour the unit stands where it was placed and nothing it did remains.
fn rolled_back(p: &Played) {
    let at = p.game.state.find_model("R.1").map(|(_, m)| m.pos);
    assert_eq!(at, Some(Pos::new(6, 2)), "{:#?}", p.events);
    let after_reveal = p
        .events
        .iter()
        .skip_while(|e| !matches!(e, Event::BehaviourChosen { .. }))
        .skip(1)
        .collect::<Vec<_>>();
    assert!(
        matches!(after_reveal.first(), Some(Event::BehaviourFailed { .. })),
        "nothing the behaviour did stays in the log: {after_reveal:#?}"
    );
    assert!(p
        .game
        .state
        .units
        .iter()
        .all(|u| u.models.iter().all(|m| m.health == m.max_health)));
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
    rolled_back(&p);
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
    rolled_back(&p);
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
    let reason = failure(&p);
    assert!(
        reason.starts_with(
            "tests/subject.lua:4: melee: R cannot attack 1,2: no model of it is adjacent"
        ),
        "{reason}"
    );
    rolled_back(&p);
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
        rolled_back(&p);
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
    rolled_back(&p);
}

#[test]
fn a_script_error_fails_at_its_line_after_real_changes_are_undone() {
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
    rolled_back(&p);
    let h = p.game.state.find_model("H").map(|(_, m)| m.health);
    assert_eq!(h, Some(8), "the melee damage is undone");
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
    rolled_back(&p);
    assert_eq!(p.game.to_move(), Some(Side::Heroes), "the game goes on");
}

#[test]
fn handles_kept_past_their_call_keep_working_as_snapshots_and_the_game_only_during_calls() {
    // The first reveal keeps its handles in a script variable; the second call reads them.
    let src = r#"local kept
return behaviour {
  id = "subject", name = "SUBJECT", text = "Remembers.",
  perform = function(unit, game)
    if kept then
      game:log(kept.unit.id .. " " .. kept.model.id .. " " .. tostring(kept.game == game))
    else
      kept = { unit = unit, model = unit:models()[1], game = game }
    end
  end,
}"#;
    let p = run_with(src, 1, |s| {
        s.blips.push(("S", [6, 4], "subject", 1));
    });
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    let logs: Vec<&str> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Log { message, .. } => Some(message.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(logs, vec!["R R.1 true"]);
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
    rolled_back(&p);
}
