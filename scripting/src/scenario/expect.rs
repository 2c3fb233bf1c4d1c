//! A scenario's expectations: what to look for in the event log and the final state, and how a miss is reported.

use super::events::{event_kind, fields_of, inline_pattern, Pattern};
use super::parse::Source;
use super::{head, tail};
use crate::problem::Problem;
use overmind_core::{GameState, Model, Phase, Pos, Side};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use toml::{Spanned, Value};

/// The keys that say what an expectation checks; each `[[scenario.expect]]` has exactly one.
/// The first [`EVENT_KINDS`] look into the event log.
const KINDS: &[&str] = &[
    "event",
    "no_event",
    "sequence",
    "behaviour_performed",
    "at",
    "health",
    "status",
    "gone",
    "winner",
    "refused",
    "round",
    "phase",
];
const EVENT_KINDS: usize = 4;

/// One `[[scenario.expect]]` entry, checked.
#[derive(Clone, Debug)]
pub(crate) struct Expect {
    pub line: usize,
    pub column: usize,
    check: Check,
}

#[derive(Clone, Debug)]
enum Check {
    Event {
        pattern: Pattern,
        count: Option<usize>,
        during: Option<usize>,
    },
    NoEvent {
        pattern: Pattern,
        during: Option<usize>,
    },
    Sequence {
        patterns: Vec<Pattern>,
        during: Option<usize>,
    },
    At {
        id: String,
        place: Place,
    },
    Health {
        id: String,
        value: u32,
    },
    Status {
        id: String,
        flags: Vec<(String, bool)>,
        shaken_by: Option<String>,
    },
    Gone(String),
    Winner(Option<Side>),
    Refused {
        text: String,
        action: Option<usize>,
    },
    Round(u32),
    Phase(Phase),
}

/// Where an `at` expectation wants a model or Blip.
#[derive(Clone, Debug)]
enum Place {
    /// `square = [x, y]`.
    Square(Pos),
    /// `squares = [[x, y], ...]`: any one of them.
    OneOf(Vec<Pos>),
    /// `adjacent_to = "ID"`: a square adjacent (docs/RULES.md §4: no wall between) to that
    /// model's or Blip's.
    AdjacentTo(String),
}

impl Place {
    fn describe(&self) -> String {
        match self {
            Place::Square(p) => format!("at {p}"),
            Place::OneOf(ps) => {
                let list: Vec<String> = ps.iter().map(ToString::to_string).collect();
                format!("on one of {}", list.join(" "))
            }
            Place::AdjacentTo(id) => format!("adjacent to {id}"),
        }
    }
}

/// Where `id` is: a Blip's square or a model's (a one-model unit by its id).
fn position(st: &GameState, id: &str) -> Result<Pos, String> {
    match st.blip(id) {
        Some(b) => Ok(b.pos),
        None => model(st, id).map(|m| m.pos),
    }
}

/// What a scenario's play left behind, for the checks.
pub(super) struct Observed<'a> {
    /// Each event as JSON, with the 1-based action it happened in (0: the start).
    pub events: &'a [(usize, Json)],
    /// The same events, one printable line each.
    pub log: &'a [String],
    pub state: &'a GameState,
    /// The action refused (1-based) and why.
    pub refusal: Option<&'a (usize, String)>,
    /// The actions as written.
    pub labels: &'a [String],
}

impl Observed<'_> {
    fn during(&self, during: Option<usize>) -> String {
        match during {
            Some(i) => format!(
                " during action {i} (`{}`)",
                self.labels
                    .get(i.saturating_sub(1))
                    .map_or("", String::as_str)
            ),
            None => String::new(),
        }
    }

    /// Indices of the events in scope.
    fn scope(&self, during: Option<usize>) -> impl Iterator<Item = usize> + '_ {
        (0..self.events.len()).filter(move |&i| during.is_none_or(|d| self.events[i].0 == d))
    }

    fn lines(&self, idx: impl Iterator<Item = usize>) -> Vec<String> {
        idx.filter_map(|i| self.log.get(i).cloned()).collect()
    }

    /// Lines of the events of one kind in scope; the whole log when there are none.
    fn of_kind(&self, kind: &str, during: Option<usize>) -> Vec<String> {
        let lines = self.lines(
            self.scope(during)
                .filter(|&i| self.events[i].1.get("event").and_then(Json::as_str) == Some(kind)),
        );
        if lines.is_empty() {
            let mut out = vec![format!(
                "(no `{kind}` event{}; the event log:)",
                self.during(during)
            )];
            out.extend(tail(self.log));
            out
        } else {
            head(lines)
        }
    }

    /// Lines of the events that name `id` or one of its models; the whole log when none do.
    fn naming(&self, id: &str) -> Vec<String> {
        let quoted = format!("\"{id}\"");
        let model = format!("\"{id}.");
        let lines: Vec<String> = self
            .log
            .iter()
            .filter(|l| l.contains(&quoted) || l.contains(&model))
            .cloned()
            .collect();
        if lines.is_empty() {
            let mut out = vec![format!("(no event names {id}; the event log:)")];
            out.extend(tail(self.log));
            out
        } else {
            head(lines)
        }
    }
}

