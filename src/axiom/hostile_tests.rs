//! Hostile Axiom programs: each case is a program a stranger's rules repository could hold,
//! and each must end with its documented error code, never a panic, never a read outside the
//! project's folders, within the step and byte budgets of the runtime.

use super::AxiomError;
use super::program::{Program, lint, zrf_engine_variant};
use crate::forth::ForthErrorKind;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/axiom")
        .join(rel)
}

/// A fresh folder for one test: `<tmp>/<name>-<pid>/project` holds the race fixture's game,
/// and `<tmp>/<name>-<pid>/secret.4th` lies outside it.
fn project(name: &str) -> (PathBuf, PathBuf) {
    let top = std::env::temp_dir().join(format!("dagaz-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&top);
    let dir = top.join("project");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture("race/Race.4th"), dir.join("Race.4th")).unwrap();
    std::fs::write(top.join("secret.4th"), "SECRET-TOKEN-42\n").unwrap();
    (top, dir)
}

/// The code of a load failure.
fn code_of(e: &AxiomError) -> String {
    e.code().id.to_owned()
}

fn load_err(path: &Path) -> AxiomError {
    match Program::load(path, None) {
        Ok(_) => panic!("`{}` loaded", path.display()),
        Err(e) => e,
    }
}

#[test]
fn load_of_an_absolute_path_a_climb_or_a_foreign_file_is_refused_without_reading_it() {
    let (top, dir) = project("load");
    let cases = [
        ("Abs.4th", "LOAD /proc/self/environ\n"),
        ("Abs2.4th", "LOAD /etc/passwd.4th\n"),
        ("Climb.4th", "LOAD ../secret.4th\n"),
        ("Climb2.4th", "LOAD sub/../../secret.4th\n"),
        ("Win.4th", "LOAD C:\\secret.4th\n"),
        ("NotForth.4th", "LOAD notes.txt\n"),
    ];
    std::fs::write(dir.join("notes.txt"), "PRIVATE-NOTES\n").unwrap();
    for (file, text) in cases {
        let path = dir.join(file);
        std::fs::write(&path, format!("{text}LOAD Race.4th\n")).unwrap();
        let e = load_err(&path);
        assert_eq!(code_of(&e), "DZ1016", "{file}: {e}");
        let shown = e.to_string();
        assert!(
            !shown.contains("SECRET") && !shown.contains("PRIVATE") && !shown.contains("root:"),
            "{file}: {shown}"
        );
        // Lint reports the same refusal, and quotes nothing of the file.
        let l = lint(&path, None, &[]);
        assert!(
            l.diagnostics.iter().any(|d| d.code.id == "DZ1016"),
            "{file}: {:?}",
            l.diagnostics
        );
        for d in &l.diagnostics {
            assert!(!d.message.contains("SECRET"), "{file}: {}", d.message);
        }
    }
    let _ = std::fs::remove_dir_all(&top);
}

#[test]
fn links_that_leave_the_folder_are_refused_for_load_and_the_runtime_files() {
    let (top, dir) = project("links");
    std::os::unix::fs::symlink(top.join("secret.4th"), dir.join("Link.4th")).unwrap();
    let variant = dir.join("Game.4th");
    std::fs::write(&variant, "LOAD Link.4th\nLOAD Race.4th\n").unwrap();
    let e = load_err(&variant);
    assert_eq!(code_of(&e), "DZ1016", "{e}");
    assert!(!e.to_string().contains("SECRET"), "{e}");
    // The same link under another case of its name (found as on Windows).
    std::fs::write(&variant, "LOAD LINK.4TH\nLOAD Race.4th\n").unwrap();
    assert_eq!(code_of(&load_err(&variant)), "DZ1016");

    // CORE.4TH and axiom.4th as links out of the folder.
    for runtime in ["CORE.4TH", "axiom.4th"] {
        let (top2, dir2) = project(&format!("runtime-{}", runtime.len()));
        std::os::unix::fs::symlink(top2.join("secret.4th"), dir2.join(runtime)).unwrap();
        let v = dir2.join("Game.4th");
        std::fs::write(&v, "LOAD Race.4th\n").unwrap();
        let e = load_err(&v);
        assert_eq!(code_of(&e), "DZ1016", "{runtime}: {e}");
        assert!(!e.to_string().contains("SECRET"), "{e}");
        let _ = std::fs::remove_dir_all(&top2);
    }
    // A link that stays inside the folder is followed.
    std::fs::write(&variant, "LOAD Inside.4th\n").unwrap();
    std::os::unix::fs::symlink(dir.join("Race.4th"), dir.join("Inside.4th")).unwrap();
    Program::load(&variant, None).expect("a link inside the folder");
    let _ = std::fs::remove_dir_all(&top);
}

#[test]
fn load_reads_the_engine_folder_but_nothing_beyond_it() {
    let (top, dir) = project("engine-load");
    let engine = top.join("engine");
    std::fs::create_dir_all(&engine).unwrap();
    std::fs::rename(dir.join("Race.4th"), engine.join("Race.4th")).unwrap();
    let variant = dir.join("Game.4th");
    std::fs::write(&variant, "LOAD Race.4th\n").unwrap();
    // Without the engine folder, Race.4th is nowhere in the project.
    assert_eq!(code_of(&load_err(&variant)), "DZ1011");
    Program::load(&variant, Some(&engine)).expect("the engine folder is a root");
    std::fs::write(&variant, "LOAD ../secret.4th\n").unwrap();
    match Program::load(&variant, Some(&engine)) {
        Err(e) => assert_eq!(code_of(&e), "DZ1016", "{e}"),
        Ok(_) => panic!("loaded a file beside the engine folder"),
    }
    let _ = std::fs::remove_dir_all(&top);
}

/// The game form of a rules file's text (its first `(game …)`).
fn game_form(text: &str) -> crate::syntax::Node {
    let l = crate::expand::load_text("g.zrf", text, crate::expand::Limits::default());
    l.default_game().expect("a game").form.clone()
}

#[test]
fn a_zrf_engine_path_and_variant_title_stay_inside_the_rules_folder() {
    let (top, dir) = project("engine-path");
    let outside = top.join("evil");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::copy(fixture("race/Race-[random].4th"), outside.join("G.4th")).unwrap();
    std::fs::copy(fixture("race/Race.4th"), outside.join("Race.4th")).unwrap();
    let zrf = dir.join("g.zrf");
    let form = |engine: &str| {
        game_form(&format!(
            "(game (title \"G\") (engine \"{engine}\") (players White Black))"
        ))
    };
    let refused = |r: Option<Result<(PathBuf, PathBuf), AxiomError>>| match r {
        Some(Err(e)) => code_of(&e),
        Some(Ok((p, _))) => panic!("found {}", p.display()),
        None => panic!("no engine"),
    };
    let abs = format!("{}/axiom.dll", outside.display());
    assert_eq!(
        refused(zrf_engine_variant(&form(&abs), "G", &zrf, &[])),
        "DZ1016"
    );
    let climb = form("../evil/axiom.dll");
    assert_eq!(
        refused(zrf_engine_variant(&climb, "G", &zrf, &[])),
        "DZ1016"
    );
    // With the folder that holds both given as an include folder, the published layout
    // (`Rules/x.zrf` naming `../Axiom/G/axiom.dll`) works.
    let found = zrf_engine_variant(&climb, "G", &zrf, std::slice::from_ref(&top));
    let (file, engine_dir) = found.unwrap().expect("inside an --include-dir");
    assert_eq!(file.file_name().unwrap(), "G.4th");
    Program::load(&file, Some(&engine_dir)).expect("the variant loads");
    // A title that climbs out is no file name.
    let here = form("axiom.dll");
    let e = refused(zrf_engine_variant(&here, "../evil/G", &zrf, &[]));
    assert_eq!(e, "DZ1016");
    let _ = std::fs::remove_dir_all(&top);
}

#[test]
fn refusals_are_their_own_kind() {
    let (top, dir) = project("kind");
    let v = dir.join("V.4th");
    std::fs::write(&v, "LOAD /etc/hostname.4th\n").unwrap();
    match load_err(&v) {
        AxiomError::Forth(e) => {
            assert!(matches!(e.kind, ForthErrorKind::LoadRefused(_)), "{e}");
            let place = e.place.as_ref().expect("the LOAD's place");
            assert_eq!(place.span.line, 1, "{e}");
        }
        e => panic!("{e}"),
    }
    let _ = std::fs::remove_dir_all(&top);
}

/// The codes and places (file, line) of what lint reports for `path`.
fn lint_findings(path: &Path) -> Vec<(String, Option<(String, u32)>)> {
    let l = lint(path, None, &[]);
    l.diagnostics
        .iter()
        .map(|d| {
            let place = d.span.and_then(|s| {
                ((s.file.0 as usize) < l.sources.len()).then(|| {
                    let f = l.sources.get(s.file);
                    let name = f.path.file_name().unwrap().to_string_lossy().into_owned();
                    (name, s.line)
                })
            });
            (d.code.id.to_owned(), place)
        })
        .collect()
}

#[test]
fn lint_fails_where_loading_fails_and_at_the_same_place() {
    let (top, dir) = project("lint-parity");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    // A fatal error while loading: lint names its file and line, as perft does.
    let full = write("Full.4th", "LOAD Race.4th\n: f BEGIN 0 , AGAIN ;\nf\n");
    assert_eq!(code_of(&load_err(&full)), "DZ1013");
    let found = lint_findings(&full);
    assert!(
        found.contains(&("DZ1013".into(), Some(("Full.4th".into(), 2)))),
        "{found:?}"
    );
    // The VM's own pseudo execution tokens are no words, in lint as in a game.
    let exec = write("Exec.4th", "LOAD Race.4th\n76 EXECUTE\n");
    assert_eq!(code_of(&load_err(&exec)), "DZ1008");
    let found = lint_findings(&exec);
    assert!(
        found.contains(&("DZ1008".into(), Some(("Exec.4th".into(), 2)))),
        "{found:?}"
    );
    // A program that loads but makes no game (an empty file): what perft refuses.
    let empty = write("Empty.4th", "");
    assert_eq!(code_of(&load_err(&empty)), "DZ1021");
    assert!(lint_findings(&empty).iter().any(|f| f.0 == "DZ1021"));
    // An error in the runtime files stops loading: lint reports it though it does not
    // check those files.
    let core = format!("{}\nLOAD CORE.4TH\n", crate::forth::PRELUDE);
    write("CORE.4TH", &core);
    let variant = write("Game.4th", "LOAD Race.4th\n");
    assert_eq!(code_of(&load_err(&variant)), "DZ1011");
    let found = lint_findings(&variant);
    assert!(
        found
            .iter()
            .any(|f| f.0 == "DZ1011" && f.1.as_ref().is_some_and(|p| p.0 == "CORE.4TH")),
        "{found:?}"
    );
    let _ = std::fs::remove_dir_all(&top);
}
