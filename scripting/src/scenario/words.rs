//! The CLI's command words (`move H 3,4`, `flip B1`, `end`) read into core [`Action`]s.

use overmind_core::Id;
use overmind_core::{Action, Pos};

/// The command words and what each takes, for messages.
const USAGE: &str = "move UNIT X,Y, sprint UNIT X,Y, shoot UNIT TARGET, melee UNIT TARGET, overwatch UNIT, interact UNIT, destroy UNIT, flip BLIP, play CARD [TARGET|X,Y], discard CARD, interrupt CARD CARD, deploy or end";

/// Read one command as the CLI writes it: `move UNIT X,Y`, `sprint UNIT X,Y`,
/// `shoot UNIT TARGET`, `melee UNIT TARGET`, `overwatch UNIT`, `interact UNIT`, `flip BLIP`,
/// `end`. The command word is case-insensitive; `UNIT` may name a model (`B1.2`).
///
/// # Errors
/// The byte offset in `text` of the word at fault, and what is wrong and expected.
pub fn parse_action(text: &str) -> Result<Action, (usize, String)> {
    let words: Vec<(usize, &str)> = split(text);
    let Some(&(_, verb)) = words.first() else {
        return Err((0, format!("an empty command: expected {USAGE}")));
    };
    let verb_lc = verb.to_ascii_lowercase();
    let arg = |i: usize, what: &str| -> Result<(usize, &str), (usize, String)> {
        words.get(i).copied().ok_or_else(|| {
            (
                text.len(),
                format!("`{verb_lc}` needs {what}: {}", usage_of(&verb_lc)),
            )
        })
    };
    let no_more = |n: usize| -> Result<(), (usize, String)> {
        match words.get(n) {
            Some(&(at, w)) => Err((
                at,
                format!("unexpected `{w}` after the command: {}", usage_of(&verb_lc)),
            )),
            None => Ok(()),
        }
    };
    let action = match verb_lc.as_str() {
        "move" | "sprint" => {
            let (_, unit) = arg(1, "a unit and a square")?;
            let (at, first) = arg(2, "a square")?;
            // Accept `3,4` and `3, 4`.
            let (square, used) = match words.get(3) {
                Some(&(_, second)) if first.ends_with(',') => (format!("{first}{second}"), 4),
                _ => (first.to_string(), 3),
            };
            let to = parse_square(&square).map_err(|m| (at, m))?;
            // `... X,Y via X,Y X,Y`: waypoints, in order.
            let mut via = Vec::new();
            if let Some(&(at, w)) = words.get(used) {
                if !w.eq_ignore_ascii_case("via") {
                    no_more(used)?;
                }
                for &(at, w) in &words[used + 1..] {
                    via.push(parse_square(w).map_err(|m| (at, m))?);
                }
                if via.is_empty() {
                    return Err((
                        at,
                        format!("`via` needs at least one square: {}", usage_of(&verb_lc)),
                    ));
                }
            }
            let unit = unit.to_string();
            if verb_lc == "move" {
                Action::Move {
                    unit: Id::from(unit),
                    to,
                    via,
                }
            } else {
                Action::Sprint {
                    unit: Id::from(unit),
                    to,
                    via,
                }
            }
        }
        "shoot" | "melee" => {
            let (_, unit) = arg(1, "a unit and a target")?;
            let (_, target) = arg(2, "a target")?;
            no_more(3)?;
            let (unit, target) = (unit.to_string(), target.to_string());
            if verb_lc == "shoot" {
                Action::Shoot {
                    unit: Id::from(unit),
                    target: Id::from(target),
                }
            } else {
                Action::Melee {
                    unit: Id::from(unit),
                    target: Id::from(target),
                }
            }
        }
        "overwatch" | "interact" | "destroy" | "flip" => {
            let (_, unit) = arg(
                1,
                if verb_lc == "flip" {
                    "a Blip"
                } else {
                    "a unit"
                },
            )?;
            no_more(2)?;
            let unit = unit.to_string();
            match verb_lc.as_str() {
                "overwatch" => Action::Overwatch {
                    unit: Id::from(unit),
                },
                "interact" => Action::Interact {
                    unit: Id::from(unit),
                },
                "destroy" => Action::DestroyWall {
                    unit: Id::from(unit),
                },
                _ => Action::Flip {
                    unit: Id::from(unit),
                },
            }
        }
        "end" => {
            no_more(1)?;
            Action::End
        }
        "deploy" => {
            no_more(1)?;
            Action::Deploy
        }
        "play" => {
            let (_, card) = arg(1, "a card")?;
            let (target, at) = match words.get(2) {
                None => (None, None),
                Some(&(at, w)) if w.contains(',') => {
                    (None, Some(parse_square(w).map_err(|m| (at, m))?))
                }
                Some(&(_, w)) => (Some(Id::from(w)), None),
            };
            no_more(3)?;
            Action::Play {
                card: Id::from(card),
                target,
                at,
            }
        }
        "discard" => {
            let (_, card) = arg(1, "a card")?;
            no_more(2)?;
            Action::Discard {
                card: Id::from(card),
            }
        }
        "interrupt" => {
            arg(1, "the cards it discards")?;
            Action::Interrupt {
                discard: words[1..].iter().map(|&(_, w)| Id::from(w)).collect(),
            }
        }
        _ => {
            return Err((
                words[0].0,
                format!("unknown command `{verb}`: expected {USAGE}"),
            ))
        }
    };
    Ok(action)
}