/// A model by model id, or by the id of a unit that has one model.
fn model<'s>(state: &'s GameState, id: &str) -> Result<&'s Model, String> {
    if let Some((_, m)) = state.find_model(id) {
        return Ok(m);
    }
    if let Some(u) = state.unit(id) {
        return match u.models.as_slice() {
            [m] => Ok(m),
            [] => Err(format!("{id} has no models left on the map")),
            ms => {
                let ids: Vec<&str> = ms.iter().map(|m| m.id.as_str()).collect();
                Err(format!(
                    "{id} has {} models ({}): name one of them",
                    ms.len(),
                    ids.join(", ")
                ))
            }
        };
    }
    if let Some(b) = state.blip(id) {
        return Err(format!("{id} is still a face-down Blip at {}", b.pos));
    }
    Err(format!("nothing named {id} is on the map"))
}

fn times(count: Option<usize>) -> String {
    match count {
        None => String::new(),
        Some(1) => " exactly once".into(),
        Some(n) => format!(" exactly {n} times"),
    }
}

impl Expect {
    /// Is this the expectation that an action is refused?
    pub fn is_refusal(&self) -> bool {
        matches!(self.check, Check::Refused { .. })
    }

    /// `None` when the expectation holds; else what was expected and what happened, with the
    /// lines of the log that show it.
    pub fn check(&self, o: &Observed<'_>) -> Option<(String, Vec<String>)> {
        match &self.check {
            Check::Event { pattern, count, during } => {
                let found: Vec<usize> = o.scope(*during).filter(|&i| pattern.matches(&o.events[i].1)).collect();
                let ok = match count {
                    None => !found.is_empty(),
                    Some(n) => found.len() == *n,
                };
                (!ok).then(|| {
                    let msg = format!("expected an event {pattern}{}{}; found {} such event(s)", times(*count), o.during(*during), found.len());
                    (msg, o.of_kind(&pattern.kind, *during))
                })
            }
            Check::NoEvent { pattern, during } => {
                let found: Vec<usize> = o.scope(*during).filter(|&i| pattern.matches(&o.events[i].1)).collect();
                (!found.is_empty()).then(|| (format!("expected no event {pattern}{}; found {}", o.during(*during), found.len()), head(o.lines(found.into_iter()))))
            }
            Check::Sequence { patterns, during } => {
                let mut next = 0;
                let mut last = None;
                for i in o.scope(*during) {
                    if next < patterns.len() && patterns[next].matches(&o.events[i].1) {
                        next += 1;
                        last = Some(i);
                    }
                }
                (next < patterns.len()).then(|| {
                    let listed: Vec<String> = patterns.iter().enumerate().map(|(i, p)| format!("{}. {p}", i + 1)).collect();
                    let found = match last {
                        None => format!("found no event {}", patterns[0]),
                        Some(i) => format!(
                            "found the first {next}, the last of them at `{}`, but no event {} after it",
                            o.log.get(i).map_or("", String::as_str),
                            patterns[next]
                        ),
                    };
                    (format!("expected these events in this order{}: {}; {found}", o.during(*during), listed.join("; ")), o.of_kind(&patterns[next].kind, *during))
                })
            }
            Check::At { id, place } => {
                let want = place.describe();
                let at = match position(o.state, id) {
                    Ok(p) => p,
                    Err(why) => return Some((format!("expected {id} {want}; {why}"), o.naming(id))),
                };
                let ok = match place {
                    Place::Square(s) => at == *s,
                    Place::OneOf(ss) => ss.contains(&at),
                    Place::AdjacentTo(other) => match position(o.state, other) {
                        Ok(q) => overmind_core::movement::adjacent(&o.state.map, at, q),
                        Err(why) => return Some((format!("expected {id} {want}; {why}"), o.naming(other))),
                    },
                };
                if ok {
                    None
                } else {
                    let also = match place {
                        Place::AdjacentTo(other) => position(o.state, other)
                            .map(|q| format!(", and {other} at {q}"))
                            .unwrap_or_default(),
                        _ => String::new(),
                    };
                    Some((format!("expected {id} {want}; it is at {at}{also}"), o.naming(id)))
                }
            }
            Check::Health { id, value } => match model(o.state, id) {
                Ok(m) if m.health == *value => None,
                Ok(m) => Some((format!("expected {id} to have health {value}; it has {} of {}", m.health, m.max_health), o.naming(id))),
                Err(why) => Some((format!("expected {id} to have health {value}; {why}"), o.naming(id))),
            },
            Check::Status { id, flags, shaken_by } => {
                let m = match model(o.state, id) {
                    Ok(m) => m,
                    Err(why) => return Some((format!("expected a status of {id}; {why}"), o.naming(id))),
                };
                let s = &m.status;
                let now = |f: &str| match f {
                    "knocked_down" => s.knocked_down,
                    "stunned" => s.stunned,
                    _ => s.shaken_by.is_some(),
                };
                let mut wrong: Vec<String> = flags.iter().filter(|(f, v)| now(f) != *v).map(|(f, v)| format!("{f} = {v} (it is {})", now(f))).collect();
                if let Some(by) = shaken_by {
                    if s.shaken_by.as_deref() != Some(by.as_str()) {
                        wrong.push(format!("shaken_by = {by:?} (it is {})", s.shaken_by.as_deref().map_or("not shaken".into(), |b| format!("{b:?}"))));
                    }
                }
                (!wrong.is_empty()).then(|| (format!("expected {id} to have {}", wrong.join(", ")), o.naming(id)))
            }
            Check::Gone(id) => {
                let here = o.state.blip(id).is_some() || o.state.find_model(id).is_some() || o.state.unit(id).is_some_and(|u| !u.models.is_empty());
                here.then(|| (format!("expected {id} to be gone from the map; it is still there"), o.naming(id)))
            }
            Check::Winner(w) => {
                let now = o.state.outcome.as_ref().map(|x| x.winner);
                (now != *w).then(|| {
                    let name = |s: Option<Side>| s.map_or("no winner yet".to_string(), |s| format!("the {} win", s.name()));
                    (format!("expected {}; {}", name(*w), name(now)), o.of_kind("game_over", None))
                })
            }
            Check::Refused { text, action } => match o.refusal {
                Some((i, why)) if why.contains(text.as_str()) && action.is_none_or(|a| a == *i) => None,
                Some((i, why)) => Some((
                    format!("expected {} to be refused with a message containing {text:?}; action {i} was refused: {why}", action.map_or("an action".into(), |a| format!("action {a}"))),
                    tail(o.log),
                )),
                None => Some((
                    format!("expected {} to be refused with a message containing {text:?}; every action was accepted", action.map_or("an action".into(), |a| format!("action {a}"))),
                    tail(o.log),
                )),
            },
            Check::Round(r) => (o.state.round != *r).then(|| (format!("expected round {r}; it is round {}", o.state.round), o.of_kind("round_started", None))),
            Check::Phase(p) => (o.state.phase != *p).then(|| (format!("expected the {p:?} phase; it is the {:?} phase", o.state.phase), o.of_kind("phase_started", None))),
        }
    }
}

