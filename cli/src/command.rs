//! What a player types, parsed: game actions (`move captain 3,4`), host commands (`undo`,
//! `save PATH`) and decision answers (a number). Mistakes get a message and, where a near
//! miss is known, the corrected command as a suggestion.

use crate::suggest::nearest;
use overmind_core::Id;
use overmind_core::{Action, Pos};
use std::path::PathBuf;

/// One parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Act(Action),
    /// A bare number: the answer to a decision.
    Answer(usize),
    Help(Option<String>),
    Map,
    Status,
    /// The last N events (all when `None`).
    Log(Option<usize>),
    /// Line of Sight between two squares or units, drawn.
    Los(String, String),
    /// The squares a unit's Move and Sprint reach, drawn.
    Reach(String),
    /// The squares a unit sees, drawn.
    Sees(String),
    Save(PathBuf),
    Undo,
    Quit,
    /// A blank line.
    Nothing,
}

/// Why a line was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    /// The line as it probably should have been.
    pub suggestion: Option<String>,
}

impl ParseError {
    fn new(message: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
            suggestion: None,
        }
    }

    fn suggest(mut self, s: Option<String>) -> ParseError {
        self.suggestion = s;
        self
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if let Some(s) = &self.suggestion {
            write!(f, " (did you mean `{s}`?)")?;
        }
        Ok(())
    }
}

/// The words a line may start with, with their arguments, for help and suggestions.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    (
        "move",
        "UNIT X,Y [via X,Y ...]",
        "Move up to the unit's Movement (a Blip: 5) to square X,Y, through the waypoints if given",
    ),
    (
        "sprint",
        "UNIT X,Y [via X,Y ...]",
        "Sprint: half the Movement, rounded down (a different action from move)",
    ),
    (
        "shoot",
        "UNIT TARGET",
        "Shoot a target in sight and range that is not adjacent",
    ),
    (
        "melee",
        "UNIT TARGET",
        "Melee attack an adjacent target in sight",
    ),
    (
        "overwatch",
        "UNIT",
        "Set Overwatch: full as the first action, weak as the second",
    ),
    (
        "interact",
        "UNIT",
        "Interact: objectives, extraction, recovering from Stun",
    ),
    (
        "destroy",
        "UNIT",
        "Destroy Wall: an XXL model breaks the wall of a building it stands against (Interact)",
    ),
    ("flip", "BLIP", "Flip a Blip Token (Overmind only)"),
    (
        "end",
        "",
        "End the current activation; with none under way, end the phase",
    ),
    (
        "deploy",
        "",
        "Deploy the mission's units by the rules (the first action of such a mission; each side chooses its squares)",
    ),
    (
        "play",
        "CARD [TARGET|X,Y]",
        "Overmind: play a card from the hand, on a unit or a square when the card names one",
    ),
    ("discard", "CARD", "Overmind: discard a card from the hand"),
    (
        "interrupt",
        "CARD CARD",
        "Overmind, when offered after a Hero's activation: discard 2 cards to act now",
    ),
    (
        "perform",
        "UNIT BEHAVIOUR",
        "Author tool (play --dev): the alien unit performs the behaviour now, out of turn",
    ),
    (
        "spawn",
        "TYPE X,Y [N]",
        "Author tool (play --dev): a new alien unit of TYPE on X,Y, N models (default 1)",
    ),
    ("help", "[COMMAND]", "This list, or one command's help"),
    ("map", "", "Show the map again"),
    (
        "los",
        "A B",
        "Line of Sight between two squares (X,Y) or units, with the sight line or the blockers drawn",
    ),
    (
        "reach",
        "UNIT",
        "The squares the unit's Move and Sprint reach, drawn on the map",
    ),
    (
        "sees",
        "UNIT",
        "Every square the unit has Line of Sight to, drawn on the map",
    ),
    ("status", "", "Units, health, and whose turn it is"),
    ("log", "[N]", "The last N events (default 20)"),
    ("save", "PATH", "Save the game to PATH"),
    (
        "undo",
        "",
        "Take back your last action, if it revealed nothing and rolled no dice",
    ),
    (
        "quit",
        "",
        "Leave the game (saving first when --save was given)",
    ),
];

