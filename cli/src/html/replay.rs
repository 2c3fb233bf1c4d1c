//! `overmind replay SAVE --html OUT`: the saved game replayed in this process, one step per
//! event as one side may see it (the board, the log line, a reveal's sight line, an attack's
//! dice), written as one self-contained page. The Heroes' page is built only from the Heroes'
//! view of every state and from the events as the Heroes' JSON stream writes them, so what a
//! face-down Blip holds is never in the file.

use super::board;
use super::frames::{Board, Piece, Witness};
use crate::error::CliError;
use crate::save::{hash_events, Final, Save};
use overmind_core::{Content, Event, Game, RevealCause, Side};
use serde::Serialize;
use std::path::Path;

const CSS: &str = include_str!("replay.css");
const SCRIPT: &str = include_str!("replay.js");

/// One step of the page: an event, with what the board shows after it.
#[derive(Serialize)]
struct Step {
    /// The event as this view's JSON stream writes it.
    ev: serde_json::Value,
    /// The terminal's line for it (empty for bookkeeping).
    text: String,
    round: u32,
    /// The record (action) it belongs to, from 1; 0 for the events before the first action.
    action: usize,
    /// Index into the frames.
    frame: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    witness: Option<Witness>,
    /// The first step of an action played after a hot reload: which files were reloaded.
    #[serde(skip_serializing_if = "Option::is_none")]
    reload: Option<String>,
}

#[derive(Serialize)]
struct MapInfo {
    w: i32,
    h: i32,
    cell: i32,
}

/// Everything the page's script reads.
#[derive(Serialize)]
struct Data {
    mission: String,
    view: &'static str,
    map: MapInfo,
    /// Every distinct board, in order.
    frames: Vec<Vec<Piece>>,
    steps: Vec<Step>,
    actions: usize,
    rounds: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    outcome: Option<String>,
}

/// An event as the JSON stream of `view` writes it (cli/src/json.rs): the Heroes' stream
/// leaves the seed out of `game_started`; every other event is the same in both views.
fn view_event(e: &Event, view: Side) -> serde_json::Value {
    let mut v = serde_json::to_value(e).unwrap_or(serde_json::Value::Null);
    if view == Side::Heroes {
        if let (Event::GameStarted { .. }, Some(m)) = (e, v.as_object_mut()) {
            m.remove("seed");
        }
    }
    v
}

/// Builds the steps and frames as the game is replayed.
struct Builder {
    view: Side,
    board: Board,
    frames: Vec<Vec<Piece>>,
    steps: Vec<Step>,
    round: u32,
    /// The board before the first reveal of a run of reveals: all of them were in sight of it.
    sight_board: Option<Board>,
    /// Boards that the events alone did not explain (tests keep this at 0).
    resyncs: usize,
    /// Files reloaded before the action now played, for its first step.
    reload: Option<String>,
}

impl Builder {
    fn frame(&mut self) -> usize {
        let pieces = self.board.pieces();
        if self.frames.last() != Some(&pieces) {
            self.frames.push(pieces);
        }
        self.frames.len() - 1
    }

    fn step(&mut self, e: &Event, action: usize, game: &Game, content: &Content) {
        if let Event::RoundStarted { round } = e {
            self.round = *round;
        }
        let reveal_group = matches!(
            e,
            Event::BlipRevealed { .. }
                | Event::ModelsPlaced { .. }
                | Event::DecoyRemoved { .. }
                | Event::ModelLost { .. }
        );
        if !reveal_group {
            self.sight_board = None;
        }
        let witness = match e {
            Event::BlipRevealed {
                at,
                cause: RevealCause::Hero | RevealCause::Overmind,
                ..
            } => {
                // Every Blip of one pass of reveals was in sight before the first was flipped;
                // one that a flipped Decoy hid comes into sight in a later pass, on the board
                // as it is now.
                let (map, rule) = (&game.state.map, game.state.rules.los);
                let before = self.sight_board.get_or_insert_with(|| self.board.clone());
                before
                    .witness(map, rule, *at)
                    .or_else(|| self.board.witness(map, rule, *at))
            }
            _ => None,
        };
        self.board.apply(e, content);
        let frame = self.frame();
        self.steps.push(Step {
            ev: view_event(e, self.view),
            text: match e {
                Event::ActionTaken { unit, action } => format!("{unit}: {}", action.name()),
                _ => crate::describe::event(e).unwrap_or_default(),
            },
            round: self.round,
            action,
            frame,
            witness,
            reload: self.reload.take(),
        });
    }

