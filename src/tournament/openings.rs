//! Openings and start positions of a run: `autoplay --openings FILE` and
//! `--random-plies K`.
//!
//! An opening book is a text file with one opening per line (blank lines and `#` comments
//! are skipped):
//! - moves in dagaz notation from the start position, separated by `;`
//!   (`P e2 - e4; p e7 - e5`); a move is matched against the legal moves' notation
//!   without case and extra spaces, or given by its short form (`e2-e4`), as
//!   [`crate::engine::find_written`] does;
//! - `variant: SPEC`, a start position given by another variant of the same rules that
//!   differs only in its `board-setup` (the caller resolves SPEC and supplies the game);
//!   moves may follow after a `;` (`variant: chess:kiwipete; K e1 - f1`).
//!
//! Colour-swapped pair `p` (games `2p` and `2p + 1`) plays opening `p mod N`, in file order,
//! so both games of a pair start from the same position with the sides exchanged. With
//! `--random-plies K`, K more plies are then chosen uniformly among the legal moves (dice
//! and other random players included) by a generator derived from the run seed and the
//! pair, so both games of a pair share them too. When a random sequence reaches the end of
//! the game, up to [`RANDOM_ATTEMPTS`] sequences are drawn; if every one ends the game, the
//! first is cut before its last ply (so a game always starts from a position with moves).

use crate::ai::Game;
pub use crate::record::OpeningRecord;
use crate::rng::Rng;

/// Random-ply sequences tried per pair before one is cut short (see the module docs).
pub const RANDOM_ATTEMPTS: usize = 16;

/// Salt that separates the random-ply generators from the games' own seeds.
const RANDOM_PLIES_SALT: u64 = 0x6f70_656e_696e_6773; // "openings"

/// Books larger than this are refused (a book is a hand-written or generated file of
/// modest size; the cap keeps a hostile file from exhausting memory).
pub const MAX_BOOK_BYTES: usize = 16 << 20;

/// One line of an opening book, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookLine {
    /// 1-based line number in the file.
    pub line: u32,
    /// The line without comment and surrounding spaces (the opening's name in reports).
    pub text: String,
    /// `variant: SPEC`: the start position's variant, as given.
    pub variant: Option<String>,
    /// Moves to play from the start position, in order.
    pub moves: Vec<String>,
}

/// Why an opening book cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OpeningError {
    /// The book holds no opening.
    Empty(String),
    /// A line is malformed (empty move between `;`, empty variant).
    Syntax(String),
    /// A move of an opening is not legal where it is played (the message lists the legal
    /// moves).
    IllegalMove(String),
    /// The game ends during an opening.
    GameOver(String),
    /// The book is larger than [`MAX_BOOK_BYTES`].
    TooLarge(String),
}

crate::error::message_enum!(OpeningError {
    Empty,
    Syntax,
    IllegalMove,
    GameOver,
    TooLarge
});

/// Parses a book (`name` is the file name for messages).
pub fn parse_book(text: &str, name: &str) -> Result<Vec<BookLine>, OpeningError> {
    if text.len() > MAX_BOOK_BYTES {
        return Err(OpeningError::TooLarge(format!(
            "{name}: {} bytes; an opening book may hold at most {MAX_BOOK_BYTES}",
            text.len()
        )));
    }
    let mut out = vec![];
    for (i, raw) in text.lines().enumerate() {
        let line = i as u32 + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let mut parts = body.split(';').map(str::trim);
        let first = parts.next().unwrap_or("");
        let (variant, first_move) = match strip_variant(first) {
            Some("") => {
                return Err(OpeningError::Syntax(format!(
                    "{name}:{line}: `variant:` needs a variant (e.g. `variant: chess:kiwipete`)"
                )));
            }
            Some(v) => (Some(v.to_owned()), None),
            None => (None, Some(first)),
        };
        let mut moves = vec![];
        for (k, m) in first_move.into_iter().chain(parts).enumerate() {
            if m.is_empty() {
                // A trailing `;` is harmless; an empty move between two is a typo.
                if k > 0 && body.trim_end().ends_with(';') {
                    continue;
                }
                return Err(OpeningError::Syntax(format!(
                    "{name}:{line}: empty move (moves are separated by `;`)"
                )));
            }
            moves.push(m.to_owned());
        }
        out.push(BookLine {
            line,
            text: body.to_owned(),
            variant,
            moves,
        });
    }
    if out.is_empty() {
        return Err(OpeningError::Empty(format!(
            "{name}: no opening (one per line: moves separated by `;`, or `variant: SPEC`)"
        )));
    }
    Ok(out)
}

