//! Following a Zillions saved game on the engine: every move of the file played and
//! checked against the legal moves, a partial chain step by step, edits applied.
//!
//! A saved move is matched against the legal moves (or, inside a chain, the legal next
//! steps) first by its text, as [`Engine::part_notation`] writes it, then by its effects:
//! the board the text describes ([`crate::zsg::Notation::effects`]) must equal the board
//! the step leaves, pieces and owners on every position. A move no step matches stops the
//! replay there, with the steps that come nearest.

use crate::engine::{Engine, MoveList, MovePart, PlayerResult, State, Steps, find_notation};
use crate::model::{Model, PlayerId, PositionId, piece};
use crate::zsg::{Effect, LineKind, Notation, SavedGame, SavedLine};

/// How a saved move was recognised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Matched {
    /// Its text is the step's notation.
    Text,
    /// Its effects are the step's; the texts differ, and this is dagaz's.
    Effects(String),
}

/// Where and why a replay stopped before the end of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReplayStop {
    /// The line of the file (from 1).
    pub line: u32,
    /// The line as written.
    pub text: String,
    pub reason: String,
    /// The legal moves (or next steps) nearest to the saved one, at most five.
    pub nearest: Vec<String>,
}

impl ReplayStop {
    /// The stop at `line`, for the reason and nearest moves of `failure`.
    fn at(line: &SavedLine, (reason, nearest): Failure) -> ReplayStop {
        ReplayStop {
            line: line.line,
            text: line.to_text(),
            reason,
            nearest,
        }
    }
}

/// What a replay did.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ReplayReport {
    /// Moves, passes and partial steps in the file (edits not counted).
    pub moves: usize,
    /// Of these, the ones replayed.
    pub replayed: usize,
    /// Of the replayed ones, those whose text was dagaz's notation exactly.
    pub same_text: usize,
    /// The others: the line of the file and the text dagaz writes for the move.
    pub other_text: Vec<(u32, String)>,
    /// Edit lines applied.
    pub edits: usize,
    /// The first line that could not be followed.
    pub stop: Option<ReplayStop>,
    /// The game ended inside a partial chain that must go on.
    pub unfinished_chain: bool,
    /// The state after the last replayed move (`None` for a game played by an Axiom
    /// program, whose state is the program's).
    pub state: Option<State>,
    /// Each player's result, if the game is over there.
    pub results: Option<Vec<PlayerResult>>,
    /// The player to move in `state` (an index into the model's players).
    pub to_move: Option<usize>,
    /// The pieces of `state`: (position, piece type, owner) indices, in position order.
    pub pieces: Vec<(usize, usize, usize)>,
}

impl ReplayReport {
    /// Every move of the file was replayed.
    pub fn complete(&self) -> bool {
        self.stop.is_none()
    }
}

/// Replays `game` on `engine` from the start position.
pub fn replay(engine: &mut Engine, game: &SavedGame) -> ReplayReport {
    let names = Notation::new(engine.model());
    let mut r = Replayer {
        state: engine.initial_state(),
        engine,
        names,
        chain: None,
        list: MoveList::new(),
    };
    let (mut replayed, mut same_text, mut edits) = (0, 0, 0);
    let mut other_text = Vec::new();
    let mut stop = None;
    for line in &game.lines {
        match r.line(line) {
            Ok(Some(how)) => {
                replayed += 1;
                match how {
                    Matched::Text => same_text += 1,
                    Matched::Effects(ours) => other_text.push((line.line, ours)),
                }
            }
            Ok(None) => edits += 1,
            Err(failure) => {
                stop = Some(ReplayStop::at(line, failure));
                break;
            }
        }
    }
    let unfinished_chain = stop.is_none() && r.chain.is_some() && !r.finish_chain();
    let results = r.engine.outcome(&r.state).map(|o| o.results);
    let to_move = Some(r.engine.current_player(&r.state));
    let np = r.engine.model().num_positions();
    let pieces = r.state.cells[..np]
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != 0)
        .map(|(i, &v)| (i, piece::ty(v).index(), piece::owner(v).index()))
        .collect();
    ReplayReport {
        to_move,
        pieces,
        moves: game.num_moves(),
        replayed,
        same_text,
        other_text,
        edits,
        stop,
        unfinished_chain,
        state: Some(r.state),
        results,
    }
}

