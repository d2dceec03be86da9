//! Loading an Axiom program: a variant file, its `LOAD` chain and the runtime files of its
//! folder, into a Forth VM; then finding the runtime's data structures in VM memory.
//!
//! Search order for the runtime files (names compared without regard to case, as on
//! Windows): the variant's own folder, then the folder given by the caller (the one a ZRF's
//! `(engine "…/axiom.dll")` names). When no `CORE.4TH` is found, dagaz's own Forth prelude
//! is used; when no `axiom.4th` is found, dagaz's own Axiom layer (`layer.4th`).

use super::natives::{NATIVES, NativeXts, Runtime};
use super::{AxiomError, layer};
use crate::forth::{ForthError, ForthErrorKind, Limits, Vm};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Addresses (PFAs) of the runtime's variables and execution tokens of its words.
#[derive(Clone, Copy, Debug, Default)]
pub struct Layout {
    pub board: u32,
    pub board_size: u32,
    pub positions: u32,
    pub pos_names: u32,
    pub pieces: u32,
    pub piece_count: u32,
    pub players: u32,
    pub player_count: u32,
    pub player_name: u32,
    pub player_offset: u32,
    pub turn_order: u32,
    pub turn_offset: u32,
    pub of_type: u32,
    pub for_player: u32,
    pub turn_number: u32,
    pub moves_list: u32,
    pub last_move_type: u32,
    pub from: u32,
    pub pos: u32,
    pub piece: u32,
    pub player: u32,
    pub partial: u32,
    pub passed: u32,
    pub last_pos: u32,
    pub move_priorities: u32,
    pub board_setup: u32,
    pub pass_turn_forced: u32,
    /// Execution tokens of the events and internal words.
    pub new_game: u32,
    pub on_new_game: u32,
    pub on_is_game_over: u32,
    pub on_evaluate: u32,
    pub on_next_turn: u32,
    pub on_search: u32,
    pub on_edit_add: u32,
    pub on_generate_moves: u32,
    /// Move records: offset of the move type and of the code field (`.moveType`,
    /// `.moveCFA`), and of the notation pointer when the runtime keeps one (`.moveString`,
    /// Axiom 1.40; 1.50 decompiles it with `$DecompileMove`).
    pub rec_type: u32,
    pub rec_cfa: u32,
    pub rec_string: Option<u32>,
    /// Axiom 1.50's scan limits (`$scanPositions`, `$scanPieceCount`), when present.
    pub scan_positions: Option<u32>,
    pub scan_pieces: Option<u32>,
    /// Axiom's `$depthLimit` and `$iterationDepth`, when present: `$NegamaxMove` writes
    /// its depth limit and the depth of the iteration under way there.
    pub depth_limit: Option<u32>,
    pub iteration_depth: Option<u32>,
}

/// A move record's hidden cells, before the record itself: the notation pointer and the
/// number of pieces the move captures.
pub const REC_NOTATION: u32 = 8;
pub const REC_CAPTURES: u32 = 4;

/// The turn-state variables a search saves and restores around a move.
pub(crate) fn turn_vars(l: &Layout) -> [u32; 15] {
    [
        l.turn_offset,
        l.player,
        l.player_name,
        l.player_offset,
        l.for_player,
        l.of_type,
        l.partial,
        l.passed,
        l.turn_number,
        l.last_move_type,
        l.moves_list,
        l.last_pos,
        l.from,
        l.pos,
        l.piece,
    ]
}

/// What the game declares, read once after loading.
#[derive(Clone, Debug, Default)]
pub struct GameInfo {
    /// Player names in `{players}` order; player k (0-based) has value `(k+1) * 2048`.
    pub players: Vec<String>,
    /// Position names by index.
    pub positions: Vec<String>,
    /// Piece type names; type t (1-based) is `pieces[t-1]`.
    pub pieces: Vec<String>,
    /// The variant file's stem (`Ur-[random]`).
    pub name: String,
}

/// A loaded program: the VM right after loading, ready to start games from.
#[derive(Clone)]
pub struct Program {
    pub vm: Vm,
    pub layout: Layout,
    pub info: Arc<GameInfo>,
    pub(crate) xts: Arc<NativeXts>,
    /// The variant file.
    pub path: PathBuf,
    /// Which runtime files were used: (CORE.4TH or None for dagaz's prelude, axiom.4th or
    /// None for dagaz's layer).
    pub runtime: (Option<PathBuf>, Option<PathBuf>),
    /// Primitives allowed for one generation, one move or one event of its games.
    pub turn_steps: u64,
}

