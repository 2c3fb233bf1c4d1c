//! Mission keys beyond the map (docs/MISSIONS.md): profiles, contents, pool, objective, rules.

use overmind_core::*;
use std::path::Path;

const MAP: &str = "map = \"\"\"\n+-+-+-+\n|. . .|\n+-+-+-+\n\"\"\"\n";

fn setup_of(extra: &str) -> Result<Setup, MissionErrors> {
    let text = format!("{MAP}{extra}");
    let m = Mission::parse(Path::new("m.toml"), &text).expect("map parses");
    m.setup(&text, &Rules::default())
}

#[test]
fn full_mission_keys_are_read() {
    let s = setup_of(
        "objective = { kind = \"extract\", count = 1 }\nmax_rounds = 3\ndecoys = 1\n[rules]\novermind_reveal_trigger = \"always\"\n[[pool]]\ntype = \"x\"\nsize = 2\ncount = 2\n[[heroes]]\nid = \"H\"\nat = [0, 0]\nprofile = \"p\"\n[[blips]]\nid = \"B\"\nat = [2, 0]\nholds = \"decoy\"\n",
    )
    .unwrap();
    assert_eq!(
        s.objective,
        Objective::Extract {
            count: 1,
            squares: vec![]
        }
    );
    assert_eq!(s.max_rounds, Some(3));
    assert_eq!(s.decoys, Some(1));
    assert_eq!(s.rules.overmind_reveal_trigger, RevealTrigger::Always);
    assert_eq!(s.pool[0].size, 2);
    assert_eq!(s.heroes[0].profile, "p");
    assert_eq!(s.blips[0].contents, Some(Contents::Decoy));
}

#[test]
fn bad_keys_are_reported_with_their_line() {
    let e = setup_of(
        "objective = { kind = \"conquer\" }\nbogus = 1\n[[heroes]]\nid = \"H\"\nat = [0, 0]\n",
    )
    .unwrap_err();
    let text: Vec<String> = e.iter().map(|e| e.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t.starts_with("m.toml:6:22: objective: unknown variant `conquer`")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.starts_with("m.toml:7:1: unknown key `bogus`")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.contains("hero H: missing `profile`")),
        "{text:?}"
    );
}

#[test]
fn rule_overrides_are_validated() {
    let e = setup_of("[rules]\nmax_dice = 0\n").unwrap_err();
    assert!(e.iter().any(|e| e.message.contains("max_dice")), "{e}");
    let e = setup_of("[rules]\nno_such_rule = 1\n").unwrap_err();
    assert!(e.iter().any(|e| e.message.contains("no_such_rule")), "{e}");
}
