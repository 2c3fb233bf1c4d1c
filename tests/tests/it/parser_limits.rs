//! The parsers against hostile files (issue 9, "Parsers that never hang or abort"): every number
//! range-checked with a `path:line:column` error, scenario `rules` checked like `rules.toml`,
//! error reporting linear in the input and capped per file, files that are not UTF-8 placed at
//! their first bad byte, and hot reload telling a broken file from a deleted one.
//!
//! Each case that used to hang runs on its own thread with a deadline, so a regression fails
//! instead of hanging the suite.

use overmind_core::setup::{MAX_POOL_COUNT, MAX_POOL_TOKENS};
use overmind_core::source::MAX_PROBLEMS;
use overmind_core::{Mission, MissionErrors, Rules};
use overmind_scripting::pack::{rules_from_toml, PackSet, Reload};
use overmind_scripting::problem::Problem;
use overmind_scripting::scenario;
use overmind_tests::workspace_root;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// Run `f` on its own thread; fail if it takes longer than `limit` (it is left running: the
/// test binary ends it when its last test is done).
fn within<T: Send + 'static>(
    limit: Duration,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(limit) {
        Ok(v) => v,
        Err(_) => panic!("{what} took more than {limit:?}: it hangs or is not linear"),
    }
}

fn parse(text: &str) -> Result<Mission, MissionErrors> {
    Mission::parse(Path::new("m.toml"), text)
}

const SMALL_MAP: &str = "map = \"\"\"\n+-+-+-+\n|. . .|\n+-+-+-+\n\"\"\"\n";

/// A copy of the base pack in a temporary folder, to break files of.
fn base_copy() -> (tempfile::TempDir, PathBuf) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for e in std::fs::read_dir(from).expect("read_dir").flatten() {
            let (src, dst) = (e.path(), to.join(e.file_name()));
            if src.is_dir() {
                copy(&src, &dst);
            } else {
                std::fs::copy(&src, &dst).expect("copy");
            }
        }
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("behaviours");
    copy(&workspace_root().join("behaviours"), &dir);
    (tmp, dir)
}

fn load(dir: &Path) -> Result<PackSet, Vec<Problem>> {
    PackSet::load(&[dir.to_path_buf()])
}

fn shown(ps: &[Problem]) -> Vec<String> {
    ps.iter().map(ToString::to_string).collect()
}

fn load_problems(dir: &Path) -> Vec<String> {
    match load(dir) {
        Ok(_) => Vec::new(),
        Err(ps) => shown(&ps),
    }
}

// ---- numbers the game cannot use ----

#[test]
fn decoys_and_pool_counts_of_four_billion_are_errors_not_aborts() {
    let text = format!(
        "{SMALL_MAP}decoys = 4000000000\n\n[[pool]]\ntype = \"stalker\"\ncount = 4000000000\n"
    );
    let m = parse(&text).expect("the map parses");
    let e = m
        .setup(&text, &Rules::default())
        .expect_err("too many tokens");
    let lines: Vec<String> = e.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        vec![
            "m.toml:6:10: decoys: expected 0 to 100, found 4000000000".to_string(),
            format!("m.toml:10:9: pool: count: expected 0 to {MAX_POOL_COUNT}, found 4000000000"),
        ]
    );
    let e = Rules::default()
        .overlay_toml("decoys = 4000000000\n")
        .expect_err("rules.toml decoys");
    assert_eq!(e[0].span, 9..19);
    assert!(
        e[0].message.starts_with("decoys: expected 0 to 100"),
        "{e:?}"
    );
}