/// How a program is loaded: the further folders a `LOAD` may read and the step budgets.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LoadOptions {
    /// The `--include-dir` folders, besides the variant's folder and the engine folder.
    pub include_dirs: Vec<PathBuf>,
    /// Primitives allowed while loading ([`LOAD_STEPS`]).
    pub load_steps: u64,
    /// Primitives allowed for one generation, one move or one event
    /// ([`super::state::TURN_STEPS`]).
    pub turn_steps: u64,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            include_dirs: Vec::new(),
            load_steps: LOAD_STEPS,
            turn_steps: super::state::TURN_STEPS,
        }
    }
}

impl LoadOptions {
    /// The defaults, with `include_dirs`.
    pub fn with_include_dirs(include_dirs: &[PathBuf]) -> LoadOptions {
        LoadOptions {
            include_dirs: include_dirs.to_vec(),
            ..LoadOptions::default()
        }
    }
}

/// Finds `name` in `dir`, ignoring case (see [`crate::fsutil::file_ignoring_case`]).
pub fn find_file_ci(dir: &Path, name: &str) -> Option<PathBuf> {
    crate::fsutil::file_ignoring_case(&dir.join(name))
}

/// Memory for one Axiom VM: the runtime and a game take well under 1 MiB; searches clone
/// boards onto the dictionary.
pub const AXIOM_MEMORY: u32 = 4 << 20;
/// Primitives allowed while loading (the top-level code of the files).
pub const LOAD_STEPS: u64 = 200_000_000;

impl Program {
    /// Loads the variant file at `path`. `engine_dir` is a further folder to look for the
    /// runtime files in.
    pub fn load(path: &Path, engine_dir: Option<&Path>) -> Result<Program, AxiomError> {
        Program::load_with(path, engine_dir, &LoadOptions::default())
    }

    /// [`Program::load`] where a `LOAD` may also read the folders `include_dirs` (the
    /// `--include-dir` folders), besides the variant's folder and `engine_dir`.
    pub fn load_in(
        path: &Path,
        engine_dir: Option<&Path>,
        include_dirs: &[PathBuf],
    ) -> Result<Program, AxiomError> {
        Program::load_with(
            path,
            engine_dir,
            &LoadOptions::with_include_dirs(include_dirs),
        )
    }

    /// [`Program::load`] with further folders and other step budgets.
    pub fn load_with(
        path: &Path,
        engine_dir: Option<&Path>,
        opts: &LoadOptions,
    ) -> Result<Program, AxiomError> {
        let Loading {
            mut vm,
            mut host,
            xts,
            core,
            axiom,
            fatal: _,
        } = Loading::new(path, engine_dir, opts, false)?;
        vm.clear_stacks();
        vm.output.clear();
        let layout = Layout::resolve(&mut vm, &mut host)?;
        // Axiom 1.50's vectored `add-move` (`$add-move`), set by its DLL.
        if let (Some(var), Some(add)) = (vm.find(b"$add-move"), vm.find(b"add-move")) {
            if vm.cell(var + 16)? == 0 {
                vm.set_cell(var + 16, (add + 12) as i32)?;
            }
        }
        let info = GameInfo::read(&vm, &layout, path)?;
        Ok(Program {
            vm,
            layout,
            info: Arc::new(info),
            xts,
            path: path.to_path_buf(),
            runtime: (core, axiom),
            turn_steps: opts.turn_steps,
        })
    }
}

/// A VM with a program loaded, and what loading it used.
struct Loading {
    vm: Vm,
    host: Runtime,
    xts: Arc<NativeXts>,
    core: Option<PathBuf>,
    axiom: Option<PathBuf>,
    /// In lint mode, the error that stopped loading (the step budget, full memory, a
    /// refused file): the VM is kept, so the error is shown at its place in its file.
    fatal: Option<AxiomError>,
}

