//! The evaluation cache: `OnEvaluate` answered from a trace of an earlier run. The same
//! cache replays `OnNextTurn`, which every move runs (`EvalMemo::for_turns`: a trace
//! per turn of the turn order, whose answer is not used; Ur's Axiom 1.50 `OnNextTurn`
//! took 5% of a random match's time).
//!
//! `$NegamaxMove` asks `OnEvaluate` at every leaf of its search. In a dice game most leaves
//! under one move differ only in the dice (Ur's depth-3 search ends two ?Dice turns after
//! each move: some 24 leaves share a board), and an evaluation that reads the board but not
//! the dice gives the same answer at each. The cache keeps the traces of the last runs
//! ([`crate::forth::trace`], up to 8, the one that held last first): the cells
//! each read with their values, its effects (Ur's evaluations write two counters) and the
//! answer it left. When every read of one trace gives the same value now, its effects are
//! applied, its steps counted as if it had run, and its answer returned; otherwise the word
//! runs, traced.
//!
//! Exactness rests on the trace's guarantee: with the same reads and the same data stack
//! under the cushion, the code takes the same path, so it writes the same values, calls
//! the same host words with the same arguments and leaves the same answer. What a trace
//! cannot vouch for (compiling, output, host words with effects it cannot replay such as
//! `$GenerateMoves`) taints it; a tainted run is not kept, and after a few in a row the
//! cache stops tracing for a while. So does a run of fewer than 64
//! primitives, which costs less than checking a trace. The traces are dropped when the
//! code changes or the stack under the cushion differs. A game's records do not depend on
//! the cache (tested by searching with it on and off).

use super::memo::{apply_effects, reads_hold};
use crate::forth::trace::{Event, Read};
use crate::forth::{FResult, Host, Vm};

/// Traces kept by default (the oldest makes room).
const MAX_TRACES: usize = 8;

/// Traces the cache of `OnNextTurn` keeps ([`EvalMemo::for_turns`]): one per turn of the
/// turn order, which it goes round (Ur's has ten: with eight kept, each was dropped
/// before its turn came again).
const TURN_TRACES: usize = 64;

/// [`MIN_STEPS`] for `OnNextTurn`: its replay writes a few turn variables, and the trace
/// that holds is found by its first reads (the current player, the turn's offset).
const TURN_MIN_STEPS: u64 = 32;

/// Tainted runs in a row after which the word runs untraced for [`UNTRACED_RUNS`] runs.
const MAX_TAINTED: u32 = 4;
const UNTRACED_RUNS: u32 = 256;

/// Steps under which a run is cheaper than checking and replaying a trace: such a run is
/// not kept, and the word runs untraced for [`UNTRACED_RUNS`] runs (the race fixture's
/// evaluation, a dozen primitives, searched 0.7x as fast with the cache).
const MIN_STEPS: u64 = 64;

/// One kept run of the evaluation word.
struct Kept {
    reads: Box<[Read]>,
    events: Box<[Event]>,
    steps: u64,
    /// The answer it left on top of the stack.
    value: i32,
}

/// How many evaluations the cache answered, and how.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalStats {
    /// Answered from a trace.
    pub replayed: u64,
    /// Run with a trace.
    pub traced: u64,
    /// Run without one (the cache is off, or the last runs were tainted or cheap).
    pub untraced: u64,
}

impl std::ops::AddAssign for EvalStats {
    fn add_assign(&mut self, o: EvalStats) {
        let EvalStats {
            replayed,
            traced,
            untraced,
        } = o;
        self.replayed += replayed;
        self.traced += traced;
        self.untraced += untraced;
    }
}

/// The traces of one program's evaluation word (see the module documentation).
pub struct EvalMemo {
    /// Turned off: every evaluation runs untraced.
    pub off: bool,
    /// The word the traces are of, the code epoch and the data stack under the cushion
    /// they were made with.
    word: u32,
    epoch: u64,
    stack: Vec<i32>,
    traces: Vec<Kept>,
    /// Traces kept at most, and the steps under which a run is not kept.
    capacity: usize,
    min_steps: u64,
    /// Tainted runs in a row; runs left untraced.
    tainted: u32,
    untraced_left: u32,
    /// The trace that holds is looked for from the oldest ([`EvalMemo::for_turns`]).
    from_oldest: bool,
    pub stats: EvalStats,
}

