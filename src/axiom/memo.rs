//! The move-word cache. Move generation runs every move word of every friendly piece at
//! its position and every drop word at every position: Ur's dice turns run 340 words a
//! ply, and most of them read the same few cells as at the last ply and fail or add the
//! same move. The cache keeps, for each (block, piece, word, position), the trace of its
//! last run ([`crate::forth::trace`]): the cells it read with their values, and its
//! effects (cell writes and calls of replayable host words such as `add-move`). When every
//! cell reads as before, the effects are applied instead of running the word, and the
//! steps the run took are counted as if it had run.
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

use crate::forth::trace::{Event, Read};
use crate::forth::{FResult, Host, Vm};
use crate::fxhash::FxBuild;
use std::collections::HashMap;

/// Entries kept before the cache starts again (a bound on memory for big boards).
const MAX_ENTRIES: usize = 1 << 16;

/// Runs a word whose trace was tainted skips tracing for, before it is traced again.
const OPAQUE_SKIP: u16 = 32;

/// What the cache knows of one (block, piece, word, position). `word`: the word's
/// execution token, checked at each use (a block rewritten in place gets new entries).
#[derive(Default)]
enum Entry {
    /// Nothing yet.
    #[default]
    Empty,
    /// A replayable trace.
    Replay {
        word: u32,
        reads: Box<[Read]>,
        events: Box<[Event]>,
        steps: u64,
        /// Times the reads matched and did not since the trace was taken.
        hits: u32,
        misses: u32,
    },
    /// The word ran once, untraced: it is traced at its next run.
    Seen { word: u32 },
    /// The last trace was tainted: run untraced `skip` more times.
    Opaque { word: u32, skip: u16 },
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
    /// Replayed words whose move a better priority already dominated (their lasting
    /// effects only: `Runtime::replay_dominated` in `natives.rs`).
    pub dominated: u64,
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
    /// Off: every word runs (`DAGAZ_AXIOM_MEMO=0`, and the tests that compare).
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
    /// A cursor the generator has not written yet ([`MoveMemo::defer_cursor`]).
    deferred: Option<Cursor>,
    pub stats: MemoStats,
}

/// A copy of a game state starts with an empty cache (entries are a speed-up only, and
/// searches copy states often).
impl Clone for MoveMemo {
    fn clone(&self) -> Self {
        MoveMemo {
            off: self.off,
            ..MoveMemo::default()
        }
    }
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
    /// The entry of word `k` of the block at `pos`, if the table has one.
    #[inline]
    pub(crate) fn slot(&self, k: u32, pos: i32) -> Option<usize> {
        let p = u32::try_from(pos).ok().filter(|&p| p < self.n_pos)?;
        (k < self.count).then(|| self.start + (k * self.n_pos + p) as usize)
    }
}

impl MoveMemo {
    /// Starts a scan over the data stack `below` the cushion.
    pub(crate) fn begin_scan(&mut self, below: &[i32]) {
        if self.context != below {
            self.drop_entries();
            self.context.clear();
            self.context.extend_from_slice(below);
        }
    }

    /// Forgets every entry (and table): older [`Table`]s find nothing.
    fn drop_entries(&mut self) {
        self.entries.clear();
        self.tables.clear();
        self.era = self.era.wrapping_add(1);
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
        match entry {
            Entry::Replay {
                word: w,
                reads,
                events,
                steps,
                hits,
                misses,
            } if *w == word => {
                if reads_hold(vm, reads) && vm.add_steps(*steps) {
                    *hits += 1;
                    self.stats.replayed += 1;
                    return Outcome::Replay {
                        slot,
                        effects: !events.is_empty(),
                    };
                }
                *misses += 1;
                // A word whose reads keep changing is not worth tracing every time.
                if *misses > 8 && *misses > 4 * *hits {
                    *entry = Entry::Opaque {
                        word,
                        skip: OPAQUE_SKIP,
                    };
                    self.stats.untraced += 1;
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
                *entry = Entry::Seen { word };
                self.stats.untraced += 1;
                return Outcome::Run { traced: false };
            }
        }
        self.stats.traced += 1;
        Outcome::Run { traced: true }
    }

    /// The effects of the entry in `slot` (as [`MoveMemo::check`] found it holding).
    pub(crate) fn events(&self, slot: usize) -> &[Event] {
        match self.entries.get(slot) {
            Some(Entry::Replay { events, .. }) => events,
            _ => &[],
        }
    }

    /// Keeps the trace of the traced run of `word` in `slot` that just ended without an
    /// error, its reads of the `cursor` the generator set before it left out.
    pub(crate) fn store(
        &mut self,
        vm: &Vm,
        table: &Table,
        slot: Option<usize>,
        word: u32,
        cursor: &Cursor,
    ) {
        let Some((_, entry)) = entry_in(&mut self.entries, self.era, table, slot) else {
            return;
        };
        let t = vm.trace();
        let opaque = Entry::Opaque {
            word,
            skip: OPAQUE_SKIP,
        };
        // A run that wrote code it had run cannot vouch for the code as it is now.
        if t.tainted.is_some() || vm.code_epoch() != self.epoch {
            *entry = opaque;
            return;
        }
        let mut reads = Vec::with_capacity(t.reads.len());
        for r in &t.reads {
            let end = r.addr.saturating_add(r.width as u32);
            match cursor.iter().find(|&&(a, _)| r.addr < a + 4 && a < end) {
                None => reads.push(*r),
                Some(&(a, v)) if r.addr == a && r.width == 4 && r.value == v => {}
                // A part of a cursor cell, or another value: not what the key says.
                Some(_) => {
                    *entry = opaque;
                    return;
                }
            }
        }
        *entry = Entry::Replay {
            word,
            reads: reads.into(),
            events: t.events.as_slice().into(),
            steps: t.steps,
            hits: 0,
            misses: 0,
        };
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
                host.native(vm, id)?;
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

/// Whether every read of a trace gives the same value now.
#[inline]
fn reads_hold(vm: &Vm, reads: &[Read]) -> bool {
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
        memo.begin_scan(&[]);
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
        memo.begin_scan(&[5]);
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
}
