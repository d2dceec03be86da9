//! The AutoPlay benchmark:
//!
//! ```sh
//! cargo bench --bench autoplay
//! ```
//!
//! - Ur random-vs-random games per second through the tournament runner, with one and two
//!   worker threads (the speed-up of `-j 2` over `-j 1`);
//! - chess random playouts per second on the engine (bundled `chess`), against shakmaty in
//!   the same run. Both play uniformly random legal moves from the start position until the
//!   game ends or [`CHESS_CAP`] plies; shakmaty also ends games on insufficient material and
//!   the 50-move rule, which the ZRF rules lack, so plies per second are printed as well.

use dagaz::ai::engine_game::EngineGame;
use dagaz::ai::{AiConfig, Game};
use dagaz::expand::{Limits, load_text};
use dagaz::model::Model;
use dagaz::rng::Rng;
use dagaz::tournament::record::RunSettings;
use dagaz::tournament::{RunConfig, run};
use shakmaty::{Chess, Position};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const CHESS_CAP: u32 = 400;
const SECONDS: f64 = 4.0;

fn bundled(name: &str, slug: Option<&str>) -> EngineGame {
    let b = dagaz::games::find(name).unwrap();
    let loaded = load_text(&format!("{name}.zrf"), b.text, Limits::default());
    let g = match slug {
        Some(s) => loaded.find_game(s).unwrap(),
        None => loaded.default_game().unwrap(),
    };
    EngineGame::new(Model::compile(g).unwrap())
}

fn ur_games_per_second(threads: usize, games: u64) -> f64 {
    let proto = bundled("ur", Some("ur-random"));
    let random = AiConfig::default();
    let settings = RunSettings::new(
        ["ur-random".into(), "ur-random".into()],
        ["Ur [random]".into(), "Ur [random]".into()],
        games,
    );
    let mut cfg = RunConfig::new(1, settings);
    cfg.threads = threads;
    let t = Instant::now();
    let out = run(
        &proto,
        [&random, &random],
        &cfg,
        &AtomicBool::new(false),
        &|_| {},
    )
    .unwrap();
    assert_eq!(out.records.len() as u64, games);
    games as f64 / t.elapsed().as_secs_f64()
}

/// (playouts/s, plies/s) of dagaz's chess.
fn dagaz_chess() -> (f64, f64) {
    let proto = bundled("chess", None);
    let mut rng = Rng::new(1);
    let mut moves = Default::default();
    let (mut games, mut plies) = (0u64, 0u64);
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs_f64(SECONDS) {
        let mut g = proto.clone();
        for _ in 0..CHESS_CAP {
            g.legal_moves(&mut moves);
            if g.outcome(&moves).is_some() {
                break;
            }
            let i = rng.below(EngineGame::num_moves(&moves));
            g.make(&moves, i);
            plies += 1;
        }
        games += 1;
    }
    let s = t.elapsed().as_secs_f64();
    (games as f64 / s, plies as f64 / s)
}

/// (playouts/s, plies/s) of shakmaty.
fn shakmaty_chess() -> (f64, f64) {
    let mut rng = Rng::new(1);
    let (mut games, mut plies) = (0u64, 0u64);
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs_f64(SECONDS) {
        let mut pos = Chess::default();
        for _ in 0..CHESS_CAP {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() || pos.halfmoves() >= 100 {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos.play_unchecked(m);
            plies += 1;
        }
        games += 1;
    }
    let s = t.elapsed().as_secs_f64();
    (games as f64 / s, plies as f64 / s)
}

fn main() {
    // Enough games (several seconds) that thread start-up and the last, unbalanced games
    // do not dominate the -j 2 figure.
    let games = 12_000;
    let j1 = ur_games_per_second(1, games);
    let j2 = ur_games_per_second(2, games);
    println!(
        "Ur random vs random: {j1:.0} games/s with -j 1, {j2:.0} games/s with -j 2, speed-up {:.2}x",
        j2 / j1
    );
    let (dg, dp) = dagaz_chess();
    let (sg, sp) = shakmaty_chess();
    println!(
        "chess random playouts (cap {CHESS_CAP} plies): dagaz {dg:.0}/s ({dp:.0} plies/s), shakmaty {sg:.0}/s ({sp:.0} plies/s)"
    );
    println!(
        "ratio shakmaty/dagaz: playouts {:.1}x, plies {:.1}x",
        sg / dg,
        sp / dp
    );
}