const ALIASES: &[(&str, &str)] = &[
    ("exit", "quit"),
    ("q", "quit"),
    ("?", "help"),
    ("h", "help"),
];

/// Ids a command may name, for checks and suggestions.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// Units, models and Blips on the map.
    pub ids: Vec<String>,
    /// The unit now activating: `move 3,4` means it.
    pub active: Option<Id>,
    /// Loaded behaviour ids (`perform`), for checks and suggestions.
    pub behaviours: Vec<String>,
    /// Loaded Alien Type ids (`spawn`).
    pub aliens: Vec<String>,
    /// The cards in the hand of the side to move (`play`, `discard`, `interrupt`): the
    /// Overmind's, never shown to the Heroes (empty when they are to move).
    pub cards: Vec<String>,
    /// The ids of the side to move (its units, models and Blips): a typo in the unit that
    /// acts is corrected to one of these, never to the other side's.
    pub own: Vec<String>,
    /// The labels the map shows, as (label, id): a Hero's number (`1`), an Alien Unit's
    /// letter (`A`) and its models as `A.2`.
    pub labels: Vec<(String, String)>,
}

impl Names {
    /// The id a map label stands for (`1` → `captain`, `a.2` or `A2` → `b11.2`).
    #[must_use]
    pub fn label(&self, word: &str) -> Option<&str> {
        let upper = word.to_ascii_uppercase();
        let dotted = match upper.as_bytes() {
            [c, rest @ ..]
                if c.is_ascii_uppercase()
                    && !rest.is_empty()
                    && rest.iter().all(u8::is_ascii_digit) =>
            {
                format!("{}.{}", char::from(*c), &upper[1..])
            }
            _ => upper.clone(),
        };
        self.labels
            .iter()
            .find(|(l, _)| *l == word || *l == upper || *l == dotted)
            .map(|(_, id)| id.as_str())
    }
}

