//! Compiling a merged `(game …)` form into a [`Model`], one section at a time.
//!
//! [`compile`] is the driver: it runs the sections in order over a shared context (`Ctx`:
//! the game form and the findings so far) and hands each one what the earlier ones
//! produced. The order is that of the findings: players (`players`), the board (`board`),
//! symmetry and zones (`zones`), piece types and their move blocks (`pieces`), the turn
//! order (`turns`), `move-priorities` (`options`), the setup (`setup`), goals (`goals`),
//! options (`options`). The names they define meet in one table ([`Names`]) that move blocks
//! and goals are compiled against.

mod board;
mod goals;
mod options;
mod pieces;
mod players;
mod setup;
mod turns;
mod zones;

use super::code::Compiler;
use super::names::{Names, index_of, name_map};
use super::{GameDef, Model};
use crate::diagnostics::{Diagnostic, Severity, codes, has_errors};
use crate::syntax::Node;

/// What the sections share: the game form and the findings so far.
struct Ctx<'g> {
    /// The merged `(game …)` form.
    game: &'g Node,
    /// Findings; an error among them fails the compile.
    diags: Vec<Diagnostic>,
    /// Errors the engine recovers from by skipping a name (docs/semantics.md "Names that are
    /// dropped"): lint reports them as errors, the model still loads, with them in
    /// [`Model::warnings`].
    soft: Vec<Diagnostic>,
}

/// A section found an error the compile cannot go on from: the result is the findings so
/// far (without the recoverable ones).
struct Stop;

impl<'g> Ctx<'g> {
    /// The game's sections with this head, in order.
    fn sections(&self, name: &'static str) -> impl Iterator<Item = &'g Node> + use<'g> {
        self.game
            .args()
            .iter()
            .filter(move |s| s.head() == Some(name))
    }

    /// Ends the compile with an error at the whole game form.
    fn stop_at_game(&mut self, code: crate::diagnostics::Code, message: &str) -> Stop {
        self.diags
            .push(Diagnostic::error(code, message).with_span(self.game.span));
        Stop
    }

    /// The result: the model with the warnings and recoverable errors, or every finding when
    /// there is an error.
    fn finish(mut self, mut model: Model) -> Result<Model, Vec<Diagnostic>> {
        if has_errors(&self.diags) {
            self.diags.append(&mut self.soft);
            return Err(self.diags);
        }
        model.warnings = crate::diagnostics::without_repeats(
            self.diags
                .into_iter()
                .filter(|d| d.severity < Severity::Error)
                .chain(self.soft),
        );
        Ok(model)
    }
}

/// Compiles one game. See [`Model::compile`]; with `plugin_engine`, a game whose moves come
/// from a plug-in engine is compiled too (its ZRF part: [`Model::compile_zrf_part`]).
pub fn compile(game: &GameDef, plugin_engine: bool) -> Result<Model, Vec<Diagnostic>> {
    let mut cx = Ctx {
        game: &game.form,
        diags: Vec::new(),
        soft: Vec::new(),
    };
    match compile_sections(&mut cx, &game.title, plugin_engine) {
        Ok(model) => cx.finish(model),
        Err(Stop) => Err(cx.diags),
    }
}

/// Runs the sections in order; the model's `warnings` are left for [`Ctx::finish`].
fn compile_sections(cx: &mut Ctx<'_>, title: &str, plugin_engine: bool) -> Result<Model, Stop> {
    if !plugin_engine {
        reject_plugin_engine(cx)?;
    }
    let players = players::players(cx)?;
    let mut names = Names {
        players: index_of(players.iter().map(|p| &p.name)),
        ..Names::default()
    };
    let board = board::board(cx)?;
    names.positions = name_map(&board.position_index);
    names.directions = name_map(&board.direction_index);
    let (symmetry, zones) = zones::symmetry_and_zones(cx, &players, &board, &mut names);
    let mut pieces = pieces::piece_types(cx)?;
    names.types = name_map(&pieces.type_index);
    names.attributes = index_of(&pieces.attributes);

    let marker_order = pieces::move_type_marker_order(&pieces.forms);
    let mut compiler = Compiler::new(&names, pieces::declared_move_types(&pieces.forms));
    let piece_diags = pieces::compile_blocks(&mut pieces, &mut compiler);
    let (turns, repeat_from) = turns::turn_order(cx, &players, &mut compiler);
    let priorities = options::move_priorities(cx, &players, &mut compiler);
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
    let priority_rank = options::priority_rank(&priorities, move_types.len());
    let mut next = marker_order.len() as u32;
    let partial_numbers = move_types
        .iter()
        .map(|t| match marker_order.iter().position(|m| m == t) {
            Some(i) => i as u32 + 1,
            None => {
                next += 1;
                next
            }
        })
        .collect();

    let setup = setup::board_setup(cx, &names, &board, &pieces.types);
    let unlimited_drops = setup.unlimited_drops(pieces.types.len());
    pieces::ignore_types_out_of_play(
        &mut pieces.types,
        &piece_diags,
        &mut code_diags,
        &setup,
        &unlimited_drops,
        &code,
        &type_lists,
    );
    cx.diags.extend(code_diags);

    let (goals, royal_types) = goals::goals(cx, &names, &setup);
    let options = options::options(cx);

    let opposite =
        super::board::opposites(&board.links, board.positions.len(), board.directions.len());
    Ok(Model {
        title: title.to_owned(),
        players,
        positions: board.positions,
        position_rects: board.rects,
        position_index: board.position_index,
        dummy_positions: board.dummy,
        directions: board.directions,
        direction_index: board.direction_index,
        links: board.links,
        opposite,
        symmetry,
        zones: zones.names,
        zone_sets: zones.sets,
        attributes: pieces.attributes,
        piece_types: pieces.types,
        type_index: pieces.type_index,
        move_types,
        partial_numbers,
        priority_rank,
        has_priorities: !priorities.is_empty(),
        flags,
        position_flags,
        code,
        type_lists,
        turns,
        repeat_from,
        goals,
        options,
        setup: setup.on_board,
        hand_setup: setup.in_hand,
        unlimited_drops,
        royal_types,
        has_partial,
        warnings: Vec::new(),
    })
}

/// A game whose moves come from a plug-in engine (`(engine …)`, Axiom) cannot be compiled.
fn reject_plugin_engine(cx: &mut Ctx<'_>) -> Result<(), Stop> {
    let Some(e) = cx.sections("engine").next() else {
        return Ok(());
    };
    cx.diags.push(
        Diagnostic::error(
            codes::ENGINE_EXTENSION,
            "the game's moves are defined by a plug-in engine (Axiom)",
        )
        .with_span(e.span)
        .with_note("only the ZRF move language is supported"),
    );
    Err(Stop)
}
