//! The lint rules: every code lint can report, with its default severity, a summary, the
//! explanation that `dagaz lint --explain CODE` prints, and a bad and a good example.
//!
//! The examples are the lint test fixtures (`lint-examples/NAME/bad.zrf`, `good.zrf`), embedded
//! here, so the documentation and the tests are the same files.

use crate::diagnostics::{Code, Severity, codes as core};
use crate::forth::error::codes as forth;

/// Codes reported only by lint (the other phases' codes live in `diagnostics::codes`).
pub mod codes {
    use crate::diagnostics::{Code, code};
    code!(UNUSED_MACRO, "DZ0214", "unused-macro");
    code!(UNUSED_MACRO_PARAMETER, "DZ0215", "unused-macro-parameter");
    code!(UNKNOWN_TOP_LEVEL_FORM, "DZ0216", "unknown-top-level-form");
    code!(UNUSED_MACRO_ARGUMENT, "DZ0220", "unused-macro-argument");
    code!(DUPLICATE_VARIANT, "DZ0221", "duplicate-variant");
    code!(UNKNOWN_LINT_CODE, "DZ0260", "unknown-lint-code");
    code!(UNUSED_SUPPRESSION, "DZ0261", "unused-suppression");
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
    code!(AXIOM_ENGINE, "DZ0803", "axiom-engine");
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
            "/lint-examples/",
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
        core::IO_ERROR,
        Error,
        "a file cannot be read",
        "The file named on the command line does not exist, is a folder, or cannot be opened (permissions). Nothing was checked. Check the path; an unreadable file named by `include` is reported as `include-not-found` instead."
    ),
    // The fixture `lint-examples/not-utf8` cannot be embedded: `include_str!` needs UTF-8.
    rule!(
        core::NOT_UTF8,
        Warning,
        "the file is not UTF-8",
        "A file that is not UTF-8 is read as Windows-1252, ZoG's own encoding; plain Windows-1252 text is read right and not reported. Reported once per file, at the first doubtful byte, when the bytes are not plain Windows-1252: a byte Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D), UTF-8 sequences mixed in (the file was edited in both encodings; those letters read as `Ã©`), or runs of four or more letters from 0xC0–0xFF (another code page, such as Cyrillic Windows-1251: Western text has isolated accented letters). Re-save the file as UTF-8 from the encoding it was written in."
    ),
    rule!(
        core::INVALID_CHARACTER,
        Warning,
        "control characters in the text",
        "Control characters (other than tab and line breaks) and non-characters cannot be represented in XML and are replaced by U+FFFD. They are usually pasted by accident into a string (a title, a description) and may show as boxes in ZoG. The position is the first one; delete it (a hex editor or `cat -A` shows it).",
        "invalid-character"
    ),
    rule!(
        core::BAD_TREE_XML,
        Error,
        "(convert) malformed tree XML",
        "`dagaz convert tree.xml --to zrf` reads the tree XML of docs/formats.md back; this file is not well-formed XML or does not follow it (the root element is not `<zrf>`, a tag is unbalanced, an entity is unknown). It is never reported for a .zrf file. Regenerate the XML with `dagaz convert FILE --to xml`, or fix the element named in the message."
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
        "Lists nested deeper than 256 levels are refused (real rules files stay below 20), which protects the tools from runaway input. The position is the first `(` past the limit. Usually the file is generated or damaged: look for a run of `(` without the matching `)`.",
        "nesting-too-deep"
    ),
    rule!(
        core::INCLUDE_NOT_FOUND,
        Error,
        "an included file cannot be read",
        "`(include \"f\")` is resolved relative to the folder of the including file.",
        "include-not-found"
    ),
    rule!(
        core::INCLUDE_OUTSIDE_PROJECT,
        Error,
        "an include leads outside the project folder",
        "Includes are resolved relative to the including file (then in the folders given with `--include-dir`) and must stay inside the folder of the file named on the command line or those folders. An absolute path (`/etc/passwd`, `C:\\x`), a `..` that climbs above that folder, or a symbolic link that points outside it is refused without reading the file, so that linting an untrusted rules file in CI cannot read (and echo) other files of the machine. Copy the shared file into the project, or name its folder with `--include-dir`.",
        "include-outside-project"
    ),
    rule!(
        core::INCLUDE_CYCLE,
        Error,
        "a file includes itself",
        "Following the includes leads back to a file already being included, so the expansion would never end; the offending `include` is skipped. The message gives the chain of files. Move the shared definitions into a file that includes nothing, and include it from each file that needs it.",
        "include-cycle"
    ),
    rule!(
        core::MALFORMED_INCLUDE,
        Error,
        "`include` needs one file name",
        "`include` takes exactly one file name (a string or an atom): `(include \"common.zrf\")`. With no name, or several, the form is skipped. Write one `include` per file.",
        "malformed-include"
    ),
    rule!(
        core::MALFORMED_DEFINE,
        Error,
        "`define` needs a name",
        "A macro definition is `(define NAME body…)` with an atom as the name; ZRF macros have no named parameters, the body refers to the arguments as `$1`, `$2`… The definition is skipped, so every call of the macro stays unexpanded.",
        "malformed-define"
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
        "Macro expansion produced more than 1 GiB of nodes and text (each produced node counts 56 bytes plus its text; the largest file in the shared corpus needs 5.5 MB, the largest published file known, Dakon, 479 MB), or the games and variants, each counted at its full size since each is checked on its own, amount to more than 2 GiB. Macros that call each other several times per level, or glue a parameter to itself (`\"$1$1\"`), grow exponentially. The position is the outermost call and the message names the chain of macros. Flatten the chain, or write the repeated forms once.",
        "expansion-too-large"
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
        "A `$k` glued to other characters (`a$1`, `\"$1 wins\"`) builds a new atom or string from the argument, which therefore must be a single atom (or, in a string, a word). A list argument, or a string with blanks glued into an atom, cannot be joined and the text is left as written. The position is the `$k` in the macro body; pass an atom in the call, or make the body use `$k` on its own.",
        "bad-substitution"
    ),
    rule!(
        core::VARIANT_WITHOUT_GAME,
        Warning,
        "`variant` in a file without `game`",
        "A variant inherits from the nearest preceding game, or, when it is written before the file's first game, from that game. In a file with no `game` at all, dagaz reads each variant as a complete game; write `game` for the first one.",
        "variant-without-game"
    ),
    rule!(
        core::UNKNOWN_VARIANT,
        Error,
        "(command line) no game or variant of that name",
        "A command that works on one game of a file (`perft --variant`, `convert --variant`, an `autoplay` player) was given a name that is neither a game's or variant's title nor its slug. The note lists the available names, nearest first. `dagaz games FILE` lists them too. Not reported by `lint`, which checks every game."
    ),
    rule!(
        core::INCLUDE_TOO_DEEP,
        Error,
        "includes nested too deeply",
        "Files including files nested more than 32 deep are refused (real games use one or two levels); the include past the limit is skipped. Include the shared files from the main file instead of chaining them."
    ),
    rule!(
        codes::NO_GAME_FORM,
        Warning,
        "the file defines no game",
        "The file has no `(game …)` form, so ZoG refuses to open it. A macro library meant to be included (a file of `define`s and `include`s only) is not reported.",
        "no-game"
    ),
    rule!(
        codes::UNUSED_MACRO,
        Warning,
        "a macro is never used",
        "A macro defined in the file is never called. Macros of included files, and of a file of `define`s only (a library linted on its own), are not reported: they are libraries.",
        "unused-macro"
    ),
    rule!(
        codes::UNUSED_MACRO_PARAMETER,
        Warning,
        "a macro ignores one of its arguments",
        "The body uses `$k` but not some `$j` with j < k, so the j-th argument of every call is ignored: often a typo in the body. A `$j` read by a helper macro that this one calls without a j-th argument counts as a use (dynamic scope: the helper takes this call's argument).",
        "unused-macro-parameter"
    ),
    rule!(
        codes::UNUSED_MACRO_ARGUMENT,
        Warning,
        "a macro call passes arguments the macro never reads",
        "A call passes more arguments than the expansion reads: the extra ones are silently dropped, which usually means a missing `$k` in the body or a call meant for another macro. A `$k` read by a helper macro the body calls (ZRF's dynamic scope: a `$k` with no argument in its own call takes the caller's) counts as read. Reported once per macro, at the first call with the most arguments.",
        "unused-macro-argument"
    ),
    rule!(
        codes::DUPLICATE_VARIANT,
        Warning,
        "two games or variants with the same title",
        "Two games or variants of a file have the same title (or titles that give the same slug, such as `Chess 8x8` and `chess-8x8`). ZoG lists both, but a title on the command line can only pick the first: dagaz gives the later ones distinct slugs (`chess-8x8-2`, …, listed by `dagaz games FILE`), which only say their place in the file. Give each a distinct title.",
        "duplicate-variant"
    ),
    rule!(
        codes::UNKNOWN_TOP_LEVEL_FORM,
        Warning,
        "an unknown form at the top level",
        "At the top level ZoG reads only `game`, `variant`, `define`, `include` and `version`.",
        "unknown-top-level-form"
    ),
    rule!(
        codes::UNKNOWN_LINT_CODE,
        Warning,
        "an unknown code in a `; dagaz: allow(…)` comment",
        "A suppression comment names a code or rule name that dagaz does not have (usually a typo); the note suggests the nearest one. It is a warning, not an error: a misspelt suppression silences nothing, so the finding it meant to silence is still reported. On the command line an unknown `--allow`, `--warn` or `--deny` code is a usage error (exit 2).",
        "unknown-lint-code"
    ),
    rule!(
        codes::UNUSED_SUPPRESSION,
        Warning,
        "a `; dagaz: allow(…)` comment silences nothing",
        "No finding of that code is on the line the comment covers (its own line for a trailing comment, the next line for a comment alone on its line; the whole file for `allow-file`). The problem was fixed, or the comment sits on the wrong line. Codes that only `--deep` reports (`DZ09xx`) are checked only when `--deep` runs. Errors that stop the checks (syntax, includes, expansion limits) cannot be suppressed, so a comment naming them is reported too.",
        "unused-suppression"
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
        "A piece placed on the board by the setup has no moves and no drops, so it can never move. That is right for walls and markers, and a mistake for a piece meant to play. Pieces marked `(dummy)` and pieces the setup does not place (promotion results made by `change-type` or `create`, pieces only in hand) are not reported: without moves they are usually deliberate.",
        "piece-without-moves"
    ),
    rule!(
        codes::BLOCK_NEVER_ADDS,
        Warning,
        "a move block never adds a move",
        "A move block without `add` (or `add-partial`, `add-copy`…) cannot produce a move. The blocks of `(dummy)` pieces are not reported, nor a block whose unknown macro call is already reported.",
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
        "The option switches on JavaScript rules code in the Dagaz project (a setup phase, extra move restrictions, deferred captures, ko, names ending in `-extension` or `-invariant`); ZoG and dagaz ignore it, so the game plays differently from Dagaz. Dagaz options that only change its web interface (`smart-moves`, `show hints`, `show blink`, `show captures`, `sliding-puzzle`, `silent ? moves`, `animate …`) and extensions set to `false` are not reported.",
        "dagaz-extension-option"
    ),
    rule!(
        core::UNKNOWN_NAME,
        Error,
        "an attribute that no piece declares",
        "`set-attribute` can only set attributes declared by a piece with `(attribute NAME VALUE)`. Declare the attribute in every piece type that carries it, with its initial value, or fix the spelling.",
        "unknown-name"
    ),
    rule!(
        core::DUPLICATE_NAME,
        Error,
        "a piece type is defined twice",
        "Two `piece` sections have the same name; the last one replaces the first entirely (moves, drops, attributes), as ZoG loads it, so the game still plays. Usually a copy-paste leftover or a piece that should have been renamed, whose consequences show far away (a move of the first definition that no longer exists): delete one or rename it. A player listed twice in `(players …)` is an error too: the turn order, the setup and the goals could not tell the two apart.",
        "duplicate-name"
    ),
    rule!(
        core::MALFORMED_FORM,
        Error,
        "a board, zone or piece form is incomplete",
        "A form lacks a required part: a `zone` or `piece` without `(name …)`, a `links` without its direction, a link that is not a `(from to)` pair. The form cannot be used. Add the missing part.",
        "malformed-form"
    ),
    rule!(
        core::UNKNOWN_SECTION,
        Warning,
        "an unknown section of a game",
        "A form inside `(game …)` or `(variant …)` whose keyword ZoG does not know is ignored, so a misspelt section (`(win-conditon …)`) silently does nothing.",
        "unknown-section"
    ),
    rule!(
        core::NO_BOARD,
        Error,
        "the game has no board",
        "The game has no `(board …)` section, or its board has no positions (every grid was refused, or every position was killed). Nothing can be set up or moved. Declare a board with a `grid` or `positions`.",
        "no-board"
    ),
    rule!(
        core::BAD_GRID,
        Warning,
        "a grid's dimensions or directions are malformed",
        "In a `grid`, each dimension starts with its labels (`\"a/b/c\"`) and each direction gives one integer delta per dimension. A direction with too few deltas is a warning (the missing ones are taken as 0, which may not be what was meant); non-integer deltas, too many deltas or a dimension without labels are errors. Give one delta per dimension, in dimension order.",
        "bad-grid"
    ),
    rule!(
        core::UNKNOWN_POSITION,
        Error,
        "a position that is not on the board",
        "The name is not a position of the board: usually a typo, or a position of a larger board the file was adapted from. In the setup, a zone or a link the engine leaves the name out, so the piece or the link silently disappears: lint reports an error (one per zone, listing its unknown names) and the game still loads. A name that `kill-positions` removed is not a typo: a zone skips it quietly, a setup piece placed there is a warning. In `unlink`, `position?` and goals an unknown name stops the game from loading. Fix the name or the board; a note suggests a position that differs only in case or by a letter.",
        "unknown-position"
    ),
    rule!(
        core::UNKNOWN_DIRECTION,
        Warning,
        "a direction that the board does not define",
        "Directions come from the grid's `directions` and from `links`. In a `symmetry` the pair is skipped (a warning: the player then moves that way unmirrored); in `opposite`, `relative-config` and move blocks it is an error. In a move block, a word within one or two letters of a declared direction (`nn` for `n`), or a direction that another game of the file declares (a variant that replaces the board but keeps a piece of its game), is reported as a direction, with a note, rather than as an unknown instruction. Define the direction or fix the name.",
        "unknown-direction"
    ),
    rule!(
        core::UNKNOWN_ZONE,
        Error,
        "a zone that is not declared",
        "`in-zone?` names a zone with no `(zone (name …) …)` in the board or game. Declare the zone (with its players and positions) or fix the spelling.",
        "unknown-zone"
    ),
    rule!(
        core::TOO_MANY_POSITIONS,
        Error,
        "the board is too large",
        "A single grid may have at most 65,536 positions and a board about a million; the largest real board has a few thousand. A grid this large is usually a mistake in its dimension labels. Use fewer labels per dimension, or fewer dimensions.",
        "too-many-positions"
    ),
    rule!(
        core::NO_PLAYERS,
        Error,
        "the game declares no players",
        "Without `(players …)` (or with an empty list) there is nobody to move. Declare the players, in turn order: `(players White Black)`.",
        "no-players"
    ),
    rule!(
        core::UNKNOWN_PLAYER,
        Error,
        "a player that is not declared",
        "The turn order, the setup, a `symmetry`, a zone's or a piece image's `players`, or a goal names a player missing from `(players …)`, usually a typo. A zone or an image that names an unknown player is still loaded for the others, so the mistake would go unseen in play. Fix the name or declare the player.",
        "unknown-player"
    ),
    rule!(
        core::TOO_MANY_PLAYERS,
        Error,
        "more than 31 players",
        "The engine supports at most 31 players (including random players such as `?Dice`). Reduce the number of players.",
        "too-many-players"
    ),
    rule!(
        core::BAD_TURN_ORDER,
        Warning,
        "`repeat` ends the turn order",
        "`repeat` marks where the turn order starts again after the first cycle; at the end it repeats nothing and is ignored, so the whole order repeats. Move `repeat` before the turns that repeat, or delete it.",
        "bad-turn-order"
    ),
    rule!(
        core::UNKNOWN_PIECE,
        Error,
        "a piece type that is not defined",
        "The setup, a move (`add`, `create`, `change-type`, `piece?`) or a goal names a piece type with no `(piece (name …))`. Usually a typo, or a plural (`Men` for `Man`). Fix the name or define the piece.",
        "unknown-piece"
    ),
    rule!(
        core::UNKNOWN_INSTRUCTION,
        Error,
        "an unknown word in a move block",
        "A word in a move block is neither an instruction (`add`, `capture`, `mark`…) nor a direction nor a position, or a list in a move block starts with a word that is neither an instruction nor a macro: usually a misspelt macro name (a note suggests the nearest macro) or a macro argument that was not passed. Nothing else is reported from a block after an unknown call, since its other findings would follow from the call not being expanded. Fix the spelling or define the macro.",
        "unknown-instruction"
    ),
    rule!(
        core::BAD_INSTRUCTION,
        Error,
        "an instruction with wrong arguments",
        "A known instruction got the wrong number or kind of arguments: `verify` takes one condition (combine several with `and`), `if` and `while` need a condition, `go` takes `from`, `to`, `last-from`, `last-to` or `mark`, a target must be a direction or a position, `create` needs a piece type. The message says which.",
        "bad-instruction"
    ),
    rule!(
        core::UNKNOWN_CONDITION,
        Error,
        "an unknown condition",
        "A condition must be a predicate ending in `?` (`empty?`, `enemy?`, `in-zone?`…), an attribute, `true`/`false`, or `and`/`or`/`not` of conditions. A missing `?` is the usual cause. Fix the name.",
        "unknown-condition"
    ),
    rule!(
        core::TOO_MANY_ATTRIBUTES,
        Error,
        "more than 17 attributes",
        "Piece attributes are stored as bits in the piece, and the engine has room for 17 distinct attribute names across all pieces. Reuse attributes between piece types, or encode states as piece types (`change-type`).",
        "too-many-attributes"
    ),
    rule!(
        core::TOO_MANY_PIECE_TYPES,
        Error,
        "more than 1023 piece types",
        "The engine stores the piece type in 10 bits: at most 1023 types. Real games have a few dozen; this many comes from generating macros. Merge types that differ only in state into attributes.",
        "too-many-piece-types"
    ),
    rule!(
        core::UNKNOWN_MOVE_TYPE,
        Error,
        "a move-type that no move block declares",
        "A turn of the turn order (`(White jump)`) or `move-priorities` names a move-type that no `(move-type …)` of a piece's moves or drops declares. Such a turn offers no move at all, and such a priority ranks nothing. In a turn-order entry the second word may also be a player (`(Red Neutral)`: Red moves Neutral's pieces), so the message says it is neither. Fix the spelling; a note suggests the nearest declared name.",
        "unknown-move-type"
    ),
    rule!(
        core::UNKNOWN_GOAL,
        Error,
        "an unknown goal condition",
        "A win, loss, draw or count condition must be one of `stalemated`, `repetition`, `checkmated`, `captured`, `pieces-remaining`, `total-piece-count`, `absolute-config`, `relative-config`, `true`, `false`, or `and`/`or`/`not` of them. Check the spelling (`stalemated`, not `stalemate`).",
        "unknown-goal"
    ),
    rule!(
        core::BAD_GOAL,
        Error,
        "a goal with missing or malformed arguments",
        "A goal section needs its players and a condition; `pieces-remaining` and `total-piece-count` need a count first; `absolute-config` needs piece types and positions; `relative-config` alternates piece types and directions. The goal is dropped. The message says what is missing.",
        "bad-goal"
    ),
    rule!(
        core::BAD_OPTION_VALUE,
        Warning,
        "an option with an unexpected value",
        "Boolean options take `true` or `false`; `pass turn` also takes `forced`, `maximal captures` also takes `2`. Any other value is read as false (off), which is probably not what was meant. Use one of the documented values.",
        "bad-option-value"
    ),
    rule!(
        core::ENGINE_EXTENSION,
        Error,
        "(perft, autoplay, convert) an Axiom engine",
        "`(engine \"…axiom.dll\")` defines the moves in Forth outside the file; dagaz plays only what the ZRF defines, so the game cannot be played or compiled to a model. Not reported by `lint`, which checks the ZRF part of such a file and reports `axiom-engine` instead."
    ),
    rule!(
        codes::AXIOM_ENGINE,
        Warning,
        "moves and goals defined by an Axiom engine",
        "`(engine \"…axiom.dll\")` hands the moves and the end of the game to Axiom's ForthScript files beside the rules file. The file is valid ZoG; lint checks its ZRF part (syntax, macros, board, pieces, setup, options) and skips what Axiom defines: the dummy move blocks, pieces without moves, the missing goals. `perft` and `autoplay` play the game through its variants' `.4th` files (docs/axiom.md gives the search order), and `lint` checks the ones it finds along with the rules file (undefined words, words used before their definition, unbalanced structures, stack comments). Nothing to fix in the file; allow the code to silence it.",
        "axiom-engine"
    ),
    rule!(
        core::STEP_BUDGET_EXCEEDED,
        Warning,
        "(--deep) a `while` loop that does not end",
        "During a playout a `while` loop ran more than 10,000 times in one move generation; the engine abandoned that branch, so some moves may be missing. Almost always the loop body does not move (no direction step) or its condition never becomes false. Step inside the loop: `(while empty? add n)`.",
        "step-budget-exceeded"
    ),
    rule!(
        core::CHAIN_BUDGET_EXCEEDED,
        Warning,
        "(--deep) partial-move chains explode",
        "During a playout, expanding `add-partial` continuations visited more than 200,000 chain positions in one move generation; the engine cut the search, so some multi-part moves are missing and generation is slow. Typical cause: a continuation that does not require progress (a capture, a jump) and so can wander over the board. Make each continuation consume something, or end the move with `add`.",
        "chain-budget-exceeded"
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
    rule!(
        core::AXIOM_WRITE_BY_HAND,
        Warning,
        "(convert --to axiom) moves, drops or a goal to write in ForthScript",
        "`dagaz convert GAME.zrf --to axiom` writes the declarations of an Axiom game (board, directions, players, symmetries, turn order, pieces, setup), as Axiom's ZRF Converter does. A piece's `moves` and `drops` blocks and the `win-condition`, `loss-condition`, `draw-condition` and `count-condition` sections are rules in ZRF's move language, which has no ForthScript translation: write a move word per block (listed in a `{moves NAME {move} WORD … moves}` block named by `{moves} NAME` or `{drops} NAME` after the `{piece}`), and the goals in `OnIsGameOver`. The comment after each `{piece}` of the generated file names its blocks and where they are."
    ),
    rule!(
        core::AXIOM_NO_COUNTERPART,
        Warning,
        "(convert --to axiom) a part of the rules with no ForthScript counterpart",
        "The converter writes what Axiom's declarations can say; this part of the rules file cannot be said there and is left out of the generated files: zones (test the positions in the move words), piece attributes (keep the state in the piece type or a board `{variable}`), pieces off the board (`off N`: Axiom has no hand; put them on positions of their own, as the published Ur does), dummy positions (written as ordinary positions), `pass turn` true (add `Pass` moves), options that change the rules (`recycle captures`, `maximal captures`, …), dagaz's `ai …` options other than `ai` itself and `ai value` (evaluation terms belong in `OnEvaluate`; the depth is `autoplay --depth`), an AI with no Axiom engine (the players keep Axiom's default search), and sections the converter does not know. The move words and events written by hand carry these rules."
    ),
    rule!(
        core::AXIOM_INTERFACE_ONLY,
        Note,
        "(convert --to axiom) a section for ZoG's interface, kept in the rules file",
        "Titles, descriptions, images, sounds, help texts, display options and `(engine …)` are read by Zillions of Games from the rules file, which an Axiom game keeps beside its ForthScript files: nothing to convert. One note per kind of section, at its first form, with the count."
    ),
    rule!(
        core::AXIOM_BAD_NAME,
        Error,
        "(convert --to axiom) a name the generated declarations cannot use as it is",
        "Every position, direction, player, piece and move type becomes a word of one ForthScript dictionary, found by its exact spelling. A name that two of them share (backgammon's dice positions and dice pieces `D1`…) makes the later word hide the earlier one: a declaration that names the earlier one fails to load (`{setup} Black Die D1` finds the piece where it expects the position), and the code written by hand can no longer name it. A name with blanks or control characters, or longer than 255 characters, cannot be a word, and a name that is a word the declarations or the runtime use (`{setup}`, `$board`, `OnEvaluate`, `LOAD`, `ON`) would hide it. The files are still written: rename the names in the rules file (or in the generated files) and convert again."
    ),
    rule!(
        core::AXIOM_NAME_SHADOWS_WORD,
        Warning,
        "(convert --to axiom) a name that hides a number or a word of the layer",
        "A position, direction, player, piece or move type whose name is a number (`1`, `12`: mancala pits) or a word of dagaz's Axiom layer or of Forth (`to`, `from`, `here`, `last`, `piece`, `DUP`, `I`; compared without case, since the text interpreter falls back to any case) becomes a word that hides the other from everything written after it: in the move words, `1` pushes the position, not the number. The declarations load (with names that are numbers, the converter writes `{link}` lists rather than grid offsets, and no `{value}`), but the code written by hand must take it into account. A direction or a move type spelt exactly as an existing word is worse with Axiom's own axiom.4th, whose `{link}` and `{of-type}` use the word they find (writing the links into it, or running it) where dagaz's layer declares a new one: a note says so. Rename the name where you can."
    ),
    rule!(
        core::AXIOM_VARIANT_FILE,
        Warning,
        "(convert --to axiom) a game's or variant's file cannot have its title's name",
        "ZoG (and dagaz) find the Axiom program of a game or variant by its title, spaces turned into `-` (`Ur [random]` → `Ur-[random].4th`). A title with characters a file name cannot hold (`/`, `\\`, `:`, `*`, `?`, `\"`, `<`, `>`, `|`, control characters, a leading `.`) is written with `_` in their place, and a second game or variant whose file name is the same as an earlier one's (compared without case, as on Windows) gets a `-2`, `-3` suffix. Either way the program is not found by the title: rename the title (or the file)."
    ),
    rule!(
        core::AXIOM_BOARD_AS_POSITIONS,
        Note,
        "(convert --to axiom) a grid written as single positions",
        "Axiom's `R C {grid}` makes the positions a1… of a rectangular grid: column letters from `a`, row numbers from `R` at the top down to 1 (or from 1 at the top under `$flipGrid ON`), row by row from the top-left, at most 26 columns. When a `(grid …)` of the rules file gives other names, another order or more than two dimensions, its positions are written as `{position}` entries in the model's order and its directions as `{link}` lists: the board is the same, only the shorthand is lost."
    ),
    rule!(
        core::AXIOM_VARIANT_WHOLE,
        Note,
        "(convert --to axiom) a variant written whole, without `LOAD`",
        "A variant's file is normally `LOAD GAME.4th` with its `{players}` block and the blocks that differ from its game's. A board, its directions, the players and their symmetries cannot be declared again after a `LOAD` (Axiom's `{grid}` refuses to redefine the board; dagaz's layer would keep the first board's directions), so a variant whose board, directions, players or symmetries differ is written with all its declarations instead."
    ),
    rule!(
        forth::UNDEFINED_WORD,
        Error,
        "(Axiom) an undefined word",
        "A word of a ForthScript file (`.4th`) is neither defined nor a number, so Axiom would stop loading the program there. `dagaz lint` reports every such word (loading goes on with a placeholder that fails if it ever runs), with the nearest defined name. A word used inside its own definition is not visible yet: call it with `RECURSE`. A word the program defines later is reported as `forth-used-before-definition` instead."
    ),
    rule!(
        forth::STACK_UNDERFLOW,
        Error,
        "(Axiom) data stack underflow while loading",
        "Code run while the program loads (top-level code, or an immediate word while compiling) took more items from the data stack than it held."
    ),
    rule!(
        forth::STACK_OVERFLOW,
        Error,
        "(Axiom) data stack overflow while loading",
        "Code run while the program loads left more items on the data stack than its limit allows."
    ),
    rule!(
        forth::RETURN_STACK,
        Error,
        "(Axiom) return stack misuse while loading",
        "Code run while the program loads unbalanced the return stack (`>R` without `R>`, or deep recursion)."
    ),
    rule!(
        forth::MEMORY,
        Error,
        "(Axiom) memory access outside the dictionary",
        "Code run while the program loads read or wrote an address outside the Forth dictionary."
    ),
    rule!(
        forth::DIVISION_BY_ZERO,
        Error,
        "(Axiom) division by zero while loading",
        "Code run while the program loads divided by zero."
    ),
    rule!(
        forth::STEP_BUDGET,
        Error,
        "(Axiom) loading ran too long",
        "Code run while the program loads ran more primitives than the loading budget (a loop that does not end?). Loading stops there."
    ),
    rule!(
        forth::BAD_XT,
        Error,
        "(Axiom) not an execution token",
        "Code run while the program loads executed a value that is no word (`EXECUTE` of a wrong value)."
    ),
    rule!(
        forth::ABORT,
        Error,
        "(Axiom) the program aborted while loading",
        "Code run while the program loads called `ABORT`, `ABORT\"` or `ERROR`."
    ),
    rule!(
        forth::COMPILE,
        Error,
        "(Axiom) a compile error",
        "A defining word lacks its name (the file ends after `:`, `VARIABLE`, …) or another compile error."
    ),
    rule!(
        forth::LOAD,
        Error,
        "(Axiom) a file cannot be loaded",
        "`LOAD name` names a file that is in none of the loading file's folder, the variant's folder, the engine folder and the `--include-dir` folders, a file that is not a regular file or is larger than 16 MiB, or `LOAD`s are nested too deeply."
    ),
    rule!(
        forth::LOAD_REFUSED,
        Error,
        "(Axiom) a file outside the project, or not a program",
        "A `LOAD`, a runtime file (`CORE.4TH`, `axiom.4th`) or the engine path of a rules file's `(engine \"…/axiom.dll\")` names a file that dagaz will not read: an absolute path, a `..` that climbs out of the project's folders, a symbolic link that leads out of them, a `LOAD` of a file that is not a `.4th` program, or a variant title that is not a plain file name. The project's folders are the variant's folder (for a rules file, its folder), the engine folder, and the `--include-dir` folders. Nothing of the file is read. Move the file into the project, or give its folder with `--include-dir`."
    ),
    rule!(
        forth::HOST,
        Error,
        "(Axiom) a host word refused",
        "A word of Axiom's engine (a DLL word, such as `add-move`) was used where it cannot work while the program loads."
    ),
    rule!(
        forth::DICTIONARY_FULL,
        Error,
        "(Axiom) the dictionary is full",
        "The program needs more dictionary memory than the VM has. Loading stops there."
    ),
    rule!(
        forth::BUFFER_LIMIT,
        Error,
        "(Axiom) a buffer the program makes grow outside the dictionary reached its limit: a move's notation (65,536 bytes), the repetition history (1,048,576 positions)",
        "A move word noted more than 65,536 bytes (`^string` of a long string, or in a loop), or `repetition-push-position` was called 1,048,576 times without `repetition-reset`. Such a program would grow the buffer until the process ran out of memory; it stops with this error instead."
    ),
    rule!(
        forth::DICTIONARY_CORRUPT,
        Error,
        "(Axiom) the chain of word headers loops back on itself (a link overwritten): a lookup that meets the loop stops at once",
        "A store overwrote the link of a word header (NFA + 8) so that the chain of words comes back to a header it passed (`36 @ 36 @ 8 + !` links the latest word to itself). Every lookup of a word defined before the loop would walk it without end; the first one that meets it stops with this error."
    ),
    rule!(
        forth::AXIOM_MISSING,
        Error,
        "(Axiom) the runtime lacks a word dagaz needs",
        "The program loaded, but its runtime (`axiom.4th`, or a `CORE.4TH` that replaces dagaz's) does not define a variable or word that dagaz's engine reads (the message names it): the runtime file is incomplete or of a version dagaz does not know."
    ),
    rule!(
        forth::AXIOM_GAME,
        Error,
        "(Axiom) a program that loads but cannot be played",
        "The program loaded, but its declarations cannot make a game: no board, no players, a player or piece table that is out of range. `perft` and `autoplay` stop there, so `lint` reports it too."
    ),
    rule!(
        forth::AXIOM_MISMATCH,
        Error,
        "(Axiom) two programs of one match play different games",
        "The two programs given to one match declare different boards, players or pieces, so they cannot play each other."
    ),
    rule!(
        forth::USED_BEFORE_DEFINITION,
        Error,
        "(Axiom) a word used before its definition",
        "A ForthScript word is used (compiled, executed or ticked with `'`, as `{move}` does) before the program defines it: Forth reads a file once, top to bottom, so Axiom stops loading there. Move the definition above its first use (the note names where it is)."
    ),
    rule!(
        forth::UNBALANCED_STRUCTURE,
        Error,
        "(Axiom) an unbalanced control structure",
        "A colon definition leaves a control structure open (`IF` without `THEN`/`ENDIF`, `BEGIN` without `UNTIL`/`AGAIN`/`REPEAT`, `DO` without `LOOP`/`+LOOP`), closes one that is not open (`THEN` without `IF`), lacks its `;` (another `:` or the end of the file comes first), or leaves the compile-time stack deeper or shallower at `;` than at `:`. Reported at the opening word (`IF`, `:`), or at a closing word that closes nothing."
    ),
    rule!(
        forth::STACK_EFFECT,
        Warning,
        "(Axiom) a stack comment that does not match the code",
        "A colon definition's stack comment `( a b -- c )` declares a net effect (items left minus items taken) that differs from the effect of its body, or the body takes more items than declared. Only straight-line bodies are checked: every word must have a known effect (kernel words, engine words, variables, constants, and earlier definitions with a computed effect or a stack comment), and a control structure or a word of unknown effect skips the check. Fix the comment or the code."
    ),
    rule!(
        forth::NO_PIECES,
        Warning,
        "(Axiom) a program that declares no pieces",
        "The variant file and the files it loads declare no piece type (no `{pieces` … `pieces}` block, or an empty one), so no side can ever move: every game ends at once with no move. A variant file that only LOADs its parts usually lacks the part that declares the pieces."
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
