//! Parse and expansion throughput over the corpus, single thread.
//!
//! Run with `cargo bench --bench parse`. Reads every `.zrf` under `../shared/corpus/dagaz`
//! (or the folder in `DAGAZ_CORPUS`), then times, per pass over all files:
//! - a reference in the same run: a byte scan that counts parentheses (the cost of just
//!   touching every byte, the ceiling for any parser);
//! - the syntax stage: decode and parse to the lossless tree;
//! - the expanded stage: parse, includes, macro expansion and variant merging;
//! - lint without `--deep` (expansion, model compilation, lint checks) of every file.
//!
//! Prints MB/s for each and the parser's ratio to the reference. Goal: syntax ≥ 20 MB/s.

use std::path::PathBuf;
use std::time::{Duration, Instant};

mod common;
use common::files;

/// Runs `f` repeatedly for at least `min` and returns the best time of one run.
fn best_of(min: Duration, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut check = 0;
    while start.elapsed() < min || best == Duration::MAX {
        let t = Instant::now();
        check = std::hint::black_box(f());
        best = best.min(t.elapsed());
    }
    (best, check)
}

fn main() {
    let dir = std::env::var("DAGAZ_CORPUS").unwrap_or_else(|_| "../shared/corpus/dagaz".into());
    let mut paths = vec![];
    files(std::path::Path::new(&dir), &mut paths);
    paths.sort();
    let data: Vec<(PathBuf, Vec<u8>)> = paths
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    let total: usize = data.iter().map(|d| d.1.len()).sum();
    if total == 0 {
        eprintln!("no corpus files under {dir}");
        return;
    }
    let mb = total as f64 / 1e6;
    let min = Duration::from_secs(3);

    let (t_ref, _) = best_of(min, || {
        data.iter()
            .map(|(_, b)| b.iter().filter(|&&c| c == b'(' || c == b')').count())
            .sum()
    });
    let (t_syn, nodes) = best_of(min, || {
        let mut n = 0;
        for (p, b) in &data {
            let mut m = dagaz::source::SourceMap::new();
            let mut w = vec![];
            let id = m.add_bytes(p.clone(), String::new(), b, &mut w);
            n += dagaz::syntax::parse(&m, id).forms.len();
        }
        n
    });
    let (t_exp, games) = best_of(min, || {
        data.iter()
            .map(|(p, _)| {
                dagaz::expand::load_path(p, "", Default::default()).map_or(0, |l| l.games.len())
            })
            .sum()
    });
    let (t_lint, findings) = best_of(min, || {
        let opts = dagaz::lint::LintOptions::default();
        data.iter()
            .map(|(p, _)| dagaz::lint::lint_path(p, "", &opts).map_or(0, |r| r.diagnostics.len()))
            .sum()
    });
    let rate = |t: Duration| mb / t.as_secs_f64();
    println!(
        "corpus: {} files, {:.2} MB ({} top-level forms, {} games)",
        data.len(),
        mb,
        nodes,
        games
    );
    println!("reference byte scan : {:8.1} MB/s", rate(t_ref));
    println!(
        "syntax stage        : {:8.1} MB/s  ({:.3}x the byte scan)",
        rate(t_syn),
        t_ref.as_secs_f64() / t_syn.as_secs_f64()
    );
    println!(
        "expanded stage      : {:8.1} MB/s  (includes file reads)",
        rate(t_exp)
    );
    println!(
        "lint (no --deep)    : {:8.3} s for the whole corpus, {findings} findings (goal < 2 s: {})",
        t_lint.as_secs_f64(),
        if t_lint.as_secs_f64() < 2.0 {
            "met"
        } else {
            "NOT met"
        }
    );
    println!(
        "goal: syntax >= 20 MB/s: {}",
        if rate(t_syn) >= 20.0 {
            "met"
        } else {
            "NOT met"
        }
    );
}
