//! Shared helpers for the workspace integration tests in `tests/tests/`.

use std::path::PathBuf;

/// The workspace root (the folder holding `behaviours/`).
#[must_use]
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}
