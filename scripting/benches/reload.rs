//! Hot reload latency: from a script file's write to its new definition being live (DESIGN.md
//! "Hot reload"), at several debounce settings; and the reload alone, without the watcher.
//!
//! Besides criterion's estimates, each `write_to_live` setting prints the median, 90th
//! percentile and maximum of every write it timed, split into "reported" (the watcher saw the
//! write and its debounce ran out) and "reload" (`PackSet::reload` compiled and installed it).
//! Before each write the bench pauses a pseudo-random part of the debouncer's tick, untimed,
//! so that the writes do not all land at the same point of it.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use overmind_scripting::pack::{PackSet, Reload};
use overmind_scripting::reload::Watcher;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn behaviour(n: u64) -> String {
    format!(
        r#"-- The probe behaviour, version {n}.
return behaviour {{
  id = "hot",
  name = "HOT",
  text = "Logs which version ran.",
  perform = function(unit, game)
    game:log("version {n}")
  end,
}}
"#
    )
}

/// A minimal pack in a temp dir: the probe behaviour, an alien type using it, a hero.
fn pack(dir: &Path) -> PathBuf {
    let write = |rel: &str, text: &str| {
        let p = dir.join(rel);
        fs::create_dir_all(p.parent().expect("parent")).expect("folder");
        fs::write(&p, text).expect("write");
        p
    };
    write("pack.toml", "name = \"bench\"\nversion = \"0.1.0\"\n");
    write(
        "aliens/hot.lua",
        "return alien_type { id = \"hot\", name = \"Hot\", unit = { max = 1 }, movement = 4, \
         melee = 2, defence = 1, health = 2, behaviours = { \"hot\" } }\n",
    );
    write(
        "heroes/hot.toml",
        "id = \"hot\"\nname = \"Hot\"\nhealth = 8\nmovement = 4\n\
         dial = [{ from = 1, melee = 2, defence = 1 }]\n",
    );
    write("behaviours/hot.lua", &behaviour(0))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Median, 90th percentile and maximum, in ms.
fn summary(v: &mut [Duration]) -> String {
    v.sort();
    if v.is_empty() {
        return "no samples".into();
    }
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    format!(
        "median {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(1.0))
    )
}

fn reload(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("bench");
    let path = pack(&dir);
    let dirs = [dir.clone()];
    let mut set = match PackSet::load(&dirs) {
        Ok(s) => s,
        Err(ps) => panic!("bench pack: {ps:?}"),
    };

    let mut group = c.benchmark_group("reload");
    group.bench_function("reload_behaviour", |b| {
        b.iter(|| {
            let r = set.reload(&path);
            debug_assert!(matches!(r, Reload::Updated { .. }));
            r
        });
    });

    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    let mut n = 0;
    let mut seed: u64 = 1;
    for debounce in [25, 50, 80, 100, 200] {
        let w = match Watcher::with_debounce(&dirs, Duration::from_millis(debounce)) {
            Ok(w) => w,
            Err(e) => panic!("{e}"),
        };
        let (mut reported, mut reloaded, mut total) = (Vec::new(), Vec::new(), Vec::new());
        let id = BenchmarkId::new("write_to_live", format!("debounce_{debounce}ms"));
        group.bench_function(id, |b| {
            b.iter_custom(|iters| {
                let mut sum = Duration::ZERO;
                for _ in 0..iters {
                    n += 1;
                    let text = behaviour(n);
                    // Writes right after a report would all fall at the same point of the
                    // debouncer's tick; a human's come at any point. Pause a pseudo-random
                    // part of a tick (untimed) so the figures cover the whole range.
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    std::thread::sleep(Duration::from_micros((seed >> 33) % (debounce * 1000 / 8)));
                    let t = Instant::now();
                    fs::write(&path, &text).expect("write");
                    loop {
                        let got = w.wait(Duration::from_secs(5));
                        assert!(!got.is_empty(), "no report in 5 s: {:?}", w.errors());
                        if got.contains(&path) {
                            break;
                        }
                    }
                    let seen = t.elapsed();
                    let r = set.reload(&path);
                    let live = t.elapsed();
                    assert!(matches!(r, Reload::Updated { .. }), "{r:?}");
                    reported.push(seen);
                    reloaded.push(live - seen);
                    total.push(live);
                    sum += live;
                }
                sum
            });
        });
        if !total.is_empty() {
            eprintln!(
                "write_to_live, debounce {debounce} ms, {} writes: {} (reported: {}; reload: {})",
                total.len(),
                summary(&mut total),
                summary(&mut reported),
                summary(&mut reloaded)
            );
        }
    }
    group.finish();
}

criterion_group!(benches, reload);
criterion_main!(benches);
