//! Robustness: thousands of mutated corpus files (truncations, deleted and doubled
//! parentheses, random bytes, huge numbers, macro bombs) go through the whole pipeline:
//! loading, model compilation and, when the game still compiles, 20 random plies.
//! No case may panic, and every case must end in a result or a diagnostic within the
//! loader's byte budgets and the engine's node budgets (the bounds asserted here). A
//! wall-clock bound of minutes only guards against a hang: CI machines are loaded, and a
//! time is no measure of work. The mutations are drawn from a fixed seed, so a failure names
//! a reproducible case.

use crate::common;

use dagaz::expand::{Limits, load_bytes};
use dagaz::rng::Rng;
use std::time::{Duration, Instant};

const CASES_PER_FILE: usize = 12;
/// Plies of the random playout run on each mutated file that still compiles.
const PLAYOUT_PLIES: usize = 20;
/// The expansion's byte budget is checked after each charge, so a stopped expansion may end
/// one node's worth past it (about 50 bytes in the macro bombs here).
const LAST_CHARGE: usize = 4096;
/// A hang guard, not a measure of work: a case that runs this long is stuck, not slow (the
/// slowest case takes about a second in a debug build on an idle machine).
const HANG_GUARD: Duration = Duration::from_secs(300);

fn random_index(rng: &mut Rng, b: &[u8], pred: impl Fn(u8) -> bool) -> Option<usize> {
    let idx: Vec<usize> = b
        .iter()
        .enumerate()
        .filter(|(_, c)| pred(**c))
        .map(|(i, _)| i)
        .collect();
    (!idx.is_empty()).then(|| idx[rng.below(idx.len())])
}

/// Applies mutation `kind` to `src`.
fn mutate(src: &[u8], kind: usize, rng: &mut Rng) -> Vec<u8> {
    let mut b = src.to_vec();
    let pos = |rng: &mut Rng, b: &[u8]| rng.below(b.len() + 1);
    match kind {
        0 => b.truncate(pos(rng, &b)),
        1 => {
            if let Some(i) = random_index(rng, &b, |c| c == b'(' || c == b')') {
                b.remove(i);
            }
        }
        2 => {
            if let Some(i) = random_index(rng, &b, |c| c == b'(' || c == b')') {
                let c = b[i];
                b.insert(i, c);
            }
        }
        3 => {
            for _ in 0..1 + rng.below(16) {
                let i = pos(rng, &b);
                b.insert(i, rng.below(256) as u8);
            }
        }
        4 => {
            if let Some(i) = random_index(rng, &b, |c| c.is_ascii_digit()) {
                let huge: &[u8] = [
                    b"99999999999999999999999999999999".as_slice(),
                    b"-18446744073709551617",
                    b"0000000000000000000000001",
                ][rng.below(3)];
                b.splice(i..i + 1, huge.iter().copied());
            }
        }
        5 => {
            // Exponential macro bomb called from inside the game.
            let mut bomb = b"(define b0 (x y))".to_vec();
            for k in 1..48 {
                bomb.extend(format!("(define b{k} (b{p}) (b{p}) (b{p}))", p = k - 1).bytes());
            }
            b.splice(0..0, bomb);
            if let Some(i) = random_index(rng, &b, |c| c == b')') {
                b.splice(i..i, b"(b47)".iter().copied());
            }
        }
        6 => {
            // Mutually recursive macros, and a self-referencing argument.
            b.splice(
                0..0,
                b"(define r1 (r2 $1 $1)) (define r2 (r1 ($1)))"
                    .iter()
                    .copied(),
            );
            if let Some(i) = random_index(rng, &b, |c| c == b')') {
                b.splice(i..i, b"(r1 z)".iter().copied());
            }
        }
        7 => {
            for _ in 0..1 + rng.below(8) {
                if !b.is_empty() {
                    let i = rng.below(b.len());
                    b[i] ^= 1 << rng.below(8);
                }
            }
        }
        8 => {
            // Delete a random slice.
            if !b.is_empty() {
                let i = rng.below(b.len());
                let j = (i + 1 + rng.below(200)).min(b.len());
                b.drain(i..j);
            }
        }
        9 => b.extend(std::iter::repeat_n(b'(', 5000)),
        10 => {
            // An unterminated string somewhere.
            let i = pos(rng, &b);
            b.insert(i, b'"');
        }
        _ => {
            // Duplicate a random slice (doubled sections, doubled variants).
            if !b.is_empty() {
                let i = rng.below(b.len());
                let j = (i + 1 + rng.below(2000)).min(b.len());
                let s = b[i..j].to_vec();
                b.splice(j..j, s);
            }
        }
    }
    b
}

