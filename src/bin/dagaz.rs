//! The `dagaz` command line: a thin layer over the library that parses flags, prints
//! results to stdout, diagnostics and progress to stderr, and maps outcomes to exit codes
//! (0 ok, 1 problems found, 2 usage or I/O error, 3 an undecided gate, 130 interrupted).

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[path = "cli/autoplay/mod.rs"]
mod autoplay;
#[path = "cli/common.rs"]
mod common;
#[path = "cli/convert.rs"]
mod convert;
#[path = "cli/games.rs"]
mod games;
#[path = "cli/lint.rs"]
mod lint;
#[path = "cli/perft.rs"]
mod perft;
#[path = "cli/replay.rs"]
mod replay;
#[path = "cli/stats.rs"]
mod stats;

/// A toolchain and headless engine for Zillions of Games rules files (ZRF).
#[derive(Parser)]
#[command(name = "dagaz", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 ok, 1 problems found (invalid input, failed check), 2 usage or I/O error, 3 a gate that could not decide (autoplay and stats compare: --gate, --sprt), 130 stopped by Ctrl-C, SIGTERM or SIGHUP (autoplay; the games in progress are recorded as interrupted)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Autoplay(autoplay::Args),
    Convert(convert::Args),
    Games(games::Args),
    Lint(lint::Args),
    Perft(perft::Args),
    Replay(replay::Args),
    Stats(stats::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Autoplay(a) => autoplay::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Games(a) => games::run(a),
        Command::Lint(a) => lint::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Stats(a) => stats::run(a),
    };
    ExitCode::from(code)
}
