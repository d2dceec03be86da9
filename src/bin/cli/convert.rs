//! `dagaz convert`: a rules file to XML, JSON or ZRF, at the syntax, expanded or model
//! stage; or to the ForthScript declarations of an Axiom game (`--to axiom`).

use crate::common::{CliError, DiagFormat, OK, PROBLEMS, print_diagnostics, write_output};
use dagaz::convert::{TreeDoc, json::to_json, xml::to_xml};
use dagaz::diagnostics::has_errors;
use dagaz::expand::{Limits, load_path, load_syntax};
use dagaz::players::resolve::{self, ResolveOptions, Source, choose_game};
use dagaz::syntax::print_forms;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Stage {
    /// the file as written: comments kept, macros not expanded
    Syntax,
    /// includes spliced, macros expanded, each variant merged into a full game
    Expanded,
    /// the compiled game model: positions and links, zones, pieces, move programs, goals
    Model,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum To {
    Xml,
    Json,
    Zrf,
    /// the ForthScript declarations of an Axiom game: NAME.4th and one file per variant
    Axiom,
}

/// Convert a rules file to XML, JSON, ZRF or Axiom declarations (see docs/formats.md).
///
/// Examples:
///   dagaz convert tictactoe                    # a bundled game's syntax tree as XML
///   dagaz convert tictactoe --stage expanded --to json -o tictactoe.json
///   dagaz convert tictactoe --to xml -o tree.xml
///   dagaz convert tictactoe --stage model --to json
///   dagaz convert tree.xml --to zrf            # tree XML (e.g. after XSLT) back to ZRF
///   dagaz convert ur --to axiom -o ur-axiom    # Ur.4th and one .4th file per variant
///   dagaz convert ur --to axiom                # the same files on stdout, each after `==> NAME <==`
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// the rules file (.zrf), a bundled game or variant (`kiwipete`), FILE:VARIANT, or a
    /// tree XML file (.xml)
    pub file: PathBuf,
    /// which tree to write
    #[arg(long, value_enum, default_value = "syntax")]
    pub stage: Stage,
    /// output format
    #[arg(long, value_enum, default_value = "xml")]
    pub to: To,
    /// write here (atomically) instead of stdout; with --to axiom, the folder to write the
    /// files into (made if missing)
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// a folder where includes may also be read (after the including file's own folder);
    /// repeatable. Includes never leave the main file's folder and these folders
    #[arg(long = "include-dir", value_name = "DIR")]
    pub include_dir: Vec<PathBuf>,
    /// with --stage expanded: only this game or variant (title or slug)
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// how diagnostics are printed on stderr
    #[arg(long, value_enum, default_value = "human")]
    pub format: DiagFormat,
}

/// Reads a tree XML file (written by `--to xml`, possibly transformed) and writes it again.
fn run_from_xml(a: &Args, display: &str) -> Result<u8, CliError> {
    let text = match std::fs::read(&a.file) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => return Err(CliError::Usage(format!("cannot read `{display}`: {e}"))),
    };
    let mut sources = dagaz::source::SourceMap::new();
    let id = sources.add_text(a.file.clone(), display.to_owned(), text);
    let tree = match dagaz::convert::xml_read::read_tree_xml(&sources.get(id).text, id) {
        Ok(t) => t,
        Err(d) => {
            print_diagnostics(&[d], &sources, a.format);
            return Err(CliError::ProblemsShown);
        }
    };
    let doc = TreeDoc {
        stage: &tree.stage,
        source: display,
        forms: &tree.forms,
        file_names: &[],
    };
    let data = match a.to {
        To::Xml => to_xml(&doc),
        To::Json => to_json(&doc),
        To::Zrf => print_forms(&tree.forms),
        To::Axiom => unreachable!("refused before"),
    };
    write_output(a.output.as_deref(), data.as_bytes())?;
    Ok(OK)
}

