//! Game records: one JSON object per game, written as JSON Lines by `--games-out`.
//!
//! The shape is a contract (`schema_version`); docs/autoplay.md describes every field.

use serde::{Deserialize, Serialize};

pub mod games_file;
pub mod schedule;

pub use games_file::{GamesFile, GamesFileError};

/// Version of the record shape. Bumped on any incompatible change. Version 2 added the
/// one-seat results (`solved`, `failed`, `unfinished`), `interrupted`, `end`, the seats'
/// `result` and `rank`, and the `repetition` setting. Version 3 added `opening`, the end
/// `adjudicated` and the settings `openings`, `random_plies` and `adjudicate`. Records of
/// versions 1 and 2 are still read.
pub const RECORD_SCHEMA_VERSION: u32 = 3;

/// The oldest record version this dagaz reads.
pub const OLDEST_RECORD_SCHEMA_VERSION: u32 = 1;

pub use crate::ai::DEFAULT_MAX_PLIES;
pub use crate::axiom::AXIOM_DEFAULT_MAX_PLIES;

/// The settings that make two runs (or two shards) the same run.
///
/// Fields will grow: build one with [`RunSettings::new`] (or `Default`) and set the
/// fields to change.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunSettings {
    /// Specs of player A and player B, as given.
    pub players: [String; 2],
    /// Titles of the variants.
    pub titles: [String; 2],
    /// Games in the whole run (all shards).
    pub games: u64,
    pub swap: bool,
    pub max_plies: u32,
    /// Per-move limits given on the command line.
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub time_ms: Option<u64>,
    /// Axiom programs: the engines' step budget per move (`--search-steps`), when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_steps: Option<u64>,
    /// What threefold repetition does (`draw`, ZoG's rule, is the default and is not
    /// written).
    #[serde(default, skip_serializing_if = "Repetition::is_draw")]
    pub repetition: Repetition,
    /// The opening book (`--openings`): its file name as given and the hash of its text
    /// (`name#hash`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// Random plies after the book line (`--random-plies`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub random_plies: u32,
    /// The adjudication rules in canonical form (`--adjudicate`), e.g.
    /// `win=20:40,eval=A`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudicate: Option<String>,
    /// The round robin or gauntlet this game belongs to (absent in a two-player run).
    /// `players`, `titles` and `games` above are then this game's pairing and the games
    /// per pairing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<Tournament>,
}

/// The tournament of a game of a round robin or gauntlet (`autoplay P1 P2 P3 …`): all its
/// players, its form, and the pairing the game belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// Specs of all the players, as given.
    pub players: Vec<String>,
    /// Titles of their variants.
    pub titles: Vec<String>,
    /// The first player meets each of the others only (`--gauntlet`).
    pub gauntlet: bool,
    /// Players also meet themselves (`--self-play`).
    pub self_play: bool,
    /// This game's pairing: the indices in `players` of player A and player B.
    pub pair: [usize; 2],
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl RunSettings {
    /// A run of `games` games between the players with these specs and titles (A first),
    /// with `autoplay`'s defaults: colours swapped every other game, the
    /// [`DEFAULT_MAX_PLIES`] ply cap, no per-move limits, repetition a draw.
    pub fn new(players: [String; 2], titles: [String; 2], games: u64) -> RunSettings {
        RunSettings {
            players,
            titles,
            games,
            swap: true,
            max_plies: DEFAULT_MAX_PLIES,
            nodes: None,
            depth: None,
            time_ms: None,
            search_steps: None,
            repetition: Repetition::Draw,
            openings: None,
            random_plies: 0,
            adjudicate: None,
            tournament: None,
        }
    }

    /// The settings every game of the run shares: for a game of a tournament, these
    /// settings without the pairing (its players, titles and `pair`); otherwise all of
    /// them. Shards of one run have equal run settings.
    pub fn run_part(&self) -> RunSettings {
        match &self.tournament {
            None => self.clone(),
            Some(t) => RunSettings {
                players: Default::default(),
                titles: Default::default(),
                tournament: Some(Tournament {
                    pair: [0, 0],
                    ..t.clone()
                }),
                ..self.clone()
            },
        }
    }
}

/// What threefold repetition does in a run (`--repetition`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Repetition {
    /// The game ends in a draw (ZoG).
    #[default]
    Draw,
    /// The game goes on; `repetition` goals of the rules still apply.
    Off,
}

impl Repetition {
    pub fn is_draw(&self) -> bool {
        *self == Repetition::Draw
    }
}

/// What a record was produced by: two records with different identities come from runs
/// that cannot be pooled (another dagaz, other rules, other settings).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunIdentity {
    /// The dagaz version that played the game.
    pub dagaz_version: String,
    /// Hashes (16 hex digits) of player A's and player B's expanded rules.
    pub rules: [String; 2],
    /// Hash of the settings other than the number of games (which may grow on resume).
    pub settings: String,
}

