//! Compiling a merged `(game …)` form into a [`Model`]: players, board, zones, symmetry,
//! pieces and their move blocks, turn order, setup, goals, options and move priorities.

use super::board::{BoardBuilder, opposites};
use super::code::Compiler;
use super::goals::compile_goal;
use super::names::{NameMap, NameSet, Names, index_of, name_map};
use super::*;
use crate::diagnostics::{Diagnostic, Severity, codes, has_errors};
use crate::syntax::Node;
use crate::text::name_suggestion;
use std::collections::HashSet;

fn section<'a>(game: &'a Node, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
    game.args().iter().filter(move |s| s.head() == Some(name))
}

fn sub<'a>(n: &'a Node, name: &str) -> Option<&'a Node> {
    n.args().iter().find(|s| s.head() == Some(name))
}

/// Compiles one game. See [`Model::compile`].
pub fn compile(game: &GameDef) -> Result<Model, Vec<Diagnostic>> {
    let g = &game.form;
    let mut diags: Vec<Diagnostic> = Vec::new();
    // Errors the engine recovers from by skipping a name (docs/semantics.md "Names that are
    // dropped"): lint reports them as errors, the model still loads, with them in `warnings`.
    let mut soft: Vec<Diagnostic> = Vec::new();

    if let Some(e) = section(g, "engine").next() {
        diags.push(
            Diagnostic::error(
                codes::ENGINE_EXTENSION,
                "the game's moves are defined by a plug-in engine (Axiom)",
            )
            .with_span(e.span)
            .with_note("only the ZRF move language is supported"),
        );
        return Err(diags);
    }

    // Players.
    let mut players: Vec<Player> = Vec::new();
    for s in section(g, "players") {
        players.clear();
        for n in s.args() {
            let Some(w) = n.word() else { continue };
            if players.iter().any(|p| p.name == w) {
                diags.push(
                    Diagnostic::error(
                        codes::DUPLICATE_NAME,
                        format!("player `{w}` is listed twice in `players`"),
                    )
                    .with_span(n.span),
                );
                continue;
            }
            players.push(Player {
                name: w.to_owned(),
                random: w.starts_with('?'),
            });
        }
    }
    if players.is_empty() {
        diags.push(
            Diagnostic::error(codes::NO_PLAYERS, "the game declares no players").with_span(g.span),
        );
        return Err(diags);
    }
    if players.len() > MAX_PLAYERS {
        diags
            .push(Diagnostic::error(codes::TOO_MANY_PLAYERS, "too many players").with_span(g.span));
        return Err(diags);
    }
    let player_index = index_of(players.iter().map(|p| &p.name));

    // Board.
    let boards: Vec<&Node> = section(g, "board").collect();
    if boards.is_empty() {
        diags.push(Diagnostic::error(codes::NO_BOARD, "the game has no board").with_span(g.span));
        return Err(diags);
    }
    let mut bb = BoardBuilder::default();
    for b in &boards {
        bb.read_board(b, &mut diags, &mut soft);
    }
    // Directions used only in symmetry declarations still need an index.
    let super::board::Board {
        positions,
        position_index,
        directions,
        direction_index,
        links,
        dummy: dummy_positions,
        killed,
    } = bb.finish();
    if positions.is_empty() {
        diags.push(
            Diagnostic::error(codes::NO_BOARD, "the board has no positions").with_span(g.span),
        );
        return Err(diags);
    }
    if positions.len() >= (1 << 20) {
        diags.push(
            Diagnostic::error(codes::TOO_MANY_POSITIONS, "too many positions").with_span(g.span),
        );
        return Err(diags);
    }
    let nd = directions.len();
    let opposite = opposites(&links, positions.len(), nd);

    // Symmetry and zones, from the board sections and the game level.
    let places: Vec<&Node> = boards
        .iter()
        .flat_map(|b| b.args())
        .chain(g.args())
        .collect();
    let mut symmetry: Vec<Vec<u32>> = vec![(0..nd as u32).collect(); players.len()];
    let mut zones: Vec<String> = Vec::new();
    let mut zone_index = NameMap::default();
    let mut zone_sets: Vec<Vec<PosSet>> = vec![Vec::new(); players.len()];
    for s in &places {
        match s.head() {
            Some("symmetry") => {
                let args = s.args();
                let Some(pname) = args.first().and_then(Node::word) else {
                    continue;
                };
                let Some(&p) = player_index.get(pname) else {
                    diags.push(
                        Diagnostic::error(
                            codes::UNKNOWN_PLAYER,
                            format!("unknown player `{pname}`"),
                        )
                        .with_span(args[0].span),
                    );
                    continue;
                };
                for pair in &args[1..] {
                    let (Some(a), Some(b)) = (
                        pair.items.first().and_then(Node::word),
                        pair.items.get(1).and_then(Node::word),
                    ) else {
                        continue;
                    };
                    match (direction_index.get(a), direction_index.get(b)) {
                        (Some(&a), Some(&b)) => symmetry[p as usize][a as usize] = b,
                        (ia, _) => {
                            // The caret on the first unknown name.
                            let at = if ia.is_none() { 0 } else { 1 };
                            diags.push(
                                Diagnostic::warning(
                                    codes::UNKNOWN_DIRECTION,
                                    format!("symmetry names an unknown direction (`{a}` or `{b}`)"),
                                )
                                .with_span(pair.items[at].span),
                            )
                        }
                    }
                }
            }
            Some("zone") => {
                let Some(name) = sub(s, "name")
                    .and_then(|n| n.args().first())
                    .and_then(Node::word)
                else {
                    diags.push(
                        Diagnostic::error(codes::MALFORMED_FORM, "a zone needs a name")
                            .with_span(s.span),
                    );
                    continue;
                };
                let z = *zone_index.entry(name.to_owned()).or_insert_with(|| {
                    zones.push(name.to_owned());
                    (zones.len() - 1) as u32
                });
                let mut set = PosSet::new(positions.len());
                if let Some(ps) = sub(s, "positions") {
                    // Positions removed by `kill-positions` are known names: skipped quietly.
                    let mut unknown: Vec<&Node> = Vec::new();
                    for w in ps.args() {
                        let name = w.word().unwrap_or("");
                        match position_index.get(name) {
                            Some(&p) => set.insert(p),
                            None if killed.contains(name) => {}
                            None => unknown.push(w),
                        }
                    }
                    if let Some(first) = unknown.first() {
                        let names: Vec<String> =
                            unknown.iter().map(|w| format!("`{}`", w.text)).collect();
                        let mut d = Diagnostic::error(
                            codes::UNKNOWN_POSITION,
                            format!(
                                "zone `{}` names {} not on the board: {}",
                                zones[z as usize],
                                if unknown.len() == 1 {
                                    "a position"
                                } else {
                                    "positions"
                                },
                                names.join(", ")
                            ),
                        )
                        .with_span(first.span);
                        for w in &unknown {
                            if let Some(sg) = name_suggestion(&w.text, &positions) {
                                d = d.with_note(format!("`{}`: did you mean `{sg}`?", w.text));
                            }
                        }
                        soft.push(d);
                    }
                }
                let zplayers: Vec<u32> = match sub(s, "players") {
                    Some(pl) => pl
                        .args()
                        .iter()
                        .filter_map(|w| {
                            let name = w.word()?;
                            let p = player_index.get(name).copied();
                            if p.is_none() {
                                soft.push(unknown_player(
                                    w,
                                    &format!("in zone `{}`", zones[z as usize]),
                                    &players,
                                ));
                            }
                            p
                        })
                        .collect(),
                    None => (0..players.len() as u32).collect(),
                };
                for p in zplayers {
                    let v = &mut zone_sets[p as usize];
                    if v.len() <= z as usize {
                        v.resize(z as usize + 1, PosSet::new(positions.len()));
                    }
                    for q in set.iter() {
                        v[z as usize].insert(q);
                    }
                }
            }
            _ => {}
        }
    }
    for v in &mut zone_sets {
        v.resize(zones.len(), PosSet::new(positions.len()));
    }

    // Piece types and attributes.
    let pieces: Vec<&Node> = section(g, "piece").collect();
    let mut type_index: HashMap<String, u32> = HashMap::new();
    let mut piece_types: Vec<PieceType> = Vec::new();
    let mut attributes: Vec<String> = Vec::new();
    for p in &pieces {
        let Some(name) = sub(p, "name")
            .and_then(|n| n.args().first())
            .and_then(Node::word)
        else {
            diags.push(
                Diagnostic::error(codes::MALFORMED_FORM, "a piece needs a name").with_span(p.span),
            );
            continue;
        };
        if type_index.contains_key(name) {
            diags.push(
                Diagnostic::warning(
                    codes::DUPLICATE_NAME,
                    format!("piece `{name}` is defined twice; the last one wins"),
                )
                .with_span(sub(p, "name").map_or(p.span, |n| n.args()[0].span)),
            );
        }
        let mut attrs = 0u32;
        for a in p.args().iter().filter(|s| s.head() == Some("attribute")) {
            let (Some(an), v) = (
                a.args().first().and_then(Node::word),
                a.args().get(1).and_then(Node::word),
            ) else {
                continue;
            };
            let i = match attributes.iter().position(|x| x == an) {
                Some(i) => i,
                None => {
                    attributes.push(an.to_owned());
                    attributes.len() - 1
                }
            };
            if i >= MAX_ATTRIBUTES {
                diags.push(
                    Diagnostic::error(
                        codes::TOO_MANY_ATTRIBUTES,
                        format!("more than {MAX_ATTRIBUTES} attributes"),
                    )
                    .with_span(a.args()[0].span),
                );
                return Err(diags);
            }
            if v == Some("true") {
                attrs |= 1 << i;
            }
        }
        let ty = PieceType {
            name: name.to_owned(),
            notation: sub(p, "notation")
                .and_then(|n| n.args().first())
                .and_then(Node::word)
                .map(str::to_owned),
            attrs,
            moves: vec![],
            drops: vec![],
            dummy: sub(p, "dummy").is_some() || p.args().iter().any(|a| a.atom() == Some("dummy")),
        };
        match type_index.get(name) {
            Some(&i) => piece_types[i as usize] = ty,
            None => {
                type_index.insert(name.to_owned(), piece_types.len() as u32);
                piece_types.push(ty);
            }
        }
    }
    if piece_types.len() > MAX_PIECE_TYPES {
        diags.push(
            Diagnostic::error(codes::TOO_MANY_PIECE_TYPES, "too many piece types")
                .with_span(g.span),
        );
        return Err(diags);
    }
    let names = Names {
        positions: name_map(&position_index),
        directions: name_map(&direction_index),
        types: name_map(&type_index),
        zones: zone_index,
        attributes: index_of(&attributes),
        players: player_index,
    };

    // Move blocks.
    let mut compiler = Compiler::new(&names, declared_move_types(&pieces));
    // Which of the compiler's diagnostics each piece type's blocks produced.
    let mut piece_diags: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    for p in &pieces {
        let Some(name) = sub(p, "name")
            .and_then(|n| n.args().first())
            .and_then(Node::word)
        else {
            continue;
        };
        let ti = type_index[name] as usize;
        let first_diag = compiler.diags.len();
        for (kind, is_drop) in [("moves", false), ("drops", true)] {
            for sect in p.args().iter().filter(|s| s.head() == Some(kind)) {
                let mut mt = 0u32;
                for b in sect.args() {
                    if b.head() == Some("move-type") {
                        mt = compiler.move_type(move_type_marker_name(b));
                        continue;
                    }
                    let start = compiler.block(b, mt);
                    let block = Block {
                        start,
                        move_type: mt,
                    };
                    if is_drop {
                        piece_types[ti].drops.push(block);
                    } else {
                        piece_types[ti].moves.push(block);
                    }
                }
            }
        }
        piece_diags.push((ti, first_diag..compiler.diags.len()));
    }

    // Turn order.
    let mut turns = Vec::new();
    let mut repeat_from = 0;
    if let Some(t) = section(g, "turn-order").last() {
        for item in t.args() {
            if item.atom() == Some("repeat") {
                repeat_from = turns.len();
                continue;
            }
            let ws: Vec<&Node> = if item.is_list() {
                item.items.iter().collect()
            } else {
                vec![item]
            };
            let Some(pname) = ws.first().and_then(|n| n.word()) else {
                continue;
            };
            let Some(&p) = names.players.get(pname) else {
                diags.push(
                    Diagnostic::error(
                        codes::UNKNOWN_PLAYER,
                        format!("unknown player `{pname}` in the turn order"),
                    )
                    .with_span(ws[0].span),
                );
                continue;
            };
            let mut turn = Turn {
                player: p,
                pieces_of: p,
                move_type: None,
            };
            for wn in &ws[1..] {
                let w = wn.word().unwrap_or("");
                match names.players.get(w) {
                    Some(&q) => turn.pieces_of = q,
                    None => {
                        if !compiler.declared_move_types().contains(w) {
                            soft.push(unknown_move_type(
                                wn,
                                "the turn order",
                                true,
                                compiler.declared_move_types(),
                                &players,
                            ));
                        }
                        turn.move_type = Some(compiler.move_type(w));
                    }
                }
            }
            turns.push(turn);
        }
        if repeat_from >= turns.len() && !turns.is_empty() {
            diags.push(
                Diagnostic::warning(
                    codes::BAD_TURN_ORDER,
                    "`repeat` ends the turn order; ignored",
                )
                .with_span(t.span),
            );
            repeat_from = 0;
        }
    }
    if turns.is_empty() {
        turns = (0..players.len() as u32)
            .map(|p| Turn {
                player: p,
                pieces_of: p,
                move_type: None,
            })
            .collect();
    }

    // Move priorities.
    let mut prio_names: Vec<u32> = Vec::new();
    for s in section(g, "move-priorities") {
        prio_names.clear();
        for wn in s.args() {
            let Some(w) = wn.word() else { continue };
            if !compiler.declared_move_types().contains(w) {
                soft.push(unknown_move_type(
                    wn,
                    "`move-priorities`",
                    false,
                    compiler.declared_move_types(),
                    &players,
                ));
            }
            prio_names.push(compiler.move_type(w));
        }
    }

    let mut code_diags = std::mem::take(&mut compiler.diags);
    let Compiler {
        code,
        type_lists,
        move_types,
        flags,
        position_flags,
        has_partial,
        ..
    } = compiler;
    let mut priority_rank = vec![prio_names.len() as u32; move_types.len()];
    for (i, &m) in prio_names.iter().enumerate() {
        priority_rank[m as usize] = priority_rank[m as usize].min(i as u32);
    }

    // Setup.
    let mut setup = Vec::new();
    let mut hand_setup = Vec::new();
    if let Some(s) = section(g, "board-setup").last() {
        for pl in s.args() {
            let Some(pname) = pl.head().or_else(|| pl.items.first().and_then(Node::word)) else {
                continue;
            };
            let Some(&p) = names.players.get(pname) else {
                diags.push(
                    Diagnostic::error(
                        codes::UNKNOWN_PLAYER,
                        format!("unknown player `{pname}` in the setup"),
                    )
                    .with_span(pl.items.first().map_or(pl.span, |n| n.span)),
                );
                continue;
            };
            for tl in pl.args() {
                let Some(tname) = tl.head() else { continue };
                let Some(&ty) = type_index.get(tname) else {
                    diags.push(
                        Diagnostic::error(
                            codes::UNKNOWN_PIECE,
                            format!("unknown piece type `{tname}` in the setup"),
                        )
                        .with_span(tl.items[0].span),
                    );
                    continue;
                };
                let args = tl.args();
                let mut i = 0;
                while i < args.len() {
                    let w = args[i].word().unwrap_or("");
                    if w == "off" {
                        let n = args
                            .get(i + 1)
                            .and_then(Node::word)
                            .and_then(|w| w.parse::<u32>().ok())
                            .unwrap_or(0);
                        hand_setup.push((p, ty, n));
                        i += 2;
                        continue;
                    }
                    match position_index.get(w) {
                        Some(&pos) => {
                            setup.push((pos, piece::make(ty, p, piece_types[ty as usize].attrs)))
                        }
                        None if killed.contains(w) => diags.push(
                            Diagnostic::warning(
                                codes::UNKNOWN_POSITION,
                                format!(
                                    "setup names position `{w}`, which `kill-positions` removes; the piece is left out"
                                ),
                            )
                            .with_span(args[i].span),
                        ),
                        None => {
                            let mut d = Diagnostic::error(
                                codes::UNKNOWN_POSITION,
                                format!(
                                    "setup names position `{w}`, which is not on the board; the piece is left out"
                                ),
                            )
                            .with_span(args[i].span);
                            if let Some(sg) = name_suggestion(w, &positions) {
                                d = d.with_note(format!("did you mean `{sg}`?"));
                            }
                            soft.push(d);
                        }
                    }
                    i += 1;
                }
            }
        }
    }

    let mut unlimited_drops = vec![true; piece_types.len()];
    for &(_, ty, _) in &hand_setup {
        unlimited_drops[ty as usize] = false;
    }

    // A piece type that can never be on the board (not set up, not in hand, not droppable,
    // never added, promoted to or created by a piece that can) cannot affect play: errors in
    // its blocks (a variant's board without the directions of a base piece it no longer
    // uses) are warnings, and its blocks are dropped (docs/semantics.md).
    let in_play = types_in_play(
        &piece_types,
        &setup,
        &hand_setup,
        &unlimited_drops,
        &code,
        &type_lists,
    );
    for (ti, range) in &piece_diags {
        if in_play[*ti] || !code_diags[range.clone()].iter().any(Diagnostic::is_error) {
            continue;
        }
        let name = &piece_types[*ti].name;
        for d in &mut code_diags[range.clone()] {
            if d.severity == Severity::Error {
                d.severity = Severity::Warning;
                d.notes.push(format!(
                    "piece `{name}` never comes into play (not set up, not dropped, never created or promoted to): its moves are ignored"
                ));
            }
        }
        piece_types[*ti].moves.clear();
        piece_types[*ti].drops.clear();
    }
    diags.extend(code_diags);

    // Goals.
    let mut goals = Vec::new();
    for s in g.args() {
        if let Some(goal) = compile_goal(s, &names, &mut diags) {
            goals.push(goal);
        }
    }
    // absolute-config: "all named positions" unless the player cannot fill them all.
    for goal in &mut goals {
        fix_absolute(&mut goal.cond, &goal.players, &setup, &hand_setup);
    }
    let mut royal_types = Vec::new();
    for goal in &goals {
        goal.cond.royal_types(&mut royal_types);
    }
    royal_types.sort_unstable();
    royal_types.dedup();

    // Options.
    let mut options = Options::default();
    for s in g.args() {
        // `(option "name" v)` and the ZoG 1.x keyword forms (`(maximal-captures v)`) alike.
        let Some(o) = crate::expand::options::option_section(s) else {
            continue;
        };
        let name = o.name;
        let value = o.value.and_then(Node::word).unwrap_or("");
        let bool_value = |diags: &mut Vec<Diagnostic>| match value {
            "true" => true,
            "false" => false,
            _ => {
                diags.push(
                    Diagnostic::warning(
                        codes::BAD_OPTION_VALUE,
                        format!("option `{name}`: unexpected value `{value}`"),
                    )
                    .with_span(s.span),
                );
                false
            }
        };
        match name {
            "pass turn" => {
                options.pass_turn = match value {
                    "true" => PassTurn::Always,
                    "forced" | "2" => PassTurn::Forced,
                    "false" => PassTurn::Never,
                    _ => {
                        diags.push(
                            Diagnostic::warning(
                                codes::BAD_OPTION_VALUE,
                                format!("option `pass turn`: unexpected value `{value}`"),
                            )
                            .with_span(s.span),
                        );
                        PassTurn::Never
                    }
                }
            }
            "pass partial" => options.pass_partial = bool_value(&mut diags),
            "recycle captures" => options.recycle_captures = bool_value(&mut diags),
            "include off-pieces" => options.include_off_pieces = bool_value(&mut diags),
            "maximal captures" => {
                options.maximal_captures = match value {
                    "true" => MaximalCaptures::Most,
                    "2" => MaximalCaptures::MostKingsFirst,
                    _ => {
                        bool_value(&mut diags);
                        MaximalCaptures::Off
                    }
                }
            }
            // Other options (ZoG's display options, Dagaz extensions, typos) do not change
            // play; `dagaz lint` reports the unknown ones (DZ0850, DZ0851).
            _ => {}
        }
    }

    if has_errors(&diags) {
        diags.append(&mut soft);
        return Err(diags);
    }
    // A token written once in a macro body and expanded twice gives the same finding twice.
    let mut seen = HashSet::new();
    let warnings = diags
        .into_iter()
        .filter(|d| d.severity < Severity::Error)
        .chain(soft)
        .filter(|d| {
            seen.insert((
                d.code.id,
                d.span.map(|s| (s.file.0, s.offset)),
                d.message.clone(),
            ))
        })
        .collect();
    Ok(Model {
        title: game.title.clone(),
        players,
        positions,
        position_index,
        dummy_positions,
        directions,
        direction_index,
        links,
        opposite,
        symmetry,
        zones,
        zone_sets,
        attributes,
        piece_types,
        type_index,
        move_types,
        priority_rank,
        has_priorities: !prio_names.is_empty(),
        flags,
        position_flags,
        code,
        type_lists,
        turns,
        repeat_from,
        goals,
        options,
        setup,
        hand_setup,
        unlimited_drops,
        royal_types,
        has_partial,
        warnings,
    })
}

