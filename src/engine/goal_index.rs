//! Incremental goal checks.
//!
//! The goal conditions that depend only on what stands on the board — `relative-config`,
//! `absolute-config` and the piece counts of `pieces-remaining`, `total-piece-count` and
//! `captured` — are compiled once into *counters* kept in every [`State`]
//! (`State::goal_counts`). A move updates them through the cells it changes
//! ([`Engine::make`], which logs the old value of each counter it changes in
//! `State::goal_log`; [`Engine::unmake`] writes those back), so testing such a goal reads
//! one or two counters instead of scanning the board:
//!
//! - a `relative-config` is a set of *instances*, one per start square whose whole path
//!   lies on the board (the player's symmetry applied). An instance counts its steps whose
//!   occupant test holds; it matches when all do. The condition's counter counts matching
//!   instances and holds when it is positive.
//! - an `absolute-config` counts its listed positions that match (it holds when all do, or
//!   one with `any`), and, per zone, the zone's squares that match (each must be positive).
//! - piece counts are kept per (owner, type) for the board; hand counts are cells already.
//!
//! Each counter is a sum of per-square tests of the current cells, so the update for a
//! change `old → new` of one square adds the difference of its tests and is exact whatever
//! the order of changes. Occupant tests are tabulated per (player, occupants) over the
//! possible cell values (empty, or owner and type), so one test is one table read (one bit
//! of a mask kept with the test's group when there are at most 64 values). When squares ×
//! values² is small (at most 2^20), the whole update of a square is tabulated per (old
//! value, new value): the *change table* lists the counters that lose one and those that
//! gain one (piece counts included), so an update is two short loops; a counter turns on
//! or off exactly when it steps onto or off its threshold. Hand cells feed no counter: make
//! and unmake do not call the update for them.
//!
//! The conditions that are not board-local (`stalemated`, `checkmated`, `repetition`) are
//! evaluated as before, by `engine::outcome`. In debug builds every result is compared with
//! the full re-evaluation of the goals (`Engine::evaluate_reference`), the oracle.

use super::{State, Tables};
use crate::model::{
    GoalCond, GoalKind, Model, Occupants, Owner, PieceTypeId, PlayerId, PositionId, piece,
};

const NO_PARENT: u32 = u32::MAX;

/// A goal condition compiled for one player, its board-local parts as counter tests.
#[derive(Clone, Debug)]
pub(crate) enum Check {
    True,
    False,
    Not(Box<Check>),
    And(Vec<Check>),
    Or(Vec<Check>),
    Stalemated,
    Checkmated(Vec<PieceTypeId>),
    Repetition,
    /// `goal_counts[counter] >= need`.
    AtLeast {
        counter: u32,
        need: u32,
    },
    /// The player's pieces (of `types`, all when empty) number exactly `n`.
    PiecesRemaining {
        n: u32,
        types: Vec<PieceTypeId>,
    },
    /// All players' pieces (of `types`) number exactly `n`.
    TotalPieceCount {
        n: u32,
        types: Vec<PieceTypeId>,
    },
    /// The player has fewer pieces of one of these types (board and hand) than at the start.
    Captured(Vec<PieceTypeId>),
}

/// One goal for one player, in the order the goals are declared.
#[derive(Clone, Debug)]
pub(crate) struct PlayerGoal {
    /// Index into `Model::goals`.
    pub goal: usize,
    pub kind: GoalKind,
    pub check: Check,
    /// The check is one counter test, counted by `GoalIndex::summary`.
    pub summarized: bool,
}

/// A counter's threshold and parent (see `GoalIndex::nodes`).
#[derive(Clone, Copy, Debug)]
struct Node {
    threshold: u32,
    parent: u32,
}

/// One square test feeding one counter.
#[derive(Clone, Copy, Debug)]
struct Entry {
    counter: u32,
    /// Row of `GoalIndex::tests`.
    test: u32,
}

