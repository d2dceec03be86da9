//! Shards and pooling: merging the shards of one run, the games they miss, the size of the
//! whole run, and checking that records may be summarised together.

use super::{StatsError, group_by_match};
use crate::record::{GameRecord, GameResult};
use std::collections::HashSet;

/// Checks that shards belong to one run (same seed and settings) and do not overlap, and
/// returns the records sorted by game index.
pub fn merge(shards: Vec<(String, Vec<GameRecord>)>) -> Result<Vec<GameRecord>, StatsError> {
    let mut out: Vec<GameRecord> = vec![];
    let mut seen: HashSet<u64> = HashSet::new();
    let mut reference: Option<(String, u64, crate::record::RunSettings)> = None;
    for (name, recs) in shards {
        for r in recs {
            match &reference {
                None => reference = Some((name.clone(), r.run_seed, r.settings.clone())),
                Some((n0, seed, settings)) => {
                    if r.run_seed != *seed {
                        return Err(StatsError::NotOneRun(format!(
                            "{name}: run seed {} differs from {n0}'s {seed}: not shards of one run",
                            r.run_seed
                        )));
                    }
                    // The games of a tournament's pairings differ in their players only.
                    if r.settings.run_part() != settings.run_part() {
                        return Err(StatsError::NotOneRun(format!(
                            "{name}: players or settings differ from {n0}'s: not shards of one run"
                        )));
                    }
                }
            }
            if !seen.insert(r.game_index) {
                return Err(StatsError::Duplicate(format!(
                    "{name}: game {} appears twice (overlapping shards?)",
                    r.game_index
                )));
            }
            out.push(r);
        }
    }
    out.sort_by_key(|r| r.game_index);
    Ok(out)
}

/// The game indices of a merged run that no shard holds (`0..games` of its settings; the
/// indices of every pairing's games in a round robin or gauntlet).
pub fn missing_games(records: &[GameRecord]) -> Vec<u64> {
    let Some(first) = records.first() else {
        return vec![];
    };
    // An interrupted game is not played: its index is missing too.
    let have: HashSet<u64> = records
        .iter()
        .filter(|r| r.result != GameResult::Interrupted)
        .map(|r| r.game_index)
        .collect();
    match &first.settings.tournament {
        Some(t) => crate::record::schedule::Schedule::of(t, first.settings.games)
            .map(|s| s.indices().filter(|i| !have.contains(i)).collect())
            .unwrap_or_default(),
        None => (0..first.settings.games)
            .filter(|i| !have.contains(i))
            .collect(),
    }
}

/// The number of games in the whole run of a record's settings: `games`, or in a round
/// robin or gauntlet `games` per pairing times its pairings.
pub fn run_games(settings: &crate::record::RunSettings) -> u64 {
    match &settings.tournament {
        Some(t) => crate::record::schedule::Schedule::of(t, settings.games)
            .map_or(settings.games, |s| s.total_games()),
        None => settings.games,
    }
}

/// Checks that records may be summarised together: no game appears twice (the same file
/// given twice), and the records of one match (run seed and players) come from one run:
/// the same settings other than the number of games, and the same identity (dagaz version,
/// rules) where the records carry one.
pub fn check_poolable(records: &[GameRecord]) -> Result<(), StatsError> {
    for group in group_by_match(records) {
        let first = group[0];
        for r in &group[1..] {
            if let Some(what) = crate::record::settings_difference(&first.settings, &r.settings) {
                return Err(StatsError::NotOneRun(format!(
                    "games {} and {} of run seed {} differ in `{what}`: records of different runs cannot be pooled",
                    first.game_index, r.game_index, r.run_seed
                )));
            }
            if let Some(why) = first
                .identity
                .as_ref()
                .zip(r.identity.as_ref())
                .and_then(|(a, b)| a.difference(b))
            {
                return Err(StatsError::NotOneRun(format!(
                    "games {} and {} of run seed {} come from different runs ({why}): they cannot be pooled",
                    first.game_index, r.game_index, r.run_seed
                )));
            }
        }
    }
    let mut seen = HashSet::new();
    for r in records {
        if !seen.insert((r.run_seed, r.game_index, r.settings.players.clone())) {
            return Err(StatsError::Duplicate(format!(
                "game {} of run seed {} ({} vs {}) appears twice: the same records were given twice",
                r.game_index, r.run_seed, r.settings.players[0], r.settings.players[1]
            )));
        }
    }
    Ok(())
}
