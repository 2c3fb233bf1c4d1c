//! docs/ARCHITECTURE.md: `core` is four layers, each a folder of `core/src` importing only from
//! the layers before it — data ← board ← rules ← ai — so no module imports another that
//! imports it back, except inside one folder. Read from the source: every `crate::` path of
//! every module (comments and `#[cfg(test)]` modules left out).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers in order: each may import only from itself and the ones before it.
const LAYERS: [&str; 4] = ["data", "board", "rules", "ai"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("core/src is readable") {
        let p = e.expect("an entry").path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its comments and its test module.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Top-level folders (layers) each file's `crate::` paths name, by the file's layer.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&src).expect("under src");
        let Some(layer) = rel.components().next().and_then(|c| c.as_os_str().to_str()) else {
            continue;
        };
        if rel.components().count() == 1 {
            // lib.rs: the public paths, re-exported from the layers.
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("readable");
        let code = code(&text);
        let deps = out.entry(layer.to_string()).or_default();
        let mut rest = code.as_str();
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != layer {
                deps.insert(name);
            }
        }
    }
    out
}

#[test]
fn every_module_lives_in_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for e in std::fs::read_dir(&src).expect("core/src") {
        let p = e.expect("entry").path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        assert!(
            name == "lib.rs" || LAYERS.contains(&name),
            "core/src/{name} is outside the layers {LAYERS:?}"
        );
    }
}

#[test]
fn layers_import_only_from_the_layers_before_them() {
    let imports = imports();
    for (layer, deps) in &imports {
        let rank = LAYERS
            .iter()
            .position(|l| l == layer)
            .unwrap_or_else(|| panic!("{layer} is not a layer"));
        for d in deps {
            let Some(r) = LAYERS.iter().position(|l| l == d) else {
                panic!("{layer} names crate::{d}, which is not a layer (use its folder's path)");
            };
            assert!(
                r < rank,
                "{layer} imports from {d}: arrows point down only ({})",
                LAYERS.join(" <- ")
            );
        }
    }
    assert!(
        imports.get("data").is_none_or(BTreeSet::is_empty),
        "data imports nothing above it: {:?}",
        imports.get("data")
    );
}
