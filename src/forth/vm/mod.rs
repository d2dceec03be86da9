//! The Forth virtual machine: byte-addressed dictionary memory with 32-bit cells, the data and
//! return stacks, word headers, and the inner interpreter (indirect-threaded code).
//!
//! # Memory map
//! Addresses are byte offsets into one block of memory. The first kilobyte holds the system
//! variables (`STATE`, `BASE`, `DP`, `CURRENT`, `CONTEXT`, the vocabulary cell), the entry
//! thread of [`Vm::execute`] and `PAD`; the dictionary grows from [`DICT_START`].
//!
//! # Word headers
//! The layout that Axiom's `CORE.4TH` assumes (`NFA>CFA` is 3 cells, `NFA>LFA` 2 cells,
//! `PFA` one cell after `CFA`):
//!
//! | offset | cell |
//! |---|---|
//! | NFA + 0 | address of the name, a NUL-terminated string stored just before the header |
//! | NFA + 4 | flags: bit 0 immediate, bit 1 hidden (a `:` definition not yet ended) |
//! | NFA + 8 | LFA: the NFA of the previous word, 0 for the first |
//! | NFA + 12 | CFA: the code field |
//! | NFA + 16 | PFA: the body (threaded code, or data) |
//!
//! A code field holds a primitive number (below [`NATIVE_BASE`]), a host word
//! (`NATIVE_BASE + n`), or, for words made by a `<BUILDS … DOES>` defining word, the
//! bitwise complement of the address of the code after `DOES>` (a negative number).
//!
//! # Threaded code
//! A colon definition's body is a list of execution tokens (CFA addresses); `LIT`, `BRANCH`,
//! `0BRANCH`, `(LOOP)` and `(+LOOP)` take the next cell as their operand; branch targets are
//! absolute addresses. Return addresses on the return stack are real addresses of the next
//! cell, so words such as `(.")` that read inline data through `R` and `R>` work as written.
//!
//! # Containment
//! Every memory access is checked, both stacks have limits, and every primitive counts
//! against a step budget; failures are [`ForthError`]s naming the word and the place where
//! the failing call was compiled.
//!
//! [`ForthError`]: super::ForthError
//!
//! # Traced runs
//! [`Vm::execute_traced`] runs a word with a second copy of the inner interpreter that
//! notes data reads and writes ([`super::trace`]) and marks the cells it runs as code. Every
//! write to memory goes through this module's writers, which bump [`Vm::code_epoch`] when
//! they touch a cell marked as code.
//!
//! # Finding words
//! [`Vm::find`] answers from a hash index of the dictionary ([`super::dict`]) when it is
//! current, else walks the chain of headers. The same write check watches the cells the
//! chain is made of: a write to one makes the index stale.
//!
//! # Watched data
//! A host may watch data cells ([`Vm::watch_data`]): writes that may change one are noted
//! in a journal (`forth::journal`) that the host drains ([`Vm::drain_written`]).
//!
//! # Files
//! This file has the VM itself, its constructor and the small items the others share; each
//! of `memory` (cells, bytes, `HERE`), `stacks` (the stacks and the step budget), `dictionary`
//! (headers, finding words), `interp` (the inner interpreter and the primitives) and `trace`
//! (traced runs, watched cells) adds its part of `impl Vm`.

mod dictionary;
mod interp;
mod memory;
mod stacks;
mod trace;

use super::dict::DictIndex;
use super::error::{FResult, ForthErrorKind as K};
use super::frozen::FrozenData;
use super::journal::Journal;
use super::trace::{NativeClass, Trace};
use crate::source::SourceMap;
use crate::span::FileId;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use trace::UnnotedRead;

