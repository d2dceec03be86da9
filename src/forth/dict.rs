//! A hash index of the dictionary, so that finding a word does not walk every header.
//!
//! Forth finds a word by walking the vocabulary's chain of headers from the latest one:
//! loading `axiom.4th` and a game looks up every token that way, through some 1,500
//! headers, and that walk was most of the time a program took to load. The index maps each
//! name, folded to lower case, to the headers of that name in chain order, and answers
//! exactly as the walk does (`DictIndex::lookup`): the latest visible word spelled
//! exactly so, else the latest visible one that matches ignoring case.
//!
//! # Why the answer is the walk's
//! The index describes one chain (the vocabulary `CONTEXT` names) at one *dictionary
//! epoch*. The VM watches the cells the chain is made of: `CONTEXT`, the vocabulary's head
//! cell, each header's name pointer and link, and the bytes of each name. A write to any of
//! them changes the epoch ([`super::vm::Vm`]'s write watch, the one that guards traced
//! code), and an index of another epoch is not used: lookups walk until it is rebuilt. The
//! flags cell is not watched (`SMUDGE` and `IMMEDIATE` write it at every definition): the
//! index reads it at each lookup, as the walk does. A chain the walk would stop on (a cell
//! outside memory, a name without its end) or that never ends is not indexed: it is walked.
//! The VM adds the header it creates to a valid index (`DictIndex::add`) rather than
//! rebuilding it.

use crate::fxhash::FxBuild;
use std::collections::HashMap;

/// Headers the walk visits at most (a guard against a cycle in the chain).
pub(crate) const MAX_CHAIN: usize = 1_000_000;

/// Brent's cycle detection for a walk of the chain of headers: fed each header the walk
/// visits, it says when the walk came back to one it saw, within about twice the length
/// of the chain's tail and loop. A chain that loops (a link overwritten to point back)
/// would make every lookup walk up to [`MAX_CHAIN`] headers; this stops it at once, at a
/// compare per header.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CycleGuard {
    saved: u32,
    power: u32,
    since: u32,
}

impl CycleGuard {
    pub fn new() -> Self {
        // (0 ends every walk: it is never a header visited.)
        CycleGuard {
            saved: 0,
            power: 1,
            since: 0,
        }
    }

    /// Whether `nfa`, the next header of the walk, is one it visited before.
    #[inline]
    pub fn looped(&mut self, nfa: u32) -> bool {
        if nfa == self.saved {
            return true;
        }
        self.since += 1;
        if self.since == self.power {
            self.saved = nfa;
            self.power = self.power.saturating_mul(2);
            self.since = 0;
        }
        false
    }
}

/// Lookups that walk a stale index's chain before it is rebuilt (a rebuild costs about
/// three walks, so a dictionary that keeps changing is not rebuilt at every lookup).
pub(crate) const WALKS_BEFORE_REBUILD: u32 = 4;

/// The index of one vocabulary at one dictionary epoch (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct DictIndex {
    /// The dictionary epoch it describes (`u64::MAX`: none yet).
    pub epoch: u64,
    /// The vocabulary (the address of its head cell) it describes.
    pub voc: u32,
    /// False: the chain could not be indexed at this epoch, and lookups walk it.
    pub usable: bool,
    /// Lookups since the index was last built.
    pub walks: u32,
    /// Lower-cased name → NFAs of the headers so named, oldest first.
    words: HashMap<Box<[u8]>, Vec<u32>, FxBuild>,
}

impl Default for DictIndex {
    fn default() -> Self {
        DictIndex {
            epoch: u64::MAX,
            voc: 0,
            usable: false,
            walks: 0,
            words: HashMap::default(),
        }
    }
}

impl DictIndex {
    /// Whether the index answers for vocabulary `voc` at dictionary epoch `epoch`.
    #[inline]
    pub fn answers(&self, epoch: u64, voc: u32) -> bool {
        self.usable && self.epoch == epoch && self.voc == voc
    }

    /// Rebuilds the index from `chain` (latest first) and its names, for `voc` at `epoch`;
    /// `chain` None: the chain cannot be indexed.
    pub fn rebuild<'a>(
        &mut self,
        epoch: u64,
        voc: u32,
        chain: Option<impl DoubleEndedIterator<Item = (u32, &'a [u8])>>,
    ) {
        self.words.clear();
        self.epoch = epoch;
        self.voc = voc;
        self.walks = 0;
        self.usable = chain.is_some();
        for (nfa, name) in chain.into_iter().flatten().rev() {
            self.add(nfa, name);
        }
    }

    /// Adds the header at `nfa` named `name`, now the latest of the chain.
    pub fn add(&mut self, nfa: u32, name: &[u8]) {
        let key = name.to_ascii_lowercase().into_boxed_slice();
        self.words.entry(key).or_default().push(nfa);
    }

    /// The headers that may be named `name` ignoring case, latest first.
    fn candidates(&self, name: &[u8]) -> impl Iterator<Item = u32> + '_ {
        let mut buf = [0u8; 64];
        let list = if name.len() <= buf.len() {
            let key = &mut buf[..name.len()];
            key.copy_from_slice(name);
            key.make_ascii_lowercase();
            self.words.get(&*key)
        } else {
            self.words.get(&*name.to_ascii_lowercase())
        };
        list.into_iter().flat_map(|l| l.iter().rev().copied())
    }

    /// The lookup (see the module documentation): among the candidates, latest first, the
    /// first visible one spelled exactly `name`, else (with `fold`) the first visible one.
    /// `visible_name` gives a candidate's name when it is not hidden.
    pub fn lookup<'m>(
        &self,
        name: &[u8],
        fold: bool,
        visible_name: impl Fn(u32) -> Option<&'m [u8]>,
    ) -> Option<u32> {
        let mut folded = None;
        for nfa in self.candidates(name) {
            if let Some(n) = visible_name(nfa) {
                if n == name {
                    return Some(nfa);
                }
                if fold && folded.is_none() && n.eq_ignore_ascii_case(name) {
                    folded = Some(nfa);
                }
            }
        }
        folded
    }
}
