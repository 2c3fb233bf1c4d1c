//! Whole games: AI against AI finishes, determinism, saves, replays, hidden information.

use crate::common;
use common::*;
use overmind_core::ai::play_ai_game;
use overmind_core::*;

fn ai_game(seed: u64) -> (Game, Content) {
    let c = base_like();
    let s = demo_setup();
    let st = s.start(&c, seed).expect("demo starts");
    let mut g = Game::new(st, "demo", seed);
    play_ai_game(&mut g, &c, 20_000);
    (g, c)
}

fn no_two_models_share_a_square(st: &GameState) {
    let mut seen = std::collections::HashSet::new();
    for p in st
        .models()
        .map(|m| m.pos)
        .chain(st.blips.iter().map(|b| b.pos))
    {
        assert!(seen.insert(p), "two on {p}");
        assert!(!st.map.is_solid(p));
    }
}

#[test]
fn two_hundred_ai_games_of_the_demo_all_finish() {
    let mut wins = [0u32; 2];
    for seed in 0..200 {
        let (g, _) = ai_game(seed);
        let o = g
            .state
            .outcome
            .clone()
            .unwrap_or_else(|| panic!("seed {seed} did not finish by round {}", g.state.round));
        assert!(g.state.round <= g.state.max_rounds);
        no_two_models_share_a_square(&g.state);
        wins[(o.winner == Side::Overmind) as usize] += 1;
        assert!(
            !g.log
                .iter()
                .any(|e| matches!(e, Event::BehaviourFailed { .. })),
            "seed {seed}: a native behaviour failed"
        );
    }
    assert!(wins[0] + wins[1] == 200);
}

#[test]
fn the_same_seed_gives_the_same_log_and_another_does_not() {
    let a = serde_json::to_string(&ai_game(11).0.log).unwrap();
    let b = serde_json::to_string(&ai_game(11).0.log).unwrap();
    let c = serde_json::to_string(&ai_game(12).0.log).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn a_recorded_game_replays_to_the_identical_log() {
    for seed in [3, 4, 5] {
        let (g, c) = ai_game(seed);
        let st = demo_setup().start(&c, seed).unwrap();
        let r = Game::replay(st, "demo", seed, &g.record, &c).expect("replays");
        assert_eq!(r.log, g.log);
        assert_eq!(r.state, g.state);
    }
}

#[test]
fn save_and_load_mid_game_continue_identically() {
    let c = base_like();
    let st = demo_setup().start(&c, 21).unwrap();
    let mut g = Game::new(st, "demo", 21);
    play_ai_game(&mut g, &c, 60);
    let saved = serde_json::to_string(&g).unwrap();
    let mut loaded: Game = serde_json::from_str(&saved).unwrap();
    assert_eq!(loaded.state, g.state);
    play_ai_game(&mut g, &c, 20_000);
    play_ai_game(&mut loaded, &c, 20_000);
    assert_eq!(
        serde_json::to_string(&loaded.log).unwrap(),
        serde_json::to_string(&g.log).unwrap()
    );
}

#[test]
fn the_heroes_never_learn_a_face_down_blips_contents() {
    for seed in 0..40 {
        let c = base_like();
        let st = demo_setup().start(&c, seed).unwrap();
        let mut g = Game::new(st, "demo", seed);
        let mut ctl = Controllers::new(Box::new(ai::AiController), Box::new(ai::AiController));
        let (mut h, mut o) = (ai::HeroAi, ai::OvermindAi);
        let mut seen = 0;
        for _ in 0..5000 {
            let view = serde_json::to_string(&g.state.view(Side::Heroes)).unwrap();
            assert!(
                !view.contains("holds"),
                "seed {seed}: a Blip's contents in the Heroes' view"
            );
            let hidden_decoy = g
                .state
                .blips
                .iter()
                .any(|b| b.contents == Some(Contents::Decoy));
            for e in &g.log[seen..] {
                let s = serde_json::to_string(e).unwrap();
                if let Event::BlipRevealed { .. } = e {
                    continue;
                }
                assert!(!s.contains("holds"), "{s}");
                if hidden_decoy {
                    assert!(
                        !s.to_lowercase().contains("decoy")
                            || matches!(e, Event::DecoyRemoved { .. }),
                        "{s}"
                    );
                }
            }
            seen = g.log.len();
            if !ai::ai_step(&mut g, &c, &mut ctl, &mut h, &mut o) {
                break;
            }
        }
    }
}
