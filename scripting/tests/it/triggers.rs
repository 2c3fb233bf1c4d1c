//! docs/RULES.md §14 in Lua: tokens, abilities, alien types' `on` and a pack's game-wide
//! `trigger`s, loaded from a pack's folders, checked, run like behaviours and hot-reloaded;
//! their effects on `game`. Written from the rules (what a hazard, an ability, a killed hook
//! must do), each against a small pack in a temp dir.

use overmind_core::dice::DieFaces;
use overmind_core::event::{Change, Roll};
use overmind_core::token::Token;
use overmind_core::trigger::{Hook, Owner};
use overmind_core::{
    Action, Controllers, Event, FirstOption, Game, HeroSetup, MapBuilder, Model, Objective, Pos,
    Rules, Scripted, Setup, Side, Unit,
};
use overmind_scripting::pack::{Kind, PackSet, Reload};

use crate::common::temp_pack::Pack;
use std::fs;

const HERO: &str = r#"id = "trooper"
name = "Trooper"
health = 8
movement = 4
shoot = { short = { range = 4, cv = 2 }, long = { range = 10, cv = 1 } }
dial = [{ from = 1, melee = 2, defence = 1 }]
"#;

const MEDIC: &str = r#"id = "medic"
name = "Medic"
health = 8
movement = 6
dial = [{ from = 1, melee = 1, defence = 1 }]
"#;

/// Steps onto it cost 2 Health and knock the model down.
const ACID: &str = r#"-- A hazard.
return token {
  id = "acid",
  name = "Acid pool",
  class = "hazard",
  symbol = "~",
  text = "A model that steps in loses 2 Health and is knocked down.",
  on = {
    step = function(game, moment)
      game:damage(moment.model, 2)
      game:set_status(moment.model, "knocked_down", true)
    end,
  },
}
"#;

const GOO: &str = r#"return token {
  id = "goo", name = "Goo", class = "marker", symbol = "%",
  text = "What a bloater leaves.",
}
"#;

/// A Hero of profile `medic` heals 1 Health of a hurt Hero next to a square she steps onto,
/// once a round.
const FIELD_MEDIC: &str = r#"return ability {
  id = "field_medic",
  name = "Field medic",
  text = "Once per round, when she steps next to a hurt Hero, that Hero heals 1 Health.",
  hero = "medic",
  on = {
    step = function(game, moment)
      if game.storage.round == game.round then
        return
      end
      for _, h in ipairs(game:heroes()) do
        if h.id ~= moment.model.id and game:distance(h, moment.at) == 1 then
          if game:heal(h, 1) > 0 then
            game.storage.round = game.round
            game:log("patched up " .. h.id)
            return
          end
        end
      end
    end,
  },
}
"#;

/// Leaves goo where it dies, and says what it was told.
const BLOATER: &str = r#"return alien_type {
  id = "bloater", name = "Bloater", unit = { max = 1 },
  movement = 2, melee = 1, defence = 0, health = 1,
  on = {
    killed = function(game, moment)
      game:log(type(moment.model) .. " " .. moment.model .. " by " .. tostring(moment.by))
      game:place_token("goo", moment.at)
    end,
  },
}
"#;

const GRUNT: &str = r#"return alien_type {
  id = "grunt", name = "Grunt", unit = { max = 3 },
  movement = 4, melee = 2, defence = 0, health = 1,
}
"#;

/// A 12x6 open board, the heroes `(id, profile, x, y)` on it, no Blips, the Heroes to survive
/// 10 rounds; every die rolls HIT.
fn game(set: &PackSet, heroes: &[(&str, &str, i32, i32)]) -> Game {
    let setup = Setup {
        name: "t".into(),
        map: MapBuilder::new(12, 6).build(),
        rules: Rules {
            decoys: 0,
            die: DieFaces {
                blank: 0,
                hit: 12,
                double_hit: 0,
                critical: 0,
                shield: 0,
                double_shield: 0,
            },
            ..set.rules.clone()
        },
        heroes: heroes
            .iter()
            .map(|(id, profile, x, y)| HeroSetup {
                id: (*id).into(),
                profile: (*profile).into(),
                at: Pos::new(*x, *y),
                health: None,
            })
            .collect(),
        blips: vec![],
        pool: vec![],
        decoys: Some(0),
        objective: Objective::Survive,
        max_rounds: Some(10),
        tokens: Vec::new(),
        decks: Vec::new(),
        aliens: Vec::new(),
        hand: None,
        agenda: None,
        deployment: Default::default(),
        squad: Vec::new(),
    };
    match setup.start(&set.content, 5) {
        Ok(st) => Game::new(st, "t", 5),
        Err(es) => panic!("test setup: {es:?}"),
    }
}

