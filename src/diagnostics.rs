//! Diagnostics: stable codes, severities, positions, and their rendering.
//!
//! Every problem the library finds is a [`Diagnostic`] with a stable code (`DZ0101`), a
//! kebab-case name (`unclosed-list`), a severity, a message and, where there is one, a span.
//! The library never prints; the CLI renders diagnostics with
//! [`crate::render::render_human`] (rustc style, with the source line and a caret) or
//! [`crate::render::render_json`].
//!
//! Code ranges by phase: `DZ00xx` input and encoding, `DZ01xx` syntax, `DZ02xx`
//! preprocessing (includes, macros, variants). Later phases add their own ranges
//! (`docs/diagnostics.md`; `DZ11xx`: ZRF → Axiom conversion).

use crate::span::Span;

/// A stable diagnostic code and its kebab-case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Code {
    pub id: &'static str,
    pub name: &'static str,
}

/// Declares a diagnostic code constant: `code!(NAME, "DZ0101", "kebab-name");`.
macro_rules! code {
    ($c:ident, $id:literal, $name:literal) => {
        pub const $c: $crate::diagnostics::Code = $crate::diagnostics::Code {
            id: $id,
            name: $name,
        };
    };
}
pub(crate) use code;

/// The codes, grouped by phase. Codes are never renumbered once released.
pub mod codes {
    code!(IO_ERROR, "DZ0001", "io-error");
    code!(NOT_UTF8, "DZ0002", "not-utf8");
    code!(INVALID_CHARACTER, "DZ0003", "invalid-character");
    code!(BAD_TREE_XML, "DZ0004", "bad-tree-xml");
    code!(UNCLOSED_LIST, "DZ0101", "unclosed-list");
    code!(UNMATCHED_CLOSE, "DZ0102", "unmatched-close");
    code!(UNTERMINATED_STRING, "DZ0103", "unterminated-string");
    code!(NESTING_TOO_DEEP, "DZ0104", "nesting-too-deep");
    code!(INCLUDE_NOT_FOUND, "DZ0201", "include-not-found");
    code!(INCLUDE_CYCLE, "DZ0202", "include-cycle");
    code!(MALFORMED_INCLUDE, "DZ0203", "malformed-include");
    code!(MALFORMED_DEFINE, "DZ0204", "malformed-define");
    code!(MACRO_REDEFINED, "DZ0205", "macro-redefined");
    code!(EXPANSION_TOO_DEEP, "DZ0206", "expansion-too-deep");
    code!(EXPANSION_TOO_LARGE, "DZ0207", "expansion-too-large");
    code!(UNBOUND_PARAMETER, "DZ0208", "unbound-macro-parameter");
    code!(BAD_SUBSTITUTION, "DZ0209", "bad-substitution");
    code!(VARIANT_WITHOUT_GAME, "DZ0210", "variant-without-game");
    code!(NO_GAME, "DZ0211", "no-game");
    code!(UNKNOWN_VARIANT, "DZ0212", "unknown-variant");
    code!(INCLUDE_TOO_DEEP, "DZ0213", "include-too-deep");
    code!(INCLUDE_OUTSIDE_PROJECT, "DZ0217", "include-outside-project");
    // Model compilation: names (03xx), board (04xx), players and turns (05xx), pieces and
    // moves (06xx), goals (07xx), options (08xx); engine runtime (09xx).
    code!(UNKNOWN_NAME, "DZ0301", "unknown-name");
    code!(DUPLICATE_NAME, "DZ0302", "duplicate-name");
    code!(MALFORMED_FORM, "DZ0303", "malformed-form");
    code!(UNKNOWN_SECTION, "DZ0304", "unknown-section");
    code!(NO_BOARD, "DZ0401", "no-board");
    code!(BAD_GRID, "DZ0402", "bad-grid");
    code!(UNKNOWN_POSITION, "DZ0403", "unknown-position");
    code!(UNKNOWN_DIRECTION, "DZ0404", "unknown-direction");
    code!(UNKNOWN_ZONE, "DZ0405", "unknown-zone");
    code!(TOO_MANY_POSITIONS, "DZ0406", "too-many-positions");
    code!(NO_PLAYERS, "DZ0501", "no-players");
    code!(UNKNOWN_PLAYER, "DZ0502", "unknown-player");
    code!(TOO_MANY_PLAYERS, "DZ0503", "too-many-players");
    code!(BAD_TURN_ORDER, "DZ0504", "bad-turn-order");
    code!(UNKNOWN_PIECE, "DZ0601", "unknown-piece");
    code!(UNKNOWN_INSTRUCTION, "DZ0602", "unknown-instruction");
    code!(BAD_INSTRUCTION, "DZ0603", "bad-instruction");
    code!(UNKNOWN_CONDITION, "DZ0604", "unknown-condition");
    code!(TOO_MANY_ATTRIBUTES, "DZ0605", "too-many-attributes");
    code!(TOO_MANY_PIECE_TYPES, "DZ0606", "too-many-piece-types");
    code!(UNKNOWN_MOVE_TYPE, "DZ0607", "unknown-move-type");
    code!(UNKNOWN_GOAL, "DZ0701", "unknown-goal");
    code!(BAD_GOAL, "DZ0702", "bad-goal");
    code!(BAD_OPTION_VALUE, "DZ0801", "bad-option-value");
    code!(ENGINE_EXTENSION, "DZ0802", "engine-extension");
    code!(STEP_BUDGET_EXCEEDED, "DZ0901", "step-budget-exceeded");
    code!(CHAIN_BUDGET_EXCEEDED, "DZ0902", "chain-budget-exceeded");
    // ZRF → Axiom declarations (`convert --to axiom`, 11xx).
    code!(AXIOM_WRITE_BY_HAND, "DZ1101", "to-axiom-by-hand");
    code!(AXIOM_NO_COUNTERPART, "DZ1102", "to-axiom-no-counterpart");
    code!(AXIOM_INTERFACE_ONLY, "DZ1103", "to-axiom-interface-only");
    code!(AXIOM_BAD_NAME, "DZ1104", "to-axiom-bad-name");
    code!(
        AXIOM_NAME_SHADOWS_WORD,
        "DZ1105",
        "to-axiom-name-hides-word"
    );
    code!(AXIOM_VARIANT_FILE, "DZ1106", "to-axiom-file-name");
    code!(
        AXIOM_BOARD_AS_POSITIONS,
        "DZ1107",
        "to-axiom-board-as-positions"
    );
    code!(AXIOM_VARIANT_WHOLE, "DZ1108", "to-axiom-variant-whole");
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub span: Option<Span>,
    /// Extra lines shown after the snippet (`= note: …`).
    pub notes: Vec<String>,
}

