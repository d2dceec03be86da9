//! Player specs: which variant of which rules plays, with which AI.
//!
//! A spec is `GAME[:VARIANT][@AI[:key=value,…]]` (see [`super::resolve`] for how GAME is
//! found: a path, an Axiom variant file, a bundled game or a bundled variant's slug), e.g.
//! `ur-random`, `ur:ur-simple`, `path/to/game.zrf:fast@mcts:playouts=500`,
//! `checkers@alphabeta:depth=4,material=1`, `tic-tac-toe@random`. Without `@AI` the
//! variant plays its own AI (its `(option "ai …")` forms); with it, the AI is the one the
//! spec names ([`AiSpec::apply`]).
//!
//! Both players of a match must play the same rules: [`same_rules`] compares the merged
//! game forms without titles, descriptive texts and `ai …` options.

use super::resolve::{ResolveOptions, Source, choose_game, locate};
use crate::ai::config::AiSpec;
use crate::ai::config::is_ai_option;
use crate::ai::{AiConfig, AiKind};
use crate::axiom::Program;
use crate::expand::{GameDef, Limits, load_text};
use crate::syntax::Node;

/// A resolved player of ZRF rules.
#[derive(Clone, Debug)]
pub struct PlayerSpec {
    /// The spec as given.
    pub spec: String,
    /// Where the rules came from: `bundled:ur` or a path.
    pub source: String,
    pub title: String,
    pub slug: String,
    /// The merged game (its `form` is the whole `(game …)` list).
    pub game: GameDef,
    /// The AI in effect (the variant's, or the `@AI` of the spec), before the command
    /// line's `--depth`, `--nodes` and `--time-ms`.
    pub ai: AiConfig,
    /// The `@AI` part of the spec, when it has one.
    pub ai_spec: Option<AiSpec>,
    /// What the user should know (a title shared by several variants).
    pub warnings: Vec<String>,
}

impl PlayerSpec {
    /// The name Axiom's AutoPlay would print: the title with spaces turned into `-`
    /// ("Ur \[random\]" → "Ur-\[random\]").
    pub fn axiom_name(&self) -> String {
        self.title.replace(' ', "-")
    }

    /// True when the game's moves come from an Axiom engine (`(engine "…axiom.dll")`), so
    /// that it is played through its variant's `.4th` file.
    pub fn has_engine(&self) -> bool {
        self.game
            .form
            .items
            .iter()
            .any(|n| n.head() == Some("engine"))
    }
}

/// A resolved player of an Axiom program (a `.4th` variant file).
#[derive(Clone)]
pub struct AxiomPlayer {
    /// The spec as given.
    pub spec: String,
    /// The loaded program.
    pub program: Program,
    /// [`AiKind::Program`] (the program's own engines), or `random` or `first` when the
    /// spec names them (they play through the program's moves, as Axiom's `{random}` and
    /// `{first}` engines do).
    pub ai: AiConfig,
    /// The `@AI` part of the spec, when it has one.
    pub ai_spec: Option<AiSpec>,
}

/// A resolved player: ZRF rules or an Axiom program. (A match holds a few of them: their
/// sizes do not matter.)
#[derive(Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Player {
    Rules(PlayerSpec),
    Axiom(AxiomPlayer),
}

impl Player {
    /// The spec as given.
    pub fn spec(&self) -> &str {
        match self {
            Player::Rules(p) => &p.spec,
            Player::Axiom(p) => &p.spec,
        }
    }
}

/// Every (slug, bundled game name, title) of the bundled games, default variants first.
pub fn bundled_slugs() -> Vec<(String, String, String)> {
    let mut out = vec![];
    for b in crate::games::all() {
        let loaded = load_text(&format!("{}.zrf", b.name), b.text, Limits::default());
        for g in &loaded.games {
            out.push((g.slug.clone(), b.name.to_owned(), g.title.clone()));
        }
    }
    out
}

/// Why a player spec names no playable game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpecError {
    /// Not a file, an Axiom program, a bundled game or a bundled variant, or no such
    /// variant; `suggestions` are near names.
    NotFound(String, Vec<String>),
    /// A file that cannot be read.
    Unreadable(String),
    /// A malformed spec, or one that names the wrong kind of game (an Axiom program where
    /// ZRF rules are needed, a variant of a variant file).
    Invalid(String),
    /// The rules or the program named have errors (they do not compile or load, or their
    /// `ai …` options are bad): the game cannot be played.
    Unplayable(String),
    /// The rules have no variant of that name (`DZ0212 unknown-variant`); `suggestions` are
    /// near slugs.
    NoVariant(String, Vec<String>),
    /// The `@AI` part is wrong: an unknown AI or setting, a bad value, or an AI that cannot
    /// play this game.
    Ai(String),
}

