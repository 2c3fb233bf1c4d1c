//! Fuzzing the file parsers with proptest (issue 9): random bytes, and the real files of the
//! base pack mutated (bytes inserted, deleted, replaced, duplicated; hostile tokens such as
//! `4000000000`, `"""`, a bad UTF-8 byte). Every parser must return — no panic, no abort, no
//! hang — and every error it reports must carry a position, line and column from 1.
//!
//! Case counts are kept small so each property runs in a few seconds in a debug build; a
//! failing case is shrunk and saved by proptest as usual.

use overmind_core::source::utf8_text;
use overmind_core::{HeroProfile, Rules};
use overmind_scripting::pack::{rules_from_toml, PackSet};
use overmind_scripting::problem::Problem;
use overmind_scripting::{scenario, ScriptHost};
use overmind_tests::workspace_root;
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Longest one parse may take, debug build included: far above what any input here needs.
const SLOW: Duration = Duration::from_secs(10);

/// One change to a file.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Replace(usize, u8),
    /// Copy `len` bytes from `from` to `to`.
    Duplicate(usize, usize, usize),
    Truncate(usize),
}

/// Tokens that mean something to TOML or to the game, and some that are plain wrong.
fn token() -> impl Strategy<Value = Vec<u8>> {
    let fixed: Vec<&'static [u8]> = vec![
        b"=",
        b"\n",
        b" ",
        b".",
        b",",
        b"[",
        b"]",
        b"{",
        b"}",
        b"[[",
        b"]]",
        b"\"",
        b"'",
        b"\"\"\"",
        b"'''",
        b"#",
        b"\\",
        b"\\u",
        b"0",
        b"-1",
        b"4000000000",
        b"9223372036854775807",
        b"99999999999999999999",
        b"1e400",
        b"nan",
        b"true",
        b"\"x\"",
        b"{ hit = \"x\" }",
        b"\xff",
        b"\xc3",
        b"\xe2\x82",
        b"\r\n",
        b"\t",
        b"\x00",
        b"\xc3\xa9",
        b"\n[rules]\nlua_call_depth = 0\nlos = 1\n",
        b"\n[[pool]]\ntype = \"stalker\"\ncount = 4000000000\n",
        b"\ndecoys = 4000000000\n",
        b"\nrules = { rush_steps = \"x\", die = { hit = \"x\" } }\n",
        b"\n[[heroes]]\nid = \"z\"\nat = [0, 0]\n",
        b"+-+-+",
        b"|x|",
        b"a.b.c.d.e.f.g.h",
    ];
    prop_oneof![
        4 => proptest::sample::select(fixed).prop_map(<[u8]>::to_vec),
        1 => proptest::collection::vec(any::<u8>(), 0..8),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), token()).prop_map(|(at, t)| Edit::Insert(at, t)),
        2 => (any::<usize>(), 0usize..64).prop_map(|(at, n)| Edit::Delete(at, n)),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Replace(at, b)),
        1 => (any::<usize>(), 0usize..300, any::<usize>())
            .prop_map(|(from, len, to)| Edit::Duplicate(from, len, to)),
        1 => any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let n = bytes.len();
        match e {
            Edit::Insert(at, t) => {
                let at = at % (n + 1);
                bytes.splice(at..at, t.iter().copied());
            }
            Edit::Delete(at, len) => {
                let at = at % (n + 1);
                let end = (at + len).min(n);
                bytes.drain(at..end);
            }
            Edit::Replace(at, b) if n > 0 => bytes[at % n] = *b,
            Edit::Duplicate(from, len, to) if n > 0 => {
                let from = from % n;
                let piece: Vec<u8> = bytes[from..(from + len).min(n)].to_vec();
                let to = to % (n + 1);
                bytes.splice(to..to, piece);
            }
            Edit::Truncate(at) => bytes.truncate(at % (n + 1)),
            _ => {}
        }
    }
    bytes
}

