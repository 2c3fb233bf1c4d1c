//! `overmind los MISSION X,Y X,Y [--explain] [--xxl] [--rule exact|centre]`: Line of Sight between two
//! squares of a mission, with its placed units as obstacles (docs/RULES.md §3).
//!
//! Prints `visible` or `blocked` on the first line and exits 0 either way. A malformed square
//! (`3;4`, `x,1`) is a usage error from clap, a square off the map a usage error from here:
//! both exit 2. A bad mission file exits 1.

use crate::error::CliError;
use crate::output;
use overmind_core::geom::footprint;
use overmind_core::los::{self, Blocker, Explanation, ObstacleKind};
use overmind_core::{LineOfSight, LosRule, Mission, Pos};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The mission: an id of a pack's mission (`demo`, `small`) or a mission file (TOML); its
    /// heroes and Blips are obstacles.
    pub path: String,
    /// A pack to look the mission id up in, besides the base pack (repeatable).
    #[arg(long = "pack", value_name = "DIR")]
    pub packs: Vec<PathBuf>,
    /// The square seen from, as X,Y (0,0 is the top-left square).
    #[arg(value_name = "X,Y", value_parser = parse_square, allow_hyphen_values = true)]
    pub from: Pos,
    /// The square looked at, as X,Y.
    #[arg(value_name = "X,Y", value_parser = parse_square, allow_hyphen_values = true)]
    pub to: Pos,
    /// Also say why: a clear segment when visible, what blocks when blocked.
    #[arg(long)]
    pub explain: bool,
    /// The square looked at is the top-left square of an XXL model's 2×2 base: Line of Sight
    /// to any one of its four squares is enough (docs/RULES.md §4.4); they block as a model.
    #[arg(long)]
    pub xxl: bool,
    /// exact: any point of one square to any point of the other (the default);
    /// centre: centre to centre.
    #[arg(long, value_enum, default_value_t = Rule::Exact)]
    pub rule: Rule,
}

/// The LOS rules, as the command line names them.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    Exact,
    Centre,
}

impl From<Rule> for LosRule {
    fn from(r: Rule) -> LosRule {
        match r {
            Rule::Exact => LosRule::Exact,
            Rule::Centre => LosRule::Centre,
        }
    }
}

/// `X,Y` as a square; whether it is on the map is checked once the map is read.
fn parse_square(s: &str) -> Result<Pos, String> {
    let expected = "expected X,Y: two whole numbers separated by a comma, such as 3,4";
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("found `{s}`: {expected}"))?;
    match (x.trim().parse(), y.trim().parse()) {
        (Ok(x), Ok(y)) => Ok(Pos::new(x, y)),
        _ => Err(format!("found `{s}`: {expected}")),
    }
}

/// # Errors
/// The mission's problems (exit 1), a square off the map (exit 2), or a failed write.
pub fn run(args: &Args) -> Result<(), CliError> {
    let mission = Mission::load(&crate::packs::mission_file(&args.path, &args.packs)?)?;
    let map = &mission.map;
    for p in [args.from, args.to] {
        if !map.in_bounds(p) {
            return Err(CliError::Usage(format!(
                "square {p} is off the map: {} is {}×{}, expected X from 0 to {} and Y from 0 \
                 to {}",
                args.path,
                map.width(),
                map.height(),
                map.width() - 1,
                map.height() - 1
            )));
        }
    }
    let mut obstacles = mission.obstacles();
    let rule = LosRule::from(args.rule);
    // An XXL target: its four squares, each an obstacle; the first that is seen explains.
    let targets: Vec<Pos> = footprint(args.to, args.xxl).collect();
    if args.xxl {
        if let Some(q) = targets.iter().find(|q| !map.in_bounds(**q)) {
            return Err(CliError::Usage(format!(
                "square {q} of the XXL base at {} is off the map",
                args.to
            )));
        }
        for &q in &targets {
            obstacles.insert(q);
        }
    }
    let seen = targets
        .iter()
        .copied()
        .find(|&q| rule.visible(map, &obstacles, args.from, q));
    let visible = seen.is_some();
    let to = seen.unwrap_or(args.to);
    let mut text = String::from(if visible { "visible\n" } else { "blocked\n" });
    if args.explain {
        let _ = writeln!(text, "rule: {}", rule_text(args.rule));
        for (word, p) in [("from", args.from), ("to", args.to)] {
            let _ = writeln!(text, "{word} {p}: {}", describe(&mission, p));
        }
        if args.xxl {
            let all: Vec<String> = targets.iter().map(ToString::to_string).collect();
            let _ = writeln!(
                text,
                "to is an XXL model: Line of Sight to any one of its squares ({}) is enough; {}",
                all.join(" "),
                match seen {
                    Some(q) => format!("{q} is seen"),
                    None => format!("none is seen (what blocks {} is below)", args.to),
                }
            );
        }
        let why = los::explain(rule, map, &obstacles, args.from, to);
        let _ = writeln!(text, "{why}");
        // The core names a unit only by its square; say which unit it is.
        if let Explanation::Blocked { blockers } = &why {
            for b in blockers {
                if let Blocker::Obstacle {
                    at,
                    kind: ObstacleKind::Unit,
                } = b
                {
                    let _ = writeln!(text, "  {at}: {}", describe(&mission, *at));
                }
            }
        }
    }
    output::print(&text)?;
    Ok(())
}

fn rule_text(rule: Rule) -> &'static str {
    match rule {
        Rule::Exact => {
            "exact (a line from anywhere inside one square to anywhere inside the other)"
        }
        Rule::Centre => "centre (the line between the two squares' centres)",
    }
}

/// The terrain of a square and the unit on it, for `--explain`.
fn describe(mission: &Mission, p: Pos) -> String {
    let terrain = format!("{:?}", mission.map.terrain(p)).to_lowercase();
    let heroes = mission.heroes.iter().map(|u| ("hero", u));
    let unit = heroes
        .chain(mission.blips.iter().map(|u| ("blip", u)))
        .find(|(_, u)| u.at == p);
    match unit {
        Some((noun, u)) => format!("{terrain} square, {noun} \"{}\"", u.id),
        None => format!("{terrain} square"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_as_x_comma_y() {
        assert_eq!(parse_square("3,4"), Ok(Pos::new(3, 4)));
        assert_eq!(parse_square(" 3 , 4 "), Ok(Pos::new(3, 4)));
        assert_eq!(parse_square("-1,0"), Ok(Pos::new(-1, 0)));
        for bad in ["3", "3;4", "a,1", "1,2,3", ""] {
            let err = parse_square(bad).expect_err(bad);
            assert!(err.contains("expected X,Y"), "{err}");
        }
    }
}
