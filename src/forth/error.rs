//! Errors of the Forth virtual machine: what went wrong, in which word, at which place of
//! which source file.
//!
//! Every failure of Forth code (an unknown word, a stack underflow, a memory access outside
//! the dictionary, a runaway loop) is a [`ForthError`]; the VM never panics on the program
//! it runs. Each kind has a stable code in the `DZ10xx` range.

use crate::diagnostics::{Code, Diagnostic, code};
use crate::span::Span;
use std::fmt;

/// Stable codes of Forth failures.
pub mod codes {
    use super::code;
    code!(UNDEFINED_WORD, "DZ1001", "forth-undefined-word");
    code!(STACK_UNDERFLOW, "DZ1002", "forth-stack-underflow");
    code!(STACK_OVERFLOW, "DZ1003", "forth-stack-overflow");
    code!(RETURN_STACK, "DZ1004", "forth-return-stack");
    code!(MEMORY, "DZ1005", "forth-memory-access");
    code!(DIVISION_BY_ZERO, "DZ1006", "forth-division-by-zero");
    code!(STEP_BUDGET, "DZ1007", "forth-step-budget");
    code!(BAD_XT, "DZ1008", "forth-bad-execution-token");
    code!(ABORT, "DZ1009", "forth-abort");
    code!(COMPILE, "DZ1010", "forth-compile");
    code!(LOAD, "DZ1011", "forth-load");
    code!(HOST, "DZ1012", "forth-host");
    code!(DICTIONARY_FULL, "DZ1013", "forth-dictionary-full");
    code!(BUFFER_LIMIT, "DZ1014", "forth-buffer-limit");
    code!(DICTIONARY_CORRUPT, "DZ1015", "forth-dictionary-corrupt");
    code!(LOAD_REFUSED, "DZ1016", "forth-load-outside-project");
    // An Axiom program that loaded but cannot be played (`AxiomError`).
    code!(AXIOM_MISSING, "DZ1020", "axiom-runtime-incomplete");
    code!(AXIOM_GAME, "DZ1021", "axiom-unplayable-game");
    code!(AXIOM_MISMATCH, "DZ1022", "axiom-programs-mismatch");
    // Reported by `dagaz lint` only.
    code!(
        USED_BEFORE_DEFINITION,
        "DZ1030",
        "forth-used-before-definition"
    );
    code!(UNBALANCED_STRUCTURE, "DZ1031", "forth-unbalanced-structure");
    code!(STACK_EFFECT, "DZ1032", "forth-stack-effect");
    code!(NO_PIECES, "DZ1033", "axiom-no-pieces");
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ForthErrorKind {
    /// A word that is neither defined nor a number (its name).
    UndefinedWord(String),
    /// The data stack had fewer items than the word takes.
    StackUnderflow,
    /// The data stack grew past its limit.
    StackOverflow,
    /// The return stack under- or overflowed (an unbalanced `>R`, deep recursion).
    ReturnStack,
    /// A memory access outside the dictionary (the address).
    Memory(i64),
    /// Division or modulo by zero.
    DivisionByZero,
    /// More primitives ran than the step budget allows (a runaway loop).
    StepBudget(u64),
    /// `EXECUTE` or a thread reached a cell that is not an execution token (its value).
    BadXt(i32),
    /// `ABORT`, `ABORT"` or `ERROR`, with the program's message.
    Abort(String),
    /// Compiling went wrong: a control structure left unbalanced, a missing name.
    Compile(String),
    /// `LOAD` could not read a file.
    Load(String),
    /// A `LOAD` (or a runtime file) named a file outside the project's folders, or a file
    /// that is not a `.4th` program; nothing was read.
    LoadRefused(String),
    /// A host word (a game native) refused, with its reason.
    Host(String),
    /// The dictionary memory is full.
    DictionaryFull,
    /// A buffer outside the dictionary that the program makes grow (a move's notation, the
    /// repetition history) reached its limit: what it is, and the limit.
    BufferLimit(&'static str, usize),
    /// The chain of word headers loops back on itself (the header where the walk found it
    /// came back): a link was overwritten, and a lookup would never end.
    DictionaryCorrupt(u32),
    /// Not an error: `$Exit` left the current move word (caught by the move generator).
    ExitMove,
}

impl ForthErrorKind {
    /// The stable code of this kind.
    pub fn code(&self) -> Code {
        match self {
            ForthErrorKind::UndefinedWord(_) => codes::UNDEFINED_WORD,
            ForthErrorKind::StackUnderflow => codes::STACK_UNDERFLOW,
            ForthErrorKind::StackOverflow => codes::STACK_OVERFLOW,
            ForthErrorKind::ReturnStack => codes::RETURN_STACK,
            ForthErrorKind::Memory(_) => codes::MEMORY,
            ForthErrorKind::DivisionByZero => codes::DIVISION_BY_ZERO,
            ForthErrorKind::StepBudget(_) => codes::STEP_BUDGET,
            ForthErrorKind::BadXt(_) => codes::BAD_XT,
            ForthErrorKind::Abort(_) | ForthErrorKind::ExitMove => codes::ABORT,
            ForthErrorKind::Compile(_) => codes::COMPILE,
            ForthErrorKind::Load(_) => codes::LOAD,
            ForthErrorKind::LoadRefused(_) => codes::LOAD_REFUSED,
            ForthErrorKind::Host(_) => codes::HOST,
            ForthErrorKind::DictionaryFull => codes::DICTIONARY_FULL,
            ForthErrorKind::BufferLimit(..) => codes::BUFFER_LIMIT,
            ForthErrorKind::DictionaryCorrupt(_) => codes::DICTIONARY_CORRUPT,
        }
    }
}

impl fmt::Display for ForthErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForthErrorKind::UndefinedWord(w) => {
                write!(f, "undefined word `{}`", crate::text::printable(w))
            }
            ForthErrorKind::StackUnderflow => f.write_str("data stack underflow"),
            ForthErrorKind::StackOverflow => f.write_str("data stack overflow"),
            ForthErrorKind::ReturnStack => f.write_str("return stack underflow or overflow"),
            ForthErrorKind::Memory(a) => write!(f, "memory access outside the dictionary at {a}"),
            ForthErrorKind::DivisionByZero => f.write_str("division by zero"),
            ForthErrorKind::StepBudget(n) => {
                write!(
                    f,
                    "step budget of {n} primitives exhausted (a runaway loop?)"
                )
            }
            ForthErrorKind::BadXt(v) => write!(f, "{v} is not an execution token"),
            ForthErrorKind::Abort(m) => write!(f, "aborted: {}", crate::text::printable(m)),
            ForthErrorKind::Compile(m) => f.write_str(m),
            ForthErrorKind::Load(m) | ForthErrorKind::LoadRefused(m) => f.write_str(m),
            ForthErrorKind::Host(m) => f.write_str(m),
            ForthErrorKind::DictionaryFull => f.write_str("dictionary memory is full"),
            ForthErrorKind::BufferLimit(what, limit) => {
                write!(f, "{what} grew past its limit of {limit} bytes")
            }
            ForthErrorKind::DictionaryCorrupt(nfa) => write!(
                f,
                "the dictionary's chain of words loops back on itself (at the header at \
                 {nfa}): a link was overwritten, and words cannot be looked up"
            ),
            ForthErrorKind::ExitMove => f.write_str("`$Exit` outside a move word"),
        }
    }
}