/// Plays [`PLAYOUT_PLIES`] random plies (fewer when the game ends); with `unmake`, one move
/// in four is taken back, and the result is asked after every ply.
fn random_playout(e: &mut dagaz::engine::Engine, rng: &mut Rng, unmake: bool) {
    let mut s = e.initial_state();
    let mut moves = dagaz::engine::MoveList::new();
    for _ in 0..PLAYOUT_PLIES {
        e.legal_moves(&s, &mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves.get(rng.below(moves.len())).unwrap().clone();
        let u = e.make(&mut s, &m);
        if unmake {
            if rng.below(4) == 0 {
                e.unmake(&mut s, &m, u);
            }
            let _ = e.outcome(&s);
        }
    }
}

#[test]
fn mutated_corpus_never_panics_or_hangs() {
    mutated_corpus(CASES_PER_FILE, 4000);
}

/// The long run: 300 mutations of every corpus file (about 100,000 cases). Run with
/// `cargo test --release --test suite robustness:: -- --ignored`.
#[test]
#[ignore]
fn mutated_corpus_long_run() {
    mutated_corpus(300, 100_000);
}

fn mutated_corpus(cases_per_file: usize, at_least: usize) {
    use rayon::prelude::*;
    let files = common::corpus_files();
    let results: Vec<(String, Duration, bool)> = files
        .par_iter()
        .enumerate()
        .flat_map_iter(|(fi, path)| {
            let src = std::fs::read(path).unwrap();
            let rel = common::corpus_rel(path);
            (0..cases_per_file).map(move |k| {
                let mut rng = Rng::derive(0x5EED, (fi * 1000 + k) as u64);
                // Macro bombs (kinds 5 and 6) are costly by design: one case in 50.
                let kind = if (fi * cases_per_file + k) % 50 == 0 {
                    5 + k % 2
                } else {
                    [0, 1, 2, 3, 4, 7, 8, 9, 10, 11][(fi + k) % 10]
                };
                let bytes = mutate(&src, kind, &mut rng);
                let name = format!("{rel}#{k}(kind {kind})");
                let t = Instant::now();
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let l = load_bytes(path.to_str().unwrap(), &bytes, Limits::default());
                    // Every error must carry a code and a position inside a known file, and
                    // the expansion must stay within its byte budget.
                    let ok = l.diagnostics.iter().all(|d| {
                        !d.code.id.is_empty()
                            && d.span.is_none_or(|s| (s.file.0 as usize) < l.sources.len())
                    }) && l.expansion_size.0 <= Limits::default().max_bytes + LAST_CHARGE;
                    // The default game, if it still compiles, must play: a short seeded
                    // random playout on the engine.
                    if let Some(g) = l.default_game()
                        && let Ok(model) = dagaz::model::Model::compile(g)
                    {
                        let mut e = dagaz::engine::Engine::new(model);
                        random_playout(&mut e, &mut rng, false);
                    }
                    ok
                }));
                (name, t.elapsed(), outcome.unwrap_or(false))
            })
        })
        .collect();
    let bad: Vec<_> = results
        .iter()
        .filter(|r| !r.2 || r.1 > HANG_GUARD)
        .collect();
    assert!(results.len() >= at_least, "only {} cases", results.len());
    assert!(bad.is_empty(), "failing or slow cases: {bad:?}");
    let slowest = results.iter().map(|r| r.1).max().unwrap();
    eprintln!("{} mutated cases, slowest {:?}", results.len(), slowest);
}

