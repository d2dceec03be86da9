//! What each `.4th` file of an Axiom folder is: a *variant* (a whole program, which no other
//! file of the folder `LOAD`s), a *part* (a board, pieces or AI file that other files `LOAD`,
//! often meaningless on its own), or the *runtime* (`CORE.4TH`, `axiom.4th`, which every
//! variant loads first). Linting and listing a folder take its variants; a part or a
//! runtime file named on its own is checked through the variants that load it.
//!
//! The `LOAD` graph is read from the files' text (`LOAD name`, any case), as Axiom's own
//! `LOAD` takes the next word: names are compared without regard to case, as on Windows,
//! and only within the folder.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What a `.4th` file is within its folder (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileRole {
    /// No other `.4th` file of the folder `LOAD`s it: a program of its own.
    Variant,
    /// `CORE.4TH` or `axiom.4th`: loaded by every variant of the folder (listed).
    Runtime { variants: Vec<PathBuf> },
    /// Other files `LOAD` it: the folder's variants that load it, directly or through
    /// other parts (none when only a cycle of parts loads it, or when no file loads a
    /// file that cannot be a program on its own, [`is_fragment`]).
    Part { variants: Vec<PathBuf> },
}

/// Whether `name` (a file name) is one of the runtime files.
pub fn is_runtime_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("CORE.4TH") || name.eq_ignore_ascii_case("axiom.4th")
}

fn is_forth_name(name: &str) -> bool {
    Path::new(name)
        .extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| x.eq_ignore_ascii_case("4th"))
}

fn lower_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// The names (lower-cased) each of `files` `LOAD`s, keyed by its own lower-cased name.
fn load_graph<P: AsRef<Path>>(files: &[P]) -> HashMap<String, Vec<String>> {
    let mut graph = HashMap::new();
    for f in files {
        let f = f.as_ref();
        let mut targets = vec![];
        // At most as much as a `LOAD` reads: a larger file is no program (and is skipped).
        if let Ok(bytes) = crate::source::read_capped(f) {
            let text = String::from_utf8_lossy(&bytes);
            let mut words = text.split_ascii_whitespace();
            while let Some(w) = words.next() {
                if w.eq_ignore_ascii_case("LOAD") {
                    if let Some(target) = words.next() {
                        targets.push(target.to_ascii_lowercase());
                    }
                }
            }
        }
        graph.entry(lower_name(f)).or_insert(targets);
    }
    graph
}

/// The names (lower-cased) that some of `files` `LOAD`: a game's parts, such as its board
/// file, which are not variants of their own.
pub fn loaded_names<P: AsRef<Path>>(files: &[P]) -> HashSet<String> {
    load_graph(files).into_values().flatten().collect()
}

/// The variant files among `files` (the `.4th` files of one folder): those other than the
/// runtime files that no other of them `LOAD`s and that can be programs (not
/// [`is_fragment`]), in the order given.
pub fn variant_files<P: AsRef<Path>>(files: &[P]) -> Vec<PathBuf> {
    let loaded = loaded_names(files);
    files
        .iter()
        .map(|f| f.as_ref())
        .filter(|f| {
            let name = lower_name(f);
            is_forth_name(&name)
                && !is_runtime_name(&name)
                && !loaded.contains(&name)
                && !is_fragment(f)
        })
        .map(Path::to_path_buf)
        .collect()
}

/// Whether the file at `path` cannot be a program on its own: it neither `LOAD`s a file
/// nor declares a board or players (`{board`, `{players`), as a game's directions or AI
/// file, left in its folder while no variant loads it (Margo's `Dir-6x6.4th`). A file
/// that cannot be read counts as a program, which then fails as it would.
pub fn is_fragment(path: &Path) -> bool {
    let Ok(bytes) = crate::source::read_capped(path) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    !text.split_ascii_whitespace().any(|w| {
        w.eq_ignore_ascii_case("LOAD")
            || w.eq_ignore_ascii_case("{board")
            || w.eq_ignore_ascii_case("{players")
    })
}

