//! `--resume FILE`: the games of a records file that a run takes over, after checking
//! that they are games of the same run (seed, settings other than `-n`, identity), for a
//! two-player match and for a round robin or gauntlet.

use crate::record::schedule::Schedule;
use crate::record::{GameRecord, GameResult, RunIdentity, RunSettings, settings_difference};

/// Why a records file cannot be resumed by a run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResumeError {
    /// The file holds a game past the run's `-n`: resuming would shrink the run.
    Shrinks(String),
    /// The file holds a game of another run (seed or settings).
    OtherRun(String),
    /// The run's identity (dagaz version, rules) changed since the file was written.
    CannotContinue(String),
}

crate::error::message_enum!(ResumeError {
    Shrinks,
    OtherRun,
    CannotContinue
});

/// The games of `records` (read from the file `name`) that the run of `seed`, `settings`
/// and `identity` takes over: every game but the interrupted ones (played again), each
/// with the run's `games`. Fails on a game of another run, one past `settings.games`, or
/// a change of identity.
pub fn resume_run(
    records: Vec<GameRecord>,
    name: &str,
    seed: u64,
    settings: &RunSettings,
    identity: &RunIdentity,
) -> Result<Vec<GameRecord>, ResumeError> {
    let mut previous = finished(records);
    if let Some(beyond) = previous.iter().find(|x| x.game_index >= settings.games) {
        return Err(ResumeError::Shrinks(format!(
            "`{name}` already holds game {} of a run of at least {} games: -n {} would shrink it",
            beyond.game_index,
            beyond.game_index + 1,
            settings.games
        )));
    }
    if let Some(bad) = previous.iter().find(|x| x.run_seed != seed) {
        return Err(ResumeError::OtherRun(format!(
            "`{name}` holds game {} of another run: its seed {} (this run: {seed}) differs; resume with the same arguments",
            bad.game_index, bad.run_seed
        )));
    }
    // The same run, possibly extended with a larger -n.
    for x in &previous {
        check_settings(x, name, settings)?;
    }
    for x in &previous {
        check_identity(x, name, Some(identity))?;
    }
    for x in &mut previous {
        x.settings.games = settings.games;
    }
    Ok(previous)
}

/// Like [`resume_run`] for a round robin or gauntlet of `schedule` with `games` games per
/// pairing: every record must be a game of this run (same seed, a game of the schedule),
/// with the settings and identity of its pairing (`expected`, one per pairing, in the
/// schedule's order); a larger `-n` extends the run, a smaller one is refused.
pub fn resume_round_robin(
    records: Vec<GameRecord>,
    name: &str,
    seed: u64,
    games: u64,
    schedule: &Schedule,
    expected: &[(&RunSettings, Option<&RunIdentity>)],
) -> Result<Vec<GameRecord>, ResumeError> {
    let mut previous = finished(records);
    for x in &previous {
        let i = x.game_index;
        if x.run_seed != seed {
            return Err(ResumeError::OtherRun(format!(
                "`{name}` holds game {i} of another run: its seed {} differs (this run: {seed}); resume with the same arguments",
                x.run_seed
            )));
        }
        if x.settings.tournament.is_none() {
            return Err(ResumeError::OtherRun(format!(
                "`{name}` holds game {i} of a two-player run, not of this round robin; resume with the same arguments"
            )));
        }
        let (p, game) = schedule.split(i);
        if game >= games {
            return Err(ResumeError::Shrinks(format!(
                "`{name}` already holds game {game} of pairing {} vs {}, of a run of at least {} games per pairing: -n {games} would shrink it",
                x.settings.players[0],
                x.settings.players[1],
                game + 1,
            )));
        }
        let Some(&(settings, identity)) = expected.get(p) else {
            return Err(ResumeError::OtherRun(format!(
                "`{name}` holds game {i}, of a pairing this run does not have; resume with the same arguments"
            )));
        };
        check_settings(x, name, settings)?;
        check_identity(x, name, identity)?;
    }
    for x in &mut previous {
        x.settings.games = games;
    }
    Ok(previous)
}

/// The games a resumed run keeps: all but the interrupted ones, which are played again.
fn finished(records: Vec<GameRecord>) -> Vec<GameRecord> {
    records
        .into_iter()
        .filter(|x| x.result != GameResult::Interrupted)
        .collect()
}

/// Refuses a record whose settings, the number of games aside, are not `settings`.
fn check_settings(x: &GameRecord, name: &str, settings: &RunSettings) -> Result<(), ResumeError> {
    let mut s = x.settings.clone();
    s.games = settings.games;
    if s == *settings {
        return Ok(());
    }
    let what = settings_difference(&s, settings)
        .map_or_else(|| "settings".to_owned(), |s| format!("setting `{s}`"));
    Err(ResumeError::OtherRun(format!(
        "`{name}` holds game {} of another run: its {what} differs; resume with the same arguments",
        x.game_index
    )))
}

