//! Drawing a mission's map for the terminal: the file's double-resolution drawing, with axis
//! labels, units and a legend, coloured with ANSI styles or plain.
//!
//! Plain output is the coloured output without its escape codes, so both read the same way and
//! tests of the plain text cover the layout of both.

use anstyle::{AnsiColor, Color, Style};
use overmind_core::{Edge, Map, Mission, Pos, Terrain};
use std::collections::HashMap;
use std::fmt::Write as _;

/// What stands on a square, as drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A hero, drawn by its symbol (`1`–`9`, then `A`–`Z`).
    Hero(char),
    /// A Blip Token, drawn `?`.
    Blip,
    /// A model of a revealed Alien Unit, drawn by its unit's letter.
    Alien(char),
}

impl Unit {
    /// The label a command may use for it: a Hero's number or a unit's letter (Blips have
    /// none: `?` names nothing).
    #[must_use]
    pub fn label(self) -> Option<char> {
        match self {
            Unit::Hero(c) | Unit::Alien(c) if c.is_ascii_alphanumeric() => Some(c),
            _ => None,
        }
    }

    fn symbol(self) -> char {
        match self {
            Unit::Hero(c) | Unit::Alien(c) => c,
            Unit::Blip => '?',
        }
    }
}

/// The symbol of the `i`th hero (0-based): `1`–`9`, then `A`–`Z`, then `@` for the rest.
#[must_use]
pub fn hero_symbol(i: usize) -> char {
    const SYMBOLS: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    SYMBOLS.get(i).map_or('@', |&b| char::from(b))
}

/// Every unit of a mission by square, heroes with their symbols.
#[must_use]
pub fn units(mission: &Mission) -> HashMap<Pos, Unit> {
    let heroes = mission
        .heroes
        .iter()
        .enumerate()
        .map(|(i, h)| (h.at, Unit::Hero(hero_symbol(i))));
    let blips = mission.blips.iter().map(|b| (b.at, Unit::Blip));
    heroes.chain(blips).collect()
}

/// Text written with or without ANSI styles.
struct Painter {
    out: String,
    colour: bool,
}

impl Painter {
    fn paint(&mut self, style: Style, text: impl std::fmt::Display) {
        // Writing to a String cannot fail.
        let _ = if self.colour && !style.is_plain() {
            write!(self.out, "{}{text}{}", style.render(), style.render_reset())
        } else {
            write!(self.out, "{text}")
        };
    }

    fn plain(&mut self, text: impl std::fmt::Display) {
        let _ = write!(self.out, "{text}");
    }

    /// End a line, dropping trailing blanks so plain output has none.
    fn newline(&mut self) {
        let trimmed = self.out.trim_end_matches(' ').len();
        self.out.truncate(trimmed);
        self.out.push('\n');
    }
}

/// Marks drawn over the board (`los`, `reach`).
const MARK: Style = Style::new()
    .fg_color(Some(Color::Ansi(AnsiColor::BrightMagenta)))
    .bold();

const fn bg(c: AnsiColor) -> Style {
    Style::new().bg_color(Some(Color::Ansi(c)))
}

const fn fg(c: AnsiColor) -> Style {
    Style::new().fg_color(Some(Color::Ansi(c)))
}

fn terrain_style(t: Terrain) -> Style {
    match t {
        Terrain::Plain => Style::new(),
        Terrain::Red => bg(AnsiColor::Red).fg_color(Some(Color::Ansi(AnsiColor::BrightWhite))),
        Terrain::Green => bg(AnsiColor::Green).fg_color(Some(Color::Ansi(AnsiColor::Black))),
        Terrain::Yellow => bg(AnsiColor::Yellow).fg_color(Some(Color::Ansi(AnsiColor::Black))),
        Terrain::Building => {
            bg(AnsiColor::Blue).fg_color(Some(Color::Ansi(AnsiColor::BrightWhite)))
        }
        Terrain::Solid => bg(AnsiColor::BrightBlack).fg_color(Some(Color::Ansi(AnsiColor::White))),
    }
}

const WALL: Style = fg(AnsiColor::BrightWhite).bold();
const GREEN_SIDE: Style = fg(AnsiColor::BrightGreen).bold();
const HERO: Style = fg(AnsiColor::BrightCyan).bold();
const BLIP: Style = fg(AnsiColor::BrightMagenta).bold();
const ALIEN: Style = fg(AnsiColor::BrightRed).bold();
const LABEL: Style = Style::new().dimmed();

fn unit_style(u: Unit, under: Terrain) -> Style {
    let base = match u {
        Unit::Hero(_) => HERO,
        Unit::Blip => BLIP,
        Unit::Alien(_) => ALIEN,
    };
    base.bg_color(terrain_style(under).get_bg_color())
}

fn edge_char(e: Edge, vertical: bool) -> (char, Style) {
    match (e, vertical) {
        (Edge::Wall, true) => ('|', WALL),
        (Edge::Wall, false) => ('-', WALL),
        (Edge::Green, true) => (':', GREEN_SIDE),
        (Edge::Green, false) => ('=', GREEN_SIDE),
        // A Ruined Wall is an opening (docs/RULES.md §5.4).
        (Edge::Open | Edge::Ruined, _) => (' ', Style::new()),
    }
}

