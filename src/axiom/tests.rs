//! Tests of the Axiom runtime on dagaz's own Axiom-style games, and an opt-in run of a
//! user-supplied Axiom folder (`DAGAZ_AXIOM_DIR`).

use super::*;
use crate::ai::game::Game;
use crate::rng::Rng;
use std::path::PathBuf;

/// Plays `games` games of `a` against `b` with the programs' own engines; returns
/// (wins of the first seat, wins of the second, draws, errors).
fn autoplay(a: &Program, b: &Program, games: u64, seed: u64) -> [u32; 4] {
    let mut tally = [0u32; 4];
    for g in 0..games {
        let mut rng = Rng::new(seed ^ g);
        let mut game = AxiomGame::new(a, b, seed + g).expect("set-up");
        let seats = game.seats();
        let mut moves = Default::default();
        let mut plies = 0;
        loop {
            game.legal_moves(&mut moves);
            if let Some(e) = game.take_error() {
                eprintln!("game {g}: {e}");
                tally[3] += 1;
                break;
            }
            if let Some(o) = game.outcome(&moves) {
                match o.winner() {
                    Some(w) if w == seats[0] => tally[0] += 1,
                    Some(_) => tally[1] += 1,
                    None => tally[2] += 1,
                }
                break;
            }
            let n = AxiomGame::num_moves(&moves);
            let mover = game.current_player();
            let i = if game.is_random(mover) || n == 1 {
                rng.below(n)
            } else {
                let slot = seats.iter().position(|&s| s == mover).unwrap_or(0);
                game.program_move(slot, &moves, &mut rng).unwrap()
            };
            game.make(&moves, i);
            plies += 1;
            if plies > 5000 {
                tally[2] += 1;
                break;
            }
        }
    }
    tally
}

/// Opt-in: plays a user-supplied Axiom folder's variants (`DAGAZ_AXIOM_DIR`, and
/// `DAGAZ_AXIOM_VARIANTS` = "A.4th B.4th", default `Ur-[random].4th` twice), then plays
/// the first with random moves, with the move-word cache and without, and compares (move
/// lists, memory and history at every ply). `DAGAZ_AXIOM_GAMES`: games of the first part
/// (default 20; 0: only the comparison).
#[test]
#[ignore]
fn user_axiom_folder() {
    let Ok(dir) = std::env::var("DAGAZ_AXIOM_DIR") else {
        eprintln!("DAGAZ_AXIOM_DIR is not set: nothing to run");
        return;
    };
    let dir = PathBuf::from(dir);
    let names = std::env::var("DAGAZ_AXIOM_VARIANTS")
        .unwrap_or_else(|_| "Ur-[random].4th Ur-[random].4th".into());
    let names: Vec<&str> = names.split_whitespace().collect();
    let a = Program::load(&dir.join(names[0]), None).unwrap_or_else(|e| panic!("{e}"));
    let b = Program::load(&dir.join(names[1]), None).unwrap_or_else(|e| panic!("{e}"));
    println!("players {:?} pieces {:?}", a.info.players, a.info.pieces);
    let games: u64 = std::env::var("DAGAZ_AXIOM_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    if games > 0 {
        let t = std::time::Instant::now();
        let r = autoplay(&a, &b, games, 1);
        println!(
            "{} vs {}: {:?} in {:.2?}",
            names[0],
            names[1],
            r,
            t.elapsed()
        );
        assert_eq!(r[3], 0, "games ended in errors");
    }
    // The move-word cache changes nothing, move lists and memory alike.
    let (plies, stats, _) = same_with_and_without_cache(&a, 3, names[0]);
    println!("{plies} plies compared with the cache on and off: {stats:?}");
}

/// dagaz's own searching AIs play Axiom programs through make/unmake: a search keeps move
/// lists of several positions at once (MCTS keeps one per tree node), whose records live in
/// VM memory that later generations reuse; every list must stay playable.
#[test]
fn dagaz_searches_play_axiom_programs_without_stale_move_lists() {
    use crate::ai::{AiConfig, AiKind};
    use crate::tournament::record::RunSettings;
    use crate::tournament::{RunConfig, run};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom");
    for (file, games) in [("capture/Capture.4th", 4u64), ("race/Race.4th", 14)] {
        let p = Program::load(&dir.join(file), None).unwrap_or_else(|e| panic!("{e}"));
        let proto = AxiomGame::new(&p, &p, 3).expect("set-up");
        let mut mcts = AiConfig {
            kind: AiKind::Mcts,
            ..AiConfig::default()
        };
        mcts.limits.playouts = Some(60);
        let mut ab = AiConfig {
            kind: AiKind::AlphaBeta,
            ..AiConfig::default()
        };
        ab.limits.depth = Some(2);
        let settings = RunSettings::new(
            ["mcts".into(), "ab".into()],
            ["m".into(), "a".into()],
            games,
        );
        let cfg = RunConfig::new(5, settings);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let out = run(&proto, [&mcts, &ab], &cfg, &stop, &|_| {}).expect("run");
        for r in &out.records {
            assert!(
                r.error.is_none(),
                "{file} game {}: {:?}",
                r.game_index,
                r.error
            );
        }
        assert_eq!(out.records.len() as u64, games);
    }
}

