//! The map as inline SVG, drawn as the terminal draws it: one cell per square coloured by its
//! kind, walls and green sides on the edges, buildings as blocks, axis labels.

use overmind_core::{Edge, Map, Pos, Terrain};
use std::fmt::Write as _;

/// Side of one square, in SVG units.
pub const CELL: i32 = 32;
/// Room for the axis labels left of and above the map.
pub const MARGIN: i32 = 20;

/// The CSS class of a terrain.
#[must_use]
pub fn terrain_class(t: Terrain) -> &'static str {
    match t {
        Terrain::Plain => "t-plain",
        Terrain::Red => "t-red",
        Terrain::Green => "t-green",
        Terrain::Yellow => "t-yellow",
        Terrain::Building => "t-building",
        Terrain::Solid => "t-solid",
    }
}

/// The `<svg>` of the map: `<rect class="cell …">` per square (with `data-x`, `data-y`), the
/// edges, and empty layers the page's script draws into (`sight`, `pieces`).
#[must_use]
pub fn svg(map: &Map) -> String {
    let (w, h) = (map.width(), map.height());
    let (vw, vh) = (MARGIN + w * CELL + 2, MARGIN + h * CELL + 2);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg id=\"board\" viewBox=\"0 0 {vw} {vh}\" role=\"img\" \
         aria-label=\"the map, {w} by {h} squares\" xmlns=\"http://www.w3.org/2000/svg\">\n\
         <g id=\"cells\" transform=\"translate({MARGIN} {MARGIN})\">\n"
    );
    for y in 0..h {
        for x in 0..w {
            let p = Pos::new(x, y);
            let t = map.terrain(p);
            let _ = writeln!(
                s,
                "<rect class=\"cell {}\" data-x=\"{x}\" data-y=\"{y}\" x=\"{}\" y=\"{}\" \
                 width=\"{CELL}\" height=\"{CELL}\"><title>{x},{y} {}</title></rect>",
                terrain_class(t),
                x * CELL,
                y * CELL,
                t.name()
            );
        }
    }
    let _ = writeln!(
        s,
        "</g>\n<g id=\"edges\" transform=\"translate({MARGIN} {MARGIN})\">"
    );
    for y in 0..h {
        for x in 0..=w {
            edge(&mut s, map.west_edge(x, y), (x, y), (x, y + 1));
        }
    }
    for y in 0..=h {
        for x in 0..w {
            edge(&mut s, map.north_edge(x, y), (x, y), (x + 1, y));
        }
    }
    s.push_str("</g>\n<g id=\"labels\">\n");
    for x in 0..w {
        let _ = writeln!(
            s,
            "<text class=\"axis\" x=\"{}\" y=\"{}\">{x}</text>",
            MARGIN + x * CELL + CELL / 2,
            MARGIN - 6
        );
    }
    for y in 0..h {
        let _ = writeln!(
            s,
            "<text class=\"axis\" x=\"{}\" y=\"{}\">{y}</text>",
            MARGIN / 2,
            MARGIN + y * CELL + CELL / 2 + 4
        );
    }
    let _ = write!(
        s,
        "</g>\n<g id=\"tokens\" transform=\"translate({MARGIN} {MARGIN})\"></g>\n\
         <g id=\"sight\" transform=\"translate({MARGIN} {MARGIN})\"></g>\n\
         <g id=\"pieces\" transform=\"translate({MARGIN} {MARGIN})\"></g>\n</svg>"
    );
    s
}

/// One edge from corner `a` to corner `b` (in squares): a wall or a green side; open edges
/// are not drawn.
fn edge(s: &mut String, e: Edge, a: (i32, i32), b: (i32, i32)) {
    let class = match e {
        Edge::Open => return,
        Edge::Wall => "wall",
        Edge::Green => "green-side",
        // A Ruined Wall is an opening: drawn faint, as rubble.
        Edge::Ruined => "ruined",
    };
    let _ = writeln!(
        s,
        "<line class=\"{class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
        a.0 * CELL,
        a.1 * CELL,
        b.0 * CELL,
        b.1 * CELL
    );
}

/// The legend under the board: each square kind and edge as drawn.
#[must_use]
pub fn legend() -> String {
    let mut s = String::from("<ul class=\"legend\">");
    for (t, text) in [
        (Terrain::Plain, "plain"),
        (Terrain::Red, "red: Defence −1"),
        (Terrain::Green, "green: cover across its green sides"),
        (Terrain::Yellow, "yellow: deployment, extraction"),
        (Terrain::Building, "building"),
        (Terrain::Solid, "solid: blocks movement and sight"),
    ] {
        let _ = write!(
            s,
            "<li><span class=\"swatch {}\"></span>{text}</li>",
            terrain_class(t)
        );
    }
    s.push_str(
        "<li><span class=\"swatch edge-wall\"></span>wall</li>\
         <li><span class=\"swatch edge-green\"></span>green side</li>\
         <li><span class=\"swatch piece-hero\"></span>hero</li>\
         <li><span class=\"swatch piece-alien\"></span>alien</li>\
         <li><span class=\"swatch piece-blip\"></span>Blip</li></ul>",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use overmind_core::MapBuilder;

    #[test]
    fn one_cell_per_square_and_each_wall_and_green_side_drawn() {
        let m = MapBuilder::from_drawing("+-+-+\n|r g|\n+ +=+\n|b #|\n+-+-+").build();
        let s = svg(&m);
        assert_eq!(s.matches("<rect class=\"cell").count(), 4);
        assert!(s.contains("class=\"cell t-red\" data-x=\"0\" data-y=\"0\""));
        assert!(s.contains("class=\"cell t-solid\" data-x=\"1\" data-y=\"1\""));
        assert_eq!(s.matches("class=\"green-side\"").count(), 1);
        // The outline: 2 + 2 across, 2 + 2 down, and the wall between 0,0 and 0,1 is open.
        assert_eq!(s.matches("class=\"wall\"").count(), 8);
    }
}
