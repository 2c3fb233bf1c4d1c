//! One game being played by the host: the packs, the game, its starting state and the hashes
//! a save needs, with the operations both front ends share: apply an action, let an AI act,
//! undo, reload changed scripts, save.

use crate::command::{text_of, Names};
use crate::error::CliError;
use crate::packs::{self, PackSet, Reload};
use crate::save::{hash_events, Final, Save, SavedRecord, VERSION};
use overmind_core::ai::Player;
use overmind_core::{
    Action, Checked, Content, Controllers, Event, Game, GameState, HeroesView, Record, Refusal,
    Side, View,
};
use std::path::PathBuf;

/// A game in progress and everything needed to save, undo and replay it.
pub struct Session {
    pub packs: PackSet,
    /// The mission as a save names it (an id, or an absolute path).
    pub mission: String,
    /// Pack directories in load order, the base pack first.
    pub pack_dirs: Vec<PathBuf>,
    pub seed: u64,
    pub game: Game,
    pub ctl: Controllers,
    /// The state before the first action, for undo by replay.
    start: GameState,
    /// The mission's name as the log's first event gives it.
    name: String,
    /// Per record: the log's length before it and the hash of its events.
    marks: Vec<(usize, String)>,
    /// The content the game began with and its reloads, for the save.
    content_log: crate::saved_content::ContentLog,
    /// What a campaign carried into the mission, if it is one of a campaign's.
    pub carry: Option<overmind_core::Carry>,
}

impl Session {
    /// Load the packs and start the mission.
    ///
    /// # Errors
    /// Problems of the packs or the mission, as `path:line:column: message`.
    pub fn start(
        pack_dirs: Vec<PathBuf>,
        mission: &str,
        seed: u64,
        ctl: Controllers,
    ) -> Result<Session, CliError> {
        let packs = packs::load(&pack_dirs)?;
        Session::start_in(packs, pack_dirs, mission, seed, ctl, None)
    }

    /// Start a mission over packs already loaded, with what a campaign carries into it.
    ///
    /// # Errors
    /// Problems of the mission, as `path:line:column: message`.
    pub fn start_in(
        packs: PackSet,
        pack_dirs: Vec<PathBuf>,
        mission: &str,
        seed: u64,
        ctl: Controllers,
        carry: Option<overmind_core::Carry>,
    ) -> Result<Session, CliError> {
        let game = packs
            .start_carrying(mission, seed, carry.as_ref())
            .map_err(packs::problems)?;
        let content_log = crate::saved_content::ContentLog::begin(
            &pack_dirs,
            packs.mission_path(mission).ok().as_deref(),
        );
        let mission = packs::mission_ref(&packs, mission);
        let name = match game.log.first() {
            Some(Event::GameStarted { mission, .. }) => mission.clone(),
            _ => mission.clone(),
        };
        Ok(Session {
            packs,
            mission,
            pack_dirs,
            seed,
            start: game.state.clone(),
            name,
            game,
            ctl,
            marks: Vec::new(),
            content_log,
            carry,
        })
    }

    /// Continue a saved game: load its packs, replay its records exactly (each must do what it
    /// did when saved), and go on from there with `ctl`.
    ///
    /// # Errors
    /// Pack or mission problems, or a record that no longer replays the same (the scripts
    /// changed since), naming it.
    pub fn resume(
        save: &Save,
        from: &std::path::Path,
        ctl: Controllers,
    ) -> Result<Session, CliError> {
        let mut saved = crate::saved_content::SavedPacks::load(save)?;
        let pack_dirs = saved.dirs.clone();
        let mut game = saved
            .set
            .start_carrying(&save.mission, save.seed, save.carry.as_ref())
            .map_err(packs::problems)?;
        let content_log = crate::saved_content::ContentLog::resumed(
            save,
            &pack_dirs,
            saved.set.mission_path(&save.mission).ok().as_deref(),
        );
        game.state.set_dev(save.dev);
        let start = game.state.clone();
        let name = match game.log.first() {
            Some(Event::GameStarted { mission, .. }) => mission.clone(),
            _ => save.mission.clone(),
        };
        let mut marks = Vec::new();
        if let Some(d) = crate::save::replay_into(&mut game, save, &mut saved, &mut marks) {
            return Err(CliError::Failed(format!(
                "cannot resume {}: {d} (the scripts or the rules changed since it was saved)",
                from.display()
            )));
        }
        Ok(Session {
            packs: saved.set,
            mission: save.mission.clone(),
            pack_dirs,
            seed: save.seed,
            start,
            name,
            game,
            ctl,
            marks,
            content_log,
            carry: save.carry.clone(),
        })
    }

