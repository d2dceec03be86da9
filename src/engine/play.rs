//! What a program embedding the engine needs to play a game move by move: decoded pieces,
//! finding a legal move by its notation, and a checked `make` that refuses a move that was
//! not generated for the position.
//!
//! ```
//! use dagaz::{Engine, load_game};
//!
//! let mut engine = Engine::new(load_game("tic-tac-toe").unwrap());
//! let mut state = engine.initial_state();
//! let m = engine.find_move(&state, "X Man b2").unwrap();
//! engine.make_checked(&mut state, &m).unwrap();
//! let b2 = engine.model().position_index["b2"];
//! let piece = engine.piece_at(&state, b2).unwrap();
//! assert_eq!(engine.model().players[piece.owner.index()].name, "X");
//! assert!(engine.outcome(&state).is_none());
//! ```

use super::{Engine, Move, MoveList, State, Undo};
use crate::model::{PieceTypeId, PlayerId, PositionId, piece};

/// A piece on the board, decoded: its type (an index into
/// [`crate::model::Model::piece_types`]) and its owner (an index into
/// [`crate::model::Model::players`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Piece {
    pub kind: PieceTypeId,
    pub owner: PlayerId,
    /// Attribute bits (bit `i` = attribute `i` of [`crate::model::Model::attributes`]).
    pub attributes: u32,
}

/// A move that is not legal in the position it was offered for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalMove {
    /// No legal move has this notation; `legal` lists the notations that exist.
    UnknownNotation {
        notation: String,
        legal: Vec<String>,
    },
    /// The move was not generated for this position.
    NotGenerated { notation: String },
    /// The game is over: there are no legal moves.
    GameOver,
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IllegalMove::UnknownNotation { notation, legal } => {
                write!(f, "no legal move `{notation}`")?;
                if !legal.is_empty() {
                    let shown: Vec<&str> = legal.iter().take(12).map(String::as_str).collect();
                    write!(f, "; legal moves: {}", shown.join(", "))?;
                    if legal.len() > shown.len() {
                        write!(f, ", … ({} in all)", legal.len())?;
                    }
                }
                Ok(())
            }
            IllegalMove::NotGenerated { notation } => {
                write!(f, "`{notation}` is not a legal move in this position")
            }
            IllegalMove::GameOver => write!(f, "the game is over: no move is legal"),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl Engine {
    /// The piece on board position `pos`, if any (see [`crate::model::Model::position`] to look one up
    /// by name; a position out of range, or [`PositionId::NONE`], holds nothing).
    pub fn piece_at(&self, s: &State, pos: PositionId) -> Option<Piece> {
        let np = self.t.model.num_positions();
        let v = *s.cells[..np].get(pos.index())?;
        (v != 0).then(|| Piece {
            kind: piece::ty(v),
            owner: piece::owner(v),
            attributes: v >> piece::ATTR_SHIFT,
        })
    }

    /// The legal move of `s` whose notation ([`Engine::notation`]) is `notation`, compared
    /// without case and extra spaces (and, when `notation` writes no attribute, without
    /// the attribute writes: [`crate::engine::find_notation`]).
    pub fn find_move(&mut self, s: &State, notation: &str) -> Result<Move, IllegalMove> {
        let mut list = MoveList::new();
        self.legal_moves(s, &mut list);
        if list.is_empty() {
            return Err(IllegalMove::GameOver);
        }
        let texts: Vec<String> = list.iter().map(|m| self.notation(m)).collect();
        if let Some(i) = super::notation::find_notation(notation, &texts) {
            return Ok(list.as_slice()[i].clone());
        }
        Err(IllegalMove::UnknownNotation {
            notation: notation.to_owned(),
            legal: texts,
        })
    }

    /// Plays `m` on `s` after checking that it is one of the legal moves of `s` (the same
    /// cell changes); [`Engine::make`] trusts its caller instead.
    pub fn make_checked(&mut self, s: &mut State, m: &Move) -> Result<Undo, IllegalMove> {
        let mut list = MoveList::new();
        self.legal_moves(s, &mut list);
        if list.is_empty() {
            return Err(IllegalMove::GameOver);
        }
        if !list
            .iter()
            .any(|x| x.changes == m.changes && x.pass == m.pass)
        {
            return Err(IllegalMove::NotGenerated {
                notation: self.notation(m),
            });
        }
        Ok(self.make(s, m))
    }

    /// Puts the packed piece `v` (0: nothing) on `pos`, as an edit of the position outside
    /// the rules (a saved game's `(Black Tokin 9i)`): the turn stays, the hash and the goal
    /// counters follow.
    pub fn set_position(&self, s: &mut State, pos: PositionId, v: u32) {
        let Some(cell) = s.cells.get_mut(pos.index()) else {
            return;
        };
        *cell = v;
        s.goal_counts = self.t.goals.counts(&s.cells);
        s.hash = self.full_hash(s);
    }
}
