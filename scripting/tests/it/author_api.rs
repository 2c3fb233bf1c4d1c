//! The API for content authors: a unit's own type stats (`unit.type`), model and unit status
//! (`model.knocked_down`, `model.stunned`, `model.shaken`, `unit.overwatch`), moving away
//! (`move_away_from`, `reachable_away_from`) and the prompts callers give the Overmind's tie
//! decisions. Each test checks what a script reads or does against the rules' own state.

use crate::common;
use common::*;
use overmind_core::movement;
use overmind_core::state::Overwatch;
use overmind_core::*;

/// The "subject" Alien Type: numbers unlike any other type's, so a stat read from the wrong
/// card shows.
fn subject_type() -> AlienType {
    let mut t = alien("subject", 3, 5, &["subject"]);
    t.name = "Subject Zero".into();
    t.melee = 3;
    t.defence = 2;
    t.health = 4;
    t.fear = 1;
    t.shoot = Some(Shoot {
        short: Band { range: 3, cv: 2 },
        long: Band { range: 7, cv: 1 },
    });
    t
}

/// A Hero whose Health dial changes Melee and Defence at 5.
fn veteran() -> HeroProfile {
    let mut h = hero("veteran", Some((3, 8)));
    h.name = "Old Vet".into();
    h.movement = 5;
    h.health = 9;
    h.dial = vec![
        profile::DialStep {
            from: 1,
            melee: Some(1),
            defence: Some(1),
            movement: None,
        },
        profile::DialStep {
            from: 5,
            melee: Some(3),
            defence: Some(2),
            movement: None,
        },
    ];
    h
}

/// The content of these tests: the base world, the subject type performing the script
/// `source`, the veteran Hero, and `tweak` applied to the subject type.
fn content(source: &str, tweak: impl FnOnce(&mut AlienType)) -> Content {
    let mut c = world(Flavour::Lua);
    let h = host();
    install_source(&h, &mut c, "tests/subject.lua", source);
    let mut t = subject_type();
    tweak(&mut t);
    c.aliens.insert("subject".into(), t);
    let v = veteran();
    c.heroes.insert(v.id.clone(), v);
    c
}

/// A Hero's move (H, 0,2 → 1,2) reveals the subject Blip R at 6,2 on an open 12×6 map; K and V
/// stand by.
fn scene(size: u32) -> Scene {
    let mut s = Scene::new(open(12, 6)).die(all_blanks());
    s.heroes = vec![
        ("H", "brawler", [0, 2]),
        ("K", "trooper", [0, 5]),
        ("V", "veteran", [0, 0]),
    ];
    s.blips = vec![("R", [6, 2], "subject", size)];
    s.steps = vec![mv("H", 1, 2)];
    s
}

/// The behaviour `perform`s the body given (its `unit` and `game` in scope).
fn behaviour(body: &str) -> String {
    format!(
        "return behaviour {{\n  id = \"subject\", name = \"SUBJECT\", text = \"Tries the API.\",\n  perform = function(unit, game)\n{body}\n  end,\n}}"
    )
}

fn run(body: &str, s: &Scene) -> Played {
    let c = content(&behaviour(body), |_| {});
    let p = play(s, &c);
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(performed(&p.events), vec!["subject"], "{:#?}", p.events);
    p
}

