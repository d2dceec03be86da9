//! ZRF → Axiom: the ForthScript declarations of a rules file's games (`dagaz convert
//! GAME.zrf --to axiom`), as the Axiom Development Kit's ZRF Converter writes them.
//!
//! An Axiom game starts as a ZRF whose moves come from `(engine "…/axiom.dll")`; the
//! converter turns what the ZRF declares into the ForthScript blocks of dagaz's Axiom layer
//! (`src/axiom/layer.4th`, which follows Axiom's `axiom.4th`), and the author writes the
//! rest (the move words, `OnIsGameOver`, `OnEvaluate`) by hand:
//!
//! - `{board … board}`: `R C {grid}` when the first positions of the model are, in order,
//!   the positions `{grid}` makes (column letter from `a`, row number; index 0 is the
//!   top-left cell, row `R`, or with `$flipGrid ON` row 1), then `{position} NAME` for the
//!   others, in the model's position order;
//! - `{directions … directions}`: `dr dc {direction} NAME` when a direction is one offset
//!   of that grid everywhere, else `{link} NAME FROM TO` per link;
//! - `{players … players}`: random players (`?Dice`) with `{random}`, the others with the
//!   engine of the game's `(option "ai" …)` (`random` → `{random}`, `first` → `{first}`,
//!   `mcts` → `{UCT}`; otherwise Axiom's default search);
//! - `{symmetries … symmetries}`: `PLAYER {symmetry} a b` for a pair that swaps,
//!   `PLAYER {asymmetry} a b` for a one-way mapping;
//! - `{turn-order … turn-order}` (`{repeat}`, `{for-player}`, `{of-type}`),
//!   `{move-priorities … move-priorities}`;
//! - `{pieces … pieces}`: `{piece} NAME`, with a comment naming the move and drop blocks
//!   to write by hand, and `N {value}` from `(option "ai value NAME" N)`;
//! - `{board-setup … board-setup}`: `{setup} PLAYER PIECE POSITION`;
//! - `$passTurnForced ON` for `(option "pass turn" forced)`.
//!
//! Each game gets `NAME.4th` (its title with spaces turned into `-`, as Axiom names the file
//! of a variant; the file stem when the game has no title). Each variant gets its own file,
//! named from its title the same way, holding `LOAD NAME.4th`, its `{players}` block (where
//! a variant chooses its engines) and the blocks that differ from its game's; a variant
//! whose board, directions, players or symmetries differ is written whole (a `LOAD`ed board
//! cannot be declared again). Everything else gets a diagnostic (`DZ1101`–`DZ1108`): what is
//! written by hand, what has no counterpart, what stays in the rules file for ZoG's
//! interface, and the names that would not load or would hide a word of the layer.
//!
//! [`to_axiom`] returns the files as data, with the diagnostics; the CLI writes them.

use crate::diagnostics::{Diagnostic, Severity, codes};
use crate::expand::{GameDef, Loaded};
use crate::model::{Model, PositionId, piece};
use crate::span::Span;
use crate::syntax::Node;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

/// One generated ForthScript file.
#[derive(Clone, Debug, PartialEq)]
pub struct AxiomFile {
    /// The file name (`Ur.4th`, `Ur-[random].4th`).
    pub name: String,
    /// The text, `\n` line ends.
    pub text: String,
    /// Index into [`Loaded::games`] of the game or variant it declares.
    pub game: usize,
    /// The file it `LOAD`s (its game's), for a variant written as its differences.
    pub loads: Option<String>,
}

/// The result of a conversion: the files, in the order of the file's games and variants,
/// and the findings.
#[derive(Clone, Debug, Default)]
pub struct Conversion {
    pub files: Vec<AxiomFile>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Converts every game and variant of `loaded` (see the module documentation).
pub fn to_axiom(loaded: &Loaded) -> Conversion {
    let main = loaded.sources.get(loaded.main);
    let source_name = main
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| main.display.clone());
    let files = FileLabels::new(loaded, &source_name);
    let stem = std::path::Path::new(&source_name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".to_owned());

    let mut out = Conversion::default();
    let mut diags = Vec::new();
    let mut names = FileNames::default();
    // Per game: its declarations and file name, when it compiled.
    let mut decls: Vec<Option<(Decl, String)>> = Vec::with_capacity(loaded.games.len());
    for g in &loaded.games {
        let model = match Model::compile_zrf_part(g) {
            Ok(m) => m,
            Err(mut d) => {
                if let Some(e) = d.iter_mut().find(|d| d.is_error()) {
                    e.notes.push(format!(
                        "no .4th file is written for `{}`",
                        crate::text::printable(&g.title)
                    ));
                }
                diags.extend(d);
                decls.push(None);
                continue;
            }
        };
        diags.extend(model.warnings.iter().cloned().map(|mut d| {
            // As the model stage shows them: the engine recovers from these.
            if d.is_error() {
                d.severity = Severity::Warning;
            }
            d
        }));
        let decl = Decl::new(&model, g, &files, &mut diags);
        let name = names.file_name(g, &stem, &mut diags);
        decls.push(Some((decl, name)));
    }
    // Then the texts (a variant written before its game's form follows it too).
    for (gi, g) in loaded.games.iter().enumerate() {
        let Some((decl, name)) = &decls[gi] else {
            continue;
        };
        let base = base_of(loaded, gi).and_then(|b| Some((b, decls[b].as_ref()?)));
        let (text, loads) = match base {
            Some((b, (base, base_name))) => variant_text(
                decl,
                (base, base_name),
                (name, g),
                &loaded.games[b].title,
                &source_name,
                &mut diags,
            ),
            None => (whole_text(decl, &header(name, g, None, &source_name)), None),
        };
        out.files.push(AxiomFile {
            name: name.clone(),
            text,
            game: gi,
            loads,
        });
    }
    // Variants share their game's sections: each finding once, in the order of the file.
    diags.sort_by_key(|d| d.span.map_or((u32::MAX, 0), |s| (s.file.0, s.offset)));
    out.diagnostics = crate::diagnostics::without_repeats(diags);
    out
}

/// The files as one text, as `dagaz convert --to axiom` prints them without `-o`: each
/// file after a header line `==> NAME <==`, an empty line between files.
pub fn listing(files: &[AxiomFile]) -> String {
    let mut s = String::new();
    for (i, f) in files.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        let _ = writeln!(s, "==> {} <==", f.name);
        s.push_str(&f.text);
    }
    s
}

