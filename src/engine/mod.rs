//! The headless engine: states, legal moves, make/unmake, hashing, results, perft.
//!
//! An [`Engine`] wraps a compiled [`Model`] (shared, read-only) and scratch buffers of its
//! own; clone it to get another independent engine over the same model (one per thread).
//! A [`State`] is a flat array of cells — one per board position (0 = empty, otherwise a
//! packed piece, see [`crate::model::piece`]) followed by one hand counter per player and
//! piece type — plus the turn index, the last move's squares, the Zobrist hash and the hash
//! history used for repetition.
//!
//! A [`Move`] is a whole turn (a chain of partial moves counts as one move) stored as a list
//! of cell [`Change`]s carrying both the old and the new value, so [`Engine::unmake`] needs
//! only the small [`Undo`] record. [`MoveList`] keeps its moves' buffers between uses: after
//! warm-up, generating and playing moves does not allocate.
//!
//! A state also carries the counters of the goals that depend only on the board
//! (`goal_index`), which [`Engine::make`] and [`Engine::unmake`] keep up to date through
//! the changed cells; states are therefore made by [`Engine::initial_state`] and changed
//! only by make/unmake.
//!
//! Sub-modules: `vm` (the bytecode VM: runs move blocks, attack tests), `generate` (the
//! legal-move pipeline), `scan` (board scans the VM may skip or cache), `reach` (attack
//! pruning tables), `goal_index` (goals compiled into incremental counters), `outcome`
//! (goals and results), `hash` (Zobrist keys), `notation`, [`perft`], `play`.

pub(crate) mod generate;
mod goal_index;
pub(crate) mod hash;
pub(crate) mod notation;
pub(crate) mod outcome;
pub mod perft;
pub(crate) mod play;
mod reach;
mod scan;
pub(crate) mod steps;
mod vm;

use crate::diagnostics::Diagnostic;
use crate::model::{CellId, Model, MoveType, NONE, PieceTypeId, PlayerId, PositionId, piece};
use std::sync::Arc;

pub use notation::{
    Written, find_notation, find_written, normalise as normalise_notation, split_written,
};
pub use outcome::{Ending, Outcome, PlayerResult, RepetitionRule};
pub use play::{IllegalMove, Piece};
pub use steps::Steps;

/// One cell change of a move: `cells[cell]` goes from `old` to `new`. A move's changes are
/// applied in order and undone in reverse order; a cell may appear several times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub cell: CellId,
    pub old: u32,
    pub new: u32,
}

/// What a move did, for notation: one entry per movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// Type of the piece that moved (before promotion).
    pub ty: PieceTypeId,
    /// Origin square, or [`PositionId::NONE`] for a drop.
    pub from: PositionId,
    pub to: PositionId,
    /// The part captured something.
    pub capture: bool,
    /// New type after the move, or [`PieceTypeId::NONE`].
    pub promote: PieceTypeId,
    /// A piece moved by `cascade` (e.g. the rook of a castling move).
    pub cascade: bool,
}

/// One action of a move block, as the block queued it (`capture`, `flip`, `change-owner`,
/// `change-type`, `create`, `set-attribute`): what ZoG's notation writes after the
/// movements, in this order, whether it changed the board or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActNote {
    pub kind: ActKind,
    pub pos: PositionId,
    /// The type of `ChangeType`, the packed piece of `Create`, for `SetAttr` the attribute
    /// index in the low 16 bits and the value in bit 16; 0 otherwise.
    pub arg: u32,
}

/// The kind of an [`ActNote`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActKind {
    Capture,
    Flip,
    ChangeOwner,
    ChangeType,
    Create,
    SetAttr,
}

