//! Exact damage odds of one attack by Combat Value and Defence, kept per thread.

/// The chances of each damage total of one attack, and their mean.
#[derive(Clone, Debug, Default)]
pub(super) struct Odds {
    pub(super) p: Vec<f64>,
    pub(super) mean: f64,
}

/// Attack Combat Values and Defences the memo holds; larger ones are worked out each time.
const ODDS_CV: usize = 24;
const ODDS_DEF: usize = 12;

/// Damage odds by attack Combat Value and Defence for one die and dice cap.
#[derive(Default)]
struct OddsMemo {
    key: [u32; 7],
    table: Vec<Option<Odds>>,
}

thread_local! {
    /// A pure function of its key, kept so that each is worked out once per thread.
    static ODDS: std::cell::RefCell<OddsMemo> = std::cell::RefCell::new(OddsMemo::default());
}

/// `f` of the odds of an attack of Combat Value `cv` against Defence `def` under `rules`' die
/// and cap (docs/RULES.md §6.1).
pub(super) fn with_odds<R>(
    rules: &crate::data::settings::Rules,
    cv: u32,
    def: u32,
    f: impl FnOnce(&Odds) -> R,
) -> R {
    let d = &rules.die;
    let key = [
        d.blank,
        d.hit,
        d.double_hit,
        d.critical,
        d.shield,
        d.double_shield,
        rules.max_dice,
    ];
    let (c, e) = (cv as usize, def as usize);
    if c >= ODDS_CV || e >= ODDS_DEF {
        return f(&damage_odds(rules, cv, def));
    }
    ODDS.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.key != key || memo.table.is_empty() {
            memo.key = key;
            memo.table = vec![None; ODDS_CV * ODDS_DEF];
        }
        let slot = &mut memo.table[c * ODDS_DEF + e];
        f(slot.get_or_insert_with(|| damage_odds(rules, cv, def)))
    })
}

/// The odds of each damage total, worked out exactly.
fn damage_odds(rules: &crate::data::settings::Rules, cv: u32, def: u32) -> Odds {
    let d = &rules.die;
    let total = f64::from(d.total().max(1));
    let pr = |n: u32| f64::from(n) / total;
    let dice = cv.min(rules.max_dice);
    let upgrades = cv.saturating_sub(rules.max_dice);
    // (hits, crits, blanks) -> chance.
    let mut att: std::collections::BTreeMap<(u32, u32, u32), f64> =
        std::collections::BTreeMap::new();
    att.insert((0, 0, 0), 1.0);
    for _ in 0..dice {
        let mut next = std::collections::BTreeMap::new();
        for (&(h, c, b), &p) in &att {
            for (dh, dc, db, q) in [
                (0, 0, 1, pr(d.blank)),
                (1, 0, 0, pr(d.hit)),
                (2, 0, 0, pr(d.double_hit)),
                (0, 1, 0, pr(d.critical)),
                (0, 0, 0, pr(d.shield + d.double_shield)),
            ] {
                if q > 0.0 {
                    *next.entry((h + dh, c + dc, b + db)).or_insert(0.0) += p * q;
                }
            }
        }
        att = next;
    }
    let mut shields: Vec<f64> = vec![1.0];
    for _ in 0..def.min(rules.max_dice) {
        let mut next = vec![0.0; shields.len() + 2];
        for (s, &p) in shields.iter().enumerate() {
            next[s] += p * pr(d.blank + d.hit + d.double_hit + d.critical);
            next[s + 1] += p * pr(d.shield);
            next[s + 2] += p * pr(d.double_shield);
        }
        shields = next;
    }
    let mut p = vec![0.0; (2 * dice + upgrades + 1) as usize];
    for (&(h, c, b), &q) in &att {
        let hits = h + upgrades.min(b);
        for (s, &r) in shields.iter().enumerate() {
            let dmg = c + hits.saturating_sub(s as u32);
            if let Some(x) = p.get_mut(dmg as usize) {
                *x += q * r;
            }
        }
    }
    let mean = p.iter().enumerate().map(|(k, q)| k as f64 * q).sum();
    Odds { p, mean }
}
