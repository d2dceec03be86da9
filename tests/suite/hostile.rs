//! Hostile inputs and operational events (issue: hardening), end to end on the binary:
//! includes that try to leave the project, folders with link loops and FIFOs, files past the
//! size cap, diamonds of includes, inputs run under a 2 GB address-space limit, hostile tree
//! XML, `-o` through links and devices, closed pipes, autoplay killed by SIGTERM, resumed,
//! repaired, run with a huge `-n`, and records whose identity guards resume and stats.
//! Library-level bounds (byte budgets, mutated and random files) are in `tests/suite/robustness.rs`.

use crate::common;

use common::{autoplay, dagaz, records};
use std::path::{Path, PathBuf};

/// A hang guard, not a measure of work: what a case does is bounded by its budgets, and a
/// loaded CI machine may take many times an idle one's time.
const HANG_GUARD: std::time::Duration = std::time::Duration::from_secs(300);

/// A lint fixture's `bad.zrf`.
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("lint-examples")
        .join(name)
        .join("bad.zrf")
}

/// A file with `text` in a temporary folder of this test run.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let p = tmp(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn tmp(name: &str) -> PathBuf {
    common::tmp_in("hostile-run", name)
}

/// Hostile inputs around files (issue: hardening): includes that leave the project through a
/// symbolic link, an included file that is not ZRF (its text is never echoed), folders with
/// a symbolic-link loop and a FIFO, and a file larger than the size cap.
#[cfg(unix)]
#[test]
fn hostile_files_and_folders_are_bounded() {
    let root = std::env::temp_dir().join(format!("dagaz-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let project = root.join("project");
    std::fs::create_dir_all(project.join("sub")).unwrap();
    std::fs::write(root.join("secret.txt"), "TOKEN=hunter2 (").unwrap();
    std::fs::write(project.join("notes.txt"), "PASSWORD=swordfish (").unwrap();
    std::os::unix::fs::symlink(root.join("secret.txt"), project.join("link.zrf")).unwrap();
    let game =
        std::fs::read_to_string(fixture("include-outside-project").with_file_name("good.zrf"))
            .unwrap();
    std::fs::write(
        project.join("main.zrf"),
        format!("(include \"link.zrf\")\n(include \"notes.txt\")\n{game}"),
    )
    .unwrap();
    let out = dagaz()
        .args(["lint", "--format", "human"])
        .arg(project.join("main.zrf"))
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(
        all.contains("DZ0217") && all.contains("symbolic link"),
        "{all}"
    );
    assert!(
        !all.contains("hunter2") && !all.contains("swordfish"),
        "{all}"
    );
    // A loop of folders and a FIFO named like a rules file: the walk ends and skips it.
    std::os::unix::fs::symlink(&project, project.join("sub").join("back")).unwrap();
    let fifo = project.join("sub").join("pipe.zrf");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let out = dagaz()
        .args(["lint", "--format", "concise"])
        .arg(&project)
        .timeout(HANG_GUARD)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("main.zrf") && !stdout.contains("pipe.zrf"),
        "{stdout}"
    );
    // A diamond: each file includes the next twice, 30 deep (2^30 splices unbounded).
    let diamond = root.join("diamond");
    std::fs::create_dir_all(&diamond).unwrap();
    for i in 0..30 {
        let text = format!("(include \"f{0}.zrf\")\n(include \"f{0}.zrf\")\n", i + 1);
        std::fs::write(diamond.join(format!("f{i}.zrf")), text).unwrap();
    }
    std::fs::write(diamond.join("f30.zrf"), "(define last y)\n").unwrap();
    let out = dagaz()
        .args(["lint", "--format", "concise"])
        .arg(diamond.join("f0.zrf"))
        .timeout(HANG_GUARD)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("DZ0207") && stdout.contains("includes splice more than"),
        "{stdout}"
    );
    // Larger than the 16 MiB cap: refused without reading it all (exit 2, I/O error).
    let big = root.join("big.zrf");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(20 << 20).unwrap();
    let out = dagaz().args(["lint"]).arg(&big).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than 16 MiB"));
    let _ = std::fs::remove_dir_all(&root);
}