/// The index in `loaded.games` of the game a variant belongs to.
fn base_of(loaded: &Loaded, gi: usize) -> Option<usize> {
    let g = &loaded.games[gi];
    if !g.is_variant {
        return None;
    }
    loaded
        .games
        .iter()
        .position(|b| !b.is_variant && b.base_index == g.base_index)
}

/// `file:line:col` of a span for the comments of the generated files: the rules file's
/// name without its folders (the output stays the same wherever the file is), an included
/// file as the expansion shows it.
struct FileLabels {
    names: Vec<String>,
}

impl FileLabels {
    fn new(loaded: &Loaded, source_name: &str) -> Self {
        let names = loaded
            .file_names()
            .into_iter()
            .map(|n| n.unwrap_or_else(|| source_name.to_owned()))
            .collect();
        FileLabels { names }
    }

    fn at(&self, s: Span) -> String {
        let f = self
            .names
            .get(s.file.0 as usize)
            .map_or("?", String::as_str);
        format!("{f}:{}:{}", s.line, s.col)
    }
}

/// File names handed out so far (compared without case: the files may meet on Windows).
#[derive(Default)]
struct FileNames {
    taken: HashSet<String>,
}

impl FileNames {
    /// `TITLE.4th` with spaces turned into `-`, the file stem without a title; a title that
    /// is not a plain file name, or a name already taken, gets a warning and a name that is.
    fn file_name(&mut self, g: &GameDef, stem: &str, diags: &mut Vec<Diagnostic>) -> String {
        let title_node = g
            .form
            .child_form("title")
            .and_then(|t| t.args().first().map(|a| (t, a)));
        let (mut base, at) = match title_node.and_then(|(t, a)| Some((a.word()?, t.span))) {
            Some((title, span)) => (title.trim().replace(' ', "-"), Some(span)),
            None => (stem.to_owned(), None),
        };
        let plain = |s: &str| {
            !s.is_empty()
                && !s.starts_with('.')
                && !s.chars().any(|c| {
                    c.is_control()
                        || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')
                })
        };
        if !plain(&base) {
            let fixed: String = base
                .chars()
                .map(|c| {
                    if c.is_control()
                        || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')
                    {
                        '_'
                    } else {
                        c
                    }
                })
                .collect();
            let fixed = fixed.trim_start_matches('.').to_owned();
            let fixed = if fixed.is_empty() {
                stem.to_owned()
            } else {
                fixed
            };
            let mut d = Diagnostic::warning(
                codes::AXIOM_VARIANT_FILE,
                format!(
                    "the title `{}` is not a plain file name: its file is written as `{fixed}.4th`",
                    crate::text::printable(&g.title)
                ),
            )
            .with_note("ZoG and dagaz look for the file named by the title (spaces turned into `-`): rename the title or the file");
            if let Some(s) = at {
                d = d.with_span(s);
            }
            diags.push(d);
            base = fixed;
        }
        let mut name = format!("{base}.4th");
        let mut k = 2;
        while self.taken.contains(&name.to_lowercase()) {
            name = format!("{base}-{k}.4th");
            k += 1;
        }
        if k > 2 {
            let mut d = Diagnostic::warning(
                codes::AXIOM_VARIANT_FILE,
                format!(
                    "`{}` names the same file as an earlier game or variant: written as `{name}`",
                    crate::text::printable(&g.title)
                ),
            )
            .with_note(
                "file names are compared without case; give each game and variant its own title",
            );
            if let Some(s) = at {
                d = d.with_span(s);
            }
            diags.push(d);
        }
        self.taken.insert(name.to_lowercase());
        name
    }
}

/// The first comment lines of a file.
fn header(name: &str, g: &GameDef, base: Option<&str>, source: &str) -> String {
    let one_line = |s: &str| s.replace(['\n', '\r', '\t'], " ");
    let what = match base {
        Some(b) => format!("variant \"{}\" of \"{}\"", one_line(&g.title), one_line(b)),
        None if g.is_variant => format!("variant \"{}\"", one_line(&g.title)),
        None => format!("game \"{}\"", one_line(&g.title)),
    };
    format!(
        "\\ {name}: made by `dagaz convert --to axiom` from {}, {what}.\n",
        one_line(source)
    )
}