impl Loading {
    /// Loads the runtime and the variant file at `path` into a new VM; in lint mode
    /// (`lint`), the VM records findings in the variant's files and goes on loading.
    fn new(
        path: &Path,
        engine_dir: Option<&Path>,
        opts: &LoadOptions,
        lint: bool,
    ) -> Result<Loading, AxiomError> {
        let include_dirs = &opts.include_dirs;
        let dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        let mut dirs = vec![dir.clone()];
        if let Some(e) = engine_dir {
            dirs.push(e.to_path_buf());
        }
        // The runtime files, inside the folders (a link that leads out is refused, as a
        // `LOAD` would be).
        let roots: Vec<&Path> = dirs
            .iter()
            .chain(include_dirs)
            .map(PathBuf::as_path)
            .collect();
        let find = |n: &str| -> Result<Option<PathBuf>, AxiomError> {
            match dirs.iter().find_map(|d| find_file_ci(d, n)) {
                Some(p) if !crate::confine::is_inside(&p, &roots) => Err(AxiomError::Forth(
                    ForthError::new(ForthErrorKind::LoadRefused(format!(
                        "`{}` is refused: {}",
                        p.display(),
                        crate::confine::Refusal::LinkOut.reason()
                    ))),
                )),
                found => Ok(found),
            }
        };
        let core = find("CORE.4TH")?;
        let axiom = find("axiom.4th")?;
        let mut vm = Vm::new(Limits {
            memory: AXIOM_MEMORY,
            ..Limits::default()
        });
        vm.root = dir.clone();
        vm.include_dirs = engine_dir
            .map(Path::to_path_buf)
            .into_iter()
            .chain(include_dirs.iter().cloned())
            .collect();
        vm.set_step_budget(opts.load_steps);
        let mut natives = Vec::new();
        for name in NATIVES {
            vm.define_native(name).map_err(AxiomError::Forth)?;
            natives.push(vm.latest() + 12);
        }
        if lint {
            vm.start_lint();
            for (name, inputs, outputs) in super::natives::EFFECTS {
                vm.declare_effect(name, *inputs, *outputs);
            }
        }
        let xts = Arc::new(NativeXts::new(&vm, natives)?);
        // Loading runs top-level code: `pieces}` fills the Zobrist tables with `$Rand64!`.
        let mut host = Runtime::for_loading(xts.clone());
        // An undefined word of Axiom's runtime files that dagaz leaves out says why.
        let loaded =
            Self::load_files(&mut vm, &mut host, &dir, path, &core, &axiom, lint).map_err(|e| {
                match e {
                    AxiomError::Forth(e) => AxiomError::Forth(super::contract::explain(e)),
                    e => e,
                }
            });
        let fatal = match loaded {
            Ok(()) => None,
            Err(e) if lint => Some(e),
            Err(e) => return Err(e),
        };
        Ok(Loading {
            vm,
            host,
            xts,
            core,
            axiom,
            fatal,
        })
    }

    /// Loads the runtime files (or dagaz's prelude and layer), then the variant file.
    fn load_files(
        vm: &mut Vm,
        host: &mut Runtime,
        dir: &Path,
        path: &Path,
        core: &Option<PathBuf>,
        axiom: &Option<PathBuf>,
        lint: bool,
    ) -> Result<(), AxiomError> {
        let load = |vm: &mut Vm, p: &Path, host: &mut Runtime| {
            let display = p.strip_prefix(dir).unwrap_or(p).display().to_string();
            vm.load_path(p, &display, host).map_err(AxiomError::Forth)
        };
        match core {
            Some(p) => load(vm, p, host)?,
            None => vm
                .interpret_str("<dagaz prelude>", crate::forth::PRELUDE, host)
                .map_err(AxiomError::Forth)?,
        }
        match axiom {
            Some(p) => load(vm, p, host)?,
            None => {
                // The layer's one word beyond what Axiom's `CORE.4TH` defines.
                if vm.find(b"CELL+").is_none() {
                    vm.interpret_str("<dagaz axiom layer>", ": CELL+ CELLSIZE + ;", host)
                        .map_err(AxiomError::Forth)?;
                }
                vm.interpret_str("<dagaz axiom layer>", layer::LAYER, host)
                    .map_err(AxiomError::Forth)?
            }
        }
        // `n [] name`: an array of n cells, `name ( i -- addr )` (a DLL word in Axiom).
        if vm.find(b"[]").is_none() {
            vm.interpret_str(
                "<dagaz axiom extras>",
                ": [] <BUILDS CELLS ALLOT DOES> SWAP CELLS + ;",
                host,
            )
            .map_err(AxiomError::Forth)?;
        }
        if lint {
            vm.lint_check_files();
        }
        load(vm, path, host)
    }
}

