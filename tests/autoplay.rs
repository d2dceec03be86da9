//! `dagaz autoplay`, `games` and `stats` end to end on the bundled Royal Game of Ur:
//! reproducibility across thread counts, Axiom's output lines, shards and merging, resume,
//! gates, and clear errors for bad players.

mod common;

use assert_cmd::Command;
use dagaz::tournament::record::{GameRecord, read_records};
use std::path::{Path, PathBuf};

fn dagaz() -> Command {
    Command::cargo_bin("dagaz").unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dagaz-autoplay-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn records(p: &Path) -> Vec<GameRecord> {
    let r = read_records(&std::fs::read_to_string(p).unwrap(), "test").unwrap();
    r.iter().map(GameRecord::without_time).collect()
}

fn autoplay(args: &[&str], out: &Path) -> String {
    let o = dagaz()
        .arg("autoplay")
        .args(args)
        .arg("--games-out")
        .arg(out)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(o).unwrap()
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

/// Durability: SIGTERM (as Slurm preemption or `timeout` sends) stops a run like Ctrl-C; the
/// games file then holds every finished game as valid JSON Lines (streamed and flushed game
/// by game), and `--resume` completes it into exactly the records of an uninterrupted run.
#[cfg(unix)]
#[test]
fn sigterm_keeps_finished_games_and_resume_completes_the_run() {
    let args = [
        "autoplay",
        "ur-random",
        "ur-random",
        "-n",
        "1000",
        "-j",
        "1",
    ];
    let cut = tmp("cut.jsonl");
    let _ = std::fs::remove_file(&cut);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dagaz"))
        .args(args)
        .arg("--games-out")
        .arg(&cut)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while std::fs::read_to_string(&cut)
        .map(|t| t.lines().count())
        .unwrap_or(0)
        < 20
    {
        assert!(t0.elapsed().as_secs() < 60, "no game was streamed");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    let kept = records(&cut);
    assert!(!kept.is_empty());
    if status.code() == Some(130) {
        assert!(kept.len() < 1000, "interrupted but {} games", kept.len());
    } else {
        // The run may have finished before the signal arrived on a fast machine.
        assert_eq!(status.code(), Some(0));
    }
    // A second run cannot write the same file while the first holds it: covered by the
    // lock; here the first has ended, so resuming works.
    dagaz()
        .args(args)
        .arg("--resume")
        .arg(&cut)
        .assert()
        .success();
    let full = tmp("uncut.jsonl");
    autoplay(&args[1..], &full);
    assert_eq!(records(&cut), records(&full));
}

/// Settings that cannot give a meaningful run are refused before any game, and a truncated
/// last record (a kill in the middle of a write) is dropped with a warning on resume.
#[test]
fn meaningless_settings_and_truncated_records() {
    for bad in [
        &["-j", "0"][..],
        &["--max-plies", "0"][..],
        &["-n", "2", "--shard", "3/4"][..],
    ] {
        let out = dagaz()
            .args(["autoplay", "ur-random", "ur-random"])
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
    let f = tmp("truncated.jsonl");
    autoplay(&["ur-random", "ur-simple", "-n", "4"], &f);
    let mut text = std::fs::read_to_string(&f).unwrap();
    let full = records(&f);
    text.truncate(text.len() - 30); // the last record loses its end and its line break
    std::fs::write(&f, &text).unwrap();
    let out = dagaz()
        .args(["autoplay", "ur-random", "ur-simple", "-n", "4", "--resume"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("dropped an incomplete last record"));
    assert_eq!(records(&f), full);
    // --repair only repairs: the cut record is dropped, nothing is played.
    std::fs::write(&f, &text).unwrap();
    let out = dagaz()
        .args(["autoplay", "ur-random", "ur-simple", "-n", "4", "--resume"])
        .arg(&f)
        .arg("--repair")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(records(&f), full[..full.len() - 1].to_vec());
    // A smaller -n than the file holds is refused.
    dagaz()
        .args(["autoplay", "ur-random", "ur-simple", "-n", "2", "--resume"])
        .arg(&f)
        .assert()
        .code(2);
}

/// Records carry their identity (dagaz version, hashes of both players' rules and of the
/// settings): `--resume` refuses a run whose rules changed, `stats` refuses to pool
/// different runs or one file twice, and `stats merge` fails when a shard is missing.
#[test]
fn identity_guards_resume_stats_and_merge() {
    let rules = tmp("ttt.zrf");
    let text = dagaz::games::find("tictactoe").unwrap().text;
    std::fs::write(&rules, text).unwrap();
    let spec = rules.display().to_string();
    let run = tmp("ttt.jsonl");
    autoplay(&[&spec, &spec, "-n", "4"], &run);
    let recs = records(&run);
    let id = recs[0]
        .identity
        .clone()
        .expect("records carry their identity");
    assert_eq!(id.dagaz_version, env!("CARGO_PKG_VERSION"));
    assert!(recs.iter().all(|r| r.identity.as_ref() == Some(&id)));
    // The rules change (an option that does not change play): resume is refused.
    std::fs::write(
        &rules,
        text.replacen("(game", "(game (option \"recycle captures\" false)", 1),
    )
    .unwrap();
    let out = dagaz()
        .args(["autoplay", &spec, &spec, "-n", "8", "--resume"])
        .arg(&run)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("rules of player A have changed"));
    // The same file twice; two runs with different --max-plies pooled.
    dagaz().arg("stats").arg(&run).arg(&run).assert().code(2);
    let (p1, p2) = (tmp("mp1.jsonl"), tmp("mp2.jsonl"));
    autoplay(&["ur-random", "ur-random", "-n", "2"], &p1);
    autoplay(
        &["ur-random", "ur-random", "-n", "4", "--max-plies", "50"],
        &p2,
    );
    let mut both = std::fs::read_to_string(&p1).unwrap();
    both += &std::fs::read_to_string(&p2).unwrap();
    let pooled = tmp("pooled.jsonl");
    std::fs::write(&pooled, both).unwrap();
    let out = dagaz().arg("stats").arg(&pooled).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("max_plies"));
    // A missing shard: exit 1 naming the games, unless --allow-partial.
    let s1 = tmp("only-shard-1.jsonl");
    autoplay(
        &["ur-random", "ur-random", "-n", "8", "--shard", "1/2"],
        &s1,
    );
    let out = dagaz().args(["stats", "merge"]).arg(&s1).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 of 8 games are in no shard"));
    dagaz()
        .args(["stats", "merge", "--allow-partial"])
        .arg(&s1)
        .assert()
        .success();
}

/// Memory and start-up do not depend on `-n`: a run of 2^64-1 games starts playing at once
/// (no per-game reservation, no enumeration of the indices); it is stopped with SIGTERM.
#[cfg(unix)]
#[test]
fn a_huge_n_starts_at_once() {
    let out = tmp("huge.jsonl");
    let _ = std::fs::remove_file(&out);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dagaz"))
        .args([
            "autoplay",
            "ur-random",
            "ur-random",
            "-j",
            "1",
            "--shard",
            "3/7",
        ])
        .args(["-n", "18446744073709551615", "--games-out"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while std::fs::read_to_string(&out)
        .map(|t| t.lines().count())
        .unwrap_or(0)
        < 3
    {
        assert!(t0.elapsed().as_secs() < 30, "no game after 30 s");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130));
    // Shard 3 of 7 takes pairs 2, 9, 16, …: games 4, 5, 18, 19, …
    let first: Vec<u64> = records(&out).iter().map(|r| r.game_index).take(3).collect();
    assert_eq!(first, vec![4, 5, 18]);
}