/// The text of a game written whole.
fn whole_text(d: &Decl, header: &str) -> String {
    let mut s = header.to_owned();
    s.push_str(
        "\\ Write by hand: the pieces' move words ({moves}, {drops}), OnIsGameOver, OnEvaluate.\n",
    );
    for block in [
        &d.board,
        &d.directions,
        &d.players,
        &d.symmetries,
        &d.turn_order,
        &d.priorities,
        &d.pieces,
        &d.setup,
    ] {
        if !block.is_empty() {
            s.push('\n');
            s.push_str(block);
        }
    }
    if d.pass_forced {
        s.push_str("\n$passTurnForced ON\n");
    }
    s
}

/// A variant's text: `LOAD` of its game's file and the blocks that differ, or the whole
/// declarations when its board, directions, players or symmetries differ. Returns the text
/// and the file it loads.
fn variant_text(
    d: &Decl,
    (base, base_name): (&Decl, &str),
    (name, g): (&str, &GameDef),
    base_title: &str,
    source: &str,
    diags: &mut Vec<Diagnostic>,
) -> (String, Option<String>) {
    let head = header(name, g, Some(base_title), source);
    let mut whole = Vec::new();
    if d.board != base.board {
        whole.push("board");
    }
    if d.directions != base.directions {
        whole.push("directions");
    }
    if d.player_names != base.player_names {
        whole.push("players");
    }
    if d.symmetries != base.symmetries {
        whole.push("symmetries");
    }
    if !whole.is_empty() {
        let what = match whole.len() {
            1 => format!("{} differs", whole[0]),
            _ => format!("{} differ", whole.join(", ")),
        };
        let mut diag = Diagnostic::new(
            codes::AXIOM_VARIANT_WHOLE,
            Severity::Note,
            format!(
                "variant `{}` is written whole, without `LOAD {base_name}`: its {what} from its game's",
                crate::text::printable(&g.title)
            ),
        )
        .with_note("a board, its directions, the players and their symmetries cannot be declared again after a LOAD");
        if let Some(t) = g.form.child_form("title") {
            diag = diag.with_span(t.span);
        }
        diags.push(diag);
        let head = format!(
            "{head}\\ Written whole: its {what} from {base_name}'s, and a LOADed board cannot be declared again.\n"
        );
        return (whole_text(d, &head), None);
    }
    let mut s = head;
    let _ = writeln!(s, "\nLOAD {base_name}");
    // The players always: this is where a variant chooses its engines.
    s.push('\n');
    s.push_str(&d.players);
    for (mine, theirs, empty) in [
        (&d.turn_order, &base.turn_order, ""),
        (
            &d.priorities,
            &base.priorities,
            "{move-priorities\nmove-priorities}\n",
        ),
        (&d.pieces, &base.pieces, ""),
        (&d.setup, &base.setup, "{board-setup\nboard-setup}\n"),
    ] {
        if mine != theirs {
            s.push('\n');
            // An empty block clears what the game declared.
            s.push_str(if mine.is_empty() { empty } else { mine });
        }
    }
    if d.pass_forced != base.pass_forced {
        let _ = writeln!(
            s,
            "\n$passTurnForced {}",
            if d.pass_forced { "ON" } else { "OFF" }
        );
    }
    (s, Some(base_name.to_owned()))
}

/// The words of dagaz's layer, prelude and host words, and the layer's own words, for the
/// name checks (the layer is loaded once per process).
struct LayerWords {
    /// Every word, exactly spelt.
    all: HashSet<String>,
    /// Every word, by its lowercased name (the latest spelling).
    all_lower: HashMap<String, String>,
    /// The words of the layer itself, exactly spelt.
    layer: HashSet<String>,
}

fn layer_words() -> &'static LayerWords {
    static WORDS: OnceLock<LayerWords> = OnceLock::new();
    WORDS.get_or_init(|| {
        use crate::forth::{Limits, NoHost, Vm};
        let mut vm = Vm::new(Limits::default());
        let _ = vm.interpret_str("<prelude>", crate::forth::PRELUDE, &mut NoHost);
        for n in crate::axiom::natives::NATIVES {
            let _ = vm.define_native(n);
        }
        let before: HashSet<String> = vm.words().into_iter().map(|(n, _)| n).collect();
        let _ = vm.interpret_str("<layer>", crate::axiom::layer::LAYER, &mut NoHost);
        let after: Vec<String> = vm.words().into_iter().map(|(n, _)| n).collect();
        LayerWords {
            all: after.iter().cloned().collect(),
            all_lower: after
                .iter()
                .rev()
                .map(|n| (n.to_lowercase(), n.clone()))
                .collect(),
            layer: after.into_iter().filter(|n| !before.contains(n)).collect(),
        }
    })
}

/// Words the generated text itself runs, besides the layer's declaration words.
const WORDS_WRITTEN: &[&str] = &["LOAD", "ON", "OFF", "FALSE", "\\", "(", "@"];

/// The declarations of one game, block by block (each block's text ends with `\n`; an
/// empty string when the game has nothing for it).
struct Decl {
    board: String,
    directions: String,
    players: String,
    player_names: Vec<String>,
    symmetries: String,
    turn_order: String,
    priorities: String,
    pieces: String,
    setup: String,
    pass_forced: bool,
}

/// How the board's first positions are a `{grid}`: rows, columns, `$flipGrid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    pub rows: usize,
    pub columns: usize,
    pub flipped: bool,
}

impl Grid {
    fn cells(self) -> usize {
        self.rows * self.columns
    }