/// Parse one line. `names` checks the ids it names and suggests near misses.
///
/// # Errors
/// The line is not a command; the error says why and may suggest a correction.
pub fn parse(line: &str, names: &Names) -> Result<Command, ParseError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(Command::Nothing);
    }
    if line.starts_with('{') {
        // Programs may send an action as JSON, exactly as core serialises it.
        return serde_json::from_str::<Action>(line)
            .map(Command::Act)
            .map_err(|e| {
                // serde_json's columns count bytes, and 0 at the end of the line: say which
                // character (from 1) it stopped at.
                let (_, column) =
                    overmind_core::source::LineIndex::new(line).byte_column(1, e.column());
                let text = e.to_string();
                let message = text
                    .rfind(" at line ")
                    .map_or(text.as_str(), |i| &text[..i]);
                ParseError::new(format!("not a JSON action: {message} at column {column}"))
            });
    }
    if let Ok(n) = line.parse::<usize>() {
        return Ok(Command::Answer(n));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words[0].to_lowercase();
    let word = ALIASES
        .iter()
        .find(|(a, _)| *a == first)
        .map_or(first.as_str(), |(_, w)| *w);
    let args = &words[1..];
    let Some(&(name, usage, _)) = COMMANDS.iter().find(|(w, _, _)| *w == word) else {
        let near = nearest(&first, COMMANDS.iter().map(|(w, _, _)| *w));
        let suggestion = near.map(|w| {
            let fixed = std::iter::once(w)
                .chain(args.iter().copied())
                .collect::<Vec<_>>()
                .join(" ");
            // The corrected line may hold a typo of its own (`mvoe captian 2,14`): suggest
            // both corrections at once rather than one per try. `w` is a known command, so
            // this parses once more at most.
            match parse(&fixed, names) {
                Err(ParseError {
                    suggestion: Some(s),
                    ..
                }) => s,
                _ => fixed,
            }
        });
        return Err(ParseError::new(format!(
            "unknown command `{}`; type `help` for the list",
            words[0]
        ))
        .suggest(suggestion));
    };
    let usage_err = || ParseError::new(format!("usage: {name} {usage}"));
    match name {
        "move" | "sprint" => {
            // `... X,Y via X,Y [X,Y ...]`: waypoints the path passes through, in order.
            let (args, via) = match args.iter().position(|w| w.eq_ignore_ascii_case("via")) {
                Some(i) => {
                    let squares: Vec<Pos> = args[i + 1..]
                        .join(" ")
                        .split(|c: char| c.is_whitespace() || c == ';')
                        .filter(|w| !w.is_empty())
                        .map(square_of)
                        .collect::<Result<_, _>>()
                        .map_err(ParseError::new)?;
                    if squares.is_empty() {
                        return Err(ParseError::new(format!(
                            "usage: {name} {usage} [via X,Y ...]: name at least one waypoint \
                             after `via`"
                        )));
                    }
                    (&args[..i], squares)
                }
                None => (args, Vec::new()),
            };
            let (unit, square) = match args {
                [sq] if names.active.is_some() => {
                    (names.active.unwrap_or_default(), (*sq).to_string())
                }
                [unit, sq] => (check_actor(name, unit, names, args)?, (*sq).to_string()),
                // `move captain 3, 4`
                [unit, x, y] if x.ends_with(',') => {
                    (check_actor(name, unit, names, args)?, format!("{x}{y}"))
                }
                _ => return Err(usage_err()),
            };
            let to = square_of(&square).map_err(ParseError::new)?;
            Ok(Command::Act(if name == "move" {
                Action::Move { unit, to, via }
            } else {
                Action::Sprint { unit, to, via }
            }))
        }
        "shoot" | "melee" => {
            let (unit, target) = match args {
                [t] if names.active.is_some() => (names.active.unwrap_or_default(), *t),
                [u, t] => (check_actor(name, u, names, args)?, *t),
                _ => return Err(usage_err()),
            };
            let target = check_id(name, target, names, args)?;
            Ok(Command::Act(if name == "shoot" {
                Action::Shoot { unit, target }
            } else {
                Action::Melee { unit, target }
            }))
        }
        "overwatch" | "interact" | "destroy" | "flip" => {
            let unit = match args {
                [] if names.active.is_some() => names.active.unwrap_or_default(),
                [u] => check_actor(name, u, names, args)?,
                _ => return Err(usage_err()),
            };
            Ok(Command::Act(match name {
                "overwatch" => Action::Overwatch { unit },
                "interact" => Action::Interact { unit },
                "destroy" => Action::DestroyWall { unit },
                _ => Action::Flip { unit },
            }))
        }
        "end" => no_args(args, Command::Act(Action::End), usage_err),
        "deploy" => no_args(args, Command::Act(Action::Deploy), usage_err),
        "play" => {
            let (c, target, at) = match args {
                [c] => (*c, None, None),
                [c, t] if t.contains(',') => {
                    (*c, None, Some(square_of(t).map_err(ParseError::new)?))
                }
                [c, t] => (*c, Some(check_id(name, t, names, args)?), None),
                _ => return Err(usage_err()),
            };
            let card = check_in(name, c, &names.cards, "card in the hand", args)?;
            Ok(Command::Act(Action::Play { card, target, at }))
        }
        "discard" => {
            let [c] = args else {
                return Err(usage_err());
            };
            let card = check_in(name, c, &names.cards, "card in the hand", args)?;
            Ok(Command::Act(Action::Discard { card }))
        }
        "interrupt" => {
            if args.is_empty() {
                return Err(usage_err());
            }
            let discard = args
                .iter()
                .map(|c| check_in(name, c, &names.cards, "card in the hand", args))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Command::Act(Action::Interrupt { discard }))
        }
        "perform" => {
            let [u, b] = args else {
                return Err(usage_err());
            };
            let unit = check_id(name, u, names, args)?;
            let behaviour = check_in(name, b, &names.behaviours, "behaviour", args)?;
            Ok(Command::Act(Action::Perform { unit, behaviour }))
        }
        "spawn" => {
            let (t, sq, n) = match args {
                [t, sq] => (*t, *sq, 1),
                [t, sq, n] => {
                    let n = n.parse::<u32>().map_err(|_| {
                        ParseError::new(format!(
                            "`{n}` is not a number of models; usage: {name} {usage}"
                        ))
                    })?;
                    (*t, *sq, n)
                }
                _ => return Err(usage_err()),
            };
            let alien = check_in(name, t, &names.aliens, "alien type", args)?;
            let at = square_of(sq).map_err(ParseError::new)?;
            Ok(Command::Act(Action::Spawn {
                alien,
                at,
                models: n,
            }))
        }
        "help" => match args {
            [] => Ok(Command::Help(None)),
            [w] => Ok(Command::Help(Some((*w).to_string()))),
            _ => Err(usage_err()),
        },
        "map" => no_args(args, Command::Map, usage_err),
        "los" => match args {
            [a, b] => Ok(Command::Los((*a).to_string(), (*b).to_string())),
            _ => Err(usage_err()),
        },
        "sees" => match args {
            [u] => Ok(Command::Sees((*u).to_string())),
            [] if names.active.is_some() => Ok(Command::Sees(
                names.active.map(|a| a.to_string()).unwrap_or_default(),
            )),
            _ => Err(usage_err()),
        },
        "reach" => match args {
            [u] => Ok(Command::Reach((*u).to_string())),
            [] if names.active.is_some() => Ok(Command::Reach(
                names.active.map(|a| a.to_string()).unwrap_or_default(),
            )),
            _ => Err(usage_err()),
        },
        "status" => no_args(args, Command::Status, usage_err),
        "undo" => no_args(args, Command::Undo, usage_err),
        "quit" => no_args(args, Command::Quit, usage_err),
        "log" => match args {
            [] => Ok(Command::Log(Some(20))),
            ["all"] => Ok(Command::Log(None)),
            [n] => n
                .parse()
                .map(|n| Command::Log(Some(n)))
                .map_err(|_| ParseError::new(format!("`{n}` is not a number; usage: log [N|all]"))),
            _ => Err(usage_err()),
        },
        "save" => match args {
            [] => Err(usage_err()),
            // A path may hold spaces: take the rest of the line as typed.
            _ => Ok(Command::Save(PathBuf::from(line[words[0].len()..].trim()))),
        },
        _ => Err(usage_err()),
    }
}

