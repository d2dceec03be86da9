//! Engine speed: perft leaves per second of the bundled chess, English and international
//! draughts, tic-tac-toe and Four in a Row (goal-heavy), with shakmaty (a hand-written
//! bitboard chess library) measured in the same run as the reference, and each case's
//! target (issue 13) marked met or not. Run with `cargo bench --bench engine`; `DAGAZ_BENCH_QUICK=1` uses smaller
//! depths.
//!
//! "Full" perft makes and unmakes every leaf move; "bulk" counts the last ply from the move
//! list. Each figure is the best of at least `RUNS` runs that together take at least
//! `MIN_SECONDS` (a 30 ms tic-tac-toe count run three times said more about the machine's
//! clock and load than about the engine).

use dagaz::engine::Engine;
use dagaz::expand::{Limits, load_text};
use dagaz::model::Model;
use shakmaty::{Chess, Position};
use std::time::Instant;

const RUNS: usize = 3;
const MIN_SECONDS: f64 = 1.0;

fn engine(name: &str) -> Engine {
    let b = dagaz::games::find(name).expect("bundled game");
    let loaded = load_text(&format!("{name}.zrf"), b.text, Limits::default());
    let game = loaded.default_game().expect("game");
    Engine::new(Model::compile(game).expect("compiles"))
}

/// Best leaves/s of runs of `f`, which returns the leaf count: at least `RUNS` runs, and
/// more until they have taken `MIN_SECONDS` together.
fn measure(mut f: impl FnMut() -> u64) -> (u64, f64) {
    let mut best = 0f64;
    let mut n = 0;
    let start = Instant::now();
    let mut runs = 0;
    while runs < RUNS || start.elapsed().as_secs_f64() < MIN_SECONDS {
        let t = Instant::now();
        n = f();
        best = best.max(n as f64 / t.elapsed().as_secs_f64());
        runs += 1;
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

/// Best full and bulk leaves/s of a bundled game's perft from its start position.
fn perft_rates(name: &str, depth: u32) -> (u64, f64, f64) {
    let mut e = engine(name);
    let s = e.initial_state();
    let (n, full) = measure(|| e.perft_full(&mut s.clone(), depth));
    let (_, bulk) = measure(|| e.perft(&mut s.clone(), depth));
    (n, full, bulk)
}

fn main() {
    let quick = std::env::var_os("DAGAZ_BENCH_QUICK").is_some();
    let depths = |full: u32, small: u32| if quick { small } else { full };
    let chess_depth = depths(5, 4);

    let mut chess = engine("chess");
    let start = chess.initial_state();
    let (n_full, dz_full) = measure(|| chess.perft_full(&mut start.clone(), chess_depth));
    let (_, dz_bulk) = measure(|| chess.perft(&mut start.clone(), chess_depth));
    let pos = Chess::default();
    let (n_sh, sh_full) = measure(|| shakmaty_full(&pos, chess_depth));
    let (_, sh_bulk) = measure(|| shakmaty::perft(&pos, chess_depth));
    assert_eq!(n_full, n_sh, "chess perft differs from shakmaty");

    println!(
        "engine benchmark (best of at least {RUNS} runs and {MIN_SECONDS} s, single thread, leaves per second)"
    );
    println!(
        "{:<40} {:>12} {:>14} {:>12} {:>22}",
        "case", "leaves", "leaves/s", "vs shakmaty", "target"
    );
    let row = |name: &str, n: u64, v: f64, target: &str| {
        println!(
            "{name:<40} {n:>12} {v:>14.0} {:>12.3} {target:>22}",
            v / sh_full
        );
    };
    row(
        &format!("chess perft({chess_depth}) shakmaty full"),
        n_sh,
        sh_full,
        "",
    );
    row(
        &format!("chess perft({chess_depth}) shakmaty bulk"),
        n_sh,
        sh_bulk,
        "",
    );
    let verdict = |ok: bool| if ok { "met" } else { "NOT MET" };
    row(
        &format!("chess perft({chess_depth}) dagaz full"),
        n_full,
        dz_full,
        &format!(">= 0.25 shakmaty: {}", verdict(dz_full >= 0.25 * sh_full)),
    );
    row(
        &format!("chess perft({chess_depth}) dagaz bulk"),
        n_full,
        dz_bulk,
        "",
    );
    // (bundled game, depth, target in leaves/s for full mode)
    let cases = [
        ("checkers", depths(9, 8), 6e6),
        ("international-draughts", depths(7, 6), 6e6),
        ("tictactoe", 9, 5e6),
        ("connect-four", depths(8, 7), 5e6),
    ];
    for (name, depth, target) in cases {
        let (n, full, bulk) = perft_rates(name, depth);
        row(
            &format!("{name} perft({depth}) dagaz full"),
            n,
            full,
            &format!(">= {:.0} M: {}", target / 1e6, verdict(full >= target)),
        );
        row(&format!("{name} perft({depth}) dagaz bulk"), n, bulk, "");
    }
    println!(
        "dagaz chess full / shakmaty full = 1/{:.1}",
        sh_full / dz_full
    );
}