    /// The name `{grid}` gives index `i`.
    #[cfg(test)]
    fn name(self, i: usize) -> String {
        let (r, c) = (i / self.columns, i % self.columns);
        let row = if self.flipped { r + 1 } else { self.rows - r };
        format!("{}{row}", (b'a' + c as u8) as char)
    }

    /// Where a step of `dr` rows and `dc` columns leads from grid index `i` (the layer's
    /// `$GridTarget`).
    fn target(self, dr: i64, dc: i64, i: usize) -> Option<usize> {
        let r = (i / self.columns) as i64 + dr;
        let c = (i % self.columns) as i64 + dc;
        ((0..self.rows as i64).contains(&r) && (0..self.columns as i64).contains(&c))
            .then(|| (r * self.columns as i64 + c) as usize)
    }
}

/// The row number of a grid name `a12` (`None` unless a lowercase letter and a decimal
/// number without a leading zero).
fn grid_row(name: &str) -> Option<(u8, usize)> {
    let (&l, digits) = name.as_bytes().split_first()?;
    let digits = std::str::from_utf8(digits).ok()?;
    if !l.is_ascii_lowercase()
        || digits.is_empty()
        || digits.starts_with('0')
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((l - b'a', digits.parse().ok()?))
}

/// The largest `{grid}` whose positions are the first of `names`, in order (at least two
/// cells; unflipped preferred).
pub(crate) fn find_grid(names: &[String]) -> Option<Grid> {
    let (col, row) = grid_row(names.first()?)?;
    if col != 0 {
        return None;
    }
    // Columns: the first row's names a, b, c… with the same row number.
    let columns = names
        .iter()
        .take(26)
        .enumerate()
        .take_while(|(c, n)| grid_row(n) == Some((*c as u8, row)))
        .count();
    let fits = |g: Grid| {
        (0..g.cells()).all(|i| {
            names.get(i).is_some_and(|n| {
                grid_row(n) == Some(((i % g.columns) as u8, g.rows - i / g.columns))
            })
        })
    };
    let down = Grid {
        rows: row,
        columns,
        flipped: false,
    };
    let down = (down.cells() <= names.len() && fits(down)).then_some(down);
    let mut up = None;
    if row == 1 {
        // Row by row: row r of a flipped grid is named the same whatever the grid's height.
        let row_fits = |r: usize| {
            (0..columns).all(|c| {
                names
                    .get(r * columns + c)
                    .is_some_and(|n| grid_row(n) == Some((c as u8, r + 1)))
            })
        };
        let rows = (1..).take_while(|&r| row_fits(r)).count() + 1;
        up = Some(Grid {
            rows,
            columns,
            flipped: true,
        });
    }
    let best = match (down, up) {
        (Some(d), Some(u)) if u.rows > d.rows => Some(u),
        (Some(d), _) => Some(d),
        (None, u) => u,
    };
    // A single row or column is a grid only when it is the whole board.
    best.filter(|g| g.cells() >= 2 && (g.rows >= 2 && g.columns >= 2 || g.cells() == names.len()))
}

/// The parts of a game form the checks look at.
struct Forms<'g> {
    game: &'g Node,
    /// Piece forms by name (the last one of a name wins, as in the model).
    pieces: HashMap<&'g str, &'g Node>,
}

impl<'g> Forms<'g> {
    fn new(game: &'g Node) -> Self {
        let pieces = game
            .args()
            .iter()
            .filter(|s| s.head() == Some("piece"))
            .filter_map(|s| Some((s.name_value()?.word()?, s)))
            .collect();
        Forms { game, pieces }
    }

    /// Where a name is written in the sections with these heads (the first leaf with that
    /// text), else the first such section, else the game.
    fn span_of(&self, name: &str, heads: &[&str]) -> Span {
        fn find(n: &Node, name: &str) -> Option<Span> {
            if n.is_list() {
                n.items.iter().find_map(|c| find(c, name))
            } else {
                (n.text == name).then_some(n.span)
            }
        }
        let sections: Vec<&Node> = self
            .game
            .args()
            .iter()
            .filter(|s| s.head().is_some_and(|h| heads.contains(&h)))
            .collect();
        sections
            .iter()
            .find_map(|s| s.args().iter().find_map(|a| find(a, name)))
            .or(sections.first().map(|s| s.span))
            .unwrap_or(self.game.span)
    }
}

/// Sections of a game that only ZoG's interface reads.
const INTERFACE_SECTIONS: &[&str] = &[
    "description",
    "history",
    "strategy",
    "solution",
    "engine",
    "version",
    "default",
    "open",
    "music",
    "opening-sound",
    "release-sound",
    "capture-sound",
    "change-sound",
    "click-sound",
    "drop-sound",
    "move-sound",
    "win-sound",
    "loss-sound",
    "draw-sound",
    "image",
    "help",
    "notation",
    "piece-images",
    "credits",
    "sound",
];

/// Options that only ZoG's interface reads.
const INTERFACE_OPTIONS: &[&str] = &[
    "animate captures",
    "animate drops",
    "show moves list",
    "highlight goals",
    "prevent flipping",
    "smart moves",
    "discard cannot-move pieces",
    "show captured pieces",
];

