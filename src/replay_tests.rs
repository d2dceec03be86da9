//! Tests of `replay`: the hand-checked saved game of tests/fixtures/replay, a move that
//! is not legal, chains played step by step, and saved games written from played games.

use super::*;
use crate::zsg;
use std::path::Path;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/replay")
        .join(name)
}

fn engine_of(zrf: &Path, title: &str) -> Engine {
    let loaded = crate::expand::load_path(zrf, "t.zrf", Default::default()).unwrap();
    let def = loaded.games.iter().find(|g| g.title == title).unwrap();
    Engine::new(crate::model::Model::compile(def).unwrap())
}

#[test]
fn the_effects_fixture_replays_to_its_hand_checked_position() {
    let r = replay_file(&fixture("effects.zsg"), &ReplayOptions::default()).unwrap();
    let rep = &r.report;
    assert!(rep.complete(), "{:?}", rep.stop);
    assert_eq!((rep.moves, rep.replayed, rep.edits), (12, 12, 2));
    // `Man c5 - c4 = Man on c4` writes a type change that changes nothing: it is matched
    // by its effects; every other move is written as dagaz writes it.
    assert_eq!(rep.same_text, 11);
    let mut got: Vec<String> = rep
        .pieces
        .iter()
        .map(|&(p, t, o)| format!("{} {} {}", r.players[o], r.piece_types[t], r.positions[p]))
        .collect();
    got.sort();
    let mut want = vec![
        "White Man a6",
        "White King b6",
        "White King d6",
        "Black Stone b4",
        "White Marker e4",
        "White Taker d3",
        "White Turner b2",
        "White Man c2",
        "White Man e1",
    ];
    want.sort();
    assert_eq!(got, want);
    assert_eq!(rep.to_move, Some(1));
    // The Marker's attribute was cleared by its move.
    let e4 = r.positions.iter().position(|p| p == "e4").unwrap();
    let v = rep.state.as_ref().unwrap().cells[e4];
    assert!(!crate::model::piece::attr(v, 0), "{v:#x}");
}

#[test]
fn a_move_that_is_not_legal_stops_the_replay_with_the_nearest_moves() {
    let text = std::fs::read_to_string(fixture("effects.zsg")).unwrap();
    let bad = text.replace("Turner b1 - b2 flip c2", "Turner b1 - b3");
    let game = zsg::parse(&bad).unwrap();
    let mut e = engine_of(&fixture("effects.zrf"), "Replay effects");
    let rep = replay(&mut e, &game);
    let stop = rep.stop.expect("stopped");
    assert_eq!(stop.line, 7);
    assert_eq!(stop.text, "2. Turner b1 - b3");
    assert_eq!(stop.nearest[0], "Turner b1 - b2 flip c2", "{stop:?}");
    assert_eq!(rep.replayed, 3);
    // A word that names nothing of the game is said so.
    let bad = text.replace("Turner b1 - b2 flip c2", "Rook b1 - b2");
    let rep = replay(&mut e, &zsg::parse(&bad).unwrap());
    assert!(
        rep.stop.unwrap().reason.contains("`Rook` (word 1)"),
        "the unknown word is named"
    );
    // A chain stopped half-way where it must go on is not a whole move.
    let cut = text.replace("1. partial 2 Man a4 - a6 x a5\r\n", "");
    let rep = replay(&mut e, &zsg::parse(&cut).unwrap());
    assert_eq!(rep.stop.unwrap().line, 5);
}

