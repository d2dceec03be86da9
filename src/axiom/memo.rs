//! The move-word cache. Move generation runs every move word of every friendly piece at
//! its position and every drop word at every position: Ur's dice turns run 340 words a
//! ply, and most of them read the same few cells as at the last ply and fail or add the
//! same move. The cache keeps, for each (block, piece, word, position), the traces of its
//! last runs ([`crate::forth::trace`]; up to `MAX_TRACES`, one per path a dice game's
//! word takes): the cells each read with their values, and its effects (cell writes and
//! calls of replayable host words such as `add-move`). When every cell of one trace reads
//! as before, its effects are applied instead of running the word, and the steps the run
//! took are counted as if it had run.
//!
//! An entry keeps the cells all its traces read (up to `PROBES`), and each trace a hash of
//! the values it read there: past the first trace, a check compares the reads of a trace
//! only when that hash is the one of the values there now. The traces kept in all are
//! bounded (`KEPT_READS`): past it, a slot keeps `FEW_TRACES`.
//!
//! Exactness: the word would take the same path (it would read the same values), so the
//! effects are the ones running it would have; the host words are called again on the
//! live state, as running it would call them. What a trace cannot vouch for taints it
//! (see the trace module), and a tainted word runs as before. The data stack under the
//! move words' cushion is part of what they may read: when it differs from the one the
//! entries were made over, the cache starts again. A game's results do not depend on the
//! cache (tested by playing with and without it).
//!
//! The cells the generator sets before each word (the cursor: `from`, `here`, the piece
//! and the last position) are not kept among a trace's reads: they hold what the entry's
//! key says. So a word that reads nothing else, and does nothing, is checked without
//! them, and the generator may leave them unwritten until something else runs
//! (`MoveMemo::defer_cursor`).
//!
//! # Checking only what was written
//! Comparing every read of every entry at every scan costs as much as the scan of a dice
//! turn runs words. So the cache watches the cells its traces read ([`Vm::watch_data`]):
//! the VM notes the writes that may change one, and `MoveMemo::sync` marks the entries
//! that read a written cell (a cell's readers are kept as the words of the clean bits
//! they are in, with a mask each: the current player is read by a hundred slots). An
//! entry whose reads were found to hold and that no such write touched since is *clean*:
//! its reads still hold, without comparing them.
//! Invariant: between the check that made an entry clean and the next use of it, every
//! write that may have changed a cell it read is in the VM's journal or was drained by
//! `sync`, which runs before each scan and after each word that ran or replayed effects.
//!
//! An entry whose first trace reads one cell keeps that read beside its flags and
//! compares it at each use instead (it is *small*, and not watched): Ur's `pass-move`
//! reads only `$passed`, which every generation writes, so watching it dirtied every
//! such entry twice a ply.
//!
//! # Walking over what needs nothing
//! A run of words whose entries hold (clean, or small and matching) and that either have
//! no effects or repeat the last unlisted replay (`MoveMemo::repeats_unlisted`) is walked
//! over by `MoveMemo::sweep`: their steps are counted and the last one's cursor is
//! deferred, as the word-by-word path would leave it. Most words of a dice turn are
//! walked over. A word whose first trace does not hold but another does (a dice square's
//! drop word, whose path follows the square) has that trace made its first, as the check
//! would, and the walk goes on (`MoveMemo::promote`). A listed replay whose effects
//! repeat the listed replay just before (`MoveMemo::repeats_listed`) lists the same move
//! by a copy of its record (`Runtime::relist`), in the walk too: before a better move is
//! listed, a dice turn lists a pass at every position. A listed replay of `drop`,
//! `capture-at` and `repetition-reset` then `add-move` (a dice drop) lists the record its
//! trace listed the last time it went the long way (`Kept::template`,
//! `Runtime::list_template`): the same bytes, their captures counted again. Any other
//! word whose trace holds and has effects of its own (a dice drop listed, a pass that a
//! better move leaves unlisted) is replayed by the walk itself as the generator would
//! (`MoveMemo::replay_effects`, the cursor written first), and the walk goes on. A listed
//! move whose effects write no cell and edit no square leaves the last unlisted replay
//! repeatable (`Runtime::leaves_unlisted`): the passes between Ur's dice drops are repeats.
//!
//! Most positions of a block have the entries of the position before (a drop word that
//! fails the same way, a pass made the same way): one bit per slot says so
//! (`MoveMemo::same_next`, kept as entries change). Once the walk has taken all the words
//! of a position itself, it takes each next position whose entries are the same, and whose
//! watched entries are clean, in one step: the word-by-word walk would do there what it did
//! at the position before. When that included one copy of a listed move, the copies of all
//! those positions are made together (`MoveMemo::relist_rows`, `Runtime::relist_run`),
//! unless they would write a cell the words between read (a watched cell, or a compared
//! read): then the walk goes position by position.

use super::natives::Runtime;
use crate::forth::frozen::FrozenCells;
use crate::forth::trace::{Event, Read};
use crate::forth::vm::CELL;
use crate::forth::{FResult, Host, Vm};
use crate::fxhash::FxBuild;
use std::collections::HashMap;

/// Entries kept before the cache starts again (a bound on memory for big boards).
const MAX_ENTRIES: usize = 1 << 16;

/// Runs a word whose trace was tainted skips tracing for, before it is traced again.
const OPAQUE_SKIP: u16 = 32;

/// [`Fast::flags`]: the entry is a replay without effects.
const NOOP: u8 = 2;
/// [`Fast::flags`]: the entry's first trace reads at most [`INLINE`] cells, kept in
/// [`Fast::reads`]: whether they hold is found by comparing them (they are not watched,
/// and [`MoveMemo::clean`] is not used).
const SMALL: u8 = 4;

/// Reads of a trace kept beside the entry's fast part (see [`SMALL`]): comparing a few
/// cells where they are costs less than keeping count of the writes to them (a cell most
/// words read, such as Axiom's `$passed`, is written at every generation).
const INLINE: usize = 1;

/// What the generator's fast path needs of an entry, kept apart from the traces (one
/// small array that a dice turn's scan walks): the word, the steps a replay counts, the
/// [`NOOP`] and [`SMALL`] flags, and a small first trace's reads.
#[derive(Clone, Copy, Default)]
struct Fast {
    word: u32,
    steps: u32,
    /// The entry's effects ([`MoveMemo::lists`]; 0: none, or not a replay).
    events: u32,
    flags: u8,
    /// With [`SMALL`]: how many of `reads` the first trace has.
    n_reads: u8,
    reads: [Read; INLINE],
}

/// What the cache knows of one (block, piece, word, position). `word`: the word's
/// execution token, checked at each use (a block rewritten in place gets new entries).
#[derive(Default)]
enum Entry {
    /// Nothing yet.
    #[default]
    Empty,
    /// Replayable traces, the one that held last first (a dice game's move word reads
    /// the dice: it takes a few paths, each with its own trace).
    Replay {
        word: u32,
        traces: Vec<Kept>,
        /// Cells (address and width) every trace reads, at most [`PROBES`]: each trace's
        /// [`Kept::sig`] is of the values it read there.
        probe: Vec<(u32, u8)>,
        /// Times the reads of a trace matched and of none did, since the first trace.
        hits: u32,
        misses: u32,
    },
    /// The word ran once, untraced: it is traced at its next run.
    Seen { word: u32 },
    /// The last trace was tainted: run untraced `skip` more times.
    Opaque { word: u32, skip: u16 },
}

/// One kept trace of a word: what it read, its effects, its steps.
struct Kept {
    /// A hash of the values it read at its entry's probe cells ([`signature`]): when the
    /// values there now hash otherwise, its reads do not hold (without comparing them).
    sig: u64,
    reads: Box<[Read]>,
    /// The effects: an index into [`MoveMemo::lists`].
    events: u32,
    steps: u64,
    /// The record its effects listed the last time they were replayed the long way, when
    /// they can be listed again from it ([`Runtime::list_template`]).
    ///
    /// [`Runtime::list_template`]: super::natives::Runtime::list_template
    /// (Boxed: a trace is moved about as its entry's traces change order, and most have
    /// none.)
    template: Option<Box<Template>>,
    /// Its reads are compared where the entry's fast part keeps them ([`SMALL`]): at most
    /// [`INLINE`], each of a cell of [`MoveMemo::compared`].
    small: bool,
}

/// A move's record, code and text as a replay listed them (see
/// [`Runtime::list_template`](super::natives::Runtime::list_template)).
pub(crate) struct Template {
    /// From the record's hidden cells to the end of its text's padding.
    pub bytes: Box<[u8]>,
    /// Where its text starts, from the start of `bytes`.
    pub text_at: u32,
}

impl Kept {
    /// What it counts for in [`MoveMemo::kept_reads`]: its reads, and its template as the
    /// reads of as many bytes (12 a read).
    fn weight(&self) -> usize {
        self.reads.len()
            + self
                .template
                .as_ref()
                .map_or(0, |t| t.bytes.len().div_ceil(12))
    }
}

/// Traces kept for one slot (when the reads of none hold, the oldest makes room). A dice
/// game's move word takes a path for each throw and each state of the squares on its way:
/// Ur's pieces waiting to enter, re-traced at each new throw, hit their traces twice as
/// often with 64 as with 8, and Ur's move words run 45% less often with 256 than with 64
/// once the caches are warm (the traces are compared only when their [`Kept::sig`] is
/// the one of the values now, so many cost little).
const MAX_TRACES: usize = 256;

/// A slot whose traces missed more than this many times, and more than [`MISS_RATIO`]
/// times as often as one held, is not traced for [`OPAQUE_SKIP`] runs (its reads keep
/// changing: tracing it is work thrown away). A word with many paths misses while its
/// traces are few: past 32 misses, Ur's move words keep their traces.
const MISS_GRACE: u32 = 32;
const MISS_RATIO: u32 = 4;