struct Replayer<'a> {
    engine: &'a mut Engine,
    names: Notation,
    state: State,
    /// The move being played step by step, once its first step is played.
    chain: Option<Steps>,
    list: MoveList,
}

type Failure = (String, Vec<String>);

impl Replayer<'_> {
    /// Plays one line: `Some(how)` for a move, `None` for an edit.
    fn line(&mut self, line: &SavedLine) -> Result<Option<Matched>, Failure> {
        match &line.kind {
            LineKind::Edit { text } => {
                if self.chain.is_some() && !self.finish_chain() {
                    return Err((
                        "an edit inside a partial chain that must go on".into(),
                        vec![],
                    ));
                }
                self.edit(text)?;
                Ok(None)
            }
            LineKind::Pass => {
                if self.chain.is_some() {
                    // Passing ends a chain that may stop here.
                    if self.finish_chain() {
                        return Ok(Some(Matched::Text));
                    }
                    return Err((
                        "`Pass` inside a partial chain that must go on".into(),
                        vec![],
                    ));
                }
                self.engine.legal_moves(&self.state, &mut self.list);
                if let Some(m) = self.list.iter().find(|m| m.pass) {
                    let m = m.clone();
                    self.engine.make(&mut self.state, &m);
                    return Ok(Some(Matched::Text));
                }
                let texts: Vec<String> =
                    self.list.iter().map(|m| self.engine.notation(m)).collect();
                Err(("`Pass` is not legal here".into(), nearest("Pass", &texts)))
            }
            LineKind::Move { text, .. } => {
                if let Some(steps) = self.chain.take() {
                    match self.step(steps, text) {
                        Ok(how) => return Ok(Some(how)),
                        Err((steps, e)) => {
                            // The line may be the next move, when the chain can stop here.
                            self.chain = Some(steps);
                            if !self.finish_chain() {
                                return Err(e);
                            }
                        }
                    }
                }
                let steps = self.engine.steps(&self.state);
                if steps.is_empty() {
                    return Err(("the game is over here: no move is legal".into(), vec![]));
                }
                self.step(steps, text).map(Some).map_err(|(_, e)| e)
            }
        }
    }

    /// Plays the step `text` of `steps`: the next one of a chain, or the first of a move.
    /// A whole move is made at once; a chain that may go on is kept in `self.chain`.
    fn step(&mut self, mut steps: Steps, text: &str) -> Result<Matched, (Steps, Failure)> {
        let np = self.engine.model().num_positions();
        let mut board = steps.cells_after(&self.state);
        board.truncate(np);
        let mover = PlayerId::new(self.engine.current_player(&self.state) as u32);
        let parts = steps.next_parts();
        let texts: Vec<String> = parts
            .iter()
            .map(|(_, p)| self.engine.part_notation(*p))
            .collect();
        let what = if steps.depth() == 0 {
            "no legal move has this text or these effects"
        } else {
            "no next step of the partial chain has this text or these effects"
        };
        let mut chosen = find_notation(text, &texts).map(|k| (parts[k].0, Matched::Text));
        if chosen.is_none() {
            let claimed = match self.names.effects(text) {
                Ok(effects) => claimed_board(self.engine.model(), &board, mover, &effects),
                Err(e) => {
                    let why = format!("cannot read the move ({e}), and {what}");
                    let near = nearest(text, &texts);
                    drop(parts);
                    return Err((steps, (why, near)));
                }
            };
            // The step leaving the board described; one that also sets the attributes
            // written is preferred.
            let mut best: Option<(usize, bool)> = None;
            for (i, p) in &parts {
                let mut after = board.clone();
                apply(&mut after, *p);
                if same_pieces(&after, &claimed) {
                    let exact = after == claimed;
                    if best.is_none_or(|(_, e)| exact && !e) {
                        best = Some((*i, exact));
                    }
                }
            }
            chosen = best.map(|(i, _)| {
                let k = parts.iter().position(|(j, _)| *j == i).unwrap_or(0);
                (i, Matched::Effects(texts[k].clone()))
            });
        }
        let Some((i, how)) = chosen else {
            let near = nearest(text, &texts);
            drop(parts);
            return Err((steps, (what.into(), near)));
        };
        drop(parts);
        steps.play_part_of(i);
        self.chain = Some(steps);
        if !self.chain.as_ref().is_some_and(Steps::may_go_on) {
            self.finish_chain();
        }
        Ok(how)
    }

    /// Makes the whole move the chain's steps make, when one ends there; false (the chain
    /// kept) when every move of the chain goes on.
    fn finish_chain(&mut self) -> bool {
        let Some(m) = self.chain.as_ref().and_then(Steps::whole).cloned() else {
            return false;
        };
        self.engine.make(&mut self.state, &m);
        self.chain = None;
        true
    }

    /// Applies an edit line (`Black Tokin 9i`, `x h8`).
    fn edit(&mut self, text: &str) -> Result<(), Failure> {
        let effects = self
            .names
            .effects(text)
            .map_err(|e| (format!("cannot read the edit: {e}"), vec![]))?;
        let model = self.engine.model();
        let np = model.num_positions();
        let mover = PlayerId::new(self.engine.current_player(&self.state) as u32);
        let board = self.state.cells[..np].to_vec();
        let after = claimed_board(model, &board, mover, &effects);
        for (i, (&a, &b)) in board.iter().zip(&after).enumerate() {
            if a != b {
                self.engine
                    .set_position(&mut self.state, PositionId::new(i as u32), b);
            }
        }
        Ok(())
    }
}