/// Bytes per cell.
pub const CELL: u32 = 4;
pub(crate) const A_STATE: u32 = 16;
pub(crate) const A_BASE: u32 = 20;
pub(crate) const A_DP: u32 = 24;
pub(crate) const A_CURRENT: u32 = 28;
pub(crate) const A_CONTEXT: u32 = 32;
/// The one vocabulary: a cell holding the NFA of the latest word.
pub(crate) const A_VOCABULARY: u32 = 36;
/// The entry thread: `[xt][HALT_XT]`; [`Vm::execute`] starts with its second cell.
pub(crate) const A_ENTRY: u32 = 64;
/// A pseudo execution token whose code field is `HALT`.
pub(crate) const HALT_XT: u32 = 72;
/// A pseudo execution token whose code field is the internal `undefined` primitive: lint
/// mode compiles it in place of a word that is not defined (it fails if it ever runs).
pub(crate) const UNDEFINED_XT: u32 = 76;
/// `PAD`: where `WORD` leaves the parsed word, as a NUL-terminated string.
pub const PAD: u32 = 256;
/// Size of `PAD`.
pub const PAD_SIZE: u32 = 256;
/// First address of the dictionary.
pub const DICT_START: u32 = 1024;
/// Code fields from here on name host words.
pub const NATIVE_BASE: i32 = 0x0001_0000;

pub(crate) const FLAG_IMMEDIATE: i32 = 1;
pub(crate) const FLAG_HIDDEN: i32 = 2;

/// Limits of one VM.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Bytes of dictionary memory.
    pub memory: u32,
    /// Cells on the data stack.
    pub data_stack: usize,
    /// Cells on the return stack.
    pub return_stack: usize,
    /// Nested `LOAD`s.
    pub load_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: 8 << 20,
            data_stack: 4096,
            return_stack: 4096,
            load_depth: 32,
        }
    }
}

/// The host: the program that embeds the VM and provides its native words (Axiom's board,
/// move lists, random numbers …).
pub trait Host {
    /// Runs native word number `id` (as returned by [`Vm::define_native`]).
    fn native(&mut self, vm: &mut Vm, id: u32) -> FResult<()>;

    /// How a traced run may treat native word `id` ([`Vm::execute_traced`]).
    fn native_class(&self, _id: u32) -> NativeClass {
        NativeClass::Opaque
    }
}

/// A host without native words.
pub struct NoHost;

impl Host for NoHost {
    fn native(&mut self, vm: &mut Vm, id: u32) -> FResult<()> {
        Err(K::Host(format!("`{}` needs a host", vm.native_name(id))).into())
    }
}

/// One source being interpreted.
#[derive(Clone, Debug)]
pub(crate) struct Input {
    pub file: FileId,
    pub pos: usize,
}

/// The virtual machine.
#[derive(Clone)]
pub struct Vm {
    mem: super::mem::Mem,
    pub(crate) ds: Vec<i32>,
    pub(crate) rs: Vec<i32>,
    /// Return-stack depth below which the running [`Vm::execute`] may not pop.
    rs_floor: usize,
    /// A move generator is running a move word and catches `$Exit` itself: the exit is
    /// not annotated with its word and place ([`Vm::set_exit_caught`]).
    exit_caught: bool,
    pub(crate) limits: Limits,
    steps: u64,
    step_limit: u64,
    pub(crate) natives: Vec<String>,
    /// Source files read so far (for positions); shared by clones.
    pub sources: Arc<SourceMap>,
    /// Execution token of each primitive, by number (0 for internal ones).
    prim_xts: Vec<u32>,
    pub(crate) inputs: Vec<Input>,
    /// Where each compiled cell came from: cell address → (file, byte offset, length).
    pub(crate) origins: HashMap<u32, (FileId, u32, u32)>,
    /// Text written by `EMIT`, `TYPE` and `.` (drained by the host).
    pub output: Vec<u8>,
    /// Folder that `LOAD` names are relative to when the loading file's folder lacks them.
    pub root: PathBuf,
    /// Further folders a `LOAD` may read (the engine folder of a ZRF's `(engine …)`, the
    /// `--include-dir` folders), searched after `root`. A `LOAD` never reads outside `root`
    /// and these ([`crate::confine`]).
    pub include_dirs: Vec<PathBuf>,
    /// The span of the token the text interpreter read last.
    pub(crate) last_token: Option<(FileId, u32, u32)>,
    /// Lint mode ([`Vm::start_lint`]): findings are recorded and loading goes on.
    pub(crate) lint: Option<Box<super::lint::LintState>>,
    /// A traced run is in progress ([`Vm::execute_traced`]).
    tracing: bool,
    /// What the traced run did.
    trace: Trace,
    /// A reader that cannot note (`&self`) read memory in the traced run.
    unnoted: UnnotedRead,
    /// Cells traced runs read as code (instructions, and constants' values): one bit per
    /// cell, up to the highest such cell. Their reads are not noted one by one; a write to
    /// one of them changes [`Vm::code_epoch`] instead, which invalidates every trace.
    code_bits: Vec<u64>,
    code_epoch: u64,
    /// Cells the dictionary index depends on ([`super::dict`]); a write to one changes
    /// `dict_epoch`.
    dict_bits: Vec<u64>,
    dict_epoch: u64,
    /// Data cells a host watches, and the writes to them ([`Vm::watch_data`]).
    journal: Journal,
    /// `code_bits | dict_bits | journal.bits`: the cells whose writes are watched (one
    /// test per write).
    watch_bits: Vec<u64>,
    /// The dictionary index (shared by clones until one of them defines a word).
    dict: Arc<DictIndex>,
    /// Data cells traced runs take as fixed, as code ([`super::frozen`]).
    frozen: FrozenData,
}

