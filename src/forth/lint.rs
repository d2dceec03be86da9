//! Lint mode of the Forth text interpreter: instead of stopping at the first error, loading
//! records findings and goes on, so that `dagaz lint` reports every problem of a program.
//!
//! In lint mode ([`Vm::start_lint`]):
//! - a word that is neither defined nor a number is recorded; while compiling, a placeholder
//!   is compiled in its place (it fails if it ever runs), while interpreting it is skipped.
//!   `'` and `[COMPILE]` of an unknown word (the `UNDEFINED` primitive) are recorded too and
//!   give the placeholder's execution token. At the end, a word that was defined later in
//!   the program is reported as used before its definition instead of as undefined;
//! - in the checked files (those read after [`Vm::lint_check_files`], except the runtime
//!   files `CORE.4TH` and `axiom.4th`), control structures are followed word by word
//!   (`IF … ELSE … THEN`/`ENDIF`, `BEGIN … UNTIL`/`AGAIN`/`WHILE … REPEAT`, `DO …
//!   LOOP`/`+LOOP`, `: … ;`). A structure left open is reported at its opening word, a
//!   closing word without its opening word at itself (and not run); the compile-time stack
//!   is repaired so that loading goes on. A definition whose compile-time stack depth at `;`
//!   differs from the depth at `:` is reported too (a structure made by other words);
//! - the stack effect of every colon definition built only from words of known effect
//!   (straight-line code: no control structure, no word of unknown effect) is computed. In
//!   the checked files, a definition with a stack comment `( a b -- c )` whose computed net
//!   effect differs from the declared one, or which takes more items than declared, is
//!   reported (a warning). Effects are known for the kernel's primitives (a table), host
//!   words declared with [`Vm::declare_effect`], variables, words made by a `DOES>` word
//!   with a straight-line `DOES>` part, and colon definitions with a computed effect or,
//!   failing that, a stack comment;
//! - any other error while loading is recorded with its place, and loading goes on with
//!   the next word (errors on a line where an unknown word was skipped are taken as its
//!   consequences and not reported). Running out of steps or memory still stops loading.
//!
//! Normal (non-lint) loading is not affected: every hook is behind `Vm::lint`.

use super::error::{FResult, ForthError, ForthErrorKind as K, codes};
use super::interp::parse_number;
use super::vm::{FLAG_HIDDEN, NATIVE_BASE, UNDEFINED_XT, Vm, p};
use crate::diagnostics::Diagnostic;
use crate::span::FileId;
use std::collections::{HashMap, HashSet};

/// The name an undefined-word error carries when lint's placeholder runs.
pub(crate) const PLACEHOLDER: &str = "<undefined word compiled by lint>";

/// A token: file, byte offset, length.
type Token = (FileId, u32, u32);

/// The data-stack effect of a word: it takes `inputs` items and leaves `outputs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    pub inputs: u32,
    pub outputs: u32,
}

impl Effect {
    const fn new(inputs: u32, outputs: u32) -> Effect {
        Effect { inputs, outputs }
    }

    fn net(self) -> i64 {
        self.outputs as i64 - self.inputs as i64
    }
}

impl std::fmt::Display for Effect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "takes {} and leaves {} (net {:+})",
            self.inputs,
            self.outputs,
            self.net()
        )
    }
}

/// The effect of straight-line code so far.
#[derive(Clone, Copy, Debug)]
struct Acc {
    /// Data-stack depth relative to the start.
    depth: i64,
    /// The lowest depth reached (minus the items taken from the caller).
    min: i64,
    /// Return-stack depth relative to the start.
    rdepth: i64,
    /// False once anything made the effect uncertain.
    certain: bool,
}

impl Acc {
    fn new() -> Acc {
        Acc {
            depth: 0,
            min: 0,
            rdepth: 0,
            certain: true,
        }
    }

    fn apply(&mut self, e: Effect) {
        self.depth -= e.inputs as i64;
        self.min = self.min.min(self.depth);
        self.depth += e.outputs as i64;
    }

    fn result(&self) -> Option<Effect> {
        (self.certain && self.rdepth == 0)
            .then(|| Effect::new((-self.min) as u32, (self.depth - self.min).max(0) as u32))
    }
}

/// A control structure open in the definition being compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Structure {
    If,
    Else,
    Begin,
    While,
    Do,
}

impl Structure {
    fn unclosed(self) -> &'static str {
        match self {
            Structure::If => "`IF` is not closed by `THEN` or `ENDIF`",
            Structure::Else => "`IF … ELSE` is not closed by `THEN` or `ENDIF`",
            Structure::Begin => "`BEGIN` is not closed by `UNTIL`, `AGAIN` or `WHILE … REPEAT`",
            Structure::While => "`BEGIN … WHILE` is not closed by `REPEAT`",
            Structure::Do => "`DO` is not closed by `LOOP` or `+LOOP`",
        }
    }
}

/// Where a definition's effect stands at an open control structure, so that its branches
/// and loops can be followed: a structure whose branches end at different depths, or a
/// loop whose body changes the depth, makes the effect uncertain.
#[derive(Clone, Debug)]
enum Flow {
    /// After `IF` took its flag; the end of the `IF` branch once `ELSE` was met.
    If { start: Acc, then_end: Option<Acc> },
    /// At `BEGIN`.
    Begin { start: Acc },
    /// At `BEGIN`, and after `WHILE` took its flag.
    While { start: Acc, exit: Acc },
    /// After `DO` took its limit and index.
    Do { start: Acc },
}

/// `a` and `b` joined where two paths meet: the same depth, else uncertain.
fn join(a: &Acc, b: &Acc) -> Acc {
    Acc {
        depth: a.depth,
        min: a.min.min(b.min),
        rdepth: a.rdepth,
        certain: a.certain && b.certain && a.depth == b.depth && a.rdepth == b.rdepth,
    }
}

#[derive(Clone, Debug)]
struct Open {
    kind: Structure,
    /// The opening word (`IF` for an `ELSE`, `BEGIN` for a `WHILE`).
    at: Token,
    /// Data-stack depth before the opening word ran.
    depth: usize,
}