crate::error::message_enum!(SpecError {
    NotFound,
    Unreadable,
    Invalid,
    Unplayable,
    NoVariant,
    Ai
});

impl SpecError {
    /// The error as a diagnostic with a code where it has one (`DZ0001 io-error`,
    /// `DZ0212 unknown-variant`):
    /// the first line of the message, the other lines as notes.
    pub fn to_diagnostic(&self) -> Option<crate::diagnostics::Diagnostic> {
        let (code, m) = match self {
            SpecError::NoVariant(m, _) => (crate::diagnostics::codes::UNKNOWN_VARIANT, m),
            SpecError::Unreadable(m) => (crate::diagnostics::codes::IO_ERROR, m),
            _ => return None,
        };
        let mut lines = m.lines();
        let mut d = crate::diagnostics::Diagnostic::error(code, lines.next().unwrap_or_default());
        for l in lines {
            d = d.with_note(l.trim());
        }
        Some(d)
    }
}

/// Resolves a spec of ZRF rules (see the module documentation). The error explains what
/// was tried and suggests near names.
pub fn resolve(spec: &str) -> Result<PlayerSpec, SpecError> {
    resolve_with(spec, &[])
}

/// [`resolve`], with folders where the includes of a rules file may also be read
/// (`--include-dir`). An Axiom program is refused: [`resolve_player`] plays those.
pub fn resolve_with(
    spec: &str,
    include_dirs: &[std::path::PathBuf],
) -> Result<PlayerSpec, SpecError> {
    match resolve_player(spec, &ResolveOptions::with_include_dirs(include_dirs))? {
        Player::Rules(p) => Ok(p),
        Player::Axiom(p) => Err(SpecError::Invalid(format!(
            "`{spec}` is an Axiom program (`{}`), not ZRF rules",
            p.program.path.display()
        ))),
    }
}

/// Resolves one player (see the module documentation): its rules or program, its variant
/// and the AI in effect. Call it once per player of a match or a round robin.
pub fn resolve_player(spec: &str, opts: &ResolveOptions) -> Result<Player, SpecError> {
    let name = locate(spec, opts)?;
    if let Source::Axiom(path) = &name.source {
        return axiom_player(
            spec,
            path,
            name.variant.as_deref(),
            name.ai.clone(),
            &opts.include_dirs,
        );
    }
    let shown = name.source.display();
    let loaded = name.load(opts)?;
    if loaded.has_errors() {
        let first = loaded
            .diagnostics
            .iter()
            .find(|d| d.severity == crate::diagnostics::Severity::Error)
            .map(|d| d.message.clone())
            .unwrap_or_default();
        let lint = match &name.source {
            Source::Bundled(b) => b.name.to_owned(),
            _ => shown.clone(),
        };
        return Err(SpecError::Unplayable(format!(
            "`{shown}` has errors ({first}); run `dagaz lint {lint}`"
        )));
    }
    let (g, warning) = choose_game(&loaded, name.variant.as_deref(), &name.source.name())?;
    let own = AiConfig::from_form(&g.form)
        .map_err(|e| SpecError::Unplayable(format!("`{spec}` ({}): {e}", g.title)))?;
    let mut p = PlayerSpec {
        spec: spec.to_owned(),
        source: shown,
        title: g.title.clone(),
        slug: g.slug.clone(),
        game: g.clone(),
        ai: own,
        ai_spec: name.ai.clone(),
        warnings: warning.into_iter().collect(),
    };
    if let Some(ai) = &name.ai {
        if ai.kind == AiKind::Program && !p.has_engine() {
            return Err(SpecError::Ai(format!(
                "`{spec}`: `@program` plays an Axiom program's own engines, and \"{}\" is ZRF rules without an Axiom engine",
                p.title
            )));
        }
        p.ai = ai.apply(&p.ai);
    }
    Ok(Player::Rules(p))
}