/// A run that keeps no moves (`RunConfig::keep_moves` off: no games file) plays the same
/// games, with the same plies and results, and makes no notation.
#[test]
fn a_run_without_moves_plays_and_counts_the_same() {
    use crate::ai::{AiConfig, AiKind};
    use crate::tournament::record::RunSettings;
    use crate::tournament::{RunConfig, run};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race");
    let p = Program::load(&dir.join("Race-[random].4th"), None).unwrap();
    let proto = AxiomGame::new(&p, &p, 3).expect("set-up");
    let own = AiConfig {
        kind: AiKind::Program,
        ..AiConfig::default()
    };
    let settings = RunSettings::new(["a".into(), "b".into()], ["a".into(), "b".into()], 6);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let play = |keep: bool| {
        let mut cfg = RunConfig::new(9, settings.clone());
        cfg.keep_moves = keep;
        run(&proto, [&own, &own], &cfg, &stop, &|_| {}).expect("run")
    };
    let (with, without) = (play(true), play(false));
    assert_eq!(with.records.len(), 6);
    for (a, b) in with.records.iter().zip(&without.records) {
        assert!(
            a.plies > 20 && a.moves.len() == a.plies as usize,
            "{}",
            a.plies
        );
        assert!(b.moves.is_empty());
        assert_eq!(
            (a.plies, &a.result, &a.seats),
            (b.plies, &b.result, &b.seats)
        );
    }
}

#[test]
fn an_engine_whose_time_runs_out_plays_its_last_best_move() {
    // Two engines that never return: one reports the list's last move first, one reports
    // nothing. With the search's primitives spent, the reported move is played, else the
    // first move; the game goes on.
    let dir = super::layer_tests::scratch_dir("dagaz-engine-time");
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race");
    std::fs::copy(fixture.join("Race.4th"), dir.join("Race.4th")).unwrap();
    let engines = ": Last ( -- ) $FirstMove BEGIN DUP $NextMove DUP WHILE NIP REPEAT DROP \
                   $MoveString DUP CurrentMove! BestMove! BEGIN $Yield AGAIN ;\n\
                   : Mute ( -- ) BEGIN $Yield AGAIN ;\n";
    let variant = |white: &str| {
        format!(
            "LOAD Race.4th\n{engines}\
             {{players {{player}} White {{search-engine}} {white} {{player}} Black {{random}} \
             {{player}} ?Dice {{random}} players}}\n"
        )
    };
    std::fs::write(dir.join("Last.4th"), variant("Last")).unwrap();
    std::fs::write(dir.join("Mute.4th"), variant("Mute")).unwrap();
    for (file, want_last) in [("Last.4th", true), ("Mute.4th", false)] {
        let p = Program::load(&dir.join(file), None).unwrap();
        let engine = file.trim_end_matches(".4th");
        assert_eq!(
            crate::players::spec::describe_program(&p, None, Some(200_000)),
            format!("program (White search-engine {engine} for 200000 steps, Black random)")
        );
        let mut game = AxiomGame::new(&p, &p, 1).unwrap();
        game.set_search_steps(200_000);
        let mut moves = Default::default();
        let mut rng = Rng::new(3);
        let mut engine_moves = 0;
        for _ in 0..200 {
            game.legal_moves(&mut moves);
            assert!(game.take_error().is_none());
            if game.outcome(&moves).is_some() {
                break;
            }
            let n = AxiomGame::num_moves(&moves);
            let mover = game.current_player();
            // White plays the engine under test; Black and the dice at random.
            let i = if mover != game.seats()[0] || n == 1 {
                rng.below(n)
            } else {
                let i = game.program_move(0, &moves, &mut rng).unwrap();
                let all: Vec<String> = (0..n).map(|k| game.notation(&moves, k)).collect();
                assert_eq!(i, if want_last { n - 1 } else { 0 }, "{file}: {all:?}");
                engine_moves += 1;
                i
            };
            game.make(&moves, i);
        }
        assert!(engine_moves >= 2, "{file}: {engine_moves}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays `games` games of `p` with the move-word cache and without ([`transcript`]) and
/// asserts that every line is the same; returns the lines' count and both caches' counts.
fn same_with_and_without_cache(
    p: &Program,
    games: u64,
    what: &str,
) -> (usize, memo::MemoStats, memo::MemoStats) {
    let (with, stats) = transcript(p, games, true);
    let (without, off) = transcript(p, games, false);
    for (k, (a, b)) in with.iter().zip(&without).enumerate() {
        assert_eq!(a, b, "{what}: line {k} differs with the cache");
    }
    assert_eq!(with.len(), without.len(), "{what}");
    (with.len(), stats, off)
}

/// Plays `games` games of `p` against itself with the trace caches on or off (game `g`
/// from `seeds.0 + g` for the moves' choices, `seeds.1 + g` for the game's own), at most
/// `max_plies` plies each; `choose` picks each ply's move and gives the line recorded for
/// it; `done` sees each game at its end. Returns the lines, each game's end included.
fn record_games(
    p: &Program,
    (games, max_plies): (u64, usize),
    cache: bool,
    seeds: (u64, u64),
    mut choose: impl FnMut(&mut AxiomGame, &game::AxiomMoves, &mut Rng) -> (usize, String),
    mut done: impl FnMut(&AxiomGame),
) -> Vec<String> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = Rng::new(seeds.0 + g);
        let mut game = AxiomGame::new(p, p, seeds.1 + g).expect("set-up");
        game.set_move_cache(cache);
        let mut moves = Default::default();
        for _ in 0..max_plies {
            game.legal_moves(&mut moves);
            if let Some(e) = game.take_error() {
                out.push(format!("error {e}"));
                break;
            }
            if let Some(o) = game.outcome(&moves) {
                out.push(format!("end {:?}", o.winner()));
                break;
            }
            let (i, line) = choose(&mut game, &moves, &mut rng);
            out.push(line);
            game.make(&moves, i);
        }
        done(&game);
    }
    out
}

/// A move played for good (`Game::play`, a tournament's) leaves every program's state as
/// making it does (`Game::make`, which keeps what taking it back needs): two programs,
/// so that the second's state is played too.
#[test]
fn playing_a_move_is_making_it() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race");
    let a = Program::load(&dir.join("Race-[random].4th"), None).unwrap();
    let b = Program::load(&dir.join("Race-[first].4th"), None).unwrap();
    let mut rng = Rng::new(17);
    let mut made = AxiomGame::new(&a, &b, 3).unwrap();
    let mut played = AxiomGame::new(&a, &b, 3).unwrap();
    let (mut m1, mut m2) = (Default::default(), Default::default());
    let mut plies = 0;
    for _ in 0..300 {
        made.legal_moves(&mut m1);
        played.legal_moves(&mut m2);
        assert_eq!(made.fingerprint(), played.fingerprint(), "ply {plies}");
        if made.outcome(&m1).is_some() {
            break;
        }
        let i = rng.below(AxiomGame::num_moves(&m1));
        made.make(&m1, i);
        played.play(&m2, i);
        plies += 1;
    }
    assert!(made.take_error().is_none() && played.take_error().is_none());
    assert!(plies > 50, "{plies} plies");
}

