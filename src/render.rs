//! Rendering diagnostics against their source files: rustc-style text with the source line
//! and a caret ([`render_human`]), or one JSON object per diagnostic ([`render_json`]).

use crate::diagnostics::Diagnostic;
use crate::source::SourceMap;
use std::fmt::Write as _;

/// Renders a diagnostic the way rustc does: header, location, source line, caret.
pub fn render_human(d: &Diagnostic, sources: &SourceMap) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}[{}]: {}", d.severity.as_str(), d.code.id, d.message);
    if let Some(span) = d.span.filter(|s| (s.file.0 as usize) < sources.len()) {
        let file = sources.get(span.file);
        let (line, col) = file.snippet(span.line, span.col);
        let num = span.line.to_string();
        let pad = " ".repeat(num.len());
        let _ = writeln!(out, "{pad}--> {}:{}:{}", file.display, span.line, span.col);
        if file.hidden {
            for n in &d.notes {
                let _ = writeln!(out, "  = note: {n}");
            }
            return out;
        }
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{num} | {}", line.replace('\t', " "));
        let caret_pad = " ".repeat(col.saturating_sub(1) as usize);
        let width = line
            .chars()
            .skip(col.saturating_sub(1) as usize)
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
        v["snippet"] = file.snippet(span.line, span.col).0.into();
    }
    v.to_string()
}
