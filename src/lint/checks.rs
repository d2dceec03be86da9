//! Lint-only static checks: findings that are not errors for the engine but that a designer
//! wants to hear about before committing a rules file. They read the expanded game trees and
//! the macro table of a [`Loaded`] file.

use super::rules::codes;
use crate::diagnostics::Diagnostic;
use crate::expand::{GameDef, Loaded};
use crate::source::FileId;
use crate::syntax::{Kind, Node};
use crate::text::suggestions;
use std::collections::{HashMap, HashSet};

pub use crate::expand::options::ZOG_OPTIONS;

/// Dagaz (JavaScript) option names that change the rules: setup phases, extra move
/// restrictions, capture timing, ko. A plain ZRF engine (ZoG, dagaz) ignores them, so the
/// game plays differently. Names ending in `-extension`, ` extension`, `-invariant`,
/// ` invariant` or `-restrictions` are too (each names a JavaScript rules module).
pub const DAGAZ_OPTIONS: &[&str] = &[
    "shared pieces",
    "shared-pieces",
    "deferred captures",
    "deferred-captures",
    "ko",
    "chess invariant",
    "zrf-advanced",
    "mancala setup",
    "kamisado-setup",
    "shogi promotion",
];

/// Dagaz option names that only change the display or the input of moves in Dagaz's web
/// interface (move hints, blinking, click completion, animations, silent random moves,
/// sliding-puzzle input): the rules are the same, so they are not reported.
pub const DAGAZ_DISPLAY_OPTIONS: &[&str] = &[
    "silent ? moves",
    "smart-moves",
    "smart to",
    "smart from",
    "sliding-puzzle",
    "show hints",
    "show blink",
    "show captures",
    "show moves",
    "animate moves",
];

/// True for a Dagaz-only option that changes the rules.
pub fn is_dagaz_option(name: &str) -> bool {
    DAGAZ_OPTIONS.contains(&name)
        || [
            "-extension",
            " extension",
            "-invariant",
            " invariant",
            "-restrictions",
        ]
        .iter()
        .any(|s| name.ends_with(s))
}

/// True for a Dagaz-only display or input option (not reported).
pub fn is_dagaz_display_option(name: &str) -> bool {
    DAGAZ_DISPLAY_OPTIONS.contains(&name)
        || name.starts_with("show ")
        || name.starts_with("animate ")
}

/// True for an option dagaz's AI layer reads (`docs/ai.md`).
pub fn is_ai_option(name: &str) -> bool {
    name == "ai" || name.starts_with("ai ")
}

fn option_name(n: &Node) -> Option<&str> {
    n.args().first().and_then(Node::word)
}

/// True for a macro library: a file of `define`s (and includes) only, written to be included
/// by games (`sliding-puzzles/common.zrf`). It needs no game, and its macros are used by the
/// files that include it.
pub fn is_library(loaded: &Loaded) -> bool {
    let mut defines = false;
    for f in &loaded.syntax {
        match f.head() {
            Some("define") => defines = true,
            Some("include" | "version") => {}
            _ if f.kind == Kind::Comment => {}
            _ => return false,
        }
    }
    defines
}

/// A `move-priorities` entry that no block of its game declares but another game of the
/// file does (a variant that redefines the pieces and inherits the priorities): harmless,
/// since the priority never matches, so a warning rather than an error.
pub fn soften_inherited_priorities(loaded: &Loaded, diags: &mut [Diagnostic]) {
    let declared: HashSet<String> = loaded
        .games
        .iter()
        .flat_map(|g| move_types(&g.form))
        .collect();
    for d in diags.iter_mut() {
        if d.code != crate::diagnostics::codes::UNKNOWN_MOVE_TYPE
            || d.severity != crate::diagnostics::Severity::Error
            || !d.message.contains("`move-priorities`")
        {
            continue;
        }
        if let Some(name) = d
            .message
            .split('`')
            .nth(1)
            .filter(|n| declared.contains(*n))
        {
            d.severity = crate::diagnostics::Severity::Warning;
            d.notes.push(format!(
                "another game of the file declares `{name}`; in this one no block has it, so the priority never matches"
            ));
        }
    }
}

