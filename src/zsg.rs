//! Zillions saved games (`.zsg`): reading and writing the file, and reading ZoG's move
//! notation into the effects a move has on the board.
//!
//! A saved game is a text file (docs/formats.md, "Saved games"):
//!
//! ```text
//! Zillions Save Game File Version 0.02 CC
//! RulesFile=CheckersCollection.zrf
//! VariantName=Dameo
//! 1. Checker e2 - g4
//! 1. Checker d7 - d5
//! 2. partial 2 Checker g4 - g6 x g5
//! (x h8)
//! ```
//!
//! The header names the rules file and the variant; then each line is a move (`N. text`,
//! one line per step of a partial chain, `partial N` in front), a `Pass`, or an edit of the
//! board in parentheses (`(Black Tokin 9i)` puts a piece, `(x h8)` removes one).
//!
//! [`parse`] reads the file without knowing the game; [`Notation::effects`] reads a move's
//! text against a compiled [`Model`]'s names.

use crate::model::{Model, PieceTypeId, PlayerId, PositionId};
use std::collections::HashMap;

/// The first line's start; the version and the seats' kinds (`CC`, `HC`, …) follow.
pub const MAGIC: &str = "Zillions Save Game File";

/// The header line dagaz writes: version 0.02, both seats played by the computer.
pub const HEADER: &str = "Zillions Save Game File Version 0.02 CC";

/// A saved game as read from its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SavedGame {
    /// The first line (`Zillions Save Game File Version 0.02 CC`).
    pub header: String,
    /// `RulesFile=`, as written (often a Windows path).
    pub rules_file: String,
    /// `VariantName=`: the variant's title.
    pub variant: String,
    /// The moves and edits, in order.
    pub lines: Vec<SavedLine>,
}

/// One move or edit of a saved game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SavedLine {
    /// The line of the file (from 1).
    pub line: u32,
    /// The move number written in front (`12.`), if any.
    pub number: Option<u32>,
    pub kind: LineKind,
}

/// What a line of a saved game holds.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineKind {
    /// A move, or a step of a partial chain (`partial` is the number ZoG writes after the
    /// word: the move type of the continuation).
    Move { partial: Option<u32>, text: String },
    /// `Pass`.
    Pass,
    /// An edit of the board, without its parentheses.
    Edit { text: String },
}

impl SavedLine {
    /// The line as it is written in a saved game.
    pub fn to_text(&self) -> String {
        let n = self.number.map(|n| format!("{n}. ")).unwrap_or_default();
        match &self.kind {
            LineKind::Move {
                partial: Some(p),
                text,
            } => format!("{n}partial {p} {text}"),
            LineKind::Move {
                partial: None,
                text,
            } => format!("{n}{text}"),
            LineKind::Pass => format!("{n}Pass"),
            LineKind::Edit { text } => format!("({text})"),
        }
    }
}

/// Why a text is not a saved game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ZsgError {
    /// The line of the file (from 1).
    pub line: u32,
    pub message: String,
}

impl std::fmt::Display for ZsgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ZsgError {}

/// Reads a saved game. Blank lines are skipped; any other line that is not a header
/// entry, a numbered move or an edit is an error.
pub fn parse(text: &str) -> Result<SavedGame, ZsgError> {
    let mut game = SavedGame::default();
    let mut lines = text.lines().enumerate();
    let err = |line: usize, message: String| ZsgError {
        line: line as u32 + 1,
        message,
    };
    match lines.next() {
        Some((_, first)) if first.trim_start_matches('\u{feff}').starts_with(MAGIC) => {
            game.header = first.trim_start_matches('\u{feff}').trim_end().to_owned();
        }
        _ => {
            return Err(err(
                0,
                format!("not a Zillions saved game: the first line does not start with `{MAGIC}`"),
            ));
        }
    }
    for (i, raw) in lines {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if game.lines.is_empty() {
            if let Some((key, value)) = line.split_once('=') {
                if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric()) {
                    match key.to_ascii_lowercase().as_str() {
                        "rulesfile" => game.rules_file = value.trim().to_owned(),
                        "variantname" => game.variant = value.trim().to_owned(),
                        _ => {}
                    }
                    continue;
                }
            }
        }
        let (number, rest) = split_number(line);
        let rest = rest.trim();
        let kind = if let Some(inner) = rest.strip_prefix('(') {
            let Some(inner) = inner.strip_suffix(')') else {
                return Err(err(i, format!("an edit line without its `)`: `{line}`")));
            };
            LineKind::Edit {
                text: squash(inner),
            }
        } else if number.is_none() {
            return Err(err(
                i,
                format!("neither a move (`N. move`) nor an edit (`(…)`): `{line}`"),
            ));
        } else if rest.eq_ignore_ascii_case("pass") {
            LineKind::Pass
        } else {
            let mut words = rest.split_whitespace();
            let first = words.next().unwrap_or("");
            if first.eq_ignore_ascii_case("partial") {
                let n = words.next().and_then(|w| w.parse::<u32>().ok());
                let Some(n) = n else {
                    return Err(err(i, format!("`partial` without its number: `{line}`")));
                };
                LineKind::Move {
                    partial: Some(n),
                    text: words.collect::<Vec<_>>().join(" "),
                }
            } else if rest.is_empty() {
                return Err(err(i, format!("a move number without a move: `{line}`")));
            } else {
                LineKind::Move {
                    partial: None,
                    text: squash(rest),
                }
            }
        };
        game.lines.push(SavedLine {
            line: i as u32 + 1,
            number,
            kind,
        });
    }
    Ok(game)
}