/// A whole move (all parts of a partial chain).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Move {
    pub changes: Vec<Change>,
    pub notes: Vec<MoveNote>,
    /// The actions the blocks queued, in order (for notation).
    pub acts: Vec<ActNote>,
    /// Pieces captured by the whole move.
    pub captures: u32,
    /// Captured pieces whose type is not the first declared type ("kings" for
    /// `"maximal captures" 2`).
    pub king_captures: u32,
    /// Origin and destination of the last part (what `last-from?`/`last-to?` see next;
    /// [`PositionId::NONE`] for a pass).
    pub last_from: PositionId,
    pub last_to: PositionId,
    /// Move type of the first part.
    pub move_type: MoveType,
    /// A pass: no change at all.
    pub pass: bool,
    /// Continuation move type while a chain is being built ([`MoveType::NONE`] when
    /// complete).
    pub(crate) partial: MoveType,
    /// What king safety may know of the move without reading its changes.
    pub(crate) shape: Shape,
    /// Where each part of a partial chain but the last ends: `[changes, notes, acts]`
    /// lengths and the part's continuation move type (empty for a move of one part). See
    /// [`Move::part`].
    pub(crate) part_ends: Vec<[u32; 4]>,
    /// The continuation move type the last part asked for (`add-partial`) when none
    /// followed it, or [`MoveType::NONE`].
    pub(crate) last_partial: MoveType,
}

/// What king safety may know of a move without reading its changes (derived from them,
/// so it is not part of the move's identity: any two shapes compare equal).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) enum Shape {
    /// Nothing: read the changes.
    #[default]
    Unknown,
    /// The move changes the board only on `last_from` (when it is a position) and
    /// `last_to`, and places no piece of another player than the mover; `royal` is false
    /// only when no royal piece is moved, placed or captured by it.
    Step { royal: bool },
}

impl PartialEq for Shape {
    fn eq(&self, _: &Shape) -> bool {
        true
    }
}

impl Eq for Shape {}

impl Move {
    fn reset(&mut self) {
        self.changes.clear();
        self.notes.clear();
        self.acts.clear();
        self.captures = 0;
        self.king_captures = 0;
        self.last_from = PositionId::NONE;
        self.last_to = PositionId::NONE;
        self.move_type = MoveType::DEFAULT;
        self.pass = false;
        self.partial = MoveType::NONE;
        self.shape = Shape::Unknown;
        self.part_ends.clear();
        self.last_partial = MoveType::NONE;
    }
    /// Copies `other` into `self`, reusing `self`'s buffers.
    pub fn copy_from(&mut self, other: &Move) {
        self.changes.clone_from(&other.changes);
        self.notes.clone_from(&other.notes);
        self.acts.clone_from(&other.acts);
        self.captures = other.captures;
        self.king_captures = other.king_captures;
        self.last_from = other.last_from;
        self.last_to = other.last_to;
        self.move_type = other.move_type;
        self.pass = other.pass;
        self.partial = other.partial;
        self.shape = other.shape;
        self.part_ends.clone_from(&other.part_ends);
        self.last_partial = other.last_partial;
    }

    /// The number of parts: 1, or the steps of a partial chain.
    pub fn num_parts(&self) -> usize {
        self.part_ends.len() + 1
    }

    /// Part `i` of the move (`0..num_parts()`): its changes and notes. The parts of a
    /// chain applied one after the other make the whole move.
    pub fn part(&self, i: usize) -> Option<MovePart<'_>> {
        if i > self.part_ends.len() {
            return None;
        }
        let start = if i == 0 {
            [0, 0, 0, 0]
        } else {
            self.part_ends[i - 1]
        };
        let end = self.part_ends.get(i).copied().unwrap_or([
            self.changes.len() as u32,
            self.notes.len() as u32,
            self.acts.len() as u32,
            self.last_partial.get(),
        ]);
        let partial = MoveType::new(end[3]);
        Some(MovePart {
            changes: &self.changes[start[0] as usize..end[0] as usize],
            notes: &self.notes[start[1] as usize..end[1] as usize],
            acts: &self.acts[start[2] as usize..end[2] as usize],
            pass: self.pass,
            partial: (!partial.is_none()).then(|| partial.get()),
        })
    }
}