/// Random text that looks enough like TOML to get past the first token now and then.
fn noise() -> impl Strategy<Value = Vec<u8>> {
    let alphabet: Vec<u8> = b"abxyz019=[]{}\"'\n .,#+-|:_\\".to_vec();
    proptest::collection::vec(
        prop_oneof![
            6 => proptest::sample::select(alphabet),
            1 => any::<u8>(),
        ],
        0..300,
    )
}

/// The files of the base pack under `sub` with extension `ext`.
fn seeds(sub: &str, ext: &str) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("behaviours").join(sub))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().and_then(|e| e.to_str()) == Some(ext));
    files.sort();
    let out: Vec<Vec<u8>> = files.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    assert!(!out.is_empty(), "no seed files in behaviours/{sub}");
    out
}

/// A seed file of `seeds`, mutated.
fn mutated(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::sample::select(seeds),
        proptest::collection::vec(edit(), 1..6),
    )
        .prop_map(|(seed, edits)| apply(seed, &edits))
}

/// The base pack's own `rules.toml`-shaped seeds: its defaults written out, and some settings.
fn rules_seeds() -> Vec<Vec<u8>> {
    let defaults = toml::to_string(&Rules::default()).unwrap_or_default();
    vec![
        defaults.into_bytes(),
        b"los = \"centre\"\nmax_dice = 4\n[die]\nblank = 4\nhit = 3\ndouble_hit = 1\ncritical = 1\nshield = 2\ndouble_shield = 1\n".to_vec(),
        b"lua_instructions = 2000000\nlua_call_depth = 150\nmax_behaviour_depth = 3\n".to_vec(),
    ]
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        ..Config::default()
    }
}

/// The text, or (asserting it has a position) the problem of its first bad byte.
fn text_of(bytes: &[u8]) -> Option<String> {
    match utf8_text(bytes.to_vec()) {
        Ok(t) => Some(t),
        Err(e) => {
            assert!(
                e.line >= 1 && e.column >= 1,
                "not UTF-8 without a position: {e:?}"
            );
            None
        }
    }
}