fn strip_variant(s: &str) -> Option<&str> {
    let lower = s.get(..8)?.to_ascii_lowercase();
    (lower == "variant:").then(|| s[8..].trim())
}

/// One opening: where it starts and what is played first.
#[derive(Clone, Debug)]
pub struct Opening<G> {
    pub line: BookLine,
    /// The start position when the line names a variant (otherwise the run's own).
    pub start: Option<G>,
}

/// The openings of a run (empty: every game starts from the rules' start position).
#[derive(Clone, Debug)]
pub struct OpeningBook<G> {
    pub openings: Vec<Opening<G>>,
    /// `--random-plies`.
    pub random_plies: u32,
}

impl<G> Default for OpeningBook<G> {
    fn default() -> Self {
        OpeningBook {
            openings: vec![],
            random_plies: 0,
        }
    }
}

/// The colour-swapped pair game `index` belongs to.
pub fn pair_of(index: u64) -> u64 {
    index / 2
}

/// A game's start: the position, the plies that led there (notation) and the record.
pub struct Start<G> {
    pub game: G,
    pub moves: Vec<String>,
    pub record: Option<OpeningRecord>,
}

impl<G: Game> OpeningBook<G> {
    /// No openings and no random plies.
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty() && self.random_plies == 0
    }

    /// Plays every book line once from its start (`proto` unless the line has its own), so
    /// that a bad book is refused before the run.
    pub fn check(&self, proto: &G, name: &str) -> Result<(), OpeningError> {
        let mut buf = G::Moves::default();
        for o in &self.openings {
            let mut g = o.start.as_ref().unwrap_or(proto).clone();
            play_line(&mut g, &o.line, name, &mut buf)?;
        }
        Ok(())
    }

    /// The start of game `index` of a run seeded with `run_seed`.
    pub fn start(&self, proto: &G, run_seed: u64, index: u64, buf: &mut G::Moves) -> Start<G> {
        if self.is_empty() {
            return Start {
                game: proto.clone(),
                moves: vec![],
                record: None,
            };
        }
        let pair = pair_of(index);
        let opening = (!self.openings.is_empty())
            .then(|| &self.openings[(pair % self.openings.len() as u64) as usize]);
        let mut game = opening
            .and_then(|o| o.start.as_ref())
            .unwrap_or(proto)
            .clone();
        let mut moves = vec![];
        if let Some(o) = opening {
            // Checked before the run: a failure here cannot happen, but is not fatal.
            if let Ok(m) = play_line(&mut game, &o.line, "", buf) {
                moves = m;
            }
        }
        let book_plies = moves.len() as u32;
        let mut rng = Rng::derive(run_seed ^ RANDOM_PLIES_SALT, pair);
        let random = random_plies(&game, self.random_plies, &mut rng, buf);
        for i in &random {
            game.legal_moves(buf);
            moves.push(game.notation(buf, *i));
            game.play(buf, *i);
        }
        Start {
            game,
            record: Some(OpeningRecord {
                name: opening.map(|o| o.line.text.clone()),
                line: opening.map(|o| o.line.line),
                book_plies,
                random_plies: random.len() as u32,
            }),
            moves,
        }
    }
}

/// Plays a book line on `g` ([`crate::ai::play_written`]: a move is written in full or as
/// a short form, `e2-e4`); returns the notation of its plies.
fn play_line<G: Game>(
    g: &mut G,
    line: &BookLine,
    name: &str,
    buf: &mut G::Moves,
) -> Result<Vec<String>, OpeningError> {
    let played = crate::ai::play_written(g, &line.moves, buf).map_err(|e| {
        let message = format!("{name}:{}: {e}", line.line);
        match e {
            crate::ai::WrittenMoveError::GameOver { .. } => OpeningError::GameOver(message),
            _ => OpeningError::IllegalMove(message),
        }
    })?;
    g.legal_moves(buf);
    if g.outcome(buf).is_some() || G::num_moves(buf) == 0 {
        return Err(OpeningError::GameOver(format!(
            "{name}:{}: the game is over at the end of the opening",
            line.line
        )));
    }
    Ok(played)
}