/// Applies a part's changes to the board's positions.
fn apply(board: &mut [u32], p: MovePart<'_>) {
    for c in p.changes {
        if let Some(v) = board.get_mut(c.cell.index()) {
            *v = c.new;
        }
    }
}

/// The board a move's effects describe, from `board` (docs/formats.md, "Saved games"):
/// first every captured square and every origin is emptied (a square captured after a
/// piece landed on it in the text is emptied after the landings), then the pieces land in the
/// order written (each the piece that stood on its origin, or, when an earlier movement
/// of the text came to that origin without taking anything, that piece) and created
/// pieces are put, then types, owners and attributes change in the order written.
pub(crate) fn claimed_board(
    model: &Model,
    board: &[u32],
    mover: PlayerId,
    effects: &[Effect],
) -> Vec<u32> {
    let mut b = board.to_vec();
    let get = |b: &[u32], p: PositionId| b.get(p.index()).copied().unwrap_or(0);
    let set = |b: &mut Vec<u32>, p: PositionId, v: u32| {
        if let Some(c) = b.get_mut(p.index()) {
            *c = v;
        }
    };
    // The pieces that move, read before anything changes.
    let mut movers: Vec<u32> = Vec::new();
    let mut quiet_landings: Vec<(PositionId, u32)> = Vec::new();
    for e in effects {
        if let Effect::Move {
            from, to, capture, ..
        } = *e
        {
            let v = quiet_landings
                .iter()
                .rev()
                .find(|(q, _)| *q == from)
                .map_or_else(|| get(board, from), |&(_, v)| v);
            movers.push(v);
            if !capture {
                quiet_landings.push((to, v));
            }
        }
    }
    // A capture of a square that a piece landed on earlier in the text removes that piece
    // (`capture add` in place): it comes after the landings, the others before.
    let mut landed: Vec<PositionId> = Vec::new();
    let mut late: Vec<bool> = Vec::new();
    for e in effects {
        match *e {
            Effect::Move { from, to, .. } => {
                set(&mut b, from, 0);
                landed.push(to);
            }
            Effect::Create { at, .. } => landed.push(at),
            Effect::Capture { at } => {
                let after = landed.contains(&at);
                late.push(after);
                if !after {
                    set(&mut b, at, 0);
                }
            }
            _ => {}
        }
    }
    let mut k = 0;
    let mut c = 0;
    let mut last_to = None;
    for e in effects {
        match *e {
            Effect::Move { to, .. } => {
                set(&mut b, to, movers[k]);
                k += 1;
                last_to = Some(to);
            }
            Effect::Create { owner, ty, at } => {
                let owner = owner.unwrap_or(mover);
                let attrs = model.piece_types.get(ty.index()).map_or(0, |t| t.attrs);
                set(&mut b, at, piece::make(ty, owner, attrs));
                last_to = Some(at);
            }
            Effect::Capture { at } => {
                if late[c] {
                    set(&mut b, at, 0);
                }
                c += 1;
            }
            _ => {}
        }
    }
    let n = model.players.len().max(1) as u32;
    for e in effects {
        match *e {
            Effect::SetType { ty, at } => {
                if let Some(p) = at.or(last_to) {
                    let v = get(&b, p);
                    if v != 0 {
                        set(&mut b, p, piece::with_type(v, ty));
                    }
                }
            }
            Effect::SetOwner { owner, at } => {
                if let Some(p) = at.or(last_to) {
                    let v = get(&b, p);
                    if v != 0 {
                        set(&mut b, p, piece::with_owner(v, owner));
                    }
                }
            }
            Effect::Flip { at } => {
                let v = get(&b, at);
                if v != 0 {
                    let o = PlayerId::new((piece::owner(v).get() + 1) % n);
                    set(&mut b, at, piece::with_owner(v, o));
                }
            }
            Effect::Attribute { at, attr, value } => {
                let v = get(&b, at);
                if v != 0 && (attr as usize) < model.attributes.len() {
                    set(&mut b, at, piece::with_attr(v, attr, value));
                }
            }
            _ => {}
        }
    }
    b
}

