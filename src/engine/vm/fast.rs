//! The VM's fast path and entry point.
//!
//! Most blocks (and most runs of the others) use only steps, simple tests of the current
//! square or a neighbour, attribute tests of the current square, constant conditions,
//! jumps, `capture` and `set-attribute` of the current square (queued in the run's frame),
//! a `mark` on the start square and `add`. [`fast_ops`]
//! gives each instruction of `model.code` a compact [`FastOp`] (`Tables::fast[pc]`
//! describes `code[pc]`), and
//! [`Scratch::run`] executes those directly; at the first [`FastOp::Other`] it hands over
//! to the full interpreter (`interp`) in the same state. With the fast path off (see
//! `Engine::without_fast_path`) every entry is `Other`, so every block runs in the full
//! interpreter from its first instruction.
//!
//! [`fail_after_step`] reads the same table once more to know, for each block that starts
//! with a step, which occupants of the square it steps to make it fail at once;
//! [`Scratch::fails_at_once`] uses it to skip such blocks without a run. [`plain_blocks`]
//! marks the attribute writes of blocks that never leave the fast path: such a write on an
//! empty square, of a value the moving piece already has, can change nothing and is not
//! queued.

use super::interp::Resume;
use super::{Action, Moving, Scratch};
use crate::engine::{MoveList, Tables};
use crate::model::{Block, Op, PositionId, Pred, Target, piece};

/// A predicate on one square that [`Scratch::run`]'s fast path evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SimplePred {
    Empty,
    Friend,
    Enemy,
    /// Only on a neighbour (`(on-board? DIR)`): the square exists.
    OnBoard,
}

/// The compact form of one instruction for the fast path of [`Scratch::run`]:
/// `Tables::fast[pc]` describes `code[pc]`. Tests look at the current square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FastOp {
    /// A step in direction slot `dir`; `fail` is the step's mask of [`fail_after_step`]
    /// (0 when it is not the first step of a block), kept here so that
    /// [`Scratch::fails_at_once`] reads it with the step.
    Step {
        dir: u32,
        fail: u8,
    },
    /// A simple test directly followed by `Op::Verify`: the pair is done at once (continue
    /// at `pc + 2`).
    Require(SimplePred, bool),
    /// A simple test (`negate` second).
    Test(SimplePred, bool),
    /// A simple test of the neighbour in direction slot `dir` (false when there is none,
    /// before `negate`), directly followed by `Op::Verify`.
    RequireAt(SimplePred, u32, bool),
    /// A simple test of the neighbour in direction slot `dir`.
    TestAt(SimplePred, u32, bool),
    InZone(u32, bool),
    Verify,
    IfFalse(u32),
    IfTrue(u32),
    Goto(u32),
    Not,
    Loop,
    /// `Op::Add` (its operands are read from the code).
    Add,
    /// `capture` of the current square: queued in the run's frame.
    Capture,
    /// A constant condition (`true`, `false`): the accumulator takes it.
    Const(bool),
    /// `set-attribute` `attr` of the piece on the current square to the accumulator:
    /// queued in the run's frame. `plain`: the block runs on the fast path alone (no
    /// instruction hands over to the interpreter), so the only piece that can stand on an
    /// empty square after the move is the moving one, landing there; a write that would
    /// leave that piece as it is changes nothing and is not queued (see [`plain_blocks`]).
    SetAttr {
        attr: u32,
        plain: bool,
    },
    /// The head of a compiled `(while empty? …)`: `Loop; Test empty?; IfFalse exit` at
    /// once (continue at `pc + 3` when the square is empty, else at `exit`).
    WhileEmpty {
        exit: u32,
    },
    /// A test of an attribute of the piece on the current square (false on an empty
    /// square), directly followed by `Op::Verify` (continue at `pc + 2`).
    RequireAttr(u32, bool),
    /// A test of an attribute of the piece on the current square.
    TestAttr(u32, bool),
    /// `mark` that starts no board scan: on the start square it changes nothing (the
    /// mark is there already); elsewhere the interpreter takes over.
    MarkAtStart,
    End,
    /// Anything else: the general interpreter takes over here.
    Other,
}