/// One step of a move (the whole move when it is not a chain): see [`Move::part`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovePart<'a> {
    pub changes: &'a [Change],
    pub notes: &'a [MoveNote],
    pub acts: &'a [ActNote],
    /// The move is a pass.
    pub pass: bool,
    /// The part was made by `add-partial`: the index of the continuation's move type (in
    /// [`crate::model::Model::move_types`]), which a saved game writes as `partial N`.
    pub partial: Option<u32>,
}

/// A reusable list of moves: slots keep their buffers when the list is cleared.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    moves: Vec<Move>,
    len: usize,
}

impl MoveList {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
    pub fn get(&self, i: usize) -> Option<&Move> {
        self.as_slice().get(i)
    }
    /// A fresh (reset) slot at the end.
    #[inline]
    pub(crate) fn push_slot(&mut self) -> &mut Move {
        if self.len == self.moves.len() {
            self.moves.push(Move::default());
        }
        let m = &mut self.moves[self.len];
        self.len += 1;
        m.reset();
        m
    }
    pub(crate) fn slot_mut(&mut self, i: usize) -> &mut Move {
        &mut self.moves[i]
    }
    /// Keeps the moves for which `keep` is true, in order.
    pub(crate) fn retain_by(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut w = 0;
        for r in 0..self.len {
            if keep(&self.moves[r]) {
                if w != r {
                    self.moves.swap(w, r);
                }
                w += 1;
            }
        }
        self.len = w;
    }
    /// Keeps the moves whose flag is true.
    pub(crate) fn retain_flags(&mut self, flags: &[bool]) {
        let mut i = 0;
        self.retain_by(|_| {
            i += 1;
            flags[i - 1]
        });
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A game position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Board cells then hand counters (see the module documentation).
    pub cells: Vec<u32>,
    /// Index into the model's turn order.
    pub turn: u32,
    /// The previous move's origin and destination ([`PositionId::NONE`] at the start or
    /// after a pass).
    pub last_from: PositionId,
    pub last_to: PositionId,
    /// The player who made the previous move ([`PlayerId::NONE`] at the start).
    pub last_player: PlayerId,
    /// Zobrist hash of cells and turn.
    pub hash: u64,
    /// Hashes of every position of the game so far, the current one last; only the
    /// start position's in a game where no position can repeat (`Tables::no_repeat`),
    /// whose moves [`Engine::make`] does not record.
    pub history: Vec<u64>,
    /// How many entries of `history` fall in each of [`SEEN_BUCKETS`] buckets (by their
    /// low bits), kept by [`Engine::make`] and [`Engine::unmake`] (wrapping, so exact while
    /// the history is shorter than `u16::MAX`). A position whose bucket holds only itself
    /// cannot repeat, so the repetition test scans the history only otherwise.
    pub(crate) seen: HistoryBuckets,
    /// The counters of the board-local goal conditions (see `engine::goal_index`), kept
    /// up to date by [`Engine::make`] and [`Engine::unmake`].
    pub(crate) goal_counts: Vec<u32>,
    /// What make changed in `goal_counts`, for unmake: per move made and not yet taken
    /// back, the (counter, value before) of every update, in order (each move's `Undo`
    /// says where its entries start). Unmake writes the old values back, last first.
    pub(crate) goal_log: Vec<[u32; 2]>,
}

/// Buckets of `State::seen` (a power of two).
pub(crate) const SEEN_BUCKETS: usize = 4096;

/// The history's entries counted by hash bucket (`State::seen`): derived from the history,
/// so its `Debug` form only names it.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct HistoryBuckets(Box<[u16; SEEN_BUCKETS]>);

impl std::fmt::Debug for HistoryBuckets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HistoryBuckets(..)")
    }
}

#[inline]
fn seen_bucket(h: u64) -> usize {
    h as usize & (SEEN_BUCKETS - 1)
}

impl State {
    /// Pushes `h` on the history.
    #[inline]
    fn push_history(&mut self, h: u64) {
        self.history.push(h);
        let b = &mut self.seen.0[seen_bucket(h)];
        *b = b.wrapping_add(1);
    }

