//! Tests of the contract: the docs list every word dagaz defines, and every word of Axiom's
//! runtime files (the checked-in lists, and opt-in the files themselves) is defined by
//! dagaz or left out with a reason that loading reports.

use super::{Absence, NOT_PROVIDED, absent, scan};
use crate::axiom::layer::LAYER;
use crate::axiom::natives::NATIVES;
use crate::axiom::{AxiomError, Program};
use crate::forth::{Limits, NoHost, PRELUDE, Vm};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Where dagaz defines a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Kernel,
    Host,
    Prelude,
    Layer,
}

fn new_words(vm: &Vm, before: &BTreeSet<u32>) -> Vec<String> {
    vm.words()
        .into_iter()
        .filter(|(_, nfa)| !before.contains(nfa))
        .map(|(n, _)| n)
        .collect()
}

fn nfas(vm: &Vm) -> BTreeSet<u32> {
    vm.words().into_iter().map(|(_, a)| a).collect()
}

/// Every word dagaz defines for an Axiom program that runs on its own prelude and layer,
/// with where: loaded as `Program::load` loads them (host words, prelude, layer, `[]`).
fn dagaz_words() -> BTreeMap<String, BTreeSet<Kind>> {
    let mut out: BTreeMap<String, BTreeSet<Kind>> = BTreeMap::new();
    let mut vm = Vm::new(Limits::default());
    for (n, _) in vm.words() {
        out.entry(n).or_default().insert(Kind::Kernel);
    }
    let mut seen = nfas(&vm);
    for n in NATIVES {
        vm.define_native(n).unwrap();
        out.entry(n.to_string()).or_default().insert(Kind::Host);
    }
    seen.extend(nfas(&vm));
    vm.interpret_str("<prelude>", PRELUDE, &mut NoHost).unwrap();
    for n in new_words(&vm, &seen) {
        out.entry(n).or_default().insert(Kind::Prelude);
    }
    seen = nfas(&vm);
    vm.interpret_str("<layer>", LAYER, &mut NoHost).unwrap();
    vm.interpret_str(
        "<extras>",
        ": [] <BUILDS CELLS ALLOT DOES> SWAP CELLS + ;",
        &mut NoHost,
    )
    .unwrap();
    for n in new_words(&vm, &seen) {
        out.entry(n).or_default().insert(Kind::Layer);
    }
    // Names the layer makes for its own tables' sake (a sample word of each kind).
    out.retain(|n, _| !n.starts_with("$sample-"));
    out
}

/// The checked-in word lists: (version, file, "defines" or "uses") → names.
fn runtime_lists() -> BTreeMap<(String, String, String), BTreeSet<String>> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/runtime-words.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out: BTreeMap<_, BTreeSet<String>> = BTreeMap::new();
    let mut key = None;
    for line in text.lines() {
        let line = line.trim();
        // Comments are `# …` (names such as `#Version` have no blank after the `#`).
        if line.is_empty() || line == "#" || line.starts_with("# ") {
            continue;
        }
        // A section header; names have no blanks (`[']` and `[]` are names).
        if let Some(h) = line
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .filter(|h| h.contains(' '))
        {
            let parts: Vec<&str> = h.split_whitespace().collect();
            assert_eq!(parts.len(), 3, "{line}");
            key = Some((
                parts[0].to_owned(),
                parts[1].to_owned(),
                parts[2].to_owned(),
            ));
            continue;
        }
        let k = key.clone().expect("a name before the first [section]");
        out.entry(k).or_default().insert(line.to_owned());
    }
    out
}

/// The names of docs/axiom.md's section "Words": the first cell of each table row.
fn documented_words() -> BTreeMap<String, String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/axiom.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let start = text
        .find("\n## Words\n")
        .expect("docs/axiom.md has a section Words");
    let rest = &text[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    let mut out = BTreeMap::new();
    for line in rest[..end].lines() {
        let Some(row) = line.strip_prefix("| `") else {
            continue;
        };
        let Some(close) = row.find("` |") else {
            panic!("a row whose first cell is not one code span: {line}");
        };
        let name = &row[..close];
        assert!(
            out.insert(name.to_owned(), line.to_owned()).is_none(),
            "`{name}` is listed twice"
        );
    }
    out
}

