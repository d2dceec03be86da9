//! `dagaz lint`: every diagnostic the pipeline finds (syntax, preprocessing, model
//! compilation) plus lint-only checks ([`checks`]) and, with `--deep`, playout checks on
//! the engine ([`deep`]), filtered by in-file suppressions and
//! severity overrides, and rendered in several formats ([`report`]).
//!
//! In-file suppressions are comments:
//! - `; dagaz: allow(DZ0214, unused-macro-parameter)` silences those codes on its own line
//!   (a trailing comment) or, standing alone on a line, on the next line;
//! - `; dagaz: allow-file(DZ0850)` silences them in the whole file.

pub mod checks;
pub mod deep;
pub mod report;
pub mod rules;

use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::expand::{Limits, Loaded};
use crate::source::SourceMap;
use crate::syntax::{Kind, Node};
use std::collections::{HashMap, HashSet};

/// What to do with a code: `--allow`, `--warn`, `--deny`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Allow,
    Warn,
    Deny,
}

/// Lint settings.
#[derive(Clone, Debug, Default)]
pub struct LintOptions {
    /// Per-code levels, keyed by code id (`DZ0214`).
    pub levels: HashMap<String, Level>,
    /// `--deny warnings`: every warning becomes an error.
    pub deny_warnings: bool,
    /// `--deep`: random playouts on the engine.
    pub deep: Option<deep::DeepOptions>,
}

impl LintOptions {
    /// Sets the level of `key` (a code id, a rule name, or `warnings`). Unknown keys are an
    /// error message listing the nearest names.
    pub fn set(&mut self, key: &str, level: Level) -> Result<(), String> {
        if key == "warnings" {
            match level {
                Level::Deny => self.deny_warnings = true,
                _ => {
                    return Err(
                        "only `--deny warnings` is supported for the group `warnings`".into(),
                    );
                }
            }
            return Ok(());
        }
        let code = resolve_code(key).ok_or_else(|| {
            let near = crate::text::suggestions(key, rules::RULES.iter().map(|r| r.code.name));
            let mut m = format!("unknown lint code `{key}`");
            if let Some(n) = near.first() {
                m += &format!(" (did you mean `{n}`?)");
            }
            m
        })?;
        self.levels.insert(code.id.to_owned(), level);
        Ok(())
    }
}

/// A code by id or name, among the documented rules and the core codes.
pub fn resolve_code(key: &str) -> Option<Code> {
    rules::find(key).map(|r| r.code).or_else(|| {
        let k = key.to_ascii_uppercase();
        (k.starts_with("DZ") && k.len() == 6 && k[2..].bytes().all(|b| b.is_ascii_digit())).then(
            || Code {
                id: leak(k),
                name: "",
            },
        )
    })
}

fn leak(s: String) -> &'static str {
    // Codes given on the command line live for the whole run; a handful of bytes.
    Box::leak(s.into_boxed_str())
}

/// The findings for one file, after suppressions and levels, sorted by position.
#[derive(Debug)]
pub struct FileReport {
    pub display: String,
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
    /// How many findings in-file comments or `--allow` silenced.
    pub suppressed: usize,
}

impl FileReport {
    pub fn count(&self, s: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == s).count()
    }
}

