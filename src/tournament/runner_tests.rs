//! Tests of the one match runner: a two-player match and a round robin of one pairing play
//! the same games, and a game that panics is recorded as an error in both while the run
//! goes on.

use super::record::{GameRecord, GameResult, RunSettings};
use super::round_robin::{self, Pairing, Schedule};
use super::{RunConfig, run, run_with};
use crate::ai::engine_game::EngineGame;
use crate::ai::game::{Outcome, PieceInfo};
use crate::ai::{AiConfig, AiKind, Game};
use crate::model::PositionId;
use crate::tournament::openings::OpeningBook;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

fn ur() -> EngineGame {
    EngineGame::new(crate::load_game("ur-simple").expect("bundled"))
}

fn random() -> AiConfig {
    AiConfig {
        kind: AiKind::Random,
        ..AiConfig::default()
    }
}

/// The records a round robin of one pairing streams, in index order, without timings.
fn one_pairing<G: Game + Sync>(proto: &G, settings: &RunSettings, seed: u64) -> Vec<GameRecord> {
    let schedule = Schedule::new(2, false, false, settings.games).expect("schedule");
    let book = OpeningBook::default();
    let pairing = Pairing {
        proto,
        book: &book,
        settings: settings.clone(),
        identity: None,
    };
    let mut cfg = round_robin::Config::new(seed);
    cfg.threads = 2;
    let got = Mutex::new(vec![]);
    let stop = AtomicBool::new(false);
    let on_done = |r: &GameRecord| got.lock().unwrap().push(r.clone());
    let configs = [random(), random()];
    round_robin::run(&schedule, &configs, &[pairing], &cfg, &stop, &on_done).expect("run");
    untimed(got.into_inner().unwrap())
}

fn untimed(mut records: Vec<GameRecord>) -> Vec<GameRecord> {
    records.sort_by_key(|r| r.game_index);
    for r in &mut records {
        r.time_ms = None;
    }
    records
}

#[test]
fn a_match_plays_the_games_of_a_one_pairing_schedule() {
    let proto = ur();
    let settings = RunSettings::new(["a".into(), "b".into()], ["t".into(), "t".into()], 9);
    let mut cfg = RunConfig::new(11, settings.clone());
    cfg.threads = 2;
    let stop = AtomicBool::new(false);
    let (a, b) = (random(), random());
    let out = run(&proto, [&a, &b], &cfg, &stop, &|_| {}).expect("run");
    let matched = untimed(out.records);
    assert_eq!(matched.len(), 9);
    assert!(!out.interrupted);
    assert_eq!(matched, one_pairing(&proto, &settings, 11));
}

/// [`EngineGame`] that panics on the `fuse`-th move played by any copy of it.
#[derive(Clone)]
struct Fused {
    inner: EngineGame,
    played: Arc<AtomicU32>,
    fuse: u32,
}

impl Game for Fused {
    type Moves = <EngineGame as Game>::Moves;
    type Undo = <EngineGame as Game>::Undo;
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    fn player_name(&self, player: usize) -> &str {
        self.inner.player_name(player)
    }
    fn is_random(&self, player: usize) -> bool {
        self.inner.is_random(player)
    }
    fn seats(&self) -> Vec<usize> {
        self.inner.seats()
    }
    fn current_player(&self) -> usize {
        self.inner.current_player()
    }
    fn legal_moves(&mut self, out: &mut Self::Moves) {
        self.inner.legal_moves(out)
    }
    fn num_moves(moves: &Self::Moves) -> usize {
        EngineGame::num_moves(moves)
    }
    fn make(&mut self, moves: &Self::Moves, i: usize) -> Self::Undo {
        self.inner.make(moves, i)
    }
    fn play(&mut self, moves: &Self::Moves, i: usize) {
        if self.played.fetch_add(1, Ordering::Relaxed) + 1 == self.fuse {
            panic!("fuse blown");
        }
        self.inner.play(moves, i)
    }
    fn unmake(&mut self, moves: &Self::Moves, i: usize, undo: Self::Undo) {
        self.inner.unmake(moves, i, undo)
    }
    fn outcome(&mut self, moves: &Self::Moves) -> Option<Outcome> {
        self.inner.outcome(moves)
    }
    fn hash(&self) -> u64 {
        self.inner.hash()
    }
    fn board_key(&self) -> u64 {
        self.inner.board_key()
    }
    fn notation(&self, moves: &Self::Moves, i: usize) -> String {
        self.inner.notation(moves, i)
    }
    fn captures(moves: &Self::Moves, i: usize) -> u32 {
        EngineGame::captures(moves, i)
    }
    fn for_each_piece(&self, f: &mut dyn FnMut(PieceInfo)) {
        self.inner.for_each_piece(f)
    }
    fn piece_type_index(&self, name: &str) -> Option<usize> {
        self.inner.piece_type_index(name)
    }
    fn num_piece_types(&self) -> usize {
        self.inner.num_piece_types()
    }
    fn num_positions(&self) -> usize {
        self.inner.num_positions()
    }
    fn zone_index(&self, name: &str) -> Option<usize> {
        self.inner.zone_index(name)
    }
    fn in_zone(&self, zone: usize, player: usize, pos: PositionId) -> bool {
        self.inner.in_zone(zone, player, pos)
    }
    fn direction_index(&self, name: &str) -> Option<usize> {
        self.inner.direction_index(name)
    }
    fn link(&self, player: usize, dir: usize, pos: PositionId) -> Option<PositionId> {
        self.inner.link(player, dir, pos)
    }
}

/// One record says the game panicked; every other game is played to its end.
fn check_one_panic(records: &[GameRecord], games: usize) {
    assert_eq!(records.len(), games);
    let panicked: Vec<&GameRecord> = records
        .iter()
        .filter(|r| r.result == GameResult::Error)
        .collect();
    assert_eq!(panicked.len(), 1, "{records:?}");
    let error = panicked[0].error.as_deref().unwrap_or_default();
    assert_eq!(error, "internal error (panic): fuse blown");
    assert!(
        records
            .iter()
            .filter(|r| r.result != GameResult::Error)
            .all(|r| r.result.is_finished())
    );
}

#[test]
fn a_panicking_game_is_recorded_and_the_run_goes_on() {
    let fused = || Fused {
        inner: ur(),
        played: Arc::new(AtomicU32::new(0)),
        fuse: 30,
    };
    let settings = RunSettings::new(["a".into(), "b".into()], ["t".into(), "t".into()], 4);
    let stop = AtomicBool::new(false);
    let (a, b) = (random(), random());
    let cfg = RunConfig::new(3, settings.clone());
    let book = OpeningBook::default();
    let out = run_with(&fused(), [&a, &b], &cfg, &book, &stop, &|_| {}).expect("run");
    check_one_panic(&out.records, 4);
    assert!(!out.interrupted);
    check_one_panic(&one_pairing(&fused(), &settings, 3), 4);
}
