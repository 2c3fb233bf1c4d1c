//! Mission files: every kind of error with its exact `line:column`, and the shipped missions.

use overmind_core::mission::ErrorKind;
use overmind_core::{Dir, Edge, LineOfSight, LosRule, Mission, MissionErrors, Pos, Terrain};
use overmind_tests::workspace_root;
use std::path::Path;

/// A valid 3×2 map (file lines 2–6 once put after `map = """` on line 1).
const MAP: &str = "\
+-+-+-+
|. . .|
+ + + +
|. # .|
+-+-+-+
";

fn with_map(map: &str, rest: &str) -> String {
    format!("map = \"\"\"\n{map}\"\"\"\n{rest}")
}

fn parse(text: &str) -> Result<Mission, MissionErrors> {
    Mission::parse(Path::new("m.toml"), text)
}

/// The errors of a bad file as `line:column: message`.
fn errors(text: &str) -> Vec<String> {
    let errs = parse(text).expect_err("the file should be rejected");
    errs.iter()
        .inspect(|e| assert!(e.to_string().starts_with("m.toml:"), "{e}"))
        .map(|e| format!("{}:{}: {}", e.line, e.column, e.message))
        .collect()
}

fn one_error(text: &str) -> String {
    let errs = errors(text);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    errs.into_iter().next().unwrap_or_default()
}

#[track_caller]
fn assert_error(text: &str, line_col: &str, needles: &[&str]) {
    let e = one_error(text);
    assert!(e.starts_with(&format!("{line_col}: ")), "{e}");
    for n in needles {
        assert!(e.contains(n), "{e:?} should contain {n:?}");
    }
}

#[test]
fn a_file_with_only_a_map_is_valid() {
    let m = parse(&with_map(MAP, "")).expect("valid");
    assert_eq!((m.map.width(), m.map.height()), (3, 2));
    assert_eq!(m.map.terrain(Pos::new(1, 1)), Terrain::Solid);
    assert!(m.heroes.is_empty() && m.blips.is_empty());
    assert_eq!(m.name, "m");
}

#[test]
fn error_display_is_path_line_column_message() {
    let err = parse("name = \"x\"\n").expect_err("no map");
    assert_eq!(
        err.to_string(),
        "m.toml:1:1: no `map` in this file: expected a key `map = \"\"\"...\"\"\"` holding the \
         drawn map"
    );
}

#[test]
fn toml_syntax_error_points_at_the_bad_token() {
    let e = one_error("name = \"x\"\nmap = \"\"\"\n+-+\n\"\"\"\nheroes = [1, 2\n");
    assert!(
        e.starts_with("5:15: invalid TOML: unclosed array, expected `]`"),
        "{e}"
    );
    assert_error(
        "name = \"x\"\nnot a key\n",
        "2:5",
        &["invalid TOML", "expected"],
    );
    assert_eq!(
        parse("a = 1\na = 2\nmap = ''\n").expect_err("dup key").0[0].kind,
        ErrorKind::Syntax
    );
}

#[test]
fn missing_map() {
    assert_error(
        "name = \"x\"\n[[heroes]]\nid = \"a\"\nat = [0, 0]\n",
        "1:1",
        &["no `map`"],
    );
}

#[test]
fn map_of_the_wrong_type() {
    assert_error(
        "name = \"x\"\nmap = 3\n",
        "2:7",
        &["`map` is an integer", "expected a multi-line string"],
    );
}

#[test]
fn line_too_long() {
    let map = MAP.replace("|. # .|", "|. # .|x");
    assert_error(
        &with_map(&map, ""),
        "5:8",
        &[
            "found 'x' past the east border",
            "8 characters long",
            "expected 7",
        ],
    );
}

#[test]
fn line_too_short_leaves_out_a_square() {
    let map = MAP.replace("|. # .|", "|. #");
    assert_error(
        &with_map(&map, ""),
        "5:6",
        &["ends before square 2,1", "expected 7 characters"],
    );
}

#[test]
fn short_lines_may_drop_trailing_blanks_only() {
    // The edge line `+ + + +` may lose its open edges and corner; the border is walled anyway.
    let map = MAP.replace("+ + + +", "+ +");
    let m = parse(&with_map(&map, "")).expect("valid");
    assert!(!m.map.wall(Pos::new(0, 0), Dir::S));
    assert!(m.map.wall(Pos::new(2, 0), Dir::E));
}

#[test]
fn even_number_of_lines() {
    let map = format!("{MAP}|. . .|\n");
    assert_error(
        &with_map(&map, ""),
        "7:1",
        &["the map has 6 lines", "expected an odd number"],
    );
}

