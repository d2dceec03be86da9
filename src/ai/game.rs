//! The interface the AIs and the tournament runner play through: [`Game`].
//!
//! It is deliberately small and independent of the engine's types (apart from the two
//! small enums of results, [`PlayerResult`] and [`Ending`]), so that the AIs can be
//! tested on a toy game and so that the engine can change behind an adapter
//! ([`crate::ai::engine_game`]). A `Game` value is one position plus whatever scratch it
//! needs; it is cloned once per game and per search thread, never per node: the searches
//! use [`Game::make`]/[`Game::unmake`].
//!
//! Players are numbered as in the rules file, random players (`?Dice`) included. A *seat* is
//! a player that is not random and takes turns: those are the players the AIs play.

/// A player's result and why a game ended are the engine's own small types: a `Game`
/// other than the engine (the tests' toy race) uses them too.
pub use crate::engine::{Ending, PlayerResult};
pub use crate::model::PositionId;

/// The end of a game: each player's result, and points for the searches.
///
/// Points: winners share 1 and losers get 0. In a draw the drawn seats (non-random
/// players) share 1, except that a lone drawn seat gets 1/2, so that in a one-seat game
/// (a solitaire, or one AI against random players) being stuck is worth less than solving.
/// Random players get points only when they win alone.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub points: Vec<f64>,
    /// One result per player, random players included.
    pub results: Vec<PlayerResult>,
    pub ending: Ending,
}

impl Outcome {
    /// `winner` wins by a goal, every other player of `n` loses.
    pub fn win(n: usize, winner: usize) -> Outcome {
        let mut points = vec![0.0; n];
        points[winner] = 1.0;
        let mut results = vec![PlayerResult::Loss; n];
        results[winner] = PlayerResult::Win;
        Outcome {
            points,
            results,
            ending: Ending::Goal,
        }
    }

    /// A draw among `seats`, ended by `ending` (the other players get 0 and count as
    /// drawn too).
    pub fn draw(n: usize, seats: &[usize], ending: Ending) -> Outcome {
        Outcome {
            points: Self::draw_points(n, seats),
            results: vec![PlayerResult::Draw; n],
            ending,
        }
    }

    /// The points of a draw among `seats` (see the type's documentation).
    pub fn draw_points(n: usize, seats: &[usize]) -> Vec<f64> {
        let mut points = vec![0.0; n];
        let share = match seats.len() {
            1 => 0.5,
            k => 1.0 / k as f64,
        };
        for &s in seats {
            points[s] = share;
        }
        points
    }

    /// The one player with the most points, if there is a single one.
    pub fn winner(&self) -> Option<usize> {
        let best = self.points.iter().cloned().fold(f64::MIN, f64::max);
        let mut it = self.points.iter().enumerate().filter(|(_, p)| **p == best);
        match (it.next(), it.next()) {
            (Some((i, _)), None) if best > 0.0 => Some(i),
            _ => None,
        }
    }
}

/// A piece as the evaluation sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceInfo {
    /// Board position, or `None` for pieces in hand (off the board).
    pub pos: Option<PositionId>,
    pub owner: usize,
    pub ty: usize,
    /// How many pieces this entry stands for (hand counters hold several).
    pub count: u32,
}

/// A game position with its rules. See the module documentation.
pub trait Game: Clone + Send {
    /// A list of legal moves; reused between calls, so it keeps its buffers.
    type Moves: Default + Clone + Send;
    /// What [`Game::unmake`] needs besides the move.
    type Undo;

    /// Number of players, random players included.
    fn num_players(&self) -> usize;
    /// The player's name as written (`?Dice` for a random player).
    fn player_name(&self, player: usize) -> &str;
    /// A random player: its moves are chance events, chosen uniformly.
    fn is_random(&self, player: usize) -> bool;
    /// The players that take turns and are not random, in turn order of first appearance.
    fn seats(&self) -> Vec<usize>;
    /// Called once when a game of a match starts (a copy of the match's prototype, after
    /// its opening), with the game's seed: a game that draws numbers of its own (an Axiom
    /// program's generators) seeds them from it. Nothing by default.
    fn seed_game(&mut self, _seed: u64) {}
    /// The ply cap of a game when the run gives none.
    fn default_max_plies(&self) -> u32 {
        super::DEFAULT_MAX_PLIES
    }
    /// The player to move.
    fn current_player(&self) -> usize;

    /// Fills `out` with the legal moves of the current position (clearing it first).
    fn legal_moves(&mut self, out: &mut Self::Moves);
    fn num_moves(moves: &Self::Moves) -> usize;
    /// Plays move `i` of `moves`, which were generated for the current position.
    fn make(&mut self, moves: &Self::Moves, i: usize) -> Self::Undo;
    /// Plays move `i` of `moves` for good, as [`Game::make`] does, when it will not be
    /// taken back (a tournament's game): a game may skip keeping what taking it back needs.
    fn play(&mut self, moves: &Self::Moves, i: usize) {
        let _ = self.make(moves, i);
    }
    /// Takes back move `i` of `moves`, the last move made.
    fn unmake(&mut self, moves: &Self::Moves, i: usize, undo: Self::Undo);
    /// The result, when the game is over. `moves` are the current legal moves (a game with
    /// no move is usually over).
    fn outcome(&mut self, moves: &Self::Moves) -> Option<Outcome>;
    /// The move the game's own program chooses for tournament player `slot` (0 = A, 1 = B),
    /// for games that carry their own engines (Axiom programs); `None` for the others.
    fn program_move(
        &mut self,
        _slot: usize,
        _moves: &Self::Moves,
        _rng: &mut crate::rng::Rng,
    ) -> Option<usize> {
        None
    }

