//! `overmind simulate --shard I/N` and `overmind simulate merge`: the slices of a run, merged,
//! print exactly what one run over all the seeds prints (timings aside), in text and in JSON,
//! with and without `--compare`; bad slices, missing, duplicated or foreign shards and broken
//! files are refused, naming what is wrong. Also the AI levels of `simulate` and `play`.

use crate::common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Run `overmind` and insist on exit 0; its standard output.
fn ok(args: &[&str]) -> String {
    let o = run(args, "");
    assert_eq!(
        o.status.code(),
        Some(0),
        "overmind {args:?}:\n{}{}",
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

/// Run `overmind`, expecting it to fail with `code`; its standard error.
fn fails(args: &[&str], code: i32) -> String {
    let o = run(args, "");
    assert_eq!(
        o.status.code(),
        Some(code),
        "overmind {args:?}:\n{}{}",
        stdout(&o),
        stderr(&o)
    );
    stderr(&o)
}

/// The text report with the timings cut out of its header lines ("on J threads in S s: …
/// (C s of CPU)"), keeping the games, the mission, the seeds and the AI levels.
fn untimed(text: &str) -> String {
    text.lines()
        .map(|l| match (l.find(" on "), l.find(" s of CPU)")) {
            (Some(a), Some(b)) if l.contains(" games of ") && a < b => {
                format!("{}{}", &l[..a], &l[b + " s of CPU)".len()..])
            }
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A JSON report without its timings, wherever reports sit in it.
fn untimed_json(text: &str) -> Value {
    fn strip(v: &mut Value) {
        if let Some(m) = v.as_object_mut() {
            for k in [
                "seconds",
                "games_per_second",
                "cpu_seconds",
                "games_per_cpu_second",
                "jobs",
            ] {
                m.remove(k);
            }
            for (_, x) in m.iter_mut() {
                strip(x);
            }
        }
    }
    let mut v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    strip(&mut v);
    v
}

fn path_str(p: &Path) -> String {
    p.display().to_string()
}

/// Write the shards `1/n` … `n/n` of a run into `dir`; their files.
fn shards(dir: &Path, run: &[&str], n: u64) -> Vec<PathBuf> {
    (1..=n)
        .map(|i| {
            let out = dir.join(format!("shard-{i}.json"));
            let shard = format!("{i}/{n}");
            // Each shard on its own number of threads: the numbers must not care.
            let jobs = (1 + i % 3).to_string();
            let mut args = run.to_vec();
            args.extend(["--shard", &shard, "--jobs", &jobs]);
            if i == 1 {
                // The first one to standard output, the others with --out.
                let text = ok(&args);
                std::fs::write(&out, text).expect("write shard");
            } else {
                let o = path_str(&out);
                args.extend(["--out", &o]);
                assert_eq!(ok(&args), "", "--out writes nothing to standard output");
            }
            out
        })
        .collect()
}

fn merge(files: &[PathBuf], json: bool) -> String {
    let names: Vec<String> = files.iter().map(|p| path_str(p)).collect();
    let mut args = vec!["simulate", "merge"];
    args.extend(names.iter().map(String::as_str));
    if json {
        args.push("--json");
    }
    ok(&args)
}

fn merge_fails(files: &[PathBuf]) -> String {
    let names: Vec<String> = files.iter().map(|p| path_str(p)).collect();
    let mut args = vec!["simulate", "merge"];
    args.extend(names.iter().map(String::as_str));
    fails(&args, 1)
}

const RUN: [&str; 7] = [
    "simulate",
    "--games",
    "24",
    "--seed",
    "5",
    "--heroes-ai",
    "greedy",
];

#[test]
fn three_shards_merge_to_exactly_one_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = shards(dir.path(), &RUN, 3);

    let shard: Value = serde_json::from_str(&std::fs::read_to_string(&files[1]).expect("read"))
        .expect("a shard is JSON");
    assert_eq!(shard["shard"]["index"], 2, "{shard}");
    assert_eq!(shard["shard"]["count"], 3, "{shard}");
    assert_eq!(
        shard["seeds"]["first"], 6,
        "seed 6 is the first of slice 2: {shard}"
    );
    assert_eq!(shard["seeds"]["count"], 8, "{shard}");
    assert_eq!(shard["base"]["totals"]["games"], 8, "{shard}");
    assert_eq!(shard["mission"], "demo");
    assert_eq!(shard["heroes_ai"], "greedy");
    assert_eq!(shard["overmind_ai"], "standard");

    let one = ok(&RUN);
    let merged = merge(&files, false);
    assert_eq!(untimed(&merged), untimed(&one));
    let header = one.lines().next().unwrap_or("");
    assert!(
        header.starts_with("24 games of demo (seeds 5..28) on ")
            && header.ends_with(", overmind AI standard, heroes AI greedy"),
        "{header}"
    );
    assert!(
        one.contains("dmg/use 95% CI") && one.contains("dmg/unit 95% CI"),
        "{one}"
    );
    // Timings of the merge are the shards' sums, and say so in the same words.
    assert!(
        merged
            .lines()
            .next()
            .is_some_and(|l| l.contains("s of CPU)")),
        "{merged}"
    );

    let mut args = RUN.to_vec();
    args.push("--json");
    let one_json = untimed_json(&ok(&args));
    let merged_json = untimed_json(&merge(&files, true));
    assert_eq!(merged_json, one_json);
    assert_eq!(one_json["overmind_ai"], "standard", "{one_json}");
    assert_eq!(one_json["heroes_ai"], "greedy", "{one_json}");
    assert_eq!(one_json["games"], 24, "{one_json}");
    // The damage per use, with its interval, beside the old keys.
    let behaviours = one_json["behaviours"].as_object().expect("behaviours");
    assert!(!behaviours.is_empty(), "{one_json}");
    for (id, b) in behaviours {
        for k in ["chosen", "damage_dealt", "damage_dealt_sq"] {
            assert!(b[k].is_u64(), "{id}: {b}");
        }
        let chosen = b["chosen"].as_u64().unwrap_or(0);
        let p = &b["damage_per_use"];
        if chosen >= 2 {
            let (lo, mean, hi) = (
                p["ci95"][0].as_f64().unwrap_or(f64::NAN),
                p["mean"].as_f64().unwrap_or(f64::NAN),
                p["ci95"][1].as_f64().unwrap_or(f64::NAN),
            );
            assert!(lo <= mean && mean <= hi, "{id}: {p}");
        }
    }
    let aliens = one_json["aliens"].as_object().expect("aliens");
    assert!(
        aliens
            .values()
            .all(|a| a["damage_per_use"]["mean"].is_f64() && a["revealed"].is_u64()),
        "{one_json}"
    );
}

#[test]
fn more_shards_than_games_still_merge() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = ["simulate", "--games", "3", "--overmind-ai", "greedy"];
    let files = shards(dir.path(), &run, 5);
    assert_eq!(untimed(&merge(&files, false)), untimed(&ok(&run)));
}

#[test]
fn a_comparison_over_a_packs_own_mission_shards_and_says_what_it_compared() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = [
        "simulate",
        "--games",
        "6",
        "--mission",
        "lurker_den",
        "--compare",
        "examples/expansion",
    ];
    let one = ok(&run);
    let first = one.lines().next().unwrap_or("");
    assert!(
        first.starts_with("compare: mission lurker_den cannot be played without ")
            && first.contains("ambush"),
        "{one}"
    );
    assert_eq!(
        one.lines().filter(|l| l.starts_with("compare:")).count(),
        1,
        "{one}"
    );
    // AMBUSH is used only with the pack; the Lurkers are there both times.
    let (without, with) = one.split_once("\nWith ").expect("two tables");
    assert!(!without.contains("\nambush "), "{without}");
    assert!(with.contains("\nambush "), "{with}");
    assert!(without.contains("\nlurker "), "{without}");

    let files = shards(dir.path(), &run, 2);
    assert_eq!(untimed(&merge(&files, false)), untimed(&one));
    let mut args = run.to_vec();
    args.push("--json");
    let one_json = untimed_json(&ok(&args));
    assert!(
        one_json["comparison"]
            .as_str()
            .is_some_and(|c| c.starts_with("compare: ")),
        "{one_json}"
    );
    assert_eq!(untimed_json(&merge(&files, true)), one_json);

    // A mission that plays without the pack: the comparison is printed as it always was.
    let plain = ok(&[
        "simulate",
        "--games",
        "2",
        "--compare",
        "examples/expansion",
    ]);
    assert!(plain.starts_with("Without "), "{plain}");
    assert!(!plain.contains("compare:"), "{plain}");
}

#[test]
fn bad_slices_and_levels_are_usage_errors_naming_the_flag() {
    for bad in ["0/3", "4/3", "1/0", "1/100001", "x/3", "3", "-1/3"] {
        let flag = format!("--shard={bad}");
        let err = fails(&["simulate", "--games", "4", &flag], 2);
        assert!(err.contains("--shard"), "{bad}: {err}");
        assert!(err.contains("I/N"), "{bad}: {err}");
    }
    let err = fails(&["simulate", "--games", "4", "--shard", "0/3"], 2);
    assert!(err.contains("I must be 1 to N (3), found 0"), "{err}");
    let err = fails(&["simulate", "--games", "4", "--shard", "1/100001"], 2);
    assert!(err.contains("N must be 1 to 100000"), "{err}");
    let err = fails(&["simulate", "--games", "4", "--out", "x.json"], 2);
    assert!(err.contains("--shard"), "{err}");
    for flag in ["--overmind-ai", "--heroes-ai"] {
        let err = fails(&["simulate", "--games", "4", flag, "best"], 2);
        assert!(err.contains(flag), "{err}");
        assert!(
            err.contains("no AI level `best`: expected greedy, standard or strong"),
            "{err}"
        );
        let err = fails(&["play", "--heroes", "ai", flag, "hard"], 2);
        assert!(
            err.contains(flag) && err.contains("no AI level `hard`"),
            "{err}"
        );
    }
}

#[test]
fn a_missing_shard_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = ["simulate", "--games", "6", "--overmind-ai", "greedy"];
    let files = shards(dir.path(), &run, 3);
    let err = merge_fails(&[files[0].clone(), files[2].clone()]);
    assert!(err.contains("shard 2/3"), "{err}");
    assert!(err.contains("missing"), "{err}");
    let err = merge_fails(&[files[0].clone()]);
    assert!(err.contains("shards 2/3, 3/3"), "{err}");
    // Given twice.
    let err = merge_fails(&[
        files[0].clone(),
        files[1].clone(),
        files[1].clone(),
        files[2].clone(),
    ]);
    assert!(err.contains("shard 2/3 is given twice"), "{err}");
}

#[test]
fn shards_of_other_simulations_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    let c = dir.path().join("c");
    for d in [&a, &b, &c] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    let demo = shards(
        &a,
        &["simulate", "--games", "4", "--heroes-ai", "greedy"],
        2,
    );
    let small = shards(
        &b,
        &[
            "simulate",
            "--games",
            "4",
            "--heroes-ai",
            "greedy",
            "--mission",
            "small",
        ],
        2,
    );
    let err = merge_fails(&[demo[0].clone(), small[1].clone()]);
    assert!(
        err.contains(&path_str(&small[1])) && err.contains("mission small here, demo there"),
        "{err}"
    );
    // Other levels, other game counts.
    let strong = shards(
        &c,
        &["simulate", "--games", "4", "--heroes-ai", "standard"],
        2,
    );
    let err = merge_fails(&[demo[0].clone(), strong[1].clone()]);
    assert!(
        err.contains("heroes AI standard here, greedy there"),
        "{err}"
    );
    let more = shards(
        &c,
        &["simulate", "--games", "6", "--heroes-ai", "greedy"],
        2,
    );
    let err = merge_fails(&[demo[0].clone(), more[1].clone()]);
    assert!(err.contains("games in all 6 here, 4 there"), "{err}");
}