/// The colon definition being compiled.
#[derive(Clone, Debug)]
struct Def {
    nfa: u32,
    name: String,
    colon: Token,
    /// Data-stack depth after `:`.
    depth: usize,
    /// In a checked file.
    checked: bool,
    open: Vec<Open>,
    acc: Acc,
    /// The control structures open in the code whose effect `acc` follows.
    flow: Vec<Flow>,
    /// The words taken on trust ([`LintState::on_trust`]) that the body uses, by name.
    relied: Vec<String>,
    declared: Option<Effect>,
    /// The next token may be the stack comment.
    expect_comment: bool,
    /// The next token is `COMPILE`'s operand.
    skip_next: bool,
    /// After `DOES>`: the address of the code after it and the effect of that code.
    does: Option<(u32, Acc)>,
    /// `[` was used (the compile-time stack may change on purpose).
    interpreted: bool,
    /// `[COMPILE]` or `'` met an unknown word (the compile-time stack holds an extra cell).
    tainted: bool,
}

impl Def {
    fn acc(&mut self) -> &mut Acc {
        match &mut self.does {
            Some((_, a)) => a,
            None => &mut self.acc,
        }
    }
}

#[derive(Clone, Debug)]
enum Finding {
    Undefined {
        name: String,
        at: Token,
        /// Used inside its own definition.
        recursive: bool,
        /// `HERE` when it was not found: a word found at the end whose header lies below
        /// was there already, and was not found because the look-up was exact (`'`).
        here: u32,
    },
    Unbalanced {
        message: String,
        at: Token,
        note: Option<String>,
    },
    StackEffect {
        message: String,
        at: Token,
        note: Option<String>,
    },
    Error(ForthError, Token),
}

/// What lint mode keeps while a program loads.
#[derive(Clone, Debug, Default)]
pub(crate) struct LintState {
    /// The last word any parsing word read (a name after `:`, the word after `'`).
    pub(crate) last_parsed: Option<Token>,
    findings: Vec<Finding>,
    /// Files read from now on are checked.
    check_new_files: bool,
    checked: HashSet<FileId>,
    /// Where each word was defined (its name token), by NFA.
    defined_at: HashMap<u32, Token>,
    /// Known effects by execution token (colon definitions, host words).
    effects: HashMap<u32, Effect>,
    /// Known effects of the code after a `DOES>`, by its address.
    does_effects: HashMap<u32, Effect>,
    /// Words whose effect is their stack comment, their body being beyond lint's reach.
    on_trust: HashSet<u32>,
    def: Option<Def>,
    /// Lines where an unknown word was skipped while interpreting.
    skipped_lines: HashSet<(FileId, u32)>,
    /// A `LOAD` failed (the index of its finding): later findings would follow from the
    /// missing file, and are not recorded.
    incomplete: Option<usize>,
}

impl LintState {
    fn record(&mut self, f: Finding) {
        if self.incomplete.is_none() {
            self.findings.push(f);
        }
    }
}

/// The effect of a primitive; `None` when it is control flow or depends on the data.
fn primitive_effect(code: i32) -> Option<Effect> {
    let e = Effect::new;
    Some(match code {
        p::DUP | p::FDUP => e(1, 2),
        p::DROP | p::FDROP => e(1, 0),
        p::SWAP | p::FSWAP => e(2, 2),
        p::OVER | p::FOVER => e(2, 3),
        p::ROT | p::MROT => e(3, 3),
        p::NIP => e(2, 1),
        p::TUCK => e(2, 3),
        p::TWODUP | p::F2DUP => e(2, 4),
        p::TWODROP => e(2, 0),
        p::TWOSWAP => e(4, 4),
        p::TWOOVER => e(4, 6),
        p::ADD
        | p::SUB
        | p::MUL
        | p::DIV
        | p::MOD
        | p::MIN
        | p::MAX
        | p::AND
        | p::OR
        | p::XOR
        | p::LSHIFT
        | p::RSHIFT
        | p::EQ
        | p::NE
        | p::LT
        | p::GT
        | p::LE
        | p::GE
        | p::ULT
        | p::FADD
        | p::FSUB
        | p::FMUL
        | p::FDIV
        | p::FLT
        | p::FGT
        | p::FEQ => e(2, 1),
        p::DIVMOD => e(2, 2),
        p::MULDIV => e(3, 1),
        p::INC
        | p::DEC
        | p::INC2
        | p::DEC2
        | p::MUL2
        | p::DIV2
        | p::NEGATE
        | p::ABS
        | p::NOT
        | p::INVERT
        | p::ZEQ
        | p::ZNE
        | p::ZLT
        | p::ZGT
        | p::FZLT
        | p::FZEQ
        | p::STOF
        | p::FTOS
        | p::FETCH
        | p::CFETCH
        | p::CFATOPFA
        | p::SCOUNT => e(1, 1),
        p::TRUE
        | p::FALSE
        | p::HERE
        | p::PADW
        | p::STATE
        | p::BASE
        | p::DP
        | p::CURRENT
        | p::CONTEXT
        | p::MFIND => e(0, 1),
        p::STORE | p::CSTORE | p::PLUSSTORE | p::SMOVE => e(2, 0),
        p::INCR
        | p::DECR
        | p::COMMA
        | p::CCOMMA
        | p::EMIT
        | p::TYPE
        | p::DOT
        | p::UDOT
        | p::FDOT
        | p::WORD
        | p::HEADER
        | p::NUMBERSTR => e(1, 0),
        p::CMOVE | p::FILL => e(3, 0),
        p::IMMEDIATE | p::BUILDS | p::CREATE => e(0, 0),
        _ => return None,
    })
}

/// Reads a stack comment `( a b -- c )` from the text after a `(` token: the numbers of
/// items before and after `--`. `None` when the comment is no plain stack comment.
fn stack_comment(text: &str) -> Option<Effect> {
    let body = &text[..text.find(')')?];
    let words: Vec<&str> = body.split_whitespace().collect();
    let sep = words.iter().position(|w| *w == "--")?;
    if words.iter().filter(|w| **w == "--").count() != 1
        || words
            .iter()
            .any(|w| w.contains('|') || w.contains("..") || w.contains('…') || *w == "(")
    {
        return None;
    }
    Some(Effect::new(sep as u32, (words.len() - sep - 1) as u32))
}