fn logs(p: &Played) -> Vec<String> {
    p.events
        .iter()
        .filter_map(|e| match e {
            Event::Log { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

/// A Lua helper that writes a type's stats as one line.
const DESCRIBE: &str = r#"
    local function describe(t)
      if t == nil then return "nil" end
      local s = t.shoot
      local shoot = s and (s.short.range .. "/" .. s.short.cv .. " " .. s.long.range .. "/" .. s.long.cv) or "none"
      return table.concat({ t.id, t.name, t.movement, t.melee, t.defence, t.health, t.fear, shoot }, ",")
    end
"#;

/// The same line, from the card itself.
fn described(id: &str, name: &str, stats: [u32; 5], shoot: Option<Shoot>) -> String {
    let shoot = shoot.map_or("none".to_string(), |s| {
        format!(
            "{}/{} {}/{}",
            s.short.range, s.short.cv, s.long.range, s.long.cv
        )
    });
    let [movement, melee, defence, health, fear] = stats;
    format!("{id},{name},{movement},{melee},{defence},{health},{fear},{shoot}")
}

#[test]
fn unit_type_holds_the_loaded_alien_types_stats() {
    let p = run(
        &format!("{DESCRIBE}\n    game:log(describe(unit.type))"),
        &scene(1),
    );
    let t = subject_type();
    assert_eq!(
        logs(&p),
        vec![described(
            &t.id,
            &t.name,
            [t.movement, t.melee, t.defence, t.health, t.fear],
            t.shoot
        )]
    );
    assert_eq!(logs(&p), vec!["subject,Subject Zero,5,3,2,4,1,3/2 7/1"]);
}

#[test]
fn a_type_without_a_shoot_attack_reads_nil_and_stats_cannot_be_changed() {
    let c = content(
        &behaviour(
            r#"
    game:log(tostring(unit.type.shoot) .. " " .. unit.type.fear)
    local ok, why = pcall(function() unit.type.movement = 20 end)
    game:log(tostring(ok) .. " " .. tostring(why))
    local copy = unit.type
    game:log(tostring(copy == unit.type) .. " " .. tostring(copy))
    -- The shoot table is a fresh copy: changing it changes nothing.
    game:log(tostring(unit:shoot_targets()[1]))"#,
        ),
        |t| {
            t.shoot = None;
            t.fear = 0;
        },
    );
    let p = play(&scene(1), &c);
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(
        logs(&p),
        vec![
            "nil 0".to_string(),
            "false tests/subject.lua:6: unit.type.movement cannot be assigned: UnitType handles \
             are read-only"
                .to_string(),
            "true UnitType(subject)".to_string(),
            "nil".to_string(),
        ]
    );
}

#[test]
fn a_fresh_shoot_table_is_the_scripts_own_and_the_card_keeps_its_numbers() {
    let p = run(
        r#"
    local s = unit.type.shoot
    s.long.range = 99
    game:log(s.long.range .. " " .. unit.type.shoot.long.range)"#,
        &scene(1),
    );
    assert_eq!(logs(&p), vec!["99 7"]);
}

#[test]
fn a_heros_type_is_its_profile_with_the_dial_at_its_health() {
    let p = run(
        &format!(
            "{DESCRIBE}\n    for _, id in ipairs({{ \"V\", \"K\", \"H\" }}) do game:log(describe(game:unit(id).type)) end"
        ),
        &scene(1),
    );
    let c = content(&behaviour(""), |_| {});
    let st = &p.game.state;
    let expected: Vec<String> = ["V", "K", "H"]
        .iter()
        .map(|id| {
            let (_, m) = st.find_model(id).expect("hero");
            let prof = &c.heroes[m.kind.as_str()];
            let (melee, defence) = prof.dial_at(m.health);
            described(
                &prof.id,
                &prof.name,
                [prof.movement, melee, defence, prof.health, 0],
                prof.shoot,
            )
        })
        .collect();
    assert_eq!(logs(&p), expected);
    // At full Health the veteran fights with the dial's upper step.
    assert_eq!(logs(&p)[0], "veteran,Old Vet,5,3,2,9,0,3/2 8/1");
    assert_eq!(logs(&p)[2], "brawler,brawler,4,2,1,8,0,none");
}

#[test]
fn model_and_unit_status_fields_read_the_state() {
    let mut s = scene(1);
    s.units = vec![("F", "grunt", vec![[9, 5], [10, 5]])];
    s.prepare = Some(|st: &mut GameState| {
        let k = st.model_mut("K").expect("K");
        k.status.knocked_down = true;
        let v = st.model_mut("V").expect("V");
        v.status.stunned = true;
        v.status.shaken_by = Some(Id::from("F"));
        st.model_mut("F.2").expect("F.2").status.shaken_by = Some(Id::from("H"));
        st.unit_mut("K").expect("K").overwatch = Some(Overwatch::Full);
        st.unit_mut("V").expect("V").overwatch = Some(Overwatch::Weak);
    });
    let p = run(
        r#"
    local function flags(m)
      return table.concat({ m.id, tostring(m.knocked_down), tostring(m.stunned),
        tostring(m.shaken), tostring(m.shaken_by) }, " ")
    end
    for _, m in ipairs(game:heroes()) do
      game:log(flags(m) .. " overwatch " .. tostring(game:unit(m.unit).overwatch))
    end
    for _, m in ipairs(game:aliens()) do
      game:log(flags(m) .. " overwatch " .. tostring(game:unit(m.unit).overwatch))
    end"#,
        &s,
    );
    // What the script read is what the state holds.
    let st = &p.game.state;
    let mut expected = Vec::new();
    for side in [Side::Heroes, Side::Overmind] {
        for u in st.units.iter().filter(|u| u.side == side) {
            for m in &u.models {
                let ow = match u.overwatch {
                    Some(Overwatch::Full) => "full",
                    Some(Overwatch::Weak) => "weak",
                    None => "nil",
                };
                expected.push(format!(
                    "{} {} {} {} {} overwatch {ow}",
                    m.id,
                    m.status.knocked_down,
                    m.status.stunned,
                    m.status.shaken_by.is_some(),
                    m.status
                        .shaken_by
                        .map_or("nil".to_string(), |b| b.to_string()),
                ));
            }
        }
    }
    assert_eq!(logs(&p), expected);
    assert_eq!(
        logs(&p),
        vec![
            "H false false false nil overwatch nil",
            "K true false false nil overwatch full",
            "V false true true F overwatch weak",
            "F.1 false false false nil overwatch nil",
            "F.2 false false true H overwatch nil",
            "R.1 false false false nil overwatch nil",
        ]
    );
}

#[test]
fn overwatch_set_by_the_rules_reads_full() {
    // K's Overwatch as its first action is full; its sight then reveals the subject.
    let mut s = scene(1);
    s.steps = vec![Step::Act(Action::Overwatch { unit: "K".into() })];
    let p = run(
        r#"
    for _, id in ipairs({ "H", "K", "V" }) do
      game:log(id .. " " .. tostring(game:unit(id).overwatch))
    end"#,
        &s,
    );
    assert!(p.events.iter().any(|e| matches!(
        e,
        Event::OverwatchSet {
            mode: Overwatch::Full,
            ..
        }
    )));
    assert_eq!(logs(&p), vec!["H nil", "K full", "V nil"]);
}

/// The squares `model` stood on, from the behaviour's moves of it.
fn path_of(p: &Played, model: &str) -> Vec<Pos> {
    let mut out: Vec<Pos> = Vec::new();
    for e in p
        .events
        .iter()
        .skip_while(|e| !matches!(e, Event::BehaviourChosen { .. }))
    {
        if let Event::Moved { unit, path, .. } = e {
            if unit == model {
                if out.last() == path.first() {
                    out.pop();
                }
                out.extend(path.iter().copied());
            }
        }
    }
    out
}

fn pos(p: &Played, model: &str) -> Pos {
    p.game.state.find_model(model).expect("on the map").1.pos
}

/// Parses `x,y,steps` words of a log line.
fn squares(line: &str) -> Vec<(Pos, u32)> {
    line.split_whitespace()
        .map(|w| {
            let n: Vec<i32> = w.split(',').map(|v| v.parse().expect("number")).collect();
            (Pos::new(n[0], n[1]), u32::try_from(n[2]).expect("steps"))
        })
        .collect()
}

#[test]
fn squares_lists_every_square_of_a_kind_row_by_row() {
    // Green and solid squares scattered over the map, set out of reading order: the list is
    // exactly the map's squares of that kind, top row first, then left to right.
    let mut b = MapBuilder::new(12, 6);
    for (x, y) in [(9, 4), (3, 1), (11, 0), (0, 4), (5, 1)] {
        b.set_terrain(Pos::new(x, y), Terrain::Green);
    }
    b.set_terrain(Pos::new(8, 3), Terrain::Solid);
    let mut s = scene(1);
    s.map = b.build();
    let p = run(
        r#"
    local function list(squares)
      local out = {}
      for _, sq in ipairs(squares) do
        out[#out + 1] = sq.x .. "," .. sq.y .. "," .. game:terrain(sq)
      end
      return table.concat(out, " ")
    end
    game:log(list(game:squares("green")))
    game:log(list(game:squares("solid")))
    game:log(#game:squares("plain") .. " " .. #game:squares("yellow"))"#,
        &s,
    );
    let lines = logs(&p);
    assert_eq!(
        lines[0],
        "11,0,green 3,1,green 5,1,green 0,4,green 9,4,green"
    );
    assert_eq!(lines[1], "8,3,solid");
    assert_eq!(lines[2], format!("{} 0", 12 * 6 - 6));
}

const LIST: &str = r#"
    local function list(squares)
      local out = {}
      for _, sq in ipairs(squares) do out[#out + 1] = sq.x .. "," .. sq.y .. "," .. sq.steps end
      return table.concat(out, " ")
    end
"#;

#[test]
fn move_away_from_ends_on_the_farthest_reachable_square_by_a_legal_path() {
    // Rock walls the subject in on the east: the squares farthest from H by the game's distance
    // (x = 9) are behind it, reached only round its southern end. A move that ignored the rock
    // would end at x = 9 in 3 steps; a legal one cannot.
    let mut b = MapBuilder::new(12, 6);
    for y in 0..5 {
        b.set_terrain(Pos::new(8, y), Terrain::Solid);
    }
    let mut s = scene(1);
    s.map = b.build();
    let p = run(
        &format!(
            r#"{LIST}
    local m = unit:models()[1]
    local hero = game:model("H")
    game:log(list(m:reachable()))
    local best = m:reachable_away_from(hero, 3)
    game:log(list(best))
    local moved = m:move_away_from(hero, 3)
    local now = game:model(m.id)
    game:log(moved .. " " .. game:distance(m, hero) .. " " .. game:distance(now, hero))"#
        ),
        &s,
    );
    let lines = logs(&p);
    let h = Pos::new(1, 2);
    // The best squares are, among every square the model can legally reach in 3 steps, the
    // farthest from H, then the nearest by steps.
    let reach: Vec<(Pos, u32)> = squares(&lines[0])
        .into_iter()
        .filter(|&(_, n)| n <= 3)
        .collect();
    let far = reach
        .iter()
        .map(|&(q, _)| q.distance(h))
        .max()
        .expect("some");
    let fewest = reach
        .iter()
        .filter(|&&(q, _)| q.distance(h) == far)
        .map(|&(_, n)| n)
        .min()
        .expect("some");
    let mut expected: Vec<(Pos, u32)> = reach
        .iter()
        .copied()
        .filter(|&(q, n)| q.distance(h) == far && n == fewest)
        .collect();
    expected.sort_by_key(|&(q, _)| (q.y, q.x));
    let best = squares(&lines[1]);
    assert_eq!(best, expected);
    assert_eq!(far, 6, "x = 7: the rock keeps it from x = 9");
    // The move ends on one of them (the Overmind's choice, asked), farther than it began.
    let end = pos(&p, "R.1");
    assert!(best.iter().any(|&(q, _)| q == end), "{end} in {best:?}");
    let ask = p
        .decisions
        .iter()
        .find(|(d, _)| d.kind == DecisionKind::Destination)
        .expect("a tie is asked");
    assert_eq!(
        ask.0.options,
        best.iter()
            .map(|&(q, _)| Choice::Square(q))
            .collect::<Vec<_>>()
    );
    assert_eq!(ask.0.prompt, "subject: where does R.1 end its move?");
    assert_eq!(lines[2], format!("{fewest} 5 {far}"));
    // Every step of its path is a legal step on the map as it stood.
    let path = path_of(&p, "R.1");
    assert_eq!(path.first(), Some(&Pos::new(6, 2)));
    assert_eq!(path.last(), Some(&end));
    assert_eq!(path.len() as u32 - 1, fewest);
    let st = &p.game.state;
    let mut o = st.compute_obstacles();
    o.remove(end);
    for w in path.windows(2) {
        assert!(
            movement::can_step(&st.map, &o, w[0], w[1]),
            "{} → {} is a legal step",
            w[0],
            w[1]
        );
        assert_ne!(st.map.terrain(w[1]), Terrain::Solid);
    }
}

#[test]
fn move_away_from_never_passes_through_models_and_keeps_away_from_all_targets() {
    // A wall of grunts stands east of the subject; K and H are both moved away from.
    let mut s = scene(1);
    s.units = vec![("F", "grunt", vec![[7, 1], [7, 2], [7, 3]])];
    let p = run(
        r#"
    local m = unit:models()[1]
    local heroes = { game:model("H"), game:model("K") }
    local before = math.min(game:distance(m, heroes[1]), game:distance(m, heroes[2]))
    m:move_away_from(heroes)
    local now = game:model(m.id)
    local after = math.min(game:distance(now, heroes[1]), game:distance(now, heroes[2]))
    game:log(before .. " " .. after)"#,
        &s,
    );
    let end = pos(&p, "R.1");
    let st = &p.game.state;
    let path = path_of(&p, "R.1");
    let grunts: Vec<Pos> = st
        .unit("F")
        .expect("F")
        .models
        .iter()
        .map(|m| m.pos)
        .collect();
    assert!(path.iter().all(|q| !grunts.contains(q)), "{path:?}");
    let mut o = st.compute_obstacles();
    o.remove(end);
    for w in path.windows(2) {
        assert!(movement::can_step(&st.map, &o, w[0], w[1]), "{path:?}");
    }
    let (h, k) = (Pos::new(1, 2), Pos::new(0, 5));
    let after = end.distance(h).min(end.distance(k));
    assert_eq!(logs(&p), vec![format!("5 {after}")]);
    assert!(after > 5, "it ends farther: {end}");
    // Nothing it could reach in its Movement is farther from both (the obstacles as they
    // stood: its end square was free, its start its own).
    let mut o = st.compute_obstacles();
    o.remove(end);
    let best = movement::reachable(&st.map, &o, Pos::new(6, 2), 5)
        .into_iter()
        .map(|(q, _)| q.distance(h).min(q.distance(k)))
        .max();
    assert_eq!(best, Some(after));
}

#[test]
fn a_model_with_no_farther_square_stays() {
    // In the corner farthest from H: every square it can reach is no farther.
    let mut s = scene(1);
    s.blips = vec![("R", [11, 4], "subject", 1)];
    s.heroes = vec![("H", "trooper", [0, 2])];
    let p = run(
        r#"
    local m = unit:models()[1]
    local best = m:reachable_away_from(game:model("H"))
    game:log(#best .. " " .. best[1].x .. "," .. best[1].y .. " " .. best[1].steps)
    game:log(tostring(m:move_away_from(game:model("H"))))"#,
        &s,
    );
    assert_eq!(logs(&p), vec!["1 11,4 0", "0"]);
    assert_eq!(pos(&p, "R.1"), Pos::new(11, 4));
    assert!(path_of(&p, "R.1").is_empty(), "no move: {:#?}", p.events);
}

#[test]
fn reachable_away_from_is_a_query_and_changes_nothing() {
    let p = run(
        r#"
    local m = unit:models()[1]
    local a = m:reachable_away_from(game:heroes(), 2)
    local b = m:reachable_away_from(game:heroes(), 2)
    game:log(#a .. " " .. #b .. " " .. m:move_left() .. " " .. game:model(m.id).x)"#,
        &scene(1),
    );
    let ev: Vec<&Event> = p
        .events
        .iter()
        .skip_while(|e| !matches!(e, Event::BehaviourChosen { .. }))
        .skip(1)
        .collect();
    assert!(
        ev.iter()
            .all(|e| matches!(e, Event::Log { .. } | Event::BehaviourPerformed { .. })),
        "{ev:#?}"
    );
    assert!(
        !p.decisions
            .iter()
            .any(|(d, _)| d.kind == DecisionKind::Destination),
        "nothing is asked"
    );
    // Both calls agree, and the model has all its moves left and stands where it was.
    let line = &logs(&p)[0];
    let n: Vec<&str> = line.split(' ').collect();
    assert_eq!(n[0], n[1]);
    assert_eq!(&n[2..], ["5", "6"]);
}

#[test]
fn unit_move_away_from_moves_every_model_in_the_overminds_order() {
    let s = scene(2);
    let p = run(
        r#"
    local before = {}
    for _, m in ipairs(unit:models()) do before[m.id] = game:distance(m, game:model("H")) end
    local moved = unit:move_away_from(game:model("H"), 2, "Flee to which square?")
    local out = { moved }
    for _, m in ipairs(unit:models()) do
      out[#out + 1] = m.id .. ":" .. before[m.id] .. ">" .. game:distance(m, game:model("H"))
    end
    game:log(table.concat(out, " "))"#,
        &s,
    );
    let line = logs(&p)[0].clone();
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 3, "{line}");
    let total: u32 = ["R.1", "R.2"]
        .iter()
        .map(|m| (path_of(&p, m).len().max(1) - 1) as u32)
        .sum();
    assert_eq!(words[0], total.to_string());
    for w in &words[1..] {
        let (_, d) = w.split_once(':').expect("id:before>after");
        let (a, b) = d.split_once('>').expect("before>after");
        let (a, b): (u32, u32) = (a.parse().expect("n"), b.parse().expect("n"));
        assert!(b > a, "{w}: it ends farther");
    }
    let order = p
        .decisions
        .iter()
        .filter(|(d, _)| d.kind == DecisionKind::ModelOrder)
        .count();
    assert_eq!(order, 1, "the Overmind picked which model moves first");
    for (d, _) in p
        .decisions
        .iter()
        .filter(|(d, _)| d.kind == DecisionKind::Destination)
    {
        assert_eq!(d.prompt, "subject: Flee to which square?");
    }
}

/// H (moving 0,0 → 1,0) and K (at 1,4) are equally close to the subject at 6,2: each 4 steps
/// to a square next to it.
fn tie_scene(size: u32) -> Scene {
    let mut s = scene(size);
    s.heroes = vec![("H", "brawler", [0, 0]), ("K", "brawler", [1, 4])];
    s.steps = vec![mv("H", 1, 0)];
    s
}

/// The Overmind's decisions the behaviour asked, as (kind, prompt).
fn asked(p: &Played) -> Vec<(DecisionKind, String)> {
    p.decisions
        .iter()
        .filter(|(d, _)| d.kind != DecisionKind::Behaviour && d.kind != DecisionKind::Placement)
        .map(|(d, _)| (d.kind, d.prompt.clone()))
        .collect()
}

#[test]
fn the_callers_prompt_is_the_tie_decisions_prompt() {
    let p = run(
        r#"
    local near = game:closest(unit, game:heroes(), "Which Hero is the prey?")
    local m = unit:models()[1]
    m:move_towards(near, 1, "Close in where?")
    m:move_away_from(near, 1, "Back off where?")"#,
        &tie_scene(1),
    );
    assert_eq!(
        asked(&p),
        vec![
            (
                DecisionKind::Choice,
                "subject: Which Hero is the prey?".to_string()
            ),
            (
                DecisionKind::Destination,
                "subject: Close in where?".to_string()
            ),
            (
                DecisionKind::Destination,
                "subject: Back off where?".to_string()
            ),
        ]
    );
    let p = run(
        r#"
    local order = game:model_order(unit, "Who goes first?")
    unit:move_towards(game:model("H"), 1, "Which square, this time?")"#,
        &tie_scene(2),
    );
    let a = asked(&p);
    assert_eq!(
        a[0],
        (
            DecisionKind::ModelOrder,
            "subject: Who goes first?".to_string()
        )
    );
    // The unit's own move asks its order (its own decision), then each model's tie.
    assert!(
        a.iter()
            .any(|(k, q)| *k == DecisionKind::Destination
                && q == "subject: Which square, this time?"),
        "{a:#?}"
    );
    for (k, q) in &a {
        if *k == DecisionKind::Destination {
            assert_eq!(q, "subject: Which square, this time?");
        }
    }
}

#[test]
fn without_a_prompt_the_tie_decisions_keep_their_own() {
    let p = run(
        r#"
    local near = game:closest(unit, game:heroes())
    unit:models()[1]:move_towards(near, 1)"#,
        &tie_scene(1),
    );
    assert_eq!(
        asked(&p),
        vec![
            (
                DecisionKind::Choice,
                "subject: Several are equally close: which one?".to_string()
            ),
            (
                DecisionKind::Destination,
                "subject: where does R.1 end its move?".to_string()
            ),
        ]
    );
    let p = run("    game:model_order(unit)", &tie_scene(2));
    assert_eq!(
        asked(&p),
        vec![(
            DecisionKind::ModelOrder,
            "subject: Which model acts next?".to_string()
        )]
    );
}

#[test]
fn a_prompt_must_be_a_string() {
    let c = content(
        &behaviour("    game:closest(unit, game:heroes(), { \"not a prompt\" })"),
        |_| {},
    );
    let p = play(&scene(1), &c);
    assert_eq!(
        failures(&p.events),
        vec!["tests/subject.lua:4: closest: prompt must be a string, got a table"]
    );
}

/// How many times a behaviour's loop ran `call` before the call budget ran out.
fn rounds_within_budget(call: &str) -> i64 {
    let mut s = scene(1);
    s.rules.lua_instructions = 100_000;
    let c = content(
        &behaviour(&format!(
            r#"
    local m = unit:models()[1]
    local heroes = game:heroes()
    local n = 0
    while true do
      {call}
      n = n + 1
      game.storage.n = n
    end"#
        )),
        |_| {},
    );
    let p = play(&s, &c);
    let f = failures(&p.events);
    assert_eq!(f.len(), 1, "{:#?}", p.events);
    assert!(f[0].contains("instruction budget exhausted"), "{}", f[0]);
    match p.game.state.storage("subject") {
        Some(storage::Value::Table(t)) => t
            .iter()
            .find_map(|(k, v)| match (k, v) {
                (storage::Key::Str(k), storage::Value::Int(n)) if k == "n" => Some(*n),
                _ => None,
            })
            .expect("n kept"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn moving_away_is_charged_against_the_call_budget() {
    // A search over the map costs per square, as `reachable` does; a cheap call does not.
    let away = rounds_within_budget("m:reachable_away_from(heroes, 2)");
    let cheap = rounds_within_budget("m:move_left()");
    assert!(
        away > 0 && away * 10 < cheap,
        "{away} searches, {cheap} cheap calls"
    );
}
