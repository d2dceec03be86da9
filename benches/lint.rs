//! Lint time per file over the corpus, and on a synthetic macro-heavy file.
//!
//! Run with `cargo bench --bench lint`. Reads every `.zrf` under `../shared/corpus/dagaz`
//! (or the folder in `DAGAZ_CORPUS`) and prints, single thread:
//! - a reference measured in the same run: the syntax stage (decode and parse) of each file;
//! - lint without `--deep` of each file (best of several runs), the slowest files, and the
//!   whole corpus, with the ratio to the reference;
//! - the largest macro expansion in the corpus, in bytes (as the expansion budget counts them)
//!   and in nodes;
//! - lint of a synthetic file generated here: many piece types whose moves are built by
//!   nested macros (about 160,000 expanded nodes), with and without 8 variants.
//!
//! Goal (issue 8): no file over 0.3 s. Memory is measured with the CLI (docs/performance.md).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::files;

/// Runs `f` at least `runs` times and for at least `min`; returns the best time of one run.
fn best_of(runs: usize, min: Duration, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut check = 0;
    let mut n = 0;
    while n < runs || start.elapsed() < min {
        let t = Instant::now();
        check = std::hint::black_box(f());
        best = best.min(t.elapsed());
        n += 1;
    }
    (best, check)
}

/// A shogi-like file: `pieces` piece types, each with steps, slides and jumps in eight
/// directions written through three levels of macros, and `variants` variants.
pub fn synthetic(pieces: usize, variants: usize) -> String {
    let dirs = ["n", "s", "e", "w", "ne", "nw", "se", "sw"];
    let opp = ["s", "n", "w", "e", "sw", "se", "nw", "ne"];
    let mut o = String::new();
    o += "(define promote-or-add (if (in-zone? promotion-zone) (add $2) else add))\n";
    o += "(define step ($1 (verify not-friend?) (promote-or-add $1 $2)))\n";
    o += "(define slide ($1 (while empty? (promote-or-add $1 $2) $1) (verify not-friend?) (promote-or-add $1 $2)))\n";
    o += "(define jump ($1 $1 (verify not-friend?) (promote-or-add $1 $2)))\n";
    o += "(define all-dirs";
    for d in dirs {
        o += &format!(" ($1 {d} $2)");
    }
    o += ")\n";
    o += "(define piece-def (piece (name $1) (help \"$1: a piece\") (image White \"images/w$1.bmp\" Black \"images/b$1.bmp\")\n  (moves (all-dirs step $2) (all-dirs slide $2) (all-dirs jump $2))))\n";
    o += "(game (title \"Synthetic\") (players White Black) (turn-order White Black)\n";
    o += " (board (grid (start-rectangle 0 0 30 30)\n";
    o += "  (dimensions (\"a/b/c/d/e/f/g/h/i/j/k/l\" (30 0)) (\"12/11/10/9/8/7/6/5/4/3/2/1\" (0 30)))\n";
    o += "  (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))\n";
    o += "  (symmetry Black";
    for (d, r) in dirs.iter().zip(opp) {
        o += &format!(" ({d} {r})");
    }
    o += ")\n";
    o += "  (zone (name promotion-zone) (players White) (positions a12 b12 c12 d12 e12 f12))\n";
    o += "  (zone (name promotion-zone) (players Black) (positions a1 b1 c1 d1 e1 f1)))\n";
    o += " (board-setup (White (P1 a1 b1 c1 d1) (P2 e1 f1)) (Black (P1 a12 b12 c12) (P2 e12 f12)))\n";
    for i in 1..=pieces {
        o += &format!(
            " (piece-def P{i} P{})\n",
            if i < pieces { i + 1 } else { 1 }
        );
    }
    o += " (loss-condition (White Black) (checkmated P1)))\n";
    for v in 0..variants {
        o += &format!(
            "(variant (title \"Variant {v}\") (board-setup (White (P{p} a1)) (Black (P{p} a12))))\n",
            p = v + 1
        );
    }
    o
}

