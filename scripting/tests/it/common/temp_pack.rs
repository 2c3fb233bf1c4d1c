//! A pack written into a temporary directory, file by file, for tests that load, check and
//! hot-reload one.

use overmind_scripting::pack::PackSet;
use overmind_scripting::Problem;
use std::fs;
use std::path::PathBuf;

/// A pack named `t` in a temp dir (removed when dropped).
pub struct Pack {
    _tmp: tempfile::TempDir,
    pub dir: PathBuf,
}

impl Pack {
    /// `pack.toml` and `files`, each `(path in the pack, text)`.
    pub fn new(files: &[(&str, &str)]) -> Pack {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().join("t");
        let p = Pack { _tmp: tmp, dir };
        p.write("pack.toml", "name = \"t\"\nversion = \"0.1.0\"\n");
        for (rel, text) in files {
            p.write(rel, text);
        }
        p
    }

    /// Writes (or replaces) one file of the pack, making its folders; returns its path.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.dir.join(rel);
        if let Some(parent) = p.parent() {
            fs::create_dir_all(parent).expect("folder");
        }
        fs::write(&p, text).expect("write");
        p
    }

    /// The pack loaded alone; panics with every problem when it does not load.
    pub fn load(&self) -> PackSet {
        match PackSet::load(std::slice::from_ref(&self.dir)) {
            Ok(s) => s,
            Err(ps) => panic!("the test pack loads: {}", lines(&ps)),
        }
    }

    /// Every problem loading the pack finds.
    pub fn problems(&self) -> Vec<Problem> {
        PackSet::load_partial(std::slice::from_ref(&self.dir)).1
    }
}

/// Problems one a line.
pub fn lines(ps: &[Problem]) -> String {
    ps.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}
