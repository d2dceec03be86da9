//! Rendering lint results: `human` (rustc style), `concise` (one line each), `json`
//! (versioned document), `sarif` (SARIF 2.1.0 for code scanning) and `github` (workflow
//! annotations).

use super::FileReport;
use crate::diagnostics::{Diagnostic, Severity, render_human};
use serde_json::{Value, json};

/// Version of the lint JSON document.
pub const LINT_SCHEMA_VERSION: u32 = 1;

fn location(r: &FileReport, d: &Diagnostic) -> (String, u32, u32) {
    match d.span.filter(|s| (s.file.0 as usize) < r.sources.len()) {
        Some(s) => (r.sources.get(s.file).display.clone(), s.line, s.col),
        None => (r.display.clone(), 0, 0),
    }
}

/// `file:line:col: severity[CODE/name]: message`, one line per finding.
pub fn concise(reports: &[FileReport]) -> String {
    let mut out = String::new();
    for r in reports {
        for d in &r.diagnostics {
            let (f, l, c) = location(r, d);
            out += &format!(
                "{f}:{l}:{c}: {}[{}/{}]: {}\n",
                d.severity.as_str(),
                d.code.id,
                d.code.name,
                d.message
            );
        }
    }
    out
}

/// rustc-style findings.
pub fn human(reports: &[FileReport]) -> String {
    let mut out = String::new();
    for r in reports {
        for d in &r.diagnostics {
            let mut text = render_human(d, &r.sources);
            // Name the rule in the header: error[DZ0214/unused-macro].
            text = text.replacen(
                &format!("[{}]", d.code.id),
                &format!("[{}/{}]", d.code.id, d.code.name),
                1,
            );
            out += &text;
            out.push('\n');
        }
    }
    out
}

/// A summary line: counts by severity and files.
pub fn summary_line(reports: &[FileReport]) -> String {
    let (e, w, n): (usize, usize, usize) = reports.iter().fold((0, 0, 0), |a, r| {
        (
            a.0 + r.count(Severity::Error),
            a.1 + r.count(Severity::Warning),
            a.2 + r.count(Severity::Note),
        )
    });
    let suppressed: usize = reports.iter().map(|r| r.suppressed).sum();
    format!(
        "{} file(s) checked: {e} error(s), {w} warning(s), {n} note(s){}",
        reports.len(),
        if suppressed > 0 {
            format!(", {suppressed} suppressed")
        } else {
            String::new()
        }
    )
}

fn diag_json(r: &FileReport, d: &Diagnostic) -> Value {
    let (f, l, c) = location(r, d);
    let mut v = json!({
        "code": d.code.id,
        "name": d.code.name,
        "severity": d.severity.as_str(),
        "message": d.message,
        "file": f,
        "line": l,
        "column": c,
        "notes": d.notes,
    });
    if let Some(s) = d.span.filter(|s| (s.file.0 as usize) < r.sources.len()) {
        v["snippet"] = r.sources.get(s.file).line_text(s.line).into();
    }
    v
}

/// `{"schema_version":1,"files":[{"file":…,"diagnostics":[…]}],"summary":{…}}`.
pub fn json_doc(reports: &[FileReport]) -> String {
    let files: Vec<Value> = reports
        .iter()
        .map(|r| json!({"file": r.display, "diagnostics": r.diagnostics.iter().map(|d| diag_json(r, d)).collect::<Vec<_>>(), "suppressed": r.suppressed}))
        .collect();
    let count = |s| reports.iter().map(|r| r.count(s)).sum::<usize>();
    let doc = json!({
        "schema_version": LINT_SCHEMA_VERSION,
        "tool": "dagaz",
        "version": env!("CARGO_PKG_VERSION"),
        "files": files,
        "summary": {"files": reports.len(), "errors": count(Severity::Error), "warnings": count(Severity::Warning), "notes": count(Severity::Note)},
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// SARIF 2.1.0 log with one run.
pub fn sarif(reports: &[FileReport]) -> String {
    let mut rule_ids: Vec<&str> = reports
        .iter()
        .flat_map(|r| r.diagnostics.iter().map(|d| d.code.id))
        .collect();
    rule_ids.sort_unstable();
    rule_ids.dedup();
    let rules: Vec<Value> = rule_ids
        .iter()
        .map(|id| {
            let r = super::rules::find(id);
            json!({
                "id": id,
                "name": r.map_or("", |r| r.code.name),
                "shortDescription": {"text": r.map_or("", |r| r.summary)},
                "fullDescription": {"text": r.map_or("", |r| r.explanation)},
                "help": {"text": format!("dagaz lint --explain {id}")},
            })
        })
        .collect();
    let rule_ids = &rule_ids;
    let results: Vec<Value> = reports
        .iter()
        .flat_map(|r| {
            r.diagnostics.iter().map(move |d| {
                let (f, l, c) = location(r, d);
                json!({
                    "ruleId": d.code.id,
                    "ruleIndex": rule_ids.iter().position(|x| *x == d.code.id).unwrap_or(0),
                    "level": match d.severity { Severity::Error => "error", Severity::Warning => "warning", Severity::Note => "note" },
                    "message": {"text": d.message},
                    "locations": [{"physicalLocation": {
                        "artifactLocation": {"uri": f.replace('\\', "/")},
                        "region": {"startLine": l.max(1), "startColumn": c.max(1)}
                    }}]
                })
            })
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "dagaz", "version": env!("CARGO_PKG_VERSION"), "informationUri": "https://github.com/dagaz-zrf/dagaz", "rules": rules}},
            "results": results,
        }]
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`).
pub fn github(reports: &[FileReport]) -> String {
    let esc = |s: &str| {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let prop = |s: &str| esc(s).replace(':', "%3A").replace(',', "%2C");
    let mut out = String::new();
    for r in reports {
        for d in &r.diagnostics {
            let (f, l, c) = location(r, d);
            let kind = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "notice",
            };
            out += &format!(
                "::{kind} file={},line={},col={},title={}::{}\n",
                prop(&f),
                l.max(1),
                c.max(1),
                prop(&format!("{} {}", d.code.id, d.code.name)),
                esc(&d.message)
            );
        }
    }
    out
}
