//! The Lua API's documentation, generated from the very definitions that register it
//! ([`crate::api::TABLES`] and [`crate::api::shape::SHAPES`]): LuaLS `---@meta` stubs for
//! editors and a Markdown reference, so the docs can never drift from the binding.

use crate::api::shape::{
    Rule, Shape, ATTACK_KINDS, CARD_TARGETS, DECKS, EFFECTS, ROLLS, SHAPES, SIDES, STATS, STATUSES,
    TERRAINS, TOKEN_CLASSES, UNTILS,
};
use crate::api::{FnDoc, TableDoc, TABLES};
use std::fmt::Write;

/// Aliases: name, LuaLS type, meaning.
fn aliases() -> Vec<(&'static str, String, &'static str)> {
    let quoted = |names: Vec<&str>| {
        names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join("|")
    };
    vec![
        (
            "Terrain",
            quoted(TERRAINS.iter().map(|(n, _)| *n).collect()),
            "The kind of a square (docs/RULES.md §2); `game:terrain` returns it.",
        ),
        (
            "Effect",
            quoted(EFFECTS.iter().map(|(n, _)| *n).collect()),
            "A Special Combat Effect (docs/RULES.md §6.6).",
        ),
        (
            "Side",
            quoted(SIDES.iter().map(|(n, _)| *n).collect()),
            "A side of the game.",
        ),
        (
            "TokenClass",
            quoted(TOKEN_CLASSES.to_vec()),
            "What a token is for (docs/RULES.md §14).",
        ),
        (
            "Deck",
            quoted(DECKS.to_vec()),
            "A deck of cards (docs/RULES.md §15).",
        ),
        (
            "CardTarget",
            quoted(CARD_TARGETS.to_vec()),
            "What a card is played on (docs/RULES.md §15.3).",
        ),
        (
            "AttackKind",
            quoted(ATTACK_KINDS.iter().map(|(n, _)| *n).collect()),
            "The kind of an attack (`moment.attack`).",
        ),
        (
            "StatusName",
            quoted(STATUSES.iter().map(|(n, _)| *n).collect()),
            "A status `game:set_status` sets or clears.",
        ),
        (
            "Stat",
            quoted(STATS.iter().map(|(n, _)| *n).collect()),
            "A stat `game:modify` changes.",
        ),
        (
            "Until",
            quoted(UNTILS.iter().map(|(n, _)| *n).collect()),
            "How long a `game:modify` lasts: to the end of the unit's activation, or of the round.",
        ),
        (
            "AttackRoll",
            quoted(ROLLS.iter().map(|(n, _)| *n).collect()),
            "What `game:modify_attack` changes: the attack's dice, or the target's Defence.",
        ),
    ]
}

/// Splits text into lines of at most `width` characters, at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

fn comment(out: &mut String, text: &str) {
    for l in wrap(text, 96) {
        let _ = writeln!(out, "---{l}");
    }
}

fn uses_generic(f: &FnDoc) -> bool {
    let generic = |ty: &str| ty.split(|c: char| !c.is_alphanumeric()).any(|w| w == "T");
    f.params.iter().any(|p| generic(p.ty)) || f.returns.iter().any(|r| generic(r.ty))
}

fn stub_function(out: &mut String, owner: Option<&str>, f: &FnDoc) {
    comment(out, f.doc);
    if uses_generic(f) {
        out.push_str("---@generic T\n");
    }
    for p in f.params {
        let _ = writeln!(out, "---@param {} {} {}", p.name, p.ty, p.doc);
    }
    for r in f.returns {
        let _ = writeln!(out, "---@return {} # {}", r.ty, r.doc);
    }
    let params = f
        .params
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ");
    match owner {
        Some(class) => {
            let _ = writeln!(out, "function {class}:{}({params}) end\n", f.name);
        }
        None => {
            let _ = writeln!(out, "function {}({params}) end\n", f.name);
        }
    }
}