/// Hostile inputs under a 2 GB address-space limit set by the test (issue: hardening): each
/// must end with a diagnostic (exit 1) or a clean result, never an abort, within 60 s. The
/// cases: strings doubled through 30 macro levels, 300 variants of a large expansion, and
/// a 10 MB rules file.
#[cfg(target_os = "linux")]
#[test]
fn hostile_inputs_stay_within_2_gb() {
    let dir = std::env::temp_dir().join(format!("dagaz-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut glue = String::from("(define s0 $1)\n");
    for i in 1..=30 {
        glue += &format!("(define s{i} (s{p} \"$1$1\"))\n", p = i - 1);
    }
    glue += "(game (title (s30 \"ab\")) (players A B))\n";
    let mut variants = String::from("(define m0 (x y z w))\n");
    variants += &format!("(define m1 {})\n", "(m0) ".repeat(100));
    variants += &format!("(define m2 {})\n", "(m1) ".repeat(600));
    variants += "(game (title \"G\") (players A B) (board-setup (m2)))\n";
    for i in 0..300 {
        variants += &format!("(variant (title \"V{i}\"))\n");
    }
    let mut big = String::from(
        "(game (title \"Big\") (players A B) (board (grid (start-rectangle 0 0 1 1) (dimensions (\"a/b\" (1 0)) (\"2/1\" (0 1))) (directions (n 0 -1))))\n",
    );
    let mut i = 0;
    while big.len() < 10_000_000 {
        big += &format!(" (piece (name P{i}) (moves (n add) (n (verify empty?) add)))\n");
        i += 1;
    }
    big += ")\n";
    for (name, text, want) in [
        ("glue.zrf", glue, Some("DZ0207")),
        ("variants.zrf", variants, Some("DZ0207")),
        ("big.zrf", big, None),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let bin = assert_cmd::cargo::cargo_bin("dagaz");
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 2097152; exec \"$0\" lint --format concise \"$1\"")
            .arg(&bin)
            .arg(&path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{name}: {:?} {stderr}",
            out.status
        );
        if let Some(code) = want {
            assert!(stdout.contains(code), "{name}: {stdout}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--include-dir`: an include not found beside the including file is looked up in the
/// given folders (and read only there); without the flag it stays refused or missing.
#[test]
fn include_dirs_extend_where_includes_may_be_read() {
    let root = std::env::temp_dir().join(format!("dagaz-incdir-{}", std::process::id()));
    let (project, lib) = (root.join("project"), root.join("lib"));
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(
        lib.join("moves.zrf"),
        "(define step ($1 (verify empty?) add))\n",
    )
    .unwrap();
    let game =
        std::fs::read_to_string(fixture("include-outside-project").with_file_name("good.zrf"))
            .unwrap()
            .replace("(n (verify empty?) add)", "(step n)");
    std::fs::write(
        project.join("main.zrf"),
        format!("(include \"moves.zrf\")\n{game}"),
    )
    .unwrap();
    let without = dagaz()
        .args(["lint", "--format", "concise"])
        .arg(project.join("main.zrf"))
        .output()
        .unwrap();
    assert_eq!(without.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&without.stdout).contains("DZ0201"));
    for cmd in [
        &["lint", "--format", "concise"][..],
        &["perft", "--depth", "1"][..],
    ] {
        let with = dagaz()
            .args(cmd)
            .arg("--include-dir")
            .arg(&lib)
            .arg(project.join("main.zrf"))
            .output()
            .unwrap();
        assert!(
            with.status.success(),
            "{cmd:?}: {}{}",
            String::from_utf8_lossy(&with.stdout),
            String::from_utf8_lossy(&with.stderr)
        );
    }
    let main = project.join("main.zrf");
    let play = dagaz()
        .args(["autoplay", "-n", "2", "--include-dir"])
        .arg(&lib)
        .arg(&main)
        .arg(&main)
        .output()
        .unwrap();
    assert!(
        play.status.success(),
        "{}",
        String::from_utf8_lossy(&play.stderr)
    );
    // From the include folder a `..` still may not climb out.
    std::fs::write(lib.join("moves.zrf"), "(include \"../secret.zrf\")\n").unwrap();
    std::fs::write(root.join("secret.zrf"), "(define step ($1 add))\n").unwrap();
    let out = dagaz()
        .args(["lint", "--format", "concise", "--include-dir"])
        .arg(&lib)
        .arg(project.join("main.zrf"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("DZ0217"));
    let _ = std::fs::remove_dir_all(&root);
}

/// Hostile tree XML: deep nesting is refused (no stack overflow), leaves that cannot be
/// printed as the same ZRF token are refused (not written as different ZRF), and a one-line
/// input gives a short snippet.
#[test]
fn hostile_tree_xml_is_refused_with_a_diagnostic() {
    let deep = format!(
        "<zrf stage=\"syntax\">{}{}</zrf>",
        "<list>".repeat(100_000),
        "</list>".repeat(100_000)
    );
    let cases = [
        ("deep.xml", deep.as_str(), "nested deeper than 256"),
        (
            "space.xml",
            "<zrf stage=\"syntax\"><list><atom>a b</atom></list></zrf>",
            "an atom with a blank",
        ),
        (
            "quote.xml",
            "<zrf stage=\"syntax\"><list><string>say \"hi\"</string></list></zrf>",
            "a string with",
        ),
        (
            "number.xml",
            "<zrf stage=\"syntax\"><list><number>1e5</number></list></zrf>",
            "a number that is not",
        ),
        (
            "empty.xml",
            "<zrf stage=\"syntax\"><list><atom/></list></zrf>",
            "an empty atom",
        ),
    ];
    for (name, text, want) in cases {
        let p = temp_file(name, text);
        let out = dagaz()
            .args(["convert", "--to", "zrf"])
            .arg(&p)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}: wrote output");
        assert!(
            err.contains("DZ0004") && err.contains(want),
            "{name}: {err}"
        );
        assert!(err.len() < 2_000, "{name}: {} bytes on stderr", err.len());
    }
}

/// `-o` writes through a symbolic link and a FIFO instead of replacing them with a regular
/// file, `/dev/null` stays a device, a closed pipe on stdout is a quiet exit 0 and a full
/// disk (`/dev/full`) exits 2.
#[cfg(unix)]
#[test]
fn output_goes_through_links_and_devices_and_failed_writes_exit_2() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = temp_file("out.txt", "").with_file_name("");
    let target = dir.join("target.xml");
    let link = dir.join("link.xml");
    std::fs::write(&target, "old").unwrap();
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let st = dagaz()
        .args(["convert", "tictactoe", "-o"])
        .arg(&link)
        .output()
        .unwrap()
        .status;
    assert!(st.success());
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .starts_with("<?xml")
    );
    // A failed write (a full device) exits 2 and leaves no temporary file behind.
    let full = dagaz()
        .args(["convert", "tictactoe", "-o", "/dev/full"])
        .output()
        .unwrap();
    assert_eq!(full.status.code(), Some(2));
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let st = dagaz()
        .args(["convert", "tictactoe", "-o"])
        .arg(out_dir.join("x.xml"))
        .output()
        .unwrap()
        .status;
    assert!(st.success());
    let leftovers: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // A FIFO: read it while dagaz writes.
    let fifo = dir.join("pipe.xml");
    let _ = std::fs::remove_file(&fifo);
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut s = String::new();
            std::fs::File::open(fifo)
                .unwrap()
                .read_to_string(&mut s)
                .unwrap();
            s
        })
    };
    let st = dagaz()
        .args(["convert", "tictactoe", "-o"])
        .arg(&fifo)
        .output()
        .unwrap()
        .status;
    assert!(st.success());
    assert!(reader.join().unwrap().starts_with("<?xml"));
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    let st = dagaz()
        .args(["convert", "tictactoe", "-o", "/dev/null"])
        .output()
        .unwrap()
        .status;
    assert!(st.success());
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // stdout closed before dagaz writes (`| head` that has read enough): a quiet exit 0,
    // as ripgrep's, so `set -o pipefail` scripts do not fail; no panic.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dagaz"))
        .args(["perft", "--suite", "tictactoe"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    // A full disk stays an error: exit 2 with a message.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("dagaz"))
        .args(["perft", "--suite", "tictactoe"])
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot write to stdout") && !err.contains("panicked"),
        "{err}"
    );
}

