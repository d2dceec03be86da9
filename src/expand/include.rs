//! `(include "file")`: splices the top-level forms of another file, resolved relative to
//! the including file's folder. A missing file, an include cycle or too deep a chain of
//! includes is an error at the include's position.

use crate::diagnostics::{Diagnostic, codes};
use crate::source::{FileId, SourceMap};
use crate::syntax::{Kind, Node, parse};
use std::path::{Path, PathBuf};

/// Longest chain of nested includes.
pub const MAX_INCLUDE_DEPTH: usize = 32;

/// Resolves includes among `forms` (the top-level forms of file `file`), recursively.
/// Returns the spliced top-level forms; diagnostics are appended to `diags`.
pub fn splice_includes(
    sources: &mut SourceMap,
    file: FileId,
    forms: Vec<Node>,
    root_dir: &Path,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Node> {
    let mut stack = vec![canonical(&sources.get(file).path)];
    let mut out = Vec::with_capacity(forms.len());
    // Included files are shown under the main file's folder as the user named it, so the
    // path shown opens from the working directory.
    let shown_dir = Path::new(&sources.get(file).display)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let dirs = (root_dir, shown_dir.as_path());
    splice(sources, file, forms, dirs, &mut stack, diags, &mut out);
    out
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

fn splice(
    sources: &mut SourceMap,
    file: FileId,
    forms: Vec<Node>,
    dirs: (&Path, &Path),
    stack: &mut Vec<PathBuf>,
    diags: &mut Vec<Diagnostic>,
    out: &mut Vec<Node>,
) {
    for form in forms {
        if form.head() != Some("include") {
            out.push(form);
            continue;
        }
        let target = match form.args() {
            [n] if n.kind == Kind::Str || n.kind == Kind::Atom => n.text.clone(),
            _ => {
                diags.push(
                    Diagnostic::error(
                        codes::MALFORMED_INCLUDE,
                        "`include` takes exactly one file name, e.g. (include \"common.zrf\")",
                    )
                    .with_span(form.span),
                );
                continue;
            }
        };
        let base = sources
            .get(file)
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        // Files written on Windows use backslashes in include paths.
        let path = base.join(target.replace('\\', "/"));
        let canon = canonical(&path);
        if let Some(pos) = stack.iter().position(|p| *p == canon) {
            let chain: Vec<String> = stack[pos..]
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
            continue;
        }
        if stack.len() >= MAX_INCLUDE_DEPTH {
            diags.push(
                Diagnostic::error(
                    codes::INCLUDE_TOO_DEEP,
                    format!("includes nested deeper than {MAX_INCLUDE_DEPTH} files"),
                )
                .with_span(form.span),
            );
            continue;
        }
        let display = relative_display(&path, dirs);
        let mut warnings = Vec::new();
        let id = match sources.load(&path, display.clone(), &mut warnings) {
            Ok(id) => id,
            Err(_) => {
                diags.push(
                    Diagnostic::error(
                        codes::INCLUDE_NOT_FOUND,
                        format!("included file `{display}` cannot be read"),
                    )
                    .with_span(form.span),
                );
                continue;
            }
        };
        diags.extend(warnings);
        let parsed = parse(sources, id);
        diags.extend(parsed.diagnostics);
        stack.push(canon);
        splice(sources, id, parsed.forms, dirs, stack, diags, out);
        stack.pop();
    }
}

/// `path` (below the main file's folder `root`) as shown: under `shown`, the main file's
/// folder as the user named it, with `/` separators.
fn relative_display(path: &Path, (root, shown): (&Path, &Path)) -> String {
    let shown_path = match path.strip_prefix(root) {
        Ok(rel) => shown.join(rel),
        Err(_) => path.to_path_buf(),
    };
    shown_path.to_string_lossy().replace('\\', "/")
}