    /// Turn the author tools on (`play --dev`); before the first action, so that undo and
    /// replay start from the same setting.
    pub fn enable_dev(&mut self) {
        self.game.state.set_dev(true);
        self.start.set_dev(true);
    }

    #[must_use]
    pub fn content(&self) -> &Content {
        &self.packs.content
    }

    /// The mission's name as shown at a terminal: from the mission file, its control
    /// characters escaped.
    #[must_use]
    pub fn shown_name(&self) -> std::borrow::Cow<'_, str> {
        overmind_core::source::escape_controls(&self.name)
    }

    /// Apply an action of the side to move.
    ///
    /// # Errors
    /// The rules refuse it; nothing changed.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, Refusal> {
        let checked = self.game.check(&self.packs.content, &action)?;
        self.play(checked)
    }

    /// Carry out an action [`Game::check`] accepted on this game.
    ///
    /// # Errors
    /// The game moved on since the check and the rules now refuse it; nothing changed.
    pub fn play(&mut self, checked: Checked) -> Result<Vec<Event>, Refusal> {
        let before = self.game.log.len();
        let events = self
            .game
            .play(checked, &self.packs.content, &mut self.ctl)?;
        self.marks.push((before, hash_events(&events)));
        Ok(events)
    }

    /// Let an AI take the next action of the side to move; an action the rules refuse becomes
    /// `end`, which is always legal.
    pub fn ai_step(&mut self, player: &mut dyn Player) -> Vec<Event> {
        if self.game.state.deploying.is_some() {
            return self.apply(Action::Deploy).unwrap_or_default();
        }
        let state = &self.game.state;
        let action = match self.game.to_move() {
            Some(Side::Heroes) => {
                player.next_action(View::Heroes(&HeroesView::of(state)), &self.packs.content)
            }
            _ => player.next_action(View::Overmind(state), &self.packs.content),
        };
        match self.apply(action) {
            Ok(events) => events,
            Err(_) => self.apply(Action::End).unwrap_or_default(),
        }
    }

    /// Take back `side`'s last action: only its own, and only when it revealed nothing and
    /// rolled no dice. The game is rebuilt by replaying every earlier record from the start.
    ///
    /// # Errors
    /// Why it cannot be undone.
    pub fn undo(&mut self, side: Side) -> Result<Record, String> {
        if self.game.state.is_over() {
            return Err("the game is over".into());
        }
        let Some(last) = self.game.record.last().cloned() else {
            return Err("nothing to undo: no action has been taken yet".into());
        };
        if last.action == Action::Deploy {
            return Err("the deployment cannot be taken back: both sides have seen it".into());
        }
        if last.side != side {
            return Err(format!(
                "the last action was {} ({}); you can only take back your own",
                crate::describe::possessive(last.side),
                text_of(&last.action)
            ));
        }
        let Some(&(from, _)) = self.marks.last() else {
            return Err("nothing to undo".into());
        };
        let events = &self.game.log[from..];
        if events
            .iter()
            .any(|e| matches!(e, Event::BlipRevealed { .. }))
        {
            return Err(format!(
                "`{}` revealed a Blip: what was seen cannot be unseen",
                text_of(&last.action)
            ));
        }
        if events.iter().any(|e| matches!(e, Event::CardTurned { .. })) {
            return Err(format!(
                "`{}` drew a card: what was seen cannot be unseen",
                text_of(&last.action)
            ));
        }
        if events
            .iter()
            .any(|e| matches!(e, Event::Attack { .. } | Event::HazardAttack { .. }))
        {
            return Err(format!(
                "`{}` rolled dice: a roll cannot be taken back",
                text_of(&last.action)
            ));
        }
        let n = self.game.record.len() - 1;
        let replayed = Game::replay(
            self.start.clone(),
            &self.name,
            self.seed,
            &self.game.record[..n],
            &self.packs.content,
        )
        .map_err(|(i, e)| {
            format!(
                "cannot undo: earlier action {} no longer replays ({e})",
                i + 1
            )
        })?;
        if replayed.log[..] != self.game.log[..from] || replayed.record[..] != self.game.record[..n]
        {
            return Err("cannot undo: the scripts changed since, and the earlier actions no longer replay the same".into());
        }
        self.game = replayed;
        self.marks.pop();
        Ok(last)
    }

    /// Reload changed pack files, behaviours first; each outcome says what happened.
    pub fn reload(&mut self, paths: &[PathBuf]) -> Vec<Reload> {
        let records = self.game.record.len();
        let mut out = Vec::new();
        for (r, path, text) in overmind_scripting::reload::apply_read(&mut self.packs, paths) {
            // What changed the content is recorded, so the save replays with it.
            if matches!(
                r,
                Reload::Updated { .. } | Reload::Added { .. } | Reload::Removed { .. }
            ) {
                self.content_log.reloaded(records, &path, text);
            }
            out.push(r);
        }
        out
    }

    /// The ids a command may name.
    #[must_use]
    pub fn names(&self) -> Names {
        let st = &self.game.state;
        let mut ids: Vec<String> = Vec::new();
        for u in &st.units {
            ids.push(u.id.to_string());
            if u.models.len() > 1 || u.models.first().is_some_and(|m| m.id != u.id) {
                ids.extend(u.models.iter().map(|m| m.id.to_string()));
            }
        }
        ids.extend(st.blips.iter().map(|b| b.id.to_string()));
        let side = self.game.to_move();
        let mut own: Vec<String> = Vec::new();
        for u in st.units.iter().filter(|u| Some(u.side) == side) {
            own.push(u.id.to_string());
            own.extend(u.models.iter().map(|m| m.id.to_string()));
        }
        if side == Some(Side::Overmind) {
            own.extend(st.blips.iter().map(|b| b.id.to_string()));
        }
        let mut labels = Vec::new();
        let symbols = crate::screen::symbols(st);
        for u in &st.units {
            let Some(sym) = symbols.get(u.id.as_str()).and_then(|s| s.label()) else {
                continue;
            };
            labels.push((sym.to_string(), u.id.to_string()));
            for m in &u.models {
                if let Some((_, n)) = m.id.as_str().rsplit_once('.') {
                    labels.push((format!("{sym}.{n}"), m.id.to_string()));
                }
            }
        }
        let content = self.content();
        // Hazard tokens lying on the map may be shot or meleed (docs/RULES.md §14.1).
        ids.extend(
            st.tokens
                .iter()
                .filter(|t| overmind_core::hazard::hazard_token(st, content, &t.id).is_some())
                .map(|t| t.id.to_string()),
        );
        // Only the Overmind's own commands may name (and suggest) the cards it holds.
        let mut cards: Vec<String> = match side {
            Some(Side::Overmind) => st.cards.hand.iter().map(ToString::to_string).collect(),
            _ => Vec::new(),
        };
        cards.sort_unstable();
        cards.dedup();
        Names {
            ids,
            active: st.active,
            behaviours: content.behaviours.keys().cloned().collect(),
            aliens: content.aliens.keys().cloned().collect(),
            cards,
            own,
            labels,
        }
    }

    /// The game as a save.
    #[must_use]
    pub fn save(&self) -> Save {
        Save {
            version: VERSION,
            mission: self.mission.clone(),
            packs: self.pack_dirs.clone(),
            seed: self.seed,
            dev: self.game.state.dev(),
            records: self
                .game
                .record
                .iter()
                .zip(&self.marks)
                .map(|(r, (_, hash))| SavedRecord {
                    side: r.side,
                    action: r.action.clone(),
                    answers: r.answers.clone(),
                    events_hash: hash.clone(),
                })
                .collect(),
            end: Final::of(&self.game),
            content: Some(self.content_log.record()),
            carry: self.carry.clone(),
        }
    }
}