fn lay(g: &mut Game, id: &str, kind: &str, x: i32, y: i32) {
    g.state.tokens.push(Token {
        id: id.into(),
        kind: kind.into(),
        pos: Pos::new(x, y),
        carried_by: None,
        symbol: '~',
    });
}

/// An Alien Unit `id` of one `kind` model at `(x, y)`.
fn alien(g: &mut Game, id: &str, kind: &str, x: i32, y: i32, health: u32) {
    g.state.units.push(Unit {
        id: id.into(),
        side: Side::Overmind,
        models: vec![Model {
            id: format!("{id}.1").as_str().into(),
            kind: kind.into(),
            pos: Pos::new(x, y),
            health,
            max_health: health,
            status: Default::default(),
            xxl: false,
        }],
        activated: false,
        used: vec![],
        overwatch: None,
        xp: 0,
        from_blip: None,
        extracted: false,
    });
    g.state.moved();
}

fn ctl() -> Controllers {
    Controllers::new(Box::new(FirstOption), Box::new(Scripted::new([])))
}

fn act(g: &mut Game, set: &PackSet, a: Action) -> Vec<Event> {
    match g.apply(a.clone(), &set.content, &mut ctl()) {
        Ok(ev) => ev,
        Err(e) => panic!("{a:?} refused: {e}"),
    }
}

fn walk(unit: &str, via: &[(i32, i32)], to: (i32, i32)) -> Action {
    Action::Move {
        unit: unit.into(),
        to: Pos::new(to.0, to.1),
        via: via.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
    }
}

fn shoot(unit: &str, target: &str) -> Action {
    Action::Shoot {
        unit: unit.into(),
        target: target.into(),
    }
}

fn model(g: &Game, id: &str) -> Model {
    match g.state.find_model(id) {
        Some((_, m)) => m.clone(),
        None => panic!("{id} is not on the map"),
    }
}

fn logs(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Log { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

fn failures(ev: &[Event]) -> Vec<(String, Hook, String)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::TriggerFailed {
                source,
                hook,
                reason,
            } => Some((source.to_string(), *hook, reason.clone())),
            _ => None,
        })
        .collect()
}

/// End activations until the Heroes' phase of the next round has begun.
fn next_round(g: &mut Game, set: &PackSet) {
    let round = g.state.round;
    for _ in 0..20 {
        if g.state.round > round {
            return;
        }
        act(g, set, Action::End);
    }
    panic!("round {round} did not end");
}

#[test]
fn a_hazard_token_hurts_and_knocks_down_the_model_that_steps_onto_it() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write("tokens/acid.lua", ACID);
    let set = pack.load();
    let kind = set
        .content
        .tokens
        .get("acid")
        .expect("the token kind loaded");
    assert_eq!((kind.symbol, kind.class.name()), ('~', "hazard"));
    assert_eq!(kind.name, "Acid pool");
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    lay(&mut g, "a1", "acid", 2, 0);
    let ev = act(&mut g, &set, walk("T", &[(2, 0)], (4, 0)));
    let t = model(&g, "T");
    assert_eq!(t.health, 6, "8 - 2: {ev:#?}");
    assert!(t.status.knocked_down);
    assert_eq!(t.pos, Pos::new(2, 0), "knocked down, the move stops there");
    assert!(
        ev.iter().any(|e| matches!(e, Event::Effect { source, change: Change::Damage { amount: 2, .. } } if source == "acid")),
        "the effect names the token's script: {ev:#?}"
    );
    assert!(failures(&ev).is_empty(), "{ev:#?}");
    // Walking past it touches nothing.
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    lay(&mut g, "a1", "acid", 2, 1);
    act(&mut g, &set, walk("T", &[(2, 0)], (4, 0)));
    assert_eq!(model(&g, "T").health, 8);
}

#[test]
fn an_ability_heals_an_adjacent_hero_once_per_round() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write("abilities/field_medic.lua", FIELD_MEDIC);
    let set = pack.load();
    assert_eq!(
        set.abilities.get("field_medic").map(|a| a.hero.as_str()),
        Some("medic")
    );
    let mut g = game(&set, &[("M", "medic", 0, 0), ("T", "trooper", 0, 3)]);
    if let Some(t) = g.state.model_mut("T") {
        t.health = 4;
    }
    // Four steps, three of them next to T: one Health back, the first time only.
    let ev = act(&mut g, &set, walk("M", &[(0, 1), (1, 2), (1, 3)], (1, 4)));
    assert_eq!(model(&g, "T").health, 5, "{ev:#?}");
    assert_eq!(logs(&ev), ["patched up T"]);
    // The trooper's own steps are not the medic's: nothing.
    let ev = act(&mut g, &set, walk("T", &[], (0, 4)));
    assert!(logs(&ev).is_empty(), "{ev:#?}");
    next_round(&mut g, &set);
    let ev = act(&mut g, &set, walk("M", &[(1, 3)], (1, 2)));
    assert_eq!(model(&g, "T").health, 6, "a new round, a new heal: {ev:#?}");
}