impl Decl {
    fn new(m: &Model, g: &GameDef, files: &FileLabels, diags: &mut Vec<Diagnostic>) -> Decl {
        let forms = Forms::new(&g.form);
        let literals = check_names(m, &forms, diags);
        let grid = find_grid(&m.positions);
        report_sections(&forms, grid, &m.position_index, diags);
        let (engine, values) = ai_options(m, &forms, literals, diags);

        // Board.
        let mut board = String::new();
        if grid.is_some_and(|g| g.flipped) {
            board.push_str("$flipGrid ON\n");
        }
        board.push_str("{board\n");
        let from = match grid {
            Some(gr) => {
                let _ = writeln!(board, "\t{} {} {{grid}}", gr.rows, gr.columns);
                gr.cells()
            }
            None => 0,
        };
        for p in &m.positions[from..] {
            let _ = writeln!(board, "\t{{position}}\t{p}");
        }
        board.push_str("board}\n");

        // Directions.
        let mut directions = String::new();
        if !m.directions.is_empty() {
            directions.push_str("{directions\n");
            for (d, dname) in m.directions.iter().enumerate() {
                direction(m, grid, literals, d as u32, dname, &mut directions);
            }
            directions.push_str("directions}\n");
        }

        // Players.
        let mut players = String::from("{players\n");
        for p in &m.players {
            let _ = write!(players, "\t{{player}}\t{}", p.name);
            if p.random {
                players.push_str("\t{random}");
            } else if let Some(e) = engine {
                let _ = write!(players, "\t{e}");
            }
            players.push('\n');
        }
        players.push_str("players}\n");

        // Symmetries: a pair that swaps, else one way.
        let mut symmetries = String::new();
        for (pi, sym) in m.symmetry.iter().enumerate() {
            let pname = &m.players[pi].name;
            for (d, &to) in sym.iter().enumerate() {
                let t = to as usize;
                if t == d || t >= m.directions.len() {
                    continue;
                }
                let (a, b) = (&m.directions[d], &m.directions[t]);
                if sym[t] as usize == d {
                    if d < t {
                        let _ = writeln!(symmetries, "\t{pname}\t{{symmetry}}\t{a}\t{b}");
                    }
                } else {
                    let _ = writeln!(symmetries, "\t{pname}\t{{asymmetry}}\t{a}\t{b}");
                }
            }
        }
        if !symmetries.is_empty() {
            symmetries = format!("{{symmetries\n{symmetries}symmetries}}\n");
        }

        // Turn order.
        let mut turn_order = String::from("{turn-order\n");
        for (i, t) in m.turns.iter().enumerate() {
            if i == m.repeat_from && i > 0 {
                turn_order.push_str("\t{repeat}\n");
            }
            let _ = write!(
                turn_order,
                "\t{{turn}}\t{}",
                m.players[t.player.index()].name
            );
            if t.pieces_of != t.player {
                let _ = write!(
                    turn_order,
                    "\t{{for-player}}\t{}",
                    m.players[t.pieces_of.index()].name
                );
            }
            if let Some(ty) = t.move_type {
                let _ = write!(turn_order, "\t{{of-type}}\t{}", m.move_types[ty.index()]);
            }
            turn_order.push('\n');
        }
        turn_order.push_str("turn-order}\n");

        // Move priorities, in rank order.
        let mut priorities = String::new();
        if m.has_priorities {
            let listed = m.priority_rank.iter().copied().max().unwrap_or(0);
            let mut ranked: Vec<(u32, usize)> = m
                .priority_rank
                .iter()
                .enumerate()
                .filter(|&(t, &r)| t > 0 && r < listed)
                .map(|(t, &r)| (r, t))
                .collect();
            ranked.sort();
            priorities.push_str("{move-priorities\n");
            for (_, t) in ranked {
                let _ = writeln!(priorities, "\t{{move-priority}}\t{}", m.move_types[t]);
            }
            priorities.push_str("move-priorities}\n");
        }

        // Pieces.
        let mut pieces = String::from("{pieces\n");
        for t in &m.piece_types {
            let _ = write!(pieces, "\t{{piece}}\t{}", t.name);
            if let Some(v) = values.get(t.name.as_str()) {
                let _ = write!(pieces, "\t{v} {{value}}");
            }
            let form = forms.pieces.get(t.name.as_str());
            let block = |head: &str, n: usize, what: &str| -> Option<String> {
                if n == 0 {
                    return None;
                }
                let at = form
                    .and_then(|f| f.child_form(head))
                    .map(|s| format!(" at {}", files.at(s.span)))
                    .unwrap_or_default();
                let s = if n == 1 { "" } else { "s" };
                Some(format!("{n} {what} block{s}{at}"))
            };
            let todo: Vec<String> = [
                block("moves", t.moves.len(), "move"),
                block("drops", t.drops.len(), "drop"),
            ]
            .into_iter()
            .flatten()
            .collect();
            if !todo.is_empty() {
                let _ = write!(pieces, "\t\\ write by hand: {}", todo.join(", "));
            }
            pieces.push('\n');
        }
        pieces.push_str("pieces}\n");

        // Setup.
        let mut setup = String::new();
        if !m.setup.is_empty() {
            setup.push_str("{board-setup\n");
            for &(pos, pc) in &m.setup {
                let _ = writeln!(
                    setup,
                    "\t{{setup}}\t{}\t{}\t{}",
                    m.players[piece::owner(pc).index()].name,
                    m.piece_types[piece::ty(pc).index()].name,
                    m.positions[pos.index()]
                );
            }
            setup.push_str("board-setup}\n");
        }

        Decl {
            board,
            directions,
            players,
            player_names: m.players.iter().map(|p| p.name.clone()).collect(),
            symmetries,
            turn_order,
            priorities,
            pieces,
            setup,
            pass_forced: m.options.pass_turn == crate::model::PassTurn::Forced,
        }
    }
}

