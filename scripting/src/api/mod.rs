//! The Lua API content scripts see, declared once: every table is a module here and [`TABLES`]
//! is the one list that both registers the API and feeds the doc generator (`apidoc`).
//!
//! Each function and field is a static entry that pairs its documentation with the Rust
//! function that implements it, so the stubs and the reference cannot drift from the binding.
//! Handles (`Game`, `Unit`, `Model`, `Blip`, `Rules`) are userdata whose metatables mlua locks;
//! they hold ids and snapshots, never references into the engine. Everything that touches the
//! game goes through `call::with_ctx`, which reaches the running behaviour's
//! `BehaviourCtx` only for the duration of one behaviour call.

pub(crate) mod args;
pub(crate) mod blip;
pub(crate) mod build;
pub(crate) mod call;
pub(crate) mod game;
pub(crate) mod globals;
pub(crate) mod model;
pub(crate) mod rules;
pub mod shape;
pub(crate) mod storage;
pub(crate) mod unit;
pub(crate) mod unit_type;

use crate::{Sandbox, ScriptError};
use mlua::{
    FromLuaMulti, Function, IntoLuaMulti, Lua, MetaMethod, MultiValue, UserDataFields,
    UserDataMethods, UserDataRef, Value,
};

/// A parameter of an API function, as the docs show it.
#[derive(Debug)]
pub struct Param {
    /// The parameter's name.
    pub name: &'static str,
    /// Its type in LuaLS notation (`Model|Pos`, `integer?`).
    pub ty: &'static str,
    /// What it means.
    pub doc: &'static str,
}

/// One result of an API function.
#[derive(Debug)]
pub struct Ret {
    /// Its type in LuaLS notation.
    pub ty: &'static str,
    /// What it means.
    pub doc: &'static str,
}

/// How one function reads in the docs.
#[derive(Debug)]
pub struct FnDoc {
    /// The function's name (a method name for handle classes).
    pub name: &'static str,
    /// Its parameters, after `self` for methods.
    pub params: &'static [Param],
    /// Its results.
    pub returns: &'static [Ret],
    /// What it does, and how it can fail.
    pub doc: &'static str,
}

/// How one field of a handle reads in the docs.
#[derive(Debug)]
pub struct FieldDoc {
    /// The field's name.
    pub name: &'static str,
    /// Its type in LuaLS notation.
    pub ty: &'static str,
    /// What it holds.
    pub doc: &'static str,
}

/// A method of a handle class: its docs and how to make its implementation (each method picks
/// its own argument types, so hot ones take handles without copying them; see [`method`]).
pub struct Method {
    /// The documentation.
    pub doc: FnDoc,
    /// Makes the Lua function; it takes the handle as its first argument.
    pub make: fn(&Lua) -> mlua::Result<Function>,
}

/// A method's Lua function: `f(lua, &handle, args)` for a first argument that is a `T` handle.
///
/// # Errors
/// Lua could not create the function.
pub fn method<T: 'static, A: FromLuaMulti + 'static, R: IntoLuaMulti + 'static>(
    lua: &Lua,
    f: fn(&Lua, &T, A) -> mlua::Result<R>,
) -> mlua::Result<Function> {
    lua.create_function(move |lua, (this, args): (UserDataRef<T>, A)| f(lua, &this, args))
}

/// A read-only field of a handle class: its docs and its getter.
pub struct Field<T> {
    /// The documentation.
    pub doc: FieldDoc,
    /// The getter.
    pub get: fn(&Lua, &T) -> mlua::Result<Value>,
}