#[test]
fn a_setup_built_in_code_refuses_huge_pools_before_allocating() {
    let text = SMALL_MAP.to_string();
    let m = parse(&text).expect("map");
    let mut setup = m.setup(&text, &Rules::default()).expect("setup");
    setup.decoys = Some(4_000_000_000);
    let content = overmind_core::Content::default();
    let e = setup.start(&content, 1).expect_err("refused");
    assert!(
        e.iter()
            .any(|e| e.to_string().contains("decoys: expected 0 to 100")),
        "{e:?}"
    );
    setup.decoys = Some(0);
    setup.pool = (0..20)
        .map(|_| overmind_core::PoolEntry {
            type_id: "stalker".into(),
            size: 1,
            count: MAX_POOL_COUNT,
            leader: None,
        })
        .collect();
    let e = setup.start(&content, 1).expect_err("refused");
    assert!(
        e.iter().any(|e| e
            .to_string()
            .contains(&format!("expected at most {MAX_POOL_TOKENS}"))),
        "{e:?}"
    );
}

#[test]
fn a_map_wider_than_100_squares_is_an_error() {
    let wide = |w: usize| {
        let border: String = std::iter::once('+').chain("-+".repeat(w).chars()).collect();
        let squares: String = std::iter::once('|')
            .chain(". ".repeat(w - 1).chars())
            .chain(".|".chars())
            .collect();
        format!("map = \"\"\"\n{border}\n{squares}\n{border}\n\"\"\"\n")
    };
    assert_eq!(parse(&wide(100)).expect("100 wide").map.width(), 100);
    let e = parse(&wide(101)).expect_err("101 wide");
    assert_eq!(e.len(), 1, "{e}");
    assert!(
        e.to_string()
            .starts_with("m.toml:2:1: the map is 101×1 squares: expected at most 100"),
        "{e}"
    );
    let tall = format!("map = \"\"\"\n+-+\n{}\"\"\"\n", "|.|\n+-+\n".repeat(101));
    assert!(parse(&tall)
        .expect_err("101 tall")
        .to_string()
        .contains("1×101 squares"));
}

#[test]
fn every_budget_of_rules_toml_is_capped_where_it_is_written() {
    let path = Path::new("pack/rules.toml");
    let cases = [
        (
            "lua_instructions = 9223372036854775807",
            "lua_instructions: expected 1000 to 50000000, found 9223372036854775807",
        ),
        (
            "lua_instructions = 50000001",
            "lua_instructions: expected 1000 to 50000000",
        ),
        (
            "lua_instructions = 999",
            "lua_instructions: expected 1000 to 50000000",
        ),
        (
            "lua_memory_mib = 1025",
            "lua_memory_mib: expected 1 to 1024",
        ),
        ("lua_memory_mib = 0", "lua_memory_mib: expected 1 to 1024"),
        (
            "lua_call_depth = 0",
            "lua_call_depth: expected 1 to 1000, found 0",
        ),
        (
            "lua_call_depth = 1001",
            "lua_call_depth: expected 1 to 1000",
        ),
        (
            "max_behaviour_depth = 100000",
            "max_behaviour_depth: expected 1 to 16, found 100000",
        ),
        (
            "max_behaviour_depth = 0",
            "max_behaviour_depth: expected 1 to 16",
        ),
        ("max_rounds = 4000000000", "max_rounds: expected 1 to 1000"),
        ("rush_steps = 4000000000", "rush_steps: expected 0 to 100"),
        (
            "red_defence = -2000000000",
            "red_defence: expected -20 to 20",
        ),
        (
            "behaviour_penalty = 4000000000",
            "behaviour_penalty: expected 0 to 20",
        ),
        ("lua_instructions = -1", "lua_instructions: "),
        ("decoys = 5000000000", "decoys: "),
    ];
    for (line, want) in cases {
        let text = format!("# budgets\n{line}\n");
        let e = rules_from_toml(&Rules::default(), path, &text).expect_err(line);
        let col = line.find('=').map_or(0, |i| i + 3);
        assert_eq!(e.len(), 1, "{line}: {:?}", shown(&e));
        let got = e[0].to_string();
        assert!(
            got.starts_with(&format!("pack/rules.toml:2:{col}: {want}")),
            "{line}: {got}"
        );
    }
    for ok in [
        "lua_instructions = 50000000",
        "lua_call_depth = 1000",
        "max_behaviour_depth = 16",
        "lua_memory_mib = 1024",
    ] {
        assert!(rules_from_toml(&Rules::default(), path, ok).is_ok(), "{ok}");
    }
}

