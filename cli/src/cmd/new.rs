//! `overmind new pack DIR`: a content pack that `check`s clean and whose scenario test passes
//! out of the box: a behaviour, an alien type that lists it, a small mission whose pool holds
//! that type, a scenario test, the API stubs and the editor and linter configs.

use crate::error::CliError;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

#[derive(clap::Subcommand, Debug)]
pub enum What {
    /// A new pack in DIR (missing or empty); its id is DIR's name, made an id.
    Pack {
        /// Where to make it.
        dir: PathBuf,
    },
}

/// The files of a new pack with id `id`, as (path inside the pack, text).
///
/// # Errors
/// The sandbox could not be probed for the `.luacheckrc` (a host fault).
pub fn pack_files(id: &str) -> Result<Vec<(String, String)>, CliError> {
    let behaviour = format!("{id}_lunge");
    let alien = format!("{id}_brute");
    let fill = |t: &str| {
        t.replace("{ID}", id)
            .replace("{BEHAVIOUR}", &behaviour)
            .replace("{ALIEN}", &alien)
    };
    let luacheckrc =
        overmind_scripting::lint::luacheckrc().map_err(|e| CliError::Failed(e.to_string()))?;
    Ok(vec![
        ("pack.toml".into(), fill(PACK)),
        (format!("behaviours/{behaviour}.lua"), fill(BEHAVIOUR)),
        (format!("aliens/{alien}.lua"), fill(ALIEN)),
        (format!("missions/{id}.toml"), fill(MISSION)),
        (format!("tests/{behaviour}.toml"), fill(TEST)),
        (
            "types/overmind.d.lua".into(),
            overmind_scripting::apidoc::lua_stubs(),
        ),
        (
            ".luarc.json".into(),
            overmind_scripting::lint::luarc("types"),
        ),
        (".luacheckrc".into(), luacheckrc),
        (".stylua.toml".into(), STYLUA.into()),
    ])
}

/// `name` as a pack id: lower-case letters, digits and `_`, at most 16 bytes (so that the
/// ids made from it fit), starting with a letter.
fn id_of(name: &str) -> Option<String> {
    let mut id: String = name
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    id = id.trim_matches('_').to_string();
    id.truncate(16);
    let id = id.trim_end_matches('_').to_string();
    id.chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase())
        .then_some(id)
}

/// # Errors
/// DIR is not empty, its name makes no id, or a file cannot be written.
pub fn run(args: &Args) -> Result<(), CliError> {
    let What::Pack { dir } = &args.what;
    let usage = |m: String| CliError::Usage(m);
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = id_of(&name).ok_or_else(|| {
        usage(format!(
            "{}: a pack's id is its directory's name, and {name:?} makes none (start it with a letter)",
            dir.display()
        ))
    })?;
    if std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some()) {
        return Err(usage(format!(
            "{}: not empty; `new pack` only writes into a new or empty directory",
            dir.display()
        )));
    }
    for (path, text) in pack_files(&id)? {
        write(dir, &path, &text)?;
    }
    let d = dir.display();
    crate::output::print(&format!(
        "made pack {id} in {d}\n\
         \n\
         try it:\n\
         \x20 overmind check --pack {d}\n\
         \x20 overmind test --pack {d}\n\
         \x20 overmind play --pack {d} --mission {id}\n\
         \n\
         edit {d}/behaviours/{id}_lunge.lua while the game runs: it reloads at once.\n"
    ))?;
    Ok(())
}

fn write(dir: &Path, rel: &str, text: &str) -> Result<(), CliError> {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| CliError::Failed(format!("cannot make {}: {e}", parent.display())))?;
    }
    crate::save::write_regular(&path, text, "cannot write", "a pack file").map_err(CliError::Failed)
}

const PACK: &str = r#"# The {ID} pack. Load it after the base pack:
#
#   overmind check --pack .       overmind test --pack .
#   overmind play --pack . --mission {ID}
name = "{ID}"
version = "0.1.0"
description = "A new pack: the {ALIEN} and its LUNGE."
depends = ["base"]
"#;

