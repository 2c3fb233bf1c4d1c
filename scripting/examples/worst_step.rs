//! The longest game step and the largest game a hostile pack can make under the default rules
//! (issue 23; docs/SANDBOX.md, "The longest step and the largest game").
//!
//! ```text
//! cargo run --release -p overmind-scripting --example worst_step            # about 1.5 minutes
//! cargo run --release -p overmind-scripting --example worst_step -- --full  # and one whole call
//!                                                                           # of the costliest
//!                                                                           # instruction: about
//!                                                                           # 10 minutes more
//! ```
//!
//! Each scenario writes a pack into a temp dir, loads it with the base pack
//! (`PackSet::load(&[base, dir])`), starts the demo mission with the default rules and times one
//! `Game::apply` at a time (wall time and the thread's CPU time from
//! `/proc/thread-self/schedstat`). The scenarios:
//!
//! 1. `calls`: one hook call that spends its whole budget (1,000,000 instructions) in each of
//!    the costliest ways a script has: equal 64 KiB strings compared in a loop and in nested
//!    `if`s (one VM instruction per comparison), lookups among 255 colliding integer keys,
//!    lookups among 255 colliding 64 KiB string keys (every lookup compares the key with each
//!    of them: 255 × 64 KiB of `memcmp` in one instruction), pattern matching, tables, the map
//!    searches of the game API, and reading a full `game.storage`.
//! 2. `pools`: one step that spends both of its pools: hooks on `step`, `round_start`,
//!    `after_damage` and `killed` in three public triggers and a face-down Hidden Agenda card,
//!    nesting damage → `after_damage` → damage ... to `max_behaviour_depth`, each burning its
//!    budget on nested string comparisons: a Hero's Move, then the `End` that starts round 2.
//! 3. `fan-out`: the calls a step makes once its pool is spent. Each starts with no budget, but
//!    runs until the count hook's next tick (up to 1000 instructions), and those can be lookups
//!    among colliding 64 KiB keys. A call that is still running (its own budget) may cause
//!    `max_effects` effects, each firing every listening hook.
//! 4. `flood`: the events and log text one step can add: calls that each log their 16 KiB,
//!    nested; and calls at the deepest level whose damage fires listeners that are refused for
//!    the depth, one `trigger_failed` event each, without running any Lua.
//! 5. `growth`: 12 rounds of the demo (the Heroes' greedy AI; the Overmind only ends its
//!    activations, so the game lasts) with hooks that place tokens to `max_tokens`, modifiers to
//!    `max_modifiers`, units to `max_units`, fill every script's `game.storage` to its limits
//!    and log to the per-call cap in every call, with control characters, which JSON writes
//!    six bytes each.

use overmind_core::ai::{player, AiController, Level};
use overmind_core::event::Event;
use overmind_core::{Action, Controllers, FirstOption, Game, HeroesView, Pos, Side, View};
use overmind_scripting::pack::PackSet;
use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The per-call instruction budget of the default rules (`lua_instructions`).
const CALL: u64 = 1_000_000;

// ---------------------------------------------------------------------------------------------
// Lua. Every script starts with COMMON and one `burn`; `@SFX@` is filled in by the host.

/// Helpers every hostile script has.
const COMMON: &str = r#"-- Hostile content written by scripting/examples/worst_step.rs (docs/SANDBOX.md).
-- 256 suffixes of 3 bytes: the 64 KiB strings ("x" * 65533) .. suffix share one hash chain in a
-- table of up to 256 keys (Lua's string hash is seeded with a constant, docs/SANDBOX.md
-- "Determinism"), so looking the last one up compares it with every other: 64 KiB of memcmp
-- each.
local SFX = "@SFX@"

-- A Hero with Health to spare.
local function hero(game)
  for _, h in ipairs(game:heroes()) do
    if h.health > 2 then
      return h
    end
  end
end