#[test]
fn lua_call_depth_0_in_a_packs_rules_toml_names_the_file() {
    let (_tmp, dir) = base_copy();
    std::fs::write(dir.join("rules.toml"), "max_dice = 5\nlua_call_depth = 0\n").expect("write");
    let problems = load_problems(&dir);
    let want = format!(
        "{}:2:18: lua_call_depth: expected 1 to 1000, found 0",
        dir.join("rules.toml").display()
    );
    assert_eq!(problems, vec![want]);
}

// ---- scenario rules are rules.toml's ----

/// The problems of a scenario file of the base pack holding `body`.
fn scenario_problems(body: &'static str) -> Vec<String> {
    within(Duration::from_secs(60), "checking a scenario", move || {
        let (_tmp, dir) = base_copy();
        let path = dir.join("tests").join("hostile.toml");
        std::fs::write(&path, body).expect("write");
        let set = load(&dir).expect("the base pack loads");
        let out = match scenario::load_file(&set, &path) {
            Ok(_) => Vec::new(),
            Err(ps) => ps
                .iter()
                .map(|p| format!("{}:{}: {}", p.line, p.column, p.message))
                .collect(),
        };
        out
    })
}

#[test]
fn wrongly_typed_scenario_rules_are_errors_not_hangs() {
    let cases: [(&'static str, &str); 6] = [
        ("rules = { los = 1 }", "4:17: rules: los: "),
        (
            "rules = { rush_steps = \"x\" }",
            "4:24: rules: rush_steps: invalid type: string \"x\", expected u32",
        ),
        (
            "rules = { die = { hit = \"x\" } }",
            "4:25: rules: die: invalid type: string \"x\", expected u32",
        ),
        ("rules = { \"\" = 1 }", "4:11: rules: unknown setting ``"),
        (
            "rules = { lua_call_depth = 0 }",
            "4:28: rules: lua_call_depth: expected 1 to 1000, found 0",
        ),
        (
            "rules = { die = { \"\" = \"x\" } }",
            "4:19: rules: die: unknown field ``",
        ),
    ];
    for (rules, want) in cases {
        let body: &'static str = Box::leak(
            format!("[[scenario]]\nname = \"x\"\nmission = \"small\"\n{rules}\n").into_boxed_str(),
        );
        let got = scenario_problems(body);
        assert_eq!(got.len(), 1, "{rules}: {got:?}");
        assert!(got[0].starts_with(want), "{rules}: {got:?}");
    }
}

#[test]
fn scenario_rules_give_the_messages_rules_toml_gives() {
    let settings = [
        "los = 1",
        "rush_steps = \"x\"",
        "lua_instructions = 9223372036854775807",
        "max_behaviour_depth = 0",
        "die = { hit = 13 }",
        "bogus = 1",
    ];
    for s in settings {
        let from_file = rules_from_toml(&Rules::default(), Path::new("r.toml"), s)
            .expect_err(s)
            .iter()
            .map(|p| p.message.clone())
            .collect::<Vec<_>>();
        let body: &'static str = Box::leak(
            format!("[[scenario]]\nname = \"x\"\nmission = \"small\"\nrules = {{ {s} }}\n")
                .into_boxed_str(),
        );
        let from_scenario: Vec<String> = scenario_problems(body)
            .iter()
            .map(|p| {
                p.split_once(": rules: ")
                    .map_or(p.clone(), |(_, m)| m.to_string())
            })
            .collect();
        assert_eq!(from_scenario, from_file, "{s}");
    }
}