type Table = BTreeMap<Spanned<String>, Spanned<Value>>;

/// Reading one table, with the problems found.
struct Reader<'a, 't> {
    src: &'a Source<'t>,
    table: &'a Table,
    problems: Vec<Problem>,
    used: Vec<&'a str>,
}

impl<'a> Reader<'a, '_> {
    fn get(&mut self, key: &str) -> Option<&'a Spanned<Value>> {
        let (k, v) = self.table.iter().find(|(k, _)| k.get_ref() == key)?;
        self.used.push(k.get_ref().as_str());
        Some(v)
    }

    fn bad(&mut self, v: &Spanned<Value>, message: String) {
        self.problems.push(self.src.problem(&v.span(), message));
    }

    fn string(&mut self, key: &str) -> Option<String> {
        let v = self.get(key)?;
        match v.get_ref() {
            Value::String(s) => Some(s.clone()),
            other => {
                self.bad(v, format!("{key} = {other}: expected a string"));
                None
            }
        }
    }

    fn number(&mut self, key: &str, min: i64, max: i64) -> Option<usize> {
        let v = self.get(key)?;
        match v.get_ref() {
            Value::Integer(i) if (min..=max).contains(i) => usize::try_from(*i).ok(),
            other => {
                self.bad(
                    v,
                    format!("{key} = {other}: expected a whole number from {min} to {max}"),
                );
                None
            }
        }
    }

    /// An action's 1-based number.
    fn action(&mut self, key: &str, actions: usize) -> Option<usize> {
        let v = self.get(key)?;
        match v.get_ref() {
            Value::Integer(i) if *i >= 1 && usize::try_from(*i).is_ok_and(|n| n <= actions) => {
                usize::try_from(*i).ok()
            }
            other => {
                let m = match actions {
                    0 => format!("{key} = {other}: the scenario has no actions"),
                    1 => format!("{key} = {other}: expected 1, the scenario's only action"),
                    n => format!("{key} = {other}: expected an action's number, 1 to {n}"),
                };
                self.bad(v, m);
                None
            }
        }
    }

    /// Every key not read yet, as event fields (`fields = true`) or as mistakes.
    fn rest(&mut self, kind: Option<&str>) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        for (k, v) in self.table {
            if self.used.contains(&k.get_ref().as_str()) {
                continue;
            }
            let Some(kind) = kind else {
                self.problems.push(self.src.problem(
                    &k.span(),
                    format!("unknown key `{}` in this expectation", k.get_ref()),
                ));
                continue;
            };
            let fields = fields_of(kind);
            if fields.contains(&k.get_ref().as_str()) {
                out.push((k.get_ref().clone(), v.get_ref().clone()));
            } else {
                self.problems.push(self.src.problem(
                    &k.span(),
                    format!(
                        "a `{kind}` event has no field `{}`: its fields are {}",
                        k.get_ref(),
                        fields.join(", ")
                    ),
                ));
            }
        }
        out
    }
}

