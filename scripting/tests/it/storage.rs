//! RULES.md §8: scripts keep nothing between calls except in `game.storage`, which is part of
//! the game state. Globals and the chunk's own locals (upvalues of `perform`) are fresh at every
//! call; `game.storage` carries plain values from one call to the next, is written back also
//! when a call fails, and refuses what is not plain (the behaviour fails, the storage keeps its
//! earlier value).

use crate::common;
use common::*;
use overmind_core::storage::{Key, Value};
use overmind_core::*;

/// The Hero's step reveals three Blips R, S and T, each a one-model "subject" unit whose only
/// behaviour is `source` (id "subject"): three calls of the script, one after the other.
fn three_calls(source: &str) -> Played {
    let mut c = world(Flavour::Lua);
    let h = host();
    install_source(&h, &mut c, "tests/subject.lua", source);
    c.aliens
        .insert("subject".into(), alien("subject", 1, 4, &["subject"]));
    let mut s = Scene::new(open(12, 6)).die(all_blanks());
    s.heroes = vec![("H", "brawler", [0, 2])];
    s.blips = vec![
        ("R", [6, 1], "subject", 1),
        ("S", [6, 4], "subject", 1),
        ("T", [9, 3], "subject", 1),
    ];
    s.steps = vec![mv("H", 1, 2)];
    play(&s, &c)
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

fn behaviour(body: &str) -> String {
    format!(
        "return behaviour {{\n  id = \"subject\", name = \"SUBJECT\", text = \"Counts.\",\n  \
         perform = function(unit, game)\n{body}\n  end,\n}}"
    )
}

fn count(n: i64) -> Value {
    Value::Table(vec![(Key::Str("n".into()), Value::Int(n))])
}

#[test]
fn a_count_kept_in_a_global_is_one_at_every_call() {
    let p = three_calls(&behaviour(
        "    calls = (calls or 0) + 1\n    _G.also = (_G.also or 0) + 1\n    \
         game:log(\"global \" .. calls .. \" \" .. also)",
    ));
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(logs(&p), vec!["global 1 1"; 3]);
    assert_eq!(p.game.state.storage("subject"), None, "nothing stored");
}

#[test]
fn a_count_kept_in_an_upvalue_is_refused_when_the_script_loads() {
    let src = r#"local count = 0
local seen = {}
return behaviour {
  id = "subject", name = "SUBJECT", text = "Counts in an upvalue.",
  perform = function(unit, game)
    count = count + 1
    seen[#seen + 1] = unit.id
    game:log("upvalue " .. count .. " " .. #seen)
  end,
}"#;
    let err = host()
        .load_behaviour(std::path::Path::new("tests/subject.lua"), src)
        .expect_err("a function assigning a top-level local is refused");
    let text = err.to_string();
    assert!(
        text.starts_with("tests/subject.lua:6: `count` is a local of the script's top level")
            && text.contains("game.storage"),
        "{text}"
    );
}

#[test]
fn a_table_made_at_load_is_read_only_in_calls_and_says_why() {
    let src = r#"local seen = {}
return behaviour {
  id = "subject", name = "SUBJECT", text = "Counts in a table.",
  perform = function(unit, game)
    game:log("seen " .. #seen)
    seen[#seen + 1] = unit.id
  end,
}"#;
    let p = three_calls(src);
    assert_eq!(logs(&p), vec!["seen 0"; 3]);
    let failed = failures(&p.events);
    assert_eq!(failed.len(), 3, "{failed:?}");
    for f in failed {
        assert!(
            f.contains(
                "tests/subject.lua:6: attempt to modify a table made when the script loaded"
            ) && f.contains("game.storage"),
            "{f}"
        );
    }
}

#[test]
fn state_hidden_in_loaded_chunks_metatables_and_coroutines_does_not_carry_either() {
    let p = three_calls(&behaviour(
        r#"    load("hidden = (hidden or 0) + 1")()
    local mt = getmetatable(_G) or {}
    mt.n = (mt.n or 0) + 1
    setmetatable(_G, mt)
    local co = rawequal(kept_co, nil) and coroutine.create(function()
      local i = 0
      while true do i = i + 1 coroutine.yield(i) end
    end) or kept_co
    kept_co = co
    local _, i = coroutine.resume(co)
    game:log(hidden .. " " .. mt.n .. " " .. i)"#,
    ));
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(logs(&p), vec!["1 1 1"; 3]);
}

#[test]
fn a_count_kept_in_game_storage_goes_one_two_three_and_is_in_the_game_state() {
    let p = three_calls(&behaviour(
        "    game.storage.n = (game.storage.n or 0) + 1\n    \
         game:log(\"storage \" .. game.storage.n)",
    ));
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(logs(&p), vec!["storage 1", "storage 2", "storage 3"]);
    assert_eq!(p.game.state.storage("subject"), Some(&count(3)));
    assert_eq!(
        p.game.state.all_storage().keys().collect::<Vec<_>>(),
        vec!["subject"],
        "storage is per behaviour id"
    );
    let json = serde_json::to_string(&p.game.state).expect("serialises");
    let back: GameState = serde_json::from_str(&json).expect("deserialises");
    assert_eq!(
        back.storage("subject"),
        Some(&count(3)),
        "saved with the game"
    );
}

#[test]
fn storage_is_written_back_when_the_call_fails_too() {
    let p = three_calls(&behaviour(
        "    game.storage.n = (game.storage.n or 0) + 1\n    error(\"after counting\")",
    ));
    let f = failures(&p.events);
    assert_eq!(f, vec!["tests/subject.lua:5: after counting"; 3]);
    assert_eq!(p.game.state.storage("subject"), Some(&count(3)));
}

#[test]
fn storage_holding_a_function_fails_cleanly_and_keeps_its_earlier_value() {
    // The second call (S) also leaves a function in storage: that call fails, naming where
    // the function was written, and the storage stays as the first call left it; the third
    // call sees that and counts on from it.
    let p = three_calls(&behaviour(
        r#"    game.storage.n = (game.storage.n or 0) + 1
    if unit.id == "S" then
      game.storage.later = { fn = function() return 1 end }
    end
    game:log("n " .. game.storage.n)"#,
    ));
    assert_eq!(logs(&p), vec!["n 1", "n 2", "n 2"]);
    let f = failures(&p.events);
    assert_eq!(f.len(), 1, "{:#?}", p.events);
    assert!(
        f[0].starts_with(
            "tests/subject.lua:6: game.storage.later.fn: a function (defined at \
             tests/subject.lua:6) cannot be kept"
        ),
        "{f:?}"
    );
    assert!(
        f[0].ends_with("the storage is left as it was before this call"),
        "{f:?}"
    );
    assert_eq!(p.game.state.storage("subject"), Some(&count(2)));
    let performed = performed(&p.events);
    assert_eq!(
        performed.len(),
        2,
        "the other two calls succeed: {performed:?}"
    );
}

#[test]
fn storage_that_is_not_plain_says_what_and_where() {
    for (code, want) in [
        (
            "game.storage.me = unit",
            "tests/subject.lua: game.storage.me: a Unit handle cannot be kept",
        ),
        (
            "game.storage.loop = {} game.storage.loop.again = game.storage.loop",
            "tests/subject.lua: game.storage.loop.again: the table contains itself",
        ),
        (
            "game.storage.bad = 0/0",
            "tests/subject.lua: game.storage.bad: NaN cannot be kept",
        ),
        (
            "game.storage[2.5] = 1",
            "tests/subject.lua: game.storage: a number that is not an integer cannot be a key",
        ),
        (
            "setmetatable(game.storage, {})",
            "tests/subject.lua: game.storage: a table with a metatable cannot be kept",
        ),
        (
            "for i = 1, 10001 do game.storage[i] = i end",
            "tests/subject.lua: game.storage: game.storage holds more than 10000 values",
        ),
    ] {
        let p = three_calls(&behaviour(&format!("    {code}")));
        let f = failures(&p.events);
        assert_eq!(f.len(), 3, "{code}: {:#?}", p.events);
        assert!(f[0].starts_with(want), "{code}: {f:?}");
        assert_eq!(
            p.game.state.storage("subject"),
            None,
            "{code}: nothing kept"
        );
    }
}

#[test]
fn storage_is_kept_in_key_order_whatever_order_the_script_wrote() {
    let p = three_calls(&behaviour(
        r#"    local s = game.storage
    if s.z == nil then
      s.z, s.a, s[10], s[2], s.list = true, 0.5, "ten", "two", { "x", "y" }
    else
      s.seen = (s.seen or 0) + 1
    end"#,
    ));
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    let want = Value::Table(vec![
        (Key::Int(2), Value::Str("two".into())),
        (Key::Int(10), Value::Str("ten".into())),
        (Key::Str("a".into()), Value::Num(0.5)),
        (
            Key::Str("list".into()),
            Value::Table(vec![
                (Key::Int(1), Value::Str("x".into())),
                (Key::Int(2), Value::Str("y".into())),
            ]),
        ),
        (Key::Str("seen".into()), Value::Int(2)),
        (Key::Str("z".into()), Value::Bool(true)),
    ]);
    assert_eq!(p.game.state.storage("subject"), Some(&want));
}

#[test]
fn an_emptied_storage_is_forgotten() {
    let p = three_calls(&behaviour(
        "    if game.storage.n then game.storage.n = nil else game.storage.n = 1 end\n    \
         game:log(tostring(game.storage.n))",
    ));
    assert_eq!(logs(&p), vec!["1", "nil", "1"]);
    assert_eq!(p.game.state.storage("subject"), Some(&count(1)));
}

#[test]
fn game_storage_itself_cannot_be_replaced_and_says_what_to_do() {
    let p = three_calls(&behaviour("    game.storage = { n = 1 }"));
    assert_eq!(
        failures(&p.events),
        vec![
            "tests/subject.lua:4: game.storage cannot be assigned: Game handles are read-only \
             (change what it holds instead: game.storage.x = ..., or set its keys to nil)";
            3
        ]
    );
    let p = three_calls(&behaviour("    unit.id = \"mine\""));
    assert_eq!(
        failures(&p.events)[0],
        "tests/subject.lua:4: unit.id cannot be assigned: Unit handles are read-only"
    );
}

/// Loads `src` as a behaviour and returns the error it is refused with.
fn refused(src: &str) -> String {
    match host().load_behaviour(std::path::Path::new("tests/subject.lua"), src) {
        Ok(_) => panic!("loads, but should be refused:\n{src}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn every_way_to_keep_state_outside_game_storage_is_refused_or_forgotten() {
    // A coroutine made when the script loads would keep its stack.
    let e = refused(
        "local co = coroutine.create(function() end)\nreturn behaviour { id = \"subject\", \
         name = \"S\", text = \"T\", perform = function() coroutine.resume(co) end }",
    );
    assert!(e.contains("a coroutine made when the script loaded"), "{e}");
    // Assigning the script's environment from a function.
    let e = refused(
        "return behaviour { id = \"subject\", name = \"S\", text = \"T\",\n  perform = \
         function() _ENV = { game = 1 } end }",
    );
    assert!(
        e.starts_with("tests/subject.lua:2: `_ENV` is the script's environment"),
        "{e}"
    );
    // A local function replaced from inside another.
    let e = refused(
        "local function step() end\nreturn behaviour { id = \"subject\", name = \"S\", text = \
         \"T\",\n  perform = function() step = nil end }",
    );
    assert!(
        e.starts_with("tests/subject.lua:3: `step` is a local"),
        "{e}"
    );
}

#[test]
fn tables_reached_from_the_definition_globals_and_metatables_are_read_only() {
    // Each call tries one write; each fails at its line, and the next call sees the table as
    // it was loaded.
    let src = r#"local Counter = {}
Counter.__index = Counter
local shared = setmetatable({ n = 0 }, Counter)
config = { n = 0 }
local def = { id = "subject", name = "SUBJECT", text = "Tries." }
def.perform = function(unit, game)
  game:log(shared.n .. " " .. config.n .. " " .. def.name .. " " .. tostring(getmetatable(shared) == Counter))
  local ok1 = pcall(function() shared.n = shared.n + 1 end)
  local ok2 = pcall(function() config.n = config.n + 1 end)
  local ok3 = pcall(function() def.name = "OTHER" end)
  local ok4 = pcall(function() Counter.hits = 1 end)
  local ok5 = pcall(function() getmetatable(shared).hits = 1 end)
  local ok6 = pcall(setmetatable, shared, nil)
  local obj = setmetatable({}, Counter)
  game:log(tostring(ok1) .. tostring(ok2) .. tostring(ok3) .. tostring(ok4) .. tostring(ok5) .. tostring(ok6) .. " " .. tostring(obj.n))
end
return behaviour(def)"#;
    let p = three_calls(src);
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    let l = logs(&p);
    assert_eq!(l.len(), 6, "{l:?}");
    for pair in l.chunks(2) {
        assert_eq!(pair[0], "0 0 SUBJECT true");
        // Reading through the class's `__index` still works on objects made in a call.
        assert_eq!(pair[1], "falsefalsefalsefalsefalsefalse nil");
    }
}

#[test]
fn a_scripts_globals_and_helpers_from_the_top_level_work_in_every_call() {
    let src = r#"LIMIT = 3
function twice(x) return x * 2 end
local helpers = { add = function(a, b) return a + b end }
return behaviour {
  id = "subject", name = "SUBJECT", text = "Reads.",
  perform = function(unit, game)
    scratch = (scratch or 0) + 1
    local loaded = load("return LIMIT + 1")()
    game:log(twice(LIMIT) .. " " .. helpers.add(1, 2) .. " " .. scratch .. " " .. loaded .. " " .. tostring(_G.twice == twice))
  end,
}"#;
    let p = three_calls(src);
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(logs(&p), vec!["6 3 1 4 true"; 3]);
}

#[test]
fn a_script_whose_functions_only_read_globals_reads_the_same_ones_in_every_call() {
    // Its calls share one read-only environment (no scratch table): the top level's globals,
    // the library and an unset global read the same at every call.
    let src = r#"LIMIT = 3
function twice(x) return x * 2 end
local function fmt(...) return table.concat({ ... }, " ") end
return behaviour {
  id = "subject", name = "SUBJECT", text = "Reads.",
  perform = function(unit, game)
    game:log(fmt(twice(LIMIT), math.max(1, LIMIT), tostring(unset), type(ipairs)))
  end,
}"#;
    let p = three_calls(src);
    assert!(failures(&p.events).is_empty(), "{:#?}", p.events);
    assert_eq!(logs(&p), vec!["6 3 nil function"; 3]);
}

#[test]
fn math_random_at_a_scripts_top_level_still_raises() {
    let e = refused(
        "local r = math.random(6)\nreturn behaviour { id = \"subject\", name = \"S\", text = \
         \"T\", perform = function() end }",
    );
    assert!(
        e.starts_with("tests/subject.lua:1:")
            && e.contains("only available while the game is running"),
        "{e}"
    );
}