/// The same pieces and owners on every position (attributes aside).
fn same_pieces(a: &[u32], b: &[u32]) -> bool {
    let mask = piece::TYPE_MASK | piece::OWNER_MASK;
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x & mask == y & mask)
}

/// The (at most five) texts sharing the most words with `text`, best first.
fn nearest(text: &str, texts: &[String]) -> Vec<String> {
    let want: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    let mut scored: Vec<(usize, usize, &String)> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let words: Vec<String> = t.split_whitespace().map(str::to_lowercase).collect();
            let shared = want.iter().filter(|w| words.contains(w)).count();
            (shared, i, t)
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out: Vec<String> = Vec::new();
    for (_, _, t) in scored {
        if !out.contains(t) {
            out.push(t.clone());
        }
        if out.len() == 5 {
            break;
        }
    }
    out
}

/// Why a saved game could not be replayed at all (before its first move).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayError {
    /// The saved game cannot be read (I/O).
    Io(String),
    /// The file is not a saved game.
    Format(String),
    /// Its rules file cannot be found, loaded or compiled, or has no such variant.
    Rules(String),
}

crate::error::message_enum!(ReplayError { Io, Format, Rules });

/// Where [`replay_file`] looks for rules files, besides the saved game's folder.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ReplayOptions {
    /// Folders searched in order (`--rules-dir`).
    pub rules_dirs: Vec<std::path::PathBuf>,
}

/// A saved game replayed from its file.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct FileReplay {
    pub game: SavedGame,
    /// The rules file found for `RulesFile=` (`bundled:NAME` for a bundled game).
    pub rules: String,
    /// The title of the variant played.
    pub title: String,
    pub report: ReplayReport,
    /// The names of the players, by index.
    pub players: Vec<String>,
    /// The position names, by index (empty for a game played by an Axiom program).
    pub positions: Vec<String>,
    /// The piece type names, by index (empty for a game played by an Axiom program).
    pub piece_types: Vec<String>,
}

/// Finds the rules file a saved game names: the path as written, from `beside` (the
/// saved game's folder), when it is relative and names a `.zrf` file; else its file name
/// (whatever path is written before it), matched without regard to case, first in
/// `beside`, then in each of `dirs`.
pub fn find_rules(
    name: &str,
    beside: &std::path::Path,
    dirs: &[std::path::PathBuf],
) -> Option<std::path::PathBuf> {
    let file = name.rsplit(['\\', '/']).next().unwrap_or(name).trim();
    if file.is_empty() {
        return None;
    }
    let written = name.trim().replace('\\', "/");
    if !crate::confine::is_absolute(&written) && written.to_lowercase().ends_with(".zrf") {
        let p = beside.join(&written);
        if p.is_file() {
            return Some(p);
        }
    }
    let want = file.to_lowercase();
    std::iter::once(beside)
        .chain(dirs.iter().map(|d| d.as_path()))
        .find_map(|dir| {
            let exact = dir.join(file);
            if exact.is_file() {
                return Some(exact);
            }
            let mut hits: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
                .ok()?
                .filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().to_lowercase() == want)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect();
            hits.sort();
            hits.into_iter().next()
        })
}

