//! The actions the side to move may take now, for hosts that list them (the CLI's prompt, the
//! JSON `your_turn` event). Built from [`Game::validate`] alone, so it cannot disagree with
//! [`Game::apply`], and building it plays nothing: no event, no decision, no behaviour, no Lua.

use crate::board::movement::{block_reachable, reachable};
use crate::data::action::Action;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::settings::Rules;
use crate::data::state::{ActionKind, Side};
use crate::rules::content::Content;
use crate::rules::game::Game;
use crate::rules::stats::Stats;

impl Game {
    /// Every action the side to move may take now, `End` last. Moves list every square the
    /// named unit, model or Blip can reach; attacks every target the rules accept. Empty when
    /// the game is over.
    ///
    /// Legality never depends on what a face-down Blip holds, so the list is safe to show the
    /// Heroes.
    #[must_use]
    pub fn legal_actions(&self, content: &Content) -> Vec<Action> {
        let Some(side) = self.to_move() else {
            return Vec::new();
        };
        if self.state.deploying.is_some() {
            return vec![Action::Deploy];
        }
        let mut out = Vec::new();
        if self.state.interrupt != Some(crate::data::interrupt::Interrupt::Offered) {
            for actor in self.actors(side) {
                self.legal_for(content, side, &actor, &mut out);
            }
        }
        // The Overmind's cards (docs/RULES.md §15): none for the Heroes.
        out.extend(
            crate::rules::hand::legal(&self.state, content, side)
                .into_iter()
                .filter(|a| self.accepts(content, a)),
        );
        out.push(Action::End);
        out
    }

    /// The card plays and discards among [`legal_actions`](Self::legal_actions), without
    /// building the rest (every move of every unit): what the card AI weighs.
    #[must_use]
    pub fn legal_card_actions(&self, content: &Content) -> Vec<Action> {
        let Some(side) = self.to_move() else {
            return Vec::new();
        };
        crate::rules::hand::legal(&self.state, content, side)
            .into_iter()
            .filter(|a| self.accepts(content, a))
            .collect()
    }

    /// Units, models and Blips of `side` that may act: the active one first, then every one
    /// that has not activated this round.
    fn actors(&self, side: Side) -> Vec<Actor> {
        let st = &self.state;
        let mut out: Vec<Actor> = Vec::new();
        let active = st.active;
        let units = st.units.iter().filter(|u| {
            u.side == side && u.alive() && !u.extracted && (!u.activated || active == Some(u.id))
        });
        for u in units {
            let models = u.models.iter().map(|m| (m.id, m.pos)).collect();
            out.push(Actor::Unit { id: u.id, models });
        }
        if side == Side::Overmind {
            for b in st
                .blips
                .iter()
                .filter(|b| !b.activated || active == Some(b.id))
            {
                out.push(Actor::Blip {
                    id: b.id,
                    at: b.pos,
                });
            }
        }
        // The active one first.
        out.sort_by_key(|a| Some(a.id()) != active);
        out
    }

    /// Whether `action` would be accepted now.
    fn accepts(&self, content: &Content, action: &Action) -> bool {
        self.is_legal(content, action)
    }

