//! The lint rules: every code lint can report, with its default severity, a summary, the
//! explanation that `dagaz lint --explain CODE` prints, and a bad and a good example.
//!
//! The examples are the lint test fixtures (`tests/lint/NAME/bad.zrf`, `good.zrf`), embedded
//! here, so the documentation and the tests are the same files.

use crate::diagnostics::{Code, Severity, codes as core};

/// Codes reported only by lint (the other phases' codes live in `diagnostics::codes`).
pub mod codes {
    use crate::diagnostics::Code;
    macro_rules! code {
        ($c:ident, $id:literal, $name:literal) => {
            pub const $c: Code = Code {
                id: $id,
                name: $name,
            };
        };
    }
    code!(UNUSED_MACRO, "DZ0214", "unused-macro");
    code!(UNUSED_MACRO_PARAMETER, "DZ0215", "unused-macro-parameter");
    code!(UNKNOWN_TOP_LEVEL_FORM, "DZ0216", "unknown-top-level-form");
    pub const NO_GAME_FORM: Code = crate::diagnostics::codes::NO_GAME;
    code!(ASYMMETRIC_SYMMETRY, "DZ0450", "asymmetric-symmetry");
    code!(DOUBLY_OCCUPIED, "DZ0451", "doubly-occupied");
    code!(PIECE_WITHOUT_MOVES, "DZ0650", "piece-without-moves");
    code!(BLOCK_NEVER_ADDS, "DZ0651", "block-never-adds");
    code!(
        PARTIAL_TO_UNKNOWN_MOVE_TYPE,
        "DZ0652",
        "partial-to-unknown-move-type"
    );
    code!(NO_GOAL, "DZ0750", "no-goal");
    code!(UNKNOWN_OPTION, "DZ0850", "unknown-option");
    code!(DEEP_NO_MOVE_NO_GOAL, "DZ0950", "no-move-no-goal");
    code!(DEEP_NEVER_ENDS, "DZ0951", "never-ends");
    code!(DEEP_FRIENDLY_CAPTURE, "DZ0952", "friendly-capture");
    code!(DEEP_UNREACHED_POSITION, "DZ0953", "unreached-position");
    code!(DEEP_PIECE_NEVER_MOVES, "DZ0954", "piece-never-moves");
    code!(DAGAZ_EXTENSION_OPTION, "DZ0851", "dagaz-extension-option");
}

/// One rule's documentation.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub code: Code,
    pub severity: Severity,
    pub summary: &'static str,
    pub explanation: &'static str,
    /// A minimal file that triggers the rule, and the corrected file ("" when none).
    pub bad: &'static str,
    pub good: &'static str,
}

macro_rules! fixture {
    ($name:literal, $file:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/lint/",
            $name,
            "/",
            $file
        ))
    };
}

macro_rules! rule {
    ($code:expr, $sev:ident, $summary:literal, $expl:literal, $name:literal) => {
        Rule {
            code: $code,
            severity: Severity::$sev,
            summary: $summary,
            explanation: $expl,
            bad: fixture!($name, "bad.zrf"),
            good: fixture!($name, "good.zrf"),
        }
    };
    ($code:expr, $sev:ident, $summary:literal, $expl:literal) => {
        Rule {
            code: $code,
            severity: Severity::$sev,
            summary: $summary,
            explanation: $expl,
            bad: "",
            good: "",
        }
    };
}