/// The counters of one square that one test feeds: `counters[start..end]`.
#[derive(Clone, Copy, Debug)]
struct Group {
    test: u32,
    start: u32,
    end: u32,
    /// The test's row as bits (bit `key`), when there are at most 64 keys.
    mask: u64,
}

/// The counters one change of one square moves (see `GoalIndex::spans`):
/// `deltas[start..start + downs]` lose one, the next `ups` gain one.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    start: u32,
    downs: u16,
    ups: u16,
}

/// Largest change table built, in spans (`squares × keys²`), and in counter entries.
const MAX_SPANS: usize = 1 << 20;
const MAX_DELTAS: usize = 1 << 22;

/// The compiled goals and the layout of their counters (one per engine, in `Tables`).
#[derive(Clone, Debug, Default)]
pub(crate) struct GoalIndex {
    /// `by_player[p]`: the goals listing player `p`, in declaration order.
    pub by_player: Vec<Vec<PlayerGoal>>,
    /// Per counter: it is *on* when its value reaches `threshold`; a change of that state
    /// adds ±1 to `parent` (an instance feeding its `relative-config`). Side by side, so
    /// that an update reads one entry.
    nodes: Vec<Node>,
    /// `groups[first[pos]..first[pos + 1]]`: the tests reading square `pos`, each with the
    /// counters it feeds (a change of the square skips a test whose answer stays).
    first: Vec<u32>,
    groups: Vec<Group>,
    counters: Vec<u32>,
    /// Occupant tests, one row of `keys` booleans each (see [`GoalIndex::key`]).
    tests: Vec<bool>,
    keys: usize,
    num_types: usize,
    /// Index of the first board piece counter (owner × types + type), when kept.
    pieces: Option<u32>,
    num_positions: usize,
    /// The change table, when it is small enough (else empty, and a change walks
    /// `groups`): `spans[(pos × keys + old key) × keys + new key]` lists the counters that
    /// the change of square `pos` from one cell value to the other moves, the piece counts
    /// included, so an update is two short loops with no test of its own.
    spans: Vec<Span>,
    deltas: Vec<u32>,
    /// A counter of the goals that are one counter test (`PlayerGoal::summarized`) and
    /// hold: when it is 0, none of them needs testing.
    pub summary: Option<u32>,
    /// Every goal is summarized: a zero summary means no goal holds.
    pub all_summarized: bool,
}

/// Builds the index: counters are allocated as the conditions are compiled.
struct Builder<'a> {
    t: &'a Tables,
    index: GoalIndex,
    /// Entries per square before they are laid out by square.
    pending: Vec<Vec<Entry>>,
    /// Distinct (player, occupants) tests seen so far.
    seen: Vec<(usize, Occupants)>,
}

