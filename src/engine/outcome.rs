//! Goals and game results.
//!
//! Goals are checked in a position (that is, after the move that led to it). The player to
//! move is tested first, then the other players in `players` order; for one player a loss
//! beats a win, which beats a draw, which beats a count condition. The first player with a
//! goal that holds decides the game. When no goal holds, threefold repetition ends the game
//! as a draw (unless [`RepetitionRule::Off`]), and so does a player to move with no legal
//! move. See docs/semantics.md.

use super::generate::{Pipeline, generate_moves};
use super::goal_index::{Check, occupant_matches};
use super::vm::Scratch;
use super::{Budget, Engine, MoveList, State, Tables};
use crate::model::{GoalCond, GoalKind, Occupants, PieceTypeId, PlayerId, PositionId, piece};

/// One player's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerResult {
    Win,
    Loss,
    Draw,
}

/// Why a game ended by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A goal of the rules file held (see [`Outcome::goal`]).
    Goal,
    /// The position occurred for the third time and no `repetition` goal assigned it: a
    /// draw (ZoG ends every game on threefold repetition).
    Repetition,
    /// The player to move had no legal move and no `stalemated` goal applied: a draw.
    NoMoves,
}

/// What threefold repetition does when no `repetition` goal of the rules assigns it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// The game ends in a draw, as in ZoG (where it cannot be turned off).
    #[default]
    Draw,
    /// The game goes on (`repetition` goals of the rules still apply).
    Off,
}

/// The result of a finished game: one entry per player, in `players` order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub results: Vec<PlayerResult>,
    /// Index of the goal (in [`crate::model::Model::goals`]) that ended the game, if any.
    pub goal: Option<usize>,
    pub ending: Ending,
}

impl Outcome {
    fn all(n: usize, r: PlayerResult, goal: Option<usize>, ending: Ending) -> Outcome {
        Outcome {
            results: vec![r; n],
            goal,
            ending,
        }
    }
    fn winner(n: usize, p: usize, goal: Option<usize>) -> Outcome {
        let mut results = vec![PlayerResult::Loss; n];
        results[p] = PlayerResult::Win;
        Outcome {
            results,
            goal,
            ending: Ending::Goal,
        }
    }
    fn loser(n: usize, p: usize, goal: Option<usize>) -> Outcome {
        let mut results = vec![PlayerResult::Win; n];
        results[p] = PlayerResult::Loss;
        Outcome {
            results,
            goal,
            ending: Ending::Goal,
        }
    }
}

impl Engine {
    /// The game's result if it is over in `s`, `None` while it goes on.
    pub fn outcome(&mut self, s: &State) -> Option<Outcome> {
        self.evaluate(s, None)
    }

    /// Like [`Engine::outcome`] when the caller already knows whether the player to move
    /// has a legal move (it has just generated them): saves generating them again.
    pub fn outcome_given_moves(&mut self, s: &State, has_moves: bool) -> Option<Outcome> {
        self.evaluate(s, Some(has_moves))
    }

    /// True when a goal holds in `s` whatever the player to move could do (used to stop
    /// move generation: a finished game has no moves).
    pub(crate) fn goal_reached(&mut self, s: &State) -> bool {
        if self.t.model.goals.is_empty() {
            return false;
        }
        // Every goal is one counter test, counted by the summary: a positive summary means
        // one of them holds, and any goal that holds ends the game (a count goal too).
        // A zero summary means that no goal holds, and then only a repetition draw can end
        // the game here (the moves are taken to exist).
        let g = &self.t.goals;
        let known = match g.summary {
            Some(k) if g.all_summarized => Some(
                s.goal_counts[k as usize] > 0
                    || (self.repetition == RepetitionRule::Draw && self.t.occurrences(s) >= 3),
            ),
            _ => None,
        };
        if let (Some(known), false) = (known, cfg!(debug_assertions)) {
            return known;
        }
        let reached = self.evaluate(s, Some(true)).is_some();
        debug_assert!(
            known.is_none_or(|k| k == reached),
            "the goal summary disagrees with the evaluation"
        );
        reached
    }