fn axiom_player(
    spec: &str,
    path: &std::path::Path,
    variant: Option<&str>,
    ai: Option<AiSpec>,
    include_dirs: &[std::path::PathBuf],
) -> Result<Player, SpecError> {
    if let Some(v) = variant {
        return Err(SpecError::Invalid(format!(
            "`{spec}`: an Axiom variant file is one variant; `:{v}` cannot select another (name its own .4th file)"
        )));
    }
    if !path.is_file() {
        return Err(SpecError::Unreadable(format!(
            "cannot read `{}`: no such file",
            path.display()
        )));
    }
    let program = Program::load_in(path, None, include_dirs).map_err(|e| {
        SpecError::Unplayable(format!("`{}` cannot be played: {e}", path.display()))
    })?;
    let config = match &ai {
        // `@program`, `@random` and `@first` play as Axiom's own, `{random}` and `{first}`
        // engines do; dagaz's searching AIs play through make/unmake with dagaz's
        // evaluation (material: the program's pieces have no zones or directions for it).
        Some(a) => a.apply(&AiConfig::default()),
        None => AiConfig {
            kind: AiKind::Program,
            ..AiConfig::default()
        },
    };
    Ok(Player::Axiom(AxiomPlayer {
        spec: spec.to_owned(),
        program,
        ai: config,
        ai_spec: ai,
    }))
}

/// What an Axiom program's own engines are, as they will play: each seat's engine, with
/// `$NegamaxMove`'s depth (`depth`, or Axiom's default), `$UCTMove`'s playouts and the
/// step budget of the searching engines (`search_steps`, or the default), e.g.
/// `program (White negamax depth 5 within 1000000000 steps, Black random)`; one engine for
/// every seat is named once: `program (negamax depth 3 within 1000000000 steps)`.
pub fn describe_program(p: &Program, depth: Option<u32>, search_steps: Option<u64>) -> String {
    let depth = depth.unwrap_or(crate::axiom::DEFAULT_SEARCH_DEPTH).max(1);
    let steps = search_steps
        .unwrap_or(crate::axiom::state::SEARCH_STEPS)
        .max(1);
    let seats: Vec<(String, String)> = p
        .info
        .players
        .iter()
        .zip(p.engines())
        .enumerate()
        .filter(|(k, _)| !p.info.is_random(*k))
        .map(|(_, (pl, e))| {
            let e = match e.as_str() {
                "negamax" => format!("negamax depth {depth} within {steps} steps"),
                "uct" => format!(
                    "uct playouts {} within {steps} steps",
                    crate::axiom::search::UCT_PLAYOUTS
                ),
                w if w.starts_with("search-engine ") => format!("{w} for {steps} steps"),
                _ => e,
            };
            (pl.clone(), e)
        })
        .collect();
    if seats.is_empty() {
        return "program (the variant's own engines)".to_owned();
    }
    if seats.iter().all(|(_, e)| *e == seats[0].1) {
        return format!("program ({})", seats[0].1);
    }
    let each: Vec<String> = seats.iter().map(|(pl, e)| format!("{pl} {e}")).collect();
    format!("program ({})", each.join(", "))
}

/// The game form without what does not change the rules: `title`, `description`,
/// `history`, `strategy`, `help`-like texts at the top level, and `ai …` options.
pub fn rules_forms(form: &Node) -> Vec<Node> {
    form.items
        .iter()
        .filter(|n| {
            let descriptive = matches!(
                n.head(),
                Some("title" | "description" | "history" | "strategy" | "default")
            );
            let ai_option = n.head() == Some("option")
                && n.args()
                    .first()
                    .and_then(|a| a.word())
                    .is_some_and(is_ai_option);
            !descriptive && !ai_option
        })
        .cloned()
        .collect()
}

/// True when both players play the same rules (see the module documentation).
pub fn same_rules(a: &PlayerSpec, b: &PlayerSpec) -> bool {
    crate::syntax::tree::same_forms(&rules_forms(&a.game.form), &rules_forms(&b.game.form))
}

