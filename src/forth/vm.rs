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

use super::dict::{CycleGuard, DictIndex, MAX_CHAIN, WALKS_BEFORE_REBUILD};
use super::error::{FResult, ForthError, ForthErrorKind as K, Place};
use super::frozen::{FrozenCells, FrozenData};
use super::journal::Journal;
use super::trace::{MAX_REPLAY_ARGS, NativeClass, Trace};
use crate::source::SourceMap;
use crate::span::FileId;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// `a b -- a∘b` on the data stack of `$vm`, the value `$e` of `a` and `b`.
macro_rules! bin {
    ($vm:ident, |$a:ident, $b:ident| $e:expr) => {{
        let $b = $vm.pop()?;
        let $a = $vm.pop()?;
        $vm.push($e)?;
    }};
}

/// `a b -- flag` on the data stack of `$vm`, the flag of `$e`.
macro_rules! cmp {
    ($vm:ident, |$a:ident, $b:ident| $e:expr) => {{
        let $b = $vm.pop()?;
        let $a = $vm.pop()?;
        $vm.push_flag($e)?;
    }};
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

    // ----- tracing (see [`super::trace`]) -----

    /// Notes a write of `len` bytes at `a` (`cell`: the value, when one cell) in a traced
    /// run.
    #[inline(always)]
    fn note_write(&mut self, a: u32, len: u32, cell: Option<i32>) {
        if self.tracing {
            self.trace.write(a, len, cell);
        }
        self.note_watched_write(a, len);
    }

    /// A read of a string or a range: the Forth code of a traced run may not make one.
    #[inline(always)]
    fn note_string_read(&self) {
        if self.tracing {
            self.unnoted_read();
        }
    }

    /// An effect no trace can replay (output, compiling, text input…).
    #[inline(always)]
    fn note_effect(&mut self, why: &'static str) {
        if self.tracing && !self.trace.in_native {
            self.trace.taint(why);
        }
    }

    /// Runs `xt` as [`Vm::execute`] does, tracing what it reads and does; the trace is
    /// then [`Vm::trace`]. `area`: where the run's compiled output goes (writes at or
    /// above it are not replayable).
    pub fn execute_traced(&mut self, xt: u32, host: &mut dyn Host, area: u32) -> FResult<()> {
        if self.tracing {
            // A scan inside a traced word: the outer trace cannot vouch for it.
            self.trace.taint("a traced run inside another");
            return self.execute(xt, host);
        }
        self.trace.start(area);
        self.unnoted.0.store(false, Ordering::Relaxed);
        let before = self.steps;
        self.tracing = true;
        let r = self.execute(xt, host);
        self.tracing = false;
        let t = &mut self.trace;
        if self.unnoted.0.load(Ordering::Relaxed) {
            t.taint("a read the trace could not note");
        }
        match self.steps.checked_sub(before) {
            Some(n) => t.steps = n,
            None => t.taint("a new step budget"),
        }
        r
    }

    /// The last traced run's trace.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Counts `n` steps as a replayed run's; false (and nothing counted) when they do
    /// not fit in the budget, where running the code would fail.
    pub fn add_steps(&mut self, n: u64) -> bool {
        match self.steps.checked_add(n) {
            Some(s) if s <= self.step_limit => {
                self.steps = s;
                true
            }
            _ => false,
        }
    }

    // ----- memory -----

    /// Writes a cell during set-up (addresses known to be valid).
    fn poke(&mut self, a: u32, v: i32) {
        self.note_write(a, 4, Some(v));
        let a = a as usize;
        if let Some(b) = self.mem.range_mut(a..a + 4) {
            b.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// The cell at `a`.
    #[inline(always)]
    pub fn cell(&self, a: u32) -> FResult<i32> {
        if self.tracing {
            self.unnoted_read();
        }
        self.raw_cell(a)
    }

    /// The cell at `a`, noted as read in a traced run: the reader of primitives and of the
    /// host words that declare themselves [`NativeClass::Pure`].
    #[inline(always)]
    pub fn read_cell(&mut self, a: u32) -> FResult<i32> {
        let v = self.raw_cell(a)?;
        if self.tracing {
            self.traced_cell_read(a, v);
        }
        Ok(v)
    }

    /// A traced run read `v` in the cell at `a`: noted, or, when the cell may be frozen
    /// ([`super::frozen`]), marked as code.
    #[inline(always)]
    fn traced_cell_read(&mut self, a: u32, v: i32) {
        if self.trace.read(a, 4, v, self.frozen.may_freeze(a)) {
            self.freeze_cell(a);
        }
    }

    /// Marks the cell at `a` (aligned, below the frozen bound) as frozen data: code.
    #[cold]
    #[inline(never)]
    fn freeze_cell(&mut self, a: u32) {
        if self.is_code(a) {
            return;
        }
        let c = a / CELL;
        self.frozen.freeze(c);
        set_bit(&mut self.code_bits, c);
        set_bit(&mut self.watch_bits, c);
    }

    /// From now on, traced runs take the data cells below `limit` that they read as fixed
    /// until one is seen to change ([`super::frozen`]); 0 stops freezing new cells. The
    /// host marks the cells it knows change with [`Vm::mark_mutable`].
    pub fn freeze_data_below(&mut self, limit: u32) {
        self.frozen.below = limit;
    }

    /// Notes that the cells of the bytes `a .. a + len` change: they are never frozen.
    pub fn mark_mutable(&mut self, a: u32, len: u32) {
        if len == 0 {
            return;
        }
        let last = a.saturating_add(len - 1) / CELL;
        for c in a / CELL..=last {
            self.thaw(c);
        }
    }

    /// Cell `c` is to change: it is known to be mutable from now on; if it was frozen, it
    /// is data again and the code epoch changes (traces made since it froze may assume its
    /// value).
    #[cold]
    #[inline(never)]
    fn thaw(&mut self, c: u32) {
        if !self.frozen.learn_mutable(c) {
            return;
        }
        self.code_epoch += 1;
        clear_bit(&mut self.code_bits, c);
        if !has_bit(&self.dict_bits, c) && !has_bit(&self.journal.bits, c) {
            clear_bit(&mut self.watch_bits, c);
        }
    }

    /// What this VM learned about its data cells ([`super::frozen`]): the frozen ones with
    /// their values, and the ones known to change. Another VM of the same program can take
    /// it over ([`Vm::adopt_frozen`]).
    pub fn frozen_data(&self) -> FrozenCells {
        FrozenCells {
            frozen: self
                .frozen
                .frozen_cells()
                .filter_map(|c| Some((c, self.raw_cell(c.wrapping_mul(CELL)).ok()?)))
                .collect(),
            mutable: self.frozen.mutable_bits().to_vec(),
        }
    }

    /// Takes over what another VM of the same program learned about its data cells
    /// ([`Vm::frozen_data`]): its mutable cells are mutable here too, and its frozen cells
    /// are frozen here when they hold the same value, below this VM's bound. False when one
    /// does not (it is then known to be mutable): the traces made in that VM may assume
    /// its value, and cannot serve here.
    pub fn adopt_frozen(&mut self, cells: &FrozenCells) -> bool {
        self.frozen.add_mutable(&cells.mutable);
        let mut all = true;
        for &(c, v) in &cells.frozen {
            let a = c.wrapping_mul(CELL);
            if self.frozen.may_freeze(a) && self.raw_cell(a).ok() == Some(v) {
                self.freeze_cell(a);
            } else {
                self.mark_mutable(a, CELL);
                all = false;
            }
        }
        all
    }

    /// The cell at `a`, noted as read when `T` (the inner interpreter of a traced run).
    #[inline(always)]
    fn rd<const T: bool>(&mut self, a: u32) -> FResult<i32> {
        let v = self.raw_cell(a)?;
        if T {
            self.traced_cell_read(a, v);
        }
        Ok(v)
    }

    /// The cell at `a` read as code: when `T`, marked as code ([`Vm::code_epoch`]).
    #[inline(always)]
    fn code_rd<const T: bool>(&mut self, a: u32) -> FResult<i32> {
        let v = self.raw_cell(a)?;
        if T && !self.is_code(a) {
            self.mark_code(a);
        }
        Ok(v)
    }

    /// Whether the cell at `a` (aligned) is marked as code.
    #[inline(always)]
    fn is_code(&self, a: u32) -> bool {
        let c = a / CELL;
        a % CELL == 0
            && self
                .code_bits
                .get((c / 64) as usize)
                .is_some_and(|bits| bits & (1 << (c % 64)) != 0)
    }

    /// Marks the cells of the four bytes at `a` as code.
    #[cold]
    #[inline(never)]
    fn mark_code(&mut self, a: u32) {
        if a.saturating_add(CELL) > self.trace.area {
            // Code in the memory the run compiles into: not code that stays.
            self.trace.taint("running code the run compiles into");
            return;
        }
        for c in [a / CELL, a.div_ceil(CELL)] {
            set_bit(&mut self.code_bits, c);
            set_bit(&mut self.watch_bits, c);
        }
    }

    /// The cells marked as code ([`Vm::code_epoch`]), by cell number (address / 4), each
    /// with its value: what traces made in this VM take as fixed. Another VM of the same
    /// program can take them over ([`Vm::adopt_code`]).
    pub fn code_cells(&self) -> Vec<(u32, i32)> {
        let mut out = Vec::new();
        for (i, &word) in self.code_bits.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let c = i as u32 * 64 + bits.trailing_zeros();
                bits &= bits - 1;
                if self.frozen.is_frozen(c) {
                    continue; // (data: [`Vm::frozen_data`])
                }
                if let Ok(v) = self.raw_cell(c.wrapping_mul(CELL)) {
                    out.push((c, v));
                }
            }
        }
        out
    }

    /// Marks `cells` ([`Vm::code_cells`] of another VM) as code here, when each holds the
    /// value given: from then on a write to one of them changes [`Vm::code_epoch`], as it
    /// would in the VM they come from. Answers false, and marks nothing, when one differs
    /// (that VM's code is not this one's).
    pub fn adopt_code(&mut self, cells: &[(u32, i32)]) -> bool {
        if cells
            .iter()
            .any(|&(c, v)| self.raw_cell(c.wrapping_mul(CELL)).ok() != Some(v))
        {
            return false;
        }
        for &(c, _) in cells {
            set_bit(&mut self.code_bits, c);
            set_bit(&mut self.watch_bits, c);
        }
        true
    }

    /// Notes a write of `len` bytes at `a` against the watched cells (code, and the cells
    /// the dictionary index depends on).
    #[inline(always)]
    fn note_watched_write(&mut self, a: u32, len: u32) {
        let c = a / CELL;
        if len == CELL && a % CELL == 0 {
            // One aligned cell: the common case (variables, the board), one bit test.
            if let Some(bits) = self.watch_bits.get((c / 64) as usize) {
                if bits & (1 << (c % 64)) != 0 {
                    self.watched_write(a, len);
                }
            }
            return;
        }
        let hi = self.watch_bits.len() as u64 * 64 * CELL as u64;
        if (a as u64) < hi && len > 0 {
            self.watched_write(a, len);
        }
    }

    /// Notes a store of `v` in the cell at `a` (in memory) against the watched cells, as
    /// [`Vm::note_watched_write`] does; storing a cell's own value changes nothing a
    /// watcher could see, and is not noted (compared only for watched cells).
    #[inline(always)]
    fn note_cell_write(&mut self, a: u32, v: i32) {
        let c = a / CELL;
        let watched = if a % CELL == 0 {
            self.watch_bits
                .get((c / 64) as usize)
                .is_some_and(|bits| bits & (1 << (c % 64)) != 0)
        } else {
            (a as u64) < self.watch_bits.len() as u64 * 64 * CELL as u64
        };
        if watched && self.raw_cell(a).ok() != Some(v) {
            self.watched_write(a, 4);
        }
    }

    /// A write that may touch a watched cell: code changes [`Vm::code_epoch`], the
    /// dictionary's chain the dictionary epoch ([`super::dict`]).
    #[cold]
    #[inline(never)]
    fn watched_write(&mut self, a: u32, len: u32) {
        if any_bit(&self.code_bits, a, len) {
            self.code_epoch += 1;
            // (A frozen cell that changes is data again: [`Vm::thaw`].)
            if self.frozen.any_frozen(a, len) {
                let last = a.saturating_add(len - 1) / CELL;
                for c in a / CELL..=last {
                    self.thaw(c);
                }
            }
        }
        if any_bit(&self.dict_bits, a, len) {
            self.dict_epoch += 1;
        }
        if self.journal.watching() {
            self.journal.note(a, len);
        }
    }

    /// Whether a write of `len` bytes at `a` may touch a watched cell (a cell a trace
    /// read, or code): such a write is journaled (see the `journal` module).
    pub fn watches(&self, a: u32, len: u32) -> bool {
        any_bit(&self.watch_bits, a, len)
    }

    /// Watches the cells of the bytes `a .. a + len` for writes (see the module documentation, "Watched data").
    pub fn watch_data(&mut self, a: u32, len: u32) {
        set_bits(&mut self.journal.bits, a, len);
        set_bits(&mut self.watch_bits, a, len);
    }

    /// Moves the numbers (address / 4) of the watched cells written since the last drain
    /// into `out`, possibly with repeats; false when there were too many to list: any
    /// watched cell may have changed.
    pub fn drain_written(&mut self, out: &mut Vec<u32>) -> bool {
        self.journal.drain_into(out)
    }

    /// Whether a watched cell was written since the last drain.
    #[inline]
    pub fn any_written(&self) -> bool {
        !self.journal.is_empty()
    }

    /// Stops watching data cells, and forgets the writes noted.
    pub fn unwatch_data(&mut self) {
        if self.journal.watching() {
            self.journal.reset();
            self.rebuild_watch_bits();
        }
    }

    /// `watch_bits` from the three sets it is made of.
    fn rebuild_watch_bits(&mut self) {
        self.watch_bits.clone_from(&self.code_bits);
        for bits in [&self.dict_bits, &self.journal.bits] {
            if self.watch_bits.len() < bits.len() {
                self.watch_bits.resize(bits.len(), 0);
            }
            for (w, d) in self.watch_bits.iter_mut().zip(bits) {
                *w |= d;
            }
        }
    }

    /// Changes whenever a cell that traced runs read as code is written.
    pub fn code_epoch(&self) -> u64 {
        self.code_epoch
    }

    /// A read through `&self` in a traced run: unless a replayable host word runs (its
    /// reads are its own), the trace cannot be trusted.
    #[cold]
    fn unnoted_read(&self) {
        if !self.trace.in_native {
            self.unnoted.0.store(true, Ordering::Relaxed);
        }
    }

    /// The cell at `a`, never noted.
    #[inline(always)]
    fn raw_cell(&self, a: u32) -> FResult<i32> {
        let i = a as usize;
        // One bounds check and one 32-bit load (indexing the slice byte by byte made the
        // compiler assemble the cell from four loads on the interpreter's hot path).
        match self
            .mem
            .get(i..i + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
        {
            Some(b) => Ok(i32::from_le_bytes(b)),
            None => Err(K::Memory(a as i64).into()),
        }
    }

    /// Stores a cell at `a`.
    #[inline(always)]
    pub fn set_cell(&mut self, a: u32, v: i32) -> FResult<()> {
        let i = a as usize;
        if i + 4 <= self.mem.len() {
            if self.tracing {
                self.trace.write(a, 4, Some(v));
                // A cell a traced run writes is not one to freeze (a frozen one is thawed
                // below, if the write changes it).
                if self.frozen.below != 0 && !self.frozen.is_frozen(a / CELL) {
                    self.frozen.learn_mutable(a / CELL);
                }
            }
            self.note_cell_write(a, v);
        }
        match self.mem.range_mut(i..i + 4) {
            Some(b) => {
                b.copy_from_slice(&v.to_le_bytes());
                Ok(())
            }
            None => Err(K::Memory(a as i64).into()),
        }
    }

    /// The byte at `a`.
    pub fn byte(&self, a: u32) -> FResult<u8> {
        if self.tracing {
            self.unnoted_read();
        }
        self.mem
            .get(a as usize)
            .copied()
            .ok_or_else(|| K::Memory(a as i64).into())
    }

    /// The byte at `a`, noted as read in a traced run.
    pub fn read_byte(&mut self, a: u32) -> FResult<u8> {
        let v = self
            .mem
            .get(a as usize)
            .copied()
            .ok_or_else(|| ForthError::new(K::Memory(a as i64)))?;
        if self.tracing {
            self.trace.read(a, 1, v as i32, false);
        }
        Ok(v)
    }

    /// Stores a byte at `a`.
    pub fn set_byte(&mut self, a: u32, v: u8) -> FResult<()> {
        self.note_write(a, 1, None);
        match self.mem.byte_mut(a as usize) {
            Some(b) => {
                *b = v;
                Ok(())
            }
            None => Err(K::Memory(a as i64).into()),
        }
    }

    /// `len` bytes at `a`.
    pub fn bytes(&self, a: u32, len: u32) -> FResult<&[u8]> {
        self.note_string_read();
        let i = a as usize;
        self.mem
            .get(i..i + len as usize)
            .ok_or_else(|| K::Memory(a as i64).into())
    }

    /// The NUL-terminated string at `a` (without the NUL).
    pub fn cstr(&self, a: u32) -> FResult<&[u8]> {
        self.note_string_read();
        let rest = self
            .mem
            .get(a as usize..)
            .ok_or_else(|| ForthError::new(K::Memory(a as i64)))?;
        match nul_position(rest) {
            Some(n) => Ok(&rest[..n]),
            None => Err(K::Memory(self.mem.len() as i64).into()),
        }
    }

    /// The NUL-terminated string at `a`, as text.
    pub fn cstring(&self, a: u32) -> String {
        self.cstr(a)
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default()
    }

    /// Writes `s` and a NUL at `a`.
    pub fn write_cstr(&mut self, a: u32, s: &[u8]) -> FResult<()> {
        self.note_write(a, s.len() as u32 + 1, None);
        let i = a as usize;
        let dst = self
            .mem
            .range_mut(i..i + s.len() + 1)
            .ok_or_else(|| ForthError::new(K::Memory(a as i64)))?;
        dst[..s.len()].copy_from_slice(s);
        dst[s.len()] = 0;
        Ok(())
    }

    /// Writes `b` at `a`.
    pub fn write_bytes(&mut self, a: u32, b: &[u8]) -> FResult<()> {
        let i = a as usize;
        if self.mem.get(i..i + b.len()).is_none() {
            self.note_write(a, b.len() as u32, None);
            return Err(K::Memory(a as i64).into());
        }
        if self.tracing {
            self.trace.write(a, b.len() as u32, None);
        }
        // Only the cells whose bytes change are written, as far as watchers can see
        // (restoring a snapshot rewrites the whole board, mostly with its own values).
        if any_bit(&self.watch_bits, a, b.len() as u32) && self.mem[i..i + b.len()] != *b {
            let first = a / CELL;
            let last = (a + b.len() as u32 - 1) / CELL;
            for c in first..=last {
                // Unwatched cells (most of a copy) are not compared.
                let watched = self
                    .watch_bits
                    .get((c / 64) as usize)
                    .is_some_and(|bits| bits & (1 << (c % 64)) != 0);
                if !watched {
                    continue;
                }
                let lo = (c * CELL).max(a);
                let hi = ((c + 1) * CELL).min(a + b.len() as u32);
                let (o, n) = ((lo - a) as usize, (hi - a) as usize);
                if self.mem[i + o..i + n] != b[o..n] {
                    self.watched_write(lo, hi - lo);
                }
            }
        }
        if let Some(d) = self.mem.range_mut(i..i + b.len()) {
            d.copy_from_slice(b);
        }
        Ok(())
    }

    /// Writes `times` copies of the `size` bytes at `src` one after the other from `dst`,
    /// then lets `place` change copy `i` (its bytes) as it must differ: what writing the
    /// copies, each placed, with [`Vm::write_bytes`] does, with the bytes copied in place
    /// (a run of a move's records, `crate::axiom`'s copies of a pass). Returns false, having
    /// written nothing, when it cannot do so that way: a trace runs, a watched cell is in
    /// the way, or the ranges overlap or leave the memory (the caller then writes them
    /// with [`Vm::write_bytes`], which sees to all that).
    pub fn write_copies(
        &mut self,
        (src, size): (u32, u32),
        dst: u32,
        times: u32,
        mut place: impl FnMut(u32, &mut [u8]),
    ) -> bool {
        let Some(total) = size.checked_mul(times).filter(|&t| t > 0) else {
            return false;
        };
        let (s, d, n, t) = (src as usize, dst as usize, size as usize, total as usize);
        let fits = s.checked_add(n).is_some_and(|e| e <= d)
            && d.checked_add(t).is_some_and(|e| e <= self.mem.len());
        if !fits || self.tracing || any_bit(&self.watch_bits, dst, total) {
            return false;
        }
        let Some(m) = self.mem.range_mut(s..d + t) else {
            return false;
        };
        let d = d - s;
        m.copy_within(0..n, d);
        // Each pass copies what is done so far: the run doubles.
        let mut done = n;
        while done < t {
            let more = done.min(t - done);
            m.copy_within(d..d + more, d + done);
            done += more;
        }
        for (i, copy) in m[d..d + t].chunks_exact_mut(n).enumerate() {
            place(i as u32, copy);
        }
        true
    }

    /// The dictionary pointer (`HERE`).
    #[inline]
    pub fn here(&self) -> u32 {
        self.cell(A_DP).unwrap_or(0) as u32
    }

    /// The size of the memory, in bytes.
    #[inline]
    pub fn mem_len(&self) -> u32 {
        self.mem.len() as u32
    }

    /// Bytes free above `HERE`.
    #[inline]
    pub fn room(&self) -> u32 {
        (self.mem.len() as u32).saturating_sub(self.here())
    }

    /// Sets the dictionary pointer.
    #[inline]
    pub fn set_here(&mut self, a: u32) -> FResult<()> {
        if a as usize > self.mem.len() {
            return Err(K::DictionaryFull.into());
        }
        self.set_cell(A_DP, a as i32)
    }

    /// Reserves `n` bytes at `HERE`.
    pub fn allot(&mut self, n: u32) -> FResult<u32> {
        let h = self.here();
        let end = h
            .checked_add(n)
            .ok_or_else(|| ForthError::new(K::DictionaryFull))?;
        if end as usize > self.mem.len() {
            return Err(K::DictionaryFull.into());
        }
        self.set_cell(A_DP, end as i32)?;
        Ok(h)
    }

    /// Compiles `cells` at `HERE` (as many `,`s, with one bounds check and one update of
    /// the dictionary pointer); returns the address of the first.
    #[inline]
    pub fn comma_cells(&mut self, cells: &[i32]) -> FResult<u32> {
        let h = self.here();
        let end = (h as usize).saturating_add(cells.len() * CELL as usize);
        self.note_write(h, (end as u32).wrapping_sub(h), None);
        let Some(dst) = self.mem.range_mut(h as usize..end) else {
            return Err(K::DictionaryFull.into());
        };
        for (d, v) in dst.chunks_exact_mut(CELL as usize).zip(cells) {
            d.copy_from_slice(&v.to_le_bytes());
        }
        self.set_cell(A_DP, end as i32)?;
        Ok(h)
    }

    /// Reserves `n` bytes at `HERE`, zeroed (one bounds check and one update of the
    /// dictionary pointer); returns their address.
    #[inline]
    pub fn allot_zeroed(&mut self, n: u32) -> FResult<u32> {
        let h = self.here();
        let end = (h as usize).saturating_add(n as usize);
        self.note_write(h, n, None);
        let Some(dst) = self.mem.range_mut(h as usize..end) else {
            return Err(K::DictionaryFull.into());
        };
        dst.fill(0);
        self.set_cell(A_DP, end as i32)?;
        Ok(h)
    }

    /// Compiles a cell at `HERE` (`,`).
    #[inline(always)]
    pub fn comma(&mut self, v: i32) -> FResult<()> {
        let h = self.here();
        if h as usize + 4 > self.mem.len() {
            return Err(K::DictionaryFull.into());
        }
        self.set_cell(h, v)?;
        self.set_cell(A_DP, (h + 4) as i32)
    }

    fn align_here(&mut self) -> FResult<()> {
        let h = self.here();
        let a = h.div_ceil(CELL) * CELL;
        self.set_here(a)
    }

    /// `STATE`: true while compiling.
    pub fn compiling(&self) -> bool {
        self.cell(A_STATE).unwrap_or(0) != 0
    }

    pub(crate) fn set_state(&mut self, on: bool) {
        let _ = self.set_cell(A_STATE, if on { 1 } else { 0 });
    }

    /// `BASE`.
    pub fn base(&self) -> u32 {
        let b = self.cell(A_BASE).unwrap_or(10);
        if (2..=36).contains(&b) { b as u32 } else { 10 }
    }

    // ----- stacks -----

    /// Pushes a cell on the data stack.
    #[inline(always)]
    pub fn push(&mut self, v: i32) -> FResult<()> {
        if self.ds.len() >= self.limits.data_stack {
            return Err(K::StackOverflow.into());
        }
        self.ds.push(v);
        Ok(())
    }

    /// Pops a cell from the data stack.
    #[inline(always)]
    pub fn pop(&mut self) -> FResult<i32> {
        match self.ds.pop() {
            Some(v) => Ok(v),
            None => Err(ForthError::new(K::StackUnderflow)),
        }
    }

    /// Pops a boolean (non-zero is true).
    pub fn pop_flag(&mut self) -> FResult<bool> {
        Ok(self.pop()? != 0)
    }

    /// Pushes a Forth flag (true is -1).
    pub fn push_flag(&mut self, b: bool) -> FResult<()> {
        self.push(if b { -1 } else { 0 })
    }

    /// The data stack, bottom first.
    pub fn stack(&self) -> &[i32] {
        &self.ds
    }

    /// Whether the bottom `depth` cells of the data stack are `cells` (false when the
    /// stack is shallower). The caches ask it once or twice a ply, almost always of an
    /// empty stack: that case is answered without calling the library's `memcmp`, whose
    /// AVX-512 version compares zero bytes by a masked load at the empty slice's dangling
    /// address. On an AMD EPYC (Zen 5) such a load took hundreds of cycles (a fault
    /// suppressed by microcode, by all signs): 6% of a published Ur match's time.
    pub fn stack_is(&self, depth: usize, cells: &[i32]) -> bool {
        depth == cells.len() && self.ds.len() >= depth && (depth == 0 || self.ds[..depth] == *cells)
    }

    /// Cuts the data stack down to `depth` items (no effect when it is shorter).
    pub fn ds_truncate(&mut self, depth: usize) {
        self.ds.truncate(depth);
    }

    /// Brings the data stack to exactly `depth` items: cut down, or filled up with zeros
    /// when the code that ran took more than it was given (see [`Vm::push_cushion`]).
    pub fn ds_restore(&mut self, depth: usize) {
        self.ds.resize(depth.min(self.limits.data_stack), 0);
    }

    /// Pushes `n` zero cells (as far as the stack's limit allows): a cushion under code
    /// that may take more than it is given, as Axiom's unchecked stack allows.
    pub fn push_cushion(&mut self, n: usize) {
        let room = self.limits.data_stack.saturating_sub(self.ds.len());
        let new_len = self.ds.len() + n.min(room);
        self.ds.resize(new_len, 0);
    }

    /// Empties both stacks.
    pub fn clear_stacks(&mut self) {
        self.ds.clear();
        self.rs.clear();
        self.rs_floor = 0;
    }

    #[inline(always)]
    fn rpush(&mut self, v: i32) -> FResult<()> {
        if self.rs.len() >= self.limits.return_stack {
            return Err(K::ReturnStack.into());
        }
        self.rs.push(v);
        Ok(())
    }

    #[inline(always)]
    fn rpop(&mut self) -> FResult<i32> {
        if self.rs.len() <= self.rs_floor {
            return Err(K::ReturnStack.into());
        }
        self.rs.pop().ok_or_else(|| ForthError::new(K::ReturnStack))
    }

    #[inline(always)]
    fn rpeek(&self, depth: usize) -> FResult<i32> {
        let n = self.rs.len();
        if n < self.rs_floor + depth + 1 {
            return Err(K::ReturnStack.into());
        }
        Ok(self.rs[n - 1 - depth])
    }

    // ----- step budget -----

    /// Allows `n` more primitives before [`ForthErrorKind::StepBudget`].
    ///
    /// [`ForthErrorKind::StepBudget`]: super::error::ForthErrorKind::StepBudget
    pub fn set_step_budget(&mut self, n: u64) {
        self.steps = 0;
        self.step_limit = n;
    }

    /// The step count and its limit, for a host word that runs nested work under a budget
    /// of its own and then puts the caller's back ([`Vm::set_budget_state`]).
    pub fn budget_state(&self) -> (u64, u64) {
        (self.steps, self.step_limit)
    }

    /// Puts back a budget saved by [`Vm::budget_state`], with `used` more steps counted;
    /// fails when that exceeds the limit.
    pub fn set_budget_state(&mut self, (steps, limit): (u64, u64), used: u64) -> FResult<()> {
        self.steps = steps.saturating_add(used);
        self.step_limit = limit;
        if self.steps > limit {
            return Err(K::StepBudget(limit).into());
        }
        Ok(())
    }

    /// Primitives run since the budget was set.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Counts `n` more steps; fails with [`ForthErrorKind::StepBudget`] when that exceeds
    /// the budget (a host word's own work, counted before or as it is done).
    ///
    /// [`ForthErrorKind::StepBudget`]: super::error::ForthErrorKind::StepBudget
    #[inline]
    pub fn charge_steps(&mut self, n: u64) -> FResult<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.step_limit {
            return Err(K::StepBudget(self.step_limit).into());
        }
        Ok(())
    }

    /// Counts bulk work of `bytes` bytes: one step per [`BYTES_PER_STEP`].
    #[inline]
    pub fn charge_bytes(&mut self, bytes: u64) -> FResult<()> {
        match bytes / BYTES_PER_STEP {
            0 => Ok(()),
            n => self.charge_steps(n),
        }
    }

    /// [`Vm::cstr`], its scan charged ([`Vm::charge_bytes`]): the bytes up to the NUL, or
    /// to the end of the memory when there is none.
    pub fn charged_cstr(&mut self, a: u32) -> FResult<&[u8]> {
        let i = a as usize;
        let (scanned, len) = match self.mem.get(i..) {
            Some(rest) => match nul_position(rest) {
                Some(n) => (n + 1, Some(n)),
                None => (rest.len(), None),
            },
            None => (0, None),
        };
        self.charge_bytes(scanned as u64)?;
        match len.and_then(|n| self.mem.get(i..i + n)) {
            Some(s) => {
                self.note_string_read();
                Ok(s)
            }
            // (The error `cstr` gives.)
            None => self.cstr(a),
        }
    }

    // ----- dictionary -----

    /// The NFA of the latest word.
    pub fn latest(&self) -> u32 {
        let voc = self.cell(A_CURRENT).unwrap_or(A_VOCABULARY as i32) as u32;
        self.cell(voc).unwrap_or(0) as u32
    }

    fn set_flags_of_latest(&mut self, flag: i32) {
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

    /// Brings the dictionary index up to date ([`super::dict`]): a stale one is rebuilt
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
    fn annotate(&self, mut e: ForthError, ip: u32) -> ForthError {
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

    // ----- execution -----

    /// Says whether the caller catches `$Exit` (`ExitMove`) itself, as a move generator
    /// does around a move word; returns the previous setting, for the caller to restore.
    pub(crate) fn set_exit_caught(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.exit_caught, on)
    }

    /// Runs the word whose execution token (CFA) is `xt` until it returns. Re-entrant: host
    /// words may call it. On error the return stack is restored; the data stack is left as
    /// it was at the failure.
    pub fn execute(&mut self, xt: u32, host: &mut dyn Host) -> FResult<()> {
        let rs_len = self.rs.len();
        let floor = self.rs_floor;
        self.rs_floor = rs_len;
        let mut ip = A_ENTRY + 4;
        let mut steps = self.steps;
        let r = if self.tracing {
            self.run::<true>(xt, &mut ip, &mut steps, host)
        } else {
            self.run::<false>(xt, &mut ip, &mut steps, host)
        };
        self.steps = steps;
        let r = r.map_err(|e| match e.kind {
            // Not an error but a move word's way out, caught by the move generator at once:
            // naming the word and the place would be work thrown away (a fifth of a race
            // game's time). Anywhere else it is an error like the others.
            K::ExitMove if self.exit_caught => e,
            _ => {
                let e = self.annotate(e, ip);
                self.add_call_site(e, rs_len)
            }
        });
        self.rs.truncate(rs_len);
        self.rs_floor = floor;
        r
    }

    /// When `e` happened in the runtime files or has no place, names the innermost call
    /// found among the return addresses above `rs_len` that lies in the program's own files.
    fn add_call_site(&self, mut e: ForthError, rs_len: usize) -> ForthError {
        let in_runtime = e
            .place
            .as_ref()
            .is_none_or(|p| crate::forth::lint::is_runtime_file(&p.file));
        if e.called_from.is_some() || !in_runtime {
            return e;
        }
        let frames = self.rs.get(rs_len..).unwrap_or(&[]);
        for &ret in frames.iter().rev() {
            let at = (ret as u32).wrapping_sub(CELL);
            let Some(place) = self.origins.get(&at).and_then(|o| self.place_of(*o)) else {
                continue;
            };
            if !crate::forth::lint::is_runtime_file(&place.file) {
                e.called_from = Some((place, self.word_containing(at)));
                break;
            }
        }
        e
    }

    /// The inner interpreter. The step count lives in `steps` (a local of
    /// [`Vm::execute`], kept in a register) and is written to `self.steps` only around
    /// calls that may read it or run nested code: host words and the other primitives.
    #[inline(always)]
    fn run<const T: bool>(
        &mut self,
        xt: u32,
        ip: &mut u32,
        steps: &mut u64,
        host: &mut dyn Host,
    ) -> FResult<()> {
        let mut w = xt;
        let mut limit = self.step_limit;
        loop {
            *steps += 1;
            if *steps > limit {
                return Err(K::StepBudget(limit).into());
            }
            let code = match self.code_rd::<T>(w) {
                Ok(c) => c,
                Err(_) => return Err(K::BadXt(w as i32).into()),
            };
            match code {
                // Guards first, so that every primitive number below is one jump table.
                c if c < 0 => {
                    // A word made by a DOES> defining word.
                    let body = !c as u32;
                    if self.is_fetch_exit::<T>(body) {
                        // A constant (`DOES> @`): its value in one dispatch instead of
                        // three, counted as the three steps it stands for.
                        *steps += 2;
                        if *steps > limit {
                            return Err(K::StepBudget(limit).into());
                        }
                        let v = self.code_rd::<T>(w + CELL)?;
                        self.push(v)?;
                    } else {
                        self.push((w + CELL) as i32)?;
                        self.rpush(*ip as i32)?;
                        *ip = body;
                    }
                }
                c if c >= NATIVE_BASE => {
                    self.steps = *steps;
                    let id = (c - NATIVE_BASE) as u32;
                    if T {
                        self.trace_native(id, host);
                    }
                    let r = host.native(self, id);
                    if T {
                        self.trace.in_native = false;
                    }
                    // (A host word may also have set a new budget.)
                    (*steps, limit) = (self.steps, self.step_limit);
                    r?;
                }
                p::DOCOL => {
                    if let Some(v) = self.var_fetch_exit::<T>(w + CELL) {
                        // `: name VAR @ ;` (Axiom's `here`, `from`, `current-player`…):
                        // the variable's value in one dispatch, counted as the four steps
                        // it stands for.
                        *steps += 3;
                        if *steps > limit {
                            return Err(K::StepBudget(limit).into());
                        }
                        self.push(v)?;
                    } else {
                        self.rpush(*ip as i32)?;
                        *ip = w + CELL;
                    }
                }
                p::EXIT => *ip = self.rpop()? as u32,
                p::LIT => {
                    let v = self.code_rd::<T>(*ip)?;
                    *ip += CELL;
                    self.push(v)?;
                }
                p::BRANCH => *ip = self.code_rd::<T>(*ip)? as u32,
                p::ZBRANCH => {
                    if self.pop()? == 0 {
                        *ip = self.code_rd::<T>(*ip)? as u32;
                    } else {
                        *ip += CELL;
                    }
                }
                p::HALT => return Ok(()),
                p::DOVAR => {
                    // `VAR @`, the commonest pair in Axiom's code, in one dispatch, counted
                    // as the two steps it stands for.
                    let fetch = self.prim_xts[p::FETCH as usize];
                    if self.code_rd::<T>(*ip).ok() == Some(fetch as i32) {
                        *steps += 1;
                        if *steps > limit {
                            return Err(K::StepBudget(limit).into());
                        }
                        *ip += CELL;
                        let v = self.rd::<T>(w + CELL)?;
                        self.push(v)?;
                    } else {
                        self.push((w + CELL) as i32)?;
                    }
                }
                p::EXECUTE => {
                    w = self.pop()? as u32;
                    // The pseudo tokens of the VM's own threads are no words.
                    if w == UNDEFINED_XT || w == HALT_XT {
                        return Err(K::BadXt(w as i32).into());
                    }
                    continue;
                }
                p::DO => {
                    let start = self.pop()?;
                    let limit = self.pop()?;
                    self.rpush(limit)?;
                    self.rpush(start)?;
                }
                p::LOOP => {
                    let i = self.rpeek(0)?.wrapping_add(1);
                    let limit = self.rpeek(1)?;
                    if i < limit {
                        let n = self.rs.len();
                        self.rs[n - 1] = i;
                        *ip = self.code_rd::<T>(*ip)? as u32;
                    } else {
                        self.rpop()?;
                        self.rpop()?;
                        *ip += CELL;
                    }
                }
                p::PLUSLOOP => {
                    let step = self.pop()?;
                    let i = self.rpeek(0)?.wrapping_add(step);
                    let limit = self.rpeek(1)?;
                    let go_on = if step >= 0 { i < limit } else { i >= limit };
                    if go_on {
                        let n = self.rs.len();
                        self.rs[n - 1] = i;
                        *ip = self.code_rd::<T>(*ip)? as u32;
                    } else {
                        self.rpop()?;
                        self.rpop()?;
                        *ip += CELL;
                    }
                }
                p::LEAVE => {
                    // The loop's two cells must be this run's (above the floor): `LEAVE`
                    // outside a loop fails rather than write a caller's frame or index
                    // below the stack.
                    self.rpeek(1)?;
                    let i = self.rpeek(0)?;
                    let n = self.rs.len();
                    self.rs[n - 2] = i;
                }
                p::DOES => {
                    // Runtime of DOES>: the latest word runs the code after DOES>.
                    let nfa = self.latest();
                    self.set_cell(nfa.wrapping_add(12), !(*ip as i32))?;
                    *ip = self.rpop()? as u32;
                }
                p::COMPILE => {
                    let v = self.code_rd::<T>(*ip)?;
                    *ip += CELL;
                    self.comma(v)?;
                }
                // The words that may run nested code or charge bulk work (the step count
                // in memory, around the call).
                p::LOAD
                | p::CMOVE
                | p::FILL
                | p::TYPE
                | p::SCOUNT
                | p::SMOVE
                | p::HEADER
                | p::ERROR
                | p::UNDEFINED => {
                    self.steps = *steps;
                    let r = self.primitive(code, host);
                    *steps = self.steps;
                    r?;
                }
                // The commonest primitives of Axiom's code, here rather than in
                // `primitive` (without its call).
                p::FETCH => {
                    let a = self.pop()? as u32;
                    let v = self.rd::<T>(a)?;
                    self.push(v)?;
                }
                p::STORE => {
                    let a = self.pop()? as u32;
                    let v = self.pop()?;
                    self.set_cell(a, v)?;
                }
                p::EQ => cmp!(self, |a, b| a == b),
                p::NOT | p::ZEQ => {
                    let a = self.pop()?;
                    self.push_flag(a == 0)?;
                }
                p::ADD => bin!(self, |a, b| a.wrapping_add(b)),
                p::AND => bin!(self, |a, b| a & b),
                p::OR => bin!(self, |a, b| a | b),
                p::DROP | p::FDROP => {
                    self.pop()?;
                }
                // (A float is one cell: the float stack words are the cell words.)
                p::DUP | p::FDUP => {
                    let a = *self
                        .ds
                        .last()
                        .ok_or_else(|| ForthError::new(K::StackUnderflow))?;
                    self.push(a)?;
                }
                p::SWAP | p::FSWAP => {
                    let n = self.ds.len();
                    if n < 2 {
                        return Err(K::StackUnderflow.into());
                    }
                    self.ds.swap(n - 1, n - 2);
                }
                p::OVER | p::FOVER => self.pick(1)?,
                p::TOR => {
                    let v = self.pop()?;
                    self.rpush(v)?;
                }
                p::RFROM => {
                    let v = self.rpop()?;
                    self.push(v)?;
                }
                p::RFETCH | p::R | p::I => {
                    let v = self.rpeek(0)?;
                    self.push(v)?;
                }
                p::SUB => bin!(self, |a, b| a.wrapping_sub(b)),
                p::MUL => bin!(self, |a, b| a.wrapping_mul(b)),
                p::INC => bin1(self, |a| a.wrapping_add(1))?,
                p::DEC => bin1(self, |a| a.wrapping_sub(1))?,
                p::LT => cmp!(self, |a, b| a < b),
                p::GT => cmp!(self, |a, b| a > b),
                p::ZNE => {
                    let a = self.pop()?;
                    self.push_flag(a != 0)?;
                }
                p::ZLT => {
                    let a = self.pop()?;
                    self.push_flag(a < 0)?;
                }
                p::ZGT => {
                    let a = self.pop()?;
                    self.push_flag(a > 0)?;
                }
                p::TRUE => self.push(-1)?,
                p::FALSE => self.push(0)?,
                _ => self.primitive(code, host)?,
            }
            let next = self.code_rd::<T>(*ip)?;
            *ip += CELL;
            w = next as u32;
        }
    }

    /// When the code at `body` is `VAR @ EXIT` (a colon definition that reads a variable),
    /// the variable's value.
    #[inline(always)]
    fn var_fetch_exit<const T: bool>(&mut self, body: u32) -> Option<i32> {
        let var = self.code_rd::<T>(body).ok()? as u32;
        if self.code_rd::<T>(var).ok()? != p::DOVAR
            || self.code_rd::<T>(body + CELL).ok()? != self.prim_xts[p::FETCH as usize] as i32
            || self.code_rd::<T>(body + 2 * CELL).ok()? != self.prim_xts[p::EXIT as usize] as i32
        {
            return None;
        }
        self.rd::<T>(var + CELL).ok()
    }

    /// Whether the code at `body` is `@ EXIT` (the body of a constant made by DOES>).
    #[inline(always)]
    fn is_fetch_exit<const T: bool>(&mut self, body: u32) -> bool {
        let (fetch, exit) = (
            self.prim_xts[p::FETCH as usize],
            self.prim_xts[p::EXIT as usize],
        );
        self.code_rd::<T>(body).ok() == Some(fetch as i32)
            && self.code_rd::<T>(body + CELL).ok() == Some(exit as i32)
    }

    /// Notes the call of host word `id` in a traced run (see [`NativeClass`]).
    #[cold]
    fn trace_native(&mut self, id: u32, host: &dyn Host) {
        let t = &mut self.trace;
        match host.native_class(id) {
            NativeClass::Pure => {}
            NativeClass::Replay(n) => {
                let n = n as usize;
                match self.ds.len().checked_sub(n) {
                    Some(at) if n <= MAX_REPLAY_ARGS => {
                        t.native(id, &self.ds[at..]);
                        t.in_native = true;
                    }
                    _ => t.taint("a host word without its arguments"),
                }
            }
            NativeClass::Opaque => t.taint("a host word that cannot be replayed"),
        }
    }

    /// The primitives that do not touch the instruction pointer, other than the commonest
    /// ones, which the inner interpreter runs itself.
    fn primitive(&mut self, code: i32, host: &mut dyn Host) -> FResult<()> {
        if self.tracing && !replayable_primitive(code) {
            self.note_effect("a primitive that compiles, reads text or writes output");
        }
        macro_rules! fbin {
            (|$a:ident, $b:ident| $e:expr) => {{
                let $b = f32::from_bits(self.pop()? as u32);
                let $a = f32::from_bits(self.pop()? as u32);
                self.push(($e as f32).to_bits() as i32)?;
            }};
        }
        macro_rules! fcmp {
            (|$a:ident, $b:ident| $e:expr) => {{
                let $b = f32::from_bits(self.pop()? as u32);
                let $a = f32::from_bits(self.pop()? as u32);
                self.push_flag($e)?;
            }};
        }
        match code {
            p::ROT => {
                let c = self.pop()?;
                let b = self.pop()?;
                let a = self.pop()?;
                self.push(b)?;
                self.push(c)?;
                self.push(a)?;
            }
            p::MROT => {
                let c = self.pop()?;
                let b = self.pop()?;
                let a = self.pop()?;
                self.push(c)?;
                self.push(a)?;
                self.push(b)?;
            }
            p::NIP => {
                let b = self.pop()?;
                self.pop()?;
                self.push(b)?;
            }
            p::TUCK => {
                let b = self.pop()?;
                let a = self.pop()?;
                self.push(b)?;
                self.push(a)?;
                self.push(b)?;
            }
            p::QDUP => {
                let a = *self
                    .ds
                    .last()
                    .ok_or_else(|| ForthError::new(K::StackUnderflow))?;
                if a != 0 {
                    self.push(a)?;
                }
            }
            p::TWODUP | p::F2DUP => {
                self.pick(1)?;
                self.pick(1)?;
            }
            p::TWODROP => {
                self.pop()?;
                self.pop()?;
            }
            p::TWOSWAP => {
                let d = self.pop()?;
                let c = self.pop()?;
                let b = self.pop()?;
                let a = self.pop()?;
                for v in [c, d, a, b] {
                    self.push(v)?;
                }
            }
            p::TWOOVER => {
                self.pick(3)?;
                self.pick(3)?;
            }
            p::PICK => {
                let n = self.pop()?;
                if n < 0 {
                    return Err(K::StackUnderflow.into());
                }
                self.pick(n as usize)?;
            }
            p::ROLL => {
                let n = self.pop()?;
                let len = self.ds.len();
                if n < 0 || n as usize >= len {
                    return Err(K::StackUnderflow.into());
                }
                let v = self.ds.remove(len - 1 - n as usize);
                self.push(v)?;
            }
            p::DEPTH => self.push(self.ds.len() as i32)?,
            p::J => {
                let v = self.rpeek(2)?;
                self.push(v)?;
            }
            p::DIV => {
                let b = self.pop()?;
                let a = self.pop()?;
                if b == 0 {
                    return Err(K::DivisionByZero.into());
                }
                self.push(a.wrapping_div(b))?;
            }
            p::MOD => {
                let b = self.pop()?;
                let a = self.pop()?;
                if b == 0 {
                    return Err(K::DivisionByZero.into());
                }
                self.push(a.wrapping_rem(b))?;
            }
            p::DIVMOD => {
                let b = self.pop()?;
                let a = self.pop()?;
                if b == 0 {
                    return Err(K::DivisionByZero.into());
                }
                self.push(a.wrapping_rem(b))?;
                self.push(a.wrapping_div(b))?;
            }
            p::MULDIV => {
                let c = self.pop()?;
                let b = self.pop()?;
                let a = self.pop()?;
                if c == 0 {
                    return Err(K::DivisionByZero.into());
                }
                self.push(((a as i64 * b as i64) / c as i64) as i32)?;
            }
            p::INC2 => bin1(self, |a| a.wrapping_add(2))?,
            p::DEC2 => bin1(self, |a| a.wrapping_sub(2))?,
            p::MUL2 => bin1(self, |a| a.wrapping_shl(1))?,
            p::DIV2 => bin1(self, |a| a >> 1)?,
            p::NEGATE => bin1(self, |a| a.wrapping_neg())?,
            p::ABS => bin1(self, |a| a.wrapping_abs())?,
            p::MIN => bin!(self, |a, b| a.min(b)),
            p::MAX => bin!(self, |a, b| a.max(b)),
            p::XOR => bin!(self, |a, b| a ^ b),
            p::INVERT => bin1(self, |a| !a)?,
            p::LSHIFT => bin!(self, |a, b| if (0..32).contains(&b) {
                ((a as u32) << b) as i32
            } else {
                0
            }),
            p::RSHIFT => bin!(self, |a, b| if (0..32).contains(&b) {
                ((a as u32) >> b) as i32
            } else {
                0
            }),
            p::NE => cmp!(self, |a, b| a != b),
            p::LE => cmp!(self, |a, b| a <= b),
            p::GE => cmp!(self, |a, b| a >= b),
            p::ULT => cmp!(self, |a, b| (a as u32) < (b as u32)),
            p::CFETCH => {
                let a = self.pop()? as u32;
                let v = self.read_byte(a)?;
                self.push(v as i32)?;
            }
            p::CSTORE => {
                let a = self.pop()? as u32;
                let v = self.pop()?;
                self.set_byte(a, v as u8)?;
            }
            p::PLUSSTORE => {
                let a = self.pop()? as u32;
                let v = self.pop()?;
                let old = self.read_cell(a)?;
                self.set_cell(a, old.wrapping_add(v))?;
            }
            p::INCR | p::DECR => {
                let a = self.pop()? as u32;
                let old = self.read_cell(a)?;
                let d = if code == p::INCR { 1 } else { -1 };
                self.set_cell(a, old.wrapping_add(d))?;
            }
            p::CMOVE => {
                let n = self.pop()?;
                let dst = self.pop()? as u32;
                let src = self.pop()? as u32;
                if n > 0 {
                    let n = n as u32;
                    self.bytes(src, n)?;
                    self.bytes(dst, n)?;
                    self.charge_bytes(n as u64)?;
                    self.note_write(dst, n, None);
                    self.mem.cmove(src as usize, dst as usize, n as usize);
                }
            }
            p::FILL => {
                let c = self.pop()?;
                let n = self.pop()?;
                let a = self.pop()? as u32;
                if n > 0 {
                    self.bytes(a, n as u32)?;
                    self.charge_bytes(n as u64)?;
                    self.note_write(a, n as u32, None);
                    let a = a as usize;
                    if let Some(b) = self.mem.range_mut(a..a + n as usize) {
                        b.fill(c as u8);
                    }
                }
            }
            p::COMMA => {
                let v = self.pop()?;
                self.comma(v)?;
            }
            p::CCOMMA => {
                let v = self.pop()?;
                let h = self.allot(1)?;
                self.set_byte(h, v as u8)?;
            }
            p::HERE => self.push(self.here() as i32)?,
            p::PADW => self.push(PAD as i32)?,
            p::STATE => self.push(A_STATE as i32)?,
            p::BASE => self.push(A_BASE as i32)?,
            p::DP => self.push(A_DP as i32)?,
            p::CURRENT => self.push(A_CURRENT as i32)?,
            p::CONTEXT => self.push(A_CONTEXT as i32)?,
            p::COLON => {
                let name = self.parse_name()?;
                self.create_header(&name, p::DOCOL)?;
                self.set_flags_of_latest(FLAG_HIDDEN);
                self.set_state(true);
            }
            p::SEMI => {
                let xt = self.primitive_xt(p::EXIT)?;
                self.comma(xt as i32)?;
                self.clear_flags_of_latest(FLAG_HIDDEN);
                self.set_state(false);
            }
            p::IMMEDIATE => self.set_flags_of_latest(FLAG_IMMEDIATE),
            p::LBRACKET => self.set_state(false),
            p::RBRACKET => self.set_state(true),
            p::BUILDS | p::CREATE => {
                let name = self.parse_name()?;
                self.create_header(&name, p::DOVAR)?;
            }
            p::HEADER => {
                let a = self.pop()? as u32;
                let name = self.charged_cstr(a)?.to_vec();
                self.create_header(&name, p::DOVAR)?;
            }
            p::DOESC => {
                let xt = self.primitive_xt(p::DOES)?;
                self.comma(xt as i32)?;
            }
            p::WORD => {
                let delim = self.pop()? as u8;
                self.parse_into_pad(delim)?;
            }
            p::MFIND => {
                self.parse_into_pad(b' ')?;
                let name = self.cstr(PAD)?.to_vec();
                self.sync_dict_index();
                // Spelled exactly: a program asks `-FIND` whether it has defined a name
                // yet (Axiom's `{move-type}` defines a move type it does not find), and
                // Splut's `continue-type` is not its `CONTINUE-TYPE`.
                let nfa = self.lookup(&name, false)?.unwrap_or(0);
                self.push(nfa as i32)?;
            }
            p::CFATOPFA => bin1(self, |a| a.wrapping_add(CELL as i32))?,
            p::NUMBERSTR => {
                let n = self.pop()?;
                let s = self.format_number(n, false);
                self.write_cstr(PAD, s.as_bytes())?;
            }
            p::LOAD => {
                self.parse_into_pad(b' ')?;
                let name = self.cstring(PAD);
                self.load_named(&name, host)?;
            }
            p::UNDEFINED => {
                let a = self.pop()? as u32;
                if self.lint.is_some() {
                    // Recorded; the caller gets the placeholder's execution token.
                    self.lint_undefined_tick(a)?;
                    return Ok(());
                }
                self.charged_cstr(a)?;
                return Err(K::UndefinedWord(self.cstring(a)).into());
            }
            p::UNDEF => {
                return Err(K::UndefinedWord(super::lint::PLACEHOLDER.into()).into());
            }
            p::ERROR => {
                let a = self.pop()? as u32;
                self.charged_cstr(a)?;
                return Err(K::Abort(self.cstring(a)).into());
            }
            p::ABORT => return Err(K::Abort("ABORT".into()).into()),
            p::EMIT => {
                let c = self.pop()?;
                self.emit(&[c as u8]);
            }
            p::TYPE => {
                let a = self.pop()? as u32;
                let s = self.charged_cstr(a)?.to_vec();
                self.emit(&s);
            }
            p::DOT | p::UDOT => {
                let n = self.pop()?;
                let s = self.format_number(n, code == p::UDOT);
                self.emit(s.as_bytes());
                self.emit(b" ");
            }
            p::SCOUNT => {
                let a = self.pop()? as u32;
                let n = self.charged_cstr(a)?.len();
                self.push(n as i32)?;
            }
            p::SMOVE => {
                let dst = self.pop()? as u32;
                let src = self.pop()? as u32;
                // (The scan charged pays for the copy as well: both are `BYTES_PER_STEP`
                // bytes a step.)
                let s = self.charged_cstr(src)?.to_vec();
                self.write_cstr(dst, &s)?;
            }
            p::FADD => fbin!(|a, b| a + b),
            p::FSUB => fbin!(|a, b| a - b),
            p::FMUL => fbin!(|a, b| a * b),
            p::FDIV => fbin!(|a, b| a / b),
            p::FLT => fcmp!(|a, b| a < b),
            p::FGT => fcmp!(|a, b| a > b),
            p::FEQ => fcmp!(|a, b| a == b),
            p::FZLT => {
                let a = f32::from_bits(self.pop()? as u32);
                self.push_flag(a < 0.0)?;
            }
            p::FZEQ => {
                let a = f32::from_bits(self.pop()? as u32);
                self.push_flag(a == 0.0)?;
            }
            p::STOF => {
                let a = self.pop()?;
                self.push((a as f32).to_bits() as i32)?;
            }
            p::FTOS => {
                let a = f32::from_bits(self.pop()? as u32);
                // `as` saturates and maps NaN to 0: never a panic.
                self.push(a as i32)?;
            }
            p::FDOT => {
                let a = f32::from_bits(self.pop()? as u32);
                let s = format!("{a} ");
                self.emit(s.as_bytes());
            }
            other => return Err(K::BadXt(other).into()),
        }
        Ok(())
    }

    #[inline(always)]
    fn pick(&mut self, n: usize) -> FResult<()> {
        let len = self.ds.len();
        if n >= len {
            return Err(K::StackUnderflow.into());
        }
        let v = self.ds[len - 1 - n];
        self.push(v)
    }

    /// The execution token of a primitive.
    pub(crate) fn primitive_xt(&self, id: i32) -> FResult<u32> {
        match self.prim_xts.get(id as usize) {
            Some(&xt) if xt != 0 => Ok(xt),
            _ => Err(K::BadXt(id).into()),
        }
    }
}

/// The flag [`Vm::cell`] and the other `&self` readers raise in a traced run (an atomic,
/// so that a VM can be shared between threads).
#[derive(Debug, Default)]
struct UnnotedRead(AtomicBool);

impl Clone for UnnotedRead {
    fn clone(&self) -> Self {
        UnnotedRead(AtomicBool::new(self.0.load(Ordering::Relaxed)))
    }
}

/// Whether a traced run may run primitive `code` (those that only compute, move the
/// stacks and read or write cells).
fn replayable_primitive(code: i32) -> bool {
    !matches!(
        code,
        p::COLON
            | p::SEMI
            | p::IMMEDIATE
            | p::LBRACKET
            | p::RBRACKET
            | p::BUILDS
            | p::DOESC
            | p::CREATE
            | p::HEADER
            | p::WORD
            | p::MFIND
            | p::NUMBERSTR
            | p::LOAD
            | p::UNDEFINED
            | p::ERROR
            | p::ABORT
            | p::EMIT
            | p::TYPE
            | p::DOT
            | p::UDOT
            | p::FDOT
            | p::SCOUNT
            | p::SMOVE
            | p::CMOVE
            | p::FILL
            | p::CCOMMA
            | p::UNDEF
    )
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

/// Where the first NUL of `b` is. Eight bytes at a time: a program may scan megabytes (a
/// string without its end, `"COUNT` in a loop), and the scan is what the step budget
/// charges by the byte ([`BYTES_PER_STEP`]), so it must be about as fast as a copy.
#[inline]
fn nul_position(b: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().unwrap_or([1; 8]));
        // (A word has a zero byte iff this is non-zero.)
        if w.wrapping_sub(LO) & !w & HI != 0 {
            return c.iter().position(|&x| x == 0).map(|n| at + n);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&x| x == 0)
        .map(|n| at + n)
}

/// Applies `f` to the top of the data stack.
#[inline(always)]
fn bin1(vm: &mut Vm, f: impl Fn(i32) -> i32) -> FResult<()> {
    match vm.ds.last_mut() {
        Some(v) => {
            *v = f(*v);
            Ok(())
        }
        None => Err(K::StackUnderflow.into()),
    }
}

#[cfg(test)]
mod bit_tests {
    use super::*;

    /// `write_copies` leaves what writing each placed copy leaves, for runs of every length
    /// up to past a doubling; it writes nothing where it cannot (a watched cell in the way,
    /// overlapping or outside ranges, a trace running).
    #[test]
    fn write_copies_is_each_copy_written() {
        let mut vm = Vm::new(crate::forth::Limits::default());
        let src = vm.here() + 64;
        let size = 12u32;
        let pattern: Vec<u8> = (0..size as u8).map(|b| b.wrapping_mul(13) ^ 0x3c).collect();
        vm.write_bytes(src, &pattern).unwrap();
        let dst = src + 40;
        let place =
            |i: u32, copy: &mut [u8]| copy[4..8].copy_from_slice(&(i * 3 + 1).to_le_bytes());
        for times in 1..=9u32 {
            vm.write_bytes(dst, &[0xee; 12 * 10]).unwrap();
            let mut want = [0xee; 12 * 10];
            for i in 0..times {
                let copy = &mut want[(i * size) as usize..((i + 1) * size) as usize];
                copy.copy_from_slice(&pattern);
                place(i, copy);
            }
            assert!(vm.write_copies((src, size), dst, times, place), "{times}");
            assert_eq!(vm.bytes(dst, 12 * 10).unwrap(), &want[..], "{times} copies");
        }
        let before = vm.bytes(src, 200).unwrap().to_vec();
        let end = vm.mem.len() as u32;
        assert!(!vm.write_copies((src, size), src + 4, 2, place), "overlap");
        assert!(
            !vm.write_copies((src, size), end - 20, 2, place),
            "past the end"
        );
        assert!(!vm.write_copies((src, size), dst, 0, place), "no copies");
        vm.watch_data(dst + 30, 4);
        assert!(
            !vm.write_copies((src, size), dst, 3, place),
            "a watched cell"
        );
        assert!(vm.write_copies((src, size), dst + 36, 3, place), "past it");
        vm.unwatch_data();
        vm.tracing = true;
        assert!(
            !vm.write_copies((src, size), dst, 3, place),
            "a trace running"
        );
        vm.tracing = false;
        assert_eq!(&vm.bytes(src, 36).unwrap(), &&before[..36]);
    }

    /// `nul_position` eight bytes at a time finds what a byte-by-byte search finds, at
    /// every offset of a word and in the tail.
    #[test]
    fn nul_position_is_the_first_zero_byte() {
        for len in 0..40usize {
            for zero in (0..len).map(Some).chain([None]) {
                let mut b: Vec<u8> = (0..len).map(|i| (i as u8 % 255) + 1).collect();
                if let Some(z) = zero {
                    b[z] = 0;
                    // A second zero later, and bytes with the high bit set before.
                    if z + 3 < len {
                        b[z + 3] = 0;
                    }
                    for x in &mut b[..z] {
                        *x |= 0x80;
                    }
                }
                assert_eq!(
                    nul_position(&b),
                    b.iter().position(|&x| x == 0),
                    "{len} {zero:?}"
                );
            }
        }
    }

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
