//! The contract between Axiom programs and dagaz, word by word.
//!
//! dagaz runs a program on Axiom's own runtime files (`CORE.4TH`, `axiom.4th`) when its
//! folder has them, else on its own prelude and layer. Either way the words a program may
//! call come from four places: the Forth kernel's primitives ([`crate::forth::vm`]), the
//! host words of Axiom's DLL ([`super::natives::NATIVES`]), the prelude
//! (`src/forth/prelude.4th`, in place of `CORE.4TH`) and the layer (`layer.4th`, in place
//! of `axiom.4th`). docs/axiom.md lists every one of them in its section "Words".
//!
//! Every word that a version of Axiom's runtime files defines or uses (the lists of
//! `tests/fixtures/axiom/runtime-words.txt`, read from the files with [`scan`]) is either
//! defined by dagaz under the same name or listed here in [`NOT_PROVIDED`] with the reason;
//! a program that uses such a word fails to load with that reason beside the undefined
//! word ([`explain`]), and `dagaz lint` notes it ([`explain_diagnostic`]).

use crate::forth::{ForthError, ForthErrorKind};
use std::collections::BTreeSet;

/// Why dagaz does not define a word of Axiom's runtime files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Absence {
    /// A helper or a variable of `axiom.4th`'s own implementation (a `$` word), which no
    /// published game uses: dagaz's layer or its Rust runtime does that work another way.
    Internal,
    /// A word dagaz does not offer.
    Unsupported,
}