fn no_args(
    args: &[&str],
    c: Command,
    usage: impl Fn() -> ParseError,
) -> Result<Command, ParseError> {
    if args.is_empty() {
        Ok(c)
    } else {
        Err(usage())
    }
}

/// The unit that acts: as [`check_id`], but a typo is corrected to one of the side's own.
fn check_actor(cmd: &str, id: &str, names: &Names, args: &[&str]) -> Result<Id, ParseError> {
    lookup(cmd, id, names, args, &names.own)
}

/// An id the map knows (or a map label for one), or an error suggesting the nearest (in the
/// whole line).
fn check_id(cmd: &str, id: &str, names: &Names, args: &[&str]) -> Result<Id, ParseError> {
    lookup(cmd, id, names, args, &names.ids)
}

fn lookup(
    cmd: &str,
    id: &str,
    names: &Names,
    args: &[&str],
    pool: &[String],
) -> Result<Id, ParseError> {
    if names.ids.is_empty() || names.ids.iter().any(|n| n == id) {
        // An unknown name too long to be an id is cut so that it matches nothing.
        return Ok(Id::from(id));
    }
    if let Some(real) = names.label(id) {
        return Ok(Id::from(real));
    }
    let pool = if pool.is_empty() { &names.ids } else { pool };
    let near = nearest(id, pool.iter().map(String::as_str));
    let suggestion = near.map(|n| {
        let fixed: Vec<&str> = args.iter().map(|a| if *a == id { n } else { a }).collect();
        format!("{cmd} {}", fixed.join(" "))
    });
    Err(ParseError::new(format!("no unit, model, Blip or hazard named `{id}`")).suggest(suggestion))
}