#[test]
fn an_alien_types_killed_hook_runs_where_its_model_fell() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write("tokens/goo.lua", GOO);
    pack.write("aliens/bloater.lua", BLOATER);
    let set = pack.load();
    assert!(set
        .content
        .triggers
        .iter()
        .any(|t| t.owner == Owner::Alien("bloater".into()) && t.hook == Hook::Killed));
    let mut g = game(&set, &[("T", "trooper", 0, 0), ("U", "trooper", 0, 2)]);
    alien(&mut g, "B", "bloater", 3, 0, 1);
    alien(&mut g, "G", "grunt", 3, 2, 1);
    let ev = act(&mut g, &set, shoot("T", "B.1"));
    assert!(g.state.find_model("B.1").is_none(), "killed: {ev:#?}");
    assert_eq!(logs(&ev), ["string B.1 by T"], "{ev:#?}");
    let goo: Vec<Pos> = g
        .state
        .tokens
        .iter()
        .filter(|t| t.kind == "goo")
        .map(|t| t.pos)
        .collect();
    assert_eq!(goo, [Pos::new(3, 0)]);
    // A grunt's death is not a bloater's.
    let ev = act(&mut g, &set, shoot("U", "G.1"));
    assert!(g.state.find_model("G.1").is_none(), "{ev:#?}");
    assert!(logs(&ev).is_empty());
    assert_eq!(g.state.tokens.len(), 1);
}

#[test]
fn a_failing_trigger_is_logged_at_its_line_and_what_it_did_stands() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write(
        "triggers/rockfall.lua",
        r#"return trigger {
  id = "rockfall",
  name = "Rockfall",
  text = "Whoever activates first is hit by a rock.",
  on = {
    activation_start = function(game, moment)
      game:damage(moment.unit:models()[1], 1)
      error("the ceiling gives way")
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    let ev = act(&mut g, &set, walk("T", &[], (1, 0)));
    let failed = failures(&ev);
    assert_eq!(failed.len(), 1, "{ev:#?}");
    let (source, hook, reason) = &failed[0];
    assert_eq!(
        (source.as_str(), *hook),
        ("rockfall", Hook::ActivationStart)
    );
    assert!(
        reason.ends_with("triggers/rockfall.lua:8: the ceiling gives way"),
        "{reason}"
    );
    let t = model(&g, "T");
    assert_eq!(t.health, 7, "the damage before the error stands");
    assert_eq!(
        t.pos,
        Pos::new(1, 0),
        "and the game goes on: the move happened"
    );
}

#[test]
fn a_token_file_reloaded_changes_what_the_next_step_does_and_a_broken_edit_keeps_the_last() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    let acid = pack.write("tokens/acid.lua", ACID);
    pack.write("tokens/goo.lua", GOO);
    pack.write("aliens/bloater.lua", BLOATER);
    pack.write("abilities/field_medic.lua", FIELD_MEDIC);
    let mut set = pack.load();
    let order = |set: &PackSet| -> Vec<(String, Hook)> {
        set.content
            .triggers
            .iter()
            .map(|t| (t.source.to_string(), t.hook))
            .collect()
    };
    let before = order(&set);
    let heroes = [
        ("T", "trooper", 0, 0),
        ("U", "trooper", 0, 2),
        ("V", "trooper", 0, 4),
    ];
    let mut g = game(&set, &heroes);
    lay(&mut g, "a1", "acid", 1, 0);
    lay(&mut g, "a2", "acid", 1, 2);
    act(&mut g, &set, walk("T", &[], (1, 0)));
    assert_eq!(model(&g, "T").health, 6);
    // The acid now burns 1 and stuns instead.
    let milder = ACID
        .replace(
            "game:damage(moment.model, 2)",
            "game:damage(moment.model, 1)",
        )
        .replace("\"knocked_down\"", "\"stunned\"");
    fs::write(&acid, &milder).expect("write");
    let r = set.reload(&acid);
    assert!(
        matches!(&r, Reload::Updated { kind: Kind::Token, id, .. } if id == "acid"),
        "{r:?}"
    );
    assert_eq!(order(&set), before, "its triggers keep their place");
    act(&mut g, &set, walk("U", &[], (1, 2)));
    let u = model(&g, "U");
    assert_eq!(u.health, 7, "the new version ran");
    assert!(u.status.stunned && !u.status.knocked_down);
    // A broken edit is refused; the last good version stays live.
    fs::write(&acid, milder.replace("symbol = \"~\"", "symbol = \"#\"")).expect("write");
    let r = set.reload(&acid);
    let Reload::Failed(p) = &r else {
        panic!("a reserved symbol is refused: {r:?}")
    };
    assert!(p.message.contains("symbol must be one printable"), "{p}");
    assert_eq!(p.line, 6, "{p}");
    assert_eq!(set.content.tokens.get("acid").map(|k| k.symbol), Some('~'));
    next_round(&mut g, &set);
    lay(&mut g, "a3", "acid", 1, 4);
    act(&mut g, &set, walk("V", &[], (1, 4)));
    let v = model(&g, "V");
    assert_eq!(v.health, 7, "still the milder acid");
    assert!(v.status.stunned);
    // A hook taken out of the file is gone from the game.
    fs::write(&acid, GOO.replace("\"goo\"", "\"acid\"").replace("%", "~")).expect("write");
    assert!(matches!(set.reload(&acid), Reload::Updated { .. }));
    assert!(
        !order(&set).iter().any(|(s, _)| s == "acid"),
        "{:?}",
        order(&set)
    );
}