/// An evaluation cache: 8 traces, of runs of 64 steps or more (`MAX_TRACES`, `MIN_STEPS`).
impl Default for EvalMemo {
    fn default() -> Self {
        EvalMemo {
            off: false,
            word: 0,
            epoch: 0,
            stack: Vec::new(),
            traces: Vec::new(),
            capacity: MAX_TRACES,
            min_steps: MIN_STEPS,
            tainted: 0,
            untraced_left: 0,
            from_oldest: false,
            stats: EvalStats::default(),
        }
    }
}

/// A clone starts empty (as the move-word cache's does): a copied game builds its own.
impl Clone for EvalMemo {
    fn clone(&self) -> Self {
        EvalMemo {
            off: self.off,
            capacity: self.capacity,
            min_steps: self.min_steps,
            from_oldest: self.from_oldest,
            ..EvalMemo::default()
        }
    }
}

/// What to do for one evaluation.
pub(crate) enum EvalPlan {
    /// Answered: the trace's effects are applied and its steps counted.
    Answer(i32),
    /// Run the word, traced or not.
    Run { traced: bool },
}

impl EvalMemo {
    /// A cache for `OnNextTurn`, which keeps a trace for each of up to [`TURN_TRACES`]
    /// turns, of runs of [`TURN_MIN_STEPS`] or more. It goes round the turn order, so the
    /// trace that holds is the one used longest ago: it is looked for from the oldest.
    /// (Which of the traces that hold is found changes nothing: a run whose reads all
    /// hold takes their one path.)
    pub(crate) fn for_turns() -> EvalMemo {
        EvalMemo {
            capacity: TURN_TRACES,
            min_steps: TURN_MIN_STEPS,
            from_oldest: true,
            ..EvalMemo::default()
        }
    }

    /// Answers an evaluation of `word` from a trace whose reads hold (applying its
    /// effects through `host`), or says how to run it. `base`: the depth of the data
    /// stack under the cushion.
    pub(crate) fn plan(
        &mut self,
        vm: &mut Vm,
        host: &mut dyn Host,
        word: u32,
        base: usize,
    ) -> FResult<EvalPlan> {
        if self.off {
            self.stats.untraced += 1;
            return Ok(EvalPlan::Run { traced: false });
        }
        if word != self.word || vm.code_epoch() != self.epoch || !vm.stack_is(base, &self.stack) {
            self.traces.clear();
            self.word = word;
            self.epoch = vm.code_epoch();
            self.stack.clear();
            self.stack.extend_from_slice(&vm.stack()[..base]);
        }
        let holds = |k: &Kept| reads_hold(vm, &k.reads);
        let found = if self.from_oldest {
            self.traces.iter().rposition(holds)
        } else {
            self.traces.iter().position(holds)
        };
        if let Some(i) = found {
            if vm.add_steps(self.traces[i].steps) {
                self.traces[..=i].rotate_right(1);
                let k = &self.traces[0];
                apply_effects(&k.events, vm, host)?;
                self.stats.replayed += 1;
                return Ok(EvalPlan::Answer(k.value));
            }
        }
        if self.untraced_left > 0 {
            self.untraced_left -= 1;
            self.stats.untraced += 1;
            return Ok(EvalPlan::Run { traced: false });
        }
        self.stats.traced += 1;
        Ok(EvalPlan::Run { traced: true })
    }

    /// Keeps the trace of the traced run that just ended without an error and left
    /// `value`.
    pub(crate) fn store(&mut self, vm: &Vm, value: i32) {
        let t = vm.trace();
        if t.steps < self.min_steps && t.tainted.is_none() {
            self.untraced_left = UNTRACED_RUNS;
            return;
        }
        if t.tainted.is_some() || vm.code_epoch() != self.epoch {
            self.tainted += 1;
            if self.tainted >= MAX_TAINTED {
                self.tainted = 0;
                self.untraced_left = UNTRACED_RUNS;
            }
            return;
        }
        self.tainted = 0;
        // A cell read again gave the same value (the trace notes no read of a cell the
        // run wrote): it is compared once.
        let mut reads: Vec<Read> = Vec::with_capacity(t.reads.len());
        for r in &t.reads {
            if !reads.iter().any(|q| q.addr == r.addr && q.width == r.width) {
                reads.push(*r);
            }
        }
        while self.traces.len() >= self.capacity {
            self.traces.pop();
        }
        self.traces.insert(
            0,
            Kept {
                reads: reads.into(),
                events: t.events.as_slice().into(),
                steps: t.steps,
                value,
            },
        );
    }
}
