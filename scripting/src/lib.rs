/*!
The Lua sandbox that Overmind's content scripts (Alien Behaviours, Alien Types, tokens,
abilities and game-wide triggers) run in.

A [`Sandbox`] is one Lua 5.4 state built for untrusted code:

- **Whitelisted environments.** The state loads only `table`, `string`, `math`, `utf8` and
  `coroutine`. Every script gets its own global table holding the safe base functions
  (`assert error getmetatable ipairs load next pairs pcall print rawequal rawlen select
  setmetatable tonumber tostring type xpcall _VERSION`) and read-only views of the libraries.
  There is no `io`, `os`, `debug`, `package`, `require`, `dofile`, `loadfile`,
  `collectgarbage`, `rawget`/`rawset`, `string.dump` or `string.pack`.
- **Nothing shared is writable.** Libraries, the string metatable and whatever the host
  [`share`](Sandbox::share)s are read-only views whose metatables are locked, so one script
  cannot change what another sees.
- **Budgets.** Every call and every script load has an instruction budget (a VM count hook
  plus charges for work done in C), a memory budget, a call-depth budget, and limits on string
  length and table size ([`Limits`]). Work done in C and in the host (string comparisons,
  table rebuilds, path searches, Line of Sight) is charged from what the script did, so where
  a budget runs out is the same in every run. A spent budget ends its call even through
  `pcall`, `xpcall`, coroutines and C library functions (a call nested in it has its own
  instruction budget; memory and depth end every call running); the sandbox stays usable for
  the next call.
- **Determinism.** `pairs` and `next` iterate in a canonical key order, `table.sort` is a
  stable merge sort, `math.random` draws from the host's RNG, and `tostring` never shows
  addresses, so a replay runs scripts exactly as the original game did.
- **Made once, nothing kept.** A definition script's top level runs once; [`Sandbox::seal`]
  then refuses functions that assign its top-level locals, makes every table they can reach
  read-only and gives each [`Sandbox::call_sealed`] a fresh global table, so a behaviour keeps
  nothing between calls except `game.storage`. ([`Sandbox::instantiate`] still runs a top
  level afresh, for hosts that want that.)
- **Errors with places.** Scripts are loaded with their path as chunk name; every
  [`ScriptError`] carries `path:line`, read by the host from the stack where the error was
  raised (never from the message, which a script writes), with a bounded description of the
  error value.

`docs/SANDBOX.md` lists what scripts can and cannot do and how each escape is prevented.

# Example

```
use overmind_scripting::{ErrorKind, Limits, Sandbox};

let sandbox = Sandbox::new(Limits::default())?;
let rules = sandbox.lua().create_table()?;
rules.set("max_move", 5)?;
sandbox.share("rules", mlua::Value::Table(rules))?;

let script = sandbox.load_script(
    "behaviours/rush.lua",
    r#"
    local steps = 0
    return {
        id = "rush",
        perform = function(roll_of)
            steps = steps + 1
            return math.min(math.random(roll_of), rules.max_move)
        end,
    }
    "#,
)?;
let behaviour = match &script.value {
    mlua::Value::Table(t) => t.clone(),
    _ => unreachable!("the script returns a table"),
};
let perform: mlua::Function = behaviour.get("perform")?;

// The game's seeded RNG feeds math.random for the duration of the call.
let mut state = 42_u64;
let mut rng = move || {
    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    state
};
let moved: i64 = sandbox.call_function_with_rng(&mut rng, &perform, 6)?;
assert!((1..=5).contains(&moved));

// A runaway script ends with a clean, located error, and the sandbox goes on.
let err = sandbox
    .load_script("behaviours/bad.lua", "while true do end")
    .unwrap_err();
assert_eq!(err.kind(), ErrorKind::InstructionBudget);
assert!(err.to_string().starts_with("behaviours/bad.lua:1: instruction budget exhausted"));
# Ok::<(), Box<dyn std::error::Error>>(())
```
*/
#![deny(missing_docs)]

mod alloc;
mod budget;
mod collate;
mod direct;
mod error;
mod host;
mod pattern;
mod sandbox;
mod seal;

pub use budget::{Limits, BYTES_PER_UNIT, HOOK_INTERVAL};
pub use error::{from_lua_error, ErrorKind, Location, ScriptError, MAX_MESSAGE_BYTES};
pub use host::{PrintLine, MAX_RESULTS};
pub use sandbox::{Compiled, Sandbox, Script, Sealed, MAX_SOURCE_BYTES};

/// The `mlua` this crate is built on, for binders that need its types.
pub use mlua;

mod alien;
pub mod api;
pub mod apidoc;
pub mod campaign;
pub mod lint;
pub mod runtime;

pub use runtime::{
    AbilityDef, BehaviourDef, HookSet, LuaBehaviour, LuaTrigger, RuleDef, ScriptHost, TokenDef,
};

pub mod pack;
pub mod problem;

pub use pack::{Kind, PackInfo, PackSet, Reload};
pub use problem::Problem;

pub mod scenario;

pub mod reload;

pub use reload::{WatchError, Watcher, DEFAULT_DEBOUNCE};