/// Lints one loaded file: its loading diagnostics, the model compiler's findings for each
/// game, the lint-only checks and, with `opts.deep`, the playout checks.
pub fn lint_loaded(loaded: Loaded, display: &str, opts: &LintOptions) -> FileReport {
    let mut diags = loaded.diagnostics.clone();
    if !loaded.has_errors() {
        let mut per_game = Vec::with_capacity(loaded.games.len());
        for g in &loaded.games {
            let mut gd = if let Some(e) = checks::axiom_engine(g) {
                // Only the ZRF part is checked (the game checks below); nothing is compiled.
                vec![
                    Diagnostic::warning(
                        rules::codes::AXIOM_ENGINE,
                        format!(
                            "`{}`: moves and goals are defined by an Axiom engine; only the ZRF part is checked, and dagaz cannot play it",
                            g.title
                        ),
                    )
                    .with_span(e.span),
                ]
            } else {
                match crate::model::Model::compile(g) {
                    Ok(mut m) => {
                        let mut gd = std::mem::take(&mut m.warnings);
                        if let Some(d) = &opts.deep {
                            gd.extend(deep::check_game(g, m, d));
                        }
                        gd
                    }
                    Err(d) => d,
                }
            };
            let checked = checks::game_checks(g, &gd);
            gd.extend(checked);
            checks::foreign_directions(&loaded, g, &mut gd);
            per_game.push((g, gd));
        }
        diags.extend(note_variants(per_game));
        diags.extend(checks::run(&loaded));
        checks::add_suggestions(&loaded, &mut diags);
        macro_context(&loaded, &mut diags);
    }
    // Variants share their base game's text: report each finding once.
    let mut seen = HashSet::new();
    diags.retain(|d| seen.insert(key(d)));
    let sup = Suppressions::collect(&loaded.syntax);
    let before = diags.len();
    diags.retain(|d| !sup.silences(d, loaded.main));
    let mut suppressed = before - diags.len();
    let before = diags.len();
    diags.retain_mut(|d| match opts.levels.get(d.code.id) {
        Some(Level::Allow) => d.severity == Severity::Error && is_fatal(d.code),
        Some(Level::Warn) => {
            if !is_fatal(d.code) {
                d.severity = Severity::Warning;
            }
            true
        }
        Some(Level::Deny) => {
            d.severity = Severity::Error;
            true
        }
        None => {
            if opts.deny_warnings && d.severity == Severity::Warning {
                d.severity = Severity::Error;
            }
            true
        }
    });
    suppressed += before - diags.len();
    diags.sort_by_key(|d| {
        let s = d.span.unwrap_or_default();
        (s.file.0, s.line, s.col)
    });
    FileReport {
        display: display.to_owned(),
        sources: loaded.sources,
        diagnostics: diags,
        suppressed,
    }
}

/// `FILE:LINE:COL` of a span, the file named as in the findings.
fn place(loaded: &Loaded, s: crate::source::Span) -> String {
    let file = if (s.file.0 as usize) < loaded.sources.len() {
        loaded.sources.get(s.file).display.as_str()
    } else {
        "?"
    };
    format!("{file}:{}:{}", s.line, s.col)
}

/// Findings of the model and of the lint checks that lie in a macro body get a note with the
/// call that expanded it; findings in the arguments of a call get a note with the macro's
/// definition.
fn macro_context(loaded: &Loaded, diags: &mut [Diagnostic]) {
    use crate::expand::macros::contains;
    for d in diags.iter_mut() {
        let Some(span) = d.span else { continue };
        if d.code.id < "DZ0300" {
            continue;
        }
        if let Some(m) = loaded.macros.iter().find(|m| contains(m.form, span)) {
            if let Some(call) = m.usage.first_outer_call {
                let more = match m.usage.outer_calls {
                    0 | 1 => String::new(),
                    n => format!(" (and {} more)", n - 1),
                };
                d.notes.push(format!(
                    "in macro `{}`, expanded from the call at {}{more}",
                    m.name,
                    place(loaded, call)
                ));
            }
        } else if let Some((_, name)) = loaded.outer_calls.iter().find(|(c, _)| contains(*c, span))
            && let Some(m) = loaded.macros.iter().find(|m| &m.name == name)
        {
            d.notes.push(format!(
                "in the expansion of macro `{name}`, defined at {}",
                place(loaded, m.span)
            ));
        }
    }
}