const BEHAVIOUR: &str = r#"-- LUNGE: an example behaviour to start from. Edit it while a game runs: it reloads at once.
return behaviour {
  id = "{BEHAVIOUR}",
  name = "LUNGE",
  text = "Must move 3 Squares towards the closest visible Hero; if this ends in Melee Combat "
    .. "it may make a Melee attack with one die fewer.",
  max_move = 3,
  perform = function(unit, game)
    local hero = game:closest(unit, game:visible_heroes(unit))
    if not hero then
      game:log("no visible Hero to lunge at")
      return
    end
    for _, model in ipairs(game:model_order(unit)) do
      if model.alive then
        model:move_towards(hero, 3)
      end
    end
    if unit:in_melee() and game:confirm("Make the Melee attack?") then
      local target = game:choose("Melee which Hero?", unit:melee_targets())
      if target then
        unit:melee(target, { penalty = 1 })
      end
    end
  end,
}
"#;

const ALIEN: &str = r#"-- EXAMPLE alien type: invented numbers, not a printed card.
return alien_type {
  id = "{ALIEN}",
  name = "Brute",
  unit = { max = 2 },
  movement = 4,
  melee = 3,
  defence = 2,
  health = 3,
  behaviours = { "{BEHAVIOUR}", "take_cover" },
}
"#;

const MISSION: &str = r#"# A small mission for the {ID} pack: two Heroes enter from the south-west; the Blips hold
# the pack's own {ALIEN} (drawn from the pool) and a Decoy. Legend: docs/MISSIONS.md.
name = "{ID}"
description = "Meet the {ALIEN}."

map = """
+-+-+-+-+-+-+-+-+-+-+
|. . . . . . . . . y|
+                   +
|. . . g . . . . . .|
+                   +
|# # # # # # # # . .|
+                   +
|. . . . . . . . . .|
+                   +
|y . . . . . . . . .|
+-+-+-+-+-+-+-+-+-+-+
"""

objective = { kind = "eliminate" }
max_rounds = 8
decoys = 1

[[pool]]
type = "{ALIEN}"
size = 1
count = 2

[[heroes]]
id = "alpha"
profile = "vance"
at = [0, 4]

[[heroes]]
id = "bravo"
profile = "mira"
at = [1, 4]

[[blips]]
id = "b1"
at = [1, 0]

[[blips]]
id = "b2"
at = [4, 1]

[[blips]]
id = "b3"
at = [6, 0]
"#;

const TEST: &str = r#"# LUNGE ({BEHAVIOUR}): the Hero steps out from behind the rock and reveals the Brute 5
# squares away; it lunges 3 squares towards the Hero. Run: overmind test --pack .

[[scenario]]
name = "LUNGE moves 3 squares towards the closest visible Hero"
map = """
+-+-+-+-+-+-+-+-+-+-+
|. . . . . . . . . .|
+                   +
|. . . . . . . . . .|
+                   +
|. . # . . . . . . .|
+                   +
|. . . . . . . . . .|
+-+-+-+-+-+-+-+-+-+-+
"""
dice = "blanks"
actions = ["move H 0,1"]
# Which behaviour the Brute performs; the rest as the AI answers.
answers = { overmind = ["{BEHAVIOUR}"] }
fallback = "ai"

[[scenario.heroes]]
id = "H"
profile = "vance"
at = [0, 2]

[[scenario.blips]]
id = "B"
at = [6, 2]
holds = "{ALIEN}"

[[scenario.expect]]
behaviour_performed = "{BEHAVIOUR}"
unit = "B"

[[scenario.expect]]
# Three steps: the path holds its start and three more squares.
event = "moved"
unit = "B.1"
path = { len = 4 }
count = 1
"#;

const STYLUA: &str = r#"# The house style (`stylua --check .`).
column_width = 100
line_endings = "Unix"
indent_type = "Spaces"
indent_width = 2
quote_style = "AutoPreferDouble"
call_parentheses = "NoSingleTable"
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_ids_from_names() {
        assert_eq!(id_of("my_pack").as_deref(), Some("my_pack"));
        assert_eq!(id_of("My Pack-2").as_deref(), Some("my_pack_2"));
        assert_eq!(
            id_of("a_very_long_pack_name_indeed").as_deref(),
            Some("a_very_long_pack")
        );
        assert_eq!(id_of("9lives"), None);
        assert_eq!(id_of("..."), None);
    }
}
