//! A match between two Axiom programs (two variant files of one game), as a
//! [`crate::ai::Game`] for the tournament runner.
//!
//! Each program runs in its own VM and keeps its own copy of the game: every move is played
//! in both, by its index in the move list (both generate the same list; a difference is an
//! error naming the move). The first program's `OnIsGameOver` decides the end. A player
//! whose AI is the program's own engine ([`crate::ai::AiKind::Program`]) gets its move from
//! its program's `OnSearch`; dagaz's own AIs can also play Axiom games through make/unmake.
//!
//! The games of a match are copies of one prototype; a game that ends leaves its move-word
//! caches in a pool the copies share, for the next game to start with (`CachePool`).

use super::memo::MoveMemo;
use super::natives::Runtime;
use super::program::{GameInfo, Program};
use super::state::{self, Snapshot, State, Verdict};
use crate::ai::game::{Game, Outcome, PieceInfo, PositionId};
use crate::ai::{Ending, PlayerResult};
use crate::forth::ForthError;
use crate::rng::Rng;
use std::sync::{Arc, Mutex};

/// A move list of the first program: record addresses and capture counts.
///
/// The records are compiled code in the VM's memory above the dictionary, which later
/// generations reuse (a snapshot restores `HERE`, not that memory). A search that keeps
/// lists of several positions (MCTS keeps one per tree node) may come back to a list whose
/// memory was written over since, so the list keeps a copy of its memory and puts it back
/// before one of its moves is played or named.
#[derive(Clone, Debug, Default)]
pub struct AxiomMoves {
    recs: Vec<u32>,
    captures: Vec<u32>,
    /// The memory the list occupies in the first program's VM.
    span: (u32, u32),
    /// That memory as it was when the list was generated.
    code: Vec<u8>,
    /// The VM's [`Runtime::list_epoch`] just after: while the VM a move is played in has
    /// the same, the memory is still the list's and need not be put back.
    epoch: u64,
}

impl AxiomMoves {
    /// The NUL-terminated string at `a`, when it lies in the list's own memory.
    fn saved_cstring(&self, a: u32) -> Option<String> {
        let off = a.checked_sub(self.span.0)? as usize;
        let tail = self.code.get(off..)?;
        let end = tail.iter().position(|&b| b == 0)?;
        Some(String::from_utf8_lossy(&tail[..end]).into_owned())
    }