    /// After an action: the board is the state's own (as this view sees it).
    fn resync(&mut self, game: &Game) {
        let truth = Board::of(&game.state.view(self.view));
        if truth != self.board {
            self.resyncs += 1;
            self.board = truth;
            let frame = self.frame();
            if let Some(last) = self.steps.last_mut() {
                last.frame = frame;
            }
        }
    }
}

/// Replay `save` into `game` (started from its mission and seed) and gather the page's data
/// for `view` (with how many boards the events alone did not explain), or say how the replay
/// differs from the save (the first action that does).
fn gather(
    game: &mut Game,
    save: &Save,
    packs: &mut crate::saved_content::SavedPacks,
    view: Side,
) -> Result<(Data, usize), String> {
    let mut b = Builder {
        view,
        board: Board::of(&game.state.view(view)),
        frames: Vec::new(),
        steps: Vec::new(),
        round: game.state.round,
        sight_board: None,
        resyncs: 0,
        reload: None,
    };
    let opening: Vec<Event> = game.log.clone();
    for e in &opening {
        b.step(e, 0, game, &packs.set.content);
    }
    for (i, r) in save.records.iter().enumerate() {
        // The content as it was when this record was played (a hot reload before it).
        let made = packs.made.len();
        packs.before(i);
        let files: Vec<String> = packs.made[made..]
            .iter()
            .map(|(_, f)| format!("reloaded {f}"))
            .collect();
        if !files.is_empty() {
            b.reload = Some(files.join("; "));
        }
        let content: &Content = &packs.set.content;
        let mut ctl = r.controllers();
        let what = r.label(i);
        let events = game
            .apply(r.action.clone(), content, &mut ctl)
            .map_err(|e| format!("{what} is now refused: {e}"))?;
        if hash_events(&events) != r.events_hash {
            return Err(format!("{what} no longer has the same outcome"));
        }
        for e in &events {
            b.step(e, i + 1, game, content);
        }
        b.resync(game);
    }
    packs.before(usize::MAX);
    let now = Final::of(game);
    if now != save.end {
        return Err(format!(
            "the end differs: {} events (saved {}), round {} (saved {})",
            now.events, save.end.events, now.round, save.end.round
        ));
    }
    let mission = match game.log.first() {
        Some(Event::GameStarted { mission, .. }) => mission.clone(),
        _ => save.mission.clone(),
    };
    let outcome = game.state.outcome.as_ref().map(|o| {
        format!(
            "{} won ({})",
            crate::describe::side_name(o.winner),
            o.reason
        )
    });
    let map = &game.state.map;
    let data = Data {
        mission,
        view: view.name(),
        map: MapInfo {
            w: map.width(),
            h: map.height(),
            cell: board::CELL,
        },
        frames: b.frames,
        steps: b.steps,
        actions: save.records.len(),
        rounds: game.state.round,
        seed: (view == Side::Overmind).then_some(save.seed),
        outcome,
    };
    Ok((data, b.resyncs))
}

/// The page of `data` over `map`.
fn render(data: &Data, map: &overmind_core::Map) -> String {
    let title = format!("{}: replay ({} view)", data.mission, data.view);
    let body = format!(
        "<header><h1>{}</h1><p id=\"summary\"></p></header>\n<main id=\"replay\">\n\
         <section id=\"table\">{}\n{}</section>\n<aside id=\"side\">\n{CONTROLS}\n\
         <div id=\"detail\" aria-live=\"polite\"></div>\n<ol id=\"log\"></ol>\n</aside>\n\
         </main>\n<p id=\"selfcheck\" hidden></p>",
        super::escape(&title),
        board::svg(map),
        board::legend()
    );
    super::page(&title, CSS, &body, &super::json_for_script(data), SCRIPT)
}

