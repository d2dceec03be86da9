//! The legal-move pipeline (semantics doc §4.2):
//!
//! 1. if a goal already holds (assuming the player could move), there are no moves;
//! 2. first parts: every allowed block of every piece of the generating player, then drops
//!    of every piece type in hand onto every board position (a plain drop, `(verify
//!    empty?) add`, is built without running its block);
//! 3. `move-priorities`: keep the best-ranked non-empty move-type group;
//! 4. partial chains are completed (a chain counts as one move; continuing is compulsory
//!    unless `"pass partial"`);
//! 5. king safety when a goal uses `checkmated`;
//! 6. `"maximal captures"`;
//! 7. a pass when `"pass turn"` allows one.
//!
//! This module owns only that pipeline and its buffers (`Pipeline`); running move blocks
//! and attack tests is the VM's job (`engine::vm`), which the steps call into.

use super::vm::Scratch;
use super::{Engine, Move, MoveList, Shape, State, Tables};
use crate::diagnostics::{Diagnostic, codes};
use crate::model::{MaximalCaptures, MoveType, PassTurn, PlayerId, PositionId, piece};

/// The pipeline's own buffers (one per engine); the VM's are in [`Scratch`].
pub(crate) struct Pipeline {
    chain_lists: Vec<MoveList>,
    chain_moves: Vec<Move>,
    chain_path: Vec<u64>,
    chain_nodes: u32,
    chain_overflow: bool,
    chain_limit: u32,
    work: MoveList,
    keep: Vec<bool>,
    royal_cells: Vec<PositionId>,
    attackers: Vec<(PositionId, PositionId)>,
    /// The opponents' pieces listed by king safety: square, value, and where the piece's
    /// row of the reach table starts (0 without a reach table).
    enemy_cells: Vec<(PositionId, u32, usize)>,
    /// Royal cells after the move being tested.
    moved_royals: Vec<PositionId>,
    /// Per entry of `attackers`: its answer before the moves when its runs stayed on the
    /// VM's fast path (`None`: it must be tried after each move).
    attack_known: Vec<Option<bool>>,
    /// Per entry of `attackers`: a bit set of the board squares its runs read (and its
    /// own square), `npos.div_ceil(64)` words each.
    attack_reads: Vec<u64>,
    pub diags: Vec<Diagnostic>,
}

/// Step 2: first parts of every piece and drops.
///
/// With `move-priorities`, once a move of some rank has been found, the blocks of worse
/// ranks are not run: step 3 would drop their moves anyway (the moves it keeps, and their
/// order, are the same).
fn first_parts(vm: &mut Scratch, t: &Tables, only_type: Option<MoveType>, out: &mut MoveList) {
    // The pieces on the board, in one tight pass (the blocks do not change the board): the
    // mover's for their blocks, the others' for king safety. A game of drops only, without
    // royal pieces, needs neither.
    if t.has_piece_moves || !t.model.royal_types.is_empty() {
        list_pieces(vm, t);
    }
    // Two copies, so that games without priorities keep the loop without the rank test
    // (one shared loop cost chess 5.7% more instructions).
    if t.has_piece_moves {
        if t.model.has_priorities {
            first_parts_of::<true>(vm, t, only_type, out);
        } else {
            first_parts_of::<false>(vm, t, only_type, out);
        }
    }
    if t.has_drops {
        drops(vm, t, only_type, out);
    }
}

/// Fills `vm.own` and (for king safety, when there are royal pieces) `vm.others` from the
/// scratch board.
fn list_pieces(vm: &mut Scratch, t: &Tables) {
    let mover = vm.mover;
    let (mut own, mut others) = (std::mem::take(&mut vm.own), std::mem::take(&mut vm.others));
    own.clear();
    others.clear();
    let board = &vm.board[..t.model.num_positions()];
    if t.model.royal_types.is_empty() {
        // Only the first-parts step reads the lists.
        for (i, &v) in board.iter().enumerate() {
            if v != 0 && piece::owner(v) == mover {
                own.push((PositionId::new(i as u32), v));
            }
        }
    } else {
        for (i, &v) in board.iter().enumerate() {
            if v != 0 {
                if piece::owner(v) == mover {
                    own.push((PositionId::new(i as u32), v));
                } else {
                    others.push(PositionId::new(i as u32));
                }
            }
        }
    }
    (vm.own, vm.others) = (own, others);
}

