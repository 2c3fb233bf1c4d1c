//! Self-contained HTML pages (`replay --html`, `simulate --html`): escaping, embedded data,
//! the shared page shell, and writing the file atomically.

pub mod board;
pub mod frames;
pub mod replay;
pub mod report;

use crate::error::CliError;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// The style every page shares.
const PAGE_CSS: &str = include_str!("page.css");

/// `text` escaped for HTML text and for attribute values in double or single quotes.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `value` as JSON safe inside `<script type="application/json">`: no `<`, `>` or `&` at all
/// (so no `</script>` and no `<!--` can end or change the element), written as `\u` escapes
/// that `JSON.parse` reads back as they were.
#[must_use]
pub fn json_for_script<T: Serialize>(value: &T) -> String {
    // Plain data with string keys: serialising cannot fail; were it to, the page gets `null`.
    let text = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page: the shared style plus `css`, the `body`, the data as JSON in
/// `<script type="application/json" id="data">`, then `script`.
#[must_use]
pub fn page(title: &str, css: &str, body: &str, data: &str, script: &str) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n\
         <title>{}</title>\n<style>\n{PAGE_CSS}\n{css}\n</style>\n</head>\n<body>\n{body}\n\
         <script type=\"application/json\" id=\"data\">{data}</script>\n<script>\n{script}\n\
         </script>\n</body>\n</html>\n",
        escape(title)
    );
    out
}

/// Write a page to `path` atomically (a temporary file beside it, synced, renamed over it),
/// as saves are written; only a regular file: a directory, a symbolic link or anything else
/// standing at `path` is refused.
///
/// # Errors
/// The file cannot be written, or something other than a regular file stands there; the
/// message names the file.
pub fn write(path: &Path, text: &str) -> Result<(), CliError> {
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if m.file_type().is_symlink() {
            return Err(CliError::Failed(format!(
                "cannot write {}: it is a symbolic link (a page is only written to a regular \
                 file)",
                path.display()
            )));
        }
    }
    let new = std::fs::symlink_metadata(path).is_err();
    crate::save::write_regular(path, text, "cannot write", "a page").map_err(CliError::Failed)?;
    // A new page is for reading by anyone, as a browser or a web server would (the temporary
    // file it was written as is private to its owner).
    #[cfg(unix)]
    if new {
        use std::os::unix::fs::PermissionsExt as _;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644));
    }
    #[cfg(not(unix))]
    let _ = new;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape("<b a=\"x\">'&'</b>"),
            "&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;"
        );
    }

    #[test]
    fn embedded_json_cannot_close_its_script_and_reads_back() {
        let v = serde_json::json!({"name": "</script><!-- & >"});
        let text = json_for_script(&v);
        assert!(!text.contains('<') && !text.contains('>') && !text.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert_eq!(back, v);
    }

    #[test]
    fn writing_refuses_links_and_directories_and_names_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let e = write(dir.path(), "x").expect_err("a directory");
        assert!(
            e.to_string().contains(&dir.path().display().to_string()),
            "{e}"
        );
        let target = dir.path().join("t.html");
        std::fs::write(&target, "old").expect("write");
        let link = dir.path().join("l.html");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&target, &link).expect("link");
            let e = write(&link, "new").expect_err("a link");
            assert!(e.to_string().contains("symbolic link"), "{e}");
            assert_eq!(std::fs::read_to_string(&target).expect("read"), "old");
        }
        write(&target, "new").expect("a regular file");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "new");
        let e = write(&dir.path().join("no/such/dir/p.html"), "x").expect_err("no dir");
        assert!(e.to_string().contains("p.html"), "{e}");
    }
}