/// The background for the gaps between `squares` (an edge's two, a corner's four) when they
/// are one building or all solid, so buildings and thick walls read as blocks in colour.
fn fill(map: &Map, squares: &[Pos]) -> Option<Color> {
    let first = *squares.first()?;
    let t = map.terrain(first);
    let same = squares.iter().all(|&q| {
        map.in_bounds(q) && map.terrain(q) == t && map.building(q) == map.building(first)
    });
    (same && matches!(t, Terrain::Building | Terrain::Solid))
        .then(|| terrain_style(t).get_bg_color())
        .flatten()
}

/// The map with axis labels (`x` across the top, `y` down the side) and units drawn on it
/// (the commands draw with [`marked`], for their tokens and marks).
#[cfg(test)]
#[must_use]
pub fn map(map: &Map, units: &HashMap<Pos, Unit>, colour: bool) -> String {
    marked(map, units, &HashMap::new(), colour)
}

/// [`map`] with `marks` drawn on squares that hold no unit (`los`, `reach`).
#[must_use]
pub fn marked(
    map: &Map,
    units: &HashMap<Pos, Unit>,
    marks: &HashMap<Pos, char>,
    colour: bool,
) -> String {
    let mut p = Painter {
        out: String::new(),
        colour,
    };
    let (w, h) = (map.width(), map.height());
    let margin = (h - 1).max(0).to_string().len();
    // One header line per digit of the largest x, most significant first.
    let digits = (w - 1).max(0).to_string().len();
    for place in (0..digits).rev() {
        p.plain(" ".repeat(margin + 1));
        let scale = 10_i32.pow(place as u32);
        for x in 0..w {
            let digit = if x >= scale || place == 0 {
                char::from_digit(((x / scale) % 10) as u32, 10).unwrap_or(' ')
            } else {
                ' '
            };
            p.plain(' ');
            p.paint(LABEL, digit);
        }
        p.newline();
    }
    for r in 0..=2 * h {
        let y = r / 2;
        if r % 2 == 1 {
            p.paint(LABEL, format!("{y:>margin$}"));
        } else {
            p.plain(" ".repeat(margin));
        }
        p.plain(' ');
        for c in 0..=2 * w {
            let x = c / 2;
            match (r % 2 == 1, c % 2 == 1) {
                (true, true) => {
                    let at = Pos::new(x, y);
                    let t = map.terrain(at);
                    match (units.get(&at), marks.get(&at)) {
                        (Some(&u), _) => p.paint(unit_style(u, t), u.symbol()),
                        (None, Some(&c)) => {
                            p.paint(MARK.bg_color(terrain_style(t).get_bg_color()), c);
                        }
                        (None, None) => p.paint(terrain_style(t), t.symbol()),
                    }
                }
                (true, false) => {
                    let (ch, style) = edge_char(map.west_edge(x, y), true);
                    let fill = fill(map, &[Pos::new(x - 1, y), Pos::new(x, y)]);
                    p.paint(style.bg_color(fill.or(style.get_bg_color())), ch);
                }
                (false, true) => {
                    let (ch, style) = edge_char(map.north_edge(x, y), false);
                    let fill = fill(map, &[Pos::new(x, y - 1), Pos::new(x, y)]);
                    p.paint(style.bg_color(fill.or(style.get_bg_color())), ch);
                }
                (false, false) => {
                    // A corner shows `+` where a wall meets it.
                    let walled = map.north_edge(x - 1, y) == Edge::Wall && x > 0
                        || map.north_edge(x, y) == Edge::Wall && x < w
                        || map.west_edge(x, y - 1) == Edge::Wall && y > 0
                        || map.west_edge(x, y) == Edge::Wall && y < h;
                    let around = [
                        Pos::new(x - 1, y - 1),
                        Pos::new(x, y - 1),
                        Pos::new(x - 1, y),
                        Pos::new(x, y),
                    ];
                    if walled {
                        p.paint(WALL.bg_color(fill(map, &around)), '+');
                    } else {
                        p.paint(Style::new().bg_color(fill(map, &around)), ' ');
                    }
                }
            }
        }
        p.newline();
    }
    p.out
}