/// The identity of a finding, to report it once when variants share their base's text.
type Key = (&'static str, u32, u32, String);

fn key(d: &Diagnostic) -> Key {
    let s = d.span.unwrap_or_default();
    (d.code.id, s.file.0, s.offset, d.message.clone())
}

/// Flattens the findings of each game; a finding of a variant that its base game does not
/// have is caused by the variant, and gets a note naming it (all such variants).
fn note_variants(per_game: Vec<(&crate::expand::GameDef, Vec<Diagnostic>)>) -> Vec<Diagnostic> {
    let base: HashSet<Key> = per_game
        .iter()
        .filter(|(g, _)| !g.is_variant)
        .flat_map(|(_, ds)| ds.iter().map(key))
        .collect();
    let mut variants: HashMap<Key, Vec<String>> = HashMap::new();
    for (g, ds) in per_game.iter().filter(|(g, _)| g.is_variant) {
        for d in ds {
            let k = key(d);
            if !base.contains(&k) {
                let v = variants.entry(k).or_default();
                if !v.contains(&g.title) {
                    v.push(g.title.clone());
                }
            }
        }
    }
    let mut out: Vec<Diagnostic> = per_game.into_iter().flat_map(|(_, ds)| ds).collect();
    for d in &mut out {
        if let Some(titles) = variants.get(&key(d)) {
            let names: Vec<String> = titles.iter().map(|t| format!("`{t}`")).collect();
            let s = if names.len() == 1 { "" } else { "s" };
            d.notes.push(format!("in variant{s} {}", names.join(", ")));
        }
    }
    out
}

/// Errors that stop the pipeline (syntax, includes) cannot be allowed away: nothing after
/// them was checked.
fn is_fatal(code: Code) -> bool {
    code.id < "DZ0200"
        || matches!(
            code.id,
            "DZ0201" | "DZ0202" | "DZ0206" | "DZ0207" | "DZ0217"
        )
}

/// Lints the file at `path`.
pub fn lint_path(
    path: &std::path::Path,
    display: &str,
    opts: &LintOptions,
) -> Result<FileReport, Diagnostic> {
    let loaded = crate::expand::load_path(path, display, Limits::default())?;
    Ok(lint_loaded(loaded, display, opts))
}

/// In-file `; dagaz: allow(…)` comments.
#[derive(Debug, Default)]
struct Suppressions {
    file: HashSet<String>,
    lines: HashMap<u32, HashSet<String>>,
}

impl Suppressions {
    fn collect(forms: &[Node]) -> Self {
        let mut s = Suppressions::default();
        let mut code_lines = HashSet::new();
        fn lines_with_code(n: &Node, out: &mut HashSet<u32>) {
            if n.kind != Kind::Comment {
                out.insert(n.span.line);
            }
            for c in &n.items {
                lines_with_code(c, out);
            }
        }
        for f in forms {
            lines_with_code(f, &mut code_lines);
        }
        fn walk(n: &Node, s: &mut Suppressions, code_lines: &HashSet<u32>) {
            if n.kind == Kind::Comment {
                let t = n.text.trim_start_matches(';').trim();
                if let Some(rest) = t.strip_prefix("dagaz:") {
                    let rest = rest.trim();
                    let (file_wide, body) = if let Some(b) = rest.strip_prefix("allow-file(") {
                        (true, b)
                    } else if let Some(b) = rest.strip_prefix("allow(") {
                        (false, b)
                    } else {
                        return;
                    };
                    let body = body.split(')').next().unwrap_or("");
                    for key in body.split(',').map(str::trim).filter(|k| !k.is_empty()) {
                        let id =
                            resolve_code(key).map_or_else(|| key.to_owned(), |c| c.id.to_owned());
                        if file_wide {
                            s.file.insert(id);
                        } else {
                            // A comment alone on its line covers the next line.
                            let line = if code_lines.contains(&n.span.line) {
                                n.span.line
                            } else {
                                n.span.line + 1
                            };
                            s.lines.entry(line).or_default().insert(id);
                        }
                    }
                }
            }
            for c in &n.items {
                walk(c, s, code_lines);
            }
        }
        for f in forms {
            walk(f, &mut s, &code_lines);
        }
        s
    }

    fn silences(&self, d: &Diagnostic, main: crate::source::FileId) -> bool {
        if is_fatal(d.code) {
            return false;
        }
        if self.file.contains(d.code.id) {
            return true;
        }
        d.span
            .filter(|s| s.file == main)
            .and_then(|s| self.lines.get(&s.line))
            .is_some_and(|set| set.contains(d.code.id))
    }
}