    /// The cell at `a`, when it lies in the list's own memory.
    fn saved_cell(&self, a: u32) -> Option<i32> {
        let off = a.checked_sub(self.span.0)? as usize;
        let b = self.code.get(off..off + 4)?;
        Some(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The game state of a match (see the module documentation).
#[derive(Clone)]
pub struct AxiomGame {
    states: Vec<State>,
    /// Which state (program) plays for tournament player A (0) and B (1).
    program_of: [usize; 2],
    info: Arc<GameInfo>,
    seats: Vec<usize>,
    outcome: Option<Outcome>,
    error: Option<String>,
    /// The same error as a value.
    forth_error: Option<ForthError>,
    /// Memory of each secondary state's last move list.
    spans: Vec<(u32, u32)>,
    /// Threefold repetition ends the game in a draw (ZoG's rule); off with
    /// `--repetition off`.
    pub repetition: bool,
    /// Where this game takes and leaves its move-word caches ([`CachePool`]).
    caches: PoolSeat,
}

/// Move-word caches ([`super::memo`]) that finished games leave for the next games of
/// the same match. A new game's cache would otherwise start empty, and fill only as the
/// game goes: a short game ends before its cache pays. The games of a match are copies
/// of one prototype, which share its pool; a copy made of a game in play (a search's)
/// neither takes nor leaves one. Results do not depend on which cache a game gets (the
/// cache is exact: [`super::memo`]), so runs stay identical for any number of threads.
#[derive(Default)]
struct CachePool {
    left: Mutex<Vec<Vec<LeftCache>>>,
}

/// Caches a pool keeps at most (one per game that ended and is not yet followed).
const POOL_CAP: usize = 16;

/// One program's cache left by a finished game, with the code its VM ran
/// ([`crate::forth::Vm::code_cells`]): the next game keeps the entries only if its VM
/// holds that code.
struct LeftCache {
    memo: MoveMemo,
    code: Vec<(u32, i32)>,
    frozen: crate::forth::frozen::FrozenCells,
}

/// A game's place at its pool.
struct PoolSeat {
    pool: Arc<CachePool>,
    state: Seat,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Seat {
    /// A new game: it takes caches at its first generation.
    Fresh,
    /// It took (or found none): it leaves its caches when dropped.
    Holding,
    /// A copy of a game in play: neither.
    Copy,
}

impl Clone for PoolSeat {
    fn clone(&self) -> Self {
        PoolSeat {
            pool: self.pool.clone(),
            state: match self.state {
                Seat::Fresh => Seat::Fresh,
                Seat::Holding | Seat::Copy => Seat::Copy,
            },
        }
    }
}

impl Drop for AxiomGame {
    fn drop(&mut self) {
        if self.caches.state != Seat::Holding {
            return;
        }
        let left: Vec<LeftCache> = self
            .states
            .iter_mut()
            .filter(|s| s.rt.memo.fits(&s.vm))
            .map(|s| LeftCache {
                memo: std::mem::take(&mut s.rt.memo),
                code: s.vm.code_cells(),
                frozen: s.vm.frozen_data(),
            })
            .collect();
        if left.len() != self.states.len() {
            return;
        }
        if let Ok(mut pool) = self.caches.pool.left.lock() {
            if pool.len() < POOL_CAP {
                pool.push(left);
            }
        }
    }
}

impl AxiomGame {
    /// A match state for programs `a` and `b` (the same program may be given twice).
    pub fn new(a: &Program, b: &Program, seed: u64) -> Result<AxiomGame, super::AxiomError> {
        let same = a.path == b.path;
        let mut states = vec![State::new(a, seed).map_err(super::AxiomError::Forth)?];
        if !same {
            if a.info.players != b.info.players || a.info.positions != b.info.positions {
                return Err(super::AxiomError::Mismatch(format!(
                    "`{}` and `{}` declare different players or positions",
                    a.info.name, b.info.name
                )));
            }
            states.push(State::new(b, seed).map_err(super::AxiomError::Forth)?);
        }
        let info = a.info.clone();
        let seats = seats_of(&states[0], &info);
        let n = states.len();
        Ok(AxiomGame {
            states,
            program_of: [0, if same { 0 } else { 1 }],
            info,
            seats,
            outcome: None,
            error: None,
            forth_error: None,
            spans: vec![(0, 0); n],
            repetition: true,
            caches: PoolSeat {
                pool: Arc::default(),
                state: Seat::Fresh,
            },
        })
    }

    /// A new game takes the caches a finished game of its match left, if any
    /// ([`CachePool`]).
    fn take_left_caches(&mut self) {
        self.caches.state = Seat::Holding;
        let left = match self.caches.pool.left.lock() {
            Ok(mut pool) => pool.pop(),
            Err(_) => None,
        };
        for (s, l) in self.states.iter_mut().zip(left.into_iter().flatten()) {
            if s.rt.memo.off {
                continue;
            }
            let mut memo = l.memo;
            memo.carry_to(&mut s.vm, &l.code, &l.frozen);
            s.rt.memo = memo;
        }
    }

    /// Caches waiting in this game's pool.
    #[cfg(test)]
    pub(crate) fn pooled(&self) -> usize {
        self.caches.pool.left.lock().map_or(0, |p| p.len())
    }

    /// Sets the depth of `$NegamaxMove` in both programs.
    pub fn set_search_depth(&mut self, depth: u32) {
        for s in &mut self.states {
            s.rt.search_depth = depth.max(1);
        }
    }

    /// Turns `$NegamaxMove`'s move order below the root (killer moves, then history:
    /// [`super::search`]) on or off in both programs (on by default; the moves chosen are
    /// the same either way, only the positions searched differ).
    pub fn set_search_order(&mut self, on: bool) {
        for s in &mut self.states {
            s.rt.search_order = on;
        }
    }

    /// Positions the last `$NegamaxMove` search of the program in `slot` visited (every
    /// iteration), or the playouts of its last `$UCTMove`.
    pub fn searched(&self, slot: usize) -> u64 {
        self.states[self.program_of[slot.min(1)]].rt.searched
    }

    /// What the last search of the program in `slot` reported (`Depth!`, `Score!`,
    /// `Nodes!`; for `$NegamaxMove` the depth of its deepest finished iteration, 0 when
    /// its budget ran out before the first finished).
    pub fn search_report(&self, slot: usize) -> &super::natives::EngineReport {
        &self.states[self.program_of[slot.min(1)]].rt.report
    }

    /// Sets how many primitives each program's engine (`OnSearch`: `$NegamaxMove`,
    /// `$UCTMove` or its own) may run for one move: its time limit (see
    /// [`super::state::SEARCH_STEPS`]).
    pub fn set_search_steps(&mut self, steps: u64) {
        for s in &mut self.states {
            s.rt.search_steps = steps.max(1);
        }
    }

    /// Whether each search's budget varies around the step budget, drawn from the
    /// engines' generator (on by default; see [`super::natives::Runtime::search_budget`]).
    pub fn set_search_variety(&mut self, on: bool) {
        for s in &mut self.states {
            s.rt.search_variety = on;
        }
    }

    /// Turns the move-word cache ([`super::memo`]) on or off in both programs (on by
    /// default; the results are the same either way, only the speed differs).
    pub fn set_move_cache(&mut self, on: bool) {
        for s in &mut self.states {
            s.rt.memo.off = !on;
            s.rt.eval_memo.off = !on;
            s.rt.turn_memo.off = !on;
        }
    }

    /// How the cache of `OnNextTurn` ([`super::eval_memo`]) answered, summed over both
    /// programs.
    pub fn turn_cache_stats(&self) -> super::eval_memo::EvalStats {
        let mut t = super::eval_memo::EvalStats::default();
        for s in &self.states {
            t += s.rt.turn_memo.stats;
        }
        t
    }

    /// How the evaluation cache ([`super::eval_memo`]) answered, summed over both programs.
    pub fn eval_cache_stats(&self) -> super::eval_memo::EvalStats {
        let mut t = super::eval_memo::EvalStats::default();
        for s in &self.states {
            t += s.rt.eval_memo.stats;
        }
        t
    }

    /// A hash of what generating and playing moves left in each program's state: memory
    /// up to `HERE` and the repetition history (for the tests that compare runs).
    #[cfg(test)]
    pub(crate) fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for s in &self.states {
            s.vm.bytes(0, s.vm.here()).unwrap_or_default().hash(&mut h);
            s.rt.history.hash(&mut h);
        }
        h.finish()
    }

    /// What the move-word cache did so far, summed over both programs.
    pub fn move_cache_stats(&self) -> super::memo::MemoStats {
        let mut t = super::memo::MemoStats::default();
        for s in &self.states {
            t += s.rt.memo.stats;
        }
        t
    }

    /// Whether the current position occurred three times since the last
    /// `repetition-reset` (the history holds the current position last).
    fn repeated(&self) -> bool {
        let st = &self.states[0];
        match st.rt.history.last() {
            Some(k) => st.rt.history.iter().filter(|&h| h == k).count() >= 3,
            None => false,
        }
    }

    /// The first program's state (for tests and perft).
    pub fn state(&self) -> &State {
        &self.states[0]
    }

    /// Plays move `i` of `moves` in program `k`'s state (the first's list is `moves`; the
    /// others' are generated again and checked against it); a failure ends the game.
    fn apply_in(&mut self, k: usize, moves: &AxiomMoves, i: usize) {
        let r = if k == 0 {
            moves
                .recs
                .get(i)
                .copied()
                .ok_or_else(|| {
                    ForthError::new(crate::forth::ForthErrorKind::Host("no such move".into()))
                })
                .and_then(|rec| {
                    let st = &mut self.states[0];
                    // The list's memory may have been reused since (see AxiomMoves).
                    if !moves.code.is_empty() && st.rt.list_epoch != moves.epoch {
                        st.vm.write_bytes(moves.span.0, &moves.code)?;
                    }
                    st.vm.set_step_budget(st.turn_steps);
                    if state::apply_record(&mut st.vm, &mut st.rt, rec)? {
                        st.record_position()?;
                    }
                    Ok(())
                })
        } else {
            self.sync(k, moves)
                .and_then(|()| self.states[k].apply(i).map(|_| ()))
        };
        if let Err(e) = r {
            self.fail(e);
        }
    }

    /// Generates the moves of program `k` (not the first) for the current position, and
    /// checks that they are as many as the first program's `moves`.
    fn sync(&mut self, k: usize, moves: &AxiomMoves) -> Result<(), ForthError> {
        let mut span = self.spans[k];
        let st = &mut self.states[k];
        let r = generate_into(st, &mut span);
        self.spans[k] = span;
        r?;
        if st.moves.len() != moves.recs.len() {
            return Err(ForthError::new(crate::forth::ForthErrorKind::Host(
                format!(
                    "the two programs generate {} and {} moves here",
                    moves.recs.len(),
                    st.moves.len()
                ),
            )));
        }
        Ok(())
    }

    fn fail(&mut self, e: ForthError) {
        if self.error.is_none() {
            self.error = Some(e.to_string());
            self.forth_error = Some(e);
        }
    }

    /// The Forth error that stopped the game, with its kind and place (the text of
    /// [`Game::take_error`], as a value), taken once.
    pub fn take_forth_error(&mut self) -> Option<ForthError> {
        self.forth_error.take()
    }

    fn outcome_of(&self, verdict: Verdict, no_moves: bool) -> Option<Outcome> {
        let n = self.info.players.len();
        let mover = self.states[0].player();
        match verdict {
            Verdict::Win => Some(Outcome::win(n, mover)),
            Verdict::Loss => {
                let others: Vec<usize> =
                    self.seats.iter().copied().filter(|&s| s != mover).collect();
                let mut results = vec![PlayerResult::Loss; n];
                let mut points = vec![0.0; n];
                for &o in &others {
                    results[o] = PlayerResult::Win;
                    points[o] = 1.0 / others.len().max(1) as f64;
                }
                Some(Outcome {
                    points,
                    results,
                    ending: Ending::Goal,
                })
            }
            Verdict::Draw => Some(Outcome::draw(n, &self.seats, Ending::Goal)),
            Verdict::Unknown if no_moves => Some(Outcome::draw(n, &self.seats, Ending::NoMoves)),
            Verdict::Unknown => None,
        }
    }
}

/// Seats: the non-random players, in turn order of first appearance.
fn seats_of(s: &State, info: &GameInfo) -> Vec<usize> {
    let l = s.rt.layout;
    let mut seats = Vec::new();
    let table = s.vm.cell(l.turn_order).unwrap_or(0) as u32;
    let limit =
        s.vm.find(b"$turnLimit")
            .and_then(|nfa| s.vm.cell(nfa + 16).ok())
            .unwrap_or(0)
            .clamp(0, 128 * 12) as u32;
    let mut off = 0;
    while off < limit {
        let cfa = s.vm.cell(table + off).unwrap_or(0) as u32;
        let value = s.vm.cell(cfa + 4).unwrap_or(0);
        if let Some(p) = info.player_index(value) {
            if !info.is_random(p) && !seats.contains(&p) {
                seats.push(p);
            }
        }
        off += 12;
    }
    if seats.is_empty() {
        seats = (0..info.players.len())
            .filter(|&p| !info.is_random(p))
            .collect();
    }
    seats
}

/// Generates into `st`, reusing the memory of `span` when it is the newest list.
fn generate_into(st: &mut State, span: &mut (u32, u32)) -> Result<(), ForthError> {
    if span.1 != 0 && st.vm.here() == span.1 {
        st.vm.set_here(span.0)?;
    }
    let start = st.vm.here();
    // Lists an engine made with `$GenerateMoves` and left behind are gone with the turn.
    st.rt.extra_lists.clear();
    st.vm.set_step_budget(st.turn_steps);
    state::generate_in(&mut st.vm, &mut st.rt, &mut st.moves)?;
    *span = (start, st.vm.here());
    Ok(())
}

impl Game for AxiomGame {
    type Moves = AxiomMoves;
    type Undo = Vec<Snapshot>;

    fn default_max_plies(&self) -> u32 {
        super::AXIOM_DEFAULT_MAX_PLIES
    }

    fn num_players(&self) -> usize {
        self.info.players.len()
    }

    fn player_name(&self, player: usize) -> &str {
        self.info.players.get(player).map_or("?", |s| s)
    }

    fn is_random(&self, player: usize) -> bool {
        self.info.is_random(player)
    }

    fn seats(&self) -> Vec<usize> {
        self.seats.clone()
    }

    fn seed_game(&mut self, seed: u64) {
        for s in &mut self.states {
            s.rt.seed_game(seed);
        }
    }

    fn current_player(&self) -> usize {
        self.states[0].player()
    }

    fn legal_moves(&mut self, out: &mut AxiomMoves) {
        if self.caches.state == Seat::Fresh {
            self.take_left_caches();
        }
        out.recs.clear();
        out.captures.clear();
        self.outcome = None;
        let mut span = out.span;
        let st = &mut self.states[0];
        let r = generate_into(st, &mut span).and_then(|()| {
            st.vm.set_step_budget(st.turn_steps);
            let v = state::verdict(&mut st.vm, &mut st.rt)?;
            Ok(v)
        });
        out.span = span;
        out.epoch = self.states[0].rt.list_epoch;
        out.code.clear();
        if let Ok(b) = self.states[0]
            .vm
            .bytes(span.0, span.1.saturating_sub(span.0))
        {
            out.code.extend_from_slice(b);
        }
        match r {
            Ok(v) => {
                let st = &self.states[0];
                out.recs.extend_from_slice(&st.moves);
                out.captures
                    .extend((0..out.recs.len()).map(|i| st.captures(i)));
                self.outcome = self.outcome_of(v, out.recs.is_empty());
                if self.outcome.is_none() && self.repetition && self.repeated() {
                    self.outcome = Some(Outcome::draw(
                        self.info.players.len(),
                        &self.seats,
                        Ending::Repetition,
                    ));
                }
            }
            Err(e) => self.fail(e),
        }
    }

    fn num_moves(moves: &AxiomMoves) -> usize {
        moves.recs.len()
    }

    fn make(&mut self, moves: &AxiomMoves, i: usize) -> Vec<Snapshot> {
        let mut undo = Vec::with_capacity(self.states.len());
        for k in 0..self.states.len() {
            let snap = match self.states[k].snapshot() {
                Ok(s) => s,
                Err(e) => {
                    self.fail(e);
                    return undo;
                }
            };
            undo.push(snap);
            self.apply_in(k, moves, i);
        }
        undo
    }

    /// [`Game::make`] without the snapshots (a tournament's move is never taken back).
    fn play(&mut self, moves: &AxiomMoves, i: usize) {
        for k in 0..self.states.len() {
            self.apply_in(k, moves, i);
        }
    }

    fn unmake(&mut self, _moves: &AxiomMoves, _i: usize, undo: Vec<Snapshot>) {
        for (k, s) in undo.iter().enumerate() {
            if let Err(e) = self.states[k].restore(s) {
                self.fail(e);
            }
        }
    }

    fn outcome(&mut self, _moves: &AxiomMoves) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    fn search_cuts(&self, slot: usize) -> u64 {
        self.states[self.program_of[slot.min(1)]].rt.search_cuts
    }

    fn program_move(&mut self, slot: usize, moves: &AxiomMoves, rng: &mut Rng) -> Option<usize> {
        let k = self.program_of[slot.min(1)];
        let seed = rng.next_u64();
        let r = (|| -> Result<usize, ForthError> {
            if k != 0 {
                self.sync(k, moves)?;
            }
            let st = &mut self.states[k];
            st.rt.rng = Rng::new(seed);
            st.rt.report = Default::default();
            let on_search = st.rt.layout.on_search;
            let snap = st.snapshot()?;
            let data = st.data_snapshot()?;
            let cuts = st.rt.search_cuts;
            let budget = st.rt.search_budget();
            st.vm.set_step_budget(budget);
            let depth = st.vm.stack().len();
            let timed_out = match st.vm.execute(on_search, &mut st.rt) {
                Ok(()) => false,
                // The search's time is up: as ZoG stops an engine when its time runs out,
                // the move it reported last with `BestMove!` is played, else the first
                // move (Splut's engine searches 6 plies in full and reports each better
                // root move as it finds it). See docs/axiom.md.
                Err(e) if matches!(e.kind, crate::forth::ForthErrorKind::StepBudget(_)) => {
                    st.vm.ds_restore(depth);
                    st.rt.abandon_generation();
                    st.rt.extra_lists.clear();
                    // (`$NegamaxMove` and `$UCTMove` count their own cuts.)
                    if st.rt.search_cuts == cuts {
                        st.rt.search_cuts += 1;
                    }
                    true
                }
                Err(e) => return Err(e),
            };
            // Engines must leave the game as they found it: the board and the turn, and the
            // program's variables (a search cut inside a generation leaves them half set).
            st.restore(&snap)?;
            st.restore_data(&data)?;
            if timed_out && st.rt.report.best.is_none() {
                return Ok(0);
            }
            let best = st.rt.report.best.take().ok_or_else(|| {
                ForthError::new(crate::forth::ForthErrorKind::Host(
                    "the engine chose no move (no BestMove!)".into(),
                ))
            })?;
            let st = &self.states[k];
            let notation_of = |r: u32| {
                st.vm
                    .cell(r - super::program::REC_NOTATION)
                    .ok()
                    .and_then(|s| st.vm.cstr(s as u32).ok())
            };
            st.moves
                .iter()
                .position(|&r| notation_of(r) == Some(best.as_slice()))
                .ok_or_else(|| {
                    ForthError::new(crate::forth::ForthErrorKind::Host(
                        "the engine chose a move that is not in the list".into(),
                    ))
                })
        })();
        match r {
            Ok(i) => Some(i),
            Err(e) => {
                self.fail(e);
                Some(0)
            }
        }
    }

    fn hash(&self) -> u64 {
        let st = &self.states[0];
        st.rt.position_key(&st.vm).unwrap_or(0)
    }

    fn board_key(&self) -> u64 {
        self.hash()
    }

    fn notation(&self, moves: &AxiomMoves, i: usize) -> String {
        let st = &self.states[0];
        let Some(&r) = moves.recs.get(i) else {
            return String::new();
        };
        let at = r.wrapping_sub(super::program::REC_NOTATION);
        let Some(s) = moves.saved_cell(at).or_else(|| st.vm.cell(at).ok()) else {
            return String::new();
        };
        moves
            .saved_cstring(s as u32)
            .unwrap_or_else(|| st.vm.cstring(s as u32))
    }

    fn captures(moves: &AxiomMoves, i: usize) -> u32 {
        moves.captures.get(i).copied().unwrap_or(0)
    }

    fn for_each_piece(&self, f: &mut dyn FnMut(PieceInfo)) {
        let st = &self.states[0];
        let l = st.rt.layout;
        let board = st.vm.cell(l.board).unwrap_or(0) as u32;
        for pos in 0..self.info.positions.len() as u32 {
            let v = st.vm.cell(board + 4 * pos).unwrap_or(0);
            let ty = (v & 0x3FF) as usize;
            if v == 0 || ty == 0 {
                continue;
            }
            if let Some(owner) = self.info.player_index(v) {
                f(PieceInfo {
                    pos: Some(PositionId::new(pos)),
                    owner,
                    ty: ty - 1,
                    count: 1,
                });
            }
        }
    }

    fn piece_type_index(&self, name: &str) -> Option<usize> {
        self.info
            .pieces
            .iter()
            .position(|p| p.eq_ignore_ascii_case(name))
    }

    fn num_piece_types(&self) -> usize {
        self.info.pieces.len()
    }

    fn num_positions(&self) -> usize {
        self.info.positions.len()
    }

    fn zone_index(&self, _name: &str) -> Option<usize> {
        None
    }

    fn in_zone(&self, _zone: usize, _player: usize, _pos: PositionId) -> bool {
        false
    }

    fn direction_index(&self, _name: &str) -> Option<usize> {
        None
    }

    fn link(&self, _player: usize, _dir: usize, _pos: PositionId) -> Option<PositionId> {
        None
    }
}

/// Runs `f` on a runtime (keeps the type in use for embedders).
pub fn runtime_of(g: &AxiomGame) -> &Runtime {
    &g.states[0].rt
}
