//! `dagaz lint`: every diagnostic the pipeline finds (syntax, preprocessing, model
//! compilation) plus lint-only checks (`checks`) and, with `--deep`, playout checks on
//! the engine ([`deep`]), filtered by in-file suppressions and
//! severity overrides, and rendered in several formats ([`report`]).
//!
//! In-file suppressions are comments:
//! - `; dagaz: allow(DZ0214, unused-macro-parameter)` silences those codes on its own line
//!   (a trailing comment) or, standing alone on a line, on the next line;
//! - `; dagaz: allow-file(DZ0850)` silences them in the whole file.
//!
//! An unknown code in such a comment is reported (`unknown-lint-code`, a warning: the finding
//! it meant to silence is still reported), and so is a code that silenced nothing
//! (`unused-suppression`); codes reported only by `--deep` (`DZ09xx`) count as unused only
//! when `--deep` ran. Silenced findings are kept in [`FileReport::suppressed`] with the kind of
//! suppression (formats such as SARIF report them as suppressed results).

pub(crate) mod checks;
pub mod deep;
pub mod report;
pub mod rules;

use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::expand::{Limits, Loaded};
use crate::source::{FileId, SourceMap, Span};
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
    /// `--include-dir`: further folders includes may read.
    pub include_dirs: Vec<std::path::PathBuf>,
}

crate::error::message_error!(
    /// A lint level given for a name that is no lint code or rule (the message suggests the
    /// nearest).
    UnknownLintCode
);

impl LintOptions {
    /// Sets the level of `key` (a code id, a rule name, or `warnings`). Unknown keys are an
    /// error message listing the nearest names.
    pub fn set(&mut self, key: &str, level: Level) -> Result<(), UnknownLintCode> {
        self.set_level(key, level).map_err(UnknownLintCode)
    }

    fn set_level(&mut self, key: &str, level: Level) -> Result<(), String> {
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
            let mut m = format!("unknown lint code `{key}`");
            if let Some(n) = nearest_code(key) {
                m += &format!(" (did you mean `{n}`?)");
            }
            m
        })?;
        self.levels.insert(code.id.to_owned(), level);
        Ok(())
    }
}

/// A code by id or name (case-insensitive), among the documented rules (every code dagaz
/// reports is documented there).
pub fn resolve_code(key: &str) -> Option<Code> {
    rules::find(key).map(|r| r.code)
}

/// The documented code or name nearest to an unknown `key`, for "did you mean".
pub fn nearest_code(key: &str) -> Option<&'static str> {
    let looks_like_id = key.len() >= 2 && key[..2].eq_ignore_ascii_case("DZ");
    let upper = key.to_ascii_uppercase();
    let key = if looks_like_id { upper.as_str() } else { key };
    crate::text::suggestions(
        key,
        rules::RULES.iter().map(|r| {
            if looks_like_id {
                r.code.id
            } else {
                r.code.name
            }
        }),
    )
    .first()
    .copied()
}

/// How a finding was silenced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuppressionKind {
    /// By a `; dagaz: allow(…)` or `allow-file(…)` comment in the file.
    InSource,
    /// By `--allow` on the command line.
    External,
}

/// A finding that was silenced, and how.
#[derive(Debug)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub kind: SuppressionKind,
}

/// The findings for one file, after suppressions and levels, sorted by position.
#[derive(Debug)]
pub struct FileReport {
    pub display: String,
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
    /// The findings in-file comments or `--allow` silenced, sorted by position.
    pub suppressed: Vec<Suppressed>,
    /// For a rules file whose games name an Axiom engine: the variants' `.4th` files that
    /// dagaz would play, with their engine folders (lint them with
    /// [`lint_forth_program`]).
    pub axiom_programs: Vec<(std::path::PathBuf, std::path::PathBuf)>,
}

impl FileReport {
    pub fn count(&self, s: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == s).count()
    }

    /// The id of `file` among this report's sources when the report checked it: the file
    /// was read, and no file the program names was missing (a missing file stops the
    /// findings of an Axiom program, so a file read after it was not checked).
    pub fn checked_file(&self, file: &std::path::Path) -> Option<FileId> {
        let missed = self
            .diagnostics
            .iter()
            .any(|d| d.code == crate::forth::error::codes::LOAD);
        if missed {
            return None;
        }
        let want = file.canonicalize().ok()?;
        (0..self.sources.len() as u32)
            .map(FileId)
            .find(|&id| self.sources.get(id).path.canonicalize().ok() == Some(want.clone()))
    }
}