/// Whether `name` is one of Axiom's runtime files (`CORE.4TH`, `axiom.4th`), in any folder.
pub(crate) fn is_runtime_file(name: &str) -> bool {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.eq_ignore_ascii_case("CORE.4TH") || base.eq_ignore_ascii_case("axiom.4th")
}

impl Vm {
    /// Starts lint mode (see the module documentation). Effects of the words defined from
    /// now on are followed; no file is checked until [`Vm::lint_check_files`].
    pub fn start_lint(&mut self) {
        self.lint = Some(Box::default());
    }

    /// In lint mode, checks (and reports findings in) the files read from now on, except
    /// the runtime files `CORE.4TH` and `axiom.4th`.
    pub fn lint_check_files(&mut self) {
        if let Some(l) = self.lint.as_mut() {
            l.check_new_files = true;
        }
    }

    /// In lint mode, declares the stack effect of a host word (or any word) by name.
    pub fn declare_effect(&mut self, name: &str, inputs: u32, outputs: u32) {
        if let Some(nfa) = self.find(name.as_bytes()) {
            if let Some(l) = self.lint.as_mut() {
                l.effects.insert(nfa + 12, Effect::new(inputs, outputs));
            }
        }
    }

    /// The effect lint mode found for a word, if it is known.
    pub fn lint_effect_of(&self, name: &str) -> Option<Effect> {
        let nfa = self.find(name.as_bytes())?;
        self.effect_of(nfa + 12)
    }

    /// Ends lint mode: the findings in the checked files, as diagnostics in load order.
    /// Unknown words that the program defines later are reported as used before their
    /// definition.
    pub fn finish_lint(&mut self) -> Vec<Diagnostic> {
        let Some(l) = self.lint.take() else {
            return vec![];
        };
        let span = |t: Token| self.sources.span_at(t.0, t.1 as usize, t.2 as usize);
        let place = |t: Token| {
            let s = span(t);
            format!("{}:{}:{}", self.sources.get(t.0).display, s.line, s.col)
        };
        let names: Vec<String> = self.words().into_iter().map(|(n, _)| n).collect();
        // Further uses of an unknown word in the same file, by (file, name): reported as a
        // note of its first use.
        let mut uses: HashMap<(FileId, &str), Vec<Token>> = HashMap::new();
        for f in &l.findings {
            if let Finding::Undefined { name, at, .. } = f {
                uses.entry((at.0, name.as_str())).or_default().push(*at);
            }
        }
        let mut out: Vec<Diagnostic> = vec![];
        let mut seen = HashSet::new();
        for (i, f) in l.findings.iter().enumerate() {
            let at = match f {
                Finding::Undefined { at, .. }
                | Finding::Unbalanced { at, .. }
                | Finding::StackEffect { at, .. }
                | Finding::Error(_, at) => *at,
            };
            // The runtime files are not checked, but an error of code they run while
            // loading, or a word they use that nothing defines (1.51's `SEED2!` before
            // dagaz had it), stops `perft` and `autoplay` as well: it is reported.
            if !l.checked.contains(&at.0)
                && !matches!(f, Finding::Error(..) | Finding::Undefined { .. })
            {
                continue;
            }
            if let Finding::Undefined { name, .. } = f {
                if uses
                    .get(&(at.0, name.as_str()))
                    .is_some_and(|u| u.first() != Some(&at))
                {
                    continue;
                }
            }
            let d = match f {
                Finding::Undefined {
                    name,
                    recursive,
                    here,
                    ..
                } => {
                    let found = self.find(name.as_bytes());
                    let later = found
                        .filter(|&nfa| nfa >= *here)
                        .and_then(|nfa| l.defined_at.get(&nfa));
                    // There already, but not found: an exact look-up (`'`, `-FIND`) of a
                    // name defined in another case.
                    let other_case = found
                        .filter(|&nfa| nfa < *here)
                        .map(|nfa| (self.name_of(nfa), l.defined_at.get(&nfa)));
                    if *recursive {
                        Diagnostic::error(
                            codes::UNDEFINED_WORD,
                            format!("undefined word `{name}`"),
                        )
                        .with_note(
                            "a word is not visible inside its own definition: call it with `RECURSE`",
                        )
                    } else if let Some(def) = later {
                        Diagnostic::error(
                            codes::USED_BEFORE_DEFINITION,
                            format!("`{name}` is used before its definition"),
                        )
                        .with_note(format!("`{name}` is defined later, at {}", place(*def)))
                    } else {
                        let mut d = Diagnostic::error(
                            codes::UNDEFINED_WORD,
                            format!("undefined word `{name}`"),
                        );
                        if let Some((other, def)) = &other_case {
                            d = d.with_note(format!(
                                "`'` and `-FIND` match the exact spelling only: `{other}`{} differs in case",
                                def.map(|t| format!(" (defined at {})", place(*t)))
                                    .unwrap_or_default()
                            ));
                        } else if let Some(n) =
                            crate::text::suggestions(name, names.iter().map(String::as_str)).first()
                        {
                            d = d.with_note(format!("did you mean `{n}`?"));
                        }
                        d
                    }
                }
                Finding::Unbalanced { message, note, .. } => {
                    let d = Diagnostic::error(codes::UNBALANCED_STRUCTURE, message.clone());
                    match note {
                        Some(n) => d.with_note(n.clone()),
                        None => d,
                    }
                }
                Finding::StackEffect { message, note, .. } => {
                    let d = Diagnostic::warning(codes::STACK_EFFECT, message.clone());
                    match note {
                        Some(n) => d.with_note(n.clone()),
                        None => d,
                    }
                }
                Finding::Error(e, _) => {
                    let mut d = e.to_diagnostic();
                    d.span = None;
                    if let Some(p) = &e.place {
                        if p.span.file != at.0 || p.span.offset != at.1 {
                            d = d
                                .with_note(format!("at {}:{}:{}", p.file, p.span.line, p.span.col));
                        }
                    }
                    d
                }
            };
            let mut d = d.with_span(span(at));
            let more = match f {
                Finding::Undefined { name, .. } => uses
                    .get(&(at.0, name.as_str()))
                    .filter(|more| more.len() > 1),
                _ => None,
            };
            if let Some(more) = more {
                let mut lines: Vec<String> = more[1..]
                    .iter()
                    .take(8)
                    .map(|t| span(*t).line.to_string())
                    .collect();
                if more.len() > 9 {
                    lines.push("…".into());
                }
                d = d.with_note(format!(
                    "used {} more time{} in this file (line{} {})",
                    more.len() - 1,
                    if more.len() == 2 { "" } else { "s" },
                    if more.len() == 2 { "" } else { "s" },
                    lines.join(", ")
                ));
            }
            if l.incomplete == Some(i) {
                d = d.with_note(
                    "the program is incomplete without this file: later findings are not reported",
                );
            }
            if seen.insert((d.code.id, at, d.message.clone())) {
                out.push(d);
            }
        }
        out
    }

