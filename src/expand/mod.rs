//! The expansion layer: from a file on disk (or bundled text) to playable games.
//!
//! [`load_path`] / [`load_text`] read the main file ([`crate::source`]), parse it
//! ([`crate::syntax`]), splice includes ([`include`](mod@include)), collect and expand macros
//! ([`macros`]) and merge variants ([`variants`]). The result, a [`Loaded`], keeps the
//! syntax-stage tree of the main file, the expanded forms, the games, every diagnostic, and
//! the source map needed to render them.

pub mod include;
pub mod macros;
pub mod options;
pub mod variants;

pub use macros::Limits;
pub use variants::{GameDef, slug};

use crate::diagnostics::{Diagnostic, codes, has_errors};
use crate::source::{FileId, SourceMap};
use crate::syntax::{Node, parse};
use std::path::{Path, PathBuf};

/// Everything read from one rules file.
#[derive(Debug)]
pub struct Loaded {
    pub sources: SourceMap,
    pub main: FileId,
    /// The main file's tree, comments included (the `syntax` stage).
    pub syntax: Vec<Node>,
    /// Top-level forms after includes and macro expansion, comments and `define`s removed.
    pub expanded: Vec<Node>,
    /// Playable games: base games and merged variants, in file order.
    pub games: Vec<GameDef>,
    /// The macros defined (main file and includes), for lint.
    pub macros: Vec<MacroInfo>,
    /// The macro calls written outside macro bodies (their extent and macro name), in file
    /// order: a finding inside one came from that expansion.
    pub outer_calls: Vec<(crate::source::Span, String)>,
    /// False when a limit stopped the expansion (the usage figures are then partial).
    pub expansion_complete: bool,
    pub diagnostics: Vec<Diagnostic>,
    /// What macro expansion produced, as the budget counts it: (bytes, nodes).
    pub expansion_size: (usize, usize),
}

/// What lint needs to know about one macro definition.
#[derive(Debug, Clone)]
pub struct MacroInfo {
    pub name: String,
    /// Where the name is written in the `define`.
    pub span: crate::source::Span,
    /// True when some expansion called it.
    pub called: bool,
    /// The `$k` numbers its body uses, and those that macros it calls take from its
    /// arguments (dynamic scope).
    pub parameters: Vec<usize>,
    /// The whole `(define …)` form.
    pub form: crate::source::Span,
    /// How it was called (arguments used and passed, outer call sites).
    pub usage: macros::Usage,
}

impl Loaded {
    /// True when any error was found.
    pub fn has_errors(&self) -> bool {
        has_errors(&self.diagnostics)
    }

    /// For each file id, the name written in `file` attributes: `None` for the main file.
    pub fn file_names(&self) -> Vec<Option<String>> {
        (0..self.sources.len())
            .map(|i| {
                (i as u32 != self.main.0)
                    .then(|| self.sources.get(FileId(i as u32)).display.clone())
            })
            .collect()
    }

    /// The default game.
    pub fn default_game(&self) -> Option<&GameDef> {
        self.games.iter().find(|g| g.is_default)
    }

    /// Finds a game by exact title, slug or case-insensitive title. The error lists the
    /// available names, nearest first.
    pub fn find_game(&self, name: &str) -> Result<&GameDef, Diagnostic> {
        let s = slug(name);
        self.games
            .iter()
            .find(|g| g.title == name)
            .or_else(|| {
                self.games
                    .iter()
                    .find(|g| g.slug == name || (!s.is_empty() && g.slug == s))
            })
            .ok_or_else(|| {
                let mut names: Vec<&GameDef> = self.games.iter().collect();
                names.sort_by_key(|g| crate::text::edit_distance(&g.slug, &s));
                let list: Vec<String> = names
                    .iter()
                    .map(|g| format!("{} ({})", g.slug, g.title))
                    .collect();
                Diagnostic::error(
                    codes::UNKNOWN_VARIANT,
                    format!("no game or variant named `{name}`"),
                )
                .with_note(format!("available: {}", list.join(", ")))
            })
    }
}