/// An unknown player named by `n` (in a zone's or an image's `players`), with a did-you-mean.
pub(crate) fn unknown_player(n: &Node, place: &str, players: &[Player]) -> Diagnostic {
    let mut d = Diagnostic::error(
        codes::UNKNOWN_PLAYER,
        format!("unknown player `{}` {place}", n.text),
    )
    .with_span(n.span);
    if let Some(s) = name_suggestion(&n.text, players.iter().map(|p| &p.name)) {
        d = d.with_note(format!("did you mean `{s}`?"));
    }
    d
}

/// A move-type that no move block declares (in `place`); in a turn-order entry the word may
/// also have meant a player.
fn unknown_move_type(
    n: &Node,
    place: &str,
    or_player: bool,
    declared: &NameSet,
    players: &[Player],
) -> Diagnostic {
    let msg = if or_player {
        format!(
            "`{}` in {place} is neither a player nor a move-type of any move block",
            n.text
        )
    } else {
        format!("move-type `{}` in {place} has no move block", n.text)
    };
    let mut d = Diagnostic::error(codes::UNKNOWN_MOVE_TYPE, msg).with_span(n.span);
    let mut names: Vec<&str> = declared.iter().map(String::as_str).collect();
    names.sort_unstable();
    if or_player {
        names.extend(players.iter().map(|p| p.name.as_str()));
    }
    if let Some(s) = name_suggestion(&n.text, &names) {
        d = d.with_note(format!("did you mean `{s}`?"));
    }
    d
}