    /// Pops the last history entry, the current position's (`self.hash`).
    #[inline]
    fn pop_history(&mut self) {
        self.history.pop();
        let b = &mut self.seen.0[seen_bucket(self.hash)];
        *b = b.wrapping_sub(1);
    }

    /// How often the current position occurs in the history (itself included).
    #[inline]
    pub(crate) fn occurrences(&self) -> usize {
        if self.history.len() < usize::from(u16::MAX) && self.seen.0[seen_bucket(self.hash)] == 1 {
            // Only the current position is in its bucket (no count can have wrapped).
            return 1;
        }
        self.history.iter().filter(|&&h| h == self.hash).count()
    }
}

/// What [`Engine::unmake`] needs besides the move.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    turn: u32,
    last_from: PositionId,
    last_to: PositionId,
    last_player: PlayerId,
    hash: u64,
    /// The length of `State::goal_log` before the move: unmake restores the counters
    /// logged after it.
    goal_log_len: u32,
}

/// A piece type a player can drop, as the drop step needs it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DropPlan {
    /// The piece type's index.
    pub ty: u32,
    /// The dropped piece's value (type, owner, initial attributes).
    pub v: u32,
    /// The hand cell counting the pieces left, or `None` when drops of the type are
    /// unlimited.
    pub hand: Option<CellId>,
}

/// One turn index as make passes it on: the next index, the player who moves now, and the
/// XOR of the two indices' Zobrist keys (`hash::turn_key`), so that make mixes no key for
/// the turn.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TurnStep {
    pub next: u32,
    pub player: PlayerId,
    pub key: u64,
}

/// Read-only tables derived from the model once.
#[derive(Debug)]
pub(crate) struct Tables {
    pub model: Model,
    /// `links[player][pos * width + slot]`: slot `d` is direction `d` after the player's
    /// symmetry, slot `nd + d` its opposite.
    pub links: Vec<Vec<PositionId>>,
    pub width: usize,
    /// Players that never take a turn of their own (their pieces are neutral).
    pub neutral: Vec<bool>,
    pub royal: Vec<bool>,
    /// Pieces per (player, type) at the start, on board and in hand.
    pub start_counts: Vec<u32>,
    /// Attack-test pruning (None: test every piece).
    pub reach: Option<reach::Reach>,
    /// Compact copy of `model.code` for the VM's fast path (all `Other` when it is off);
    /// each step holds the classes of square on which a run that starts with it certainly
    /// fails (`vm::fail_after_step`).
    pub fast: Vec<vm::FastOp>,
    /// False when built by [`Engine::without_fast_path`].
    pub fast_path: bool,
    /// Board scans that attack runs skip.
    pub scans: scan::Scans,
    /// The goals compiled for incremental checks.
    pub goals: goal_index::GoalIndex,
    /// The squares a piece may be dropped on (the board's positions that are not dummies),
    /// in position order.
    pub drop_sites: Vec<PositionId>,
    /// Per piece type: every drop block starts by requiring its square to be empty (read
    /// from the fast-path table), so an occupied square is skipped without a run.
    pub drops_need_empty: Vec<bool>,
    /// Per piece type: every drop block is plain, `(verify empty?) add` and nothing else
    /// (an `add` without promotion types), with the `add-partial` move type of each block
    /// in `piece_types[ty].drops` order; such drops are built without a run
    /// (`Scratch::emit_drop`). Implies `drops_need_empty`.
    pub plain_drops: Vec<Option<Vec<MoveType>>>,
    /// Per player: the piece types it can drop, in type order (see [`DropPlan`]).
    pub drop_plans: Vec<Vec<DropPlan>>,
    /// Some piece type has drops.
    pub has_drops: bool,
    /// What make needs of each turn index, looked up at once: see [`TurnStep`].
    pub turn_steps: Vec<TurnStep>,
    /// Some piece type has moves (not only drops).
    pub has_piece_moves: bool,
    /// Every move of the game is a plain drop (see `plain_drops`): no piece type has
    /// moves, every drop block is plain and complete (no `add-partial`), and there are no
    /// royal pieces, move priorities or passes. Such a game's moves are listed straight
    /// from the state's cells, without loading the scratch board or running the pipeline's
    /// later steps (none of which could change them). Implies `no_repeat`; off without the
    /// fast path.
    pub placement_only: bool,
    /// Every move fills an empty board square and empties none (all moves are complete
    /// plain drops and no player may pass), so no position can occur twice: make keeps no
    /// history. A fact of the rules, the same with or without the fast path.
    pub no_repeat: bool,
}