/// The step controls (the script wires them up).
const CONTROLS: &str = "<nav id=\"controls\" aria-label=\"replay controls\">\
<button id=\"first\" title=\"first step (Home)\">|◀</button>\
<button id=\"prev-round\" title=\"previous round (Shift+R)\">« round</button>\
<button id=\"prev-action\" title=\"previous action (Shift+A, Shift+←)\">‹ action</button>\
<button id=\"prev\" title=\"previous event (←)\">◀</button>\
<button id=\"next\" title=\"next event (→)\">▶</button>\
<button id=\"next-action\" title=\"next action (A, Shift+→)\">action ›</button>\
<button id=\"next-round\" title=\"next round (R)\">round »</button>\
<button id=\"last\" title=\"last step (End)\">▶|</button>\
<input id=\"slider\" type=\"range\" min=\"0\" value=\"0\" aria-label=\"step\">\
<span id=\"where\"></span></nav>";

/// Replay `save` into `game` and write its page for `view` to `out`: `Ok(None)` when the
/// game replays identically (the page is written), `Ok(Some(difference))` when it does not
/// (nothing is written).
///
/// # Errors
/// The page cannot be written; the message names the file.
pub fn write(
    out: &Path,
    game: &mut Game,
    save: &Save,
    packs: &mut crate::saved_content::SavedPacks,
    view: Side,
) -> Result<Option<String>, CliError> {
    match gather(game, save, packs, view) {
        Ok((data, _)) => super::write(out, &render(&data, &game.state.map)).map(|()| None),
        Err(difference) => Ok(Some(difference)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use overmind_core::Controllers;

    /// At most `actions` AI actions of both sides at `level` (fewer when the game ends).
    fn ai_play(s: &mut Session, level: overmind_core::ai::Level, actions: usize) {
        use overmind_core::ai::player;
        let mut heroes = player(Side::Heroes, level);
        let mut overmind = player(Side::Overmind, level);
        for _ in 0..actions {
            match s.game.to_move() {
                Some(Side::Heroes) => s.ai_step(heroes.as_mut()),
                Some(Side::Overmind) => s.ai_step(overmind.as_mut()),
                None => break,
            };
        }
    }

    /// A finished AI game of the demo mission as a save, and the packs to replay it.
    pub(crate) fn game(seed: u64) -> (Save, crate::packs::PackSet) {
        game_at("demo", &[], seed, overmind_core::ai::Level::Greedy)
    }

    /// A finished AI game of `mission` with the `extra` packs at `level`, as a save.
    fn game_at(
        mission: &str,
        extra: &[std::path::PathBuf],
        seed: u64,
        level: overmind_core::ai::Level,
    ) -> (Save, crate::packs::PackSet) {
        use overmind_core::ai::controller;
        let ctl = Controllers::new(controller(level), controller(level));
        let dirs = crate::packs::dirs(extra);
        let mut s = Session::start(dirs.clone(), mission, seed, ctl).expect("start");
        ai_play(&mut s, level, 5000);
        let save = s.save();
        let set = crate::packs::load(&dirs).expect("packs");
        (save, set)
    }

    #[test]
    fn the_events_alone_move_the_board_at_the_standard_level_and_with_an_expansions_tokens() {
        let expansion = std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/expansion"
        ));
        let standard = overmind_core::ai::Level::Standard;
        let games = [
            game_at("demo", &[], 7, standard),
            game_at("lurker_den", std::slice::from_ref(&expansion), 1, standard),
            game_at(
                "lurker_den",
                std::slice::from_ref(&expansion),
                2,
                overmind_core::ai::Level::Greedy,
            ),
        ];
        let mut tokens = 0;
        for (i, (save, set)) in games.iter().enumerate() {
            for view in [Side::Heroes, Side::Overmind] {
                let (data, resyncs) = data_of(save, set, view);
                assert_eq!(resyncs, 0, "game {i}, {view:?}: a board needed the state");
                tokens += data
                    .frames
                    .iter()
                    .flatten()
                    .filter(|p| p.2 == "token")
                    .count();
            }
        }
        assert!(tokens > 0, "the games had tokens on the map");
    }

    #[test]
    fn a_token_used_up_leaves_the_board_when_its_event_says_so() {
        use overmind_core::ai::{controller, Level};
        let expansion = std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/expansion"
        ));
        let dirs = crate::packs::dirs(std::slice::from_ref(&expansion));
        let ctl = Controllers::new(controller(Level::Greedy), controller(Level::Greedy));
        let mut s = Session::start(dirs.clone(), "lurker_den", 1, ctl).expect("start");
        for a in [
            r#"{"action":"move","unit":"captain","to":[0,4]}"#,
            r#"{"action":"interact","unit":"captain"}"#,
        ] {
            let action: overmind_core::Action = serde_json::from_str(a).expect("an action");
            s.apply(action).expect("legal");
        }
        ai_play(&mut s, Level::Greedy, 60);
        let save = s.save();
        let set = crate::packs::load(&dirs).expect("packs");
        let (data, resyncs) = data_of(&save, &set, Side::Heroes);
        assert_eq!(resyncs, 0);
        let shot = |f: &Vec<Piece>| f.iter().any(|p| p.2 == "token" && p.4 == "adrenaline");
        assert!(shot(&data.frames[0]), "the shot lies by the entrance");
        let used = data
            .steps
            .iter()
            .position(|st| st.ev["effect"] == "remove_token")
            .expect("the shot is used up");
        assert!(shot(&data.frames[data.steps[used - 1].frame]));
        assert!(!shot(&data.frames[data.steps[used].frame]));
    }

    fn data_of(save: &Save, set: &crate::packs::PackSet, view: Side) -> (Data, usize) {
        let _ = set;
        let mut packs = crate::saved_content::SavedPacks::load(save).expect("packs");
        let mut g = packs
            .set
            .start_carrying(&save.mission, save.seed, save.carry.as_ref())
            .expect("start");
        gather(&mut g, save, &mut packs, view).expect("replays")
    }

    #[test]
    fn the_events_alone_move_the_board_as_the_game_moved() {
        for seed in 0..6 {
            let (save, set) = game(seed);
            for view in [Side::Heroes, Side::Overmind] {
                let (_, resyncs) = data_of(&save, &set, view);
                assert_eq!(
                    resyncs, 0,
                    "seed {seed}, {view:?}: a board needed the state"
                );
            }
        }
    }

    #[test]
    fn every_reveal_by_a_heroes_sight_has_its_sight_line_and_every_step_a_frame() {
        let mut seen = 0;
        for seed in 0..4 {
            let (save, set) = game(seed);
            let (data, _) = data_of(&save, &set, Side::Heroes);
            assert_eq!(data.steps.len(), save.end.events, "one step per event");
            for s in &data.steps {
                assert!(s.frame < data.frames.len());
                if s.ev["event"] == "blip_revealed" && s.ev["cause"] == "hero" {
                    let w = s.witness.as_ref().expect("a Hero saw it");
                    // The line ends inside the Blip's square.
                    let (x, y) = (s.ev["at"][0].as_f64(), s.ev["at"][1].as_f64());
                    let (x, y) = (x.unwrap_or(-9.0), y.unwrap_or(-9.0));
                    assert!(w.line[2] > x && w.line[2] < x + 1.0, "{w:?}");
                    assert!(w.line[3] > y && w.line[3] < y + 1.0, "{w:?}");
                    seen += 1;
                }
                assert!(s.ev.get("seed").is_none(), "the Heroes' page has no seed");
            }
        }
        assert!(seen > 3, "the games had reveals by sight ({seen})");
    }

    #[test]
    fn a_save_that_no_longer_replays_writes_no_page() {
        let (mut save, set) = game(1);
        if let Some(r) = save.records.first_mut() {
            r.events_hash = "0".into();
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("p.html");
        let _ = set;
        let mut packs = crate::saved_content::SavedPacks::load(&save).expect("packs");
        let mut g = packs
            .set
            .start_carrying(&save.mission, save.seed, save.carry.as_ref())
            .expect("start");
        let d = write(&out, &mut g, &save, &mut packs, Side::Heroes).expect("no io error");
        assert!(d.is_some_and(|d| d.contains("action 1")));
        assert!(!out.exists());
    }
}