/// The move type a `(move-type …)` marker selects for the blocks after it (`""`, the
/// default type, when it names none).
fn move_type_marker_name(marker: &Node) -> &str {
    marker.args().first().and_then(Node::word).unwrap_or("")
}

/// The move types that the `(move-type …)` markers in the pieces' `moves` and `drops`
/// declare: what the turn order, `move-priorities`, `add-partial` and `attacked?` may name.
fn declared_move_types(pieces: &[&Node]) -> NameSet {
    pieces
        .iter()
        .flat_map(|p| p.args())
        .filter(|s| matches!(s.head(), Some("moves" | "drops")))
        .flat_map(|s| s.args())
        .filter(|b| b.head() == Some("move-type"))
        .map(|b| move_type_marker_name(b).to_owned())
        .collect()
}

/// Which piece types can ever stand on the board: those set up on it or in a hand, those
/// with drop blocks and drops available, and, transitively, those that the blocks of such a
/// type add, promote to (`add T`, `add-partial T …`, `change-type T`) or create.
fn types_in_play(
    types: &[PieceType],
    setup: &[(u32, u32)],
    hand: &[(u32, u32, u32)],
    unlimited_drops: &[bool],
    code: &[Op],
    type_lists: &[u32],
) -> Vec<bool> {
    let mut in_play = vec![false; types.len()];
    let mut todo: Vec<usize> = Vec::new();
    let mark = |t: usize, in_play: &mut Vec<bool>, todo: &mut Vec<usize>| {
        if t < in_play.len() && !in_play[t] {
            in_play[t] = true;
            todo.push(t);
        }
    };
    for &(_, pc) in setup {
        mark(piece::ty(pc) as usize, &mut in_play, &mut todo);
    }
    for &(_, t, n) in hand {
        if n > 0 {
            mark(t as usize, &mut in_play, &mut todo);
        }
    }
    for (t, ty) in types.iter().enumerate() {
        if !ty.drops.is_empty() && unlimited_drops[t] {
            mark(t, &mut in_play, &mut todo);
        }
    }
    while let Some(t) = todo.pop() {
        for b in types[t].moves.iter().chain(&types[t].drops) {
            for op in &code[b.start as usize..] {
                match *op {
                    Op::End => break,
                    Op::Add { types, ntypes, .. } => {
                        for &u in &type_lists[types as usize..(types + ntypes) as usize] {
                            mark(u as usize, &mut in_play, &mut todo);
                        }
                    }
                    Op::ChangeType(u, _) => mark(u as usize, &mut in_play, &mut todo),
                    Op::Create { ty, .. } if ty != NONE => {
                        mark(ty as usize, &mut in_play, &mut todo)
                    }
                    _ => {}
                }
            }
        }
    }
    in_play
}

