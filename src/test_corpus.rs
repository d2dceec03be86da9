//! The shared corpus for library tests: the `.zrf` files of `../shared/corpus/dagaz`
//! (beside the project), found once the same way by every test that walks them.

use std::path::{Path, PathBuf};

/// The `.zrf` files of the shared corpus, sorted (the 339-file corpus is expected).
pub(crate) fn files() -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d)
            .expect("the corpus beside the project")
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
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/dagaz"),
        &mut files,
    );
    files.sort();
    assert!(files.len() >= 300, "the 339-file corpus is expected");
    files
}