    /// The effect of the word whose execution token is `xt`, if known.
    fn effect_of(&self, xt: u32) -> Option<Effect> {
        let l = self.lint.as_ref()?;
        let code = self.cell(xt).ok()?;
        match code {
            p::DOCOL => l.effects.get(&xt).copied(),
            p::DOVAR => Some(Effect::new(0, 1)),
            c if c < 0 => l.does_effects.get(&(!c as u32)).copied(),
            c if c >= NATIVE_BASE => l.effects.get(&xt).copied(),
            c => primitive_effect(c),
        }
    }

    fn lint_mut(&mut self) -> &mut LintState {
        self.lint.get_or_insert_with(Box::default)
    }

    fn line_of(&self, t: Token) -> (FileId, u32) {
        (
            t.0,
            self.sources.span_at(t.0, t.1 as usize, t.2 as usize).line,
        )
    }

    fn token_text(&self, t: Token) -> String {
        let text = &self.sources.get(t.0).text;
        text.get(t.1 as usize..(t.1 + t.2) as usize)
            .unwrap_or("")
            .to_owned()
    }

    /// A file starts: checked when checking is on and it is not a runtime file.
    pub(crate) fn lint_file_start(&mut self, file: FileId) {
        let name = self.sources.get(file).path.to_string_lossy().into_owned();
        let l = self.lint_mut();
        if l.check_new_files && !is_runtime_file(&name) {
            l.checked.insert(file);
        }
    }

    /// A file ends: a definition it started and did not end is reported and ended.
    pub(crate) fn lint_file_end(&mut self, file: FileId) -> FResult<()> {
        let Some(def) = self.lint.as_ref().and_then(|l| l.def.clone()) else {
            return Ok(());
        };
        if def.colon.0 != file || !self.compiling() {
            return Ok(());
        }
        if def.checked {
            let message = format!(
                "the definition of `{}` is not ended by `;` before the end of the file",
                def.name
            );
            self.lint_mut().record(Finding::Unbalanced {
                message,
                at: def.colon,
                note: None,
            });
        }
        self.lint_abandon_definition(def.depth)
    }

    /// Ends the definition being compiled without computing its effect.
    fn lint_abandon_definition(&mut self, depth: usize) -> FResult<()> {
        self.ds_truncate(depth);
        let xt = self.primitive_xt(p::EXIT)?;
        self.comma(xt as i32)?;
        self.clear_flags_of_latest(FLAG_HIDDEN);
        self.set_state(false);
        self.lint_mut().def = None;
        Ok(())
    }

    /// A header was created: remember where its name was read.
    pub(crate) fn lint_defined(&mut self, nfa: u32) {
        let at = self
            .lint
            .as_ref()
            .and_then(|l| l.last_parsed)
            .or(self.last_token);
        if let Some(at) = at {
            self.lint_mut().defined_at.insert(nfa, at);
        }
    }

    /// `UNDEFINED` in lint mode: records the unknown word whose name is at `a` and pushes
    /// the placeholder's execution token (what `'` would have found).
    pub(crate) fn lint_undefined_tick(&mut self, a: u32) -> FResult<()> {
        let name = self.cstring(a);
        let at = self
            .lint
            .as_ref()
            .and_then(|l| l.last_parsed)
            .or(self.last_token);
        let compiling = self.compiling();
        let here = self.here();
        let l = self.lint_mut();
        if let Some(at) = at {
            let recursive = l
                .def
                .as_ref()
                .is_some_and(|d| d.name.eq_ignore_ascii_case(&name));
            l.record(Finding::Undefined {
                name,
                at,
                recursive,
                here,
            });
        }
        if compiling {
            if let Some(d) = l.def.as_mut() {
                d.tainted = true;
                d.acc().certain = false;
            }
        }
        self.push(UNDEFINED_XT as i32)
    }

    /// An error while interpreting `token`: recorded (unless it follows from a finding
    /// already made). Returns false when loading cannot go on.
    pub(crate) fn lint_error(&mut self, e: ForthError, token: Token) -> bool {
        if matches!(
            e.kind,
            K::StepBudget(_) | K::DictionaryFull | K::DictionaryCorrupt(_)
        ) {
            return false;
        }
        if matches!(&e.kind, K::UndefinedWord(w) if w == PLACEHOLDER) {
            return true;
        }
        let line = self.line_of(token);
        let l = self.lint_mut();
        if !l.skipped_lines.contains(&line) && l.incomplete.is_none() {
            let load = matches!(e.kind, K::Load(_) | K::LoadRefused(_));
            l.findings.push(Finding::Error(e, token));
            if load {
                // Whatever the missing file defines is missing from here on.
                l.incomplete = Some(l.findings.len() - 1);
            }
        }
        true
    }

    fn lint_def(&mut self) -> Option<&mut Def> {
        self.lint.as_mut().and_then(|l| l.def.as_mut())
    }

    /// Adds a word's effect to the definition being compiled (`None`: unknown).
    fn lint_apply(&mut self, e: Option<Effect>) {
        if let Some(d) = self.lint_def() {
            let acc = d.acc();
            match e {
                Some(e) => acc.apply(e),
                None => acc.certain = false,
            }
        }
    }

