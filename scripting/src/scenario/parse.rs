//! Reading a scenario file: its TOML, with every key's position, into checked [`Scenario`]s.

use super::expect::{self, Expect};
use super::{words, Fallback, Scenario, Scripted, ScriptedAnswer, Step};
use crate::pack::PackSet;
use crate::problem::Problem;
use overmind_core::dice::DieFaces;
use overmind_core::setup::Checks;
use overmind_core::source::LineIndex;
use overmind_core::Id;
use overmind_core::{
    AlienSetup, BlipSetup, CardSlot, Contents, GameState, HeroSetup, MapBuilder, Mission,
    Objective, PoolEntry, Pos, Rules, Setup, SetupError,
};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// One `[[scenario]]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: Spanned<String>,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    mission: Option<Spanned<String>>,
    map: Option<Spanned<String>>,
    heroes: Option<Vec<RawHero>>,
    blips: Option<Vec<RawBlip>>,
    #[serde(default)]
    units: Vec<RawUnit>,
    tokens: Option<Vec<RawToken>>,
    /// The decks dealt (docs/RULES.md §15), as a mission's `decks`: they replace the mission's.
    decks: Option<Vec<Spanned<String>>>,
    /// The Overmind's hand at the start (docs/RULES.md §15): Mutation card ids.
    hand: Option<Vec<Spanned<String>>>,
    /// The Overmind's Hidden Agenda, face down.
    agenda: Option<Spanned<String>>,
    /// What a campaign carries into the mission (docs/RULES.md §16): the Heroes' Health, XP
    /// and Items by profile, the Overmind's upgrades.
    carry: Option<Spanned<overmind_core::Carry>>,
    pool: Option<Vec<Spanned<PoolEntry>>>,
    decoys: Option<Spanned<u32>>,
    objective: Option<Objective>,
    max_rounds: Option<Spanned<u32>>,
    seed: Option<u64>,
    dice: Option<Spanned<String>>,
    die: Option<Spanned<toml::Table>>,
    rules: Option<Spanned<toml::Table>>,
    answers: Option<RawAnswers>,
    fallback: Option<Spanned<String>>,
    #[serde(default)]
    actions: Vec<Spanned<String>>,
    #[serde(default)]
    expect: Vec<Spanned<BTreeMap<Spanned<String>, Spanned<toml::Value>>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHero {
    id: Spanned<String>,
    profile: Spanned<String>,
    at: [i32; 2],
    health: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBlip {
    id: Spanned<String>,
    at: [i32; 2],
    holds: Option<String>,
    size: Option<u32>,
    leader: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    id: Spanned<String>,
    #[serde(rename = "type")]
    type_id: Spanned<String>,
    at: Option<Spanned<[i32; 2]>>,
    models: Option<Spanned<Vec<[i32; 2]>>>,
    health: Option<Spanned<u32>>,
}

/// A `[[scenario.tokens]]` table: a token of a pack's kind on a square (docs/RULES.md §14).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToken {
    kind: Spanned<String>,
    at: [i32; 2],
    id: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAnswers {
    #[serde(default)]
    overmind: Vec<Spanned<toml::Value>>,
    #[serde(default)]
    heroes: Vec<Spanned<toml::Value>>,
}

/// Positions in one scenario file.
pub(super) struct Source<'t> {
    pub path: &'t Path,
    pub text: &'t str,
    lines: LineIndex<'t>,
}

impl<'t> Source<'t> {
    fn new(path: &'t Path, text: &'t str) -> Source<'t> {
        Source {
            path,
            text,
            lines: LineIndex::new(text),
        }
    }

    /// 1-based line and column of a byte offset.
    pub fn pos(&self, offset: usize) -> (usize, usize) {
        self.lines.line_col(offset)
    }

    /// A problem at the start of a span.
    pub fn problem(&self, span: &Range<usize>, message: impl Into<String>) -> Problem {
        let (l, c) = self.pos(span.start);
        Problem::new(self.path, l, c, message)
    }
}

