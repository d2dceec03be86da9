//! The flags of `dagaz autoplay` (docs/cli.md, docs/autoplay.md).

use std::path::PathBuf;

/// Play AI against AI: variants of the same rules, many games, with statistics.
///
/// A player is GAME[:VARIANT][@AI[:key=value,...]]: GAME a bundled game or variant slug
/// (`dagaz games` lists them), a path to a .zrf file, or an Axiom variant file (.4th);
/// VARIANT a slug of the file (`dagaz games FILE`); @AI an AI with settings, named as in the
/// `(option "ai ...")` forms (docs/ai.md), instead of the variant's own AI. A path that
/// exists wins over reading `:` and `@` as separators. Games run in parallel; every random
/// choice comes from --seed, so results do not depend on -j (unless --time-ms is set).
/// By default sides are swapped every game (colour-swapped pairs); --no-swap reproduces
/// Axiom's AutoPlay, where player A always moves first. Three or more players play a round
/// robin (--gauntlet: the first against each of the others), -n games per pairing, and
/// get a crosstable and joint Elo ratings.
///
/// Examples:
///   dagaz autoplay ur-random ur-simple -n 4
///   dagaz autoplay ur-random ur-simple ur-aggressive -n 2
///   dagaz autoplay tic-tac-toe@random tic-tac-toe@alphabeta:depth=2,material=1 -n 4
///   dagaz autoplay ur-simple ur-random -n 4 --seed 7 --json
///   dagaz autoplay checkers checkers -n 2 --zsg-out saved
///   dagaz autoplay ur-aggressive ur-random -n 4 --no-swap --games-out games.jsonl
///   dagaz autoplay ur-random ur-random -n 4 --shard 1/2 --games-out shard1.jsonl
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// players A (Axiom's "Player 1") and B ("Player 2"), each GAME[:VARIANT][@AI[:key=value,...]];
    /// B may be left out for a one-seat game (a solitaire, or one AI against random
    /// players): A then plays every game. Three or more players play a round robin
    #[arg(required = true, value_name = "PLAYER")]
    pub players: Vec<String>,
    /// number of games in the whole run (all shards); in a round robin or gauntlet, of
    /// each pairing
    #[arg(short = 'n', long = "games", default_value_t = 100)]
    pub games: u64,
    /// with three or more players: the first player meets each of the others only
    /// (default: every pair meets)
    #[arg(long)]
    pub gauntlet: bool,
    /// every player also meets itself (in a gauntlet, the first player): the first-player
    /// score of these games is the rules' first-seat advantage at that player's level
    #[arg(long)]
    pub self_play: bool,
    /// worker threads (default: all cores)
    #[arg(short = 'j', long = "jobs", visible_aliases = ["concurrency", "threads"])]
    pub jobs: Option<usize>,
    /// run seed; game i uses Rng::derive(seed, i)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A always takes the first seat (Axiom's AutoPlay); default: swap every game
    #[arg(long)]
    pub no_swap: bool,
    /// plies (dice included) after which a game is stopped and adjudicated a draw [default:
    /// 2000; 20000 for Axiom programs]
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// per-move node limit for searching AIs (overrides "ai nodes" and @AI:nodes=)
    #[arg(long)]
    pub nodes: Option<u64>,
    /// per-move depth for searching AIs and Axiom's $NegamaxMove (overrides "ai depth" and
    /// @AI:depth=)
    #[arg(long)]
    pub depth: Option<u32>,
    /// primitives an Axiom program's engine ($NegamaxMove, $UCTMove or its own OnSearch)
    /// may run per move: its time limit, reproducible (default 1000000000; each search
    /// gets between 3/4 and 5/4 of it, drawn from the seed, as a time limit varies); when
    /// they run out, $NegamaxMove plays the best move of its deepest finished iteration, $UCTMove
    /// its most visited move, a program's own engine its last BestMove! (else the first
    /// move); the summary counts the searches cut
    #[arg(long, value_name = "N")]
    pub search_steps: Option<u64>,
    /// Axiom programs: replay move words and OnNextTurn, and answer OnEvaluate, from
    /// traces of earlier runs whose inputs did not change (on by default; the results are
    /// identical either way, off is only slower)
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = ["on", "off"])]
    pub move_cache: String,
    /// per-move time limit in milliseconds (overrides "ai time" and @AI:time=); makes
    /// results depend on machine load
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// what threefold repetition does when no `repetition` goal of the rules assigns it:
    /// end the game in a draw (ZoG's rule) or let the game go on
    #[arg(long, value_enum, default_value_t = RepetitionArg::Draw)]
    pub repetition: RepetitionArg,
    /// print a JSON summary (schema_version 3) instead of the text (= `--format json`)
    #[arg(long)]
    pub json: bool,
    /// text or json (the summary on stdout)
    #[arg(long, value_enum, default_value = "text")]
    pub format: crate::common::OutFormat,
    /// write one JSON record per game (JSON Lines): each game is appended and flushed as it
    /// finishes, and the file is rewritten in game order at the end
    #[arg(long, value_name = "FILE")]
    pub games_out: Option<PathBuf>,
    /// write each game as a Zillions saved game, DIR/game-NNNNNN.zsg (by game index), that
    /// ZoG opens and `dagaz replay` follows (ZRF games, and ZRF games played by their
    /// Axiom engine)
    #[arg(long, value_name = "DIR")]
    pub zsg_out: Option<PathBuf>,
    /// play only slice K of N of the game indices (pairs stay together), e.g. 2/8
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// continue (or extend, with a larger -n) the run recorded in FILE: skip the games it
    /// holds, and write there unless --games-out is given
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// a folder where the includes of a player's rules file may also be read (after the
    /// including file's own folder); repeatable
    #[arg(long = "include-dir", value_name = "DIR")]
    pub include_dir: Vec<PathBuf>,
    /// with --resume: only repair FILE (drop a last record cut short by a kill, sort the
    /// records by game index) and exit, without playing
    #[arg(long, requires = "resume")]
    pub repair: bool,
    /// gate on a player's score, e.g. A:0.60..1.0: exit 0 when its 95% interval lies
    /// inside the range, 1 when outside, 3 when it overlaps (inconclusive)
    #[arg(long, value_name = "P:LOW..HIGH")]
    pub expect_score: Vec<String>,
    /// sequential test on A's strength, e.g. "elo0=0 elo1=20" (alpha, beta default 0.05;
    /// model=logistic|normalized; method=normal|gsprt); stops when decided; exit 0 for
    /// H1, 1 for H0, 3 when undecided
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// leave the wall-clock time (`time_ms`) out of the game records, so that two runs
    /// give byte-identical files
    #[arg(long)]
    pub no_timing: bool,
    /// opening book: one opening per line, moves separated by `;` (`X Man a1; O Man b2`) or
    /// `variant: SPEC` (another start position); colour-swapped pair p plays line p mod N
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// K random plies after the opening, shared by both games of a colour-swapped pair
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub random_plies: u32,
    /// end decided games early (two seats): win=SCORE:PLIES (a side whose evaluation stays
    /// below -SCORE for PLIES plies resigns), draw=SCORE:PLIES[:FROM], cap=SCORE (at the ply
    /// cap, a lead above SCORE wins), eval=A|B (whose evaluation terms the referee uses;
    /// default A); repeatable or comma-separated
    #[arg(long, value_name = "RULES")]
    pub adjudicate: Vec<String>,
}

