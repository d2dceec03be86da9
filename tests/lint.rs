//! `dagaz lint`: one fixture folder per rule (`tests/lint/NAME/`): `bad.zrf` must give
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
        if !stdout.contains(&format!("/{name}]")) {
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
    // Unknown codes on the command line are usage errors, with the nearest code.
    for (flag, key, near) in [
        ("--allow", "unused-makro", "unused-macro"),
        ("--deny", "DZ02144", "DZ0214"),
        ("--warn", "DZ9999", ""),
    ] {
        let out = dagaz()
            .args(["lint", flag, key])
            .arg(&f)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8(out).unwrap();
        assert!(err.contains(&format!("unknown lint code `{key}`")), "{err}");
        if !near.is_empty() {
            assert!(err.contains(&format!("did you mean `{near}`?")), "{err}");
        }
    }
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
    // A suppression of a code only `--deep` reports is unused only when `--deep` ran.
    let deep_only = src.replace(
        "(define jump",
        "; dagaz: allow-file(DZ0954, DZ0214)\n(define jump",
    );
    std::fs::write(dir.join("e.zrf"), deep_only).unwrap();
    dagaz()
        .current_dir(&dir)
        .args(["lint", "--format", "concise", "e.zrf"])
        .assert()
        .success()
        .stdout("");
    dagaz()
        .current_dir(&dir)
        .args([
            "lint",
            "--format",
            "concise",
            "--deep",
            "--playouts",
            "2",
            "e.zrf",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "e.zrf:2:21: warning[DZ0261/unused-suppression]: `allow-file(DZ0954)` silences nothing",
        ));
    // A syntax error cannot be suppressed.
    std::fs::write(dir.join("d.zrf"), "; dagaz: allow-file(DZ0101)\n(game\n").unwrap();
    dagaz()
        .current_dir(&dir)
        .args(["lint", "--format", "concise", "d.zrf"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "d.zrf:1:21: warning[DZ0261/unused-suppression]: `allow-file(DZ0101)` silences nothing: DZ0101 stops the checks",
        ));
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
        text.contains(",line=19,col=44,title=DZ0652 partial-to-unknown-move-type::"),
        "{text}"
    );
    // Notes: part of the message in github (an encoded newline), indented lines in concise.
    assert!(text.contains("%0Anote: did you mean `jump`?"), "{text}");
    let text = String::from_utf8(lint_output("concise", &f)).unwrap();
    assert!(
        text.contains("\n    note: did you mean `jump`?\n"),
        "{text}"
    );
    // SARIF: relative, percent-encoded URIs against %SRCROOT%, and the notes.
    let res = &v_sarif_of(&f)["runs"][0];
    let loc = &res["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(loc["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        loc["uri"],
        "tests/lint/partial-to-unknown-move-type/bad.zrf"
    );
    let base = res["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );
    assert!(
        res["results"][0]["message"]["text"]
            .as_str()
            .unwrap()
            .ends_with("\nnote: did you mean `jump`?")
    );
}

/// The SARIF log of `dagaz lint FILE`, run from the project folder.
fn v_sarif_of(file: &Path) -> serde_json::Value {
    let out = dagaz()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["lint", "--format", "sarif"])
        .arg(file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap())
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// SARIF: a file name that needs percent-encoding, silenced findings reported with
/// `suppressions` (in-source and external), and the whole log valid against the SARIF 2.1.0
/// JSON schema when a validator is available (see `sarif_schema_validation`).
#[test]
fn sarif_uris_and_suppressions() {
    let dir = std::env::temp_dir().join(format!("dagaz-lint-sarif-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a b")).unwrap();
    let src = std::fs::read_to_string(fixture("unused-macro")).unwrap();
    let src = src.replace("(define jump", "; dagaz: allow(unused-macro)\n(define jump");
    let src = src.replace("(game", "(define hop (n n add))\n(game");
    std::fs::write(dir.join("a b/c%d é.zrf"), src).unwrap();
    let out = dagaz()
        .current_dir(&dir)
        .args([
            "lint",
            "--format",
            "sarif",
            "--allow",
            "unused-macro",
            "a b",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    let kinds: Vec<&str> = results
        .iter()
        .map(|r| r["suppressions"][0]["kind"].as_str().unwrap_or("none"))
        .collect();
    assert_eq!(kinds, ["inSource", "external"], "{v:#}");
    for r in results {
        let loc = &r["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(loc["uri"], "a%20b/c%25d%20%C3%A9.zrf");
        assert_eq!(loc["uriBaseId"], "%SRCROOT%");
    }
    sarif_schema_validation(&out.stdout);
    // A file outside the folder lint runs from gets an absolute file URI.
    let out = dagaz()
        .current_dir(dir.join("a b"))
        .args(["lint", "--format", "sarif"])
        .arg(fixture("unused-macro"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let loc = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert!(
        loc["uri"].as_str().unwrap().starts_with("file:///"),
        "{loc}"
    );
    assert!(loc.get("uriBaseId").is_none(), "{loc}");
    sarif_schema_validation(&out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Validates a SARIF log against the SARIF 2.1.0 JSON schema with Python's `jsonschema`.
/// The schema comes from the npm package `@microsoft/jest-sarif` (MIT), which ships
/// `lib/schemas/sarif-2.1.0-rtm.5.json`; `.ci/run` unpacks it and sets
/// `DAGAZ_SARIF_SCHEMA` to its path. Without the schema or the validator the check is
/// skipped with a message, unless `DAGAZ_REQUIRE_SARIF_SCHEMA=1` (CI) makes that a failure.
fn sarif_schema_validation(log: &[u8]) {
    let required = std::env::var("DAGAZ_REQUIRE_SARIF_SCHEMA").as_deref() == Ok("1");
    let skip = |why: &str| {
        assert!(!required, "SARIF schema validation required but {why}");
        eprintln!("skipping SARIF schema validation: {why}");
    };
    let Ok(schema) = std::env::var("DAGAZ_SARIF_SCHEMA") else {
        return skip("DAGAZ_SARIF_SCHEMA is not set");
    };
    if !Path::new(&schema).is_file() {
        return skip(&format!("{schema} does not exist"));
    }
    let script = "import json, sys, jsonschema\n\
        schema = json.load(open(sys.argv[1]))\n\
        log = json.load(sys.stdin)\n\
        errors = list(jsonschema.Draft4Validator(schema).iter_errors(log))\n\
        for e in errors: print(list(e.absolute_path), e.message)\n\
        sys.exit(1 if errors else 0)\n";
    let probe = std::process::Command::new("python3")
        .args(["-c", "import jsonschema"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        return skip("python3 with the jsonschema module is not available");
    }
    let mut child = std::process::Command::new("python3")
        .args(["-c", script, &schema])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(log).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "SARIF log does not match the schema:\n{}",
        String::from_utf8_lossy(&out.stdout)
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