/// Read and check every scenario of a file.
pub(super) fn load(set: &PackSet, path: &Path) -> Result<Vec<Scenario>, Vec<Problem>> {
    let text = match overmind_core::source::read_text(path) {
        Ok(t) => t,
        Err(e) => return Err(vec![Problem::new(path, e.line, e.column, e.message)]),
    };
    let src = Source::new(path, &text);
    let (root, syntax) = DeTable::parse_recoverable(&text);
    if !syntax.is_empty() {
        let mut problems: Vec<Problem> = syntax
            .iter()
            .take(overmind_core::source::MAX_PROBLEMS + 1)
            .map(|e| {
                let span = e.span().unwrap_or(0..0);
                let msg = e.message().lines().collect::<Vec<_>>().join("; ");
                src.problem(&span, format!("invalid TOML: {msg}"))
            })
            .collect();
        let left_out = syntax.len().saturating_sub(problems.len());
        overmind_core::source::cap_problems_at(
            &mut problems,
            overmind_core::source::MAX_PROBLEMS,
            left_out,
            |first, n| Problem {
                message: overmind_core::source::more_problems(n),
                ..first.clone()
            },
        );
        return Err(problems);
    }
    let mut problems = Vec::new();
    let mut scenarios: Vec<Scenario> = Vec::new();
    let mut names: Vec<(String, usize)> = Vec::new();
    let mut found = false;
    for (key, value) in root.get_ref().iter() {
        if key.get_ref().as_ref() != "scenario" {
            problems.push(src.problem(
                &key.span(),
                format!("unknown key `{}`: a scenario file holds only [[scenario]] tables (docs/SCENARIOS.md)", key.get_ref()),
            ));
            continue;
        }
        let DeValue::Array(items) = value.get_ref() else {
            problems.push(src.problem(
                &value.span(),
                "`scenario` must be an array of tables: write each one as [[scenario]]",
            ));
            continue;
        };
        for item in items.iter() {
            found = true;
            // Every misspelt or mistyped key of the scenario at once; a scenario with any is
            // not read further, as the rest would be read without them.
            let read = crate::problem::read_all::<RawScenario>(item.clone());
            let raw = match read.value {
                Some(r) if read.problems.is_empty() => r,
                _ => {
                    for (span, message) in &read.problems {
                        problems.push(src.problem(span, message.clone()));
                    }
                    if read.problems.is_empty() {
                        problems.push(src.problem(&item.span(), "this scenario does not read"));
                    }
                    continue;
                }
            };
            let (line, _) = src.pos(item.span().start);
            if let Some((_, first)) = names.iter().find(|(n, _)| n == raw.name.get_ref()) {
                problems.push(src.problem(
                    &raw.name.span(),
                    format!(
                        "a scenario named {:?} is already on line {first}: names must differ",
                        raw.name.get_ref()
                    ),
                ));
            }
            names.push((raw.name.get_ref().clone(), line));
            // The `rules` table as written, so its settings are checked with their positions.
            let rules = match item.get_ref() {
                DeValue::Table(t) => t
                    .iter()
                    .find(|(k, _)| k.get_ref().as_ref() == "rules")
                    .map(|(_, v)| v.clone()),
                _ => None,
            };
            match build(set, &src, raw, rules.as_ref(), line, item.span()) {
                Ok(s) => scenarios.push(s),
                Err(ps) => problems.extend(ps),
            }
        }
    }
    if !found && problems.is_empty() {
        problems.push(Problem::new(path, 1, 1, "no [[scenario]] in this file: expected at least one [[scenario]] table (docs/SCENARIOS.md)"));
    }
    if problems.is_empty() {
        Ok(scenarios)
    } else {
        // This file's problems in file order; those of a mission it names after them.
        problems.sort_by_key(|p| (p.path != path, p.line, p.column));
        Err(crate::problem::cap_per_file(problems))
    }
}

