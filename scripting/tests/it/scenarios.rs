//! The scenario runner against the real packs: every base pack scenario passes, and the runner reports broken files and failed expectations as docs/SCENARIOS.md says.

use overmind_scripting::pack::PackSet;
use overmind_scripting::scenario;
use std::path::{Path, PathBuf};

fn base() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../behaviours"))
}

fn base_set() -> PackSet {
    match PackSet::load(&[base()]) {
        Ok(set) => set,
        Err(ps) => {
            let shown: Vec<String> = ps.iter().map(ToString::to_string).collect();
            panic!("the base pack does not load:\n{}", shown.join("\n"));
        }
    }
}

#[test]
fn every_base_pack_scenario_passes() {
    let set = base_set();
    let mut report = Vec::new();
    let mut passed = 0;
    for (path, result) in scenario::run_packs(&set) {
        match result {
            Err(problems) => {
                for p in problems {
                    report.push(format!("{p}"));
                }
            }
            Ok(results) => {
                for r in results {
                    if r.passed() {
                        passed += 1;
                    } else {
                        report.push(format!("FAIL {}: {}", path.display(), r.name));
                        report.extend(r.failures.iter().map(|f| format!("  {f}")));
                        report.push("  the game as played:".into());
                        report.extend(r.transcript.iter().map(|l| format!("    {l}")));
                    }
                }
            }
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
    assert!(passed >= 25, "only {passed} scenarios ran");
}

/// Every seed rule and every seed behaviour has its scenario file.
#[test]
fn the_seed_rules_and_behaviours_have_scenarios() {
    let set = base_set();
    let files: Vec<String> = scenario::files(&set)
        .iter()
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
        .collect();
    for b in set.content.behaviours.keys() {
        assert!(
            files.contains(b),
            "no behaviours/tests/{b}.toml for behaviour {b}"
        );
    }
    for f in ["reveal", "blip_movement", "triggers"] {
        assert!(files.iter().any(|x| x == f), "no behaviours/tests/{f}.toml");
    }
}

/// A scenario file in a temporary directory.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str, text: &str) -> Temp {
        let dir =
            std::env::temp_dir().join(format!("overmind-scenario-{}-{name}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("{name}.toml"));
        if let Err(e) = std::fs::write(&path, text) {
            panic!("cannot write {}: {e}", path.display());
        }
        Temp(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

const OPEN: &str = r#"
map = """
+-+-+-+-+-+-+-+-+
|. . . . . . . .|
+               +
|. . . . . . . .|
+               +
|. . # . . . . .|
+               +
|. . . . . . . .|
+-+-+-+-+-+-+-+-+
"""
"#;

/// `line:column` (1-based) of the first `needle` in `text`.
fn at(text: &str, needle: &str) -> String {
    let i = text.find(needle).unwrap_or(0);
    let before = &text[..i];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    format!("{line}:{column}")
}

fn problems_of(name: &str, text: &str) -> Vec<String> {
    let set = base_set();
    let t = Temp::new(name, text);
    match scenario::load_file(&set, t.path()) {
        Ok(s) => panic!("{} scenarios loaded from a broken file", s.len()),
        Err(ps) => ps
            .iter()
            .map(|p| {
                let shown = p.to_string();
                shown
                    .strip_prefix(&format!("{}:", t.path().display()))
                    .map_or(shown.clone(), str::to_string)
            })
            .collect(),
    }
}

#[test]
fn a_broken_file_gets_every_problem_with_its_position() {
    let text = format!(
        "[[scenario]]\nname = \"x\"\n{OPEN}actions = [\"mvoe H 1,1\", \"move H 1;1\"]\ndice = \"lots\"\n\n[[scenario.heroes]]\nid = \"H\"\nprofile = \"vance\"\nat = [0, 2]\n\n[[scenario.expect]]\nevent = \"moved\"\nunits = \"H\"\n\n[[scenario.expect]]\nevent = \"blip_reveal\"\n"
    );
    let ps = problems_of("broken", &text);
    let want = [
        format!("{}: unknown command `mvoe`", at(&text, "mvoe")),
        format!("{}: found `1;1`", at(&text, "1;1")),
        format!("{}: dice = \"lots\"", at(&text, "\"lots")),
        format!(
            "{}: a `moved` event has no field `units`",
            at(&text, "units")
        ),
        format!(
            "{}: no event kind `blip_reveal`",
            at(&text, "\"blip_reveal")
        ),
    ];
    assert_eq!(ps.len(), want.len(), "{ps:#?}");
    for (p, w) in ps.iter().zip(want) {
        assert!(p.starts_with(&w), "{p:?} should start with {w:?}");
    }
}

#[test]
fn map_and_placement_problems_point_into_the_scenario_file() {
    let text = "[[scenario]]\nname = \"x\"\nmap = \"\"\"\n+-+-+\n|. x|\n+-+-+\n\"\"\"\n";
    let ps = problems_of("map", text);
    assert_eq!(ps.len(), 1, "{ps:#?}");
    assert!(ps[0].starts_with("5:4: found 'x'"), "{ps:#?}");

    let text = format!("[[scenario]]\nname = \"x\"\n{OPEN}\n[[scenario.heroes]]\nid = \"H\"\nprofile = \"vance\"\nat = [0, 2]\n\n[[scenario.blips]]\nid = \"B\"\nat = [3, 1]\nholds = \"stalker\"\n");
    let ps = problems_of("sight", &text);
    assert_eq!(ps.len(), 1, "{ps:#?}");
    let want = format!(
        "{}: blip B starts at 3,1 in the Line of Sight of hero H",
        at(&text, "\"B\"")
    );
    assert!(ps[0].starts_with(&want), "{ps:#?}");
}

#[test]
fn failed_expectations_say_what_was_expected_and_what_happened() {
    let set = base_set();
    let text = format!(
        "[[scenario]]\nname = \"wrong on purpose\"\n{OPEN}dice = \"blanks\"\nactions = [\"move H 0,1\"]\nanswers = {{ overmind = [\"quick_shot\", \"yes\", 7] }}\n\n[[scenario.heroes]]\nid = \"H\"\nprofile = \"vance\"\nat = [0, 2]\n\n[[scenario.blips]]\nid = \"Q\"\nat = [4, 2]\nholds = \"spitter\"\n\n[[scenario.expect]]\nat = {{ model = \"Q.1\", square = [5, 2] }}\n\n[[scenario.expect]]\nevent = \"attack\"\nkind = \"melee\"\n\n[[scenario.expect]]\nwinner = \"heroes\"\n"
    );
    let t = Temp::new("wrong", &text);
    let results = match scenario::run_file(&set, t.path()) {
        Ok(r) => r,
        Err(ps) => panic!("{ps:?}"),
    };
    assert_eq!(results.len(), 1);
    let r = &results[0];
    assert!(!r.passed());
    let shown: Vec<String> = r.failures.iter().map(ToString::to_string).collect();
    let all = shown.join("\n");
    assert_eq!(r.failures.len(), 4, "{all}");
    assert!(
        all.contains("answers was never used") || all.contains("answers were never used"),
        "{all}"
    );
    assert!(all.contains("expected Q.1 at 5,2; it is at 4,2"), "{all}");
    assert!(
        all.contains("expected an event `attack` with kind = \"melee\"; found 0"),
        "{all}"
    );
    assert!(
        all.contains("attack {"),
        "the excerpt shows the attack that did happen: {all}"
    );
    assert!(
        all.contains("expected the heroes win; no winner yet"),
        "{all}"
    );
    assert!(
        r.transcript
            .iter()
            .any(|l| l.contains("-> 0 = quick_shot (answer \"quick_shot\")")),
        "{:#?}",
        r.transcript
    );
}

#[test]
fn a_refused_action_stops_the_scenario_unless_expected() {
    let set = base_set();
    let body = format!("name = \"far\"\n{OPEN}actions = [\"move H 7,0\"]\n\n[[scenario.heroes]]\nid = \"H\"\nprofile = \"vance\"\nat = [0, 2]\n");
    let t = Temp::new("refused", &format!("[[scenario]]\n{body}"));
    let r = match scenario::run_file(&set, t.path()) {
        Ok(r) => r,
        Err(ps) => panic!("{ps:?}"),
    };
    let all: Vec<String> = r[0].failures.iter().map(ToString::to_string).collect();
    assert!(
        all.len() == 1
            && all[0].contains("action 1 `move H 7,0` was refused: 7,0 is 7 squares away"),
        "{all:#?}"
    );

    let t = Temp::new(
        "expected",
        &format!("[[scenario]]\n{body}\n[[scenario.expect]]\nrefused = \"squares away\"\n"),
    );
    let r = match scenario::run_file(&set, t.path()) {
        Ok(r) => r,
        Err(ps) => panic!("{ps:?}"),
    };
    assert!(r[0].passed(), "{:?}", r[0].failures);
}

/// The complete example of docs/SCENARIOS.md is a passing scenario.
#[test]
fn the_documented_example_passes() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/SCENARIOS.md"))
        .unwrap_or_default();
    let Some(start) = doc.find("```toml\n# my_pack/tests/rush.toml") else {
        panic!("docs/SCENARIOS.md has no complete example");
    };
    let body = &doc[start + "```toml\n".len()..];
    let example = &body[..body.find("```").unwrap_or(body.len())];
    let set = base_set();
    let t = Temp::new("doc", example);
    let r = match scenario::run_file(&set, t.path()) {
        Ok(r) => r,
        Err(ps) => panic!("{ps:?}"),
    };
    assert_eq!(r.len(), 1);
    assert!(r[0].passed(), "{:#?}", r[0].failures);
}

/// Issue 11: the look-ahead AI chooses a behaviour it does not know by name when it beats the
/// others, and the greedy AI (the reference) still does not (tests/packs/charge).
#[test]
fn the_look_ahead_ai_finds_a_new_behaviour() {
    let pack = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/packs/charge"
    ));
    let set = match PackSet::load(&[base(), pack.clone()]) {
        Ok(set) => set,
        Err(ps) => panic!("{ps:?}"),
    };
    let mut ran = 0;
    for (path, result) in scenario::run_packs(&set) {
        if !path.starts_with(&pack) {
            continue;
        }
        let results = result.unwrap_or_else(|p| panic!("{p:?}"));
        for r in results {
            assert!(
                r.passed(),
                "{}: {}\n{}",
                r.name,
                r.failures
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n"),
                r.transcript.join("\n")
            );
            ran += 1;
        }
    }
    assert_eq!(ran, 3);
}

/// `at` takes one square, one of several squares, or a square adjacent to another model
/// (issue 12): adjacency is the rules' (§4), so a wall between two touching squares is not.
#[test]
fn at_takes_one_of_several_squares_or_adjacent_to_a_model() {
    let set = base_set();
    let walled = "map = \"\"\"\n+-+-+-+-+-+-+\n|. .|. . . .|\n+           +\n|. . . . . .|\n+           +\n|. . . . . .|\n+-+-+-+-+-+-+\n\"\"\"\n";
    let units = "[[scenario.heroes]]\nid = \"H\"\nprofile = \"vance\"\nat = [1, 0]\n\n[[scenario.units]]\nid = \"U\"\ntype = \"spitter\"\nat = [2, 0]\n\n[[scenario.units]]\nid = \"M\"\ntype = \"spitter\"\nat = [1, 1]\n";
    let expect = |e: &str| format!("\n[[scenario.expect]]\nat = {{ {e} }}\n");
    let text = format!(
        "[[scenario]]\nname = \"places\"\n{walled}actions = [\"end\"]\n\n{units}{}{}{}{}{}",
        expect("model = \"M\", adjacent_to = \"H\""),
        expect("model = \"U\", squares = [[0, 0], [2, 0]]"),
        expect("model = \"U\", adjacent_to = \"H\""),
        expect("model = \"U\", squares = [[3, 0], [4, 0]]"),
        expect("model = \"M\", adjacent_to = \"nobody\""),
    );
    let t = Temp::new("places", &text);
    let r = match scenario::run_file(&set, t.path()) {
        Ok(r) => r,
        Err(ps) => panic!("{ps:?}"),
    };
    let all: Vec<String> = r[0].failures.iter().map(ToString::to_string).collect();
    let joined = all.join("\n");
    assert_eq!(all.len(), 3, "{joined}");
    assert!(
        joined.contains("expected U adjacent to H; it is at 2,0, and H at 1,0"),
        "the wall between them: {joined}"
    );
    assert!(
        joined.contains("expected U on one of 3,0 4,0; it is at 2,0"),
        "{joined}"
    );
    assert!(
        joined.contains("expected M adjacent to nobody;"),
        "{joined}"
    );

    let both = format!(
        "[[scenario]]\nname = \"both\"\n{walled}actions = [\"end\"]\n\n{units}{}",
        expect("model = \"U\", square = [2, 0], adjacent_to = \"H\"")
    );
    let problems = problems_of("both", &both);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("at: give exactly one of `square = [x, y]`")),
        "{problems:?}"
    );
}

