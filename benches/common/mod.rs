//! Helpers shared by the benchmarks.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every `.zrf` file under `dir`, recursively (unsorted).
pub fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "zrf") {
            out.push(p);
        }
    }
}