/// Cells an entry's [`Entry::Replay::probe`] keeps: the first ones its first trace reads
/// that every trace reads (a dice game's move word reads the dice first, at every throw).
const PROBES: usize = 8;

/// Traces a slot keeps once the cache keeps [`KEPT_READS`] reads in all (a bound on
/// memory: a big board's every word may take many paths).
const FEW_TRACES: usize = 8;

/// Reads kept in all the traces of the cache (12 bytes each) past which slots keep
/// [`FEW_TRACES`] traces only.
const KEPT_READS: usize = 1 << 20;

impl Fast {
    /// The fast part of an entry whose first trace is `k`, for `word`.
    fn of(word: u32, k: &Kept) -> Fast {
        let noop = k.events == 0 && k.steps <= u32::MAX as u64;
        let mut f = Fast {
            word,
            steps: k.steps.min(u32::MAX as u64) as u32,
            events: k.events,
            flags: if noop { NOOP } else { 0 },
            ..Fast::default()
        };
        if k.small {
            f.flags |= SMALL;
            f.n_reads = k.reads.len() as u8;
            f.reads[..k.reads.len()].copy_from_slice(&k.reads);
        }
        f
    }

    /// Whether `self` and `o` are the same entry for the walk: the same word, steps,
    /// effects and flags, and the same reads kept here when [`SMALL`] (see
    /// [`MoveMemo::same_next`]).
    #[inline]
    fn same_as(&self, o: &Fast) -> bool {
        let n = self.n_reads as usize;
        self.word != 0
            && self.word == o.word
            && self.steps == o.steps
            && self.events == o.events
            && self.flags == o.flags
            && self.n_reads == o.n_reads
            && self.reads[..n] == o.reads[..n]
    }

    /// Whether the reads of the entry's first trace hold: compared when they are kept
    /// here ([`SMALL`]), else as its bit in [`MoveMemo::clean`] says (`clean`).
    #[inline(always)]
    fn holds(&self, vm: &Vm, clean: bool) -> bool {
        if self.flags & SMALL != 0 {
            reads_hold(vm, &self.reads[..self.n_reads as usize])
        } else {
            clean
        }
    }
}

/// Counts of what the cache did (for tests and the benchmark).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    /// Words replayed instead of run.
    pub replayed: u64,
    /// Words run with a trace.
    pub traced: u64,
    /// Words run without one (tainted recently, or the cache is off).
    pub untraced: u64,
    /// Listed replays done by copying the record of the one just before
    /// (`Runtime::relist`).
    pub relisted: u64,
    /// Replayed words whose move is never listed (a better priority already dominated
    /// it, or the word does not add it): their lasting effects only
    /// (`Runtime::replay_unlisted` in `natives/trace.rs`).
    pub unlisted: u64,
    /// Of the replayed words, those skipped as clean and without effects (no check).
    pub skipped: u64,
    /// Of the unlisted words, those whose effects repeated the one before (nothing done).
    pub repeated: u64,
    /// Positions the walk over idle words took in one step, as the same as the position
    /// before (`MoveMemo::same_next`); their words are counted above too.
    pub rows: u64,
    /// Of the relisted words, those listed again together with the same word's at the
    /// positions before, in one run of copies (`Runtime::relist_run`).
    pub copied_together: u64,
    /// Entries the walk found holding by another trace than their first, and took on
    /// with it first (`MoveMemo::promote`).
    pub promoted: u64,
}

impl std::ops::AddAssign for MemoStats {
    fn add_assign(&mut self, o: MemoStats) {
        let MemoStats {
            replayed,
            traced,
            untraced,
            relisted,
            unlisted,
            skipped,
            repeated,
            rows,
            copied_together,
            promoted,
        } = o;
        self.replayed += replayed;
        self.traced += traced;
        self.untraced += untraced;
        self.relisted += relisted;
        self.unlisted += unlisted;
        self.skipped += skipped;
        self.repeated += repeated;
        self.rows += rows;
        self.copied_together += copied_together;
        self.promoted += promoted;
    }
}

/// The cells the generator sets before a move word runs, with the values it sets: the
/// origin, the current position, the piece and the last position.
pub(crate) type Cursor = [(u32, i32); 4];

/// Where the entries of one (block, piece) live: `count` words at `n_pos` positions from
/// `start`, valid while the cache is in era `era` ([`MoveMemo::table`]).
#[derive(Clone, Copy)]
pub(crate) struct Table {
    start: usize,
    count: u32,
    n_pos: u32,
    era: u32,
}

/// The cache of one game state (see the module documentation).
#[derive(Default)]
pub struct MoveMemo {
    /// Off: every word runs (`autoplay --move-cache off`, and the tests that compare).
    pub off: bool,
    /// The data stack under the cushion the entries were made over.
    context: Vec<i32>,
    /// The VM's [`Vm::code_epoch`] the entries were made at: traces do not note their
    /// reads of code, so a write to code invalidates them all.
    epoch: u64,
    /// Bumped whenever the entries are dropped: a [`Table`] of an older era finds
    /// no entries.
    era: u32,
    tables: HashMap<(u32, i32), Table, FxBuild>,
    entries: Vec<Entry>,
    /// Beside `entries`, slot for slot.
    fast: Vec<Fast>,
    /// One bit per slot: its entry is the same as the entry of the same word at the next
    /// position of its table ([`Fast::same_as`]). Kept as entries change
    /// ([`MoveMemo::relate`]); the walk takes a run of positions whose entries are the
    /// same, and hold, in one step ([`MoveMemo::sweep`]).
    same_next: Vec<u64>,
    /// One bit per slot: the entry is *clean*, its reads hold (see the module
    /// documentation; a [`SMALL`] entry's bit is not used).
    clean: Vec<u64>,
    /// The slots whose traces read each watched cell (by cell number, address / 4), as
    /// the words of [`MoveMemo::clean`] they are in and a mask of them there (a cell such
    /// as the current player is read by a hundred slots, a few words' worth: a write
    /// clears them a word at a time). A slot traced again adds its cells again; slots
    /// that read a cell no longer stay listed (a harmless extra check) until the lists
    /// are rebuilt.
    readers: HashMap<u32, Vec<(u32, u64)>, FxBuild>,
    /// The cells each slot is listed under in `readers`, sorted (so that tracing a word
    /// again lists it only under the cells it did not read before).
    linked: Vec<Vec<u32>>,
    /// Slots listed in `readers`, and the count at which the lists are rebuilt.
    links: usize,
    link_limit: usize,
    /// The entries' effects, each list kept once (entries with the same effects share
    /// one, so that comparing two is comparing their indices); 0 is the empty list.
    lists: Vec<Box<[Event]>>,
    list_index: HashMap<Box<[Event]>, u32, FxBuild>,
    /// The cells the VM reported written, drained by `MoveMemo::sync`.
    written: Vec<u32>,
    /// The VM still watches the cells of dropped entries.
    unwatch: bool,
    /// The last word replayed as an unlisted move, with its move type and the last
    /// position its effects set, when nothing ran or was replayed since
    /// ([`MoveMemo::repeats_unlisted`]).
    last_unlisted: Option<Unlisted>,
    /// The last word replayed as a listed move that can be listed again by a copy
    /// (`Runtime::relist`), when nothing ran or was replayed since.
    last_listed: Option<Listed>,
    /// A cursor the generator has not written yet ([`MoveMemo::defer_cursor`]).
    deferred: Option<Cursor>,
    /// Reads kept in the traces of all entries (see [`KEPT_READS`]).
    kept_reads: usize,
    /// The bound on `kept_reads` ([`KEPT_READS`] when 0; the tests set a small one).
    reads_bound: usize,
    /// The cells a [`SMALL`] trace may read ([`MoveMemo::comparing`]): those written at
    /// every turn, which are compared rather than watched. (A trace reading a cell that
    /// rarely changes, such as a board cell, is watched: it is then clean at most turns,
    /// and the walk takes runs of such entries in one step.)
    compared: Vec<u32>,
    pub stats: MemoStats,
}

/// A copy of a game state starts with an empty cache (entries are a speed-up only, and
/// searches copy states often).
impl Clone for MoveMemo {
    fn clone(&self) -> Self {
        MoveMemo {
            off: self.off,
            compared: self.compared.clone(),
            ..MoveMemo::default()
        }
    }
}

/// A replay of an unlisted move whose effects repeat harmlessly
/// ([`MoveMemo::repeats_unlisted`]).
#[derive(Clone, Copy)]
pub(crate) struct Unlisted {
    pub slot: usize,
    pub move_type: i32,
    /// The last position its effects set, if they set it.
    pub last_pos: Option<i32>,
}

/// A replay that listed a move whose record a replay of the same effects can copy
/// ([`MoveMemo::repeats_listed`]).
#[derive(Clone, Copy)]
pub(crate) struct Listed {
    pub slot: usize,
    pub move_type: i32,
    /// The move's record, and the end of its notation's text.
    pub record: (u32, u32),
    /// The last position its effects set, if they set it.
    pub last_pos: Option<i32>,
}

/// Slots listed in `readers` before the first rebuild of the lists.
const FIRST_LINK_LIMIT: usize = 1 << 16;

/// Words of a block [`MoveMemo::sweep`] walks over at each position.
const SWEEP_WORDS: usize = 8;

/// For each word count `c` (up to [`SWEEP_WORDS`]), bit `i * c` set for each whole
/// position `i` in 64 slots: the pattern [`MoveMemo::same_rows`] repeats a word's bit by.
const REPEAT: [u64; SWEEP_WORDS + 1] = {
    let mut r = [0u64; SWEEP_WORDS + 1];
    let mut c = 1;
    while c <= SWEEP_WORDS {
        let mut i = 0;
        while i < 64 / c {
            r[c] |= 1 << (i * c);
            i += 1;
        }
        c += 1;
    }
    r
};