/// A text in which everything but one string value is blanked, and `map=` written just before
/// it: a mission file holding only that map, whose errors have the scenario file's positions.
fn map_only(text: &str, value: &Range<usize>) -> Option<String> {
    let line_start = text.get(..value.start)?.rfind('\n').map_or(0, |i| i + 1);
    let prefix_chars = text.get(line_start..value.start)?.chars().count();
    if prefix_chars < 4 {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if value.contains(&i) || c == '\n' || c == '\r' {
            out.push(c);
        } else {
            out.push(' ');
        }
    }
    // Write `map=` over the last four blanks before the value.
    let mut chars: Vec<char> = out.chars().collect();
    let value_char = text.get(..value.start)?.chars().count();
    for (k, c) in "map=".chars().enumerate() {
        let at = value_char - 4 + k;
        *chars.get_mut(at)? = c;
    }
    Some(chars.into_iter().collect())
}

fn mission_problems(es: overmind_core::MissionErrors) -> Vec<Problem> {
    es.0.into_iter()
        .map(|e| Problem::new(&e.path, e.line, e.column, e.message))
        .collect()
}

/// The setup a scenario starts from: its mission's, or one built around its inline map.
fn base_setup(
    set: &PackSet,
    src: &Source<'_>,
    raw: &RawScenario,
    header: &Range<usize>,
) -> Result<Setup, Vec<Problem>> {
    match (&raw.mission, &raw.map) {
        (Some(_), Some(map)) => Err(vec![src.problem(&map.span(), "give either `mission` or `map`, not both")]),
        (None, None) => Err(vec![src.problem(
            header,
            "no position: expected `mission = \"ID\"` (a mission of the loaded packs) or an inline `map = \"\"\"...\"\"\"`",
        )]),
        (Some(m), None) => {
            let id = m.get_ref();
            let local = src.path.parent().map(|d| d.join(id));
            let which = if set.missions.contains_key(id) {
                id.clone()
            } else if let Some(p) = local.filter(|p| p.is_file()) {
                p.display().to_string()
            } else {
                let known: Vec<&str> = set.missions.keys().map(String::as_str).collect();
                return Err(vec![src.problem(
                    &m.span(),
                    format!("no mission {id:?}: expected one of {} or a path relative to this file", known.join(", ")),
                )]);
            };
            set.setup(&which)
        }
        (None, Some(map)) => {
            let synth = map_only(src.text, &map.span()).ok_or_else(|| vec![src.problem(&map.span(), "write the map as `map = \"\"\"...\"\"\"`")])?;
            let mission = Mission::parse(src.path, &synth).map_err(mission_problems)?;
            Ok(Setup {
                name: raw.name.get_ref().clone(),
                map: mission.map,
                rules: set.rules.clone(),
                heroes: Vec::new(),
                blips: Vec::new(),
                pool: Vec::new(),
                decoys: None,
                objective: Objective::Eliminate,
                max_rounds: None,
                tokens: Vec::new(),
                decks: Vec::new(),
                aliens: Vec::new(),
                hand: None,
                agenda: None,
                deployment: Default::default(),
                squad: Vec::new(),
            })
        }
    }
}

