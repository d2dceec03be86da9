//! Engine speed: perft leaves per second of the bundled chess and English draughts, with
//! shakmaty (a hand-written bitboard chess library) measured in the same run as the
//! reference. Run with `cargo bench --bench engine`; `DAGAZ_BENCH_QUICK=1` uses smaller
//! depths.
//!
//! "Full" perft makes and unmakes every leaf move; "bulk" counts the last ply from the move
//! list. Each figure is the best of `RUNS` runs.

use dagaz::engine::Engine;
use dagaz::expand::{Limits, load_text};
use dagaz::model::Model;
use shakmaty::{Chess, Position};
use std::time::Instant;

const RUNS: usize = 3;

fn engine(name: &str) -> Engine {
    let b = dagaz::games::find(name).expect("bundled game");
    let loaded = load_text(&format!("{name}.zrf"), b.text, Limits::default());
    let game = loaded.default_game().expect("game");
    Engine::new(Model::compile(game).expect("compiles"))
}

/// Best leaves/s of `RUNS` runs of `f`, which returns the leaf count.
fn measure(mut f: impl FnMut() -> u64) -> (u64, f64) {
    let mut best = 0f64;
    let mut n = 0;
    for _ in 0..RUNS {
        let t = Instant::now();
        n = f();
        best = best.max(n as f64 / t.elapsed().as_secs_f64());
    }
    (n, best)
}

fn shakmaty_full(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for m in pos.legal_moves() {
        let mut p = pos.clone();
        p.play_unchecked(m);
        n += shakmaty_full(&p, depth - 1);
    }
    n
}

fn main() {
    let quick = std::env::var_os("DAGAZ_BENCH_QUICK").is_some();
    let (chess_depth, draughts_depth) = if quick { (4, 8) } else { (5, 9) };

    let mut chess = engine("chess");
    let start = chess.initial_state();
    let (n_full, dz_full) = measure(|| chess.perft_full(&mut start.clone(), chess_depth));
    let (_, dz_bulk) = measure(|| chess.perft(&mut start.clone(), chess_depth));
    let pos = Chess::default();
    let (n_sh, sh_full) = measure(|| shakmaty_full(&pos, chess_depth));
    let (_, sh_bulk) = measure(|| shakmaty::perft(&pos, chess_depth));
    assert_eq!(n_full, n_sh, "chess perft differs from shakmaty");

    let mut draughts = engine("checkers");
    let ds = draughts.initial_state();
    let (n_d, d_full) = measure(|| draughts.perft_full(&mut ds.clone(), draughts_depth));
    let (_, d_bulk) = measure(|| draughts.perft(&mut ds.clone(), draughts_depth));

    println!("engine benchmark (best of {RUNS}, single thread, leaves per second)");
    println!(
        "{:<36} {:>12} {:>14} {:>10}",
        "case", "leaves", "leaves/s", "vs shakmaty full"
    );
    let row = |name: &str, n: u64, v: f64| {
        println!("{name:<36} {n:>12} {:>14.0} {:>10.3}", v, v / sh_full);
    };
    row(
        &format!("chess perft({chess_depth}) shakmaty full"),
        n_sh,
        sh_full,
    );
    row(
        &format!("chess perft({chess_depth}) shakmaty bulk"),
        n_sh,
        sh_bulk,
    );
    row(
        &format!("chess perft({chess_depth}) dagaz full"),
        n_full,
        dz_full,
    );
    row(
        &format!("chess perft({chess_depth}) dagaz bulk"),
        n_full,
        dz_bulk,
    );
    println!(
        "{:<36} {n_d:>12} {d_full:>14.0}",
        format!("draughts perft({draughts_depth}) dagaz full")
    );
    println!(
        "{:<36} {n_d:>12} {d_bulk:>14.0}",
        format!("draughts perft({draughts_depth}) dagaz bulk")
    );
    println!(
        "dagaz chess full / shakmaty full = 1/{:.1}",
        sh_full / dz_full
    );
}