/// What [`MoveMemo::sweep`] needs of the block it walks: its parameter field (the word
/// count, then a word and its move type per word), the move type the turn is restricted
/// to (0: none), the piece, the cursor's cells (as [`Cursor`]) and the room a move's
/// record needs above `HERE`.
pub(crate) struct Sweep {
    pub pfa: u32,
    pub of_type: i32,
    pub piece: i32,
    pub cursor: [u32; 4],
    pub record_room: u32,
}

/// What [`MoveMemo::sweep`] did at one position: the steps it counted, the words whose
/// entries are watched, the words it skipped, repeated and listed again by a copy, and
/// the last position the cursor was left with (`Some(None)`: the position itself), if a
/// word left it.
#[derive(Clone, Copy, Default)]
struct RowWalk {
    steps: u64,
    /// The words whose entries are not [`SMALL`] (bit k: word k): they hold when clean.
    watched: u8,
    skipped: u64,
    repeated: u64,
    /// Words whose move was listed again by a copy ([`Runtime::relist`]), and the last
    /// of them.
    relisted: u64,
    relisted_word: u32,
    /// The reads compared (not watched) that the position's words hold by.
    compared: [Read; SWEEP_WORDS],
    n_compared: usize,
    last: Option<Option<i32>>,
}

impl RowWalk {
    /// As new (the reads compared past `n_compared` are not looked at).
    #[inline]
    fn reset(&mut self) {
        // (Every field named: a new one is reset too, or this does not compile.)
        let RowWalk {
            steps,
            watched,
            skipped,
            repeated,
            relisted,
            relisted_word,
            compared: _,
            n_compared,
            last,
        } = self;
        (*steps, *skipped, *repeated, *relisted) = (0, 0, 0, 0);
        (*watched, *relisted_word, *n_compared, *last) = (0, 0, 0, None);
    }
}

/// The state of one [`MoveMemo::sweep`].
struct SweepWalk {
    /// The block's words and their move types, as many as `count`.
    words: [(u32, i32); SWEEP_WORDS],
    count: u32,
    /// The words the block's type restriction leaves (bit k: word k).
    of_type: u8,
    /// The step budget.
    limit: u64,
    /// The steps counted so far, and those of them added to the VM's count.
    steps: u64,
    counted: u64,
    skipped: u64,
    repeated: u64,
    relisted: u64,
    /// Positions taken at once as the same as the one before ([`MoveMemo::same_rows`]).
    taken_rows: u64,
    /// Words replayed with effects of their own, and `skipped` when the last was.
    replayed: u64,
    skipped_before: u64,
    /// The cursor of the last word walked over: its position, and the last position its
    /// effects set (a repeat's or a copy's), if they set it.
    last: Option<(i32, Option<i32>)>,
    /// What the checks of the walk keep asking, kept at hand: the last unlisted replay's
    /// effects (`repeats_unlisted`), and the last small read compared with its answer
    /// (most small entries of a turn read the same cell, as Ur's `pass-move` reads
    /// `$passed`; nothing is written between two checks but by a copy).
    unlisted: Option<(Unlisted, u32)>,
    compared: Option<(Read, bool)>,
    /// Copies made together were refused (`relist_rows`).
    copies_refused: bool,
    /// Whether `whole` is what the walk did at the current position (it took every word
    /// there so far, and replayed none with effects of its own).
    whole_on: bool,
    whole: RowWalk,
}

/// What [`MoveMemo::sweep`] did with one word.
enum WordWalk {
    /// Not of the move type the turn is restricted to: passed over.
    Passed,
    /// Done without running anything: its steps are counted.
    Taken,
    /// Taken, and the walk stops after it (the cache or the room changed).
    TakenLast,
    /// Another of its traces was promoted: the word is looked at again.
    Again,
    /// The word needs more: the walk stops before it.
    Stop,
}

/// What [`MoveMemo::check`] found.
pub(crate) enum Outcome {
    /// The entry at `slot` holds: its steps are counted; `effects`: it has effects, to be
    /// applied with [`apply_effects`] (a word without any is done).
    Replay { slot: usize, effects: bool },
    /// The word must run; `traced`: with a trace, to be given to [`MoveMemo::store`].
    Run { traced: bool },
}

impl Table {
    /// The entry of word `k` of the block at `pos`, if the table has one. Slots are in
    /// the order the scan visits them: by position, then by word.
    #[inline]
    pub(crate) fn slot(&self, k: u32, pos: i32) -> Option<usize> {
        let p = u32::try_from(pos).ok().filter(|&p| p < self.n_pos)?;
        (k < self.count).then(|| self.start + (p * self.count + k) as usize)
    }
}

impl MoveMemo {
    /// A cache whose traces that read only cells of `compared` (cells the host writes at
    /// every turn), and at most [`INLINE`] of them, are [`SMALL`].
    pub(crate) fn comparing(compared: &[u32]) -> MoveMemo {
        MoveMemo {
            compared: compared.to_vec(),
            ..MoveMemo::default()
        }
    }

    /// A cache that is off (the placeholder while a scan has the runtime's cache out).
    pub(crate) fn disabled() -> MoveMemo {
        MoveMemo {
            off: true,
            ..MoveMemo::default()
        }
    }

    /// Starts a scan over the data stack `below` the cushion.
    pub(crate) fn begin_scan(&mut self, vm: &mut Vm) {
        if self.off {
            return;
        }
        if self.entries.is_empty() {
            // A new cache (a copy of a state starts with one): what the VM watched was
            // for another.
            self.unwatch = true;
        }
        if !vm.stack_is(vm.stack().len(), &self.context) {
            self.drop_entries();
            self.context.clear();
            self.context.extend_from_slice(vm.stack());
        }
        self.last_unlisted = None;
        self.last_listed = None;
        self.sync(vm);
    }

    /// Whether the entries were made over the code `vm` runs now (no write to code since):
    /// the cache can then serve another game of the same program ([`MoveMemo::carry_to`]).
    pub(crate) fn fits(&self, vm: &Vm) -> bool {
        !self.off && !self.entries.is_empty() && vm.code_epoch() == self.epoch
    }

    /// Makes this cache, left by a finished game of the same program whose VM marked
    /// `code` as code ([`Vm::code_cells`]), serve the game whose VM is `vm`. Its entries
    /// stay only when `vm` holds the same code ([`Vm::adopt_code`]); then `vm` also watches
    /// their reads, and none is clean until found to hold (the cells they read were
    /// watched in the other VM). Counts start again.
    pub(crate) fn carry_to(&mut self, vm: &mut Vm, code: &[(u32, i32)], frozen: &FrozenCells) {
        self.stats = MemoStats::default();
        self.last_unlisted = None;
        self.last_listed = None;
        self.deferred = None;
        self.written.clear();
        // (Both run: what the other VM learned of its data serves even when its traces
        // cannot.)
        let same_code = vm.adopt_code(code);
        if !(vm.adopt_frozen(frozen) && same_code) {
            self.drop_entries();
            self.epoch = vm.code_epoch();
            return;
        }
        self.epoch = vm.code_epoch();
        self.unwatch = false;
        self.clean.fill(0);
        // Every cell a watched trace reads has its readers listed (and a few more cells,
        // read by traces since dropped, or small: watched in vain, which is harmless).
        for &c in self.readers.keys() {
            vm.watch_data(c * CELL, CELL);
        }
    }

    /// Forgets every entry (and table): older [`Table`]s find nothing.
    fn drop_entries(&mut self) {
        self.entries.clear();
        self.fast.clear();
        self.same_next.clear();
        self.clean.clear();
        self.tables.clear();
        self.readers.clear();
        self.linked.clear();
        self.links = 0;
        self.link_limit = FIRST_LINK_LIMIT;
        self.lists.truncate(1);
        self.list_index.clear();
        self.kept_reads = 0;
        self.unwatch = true;
        self.last_unlisted = None;
        self.last_listed = None;
        self.era = self.era.wrapping_add(1);
    }

    /// Brings up to date the bits of [`MoveMemo::same_next`] that the entry in `slot` of
    /// `table` (of the current era) takes part in, after it changed: its own, and the one
    /// of the same word at the position before.
    fn relate(&mut self, table: &Table, slot: usize) {
        let count = table.count as usize;
        let size = count * table.n_pos as usize;
        let Some(off) = slot.checked_sub(table.start).filter(|&o| o < size) else {
            return;
        };
        if off >= count {
            self.set_same_next(slot - count, slot);
        }
        if off + count < size {
            self.set_same_next(slot, slot + count);
        }
    }

    /// Sets the bit of slot `a` in [`MoveMemo::same_next`] to whether its entry is the same
    /// as the one in slot `b` ([`Fast::same_as`]).
    fn set_same_next(&mut self, a: usize, b: usize) {
        let same = match (self.fast.get(a), self.fast.get(b)) {
            (Some(x), Some(y)) => x.same_as(y),
            _ => false,
        };
        put_bit(&mut self.same_next, a, same);
    }

    /// How many of the positions `p`, `p + 1`, … (at most `max`) each have, for every word
    /// in `words` (bit k: word k; a table the walk takes has at most [`SWEEP_WORDS`]), the
    /// same entry as at the position after ([`MoveMemo::same_next`]), with the entries
    /// there of the words in `watched` clean. Reads 64 slots of both bit sets at a time:
    /// slots are by position, then by word, so the words' bits repeat every `count` bits.
    #[inline]
    fn same_rows(&self, table: &Table, p: u32, words: u8, watched: u8, max: u64) -> u64 {
        let count = table.count as usize;
        if count == 0 || count > SWEEP_WORDS {
            return 0;
        }
        // Whole positions per 64 slots, and the bit pattern that repeats each word's bit.
        let per = 64 / count;
        let repeat = REPEAT[count];
        let word_bits = (1u64 << count) - 1;
        let need = (u64::from(words) & word_bits) * repeat;
        let watch = (u64::from(words & watched) & word_bits) * repeat;
        let used = u64::MAX >> (64 - per * count);
        let mut first = table.start + p as usize * count;
        let mut rows = 0u64;
        while rows < max {
            let same = bits_from(&self.same_next, first);
            // (The clean bits of the entries at the next position.)
            let clean = bits_from(&self.clean, first + count);
            let bad = need & !(same & (!watch | clean)) & used;
            if bad != 0 {
                rows += u64::from(bad.trailing_zeros()) / count as u64;
                break;
            }
            rows += per as u64;
            first += per * count;
        }
        rows.min(max)
    }