#[test]
fn check_reports_unknown_hooks_bad_symbols_and_unknown_heroes_at_their_lines() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write(
        "tokens/bad.lua",
        r#"return token {
  id = "bad",
  name = "Bad",
  class = "hazzard",
  symbol = "ab",
  text = "",
  on = {
    stpe = function() end,
    interact = 3,
  },
}
"#,
    );
    pack.write("tokens/acid.lua", ACID);
    pack.write(
        "tokens/acid2.lua",
        &ACID.replace("id = \"acid\"", "id = \"acid2\""),
    );
    pack.write(
        "abilities/field_medic.lua",
        &FIELD_MEDIC.replace("hero = \"medic\"", "hero = \"medik\""),
    );
    pack.write(
        "aliens/ticker.lua",
        r#"return alien_type {
  id = "ticker", name = "Ticker", unit = { max = 1 },
  movement = 2, melee = 1, defence = 0, health = 1,
  on = {
    round_start = function() end,
  },
}
"#,
    );
    let found: Vec<(String, usize, String)> = pack
        .problems()
        .iter()
        .map(|p| {
            let file = p
                .path
                .strip_prefix(&pack.dir)
                .unwrap_or(&p.path)
                .display()
                .to_string();
            (file, p.line, p.message.clone())
        })
        .collect();
    let has = |file: &str, line: usize, words: &[&str]| {
        assert!(
            found
                .iter()
                .any(|(f, l, m)| f == file && *l == line && words.iter().all(|w| m.contains(w))),
            "no problem at {file}:{line} saying {words:?} in {found:#?}"
        );
    };
    has("tokens/bad.lua", 4, &["class", "did you mean hazard?"]);
    has(
        "tokens/bad.lua",
        5,
        &["symbol must be one printable ASCII character"],
    );
    has(
        "tokens/bad.lua",
        8,
        &["unknown hook 'stpe'", "did you mean step?"],
    );
    has("tokens/bad.lua", 9, &["on.interact must be a function"]);
    has(
        "tokens/acid2.lua",
        6,
        &["symbol '~' is already token kind acid's"],
    );
    has(
        "abilities/field_medic.lua",
        5,
        &["hero profile \"medik\"", "did you mean medic?"],
    );
    has(
        "aliens/ticker.lua",
        5,
        &["hook 'round_start' in on never runs for an alien type (its hooks: activation_start,"],
    );
    assert_eq!(found.len(), 7, "{found:#?}");
}