#[track_caller]
fn positioned(problems: &[Problem], input: &[u8]) {
    for p in problems {
        assert!(
            p.line >= 1 && p.column >= 1,
            "a problem without a position: {p}\ninput: {:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[track_caller]
fn quick(started: Instant, input: &[u8]) {
    assert!(
        started.elapsed() < SLOW,
        "took {:?} on {:?}",
        started.elapsed(),
        String::from_utf8_lossy(input)
    );
}

thread_local! {
    /// The base pack, loaded once per test thread, and a folder for files to check.
    static BASE: (PackSet, tempfile::TempDir) = {
        let set = PackSet::load(&[workspace_root().join("behaviours")])
            .unwrap_or_else(|ps| panic!("the base pack does not load: {ps:?}"));
        (set, tempfile::tempdir().expect("tempdir"))
    };
}

/// A mission file's problems, as far as a game start over the base pack.
fn check_mission(bytes: &[u8]) {
    let started = Instant::now();
    BASE.with(|(set, dir)| {
        let path = dir.path().join("fuzzed.toml");
        std::fs::write(&path, bytes).expect("write");
        let id = path.display().to_string();
        let problems = match set.start(&id, 1) {
            Ok(_) => Vec::new(),
            Err(ps) => ps,
        };
        positioned(&problems, bytes);
        if !problems.is_empty() {
            assert!(problems.len() <= overmind_core::source::MAX_PROBLEMS + 1);
        }
    });
    quick(started, bytes);
}

fn check_rules(bytes: &[u8]) {
    let started = Instant::now();
    let Some(text) = text_of(bytes) else { return };
    match rules_from_toml(&Rules::default(), Path::new("rules.toml"), &text) {
        Ok(rules) => {
            // Accepted settings always make a working script host.
            if let Err(e) = ScriptHost::new(&rules) {
                panic!("rules accepted but unusable ({e}): {text:?}");
            }
        }
        Err(ps) => positioned(&ps, bytes),
    }
    quick(started, bytes);
}

fn check_hero(bytes: &[u8]) {
    let started = Instant::now();
    let Some(text) = text_of(bytes) else { return };
    if let Err(es) = HeroProfile::from_toml("h.toml", &text) {
        for e in es {
            assert!(e.line >= 1 && e.column >= 1, "{e}\ninput: {text:?}");
        }
    }
    quick(started, bytes);
}

fn check_scenario(bytes: &[u8]) {
    let started = Instant::now();
    BASE.with(|(set, dir)| {
        let path = dir.path().join("fuzzed_scenario.toml");
        std::fs::write(&path, bytes).expect("write");
        if let Err(ps) = scenario::load_file(set, &path) {
            positioned(&ps, bytes);
        }
    });
    quick(started, bytes);
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn mutated_missions_are_parsed_or_placed(bytes in mutated(seeds("missions", "toml"))) {
        check_mission(&bytes);
    }

    #[test]
    fn random_missions_are_parsed_or_placed(bytes in noise()) {
        let mut text = b"map = \"\"\"\n+-+\n|.|\n+-+\n\"\"\"\n".to_vec();
        text.extend_from_slice(&bytes);
        check_mission(&bytes);
        check_mission(&text);
    }

    #[test]
    fn mutated_rules_toml_is_read_or_placed(bytes in mutated(rules_seeds())) {
        check_rules(&bytes);
    }

    #[test]
    fn random_rules_toml_is_read_or_placed(bytes in noise()) {
        check_rules(&bytes);
    }

    #[test]
    fn mutated_heroes_are_read_or_placed(bytes in mutated(seeds("heroes", "toml"))) {
        check_hero(&bytes);
    }

    #[test]
    fn random_heroes_are_read_or_placed(bytes in noise()) {
        check_hero(&bytes);
    }

    #[test]
    fn mutated_scenarios_are_read_or_placed(bytes in mutated(seeds("tests", "toml"))) {
        check_scenario(&bytes);
    }

    #[test]
    fn random_scenarios_are_read_or_placed(bytes in noise()) {
        let mut text = b"[[scenario]]\nname = \"x\"\nmission = \"small\"\n".to_vec();
        text.extend_from_slice(&bytes);
        check_scenario(&text);
    }
}

/// Inputs that once hung or aborted a parser, kept as plain cases.
#[test]
fn known_crashers_are_handled() {
    check_scenario(b"[[scenario]]\nname = \"x\"\nmission = \"small\"\nrules = { los = 1 }\n");
    check_scenario(
        b"[[scenario]]\nname = \"x\"\nmission = \"small\"\nrules = { rush_steps = \"x\" }\n",
    );
    check_scenario(
        b"[[scenario]]\nname = \"x\"\nmission = \"small\"\nrules = { die = { hit = \"x\" } }\n",
    );
    check_scenario(b"[[scenario]]\nname = \"x\"\nmission = \"small\"\ndecoys = 4000000000\n");
    check_mission(b"map = \"\"\"\n+-+\n|.|\n+-+\n\"\"\"\ndecoys = 4000000000\n");
    check_mission(
        b"map = \"\"\"\n+-+\n|.|\n+-+\n\"\"\"\n[[pool]]\ntype = \"stalker\"\ncount = 4000000000\n",
    );
    check_rules(
        b"decoys = 4000000000\nlua_call_depth = 0\nlua_instructions = 9223372036854775807\n",
    );
    check_rules(b"die = { blank = 4294967295, hit = 13 }\n");
    check_hero(b"id = \"x\"\nname = \"X\"\nmovement = 4000000000\nhealth = 4000000000\ndial = [{ from = 1, melee = 1, defence = 1 }]\n");
}