#[test]
fn scenario_numbers_are_range_checked() {
    let got = scenario_problems(
        "[[scenario]]\nname = \"x\"\nmission = \"small\"\ndecoys = 4000000000\npool = [{ type = \"stalker\", count = 4000000000 }]\nmax_rounds = 4000000000\n",
    );
    assert_eq!(
        got,
        vec![
            "4:10: decoys: expected 0 to 100, found 4000000000",
            "5:9: pool: count: expected 0 to 100, found 4000000000",
            "6:14: max_rounds: expected 1 to 1000, found 4000000000",
        ]
    );
}

// ---- linear error reporting, capped per file ----

#[test]
fn a_300000_character_map_line_is_reported_at_once() {
    let e = within(Duration::from_secs(10), "a long map line", || {
        let text = format!("map = \"\"\"\n+{}\n|.|\n+-+\n\"\"\"\n", "x".repeat(300_000));
        parse(&text).expect_err("junk")
    });
    assert!(e.len() <= MAX_PROBLEMS + 1, "{}", e.len());
    // Long lines of bad characters within the width are linear too.
    let e = within(Duration::from_secs(10), "many bad squares", || {
        let row = format!("|{}x|\n", "x ".repeat(99));
        let mid = format!("+{}\n", "x+".repeat(100));
        let text = format!(
            "map = \"\"\"\n+{}\n{}{}+{}\n\"\"\"\n",
            "-+".repeat(100),
            format!("{row}{mid}").repeat(99),
            row,
            "-+".repeat(100)
        );
        parse(&text).expect_err("junk")
    });
    assert_eq!(e.len(), MAX_PROBLEMS + 1);
    assert!(
        e.0[MAX_PROBLEMS].message.starts_with("and "),
        "{}",
        e.0[MAX_PROBLEMS]
    );
}

#[test]
fn a_toml_key_of_300000_dots_is_reported_at_once() {
    let key = ".".repeat(300_000);
    let text = format!("{key} = 1\n");
    let t = text.clone();
    let e = within(
        Duration::from_secs(10),
        "a dotted key in a mission",
        move || parse(&t).expect_err("bad"),
    );
    assert_eq!(e.len(), MAX_PROBLEMS + 1);
    assert!(
        e.0[MAX_PROBLEMS].message.ends_with("more problems"),
        "{}",
        e.0[MAX_PROBLEMS]
    );
    let t = text.clone();
    let e = within(
        Duration::from_secs(10),
        "a dotted key in rules.toml",
        move || rules_from_toml(&Rules::default(), Path::new("rules.toml"), &t).expect_err("bad"),
    );
    assert_eq!(e.len(), MAX_PROBLEMS + 1);
    let body: &'static str = Box::leak(format!("{key} = 1\n").into_boxed_str());
    let got = scenario_problems(body);
    assert_eq!(got.len(), MAX_PROBLEMS + 1);
    assert!(
        got[MAX_PROBLEMS].contains("more problems"),
        "{}",
        got[MAX_PROBLEMS]
    );
}

#[test]
fn problems_are_capped_at_50_a_file_then_counted() {
    // 3 × 40 unknown squares.
    let row = format!("|{}|\n", vec!["x"; 40].join(" "));
    let border = format!("+{}\n", "-+".repeat(40));
    let gap = format!("+{}\n", " +".repeat(40));
    let text = format!("map = \"\"\"\n{border}{row}{gap}{row}{gap}{row}{border}\"\"\"\n");
    let e = parse(&text).expect_err("bad squares");
    assert_eq!(e.len(), MAX_PROBLEMS + 1, "{e}");
    let last = &e.0[MAX_PROBLEMS];
    assert_eq!(last.message, "and 70 more problems");
    assert_eq!(
        (last.line, last.column),
        (5, 22),
        "where the 51st problem is"
    );
}

// ---- files that are not UTF-8 ----

