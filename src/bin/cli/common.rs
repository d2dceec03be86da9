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
    /// Bad usage already explained on stderr (a diagnostic, in the format asked for): exit 2.
    UsageShown,
    /// Rules or a program with errors, already explained on stderr (their diagnostics, or
    /// the program's error with its code and place): exit 1.
    ProblemsShown,
}

impl CliError {
    /// The documented exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) | CliError::UsageShown => USAGE,
            CliError::Problems(_) | CliError::ProblemsShown => PROBLEMS,
        }
    }

    /// The message (empty for an error already shown).
    #[cfg(test)]
    pub fn message(self) -> String {
        match self {
            CliError::Usage(m) | CliError::Problems(m) => m,
            CliError::UsageShown | CliError::ProblemsShown => String::new(),
        }
    }

    /// Prints the error on stderr (unless it was shown already) and returns its exit code.
    pub fn report(&self) -> u8 {
        if let CliError::Usage(m) | CliError::Problems(m) = self {
            eprintln!("error: {m}");
        }
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

impl CliError {
    /// A game name that names no game, for a subcommand whose diagnostics are printed in
    /// `format`: the errors with a diagnostic code (`DZ0001 io-error`, `DZ0212
    /// unknown-variant`) are printed as diagnostics at once; the others are messages, with
    /// the exit code of [`CliError::of_spec`].
    pub fn of_spec_in(e: dagaz::players::spec::SpecError, format: DiagFormat) -> CliError {
        match e.to_diagnostic() {
            Some(d) => {
                print_diagnostics(&[d], &SourceMap::default(), format);
                CliError::UsageShown
            }
            None => CliError::of_spec(e),
        }
    }

    /// A saved game that cannot be replayed: rules that cannot be found or played exit 1,
    /// a file that cannot be read or is no saved game 2.
    pub fn of_replay(e: &dagaz::replay::ReplayError) -> CliError {
        match e {
            dagaz::replay::ReplayError::Rules(m) => CliError::Problems(m.clone()),
            e => CliError::Usage(e.to_string()),
        }
    }

    /// A program that fails while perft counts its moves: exit 1.
    pub fn of_axiom_perft(e: dagaz::axiom::perft::PerftError) -> CliError {
        CliError::Problems(e.to_string())
    }

    /// Prints an Axiom program's error (its Display carries its code and place) and
    /// returns [`CliError::ProblemsShown`].
    pub fn show_axiom(e: &dagaz::axiom::AxiomError) -> CliError {
        eprintln!("{e}");
        CliError::ProblemsShown
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

#[cfg(test)]
mod tests {
    use super::*;
    use dagaz::players::spec::SpecError;
    use dagaz::replay::ReplayError;

    #[test]
    fn every_error_maps_to_its_documented_exit_code() {
        assert_eq!(CliError::Usage("x".into()).exit_code(), USAGE);
        assert_eq!(CliError::UsageShown.exit_code(), USAGE);
        assert_eq!(CliError::Problems("x".into()).exit_code(), PROBLEMS);
        assert_eq!(CliError::ProblemsShown.exit_code(), PROBLEMS);
        // A message converts into a usage error, a library error through its message.
        assert_eq!(CliError::from("cannot write").exit_code(), USAGE);
        let e = CliError::from(SpecError::Invalid("bad spec".into()));
        assert_eq!((e.exit_code(), e.message()), (USAGE, "bad spec".to_owned()));
        assert_eq!(CliError::UsageShown.message(), "");
    }

    #[test]
    fn library_errors_keep_their_message_and_take_their_exit_code() {
        let of = |e: CliError| (e.exit_code(), e.message());
        assert_eq!(
            of(CliError::of_spec(SpecError::Unplayable("errors".into()))),
            (PROBLEMS, "errors".into())
        );
        assert_eq!(
            of(CliError::of_spec(SpecError::Ai("no AI".into()))),
            (USAGE, "no AI".into())
        );
        assert_eq!(
            of(CliError::of_replay(&ReplayError::Rules("no rules".into()))),
            (PROBLEMS, "no rules".into())
        );
        for e in [
            ReplayError::Io("unreadable".into()),
            ReplayError::Format("not a saved game".into()),
        ] {
            assert_eq!(of(CliError::of_replay(&e)), (USAGE, e.message().to_owned()));
        }
        let perft = dagaz::axiom::perft::PerftError::Program("stack underflow".into());
        assert_eq!(
            of(CliError::of_axiom_perft(perft)),
            (PROBLEMS, "stack underflow".into())
        );
        // A name's error without a diagnostic code is a message, reported later.
        assert_eq!(
            of(CliError::of_spec_in(
                SpecError::Invalid("bad".into()),
                DiagFormat::Human
            )),
            (USAGE, "bad".into())
        );
    }
}
