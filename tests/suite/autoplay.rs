//! `dagaz autoplay`, `games` and `stats` end to end on the bundled Royal Game of Ur:
//! reproducibility across thread counts, Axiom's output lines, shards and merging, resume,
//! gates, and clear errors for bad players.

use crate::common;

use std::path::PathBuf;

use common::{autoplay, dagaz, records, stats_csv, stdout_of};
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
    // Resuming with other settings is refused: `dagaz::autoplay::resume`'s tests.
    // Stats in three shapes; compare of a run with itself passes.
    dagaz().arg("stats").arg(&full).assert().success();
    assert!(
        stats_csv(&full, "seats").starts_with("schema_version,run_seed,player_a,player_b,seat")
    );
    dagaz()
        .args(["stats", "--format", "json"])
        .arg(&full)
        .assert()
        .success();
    // A run compared with itself: 12 games cannot show that the balance stayed within the
    // default tolerances (inconclusive, exit 3), but they can within wide ones.
    dagaz()
        .args(["stats", "compare"])
        .arg(&full)
        .arg(&merged)
        .assert()
        .code(3)
        .stdout(predicates::str::contains("verdict: inconclusive"));
    dagaz()
        .args(["stats", "compare"])
        .arg(&full)
        .arg(&merged)
        .args(["--first-player", "0.6", "--draw-rate", "0.6"])
        .args(["--mean-length", "0.5"])
        .assert()
        .success()
        .stdout(predicates::str::contains("verdict: pass"));
}

#[test]
fn gates_pass_fail_or_are_inconclusive() {
    let out = tmp("gate.jsonl");
    // Fail (exit 1): the interval lies below the range.
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
        .code(1)
        .stderr(predicates::str::contains(
            "check failed: --expect-score A:0.6..1.0",
        ));
    // Pass (exit 0): it lies inside (B's score is judged on the same interval, mirrored).
    dagaz()
        .args([
            "autoplay",
            "ur-aggressive",
            "ur-random",
            "-n",
            "40",
            "--expect-score",
            "A:0.6..1.0",
            "--expect-score",
            "B:0..0.4",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "gate A:0.6..1.0: A's score 1.000 (95% CI 0.883..1.000, pentanomial) lies inside",
        ));
    // Inconclusive (exit 3): the point estimate is inside the range, but the interval
    // reaches beyond it; a gate on the point estimate would pass this.
    let json = dagaz()
        .args([
            "autoplay",
            "ur-aggressive",
            "ur-random",
            "-n",
            "40",
            "--expect-score",
            "A:0.9..1.0",
            "--json",
        ])
        .assert()
        .code(3)
        .stderr(predicates::str::contains(
            "check inconclusive: --expect-score A:0.9..1.0",
        ))
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(v["verdict"], "inconclusive");
    assert_eq!(v["gates"][0]["interval"], "pentanomial");
    assert!(v["gates"][0]["estimate"].as_f64().unwrap() >= 0.9);
    // The draw-aware figures of the summary.
    let s = &v["summary"];
    assert_eq!(s["pentanomial"]["pairs"], 20);
    let counts: u64 = s["pentanomial"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(counts, 20);
    assert_eq!(s["trinomial"]["games"], 40);
    assert!(s["trinomial"]["los"].as_f64().unwrap() > 0.99);
    // With --no-swap there are no pairs: gates judge the trinomial interval.
    dagaz()
        .args([
            "autoplay",
            "ur-aggressive",
            "ur-random",
            "-n",
            "40",
            "--no-swap",
        ])
        .args(["--expect-score", "A:0.6..1.0"])
        .assert()
        .success()
        .stdout(predicates::str::contains("trinomial) lies inside"));
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
    assert_eq!(v["schema_version"], 3);
    assert_eq!(v["sprt"]["decision"], "h1");
    assert_eq!(v["sprt"]["unit"], "pair");
    assert_eq!(v["sprt"]["games"], 2 * v["sprt"]["pairs"].as_u64().unwrap());
    assert!(
        v["summary"]["games"].as_u64().unwrap() < 400,
        "SPRT stops early"
    );
    // A change that moves the balance: A always first instead of colour-swapped pairs.
    let (before, after) = (tmp("gate-before.jsonl"), tmp("gate-after.jsonl"));
    autoplay(&["ur-aggressive", "ur-random", "-n", "40"], &before);
    autoplay(
        &["ur-aggressive", "ur-random", "-n", "40", "--no-swap"],
        &after,
    );
    dagaz()
        .args(["stats", "compare"])
        .arg(&before)
        .arg(&after)
        .args(["--first-player", "0.05"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains("first-player score"))
        .stdout(predicates::str::contains("MOVED"));
    // Runs of other players are not compared.
    dagaz()
        .args(["stats", "compare"])
        .arg(&out)
        .arg(&after)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("different players"));
}

/// An SPRT resumed from its records counts the earlier games in index order: it reaches
/// the decision of the run played in one piece, at the same game, even when the first run
/// stopped with a gap, or had already decided.
#[test]
fn sprt_survives_resume() {
    let sprt = "elo0=200 elo1=300 gsprt";
    let run = |n: &str, extra: &[&str], out: &PathBuf, code: i32| -> String {
        let o = dagaz()
            .args([
                "autoplay",
                "ur-simple",
                "ur-random",
                "-n",
                n,
                "--sprt",
                sprt,
            ])
            .args(extra)
            .arg("--games-out")
            .arg(out)
            .assert()
            .code(code)
            .get_output()
            .stdout
            .clone();
        String::from_utf8(o).unwrap()
    };
    let full = tmp("sprt-full.jsonl");
    let whole = run("400", &[], &full, 0);
    assert!(whole.contains("H1 accepted"), "{whole}");
    let decided = records(&full);
    assert!(
        decided.len() < 400 && decided.len() % 2 == 0,
        "{}",
        decided.len()
    );
    // Interrupted after 40 games (undecided: exit 3), then resumed.
    let part = tmp("sprt-part.jsonl");
    let first = run("40", &[], &part, 3);
    assert!(first.contains("undecided"), "{first}");
    let resumed = dagaz()
        .args([
            "autoplay",
            "ur-simple",
            "ur-random",
            "-n",
            "400",
            "--sprt",
            sprt,
        ])
        .arg("--resume")
        .arg(&part)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(resumed).unwrap(), whole);
    assert_eq!(records(&part), decided);
    // A first run stopped with a gap (game 7 missing) and games past the decision point
    // recorded: the gap is played, the test decides where it did, and the later games are
    // dropped.
    let gap = tmp("sprt-gap.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(&full)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("\"game_index\":7,"))
        .map(str::to_owned)
        .collect();
    let mut extra = lines.clone();
    // Games past the decision, from a longer run without SPRT.
    let longer = tmp("sprt-longer.jsonl");
    let n = (decided.len() + 6).to_string();
    autoplay(&["ur-simple", "ur-random", "-n", &n], &longer);
    let longer_lines: Vec<String> = std::fs::read_to_string(&longer)
        .unwrap()
        .lines()
        .skip(decided.len())
        .map(str::to_owned)
        .collect();
    extra.extend(longer_lines);
    std::fs::write(&gap, extra.join("\n") + "\n").unwrap();
    let resumed = dagaz()
        .args([
            "autoplay",
            "ur-simple",
            "ur-random",
            "-n",
            "400",
            "--sprt",
            sprt,
        ])
        .arg("--resume")
        .arg(&gap)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(resumed).unwrap(), whole);
    assert_eq!(records(&gap), decided);
    // Resuming a decided run plays nothing and decides the same.
    let again = dagaz()
        .args([
            "autoplay",
            "ur-simple",
            "ur-random",
            "-n",
            "400",
            "--sprt",
            sprt,
        ])
        .arg("--resume")
        .arg(&full)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(again).unwrap(), whole);
    assert_eq!(records(&full), decided);
}