/// The `(engine …)` section of a game whose moves an Axiom plug-in defines.
pub fn axiom_engine(g: &GameDef) -> Option<&Node> {
    g.form.args().iter().find(|s| s.head() == Some("engine"))
}

/// Runs the file-wide lint-only checks on `loaded` (macros, top-level forms); the
/// per-game ones are [`game_checks`].
pub fn run(loaded: &Loaded) -> Vec<Diagnostic> {
    let mut out = vec![];
    macros(loaded, &mut out);
    top_level(loaded, &mut out);
    duplicate_titles(loaded, &mut out);
    out
}

/// Two games or variants with the same title or slug: one finding per title, at its
/// second use.
fn duplicate_titles(loaded: &Loaded, out: &mut Vec<Diagnostic>) {
    // By the slug of the title: the games' own slugs are made distinct (`-2`, `-3`, …).
    let mut uses: Vec<(String, Vec<&GameDef>)> = Vec::new();
    for g in &loaded.games {
        let base = crate::expand::slug(&g.title);
        if base.is_empty() {
            continue;
        }
        match uses.iter_mut().find(|(s, _)| *s == base) {
            Some((_, v)) => v.push(g),
            None => uses.push((base, vec![g])),
        }
    }
    for (slug, v) in uses.iter().filter(|(_, v)| v.len() > 1) {
        let (first, second) = (v[0], v[1]);
        let at = second
            .form
            .child_form("title")
            .and_then(|t| t.args().first())
            .map(|t| t.span)
            // A variant without a title of its own inherits its game's.
            .filter(|t| t.file == second.form.span.file && t.offset > second.form.span.offset)
            .unwrap_or(second.form.span);
        let what = if v.iter().all(|g| g.title == first.title) {
            format!("the title `{}`", first.title)
        } else {
            let titles: Vec<String> = v.iter().map(|g| format!("`{}`", g.title)).collect();
            format!("the slug `{slug}` (of {})", titles.join(", "))
        };
        let s = first.form.span;
        let file = if s.file == at.file {
            String::new()
        } else {
            format!("{}:", loaded.sources.get(s.file).display)
        };
        let times = match v.len() {
            2 => "twice".to_owned(),
            n => format!("{n} times"),
        };
        out.push(
            Diagnostic::warning(
                codes::DUPLICATE_VARIANT,
                format!(
                    "{what} is used {times} (first at {file}{}:{}): a title chooses only the first; the others are selected as {}",
                    s.line,
                    s.col,
                    v[1..]
                        .iter()
                        .map(|g| format!("`{}`", g.slug))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
            .with_span(at),
        );
    }
}

/// Runs the lint-only checks of one (merged) game; `compiled` are the model compiler's
/// findings for it (a block with an unknown macro call gets no further finding).
pub fn game_checks(g: &GameDef, compiled: &[Diagnostic]) -> Vec<Diagnostic> {
    let unknown_calls: Vec<crate::source::Span> = compiled
        .iter()
        .filter(|d| d.code == crate::diagnostics::codes::UNKNOWN_INSTRUCTION)
        .filter_map(|d| d.span)
        .collect();
    let mut out = vec![];
    game(g, &unknown_calls, &mut out);
    if axiom_engine(g).is_some() {
        // Axiom defines the moves and the goals: its dummy blocks, pieces without moves and
        // missing goals are by design.
        out.retain(|d| {
            ![
                codes::NO_GOAL,
                codes::PIECE_WITHOUT_MOVES,
                codes::BLOCK_NEVER_ADDS,
            ]
            .contains(&d.code)
        });
    }
    out
}

/// The directions a game's boards declare (grid `directions` and `links`).
fn board_directions(g: &Node) -> Vec<&str> {
    let mut v = vec![];
    for b in g.args().iter().filter(|s| s.head() == Some("board")) {
        each_list(b, &mut |l| match l.head() {
            Some("directions") => v.extend(
                l.args()
                    .iter()
                    .filter_map(|d| d.items.first().and_then(Node::word)),
            ),
            Some("links") => v.extend(l.args().first().and_then(Node::word)),
            _ => {}
        });
    }
    v
}

/// An unknown direction (or an unknown word in a move block) of game `g` that another game
/// of the file declares as a direction: typically a variant that replaces the board and
/// inherits a piece whose moves use the base board's directions. Says so instead of
/// suggesting a near name.
pub fn foreign_directions(loaded: &Loaded, g: &GameDef, diags: &mut [Diagnostic]) {
    use crate::diagnostics::codes as c;
    for d in diags.iter_mut() {
        if ![c::UNKNOWN_DIRECTION, c::UNKNOWN_INSTRUCTION].contains(&d.code) {
            continue;
        }
        let Some(w) = ["unknown direction `", "unknown instruction `"]
            .iter()
            .find_map(|p| d.message.strip_prefix(p))
            .and_then(|r| r.strip_suffix('`'))
            .map(str::to_owned)
        else {
            continue;
        };
        let Some(other) = loaded
            .games
            .iter()
            .find(|h| h.title != g.title && board_directions(&h.form).contains(&w.as_str()))
        else {
            continue;
        };
        d.code = c::UNKNOWN_DIRECTION;
        d.message = format!("unknown direction `{w}`");
        d.notes.retain(|n| !n.starts_with("did you mean"));
        d.notes.push(format!(
            "`{w}` is a direction of the board of `{}`, not of this game's board",
            other.title
        ));
    }
}

fn macros(loaded: &Loaded, out: &mut Vec<Diagnostic>) {
    for m in &loaded.macros {
        // Macros of included files are libraries: only the main file's must all be used.
        if !m.called && m.span.file == loaded.main && !is_library(loaded) {
            out.push(
                Diagnostic::warning(
                    codes::UNUSED_MACRO,
                    format!("macro `{}` is never used", m.name),
                )
                .with_span(m.span),
            );
        }
        // Arguments past the last one the expansion read (its own `$k`, or a `$k` of a
        // macro it calls that falls back to its arguments) are ignored.
        let u = &m.usage;
        let first_unread = if loaded.expansion_complete && u.max_args > u.max_used {
            u.max_args_call
                .as_ref()
                .and_then(|args| args.get(u.max_used))
                .copied()
        } else {
            None
        };
        if let Some(first_unread) = first_unread {
            let uses = match u.max_used {
                0 => "no argument".to_owned(),
                1 => "only `$1`".to_owned(),
                k => format!("only `$1`…`${k}`"),
            };
            out.push(
                Diagnostic::warning(
                    codes::UNUSED_MACRO_ARGUMENT,
                    format!(
                        "macro `{}` is called with {} argument{} but reads {uses}: the rest are ignored",
                        m.name,
                        u.max_args,
                        if u.max_args == 1 { "" } else { "s" }
                    ),
                )
                // The caret on the first argument nobody reads.
                .with_span(first_unread),
            );
        }
        if let Some(&max) = m.parameters.last() {
            let missing: Vec<String> = (1..max)
                .filter(|k| !m.parameters.contains(k))
                .map(|k| format!("${k}"))
                .collect();
            if !missing.is_empty() {
                out.push(
                    Diagnostic::warning(
                        codes::UNUSED_MACRO_PARAMETER,
                        format!(
                            "macro `{}` uses ${max} but never {}: an argument is ignored",
                            m.name,
                            missing.join(", ")
                        ),
                    )
                    .with_span(m.span),
                );
            }
        }
    }
}

fn top_level(loaded: &Loaded, out: &mut Vec<Diagnostic>) {
    for f in &loaded.expanded {
        match f.head() {
            Some("game" | "variant" | "version") => {}
            Some(h) => out.push(
                Diagnostic::warning(
                    codes::UNKNOWN_TOP_LEVEL_FORM,
                    format!("`({h} …)` at the top level: ZoG expects only game, variant, define, include and version"),
                )
                .with_span(f.span),
            ),
            None => out.push(
                Diagnostic::warning(codes::UNKNOWN_TOP_LEVEL_FORM, "a bare token at the top level is ignored")
                    .with_span(f.span),
            ),
        }
    }
    if loaded.games.is_empty() && !loaded.has_errors() && !is_library(loaded) {
        let span = loaded
            .syntax
            .first()
            .map(|n| n.span)
            .unwrap_or(crate::source::Span {
                file: FileId(0),
                line: 1,
                col: 1,
                offset: 0,
                len: 1,
            });
        out.push(
            Diagnostic::warning(
                codes::NO_GAME_FORM,
                "the file defines no game (only macros?)",
            )
            .with_span(span),
        );
    }
}

/// The move-type names that blocks of all pieces are tagged with.
pub fn move_types(g: &Node) -> HashSet<String> {
    let mut types = HashSet::new();
    for p in g.args().iter().filter(|s| s.head() == Some("piece")) {
        for sec in p
            .args()
            .iter()
            .filter(|s| matches!(s.head(), Some("moves" | "drops")))
        {
            for b in sec.args() {
                if let Some(t) = b
                    .args()
                    .first()
                    .and_then(Node::atom)
                    .filter(|_| b.head() == Some("move-type"))
                {
                    types.insert(t.to_owned());
                }
            }
        }
    }
    types
}

/// Visits every list in a tree.
fn each_list<'a>(n: &'a Node, f: &mut impl FnMut(&'a Node)) {
    if n.kind == Kind::List {
        f(n);
        for c in n.items.iter() {
            each_list(c, f);
        }
    }
}

/// [`each_list`] without the branches a constant condition never takes: the then-part of
/// `(if false …)`, the else-part of `(if true …)` and the body of `(while false …)`, as
/// when a macro is called with a constant flag (`(if $2 (add-partial jump) else add)` with
/// `$2` = `false`). (`not` of a constant counts as a constant.)
fn each_live_list<'a>(n: &'a Node, f: &mut impl FnMut(&'a Node)) {
    if n.kind != Kind::List {
        return;
    }
    f(n);
    let items = &n.items;
    let constant = |c: &Node| -> Option<bool> {
        match c.kind {
            Kind::Atom => match c.text.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            Kind::List if c.head() == Some("not") && c.args().len() == 1 => {
                c.args().first().and_then(|a| match a.atom() {
                    Some("true") => Some(false),
                    Some("false") => Some(true),
                    _ => None,
                })
            }
            _ => None,
        }
    };
    match (n.head(), n.args().first().and_then(constant)) {
        (Some("if"), Some(taken)) => {
            let args = n.args();
            let split = args
                .iter()
                .position(|a| a.atom() == Some("else"))
                .unwrap_or(args.len());
            let live = if taken {
                &args[1..split]
            } else {
                &args[(split + 1).min(args.len())..]
            };
            for c in live {
                each_live_list(c, f);
            }
        }
        (Some("while"), Some(false)) => {}
        _ => {
            for c in items.iter() {
                each_live_list(c, f);
            }
        }
    }
}

fn contains_add(n: &Node) -> bool {
    match n.kind {
        Kind::Atom => n.text.starts_with("add"),
        Kind::List => n.items.iter().any(contains_add),
        _ => false,
    }
}

/// The sections ZoG knows inside `(game …)`, the v1 keyword forms of options included.
pub const GAME_SECTIONS: &[&str] = &[
    "title",
    "description",
    "history",
    "strategy",
    "players",
    "turn-order",
    "board",
    "board-setup",
    "piece",
    "option",
    "move-priorities",
    "win-condition",
    "loss-condition",
    "draw-condition",
    "count-condition",
    "default",
    "engine",
    "music",
    "opening-sound",
    "release-sound",
    "capture-sound",
    "move-sound",
    "change-sound",
    "drop-sound",
    "click-sound",
    "win-sound",
    "loss-sound",
    "draw-sound",
    "solution",
    "version",
    "pass-turn",
    "pass-partial",
    "recycle-captures",
    "allow-flipping",
    "animate-captures",
    "animate-drops",
    "include-off-pieces",
    "recycle-promotions",
    "maximal-captures",
];

/// The lint checks of one game, run in the order their findings are reported.
fn game(g: &GameDef, unknown_calls: &[crate::source::Span], out: &mut Vec<Diagnostic>) {
    let form = &g.form;
    let sections = form.args();
    check_unknown_sections(sections, out);
    check_goals(g, sections, out);
    check_options(sections, out);
    check_piece_moves(form, sections, unknown_calls, out);
    check_image_players(sections, out);
    check_doubly_occupied(sections, out);
    check_symmetry_tables(sections, out);
}

/// Sections that are neither ZoG sections nor keyword options (UNKNOWN_SECTION).
fn check_unknown_sections(sections: &[Node], out: &mut Vec<Diagnostic>) {
    for s in sections {
        let known = s.head().is_some_and(|h| {
            GAME_SECTIONS.contains(&h) || crate::expand::options::keyword_option(h).is_some()
        });
        if !known {
            let what = s
                .head()
                .map_or_else(|| "a bare token".to_owned(), |h| format!("`({h} …)`"));
            let mut d = Diagnostic::warning(
                crate::diagnostics::codes::UNKNOWN_SECTION,
                format!("{what} is not a section ZoG knows: it is ignored"),
            )
            .with_span(s.items.first().map_or(s.span, |h| h.span));
            if let Some(n) = s.head().and_then(|h| {
                suggestions(h, GAME_SECTIONS.iter().copied())
                    .first()
                    .copied()
            }) {
                d = d.with_note(format!("did you mean `{n}`?"));
            }
            out.push(d);
        }
    }
}

/// A game with no win, loss, draw or count condition (NO_GOAL).
fn check_goals(g: &GameDef, sections: &[Node], out: &mut Vec<Diagnostic>) {
    let form = &g.form;
    // Goals. A variant inherits its base game's goals and cannot remove them, so a
    // goal-less variant of a goal-less game is reported once, at the game.
    let inherits = g.is_variant && g.base_index != usize::MAX;
    if !inherits
        && !sections.iter().any(|s| {
            matches!(
                s.head(),
                Some("win-condition" | "loss-condition" | "draw-condition" | "count-condition")
            )
        })
    {
        out.push(
            Diagnostic::warning(
                codes::NO_GOAL,
                format!("`{}` has no win, loss, draw or count condition: every game ends in a draw (by repetition or when a player cannot move), so playing it measures nothing", g.title),
            )
            .with_span(form.span),
        );
    }
}

/// Options that are Dagaz extensions or unknown to ZoG.
fn check_options(sections: &[Node], out: &mut Vec<Diagnostic>) {
    // Options.
    for o in sections.iter().filter(|s| s.head() == Some("option")) {
        let Some(name) = option_name(o) else { continue };
        if ZOG_OPTIONS.contains(&name) || is_ai_option(name) || is_dagaz_display_option(name) {
            continue;
        }
        let span = o.items.get(1).map_or(o.span, |n| n.span);
        if is_dagaz_option(name) {
            // Switched off, the extension changes nothing.
            if o.args().get(1).and_then(Node::word) == Some("false") {
                continue;
            }
            out.push(
                Diagnostic::warning(
                    codes::DAGAZ_EXTENSION_OPTION,
                    format!("option \"{name}\" is a Dagaz (JavaScript) extension: ZoG and dagaz ignore it"),
                )
                .with_span(span),
            );
        } else {
            let near = suggestions(name, ZOG_OPTIONS.iter().copied());
            let mut d = Diagnostic::warning(
                codes::UNKNOWN_OPTION,
                format!("option \"{name}\" is unknown to ZoG and is ignored"),
            )
            .with_span(span);
            if let Some(s) = near.first() {
                d = d.with_note(format!("did you mean \"{s}\"?"));
            }
            out.push(d);
        }
    }
}

/// Set-up pieces that cannot move, and the move blocks of every piece.
fn check_piece_moves(
    form: &Node,
    sections: &[Node],
    unknown_calls: &[crate::source::Span],
    out: &mut Vec<Diagnostic>,
) {
    // Pieces.
    let types = move_types(form);
    let on_board: HashSet<&str> = sections
        .iter()
        .rfind(|s| s.head() == Some("board-setup"))
        .map(|s| {
            s.args()
                .iter()
                .flat_map(|pl| pl.args())
                .filter(|tl| tl.args().first().is_some_and(|a| a.atom() != Some("off")))
                .filter_map(|tl| tl.head())
                .collect()
        })
        .unwrap_or_default();
    let piece_names: HashSet<&str> = sections
        .iter()
        .filter(|s| s.head() == Some("piece"))
        .filter_map(|p| p.name_value().and_then(Node::word))
        .collect();
    for p in sections.iter().filter(|s| s.head() == Some("piece")) {
        let name = p.name_value().and_then(Node::word);
        let has_dummy =
            p.child_form("dummy").is_some() || p.args().iter().any(|a| a.atom() == Some("dummy"));
        let blocks: Vec<&Node> = p
            .args()
            .iter()
            .filter(|c| matches!(c.head(), Some("moves" | "drops")))
            .flat_map(|c| c.args())
            .filter(|b| b.head() != Some("move-type"))
            .collect();
        // Only pieces placed on the board at the start: one that is never set up is made by
        // `create`/`change-type` or is unused, and a wall or marker is expected not to move,
        // but a set-up piece that cannot move is worth a look.
        if blocks.is_empty() && !has_dummy && name.is_some_and(|n| on_board.contains(n)) {
            out.push(
                Diagnostic::new(
                    codes::PIECE_WITHOUT_MOVES,
                    crate::diagnostics::Severity::Note,
                    format!(
                        "piece `{}` is set up but has no moves and no drops: it can never move",
                        name.unwrap_or("?")
                    ),
                )
                .with_span(p.name_value().map_or(p.span, |n| n.span)),
            );
        }
        for b in blocks {
            if has_dummy {
                break; // a dummy piece's blocks are never generated
            }
            check_move_block(b, &types, &piece_names, unknown_calls, out);
        }
    }
}

/// A move block that never adds a move, or continues with an unknown move type.
fn check_move_block(
    b: &Node,
    types: &HashSet<String>,
    piece_names: &HashSet<&str>,
    unknown_calls: &[crate::source::Span],
    out: &mut Vec<Diagnostic>,
) {
    let extent = crate::expand::macros::extent(b);
    if unknown_calls
        .iter()
        .any(|&s| crate::expand::macros::contains(extent, s))
    {
        return; // the unknown instruction or macro is reported; nothing else
    }
    if b.kind == Kind::List && !contains_add(b) {
        out.push(
            Diagnostic::warning(
                codes::BLOCK_NEVER_ADDS,
                "this move block has no `add`: it can never produce a move",
            )
            .with_span(b.span),
        );
    }
    each_live_list(b, &mut |l| {
        if !matches!(l.head(), Some("add-partial" | "add-copy-partial")) {
            return;
        }
        let Some(tn) = l.args().last() else { return };
        let Some(t) = tn.atom() else { return };
        // `(add-partial King)`: a promotion that continues with the block's type.
        if types.contains(t) || (l.args().len() == 1 && piece_names.contains(t)) {
            return;
        }
        let near = suggestions(t, types.iter().map(String::as_str));
        let mut d = Diagnostic::error(
            codes::PARTIAL_TO_UNKNOWN_MOVE_TYPE,
            format!(
                "`{}` continues with move-type `{t}`, which no move block has",
                l.head().unwrap_or("")
            ),
        )
        .with_span(tn.span);
        if let Some(s) = near.first() {
            d = d.with_note(format!("did you mean `{s}`?"));
        }
        out.push(d);
    });
}

/// Piece images that name an unknown player (UNKNOWN_PLAYER).
fn check_image_players(sections: &[Node], out: &mut Vec<Diagnostic>) {
    // Images: the atoms of `(image P "file" … Q "file" …)` name players.
    let players: Vec<String> = sections
        .iter()
        .rfind(|s| s.head() == Some("players"))
        .map(|s| {
            s.args()
                .iter()
                .filter_map(Node::word)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    if !players.is_empty() {
        for p in sections.iter().filter(|s| s.head() == Some("piece")) {
            for img in p.args().iter().filter(|s| s.head() == Some("image")) {
                for a in img.args().iter().filter(|a| a.kind == Kind::Atom) {
                    if !players.contains(&a.text) {
                        let mut d = Diagnostic::error(
                            crate::diagnostics::codes::UNKNOWN_PLAYER,
                            format!("unknown player `{}` in the piece's `image`", a.text),
                        )
                        .with_span(a.span);
                        if let Some(s) = crate::text::name_suggestion(&a.text, &players) {
                            d = d.with_note(format!("did you mean `{s}`?"));
                        }
                        out.push(d);
                    }
                }
            }
        }
    }
}

/// Board setups that place two pieces on one position (DOUBLY_OCCUPIED).
fn check_doubly_occupied(sections: &[Node], out: &mut Vec<Diagnostic>) {
    // Board setup: a position set twice.
    for setup in sections.iter().filter(|s| s.head() == Some("board-setup")) {
        let mut seen: HashMap<&str, &Node> = HashMap::new();
        for player in setup.args() {
            for ty in player.args() {
                // `(TYPE pos … [off N])`: positions stop at `off`.
                let positions = ty.args().iter().take_while(|n| n.atom() != Some("off"));
                for pos in positions.filter(|n| n.kind == Kind::Atom) {
                    if let Some(prev) = seen.insert(&pos.text, pos) {
                        out.push(
                            Diagnostic::warning(
                                codes::DOUBLY_OCCUPIED,
                                format!(
                                    "position `{}` is set up twice (first at line {}, column {}): the later piece replaces the earlier one",
                                    pos.text, prev.span.line, prev.span.col
                                ),
                            )
                            .with_span(pos.span),
                        );
                    }
                }
            }
        }
    }
}

/// Board symmetry tables that are not one-to-one (ASYMMETRIC_SYMMETRY).
fn check_symmetry_tables(sections: &[Node], out: &mut Vec<Diagnostic>) {
    // Symmetry tables must be one-to-one.
    for sym in sections
        .iter()
        .filter(|s| s.head() == Some("board"))
        .flat_map(|b| b.args())
        .filter(|s| s.head() == Some("symmetry"))
    {
        let mut targets: HashMap<&str, &str> = HashMap::new();
        for pair in sym.args().iter().skip(1) {
            let [a, b] = pair.items.as_slice() else {
                continue;
            };
            let (Some(a), Some(b)) = (a.atom(), b.atom()) else {
                continue;
            };
            if let Some(prev) = targets.insert(b, a) {
                out.push(
                    Diagnostic::warning(
                        codes::ASYMMETRIC_SYMMETRY,
                        format!("symmetry maps both `{prev}` and `{a}` to `{b}`: the table is not one-to-one"),
                    )
                    .with_span(pair.span),
                );
            }
        }
    }
}

/// The instructions of move blocks, for "did you mean" on unknown ones.
const INSTRUCTIONS: &[&str] = &[
    "add",
    "add-copy",
    "add-partial",
    "add-copy-partial",
    "back",
    "capture",
    "cascade",
    "change-owner",
    "change-type",
    "create",
    "flip",
    "from",
    "go",
    "if",
    "mark",
    "opposite",
    "set-attribute",
    "set-flag",
    "set-position-flag",
    "to",
    "verify",
    "while",
];

/// The names a game declares, by kind, for "did you mean" suggestions on the compiler's
/// unknown-name findings.
fn declared_names(loaded: &Loaded, code: crate::diagnostics::Code) -> Vec<String> {
    use crate::diagnostics::codes as c;
    let mut names: Vec<String> = Vec::new();
    if code == c::UNKNOWN_INSTRUCTION {
        // An unknown call is usually a misspelt macro or instruction.
        names.extend(loaded.macros.iter().map(|m| m.name.clone()));
        names.extend(INSTRUCTIONS.iter().map(|s| (*s).to_owned()));
        return names;
    }
    let mut seen: HashSet<String> = HashSet::new();
    let mut push = |n: &Node| {
        if let Some(w) = n.word().filter(|w| !seen.contains(*w)) {
            seen.insert(w.to_owned());
            names.push(w.to_owned());
        }
    };
    for g in &loaded.games {
        each_list(&g.form, &mut |l| match (l.head(), code) {
            (Some("piece"), c::UNKNOWN_PIECE) => {
                if let Some(n) = l.name_value() {
                    push(n);
                }
            }
            (Some("players"), c::UNKNOWN_PLAYER) => l.args().iter().for_each(&mut push),
            (Some("zone"), c::UNKNOWN_ZONE) => {
                if let Some(n) = l.name_value() {
                    push(n);
                }
            }
            (Some("directions"), c::UNKNOWN_DIRECTION) => l
                .args()
                .iter()
                .filter_map(|d| d.items.first())
                .for_each(&mut push),
            (Some("links"), c::UNKNOWN_DIRECTION) => {
                l.args().first().into_iter().for_each(&mut push)
            }
            (Some("positions"), c::UNKNOWN_POSITION) => l
                .args()
                .iter()
                .filter_map(|d| d.items.first())
                .for_each(&mut push),
            (Some("dimensions"), c::UNKNOWN_POSITION) => {}
            _ => {}
        });
    }
    names
}

/// Adds "did you mean" notes to the compiler's unknown-name findings: the name between the
/// first pair of backquotes in the message is compared with the names the file declares.
pub fn add_suggestions(loaded: &Loaded, diags: &mut [Diagnostic]) {
    use crate::diagnostics::codes as c;
    let mut cache: Vec<(crate::diagnostics::Code, Vec<String>)> = Vec::new();
    for d in diags.iter_mut() {
        if ![
            c::UNKNOWN_PIECE,
            c::UNKNOWN_PLAYER,
            c::UNKNOWN_ZONE,
            c::UNKNOWN_DIRECTION,
            c::UNKNOWN_POSITION,
            c::UNKNOWN_INSTRUCTION,
        ]
        .contains(&d.code)
            || d.notes.iter().any(|n| n.starts_with("did you mean"))
        {
            continue;
        }
        // One- and two-letter names (directions like `e`) are all "near" each other.
        let Some(name) = d
            .message
            .split('`')
            .nth(1)
            .filter(|n| n.chars().count() >= 3)
        else {
            continue;
        };
        // Each kind of name is gathered once per file, not once per finding.
        let candidates = match cache.iter().position(|(c, _)| *c == d.code) {
            Some(i) => &cache[i].1,
            None => {
                cache.push((d.code, declared_names(loaded, d.code)));
                &cache[cache.len() - 1].1
            }
        };
        // The names are gathered from every game of the file: a name another game declares
        // is not a typo to suggest a fix for in this one.
        if let Some(s) = suggestions(name, candidates.iter().map(String::as_str))
            .into_iter()
            .find(|s| *s != name)
        {
            d.notes.push(format!("did you mean `{s}`?"));
        }
    }
}
