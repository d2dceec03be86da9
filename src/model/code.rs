//! The move bytecode and its compiler.
//!
//! A move block (macros already expanded) is a straight list of instructions with `if` and
//! `while` as the only control flow. It compiles to a flat sequence of [`Op`]s with jumps.
//! Conditions set a boolean accumulator (`Test`, `Not`, short-circuit jumps for `and`/`or`);
//! `verify` aborts when it is false. Directions are *relative* slots: slot `d` means
//! direction `d` after the generating player's symmetry, slot `nd + d` its opposite; the
//! engine resolves both with a per-player link table.

use super::names::{NameSet, Names};
use super::{MoveType, PieceTypeId, PlayerId, PositionId};
use crate::diagnostics::{Diagnostic, codes};
use crate::syntax::{Kind, Node};
use crate::text::suggestions;

/// Where a predicate or an action looks: the current square, one step along a direction
/// slot, or a named position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Here,
    Dir(u32),
    Pos(PositionId),
}

/// A predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pred {
    Empty,
    Friend,
    Enemy,
    Neutral,
    Piece(PieceTypeId),
    InZone(u32),
    /// The square is this position.
    Position(PositionId),
    OnBoard,
    Marked,
    Flag(u32),
    PosFlag(u32),
    /// Some opponent block (of this move type; [`MoveType::NONE`] for any) could capture
    /// here.
    Attacked(MoveType),
    /// The same for the mover's side.
    Defended(MoveType),
    LastFrom,
    LastTo,
    Attr(u32),
    True,
    False,
}

/// `go` destinations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoWhere {
    From,
    To,
    LastFrom,
    LastTo,
    Mark,
}

/// One instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Step along a direction slot; the branch fails when there is no link.
    Step(u32),
    /// Jump to a position.
    Jump(PositionId),
    Mark,
    Back,
    /// Fix the destination at the current square.
    SetTo,
    /// The piece on the current square becomes the moving piece.
    From,
    Cascade,
    Go(GoWhere),
    /// acc := predicate (negated when `negate`).
    Test {
        pred: Pred,
        target: Target,
        negate: bool,
    },
    /// acc := !acc.
    Not,
    /// Jump when acc is false.
    IfFalse(u32),
    /// Jump when acc is true.
    IfTrue(u32),
    Goto(u32),
    /// Fail when acc is false.
    Verify,
    /// One `while` iteration: charges the step budget.
    Loop,
    Capture(Target),
    Flip(Target),
    ChangeOwner(Target),
    ChangeType(PieceTypeId, Target),
    /// Owner [`PlayerId::NONE`] means the mover; type [`PieceTypeId::NONE`] the moving
    /// piece's type.
    Create {
        owner: PlayerId,
        ty: PieceTypeId,
        target: Target,
    },
    /// value := acc.
    SetAttr {
        attr: u32,
        target: Target,
    },
    SetFlag(u32),
    SetPosFlag(u32, Target),
    /// Emit a move. `types`/`ntypes` index [`super::Model::type_lists`] (0 types: keep
    /// the type); `partial` is the continuation's move type or [`MoveType::NONE`].
    Add {
        types: u32,
        ntypes: u32,
        copy: bool,
        partial: MoveType,
    },
    /// End of the block.
    End,
}

/// Compiles blocks into a shared code vector.
pub struct Compiler<'a> {
    pub names: &'a Names,
    pub code: Vec<Op>,
    pub type_lists: Vec<PieceTypeId>,
    pub move_types: Vec<String>,
    pub flags: Vec<String>,
    pub position_flags: Vec<String>,
    pub diags: Vec<Diagnostic>,
    pub has_partial: bool,
    /// Move type of the block being compiled (for a bare `add-partial`).
    current_type: MoveType,
    /// The block being compiled called an unknown macro or instruction: its other findings
    /// would be consequences (the call was not expanded), so they are not reported.
    poisoned: bool,
    /// Move types that some `(move-type …)` marker declares (see [`Compiler::new`]).
    declared_move_types: NameSet,
    nd: u32,
}

/// The node naming what `n` is: the head of a list, or `n` itself.
fn head_of(n: &Node) -> &Node {
    if n.is_list() {
        n.items.first().unwrap_or(n)
    } else {
        n
    }
}

