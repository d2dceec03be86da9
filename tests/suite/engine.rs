//! Engine tests: perft of the bundled games at cheap depths (deeper ones are `#[ignore]`d;
//! run them with `cargo test --release --test suite engine:: -- --ignored`), the corpus compile and
//! random-playout sweep against `tests/fixtures/engine-unsupported.txt`, property checks
//! (incremental hash, make/unmake, played moves are legal) and the semantic decisions of
//! docs/semantics.md.

use crate::common;

use dagaz::engine::{Engine, MoveList, PlayerResult, State};
use dagaz::expand::{Limits, load_path, load_text};
use dagaz::model::Model;
use dagaz::rng::Rng;
use std::collections::BTreeMap;

fn engine_of_text(text: &str, variant: Option<&str>) -> Engine {
    let loaded = load_text("test.zrf", text, Limits::default());
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let game = match variant {
        Some(v) => loaded.find_game(v).expect("variant"),
        None => loaded.default_game().expect("game"),
    };
    Engine::new(Model::compile(game).unwrap_or_else(|d| panic!("{d:?}")))
}

fn bundled(name: &str, variant: Option<&str>) -> Engine {
    engine_of_text(
        dagaz::games::find(name).expect("bundled game").text,
        variant,
    )
}

fn perft(e: &mut Engine, depth: u32) -> u64 {
    let mut s = e.initial_state();
    e.perft(&mut s, depth)
}

/// Runs every case of a bundled suite up to `max_depth`.
fn suite(name: &str, max_depth: u32) {
    let b = dagaz::games::find(name).expect("bundled game");
    let mut engines: BTreeMap<String, Engine> = BTreeMap::new();
    let mut ran = 0;
    for case in dagaz::engine::perft::parse_suite(b.perft).expect("well-formed suite") {
        if case.depth > max_depth {
            continue;
        }
        let key = case.variant.clone().unwrap_or_default();
        let e = engines
            .entry(key)
            .or_insert_with(|| bundled(&case.game, case.variant.as_deref()));
        assert_eq!(
            perft(e, case.depth),
            case.expected,
            "{name} {:?} depth {}",
            case.variant,
            case.depth
        );
        ran += 1;
    }
    assert!(ran > 0, "no case of {name} at depth <= {max_depth}");
}

#[test]
fn perft_tictactoe() {
    suite("tictactoe", 7);
}

#[test]
fn perft_connect_four() {
    suite("connect-four", 6);
}

/// Four in a Row by bitboards, written independently of the engine: 7 bits per column (6
/// rows and a guard bit), a won position has no moves.
fn connect_four_reference(depth: u32) -> u64 {
    fn won(b: u64) -> bool {
        [1, 7, 6, 8].iter().any(|&d| {
            let m = b & (b >> d);
            m & (m >> (2 * d)) != 0
        })
    }
    fn walk(mover: u64, other: u64, heights: &mut [u32; 7], depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if won(other) {
            return 0;
        }
        let mut n = 0;
        for c in 0..7 {
            if heights[c] == 6 {
                continue;
            }
            let bit = 1u64 << (7 * c as u32 + heights[c]);
            heights[c] += 1;
            n += walk(other, mover | bit, heights, depth - 1);
            heights[c] -= 1;
        }
        n
    }
    walk(0, 0, &mut [0; 7], depth)
}

#[test]
fn perft_connect_four_matches_an_independent_count() {
    let mut e = bundled("connect-four", None);
    for depth in 1..=7 {
        assert_eq!(
            perft(&mut e, depth),
            connect_four_reference(depth),
            "depth {depth}"
        );
    }
}

#[test]
fn perft_chess_shallow() {
    suite("chess", 3);
}

#[test]
fn perft_checkers_shallow() {
    suite("checkers", 6);
}

#[test]
fn perft_international_draughts_shallow() {
    suite("international-draughts", 4);
}

#[test]
#[ignore]
fn perft_deep_suites() {
    suite("tictactoe", 9);
    suite("connect-four", 8);
    let mut e = bundled("connect-four", None);
    assert_eq!(perft(&mut e, 9), connect_four_reference(9));
    suite("chess", 5);
    suite("checkers", 10);
    suite("international-draughts", 7);
}

/// Suite cases whose expected leaf count is above this are left out of
/// [`fast_path_never_changes_perft`] (a debug-profile test runs each case twice, once in the
/// slower full interpreter).
const FAST_PATH_MAX_LEAVES: u64 = 1_100_000;

/// The VM's fast path never changes a count: every case of every bundled perft suite
/// (`games/*.perft`) with at most [`FAST_PATH_MAX_LEAVES`] expected leaves is counted with
/// the fast path on ([`Engine::new`]) and off ([`Engine::without_fast_path`], every block in
/// the full interpreter), and both must equal the expected count.
#[test]
fn fast_path_never_changes_perft() {
    let (mut ran, mut skipped, mut suites) = (0, 0, 0);
    for b in dagaz::games::all().filter(|b| !b.perft.is_empty()) {
        suites += 1;
        let mut engines: BTreeMap<String, (Engine, Engine)> = BTreeMap::new();
        for case in dagaz::engine::perft::parse_suite(b.perft).expect("well-formed suite") {
            if case.expected > FAST_PATH_MAX_LEAVES {
                skipped += 1;
                continue;
            }
            let key = case.variant.clone().unwrap_or_default();
            let (fast, plain) = engines.entry(key).or_insert_with(|| {
                let m = bundled(&case.game, case.variant.as_deref()).model().clone();
                (Engine::new(m.clone()), Engine::without_fast_path(m))
            });
            assert!(fast.has_fast_path() && !plain.has_fast_path());
            for (e, how) in [(fast, "fast path"), (plain, "full interpreter")] {
                assert_eq!(
                    perft(e, case.depth),
                    case.expected,
                    "{} {:?} depth {} ({how})",
                    b.name,
                    case.variant,
                    case.depth
                );
            }
            ran += 1;
        }
    }
    eprintln!("fast path: {suites} suites, {ran} cases both ways, {skipped} skipped");
    assert!(
        suites >= 4 && ran >= 30,
        "only {ran} cases of {suites} suites"
    );
}

