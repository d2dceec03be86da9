//! The syntax and expansion layers over the whole corpus, and the `convert` command.
//!
//! - every corpus file converts at both stages to XML, JSON and ZRF, except the files listed
//!   in `tests/fixtures/malformed.txt`, which must give exactly the listed diagnostic;
//! - round trips: parse → print ZRF → parse gives the same tree (both stages), and
//!   XML → tree gives the same tree;
//! - the XSLT stylesheets reproduce the Rust JSON and ZRF byte for byte (needs `xsltproc`;
//!   required when `DAGAZ_REQUIRE_XSLTPROC=1`, as `.ci/run` sets it);
//! - CLI behaviour: exit codes, diagnostics with positions, atomic output, variants.

use crate::common;

use assert_cmd::Command;
use common::{corpus_files, corpus_rel};
use dagaz::convert::{TreeDoc, json::to_json, xml::to_xml, xml_read::read_tree_xml};
use dagaz::expand::{Limits, load_path};
use dagaz::source::FileId;
use dagaz::syntax::{parse_text, print_forms, tree::same_forms};
use rayon::prelude::*;
use std::collections::BTreeMap;

fn malformed() -> BTreeMap<(String, String), String> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/malformed.txt"
    ))
    .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                (f[0].to_owned(), f[1].to_owned()),
                format!("{} {}", f[2], f[3]),
            )
        })
        .collect()
}

fn docs(l: &dagaz::expand::Loaded) -> (Vec<dagaz::syntax::Node>, Vec<Option<String>>) {
    (
        l.games.iter().map(|g| g.form.clone()).collect(),
        l.file_names(),
    )
}