/// Reads the saved game at `path`, finds and loads its rules and variant, and replays it.
pub fn replay_file(
    path: &std::path::Path,
    opts: &ReplayOptions,
) -> Result<FileReplay, ReplayError> {
    let bytes = crate::source::read_capped(path)
        .map_err(|e| ReplayError::Io(format!("cannot read `{}`: {e}", path.display())))?;
    let (text, _) = crate::source::decode(&bytes);
    let game = crate::zsg::parse(&text).map_err(|e| {
        ReplayError::Format(format!("{}:{}: {}", path.display(), e.line, e.message))
    })?;
    let beside = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let limits = crate::expand::Limits {
        include_dirs: opts.rules_dirs.clone(),
        ..Default::default()
    };
    let file_name = game.rules_file_name().to_owned();
    let stem = file_name
        .strip_suffix(".zrf")
        .or_else(|| file_name.strip_suffix(".ZRF"))
        .unwrap_or(&file_name)
        .to_lowercase();
    let (display, loaded) = match find_rules(&game.rules_file, &beside, &opts.rules_dirs) {
        Some(rules) => {
            let display = rules.display().to_string();
            let loaded = crate::expand::load_path(&rules, &display, limits)
                .map_err(|d| ReplayError::Rules(format!("{display}: {}", d.message)))?;
            (display, loaded)
        }
        None => match crate::games::find(&stem) {
            Some(b) => (
                format!("bundled:{}", b.name),
                crate::expand::load_text(&format!("{}.zrf", b.name), b.text, limits),
            ),
            None => {
                return Err(ReplayError::Rules(format!(
                    "the rules file `{file_name}` (RulesFile=) is in neither `{}` nor a --rules-dir, nor a bundled game",
                    beside.display()
                )));
            }
        },
    };
    let want = game.variant.trim();
    let def = loaded
        .games
        .iter()
        .find(|g| g.title.trim() == want)
        .or_else(|| {
            loaded
                .games
                .iter()
                .find(|g| g.title.trim().eq_ignore_ascii_case(want))
        })
        .or_else(|| want.is_empty().then(|| loaded.default_game()).flatten())
        .ok_or_else(|| {
            let titles: Vec<&str> = loaded.games.iter().map(|g| g.title.as_str()).collect();
            if titles.is_empty() {
                // Nothing to choose from: say why the file gives no game.
                let first = loaded
                    .diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| {
                        let at = d
                            .span
                            .filter(|sp| (sp.file.0 as usize) < loaded.sources.len())
                            .map(|sp| {
                                let f = loaded.sources.get(sp.file);
                                format!("{}:{}:{}: ", f.display, sp.line, sp.col)
                            })
                            .unwrap_or_default();
                        format!("{at}error[{}]: {}", d.code.id, d.message)
                    })
                    .unwrap_or_else(|| "it declares no game".to_owned());
                return ReplayError::Rules(format!("{display} gives no game: {first}"));
            }
            ReplayError::Rules(format!(
                "{display} has no variant titled `{want}` (VariantName=); its variants: {}",
                titles.join(", ")
            ))
        })?;
    let title = def.title.clone();
    if let Some(found) = crate::axiom::program::zrf_engine_variant(
        &def.form,
        &title,
        std::path::Path::new(&display),
        &axiom_dirs(&beside, &opts.rules_dirs),
    ) {
        return replay_axiom(path, game, display, title, found, &beside, opts);
    }
    let model = crate::model::Model::compile(def).map_err(|diags| {
        let msgs: Vec<&str> = diags
            .iter()
            .filter(|d| d.severity == crate::diagnostics::Severity::Error)
            .map(|d| d.message.as_str())
            .collect();
        ReplayError::Rules(format!(
            "{display}: `{}` cannot be played: {}",
            def.title,
            msgs.join("; ")
        ))
    })?;
    let players = model.players.iter().map(|p| p.name.clone()).collect();
    let positions = model.positions.clone();
    let piece_types = model.piece_types.iter().map(|t| t.name.clone()).collect();
    let mut engine = Engine::new(model);
    let report = replay(&mut engine, &game);
    Ok(FileReplay {
        game,
        rules: display,
        title,
        report,
        players,
        positions,
        piece_types,
    })
}

