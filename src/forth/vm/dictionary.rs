//! The dictionary: word headers, finding words (through the index or the chain of headers),
//! and the words and places that errors are annotated with.

use super::{
    A_CONTEXT, A_CURRENT, A_ENTRY, A_VOCABULARY, CELL, DICT_START, FLAG_HIDDEN, FLAG_IMMEDIATE, Vm,
    any_bit, set_bits,
};
use crate::forth::dict::{CycleGuard, MAX_CHAIN, WALKS_BEFORE_REBUILD};
use crate::forth::error::{FResult, ForthError, ForthErrorKind as K, Place};
use crate::span::FileId;
use std::sync::Arc;

impl Vm {
    // ----- dictionary -----

    /// The NFA of the latest word.
    pub fn latest(&self) -> u32 {
        let voc = self.cell(A_CURRENT).unwrap_or(A_VOCABULARY as i32) as u32;
        self.cell(voc).unwrap_or(0) as u32
    }

    pub(super) fn set_flags_of_latest(&mut self, flag: i32) {
        // (`wrapping_add`: the head cell is the program's to write, any value.)
        let flags = self.latest().wrapping_add(4);
        if let Ok(f) = self.cell(flags) {
            let _ = self.set_cell(flags, f | flag);
        }
    }

    pub(crate) fn clear_flags_of_latest(&mut self, flag: i32) {
        let flags = self.latest().wrapping_add(4);
        if let Ok(f) = self.cell(flags) {
            let _ = self.set_cell(flags, f & !flag);
        }
    }

    /// Creates a header named `name` with code field `code`; returns its NFA. The body
    /// starts at `HERE` afterwards.
    pub fn create_header(&mut self, name: &[u8], code: i32) -> FResult<u32> {
        if name.is_empty() {
            return Err(K::Compile("a defining word needs a name".into()).into());
        }
        self.align_here()?;
        let voc = self.cell(A_CURRENT)? as u32;
        // A valid dictionary index takes the header in, unless its memory held cells the
        // index depends on (then the writes make it stale, and it is rebuilt).
        let name_at = self.here();
        let end = (name_at as u64 + name.len() as u64 + 1).div_ceil(CELL as u64) * CELL as u64
            + 4 * CELL as u64;
        let indexed = self.dict.answers(self.dict_epoch, voc)
            && end <= u32::MAX as u64
            && !any_bit(&self.dict_bits, name_at, end as u32 - name_at);
        let name_at = self.allot(name.len() as u32 + 1)?;
        self.write_cstr(name_at, name)?;
        self.align_here()?;
        let nfa = self.here();
        let link = self.latest();
        self.comma(name_at as i32)?;
        self.comma(0)?;
        self.comma(link as i32)?;
        self.comma(code)?;
        self.set_cell(voc, nfa as i32)?;
        if indexed {
            self.watch_dict(name_at, name.len() as u32 + 1);
            self.watch_dict(nfa, CELL);
            self.watch_dict(nfa + 8, CELL);
            let index = Arc::make_mut(&mut self.dict);
            index.add(nfa, name);
            index.epoch = self.dict_epoch;
        }
        if self.lint.is_some() {
            self.lint_defined(nfa);
        }
        Ok(nfa)
    }

    /// Watches bytes `a .. a + len` for the dictionary index.
    fn watch_dict(&mut self, a: u32, len: u32) {
        set_bits(&mut self.dict_bits, a, len);
        set_bits(&mut self.watch_bits, a, len);
    }

    /// The chain of the vocabulary whose head cell is at `voc`, latest first, with each
    /// header's name (address, length); None where a walk would stop on a bad cell or a
    /// name without its end, or would not end.
    fn chain_of(&self, voc: u32) -> Option<Vec<(u32, u32, u32)>> {
        let mut nfa = self.raw_cell(voc).ok()? as u32;
        let mut chain = Vec::new();
        let mut guard = CycleGuard::new();
        while nfa != 0 {
            if chain.len() >= MAX_CHAIN || guard.looped(nfa) {
                return None;
            }
            let name_at = self.raw_cell(nfa).ok()? as u32;
            self.raw_cell(nfa.wrapping_add(4)).ok()?;
            let link = self.raw_cell(nfa.wrapping_add(8)).ok()? as u32;
            let rest = self.mem.get(name_at as usize..)?;
            let len = rest.iter().position(|&b| b == 0)? as u32;
            chain.push((nfa, name_at, len));
            nfa = link;
        }
        Some(chain)
    }