/// Every rule with a fixture, and the remaining codes with their explanation.
pub static RULES: &[Rule] = &[
    rule!(
        core::NOT_UTF8,
        Warning,
        "the file is not UTF-8",
        "The file was decoded as Windows-1252. Save it as UTF-8 so that every tool reads the same characters."
    ),
    rule!(
        core::INVALID_CHARACTER,
        Warning,
        "control characters in the text",
        "Control characters (other than tab and line breaks) cannot be represented in XML and are replaced by U+FFFD."
    ),
    rule!(
        core::UNCLOSED_LIST,
        Error,
        "a `(` is never closed",
        "A list opened with `(` reaches the end of the file without its `)`. The position is the outermost unclosed `(`; a note gives the innermost one.",
        "unclosed-list"
    ),
    rule!(
        core::UNMATCHED_CLOSE,
        Error,
        "a `)` closes nothing",
        "There is one `)` too many: no list is open at this point.",
        "unmatched-close"
    ),
    rule!(
        core::UNTERMINATED_STRING,
        Error,
        "a string is never closed",
        "A `\"` opens a string that runs to the end of the file. ZRF strings have no escapes and may span lines, so a missing quote swallows the rest of the file.",
        "unterminated-string"
    ),
    rule!(
        core::NESTING_TOO_DEEP,
        Error,
        "lists nested too deeply",
        "Lists nested deeper than 256 levels are refused; real rules files stay below 20."
    ),
    rule!(
        core::INCLUDE_NOT_FOUND,
        Error,
        "an included file cannot be read",
        "`(include \"f\")` is resolved relative to the folder of the including file.",
        "include-not-found"
    ),
    rule!(
        core::INCLUDE_CYCLE,
        Error,
        "a file includes itself",
        "Following the includes leads back to a file already being included."
    ),
    rule!(
        core::MALFORMED_INCLUDE,
        Error,
        "`include` needs one file name",
        "Write `(include \"common.zrf\")`."
    ),
    rule!(
        core::MALFORMED_DEFINE,
        Error,
        "`define` needs a name",
        "Write `(define NAME body…)` with an atom as the name."
    ),
    rule!(
        core::MACRO_REDEFINED,
        Warning,
        "a macro is defined twice",
        "ZoG accepts a second definition and uses the last one; usually the first is a leftover.",
        "macro-redefined"
    ),
    rule!(
        core::EXPANSION_TOO_DEEP,
        Error,
        "recursive macro",
        "Macro calls nested more than 64 deep: almost always a macro that calls itself. The message names the chain of calls.",
        "expansion-too-deep"
    ),
    rule!(
        core::EXPANSION_TOO_LARGE,
        Error,
        "macro expansion too large",
        "Expansion produced more than 2,000,000 nodes (the largest real file needs about 82,000): macros that call each other several times per level grow exponentially."
    ),
    rule!(
        core::UNBOUND_PARAMETER,
        Warning,
        "`$k` without an argument",
        "The body uses `$k` but the call passes fewer than k arguments (and no enclosing call has a k-th one). The text is left as written.",
        "unbound-macro-parameter"
    ),
    rule!(
        core::BAD_SUBSTITUTION,
        Error,
        "an argument cannot be glued into a token",
        "A list argument, or a string with blanks, is substituted into the middle of an atom or string."
    ),
    rule!(
        core::VARIANT_WITHOUT_GAME,
        Warning,
        "`variant` before any `game`",
        "A variant inherits from the nearest preceding game; with none, dagaz reads it as a complete game.",
        "variant-without-game"
    ),
    rule!(
        codes::NO_GAME_FORM,
        Warning,
        "the file defines no game",
        "The file has no `(game …)` form. That is fine for a macro library meant to be included, not for a rules file."
    ),
    rule!(
        codes::UNUSED_MACRO,
        Warning,
        "a macro is never used",
        "A macro defined in the file is never called. Macros of included files are not reported: they are libraries.",
        "unused-macro"
    ),
    rule!(
        codes::UNUSED_MACRO_PARAMETER,
        Warning,
        "a macro ignores one of its arguments",
        "The body uses `$k` but not some `$j` with j < k, so the j-th argument of every call is ignored: often a typo in the body.",
        "unused-macro-parameter"
    ),
    rule!(
        codes::UNKNOWN_TOP_LEVEL_FORM,
        Warning,
        "an unknown form at the top level",
        "At the top level ZoG reads only `game`, `variant`, `define`, `include` and `version`.",
        "unknown-top-level-form"
    ),
    rule!(
        codes::ASYMMETRIC_SYMMETRY,
        Warning,
        "a symmetry table is not one-to-one",
        "A `symmetry` maps two directions to the same one. Pairs are not implied: list both `(n s)` and `(s n)`.",
        "asymmetric-symmetry"
    ),
    rule!(
        codes::DOUBLY_OCCUPIED,
        Warning,
        "a position is set up twice",
        "ZRF allows one piece per position: the later piece of the setup silently replaces the earlier one.",
        "doubly-occupied"
    ),
    rule!(
        codes::PIECE_WITHOUT_MOVES,
        Note,
        "a piece has no moves and no drops",
        "The piece can never move. That is right for walls and markers, and a mistake for a piece meant to play.",
        "piece-without-moves"
    ),
    rule!(
        codes::BLOCK_NEVER_ADDS,
        Warning,
        "a move block never adds a move",
        "A move block without `add` (or `add-partial`, `add-copy`…) cannot produce a move.",
        "block-never-adds"
    ),
    rule!(
        codes::PARTIAL_TO_UNKNOWN_MOVE_TYPE,
        Error,
        "`add-partial` to a move-type that does not exist",
        "After `add-partial`, only blocks of the named move-type may continue; no block has this type, so the continuation can never happen.",
        "partial-to-unknown-move-type"
    ),
    rule!(
        codes::NO_GOAL,
        Warning,
        "a game without goals",
        "With no win, loss, draw or count condition, a game ends only when a player has no move (a draw) or by repetition.",
        "no-goal"
    ),
    rule!(
        codes::UNKNOWN_OPTION,
        Warning,
        "an option ZoG does not know",
        "ZoG ignores unknown options, so a misspelt option silently does nothing. dagaz's own options start with `ai` (docs/ai.md).",
        "unknown-option"
    ),
    rule!(
        codes::DAGAZ_EXTENSION_OPTION,
        Warning,
        "a Dagaz-only option",
        "The option switches on JavaScript code in the Dagaz project; ZoG and dagaz ignore it, so the game may play differently from Dagaz.",
        "dagaz-extension-option"
    ),
    rule!(
        core::ENGINE_EXTENSION,
        Error,
        "an Axiom engine",
        "`(engine \"…axiom.dll\")` defines the moves in Forth outside the file; dagaz plays only what the ZRF defines, so the game cannot be played.",
        "engine-extension"
    ),
    rule!(
        codes::DEEP_NO_MOVE_NO_GOAL,
        Warning,
        "(--deep) no legal move and no goal",
        "In a random playout the player to move had no legal move and no goal applied, so the game ended as a draw. Add `(loss-condition (…) stalemated)` or a pass option if that is not the intended result.",
        "no-move-no-goal"
    ),
    rule!(
        codes::DEEP_NEVER_ENDS,
        Warning,
        "(--deep) games that do not end",
        "Random playouts ran past the ply bound (`--max-plies`) without a result: the goals may be unreachable or the game may cycle without a threefold repetition.",
        "never-ends"
    ),
    rule!(
        codes::DEEP_FRIENDLY_CAPTURE,
        Warning,
        "(--deep) a move captures a friendly piece",
        "The destination of a move holds a piece of the mover, which the implicit capture removes. Guard the final `add` with `(verify not-friend?)`.",
        "friendly-capture"
    ),
    rule!(
        codes::DEEP_UNREACHED_POSITION,
        Note,
        "(--deep) positions never used",
        "No piece stood on these positions in any playout: they may be unreachable (missing links) or only reachable in rare lines.",
        "unreached-position"
    ),
    rule!(
        codes::DEEP_PIECE_NEVER_MOVES,
        Note,
        "(--deep) pieces that never move",
        "Pieces of these types were on the board in the playouts but never moved: their move blocks may never succeed.",
        "piece-never-moves"
    ),
];

/// Finds a rule by code (`DZ0214`) or name (`unused-macro`), case-insensitively.
pub fn find(key: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|r| r.code.id.eq_ignore_ascii_case(key) || r.code.name.eq_ignore_ascii_case(key))
}

/// The explanation `dagaz lint --explain` prints.
pub fn explain(rule: &Rule) -> String {
    let mut s = format!(
        "{} {} ({}): {}\n\n{}\n",
        rule.code.id,
        rule.code.name,
        rule.severity.as_str(),
        rule.summary,
        rule.explanation
    );
    if !rule.bad.is_empty() {
        s += &format!(
            "\nBad:\n\n{}\nGood:\n\n{}",
            indent(rule.bad),
            indent(rule.good)
        );
    }
    s
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}