/// Refuses a record whose identity (dagaz version, rules) differs from `identity`.
fn check_identity(
    x: &GameRecord,
    name: &str,
    identity: Option<&RunIdentity>,
) -> Result<(), ResumeError> {
    let why = x
        .identity
        .as_ref()
        .zip(identity)
        .and_then(|(had, now)| had.difference(now));
    match why {
        Some(why) => Err(ResumeError::CannotContinue(format!(
            "`{name}` holds game {} of a run that cannot be continued: {why}",
            x.game_index
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::played;
    use super::*;

    #[test]
    fn a_run_takes_over_its_own_games_and_refuses_others() {
        let (records, settings, identity) = played();
        // The same run extended to 6 games: every game is taken over, with the new -n.
        let mut longer = settings.clone();
        longer.games = 6;
        let kept = resume_run(records.clone(), "f", 3, &longer, &identity).expect("same run");
        assert_eq!(kept.len(), 4);
        assert!(kept.iter().all(|r| r.settings.games == 6));
        // An interrupted game is played again.
        let mut cut = records.clone();
        cut[3].result = GameResult::Interrupted;
        assert_eq!(
            resume_run(cut, "f", 3, &settings, &identity).unwrap().len(),
            3
        );
        // Fewer games, another seed, other settings: refused, each saying why.
        let mut shorter = settings.clone();
        shorter.games = 2;
        let e = resume_run(records.clone(), "f", 3, &shorter, &identity).unwrap_err();
        assert!(matches!(e, ResumeError::Shrinks(_)), "{e}");
        let e = resume_run(records.clone(), "f", 4, &settings, &identity).unwrap_err();
        assert!(e.to_string().contains("seed 3 (this run: 4)"), "{e}");
        let mut other = settings.clone();
        other.max_plies = 7;
        let e = resume_run(records.clone(), "f", 3, &other, &identity).unwrap_err();
        assert!(e.to_string().contains("setting `max_plies`"), "{e}");
        let changed = RunIdentity::new("other rules", "rules", &settings);
        let e = resume_run(records, "f", 3, &settings, &changed).unwrap_err();
        assert!(matches!(e, ResumeError::CannotContinue(_)), "{e}");
    }

    #[test]
    fn a_round_robin_refuses_a_two_player_run() {
        let (records, settings, identity) = played();
        let schedule = Schedule::new(3, false, false, 4).expect("schedule");
        let expected = vec![(&settings, Some(&identity)); 3];
        let e = resume_round_robin(records, "f", 3, 4, &schedule, &expected).unwrap_err();
        assert!(e.to_string().contains("two-player run"), "{e}");
    }

    /// Two random tic-tac-toe games per pairing of a round robin of three players, run
    /// seed 3, with each pairing's settings.
    fn round_robin_played(gauntlet: bool) -> (Vec<GameRecord>, Vec<RunSettings>, Schedule) {
        use crate::ai::AiConfig;
        use crate::ai::engine_game::EngineGame;
        use crate::record::Tournament;
        use crate::tournament::openings::OpeningBook;
        use crate::tournament::round_robin::{Config, Pairing, run};
        let proto = EngineGame::new(crate::load_game("tic-tac-toe").expect("bundled"));
        let schedule = Schedule::new(3, gauntlet, false, 2).expect("schedule");
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let head = Tournament {
            players: names.clone(),
            titles: names.clone(),
            gauntlet,
            self_play: false,
            pair: [0, 0],
        };
        let settings: Vec<RunSettings> = schedule
            .pairs()
            .iter()
            .map(|&[i, j]| {
                let pair = [names[i].clone(), names[j].clone()];
                let mut s = RunSettings::new(pair.clone(), pair, 2);
                s.tournament = Some(Tournament {
                    pair: [i, j],
                    ..head.clone()
                });
                s
            })
            .collect();
        let book = OpeningBook::default();
        let pairings: Vec<Pairing<'_, EngineGame>> = settings
            .iter()
            .map(|s| Pairing {
                proto: &proto,
                book: &book,
                settings: s.clone(),
                identity: None,
            })
            .collect();
        let records = std::sync::Mutex::new(vec![]);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let push = |r: &GameRecord| records.lock().expect("records").push(r.clone());
        let ais = vec![AiConfig::default(); 3];
        run(&schedule, &ais, &pairings, &Config::new(3), &stop, &push).expect("run");
        let records = records.into_inner().expect("records");
        (records, settings, schedule)
    }

    #[test]
    fn a_round_robin_takes_over_its_own_games_and_refuses_others() {
        let (records, settings, schedule) = round_robin_played(false);
        assert_eq!(records.len(), 6);
        let expected: Vec<_> = settings.iter().map(|s| (s, None)).collect();
        let resume = |records: Vec<GameRecord>, seed, games, expected: &[_]| {
            resume_round_robin(records, "f", seed, games, &schedule, expected)
        };
        // The same run, and the same run extended to 4 games per pairing.
        assert_eq!(resume(records.clone(), 3, 2, &expected).unwrap().len(), 6);
        let kept = resume(records.clone(), 3, 4, &expected).unwrap();
        assert!(kept.iter().all(|r| r.settings.games == 4));
        // Another seed, fewer games, other players, a gauntlet: refused.
        let e = resume(records.clone(), 2, 2, &expected).unwrap_err();
        assert!(e.to_string().contains("its seed 3 differs"), "{e}");
        let e = resume(records.clone(), 3, 1, &expected).unwrap_err();
        assert!(matches!(e, ResumeError::Shrinks(_)), "{e}");
        let mut other = settings.clone();
        other[2].players[1] = "d".to_owned();
        let expected_other: Vec<_> = other.iter().map(|s| (s, None)).collect();
        let e = resume(records.clone(), 3, 2, &expected_other).unwrap_err();
        assert!(e.to_string().contains("setting `players`"), "{e}");
        let (_, gauntlet, _) = round_robin_played(true);
        let expected_gauntlet: Vec<_> = gauntlet.iter().map(|s| (s, None)).collect();
        let e = resume(records, 3, 2, &expected_gauntlet).unwrap_err();
        assert!(matches!(e, ResumeError::OtherRun(_)), "{e}");
    }
}
