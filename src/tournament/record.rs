//! Game records: one JSON object per game, written as JSON Lines by `--games-out`.
//!
//! The shape is a contract (`schema_version`); docs/autoplay.md describes every field.

use serde::{Deserialize, Serialize};

/// Version of the record shape. Bumped on any incompatible change.
pub const RECORD_SCHEMA_VERSION: u32 = 1;

/// The settings that make two runs (or two shards) the same run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// One seat of a game and who played it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The player name in the rules (`White`).
    pub seat: String,
    /// `A` or `B`.
    pub player: String,
    /// Points the seat scored (win 1, loss 0, draw shared); absent for errors.
    pub points: Option<f64>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// One seat won.
    Win,
    /// No single winner (a draw by the rules, or adjudicated at the ply cap).
    Draw,
    /// The game could not be finished: a rules error, a step budget, a panic.
    Error,
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
    /// A's score in this game: 1 win, 0 loss, 0.5 draw; absent for errors.
    pub score_a: Option<f64>,
    /// The game was stopped at `max_plies` and adjudicated a draw.
    pub adjudicated: bool,
    /// Plies played, random players' (dice) included.
    pub plies: u32,
    /// Every ply in ZoG notation.
    pub moves: Vec<String>,
    /// Pieces captured by A and by B.
    pub captures: [u32; 2],
    /// Positions searched by A and by B.
    pub nodes: [u64; 2],
    /// Wall-clock milliseconds (not reproducible).
    pub time_ms: f64,
    pub error: Option<String>,
}

impl GameRecord {
    /// `A` or `B`: who held the first seat.
    pub fn first_player(&self) -> Option<&str> {
        self.seats.first().map(|s| s.player.as_str())
    }

    /// The record without its wall-clock time, for comparisons of reproducible content.
    pub fn without_time(&self) -> GameRecord {
        GameRecord {
            time_ms: 0.0,
            ..self.clone()
        }
    }
}

/// Reads JSON Lines records. Errors name the line.
pub fn read_records(text: &str, name: &str) -> Result<Vec<GameRecord>, String> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r: GameRecord = serde_json::from_str(line)
            .map_err(|e| format!("{name}:{}: not a game record: {e}", i + 1))?;
        if r.schema_version != RECORD_SCHEMA_VERSION {
            return Err(format!(
                "{name}:{}: record schema_version {} (this dagaz reads {RECORD_SCHEMA_VERSION})",
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
pub fn read_run(text: &str, name: &str) -> Result<(Vec<GameRecord>, Option<String>), String> {
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
            return Err(format!(
                "{name}: game {} is recorded twice; the file is not one run's output",
                r.game_index
            ));
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