/// `--to axiom`: the declarations of every game and variant, written into the folder of
/// `-o` (each file atomically) or printed, each after a `==> NAME <==` line. Errors in
/// the declarations (or no file at all) are a result: exit 1, the files written anyway.
fn write_axiom(a: &Args, loaded: &dagaz::expand::Loaded) -> Result<u8, CliError> {
    let c = dagaz::convert::axiom::to_axiom(loaded);
    print_diagnostics(&c.diagnostics, &loaded.sources, a.format);
    match a.output.as_deref() {
        Some(dir) if dir != std::path::Path::new("-") => {
            if dir.exists() && !dir.is_dir() {
                return Err(CliError::Usage(format!(
                    "`{}` is not a folder: --to axiom writes one file per game and variant",
                    dir.display()
                )));
            }
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::Usage(format!("cannot make `{}`: {e}", dir.display())))?;
            for f in &c.files {
                let path = dir.join(&f.name);
                dagaz::fsutil::write_atomic(&path, f.text.as_bytes()).map_err(|e| {
                    CliError::Usage(format!("cannot write `{}`: {e}", path.display()))
                })?;
            }
            eprintln!(
                "wrote {} file{} to {}: {}",
                c.files.len(),
                if c.files.len() == 1 { "" } else { "s" },
                dir.display(),
                c.files
                    .iter()
                    .map(|f| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        _ => {
            let text = dagaz::convert::axiom::listing(&c.files);
            write_output(None, text.as_bytes())?;
        }
    }
    Ok(if has_errors(&c.diagnostics) || c.files.is_empty() {
        PROBLEMS
    } else {
        OK
    })
}

/// `--stage model`: compiles the selected games and writes their models.
fn write_model(
    a: &Args,
    display: &str,
    loaded: &dagaz::expand::Loaded,
    games: &[&dagaz::expand::GameDef],
) -> Result<u8, CliError> {
    if a.to == To::Zrf {
        return Err(CliError::Usage(
            "the model stage has no ZRF form: use --to xml or --to json".into(),
        ));
    }
    let mut models = Vec::with_capacity(games.len());
    for g in games {
        match dagaz::model::Model::compile(g) {
            Ok(m) => {
                print_diagnostics(
                    &crate::common::model_findings(&m),
                    &loaded.sources,
                    a.format,
                );
                models.push(m);
            }
            Err(d) => {
                print_diagnostics(&d, &loaded.sources, a.format);
                return Err(CliError::ProblemsShown);
            }
        }
    }
    let root = dagaz::convert::model::models_element(display, &models);
    let data = match a.to {
        To::Json => dagaz::convert::element::to_json(&root),
        _ => dagaz::convert::element::to_xml(&root),
    };
    write_output(a.output.as_deref(), data.as_bytes())?;
    Ok(OK)
}

pub fn run(a: Args) -> u8 {
    match run_inner(a) {
        Ok(c) => c,
        Err(e) => e.report(),
    }
}

fn run_inner(a: Args) -> Result<u8, CliError> {
    let display = a.file.to_string_lossy().into_owned();
    if a.file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
    {
        if a.variant.is_some() {
            return Err(CliError::Usage(
                "--variant applies to rules files, not to tree XML".into(),
            ));
        }
        if a.to == To::Axiom {
            return Err(CliError::Usage(
                "--to axiom reads a rules file (.zrf), not tree XML".into(),
            ));
        }
        return run_from_xml(&a, &display);
    }
    if a.to == To::Axiom {
        if a.stage == Stage::Expanded {
            return Err(CliError::Usage(
                "--to axiom converts the compiled model: leave out --stage (or give --stage model)"
                    .into(),
            ));
        }
        if a.variant.is_some() {
            return Err(CliError::Usage(
                "--to axiom converts every game and variant of the file (a variant's file loads its game's): leave out --variant".into(),
            ));
        }
    }
    // A name that is not a file: the library's resolver (a bundled game or variant slug,
    // `FILE:VARIANT`).
    let mut file = a.file.clone();
    let mut bundled = None;
    let mut variant = a.variant.clone();
    if !a.file.exists() {
        let name = resolve::locate(&display, &ResolveOptions::default())
            .and_then(|n| n.without_ai("convert"))
            .map_err(|e| CliError::of_spec_in(e, a.format))?;
        match name.source {
            Source::Bundled(b) => bundled = Some(b),
            Source::File(p) => file = p,
            Source::Axiom(p) => {
                return Err(CliError::Usage(format!(
                    "`{}` is an Axiom program: convert reads ZRF rules",
                    p.display()
                )));
            }
        }
        match (&variant, name.variant) {
            (Some(f), Some(v)) if *f != v => {
                return Err(CliError::Usage(format!(
                    "`{display}` names the variant `{v}`, and --variant names `{f}`: give one"
                )));
            }
            (_, Some(v)) if a.to == To::Axiom => eprintln!(
                "note: `{display}` names the variant `{v}`: --to axiom converts the whole file (each variant's file loads its game's)"
            ),
            (_, Some(v)) if a.stage == Stage::Syntax => eprintln!(
                "note: `{display}` names the variant `{v}`: the syntax stage is the whole file (--stage expanded keeps the variant alone)"
            ),
            (None, Some(v)) => variant = Some(v),
            _ => {}
        }
    }
    let loaded = match (bundled, a.stage) {
        (Some(g), _) => Ok(dagaz::expand::load_text(
            &format!("{}.zrf", g.name),
            g.text,
            Limits::default(),
        )),
        (None, Stage::Syntax) if a.to != To::Axiom => load_syntax(&file, &display),
        (None, _) => load_path(
            &file,
            &display,
            Limits {
                include_dirs: a.include_dir.clone(),
                ..Limits::default()
            },
        ),
    };
    // A file that cannot be read: its diagnostic has no source to show.
    let loaded = loaded.map_err(|d| {
        print_diagnostics(&[d], &Default::default(), a.format);
        CliError::UsageShown
    })?;
    print_diagnostics(&loaded.diagnostics, &loaded.sources, a.format);
    if has_errors(&loaded.diagnostics) {
        return Err(CliError::ProblemsShown);
    }
    if a.to == To::Axiom {
        return write_axiom(&a, &loaded);
    }
    let games: Vec<&dagaz::expand::GameDef> = match &variant {
        None => loaded.games.iter().collect(),
        Some(_) if a.stage == Stage::Syntax && a.variant.is_some() => {
            return Err(CliError::Usage(
                "--variant needs --stage expanded or model".into(),
            ));
        }
        Some(_) if a.stage == Stage::Syntax => loaded.games.iter().collect(),
        Some(v) => {
            let (g, warning) = choose_game(&loaded, Some(v), &display)
                .map_err(|e| CliError::of_spec_in(e, a.format))?;
            if let Some(w) = warning {
                eprintln!("{w}");
            }
            vec![g]
        }
    };
    if a.stage == Stage::Model {
        return write_model(&a, &display, &loaded, &games);
    }
    let forms: Vec<_> = match a.stage {
        Stage::Syntax => loaded.syntax.clone(),
        _ => games.iter().map(|g| g.form.clone()).collect(),
    };
    let names = loaded.file_names();
    let doc = TreeDoc {
        stage: match a.stage {
            Stage::Syntax => "syntax",
            _ => "expanded",
        },
        source: &display,
        forms: &forms,
        file_names: &names,
    };
    let data = match a.to {
        To::Xml => to_xml(&doc),
        To::Json => to_json(&doc),
        To::Zrf => print_forms(&forms),
        To::Axiom => unreachable!("written by write_axiom"),
    };
    write_output(a.output.as_deref(), data.as_bytes())?;
    Ok(OK)
}
