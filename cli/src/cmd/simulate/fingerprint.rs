//! The content fingerprint of shards: a hash of what the packs and the mission hold, not where.

use std::path::{Path, PathBuf};

/// A fingerprint of everything a run reads that can change a game: each pack's files in load
/// order (`overmind_scripting::pack::content_files`: `pack.toml`, `rules.toml`, the content
/// folders), each named by its path inside its pack, then the mission file. Shards of one
/// simulation run on other machines, from checkouts at other paths, agree on it; shards whose
/// packs differ in one byte do not. FNV-1a, 64 bits, as the saves' hashes.
pub(super) fn content_fingerprint(dirs: &[PathBuf], mission: Option<&Path>) -> String {
    let mut h = crate::save::Fnv::default();
    let file = |h: &mut crate::save::Fnv, name: &Path, path: &Path| {
        h.write(name.to_string_lossy().as_bytes());
        h.write(&[0]);
        match overmind_core::source::read_regular(
            path,
            overmind_core::source::MAX_TEXT_BYTES,
            "a data file",
        ) {
            Ok(bytes) => {
                h.write(&(bytes.len() as u64).to_le_bytes());
                h.write(&bytes);
            }
            Err(_) => h.write(b"unreadable"),
        }
    };
    for dir in dirs {
        h.write(b"pack\0");
        for path in overmind_scripting::pack::content_files(dir) {
            let name = path.strip_prefix(dir).unwrap_or(&path);
            file(&mut h, name, &path);
        }
    }
    if let Some(m) = mission {
        h.write(b"mission\0");
        file(&mut h, Path::new(""), m);
    }
    h.hex()
}