/// Lints one loaded file: its loading diagnostics, the model compiler's findings for each
/// game, the lint-only checks and, with `opts.deep`, the playout checks.
pub fn lint_loaded(loaded: Loaded, display: &str, opts: &LintOptions) -> FileReport {
    let mut diags = loaded.diagnostics.clone();
    let mut axiom_programs = vec![];
    if !loaded.has_errors() {
        let main_path = loaded.sources.get(loaded.main).path.clone();
        for g in &loaded.games {
            if checks::axiom_engine(g).is_none() {
                continue;
            }
            let found = crate::axiom::program::zrf_engine_variant(
                &g.form,
                &g.title,
                &main_path,
                &opts.include_dirs,
            );
            match found {
                Some(Ok(p)) if !axiom_programs.contains(&p) => axiom_programs.push(p),
                // A refused engine path is the rules file's problem, reported at it; a
                // variant file that is only missing stays the `axiom-engine` note's matter.
                Some(Err(crate::axiom::AxiomError::Forth(e))) => {
                    let mut d = e.to_diagnostic();
                    if let Some(engine) = checks::axiom_engine(g) {
                        d = d.with_span(engine.span);
                    }
                    if !diags.iter().any(|x| x.message == d.message) {
                        diags.push(d);
                    }
                }
                _ => {}
            }
        }
    }
    if !loaded.has_errors() {
        let mut per_game = Vec::with_capacity(loaded.games.len());
        for g in &loaded.games {
            let mut gd = if let Some(e) = checks::axiom_engine(g) {
                // Only the ZRF part is checked (the game checks below); nothing is compiled.
                vec![
                    Diagnostic::warning(
                        rules::codes::AXIOM_ENGINE,
                        format!(
                            "`{}`: moves and goals are defined by an Axiom engine; only the ZRF part is checked here (dagaz plays it through its variants' .4th files, which `dagaz lint` checks with the file when it finds them)",
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
        checks::soften_inherited_priorities(&loaded, &mut diags);
        checks::add_suggestions(&loaded, &mut diags);
        macro_context(&loaded, &mut diags);
    }
    // Variants share their base game's text: report each finding once.
    let mut seen = HashSet::new();
    diags.retain(|d| seen.insert(key(d)));
    let mut sup = Suppressions::collect(&loaded.syntax, loaded.main);
    let mut suppressed: Vec<Suppressed> = vec![];
    let silence = |diags: Vec<Diagnostic>, sup: &mut Suppressions, out: &mut Vec<Suppressed>| {
        let mut kept = Vec::with_capacity(diags.len());
        for d in diags {
            if sup.silences(&d, loaded.main) {
                out.push(Suppressed {
                    diagnostic: d,
                    kind: SuppressionKind::InSource,
                });
            } else {
                kept.push(d);
            }
        }
        kept
    };
    let mut diags = silence(diags, &mut sup, &mut suppressed);
    // Findings about the comments themselves, silenced like any other.
    let about = sup.findings(opts.deep.is_some());
    diags.extend(silence(about, &mut sup, &mut suppressed));
    let diags = apply_levels(diags, opts, &mut suppressed);
    FileReport {
        display: display.to_owned(),
        sources: loaded.sources,
        diagnostics: diags,
        suppressed,
        axiom_programs,
    }
}

/// Applies `--allow`, `--warn`, `--deny` and `--deny warnings` to the findings (the allowed
/// ones go to `suppressed`), and sorts both by position.
fn apply_levels(
    diags: Vec<Diagnostic>,
    opts: &LintOptions,
    suppressed: &mut Vec<Suppressed>,
) -> Vec<Diagnostic> {
    let mut kept = Vec::with_capacity(diags.len());
    for mut d in diags {
        match opts.levels.get(d.code.id) {
            Some(Level::Allow) if !(d.severity == Severity::Error && is_fatal(d.code)) => {
                suppressed.push(Suppressed {
                    diagnostic: d,
                    kind: SuppressionKind::External,
                });
                continue;
            }
            Some(Level::Allow) => {}
            Some(Level::Warn) => {
                if !is_fatal(d.code) {
                    d.severity = Severity::Warning;
                }
            }
            Some(Level::Deny) => d.severity = Severity::Error,
            None => {
                if opts.deny_warnings && d.severity == Severity::Warning {
                    d.severity = Severity::Error;
                }
            }
        }
        kept.push(d);
    }
    let mut diags = kept;
    let position = |d: &Diagnostic| {
        let s = d.span.unwrap_or_default();
        (s.file.0, s.line, s.col)
    };
    diags.sort_by_key(position);
    suppressed.sort_by_key(|s| position(&s.diagnostic));
    diags
}

/// Lints an Axiom program (ForthScript): the variant file at `path` and the files it loads,
/// loaded as `dagaz::axiom::Program::load` does, in the Forth VM's lint mode (see
/// [`crate::forth::lint`]). The runtime files (`CORE.4TH`, `axiom.4th`) are not checked.
/// `Err` when the file cannot be read.
pub fn lint_forth_path(
    path: &std::path::Path,
    display: &str,
    opts: &LintOptions,
) -> Result<FileReport, Diagnostic> {
    lint_forth_program(path, None, display, opts)
}

/// [`lint_forth_path`] for a variant file whose `CORE.4TH` and `axiom.4th` may also be in
/// `engine_dir` (the folder a ZRF file's `(engine …)` names), as `perft` and `autoplay`
/// load it.
pub fn lint_forth_program(
    path: &std::path::Path,
    engine_dir: Option<&std::path::Path>,
    display: &str,
    opts: &LintOptions,
) -> Result<FileReport, Diagnostic> {
    if let Err(e) = std::fs::File::open(path).and_then(|f| {
        if f.metadata()?.is_file() {
            Ok(())
        } else {
            Err(std::io::Error::other("not a regular file"))
        }
    }) {
        return Err(Diagnostic::error(
            crate::diagnostics::codes::IO_ERROR,
            format!("cannot read `{display}`: {e}"),
        ));
    }
    let linted = crate::axiom::program::lint(path, engine_dir, &opts.include_dirs);
    let mut suppressed = vec![];
    let mut sup = Suppressions::collect_forth(&linted.sources);
    // No file is "main": every comment names its own file.
    let main = FileId(u32::MAX);
    let mut silence = |diags: Vec<Diagnostic>, sup: &mut Suppressions| {
        let mut kept = Vec::with_capacity(diags.len());
        for d in diags {
            if sup.silences(&d, main) {
                suppressed.push(Suppressed {
                    diagnostic: d,
                    kind: SuppressionKind::InSource,
                });
            } else {
                kept.push(d);
            }
        }
        kept
    };
    let mut found = linted.diagnostics;
    if let Some(deep) = &opts.deep {
        if !crate::diagnostics::has_errors(&found) {
            found.extend(deep_axiom(path, engine_dir, opts, deep, &linted.sources));
        }
    }
    let mut diags = silence(found, &mut sup);
    let about = sup.findings(false);
    diags.extend(silence(about, &mut sup));
    let diagnostics = apply_levels(diags, opts, &mut suppressed);
    Ok(FileReport {
        display: display.to_owned(),
        sources: linted.sources,
        diagnostics,
        suppressed,
        axiom_programs: vec![],
    })
}

/// `--deep` for an Axiom program: random playouts of the program against itself (its
/// `{random}` players and random moves for the others), as `autoplay` plays it; the first
/// error of a playout (a move word, an event, the end of the game) is a finding at its
/// place. Playouts that reach `max_plies` are not reported (Axiom games may be long).
fn deep_axiom(
    path: &std::path::Path,
    engine_dir: Option<&std::path::Path>,
    opts: &LintOptions,
    deep: &deep::DeepOptions,
    sources: &crate::source::SourceMap,
) -> Vec<Diagnostic> {
    use crate::ai::game::Game;
    let program = match crate::axiom::Program::load_in(path, engine_dir, &opts.include_dirs) {
        Ok(p) => p,
        Err(e) => return vec![e.to_diagnostic()],
    };
    for i in 0..deep.playouts {
        let mut rng = crate::rng::Rng::derive(deep.seed, u64::from(i));
        let mut game =
            match crate::axiom::AxiomGame::new(&program, &program, deep.seed + u64::from(i)) {
                Ok(g) => g,
                Err(e) => return vec![e.to_diagnostic()],
            };
        let mut moves = Default::default();
        for _ in 0..deep.max_plies {
            game.legal_moves(&mut moves);
            if game.take_error().is_some() {
                break;
            }
            if game.outcome(&moves).is_some() {
                break;
            }
            let n = crate::axiom::AxiomGame::num_moves(&moves);
            if n == 0 {
                break;
            }
            game.make(&moves, rng.below(n));
        }
        let Some(e) = game.take_forth_error() else {
            continue;
        };
        let mut d = e.to_diagnostic();
        // The game's VM read the files in the order lint's did: the same file ids, which
        // are checked by path before the place is kept.
        if let Some(span) = d.span {
            let same = (span.file.0 as usize) < sources.len()
                && (span.file.0 as usize) < program.vm.sources.len()
                && sources.get(span.file).path == program.vm.sources.get(span.file).path;
            if !same {
                d.span = None;
            }
        }
        return vec![d.with_note(format!(
            "in a random playout (lint --deep, seed {}, playout {i})",
            deep.seed
        ))];
    }
    vec![]
}

/// Drops each finding that an earlier report of `reports` already has: the same code and
/// message at the same place of the same file (a part that two variants of an Axiom folder
/// load, an include two rules files share). Returns how many were dropped.
pub fn drop_repeated_findings(reports: &mut [FileReport]) -> usize {
    let mut seen = HashSet::new();
    let mut dropped = 0;
    for r in reports.iter_mut() {
        let sources = &r.sources;
        let before = r.diagnostics.len();
        r.diagnostics.retain(|d| {
            let Some(s) = d.span else { return true };
            if (s.file.0 as usize) >= sources.len() {
                return true;
            }
            let f = &sources.get(s.file).path;
            let path = f.canonicalize().unwrap_or_else(|_| f.clone());
            seen.insert((path, s.line, s.col, d.code.id, d.message.clone()))
        });
        dropped += before - r.diagnostics.len();
    }
    dropped
}

/// Lints `part`, a file that other `.4th` files of its folder `LOAD` (a board, pieces or AI
/// file, meaningless on its own), as the first of `loaders` that loads it and every file it
/// names loads it: the report keeps the findings located in `part` (the loader's own
/// findings are its report's). Returns that report and the loader used, or `None` when no
/// loader does (a missing file stops the findings, so `part` could look clean unchecked).
pub fn lint_forth_part(
    part: &std::path::Path,
    display: &str,
    loaders: &[std::path::PathBuf],
    opts: &LintOptions,
) -> Result<Option<(FileReport, std::path::PathBuf)>, Diagnostic> {
    for loader in loaders {
        let r = lint_forth_path(loader, &loader.to_string_lossy(), opts)?;
        let Some(id) = r.checked_file(part) else {
            continue;
        };
        let inside = |d: &Diagnostic| d.span.is_some_and(|s| s.file == id);
        let FileReport {
            mut sources,
            diagnostics,
            suppressed,
            ..
        } = r;
        sources.set_display(id, display.to_owned());
        let report = FileReport {
            display: display.to_owned(),
            sources,
            diagnostics: diagnostics.into_iter().filter(|d| inside(d)).collect(),
            suppressed: suppressed
                .into_iter()
                .filter(|s| inside(&s.diagnostic))
                .collect(),
            axiom_programs: vec![],
        };
        return Ok(Some((report, loader.clone())));
    }
    Ok(None)
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
        } else if let Some((name, m)) = loaded
            .outer_calls
            .iter()
            .find(|(c, _)| contains(*c, span))
            .and_then(|(_, name)| Some((name, loaded.macros.iter().find(|m| &m.name == name)?)))
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
    let limits = Limits {
        include_dirs: opts.include_dirs.clone(),
        ..Limits::default()
    };
    let loaded = crate::expand::load_path(path, display, limits)?;
    Ok(lint_loaded(loaded, display, opts))
}

/// In-file `; dagaz: allow(…)` comments.
#[derive(Debug, Default)]
struct Suppressions {
    entries: Vec<Entry>,
    /// Unknown codes in the comments, with where they are written.
    unknown: Vec<(String, Span)>,
}

/// One code in one comment.
#[derive(Debug)]
struct Entry {
    /// The code id (`DZ0214`).
    id: &'static str,
    /// The line it covers, or `None` for `allow-file`.
    line: Option<u32>,
    /// Where the code is written in the comment.
    span: Span,
    /// What the comment says (`allow(unused-macro)`), for messages.
    written: String,
    used: bool,
    /// The file whose findings it covers (Forth comments); `None`: the main file's lines,
    /// or every finding for `allow-file` (ZRF comments).
    file: Option<FileId>,
}

impl Suppressions {
    fn collect(forms: &[Node], main: FileId) -> Self {
        let mut s = Suppressions::default();
        let mut code_lines = HashSet::new();
        fn lines_with_code(n: &Node, out: &mut HashSet<u32>) {
            if n.kind != Kind::Comment {
                out.insert(n.span.line);
            }
            for c in n.items.iter() {
                lines_with_code(c, out);
            }
        }
        for f in forms {
            lines_with_code(f, &mut code_lines);
        }
        fn walk(n: &Node, s: &mut Suppressions, code_lines: &HashSet<u32>, main: FileId) {
            if n.kind == Kind::Comment && n.span.file == main {
                // The comment's text starts after its `;`.
                let text = n.text.as_str();
                let t = text.trim_start_matches(';').trim_start();
                if let Some(rest) = t.strip_prefix("dagaz:") {
                    let rest = rest.trim_start();
                    let (file_wide, body) = if let Some(b) = rest.strip_prefix("allow-file(") {
                        (true, b)
                    } else if let Some(b) = rest.strip_prefix("allow(") {
                        (false, b)
                    } else {
                        return;
                    };
                    let body = body.split(')').next().unwrap_or("");
                    // Byte offset of `body` in the comment's text (a subslice of it).
                    let base = body.as_ptr() as usize - text.as_ptr() as usize;
                    let mut at = 0;
                    for raw in body.split(',') {
                        let key = raw.trim();
                        let off = base + at + (raw.len() - raw.trim_start().len());
                        at += raw.len() + 1;
                        if key.is_empty() {
                            continue;
                        }
                        // One `;` precedes the text; columns count characters.
                        let span = Span {
                            file: n.span.file,
                            line: n.span.line,
                            col: n.span.col + 1 + text[..off].chars().count() as u32,
                            offset: n.span.offset + 1 + off as u32,
                            len: key.len() as u32,
                        };
                        let Some(code) = resolve_code(key) else {
                            s.unknown.push((key.to_owned(), span));
                            continue;
                        };
                        let line = if file_wide {
                            None
                        } else if code_lines.contains(&n.span.line) {
                            // A trailing comment covers its own line.
                            Some(n.span.line)
                        } else {
                            // A comment alone on its line covers the next line.
                            Some(n.span.line + 1)
                        };
                        s.entries.push(Entry {
                            id: code.id,
                            line,
                            span,
                            written: format!(
                                "{}({key})",
                                if file_wide { "allow-file" } else { "allow" }
                            ),
                            used: false,
                            file: None,
                        });
                    }
                }
            }
            for c in n.items.iter() {
                walk(c, s, code_lines, main);
            }
        }
        for f in forms {
            walk(f, &mut s, &code_lines, main);
        }
        s
    }

    /// `\ dagaz: allow(…)` and `\ dagaz: allow-file(…)` line comments in the files of an
    /// Axiom program other than its runtime (`CORE.4TH`, `axiom.4th`): each covers findings
    /// in its own file, on its own line when code precedes it, else on the next line. (A
    /// `( … )` comment cannot hold them: it ends at the first `)`.)
    fn collect_forth(sources: &SourceMap) -> Self {
        let mut s = Suppressions::default();
        for i in 0..sources.len() {
            let id = FileId(i as u32);
            let f = sources.get(id);
            let name = f
                .path
                .file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase());
            let runtime = matches!(name.as_deref(), Some("core.4th" | "axiom.4th"));
            if f.hidden || runtime || !f.path.is_file() {
                continue;
            }
            let mut line_start = 0usize;
            for (k, line) in f.text.split_inclusive('\n').enumerate() {
                let lineno = k as u32 + 1;
                let mut from = 0;
                while let Some(rel) = line[from..].find("dagaz:") {
                    let at = from + rel;
                    from = at + "dagaz:".len();
                    let before = line[..at].trim_end();
                    let opener = before.chars().last();
                    let code_before = before[..before.len().saturating_sub(1)].trim();
                    let opener_alone = before.len() == 1
                        || before[..before.len() - 1].ends_with(char::is_whitespace);
                    if opener != Some('\\') || !opener_alone {
                        continue;
                    }
                    let rest = line[from..].trim_start();
                    let (file_wide, body) = if let Some(b) = rest.strip_prefix("allow-file(") {
                        (true, b)
                    } else if let Some(b) = rest.strip_prefix("allow(") {
                        (false, b)
                    } else {
                        continue;
                    };
                    let body = body.split(')').next().unwrap_or("");
                    let base = body.as_ptr() as usize - line.as_ptr() as usize;
                    let mut pos = 0;
                    for raw in body.split(',') {
                        let key = raw.trim();
                        let off = base + pos + (raw.len() - raw.trim_start().len());
                        pos += raw.len() + 1;
                        if key.is_empty() {
                            continue;
                        }
                        let span = Span {
                            file: id,
                            line: lineno,
                            col: line[..off].chars().count() as u32 + 1,
                            offset: (line_start + off) as u32,
                            len: key.len() as u32,
                        };
                        let Some(code) = resolve_code(key) else {
                            s.unknown.push((key.to_owned(), span));
                            continue;
                        };
                        let covered = if file_wide {
                            None
                        } else if code_before.is_empty() {
                            Some(lineno + 1)
                        } else {
                            Some(lineno)
                        };
                        s.entries.push(Entry {
                            id: code.id,
                            line: covered,
                            span,
                            written: format!(
                                "{}({key})",
                                if file_wide { "allow-file" } else { "allow" }
                            ),
                            used: false,
                            file: Some(id),
                        });
                    }
                }
                line_start += line.len();
            }
        }
        s
    }

    /// True when a comment silences `d`; marks the comment used.
    fn silences(&mut self, d: &Diagnostic, main: FileId) -> bool {
        if is_fatal(d.code) {
            return false;
        }
        let mut hit = false;
        for e in &mut self.entries {
            let line = d
                .span
                .filter(|s| s.file == e.file.unwrap_or(main))
                .map(|s| s.line);
            let in_file = e.file.is_none() || line.is_some();
            if e.id == d.code.id && in_file && (e.line.is_none() || e.line == line) {
                e.used = true;
                hit = true;
            }
        }
        hit
    }

    /// Unknown codes, and codes that silenced nothing. Codes only `--deep` reports count
    /// as unused only when `deep` ran.
    fn findings(&self, deep: bool) -> Vec<Diagnostic> {
        let mut out = vec![];
        for (key, span) in &self.unknown {
            let mut d = Diagnostic::warning(
                rules::codes::UNKNOWN_LINT_CODE,
                format!("`{key}` is not a dagaz lint code: this suppression silences nothing"),
            )
            .with_span(*span);
            if let Some(n) = nearest_code(key) {
                d = d.with_note(format!("did you mean `{n}`?"));
            }
            out.push(d);
        }
        for e in self.entries.iter().filter(|e| !e.used) {
            if e.id.starts_with("DZ09") && !deep {
                continue;
            }
            if resolve_code(e.id).is_some_and(is_fatal) {
                out.push(
                    Diagnostic::warning(
                        rules::codes::UNUSED_SUPPRESSION,
                        format!(
                            "`{}` silences nothing: {} stops the checks and cannot be suppressed",
                            e.written, e.id
                        ),
                    )
                    .with_span(e.span),
                );
                continue;
            }
            let what = match e.line {
                Some(l) => format!("on line {l}"),
                None => "in this file".to_owned(),
            };
            out.push(
                Diagnostic::warning(
                    rules::codes::UNUSED_SUPPRESSION,
                    format!(
                        "`{}` silences nothing: no {} finding {what}",
                        e.written, e.id
                    ),
                )
                .with_span(e.span),
            );
        }
        out
    }
}