#[test]
fn broken_shard_files_name_the_file_line_and_column() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        "{\n  \"format\": \"overmind simulate shard\",\n  \"version\": 1,,\n}\n",
    )
    .expect("write");
    let err = merge_fails(std::slice::from_ref(&bad));
    assert!(err.contains(&format!("{}:3:16: ", bad.display())), "{err}");
    let other = dir.path().join("save.json");
    std::fs::write(&other, "{\"version\": 1}\n").expect("write");
    let err = merge_fails(std::slice::from_ref(&other));
    assert!(
        err.contains(&format!("{}:1:1: ", other.display())) && err.contains("not a report"),
        "{err}"
    );
    // A shard whose totals do not match its seeds.
    let files = shards(
        dir.path(),
        &["simulate", "--games", "4", "--overmind-ai", "greedy"],
        2,
    );
    let text = std::fs::read_to_string(&files[1]).expect("read");
    let mut v: Value = serde_json::from_str(&text).expect("json");
    v["base"]["totals"]["games"] = Value::from(1);
    std::fs::write(&files[1], serde_json::to_string_pretty(&v).expect("json")).expect("write");
    let err = merge_fails(&files);
    assert!(err.contains(&path_str(&files[1])), "{err}");
    assert!(err.contains("does not hold"), "{err}");
    let missing = dir.path().join("none.json");
    let err = merge_fails(std::slice::from_ref(&missing));
    assert!(err.contains(&path_str(&missing)), "{err}");
}

