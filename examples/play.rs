//! A minimal text interface: play a game against its AI over stdin and stdout.
//!
//! ```sh
//! cargo run --example play -- tic-tac-toe        # you take the first seat (X)
//! cargo run --example play -- ur-simple 2        # you take the second seat of Ur
//! ```
//!
//! Each turn prints the pieces on the board and the legal moves, numbered; answer with a
//! number or a move's notation (`X Man b2`), or `quit`. The other seats are played by the
//! variant's AI (docs/ai.md), random players (dice) at random; `--seed N` fixes their
//! choices. It uses only the library's top-level API: `load_game`, `ai_config`, `Engine`,
//! `EngineGame`, `Ai`.

use dagaz::ai::Game;
use dagaz::{Ai, EngineGame, MoveList, Rng, ai_config, load_game};
use std::io::{BufRead, Write};

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut name = "tic-tac-toe".to_owned();
    let mut seat = 1usize;
    let mut seed = 1u64;
    while let Some(a) = args.next() {
        if a == "--seed" {
            seed = args.next().ok_or("--seed needs a number")?.parse()?;
        } else if let Ok(n) = a.parse::<usize>() {
            seat = n;
        } else {
            name = a;
        }
    }
    let model = load_game(&name)?;
    let mut game = EngineGame::new(model);
    let seats = game.seats();
    let human = *seats.get(seat.wrapping_sub(1)).ok_or_else(|| {
        format!(
            "`{name}` has {} seat(s); choose 1..={}",
            seats.len(),
            seats.len()
        )
    })?;
    let mut ai = Ai::new(&game, ai_config(&name)?)?;
    let mut rng = Rng::new(seed);
    let mut moves = MoveList::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    let m = game.engine.model();
    writeln!(
        out,
        "{}: you play {} ({}); the AI: {}",
        m.title,
        m.players[human].name,
        format_args!("seat {seat}"),
        ai.config.describe()
    )?;
    loop {
        game.legal_moves(&mut moves);
        if let Some(o) = game.outcome(&moves) {
            let m = game.engine.model();
            let results: Vec<String> = (0..game.num_players())
                .filter(|&p| !game.is_random(p))
                .map(|p| format!("{} {:?}", m.players[p].name, o.results[p]).to_lowercase())
                .collect();
            writeln!(out, "game over: {}", results.join(", "))?;
            return Ok(());
        }
        let mover = game.current_player();
        let index = if mover == human {
            print_position(&game, &mut out)?;
            for (i, mv) in moves.iter().enumerate() {
                writeln!(out, "  {:>3}. {}", i + 1, game.engine.notation(mv))?;
            }
            loop {
                write!(out, "your move> ")?;
                out.flush()?;
                let Some(line) = lines.next() else {
                    writeln!(out)?;
                    return Ok(()); // end of input
                };
                let line = line?;
                let line = line.trim();
                if line == "quit" {
                    return Ok(());
                }
                if let Ok(n) = line.parse::<usize>()
                    && (1..=moves.len()).contains(&n)
                {
                    break n - 1;
                }
                match game.engine.find_move(&game.state, line) {
                    Ok(found) => {
                        break moves
                            .iter()
                            .position(|x| x.changes == found.changes)
                            .unwrap_or(0);
                    }
                    Err(e) => writeln!(out, "{e}")?,
                }
            }
        } else if game.is_random(mover) {
            rng.below(moves.len())
        } else {
            ai.choose(&mut game, &moves, &mut rng).index
        };
        let name = &game.engine.model().players[mover].name;
        writeln!(out, "{name} plays {}", game.notation(&moves, index))?;
        game.make(&moves, index);
    }
}

/// The pieces on the board, one `position piece (owner)` per occupied position.
fn print_position(game: &EngineGame, out: &mut impl Write) -> std::io::Result<()> {
    let m = game.engine.model();
    let mut cells = vec![];
    for pos in m.position_ids() {
        if let Some(p) = game.engine.piece_at(&game.state, pos) {
            cells.push(format!(
                "{} {} ({})",
                m.positions[pos.index()],
                m.piece_types[p.kind.index()].name,
                m.players[p.owner.index()].name
            ));
        }
    }
    if cells.is_empty() {
        writeln!(out, "the board is empty")
    } else {
        writeln!(out, "board: {}", cells.join(", "))
    }
}