fn intern(v: &mut Vec<String>, name: &str) -> u32 {
    match v.iter().position(|s| s == name) {
        Some(i) => i as u32,
        None => {
            v.push(name.to_owned());
            (v.len() - 1) as u32
        }
    }
}

impl<'a> Compiler<'a> {
    /// A compiler over `names`, with the move types that the game's `(move-type …)` markers
    /// declare, so that a lone argument of `add-partial` can be told apart: a declared move
    /// type continues with that type; otherwise a piece type name promotes and continues
    /// with the block's own type.
    pub fn new(names: &'a Names, declared_move_types: NameSet) -> Self {
        let nd = names.directions.len() as u32;
        Compiler {
            names,
            code: Vec::new(),
            type_lists: Vec::new(),
            // Index 0 is the default, unnamed move type.
            move_types: vec![String::new()],
            flags: Vec::new(),
            position_flags: Vec::new(),
            diags: Vec::new(),
            has_partial: false,
            current_type: MoveType::DEFAULT,
            poisoned: false,
            declared_move_types,
            nd,
        }
    }

    /// The move types that some `(move-type …)` marker declares.
    pub fn declared_move_types(&self) -> &NameSet {
        &self.declared_move_types
    }

    pub fn move_type(&mut self, name: &str) -> MoveType {
        MoveType::new(intern(&mut self.move_types, name))
    }

    fn err(&mut self, code: crate::diagnostics::Code, msg: String, n: &Node) {
        if !self.poisoned {
            self.diags
                .push(Diagnostic::error(code, msg).with_span(n.span));
        }
    }

    /// Compiles one block; returns its start offset.
    pub fn block(&mut self, block: &Node, move_type: MoveType) -> u32 {
        let start = self.code.len() as u32;
        self.current_type = move_type;
        self.poisoned = false;
        if block.is_list() {
            self.seq(&block.items);
        } else {
            self.instr(block);
        }
        self.code.push(Op::End);
        start
    }

    fn seq(&mut self, items: &[Node]) {
        for n in items {
            self.instr(n);
        }
    }

    fn emit(&mut self, op: Op) -> usize {
        self.code.push(op);
        self.code.len() - 1
    }

    fn patch(&mut self, at: usize) {
        let here = self.code.len() as u32;
        match &mut self.code[at] {
            Op::IfFalse(t) | Op::IfTrue(t) | Op::Goto(t) => *t = here,
            _ => unreachable!(),
        }
    }

    fn dir(&self, name: &str) -> Option<u32> {
        self.names.directions.get(name).copied()
    }

    /// A target argument: a direction, a position, or `(opposite d)`.
    fn target(&mut self, n: &Node) -> Option<Target> {
        if n.head() == Some("opposite") {
            let d = n
                .args()
                .first()
                .and_then(Node::word)
                .and_then(|w| self.dir(w))?;
            return Some(Target::Dir(self.nd + d));
        }
        let w = n.word()?;
        if let Some(d) = self.dir(w) {
            Some(Target::Dir(d))
        } else {
            self.names.positions.get(w).map(|&p| Target::Pos(p))
        }
    }

    /// Reports `n` as an unknown direction when it is a word within a letter or two of a
    /// declared direction (`nn` for `n`): a misspelt direction, not an unknown instruction.
    fn misspelt_direction(&mut self, n: &Node) -> bool {
        let Some(w) = n.word() else { return false };
        // `e9` is a position off the board rather than a misspelt `e`, unless directions
        // themselves carry digits.
        let digit = |s: &str| s.bytes().any(|b| b.is_ascii_digit());
        if digit(w) && !self.names.directions.keys().any(|d| digit(d)) {
            return false;
        }
        let Some(near) = suggestions(w, self.names.directions.keys().map(String::as_str))
            .first()
            .map(|s| (*s).to_owned())
        else {
            return false;
        };
        if !self.poisoned {
            self.diags.push(
                Diagnostic::error(codes::UNKNOWN_DIRECTION, format!("unknown direction `{w}`"))
                    .with_span(n.span)
                    .with_note(format!("did you mean `{near}`?")),
            );
        }
        true
    }

