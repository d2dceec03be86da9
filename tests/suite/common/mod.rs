//! Helpers shared by the integration tests: corpus discovery, the binary, temporary files,
//! game records and autoplay runs.
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

/// The `dagaz` binary of this build.
pub fn dagaz() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("dagaz").unwrap()
}

/// A path in this test process's temporary folder (`tag` keeps test binaries apart).
pub fn tmp_in(tag: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dagaz-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// The game records of a `--games-out` file, without their wall-clock times.
pub fn records(p: &Path) -> Vec<dagaz::tournament::record::GameRecord> {
    use dagaz::tournament::record::{GameRecord, read_records};
    let r = read_records(&std::fs::read_to_string(p).unwrap(), "test").unwrap();
    r.iter().map(GameRecord::without_time).collect()
}

/// Runs `cmd`, which must succeed; returns its stdout as text.
pub fn stdout_of(cmd: &mut assert_cmd::Command) -> String {
    String::from_utf8(cmd.assert().success().get_output().stdout.clone()).unwrap()
}

/// Runs `dagaz autoplay ARGS --games-out OUT`, which must succeed; returns its stdout.
pub fn autoplay(args: &[&str], out: &Path) -> String {
    stdout_of(
        dagaz()
            .arg("autoplay")
            .args(args)
            .arg("--games-out")
            .arg(out),
    )
}

/// Runs `dagaz stats --format csv --table TABLE FILE`, which must succeed; returns the CSV.
pub fn stats_csv(file: &Path, table: &str) -> String {
    stdout_of(
        dagaz()
            .args(["stats", "--format", "csv", "--table", table])
            .arg(file),
    )
}
