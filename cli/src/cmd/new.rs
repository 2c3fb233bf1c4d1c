//! `overmind new pack DIR`: a content pack that `check`s clean and whose scenario test passes
//! out of the box: a behaviour, an alien type that lists it, a small mission whose pool holds
//! that type, a scenario test, the API stubs and the editor and linter configs. `overmind new
//! behaviour|alien|mission|test NAME` adds one more file of that kind to an existing pack.

use crate::error::CliError;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

#[derive(clap::Subcommand, Debug)]
pub enum What {
    /// A new pack in DIR (missing or empty); its id is DIR's name, made an id (not `base`, the
    /// base pack's).
    Pack {
        /// Where to make it.
        dir: PathBuf,
    },
    /// A new behaviour, `behaviours/NAME.lua`, in a pack.
    Behaviour {
        /// Its id.
        name: String,
        #[command(flatten)]
        at: InPack,
    },
    /// A new alien type, `aliens/NAME.lua`, listing behaviours.
    Alien {
        /// Its id.
        name: String,
        /// A behaviour it performs (repeatable; default: the pack's first behaviour).
        #[arg(long = "behaviour", value_name = "ID")]
        behaviours: Vec<String>,
        #[command(flatten)]
        at: InPack,
    },
    /// A new mission, `missions/NAME.toml`, whose Blips hold an alien type.
    Mission {
        /// Its id.
        name: String,
        /// The alien type in its pool (default: the pack's first alien type).
        #[arg(long, value_name = "ID")]
        alien: Option<String>,
        #[command(flatten)]
        at: InPack,
    },
    /// A new scenario test, `tests/NAME.toml`: a Hero reveals the alien type, which performs the
    /// behaviour.
    Test {
        /// The file's name.
        name: String,
        /// The alien type revealed (default: the first of the pack's that lists the behaviour).
        #[arg(long, value_name = "ID")]
        alien: Option<String>,
        /// The behaviour it performs (default: the alien type's first).
        #[arg(long, value_name = "ID")]
        behaviour: Option<String>,
        #[command(flatten)]
        at: InPack,
    },
}

/// Which pack a new file goes in.
#[derive(clap::Args, Debug)]
pub struct InPack {
    /// The pack's directory (default: the current one; it must hold a pack.toml).
    #[arg(long = "pack", value_name = "DIR", default_value = ".")]
    pub pack: PathBuf,
}