/// Where `key` is written inside `span` of the text (the span's start when it is not found).
fn key_in(src: &Source<'_>, span: &Range<usize>, key: &str) -> Range<usize> {
    let Some(body) = src.text.get(span.clone()) else {
        return span.clone();
    };
    if key.is_empty() {
        return span.clone();
    }
    let mut from = 0;
    while let Some(i) = body.get(from..).and_then(|b| b.find(key)) {
        let at = from + i;
        let before_ok = at == 0 || !body[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let after = &body[at + key.len()..];
        if before_ok && after.trim_start().starts_with('=') {
            return span.start + at..span.start + at + key.len();
        }
        from = at + key.len();
    }
    span.clone()
}

fn rules_for(
    src: &Source<'_>,
    raw: &RawScenario,
    written: Option<&Spanned<DeValue<'_>>>,
    base: &Rules,
    problems: &mut Vec<Problem>,
) -> Rules {
    let mut rules = base.clone();
    if let (Some(t), Some(written)) = (&raw.rules, written) {
        // Checked exactly as a `rules.toml` is: every key, type and range, where written.
        match rules.overlay(written) {
            Ok(r) => rules = r,
            Err(es) => {
                for e in es {
                    problems.push(src.problem(&e.span, format!("rules: {}", e.message)));
                }
                // Nothing more to say of rules that are not read.
                return rules;
            }
        }
        if t.get_ref().contains_key("die") && (raw.dice.is_some() || raw.die.is_some()) {
            problems.push(src.problem(
                &t.span(),
                "the die is given twice: use `dice` or `die`, not rules.die as well",
            ));
        }
    }
    match (&raw.dice, &raw.die) {
        (Some(d), Some(_)) => problems.push(src.problem(&d.span(), "give either `dice` or a [scenario.die] table, not both")),
        (Some(d), None) => match d.get_ref().as_str() {
            "hits" => rules.die = faces(0, 12),
            "blanks" => rules.die = faces(12, 0),
            "default" => {}
            other => problems.push(src.problem(
                &d.span(),
                format!("dice = {other:?}: expected \"hits\" (every face a HIT), \"blanks\" (every face BLANK), \"default\" (the pack's die) or a [scenario.die] table"),
            )),
        },
        (None, Some(d)) => match die_faces(d.get_ref()) {
            Ok(f) => rules.die = f,
            Err(m) => problems.push(src.problem(&key_in(src, &d.span(), m.0), m.1)),
        },
        (None, None) => {}
    }
    for p in rules.validate() {
        let key = p.split(':').next().unwrap_or("");
        let span = match (&raw.die, &raw.rules) {
            (Some(d), _) if key == "die" => d.span(),
            (_, Some(t)) => key_in(src, &t.span(), key),
            _ => 0..0,
        };
        problems.push(src.problem(&span, format!("rules: {p}")));
    }
    rules
}

/// A `die` table: face counts, those not named 0.
fn die_faces(t: &toml::Table) -> Result<DieFaces, (&str, String)> {
    let mut f = faces(0, 0);
    for (k, v) in t {
        let n = match v.as_integer().map(u32::try_from) {
            Some(Ok(n)) if n <= 12 => n,
            _ => {
                return Err((
                    k.as_str(),
                    format!("die: {k} = {v}: expected a count from 0 to 12"),
                ))
            }
        };
        match k.as_str() {
            "blank" => f.blank = n,
            "hit" => f.hit = n,
            "double_hit" => f.double_hit = n,
            "critical" => f.critical = n,
            "shield" => f.shield = n,
            "double_shield" => f.double_shield = n,
            _ => return Err((k.as_str(), format!("die: no face `{k}`: expected blank, hit, double_hit, critical, shield or double_shield"))),
        }
    }
    Ok(f)
}

fn faces(blank: u32, hit: u32) -> DieFaces {
    DieFaces {
        blank,
        hit,
        double_hit: 0,
        critical: 0,
        shield: 0,
        double_shield: 0,
    }
}

fn answers(
    src: &Source<'_>,
    list: &[Spanned<toml::Value>],
    problems: &mut Vec<Problem>,
) -> Vec<Scripted> {
    let mut out = Vec::new();
    for a in list {
        let (line, column) = src.pos(a.span().start);
        let answer = match a.get_ref() {
            toml::Value::Integer(i) if *i >= 0 => {
                ScriptedAnswer::Index(usize::try_from(*i).unwrap_or(usize::MAX))
            }
            toml::Value::String(s) => ScriptedAnswer::Label(s.clone()),
            v => {
                problems.push(src.problem(
                    &a.span(),
                    format!("answer {v}: expected an option's index (0 is the first) or its label, such as \"rush\", \"3,4\" or \"yes\""),
                ));
                continue;
            }
        };
        out.push(Scripted {
            answer,
            line,
            column,
        });
    }
    out
}

/// Where in the scenario a placed id is written.
fn id_span(raw: &RawScenario, id: &str) -> Option<Range<usize>> {
    let heroes = raw.heroes.iter().flatten().map(|h| &h.id);
    let blips = raw.blips.iter().flatten().map(|b| &b.id);
    let units = raw.units.iter().map(|u| &u.id);
    heroes
        .chain(blips)
        .chain(units)
        .find(|s| s.get_ref() == id)
        .map(Spanned::span)
}

fn build(
    set: &PackSet,
    src: &Source<'_>,
    raw: RawScenario,
    written_rules: Option<&Spanned<DeValue<'_>>>,
    line: usize,
    header: Range<usize>,
) -> Result<Scenario, Vec<Problem>> {
    let mut problems = Vec::new();
    // Whether the setup is as the file says, so that starting it finds the file's own
    // problems and not consequences of those already found.
    let mut setup_ok = true;
    // Without a usable map the rest is still read, so that one run lists every mistake.
    let mut setup = base_setup(set, src, &raw, &header).unwrap_or_else(|ps| {
        problems.extend(ps);
        setup_ok = false;
        Setup {
            name: String::new(),
            map: MapBuilder::new(1, 1).build(),
            rules: set.rules.clone(),
            heroes: Vec::new(),
            blips: Vec::new(),
            pool: Vec::new(),
            decoys: None,
            objective: Objective::Eliminate,
            max_rounds: None,
            tokens: Vec::new(),
            decks: Vec::new(),
            aliens: Vec::new(),
            hand: None,
            agenda: None,
            deployment: Default::default(),
            squad: Vec::new(),
        }
    });
    setup.name = raw.name.get_ref().clone();
    if let Some(hs) = &raw.heroes {
        setup.heroes = hs
            .iter()
            .map(|h| HeroSetup {
                id: h.id.get_ref().clone(),
                profile: h.profile.get_ref().clone(),
                at: Pos::from(h.at),
                health: h.health.as_ref().map(|hp| *hp.get_ref()),
            })
            .collect();
    }
    if let Some(bs) = &raw.blips {
        setup.blips = bs
            .iter()
            .map(|b| BlipSetup {
                id: b.id.get_ref().clone(),
                at: Pos::from(b.at),
                contents: match b.holds.as_deref() {
                    None => None,
                    Some("decoy") => Some(Contents::Decoy),
                    Some(t) => Some(Contents::Unit {
                        type_id: Id::from(t),
                        size: b.size.unwrap_or(1),
                        leader: b.leader.clone().map(Id::from),
                    }),
                },
            })
            .collect();
    }
    if let Some(ts) = &raw.tokens {
        // Given at all, they replace the mission's tokens.
        setup.tokens = ts
            .iter()
            .enumerate()
            .map(|(i, t)| overmind_core::TokenSetup {
                id: t
                    .id
                    .as_ref()
                    .map_or_else(|| format!("t{}", i + 1), |s| s.get_ref().clone()),
                kind: t.kind.get_ref().clone(),
                at: Pos::from(t.at),
            })
            .collect();
        for t in ts {
            if !set.content.tokens.contains_key(t.kind.get_ref()) {
                let mut known: Vec<&str> = set.content.tokens.keys().map(String::as_str).collect();
                known.sort_unstable();
                problems.push(src.problem(
                    &t.kind.span(),
                    format!(
                        "no token kind {:?} is loaded (loaded: {})",
                        t.kind.get_ref(),
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ),
                ));
                setup_ok = false;
            }
        }
    }
    let before_pool = problems.len();
    if let Some(p) = &raw.pool {
        for entry in p {
            for (_, m) in entry.get_ref().problems() {
                problems.push(src.problem(&entry.span(), format!("pool: {m}")));
            }
        }
        setup.pool = p.iter().map(|e| e.get_ref().clone()).collect();
    }
    if let Some(d) = &raw.decoys {
        if let Some(m) = overmind_core::setup::decoys_problem(*d.get_ref()) {
            problems.push(src.problem(&d.span(), m));
        }
        setup.decoys = Some(*d.get_ref());
    }
    setup_ok &= problems.len() == before_pool;
    if let Some(o) = &raw.objective {
        setup.objective = o.clone();
    }
    if let Some(m) = &raw.max_rounds {
        let max = overmind_core::settings::MAX_ROUNDS;
        if !(1..=max).contains(m.get_ref()) {
            problems.push(src.problem(
                &m.span(),
                format!("max_rounds: expected 1 to {max}, found {}", m.get_ref()),
            ));
        }
        setup.max_rounds = Some(*m.get_ref());
    }
    let before = problems.len();
    setup.rules = rules_for(src, &raw, written_rules, &setup.rules, &mut problems);
    setup_ok &= problems.len() == before;
    let fallback = match raw.fallback.as_ref().map(|f| f.get_ref().as_str()) {
        None | Some("first") => Fallback::First,
        Some("ai" | "greedy") => Fallback::Ai(overmind_core::ai::Level::Greedy),
        Some("standard") => Fallback::Ai(overmind_core::ai::Level::Standard),
        Some("strong") => Fallback::Ai(overmind_core::ai::Level::Strong),
        Some(other) => {
            let span = raw.fallback.as_ref().map_or(header.clone(), Spanned::span);
            problems.push(src.problem(&span, format!("fallback = {other:?}: expected \"first\" (the first option), \"ai\" or \"greedy\" (the greedy AI's answer), \"standard\" or \"strong\" (the look-ahead AI's)")));
            Fallback::First
        }
    };
    let (overmind, heroes) = match &raw.answers {
        Some(a) => (
            answers(src, &a.overmind, &mut problems),
            answers(src, &a.heroes, &mut problems),
        ),
        None => (Vec::new(), Vec::new()),
    };
    let mut steps = Vec::new();
    for a in &raw.actions {
        match words::parse_action(a.get_ref()) {
            Ok(action) => {
                let (l, c) = src.pos(a.span().start);
                steps.push(Step {
                    action,
                    text: a.get_ref().clone(),
                    line: l,
                    column: c,
                });
            }
            Err((at, m)) => {
                let span = inner_offset(src.text, &a.span(), a.get_ref(), at);
                problems.push(src.problem(&(span..span), m));
            }
        }
    }
    let mut expects: Vec<Expect> = Vec::new();
    for e in &raw.expect {
        match expect::parse(src, e, raw.actions.len()) {
            Ok(x) => expects.push(x),
            Err(ps) => problems.extend(ps),
        }
    }
    let before_units = problems.len();
    let units = units(set, src, &raw, &mut problems);
    let units_ok = problems.len() == before_units;
    setup.aliens = units.iter().map(|(_, a)| a.clone()).collect();
    if let Some(decks) = &raw.decks {
        setup.decks.clear();
        for d in decks {
            match overmind_core::card::Deck::named(d.get_ref()) {
                Some(deck) if !setup.decks.contains(&deck) => setup.decks.push(deck),
                Some(_) => problems.push(src.problem(&d.span(), "this deck is named twice")),
                None => {
                    let known: Vec<&str> = overmind_core::card::Deck::ALL
                        .iter()
                        .map(|d| d.name())
                        .collect();
                    problems.push(src.problem(
                        &d.span(),
                        format!(
                            "no deck named {:?} (decks: {})",
                            d.get_ref(),
                            known.join(", ")
                        ),
                    ));
                }
            }
        }
    }
    setup.hand = raw
        .hand
        .as_ref()
        .map(|h| h.iter().map(|c| c.get_ref().clone()).collect());
    setup.agenda = raw.agenda.as_ref().map(|a| a.get_ref().clone());
    if let Some(c) = &raw.carry {
        for (profile, h) in &c.get_ref().heroes {
            for item in &h.items {
                let ok = set
                    .content
                    .tokens
                    .get(item)
                    .is_some_and(|k| k.class == overmind_core::token::TokenClass::Item);
                if !ok {
                    problems.push(src.problem(
                        &c.span(),
                        format!(
                            "carry.heroes.{profile}.items: no Item token kind {item:?} is loaded"
                        ),
                    ));
                }
            }
        }
        setup = setup.carrying(c.get_ref());
    }
    if !setup_ok {
        return Err(problems);
    }
    // The start is checked even when other parts have problems: they do not change it.
    let seed = raw.seed.unwrap_or(1);
    let written = Written {
        set,
        src,
        raw: &raw,
        units: units.iter().map(|(i, _)| *i).collect(),
        header: &header,
    };
    let state = match start(&written, &setup, seed, units_ok) {
        Ok(mut state) if problems.is_empty() => {
            if let Some(c) = &raw.carry {
                overmind_core::campaign::carry_into(&mut state, &setup, c.get_ref(), &set.content);
            }
            state
        }
        Ok(_) => return Err(problems),
        Err(ps) => {
            problems.extend(ps);
            return Err(problems);
        }
    };
    Ok(Scenario {
        name: raw.name.get_ref().clone(),
        path: PathBuf::from(src.path),
        line,
        state,
        seed,
        overmind,
        heroes,
        fallback,
        steps,
        expects,
    })
}

/// The byte offset in the file of byte `at` of a string value's decoded text, exact when the
/// string has no escapes; else the string's start.
fn inner_offset(text: &str, span: &Range<usize>, decoded: &str, at: usize) -> usize {
    let raw = text.get(span.clone()).unwrap_or("");
    let quote = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        3
    } else {
        1
    };
    match raw.get(quote..raw.len().saturating_sub(quote)) {
        Some(inner) if inner == decoded => span.start + quote + at,
        _ => span.start,
    }
}