/// Every word dagaz defines is in the docs' table, and the table lists no other word.
#[test]
fn the_docs_list_every_word_dagaz_defines() {
    let defined = dagaz_words();
    let documented = documented_words();
    let missing: Vec<&String> = defined
        .keys()
        .filter(|n| !documented.contains_key(*n))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/axiom.md, section Words, lacks {} words: {missing:?}",
        missing.len()
    );
    let stale: Vec<&String> = documented
        .keys()
        .filter(|n| !defined.contains_key(*n))
        .collect();
    assert!(
        stale.is_empty(),
        "docs/axiom.md lists words dagaz does not define: {stale:?}"
    );
    // The words left out are in the docs too, with their reasons.
    let docs =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/axiom.md"))
            .unwrap();
    let left_out = &docs[docs
        .find("\n## Words dagaz leaves out\n")
        .expect("the section")..];
    for (names, _, why) in NOT_PROVIDED {
        assert!(
            left_out.contains(why),
            "docs/axiom.md lacks the reason: {why}"
        );
        for n in *names {
            assert!(
                left_out.contains(&format!("`{n}`")),
                "docs/axiom.md lacks `{n}`"
            );
        }
    }
    // The row says where the word comes from.
    for (name, kinds) in &defined {
        let row = &documented[name];
        for k in kinds {
            let tag = match k {
                Kind::Kernel => "kernel",
                Kind::Host => "host",
                Kind::Prelude => "prelude",
                Kind::Layer => "layer",
            };
            assert!(row.contains(tag), "`{name}` is a {tag} word: {row}");
        }
    }
}

/// `name` as dagaz has it: defined (spelled exactly so) or left out with a reason.
fn check(name: &str, defined: &BTreeMap<String, BTreeSet<Kind>>) -> Result<(), String> {
    if defined.contains_key(name) || absent(name).is_some() {
        Ok(())
    } else {
        Err(name.to_owned())
    }
}