impl GoalIndex {
    /// Compiles the goals of `t.model` (its board, zones and links must be final).
    pub(crate) fn build(t: &Tables) -> GoalIndex {
        let m = &t.model;
        let nt = m.piece_types.len();
        let np = m.players.len();
        let mut b = Builder {
            t,
            index: GoalIndex {
                keys: 1 + np * nt,
                num_types: nt,
                num_positions: m.num_positions(),
                ..GoalIndex::default()
            },
            pending: vec![Vec::new(); m.num_positions()],
            seen: Vec::new(),
        };
        if m.goals
            .iter()
            .any(|g| g.kind == GoalKind::Count || counts_pieces(&g.cond))
        {
            let base = b.index.nodes.len() as u32;
            b.index.pieces = Some(base);
            for _ in 0..np * nt {
                b.counter(1, NO_PARENT);
            }
        }
        let mut by_player = vec![Vec::new(); np];
        for (gi, g) in m.goals.iter().enumerate() {
            for &p in &g.players {
                let p = p as usize;
                if p >= np {
                    continue;
                }
                let check = b.compile(&g.cond, p);
                by_player[p].push(PlayerGoal {
                    goal: gi,
                    kind: g.kind,
                    check,
                    summarized: false,
                });
            }
        }
        // Each `AtLeast` counter belongs to one check and its threshold is the check's
        // `need`, so its on/off state is the check's answer: count them in the summary.
        let tests: Vec<u32> = by_player
            .iter()
            .flatten()
            .filter_map(|g| match g.check {
                Check::AtLeast { counter, .. } => Some(counter),
                _ => None,
            })
            .collect();
        if !tests.is_empty() {
            let summary = b.counter(1, NO_PARENT);
            for &k in &tests {
                b.index.nodes[k as usize].parent = summary;
            }
            b.index.summary = Some(summary);
            for g in by_player.iter_mut().flatten() {
                g.summarized = matches!(g.check, Check::AtLeast { .. });
            }
        }
        let mut index = b.index;
        index.all_summarized = by_player.iter().flatten().all(|g| g.summarized);
        index.by_player = by_player;
        index.first.push(0);
        for mut list in b.pending {
            list.sort_by_key(|e| e.test);
            for chunk in list.chunk_by(|a, b| a.test == b.test) {
                let start = index.counters.len() as u32;
                index.counters.extend(chunk.iter().map(|e| e.counter));
                let test = chunk[0].test;
                let mask = (0..index.keys.min(64))
                    .filter(|&key| index.test(test, key))
                    .fold(0u64, |m, key| m | 1 << key);
                index.groups.push(Group {
                    test,
                    start,
                    end: index.counters.len() as u32,
                    mask,
                });
            }
            index.first.push(index.groups.len() as u32);
        }
        index.build_spans();
        index
    }

    /// Fills the change table from the groups and the piece counters (left empty when it
    /// would be too large or a list too long for its `u16` length).
    fn build_spans(&mut self) {
        let keys = self.keys;
        if keys > 64
            || self.nodes.is_empty()
            || self.num_positions.saturating_mul(keys * keys) > MAX_SPANS
        {
            return;
        }
        let mut spans = Vec::with_capacity(self.num_positions * keys * keys);
        let mut deltas = Vec::new();
        let (mut downs, mut ups) = (Vec::new(), Vec::new());
        for pos in 0..self.num_positions {
            for ko in 0..keys {
                for kn in 0..keys {
                    downs.clear();
                    ups.clear();
                    if ko != kn {
                        if let Some(base) = self.pieces {
                            if ko != 0 {
                                downs.push(base + ko as u32 - 1);
                            }
                            if kn != 0 {
                                ups.push(base + kn as u32 - 1);
                            }
                        }
                        for g in self.groups_of(pos) {
                            let (a, b) = (g.mask >> ko & 1 != 0, g.mask >> kn & 1 != 0);
                            let ks = &self.counters[g.start as usize..g.end as usize];
                            if a && !b {
                                downs.extend_from_slice(ks);
                            } else if b && !a {
                                ups.extend_from_slice(ks);
                            }
                        }
                    }
                    let (Ok(d), Ok(u)) = (u16::try_from(downs.len()), u16::try_from(ups.len()))
                    else {
                        return;
                    };
                    spans.push(Span {
                        start: deltas.len() as u32,
                        downs: d,
                        ups: u,
                    });
                    deltas.extend_from_slice(&downs);
                    deltas.extend_from_slice(&ups);
                    if deltas.len() > MAX_DELTAS {
                        return;
                    }
                }
            }
        }
        self.spans = spans;
        self.deltas = deltas;
    }

    /// Number of counters a state carries (0 when no goal is board-local).
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The column of cell value `v` in a test row: 0 for empty, else 1 + owner × types + type.
    #[inline]
    fn key(&self, v: u32) -> usize {
        if v == 0 {
            0
        } else {
            1 + piece::owner(v).index() * self.num_types + piece::ty(v).index()
        }
    }