/// Builds the [`FastOp`] table of a code vector (one entry per instruction). With
/// `enabled` false every entry is [`FastOp::Other`]: the fast path is off. `scans[pc]` is
/// the board scan whose `mark` is at `pc` ([`crate::model::NONE`]: none).
pub(crate) fn fast_ops(code: &[Op], enabled: bool, scans: &[u32]) -> Vec<FastOp> {
    if !enabled {
        return vec![FastOp::Other; code.len()];
    }
    let simple_pred = |pred: Pred| match pred {
        Pred::Empty => Some(SimplePred::Empty),
        Pred::Friend => Some(SimplePred::Friend),
        Pred::Enemy => Some(SimplePred::Enemy),
        _ => None,
    };
    let simple = |op: &Op| match *op {
        Op::Test {
            pred,
            target: Target::Here,
            negate,
        } => Some((simple_pred(pred)?, negate)),
        _ => None,
    };
    let simple_at = |op: &Op| match *op {
        Op::Test {
            pred,
            target: Target::Dir(d),
            negate,
        } => {
            let p = match pred {
                Pred::OnBoard => SimplePred::OnBoard,
                _ => simple_pred(pred)?,
            };
            Some((p, d, negate))
        }
        _ => None,
    };
    // `Loop; Test empty?; IfFalse exit` (the head of a compiled `(while empty? …)`).
    let while_empty = |pc: usize| -> Option<FastOp> {
        match *code.get(pc..pc + 3)? {
            [
                Op::Loop,
                Op::Test {
                    pred: Pred::Empty,
                    target: Target::Here,
                    negate: false,
                },
                Op::IfFalse(exit),
            ] => Some(FastOp::WhileEmpty { exit }),
            _ => None,
        }
    };
    code.iter()
        .enumerate()
        .map(|(pc, op)| {
            if let Some(head) = while_empty(pc) {
                return head;
            }
            match (*op, simple(op)) {
                (_, Some((p, negate))) if code.get(pc + 1) == Some(&Op::Verify) => {
                    FastOp::Require(p, negate)
                }
                (_, Some((p, negate))) => FastOp::Test(p, negate),
                _ if simple_at(op).is_some() => {
                    let Some((p, d, negate)) = simple_at(op) else {
                        return FastOp::Other;
                    };
                    if code.get(pc + 1) == Some(&Op::Verify) {
                        FastOp::RequireAt(p, d, negate)
                    } else {
                        FastOp::TestAt(p, d, negate)
                    }
                }
                (Op::Step(dir), _) => FastOp::Step { dir, fail: 0 },
                (
                    Op::Test {
                        pred: Pred::InZone(z),
                        target: Target::Here,
                        negate,
                    },
                    _,
                ) => FastOp::InZone(z, negate),
                (Op::Verify, _) => FastOp::Verify,
                (Op::IfFalse(a), _) => FastOp::IfFalse(a),
                (Op::IfTrue(a), _) => FastOp::IfTrue(a),
                (Op::Goto(a), _) => FastOp::Goto(a),
                (Op::Not, _) => FastOp::Not,
                (Op::Loop, _) => FastOp::Loop,
                (Op::Add { .. }, _) => FastOp::Add,
                (Op::Capture(Target::Here), _) => FastOp::Capture,
                (
                    Op::Test {
                        pred: pred @ (Pred::True | Pred::False),
                        target: Target::Here,
                        negate,
                    },
                    _,
                ) => FastOp::Const((pred == Pred::True) != negate),
                (
                    Op::SetAttr {
                        attr,
                        target: Target::Here,
                    },
                    _,
                ) => FastOp::SetAttr { attr, plain: false },
                (
                    Op::Test {
                        pred: Pred::Attr(a),
                        target: Target::Here,
                        negate,
                    },
                    _,
                ) => {
                    if code.get(pc + 1) == Some(&Op::Verify) {
                        FastOp::RequireAttr(a, negate)
                    } else {
                        FastOp::TestAttr(a, negate)
                    }
                }
                (Op::Mark, _) if scans.get(pc) == Some(&crate::model::NONE) => FastOp::MarkAtStart,
                (Op::End, _) => FastOp::End,
                _ => FastOp::Other,
            }
        })
        .collect()
}