    /// Takes in what was written since the last call: the entries that read a written
    /// cell are no longer clean. Also drops every entry when code was written (traces do
    /// not note their reads of code). Runs before each scan and after each word that ran
    /// or replayed effects (see the module documentation).
    pub(crate) fn sync(&mut self, vm: &mut Vm) {
        if vm.code_epoch() != self.epoch {
            self.drop_entries();
            self.epoch = vm.code_epoch();
        }
        if std::mem::take(&mut self.unwatch) {
            vm.unwatch_data();
        }
        if !vm.any_written() {
            return;
        }
        self.written.clear();
        if !vm.drain_written(&mut self.written) {
            self.clean.fill(0);
            return;
        }
        for c in &self.written {
            if let Some(slots) = self.readers.get(c) {
                for &(w, mask) in slots {
                    if let Some(bits) = self.clean.get_mut(w as usize) {
                        *bits &= !mask;
                    }
                }
            }
        }
    }

    /// Walks the words of `block` (its parameter field at `block.pfa`) for `piece` from
    /// word `k` at position `pos` on, position by position up to `end`, while each word is
    /// done without running anything: a replay without effects whose reads hold, a repeat
    /// of the last unlisted replay whose reads hold (as [`MoveMemo::repeats_unlisted`]
    /// finds it), or a repeat of the last listed replay whose reads hold, listed again by
    /// a copy of its record (as [`MoveMemo::repeats_listed`] finds it, and
    /// `Runtime::relist` does it). Their steps are counted and the cursor of the last is
    /// deferred, as the generator does word by word. Returns where the walk stopped: the
    /// first word that needs more (or whose steps do not fit in the budget, or a position
    /// past `end`, with `k` 0).
    ///
    /// This is the generator's word-by-word loop for the words the cache does nothing
    /// for, or only lists again, without the per-word bookkeeping: most words of a dice
    /// game's turn. (Before the first move of a better priority is listed, a dice turn
    /// lists a pass at every position: each is a copy of the one before.)
    pub(crate) fn sweep(
        &mut self,
        vm: &mut Vm,
        rt: &mut Runtime,
        table: &Table,
        block: &Sweep,
        (mut pos, mut k): (i32, u32),
        end: i32,
    ) -> FResult<(i32, u32)> {
        let Some(mut w) = self.start_sweep(vm, table, block)? else {
            return Ok((pos, k));
        };
        'walk: while pos < end {
            let Some(row) = table.slot(0, pos) else {
                break;
            };
            // What the walk did at this position, when it took all its words here and
            // copied no record: the same is done at each next position whose entries are
            // the same (`same_next`).
            // (Kept in one place and reset, not made anew: it is big, and this runs at
            // every position.)
            w.whole_on = k == 0;
            if w.whole_on {
                w.whole.reset();
            }
            while k < w.count {
                match self.sweep_word(vm, rt, table, block, &mut w, (pos, row, k))? {
                    WordWalk::Passed | WordWalk::Taken => k += 1,
                    WordWalk::Again => {}
                    WordWalk::TakenLast => {
                        k += 1;
                        break 'walk;
                    }
                    WordWalk::Stop => break 'walk,
                }
            }
            if w.whole_on && w.whole.relisted <= 1 {
                pos = self.take_same_rows(vm, rt, table, &mut w, pos, end)?;
            }
            pos += 1;
            k = 0;
        }
        self.end_sweep(vm, block, &w)?;
        Ok((pos, k))
    }

    /// The start of a [`MoveMemo::sweep`]: the block's words, read once (nothing runs
    /// during the walk; Ur's blocks have two, bigger ones go word by word), and the state
    /// of the walk; `None` when the cache cannot walk (off, out of date, a block too big or
    /// not the table's, no room for a record).
    #[inline]
    fn start_sweep(&self, vm: &Vm, table: &Table, block: &Sweep) -> FResult<Option<SweepWalk>> {
        if self.off
            || table.era != self.era
            || vm.code_epoch() != self.epoch
            || vm.room() < block.record_room
        {
            return Ok(None);
        }
        let count = vm.cell(block.pfa)?.clamp(0, 1024) as u32;
        if count as usize > SWEEP_WORDS || count != table.count {
            return Ok(None);
        }
        let mut words = [(0u32, 0i32); SWEEP_WORDS];
        for (k, w) in words.iter_mut().enumerate().take(count as usize) {
            let a = block.pfa + 4 + 8 * k as u32;
            *w = (vm.cell(a)? as u32, vm.cell(a + 4)?);
        }
        // The words the block's type restriction leaves (bit k: word k).
        let mut of_type = 0u8;
        for (k, &(_, ty)) in words.iter().enumerate().take(count as usize) {
            if block.of_type == 0 || ty == block.of_type {
                of_type |= 1 << k;
            }
        }
        let (used, limit) = vm.budget_state();
        Ok(Some(SweepWalk {
            words,
            count,
            of_type,
            limit,
            steps: used,
            counted: used,
            skipped: 0,
            repeated: 0,
            relisted: 0,
            taken_rows: 0,
            replayed: 0,
            skipped_before: 0,
            last: None,
            unlisted: self.last_unlisted.map(|u| (u, self.fast[u.slot].events)),
            compared: None,
            copies_refused: false,
            whole_on: false,
            whole: RowWalk::default(),
        }))
    }

    /// Word `k` of the block at `pos` (its first slot `row`) in a [`MoveMemo::sweep`]: taken
    /// when it is done without running anything (its steps counted in `w.steps`), else
    /// where the walk stops.
    #[inline]
    fn sweep_word(
        &mut self,
        vm: &mut Vm,
        rt: &mut Runtime,
        table: &Table,
        block: &Sweep,
        w: &mut SweepWalk,
        (pos, row, k): (i32, usize, u32),
    ) -> FResult<WordWalk> {
        let (word, ty) = w.words[k as usize];
        if block.of_type != 0 && ty != block.of_type {
            return Ok(WordWalk::Passed);
        }
        let s = row + k as usize;
        let Some(&f) = self.fast.get(s) else {
            return Ok(WordWalk::Stop);
        };
        let holds = if f.flags & SMALL != 0 && f.n_reads == 1 {
            match w.compared {
                Some((r, h)) if r == f.reads[0] => h,
                _ => {
                    let h = reads_hold(vm, &f.reads[..1]);
                    w.compared = Some((f.reads[0], h));
                    h
                }
            }
        } else {
            f.holds(vm, bit(&self.clean, s))
        };
        if f.word != word {
            return Ok(WordWalk::Stop);
        }
        if !holds {
            // Another of its traces may hold (a dice square's drop word takes a path for
            // each state of the square): it comes first, and the word is taken again; else
            // the word goes the long way.
            if self.promote(vm, table, s, word) {
                self.stats.promoted += 1;
                return Ok(WordWalk::Again);
            }
            return Ok(WordWalk::Stop);
        }
        let n = match w.steps.checked_add(f.steps as u64) {
            Some(n) if n <= w.limit => n,
            _ => return Ok(WordWalk::Stop),
        };
        if w.whole_on {
            let r = &mut w.whole;
            r.steps += f.steps as u64;
            if f.flags & SMALL == 0 {
                r.watched |= 1 << k;
            } else if let Some(c) = r.compared.get_mut(r.n_compared) {
                if f.n_reads == 1 {
                    *c = f.reads[0];
                    r.n_compared += 1;
                }
            }
        }
        if f.flags & NOOP != 0 {
            w.skipped += 1;
            w.last = Some((pos, None));
            if w.whole_on {
                w.whole.skipped += 1;
                w.whole.last = Some(None);
            }
        } else if f.steps == u32::MAX {
            // (The steps may not fit in the fast part: counted the long way.)
            return Ok(WordWalk::Stop);
        } else if let Some((u, _)) = w
            .unlisted
            .filter(|&(u, e)| u.move_type == ty && u.slot != s && e != 0 && f.events == e)
        {
            // (As `repeats_unlisted` finds it.)
            w.repeated += 1;
            w.last = Some((pos, u.last_pos));
            if w.whole_on {
                w.whole.repeated += 1;
                w.whole.last = Some(u.last_pos);
            }
        } else if let Some(l) = self.repeats_listed(s, ty) {
            let events = self.lists.get(f.events as usize).map_or(&[][..], |e| e);
            let Some(record) = rt.relist(vm, ty, l.record, events)? else {
                return Ok(WordWalk::Stop);
            };
            if let Some(Entry::Replay { hits, .. }) = self.entries.get_mut(s) {
                *hits += 1;
            }
            self.set_last_listed(Listed {
                slot: s,
                record,
                ..l
            });
            w.compared = None;
            if w.whole_on {
                let r = &mut w.whole;
                r.relisted += 1;
                r.relisted_word = k;
                r.last = Some(l.last_pos);
            }
            w.relisted += 1;
            w.last = Some((pos, l.last_pos));
            // What the copy wrote (the list's links and count) may be read.
            self.sync(vm);
            if table.era != self.era {
                w.steps = n;
                return Ok(WordWalk::TakenLast);
            }
        } else if vm.room() >= block.record_room {
            // Effects of its own (a move listed, or a pass a better move leaves
            // unlisted): replayed as the generator does it word by word, the cursor
            // written and the steps counted first, and the walk goes on.
            if w.skipped > w.skipped_before {
                // (What the words skipped since left: `HERE` aligned.)
                align_here(vm)?;
            }
            vm.add_steps(n - w.counted);
            w.counted = n;
            let cursor = [
                (block.cursor[0], pos),
                (block.cursor[1], pos),
                (block.cursor[2], block.piece),
                (block.cursor[3], pos),
            ];
            self.replay_effects(vm, rt, s, ty, &cursor)?;
            if let Some(Entry::Replay { hits, .. }) = self.entries.get_mut(s) {
                *hits += 1;
            }
            w.replayed += 1;
            w.skipped_before = w.skipped;
            // (The cursor is written, the position is not as the one before, and what
            // the walk kept at hand may have changed.)
            w.last = None;
            w.whole_on = false;
            w.unlisted = self.last_unlisted.map(|u| (u, self.fast[u.slot].events));
            w.compared = None;
            if table.era != self.era
                || vm.code_epoch() != self.epoch
                || vm.room() < block.record_room
            {
                w.steps = n;
                return Ok(WordWalk::TakenLast);
            }
        } else {
            return Ok(WordWalk::Stop);
        }
        w.steps = n;
        Ok(WordWalk::Taken)
    }

    /// After a [`MoveMemo::sweep`] took every word at `pos` (`w.whole`, with one copy of a
    /// record at most): takes the next positions whose entries are those of `pos` the same
    /// way at once. Returns the last position taken.
    #[inline]
    fn take_same_rows(
        &mut self,
        vm: &mut Vm,
        rt: &mut Runtime,
        table: &Table,
        w: &mut SweepWalk,
        mut pos: i32,
        end: i32,
    ) -> FResult<i32> {
        let r = &w.whole;
        // The next positions whose entries are those of this one, word for word: their
        // reads are this position's (they hold), their effects too (none, the repeat of
        // the same unlisted replay, or the copy of the move listed just before), and
        // nothing was written (but copies: see below).
        let max = u64::try_from(end - 1 - pos).unwrap_or(0);
        let mut rows = self.same_rows(table, pos as u32, w.of_type, r.watched, max);
        pos += rows as i32;
        let mut fits = rows
            .checked_mul(r.steps)
            .and_then(|s| w.steps.checked_add(s))
            .filter(|&n| n <= w.limit);
        if r.relisted > 0 && (rows == 0 || fits.is_none() || w.copies_refused) {
            // (Walked position by position, copying at each.)
            pos -= rows as i32;
            rows = 0;
            fits = Some(w.steps);
        } else if r.relisted > 0 {
            // A copy at each: made together, when they write nothing the words between
            // read (`Runtime::relist_run`); as many rows as were listed.
            let first = pos - rows as i32;
            let made = self.relist_rows(vm, rt, table, r, first, rows)?;
            pos = first + made as i32;
            rows = made;
            // (Refused once, they would be at each next position too.)
            w.copies_refused = made == 0;
            fits = Some(w.steps + made * r.steps);
            w.relisted += made;
            self.stats.copied_together += made;
        }
        match fits {
            Some(n) => {
                w.steps = n;
                w.skipped += rows * r.skipped;
                w.repeated += rows * r.repeated;
                w.taken_rows += rows;
                if let (Some(over), true) = (r.last, rows > 0) {
                    w.last = Some((pos, over));
                }
            }
            // (Past the budget: walked position by position, to stop where it runs out.)
            None => pos -= rows as i32,
        }
        Ok(pos)
    }

    /// The end of a [`MoveMemo::sweep`]: the steps not yet counted added to the VM's
    /// count, the cursor of the last word walked over deferred, `HERE` aligned after
    /// skipped words, and the statistics.
    #[inline]
    fn end_sweep(&mut self, vm: &mut Vm, block: &Sweep, w: &SweepWalk) -> FResult<()> {
        vm.add_steps(w.steps - w.counted);
        if let Some((p, over)) = w.last {
            self.deferred = Some([
                (block.cursor[0], p),
                (block.cursor[1], p),
                (block.cursor[2], block.piece),
                (block.cursor[3], over.unwrap_or(p)),
            ]);
        }
        if w.skipped > w.skipped_before {
            align_here(vm)?;
        }
        let (skipped, repeated, relisted) = (w.skipped, w.repeated, w.relisted);
        self.stats.replayed += skipped + repeated + relisted + w.replayed;
        self.stats.skipped += skipped;
        self.stats.unlisted += repeated;
        self.stats.repeated += repeated;
        self.stats.relisted += relisted;
        self.stats.rows += w.taken_rows;
        Ok(())
    }

    /// Replays the effects of the entry in `slot` (its first trace holds: a word of move
    /// type `ty`, at `cursor`) as running the word would leave them, when they neither
    /// repeat the last unlisted replay nor list the last listed move again
    /// ([`MoveMemo::repeats_unlisted`], [`MoveMemo::repeats_listed`]): only what they
    /// leave when the move is not listed (`Runtime::replay_unlisted`), else the move listed
    /// from the record it listed last time (`Runtime::list_template`) or the long way. For
    /// the generator's word-by-word path and the walk ([`MoveMemo::sweep`]).
    pub(crate) fn replay_effects(
        &mut self,
        vm: &mut Vm,
        rt: &mut Runtime,
        slot: usize,
        ty: i32,
        cursor: &Cursor,
    ) -> FResult<()> {
        self.put_cursor(vm, cursor)?;
        self.last_listed = None;
        let events = self.events(slot);
        if rt.replay_unlisted(vm, ty, events)? {
            let last = match Runtime::repeat_of(events, &cursor.map(|c| c.0)) {
                Some(sets_last) => Some(Unlisted {
                    slot,
                    move_type: ty,
                    last_pos: if sets_last {
                        Some(vm.cell(cursor[3].0)?)
                    } else {
                        None
                    },
                }),
                None => None,
            };
            self.set_last_unlisted(last);
            self.stats.unlisted += 1;
            self.sync(vm);
            return Ok(());
        }
        // (A listed move whose effects change nothing the last unlisted replay set leaves
        // it repeatable: a dice square's drop between passes a better move leaves
        // unlisted.)
        let drop_unlisted = !Runtime::leaves_unlisted(events);
        let relistable = Runtime::relistable(events);
        let before = rt.listed_count();
        // The record it listed last time, when it lists the same one (a dice drop),
        // put back; else the long way, keeping the record for next time.
        let listed = match self.template(slot) {
            Some(t) => rt.list_template(vm, ty, t, events, cursor[1].1)?,
            None => false,
        };
        if !listed {
            rt.begin_move(vm, ty)?;
            rt.replay_move(vm, events)?;
            if Runtime::templatable(events) {
                if let Some(t) = rt.template_of(vm, before)? {
                    self.set_template(slot, t);
                }
            }
        }
        if drop_unlisted {
            self.last_unlisted = None;
        }
        self.sync(vm);
        if let Some(sets_last) = relistable {
            if let Some(record) = rt.listed_one(vm, before)? {
                let last_pos = if sets_last {
                    Some(vm.cell(cursor[3].0)?)
                } else {
                    None
                };
                self.set_last_listed(Listed {
                    slot,
                    move_type: ty,
                    record,
                    last_pos,
                });
            }
        }
        Ok(())
    }

    /// Lists again, by copies made together ([`Runtime::relist_run`]), the move of word
    /// `w.relisted_word` at the `rows` positions after `first`, whose entries are those of
    /// `first` ([`MoveMemo::same_rows`]), where the walk listed it again by a copy
    /// (the move just listed is [`MoveMemo::last_listed`]). Returns the positions done
    /// (none when the copies would write a cell their words read); each is what the walk
    /// would have done there: the same copy, the same counts.
    fn relist_rows(
        &mut self,
        vm: &mut Vm,
        rt: &mut Runtime,
        table: &Table,
        w: &RowWalk,
        first: i32,
        rows: u64,
    ) -> FResult<u64> {
        let Some(l) = self.last_listed else {
            return Ok(0);
        };
        let events = self
            .lists
            .get(self.fast[l.slot].events as usize)
            .map_or(&[][..], |e| e);
        let kept = &w.compared[..w.n_compared];
        let Some((made, record)) = rt.relist_run(vm, l.move_type, l.record, events, rows, kept)?
        else {
            return Ok(0);
        };
        if made > 0 {
            // (The hits of the entries copied are not counted: the walk does not count
            // those of the words it walks over either.)
            let slot = table
                .slot(w.relisted_word, first + made as i32)
                .unwrap_or(l.slot);
            self.set_last_listed(Listed { slot, record, ..l });
            // (Nothing the words read was written, as `relist_run` checked.)
            self.sync(vm);
        }
        Ok(made)
    }

    /// Whether the entry in `slot`, a replay with effects, has the same effects and move
    /// type as the last unlisted replay (see [`MemoStats::unlisted`]), with nothing run or
    /// replayed since: then replaying it changes nothing but the cursor (the effects
    /// repeat harmlessly: `Runtime::repeat_of`). Returns the last position those effects
    /// set, when they set it: the cursor's last position is that.
    #[inline]
    pub(crate) fn repeats_unlisted(&self, slot: usize, ty: i32) -> Option<Option<i32>> {
        let u = self.last_unlisted?;
        self.same_effects((u.slot, u.move_type), slot, ty)
            .then_some(u.last_pos)
    }

    /// Whether the entry in `slot`, of move type `ty`, is another entry than the one in
    /// `last.0` and has its effects (not none) and move type `last.1`.
    #[inline]
    fn same_effects(&self, (last, last_ty): (usize, i32), slot: usize, ty: i32) -> bool {
        let e = self.fast[slot].events;
        last_ty == ty && last != slot && e != 0 && self.fast[last].events == e
    }

    /// Notes the unlisted replay just made (None: something else ran or replayed).
    #[inline]
    pub(crate) fn set_last_unlisted(&mut self, last: Option<Unlisted>) {
        self.last_unlisted = last;
        self.last_listed = None;
    }

    /// Notes the listed replay just made, whose move a replay of the same effects can
    /// list again by a copy. The last unlisted replay is still repeated by the same
    /// effects when this one's leave what that one set as it was
    /// (`Runtime::leaves_unlisted`: a copy's always do).
    #[inline]
    pub(crate) fn set_last_listed(&mut self, last: Listed) {
        self.last_listed = Some(last);
    }

    /// The listed replay just before (see [`MoveMemo::set_last_listed`]), if the entry in
    /// `slot`, a replay with effects of move type `ty`, has the same effects, with nothing
    /// run or replayed since.
    pub(crate) fn repeats_listed(&self, slot: usize, ty: i32) -> Option<Listed> {
        let l = self.last_listed?;
        self.same_effects((l.slot, l.move_type), slot, ty)
            .then_some(l)
    }

    /// The entries of the `count` words of `block` for `piece` at `n_pos` positions.
    pub(crate) fn table(&mut self, block: u32, piece: i32, count: u32, n_pos: u32) -> Table {
        let size = count as usize * n_pos as usize;
        if self.off || size > MAX_ENTRIES {
            // No entries: every word runs untraced.
            return Table {
                start: 0,
                count: 0,
                n_pos: 0,
                era: self.era,
            };
        }
        if let Some(t) = self.tables.get(&(block, piece)) {
            if t.count == count && t.n_pos == n_pos && t.era == self.era {
                return *t;
            }
        }
        // A block whose word count changed gets a new range; the old one stays unused
        // until the cache starts again (the entries are bounded all the same).
        if self.entries.len() + size > MAX_ENTRIES {
            self.drop_entries();
        }
        let t = Table {
            start: self.entries.len(),
            count,
            n_pos,
            era: self.era,
        };
        self.entries.resize_with(t.start + size, Entry::default);
        self.fast.resize(t.start + size, Fast::default());
        self.same_next.resize((t.start + size).div_ceil(64), 0);
        self.clean.resize((t.start + size).div_ceil(64), 0);
        self.linked.resize_with(t.start + size, Vec::new);
        self.tables.insert((block, piece), t);
        t
    }

    /// Whether the entry of `word` in `slot` of `table` still holds (its steps are then
    /// counted); else how to run the word. Checked before the move's record is opened
    /// and before the cursor is written: traces never read what opening it changes (the
    /// dictionary pointer and the memory above it), nor keep their reads of the cursor.
    pub(crate) fn check(
        &mut self,
        vm: &mut Vm,
        table: &Table,
        slot: Option<usize>,
        word: u32,
    ) -> Outcome {
        if self.off {
            self.stats.untraced += 1;
            return Outcome::Run { traced: false };
        }
        if vm.code_epoch() != self.epoch {
            self.drop_entries();
            self.epoch = vm.code_epoch();
        }
        let Some((slot, entry)) = entry_in(&mut self.entries, self.era, table, slot) else {
            self.stats.untraced += 1;
            return Outcome::Run { traced: false };
        };
        let fast = &mut self.fast[slot];
        let clean = bit(&self.clean, slot);
        match entry {
            Entry::Replay {
                word: w,
                traces,
                probe,
                hits,
                misses,
            } if *w == word => {
                let found = if fast.holds(vm, clean) {
                    Some(0)
                } else {
                    // The values at the probe cells rule out most traces at once.
                    let sig = signature(probe.iter().map(|&(a, w)| read_now(vm, a, w)));
                    traces
                        .iter()
                        .position(|k| k.sig == sig && reads_hold(vm, &k.reads))
                };
                if let Some(i) = found.filter(|&i| vm.add_steps(traces[i].steps)) {
                    // (Its fast part changes only when it differs from the first's.)
                    let mut moved = false;
                    if i != 0 {
                        traces[..=i].rotate_right(1);
                        let f = Fast::of(word, &traces[0]);
                        moved = !f.same_as(fast);
                        *fast = f;
                    }
                    put_bit(&mut self.clean, slot, true);
                    *hits += 1;
                    self.stats.replayed += 1;
                    let effects = traces[0].events != 0;
                    if moved {
                        self.relate(table, slot);
                    }
                    return Outcome::Replay { slot, effects };
                }
                put_bit(&mut self.clean, slot, false);
                *misses += 1;
                // A word whose reads keep changing is not worth tracing every time.
                if *misses > MISS_GRACE && *misses > MISS_RATIO * *hits {
                    self.kept_reads = self.kept_reads.saturating_sub(reads_of(traces));
                    *entry = Entry::Opaque {
                        word,
                        skip: OPAQUE_SKIP,
                    };
                    *fast = Fast::default();
                    self.stats.untraced += 1;
                    self.relate(table, slot);
                    return Outcome::Run { traced: false };
                }
            }
            Entry::Opaque { word: w, skip } if *w == word && *skip > 0 => {
                *skip -= 1;
                self.stats.untraced += 1;
                return Outcome::Run { traced: false };
            }
            Entry::Opaque { word: w, .. } | Entry::Seen { word: w } if *w == word => {}
            _ => {
                // Traced from its second run on: a word run once is not worth the trace.
                self.kept_reads = self.kept_reads.saturating_sub(reads_kept(entry));
                *entry = Entry::Seen { word };
                *fast = Fast::default();
                self.stats.untraced += 1;
                self.relate(table, slot);
                return Outcome::Run { traced: false };
            }
        }
        self.stats.traced += 1;
        Outcome::Run { traced: true }
    }

    /// Makes the trace of the entry of `word` in `slot` whose reads hold, if one does, its
    /// first (its reads then hold: the entry is clean); false when none does. What
    /// [`MoveMemo::check`] does before it counts a replay, for the walk, which counts its
    /// own.
    fn promote(&mut self, vm: &Vm, table: &Table, slot: usize, word: u32) -> bool {
        let Some(Entry::Replay {
            word: w,
            traces,
            probe,
            ..
        }) = self.entries.get_mut(slot)
        else {
            return false;
        };
        if *w != word {
            return false;
        }
        let sig = signature(probe.iter().map(|&(a, w)| read_now(vm, a, w)));
        let Some(i) = traces
            .iter()
            .position(|k| k.sig == sig && reads_hold(vm, &k.reads))
        else {
            return false;
        };
        put_bit(&mut self.clean, slot, true);
        if i != 0 {
            traces[..=i].rotate_right(1);
            // (The bits `relate` keeps change only when the fast part does.)
            let f = Fast::of(word, &traces[0]);
            if let Some(old) = self.fast.get_mut(slot).filter(|old| !f.same_as(old)) {
                *old = f;
                self.relate(table, slot);
            }
        }
        true
    }

    /// The template of the entry in `slot`'s first trace (as [`MoveMemo::check`] found it
    /// holding), if it has one.
    pub(crate) fn template(&self, slot: usize) -> Option<&Template> {
        match self.entries.get(slot) {
            Some(Entry::Replay { traces, .. }) => traces.first()?.template.as_deref(),
            _ => None,
        }
    }

    /// Keeps `template` with the first trace of the entry in `slot`.
    pub(crate) fn set_template(&mut self, slot: usize, template: Template) {
        if let Some(Entry::Replay { traces, .. }) = self.entries.get_mut(slot) {
            if let Some(k) = traces.first_mut() {
                self.kept_reads = self.kept_reads.saturating_sub(k.weight());
                k.template = Some(Box::new(template));
                self.kept_reads += k.weight();
            }
        }
    }

    /// The effects of the entry in `slot` (as [`MoveMemo::check`] found it holding).
    pub(crate) fn events(&self, slot: usize) -> &[Event] {
        match self.entries.get(slot) {
            Some(Entry::Replay { traces, .. }) => traces
                .first()
                .and_then(|k| self.lists.get(k.events as usize))
                .map_or(&[], |l| l),
            _ => &[],
        }
    }

    /// Keeps the trace of the traced run of `word` in `slot` that just ended without an
    /// error, its reads of the `cursor` the generator set before it left out.
    pub(crate) fn store(
        &mut self,
        vm: &mut Vm,
        table: &Table,
        slot: Option<usize>,
        word: u32,
        cursor: &Cursor,
    ) {
        let Some((slot, _)) = entry_in(&mut self.entries, self.era, table, slot) else {
            return;
        };
        self.store_trace(vm, slot, word, cursor);
        self.relate(table, slot);
    }

    /// [`MoveMemo::store`] in `slot` (an entry of the current era).
    fn store_trace(&mut self, vm: &mut Vm, slot: usize, word: u32, cursor: &Cursor) {
        let Some(entry) = self.entries.get_mut(slot) else {
            return;
        };
        // Not clean until its reads are next found to hold (the run may have written
        // cells it read before the VM watched them).
        self.fast[slot] = Fast::default();
        put_bit(&mut self.clean, slot, false);
        let t = vm.trace();
        let opaque = Entry::Opaque {
            word,
            skip: OPAQUE_SKIP,
        };
        // A run that wrote code it had run cannot vouch for the code as it is now.
        if t.tainted.is_some() || vm.code_epoch() != self.epoch {
            self.kept_reads = self.kept_reads.saturating_sub(reads_kept(entry));
            *entry = opaque;
            return;
        }
        let mut reads = Vec::with_capacity(t.reads.len());
        // Bit `addr % 64` of each read kept: a read whose bit is clear is not a repeat.
        let mut kept_bits = 0u64;
        for r in &t.reads {
            let end = r.addr.saturating_add(r.width as u32);
            let b = 1u64 << (r.addr % 64);
            match cursor.iter().find(|&&(a, _)| r.addr < a + 4 && a < end) {
                // A cell read again gave the same value (a run's reads of a cell it wrote,
                // or a host word wrote, are not noted): it is kept once.
                None if kept_bits & b != 0
                    && reads
                        .iter()
                        .any(|q: &Read| q.addr == r.addr && q.width == r.width) => {}
                None => {
                    kept_bits |= b;
                    reads.push(*r)
                }
                Some(&(a, v)) if r.addr == a && r.width == 4 && r.value == v => {}
                // A part of a cursor cell, or another value: not what the key says.
                Some(_) => {
                    self.kept_reads = self.kept_reads.saturating_sub(reads_kept(entry));
                    *entry = opaque;
                    return;
                }
            }
        }
        let events = match t.events.as_slice() {
            [] => 0,
            e => match self.list_index.get(e) {
                Some(&id) => id,
                None => {
                    if self.lists.is_empty() {
                        self.lists.push(Box::new([]));
                    }
                    let id = self.lists.len() as u32;
                    self.lists.push(e.into());
                    self.list_index.insert(e.into(), id);
                    id
                }
            },
        };
        let small = reads.len() <= INLINE && reads.iter().all(|r| self.compared.contains(&r.addr));
        let mut kept = Kept {
            sig: 0,
            reads: reads.into(),
            events,
            steps: t.steps,
            template: None,
            small,
        };
        self.fast[slot] = Fast::of(word, &kept);
        // A small trace's reads are compared, not watched, while it is the first; when
        // another trace comes first, the entry is checked by comparing the reads of each.
        let watched: &[Read] = if kept.small { &[] } else { &kept.reads };
        for r in watched {
            vm.watch_data(r.addr, r.width as u32);
            let last = r.addr.saturating_add(r.width as u32 - 1) / CELL;
            for c in r.addr / CELL..=last {
                if link(&mut self.linked[slot], c) {
                    add_reader(self.readers.entry(c).or_default(), slot);
                    self.links += 1;
                }
            }
        }
        self.kept_reads += kept.reads.len();
        match &mut self.entries[slot] {
            Entry::Replay {
                word: w,
                traces,
                probe,
                ..
            } if *w == word => {
                // The probe keeps the cells the new trace reads too (the others' hashes
                // are made again over fewer cells, when it loses some).
                let before = probe.len();
                probe.retain(|&(a, w)| kept.reads.iter().any(|r| r.addr == a && r.width == w));
                if probe.len() != before {
                    for k in traces.iter_mut() {
                        k.sig = sig_of(probe, &k.reads);
                    }
                }
                kept.sig = sig_of(probe, &kept.reads);
                let bound = match self.reads_bound {
                    0 => KEPT_READS,
                    b => b,
                };
                let room = if self.kept_reads > bound {
                    FEW_TRACES
                } else {
                    MAX_TRACES
                };
                while traces.len() >= room {
                    if let Some(old) = traces.pop() {
                        self.kept_reads = self.kept_reads.saturating_sub(old.weight());
                    }
                }
                traces.insert(0, kept);
            }
            e => {
                self.kept_reads = self.kept_reads.saturating_sub(reads_kept(e));
                let probe: Vec<(u32, u8)> = kept
                    .reads
                    .iter()
                    .take(PROBES)
                    .map(|r| (r.addr, r.width))
                    .collect();
                kept.sig = sig_of(&probe, &kept.reads);
                *e = Entry::Replay {
                    word,
                    traces: vec![kept],
                    probe,
                    hits: 0,
                    misses: 0,
                }
            }
        }
        if self.links > self.link_limit.max(FIRST_LINK_LIMIT) {
            self.rebuild_readers();
        }
    }

    /// Lists again the readers of each cell from the entries' traces (dropping the slots
    /// traced again since), and sets the count of the next rebuild.
    fn rebuild_readers(&mut self) {
        self.readers.clear();
        self.links = 0;
        for (slot, e) in self.entries.iter().enumerate() {
            let linked = &mut self.linked[slot];
            linked.clear();
            if let Entry::Replay { traces, .. } = e {
                for r in traces.iter().flat_map(|k| k.reads.iter()) {
                    let last = r.addr.saturating_add(r.width as u32 - 1) / CELL;
                    for c in r.addr / CELL..=last {
                        if link(linked, c) {
                            add_reader(self.readers.entry(c).or_default(), slot);
                            self.links += 1;
                        }
                    }
                }
            }
        }
        self.link_limit = 2 * self.links + FIRST_LINK_LIMIT;
    }

    /// Leaves `cursor` to be written later: a replayed word that does nothing is done
    /// without it, and the next word's check does not read it.
    #[inline]
    pub(crate) fn defer_cursor(&mut self, cursor: Cursor) {
        self.deferred = Some(cursor);
    }

    /// Writes `cursor` now (and forgets the deferred one).
    #[inline]
    pub(crate) fn put_cursor(&mut self, vm: &mut Vm, cursor: &Cursor) -> FResult<()> {
        self.deferred = None;
        for &(a, v) in cursor {
            vm.set_cell(a, v)?;
        }
        Ok(())
    }

    /// Writes the deferred cursor, if any (at the end of a scan).
    pub(crate) fn flush_cursor(&mut self, vm: &mut Vm) -> FResult<()> {
        match self.deferred.take() {
            Some(c) => self.put_cursor(vm, &c),
            None => Ok(()),
        }
    }
}