/// The files of a new pack with id `id`, as (path inside the pack, text).
///
/// # Errors
/// The sandbox could not be probed for the `.luacheckrc` (a host fault).
pub fn pack_files(id: &str) -> Result<Vec<(String, String)>, CliError> {
    let behaviour = format!("{id}_lunge");
    let alien = format!("{id}_brute");
    let fill = |t: &str| {
        t.replace("{PACK}", id)
            .replace("{ID}", id)
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
        (
            format!("tests/{behaviour}.toml"),
            fill(&format!("{TEST_ONE}{LUNGE_MOVES}")),
        ),
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
/// DIR is not empty, its name makes no id or a reserved one (the base pack's), or a file
/// cannot be written; for one file: not in a
/// pack, a bad name, a file that exists already, or an unknown alien type or behaviour.
pub fn run(args: &Args) -> Result<(), CliError> {
    match &args.what {
        What::Pack { dir } => new_pack(dir),
        What::Behaviour { name, at } => one_file(&at.pack, name, Made::Behaviour),
        What::Alien {
            name,
            behaviours,
            at,
        } => one_file(&at.pack, name, Made::Alien(behaviours)),
        What::Mission { name, alien, at } => one_file(&at.pack, name, Made::Mission(alien)),
        What::Test {
            name,
            alien,
            behaviour,
            at,
        } => one_file(&at.pack, name, Made::Test { alien, behaviour }),
    }
}

/// One file `new` adds to a pack.
enum Made<'a> {
    Behaviour,
    Alien(&'a [String]),
    Mission(&'a Option<String>),
    Test {
        alien: &'a Option<String>,
        behaviour: &'a Option<String>,
    },
}

/// What the pack at `dir` defines: its own behaviours and alien types (by file name, as `new`
/// writes them) and everything the base pack and it load.
struct Known {
    own_behaviours: Vec<String>,
    own_aliens: Vec<String>,
    content: Option<overmind_core::Content>,
}

fn stems(dir: &Path, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    out.sort();
    out
}

fn known(pack: &Path) -> Known {
    let content = crate::packs::load(&crate::packs::dirs(&[pack.to_path_buf()]))
        .ok()
        .map(|set| set.content);
    let defined = |ids: Vec<String>, has: &dyn Fn(&str) -> bool| -> Vec<String> {
        ids.into_iter().filter(|i| has(i)).collect()
    };
    let own_behaviours = match &content {
        Some(c) => defined(stems(&pack.join("behaviours"), "lua"), &|i| {
            c.behaviours.contains_key(i)
        }),
        None => stems(&pack.join("behaviours"), "lua"),
    };
    let own_aliens = match &content {
        Some(c) => defined(stems(&pack.join("aliens"), "lua"), &|i| {
            c.aliens.contains_key(i)
        }),
        None => stems(&pack.join("aliens"), "lua"),
    };
    Known {
        own_behaviours,
        own_aliens,
        content,
    }
}

/// `name` if it is an id (a-z, 0-9, `_`, starting with a letter, at most `max` bytes).
fn id_named(name: &str, max: usize) -> Result<String, CliError> {
    let ok = name.len() <= max
        && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if ok {
        Ok(name.to_string())
    } else {
        Err(CliError::Usage(format!(
            "{name:?} is not an id: use a-z, 0-9 and _, start with a letter, at most {max} bytes"
        )))
    }
}

fn one_file(pack: &Path, name: &str, what: Made<'_>) -> Result<(), CliError> {
    if !pack.join("pack.toml").is_file() {
        return Err(CliError::Usage(format!(
            "{}: not a pack (no pack.toml); run this inside a pack, give --pack DIR, or make one \
             with `overmind new pack DIR`",
            pack.display()
        )));
    }
    let k = known(pack);
    let unknown = |what: &str, id: &str, options: Vec<&str>| {
        CliError::Usage(format!(
            "no loaded {what} is called {id:?} (loaded: {})",
            options.join(", ")
        ))
    };
    let (rel, text) = match what {
        Made::Behaviour => {
            let id = id_named(name, 31)?;
            let fill = BEHAVIOUR
                .replace(
                    "-- LUNGE: an example behaviour to start from.",
                    &format!("-- {}: a new behaviour.", id.to_uppercase()),
                )
                .replace("\"LUNGE\"", &format!("{:?}", id.to_uppercase()))
                .replace("{BEHAVIOUR}", &id);
            (format!("behaviours/{id}.lua"), fill)
        }
        Made::Alien(listed) => {
            let id = id_named(name, 31)?;
            let list: Vec<String> = if listed.is_empty() {
                k.own_behaviours
                    .first()
                    .cloned()
                    .map_or_else(|| vec!["rush".to_string()], |b| vec![b])
            } else {
                listed.to_vec()
            };
            if let Some(c) = &k.content {
                if let Some(b) = list.iter().find(|b| !c.behaviours.contains_key(b.as_str())) {
                    return Err(unknown(
                        "behaviour",
                        b,
                        c.behaviours.keys().map(String::as_str).collect(),
                    ));
                }
            }
            let quoted: Vec<String> = list.iter().map(|b| format!("{b:?}")).collect();
            let fill = ALIEN
                .replace("\"{ALIEN}\"", &format!("{id:?}"))
                .replace("\"Brute\"", &format!("{:?}", title(&id)))
                .replace(
                    "{ \"{BEHAVIOUR}\", \"take_cover\" }",
                    &format!("{{ {} }}", quoted.join(", ")),
                );
            (format!("aliens/{id}.lua"), fill)
        }
        Made::Mission(alien) => {
            let id = id_named(name, 31)?;
            let alien = pick_alien(&k, alien.as_deref(), None)?;
            // The comment names the pack the mission is in, not the mission.
            let pack_id = overmind_scripting::pack::pack_name(pack).unwrap_or_else(|| id.clone());
            let fill = MISSION
                .replace("{PACK}", &pack_id)
                .replace("{ID}", &id)
                .replace("{ALIEN}", &alien);
            (format!("missions/{id}.toml"), fill)
        }
        Made::Test { alien, behaviour } => {
            let id = id_named(name, 64)?;
            let alien = pick_alien(&k, alien.as_deref(), behaviour.as_deref())?;
            let listed: Vec<String> = k
                .content
                .as_ref()
                .and_then(|c| c.aliens.get(&alien))
                .map(|t| t.behaviours.clone())
                .unwrap_or_default();
            let behaviour = match behaviour {
                Some(b) if listed.is_empty() || listed.contains(b) => b.clone(),
                Some(b) => {
                    return Err(CliError::Usage(format!(
                        "alien type {alien} does not list behaviour {b:?} (it lists {}); give \
                         --alien for one that does",
                        listed.join(", ")
                    )))
                }
                None => listed.first().cloned().unwrap_or_else(|| "rush".into()),
            };
            let mut fill = TEST_ONE
                .replace("{BEHAVIOUR}", &behaviour)
                .replace("{ALIEN}", &alien);
            if listed.len() < 2 {
                // One behaviour listed: no choice is asked, so no answer names it.
                fill = fill.replace(
                    &format!(
                        "# Which behaviour it performs; the rest as the AI answers.\nanswers = {{ overmind = [\"{behaviour}\"] }}\n"
                    ),
                    "# Its only behaviour is performed: no choice is asked. The rest as the AI answers.\n",
                );
            }
            (format!("tests/{id}.toml"), fill)
        }
    };
    let path = pack.join(&rel);
    if path.exists() {
        return Err(CliError::Usage(format!(
            "{}: exists already; `new` never overwrites a file",
            path.display()
        )));
    }
    write(pack, &rel, &text)?;
    let d = pack.display();
    crate::output::print(&format!(
        "made {}\n\ntry it:\n  overmind check --pack {d}\n  overmind test --pack {d}\n",
        path.display()
    ))?;
    Ok(())
}

/// The alien type a new mission or test uses: the one asked for, else the pack's first that
/// lists `behaviour` (or its first at all).
fn pick_alien(k: &Known, asked: Option<&str>, behaviour: Option<&str>) -> Result<String, CliError> {
    if let Some(a) = asked {
        if let Some(c) = &k.content {
            if !c.aliens.contains_key(a) {
                let mut known: Vec<&str> = c.aliens.keys().map(String::as_str).collect();
                known.sort_unstable();
                return Err(CliError::Usage(format!(
                    "no loaded alien type is called {a:?} (loaded: {})",
                    known.join(", ")
                )));
            }
        }
        return Ok(a.to_string());
    }
    let lists = |a: &str| {
        behaviour.is_none_or(|b| {
            k.content
                .as_ref()
                .and_then(|c| c.aliens.get(a))
                .is_some_and(|t| t.behaviours.iter().any(|x| x == b))
        })
    };
    if let Some(a) = k.own_aliens.iter().find(|a| lists(a)) {
        return Ok(a.clone());
    }
    if let (Some(b), Some(c)) = (behaviour, &k.content) {
        if let Some((a, _)) = c
            .aliens
            .iter()
            .find(|(_, t)| t.behaviours.iter().any(|x| x == b))
        {
            return Ok(a.clone());
        }
        return Err(CliError::Usage(format!(
            "no loaded alien type lists behaviour {b:?}: give it to one (`overmind new alien \
             NAME --behaviour {b}`) or name one with --alien"
        )));
    }
    Ok(k.own_aliens
        .first()
        .cloned()
        .unwrap_or_else(|| "stalker".into()))
}

/// `swamp_thing` → `Swamp Thing`.
fn title(id: &str) -> String {
    id.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn new_pack(dir: &Path) -> Result<(), CliError> {
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
    if let Some(taken) = taken(&id) {
        return Err(usage(format!(
            "{}: a pack's id is its directory's name, and {id:?} is {taken}: a pack of that name \
             could never load beside it; give the directory another name (e.g. \"my_{id}\")",
            dir.display()
        )));
    }
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

/// Pack names `new pack` never gives: the base pack's, which every pack is loaded after.
const RESERVED: &[&str] = &["base"];

/// Why a new pack may not be called `id`: it is reserved, or it is the name of the base pack
/// it would be loaded with (`new pack` takes no other `--pack`).
fn taken(id: &str) -> Option<String> {
    if RESERVED.contains(&id) {
        return Some("reserved for the base pack".into());
    }
    let base = crate::packs::base_dir();
    (overmind_scripting::pack::pack_name(&base).as_deref() == Some(id))
        .then(|| format!("the name of the base pack ({})", base.display()))
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

const MISSION: &str = r#"# A small mission for the {PACK} pack: two Heroes enter from the south-west; the Blips hold
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

/// What the new pack's own test adds to [`TEST_ONE`]: LUNGE's three steps.
const LUNGE_MOVES: &str = r#"
[[scenario.expect]]
# Three steps: the path holds its start and three more squares.
event = "moved"
unit = "B.1"
path = { len = 4 }
count = 1
"#;

const TEST_ONE: &str = r#"# {BEHAVIOUR} performed by a {ALIEN}: the Hero steps out from behind the rock and reveals it
# 5 squares away. Run: overmind test --pack .  (docs/SCENARIOS.md has the whole format.)

[[scenario]]
name = "a revealed {ALIEN} performs {BEHAVIOUR}"
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
# Which behaviour it performs; the rest as the AI answers.
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

# Where it ends, when the behaviour moves it:
#   at = { model = "B.1", square = [4, 2] }
#   at = { model = "B.1", squares = [[4, 1], [4, 2]] }   (one of these)
#   at = { model = "B.1", adjacent_to = "H" }
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