/// Writes direction `d`: one grid offset (and the links of the other positions), else its
/// links one by one; a direction without a link is declared with an offset that leads off
/// the board everywhere.
fn direction(m: &Model, grid: Option<Grid>, literals: bool, d: u32, name: &str, out: &mut String) {
    let n = m.num_positions();
    let link = |p: usize| m.link(PositionId::new(p as u32), d).to_option();
    let links: Vec<(usize, usize)> = (0..n)
        .filter_map(|p| link(p).map(|t| (p, t.index())))
        .collect();
    if links.is_empty() {
        let zero = if literals { "0" } else { "FALSE" };
        let _ = writeln!(out, "\t$rows @ {zero} {{direction}}\t{name}\t\\ no link");
        return;
    }
    let offset = grid.filter(|_| literals).and_then(|g| {
        let cells = g.cells();
        let &(p, t) = links.iter().find(|&&(p, _)| p < cells)?;
        if t >= cells {
            return None;
        }
        let dr = (t / g.columns) as i64 - (p / g.columns) as i64;
        let dc = (t % g.columns) as i64 - (p % g.columns) as i64;
        (0..cells)
            .all(|i| g.target(dr, dc, i) == link(i).map(PositionId::index))
            .then_some((g, dr, dc))
    });
    let from = match offset {
        Some((g, dr, dc)) => {
            let _ = writeln!(out, "\t{dr} {dc} {{direction}}\t{name}");
            g.cells()
        }
        None => {
            let _ = writeln!(out, "\t( {name} )");
            0
        }
    };
    for &(p, t) in links.iter().filter(|&&(p, _)| p >= from) {
        let _ = writeln!(
            out,
            "\t{{link}}\t{name}\t{}\t{}",
            m.positions[p], m.positions[t]
        );
    }
}

/// Checks every name the declarations write: a name that cannot be a Forth word, that two
/// kinds of names share, or that is a word the declarations or the runtime use, would not
/// load (`DZ1104`); a number or a word of the layer hides that word from the code written
/// by hand (`DZ1105`). Returns whether numbers may be written after the board (no name is
/// one).
fn check_names(m: &Model, forms: &Forms<'_>, diags: &mut Vec<Diagnostic>) -> bool {
    let kinds: [(&str, Vec<&str>, &[&str]); 5] = [
        (
            "position",
            m.positions.iter().map(String::as_str).collect(),
            &["board"],
        ),
        (
            "direction",
            m.directions.iter().map(String::as_str).collect(),
            &["board"],
        ),
        (
            "player",
            m.players.iter().map(|p| p.name.as_str()).collect(),
            &["players"],
        ),
        (
            "piece",
            m.piece_types.iter().map(|t| t.name.as_str()).collect(),
            &["piece"],
        ),
        (
            "move type",
            m.move_types.iter().skip(1).map(String::as_str).collect(),
            &["piece", "turn-order", "move-priorities"],
        ),
    ];
    let words = layer_words();
    let mut literals = true;
    let mut first_kind: HashMap<&str, &str> = HashMap::new();
    for (kind, names, heads) in &kinds {
        for &name in names {
            let at = || forms.span_of(name, heads);
            let bad =
                name.is_empty() || name.len() > 255 || name.bytes().any(|b| b <= b' ' || b == 0x7f);
            if bad {
                diags.push(
                    Diagnostic::error(
                        codes::AXIOM_BAD_NAME,
                        format!(
                            "{kind} `{}` cannot be a ForthScript word",
                            crate::text::printable(name)
                        ),
                    )
                    .with_span(at())
                    .with_note("a word is 1 to 255 characters without blanks or control characters: rename it"),
                );
                continue;
            }
            if let Some(other) = first_kind.get(name) {
                diags.push(
                    Diagnostic::error(
                        codes::AXIOM_BAD_NAME,
                        format!("`{name}` names both a {other} and a {kind}"),
                    )
                    .with_span(at())
                    .with_note("ForthScript has one dictionary: the later word hides the earlier one, so a declaration that names the earlier one fails to load and the move words cannot name it; rename one of them"),
                );
                continue;
            }
            first_kind.insert(name, kind);
            let runtime = words.layer.contains(name)
                && (name.starts_with(['$', '#', '{', '.'])
                    || name.ends_with('}')
                    || name.starts_with("On"))
                || WORDS_WRITTEN.contains(&name);
            if runtime {
                diags.push(
                    Diagnostic::error(
                        codes::AXIOM_BAD_NAME,
                        format!("{kind} `{name}` is a word the declarations or the runtime use"),
                    )
                    .with_span(at())
                    .with_note("declared as a word, it would hide the layer's: rename it"),
                );
                continue;
            }
            let number = crate::forth::interp::parse_number(name.as_bytes(), 10).is_some();
            if number {
                literals = false;
            }
            let hidden = if number {
                Some(format!("the number {name}"))
            } else {
                words
                    .all_lower
                    .get(&name.to_lowercase())
                    .map(|w| format!("the word `{w}`"))
            };
            if let Some(hidden) = hidden {
                let mut d = Diagnostic::warning(
                    codes::AXIOM_NAME_SHADOWS_WORD,
                    format!("{kind} `{name}` hides {hidden} from the code written after its declaration"),
                )
                .with_span(at())
                .with_note(format!("in the move words, `{name}` will mean the {kind}: rename it, or write them with that in mind"));
                // Axiom's own `{link}` and `{of-type}`/`{move-type}` look the name up and
                // use the word they find; dagaz's layer checks that it is a direction
                // or a move type.
                let finder = match *kind {
                    "direction" => Some("`{link}` writes the links into that word"),
                    "move type" => Some("`{of-type}` and `{move-type}` run that word"),
                    _ => None,
                };
                if let (Some(f), true) = (finder, words.all.contains(name)) {
                    d = d.with_note(format!("with Axiom's own axiom.4th, {f} instead of declaring a new one: rename it before using the files there"));
                }
                diags.push(d);
            }
        }
    }
    literals
}

