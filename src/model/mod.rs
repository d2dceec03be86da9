//! The compiled model of one game: a compact, index-based form of a merged `(game …)` list.
//!
//! [`Model::compile`] turns a [`GameDef`] into a [`Model`]: positions and directions become
//! indices, links a flat table, zones bitsets, move blocks bytecode (`code`), goals a small
//! tree ([`goals`]). The engine ([`crate::engine`]) runs on the model only.
//!
//! Sub-modules: `board` (grids, positions, links), `code` (the move bytecode and its
//! compiler), [`goals`] (goal conditions and their compiler), `names` (the name table both
//! compilers look names up in), `compile` (the driver, one module per section: players,
//! board, symmetry and zones, pieces and their blocks, turn order, setup, goals, options and
//! move priorities).

pub(crate) mod board;
pub(crate) mod code;
pub(crate) mod compile;
pub mod goals;
pub(crate) mod names;

use crate::diagnostics::Diagnostic;
use crate::expand::GameDef;
use std::collections::HashMap;

pub use code::{Op, Pred, Target};
pub use goals::{Goal, GoalCond, GoalKind, Occupant, Occupants, Owner};

/// The raw "none" value of the id newtypes' `NONE` constants.
pub const NONE: u32 = u32::MAX;

/// A move type: an index into [`Model::move_types`] (0 = the default, unnamed type).
///
/// `#[repr(transparent)]` over `u32`, so the bytecode, the blocks and the moves store it
/// exactly as the plain index they stored before. Where a move type may be missing inside
/// such packed data (the continuation of [`Op::Add`], the filter of `(attacked? …)`, the
/// filter of attack runs), [`MoveType::NONE`] stands for "none"; elsewhere it is an
/// `Option<MoveType>`.
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveType(u32);

impl MoveType {
    /// The default, unnamed move type.
    pub const DEFAULT: MoveType = MoveType(0);
    /// No move type (a sentinel for packed data; see the type's documentation).
    pub const NONE: MoveType = MoveType(NONE);

    /// The move type with index `i` into [`Model::move_types`].
    #[inline]
    pub const fn new(i: u32) -> MoveType {
        MoveType(i)
    }
    /// The index into [`Model::move_types`].
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The index as stored.
    #[inline]
    pub const fn get(self) -> u32 {
        self.0
    }
    /// True for [`MoveType::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == NONE
    }
}

/// The bare index, as model listings (`convert --stage model`) have always shown it.
impl std::fmt::Debug for MoveType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A piece type: an index into [`Model::piece_types`].
///
/// `#[repr(transparent)]` over `u32`, like [`MoveType`]: packed pieces (see [`piece`]),
/// the bytecode and moves keep their layout. [`PieceTypeId::NONE`] stands for "none" inside
/// packed data (no promotion in a [`crate::engine::MoveNote`], the moving piece's type in
/// `Op::Create`).
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceTypeId(u32);

impl PieceTypeId {
    /// No piece type (a sentinel for packed data; see the type's documentation).
    pub const NONE: PieceTypeId = PieceTypeId(NONE);

    /// The piece type with index `i` into [`Model::piece_types`].
    #[inline]
    pub const fn new(i: u32) -> PieceTypeId {
        PieceTypeId(i)
    }
    /// The index into [`Model::piece_types`].
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The index as stored.
    #[inline]
    pub const fn get(self) -> u32 {
        self.0
    }
    /// True for [`PieceTypeId::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == NONE
    }
}

/// The bare index, as model listings (`convert --stage model`) have always shown it.
impl std::fmt::Debug for PieceTypeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A board position: an index into [`Model::positions`].
///
/// `#[repr(transparent)]` over `u32`, like [`MoveType`]: the link tables, the bytecode
/// ([`Op::Jump`], [`Target::Pos`], [`Pred::Position`]), moves and states store it exactly as
/// the plain index they stored before. [`PositionId::NONE`] stands for "no position" inside
/// packed data: a missing link in [`Model::links`] and the engine's link tables, no origin
/// (a drop) in a [`crate::engine::MoveNote`], no previous move in
/// [`crate::engine::State::last_from`]; elsewhere it is an `Option<PositionId>`.
///
/// A position is also a cell of a state (board cells come first, see [`CellId`]):
/// [`PositionId::cell`] converts at no cost.
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PositionId(u32);

impl PositionId {
    /// No position (a sentinel for packed data; see the type's documentation).
    pub const NONE: PositionId = PositionId(NONE);

