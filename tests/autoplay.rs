//! `dagaz autoplay`, `games` and `stats` end to end on the bundled Royal Game of Ur:
//! reproducibility across thread counts, Axiom's output lines, shards and merging, resume,
//! gates, and clear errors for bad players.

mod common;
/// A toy dice race that tests the AIs and the tournament runner without the engine.
mod toy;

use std::path::PathBuf;

use common::{autoplay, dagaz, records};
use dagaz::tournament::record::{GameEnd, GameResult, Repetition, SeatOutcome};

fn tmp(name: &str) -> PathBuf {
    common::tmp_in("autoplay", name)
}

#[test]
fn same_seed_same_games_with_one_or_two_threads() {
    let (a, b) = (tmp("j1.jsonl"), tmp("j2.jsonl"));
    let args = [
        "ur-expectimax",
        "ur-aggressive",
        "-n",
        "6",
        "--depth",
        "2",
        "--seed",
        "11",
    ];
    let out1 = autoplay(&[&args[..], &["-j", "1"]].concat(), &a);
    let out2 = autoplay(&[&args[..], &["-j", "2"]].concat(), &b);
    assert_eq!(records(&a), records(&b));
    assert_eq!(out1, out2);
    assert!(out1.contains("seed 11"), "{out1}");
    let r = records(&a);
    assert_eq!(r.len(), 6);
    assert!(r.iter().all(|g| g.error.is_none() && g.plies > 20));
    // Colour-swapped pairs.
    assert_eq!(r[0].seats[0].player, "A");
    assert_eq!(r[1].seats[0].player, "B");
}