impl Tables {
    /// How often the position of `s` has occurred, itself included (always once in a game
    /// where no position can repeat, whose history make does not keep).
    #[inline]
    pub(crate) fn occurrences(&self, s: &State) -> usize {
        if self.no_repeat { 1 } else { s.occurrences() }
    }
}

/// True when every move of `model` is a complete plain drop (`(verify empty?) add`, read
/// from the fast-path table `fast`) and no player may pass: every move then fills an empty
/// board square and empties none, so no position can occur twice.
fn only_plain_drops(model: &Model, fast: &[vm::FastOp]) -> bool {
    model.piece_types.iter().any(|pt| !pt.drops.is_empty())
        && model.piece_types.iter().all(|pt| {
            pt.moves.is_empty()
                && pt.drops.iter().all(|b| {
                    plain_drop(&model.code, fast, b.start as usize).is_some_and(|p| p.is_none())
                })
        })
        && model.options.pass_turn == crate::model::PassTurn::Never
}

/// The `add-partial` move type of the block at `start` when it is a plain drop:
/// `(verify empty?) add` (no promotion types) and the end, all on the fast path.
fn plain_drop(code: &[crate::model::Op], fast: &[vm::FastOp], start: usize) -> Option<MoveType> {
    use crate::model::Op;
    use vm::{FastOp, SimplePred};
    let ops = fast.get(start..start + 4)?;
    let [
        FastOp::Require(SimplePred::Empty, false),
        _,
        FastOp::Add,
        FastOp::End,
    ] = ops
    else {
        return None;
    };
    match code.get(start + 2)? {
        Op::Add {
            ntypes: 0, partial, ..
        } => Some(*partial),
        _ => None,
    }
}

fn uses_attack_tests(m: &Model) -> bool {
    use crate::model::{Op, Pred};
    m.code.iter().any(|op| {
        matches!(
            op,
            Op::Test {
                pred: Pred::Attacked(_) | Pred::Defended(_),
                ..
            }
        )
    })
}

/// Limits on runaway rules.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// `while` iterations allowed in one block run.
    pub loop_steps: u32,
    /// Chain nodes explored for one root position.
    pub chain_nodes: u32,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            loop_steps: 10_000,
            chain_nodes: 200_000,
        }
    }
}

/// The engine: a shared model plus scratch buffers. See the module documentation.
pub struct Engine {
    pub(crate) t: Arc<Tables>,
    pub(crate) vm: vm::Scratch,
    pub(crate) pipe: generate::Pipeline,
    pub budget: Budget,
    /// What threefold repetition does (ZoG: a draw).
    pub repetition: RepetitionRule,
    runtime: Vec<Diagnostic>,
    pub(crate) probe: MoveList,
    pub(crate) perft_lists: Vec<MoveList>,
}

impl Clone for Engine {
    fn clone(&self) -> Self {
        Engine {
            t: self.t.clone(),
            vm: vm::Scratch::new(&self.t),
            pipe: generate::Pipeline::new(),
            budget: self.budget,
            repetition: self.repetition,
            runtime: vec![],
            probe: MoveList::new(),
            perft_lists: vec![],
        }
    }
}

impl Engine {
    /// Builds the engine's tables for a compiled model.
    pub fn new(model: Model) -> Engine {
        Engine::build(model, true, true)
    }

