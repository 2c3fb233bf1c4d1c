//! What a shape is: its fields, and the rule each field's value must follow.

use super::names::Names;

/// What a field of a definition table must hold.
#[derive(Debug)]
pub enum Rule {
    /// Any string.
    Str,
    /// An id: 1 to 64 characters of `a-z`, `0-9` and `_`.
    Id,
    /// A whole number in `min..=max`.
    Int {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A function.
    Func,
    /// `true` or `false`.
    Bool,
    /// A nested table of this shape.
    Table(&'static Shape),
    /// An array of Special Combat Effect names.
    Effects,
    /// An array of ids.
    Ids,
    /// One of these strings.
    OneOf(&'static Names),
    /// A token's map symbol: one printable ASCII character that is not a letter, a digit or
    /// one the map uses ([`overmind_core::token::RESERVED_SYMBOLS`]).
    Symbol,
    /// Not checked here (shapes only documented).
    Any,
}

/// One field of a shape.
#[derive(Debug)]
pub struct ShapeField {
    /// The field's name.
    pub name: &'static str,
    /// Its type in LuaLS notation.
    pub ty: &'static str,
    /// What it means.
    pub doc: &'static str,
    /// Must it be given?
    pub required: bool,
    /// What it must hold.
    pub rule: Rule,
}

/// A table shape: a LuaLS class of plain tables.
#[derive(Debug)]
pub struct Shape {
    /// The LuaLS class name.
    pub name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// The class it is a kind of (LuaLS `---@class Square: Pos`), so it passes where that one
    /// is expected.
    pub parent: Option<&'static str>,
    /// What its keys are called in messages (`field`; `hook` for `on = { ... }`).
    pub key: &'static str,
    /// Its fields, in the order the docs show them and the validator checks them.
    pub fields: &'static [ShapeField],
}