#[test]
fn chains_played_step_by_step_reach_the_whole_moves_state() {
    // International draughts: random games, every legal chain of every position played
    // step by step and compared with the whole move.
    let b = crate::games::find("international-draughts").unwrap();
    let loaded = crate::expand::load_text("d.zrf", b.text, Default::default());
    let mut e = Engine::new(crate::model::Model::compile(&loaded.games[0]).unwrap());
    let mut rng = crate::rng::Rng::new(7);
    let mut chains = 0;
    for _ in 0..4 {
        let mut s = e.initial_state();
        let mut list = MoveList::new();
        for _ in 0..120 {
            e.legal_moves(&s, &mut list);
            if list.is_empty() {
                break;
            }
            for m in list.iter() {
                let mut steps = e.steps(&s);
                for k in 0..m.num_parts() {
                    let text = e.part_notation(m.part(k).unwrap());
                    steps.play(&e, &text).unwrap();
                }
                let whole = steps.whole().expect("the chain ends").clone();
                let mut a = s.clone();
                e.make(&mut a, &whole);
                let mut b = s.clone();
                e.make(&mut b, m);
                assert_eq!(a.cells, b.cells);
                let mut cells = steps.cells_after(&s);
                cells.truncate(e.model().num_positions());
                assert_eq!(&cells[..], &b.cells[..e.model().num_positions()]);
                if m.num_parts() > 1 {
                    chains += 1;
                }
            }
            let m = list.as_slice()[rng.below(list.len())].clone();
            e.make(&mut s, &m);
        }
    }
    assert!(chains > 20, "{chains} chains");
}

/// Plays `plies` random moves of `def` (seeded by `seed`), writes them as a saved game,
/// reads it back and replays it: the replay must reach the end, every move written as
/// dagaz writes it, in the same position. Returns the moves replayed.
fn round_trip(def: &crate::expand::GameDef, seed: u64, plies: usize, what: &str) -> usize {
    let mut e = Engine::new(crate::model::Model::compile(def).unwrap());
    let mut rng = crate::rng::Rng::new(seed);
    let mut s = e.initial_state();
    let mut list = MoveList::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        e.legal_moves(&s, &mut list);
        if list.is_empty() {
            break;
        }
        let m = list.as_slice()[rng.below(list.len())].clone();
        moves.push(e.notation(&m));
        e.make(&mut s, &m);
    }
    let g = saved_game(&mut e, "game.zrf", &def.title, &moves).unwrap();
    let back = zsg::parse(&zsg::write(&g)).unwrap();
    assert_eq!(back.variant, def.title);
    let rep = replay(&mut e, &back);
    assert!(rep.complete(), "{what} [{}]: {:?}", def.title, rep.stop);
    assert_eq!(rep.same_text, rep.moves, "{what} [{}]", def.title);
    assert_eq!(rep.state.unwrap().cells, s.cells, "{what} [{}]", def.title);
    rep.moves
}

#[test]
fn saved_games_of_played_games_replay() {
    for b in crate::games::all() {
        let loaded =
            crate::expand::load_text(&format!("{}.zrf", b.name), b.text, Default::default());
        for def in &loaded.games {
            round_trip(def, 3, 150, b.name);
        }
    }
}

/// The same for every third file of the shared corpus, each variant that compiles.
#[test]
fn saved_games_of_corpus_games_replay() {
    let files = crate::test_corpus::files();
    let (mut games, mut moves) = (0, 0);
    for (k, path) in files.iter().enumerate().filter(|(k, _)| k % 3 == 0) {
        let Ok(loaded) = crate::expand::load_path(path, "c.zrf", Default::default()) else {
            continue;
        };
        for def in &loaded.games {
            if crate::model::Model::compile(def).is_ok() {
                moves += round_trip(def, k as u64, 60, &path.display().to_string());
                games += 1;
            }
        }
    }
    assert!(games > 80 && moves > 2000, "{games} games, {moves} moves");
}