#[test]
fn first_line_sets_the_width() {
    assert_error(
        &with_map("+-+-\n|. .|\n+-+-+\n", ""),
        "2:1",
        &["4 characters wide", "odd width"],
    );
}

#[test]
fn empty_map() {
    assert_error("map = '''\n'''\n", "1:7", &["the map is empty"]);
}

#[test]
fn trailing_blank_lines_are_ignored() {
    let text = format!("map = \"\"\"\n{MAP}\n   \n    \"\"\"\n");
    assert_eq!(parse(&text).expect("valid").map.height(), 2);
}

#[test]
fn unknown_square() {
    let map = MAP.replace("|. # .|", "|. x .|");
    assert_error(
        &with_map(&map, ""),
        "5:4",
        &["found 'x' at square 1,1", "expected a square", "'#' solid"],
    );
}

#[test]
fn blank_square() {
    let map = MAP.replace("|. # .|", "|.   .|");
    assert_error(&with_map(&map, ""), "5:4", &["found a blank at square 1,1"]);
}

#[test]
fn unknown_west_edge() {
    let map = MAP.replace("|. # .|", "|.-# .|");
    assert_error(
        &with_map(&map, ""),
        "5:3",
        &[
            "found '-' on the edge west of square 1,1",
            "expected '|' wall, ':' green side or ' ' open",
        ],
    );
}

#[test]
fn unknown_north_edge() {
    let map = MAP.replace("+ + + +", "+ +|+ +");
    assert_error(
        &with_map(&map, ""),
        "4:4",
        &[
            "found '|' on the edge north of square 1,1",
            "expected '-' wall, '=' green side or ' ' open",
        ],
    );
}

#[test]
fn unknown_corner() {
    let map = MAP.replace("+ + + +", "+ + * +");
    assert_error(
        &with_map(&map, ""),
        "4:5",
        &["found '*' at a corner", "expected '+' or ' '"],
    );
}

#[test]
fn unknown_border_characters_name_the_border() {
    let map = MAP.replace("|. . .|", "!. . .|");
    assert_error(&with_map(&map, ""), "3:1", &["on the west border"]);
}

#[test]
fn every_bad_character_is_reported() {
    let map = MAP
        .replace("|. . .|", "|x . z|")
        .replace("+ + + +", "+ * + +");
    let errs = errors(&with_map(&map, ""));
    let positions: Vec<&str> = errs.iter().filter_map(|e| e.split(": ").next()).collect();
    assert_eq!(positions, ["3:2", "3:6", "4:3"], "{errs:#?}");
}

#[test]
fn literal_string_positions_are_exact() {
    let map = MAP.replace("|. # .|", "|. x .|");
    let text = format!("map = '''\n{map}'''\n");
    assert_error(&text, "5:4", &["found 'x'"]);
}

#[test]
fn map_on_the_same_line_as_its_quotes() {
    let text = "map = \"\"\"+-+\n|x|\n+-+\"\"\"\n";
    assert_error(text, "2:2", &["found 'x' at square 0,0"]);
}

#[test]
fn escaped_basic_string_positions_are_exact() {
    // `\u002E` is '.', so columns after it shift by five characters.
    let map = MAP.replace("|. # .|", "|\\u002E # x|");
    assert_error(&with_map(&map, ""), "5:11", &["found 'x' at square 2,1"]);
}

const UNITS: &str = "
[[heroes]]
id = \"h1\"
at = [0, 0]

[[blips]]
id = \"b1\"
at = [2, 1]
";

#[test]
fn units_are_placed_and_are_obstacles() {
    let m = parse(&with_map(MAP, UNITS)).expect("valid");
    assert_eq!(m.heroes[0].id, "h1");
    assert_eq!(m.heroes[0].line, 9);
    assert_eq!(m.blips[0].at, Pos::new(2, 1));
    let o = m.obstacles();
    assert!(o.contains(Pos::new(0, 0)) && o.contains(Pos::new(2, 1)));
    assert!(!o.contains(Pos::new(1, 0)));
}

#[test]
fn overlapping_units_name_both_ids() {
    let text = with_map(MAP, &UNITS.replace("[2, 1]", "[0, 0]"));
    assert_error(
        &text,
        "15:6",
        &[
            "blip \"b1\" at 0,0",
            "same square as hero \"h1\" (line 9)",
            "expected at most one unit",
        ],
    );
}

#[test]
fn unit_on_a_solid_square() {
    let text = with_map(MAP, &UNITS.replace("[2, 1]", "[1, 1]"));
    assert_error(
        &text,
        "15:6",
        &[
            "blip \"b1\" at 1,1 is on a solid square",
            "expected a square a unit can stand on",
        ],
    );
}

