//! Reading script arguments into engine values (with errors that name the function, the
//! parameter and what was expected) and making handles and plain values for scripts.

use super::blip::BlipRef;
use super::model::ModelRef;
use super::unit::UnitRef;
use mlua::{AnyUserData, Either, Lua, MultiValue, Table, UserDataRef, Value, Variadic};
use overmind_core::Id;
use overmind_core::{BehaviourCtx, Choice, Goal, ModelInfo, Pos};

/// Most steps any move may ask for (a larger number is surely a mistake).
pub(crate) const MAX_STEPS: i64 = 1000;

/// A Lua error with a message.
pub(crate) fn err<T>(message: impl Into<String>) -> mlua::Result<T> {
    Err(mlua::Error::runtime(message.into()))
}

/// Describes a value for an error message: its type, and the value itself when short.
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => format!("boolean {b}"),
        Value::Integer(i) => format!("number {i}"),
        Value::Number(n) => format!("number {n}"),
        Value::String(s) => {
            let text = s.to_string_lossy();
            if text.chars().count() <= 40 {
                format!("string {text:?}")
            } else {
                "a long string".into()
            }
        }
        Value::Table(_) => "a table".into(),
        Value::Function(_) => "a function".into(),
        Value::UserData(ud) => handle_name(ud).unwrap_or_else(|| "userdata".into()),
        Value::Thread(_) => "a coroutine".into(),
        _ => v.type_name().into(),
    }
}

/// The known name nearest to `name` by edit distance (insertions, deletions, substitutions
/// and swaps of two neighbouring characters, ignoring case), when it is close: at most one
/// edit per three characters of `name`, and at least one. Ties go to the first in `known`.
/// Failing that, the one known name that begins with `name` (of three characters or more):
/// `knocked` for `knocked_down`.
pub(crate) fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name = name.to_lowercase();
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    let mut prefixed = Vec::new();
    for k in known {
        let lower = k.to_lowercase();
        let d = edit_distance(&name, &lower);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, k));
        }
        if name.chars().count() >= 3 && lower.starts_with(&name) {
            prefixed.push(k);
        }
    }
    match (best, prefixed.as_slice()) {
        (Some((_, k)), _) => Some(k),
        (None, [only]) => Some(only),
        _ => None,
    }
}

/// Optimal string alignment distance between `a` and `b`, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        d[i * width] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = v;
        }
    }
    d[a.len() * width + b.len()]
}

/// How an unknown key reads in "has no field" errors.
pub(crate) fn describe_key(k: &Value) -> String {
    match k {
        Value::String(s) => format!("'{}'", s.to_string_lossy()),
        other => describe(other),
    }
}

fn handle_name(ud: &AnyUserData) -> Option<String> {
    if let Ok(m) = ud.borrow::<ModelRef>() {
        return Some(format!("Model({})", m.0.id));
    }
    if let Ok(u) = ud.borrow::<UnitRef>() {
        return Some(format!("Unit({})", u.id));
    }
    if let Ok(b) = ud.borrow::<BlipRef>() {
        return Some(format!("Blip({})", b.id));
    }
    None
}

/// Whole numbers: Lua integers, and floats with no fractional part.
pub(crate) fn as_int(v: &Value) -> Option<i64> {
    match v {
        Value::Integer(i) => Some(*i),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Some(*n as i64),
        _ => None,
    }
}

/// A square read from a `{ x =, y = }` table, if it is one.
fn pos_of_table(t: &Table) -> mlua::Result<Option<Pos>> {
    let (x, y) = super::build::xy(t)?;
    if x.is_nil() {
        return Ok(None);
    }
    let coord = |v: &Value| as_int(v).and_then(|i| i32::try_from(i).ok());
    match (coord(&x), coord(&y)) {
        (Some(x), Some(y)) => Ok(Some(Pos::new(x, y))),
        _ => Ok(None),
    }
}