#[inline(never)]
fn first_parts_of<const RANKED: bool>(
    vm: &mut Scratch,
    t: &Tables,
    only_type: Option<MoveType>,
    out: &mut MoveList,
) {
    let m = &t.model;
    let ranked = RANKED;
    // The best rank among the moves found so far.
    let mut best = u32::MAX;
    let own = std::mem::take(&mut vm.own);
    let links = &t.links[vm.mover.index()][..];
    for &(pos, v) in &own {
        for b in &m.piece_types[piece::ty(v).index()].moves {
            // Most runs of a piece's blocks end at their first step or test (the edge of the
            // board, a friend in the way): those are decided here without starting the run.
            // (Drops are not filtered: most of their first tests pass, and the filter then
            // costs more than it saves, +5.8% on Four in a Row.)
            if only_type.is_some_and(|mt| mt != b.move_type) || vm.fails_at_once(t, links, b, pos) {
                continue;
            }
            let rank = if ranked {
                m.priority_rank[b.move_type.index()]
            } else {
                0
            };
            if rank > best {
                continue;
            }
            let before = out.len();
            vm.run_linked::<false>(t, links, b, pos, v, pos, Some(out));
            if ranked && out.len() > before {
                best = rank;
            }
        }
    }
    vm.own = own;
}

/// The drops of step 2 (in their own function: games without drops keep the piece loop's
/// registers; inlined here, the drop loop cost English draughts 4% more instructions).
#[inline(never)]
fn drops(vm: &mut Scratch, t: &Tables, only_type: Option<MoveType>, out: &mut MoveList) {
    for d in &t.drop_plans[vm.mover.index()] {
        let Some(hand) = hand_of(&vm.board, d) else {
            continue;
        };
        let i = d.ty as usize;
        match &t.plain_drops[i] {
            Some(partials) => {
                let blocks = &t.model.piece_types[i].drops;
                plain_drops(&vm.board, t, blocks, partials, d.v, hand, only_type, out);
            }
            None => run_drops(vm, t, i, d.v, only_type, out),
        }
    }
}

/// The hand of a drop plan on `board`: `Some(None)` when its drops are unlimited,
/// `Some(Some((cell, count)))` when they are counted and some are left, `None` when the
/// hand is empty.
#[inline]
fn hand_of(board: &[u32], d: &super::DropPlan) -> Option<Option<(crate::model::CellId, u32)>> {
    match d.hand {
        Some(h) => match board[h.index()] {
            0 => None,
            n => Some(Some((h, n))),
        },
        None => Some(None),
    }
}

/// The moves of a game whose moves are all plain drops (`Tables::placement_only`), read
/// from the state's cells: what steps 2-7 would give, without the scratch board.
#[inline(never)]
fn drops_from(
    cells: &[u32],
    t: &Tables,
    mover: PlayerId,
    only_type: Option<MoveType>,
    out: &mut MoveList,
) {
    for d in &t.drop_plans[mover.index()] {
        let Some(hand) = hand_of(cells, d) else {
            continue;
        };
        let i = d.ty as usize;
        if let Some(partials) = &t.plain_drops[i] {
            let blocks = &t.model.piece_types[i].drops;
            plain_drops(cells, t, blocks, partials, d.v, hand, only_type, out);
        }
    }
}

/// The drops of piece type `i` (as piece value `v`) by running its blocks on every drop
/// site (out of line, so that the drop loop above stays small).
#[inline(never)]
fn run_drops(
    vm: &mut Scratch,
    t: &Tables,
    i: usize,
    v: u32,
    only_type: Option<MoveType>,
    out: &mut MoveList,
) {
    let pt = &t.model.piece_types[i];
    let need_empty = t.drops_need_empty[i];
    for &pos in &t.drop_sites {
        // Every block would fail at its first test: no run to start.
        if need_empty && vm.board[pos.index()] != 0 {
            continue;
        }
        for b in &pt.drops {
            if only_type.is_some_and(|mt| mt != b.move_type) {
                continue;
            }
            vm.run(t, b, pos, v, PositionId::NONE, Some(out));
        }
    }
}