    /// Follows a control-structure word in the definition's effect (see [`Flow`]).
    fn lint_flow(&mut self, word: &str) {
        let Some(d) = self.lint_def() else { return };
        let mut acc = *d.acc();
        let flag = Effect::new(1, 0);
        match word {
            "IF" => {
                acc.apply(flag);
                d.flow.push(Flow::If {
                    start: acc,
                    then_end: None,
                });
            }
            "ELSE" => match d.flow.last_mut() {
                Some(Flow::If {
                    start,
                    then_end: then_end @ None,
                }) => {
                    *then_end = Some(acc);
                    acc = Acc {
                        min: acc.min.min(start.min),
                        ..*start
                    };
                }
                _ => acc.certain = false,
            },
            "THEN" | "ENDIF" => match d.flow.pop() {
                Some(Flow::If {
                    then_end: Some(t), ..
                }) => acc = join(&acc, &t),
                Some(Flow::If { start, .. }) => acc = join(&acc, &start),
                _ => acc.certain = false,
            },
            "BEGIN" => d.flow.push(Flow::Begin { start: acc }),
            "UNTIL" | "AGAIN" => {
                if word == "UNTIL" {
                    acc.apply(flag);
                }
                match d.flow.pop() {
                    Some(Flow::Begin { start }) => acc = join(&acc, &start),
                    _ => acc.certain = false,
                }
                if word == "AGAIN" {
                    // Only an exit leaves the loop: what follows is not reached this way.
                    acc.certain = false;
                }
            }
            "WHILE" => {
                acc.apply(flag);
                match d.flow.pop() {
                    Some(Flow::Begin { start }) => d.flow.push(Flow::While { start, exit: acc }),
                    _ => acc.certain = false,
                }
            }
            "REPEAT" => match d.flow.pop() {
                Some(Flow::While { start, exit }) => {
                    let back = join(&acc, &start);
                    acc = Acc {
                        min: back.min.min(exit.min),
                        certain: back.certain && exit.certain,
                        ..exit
                    };
                }
                _ => acc.certain = false,
            },
            "DO" => {
                acc.apply(Effect::new(2, 0));
                acc.rdepth += 2;
                d.flow.push(Flow::Do { start: acc });
            }
            _ => {
                if word == "+LOOP" {
                    acc.apply(flag);
                }
                match d.flow.pop() {
                    Some(Flow::Do { start }) => {
                        acc = join(&acc, &start);
                        acc.rdepth -= 2;
                    }
                    _ => acc.certain = false,
                }
            }
        }
        *d.acc() = acc;
    }

    /// Adds the effect of a non-immediate word compiled into the current definition.
    fn lint_apply_word(&mut self, xt: u32) {
        let code = self.cell(xt).unwrap_or(0);
        let Some(d) = self.lint_def() else { return };
        let acc = d.acc();
        match code {
            p::TOR => {
                acc.apply(Effect::new(1, 0));
                acc.rdepth += 1;
            }
            p::RFROM => {
                if acc.rdepth <= 0 {
                    acc.certain = false;
                }
                acc.rdepth -= 1;
                acc.apply(Effect::new(0, 1));
            }
            p::RFETCH | p::R => {
                if acc.rdepth <= 0 {
                    acc.certain = false;
                }
                acc.apply(Effect::new(0, 1));
            }
            // The loop's index (`DO` keeps two cells on the return stack).
            p::I | p::J => {
                if acc.rdepth < if code == p::I { 2 } else { 4 } {
                    acc.certain = false;
                }
                acc.apply(Effect::new(0, 1));
            }
            _ => {
                let e = self.effect_of(xt);
                // (Only the program's own words: the runtime's are not checked.)
                let trusted = self.lint.as_ref().is_some_and(|l| {
                    l.on_trust.contains(&xt)
                        && l.defined_at
                            .get(&(xt - 12))
                            .is_some_and(|t| l.checked.contains(&t.0))
                });
                if trusted {
                    let name = format!("`{}`", self.name_of(xt - 12));
                    if let Some(d) = self.lint_def() {
                        if !d.relied.contains(&name) {
                            d.relied.push(name);
                        }
                    }
                }
                self.lint_apply(e);
            }
        }
    }

    /// Interprets one token in lint mode.
    pub(crate) fn lint_token(
        &mut self,
        name: &[u8],
        token: Token,
        host: &mut dyn super::vm::Host,
    ) -> FResult<()> {
        let checked = self
            .lint
            .as_ref()
            .is_some_and(|l| l.checked.contains(&token.0));
        // The stack comment right after `: name`.
        let comment = if self.lint_def().is_some_and(|d| d.expect_comment) {
            let declared = (name == b"(")
                .then(|| {
                    let text = &self.sources.get(token.0).text;
                    stack_comment(text.get((token.1 + token.2) as usize..).unwrap_or(""))
                })
                .flatten();
            Some(declared)
        } else {
            None
        };
        if let Some(declared) = comment {
            if let Some(d) = self.lint_def() {
                d.expect_comment = false;
                d.declared = declared;
            }
        }
        let found = self.lookup(name, true)?;
        let is_number = found.is_none() && parse_number(name, self.base()).is_some();
        if !self.compiling() {
            let Some(nfa) = found else {
                if is_number {
                    return self.interpret_name(name, token, host);
                }
                let line = self.line_of(token);
                let here = self.here();
                let l = self.lint_mut();
                l.record(Finding::Undefined {
                    name: String::from_utf8_lossy(name).into_owned(),
                    at: token,
                    recursive: false,
                    here,
                });
                l.skipped_lines.insert(line);
                return Ok(());
            };
            let code = self.cell(nfa + 12)?;
            self.interpret_name(name, token, host)?;
            if code == p::COLON && self.compiling() {
                self.lint_begin_definition(token, checked);
            }
            return Ok(());
        }
        // Compiling. `COMPILE`'s operand, defined or not, is not run by the definition and
        // is no structure word.
        let operand = match self.lint_def() {
            Some(d) if d.skip_next => {
                d.skip_next = false;
                true
            }
            _ => false,
        };
        if operand && (found.is_some() || is_number) {
            return self.interpret_name(name, token, host);
        }
        let Some(nfa) = found else {
            if is_number {
                self.lint_apply(Some(Effect::new(0, 1)));
                return self.interpret_name(name, token, host);
            }
            let name = String::from_utf8_lossy(name).into_owned();
            let recursive = self
                .lint_def()
                .is_some_and(|d| d.name.eq_ignore_ascii_case(&name));
            if !operand {
                self.lint_apply(None);
            }
            let at = self.here();
            self.lint_mut().record(Finding::Undefined {
                name,
                at: token,
                recursive,
                here: at,
            });
            self.comma(UNDEFINED_XT as i32)?;
            self.origins.insert(at, token);
            return Ok(());
        };
        let xt = nfa + 12;
        let code = self.cell(xt)?;
        if !self.is_immediate(nfa) {
            let open = if code == p::COLON && checked {
                self.lint.as_ref().and_then(|l| l.def.clone())
            } else {
                None
            };
            if let Some(def) = open {
                // `:` inside a definition: the previous one lacks its `;`.
                let s = self
                    .sources
                    .span_at(token.0, token.1 as usize, token.2 as usize);
                self.lint_mut().record(Finding::Unbalanced {
                    message: format!(
                        "the definition of `{}` is not ended by `;`: `:` at line {} starts another definition",
                        def.name, s.line
                    ),
                    at: def.colon,
                    note: None,
                });
                self.lint_abandon_definition(def.depth)?;
                self.interpret_name(name, token, host)?;
                if self.compiling() {
                    self.lint_begin_definition(token, checked);
                }
                return Ok(());
            }
            if code == p::COMPILE {
                if let Some(d) = self.lint_def() {
                    d.skip_next = true;
                }
            } else {
                self.lint_apply_word(xt);
            }
            return self.interpret_name(name, token, host);
        }
        // An immediate word while compiling.
        let word = self.name_of(nfa).to_ascii_uppercase();
        match word.as_str() {
            "(" | "\\" => {}
            "[']" | "ASCII" | "S\"" => self.lint_apply(Some(Effect::new(0, 1))),
            ".\"" => self.lint_apply(Some(Effect::new(0, 0))),
            "ABORT\"" => self.lint_apply(Some(Effect::new(1, 0))),
            ";" => {
                self.lint_end_definition(checked);
                return self.interpret_name(name, token, host);
            }
            "DOES>" => {
                self.interpret_name(name, token, host)?;
                let here = self.here();
                if let Some(d) = self.lint_def() {
                    d.does = Some((here, Acc::new()));
                    d.flow.clear();
                }
                return Ok(());
            }
            "[" => {
                if let Some(d) = self.lint_def() {
                    d.interpreted = true;
                }
                self.lint_apply(None);
            }
            "IF" | "ELSE" | "THEN" | "ENDIF" | "BEGIN" | "WHILE" | "REPEAT" | "UNTIL" | "AGAIN"
            | "DO" | "LOOP" | "+LOOP" => {
                self.lint_flow(&word);
                if checked && self.lint_def().is_some() && !self.lint_structure(&word, token) {
                    return Ok(());
                }
            }
            _ => self.lint_apply(None),
        }
        self.interpret_name(name, token, host)
    }