/// `--no-timing` leaves the wall-clock time out: the records and the per-game CSV of runs
/// with different thread counts are byte-identical.
#[test]
fn per_game_csv_is_byte_identical_without_timing() {
    let (a, b) = (tmp("nt1.jsonl"), tmp("nt2.jsonl"));
    let args = [
        "ur-simple",
        "ur-random",
        "-n",
        "10",
        "--seed",
        "5",
        "--no-timing",
    ];
    autoplay(&[&args[..], &["-j", "1"]].concat(), &a);
    autoplay(&[&args[..], &["-j", "2"]].concat(), &b);
    let (ra, rb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(ra, rb);
    // The setting `time_ms` (a per-move limit) is null; the game's own time is absent.
    let text = String::from_utf8(ra).unwrap();
    assert_eq!(
        text.matches("\"time_ms\"").count(),
        text.matches("\"time_ms\":null").count()
    );
    let csv = |f: &PathBuf, timing: bool| {
        let mut c = dagaz();
        c.args(["stats", "--format", "csv", "--table", "games"])
            .arg(f);
        if !timing {
            c.arg("--no-timing");
        }
        String::from_utf8(c.assert().success().get_output().stdout.clone()).unwrap()
    };
    let (ca, cb) = (csv(&a, false), csv(&b, false));
    assert_eq!(ca, cb);
    let rows: Vec<&str> = ca.lines().collect();
    assert_eq!(rows.len(), 11);
    assert_eq!(
        rows[0],
        "schema_version,run_seed,player_a,player_b,game_index,game_seed,pair,first_player,seats,result,winner,score_a,end,adjudicated,plies,captures_a,captures_b,nodes_a,nodes_b,error,search_cuts_a,search_cuts_b"
    );
    assert!(
        rows[2].starts_with("2,5,ur-simple,ur-random,1,"),
        "{}",
        rows[2]
    );
    assert!(rows[2].contains(",0,B,White=B;Black=A,"), "{}", rows[2]);
    // With timing (records written with it), the column is there.
    let timed = tmp("nt3.jsonl");
    autoplay(&["ur-simple", "ur-random", "-n", "2"], &timed);
    let c = csv(&timed, true);
    assert!(
        c.lines()
            .next()
            .unwrap()
            .ends_with(",nodes_b,time_ms,error,search_cuts_a,search_cuts_b"),
        "{c}"
    );
    // Every table starts with schema_version.
    for table in ["matches", "seats", "lengths", "solo", "games"] {
        assert!(
            stats_csv(&timed, table).starts_with("schema_version,"),
            "{table}"
        );
    }
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
    // Players of other rules: `dagaz::autoplay::plan`'s tests.
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

/// The AI description of a summary is the AI that played: the `@AI` of a player spec, after
/// `--depth`, in the text and in the JSON; an Axiom program's engines with the depth
/// `--depth` gives `$NegamaxMove`.
#[test]
fn summaries_describe_the_ai_of_the_spec_after_the_flags() {
    let run = |args: &[&str]| {
        let out = dagaz().args(["autoplay"]).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(&[
        "tic-tac-toe@random",
        "tic-tac-toe@alphabeta:depth=2,material=0",
        "-n",
        "4",
    ]);
    assert!(text.contains("A: random; B: alphabeta depth 2\n"), "{text}");
    assert!(
        text.contains("A = tic-tac-toe@random (\"Tic-Tac-Toe\"), B = tic-tac-toe@alphabeta:depth=2,material=0 (\"Tic-Tac-Toe\")"),
        "{text}"
    );
    let text = run(&[
        "tic-tac-toe@mcts:playouts=30",
        "tic-tac-toe@alphabeta:depth=2",
        "-n",
        "2",
        "--depth",
        "5",
        "--nodes",
        "900",
    ]);
    assert!(
        text.contains(
            "A: mcts playouts 30 nodes 900; B: alphabeta depth 5 nodes 900 (material 1)\n"
        ),
        "{text}"
    );
    let json = run(&[
        "ur-simple",
        "ur-expectimax@greedy:capture=3",
        "-n",
        "2",
        "--json",
        "--depth",
        "7",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["ai"],
        serde_json::json!(["greedy (progress 10)", "greedy (material 1, capture 3)"])
    );
    let race = axiom_fixture("race");
    let text = run(&[
        &race.join("Race.4th").to_string_lossy(),
        &race.join("Race-[random]").to_string_lossy(),
        "-n",
        "2",
        "--depth",
        "2",
    ]);
    assert!(
        text.contains(
            "A: program (negamax depth 2 within 1000000000 steps); B: program (random)\n"
        ),
        "{text}"
    );
    let text = run(&[
        &race.join("Race.4th@first").to_string_lossy(),
        &race.join("Race-[random].4th").to_string_lossy(),
        "-n",
        "2",
    ]);
    assert!(text.contains("A: first; B: program (random)\n"), "{text}");
}

/// Bad `@AI` parts are usage errors (exit 2) that say what is wrong, with a "did you mean".
#[test]
fn bad_ai_parts_are_explained() {
    let fails = |a: &str, b: &str, what: &str| {
        let out = dagaz()
            .args(["autoplay", a, b, "-n", "2"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{a} {b}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(what), "{a}: {err}");
    };
    fails(
        "checkers@alphabeat",
        "checkers",
        "unknown AI `alphabeat`, did you mean `alphabeta`?",
    );
    fails(
        "checkers@alphabeta:dept=4",
        "checkers",
        "unknown setting `dept`, did you mean `depth`?",
    );
    fails(
        "checkers@greedy:depth=4",
        "checkers",
        "greedy does not use `depth`",
    );
    fails(
        "checkers@mcts:playouts=many",
        "checkers",
        "`many` is not a positive integer",
    );
    fails("checkers@", "checkers", "nothing after `@`");
    fails("checkers@program", "checkers", "without an Axiom engine");
    fails(
        "checkers",
        "checkers@random:depth=1",
        "random takes no settings",
    );
    fails("ur-randm@random", "ur", "did you mean: ur-random");
    // dagaz's searching AIs play Axiom programs too (against the program's own engines).
    let race = axiom_fixture("race");
    let out = dagaz()
        .arg("autoplay")
        .arg(race.join("Race-[random].4th@mcts:playouts=40"))
        .arg(race.join("Race-[random].4th"))
        .args(["-n", "4", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["summary"]["errors"], 0, "{v}");
    assert!(v["ai"][0].as_str().unwrap().starts_with("mcts"), "{v}");
}

/// One resolver for every subcommand: bundled games by name, bundled variants by slug,
/// `FILE:VARIANT`, Axiom files without `.4th`; near names suggested everywhere; `@AI` only
/// where an AI plays.
#[test]
fn every_subcommand_resolves_game_names_alike() {
    let ok = |args: &[&str]| {
        let out = dagaz()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let usage = |args: &[&str], what: &str| {
        let out = dagaz()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(what), "{args:?}: {err}");
    };
    assert_eq!(ok(&["perft", "tic-tac-toe", "--depth", "2"]).0, "72\n");
    assert_eq!(ok(&["perft", "kiwipete", "--depth", "1"]).0, "48\n");
    assert_eq!(ok(&["perft", "chess:kiwipete", "--depth", "1"]).0, "48\n");
    assert_eq!(
        ok(&["perft", "games/chess.zrf:position-3", "--depth", "1"]).0,
        "14\n"
    );
    assert_eq!(
        ok(&[
            "perft",
            "tests/fixtures/axiom/capture/Capture",
            "--depth",
            "1"
        ])
        .0,
        "6\n"
    );
    usage(&["perft", "chesss", "--depth", "1"], "did you mean: chess?");
    usage(
        &["perft", "games/chesss.zrf", "--depth", "1"],
        "did you mean: games/chess.zrf",
    );
    usage(
        &["perft", "chess:kiwipet", "--depth", "1"],
        "error[DZ0212]: `chess` has no variant `kiwipet`",
    );
    usage(
        &["perft", "chess:kiwipet", "--depth", "1"],
        "did you mean: kiwipete?",
    );
    usage(
        &["perft", "kiwipete@random", "--depth", "1"],
        "perft plays no AI",
    );
    usage(
        &[
            "perft",
            "kiwipete",
            "--variant",
            "position-3",
            "--depth",
            "1",
        ],
        "give one",
    );
    let (zrf, _) = ok(&["convert", "kiwipete", "--stage", "expanded", "--to", "zrf"]);
    assert!(zrf.starts_with("(game\n  (title \"Kiwipete\")"), "{zrf}");
    usage(
        &["convert", "tic-tac-to", "--to", "zrf"],
        "did you mean: tic-tac-toe",
    );
    ok(&["lint", "kiwipete", "--format", "concise"]);
    usage(&["lint", "chesss"], "did you mean: chess?");
    usage(&["lint", "chess@random"], "lint plays no AI");
    let (list, _) = ok(&["games", "kiwipete"]);
    assert_eq!(list.lines().count(), 2, "{list}");
    assert!(list.contains("kiwipete "), "{list}");
    let (list, _) = ok(&["games", "checkers@alphabeta:depth=4,material=1"]);
    assert!(
        list.contains("\"Checkers\"                   alphabeta depth 4 (material 1)"),
        "{list}"
    );
    usage(&["games", "checkerz"], "did you mean: checkers?");
}

/// `dagaz games FILE` on a published file with two variants titled "Silverman's Chess":
/// sorted by slug, the second one as `silverman-s-chess-2`, a warning on stderr; each plays
/// its own rules (their perft counts differ), and a title shared by both selects the first
/// with a warning.
#[test]
fn duplicate_titles_of_a_corpus_file_get_distinct_slugs() {
    let f = common::corpus_dir().join("chess/mini-chess.zrf");
    let f = f.to_string_lossy().into_owned();
    let out = dagaz().args(["games", &f]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let slugs: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let mut sorted = slugs.clone();
    sorted.sort_unstable();
    assert_eq!(slugs, sorted);
    assert!(slugs.contains(&"silverman-s-chess") && slugs.contains(&"silverman-s-chess-2"));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("has 2 variants titled \"Silverman's Chess\": select them as silverman-s-chess, silverman-s-chess-2"),
        "{err}"
    );
    let json = dagaz().args(["games", &f, "--json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let listed: Vec<&str> = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["slug"].as_str().unwrap())
        .collect();
    assert_eq!(listed, slugs);
    let perft = |spec: &str| {
        let o = dagaz()
            .args(["perft", spec, "--depth", "2"])
            .output()
            .unwrap();
        assert!(o.status.success());
        (
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        )
    };
    let first = perft(&format!("{f}:silverman-s-chess"));
    let second = perft(&format!("{f}:silverman-s-chess-2"));
    assert_ne!(first.0, second.0, "the two variants have different rules");
    let titled = perft(&format!("{f}:Silverman's Chess"));
    assert_eq!(titled.0, first.0);
    assert!(
        titled.1.contains("playing the first, `silverman-s-chess`"),
        "{}",
        titled.1
    );
    let spec = format!("{f}:silverman-s-chess-2@first");
    let out = dagaz()
        .args([
            "autoplay",
            &spec,
            &format!("{f}:silverman-s-chess-2"),
            "-n",
            "2",
            "--max-plies",
            "40",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("A: first; B: random"));
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
    let csv = stats_csv(&tmp("failed.jsonl"), "solo");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(
        rows[0].starts_with(
            "schema_version,run_seed,player_a,player_b,player,games,solved,lost,stuck"
        )
    );
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
        .stderr(predicates::str::contains("B:0.95..1.0: B's solve rate"));
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
        stdout_of(
            dagaz()
                .current_dir(&dir)
                // Names without an extension resolve in the current folder, as in AutoPlay.
                .args(["autoplay", "Race-[first]", "Race-[random]", "-n", "12"])
                .args(["--seed", "5", "-j", jobs, "--games-out"])
                .arg(out),
        )
    };
    let text = run("1", &a);
    run("2", &b);
    assert_eq!(records(&a), records(&b));
    // The move-word cache changes nothing but the speed.
    let c = tmp("ax3.jsonl");
    dagaz()
        .current_dir(&dir)
        .args(["autoplay", "Race-[first]", "Race-[random]", "-n", "12"])
        .args([
            "--seed",
            "5",
            "-j",
            "1",
            "--move-cache",
            "off",
            "--games-out",
        ])
        .arg(&c)
        .assert()
        .success();
    assert_eq!(records(&a), records(&c));
    assert!(
        text.starts_with("Final results:\nPlayer 1 \"Race-[first]\", wins = "),
        "{text}"
    );
    assert!(text.contains("12 game(s) played"), "{text}");
    // Each side's engines as they play.
    assert!(
        text.contains("A: program (first); B: program (random)\n"),
        "{text}"
    );
    let recs = records(&a);
    assert_eq!(recs.len(), 12);
    for r in &recs {
        assert!(r.error.is_none(), "{:?}", r.error);
        // Axiom's AutoPlay never stops a game: the default cap is far above ZRF's 2000.
        assert_eq!(r.settings.max_plies, 20_000);
        assert_eq!(r.end, Some(GameEnd::Goal), "every race ends by a goal");
        // Moves are noted as Axiom notes them: drops as `Player piece pos`.
        assert!(
            r.moves.iter().any(|m| m.starts_with("?Dice ")),
            "{:?}",
            r.moves
        );
    }
}

/// `--search-steps` bounds `$NegamaxMove` too: its searches are cut, counted per player in
/// the records and the summary, and the budget is part of the run's settings (and of the
/// engines' description).
#[test]
fn axiom_searches_are_cut_by_the_step_budget_and_counted() {
    let dir = axiom_fixture("capture");
    let out = tmp("ax-cuts.jsonl");
    let run = |json: bool| {
        let mut cmd = dagaz();
        cmd.current_dir(&dir)
            .args(["autoplay", "Capture", "Capture", "-n", "2", "--depth", "4"])
            .args(["--search-steps", "20000", "--seed", "3", "--games-out"])
            .arg(&out);
        if json {
            cmd.arg("--json");
        }
        String::from_utf8(cmd.assert().success().get_output().stdout.clone()).unwrap()
    };
    let v: serde_json::Value = serde_json::from_str(&run(true)).unwrap();
    assert_eq!(
        v["ai"][0], "program (negamax depth 4 within 20000 steps)",
        "{v}"
    );
    let cuts = &v["summary"]["search_cuts"];
    let (a, b) = (cuts[0].as_u64().unwrap(), cuts[1].as_u64().unwrap());
    assert!(a > 0 && b > 0, "{cuts}");
    let recs = records(&out);
    assert_eq!(
        recs.iter()
            .map(|r| u64::from(r.search_cuts[0]))
            .sum::<u64>(),
        a
    );
    assert!(recs.iter().all(|r| r.settings.search_steps == Some(20_000)));
    // The CSV tables carry the counts in their last columns.
    let header_ends_with_cuts = |table: &str| {
        let header = table.lines().next().unwrap_or_default();
        assert!(header.ends_with(",search_cuts_a,search_cuts_b"), "{table}");
    };
    let m = stats_csv(&out, "matches");
    header_ends_with_cuts(&m);
    assert!(
        m.lines().nth(1).unwrap().ends_with(&format!(",{a},{b}")),
        "{m}"
    );
    let g = stats_csv(&out, "games");
    header_ends_with_cuts(&g);
    let per_game: u64 = g
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(per_game, a, "{g}");
    let text = run(false);
    assert!(
        text.contains(&format!(
            "searches cut short by the step budget (--search-steps): {a} move(s) of A, {b} of B"
        )),
        "{text}"
    );
    // Limits that do not reach the program's engines say so.
    let o = dagaz()
        .current_dir(&dir)
        .args([
            "autoplay",
            "Capture",
            "Capture",
            "-n",
            "2",
            "--time-ms",
            "9",
        ])
        .assert()
        .success()
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(o).unwrap();
    assert!(
        err.contains("warning: --time-ms does not limit an Axiom program's own engines"),
        "{err}"
    );
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
    assert!(r.iter().all(|g| g.settings.max_plies == 20_000));
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
        "LOAD race.4TH\n: OnIsGameOver BEGIN 0 UNTIL #UnknownScore ;\n",
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
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(recs.len(), 2, "{err}");
    // The first failure's message is on stderr, not only in the records.
    assert!(
        err.contains("error in game 1: ") && err.contains("DZ1007"),
        "{err}"
    );
    for r in &recs {
        assert_eq!(r.result, GameResult::Error);
        let e = r.error.as_deref().unwrap();
        assert!(e.contains("DZ1007") && e.contains("OnIsGameOver"), "{e}");
    }
    let o = dagaz()
        .current_dir(&dir)
        .args(["autoplay", "Typo", "Typo", "-n", "2"])
        .assert()
        // A program that does not load is a problem found (exit 1), not a usage error.
        .code(1)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("Typo.4th:2:8") && err.contains("undefined word `frobnicate`"),
        "{err}"
    );
    // `games` lists the variants that load and says why the others do not.
    let o = dagaz()
        .args(["games"])
        .arg(&dir)
        .assert()
        .success()
        .get_output()
        .clone();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(out.contains("Spin") && !out.contains("Typo"), "{out}");
    assert!(
        err.contains("warning: `Typo.4th` does not load: Typo.4th:2:8"),
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
    // Its matches: `dagaz::autoplay::plan`'s tests.
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

#[test]
fn openings_start_both_games_of_a_pair_alike_and_are_reported_per_line() {
    let book = tmp("ttt.book");
    std::fs::write(
        &book,
        "# two openings\nX Man b2\nx man A1 ;  O Man c3   # corner, corner\n",
    )
    .unwrap();
    let (a, b) = (tmp("open-j1.jsonl"), tmp("open-j2.jsonl"));
    let book_arg = book.to_str().unwrap();
    let args = [
        "tic-tac-toe",
        "tic-tac-toe",
        "-n",
        "8",
        "--openings",
        book_arg,
        "--random-plies",
        "2",
    ];
    let out = autoplay(&[&args[..], &["-j", "1"]].concat(), &a);
    autoplay(&[&args[..], &["-j", "2"]].concat(), &b);
    assert_eq!(records(&a), records(&b));
    let r = records(&a);
    for pair in r.chunks(2) {
        let o = pair[0].opening.clone().unwrap();
        assert_eq!(o, pair[1].opening.clone().unwrap());
        let n = (o.book_plies + o.random_plies) as usize;
        assert_eq!(
            pair[0].moves[..n],
            pair[1].moves[..n],
            "pair shares its opening"
        );
        assert_eq!(o.random_plies, 2);
        assert_eq!(pair[0].settings.random_plies, 2);
    }
    // Pair p plays line p mod 2, and the book's moves come first in the record.
    assert_eq!(r[0].moves[0], "X Man b2");
    assert_eq!(r[2].moves[..2], ["X Man a1", "O Man c3"]);
    assert_eq!(r[2].opening.as_ref().unwrap().line, Some(3));
    assert!(out.contains("per opening (2)"), "{out}");
    let csv = dagaz()
        .args([
            "stats",
            a.to_str().unwrap(),
            "--format",
            "csv",
            "--table",
            "openings",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.contains(",2,X Man b2,4,"), "{csv}");
    let page = tmp("open.html");
    dagaz()
        .args([
            "stats",
            a.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
        ])
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("line 2: X Man b2"),
        "the page lists the openings"
    );
    // Resuming with another book is refused.
    std::fs::write(&book, "X Man a3\n").unwrap();
    let o = dagaz()
        .args([
            "autoplay",
            "tic-tac-toe",
            "tic-tac-toe",
            "-n",
            "10",
            "--openings",
            book_arg,
        ])
        .args(["--random-plies", "2", "--resume", a.to_str().unwrap()])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&o).contains("setting `openings`"));
}

#[test]
fn bad_openings_are_refused_with_their_line() {
    let book = tmp("bad.book");
    for (text, want) in [
        (
            "X Man b2; O Man b2\n",
            "bad.book:1: `O Man b2` is not a legal move after 1 ply(s); legal: O Man a1",
        ),
        ("\n# none\n", "no opening"),
        ("Man a1;; Man b1\n", "bad.book:1: empty move"),
        (
            "variant: chess:kiwipete\n",
            "not a start position of `tic-tac-toe`",
        ),
    ] {
        std::fs::write(&book, text).unwrap();
        let o = dagaz()
            .args([
                "autoplay",
                "tic-tac-toe",
                "tic-tac-toe",
                "-n",
                "2",
                "--openings",
            ])
            .arg(&book)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let e = String::from_utf8_lossy(&o);
        assert!(e.contains(want), "{text:?}: {e}");
    }
    // Random plies must leave room under the ply cap (no endless opening).
    let o = dagaz()
        .args(["autoplay", "tic-tac-toe", "tic-tac-toe", "-n", "2"])
        .args(["--random-plies", "4000000000", "--max-plies", "100"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&o).contains("leaves no ply to play"));
}

#[test]
fn setup_variants_give_start_positions() {
    let book = tmp("chess.book");
    std::fs::write(
        &book,
        "variant: chess:kiwipete\nvariant: position-3; King a5 - a6\n",
    )
    .unwrap();
    let out = tmp("chess-open.jsonl");
    autoplay(
        &[
            "chess",
            "chess",
            "-n",
            "4",
            "--max-plies",
            "6",
            "--openings",
            book.to_str().unwrap(),
        ],
        &out,
    );
    let r = records(&out);
    assert_eq!(r[0].opening.as_ref().unwrap().book_plies, 0);
    assert_eq!(r[2].moves[0], "King a5 - a6 @ a6 0 0");
    assert!(r.iter().all(|g| g.error.is_none()));
}

#[test]
fn the_referee_adjudicates_decided_games() {
    let (capped, judged) = (tmp("capped.jsonl"), tmp("judged.jsonl"));
    let base = ["ur-simple", "ur-random", "-n", "12", "--max-plies", "200"];
    autoplay(&base, &capped);
    let out = autoplay(
        &[
            &base[..],
            &["--adjudicate", "win=10:30", "--adjudicate", "eval=A"],
        ]
        .concat(),
        &judged,
    );
    let (c, j) = (records(&capped), records(&judged));
    let capped_draws = c.iter().filter(|g| g.end == Some(GameEnd::PlyCap)).count();
    let adjudicated: Vec<_> = j
        .iter()
        .filter(|g| g.end == Some(GameEnd::Adjudicated))
        .collect();
    assert!(capped_draws > 0, "the cap must matter for this test");
    assert!(!adjudicated.is_empty(), "{out}");
    assert!(
        adjudicated
            .iter()
            .all(|g| g.result == GameResult::Win && g.plies < 200)
    );
    assert_eq!(
        j[0].settings.adjudicate.as_deref(),
        Some("win=10:30,eval=A")
    );
    assert!(out.contains("wins adjudicated by the referee"), "{out}");
    // Before the referee stops it, a game is the same as without a referee.
    for (x, y) in c.iter().zip(&j) {
        let n = x.moves.len().min(y.moves.len());
        assert_eq!(x.moves[..n], y.moves[..n]);
    }
    // At the cap the leader wins.
    let at_cap = tmp("at-cap.jsonl");
    autoplay(&[&base[..], &["--adjudicate", "cap=0"]].concat(), &at_cap);
    let k = records(&at_cap);
    assert!(
        k.iter()
            .filter(|g| g.end == Some(GameEnd::Adjudicated))
            .count()
            > capped_draws / 2
    );
    assert!(
        k.iter()
            .all(|g| g.end != Some(GameEnd::Adjudicated) || g.plies == 200)
    );
    for bad in ["win=10", "eval=C", "lose=1:2", "draw=1:0", "cap=1:2"] {
        dagaz()
            .args([
                "autoplay",
                "ur-simple",
                "ur-random",
                "-n",
                "2",
                "--adjudicate",
                bad,
            ])
            .assert()
            .code(2);
    }
}

/// The records of three bundled Ur players meeting in three matches (one file per match),
/// played once for the HTML report tests.
fn three_player_records() -> &'static [PathBuf] {
    static FILES: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        [
            ["ur-random", "ur-simple"],
            ["ur-simple", "ur-aggressive"],
            ["ur-aggressive", "ur-random"],
        ]
        .iter()
        .map(|[a, b]| {
            let f = tmp(&format!("html-{a}-{b}.jsonl"));
            autoplay(&[a, b, "-n", "6"], &f);
            f
        })
        .collect()
    })
}

/// What the tests read of an HTML report, parsed as XML (the page must be well-formed).
#[derive(Default)]
struct HtmlPage {
    /// Element names, in document order.
    elements: Vec<String>,
    /// Every attribute as (element, name, value), values unescaped.
    attributes: Vec<(String, String, String)>,
    /// Text runs between tags, character references resolved (style sheets left out).
    texts: Vec<String>,
    /// `<svg>` elements, and those whose first child element is a `<title>`.
    svgs: usize,
    titled_svgs: usize,
}

impl HtmlPage {
    fn parse(page: &str) -> HtmlPage {
        use quick_xml::events::Event;
        let mut reader = quick_xml::Reader::from_str(page);
        reader.config_mut().check_end_names = true;
        let mut p = HtmlPage::default();
        let mut stack: Vec<String> = vec![];
        let mut text = String::new();
        // Whether the element just opened is an <svg> with no child element yet.
        let mut fresh_svg = false;
        let mut doctype = false;
        loop {
            let ev = reader
                .read_event()
                .unwrap_or_else(|e| panic!("not well-formed at {}: {e}", reader.buffer_position()));
            let flush = |text: &mut String, p: &mut HtmlPage| {
                if !text.trim().is_empty() {
                    p.texts.push(text.trim().to_owned());
                }
                text.clear();
            };
            let start = matches!(ev, Event::Start(_));
            match &ev {
                Event::DocType(d) => {
                    assert_eq!(d.decode().unwrap().trim(), "html");
                    doctype = true;
                }
                Event::Start(e) | Event::Empty(e) => {
                    flush(&mut text, &mut p);
                    let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                    if fresh_svg && name == "title" {
                        p.titled_svgs += 1;
                    }
                    fresh_svg = name == "svg" && start;
                    if name == "svg" {
                        p.svgs += 1;
                    }
                    for a in e.attributes() {
                        let a = a.unwrap();
                        p.attributes.push((
                            name.clone(),
                            String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                                .unwrap()
                                .into_owned(),
                        ));
                    }
                    p.elements.push(name.clone());
                    if start {
                        stack.push(name);
                    }
                }
                Event::End(_) => {
                    flush(&mut text, &mut p);
                    fresh_svg = false;
                    stack.pop();
                }
                Event::Text(t) if stack.last().is_none_or(|s| s != "style") => {
                    text += &t.decode().unwrap();
                }
                Event::GeneralRef(r) => {
                    let c = if r.is_char_ref() {
                        r.resolve_char_ref().unwrap().unwrap().to_string()
                    } else {
                        match r.decode().unwrap().as_ref() {
                            "lt" => "<",
                            "gt" => ">",
                            "amp" => "&",
                            "quot" => "\"",
                            "apos" => "'",
                            other => panic!("entity &{other}; is not XML"),
                        }
                        .to_owned()
                    };
                    text += &c;
                }
                Event::Eof => break,
                _ => {}
            }
        }
        assert!(doctype, "no <!DOCTYPE html>");
        assert!(stack.is_empty(), "unclosed elements: {stack:?}");
        p
    }

    fn attr(&self, element: &str, name: &str) -> Vec<&str> {
        self.attributes
            .iter()
            .filter(|(e, n, _)| (element.is_empty() || e == element) && n == name)
            .map(|(_, _, v)| v.as_str())
            .collect()
    }

    fn has_text(&self, t: &str) -> bool {
        self.texts.iter().any(|x| x == t)
    }

    fn contains_text(&self, t: &str) -> bool {
        self.texts.iter().any(|x| x.contains(t))
    }
}

/// Renders `dagaz stats FILES --html OUT` and returns the page, checking that stdout still
/// carries the text summary.
fn html_report(files: &[PathBuf], out: &std::path::Path) -> String {
    let o = dagaz()
        .arg("stats")
        .args(files)
        .arg("--html")
        .arg(out)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(o).unwrap().contains("score of A"));
    std::fs::read_to_string(out).unwrap()
}

/// Checks what every report page must be: one language, a title, no script and nothing
/// loaded, headed tables and titled charts.
fn check_page_basics(page: &str, p: &HtmlPage) {
    assert_eq!(p.elements.first().map(String::as_str), Some("html"));
    assert_eq!(p.attr("html", "lang"), ["en"]);
    assert!(p.elements.iter().any(|e| e == "title"));
    for banned in ["script", "link", "img", "iframe", "object", "embed", "base"] {
        assert!(
            !p.elements.iter().any(|e| e == banned),
            "<{banned}> in the page"
        );
    }
    for (e, name, value) in &p.attributes {
        if name == "href" {
            assert!(
                value.starts_with('#'),
                "<{e} href={value}>: only in-page links"
            );
        }
        assert!(
            !(name == "src" || name.starts_with("on")),
            "<{e} {name}={value}>: nothing loaded, no handlers"
        );
    }
    assert!(!page.contains("http://") && !page.contains("https://"));
    assert!(!page.contains("url(") && !page.contains("@import"));
    assert!(
        p.attr("meta", "content")
            .iter()
            .any(|c| c.starts_with("default-src 'none'")),
        "a Content-Security-Policy that forbids loads"
    );
    assert!(
        p.svgs > 0 && p.svgs == p.titled_svgs,
        "every chart has a <title>"
    );
    assert!(
        p.attr("th", "scope").len() >= 8,
        "table headers have a scope"
    );
}

/// `+12`, `−280`, `0`: an Elo difference as the page prints it.
fn elo_text(v: &serde_json::Value, inf: &str) -> String {
    match v.as_f64() {
        None => inf.to_owned(),
        Some(x) if x.round() == 0.0 => "0".to_owned(),
        Some(x) => format!("{:+.0}", x.round()).replace('-', "\u{2212}"),
    }
}

#[test]
fn stats_writes_a_self_contained_html_report() {
    // One match: its numbers, taken from the JSON summary, are on the page.
    let one = tmp("html-one.jsonl");
    autoplay(&["ur-random", "ur-simple", "-n", "6"], &one);
    let page = html_report(std::slice::from_ref(&one), &tmp("one.html"));
    let p = HtmlPage::parse(&page);
    check_page_basics(&page, &p);
    let ids = p.attr("", "id");
    for section in ["matches", "pairings", "first-player", "lengths", "reading"] {
        assert!(ids.contains(&section), "section {section}: {ids:?}");
    }
    for absent in ["crosstable", "ratings", "openings", "solitaires"] {
        assert!(!ids.contains(&absent), "{absent}");
    }
    let json = dagaz()
        .arg("stats")
        .arg(&one)
        .args(["--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let m = &v["matches"][0];
    let pct = |x: &serde_json::Value| format!("{:.1}%", 100.0 * x.as_f64().unwrap());
    let range = |s: &serde_json::Value| {
        format!(
            "{:.1}\u{2013}{:.1}%",
            100.0 * s["low"].as_f64().unwrap(),
            100.0 * s["high"].as_f64().unwrap()
        )
    };
    assert!(p.has_text(&m["run_seed"].to_string()));
    assert!(p.has_text("6"), "games");
    assert!(p.has_text(&format!(
        "{} \u{b7} {} \u{b7} {}",
        m["wins_a"], m["draws"], m["wins_b"]
    )));
    assert!(p.has_text(&pct(&m["score_a"]["score"])), "{page}");
    assert!(p.has_text(&format!("95% CI {}", range(&m["score_a"]))));
    let inf = if m["score_a"]["score"].as_f64() == Some(1.0) {
        "+\u{221e}"
    } else {
        "\u{2212}\u{221e}"
    };
    assert!(p.has_text(&elo_text(&m["elo"]["elo"], inf)));
    assert!(p.has_text(&format!(
        "{} ({})",
        pct(&m["first_player"]["score"]),
        range(&m["first_player"])
    )));
    // One bar per bucket of the histogram, each titled with its count.
    for b in m["lengths"].as_array().unwrap() {
        let (from, to, games) = (
            b["from"].as_u64().unwrap(),
            b["to"].as_u64().unwrap(),
            b["games"].as_u64().unwrap(),
        );
        let tip = format!(
            "{from}\u{2013}{} plies: {games} game{}",
            to - 1,
            if games == 1 { "" } else { "s" }
        );
        assert!(p.has_text(&tip), "{tip}");
    }
    assert!(p.contains_text(&format!("mean {:.1}", m["mean_plies"].as_f64().unwrap())));

    // A report that cannot be written is an I/O error (exit 2), with no partial file.
    let nowhere = tmp("no-such-folder").join("report.html");
    dagaz()
        .arg("stats")
        .arg(&one)
        .arg("--html")
        .arg(&nowhere)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot write"));
    assert!(!nowhere.exists());

    // Names and titles are user input: a title with markup stays text.
    let text = std::fs::read_to_string(&one).unwrap();
    let hostile = tmp("html-hostile.jsonl");
    std::fs::write(
        &hostile,
        text.replace(
            "\"Ur [random]\"",
            r#""Ur <script>alert(1)</script> & \"co\"""#,
        )
        .replace("\"ur-random\"", "\"ur-<i>random</i>\""),
    )
    .unwrap();
    let page = html_report(&[hostile], &tmp("hostile.html"));
    let p = HtmlPage::parse(&page);
    check_page_basics(&page, &p);
    assert!(p.contains_text(r#"Ur <script>alert(1)</script> & "co""#));
    assert!(p.has_text("ur-<i>random</i>"));
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;"));
    assert!(!p.elements.iter().any(|e| e == "i"));

    // Three players over three matches: a crosstable, whose cells agree with the matches.
    let files = three_player_records();
    let page = html_report(files, &tmp("three.html"));
    let p = HtmlPage::parse(&page);
    check_page_basics(&page, &p);
    assert!(p.attr("", "id").contains(&"crosstable"));
    let tips = p.attr("td", "title");
    assert_eq!(tips.len(), 6, "one cell per ordered pair: {tips:?}");
    for f in files {
        let json = dagaz()
            .arg("stats")
            .arg(f)
            .args(["--format", "json"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let m = &v["matches"][0];
        let name = |k: usize| m["players"][k].as_str().unwrap().to_owned();
        let plural = |k: &serde_json::Value, one: &str, many: &str| {
            format!("{k} {}", if k.as_u64() == Some(1) { one } else { many })
        };
        let of_a = format!(
            "{} against {}: {}, {}, {}",
            name(0),
            name(1),
            plural(&m["wins_a"], "win", "wins"),
            plural(&m["draws"], "draw", "draws"),
            plural(&m["wins_b"], "loss", "losses")
        );
        let of_b = format!(
            "{} against {}: {}, {}, {}",
            name(1),
            name(0),
            plural(&m["wins_b"], "win", "wins"),
            plural(&m["draws"], "draw", "draws"),
            plural(&m["wins_a"], "loss", "losses")
        );
        for want in [of_a, of_b] {
            assert!(
                tips.iter().any(|t| t.starts_with(&want)),
                "{want}: {tips:?}"
            );
        }
    }
}

/// A Chromium (or Chrome) to render pages with: `DAGAZ_CHROMIUM`, else the first of the
/// usual names on PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DAGAZ_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|n| std::env::split_paths(&path).map(move |d| d.join(n)))
    .find(|p| p.is_file())
}

/// Renders `page` in headless Chromium into the screenshot `png`; returns the console
/// messages Chromium logged (each line of its log that carries `CONSOLE`).
fn render_in_chromium(
    chromium: &std::path::Path,
    page: &std::path::Path,
    png: &std::path::Path,
) -> Vec<String> {
    let profile = tmp(&format!(
        "chromium-profile-{}",
        page.file_stem().unwrap().to_string_lossy()
    ));
    let log = tmp(&format!(
        "{}.log",
        page.file_stem().unwrap().to_string_lossy()
    ));
    let _ = std::fs::remove_file(png);
    let mut child = std::process::Command::new(chromium)
        .args([
            "--headless",
            // As root (CI) Chromium's sandbox cannot start.
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            // No network here: nothing in the background that would try.
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1280,2600",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let _ = std::fs::remove_dir_all(&profile);
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            assert!(status.success(), "chromium failed ({status}):\n{text}");
            return text
                .lines()
                .filter(|l| l.contains("CONSOLE"))
                .map(str::to_owned)
                .collect();
        }
        if start.elapsed() > std::time::Duration::from_secs(300) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 300 s (a hang guard)");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Width and height of a PNG, from its IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && &png[12..16] == b"IHDR",
        "not a PNG"
    );
    let be = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

/// The report rendered in headless Chromium: no console message (the page has no script,
/// and its Content-Security-Policy turns any load into one), and a screenshot with content,
/// kept as target/html-report.png. Skipped with a message when no Chromium is installed,
/// unless `DAGAZ_REQUIRE_CHROMIUM=1` (as `.ci/run` sets when it could install Debian's).
#[test]
fn html_report_renders_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        assert!(
            std::env::var("DAGAZ_REQUIRE_CHROMIUM").as_deref() != Ok("1"),
            "DAGAZ_REQUIRE_CHROMIUM=1 but no chromium found (set DAGAZ_CHROMIUM or install Debian's chromium)"
        );
        println!("skipped: no chromium on PATH (apt-get install chromium, or set DAGAZ_CHROMIUM)");
        return;
    };
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let page = target.join("html-report.html");
    let png = target.join("html-report.png");
    let html = html_report(three_player_records(), &page);
    let console = render_in_chromium(&chromium, &page, &png);
    assert!(console.is_empty(), "console messages: {console:#?}");
    let shot = std::fs::read(&png).unwrap();
    assert_eq!(png_size(&shot), (1280, 2600));

    // The detector works: the same page with an image to load is refused by its policy, and
    // Chromium says so on the console. An empty page gives the size of a blank screenshot.
    let bad = tmp("html-report-bad.html");
    std::fs::write(
        &bad,
        html.replace("<main>", "<main><img src=\"missing.png\" alt=\"\"/>"),
    )
    .unwrap();
    let console = render_in_chromium(&chromium, &bad, &tmp("bad.png"));
    assert!(
        console
            .iter()
            .any(|l| l.contains("Content Security Policy")),
        "the policy violation is not seen: {console:#?}"
    );
    let blank = tmp("html-blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"/><title>blank</title></head><body></body></html>\n").unwrap();
    let blank_png = tmp("blank.png");
    assert!(render_in_chromium(&chromium, &blank, &blank_png).is_empty());
    let blank_len = std::fs::metadata(&blank_png).unwrap().len();
    assert!(
        shot.len() as u64 > 10 * blank_len,
        "the screenshot ({} bytes) looks blank (an empty page: {blank_len} bytes)",
        shot.len()
    );
    println!("screenshot: {} ({} bytes)", png.display(), shot.len());
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
    let csv = |table: &str| stats_csv(&a, table);
    let cross = csv("crosstable");
    assert!(cross.starts_with(
        "schema_version,run_seed,player,opponent,games,wins,draws,losses,points,score\n"
    ));
    assert_eq!(cross.lines().count(), 7);
    let ratings = csv("ratings");
    assert!(ratings.starts_with(
        "schema_version,run_seed,rank,player,status,elo,elo_low,elo_high,games,points,score\n"
    ));
    assert_eq!(ratings.lines().count(), 4);
    // The HTML report shows the joint ratings beside the crosstable.
    let page = tmp("rr.html");
    dagaz()
        .arg("stats")
        .arg(&a)
        .arg("--html")
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("Joint Elo of the round robin (seed 3)"),
        "{html}"
    );
    assert!(html.contains("Crosstable"));
    // Two-player records have no tournament: the tables are empty, and their JSON has no
    // `tournaments`.
    let two = tmp("rr-two.jsonl");
    autoplay(&["ur-random", "ur-simple", "-n", "2"], &two);
    assert_eq!(stats_csv(&two, "ratings").lines().count(), 1);
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
    // Resuming with other players, another seed or fewer games is refused
    // (`dagaz::autoplay::resume`'s tests), with exit 2.
    let e = dagaz()
        .args(["autoplay", "ur-random", "ur-simple", "-n", "4", "--resume"])
        .arg(&full)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(!String::from_utf8(e).unwrap().contains("panicked"));
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
    // Openings: game k of every pairing starts from the same random plies.
    let o = tmp("rr-openings.jsonl");
    autoplay(
        &[
            "ur-random",
            "ur-simple",
            "ur-aggressive",
            "-n",
            "4",
            "--random-plies",
            "3",
        ],
        &o,
    );
    let r = records(&o);
    for g in &r {
        let k = 2 * (g.game_index / 6) + g.game_index % 2;
        let first = r
            .iter()
            .find(|x| x.game_index == 2 * (k / 2) * 3 + k % 2)
            .unwrap();
        assert_eq!(g.moves[..3], first.moves[..3], "game {}", g.game_index);
        assert_eq!(g.settings.random_plies, 3);
    }
    assert_ne!(r[0].moves[..3], r[6].moves[..3]);
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
