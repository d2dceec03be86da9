//! Helpers shared by the integration tests: corpus discovery.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The corpus folder, `../shared/corpus/dagaz` from the project root.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/dagaz")
}

/// Every `.zrf` of the corpus, sorted. Panics when the corpus is missing: the tests are
/// meant to run with `../shared` beside the project.
pub fn corpus_files() -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d)
            .expect("corpus folder readable")
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "zrf") {
                out.push(p);
            }
        }
    }
    let mut v = vec![];
    walk(&corpus_dir(), &mut v);
    v.sort();
    assert!(
        v.len() >= 300,
        "expected the 339-file corpus at {}",
        corpus_dir().display()
    );
    v
}

/// Path relative to the corpus folder, with `/`.
pub fn corpus_rel(p: &Path) -> String {
    p.strip_prefix(corpus_dir())
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}