    fn target_or_here(&mut self, args: &[Node], what: &str) -> Target {
        match args.first() {
            None => Target::Here,
            Some(a) => match self.target(a) {
                Some(t) => t,
                None if self.misspelt_direction(a) => Target::Here,
                None => {
                    self.err(
                        codes::BAD_INSTRUCTION,
                        format!(
                            "`{what}`: `{}` is neither a direction nor a position",
                            a.word().unwrap_or("(…)")
                        ),
                        a,
                    );
                    Target::Here
                }
            },
        }
    }

    fn piece_type(&mut self, n: &Node) -> Option<PieceTypeId> {
        let w = n.word().unwrap_or("(…)");
        match self.names.types.get(w) {
            Some(&t) => Some(PieceTypeId::new(t)),
            None => {
                self.err(codes::UNKNOWN_PIECE, format!("unknown piece type `{w}`"), n);
                None
            }
        }
    }

    fn instr(&mut self, n: &Node) {
        match n.kind {
            Kind::Atom | Kind::Number | Kind::Str => self.atom_instr(n),
            Kind::List => match n.head() {
                Some(h) => self.list_instr(h, n),
                None => self.seq(&n.items),
            },
            Kind::Comment => {}
        }
    }

    fn atom_instr(&mut self, n: &Node) {
        let w = n.text.as_str();
        let op = match w {
            "add" => self.add_op(&[], false, None),
            "add-copy" => self.add_op(&[], true, None),
            "add-partial" => {
                let t = self.current_type;
                self.add_op(&[], false, Some(t))
            }
            "add-copy-partial" => {
                let t = self.current_type;
                self.add_op(&[], true, Some(t))
            }
            "mark" => Op::Mark,
            "back" => Op::Back,
            "to" => Op::SetTo,
            "from" => Op::From,
            "cascade" => Op::Cascade,
            "capture" => Op::Capture(Target::Here),
            "flip" => Op::Flip(Target::Here),
            "change-owner" => Op::ChangeOwner(Target::Here),
            _ => {
                if let Some(d) = self.dir(w) {
                    Op::Step(d)
                } else if let Some(&p) = self.names.positions.get(w) {
                    Op::Jump(p)
                } else if self.misspelt_direction(n) {
                    return;
                } else {
                    self.err(
                        codes::UNKNOWN_INSTRUCTION,
                        format!("unknown instruction `{w}`"),
                        n,
                    );
                    return;
                }
            }
        };
        self.emit(op);
    }

    fn add_op(&mut self, types: &[PieceTypeId], copy: bool, partial: Option<MoveType>) -> Op {
        if partial.is_some() {
            self.has_partial = true;
        }
        let start = self.type_lists.len() as u32;
        self.type_lists.extend_from_slice(types);
        Op::Add {
            types: start,
            ntypes: types.len() as u32,
            copy,
            partial: partial.unwrap_or(MoveType::NONE),
        }
    }