/// A failure of Forth code: the kind, the word that was running (innermost definition) and
/// the place in the source: where that word's failing call was compiled, or the token the
/// text interpreter was reading. Boxed, so that results stay small on the VM's hot path;
/// the fields are read and written through `Deref` (`e.kind`, `e.place`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForthError(Box<ForthErrorData>);

/// The contents of a [`ForthError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForthErrorData {
    pub kind: ForthErrorKind,
    /// The definition that was running, if the error happened inside one.
    pub word: Option<String>,
    /// `file:line:col` of the failing call or token.
    pub place: Option<Place>,
    /// When the failing call is in the runtime files (`CORE.4TH`, `axiom.4th`) or has no
    /// place: the innermost call on the return stack that lies in the program's own files,
    /// and the definition that made it (e.g. the call of a `DEFER` word never set).
    pub called_from: Option<(Place, Option<String>)>,
    /// What the host knows about the failure (why Axiom's runtime word that was not found
    /// is missing in dagaz: `axiom::contract::explain`).
    pub hint: Option<String>,
}

impl std::ops::Deref for ForthError {
    type Target = ForthErrorData;
    fn deref(&self) -> &ForthErrorData {
        &self.0
    }
}

impl std::ops::DerefMut for ForthError {
    fn deref_mut(&mut self) -> &mut ForthErrorData {
        &mut self.0
    }
}

/// A place in a Forth source file, resolved for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file as shown to users.
    pub file: String,
    pub span: Span,
}

impl ForthError {
    /// (Cold and never inlined: the hot loops that may fail keep one call, not the
    /// allocation, at each place they could.)
    #[cold]
    #[inline(never)]
    pub fn new(kind: ForthErrorKind) -> Self {
        ForthError(Box::new(ForthErrorData {
            kind,
            word: None,
            place: None,
            called_from: None,
            hint: None,
        }))
    }

    /// The error as a diagnostic (code, message, span).
    pub fn to_diagnostic(&self) -> Diagnostic {
        let mut msg = self.kind.to_string();
        if let Some(w) = &self.word {
            msg.push_str(&in_word(w));
        }
        let mut d = Diagnostic::error(self.kind.code(), msg);
        if let Some(c) = self.called_from_text() {
            d = d.with_note(c);
        }
        if let Some(h) = &self.hint {
            d = d.with_note(h.clone());
        }
        match &self.place {
            Some(p) => d.with_span(p.span),
            None => d,
        }
    }

    /// `called from FILE:LINE:COL (in `word`)`, when the error has such a call site.
    pub fn called_from_text(&self) -> Option<String> {
        let (p, w) = self.called_from.as_ref()?;
        let mut s = format!("called from {}:{}:{}", p.file, p.span.line, p.span.col);
        if let Some(w) = w {
            s.push_str(&in_word(w));
        }
        Some(s)
    }
}

/// ` (in `word`)`, the name escaped (a program names its words); a word without a name
/// (made by `HEADER` or `CREATE` from an empty string) is said to be unnamed.
fn in_word(w: &str) -> String {
    if w.is_empty() {
        " (in a word without a name)".to_owned()
    } else {
        format!(" (in `{}`)", crate::text::printable(w))
    }
}

impl fmt::Display for ForthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.place {
            write!(f, "{}:{}:{}: ", p.file, p.span.line, p.span.col)?;
        }
        write!(f, "error[{}]: {}", self.kind.code().id, self.kind)?;
        if let Some(w) = &self.word {
            f.write_str(&in_word(w))?;
        }
        if let Some(c) = self.called_from_text() {
            write!(f, ", {c}")?;
        }
        if let Some(h) = &self.hint {
            write!(f, "; {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ForthError {}

impl From<ForthErrorKind> for ForthError {
    fn from(kind: ForthErrorKind) -> Self {
        ForthError::new(kind)
    }
}

/// Result of Forth operations.
pub type FResult<T> = Result<T, ForthError>;
