//! `overmind api --lua | --markdown`: the Lua API as LuaLS type stubs or as a Markdown reference, generated from the definitions that bind it.
//!
//! The committed `behaviours/types/overmind.d.lua` and `docs/API.md` are this command's
//! output; a test below fails when they drift from the binding.

use super::check::print;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
#[group(required = true, multiple = false)]
pub struct Args {
    /// LuaLS type stubs, for editors (`behaviours/types/overmind.d.lua`).
    #[arg(long)]
    pub lua: bool,
    /// The reference page (`docs/API.md`).
    #[arg(long)]
    pub markdown: bool,
}

/// The text `args` asks for.
#[must_use]
pub fn text(args: &Args) -> String {
    if args.lua {
        overmind_scripting::apidoc::lua_stubs()
    } else {
        overmind_scripting::apidoc::markdown()
    }
}

/// Run `overmind api`.
#[must_use]
pub fn run(args: &Args) -> ExitCode {
    print(&text(args));
    ExitCode::SUCCESS
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
        };
        same(
            "docs/API.md",
            &text(&args),
            "cargo run -- api --markdown > docs/API.md",
        );
    }
}