    fn list_instr(&mut self, h: &str, n: &Node) {
        let args = n.args();
        match h {
            "verify" => {
                if args.len() != 1 {
                    self.err(
                        codes::BAD_INSTRUCTION,
                        "`verify` takes one condition".into(),
                        n,
                    );
                    return;
                }
                self.cond(&args[0]);
                self.emit(Op::Verify);
            }
            "if" => {
                let Some(c) = args.first() else {
                    self.err(codes::BAD_INSTRUCTION, "`if` needs a condition".into(), n);
                    return;
                };
                let split = args.iter().position(|a| a.atom() == Some("else"));
                let (then, els) = match split {
                    Some(i) => (&args[1..i], Some(&args[i + 1..])),
                    None => (&args[1..], None),
                };
                self.cond(c);
                let jf = self.emit(Op::IfFalse(0));
                self.seq(then);
                if let Some(e) = els {
                    let j = self.emit(Op::Goto(0));
                    self.patch(jf);
                    self.seq(e);
                    self.patch(j);
                } else {
                    self.patch(jf);
                }
            }
            "while" => {
                let Some(c) = args.first() else {
                    self.err(
                        codes::BAD_INSTRUCTION,
                        "`while` needs a condition".into(),
                        n,
                    );
                    return;
                };
                let top = self.emit(Op::Loop) as u32;
                self.cond(c);
                let jf = self.emit(Op::IfFalse(0));
                self.seq(&args[1..]);
                self.emit(Op::Goto(top));
                self.patch(jf);
            }
            "add" | "add-copy" => {
                let types: Vec<PieceTypeId> =
                    args.iter().filter_map(|a| self.piece_type(a)).collect();
                let op = self.add_op(&types, h == "add-copy", None);
                self.emit(op);
            }
            "add-partial" | "add-copy-partial" => {
                let copy = h == "add-copy-partial";
                let (types, mt): (Vec<PieceTypeId>, MoveType) = match args {
                    [] => (vec![], self.current_type),
                    [m] => {
                        let w = m.word().unwrap_or("");
                        match self.names.types.get(w) {
                            // `(add-partial King)`: promote, continue with this block's type.
                            Some(&t) if !self.declared_move_types.contains(w) => {
                                (vec![PieceTypeId::new(t)], self.current_type)
                            }
                            _ => (vec![], self.move_type(w)),
                        }
                    }
                    [ts @ .., m] => {
                        let types = ts.iter().filter_map(|a| self.piece_type(a)).collect();
                        (types, self.move_type(m.word().unwrap_or("")))
                    }
                };
                let op = self.add_op(&types, copy, Some(mt));
                self.emit(op);
            }
            "capture" => {
                let t = self.target_or_here(args, h);
                self.emit(Op::Capture(t));
            }
            "flip" => {
                let t = self.target_or_here(args, h);
                self.emit(Op::Flip(t));
            }
            "change-owner" => {
                let t = self.target_or_here(args, h);
                self.emit(Op::ChangeOwner(t));
            }
            "change-type" => {
                let Some(ty) = args.first().and_then(|a| self.piece_type(a)) else {
                    return;
                };
                let t = self.target_or_here(&args[1..], h);
                self.emit(Op::ChangeType(ty, t));
            }
            "create" => {
                let mut rest = args;
                let mut owner = PlayerId::NONE;
                if let Some(p) = rest
                    .first()
                    .and_then(Node::word)
                    .and_then(|w| self.names.players.get(w))
                {
                    owner = PlayerId::new(*p);
                    rest = &rest[1..];
                }
                // The piece type may be left out (`(create White)`, `(create a1)`): the
                // created piece then has the moving piece's type.
                let ty = match rest.first() {
                    Some(a) if a.word().is_some_and(|w| self.names.types.contains_key(w)) => {
                        rest = &rest[1..];
                        self.piece_type(a).unwrap_or(PieceTypeId::NONE)
                    }
                    Some(a) if self.target(a).is_none() => {
                        // Neither a type nor a target: report it as an unknown type.
                        let _ = self.piece_type(a);
                        return;
                    }
                    _ => PieceTypeId::NONE,
                };
                let t = self.target_or_here(rest, h);
                if rest.len() > 1 {
                    self.err(
                        codes::BAD_INSTRUCTION,
                        "`create` takes [player] [piece type] [position or direction]".into(),
                        n,
                    );
                    return;
                }
                self.emit(Op::Create {
                    owner,
                    ty,
                    target: t,
                });
            }
            "set-attribute" => {
                let Some(a) = args.first().and_then(Node::word) else {
                    self.err(
                        codes::BAD_INSTRUCTION,
                        "`set-attribute` needs an attribute".into(),
                        n,
                    );
                    return;
                };
                let Some(&attr) = self.names.attributes.get(a) else {
                    self.err(
                        codes::UNKNOWN_NAME,
                        format!("unknown attribute `{a}`"),
                        &args[0],
                    );
                    return;
                };
                let Some(v) = args.get(1) else {
                    self.err(
                        codes::BAD_INSTRUCTION,
                        "`set-attribute` needs a value".into(),
                        n,
                    );
                    return;
                };
                self.cond(v);
                let t = self.target_or_here(&args[2..], h);
                self.emit(Op::SetAttr { attr, target: t });
            }
            "set-flag" => {
                let (Some(f), Some(v)) = (args.first().and_then(Node::word), args.get(1)) else {
                    self.err(
                        codes::BAD_INSTRUCTION,
                        "`set-flag` needs a name and a value".into(),
                        n,
                    );
                    return;
                };
                let f = intern(&mut self.flags, f);
                self.cond(v);
                self.emit(Op::SetFlag(f));
            }
            "set-position-flag" => {
                let (Some(f), Some(v)) = (args.first().and_then(Node::word), args.get(1)) else {
                    self.err(
                        codes::BAD_INSTRUCTION,
                        "`set-position-flag` needs a name and a value".into(),
                        n,
                    );
                    return;
                };
                let f = intern(&mut self.position_flags, f);
                self.cond(v);
                let t = self.target_or_here(&args[2..], h);
                self.emit(Op::SetPosFlag(f, t));
            }
            "go" => {
                let w = match args.first().and_then(Node::word) {
                    Some("from") => GoWhere::From,
                    Some("to") => GoWhere::To,
                    Some("last-from") => GoWhere::LastFrom,
                    Some("last-to") => GoWhere::LastTo,
                    Some("mark") => GoWhere::Mark,
                    _ => {
                        self.err(
                            codes::BAD_INSTRUCTION,
                            "`go` takes from, to, last-from or last-to".into(),
                            args.first().unwrap_or(n),
                        );
                        return;
                    }
                };
                self.emit(Op::Go(w));
            }
            "opposite" => match args.first().and_then(Node::word).and_then(|w| self.dir(w)) {
                Some(d) => {
                    self.emit(Op::Step(self.nd + d));
                }
                None => self.err(
                    codes::UNKNOWN_DIRECTION,
                    "`opposite` needs a direction".into(),
                    args.first().unwrap_or(n),
                ),
            },
            "mark" | "back" | "to" | "from" | "cascade" if args.is_empty() => {
                let op = match h {
                    "mark" => Op::Mark,
                    "back" => Op::Back,
                    "to" => Op::SetTo,
                    "from" => Op::From,
                    _ => Op::Cascade,
                };
                self.emit(op);
            }
            "mark" | "from" | "to" => {
                // `(mark d)` / `(from p)` (act on another square, then come back) is not
                // supported; the argument is still read for its own findings (a misspelt
                // direction, a name that is neither direction nor position).
                self.target_or_here(args, h);
                self.err(
                    codes::BAD_INSTRUCTION,
                    format!("`({h} …)` with an argument is not supported"),
                    n,
                );
            }
            _ => {
                // Usually a macro that is not defined (or misspelt): the caret on its name.
                self.err(
                    codes::UNKNOWN_INSTRUCTION,
                    format!("unknown instruction or macro `{h}`"),
                    n.items.first().unwrap_or(n),
                );
                self.poisoned = true;
            }
        }
    }