fn square(v: &Value) -> Option<Pos> {
    match v.as_array()?.as_slice() {
        [Value::Integer(x), Value::Integer(y)] => {
            Some(Pos::new(i32::try_from(*x).ok()?, i32::try_from(*y).ok()?))
        }
        _ => None,
    }
}

/// Read one `[[scenario.expect]]` table; `actions` is the scenario's number of actions.
pub(super) fn parse(
    src: &Source<'_>,
    e: &Spanned<Table>,
    actions: usize,
) -> Result<Expect, Vec<Problem>> {
    let table = e.get_ref();
    // An event check reads its other keys as the event's fields (`at`, `health`, `status` and
    // `winner` are fields of some events), so it is looked for first.
    let is = |list: &[&str], k: &Spanned<String>| list.contains(&k.get_ref().as_str());
    let mut kinds: Vec<&Spanned<String>> = table
        .keys()
        .filter(|k| is(&KINDS[..EVENT_KINDS], k))
        .collect();
    if kinds.is_empty() {
        kinds = table.keys().filter(|k| is(KINDS, k)).collect();
    }
    let key = match kinds.as_slice() {
        [] => {
            let m = format!(
                "this expectation says nothing to check: expected one of the keys {}",
                KINDS.join(", ")
            );
            return Err(vec![src.problem(&e.span(), m)]);
        }
        [k] => *k,
        [a, b, ..] => {
            let m = format!(
                "one check per [[scenario.expect]] table: found both `{}` and `{}`; split them into two tables",
                a.get_ref(),
                b.get_ref()
            );
            return Err(vec![src.problem(&b.span(), m)]);
        }
    };
    let (line, column) = src.pos(key.span().start);
    let mut r = Reader {
        src,
        table,
        problems: Vec::new(),
        used: Vec::new(),
    };
    let kind = key.get_ref().as_str();
    let check = match r.get(kind).cloned() {
        None => None,
        Some(value) => match kind {
            "event" | "no_event" | "behaviour_performed" => {
                read_event(&mut r, kind, &value, actions)
            }
            "sequence" => read_sequence(&mut r, &value, actions),
            "at" | "health" | "status" => read_state(&mut r, kind, &value),
            _ => read_value(&mut r, kind, &value, actions),
        },
    };
    match check {
        Some(check) if r.problems.is_empty() => Ok(Expect {
            line,
            column,
            check,
        }),
        _ => Err(r.problems),
    }
}

