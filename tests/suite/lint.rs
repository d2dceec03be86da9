//! `dagaz lint`: one fixture folder per rule (`lint-examples/NAME/`, and `NAME--case/` for
//! further cases of the same rule): `bad.zrf` must give
//! exactly `bad.expected` (concise format, a snapshot) and contain the rule's code;
//! `good.zrf` must lint clean; an optional `args` file adds flags (e.g. `--deep`) to both.
//! Set `DAGAZ_BLESS=1` to rewrite the snapshots after a
//! deliberate change, and review the diff.
//!
//! Also: output formats, suppressions, levels, `--explain`, the bundled games, and the
//! shared corpus against the checked-in lists of `tests/corpus/` (see
//! [`corpus_error_files_and_unplayable_games_match_the_lists`]).

use crate::common;

use assert_cmd::Command;
use dagaz::diagnostics::Severity;
use dagaz::engine::{Engine, MoveList};
use dagaz::expand::{Limits, load_path};
use dagaz::lint::{LintOptions, lint_loaded};
use dagaz::model::Model;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn dagaz() -> Command {
    Command::cargo_bin("dagaz").unwrap()
}

fn fixture_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("lint-examples");
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
                .join("lint-examples")
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
        .join("lint-examples")
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
        text.contains(",line=19,col=57,title=DZ0652 partial-to-unknown-move-type::"),
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
        "lint-examples/partial-to-unknown-move-type/bad.zrf"
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

/// What the corpus sweep found in one file: its first error-level lint finding, if any,
/// and the games (by list key) that cannot be played, with why.
struct CorpusFile {
    rel: String,
    lint_error: Option<String>,
    unplayable: Vec<(String, String)>,
}

/// Loads, lints and plays the start position of one corpus file (library calls only: no
/// process per file).
fn sweep_corpus_file(path: &Path) -> CorpusFile {
    let rel = common::corpus_rel(path);
    let loaded = load_path(path, &rel, Limits::default()).expect("corpus file readable");
    let mut unplayable = vec![];
    if loaded.has_errors() {
        let d = loaded.diagnostics.iter().find(|d| d.is_error()).unwrap();
        unplayable.push(("*".to_owned(), format!("load: {} {}", d.code.id, d.message)));
    } else {
        // Two games with one title are told apart by their rank among those with it.
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for g in &loaded.games {
            let n = seen.entry(g.title.as_str()).or_default();
            *n += 1;
            let key = if *n == 1 {
                g.title.clone()
            } else {
                format!("{} #{n}", g.title)
            };
            let why = match Model::compile(g) {
                Err(d) => {
                    let d = d.iter().find(|d| d.is_error()).unwrap();
                    Some(format!("compile: {} {}", d.code.id, d.message))
                }
                Ok(m) => {
                    let mut e = Engine::new(m);
                    let s = e.initial_state();
                    let mut list = MoveList::new();
                    e.legal_moves(&s, &mut list);
                    let runtime = e.take_diagnostics();
                    if let Some(d) = runtime.first() {
                        Some(format!("start position: {} {}", d.code.id, d.message))
                    } else if list.is_empty() && e.outcome(&s).is_none_or(|o| o.goal.is_none()) {
                        Some("start position: no legal move and no goal reached".to_owned())
                    } else {
                        None
                    }
                }
            };
            if let Some(w) = why {
                unplayable.push((key, w));
            }
        }
    }
    let report = lint_loaded(loaded, &rel, &LintOptions::default());
    let lint_error = report
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}", d.code.id, d.message));
    CorpusFile {
        rel,
        lint_error,
        unplayable,
    }
}

/// A `tests/corpus/NAME` list: key → explanation. A key is the fields of a line but the
/// last; the last field (tab-separated) says what is really wrong with the file.
fn read_corpus_list(name: &str, fields: usize) -> BTreeMap<String, String> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.splitn(fields, '\t').collect();
            assert_eq!(
                f.len(),
                fields,
                "{name}: bad line (want {fields} tab-separated fields): {l}"
            );
            (f[..fields - 1].join("\t"), f[fields - 1].trim().to_owned())
        })
        .collect()
}

