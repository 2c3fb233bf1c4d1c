//! Hand-drawn cases for each clause of docs/RULES.md §3.

use super::*;
use crate::data::map::{MapBuilder, Terrain};

fn map(drawing: &str) -> Map {
    MapBuilder::from_drawing(drawing).build()
}

fn p(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

fn exact(m: &Map, o: &Obstacles, a: Pos, b: Pos) -> bool {
    let v = LosRule::Exact.visible(m, o, a, b);
    assert_eq!(v, LosRule::Exact.visible(m, o, b, a), "asymmetric {a} {b}");
    assert_eq!(
        v,
        explain(LosRule::Exact, m, o, a, b).is_visible(),
        "explain {a} {b}"
    );
    v
}

fn centre(m: &Map, o: &Obstacles, a: Pos, b: Pos) -> bool {
    let v = LosRule::Centre.visible(m, o, a, b);
    assert_eq!(v, LosRule::Centre.visible(m, o, b, a), "asymmetric {a} {b}");
    assert_eq!(
        v,
        explain(LosRule::Centre, m, o, a, b).is_visible(),
        "explain {a} {b}"
    );
    v
}

fn none(m: &Map) -> Obstacles {
    Obstacles::new(m)
}

#[test]
fn obstacle_between_squares_of_a_row_blocks() {
    let m = map("
+-+-+-+-+-+
|. . # . .|
+-+-+-+-+-+
");
    let o = none(&m);
    assert!(!exact(&m, &o, p(0, 0), p(4, 0)));
    assert!(!exact(&m, &o, p(1, 0), p(3, 0)));
    assert!(exact(&m, &o, p(0, 0), p(1, 0)));
    assert!(exact(&m, &o, p(3, 0), p(4, 0)));
    assert!(!centre(&m, &o, p(0, 0), p(4, 0)));
}

#[test]
fn units_block_like_solid_squares() {
    let m = map("
+-+-+-+-+-+
|. . . . .|
+ + + + + +
|. . . . .|
+-+-+-+-+-+
");
    let mut o = none(&m);
    assert!(exact(&m, &o, p(0, 0), p(4, 0)));
    o.insert(p(2, 0));
    assert!(!exact(&m, &o, p(0, 0), p(4, 0)));
    assert!(!centre(&m, &o, p(0, 0), p(4, 0)));
    // Across the two rows the lines pass below the unit.
    assert!(exact(&m, &o, p(0, 0), p(4, 1)));
    // A model's own square never blocks its sight, nor its target's.
    o.insert(p(0, 1));
    o.insert(p(4, 1));
    assert!(exact(&m, &o, p(0, 1), p(4, 1)));
    o.insert(p(2, 1));
    assert!(!exact(&m, &o, p(0, 1), p(4, 1)));
}

#[test]
fn diagonal_obstacles_meeting_at_a_corner_block_the_diagonal() {
    let m = map("
+-+-+-+
|. # .|
+ + + +
|# . .|
+ + + +
|. . .|
+-+-+-+
");
    let o = none(&m);
    assert!(!exact(&m, &o, p(0, 0), p(1, 1)));
    assert!(!exact(&m, &o, p(0, 0), p(2, 2)));
    // The centre rule only looks at obstacle interiors: the centre line passes the corner.
    assert!(centre(&m, &o, p(0, 0), p(1, 1)));
    assert!(centre(&m, &o, p(0, 0), p(2, 2)));
}

#[test]
fn a_single_corner_can_be_seen_past() {
    let m = map("
+-+-+-+
|. . .|
+ + + +
|# . .|
+ + + +
|. . .|
+-+-+-+
");
    let o = none(&m);
    assert!(exact(&m, &o, p(0, 0), p(1, 1)));
    assert!(exact(&m, &o, p(0, 0), p(1, 2)));
    let m = map("
+-+-+-+
|.|. .|
+-+ + +
|. . .|
+-+-+-+
");
    // Past the end of a wall corner: around (1,1).
    assert!(exact(&m, &o, p(0, 1), p(1, 0)));
    assert!(exact(&m, &o, p(0, 1), p(2, 0)));
}

#[test]
fn exact_sees_what_the_centre_line_misses() {
    let m = map("
+-+-+-+-+
|. . . .|
+ + + + +
|. # . .|
+ + + + +
|. . . .|
+-+-+-+-+
");
    let o = none(&m);
    // The centre line from 0,0 to 3,2 enters 1,1; lines just above its corner (2,1) do not.
    assert!(exact(&m, &o, p(0, 0), p(3, 2)));
    assert!(!centre(&m, &o, p(0, 0), p(3, 2)));
    assert!(!exact(&m, &o, p(0, 0), p(2, 2)));
}

#[test]
fn a_door_opening_is_seen_through_and_a_wall_blocks() {
    let m = map("
+-+-+-+-+-+
|. . . . .|
+-+-+ +-+-+
|. . . . .|
+-+-+-+-+-+
");
    let o = none(&m);
    assert!(!exact(&m, &o, p(0, 0), p(0, 1)));
    assert!(exact(&m, &o, p(2, 0), p(2, 1)));
    assert!(exact(&m, &o, p(0, 0), p(4, 1)));
    assert!(exact(&m, &o, p(1, 0), p(3, 1)));
    assert!(!exact(&m, &o, p(0, 0), p(1, 1)));
    // Straight along a wall: the wall is on the rows' shared edge, not in the way.
    assert!(exact(&m, &o, p(0, 0), p(4, 0)));
    // A wall between two squares of a row.
    let m = map("
+-+-+-+-+
|. .|. .|
+-+-+-+-+
");
    assert!(!exact(&m, &none(&m), p(0, 0), p(3, 0)));
    assert!(!exact(&m, &none(&m), p(1, 0), p(2, 0)));
    assert!(!centre(&m, &none(&m), p(0, 0), p(3, 0)));
}

#[test]
fn grazing_a_door_post_is_not_enough() {
    // The only line from 0,0 through the gap to 2,2 would touch the post at (1,1), the end of
    // the wall west of 1,0, which is also the corner of the solid square 0,1.
    let post = map("
+-+-+-+
|.|. .|
+ + + +
|# . .|
+ + + +
|.|. .|
+-+-+-+
");
    let o = none(&post);
    assert!(!exact(&post, &o, p(0, 0), p(2, 2)));
    assert!(!centre(&post, &o, p(0, 0), p(2, 2)));
    // Without the solid square the line can dip below the post.
    let open = map("
+-+-+-+
|.|. .|
+ + + +
|. . .|
+ + + +
|.|. .|
+-+-+-+
");
    assert!(exact(&open, &none(&open), p(0, 0), p(2, 2)));
}

#[test]
fn green_sides_and_red_squares_do_not_block() {
    let m = map("
+-+-+-+-+
|. g:r .|
+ +=+ + +
|. . . .|
+-+-+-+-+
");
    let o = none(&m);
    assert!(exact(&m, &o, p(0, 0), p(3, 0)));
    assert!(exact(&m, &o, p(1, 0), p(1, 1)));
    assert!(centre(&m, &o, p(0, 0), p(3, 0)));
}

#[test]
fn same_square_off_map_and_solid_end_squares() {
    let m = map("
+-+-+
|# .|
+-+-+
");
    let o = none(&m);
    assert!(exact(&m, &o, p(0, 0), p(0, 0)));
    assert!(exact(&m, &o, p(0, 0), p(1, 0)), "A itself never blocks");
    for far in [p(-1, 0), p(2, 0), p(0, 1), p(i32::MAX, i32::MIN)] {
        assert!(!LosRule::Exact.visible(&m, &o, p(0, 0), far));
        assert!(!LosRule::Centre.visible(&m, &o, far, p(0, 0)));
        let e = explain(LosRule::Exact, &m, &o, p(1, 0), far);
        assert_eq!(
            e,
            Explanation::Blocked {
                blockers: vec![Blocker::OffMap(far)]
            }
        );
    }
}

#[test]
fn border_walls_block_nothing_inside() {
    let m = map("
+-+-+-+
|. . .|
+-+-+-+
");
    assert!(exact(&m, &none(&m), p(0, 0), p(2, 0)));
}

#[test]
fn explanations_read_well() {
    let m = map("
+-+-+-+-+
|. .|. .|
+ + + + +
|. # . .|
+-+-+-+-+
");
    let mut o = none(&m);
    o.insert(p(2, 1));
    let e = explain(LosRule::Exact, &m, &o, p(0, 0), p(3, 1));
    assert_eq!(
        e.to_string(),
        "blocked by wall west of 2,0; obstacle at 2,1 (model or Blip)"
    );
    let e = explain(LosRule::Exact, &m, &o, p(0, 0), p(1, 0));
    assert_eq!(
        e.to_string(),
        "visible: the line from (0.5, 0.5) to (1.5, 0.5) touches no wall or obstacle"
    );
    // Into 2,0 only across its west wall or from 2,1 below, reached through 1,1: the wall and
    // one of 1,1 and 2,1 suffice, and 1,1 is nearer the centre line.
    let e = explain(LosRule::Exact, &m, &o, p(0, 1), p(2, 0));
    assert_eq!(
        e.to_string(),
        "blocked by obstacle at 1,1 (solid square); wall west of 2,0"
    );
    // The same blockers both ways, listed from the first square named.
    let (Explanation::Blocked { blockers: ab }, Explanation::Blocked { blockers: mut ba }) =
        (e, explain(LosRule::Exact, &m, &o, p(2, 0), p(0, 1)))
    else {
        panic!("visible one way")
    };
    ba.reverse();
    assert_eq!(ab, ba);
    // Not through the centres: the witness uses quarter points.
    let m = map("
+-+-+-+-+
|. . . .|
+ + + + +
|. # . .|
+ + + + +
|. . . .|
+-+-+-+-+
");
    let e = explain(LosRule::Exact, &m, &none(&m), p(0, 0), p(3, 2));
    let Explanation::Visible { from, to } = e else {
        panic!("{e}")
    };
    assert!(
        from.x < Rational::integer(1) && to.y > Rational::integer(2),
        "{from} {to}"
    );
    assert_eq!(
        explain(LosRule::Centre, &m, &none(&m), p(0, 0), p(3, 2)).to_string(),
        "blocked by obstacle at 1,1 (solid square)"
    );
    assert_eq!(
        Blocker::Wall(WallEdge::North(p(5, 2))).to_string(),
        "wall north of 5,2"
    );
}

#[test]
fn rationals_print_exactly() {
    let r = |n, d| Rational::new(n, d).map(|r| r.to_string());
    assert_eq!(r(7, 2).as_deref(), Some("3.5"));
    assert_eq!(r(13, 4).as_deref(), Some("3.25"));
    assert_eq!(r(10, 3).as_deref(), Some("10/3"));
    assert_eq!(r(-6, -3).as_deref(), Some("2"));
    assert_eq!(r(-1, 8).as_deref(), Some("-0.125"));
    assert_eq!(r(1, 0), None);
    assert!(Rational::new(1, 3) < Rational::new(34, 100));
    assert!(Rational::new(-1, 3) > Rational::new(-34, 100));
    assert_eq!(
        Rational::new(i128::MAX, 3).map(|r| r.cmp(&Rational::integer(0))),
        Some(std::cmp::Ordering::Greater)
    );
}

#[test]
fn long_lines_on_a_large_map() {
    // A 200×3 corridor whose middle row is solid but for the gap [60, g): a line y = s·x + t
    // from 0,0 to 199,2 needs y(60) < 1 and y(g) > 2, so s > 1/(g-60), and y(g) > 2 with
    // y(199) < 3, so s < 1/(199-g): possible for g = 130, impossible for g = 128.
    let corridor = |gap: std::ops::Range<i32>| {
        let mut b = MapBuilder::new(200, 3);
        for x in (0..200).filter(|x| !gap.contains(x)) {
            b.set_terrain(p(x, 1), Terrain::Solid);
        }
        b.build()
    };
    let m = corridor(60..130);
    let o = none(&m);
    assert!(exact(&m, &o, p(0, 0), p(199, 2)));
    assert!(exact(&m, &o, p(0, 0), p(199, 0)));
    assert!(!exact(&m, &o, p(0, 1), p(199, 1)));
    let m = corridor(60..128);
    assert!(!exact(&m, &none(&m), p(0, 0), p(199, 2)));
}

#[test]
fn centre_rule_blocks_on_touching_a_wall_end() {
    // The centre line from 0,0 to 1,1 passes through the corner (1,1), where the wall west
    // of 1,0 ends: the centre rule is blocked, the exact rule sees past through 0,1.
    let m = map("
+-+-+
|.|.|
+ + +
|. .|
+-+-+
");
    let o = none(&m);
    assert!(!centre(&m, &o, p(0, 0), p(1, 1)));
    assert!(exact(&m, &o, p(0, 0), p(1, 1)));
    assert_eq!(
        explain(LosRule::Centre, &m, &o, p(0, 0), p(1, 1)).to_string(),
        "blocked by wall west of 1,0"
    );
}

/// A map's memo of what units decided (warm, across moves) answers as a fresh map does.
#[test]
fn a_warm_memo_answers_like_a_fresh_map() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..6 {
        let (w, h) = (9, 7);
        let mut d = String::from("\n+");
        d.push_str(&"-+".repeat(w));
        for y in 0..h {
            d.push_str("\n|");
            for x in 0..w {
                d.push(if rng.random_range(0..10) == 0 {
                    '#'
                } else {
                    '.'
                });
                let wall = x + 1 == w || rng.random_range(0..12) == 0;
                d.push(if wall { '|' } else { ' ' });
            }
            d.push_str("\n+");
            for _ in 0..w {
                let wall = y + 1 == h || rng.random_range(0..12) == 0;
                d.push_str(if wall { "-+" } else { " +" });
            }
        }
        d.push('\n');
        let warm = map(&d);
        let squares: Vec<Pos> = warm.squares().collect();
        let mut o = none(&warm);
        for &s in &squares {
            if rng.random_range(0..6) == 0 {
                o.insert(s);
            }
        }
        for _ in 0..25 {
            for _ in 0..rng.random_range(1..4) {
                let s = squares[rng.random_range(0..squares.len())];
                if o.contains(s) {
                    o.remove(s);
                } else {
                    o.insert(s);
                }
            }
            let fresh = warm.clone();
            for (i, &a) in squares.iter().enumerate() {
                for &b in &squares[i..] {
                    let want = LosRule::Exact.visible(&fresh, &o, a, b);
                    let (ab, ba) = if rng.random_range(0..2) == 0 {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    assert_eq!(
                        LosRule::Exact.visible(&warm, &o, ab, ba),
                        want,
                        "{a} {b}\n{d}"
                    );
                    assert_eq!(LosRule::Centre.visible(&warm, &o, a, b), {
                        LosRule::Centre.visible(&fresh, &o, b, a)
                    });
                }
            }
        }
    }
}

/// The bit-set scans a pair's first query starts with agree with the blockers the solver is
/// given: a covered grid line exactly when `Cuts` finds one; "no path" only when the solver
/// finds walls and solid squares block, and whenever a grid line is covered; a clear centre
/// line exactly when every collected wall and solid square misses it.
#[test]
fn static_scans_agree_with_the_collected_blockers() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut seen = [0usize; 4];
    for round in 0..60 {
        let (w, h) = if round % 3 == 0 {
            (70, 9)
        } else {
            (rng.random_range(3..16), rng.random_range(3..16))
        };
        let walls = rng.random_range(0..30);
        let solid = rng.random_range(0..25);
        let mut b = MapBuilder::new(w, h);
        for y in 0..=h {
            for x in 0..=w {
                if rng.random_range(0..100) < walls {
                    b.set_west(x, y, crate::data::map::Edge::Wall);
                }
                if rng.random_range(0..100) < walls {
                    b.set_north(x, y, crate::data::map::Edge::Wall);
                }
                if rng.random_range(0..100) < solid {
                    b.set_terrain(p(x, y), Terrain::Solid);
                }
            }
        }
        let m = b.build();
        let masks = cache::Masks::of(&m);
        let mut o = none(&m);
        for s in m.squares() {
            if rng.random_range(0..100) < 12 {
                o.insert(s);
            }
        }
        for _ in 0..400 {
            let a = p(rng.random_range(0..w), rng.random_range(0..h));
            let z = p(rng.random_range(0..w), rng.random_range(0..h));
            let f = Frame::new(a, z);
            if a == z {
                continue;
            }
            if f.dx < 2 || f.dy < 1 || m.is_solid(a) || m.is_solid(z) {
                for f in [f, Frame::canonical(a, z)] {
                    let (mut units, mut hull) = (Vec::new(), Vec::new());
                    f.collect_units(&m, &o, &mut units);
                    f.hull_units(&m, &o, &mut hull);
                    assert_eq!(hull.len(), units.len(), "units {a} {z}");
                    let (mut fast, mut slow) = (Vec::new(), Vec::new());
                    f.statics_along(masks, &mut fast);
                    f.collect_statics(&m, &mut slow);
                    assert_eq!(fast.len(), slow.len(), "statics {a} {z}");
                }
                continue;
            }
            let mut statics = Vec::new();
            f.collect_statics(&m, &mut statics);
            // The fast reads find the same walls, solid squares and units.
            let key = |b: &Blk| (b.q.x, b.q.y, b.p.x, b.p.y, b.shape as u8, b.solid);
            let sorted = |mut v: Vec<Blk>| {
                v.sort_by_key(key);
                v.iter().map(key).collect::<Vec<_>>()
            };
            let mut fast = Vec::new();
            f.statics_along(masks, &mut fast);
            assert_eq!(sorted(fast), sorted(statics.clone()), "statics {a} {z}");
            for f in [f, Frame::canonical(a, z)] {
                let (mut units, mut hull) = (Vec::new(), Vec::new());
                f.collect_units(&m, &o, &mut units);
                f.hull_units(&m, &o, &mut hull);
                // Asked only where the centre line misses the walls and solid squares.
                let mut walls = Vec::new();
                f.collect_statics(&m, &mut walls);
                let centre = solve::centre_line(&f);
                if walls.iter().all(|b| solve::misses(&centre, b)) {
                    if let Some(clear) = f.centre_misses_units(&m, &o) {
                        let want = units.iter().all(|u| solve::misses(&centre, u));
                        assert_eq!(clear, want, "{a} {z}");
                        seen[3] += 1;
                    }
                }
                assert_eq!(sorted(hull), sorted(units), "units {a} {z}");
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                f.statics_along(masks, &mut fast);
                f.collect_statics(&m, &mut slow);
                assert_eq!(sorted(fast), sorted(slow), "statics {a} {z}");
            }
            let cut = if f.dx < 63 {
                solve::cut_only(&f, &statics)
            } else {
                // `Cuts` stops at 63 columns: a cut must block.
                let cut = f.static_cut(masks);
                let mut solver = solve::Solver::default();
                assert!(
                    !cut || !solve::exact_visible(&f, &statics, &mut solver),
                    "{a} {z}"
                );
                cut
            };
            assert_eq!(f.static_cut(masks), cut, "cut {a} {z}");
            if f.dx <= 62 {
                let centre = solve::centre_line(&f);
                let clear = statics.iter().all(|b| solve::misses(&centre, b));
                let mut solver = solve::Solver::default();
                let alone = solve::exact_visible(&f, &statics, &mut solver);
                let got = f.static_scan(masks);
                match got {
                    StaticScan::Blocked => assert!(!alone, "blocked {a} {z}"),
                    StaticScan::CentreClear => assert!(clear && !cut, "centre {a} {z}"),
                    StaticScan::Open => assert!(!clear && !cut, "open {a} {z}"),
                }
                // A covered grid line leaves no path.
                assert!(!cut || got == StaticScan::Blocked, "cut {a} {z}");
                seen[got as usize] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}
