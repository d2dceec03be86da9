//! The move-word cache. Move generation runs every move word of every friendly piece at
//! its position and every drop word at every position: Ur's dice turns run 340 words a
//! ply, and most of them read the same few cells as at the last ply and fail or add the
//! same move. The cache keeps, for each (word, position, piece), the trace of its last
//! run ([`crate::forth::trace`]): the cells it read with their values, and its effects
//! (cell writes and calls of replayable host words such as `add-move`). When every cell
//! reads as before, the effects are applied instead of running the word, and the steps
//! the run took are counted as if it had run.
//!
//! Exactness: the word would take the same path (it would read the same values), so the
//! effects are the ones running it would have; the host words are called again on the
//! live state, as running it would call them. What a trace cannot vouch for taints it
//! (see the trace module), and a tainted word runs as before. The data stack under the
//! move words' cushion is part of what they may read: when it differs from the one the
//! entries were made over, the cache starts again. A game's results do not depend on the
//! cache (tested by playing with and without it).

use crate::forth::trace::{Event, Read};
use crate::forth::{FResult, Host, Vm};
use crate::fxhash::FxBuild;
use std::collections::HashMap;

/// Entries kept before the cache starts again (a bound on memory for big boards).
const MAX_ENTRIES: usize = 1 << 16;

/// Runs a word whose trace was tainted skips tracing for, before it is traced again.
const OPAQUE_SKIP: u16 = 32;

/// What the cache knows of one (word, position, piece).
enum Entry {
    /// A replayable trace.
    Replay {
        reads: Box<[Read]>,
        events: Box<[Event]>,
        steps: u64,
        /// Times the reads matched and did not since the trace was taken.
        hits: u32,
        misses: u32,
    },
    /// The word ran once, untraced: it is traced at its next run.
    Seen,
    /// The last trace was tainted: run untraced `skip` more times.
    Opaque { skip: u16 },
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
    entries: HashMap<(u32, i32, i32), Entry, FxBuild>,
    /// The effects of the entry [`MoveMemo::check`] found holding, for
    /// [`MoveMemo::apply_effects`].
    effects: Vec<Event>,
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
    /// The entry holds: its steps are counted; `effects`: it has effects, to be applied
    /// with [`MoveMemo::apply_effects`] (a word without any is done).
    Replay { effects: bool },
    /// The word must run; `traced`: with a trace, to be given to [`MoveMemo::store`].
    Run { traced: bool },
}

impl MoveMemo {
    /// Starts a scan over the data stack `below` the cushion.
    pub(crate) fn begin_scan(&mut self, below: &[i32]) {
        if self.context != below {
            self.entries.clear();
            self.context.clear();
            self.context.extend_from_slice(below);
        }
    }

    /// Whether the entry of `word` at `pos` for `piece` still holds (its steps are then
    /// counted); else how to run the word. Checked before the move's record is opened:
    /// traces never read what opening it changes (the dictionary pointer and the memory
    /// above it).
    pub(crate) fn check(&mut self, vm: &mut Vm, key: (u32, i32, i32)) -> Outcome {
        if self.off {
            self.stats.untraced += 1;
            return Outcome::Run { traced: false };
        }
        if vm.code_epoch() != self.epoch {
            self.entries.clear();
            self.epoch = vm.code_epoch();
        }
        match self.entries.get_mut(&key) {
            None => {
                // Traced from its second run on: a word run once is not worth the trace.
                self.entries.insert(key, Entry::Seen);
                self.stats.untraced += 1;
                return Outcome::Run { traced: false };
            }
            Some(Entry::Opaque { skip }) if *skip > 0 => {
                *skip -= 1;
                self.stats.untraced += 1;
                return Outcome::Run { traced: false };
            }
            Some(Entry::Opaque { .. } | Entry::Seen) => {}
            Some(Entry::Replay {
                reads,
                events,
                steps,
                hits,
                misses,
            }) => {
                if reads_hold(vm, reads) && vm.add_steps(*steps) {
                    *hits += 1;
                    self.stats.replayed += 1;
                    self.effects.clear();
                    self.effects.extend_from_slice(events);
                    return Outcome::Replay {
                        effects: !events.is_empty(),
                    };
                }
                *misses += 1;
                // A word whose reads keep changing is not worth tracing every time.
                if *misses > 8 && *misses > 4 * *hits {
                    self.entries
                        .insert(key, Entry::Opaque { skip: OPAQUE_SKIP });
                    self.stats.untraced += 1;
                    return Outcome::Run { traced: false };
                }
            }
        }
        self.stats.traced += 1;
        Outcome::Run { traced: true }
    }

    /// Applies the effects of the entry [`MoveMemo::check`] last found holding, in order:
    /// its writes, and its host words called again with their arguments.
    pub(crate) fn apply_effects(&self, vm: &mut Vm, host: &mut dyn Host) -> FResult<()> {
        for e in &self.effects {
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

    /// The effects of the entry [`MoveMemo::check`] last found holding.
    pub(crate) fn effects(&self) -> &[Event] {
        &self.effects
    }

    /// Keeps the trace of the traced run of `key` that just ended without an error.
    pub(crate) fn store(&mut self, vm: &Vm, key: (u32, i32, i32)) {
        if self.entries.len() >= MAX_ENTRIES {
            self.entries.clear();
        }
        let t = vm.trace();
        // A run that wrote code it had run cannot vouch for the code as it is now.
        let entry = if t.tainted.is_none() && vm.code_epoch() == self.epoch {
            Entry::Replay {
                reads: t.reads.as_slice().into(),
                events: t.events.as_slice().into(),
                steps: t.steps,
                hits: 0,
                misses: 0,
            }
        } else {
            Entry::Opaque { skip: OPAQUE_SKIP }
        };
        self.entries.insert(key, entry);
    }
}

/// Whether every read of a trace gives the same value now.
fn reads_hold(vm: &Vm, reads: &[Read]) -> bool {
    reads.iter().all(|r| match r.width {
        4 => vm.cell(r.addr).ok() == Some(r.value),
        _ => vm.byte(r.addr).ok().map(i32::from) == Some(r.value),
    })
}
