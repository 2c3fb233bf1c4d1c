//! From a parsed mission file to a game [`Setup`]: hero profiles, Blip contents, the pool,
//! Decoys, the objective, the round limit and rule overrides (docs/MISSIONS.md).

use crate::data::deploying::Deployment;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::mission::{ErrorKind, Mission, MissionError, MissionErrors, Placement};
use crate::data::profile::find_key;
use crate::data::settings::{Rules, MAX_ROUNDS};
use crate::data::source::LineIndex;
use crate::data::state::{Contents, Objective};
use crate::rules::setup::{decoys_problem, BlipSetup, HeroSetup, PoolEntry, Setup, TokenSetup};
use serde::Deserialize;
use std::ops::Range;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;

/// The mission file's top-level keys with their spans, to point errors at what is written.
struct Doc<'t> {
    root: DeTable<'t>,
    lines: LineIndex<'t>,
    /// False when `text` was not the mission's own (the root then comes from its parsed keys,
    /// and positions fall back to the first line naming the key).
    exact: bool,
}

impl<'t> Doc<'t> {
    fn value(&self, name: &str) -> Option<&Spanned<DeValue<'t>>> {
        self.root
            .iter()
            .find(|(k, _)| k.get_ref().as_ref() == name)
            .map(|(_, v)| v)
    }

    fn key_span(&self, name: &str) -> Option<Range<usize>> {
        self.root
            .iter()
            .find(|(k, _)| k.get_ref().as_ref() == name)
            .map(|(k, _)| k.span())
    }

    /// The position of `span`, in a value of the top-level key `name`.
    fn pos(&self, name: &str, span: &Range<usize>, original: &str) -> (usize, usize) {
        if self.exact {
            self.lines.line_col(span.start)
        } else {
            find_key(original, name)
        }
    }
}

fn err(m: &Mission, line: usize, column: usize, message: String) -> MissionError {
    MissionError {
        path: m.path.clone(),
        line,
        column,
        kind: ErrorKind::Schema,
        message,
    }
}

fn str_field(p: &Placement, key: &str) -> Result<Option<String>, String> {
    match p.extra.get(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => Err(format!("{key}: expected a string, found {}", v.type_str())),
    }
}

fn int_field(p: &Placement, key: &str) -> Result<Option<u32>, String> {
    match p.extra.get(key) {
        None => Ok(None),
        Some(toml::Value::Integer(i)) if (1..=99).contains(i) => Ok(Some(*i as u32)),
        Some(v) => Err(format!(
            "{key}: expected a whole number from 1 to 99, found {v}"
        )),
    }
}

/// Deserialize one top-level key of the mission, with errors where the value is wrong.
fn key<T: for<'de> Deserialize<'de>>(
    m: &Mission,
    doc: &Doc<'_>,
    text: &str,
    name: &str,
    errors: &mut Vec<MissionError>,
) -> Option<T> {
    let v = doc.value(name)?;
    match T::deserialize(ValueDeserializer::from(v.clone())) {
        Ok(t) => Some(t),
        Err(e) => {
            let span = e.span().unwrap_or_else(|| v.span());
            let (l, c) = doc.pos(name, &span, text);
            let message = e.message().trim().lines().collect::<Vec<_>>().join("; ");
            errors.push(err(m, l, c, format!("{name}: {message}")));
            None
        }
    }
}

/// The span of field `field` of entry `i` of the array `name` (the entry's when it has none).
fn entry_span(doc: &Doc<'_>, name: &str, i: usize, field: &str) -> Option<Range<usize>> {
    let DeValue::Array(items) = doc.value(name)?.get_ref() else {
        return None;
    };
    let item = items.get(i)?;
    let DeValue::Table(t) = item.get_ref() else {
        return Some(item.span());
    };
    Some(
        t.iter()
            .find(|(k, _)| k.get_ref().as_ref() == field)
            .map_or_else(|| item.span(), |(_, v)| v.span()),
    )
}