#[test]
fn tictactoe_game_results() {
    // Counting finished games by result over the whole tree: 131,184 / 77,904 / 46,080.
    let mut e = bundled("tictactoe", None);
    let mut s = e.initial_state();
    let mut counts = [0u64; 3];
    fn walk(e: &mut Engine, s: &mut State, counts: &mut [u64; 3]) {
        if let Some(o) = e.outcome(s) {
            let i = match (o.results[0], o.results[1]) {
                (PlayerResult::Win, _) => 0,
                (_, PlayerResult::Win) => 1,
                _ => 2,
            };
            counts[i] += 1;
            return;
        }
        let mut l = MoveList::new();
        e.legal_moves(s, &mut l);
        for m in l.iter() {
            let u = e.make(s, m);
            walk(e, s, counts);
            e.unmake(s, m, u);
        }
    }
    walk(&mut e, &mut s, &mut counts);
    assert_eq!(counts, [131_184, 77_904, 46_080]);
}

/// Plays `plies` random moves, checking the engine's invariants at every step. Returns the
/// first problem found.
fn random_playout(e: &mut Engine, plies: usize, seed: u64) -> Result<usize, String> {
    let mut rng = Rng::new(seed);
    let mut s = e.initial_state();
    let mut list = MoveList::new();
    for ply in 0..plies {
        if e.outcome(&s).is_some() {
            return Ok(ply);
        }
        e.legal_moves(&s, &mut list);
        if list.is_empty() {
            return Err(format!("ply {ply}: no moves but no outcome"));
        }
        let m = list.get(rng.below(list.len())).unwrap().clone();
        let before = s.clone();
        let u = e.make(&mut s, &m);
        if s.hash != e.full_hash(&s) {
            return Err(format!(
                "ply {ply}: incremental hash differs after {}",
                e.notation(&m)
            ));
        }
        e.unmake(&mut s, &m, u);
        if s != before {
            return Err(format!(
                "ply {ply}: unmake did not restore the state after {}",
                e.notation(&m)
            ));
        }
        // The move is generated again from the restored state.
        e.legal_moves(&s, &mut list);
        if !list.iter().any(|x| *x == m) {
            return Err(format!(
                "ply {ply}: {} is not generated again",
                e.notation(&m)
            ));
        }
        e.make(&mut s, &m);
        let d = e.take_diagnostics();
        if let Some(d) = d.first() {
            return Err(format!("ply {ply}: runtime: {}", d.message));
        }
    }
    Ok(plies)
}

#[test]
fn bundled_playouts_keep_invariants() {
    for name in [
        "tictactoe",
        "chess",
        "checkers",
        "international-draughts",
        "ur",
    ] {
        let Some(b) = dagaz::games::find(name) else {
            continue;
        };
        let loaded = load_text("t.zrf", b.text, Limits::default());
        for g in &loaded.games {
            let mut e = Engine::new(Model::compile(g).unwrap_or_else(|d| panic!("{name}: {d:?}")));
            for seed in 0..3 {
                random_playout(&mut e, 200, seed)
                    .unwrap_or_else(|err| panic!("{name} / {}: {err}", g.title));
            }
        }
    }
}

/// `path | title | reason` lines of the corpus games that do not compile or play.
fn read_unsupported() -> BTreeMap<(String, String), String> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/engine-unsupported.txt");
    let text = std::fs::read_to_string(p).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.splitn(3, " | ").collect();
            assert_eq!(f.len(), 3, "bad fixture line: {l}");
            ((f[0].to_owned(), f[1].to_owned()), f[2].to_owned())
        })
        .collect()
}

/// Compiles every game of every corpus file and plays 300 random plies. Failures must be
/// exactly the fixture's list. Set `DAGAZ_WRITE_FIXTURE=1` to print the current list.
#[test]
fn corpus_compiles_and_plays() {
    let mut failures: BTreeMap<(String, String), String> = BTreeMap::new();
    let (mut games, mut plies) = (0usize, 0usize);
    for path in common::corpus_files() {
        let rel = common::corpus_rel(&path);
        let loaded = load_path(&path, &rel, Limits::default()).expect("readable");
        if loaded.has_errors() {
            continue; // the expansion layer's own tests cover these
        }
        for g in &loaded.games {
            let reason = match Model::compile(g) {
                Err(d) => {
                    let first = d.iter().find(|d| d.is_error()).unwrap();
                    Some(format!("compile: {} {}", first.code.id, first.message))
                }
                Ok(m) => {
                    let mut e = Engine::new(m);
                    e.budget.chain_nodes = 20_000;
                    match random_playout(&mut e, 300, 7) {
                        Ok(0)
                            if e.outcome(&e.initial_state())
                                .is_some_and(|o| o.goal.is_none()) =>
                        {
                            Some("playout: no legal move in the start position".to_owned())
                        }
                        Ok(n) => {
                            games += 1;
                            plies += n;
                            if std::env::var_os("DAGAZ_WRITE_FIXTURE").is_some() {
                                eprintln!("played {rel} / {}: {n} plies", g.title);
                            }
                            None
                        }
                        Err(err) => Some(format!("playout: {err}")),
                    }
                }
            };
            if let Some(r) = reason {
                failures.insert((rel.clone(), g.title.clone()), r);
            }
        }
    }
    if std::env::var_os("DAGAZ_WRITE_FIXTURE").is_some() {
        println!("# {games} games played, {plies} plies");
        for ((p, t), r) in &failures {
            println!("{p} | {t} | {r}");
        }
    }
    let expected = read_unsupported();
    let new: Vec<_> = failures
        .keys()
        .filter(|k| !expected.contains_key(*k))
        .collect();
    let stale: Vec<_> = expected
        .keys()
        .filter(|k| !failures.contains_key(*k))
        .collect();
    assert!(
        new.is_empty() && stale.is_empty(),
        "new failures: {new:#?}\nstale fixture entries: {stale:#?}"
    );
}