-- One level deeper, `times` times: hurt a Hero and heal it, which fires every after_damage hook
-- (the public ones and the face-down card's) nested in this call. `n` is the damage dealt, which
-- the hooks it fires read as `moment.amount`.
local function nest(game, times, n)
  local h = hero(game)
  if h == nil then
    return
  end
  for _ = 1, times do
    game:damage(h, n or 1)
    game:heal(h, n or 1)
  end
end

-- Two equal 64 KiB strings, made without a host call (so that even a call left no budget by
-- its step gets them before the count hook's first tick).
local function twins()
  local a, b = "xxxxxxxx", "xxxxxxxx"
  for _ = 1, 13 do
    a = a .. a
    b = b .. b
  end
  return a, b
end

-- A table of `keys` (up to 255) 64 KiB string keys in one hash chain, and a 64 KiB key that is
-- not in it but has the same main position.
local function chain(keys)
  local s = "xxxxxxxx"
  for _ = 1, 13 do
    s = s .. s
  end
  local base = s:sub(4)
  local t = {}
  for i = 1, keys do
    t[base .. SFX:sub(3 * i - 2, 3 * i)] = true
  end
  return t, base .. SFX:sub(766, 768)
end

-- `game:log`'s cap for one call: 32 lines of 500 control characters (16,000 bytes; JSON writes
-- each as \u0001), and one line over it (a log_truncated event).
local function spam(game)
  local line = string.rep("\1", 500)
  for _ = 1, 33 do
    game:log(line)
  end
end

-- game.storage to its limits: 10,000 values (the table and 9,999 strings) and 1 MiB of string
-- bytes (9,999 * 104 = 1,039,896), control characters again.
local function hoard(game)
  local s = game.storage
  if #s < 9999 then
    local v = string.rep("\2", 104)
    for i = #s + 1, 9999 do
      s[i] = v
    end
  end
end
"#;

/// `burn(iters)`: `iters` rounds (nil: until the budget ends) of the costliest instruction of
/// a kind. Every variant unrolls its instruction 50 times a round.
fn burn(kind: &str) -> String {
    let fifty = |s: &str| s.repeat(50);
    let body = match kind {
        // The documented worst case: a loop of one comparison (EQ, JMP, ADDI, JMP: one in four
        // instructions compares).
        "strcmp-loop" => "local a, b = twins()\n  local n = 0\n  for _ = 1, iters or math.huge do\n    if a == b then n = n + 1 end\n  end".to_string(),
        // Nested ifs: a comparison that holds skips its jump inside the same instruction, so
        // every counted instruction compares 64 KiB.
        "strcmp" => format!(
            "local a, b = twins()\n  local n = 0\n  for _ = 1, iters or math.huge do\n    {}n = n + 1 {}\n  end",
            fifty("if a == b then "),
            fifty("end ")
        ),
        "int-keys" => format!(
            "local t = {{}}\n  for i = 1, 255 do t[i * 255] = i end\n  local k, v = 256 * 255, nil\n  for _ = 1, iters or math.huge do\n    {}\n  end",
            fifty("v = t[k] ")
        ),
        "long-keys" => format!(
            "local t, k = chain(keys or 255)\n  local v\n  for _ = 1, iters or math.huge do\n    {}\n  end",
            fifty("v = t[k] ")
        ),
        "patterns" => "local s = string.rep(\"a\", 60000)\n  for _ = 1, iters or math.huge do\n    local _ = s:find(\".-.-.-.-.-b\")\n    local r = s:gsub(\"a\", \"b\")\n    local _ = r:match(\"^(b*)c\")\n    local _ = string.rep(\"ab\", 30000)\n  end".to_string(),
        "tables" => "local keep = {}\n  for i = 1, iters or math.huge do\n    keep[i % 4096 + 1] = { i, { i }, { x = i, y = i }, \"k\" .. i % 97 }\n  end".to_string(),
        "api" => "local hs = game:heroes()\n  local a, b = hs[1], hs[#hs]\n  local u = game:unit(a.unit)\n  for _ = 1, iters or math.huge do\n    game:path_distance(a, b)\n    game:steps_to_adjacent(a, b)\n    game:visible_heroes(u)\n    game:closest(u, hs)\n    game:los(a, b)\n  end".to_string(),
        "storage" => "hoard(game)\n  local s = game.storage\n  for _ = 1, iters or math.huge do\n    local n = 0\n    for i = 1, #s do n = n + #s[i] end\n  end".to_string(),
        other => panic!("no burn {other}"),
    };
    format!("local function burn(game, iters, keys)\n  {body}\nend\n")
}

/// A script: COMMON with the suffixes, a burn, then `tail` (which returns the definition).
fn script(sfx: &str, kind: &str, tail: &str) -> String {
    format!("{}\n{}\n{tail}", COMMON.replace("@SFX@", sfx), burn(kind))
}

fn trigger(id: &str, hooks: &str) -> String {
    format!(
        "return trigger {{\n  id = \"{id}\",\n  name = \"{id}\",\n  text = \"Hostile.\",\n  on = {{\n{hooks}\n  }},\n}}\n"
    )
}

fn card(id: &str, hooks: &str) -> String {
    format!(
        "return card {{\n  id = \"{id}\",\n  name = \"{id}\",\n  text = \"Hidden Agenda: hostile.\",\n  deck = \"hidden_agenda\",\n  on = {{\n{hooks}\n  }},\n}}\n"
    )
}

// ---------------------------------------------------------------------------------------------
// Packs, games, measures.

struct Pack {
    _tmp: tempfile::TempDir,
    set: PackSet,
}

/// The base pack and a pack `hostile` of `files` in a temp dir.
fn pack(files: &[(String, String)]) -> Pack {
    let tmp = tempfile::tempdir().expect("a temp dir");
    let dir = tmp.path().join("hostile");
    let mut all = vec![(
        "pack.toml".to_string(),
        "name = \"hostile\"\nversion = \"0.1.0\"\n".to_string(),
    )];
    all.extend(files.iter().cloned());
    for (rel, text) in &all {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("a folder");
        }
        fs::write(&path, text).expect("a file");
    }
    let base = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../behaviours"));
    let set = match PackSet::load(&[base, dir]) {
        Ok(s) => s,
        Err(ps) => {
            for p in ps {
                eprintln!("{p}");
            }
            panic!("the hostile pack does not load");
        }
    };
    Pack { _tmp: tmp, set }
}