/// Plays `games` games of `p` against itself with random moves, with the move-word cache
/// on or off; returns every ply's move list (as notations) and the game's end, and what
/// the cache did.
fn transcript(p: &Program, games: u64, cache: bool) -> (Vec<String>, memo::MemoStats) {
    let mut stats = memo::MemoStats::default();
    let out = record_games(
        p,
        (games, 400),
        cache,
        (77, 9),
        |game, moves, rng| {
            let n = AxiomGame::num_moves(moves);
            let list: Vec<String> = (0..n).map(|i| game.notation(moves, i)).collect();
            let i = rng.below(n);
            let line = format!(
                "{} {i} of {} (state {:x})",
                game.current_player(),
                list.join(", "),
                game.fingerprint()
            );
            (i, line)
        },
        |game| stats += game.move_cache_stats(),
    );
    (out, stats)
}

#[test]
fn on_next_turn_is_replayed_from_its_traces() {
    // Every move runs `OnNextTurn`, which goes round the turn order: its effects are
    // replayed from one trace per turn (the records are the same with the caches off:
    // `the_move_word_cache_changes_no_move_list`).
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom");
    for file in ["race/Race.4th", "capture/Capture.4th"] {
        let p = Program::load(&dir.join(file), None).unwrap_or_else(|e| panic!("{e}"));
        let mut stats = eval_memo::EvalStats::default();
        let lines = record_games(
            &p,
            (3, 200),
            true,
            (5, 6),
            |_, moves, rng| (rng.below(AxiomGame::num_moves(moves)), String::new()),
            |game| stats += game.turn_cache_stats(),
        );
        assert!(lines.len() > 30, "{file}: {} plies", lines.len());
        assert!(
            stats.replayed > 5 * stats.traced,
            "{file}: OnNextTurn should be replayed: {stats:?}"
        );
    }
}

#[test]
fn the_move_word_cache_changes_no_move_list() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom");
    for (file, plies) in [("race/Race.4th", 300), ("capture/Capture.4th", 60)] {
        let p = Program::load(&dir.join(file), None).unwrap_or_else(|e| panic!("{e}"));
        let (n, stats, off) = same_with_and_without_cache(&p, 6, file);
        assert!(n > plies, "{file}: {n} plies");
        // The race's drop words read the same cells ply after ply; the capture game's
        // pieces move, so fewer of its words hold.
        assert!(
            stats.replayed > 0 && (plies < 300 || stats.replayed > 2 * stats.traced),
            "{file}: the cache should replay move words: {stats:?}"
        );
        assert_eq!((off.replayed, off.traced), (0, 0), "{file}: {off:?}");
        // The race's dice drops fail at every other position, reading nothing written
        // since: skipped without a check.
        assert!(
            plies < 300 || stats.skipped > 1000,
            "{file}: clean words should be skipped: {stats:?}"
        );
        // Most idle positions are the same as the one before: taken in one step.
        assert!(
            plies < 300 || stats.rows > 1000,
            "{file}: the walk should take same positions together: {stats:?}"
        );
        // The dice squares' drop words take a path for each state of their square: the
        // walk finds the trace that holds and goes on.
        assert!(
            plies < 300 || stats.promoted > 100,
            "{file}: the walk should take words whose other trace holds: {stats:?}"
        );
    }
}

#[test]
fn perft_counts_are_the_same_with_and_without_the_move_word_cache() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom");
    let p = Program::load(&dir.join("capture/Capture.4th"), None).unwrap();
    let mut counts = Vec::new();
    for cache in [true, false] {
        let mut g = AxiomGame::new(&p, &p, 1).unwrap();
        g.set_move_cache(cache);
        counts.push(perft::perft(&mut g, 5).unwrap());
    }
    assert_eq!(counts[0], counts[1]);
    assert_eq!(counts[0], 1_044, "capture perft(5)");
}