    /// Brings the dictionary index up to date ([`crate::forth::dict`]): a stale one is rebuilt
    /// after [`WALKS_BEFORE_REBUILD`] lookups have walked the chain. Called by the text
    /// interpreter and `-FIND` before they look a name up.
    pub(crate) fn sync_dict_index(&mut self) {
        let Ok(voc) = self.raw_cell(A_CONTEXT) else {
            return;
        };
        let voc = voc as u32;
        if self.dict.epoch == self.dict_epoch && self.dict.voc == voc {
            return; // built for this state (usable or not)
        }
        if self.dict.walks < WALKS_BEFORE_REBUILD {
            Arc::make_mut(&mut self.dict).walks += 1;
            return;
        }
        let chain = self.chain_of(voc);
        // Watch what the chain is made of: CONTEXT, the head cell, each name pointer and
        // link, each name (flags are read at each lookup).
        self.dict_bits.clear();
        if let Some(chain) = &chain {
            set_bits(&mut self.dict_bits, A_CONTEXT, CELL);
            set_bits(&mut self.dict_bits, voc, CELL);
            for &(nfa, name_at, len) in chain {
                set_bits(&mut self.dict_bits, nfa, CELL);
                set_bits(&mut self.dict_bits, nfa.wrapping_add(8), CELL);
                set_bits(&mut self.dict_bits, name_at, len + 1);
            }
        }
        self.rebuild_watch_bits();
        let mem = &self.mem;
        let names = chain.as_ref().map(|c| {
            c.iter().map(|&(nfa, at, len)| {
                let at = at as usize;
                (nfa, &mem[at..at + len as usize])
            })
        });
        Arc::make_mut(&mut self.dict).rebuild(self.dict_epoch, voc, names);
    }

    /// Finds a visible word by name; returns its NFA. A word spelled exactly so wins; else
    /// the latest word whose name matches ignoring case. (Axiom ignores case, yet has both
    /// `DROP`, the stack word, and `drop`, the move action: exact spelling tells them apart.)
    pub fn find(&self, name: &[u8]) -> Option<u32> {
        self.find_spelled(name, true)
    }

    /// Finds a visible word spelled exactly `name` (what the `-FIND` primitive does; see
    /// docs/axiom.md on case).
    pub fn find_exact(&self, name: &[u8]) -> Option<u32> {
        self.find_spelled(name, false)
    }

    /// [`Vm::find`], and with `fold` false, [`Vm::find_exact`].
    fn find_spelled(&self, name: &[u8], fold: bool) -> Option<u32> {
        self.lookup(name, fold).ok().flatten()
    }

    /// [`Vm::find`] (with `fold` false, [`Vm::find_exact`]) for the text interpreter and
    /// `-FIND`: a chain of headers that loops back on itself is an error (`DZ1015`), not a
    /// name that is not there.
    pub(crate) fn lookup(&self, name: &[u8], fold: bool) -> FResult<Option<u32>> {
        let Ok(voc) = self.cell(A_CONTEXT) else {
            return Ok(None);
        };
        let voc = voc as u32;
        if self.dict.answers(self.dict_epoch, voc) {
            return Ok(self.dict.lookup(name, fold, |nfa| {
                let flags = self.raw_cell(nfa.wrapping_add(4)).ok()?;
                if flags & FLAG_HIDDEN != 0 {
                    return None;
                }
                self.cstr(self.raw_cell(nfa).ok()? as u32).ok()
            }));
        }
        self.walk(voc, name, fold)
            .map_err(|nfa| K::DictionaryCorrupt(nfa).into())
    }

    /// Whether the dictionary index answers lookups now (for tests).
    #[cfg(test)]
    pub(crate) fn dict_index_answers(&self) -> bool {
        let voc = self.raw_cell(A_CONTEXT).unwrap_or(0) as u32;
        self.dict.answers(self.dict_epoch, voc)
    }