fn stub_shape(out: &mut String, s: &Shape) {
    comment(out, s.doc);
    // A kind of another class inherits its fields: declare only the ones it adds or changes.
    let parent = s
        .parent
        .and_then(|p| SHAPES.iter().find(|other| other.name == p));
    match s.parent {
        Some(p) => {
            let _ = writeln!(out, "---@class {}: {p}", s.name);
        }
        None => {
            let _ = writeln!(out, "---@class {}", s.name);
        }
    }
    for f in s.fields {
        let inherited = parent.is_some_and(|p| {
            p.fields
                .iter()
                .any(|pf| pf.name == f.name && pf.ty == f.ty && pf.required == f.required)
        });
        if inherited {
            continue;
        }
        let ty = if f.required || f.ty.ends_with('?') {
            f.ty.to_string()
        } else {
            format!("{}?", f.ty)
        };
        let _ = writeln!(out, "---@field {} {} {}", f.name, ty, f.doc);
    }
    out.push('\n');
}

fn stub_table(out: &mut String, t: &TableDoc<'_>) {
    if t.name.is_empty() {
        for f in &t.functions {
            stub_function(out, None, f);
        }
        return;
    }
    comment(out, t.doc);
    let _ = writeln!(out, "---@class {}", t.name);
    for f in &t.fields {
        let _ = writeln!(out, "---@field {} {} {}", f.name, f.ty, f.doc);
    }
    let _ = writeln!(out, "local {} = {{}}\n", t.name);
    for f in &t.functions {
        stub_function(out, Some(t.name), f);
    }
}