/// A move word that reads a variable no turn writes, which some moves change (the count
/// of runners that entered, whose parity lengthens every throw): traced runs take the
/// cell as fixed (`crate::forth::frozen`) until the first entry changes it, and the cache
/// must then see the change, and every later one, and play as without it.
#[test]
fn a_frozen_cell_that_changes_is_seen() {
    let dir = super::layer_tests::scratch_dir("dagaz-frozen");
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race");
    let mut text = std::fs::read_to_string(fixture.join("Race.4th")).unwrap();
    for (from, to) in [
        (
            ": entered ( -- ) my-waiting -- ;",
            "VARIABLE entries\n: entered ( -- ) my-waiting -- entries ++ ;",
        ),
        (
            ": run ( -- )\n   throw walk IF",
            ": run ( -- )\n   throw entries @ 1 AND IF 1+ THEN walk IF",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    std::fs::write(dir.join("Frozen.4th"), text).unwrap();
    let p = Program::load(&dir.join("Frozen.4th"), None).unwrap_or_else(|e| panic!("{e}"));
    let (plies, stats, _) = same_with_and_without_cache(&p, 6, "Frozen");
    assert!(
        plies > 300 && stats.replayed > 2 * stats.traced,
        "{plies} plies, {stats:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A variant of the race fixture with move priorities and pass-type words after the race
/// words, so that most of them run when a race move is already listed: the move cache
/// replays them through its dominated-move shortcut, which must leave every state as
/// running them does.
#[test]
fn dominated_moves_replay_as_they_run() {
    let dir = super::layer_tests::scratch_dir("dagaz-dominated");
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race");
    let race = std::fs::read_to_string(fixture.join("Race.4th")).unwrap();
    let edits = [
        ("{turn} White {of-type} race", "{turn} White"),
        ("{turn} Black {of-type} race", "{turn} Black"),
        (
            ": throw-first ( -- ) here",
            ": give-up ( -- ) die2 capture-at repetition-reset add-move ;\n\
             : wait ( -- ) m4 capture-at here die1 = verify w1 create-at drop add-move ;\n\
             : throw-first ( -- ) current-player ?Dice = verify here",
        ),
        (
            ": throw-second ( -- ) here",
            ": throw-second ( -- ) current-player ?Dice = verify here",
        ),
        (
            "{move} run {move-type} race moves}",
            "{move} run {move-type} race {move} give-up {move-type} pass-type moves}",
        ),
        (
            "{move} enter {move-type} race moves}",
            "{move} enter {move-type} race {move} give-up {move-type} pass-type \
             {move} wait {move-type} pass-type moves}",
        ),
        (
            "{pieces",
            "{move-priorities {move-priority} race {move-priority} pass-type move-priorities}\n\
             {pieces",
        ),
        // The runners last, so that their drop words end the scan (and what a dominated
        // one leaves in `$lastPos` outlives it).
        (
            "{piece} Runner {moves} runner-moves {drops} runner-drops\n",
            "",
        ),
        (
            "pieces}",
            "{piece} Runner {moves} runner-moves {drops} runner-drops\npieces}",
        ),
    ];
    let mut text = race;
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    // Each variant: written, loaded, played with the cache on and off (every move list and
    // state compared); its cache's counts.
    let play = |text: &str, what: &str| {
        std::fs::write(dir.join("Passing.4th"), text).unwrap();
        let p = Program::load(&dir.join("Passing.4th"), None).unwrap_or_else(|e| panic!("{e}"));
        let (plies, stats, _) = same_with_and_without_cache(&p, 6, what);
        assert!(plies > 300, "{what}: {plies} plies");
        stats
    };
    let edit = |text: &str, from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        text.replace(from, to)
    };
    let stats = play(&text, "Passing");
    assert!(
        stats.unlisted > 1000,
        "the shortcut should replay dominated moves: {stats:?}"
    );
    // Without `wait`, the pass-type `give-up` at every position repeats the one before
    // where the drop word between them does nothing: the repeats are skipped, and every
    // state is still as running them leaves it.
    let text = edit(&text, " {move} wait {move-type} pass-type", "");
    let stats = play(&text, "Passing without wait");
    assert!(stats.repeated > 100, "repeats should be skipped: {stats:?}");
    // A listed move (`mark`, replayed from its trace) that writes a cell the dominated
    // `give-up` writes too, between two of them: the second writes it back, so it is no
    // repeat of the first (`Runtime::leaves_unlisted`).
    let marked = edit(&text, ": enter ( -- )", "VARIABLE marker\n: enter ( -- )");
    let marked = edit(
        &marked,
        ": give-up ( -- ) die2",
        ": give-up ( -- ) 1 marker ! die2",
    );
    let marked = edit(
        &marked,
        "{moves runner-drops {move} enter {move-type} race {move} give-up {move-type} pass-type",
        ": mark ( -- ) here die1 = verify 2 marker ! die2 capture-at add-move ;\n\
         {moves runner-drops {move} enter {move-type} race {move} give-up {move-type} pass-type \
         {move} mark {move-type} race",
    );
    let stats = play(&marked, "Passing, marked");
    assert!(stats.repeated > 100, "repeats should be skipped: {stats:?}");
    // With Axiom's `Pass` (as Ur's `pass-move`): the first `give-up` of each generation
    // lists a pass and sets `$passed`, which it reads; the others read it set. The
    // entries that read that one cell compare it at each use (they are not watched).
    let with_pass = edit(
        &text,
        "die2 capture-at repetition-reset add-move",
        "die2 capture-at repetition-reset Pass add-move",
    );
    let stats = play(&with_pass, "Passing with Pass");
    assert!(stats.repeated > 100, "repeats should be skipped: {stats:?}");
    assert!(stats.rows > 1000, "same positions together: {stats:?}");
    // Without move priorities, and with `give-up` after the dice drops too, every
    // `give-up` is listed: a pass at every position, each (with the dice drops between
    // them doing nothing) the same move as the one before, listed again by a copy of its
    // record.
    let text = edit(
        &text,
        "{move-priorities {move-priority} race {move-priority} pass-type move-priorities}",
        "",
    );
    let text = edit(
        &text,
        "{move} throw-second {move-type} second-die\n",
        "{move} throw-second {move-type} second-die {move} give-up {move-type} pass-type\n",
    );
    let stats = play(&text, "Passing, no priorities");
    assert!(
        stats.relisted > 100,
        "passes should be listed by copies: {stats:?}"
    );
    // Between the first copy of a run of positions and the last, the copies are made
    // together (`Runtime::relist_run`).
    assert!(
        stats.copied_together * 2 > stats.relisted,
        "copies should be made together: {stats:?}"
    );
    // A word that reads the count of moves listed so far, run after the copies (the
    // runners' drop words end the scan): a copy counts its move at once, as `add-move`
    // does, not only when the generation ends.
    let text = edit(
        &text,
        "{moves runner-drops {move} enter {move-type} race {move} give-up {move-type} pass-type",
        ": odd-count ( -- ) move-count 1 AND verify die2 capture-at add-move ;\n\
         {moves runner-drops {move} enter {move-type} race {move} give-up {move-type} pass-type \
         {move} odd-count {move-type} pass-type",
    );
    let stats = play(&text, "Passing, counted");
    assert!(
        stats.relisted > 100,
        "passes should be listed by copies: {stats:?}"
    );
    // Drop words scanned last: `idle` fails at every position reading nothing; `hold`
    // reads a cell no one writes and the square (two reads: its entries are watched),
    // and on White's turn lists a pass at each square White holds. The walk takes the
    // positions after the first in one step while their entries are those of the one
    // before and clean (when a runner lands on an empty square, its `hold` entry, the
    // same as its neighbours', is dirty and must be checked), and the cursor it leaves at
    // the end of the scan is the last position's, as running the words leaves it.
    let text = edit(
        &text,
        "{pieces",
        ": idle ( -- ) FALSE verify ;\n\
         VARIABLE unwritten\n\
         : hold ( -- ) unwritten @ 0= verify empty? 0= verify friend? verify \
         current-player White = verify die2 capture-at add-move ;\n\
         {moves idle-drops {move} idle {move} hold moves}\n{pieces",
    );
    let text = edit(&text, "pieces}", "{piece} Idle {drops} idle-drops\npieces}");
    let before = stats.rows;
    let stats = play(&text, "Passing, idle last");
    assert!(
        stats.rows > before + 1000,
        "idle positions should be taken together: {stats:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays `games` games of `p` against itself with its own engine (`$NegamaxMove` for the
/// fixtures, which name none), with the trace caches on or off; returns every ply's choice
/// and state, and what the evaluation cache did.
fn searched_transcript(
    p: &Program,
    games: u64,
    cache: bool,
) -> (Vec<String>, eval_memo::EvalStats) {
    let mut stats = eval_memo::EvalStats::default();
    let out = record_games(
        p,
        (games, 150),
        cache,
        (5, 3),
        |game, moves, rng| {
            let n = AxiomGame::num_moves(moves);
            let mover = game.current_player();
            let i = if game.is_random(mover) {
                rng.below(n)
            } else {
                let slot = game.seats().iter().position(|&s| s == mover).unwrap_or(0);
                game.program_move(slot, moves, rng).expect("search")
            };
            (
                i,
                format!("{mover} {i} of {n} (state {:x})", game.fingerprint()),
            )
        },
        |game| stats += game.eval_cache_stats(),
    );
    (out, stats)
}

/// `$NegamaxMove` asks `OnEvaluate` at every leaf; the evaluation cache answers it from
/// traces of earlier runs (the race's leaves after a throw differ only in the dice). Every
/// choice and every state is the same with the cache on and off, for the race's own
/// evaluation and for one that writes a variable on its way (the replay applies the
/// write: the fingerprint covers memory).
#[test]
fn the_evaluation_cache_changes_no_choice() {
    let dir = super::layer_tests::scratch_dir("dagaz-eval-cache");
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race");
    let race = std::fs::read_to_string(fixture.join("Race.4th")).unwrap();
    let from = ": OnEvaluate ( -- score ) my-home @ their-home @ - 10 * ;";
    assert!(race.contains(from));
    // Longer evaluations than the race's own (a dozen primitives, cheaper to run than to
    // check), one of them writing a variable on its way.
    let longer = race.replace(
        from,
        ": OnEvaluate ( -- score ) 0 20 0 DO my-home @ their-home @ - + LOOP ;",
    );
    let writing = race.replace(
        from,
        "VARIABLE lead\n\
         : OnEvaluate ( -- score ) 0 lead ! \
         20 0 DO my-home @ their-home @ - lead @ + lead ! LOOP lead @ ;",
    );
    let (_, own) = searched_transcript(
        &Program::load(&fixture.join("Race.4th"), None).unwrap_or_else(|e| panic!("{e}")),
        2,
        true,
    );
    assert!(
        own.traced * 50 < own.untraced,
        "a cheap evaluation should run untraced: {own:?}"
    );
    for (what, text) in [
        ("race, longer", longer.as_str()),
        ("race, writing", writing.as_str()),
    ] {
        std::fs::write(dir.join("Race.4th"), text).unwrap();
        let p = Program::load(&dir.join("Race.4th"), None).unwrap_or_else(|e| panic!("{e}"));
        let (with, on) = searched_transcript(&p, 2, true);
        let (without, off) = searched_transcript(&p, 2, false);
        assert_eq!(with.len(), without.len(), "{what}");
        for (k, (a, b)) in with.iter().zip(&without).enumerate() {
            assert_eq!(a, b, "{what}: ply {k} differs with the evaluation cache");
        }
        assert!(with.len() > 100, "{what}: {} plies", with.len());
        assert!(
            on.replayed > on.traced && on.traced > 0,
            "{what}: evaluations should be answered from traces: {on:?}"
        );
        assert_eq!(off.replayed + off.traced, 0, "{what}: {off:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `$NegamaxMove` searches killer moves, then the others by history, first below the root
/// (`super::search`): every choice and every state is the same with that order on and off,
/// at depths 3 to 5, and the searches visit fewer positions (at depth 5, under 90%: the
/// killers alone visit 94%).
#[test]
fn the_search_order_changes_no_choice() {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom");
    let p =
        Program::load(&fixture.join("capture/Capture.4th"), None).unwrap_or_else(|e| panic!("{e}"));
    for depth in [3, 4, 5] {
        let play = |ordered: bool| {
            let mut searched = 0;
            let out = record_games(
                &p,
                (3, 60),
                true,
                (21, 4),
                |game, moves, rng| {
                    game.set_search_order(ordered);
                    game.set_search_depth(depth);
                    let n = AxiomGame::num_moves(moves);
                    let mover = game.current_player();
                    let slot = game.seats().iter().position(|&s| s == mover).unwrap_or(0);
                    let i = game.program_move(slot, moves, rng).expect("search");
                    searched += game.searched(slot);
                    let state = game.fingerprint();
                    (i, format!("{mover} {i} of {n} (state {state:x})"))
                },
                |_| {},
            );
            (out, searched)
        };
        let (with, fewer) = play(true);
        let (without, all) = play(false);
        assert!(with.len() > 20, "depth {depth}: {} plies", with.len());
        assert_eq!(
            with, without,
            "depth {depth}: the search order changed a choice"
        );
        // (Captures are compulsory in this game: few lines to prune at the smaller depths.)
        assert!(
            fewer <= all && (depth < 5 || fewer * 10 < all * 9),
            "depth {depth}: the order should prune more: {fewer} positions against {all}"
        );
    }
}

/// The move the program to move chooses with its own engine, the tournament slot it plays
/// for, and whether the search was cut by its step budget.
fn engine_move(
    game: &mut AxiomGame,
    moves: &game::AxiomMoves,
    rng: &mut Rng,
) -> (usize, usize, bool) {
    let mover = game.current_player();
    let slot = game.seats().iter().position(|&s| s == mover).unwrap_or(0);
    let before = game.search_cuts(slot);
    let i = game.program_move(slot, moves, rng).expect("search");
    (i, slot, game.search_cuts(slot) > before)
}

/// `$NegamaxMove` deepens one ply at a time within its step budget (`--search-steps`):
/// when the budget runs out, the move played is the one a search to the depth of its
/// deepest finished iteration chooses with no budget, the cut is counted, and a search
/// that finishes every iteration is not cut. Budgets of 20,000 and 300,000 primitives cut
/// the capture fixture's depth-4 searches at every depth from 1 to 3.
#[test]
fn negamax_plays_its_deepest_finished_iteration() {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom");
    let p =
        Program::load(&fixture.join("capture/Capture.4th"), None).unwrap_or_else(|e| panic!("{e}"));
    let mut reached = std::collections::BTreeSet::new();
    for steps in [20_000u64, 300_000] {
        record_games(
            &p,
            (2, 60),
            true,
            (21, 4),
            |game, moves, rng| {
                game.set_search_depth(4);
                game.set_search_steps(steps);
                // One budget and no draw among equal moves, so that the search without
                // a budget is comparable.
                game.set_search_variety(false);
                let (before, dice) = (game.clone(), rng.clone());
                let (i, slot, cut) = engine_move(game, moves, rng);
                let depth = game.search_report(slot).depth;
                reached.insert(depth);
                assert_eq!(
                    cut,
                    depth < 4,
                    "{steps} steps: a search to depth {depth} of 4"
                );
                if depth >= 1 {
                    let (mut full, mut dice) = (before, dice);
                    full.set_search_depth(depth as u32);
                    full.set_search_steps(u64::MAX);
                    let j = full.program_move(slot, moves, &mut dice).expect("search");
                    assert_eq!(i, j, "{steps} steps: not depth {depth}'s choice");
                    assert_eq!(full.search_report(slot).depth, depth);
                }
                (i, String::new())
            },
            |_| {},
        );
    }
    assert!(
        [1, 2, 3, 4].iter().all(|d| reached.contains(d)),
        "every depth should be reached by some search: {reached:?}"
    );
}

/// A search cut by its step budget plays the same move with the trace caches on and off:
/// what a cache answers counts the steps its run would have taken.
#[test]
fn a_cut_search_is_the_same_with_the_caches_off() {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom");
    let p =
        Program::load(&fixture.join("capture/Capture.4th"), None).unwrap_or_else(|e| panic!("{e}"));
    let play = |cache: bool| {
        let mut cuts = 0;
        let out = record_games(
            &p,
            (2, 60),
            cache,
            (5, 8),
            |game, moves, rng| {
                game.set_search_depth(4);
                game.set_search_steps(50_000);
                let mover = game.current_player();
                let (i, slot, cut) = engine_move(game, moves, rng);
                cuts += u64::from(cut);
                let depth = game.search_report(slot).depth;
                (
                    i,
                    format!("{mover} {i} depth {depth} (state {:x})", game.fingerprint()),
                )
            },
            |_| {},
        );
        (out, cuts)
    };
    let (with, cut) = play(true);
    let (without, _) = play(false);
    assert!(cut > 10, "the budget should cut searches: {cut}");
    assert_eq!(with, without);
}

/// `$UCTMove` stops when its step budget runs out: fewer playouts, the cut counted, the
/// most visited move of the finished playouts played, the same with the caches off; with
/// the default budget it plays all its playouts.
#[test]
fn uct_stops_at_its_step_budget() {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race");
    let p = Program::load(&fixture.join("Race-[uct].4th"), None).unwrap_or_else(|e| panic!("{e}"));
    let play = |cache: bool, steps: Option<u64>| {
        let (mut cuts, mut playouts, mut searches) = (0, 0, 0);
        let out = record_games(
            &p,
            (1, 120),
            cache,
            (3, 6),
            |game, moves, rng| {
                let n = AxiomGame::num_moves(moves);
                let mover = game.current_player();
                if game.is_random(mover) || n == 1 {
                    return (rng.below(n), String::new());
                }
                if let Some(s) = steps {
                    game.set_search_steps(s);
                }
                let (i, slot, cut) = engine_move(game, moves, rng);
                cuts += u64::from(cut);
                playouts += game.searched(slot);
                searches += 1;
                (
                    i,
                    format!("{mover} {i} of {n} (state {:x})", game.fingerprint()),
                )
            },
            |_| {},
        );
        (out, cuts, playouts, searches)
    };
    let (_, cuts, playouts, searches) = play(true, None);
    assert!(searches > 5, "{searches} searches");
    assert_eq!(
        (cuts, playouts),
        (0, searches * u64::from(search::UCT_PLAYOUTS))
    );
    let (with, cuts, playouts, searches) = play(true, Some(100_000));
    assert_eq!(cuts, searches, "every search should be cut");
    assert!(
        playouts < searches * u64::from(search::UCT_PLAYOUTS) / 2,
        "{playouts}"
    );
    let (without, ..) = play(false, Some(100_000));
    assert_eq!(with, without);
}

/// The games of a match are copies of one prototype: a game that ends leaves its
/// move-word cache to the next, whose first generation then replays words instead of
/// running them all. A copy of a game in play (a search's) leaves nothing. The games play
/// exactly as with no cache at all.
#[test]
fn the_games_of_a_match_pass_their_caches_on_and_play_the_same() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom");
    let p = Program::load(&dir.join("race/Race.4th"), None).unwrap_or_else(|e| panic!("{e}"));
    let play = |cache: bool| {
        let mut proto = AxiomGame::new(&p, &p, 9).expect("set-up");
        proto.set_move_cache(cache);
        let mut lines = Vec::new();
        let mut first_replays = Vec::new();
        for g in 0..4u64 {
            let mut game = proto.clone();
            let mut rng = Rng::new(50 + g);
            let mut moves = Default::default();
            for ply in 0..300 {
                game.legal_moves(&mut moves);
                if ply == 0 {
                    first_replays.push(game.move_cache_stats().replayed);
                    // A search's copy, dropped: it leaves no cache.
                    let mut copy = game.clone();
                    copy.legal_moves(&mut moves);
                    drop(copy);
                    assert_eq!(proto.pooled(), 0, "game {g}");
                    game.legal_moves(&mut moves);
                }
                if let Some(o) = game.outcome(&moves) {
                    lines.push(format!("end {:?}", o.winner()));
                    break;
                }
                let i = rng.below(AxiomGame::num_moves(&moves));
                lines.push(format!(
                    "{} {}",
                    game.current_player(),
                    game.notation(&moves, i)
                ));
                game.make(&moves, i);
            }
            assert!(lines.len() > 20 * (g as usize + 1), "game {g} is too short");
            drop(game);
            assert_eq!(proto.pooled(), usize::from(cache), "game {g} ended");
        }
        (lines, first_replays)
    };
    let (with, replays) = play(true);
    let (without, none) = play(false);
    assert_eq!(with, without);
    assert_eq!(none, [0, 0, 0, 0]);
    assert_eq!(replays[0], 0, "the first game starts with an empty cache");
    assert!(
        replays[1..].iter().all(|&r| r > 0),
        "later games start with the cache of the one before: {replays:?}"
    );
}

/// The scan's skip over cells without a piece of the player to move
/// (`state::next_friendly`): the first friendly cell from a position, the end when there
/// is none, and the first cell past the memory's end, which the scan then reads as a
/// cell and fails on.
#[test]
fn the_scan_skips_to_the_next_friendly_piece() {
    use crate::forth::{Limits, Vm};
    let mut vm = Vm::new(Limits::default());
    let board = 4096;
    for (pos, v) in [(3, 7), (5, 9), (9, 7)] {
        vm.set_cell(board + 4 * pos, v).unwrap();
    }
    let friendly = |v: i32| v == 7;
    assert_eq!(state::next_friendly(&vm, board, (0, 12), friendly), 3);
    assert_eq!(state::next_friendly(&vm, board, (3, 12), friendly), 3);
    assert_eq!(state::next_friendly(&vm, board, (4, 12), friendly), 9);
    assert_eq!(state::next_friendly(&vm, board, (10, 12), friendly), 12);
    assert_eq!(state::next_friendly(&vm, board, (0, 3), friendly), 3);
    // A board that runs past the memory: the scan stops at the first cell outside it.
    let end = vm.mem_len();
    let near = end - 8;
    assert_eq!(state::next_friendly(&vm, near, (0, 5), friendly), 2);
    assert!(vm.cell(near + 8).is_err());
    assert_eq!(state::next_friendly(&vm, end + 100, (0, 5), friendly), 0);
}

/// A started game of the capture fixture, with a string of `len` bytes of `A` at `S`
/// (and room for as much again after it).
fn game_with_a_long_string(len: u32) -> state::State {
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/capture/Capture.4th");
    let p = Program::load(&fixture, None).unwrap();
    let mut s = state::State::new(&p, 1).unwrap();
    let setup = format!("HERE 1024 + CONSTANT S  S {len} 65 FILL  0 S {len} + C!");
    s.vm.interpret_str("setup.4th", &setup, &mut s.rt).unwrap();
    s
}

/// Steps `src` takes in `s` (the stacks emptied after).
fn steps_of(s: &mut state::State, src: &str) -> u64 {
    s.vm.set_step_budget(u64::MAX);
    s.vm.interpret_str("t.4th", src, &mut s.rt)
        .unwrap_or_else(|e| panic!("{src}: {e}"));
    s.vm.clear_stacks();
    s.vm.steps()
}

/// The host words that scan strings or walk the board count one step more per
/// `BYTES_PER_STEP` bytes (the board's beyond its first kilobyte): a loop of them stops at
/// the step budget.
#[test]
fn host_words_are_charged_by_the_bytes_they_touch() {
    let len = 16_384u32;
    let per_string = len as u64 / crate::forth::vm::BYTES_PER_STEP;
    let mut s = game_with_a_long_string(len);
    for (src, charged) in [
        ("S S \"= DROP", 2 * per_string),
        ("S BestMove!", per_string),
        ("S material-balance DROP", 0),
    ] {
        let steps = steps_of(&mut s, src);
        assert!(
            (charged..charged + 20).contains(&steps),
            "{src}: {steps} steps, {charged} charged"
        );
    }
    // `^string` in a move word.
    s.rt.begin_generation(&mut s.vm).unwrap();
    s.rt.begin_move(&mut s.vm, 0).unwrap();
    let steps = steps_of(&mut s, "S ^string");
    assert!((per_string..per_string + 20).contains(&steps), "{steps}");
    s.rt.abandon_generation();
    // A board of 65,536 positions: a cell each, the first kilobyte free.
    let positions = s.vm.find(b"$positions").unwrap() + 16;
    s.vm.set_cell(positions, 65_536).unwrap();
    let steps = steps_of(&mut s, "White material-balance DROP");
    let charged = (65_536 * 4 - 1024) / crate::forth::vm::BYTES_PER_STEP;
    assert!((charged..charged + 20).contains(&steps), "{steps}");
    // A loop of string compares ends at the budget.
    s.vm.interpret_str("t.4th", ": f BEGIN S S \"= DROP 0 UNTIL ;", &mut s.rt)
        .unwrap();
    s.vm.set_step_budget(20 * per_string);
    let e = s.vm.interpret_str("t.4th", "f", &mut s.rt).unwrap_err();
    assert_eq!(e.kind.code().id, "DZ1007", "{e}");
}

/// A move word that notes a long string again and again fails with DZ1014 once its
/// notation reaches `MAX_NOTATION`, long before the step budget (the buffer grew until the
/// process ran out of memory).
#[test]
fn a_moves_notation_has_a_limit() {
    let mut s = game_with_a_long_string(4096);
    s.vm.interpret_str("t.4th", ": m BEGIN S ^string 0 UNTIL ;", &mut s.rt)
        .unwrap();
    s.rt.begin_generation(&mut s.vm).unwrap();
    s.rt.begin_move(&mut s.vm, 0).unwrap();
    s.vm.set_step_budget(1_000_000);
    let e = s.vm.interpret_str("t.4th", "m", &mut s.rt).unwrap_err();
    assert_eq!(e.kind.code().id, "DZ1014", "{e}");
    assert!(e.to_string().contains("notation"), "{e}");
    // Far from the budget: the limit stopped it.
    assert!(s.vm.steps() < 10_000, "{}", s.vm.steps());
    s.rt.abandon_generation();
}

/// `repetition-push-position` counts the history it scans and the board it hashes (beyond
/// their first kilobyte): a loop of it stops at the step budget after a few thousand
/// pushes, not tens of thousands that each scan the whole history.
#[test]
fn repetition_pushes_are_charged_by_the_history_they_scan() {
    let mut s = game_with_a_long_string(1);
    s.vm.interpret_str(
        "t.4th",
        ": f BEGIN repetition-push-position DROP 0 UNTIL ;",
        &mut s.rt,
    )
    .unwrap();
    s.rt.history.clear();
    s.vm.set_step_budget(200_000);
    let e = s.vm.interpret_str("t.4th", "f", &mut s.rt).unwrap_err();
    assert_eq!(e.kind.code().id, "DZ1007", "{e}");
    let pushed = s.rt.history.len();
    assert!((128..5_000).contains(&pushed), "{pushed} pushes");
    // The history has a limit of its own.
    s.rt.history = vec![0; natives::MAX_HISTORY];
    s.vm.set_step_budget(u64::MAX);
    let e =
        s.vm.interpret_str("t.4th", "repetition-push-position", &mut s.rt)
            .unwrap_err();
    assert_eq!(e.kind.code().id, "DZ1014", "{e}");
}
