//! `(include "file")`: splices the top-level forms of another file, resolved relative to
//! the including file's folder. A missing file, an include cycle or too deep a chain of
//! includes is an error at the include's position.
//!
//! Includes stay inside the project: the folder of the file named on the command line
//! (`root_dir`). An absolute path, a `..` climbing above that folder, or a symbolic link
//! leading out of it is refused (`DZ0217`) before anything is read, and an included file
//! must be a regular file of bounded size (`SourceMap::load_regular`).

use crate::confine::{Refusal, confined, home_root};
use crate::diagnostics::{Diagnostic, codes};
use crate::source::{FileId, SourceMap};
use crate::syntax::{Kind, Node, parse};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Longest chain of nested includes.
pub const MAX_INCLUDE_DEPTH: usize = 32;

/// Most bytes of included text spliced into one file, counting a file once per `include`
/// that splices it, plus [`INCLUDE_OVERHEAD`] per include. Real files include a few
/// kilobytes; a "diamond" of files that each include the next twice would otherwise splice
/// 2^depth copies.
pub const MAX_SPLICED_BYTES: u64 = 16 << 20;

/// What one splice costs besides its text (the forms' memory), for [`MAX_SPLICED_BYTES`].
pub const INCLUDE_OVERHEAD: u64 = 256;

/// Resolves includes among `forms` (the top-level forms of file `file`), recursively.
/// Returns the spliced top-level forms; diagnostics are appended to `diags`. Each included
/// file is read and parsed once (cached by its real path), however often it is included.
pub fn splice_includes(
    sources: &mut SourceMap,
    file: FileId,
    forms: Vec<Node>,
    root_dir: &Path,
    include_dirs: &[PathBuf],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Node> {
    let main = canonical(&sources.get(file).path);
    // Included files are shown under the main file's folder as the user named it, so the
    // path shown opens from the working directory.
    let shown_dir = Path::new(&sources.get(file).display)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut s = Splicer {
        sources,
        root_dir,
        include_dirs,
        shown_dir,
        stack: vec![main],
        cache: HashMap::new(),
        spliced: 0,
        over_budget: false,
        diags,
    };
    let mut out = Vec::with_capacity(forms.len());
    s.splice(file, forms, &mut out);
    out
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The state of one include resolution.
struct Splicer<'a> {
    sources: &'a mut SourceMap,
    root_dir: &'a Path,
    /// Further folders includes may read (`--include-dir`), searched in order after the
    /// including file's folder.
    include_dirs: &'a [PathBuf],
    /// `root_dir` as the user named it (the main file's display path's folder).
    shown_dir: PathBuf,
    /// Real paths of the files being spliced (cycle detection).
    stack: Vec<PathBuf>,
    /// Files already read, by real path: their id, their forms and their size.
    cache: HashMap<PathBuf, (FileId, Vec<Node>, u64)>,
    /// Bytes spliced so far (see [`MAX_SPLICED_BYTES`]).
    spliced: u64,
    over_budget: bool,
    diags: &'a mut Vec<Diagnostic>,
}

impl Splicer<'_> {
    fn splice(&mut self, file: FileId, forms: Vec<Node>, out: &mut Vec<Node>) {
        for form in forms {
            if self.over_budget {
                return;
            }
            if form.head() != Some("include") {
                out.push(form);
                continue;
            }
            let Some((id, forms, canon)) = self.resolve(file, &form) else {
                continue;
            };
            self.stack.push(canon);
            self.splice(id, forms, out);
            self.stack.pop();
        }
    }

    /// Reads (or takes from the cache) the file an `include` form names.
    fn resolve(&mut self, file: FileId, form: &Node) -> Option<(FileId, Vec<Node>, PathBuf)> {
        let target = match form.args() {
            [n] if n.kind == Kind::Str || n.kind == Kind::Atom => n.text.clone(),
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        codes::MALFORMED_INCLUDE,
                        "`include` takes exactly one file name, e.g. (include \"common.zrf\")",
                    )
                    .with_span(form.span),
                );
                return None;
            }
        };
        let base = self
            .sources
            .get(file)
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        // Files written on Windows use backslashes in include paths.
        let written = target.replace('\\', "/");
        let located = self.locate(&base, &written);
        let diags = &mut *self.diags;
        let path = match located {
            Ok(p) => p,
            Err(why) => {
                diags.push(
                    Diagnostic::error(
                        codes::INCLUDE_OUTSIDE_PROJECT,
                        format!("`(include \"{target}\")` is refused: {why}"),
                    )
                    .with_span(form.span)
                    .with_note(
                        "includes must stay inside the folder of the file being checked (or an --include-dir)",
                    ),
                );
                return None;
            }
        };
        let canon = canonical(&path);
        if let Some(pos) = self.stack.iter().position(|p| *p == canon) {
            let chain: Vec<String> = self.stack[pos..]
                .iter()
                .chain(std::iter::once(&canon))
                .map(|p| {
                    p.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            diags.push(
                Diagnostic::error(
                    codes::INCLUDE_CYCLE,
                    format!("include cycle: {}", chain.join(" -> ")),
                )
                .with_span(form.span),
            );
            return None;
        }
        if self.stack.len() >= MAX_INCLUDE_DEPTH {
            diags.push(
                Diagnostic::error(
                    codes::INCLUDE_TOO_DEEP,
                    format!("includes nested deeper than {MAX_INCLUDE_DEPTH} files"),
                )
                .with_span(form.span),
            );
            return None;
        }
        if !self.cache.contains_key(&canon) {
            let display = relative_display(&path, self.root_dir, &self.shown_dir);
            let mut warnings = Vec::new();
            let id = match self
                .sources
                .load_regular(&path, display.clone(), &mut warnings)
            {
                Ok(id) => id,
                Err(e) => {
                    diags.push(
                        Diagnostic::error(
                            codes::INCLUDE_NOT_FOUND,
                            format!("included file `{display}` cannot be read"),
                        )
                        .with_span(form.span)
                        .with_note(e.message),
                    );
                    return None;
                }
            };
            diags.extend(warnings);
            let parsed = parse(self.sources, id);
            if crate::diagnostics::has_errors(&parsed.diagnostics) {
                // Not ZRF: never echo its text (it could be any file of the project).
                self.sources.hide_text(id);
            }
            diags.extend(parsed.diagnostics);
            let size = self.sources.get(id).text.len() as u64;
            self.cache.insert(canon.clone(), (id, parsed.forms, size));
        }
        let (id, forms, size) = &self.cache[&canon];
        self.spliced += size + INCLUDE_OVERHEAD;
        if self.spliced > MAX_SPLICED_BYTES {
            self.over_budget = true;
            self.diags.push(
                Diagnostic::error(
                    codes::EXPANSION_TOO_LARGE,
                    format!(
                        "includes splice more than {} MiB of text (a file included many times over)",
                        MAX_SPLICED_BYTES >> 20
                    ),
                )
                .with_span(form.span),
            );
            return None;
        }
        Some((*id, forms.clone(), canon))
    }
}