/// Reports each repeated finding once: a diagnostic equal to an earlier one (same code,
/// severity, message, place and notes; a file included many times over repeats its
/// findings once per splice) is dropped, and the first gets a note with the count. Order
/// is kept.
pub fn collapse_repeats(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    use std::collections::HashMap;
    let key = |d: &Diagnostic| {
        let s = d.span.map(|s| (s.file.0, s.offset, s.len));
        (d.code.id, d.severity, d.message.clone(), s, d.notes.clone())
    };
    let mut first: HashMap<_, usize> = HashMap::new();
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diags.len());
    let mut counts: Vec<usize> = Vec::with_capacity(diags.len());
    for d in diags {
        let k = key(&d);
        match first.get(&k) {
            Some(&i) => counts[i] += 1,
            None => {
                first.insert(k, out.len());
                out.push(d);
                counts.push(1);
            }
        }
    }
    for (d, n) in out.iter_mut().zip(counts) {
        if n > 1 {
            d.notes.push(format!("reported {n} times: shown once"));
        }
    }
    out
}

impl Diagnostic {
    pub fn new(code: Code, severity: Severity, message: impl Into<String>) -> Self {
        Self {
            code,
            severity,
            message: message.into(),
            span: None,
            notes: vec![],
        }
    }
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Error, message)
    }
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Warning, message)
    }
    pub fn with_span(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The findings without repeats of one code, place and message, in order (a token
/// written once in a macro body and expanded twice gives the same finding twice).
pub fn without_repeats(diags: impl IntoIterator<Item = Diagnostic>) -> Vec<Diagnostic> {
    let mut seen = std::collections::HashSet::new();
    diags
        .into_iter()
        .filter(|d| {
            seen.insert((
                d.code.id,
                d.span.map(|s| (s.file.0, s.offset)),
                d.message.clone(),
            ))
        })
        .collect()
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

#[cfg(test)]
mod collapse_tests {
    use super::*;

    #[test]
    fn a_repeated_finding_is_reported_once_with_its_count() {
        let w = Diagnostic::warning(codes::MACRO_REDEFINED, "again");
        let e = Diagnostic::error(codes::EXPANSION_TOO_LARGE, "big");
        let out = collapse_repeats(vec![w.clone(), e.clone(), w.clone(), w.clone()]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].notes, ["reported 3 times: shown once"]);
        assert_eq!(out[1], e);
    }
}