#[test]
fn corpus_converts_and_round_trips_at_both_stages() {
    let expected = malformed();
    let failures: Vec<String> = corpus_files()
        .par_iter()
        .flat_map_iter(|path| {
            let rel = corpus_rel(path);
            let mut errs = vec![];
            let loaded = load_path(path, &rel, Limits::default()).unwrap();
            // Syntax stage: errors are only parse errors of the main file.
            let first_error = loaded.diagnostics.iter().find(|d| d.is_error());
            let stage =
                if loaded.syntax.is_empty() || first_error.is_some_and(|d| d.code.id < "DZ0200") {
                    "syntax"
                } else {
                    "expanded"
                };
            let got = first_error.map(|d| {
                let s = d.span.unwrap_or_default();
                format!("{} {}:{}", d.code.id, s.line, s.col)
            });
            let want = expected.get(&(rel.clone(), stage.to_owned()));
            if got.as_ref() != want {
                errs.push(format!(
                    "{rel} ({stage}): got {got:?}, fixture says {want:?}"
                ));
                return errs;
            }
            if got.is_some() {
                return errs;
            }
            // Syntax stage: XML/JSON/ZRF, and the round trips.
            let names = loaded.file_names();
            let doc = TreeDoc {
                stage: "syntax",
                source: &rel,
                forms: &loaded.syntax,
                file_names: &names,
            };
            let xml = to_xml(&doc);
            assert!(to_json(&doc).ends_with("]}\n"));
            match read_tree_xml(&xml, FileId(0)) {
                Ok(t) if same_forms(&t.forms, &loaded.syntax) => {}
                Ok(_) => errs.push(format!("{rel}: XML does not read back to the same tree")),
                Err(e) => errs.push(format!("{rel}: XML not readable: {}", e.message)),
            }
            let printed = print_forms(&loaded.syntax);
            let again = parse_text(&printed, FileId(0));
            if !again.diagnostics.is_empty() || !same_forms(&again.forms, &loaded.syntax) {
                errs.push(format!(
                    "{rel}: printed ZRF does not parse back to the same tree"
                ));
            }
            // Expanded stage.
            if loaded.games.is_empty() && !rel.ends_with("common.zrf") {
                errs.push(format!("{rel}: no playable game"));
            }
            let (forms, names) = docs(&loaded);
            let doc = TreeDoc {
                stage: "expanded",
                source: &rel,
                forms: &forms,
                file_names: &names,
            };
            let xml = to_xml(&doc);
            assert!(to_json(&doc).ends_with("]}\n"));
            if !read_tree_xml(&xml, FileId(0)).is_ok_and(|t| same_forms(&t.forms, &forms)) {
                errs.push(format!("{rel}: expanded XML does not read back"));
            }
            let again = parse_text(&print_forms(&forms), FileId(0));
            if !again.diagnostics.is_empty() || !same_forms(&again.forms, &forms) {
                errs.push(format!(
                    "{rel}: expanded ZRF does not parse back to the same tree"
                ));
            }
            errs
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn xsltproc_available() -> bool {
    std::process::Command::new("xsltproc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn xslt_stylesheets_match_rust_output_over_the_corpus() {
    if !xsltproc_available() {
        assert!(
            std::env::var("DAGAZ_REQUIRE_XSLTPROC").as_deref() != Ok("1"),
            "xsltproc is required (DAGAZ_REQUIRE_XSLTPROC=1) but not installed"
        );
        eprintln!("skipped: xsltproc is not installed (apt-get install xsltproc)");
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let root_dir = root;
    let tmp = std::env::temp_dir().join(format!("dagaz-xslt-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let files = corpus_files();
    let failures: Vec<String> = files
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, path)| {
            let rel = corpus_rel(path);
            let loaded = load_path(path, &rel, Limits::default()).unwrap();
            if loaded.has_errors() {
                return vec![];
            }
            let (forms, names) = docs(&loaded);
            let mut errs = vec![];
            for (stage, forms) in [("syntax", &loaded.syntax), ("expanded", &forms)] {
                let doc = TreeDoc {
                    stage,
                    source: &rel,
                    forms,
                    file_names: &names,
                };
                let xml_path = tmp.join(format!("{i}-{stage}.xml"));
                std::fs::write(&xml_path, to_xml(&doc)).unwrap();
                for (sheet, want) in [
                    ("tree-to-json.xsl", to_json(&doc)),
                    ("tree-to-zrf.xsl", print_forms(forms)),
                ] {
                    let out = std::process::Command::new("xsltproc")
                        .arg(format!("{root}/xslt-equivalents/{sheet}"))
                        .arg(&xml_path)
                        .output()
                        .unwrap();
                    if !out.status.success() || out.stdout != want.as_bytes() {
                        errs.push(format!("{rel} {stage} {sheet}: XSLT output differs"));
                    }
                }
                let _ = std::fs::remove_file(&xml_path);
            }
            // Model stage: the file's default game, when it compiles.
            let models: Vec<_> = loaded
                .default_game()
                .and_then(|g| dagaz::model::Model::compile(g).ok())
                .into_iter()
                .collect();
            if !models.is_empty() {
                let root = dagaz::convert::model::models_element(&rel, &models);
                let xml_path = tmp.join(format!("{i}-model.xml"));
                std::fs::write(&xml_path, dagaz::convert::element::to_xml(&root)).unwrap();
                let out = std::process::Command::new("xsltproc")
                    .arg(format!("{root_dir}/xslt-equivalents/model-to-json.xsl"))
                    .arg(&xml_path)
                    .output()
                    .unwrap();
                if !out.status.success()
                    || out.stdout != dagaz::convert::element::to_json(&root).as_bytes()
                {
                    errs.push(format!(
                        "{rel} model model-to-json.xsl: XSLT output differs"
                    ));
                }
                let _ = std::fs::remove_file(&xml_path);
            }
            errs
        })
        .collect();
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn dagaz() -> Command {
    Command::cargo_bin("dagaz").unwrap()
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dagaz-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn syntax_error_exits_1_with_position_and_snippet() {
    let p = temp_file("bad.zrf", "(game\n  (title \"x\")\n  (players A B)\n");
    let out = dagaz()
        .args(["convert"])
        .arg(&p)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error[DZ0101]"), "{err}");
    assert!(err.contains("bad.zrf:1:1"), "{err}");
    assert!(err.contains("1 | (game") && err.contains("  | ^"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn json_diagnostics_are_data() {
    let p = temp_file("bad2.zrf", "(a))\n");
    let out = dagaz()
        .args(["convert", "--format", "json"])
        .arg(&p)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let line = String::from_utf8_lossy(&out.stderr)
        .lines()
        .next()
        .unwrap()
        .to_owned();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["code"], "DZ0102");
    assert_eq!(v["name"], "unmatched-close");
    assert_eq!(
        (v["line"].as_u64(), v["column"].as_u64()),
        (Some(1), Some(4))
    );
}

#[test]
fn missing_file_and_bad_flags_exit_2() {
    dagaz()
        .args(["convert", "/nonexistent/x.zrf"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("DZ0001"));
    dagaz()
        .args(["convert", "--to", "yaml", "x.zrf"])
        .assert()
        .code(2);
    dagaz().args(["frobnicate"]).assert().code(2);
}

#[test]
fn include_errors_point_at_the_include() {
    let p = temp_file(
        "inc.zrf",
        "(include \"missing.zrf\")\n(game (title \"g\"))\n",
    );
    dagaz()
        .args(["convert", "--stage", "expanded"])
        .arg(&p)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("DZ0201").and(predicates::str::contains("inc.zrf:1:1")));
    let a = temp_file("a.zrf", "(include \"a.zrf\")\n");
    dagaz()
        .args(["convert", "--stage", "expanded"])
        .arg(&a)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("DZ0202"));
}

use predicates::prelude::*;

#[test]
fn output_file_and_variant_selection() {
    let p = temp_file(
        "v.zrf",
        "(define side (players $1 $2))\n(game (title \"Base\") (side A B))\n(variant (title \"Ur [simple]\") (side C D))\n",
    );
    let out = p.with_file_name("out.zrf");
    dagaz()
        .args([
            "convert",
            "--stage",
            "expanded",
            "--variant",
            "ur-simple",
            "--to",
            "zrf",
            "-o",
        ])
        .arg(&out)
        .arg(&p)
        .assert()
        .success()
        .stdout("");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "(game\n  (title \"Ur [simple]\")\n  (players C D))\n"
    );
    dagaz()
        .args(["convert", "--stage", "expanded", "--variant", "ur-simpel"])
        .arg(&p)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "did you mean: ur-simple?\n  = note: available: base, ur-simple",
        ));
}

#[test]
fn xml_input_converts_back() {
    let p = temp_file("x.zrf", "; c\n(game (title \"a & b\") \"x\r\ny\")\n");
    let xml = dagaz().args(["convert"]).arg(&p).output().unwrap().stdout;
    let x = p.with_file_name("x.xml");
    std::fs::write(&x, xml).unwrap();
    let zrf = dagaz()
        .args(["convert", "--to", "zrf"])
        .arg(&x)
        .output()
        .unwrap()
        .stdout;
    let direct = dagaz()
        .args(["convert", "--to", "zrf"])
        .arg(&p)
        .output()
        .unwrap()
        .stdout;
    assert_eq!(zrf, direct);
    assert!(String::from_utf8_lossy(&zrf).contains("\"x\r\ny\""));
}

/// The bytecode a piece's moves compile to (`convert --stage model`), as a snapshot:
/// `UPDATE_EXPECT=1 cargo test --test suite convert::bytecode` rewrites the expectations after an
/// intended change of the compiler; review the diff.
fn check_bytecode(piece: &str, expect: expect_test::Expect) {
    let text = format!(
        "(game (title \"T\") (players White Black) (turn-order White Black)
           (board (grid (start-rectangle 0 0 10 10)
                        (dimensions (\"a/b/c\" (10 0)) (\"3/2/1\" (0 10)))
                        (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)))
                  (zone (name far) (players White Black) (positions a3 b3 c3)))
           (board-setup (White (Man a1)) (Black (Man c3)))
           (piece (name Man) {piece})
           (piece (name King))
           (loss-condition (White Black) stalemated))"
    );
    let loaded = dagaz::expand::load_text("t.zrf", &text, Limits::default());
    let model = dagaz::Model::compile(loaded.default_game().unwrap()).unwrap();
    expect.assert_eq(&dagaz::convert::model::listing(&model));
}

#[test]
fn bytecode_of_a_step_and_a_slide() {
    check_bytecode(
        "(moves ((verify empty?) n add) (w (while empty? add w)))",
        expect_test::expect![[r#"
            0: Test { pred: Empty, target: Here, negate: false }
            1: Verify
            2: Step(0)
            3: Add { types: 0, ntypes: 0, copy: false, partial: NONE }
            4: End
            5: Step(3)
            6: Loop
            7: Test { pred: Empty, target: Here, negate: false }
            8: IfFalse(12)
            9: Add { types: 0, ntypes: 0, copy: false, partial: NONE }
            10: Step(3)
            11: Goto(6)
            12: End
        "#]],
    );
}

#[test]
fn bytecode_of_a_capture_a_promotion_and_a_drop() {
    check_bytecode(
        "(moves (n (verify enemy?) (if (in-zone? far) (add King) else add)))
         (drops ((verify empty?) add))",
        expect_test::expect![[r#"
            0: Step(0)
            1: Test { pred: Enemy, target: Here, negate: false }
            2: Verify
            3: Test { pred: InZone(0), target: Here, negate: false }
            4: IfFalse(7)
            5: Add { types: 0, ntypes: 1, copy: false, partial: NONE }
            6: Goto(8)
            7: Add { types: 1, ntypes: 0, copy: false, partial: NONE }
            8: End
            9: Test { pred: Empty, target: Here, negate: false }
            10: Verify
            11: Add { types: 1, ntypes: 0, copy: false, partial: NONE }
            12: End
        "#]],
    );
}

#[test]
fn bytecode_of_marks_flags_and_a_partial_move() {
    check_bytecode(
        "(moves (mark e (verify enemy?) capture back (set-flag done true) (if (flag? done) (add-partial)) ) (e (create) add))",
        expect_test::expect![[r#"
            0: Mark
            1: Step(1)
            2: Test { pred: Enemy, target: Here, negate: false }
            3: Verify
            4: Capture(Here)
            5: Back
            6: Test { pred: True, target: Here, negate: false }
            7: SetFlag(0)
            8: Test { pred: Flag(0), target: Here, negate: false }
            9: IfFalse(11)
            10: Add { types: 0, ntypes: 0, copy: false, partial: 0 }
            11: End
            12: Step(1)
            13: Create { owner: NONE, ty: NONE, target: Here }
            14: Add { types: 0, ntypes: 0, copy: false, partial: NONE }
            15: End
        "#]],
    );
}

/// Board coordinates for drawing: a grid's `start-rectangle` moved by each dimension's offset
/// times the label's index, and explicit `positions` rectangles; kill-positions keep the
/// others in place, and a position without a layout has none.
#[test]
fn positions_carry_their_screen_rectangles() {
    let m = dagaz::load_game("tic-tac-toe").unwrap();
    let rect = |m: &dagaz::Model, p: &str| m.position_rects[m.position_index[p].index()];
    assert_eq!(rect(&m, "a3"), Some([4, 4, 104, 104]));
    assert_eq!(rect(&m, "c3"), Some([204, 4, 304, 104]));
    assert_eq!(rect(&m, "b1"), Some([104, 204, 204, 304]));
    let text = "(game (title \"T\") (players W B) (turn-order W B)
        (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b/c\" (10 0)) (\"1\" (0 10)))
                     (directions (e 1 0)))
               (positions (x 100 100 120 120) (y 130 100 150 120))
               (links e (x y))
               (kill-positions a1))
        (board-setup (W (Man b1)))
        (piece (name Man) (moves (e (verify empty?) add)))
        (draw-condition (W B) stalemated))";
    let loaded = dagaz::expand::load_text("t.zrf", text, Limits::default());
    let m = dagaz::Model::compile(loaded.default_game().unwrap()).unwrap();
    assert_eq!(m.positions.len(), 4, "{:?}", m.positions);
    assert_eq!(rect(&m, "b1"), Some([10, 0, 20, 10]));
    assert_eq!(rect(&m, "c1"), Some([20, 0, 30, 10]));
    assert_eq!(rect(&m, "y"), Some([130, 100, 150, 120]));
}

/// `--to axiom`: the files on stdout after their header lines (the fixture's expected
/// listing), or into a folder (made if missing, the same texts); findings on stderr; exit 1
/// for an error finding, 2 for flags that do not apply.
#[test]
fn axiom_declarations_to_stdout_or_a_folder() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/convert");
    let zrf = fixtures.join("tiny-race.zrf");
    let expected = std::fs::read_to_string(fixtures.join("tiny-race.expected")).unwrap();
    dagaz()
        .args(["convert", "--to", "axiom"])
        .arg(&zrf)
        .assert()
        .success()
        .stdout(expected.clone())
        .stderr(predicates::str::contains(
            "warning[DZ1101]: piece `Runner`: 3 move blocks to write by hand",
        ));
    let dir = std::env::temp_dir().join(format!("dagaz-test-{}-axiom/out", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dagaz()
        .args(["convert", "--to", "axiom", "-o"])
        .arg(&dir)
        .arg(&zrf)
        .assert()
        .success()
        .stdout("");
    let mut listing = String::new();
    for (i, name) in [
        "Tiny-Race.4th",
        "Tiny-Race-[random].4th",
        "Tiny-Race-[small].4th",
    ]
    .iter()
    .enumerate()
    {
        if i > 0 {
            listing.push('\n');
        }
        listing += &format!("==> {name} <==\n");
        listing += &std::fs::read_to_string(dir.join(name)).unwrap();
    }
    assert_eq!(listing, expected);
    // A name two kinds share is an error: the files are still written.
    let clash = temp_file(
        "clash.zrf",
        "(game (title \"Clash\") (players A B) (board (positions (King 0 0 1 1))) (piece (name King)))",
    );
    dagaz()
        .args(["convert", "--to", "axiom", "-o"])
        .arg(&dir)
        .arg(&clash)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("error[DZ1104]"));
    assert!(dir.join("Clash.4th").is_file());
    for bad in [
        &["--variant", "tiny-race-random"][..],
        &["--stage", "expanded"][..],
    ] {
        dagaz()
            .args(["convert", "--to", "axiom"])
            .args(bad)
            .arg(&zrf)
            .assert()
            .code(2);
    }
    dagaz()
        .args(["convert", "--to", "axiom", "-o"])
        .arg(&zrf)
        .arg(&zrf)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("is not a folder"));
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}
