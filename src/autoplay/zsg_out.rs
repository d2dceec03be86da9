//! `--zsg-out DIR`: each game of a match written as a Zillions saved game,
//! `DIR/game-NNNNNN.zsg` (by game index), that ZoG opens and `dagaz replay` follows.

use crate::axiom::AxiomGame;
use crate::players::spec::PlayerSpec;
use crate::record::GameRecord;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Where `--zsg-out` writes each game as a Zillions saved game.
pub struct ZsgOut {
    dir: PathBuf,
    /// What turns a record's moves into the saved game's lines.
    writer: Mutex<ZsgWriter>,
    rules_file: String,
    variant: String,
}

/// What reads a record's moves for a saved game: the engine (a ZRF game) or the program
/// at its start position (a ZRF game played by its Axiom engine).
pub enum ZsgWriter {
    Engine(Box<crate::engine::Engine>),
    Program(AxiomGame),
}

impl ZsgOut {
    /// For the game of `p` (its rules named relative to `dir`), or `None` without a
    /// folder. Makes the folder.
    pub fn new(
        dir: Option<&Path>,
        p: &PlayerSpec,
        writer: ZsgWriter,
    ) -> Result<Option<ZsgOut>, String> {
        let Some(dir) = dir else { return Ok(None) };
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--zsg-out: cannot make `{}`: {e}", dir.display()))?;
        let rules_file = match p.source.strip_prefix("bundled:") {
            Some(name) => format!("{name}.zrf"),
            None => relative_to(dir, Path::new(&p.source)),
        };
        Ok(Some(ZsgOut {
            dir: dir.to_path_buf(),
            writer: Mutex::new(writer),
            rules_file,
            variant: p.title.clone(),
        }))
    }

    /// Writes the game of `r`.
    pub fn write(&self, r: &GameRecord) -> Result<(), String> {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let (rules, variant) = (&self.rules_file, &self.variant);
        let game = match &mut *w {
            ZsgWriter::Engine(e) => crate::replay::saved_game(e, rules, variant, &r.moves),
            ZsgWriter::Program(g) => {
                crate::replay::saved_game_of(&mut g.clone(), rules, variant, &r.moves)
            }
        }
        .map_err(|e| format!("--zsg-out: game {}: {e}", r.game_index))?;
        let path = self.dir.join(format!("game-{:06}.zsg", r.game_index));
        crate::fsutil::write_atomic(&path, crate::zsg::write(&game).as_bytes())
            .map_err(|e| format!("--zsg-out: cannot write `{}`: {e}", path.display()))
    }
}

/// `file` as a path relative to the folder `dir`, with `\\` between its parts as ZoG
/// writes them (the file's name alone when the two share no root).
fn relative_to(dir: &Path, file: &Path) -> String {
    let (Ok(d), Ok(f)) = (dir.canonicalize(), file.canonicalize()) else {
        return file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
    };
    let dc: Vec<_> = d.components().collect();
    let fc: Vec<_> = f.components().collect();
    let common = dc.iter().zip(&fc).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    let mut parts: Vec<String> = vec!["..".to_owned(); dc.len() - common];
    parts.extend(
        fc[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("\\")
}