    /// The position with index `i` into [`Model::positions`].
    #[inline]
    pub const fn new(i: u32) -> PositionId {
        PositionId(i)
    }
    /// The index into [`Model::positions`].
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The index as stored.
    #[inline]
    pub const fn get(self) -> u32 {
        self.0
    }
    /// True for [`PositionId::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == NONE
    }
    /// The position, or `None` for [`PositionId::NONE`].
    #[inline]
    pub const fn to_option(self) -> Option<PositionId> {
        if self.is_none() { None } else { Some(self) }
    }
    /// The state cell holding this position's piece (same index).
    #[inline]
    pub const fn cell(self) -> CellId {
        CellId(self.0)
    }
}

/// The bare index, as model listings (`convert --stage model`) have always shown it.
impl std::fmt::Debug for PositionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A cell of a state: an index into [`crate::engine::State::cells`].
///
/// Board positions come first (cell `i` is [`PositionId`] `i`, see [`PositionId::cell`]),
/// then one hand counter per player and piece type ([`Model::hand_cell`]).
/// `#[repr(transparent)]` over `u32`, so [`crate::engine::Change`] keeps its layout. Every
/// cell id is a real cell: there is no sentinel.
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(u32);

impl CellId {
    /// The cell with index `i` into the state's cells.
    #[inline]
    pub const fn new(i: u32) -> CellId {
        CellId(i)
    }
    /// The index into the state's cells.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The index as stored.
    #[inline]
    pub const fn get(self) -> u32 {
        self.0
    }
    /// The position of a board cell (same index). Only meaningful for a cell below
    /// [`Model::num_positions`]; a hand counter has no position.
    #[inline]
    pub const fn position(self) -> PositionId {
        PositionId(self.0)
    }
}

impl From<PositionId> for CellId {
    #[inline]
    fn from(p: PositionId) -> CellId {
        p.cell()
    }
}

/// The bare index.
impl std::fmt::Debug for CellId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A player: an index into [`Model::players`].
///
/// `#[repr(transparent)]` over `u32`, like [`MoveType`]: the owner field of a packed piece
/// (see [`piece`]), the bytecode and states keep their layout. [`PlayerId::NONE`] stands
/// for "none" inside packed data (the owner of `Op::Create` when it is the mover, no
/// previous move in [`crate::engine::State::last_player`]). Tables indexed by player
/// (link tables, zones, symmetry) take [`PlayerId::index`].
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(u32);

impl PlayerId {
    /// No player (a sentinel for packed data; see the type's documentation).
    pub const NONE: PlayerId = PlayerId(NONE);

    /// The player with index `i` into [`Model::players`].
    #[inline]
    pub const fn new(i: u32) -> PlayerId {
        PlayerId(i)
    }
    /// The index into [`Model::players`].
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The index as stored.
    #[inline]
    pub const fn get(self) -> u32 {
        self.0
    }
    /// True for [`PlayerId::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == NONE
    }
}

/// The bare index, as model listings (`convert --stage model`) have always shown it.
impl std::fmt::Debug for PlayerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Most players a game may have (owner field of a packed piece).
pub const MAX_PLAYERS: usize = 31;
/// Most piece types a game may have.
pub const MAX_PIECE_TYPES: usize = 1023;
/// Most boolean attributes a game may declare.
pub const MAX_ATTRIBUTES: usize = 17;

/// Packed pieces: a `u32` with the type (+1, so that 0 is "empty") in bits 0-9, the owner in
/// bits 10-14 and one bit per attribute from bit 15.
pub mod piece {
    use super::{PieceTypeId, PlayerId};

    pub const TYPE_MASK: u32 = 0x3ff;
    pub const OWNER_SHIFT: u32 = 10;
    pub const OWNER_MASK: u32 = 0x1f << OWNER_SHIFT;
    pub const ATTR_SHIFT: u32 = 15;

    /// Packs a piece. `attrs` are the attribute bits (bit i = attribute i).
    #[inline]
    pub fn make(ty: PieceTypeId, owner: PlayerId, attrs: u32) -> u32 {
        (ty.get() + 1) | (owner.get() << OWNER_SHIFT) | (attrs << ATTR_SHIFT)
    }
    /// The type index of a non-empty cell.
    #[inline]
    pub fn ty(p: u32) -> PieceTypeId {
        PieceTypeId::new((p & TYPE_MASK) - 1)
    }
    /// The owner of a non-empty cell.
    #[inline]
    pub fn owner(p: u32) -> PlayerId {
        PlayerId::new((p & OWNER_MASK) >> OWNER_SHIFT)
    }
    /// Attribute `a` of a non-empty cell.
    #[inline]
    pub fn attr(p: u32, a: u32) -> bool {
        p >> (ATTR_SHIFT + a) & 1 == 1
    }
    #[inline]
    pub fn with_attr(p: u32, a: u32, v: bool) -> u32 {
        let bit = 1 << (ATTR_SHIFT + a);
        if v { p | bit } else { p & !bit }
    }
    #[inline]
    pub fn with_type(p: u32, ty: PieceTypeId) -> u32 {
        (p & !TYPE_MASK) | (ty.get() + 1)
    }
    #[inline]
    pub fn with_owner(p: u32, owner: PlayerId) -> u32 {
        (p & !OWNER_MASK) | (owner.get() << OWNER_SHIFT)
    }
}

