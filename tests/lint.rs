//! `dagaz lint`: one fixture folder per rule (`tests/lint/NAME/`, and `NAME--case/` for
//! further cases of the same rule): `bad.zrf` must give
//! exactly `bad.expected` (concise format, a snapshot) and contain the rule's code;
//! `good.zrf` must lint clean; an optional `args` file adds flags (e.g. `--deep`) to both.
//! Set `DAGAZ_BLESS=1` to rewrite the snapshots after a
//! deliberate change, and review the diff.
//!
//! Also: output formats, suppressions, levels, `--explain`, and the bundled games.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn dagaz() -> Command {
    Command::cargo_bin("dagaz").unwrap()
}

fn fixture_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lint");
    let mut v: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

#[test]
fn every_rule_fixture_matches_its_snapshot_and_its_fix_is_clean() {
    let bless = std::env::var("DAGAZ_BLESS").as_deref() == Ok("1");
    let mut problems = vec![];
    for dir in fixture_dirs() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        // `NAME--case/`: a further case of rule NAME (its own bad and good files).
        let rule = name.split("--").next().unwrap_or(&name);
        // Extra flags for the rule (e.g. `--deep`), the same for the bad and the good file.
        let extra: Vec<String> = std::fs::read_to_string(dir.join("args"))
            .map(|a| a.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default();
        let out = dagaz()
            .current_dir(&dir)
            .args(["lint", "bad.zrf", "--format", "concise"])
            .args(&extra)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        if !stdout.contains(&format!("/{rule}]")) {
            problems.push(format!(
                "{name}: bad.zrf does not report `{name}`:\n{stdout}"
            ));
        }
        let is_error = stdout.lines().any(|l| l.contains(": error["));
        if out.status.code() != Some(if is_error { 1 } else { 0 }) {
            problems.push(format!("{name}: exit code {:?}", out.status.code()));
        }
        let expected = dir.join("bad.expected");
        if bless {
            std::fs::write(&expected, &stdout).unwrap();
        } else if std::fs::read_to_string(&expected).unwrap_or_default() != stdout {
            problems.push(format!(
                "{name}: output differs from bad.expected:\n{stdout}"
            ));
        }
        let good = dagaz()
            .current_dir(&dir)
            .args(["lint", "good.zrf", "--format", "concise"])
            .args(&extra)
            .output()
            .unwrap();
        if !good.status.success() || !good.stdout.is_empty() {
            problems.push(format!(
                "{name}: good.zrf is not clean:\n{}",
                String::from_utf8_lossy(&good.stdout)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_documented_rule_explains_itself_and_named_rules_have_fixtures() {
    for r in dagaz::lint::rules::RULES {
        let out = dagaz()
            .args(["lint", "--explain", r.code.id])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with(&format!("{} {}", r.code.id, r.code.name)),
            "{text}"
        );
        if !r.bad.is_empty() {
            assert!(text.contains("Bad:") && text.contains("Good:"));
            let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/lint")
                .join(r.code.name);
            let snapshot = std::fs::read_to_string(dir.join("bad.expected"))
                .unwrap_or_else(|_| panic!("no snapshot for {}", r.code.name));
            // The documented severity is the one reported.
            let tag = format!("{}[{}/{}]", r.severity.as_str(), r.code.id, r.code.name);
            assert!(
                snapshot.contains(&tag),
                "{}: documented as {} but the snapshot says otherwise:\n{snapshot}",
                r.code.name,
                r.severity.as_str()
            );
        }
    }
    dagaz()
        .args(["lint", "--explain", "unused-macr"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unused-macro"));
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/lint")
        .join(name)
        .join("bad.zrf")
}

#[test]
fn levels_and_deny_warnings() {
    let f = fixture("unused-macro");
    dagaz()
        .args(["lint", "--format", "concise"])
        .arg(&f)
        .assert()
        .success();
    dagaz()
        .args(["lint", "--format", "concise", "--deny", "warnings"])
        .arg(&f)
        .assert()
        .code(1);
    dagaz()
        .args(["lint", "--format", "concise", "--deny", "DZ0214"])
        .arg(&f)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("error[DZ0214"));
    dagaz()
        .args(["lint", "--format", "concise", "--allow", "unused-macro"])
        .arg(&f)
        .assert()
        .success()
        .stdout("");
    dagaz()
        .args(["lint", "--allow", "no-such-rule"])
        .arg(&f)
        .assert()
        .code(2);
    let d = fixture("doubly-occupied");
    dagaz()
        .args(["lint", "--format", "concise", "--warn", "doubly-occupied"])
        .arg(&d)
        .assert()
        .success();
}

#[test]
fn in_file_suppressions() {
    let dir = std::env::temp_dir().join(format!("dagaz-lint-sup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::fs::read_to_string(fixture("unused-macro")).unwrap();
    let line = src.replace(
        "(define jump (n n (verify empty?) add))",
        "(define jump (n n (verify empty?) add)) ; dagaz: allow(DZ0214)",
    );
    std::fs::write(dir.join("a.zrf"), line).unwrap();
    let before = src.replace("(define jump", "; dagaz: allow(unused-macro)\n(define jump");
    std::fs::write(dir.join("b.zrf"), before).unwrap();
    let file = format!("; dagaz: allow-file(DZ0214)\n{src}");
    std::fs::write(dir.join("c.zrf"), file).unwrap();
    for f in ["a.zrf", "b.zrf", "c.zrf"] {
        dagaz()
            .current_dir(&dir)
            .args(["lint", "--format", "concise", f])
            .assert()
            .success()
            .stdout("");
    }
    // A syntax error cannot be suppressed.
    std::fs::write(dir.join("d.zrf"), "; dagaz: allow-file(DZ0101)\n(game\n").unwrap();
    dagaz()
        .current_dir(&dir)
        .args(["lint", "d.zrf"])
        .assert()
        .code(1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// stdout of `dagaz lint --format FORMAT FILE`, which must exit 1 (the file has an error).
fn lint_output(format: &str, file: &Path) -> Vec<u8> {
    dagaz()
        .args(["lint", "--format", format])
        .arg(file)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone()
}

#[test]
fn machine_formats() {
    let f = fixture("partial-to-unknown-move-type");
    let out = lint_output("json", &f);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["summary"]["errors"], 1);
    assert_eq!(
        v["files"][0]["diagnostics"][0]["name"],
        "partial-to-unknown-move-type"
    );
    let out = lint_output("sarif", &f);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["version"], "2.1.0");
    let res = &v["runs"][0]["results"][0];
    assert_eq!(res["ruleId"], "DZ0652");
    assert_eq!(res["level"], "error");
    assert_eq!(
        res["locations"][0]["physicalLocation"]["region"]["startLine"],
        19
    );
    assert_eq!(v["runs"][0]["tool"]["driver"]["rules"][0]["id"], "DZ0652");
    let out = lint_output("github", &f);
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("::error file="), "{text}");
    assert!(
        text.contains(",line=19,col=57,title=DZ0652 partial-to-unknown-move-type::"),
        "{text}"
    );
}

#[test]
fn bundled_games_lint_clean() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    dagaz()
        .args(["lint", "--format", "concise"])
        .arg(&games)
        .assert()
        .success();
}

#[test]
fn unknown_names_come_with_suggestions() {
    for (rule, hint) in [
        ("unknown-piece", "did you mean `Man`?"),
        ("unknown-player", "did you mean `Black`?"),
        ("unknown-option", "did you mean \"pass turn\"?"),
        ("partial-to-unknown-move-type", "did you mean `jump`?"),
        ("unknown-move-type", "did you mean `jump`?"),
        ("unknown-player--zone", "did you mean `Black`?"),
        ("unknown-player--image", "did you mean `Black`?"),
        ("unknown-direction--move", "did you mean `n`?"),
        ("unknown-instruction", "did you mean `step`?"),
    ] {
        dagaz()
            .args(["lint"])
            .arg(fixture(rule))
            .assert()
            .stdout(predicates::str::contains(hint));
    }
}

/// `docs/diagnostics.md` lists every documented rule (regenerate with `DAGAZ_BLESS=1`).
#[test]
fn diagnostics_doc_lists_every_rule() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/diagnostics.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let marker = "<!-- rules table: generated -->\n";
    let head = &doc[..doc.find(marker).expect("marker in docs/diagnostics.md") + marker.len()];
    let mut rules: Vec<_> = dagaz::lint::rules::RULES.iter().collect();
    rules.sort_by_key(|r| r.code.id);
    let mut table = String::from("\n| code | name | severity | meaning |\n|---|---|---|---|\n");
    for r in rules {
        table += &format!(
            "| {} | {} | {} | {} |\n",
            r.code.id,
            r.code.name,
            r.severity.as_str(),
            r.summary
        );
    }
    let want = format!("{head}{table}");
    if std::env::var("DAGAZ_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, &want).unwrap();
    } else {
        assert_eq!(
            doc, want,
            "docs/diagnostics.md is stale: run with DAGAZ_BLESS=1"
        );
    }
}

/// In a game whose goals are `checkmated`, a stalemate is a draw by design (as in chess):
/// `--deep` does not report it as a position with no move and no goal.
#[test]
fn deep_lint_accepts_stalemate_in_checkmate_games() {
    let dir = std::env::temp_dir().join(format!("dagaz-lint-stalemate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = r#"(game (title "Corridor") (players White Black) (turn-order White Black)
      (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("1" (0 10)))
        (directions (e 1 0) (w -1 0))))
      (board-setup (White (King a1)) (Black (King c1)))
      (piece (name King) (moves (e (verify empty?) add) (w (verify empty?) add)))
      GOAL)"#;
    std::fs::write(
        dir.join("mate.zrf"),
        game.replace("GOAL", "(loss-condition (White Black) (checkmated King))"),
    )
    .unwrap();
    std::fs::write(
        dir.join("count.zrf"),
        game.replace(
            "GOAL",
            "(loss-condition (White Black) (pieces-remaining 0))",
        ),
    )
    .unwrap();
    let lint = |f: &str| {
        let out = dagaz()
            .current_dir(&dir)
            .args([
                "lint",
                "--deep",
                "--playouts",
                "5",
                "--format",
                "concise",
                f,
            ])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(!lint("mate.zrf").contains("no-move-no-goal"));
    assert!(lint("count.zrf").contains("no-move-no-goal"));
    let _ = std::fs::remove_dir_all(&dir);
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
        .timeout(std::time::Duration::from_secs(20))
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
        .timeout(std::time::Duration::from_secs(30))
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

/// A finding in a macro body names the call that expanded it; one in a call's arguments
/// names the macro; one that only a variant has names the variant; a direction of another
/// game's board is said to be one.
#[test]
fn findings_carry_their_context() {
    let dir = std::env::temp_dir().join(format!("dagaz-lint-ctx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = r#"(define ride ($1 (while empty? add $1)))
(define hop ((verify frend?) add))
(game
  (title "Base")
  (players White Black)
  (turn-order White Black)
  (board
    (grid
      (start-rectangle 0 0 30 30)
      (dimensions ("a/b/c" (30 0)) ("3/2/1" (0 30)))
      (directions (n 0 -1) (s 0 1) (ne 1 -1))))
  (board-setup (White (Man a1)) (Black (Man c3)))
  (piece (name Man) (moves (ride ne) (hop)))
  (loss-condition (White Black) stalemated)
)
(variant
  (title "Narrow")
  (board
    (grid
      (start-rectangle 0 0 30 30)
      (dimensions ("a/b/c" (30 0)) ("3/2/1" (0 30)))
      (directions (n 0 -1) (s 0 1)))))
"#;
    std::fs::write(dir.join("ctx.zrf"), text).unwrap();
    let out = dagaz()
        .current_dir(&dir)
        .args(["lint", "ctx.zrf"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    for want in [
        "unknown direction `ne`",
        "`ne` is a direction of the board of `Base`, not of this game's board",
        "in variant `Narrow`",
        "in the expansion of macro `ride`, defined at ctx.zrf:1:9",
        "in macro `hop`, expanded from the call at ctx.zrf:13:38",
    ] {
        assert!(out.contains(want), "missing `{want}` in:\n{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A finding in an included file names it by a path that opens from where lint runs.
#[test]
fn included_files_are_named_from_the_working_directory() {
    let dir = std::env::temp_dir().join(format!("dagaz-lint-inc-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::write(
        dir.join("rules/lib.zrf"),
        "(define step ($1 (verify emty?) add))\n",
    )
    .unwrap();
    let main = r#"(include "lib.zrf")
(game
  (title "Inc")
  (players White Black)
  (turn-order White Black)
  (board (positions (a1 0 0 10 10) (a2 0 10 10 20)) (links n (a1 a2)) (links s (a2 a1)))
  (board-setup (White (Man a1)) (Black (Man a2)))
  (piece (name Man) (moves (step n)))
  (loss-condition (White Black) stalemated)
)
"#;
    std::fs::write(dir.join("rules/main.zrf"), main).unwrap();
    dagaz()
        .current_dir(&dir)
        .args(["lint", "--format", "concise", "rules/main.zrf"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "rules/lib.zrf:1:26: error[DZ0604/unknown-condition]",
        ));
    let _ = std::fs::remove_dir_all(&dir);
}