/// Effects as the rules check them: each refuses what the rules forbid with a message naming
/// the function, and a `before_attack` hook's modifier shows in the roll.
#[test]
fn effects_check_their_arguments_and_name_the_function() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write("tokens/goo.lua", GOO);
    pack.write(
        "triggers/probe.lua",
        r#"return trigger {
  id = "probe",
  name = "Probe",
  text = "Tries things.",
  on = {
    activation_start = function(game, moment)
      local function try(f, ...)
        local ok, e = pcall(f, game, ...)
        game:log(ok and "ok" or tostring(e))
      end
      local t = moment.unit:models()[1]
      try(game.damage, t, 0)
      try(game.damage, "nobody", 1)
      try(game.set_status, t, "asleep", true)
      try(game.modify, t, "melee", 2, "forever")
      try(game.modify_attack, "dice", 1)
      try(game.place_token, "goo", { x = 99, y = 0 })
      try(game.spawn_blip, { x = 5, y = 5 }, "nothing")
      local goo = game:place_token("goo", { x = 3, y = 0 })
      game:log(goo.id .. " " .. goo.kind .. " " .. goo.class .. " " .. goo.x .. "," .. goo.y)
      game:log(#game:tokens() .. " " .. #game:tokens_at({ x = 3, y = 0 }) .. " " .. #game:tokens_at(t))
      game:modify(t.id, "movement", -2, "activation")
      game:remove_token(goo)
      game:log(#game:tokens() .. "")
    end,
    before_attack = function(game, moment)
      game:modify_attack("defence", 1)
      game:log(moment.attack .. " at " .. moment.target.id)
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    alien(&mut g, "A", "grunt", 5, 0, 1);
    let ev = act(&mut g, &set, shoot("T", "A.1"));
    let said = logs(&ev);
    let expect = [
        "damage: n must be a whole number from 1 to 20, got number 0",
        "damage: no model nobody on the map",
        "set_status: status must be one of \"knocked_down\", \"stunned\", got string \"asleep\"",
        "modify: duration must be one of \"activation\", \"round\", got string \"forever\"",
        "modify_attack: only a before_attack hook can change an attack (this is a activation_start hook)",
        "place_token: 99,0 is off the map or solid: no token can lie there",
        "spawn_blip: no loaded alien type nothing",
        "t1 goo marker 3,0",
        "1 1 0",
        "0",
        "shoot at A.1",
    ];
    assert_eq!(said.len(), expect.len(), "{said:#?}");
    for (got, want) in said.iter().zip(expect) {
        assert!(got.ends_with(want), "{got:?} should end with {want:?}");
    }
    assert!(
        said[0].contains("triggers/probe.lua:8: "),
        "placed at the script's line that called it (`pcall` in `try`): {}",
        said[0]
    );
    let roll = ev.iter().find_map(|e| match e {
        Event::Attack { modifiers, .. } => Some(modifiers.clone()),
        _ => None,
    });
    let roll = roll.expect("an attack");
    assert!(
        roll.iter().any(|m| m.on == Roll::Defence
            && m.change == 1
            && m.source.as_deref() == Some("probe")),
        "{roll:?}"
    );
    assert_eq!(
        g.state
            .stat_change("T", overmind_core::state::Stat::Movement),
        -2
    );
}

#[test]
fn victory_check_may_declare_a_winner_and_spawns_enter_play() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write(
        "triggers/siege.lua",
        r#"return trigger {
  id = "siege",
  name = "Siege",
  text = "Reinforcements in round 2; the Overmind wins once it has two units.",
  on = {
    round_start = function(game, moment)
      if moment.round == 2 then
        local u = game:spawn_unit("grunt", { x = 10, y = 5 }, 2)
        game:log(u.id .. " " .. #u:models())
        game:log(game:spawn_blip({ x = 11, y = 0 }, "grunt", 1))
        game:give_actions(game:heroes()[1].unit, 1)
      end
    end,
    victory_check = function(game, moment)
      local units = {}
      for _, m in ipairs(game:aliens()) do
        units[m.unit] = true
      end
      local n = 0
      for _ in pairs(units) do
        n = n + 1
      end
      if n >= 2 then
        game:declare_winner("overmind", "the siege holds")
      end
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    alien(&mut g, "A", "grunt", 5, 0, 1);
    act(&mut g, &set, walk("T", &[], (0, 1)));
    assert!(!g.state.is_over());
    act(&mut g, &set, Action::End);
    let round = g.state.round;
    let mut ev = Vec::new();
    while g.state.round == round && !g.state.is_over() {
        ev.extend(act(&mut g, &set, Action::End));
    }
    let said = logs(&ev);
    assert_eq!(said.len(), 2, "{ev:#?}");
    assert!(said[0].ends_with(" 2"), "a unit of two: {said:?}");
    assert_eq!(said[1], "e1");
    assert!(
        g.state
            .units
            .iter()
            .any(|u| u.from_blip.as_deref() == Some("e1")),
        "the new Blip, in T's sight, is revealed at once: {ev:#?}"
    );
    assert!(g.state.is_over(), "{ev:#?}");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Effect { source, change: Change::Win { winner: Side::Overmind, .. } } if source == "siege"
    )));
}

#[test]
fn a_hook_that_spends_its_budget_fails_alone_and_play_goes_on() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write("tokens/acid.lua", ACID);
    pack.write(
        "tokens/snare.lua",
        r#"return token {
  id = "snare", name = "Snare", class = "hazard", symbol = "^",
  text = "Holds forever.",
  on = {
    step = function(game, moment)
      game:set_status(moment.model, "stunned", true)
      while true do
      end
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    lay(&mut g, "s1", "snare", 1, 0);
    lay(&mut g, "a1", "acid", 1, 0);
    let ev = act(&mut g, &set, walk("T", &[], (1, 0)));
    let failed = failures(&ev);
    assert_eq!(failed.len(), 1, "{ev:#?}");
    assert_eq!((failed[0].0.as_str(), failed[0].1), ("snare", Hook::Step));
    assert!(
        failed[0]
            .2
            .contains("tokens/snare.lua:7: instruction budget exhausted"),
        "{}",
        failed[0].2
    );
    let t = model(&g, "T");
    assert!(t.status.stunned, "what it did before stands");
    assert_eq!(
        t.health, 6,
        "the acid on the same square runs after it: one failing hook stops no other"
    );
    act(&mut g, &set, Action::End);
    assert!(!g.state.is_over());
}

#[test]
fn an_alien_file_reloaded_replaces_its_hooks_where_they_were() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write("tokens/goo.lua", GOO);
    pack.write("tokens/acid.lua", ACID);
    let bloater = pack.write("aliens/bloater.lua", BLOATER);
    pack.write(
        "triggers/clock.lua",
        r#"return trigger {
  id = "clock", name = "Clock", text = "Counts rounds.",
  on = { round_end = function(game) game:log("tick") end },
}
"#,
    );
    let mut set = pack.load();
    let order = |set: &PackSet| -> Vec<String> {
        set.content
            .triggers
            .iter()
            .map(|t| format!("{}.{}", t.source, t.hook.name()))
            .collect()
    };
    assert_eq!(
        order(&set),
        ["bloater.killed", "acid.step", "clock.round_end"]
    );
    let two = BLOATER.replace(
        "  on = {\n",
        "  on = {\n    reveal = function(game) game:log(\"pop\") end,\n",
    );
    fs::write(&bloater, two).expect("write");
    assert!(matches!(
        set.reload(&bloater),
        Reload::Updated {
            kind: Kind::Alien,
            ..
        }
    ));
    assert_eq!(
        order(&set),
        [
            "bloater.reveal",
            "bloater.killed",
            "acid.step",
            "clock.round_end"
        ],
        "in the alien's place, in hook order"
    );
    fs::write(&bloater, GRUNT.replace("grunt", "bloater")).expect("write");
    assert!(matches!(set.reload(&bloater), Reload::Updated { .. }));
    assert_eq!(order(&set), ["acid.step", "clock.round_end"]);
    // A broken version changes nothing.
    fs::write(&bloater, "return alien_type {").expect("write");
    assert!(matches!(set.reload(&bloater), Reload::Failed(_)));
    assert_eq!(order(&set), ["acid.step", "clock.round_end"]);
}

#[test]
fn a_hook_that_piles_up_tokens_fails_at_its_line_naming_the_cap() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write("tokens/goo.lua", GOO);
    pack.write(
        "triggers/hoard.lua",
        r#"return trigger {
  id = "hoard",
  name = "Hoard",
  text = "Lays goo everywhere.",
  on = {
    activation_start = function(game, moment)
      for i = 1, 1000 do
        game:place_token("goo", { x = i % 12, y = 3 })
      end
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    std::sync::Arc::make_mut(&mut g.state.rules).max_tokens = 3;
    let ev = act(&mut g, &set, walk("T", &[], (1, 0)));
    assert_eq!(g.state.tokens.len(), 3, "the three laid stand");
    let f = failures(&ev);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].2.contains("triggers/hoard.lua:8:") && f[0].2.contains("max_tokens"),
        "{:?}",
        f[0]
    );
}

