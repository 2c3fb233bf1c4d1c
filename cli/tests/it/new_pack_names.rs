//! `overmind new pack DIR` refuses a pack id that could never load (issue 23 l): `base`, reserved
//! for the base pack, or the name of the base pack it is loaded with. Such a pack used to be
//! made, and every `check` and `test` of it failed (`pack "base" is loaded twice`). The refusal
//! is a usage error (exit code 2) and writes nothing.

use crate::common::*;

use std::path::Path;
use std::process::{Command, Output};

fn new_pack(cwd: &Path, base: Option<&Path>, dir: &Path) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(["new", "pack"]).arg(dir).current_dir(cwd);
    match base {
        Some(b) => cmd.env("OVERMIND_BASE", b),
        None => cmd.env_remove("OVERMIND_BASE"),
    };
    cmd.output().expect("the binary runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

#[test]
fn new_pack_base_is_refused_and_writes_nothing() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    for name in ["base", "Base", "base-"] {
        let dir = tmp.path().join(name);
        let o = new_pack(&root(), None, &dir);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o));
        assert!(
            text(&o).contains("\"base\" is reserved for the base pack"),
            "{name}: {}",
            text(&o)
        );
        assert!(!dir.exists(), "{name}: nothing is made");
    }
    // An empty directory stays empty.
    let dir = tmp.path().join("empty").join("base");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let o = new_pack(&root(), None, &dir);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(std::fs::read_dir(&dir).expect("read").count(), 0);
    // A name near it is fine.
    let dir = tmp.path().join("base_two");
    let o = new_pack(&root(), None, &dir);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn new_pack_named_as_the_base_pack_it_loads_with_is_refused() {
    // A base pack (OVERMIND_BASE) that calls itself `classic`.
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let base = tmp.path().join("mybase");
    std::fs::create_dir(&base).expect("mkdir");
    std::fs::write(
        base.join("pack.toml"),
        "name = \"classic\"\nversion = \"1\"\ndescription = \"a base\"\n",
    )
    .expect("write");
    let dir = tmp.path().join("Classic");
    let o = new_pack(tmp.path(), Some(&base), &dir);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("\"classic\" is the name of the base pack"),
        "{}",
        text(&o)
    );
    assert!(!dir.exists(), "nothing is made");
}