/// The `.4th` regular files of `dir`, sorted.
pub fn forth_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    crate::fsutil::files_in(dir, is_forth_name)
}

/// What `path` is within its folder (see [`FileRole`]).
pub fn role_of(path: &Path) -> std::io::Result<FileRole> {
    let (dir, bare) = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => (d, false),
        _ => (Path::new("."), true),
    };
    let mut files = forth_files(dir)?;
    if bare {
        // Named as `X.4th`: the others as `Y.4th` too, not `./Y.4th`.
        for f in &mut files {
            if let Some(n) = f.file_name() {
                *f = PathBuf::from(n);
            }
        }
    }
    let name = lower_name(path);
    let variants = variant_files(&files);
    if is_runtime_name(&name) {
        return Ok(FileRole::Runtime { variants });
    }
    let graph = load_graph(&files);
    if !graph.values().flatten().any(|t| *t == name) {
        // A part that no file loads (see [`is_fragment`]) is still a part.
        if is_fragment(path) {
            return Ok(FileRole::Part { variants: vec![] });
        }
        return Ok(FileRole::Variant);
    }
    // The variants from which `name` is reachable in the LOAD graph.
    let loads = |from: &str| {
        let mut seen = HashSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(n) = todo.pop() {
            if n == name {
                return true;
            }
            if seen.insert(n.clone()) {
                todo.extend(graph.get(&n).into_iter().flatten().cloned());
            }
        }
        false
    };
    let variants = variants
        .into_iter()
        .filter(|v| loads(&lower_name(v)))
        .collect();
    Ok(FileRole::Part { variants })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_runtime_and_variants_of_a_folder() {
        let dir = std::env::temp_dir().join(format!("dagaz-folder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let write = |n: &str, t: &str| std::fs::write(dir.join(n), t).unwrap();
        write("CORE.4TH", ": x ;");
        write("axiom.4th", "");
        write("Game.4th", "LOAD Board.4th\nload pieces.4th\n");
        write("Board.4th", "");
        write("Pieces.4th", "");
        write("Game-[a].4th", "LOAD game.4th");
        write("Other.4th", "LOAD Pieces.4th");
        write("Loop-1.4th", "LOAD Loop-2.4th");
        write("Loop-2.4th", "LOAD Loop-1.4th");
        // Left in the folder, loaded by nothing, no program on its own.
        write("Dir-6x6.4th", "{directions {link} u f1 f4 directions}");
        write("Solo.4th", "{board 2 2 {grid} board}");
        let v = |names: &[&str]| names.iter().map(|n| dir.join(n)).collect::<Vec<_>>();
        let files = forth_files(&dir).unwrap();
        assert_eq!(
            variant_files(&files),
            v(&["Game-[a].4th", "Other.4th", "Solo.4th"])
        );
        assert_eq!(role_of(&dir.join("Other.4th")).unwrap(), FileRole::Variant);
        assert_eq!(role_of(&dir.join("Solo.4th")).unwrap(), FileRole::Variant);
        assert_eq!(
            role_of(&dir.join("Dir-6x6.4th")).unwrap(),
            FileRole::Part { variants: vec![] }
        );
        assert_eq!(
            role_of(&dir.join("Board.4th")).unwrap(),
            FileRole::Part {
                variants: v(&["Game-[a].4th"])
            }
        );
        // Loaded through the base game and directly.
        assert_eq!(
            role_of(&dir.join("Pieces.4th")).unwrap(),
            FileRole::Part {
                variants: v(&["Game-[a].4th", "Other.4th"])
            }
        );
        assert_eq!(
            role_of(&dir.join("Loop-1.4th")).unwrap(),
            FileRole::Part { variants: vec![] }
        );
        assert_eq!(
            role_of(&dir.join("axiom.4th")).unwrap(),
            FileRole::Runtime {
                variants: v(&["Game-[a].4th", "Other.4th", "Solo.4th"])
            }
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