/// The drops of a piece type whose blocks are all plain (`Tables::plain_drops`): a move
/// per empty drop site and block, built without a run. The empty sites are read 64 at a
/// time into a bit mask first (no branch per square: whether a square is empty is what a
/// branch predicts worst).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn plain_drops(
    board: &[u32],
    t: &Tables,
    blocks: &[crate::model::Block],
    partials: &[MoveType],
    v: u32,
    hand: Option<(crate::model::CellId, u32)>,
    only_type: Option<MoveType>,
    out: &mut MoveList,
) {
    for sites in t.drop_sites.chunks(64) {
        let mut empty = sites.iter().rev().fold(0u64, |m, &pos| {
            (m << 1) | u64::from(board[pos.index()] == 0)
        });
        while empty != 0 {
            let pos = sites[empty.trailing_zeros() as usize];
            empty &= empty - 1;
            for (b, &partial) in blocks.iter().zip(partials) {
                if only_type.is_some_and(|mt| mt != b.move_type) {
                    continue;
                }
                Scratch::emit_drop(v, hand, pos, b.move_type, partial, out);
            }
        }
    }
}

impl Pipeline {
    pub(crate) fn new() -> Pipeline {
        Pipeline {
            chain_lists: Vec::new(),
            chain_moves: Vec::new(),
            chain_path: Vec::new(),
            chain_nodes: 0,
            chain_overflow: false,
            chain_limit: 200_000,
            work: MoveList::new(),
            keep: Vec::new(),
            royal_cells: Vec::new(),
            attackers: Vec::new(),
            enemy_cells: Vec::new(),
            moved_royals: Vec::new(),
            attack_known: Vec::new(),
            attack_reads: Vec::new(),
            diags: Vec::new(),
        }
    }

    /// Step 4: replaces partial first parts by their complete chains.
    fn expand_chains(&mut self, vm: &mut Scratch, t: &Tables, out: &mut MoveList, base_hash: u64) {
        let mut work = std::mem::take(&mut self.work);
        work.clear();
        self.keep.clear();
        for m in out.iter() {
            let partial = !m.partial.is_none();
            if partial {
                work.push_slot().copy_from(m);
            }
            self.keep.push(!partial);
        }
        let keep = std::mem::take(&mut self.keep);
        out.retain_flags(&keep);
        self.keep = keep;
        self.chain_nodes = 0;
        for i in 0..work.len() {
            self.chain_path.clear();
            self.chain_path.push(base_hash);
            let m = work.slot_mut(i);
            let m = std::mem::take(m);
            self.extend_chain(vm, t, &m, out, 0, base_hash);
            *work.slot_mut(i) = m;
        }
        self.work = work;
    }

    fn extend_chain(
        &mut self,
        vm: &mut Scratch,
        t: &Tables,
        m: &Move,
        out: &mut MoveList,
        depth: usize,
        base_hash: u64,
    ) {
        const MAX_DEPTH: usize = 64;
        while self.chain_lists.len() <= depth {
            self.chain_lists.push(MoveList::new());
            self.chain_moves.push(Move::default());
        }
        let mut conts = std::mem::take(&mut self.chain_lists[depth]);
        conts.clear();
        self.chain_nodes += 1;
        let h = base_hash ^ chain_delta(m);
        let cycle = self.chain_path.contains(&h);
        if self.chain_nodes > self.chain_budget() {
            self.chain_overflow = true;
        } else if depth < MAX_DEPTH && !cycle {
            vm.apply(m);
            let (lf, lt) = (vm.last_from, vm.last_to);
            vm.last_from = m.last_from;
            vm.last_to = m.last_to;
            let dest = m.last_to;
            let v = vm.board[dest.index()];
            if v != 0 && piece::owner(v) == vm.mover {
                for b in &t.model.piece_types[piece::ty(v).index()].moves {
                    if b.move_type == m.partial {
                        vm.run(t, b, dest, v, dest, Some(&mut conts));
                    }
                }
            }
            vm.last_from = lf;
            vm.last_to = lt;
            vm.revert(m);
        }
        if cycle {
            // The chain came back to a position it passed through: not a move.
            self.chain_lists[depth] = conts;
            return;
        }
        // Continuations that would come back to a position of this chain are not
        // continuations: when only such ones exist, the chain ends here.
        let path = &self.chain_path;
        conts.retain_by(|c| {
            let hc = h ^ chain_delta(c);
            hc != h && !path.contains(&hc)
        });
        if conts.is_empty() || t.model.options.pass_partial {
            let o = out.push_slot();
            o.copy_from(m);
            o.last_partial = m.partial;
            o.partial = MoveType::NONE;
        }
        if !conts.is_empty() {
            self.chain_path.push(h);
            let mut composed = std::mem::take(&mut self.chain_moves[depth]);
            for c in conts.iter() {
                composed.copy_from(m);
                composed.part_ends.push([
                    m.changes.len() as u32,
                    m.notes.len() as u32,
                    m.acts.len() as u32,
                    m.partial.get(),
                ]);
                composed.acts.extend_from_slice(&c.acts);
                composed.changes.extend_from_slice(&c.changes);
                composed.notes.extend_from_slice(&c.notes);
                composed.captures += c.captures;
                composed.king_captures += c.king_captures;
                composed.last_from = c.last_from;
                composed.last_to = c.last_to;
                composed.partial = c.partial;
                composed.shape = super::Shape::Unknown;
                if !composed.partial.is_none() {
                    self.extend_chain(vm, t, &composed, out, depth + 1, base_hash);
                } else {
                    out.push_slot().copy_from(&composed);
                }
            }
            self.chain_moves[depth] = composed;
            self.chain_path.pop();
        }
        self.chain_lists[depth] = conts;
    }