/// Where a scenario writes what its setup holds, to place the setup's problems.
struct Written<'a> {
    set: &'a PackSet,
    src: &'a Source<'a>,
    raw: &'a RawScenario,
    /// For each of the setup's revealed units, its index in `raw.units`.
    units: Vec<usize>,
    header: &'a Range<usize>,
}

impl Written<'_> {
    /// A problem of the setup, where the scenario writes what it is about: a unit's id (its
    /// squares for the problems of a revealed unit's id), the field of a hero or unit, a card;
    /// else the mission (named, when the unit is one of its own) or the scenario's header.
    fn problem(&self, e: &SetupError) -> Problem {
        let raw = self.raw;
        let (span, message) = match e {
            SetupError::Unit { id, .. } => (id_span(raw, id), e.to_string()),
            SetupError::Field {
                what: "hero",
                index,
                field: "health",
                message,
                ..
            } => (
                raw.heroes
                    .as_ref()
                    .and_then(|hs| hs.get(*index))
                    .and_then(|h| h.health.as_ref())
                    .map(Spanned::span),
                message.clone(),
            ),
            SetupError::Field {
                what: "unit",
                index,
                field,
                ..
            } => {
                let u = self.units.get(*index).and_then(|i| raw.units.get(*i));
                let span = u.map(|u| match *field {
                    "type" => u.type_id.span(),
                    "health" => u.health.as_ref().map_or_else(|| u.id.span(), Spanned::span),
                    _ => squares_span(u),
                });
                (span, e.to_string())
            }
            SetupError::Field { id, .. } => (id_span(raw, id), e.to_string()),
            SetupError::Card { slot, card, deck } => {
                let span = match slot {
                    CardSlot::Hand(i) => raw.hand.as_ref().and_then(|h| h.get(*i)),
                    CardSlot::Agenda => raw.agenda.as_ref(),
                }
                .map(Spanned::span);
                let near = match deck {
                    Some(_) => String::new(),
                    None => {
                        let of = self
                            .set
                            .content
                            .cards
                            .values()
                            .filter(|c| c.deck == slot.deck())
                            .map(|c| c.id.as_str());
                        crate::problem::nearest(card, of)
                            .map_or_else(String::new, |n| format!(" (did you mean {n}?)"))
                    }
                };
                (span, format!("{e}{near}"))
            }
            SetupError::Other(_) => (None, e.to_string()),
        };
        let in_mission = match (&raw.mission, &span) {
            (Some(m), None) => format!(" (mission {})", m.get_ref()),
            _ => String::new(),
        };
        self.src
            .problem(&self.at(span), format!("{message}{in_mission}"))
    }

    /// A Blip that starts in a Hero's Line of Sight, as the setup reports it.
    fn in_sight(&self, e: &SetupError) -> Problem {
        let (span, message) = match e {
            SetupError::Unit {
                what, id, message, ..
            } => (
                id_span(self.raw, id),
                format!("{what} {id} {message}: a Blip must start out of every Hero's sight"),
            ),
            _ => (None, e.to_string()),
        };
        self.src.problem(&self.at(span), message)
    }

    /// `span`, else the mission's name, else the scenario's header.
    fn at(&self, span: Option<Range<usize>>) -> Range<usize> {
        span.or_else(|| self.raw.mission.as_ref().map(Spanned::span))
            .unwrap_or_else(|| self.header.clone())
    }
}

