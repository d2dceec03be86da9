//! Embeds every rules file of `games/` (and its `.perft` suite) into the binary, so that
//! bundled games work from any folder. Generates `$OUT_DIR/bundled_games.rs`.

use std::fmt::Write as _;

fn main() {
    println!("cargo:rerun-if-changed=games");
    let mut entries: Vec<_> = std::fs::read_dir("games")
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    let mut out = String::from(
        "/// (name, rules text, perft suite text) of every bundled game.\npub static BUNDLED: &[(&str, &str, &str)] = &[\n",
    );
    for p in entries {
        if p.extension().and_then(|e| e.to_str()) != Some("zrf") {
            continue;
        }
        println!("cargo:rerun-if-changed={}", p.display());
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        let abs = std::fs::canonicalize(&p).unwrap();
        let perft = p.with_extension("perft");
        let perft_expr = if perft.exists() {
            format!("include_str!({:?})", std::fs::canonicalize(&perft).unwrap())
        } else {
            "\"\"".to_owned()
        };
        let _ = writeln!(out, "    ({stem:?}, include_str!({abs:?}), {perft_expr}),");
    }
    out.push_str("];\n");
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("bundled_games.rs");
    std::fs::write(dest, out).unwrap();
}
