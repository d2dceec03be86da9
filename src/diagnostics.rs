//! Diagnostics: stable codes, severities, positions, and their rendering.
//!
//! Every problem the library finds is a [`Diagnostic`] with a stable code (`DZ0101`), a
//! kebab-case name (`unclosed-list`), a severity, a message and, where there is one, a span.
//! The library never prints; the CLI renders diagnostics with [`render_human`] (rustc
//! style, with the source line and a caret) or [`render_json`].
//!
//! Code ranges by phase: `DZ00xx` input and encoding, `DZ01xx` syntax, `DZ02xx`
//! preprocessing (includes, macros, variants). Later phases add their own ranges.

use crate::source::{SourceMap, Span};
use std::fmt::Write as _;

/// A stable diagnostic code and its kebab-case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Code {
    pub id: &'static str,
    pub name: &'static str,
}

/// The codes, grouped by phase. Codes are never renumbered once released.
pub mod codes {
    use super::Code;
    macro_rules! code {
        ($c:ident, $id:literal, $name:literal) => {
            pub const $c: Code = Code {
                id: $id,
                name: $name,
            };
        };
    }
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
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

/// Renders a diagnostic the way rustc does: header, location, source line, caret.
pub fn render_human(d: &Diagnostic, sources: &SourceMap) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}[{}]: {}",
        d.severity.as_str(),
        d.code.id,
        d.message
    );
    if let Some(span) = d.span.filter(|s| (s.file.0 as usize) < sources.len()) {
        let file = sources.get(span.file);
        let line = file.line_text(span.line);
        let num = span.line.to_string();
        let pad = " ".repeat(num.len());
        let _ = writeln!(out, "{pad}--> {}:{}:{}", file.display, span.line, span.col);
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{num} | {}", line.replace('\t', " "));
        let caret_pad = " ".repeat(span.col.saturating_sub(1) as usize);
        let width = line
            .chars()
            .skip(span.col.saturating_sub(1) as usize)
            .take(span.len.max(1) as usize)
            .count()
            .max(1);
        let _ = writeln!(out, "{pad} | {caret_pad}{}", "^".repeat(width.min(80)));
    }
    for n in &d.notes {
        let _ = writeln!(out, "  = note: {n}");
    }
    out
}

/// One diagnostic as a JSON object (one line).
pub fn render_json(d: &Diagnostic, sources: &SourceMap) -> String {
    let mut v = serde_json::json!({
        "code": d.code.id,
        "name": d.code.name,
        "severity": d.severity.as_str(),
        "message": d.message,
        "notes": d.notes,
    });
    if let Some(span) = d.span.filter(|s| (s.file.0 as usize) < sources.len()) {
        let file = sources.get(span.file);
        v["file"] = file.display.clone().into();
        v["line"] = span.line.into();
        v["column"] = span.col.into();
        v["snippet"] = file.line_text(span.line).into();
    }
    v.to_string()
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}