#[test]
fn every_runtime_word_is_defined_or_left_out_with_a_reason() {
    let defined = dagaz_words();
    let lists = runtime_lists();
    let versions: BTreeSet<&str> = lists.keys().map(|(v, _, _)| v.as_str()).collect();
    assert_eq!(
        versions,
        BTreeSet::from(["1.40", "1.50", "1.51"]),
        "the versions that could be read"
    );
    let mut missing = BTreeSet::new();
    for ((version, file, _), names) in &lists {
        for n in names {
            if let Err(n) = check(n, &defined) {
                missing.insert(format!("{n} ({version} {file})"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "neither defined nor explained: {missing:?}"
    );
    // The table of left-out words names no word that dagaz defines, none twice, and only
    // words of the runtime files.
    let all: BTreeSet<&String> = lists.values().flatten().collect();
    let mut listed = BTreeSet::new();
    for (names, _, _) in NOT_PROVIDED {
        for n in *names {
            assert!(!defined.contains_key(*n), "`{n}` is defined and left out");
            assert!(listed.insert(*n), "`{n}` is left out twice");
            assert!(all.contains(&n.to_string()), "`{n}` is in no runtime file");
        }
    }
}

/// A program that uses a word dagaz leaves out fails to load with the reason.
#[test]
fn a_left_out_word_is_reported_with_its_reason() {
    let dir = crate::axiom::layer_tests::scratch_dir("dagaz-left-out");
    let src = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/capture/Capture.4th"),
    )
    .unwrap();
    for (word, kind) in [
        ("$CommaCells", Absence::Internal),
        ("FORGET", Absence::Unsupported),
    ] {
        let file = dir.join("LeftOut.4th");
        std::fs::write(&file, format!("{src}\n: use-it {word} ;\n")).unwrap();
        let Err(AxiomError::Forth(e)) = Program::load(&file, None) else {
            panic!("{word} loads");
        };
        let text = e.to_string();
        assert!(text.contains(&format!("undefined word `{word}`")), "{text}");
        let (a, why) = absent(word).unwrap();
        assert_eq!(a, kind);
        assert!(text.contains(why), "{text}");
        let d = e.to_diagnostic();
        assert!(d.notes.iter().any(|n| n.contains(why)), "{d:?}");
    }
    // `dagaz lint` says it too.
    let file = dir.join("LeftOut.4th");
    std::fs::write(&file, format!("{src}\n: use-it $CommaCells ;\n")).unwrap();
    let linted = crate::axiom::program::lint(&file, None, &[]);
    let (_, why) = absent("$CommaCells").unwrap();
    assert!(
        linted
            .diagnostics
            .iter()
            .any(|d| d.message.contains("$CommaCells") && d.notes.iter().any(|n| n.contains(why))),
        "{:?}",
        linted.diagnostics
    );
    // Any other undefined word says nothing more.
    let file = dir.join("LeftOut.4th");
    std::fs::write(&file, format!("{src}\n: use-it no-such-word ;\n")).unwrap();
    let Err(AxiomError::Forth(e)) = Program::load(&file, None) else {
        panic!("loads");
    };
    assert!(e.hint.is_none());
}

#[test]
fn scan_reads_definitions_and_uses() {
    let w = scan(
        "( a comment : not-this ) \\ nor : this\n\
         HEX FF CONSTANT #max DECIMAL 12 CONSTANT #twelve VARIABLE $v TIMER $t \
         : word ( x -- ) DUP 0. F+ .\" text : no\" ASCII a [ 2 CELLS ] LITERAL CREATE ; \
         : $pc S\" player-count\" ; DEFER later 4 [] cells",
    );
    let set = |s: &str| -> BTreeSet<String> { s.split_whitespace().map(String::from).collect() };
    assert_eq!(
        w.defined,
        set("#max #twelve $v $t word $pc player-count later cells")
    );
    assert_eq!(
        w.used,
        set(
            "HEX CONSTANT DECIMAL VARIABLE TIMER : DUP F+ .\" ASCII [ CELLS ] LITERAL CREATE ; S\" DEFER []"
        )
    );
}

/// Opt-in: the runtime files of a folder (`DAGAZ_AXIOM_RUNTIME`: `CORE.4TH` and
/// `axiom.4th`, any version) name only words dagaz defines or leaves out with a reason,
/// and the compat fixture game loads and counts its moves on them.
#[test]
#[ignore = "needs Axiom's runtime files: DAGAZ_AXIOM_RUNTIME=folder"]
fn runtime_files_words_are_defined_or_left_out() {
    let Ok(dir) = std::env::var("DAGAZ_AXIOM_RUNTIME") else {
        eprintln!("DAGAZ_AXIOM_RUNTIME is not set: nothing to run");
        return;
    };
    let dir = Path::new(&dir);
    let defined = dagaz_words();
    let mut missing = BTreeSet::new();
    let mut read = 0;
    for name in ["CORE.4TH", "axiom.4th"] {
        let Some(file) = crate::axiom::program::find_file_ci(dir, name) else {
            continue;
        };
        read += 1;
        let bytes = std::fs::read(&file).unwrap();
        let w = scan(&String::from_utf8_lossy(&bytes));
        for n in w.defined.iter().chain(&w.used) {
            if let Err(n) = check(n, &defined) {
                missing.insert(format!("{n} ({name})"));
            }
        }
    }
    assert!(read > 0, "no CORE.4TH or axiom.4th in {}", dir.display());
    assert!(
        missing.is_empty(),
        "neither defined nor explained: {missing:?}"
    );
    // The fixture game on those runtime files.
    let scratch = crate::axiom::layer_tests::scratch_dir("dagaz-runtime-files");
    for name in ["CORE.4TH", "axiom.4th"] {
        if let Some(file) = crate::axiom::program::find_file_ci(dir, name) {
            std::fs::copy(file, scratch.join(name)).unwrap();
        }
    }
    let game = scratch.join("Compat.4th");
    std::fs::copy(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/compat/Compat.4th"),
        &game,
    )
    .unwrap();
    let p = Program::load(&game, None).unwrap_or_else(|e| panic!("{e}"));
    assert!(p.runtime.0.is_some() || p.runtime.1.is_some());
    let mut g = crate::axiom::AxiomGame::new(&p, &p, 1).unwrap_or_else(|e| panic!("{e}"));
    let n = crate::axiom::perft::perft(&mut g, 2).unwrap_or_else(|e| panic!("{e}"));
    assert!(n > 0);
}

/// Prints dagaz's words with where they come from (run with `--ignored --nocapture` to
/// see what docs/axiom.md's table must list).
#[test]
#[ignore = "prints the word list"]
fn print_dagaz_words() {
    for (name, kinds) in dagaz_words() {
        println!("{name}\t{kinds:?}");
    }
}

/// Prints the words of the runtime files of `DAGAZ_AXIOM_RUNTIME` as sections of
/// `tests/fixtures/axiom/runtime-words.txt` (`DAGAZ_AXIOM_VERSION` names the version).
#[test]
#[ignore = "prints the word lists of runtime files"]
fn print_runtime_words() {
    let (Ok(dir), Ok(version)) = (
        std::env::var("DAGAZ_AXIOM_RUNTIME"),
        std::env::var("DAGAZ_AXIOM_VERSION"),
    ) else {
        return;
    };
    for name in ["CORE.4TH", "axiom.4th"] {
        let Some(file) = crate::axiom::program::find_file_ci(Path::new(&dir), name) else {
            continue;
        };
        let w = scan(&String::from_utf8_lossy(&std::fs::read(file).unwrap()));
        for (kind, names) in [("defines", &w.defined), ("uses", &w.used)] {
            println!("[{version} {name} {kind}]");
            for n in names {
                println!("{n}");
            }
        }
    }
}
