//! File output that never leaves a half-written file: write to a temporary file in the same
//! folder, flush it to disk, then rename it over the target.
//!
//! A target that is not a regular file (a device such as `/dev/null`, a FIFO, `/dev/stdout`)
//! or that is a symbolic link is written through, never replaced by a regular file: renaming
//! over it would destroy the device node or the link.

use std::io::Write;
use std::path::Path;

/// Like [`write_atomic`], with the data produced by `fill` into a buffered writer, so that
/// a large output need not be held in memory.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let is_special = std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
    if is_link || is_special {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .truncate(!is_special)
            .open(path)?;
        let mut w = std::io::BufWriter::new(f);
        fill(&mut w)?;
        return w.flush();
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file path"))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        fill(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `data` to `path` atomically (through it when it is not a plain regular file; see
/// the module documentation). The temporary file is removed on every failure.
pub fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(data))
}

/// The file at `path`, or, when there is none, the one in the same folder whose name differs
/// only in ASCII case (programs written on Windows `LOAD Board.4th` as `board.4th`); the
/// exact name wins.
pub fn file_ignoring_case(path: &Path) -> Option<std::path::PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let name = path.file_name()?.to_str()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Several spellings: the same one every time, whatever the directory order.
    files_in(dir, |n| n.eq_ignore_ascii_case(name))
        .ok()?
        .into_iter()
        .next()
}

/// The files of `dir` whose name passes `keep`, sorted (the same list whatever the
/// directory order).
pub fn files_in(
    dir: &Path,
    keep: impl Fn(&str) -> bool,
) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut found: Vec<std::path::PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().and_then(|n| n.to_str()).is_some_and(&keep))
        .collect();
    found.sort();
    Ok(found)
}