/// The value of a check's key as a string.
fn text(r: &mut Reader<'_, '_>, kind: &str, value: &Spanned<Value>, what: &str) -> Option<String> {
    match value.get_ref() {
        Value::String(s) => Some(s.clone()),
        other => {
            r.bad(value, format!("{kind} = {other}: expected {what}"));
            None
        }
    }
}

/// `event`, `no_event` and `behaviour_performed`.
fn read_event(
    r: &mut Reader<'_, '_>,
    kind: &str,
    value: &Spanned<Value>,
    actions: usize,
) -> Option<Check> {
    let name = text(r, kind, value, "a string")?;
    let count = if kind == "no_event" {
        None
    } else {
        r.number("count", 0, 10_000)
    };
    let during = r.action("during", actions);
    let pattern = if kind == "behaviour_performed" {
        let mut fields = vec![("behaviour".to_string(), Value::String(name))];
        if let Some(u) = r.string("unit") {
            fields.push(("unit".into(), Value::String(u)));
        }
        r.rest(None);
        Pattern {
            kind: "behaviour_performed".into(),
            fields,
        }
    } else {
        if let Err(m) = event_kind(&name) {
            r.bad(value, m);
            return None;
        }
        let fields = r.rest(Some(&name));
        Pattern { kind: name, fields }
    };
    Some(if kind == "no_event" {
        Check::NoEvent { pattern, during }
    } else {
        Check::Event {
            pattern,
            count,
            during,
        }
    })
}

/// `sequence = [{ event = "...", ... }, ...]`.
fn read_sequence(r: &mut Reader<'_, '_>, value: &Spanned<Value>, actions: usize) -> Option<Check> {
    let during = r.action("during", actions);
    r.rest(None);
    let items = match value.get_ref() {
        Value::Array(items) if !items.is_empty() => items,
        other => {
            r.bad(value, format!("sequence = {other}: expected a list of events such as [{{ event = \"damage\" }}, {{ event = \"behaviour_chosen\" }}]"));
            return None;
        }
    };
    let mut patterns = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match inline_pattern(item) {
            Ok(p) => patterns.push(p),
            Err(m) => r.bad(value, format!("sequence item {}: {m}", i + 1)),
        }
    }
    Some(Check::Sequence { patterns, during })
}

