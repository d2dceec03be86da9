//! The games of a match or round robin from its players' sources: ZRF rules, Axiom
//! programs, or ZRF rules whose moves come from an Axiom engine (played through their
//! variants' `.4th` files). [`Lineup::resolve`] names the players and checks that they are
//! of one kind; [`Lineup::build`] makes each pairing's game, the sides, the opening book
//! and the saved-game writer, with typed errors and the warnings to show.

use super::zsg_out::{ZsgOut, ZsgWriter};
use crate::ai::engine_game::EngineGame;
use crate::ai::{AiConfig, AiKind};
use crate::axiom::{AxiomGame, Program};
use crate::engine::RepetitionRule;
use crate::model::Model;
use crate::players::resolve::ResolveOptions;
use crate::players::spec::{
    AxiomPlayer, Player, PlayerSpec, SpecError, describe_program, resolve_player, same_rules,
    same_rules_but_setup,
};
use crate::record::{Repetition, RunSettings};
use crate::tournament::openings::{MAX_BOOK_BYTES, Opening, OpeningBook, parse_book};
use crate::tournament::with_limits;
use std::path::{Path, PathBuf};

/// The settings of the command line that building the games takes.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct SourceSettings {
    /// The run seed (an Axiom match seeds its programs with it).
    pub seed: u64,
    pub repetition: Repetition,
    /// `--depth`: the depth of `$NegamaxMove`.
    pub depth: Option<u32>,
    /// `--search-steps`: the step budget of a program's engines.
    pub search_steps: Option<u64>,
    /// `--nodes` and `--time-ms`, which a program's own engines ignore (a warning).
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
    /// `--move-cache on`.
    pub move_cache: bool,
    /// `--include-dir`.
    pub include_dirs: Vec<PathBuf>,
    /// `--openings` and `--random-plies`.
    pub openings: Option<PathBuf>,
    pub random_plies: u32,
    /// `--zsg-out`.
    pub zsg_out: Option<PathBuf>,
}

impl SourceSettings {
    /// The settings of a run of `seed`, everything else at its default.
    pub fn new(seed: u64) -> SourceSettings {
        SourceSettings {
            seed,
            move_cache: true,
            ..SourceSettings::default()
        }
    }
}