/// The saved game of a game played from the start position, given its moves as
/// [`Engine::notation`] writes them (a game record's `moves`): one line per move, one per
/// step of a partial chain (`partial N` in front of each step made by `add-partial`), the
/// move number going up when a player who has moved moves again. `rules_file` is written
/// as `RulesFile=`, `variant` as `VariantName=`.
pub fn saved_game(
    engine: &mut Engine,
    rules_file: &str,
    variant: &str,
    moves: &[String],
) -> Result<SavedGame, String> {
    let mut game = SavedGame::new(rules_file, variant);
    let mut state = engine.initial_state();
    let mut list = MoveList::new();
    let mut number = 1u32;
    let mut moved: Vec<usize> = Vec::new();
    for (ply, text) in moves.iter().enumerate() {
        engine.legal_moves(&state, &mut list);
        let texts: Vec<String> = list.iter().map(|m| engine.notation(m)).collect();
        let Some(i) = find_notation(text, &texts) else {
            return Err(format!(
                "ply {}: `{text}` is not a legal move of `{variant}` there",
                ply + 1
            ));
        };
        let m = list.as_slice()[i].clone();
        let player = engine.current_player(&state);
        if moved.contains(&player) {
            number += 1;
            moved.clear();
        }
        moved.push(player);
        let mut line = |kind: LineKind| {
            game.lines.push(SavedLine {
                line: 0,
                number: Some(number),
                kind,
            })
        };
        if m.pass {
            line(LineKind::Pass);
        } else {
            for k in 0..m.num_parts() {
                if let Some(p) = m.part(k) {
                    let numbers = &engine.model().partial_numbers;
                    line(LineKind::Move {
                        partial: p
                            .partial
                            .map(|t| numbers.get(t as usize).copied().unwrap_or(t)),
                        text: engine.part_notation(p),
                    });
                }
            }
        }
        engine.make(&mut state, &m);
    }
    Ok(game)
}

/// The folders an Axiom engine folder may be in: the saved game's, then the rules folders.
fn axiom_dirs(beside: &std::path::Path, dirs: &[std::path::PathBuf]) -> Vec<std::path::PathBuf> {
    std::iter::once(beside.to_path_buf())
        .chain(dirs.iter().cloned())
        .collect()
}

/// Replays a saved game of a rules file whose moves come from an Axiom engine
/// (`(engine "../Axiom/Ur/axiom.dll")`): the variant's program plays both seats and each
/// move is matched by its text ([`find_notation`]) among the program's moves. `found` is
/// what [`crate::axiom::program::zrf_engine_variant`] found: the variant's `.4th` file and
/// the engine folder; when that folder is not there, the saved game's own folder is tried
/// (saved games are kept beside the program).
fn replay_axiom(
    path: &std::path::Path,
    game: SavedGame,
    rules: String,
    title: String,
    found: Result<(std::path::PathBuf, std::path::PathBuf), crate::axiom::AxiomError>,
    beside: &std::path::Path,
    opts: &ReplayOptions,
) -> Result<FileReplay, ReplayError> {
    let file_name = format!("{}.4th", title.trim().replace(' ', "-"));
    let (file, dir) = match found {
        Ok((f, d)) if f.is_file() => (f, d),
        other => {
            let here = beside.join(&file_name);
            if here.is_file() {
                (here, beside.to_path_buf())
            } else {
                let why = match other {
                    Err(e) => e.to_string(),
                    Ok((f, _)) => format!("`{}` is not there", f.display()),
                };
                return Err(ReplayError::Rules(format!(
                    "{rules}: `{title}` is played by an Axiom engine, whose variant file cannot be found: {why}; nor is `{file_name}` beside `{}`",
                    path.display()
                )));
            }
        }
    };
    let dirs = axiom_dirs(beside, &opts.rules_dirs);
    let program = crate::axiom::Program::load_in(&file, Some(&dir), &dirs)
        .map_err(|e| ReplayError::Rules(format!("`{}` cannot be played: {e}", file.display())))?;
    let mut g = crate::axiom::AxiomGame::new(&program, &program, 1)
        .map_err(|e| ReplayError::Rules(format!("`{}` cannot be played: {e}", file.display())))?;
    let report = replay_game(&mut g, &game);
    let players = (0..crate::ai::Game::num_players(&g))
        .map(|i| crate::ai::Game::player_name(&g, i).to_owned())
        .collect();
    Ok(FileReplay {
        game,
        rules: format!("{rules} (Axiom: {})", file.display()),
        title,
        report,
        players,
        positions: Vec::new(),
        piece_types: Vec::new(),
    })
}