const MAX_OUTPUT: usize = 1 << 20;

/// Bytes of bulk work a step pays for: a word that touches many bytes at once (`FILL`,
/// `CMOVE`, `TYPE`, `"COUNT`, `"MOVE`, a host word that scans a string or copies or hashes
/// the board) counts one step more per this many bytes it touches, on top of its own step,
/// so that the step budget bounds time however the work is split. 64 bytes take a few
/// nanoseconds to fill, copy or scan, about what the inner interpreter spends on a
/// step; strings shorter than that (names, notations) cost nothing extra.
pub const BYTES_PER_STEP: u64 = 64;

macro_rules! primitives {
    ($( $id:ident $name:literal $imm:literal ),* $(,)?) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(i32)]
        enum Pid { $($id),* }
        /// Primitive numbers (code-field values).
        #[allow(non_upper_case_globals, dead_code)]
        pub(crate) mod p { $(pub const $id: i32 = super::Pid::$id as i32;)* }
        /// Name and immediacy of each primitive, by number. Names starting with a space
        /// are internal (never entered in the dictionary).
        pub(crate) const PRIMITIVES: &[(&str, bool)] = &[$(($name, $imm)),*];
    };
}

primitives! {
    DOCOL " docol" false, DOVAR " dovar" false, HALT " halt" false,
    LIT "LIT" false, BRANCH "BRANCH" false, ZBRANCH "0BRANCH" false, EXIT ";S" false,
    DO "(DO)" false, LOOP "(LOOP)" false, PLUSLOOP "(+LOOP)" false, DOES "(DOES>)" false,
    COMPILE "COMPILE" false, EXECUTE "EXECUTE" false, LEAVE "LEAVE" false,
    // stack
    DUP "DUP" false, DROP "DROP" false, SWAP "SWAP" false, OVER "OVER" false, ROT "ROT" false,
    MROT "-ROT" false, NIP "NIP" false, TUCK "TUCK" false, QDUP "?DUP" false,
    TWODUP "2DUP" false, TWODROP "2DROP" false, TWOSWAP "2SWAP" false, TWOOVER "2OVER" false,
    PICK "PICK" false, ROLL "ROLL" false, DEPTH "DEPTH" false,
    TOR ">R" false, RFROM "R>" false, RFETCH "R@" false, R "R" false, I "I" false, J "J" false,
    // arithmetic and logic
    ADD "+" false, SUB "-" false, MUL "*" false, DIV "/" false, MOD "MOD" false,
    DIVMOD "/MOD" false, MULDIV "*/" false, INC "1+" false, DEC "1-" false,
    INC2 "2+" false, DEC2 "2-" false, MUL2 "2*" false, DIV2 "2/" false,
    NEGATE "NEGATE" false, ABS "ABS" false, MIN "MIN" false, MAX "MAX" false,
    AND "AND" false, OR "OR" false, XOR "XOR" false, NOT "NOT" false, INVERT "INVERT" false,
    LSHIFT "LSHIFT" false, RSHIFT "RSHIFT" false,
    EQ "=" false, NE "<>" false, LT "<" false, GT ">" false, LE "<=" false, GE ">=" false,
    ZEQ "0=" false, ZNE "0<>" false, ZLT "0<" false, ZGT "0>" false, ULT "U<" false,
    TRUE "TRUE" false, FALSE "FALSE" false,
    // memory
    FETCH "@" false, STORE "!" false, CFETCH "C@" false, CSTORE "C!" false,
    PLUSSTORE "+!" false, INCR "++" false, DECR "--" false,
    CMOVE "CMOVE" false, FILL "FILL" false, COMMA "," false, CCOMMA "C," false,
    HERE "HERE" false, PADW "PAD" false,
    STATE "STATE" false, BASE "BASE" false, DP "DP" false, CURRENT "CURRENT" false,
    CONTEXT "CONTEXT" false,
    // compiler
    COLON ":" false, SEMI ";" true, IMMEDIATE "IMMEDIATE" false, LBRACKET "[" true,
    RBRACKET "]" false, BUILDS "<BUILDS" false, DOESC "DOES>" true, CREATE "CREATE" false,
    HEADER "HEADER" false, WORD "WORD" false, MFIND "-FIND" false, CFATOPFA "CFA>PFA" false,
    NUMBERSTR "(NUMBER)" false, LOAD "LOAD" false, UNDEFINED "UNDEFINED" false,
    ERROR "ERROR" false, ABORT "ABORT" false,
    // text
    EMIT "EMIT" false, TYPE "TYPE" false, DOT "." false, UDOT "U." false,
    SCOUNT "\"COUNT" false, SMOVE "\"MOVE" false,
    // floats (IEEE single precision in a cell)
    FADD "F+" false, FSUB "F-" false, FMUL "F*" false, FDIV "F/" false,
    FLT "F<" false, FGT "F>" false, FEQ "F=" false, FZLT "F0<" false, FZEQ "F0=" false,
    FDUP "FDUP" false, FDROP "FDROP" false, FSWAP "FSWAP" false, FOVER "FOVER" false,
    F2DUP "F2DUP" false, STOF "S>F" false, FTOS "F>S" false, FDOT "F." false,
    // lint mode's placeholder for an undefined word
    UNDEF " undefined" false,
}

