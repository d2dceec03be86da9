//! The progress of a run on stderr (a bar with the running score, or a line every ten
//! seconds without a terminal), what happens after each game, and the signals that stop
//! a run.

use dagaz::autoplay::ZsgOut;
use dagaz::record::GamesFile;
use dagaz::tournament::record::GameRecord;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C, SIGTERM or SIGHUP: workers stop taking new games; what finished is
/// already in the games file.
pub(super) static STOP: AtomicBool = AtomicBool::new(false);

/// The progress of a run: a bar with the running score on a terminal; elsewhere (a CI log)
/// a line about every [`PROGRESS_EVERY`] on stderr, with the games done and the running
/// score: A's wins-losses-draws and the Elo difference it implies in a match, the players'
/// points so far (best first) in a round robin or gauntlet.
pub(super) struct Progress {
    bar: ProgressBar,
    todo: u64,
    terminal: bool,
    state: Mutex<ProgressState>,
}

struct ProgressState {
    done: u64,
    score: RunningScore,
    last_line: std::time::Instant,
}

/// The running score a progress line shows.
enum RunningScore {
    /// A match: A's wins, losses and draws.
    Match([u64; 3]),
    /// A round robin: each player's points and games, in order of first appearance.
    Standings(Vec<(String, f64, u64)>),
}

impl RunningScore {
    /// Counts a game of `players` (A, B) in which A scored `score_a` (none: unfinished).
    fn add(&mut self, players: &[String; 2], score_a: Option<f64>) {
        let Some(a) = score_a else { return };
        match self {
            RunningScore::Match(wld) => match a {
                x if x > 0.75 => wld[0] += 1,
                x if x < 0.25 => wld[1] += 1,
                _ => wld[2] += 1,
            },
            RunningScore::Standings(rows) => {
                for (name, points) in players.iter().zip([a, 1.0 - a]) {
                    match rows.iter_mut().find(|row| &row.0 == name) {
                        Some(row) => {
                            row.1 += points;
                            row.2 += 1;
                        }
                        None => rows.push((name.clone(), points, 1)),
                    }
                }
            }
        }
    }

    fn text(&self) -> String {
        match self {
            RunningScore::Match([w, l, d]) => {
                let played = w + l + d;
                if played == 0 {
                    return String::new();
                }
                let s = (*w as f64 + 0.5 * *d as f64) / played as f64;
                let elo = if s <= 0.0 || s >= 1.0 {
                    "±inf".to_owned()
                } else {
                    format!("{:+.0}", -400.0 * (1.0 / s - 1.0).log10())
                };
                format!("A {w}-{l}-{d} ({:.1}%, Elo {elo})", 100.0 * s)
            }
            RunningScore::Standings(rows) => {
                let mut order: Vec<&(String, f64, u64)> = rows.iter().collect();
                // Best share of points first; equal shares in order of appearance.
                order.sort_by(|x, y| (y.1 / y.2 as f64).total_cmp(&(x.1 / x.2 as f64)));
                let shown: Vec<String> = order
                    .iter()
                    .map(|(name, points, games)| format!("{name} {points}/{games}"))
                    .collect();
                if shown.is_empty() {
                    String::new()
                } else {
                    format!("points: {}", shown.join(", "))
                }
            }
        }
    }
}

/// How often a run without a terminal prints its progress line.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

impl Progress {
    /// The progress of a match of `todo` games.
    pub(super) fn new(todo: u64) -> Progress {
        Progress::with_score(todo, RunningScore::Match([0; 3]))
    }

    /// The progress of a round robin or gauntlet of `todo` games.
    pub(super) fn round_robin(todo: u64) -> Progress {
        Progress::with_score(todo, RunningScore::Standings(vec![]))
    }

    fn with_score(todo: u64, score: RunningScore) -> Progress {
        Progress {
            bar: progress_bar(todo),
            todo,
            terminal: std::io::stderr().is_terminal(),
            state: Mutex::new(ProgressState {
                done: 0,
                score,
                last_line: std::time::Instant::now(),
            }),
        }
    }

    /// Counts a finished game.
    fn game(&self, r: &GameRecord) {
        self.bar.inc(1);
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.done += 1;
        st.score.add(&r.settings.players, r.score_a);
        let score = st.score.text();
        if self.terminal {
            self.bar.set_message(score);
        } else if st.last_line.elapsed() >= PROGRESS_EVERY {
            st.last_line = std::time::Instant::now();
            eprintln!("progress: {}/{} games; {score}", st.done, self.todo);
        }
    }

    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The progress bar of a run of `todo` games, on stderr when it is a terminal.
fn progress_bar(todo: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(todo),
        if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} games ({per_sec}, eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// After each game: advances the bar and appends the record to the games file; a failed
/// write stops the run (the first error is kept in `write_error`).
pub(super) fn game_done(
    progress: &Progress,
    games_file: Option<&GamesFile>,
    zsg: Option<&ZsgOut>,
    write_error: &Mutex<Option<String>>,
    r: &GameRecord,
) {
    progress.game(r);
    let zsg = zsg.map(|z| z.write(r)).unwrap_or(Ok(()));
    if let Some(Err(e)) = games_file
        .map(|f| f.append(r).map_err(String::from))
        .or(Some(zsg))
    {
        STOP.store(true, Ordering::SeqCst);
        write_error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(e);
    }
}

/// Ctrl-C, SIGTERM and SIGHUP set [`STOP`]; a second one quits at once (exit 130). ctrlc
/// gives one portable handler (Unix signals and the Windows console) without unsafe code.
pub(super) fn stop_on_signals() {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!(
            "\ninterrupted: stopping the games in progress, recorded as interrupted (Ctrl-C again to quit now)"
        );
    });
}

#[cfg(test)]
mod tests {
    use super::RunningScore;

    #[test]
    fn running_scores_of_a_match_and_of_a_round_robin() {
        let ab = ["a".to_owned(), "b".to_owned()];
        let mut m = RunningScore::Match([0; 3]);
        assert_eq!(m.text(), "");
        for s in [Some(1.0), Some(0.5), Some(1.0), None] {
            m.add(&ab, s);
        }
        assert_eq!(m.text(), "A 2-0-1 (83.3%, Elo +280)");
        let mut rr = RunningScore::Standings(vec![]);
        let bc = ["b".to_owned(), "c".to_owned()];
        rr.add(&ab, Some(0.0));
        rr.add(&bc, Some(0.5));
        rr.add(&ab, Some(0.5));
        assert_eq!(rr.text(), "points: b 2/3, c 0.5/1, a 0.5/2");
    }
}