fn lint_bytes(name: &str, bytes: &[u8]) -> usize {
    let opts = dagaz::lint::LintOptions::default();
    let loaded = dagaz::expand::load_bytes(name, bytes, Default::default());
    dagaz::lint::lint_loaded(loaded, name, &opts)
        .diagnostics
        .len()
}

fn main() {
    let dir = std::env::var("DAGAZ_CORPUS").unwrap_or_else(|_| "../shared/corpus/dagaz".into());
    let mut paths = vec![];
    files(Path::new(&dir), &mut paths);
    paths.sort();
    let data: Vec<(String, Vec<u8>)> = paths
        .iter()
        .filter_map(|p| Some((p.to_string_lossy().into_owned(), std::fs::read(p).ok()?)))
        .collect();
    if data.is_empty() {
        eprintln!("no corpus files under {dir}");
        return;
    }
    let few = Duration::from_millis(30);

    let mut per_file: Vec<(f64, f64, &str)> = vec![];
    let (mut big_bytes, mut big_nodes, mut big_name) = (0usize, 0usize, "");
    let (mut ref_total, mut lint_total) = (0.0, 0.0);
    for (name, bytes) in &data {
        let (t_ref, _) = best_of(3, few, || {
            let mut m = dagaz::source::SourceMap::new();
            let mut w = vec![];
            let id = m.add_bytes(PathBuf::from(name), String::new(), bytes, &mut w);
            dagaz::syntax::parse(&m, id).forms.len()
        });
        let (t_lint, _) = best_of(3, few, || lint_bytes(name, bytes));
        let l = dagaz::expand::load_bytes(name, bytes, Default::default());
        if l.expansion_size.0 > big_bytes {
            (big_bytes, big_nodes, big_name) = (l.expansion_size.0, l.expansion_size.1, name);
        }
        ref_total += t_ref.as_secs_f64();
        lint_total += t_lint.as_secs_f64();
        per_file.push((t_lint.as_secs_f64(), t_ref.as_secs_f64(), name));
    }
    per_file.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!(
        "corpus: {} files; reference (syntax stage) {:.3} s, lint {:.3} s in all ({:.1}x the reference)",
        data.len(),
        ref_total,
        lint_total,
        lint_total / ref_total
    );
    println!("slowest files to lint (best of 3):");
    for (t, r, name) in per_file.iter().take(5) {
        println!("  {:8.2} ms  ({:5.1}x its parse)  {name}", t * 1e3, t / r);
    }
    println!(
        "largest expansion: {big_bytes} bytes, {big_nodes} nodes ({big_name}); budget {} bytes",
        dagaz::expand::macros::DEFAULT_MAX_BYTES
    );
    let worst = per_file.first().map_or(0.0, |f| f.0);
    println!(
        "goal: every file < 0.3 s: {}",
        if worst < 0.3 { "met" } else { "NOT met" }
    );

    for variants in [0, 8] {
        let text = synthetic(250, variants);
        let (t_ref, _) = best_of(3, few, || {
            let mut m = dagaz::source::SourceMap::new();
            let mut w = vec![];
            let id = m.add_bytes(
                PathBuf::from("s.zrf"),
                String::new(),
                text.as_bytes(),
                &mut w,
            );
            dagaz::syntax::parse(&m, id).forms.len()
        });
        let (t, findings) = best_of(3, few, || lint_bytes("synthetic.zrf", text.as_bytes()));
        let l = dagaz::expand::load_bytes("s.zrf", text.as_bytes(), Default::default());
        println!(
            "synthetic, 250 piece types, {variants} variants: {} bytes of text, {} expanded nodes, lint {:.1} ms ({:.0}x its parse), {findings} findings",
            text.len(),
            l.expansion_size.1,
            t.as_secs_f64() * 1e3,
            t.as_secs_f64() / t_ref.as_secs_f64()
        );
    }
}