/// Runs `dagaz ARGS --games-out OUT`, waits until OUT holds `games` records (at most 60 s),
/// sends SIGTERM and returns how the process ended.
#[cfg(unix)]
fn autoplay_until_sigterm(args: &[&str], out: &Path, games: usize) -> std::process::ExitStatus {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dagaz"))
        .args(args)
        .arg("--games-out")
        .arg(out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while std::fs::read_to_string(out)
        .map(|t| t.lines().count())
        .unwrap_or(0)
        < games
    {
        assert!(
            t0.elapsed() < HANG_GUARD,
            "fewer than {games} games after {HANG_GUARD:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    child.wait().unwrap()
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
    let status = autoplay_until_sigterm(&args, &cut, 20);
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

/// The same for a round robin: the games of all pairings are in one file, and resuming the
/// interrupted run gives the records of the uninterrupted one.
#[cfg(unix)]
#[test]
fn sigterm_during_a_round_robin_and_resume() {
    let args = [
        "autoplay",
        "ur-random",
        "ur-simple",
        "ur-aggressive",
        "-n",
        "200",
        "-j",
        "1",
    ];
    let cut = tmp("rr-cut.jsonl");
    let _ = std::fs::remove_file(&cut);
    let status = autoplay_until_sigterm(&args, &cut, 10);
    let kept = records(&cut);
    assert!(!kept.is_empty());
    if status.code() == Some(130) {
        assert!(kept.len() < 600, "interrupted but {} games", kept.len());
    } else {
        assert_eq!(status.code(), Some(0));
    }
    dagaz()
        .args(args)
        .arg("--resume")
        .arg(&cut)
        .assert()
        .success();
    let full = tmp("rr-uncut.jsonl");
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

/// Memory and start-up do not depend on `-n`: a run of 2^64-1 games starts playing at once
/// (no per-game reservation, no enumeration of the indices); it is stopped with SIGTERM.
#[cfg(unix)]
#[test]
fn a_huge_n_starts_at_once() {
    let out = tmp("huge.jsonl");
    let _ = std::fs::remove_file(&out);
    let args = [
        "autoplay",
        "ur-random",
        "ur-random",
        "-j",
        "1",
        "--shard",
        "3/7",
        "-n",
        "18446744073709551615",
    ];
    assert_eq!(autoplay_until_sigterm(&args, &out, 3).code(), Some(130));
    // Shard 3 of 7 takes pairs 2, 9, 16, …: games 4, 5, 18, 19, …
    let first: Vec<u64> = records(&out).iter().map(|r| r.game_index).take(3).collect();
    assert_eq!(first, vec![4, 5, 18]);
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

/// A signal during a very slow game (a deep expectimax search on every move) stops the run
/// within about a second: the search returns early, and the game in progress is recorded
/// as interrupted, not as a result; `--resume` would play it again.
#[cfg(unix)]
#[test]
fn a_signal_stops_a_slow_game_at_once() {
    let out = tmp("slow.jsonl");
    let _ = std::fs::remove_file(&out);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dagaz"))
        .args([
            "autoplay",
            "ur-expectimax",
            "ur-expectimax",
            "-n",
            "2",
            "-j",
            "1",
        ])
        .args(["--depth", "40", "--games-out"])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The games file is created before the first game starts.
    let t0 = std::time::Instant::now();
    while !out.exists() {
        assert!(t0.elapsed() < HANG_GUARD, "the run did not start");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let sent = std::time::Instant::now();
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    let waited = sent.elapsed();
    assert_eq!(status.code(), Some(130));
    // A hang guard only: at depth 40 the game in progress would not end for hours, so the
    // record below (one game, interrupted) is what shows the run stopped it.
    assert!(waited < HANG_GUARD, "stopped after {waited:?}");
    let r = records(&out);
    assert_eq!(r.len(), 1, "one game was in progress: {r:?}");
    assert_eq!(
        r[0].result,
        dagaz::tournament::record::GameResult::Interrupted
    );
    assert_eq!(
        r[0].end,
        Some(dagaz::tournament::record::GameEnd::Interrupted)
    );
    assert!(r[0].score_a.is_none());
}