/// A handle class: Lua userdata of Rust type `T` with read-only fields and methods.
pub struct Class<T: 'static> {
    /// The LuaLS class name (`Model`).
    pub name: &'static str,
    /// How the docs name an instance (`model`), the way a script would.
    pub var: &'static str,
    /// What the class is.
    pub doc: &'static str,
    /// Read-only fields.
    pub fields: &'static [Field<T>],
    /// Methods, called with `:`.
    pub methods: &'static [Method],
    /// The id shown by `tostring` and compared by `==`.
    pub key: fn(&T) -> String,
    /// For a class with one instance (`game`): makes it, so fields can be answered without a
    /// per-read call into the instance and method lookups stay a plain table read.
    pub singleton: Option<fn() -> T>,
}

/// A global function every script sees.
pub struct Global {
    /// The documentation.
    pub doc: FnDoc,
    /// The implementation.
    pub call: fn(&Lua, MultiValue) -> mlua::Result<MultiValue>,
}

/// The global functions, as one table of the API.
pub struct Globals {
    /// What they are for.
    pub doc: &'static str,
    /// The functions.
    pub functions: &'static [Global],
}

/// What the doc generator reads of one API table.
#[derive(Debug)]
pub struct TableDoc<'a> {
    /// LuaLS class name, or `""` for the globals.
    pub name: &'static str,
    /// How the docs name an instance (`game`), or `""` for the globals.
    pub var: &'static str,
    /// What the table is.
    pub doc: &'static str,
    /// Read-only fields.
    pub fields: Vec<&'a FieldDoc>,
    /// Functions or methods.
    pub functions: Vec<&'a FnDoc>,
}

/// One table of the Lua API: registers itself into a sandbox and describes itself for the docs.
pub trait ApiTable: Sync {
    /// The table's documentation, read by `apidoc`.
    fn describe(&self) -> TableDoc<'_>;
    /// Makes the table available to scripts loaded into `sandbox` from now on.
    ///
    /// # Errors
    /// The sandbox refused the registration (a host problem, not a script's).
    fn register(&self, sandbox: &Sandbox) -> Result<(), ScriptError>;
}

/// Every table of the API, in the order the docs present them. Registration walks this list;
/// so does the doc generator.
pub static TABLES: &[&dyn ApiTable] = &[
    &globals::GLOBALS,
    &game::GAME,
    &unit::UNIT,
    &unit_type::UNIT_TYPE,
    &model::MODEL,
    &blip::BLIP,
    &rules::RULES,
];

/// Registers every table of [`TABLES`] into `sandbox`, and the constructors of the tables the
/// API hands scripts ([`build`]).
///
/// # Errors
/// The sandbox refused a registration.
pub fn register_all(sandbox: &Sandbox) -> Result<(), ScriptError> {
    build::install(sandbox.lua()).map_err(|e| {
        ScriptError::host(format!("setting up the API's table builders failed: {e}"))
    })?;
    for table in TABLES {
        table.register(sandbox)?;
    }
    Ok(())
}

/// Field reads run inside mlua's own `__index` code, which is not a script; so that the error
/// names the script's line, put the script's `path:line` in front of the message.
fn located(lua: &Lua, e: mlua::Error) -> mlua::Error {
    match (e, crate::budget::script_location(lua)) {
        (mlua::Error::RuntimeError(m), Some(at)) => mlua::Error::RuntimeError(format!("{at}: {m}")),
        (e, _) => e,
    }
}

fn host_error(what: &str, e: &mlua::Error) -> ScriptError {
    ScriptError::host(format!("registering the Lua API ({what}): {e}"))
}