#[test]
fn prints_axiom_lines_then_the_summary() {
    let out = autoplay(
        &["ur-random", "ur-random", "-n", "10", "--no-swap"],
        &tmp("axiom.jsonl"),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Final results:");
    assert!(
        lines[1].starts_with("Player 1 \"Ur-[random]\", wins = "),
        "{out}"
    );
    assert!(
        lines[2].starts_with("Player 2 \"Ur-[random]\", wins = "),
        "{out}"
    );
    assert!(lines[3].starts_with("Draws = "), "{out}");
    assert_eq!(lines[4], "10 game(s) played");
    assert!(
        out.contains("95% CI")
            && out.contains("Elo difference")
            && out.contains("first-player score")
    );
    // --no-swap: A always first.
    assert!(
        records(&tmp("axiom.jsonl"))
            .iter()
            .all(|r| r.seats[0].player == "A")
    );
}

#[test]
fn shards_merge_into_the_full_run_and_resume_completes_it() {
    let full = tmp("full.jsonl");
    autoplay(&["ur-simple", "ur-random", "-n", "12"], &full);
    let (s1, s2) = (tmp("s1.jsonl"), tmp("s2.jsonl"));
    autoplay(
        &["ur-simple", "ur-random", "-n", "12", "--shard", "1/2"],
        &s1,
    );
    autoplay(
        &["ur-simple", "ur-random", "-n", "12", "--shard", "2/2"],
        &s2,
    );
    let merged = tmp("merged.jsonl");
    dagaz()
        .args(["stats", "merge"])
        .arg(&s1)
        .arg(&s2)
        .arg("-o")
        .arg(&merged)
        .assert()
        .success();
    assert_eq!(records(&merged), records(&full));
    // Overlapping shards are refused.
    dagaz()
        .args(["stats", "merge"])
        .arg(&s1)
        .arg(&s1)
        .assert()
        .code(2);
    // Resume: shard 1 plus the rest gives the full run.
    dagaz()
        .args(["autoplay", "ur-simple", "ur-random", "-n", "12", "--resume"])
        .arg(&s1)
        .assert()
        .success();
    assert_eq!(records(&s1), records(&full));
    // Extending a run: 6 games, then resume with -n 12. The summary (accumulated from the
    // resumed records and the new games) is the one of the run played in one piece.
    let ext = tmp("ext.jsonl");
    autoplay(&["ur-simple", "ur-random", "-n", "6"], &ext);
    let resumed = dagaz()
        .args(["autoplay", "ur-simple", "ur-random", "-n", "12", "--resume"])
        .arg(&ext)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(records(&ext), records(&full));
    let whole = dagaz()
        .args(["autoplay", "ur-simple", "ur-random", "-n", "12"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(resumed).unwrap(),
        String::from_utf8(whole).unwrap()
    );
    // Resuming with other settings is refused.
    dagaz()
        .args([
            "autoplay",
            "ur-simple",
            "ur-random",
            "-n",
            "12",
            "--seed",
            "5",
            "--resume",
        ])
        .arg(&s1)
        .assert()
        .code(2);
    // Stats in three shapes; compare of a run with itself passes.
    dagaz().arg("stats").arg(&full).assert().success();
    let csv = dagaz()
        .args(["stats", "--format", "csv", "--table", "seats"])
        .arg(&full)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(
        String::from_utf8(csv)
            .unwrap()
            .starts_with("run_seed,player_a,player_b,seat")
    );
    dagaz()
        .args(["stats", "--format", "json"])
        .arg(&full)
        .assert()
        .success();
    dagaz()
        .args(["stats", "compare"])
        .arg(&full)
        .arg(&merged)
        .assert()
        .success();
}

#[test]
fn gates_fail_with_exit_1() {
    let out = tmp("gate.jsonl");
    dagaz()
        .args([
            "autoplay",
            "ur-random",
            "ur-aggressive",
            "-n",
            "20",
            "--expect-score",
            "A:0.6..1.0",
        ])
        .arg("--games-out")
        .arg(&out)
        .assert()
        .code(1);
    dagaz()
        .args([
            "autoplay",
            "ur-aggressive",
            "ur-random",
            "-n",
            "20",
            "--expect-score",
            "A:0.6..1.0",
        ])
        .assert()
        .success();
    let json = dagaz()
        .args([
            "autoplay",
            "ur-aggressive",
            "ur-random",
            "-n",
            "400",
            "--sprt",
            "elo0=0 elo1=100",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(v["schema_version"], 2);
    assert_eq!(v["sprt"]["decision"], "h1");
    assert!(
        v["summary"]["games"].as_u64().unwrap() < 400,
        "SPRT stops early"
    );
    // A rule change that moves the balance: all games against one another.
    let other = tmp("gate2.jsonl");
    dagaz()
        .args([
            "autoplay",
            "ur-aggressive",
            "ur-random",
            "-n",
            "20",
            "--no-swap",
        ])
        .arg("--games-out")
        .arg(&other)
        .assert()
        .success();
    dagaz()
        .args(["stats", "compare"])
        .arg(&out)
        .arg(&other)
        .args(["--first-player", "0.01"])
        .assert()
        .code(1);
}

#[test]
fn bad_players_are_explained() {
    let e = dagaz()
        .args(["autoplay", "ur-randm", "ur-simple"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let e = String::from_utf8(e).unwrap();
    assert!(e.contains("did you mean: ur-random"), "{e}");
    let e = dagaz()
        .args(["autoplay", "ur-random", "tic-tac-toe"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(
        String::from_utf8(e)
            .unwrap()
            .contains("not variants of the same rules")
    );
    dagaz()
        .args(["autoplay", "ur-random", "ur-random", "--shard", "3/2"])
        .assert()
        .code(2);
    dagaz()
        .args([
            "autoplay",
            "ur-random",
            "ur-random",
            "--expect-score",
            "C:1",
        ])
        .assert()
        .code(2);
    let g = dagaz()
        .arg("games")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(g).unwrap().contains("ur-expectimax"));
}

#[test]
fn corpus_race_games_play_with_random_players() {
    let f = common::corpus_dir().join("races/backgammon.zrf");
    let f = f.to_str().unwrap();
    let j = dagaz()
        .args(["autoplay", f, f, "-n", "4", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&j).unwrap();
    assert_eq!(v["summary"]["errors"], 0);
    let spec = format!("{}:ur-simple", "games/ur.zrf");
    dagaz()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["autoplay", &spec, "ur-random", "-n", "2"])
        .assert()
        .success();
}

/// The summary states the AI settings in effect: the command line's `--depth` for a
/// searching AI, and nothing a non-searching AI would ignore.
#[test]
fn summaries_state_the_settings_in_effect() {
    let out = dagaz()
        .args([
            "autoplay",
            "ur-expectimax",
            "ur-random",
            "-n",
            "2",
            "--depth",
            "1",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("A: expectimax depth 1 ("), "{text}");
    assert!(text.contains("; B: random\n"), "{text}");
}

/// The fixtures of tests/fixtures/outcomes, written for these tests.
fn outcome_fixture(name: &str) -> String {
    format!("tests/fixtures/outcomes/{name}")
}

/// Issue 14: a one-seat game (a solitaire) is scored as solved, failed or unfinished, never
/// as a win because the only seat "drew". A searching AI solves the solvable line every
/// time; a random one about half the time (the first of its two jumps decides); nothing
/// solves the unsolvable setup, which gets stuck after two jumps.
#[test]
fn solitaires_are_solved_failed_or_unfinished() {
    let peg = outcome_fixture("peg-line.zrf");
    let out = autoplay(
        &[&format!("{peg}:peg-line-search"), "-n", "20"],
        &tmp("solved.jsonl"),
    );
    assert!(
        out.contains("A: 20 games: 20 solved, 0 failed")
            && out.contains(
                "solve rate of A: 100.0% (95% CI 83.9%..100.0%); mean plies to a solution: 2.0"
            ),
        "{out}"
    );
    assert!(
        !out.contains("Final results"),
        "no Axiom table for one seat: {out}"
    );
    let r = records(&tmp("solved.jsonl"));
    assert!(r.iter().all(|g| g.result == GameResult::Solved
        && g.score_a.is_none()
        && g.winner.is_none()
        && g.end == Some(GameEnd::Goal)
        && g.seats.len() == 1
        && g.seats[0].player == "A"));

    let out = autoplay(
        &[&format!("{peg}:peg-line-unsolvable"), "-n", "10"],
        &tmp("failed.jsonl"),
    );
    assert!(
        out.contains("A: 10 games: 0 solved, 10 failed (0 lost, 10 with no move, 0 by repetition), 0 drawn, 0 unfinished"),
        "{out}"
    );
    let r = records(&tmp("failed.jsonl"));
    assert!(r.iter().all(|g| g.result == GameResult::Failed
        && g.end == Some(GameEnd::NoMoves)
        && g.plies == 2));

    // Random play, and the ply cap: one ply is not enough to solve the line.
    let out = autoplay(&[&peg, "-n", "40"], &tmp("random.jsonl"));
    let r = records(&tmp("random.jsonl"));
    let solved = r.iter().filter(|g| g.result == GameResult::Solved).count();
    assert!((10..=30).contains(&solved), "{solved} of 40: {out}");
    assert!(out.contains(&format!(
        "A: 40 games: {solved} solved, {} failed",
        40 - solved
    )));
    let out = autoplay(&[&peg, "-n", "4", "--max-plies", "1"], &tmp("cap.jsonl"));
    let r = records(&tmp("cap.jsonl"));
    assert!(
        r.iter()
            .all(|g| (g.result == GameResult::Unfinished) == (g.end == Some(GameEnd::PlyCap))),
        "{out}"
    );
    assert!(
        r.iter().any(|g| g.result == GameResult::Unfinished),
        "{out}"
    );

    // `stats` reads them back: the solo table has one row per player who played.
    let csv = dagaz()
        .args(["stats", "--format", "csv", "--table", "solo"])
        .arg(tmp("failed.jsonl"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let csv = String::from_utf8(csv).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(rows[0].starts_with("run_seed,player_a,player_b,player,games,solved,lost,stuck"));
    assert!(rows[1].contains(",A,10,0,0,10,0,0,0,0.0000,"), "{csv}");

    // Two players on one seat take turns at it and get a solve rate each; --expect-score
    // then gates the solve rate.
    dagaz()
        .args([
            "autoplay",
            &format!("{peg}:peg-line-search"),
            &peg,
            "-n",
            "20",
        ])
        .args([
            "--expect-score",
            "A:0.95..1.0",
            "--expect-score",
            "B:0.95..1.0",
        ])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("B:0.95..1.0: solve rate"));
    // Without B, a game with two seats is refused.
    dagaz()
        .args(["autoplay", "ur-random"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("has 2 seats"));
}

/// One AI seat against a random player (`?Nature`): the random player's win is the seat's
/// loss ("failed"), not a draw. Always taking two steps wins, which depth-4 search finds.
#[test]
fn a_seat_against_a_random_player_fails_when_the_random_player_wins() {
    let race = outcome_fixture("dice-race.zrf");
    let f = tmp("race.jsonl");
    let out = autoplay(
        &[&format!("{race}:dice-race-search"), &race, "-n", "60"],
        &f,
    );
    assert!(
        out.contains("A: 30 games: 30 solved, 0 failed")
            && out.contains("mean plies to a solution: 5.0"),
        "{out}"
    );
    let r = records(&f);
    let b: Vec<_> = r.iter().filter(|g| g.seats[0].player == "B").collect();
    assert_eq!(b.len(), 30);
    let lost = b.iter().filter(|g| g.result == GameResult::Failed).count();
    assert!(lost > 0 && lost < 20, "{out}");
    assert!(out.contains(&format!(
        "B: 30 games: {} solved, {lost} failed ({lost} lost",
        30 - lost
    )));
    for g in b.iter().filter(|g| g.result == GameResult::Failed) {
        assert_eq!(g.seats[0].result, Some(SeatOutcome::Loss));
        assert_eq!(g.end, Some(GameEnd::Goal));
    }
}

/// Four seats: A and B alternate over them (A, B, A, B in even games, B, A, B, A in odd
/// ones); every seat gets a place, results are reported per seat and as places.
#[test]
fn four_seats_alternate_and_report_places() {
    let four = outcome_fixture("four-seats.zrf");
    let f = tmp("four.jsonl");
    let out = autoplay(
        &[&format!("{four}:four-way-race-greedy"), &four, "-n", "40"],
        &f,
    );
    let r = records(&f);
    for g in &r {
        let players: Vec<&str> = g.seats.iter().map(|s| s.player.as_str()).collect();
        let want = if g.game_index % 2 == 0 {
            ["A", "B", "A", "B"]
        } else {
            ["B", "A", "B", "A"]
        };
        assert_eq!(players, want);
        // One winner, three losers sharing second place.
        let ranks: Vec<u32> = g.seats.iter().map(|s| s.rank.unwrap()).collect();
        assert_eq!(ranks.iter().filter(|&&k| k == 1).count(), 1, "{ranks:?}");
        assert_eq!(ranks.iter().filter(|&&k| k == 2).count(), 3, "{ranks:?}");
        assert_eq!(g.result, GameResult::Win);
    }
    let wins_a = r
        .iter()
        .filter(|g| g.winner.as_deref() == Some("A"))
        .count();
    assert!(
        out.contains("4 seats: A and B alternate over them"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "places of A's seats: 1st {wins_a}, 2nd {}",
            80 - wins_a
        )),
        "{out}"
    );
    for seat in [
        "North (1st to move)",
        "East (2nd",
        "South (3rd",
        "West (4th",
    ] {
        assert!(out.contains(&format!("seat {seat}")), "{out}");
    }
}

/// A game that states no goals says so once instead of printing a table of draws; threefold
/// repetition ends it by default and `--repetition off` lets it go on.
#[test]
fn games_without_goals_say_so_and_repetition_is_controllable() {
    let walk = outcome_fixture("no-goals.zrf");
    let f = tmp("walk.jsonl");
    let out = autoplay(&[&walk, &walk, "-n", "10"], &f);
    assert!(
        out.starts_with("no result to measure: \"Aimless walk\""),
        "{out}"
    );
    assert!(
        !out.contains("Final results") && !out.contains("Elo"),
        "{out}"
    );
    let r = records(&f);
    let by_rep = r
        .iter()
        .filter(|g| g.end == Some(GameEnd::Repetition))
        .count();
    assert!(by_rep > 0, "{out}");
    assert!(out.contains(&format!(
        "10 game(s) played, seed 1: {by_rep} by repetition"
    )));
    let out = autoplay(
        &[
            &walk,
            &walk,
            "-n",
            "10",
            "--repetition",
            "off",
            "--max-plies",
            "300",
        ],
        &f,
    );
    let r = records(&f);
    assert!(
        r.iter().all(|g| g.end != Some(GameEnd::Repetition)),
        "{out}"
    );
    assert!(r.iter().all(|g| g.settings.repetition == Repetition::Off));
    assert!(out.contains(": 0 by repetition"), "{out}");
    // The bundled Ur counts its draws by repetition in the summary line.
    let out = autoplay(&["ur-random", "ur-random", "-n", "2"], &tmp("ur-rep.jsonl"));
    assert!(out.contains("by repetition"), "{out}");
}

/// `dagaz games FILE` lists a file's variants sorted by slug, with their seats and AIs; two
/// variants with the same title get distinct slugs (and a warning), so both can be played.
#[test]
fn games_lists_a_files_variants_and_duplicate_titles_stay_selectable() {
    let out = dagaz()
        .args(["games", &outcome_fixture("peg-line.zrf")])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let slugs: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        slugs,
        ["peg-line", "peg-line-search", "peg-line-unsolvable"]
    );
    assert!(
        out.contains("alphabeta depth 3 (material 1)  [1 seat: You]"),
        "{out}"
    );
    let dir = tmp("dup");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("dup.zrf");
    std::fs::write(
        &f,
        std::fs::read_to_string(outcome_fixture("peg-line.zrf"))
            .unwrap()
            .replace("Peg line [unsolvable]", "Peg line [search]"),
    )
    .unwrap();
    let o = dagaz().arg("games").arg(&f).output().unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("2 variants titled \"Peg line [search]\": select them as peg-line-search, peg-line-search-2"),
        "{err}"
    );
    // The second one plays its own setup (the unsolvable one): every game fails.
    let spec = format!("{}:peg-line-search-2", f.display());
    let out = autoplay(&[&spec, "-n", "4"], &dir.join("dup.jsonl"));
    assert!(out.contains("A: 4 games: 0 solved, 4 failed"), "{out}");
}

/// The Axiom fixtures (dagaz's own Axiom-style games, run on dagaz's own Axiom layer).
fn axiom_fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/axiom")
        .join(rel)
}

#[test]
fn axiom_programs_play_reproducibly_with_any_thread_count() {
    let dir = axiom_fixture("race");
    let (a, b) = (tmp("ax1.jsonl"), tmp("ax2.jsonl"));
    let run = |jobs: &str, out: &PathBuf| {
        let o = dagaz()
            .current_dir(&dir)
            // Names without an extension resolve in the current folder, as in AutoPlay.
            .args(["autoplay", "Race-[first]", "Race-[random]", "-n", "12"])
            .args(["--seed", "5", "-j", jobs, "--games-out"])
            .arg(out)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(o).unwrap()
    };
    let text = run("1", &a);
    run("2", &b);
    assert_eq!(records(&a), records(&b));
    assert!(
        text.starts_with("Final results:\nPlayer 1 \"Race-[first]\", wins = "),
        "{text}"
    );
    assert!(text.contains("12 game(s) played"), "{text}");
    assert!(
        text.contains("program (the variant's own engines)"),
        "{text}"
    );
    let recs = records(&a);
    assert_eq!(recs.len(), 12);
    for r in &recs {
        assert!(r.error.is_none(), "{:?}", r.error);
        assert_eq!(r.end, Some(GameEnd::Goal), "every race ends by a goal");
        // Moves are noted as Axiom notes them: drops as `Player piece pos`.
        assert!(
            r.moves.iter().any(|m| m.starts_with("?Dice ")),
            "{:?}",
            r.moves
        );
    }
}

#[test]
fn a_round_robin_of_axiom_programs_plays_a_match_per_pairing() {
    let dir = axiom_fixture("race");
    let run = |jobs: &str, out: &PathBuf| {
        let o = dagaz()
            .current_dir(&dir)
            .args(["autoplay", "Race", "Race-[first]", "Race-[random]"])
            .args(["-n", "4", "-j", jobs, "--games-out"])
            .arg(out)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(o).unwrap()
    };
    let (a, b) = (tmp("axrr1.jsonl"), tmp("axrr2.jsonl"));
    let text = run("1", &a);
    assert_eq!(text, run("2", &b));
    assert_eq!(records(&a), records(&b));
    let r = records(&a);
    assert_eq!(r.len(), 12);
    assert!(r.iter().all(|g| g.error.is_none()));
    assert_eq!(
        r[4].settings.players,
        ["Race-[first]".to_owned(), "Race-[random]".to_owned()]
    );
    assert!(text.contains("round robin of 3 players"), "{text}");
    // A ZRF player among Axiom programs is refused.
    dagaz()
        .current_dir(&dir)
        .args(["autoplay", "Race-[first]", "Race-[random]", "ur-random"])
        .assert()
        .code(2);
}

#[test]
fn axiom_perft_equals_the_same_game_written_in_zrf() {
    // Capture.4th (Axiom) and capture.zrf (ZRF) are one game; two engines, one count.
    let count = |file: &str, depth: u32| -> String {
        let o = dagaz()
            .args(["perft", &axiom_fixture(file).to_string_lossy()])
            .args(["--depth", &depth.to_string(), "--json"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&o).unwrap();
        v["nodes"].to_string()
    };
    for (depth, expected) in [(1, "6"), (2, "36"), (3, "120"), (4, "310"), (5, "1044")] {
        assert_eq!(count("capture/Capture.4th", depth), expected);
        assert_eq!(count("capture/capture.zrf", depth), expected);
    }
    let o = dagaz()
        .args([
            "perft",
            &axiom_fixture("capture/Capture.4th").to_string_lossy(),
        ])
        .args(["--depth", "2", "--divide"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(o).unwrap();
    assert!(text.starts_with("Guard a1 - a2: 6\n"), "{text}");
}

#[test]
fn axiom_errors_are_reported_not_panics() {
    let dir = tmp("axiom-bad");
    std::fs::create_dir_all(&dir).unwrap();
    // A move word that loops forever, and one that uses an undefined word.
    let race = std::fs::read_to_string(axiom_fixture("race/Race.4th")).unwrap();
    std::fs::write(dir.join("Race.4th"), &race).unwrap();
    std::fs::write(
        dir.join("Spin.4th"),
        "LOAD Race.4th\n: OnIsGameOver BEGIN 0 UNTIL #UnknownScore ;\n",
    )
    .unwrap();
    std::fs::write(dir.join("Typo.4th"), "LOAD Race.4th\n: oops frobnicate ;\n").unwrap();
    let out = tmp("spin.jsonl");
    let o = dagaz()
        .current_dir(&dir)
        .args(["autoplay", "Spin", "Spin", "-n", "2", "--games-out"])
        .arg(&out)
        .assert()
        .get_output()
        .clone();
    let recs = records(&out);
    assert_eq!(recs.len(), 2, "{}", String::from_utf8_lossy(&o.stderr));
    for r in &recs {
        assert_eq!(r.result, GameResult::Error);
        let e = r.error.as_deref().unwrap();
        assert!(e.contains("DZ1007") && e.contains("OnIsGameOver"), "{e}");
    }
    let o = dagaz()
        .current_dir(&dir)
        .args(["autoplay", "Typo", "Typo", "-n", "2"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("Typo.4th:2:8") && err.contains("undefined word `frobnicate`"),
        "{err}"
    );
}

#[test]
fn a_zrf_with_an_axiom_engine_plays_through_its_variant_files() {
    let zrf = axiom_fixture("race/race.zrf");
    let zrf = zrf.to_string_lossy();
    let count = |args: &[&str]| -> String {
        let o = dagaz()
            .arg("perft")
            .args(args)
            .args(["--depth", "7", "--json"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&o).unwrap();
        v["nodes"].to_string()
    };
    let direct = count(&[&axiom_fixture("race/Race-[random].4th").to_string_lossy()]);
    assert_eq!(count(&[&zrf, "--variant", "race-random"]), direct);
    let out = tmp("zrf-axiom.jsonl");
    let text = autoplay(
        &[
            &format!("{zrf}:race-first"),
            &format!("{zrf}:race-random"),
            "-n",
            "4",
        ],
        &out,
    );
    assert!(text.contains("Player 1 \"Race-[first]\""), "{text}");
    assert_eq!(records(&out).len(), 4);
}

#[test]
fn games_lists_the_variant_files_of_an_axiom_folder() {
    let o = dagaz()
        .args(["games", &axiom_fixture("race").to_string_lossy(), "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&o).unwrap();
    let slugs: Vec<&str> = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["slug"].as_str().unwrap())
        .collect();
    assert_eq!(
        slugs,
        ["Race-[first]", "Race-[random]", "Race-[uct]", "Race"]
    );
    assert_eq!(
        v["variants"][0]["ai"],
        "White first, Black first, ?Dice random"
    );
    assert_eq!(
        v["variants"][0]["seats"],
        serde_json::json!(["White", "Black"])
    );
}

/// The records of a round robin, as the games file holds them (one JSON object a line).
fn record_lines(p: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_round_robin_plays_every_pairing_in_one_reproducible_pool() {
    let players = ["ur-random", "ur-simple", "ur-aggressive"];
    let args = [&players[..], &["-n", "4", "--seed", "3"]].concat();
    let (a, b) = (tmp("rr-j1.jsonl"), tmp("rr-j2.jsonl"));
    let out1 = autoplay(&[&args[..], &["-j", "1"]].concat(), &a);
    let out2 = autoplay(&[&args[..], &["-j", "2"]].concat(), &b);
    assert_eq!(records(&a), records(&b));
    assert_eq!(out1, out2);
    let r = records(&a);
    assert_eq!(r.len(), 12);
    // Game k of pairing p (of 3) has index (k / 2)·6 + 2p + k mod 2; A is the pairing's
    // first player; the seed derives from the run seed and the index; colours alternate.
    let pairs = [[0, 1], [0, 2], [1, 2]];
    for (i, g) in r.iter().enumerate() {
        assert_eq!(g.game_index, i as u64);
        let t = g.settings.tournament.as_ref().unwrap();
        let p = (i % 6) / 2;
        assert_eq!(t.pair, pairs[p]);
        assert_eq!(t.players, players);
        assert!(!t.gauntlet && !t.self_play);
        assert_eq!(
            g.settings.players,
            [players[pairs[p][0]], players[pairs[p][1]]]
        );
        assert_eq!(g.settings.games, 4);
        assert_eq!(g.game_seed, dagaz::tournament::game_seed(3, i as u64));
        assert_eq!(g.seats[0].player, if i % 2 == 0 { "A" } else { "B" });
        assert!(g.error.is_none());
    }
    // Per-pairing results in the usual format, then the players, the crosstable and the
    // ratings.
    assert_eq!(out1.matches("score of A:").count(), 3, "{out1}");
    assert!(out1.contains("A = ur-simple (\"Ur [simple]\"), B = ur-aggressive"));
    for x in [
        " 1 ur-random (\"Ur [random]\"): random",
        "round robin of 3 players, 4 games per pairing, seed 3: 12 games",
        "crosstable: the row's points against the column / games",
        "joint Elo (logistic model, maximum likelihood",
    ] {
        assert!(out1.contains(x), "{x}\n{out1}");
    }
    // `stats` shows the same per-pairing summaries and the same tables.
    let st = dagaz()
        .arg("stats")
        .arg(&a)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let st = String::from_utf8(st).unwrap();
    let tables = |s: &str| s[s.find("round robin of").unwrap()..].to_owned();
    assert_eq!(tables(&st), tables(&out1));
    assert_eq!(
        st[..st.find("\nround robin of").unwrap()],
        out1[..out1.find("\nplayers:").unwrap()]
    );
    // JSON: the per-pairing summaries and the tournament object.
    let json = dagaz()
        .arg("autoplay")
        .args(&args)
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(v["matches"].as_array().unwrap().len(), 3);
    assert_eq!(v["ai"][1], "greedy (progress 10)");
    let t = &v["tournament"];
    assert_eq!(t["schema_version"], 1);
    assert_eq!(t["format"], "round-robin");
    assert_eq!(t["games"], 12);
    assert!(t["crosstable"][0][0].is_null());
    let c01 = &t["crosstable"][0][1];
    let c10 = &t["crosstable"][1][0];
    assert_eq!(c01["games"], 4);
    assert_eq!(
        c01["points"].as_f64().unwrap() + c10["points"].as_f64().unwrap(),
        4.0
    );
    assert_eq!(c01["wins"], c10["losses"]);
    let rated = t["ratings"]["players"].as_array().unwrap();
    assert_eq!(rated.len(), 3);
    assert_eq!(rated[0]["rank"], 1);
    let stats_json = dagaz()
        .args(["stats", "--format", "json"])
        .arg(&a)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let sv: serde_json::Value = serde_json::from_slice(&stats_json).unwrap();
    assert_eq!(sv["tournaments"][0], *t);
    // CSV tables.
    let csv = |table: &str| {
        let o = dagaz()
            .args(["stats", "--format", "csv", "--table", table])
            .arg(&a)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(o).unwrap()
    };
    let cross = csv("crosstable");
    assert!(cross.starts_with("run_seed,player,opponent,games,wins,draws,losses,points,score\n"));
    assert_eq!(cross.lines().count(), 7);
    let ratings = csv("ratings");
    assert!(
        ratings
            .starts_with("run_seed,rank,player,status,elo,elo_low,elo_high,games,points,score\n")
    );
    assert_eq!(ratings.lines().count(), 4);
    // Two-player records have no tournament: the tables are empty, and their JSON has no
    // `tournaments`.
    let two = tmp("rr-two.jsonl");
    autoplay(&["ur-random", "ur-simple", "-n", "2"], &two);
    let o = dagaz()
        .args(["stats", "--format", "csv", "--table", "ratings"])
        .arg(&two)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(o).unwrap().lines().count(), 1);
    let o = dagaz()
        .args(["stats", "--format", "json"])
        .arg(&two)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&o).unwrap();
    assert!(v.get("tournaments").is_none());
    assert!(
        !String::from_utf8(records_text(&two))
            .unwrap()
            .contains("tournament")
    );
}

fn records_text(p: &std::path::Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

#[test]
fn an_interrupted_round_robin_resumes_to_the_same_records() {
    let args = ["ur-random", "ur-simple", "ur-aggressive", "-n", "4"];
    let full = tmp("rr-full.jsonl");
    let whole = autoplay(&args, &full);
    // An interrupted run: some games finished, one recorded as interrupted, the last
    // record cut short by a kill.
    let lines = record_lines(&full);
    let cut = tmp("rr-cut.jsonl");
    let mut text = String::new();
    for (i, l) in lines.iter().enumerate().take(7) {
        if i == 2 {
            continue;
        }
        if i == 4 {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["result"] = "interrupted".into();
            v["end"] = "interrupted".into();
            v["winner"] = serde_json::Value::Null;
            v["score_a"] = serde_json::Value::Null;
            text += &serde_json::to_string(&v).unwrap();
        } else {
            text += l;
        }
        text.push('\n');
    }
    text += &lines[9][..40];
    std::fs::write(&cut, &text).unwrap();
    let resumed = dagaz()
        .arg("autoplay")
        .args(args)
        .arg("--resume")
        .arg(&cut)
        .assert()
        .success()
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("dropped an incomplete last record"));
    assert_eq!(records(&cut), records(&full));
    assert_eq!(String::from_utf8(resumed.stdout).unwrap(), whole);
    // Extending: -n 2, then -n 4 with --resume, gives the run of -n 4: the games keep
    // their indices.
    let ext = tmp("rr-ext.jsonl");
    autoplay(
        &["ur-random", "ur-simple", "ur-aggressive", "-n", "2"],
        &ext,
    );
    assert_eq!(records(&ext).len(), 6);
    dagaz()
        .arg("autoplay")
        .args(args)
        .arg("--resume")
        .arg(&ext)
        .assert()
        .success();
    assert_eq!(records(&ext), records(&full));
    // Shards of a round robin merge into the whole run.
    let (s1, s2) = (tmp("rr-s1.jsonl"), tmp("rr-s2.jsonl"));
    autoplay(&[&args[..], &["--shard", "1/2"]].concat(), &s1);
    autoplay(&[&args[..], &["--shard", "2/2"]].concat(), &s2);
    assert_eq!(records(&s1).len() + records(&s2).len(), 12);
    let merged = tmp("rr-merged.jsonl");
    dagaz()
        .args(["stats", "merge"])
        .arg(&s1)
        .arg(&s2)
        .arg("-o")
        .arg(&merged)
        .assert()
        .success();
    assert_eq!(records(&merged), records(&full));
    // A missing shard is named.
    let e = dagaz()
        .args(["stats", "merge"])
        .arg(&s1)
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    assert!(
        String::from_utf8(e)
            .unwrap()
            .contains("of 12 games are in no shard")
    );
    // Resuming with other players, another seed or fewer games is refused.
    for other in [
        &["ur-random", "ur-simple", "ur-expectimax", "-n", "4"][..],
        &[
            "ur-random",
            "ur-simple",
            "ur-aggressive",
            "-n",
            "4",
            "--seed",
            "2",
        ][..],
        &["ur-random", "ur-simple", "ur-aggressive", "-n", "2"][..],
        &[
            "ur-random",
            "ur-simple",
            "ur-aggressive",
            "-n",
            "4",
            "--gauntlet",
        ][..],
        &["ur-random", "ur-simple", "-n", "4"][..],
    ] {
        let e = dagaz()
            .arg("autoplay")
            .args(other)
            .arg("--resume")
            .arg(&full)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        assert!(!String::from_utf8(e).unwrap().contains("panicked"));
    }
}

#[test]
fn gauntlets_self_play_and_bad_round_robins() {
    // A gauntlet: the first player against each of the others.
    let g = tmp("gauntlet.jsonl");
    let out = autoplay(
        &[
            "ur-simple",
            "ur-random",
            "ur-aggressive",
            "-n",
            "2",
            "--gauntlet",
        ],
        &g,
    );
    let r = records(&g);
    assert_eq!(r.len(), 4);
    assert!(r.iter().all(|x| x.settings.players[0] == "ur-simple"));
    assert!(
        out.contains("gauntlet of ur-simple against 2 players"),
        "{out}"
    );
    // Self-play: every player also meets itself (in a gauntlet, the first only); two
    // players with --self-play make a round robin of three pairings.
    let s = tmp("self.jsonl");
    autoplay(&["ur-random", "ur-simple", "-n", "2", "--self-play"], &s);
    let pairs: Vec<[usize; 2]> = records(&s)
        .iter()
        .map(|x| x.settings.tournament.as_ref().unwrap().pair)
        .collect();
    assert_eq!(pairs, [[0, 0], [0, 0], [0, 1], [0, 1], [1, 1], [1, 1]]);
    let s = tmp("self-gauntlet.jsonl");
    autoplay(
        &[
            "ur-random",
            "ur-simple",
            "ur-aggressive",
            "-n",
            "2",
            "--self-play",
            "--gauntlet",
        ],
        &s,
    );
    assert_eq!(records(&s).len(), 6);
    // With two players and no self-play, --gauntlet is the usual match: the same records.
    let (m1, m2) = (tmp("m1.jsonl"), tmp("m2.jsonl"));
    let o1 = autoplay(&["ur-random", "ur-simple", "-n", "2"], &m1);
    let o2 = autoplay(&["ur-random", "ur-simple", "-n", "2", "--gauntlet"], &m2);
    assert_eq!(records(&m1), records(&m2));
    assert_eq!(o1, o2);
    // Refused with exit 2 and a reason.
    for (bad, why) in [
        (&["ur-random", "ur-simple", "ur-random"][..], "given twice"),
        (
            &[
                "ur-random",
                "ur-simple",
                "ur-aggressive",
                "--expect-score",
                "A:0..1",
            ][..],
            "give two players",
        ),
        (
            &[
                "ur-random",
                "ur-simple",
                "ur-aggressive",
                "--sprt",
                "elo0=0 elo1=20",
            ][..],
            "give two players",
        ),
        (
            &["ur-random", "ur-simple", "tic-tac-toe"][..],
            "not variants of the same rules",
        ),
        (&["ur-random", "--gauntlet"][..], "two or more players"),
        (
            &[
                "ur-random",
                "ur-simple",
                "ur-aggressive",
                "-n",
                "2",
                "--shard",
                "4/4",
            ][..],
            "holds no game",
        ),
    ] {
        let e = dagaz()
            .arg("autoplay")
            .args(bad)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let e = String::from_utf8(e).unwrap();
        assert!(e.contains(why), "{bad:?}: {e}");
    }
}