/// Hostile expansion sizes (issue 9): a string doubled through 30 levels of macros (1 GiB of
/// text at the end) and 300 one-line variants of a large expansion must stop with
/// `DZ0207 expansion-too-large`, within the default byte budgets.
#[test]
fn string_gluing_and_variant_copies_stop_at_the_byte_budget() {
    let mut src = String::from("(define s0 $1)\n");
    for i in 1..=30 {
        src += &format!("(define s{i} (s{p} \"$1$1\"))\n", p = i - 1);
    }
    src += "(game (title (s30 \"ab\")) (players A B))\n";
    let l = load_bytes("glue.zrf", src.as_bytes(), Limits::default());
    let codes: Vec<&str> = l.diagnostics.iter().map(|d| d.code.id).collect();
    assert_eq!(codes, ["DZ0207"], "{:?}", l.diagnostics);
    assert!(l.expansion_size.0 <= Limits::default().max_bytes);

    // About 22 MB of expanded rules per game, as the budget counts them; the variants share
    // the base game's memory, but 300 games to compile amount to far beyond the budget.
    let mut src = String::from("(define m0 (x y z w))\n");
    src += &format!("(define m1 {})\n", "(m0) ".repeat(100));
    src += &format!("(define m2 {})\n", "(m1) ".repeat(600));
    src += "(game (title \"G\") (players A B) (board-setup (m2)))\n";
    for i in 0..300 {
        src += &format!("(variant (title \"V{i}\"))\n");
    }
    assert!(src.len() < 12_000);
    let l = load_bytes("variants.zrf", src.as_bytes(), Limits::default());
    let codes: Vec<&str> = l.diagnostics.iter().map(|d| d.code.id).collect();
    assert_eq!(codes, ["DZ0207"], "{:?}", l.diagnostics);
    assert!(l.games.len() < 300, "{}", l.games.len());
}

/// A random rules file from a small grammar of ZRF forms: boards of random size and
/// directions, pieces whose blocks mix steps, tests, `verify`, `if`/`while`, captures,
/// promotions, flags, partial moves, drops and `create`, random setups, options and goals.
/// Unlike mutations of real files, these compile most of the time, so they reach the model
/// compiler and the engine (move generation, partial chains, king safety, goals).
fn random_game(rng: &mut Rng) -> String {
    let pick = |rng: &mut Rng, v: &[&str]| v[rng.below(v.len())].to_owned();
    let files = 2 + rng.below(6);
    let ranks = 1 + rng.below(6);
    let file_names: Vec<String> = (0..files)
        .map(|i| ((b'a' + i as u8) as char).to_string())
        .collect();
    let rank_names: Vec<String> = (1..=ranks).rev().map(|i| i.to_string()).collect();
    let dirs = ["n", "s", "e", "w", "ne", "nw", "se", "sw"];
    let deltas = ["0 -1", "0 1", "1 0", "-1 0", "1 -1", "-1 -1", "1 1", "-1 1"];
    let positions: Vec<String> = file_names
        .iter()
        .flat_map(|f| rank_names.iter().map(move |r| format!("{f}{r}")))
        .collect();
    let pos = |rng: &mut Rng| positions[rng.below(positions.len())].clone();
    let types = ["Man", "King", "Stone"];
    let move_types = ["normal", "jump", "extra"];
    let cond = |rng: &mut Rng| -> String {
        let base = pick(
            rng,
            &[
                "empty?",
                "friend?",
                "enemy?",
                "not-empty?",
                "(piece? King)",
                "(in-zone? goal)",
                "attacked?",
                "not-attacked?",
                "(flag? f)",
                "marked?",
                "last-to?",
                "(on-board? n)",
                "true",
                "(position? a1)",
                "never-moved?",
            ],
        );
        match rng.below(4) {
            0 => format!("(not {base})"),
            1 => format!("(and {base} {})", pick(rng, &["empty?", "enemy?", "true"])),
            2 => format!(
                "(or {base} {})",
                pick(rng, &["friend?", "false", "(empty? e)"])
            ),
            _ => base,
        }
    };
    let instr = |rng: &mut Rng, depth: usize| -> String {
        let mut out = vec![];
        for _ in 0..1 + rng.below(6) {
            let i = match rng.below(16) {
                0..=3 => pick(rng, &dirs),
                4 => format!("(verify {})", cond(rng)),
                5 => "capture".to_owned(),
                6 => format!("(set-flag f {})", cond(rng)),
                7 => "mark".to_owned(),
                8 => "back".to_owned(),
                9 => "to".to_owned(),
                10 => format!("(change-type {})", pick(rng, &types)),
                11 if depth < 2 => format!("(if {} add else {})", cond(rng), pick(rng, &dirs)),
                12 if depth < 2 => {
                    format!("(while {} {} add)", cond(rng), pick(rng, &dirs))
                }
                13 => format!("(add-partial {})", pick(rng, &move_types)),
                14 => format!("(create {})", pick(rng, &["", "Black", "a1", "Black King"])),
                _ => format!(
                    "(set-attribute never-moved? {})",
                    pick(rng, &["false", "true"])
                ),
            };
            out.push(i);
        }
        out.push(pick(
            rng,
            &[
                "add",
                "(add King Stone)",
                "(add-partial jump)",
                "add-copy",
                "cascade (go from) add",
            ],
        ));
        format!("({})", out.join(" "))
    };
    let mut pieces = String::new();
    for t in types {
        let mut blocks = String::new();
        for _ in 0..1 + rng.below(3) {
            if rng.below(3) == 0 {
                blocks += &format!("(move-type {}) ", pick(rng, &move_types));
            }
            blocks += &instr(rng, 0);
            blocks.push(' ');
        }
        let drops = if rng.below(3) == 0 {
            format!("(drops ({} (verify empty?) add))", pick(rng, &["", "n"]))
        } else {
            String::new()
        };
        pieces +=
            &format!("(piece (name {t}) (attribute never-moved? true) (moves {blocks}) {drops})\n");
    }
    let setup = |rng: &mut Rng| -> String {
        (0..1 + rng.below(4))
            .map(|_| format!("({} {} {})", pick(rng, &types), pos(rng), pos(rng)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let goal = pick(
        rng,
        &[
            "(loss-condition (White Black) stalemated)",
            "(win-condition (White Black) (pieces-remaining 0 King))",
            "(loss-condition (White Black) (checkmated King))",
            "(win-condition (White) (absolute-config Man (goal)))",
            "(win-condition (White Black) (relative-config Stone e Stone))",
            "(draw-condition (White Black) repetition)",
            "(count-condition (White Black) stalemated)",
            "(win-condition (Black) (absolute-config (opponent Man) (not King) (a1)))",
        ],
    );
    let option = pick(
        rng,
        &[
            "(option \"maximal captures\" true)",
            "(option \"pass turn\" forced)",
            "(option \"pass partial\" true)",
            "(maximal-captures 2)",
            "(option \"recycle captures\" true)",
            "",
        ],
    );
    let used_dirs: Vec<String> = dirs
        .iter()
        .zip(deltas)
        .map(|(d, x)| format!("({d} {x})"))
        .collect();
    format!(
        "(game (title \"Random\") (players White Black) (turn-order {turns})
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions (\"{f}\" (10 0)) (\"{r}\" (0 10)))
     (directions {d}))
     (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw))
     (zone (name goal) (players White Black) (positions {g})))
  {pieces}
  (board-setup (White {sw} (Man off {o})) (Black {sb}))
  (move-priorities jump normal)
  {option}
  {goal})",
        turns = pick(
            rng,
            &[
                "White Black",
                "White (Black jump) White Black",
                "(White Black) Black",
                "White Black repeat White"
            ]
        ),
        f = file_names.join("/"),
        r = rank_names.join("/"),
        d = used_dirs.join(" "),
        g = pos(rng),
        sw = setup(rng),
        sb = setup(rng),
        o = rng.below(3),
    )
}