/// Why the games of a match cannot be built.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum SourceError {
    /// A player names no game, or its rules cannot be read.
    Spec(SpecError),
    /// Axiom programs and ZRF games in one match.
    Mixed(String),
    /// Two players are not variants of the same rules.
    NotSameRules(String),
    /// A round robin of a game without goals.
    NoGoals(String),
    /// The Axiom engine of a ZRF game cannot be found or loaded.
    Engine(String),
    /// The rules or programs cannot be played (they have errors).
    Unplayable(String),
    /// `--openings` cannot be read or does not fit the game.
    Openings(String),
    /// `--zsg-out` is refused or its folder cannot be made.
    ZsgOut(String),
}

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceError::Spec(e) => e.fmt(f),
            SourceError::Mixed(m)
            | SourceError::NotSameRules(m)
            | SourceError::NoGoals(m)
            | SourceError::Engine(m)
            | SourceError::Unplayable(m)
            | SourceError::Openings(m)
            | SourceError::ZsgOut(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SourceError {}

/// The resolved players of a match: all of ZRF rules, or all Axiom programs.
pub enum Lineup {
    Rules(Vec<PlayerSpec>),
    Axiom(Vec<AxiomPlayer>),
}

impl Lineup {
    /// Resolves `players` in order. A match (`round_robin` false) of one player gives it
    /// both places. Fails on a name that names no game and on a mix of kinds.
    pub fn resolve(
        players: &[String],
        opts: &ResolveOptions,
        round_robin: bool,
    ) -> Result<Lineup, SourceError> {
        let mut resolved = players
            .iter()
            .map(|p| resolve_player(p, opts).map_err(SourceError::Spec))
            .collect::<Result<Vec<_>, _>>()?;
        if !round_robin && resolved.len() == 1 {
            resolved.push(resolved[0].clone());
        }
        let axiom = resolved
            .iter()
            .filter(|p| matches!(p, Player::Axiom(_)))
            .count();
        if axiom == 0 {
            let specs = resolved.into_iter().filter_map(|p| match p {
                Player::Rules(s) => Some(s),
                Player::Axiom(_) => None,
            });
            return Ok(Lineup::Rules(specs.collect()));
        }
        if axiom == resolved.len() {
            let programs = resolved.into_iter().filter_map(|p| match p {
                Player::Axiom(x) => Some(x),
                Player::Rules(_) => None,
            });
            return Ok(Lineup::Axiom(programs.collect()));
        }
        Err(SourceError::Mixed(if round_robin {
            "some players are Axiom programs (.4th) and others ZRF games: all must be of the same game"
        } else {
            "one player is an Axiom program (.4th) and the other a ZRF game: both must be of the same game"
        }.to_owned()))
    }

    /// What the user should know of the players (a title shared by several variants).
    pub fn warnings(&self) -> Vec<String> {
        match self {
            Lineup::Rules(specs) => specs.iter().flat_map(|s| s.warnings.clone()).collect(),
            Lineup::Axiom(_) => vec![],
        }
    }

    /// The games of the pairings `pairs` (indices into the lineup). A round robin refuses
    /// a game without goals; a match reports it ([`Plan::goalless`]).
    pub fn build(
        self,
        pairs: &[[usize; 2]],
        s: &SourceSettings,
        round_robin: bool,
    ) -> Result<Games, SourceError> {
        match self {
            Lineup::Axiom(players) => {
                let sides = players
                    .iter()
                    .map(|x| Side::axiom(&x.spec, &x.program, &x.ai, s.search_steps))
                    .collect();
                let programs: Vec<Program> = players.into_iter().map(|x| x.program).collect();
                let mut plan = axiom_plan(&programs, sides, pairs, s)?;
                if s.zsg_out.is_some() {
                    return Err(SourceError::ZsgOut(
                        "--zsg-out writes ZRF games; Axiom programs are not supported yet"
                            .to_owned(),
                    ));
                }
                plan.warnings = unused_limits(s, &plan.sides);
                Ok(Games::Axiom(plan))
            }
            Lineup::Rules(specs) => match zrf_axiom(&specs[0], &s.include_dirs) {
                Some(first) => Ok(Games::Axiom(engine_plan(&specs, first?, pairs, s)?)),
                None => Ok(Games::Rules(rules_plan(&specs, s, round_robin)?)),
            },
        }
    }
}

/// The games of a match, by the kind of game they are played through.
pub enum Games {
    Rules(Plan<EngineGame>),
    Axiom(Plan<AxiomGame>),
}

/// The games of a match or round robin, ready to play.
pub struct Plan<G> {
    /// One per player of the lineup.
    pub sides: Vec<Side>,
    /// The game of each pairing, or one game for them all.
    pub protos: Vec<G>,
    /// The opening book of each pairing's game, or one for them all.
    pub books: Vec<OpeningBook<G>>,
    /// The setting recorded for the book (`name#hash`).
    pub book_setting: Option<String>,
    /// The rules state no goals: their games can only be drawn.
    pub goalless: bool,
    /// `--zsg-out`.
    pub zsg: Option<ZsgOut>,
    /// What the user should know (limits that do not reach a program's engines).
    pub warnings: Vec<String>,
}

impl<G> Plan<G> {
    /// The game of pairing `p`.
    pub fn proto(&self, p: usize) -> &G {
        &self.protos[p.min(self.protos.len() - 1)]
    }

    /// The opening book of pairing `p`.
    pub fn book(&self, p: usize) -> &OpeningBook<G> {
        &self.books[p.min(self.books.len() - 1)]
    }
}

/// A two-program game per pairing, each with its own book.
fn axiom_plan(
    programs: &[Program],
    sides: Vec<Side>,
    pairs: &[[usize; 2]],
    s: &SourceSettings,
) -> Result<Plan<AxiomGame>, SourceError> {
    let mut protos = vec![];
    for &[i, j] in pairs {
        let mut g = AxiomGame::new(&programs[i], &programs[j], s.seed)
            .map_err(|e| SourceError::Unplayable(e.to_string()))?;
        configure_axiom(&mut g, s);
        protos.push(g);
    }
    let mut books = vec![];
    let mut book_setting = None;
    for g in &protos {
        let (book, setting) = opening_book(s, g, no_setup_variants)?;
        books.push(book);
        book_setting = setting;
    }
    Ok(Plan {
        sides,
        protos,
        books,
        book_setting,
        goalless: false,
        zsg: None,
        warnings: vec![],
    })
}

/// A ZRF game whose moves come from Axiom: played through its variants' `.4th` files
/// (`first`: the file and engine folder of the first player's), with the programs' own
/// engines unless a spec names an AI.
fn engine_plan(
    specs: &[PlayerSpec],
    first: (PathBuf, PathBuf),
    pairs: &[[usize; 2]],
    s: &SourceSettings,
) -> Result<Plan<AxiomGame>, SourceError> {
    let mut programs = vec![];
    let mut sides = vec![];
    for p in specs {
        let (f, dir) = zrf_axiom(p, &s.include_dirs).unwrap_or_else(|| Ok(first.clone()))?;
        let program = Program::load(&f, Some(&dir))
            .map_err(|e| SourceError::Engine(format!("`{}` cannot be played: {e}", f.display())))?;
        let ai = match &p.ai_spec {
            Some(_) => p.ai.clone(),
            None => program_ai(),
        };
        sides.push(Side::axiom(&p.spec, &program, &ai, s.search_steps));
        programs.push(program);
    }
    let mut plan = axiom_plan(&programs, sides, pairs, s)?;
    if s.zsg_out.is_some() {
        // The saved games' moves are read by the first program (all play the same rules).
        let start = AxiomGame::new(&programs[0], &programs[0], s.seed)
            .map_err(|e| SourceError::Unplayable(e.to_string()))?;
        plan.zsg = ZsgOut::new(s.zsg_out.as_deref(), &specs[0], ZsgWriter::Program(start))
            .map_err(SourceError::ZsgOut)?;
    }
    plan.warnings = unused_limits(s, &plan.sides);
    Ok(plan)
}

/// A ZRF game played by dagaz's engine: one game for every pairing.
fn rules_plan(
    specs: &[PlayerSpec],
    s: &SourceSettings,
    round_robin: bool,
) -> Result<Plan<EngineGame>, SourceError> {
    let first = &specs[0];
    if let Some(p) = specs.iter().find(|p| !same_rules(first, p)) {
        return Err(SourceError::NotSameRules(format!(
            "`{}` (\"{}\", {}) and `{}` (\"{}\", {}) are not variants of the same rules: they differ in more than titles and \"ai\" options",
            first.spec, first.title, first.source, p.spec, p.title, p.source
        )));
    }
    let model = compile(first)?;
    let goalless = model.goals.is_empty();
    if goalless && round_robin {
        return Err(SourceError::NoGoals(format!(
            "\"{}\" ({}) states no goals: its games can only be drawn, so a round robin has nothing to rate (two players show how the games end)",
            first.title, first.source
        )));
    }
    let zsg = ZsgOut::new(
        s.zsg_out.as_deref(),
        first,
        ZsgWriter::Engine(Box::new(crate::engine::Engine::new(model.clone()))),
    )
    .map_err(SourceError::ZsgOut)?;
    let rule = match s.repetition {
        Repetition::Draw => RepetitionRule::Draw,
        Repetition::Off => RepetitionRule::Off,
    };
    let mut proto = EngineGame::new(model);
    proto.engine.repetition = rule;
    // A book line `variant: SPEC` starts from that variant's position.
    let opts = ResolveOptions::with_include_dirs(&s.include_dirs);
    let setup_variant = |spec: &str| setup_variant_game(spec, &opts, first, rule);
    let (book, book_setting) = opening_book(s, &proto, setup_variant)?;
    let sides: Vec<Side> = specs.iter().map(Side::zrf).collect();
    Ok(Plan {
        warnings: unused_limits(s, &sides),
        sides,
        protos: vec![proto],
        books: vec![book],
        book_setting,
        goalless,
        zsg,
    })
}

/// The model of `p`'s rules.
fn compile(p: &PlayerSpec) -> Result<Model, SourceError> {
    Model::compile(&p.game).map_err(|diags| {
        let msgs: Vec<String> = diags.iter().map(|d| d.message.clone()).collect();
        SourceError::Unplayable(format!(
            "`{}` cannot be played: {}",
            p.spec,
            msgs.join("; ")
        ))
    })
}

/// The start position of a book line `variant: SPEC`: that variant of `player`'s rules,
/// which may differ from them only in its `board-setup`.
fn setup_variant_game(
    spec: &str,
    opts: &ResolveOptions,
    player: &PlayerSpec,
    rule: RepetitionRule,
) -> Result<EngineGame, String> {
    let v = match resolve_player(spec, opts).map_err(|e| e.to_string())? {
        Player::Rules(v) => v,
        Player::Axiom(_) => {
            return Err(format!("`{spec}` is an Axiom program, not a ZRF variant"));
        }
    };
    if !same_rules_but_setup(player, &v) {
        return Err(format!(
            "`{spec}` (\"{}\") is not a start position of `{}`: its rules differ in more than the board-setup",
            v.title, player.spec
        ));
    }
    let mut g = EngineGame::new(compile(&v).map_err(|e| e.to_string())?);
    g.engine.repetition = rule;
    Ok(g)
}

fn no_setup_variants<G>(_: &str) -> Result<G, String> {
    Err(
        "`variant:` lines need a ZRF game (an Axiom program has no variants to start from)"
            .to_owned(),
    )
}

/// Reads and checks `--openings` (and takes `--random-plies`); `setup_variant` gives the
/// start position of a `variant: SPEC` line.
fn opening_book<G: crate::ai::Game>(
    s: &SourceSettings,
    proto: &G,
    setup_variant: impl Fn(&str) -> Result<G, String>,
) -> Result<(OpeningBook<G>, Option<String>), SourceError> {
    let mut book = OpeningBook {
        random_plies: s.random_plies,
        ..OpeningBook::default()
    };
    let Some(path) = &s.openings else {
        return Ok((book, None));
    };
    let name = path.display().to_string();
    let err = |e: String| SourceError::Openings(format!("--openings: {e}"));
    let size = std::fs::metadata(path)
        .map_err(|e| err(format!("cannot read `{name}`: {e}")))?
        .len();
    if size > MAX_BOOK_BYTES as u64 {
        return Err(err(format!(
            "`{name}` is {size} bytes; an opening book may hold at most {MAX_BOOK_BYTES}"
        )));
    }
    let text =
        std::fs::read_to_string(path).map_err(|e| err(format!("cannot read `{name}`: {e}")))?;
    for line in parse_book(&text, &name).map_err(|e| err(e.to_string()))? {
        let start = match &line.variant {
            Some(v) => {
                Some(setup_variant(v).map_err(|e| err(format!("{name}:{}: {e}", line.line)))?)
            }
            None => None,
        };
        book.openings.push(Opening { line, start });
    }
    book.check(proto, &name).map_err(|e| err(e.to_string()))?;
    let hash = crate::record::hash_hex(&text);
    Ok((book, Some(format!("{name}#{hash}"))))
}

/// What the report and the records need to know of a player.
#[derive(Clone)]
pub struct Side {
    /// The spec as given.
    pub spec: String,
    pub title: String,
    /// Where the rules or program came from.
    pub source: String,
    pub ai: AiConfig,
    /// The program's engines, when the AI is the program's own ([`AiKind::Program`]).
    pub program: Option<Program>,
    /// The text that identifies the player's rules in the records.
    pub identity: String,
    /// `--search-steps`, for naming a program's own search engine.
    pub search_steps: Option<u64>,
}

impl Side {
    /// A player of ZRF rules, played by dagaz's engine.
    pub fn zrf(p: &PlayerSpec) -> Side {
        Side {
            spec: p.spec.clone(),
            title: p.title.clone(),
            source: p.source.clone(),
            ai: p.ai.clone(),
            program: None,
            identity: crate::syntax::print::print_compact(&p.game.form),
            search_steps: None,
        }
    }

    /// A player of the program `p` with the AI `ai`.
    pub fn axiom(spec: &str, p: &Program, ai: &AiConfig, search_steps: Option<u64>) -> Side {
        let mut identity = String::new();
        for f in [&p.runtime.0, &p.runtime.1, &Some(p.path.clone())]
            .into_iter()
            .flatten()
        {
            identity += &std::fs::read_to_string(f).unwrap_or_default();
        }
        Side {
            spec: spec.to_owned(),
            title: p.info.name.clone(),
            source: p.path.display().to_string(),
            ai: ai.clone(),
            program: (ai.kind == AiKind::Program).then(|| p.clone()),
            identity,
            search_steps,
        }
    }

    /// The AI as it plays: after `--depth`, `--nodes` and `--time-ms`.
    pub fn describe(&self, settings: &RunSettings) -> String {
        match &self.program {
            Some(p) => describe_program(p, settings.depth, self.search_steps),
            None => with_limits(self.ai.clone(), settings).describe(),
        }
    }
}

/// The warning when `--nodes` or `--time-ms` is given and a side plays with an Axiom
/// program's own engines, which those limits do not reach (`--depth` and `--search-steps`
/// do).
fn unused_limits(s: &SourceSettings, sides: &[Side]) -> Vec<String> {
    let given: Vec<&str> = [s.nodes.map(|_| "--nodes"), s.time_ms.map(|_| "--time-ms")]
        .into_iter()
        .flatten()
        .collect();
    if given.is_empty() || !sides.iter().any(|s| s.program.is_some()) {
        return vec![];
    }
    let verb = if given.len() == 1 { "does" } else { "do" };
    vec![format!(
        "warning: {} {verb} not limit an Axiom program's own engines; --depth and --search-steps do",
        given.join(" and ")
    )]
}

/// The AI of a player that plays with its program's own engines.
fn program_ai() -> AiConfig {
    AiConfig {
        kind: AiKind::Program,
        ..AiConfig::default()
    }
}

/// The Axiom variant file and engine folder of a ZRF player whose game names an Axiom
/// engine.
fn zrf_axiom(
    p: &PlayerSpec,
    include_dirs: &[PathBuf],
) -> Option<Result<(PathBuf, PathBuf), SourceError>> {
    if p.source.starts_with("bundled:") {
        return None;
    }
    crate::axiom::program::zrf_engine_variant(
        &p.game.form,
        &p.title,
        Path::new(&p.source),
        include_dirs,
    )
    .map(|r| r.map_err(|e| SourceError::Engine(format!("`{}`: {e}", p.spec))))
}

/// The settings of the command line that an Axiom match takes: repetition, the depth of
/// `$NegamaxMove`, the engines' step budget and the move-word cache.
fn configure_axiom(g: &mut AxiomGame, s: &SourceSettings) {
    g.repetition = s.repetition == Repetition::Draw;
    if let Some(d) = s.depth {
        g.set_search_depth(d);
    }
    if let Some(n) = s.search_steps {
        g.set_search_steps(n);
    }
    g.set_move_cache(s.move_cache);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(rel: &str) -> String {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        dir.join(rel).to_string_lossy().into_owned()
    }

    fn lineup(players: &[String], round_robin: bool) -> Result<Lineup, SourceError> {
        Lineup::resolve(players, &ResolveOptions::default(), round_robin)
    }

    fn build(players: &[String], round_robin: bool) -> Result<Games, SourceError> {
        let pairs: &[[usize; 2]] = if round_robin {
            &[[0, 1], [0, 2], [1, 2]]
        } else {
            &[[0, 1]]
        };
        lineup(players, round_robin)?.build(pairs, &SourceSettings::new(1), round_robin)
    }

    #[test]
    fn zrf_players_share_one_engine_game() {
        let players = ["ur-simple".to_owned(), "ur-random".to_owned()];
        let Ok(Games::Rules(plan)) = build(&players, false) else {
            panic!("a ZRF match")
        };
        assert_eq!(plan.sides.len(), 2);
        assert_eq!(plan.protos.len(), 1);
        assert!(!plan.goalless && plan.zsg.is_none() && plan.warnings.is_empty());
        assert_eq!(plan.sides[1].spec, "ur-random");
        // One player takes both places of a match.
        let Ok(Games::Rules(plan)) = build(&players[..1], false) else {
            panic!("a ZRF match")
        };
        assert_eq!(plan.sides[1].spec, "ur-simple");
    }

    #[test]
    fn axiom_players_get_a_program_match_per_pairing() {
        let players: Vec<String> = ["first", "random", "uct"]
            .iter()
            .map(|ai| fixture(&format!("axiom/race/Race-[{ai}].4th")))
            .collect();
        let Ok(Games::Axiom(plan)) = build(&players, true) else {
            panic!("an Axiom round robin")
        };
        assert_eq!((plan.sides.len(), plan.protos.len()), (3, 3));
        assert_eq!(plan.books.len(), 3);
        // --nodes does not reach a program's own engines.
        let mut s = SourceSettings::new(1);
        s.nodes = Some(10);
        let lineup = lineup(&players[..2], false).expect("players");
        let Ok(Games::Axiom(plan)) = lineup.build(&[[0, 1]], &s, false) else {
            panic!("an Axiom match")
        };
        assert_eq!(plan.warnings.len(), 1, "{:?}", plan.warnings);
        assert!(plan.warnings[0].contains("--nodes does not limit"));
        // Nor is there a saved game of a program's moves.
        s.zsg_out = Some(PathBuf::from("unused"));
        let lineup = self::lineup(&players[..2], false).expect("players");
        assert!(matches!(
            lineup.build(&[[0, 1]], &s, false),
            Err(SourceError::ZsgOut(_))
        ));
    }

    #[test]
    fn zrf_rules_with_an_axiom_engine_play_through_their_programs() {
        let zrf = fixture("axiom/race/race.zrf");
        let players = [format!("{zrf}:race-first"), format!("{zrf}:race-random")];
        let Ok(Games::Axiom(plan)) = build(&players, false) else {
            panic!("a ZRF game played by its Axiom engine")
        };
        assert_eq!(plan.sides[0].title, "Race-[first]");
        assert!(plan.sides.iter().all(|s| s.program.is_some()));
        // Its games are played by the programs.
        let players = [plan.sides[0].spec.clone(), plan.sides[1].spec.clone()];
        let settings = RunSettings::new(players.clone(), players, 4);
        let cfg = crate::tournament::RunConfig::new(1, settings);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let ais = [&plan.sides[0].ai, &plan.sides[1].ai];
        let out = crate::tournament::run(plan.proto(0), ais, &cfg, &stop, &|_| {}).expect("run");
        assert_eq!(out.records.len(), 4);
        assert!(out.records.iter().all(|r| r.error.is_none()));
    }

    /// The games of a match are copies of one program; each draws its own numbers from its
    /// game's seed, so two searching programs whose moves are all equal (`Compat.4th`
    /// values every position alike) play other games, and the same games again with the
    /// same seed.
    #[test]
    fn the_games_of_an_axiom_match_draw_their_own_numbers() {
        let compat = fixture("axiom/compat/Compat.4th");
        let players = [compat.clone(), compat];
        let Ok(Games::Axiom(plan)) = build(&players, false) else {
            panic!("an Axiom match")
        };
        let games = || {
            let players = [plan.sides[0].spec.clone(), plan.sides[1].spec.clone()];
            let settings = RunSettings::new(players.clone(), players, 8);
            let cfg = crate::tournament::RunConfig::new(3, settings);
            let stop = std::sync::atomic::AtomicBool::new(false);
            let ais = [&plan.sides[0].ai, &plan.sides[1].ai];
            let out =
                crate::tournament::run(plan.proto(0), ais, &cfg, &stop, &|_| {}).expect("run");
            out.records.into_iter().map(|r| r.moves).collect::<Vec<_>>()
        };
        let first = games();
        let distinct: std::collections::BTreeSet<_> = first.iter().collect();
        assert!(distinct.len() >= 4, "{distinct:?}");
        assert_eq!(first, games());
    }

    #[test]
    fn mismatched_sources_are_typed_errors() {
        let race = fixture("axiom/race/Race-[first].4th");
        let mixed = [race.clone(), "ur-simple".to_owned()];
        let Err(SourceError::Mixed(m)) = lineup(&mixed, false) else {
            panic!("a mixed match")
        };
        assert!(m.starts_with("one player is an Axiom program"), "{m}");
        let mixed = [race, "ur-simple".to_owned(), "ur-random".to_owned()];
        let Err(SourceError::Mixed(m)) = lineup(&mixed, true) else {
            panic!("a mixed round robin")
        };
        assert!(m.starts_with("some players are Axiom programs"), "{m}");
        let other = ["ur-simple".to_owned(), "tic-tac-toe".to_owned()];
        let Err(SourceError::NotSameRules(m)) = build(&other, false) else {
            panic!("other rules")
        };
        assert!(m.contains("not variants of the same rules"), "{m}");
        let other = [
            "ur-random".to_owned(),
            "ur-simple".to_owned(),
            "tic-tac-toe".to_owned(),
        ];
        assert!(matches!(
            build(&other, true),
            Err(SourceError::NotSameRules(_))
        ));
        assert!(matches!(
            lineup(&["no-such-game".to_owned()], false),
            Err(SourceError::Spec(_))
        ));
    }

    #[test]
    fn a_round_robin_refuses_rules_without_goals() {
        let walk = fixture("outcomes/no-goals.zrf");
        let two = [walk.clone(), walk.clone()];
        let Ok(Games::Rules(plan)) = build(&two, false) else {
            panic!("a match of a goalless game")
        };
        assert!(plan.goalless);
        let walk2 = format!("{walk}@random");
        let three = [walk.clone(), walk2, format!("{walk}@first")];
        assert!(matches!(build(&three, true), Err(SourceError::NoGoals(_))));
    }
}