/// `12. rest` → (Some(12), "rest"); a line without a number is returned whole.
fn split_number(line: &str) -> (Option<u32>, &str) {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && line[digits..].starts_with('.') {
        if let Ok(n) = line[..digits].parse() {
            return (Some(n), &line[digits + 1..]);
        }
    }
    (None, line)
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Writes a saved game: the header, `RulesFile=`, `VariantName=` and the lines, with
/// Windows line ends as ZoG writes them.
pub fn write(game: &SavedGame) -> String {
    let mut out = String::new();
    let header = if game.header.is_empty() {
        HEADER
    } else {
        &game.header
    };
    for l in [
        header.to_owned(),
        format!("RulesFile={}", game.rules_file),
        format!("VariantName={}", game.variant),
    ] {
        out.push_str(&l);
        out.push_str("\r\n");
    }
    for l in &game.lines {
        out.push_str(&l.to_text());
        out.push_str("\r\n");
    }
    out
}

impl SavedGame {
    /// A new saved game of `variant` played on `rules_file`.
    pub fn new(rules_file: &str, variant: &str) -> SavedGame {
        SavedGame {
            header: HEADER.to_owned(),
            rules_file: rules_file.to_owned(),
            variant: variant.to_owned(),
            lines: Vec::new(),
        }
    }

    /// The file name of `RulesFile=`, whatever the path in front (`\` or `/`).
    pub fn rules_file_name(&self) -> &str {
        self.rules_file
            .rsplit(['\\', '/'])
            .next()
            .unwrap_or(&self.rules_file)
    }

    /// The moves, passes and partial steps (not the edits).
    pub fn num_moves(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| !matches!(l.kind, LineKind::Edit { .. }))
            .count()
    }
}

/// One effect of a move as ZoG's notation writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Effect {
    /// `PIECE FROM - TO` (or `x TO` when a piece stood on `TO`).
    Move {
        ty: PieceTypeId,
        from: PositionId,
        to: PositionId,
        capture: bool,
    },
    /// `[PLAYER] PIECE POS`: a piece put on `at` (the mover's when no player is written).
    Create {
        owner: Option<PlayerId>,
        ty: PieceTypeId,
        at: PositionId,
    },
    /// `x POS`.
    Capture { at: PositionId },
    /// `= PIECE` (the piece just moved, `at` none) or `= PIECE on POS` (one effect per
    /// square of `= PIECE on POS POS …`).
    SetType {
        ty: PieceTypeId,
        at: Option<PositionId>,
    },
    /// `= PLAYER` or `= PLAYER on POS`.
    SetOwner {
        owner: PlayerId,
        at: Option<PositionId>,
    },
    /// `flip POS`: the piece goes to the next player.
    Flip { at: PositionId },
    /// `@ POS A V`: attribute `attr` set to `V` (0 or 1). `attr` is the index in the
    /// model's attributes; the text writes ZoG's index, which counts from the last
    /// declared.
    Attribute {
        at: PositionId,
        attr: u32,
        value: bool,
    },
}

/// The names of a compiled game, for reading notation: matched as written, else without
/// regard to case (some games have positions whose names differ only in case).
#[derive(Clone, Debug)]
pub struct Notation {
    /// How many attributes the game declares.
    attributes: u32,
    players: Names<PlayerId>,
    pieces: Names<PieceTypeId>,
    positions: Names<PositionId>,
}

/// Names as written and lowercased (the first of names equal without case).
#[derive(Clone, Debug)]
struct Names<T> {
    exact: HashMap<String, T>,
    lower: HashMap<String, T>,
}

