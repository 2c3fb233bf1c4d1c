//! `overmind api --lua | --markdown`: the Lua API as LuaLS type stubs or as a Markdown reference, generated from the definitions that bind it.
//!
//! The committed `behaviours/types/overmind.d.lua` and `docs/API.md` are this command's
//! output; a test below fails when they drift from the binding.

use super::check::print;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(false).args(["lua", "markdown", "luacheckrc", "luarc"])))]
#[group(skip)]
pub struct Args {
    /// LuaLS type stubs, for editors (`behaviours/types/overmind.d.lua`).
    #[arg(long)]
    pub lua: bool,
    /// The reference page (`docs/API.md`).
    #[arg(long)]
    pub markdown: bool,
    /// A `.luacheckrc` allowing exactly the globals and library fields the sandbox gives.
    #[arg(long)]
    pub luacheckrc: bool,
    /// A `.luarc.json` for the Lua language server, pointing at a pack's `types/` stubs.
    #[arg(long)]
    pub luarc: bool,
    /// With `--luarc`: where the stubs are, relative to the `.luarc.json`.
    #[arg(long, default_value = "types", requires = "luarc")]
    pub types: String,
}

/// The text `args` asks for.
///
/// # Errors
/// The sandbox could not be probed for `--luacheckrc` (a host fault).
pub fn generate(args: &Args) -> Result<String, String> {
    if args.lua {
        Ok(overmind_scripting::apidoc::lua_stubs())
    } else if args.luacheckrc {
        overmind_scripting::lint::luacheckrc().map_err(|e| e.to_string())
    } else if args.luarc {
        Ok(overmind_scripting::lint::luarc(&args.types))
    } else {
        Ok(overmind_scripting::apidoc::markdown())
    }
}

/// The stubs or the reference (for the freshness tests).
#[cfg(test)]
fn text(args: &Args) -> String {
    generate(args).unwrap_or_default()
}

/// Run `overmind api`.
#[must_use]
pub fn run(args: &Args) -> ExitCode {
    match generate(args) {
        Ok(text) => {
            print(&text);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed(rel: &str) -> String {
        let path = format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| format!("cannot read {path}: {e}"))
    }

    fn same(rel: &str, fresh: &str, regenerate: &str) {
        let old = committed(rel);
        if old != fresh {
            let line = old
                .lines()
                .zip(fresh.lines())
                .position(|(a, b)| a != b)
                .map_or_else(
                    || old.lines().count().min(fresh.lines().count()) + 1,
                    |i| i + 1,
                );
            panic!("{rel} is not what the API generates (first difference at line {line}); regenerate it: {regenerate}");
        }
    }

    #[test]
    fn committed_stubs_are_fresh() {
        let args = Args {
            lua: true,
            markdown: false,
            luacheckrc: false,
            luarc: false,
            types: "types".into(),
        };
        same(
            "behaviours/types/overmind.d.lua",
            &text(&args),
            "cargo run -- api --lua > behaviours/types/overmind.d.lua",
        );
    }

    #[test]
    fn committed_reference_is_fresh() {
        let args = Args {
            lua: false,
            markdown: true,
            luacheckrc: false,
            luarc: false,
            types: "types".into(),
        };
        same(
            "docs/API.md",
            &text(&args),
            "cargo run -- api --markdown > docs/API.md",
        );
    }

    #[test]
    fn committed_lint_configs_are_fresh() {
        let rc = Args {
            lua: false,
            markdown: false,
            luacheckrc: true,
            luarc: false,
            types: "types".into(),
        };
        same(
            ".luacheckrc",
            &text(&rc),
            "cargo run -- api --luacheckrc > .luacheckrc",
        );
        let luarc = Args {
            luacheckrc: false,
            luarc: true,
            types: "behaviours/types".into(),
            ..rc
        };
        same(
            ".luarc.json",
            &text(&luarc),
            "cargo run -- api --luarc --types behaviours/types > .luarc.json",
        );
    }
}