fn random_games(cases: usize) {
    use rayon::prelude::*;
    let results: Vec<(usize, Duration, bool, bool)> = (0..cases)
        .into_par_iter()
        .map(|i| {
            let mut rng = Rng::derive(0xF022, i as u64);
            let text = random_game(&mut rng);
            let t = Instant::now();
            let mut compiled = false;
            let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let l = dagaz::expand::load_text("random.zrf", &text, Limits::default());
                if let Some(g) = l.default_game()
                    && let Ok(model) = dagaz::model::Model::compile(g)
                {
                    compiled = true;
                    let mut e = dagaz::engine::Engine::new(model);
                    e.budget.chain_nodes = 5_000;
                    random_playout(&mut e, &mut rng, true);
                }
            }))
            .is_ok();
            (i, t.elapsed(), ok, compiled)
        })
        .collect();
    let bad: Vec<_> = results
        .iter()
        .filter(|r| !r.2 || r.1 > HANG_GUARD)
        .map(|r| (r.0, r.1, r.2))
        .collect();
    let compiled = results.iter().filter(|r| r.3).count();
    eprintln!("{cases} random games, {compiled} compiled and played");
    assert!(
        bad.is_empty(),
        "failing or slow cases (index, time, ok): {bad:?}"
    );
    assert!(
        compiled * 2 >= cases,
        "only {compiled} of {cases} random games compiled"
    );
}

/// Random games from the grammar above: none may panic or hang (bounded run for CI).
#[test]
fn random_games_never_panic_or_hang() {
    random_games(5_000);
}

/// The long run of the random-game generator: 100,000 cases. Run with
/// `cargo test --release --test suite robustness:: -- --ignored`.
#[test]
#[ignore]
fn random_games_long_run() {
    random_games(100_000);
}