/// `path` with `bytes` appended on a new line (after `prefix`, so the bad byte's column is
/// `prefix.len() + 1`).
fn break_utf8(path: &Path, prefix: &str) -> usize {
    let mut bytes = std::fs::read(path).expect("read");
    if !bytes.ends_with(b"\n") {
        bytes.push(b'\n');
    }
    let line = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    bytes.extend_from_slice(prefix.as_bytes());
    bytes.extend_from_slice(b"\xff\xfe rest\n");
    std::fs::write(path, bytes).expect("write");
    line
}

#[test]
fn every_pack_file_that_is_not_utf8_is_placed_at_its_first_bad_byte() {
    for rel in [
        "pack.toml",
        "behaviours/rush.lua",
        "aliens/stalker.lua",
        "heroes/dex.toml",
        "rules.toml",
        "missions/small.toml",
        "tests/rush.toml",
    ] {
        let (_tmp, dir) = base_copy();
        let path = dir.join(rel);
        if !path.exists() {
            std::fs::write(&path, "max_dice = 5\n").expect("write");
        }
        let line = break_utf8(&path, "-- é ");
        let want = format!(
            "{}:{line}:6: found the byte 0xff, which is not UTF-8: expected UTF-8 text",
            path.display()
        );
        let mut problems = load_problems(&dir);
        if problems.is_empty() {
            let set = load(&dir).expect("loads");
            problems = shown(&set.check_missions());
            for f in scenario::files(&set) {
                if let Err(ps) = scenario::load_file(&set, &f) {
                    problems.extend(shown(&ps));
                }
            }
        }
        assert!(problems.contains(&want), "{rel}: {problems:#?}");
    }
    // A mission read on its own (`overmind map`, `overmind los`).
    let (_tmp, dir) = base_copy();
    let path = dir.join("missions/demo.toml");
    let line = break_utf8(&path, "");
    let e = Mission::load(&path).expect_err("not UTF-8");
    assert_eq!((e.0[0].line, e.0[0].column), (line, 1));
}

// ---- hot reload ----

#[test]
fn hot_reload_tells_a_broken_file_from_a_deleted_one() {
    let (_tmp, dir) = base_copy();
    let mut set = load(&dir).expect("loads");
    let rush = dir.join("behaviours/rush.lua");
    let original = std::fs::read(&rush).expect("read");

    let line = break_utf8(&rush, "x");
    match set.reload(&rush) {
        Reload::Failed(p) => {
            assert_eq!((p.line, p.column), (line, 2), "{p}");
            assert!(p.message.contains("not UTF-8"), "{p}");
        }
        other => panic!("a file that is not UTF-8 is broken, not {other:?}"),
    }

    // There, but not a file that can be read: a directory is refused as not a regular file.
    std::fs::remove_file(&rush).expect("rm");
    std::fs::create_dir(&rush).expect("mkdir");
    match set.reload(&rush) {
        Reload::Failed(p) => assert_eq!(p.message, "not a regular file (a directory)", "{p}"),
        other => panic!("an unreadable file is broken, not {other:?}"),
    }
    std::fs::remove_dir(&rush).expect("rmdir");

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::write(&rush, &original).expect("write");
        std::fs::set_permissions(&rush, std::fs::Permissions::from_mode(0o000)).expect("chmod");
        // Root reads it anyway; then there is nothing to test here.
        if std::fs::read(&rush).is_err() {
            match set.reload(&rush) {
                Reload::Failed(p) => assert!(p.message.starts_with("cannot read"), "{p}"),
                other => panic!("a file made unreadable is broken, not {other:?}"),
            }
        }
        std::fs::set_permissions(&rush, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        std::fs::remove_file(&rush).expect("rm");
    }

    #[cfg(not(unix))]
    std::fs::remove_file(&rush).ok();

    assert!(
        matches!(set.reload(&rush), Reload::Removed { .. }),
        "a file that is gone is removed"
    );
    std::fs::write(&rush, &original).expect("write");
    assert!(matches!(set.reload(&rush), Reload::Updated { .. }));
}
