//! Confinement: every file that a rules file or a Forth program names lies inside the project.
//!
//! A ZRF `include`, a Forth `LOAD`, the runtime files of an Axiom folder (`CORE.4TH`,
//! `axiom.4th`) and the engine folder of `(engine "…/axiom.dll")` are all written by the
//! author of the rules, who may be a stranger whose repository a CI job lints. Such a path
//! must resolve inside the *roots*: the folder of the file named on the command line and
//! the folders given with `--include-dir`. Refused, before anything is read:
//!
//! - an absolute path (`/etc/passwd`, `C:\x`);
//! - a `..` that climbs above the root the path starts from;
//! - a path whose real location (symbolic links followed) is outside every root.
//!
//! The checks are lexical first (no file-system access) and then on the real path, so a
//! link inside the project that points out of it is refused as well.

use std::path::{Component, Path, PathBuf};

/// Why a path named by a rules file or a program was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// An absolute path.
    Absolute,
    /// A `..` climbing above the folder it starts from.
    Climbs,
    /// The real path (symbolic links followed) is outside every root.
    LinkOut,
}

impl Refusal {
    /// The reason, as a clause: "… is refused: {reason}".
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Absolute => "an absolute path",
            Refusal::Climbs => "its `..` leads outside the project folder",
            Refusal::LinkOut => "it resolves (through a symbolic link) outside the project folder",
        }
    }
}

/// Whether `written` is an absolute path, on Unix or on Windows (`C:…`, `\\server`).
pub fn is_absolute(written: &str) -> bool {
    let b = written.as_bytes();
    let drive = b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic();
    Path::new(written).is_absolute()
        || written.starts_with('/')
        || written.starts_with('\\')
        || drive
}

/// Lexically joins `base` and `written` (no file-system access), dropping `.` and applying
/// `..`; `None` when a `..` climbs above `root`, which must be a prefix of `base`.
pub fn lexical_join(base: &Path, written: &str, root: &Path) -> Option<PathBuf> {
    let mut out = base.to_path_buf();
    for c in Path::new(written).components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir => {}
            Component::ParentDir => {
                if out == root || !out.starts_with(root) || !out.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// The real path of a root (`""` is the working folder).
fn real_root(r: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(if r.as_os_str().is_empty() {
        Path::new(".")
    } else {
        r
    })
    .ok()
}

/// Whether the real path of `path` (which must exist) lies inside one of `roots`. A path
/// that does not exist is not inside.
pub fn is_inside(path: &Path, roots: &[&Path]) -> bool {
    let Ok(real) = std::fs::canonicalize(path) else {
        return false;
    };
    roots
        .iter()
        .filter_map(|r| real_root(r))
        .any(|r| real.starts_with(r))
}

/// The path of a file written `written` in a file of folder `base`, when it stays inside
/// `root_dir` (lexically) and, following symbolic links, inside one of `roots`; otherwise
/// why not. Backslashes (paths written on Windows) are read as `/`. A path that does not
/// exist yet passes the link check: reading it will fail on its own.
pub fn confined(
    base: &Path,
    written: &str,
    root_dir: &Path,
    roots: &[&Path],
) -> Result<PathBuf, Refusal> {
    let written = written.replace('\\', "/");
    if is_absolute(&written) {
        return Err(Refusal::Absolute);
    }
    let path = lexical_join(base, &written, root_dir).ok_or(Refusal::Climbs)?;
    // A symbolic link may still lead out: compare real paths when the file exists.
    if path.exists() && !is_inside(&path, roots) {
        return Err(Refusal::LinkOut);
    }
    Ok(path)
}

/// The root among `roots` that holds `base` (the longest such prefix), else `fallback`.
pub fn home_root<'a>(base: &Path, roots: &[&'a Path], fallback: &'a Path) -> &'a Path {
    roots
        .iter()
        .copied()
        .filter(|r| base.starts_with(r))
        .max_by_key(|r| r.components().count())
        .unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_climbing_and_linked_paths_are_refused() {
        let dir = std::env::temp_dir().join(format!("dagaz-confine-{}", std::process::id()));
        let project = dir.join("project");
        std::fs::create_dir_all(project.join("sub")).unwrap();
        std::fs::write(dir.join("secret.4th"), "x").unwrap();
        std::fs::write(project.join("sub").join("a.4th"), "x").unwrap();
        std::os::unix::fs::symlink(dir.join("secret.4th"), project.join("link.4th")).unwrap();
        let roots = [project.as_path()];
        let ok = |w: &str| confined(&project, w, &project, &roots);
        assert_eq!(ok("sub/a.4th"), Ok(project.join("sub").join("a.4th")));
        assert_eq!(
            ok("sub\\..\\sub\\a.4th"),
            Ok(project.join("sub").join("a.4th"))
        );
        assert_eq!(ok("/etc/passwd"), Err(Refusal::Absolute));
        assert_eq!(ok("C:\\x.4th"), Err(Refusal::Absolute));
        assert_eq!(ok("\\\\server\\x.4th"), Err(Refusal::Absolute));
        assert_eq!(ok("../secret.4th"), Err(Refusal::Climbs));
        assert_eq!(ok("sub/../../secret.4th"), Err(Refusal::Climbs));
        assert_eq!(ok("link.4th"), Err(Refusal::LinkOut));
        // A further root lets the same link in.
        let wider = [project.as_path(), dir.as_path()];
        assert!(confined(&project, "link.4th", &project, &wider).is_ok());
        assert!(is_inside(&project.join("sub"), &roots));
        assert!(!is_inside(&dir.join("secret.4th"), &roots));
        assert!(!is_inside(&project.join("missing"), &roots));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
