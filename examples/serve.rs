//! A JSON-lines protocol over stdin and stdout, for a GUI, a web page or a Python script
//! that wants dagaz's engine and AIs without linking Rust.
//!
//! ```sh
//! cargo run --example serve
//! ```
//!
//! One request per line, one response per line. Every response has `"ok"`; a failed request
//! gives `{"ok": false, "error": "…"}` and the session goes on. Requests:
//!
//! | request | response |
//! |---|---|
//! | `{"cmd": "load", "game": "tic-tac-toe", "seed": 1}` | `title`, `players`, `positions`, `rects` (where each position is drawn: left, top, right, bottom, or null), then the state |
//! | `{"cmd": "state"}` | `to_move`, `pieces` (`pos`, `type`, `owner`), `over`, `results` |
//! | `{"cmd": "moves"}` | `moves`: the legal moves' notations |
//! | `{"cmd": "play", "move": "X Man b2"}` | `played`, then the state |
//! | `{"cmd": "steps"}` | `steps`: the steps that may come next (the first steps of the legal moves, or the next steps of the chain being played), `depth` (steps played), `can_stop` (a move ends with the steps played) |
//! | `{"cmd": "step", "move": "Man c3 - e5 x d4"}` | plays one step, as ZoG's interface plays a partial move: `step`, then either `played` (the whole move, made when no step can follow) and the state, or `steps`, `depth`, `can_stop` and `pieces` (the board with the steps so far applied) |
//! | `{"cmd": "stop"}` | ends the chain being played where it may end (`"pass partial"`): `played`, then the state |
//! | `{"cmd": "ai"}` | the variant's AI (random players: a random move) plays: `played`, then the state |
//! | `{"cmd": "quit"}` | `{"ok": true}`, and the session ends |
//!
//! `game` is named as `dagaz autoplay` names players: a bundled game or variant slug, or
//! `path/to/game.zrf[:variant]`. `seed` (default 1) seeds the AI's and the random players'
//! choices, so a session is reproducible. `results` maps each player to `win`, `loss` or
//! `draw` once the game is over.

use dagaz::ai::Game;
use dagaz::engine::Steps;
use dagaz::{Ai, EngineGame, MoveList, Rng, ai_config, load_game};
use serde_json::{Value, json};
use std::io::{BufRead, Write};

/// A loaded game and what plays it.
struct Session {
    game: EngineGame,
    ai: Ai<EngineGame>,
    rng: Rng,
    moves: MoveList,
    /// The move being played step by step (`step`), once a step is played.
    steps: Option<Steps>,
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut session: Option<Session> = None;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let (reply, quit) = match serde_json::from_str::<Value>(&line) {
            Ok(req) => {
                let quit = req["cmd"] == "quit";
                let reply =
                    handle(&req, &mut session).unwrap_or_else(|e| json!({"ok": false, "error": e}));
                (reply, quit)
            }
            Err(e) => (
                json!({"ok": false, "error": format!("not JSON: {e}")}),
                false,
            ),
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() || quit {
            break;
        }
    }
}