    fn legal_for(&self, content: &Content, side: Side, actor: &Actor, out: &mut Vec<Action>) {
        let st = &self.state;
        let obstacles = st.cached_obstacles();
        match actor {
            Actor::Blip { id, at } => {
                let mv = st.rules.blip_movement;
                for (kind, steps) in [
                    (ActionKind::Move, mv),
                    (ActionKind::Sprint, Rules::sprint(mv)),
                ] {
                    let squares: Vec<Pos> = reachable(&st.map, &obstacles, *at, steps)
                        .into_iter()
                        .filter(|&(p, s)| s > 0 && p != *at)
                        .map(|(p, _)| p)
                        .collect();
                    self.moves(content, id, kind, &squares, out);
                }
                let flip = Action::Flip {
                    unit: Id::from(&id),
                };
                if self.accepts(content, &flip) {
                    out.push(flip);
                }
            }
            Actor::Unit { id, models } => {
                let single = models.len() == 1;
                for (model, at) in models {
                    let name = if single { *id } else { Id::from(model) };
                    let Some((_, m)) = st.find_model(model) else {
                        continue;
                    };
                    // The numbers validation uses: profile, dial and modifiers.
                    let stats = Stats::of(st, content, side, m);
                    for kind in [ActionKind::Move, ActionKind::Sprint] {
                        let steps = stats.steps(kind);
                        let squares: Vec<Pos> = if m.status.knocked_down {
                            // The Move is spent standing up, wherever it names.
                            vec![*at]
                        } else if m.xxl {
                            block_reachable(&st.map, &obstacles, *at, steps)
                                .into_iter()
                                .filter(|&(p, s)| s > 0 && p != *at)
                                .map(|(p, _)| p)
                                .collect()
                        } else {
                            reachable(&st.map, &obstacles, *at, steps)
                                .into_iter()
                                .filter(|&(p, s)| s > 0 && p != *at)
                                .map(|(p, _)| p)
                                .collect()
                        };
                        self.moves(content, &name, kind, &squares, out);
                    }
                }
                let targets: Vec<Id> = st
                    .units
                    .iter()
                    .filter(|u| u.side != side)
                    .flat_map(|u| u.models.iter().map(|m| m.id))
                    .chain(st.blips.iter().map(|b| b.id))
                    // Hazard tokens (docs/RULES.md §14.1), unless a unit or Blip has the name.
                    .chain(
                        st.tokens
                            .iter()
                            .filter(|t| {
                                crate::rules::hazard::hazard_token(st, content, &t.id).is_some()
                                    && crate::rules::validate::target_of(st, &t.id).is_err()
                            })
                            .map(|t| t.id),
                    )
                    .collect();
                for t in &targets {
                    for a in [
                        Action::Shoot {
                            unit: Id::from(&id),
                            target: Id::from(&t),
                        },
                        Action::Melee {
                            unit: Id::from(&id),
                            target: Id::from(&t),
                        },
                    ] {
                        if self.accepts(content, &a) {
                            out.push(a);
                        }
                    }
                }
                for a in [
                    Action::Overwatch {
                        unit: Id::from(&id),
                    },
                    Action::Interact {
                        unit: Id::from(&id),
                    },
                    Action::DestroyWall {
                        unit: Id::from(&id),
                    },
                ] {
                    if self.accepts(content, &a) {
                        out.push(a);
                    }
                }
            }
        }
    }

    /// Moves of one kind to `squares`: the kind is tried once (activation and two-different-
    /// actions rules, status), the squares come from the same path search the rules use.
    fn moves(
        &self,
        content: &Content,
        name: &str,
        kind: ActionKind,
        squares: &[Pos],
        out: &mut Vec<Action>,
    ) {
        let mut squares = squares.to_vec();
        squares.sort_by_key(|p| (p.y, p.x));
        let make = |to: Pos| match kind {
            ActionKind::Sprint => Action::Sprint {
                unit: Id::from(name),
                to,
                via: Vec::new(),
            },
            _ => Action::Move {
                unit: Id::from(name),
                to,
                via: Vec::new(),
            },
        };
        let Some(&first) = squares.first() else {
            return;
        };
        if !self.accepts(content, &make(first)) {
            return;
        }
        out.extend(squares.into_iter().map(make));
    }
}

/// Something of the side to move that may act.
enum Actor {
    Unit { id: Id, models: Vec<(Id, Pos)> },
    Blip { id: Id, at: Pos },
}

impl Actor {
    fn id(&self) -> Id {
        match self {
            Actor::Unit { id, .. } | Actor::Blip { id, .. } => *id,
        }
    }
}