impl<T: 'static> ApiTable for Class<T> {
    fn describe(&self) -> TableDoc<'_> {
        TableDoc {
            name: self.name,
            var: self.var,
            doc: self.doc,
            fields: self.fields.iter().map(|f| &f.doc).collect(),
            functions: self.methods.iter().map(|m| &m.doc).collect(),
        }
    }

    fn register(&self, sandbox: &Sandbox) -> Result<(), ScriptError> {
        let name = self.name;
        let key = self.key;
        let fields = self.fields;
        let singleton = self.singleton;
        let lua = sandbox.lua();
        let fail = |e: mlua::Error| host_error(name, &e);
        // The methods live in a table that is the metatable's `__index` (a plain table read
        // per lookup); unknown keys fall through to a function that raises a clear error, or,
        // for a singleton, answers its fields.
        let methods = lua.create_table().map_err(fail)?;
        let known: Vec<&'static str> = fields
            .iter()
            .map(|f| f.doc.name)
            .chain(self.methods.iter().map(|m| m.doc.name))
            .collect();
        for m in self.methods {
            methods
                .raw_set(m.doc.name, (m.make)(lua).map_err(fail)?)
                .map_err(fail)?;
        }
        let fallback = lua
            .create_function(move |lua, (_, k): (Value, Value)| -> mlua::Result<Value> {
                if let (Some(make), Value::String(s)) = (singleton, &k) {
                    if let Some(f) = fields
                        .iter()
                        .find(|f| s.as_bytes().as_ref() == f.doc.name.as_bytes())
                    {
                        return (f.get)(lua, &make()).map_err(|e| located(lua, e));
                    }
                }
                let hint = match &k {
                    Value::String(s) => args::nearest(&s.to_string_lossy(), known.iter().copied())
                        .map(|n| format!(" (did you mean {n}?)"))
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                let e = mlua::Error::runtime(format!(
                    "{name} has no field or method {}{hint}",
                    args::describe_key(&k)
                ));
                Err(located(lua, e))
            })
            .map_err(fail)?;
        let meta = lua.create_table().map_err(fail)?;
        meta.raw_set("__index", fallback).map_err(fail)?;
        meta.raw_set("__metatable", false).map_err(fail)?;
        methods.set_metatable(Some(meta)).map_err(fail)?;
        lua.register_userdata_type::<T>(|reg| {
            if singleton.is_none() {
                for f in fields {
                    let get = f.get;
                    reg.add_field_method_get(f.doc.name, move |lua, this: &T| {
                        get(lua, this).map_err(|e| located(lua, e))
                    });
                }
            }
            reg.add_meta_field(MetaMethod::Index, methods);
            let var = self.var;
            reg.add_meta_function(MetaMethod::NewIndex, move |lua, (_, k): (Value, Value)| {
                let key = match &k {
                    Value::String(s) => s.to_string_lossy(),
                    other => args::describe_key(other),
                };
                let hint = if name == "Game" && key == "storage" {
                    " (change what it holds instead: game.storage.x = ..., or set its keys to nil)"
                } else {
                    ""
                };
                let e = mlua::Error::runtime(format!(
                    "{var}.{key} cannot be assigned: {name} handles are read-only{hint}"
                ));
                Err::<(), _>(located(lua, e))
            });
            reg.add_meta_method(MetaMethod::ToString, move |_, this: &T, ()| {
                Ok(format!("{name}({})", key(this)))
            });
            reg.add_meta_method(MetaMethod::Eq, move |_, this: &T, other: Value| {
                Ok(match other {
                    Value::UserData(ud) => ud.borrow::<T>().is_ok_and(|o| key(&o) == key(this)),
                    _ => false,
                })
            });
            reg.add_meta_field("__name", name);
        })
        .map_err(fail)
    }
}

impl ApiTable for Globals {
    fn describe(&self) -> TableDoc<'_> {
        TableDoc {
            name: "",
            var: "",
            doc: self.doc,
            fields: Vec::new(),
            functions: self.functions.iter().map(|f| &f.doc).collect(),
        }
    }

    fn register(&self, sandbox: &Sandbox) -> Result<(), ScriptError> {
        globals::register_types(sandbox.lua()).map_err(|e| host_error("definitions", &e))?;
        for g in self.functions {
            let call = g.call;
            let f = sandbox
                .lua()
                .create_function(move |lua, args: MultiValue| call(lua, args))
                .map_err(|e| host_error(g.doc.name, &e))?;
            sandbox.share(g.doc.name, Value::Function(f))?;
        }
        Ok(())
    }
}