/// Aligns `HERE` (what opening a move's record and dropping it leaves).
fn align_here(vm: &mut Vm) -> FResult<()> {
    let h = vm.here();
    if h % CELL != 0 {
        vm.set_here(h.div_ceil(CELL) * CELL)?;
    }
    Ok(())
}

/// Applies `events` (the effects of an entry [`MoveMemo::check`] found holding), in
/// order: its writes, and its host words called again with their arguments.
pub(crate) fn apply_effects(events: &[Event], vm: &mut Vm, host: &mut dyn Host) -> FResult<()> {
    for e in events {
        match *e {
            Event::Write { addr, value } => vm.set_cell(addr, value)?,
            Event::Native { id, args, n } => {
                let depth = vm.stack().len();
                for &a in &args[..n as usize] {
                    vm.push(a)?;
                }
                // The trace's steps, counted by the caller, include the bulk work the host
                // word charged when it ran: it is not charged again.
                let budget = vm.budget_state();
                vm.set_budget_state((budget.0, u64::MAX), 0)?;
                let r = host.native(vm, id);
                vm.set_budget_state(budget, 0)?;
                r?;
                vm.ds_truncate(depth);
            }
        }
    }
    Ok(())
}

/// The entry in `slot` of `table` among `entries` of era `era` (with its index), unless
/// the table is older than the entries (or has none).
fn entry_in<'a>(
    entries: &'a mut [Entry],
    era: u32,
    table: &Table,
    slot: Option<usize>,
) -> Option<(usize, &'a mut Entry)> {
    let s = slot.filter(|_| table.era == era)?;
    Some((s, entries.get_mut(s)?))
}