impl RunIdentity {
    /// The identity of a run of `settings` between the expanded rules `rules_a` and
    /// `rules_b` (their printed text), by this dagaz.
    pub fn new(rules_a: &str, rules_b: &str, settings: &RunSettings) -> RunIdentity {
        let s = RunSettings {
            games: 0,
            ..settings.clone()
        };
        let settings_text = serde_json::to_string(&s).unwrap_or_default();
        RunIdentity {
            dagaz_version: env!("CARGO_PKG_VERSION").to_owned(),
            rules: [hash_hex(rules_a), hash_hex(rules_b)],
            settings: hash_hex(&settings_text),
        }
    }

    /// What differs between `self` and `other`, in words (None when they are equal).
    pub fn difference(&self, other: &RunIdentity) -> Option<String> {
        if self.dagaz_version != other.dagaz_version {
            return Some(format!(
                "dagaz version {} vs {}",
                self.dagaz_version, other.dagaz_version
            ));
        }
        for (i, p) in ["A", "B"].iter().enumerate() {
            if self.rules[i] != other.rules[i] {
                return Some(format!("the rules of player {p} have changed"));
            }
        }
        (self.settings != other.settings).then(|| "the settings differ".to_owned())
    }
}

/// FNV-1a, 64 bits, as 16 hex digits: a stable hash (the same on every machine and Rust
/// version), enough to tell runs apart.
pub fn hash_hex(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The first setting (other than `games`) in which `a` and `b` differ, by name.
pub fn settings_difference(a: &RunSettings, b: &RunSettings) -> Option<&'static str> {
    if a.players != b.players {
        Some("players")
    } else if a.titles != b.titles {
        Some("titles")
    } else if a.swap != b.swap {
        Some("swap")
    } else if a.max_plies != b.max_plies {
        Some("max_plies")
    } else if a.nodes != b.nodes {
        Some("nodes")
    } else if a.depth != b.depth {
        Some("depth")
    } else if a.time_ms != b.time_ms {
        Some("time_ms")
    } else if a.repetition != b.repetition {
        Some("repetition")
    } else if a.openings != b.openings {
        Some("openings")
    } else if a.random_plies != b.random_plies {
        Some("random_plies")
    } else if a.adjudicate != b.adjudicate {
        Some("adjudicate")
    } else if a.tournament != b.tournament {
        Some("tournament")
    } else {
        None
    }
}

/// One seat of a game and who played it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The player name in the rules (`White`).
    pub seat: String,
    /// `A` or `B`.
    pub player: String,
    /// Points the seat scored (win 1, loss 0, draw shared, a lone drawn seat 1/2); absent
    /// for errors.
    pub points: Option<f64>,
    /// The seat's own result (absent for errors, interrupted games and records of
    /// version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<SeatOutcome>,
    /// The seat's place among the seats (1 = best; equal points share a place), in games
    /// with three or more seats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
}

/// One seat's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatOutcome {
    Win,
    Loss,
    Draw,
}

/// How a game ended, for the players A and B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// One player won.
    Win,
    /// No single winner (a draw by the rules, or adjudicated at the ply cap).
    Draw,
    /// One-seat game: the seat won.
    Solved,
    /// One-seat game: the seat lost, got stuck (no move) or repeated a position.
    Failed,
    /// One-seat game: stopped at the ply cap.
    Unfinished,
    /// The game could not be finished: a rules error, a step budget, a panic.
    Error,
    /// The run was stopped (Ctrl-C, SIGTERM) during the game: it is not a result, and
    /// `--resume` plays it again.
    Interrupted,
}

impl GameResult {
    /// A game that counts in the statistics (not an error, not interrupted).
    pub fn is_finished(self) -> bool {
        !matches!(self, GameResult::Error | GameResult::Interrupted)
    }
}

/// What ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameEnd {
    /// A goal of the rules (win-, loss-, draw- or count-condition).
    Goal,
    /// Threefold repetition (a draw, unless `--repetition off`).
    Repetition,
    /// The player to move had no legal move and no goal applied (a draw).
    NoMoves,
    /// The ply cap (`--max-plies`).
    PlyCap,
    /// A rules error, a step budget or a panic.
    Error,
    /// The run was stopped during the game.
    Interrupted,
    /// Ended by the referee (`--adjudicate`): a resignation (a win) or a draw.
    Adjudicated,
}

