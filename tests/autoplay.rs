//! `dagaz autoplay`, `games` and `stats` end to end on the bundled Royal Game of Ur:
//! reproducibility across thread counts, Axiom's output lines, shards and merging, resume,
//! gates, and clear errors for bad players.

mod common;

use std::path::PathBuf;

use common::{autoplay, dagaz, records};

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
    assert_eq!(v["schema_version"], 1);
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