    /// How often the position of `s` has occurred (the current one included).
    pub fn repetitions(&self, s: &State) -> usize {
        self.t.occurrences(s)
    }

    fn evaluate(&mut self, s: &State, has_moves: Option<bool>) -> Option<Outcome> {
        let mut cache = has_moves;
        let out = self.evaluate_compiled(s, &mut cache);
        #[cfg(debug_assertions)]
        {
            let reference = self.evaluate_reference(s, &mut cache);
            assert_eq!(
                out, reference,
                "incremental goal checks disagree with the full re-evaluation (the oracle)"
            );
        }
        out
    }

    /// The result from the compiled goals (`engine::goal_index`): board-local conditions
    /// read the state's counters.
    fn evaluate_compiled(&mut self, s: &State, has_moves: &mut Option<bool>) -> Option<Outcome> {
        let Engine {
            t,
            vm,
            pipe,
            probe,
            budget,
            ..
        } = self;
        let t: &Tables = t;
        let mut j = Judge {
            t,
            vm,
            pipe,
            probe,
            budget: *budget,
            s,
            has_moves,
            repeated: None,
        };
        let np = t.model.players.len();
        let to_move = t.model.turns[s.turn as usize].player.index();
        let order = std::iter::once(to_move).chain((0..np).filter(|&p| p != to_move));
        // No summarized goal holds: skip them (all goals, when every one is summarized).
        let quiet = t
            .goals
            .summary
            .is_some_and(|k| s.goal_counts[k as usize] == 0);
        let players = if quiet && t.goals.all_summarized {
            0
        } else {
            np
        };
        for p in order.take(players) {
            let mut found = Found::default();
            for g in &t.goals.by_player[p] {
                let slot = found.slot(g.kind);
                if slot.is_none() && !(quiet && g.summarized) && j.holds(&g.check, p, to_move) {
                    *slot = Some(g.goal);
                }
            }
            if let Some(o) = found.decide(np, p, |q| j.count_pieces(q, &[])) {
                return Some(o);
            }
        }
        if self.repetition == RepetitionRule::Draw && j.repeated() {
            return Some(Outcome::all(
                np,
                PlayerResult::Draw,
                None,
                Ending::Repetition,
            ));
        }
        if !j.has_moves() {
            return Some(Outcome::all(np, PlayerResult::Draw, None, Ending::NoMoves));
        }
        None
    }

    /// Like [`Engine::outcome`], but every goal is evaluated on the whole board instead of
    /// through the incremental checks: their definition and oracle (used by tests and, in
    /// debug builds, compared with every result).
    #[doc(hidden)]
    pub fn outcome_reference(&mut self, s: &State) -> Option<Outcome> {
        self.evaluate_reference(s, &mut None)
    }

    /// True when the goal counters of `s` equal those computed from its cells (tests).
    #[doc(hidden)]
    pub fn goal_counts_consistent(&self, s: &State) -> bool {
        s.goal_counts == self.t.goals.counts(&s.cells)
    }

    fn evaluate_reference(&mut self, s: &State, has_moves: &mut Option<bool>) -> Option<Outcome> {
        let np = self.t.model.players.len();
        let to_move = self.current_player(s);
        let repeated = self.repetitions(s) >= 3;
        let order = std::iter::once(to_move).chain((0..np).filter(|&p| p != to_move));
        for p in order {
            let mut found = Found::default();
            for gi in 0..self.t.model.goals.len() {
                let goal = &self.t.model.goals[gi];
                if !goal.players.contains(&(p as u32)) || found.slot(goal.kind).is_some() {
                    continue;
                }
                let kind = goal.kind;
                let t = self.t.clone();
                if self.holds(&t.model.goals[gi].cond, p, s, repeated, has_moves) {
                    *found.slot(kind) = Some(gi);
                }
            }
            if let Some(o) = found.decide(np, p, |q| self.count_pieces(s, q, &[])) {
                return Some(o);
            }
        }
        if repeated && self.repetition == RepetitionRule::Draw {
            return Some(Outcome::all(
                np,
                PlayerResult::Draw,
                None,
                Ending::Repetition,
            ));
        }
        if !self.has_moves(s, has_moves) {
            return Some(Outcome::all(np, PlayerResult::Draw, None, Ending::NoMoves));
        }
        None
    }