impl Vm {
    /// A VM with the kernel's primitives in its dictionary and nothing else.
    pub fn new(limits: Limits) -> Self {
        let mut vm = Vm {
            mem: super::mem::Mem::zeroed(limits.memory.max(DICT_START * 4) as usize),
            ds: Vec::with_capacity(256),
            rs: Vec::with_capacity(256),
            rs_floor: 0,
            exit_caught: false,
            limits,
            steps: 0,
            step_limit: u64::MAX,
            natives: Vec::new(),
            sources: Arc::new(SourceMap::new()),
            prim_xts: vec![0; PRIMITIVES.len()],
            inputs: Vec::new(),
            origins: HashMap::new(),
            output: Vec::new(),
            root: PathBuf::from("."),
            include_dirs: Vec::new(),
            last_token: None,
            lint: None,
            tracing: false,
            trace: Trace::default(),
            unnoted: UnnotedRead::default(),
            code_bits: Vec::new(),
            code_epoch: 0,
            dict_bits: Vec::new(),
            dict_epoch: 0,
            journal: Journal::default(),
            watch_bits: Vec::new(),
            dict: Arc::default(),
            frozen: FrozenData::default(),
        };
        vm.poke(A_BASE, 10);
        vm.poke(A_DP, DICT_START as i32);
        vm.poke(A_CURRENT, A_VOCABULARY as i32);
        vm.poke(A_CONTEXT, A_VOCABULARY as i32);
        vm.poke(A_ENTRY + 4, HALT_XT as i32);
        vm.poke(HALT_XT, p::HALT);
        vm.poke(UNDEFINED_XT, p::UNDEF);
        for (n, (name, imm)) in PRIMITIVES.iter().enumerate() {
            if name.starts_with(' ') {
                continue;
            }
            // Memory is ample at this point: the kernel is a few kilobytes.
            if let Ok(nfa) = vm.create_header(name.as_bytes(), n as i32) {
                vm.prim_xts[n] = nfa + 12;
            }
            if *imm {
                vm.set_flags_of_latest(FLAG_IMMEDIATE);
            }
        }
        vm
    }