    fn chain_budget(&self) -> u32 {
        self.chain_limit
    }

    /// Step 5: drops the moves after which a royal piece of the mover is attacked.
    ///
    /// Fast path: when a move neither touches a royal square nor puts a piece of another
    /// player anywhere, the royal pieces stay where they are and no new attacker appears,
    /// so only the opponents' pieces that might reach a royal square before the move
    /// (by the reach table) need to be tried after it. Each of those is tried once before
    /// the moves, recording the squares its runs read; a move that changes none of them
    /// (nor the attacker's square) keeps that answer, so only the others are run again,
    /// on the board after the move.
    #[inline(never)]
    fn king_safety(&mut self, vm: &mut Scratch, t: &Tables, out: &mut MoveList) {
        let mover = vm.mover;
        let npos = t.model.num_positions();
        let mut keep = std::mem::take(&mut self.keep);
        keep.clear();
        let mut royals = std::mem::take(&mut self.royal_cells);
        royals.clear();
        let mut enemies = std::mem::take(&mut self.enemy_cells);
        enemies.clear();
        // The pieces as the first-parts step listed them (the board is the loaded one again).
        for &(pos, v) in &vm.own {
            if t.royal[piece::ty(v).index()] {
                royals.push(pos);
            }
        }
        for &pos in &vm.others {
            let v = vm.board[pos.index()];
            let owner = piece::owner(v);
            if !t.neutral[owner.index()] {
                let row = t
                    .reach
                    .as_ref()
                    .map_or(0, |r| r.type_row(owner, piece::ty(v).get(), pos));
                enemies.push((pos, v, row));
            }
        }
        #[cfg(debug_assertions)]
        {
            let occupied = vm.board[..npos].iter().filter(|&&v| v != 0).count();
            assert_eq!(
                occupied,
                vm.own.len() + vm.others.len(),
                "the piece lists are stale"
            );
        }
        let mut attackers = std::mem::take(&mut self.attackers);
        attackers.clear();
        for &(pos, v, _) in &enemies {
            for &k in &royals {
                if vm.may_attack(t, pos, v, k) {
                    attackers.push((k, pos));
                }
            }
        }
        let mut moved_royals = std::mem::take(&mut self.moved_royals);
        let fast = t.reach.is_some();
        // Each possible attacker is tried once on the board before the moves; when its runs
        // stayed on the fast path, the squares they read are kept: a move that changes none
        // of them (nor the attacker's square) leaves its answer as it was.
        let words = npos.div_ceil(64);
        let mut known = std::mem::take(&mut self.attack_known);
        known.clear();
        let mut reads = std::mem::take(&mut self.attack_reads);
        reads.clear();
        if fast {
            for &(k, cell) in &attackers {
                let v = vm.board[cell.index()];
                let answer = vm.piece_attacks_recorded(t, cell, v, k);
                known.push(answer);
                let base = reads.len();
                reads.resize(base + words, 0);
                for &r in &vm.reads {
                    reads[base + r.index() / 64] |= 1 << (r.index() % 64);
                }
                reads[base + cell.index() / 64] |= 1 << (cell.index() % 64);
            }
        }
        // The flags of the moves to keep are built at the first illegal move (most
        // positions have none: `keep` stays empty).
        let n = out.len();
        for (mi, m) in out.iter().enumerate() {
            // A move that puts a piece of another player anywhere can create an attacker
            // the lists below do not know: test it the general way.
            let (places_foreign, moves_royal) = match m.shape {
                Shape::Step { royal } => (false, royal),
                Shape::Unknown => {
                    let (mut foreign, mut royal) = (false, false);
                    for c in &m.changes {
                        if c.cell.index() >= npos {
                            continue;
                        }
                        if c.new != 0 {
                            foreign |= piece::owner(c.new) != mover;
                            royal |= t.royal[piece::ty(c.new).index()];
                        }
                        royal |= royals.contains(&c.cell.position());
                    }
                    (foreign, royal)
                }
            };
            let slow = !fast || places_foreign;
            if !moves_royal && !slow {
                // The royal pieces stay and no new attacker appears: only the known
                // attackers whose read squares the move changes are tried again after it.
                let mut safe = true;
                let mut applied = false;
                for (i, &(k, cell)) in attackers.iter().enumerate() {
                    let set = &reads[i * words..(i + 1) * words];
                    let read = |x: usize| x < npos && set[x / 64] & (1 << (x % 64)) != 0;
                    let touched = match m.shape {
                        // (`NONE` is no position: its index is past the board.)
                        Shape::Step { .. } => read(m.last_from.index()) || read(m.last_to.index()),
                        Shape::Unknown => m.changes.iter().any(|c| read(c.cell.index())),
                    };
                    let attacks = match known[i] {
                        Some(answer) if !touched => answer,
                        _ => {
                            if !applied {
                                vm.apply(m);
                                applied = true;
                            }
                            let v = vm.board[cell.index()];
                            v != 0 && piece::owner(v) != mover && vm.piece_attacks(t, cell, v, k)
                        }
                    };
                    if attacks {
                        safe = false;
                        break;
                    }
                }
                if applied {
                    vm.revert(m);
                }
                if !safe {
                    drop_move(&mut keep, n, mi);
                }
                continue;
            }
            vm.apply(m);
            let safe = if !slow {
                // A royal piece moved (or was captured, or appeared): follow the royal
                // cells through the move's changes, then try the opponents' pieces that
                // are still on the board and may reach them.
                moved_royals.clear();
                moved_royals.extend_from_slice(&royals);
                for c in m.changes.iter().filter(|c| c.cell.index() < npos) {
                    let royal_now = c.new != 0
                        && piece::owner(c.new) == mover
                        && t.royal[piece::ty(c.new).index()];
                    let sq = c.cell.position();
                    match moved_royals.iter().position(|&k| k == sq) {
                        Some(i) if !royal_now => {
                            moved_royals.swap_remove(i);
                        }
                        None if royal_now => moved_royals.push(sq),
                        _ => {}
                    }
                }
                // (`fast`: the reach table exists. No piece of another player was placed,
                // so an opponent's square holds the piece listed or no opponent at all.)
                let reach = t.reach.as_ref();
                !moved_royals.iter().any(|&k| {
                    enemies.iter().any(|&(cell, v, row)| {
                        reach.is_none_or(|r| r.row_has(row, k))
                            && vm.board[cell.index()] == v
                            && vm.piece_attacks(t, cell, v, k)
                    })
                })
            } else {
                let mut safe = true;
                for pos in t.model.position_ids() {
                    let v = vm.board[pos.index()];
                    if v != 0
                        && piece::owner(v) == mover
                        && t.royal[piece::ty(v).index()]
                        && vm.attacked_by_others(t, pos, mover, 0)
                    {
                        safe = false;
                        break;
                    }
                }
                safe
            };
            vm.revert(m);
            if !safe {
                drop_move(&mut keep, n, mi);
            }
        }
        self.attack_known = known;
        self.attack_reads = reads;
        if !keep.is_empty() {
            out.retain_flags(&keep);
        }
        self.keep = keep;
        self.royal_cells = royals;
        self.attackers = attackers;
        self.enemy_cells = enemies;
        self.moved_royals = moved_royals;
    }
}