impl<T: Copy> Names<T> {
    fn new<'a>(names: impl Iterator<Item = (&'a str, T)>) -> Names<T> {
        let (mut exact, mut lower) = (HashMap::new(), HashMap::new());
        for (n, v) in names {
            exact.entry(n.to_owned()).or_insert(v);
            lower.entry(n.to_lowercase()).or_insert(v);
        }
        Names { exact, lower }
    }
    fn get(&self, w: Option<&&str>) -> Option<T> {
        let w = *w?;
        self.exact
            .get(w)
            .or_else(|| self.lower.get(&w.to_lowercase()))
            .copied()
    }
}

impl Notation {
    pub fn new(model: &Model) -> Notation {
        Notation {
            attributes: model.attributes.len() as u32,
            players: Names::new(
                model
                    .players
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.name.as_str(), PlayerId::new(i as u32))),
            ),
            pieces: Names::new(
                model
                    .piece_types
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (t.name.as_str(), PieceTypeId::new(i as u32))),
            ),
            positions: Names::new(
                model
                    .positions
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.as_str(), PositionId::new(i as u32))),
            ),
        }
    }

    fn player(&self, w: Option<&&str>) -> Option<PlayerId> {
        self.players.get(w)
    }
    fn piece(&self, w: Option<&&str>) -> Option<PieceTypeId> {
        self.pieces.get(w)
    }
    fn pos(&self, w: Option<&&str>) -> Option<PositionId> {
        self.positions.get(w)
    }

    /// Reads a move's text (without `partial N`) into its effects, in the order written.
    /// The error names the word that could not be read.
    pub fn effects(&self, text: &str) -> Result<Vec<Effect>, EffectsError> {
        let w: Vec<&str> = text.split_whitespace().collect();
        let mut out = Vec::new();
        let mut i = 0;
        let is_sep = |s: Option<&&str>| matches!(s, Some(&"-") | Some(&"x") | Some(&"X"));
        while i < w.len() {
            let word = w[i];
            let at = |k: usize| w.get(i + k);
            match word {
                "x" | "X" => {
                    let Some(p) = self.pos(at(1)) else {
                        return Err(unknown(&w, i + 1, "a position after `x`"));
                    };
                    out.push(Effect::Capture { at: p });
                    i += 2;
                }
                "=" => {
                    // `= X`, or `= X on P …` (ZoG lists the squares of the same change
                    // after one `on`: `= EV on 1F 19J`).
                    let on = at(2).is_some_and(|s| s.eq_ignore_ascii_case("on"));
                    let mut places: Vec<Option<PositionId>> = Vec::new();
                    let mut k = 3;
                    if on {
                        while let Some(p) = self.pos(at(k)) {
                            // A word that opens a movement (`PIECE POS`) is not a square.
                            if self.piece(at(k)).is_some() && self.pos(at(k + 1)).is_some() {
                                break;
                            }
                            places.push(Some(p));
                            k += 1;
                        }
                        if places.is_empty() {
                            return Err(unknown(&w, i + 3, "a position after `on`"));
                        }
                    } else {
                        places.push(None);
                        k = 2;
                    }
                    let ty = self.piece(at(1));
                    let owner = self.player(at(1));
                    for place in places {
                        if let Some(ty) = ty {
                            out.push(Effect::SetType { ty, at: place });
                        } else if let Some(owner) = owner {
                            out.push(Effect::SetOwner { owner, at: place });
                        } else {
                            return Err(unknown(&w, i + 1, "a piece or player after `=`"));
                        }
                    }
                    i += k;
                }
                "@" => {
                    let Some(p) = self.pos(at(1)) else {
                        return Err(unknown(&w, i + 1, "a position after `@`"));
                    };
                    i += 2;
                    let mut any = false;
                    while let (Some(a), Some(v)) = (
                        w.get(i).and_then(|s| s.parse::<u32>().ok()),
                        w.get(i + 1).and_then(|s| s.parse::<u32>().ok()),
                    ) {
                        out.push(Effect::Attribute {
                            at: p,
                            attr: self.attributes.saturating_sub(1).saturating_sub(a),
                            value: v != 0,
                        });
                        any = true;
                        i += 2;
                    }
                    if !any {
                        return Err(unknown(&w, i, "an attribute and its value after `@ POS`"));
                    }
                }
                _ if word.eq_ignore_ascii_case("flip") => {
                    let Some(p) = self.pos(at(1)) else {
                        return Err(unknown(&w, i + 1, "a position after `flip`"));
                    };
                    out.push(Effect::Flip { at: p });
                    i += 2;
                }
                _ => {
                    // PLAYER PIECE POS | PIECE POS (-|x) POS | PIECE POS
                    if let (Some(owner), Some(ty), Some(p)) =
                        (self.player(at(0)), self.piece(at(1)), self.pos(at(2)))
                    {
                        if !is_sep(at(3)) || self.piece(at(0)).is_none() {
                            out.push(Effect::Create {
                                owner: Some(owner),
                                ty,
                                at: p,
                            });
                            i += 3;
                            continue;
                        }
                    }
                    let Some(ty) = self.piece(at(0)) else {
                        return Err(unknown(&w, i, "a piece, a player or an effect"));
                    };
                    let Some(from) = self.pos(at(1)) else {
                        return Err(unknown(&w, i + 1, "a position after the piece"));
                    };
                    if is_sep(at(2)) {
                        let Some(to) = self.pos(at(3)) else {
                            return Err(unknown(&w, i + 3, "a destination"));
                        };
                        out.push(Effect::Move {
                            ty,
                            from,
                            to,
                            capture: !matches!(at(2), Some(&"-")),
                        });
                        i += 4;
                    } else {
                        out.push(Effect::Create {
                            owner: None,
                            ty,
                            at: from,
                        });
                        i += 2;
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Why a move's text cannot be read into its effects ([`Notation::effects`]); the `Display`
/// names the word.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EffectsError {
    /// The word at `index` (from 1) is not what the move needs there (`wanted`: "a
    /// position after `x`").
    Unexpected {
        word: String,
        index: usize,
        wanted: &'static str,
    },
    /// The move ends where `wanted` was expected.
    Ended { wanted: &'static str },
}

impl std::fmt::Display for EffectsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EffectsError::Unexpected {
                word,
                index,
                wanted,
            } => write!(f, "`{word}` (word {index}) is not {wanted}"),
            EffectsError::Ended { wanted } => {
                write!(f, "the move ends where {wanted} was expected")
            }
        }
    }
}

impl std::error::Error for EffectsError {}

fn unknown(w: &[&str], i: usize, wanted: &'static str) -> EffectsError {
    match w.get(i) {
        Some(word) => EffectsError::Unexpected {
            word: (*word).to_owned(),
            index: i + 1,
            wanted,
        },
        None => EffectsError::Ended { wanted },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_header_moves_partials_passes_and_edits() {
        let text = "Zillions Save Game File Version 0.02 HC\r\nRulesFile=C:\\Zillions\\Rules\\Dameo.zrf\r\nVariantName=Dameo\r\n\r\n(Black Tokin 9i)\r\n1. Checker e2 - g4\r\n1. partial 2 Checker g4 - g6 x g5\r\n2. Pass\r\n(x h8)\r\n";
        let g = parse(text).unwrap();
        assert_eq!(g.header, "Zillions Save Game File Version 0.02 HC");
        assert_eq!(g.rules_file_name(), "Dameo.zrf");
        assert_eq!(g.variant, "Dameo");
        assert_eq!(g.lines.len(), 5);
        assert_eq!(g.num_moves(), 3);
        assert_eq!(g.lines[0].line, 5);
        assert_eq!(
            g.lines[2].kind,
            LineKind::Move {
                partial: Some(2),
                text: "Checker g4 - g6 x g5".into()
            }
        );
        assert_eq!(g.lines[3].kind, LineKind::Pass);
        assert_eq!(
            g.lines[4].kind,
            LineKind::Edit {
                text: "x h8".into()
            }
        );
        // Written back, it reads the same (the blank line gone).
        let again = parse(&write(&g)).unwrap();
        let kinds = |g: &SavedGame| -> Vec<(Option<u32>, LineKind)> {
            g.lines.iter().map(|l| (l.number, l.kind.clone())).collect()
        };
        assert_eq!(kinds(&again), kinds(&g));
        assert_eq!((again.rules_file, again.variant), (g.rules_file, g.variant));
    }

    #[test]
    fn refuses_what_is_not_a_saved_game() {
        assert_eq!(parse("# README\n").unwrap_err().line, 1);
        let e = parse(&format!("{HEADER}\nRulesFile=a.zrf\nhello\n")).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("hello"), "{e}");
        let e = parse(&format!("{HEADER}\n1. partial x Man a1\n")).unwrap_err();
        assert!(e.message.contains("partial"), "{e}");
        let e = parse(&format!("{HEADER}\n(x h8\n")).unwrap_err();
        assert!(e.message.contains(")"), "{e}");
    }
}
