//! The content a game is played with: hero profiles, Alien Types and Alien Behaviours.

use crate::data::profile::{AlienType, HeroProfile};
use crate::rules::behaviour::Behaviour;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Everything packs provide. The host may swap entries between actions (hot reload): units on
/// the map keep position and health and take the new stats at their next use.
#[derive(Clone, Default)]
pub struct Content {
    pub heroes: BTreeMap<String, HeroProfile>,
    pub aliens: BTreeMap<String, AlienType>,
    pub behaviours: BTreeMap<String, Rc<dyn Behaviour>>,
    /// Token kinds by id (docs/RULES.md §14).
    pub tokens: BTreeMap<String, crate::data::token::TokenKind>,
    /// Cards by id (docs/RULES.md §15).
    pub cards: BTreeMap<String, crate::rules::card::CardDef>,
    /// Triggers, in the order they run for the same moment.
    pub triggers: Vec<crate::rules::trigger::TriggerDef>,
}

impl std::fmt::Debug for Content {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Content")
            .field("heroes", &self.heroes.keys().collect::<Vec<_>>())
            .field("aliens", &self.aliens.keys().collect::<Vec<_>>())
            .field("behaviours", &self.behaviours.keys().collect::<Vec<_>>())
            .field("tokens", &self.tokens.keys().collect::<Vec<_>>())
            .field("cards", &self.cards.keys().collect::<Vec<_>>())
            .field("triggers", &self.triggers)
            .finish()
    }
}

impl Content {
    pub fn add_behaviour(&mut self, id: &str, b: Rc<dyn Behaviour>) {
        self.behaviours.insert(id.to_string(), b);
    }
}