/// The words of Axiom's runtime files that dagaz does not define, in groups with one
/// reason each. A published game folder uses none of them.
pub const NOT_PROVIDED: &[(&[&str], Absence, &str)] = &[
    (
        &[
            "$addr,",
            "$CellCount",
            "$CommaCells",
            "$MakeConstant",
            "$PositionToIndex",
            "$IndexToPosition",
            "$RowColumnToIndex",
            "$LegalRow?",
            "$LegalColumn?",
            "$LegalPos?",
            "$Link",
            "$DoDirection",
            "$BuildDirection",
            "$CreateDirection",
            "$CreateDirectionFromString",
            "$MakeLinks",
            "$currDirection",
            "$CheckBoard",
            "$UpdateSize",
            "$GenerateGridNames",
            "$DefinePosNames",
            "$anonymous",
            "$nextPiece",
        ],
        Absence::Internal,
        "a helper of axiom.4th's board and direction declarations; dagaz's layer builds \
         the same tables its own way (layer.4th)",
    ),
    (
        &[
            "$EncodePlayer",
            "$DefinePlayer",
            "$CompileEngine",
            "$SetPlayer",
            "$DefineMoveType",
            "$player-count",
            "$ClearEvals",
            "$PlayerToIndex",
            "$PlayerToCellOffset",
            "$PieceToIndex",
            "$PieceToCellOffset",
        ],
        Absence::Internal,
        "a helper of axiom.4th's player, piece and move-type declarations; dagaz's layer \
         has its own (`player-index` and `piece-index` are the user words)",
    ),
    (
        &[
            "$symmetries",
            "$symmetryPlayerCELLOffset",
            "$direction1CFA",
            "$direction2CFA",
            "$direction1Index",
            "$direction2Index",
            "$DirectionCFAToIndex",
            "$DoIndirectDirection",
            "$RedefineDirection",
            "$SymmetryBase",
            "$symmetryBase",
            "$ParseSymmetry",
            "$ReplaceDirection",
            "$RedefineDirection1",
            "$RedefineDirection2",
            "$Exchange",
        ],
        Absence::Internal,
        "a helper of axiom.4th's {symmetry} and {asymmetry}; dagaz's layer makes \
         dispatching direction words of its own",
    ),
    (
        &[
            "$zobrist",
            "$playerToMoveHash",
            "$MakeZobristTable",
            "$GeneratePiecePositionHash",
            "$GeneratePlayerToMoveHash",
            "$GenerateZobristTables",
        ],
        Absence::Internal,
        "axiom.4th's Zobrist tables for the DLL's search; dagaz hashes positions in Rust",
    ),
    (
        &[
            "$timeCheckFrequency",
            "$ply",
            "$evals",
            "$rootMoveCount",
            "$rootMoveIndex",
            "$searchStatus",
            "$searchTimer",
            "$moveAddr",
            "$moveString",
            "$buffer",
        ],
        Absence::Internal,
        "a variable of the DLL's own search engine or move decoding; dagaz's engines and \
         `$MoveString` are in Rust and keep no such variable",
    ),
    (
        &[
            "$context",
            "#NoContext",
            "#ImplicitPosition",
            "#ChangedType",
            "#ChangedOwner",
            "#Moved",
            "$changedTo",
            "$useAxiomEngine",
            "$RemovePiece",
            "$AddPiece",
            "$DoPartial",
            "$DoPartialMoveType",
        ],
        Absence::Internal,
        "axiom.4th 1.40's internal state and helpers, gone in 1.50; dagaz's layer follows \
         1.50 and 1.51 (`(partial)`, `(partial-move-type)`, `(add-piece)`, \
         `(remove-piece)`)",
    ),
    (
        &["OnMakeAMove"],
        Absence::Unsupported,
        "axiom.4th 1.40's event for ZoG's own moves, gone in 1.50; dagaz never calls it",
    ),
    (
        &["FORGET", "(FORGET)"],
        Absence::Unsupported,
        "dagaz never takes words back: a game starts from a copy of the loaded program",
    ),
    (
        &[
            "#MB_OK",
            "#MB_OKCANCEL",
            "#MB_YESNO",
            "#MB_YESNOCANCEL",
            "#MB_RETRYCANCEL",
            "#MB_ABORTRETRYIGNORE",
            "#MB_ICONINFORMATION",
            "#MB_ICONEXCLAMATION",
            "#MB_ICONQUESTION",
            "#MB_ICONSTOP",
            "#IDABORT",
            "#IDCANCEL",
            "#IDCONTINUE",
            "#IDIGNORE",
            "#IDNO",
            "#IDOK",
            "#IDRETRY",
            "#IDTRYAGAIN",
            "#IDYES",
        ],
        Absence::Unsupported,
        "a Windows message box constant of CORE.4TH 1.51; dagaz runs headless and shows \
         no message boxes",
    ),
];

/// Why dagaz does not define `name`, if it is one of Axiom's runtime words it leaves out.
pub fn absent(name: &str) -> Option<(Absence, &'static str)> {
    NOT_PROVIDED
        .iter()
        .find(|(names, _, _)| names.contains(&name))
        .map(|&(_, a, why)| (a, why))
}

/// `e` with the reason dagaz leaves its word out, when it is an undefined word of Axiom's
/// runtime files that dagaz does not define ([`NOT_PROVIDED`]).
pub fn explain(mut e: ForthError) -> ForthError {
    if let ForthErrorKind::UndefinedWord(w) = &e.kind {
        e.hint = explain_word(w);
    }
    e
}

/// `dagaz lint`'s finding of an undefined word, with the reason dagaz leaves it out when
/// it is one of Axiom's runtime words ([`NOT_PROVIDED`]).
pub fn explain_diagnostic(d: &mut crate::diagnostics::Diagnostic) {
    if d.code != crate::forth::error::codes::UNDEFINED_WORD {
        return;
    }
    let name = d
        .message
        .strip_prefix("undefined word `")
        .and_then(|m| m.split_once('`'))
        .map(|(n, _)| n.to_owned());
    if let Some(hint) = name.and_then(|n| explain_word(&n)) {
        d.notes.push(hint);
    }
}