/// What `dagaz lint` found in an Axiom program.
pub struct Linted {
    /// The program's files, shown as paths from the folder lint ran in.
    pub sources: crate::source::SourceMap,
    /// Findings in the variant file and the files it loads (not the runtime files).
    pub diagnostics: Vec<crate::diagnostics::Diagnostic>,
}

/// Lints the Axiom program whose variant file is `path`: loads it as [`Program::load`] does
/// (same search for `CORE.4TH` and `axiom.4th`, else dagaz's prelude and layer), in the
/// Forth VM's lint mode ([`crate::forth::lint`]). A failure that stops loading (an
/// unreadable variant file, the step budget, full memory) is one more finding.
pub fn lint(path: &Path, engine_dir: Option<&Path>, include_dirs: &[PathBuf]) -> Linted {
    let mut vm_after = None;
    let mut diagnostics = vec![];
    let as_diagnostic = |e: AxiomError| e.to_diagnostic();
    let mut host = None;
    let opts = LoadOptions::with_include_dirs(include_dirs);
    match Loading::new(path, engine_dir, &opts, true) {
        Ok(l) => {
            diagnostics.extend(l.fatal.map(as_diagnostic));
            vm_after = Some(l.vm);
            host = Some(l.host);
        }
        Err(e) => diagnostics.push(as_diagnostic(e)),
    }
    let Some(mut vm) = vm_after else {
        return Linted {
            sources: crate::source::SourceMap::new(),
            diagnostics,
        };
    };
    // A program that loaded but declares no piece type cannot move at all.
    let loaded = !diagnostics
        .iter()
        .any(|d| d.severity == crate::diagnostics::Severity::Error);
    let pieces = vm.find(b"$pieceCount").map(|nfa| vm.cell(nfa + 16));
    if loaded && pieces == Some(Ok(0)) {
        let mut d = crate::diagnostics::Diagnostic::warning(
            crate::forth::error::codes::NO_PIECES,
            "the program declares no pieces: no side can ever move",
        );
        if let Some(span) = start_of(&vm.sources, path) {
            d = d.with_span(span);
        }
        diagnostics.push(d);
    }
    // Files as paths from the folder lint ran in (the VM shows them from the variant's).
    let sources = Arc::make_mut(&mut vm.sources);
    for i in 0..sources.len() {
        let id = crate::span::FileId(i as u32);
        let f = sources.get(id);
        if f.path.is_file() {
            let shown = normalize(&f.path);
            sources.set_display(id, shown);
        }
    }
    diagnostics.extend(vm.finish_lint().into_iter().map(|mut d| {
        super::contract::explain_diagnostic(&mut d);
        d
    }));
    // What `Program::load` does after loading (the layout of the runtime's variables, the
    // players and pieces), so that lint fails where `perft` and `autoplay` would.
    let clean = !diagnostics
        .iter()
        .any(|d| d.severity == crate::diagnostics::Severity::Error);
    if let (true, Some(mut host)) = (clean, host) {
        let mut probe = vm.clone();
        probe.clear_stacks();
        let checked = Layout::resolve(&mut probe, &mut host)
            .and_then(|layout| GameInfo::read(&probe, &layout, path));
        if let Err(e) = checked {
            let mut d = as_diagnostic(e);
            if d.span.is_none() {
                d.span = start_of(&vm.sources, path);
            }
            diagnostics.push(d);
        }
    }
    let sources = (*vm.sources).clone();
    Linted {
        sources,
        diagnostics,
    }
}

