//! The games file of a run (`autoplay --games-out`, `--resume`): one record per line,
//! locked against a second run, appended to and flushed game by game, and rewritten in
//! game-index order (atomically) when the run ends.

use super::{GameRecord, write_records};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why the games file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GamesFileError {
    /// Another run holds the file's lock.
    Locked(String),
    /// Reading or writing failed (the message names the file).
    Io(String),
    /// The file no longer holds records the run wrote.
    Changed(String),
}

crate::error::message_enum!(GamesFileError {
    Locked,
    Io,
    Changed
});

/// The `--games-out` file of a run: locked against a second run, appended to and flushed
/// game by game, and rewritten in game-index order (atomically) when the run ends.
pub struct GamesFile {
    path: PathBuf,
    file: Mutex<std::fs::File>,
    /// A regular file (rewritten sorted at the end); a FIFO or a device is only streamed to.
    regular: bool,
    /// `--no-timing`: records are written without `time_ms`.
    no_timing: bool,
}

impl GamesFile {
    /// Opens (creates) the file, locks it, and writes the resumed games `previous` in
    /// place of what it held.
    pub fn open(
        path: &Path,
        previous: &[GameRecord],
        no_timing: bool,
    ) -> Result<GamesFile, GamesFileError> {
        let err = |e: std::io::Error| {
            GamesFileError::Io(format!("cannot write `{}`: {e}", path.display()))
        };
        let regular = std::fs::metadata(path).map_or(true, |m| m.is_file());
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(err)?;
        if regular {
            // fs4's lock is std's `File::try_lock` (Rust 1.89) for older compilers: flock(2)
            // on Unix, LockFileEx on Windows.
            match fs4::FileExt::try_lock(&file) {
                Ok(()) => {}
                Err(fs4::TryLockError::WouldBlock) => {
                    return Err(GamesFileError::Locked(format!(
                        "`{}` is being written by another dagaz run",
                        path.display()
                    )));
                }
                Err(fs4::TryLockError::Error(e)) => return Err(err(e)),
            }
            // Start from the resumed games only (an incomplete last line is dropped).
            file.set_len(0).map_err(err)?;
        }
        let text = if no_timing {
            let stripped: Vec<GameRecord> = previous.iter().map(GameRecord::without_time).collect();
            write_records(&stripped)
        } else {
            write_records(previous)
        };
        file.write_all(text.as_bytes())
            .and_then(|_| file.flush())
            .map_err(err)?;
        Ok(GamesFile {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            regular,
            no_timing,
        })
    }

    /// Appends a finished game and flushes it.
    pub fn append(&self, r: &GameRecord) -> Result<(), GamesFileError> {
        let line = if self.no_timing {
            write_records(&[r.without_time()])
        } else {
            write_records(std::slice::from_ref(r))
        };
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        f.write_all(line.as_bytes())
            .and_then(|_| f.flush())
            .map_err(|e| GamesFileError::Io(format!("cannot write `{}`: {e}", self.path.display())))
    }

    /// Rewrites the file in game order, without the games in `dropped` (played past an
    /// SPRT decision) and keeping one record per game, copied line by line from the file
    /// itself: memory holds an index of the lines, not their text.
    pub fn finish(self, dropped: &[u64]) -> Result<(), GamesFileError> {
        use std::io::{BufRead, Read, Seek};
        if !self.regular {
            return Ok(());
        }
        #[derive(serde::Deserialize)]
        struct Index {
            game_index: u64,
        }
        let name = self.path.display().to_string();
        let err = |e: std::io::Error| GamesFileError::Io(format!("cannot read back `{name}`: {e}"));
        let mut file = std::fs::File::open(&self.path).map_err(err)?;
        let mut lines: Vec<(u64, u64, usize)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut offset = 0u64;
        let mut reader = std::io::BufReader::new(&mut file);
        let mut line = String::new();
        loop {
            line.clear();
            let n = reader.read_line(&mut line).map_err(err)?;
            if n == 0 {
                break;
            }
            if !line.trim().is_empty() {
                let r: Index = serde_json::from_str(line.trim_end()).map_err(|e| {
                    GamesFileError::Changed(format!("`{name}` was changed during the run: {e}"))
                })?;
                if !dropped.contains(&r.game_index) && seen.insert(r.game_index) {
                    lines.push((r.game_index, offset, line.trim_end().len()));
                }
            }
            offset += n as u64;
        }
        drop(reader);
        lines.sort_by_key(|l| l.0);
        crate::fsutil::write_atomic_with(&self.path, |w| {
            let mut buf = Vec::new();
            for &(_, at, len) in &lines {
                file.seek(std::io::SeekFrom::Start(at))?;
                buf.resize(len, 0);
                file.read_exact(&mut buf)?;
                w.write_all(&buf)?;
                w.write_all(b"\n")?;
            }
            Ok(())
        })
        .map_err(|e| GamesFileError::Io(format!("cannot write `{name}`: {e}")))
    }
}