/// The legend: what each symbol means, and which unit is which.
#[must_use]
pub fn legend(mission: &Mission, colour: bool) -> String {
    let mut p = Painter {
        out: String::new(),
        colour,
    };
    let terrain = [
        (Terrain::Plain, "plain"),
        (Terrain::Red, "red: Defence -1"),
        (Terrain::Green, "green: cover across its green sides"),
        (Terrain::Yellow, "yellow: deployment, extraction"),
        (Terrain::Building, "building"),
        (Terrain::Solid, "solid: blocks movement and sight"),
    ];
    let edges = [
        ("| -", WALL, "wall"),
        (": =", GREEN_SIDE, "green side (cover)"),
        ("+", WALL, "corner where walls meet"),
        ("1 A", HERO, "hero, numbered then lettered"),
        ("?", BLIP, "Blip Token"),
        ("", Style::new(), "a blank edge is open"),
    ];
    p.plain("Legend:");
    p.newline();
    for ((t, text), (symbols, style, meaning)) in terrain.iter().zip(edges) {
        p.plain("  ");
        p.paint(terrain_style(*t), t.symbol());
        p.plain(format!("  {text:<38}"));
        for ch in symbols.chars() {
            if ch == ' ' {
                p.plain(' ');
            } else {
                p.paint(style, ch);
            }
        }
        p.plain(format!("{:pad$}  {meaning}", "", pad = 3 - symbols.len()));
        p.newline();
    }
    let units = mission
        .heroes
        .iter()
        .enumerate()
        .map(|(i, u)| (Unit::Hero(hero_symbol(i)), "hero", u))
        .chain(mission.blips.iter().map(|u| (Unit::Blip, "blip", u)));
    let mut any = false;
    for (unit, noun, placement) in units {
        if !any {
            p.plain("Units:");
            p.newline();
            any = true;
        }
        p.plain("  ");
        let style = match unit {
            Unit::Hero(_) => HERO,
            Unit::Blip => BLIP,
            Unit::Alien(_) => ALIEN,
        };
        p.paint(style, unit.symbol());
        let t = mission.map.terrain(placement.at);
        let on = if t == Terrain::Plain {
            String::new()
        } else {
            format!(" ({})", t.name())
        };
        p.plain(format!(
            "  {noun} {:<12} at {}{on}",
            placement.id, placement.at
        ));
        p.newline();
    }
    p.out
}

/// A one-line key to the map for the play screen; `tokens` are the symbols of the tokens on
/// the map with what each is (every one of them, so no symbol goes unexplained).
#[must_use]
pub fn key(colour: bool, tokens: &[(char, String)]) -> String {
    let mut p = Painter {
        out: String::new(),
        colour,
    };
    p.plain("Key: ");
    for (t, text) in [
        (Terrain::Red, "red:Def-1"),
        (Terrain::Green, "green"),
        (Terrain::Yellow, "yellow"),
        (Terrain::Building, "building"),
        (Terrain::Solid, "solid"),
    ] {
        p.paint(terrain_style(t), t.symbol());
        p.plain(format!(" {text} "));
    }
    p.paint(WALL, "|-");
    p.plain(" wall ");
    p.paint(GREEN_SIDE, ":=");
    p.plain(" green side ");
    p.paint(HERO, "1");
    p.plain(" hero ");
    p.paint(ALIEN, "A");
    p.plain(" alien ");
    p.paint(BLIP, "?");
    p.plain(" Blip");
    for (sym, what) in tokens {
        p.plain(" ");
        p.paint(MARK, sym);
        p.plain(format!(" {what}"));
    }
    p.newline();
    p.out
}

/// A unit's symbol painted as the map paints it (for tables beside the map).
#[must_use]
pub fn symbol(u: Unit, colour: bool) -> String {
    let mut p = Painter {
        out: String::new(),
        colour,
    };
    p.paint(unit_style(u, Terrain::Plain), u.symbol());
    p.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use overmind_core::MapBuilder;

    #[test]
    fn hero_symbols_run_digits_then_letters() {
        assert_eq!(hero_symbol(0), '1');
        assert_eq!(hero_symbol(8), '9');
        assert_eq!(hero_symbol(9), 'A');
        assert_eq!(hero_symbol(1000), '@');
    }

    #[test]
    fn plain_is_coloured_without_escapes() {
        let m = MapBuilder::from_drawing("+-+-+\n|r g|\n+ +-+\n|b #|\n+-+-+").build();
        let mut u = HashMap::new();
        u.insert(Pos::new(0, 0), Unit::Hero('1'));
        u.insert(Pos::new(0, 1), Unit::Blip);
        let plain = map(&m, &u, false);
        let coloured = map(&m, &u, true);
        assert_ne!(plain, coloured);
        let mut stripped = String::new();
        let mut in_escape = false;
        for c in coloured.chars() {
            match (in_escape, c) {
                (false, '\u{1b}') => in_escape = true,
                (true, 'm') => in_escape = false,
                (true, _) => {}
                (false, c) => stripped.push(c),
            }
        }
        // Coloured lines may end in a reset code after blanks; compare line by line trimmed.
        let trim = |s: &str| {
            s.lines()
                .map(|l| l.trim_end().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(trim(&stripped), trim(&plain));
        assert_eq!(
            plain,
            "   0 1\n  +-+-+\n0 |1:g|\n  + +-+\n1 |? #|\n  +-+-+\n"
        );
    }

    #[test]
    fn wide_maps_get_a_tens_row() {
        let m = MapBuilder::new(12, 1).build();
        let out = map(&m, &HashMap::new(), false);
        let mut lines = out.lines();
        assert_eq!(lines.next(), Some("                       1 1"));
        assert_eq!(lines.next(), Some("   0 1 2 3 4 5 6 7 8 9 0 1"));
    }
}