#[test]
fn out_writes_only_regular_files_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = fails(
        &[
            "simulate",
            "--games",
            "2",
            "--shard",
            "1/2",
            "--out",
            &path_str(dir.path()),
        ],
        1,
    );
    assert!(err.contains("directory"), "{err}");
    let out = dir.path().join("s.json");
    std::fs::write(&out, "old").expect("write");
    let o = path_str(&out);
    ok(&[
        "simulate",
        "--games",
        "2",
        "--overmind-ai",
        "greedy",
        "--shard",
        "2/2",
        "--out",
        &o,
    ]);
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("read")).expect("replaced");
    assert_eq!(v["shard"]["index"], 2);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    assert_eq!(names, vec!["s.json".to_string()]);
}

#[test]
fn play_plays_each_side_at_its_level_and_replays() {
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("g.json");
    let s = path_str(&save);
    let out = ok(&[
        "play",
        "--json",
        "--no-watch",
        "--heroes",
        "ai",
        "--overmind",
        "ai",
        "--heroes-ai",
        "greedy",
        "--overmind-ai",
        "strong",
        "--seed",
        "3",
        "--save",
        &s,
    ]);
    assert!(out.contains("game_over"), "{out}");
    let replay = ok(&["replay", &s]);
    assert!(replay.contains("replays identically"), "{replay}");
}