/// A name from `known` (a loaded behaviour or alien type), or an error suggesting the
/// nearest.
fn check_in(
    cmd: &str,
    word: &str,
    known: &[String],
    what: &str,
    args: &[&str],
) -> Result<Id, ParseError> {
    if known.is_empty() || known.iter().any(|n| n == word) {
        return Ok(Id::from(word));
    }
    let near = nearest(word, known.iter().map(String::as_str));
    let suggestion = near.map(|n| {
        let fixed: Vec<&str> = args
            .iter()
            .map(|a| if *a == word { n } else { a })
            .collect();
        format!("{cmd} {}", fixed.join(" "))
    });
    Err(ParseError::new(format!("no loaded {what} is called `{word}`")).suggest(suggestion))
}

/// `X,Y` as a square.
///
/// # Errors
/// What was expected.
pub fn square_of(s: &str) -> Result<Pos, String> {
    let expected = "expected a square X,Y such as 3,4 (0,0 is the top-left square)";
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("`{s}`: {expected}"))?;
    match (x.trim().parse(), y.trim().parse()) {
        (Ok(x), Ok(y)) => Ok(Pos::new(x, y)),
        _ => Err(format!("`{s}`: {expected}")),
    }
}

fn via_text(via: &[Pos]) -> String {
    if via.is_empty() {
        return String::new();
    }
    let squares: Vec<String> = via.iter().map(ToString::to_string).collect();
    format!(" via {}", squares.join(" "))
}

/// The text command for an action: what a player would type.
#[must_use]
pub fn text_of(a: &Action) -> String {
    match a {
        Action::Move { unit, to, via } => format!("move {unit} {to}{}", via_text(via)),
        Action::Sprint { unit, to, via } => format!("sprint {unit} {to}{}", via_text(via)),
        Action::Shoot { unit, target } => format!("shoot {unit} {target}"),
        Action::Melee { unit, target } => format!("melee {unit} {target}"),
        Action::Overwatch { unit } => format!("overwatch {unit}"),
        Action::Interact { unit } => format!("interact {unit}"),
        Action::DestroyWall { unit } => format!("destroy {unit}"),
        Action::Flip { unit } => format!("flip {unit}"),
        Action::End => "end".to_string(),
        Action::Deploy => "deploy".to_string(),
        Action::Perform { unit, behaviour } => format!("perform {unit} {behaviour}"),
        Action::Spawn {
            alien,
            at,
            models: 1,
        } => format!("spawn {alien} {at}"),
        Action::Spawn { alien, at, models } => format!("spawn {alien} {at} {models}"),
        Action::Play {
            card,
            target: Some(t),
            ..
        } => format!("play {card} {t}"),
        Action::Play {
            card, at: Some(p), ..
        } => format!("play {card} {p}"),
        Action::Play { card, .. } => format!("play {card}"),
        Action::Discard { card } => format!("discard {card}"),
        Action::Interrupt { discard } => {
            let cards: Vec<String> = discard.iter().map(ToString::to_string).collect();
            format!("interrupt {}", cards.join(" "))
        }
    }
}

