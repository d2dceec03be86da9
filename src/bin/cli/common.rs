//! Helpers shared by the subcommands: diagnostic printing, output writing, exit codes.

use dagaz::diagnostics::Diagnostic;
use dagaz::render::{render_human, render_json};
use dagaz::source::SourceMap;
use std::io::Write;
use std::path::Path;

/// Exit code: success.
pub const OK: u8 = 0;
/// Exit code: problems found in the input, or a check failed.
pub const PROBLEMS: u8 = 1;
/// Exit code: usage or I/O error.
pub const USAGE: u8 = 2;
/// Exit code: a gate could not decide (its interval overlaps the accepted range; an SPRT
/// ran out of games).
pub const INCONCLUSIVE: u8 = 3;

/// The output of a subcommand whose data is text or JSON (`--format`; `--json` is the
/// same as `--format json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum OutFormat {
    /// text for people
    #[default]
    Text,
    /// one JSON document
    Json,
}

/// How diagnostics are printed on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum DiagFormat {
    /// rustc-style text with the source line and a caret
    #[default]
    Human,
    /// one JSON object per line
    Json,
}

/// Prints diagnostics to stderr.
pub fn print_diagnostics(diags: &[Diagnostic], sources: &SourceMap, format: DiagFormat) {
    let mut err = std::io::stderr().lock();
    for d in diags {
        let text = match format {
            DiagFormat::Human => render_human(d, sources),
            DiagFormat::Json => render_json(d, sources) + "\n",
        };
        let _ = err.write_all(text.as_bytes());
    }
}

/// Writes `data` to `out` atomically, or to stdout when `out` is `None` or `-`.
pub fn write_output(out: Option<&Path>, data: &[u8]) -> Result<(), String> {
    match out {
        Some(p) if p != Path::new("-") => dagaz::fsutil::write_atomic(p, data)
            .map_err(|e| format!("cannot write `{}`: {e}", p.display())),
        _ => {
            // A reader that closed the pipe (`| head -1`) has all it wanted: exit at once,
            // quietly and with success, as ripgrep does, so `set -o pipefail` scripts work.
            // Any other failure (a full disk) loses data: the caller exits 2 with the
            // message, so a script never mistakes a cut output for a complete one.
            let mut o = std::io::stdout().lock();
            match o.write_all(data).and_then(|_| o.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
                r => r.map_err(|e| format!("cannot write to stdout: {e}")),
            }
        }
    }
}

/// An error that ends a subcommand, with the exit code it stands for (docs/cli.md,
/// "Diagnostics, exit codes and machine output").
#[derive(Debug)]
pub enum CliError {
    /// Bad flags or names, an unreadable or unwritable file: exit 2.
    Usage(String),
    /// The rules or program cannot be played (they have errors): exit 1.
    Problems(String),
}

impl CliError {
    /// The documented exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => USAGE,
            CliError::Problems(_) => PROBLEMS,
        }
    }

    /// The message.
    #[allow(dead_code)] // no caller left once autoplay's games moved to the library
    pub fn message(self) -> String {
        let (CliError::Usage(m) | CliError::Problems(m)) = self;
        m
    }

    /// Prints the error on stderr and returns its exit code.
    pub fn report(&self) -> u8 {
        let (CliError::Usage(m) | CliError::Problems(m)) = self;
        eprintln!("error: {m}");
        self.exit_code()
    }
}

/// Every other error (a message, a library error that converts into one) is about usage or
/// I/O.
impl<E: Into<String>> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError::Usage(e.into())
    }
}

impl CliError {
    /// A player that cannot be named or played: rules or programs with errors exit 1.
    pub fn of_spec(e: dagaz::players::spec::SpecError) -> CliError {
        match e {
            dagaz::players::spec::SpecError::Unplayable(m) => CliError::Problems(m),
            e => CliError::Usage(e.to_string()),
        }
    }
}

/// Prints an error about usage or I/O and returns [`USAGE`].
pub fn usage_error(msg: &str) -> u8 {
    eprintln!("error: {msg}");
    USAGE
}

/// Prints why a game name names no game (with its diagnostic code where it has one, in
/// `format`) and returns [`USAGE`].
pub fn spec_error(e: &dagaz::players::spec::SpecError, format: DiagFormat) -> u8 {
    match e.to_diagnostic() {
        Some(d) => {
            print_diagnostics(&[d], &SourceMap::default(), format);
            USAGE
        }
        None => CliError::of_spec(e.clone()).report(),
    }
}

/// A compiled model's findings as perft, convert and autoplay show them: the names lint
/// reports as errors but that leave the game playable (a setup square off the board, …)
/// are warnings here, since the game is played without them (exit code 0).
pub fn model_findings(m: &dagaz::model::Model) -> Vec<Diagnostic> {
    m.warnings
        .iter()
        .cloned()
        .map(|mut d| {
            if d.is_error() {
                d.severity = dagaz::diagnostics::Severity::Warning;
                d.notes.push(
                    "`dagaz lint` reports this as an error; the game is played without it".into(),
                );
            }
            d
        })
        .collect()
}