    #[inline]
    fn test(&self, test: u32, key: usize) -> bool {
        self.tests
            .get(test as usize * self.keys + key)
            .copied()
            .unwrap_or(false)
    }

    /// The counters of `cells`, computed from scratch: the all-empty board's (every test
    /// that holds on an empty square), then each occupied square as a change from empty.
    pub(crate) fn counts(&self, cells: &[u32]) -> Vec<u32> {
        let mut c = vec![0; self.len()];
        let mut log = Vec::new();
        for pos in 0..self.num_positions {
            for g in self.groups_of(pos) {
                if self.test(g.test, 0) {
                    for &k in &self.counters[g.start as usize..g.end as usize] {
                        bump(&self.nodes, &mut c, &mut log, k, 1);
                    }
                }
            }
        }
        for (pos, &v) in cells.iter().enumerate().take(self.num_positions) {
            self.change(&mut c, &mut log, pos, 0, v);
            log.clear();
        }
        c
    }

    fn groups_of(&self, pos: usize) -> &[Group] {
        &self.groups[self.first[pos] as usize..self.first[pos + 1] as usize]
    }

    /// Updates `counts` for square `pos` going from `old` to `new` (hand cells and other
    /// non-board cells are ignored).
    #[inline]
    pub(crate) fn change(
        &self,
        counts: &mut [u32],
        log: &mut Vec<[u32; 2]>,
        pos: usize,
        old: u32,
        new: u32,
    ) {
        if pos >= self.num_positions {
            return;
        }
        let (ko, kn) = (self.key(old), self.key(new));
        if let Some(&sp) = self.spans.get((pos * self.keys + ko) * self.keys + kn) {
            let start = sp.start as usize;
            let mid = start + sp.downs as usize;
            let end = mid + sp.ups as usize;
            if let Some(ks) = self.deltas.get(start..mid) {
                for &k in ks {
                    down(&self.nodes, counts, log, k);
                }
            }
            if let Some(ks) = self.deltas.get(mid..end) {
                for &k in ks {
                    up(&self.nodes, counts, log, k);
                }
            }
            return;
        }
        self.change_by_groups(counts, log, pos, ko, kn);
    }

    /// The update without the change table: each test of the square tried.
    #[inline(never)]
    fn change_by_groups(
        &self,
        counts: &mut [u32],
        log: &mut Vec<[u32; 2]>,
        pos: usize,
        ko: usize,
        kn: usize,
    ) {
        if ko == kn {
            return;
        }
        if let Some(base) = self.pieces {
            if ko != 0 {
                let k = base as usize + ko - 1;
                log.push([k as u32, counts[k]]);
                counts[k] -= 1;
            }
            if kn != 0 {
                let k = base as usize + kn - 1;
                log.push([k as u32, counts[k]]);
                counts[k] += 1;
            }
        }
        let small = self.keys <= 64;
        for g in self.groups_of(pos) {
            let (a, b) = if small {
                (g.mask >> ko & 1 != 0, g.mask >> kn & 1 != 0)
            } else {
                (self.test(g.test, ko), self.test(g.test, kn))
            };
            if a != b {
                let d = if b { 1 } else { -1 };
                for &k in &self.counters[g.start as usize..g.end as usize] {
                    bump(&self.nodes, counts, log, k, d);
                }
            }
        }
    }

    /// True when cell `pos` is a board square (hand cells feed no counter).
    #[inline(always)]
    pub(crate) fn is_square(&self, pos: usize) -> bool {
        pos < self.num_positions
    }

    /// Pieces of `player` on the board (of `types`, all when empty), from the counters.
    pub(crate) fn board_pieces(
        &self,
        counts: &[u32],
        player: usize,
        types: &[PieceTypeId],
    ) -> Option<u32> {
        let base = self.pieces? as usize + player * self.num_types;
        let row = counts.get(base..base + self.num_types)?;
        Some(if types.is_empty() {
            row.iter().sum()
        } else {
            // Each type once, however often the goal names it.
            row.iter()
                .enumerate()
                .filter(|&(ty, _)| types.contains(&PieceTypeId::new(ty as u32)))
                .map(|(_, &n)| n)
                .sum()
        })
    }
}