#[test]
fn unit_outside_the_map() {
    let text = with_map(MAP, &UNITS.replace("[0, 0]", "[3, -1]"));
    assert_error(
        &text,
        "11:6",
        &[
            "hero \"h1\" at 3,-1 is outside the map",
            "x from 0 to 2 and y from 0 to 1",
        ],
    );
}

#[test]
fn duplicate_ids() {
    let text = with_map(MAP, &UNITS.replace("\"b1\"", "\"h1\""));
    assert_error(
        &text,
        "14:6",
        &["found id \"h1\" again", "hero at line 9", "unique"],
    );
}

#[test]
fn at_must_be_a_pair_of_integers() {
    for bad in [
        "[1]",
        "[1, 2, 3]",
        "[1.5, 2]",
        "[1, \"a\"]",
        "\"1,2\"",
        "{ x = 1, y = 2 }",
        "[1, 99999999999]",
    ] {
        let text = with_map(MAP, &UNITS.replace("[0, 0]", bad));
        let e = one_error(&text);
        assert!(e.starts_with("11:6: "), "{bad}: {e}");
        assert!(e.contains(&format!("found `at = {bad}`")), "{e}");
        assert!(
            e.contains("expected a pair of integers `at = [x, y]`"),
            "{e}"
        );
    }
}

#[test]
fn placements_need_id_and_at() {
    assert_error(
        &with_map(MAP, "[[heroes]]\nat = [0, 0]\n"),
        "8:1",
        &["this hero has no `id`"],
    );
    assert_error(
        &with_map(MAP, "[[blips]]\nid = \"b\"\n"),
        "8:1",
        &["this blip has no `at`"],
    );
    assert_error(
        &with_map(MAP, "[[heroes]]\nid = 7\nat = [0, 0]\n"),
        "9:6",
        &["`id` is an integer", "expected a string"],
    );
    assert_error(
        &with_map(MAP, "heroes = 3\n"),
        "8:10",
        &["`heroes` is an integer", "[[heroes]]"],
    );
}

#[test]
fn all_placement_problems_are_reported_together() {
    let rest = "
[[heroes]]
id = \"a\"
at = [9, 9]

[[heroes]]
id = \"a\"
at = [1, 1]

[[blips]]
id = \"c\"
at = \"x\"
";
    let errs = errors(&with_map(MAP, rest));
    assert_eq!(errs.len(), 4, "{errs:#?}");
    assert!(
        errs[0].starts_with("11:6: hero \"a\" at 9,9 is outside"),
        "{errs:#?}"
    );
    assert!(
        errs[1].starts_with("14:6: found id \"a\" again"),
        "{errs:#?}"
    );
    assert!(
        errs[2].starts_with("15:6: hero \"a\" at 1,1 is on a solid square"),
        "{errs:#?}"
    );
    assert!(errs[3].starts_with("19:6: found `at = \"x\"`"), "{errs:#?}");
}

#[test]
fn map_and_placement_errors_come_together() {
    let map = MAP.replace("|. . .|", "|. ? .|");
    let errs = errors(&with_map(&map, &UNITS.replace("\"b1\"", "\"h1\"")));
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(errs[0].starts_with("3:4: found '?'"));
    assert!(errs[1].starts_with("14:6: found id \"h1\" again"));
}

#[test]
fn unknown_fields_are_kept() {
    let rest = "objective = \"extract\"\nmax_rounds = 8\n\n[rules]\nlos = \"centre\"\n\n[[heroes]]\nid = \"h\"\nat = [0, 0]\nprofile = \"medic\"\n";
    let m = parse(&with_map(MAP, rest)).expect("valid");
    assert_eq!(m.extra.get("max_rounds"), Some(&toml::Value::Integer(8)));
    assert_eq!(
        m.extra.get("objective").and_then(|v| v.as_str()),
        Some("extract")
    );
    assert!(m.extra.get("rules").is_some_and(toml::Value::is_table));
    assert_eq!(
        m.heroes[0].extra.get("profile").and_then(|v| v.as_str()),
        Some("medic")
    );
}

#[test]
fn unreadable_file_names_the_path() {
    let err = Mission::load("/nonexistent/overmind/m.toml").expect_err("no such file");
    assert_eq!(err.len(), 1);
    assert_eq!(err.0[0].kind, ErrorKind::Io);
    assert!(err
        .to_string()
        .starts_with("/nonexistent/overmind/m.toml: cannot read"));
}

#[test]
fn non_utf8_file_points_at_the_bad_byte() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, b"name = \"ok\"\nmap = \"\xff\"\n").expect("write");
    let err = Mission::load(&path).expect_err("not UTF-8");
    assert_eq!((err.0[0].line, err.0[0].column), (2, 8));
}