/// Where something stands: a model or Blip handle's square, or a square itself.
fn pos_of(v: &Value) -> mlua::Result<Option<Pos>> {
    match v {
        Value::UserData(ud) => {
            if let Ok(m) = ud.borrow::<ModelRef>() {
                return Ok(Some(m.0.pos));
            }
            if let Ok(b) = ud.borrow::<BlipRef>() {
                return Ok(Some(b.pos));
            }
            Ok(None)
        }
        Value::Table(t) => pos_of_table(t),
        _ => Ok(None),
    }
}

/// A square argument of a hot API function: a Model handle is borrowed in place (the common
/// case, and much cheaper than converting a value); anything else is read as [`Args::pos`].
pub(crate) type PlaceArg = Either<UserDataRef<ModelRef>, Value>;

const PLACE: &str = "a Model, a Blip or a square { x =, y = }";

/// The square a [`PlaceArg`] names.
pub(crate) fn place(func: &str, name: &str, a: &PlaceArg) -> mlua::Result<Pos> {
    match a {
        Either::Left(m) => Ok(m.0.pos),
        Either::Right(v) => match pos_of(v)? {
            Some(p) => Ok(p),
            None => err(format!(
                "{func}: {name} must be {PLACE}, got {}",
                describe(v)
            )),
        },
    }
}

/// Arguments beyond the `n` a function takes must not be given.
pub(crate) fn no_more(func: &str, n: usize, rest: &Variadic<Value>) -> mlua::Result<()> {
    if rest.iter().all(Value::is_nil) {
        return Ok(());
    }
    let given = n + rest.len();
    err(format!(
        "{func}: takes {n} argument{}, {given} given",
        if n == 1 { "" } else { "s" }
    ))
}

/// What a move heads for, before the context resolves units to their squares.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// End adjacent to these squares, or to the models of these units.
    Adjacent { squares: Vec<Pos>, units: Vec<Id> },
    /// End on one of these squares.
    Onto(Vec<Pos>),
}

impl Target {
    /// Every square the target names, with units resolved to where their models stand now
    /// (what a move away from it keeps its distance from).
    pub(crate) fn squares(&self, ctx: &BehaviourCtx<'_, '_>) -> Vec<Pos> {
        match self.goal(ctx) {
            Goal::AdjacentTo(v) | Goal::Squares(v) => v,
        }
    }

    /// The core's goal, with units resolved to where their models stand now.
    pub(crate) fn goal(&self, ctx: &BehaviourCtx<'_, '_>) -> Goal {
        match self {
            Target::Adjacent { squares, units } => {
                let mut all = squares.clone();
                for u in units {
                    all.extend(ctx.models_of(u).iter().map(|m| m.pos));
                }
                Goal::AdjacentTo(all)
            }
            Target::Onto(squares) => Goal::Squares(squares.clone()),
        }
    }
}

/// The arguments of one API call, read by position.
pub(crate) struct Args {
    func: &'static str,
    values: Vec<Value>,
}

impl Args {
    pub(crate) fn new(func: &'static str, values: MultiValue) -> Args {
        Args {
            func,
            values: values.into_iter().collect(),
        }
    }

    fn get(&self, i: usize) -> &Value {
        self.values.get(i).unwrap_or(&Value::Nil)
    }

    fn bad<T>(&self, name: &str, expected: &str, got: &Value) -> mlua::Result<T> {
        err(format!(
            "{}: {name} must be {expected}, got {}",
            self.func,
            describe(got)
        ))
    }

    /// Argument `i` is nil or not given.
    pub(crate) fn is_nil(&self, i: usize) -> bool {
        self.get(i).is_nil()
    }