/// The demo, seed 1, with the card `agenda` dealt face down.
fn demo(p: &Pack, agenda: Option<&str>) -> Game {
    let mut g = match p.set.start("demo", 1) {
        Ok(g) => g,
        Err(ps) => panic!("the demo does not start: {ps:?}"),
    };
    // The figures are the default rules'.
    let r = &g.state.rules;
    assert_eq!(
        (
            r.lua_instructions,
            r.lua_step_instructions,
            r.max_behaviour_depth,
            r.lua_memory_mib,
            r.max_effects,
            r.max_tokens,
            r.max_modifiers,
            r.max_units
        ),
        (CALL, 10_000_000, 4, 64, 1_000, 500, 500, 200),
        "the demo's rules are not the defaults these figures are for"
    );
    g.state.cards.agenda = agenda.map(Into::into);
    g.state.cards.agenda_revealed = false;
    g
}

fn controllers() -> Controllers {
    Controllers::new(Box::new(FirstOption), Box::new(AiController))
}

/// The CPU time this thread has had.
fn cpu() -> Duration {
    if let Ok(s) = fs::read_to_string("/proc/thread-self/schedstat") {
        if let Some(ns) = s.split_whitespace().next().and_then(|v| v.parse().ok()) {
            return Duration::from_nanos(ns);
        }
    }
    // utime + stime, in clock ticks (100 a second on Linux).
    let stat = fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<u64> = after
        .split_whitespace()
        .map(|v| v.parse().unwrap_or(0))
        .collect();
    Duration::from_millis((f.get(11).unwrap_or(&0) + f.get(12).unwrap_or(&0)) * 10)
}