/// Why dagaz leaves out the runtime word `w`, as a sentence, if it does.
fn explain_word(w: &str) -> Option<String> {
    let (a, why) = absent(w)?;
    let what = match a {
        Absence::Internal => "internal to Axiom's runtime",
        Absence::Unsupported => "not supported by dagaz",
    };
    Some(format!("`{w}` is {what}: {why} (docs/axiom.md, \"Words\")"))
}

/// The names a Forth text defines and the ones it uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// Names the text defines at its top level (`:`, `CONSTANT`, `VARIABLE`, `CREATE`,
    /// `TIMER`, `DEFER`, `2VARIABLE`, `FVARIABLE`, `FCONSTANT`, `[]`), and the ones it
    /// makes at run time from a string (axiom.4th's `player-count`).
    pub defined: BTreeSet<String>,
    /// Every other word it names (numbers aside), whether or not it defines it too.
    pub used: BTreeSet<String>,
}

/// Reads which names a runtime file defines and uses. Comments (`( … )`, `\ …`), the text
/// of `."`, `S"`, `ABORT"` and `^"`, the character after `ASCII` and numbers (in the base
/// `HEX` and `DECIMAL` set at the top level, with a float's `.`) are not names.
pub fn scan(text: &str) -> Words {
    let mut w = Words::default();
    let b = text.as_bytes();
    let mut i = 0;
    let mut compiling = false;
    let mut hex = false;
    // The next token is a name being defined (or, after `ASCII`, a character).
    #[derive(PartialEq)]
    enum Next {
        Word,
        Defined,
        Char,
    }
    let mut next = Next::Word;
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        if start == i {
            break;
        }
        let tok = &text[start..i];
        match std::mem::replace(&mut next, Next::Word) {
            Next::Defined => {
                w.defined.insert(tok.to_owned());
                continue;
            }
            Next::Char => continue,
            Next::Word => {}
        }
        let skip_to = |i: &mut usize, c: u8| {
            // One blank after the word, then up to the delimiter.
            *i += 1;
            while *i < b.len() && b[*i] != c {
                *i += 1;
            }
            *i += 1;
        };
        match tok {
            "(" => {
                i = start + 1;
                skip_to(&mut i, b')');
                continue;
            }
            "\\" => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        w.used.insert(tok.to_owned());
        match tok {
            ".\"" | "S\"" | "ABORT\"" | "^\"" => {
                // The text: the S" of `S" player-count" ... $MakeConstant` names a word.
                let from = i + 1;
                skip_to(&mut i, b'"');
                let s = text.get(from..i.saturating_sub(1)).unwrap_or("");
                if s == "player-count" {
                    w.defined.insert(s.to_owned());
                }
            }
            "ASCII" => next = Next::Char,
            ":" => {
                compiling = true;
                next = Next::Defined;
            }
            ";" => compiling = false,
            "[" => compiling = false,
            "]" => compiling = true,
            "HEX" if !compiling => hex = true,
            "DECIMAL" if !compiling => hex = false,
            "CONSTANT" | "VARIABLE" | "CREATE" | "TIMER" | "DEFER" | "2VARIABLE" | "FVARIABLE"
            | "FCONSTANT" | "[]"
                if !compiling =>
            {
                next = Next::Defined
            }
            _ => {
                if is_number(tok, hex) {
                    w.used.remove(tok);
                }
            }
        }
    }
    w
}

/// Whether the text interpreter reads `tok` as a number (an integer in the base, or a float
/// with a `.`).
fn is_number(tok: &str, hex: bool) -> bool {
    let t = tok.strip_prefix('-').unwrap_or(tok);
    if t.is_empty() {
        return false;
    }
    let radix = if hex { 16 } else { 10 };
    if t.chars().all(|c| c.is_digit(radix)) {
        return true;
    }
    t.contains('.')
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars().all(|c| c.is_ascii_digit() || c == '.')
}

#[cfg(test)]
#[path = "contract_tests.rs"]
mod tests;