/// The start of the file at `path` among `sources` (where a finding about the whole
/// variant file is shown).
fn start_of(sources: &crate::source::SourceMap, path: &Path) -> Option<crate::span::Span> {
    (0..sources.len())
        .map(|i| crate::span::FileId(i as u32))
        .find(|&id| sources.get(id).path == path)
        .map(|id| sources.span_at(id, 0, 0))
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalize(p: &Path) -> String {
    use std::path::Component;
    let mut out: Vec<Component> = vec![];
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out.iter().collect::<PathBuf>().display().to_string()
}

impl Layout {
    /// Finds every variable and word the runtime uses.
    pub fn resolve(vm: &mut Vm, host: &mut Runtime) -> Result<Layout, AxiomError> {
        // Record offsets: run the accessor words on address 0.
        let mut offset = |name: &str| -> Result<Option<u32>, AxiomError> {
            let Some(nfa) = vm.find(name.as_bytes()) else {
                return Ok(None);
            };
            vm.push(0)?;
            vm.execute(nfa + 12, host)?;
            let v = vm.pop()?;
            if !(0..=64).contains(&v) || v % 4 != 0 {
                return Err(AxiomError::Game(format!(
                    "`{name}` gives the odd record offset {v}"
                )));
            }
            Ok(Some(v as u32))
        };
        let rec_type =
            offset(".moveType")?.ok_or_else(|| AxiomError::Missing(".moveType".into()))?;
        let rec_cfa = offset(".moveCFA")?.ok_or_else(|| AxiomError::Missing(".moveCFA".into()))?;
        let rec_string = offset(".moveString")?;
        let vm: &Vm = vm;
        let var = |name: &str| -> Result<u32, AxiomError> {
            vm.find(name.as_bytes())
                .map(|nfa| nfa + 16)
                .ok_or_else(|| AxiomError::Missing(name.to_owned()))
        };
        let xt = |name: &str| -> Result<u32, AxiomError> {
            vm.find(name.as_bytes())
                .map(|nfa| nfa + 12)
                .ok_or_else(|| AxiomError::Missing(name.to_owned()))
        };
        Ok(Layout {
            board: var("$board")?,
            board_size: var("$boardSize")?,
            positions: var("$positions")?,
            pos_names: var("$posNames")?,
            pieces: var("$pieces")?,
            piece_count: var("$pieceCount")?,
            players: var("$players")?,
            player_count: var("$playerCount")?,
            player_name: var("$playerName")?,
            player_offset: var("$playerOffset")?,
            turn_order: var("$turnOrder")?,
            turn_offset: var("$turnOffset")?,
            of_type: var("$ofType")?,
            for_player: var("$forPlayer")?,
            turn_number: var("$turnNumber")?,
            moves_list: var("$movesList")?,
            last_move_type: var("$lastMoveType")?,
            from: var("$from")?,
            pos: var("$pos")?,
            piece: var("$piece")?,
            player: var("$player")?,
            partial: var("$partial")?,
            passed: var("$passed")?,
            // Axiom 1.50 keeps the last edited position inside the DLL: a scratch cell of the
            // VM's reserved low memory stands in for it.
            last_pos: var("$lastPos").unwrap_or(8),
            move_priorities: var("$move-priorities")?,
            board_setup: var("$boardSetup")?,
            pass_turn_forced: var("$passTurnForced")?,
            new_game: xt("$NewGame")?,
            on_new_game: xt("OnNewGame")?,
            on_is_game_over: xt("OnIsGameOver")?,
            on_evaluate: xt("OnEvaluate")?,
            on_next_turn: xt("OnNextTurn")?,
            on_search: xt("OnSearch")?,
            on_edit_add: xt("OnEditAdd")?,
            on_generate_moves: xt("OnGenerateMoves")?,
            rec_type,
            rec_cfa,
            rec_string,
            scan_positions: var("$scanPositions").ok(),
            scan_pieces: var("$scanPieceCount").ok(),
            depth_limit: var("$depthLimit").ok(),
            iteration_depth: var("$iterationDepth").ok(),
        })
    }
}

impl GameInfo {
    fn read(vm: &Vm, l: &Layout, path: &Path) -> Result<GameInfo, AxiomError> {
        let cell = |a: u32| vm.cell(a).map_err(AxiomError::Forth);
        let board = cell(l.board)?;
        if board == 0 {
            return Err(AxiomError::Game("the program defines no board".into()));
        }
        let n_pos = cell(l.positions)?.clamp(0, 1 << 16) as u32;
        let names = cell(l.pos_names)? as u32;
        let mut positions = Vec::new();
        for p in 0..n_pos {
            let name = if names == 0 {
                String::new()
            } else {
                vm.cstring(cell(names + 4 * p)? as u32)
            };
            positions.push(if name.is_empty() || name == "??" {
                format!("#{p}")
            } else {
                name
            });
        }
        // The names of the constants whose CFAs a table holds, one every `stride` bytes.
        let names_at = |table: u32, count: u32, stride: u32| -> Result<Vec<String>, AxiomError> {
            (0..count)
                .map(|k| Ok(vm.name_of((cell(table + stride * k)? as u32).wrapping_sub(12))))
                .collect()
        };
        let n_players = cell(l.player_count)?.clamp(0, 32) as u32;
        let players = names_at(cell(l.players)? as u32, n_players, 4)?;
        if players.is_empty() {
            return Err(AxiomError::Game("the program defines no players".into()));
        }
        let n_pieces = cell(l.piece_count)?.clamp(0, 1024) as u32;
        let pieces = names_at(cell(l.pieces)? as u32, n_pieces, 16)?;
        Ok(GameInfo {
            players,
            positions,
            pieces,
            name: path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("")
                .to_owned(),
        })
    }

    /// Player index (0-based) of a player value, if it names a declared player.
    pub fn player_index(&self, value: i32) -> Option<usize> {
        let k = ((value & 0xF800) / 2048) as usize;
        (k >= 1 && k <= self.players.len()).then(|| k - 1)
    }

    /// Random players take their turns by chance (`?Dice`), as in ZoG.
    pub fn is_random(&self, player: usize) -> bool {
        self.players.get(player).is_some_and(|n| n.starts_with('?'))
    }

    /// Whether a player value (`$player`'s content) names a random player.
    pub fn is_random_value(&self, value: i32) -> bool {
        self.player_index(value).is_some_and(|p| self.is_random(p))
    }
}

/// A Forth error while loading, as an Axiom error.
impl From<ForthError> for AxiomError {
    fn from(e: ForthError) -> Self {
        AxiomError::Forth(e)
    }
}

/// The kind of a Forth error, for matching.
pub(crate) fn is_exit(e: &ForthError) -> bool {
    e.kind == ForthErrorKind::ExitMove
}

/// The Axiom variant file that plays a ZRF game whose moves come from Axiom
/// (`(engine "…/axiom.dll")`), if the game names such an engine.
///
/// The variant's title gives the file name, spaces turned into `-` ("Ur \[random\]" →
/// `Ur-[random].4th`), as Axiom maps them. Search order: the ZRF's own folder, then the
/// folder of the engine path (relative to the ZRF's folder; `\` read as `/`). The runtime
/// files (`CORE.4TH`, `axiom.4th`) are then looked for beside the variant file, then in the
/// engine's folder ([`Program::load`]). Returns the variant file and the engine's folder.
///
/// Both stay inside the project ([`crate::confine`]): the engine folder must lie inside the
/// ZRF's folder or one of `include_dirs` (the `--include-dir` folders; a published layout
/// such as `Rules/game.zrf` with `(engine "../Axiom/Ur/axiom.dll")` needs the folder that
/// holds both), and a title that is not a plain file name (`../x/G`) is refused.
pub fn zrf_engine_variant(
    form: &crate::syntax::Node,
    title: &str,
    zrf: &Path,
    include_dirs: &[PathBuf],
) -> Option<Result<(PathBuf, PathBuf), AxiomError>> {
    let engine = form
        .items
        .iter()
        .find(|n| n.head() == Some("engine"))?
        .args()
        .first()
        .and_then(|a| a.word())
        .unwrap_or("")
        .replace('\\', "/");
    let refused = |what: String| {
        Some(Err(AxiomError::Forth(ForthError::new(
            ForthErrorKind::LoadRefused(what),
        ))))
    };
    let zrf_dir = zrf
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = format!("{}.4th", title.trim().replace(' ', "-"));
    if name.contains(['/', '\\', '\0']) || name.starts_with("..") {
        return refused(format!(
            "the variant title `{}` is not a plain file name, so no `.4th` file is looked for",
            crate::text::printable(title)
        ));
    }
    let folder = Path::new(&engine)
        .parent()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let roots: Vec<&Path> = std::iter::once(zrf_dir)
        .chain(include_dirs.iter().map(PathBuf::as_path))
        .collect();
    if crate::confine::is_absolute(&folder) {
        return refused(format!(
            "the engine `{}` is refused: {}; dagaz looks for the engine folder inside the rules file's folder and the --include-dir folders only",
            crate::text::printable(&engine),
            crate::confine::Refusal::Absolute.reason()
        ));
    }
    let engine_dir = zrf_dir.join(&folder);
    if engine_dir.exists() && !crate::confine::is_inside(&engine_dir, &roots) {
        return refused(format!(
            "the engine folder `{}` is outside the rules file's folder: give the folder that holds it with --include-dir",
            engine_dir.display()
        ));
    }
    let tried = [zrf_dir.to_path_buf(), engine_dir.clone()];
    for d in &tried {
        if let Some(p) = find_file_ci(d, &name) {
            if !crate::confine::is_inside(&p, &roots) {
                return refused(format!(
                    "`{}` is refused: {}",
                    p.display(),
                    crate::confine::Refusal::LinkOut.reason()
                ));
            }
            return Some(Ok((p, engine_dir)));
        }
    }
    Some(Err(AxiomError::Game(format!(
        "the game's moves come from the Axiom engine `{}`, but no `{name}` is in {}",
        crate::text::printable(&engine),
        tried
            .iter()
            .map(|d| format!("`{}`", d.display()))
            .collect::<Vec<_>>()
            .join(" or ")
    ))))
}

impl Program {
    /// The engine of each player, as its word's name (`$RandomMoveEngine`,
    /// `$NegamaxMove`, a `{search-engine}` word …), in `{players}` order.
    pub fn engines(&self) -> Vec<String> {
        let vm = &self.vm;
        let Some(var) = vm.find(b"$engines") else {
            return vec![];
        };
        let table = vm.cell(var + 16).unwrap_or(0) as u32;
        (0..self.info.players.len() as u32)
            .map(|k| {
                let cfa = vm.cell(table + 4 * k).unwrap_or(0) as u32;
                match vm.name_of(cfa.wrapping_sub(12)).as_str() {
                    "$RandomMoveEngine" => "random".to_owned(),
                    "$FirstMoveEngine" => "first".to_owned(),
                    "$NegamaxMove" => "negamax".to_owned(),
                    "$UCTMove" => "uct".to_owned(),
                    "" => "?".to_owned(),
                    other => format!("search-engine {other}"),
                }
            })
            .collect()
    }

    /// The variant files of an Axiom folder: every `.4th` file that loads as a whole
    /// program (a game's parts, such as a board file, do not), sorted by name; and the
    /// files that did not load, each with the reason.
    pub fn variants_in(dir: &Path) -> std::io::Result<(Vec<Program>, Vec<NotAVariant>)> {
        let files = super::folder::forth_files(dir)?;
        let loaded = super::folder::loaded_names(&files);
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        for f in files {
            let name = f
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_owned();
            if super::folder::is_runtime_name(&name) {
                continue;
            }
            let is_loaded = loaded.contains(&name.to_ascii_lowercase());
            match Program::load(&f, None) {
                // A file that others LOAD and that declares no piece loads on its own, but
                // it is their common part (Ordo's `Common.4th`), not a game.
                Ok(p) if is_loaded && p.info.pieces.is_empty() => skipped.push(NotAVariant {
                    part: true,
                    reason: "it declares no pieces".into(),
                    name,
                }),
                Ok(p) => out.push(p),
                Err(e) => skipped.push(NotAVariant {
                    part: is_loaded,
                    reason: e.to_string(),
                    name,
                }),
            }
        }
        Ok((out, skipped))
    }
}

/// A `.4th` file of an Axiom folder that does not load as a whole program.
#[derive(Clone, Debug)]
pub struct NotAVariant {
    /// The file's name.
    pub name: String,
    /// Another file of the folder `LOAD`s it: a part of the game (a board, an AI file).
    pub part: bool,
    /// Why it does not load on its own.
    pub reason: String,
}

/// A player or game name as an Axiom variant file: `X.4th` (any case of the extension), or
/// `X` when `X.4th` exists beside where `X` points (as Axiom's AutoPlay resolved its
/// arguments in the current folder). `None` when the name is an existing file of another
/// kind or no such `.4th` file exists.
pub fn variant_path(spec: &str) -> Option<PathBuf> {
    let p = Path::new(spec);
    if spec.to_ascii_lowercase().ends_with(".4th") {
        return Some(p.to_path_buf());
    }
    if p.is_file() {
        return None;
    }
    let dir = p
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = format!("{}.4th", p.file_name()?.to_str()?);
    find_file_ci(dir, &name)
}