    /// Declares a host word; returns its number for [`Host::native`].
    pub fn define_native(&mut self, name: &str) -> FResult<u32> {
        let id = self.natives.len() as u32;
        self.natives.push(name.to_owned());
        self.create_header(name.as_bytes(), NATIVE_BASE + id as i32)?;
        Ok(id)
    }

    /// The name of host word `id`.
    pub fn native_name(&self, id: u32) -> &str {
        self.natives.get(id as usize).map_or("?", |s| s)
    }

    // ----- output -----

    pub(crate) fn emit(&mut self, b: &[u8]) {
        self.note_effect("output");
        if self.output.len() + b.len() <= MAX_OUTPUT {
            self.output.extend_from_slice(b);
        }
    }

    /// Formats `n` in `BASE`.
    pub fn format_number(&self, n: i32, unsigned: bool) -> String {
        let base = self.base();
        let neg = !unsigned && n < 0;
        let mut v: u64 = if unsigned {
            n as u32 as u64
        } else {
            (n as i64).unsigned_abs()
        };
        let mut digits = Vec::new();
        loop {
            let d = (v % base as u64) as u8;
            digits.push(if d < 10 { b'0' + d } else { b'A' + d - 10 });
            v /= base as u64;
            if v == 0 {
                break;
            }
        }
        if neg {
            digits.push(b'-');
        }
        digits.reverse();
        String::from_utf8_lossy(&digits).into_owned()
    }
}

/// Sets bit `c` of a bitmap of cells, growing it.
pub(super) fn set_bit(bits: &mut Vec<u64>, c: u32) {
    let (w, b) = ((c / 64) as usize, c % 64);
    if w >= bits.len() {
        bits.resize(w + 1, 0);
    }
    bits[w] |= 1 << b;
}

/// Whether bit `c` of a bitmap of cells is set (false past its end).
#[inline(always)]
pub(super) fn has_bit(bits: &[u64], c: u32) -> bool {
    bits.get((c / 64) as usize)
        .is_some_and(|w| w & (1 << (c % 64)) != 0)
}

/// Clears the bit of cell `c`.
pub(super) fn clear_bit(bits: &mut [u64], c: u32) {
    if let Some(w) = bits.get_mut((c / 64) as usize) {
        *w &= !(1 << (c % 64));
    }
}

/// Sets the bits of the cells that bytes `a .. a + len` touch.
fn set_bits(bits: &mut Vec<u64>, a: u32, len: u32) {
    if len == 0 {
        return;
    }
    let last = a.saturating_add(len - 1) / CELL;
    for c in a / CELL..=last {
        set_bit(bits, c);
    }
}

/// Whether a bit is set for a cell that bytes `a .. a + len` touch.
fn any_bit(bits: &[u64], a: u32, len: u32) -> bool {
    if len == 0 {
        return false;
    }
    let (first, last) = (a / CELL, a.saturating_add(len - 1) / CELL);
    // Word by word: a record copied at `HERE` spans dozens of cells, none watched.
    for w in first / 64..=last / 64 {
        let Some(&word) = bits.get(w as usize) else {
            return false;
        };
        let lo = if w == first / 64 { first % 64 } else { 0 };
        let hi = if w == last / 64 { last % 64 } else { 63 };
        if word & ((u64::MAX >> (63 - (hi - lo))) << lo) != 0 {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod bit_tests {
    use super::*;

    /// `any_bit` word by word finds a set bit anywhere in the cells a range touches, and
    /// none outside it: checked against a cell-by-cell scan over ranges across word edges.
    #[test]
    fn any_bit_sees_exactly_the_cells_a_range_touches() {
        let mut bits = vec![0u64; 4];
        for c in [3u32, 63, 64, 130, 255] {
            bits[(c / 64) as usize] |= 1 << (c % 64);
        }
        let one_by_one = |a: u32, len: u32| {
            len > 0
                && (a / CELL..=(a + len - 1) / CELL).any(|c| {
                    bits.get((c / 64) as usize)
                        .is_some_and(|w| w & (1 << (c % 64)) != 0)
                })
        };
        for a in 0..1100 {
            for len in [0, 1, 3, 4, 5, 17, 64, 250, 300] {
                assert_eq!(
                    any_bit(&bits, a, len),
                    one_by_one(a, len),
                    "a={a} len={len}"
                );
            }
        }
    }
}