fn usage_of(verb: &str) -> &'static str {
    match verb {
        "move" => "move UNIT X,Y [via X,Y ...]",
        "sprint" => "sprint UNIT X,Y [via X,Y ...]",
        "shoot" => "shoot UNIT TARGET",
        "melee" => "melee UNIT TARGET",
        "overwatch" => "overwatch UNIT",
        "interact" => "interact UNIT",
        "destroy" => "destroy UNIT",
        "flip" => "flip BLIP",
        "play" => "play CARD [TARGET|X,Y]",
        "discard" => "discard CARD",
        "interrupt" => "interrupt CARD CARD",
        "deploy" => "deploy",
        _ => "end",
    }
}

/// Whitespace-separated words with their byte offsets.
fn split(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// `X,Y` as a square.
fn parse_square(s: &str) -> Result<Pos, String> {
    let expected = "expected a square X,Y: two whole numbers separated by a comma, such as 3,4";
    let Some((x, y)) = s.split_once(',') else {
        return Err(format!("found `{s}`: {expected}"));
    };
    match (x.trim().parse::<i32>(), y.trim().parse::<i32>()) {
        (Ok(x), Ok(y)) => Ok(Pos::new(x, y)),
        _ => Err(format!("found `{s}`: {expected}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_word_reads() {
        let cases = [
            (
                "move H 3,4",
                Action::Move {
                    unit: "H".into(),
                    to: Pos::new(3, 4),
                    via: Vec::new(),
                },
            ),
            (
                "MOVE  B1.2   3, 4",
                Action::Move {
                    unit: "B1.2".into(),
                    to: Pos::new(3, 4),
                    via: Vec::new(),
                },
            ),
            (
                "move H 5,5 via 3,4 4,5",
                Action::Move {
                    unit: "H".into(),
                    to: Pos::new(5, 5),
                    via: vec![Pos::new(3, 4), Pos::new(4, 5)],
                },
            ),
            (
                "sprint H 0,1",
                Action::Sprint {
                    unit: "H".into(),
                    to: Pos::new(0, 1),
                    via: Vec::new(),
                },
            ),
            (
                "shoot H B1",
                Action::Shoot {
                    unit: "H".into(),
                    target: "B1".into(),
                },
            ),
            (
                "melee B1 H",
                Action::Melee {
                    unit: "B1".into(),
                    target: "H".into(),
                },
            ),
            ("overwatch H", Action::Overwatch { unit: "H".into() }),
            ("interact H", Action::Interact { unit: "H".into() }),
            ("flip B1", Action::Flip { unit: "B1".into() }),
            (" end ", Action::End),
        ];
        for (text, want) in cases {
            assert_eq!(parse_action(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn mistakes_say_where_and_what_is_expected() {
        let (at, m) = parse_action("jump H 3,4").unwrap_err();
        assert_eq!(at, 0);
        assert!(
            m.contains("unknown command `jump`") && m.contains("move UNIT X,Y"),
            "{m}"
        );
        let (at, m) = parse_action("move H 3;4").unwrap_err();
        assert_eq!(at, 7);
        assert!(m.contains("found `3;4`"), "{m}");
        let (at, m) = parse_action("move H").unwrap_err();
        assert_eq!(at, 6);
        assert!(m.contains("needs a square"), "{m}");
        let (at, m) = parse_action("end now").unwrap_err();
        assert_eq!(at, 4);
        assert!(m.contains("unexpected `now`"), "{m}");
        assert!(parse_action("").is_err());
        assert!(parse_action("flip").unwrap_err().1.contains("needs a Blip"));
    }
}
