//! `dagaz lint`: validate rules files with precise diagnostics and CI-friendly exit codes.

use crate::common::{CliError, OK, PROBLEMS, write_output};
use dagaz::axiom::folder::{self, FileRole};
use dagaz::diagnostics::Severity;
use dagaz::lint::deep::DeepOptions;
use dagaz::lint::{
    FileReport, Level, LintOptions, drop_repeated_findings, lint_forth_part, lint_forth_path,
    lint_forth_program, lint_loaded, lint_path, report, rules,
};
use dagaz::players::resolve::{self, ResolveOptions, Source};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// rustc-style findings with the source line and a caret, then a summary
    Human,
    /// one line per finding: file:line:col: severity[CODE/name]: message
    Concise,
    /// a JSON document (schema_version 1)
    Json,
    /// SARIF 2.1.0, for code-scanning services
    Sarif,
    /// GitHub Actions workflow annotations
    Github,
}

/// Validate rules files (.zrf, .4th, or folders of them) with precise diagnostics.
///
/// A .4th file is linted as an Axiom variant file with the files it LOADs (CORE.4TH and
/// axiom.4th of its folder, else dagaz's own runtime, are not checked): undefined words,
/// words used before their definition, unbalanced control structures and stack comments
/// that do not match the code. A folder's .4th variant files are those no other .4th file
/// of the folder LOADs. A part (a .4th file that others LOAD) named on its own is checked as
/// the first variant that loads it, with every file it names, loads it, and keeps its own
/// findings; CORE.4TH or axiom.4th named on its own stands for the folder's variants.
///
/// Exit codes: 0 clean (warnings allowed), 1 errors found (or warnings with
/// --deny warnings), 2 usage or I/O error.
/// In-file suppression: `; dagaz: allow(DZ0214)` on the line (or alone on the line
/// before), `; dagaz: allow-file(DZ0850)` for the whole file.
///
/// Examples:
///   dagaz lint chess                           # a bundled game
///   dagaz lint tictactoe --format concise
///   dagaz lint tictactoe --deep --playouts 50 --seed 7
///   dagaz lint tictactoe --format sarif -o lint.sarif
///   dagaz lint --explain unused-macro
///   dagaz lint --explain forth-unbalanced-structure
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// rules files (.zrf), Axiom variant files (.4th), folders (searched for .zrf and .4th
    /// variant files), game names (a bundled game or variant: its whole file), or `-` for
    /// ZRF text on standard input (default: the current folder)
    pub paths: Vec<PathBuf>,
    /// output format
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// write the report here (atomically) instead of stdout
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// report CODE (id or name) as a warning
    #[arg(long, value_name = "CODE")]
    pub warn: Vec<String>,
    /// report CODE as an error; `--deny warnings` makes every warning an error
    #[arg(long, value_name = "CODE")]
    pub deny: Vec<String>,
    /// do not report CODE
    #[arg(long, value_name = "CODE")]
    pub allow: Vec<String>,
    /// also play seeded random playouts of every game and report runtime problems
    #[arg(long)]
    pub deep: bool,
    /// with --deep: playouts per game or variant
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub playouts: u32,
    /// with --deep: plies after which a playout counts as never ending
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub max_plies: u32,
    /// with --deep: seed of the playouts (echoed in the findings)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// print the documentation of a rule, with a bad and a good example
    #[arg(long, value_name = "CODE")]
    pub explain: Option<String>,
    /// list every rule: code, name, default severity and summary
    #[arg(long)]
    pub list_rules: bool,
    /// print how many findings of each code there are (most first) instead of the findings
    #[arg(long)]
    pub statistics: bool,
    /// a folder where includes may also be read (after the including file's own folder);
    /// repeatable. Includes never leave the main file's folder and these folders
    #[arg(long = "include-dir", value_name = "DIR")]
    pub include_dir: Vec<PathBuf>,
}