/// The engine word of the game's `(option "ai" …)`, and the piece values of its `ai value`
/// options; the other `ai …` options get a diagnostic.
fn ai_options<'g>(
    m: &Model,
    forms: &Forms<'g>,
    literals: bool,
    diags: &mut Vec<Diagnostic>,
) -> (Option<&'static str>, HashMap<&'g str, i64>) {
    let mut engine = None;
    let mut values = HashMap::new();
    for s in forms.game.args() {
        let Some(o) = crate::expand::options::option_section(s) else {
            continue;
        };
        let value = o.value.and_then(Node::word).unwrap_or("");
        let no_counterpart =
            |what: String| Diagnostic::warning(codes::AXIOM_NO_COUNTERPART, what).with_span(s.span);
        if o.name == "ai" {
            engine = match value {
                "random" => Some("{random}"),
                "first" => Some("{first}"),
                "mcts" | "uct" => Some("{UCT}"),
                "alphabeta" | "alpha-beta" | "negamax" | "expectimax" => None,
                other => {
                    diags.push(
                        no_counterpart(format!("the AI `{other}` has no Axiom engine: the players play Axiom's default search"))
                            .with_note("write an engine word and name it with `{search-engine} WORD` after the player, if the default will not do"),
                    );
                    None
                }
            };
        } else if let Some(ty) = o.name.strip_prefix("ai value ") {
            match value.parse::<i64>() {
                Ok(v) if literals && m.piece_type(ty).is_some() => {
                    values.insert(ty, v);
                }
                _ => diags.push(no_counterpart(format!(
                    "option `{}`: no piece value is written (not a piece, not an integer, or numbers are hidden by a name)",
                    o.name
                ))),
            }
        } else if o.name.starts_with("ai ") {
            diags.push(
                no_counterpart(format!(
                    "option `{}` has no ForthScript counterpart",
                    o.name
                ))
                .with_note("evaluation terms belong in OnEvaluate; the search depth is `dagaz autoplay --depth`"),
            );
        }
    }
    (engine, values)
}