/// The value a read of `width` bytes at `addr` gives now (one that no read gives, out of
/// memory), as [`reads_hold`] compares it.
#[inline]
fn read_now(vm: &Vm, addr: u32, width: u8) -> i64 {
    let v = match width {
        4 => vm.cell(addr).ok(),
        _ => vm.byte(addr).ok().map(i32::from),
    };
    v.map_or(i64::MIN, i64::from)
}

/// A hash of `values` (the values at an entry's probe cells, in order).
#[inline]
fn signature(values: impl Iterator<Item = i64>) -> u64 {
    values.fold(0u64, |h, v| {
        (h.rotate_left(5) ^ v as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
    })
}

/// The [`signature`] of the values `reads` read at the cells of `probe` (each of which
/// they read).
fn sig_of(probe: &[(u32, u8)], reads: &[Read]) -> u64 {
    signature(probe.iter().map(|&(a, w)| {
        reads
            .iter()
            .find(|r| r.addr == a && r.width == w)
            .map_or(i64::MIN, |r| i64::from(r.value))
    }))
}

/// The reads kept in the traces of entry `e` (see [`MoveMemo::kept_reads`]).
fn reads_kept(e: &Entry) -> usize {
    match e {
        Entry::Replay { traces, .. } => reads_of(traces),
        _ => 0,
    }
}

/// The reads `traces` keep.
fn reads_of(traces: &[Kept]) -> usize {
    traces.iter().map(Kept::weight).sum()
}

/// Bit `i` of `bits` (false past the end).
#[inline(always)]
fn bit(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
}

/// The 64 bits of `bits` from bit `i` on (zeros past the end).
#[inline(always)]
fn bits_from(bits: &[u64], i: usize) -> u64 {
    let (w, o) = (i / 64, i % 64);
    let low = bits.get(w).map_or(0, |&b| b >> o);
    match (o, bits.get(w + 1)) {
        (1.., Some(&high)) => low | high << (64 - o),
        _ => low,
    }
}

/// Adds `slot` to the readers of a cell ([`MoveMemo::readers`]): its bit in the mask of its
/// word of [`MoveMemo::clean`].
fn add_reader(readers: &mut Vec<(u32, u64)>, slot: usize) {
    let (w, b) = ((slot / 64) as u32, 1u64 << (slot % 64));
    match readers.iter_mut().rev().find(|(x, _)| *x == w) {
        Some((_, mask)) => *mask |= b,
        None => readers.push((w, b)),
    }
}

/// Adds cell `c` to the sorted `linked` cells of a slot; false when it is there already.
#[inline]
fn link(linked: &mut Vec<u32>, c: u32) -> bool {
    match linked.binary_search(&c) {
        Ok(_) => false,
        Err(i) => {
            linked.insert(i, c);
            true
        }
    }
}

/// Sets bit `i` of `bits` to `on` (nothing past the end).
#[inline(always)]
fn put_bit(bits: &mut [u64], i: usize, on: bool) {
    if let Some(w) = bits.get_mut(i / 64) {
        let b = 1u64 << (i % 64);
        if on {
            *w |= b;
        } else {
            *w &= !b;
        }
    }
}

/// Whether every read of a trace gives the same value now.
#[inline]
pub(crate) fn reads_hold(vm: &Vm, reads: &[Read]) -> bool {
    reads.iter().all(|r| match r.width {
        4 => vm.cell(r.addr).ok() == Some(r.value),
        _ => vm.byte(r.addr).ok().map(i32::from) == Some(r.value),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forth::Limits;

    /// A table taken before the cache dropped its entries finds none, and a new table of
    /// the same block starts empty: no word replays an entry made for another key.
    #[test]
    fn a_table_older_than_the_entries_finds_nothing() {
        let mut vm = Vm::new(Limits::default());
        let mut memo = MoveMemo::default();
        memo.begin_scan(&mut vm);
        let old = memo.table(100, 1, 2, 10);
        let slot = old.slot(1, 9);
        assert_eq!(slot, Some(old.start + 19));
        assert!(old.slot(2, 0).is_none() && old.slot(0, 10).is_none() && old.slot(0, -1).is_none());
        // First run untraced, second traced.
        assert!(matches!(
            memo.check(&mut vm, &old, slot, 7),
            Outcome::Run { traced: false }
        ));
        assert!(matches!(
            memo.check(&mut vm, &old, slot, 7),
            Outcome::Run { traced: true }
        ));
        // Another word in the same slot (the block was rewritten) starts again.
        assert!(matches!(
            memo.check(&mut vm, &old, slot, 8),
            Outcome::Run { traced: false }
        ));
        // Another stack under the words: every entry dropped, the old table is stale.
        vm.push(5).unwrap();
        memo.begin_scan(&mut vm);
        assert!(matches!(
            memo.check(&mut vm, &old, slot, 8),
            Outcome::Run { traced: false }
        ));
        assert!(memo.entries.is_empty());
        let new = memo.table(100, 1, 2, 10);
        assert!(matches!(
            memo.check(&mut vm, &new, new.slot(1, 9), 8),
            Outcome::Run { traced: false }
        ));
        assert!(matches!(
            memo.check(&mut vm, &new, new.slot(1, 9), 8),
            Outcome::Run { traced: true }
        ));
        // A block too big for the cache gets no entries.
        let big = memo.table(200, 1, 1024, 1 << 16);
        assert!(big.slot(0, 0).is_none());
    }

    /// The walk's count of positions to take in one step, read 64 slots at a time, is the
    /// count found position by position, word by word, for any word count, words, watched
    /// words, start and bound (runs crossing several 64-bit words included).
    #[test]
    fn same_rows_counts_as_position_by_position() {
        let mut rng = crate::rng::Rng::new(11);
        for count in 1..=SWEEP_WORDS as u32 {
            let mut memo = MoveMemo::default();
            let _ = memo.table(1, 1, 3, 7);
            let table = memo.table(2, 1, count, 150);
            let n = table.start + (count * 150) as usize;
            for round in 0..40 {
                // Mostly set bits, so that runs are long; a few rounds all set.
                for i in 0..n {
                    let dense = round % 8 == 0 || rng.below(40) != 0;
                    put_bit(&mut memo.same_next, i, dense);
                    put_bit(&mut memo.clean, i, round % 8 == 0 || rng.below(30) != 0);
                }
                for _ in 0..20 {
                    let p = rng.below(150) as u32;
                    let words = rng.below(256) as u8;
                    let watched = rng.below(256) as u8;
                    // (As the walk bounds it: the positions before the table's last.)
                    let max = rng.below(150 - p as usize) as u64;
                    let slow = (p..p + max as u32)
                        .take_while(|&q| {
                            let first = table.start + (q * count) as usize;
                            (0..count as usize)
                                .filter(|k| words & (1 << k) != 0)
                                .all(|k| {
                                    bit(&memo.same_next, first + k)
                                        && (watched & (1 << k) == 0
                                            || bit(&memo.clean, first + k + count as usize))
                                })
                        })
                        .count() as u64;
                    assert_eq!(
                        memo.same_rows(&table, p, words, watched, max),
                        slow,
                        "count {count} p {p} words {words:#x} watched {watched:#x} max {max}"
                    );
                }
            }
        }
    }

    /// One slot of a one-word table, for word `w` defined by `src` (which reads `a`): the
    /// VM, the word, the cell `a` and the cache.
    struct OneSlot {
        vm: Vm,
        xt: u32,
        a: u32,
        table: Table,
        slot: Option<usize>,
    }

    impl OneSlot {
        fn new(src: &str, memo: &mut MoveMemo) -> OneSlot {
            use crate::forth::NoHost;
            let mut vm = Vm::with_prelude(Limits::default()).unwrap();
            vm.interpret_str("t.4th", src, &mut NoHost).unwrap();
            let xt = vm.find(b"w").unwrap() + 12;
            let a = vm.find(b"a").unwrap() + 16;
            memo.begin_scan(&mut vm);
            let table = memo.table(1, 1, 1, 1);
            let slot = table.slot(0, 0);
            OneSlot {
                vm,
                xt,
                a,
                table,
                slot,
            }
        }

        /// Runs `w` with `a` holding `v` as the generator does: 0 replayed, 1 traced, 2 run
        /// untraced.
        fn run(&mut self, memo: &mut MoveMemo, v: i32) -> u8 {
            use crate::forth::NoHost;
            let (vm, xt) = (&mut self.vm, self.xt);
            vm.set_cell(self.a, v).unwrap();
            memo.sync(vm);
            vm.set_step_budget(1 << 20);
            match memo.check(vm, &self.table, self.slot, xt) {
                Outcome::Replay { .. } => 0,
                Outcome::Run { traced: true } => {
                    let area = vm.here() + 64;
                    vm.execute_traced(xt, &mut NoHost, area).unwrap();
                    memo.store(vm, &self.table, self.slot, xt, &[(0, 0); 4]);
                    1
                }
                Outcome::Run { traced: false } => {
                    vm.execute(xt, &mut NoHost).unwrap();
                    2
                }
            }
        }
    }

    /// A slot keeps a trace for each path its word takes, up to [`MAX_TRACES`], while the
    /// cache keeps fewer reads than its bound; past the bound, a slot traced again keeps
    /// [`FEW_TRACES`]. The count of kept reads is the sum over the entries throughout. A
    /// trace further down is found through the cells every trace reads ([`signature`]),
    /// also when a path that reads fewer of them leaves fewer.
    #[test]
    fn a_slot_keeps_many_traces_within_the_bound_on_reads() {
        // (With `a` negative, `w` reads nothing else.)
        let src = "VARIABLE a VARIABLE b VARIABLE c : w a @ 0< IF ELSE b @ c @ + DROP THEN ;";
        let mut memo = MoveMemo::default();
        let mut one = OneSlot::new(src, &mut memo);
        let a = one.a;
        let traces = |memo: &MoveMemo| match &memo.entries[0] {
            Entry::Replay { traces, .. } => traces.len(),
            _ => 0,
        };
        let sum = |memo: &MoveMemo| memo.entries.iter().map(reads_kept).sum::<usize>();
        // Whether `w` with `a` holding `v` was replayed.
        let mut use_word = |memo: &mut MoveMemo, v: i32| one.run(memo, v) == 0;
        // 36 paths more than a slot keeps; `last` the newest.
        let last = MAX_TRACES as i32 + 35;
        for v in 0..=last {
            // (Its first run is untraced.)
            while !use_word(&mut memo, v) {}
            assert_eq!(memo.kept_reads, sum(&memo));
        }
        assert_eq!(traces(&memo), MAX_TRACES);
        assert_eq!(memo.kept_reads, 3 * MAX_TRACES);
        // The last MAX_TRACES paths replay; an older one runs again.
        assert!(use_word(&mut memo, last - MAX_TRACES as i32 + 1));
        assert!(!use_word(&mut memo, 0));
        // Past the bound (which the slot's few traces pass still), the slot keeps fewer.
        memo.reads_bound = 3 * FEW_TRACES - 1;
        let new = last + 100;
        for v in new..new + 3 {
            while !use_word(&mut memo, v) {}
            assert_eq!(memo.kept_reads, sum(&memo));
        }
        assert_eq!(traces(&memo), FEW_TRACES);
        // (The most recent first: new + 2, new + 1, new, 0, 36, last, last - 1, last - 2.)
        assert!(use_word(&mut memo, last - 1) && !use_word(&mut memo, last - 9));
        // A path that reads fewer cells: the traces are found by the cells all read.
        while !use_word(&mut memo, -1) {}
        match &memo.entries[0] {
            Entry::Replay { probe, .. } => assert_eq!(probe, &[(a, 4)]),
            _ => panic!("a replay entry"),
        }
        assert!(use_word(&mut memo, new + 2) && use_word(&mut memo, 0));
    }

    /// A slot whose reads change at every run (a counter) stops being traced once its
    /// traces missed [`MISS_GRACE`] times, for [`OPAQUE_SKIP`] runs; one whose paths
    /// recur keeps being replayed.
    #[test]
    fn a_slot_whose_reads_keep_changing_is_not_traced_for_a_while() {
        let mut memo = MoveMemo::default();
        let mut one = OneSlot::new("VARIABLE a : w a @ DROP ;", &mut memo);
        let mut use_word = |v: i32| one.run(&mut memo, v);
        let runs: Vec<u8> = (0..200).map(&mut use_word).collect();
        // The first run untraced, then traced until the misses pass the grace (the
        // first traced run makes the first trace), then untraced: at the check that
        // finds it so, and for the skip.
        let (grace, skipped) = (MISS_GRACE as usize, OPAQUE_SKIP as usize);
        assert_eq!(runs[0], 2);
        let traced = runs[1..].iter().take_while(|&&r| r == 1).count();
        assert_eq!(traced, grace + 1, "{runs:?}");
        let untraced = runs[1 + traced..].iter().take_while(|&&r| r == 2).count();
        assert_eq!(untraced, skipped + 1, "{runs:?}");
        // Paths that recur: replayed from their traces.
        let runs: Vec<u8> = (0..200).map(|v| use_word(1000 + v % 8)).collect();
        assert!(runs[100..].iter().all(|&r| r == 0), "{runs:?}");
    }
}