    /// Like [`Engine::new`] but without the attack-pruning table: every attack test (king
    /// safety, `attacked?`) tries every piece. Results are the same, only slower; this
    /// exists to check that.
    #[doc(hidden)]
    pub fn without_attack_pruning(model: Model) -> Engine {
        Engine::build(model, false, true)
    }

    /// True when attack tests are pruned by a reach table (see [`Engine::without_attack_pruning`]).
    #[doc(hidden)]
    pub fn has_attack_pruning(&self) -> bool {
        self.t.reach.is_some()
    }

    /// Like [`Engine::new`] but without the VM's fast path: every move block runs in the
    /// full interpreter from its first instruction. Results are the same, only slower; this
    /// exists to check that.
    #[doc(hidden)]
    pub fn without_fast_path(model: Model) -> Engine {
        Engine::build(model, true, false)
    }

    /// True unless built by [`Engine::without_fast_path`].
    #[doc(hidden)]
    pub fn has_fast_path(&self) -> bool {
        self.t.fast_path
    }

    /// True when some piece type's drops are all plain (built without a run, see
    /// `Tables::plain_drops`).
    #[doc(hidden)]
    pub fn has_plain_drops(&self) -> bool {
        self.t.plain_drops.iter().any(Option::is_some)
    }

    /// True when every move of the game is a plain drop, listed straight from the state
    /// (`Tables::placement_only`).
    #[doc(hidden)]
    pub fn is_placement_only(&self) -> bool {
        self.t.placement_only
    }

    /// True when some `set-attribute` runs on the fast path alone, so that a write that can
    /// change nothing is not queued (`vm::plain_blocks`; tests compare such engines with
    /// the full interpreter).
    #[doc(hidden)]
    pub fn has_plain_attr_writes(&self) -> bool {
        self.t
            .fast
            .iter()
            .any(|op| matches!(op, vm::FastOp::SetAttr { plain: true, .. }))
    }

    /// True when some block that starts with a step can be skipped by the occupant of the
    /// square it steps to (`vm::fail_after_step`; tests compare such engines with the full
    /// interpreter).
    #[doc(hidden)]
    pub fn has_step_skips(&self) -> bool {
        self.t
            .fast
            .iter()
            .any(|op| matches!(op, vm::FastOp::Step { fail, .. } if *fail != 0))
    }