    /// How many searches the program for tournament player `slot` has cut short so far
    /// because their step budget (`--search-steps`) ran out (they played what they had
    /// found by then); 0 for games without programs.
    fn search_cuts(&self, _slot: usize) -> u64 {
        0
    }

    /// A problem met while generating moves (a runaway rule hit its step budget), if any.
    fn take_error(&mut self) -> Option<String> {
        None
    }

    /// Zobrist hash of the position (cells and side to move).
    fn hash(&self) -> u64;
    /// Hash of the position without the random players' pieces (e.g. where the dice lie)
    /// and without the side to move.
    fn board_key(&self) -> u64;
    /// Move `i` of `moves` in ZoG notation (`Man d1 - c1`, `x` for captures).
    fn notation(&self, moves: &Self::Moves, i: usize) -> String;
    /// Pieces captured by move `i` of `moves`.
    fn captures(moves: &Self::Moves, i: usize) -> u32;

    /// Calls `f` for every piece on the board and every non-empty hand counter.
    fn for_each_piece(&self, f: &mut dyn FnMut(PieceInfo));
    fn piece_type_index(&self, name: &str) -> Option<usize>;
    fn num_piece_types(&self) -> usize;
    fn num_positions(&self) -> usize;
    fn zone_index(&self, name: &str) -> Option<usize>;
    /// Is `pos` in zone `zone` as `player` sees it?
    fn in_zone(&self, zone: usize, player: usize, pos: PositionId) -> bool;
    fn direction_index(&self, name: &str) -> Option<usize>;
    /// The neighbour of `pos` along direction `dir` as `player` sees it (after symmetry).
    fn link(&self, player: usize, dir: usize, pos: PositionId) -> Option<PositionId>;
}

/// Why a list of moves written by hand cannot be played ([`play_written`]); `ply` counts
/// the moves played before it (0: the first move).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WrittenMoveError {
    /// The game is over before the move.
    GameOver { ply: usize, written: String },
    /// No legal move is written so; `legal` holds their texts, sorted.
    Illegal {
        ply: usize,
        written: String,
        legal: Vec<String>,
    },
    /// A short form that names several legal moves (their texts, sorted).
    Ambiguous {
        ply: usize,
        written: String,
        moves: Vec<String>,
    },
}

impl std::fmt::Display for WrittenMoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        /// At most this many legal moves are listed.
        const SHOWN: usize = 40;
        let list = |v: &[String]| {
            let mut s = v[..v.len().min(SHOWN)].join(", ");
            if v.len() > SHOWN {
                s.push_str(", …");
            }
            s
        };
        match self {
            WrittenMoveError::GameOver { written, .. } => {
                write!(f, "the game is over before `{written}`")
            }
            WrittenMoveError::Illegal {
                ply,
                written,
                legal,
            } => write!(
                f,
                "`{written}` is not a legal move after {ply} ply(s); legal: {}",
                list(legal)
            ),
            WrittenMoveError::Ambiguous {
                ply,
                written,
                moves,
            } => write!(
                f,
                "`{written}` names {} legal moves after {ply} ply(s): {}; write one in full",
                moves.len(),
                list(moves)
            ),
        }
    }
}

impl std::error::Error for WrittenMoveError {}

/// Plays moves written by hand from `g`'s position, each matched among the legal moves by
/// [`crate::engine::find_written`] (the whole text, or a short form such as `e2-e4`);
/// returns the texts of the moves played. `g` holds the position reached, also on error.
pub fn play_written<G: Game>(
    g: &mut G,
    moves: &[String],
    buf: &mut G::Moves,
) -> Result<Vec<String>, WrittenMoveError> {
    use crate::engine::{Written, find_written};
    let mut played = vec![];
    for m in moves {
        let ply = played.len();
        g.legal_moves(buf);
        let over = g.take_error().is_some() || g.outcome(buf).is_some() || G::num_moves(buf) == 0;
        if over {
            return Err(WrittenMoveError::GameOver {
                ply,
                written: m.clone(),
            });
        }
        let texts: Vec<String> = (0..G::num_moves(buf)).map(|i| g.notation(buf, i)).collect();
        let i = match find_written(m, &texts) {
            Written::One(i) => i,
            Written::Several(fits) => {
                let mut moves: Vec<String> = fits.into_iter().map(|i| texts[i].clone()).collect();
                moves.sort();
                return Err(WrittenMoveError::Ambiguous {
                    ply,
                    written: m.clone(),
                    moves,
                });
            }
            Written::Nothing => {
                let mut legal = texts;
                legal.sort();
                legal.dedup();
                return Err(WrittenMoveError::Illegal {
                    ply,
                    written: m.clone(),
                    legal,
                });
            }
        };
        played.push(texts[i].clone());
        g.play(buf, i);
    }
    Ok(played)
}