    /// Compiles a condition: leaves its value in the accumulator.
    pub fn cond(&mut self, n: &Node) {
        match n.kind {
            Kind::List => {
                let Some(h) = n.head() else {
                    if n.items.len() == 1 {
                        return self.cond(&n.items[0]);
                    }
                    self.err(
                        codes::UNKNOWN_CONDITION,
                        "a condition cannot be an empty list".into(),
                        n,
                    );
                    return;
                };
                let args = n.args();
                match h {
                    "not" => {
                        match args {
                            [c] => self.cond(c),
                            _ => self.err(
                                codes::UNKNOWN_CONDITION,
                                "`not` takes one condition".into(),
                                n,
                            ),
                        }
                        self.emit(Op::Not);
                    }
                    "and" | "or" => {
                        if args.is_empty() {
                            let p = if h == "and" { Pred::True } else { Pred::False };
                            self.emit(Op::Test {
                                pred: p,
                                target: Target::Here,
                                negate: false,
                            });
                            return;
                        }
                        let mut jumps = Vec::new();
                        for (i, c) in args.iter().enumerate() {
                            self.cond(c);
                            if i + 1 < args.len() {
                                jumps.push(self.emit(if h == "and" {
                                    Op::IfFalse(0)
                                } else {
                                    Op::IfTrue(0)
                                }));
                            }
                        }
                        for j in jumps {
                            self.patch(j);
                        }
                    }
                    _ => self.pred(h, args, n),
                }
            }
            _ => self.pred(&n.text, &[], n),
        }
    }

