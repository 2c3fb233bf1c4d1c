//! Writing a command's output to stdout, and deciding whether it may be coloured.

use std::io::{IsTerminal, Write};

/// Colour only for a terminal, and never with `--plain` or a non-empty `NO_COLOR`
/// (<https://no-color.org>).
#[must_use]
pub fn use_colour(plain: bool) -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    !plain && !no_color && std::io::stdout().is_terminal()
}

/// Write all of `text` to stdout at once; errors (a closed pipe) go back to `main`.
pub fn print(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}