    /// [`Vm::find_spelled`] by walking the chain of the vocabulary at `voc` (None, too,
    /// when the chain loops): what the index must agree with (for tests).
    #[cfg(test)]
    pub(crate) fn walk_dictionary(&self, voc: u32, name: &[u8], fold: bool) -> Option<u32> {
        self.walk(voc, name, fold).ok().flatten()
    }

    /// [`Vm::walk_dictionary`]; Err: the chain loops back to the header given. (A cell
    /// the walk cannot read ends it with no word found, as it always did.)
    fn walk(&self, voc: u32, name: &[u8], fold: bool) -> Result<Option<u32>, u32> {
        let Ok(head) = self.cell(voc) else {
            return Ok(None);
        };
        let mut nfa = head as u32;
        let mut guard = 0usize;
        let mut cycle = CycleGuard::new();
        let mut folded = None;
        while nfa != 0 && guard < MAX_CHAIN {
            if cycle.looped(nfa) {
                return Err(nfa);
            }
            let Ok(flags) = self.cell(nfa.wrapping_add(4)) else {
                return Ok(None);
            };
            if flags & FLAG_HIDDEN == 0 {
                let Ok(name_at) = self.cell(nfa) else {
                    return Ok(None);
                };
                if let Ok(n) = self.cstr(name_at as u32) {
                    if n == name {
                        return Ok(Some(nfa));
                    }
                    if fold && folded.is_none() && n.eq_ignore_ascii_case(name) {
                        folded = Some(nfa);
                    }
                }
            }
            let Ok(link) = self.cell(nfa.wrapping_add(8)) else {
                return Ok(None);
            };
            nfa = link as u32;
            guard += 1;
        }
        Ok(folded)
    }

    /// Whether the word at `nfa` is immediate.
    pub fn is_immediate(&self, nfa: u32) -> bool {
        self.cell(nfa.wrapping_add(4)).unwrap_or(0) & FLAG_IMMEDIATE != 0
    }

    /// The name of the word at `nfa`.
    pub fn name_of(&self, nfa: u32) -> String {
        self.cell(nfa)
            .map(|a| self.cstring(a as u32))
            .unwrap_or_default()
    }

    /// Every visible word, latest first: (name, NFA).
    pub fn words(&self) -> Vec<(String, u32)> {
        let mut out = Vec::new();
        let mut nfa = self.latest();
        let mut cycle = CycleGuard::new();
        while nfa != 0 && out.len() < MAX_CHAIN && !cycle.looped(nfa) {
            out.push((self.name_of(nfa), nfa));
            nfa = match self.cell(nfa.wrapping_add(8)) {
                Ok(l) => l as u32,
                Err(_) => break,
            };
        }
        out
    }

    /// The definition whose body contains address `a` (the nearest header below it).
    pub fn word_containing(&self, a: u32) -> Option<String> {
        if a < DICT_START {
            return None;
        }
        let mut nfa = self.latest();
        let mut guard = 0;
        let mut cycle = CycleGuard::new();
        while nfa != 0 && guard < MAX_CHAIN && !cycle.looped(nfa) {
            if nfa < a {
                return Some(self.name_of(nfa));
            }
            nfa = self.cell(nfa.wrapping_add(8)).ok()? as u32;
            guard += 1;
        }
        None
    }

    /// Resolves a recorded origin to a place.
    pub(crate) fn place_of(&self, origin: (FileId, u32, u32)) -> Option<Place> {
        let map = &self.sources;
        if (origin.0.0 as usize) >= map.len() {
            return None;
        }
        Some(Place {
            file: map.get(origin.0).display.clone(),
            span: map.span_at(origin.0, origin.1 as usize, origin.2 as usize),
        })
    }

    /// Adds the running word and the failing call's place to an error that lacks them.
    pub(super) fn annotate(&self, mut e: ForthError, ip: u32) -> ForthError {
        let at = ip.wrapping_sub(CELL);
        if e.word.is_none() && ip != A_ENTRY + 4 {
            e.word = self.word_containing(at);
        }
        if e.place.is_none() {
            if let Some(o) = self.origins.get(&at) {
                e.place = self.place_of(*o);
            }
        }
        e
    }
}
