//! Playing a move step by step, as ZoG's own interface plays a partial chain: the legal
//! moves of a position are narrowed one step at a time, and the move is made when it is
//! whole.
//!
//! ```
//! use dagaz::{Engine, load_game};
//!
//! let mut engine = Engine::new(load_game("checkers").unwrap());
//! let state = engine.initial_state();
//! let mut steps = engine.steps(&state);
//! let first = steps.next_steps(&engine)[0].clone();
//! steps.play(&engine, &first).unwrap();
//! // A checkers move without a capture is one step: the move is whole.
//! assert!(steps.whole().is_some() && !steps.must_go_on());
//! ```
//!
//! Every chain played step by step reaches the state of its whole move: the steps are the
//! parts of the legal whole moves ([`Move::part`]), so nothing is generated twice and the
//! whole-move counts of perft do not change.

use super::{Change, Engine, Move, MoveList, MovePart, State};

/// A move being played step by step; see the module documentation.
#[derive(Clone, Debug, Default)]
pub struct Steps {
    /// The legal whole moves that begin with the steps played so far.
    moves: Vec<Move>,
    /// Steps played.
    depth: usize,
}

impl Engine {
    /// Starts playing a move of `s` step by step (no step played yet).
    pub fn steps(&mut self, s: &State) -> Steps {
        let mut list = MoveList::new();
        self.legal_moves(s, &mut list);
        Steps {
            moves: list.iter().cloned().collect(),
            depth: 0,
        }
    }
}

impl Steps {
    /// Steps played so far.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// No legal move begins with the steps played (no legal move at all when none is
    /// played).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The distinct steps that may come next, each with the index of a move that has it.
    pub fn next_parts(&self) -> Vec<(usize, MovePart<'_>)> {
        let mut out: Vec<(usize, MovePart<'_>)> = Vec::new();
        for (i, m) in self.moves.iter().enumerate() {
            if let Some(p) = m.part(self.depth) {
                if !out
                    .iter()
                    .any(|(_, q)| q.changes == p.changes && q.pass == p.pass)
                {
                    out.push((i, p));
                }
            }
        }
        out
    }

    /// The notations of the steps that may come next.
    pub fn next_steps(&self, engine: &Engine) -> Vec<String> {
        self.next_parts()
            .into_iter()
            .map(|(_, p)| engine.part_notation(p))
            .collect()
    }

    /// Plays the next step whose notation is `notation` (compared without case and extra
    /// spaces); the error lists the steps there are.
    pub fn play(&mut self, engine: &Engine, notation: &str) -> Result<(), super::IllegalMove> {
        let parts = self.next_parts();
        let texts: Vec<String> = parts
            .iter()
            .map(|(_, p)| engine.part_notation(*p))
            .collect();
        let found = super::notation::find_notation(notation, &texts).map(|k| parts[k].0);
        match found {
            Some(i) => {
                self.play_part_of(i);
                Ok(())
            }
            None => Err(super::IllegalMove::UnknownNotation {
                notation: notation.to_owned(),
                legal: self.next_steps(engine),
            }),
        }
    }

    /// Plays the next step of move `i` (an index of [`Steps::next_parts`]).
    pub fn play_part_of(&mut self, i: usize) {
        let Some(p) = self.moves.get(i).and_then(|m| m.part(self.depth)) else {
            return;
        };
        let (changes, pass): (Vec<Change>, bool) = (p.changes.to_vec(), p.pass);
        let depth = self.depth;
        self.moves.retain(|m| {
            m.part(depth)
                .is_some_and(|q| q.changes == changes.as_slice() && q.pass == pass)
        });
        self.depth += 1;
    }

    /// The whole move that the steps played make, when one ends here (with `"pass
    /// partial"`, a chain may end here and go on too).
    pub fn whole(&self) -> Option<&Move> {
        if self.depth == 0 {
            return None;
        }
        self.moves.iter().find(|m| m.num_parts() == self.depth)
    }

    /// Some move goes on from here, and none ends here: another step must be played.
    pub fn must_go_on(&self) -> bool {
        self.whole().is_none() && self.moves.iter().any(|m| m.num_parts() > self.depth)
    }

    /// Some move goes on from here.
    pub fn may_go_on(&self) -> bool {
        self.moves.iter().any(|m| m.num_parts() > self.depth)
    }

    /// The board cells of `s` with the steps played so far applied (the turn is not
    /// passed: this is what ZoG shows between the steps of a chain).
    pub fn cells_after(&self, s: &State) -> Vec<u32> {
        let mut cells = s.cells.clone();
        if let Some(m) = self.moves.first() {
            for i in 0..self.depth {
                if let Some(p) = m.part(i) {
                    for c in p.changes {
                        cells[c.cell.index()] = c.new;
                    }
                }
            }
        }
        cells
    }
}