/// What stands on a square, as a run tests it: the classes of [`fail_after_step`].
const EMPTY: u32 = 0;
const FRIEND: u32 = 1;
const ENEMY: u32 = 2;
const NEUTRAL: u32 = 3;

/// For each instruction that is a [`FastOp::Step`] (0 elsewhere): bit `c` is set when a
/// run whose first step lands on a square of class `c` ([`EMPTY`], [`FRIEND`], [`ENEMY`],
/// [`NEUTRAL`]) certainly fails there without emitting a move or queueing anything: the
/// instructions after the step are followed, with every test of that square decided by its
/// class, until one fails (a `verify`, a required test, the end) or the run could do
/// something else (another step, an `add`, a test of another square: then the bit stays
/// clear). [`Scratch::fails_at_once`] reads it, so the common cases (a slide blocked by a
/// friend, a pawn push onto an occupied square) are decided without starting the run.
pub(crate) fn fail_after_step(fast: &[FastOp]) -> Vec<u8> {
    let decides = |pred: SimplePred, class: u32| match pred {
        SimplePred::Empty => Some(class == EMPTY),
        SimplePred::Friend => Some(class == FRIEND),
        SimplePred::Enemy => Some(class == ENEMY),
        SimplePred::OnBoard => None,
    };
    let fails = |start: usize, class: u32| -> bool {
        let mut pc = start;
        let mut acc: Option<bool> = None;
        // Enough for the heads of ordinary blocks; a longer walk stays undecided.
        for _ in 0..32 {
            match fast.get(pc) {
                Some(&FastOp::Require(pred, negate)) => match decides(pred, class) {
                    Some(v) if v == negate => return true,
                    Some(_) => {
                        acc = Some(true);
                        pc += 2;
                    }
                    None => return false,
                },
                Some(&FastOp::Test(pred, negate)) => match decides(pred, class) {
                    Some(v) => {
                        acc = Some(v != negate);
                        pc += 1;
                    }
                    None => return false,
                },
                Some(FastOp::Verify) => match acc {
                    Some(false) => return true,
                    Some(true) => pc += 1,
                    None => return false,
                },
                Some(&FastOp::IfFalse(a)) => match acc {
                    Some(v) => pc = if v { pc + 1 } else { a as usize },
                    None => return false,
                },
                Some(&FastOp::IfTrue(a)) => match acc {
                    Some(v) => pc = if v { a as usize } else { pc + 1 },
                    None => return false,
                },
                Some(&FastOp::Goto(a)) => pc = a as usize,
                Some(FastOp::Not) => match acc {
                    Some(v) => {
                        acc = Some(!v);
                        pc += 1;
                    }
                    None => return false,
                },
                Some(&FastOp::Const(v)) => {
                    acc = Some(v);
                    pc += 1;
                }
                Some(&FastOp::WhileEmpty { exit }) => {
                    if class == EMPTY {
                        return false;
                    }
                    acc = Some(false);
                    pc = exit as usize;
                }
                Some(FastOp::End) => return true,
                // Another square, a loop count, an action, a move, or the interpreter.
                _ => return false,
            }
        }
        false
    };
    (0..fast.len())
        .map(|pc| match fast[pc] {
            FastOp::Step { .. } => (EMPTY..=NEUTRAL)
                .filter(|&c| fails(pc + 1, c))
                .fold(0u8, |m, c| m | 1 << c),
            _ => 0,
        })
        .collect()
}

