//! Reading a scenario file: its TOML, with every key's position, into checked [`Scenario`]s.

use super::expect::{self, Expect};
use super::{words, Fallback, Scenario, Scripted, ScriptedAnswer, Step};
use crate::pack::PackSet;
use crate::problem::Problem;
use overmind_core::dice::DieFaces;
use overmind_core::source::LineIndex;
use overmind_core::state::Status;
use overmind_core::Id;
use overmind_core::{
    BlipSetup, Contents, GameState, HeroSetup, LineOfSight, MapBuilder, Mission, Model, Objective,
    PoolEntry, Pos, Rules, Setup, SetupError, Side, Unit,
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
    /// The Overmind's hand at the start (docs/RULES.md §15): Mutation card ids.
    hand: Option<Vec<Spanned<String>>>,
    /// The Overmind's Hidden Agenda, face down.
    agenda: Option<Spanned<String>>,
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
                health: None,
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
    if !setup_ok {
        return Err(problems);
    }
    // The start is checked even when other parts have problems: they do not change it.
    let seed = raw.seed.unwrap_or(1);
    let state = match start(set, src, &raw, &setup, seed, &header) {
        Ok(mut state) => match place_units(src, &mut state, units) {
            // Sight needs every unit where the file puts it, each an obstacle.
            Ok(()) if units_ok => match check_sight(src, &raw, &state, &header) {
                Ok(()) => Some(state),
                Err(ps) => {
                    problems.extend(ps);
                    None
                }
            },
            Ok(()) => None,
            Err(ps) => {
                problems.extend(ps);
                None
            }
        },
        Err(ps) => {
            problems.extend(ps);
            None
        }
    };
    let state = match state {
        Some(mut state) if problems.is_empty() => {
            deal_cards(set, src, &raw, &mut state, &mut problems);
            if !problems.is_empty() {
                return Err(problems);
            }
            state
        }
        _ => return Err(problems),
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

/// Validate the setup into a starting state; hero health as the scenario says. The setup's
/// own check that no Blip starts in sight is left to [`check_sight`], which also counts the
/// scenario's revealed units as obstacles: so heroes and Blips are validated apart (the Blips'
/// drawn contents and the game's RNG are the same either way: only Blips draw).
fn start(
    set: &PackSet,
    src: &Source<'_>,
    raw: &RawScenario,
    setup: &Setup,
    seed: u64,
    header: &Range<usize>,
) -> Result<GameState, Vec<Problem>> {
    let problem = |e: &SetupError| -> Problem {
        let span = match e {
            SetupError::Unit { id, .. } | SetupError::Field { id, .. } => id_span(raw, id),
            SetupError::Card { .. } | SetupError::Other(_) => None,
        };
        let in_mission = match (&raw.mission, &span) {
            (Some(m), None) => format!(" (mission {})", m.get_ref()),
            _ => String::new(),
        };
        let span = span
            .or_else(|| raw.mission.as_ref().map(Spanned::span))
            .unwrap_or_else(|| header.clone());
        src.problem(&span, format!("{e}{in_mission}"))
    };
    let mut heroes_only = setup.clone();
    heroes_only.blips.clear();
    let mut blips_only = setup.clone();
    blips_only.heroes.clear();
    // Heroes against Blips: found whether or not each side starts on its own.
    let mut problems = Vec::new();
    for b in &setup.blips {
        if let Some(h) = setup.heroes.iter().find(|h| h.id == b.id) {
            problems.push(problem(&SetupError::Unit {
                what: "blip",
                id: b.id.clone(),
                message: format!("this id is used twice (hero {} too)", h.id),
            }));
        } else if let Some(h) = setup.heroes.iter().find(|h| h.at == b.at) {
            problems.push(problem(&SetupError::Unit {
                what: "blip",
                id: b.id.clone(),
                message: format!("{} is already taken by {}", b.at, h.id),
            }));
        }
    }
    let (with_heroes, with_blips) = match (
        heroes_only.start(&set.content, seed),
        blips_only.start(&set.content, seed),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            let mut errors: Vec<SetupError> = Vec::new();
            for e in a
                .err()
                .into_iter()
                .flatten()
                .chain(b.err().into_iter().flatten())
            {
                if !errors.contains(&e) {
                    errors.push(e);
                }
            }
            problems.extend(errors.iter().map(problem));
            return Err(problems);
        }
    };
    let mut state = with_blips;
    state.units = with_heroes.units;
    state.moved();
    for h in raw.heroes.iter().flatten() {
        let Some(hp) = &h.health else { continue };
        let id = h.id.get_ref();
        if let Some(m) = state.model_mut(id) {
            if *hp.get_ref() == 0 || *hp.get_ref() > m.max_health {
                problems.push(src.problem(
                    &hp.span(),
                    format!(
                        "health {}: expected 1 to {} (the profile's health)",
                        hp.get_ref(),
                        m.max_health
                    ),
                ));
            } else {
                m.health = *hp.get_ref();
            }
        }
    }
    if problems.is_empty() {
        Ok(state)
    } else {
        Err(problems)
    }
}

/// No Blip may start in a Hero's Line of Sight (docs/RULES.md §7.2), counting every model as an
/// obstacle, the scenario's revealed units included.
fn check_sight(
    src: &Source<'_>,
    raw: &RawScenario,
    state: &GameState,
    header: &Range<usize>,
) -> Result<(), Vec<Problem>> {
    let obstacles = state.compute_obstacles();
    let mut problems = Vec::new();
    for b in &state.blips {
        if let Some(h) = state.hero_models().find(|h| {
            state
                .rules
                .los
                .visible(&state.map, &obstacles, h.pos, b.pos)
        }) {
            let span = id_span(raw, &b.id)
                .or_else(|| raw.mission.as_ref().map(Spanned::span))
                .unwrap_or_else(|| header.clone());
            problems.push(src.problem(
                &span,
                format!("blip {} starts at {} in the Line of Sight of hero {} at {}: a Blip must start out of every Hero's sight", b.id, b.pos, h.id, h.pos),
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// The already revealed Alien Units, each with the span of its squares: types, numbers of
/// models and health checked; squares are checked once placed.
fn units(
    set: &PackSet,
    src: &Source<'_>,
    raw: &RawScenario,
    problems: &mut Vec<Problem>,
) -> Vec<(Range<usize>, Unit)> {
    let mut out = Vec::new();
    for u in &raw.units {
        let id = u.id.get_ref();
        let type_id = u.type_id.get_ref();
        let Some(t) = set.content.aliens.get(type_id) else {
            let known: Vec<&str> = set.content.aliens.keys().map(String::as_str).collect();
            problems.push(src.problem(
                &u.type_id.span(),
                format!(
                    "unit {id}: no Alien Type named {type_id:?}; the loaded packs define {}",
                    known.join(", ")
                ),
            ));
            continue;
        };
        let (squares, span): (Vec<Pos>, Range<usize>) = match (&u.at, &u.models) {
            (Some(a), None) => (vec![Pos::from(*a.get_ref())], a.span()),
            (None, Some(ms)) => (
                ms.get_ref().iter().copied().map(Pos::from).collect(),
                ms.span(),
            ),
            _ => {
                problems.push(src.problem(&u.id.span(), format!("unit {id}: give its square as `at = [x, y]` or its models' squares as `models = [[x, y], ...]`, one of the two")));
                continue;
            }
        };
        if squares.is_empty() || squares.len() > t.unit.max as usize {
            problems.push(src.problem(
                &span,
                format!(
                    "unit {id}: {} models, expected 1 to {} for {type_id}",
                    squares.len(),
                    t.unit.max
                ),
            ));
            continue;
        }
        let max_health = t.health.max(1);
        let health = match &u.health {
            Some(h) if *h.get_ref() == 0 || *h.get_ref() > max_health => {
                problems.push(src.problem(
                    &h.span(),
                    format!(
                        "unit {id}: health {}, expected 1 to {max_health} for {type_id}",
                        h.get_ref()
                    ),
                ));
                continue;
            }
            Some(h) => *h.get_ref(),
            None => max_health,
        };
        let models = squares
            .iter()
            .enumerate()
            .map(|(n, &at)| Model {
                id: Id::from(&format!("{id}.{}", n + 1)),
                kind: Id::from(&type_id),
                pos: at,
                health,
                max_health,
                status: Status::default(),
            })
            .collect();
        let unit = Unit {
            id: Id::from(&id),
            side: Side::Overmind,
            models,
            activated: false,
            used: Vec::new(),
            overwatch: None,
            xp: 0,
            from_blip: None,
            extracted: false,
        };
        out.push((span, unit));
    }
    out
}

/// Put the revealed units on the map, checking ids and each model's square.
fn place_units(
    src: &Source<'_>,
    state: &mut GameState,
    units: Vec<(Range<usize>, Unit)>,
) -> Result<(), Vec<Problem>> {
    let mut problems = Vec::new();
    for (span, unit) in units {
        let id = &unit.id;
        if state.unit(id).is_some() || state.blip(id).is_some() {
            problems.push(src.problem(&span, format!("unit {id}: this id is used twice")));
            continue;
        }
        for (n, m) in unit.models.iter().enumerate() {
            let at = m.pos;
            let map = &state.map;
            let bad = if !map.in_bounds(at) {
                Some(format!(
                    "{at} is outside the {}x{} map",
                    map.width(),
                    map.height()
                ))
            } else if map.is_solid(at) {
                Some(format!("{at} is a solid square"))
            } else if state.occupant(at).is_some() || unit.models[..n].iter().any(|o| o.pos == at) {
                Some(format!("{at} is already taken"))
            } else {
                None
            };
            if let Some(b) = bad {
                problems.push(src.problem(&span, format!("unit {id}: model {}: {b}", n + 1)));
            }
        }
        state.units.push(unit);
        state.moved();
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// `hand = [...]` and `agenda = "..."`: the Overmind's cards at the start (docs/RULES.md §15),
/// each a loaded card of the right deck.
fn deal_cards(
    set: &PackSet,
    src: &Source<'_>,
    raw: &RawScenario,
    state: &mut overmind_core::GameState,
    problems: &mut Vec<Problem>,
) {
    use overmind_core::card::Deck;
    let mut card = |id: &Spanned<String>, deck: Deck| -> Option<Id> {
        match set.content.cards.get(id.get_ref()) {
            Some(c) if c.deck == deck => Some(c.id),
            Some(c) => {
                problems.push(src.problem(
                    &id.span(),
                    format!(
                        "card {:?} is a {} card, not a {} one",
                        id.get_ref(),
                        c.deck.name(),
                        deck.name()
                    ),
                ));
                None
            }
            None => {
                let of: Vec<&str> = set
                    .content
                    .cards
                    .values()
                    .filter(|c| c.deck == deck)
                    .map(|c| c.id.as_str())
                    .collect();
                let near = crate::problem::nearest(id.get_ref(), of.iter().copied())
                    .map_or_else(String::new, |n| format!(" (did you mean {n}?)"));
                problems.push(src.problem(
                    &id.span(),
                    format!("no {} card {:?} is loaded{near}", deck.name(), id.get_ref()),
                ));
                None
            }
        }
    };
    if let Some(hand) = &raw.hand {
        let ids: Vec<Id> = hand
            .iter()
            .filter_map(|c| card(c, Deck::Mutation))
            .collect();
        if !state.cards.decks.contains(&Deck::Mutation) {
            state.cards.decks.push(Deck::Mutation);
        }
        state.cards.hand = ids;
    }
    if let Some(a) = &raw.agenda {
        if let Some(id) = card(a, Deck::HiddenAgenda) {
            if !state.cards.decks.contains(&Deck::HiddenAgenda) {
                state.cards.decks.push(Deck::HiddenAgenda);
            }
            state.cards.agenda = Some(id);
            state.cards.agenda_revealed = false;
        }
    }
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