/// Decides, per `absolute-config`, whether every named position must be filled (the
/// default) or one is enough: one is enough when no listed player starts with as many
/// matching pieces as there are named positions (docs/semantics.md). Pieces that match are
/// those of the occupant tests: the player's own (bare types), the other players'
/// (`opponent`) or everybody's (`any-owner`); a negated test (`(not T)`) can always be met,
/// so it keeps "all".
fn fix_absolute(c: &mut GoalCond, players: &[u32], setup: &[(u32, u32)], hand: &[(u32, u32, u32)]) {
    match c {
        GoalCond::AbsoluteConfig {
            occupants,
            positions,
            any_position,
            ..
        } => {
            if occupants.iter().any(|o| o.negate) {
                *any_position = false;
                return;
            }
            let owned = |o: &super::goals::Occupant, p: u32, owner: u32| match o.owner {
                super::goals::Owner::Own => owner == p,
                super::goals::Owner::Opponent => owner != p,
                super::goals::Owner::Any => true,
            };
            let most = players
                .iter()
                .map(|&p| {
                    let on_board = setup
                        .iter()
                        .filter(|&&(_, pc)| {
                            occupants.iter().any(|o| {
                                owned(o, p, piece::owner(pc))
                                    && (o.types.is_empty() || o.types.contains(&piece::ty(pc)))
                            })
                        })
                        .count();
                    let in_hand: u32 = hand
                        .iter()
                        .filter(|&&(hp, t, _)| {
                            occupants.iter().any(|o| {
                                owned(o, p, hp) && (o.types.is_empty() || o.types.contains(&t))
                            })
                        })
                        .map(|&(_, _, n)| n)
                        .sum();
                    on_board + in_hand as usize
                })
                .max()
                .unwrap_or(0);
            *any_position = most < positions.len();
        }
        GoalCond::And(v) | GoalCond::Or(v) => v
            .iter_mut()
            .for_each(|c| fix_absolute(c, players, setup, hand)),
        GoalCond::Not(c) => fix_absolute(c, players, setup, hand),
        _ => {}
    }
}