/// Adds `d` to counter `k`, passing a change of its on/off state to its parent.
#[inline]
fn bump(nodes: &[Node], counts: &mut [u32], log: &mut Vec<[u32; 2]>, k: u32, d: i32) {
    let mut k = k as usize;
    let mut d = d;
    loop {
        let Node {
            threshold: th,
            parent: up,
        } = nodes[k];
        let before = counts[k] >= th;
        log.push([k as u32, counts[k]]);
        counts[k] = counts[k].wrapping_add_signed(d);
        let after = counts[k] >= th;
        if before == after || up == NO_PARENT {
            return;
        }
        d = if after { 1 } else { -1 };
        k = up as usize;
    }
}

/// Adds one to counter `k`: it turns on when it reaches its threshold exactly.
#[inline(always)]
fn up(nodes: &[Node], counts: &mut [u32], log: &mut Vec<[u32; 2]>, k: u32) {
    let i = k as usize;
    log.push([k, counts[i]]);
    let c = counts[i].wrapping_add(1);
    counts[i] = c;
    let Node { threshold, parent } = nodes[i];
    if c == threshold && parent != NO_PARENT {
        bump(nodes, counts, log, parent, 1);
    }
}

/// Takes one from counter `k`: it turns off when it was exactly at its threshold.
#[inline(always)]
fn down(nodes: &[Node], counts: &mut [u32], log: &mut Vec<[u32; 2]>, k: u32) {
    let i = k as usize;
    let c = counts[i];
    log.push([k, c]);
    counts[i] = c.wrapping_sub(1);
    let Node { threshold, parent } = nodes[i];
    if c == threshold && parent != NO_PARENT {
        bump(nodes, counts, log, parent, -1);
    }
}

fn counts_pieces(c: &GoalCond) -> bool {
    match c {
        GoalCond::PiecesRemaining { .. }
        | GoalCond::TotalPieceCount { .. }
        | GoalCond::Captured(_) => true,
        GoalCond::And(v) | GoalCond::Or(v) => v.iter().any(counts_pieces),
        GoalCond::Not(c) => counts_pieces(c),
        _ => false,
    }
}

/// True when a square holding `v` matches one of `occ`, tested for player `p` (the one
/// definition of an occupant test, used by the index and by the reference evaluation).
pub(crate) fn occupant_matches(occ: &Occupants, v: u32, p: usize) -> bool {
    occ.iter().any(|o| {
        let found = v != 0
            && (o.types.is_empty() || o.types.contains(&piece::ty(v)))
            && match o.owner {
                Owner::Own => piece::owner(v).index() == p,
                Owner::Opponent => piece::owner(v).index() != p,
                Owner::Any => true,
            };
        found != o.negate
    })
}