    /// `:` ran: a definition starts.
    fn lint_begin_definition(&mut self, colon: Token, checked: bool) {
        let nfa = self.latest();
        let name = self.name_of(nfa);
        let depth = self.stack().len();
        self.lint_mut().def = Some(Def {
            nfa,
            name,
            colon,
            depth,
            checked,
            open: vec![],
            acc: Acc::new(),
            flow: vec![],
            relied: vec![],
            declared: None,
            expect_comment: true,
            skip_next: false,
            does: None,
            interpreted: false,
            tainted: false,
        });
    }

    /// A structure word in a checked definition; returns whether to run it.
    fn lint_structure(&mut self, word: &str, token: Token) -> bool {
        use Structure::*;
        let depth = self.stack().len();
        let open = |kind| Open {
            kind,
            at: token,
            depth,
        };
        let (accepts, opener): (&[Structure], &str) = match word {
            "IF" | "BEGIN" | "DO" => {
                let kind = match word {
                    "IF" => If,
                    "BEGIN" => Begin,
                    _ => Do,
                };
                if let Some(d) = self.lint_def() {
                    d.open.push(open(kind));
                }
                return true;
            }
            "ELSE" => (&[If], "IF"),
            "THEN" | "ENDIF" => (&[If, Else], "IF"),
            "WHILE" | "UNTIL" | "AGAIN" => (&[Begin], "BEGIN"),
            "REPEAT" => (&[While], "BEGIN … WHILE"),
            _ => (&[Do], "DO"),
        };
        let Some(d) = self.lint_def() else {
            return true;
        };
        let Some(i) = d.open.iter().rposition(|o| accepts.contains(&o.kind)) else {
            let text = self.token_text(token);
            self.lint_mut().record(Finding::Unbalanced {
                message: format!("`{text}` without `{opener}`"),
                at: token,
                note: Some("the word is ignored".into()),
            });
            return false;
        };
        let inner: Vec<Open> = d.open.drain(i + 1..).collect();
        let matched = d.open.pop();
        let text = self.token_text(token);
        if let Some(first) = inner.first() {
            self.ds_truncate(first.depth);
        }
        for o in inner {
            self.lint_mut().record(Finding::Unbalanced {
                message: o.kind.unclosed().to_owned(),
                at: o.at,
                note: Some(format!("`{text}` closes an outer structure first")),
            });
        }
        if let Some(m) = matched {
            let next = match (word, m.kind) {
                ("ELSE", _) => Some(Else),
                ("WHILE", _) => Some(While),
                _ => None,
            };
            if let (Some(kind), Some(d)) = (next, self.lint_def()) {
                d.open.push(Open { kind, ..m });
            }
        }
        true
    }