/// Marks the attribute writes of blocks that run on the fast path alone
/// (`FastOp::SetAttr::plain`). A block is the code from the instruction after an `End` (or
/// the first) to the next `End`; it is plain when none of its instructions is
/// [`FastOp::Other`] or [`FastOp::MarkAtStart`] (which can hand over to the interpreter, and
/// with it `create`, `cascade`, `flip` and the like) and none of its jumps leaves it.
pub(crate) fn plain_blocks(fast: &mut [FastOp]) {
    let mut start = 0;
    while start < fast.len() {
        let end = (start..fast.len())
            .find(|&pc| fast[pc] == FastOp::End)
            .unwrap_or(fast.len() - 1);
        let inside = |a: u32| (start..=end).contains(&(a as usize));
        let plain = fast[start..=end].iter().all(|op| match *op {
            FastOp::Other | FastOp::MarkAtStart => false,
            FastOp::IfFalse(a) | FastOp::IfTrue(a) | FastOp::Goto(a) => inside(a),
            FastOp::WhileEmpty { exit } => inside(exit),
            _ => true,
        });
        if plain {
            for op in &mut fast[start..=end] {
                if let FastOp::SetAttr { plain, .. } = op {
                    *plain = true;
                }
            }
        }
        start = end + 1;
    }
}

/// Writes the masks of [`fail_after_step`] into the steps of `fast` (`FastOp::Step::fail`).
pub(crate) fn mark_step_skips(fast: &mut [FastOp]) {
    let masks = fail_after_step(fast);
    for (op, m) in fast.iter_mut().zip(masks) {
        if let FastOp::Step { fail, .. } = op {
            *fail = m;
        }
    }
}

impl Scratch {
    /// Runs the block `b` for `piece` starting on `start`. `from` is the origin
    /// ([`PositionId::NONE`] for a drop). Emits moves into `out`, or in attack mode (`out` = `None`) returns true
    /// as soon as some `add` would capture on the attack target.
    ///
    /// Normal runs queue their work in `frames[0]`, attack runs in `frames[1]`: an attack
    /// run never starts another run, and a normal run starts only attack runs (through
    /// `attacked?`/`defended?`), so the two frames are never in use twice at once.
    ///
    /// Always inlined into its callers. The moving piece stays scalars (`piece`, `from`,
    /// `b.move_type`) through the loop and becomes a [`Moving`] only where it is handed on
    /// (`add`, the interpreter): taking a `Moving` from the caller kept the struct on the
    /// stack and cost 3 stores per run (≈1% of perft instructions, cachegrind).
    #[inline(always)]
    pub(crate) fn run(
        &mut self,
        t: &Tables,
        b: &Block,
        start: PositionId,
        piece: u32,
        from: PositionId,
        out: Option<&mut MoveList>,
    ) -> bool {
        self.run_with::<false>(t, b, start, piece, from, out)
    }

    /// [`Scratch::run`], and with `RECORD` the squares of the board the run reads are
    /// appended to `self.reads` (`self.reads_unknown` is set when the run leaves the fast
    /// path: the interpreter's reads are not tracked). A run that stays on the fast path
    /// depends on the board only through those squares.
    #[inline(always)]
    pub(crate) fn run_with<const RECORD: bool>(
        &mut self,
        t: &Tables,
        b: &Block,
        start: PositionId,
        piece: u32,
        from: PositionId,
        out: Option<&mut MoveList>,
    ) -> bool {
        let links = &t.links[self.mover.index()][..];
        self.run_linked::<RECORD>(t, links, b, start, piece, from, out)
    }

