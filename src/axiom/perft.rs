//! Perft for Axiom programs: the leaves of the legal-move tree, counted through the
//! program's own move generation. A finished game (`OnIsGameOver` decided, or no move) has
//! no moves; random players' turns (`?Dice`) are plies like any other; repetition is not
//! applied (as in ZRF perft).

use super::AxiomGame;
use crate::ai::game::Game;

/// The count below each root move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideEntry {
    pub notation: String,
    pub nodes: u64,
}

/// Why perft of an Axiom program stopped.
///
/// It converts into no `String` on purpose: the CLI maps it to its exit code (1, the
/// program cannot be played) rather than to a usage error.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PerftError {
    /// The program failed while generating or making moves (its error's message).
    Program(String),
}

impl std::fmt::Display for PerftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PerftError::Program(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for PerftError {}

/// The error the program left, if any.
fn failed(g: &mut AxiomGame) -> Result<(), PerftError> {
    match g.take_error() {
        Some(e) => Err(PerftError::Program(e)),
        None => Ok(()),
    }
}

/// Leaves at `depth` plies from the current position.
pub fn perft(g: &mut AxiomGame, depth: u32) -> Result<u64, PerftError> {
    g.repetition = false;
    count(g, depth)
}

/// Like [`perft`], per root move.
pub fn divide(g: &mut AxiomGame, depth: u32) -> Result<Vec<DivideEntry>, PerftError> {
    g.repetition = false;
    let mut moves = Default::default();
    g.legal_moves(&mut moves);
    failed(g)?;
    let mut out = Vec::new();
    if depth == 0 || g.outcome(&moves).is_some() {
        return Ok(out);
    }
    for i in 0..AxiomGame::num_moves(&moves) {
        let notation = g.notation(&moves, i);
        let undo = g.make(&moves, i);
        let nodes = count(g, depth - 1);
        g.unmake(&moves, i, undo);
        out.push(DivideEntry {
            notation,
            nodes: nodes?,
        });
    }
    Ok(out)
}

fn count(g: &mut AxiomGame, depth: u32) -> Result<u64, PerftError> {
    if depth == 0 {
        return Ok(1);
    }
    let mut moves = Default::default();
    g.legal_moves(&mut moves);
    failed(g)?;
    if g.outcome(&moves).is_some() {
        return Ok(0);
    }
    let n = AxiomGame::num_moves(&moves);
    if depth == 1 {
        return Ok(n as u64);
    }
    let mut total = 0;
    for i in 0..n {
        let undo = g.make(&moves, i);
        let r = count(g, depth - 1);
        g.unmake(&moves, i, undo);
        total += r?;
        failed(g)?;
    }
    Ok(total)
}