    fn has_moves(&mut self, s: &State, cache: &mut Option<bool>) -> bool {
        if let Some(v) = *cache {
            return v;
        }
        let mut list = std::mem::take(&mut self.probe);
        self.generate(s, &mut list);
        let v = !list.is_empty();
        self.probe = list;
        *cache = Some(v);
        v
    }

    /// Pieces of player `p` (of `types`, all when empty) on the board, plus in hand with
    /// `"include off-pieces"`.
    fn count_pieces(&self, s: &State, p: usize, types: &[PieceTypeId]) -> u32 {
        let m = &self.t.model;
        let mut n = 0;
        for &v in &s.cells[..m.num_positions()] {
            if v != 0
                && piece::owner(v).index() == p
                && (types.is_empty() || types.contains(&piece::ty(v)))
            {
                n += 1;
            }
        }
        if m.options.include_off_pieces {
            for ty in (0..m.piece_types.len() as u32).map(PieceTypeId::new) {
                if types.is_empty() || types.contains(&ty) {
                    n += s.cells[m.hand_cell(PlayerId::new(p as u32), ty).index()];
                }
            }
        }
        n
    }

    fn owns(&self, s: &State, pos: PositionId, p: usize, types: &[PieceTypeId]) -> bool {
        let v = s.cells[pos.index()];
        v != 0
            && piece::owner(v).index() == p
            && (types.is_empty() || types.contains(&piece::ty(v)))
    }

    /// True when the square `pos` matches one of `occ`, tested for player `p`.
    fn occupied(&self, s: &State, pos: PositionId, p: usize, occ: &Occupants) -> bool {
        occupant_matches(occ, s.cells[pos.index()], p)
    }

    fn holds(
        &mut self,
        c: &GoalCond,
        p: usize,
        s: &State,
        repeated: bool,
        has_moves: &mut Option<bool>,
    ) -> bool {
        let to_move = self.current_player(s);
        match c {
            GoalCond::True => true,
            GoalCond::False => false,
            GoalCond::Not(c) => !self.holds(c, p, s, repeated, has_moves),
            GoalCond::And(v) => v.iter().all(|c| self.holds(c, p, s, repeated, has_moves)),
            GoalCond::Or(v) => v.iter().any(|c| self.holds(c, p, s, repeated, has_moves)),
            GoalCond::Stalemated => p == to_move && !self.has_moves(s, has_moves),
            GoalCond::Checkmated(types) => {
                if p != to_move || self.has_moves(s, has_moves) {
                    return false;
                }
                let t = self.t.clone();
                self.vm.board_changed();
                self.vm.board.copy_from_slice(&s.cells);
                t.model.position_ids().any(|pos| {
                    self.owns(s, pos, p, types)
                        && self
                            .vm
                            .attacked_by_others(&t, pos, PlayerId::new(p as u32), 0)
                })
            }
            GoalCond::Repetition => repeated && s.last_player.index() == p,
            GoalCond::PiecesRemaining { n, types } => self.count_pieces(s, p, types) == *n,
            GoalCond::TotalPieceCount { n, types } => {
                (0..self.t.model.players.len())
                    .map(|q| self.count_pieces(s, q, types))
                    .sum::<u32>()
                    == *n
            }
            GoalCond::Captured(types) => {
                let m = &self.t.model;
                let nt = m.piece_types.len();
                // The listed types together: a piece that turns from one to another (The
                // Duke's two faces) is not captured (docs/semantics.md).
                let (mut have, mut start) = (0, 0);
                for &ty in types {
                    have += self.count_pieces_exact(s, p, ty);
                    have += s.cells[m.hand_cell(PlayerId::new(p as u32), ty).index()];
                    start += self.t.start_counts[p * nt + ty.index()];
                }
                have < start
            }
            GoalCond::AbsoluteConfig {
                occupants,
                positions,
                zones,
                any_position,
            } => {
                let m = &self.t.model;
                let pos_ok = if positions.is_empty() {
                    true
                } else if *any_position {
                    positions.iter().any(|&q| self.occupied(s, q, p, occupants))
                } else {
                    positions.iter().all(|&q| self.occupied(s, q, p, occupants))
                };
                pos_ok
                    && zones.iter().all(|&z| {
                        m.zone_sets[p][z as usize]
                            .iter()
                            .any(|q| self.occupied(s, q, p, occupants))
                    })
            }
            GoalCond::RelativeConfig { steps, dirs } => {
                let t = &self.t;
                let links = &t.links[p];
                t.model.position_ids().any(|start| {
                    let mut pos = start;
                    for (i, occ) in steps.iter().enumerate() {
                        if !self.occupied(s, pos, p, occ) {
                            return false;
                        }
                        if let Some(&d) = dirs.get(i) {
                            pos = links[pos.index() * t.width + d as usize];
                            if pos.is_none() {
                                return false;
                            }
                        }
                    }
                    true
                })
            }
        }
    }