    /// At most `n` arguments were given.
    pub(crate) fn at_most(&self, n: usize) -> mlua::Result<()> {
        let given = self.values.len();
        if given > n {
            let extra = self.values.iter().skip(n).all(Value::is_nil);
            if !extra {
                return err(format!(
                    "{}: takes {n} argument{}, {given} given",
                    self.func,
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
        Ok(())
    }

    /// A square: a model or Blip handle (its square) or a `{ x =, y = }` table.
    pub(crate) fn pos(&self, i: usize, name: &str) -> mlua::Result<Pos> {
        let v = self.get(i);
        match pos_of(v)? {
            Some(p) => Ok(p),
            None => self.bad(name, PLACE, v),
        }
    }

    /// A whole number in `min..=max`.
    pub(crate) fn int(&self, i: usize, name: &str, min: i64, max: i64) -> mlua::Result<i64> {
        let v = self.get(i);
        match as_int(v) {
            Some(n) if (min..=max).contains(&n) => Ok(n),
            _ => self.bad(name, &format!("a whole number from {min} to {max}"), v),
        }
    }

    /// An optional step count.
    pub(crate) fn steps(&self, i: usize, name: &str) -> mlua::Result<Option<u32>> {
        if self.get(i).is_nil() {
            return Ok(None);
        }
        let n = self.int(i, name, 0, MAX_STEPS)?;
        Ok(u32::try_from(n).ok())
    }

    /// A string (numbers are taken as their text).
    pub(crate) fn string(&self, i: usize, name: &str) -> mlua::Result<String> {
        let v = self.get(i);
        match v {
            Value::String(s) => Ok(s.to_string_lossy()),
            Value::Integer(n) => Ok(n.to_string()),
            Value::Number(n) => Ok(n.to_string()),
            _ => self.bad(name, "a string", v),
        }
    }

    /// A unit: a Unit handle or a unit id.
    pub(crate) fn unit(&self, i: usize, name: &str) -> mlua::Result<String> {
        let v = self.get(i);
        match v {
            Value::UserData(ud) => match ud.borrow::<UnitRef>() {
                Ok(u) => Ok(u.id.to_string()),
                Err(_) => self.bad(name, "a Unit", v),
            },
            Value::String(s) => Ok(s.to_string_lossy()),
            _ => self.bad(name, "a Unit", v),
        }
    }

    /// Something to attack or name: a Model, Unit or Blip handle, or an id.
    pub(crate) fn target(&self, i: usize, name: &str) -> mlua::Result<String> {
        let v = self.get(i);
        if let Value::UserData(ud) = v {
            if let Ok(m) = ud.borrow::<ModelRef>() {
                return Ok(m.0.id.to_string());
            }
            if let Ok(u) = ud.borrow::<UnitRef>() {
                return Ok(u.id.to_string());
            }
            if let Ok(b) = ud.borrow::<BlipRef>() {
                return Ok(b.id.to_string());
            }
        }
        if let Value::String(s) = v {
            return Ok(s.to_string_lossy());
        }
        self.bad(name, "a Model (or its id)", v)
    }

    /// A model: a Model handle or a model id.
    pub(crate) fn model(&self, i: usize, name: &str) -> mlua::Result<String> {
        let v = self.get(i);
        match v {
            Value::UserData(ud) => match ud.borrow::<ModelRef>() {
                Ok(m) => Ok(m.0.id.to_string()),
                Err(_) => self.bad(name, "a Model (or its id)", v),
            },
            Value::String(s) => Ok(s.to_string_lossy()),
            _ => self.bad(name, "a Model (or its id)", v),
        }
    }

    /// A token: its id, or a token table (`{ id = ... }`, as `game:tokens` gives).
    pub(crate) fn token(&self, i: usize, name: &str) -> mlua::Result<String> {
        let v = self.get(i);
        let id = match v {
            Value::String(s) => Some(s.to_string_lossy()),
            Value::Table(t) => match t.raw_get::<Value>("id")? {
                Value::String(s) => Some(s.to_string_lossy()),
                _ => None,
            },
            _ => None,
        };
        match id {
            Some(id) => Ok(id),
            None => self.bad(name, "a token (its id or the table `game:tokens` gives)", v),
        }
    }

    /// A boolean.
    pub(crate) fn boolean(&self, i: usize, name: &str) -> mlua::Result<bool> {
        match self.get(i) {
            Value::Boolean(b) => Ok(*b),
            v => self.bad(name, "a boolean", v),
        }
    }

    /// A change by a whole number from `-max` to `max`, not 0.
    pub(crate) fn change(&self, i: usize, name: &str, max: i64) -> mlua::Result<i32> {
        let v = self.get(i);
        // Not `n.abs()`: `math.mininteger` has no absolute value in an i64.
        match as_int(v).filter(|n| *n != 0 && (-max..=max).contains(n)) {
            Some(n) => Ok(i32::try_from(n).unwrap_or(0)),
            None => self.bad(
                name,
                &format!("a whole number from -{max} to {max} other than 0"),
                v,
            ),
        }
    }

    /// One of the names in `names`, as the value it stands for.
    pub(crate) fn one_of<T: Copy>(
        &self,
        i: usize,
        name: &str,
        names: &[(&'static str, T)],
    ) -> mlua::Result<T> {
        let v = self.get(i);
        if let Value::String(s) = v {
            if let Some((_, t)) = names
                .iter()
                .find(|(n, _)| s.as_bytes().as_ref() == n.as_bytes())
            {
                return Ok(*t);
            }
        }
        let list: Vec<String> = names.iter().map(|(n, _)| format!("{n:?}")).collect();
        let near = match v {
            Value::String(s) => nearest(&s.to_string_lossy(), names.iter().map(|(n, _)| *n))
                .map(|n| format!(" (did you mean {n:?}?)"))
                .unwrap_or_default(),
            _ => String::new(),
        };
        err(format!(
            "{}: {name} must be one of {}, got {}{near}",
            self.func,
            list.join(", "),
            describe(v)
        ))
    }

    /// An array of Model handles.
    pub(crate) fn models(&self, i: usize, name: &str) -> mlua::Result<Vec<ModelInfo>> {
        let v = self.get(i);
        let Value::Table(t) = v else {
            return self.bad(name, "an array of Models", v);
        };
        let n = t.raw_len();
        let mut out = Vec::with_capacity(n);
        for k in 1..=n {
            let item: Value = t.raw_get(k)?;
            match &item {
                Value::UserData(ud) => match ud.borrow::<ModelRef>() {
                    Ok(m) => out.push(m.0.clone()),
                    Err(_) => return self.bad(&format!("{name}[{k}]"), "a Model", &item),
                },
                _ => return self.bad(&format!("{name}[{k}]"), "a Model", &item),
            }
        }
        Ok(out)
    }

    /// Where a move heads: a Model, Blip or Unit handle (end adjacent to it), a square (end on
    /// it), or an array of either kind.
    pub(crate) fn target_of_move(&self, i: usize, name: &str) -> mlua::Result<Target> {
        let (squares, units, onto) = self.places(i, name)?;
        let adjacent = !squares.is_empty() || !units.is_empty();
        match (adjacent, onto.is_empty()) {
            (true, false) => err(format!(
                "{}: {name} mixes models (end next to them) and squares (end on them); pass one kind",
                self.func
            )),
            (false, false) => Ok(Target::Onto(onto)),
            _ => Ok(Target::Adjacent { squares, units }),
        }
    }

    /// What a move keeps away from: Model, Blip and Unit handles and squares, alone or in an
    /// array, in any mix.
    pub(crate) fn target_away(&self, i: usize, name: &str) -> mlua::Result<Target> {
        let (mut squares, units, onto) = self.places(i, name)?;
        squares.extend(onto);
        Ok(Target::Adjacent { squares, units })
    }

    /// An optional string (a prompt): nil for none.
    pub(crate) fn opt_string(&self, i: usize, name: &str) -> mlua::Result<Option<String>> {
        if self.get(i).is_nil() {
            return Ok(None);
        }
        self.string(i, name).map(Some)
    }

    /// The places argument `i` names: squares of Model and Blip handles, units, and squares.
    #[allow(clippy::type_complexity)]
    fn places(&self, i: usize, name: &str) -> mlua::Result<(Vec<Pos>, Vec<Id>, Vec<Pos>)> {
        let v = self.get(i);
        let expected = "a Model, Unit, Blip or square, or an array of them";
        let mut squares = Vec::new();
        let mut units = Vec::new();
        let mut onto = Vec::new();
        let mut one = |item: &Value, label: &str| -> mlua::Result<()> {
            match item {
                Value::UserData(ud) => {
                    if let Ok(m) = ud.borrow::<ModelRef>() {
                        squares.push(m.0.pos);
                    } else if let Ok(b) = ud.borrow::<BlipRef>() {
                        squares.push(b.pos);
                    } else if let Ok(u) = ud.borrow::<UnitRef>() {
                        units.push(u.id);
                    } else {
                        return self.bad(label, expected, item);
                    }
                }
                Value::Table(t) => match pos_of_table(t)? {
                    Some(p) => onto.push(p),
                    None => return self.bad(label, expected, item),
                },
                _ => return self.bad(label, expected, item),
            }
            Ok(())
        };
        match v {
            Value::Table(t) if pos_of_table(t)?.is_none() => {
                for k in 1..=t.raw_len() {
                    let item: Value = t.raw_get(k)?;
                    one(&item, &format!("{name}[{k}]"))?;
                }
            }
            _ => one(v, name)?,
        }
        Ok((squares, units, onto))
    }

    /// `{ penalty = n }` or nil: the dice fewer an attack asks for.
    pub(crate) fn attack_options(&self, i: usize) -> mlua::Result<u32> {
        let v = self.get(i);
        match v {
            Value::Nil => Ok(0),
            Value::Table(t) => {
                let mut unknown = Vec::new();
                for pair in t.pairs::<Value, Value>() {
                    let (k, _) = pair?;
                    if !matches!(&k, Value::String(s) if s.as_bytes().as_ref() == b"penalty") {
                        unknown.push(describe_key(&k));
                    }
                }
                unknown.sort();
                if let Some(k) = unknown.first() {
                    return err(format!(
                        "{}: unknown option {k} (options: penalty)",
                        self.func
                    ));
                }
                let val: Value = t.raw_get("penalty")?;
                if val.is_nil() {
                    return Ok(0);
                }
                match as_int(&val).and_then(|n| u32::try_from(n).ok()) {
                    Some(n) if n <= 20 => Ok(n),
                    _ => self.bad("options.penalty", "a whole number from 0 to 20", &val),
                }
            }
            _ => self.bad("options", "a table { penalty = n } or nil", v),
        }
    }

    /// `{ cv = n, defence = bool }` of a Psychic attack: its Combat Value (required) and
    /// whether the target may roll its Defence (default `false`, docs/RULES.md §6.8).
    pub(crate) fn psychic_options(&self, i: usize) -> mlua::Result<(u32, bool)> {
        let v = self.get(i);
        let Value::Table(t) = v else {
            return self.bad("options", "a table { cv = n, defence = bool }", v);
        };
        let mut unknown = Vec::new();
        for pair in t.pairs::<Value, Value>() {
            let (k, _) = pair?;
            if !matches!(&k, Value::String(s) if matches!(s.as_bytes().as_ref(), b"cv" | b"defence"))
            {
                unknown.push(describe_key(&k));
            }
        }
        unknown.sort();
        if let Some(k) = unknown.first() {
            return err(format!(
                "{}: unknown option {k} (options: cv, defence)",
                self.func
            ));
        }
        let most = overmind_core::psychic::MAX_PSYCHIC_CV;
        let cv: Value = t.raw_get("cv")?;
        let cv = match as_int(&cv).and_then(|n| u32::try_from(n).ok()) {
            Some(n) if (1..=most).contains(&n) => n,
            _ => {
                return self.bad(
                    "options.cv",
                    &format!("a whole number from 1 to {most}"),
                    &cv,
                )
            }
        };
        let defence: Value = t.raw_get("defence")?;
        let defence = match defence {
            Value::Nil => false,
            Value::Boolean(b) => b,
            other => return self.bad("options.defence", "a boolean or nil", &other),
        };
        Ok((cv, defence))
    }

    /// The options of `game:choose`: the values themselves and the choices the Overmind sees.
    pub(crate) fn choices(&self, i: usize, name: &str) -> mlua::Result<(Vec<Value>, Vec<Choice>)> {
        let v = self.get(i);
        let Value::Table(t) = v else {
            return self.bad(name, "an array of options", v);
        };
        let n = t.raw_len();
        let mut values = Vec::with_capacity(n);
        let mut choices = Vec::with_capacity(n);
        for k in 1..=n {
            let item: Value = t.raw_get(k)?;
            let choice = match &item {
                Value::UserData(ud) => {
                    if let Ok(m) = ud.borrow::<ModelRef>() {
                        Choice::Id(m.0.id)
                    } else if let Ok(u) = ud.borrow::<UnitRef>() {
                        Choice::Id(u.id)
                    } else if let Ok(b) = ud.borrow::<BlipRef>() {
                        Choice::Id(b.id)
                    } else {
                        return self.bad(
                            &format!("{name}[{k}]"),
                            "a handle, square, string or number",
                            &item,
                        );
                    }
                }
                Value::Table(t) => match pos_of_table(t)? {
                    Some(p) => Choice::Square(p),
                    None => {
                        return self.bad(
                            &format!("{name}[{k}]"),
                            "a handle, square, string or number",
                            &item,
                        )
                    }
                },
                Value::String(s) => Choice::Id(Id::from(&s.to_string_lossy())),
                Value::Integer(n) => Choice::Id(Id::from(&n.to_string())),
                Value::Number(n) => Choice::Id(Id::from(&n.to_string())),
                Value::Boolean(b) => Choice::Id(Id::from(&b.to_string())),
                _ => {
                    return self.bad(
                        &format!("{name}[{k}]"),
                        "a handle, square, string or number",
                        &item,
                    )
                }
            };
            values.push(item);
            choices.push(choice);
        }
        Ok((values, choices))
    }
}

/// One value as a single result.
pub(crate) fn one(v: impl mlua::IntoLua, lua: &Lua) -> mlua::Result<MultiValue> {
    Ok(MultiValue::from_iter([v.into_lua(lua)?]))
}

/// No results.
pub(crate) fn none() -> mlua::Result<MultiValue> {
    Ok(MultiValue::new())
}

/// A square as a fresh `{ x =, y = }` table.
pub(crate) fn square(lua: &Lua, p: Pos) -> mlua::Result<Table> {
    super::build::square(lua, p)
}

/// A model handle.
pub(crate) fn model(lua: &Lua, m: ModelInfo) -> mlua::Result<Value> {
    Ok(Value::UserData(lua.create_any_userdata(ModelRef(m))?))
}

/// An array of model handles, in the given order.
pub(crate) fn models(lua: &Lua, ms: Vec<ModelInfo>) -> mlua::Result<Value> {
    let handles = ms
        .into_iter()
        .map(|m| model(lua, m))
        .collect::<mlua::Result<Vec<Value>>>()?;
    Ok(Value::Table(super::build::list(lua, handles)?))
}

/// A core error as a Lua error, prefixed with the API function unless it names itself.
pub(crate) fn core_err(func: &str, e: &overmind_core::BehaviourError) -> mlua::Error {
    let m = &e.message;
    if m.starts_with(func) || (func.starts_with("move") && m.starts_with("move:")) {
        mlua::Error::runtime(m.clone())
    } else if let Some(rest) = m.strip_prefix("move: ") {
        // A query that checks what a move would (`reachable_away_from`) names itself.
        mlua::Error::runtime(format!("{func}: {rest}"))
    } else {
        mlua::Error::runtime(format!("{func}: {m}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_names_are_close_ones_only() {
        let known = [
            "shoot_targets",
            "shoot",
            "melee_targets",
            "knocked_down",
            "health",
        ];
        let near = |n: &str| nearest(n, known.iter().copied());
        assert_eq!(near("shoot_target"), Some("shoot_targets"));
        assert_eq!(near("Shoot"), Some("shoot"));
        assert_eq!(near("helath"), Some("health"), "a swap is one edit");
        assert_eq!(
            near("knocked"),
            Some("knocked_down"),
            "the one name it begins"
        );
        assert_eq!(near("hp"), None);
        assert_eq!(near("fly"), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
