//! ANSI-styled text, as render.rs paints it, turned into styled cells, so the full-screen map
//! and its key are drawn by the very code that draws them in line mode.

use ratatui::style::{Color, Modifier, Style};

/// One character and its style.
pub type Cell = (char, Style);

/// Each line of `text` as styled characters. SGR escapes (`ESC [ … m`) set the style; any
/// other escape sequence is dropped.
#[must_use]
pub fn cells(text: &str) -> Vec<Vec<Cell>> {
    text.lines().map(line).collect()
}

fn line(l: &str) -> Vec<Cell> {
    let mut out = Vec::new();
    let mut style = Style::default();
    let mut chars = l.chars();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push((c, style));
            continue;
        }
        // `ESC [` params, then one final byte; only `m` (SGR) means anything here.
        if chars.next() != Some('[') {
            continue;
        }
        let mut params = String::new();
        for d in chars.by_ref() {
            if d.is_ascii_digit() || d == ';' {
                params.push(d);
            } else {
                if d == 'm' {
                    style = sgr(style, &params);
                }
                break;
            }
        }
    }
    out
}

fn basic(n: u16, bright: bool) -> Color {
    match (n, bright) {
        (0, false) => Color::Black,
        (1, false) => Color::Red,
        (2, false) => Color::Green,
        (3, false) => Color::Yellow,
        (4, false) => Color::Blue,
        (5, false) => Color::Magenta,
        (6, false) => Color::Cyan,
        (_, false) => Color::Gray,
        (0, true) => Color::DarkGray,
        (1, true) => Color::LightRed,
        (2, true) => Color::LightGreen,
        (3, true) => Color::LightYellow,
        (4, true) => Color::LightBlue,
        (5, true) => Color::LightMagenta,
        (6, true) => Color::LightCyan,
        (_, true) => Color::White,
    }
}

/// `38;5;N` / `38;2;R;G;B` (and 48 for the background): the colour, and how many codes it took.
fn extended(codes: &[u16]) -> (Option<Color>, usize) {
    let byte = |i: usize| codes.get(i).map(|&c| u8::try_from(c).unwrap_or(u8::MAX));
    match codes.first() {
        Some(5) => (byte(1).map(Color::Indexed), 2),
        Some(2) => match (byte(1), byte(2), byte(3)) {
            (Some(r), Some(g), Some(b)) => (Some(Color::Rgb(r, g, b)), 4),
            _ => (None, codes.len()),
        },
        _ => (None, codes.len()),
    }
}

fn sgr(mut style: Style, params: &str) -> Style {
    let codes: Vec<u16> = params.split(';').map(|p| p.parse().unwrap_or(0)).collect();
    let mut i = 0;
    while i < codes.len() {
        let code = codes[i];
        i += 1;
        style = match code {
            0 => Style::default(),
            1 => style.add_modifier(Modifier::BOLD),
            2 => style.add_modifier(Modifier::DIM),
            3 => style.add_modifier(Modifier::ITALIC),
            4 => style.add_modifier(Modifier::UNDERLINED),
            7 => style.add_modifier(Modifier::REVERSED),
            22 => style.remove_modifier(Modifier::BOLD | Modifier::DIM),
            23 => style.remove_modifier(Modifier::ITALIC),
            24 => style.remove_modifier(Modifier::UNDERLINED),
            27 => style.remove_modifier(Modifier::REVERSED),
            30..=37 => style.fg(basic(code - 30, false)),
            90..=97 => style.fg(basic(code - 90, true)),
            40..=47 => style.bg(basic(code - 40, false)),
            100..=107 => style.bg(basic(code - 100, true)),
            39 => style.fg(Color::Reset),
            49 => style.bg(Color::Reset),
            38 | 48 => {
                let (colour, used) = extended(&codes[i..]);
                i += used;
                match (code, colour) {
                    (38, Some(c)) => style.fg(c),
                    (48, Some(c)) => style.bg(c),
                    _ => style,
                }
            }
            _ => style,
        };
    }
    style
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_become_styles_and_the_text_stays() {
        let text = "a\u{1b}[1m\u{1b}[91m\u{1b}[44mB\u{1b}[0mc\n\u{1b}[2md\u{1b}[0m";
        let lines = cells(text);
        let chars: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|c| c.0).collect())
            .collect();
        assert_eq!(chars, ["aBc", "d"]);
        assert_eq!(lines[0][0].1, Style::default());
        assert_eq!(
            lines[0][1].1,
            Style::default()
                .add_modifier(Modifier::BOLD)
                .fg(Color::LightRed)
                .bg(Color::Blue)
        );
        assert_eq!(lines[0][2].1, Style::default());
        assert_eq!(lines[1][0].1, Style::default().add_modifier(Modifier::DIM));
    }

    #[test]
    fn the_map_in_colour_reads_as_the_plain_map() {
        let m =
            overmind_core::MapBuilder::from_drawing("+-+-+\n|r g|\n+ +-+\n|b #|\n+-+-+").build();
        let none = std::collections::HashMap::new();
        let plain = crate::render::map(&m, &none, false);
        let coloured = cells(&crate::render::map(&m, &none, true));
        let text: Vec<String> = coloured
            .iter()
            .map(|l| {
                l.iter()
                    .map(|c| c.0)
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect();
        assert_eq!(text, plain.lines().collect::<Vec<_>>());
        assert!(coloured.iter().flatten().any(|c| c.1.bg.is_some()));
    }
}