    fn count_pieces_exact(&self, s: &State, p: usize, ty: PieceTypeId) -> u32 {
        let m = &self.t.model;
        s.cells[..m.num_positions()]
            .iter()
            .filter(|&&v| v != 0 && piece::owner(v).index() == p && piece::ty(v) == ty)
            .count() as u32
    }
}

/// The first goal of each kind that holds for one player (indices into `Model::goals`).
#[derive(Default)]
struct Found {
    loss: Option<usize>,
    win: Option<usize>,
    draw: Option<usize>,
    count: Option<usize>,
}

impl Found {
    fn slot(&mut self, kind: GoalKind) -> &mut Option<usize> {
        match kind {
            GoalKind::Loss => &mut self.loss,
            GoalKind::Win => &mut self.win,
            GoalKind::Draw => &mut self.draw,
            GoalKind::Count => &mut self.count,
        }
    }

    /// The result when one of the player's goals held: a loss beats a win, which beats a
    /// draw, which beats a count condition (decided by `count`, pieces per player).
    fn decide(&self, np: usize, p: usize, count: impl FnMut(usize) -> u32) -> Option<Outcome> {
        if let Some(g) = self.loss {
            return Some(Outcome::loser(np, p, Some(g)));
        }
        if let Some(g) = self.win {
            return Some(Outcome::winner(np, p, Some(g)));
        }
        if let Some(g) = self.draw {
            return Some(Outcome::all(np, PlayerResult::Draw, Some(g), Ending::Goal));
        }
        self.count.map(|g| count_outcome(np, Some(g), count))
    }
}

/// The result of a `count` goal: the player with the most pieces wins, a tie is a draw.
fn count_outcome(np: usize, goal: Option<usize>, mut count: impl FnMut(usize) -> u32) -> Outcome {
    let counts: Vec<u32> = (0..np).map(&mut count).collect();
    let best = counts.iter().copied().max().unwrap_or(0);
    let mut leaders = (0..np).filter(|&q| counts[q] == best);
    match (leaders.next(), leaders.next()) {
        (Some(p), None) => Outcome::winner(np, p, goal),
        _ => Outcome::all(np, PlayerResult::Draw, goal, Ending::Goal),
    }
}

