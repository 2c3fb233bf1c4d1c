//! The committed LuaLS stubs and API reference are exactly what the API's own definitions
//! generate, so the docs cannot drift from the binding.

use overmind_scripting::apidoc;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Compare a committed file with fresh output; `OVERMIND_BLESS=1` rewrites it instead.
fn check(rel: &str, fresh: &str, command: &str) {
    let path = root().join(rel);
    if std::env::var_os("OVERMIND_BLESS").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create folder");
        }
        std::fs::write(&path, fresh).expect("write");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{rel} is out of date with the Lua API's definitions (scripting/src/api). Regenerate it: \
         run `{command}` (or `OVERMIND_BLESS=1 cargo test -p overmind-scripting --test it api_docs::`)"
    );
}

#[test]
fn the_lua_stubs_are_up_to_date() {
    check(
        "behaviours/types/overmind.d.lua",
        &apidoc::lua_stubs(),
        "cargo run -- api --lua > behaviours/types/overmind.d.lua",
    );
}

#[test]
fn the_api_reference_is_up_to_date() {
    check(
        "docs/API.md",
        &apidoc::markdown(),
        "cargo run -- api --markdown > docs/API.md",
    );
}

#[test]
fn every_function_and_field_is_documented() {
    for t in overmind_scripting::api::TABLES {
        let d = t.describe();
        assert!(!d.doc.is_empty());
        for f in &d.functions {
            assert!(!f.doc.is_empty(), "{}.{}", d.name, f.name);
            for p in f.params {
                assert!(
                    !p.doc.is_empty() && !p.ty.is_empty(),
                    "{}.{} {}",
                    d.name,
                    f.name,
                    p.name
                );
            }
        }
        for f in &d.fields {
            assert!(!f.doc.is_empty(), "{}.{}", d.name, f.name);
        }
    }
}

#[test]
fn the_stubs_are_valid_lua() {
    let lua = overmind_scripting::mlua::Lua::new();
    lua.load(apidoc::lua_stubs())
        .set_name("overmind.d.lua")
        .exec()
        .unwrap_or_else(|e| panic!("{e}"));
}