/// `at`, `health` and `status`: an inline table naming a model.
fn read_state(r: &mut Reader<'_, '_>, kind: &str, value: &Spanned<Value>) -> Option<Check> {
    r.rest(None);
    let Value::Table(t) = value.get_ref() else {
        let example = match kind {
            "at" => "{ model = \"B1.1\", square = [5, 2] } (or squares = [[5, 2], [5, 3]], or adjacent_to = \"H\")",
            "health" => "{ model = \"H\", value = 6 }",
            _ => "{ model = \"H\", shaken = true }",
        };
        r.bad(
            value,
            format!(
                "{kind} = {}: expected an inline table such as {example}",
                value.get_ref()
            ),
        );
        return None;
    };
    let allowed: &[&str] = match kind {
        "at" => &["model", "square", "squares", "adjacent_to"],
        "health" => &["model", "value"],
        _ => &["model", "knocked_down", "stunned", "shaken", "shaken_by"],
    };
    for k in t.keys().filter(|k| !allowed.contains(&k.as_str())) {
        r.bad(
            value,
            format!("{kind}: unknown key `{k}`: expected {}", allowed.join(", ")),
        );
    }
    let Some(Value::String(id)) = t.get("model") else {
        r.bad(value, format!("{kind}: expected `model = \"ID\"` naming a model, a one-model unit or (for `at`) a Blip"));
        return None;
    };
    let id = id.clone();
    match kind {
        "at" => {
            let given: Vec<&str> = ["square", "squares", "adjacent_to"]
                .into_iter()
                .filter(|k| t.contains_key(*k))
                .collect();
            let place = match given.as_slice() {
                ["square"] => t.get("square").and_then(square).map(Place::Square),
                ["squares"] => t
                    .get("squares")
                    .and_then(Value::as_array)
                    .filter(|a| !a.is_empty())
                    .and_then(|a| a.iter().map(square).collect::<Option<Vec<Pos>>>())
                    .map(Place::OneOf),
                ["adjacent_to"] => t
                    .get("adjacent_to")
                    .and_then(Value::as_str)
                    .map(|s| Place::AdjacentTo(s.to_string())),
                _ => None,
            };
            if place.is_none() {
                let why = match given.as_slice() {
                    [] | [_, _, ..] => "give exactly one of",
                    _ => "expected",
                };
                r.bad(
                    value,
                    format!(
                        "at: {why} `square = [x, y]`, `squares = [[x, y], ...]` (one of them) \
                         or `adjacent_to = \"ID\"`"
                    ),
                );
            }
            Some(Check::At { id, place: place? })
        }
        "health" => {
            let v = t
                .get("value")
                .and_then(Value::as_integer)
                .and_then(|v| u32::try_from(v).ok());
            if v.is_none() {
                r.bad(value, "health: expected `value = N`, a whole number".into());
            }
            Some(Check::Health { id, value: v? })
        }
        _ => {
            let mut flags = Vec::new();
            for f in ["knocked_down", "stunned", "shaken"] {
                match t.get(f) {
                    None => {}
                    Some(Value::Boolean(b)) => flags.push((f.to_string(), *b)),
                    Some(other) => r.bad(
                        value,
                        format!("status: {f} = {other}: expected true or false"),
                    ),
                }
            }
            let shaken_by = match t.get("shaken_by") {
                None => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(other) => {
                    r.bad(value, format!("status: shaken_by = {other}: expected the id of the unit that shook it"));
                    None
                }
            };
            if flags.is_empty() && shaken_by.is_none() {
                r.bad(value, "status: expected at least one of knocked_down, stunned, shaken (true or false) or shaken_by".into());
            }
            Some(Check::Status {
                id,
                flags,
                shaken_by,
            })
        }
    }
}

/// `gone`, `winner`, `refused`, `round` and `phase`: a single value.
fn read_value(
    r: &mut Reader<'_, '_>,
    kind: &str,
    value: &Spanned<Value>,
    actions: usize,
) -> Option<Check> {
    let action = if kind == "refused" {
        r.action("action", actions)
    } else {
        None
    };
    r.rest(None);
    let check = match kind {
        "gone" => Check::Gone(text(r, kind, value, "the id of a Blip, unit or model")?),
        "refused" => Check::Refused {
            text: text(r, kind, value, "a part of the refusal's message")?,
            action,
        },
        "winner" => match value.get_ref().as_str() {
            Some("heroes") => Check::Winner(Some(Side::Heroes)),
            Some("overmind") => Check::Winner(Some(Side::Overmind)),
            Some("none") => Check::Winner(None),
            _ => {
                r.bad(value, format!("winner = {}: expected \"heroes\", \"overmind\" or \"none\" (the game is not over)", value.get_ref()));
                return None;
            }
        },
        "round" => match value
            .get_ref()
            .as_integer()
            .and_then(|i| u32::try_from(i).ok())
        {
            Some(n) if n >= 1 => Check::Round(n),
            _ => {
                r.bad(
                    value,
                    format!(
                        "round = {}: expected a round number, 1 or more",
                        value.get_ref()
                    ),
                );
                return None;
            }
        },
        _ => match value.get_ref().as_str() {
            Some("heroes") => Check::Phase(Phase::Heroes),
            Some("overmind") => Check::Phase(Phase::Overmind),
            Some("over") => Check::Phase(Phase::Over),
            _ => {
                r.bad(
                    value,
                    format!(
                        "phase = {}: expected \"heroes\", \"overmind\" or \"over\"",
                        value.get_ref()
                    ),
                );
                return None;
            }
        },
    };
    Some(check)
}