#[test]
fn a_close_handler_acts_on_nothing_once_its_call_has_failed() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write(
        "triggers/closer.lua",
        r#"return trigger {
  id = "closer",
  name = "Closer",
  text = "Fails, and tries to act while failing.",
  on = {
    activation_start = function(game, moment)
      local t = moment.unit:models()[1]
      local guard <close> = setmetatable({}, {
        __close = function()
          game:damage(t, 1)
        end,
      })
      error("boom")
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    let before = model(&g, "T").health;
    let ev = act(&mut g, &set, walk("T", &[], (1, 0)));
    assert_eq!(model(&g, "T").health, before, "no damage after the failure");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Effect { .. })),
        "{ev:?}"
    );
    let f = failures(&ev);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].2.contains("triggers/closer.lua:13:") && f[0].2.contains("boom"),
        "the failure is where the error was raised: {:?}",
        f[0]
    );
}

#[test]
fn the_scripts_of_one_step_share_its_pool_and_the_next_step_has_a_fresh_one() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
        ("rules.toml", "lua_step_instructions = 1500000\n"),
    ]);
    // About 430,000 instructions a step: three fit in the step's 1,500,000, the fourth does
    // not, though each is well within one call's 1,000,000.
    pack.write(
        "triggers/toll.lua",
        r#"return trigger {
  id = "toll", name = "Toll", text = "Every step costs.",
  on = {
    step = function(game)
      local x = 0
      for i = 1, 200000 do
        x = x + i
      end
      game:log("paid")
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0), ("M", "medic", 0, 2)]);
    let ev = act(&mut g, &set, walk("T", &[(1, 0), (2, 0), (3, 0)], (4, 0)));
    assert_eq!(logs(&ev), ["paid", "paid", "paid"], "{ev:#?}");
    let failed = failures(&ev);
    assert_eq!(failed.len(), 1, "{ev:#?}");
    assert_eq!((failed[0].0.as_str(), failed[0].1), ("toll", Hook::Step));
    assert!(
        failed[0].2.contains("triggers/toll.lua:")
            && failed[0].2.contains("instruction budget exhausted")
            && failed[0].2.contains("lua_step_instructions"),
        "{}",
        failed[0].2
    );
    // The next action is another step of the game, with the whole pool again.
    let ev = act(&mut g, &set, walk("M", &[(1, 2)], (2, 2)));
    assert_eq!(logs(&ev), ["paid", "paid"], "{ev:#?}");
    assert!(failures(&ev).is_empty(), "{ev:#?}");
}