/// Shards are told apart by what their packs and mission hold, not by where the packs are
/// (docs/PLAYING.md "Past one machine"): shards played from copies of the base pack at other
/// paths merge into exactly the one run; a shard whose pack differs in one Lua file is refused,
/// naming that; a changed scenario test, which no game reads, changes nothing.
#[test]
fn shards_from_copies_elsewhere_merge_and_shards_of_other_content_do_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    for d in [&one, &two] {
        copy_dir(&root().join("behaviours"), &d.join("behaviours"));
        copy_dir(&root().join("examples/expansion"), &d.join("expansion"));
    }
    let shard_of = |at: &Path, i: u64, extra: &[&str]| -> PathBuf {
        let out = at.join(format!("shard-{i}{}.json", extra.len()));
        let shard = format!("{i}/2");
        let o_path = path_str(&out);
        let mut args = vec![
            "simulate",
            "--games",
            "6",
            "--heroes-ai",
            "greedy",
            "--shard",
            &shard,
            "--out",
            &o_path,
        ];
        args.extend(extra);
        let o = run_in(at, &args, "");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        out
    };
    let shard_in = |at: &Path, i: u64| shard_of(at, i, &[]);
    // A comparison over the pack's own mission, the pack given as a relative path.
    let own = ["--mission", "lurker_den", "--compare", "expansion"];
    let compared = merge(&[shard_of(&one, 1, &own), shard_of(&two, 2, &own)], false);
    assert!(
        compared.starts_with("compare: mission lurker_den cannot be played without expansion,"),
        "{compared}"
    );
    let whole = untimed_json(&ok(&[
        "simulate",
        "--games",
        "6",
        "--heroes-ai",
        "greedy",
        "--json",
    ]));
    let same = |files: &[PathBuf]| {
        let mut merged = untimed_json(&merge(files, true));
        let mut want = whole.clone();
        // The report names the packs where the first shard found them.
        for v in [&mut merged, &mut want] {
            v.as_object_mut().expect("object").remove("packs");
        }
        assert_eq!(merged, want, "the merge is the one run");
    };
    let first = shard_in(&one, 1);
    same(&[first.clone(), shard_in(&two, 2)]);

    // A scenario test is not content: the shards still agree.
    let test = two.join("behaviours/tests/rush.toml");
    let text = std::fs::read_to_string(&test).expect("read");
    std::fs::write(&test, format!("{text}\n# edited\n")).expect("write");
    same(&[first.clone(), shard_in(&two, 2)]);

    // A behaviour differs by a comment: another simulation.
    let rush = two.join("behaviours/behaviours/rush.lua");
    let text = std::fs::read_to_string(&rush).expect("read");
    std::fs::write(&rush, format!("{text}-- edited\n")).expect("write");
    let other = shard_in(&two, 2);
    let err = merge_fails(&[first, other.clone()]);
    assert!(
        err.contains(&path_str(&other)) && err.contains("content of the packs and the mission"),
        "{err}"
    );
}
