//! Keeps the layers of ARCHITECTURE.md: every `crate::` path of the library (its tests
//! aside) names a module on an earlier line of the declared order than its own.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The declared order: the text block after `<!-- layers -->` in ARCHITECTURE.md, one line
/// per rank, modules separated by spaces.
fn declared_ranks() -> HashMap<String, usize> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let after = text
        .split("<!-- layers -->")
        .nth(1)
        .expect("ARCHITECTURE.md declares its layers after `<!-- layers -->`");
    let block = after
        .split("```")
        .nth(1)
        .expect("the layers are a fenced block");
    let mut ranks = HashMap::new();
    for (rank, line) in block
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .enumerate()
    {
        for m in line.split_whitespace() {
            assert!(
                ranks.insert(m.to_owned(), rank).is_none(),
                "`{m}` declared twice"
            );
        }
    }
    ranks
}

/// The library's source files (the binary's aside), with their top-level module.
fn sources() -> Vec<(PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = vec![];
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                if path != src.join("bin") {
                    stack.push(path);
                }
                continue;
            }
            let rel = path.strip_prefix(&src).expect("under src");
            let first = rel.components().next().expect("a component");
            let top = first
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_owned();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let is_test =
                name.as_deref().is_some_and(|n| n.ends_with("tests.rs")) || top == "test_corpus";
            if path.extension().is_some_and(|e| e == "rs") && top != "lib" && !is_test {
                out.push((path, top));
            }
        }
    }
    out.sort();
    out
}

/// The top-level modules a file's code names through `crate::` (comments and the file's
/// `#[cfg(test)] mod` aside).
fn used_modules(text: &str) -> Vec<(usize, String)> {
    let code = ["#[cfg(test)]\nmod ", "#[cfg(test)]\npub(crate) mod "]
        .iter()
        .filter_map(|m| text.find(m))
        .min()
        .map_or(text, |i| &text[..i]);
    let mut out = vec![];
    for (n, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push((n + 1, name));
            }
        }
    }
    out
}

#[test]
fn every_module_uses_only_earlier_layers() {
    let ranks = declared_ranks();
    let mut wrong = vec![];
    for (path, top) in sources() {
        let Some(&own) = ranks.get(&top) else {
            wrong.push(format!(
                "{}: module `{top}` is not in ARCHITECTURE.md's layers",
                path.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&path).expect("a source file");
        for (line, used) in used_modules(&text) {
            if used == top {
                continue;
            }
            match ranks.get(&used) {
                Some(&r) if r < own => {}
                Some(_) => wrong.push(format!(
                    "{}:{line}: `{top}` uses `{used}`, which is not on an earlier line of the layers",
                    path.display()
                )),
                None => wrong.push(format!(
                    "{}:{line}: `crate::{used}` is not in ARCHITECTURE.md's layers",
                    path.display()
                )),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_reader_finds_edges_and_skips_comments_and_tests() {
    let text = "use crate::engine::X;\n// crate::stats in a comment\nfn f() { crate::ai::g(); }\n#[cfg(test)]\nmod tests { use crate::lint; }\n";
    let found: Vec<String> = used_modules(text).into_iter().map(|(_, m)| m).collect();
    assert_eq!(found, ["engine", "ai"]);
}
