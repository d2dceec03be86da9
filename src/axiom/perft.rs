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

/// Leaves at `depth` plies from the current position.
pub fn perft(g: &mut AxiomGame, depth: u32) -> Result<u64, String> {
    g.repetition = false;
    count(g, depth)
}

/// Like [`perft`], per root move.
pub fn divide(g: &mut AxiomGame, depth: u32) -> Result<Vec<DivideEntry>, String> {
    g.repetition = false;
    let mut moves = Default::default();
    g.legal_moves(&mut moves);
    if let Some(e) = g.take_error() {
        return Err(e);
    }
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

fn count(g: &mut AxiomGame, depth: u32) -> Result<u64, String> {
    if depth == 0 {
        return Ok(1);
    }
    let mut moves = Default::default();
    g.legal_moves(&mut moves);
    if let Some(e) = g.take_error() {
        return Err(e);
    }
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
        if let Some(e) = g.take_error() {
            return Err(e);
        }
    }
    Ok(total)
}