const MINI: &str = r#"
(game (title "Mini")
  (players A B) (turn-order A B)
  (board (grid (start-rectangle 0 0 1 1)
     (dimensions ("a/b/c" (1 0)) ("2/1" (0 1)))
     (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (piece (name P) (moves ((verify true) n (verify empty?) add) ((verify true) s (verify empty?) add)))
  (board-setup (A (P a1 b1)) (B (P a2)))
  (win-condition (A) (absolute-config P (b2 c2)))
  (win-condition (B) (absolute-config P (b1 c1)))
)
"#;

#[test]
fn repetition_ends_the_game() {
    // Two pieces shuffle: A a1<->... B a2<->...; the start position recurs.
    let text = r#"
(game (title "Shuffle")
  (players A B) (turn-order A B)
  (board (grid (start-rectangle 0 0 1 1)
     (dimensions ("a/b" (1 0)) ("2/1" (0 1)))
     (directions (e 1 0) (w -1 0))))
  (piece (name P) (moves (e (verify empty?) add) (w (verify empty?) add)))
  (board-setup (A (P a1)) (B (P a2)))
  (loss-condition (A B) repetition)
)
"#;
    let mut e = engine_of_text(text, None);
    let mut s = e.initial_state();
    let mut l = MoveList::new();
    let mut plies = 0;
    while e.outcome(&s).is_none() {
        e.legal_moves(&s, &mut l);
        let m = l.get(0).unwrap().clone();
        e.make(&mut s, &m);
        plies += 1;
        assert!(plies < 20);
    }
    // a1-b1, a2-b2, b1-a1, b2-a2 (start again: 2nd), …, 8 plies give the 3rd occurrence.
    assert_eq!(plies, 8);
    // The repetition count (kept by make and unmake through hash buckets) is the history's,
    // going forward and back.
    let naive = |s: &State| s.history.iter().filter(|&&h| h == s.hash).count();
    assert_eq!(e.repetitions(&s), 3);
    let mut t = e.initial_state();
    let mut line = Vec::new();
    for _ in 0..8 {
        e.legal_moves(&t, &mut l);
        let m = l.get(0).unwrap().clone();
        let u = e.make(&mut t, &m);
        assert_eq!(e.repetitions(&t), naive(&t));
        line.push((m, u));
    }
    while let Some((m, u)) = line.pop() {
        e.unmake(&mut t, &m, u);
        assert_eq!(e.repetitions(&t), naive(&t));
    }
    assert_eq!(e.repetitions(&t), 1);
    let o = e.outcome(&s).unwrap();
    // B made the repeating move and loses.
    assert_eq!(o.results, vec![PlayerResult::Win, PlayerResult::Loss]);
    l.clear();
    e.legal_moves(&s, &mut l);
    assert!(l.is_empty(), "a finished game has no moves");
}

#[test]
fn absolute_config_all_or_any() {
    // A has two pieces and two named squares: both must be filled. B has one piece and two
    // named squares: one is enough.
    let e = engine_of_text(MINI, None);
    use dagaz::model::GoalCond;
    let anys: Vec<bool> = e
        .model()
        .goals
        .iter()
        .map(|g| match &g.cond {
            GoalCond::AbsoluteConfig { any_position, .. } => *any_position,
            _ => panic!(),
        })
        .collect();
    assert_eq!(anys, vec![false, true]);
}

#[test]
fn notation_and_hash_basics() {
    let mut e = bundled("chess", None);
    let s = e.initial_state();
    let mut l = MoveList::new();
    e.legal_moves(&s, &mut l);
    let names: Vec<String> = l.iter().map(|m| e.notation(m)).collect();
    assert!(names.contains(&"Pawn e2 - e4".to_owned()), "{names:?}");
    assert!(names.contains(&"Knight g1 - f3".to_owned()), "{names:?}");
    assert_eq!(s.hash, e.full_hash(&s));
    assert!(!e.is_random_player(&s));
    assert_eq!(e.current_player(&s), 0);
}

#[test]
fn perft_command() {
    use assert_cmd::Command;
    let out = Command::cargo_bin("dagaz")
        .unwrap()
        .args(["perft", "tictactoe", "--depth", "3", "--expect", "504"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "504");
    let bad = Command::cargo_bin("dagaz")
        .unwrap()
        .args(["perft", "tictactoe", "--depth", "2", "--expect", "1"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    // A bundled variant's slug selects it; a near name is suggested.
    let kiwi = Command::cargo_bin("dagaz")
        .unwrap()
        .args(["perft", "kiwipete", "--depth", "2"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&kiwi.stdout).trim(), "2039");
    let typo = Command::cargo_bin("dagaz")
        .unwrap()
        .args(["perft", "chesss", "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(typo.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&typo.stderr).contains("did you mean: chess?"));
    let dashed = Command::cargo_bin("dagaz")
        .unwrap()
        .args(["perft", "tic-tac-toe", "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&dashed.stdout).trim(), "9");
    // `--moves` counts from the position they reach: 1. e4 has 13,160 leaves at depth 3 (the
    // e2e4 line of Stockfish's divide of perft(4)); a short form that fits two moves is
    // refused with both.
    let after = Command::cargo_bin("dagaz")
        .unwrap()
        .args(["perft", "chess", "3", "--moves", "e2-e4"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&after.stdout).trim(), "13160");
    let vague = Command::cargo_bin("dagaz")
        .unwrap()
        .args(["perft", "chess", "1", "--moves", "Pawn e2 - e4; g8"])
        .output()
        .unwrap();
    assert_eq!(vague.status.code(), Some(1));
    let err = String::from_utf8_lossy(&vague.stderr);
    assert!(
        err.contains("`g8` names 2 legal moves after 1 ply(s): Knight g8 - f6, Knight g8 - h6"),
        "{err}"
    );
    // An Axiom game plays through its variant's .4th file; without it: DZ1021 naming the
    // file and the folders searched (lint only warns, DZ0803).
    let axiom = Command::cargo_bin("dagaz")
        .unwrap()
        .args([
            "perft",
            "lint-examples/axiom-engine/bad.zrf",
            "--depth",
            "1",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(axiom.status.code(), Some(1));
    let err = String::from_utf8_lossy(&axiom.stderr);
    assert!(
        err.contains("DZ1021") && err.contains("Fixture.4th") && err.contains("Axiom/fixture"),
        "{err}"
    );
    let div = |j: &str| {
        let o = Command::cargo_bin("dagaz")
            .unwrap()
            .args(["perft", "chess", "--depth", "2", "--divide", "-j", j])
            .output()
            .unwrap();
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap()
    };
    let one = div("1");
    assert!(one.ends_with("\nNodes searched: 400\n"), "{one}");
    assert!(one.contains("Pawn e2 - e4: 20\n"));
    assert_eq!(one, div("2"), "results do not depend on -j");
    let usage = Command::cargo_bin("dagaz")
        .unwrap()
        .args(["perft", "no-such-game", "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
}

/// A partial chain whose every continuation would come back to a position of the chain
/// ends there (it is a move); a chain is never dropped for lack of a non-cycling
/// continuation. A king wandering on an empty 3x3 board from the centre, one orthogonal
/// step per part, can only stop when every neighbour has been visited: the 8 Hamiltonian
/// paths from the centre.
#[test]
fn partial_chains_end_where_every_continuation_cycles() {
    let text = r#"(game (title "Wander") (players A B) (turn-order A B)
      (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
        (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
      (board-setup (A (K b2)))
      (piece (name K) (moves (move-type go)
        (n (verify empty?) (add-partial go)) (s (verify empty?) (add-partial go))
        (e (verify empty?) (add-partial go)) (w (verify empty?) (add-partial go))))
      (loss-condition (A B) stalemated))"#;
    let mut e = engine_of_text(text, None);
    assert_eq!(perft(&mut e, 1), 8);
}

/// `perft --json` is a versioned contract.
#[test]
fn perft_json_is_versioned() {
    let out = assert_cmd::Command::cargo_bin("dagaz")
        .unwrap()
        .args(["perft", "tictactoe", "--depth", "2", "--json", "--divide"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["nodes"], 72);
    assert_eq!(v["divide"].as_array().map(Vec::len), Some(9));
}

/// Chess from the start to depth 6 (119,060,324 leaves; about 10 s in a release build).
#[test]
#[ignore]
fn perft_chess_depth_6() {
    let mut e = bundled("chess", None);
    assert_eq!(perft(&mut e, 6), 119_060_324);
}

/// ZoG forms (docs/semantics.md): every `tests/fixtures/forms/NAME.zrf` lints without an
/// error or a warning, and each of its variants has, at the start position, exactly the moves that
/// `NAME.moves` lists under `[VARIANT TITLE]` (one move per line, order ignored).
#[test]
fn zog_form_fixtures_give_their_move_lists() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/forms");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "zrf"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut problems = vec![];
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let expected_text = std::fs::read_to_string(path.with_extension("moves"))
            .unwrap_or_else(|_| panic!("{name}: no .moves file"));
        let mut expected: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut current = None;
        for line in expected_text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(t) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                current = Some(t.to_owned());
                expected.entry(t.to_owned()).or_default();
            } else {
                let v = current.clone().expect("a move before any [variant]");
                expected.get_mut(&v).unwrap().push(line.to_owned());
            }
        }
        let report = dagaz::lint::lint_path(&path, &name, &Default::default()).unwrap();
        for d in report
            .diagnostics
            .iter()
            .filter(|d| d.severity >= dagaz::diagnostics::Severity::Warning)
        {
            problems.push(format!("{name}: lint finding {} {}", d.code.id, d.message));
        }
        let loaded = load_path(&path, &name, Limits::default()).unwrap();
        let titles: Vec<String> = loaded.games.iter().map(|g| g.title.clone()).collect();
        if titles != expected.keys().cloned().collect::<Vec<_>>() {
            let mut sorted = titles.clone();
            sorted.sort();
            if sorted != expected.keys().cloned().collect::<Vec<_>>() {
                problems.push(format!(
                    "{name}: variants {titles:?} but .moves lists {:?}",
                    expected.keys()
                ));
            }
        }
        for g in &loaded.games {
            let Some(want) = expected.get(&g.title) else {
                continue;
            };
            let e = match Model::compile(g) {
                Ok(m) => Engine::new(m),
                Err(d) => {
                    problems.push(format!("{name} [{}]: does not compile: {d:?}", g.title));
                    continue;
                }
            };
            let s = e.initial_state();
            let mut l = MoveList::new();
            let mut e = e;
            e.legal_moves(&s, &mut l);
            let mut got: Vec<String> = l.iter().map(|m| e.notation(m)).collect();
            got.sort();
            let mut want = want.clone();
            want.sort();
            if got != want {
                problems.push(format!(
                    "{name} [{}]:\n  expected {want:?}\n  got      {got:?}",
                    g.title
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Occupier forms in goals decide games as documented (docs/semantics.md, "Occupier forms
/// in goals"): plays moves in `tests/fixtures/forms/occupier-goals.zrf` and checks results.
#[test]
fn occupier_goals_decide_games() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/forms/occupier-goals.zrf");
    let text = std::fs::read_to_string(path).unwrap();
    let play = |variant: &str, moves: &[&str]| {
        let mut e = engine_of_text(&text, Some(variant));
        let mut s = e.initial_state();
        for want in moves {
            let mut l = MoveList::new();
            e.legal_moves(&s, &mut l);
            let m = l
                .iter()
                .find(|m| e.notation(m) == *want)
                .unwrap_or_else(|| panic!("{variant}: no move {want}"))
                .clone();
            e.make(&mut s, &m);
        }
        e.outcome(&s).map(|o| o.results)
    };
    use PlayerResult::{Loss, Win};
    // White's Man on b1 is an opponent's Man for Black, who loses.
    assert_eq!(play("Opponent", &["Man a1 - b1"]), Some(vec![Win, Loss]));
    // White's home holds no White Man once it has moved.
    assert_eq!(play("Not", &["Man a1 - b1"]), Some(vec![Loss, Win]));
    // Men of any owner on b1 and c1: the player to move (White) is tested first.
    assert_eq!(play("Any owner", &["Man a1 - b1"]), None);
    assert_eq!(
        play("Any owner", &["Man a1 - b1", "Man d1 - c1"]),
        Some(vec![Loss, Win])
    );
    // Side by side with an opponent's Man, east as each player sees it.
    assert_eq!(
        play("Relative", &["Man a1 - b1", "Man d1 - c1"]),
        Some(vec![Loss, Win])
    );
    assert_eq!(play("Finished", &[]), Some(vec![Loss, Win]));
}

/// `create` without a piece type and attributes named `not-…` (docs/semantics.md): plays
/// `tests/fixtures/forms/create-and-attributes.zrf` and looks at the board.
#[test]
fn create_without_type_and_not_attributes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/forms/create-and-attributes.zrf");
    let text = std::fs::read_to_string(path).unwrap();
    let after = |variant: &str, mv: &str| {
        let mut e = engine_of_text(&text, Some(variant));
        let mut s = e.initial_state();
        let mut l = MoveList::new();
        e.legal_moves(&s, &mut l);
        let m = l.iter().find(|m| e.notation(m) == mv).expect(mv).clone();
        e.make(&mut s, &m);
        let m = e.model();
        let at = |name: &str| e.piece_at(&s, m.position(name).unwrap());
        let describe = |p: Option<dagaz::Piece>| {
            p.map(|p| {
                (
                    m.piece_types[p.kind.index()].name.clone(),
                    m.players[p.owner.index()].name.clone(),
                )
            })
        };
        (describe(at("a1")), describe(at("b1")), at("b2"))
    };
    let man = |owner: &str| Some(("Man".to_owned(), owner.to_owned()));
    let (a1, b1, _) = after("Create for a player", "Man a1 - b1 Black Man a1");
    assert_eq!((a1, b1), (man("Black"), man("White")));
    let (a1, b1, _) = after("Create here", "Man a1 - b1 White Man a1");
    assert_eq!((a1, b1), (man("White"), man("White")));
    // The Post's `not-locked?` is its own attribute: true at the start, false after moving.
    let (_, _, post) = after("Create for a player", "Post a2 - b2 @ b2 0 0");
    let e = engine_of_text(&text, None);
    let attr = e
        .model()
        .attributes
        .iter()
        .position(|a| a == "not-locked?")
        .unwrap();
    assert_eq!(post.unwrap().attributes >> attr & 1, 0);
}

/// Attribute writes land on the piece standing on their square after the move, and one
/// that changes nothing adds no change (docs/semantics.md): plays
/// `tests/fixtures/forms/attribute-writes-on-other-pieces.zrf`, whose movers write a flag
/// they already have on squares where another piece stands, is created or is brought by a
/// cascade.
#[test]
fn attribute_writes_reach_other_pieces() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/forms/attribute-writes-on-other-pieces.zrf");
    let text = std::fs::read_to_string(path).unwrap();
    for fast in [true, false] {
        let mut e = engine_of_text(&text, None);
        if !fast {
            e = Engine::without_fast_path(e.model().clone());
        }
        assert_eq!(e.has_plain_attr_writes(), fast);
        let flag = e
            .model()
            .attributes
            .iter()
            .position(|a| a == "flag?")
            .unwrap();
        let s0 = e.initial_state();
        let mut l = MoveList::new();
        e.legal_moves(&s0, &mut l);
        for (mv, post, changes) in [
            ("Man a1 - c1 White Post b1 @ b1 0 0", "b1", 4),
            ("Pusher a2 - b1 @ b2 0 0", "b2", 3),
            ("Caster c3 - d3 Post a3 - b3 @ b3 0 0", "b3", 5),
        ] {
            let m = l.iter().find(|m| e.notation(m) == mv).expect(mv).clone();
            // The mover's own write changes nothing and is not among the changes.
            assert_eq!(m.changes.len(), changes, "{mv} (fast path {fast}): {m:?}");
            let mut s = s0.clone();
            e.make(&mut s, &m);
            let p = e.piece_at(&s, e.model().position(post).unwrap()).unwrap();
            assert_eq!(p.attributes >> flag & 1, 0, "{mv}: the Post on {post}");
        }
    }
}

/// Attribute writes that can change nothing are not queued on the fast path (rooks and
/// kings that have moved, writing their moved flag). No corpus game writes attributes, so
/// the bundled games that do are played: random games, long enough for the flags to fall,
/// must give the same legal moves, change for change, as the full interpreter.
#[test]
fn plain_attribute_writes_match_the_interpreter() {
    let (mut games, mut positions, mut plain) = (0usize, 0usize, 0usize);
    for b in dagaz::games::all() {
        let mut fast = bundled(b.name, None);
        if !fast.has_plain_attr_writes() {
            continue;
        }
        plain += 1;
        let mut slow = Engine::without_fast_path(fast.model().clone());
        assert!(!slow.has_plain_attr_writes());
        for seed in 0..8u64 {
            positions += lockstep_playout(&mut fast, &mut slow, seed, 300, b.name);
            games += 1;
        }
    }
    assert!(plain >= 1, "no bundled game with plain attribute writes");
    assert!(
        positions >= 1_000,
        "only {positions} positions in {games} games"
    );
}

/// A piece that can never come into play (not set up, not dropped, never created or
/// promoted to) does not stop a game from compiling when its moves name something the
/// board lacks: its errors become warnings and its blocks are dropped (docs/semantics.md).
#[test]
fn pieces_never_in_play_do_not_block_compilation() {
    let text = r#"(game (title "Base") (players A B) (turn-order A B)
      (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b" (10 0)) ("2/1" (0 10)))
        (directions (n 0 -1) (ne 1 -1))))
      (board-setup (A (Man b1) (Bishop a1)))
      (piece (name Man) (moves (n (verify empty?) add)))
      (piece (name Bishop) (moves (ne (verify empty?) add)))
      (loss-condition (A B) stalemated))
    (variant (title "No bishops")
      (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b" (10 0)) ("2/1" (0 10)))
        (directions (n 0 -1))))
      (board-setup (A (Man b1))))
    (variant (title "Bishops kept")
      (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b" (10 0)) ("2/1" (0 10)))
        (directions (n 0 -1)))))"#;
    let loaded = load_text("never.zrf", text, Limits::default());
    let compile = |t: &str| Model::compile(loaded.find_game(t).unwrap());
    let m = compile("No bishops").expect("the Bishop never comes into play");
    assert!(
        // `ne` is one letter from `n`: reported as an unknown direction (DZ0404).
        m.warnings.iter().any(|d| d.code.id == "DZ0404"
            && d.notes.iter().any(|n| n.contains("never comes into play")))
    );
    assert_eq!(perft(&mut Engine::new(m), 1), 1);
    // Set up, the Bishop is in play: its unknown direction is an error.
    assert!(compile("Bishops kept").is_err());
    assert_eq!(perft(&mut Engine::new(compile("Base").unwrap()), 1), 2);
}

/// A capture of the square a piece stays on or is dropped on removes that piece; a piece
/// that moves onto a square its block captures lands there (docs/semantics.md, "Capturing
/// the landing square"): plays `tests/fixtures/forms/capture-in-place.zrf`.
#[test]
fn capture_of_the_landing_square_in_place_or_by_drop_removes_the_piece() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/forms/capture-in-place.zrf");
    let text = std::fs::read_to_string(path).unwrap();
    let after = |want: &str| {
        let mut e = engine_of_text(&text, None);
        let mut s = e.initial_state();
        let mut l = MoveList::new();
        e.legal_moves(&s, &mut l);
        let m = l
            .iter()
            .find(|m| e.notation(m) == want)
            .unwrap_or_else(|| panic!("no move {want}"))
            .clone();
        e.make(&mut s, &m);
        let sq = |name: &str| {
            let pos = e.model().position(name).unwrap();
            s.cells[pos.index()]
        };
        let hand = s.cells[e
            .model()
            .hand_cell(
                dagaz::model::PlayerId::new(0),
                dagaz::model::PieceTypeId::new(0),
            )
            .index()];
        (sq("a1"), sq("a2"), sq("b1"), hand)
    };
    // In place: the Man on a1 is removed, nothing else changes.
    let (a1, a2, b1, hand) = after("Man a1 - a1 x a1");
    assert_eq!((a1, a2 != 0, b1 != 0, hand), (0, true, true, 1));
    // A drop onto a1 that captures a1: both the Man standing there and the dropped one go.
    let (a1, a2, b1, hand) = after("White Man a1 x a1");
    assert_eq!((a1, a2 != 0, b1 != 0, hand), (0, true, true, 0));
    // Moving from a1 to b1 with a capture of b1: what stood on b1 and the Man that lands
    // there both go (a strike: Duke's `to capture back (create …) add`).
    let (a1, a2, b1, hand) = after("Man a1 x b1 x b1");
    assert_eq!((a1, a2 != 0, b1, hand), (0, true, 0, 1));
}

/// Attack pruning (the reach table) never changes a legal move list: every corpus game
/// with a pruning table is played at random with and without it, comparing the legal
/// moves and the outcome of every position.
#[test]
fn attack_pruning_never_changes_the_legal_moves() {
    let (games, positions) = compare_engines_on_corpus(
        60,
        Engine::has_attack_pruning,
        Engine::without_attack_pruning,
        "attack pruning",
    );
    assert!(games >= 50, "only {games} corpus games with attack pruning");
    assert!(positions >= 2_000, "only {positions} positions compared");
}

/// Plays a random game (seeded by `seed`, at most `plies` plies) with engine `a`,
/// comparing the outcome and the legal moves, change for change, with engine `b` at every
/// position; returns the number of positions compared. `label` names the game in failures.
fn lockstep_playout(a: &mut Engine, b: &mut Engine, seed: u64, plies: usize, label: &str) -> usize {
    let mut rng = Rng::new(seed);
    let mut s = a.initial_state();
    let (mut la, mut lb) = (MoveList::new(), MoveList::new());
    let mut positions = 0;
    for ply in 0..plies {
        let (oa, ob) = (a.outcome(&s), b.outcome(&s));
        assert_eq!(oa, ob, "{label}: outcome at ply {ply} (seed {seed})");
        if oa.is_some() {
            break;
        }
        a.legal_moves(&s, &mut la);
        b.legal_moves(&s, &mut lb);
        positions += 1;
        assert_eq!(
            la.as_slice(),
            lb.as_slice(),
            "{label}: legal moves at ply {ply} (seed {seed})"
        );
        if la.is_empty() {
            break;
        }
        let mv = la.get(rng.below(la.len())).unwrap().clone();
        a.make(&mut s, &mv);
    }
    positions
}

/// Plays at random every corpus game whose [`Engine::new`] has the feature `has` (two seeds,
/// at most `plies` plies, moves chosen from its list) and asserts that the engine built
/// without it (`without`, which must lack it) gives the same outcome and the same legal
/// moves, change for change, at every position. Returns (games, positions compared);
/// `what` names the comparison in the messages.
fn compare_engines_on_corpus(
    plies: usize,
    has: fn(&Engine) -> bool,
    without: fn(Model) -> Engine,
    what: &str,
) -> (usize, usize) {
    let (mut games, mut positions) = (0usize, 0usize);
    for path in common::corpus_files() {
        let rel = common::corpus_rel(&path);
        let loaded = load_path(&path, &rel, Limits::default()).expect("readable");
        if loaded.has_errors() {
            continue;
        }
        for g in &loaded.games {
            let Ok(m) = Model::compile(g) else { continue };
            let mut a_engine = Engine::new(m.clone());
            if !has(&a_engine) {
                continue;
            }
            let mut b_engine = without(m);
            assert!(!has(&b_engine), "{rel} / {}: {what} still on", g.title);
            games += 1;
            let label = format!("{rel} / {}", g.title);
            for seed in 0..2u64 {
                positions += lockstep_playout(&mut a_engine, &mut b_engine, seed, plies, &label);
            }
        }
    }
    eprintln!("{what}: {games} games, {positions} positions compared");
    (games, positions)
}

/// Plain drops (`(verify empty?) add`, built without a run) give the same legal moves,
/// change for change, as the full interpreter: every corpus game with such drops is played
/// at random with the fast path on and off, comparing every position's outcome and legal
/// moves.
#[test]
fn plain_drops_match_the_interpreter() {
    let (games, positions) = compare_engines_on_corpus(
        40,
        Engine::has_plain_drops,
        Engine::without_fast_path,
        "plain drops",
    );
    assert!(games >= 10, "only {games} corpus games with plain drops");
    assert!(positions >= 500, "only {positions} positions compared");
}

/// Games whose moves are all plain drops (`Tables::placement_only`: moves listed from the
/// state's cells, no scratch board, no history) give the same outcomes and legal moves as
/// the full interpreter, played to the end (so that wins, full boards and exhausted hands
/// are all met).
#[test]
fn placement_games_match_the_interpreter() {
    let (games, positions) = compare_engines_on_corpus(
        400,
        Engine::is_placement_only,
        Engine::without_fast_path,
        "placement-only games",
    );
    assert!(games >= 5, "only {games} corpus games of placement only");
    assert!(positions >= 500, "only {positions} positions compared");
}

/// Blocks skipped without a run because their first step lands on a square whose occupant
/// makes them fail (`fails_at_once`) give the same legal moves, change for change, as the
/// full interpreter: every corpus game with such blocks is played at random with the fast
/// path on and off.
#[test]
fn step_skips_match_the_interpreter() {
    let (games, positions) = compare_engines_on_corpus(
        30,
        Engine::has_step_skips,
        Engine::without_fast_path,
        "step skips",
    );
    assert!(games >= 200, "only {games} corpus games with step skips");
    assert!(positions >= 5_000, "only {positions} positions compared");
}

/// The incremental goal checks (goal counters updated by make and unmake) against the full
/// re-evaluation of every goal: random playouts of every corpus game with a board-local goal
/// (`relative-config`, `absolute-config`, piece counts), where every position reached and
/// up to 6 positions one move further (made, compared, unmade) must have the counters
/// recomputed from the cells and the reference outcome.
#[test]
fn incremental_goals_match_the_reference() {
    let (mut games, mut positions, mut decided) = (0usize, 0usize, 0usize);
    let mut check = |e: &mut Engine, s: &State, what: &str| {
        assert!(e.goal_counts_consistent(s), "{what}: goal counters");
        let fast = e.outcome(s);
        assert_eq!(fast, e.outcome_reference(s), "{what}: outcome");
        positions += 1;
        decided += usize::from(fast.is_some_and(|o| o.goal.is_some()));
    };
    for path in common::corpus_files() {
        let rel = common::corpus_rel(&path);
        let loaded = load_path(&path, &rel, Limits::default()).expect("readable");
        if loaded.has_errors() {
            continue;
        }
        for g in &loaded.games {
            let Ok(m) = Model::compile(g) else { continue };
            let mut e = Engine::new(m);
            e.budget.chain_nodes = 20_000;
            if e.initial_state().goal_counts().is_empty() {
                continue;
            }
            games += 1;
            for seed in 0..2u64 {
                let mut rng = Rng::new(seed);
                let mut s = e.initial_state();
                let mut list = MoveList::new();
                for ply in 0..120 {
                    let what = format!("{rel} / {} ply {ply} seed {seed}", g.title);
                    check(&mut e, &s, &what);
                    e.legal_moves(&s, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    for _ in 0..list.len().min(6) {
                        let m = list.get(rng.below(list.len())).unwrap().clone();
                        let u = e.make(&mut s, &m);
                        let what = format!("{what} after {}", e.notation(&m));
                        check(&mut e, &s, &what);
                        e.unmake(&mut s, &m, u);
                    }
                    let m = list.get(rng.below(list.len())).unwrap().clone();
                    e.make(&mut s, &m);
                }
            }
        }
    }
    eprintln!(
        "incremental goals: {games} games, {positions} positions, {decided} decided by a goal"
    );
    assert!(
        games >= 100,
        "only {games} corpus games with board-local goals"
    );
    assert!(decided >= 200, "only {decided} positions decided by a goal");
}

/// A parallel divide splits the tree several plies deep; its entries equal the one-thread
/// divide's and the plain perft, also where lines end early (won tic-tac-toe positions, a
/// draughts side without moves) and in both counting modes.
#[test]
fn parallel_divide_equals_one_thread() {
    use dagaz::engine::perft::divide;
    for (name, depth) in [("tictactoe", 7), ("checkers", 6), ("chess", 3)] {
        let mut e = bundled(name, None);
        let s = e.initial_state();
        let total = perft(&mut e, depth);
        for full in [false, true] {
            let one = divide(&e, &s, depth, 1, full);
            assert_eq!(one.iter().map(|d| d.nodes).sum::<u64>(), total, "{name}");
            for threads in [2, 3] {
                assert_eq!(
                    divide(&e, &s, depth, threads, full),
                    one,
                    "{name} -j {threads}"
                );
            }
        }
    }
}

/// `(captured T …)` counts the listed types together: a piece turning from one listed type
/// to another is not captured (The Duke's two faces), its capture is (docs/semantics.md).
#[test]
fn captured_counts_the_listed_types_together() {
    let text = r#"(game (title "Faces") (players White Black) (turn-order White Black)
      (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10)))
        (directions (e 1 0) (w -1 0)))
        (symmetry Black (e w) (w e)))
      (board-setup (White (Up a1)) (Black (Up d1)))
      (piece (name Up) (moves ((verify true) e (verify not-friend?) (add Down))))
      (piece (name Down) (moves ((verify true) e (verify not-friend?) (add Up))))
      (loss-condition (White Black) (captured Up Down)))"#;
    let mut e = engine_of_text(text, None);
    let mut s = e.initial_state();
    for (mv, over) in [
        // Each piece turns into a Down: nothing is captured.
        ("Up a1 - b1 = Down", false),
        ("Up d1 - c1 = Down", false),
        // White's Down takes Black's: Black has no piece of the two types left.
        ("Down b1 x c1 = Up", true),
    ] {
        let m = e.find_move(&s, mv).unwrap_or_else(|err| panic!("{err}"));
        e.make(&mut s, &m);
        let outcome = e.outcome(&s);
        assert_eq!(outcome.is_some(), over, "after {mv}");
        assert_eq!(
            e.outcome_reference(&s).is_some(),
            over,
            "after {mv} (reference)"
        );
    }
    let results = e.outcome(&s).unwrap().results;
    assert_eq!(results, vec![PlayerResult::Win, PlayerResult::Loss]);
}

/// `"maximal captures"` keeps, among the moves that capture, those that capture the most,
/// and the moves that capture nothing (docs/semantics.md).
#[test]
fn maximal_captures_keeps_the_moves_that_capture_nothing() {
    let text = r#"(game (title "Most") (players White Black) (turn-order White Black)
      (option "maximal captures" true)
      (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d/e" (10 0)) ("3/2/1" (0 10)))
        (directions (e 1 0) (n 0 -1))))
      (board-setup (White (Man a1 a3)) (Black (Man b1 d1 b3)))
      (piece (name Man) (moves
        (move-type step) ((verify true) n (verify empty?) add)
        (move-type jump)
        ((verify true) e (verify enemy?) capture e (verify empty?) (add-partial jump))))
      (draw-condition (White Black) stalemated))"#;
    let mut e = engine_of_text(text, None);
    let s = e.initial_state();
    let mut l = MoveList::new();
    e.legal_moves(&s, &mut l);
    let mut got: Vec<String> = l.iter().map(|m| e.notation(m)).collect();
    got.sort();
    // The double jump from a1 is kept, the single one from a2 is not, the step stays.
    assert_eq!(
        got,
        vec![
            "Man a1 - a2".to_owned(),
            "Man a1 - c1 x b1 Man c1 - e1 x d1".to_owned()
        ]
    );
}

/// A `capture` of a square whose piece the same move changes takes nothing there (ZoG's
/// quirk; docs/semantics.md), and the notation does not write it.
#[test]
fn a_piece_changed_by_a_move_is_not_captured_by_it() {
    let text = r#"(game (title "Marked") (players White Black) (turn-order White Black)
      (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10)))
        (directions (e 1 0))))
      (board-setup (White (Man a1)) (Black (Man b1 c1)))
      (piece (name Man) (attribute marked? false)
        (moves
          ; b1 is captured and marked: the mark wins.
          ((verify true) e capture (set-attribute marked? true) e e add)
          ; c1 is captured alone: it goes.
          ((verify true) e e capture e add)))
      (draw-condition (White Black) stalemated))"#;
    let mut e = engine_of_text(text, None);
    let s = e.initial_state();
    let mut l = MoveList::new();
    e.legal_moves(&s, &mut l);
    let mut got: Vec<String> = l.iter().map(|m| e.notation(m)).collect();
    got.sort();
    assert_eq!(got, vec!["Man a1 - d1 @ b1 0 1", "Man a1 - d1 x c1"]);
    for m in l.iter() {
        let mut after = s.clone();
        e.make(&mut after, m);
        let at = |p: &str| after.cells[e.model().position(p).unwrap().index()];
        let marked = e.notation(m).contains('@');
        // The marked piece stays, marked; the other move takes c1.
        assert_eq!(
            (at("b1") != 0, at("c1") != 0),
            (true, marked),
            "{}",
            e.notation(m)
        );
    }
}