/// A set of positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PosSet {
    words: Vec<u64>,
}

impl PosSet {
    pub fn new(n: usize) -> Self {
        PosSet {
            words: vec![0; n.div_ceil(64)],
        }
    }
    #[inline]
    pub fn contains(&self, p: PositionId) -> bool {
        let p = p.get();
        self.words
            .get(p as usize / 64)
            .is_some_and(|w| w >> (p % 64) & 1 == 1)
    }
    pub fn insert(&mut self, p: PositionId) {
        let p = p.get();
        let i = p as usize / 64;
        if i >= self.words.len() {
            self.words.resize(i + 1, 0);
        }
        self.words[i] |= 1 << (p % 64);
    }
    pub fn iter(&self) -> impl Iterator<Item = PositionId> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            (0..64)
                .filter(move |b| w >> b & 1 == 1)
                .map(move |b| PositionId::new((i * 64 + b) as u32))
        })
    }
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
}

/// One player.
#[derive(Clone, Debug)]
pub struct Player {
    /// The name as written, `?` included for random players.
    pub name: String,
    /// A random player (`?Dice`): the caller picks one of its moves at random.
    pub random: bool,
}

/// One element of the turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Whose turn it is.
    pub player: PlayerId,
    /// Whose pieces, zones and symmetry are used (`(P Q)`); equal to `player` otherwise.
    pub pieces_of: PlayerId,
    /// Only moves of this type are generated (`(P type)`).
    pub move_type: Option<MoveType>,
}

/// A move block: a program in [`Model::code`] and its move type.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    /// Offset of the first op in [`Model::code`].
    pub start: u32,
    pub move_type: MoveType,
}

/// A piece type.
#[derive(Clone, Debug)]
pub struct PieceType {
    pub name: String,
    /// The `(notation …)` text, if any.
    pub notation: Option<String>,
    /// Default attribute bits of a new piece.
    pub attrs: u32,
    pub moves: Vec<Block>,
    pub drops: Vec<Block>,
    /// Declared `(dummy)`.
    pub dummy: bool,
}

/// `"pass turn"` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PassTurn {
    #[default]
    Never,
    Always,
    /// Only when there is no other move.
    Forced,
}

/// `"maximal captures"` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MaximalCaptures {
    #[default]
    Off,
    /// Keep only the moves capturing the most pieces.
    Most,
    /// `2`: the most kings first (pieces whose type is not the first type), then the most
    /// pieces (Dagaz's reading; see docs/semantics.md).
    MostKingsFirst,
}

/// The options that change move generation or results.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub pass_turn: PassTurn,
    pub pass_partial: bool,
    pub recycle_captures: bool,
    pub maximal_captures: MaximalCaptures,
    pub include_off_pieces: bool,
}