#[test]
fn a_moment_is_a_plain_table_of_the_game_as_it_was_when_the_hook_was_called() {
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    // The moment is built only when the hook first looks at it (issue 24), but from what the
    // game was when the hook was called: the Hero's Health before this hook's damage.
    pack.write(
        "triggers/look.lua",
        r#"return trigger {
  id = "look", name = "Look", text = "Looks late.",
  on = {
    step = function(game, moment)
      game:damage(game:heroes()[1], 1)
      local keys = {}
      for k in pairs(moment) do
        keys[#keys + 1] = k
      end
      table.sort(keys)
      moment.extra = 1
      game:log(moment.model.health .. " " .. table.concat(keys, ",") .. " "
        .. tostring(getmetatable(moment)) .. " " .. moment.extra .. " " .. moment.at.x)
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    let ev = act(&mut g, &set, walk("T", &[], (1, 0)));
    assert!(failures(&ev).is_empty(), "{ev:#?}");
    assert_eq!(logs(&ev), ["8 at,model,round,unit nil 1 1"], "{ev:#?}");
}

#[test]
fn all_scripts_storage_together_is_capped_and_a_call_past_it_keeps_the_earlier_value() {
    // Three rules, each keeping 5,000 values: each is within a script's 10,000, but together
    // they pass a game's `max_storage_values` (set to 12,000 here).
    let mut files = vec![
        ("heroes/trooper.toml", HERO.to_string()),
        ("heroes/medic.toml", MEDIC.to_string()),
        ("aliens/grunt.lua", GRUNT.to_string()),
    ];
    for id in ["a", "b", "c"] {
        files.push((
            Box::leak(format!("triggers/{id}.lua").into_boxed_str()),
            format!(
                "return trigger {{\n  id = \"keep_{id}\", name = \"Keep\", text = \"Keeps.\",\n  on = {{\n    \
                 step = function(game)\n      local t = {{}}\n      for i = 1, 4999 do\n        t[i] = i\n      end\n      \
                 game.storage.t = t\n    end,\n  }},\n}}\n"
            ),
        ));
    }
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let pack = Pack::new(&borrowed);
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    std::sync::Arc::make_mut(&mut g.state.rules).max_storage_values = 12_000;
    let ev = act(&mut g, &set, walk("T", &[], (1, 0)));
    let f = failures(&ev);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].0, "keep_c");
    assert!(f[0].2.contains("max_storage_values"), "{}", f[0].2);
    assert!(g.state.storage("keep_a").is_some() && g.state.storage("keep_b").is_some());
    assert_eq!(
        g.state.storage("keep_c"),
        None,
        "its earlier value: nothing"
    );
}

#[test]
fn a_hook_that_uses_no_global_runs_and_keeps_nothing() {
    // Its functions reach no global, so its calls get no environment of their own (issue 24's
    // fast path); it still runs, reads its moment and keeps nothing but `game.storage`.
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write(
        "triggers/plain.lua",
        r#"local limits = { most = 2 }
return trigger {
  id = "plain", name = "Plain", text = "Counts steps.",
  on = {
    step = function(game, moment)
      local seen = game.storage.seen or 0
      if seen < limits.most then
        game.storage.seen = seen + 1
        game:log("step to " .. moment.at.x .. " seen " .. (seen + 1))
      end
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    let ev = act(&mut g, &set, walk("T", &[(1, 0), (2, 0)], (3, 0)));
    assert!(failures(&ev).is_empty(), "{ev:#?}");
    assert_eq!(
        logs(&ev),
        ["step to 1 seen 1", "step to 2 seen 2"],
        "{ev:#?}"
    );
}

#[test]
fn a_hook_that_uses_no_global_fails_at_its_line_and_its_budget_holds() {
    // Called straight from the host (no environment, issue 24's fast path): a runtime error and
    // a spent budget are each reported at the script's line, as any other call's, and the next
    // call runs as if nothing happened.
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write(
        "triggers/bare.lua",
        r#"return trigger {
  id = "bare", name = "Bare", text = "Fails on the first square, loops on the second.",
  on = {
    step = function(game, moment)
      if moment.at.x == 1 then
        return moment.nothing.there
      elseif moment.at.x == 2 then
        while true do
        end
      end
      game:log("step to " .. moment.at.x)
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    let ev = act(&mut g, &set, walk("T", &[(1, 0), (2, 0)], (3, 0)));
    let failed = failures(&ev);
    assert_eq!(failed.len(), 2, "{ev:#?}");
    assert!(
        failed[0]
            .2
            .contains("triggers/bare.lua:6: attempt to index"),
        "{}",
        failed[0].2
    );
    assert!(
        failed[1]
            .2
            .contains("triggers/bare.lua:8: instruction budget exhausted"),
        "{}",
        failed[1].2
    );
    assert_eq!(logs(&ev), ["step to 3"], "{ev:#?}");
    assert_eq!(model(&g, "T").pos, Pos::new(3, 0));
}

#[test]
fn a_hook_gets_its_moment_through_varargs_and_one_without_a_moment_parameter_still_runs() {
    // A hook that cannot receive its moment is called without one (none is made); one that
    // takes `...` can receive it, so it gets it.
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write(
        "triggers/spread.lua",
        r#"return trigger {
  id = "spread", name = "Spread", text = "Logs each step twice.",
  on = {
    step = function(game, ...)
      local moment = ...
      game:log("spread " .. moment.at.x)
    end,
  },
}
"#,
    );
    pack.write(
        "triggers/lone.lua",
        r#"return trigger {
  id = "lone", name = "Lone", text = "Logs each step.",
  on = {
    step = function(game)
      game:log("lone " .. tostring(game.round))
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    let ev = act(&mut g, &set, walk("T", &[], (1, 0)));
    assert!(failures(&ev).is_empty(), "{ev:#?}");
    let mut seen = logs(&ev);
    seen.sort();
    assert_eq!(seen, ["lone 1", "spread 1"], "{ev:#?}");
}

#[test]
fn an_action_an_activation_start_hook_leaves_illegal_is_voided_and_the_activation_goes_on() {
    // Validate, then resolve: the hook runs between them, so the action is checked again.
    let pack = Pack::new(&[
        ("heroes/trooper.toml", HERO),
        ("heroes/medic.toml", MEDIC),
        ("aliens/grunt.lua", GRUNT),
    ]);
    pack.write(
        "triggers/sniper.lua",
        r#"return trigger {
  id = "sniper", name = "Sniper", text = "Whenever a unit activates, every alien is hit for 5.",
  on = {
    activation_start = function(game)
      for _, a in ipairs(game:aliens()) do
        game:damage(a, 5)
      end
    end,
  },
}
"#,
    );
    let set = pack.load();
    let mut g = game(&set, &[("T", "trooper", 0, 0)]);
    alien(&mut g, "G", "grunt", 3, 0, 1);
    // Legal when checked: G stands in sight and range.
    let ev = act(&mut g, &set, shoot("T", "G"));
    assert!(
        ev.iter().any(|e| matches!(e, Event::ModelKilled { .. })),
        "the hook killed G first: {ev:#?}"
    );
    assert!(
        ev.iter().any(|e| matches!(e, Event::ActionVoided { .. })),
        "{ev:#?}"
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Attack { .. })),
        "no attack on a target that is gone: {ev:#?}"
    );
    // The activation goes on: T has used no action and may still move.
    let ev = act(&mut g, &set, walk("T", &[], (1, 0)));
    assert!(
        ev.iter().any(|e| matches!(e, Event::Moved { .. })),
        "{ev:#?}"
    );
}
