//! The Forth and Axiom benchmark:
//!
//! ```sh
//! cargo bench --bench forth
//! DAGAZ_AXIOM_DIR=/path/to/Axiom/Ur cargo bench --bench forth   # also the published Ur
//! ```
//!
//! Each figure is the best of several runs (five for the loops, three for the games).
//!
//! - Forth primitives per second on one core, on three loops (arithmetic in a `DO LOOP`,
//!   memory traffic through `VARIABLE`s, a recursive colon definition), against the issue's
//!   target of 50 M/s (the ratio is printed);
//! - random-vs-random games per second on one core of dagaz's own dice race
//!   (tests/fixtures/axiom/race) and, with `DAGAZ_AXIOM_DIR`, of the folder's
//!   `Ur-[random].4th`, against the target of 200 games/s, with the move-word cache and
//!   without it (the ratio of the two, measured in the same run, is printed);
//! - games per second of the race played by its default engine (`$NegamaxMove`, whose
//!   leaves ask `OnEvaluate`) and, with `DAGAZ_AXIOM_DIR`, of the folder's
//!   `Ur-[simple-evaluation].4th` if it has one, with the trace caches (move words and
//!   evaluations) and without them, and their ratio.

use dagaz::ai::{AiConfig, AiKind};
use dagaz::axiom::{AxiomGame, Program};
use dagaz::forth::{Limits, NoHost, Vm};
use dagaz::tournament::record::RunSettings;
use dagaz::tournament::{RunConfig, run};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

const TARGET_PRIMS: f64 = 50e6;
const TARGET_GAMES: f64 = 200.0;

fn primitives_per_second(name: &str, setup: &str, call: &str) -> f64 {
    let mut vm = Vm::with_prelude(Limits::default()).unwrap();
    vm.interpret_str("bench.4th", setup, &mut NoHost).unwrap();
    let mut best: f64 = 0.0;
    for _ in 0..5 {
        vm.set_step_budget(u64::MAX);
        let t = Instant::now();
        vm.interpret_str("run.4th", call, &mut NoHost).unwrap();
        let rate = vm.steps() as f64 / t.elapsed().as_secs_f64();
        vm.clear_stacks();
        best = best.max(rate);
    }
    println!(
        "forth {name:<12} {:>7.1} M primitives/s  ({:.2}x the 50 M/s target)",
        best / 1e6,
        best / TARGET_PRIMS
    );
    best
}

fn games_per_second(label: &str, file: &Path, games: u64, cache: bool) -> f64 {
    games_per_second_against(label, file, games, cache, Some(TARGET_GAMES))
}

/// Games per second of `file` against itself on one core, its programs' own engines
/// playing; with `target`, the ratio to it is printed.
fn games_per_second_against(
    label: &str,
    file: &Path,
    games: u64,
    cache: bool,
    target: Option<f64>,
) -> f64 {
    let program = Program::load(file, None).unwrap_or_else(|e| panic!("{e}"));
    let mut own = AiConfig::default();
    own.kind = AiKind::Program;
    let mut settings = RunSettings::new(["a".into(), "b".into()], ["a".into(), "b".into()], games);
    settings.swap = false;
    let mut cfg = RunConfig::new(1, settings);
    cfg.threads = 1;
    cfg.summary_only = true;
    // As the CLI without a games file: no notation of the moves.
    cfg.keep_moves = false;
    let stop = AtomicBool::new(false);
    // The best of three runs (a short run on a shared machine is noisy), each from a new
    // game (its caches empty, none left by the run before).
    let mut best = None;
    for _ in 0..3 {
        let mut proto = AxiomGame::new(&program, &program, 1).unwrap();
        proto.set_move_cache(cache);
        let t = Instant::now();
        let out = run(&proto, [&own, &own], &cfg, &stop, &|_| {}).unwrap();
        let secs = t.elapsed().as_secs_f64();
        if best.as_ref().is_none_or(|(b, _)| secs < *b) {
            best = Some((secs, out));
        }
    }
    let (secs, out) = best.unwrap();
    let s = out.summary.summary().unwrap();
    let rate = games as f64 / secs;
    let label = format!("{label}{}", if cache { "" } else { " (no cache)" });
    let against = target.map_or(String::new(), |t| {
        format!(" ({:.2}x the {t:.0} games/s target)", rate / t)
    });
    println!(
        "axiom {label:<17} {rate:>7.1} games/s on one core{against}; {:.0} plies/s, mean {:.0} plies, {} errors",
        s.mean_plies * games as f64 / secs,
        s.mean_plies,
        s.errors
    );
    rate
}

/// Games per second with the move-word cache and without it, and their ratio.
fn with_and_without_cache(label: &str, file: &Path, games: u64) {
    let with = games_per_second(label, file, games, true);
    let without = games_per_second(label, file, games, false);
    println!(
        "axiom {label:<17} the move-word cache: {:.2}x",
        with / without
    );
}

/// Searched games per second with the trace caches and without them, and their ratio.
fn searched_with_and_without_cache(label: &str, file: &Path, games: u64) {
    let with = games_per_second_against(label, file, games, true, None);
    let without = games_per_second_against(label, file, games, false, None);
    println!(
        "axiom {label:<17} the trace caches (move words, OnEvaluate): {:.2}x",
        with / without
    );
}

fn main() {
    primitives_per_second(
        "do-loop",
        ": sum 0 SWAP 0 DO I + LOOP ;",
        "20000000 sum DROP",
    );
    primitives_per_second(
        "variables",
        "VARIABLE a VARIABLE b : mem 0 DO a @ 1+ a ! b @ a @ + b ! LOOP ;",
        "3000000 mem",
    );
    primitives_per_second(
        "recursion",
        ": fib DUP 2 < IF EXIT THEN DUP 1- RECURSE SWAP 2 - RECURSE + ;",
        "27 fib DROP",
    );
    let race =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race/Race-[random].4th");
    if race.is_file() {
        with_and_without_cache("race", &race, 400);
        searched_with_and_without_cache("race negamax", &race.with_file_name("Race.4th"), 40);
    }
    if let Ok(dir) = std::env::var("DAGAZ_AXIOM_DIR") {
        let ur = dagaz::axiom::program::find_file_ci(Path::new(&dir), "Ur-[random].4th");
        match ur {
            Some(ur) => with_and_without_cache("ur", &ur, 40),
            None => eprintln!("no Ur-[random].4th in {dir}"),
        }
        let simple =
            dagaz::axiom::program::find_file_ci(Path::new(&dir), "Ur-[simple-evaluation].4th");
        if let Some(simple) = simple {
            searched_with_and_without_cache("ur simple-eval", &simple, 2);
        }
    }
}