impl Mission {
    /// The game setup this mission describes, over the pack's `rules`. `text` is the mission
    /// file's text, for error positions.
    ///
    /// # Errors
    /// Every problem, each naming `path:line:column`.
    pub fn setup(&self, text: &str, rules: &Rules) -> Result<Setup, MissionErrors> {
        let mut errors = Vec::new();
        let mut heroes = Vec::new();
        for h in &self.heroes {
            match str_field(h, "profile") {
                Ok(Some(profile)) => heroes.push(HeroSetup {
                    id: h.id.clone(),
                    profile,
                    at: h.at,
                    health: None,
                }),
                Ok(None) => errors.push(err(
                    self,
                    h.line,
                    1,
                    format!(
                        "hero {}: missing `profile` (the id of a heroes/*.toml profile)",
                        h.id
                    ),
                )),
                Err(e) => errors.push(err(self, h.line, 1, format!("hero {}: {e}", h.id))),
            }
        }
        let mut blips = Vec::new();
        for b in &self.blips {
            let holds = str_field(b, "holds");
            let size = int_field(b, "size");
            let leader = str_field(b, "leader");
            let contents = match (holds, size, leader) {
                (Ok(None), _, _) => None,
                (Ok(Some(h)), _, _) if h == "decoy" => Some(Contents::Decoy),
                (Ok(Some(type_id)), Ok(size), Ok(leader)) => Some(Contents::Unit {
                    type_id: Id::from(type_id),
                    size: size.unwrap_or(1),
                    leader: leader.map(Id::from),
                }),
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                    errors.push(err(self, b.line, 1, format!("blip {}: {e}", b.id)));
                    None
                }
            };
            blips.push(BlipSetup {
                id: b.id.clone(),
                at: b.at,
                contents,
            });
        }
        // The file's own keys with their spans; were `text` not the file this mission was
        // parsed from, its kept keys written out again (positions then fall back to the key).
        let written;
        let (root, exact, doc_text) = match DeTable::parse(text) {
            Ok(root) => (root.into_inner(), true, text),
            Err(_) => {
                written = toml::to_string(&self.extra).unwrap_or_default();
                let root = DeTable::parse(&written)
                    .map(Spanned::into_inner)
                    .unwrap_or_default();
                (root, false, written.as_str())
            }
        };
        let doc = Doc {
            root,
            lines: LineIndex::new(doc_text),
            exact,
        };
        let pool: Vec<PoolEntry> = key(self, &doc, text, "pool", &mut errors).unwrap_or_default();
        for (i, p) in pool.iter().enumerate() {
            for (field, message) in p.problems() {
                let span = entry_span(&doc, "pool", i, field).unwrap_or(0..0);
                let (l, c) = doc.pos("pool", &span, text);
                errors.push(err(self, l, c, format!("pool: {message}")));
            }
        }
        let decoys: Option<u32> = key(self, &doc, text, "decoys", &mut errors);
        if let Some(message) = decoys.and_then(decoys_problem) {
            let span = doc.value("decoys").map_or(0..0, Spanned::span);
            let (l, c) = doc.pos("decoys", &span, text);
            errors.push(err(self, l, c, message));
        }
        let objective: Objective =
            key(self, &doc, text, "objective", &mut errors).unwrap_or(Objective::Eliminate);
        let max_rounds: Option<u32> = key(self, &doc, text, "max_rounds", &mut errors);
        if let Some(n) = max_rounds.filter(|n| !(1..=MAX_ROUNDS).contains(n)) {
            let span = doc.value("max_rounds").map_or(0..0, Spanned::span);
            let (l, c) = doc.pos("max_rounds", &span, text);
            errors.push(err(
                self,
                l,
                c,
                format!("max_rounds: expected 1 to {MAX_ROUNDS}, found {n}"),
            ));
        }
        // Mission rule overrides sit on top of the pack's rules, checked like `rules.toml`.
        let mut merged = rules.clone();
        if let Some(over) = doc.value("rules") {
            match rules.overlay(over) {
                Ok(r) => merged = r,
                Err(es) => {
                    for e in es {
                        let (l, c) = doc.pos("rules", &e.span, text);
                        errors.push(err(self, l, c, format!("rules: {}", e.message)));
                    }
                }
            }
        }
        // `[[tokens]]`: kind and square, and an id when a script names it (docs/RULES.md §14).
        let laid: Vec<RawToken> = key(self, &doc, text, "tokens", &mut errors).unwrap_or_default();
        let tokens: Vec<TokenSetup> = laid
            .into_iter()
            .enumerate()
            .map(|(i, t)| TokenSetup {
                id: t.id.unwrap_or_else(|| format!("t{}", i + 1)),
                kind: t.kind,
                at: t.at,
            })
            .collect();
        // `decks`: which decks the mission deals (docs/RULES.md §15).
        let named: Vec<String> = key(self, &doc, text, "decks", &mut errors).unwrap_or_default();
        let mut decks = Vec::new();
        for (i, d) in named.iter().enumerate() {
            match crate::data::card::Deck::named(d) {
                Some(deck) if !decks.contains(&deck) => decks.push(deck),
                Some(_) => {}
                None => {
                    let span = match doc.value("decks").map(|v| v.get_ref()) {
                        Some(DeValue::Array(items)) => items.get(i).map(Spanned::span),
                        _ => None,
                    }
                    .unwrap_or(0..0);
                    let (l, c) = doc.pos("decks", &span, text);
                    let all: Vec<&str> = crate::data::card::Deck::ALL
                        .iter()
                        .map(|d| d.name())
                        .collect();
                    errors.push(err(
                        self,
                        l,
                        c,
                        format!("decks: no deck named {d:?}; expected {}", all.join(" or ")),
                    ));
                }
            }
        }
        // `deployment` and `[[squad]]`: deployment by the rules (docs/RULES.md §7.2).
        let deployment: Deployment =
            key(self, &doc, text, "deployment", &mut errors).unwrap_or_default();
        let raw_squad: Vec<RawSquad> =
            key(self, &doc, text, "squad", &mut errors).unwrap_or_default();
        let squad: Vec<HeroSetup> = raw_squad
            .into_iter()
            .map(|s| HeroSetup {
                id: s.id,
                profile: s.profile,
                // Unused until the Heroes choose: any square of the map.
                at: Pos::new(0, 0),
                health: None,
            })
            .collect();
        let known = [
            "deployment",
            "squad",
            "decks",
            "pool",
            "decoys",
            "objective",
            "max_rounds",
            "rules",
            "description",
            "tokens",
        ];
        for k in self.extra.keys() {
            if !known.contains(&k.as_str()) {
                let (l, c) = match doc.key_span(k) {
                    Some(span) => doc.pos(k, &span, text),
                    None => find_key(text, k),
                };
                errors.push(err(
                    self,
                    l,
                    c,
                    format!(
                        "unknown key `{k}`; expected one of name, map, heroes, blips, {}",
                        known.join(", ")
                    ),
                ));
            }
        }
        if !errors.is_empty() {
            errors.sort_by_key(|e| (e.line, e.column));
            crate::data::source::cap_problems(&mut errors, |first, n| MissionError {
                message: crate::data::source::more_problems(n),
                ..first.clone()
            });
            return Err(MissionErrors(errors));
        }
        Ok(Setup {
            name: self.name.clone(),
            map: self.map.clone(),
            rules: merged,
            heroes,
            blips,
            pool,
            decoys,
            objective,
            max_rounds,
            tokens,
            decks,
            aliens: Vec::new(),
            hand: None,
            agenda: None,
            deployment,
            squad,
        })
    }
}

/// One `[[squad]]` table of a mission deployed by the rules: a Hero without a square.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSquad {
    id: String,
    profile: String,
}

/// One `[[tokens]]` table of a mission.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToken {
    kind: String,
    at: Pos,
    #[serde(default)]
    id: Option<String>,
}