impl Args {
    /// The ply cap of games of `game`: `--max-plies`, or the game's default. Errors when
    /// `--random-plies` leaves no ply to play under it.
    pub(crate) fn max_plies<G: dagaz::ai::Game>(&self, game: &G) -> Result<u32, String> {
        let cap = self.max_plies.unwrap_or_else(|| game.default_max_plies());
        if self.random_plies >= cap {
            return Err(format!(
                "--random-plies {} leaves no ply to play under --max-plies {cap}",
                self.random_plies
            ));
        }
        Ok(cap)
    }

    /// Player B, when given.
    pub(super) fn b(&self) -> Option<&str> {
        self.players.get(1).map(String::as_str)
    }

    /// A round robin or gauntlet: three or more players, or two with self-play.
    pub(super) fn is_tournament(&self) -> bool {
        self.players.len() >= 3 || (self.players.len() == 2 && self.self_play)
    }
}

/// `--repetition`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RepetitionArg {
    Draw,
    Off,
}

/// `--shard K/N`.
pub(super) fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (k, n) = s.split_once('/').ok_or("--shard: expected K/N, e.g. 1/4")?;
    let k: u64 = k.trim().parse().map_err(|_| "--shard: K is not a number")?;
    let n: u64 = n.trim().parse().map_err(|_| "--shard: N is not a number")?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("--shard {s}: need 1 <= K <= N"));
    }
    Ok((k, n))
}
