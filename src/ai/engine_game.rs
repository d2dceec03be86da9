//! The adapter from the engine ([`crate::engine`]) to the AIs' [`Game`] trait.
//!
//! [`EngineGame`] owns an [`Engine`] (shared model, own scratch buffers) and a [`State`].
//! Results and points are described at [`Outcome`]: a random player (`?Dice`) wins only
//! when no seat does.

use super::game::{Game, Outcome, PieceInfo};
use crate::engine::{Engine, MoveList, PlayerResult, State, Undo};
use crate::model::{CellId, Model, PositionId, piece};

/// One game being played on the engine.
#[derive(Clone)]
pub struct EngineGame {
    pub engine: Engine,
    pub state: State,
    random: Vec<bool>,
    seats: Vec<usize>,
}

impl EngineGame {
    /// The start position of a compiled model.
    pub fn new(model: Model) -> EngineGame {
        EngineGame::from_engine(Engine::new(model))
    }

    /// The start position of an engine's game.
    pub fn from_engine(engine: Engine) -> EngineGame {
        let state = engine.initial_state();
        let m = engine.model();
        let random: Vec<bool> = m.players.iter().map(|p| p.random).collect();
        let mut seats = vec![];
        for t in &m.turns {
            let p = t.player.index();
            if !random[p] && !seats.contains(&p) {
                seats.push(p);
            }
        }
        EngineGame {
            engine,
            state,
            random,
            seats,
        }
    }

    fn model(&self) -> &Model {
        self.engine.model()
    }
}

impl Game for EngineGame {
    type Moves = MoveList;
    type Undo = Undo;

    fn num_players(&self) -> usize {
        self.random.len()
    }
    fn player_name(&self, player: usize) -> &str {
        &self.model().players[player].name
    }
    fn is_random(&self, player: usize) -> bool {
        self.random[player]
    }
    fn seats(&self) -> Vec<usize> {
        self.seats.clone()
    }
    fn current_player(&self) -> usize {
        self.engine.current_player(&self.state)
    }
    fn legal_moves(&mut self, out: &mut MoveList) {
        self.engine.legal_moves(&self.state, out);
    }
    fn num_moves(moves: &MoveList) -> usize {
        moves.len()
    }
    fn make(&mut self, moves: &MoveList, i: usize) -> Undo {
        self.engine.make(&mut self.state, &moves.as_slice()[i])
    }
    fn unmake(&mut self, moves: &MoveList, i: usize, undo: Undo) {
        self.engine
            .unmake(&mut self.state, &moves.as_slice()[i], undo);
    }
    fn outcome(&mut self, moves: &MoveList) -> Option<Outcome> {
        let o = self
            .engine
            .outcome_given_moves(&self.state, !moves.is_empty())?;
        let n = o.results.len();
        let ending = o.ending;
        let won = |p: usize| o.results[p] == PlayerResult::Win;
        // Seats that win take the points; random players (`?Dice`) win only when no seat
        // does (a seat against random players that loses).
        let mut winners: Vec<usize> = (0..n).filter(|&p| won(p) && !self.random[p]).collect();
        if winners.is_empty() {
            winners = (0..n).filter(|&p| won(p)).collect();
        }
        Some(if !winners.is_empty() {
            let mut points = vec![0.0; n];
            let mut results = vec![PlayerResult::Loss; n];
            for &w in &winners {
                points[w] = 1.0 / winners.len() as f64;
                results[w] = PlayerResult::Win;
            }
            Outcome {
                points,
                results,
                ending,
            }
        } else {
            let drawn: Vec<usize> = (0..n)
                .filter(|&p| o.results[p] == PlayerResult::Draw && !self.random[p])
                .collect();
            let mut out = Outcome::draw(n, &drawn, ending);
            for (p, r) in o.results.iter().enumerate() {
                if *r == PlayerResult::Loss {
                    out.results[p] = PlayerResult::Loss;
                }
            }
            out
        })
    }
    fn take_error(&mut self) -> Option<String> {
        let d = self.engine.take_diagnostics();
        (!d.is_empty()).then(|| {
            d.iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        })
    }
    fn hash(&self) -> u64 {
        self.state.hash
    }
    fn board_key(&self) -> u64 {
        let m = self.model();
        let np = m.num_positions();
        let nt = m.piece_types.len();
        let mut h = 0;
        for (i, &v) in self.state.cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let owner = if i < np {
                piece::owner(v).index()
            } else {
                (i - np) / nt.max(1)
            };
            if !self.random.get(owner).copied().unwrap_or(false) {
                h ^= crate::engine::hash::cell_key(CellId::new(i as u32), v);
            }
        }
        h
    }
    fn notation(&self, moves: &MoveList, i: usize) -> String {
        self.engine.notation(&moves.as_slice()[i])
    }
    fn captures(moves: &MoveList, i: usize) -> u32 {
        moves.as_slice()[i].captures
    }
    fn for_each_piece(&self, f: &mut dyn FnMut(PieceInfo)) {
        let m = self.model();
        let np = m.num_positions();
        let nt = m.piece_types.len();
        for (i, &v) in self.state.cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            if i < np {
                f(PieceInfo {
                    pos: Some(PositionId::new(i as u32)),
                    owner: piece::owner(v).index(),
                    ty: piece::ty(v).index(),
                    count: 1,
                });
            } else {
                let k = i - np;
                f(PieceInfo {
                    pos: None,
                    owner: k / nt,
                    ty: k % nt,
                    count: v,
                });
            }
        }
    }
    fn piece_type_index(&self, name: &str) -> Option<usize> {
        self.model().piece_type(name).map(|t| t as usize)
    }
    fn num_piece_types(&self) -> usize {
        self.model().piece_types.len()
    }
    fn num_positions(&self) -> usize {
        self.model().num_positions()
    }
    fn zone_index(&self, name: &str) -> Option<usize> {
        self.model().zones.iter().position(|z| z == name)
    }
    fn in_zone(&self, zone: usize, player: usize, pos: PositionId) -> bool {
        self.model()
            .zone_sets
            .get(player)
            .and_then(|z| z.get(zone))
            .is_some_and(|s| s.contains(pos))
    }
    fn direction_index(&self, name: &str) -> Option<usize> {
        self.model().direction_index.get(name).map(|&d| d as usize)
    }
    fn link(&self, player: usize, dir: usize, pos: PositionId) -> Option<PositionId> {
        let m = self.model();
        let abs = *m.symmetry.get(player)?.get(dir)?;
        m.link(pos, abs).to_option()
    }
}