/// A `/proc/self/status` field in KiB (`VmHWM`: the peak resident set).
fn status_kib(field: &str) -> u64 {
    fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| {
            l.strip_prefix(field)?
                .trim_start_matches(':')
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

/// Bytes `value` takes as JSON (`serde_json::to_vec(value).len()`, without the buffer).
fn json_len<T: serde::Serialize + ?Sized>(value: &T) -> u64 {
    struct Count(u64);
    impl Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len() as u64;
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    serde_json::to_writer(&mut c, value).expect("serializable");
    c.0
}

/// What one `Game::apply` did.
#[derive(Clone, Debug, Default)]
struct Step {
    what: String,
    wall: Duration,
    cpu: Duration,
    events: usize,
    /// Calls that spent a whole per-call budget.
    full: u64,
    /// Calls cut short by their step's pool, and the instructions they were given.
    cut: u64,
    cut_instructions: u64,
    /// Calls given nothing (the pool was spent when they started).
    starved: u64,
    /// Hooks refused for the depth (no Lua ran).
    too_deep: u64,
    /// Other failures (memory, an effect over a cap, ...).
    other: u64,
    /// Of these, the face-down card `sly`'s (its own pool), and the instructions they were given.
    hidden_failed: u64,
    hidden_instructions: u64,
    /// The card's calls that returned (each spent [`HIDDEN_CALL`]).
    hidden_returned: u64,
    /// `log` lines and their bytes.
    log_lines: u64,
    log_bytes: u64,
    /// The step's events as JSON.
    json: u64,
    /// Lua memory in use after it.
    lua_mem: usize,
}

impl Step {
    /// The instructions the step's calls spent: the failed ones ran to their limits; the
    /// card's calls that returned spent [`HIDDEN_CALL`] each (others that returned, none here
    /// but the cheap ones of scenarios 3 and 4, are not counted).
    fn instructions(&self) -> u64 {
        self.full * CALL + self.cut_instructions + self.hidden_returned * HIDDEN_CALL
    }

    /// Of these, the face-down card's (its pool).
    fn hidden(&self) -> u64 {
        self.hidden_instructions + self.hidden_returned * HIDDEN_CALL
    }
}

fn measure(g: &mut Game, p: &Pack, ctl: &mut Controllers, action: Action, what: &str) -> Step {
    let wall = Instant::now();
    let cpu0 = cpu();
    let result = g.apply(action.clone(), &p.set.content, ctl);
    let (wall, cpu) = (wall.elapsed(), cpu() - cpu0);
    let ev = match result {
        Ok(ev) => ev,
        Err(e) => panic!("{action:?} refused: {e}"),
    };
    let mut s = Step {
        what: what.to_string(),
        wall,
        cpu,
        events: ev.len(),
        json: json_len(&ev),
        lua_mem: p.set.host.sandbox().used_memory(),
        ..Step::default()
    };
    for e in &ev {
        match e {
            Event::TriggerFailed { reason, source, .. } => {
                if source.as_str() == "sly" {
                    s.hidden_failed += 1;
                    s.hidden_instructions += left_for_call(reason).unwrap_or(
                        if reason.contains("the call ran more than") {
                            CALL
                        } else {
                            0
                        },
                    );
                }
                if reason.contains("nested too deep") {
                    s.too_deep += 1;
                } else if reason.contains("the call ran more than") {
                    s.full += 1;
                } else if let Some(n) = left_for_call(reason) {
                    if n == 0 {
                        s.starved += 1;
                    } else {
                        s.cut += 1;
                        s.cut_instructions += n;
                    }
                } else {
                    s.other += 1;
                    if s.other <= 3 {
                        eprintln!("    ({what}: {reason})");
                    }
                }
            }
            Event::Log { message, .. } => {
                s.log_lines += 1;
                s.log_bytes += message.len() as u64;
            }
            _ => {}
        }
    }
    s
}

/// N of "this game step's scripts had N instructions left for this call".
fn left_for_call(reason: &str) -> Option<u64> {
    let (_, after) = reason.split_once("scripts had ")?;
    after.split_whitespace().next()?.parse().ok()
}

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

fn print_step(s: &Step) {
    println!(
        "  {:<44} cpu {:>9}  wall {:>9}  events {:>8}  calls: {} full, {} cut ({} instr), {} returned (card), {} starved, {} too deep, {} other; ~{:.1}M instructions ({:.1}M the card's); log {} lines {}; events as JSON {}; Lua memory {}",
        s.what,
        secs(s.cpu),
        secs(s.wall),
        s.events,
        s.full,
        s.cut,
        s.cut_instructions,
        s.hidden_returned,
        s.starved,
        s.too_deep,
        s.other,
        s.instructions() as f64 / 1e6,
        s.hidden() as f64 / 1e6,
        s.log_lines,
        mib(s.log_bytes),
        mib(s.json),
        mib(s.lua_mem as u64),
    );
}

/// The scout's Move of `squares` squares north (16,17 → 16,17 - squares).
fn scout_north(squares: i32) -> Action {
    Action::Move {
        unit: "scout".into(),
        to: Pos::new(16, 17 - squares),
        via: Vec::new(),
    }
}

/// `End` until round `round` has begun; every step measured.
fn end_until_round(g: &mut Game, p: &Pack, ctl: &mut Controllers, round: u32) -> Vec<Step> {
    let mut steps = Vec::new();
    for i in 0..1000 {
        if g.state.round >= round || g.state.is_over() {
            break;
        }
        steps.push(measure(g, p, ctl, Action::End, &format!("End #{i}")));
    }
    steps
}

// ---------------------------------------------------------------------------------------------
// The colliding keys.

/// Lua 5.4's `luaS_hash` (lstring.c).
fn lua_hash_step(h: u32, c: u8) -> u32 {
    h ^ (h << 5).wrapping_add(h >> 2).wrapping_add(u32::from(c))
}

/// 256 suffixes of 3 letters or digits whose strings `"x" * 65533 .. suffix` have the same
/// hash modulo 256 with the workspace's fixed seed 0x5eed (`.cargo/config.toml`), so they share
/// one main position in any table of up to 256 hash slots.
fn colliding_suffixes() -> String {
    const LEN: usize = 65_536;
    const LANES: usize = 16;
    let alpha: Vec<u8> = (b'a'..=b'z')
        .chain(b'A'..=b'Z')
        .chain(b'0'..=b'9')
        .collect();
    let mut all = Vec::new();
    for &a in &alpha {
        for &b in &alpha {
            for &c in &alpha {
                all.push([a, b, c]);
            }
        }
    }
    let mut buckets: Vec<Vec<[u8; 3]>> = vec![Vec::new(); 256];
    for batch in all.chunks(LANES) {
        let mut h = [0u32; LANES];
        for (lane, sfx) in batch.iter().enumerate() {
            // The hash runs from the last byte to the first.
            let mut x = 0x5eed_u32 ^ (LEN as u32);
            for &ch in sfx.iter().rev() {
                x = lua_hash_step(x, ch);
            }
            h[lane] = x;
        }
        for _ in 0..LEN - 3 {
            for x in &mut h {
                *x = lua_hash_step(*x, b'x');
            }
        }
        for (lane, sfx) in batch.iter().enumerate() {
            let bucket = &mut buckets[(h[lane] & 255) as usize];
            bucket.push(*sfx);
            if bucket.len() == 256 {
                return bucket
                    .iter()
                    .map(|s| String::from_utf8_lossy(s).into_owned())
                    .collect();
            }
        }
    }
    panic!("no 256 colliding suffixes");
}

// ---------------------------------------------------------------------------------------------
// 1. One call.

/// One `step` hook call burning with `kind`, `iters` rounds (nil: its whole budget): the
/// scout's Move of one square.
fn one_call(sfx: &str, kind: &str, iters: Option<u64>) -> Step {
    let arg = iters.map_or("nil".to_string(), |n| n.to_string());
    let hooks = format!("    step = function(game, moment)\n      burn(game, {arg})\n    end,");
    let p = pack(&[(
        "triggers/probe.lua".into(),
        script(sfx, kind, &trigger("probe", &hooks)),
    )]);
    let mut g = demo(&p, None);
    let mut ctl = controllers();
    let what = match iters {
        Some(n) => format!("{kind}, {n} x 50 lookups"),
        None => format!("{kind}, whole budget"),
    };
    measure(&mut g, &p, &mut ctl, scout_north(1), &what)
}

/// What scenario 1 found: the costliest call run whole, the CPU time of one lookup among
/// colliding 64 KiB keys, and (with `--full`) of a whole call of them.
struct Calls {
    worst: Step,
    per_lookup: f64,
    long_call: Option<f64>,
}

fn calls(sfx: &str, full: bool) -> Calls {
    println!("\n1. One hook call spending its whole budget (1,000,000 instructions):");
    let mut worst = Step::default();
    for kind in [
        "strcmp-loop",
        "strcmp",
        "int-keys",
        "patterns",
        "tables",
        "api",
        "storage",
    ] {
        let s = one_call(sfx, kind, None);
        print_step(&s);
        if s.cpu > worst.cpu {
            worst = s;
        }
    }
    // 255 colliding 64 KiB keys: the lookups are timed over a few rounds, then extrapolated.
    let short = one_call(sfx, "long-keys", Some(4));
    let long = one_call(sfx, "long-keys", Some(24));
    print_step(&short);
    print_step(&long);
    let per_lookup = (long.cpu.as_secs_f64() - short.cpu.as_secs_f64()) / (20.0 * 50.0);
    println!(
        "  long-keys: {:.3} ms of CPU a lookup (one VM instruction): a whole call of ~1,000,000 would take ~{:.0} s",
        per_lookup * 1e3,
        per_lookup * CALL as f64
    );
    let mut long_call = None;
    if full {
        let s = one_call(sfx, "long-keys", None);
        print_step(&s);
        long_call = Some(s.cpu.as_secs_f64());
        if s.cpu > worst.cpu {
            worst = s;
        }
    }
    Calls {
        worst,
        per_lookup,
        long_call,
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Both pools.

/// Public hooks: nest one level (damage → after_damage ...), and in a step or round_start hook
/// also spawn a Stalker and kill it (killed hooks); then burn until the call's budget ends.
const PUBLIC_HOOKS: &str = r#"    step = function(game, moment)
      nest(game, 1)
      kill(game)
      burn(game)
    end,
    round_start = function(game, moment)
      if moment.round == 1 then
        return
      end
      nest(game, 1)
      kill(game)
      burn(game)
    end,
    after_damage = function(game, moment)
      nest(game, 1)
      burn(game)
    end,
    killed = function(game, moment)
      nest(game, 1)
      burn(game)
    end,"#;

const KILL: &str = r#"
-- Spawn a Stalker in the north and kill it: every killed hook runs nested in this call.
local function kill(game)
  for x = 0, 19 do
    local ok, u = pcall(game.spawn_unit, game, "stalker", { x = x, y = 0 }, 1)
    if ok and u then
      game:damage(u:models()[1], 20)
      return
    end
  end
end
"#;

/// The face-down card's hooks act on nothing (acting would turn it up, and its later hooks
/// would be public): each burns `@N@` rounds, most of a call's budget, and returns.
const HIDDEN_HOOKS: &str = r#"    step = function(game)
      burn(game, @N@)
      done(game)
    end,
    round_start = function(game, moment)
      if moment.round > 1 then
        burn(game, @N@)
        done(game)
      end
    end,
    after_damage = function(game)
      burn(game, @N@)
      done(game)
    end,
    killed = function(game)
      burn(game, @N@)
      done(game)
    end,"#;

/// Counts the card's calls that returned in its storage, so that what they spent (not in any
/// event) can be added up.
const DONE: &str = r#"
local function done(game)
  game.storage.done = (game.storage.done or 0) + 1
end
"#;

/// Rounds of the card's burn (52 instructions each: 50 comparisons, the counter, the loop),
/// and the instructions such a call spends with its setup.
const HIDDEN_ROUNDS: u64 = 18_000;
const HIDDEN_CALL: u64 = HIDDEN_ROUNDS * 52 + 5_000;

/// The card `id`'s `game.storage.done`.
fn stored_done(g: &Game, id: &str) -> u64 {
    use overmind_core::storage::{Key, Value};
    match g.state.storage(id) {
        Some(Value::Table(entries)) => entries
            .iter()
            .find_map(|(k, v)| match (k, v) {
                (Key::Str(k), Value::Int(n)) if k == "done" => u64::try_from(*n).ok(),
                _ => None,
            })
            .unwrap_or(0),
        _ => 0,
    }
}

fn pools(sfx: &str) -> Vec<Step> {
    println!("\n2. One step spending both pools (3 public triggers and a face-down card, nested string comparisons):");
    let mut files = Vec::new();
    for i in 1..=3 {
        let tail = format!("{KILL}\n{}", trigger(&format!("hostile_{i}"), PUBLIC_HOOKS));
        files.push((
            format!("triggers/hostile_{i}.lua"),
            script(sfx, "strcmp", &tail),
        ));
    }
    let hidden = HIDDEN_HOOKS.replace("@N@", &HIDDEN_ROUNDS.to_string());
    files.push((
        "cards/sly.lua".into(),
        script(sfx, "strcmp", &format!("{DONE}\n{}", card("sly", &hidden))),
    ));
    let p = pack(&files);
    let mut g = demo(&p, Some("sly"));
    let mut ctl = controllers();
    let before = stored_done(&g, "sly");
    let mut mv = measure(
        &mut g,
        &p,
        &mut ctl,
        scout_north(5),
        "the scout's Move of 5 squares",
    );
    mv.hidden_returned = stored_done(&g, "sly") - before;
    print_step(&mv);
    // The card's hooks were cut short by its pool and turned it up; face down again, it has a
    // pool of its own in the next step too.
    g.state.cards.agenda_revealed = false;
    let before = stored_done(&g, "sly");
    let mut ends = end_until_round(&mut g, &p, &mut ctl, 2);
    let mut last = ends.pop().expect("an End started round 2");
    last.what = "the End that starts round 2".into();
    last.hidden_returned = stored_done(&g, "sly") - before;
    print_step(&last);
    if let Some(s) = ends.iter().max_by_key(|s| s.cpu) {
        println!(
            "  ({} other End steps, the slowest {} of CPU)",
            ends.len(),
            secs(s.cpu)
        );
    }
    vec![mv, last]
}

// ---------------------------------------------------------------------------------------------
// 3. Fan-out after the pool is spent.

fn fan_out(sfx: &str, listeners: usize, damages: usize) -> Step {
    println!("\n3. Calls after the pool is spent ({listeners} listening triggers, {damages} damages by a call still running):");
    // The driver (a step hook): 11 damages of 1, each running `drain`'s after_damage, a plain
    // loop that spends a whole call (the public pool is spent after 10), then `damages`
    // damages of 2, each firing every listener with no budget left.
    let driver = trigger(
        "a_driver",
        &format!("    step = function(game)\n      nest(game, 11, 1)\n      nest(game, {damages}, 2)\n    end,"),
    );
    let drain = trigger(
        "b_drain",
        "    after_damage = function(game, moment)\n      if moment.amount == 1 then\n        while true do\n        end\n      end\n    end,",
    );
    // Each listener: nothing while the pool lasts; then 40 colliding 64 KiB keys and lookups,
    // as many as the instructions before the count hook's first tick allow.
    let listen = "    after_damage = function(game, moment)\n      if moment.amount == 2 then\n        burn(game, nil, 40)\n      end\n    end,";
    let mut files = vec![
        (
            "triggers/a_driver.lua".to_string(),
            script(sfx, "long-keys", &driver),
        ),
        (
            "triggers/b_drain.lua".to_string(),
            script(sfx, "long-keys", &drain),
        ),
    ];
    for i in 0..listeners {
        files.push((
            format!("triggers/c_listen_{i}.lua"),
            script(sfx, "long-keys", &trigger(&format!("c_listen_{i}"), listen)),
        ));
    }
    let p = pack(&files);
    let mut g = demo(&p, None);
    let mut ctl = controllers();
    let s = measure(
        &mut g,
        &p,
        &mut ctl,
        scout_north(1),
        "the scout's Move of 1 square",
    );
    print_step(&s);
    let each = s.cpu.as_secs_f64() / s.starved.max(1) as f64;
    println!(
        "  {} calls given no budget: {:.1} ms of CPU each (the step's whole CPU time over them); \
         3 running calls (depths 1 to 3) x max_effects 1,000 x {listeners} listeners would make \
         {} such calls, ~{:.0} s",
        s.starved,
        each * 1e3,
        3 * 1000 * listeners,
        each * (3 * 1000 * listeners) as f64
    );
    s
}

// ---------------------------------------------------------------------------------------------
// 4. Events and log of one step.

fn flood(sfx: &str, ears: usize) -> (Step, Step) {
    println!("\n4. Events and log text of one step:");
    // (a) Every call logs its 16 KiB and then nests 20 times.
    let spammer = trigger(
        "spammer",
        "    step = function(game)\n      spam(game)\n      nest(game, 20)\n    end,\n    after_damage = function(game)\n      spam(game)\n      nest(game, 20)\n    end,",
    );
    let p = pack(&[(
        "triggers/spammer.lua".to_string(),
        script(sfx, "strcmp", &spammer),
    )]);
    let mut g = demo(&p, None);
    let mut ctl = controllers();
    let a = measure(
        &mut g,
        &p,
        &mut ctl,
        scout_north(1),
        "(a) every call logs 16 KiB and nests",
    );
    print_step(&a);
    // (b) Calls 500 damages deep; at the deepest level each damage's `ears` listeners are
    // refused for the depth.
    let deep = trigger(
        "deep",
        "    step = function(game)\n      nest(game, 1)\n    end,\n    after_damage = function(game)\n      nest(game, 500)\n    end,",
    );
    let mut files = vec![(
        "triggers/deep.lua".to_string(),
        script(sfx, "strcmp", &deep),
    )];
    for i in 0..ears {
        files.push((
            format!("triggers/ear_{i}.lua"),
            format!("return trigger {{ id = \"ear_{i}\", name = \"ear\", text = \"Listens.\", on = {{ after_damage = function() end }} }}\n"),
        ));
    }
    let p = pack(&files);
    let mut g = demo(&p, None);
    let mut ctl = controllers();
    let b = measure(
        &mut g,
        &p,
        &mut ctl,
        scout_north(1),
        &format!("(b) 500 damages a call, {ears} more listeners"),
    );
    print_step(&b);
    (a, b)
}

// ---------------------------------------------------------------------------------------------
// 5. A game grown to the caps.

const GROW: &str = r#"
local function squares(game)
  local out = {}
  for y = 0, game.height - 1 do
    for x = 0, game.width - 1 do
      out[#out + 1] = { x = x, y = y }
    end
  end
  return out
end

-- Tokens to max_tokens, one-model units to max_units (the rules' errors say when a cap is
-- reached; the rules are not readable from Lua).
local function grow(game)
  local all = squares(game)
  for i = 1, #all * 2 do
    local ok, e = pcall(game.place_token, game, "dust", all[(i - 1) % #all + 1])
    if not ok and tostring(e):find("max_tokens", 1, true) then
      break
    end
  end
  for _, sq in ipairs(all) do
    local ok, e = pcall(game.spawn_unit, game, "mite", sq, 1)
    if not ok and tostring(e):find("max_units", 1, true) then
      break
    end
  end
end
"#;

/// What the growth game left: the game, its steps, the step that logged most and the slowest,
/// and the Lua memory in use.
struct Grown {
    game: Game,
    steps: usize,
    most_log: Step,
    slowest: Step,
    lua_mem: usize,
}

fn growth(sfx: &str, rounds: u32, hoarders: usize) -> Grown {
    println!("\n5. A game grown to the caps over {rounds} rounds (Heroes: greedy AI; Overmind: End; {hoarders} more scripts keeping storage):");
    let grow = trigger(
        "grow",
        "    round_start = function(game)\n      grow(game)\n      hoard(game)\n      spam(game)\n    end,\n    step = function(game)\n      hoard(game)\n      spam(game)\n    end,",
    );
    let mods = trigger(
        "mods",
        "    round_start = function(game)\n      local stats = { \"melee\", \"defence\" }\n      local hs = game:heroes()\n      for i = 1, 1000 do\n        if not pcall(game.modify, game, hs[i % #hs + 1], stats[i % 2 + 1], 1, \"round\") then\n          break\n        end\n      end\n      hoard(game)\n      spam(game)\n    end,",
    );
    let chatter = trigger(
        "chatter",
        "    step = function(game)\n      hoard(game)\n      spam(game)\n    end,\n    after_damage = function(game)\n      hoard(game)\n      spam(game)\n    end,\n    killed = function(game)\n      hoard(game)\n      spam(game)\n    end,\n    activation_start = function(game)\n      hoard(game)\n      spam(game)\n    end,",
    );
    let plot = card(
        "plot",
        "    round_start = function(game)\n      hoard(game)\n      spam(game)\n    end,\n    step = function(game)\n      hoard(game)\n      spam(game)\n    end,",
    );
    let mut files = vec![
        (
            "triggers/grow.lua".to_string(),
            script(sfx, "tables", &format!("{GROW}\n{grow}")),
        ),
        ("triggers/mods.lua".to_string(), script(sfx, "tables", &mods)),
        (
            "triggers/chatter.lua".to_string(),
            script(sfx, "tables", &chatter),
        ),
        ("cards/plot.lua".to_string(), script(sfx, "tables", &plot)),
        (
            "tokens/dust.lua".to_string(),
            "return token { id = \"dust\", name = \"Dust\", class = \"marker\", symbol = \"%\", text = \"Nothing.\" }\n".to_string(),
        ),
        (
            "aliens/mite.lua".to_string(),
            "return alien_type { id = \"mite\", name = \"Mite\", unit = { max = 12 }, movement = 1, melee = 0, defence = 0, health = 20 }\n".to_string(),
        ),
    ];
    // More scripts, more storage: each script id keeps its own.
    for i in 0..hoarders {
        files.push((
            format!("triggers/hoarder_{i}.lua"),
            script(
                sfx,
                "tables",
                &trigger(
                    &format!("hoarder_{i}"),
                    "    round_start = function(game)\n      hoard(game)\n    end,",
                ),
            ),
        ));
    }
    let p = pack(&files);
    let mut g = demo(&p, Some("plot"));
    let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
    let mut round = g.state.round;
    let mut heroes = player(Side::Heroes, Level::Greedy);
    let mut most_log = Step::default();
    let mut slowest = Step::default();
    let mut steps = 0usize;
    while g.state.round <= rounds && !g.state.is_over() && steps < 20_000 {
        let action = match g.to_move() {
            Some(Side::Heroes) => {
                heroes.next_action(View::Heroes(&HeroesView::of(&g.state)), &p.set.content)
            }
            Some(Side::Overmind) => Action::End,
            None => break,
        };
        let what = format!("round {}: {}", g.state.round, kind_of(&action));
        let s = if g.check(&p.set.content, &action).is_ok() {
            measure(&mut g, &p, &mut ctl, action, &what)
        } else {
            measure(&mut g, &p, &mut ctl, Action::End, &what)
        };
        steps += 1;
        if g.state.round != round {
            round = g.state.round;
            println!(
                "  round {round} begins after {steps} steps: log {} events, {} as JSON; state {} as JSON",
                g.log.len(),
                mib(json_len(&g.log)),
                mib(json_len(&g.state))
            );
        }
        if s.cpu > slowest.cpu {
            slowest = s.clone();
        }
        if s.json > most_log.json {
            most_log = s;
        }
    }
    Grown {
        lua_mem: p.set.host.sandbox().used_memory(),
        game: g,
        steps,
        most_log,
        slowest,
    }
}

fn kind_of(a: &Action) -> String {
    let s = format!("{a:?}");
    s.split([' ', '{', '(']).next().unwrap_or("").to_string()
}

// ---------------------------------------------------------------------------------------------

fn main() {
    let full = std::env::args().any(|a| a == "--full");
    println!("worst_step: the longest game step and the largest game under the default rules");
    println!(
        "(per call {CALL} instructions; per step and side of the screen lua_step_instructions = 10,000,000; max_behaviour_depth 4; release build expected)"
    );
    let t = Instant::now();
    let sfx = colliding_suffixes();
    println!("256 colliding 64 KiB keys found in {}", secs(t.elapsed()));

    let one = calls(&sfx, full);
    let pool_steps = pools(&sfx);
    let fan = fan_out(&sfx, 4, 50);
    let (log_flood, event_flood) = flood(&sfx, 8);
    let grown = growth(&sfx, 12, 16);
    let game = &grown.game;

    println!(
        "\nThe game after growth (round {}, {} steps):",
        game.state.round, grown.steps
    );
    println!(
        "  tokens {}, stat modifiers {}, units and Blips {}, models {}",
        game.state.tokens.len(),
        game.state.stat_mods.len(),
        game.state.units.len() + game.state.blips.len(),
        game.state
            .units
            .iter()
            .map(|u| u.models.len())
            .sum::<usize>()
    );
    let state_json = json_len(&game.state);
    let storage_json = json_len(game.state.all_storage());
    let log_json = json_len(&game.log);
    println!(
        "  state as JSON {} (of which game.storage {}); log {} events, as JSON {}; Lua memory {}",
        mib(state_json),
        mib(storage_json),
        game.log.len(),
        mib(log_json),
        mib(grown.lua_mem as u64)
    );
    println!("  the step that logged most, and the slowest:");
    print_step(&grown.most_log);
    print_step(&grown.slowest);

    println!("\nSummary:");
    println!(
        "  one call, costliest run whole: {} ({}); 255 colliding 64 KiB keys: {:.3} ms a lookup, ~{:.0} s a call",
        secs(one.worst.cpu),
        one.worst.what,
        one.per_lookup * 1e3,
        one.per_lookup * CALL as f64
    );
    for s in &pool_steps {
        println!(
            "  pools: {}: {} CPU, ~{:.1}M instructions ({:.1}M public, {:.1}M the card's; bound 2 x 14M = 28M), {} events",
            s.what,
            secs(s.cpu),
            s.instructions() as f64 / 1e6,
            (s.instructions() - s.hidden()) as f64 / 1e6,
            s.hidden() as f64 / 1e6,
            s.events
        );
    }
    let worst_steps = pool_steps.iter().map(Step::instructions).max().unwrap_or(0);
    match one.long_call {
        Some(t) => println!(
            "  that many instructions as whole calls of long-keys lookups ({t:.0} s each): ~{:.1} h",
            worst_steps as f64 / CALL as f64 * t / 3600.0
        ),
        None => println!(
            "  that many instructions, each a long-keys lookup: ~{:.1} h at most (--full times a whole call, with its setup)",
            worst_steps as f64 * one.per_lookup / 3600.0
        ),
    }
    println!(
        "  fan-out: {} calls with no budget, {} CPU",
        fan.starved,
        secs(fan.cpu)
    );
    println!(
        "  flood: (a) {} events, log {}, JSON {}; (b) {} events, JSON {}",
        log_flood.events,
        mib(log_flood.log_bytes),
        mib(log_flood.json),
        event_flood.events,
        mib(event_flood.json)
    );
    println!(
        "  process peak RSS (VmHWM) {}",
        mib(status_kib("VmHWM") * 1024)
    );
}