    fn build(model: Model, pruning: bool, fast_path: bool) -> Engine {
        let nd = model.num_directions();
        let np = model.num_positions();
        let width = 2 * nd;
        let links: Vec<Vec<PositionId>> = (0..model.players.len())
            .map(|p| {
                let sym = &model.symmetry[p];
                let mut v = vec![PositionId::NONE; np * width];
                for i in 0..np {
                    let pos = PositionId::new(i as u32);
                    for d in 0..nd {
                        let abs = sym[d];
                        v[i * width + d] = model.link(pos, abs);
                        let opp = model.opposite[abs as usize];
                        if opp != NONE {
                            v[i * width + nd + d] = model.link(pos, opp);
                        }
                    }
                }
                v
            })
            .collect();
        let mut neutral = vec![true; model.players.len()];
        for t in &model.turns {
            neutral[t.player.index()] = false;
        }
        let mut royal = vec![false; model.piece_types.len()];
        for &r in &model.royal_types {
            royal[r.index()] = true;
        }
        let nt = model.piece_types.len();
        let mut start_counts = vec![0; model.players.len() * nt];
        for &(_, pc) in &model.setup {
            start_counts[piece::owner(pc).index() * nt + piece::ty(pc).index()] += 1;
        }
        for &(p, ty, n) in &model.hand_setup {
            start_counts[p.index() * nt + ty as usize] += n;
        }
        let scans = scan::Scans::find(&model.code, &links, width, np);
        let mut fast = vm::fast_ops(&model.code, fast_path, &scans.at);
        vm::mark_step_skips(&mut fast);
        vm::plain_blocks(&mut fast);
        let drop_sites = model
            .position_ids()
            .filter(|&p| !model.dummy_positions.contains(p))
            .collect();
        let drops_need_empty = model
            .piece_types
            .iter()
            .map(|pt| {
                !pt.drops.is_empty()
                    && pt.drops.iter().all(|b| {
                        fast.get(b.start as usize)
                            == Some(&vm::FastOp::Require(vm::SimplePred::Empty, false))
                    })
            })
            .collect();
        let plain_drops = model
            .piece_types
            .iter()
            .map(|pt| {
                if pt.drops.is_empty() {
                    return None;
                }
                pt.drops
                    .iter()
                    .map(|b| plain_drop(&model.code, &fast, b.start as usize))
                    .collect()
            })
            .collect();
        let has_drops = model.piece_types.iter().any(|pt| !pt.drops.is_empty());
        let drop_plans = (0..model.players.len() as u32)
            .map(|p| {
                let p = PlayerId::new(p);
                model
                    .piece_types
                    .iter()
                    .enumerate()
                    .filter(|(_, pt)| !pt.drops.is_empty())
                    .map(|(i, pt)| {
                        let ty = PieceTypeId::new(i as u32);
                        DropPlan {
                            ty: i as u32,
                            v: piece::make(ty, p, pt.attrs),
                            hand: (!model.unlimited_drops[i]).then(|| model.hand_cell(p, ty)),
                        }
                    })
                    .collect()
            })
            .collect();
        let has_piece_moves = model.piece_types.iter().any(|pt| !pt.moves.is_empty());
        // Whether every move fills an empty square is a fact of the rules: read from the
        // fast-path table even when the engine is built without it, so that states stay
        // interchangeable between the two engines.
        let no_repeat = if fast_path {
            only_plain_drops(&model, &fast)
        } else {
            only_plain_drops(&model, &vm::fast_ops(&model.code, true, &scans.at))
        };
        let placement_only = no_repeat
            && fast_path
            && model.royal_types.is_empty()
            && !model.has_priorities
            && !model.has_partial;
        let next_turn = |turn: u32| {
            if turn as usize + 1 >= model.turns.len() {
                model.repeat_from as u32
            } else {
                turn + 1
            }
        };
        let turn_steps = (0..model.turns.len() as u32)
            .map(|turn| TurnStep {
                next: next_turn(turn),
                player: model.turns[turn as usize].player,
                key: hash::turn_key(turn) ^ hash::turn_key(next_turn(turn)),
            })
            .collect();
        let mut t = Tables {
            turn_steps,
            has_piece_moves,
            placement_only,
            no_repeat,
            has_drops,
            drop_sites,
            drops_need_empty,
            plain_drops,
            drop_plans,
            fast,
            fast_path,
            scans,
            model,
            links,
            width,
            neutral,
            royal,
            start_counts,
            reach: None,
            goals: goal_index::GoalIndex::default(),
        };
        t.goals = goal_index::GoalIndex::build(&t);
        if pruning && (!t.model.royal_types.is_empty() || uses_attack_tests(&t.model)) {
            t.reach = reach::Reach::compute(&t);
        }
        let t = Arc::new(t);
        Engine {
            vm: vm::Scratch::new(&t),
            pipe: generate::Pipeline::new(),
            t,
            budget: Budget::default(),
            repetition: RepetitionRule::default(),
            runtime: vec![],
            probe: MoveList::new(),
            perft_lists: vec![],
        }
    }

    /// The compiled model.
    pub fn model(&self) -> &Model {
        &self.t.model
    }

