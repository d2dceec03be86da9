//! Tests of what Axiom 1.50 and 1.51 accept and dagaz once refused, on fixtures written
//! for dagaz (`tests/fixtures/axiom/compat`): `SEED2!` (1.51's `RANDOMIZE2`), `{unlink}`,
//! a deferred word in `{setup}`, a search that must put back the program's variables, and
//! searches whose time varies with the seed as Axiom's play varies from game to game, and
//! equal best moves drawn from the engines' generator.

use super::layer_tests::scratch_dir;
use super::{AxiomGame, Program};
use crate::ai::game::Game;
use crate::rng::Rng;
use std::path::PathBuf;

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/axiom/compat")
        .join(rel)
}

fn load(rel: &str) -> Program {
    Program::load(&fixture(rel), None).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Step budget of the searches that [`cut_searches_vary_with_the_seed_or_with_seed2`] cuts.
const STEPS: u64 = 40_000;

/// One game of `p` against itself with its own engine (`$NegamaxMove`), seeded `seed`,
/// set up by `setup`: its moves' notation.
fn searched_game(p: &Program, seed: u64, setup: impl Fn(&mut AxiomGame)) -> Vec<String> {
    let mut game = AxiomGame::new(p, p, seed).expect("set-up");
    setup(&mut game);
    let mut rng = Rng::new(seed);
    let mut moves = Default::default();
    let mut out = Vec::new();
    for _ in 0..20 {
        game.legal_moves(&mut moves);
        assert!(game.take_error().is_none());
        if game.outcome(&moves).is_some() {
            return out;
        }
        let mover = game.current_player();
        let slot = game.seats().iter().position(|&s| s == mover).unwrap_or(0);
        let i = game.program_move(slot, &moves, &mut rng).expect("search");
        out.push(game.notation(&moves, i));
        game.make(&moves, i);
    }
    panic!("the game did not end in 20 plies: {out:?}");
}

#[test]
fn unlink_cuts_a_link_and_seed2_is_a_kernel_word() {
    let p = load("Compat.4th");
    let vm = &p.vm;
    let info = &p.info;
    let pos = |name: &str| info.positions.iter().position(|n| n == name).unwrap() as u32;
    // The direction tables: a cell per position after the header's PFA.
    let table = |dir: &str| vm.find(dir.as_bytes()).unwrap() + 16;
    let link = |dir: &str, from: &str| vm.cell(table(dir) + 4 * pos(from)).unwrap();
    assert_eq!(link("n", "b2"), pos("b3") as i32);
    assert_eq!(link("n", "a2"), -1, "{{unlink}} n a2");
    assert_eq!(link("s", "b3"), pos("b2") as i32);
    assert_eq!(link("s", "c3"), -1, "{{unlink}} s c3");
    assert!(vm.find(b"RANDOMIZE2").is_some());
    // An unknown direction is an error with the layer's message.
    let dir = scratch_dir("dagaz-unlink");
    let src = std::fs::read_to_string(fixture("Compat.4th")).unwrap();
    let bad = src.replace("{unlink} n a2", "{unlink} up a2");
    std::fs::write(dir.join("Bad.4th"), bad).unwrap();
    let e = Program::load(&dir.join("Bad.4th"), None)
        .err()
        .expect("an unknown direction")
        .to_string();
    assert!(e.contains("expected the name of a direction"), "{e}");
}

/// `{setup} X STONE b2` names a deferred word that is set after the set-up block (as
/// Ordo's `Common.4th` does): the game starts with X's stone on b2. A deferred word set to
/// something that is not a piece fails when the game starts, naming the entry.
#[test]
fn a_deferred_word_in_the_setup_is_run_when_the_game_starts() {
    let p = load("Compat.4th");
    let game = AxiomGame::new(&p, &p, 1).expect("set-up");
    let s = game.state();
    let b2 = p.info.positions.iter().position(|n| n == "b2").unwrap();
    let board = s.vm.cell(p.layout.board).unwrap() as u32;
    let piece = s.vm.cell(board + 4 * b2 as u32).unwrap();
    assert_eq!(piece & 0x3FF, 1, "a Stone on b2");
    assert_eq!(piece & !0x3FF, 2048, "of the first player");
    let dir = scratch_dir("dagaz-deferred-setup");
    let src = std::fs::read_to_string(fixture("Compat.4th")).unwrap();
    std::fs::write(
        dir.join("Bad.4th"),
        src.replace("' Stone IS STONE", "' n IS STONE"),
    )
    .unwrap();
    let p = Program::load(&dir.join("Bad.4th"), None).expect("loads: the name is only stored");
    let e = AxiomGame::new(&p, &p, 1)
        .err()
        .expect("not a piece")
        .to_string();
    assert!(e.contains("{setup} entry 1: `STONE` gives"), "{e}");
}

/// Searches cut by their budget: each search's budget is drawn around `--search-steps`
/// from the engines' generator, so the same seed plays the same game and other seeds
/// other games (as Axiom's time limit cuts its searches at different places); a program
/// that seeds that generator itself (`SEED2!` in `OnNewGame`) plays one game whatever the
/// seed; with the variety off, every seed plays the same game.
#[test]
fn cut_searches_vary_with_the_seed_or_with_seed2() {
    let games = |file: &str, variety: bool| -> std::collections::BTreeSet<Vec<String>> {
        let p = load(file);
        (0..8)
            .map(|seed| {
                searched_game(&p, seed, |g| {
                    g.set_search_steps(STEPS);
                    g.set_search_variety(variety);
                })
            })
            .collect()
    };
    let p = load("Compat-[search].4th");
    let set = |g: &mut AxiomGame| g.set_search_steps(STEPS);
    assert_eq!(searched_game(&p, 3, set), searched_game(&p, 3, set));
    let varied = games("Compat-[search].4th", true);
    assert!(varied.len() >= 2, "{varied:?}");
    assert_eq!(games("Compat-[seeded].4th", true).len(), 1);
    assert_eq!(games("Compat-[search].4th", false).len(), 1);
}

/// Equal best moves: `Compat.4th` values every position alike, so every move of a search
/// that finishes is among the best. One is drawn from the engines' generator: the same
/// seed plays the same game, other seeds other games; with the variety off the first
/// generated is played, so every seed plays the game of `{first}`.
#[test]
fn equal_best_moves_are_drawn_from_the_engines_generator() {
    let p = load("Compat.4th");
    let games = |variety: bool| -> std::collections::BTreeSet<Vec<String>> {
        (0..8)
            .map(|seed| {
                searched_game(&p, seed, |g| {
                    g.set_search_steps(u64::MAX);
                    g.set_search_variety(variety);
                })
            })
            .collect()
    };
    let unlimited = |g: &mut AxiomGame| g.set_search_steps(u64::MAX);
    assert_eq!(
        searched_game(&p, 5, unlimited),
        searched_game(&p, 5, unlimited)
    );
    let varied = games(true);
    assert!(varied.len() >= 4, "{varied:?}");
    let first = games(false);
    assert_eq!(first.len(), 1, "{first:?}");
    // The first move of every list, as `{first}` plays.
    let mut game = AxiomGame::new(&p, &p, 0).expect("set-up");
    let mut moves = Default::default();
    let mut firsts = Vec::new();
    loop {
        game.legal_moves(&mut moves);
        if game.outcome(&moves).is_some() {
            break;
        }
        firsts.push(game.notation(&moves, 0));
        game.make(&moves, 0);
    }
    assert_eq!(first.into_iter().next(), Some(firsts));
}

/// The games of a match are copies of one prototype; each is seeded with its own game
/// seed when it starts (`Game::seed_game`), so its generators draw other numbers than the
/// other games' (as Axiom's programs seed theirs from the clock), unless the program seeds
/// them itself: `SEED2!` in `OnNewGame` keeps the cut searches of every game alike.
#[test]
fn each_game_of_a_match_seeds_its_generators() {
    let games = |file: &str, steps: u64| -> std::collections::BTreeSet<Vec<String>> {
        let p = load(file);
        (0..8)
            .map(|seed| {
                searched_game(&p, 1, |g| {
                    g.set_search_steps(steps);
                    g.seed_game(seed);
                })
            })
            .collect()
    };
    assert!(games("Compat.4th", u64::MAX).len() >= 4);
    assert!(games("Compat-[search].4th", STEPS).len() >= 2);
    assert_eq!(games("Compat-[seeded].4th", STEPS).len(), 1);
}

/// A search cut by its step budget inside a move word leaves the program's variable as
/// the word left it; the engine's move puts it back, so the next generation lists every
/// move (before, it missed the first position's drop, as Ordo's searches did).
#[test]
fn a_cut_search_leaves_the_programs_variables_as_it_found_them() {
    let p = load("Leak.4th");
    let mut game = AxiomGame::new(&p, &p, 1).expect("set-up");
    game.set_search_steps(50_000);
    let mut moves = Default::default();
    game.legal_moves(&mut moves);
    assert_eq!(AxiomGame::num_moves(&moves), 9);
    let marks = p.vm.find(b"marks").unwrap() + 16;
    assert_eq!(game.state().vm.cell(marks).unwrap(), 0);
    let mut rng = Rng::new(1);
    game.program_move(0, &moves, &mut rng).expect("a move");
    assert!(game.take_error().is_none());
    assert_eq!(game.search_cuts(0), 1, "the search was cut");
    assert_eq!(game.state().vm.cell(marks).unwrap(), 0);
    game.legal_moves(&mut moves);
    assert_eq!(AxiomGame::num_moves(&moves), 9);
}

/// A folder with a `CORE.4TH` of 1.51's shape (it defines `RANDOMIZE2` with `SEED2!` and
/// no `CELL+`) and no `axiom.4th` loads: dagaz's layer runs over that `CORE.4TH`. Lint
/// loads what `perft` loads: it is clean here, and when the `CORE.4TH` uses a word that
/// nothing defines, lint reports it at its place, as loading fails there.
#[test]
fn a_core_of_151s_shape_loads_and_lint_checks_it() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/core151");
    let p = Program::load(&dir.join("Game.4th"), None).unwrap_or_else(|e| panic!("{e}"));
    assert!(p.runtime.0.is_some(), "the folder's CORE.4TH is used");
    assert_eq!(searched_game(&p, 3, |_| {}).len(), 8);
    let linted = super::program::lint(&dir.join("Game.4th"), None, &[]);
    let errors: Vec<_> = linted
        .diagnostics
        .iter()
        .filter(|d| d.severity == crate::diagnostics::Severity::Error)
        .map(|d| d.message.clone())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let bad = scratch_dir("dagaz-core151");
    for f in ["CORE.4TH", "Game.4th"] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        std::fs::write(bad.join(f), text.replace("SEED2!", "SEED3!")).unwrap();
    }
    let e = Program::load(&bad.join("Game.4th"), None)
        .err()
        .expect("SEED3! is undefined")
        .to_string();
    assert!(e.contains("SEED3!"), "{e}");
    let linted = super::program::lint(&bad.join("Game.4th"), None, &[]);
    let d = linted
        .diagnostics
        .iter()
        .find(|d| d.message.contains("SEED3!"))
        .unwrap_or_else(|| panic!("lint is silent: {:?}", linted.diagnostics));
    assert_eq!(d.severity, crate::diagnostics::Severity::Error);
    let span = d.span.expect("a place");
    assert!(linted.sources.get(span.file).display.ends_with("CORE.4TH"));
}