/// Where a revealed unit's squares are written: `at` or `models` (its id without either).
fn squares_span(u: &RawUnit) -> Range<usize> {
    match (&u.at, &u.models) {
        (Some(a), _) => a.span(),
        (None, Some(ms)) => ms.span(),
        (None, None) => u.id.span(),
    }
}

/// Validate the setup into a starting state. That a Blip starts in a Hero's Line of Sight (the
/// revealed units counting as obstacles) is said only when every unit is where the file puts
/// it: when the only other problems are with the Overmind's cards, which do not change it.
fn start(
    written: &Written<'_>,
    setup: &Setup,
    seed: u64,
    units_ok: bool,
) -> Result<GameState, Vec<Problem>> {
    let content = &written.set.content;
    let sightless = Checks {
        sight: false,
        ..Checks::default()
    };
    let errors = match setup.start_checked(content, seed, sightless) {
        Ok(state) => return Ok(state),
        Err(es) => es,
    };
    // A problem found twice (two heroes or Blips of one id) is said once.
    let mut unique: Vec<SetupError> = Vec::with_capacity(errors.len());
    for e in errors {
        if !unique.contains(&e) {
            unique.push(e);
        }
    }
    let errors = unique;
    let mut problems: Vec<Problem> = errors.iter().map(|e| written.problem(e)).collect();
    let cards_only = errors.iter().all(|e| matches!(e, SetupError::Card { .. }));
    if cards_only && units_ok {
        let sight = Checks {
            placements: false,
            pool: false,
            sight: true,
        };
        // Those left are the Blips in sight: the rest of the start was checked above.
        if let Err(es) = setup.start_checked(content, seed, sight) {
            problems.extend(
                es.iter()
                    .filter(|e| !errors.contains(e))
                    .map(|e| written.in_sight(e)),
            );
        }
    }
    if problems.is_empty() && units_ok {
        problems.push(
            written
                .src
                .problem(written.header, "this scenario does not start"),
        );
    }
    Err(problems)
}