/// The rules files under `path`: `.zrf` regular files of a folder, recursively and sorted, and
/// its Axiom variant files ([`forth_variants`]), or `path` itself. Each folder is walked once
/// (symbolic-link loops end), and only regular files are taken from folders (a FIFO or a
/// device named `x.zrf` would block or never end).
fn collect(
    path: &Path,
    out: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<PathBuf>,
    notes: &mut Vec<String>,
) -> std::io::Result<()> {
    if path.is_dir() {
        let canonical = std::fs::canonicalize(path)?;
        if !seen.insert(canonical) {
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        let variants = forth_variants(&entries);
        let forth: Vec<&PathBuf> = entries
            .iter()
            .filter(|e| e.is_file() && is_forth(e))
            .collect();
        let loaded = folder::loaded_names(&forth);
        for f in &forth {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            if !folder::is_runtime_name(&name) && !loaded.contains(&name) && folder::is_fragment(f)
            {
                notes.push(format!(
                    "note: `{}` is loaded by no variant file of its folder and is no program on its own (no LOAD, {{board or {{players): not checked",
                    f.display()
                ));
            }
        }
        for e in entries {
            if e.is_dir()
                || (e.is_file() && e.extension().is_some_and(|x| x.eq_ignore_ascii_case("zrf")))
                || variants.contains(&e)
            {
                collect(&e, out, seen, notes)?;
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

fn is_forth(p: &Path) -> bool {
    p.extension().is_some_and(|x| x.eq_ignore_ascii_case("4th"))
}

/// The Axiom variant files among a folder's `entries`: `.4th` regular files other than the
/// runtime files (`CORE.4TH`, `axiom.4th`) that no other `.4th` file of the folder `LOAD`s
/// (a base game such as `Ur.4th` is checked through its variants).
fn forth_variants(entries: &[PathBuf]) -> Vec<PathBuf> {
    let files: Vec<&PathBuf> = entries
        .iter()
        .filter(|e| e.is_file() && is_forth(e))
        .collect();
    folder::variant_files(&files)
}

/// What linting a `.4th` file named on the command line takes.
enum ForthJob {
    /// These whole programs: a variant; a runtime file's variants (with a note).
    Whole(Vec<PathBuf>),
    /// A part (a file others `LOAD`, mostly undefined words on its own): its findings as
    /// the first of its folder's variants that reaches it loads it.
    Part {
        part: PathBuf,
        loaders: Vec<PathBuf>,
    },
}

fn file_names(v: &[PathBuf]) -> String {
    v.iter()
        .map(|p| format!("`{}`", p.file_name().unwrap_or_default().to_string_lossy()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// See [`ForthJob`].
fn forth_job(f: &Path, notes: &mut Vec<String>) -> ForthJob {
    match folder::role_of(f) {
        Ok(FileRole::Part { variants }) if !variants.is_empty() => ForthJob::Part {
            part: f.to_path_buf(),
            loaders: variants,
        },
        Ok(FileRole::Runtime { variants }) => {
            notes.push(if variants.is_empty() {
                format!(
                    "note: `{}` is a runtime file and no variant file of its folder loads it: not checked",
                    f.display()
                )
            } else {
                format!(
                    "note: `{}` is a runtime file: checked as {} load it",
                    f.display(),
                    file_names(&variants)
                )
            });
            ForthJob::Whole(variants)
        }
        // A part that no variant loads: linted on its own, it would be mostly undefined
        // words (Margo's `Dir-6x6.4th`, which no variant of its folder loads).
        Ok(FileRole::Part { .. }) if folder::is_fragment(f) => {
            notes.push(format!(
                "note: `{}` is loaded by no variant file of its folder and is no program on its own (no LOAD, {{board or {{players): not checked",
                f.display()
            ));
            ForthJob::Whole(vec![])
        }
        // A variant, a part that only a cycle of parts loads, or a folder that cannot be
        // read (the file itself then fails as it would).
        _ => ForthJob::Whole(vec![f.to_path_buf()]),
    }
}

pub fn run(a: Args) -> u8 {
    match run_inner(a) {
        Ok(c) => c,
        Err(e) => e.report(),
    }
}

/// Errors found in the files are a result (exit 1); an error ends the run (exit 2).
fn run_inner(a: Args) -> Result<u8, CliError> {
    if a.list_rules {
        let text: String = rules::RULES
            .iter()
            .map(|r| {
                format!(
                    "{} {:<34} {:<7} {}\n",
                    r.code.id,
                    r.code.name,
                    r.severity.as_str(),
                    r.summary
                )
            })
            .collect();
        write_output(None, text.as_bytes())?;
        return Ok(OK);
    }
    if let Some(key) = &a.explain {
        return match rules::find(key) {
            Some(r) => {
                write_output(None, rules::explain(r).as_bytes())?;
                Ok(OK)
            }
            None => {
                let near = dagaz::text::suggestions(key, rules::RULES.iter().map(|r| r.code.name));
                Err(CliError::Usage(format!(
                    "no lint rule `{key}`{}",
                    near.first()
                        .map(|n| format!(" (did you mean `{n}`?)"))
                        .unwrap_or_default()
                )))
            }
        };
    }
    let mut opts = LintOptions {
        include_dirs: a.include_dir.clone(),
        ..LintOptions::default()
    };
    for (keys, level) in [
        (&a.allow, Level::Allow),
        (&a.warn, Level::Warn),
        (&a.deny, Level::Deny),
    ] {
        for k in keys {
            opts.set(k, level)
                .map_err(|e| CliError::Usage(e.to_string()))?;
        }
    }
    if a.deep {
        opts.deep = Some(DeepOptions {
            playouts: a.playouts,
            max_plies: a.max_plies,
            seed: a.seed,
        });
    }
    let mut reports: Vec<FileReport> = Vec::new();
    // Axiom programs already linted (a folder's variant files, a rules file's programs).
    let mut forth_seen = std::collections::HashSet::new();
    let mut notes = vec![];
    // Parts named on their own, linted after the whole programs (see `ForthJob::Part`).
    let mut parts: Vec<(PathBuf, Vec<PathBuf>)> = vec![];
    // As ruff does: no path lints the current folder.
    let paths = if a.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        a.paths.clone()
    };
    for p in &paths {
        let mut files = vec![];
        if p.as_os_str() == "-" {
            let mut text = Vec::new();
            std::io::Read::read_to_end(
                &mut std::io::Read::take(
                    std::io::stdin().lock(),
                    dagaz::source::MAX_SOURCE_BYTES + 1,
                ),
                &mut text,
            )
            .map_err(|e| CliError::Usage(format!("cannot read standard input: {e}")))?;
            if text.len() as u64 > dagaz::source::MAX_SOURCE_BYTES {
                return Err(CliError::Usage(format!(
                    "standard input is larger than {} MiB",
                    dagaz::source::MAX_SOURCE_BYTES >> 20
                )));
            }
            let loaded = dagaz::expand::load_bytes("<stdin>", &text, Default::default());
            reports.push(lint_loaded(loaded, "<stdin>", &opts));
            continue;
        }
        if p.is_file() && is_forth(p) {
            match forth_job(p, &mut notes) {
                ForthJob::Whole(v) => files = v,
                ForthJob::Part { part, loaders } => parts.push((part, loaders)),
            }
        } else if p.exists() {
            collect(p, &mut files, &mut Default::default(), &mut notes)
                .map_err(|e| CliError::Usage(format!("cannot read `{}`: {e}", p.display())))?;
        } else {
            // A name: a bundled game or variant, `FILE:VARIANT` (the whole file is linted),
            // an Axiom file named without `.4th`.
            // Every name that names no game is a usage error here, with its message alone.
            let name = resolve::locate(&p.to_string_lossy(), &ResolveOptions::default())
                .and_then(|n| n.without_ai("lint"))
                .map_err(|e| CliError::Usage(e.message().to_owned()))?;
            match name.source {
                Source::Bundled(g) => {
                    let name = format!("{}.zrf", g.name);
                    let loaded = dagaz::expand::load_text(&name, g.text, Default::default());
                    reports.push(lint_loaded(loaded, &name, &opts));
                    continue;
                }
                Source::Axiom(f) => match forth_job(&f, &mut notes) {
                    ForthJob::Whole(v) => files = v,
                    ForthJob::Part { part, loaders } => parts.push((part, loaders)),
                },
                Source::File(f) => files.push(f),
            }
        }
        for f in files {
            let display = f.to_string_lossy().into_owned();
            let linted = if is_forth(&f) {
                if !forth_seen.insert(f.canonicalize().unwrap_or_else(|_| f.clone())) {
                    continue;
                }
                lint_forth_path(&f, &display, &opts)
            } else {
                lint_path(&f, &display, &opts)
            };
            let r = linted.map_err(|d| CliError::Usage(d.message))?;
            // A rules file whose moves come from Axiom: its variants' programs too.
            let programs = r.axiom_programs.clone();
            reports.push(r);
            for (p, engine_dir) in programs {
                if !forth_seen.insert(p.canonicalize().unwrap_or_else(|_| p.clone())) {
                    continue;
                }
                let display = p.to_string_lossy().into_owned();
                let r = lint_forth_program(&p, Some(&engine_dir), &display, &opts)
                    .map_err(|d| CliError::Usage(d.message))?;
                reports.push(r);
            }
        }
    }
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    for (part, loaders) in parts {
        if !forth_seen.insert(canonical(&part)) {
            continue;
        }
        // A program already checked that read it whole has its findings.
        if let Some(r) = reports.iter().find(|r| r.checked_file(&part).is_some()) {
            notes.push(format!(
                "note: `{}` is a part that other files LOAD: its findings are in the report of `{}`",
                part.display(),
                r.display
            ));
            continue;
        }
        let display = part.to_string_lossy().into_owned();
        match lint_forth_part(&part, &display, &loaders, &opts)
            .map_err(|d| CliError::Usage(d.message))?
        {
            Some((r, loader)) => {
                notes.push(format!(
                    "note: `{}` is a part that other files LOAD: checked as `{}` loads it",
                    part.display(),
                    loader.display()
                ));
                reports.push(r);
            }
            None => {
                // No loader gets as far as this file: on its own, as a last resort.
                notes.push(format!(
                    "note: `{}` is a part that other files LOAD, but each of {} misses a file it LOADs: checked on its own",
                    part.display(),
                    file_names(&loaders)
                ));
                let r = lint_forth_path(&part, &display, &opts)
                    .map_err(|d| CliError::Usage(d.message))?;
                reports.push(r);
            }
        }
    }
    let repeated = drop_repeated_findings(&mut reports);
    if repeated > 0 {
        notes.push(format!(
            "note: {repeated} finding(s) in files that several of the checked programs load are reported once"
        ));
    }
    let text = match a.format {
        _ if a.statistics => statistics(&reports),
        Format::Human => report::human(&reports),
        Format::Concise => report::concise(&reports),
        Format::Json => report::json_doc(&reports),
        Format::Sarif => {
            // Artifact URIs are relative to the folder lint runs from (`%SRCROOT%`).
            let cwd = std::env::current_dir().ok();
            report::sarif(&reports, cwd.as_deref().and_then(Path::to_str))
        }
        Format::Github => report::github(&reports),
    };
    write_output(a.output.as_deref(), text.as_bytes())?;
    // Logs, whatever the format: stdout carries the report.
    for n in &notes {
        eprintln!("{n}");
    }
    if matches!(a.format, Format::Human | Format::Concise) {
        eprintln!("{}", report::summary_line(&reports));
    }
    let errors = reports.iter().any(|r| r.count(Severity::Error) > 0);
    Ok(if errors { PROBLEMS } else { OK })
}

/// `--statistics`: `COUNT CODE name severity`, a line a code, most first (then by code).
fn statistics(reports: &[FileReport]) -> String {
    let mut counts: std::collections::BTreeMap<(&str, &str, &str), usize> = Default::default();
    for r in reports {
        for d in &r.diagnostics {
            *counts
                .entry((d.code.id, d.code.name, d.severity.as_str()))
                .or_default() += 1;
        }
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    rows.iter()
        .map(|((id, name, sev), n)| format!("{n:>6} {id} {name} ({sev})\n"))
        .collect()
}