impl Splicer<'_> {
    /// Where an include written `written` in a file of folder `base` leads: relative to
    /// `base`, inside the folder (main folder or include folder) that holds `base`; when no
    /// file is there, in the first `--include-dir` that has it. Never outside those folders.
    fn locate(&self, base: &Path, written: &str) -> Result<PathBuf, &'static str> {
        let roots: Vec<&Path> = std::iter::once(self.root_dir)
            .chain(self.include_dirs.iter().map(PathBuf::as_path))
            .collect();
        let home = home_root(base, &roots, self.root_dir);
        let first = confined(base, written, home, &roots).map_err(Refusal::reason);
        if matches!(&first, Ok(p) if p.exists()) {
            return first;
        }
        for dir in self.include_dirs {
            if let Ok(p) = confined(dir, written, dir, &roots) {
                if p.exists() {
                    return Ok(p);
                }
            }
        }
        first
    }
}

/// `path` (below the main file's folder `root_dir`) as shown: under `shown_dir`, the main
/// file's folder as the user named it, with `/` separators.
fn relative_display(path: &Path, root_dir: &Path, shown_dir: &Path) -> String {
    let shown = match path.strip_prefix(root_dir) {
        Ok(rel) => shown_dir.join(rel),
        Err(_) => path.to_path_buf(),
    };
    shown.to_string_lossy().replace('\\', "/")
}