/// Marks move `i` of `n` as not kept, creating the flags (all kept) at the first call.
fn drop_move(keep: &mut Vec<bool>, n: usize, i: usize) {
    keep.resize(n, true);
    keep[i] = false;
}

/// XOR of the hash deltas of a move's changes (a chain position's hash relative to its root).
fn chain_delta(m: &Move) -> u64 {
    m.changes.iter().fold(0, |h, c| {
        h ^ super::hash::cell_key(c.cell, c.old) ^ super::hash::cell_key(c.cell, c.new)
    })
}

impl Engine {
    /// The legal moves of `s`, written into `out` (cleared first). Empty when the game is
    /// over. The moves of a random player are listed like any other.
    pub fn legal_moves(&mut self, s: &State, out: &mut MoveList) {
        out.clear();
        if self.goal_reached(s) {
            return;
        }
        self.generate(s, out);
    }

    /// Steps 2-7 of the pipeline, without the goal test.
    pub(crate) fn generate(&mut self, s: &State, out: &mut MoveList) {
        generate_moves(&self.t, &mut self.vm, &mut self.pipe, self.budget, s, out);
    }
}

/// Steps 2-7 of the pipeline over the engine's parts (so that callers holding other parts
/// of the engine, such as the goal checks, can generate).
pub(crate) fn generate_moves(
    t: &Tables,
    vm: &mut Scratch,
    p: &mut Pipeline,
    budget: super::Budget,
    s: &State,
    out: &mut MoveList,
) {
    out.clear();
    if t.placement_only {
        let turn = t.model.turns[s.turn as usize];
        drops_from(&s.cells, t, turn.pieces_of, turn.move_type, out);
        return;
    }
    pipeline(t, vm, p, budget, s, out);
}