#[test]
fn saved_games_of_an_axiom_engine_game_replay_through_its_program() {
    use crate::ai::Game;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race");
    let program = crate::axiom::Program::load(&dir.join("Race.4th"), Some(&dir)).unwrap();
    let mut g = crate::axiom::AxiomGame::new(&program, &program, 9).unwrap();
    let proto = g.clone();
    // A game of random moves, as its notations.
    let mut rng = crate::rng::Rng::new(5);
    let mut list = Default::default();
    let mut moves = Vec::new();
    for _ in 0..80 {
        g.legal_moves(&mut list);
        let n = crate::axiom::AxiomGame::num_moves(&list);
        if n == 0 || g.outcome(&list).is_some() {
            break;
        }
        let i = rng.below(n);
        moves.push(g.notation(&list, i));
        g.play(&list, i);
    }
    assert!(moves.len() > 20);
    let saved = saved_game_of(&mut proto.clone(), "RACE.ZRF", "Race", &moves).unwrap();
    let tmp = std::env::temp_dir().join(format!("dagaz-replay-axiom-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let file = tmp.join("race.zsg");
    std::fs::write(&file, zsg::write(&saved)).unwrap();
    let opts = ReplayOptions {
        rules_dirs: vec![dir.clone()],
    };
    let r = replay_file(&file, &opts).unwrap();
    assert!(r.report.complete(), "{:?}", r.report.stop);
    assert_eq!(r.report.replayed, moves.len());
    assert!(r.rules.contains("Axiom"), "{}", r.rules);
    // A move the program does not make stops the replay there.
    let mut bad = saved.clone();
    bad.lines.insert(
        3,
        SavedLine {
            line: 0,
            number: Some(2),
            kind: LineKind::Move {
                partial: None,
                text: "White Runner z9".into(),
            },
        },
    );
    std::fs::write(&file, zsg::write(&bad)).unwrap();
    let r = replay_file(&file, &opts).unwrap();
    assert_eq!(r.report.replayed, 3);
    assert_eq!(r.report.stop.unwrap().line, 7);
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn one_on_lists_the_squares_of_one_change() {
    let e = engine_of(&fixture("effects.zrf"), "Replay effects");
    let names = zsg::Notation::new(e.model());
    let effects = names
        .effects("Turner b1 - b2 = King on c2 d3 = Man on a3 x a5")
        .unwrap();
    let at = |p: &str| e.model().position(p).unwrap();
    let king = crate::model::PieceTypeId::new(e.model().piece_type("King").unwrap());
    assert_eq!(effects.len(), 5, "{effects:?}");
    assert_eq!(
        effects[1],
        zsg::Effect::SetType {
            ty: king,
            at: Some(at("c2"))
        }
    );
    assert_eq!(
        effects[2],
        zsg::Effect::SetType {
            ty: king,
            at: Some(at("d3"))
        }
    );
    assert_eq!(effects[4], zsg::Effect::Capture { at: at("a5") });
}

#[test]
fn a_move_that_cannot_be_read_names_its_word() {
    let e = engine_of(&fixture("effects.zrf"), "Replay effects");
    let names = zsg::Notation::new(e.model());
    let err = names.effects("Turner b1 - b2 x zz9").unwrap_err();
    assert_eq!(
        err,
        zsg::EffectsError::Unexpected {
            word: "zz9".into(),
            index: 6,
            wanted: "a position after `x`"
        }
    );
    assert_eq!(
        err.to_string(),
        "`zz9` (word 6) is not a position after `x`"
    );
    let err = names.effects("Turner b1 - b2 x").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the move ends where a position after `x` was expected"
    );
}

#[test]
fn partial_numbers_follow_the_move_type_markers() {
    // `finish` is named by an `add-partial` before its marker, as in Shafran's checkers:
    // the saved game numbers it by its marker (3), as ZoG does there.
    let text = r#"(game (title "Markers") (players White Black) (turn-order White Black)
      (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10)))
        (directions (e 1 0))))
      (board-setup (White (Man a1)) (Black (Man b1)))
      (piece (name Man) (moves
        (move-type jump) ((verify true) e (verify enemy?) capture e (verify empty?) (add-partial finish))
        (move-type step) ((verify true) e (verify empty?) add)
        (move-type finish) ((verify true) e (verify empty?) add)))
      (draw-condition (White Black) stalemated))"#;
    let loaded = crate::expand::load_text("m.zrf", text, Default::default());
    let model = crate::model::Model::compile(&loaded.games[0]).unwrap();
    let finish = model.move_types.iter().position(|t| t == "finish").unwrap();
    assert_eq!(model.partial_numbers[finish], 3, "{:?}", model.move_types);
    let mut e = Engine::new(model);
    let moves = vec!["Man a1 - c1 x b1 Man c1 - d1".to_owned()];
    let g = saved_game(&mut e, "m.zrf", "Markers", &moves).unwrap();
    let written: Vec<String> = g.lines.iter().map(|l| l.to_text()).collect();
    assert_eq!(
        written,
        vec!["1. partial 3 Man a1 - c1 x b1", "1. Man c1 - d1"]
    );
}
