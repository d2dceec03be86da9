//! Hostile Axiom programs: each case is a program a stranger's rules repository could hold,
//! and each must end with its documented error code, never a panic, never a read outside the
//! project's folders, within the step and byte budgets of the runtime.

use super::AxiomError;
use super::program::{LoadOptions, Program, lint, zrf_engine_variant};
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
    // Loading fails with `code`, and lint reports it at line 2 of the same file.
    let same_place = |name: &str, text: &str, code: &str| {
        let path = write(name, text);
        assert_eq!(code_of(&load_err(&path)), code, "{name}");
        let found = lint_findings(&path);
        assert!(
            found.contains(&(code.into(), Some((name.into(), 2)))),
            "{name}: {found:?}"
        );
    };
    same_place(
        "Full.4th",
        "LOAD Race.4th\n: f BEGIN 0 , AGAIN ;\nf\n",
        "DZ1013",
    );
    // The VM's own pseudo execution tokens are no words, in lint as in a game.
    same_place("Exec.4th", "LOAD Race.4th\n76 EXECUTE\n", "DZ1008");
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

/// Tokens a hostile or unlucky program may hold: control flow out of place, `LOAD`s that
/// leave the folder, bulk words with large counts, stores into the dictionary's headers,
/// pseudo execution tokens, huge numbers.
const HOSTILE_TOKENS: &[&str] = &[
    "LEAVE",
    ": hostile-leave LEAVE ; hostile-leave",
    ": hostile-fill BEGIN HERE 1000000 0 FILL 0 UNTIL ; hostile-fill",
    "I",
    "J",
    ">R",
    "R>",
    "EXIT",
    ";",
    ":",
    "DOES>",
    "BEGIN",
    "AGAIN",
    "UNTIL",
    "LOAD /etc/passwd",
    "LOAD /proc/self/environ",
    "LOAD ../../secret.4th",
    "HERE 1000000 0 FILL",
    "HERE HERE 1000000 CMOVE",
    "HERE 1000000 TYPE",
    "76 EXECUTE",
    "72 EXECUTE",
    "36 @ 36 @ 8 + !",
    "4000000 ALLOT",
    "-4000000 ALLOT",
    "repetition-push-position",
    "2147483647",
    "-2147483648",
    "EXECUTE",
    "@",
    "!",
    "DROP",
    "DUP",
    "0",
    "(",
];

/// One mutation of `src` (kind `kind`), drawn from `rng`: edits of whole tokens, the
/// spacing and line ends (which `\` comments depend on) kept.
fn mutate_forth(src: &str, kind: usize, rng: &mut crate::rng::Rng) -> String {
    let spans: Vec<(usize, usize)> = {
        let b = src.as_bytes();
        let mut out = vec![];
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            out.push((start, i));
        }
        out
    };
    if spans.is_empty() {
        return src.to_owned();
    }
    let (s, e) = spans[rng.below(spans.len())];
    let token = &src[s..e];
    match kind {
        0 => src[..s].to_owned(),
        1 => format!("{}{}", &src[..s], &src[e..]),
        2 => format!("{}{token} {token}{}", &src[..s], &src[e..]),
        3 => {
            let t = HOSTILE_TOKENS[rng.below(HOSTILE_TOKENS.len())];
            // Half the time at the start of a line, where the top level mostly is.
            let line_starts: Vec<usize> = spans
                .iter()
                .map(|sp| sp.0)
                .filter(|&at| at == 0 || src.as_bytes()[at - 1] == b'\n')
                .collect();
            let at = if rng.below(2) == 0 && !line_starts.is_empty() {
                line_starts[rng.below(line_starts.len())]
            } else {
                s
            };
            format!("{}{t}\n{}", &src[..at], &src[at..])
        }
        4 => {
            let (s2, e2) = spans[rng.below(spans.len())];
            let (a, b) = if s2 < s {
                ((s2, e2), (s, e))
            } else {
                ((s, e), (s2, e2))
            };
            if a == b {
                return src.to_owned();
            }
            format!(
                "{}{}{}{}{}",
                &src[..a.0],
                &src[b.0..b.1],
                &src[a.1..b.0],
                &src[a.0..a.1],
                &src[b.1..]
            )
        }
        _ => {
            let huge = ["99999999999", "-1", "4000000", "0"][rng.below(4)];
            if token.parse::<i64>().is_ok() {
                format!("{}{huge}{}", &src[..s], &src[e..])
            } else {
                format!("{}{huge} {token}{}", &src[..s], &src[e..])
            }
        }
    }
}