    /// The start position.
    pub fn initial_state(&self) -> State {
        let m = &self.t.model;
        let mut cells = vec![0u32; m.num_cells()];
        for &(pos, pc) in &m.setup {
            cells[pos.index()] = pc;
        }
        for &(p, ty, n) in &m.hand_setup {
            cells[m.hand_cell(p, PieceTypeId::new(ty)).index()] += n;
        }
        let mut s = State {
            cells,
            turn: 0,
            last_from: PositionId::NONE,
            last_to: PositionId::NONE,
            last_player: PlayerId::NONE,
            hash: 0,
            history: vec![],
            seen: HistoryBuckets(Box::new([0; SEEN_BUCKETS])),
            goal_counts: vec![],
            goal_log: vec![],
        };
        s.goal_counts = self.t.goals.counts(&s.cells);
        s.hash = self.full_hash(&s);
        s.push_history(s.hash);
        s
    }

    /// The player whose turn it is.
    pub fn current_player(&self, s: &State) -> usize {
        self.t.model.turns[s.turn as usize].player.index()
    }

    /// True when the player to move is a random player (`?Name`): the caller should pick
    /// one of its legal moves uniformly at random.
    pub fn is_random_player(&self, s: &State) -> bool {
        self.t.model.players[self.current_player(s)].random
    }

    /// The turn index after `turn` (the cycle restarts at `repeat`).
    pub fn next_turn(&self, turn: u32) -> u32 {
        self.t
            .turn_steps
            .get(turn as usize)
            .map_or(self.t.model.repeat_from as u32, |step| step.next)
    }

    /// Hash recomputed from scratch (equal to the incremental [`State::hash`]).
    pub fn full_hash(&self, s: &State) -> u64 {
        let mut h = hash::turn_key(s.turn);
        for (i, &v) in s.cells.iter().enumerate() {
            h ^= hash::cell_key(CellId::new(i as u32), v);
        }
        h
    }

    /// Plays a move generated for `s`.
    pub fn make(&self, s: &mut State, m: &Move) -> Undo {
        let undo = Undo {
            turn: s.turn,
            last_from: s.last_from,
            last_to: s.last_to,
            last_player: s.last_player,
            hash: s.hash,
            goal_log_len: s.goal_log.len() as u32,
        };
        let mut h = s.hash;
        for c in &m.changes {
            s.cells[c.cell.index()] = c.new;
            h ^= hash::cell_key(c.cell, c.old) ^ hash::cell_key(c.cell, c.new);
        }
        let goals = &self.t.goals;
        if goals.len() > 0 {
            // (Hand cells feed no counter: no call for them.)
            for c in m.changes.iter().filter(|c| goals.is_square(c.cell.index())) {
                let (counts, log) = (&mut s.goal_counts, &mut s.goal_log);
                goals.change(counts, log, c.cell.index(), c.old, c.new);
            }
        }
        s.last_from = m.last_from;
        s.last_to = m.last_to;
        let step = self.t.turn_steps[s.turn as usize];
        s.last_player = step.player;
        h ^= step.key;
        s.turn = step.next;
        s.hash = h;
        if !self.t.no_repeat {
            s.push_history(h);
        }
        undo
    }

    /// The goal counters' part of [`Engine::unmake`]: the values the move's updates
    /// replaced written back, last first (out of line: games without board-local goals
    /// keep a small `unmake`).
    #[inline(never)]
    fn goals_unmade(s: &mut State, at: usize) {
        for &[k, v] in s.goal_log[at..].iter().rev() {
            s.goal_counts[k as usize] = v;
        }
        s.goal_log.truncate(at);
    }

    /// Takes back `m`, which must be the last move made on `s`.
    #[inline]
    pub fn unmake(&self, s: &mut State, m: &Move, u: Undo) {
        for c in m.changes.iter().rev() {
            s.cells[c.cell.index()] = c.old;
        }
        if self.t.goals.len() > 0 {
            Self::goals_unmade(s, u.goal_log_len as usize);
        }
        s.turn = u.turn;
        s.last_from = u.last_from;
        s.last_to = u.last_to;
        s.last_player = u.last_player;
        if !self.t.no_repeat {
            s.pop_history();
        }
        s.hash = u.hash;
    }

    /// Runtime problems met so far (step budgets exceeded); drains them.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        let mut v = std::mem::take(&mut self.runtime);
        v.append(&mut self.pipe.diags);
        v
    }
}