/// Reads, parses and expands the rules file at `path`. `display` is the path to show.
pub fn load_path(path: &Path, display: &str, limits: Limits) -> Result<Loaded, Diagnostic> {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let main = sources.load(path, display.to_owned(), &mut diagnostics)?;
    Ok(finish(sources, main, diagnostics, limits))
}

/// Reads and parses the file at `path` without expanding it (the `syntax` stage only).
pub fn load_syntax(path: &Path, display: &str) -> Result<Loaded, Diagnostic> {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let main = sources.load(path, display.to_owned(), &mut diagnostics)?;
    let parsed = parse(&sources, main);
    diagnostics.extend(parsed.diagnostics);
    Ok(Loaded {
        sources,
        main,
        syntax: parsed.forms,
        expanded: vec![],
        games: vec![],
        macros: vec![],
        outer_calls: vec![],
        expansion_complete: false,
        diagnostics,
        expansion_size: (0, 0),
    })
}

/// Parses and expands rules text held in memory (bundled games).
pub fn load_text(name: &str, text: &str, limits: Limits) -> Loaded {
    load_bytes(name, text.as_bytes(), limits)
}

/// Decodes, parses and expands rules held in memory as bytes. Includes are resolved
/// relative to the folder of `name`.
pub fn load_bytes(name: &str, bytes: &[u8], limits: Limits) -> Loaded {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let main = sources.add_bytes(
        PathBuf::from(name),
        name.to_owned(),
        bytes,
        &mut diagnostics,
    );
    finish(sources, main, diagnostics, limits)
}

fn finish(
    mut sources: SourceMap,
    main: FileId,
    mut diagnostics: Vec<Diagnostic>,
    limits: Limits,
) -> Loaded {
    let parsed = parse(&sources, main);
    diagnostics.extend(parsed.diagnostics);
    let syntax = parsed.forms;
    let mut expanded = Vec::new();
    let mut games = Vec::new();
    let mut macro_infos = Vec::new();
    let mut outer_calls = Vec::new();
    let mut expansion_complete = false;
    let mut expansion_size = (0, 0);
    if !has_errors(&diagnostics) {
        let forms = syntax.clone();
        let root_dir = sources
            .get(main)
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let mut forms = include::splice_includes(
            &mut sources,
            main,
            forms,
            &root_dir,
            &limits.include_dirs,
            &mut diagnostics,
        );
        for f in &mut forms {
            f.strip_comments();
        }
        forms.retain(|f| f.kind != crate::syntax::Kind::Comment);
        let macros = macros::collect_defines(&mut forms, &mut diagnostics);
        let mut ex = macros::Expander::new(&macros, limits.clone());
        expanded = ex.expand_forms(&forms);
        expansion_size = ex.produced();
        expansion_complete = !ex
            .diagnostics
            .iter()
            .any(|d| [codes::EXPANSION_TOO_DEEP, codes::EXPANSION_TOO_LARGE].contains(&d.code));
        outer_calls = std::mem::take(&mut ex.outer_calls);
        diagnostics.extend(std::mem::take(&mut ex.diagnostics));
        let mut infos: Vec<MacroInfo> = macros
            .values()
            .map(|m| MacroInfo {
                name: m.name.clone(),
                span: m.span,
                called: ex.called.contains(&m.name),
                parameters: {
                    let mut p = macros::parameters_used(&m.body);
                    p.extend(
                        ex.dynamic_uses
                            .iter()
                            .filter(|(name, _)| *name == m.name)
                            .map(|&(_, k)| k),
                    );
                    p.sort_unstable();
                    p.dedup();
                    p
                },
                form: m.form,
                usage: ex.usage.remove(&m.name).unwrap_or_default(),
            })
            .collect();
        infos.sort_by_key(|m| (m.span.file.0, m.span.offset));
        macro_infos = infos;
        if !has_errors(&diagnostics) {
            games = variants::merge_variants(&expanded, &mut diagnostics, limits.max_merged_bytes);
        }
    }
    Loaded {
        sources,
        main,
        syntax,
        expanded,
        games,
        macros: macro_infos,
        outer_calls,
        expansion_complete,
        diagnostics: crate::diagnostics::collapse_repeats(diagnostics),
        expansion_size,
    }
}