fn handle(req: &Value, session: &mut Option<Session>) -> Result<Value, String> {
    let cmd = req["cmd"].as_str().ok_or("a request needs a \"cmd\"")?;
    if cmd == "quit" {
        return Ok(json!({"ok": true}));
    }
    if cmd == "load" {
        let name = req["game"].as_str().ok_or("load needs a \"game\"")?;
        let seed = req["seed"].as_u64().unwrap_or(1);
        let model = load_game(name).map_err(|e| e.to_string())?;
        let game = EngineGame::new(model);
        let ai = Ai::new(&game, ai_config(name).map_err(|e| e.to_string())?)?;
        let s = session.insert(Session {
            game,
            ai,
            rng: Rng::new(seed),
            moves: MoveList::new(),
            steps: None,
        });
        let m = s.game.engine.model();
        let mut v = json!({
            "ok": true,
            "title": m.title,
            "players": m.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            "positions": m.positions,
            "rects": m.position_rects,
            "ai": s.ai.config.describe(),
        });
        merge(&mut v, state(s));
        return Ok(v);
    }
    let s = session
        .as_mut()
        .ok_or("no game: send {\"cmd\": \"load\", …} first")?;
    if !matches!(cmd, "steps" | "step" | "stop" | "state") {
        s.steps = None;
    }
    match cmd {
        "state" => Ok(state(s)),
        "steps" => {
            let steps = match s.steps.take() {
                Some(st) => st,
                None => s.game.engine.steps(&s.game.state),
            };
            let v = steps_json(s, &steps);
            s.steps = (steps.depth() > 0).then_some(steps);
            Ok(v)
        }
        "step" => {
            let text = req["move"].as_str().ok_or("step needs a \"move\"")?;
            let mut steps = match s.steps.take() {
                Some(st) => st,
                None => s.game.engine.steps(&s.game.state),
            };
            if let Err(e) = steps.play(&s.game.engine, text) {
                s.steps = (steps.depth() > 0).then_some(steps);
                return Err(e.to_string());
            }
            if steps.may_go_on() {
                let mut v = steps_json(s, &steps);
                v["step"] = text.into();
                s.steps = Some(steps);
                return Ok(v);
            }
            let m = steps.whole().cloned().ok_or("the chain has no move")?;
            let played = s.game.engine.notation(&m);
            s.game.engine.make(&mut s.game.state, &m);
            let mut v = json!({"ok": true, "step": text, "played": played});
            merge(&mut v, state(s));
            Ok(v)
        }
        "stop" => {
            let steps = s.steps.take().ok_or("no chain is being played")?;
            let Some(m) = steps.whole().cloned() else {
                s.steps = Some(steps);
                return Err("the chain must go on: no move ends here".to_owned());
            };
            let played = s.game.engine.notation(&m);
            s.game.engine.make(&mut s.game.state, &m);
            let mut v = json!({"ok": true, "played": played});
            merge(&mut v, state(s));
            Ok(v)
        }
        "moves" => {
            s.game.legal_moves(&mut s.moves);
            let moves: Vec<String> = s.moves.iter().map(|m| s.game.engine.notation(m)).collect();
            Ok(json!({"ok": true, "moves": moves}))
        }
        "play" => {
            let text = req["move"].as_str().ok_or("play needs a \"move\"")?;
            let m = s
                .game
                .engine
                .find_move(&s.game.state, text)
                .map_err(|e| e.to_string())?;
            let played = s.game.engine.notation(&m);
            s.game
                .engine
                .make_checked(&mut s.game.state, &m)
                .map_err(|e| e.to_string())?;
            let mut v = json!({"ok": true, "played": played});
            merge(&mut v, state(s));
            Ok(v)
        }
        "ai" => {
            s.game.legal_moves(&mut s.moves);
            if s.game.outcome(&s.moves).is_some() || s.moves.is_empty() {
                return Err("the game is over".to_owned());
            }
            let mover = s.game.current_player();
            let i = if s.game.is_random(mover) {
                s.rng.below(s.moves.len())
            } else {
                s.ai.choose(&mut s.game, &s.moves, &mut s.rng).index
            };
            let played = s.game.notation(&s.moves, i);
            s.game.make(&s.moves, i);
            let mut v = json!({"ok": true, "played": played});
            merge(&mut v, state(s));
            Ok(v)
        }
        other => Err(format!(
            "unknown cmd `{other}`: load, state, moves, play, steps, step, stop, ai or quit"
        )),
    }
}

/// The position: who moves, the pieces, and the result once the game is over.
fn state(s: &mut Session) -> Value {
    s.game.legal_moves(&mut s.moves);
    let outcome = s.game.outcome(&s.moves);
    let m = s.game.engine.model();
    let pieces: Vec<Value> = m
        .position_ids()
        .filter_map(|pos| {
            let p = s.game.engine.piece_at(&s.game.state, pos)?;
            Some(json!({
                "pos": m.positions[pos.index()],
                "type": m.piece_types[p.kind.index()].name,
                "owner": m.players[p.owner.index()].name,
            }))
        })
        .collect();
    let results = outcome.as_ref().map(|o| {
        let mut r = serde_json::Map::new();
        for (p, res) in o.results.iter().enumerate() {
            r.insert(
                m.players[p].name.clone(),
                format!("{res:?}").to_lowercase().into(),
            );
        }
        Value::Object(r)
    });
    json!({
        "ok": true,
        "to_move": m.players[s.game.current_player()].name,
        "pieces": pieces,
        "over": outcome.is_some(),
        "results": results,
    })
}

/// The next steps of `steps`, and the board with its steps applied.
fn steps_json(s: &Session, steps: &Steps) -> Value {
    let e = &s.game.engine;
    let m = e.model();
    let cells = steps.cells_after(&s.game.state);
    let pieces: Vec<Value> = m
        .position_ids()
        .filter(|p| cells[p.index()] != 0)
        .map(|p| {
            let v = cells[p.index()];
            json!({
                "pos": m.positions[p.index()],
                "type": m.piece_types[dagaz::model::piece::ty(v).index()].name,
                "owner": m.players[dagaz::model::piece::owner(v).index()].name,
            })
        })
        .collect();
    json!({
        "ok": true,
        "steps": steps.next_steps(e),
        "depth": steps.depth(),
        "can_stop": steps.whole().is_some(),
        "pieces": pieces,
    })
}

/// Adds the fields of `extra` (an object) to `v`.
fn merge(v: &mut Value, extra: Value) {
    if let (Value::Object(a), Value::Object(b)) = (v, extra) {
        for (k, x) in b {
            a.entry(k).or_insert(x);
        }
    }
}