    /// `;` in lint mode: structure checks (checked files) and the definition's effect.
    fn lint_end_definition(&mut self, checked: bool) {
        let Some(def) = self.lint.as_mut().and_then(|l| l.def.take()) else {
            return;
        };
        if checked && def.checked {
            let mut repaired = false;
            for o in &def.open {
                self.lint_mut().record(Finding::Unbalanced {
                    message: o.kind.unclosed().to_owned(),
                    at: o.at,
                    note: Some(format!("the definition of `{}` ends first", def.name)),
                });
                repaired = true;
            }
            let depth = self.stack().len();
            if !repaired && !def.tainted && !def.interpreted && depth != def.depth {
                self.lint_mut().record(Finding::Unbalanced {
                    message: format!(
                        "the definition of `{}` leaves the compile-time stack unbalanced ({} cells at `;`, {} at `:`)",
                        def.name, depth, def.depth
                    ),
                    at: def.colon,
                    note: Some("a control structure is not closed or is closed twice".into()),
                });
                repaired = true;
            }
            if repaired {
                self.ds_truncate(def.depth);
            }
        }
        let l = self.lint_mut();
        if let Some((addr, acc)) = def.does {
            if let Some(e) = acc.result() {
                // The child's body address comes first.
                let mut child = Acc::new();
                child.apply(Effect::new(0, 1));
                child.apply(e);
                if let Some(c) = child.result() {
                    l.does_effects.insert(addr, c);
                }
            }
            return;
        }
        let computed = if def.interpreted {
            None
        } else {
            def.acc.result()
        };
        let mismatch = match (def.checked, computed, def.declared) {
            (true, Some(c), Some(d)) if c.net() != d.net() || c.inputs > d.inputs => Some((c, d)),
            _ => None,
        };
        if let Some((c, d)) = mismatch {
            let note = (!def.relied.is_empty()).then(|| {
                format!(
                    "the body's effect takes the stack comments of {} on trust (lint cannot follow their bodies): a wrong comment there shows here",
                    def.relied.join(", ")
                )
            });
            l.record(Finding::StackEffect {
                message: format!(
                    "the stack comment of `{}` declares that it {d}, but its body {c}",
                    def.name
                ),
                at: def.colon,
                note,
            });
        }
        // The comment is the word's contract for its callers when the body cannot be
        // followed, or does not keep it (reported once, here, not again at every caller).
        let effect = if mismatch.is_some() {
            def.declared
        } else {
            computed.or(def.declared)
        };
        if let Some(e) = effect {
            l.effects.insert(def.nfa + 12, e);
        }
        if def.declared.is_some() && (computed.is_none() || mismatch.is_some()) {
            l.on_trust.insert(def.nfa + 12);
        }
    }
}