/// Mutated programs: each of `cases` mutations of the race and capture programs (the game
/// file or the variant file) loads and plays up to 30 random plies under small step
/// budgets. None may panic; every failure is a coded error; nothing may read outside the
/// folder (the secret beside it is never quoted).
fn mutated_programs(cases: usize) {
    use crate::ai::game::Game;
    use crate::rng::Rng;
    let (top, _) = project("mutants");
    let sources = [
        ("race", "Race.4th", "Race-[random].4th"),
        ("capture", "Capture.4th", "Capture.4th"),
    ];
    let opts = LoadOptions {
        load_steps: 2_000_000,
        turn_steps: 2_000_000,
        ..LoadOptions::default()
    };
    let mut loaded = 0;
    let mut errors = std::collections::BTreeMap::<String, usize>::new();
    for case in 0..cases {
        let mut rng = Rng::derive(0xF047, case as u64);
        let (folder, game, variant) = sources[case % sources.len()];
        let dir = top.join("project").join(format!("case-{}", case % 4));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for f in [game, variant] {
            std::fs::copy(fixture(&format!("{folder}/{f}")), dir.join(f)).unwrap();
        }
        // Mostly the game file, sometimes the variant file.
        let target = if rng.below(4) == 0 { variant } else { game };
        let text = std::fs::read_to_string(dir.join(target)).unwrap();
        let kind = rng.below(6);
        std::fs::write(dir.join(target), mutate_forth(&text, kind, &mut rng)).unwrap();
        let path = dir.join(variant);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let p = match Program::load_with(&path, None, &opts) {
                Ok(p) => p,
                Err(e) => return Err(e.to_string()),
            };
            let mut g = match super::AxiomGame::new(&p, &p, case as u64) {
                Ok(g) => g,
                Err(e) => return Err(e.to_string()),
            };
            let mut moves = Default::default();
            for _ in 0..30 {
                g.legal_moves(&mut moves);
                if let Some(e) = g.take_error() {
                    return Err(e.to_string());
                }
                if g.outcome(&moves).is_some() {
                    break;
                }
                let n = super::AxiomGame::num_moves(&moves);
                if n == 0 {
                    break;
                }
                g.make(&moves, rng.below(n));
            }
            Ok(())
        }));
        match outcome {
            Err(_) => panic!("case {case} (kind {kind} on {folder}/{target}) panicked"),
            Ok(Ok(())) => loaded += 1,
            Ok(Err(msg)) => {
                assert!(!msg.contains("SECRET"), "case {case}: {msg}");
                let code = msg
                    .split("error[")
                    .nth(1)
                    .and_then(|r| r.get(..6))
                    .unwrap_or_else(|| panic!("case {case}: an error without a code: {msg}"));
                assert!(code.starts_with("DZ10"), "case {case}: {msg}");
                *errors.entry(code.to_owned()).or_default() += 1;
            }
        }
    }
    eprintln!("{cases} mutated programs: {loaded} played, errors by code {errors:?}");
    assert!(loaded * 5 >= cases, "only {loaded} of {cases} played");
    let _ = std::fs::remove_dir_all(&top);
}

#[test]
fn mutated_programs_end_in_coded_errors_within_their_budgets() {
    mutated_programs(1000);
}

/// The long run: `cargo test --release --lib mutated_programs_long_run -- --ignored`.
#[test]
#[ignore]
fn mutated_programs_long_run() {
    mutated_programs(20_000);
}