/// Indices of up to `k` random plies from `start` (see the module documentation).
fn random_plies<G: Game>(start: &G, k: u32, rng: &mut Rng, buf: &mut G::Moves) -> Vec<usize> {
    if k == 0 {
        return vec![];
    }
    let mut first: Option<Vec<usize>> = None;
    for _ in 0..RANDOM_ATTEMPTS {
        let mut g = start.clone();
        let mut chosen = vec![];
        let mut ended = false;
        for _ in 0..k {
            g.legal_moves(buf);
            let n = G::num_moves(buf);
            if g.take_error().is_some() || n == 0 || g.outcome(buf).is_some() {
                ended = true;
                break;
            }
            let i = rng.below(n);
            chosen.push(i);
            g.play(buf, i);
        }
        if !ended {
            g.legal_moves(buf);
            ended = g.take_error().is_some() || G::num_moves(buf) == 0 || g.outcome(buf).is_some();
        }
        if !ended {
            return chosen;
        }
        first.get_or_insert(chosen);
    }
    let mut cut = first.unwrap_or_default();
    cut.pop();
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_comments_and_variants() {
        let text = "# book\n\nP e2 - e4; p e7 - e5   # open game\nvariant: chess:kiwipete\nvariant: x.zrf:y; K e1 - f1;\n";
        let b = parse_book(text, "b.txt").unwrap();
        assert_eq!(b.len(), 3);
        assert_eq!(b[0].line, 3);
        assert_eq!(b[0].text, "P e2 - e4; p e7 - e5");
        assert_eq!(b[0].moves, ["P e2 - e4", "p e7 - e5"]);
        assert_eq!(b[1].variant.as_deref(), Some("chess:kiwipete"));
        assert!(b[1].moves.is_empty());
        assert_eq!(b[2].variant.as_deref(), Some("x.zrf:y"));
        assert_eq!(b[2].moves, ["K e1 - f1"]);
        for bad in ["# nothing\n", "a;;b\n", "variant:\n", "; a\n"] {
            assert!(parse_book(bad, "b").is_err(), "{bad:?}");
        }
    }

    #[test]
    fn pairs_share_openings_and_random_plies() {
        let proto = crate::ai::engine_game::EngineGame::new(
            crate::model::Model::compile(&crate::players::spec::resolve("tictactoe").unwrap().game)
                .unwrap(),
        );
        let lines = parse_book("X Man a1\nX Man b2; O Man a1\n", "b").unwrap();
        let book = OpeningBook {
            openings: lines
                .into_iter()
                .map(|line| Opening { line, start: None })
                .collect(),
            random_plies: 2,
        };
        book.check(&proto, "b").unwrap();
        let mut buf = Default::default();
        let starts: Vec<_> = (0..8).map(|i| book.start(&proto, 9, i, &mut buf)).collect();
        for p in 0..4 {
            assert_eq!(starts[2 * p].moves, starts[2 * p + 1].moves, "pair {p}");
        }
        let r = starts[2].record.clone().unwrap();
        assert_eq!((r.line, r.book_plies, r.random_plies), (Some(2), 2, 2));
        assert_eq!(starts[2].moves.len(), 4);
        assert_eq!(starts[0].record.clone().unwrap().book_plies, 1);
        assert_ne!(
            starts[0].moves, starts[4].moves,
            "random plies differ between pairs"
        );
        // A move that is not legal is refused with the legal ones listed.
        let bad = OpeningBook {
            openings: vec![Opening {
                line: parse_book("X Man a1; o man  A1\n", "b").unwrap().remove(0),
                start: None,
            }],
            random_plies: 0,
        };
        let e = bad.check(&proto, "b.txt").unwrap_err();
        assert!(
            e.message()
                .contains("b.txt:1: `o man  A1` is not a legal move"),
            "{e}"
        );
    }
}