/// True when `start` plays the same rules as `player` except for its start position
/// (`board-setup`), so that it can give a book line's start position. Titles, descriptive
/// texts and `ai …` options are set aside as [`same_rules`] does.
pub fn same_rules_but_setup(player: &PlayerSpec, start: &PlayerSpec) -> bool {
    let forms = |p: &PlayerSpec| -> Vec<crate::syntax::Node> {
        rules_forms(&p.game.form)
            .into_iter()
            .filter(|n| n.head() != Some("board-setup"))
            .collect()
    };
    crate::syntax::tree::same_forms(&forms(player), &forms(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ur_variants_resolve_and_share_rules() {
        let a = resolve("ur-random").unwrap();
        let b = resolve("ur-simple").unwrap();
        assert_eq!(a.title, "Ur [random]");
        assert_eq!(a.axiom_name(), "Ur-[random]");
        assert_eq!(b.ai.kind, crate::ai::AiKind::Greedy);
        assert!(same_rules(&a, &b));
        let c = resolve("ur:ur-aggressive").unwrap();
        assert!(same_rules(&a, &c));
        let t = resolve("tictactoe").unwrap();
        assert!(!same_rules(&a, &t));
        let e = resolve("ur-randm").unwrap_err();
        assert!(e.message().contains("did you mean: ur-random"), "{e}");
        assert!(
            matches!(&e, SpecError::NotFound(_, near) if near.contains(&"ur-random".to_owned()))
        );
    }

    #[test]
    fn an_ai_part_replaces_the_variants_ai() {
        let p = resolve("ur-aggressive@expectimax:depth=2,weight-progress=5").unwrap();
        assert_eq!(p.title, "Ur [aggressive]");
        assert_eq!(
            p.ai.describe(),
            "expectimax depth 2 (material 1, progress 5)"
        );
        // The variant's zone and piece values stay.
        assert_eq!(p.ai.zone.as_deref(), Some("rosettes"));
        assert!(p.ai.values.contains(&("Bonus".to_owned(), 0.0)));
        assert_eq!(resolve("ur-aggressive").unwrap().ai.kind, AiKind::Greedy);
        let p = resolve("tic-tac-toe@random").unwrap();
        assert_eq!(
            (p.ai.kind, p.slug.as_str()),
            (AiKind::Random, "tic-tac-toe")
        );
        let e = resolve("checkers@program").unwrap_err();
        assert!(
            matches!(&e, SpecError::Ai(m) if m.contains("without an Axiom engine")),
            "{e}"
        );
        let e = resolve("checkers@alphabeta:dpth=3").unwrap_err();
        assert!(
            e.message().starts_with(
                "`checkers@alphabeta:dpth=3`: unknown setting `dpth`, did you mean `depth`?"
            ),
            "{e}"
        );
        let e = resolve("chess:kiwipet").unwrap_err();
        assert!(
            matches!(&e, SpecError::NoVariant(_, near) if near == &["kiwipete"]),
            "{e}"
        );
        assert_eq!(e.to_diagnostic().unwrap().code.id, "DZ0212");
    }

    #[test]
    fn axiom_programs_play_their_engines_or_random_or_first() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race");
        let spec = |name: &str| dir.join(name).to_string_lossy().into_owned();
        let opts = ResolveOptions::default();
        let Player::Axiom(p) = resolve_player(&spec("Race.4th"), &opts).unwrap() else {
            panic!("an Axiom program");
        };
        assert_eq!(p.ai.kind, AiKind::Program);
        assert_eq!(
            describe_program(&p.program, None, None),
            "program (negamax depth 3 within 1000000000 steps)"
        );
        assert_eq!(
            describe_program(&p.program, Some(6), Some(9000)),
            "program (negamax depth 6 within 9000 steps)"
        );
        // Named without its extension, with dagaz's random player.
        let Player::Axiom(p) = resolve_player(&spec("Race-[first]@random"), &opts).unwrap() else {
            panic!("an Axiom program");
        };
        assert_eq!(p.ai.kind, AiKind::Random);
        assert_eq!(describe_program(&p.program, None, None), "program (first)");
        let Player::Axiom(p) = resolve_player(&spec("Race.4th@mcts:playouts=50"), &opts).unwrap()
        else {
            panic!("an Axiom program");
        };
        assert_eq!(p.ai.kind, AiKind::Mcts);
        assert_eq!(p.ai.limits.playouts, Some(50));
        let e = resolve_player(&spec("Race.4th:x"), &opts).err().unwrap();
        assert!(e.message().contains("is one variant"), "{e}");
        assert!(
            resolve(&spec("Race.4th"))
                .unwrap_err()
                .message()
                .contains("Axiom program")
        );
    }
}