#[test]
fn garbage_never_panics() {
    let inputs = [
        "",
        "map",
        "map = '''",
        "map = \"\"\"\n\"\"\"",
        "map = '+'",
        "map = '+-+'",
        "map = \"\"\"\n+-+\n|.|\n\"\"\"",
        "map = \"\"\"\n\t\n\"\"\"",
        "[[heroes]]\nat = []",
        "heroes = [[1]]",
        "blips = [{}]",
        "map = '''\n+\n+\n+'''",
        "map = \"\"\"\n+-+\n|.|\n+-+\n\"\"\"\n[[heroes]]\nid = 'a'\nat = [-2147483648, 2147483647]",
    ];
    for text in inputs {
        let _ = parse(text);
    }
}

// The shipped missions.

fn shipped(name: &str) -> Mission {
    let path = workspace_root().join("behaviours/missions").join(name);
    Mission::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn small_mission_is_valid() {
    let m = shipped("small.toml");
    assert_eq!((m.map.width(), m.map.height()), (8, 6));
    assert_eq!(m.map.building_count(), 1);
    assert_eq!((m.heroes.len(), m.blips.len()), (2, 2));
}

#[test]
fn demo_mission_has_what_the_game_needs() {
    let m = shipped("demo.toml");
    let map = &m.map;
    assert_eq!((map.width(), map.height()), (20, 20));
    assert!(map.building_count() >= 2);
    assert!((4..=6).contains(&m.heroes.len()));
    assert!((8..=12).contains(&m.blips.len()));
    assert!(map.squares_of(Terrain::Yellow).count() >= 4);
    assert!(map.squares_of(Terrain::Red).count() >= 1);
    assert!(map.squares_of(Terrain::Solid).count() >= 1);
    // Cover: some green square has a marked side, so not all four of its sides are green.
    let marked = map.squares_of(Terrain::Green).any(|p| {
        Dir::ORTHOGONAL
            .iter()
            .any(|&d| map.side(p, d) != Edge::Green)
    });
    assert!(marked, "a green square with marked sides");
    // Doors: every building has an open edge to a square outside it.
    for b in 0..map.building_count() {
        let door = map
            .squares()
            .filter(|&p| map.building(p) == Some(b))
            .any(|p| {
                Dir::ORTHOGONAL.iter().any(|&d| {
                    let q = p.offset(d);
                    map.in_bounds(q) && map.building(q) != Some(b) && !map.wall(p, d)
                })
            });
        assert!(door, "building {b} has a door");
    }
    // Heroes start in the south half, Blips in the north half.
    assert!(m.heroes.iter().all(|h| h.at.y >= 10));
    assert!(m.blips.iter().all(|b| b.at.y < 10));
}

#[test]
fn no_blip_is_in_a_heros_sight_at_the_start_of_the_demo() {
    let m = shipped("demo.toml");
    let obstacles = m.obstacles();
    for h in &m.heroes {
        for b in &m.blips {
            assert!(
                !LosRule::Exact.visible(&m.map, &obstacles, h.at, b.at),
                "hero {} at {} sees blip {} at {}",
                h.id,
                h.at,
                b.id,
                b.at
            );
        }
    }
}

#[test]
fn no_blip_is_in_a_heros_sight_at_the_start_of_small() {
    let m = shipped("small.toml");
    let obstacles = m.obstacles();
    for h in &m.heroes {
        for b in &m.blips {
            assert!(
                !LosRule::Exact.visible(&m.map, &obstacles, h.at, b.at),
                "{} sees {}",
                h.id,
                b.id
            );
        }
    }
}

proptest::proptest! {
    /// Any edit of a valid file either parses or gives positioned errors; it never panics.
    #[test]
    fn edited_files_never_panic(
        edits in proptest::collection::vec((0usize..2000, proptest::char::any()), 0..8)
    ) {
        let base = with_map(MAP, UNITS);
        let mut chars: Vec<char> = base.chars().collect();
        for (i, c) in edits {
            if chars.is_empty() {
                break;
            }
            let at = i % chars.len();
            if i % 3 == 0 {
                chars.remove(at);
            } else {
                chars[at] = c;
            }
        }
        let text: String = chars.into_iter().collect();
        if let Err(errs) = parse(&text) {
            proptest::prop_assert!(!errs.is_empty());
            let lines = text.split('\n').count();
            for e in &errs {
                proptest::prop_assert!(e.line >= 1 && e.line <= lines && e.column >= 1, "{e}");
            }
        }
    }

    /// Maps drawn from the legend's own characters, of any shape.
    #[test]
    fn random_drawings_never_panic(rows in proptest::collection::vec("[-|:= +.rgyb#x]{0,9}", 0..9)) {
        let text = format!("map = '''\n{}'''\n", rows.join("\n"));
        let _ = parse(&text);
    }
}