/// Replays `saved` on a game of the AI layer (an Axiom program): every move and pass
/// matched by its text among the legal moves' notations; edits are not supported.
pub fn replay_game<G: crate::ai::Game>(g: &mut G, saved: &SavedGame) -> ReplayReport {
    let mut moves = G::Moves::default();
    let (mut replayed, mut edits) = (0, 0);
    let mut stop = None;
    for line in &saved.lines {
        let text = match &line.kind {
            LineKind::Edit { .. } => {
                edits += 1;
                let why =
                    "edits of the board are not supported for a game played by an Axiom program";
                stop = Some(ReplayStop::at(line, (why.into(), vec![])));
                break;
            }
            LineKind::Pass => "Pass",
            LineKind::Move { text, .. } => text.as_str(),
        };
        g.legal_moves(&mut moves);
        let failure = if let Some(e) = g.take_error() {
            Some((format!("the program failed: {e}"), vec![]))
        } else {
            let n = G::num_moves(&moves);
            let texts: Vec<String> = (0..n).map(|i| g.notation(&moves, i)).collect();
            match find_notation(text, &texts) {
                Some(i) => {
                    g.play(&moves, i);
                    replayed += 1;
                    None
                }
                None if n == 0 => Some(("the game is over here: no move is legal".into(), vec![])),
                None => Some(("no legal move has this text".into(), nearest(text, &texts))),
            }
        };
        if let Some(failure) = failure {
            stop = Some(ReplayStop::at(line, failure));
            break;
        }
    }
    g.legal_moves(&mut moves);
    let results = g.outcome(&moves).map(|o| o.results);
    ReplayReport {
        moves: saved.num_moves(),
        replayed,
        same_text: replayed,
        other_text: Vec::new(),
        edits,
        stop,
        unfinished_chain: false,
        state: None,
        results,
        to_move: Some(g.current_player()),
        pieces: Vec::new(),
    }
}

#[cfg(test)]
#[path = "replay_tests.rs"]
mod tests;

/// [`saved_game`] for a game of the AI layer (an Axiom program) at its start position:
/// one line per move (such games have no partial chains), numbered the same way.
pub fn saved_game_of<G: crate::ai::Game>(
    g: &mut G,
    rules_file: &str,
    variant: &str,
    moves: &[String],
) -> Result<SavedGame, String> {
    let mut game = SavedGame::new(rules_file, variant);
    let mut list = G::Moves::default();
    let mut number = 1u32;
    let mut moved: Vec<usize> = Vec::new();
    for (ply, text) in moves.iter().enumerate() {
        g.legal_moves(&mut list);
        let texts: Vec<String> = (0..G::num_moves(&list))
            .map(|i| g.notation(&list, i))
            .collect();
        let Some(i) = find_notation(text, &texts) else {
            return Err(format!(
                "ply {}: `{text}` is not a legal move of `{variant}` there",
                ply + 1
            ));
        };
        let player = g.current_player();
        if moved.contains(&player) {
            number += 1;
            moved.clear();
        }
        moved.push(player);
        let kind = if texts[i] == "Pass" {
            LineKind::Pass
        } else {
            LineKind::Move {
                partial: None,
                text: texts[i].clone(),
            }
        };
        game.lines.push(SavedLine {
            line: 0,
            number: Some(number),
            kind,
        });
        g.play(&list, i);
    }
    Ok(game)
}