/// `line:column` (1-based) of the `n`th (from 0) `needle` in `text`.
fn nth_at(text: &str, needle: &str, n: usize) -> String {
    let i = text.match_indices(needle).nth(n).map_or(0, |(i, _)| i);
    let before = &text[..i];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |k| k + 1) + 1;
    format!("{line}:{column}")
}

/// The problems of a scenario's start (its heroes, Blips, revealed units and the Overmind's
/// cards, all checked by the setup) each say what is wrong where it is written.
#[test]
fn start_problems_point_at_what_is_written() {
    let text = r#"[[scenario]]
name = "x"
map = """
+-+-+-+-+-+-+-+-+-+-+
|. . . . . . . .|. .|
+               +   +
|. . # . . . . .|. .|
+-+-+-+-+-+-+-+-+-+-+
"""
decoys = 3
hand = ["acid_spit", "cull", "acid_spt"]
agenda = "frenzy"
actions = ["end"]

[[scenario.heroes]]
id = "H"
profile = "vance"
at = [0, 0]
health = 9

[[scenario.blips]]
id = "Z"
at = [9, 1]
holds = "decoy"

[[scenario.blips]]
id = "Y"
at = [0, 0]
holds = "decoy"

[[scenario.units]]
id = "S"
type = "spitter"
at = [2, 1]

[[scenario.units]]
id = "N"
type = "spiter"
at = [3, 0]

[[scenario.units]]
id = "S"
type = "spitter"
models = [[4, 0], [4, 1]]

[[scenario.units]]
id = "M"
type = "spitter"
models = [[5, 0], [5, 1], [6, 0]]

[[scenario.units]]
id = "P"
type = "spitter"
at = [6, 1]
health = 3
"#;
    let want = [
        (
            "\"cull\"",
            0,
            "card \"cull\" is a hidden_agenda card, not a mutation one",
        ),
        (
            "\"acid_spt\"",
            0,
            "no mutation card \"acid_spt\" is loaded (did you mean acid_spit?)",
        ),
        (
            "\"frenzy\"",
            0,
            "card \"frenzy\" is a mutation card, not a hidden_agenda one",
        ),
        ("9\n", 0, "health 9: expected 1 to 8 (the profile's health)"),
        ("\"Y\"", 0, "blip Y: 0,0 is already taken by H"),
        ("[2, 1]", 0, "unit S: model 1: 2,1 is a solid square"),
        (
            "\"spiter\"",
            0,
            "unit N: no Alien Type named \"spiter\"; the loaded packs define dread, juggernaut, spitter, \
             stalker, warden",
        ),
        ("[[4, 0]", 0, "unit S: this id is used twice"),
        (
            "[[5, 0]",
            0,
            "unit M: 3 models, expected 1 to 2 for spitter",
        ),
        ("3\n", 1, "unit P: health 3, expected 1 to 2 for spitter"),
    ]
    .map(|(needle, n, message)| format!("{}: {message}", nth_at(text, needle, n)));
    assert_eq!(problems_of("start", text), want);
}