impl Builder<'_> {
    fn counter(&mut self, threshold: u32, parent: u32) -> u32 {
        self.index.nodes.push(Node { threshold, parent });
        (self.index.nodes.len() - 1) as u32
    }

    /// The test row of `occ` for player `p` (shared by equal tests).
    fn test_row(&mut self, p: usize, occ: &Occupants) -> u32 {
        if let Some(i) = self.seen.iter().position(|(q, o)| *q == p && o == occ) {
            return i as u32;
        }
        let m: &Model = &self.t.model;
        let nt = m.piece_types.len();
        self.index.tests.push(occupant_matches(occ, 0, p));
        for owner in 0..m.players.len() {
            for ty in 0..nt {
                let v = piece::make(PieceTypeId::new(ty as u32), PlayerId::new(owner as u32), 0);
                self.index.tests.push(occupant_matches(occ, v, p));
            }
        }
        self.seen.push((p, occ.clone()));
        (self.seen.len() - 1) as u32
    }

    fn feed(&mut self, pos: PositionId, counter: u32, p: usize, occ: &Occupants) {
        let test = self.test_row(p, occ);
        self.pending[pos.index()].push(Entry { counter, test });
    }

    fn compile(&mut self, c: &GoalCond, p: usize) -> Check {
        let compile_all =
            |b: &mut Self, v: &[GoalCond]| v.iter().map(|c| b.compile(c, p)).collect();
        match c {
            GoalCond::True => Check::True,
            GoalCond::False => Check::False,
            GoalCond::Not(c) => Check::Not(Box::new(self.compile(c, p))),
            GoalCond::And(v) => Check::And(compile_all(self, v)),
            GoalCond::Or(v) => Check::Or(compile_all(self, v)),
            GoalCond::Stalemated => Check::Stalemated,
            GoalCond::Checkmated(t) => Check::Checkmated(t.clone()),
            GoalCond::Repetition => Check::Repetition,
            GoalCond::PiecesRemaining { n, types } => Check::PiecesRemaining {
                n: *n,
                types: types.clone(),
            },
            GoalCond::TotalPieceCount { n, types } => Check::TotalPieceCount {
                n: *n,
                types: types.clone(),
            },
            GoalCond::Captured(t) => Check::Captured(t.clone()),
            GoalCond::AbsoluteConfig {
                occupants,
                positions,
                zones,
                any_position,
            } => {
                let mut parts = Vec::new();
                if !positions.is_empty() {
                    let need = if *any_position {
                        1
                    } else {
                        positions.len() as u32
                    };
                    let k = self.counter(need, NO_PARENT);
                    for &q in positions {
                        self.feed(q, k, p, occupants);
                    }
                    parts.push(Check::AtLeast { counter: k, need });
                }
                for &z in zones {
                    let k = self.counter(1, NO_PARENT);
                    let set = self
                        .t
                        .model
                        .zone_sets
                        .get(p)
                        .and_then(|zs| zs.get(z as usize));
                    for q in set.into_iter().flat_map(|s| s.iter()) {
                        self.feed(q, k, p, occupants);
                    }
                    parts.push(Check::AtLeast {
                        counter: k,
                        need: 1,
                    });
                }
                match parts.len() {
                    0 => Check::True,
                    1 => parts.pop().unwrap_or(Check::True),
                    _ => Check::And(parts),
                }
            }
            GoalCond::RelativeConfig { steps, dirs } => {
                let t = self.t;
                let np = t.model.num_positions();
                if steps.is_empty() {
                    return if np > 0 { Check::True } else { Check::False };
                }
                let links = &t.links[p];
                let k = self.counter(1, NO_PARENT);
                let mut path = Vec::with_capacity(steps.len());
                for start in t.model.position_ids() {
                    // The squares the reference evaluation visits from `start`; an instance
                    // exists only when no link on the way is missing.
                    path.clear();
                    let mut pos = start;
                    let mut whole = true;
                    for i in 0..steps.len() {
                        path.push(pos);
                        if let Some(&d) = dirs.get(i) {
                            pos = links[pos.index() * t.width + d as usize];
                            if pos.is_none() {
                                whole = false;
                                break;
                            }
                        }
                    }
                    if !whole {
                        continue;
                    }
                    let inst = self.counter(steps.len() as u32, k);
                    for (i, &q) in path.iter().enumerate() {
                        self.feed(q, inst, p, &steps[i]);
                    }
                }
                Check::AtLeast {
                    counter: k,
                    need: 1,
                }
            }
        }
    }
}

impl State {
    /// The goal counters (see `engine::goal_index`), for tests.
    #[doc(hidden)]
    pub fn goal_counts(&self) -> &[u32] {
        &self.goal_counts
    }
}