/// The API as LuaLS stubs (`behaviours/types/overmind.d.lua`).
#[must_use]
pub fn lua_stubs() -> String {
    let mut out = String::new();
    out.push_str("---@meta overmind\n");
    out.push_str(
        "-- The Overmind Lua API for behaviour, alien type, token, ability and trigger scripts,\n\
         -- as LuaLS type stubs.\n\
         -- Generated from the definitions that bind the API (scripting/src/api); do not edit.\n\
         -- Regenerate: cargo run -- api --lua > behaviours/types/overmind.d.lua\n\
         -- Reference: docs/API.md. Scripts also have the sandbox's safe Lua library\n\
         -- (docs/SANDBOX.md); math.random draws from the game's seeded RNG.\n\n",
    );
    for (name, ty, doc) in aliases() {
        comment(&mut out, doc);
        let _ = writeln!(out, "---@alias {name} {ty}\n");
    }
    out.push_str(
        "---What `behaviour { ... }`, `alien_type { ... }` and the other definitions return: the \
         script returns it.\n",
    );
    out.push_str("---@class Definition\n\n");
    for t in TABLES {
        stub_table(&mut out, &t.describe());
    }
    for s in SHAPES {
        stub_shape(&mut out, s);
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn signature(var: &str, f: &FnDoc) -> String {
    let params = f
        .params
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ");
    let returns = f
        .returns
        .iter()
        .map(|r| r.ty)
        .collect::<Vec<_>>()
        .join(", ");
    let call = if var.is_empty() {
        format!("{}({params})", f.name)
    } else {
        format!("{var}:{}({params})", f.name)
    };
    if returns.is_empty() {
        format!("`{call}`")
    } else {
        format!("`{call}` → `{returns}`")
    }
}

fn md_function(out: &mut String, var: &str, f: &FnDoc) {
    let _ = writeln!(out, "### {}\n", signature(var, f));
    let _ = writeln!(out, "{}\n", f.doc);
    for p in f.params {
        let _ = writeln!(out, "- `{}` (`{}`): {}", p.name, p.ty, p.doc);
    }
    for r in f.returns {
        let _ = writeln!(out, "- returns `{}`: {}", r.ty, r.doc);
    }
    if !f.params.is_empty() || !f.returns.is_empty() {
        out.push('\n');
    }
}

fn anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Ends what came before with exactly one blank line.
fn blank_line(out: &mut String) {
    while out.ends_with("\n\n") {
        out.pop();
    }
    out.push('\n');
}

fn title(t: &TableDoc<'_>) -> String {
    if t.name.is_empty() {
        "Global functions".to_string()
    } else {
        format!("{} (`{}`)", t.name, t.var)
    }
}

fn rule_note(r: &Rule) -> String {
    match r {
        Rule::Int { min, max } => format!("{min} to {max}"),
        Rule::Id => "`a-z`, `0-9`, `_`".into(),
        _ => String::new(),
    }
}

const INTRO: &str = "\
Generated by `overmind api --markdown` from the definitions that bind the API
(`scripting/src/api/`); do not edit. Editor stubs: `behaviours/types/overmind.d.lua`
(`overmind api --lua`).

A behaviour script returns `behaviour { ... }`; its `perform(unit, game)` is called each time
an Alien Unit of a type that lists it performs it (docs/RULES.md §8.1). An alien type script returns
`alien_type { ... }`. A token kind (`tokens/*.lua`) returns `token { ... }`, a hero profile's
ability (`abilities/*.lua`) `ability { ... }`, a pack's game-wide rule (`triggers/*.lua`)
`trigger { ... }`: each acts through its `on = { hook = function(game, moment) ... end }`
table (an alien type may have one too), run when the core fires the hook for what the
definition concerns (docs/RULES.md §14, [`Hooks`](#hooks)).

```lua
-- behaviours/behaviours/rush.lua
return behaviour {
  id = \"rush\", name = \"RUSH\",
  text = \"Must move 5 Squares towards the closest visible Hero; ...\",
  max_move = 5,
  perform = function(unit, game)
    local hero = game:closest(unit, game:visible_heroes(unit)) -- ties: the Overmind chooses
    if not hero then game:log(\"no visible Hero to rush\") return end
    for _, model in ipairs(game:model_order(unit)) do -- the move is a \"must\"
      if model.alive then model:move_towards(hero, game.rules.rush_steps) end
    end
    if unit:in_melee() then -- the attack is a \"can\": the Overmind may decline it
      local targets = unit:melee_targets()
      if #targets > 0 and game:confirm(\"Make the Melee attack?\") then
        unit:melee(game:choose(\"Melee which Hero?\", targets), { penalty = 1 })
      end
    end
  end,
}
```

How the API behaves:

- **Handles, not engine data.** `unit`, `game` and everything they return are read-only
  handles: ids plus a snapshot of what the thing was when it was returned. A handle can be
  compared with `==` and passed back, but reading it never changes or reaches into the game.
  `game:model(id)` gives a fresh snapshot. `model.alive` and `unit.alive` are read live: a
  model killed during the behaviour (Overwatch during its own move, a Free Attack) reads
  `alive == false`, and acting with it raises an error saying who killed it, so a behaviour
  checks `alive` before it moves or attacks with a model after a move.
- **The rules decide.** Every action (moves, attacks, Fear Attacks) is checked by the rules
  engine. An illegal call raises an error that says what and why, naming the models, e.g.
  `move: 6 squares asked, RUSH allows 5 for B3.1` or
  `shoot: B3 cannot attack M at 1,2: B3.1 is 9 squares from M, beyond its range 8`; so does a
  wrong argument (`move_towards: steps must be a whole number from 0 to 1000, got string
  \"five\"`) and a misspelt name, with the nearest known one when it is close
  (`Unit has no field or method 'shoot_target' (did you mean shoot_targets?)`). An error
  that escapes `perform` fails the behaviour and ends it there: every call it made before was
  checked and stands (nothing a player has seen is taken back), the log records
  `behaviour_failed` with the script's `path:line` and the message, and play goes on. So does a
  spent budget (instructions, memory, call depth: `rules.toml`).
- **The Overmind decides.** Ties (`game:closest`, equally good end squares), the order of a
  unit's models (`game:model_order`) and the script's own questions (`game:choose`,
  `game:confirm`) go to the Overmind's controller (a person, the AI or a test), just as the
  native behaviours ask them. Each that breaks a tie or picks an order takes an optional
  `prompt`, the question the controller is shown (after the behaviour's id, as for
  `game:choose`): `game:closest(unit, heroes, \"Which Hero does it hunt?\")`. What a card says
  \"may\" or \"can\" do is the Overmind's to decline (`game:confirm`); what it says \"must\" is
  not asked.
- **Blips keep their secret.** A Blip's `id`, square and `movement` are free to read; reading
  any other field reveals it (docs/RULES.md §7.3), which may trigger the revealed unit's own
  behaviour at once.
- **Determinism.** Arrays come in a defined order (game order); `pairs` iterates in a fixed
  order and `math.random` draws from the game's seeded RNG, so a replay runs scripts exactly
  as the original game did.
- **State lives in the game.** A script's top level runs once, when it loads; each call runs
  its `perform` (or hook) with a fresh global table, a function that assigns a top-level local
  is refused at load, and tables made at the top level are read-only in calls, so nothing
  carries from one call to the next (a global counter reads 1 at every call). What a behaviour must remember goes in `game.storage`: plain values, part of the
  game state (saved, replayed, copied for the AI's look-ahead), one table per behaviour id,
  checked and kept when the call ends, also when it fails (docs/RULES.md §8.4).
- **Triggers run like behaviours.** A hook function gets `game` and a fresh `moment` table
  ([`Moment`](#moment)); it runs like `perform`, within the same budgets, with `game.storage`
  kept per script id. Its effects (`game:damage`, `game:heal`,
  `game:place_token`, ...) are checked by the rules engine, each announced by an `effect` event
  naming the script; an error ends the hook there, logged as `trigger_failed` with its
  `path:line`, and what it did before stands.

  ```lua
  -- tokens/acid.lua
  return token {
    id = \"acid\", name = \"Acid pool\", class = \"hazard\", symbol = \"~\",
    text = \"A model that steps in loses 2 Health and is knocked down.\",
    on = {
      step = function(game, moment)
        game:damage(moment.model, 2)
        game:set_status(moment.model, \"knocked_down\", true)
      end,
    },
  }
  ```
- **The sandbox.** Scripts also see a safe subset of Lua's library (`string`, `table`,
  `math`, `utf8`, `coroutine`, and base functions without `load` of bytecode, files or
  `debug`); see `docs/SANDBOX.md`.
";

/// The API as a Markdown reference (`docs/API.md`).
#[must_use]
pub fn markdown() -> String {
    let mut out = String::from("# The Lua API\n\n");
    out.push_str(INTRO);
    out.push_str("\n## Contents\n\n");
    let tables: Vec<TableDoc<'_>> = TABLES.iter().map(|t| t.describe()).collect();
    for t in &tables {
        let title = title(t);
        let _ = writeln!(out, "- [{title}](#{})", anchor(&title));
    }
    out.push_str("- [Tables scripts write](#tables-scripts-write)\n- [Aliases](#aliases)\n");
    for t in &tables {
        blank_line(&mut out);
        let _ = writeln!(out, "## {}\n\n{}\n", title(t), t.doc);
        if !t.fields.is_empty() {
            out.push_str("| field | type | meaning |\n| --- | --- | --- |\n");
            for f in &t.fields {
                let _ = writeln!(out, "| `{}` | `{}` | {} |", f.name, cell(f.ty), cell(f.doc));
            }
            out.push('\n');
        }
        for f in &t.functions {
            md_function(&mut out, t.var, f);
        }
    }
    blank_line(&mut out);
    out.push_str("## Tables scripts write\n\n");
    out.push_str(
        "Plain tables. Definitions are checked when the pack loads: a missing field, a wrong \
         type, a number out of range, an unknown field or effect name is an error at the \
         field's `path:line`.\n",
    );
    for s in SHAPES {
        let _ = writeln!(out, "\n### {}\n\n{}\n", s.name, s.doc);
        if let Some(p) = s.parent {
            let _ = writeln!(out, "A kind of [`{p}`](#{}).\n", anchor(p));
        }
        out.push_str("| field | type | required | meaning |\n| --- | --- | --- | --- |\n");
        for f in s.fields {
            let note = rule_note(&f.rule);
            let doc = if note.is_empty() || f.doc.contains(&note) {
                f.doc.to_string()
            } else {
                format!("{} ({note})", f.doc)
            };
            let _ = writeln!(
                out,
                "| `{}` | `{}` | {} | {} |",
                f.name,
                cell(f.ty),
                if f.required { "yes" } else { "no" },
                cell(&doc)
            );
        }
    }
    blank_line(&mut out);
    out.push_str("## Aliases\n\n| name | values | meaning |\n| --- | --- | --- |\n");
    for (name, ty, doc) in aliases() {
        let _ = writeln!(out, "| `{name}` | `{}` | {} |", cell(&ty), cell(doc));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stubs_declare_every_method() {
        let s = lua_stubs();
        assert!(s.starts_with("---@meta"));
        assert!(s.contains("function Game:closest(unit, models, prompt) end"));
        assert!(s.contains("function behaviour(def) end"));
        assert!(s.contains("---@alias Terrain \"plain\"|"));
        assert!(
            s.contains("---@class Square: Pos\n"),
            "a Square passes as a Pos"
        );
        assert!(s.contains("---@class UnitType\n"));
    }

    #[test]
    fn wrap_keeps_words() {
        assert_eq!(wrap("a bb ccc", 4), vec!["a bb", "ccc"]);
    }
}