/// Steps 2-7 in full (out of line, so that placement-only games, listed above, skip its
/// frame).
#[inline(never)]
fn pipeline(
    t: &Tables,
    vm: &mut Scratch,
    p: &mut Pipeline,
    budget: super::Budget,
    s: &State,
    out: &mut MoveList,
) {
    vm.loop_budget = budget.loop_steps;
    p.chain_limit = budget.chain_nodes;
    vm.load(t, s);
    let turn = t.model.turns[s.turn as usize];
    first_parts(vm, t, turn.move_type, out);
    if t.model.has_priorities && out.len() > 1 {
        let best = out
            .iter()
            .map(|m| t.model.priority_rank[m.move_type.index()])
            .min()
            .unwrap_or(0);
        out.retain_by(|m| t.model.priority_rank[m.move_type.index()] == best);
    }
    if t.model.has_partial && out.iter().any(|m| !m.partial.is_none()) {
        p.expand_chains(vm, t, out, s.hash);
        if p.chain_overflow {
            p.chain_overflow = false;
            p.diags.push(Diagnostic::warning(
                codes::CHAIN_BUDGET_EXCEEDED,
                format!(
                    "{}: partial-move chains exceeded the exploration budget; some chains were cut",
                    t.model.title
                ),
            ));
        }
    }
    if !t.model.royal_types.is_empty() && !out.is_empty() {
        p.king_safety(vm, t, out);
    }
    match t.model.options.maximal_captures {
        MaximalCaptures::Off => {}
        MaximalCaptures::Most => {
            // Among the moves that capture, those that capture the most; the moves that
            // capture nothing stay (compulsory capture is `move-priorities`' work).
            let best = out.iter().map(|m| m.captures).max().unwrap_or(0);
            if best > 0 {
                out.retain_by(|m| m.captures == 0 || m.captures == best);
            }
        }
        MaximalCaptures::MostKingsFirst => {
            let best = out
                .iter()
                .map(|m| (m.king_captures, m.captures))
                .max()
                .unwrap_or((0, 0));
            if best != (0, 0) {
                out.retain_by(|m| m.captures == 0 || (m.king_captures, m.captures) == best);
            }
        }
    }
    match t.model.options.pass_turn {
        PassTurn::Always => out.push_slot().pass = true,
        PassTurn::Forced if out.is_empty() => out.push_slot().pass = true,
        _ => {}
    }
    if vm.loop_overflow {
        vm.loop_overflow = false;
        p.diags.push(Diagnostic::warning(
            codes::STEP_BUDGET_EXCEEDED,
            format!(
                "{}: a `while` loop exceeded {} steps; the branch was abandoned",
                t.model.title, budget.loop_steps
            ),
        ));
    }
}
