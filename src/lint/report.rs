//! Rendering lint results: `human` (rustc style), `concise` (one line each), `json`
//! (versioned document), `sarif` (SARIF 2.1.0 for code scanning) and `github` (workflow
//! annotations).

use super::FileReport;
use crate::diagnostics::{Diagnostic, Severity};
use crate::render::render_human;
use serde_json::{Value, json};

/// Version of the lint JSON document.
pub const LINT_SCHEMA_VERSION: u32 = 1;

fn location(r: &FileReport, d: &Diagnostic) -> (String, u32, u32) {
    match d.span.filter(|s| (s.file.0 as usize) < r.sources.len()) {
        Some(s) => (r.sources.get(s.file).display.clone(), s.line, s.col),
        None => (r.display.clone(), 0, 0),
    }
}

/// `file:line:col: severity[CODE/name]: message`, one line per finding, then one indented
/// `    note: …` line per note.
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
            for n in &d.notes {
                out += &format!("    note: {n}\n");
            }
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
    let suppressed: usize = reports.iter().map(|r| r.suppressed.len()).sum();
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
        .map(|r| json!({"file": r.display, "diagnostics": r.diagnostics.iter().map(|d| diag_json(r, d)).collect::<Vec<_>>(), "suppressed": r.suppressed.len()}))
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

/// The `uriBaseId` of every artifact location: the folder lint ran from.
pub const SARIF_SRCROOT: &str = "%SRCROOT%";

/// Percent-encodes a path for a URI (RFC 3986): unreserved characters and `/` stay, every
/// other byte of the UTF-8 text becomes `%XX`. Backslashes become `/`.
pub fn percent_encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.replace('\\', "/").bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out += &format!("%{b:02X}");
        }
    }
    out
}

/// Removes `.` and `..` segments from a `/`-separated path without touching the file system.
/// `..` at the start of a relative path stays.
fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = vec![];
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// The artifact location of `file` (as displayed): a relative, percent-encoded URI with
/// [`SARIF_SRCROOT`] when the file is inside `root` (an absolute folder, `/`-separated), or
/// else an absolute `file://` URI.
fn artifact_location(file: &str, root: Option<&str>) -> Value {
    let file = file.replace('\\', "/");
    let root = root.map(|r| normalize(&r.replace('\\', "/")));
    let absolute = match &root {
        Some(r) if !file.starts_with('/') && !file.contains(':') => {
            normalize(&format!("{r}/{file}"))
        }
        _ => normalize(&file),
    };
    if let Some(r) = &root {
        let prefix = if r.ends_with('/') {
            r.clone()
        } else {
            format!("{r}/")
        };
        if let Some(rel) = absolute.strip_prefix(&prefix) {
            return json!({"uri": percent_encode_path(rel), "uriBaseId": SARIF_SRCROOT});
        }
    }
    if absolute.starts_with('/') {
        json!({"uri": format!("file://{}", percent_encode_path(&absolute))})
    } else {
        // No root given: relative to the folder lint ran from.
        json!({"uri": percent_encode_path(&absolute), "uriBaseId": SARIF_SRCROOT})
    }
}

/// A report's findings, then its silenced findings with how they were silenced.
fn all(r: &FileReport) -> Vec<(&Diagnostic, Option<super::SuppressionKind>)> {
    r.diagnostics
        .iter()
        .map(|d| (d, None))
        .chain(r.suppressed.iter().map(|s| (&s.diagnostic, Some(s.kind))))
        .collect()
}

/// SARIF 2.1.0 log with one run. `root` is the absolute folder lint ran from (the
/// `%SRCROOT%` of the artifact URIs, given in `originalUriBaseIds`). Findings silenced by a
/// comment or `--allow` are results with `suppressions` (`inSource` / `external`).
pub fn sarif(reports: &[FileReport], root: Option<&str>) -> String {
    let mut rule_ids: Vec<&str> = reports
        .iter()
        .flat_map(|r| all(r).into_iter().map(|(d, _)| d.code.id))
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
    let mut results: Vec<Value> = vec![];
    for r in reports {
        for (d, kind) in all(r) {
            let (f, l, c) = location(r, d);
            let mut text = d.message.clone();
            for n in &d.notes {
                text += "\nnote: ";
                text += n;
            }
            let mut v = json!({
                "ruleId": d.code.id,
                "ruleIndex": rule_ids.iter().position(|x| *x == d.code.id).unwrap_or(0),
                "level": match d.severity { Severity::Error => "error", Severity::Warning => "warning", Severity::Note => "note" },
                "message": {"text": text},
                "locations": [{"physicalLocation": {
                    "artifactLocation": artifact_location(&f, root),
                    "region": {"startLine": l.max(1), "startColumn": c.max(1)}
                }}]
            });
            if let Some(k) = kind {
                v["suppressions"] = json!([{"kind": match k {
                    super::SuppressionKind::InSource => "inSource",
                    super::SuppressionKind::External => "external",
                }}]);
            }
            results.push(v);
        }
    }
    let mut run = json!({
        "tool": {"driver": {"name": "dagaz", "version": env!("CARGO_PKG_VERSION"), "informationUri": "https://github.com/dagaz-zrf/dagaz", "rules": rules}},
        "results": results,
    });
    if let Some(r) = root {
        let mut base = percent_encode_path(&normalize(&r.replace('\\', "/")));
        if !base.ends_with('/') {
            base.push('/');
        }
        if !base.starts_with('/') {
            base.insert(0, '/');
        }
        run["originalUriBaseIds"] = json!({SARIF_SRCROOT: {"uri": format!("file://{base}")}});
    }
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run]
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`); the
/// notes follow the message as `note: …` lines (newlines encoded as `%0A`).
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
            let mut message = d.message.clone();
            for n in &d.notes {
                message += "\nnote: ";
                message += n;
            }
            out += &format!(
                "::{kind} file={},line={},col={},title={}::{}\n",
                prop(&f),
                l.max(1),
                c.max(1),
                prop(&format!("{} {}", d.code.id, d.code.name)),
                esc(&message)
            );
        }
    }
    out
}