/// The engine's parts that evaluating the compiled goals of one state needs, with what it
/// learns on the way (whether the player to move can move, whether the position repeats).
struct Judge<'a> {
    t: &'a Tables,
    vm: &'a mut Scratch,
    pipe: &'a mut Pipeline,
    probe: &'a mut MoveList,
    budget: Budget,
    s: &'a State,
    has_moves: &'a mut Option<bool>,
    repeated: Option<bool>,
}

impl Judge<'_> {
    fn has_moves(&mut self) -> bool {
        if let Some(v) = *self.has_moves {
            return v;
        }
        generate_moves(self.t, self.vm, self.pipe, self.budget, self.s, self.probe);
        let v = !self.probe.is_empty();
        *self.has_moves = Some(v);
        v
    }

    fn repeated(&mut self) -> bool {
        let s = self.s;
        *self.repeated.get_or_insert_with(|| {
            let n = self.t.occurrences(s);
            debug_assert!(
                self.t.no_repeat || n == s.history.iter().filter(|&&h| h == s.hash).count(),
                "the repetition buckets are stale"
            );
            n >= 3
        })
    }

    /// Pieces of player `p` (of `types`, all when empty) on the board, plus in hand with
    /// `"include off-pieces"`.
    fn count_pieces(&self, p: usize, types: &[PieceTypeId]) -> u32 {
        let m = &self.t.model;
        let s = self.s;
        // The index keeps board piece counts whenever a goal counts pieces (the only
        // callers), so `None` cannot occur; the debug oracle would catch it.
        let mut n = self
            .t
            .goals
            .board_pieces(&s.goal_counts, p, types)
            .unwrap_or_default();
        if m.options.include_off_pieces {
            for ty in (0..m.piece_types.len() as u32).map(PieceTypeId::new) {
                if types.is_empty() || types.contains(&ty) {
                    n += s.cells[m.hand_cell(PlayerId::new(p as u32), ty).index()];
                }
            }
        }
        n
    }

    fn holds(&mut self, c: &Check, p: usize, to_move: usize) -> bool {
        let t = self.t;
        let s = self.s;
        match c {
            Check::True => true,
            Check::False => false,
            Check::Not(c) => !self.holds(c, p, to_move),
            Check::And(v) => v.iter().all(|c| self.holds(c, p, to_move)),
            Check::Or(v) => v.iter().any(|c| self.holds(c, p, to_move)),
            Check::AtLeast { counter, need } => s.goal_counts[*counter as usize] >= *need,
            Check::Stalemated => p == to_move && !self.has_moves(),
            Check::Checkmated(types) => {
                if p != to_move || self.has_moves() {
                    return false;
                }
                self.vm.board_changed();
                self.vm.board.copy_from_slice(&s.cells);
                let player = PlayerId::new(p as u32);
                t.model.position_ids().any(|pos| {
                    let v = s.cells[pos.index()];
                    v != 0
                        && piece::owner(v) == player
                        && (types.is_empty() || types.contains(&piece::ty(v)))
                        && self.vm.attacked_by_others(t, pos, player, 0)
                })
            }
            Check::Repetition => self.repeated() && s.last_player.index() == p,
            Check::PiecesRemaining { n, types } => self.count_pieces(p, types) == *n,
            Check::TotalPieceCount { n, types } => {
                (0..t.model.players.len())
                    .map(|q| self.count_pieces(q, types))
                    .sum::<u32>()
                    == *n
            }
            Check::Captured(types) => {
                let m = &t.model;
                let nt = m.piece_types.len();
                let player = PlayerId::new(p as u32);
                let (mut have, mut start) = (0, 0);
                for &ty in types.iter() {
                    let on_board = t
                        .goals
                        .board_pieces(&s.goal_counts, p, &[ty])
                        .unwrap_or_default();
                    have += on_board + s.cells[m.hand_cell(player, ty).index()];
                    start += t.start_counts[p * nt + ty.index()];
                }
                have < start
            }
        }
    }
}
