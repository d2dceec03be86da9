//! The AutoPlay benchmark:
//!
//! ```sh
//! cargo bench --bench autoplay
//! ```
//!
//! - Ur random-vs-random games per second through the tournament runner, with one and two
//!   worker threads (the speed-up of `-j 2` over `-j 1`);
//! - perft `--divide -j 2` against `-j 1` (chess, full mode);
//! - random playouts (whole games, uniformly random legal moves, at most [`CHESS_CAP`]
//!   plies) of chess, draughts, Ur, Four in a Row and five corpus games chosen for variety
//!   (drops, partial-move chains, attributes, four players, captures by surrounding), in
//!   plies per second and as a ratio to the same game's perft rate (full mode);
//! - chess random playouts per second on the engine (bundled `chess`), against shakmaty in
//!   the same run. Both play uniformly random legal moves from the start position until the
//!   game ends or [`CHESS_CAP`] plies; shakmaty also ends games on insufficient material and
//!   the 50-move rule, which the ZRF rules lack, so plies per second are printed as well.

use dagaz::ai::engine_game::EngineGame;
use dagaz::ai::{AiConfig, Game};
use dagaz::engine::Engine;
use dagaz::expand::{Limits, load_path, load_text};
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
    playout_rates(&bundled("chess", None), SECONDS)
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

/// A playout benchmark game: a bundled game (`None` path) or a corpus file, and a variant.
struct PlayoutGame {
    label: &'static str,
    bundled: Option<&'static str>,
    corpus: Option<&'static str>,
    variant: Option<&'static str>,
}

const PLAYOUT_GAMES: &[PlayoutGame] = &[
    PlayoutGame {
        label: "chess",
        bundled: Some("chess"),
        corpus: None,
        variant: None,
    },
    PlayoutGame {
        label: "English draughts",
        bundled: Some("checkers"),
        corpus: None,
        variant: None,
    },
    PlayoutGame {
        label: "Ur (dice)",
        bundled: Some("ur"),
        corpus: None,
        variant: Some("ur-random"),
    },
    PlayoutGame {
        label: "Four in a Row (goals)",
        bundled: Some("connect-four"),
        corpus: None,
        variant: None,
    },
    PlayoutGame {
        label: "mini-shogi (drops)",
        bundled: None,
        corpus: Some("shogi-family/mini-shogi.zrf"),
        variant: None,
    },
    PlayoutGame {
        label: "Dameo (partial chains)",
        bundled: None,
        corpus: Some("checkers/dameo.zrf"),
        variant: None,
    },
    PlayoutGame {
        label: "Jungle (attributes)",
        bundled: None,
        corpus: Some("breakthrough/jungle.zrf"),
        variant: None,
    },
    PlayoutGame {
        label: "Chaturaji (4 players)",
        bundled: None,
        corpus: Some("chess/chaturaji.zrf"),
        variant: None,
    },
    PlayoutGame {
        label: "Atari Go 9x9 (captures)",
        bundled: None,
        corpus: Some("go-family/atari-go.zrf"),
        variant: None,
    },
];

fn playout_game(g: &PlayoutGame) -> Option<EngineGame> {
    let loaded = match (g.bundled, g.corpus) {
        (Some(name), _) => load_text(
            &format!("{name}.zrf"),
            dagaz::games::find(name)?.text,
            Limits::default(),
        ),
        (None, Some(rel)) => {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../shared/corpus/dagaz")
                .join(rel);
            load_path(&path, rel, Limits::default()).ok()?
        }
        (None, None) => return None,
    };
    let def = match g.variant {
        Some(v) => loaded.find_game(v).ok()?,
        None => loaded.default_game()?,
    };
    Some(EngineGame::new(Model::compile(def).ok()?))
}

/// (games/s, plies/s) of random games (at most `CHESS_CAP` plies each) for `seconds`.
fn playout_rates(proto: &EngineGame, seconds: f64) -> (f64, f64) {
    let mut rng = Rng::new(1);
    let mut moves = Default::default();
    let (mut games, mut plies) = (0u64, 0u64);
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs_f64(seconds) {
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

/// (depth, leaves/s) of full-mode perft from the start: the first depth that takes at least
/// 0.3 s (at most depth 12).
fn perft_rate(engine: &Engine) -> (u32, f64) {
    let mut e = engine.clone();
    let s = e.initial_state();
    for depth in 1..=12 {
        let t = Instant::now();
        let n = e.perft_full(&mut s.clone(), depth);
        let secs = t.elapsed().as_secs_f64();
        if secs >= 0.3 || depth == 12 || n == 0 {
            return (depth, n as f64 / secs.max(1e-9));
        }
    }
    (0, 0.0)
}

/// Seconds of full-mode chess perft(5) by root moves over `threads` threads (best of 3).
fn divide_seconds(engine: &Engine, threads: usize) -> f64 {
    let s = engine.initial_state();
    (0..3)
        .map(|_| {
            let t = Instant::now();
            dagaz::engine::perft::divide(engine, &s, 5, threads, true);
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
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
    let chess = bundled("chess", None);
    let (d1, d2) = (
        divide_seconds(&chess.engine, 1),
        divide_seconds(&chess.engine, 2),
    );
    println!(
        "chess perft(5) --divide full: {d1:.2} s with -j 1, {d2:.2} s with -j 2, speed-up {:.2}x (target >= 1.8x)",
        d1 / d2
    );
    println!(
        "\nrandom playouts (whole games, at most {CHESS_CAP} plies, one thread) against perft (full mode)"
    );
    println!(
        "{:<26} {:>14} {:>16} {:>10}",
        "game", "plies/s", "perft leaves/s", "ratio"
    );
    for pg in PLAYOUT_GAMES {
        let Some(proto) = playout_game(pg) else {
            println!(
                "{:<26} (not found: the corpus must sit at ../shared)",
                pg.label
            );
            continue;
        };
        let (_, plies) = playout_rates(&proto, 1.5);
        let (depth, perft) = perft_rate(&proto.engine);
        println!(
            "{:<26} {plies:>14.0} {:>16} {:>10.3}",
            pg.label,
            format!("{perft:.0} (d{depth})"),
            plies / perft
        );
    }
    let (dg, dp) = dagaz_chess();
    let (sg, sp) = shakmaty_chess();
    println!(
        "chess random playouts (cap {CHESS_CAP} plies): dagaz {dg:.0}/s ({dp:.0} plies/s), shakmaty {sg:.0}/s ({sp:.0} plies/s)"
    );
    println!(
        "ratio shakmaty/dagaz: playouts {:.1}x, plies {:.1}x (target: plies <= 8x)",
        sg / dg,
        sp / dp
    );
}