/// Where a finding is, for tests.
#[cfg(test)]
pub(crate) fn place(vm: &Vm, d: &Diagnostic) -> String {
    let s = d.span.unwrap_or_default();
    format!("{}:{}:{}", vm.sources.get(s.file).display, s.line, s.col)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forth::{Limits, NoHost, PRELUDE};

    /// Lints `src` (as `t.4th`) over dagaz's prelude: `code line:col message` per finding.
    fn lint(src: &str) -> Vec<String> {
        let mut vm = Vm::new(Limits::default());
        vm.start_lint();
        vm.interpret_str("<prelude>", PRELUDE, &mut NoHost).unwrap();
        vm.lint_check_files();
        vm.interpret_str("t.4th", src, &mut NoHost).unwrap();
        vm.finish_lint()
            .iter()
            .map(|d| {
                let s = d.span.unwrap();
                format!("{} {}:{} {}", d.code.id, s.line, s.col, d.message)
            })
            .collect()
    }

    #[test]
    fn every_undefined_word_is_reported() {
        let f = lint(": a ( -- ) foo ;\n: b bar 1 ;\nbaz\n: c a b ;");
        assert_eq!(
            f,
            [
                "DZ1001 1:12 undefined word `foo`",
                "DZ1001 2:5 undefined word `bar`",
                "DZ1001 3:1 undefined word `baz`",
            ]
        );
    }

    #[test]
    fn words_defined_later_are_used_before_their_definition() {
        let mut vm = Vm::new(Limits::default());
        vm.start_lint();
        vm.interpret_str("<prelude>", PRELUDE, &mut NoHost).unwrap();
        vm.lint_check_files();
        vm.interpret_str(
            "t.4th",
            ": a later 1 ;\n' later2 DROP\n: later ;\n: later2 ;\n: rec rec ;\n: Upper ;\n' upper DROP",
            &mut NoHost,
        )
        .unwrap();
        let d = vm.finish_lint();
        let f: Vec<String> = d
            .iter()
            .map(|d| {
                format!(
                    "{} {} {} {:?}",
                    d.code.id,
                    place(&vm, d),
                    d.message,
                    d.notes
                )
            })
            .collect();
        assert_eq!(
            f,
            [
                "DZ1030 t.4th:1:5 `later` is used before its definition [\"`later` is defined later, at t.4th:3:3\"]",
                "DZ1030 t.4th:2:3 `later2` is used before its definition [\"`later2` is defined later, at t.4th:4:3\"]",
                "DZ1001 t.4th:5:7 undefined word `rec` [\"a word is not visible inside its own definition: call it with `RECURSE`\"]",
                // Defined before, in another case: not "defined later" (Gabata's `' trap`
                // after `DEFER TRAP`).
                "DZ1001 t.4th:7:3 undefined word `upper` [\"`'` and `-FIND` match the exact spelling only: `Upper` (defined at t.4th:6:3) differs in case\"]",
            ]
        );
    }

    #[test]
    fn unbalanced_structures_are_reported_at_their_opening_word() {
        let f = lint(
            ": a 1 IF 2 ;\n: b BEGIN 1 ;\n: c 10 0 DO I DROP ;\n: d 1 IF 2 ELSE 3 ;\n\
             : e 1 THEN ;\n: f BEGIN 1 WHILE 2 ;\n: g 1 IF BEGIN 0 THEN ;\n: h 1\n: i 2 ;\n\
             : j 3",
        );
        assert_eq!(
            f,
            [
                "DZ1031 1:7 `IF` is not closed by `THEN` or `ENDIF`",
                "DZ1031 2:5 `BEGIN` is not closed by `UNTIL`, `AGAIN` or `WHILE … REPEAT`",
                "DZ1031 3:10 `DO` is not closed by `LOOP` or `+LOOP`",
                "DZ1031 4:7 `IF … ELSE` is not closed by `THEN` or `ENDIF`",
                "DZ1031 5:7 `THEN` without `IF`",
                "DZ1031 6:5 `BEGIN … WHILE` is not closed by `REPEAT`",
                "DZ1031 7:10 `BEGIN` is not closed by `UNTIL`, `AGAIN` or `WHILE … REPEAT`",
                "DZ1031 8:1 the definition of `h` is not ended by `;`: `:` at line 9 starts another definition",
                "DZ1031 10:1 the definition of `j` is not ended by `;` before the end of the file",
            ]
        );
    }

    #[test]
    fn balanced_structures_are_clean() {
        let f = lint(
            ": a ( n -- ) IF 1 ELSE 2 THEN DROP ;\n: b BEGIN 1 WHILE REPEAT ;\n\
             : c 3 0 DO I DROP LOOP ;\n: d BEGIN 0 UNTIL ;\n: e 1 IF ENDIF ;",
        );
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn an_undefined_operand_of_compile_is_only_undefined() {
        // The operand is not a structure word, and the `THEN` after it still closes the `IF`.
        let f = lint(": a 1 IF COMPILE nope THEN ;\n: b ( -- ) COMPILE nope2 ;");
        assert_eq!(
            f,
            [
                "DZ1001 1:18 undefined word `nope`",
                "DZ1001 2:20 undefined word `nope2`",
            ]
        );
    }

    #[test]
    fn loading_goes_on_after_an_error() {
        let f = lint(": a 1 0 / ;\na\n5 CONSTANT five\nnope five DROP\n: b nope2 ;");
        assert_eq!(
            f,
            [
                "DZ1006 2:1 division by zero (in `a`)",
                "DZ1001 4:1 undefined word `nope`",
                "DZ1001 5:5 undefined word `nope2`",
            ]
        );
    }

    #[test]
    fn stack_comments_are_compared_with_straight_line_code() {
        let f = lint(
            ": sq ( n -- n*n ) DUP * ;\n: bad ( a b -- c ) + 1 ;\n: more ( -- x ) DROP 1 ;\n\
             : uses ( n -- m ) sq sq ;\n: wrong ( n -- ) sq ;\n: branchy ( -- ) 1 IF 2 THEN ;\n\
             VARIABLE v\n: get ( -- n ) v @ ;\n: put ( n -- ) v ! 1 ;\n\
             7 CONSTANT seven\n: k ( -- ) seven ;\n: r ( a -- a ) >R R> ;\n: q ( -- ) 2 ;",
        );
        assert_eq!(
            f,
            [
                "DZ1032 2:1 the stack comment of `bad` declares that it takes 2 and leaves 1 (net -1), but its body takes 2 and leaves 2 (net +0)",
                "DZ1032 3:1 the stack comment of `more` declares that it takes 0 and leaves 1 (net +1), but its body takes 1 and leaves 1 (net +0)",
                "DZ1032 5:1 the stack comment of `wrong` declares that it takes 1 and leaves 0 (net -1), but its body takes 1 and leaves 1 (net +0)",
                "DZ1032 9:1 the stack comment of `put` declares that it takes 1 and leaves 0 (net -1), but its body takes 1 and leaves 1 (net +0)",
                "DZ1032 11:1 the stack comment of `k` declares that it takes 0 and leaves 0 (net +0), but its body takes 0 and leaves 1 (net +1)",
                "DZ1032 13:1 the stack comment of `q` declares that it takes 0 and leaves 0 (net +0), but its body takes 0 and leaves 1 (net +1)",
            ]
        );
    }

    /// Branches and loops are followed: a definition whose paths all end at one depth has
    /// an effect (Jofur's `calc-pass`, commented `( n -- n )`, leaves its argument below
    /// its result after a `BEGIN … UNTIL` with `IF`s inside); paths that end at different
    /// depths, or a loop that changes the depth, leave it unknown. A wrong comment is the
    /// callers' contract, so it is reported once; a caller whose effect rests on a comment
    /// lint could not check says so.
    #[test]
    fn stack_comments_are_compared_through_branches_and_loops() {
        let found = lint(
            "VARIABLE v\n\
             : calc ( n -- n ) 0 v ! DUP BEGIN 1- DUP 3 = IF DUP v ! THEN DUP 0= UNTIL DROP v @ ;\n\
             : pick2 ( n -- m ) 0> IF 1 ELSE 2 THEN ;\n\
             : uneven ( n -- m ) IF 1 2 ELSE 3 THEN ;\n\
             : grows ( -- ) BEGIN 1 DUP UNTIL ;\n\
             : sum ( -- n ) 0 5 0 DO I + LOOP ;\n\
             : halve ( n -- n ) BEGIN DUP 1 > WHILE 2 / REPEAT ;\n\
             : loose ( n -- ) 5 0 DO I DROP LOOP ;\n\
             : trusted ( -- ) ' DUP EXECUTE ;\n\
             : caller ( -- ) trusted ;\n\
             : wrong ( -- ) calc ;\n",
        );
        assert_eq!(
            found,
            [
                "DZ1032 2:1 the stack comment of `calc` declares that it takes 1 and leaves 1 (net +0), but its body takes 1 and leaves 2 (net +1)",
                "DZ1032 8:1 the stack comment of `loose` declares that it takes 1 and leaves 0 (net -1), but its body takes 0 and leaves 0 (net +0)",
                "DZ1032 11:1 the stack comment of `wrong` declares that it takes 0 and leaves 0 (net +0), but its body takes 1 and leaves 1 (net +0)",
            ]
        );
    }

    #[test]
    fn stack_comments_are_parsed_only_when_plain() {
        assert_eq!(stack_comment(" a b -- c ) x"), Some(Effect::new(2, 1)));
        assert_eq!(stack_comment(" -- ) x"), Some(Effect::new(0, 0)));
        assert_eq!(stack_comment(" a - b )"), None);
        assert_eq!(stack_comment(" -- f | n t )"), None);
        assert_eq!(stack_comment(" a -- b"), None);
    }

    #[test]
    fn runtime_files_report_only_what_stops_loading_and_normal_loading_is_unchanged() {
        // Only what stops loading is reported in a runtime file (as `perft` stops there):
        // an undefined word, not a stack comment that its body does not keep.
        let mut vm = Vm::with_prelude(Limits::default()).unwrap();
        vm.start_lint();
        vm.lint_check_files();
        vm.interpret_str("dir/CORE.4TH", ": x nope ;\n: y ( -- ) 1 ;", &mut NoHost)
            .unwrap();
        let found: Vec<String> = vm.finish_lint().iter().map(|d| d.message.clone()).collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("`nope`"), "{found:?}");
        // Without lint mode, the first undefined word stops loading.
        let mut vm = Vm::with_prelude(Limits::default()).unwrap();
        let e = vm
            .interpret_str("t.4th", ": a foo ;\n: b bar ;", &mut NoHost)
            .unwrap_err();
        assert!(matches!(&e.kind, K::UndefinedWord(w) if w == "foo"), "{e}");
    }
}