/// Rewrites a list: the found keys, each with its old explanation when it had one, else
/// `TODO explain` and the finding.
fn write_corpus_list(
    name: &str,
    header: &str,
    found: &BTreeMap<String, String>,
    old: &BTreeMap<String, String>,
) {
    let mut text = header.to_owned();
    for (key, finding) in found {
        let why = old
            .get(key)
            .cloned()
            .unwrap_or_else(|| format!("TODO explain ({finding})"));
        text += &format!("{key}\t{why}\n");
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Problems of one list against what the sweep found: new members, members gone, entries
/// still to explain.
fn compare_corpus_list(
    name: &str,
    found: &BTreeMap<String, String>,
    listed: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut problems = vec![];
    for (k, finding) in found {
        if !listed.contains_key(k) {
            problems.push(format!("{name}: new member `{k}`: {finding}"));
        }
    }
    for k in listed.keys() {
        if !found.contains_key(k) {
            problems.push(format!(
                "{name}: `{k}` is fine now: remove its line from tests/corpus/{name} (or run with DAGAZ_BLESS=1)"
            ));
        }
    }
    for (k, why) in listed {
        if found.contains_key(k) && why.starts_with("TODO") {
            problems.push(format!("{name}: `{k}` is not explained yet: {why}"));
        }
    }
    problems
}

const LINT_ERRORS_HEADER: &str = "\
# Shared-corpus files with an error-level `dagaz lint` finding (default options), checked
# exactly by tests/suite/lint.rs (corpus_error_files_and_unplayable_games_match_the_lists).
# PATH<TAB>what is really wrong with the file (a bug in the file, or the dagaz limitation).
# Regenerate with DAGAZ_BLESS=1 (explanations of remaining entries are kept).
";

const UNPLAYABLE_HEADER: &str = "\
# Shared-corpus games that do not load, compile, or have a legal move in the start position
# (checked exactly by tests/suite/lint.rs, corpus_error_files_and_unplayable_games_match_the_lists).
# PATH<TAB>GAME TITLE (`*` = the whole file; `TITLE #2` = the second game with that title)
# <TAB>what is really wrong. Regenerate with DAGAZ_BLESS=1 (explanations are kept).
";

/// The shared corpus against two checked-in lists: `tests/corpus/lint-errors.txt`, the files
/// with an error-level lint finding, and `tests/corpus/unplayable.txt`, the games that do not
/// load, compile, or have a legal move in the start position (and have reached no goal).
///
/// The test fails when a list gains a member (a new false positive, or a regression of the
/// engine), when a member disappears (the list must stay exact, so that each line keeps
/// meaning "this file is known to be wrong, and why"), and when an entry is not explained.
/// Exactness is affordable because the lists regenerate themselves: after a change to lint
/// or the engine, run
///
/// ```text
/// DAGAZ_BLESS=1 cargo test --test suite lint::corpus_error_files
/// ```
///
/// which rewrites both lists, keeps the explanation of every entry that remains and writes
/// `TODO explain (finding)` for new ones; replace each TODO by one line saying what is
/// really wrong with the file (look at the file), then review the diff. Unlike
/// `tests/suite/engine.rs` (300 random plies per game, files that do not load skipped), this checks
/// only the start position, but of every game, including files that do not load.
#[test]
fn corpus_error_files_and_unplayable_games_match_the_lists() {
    let swept: Vec<CorpusFile> = common::corpus_files()
        .par_iter()
        .map(|p| sweep_corpus_file(p))
        .collect();
    let mut lint_found = BTreeMap::new();
    let mut play_found = BTreeMap::new();
    for f in &swept {
        if let Some(e) = &f.lint_error {
            lint_found.insert(f.rel.clone(), e.clone());
        }
        for (title, why) in &f.unplayable {
            play_found.insert(format!("{}\t{title}", f.rel), why.clone());
        }
    }
    let lint_listed = read_corpus_list("lint-errors.txt", 2);
    let play_listed = read_corpus_list("unplayable.txt", 3);
    if std::env::var("DAGAZ_BLESS").as_deref() == Ok("1") {
        write_corpus_list(
            "lint-errors.txt",
            LINT_ERRORS_HEADER,
            &lint_found,
            &lint_listed,
        );
        write_corpus_list(
            "unplayable.txt",
            UNPLAYABLE_HEADER,
            &play_found,
            &play_listed,
        );
        return;
    }
    let mut problems = compare_corpus_list("lint-errors.txt", &lint_found, &lint_listed);
    problems.extend(compare_corpus_list(
        "unplayable.txt",
        &play_found,
        &play_listed,
    ));
    assert!(
        problems.is_empty(),
        "{} problem(s); after a deliberate change run DAGAZ_BLESS=1 and explain new entries:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// A file of `define`s only is a macro library: linted alone it has no game and unused
/// macros by design, and nothing is reported. A file with nothing in it still is.
#[test]
fn macro_libraries_lint_clean() {
    let dir = std::env::temp_dir().join(format!("dagaz-library-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lib = dir.join("common.zrf");
    std::fs::write(
        &lib,
        "; shared moves\n(define step ($1 (verify empty?) add))\n",
    )
    .unwrap();
    let out = dagaz()
        .args(["lint", "--format", "concise"])
        .arg(&lib)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && !stdout.contains('['), "{stdout}");
    let empty = dir.join("empty.zrf");
    std::fs::write(&empty, "(version \"2.0\")\n").unwrap();
    let out = dagaz()
        .args(["lint", "--format", "concise"])
        .arg(&empty)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("no-game"));
    let _ = std::fs::remove_dir_all(&dir);
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

/// A variant that redefines its pieces and inherits `move-priorities` naming a move-type
/// only the base game's pieces have: a warning (the priority never matches), not an error;
/// a priority that no game of the file declares stays an error (a typo).
#[test]
fn inherited_priorities_are_warnings() {
    let dir = std::env::temp_dir().join(format!("dagaz-prio-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = r#"(game (title "G") (players A B) (turn-order A B) (move-priorities fast slow)
  (board (grid (start-rectangle 0 0 9 9) (dimensions ("a/b" (9 0)) ("2/1" (0 9))) (directions (n 0 -1))))
  (piece (name P) (moves (move-type fast) (n (verify empty?) add) (move-type slow) (n add)))
  (board-setup (A (P a1)) (B (P b1)))
  (loss-condition (A B) stalemated))
(variant (title "V") (piece (name P) (moves (move-type fast) (n (verify empty?) add))))
"#;
    let run = |text: &str| {
        let f = dir.join("prio.zrf");
        std::fs::write(&f, text).unwrap();
        let out = dagaz()
            .args(["lint", "--format", "concise"])
            .arg(&f)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = run(base);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("warning[DZ0607"), "{out}");
    let (code, out) =
        run(&base.replace("(move-priorities fast slow)", "(move-priorities fast slwo)"));
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("error[DZ0607"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dagaz lint` on an Axiom program (`.4th`): every kind of ForthScript finding with its
/// place, in the concise, JSON and SARIF formats; a folder lints its variant files; clean
/// programs exit 0, an unreadable one 2.
#[test]
fn forth_programs_lint_with_places_and_codes() {
    use predicates::prelude::PredicateBooleanExt;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let broken = "tests/fixtures/axiom/lint/Broken.4th";
    let expected = "\
tests/fixtures/axiom/lint/Broken.4th:4:18: error[DZ1030/forth-used-before-definition]: `extra` is used before its definition
    note: `extra` is defined later, at tests/fixtures/axiom/lint/Broken.4th:5:3
tests/fixtures/axiom/lint/Broken.4th:7:1: warning[DZ1032/forth-stack-effect]: the stack comment of `tripled` declares that it takes 1 and leaves 1 (net +0), but its body takes 1 and leaves 2 (net +1)
tests/fixtures/axiom/lint/Broken.4th:8:36: error[DZ1031/forth-unbalanced-structure]: `IF` is not closed by `THEN` or `ENDIF`
    note: the definition of `home-bonus` ends first
tests/fixtures/axiom/lint/Broken.4th:9:21: error[DZ1001/forth-undefined-word]: undefined word `my-homes`
    note: did you mean `my-home`?
tests/fixtures/axiom/lint/Broken.4th:10:23: error[DZ1031/forth-unbalanced-structure]: `THEN` without `IF`
    note: the word is ignored
tests/fixtures/axiom/lint/Broken.4th:11:1: error[DZ1031/forth-unbalanced-structure]: the definition of `unended` is not ended by `;`: `:` at line 12 starts another definition
";
    for arg in [broken, "tests/fixtures/axiom/lint"] {
        let out = dagaz()
            .current_dir(root)
            .args(["lint", "--format", "concise", arg])
            .args(["--include-dir", "tests/fixtures/axiom"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{arg}");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), expected, "{arg}");
    }
    let json = dagaz()
        .current_dir(root)
        .args(["lint", "--format", "json", broken])
        .args(["--include-dir", "tests/fixtures/axiom"])
        .output()
        .unwrap();
    assert_eq!(json.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let found: Vec<(String, u64, u64)> = doc["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(found[0], ("DZ1030".into(), 4, 18));
    assert_eq!(found.len(), 6, "{found:?}");
    assert_eq!(doc["summary"]["errors"], 5);
    assert_eq!(doc["summary"]["warnings"], 1);
    let sarif = dagaz()
        .current_dir(root)
        .args(["lint", "--format", "sarif", broken])
        .args(["--include-dir", "tests/fixtures/axiom"])
        .output()
        .unwrap();
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let run = &log["runs"][0];
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "forth-undefined-word",
            "forth-used-before-definition",
            "forth-unbalanced-structure",
            "forth-stack-effect"
        ]
    );
    let first = &run["results"][0];
    assert_eq!(
        first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        broken
    );
    assert_eq!(
        first["locations"][0]["physicalLocation"]["region"]["startLine"],
        4
    );
    // `--allow` takes the new codes; the fixture games are clean.
    dagaz()
        .current_dir(root)
        .args([
            "lint",
            "--allow",
            "forth-stack-effect",
            "--format",
            "concise",
            broken,
        ])
        .assert()
        .code(1)
        .stdout(predicates::str::contains("DZ1032").not());
    for clean in ["tests/fixtures/axiom/race", "tests/fixtures/axiom/capture"] {
        dagaz()
            .current_dir(root)
            .args(["lint", "--format", "concise", clean])
            .assert()
            .success()
            .stdout(predicates::str::contains("DZ10").not());
    }
    dagaz()
        .current_dir(root)
        .args(["lint", "tests/fixtures/axiom/lint/Missing.4th"])
        .assert()
        .code(2);
}

/// A part of an Axiom game (a file other `.4th` files `LOAD`) named on its own is linted as
/// a variant that loads it loads it, keeping its own findings: on its own it would be
/// mostly undefined words (published folders gave hundreds of false errors). A variant
/// missing a file is passed over; a part named with its variant, or loaded by two
/// variants, is reported once.
#[test]
fn forth_parts_lint_through_their_variants() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = common::tmp_in("lint", "forth-parts");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        root.join("tests/fixtures/axiom/race/Race.4th"),
        dir.join("Race.4th"),
    )
    .unwrap();
    let write = |n: &str, t: &str| std::fs::write(dir.join(n), t).unwrap();
    // `my-home` comes from Race.4th: undefined on its own, fine where it is loaded.
    write(
        "Extra.4th",
        ": bonus ( -- n ) my-home @ 2 * ;\n: broken ( -- ) nosuch ;\n",
    );
    write(
        "Game.4th",
        "LOAD Race.4th\nLOAD Extra.4th\n{players {player} White {first} {player} Black {first} {player} ?Dice {random} players}\n",
    );
    // Sorted first, but misses a file: it is passed over.
    write(
        "A-Game.4th",
        "LOAD Race.4th\nLOAD Missing.4th\nLOAD Extra.4th\n",
    );
    let run = |args: &[&str]| {
        let out = dagaz()
            .current_dir(&dir)
            .args(["lint", "--format", "concise"])
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, out, err) = run(&["Extra.4th"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(
        out, "Extra.4th:2:17: error[DZ1001/forth-undefined-word]: undefined word `nosuch`\n",
        "{err}"
    );
    assert!(
        err.contains("`Extra.4th` is a part that other files LOAD: checked as `Game.4th` loads it"),
        "{err}"
    );
    // With its variant: one report of the finding, in the variant's.
    let (code, out, err) = run(&["Extra.4th", "Game.4th"]);
    assert_eq!(code, Some(1));
    assert_eq!(out.matches("nosuch").count(), 1, "{out}");
    assert!(
        err.contains("its findings are in the report of `Game.4th`"),
        "{err}"
    );
    // Named with a variant that misses a file (whose findings stop before it): still its own.
    let (code, out, err) = run(&["A-Game.4th", "Extra.4th"]);
    assert_eq!(code, Some(1));
    assert!(out.contains("Extra.4th:2:17: error[DZ1001"), "{out}");
    assert!(err.contains("checked as `Game.4th` loads it"), "{err}");
    // A folder whose two variants load the part: its finding once.
    write("Game2.4th", "LOAD Race.4th\nLOAD Extra.4th\n");
    let (code, out, err) = run(&["."]);
    assert_eq!(code, Some(1));
    assert_eq!(out.matches("undefined word `nosuch`").count(), 1, "{out}");
    assert!(err.contains("1 finding(s) in files that several"), "{err}");
    std::fs::remove_file(dir.join("Game2.4th")).unwrap();
    // The base game, a part too, is clean as loaded.
    let (code, out, err) = run(&["Race.4th"]);
    assert_eq!((code, out.as_str()), (Some(0), ""), "{err}");
    // No variant loads it completely: on its own, said so.
    std::fs::remove_file(dir.join("Game.4th")).unwrap();
    let (code, out, err) = run(&["Extra.4th"]);
    assert_eq!(code, Some(1));
    assert!(out.contains("undefined word `my-home`"), "{out}");
    assert!(
        err.contains("each of `A-Game.4th` misses a file it LOADs"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn forth_findings_are_silenced_by_line_comments() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = "tests/fixtures/axiom/lint-allow/Allowed.4th";
    let out = dagaz()
        .current_dir(root)
        .args(["lint", "--format", "concise", file])
        .args(["--include-dir", "tests/fixtures/axiom"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let expected = "\
tests/fixtures/axiom/lint-allow/Allowed.4th:8:21: error[DZ1001/forth-undefined-word]: undefined word `my-homes`
    note: did you mean `my-home`?
tests/fixtures/axiom/lint-allow/Allowed.4th:9:16: warning[DZ0261/unused-suppression]: `allow(DZ1031)` silences nothing: no DZ1031 finding on line 10
tests/fixtures/axiom/lint-allow/Allowed.4th:11:16: warning[DZ0260/unknown-lint-code]: `DZ9999` is not a dagaz lint code: this suppression silences nothing
";
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    let summary = String::from_utf8(out.stderr).unwrap();
    assert!(summary.contains("2 suppressed"), "{summary}");
    // Without the comments the two silenced findings are reported.
    let text = std::fs::read_to_string(root.join(file)).unwrap();
    let dir = common::tmp_in("lint", "forth-allow");
    std::fs::create_dir_all(dir.join("race")).unwrap();
    std::fs::copy(
        root.join("tests/fixtures/axiom/race/Race.4th"),
        dir.join("race/Race.4th"),
    )
    .unwrap();
    let bare = dir.join("sub");
    std::fs::create_dir_all(&bare).unwrap();
    let stripped: String = text
        .lines()
        .map(|l| l.split("\\ dagaz:").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(bare.join("Allowed.4th"), stripped).unwrap();
    let out = dagaz()
        .args(["lint", "--format", "concise"])
        .arg(bare.join("Allowed.4th"))
        .arg("--include-dir")
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("DZ1030"), "{text}");
    assert!(text.contains("DZ1032"), "{text}");
}

#[test]
fn a_rules_file_with_an_axiom_engine_is_linted_with_its_programs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = dagaz()
        .current_dir(root)
        .args([
            "lint",
            "--format",
            "json",
            "tests/fixtures/axiom/race/race.zrf",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut files: Vec<String> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap().replace('\\', "/"))
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "tests/fixtures/axiom/race/Race-[first].4th",
            "tests/fixtures/axiom/race/Race-[random].4th",
            "tests/fixtures/axiom/race/Race.4th",
            "tests/fixtures/axiom/race/race.zrf",
        ]
    );
    // A folder with the rules file and its programs lints each program once.
    let out = dagaz()
        .current_dir(root)
        .args(["lint", "--format", "json", "tests/fixtures/axiom/race"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<&str> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    let mut unique = files.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), files.len(), "{files:?}");
}

#[test]
fn an_axiom_program_without_pieces_is_warned_about() {
    use predicates::prelude::PredicateBooleanExt;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = "tests/fixtures/axiom/no-pieces/NoPieces.4th";
    dagaz()
        .current_dir(root)
        .args(["lint", "--format", "concise", file])
        .assert()
        .success()
        .stdout(predicates::str::contains(format!(
            "{file}:1:1: warning[DZ1033/axiom-no-pieces]: the program declares no pieces"
        )));
    dagaz()
        .current_dir(root)
        .args(["games", file])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "declares no pieces: no side can ever move (DZ1033)",
        ));
    // A program with pieces gets neither.
    dagaz()
        .current_dir(root)
        .args(["games", "tests/fixtures/axiom/capture/Capture.4th"])
        .assert()
        .success()
        .stderr(predicates::str::contains("DZ1033").not());
}