    /// [`Scratch::run_with`] with the mover's row of `Tables::links` (`links`) looked up by
    /// the caller (once for all the runs of a generation).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run_linked<const RECORD: bool>(
        &mut self,
        t: &Tables,
        links: &[PositionId],
        b: &Block,
        start: PositionId,
        piece: u32,
        from: PositionId,
        mut out: Option<&mut MoveList>,
    ) -> bool {
        // Most blocks (and most runs of the others) use only steps, simple tests, jumps,
        // `capture` and `add`. That part is run here, from the compact copy in
        // `Tables::fast`, without setting up the full interpreter; at the first other
        // instruction the full interpreter resumes in the same state (the mark is still on
        // `start`, `to` unset, no flag set; the captures queued so far are in the frame,
        // which `queued` says).
        let mut pc = b.start as usize;
        let mut pos = start;
        let mut acc = false;
        let mut steps = 0u32;
        // Something was queued in the run's frame (which was cleared then).
        let mut queued = false;
        loop {
            match t.fast[pc] {
                FastOp::Step { dir, .. } => {
                    pos = links[pos.index() * t.width + dir as usize];
                    if pos.is_none() {
                        return false;
                    }
                    pc += 1;
                }
                FastOp::Require(pred, negate) => {
                    if RECORD {
                        self.reads.push(pos);
                    }
                    if self.simple_test(t, pred, pos) == negate {
                        return false;
                    }
                    acc = true;
                    pc += 2;
                }
                FastOp::Test(pred, negate) => {
                    if RECORD {
                        self.reads.push(pos);
                    }
                    acc = self.simple_test(t, pred, pos) != negate;
                    pc += 1;
                }
                FastOp::RequireAt(pred, d, negate) => {
                    let c = links[pos.index() * t.width + d as usize];
                    if RECORD && !c.is_none() {
                        self.reads.push(c);
                    }
                    if self.simple_test_at(t, pred, c) == negate {
                        return false;
                    }
                    acc = true;
                    pc += 2;
                }
                FastOp::TestAt(pred, d, negate) => {
                    let c = links[pos.index() * t.width + d as usize];
                    if RECORD && !c.is_none() {
                        self.reads.push(c);
                    }
                    acc = self.simple_test_at(t, pred, c) != negate;
                    pc += 1;
                }
                FastOp::InZone(z, negate) => {
                    acc = t.model.zone_sets[self.mover.index()][z as usize].contains(pos) != negate;
                    pc += 1;
                }
                FastOp::RequireAttr(a, negate) => {
                    if RECORD {
                        self.reads.push(pos);
                    }
                    if self.has_attr(pos, a) == negate {
                        return false;
                    }
                    acc = true;
                    pc += 2;
                }
                FastOp::TestAttr(a, negate) => {
                    if RECORD {
                        self.reads.push(pos);
                    }
                    acc = self.has_attr(pos, a) != negate;
                    pc += 1;
                }
                FastOp::MarkAtStart => {
                    if pos != start {
                        if RECORD {
                            self.reads_unknown = true;
                        }
                        break;
                    }
                    pc += 1;
                }
                FastOp::Verify => {
                    if !acc {
                        return false;
                    }
                    pc += 1;
                }
                FastOp::IfFalse(a) => pc = if acc { pc + 1 } else { a as usize },
                FastOp::IfTrue(a) => pc = if acc { a as usize } else { pc + 1 },
                FastOp::Goto(a) => pc = a as usize,
                FastOp::Not => {
                    acc = !acc;
                    pc += 1;
                }
                FastOp::Loop => {
                    steps += 1;
                    if steps > self.loop_budget {
                        self.loop_overflow = true;
                        return false;
                    }
                    pc += 1;
                }
                FastOp::Capture => {
                    let k = usize::from(out.is_none());
                    if !queued {
                        self.frames[k].clear();
                        queued = true;
                    }
                    self.frames[k].actions.push(Action::Capture(pos));
                    pc += 1;
                }
                FastOp::Const(v) => {
                    acc = v;
                    pc += 1;
                }
                FastOp::SetAttr { attr, .. } => {
                    // Queued even when it cannot change anything (a rook's slide writes its
                    // moved flag on every square it passes): the notation writes the ones on
                    // a piece, as ZoG does.
                    let a = Action::SetAttr(pos, attr, acc);
                    self.queue(usize::from(out.is_none()), queued, a);
                    queued = true;
                    pc += 1;
                }
                FastOp::Add => {
                    match out.as_deref_mut() {
                        None => {
                            let target = self.attack_target;
                            if pos == target
                                || (queued
                                    && self.frames[1]
                                        .actions
                                        .iter()
                                        .any(|a| matches!(a, Action::Capture(c) if *c == target)))
                            {
                                return true;
                            }
                        }
                        Some(o) => {
                            if !queued {
                                self.frames[0].clear();
                            }
                            let moving = Moving {
                                piece,
                                from,
                                move_type: b.move_type,
                            };
                            self.add_moves(t, t.model.code[pc], moving, pos, o);
                        }
                    }
                    pc += 1;
                }
                FastOp::WhileEmpty { exit } => {
                    steps += 1;
                    if steps > self.loop_budget {
                        self.loop_overflow = true;
                        return false;
                    }
                    if RECORD {
                        self.reads.push(pos);
                    }
                    if self.board[pos.index()] != 0 {
                        acc = false;
                        pc = exit as usize;
                    } else {
                        acc = true;
                        pc += 3;
                    }
                }
                FastOp::End => return false,
                FastOp::Other => {
                    if RECORD {
                        self.reads_unknown = true;
                    }
                    break;
                }
            }
        }
        let at = Resume {
            pc,
            start,
            pos,
            acc,
            steps,
            queued,
        };
        let moving = Moving {
            piece,
            from,
            move_type: b.move_type,
        };
        self.run_in(t, at, moving, out)
    }

    /// Queues `a` in frame `k` (cleared first when the run has queued nothing yet).
    /// Out of line: the run loop keeps its registers (`set-attribute` queued inline cost
    /// English draughts 3.8% more instructions).
    #[inline(never)]
    fn queue(&mut self, k: usize, queued: bool, a: Action) {
        if !queued {
            self.frames[k].clear();
        }
        self.frames[k].actions.push(a);
    }

    /// True when the run of `b` from `start` would fail at once, read from the fast-path
    /// tables without starting it: its first required test of the start square fails, or
    /// its first step (or its first two steps) leaves the board or lands on a square whose
    /// occupant makes the run fail there (the step's `fail` mask, see [`fail_after_step`]).
    /// `links` is the mover's row of `Tables::links` (looked up once by the caller's loop).
    #[inline(always)]
    pub(crate) fn fails_at_once(
        &self,
        t: &Tables,
        links: &[PositionId],
        b: &Block,
        start: PositionId,
    ) -> bool {
        let pc = b.start as usize;
        match t.fast[pc] {
            FastOp::Require(pred, negate) => self.simple_test(t, pred, start) == negate,
            FastOp::Step { dir, fail } => {
                let n = links[start.index() * t.width + dir as usize];
                if n.is_none() {
                    return true;
                }
                if fail != 0 {
                    return fail >> self.class(t, n) & 1 == 1;
                }
                // A second step (a knight's leap): the same questions one square further.
                let Some(&FastOp::Step { dir, fail }) = t.fast.get(pc + 1) else {
                    return false;
                };
                let n = links[n.index() * t.width + dir as usize];
                if n.is_none() {
                    return true;
                }
                fail != 0 && fail >> self.class(t, n) & 1 == 1
            }
            _ => false,
        }
    }

    /// The class of square `pos` for `fail_after_step`.
    #[inline(always)]
    fn class(&self, t: &Tables, pos: PositionId) -> u32 {
        let v = self.board[pos.index()];
        if v == 0 {
            return EMPTY;
        }
        let o = piece::owner(v);
        if o == self.mover {
            FRIEND
        } else if t.neutral[o.index()] {
            NEUTRAL
        } else {
            ENEMY
        }
    }

    /// The attribute test (`Pred::Attr`) of square `pos` on the frozen board: false on an
    /// empty square. The fast path and the interpreter both ask this.
    #[inline(always)]
    pub(super) fn has_attr(&self, pos: PositionId, a: u32) -> bool {
        let v = self.board[pos.index()];
        v != 0 && piece::attr(v, a)
    }

    /// Evaluates a [`SimplePred`] on square `c`, which may be missing (then false, as in
    /// the interpreter's `test`).
    #[inline(always)]
    fn simple_test_at(&self, t: &Tables, pred: SimplePred, c: PositionId) -> bool {
        !c.is_none() && self.simple_test(t, pred, c)
    }

    /// Evaluates a [`SimplePred`] on `pos` of the frozen board.
    #[inline(always)]
    fn simple_test(&self, t: &Tables, pred: SimplePred, pos: PositionId) -> bool {
        let v = self.board[pos.index()];
        match pred {
            SimplePred::OnBoard => true,
            SimplePred::Empty => v == 0,
            SimplePred::Friend => v != 0 && piece::owner(v) == self.mover,
            SimplePred::Enemy => {
                v != 0 && piece::owner(v) != self.mover && !t.neutral[piece::owner(v).index()]
            }
        }
    }
}