/// A compiled game.
#[derive(Clone, Debug)]
pub struct Model {
    pub title: String,
    pub players: Vec<Player>,
    /// Position names, by index.
    pub positions: Vec<String>,
    /// Where each position is drawn on the board image (left, top, right, bottom, in the
    /// file's pixels), when the file lays it out (`start-rectangle` of a grid, or explicit
    /// `positions` rectangles); `None` for positions without a layout.
    pub position_rects: Vec<Option<board::Rect>>,
    pub position_index: HashMap<String, PositionId>,
    /// Positions declared with `(dummy …)` on the board: real cells, but no drop targets.
    pub dummy_positions: PosSet,
    /// Direction names, by index.
    pub directions: Vec<String>,
    pub direction_index: HashMap<String, u32>,
    /// `links[pos * directions.len() + dir]`: the neighbour, or [`PositionId::NONE`].
    pub links: Vec<PositionId>,
    /// The reverse of each direction, from the link graph.
    pub opposite: Vec<u32>,
    /// `symmetry[player][dir]`: the absolute direction that `dir` means for `player`.
    pub symmetry: Vec<Vec<u32>>,
    pub zones: Vec<String>,
    /// `zone_sets[player][zone]`.
    pub zone_sets: Vec<Vec<PosSet>>,
    pub attributes: Vec<String>,
    pub piece_types: Vec<PieceType>,
    pub type_index: HashMap<String, u32>,
    /// Move type names; index 0 is the default type (`""`).
    pub move_types: Vec<String>,
    /// The number a saved game writes after `partial` for each move type (by index): its
    /// place among the `(move-type …)` markers of the pieces, in order, from 1 (the types
    /// no marker names follow). docs/formats.md, "Saved games".
    pub partial_numbers: Vec<u32>,
    /// Rank of each move type for `move-priorities` (lower = higher priority).
    pub priority_rank: Vec<u32>,
    pub has_priorities: bool,
    pub flags: Vec<String>,
    pub position_flags: Vec<String>,
    /// The bytecode of every move block.
    pub code: Vec<Op>,
    /// Type lists of `(add T1 … Tn)`, referenced by [`Op::Add`].
    pub type_lists: Vec<PieceTypeId>,
    pub turns: Vec<Turn>,
    /// Index of the first turn of the cycle after `repeat` (0 when there is none).
    pub repeat_from: usize,
    pub goals: Vec<Goal>,
    pub options: Options,
    /// Pieces on the board at the start: (position, packed piece).
    pub setup: Vec<(PositionId, u32)>,
    /// Pieces in hand at the start: (player, type, count).
    pub hand_setup: Vec<(PlayerId, u32, u32)>,
    /// Per type: no `off N` count names it anywhere in the setup, so its drops are
    /// unlimited (docs/semantics.md).
    pub unlimited_drops: Vec<bool>,
    /// Types whose safety is enforced (`checkmated` goals): the mover may not leave one of
    /// these attacked.
    pub royal_types: Vec<PieceTypeId>,
    /// Some block uses `add-partial`.
    pub has_partial: bool,
    /// The findings of a successful compile: warnings, and the errors the engine recovers
    /// from by leaving a name out (a setup, zone or link position that is not on the board,
    /// an unknown player in a zone, an undeclared move-type in the turn order or
    /// `move-priorities`; docs/semantics.md "Names that are dropped").
    pub warnings: Vec<Diagnostic>,
}

impl Model {
    /// Compiles a merged game. Errors (and the warnings found with them) come back as the
    /// `Err` value; the findings of a successful compile are in [`Model::warnings`].
    pub fn compile(game: &GameDef) -> Result<Model, Vec<Diagnostic>> {
        compile::compile(game, false)
    }

    /// [`Model::compile`], also for a game whose moves come from a plug-in engine
    /// (`(engine "…/axiom.dll")`): its board, players, turn order, pieces and setup, what the
    /// ZRF part of such a game declares (`convert --to axiom` reads them). Such a model
    /// describes the game; the engine cannot play it (its move blocks are placeholders).
    pub fn compile_zrf_part(game: &GameDef) -> Result<Model, Vec<Diagnostic>> {
        compile::compile(game, true)
    }

    #[inline]
    pub fn num_positions(&self) -> usize {
        self.positions.len()
    }
    /// Every position, in index order.
    pub fn position_ids(&self) -> impl Iterator<Item = PositionId> + use<> {
        (0..self.positions.len() as u32).map(PositionId::new)
    }
    #[inline]
    pub fn num_directions(&self) -> usize {
        self.directions.len()
    }
    /// The neighbour of `pos` along absolute direction `dir`.
    #[inline]
    pub fn link(&self, pos: PositionId, dir: u32) -> PositionId {
        self.links[pos.index() * self.directions.len() + dir as usize]
    }
    /// Index of the hand counter of `player`'s pieces of type `ty` in the state's cells.
    #[inline]
    pub fn hand_cell(&self, player: PlayerId, ty: PieceTypeId) -> CellId {
        CellId::new(
            (self.positions.len() + player.index() * self.piece_types.len() + ty.index()) as u32,
        )
    }
    /// Number of cells of a state: positions, then one hand counter per player and type.
    pub fn num_cells(&self) -> usize {
        self.positions.len() + self.players.len() * self.piece_types.len()
    }
    pub fn position(&self, name: &str) -> Option<PositionId> {
        self.position_index.get(name).copied()
    }
    pub fn player(&self, name: &str) -> Option<PlayerId> {
        self.players
            .iter()
            .position(|p| p.name == name)
            .map(|i| PlayerId::new(i as u32))
    }
    pub fn piece_type(&self, name: &str) -> Option<u32> {
        self.type_index.get(name).copied()
    }
}