/// Reports what the declarations leave out: moves, drops and goals to write by hand, what
/// has no counterpart, what stays in the rules file for ZoG's interface.
fn report_sections(
    forms: &Forms<'_>,
    grid: Option<Grid>,
    positions: &HashMap<String, PositionId>,
    diags: &mut Vec<Diagnostic>,
) {
    let by_hand = |s: &Node, what: String, note: &str| {
        Diagnostic::warning(codes::AXIOM_WRITE_BY_HAND, what)
            .with_span(s.span)
            .with_note(note.to_owned())
    };
    let no_counterpart = |s: &Node, what: String, note: &str| {
        Diagnostic::warning(codes::AXIOM_NO_COUNTERPART, what)
            .with_span(s.span)
            .with_note(note.to_owned())
    };
    // Interface sections, one finding per kind.
    let mut interface: Vec<(String, Span, usize)> = Vec::new();
    let mut note_interface =
        |what: &str, span: Span| match interface.iter_mut().find(|(w, _, _)| w == what) {
            Some(e) => e.2 += 1,
            None => interface.push((what.to_owned(), span, 1)),
        };
    let zone = |s: &Node| {
        let name = s.name_value().and_then(Node::word).unwrap_or("?");
        no_counterpart(
            s,
            format!("zone `{name}` has no ForthScript counterpart"),
            "test the positions in the move words (`here a1 = here b1 = OR`)",
        )
    };
    for s in forms.game.args() {
        let Some(head) = s.head() else { continue };
        match head {
            // The title names the file.
            "title" | "players" | "turn-order" | "move-priorities" | "symmetry" => {}
            "board" => {
                for b in s.args() {
                    match b.head() {
                        Some("image") => note_interface("board image", b.span),
                        Some("zone") => diags.push(zone(b)),
                        Some("dummy") => diags.push(no_counterpart(
                            b,
                            "dummy positions have no ForthScript counterpart: they are written as ordinary positions".into(),
                            "keep drops off them in the drop words",
                        )),
                        Some("grid") if !in_grid(b, grid, positions) => {
                            let dims = b
                                .child_form("dimensions")
                                .map_or(0, |d| d.args().len());
                            let killed = s.args().iter().any(|k| k.head() == Some("kill-positions"));
                            let why = if killed {
                                "`kill-positions` removes some of its cells".to_owned()
                            } else if dims != 2 {
                                format!("it has {dims} dimension{}", if dims == 1 { "" } else { "s" })
                            } else {
                                "its position names or their order are not those of `{grid}` (column letters from `a`, row numbers from the top, or from the bottom under `$flipGrid`; at most 26 columns)".to_owned()
                            };
                            diags.push(
                                Diagnostic::new(
                                    codes::AXIOM_BOARD_AS_POSITIONS,
                                    Severity::Note,
                                    format!("the grid is written as `{{position}}` entries: {why}"),
                                )
                                .with_span(b.span)
                                .with_note("the positions and links are the same; only the `{grid}` shorthand is lost"),
                            );
                        }
                        _ => {}
                    }
                }
            }
            "zone" => diags.push(zone(s)),
            "board-setup" => {
                for pl in s.args() {
                    for tl in pl.args() {
                        for (i, w) in tl.args().iter().enumerate() {
                            if w.word() == Some("off") {
                                let n = tl.args().get(i + 1).and_then(Node::word).unwrap_or("?");
                                let who = pl.head().unwrap_or("?");
                                let ty = tl.head().unwrap_or("?");
                                diags.push(no_counterpart(
                                    w,
                                    format!("{who} has {n} `{ty}` off the board: Axiom has no pieces in hand"),
                                    "put them on positions of their own (as the published Ur does), or count them in a board {variable} that the drop words use",
                                ));
                            }
                        }
                    }
                }
            }
            "piece" => {
                let name = s.name_value().and_then(Node::word).unwrap_or("?");
                for p in s.args() {
                    match p.head() {
                        Some("moves") | Some("drops") => {
                            let n = p
                                .args()
                                .iter()
                                .filter(|b| b.head() != Some("move-type"))
                                .count();
                            let kind = p.head().unwrap_or("");
                            let word = if kind == "moves" { "{moves}" } else { "{drops}" };
                            diags.push(by_hand(
                                p,
                                format!(
                                    "piece `{name}`: {n} {} block{} to write by hand",
                                    &kind[..kind.len() - 1],
                                    if n == 1 { "" } else { "s" }
                                ),
                                &format!("write a move word per block and list them in a {{moves NAME … moves}} block named by `{word} NAME` after `{{piece}} {name}`"),
                            ));
                        }
                        Some("attribute") => diags.push(no_counterpart(
                            p,
                            format!("piece `{name}`: attributes have no ForthScript counterpart"),
                            "keep the state in the piece type (change-type) or in a board {variable} or {array}",
                        )),
                        Some("dummy") => note_interface("(dummy) piece", p.span),
                        Some("name") => {}
                        Some(h) => note_interface(&format!("piece {h}"), p.span),
                        None => {}
                    }
                }
            }
            "win-condition" | "loss-condition" | "draw-condition" | "count-condition" => diags
                .push(by_hand(
                    s,
                    format!("`{head}` is written by hand"),
                    "return #WinScore, #LossScore or #DrawScore from OnIsGameOver",
                )),
            _ => {
                if let Some(o) = crate::expand::options::option_section(s) {
                    let value = o.value.and_then(Node::word).unwrap_or("");
                    match o.name {
                        "pass turn" if value != "true" => {}
                        _ if o.name == "ai" || o.name.starts_with("ai ") => {}
                        n if INTERFACE_OPTIONS.contains(&n) => {
                            note_interface(&format!("option \"{n}\""), s.span)
                        }
                        "pass turn" => diags.push(no_counterpart(
                            s,
                            "`pass turn` true has no ForthScript counterpart".into(),
                            "let the move words add a `Pass` move where passing is allowed",
                        )),
                        n => diags.push(no_counterpart(
                            s,
                            format!("option `{n}` has no ForthScript counterpart"),
                            "the move words and events written by hand carry the rules",
                        )),
                    }
                } else if INTERFACE_SECTIONS.contains(&head) {
                    note_interface(head, s.span);
                } else {
                    diags.push(no_counterpart(
                        s,
                        format!("section `{head}` has no ForthScript counterpart"),
                        "the move words and events written by hand carry the rules",
                    ));
                }
            }
        }
    }
    for (what, span, n) in interface {
        let times = if n == 1 {
            String::new()
        } else {
            format!(" ({n} forms)")
        };
        diags.push(
            Diagnostic::new(
                codes::AXIOM_INTERFACE_ONLY,
                Severity::Note,
                format!("{what}{times}: ZoG's interface reads it from the rules file; nothing to convert"),
            )
            .with_span(span),
        );
    }
}

/// Whether every position a `(grid …)` section makes (that the model kept) is written by
/// the `{grid}` found, which covers the first `grid.cells()` positions.
fn in_grid(section: &Node, grid: Option<Grid>, positions: &HashMap<String, PositionId>) -> bool {
    let Some(g) = grid else { return false };
    let dims: Vec<Vec<&str>> = section
        .child_form("dimensions")
        .map(|d| {
            d.args()
                .iter()
                .filter_map(|dim| dim.items.first().and_then(Node::word))
                .map(|l| l.split('/').collect())
                .collect()
        })
        .unwrap_or_default();
    let total: usize = dims.iter().map(Vec::len).product();
    if dims.is_empty() || total > 1 << 16 {
        return false;
    }
    // Names as the model makes them: one label per dimension, the first varying fastest.
    (0..total).all(|mut i| {
        let name: String = dims
            .iter()
            .map(|labels| {
                let l = labels[i % labels.len()];
                i /= labels.len();
                l
            })
            .collect();
        positions.get(&name).is_none_or(|p| p.index() < g.cells())
    })
}

#[cfg(test)]
#[path = "axiom_tests.rs"]
mod tests;