/// One finished (or failed) game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub schema_version: u32,
    pub run_seed: u64,
    pub game_index: u64,
    /// The seed of this game's random choices: `Rng::derive(run_seed, game_index)`.
    pub game_seed: u64,
    pub settings: RunSettings,
    /// Seats in turn order.
    pub seats: Vec<SeatRecord>,
    pub result: GameResult,
    /// `A` or `B` for a win.
    pub winner: Option<String>,
    /// A's score in this game: 1 win, 0 loss, 0.5 draw (A's share of the seats' points
    /// with three or more seats); absent for errors, interrupted games and one-seat games.
    pub score_a: Option<f64>,
    /// The game was stopped at `max_plies` (a draw, or `unfinished` in a one-seat game).
    pub adjudicated: bool,
    /// What ended the game (absent in records of version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<GameEnd>,
    /// Plies played, random players' (dice) included.
    pub plies: u32,
    /// Every ply in ZoG notation.
    pub moves: Vec<String>,
    /// Pieces captured by A and by B.
    pub captures: [u32; 2],
    /// Positions searched by A and by B (an Axiom program's own engine: moves chosen).
    pub nodes: [u64; 2],
    /// Moves of A and of B whose Axiom engine ran out of its step budget
    /// (`--search-steps`) and played what it had found by then; absent when none did.
    #[serde(default, skip_serializing_if = "no_cuts")]
    pub search_cuts: [u32; 2],
    /// Wall-clock milliseconds (not reproducible); absent in records written with
    /// `--no-timing`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
    pub error: Option<String>,
    /// Who produced the record (absent in records of older dagaz versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<RunIdentity>,
    /// How the game started, when the run has openings (`--openings`, `--random-plies`):
    /// the first `book_plies + random_plies` of `moves` were not chosen by the players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<OpeningRecord>,
}

/// No search was cut short (the field is then left out of the record).
fn no_cuts(c: &[u32; 2]) -> bool {
    *c == [0, 0]
}

impl GameRecord {
    /// `A` or `B`: who held the first seat.
    pub fn first_player(&self) -> Option<&str> {
        self.seats.first().map(|s| s.player.as_str())
    }

    /// The record without its wall-clock time, for comparisons of reproducible content
    /// (and `--no-timing`).
    pub fn without_time(&self) -> GameRecord {
        GameRecord {
            time_ms: None,
            ..self.clone()
        }
    }
}

crate::error::message_error!(
    /// A records file that cannot be read: the message names the file and line.
    RecordError
);

/// Reads JSON Lines records. Errors name the line.
pub fn read_records(text: &str, name: &str) -> Result<Vec<GameRecord>, RecordError> {
    read_records_text(text, name).map_err(RecordError)
}

fn read_records_text(text: &str, name: &str) -> Result<Vec<GameRecord>, String> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r: GameRecord = serde_json::from_str(line)
            .map_err(|e| format!("{name}:{}: not a game record: {e}", i + 1))?;
        if !(OLDEST_RECORD_SCHEMA_VERSION..=RECORD_SCHEMA_VERSION).contains(&r.schema_version) {
            return Err(format!(
                "{name}:{}: record schema_version {} (this dagaz reads {OLDEST_RECORD_SCHEMA_VERSION} to {RECORD_SCHEMA_VERSION})",
                i + 1,
                r.schema_version
            ));
        }
        out.push(r);
    }
    Ok(out)
}

/// The records of a `--games-out` file being resumed: like [`read_records`], but a last line
/// cut short by a kill (no line break, not JSON) is dropped and reported in `dropped_tail`,
/// and two records of the same game are an error.
pub fn read_run(text: &str, name: &str) -> Result<(Vec<GameRecord>, Option<String>), RecordError> {
    let (body, dropped) = match text.rfind('\n') {
        Some(i) if i + 1 < text.len() => {
            let tail = &text[i + 1..];
            if serde_json::from_str::<GameRecord>(tail).is_ok() {
                (text, None)
            } else {
                let line = text[..=i].lines().count() + 1;
                (
                    &text[..=i],
                    Some(format!(
                        "{name}:{line}: dropped an incomplete last record ({} bytes, cut by an interrupted run)",
                        tail.len()
                    )),
                )
            }
        }
        None if !text.trim().is_empty() && serde_json::from_str::<GameRecord>(text).is_err() => {
            ("", Some(format!("{name}:1: dropped an incomplete record")))
        }
        _ => (text, None),
    };
    let records = read_records(body, name)?;
    let mut seen = std::collections::HashSet::new();
    for r in &records {
        if !seen.insert(r.game_index) {
            return Err(RecordError(format!(
                "{name}: game {} is recorded twice; the file is not one run's output",
                r.game_index
            )));
        }
    }
    Ok((records, dropped))
}

/// Writes records as JSON Lines, sorted by game index.
pub fn write_records(records: &[GameRecord]) -> String {
    let mut v: Vec<&GameRecord> = records.iter().collect();
    v.sort_by_key(|r| r.game_index);
    let mut s = String::new();
    for r in v {
        s += &serde_json::to_string(r).expect("records serialise");
        s.push('\n');
    }
    s
}

/// What a game's record says about how it started.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// The book line's text (absent without `--openings`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its line number in the book.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Plies of the book line (the first moves of the record's `moves`).
    pub book_plies: u32,
    /// Random plies played after them (the next moves of `moves`).
    pub random_plies: u32,
}
