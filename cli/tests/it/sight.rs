//! In-game `los A B` and `reach UNIT` (issue 13): drawn on the board from the viewer's
//! knowledge, by the game's own rules — a sight line or its blockers, and exactly the squares
//! the legal Move and Sprint actions reach.

use crate::common;

use common::*;

fn helps(input: &str) -> Vec<String> {
    let o = run(&["play", "--json", "--no-watch", "--seed", "11"], input);
    events(&stdout(&o))
        .into_iter()
        .filter(|e| e["event"] == "help")
        .map(|e| e["text"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn los_draws_the_line_or_the_blocker() {
    let h = helps("los captain 2,10\nlos 1 2,2\nquit\n");
    assert_eq!(h.len(), 2, "{h:#?}");
    assert!(h[0].contains("2,17 to 2,10: visible"), "{}", h[0]);
    // The straight line up the column crosses the squares between.
    assert!(h[0].contains("11 |. . * "), "{}", h[0]);
    assert!(h[1].contains("2,17 to 2,2: blocked"), "{}", h[1]);
    assert!(h[1].contains("obstacle at 2,10 (solid square)"), "{}", h[1]);
    assert!(h[1].contains("10 |# # X "), "{}", h[1]);
}

#[test]
fn reach_marks_exactly_the_legal_moves() {
    let o = run(
        &["play", "--json", "--no-watch", "--seed", "11"],
        "reach captain\nquit\n",
    );
    let ev = events(&stdout(&o));
    let turn = of_kind(&ev, "your_turn")[0];
    let count = |word: &str| -> usize {
        turn["legal"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|g| g["action"] == word && g["unit"] == "captain")
            .and_then(|g| g["to"].as_array().map(Vec::len))
            .unwrap_or(0)
    };
    let text = of_kind(&ev, "help")[0]["text"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let marks = |c: char| {
        text.lines()
            .filter(|l| l.contains('|'))
            .map(|l| l.matches(c).count())
            .sum::<usize>()
    };
    assert_eq!(marks('+'), count("sprint"), "{text}");
    assert_eq!(marks('+') + marks('*'), count("move"), "{text}");
    assert!(
        text.contains(&format!(
            "a Sprint reaches {} squares (+), a Move {}",
            count("sprint"),
            count("move")
        )),
        "{text}"
    );
}

#[test]
fn the_heroes_see_a_blip_as_a_question_mark_and_nothing_more() {
    let h = helps("los 1 b1\nreach b1\nquit\n");
    assert_eq!(h.len(), 2, "{h:#?}");
    let secret = ["stalker", "spitter", "dread", "warden", "decoy", "Decoy"];
    for t in &h {
        for s in secret {
            assert!(!t.contains(s), "`{s}` in the Heroes' view:\n{t}");
        }
    }
}

#[test]
fn sees_marks_every_square_in_sight_and_none_behind_rock() {
    let h = helps("sees captain\nlos captain 2,2\nquit\n");
    assert_eq!(h.len(), 2, "{h:#?}");
    let marks: usize = h[0]
        .lines()
        .filter(|l| l.contains('|'))
        .map(|l| l.matches('o').count())
        .sum();
    // The count includes the squares in sight that hold a model or Blip (drawn as such).
    let said: usize = h[0]
        .split("captain at 2,17 sees ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        marks > 100 && said >= marks && said - marks <= 12,
        "{marks} drawn, {said} said"
    );
    // Row 2 lies behind the rock at 2,10 for the captain: `los` agrees it is blocked.
    assert!(h[1].contains("blocked"), "{}", h[1]);
    let row2 = h[0].lines().find(|l| l.starts_with(" 2 |")).unwrap_or("");
    assert_eq!(
        row2.chars().nth(8),
        Some('?'),
        "2,2 holds a Blip, not a mark: {row2}"
    );
}