/// The already revealed Alien Units as the setup takes them, each with its index in
/// `raw.units`: a unit whose squares are not given once is left out (and reported) unless its
/// type is unknown, which the setup reports first.
fn units(
    set: &PackSet,
    src: &Source<'_>,
    raw: &RawScenario,
    problems: &mut Vec<Problem>,
) -> Vec<(usize, AlienSetup)> {
    let mut out = Vec::new();
    for (i, u) in raw.units.iter().enumerate() {
        let id = u.id.get_ref();
        let squares: Vec<Pos> = match (&u.at, &u.models) {
            (Some(a), None) => vec![Pos::from(*a.get_ref())],
            (None, Some(ms)) => ms.get_ref().iter().copied().map(Pos::from).collect(),
            _ if !set.content.aliens.contains_key(u.type_id.get_ref()) => Vec::new(),
            _ => {
                problems.push(src.problem(&u.id.span(), format!("unit {id}: give its square as `at = [x, y]` or its models' squares as `models = [[x, y], ...]`, one of the two")));
                continue;
            }
        };
        out.push((
            i,
            AlienSetup {
                id: id.clone(),
                type_id: u.type_id.get_ref().clone(),
                at: squares,
                health: u.health.as_ref().map(|h| *h.get_ref()),
            },
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_keeps_its_place_in_the_blanked_text() {
        let text = "[[scenario]]\nname = \"é\"\nmap = \"\"\"\n+-+\n|.|\n+-+\n\"\"\"\nseed = 1\n";
        let start = text.find("\"\"\"").unwrap_or(0);
        let end = text.rfind("\"\"\"").unwrap_or(0) + 3;
        let synth = map_only(text, &(start..end)).unwrap_or_default();
        assert_eq!(synth.lines().count(), text.lines().count());
        assert_eq!(
            synth.lines().nth(2),
            Some("  map=\"\"\""),
            "map= ends where `map = ` did"
        );
        assert!(synth.lines().nth(1).is_some_and(|l| l.trim().is_empty()));
        assert!(Mission::parse(Path::new("t.toml"), &synth).is_ok());
        assert!(
            map_only("m=\"\"\"x\"\"\"", &(2..9)).is_none(),
            "too short a prefix is refused"
        );
    }
}
