//! Cards in Lua (docs/RULES.md §15): `card { ... }` read into the core's [`CardDef`] and its
//! hooks, and [`LuaPlay`], which runs a card's `play(game, ctx)` when the Overmind plays it,
//! exactly as a hook runs (same sandbox, budgets, `game.storage`, `path:line` failures).

use super::triggers::HookSet;
use super::{Broken, Loaded, ScriptHost};
use crate::alien::text;
use crate::api::globals::DefKind;
use crate::api::shape::CARD_DEF;
use crate::problem::Problem;
use crate::ScriptError;
use mlua::{Lua, MultiValue, Value};
use overmind_core::card::{CardDef, CardTarget, Deck};
use overmind_core::trigger::{Moment, Owner, Trigger, TriggerDef};
use overmind_core::{BehaviourCtx, BehaviourError, Id};
use std::path::Path;
use std::rc::Rc;

/// `card { ... }` as read: the card (its `play` not yet bound) and its hooks.
#[derive(Clone, Debug)]
pub struct CardFile {
    /// The card, without its `play` handler (bound by [`ScriptHost::install_card`]).
    pub card: CardDef,
    /// Whether the definition has a `play` function.
    pub playable: bool,
    /// Its triggers (`Owner::Card`).
    pub hooks: HookSet,
}

impl ScriptHost {
    /// Compiles and runs a card script (`card { ... }`) and checks it. Does not install it.
    ///
    /// # Errors
    /// The first problem.
    pub fn load_card(&self, path: &Path, source: &str) -> Result<CardFile, ScriptError> {
        self.read_card(path, source)
            .map_err(|b| b.first(path, source))
    }

    /// [`load_card`](Self::load_card), with every problem of the file.
    ///
    /// # Errors
    /// Every problem, in file order.
    pub fn check_card(&self, path: &Path, source: &str) -> Result<CardFile, Vec<Problem>> {
        self.read_card(path, source)
            .map_err(|b| b.problems(path, source))
    }

    fn read_card(&self, path: &Path, source: &str) -> Result<CardFile, Broken> {
        let (script, def) = self.read_def(path, source, DefKind::Card, &CARD_DEF)?;
        let t = &def.table;
        let id = text(t, "id");
        // The shape checked these: the defaults are for fields left out.
        let deck = Deck::named(&text(t, "deck")).unwrap_or(Deck::Mutation);
        let target = CardTarget::named(&text(t, "target")).unwrap_or(CardTarget::None);
        let copies = match t.raw_get::<Value>("copies") {
            Ok(Value::Integer(n)) => u32::try_from(n).unwrap_or(1),
            _ => 1,
        };
        let playable = matches!(t.raw_get::<Value>("play"), Ok(Value::Function(_)));
        let hooks = HookSet::read(&script, &def, path, Owner::Card(Id::from(id.as_str())));
        if (deck == Deck::Mutation || deck.is_event()) && !playable && hooks.hooks.is_empty() {
            let at = crate::api::shape::Invalid::new(
                vec!["play".to_string()],
                format!(
                    "a {} card does nothing without `play = function(game, ctx) ... end` or `on = {{ ... }}`",
                    deck.name()
                ),
            );
            return Err(Broken::Invalid {
                def,
                problems: vec![at],
                lists: Vec::new(),
            });
        }
        if deck == Deck::HiddenAgenda && (playable || target != CardTarget::None) {
            let field = if playable { "play" } else { "target" };
            let at = crate::api::shape::Invalid::new(
                vec![field.to_string()],
                "a hidden_agenda card is never played: it acts through `on = { ... }` (e.g. `victory_check`)",
            );
            return Err(Broken::Invalid {
                def,
                problems: vec![at],
                lists: Vec::new(),
            });
        }
        if deck.is_event() && target != CardTarget::None {
            let at = crate::api::shape::Invalid::new(
                vec!["target".to_string()],
                format!(
                    "a {} card is drawn, not played on a target: its `ctx.unit` and `ctx.at` say who drew it and where",
                    deck.name()
                ),
            );
            return Err(Broken::Invalid {
                def,
                problems: vec![at],
                lists: Vec::new(),
            });
        }
        Ok(CardFile {
            card: CardDef {
                id: Id::from(id.as_str()),
                name: text(t, "name"),
                text: text(t, "text"),
                deck,
                target,
                copies,
                play: None,
            },
            playable,
            hooks,
        })
    }

    /// The card ready for the core, its `play` bound, and its triggers.
    #[must_use]
    pub fn install_card(self: &Rc<Self>, file: CardFile) -> (CardDef, Vec<TriggerDef>) {
        let mut card = file.card;
        if file.playable {
            card.play = Some(Rc::new(LuaPlay {
                host: Rc::clone(self),
                script: file.hooks.script.clone(),
            }));
        }
        let defs = self.install_hooks(file.hooks);
        (card, defs)
    }
}

/// A card's `play`, as the core sees it.
pub struct LuaPlay {
    host: Rc<ScriptHost>,
    script: Loaded,
}

impl std::fmt::Debug for LuaPlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LuaPlay")
            .field("path", &self.script.path)
            .finish_non_exhaustive()
    }
}

impl Trigger for LuaPlay {
    /// Runs the sealed script's `play(game, ctx)`.
    fn fire(&self, ctx: &mut BehaviourCtx<'_, '_>, moment: &Moment) -> Result<(), BehaviourError> {
        let (index, _entered) = self.host.moments.enter(moment);
        let args = |_: &Lua, _: &mlua::AnyUserData| Ok(MultiValue::new());
        self.host
            .run_script(&self.script, ctx, None, "play", Some(index), args)
            .map(|_| ())
    }
}