/// The help text: every command, or one.
#[must_use]
pub fn help(topic: Option<&str>) -> String {
    let rows = COMMANDS
        .iter()
        .filter(|(w, _, _)| topic.is_none_or(|t| t == *w));
    let mut out = String::new();
    for (w, args, what) in rows {
        let usage = if args.is_empty() {
            (*w).to_string()
        } else {
            format!("{w} {args}")
        };
        out.push_str(&format!("  {usage:<22} {what}\n"));
    }
    if out.is_empty() {
        let near = topic.and_then(|t| nearest(t, COMMANDS.iter().map(|(w, _, _)| *w)));
        return match near {
            Some(n) => format!(
                "no command `{}`; did you mean `{n}`?\n",
                topic.unwrap_or_default()
            ),
            None => format!(
                "no command `{}`; type `help` for the list\n",
                topic.unwrap_or_default()
            ),
        };
    }
    if topic.is_none() {
        out.push_str(
            "  N                      At a decision: choose option N\n\n\
             UNIT may be left out while a unit is activating (`move 3,4`). Squares are X,Y with\n\
             0,0 the top-left. A model of an Alien Unit is UNIT.N (`b3.2`).\n",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names {
        Names {
            ids: vec!["captain".into(), "medic".into(), "b3".into(), "b3.1".into()],
            active: None,
            behaviours: vec!["rush".into(), "take_cover".into()],
            aliens: vec!["stalker".into()],
            cards: vec!["acid_spit".into(), "frenzy".into()],
            own: vec!["captain".into(), "medic".into()],
            labels: vec![
                ("1".into(), "captain".into()),
                ("2".into(), "medic".into()),
                ("A".into(), "b3".into()),
                ("A.1".into(), "b3.1".into()),
            ],
        }
    }

    #[test]
    fn card_commands_parse_with_suggestions() {
        let n = names();
        assert_eq!(
            parse("play acid_spit captain", &n),
            Ok(Command::Act(Action::Play {
                card: "acid_spit".into(),
                target: Some("captain".into()),
                at: None
            }))
        );
        assert_eq!(
            parse("play frenzy 3,4", &n),
            Ok(Command::Act(Action::Play {
                card: "frenzy".into(),
                target: None,
                at: Some(Pos::new(3, 4))
            }))
        );
        assert_eq!(
            parse("interrupt frenzy acid_spit", &n),
            Ok(Command::Act(Action::Interrupt {
                discard: vec!["frenzy".into(), "acid_spit".into()]
            }))
        );
        let e = parse("discard frenzi", &n).unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("discard frenzy"));
        // The Heroes' names hold no cards: nothing to suggest, the rules refuse it.
        let heroes = Names {
            cards: Vec::new(),
            ..names()
        };
        assert!(matches!(
            parse("play frenzi captain", &heroes),
            Ok(Command::Act(_))
        ));
        for a in [
            "play acid_spit captain",
            "play frenzy 3,4",
            "discard frenzy",
            "interrupt frenzy acid_spit",
        ] {
            let Ok(Command::Act(action)) = parse(a, &n) else {
                panic!("{a} parses");
            };
            assert_eq!(text_of(&action), a);
        }
    }

    #[test]
    fn actions_parse() {
        let n = names();
        assert_eq!(
            parse("move captain 3,4", &n),
            Ok(Command::Act(Action::Move {
                unit: "captain".into(),
                to: Pos::new(3, 4),
                via: Vec::new()
            }))
        );
        assert_eq!(
            parse("  shoot medic b3.1 ", &n),
            Ok(Command::Act(Action::Shoot {
                unit: "medic".into(),
                target: "b3.1".into()
            }))
        );
        assert_eq!(parse("end", &n), Ok(Command::Act(Action::End)));
        assert_eq!(parse("2", &n), Ok(Command::Answer(2)));
        assert_eq!(parse("", &n), Ok(Command::Nothing));
        assert_eq!(parse("q", &n), Ok(Command::Quit));
        assert_eq!(
            parse("save my game.json", &n),
            Ok(Command::Save("my game.json".into()))
        );
        assert_eq!(
            parse(r#"{"action":"flip","unit":"b3"}"#, &n),
            Ok(Command::Act(Action::Flip { unit: "b3".into() }))
        );
    }

    #[test]
    fn a_move_names_its_waypoints_after_via() {
        let n = names();
        assert_eq!(
            parse("move captain 5,5 via 3,4 4,5", &n),
            Ok(Command::Act(Action::Move {
                unit: "captain".into(),
                to: Pos::new(5, 5),
                via: vec![Pos::new(3, 4), Pos::new(4, 5)],
            }))
        );
        let a = Action::Sprint {
            unit: "captain".into(),
            to: Pos::new(1, 1),
            via: vec![Pos::new(0, 1)],
        };
        assert_eq!(text_of(&a), "sprint captain 1,1 via 0,1");
        assert_eq!(parse(&text_of(&a), &n), Ok(Command::Act(a)));
        assert!(parse("move captain 5,5 via", &n)
            .unwrap_err()
            .to_string()
            .contains("waypoint"));
        assert!(parse("move captain 5,5 via 3;x", &n).is_err());
    }

    #[test]
    fn the_active_unit_may_be_left_out() {
        let n = Names {
            active: Some("captain".into()),
            ..names()
        };
        assert_eq!(
            parse("sprint 1,2", &n),
            Ok(Command::Act(Action::Sprint {
                unit: "captain".into(),
                to: Pos::new(1, 2),
                via: Vec::new()
            }))
        );
        assert_eq!(
            parse("overwatch", &n),
            Ok(Command::Act(Action::Overwatch {
                unit: "captain".into()
            }))
        );
    }

    #[test]
    fn typos_get_suggestions() {
        let n = names();
        let e = parse("mvoe captain 3,4", &n).unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("move captain 3,4"));
        let e = parse("move captian 3,4", &n).unwrap_err();
        assert!(e.message.contains("captian"), "{e}");
        assert_eq!(e.suggestion.as_deref(), Some("move captain 3,4"));
        let e = parse("move captain 3;4", &n).unwrap_err();
        assert!(e.message.contains("X,Y"), "{e}");
        let e = parse("shoot", &n).unwrap_err();
        assert_eq!(e.message, "usage: shoot UNIT TARGET");
        let e = parse("frobnicate", &n).unwrap_err();
        assert_eq!(e.suggestion, None);
    }

    /// Issue 25: a mistyped command and a mistyped unit are corrected in one suggestion.
    #[test]
    fn a_command_and_unit_typo_are_corrected_together() {
        let n = names();
        let e = parse("mvoe captian 2,14", &n).unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("move captain 2,14"), "{e}");
        let e = parse("shoto captain b33", &n).unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("shoot captain b3"), "{e}");
        // The corrected command that needs nothing else is suggested as it is.
        let e = parse("mvoe captain 2,14", &n).unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("move captain 2,14"), "{e}");
    }

    #[test]
    fn every_action_round_trips_through_its_text() {
        let n = names();
        for a in [
            Action::Move {
                unit: "captain".into(),
                to: Pos::new(1, 2),
                via: Vec::new(),
            },
            Action::Melee {
                unit: "captain".into(),
                target: "b3".into(),
            },
            Action::Interact {
                unit: "medic".into(),
            },
            Action::DestroyWall { unit: "b3".into() },
            Action::End,
            Action::Perform {
                unit: "b3".into(),
                behaviour: "rush".into(),
            },
            Action::Spawn {
                alien: "stalker".into(),
                at: Pos::new(4, 5),
                models: 1,
            },
            Action::Spawn {
                alien: "stalker".into(),
                at: Pos::new(4, 5),
                models: 3,
            },
        ] {
            assert_eq!(parse(&text_of(&a), &n), Ok(Command::Act(a)));
        }
    }

    /// Issue 13: units answer to the labels the map shows, and a misspelt unit that acts is
    /// corrected to one of the side's own, never the other side's.
    #[test]
    fn map_labels_name_units_and_typos_stay_on_your_side() {
        let n = names();
        assert_eq!(
            parse("move 1 2,3", &n),
            Ok(Command::Act(Action::move_to("captain", Pos::new(2, 3))))
        );
        assert_eq!(
            parse("shoot 2 a.1", &n),
            Ok(Command::Act(Action::Shoot {
                unit: "medic".into(),
                target: "b3.1".into()
            }))
        );
        assert_eq!(
            parse("melee 1 A1", &n),
            Ok(Command::Act(Action::Melee {
                unit: "captain".into(),
                target: "b3.1".into()
            }))
        );
        // `b4` is nearest to the Blip `b3`, but the acting unit must be one of yours.
        let e = parse("move b4 2,3", &n).unwrap_err();
        assert!(
            e.suggestion
                .as_deref()
                .is_some_and(|s| s.starts_with("move captain") || s.starts_with("move medic"))
                || e.suggestion.is_none(),
            "{e}"
        );
        assert_ne!(e.suggestion.as_deref(), Some("move b3 2,3"), "{e}");
        let e = parse("move captian 2,3", &n).unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("move captain 2,3"), "{e}");
    }

    #[test]
    fn author_tools_name_loaded_content_and_suggest_near_misses() {
        let n = names();
        let e = parse("perform b3 rsuh", &n).unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("perform b3 rush"), "{e}");
        let e = parse("spawn stalkr 4,5", &n).unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("spawn stalker 4,5"), "{e}");
        assert!(parse("spawn stalker 4,5 many", &n).is_err());
        assert!(parse("perform b3", &n).is_err());
    }
}