    fn pred(&mut self, name: &str, args: &[Node], at: &Node) {
        if name == "true" || name == "false" {
            let p = if name == "true" {
                Pred::True
            } else {
                Pred::False
            };
            self.emit(Op::Test {
                pred: p,
                target: Target::Here,
                negate: false,
            });
            return;
        }
        // An attribute used as a predicate, whether its name carries the `?` or not. A
        // declared attribute whose own name starts with `not-` (`not-locked?`) is read as
        // itself; `not-` negates only when the rest is the attribute.
        let attribute = |n: &str| {
            self.names
                .attributes
                .get(n)
                .or_else(|| {
                    n.strip_suffix('?')
                        .and_then(|b| self.names.attributes.get(b))
                })
                .copied()
        };
        let (negate, base, attr) = match attribute(name) {
            Some(a) => (false, name, Some(a)),
            None => match name.strip_prefix("not-") {
                Some(b) => (true, b, attribute(b)),
                None => (false, name, None),
            },
        };
        if let Some(a) = attr {
            let target = self.target_or_here(args, name);
            self.emit(Op::Test {
                pred: Pred::Attr(a),
                target,
                negate,
            });
            return;
        }
        let Some(base) = base.strip_suffix('?') else {
            self.err(
                codes::UNKNOWN_CONDITION,
                format!("unknown condition `{name}`"),
                head_of(at),
            );
            return;
        };
        // Predicates with a required name argument first.
        let (pred, rest): (Pred, &[Node]) = match base {
            "empty" => (Pred::Empty, args),
            "friend" => (Pred::Friend, args),
            "enemy" => (Pred::Enemy, args),
            "neutral" => (Pred::Neutral, args),
            "marked" => (Pred::Marked, args),
            "attacked" | "defended" => {
                // `(attacked? MOVE-TYPE)`: only the attackers' blocks of that move type
                // count. A direction or position argument keeps its usual meaning.
                let (mt, rest) = match args.first().and_then(Node::word) {
                    Some(w)
                        if self.declared_move_types.contains(w)
                            && self.dir(w).is_none()
                            && !self.names.positions.contains_key(w) =>
                    {
                        (self.move_type(w), &args[1..])
                    }
                    _ => (MoveType::NONE, args),
                };
                let p = if base == "attacked" {
                    Pred::Attacked(mt)
                } else {
                    Pred::Defended(mt)
                };
                (p, rest)
            }
            "last-from" => (Pred::LastFrom, args),
            "last-to" => (Pred::LastTo, args),
            "on-board" => (Pred::OnBoard, args),
            "piece" => {
                let Some(t) = args.first().and_then(|a| self.piece_type(a)) else {
                    return;
                };
                (Pred::Piece(t), &args[1..])
            }
            "in-zone" => {
                let Some(z) = args.first().and_then(Node::word) else {
                    self.err(
                        codes::UNKNOWN_CONDITION,
                        "`in-zone?` needs a zone".into(),
                        at,
                    );
                    return;
                };
                let Some(&z) = self.names.zones.get(z) else {
                    self.err(codes::UNKNOWN_ZONE, format!("unknown zone `{z}`"), &args[0]);
                    return;
                };
                (Pred::InZone(z), &args[1..])
            }
            "position" => {
                let Some(p) = args.first().and_then(Node::word) else {
                    self.err(
                        codes::UNKNOWN_CONDITION,
                        "`position?` needs a position".into(),
                        at,
                    );
                    return;
                };
                let Some(&p) = self.names.positions.get(p) else {
                    self.err(
                        codes::UNKNOWN_POSITION,
                        format!("unknown position `{p}`"),
                        &args[0],
                    );
                    return;
                };
                (Pred::Position(p), &args[1..])
            }
            "flag" => {
                let Some(f) = args.first().and_then(Node::word) else {
                    self.err(codes::UNKNOWN_CONDITION, "`flag?` needs a name".into(), at);
                    return;
                };
                (Pred::Flag(intern(&mut self.flags, f)), &args[1..])
            }
            "position-flag" => {
                let Some(f) = args.first().and_then(Node::word) else {
                    self.err(
                        codes::UNKNOWN_CONDITION,
                        "`position-flag?` needs a name".into(),
                        at,
                    );
                    return;
                };
                (
                    Pred::PosFlag(intern(&mut self.position_flags, f)),
                    &args[1..],
                )
            }
            other => match self.names.attributes.get(other) {
                Some(&a) => (Pred::Attr(a), args),
                None => {
                    self.err(
                        codes::UNKNOWN_CONDITION,
                        format!("unknown condition `{name}`"),
                        head_of(at),
                    );
                    return;
                }
            },
        };
        let target = if pred == Pred::OnBoard && rest.is_empty() {
            Target::Here
        } else {
            self.target_or_here(rest, name)
        };
        self.emit(Op::Test {
            pred,
            target,
            negate,
        });
    }
}