#[test]
fn lint_deep_plays_the_program_and_reports_a_failing_move_word_at_its_place() {
    let (top, dir) = project("lint-deep");
    let race = std::fs::read_to_string(dir.join("Race.4th")).unwrap();
    let broken = race.replace(
        ": entered ( -- ) my-waiting -- ;",
        ": entered ( -- ) BEGIN 0 UNTIL ;",
    );
    assert_ne!(race, broken);
    std::fs::write(dir.join("Race.4th"), broken).unwrap();
    let variant = dir.join("Game.4th");
    std::fs::write(
        &variant,
        "LOAD Race.4th\n{players {player} White {random} {player} Black {random} {player} ?Dice {random} players}\n",
    )
    .unwrap();
    let mut opts = crate::lint::LintOptions::default();
    let plain = crate::lint::lint_forth_path(&variant, "Game.4th", &opts).unwrap();
    assert!(plain.diagnostics.is_empty(), "{:?}", plain.diagnostics);
    opts.deep = Some(crate::lint::deep::DeepOptions::default());
    let deep = crate::lint::lint_forth_path(&variant, "Game.4th", &opts).unwrap();
    let d = deep
        .diagnostics
        .iter()
        .find(|d| d.code.id == "DZ1007")
        .unwrap_or_else(|| panic!("{:?}", deep.diagnostics));
    let span = d.span.expect("a place");
    assert!(deep.sources.get(span.file).path.ends_with("Race.4th"));
    assert!(d.notes.iter().any(|n| n.contains("lint --deep")), "{d:?}");
    let _ = std::fs::remove_dir_all(&top);
}

/// What held before the attacks above were closed, kept as one table: each program, put
/// at the end of the race game's file, ends in its code (never a panic, within the load
/// budget) or, for the last ones, loads.
#[test]
fn the_contained_failures_stay_contained() {
    let (top, dir) = project("held");
    let big_token = "x".repeat(10 << 20);
    let garbage: String = (0..4096u32)
        .map(|i| char::from_u32(0x80 + (i * 7919) % 0x700).unwrap())
        .collect();
    let cases: Vec<(&str, String, &str)> = vec![
        ("load-loop", ": f BEGIN 0 UNTIL ; f".into(), "DZ1007"),
        ("recursion", ": rec RECURSE ; rec".into(), "DZ1004"),
        ("overflow", ": o BEGIN 1 AGAIN ; o".into(), "DZ1003"),
        ("underflow", "DROP DROP DROP".into(), "DZ1002"),
        ("huge-allot", "2000000000 ALLOT 1 ,".into(), "DZ1013"),
        ("negative-allot", "-2000000000 ALLOT 1 ,".into(), "DZ1013"),
        ("store-out", "1 -8 !".into(), "DZ1005"),
        ("store-far", "1 2000000000 !".into(), "DZ1005"),
        ("execute-garbage", "123456789 EXECUTE".into(), "DZ1008"),
        ("load-self", "LOAD load-self.4th".into(), "DZ1011"),
        ("load-dev-zero", "LOAD /dev/zero".into(), "DZ1016"),
        ("big-token", big_token, "DZ1001"),
        ("garbage", garbage, "DZ1001"),
        // Kernel words redefined: the program's own business, it still loads.
        ("kernel-redefined", ": DUP 1 ; : + 2 ;".into(), ""),
    ];
    let race = std::fs::read_to_string(dir.join("Race.4th")).unwrap();
    for (name, program, code) in cases {
        let file = dir.join(format!("{name}.4th"));
        std::fs::write(&file, format!("{race}\n{program}\n")).unwrap();
        let opts = LoadOptions {
            load_steps: 5_000_000,
            ..LoadOptions::default()
        };
        let got = std::panic::catch_unwind(|| Program::load_with(&file, None, &opts))
            .unwrap_or_else(|_| panic!("{name} panicked"));
        match (got, code) {
            (Ok(_), "") => {}
            (Ok(_), _) => panic!("{name} loaded"),
            (Err(e), "") => panic!("{name}: {e}"),
            (Err(e), _) => assert_eq!(code_of(&e), code, "{name}: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&top);
}

#[test]
fn a_folder_scan_reads_no_more_of_a_file_than_a_load_does() {
    let (top, dir) = project("scan");
    std::fs::copy(
        fixture("race/Race-[random].4th"),
        dir.join("Race-[random].4th"),
    )
    .unwrap();
    // A sparse file far past the cap: the scan must skip it, not read it whole.
    let big = std::fs::File::create(dir.join("Huge.4th")).unwrap();
    big.set_len(1 << 34).unwrap();
    let (programs, skipped) = Program::variants_in(&dir).unwrap();
    assert_eq!(programs.len(), 2, "Race.4th and its variant");
    let huge = skipped
        .iter()
        .find(|s| s.name == "Huge.4th")
        .expect("skipped");
    assert!(huge.reason.contains("16 MiB"), "{}", huge.reason);
    let _ = std::fs::remove_dir_all(&top);
}
