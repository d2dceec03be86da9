//! Game names of the command line: one resolver for every subcommand (`autoplay`, `perft`,
//! `games`, `convert`, `lint`).
//!
//! A name is `GAME[:VARIANT][@AI[:key=value,…]]`. GAME is, in this order:
//! 1. a path to an existing file (`.zrf` rules, or an Axiom variant file `.4th`). The whole
//!    name is tried first, then its longest beginning that names an existing file and is
//!    followed by `:` or `@`: a path that exists wins, so `dir:x/game.zrf` and
//!    `games@2/game.zrf` are paths, and a file named `a.zrf@random` is that file;
//! 2. otherwise the text before the first `:` or `@` is: the name of an Axiom variant file
//!    without its extension (`Ur-[random]` when `Ur-[random].4th` exists, as Axiom's
//!    AutoPlay read its arguments), a bundled game (`chess`, also `chess.zrf`), or a
//!    bundled variant's slug (`kiwipete`, which names the variant too).
//!
//! `:VARIANT` is a variant's slug or title (`dagaz games FILE` lists them); `@AI` is an
//! [`AiSpec`]. A name that is none of these is an error with near names ("did you mean").

use super::spec::SpecError;
use crate::ai::config::AiSpec;
use crate::expand::{GameDef, Limits, Loaded, load_path, load_text};
use crate::games::Bundled;
use std::path::{Path, PathBuf};

/// How names are resolved.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ResolveOptions {
    /// Folders where the includes of a rules file may also be read (`--include-dir`).
    pub include_dirs: Vec<PathBuf>,
    /// The folder relative paths are read from (a perft suite's folder); the current folder
    /// when `None`.
    pub base: Option<PathBuf>,
}

impl ResolveOptions {
    /// Options with these include folders, relative paths read from the current folder.
    pub fn with_include_dirs(include_dirs: &[PathBuf]) -> ResolveOptions {
        ResolveOptions {
            include_dirs: include_dirs.to_vec(),
            base: None,
        }
    }

    fn at(&self, p: &str) -> PathBuf {
        match &self.base {
            Some(b) => b.join(p),
            None => PathBuf::from(p),
        }
    }
}

/// Where a game name points.
#[derive(Clone, Debug)]
pub enum Source {
    /// A bundled game (`games/NAME.zrf` of the source tree).
    Bundled(Bundled),
    /// A rules file.
    File(PathBuf),
    /// An Axiom variant file (`.4th`).
    Axiom(PathBuf),
}

impl Source {
    /// What a user writes for it: a bundled game's name or the path.
    pub fn name(&self) -> String {
        match self {
            Source::Bundled(b) => b.name.to_owned(),
            Source::File(p) | Source::Axiom(p) => p.display().to_string(),
        }
    }

    /// `bundled:NAME` or the path.
    pub fn display(&self) -> String {
        match self {
            Source::Bundled(b) => format!("bundled:{}", b.name),
            Source::File(p) | Source::Axiom(p) => p.display().to_string(),
        }
    }
}

/// A located game name (see the module documentation).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GameName {
    /// The name as given.
    pub spec: String,
    pub source: Source,
    /// The variant named by `:VARIANT` or by a bundled variant's slug.
    pub variant: Option<String>,
    /// The `@AI` part.
    pub ai: Option<AiSpec>,
}

impl GameName {
    /// Reads and expands the rules (a bundled game or a file), diagnostics included: the
    /// caller decides what errors in the file mean. An Axiom program is not a rules file.
    pub fn load(&self, opts: &ResolveOptions) -> Result<Loaded, SpecError> {
        match &self.source {
            Source::Bundled(b) => Ok(load_text(
                &format!("{}.zrf", b.name),
                b.text,
                Limits::default(),
            )),
            Source::File(p) => {
                let limits = Limits {
                    include_dirs: opts.include_dirs.clone(),
                    ..Limits::default()
                };
                let shown = p.display().to_string();
                load_path(p, &shown, limits).map_err(|d| {
                    SpecError::Unreadable(format!("cannot read `{shown}`: {}", d.message))
                })
            }
            Source::Axiom(p) => Err(SpecError::Invalid(format!(
                "`{}` is an Axiom program, not a rules file",
                p.display()
            ))),
        }
    }

    /// Refuses an `@AI` part, for subcommands that play no AI (`what` says which).
    pub fn without_ai(self, what: &str) -> Result<GameName, SpecError> {
        match &self.ai {
            Some(ai) => Err(SpecError::Ai(format!(
                "`{}`: {what} plays no AI; leave out `@{}`",
                self.spec, ai.text
            ))),
            None => Ok(self),
        }
    }
}

fn is_forth(p: &str) -> bool {
    p.to_ascii_lowercase().ends_with(".4th")
}

/// Splits what follows GAME into `:VARIANT` and `@AI`.
fn parse_rest(spec: &str, rest: &str) -> Result<(Option<String>, Option<AiSpec>), SpecError> {
    let (variant, ai) = match rest.find('@') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let variant = match variant.strip_prefix(':') {
        Some("") => {
            return Err(SpecError::Invalid(format!(
                "`{spec}`: nothing after `:` (write GAME:VARIANT, with a slug from `dagaz games GAME`)"
            )));
        }
        Some(v) => Some(v.to_owned()),
        None => None,
    };
    let ai = match ai {
        Some("") => {
            return Err(SpecError::Ai(format!(
                "`{spec}`: nothing after `@` (write GAME@AI, e.g. tic-tac-toe@random or checkers@alphabeta:depth=4)"
            )));
        }
        Some(a) => Some(AiSpec::parse(a).map_err(|e| SpecError::Ai(format!("`{spec}`: {e}")))?),
        None => None,
    };
    Ok((variant, ai))
}

/// Locates a game name (see the module documentation) without reading the rules.
pub fn locate(spec: &str, opts: &ResolveOptions) -> Result<GameName, SpecError> {
    let found = |source: Source, rest: &str| -> Result<GameName, SpecError> {
        let (variant, ai) = parse_rest(spec, rest)?;
        Ok(GameName {
            spec: spec.to_owned(),
            source,
            variant,
            ai,
        })
    };
    // An existing file: the whole name, else its longest beginning before a `:` or `@`.
    let cuts = std::iter::once(spec.len()).chain(
        spec.char_indices()
            .rev()
            .filter(|&(_, c)| c == ':' || c == '@')
            .map(|(i, _)| i),
    );
    for i in cuts {
        let (head, rest) = spec.split_at(i);
        let path = opts.at(head);
        if !head.is_empty() && path.is_file() {
            let source = if is_forth(head) {
                Source::Axiom(path)
            } else {
                Source::File(path)
            };
            return found(source, rest);
        }
    }
    let end = spec.find([':', '@']).unwrap_or(spec.len());
    let (head, rest) = spec.split_at(end);
    if head.is_empty() {
        return Err(SpecError::NotFound(
            format!("`{spec}` names no game (write GAME[:VARIANT][@AI])"),
            vec![],
        ));
    }
    let path_like = head.contains(['/', '\\']);
    if !is_forth(head) && !head.ends_with(".zrf") {
        // An Axiom variant file named without its extension.
        if let Some(p) = crate::axiom::program::variant_path(&opts.at(head).to_string_lossy()) {
            if p.is_file() {
                return found(Source::Axiom(p), rest);
            }
        }
    }
    if !path_like {
        let name = head.strip_suffix(".zrf").unwrap_or(head);
        if let Some(b) = crate::games::find(name) {
            return found(Source::Bundled(b), rest);
        }
        if let Some((slug, game, _)) = super::spec::bundled_slugs()
            .into_iter()
            .find(|(s, _, _)| s == head)
        {
            let mut g = found(
                Source::Bundled(crate::games::find(&game).expect("a bundled game")),
                rest,
            )?;
            if let Some(v) = &g.variant {
                return Err(SpecError::Invalid(format!(
                    "`{spec}`: `{slug}` is already a variant of the bundled `{game}`; write `{game}:{v}` for another one"
                )));
            }
            g.variant = Some(slug);
            return Ok(g);
        }
    }
    Err(not_found(spec, head, opts))
}

/// The error for a name that is no file, Axiom program, bundled game or variant.
fn not_found(spec: &str, head: &str, opts: &ResolveOptions) -> SpecError {
    let path = opts.at(head);
    let path_like = head.contains(['/', '\\']) || head.ends_with(".zrf") || is_forth(head);
    // Near names: bundled games and slugs, and the rules and Axiom files of the folder.
    let mut names: Vec<String> = crate::games::all().map(|b| b.name.to_owned()).collect();
    names.extend(super::spec::bundled_slugs().into_iter().map(|(s, _, _)| s));
    let dir_text = Path::new(head)
        .parent()
        .map(|d| d.to_string_lossy().into_owned())
        .filter(|d| !d.is_empty());
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut files: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_file())
            .filter_map(|e| e.file_name().to_str().map(str::to_owned))
            .filter(|n| n.ends_with(".zrf") || is_forth(n))
            .collect();
        files.sort();
        for f in files {
            let shown = match &dir_text {
                Some(d) => format!("{d}/{f}"),
                None => f.clone(),
            };
            if is_forth(&f) && dir_text.is_none() {
                names.push(shown[..shown.len() - 4].to_owned());
            }
            names.push(shown);
        }
    }
    let near = near_names(head, names.iter().map(String::as_str));
    let mut msg = if path.is_dir() {
        format!(
            "`{spec}`: `{head}` is a folder, not a game (`dagaz games {head}` lists the variant files of an Axiom folder)"
        )
    } else if path_like {
        format!(
            "cannot read `{head}`: no such file{}",
            if spec == head {
                String::new()
            } else {
                format!(" (in `{spec}`)")
            }
        )
    } else {
        format!(
            "unknown game `{head}`: not a file, an Axiom program (`{head}.4th`), a bundled game or a bundled variant"
        )
    };
    if !near.is_empty() {
        msg += &format!("\n  did you mean: {}?", near.join(", "));
    }
    msg += "\n  `dagaz games` lists the bundled games and variants; a file is given as path/to/game.zrf or path/to/game.zrf:variant-slug";
    if path_like && !path.is_dir() {
        return SpecError::Unreadable(msg);
    }
    SpecError::NotFound(msg, near)
}

/// Near names of `word` among `candidates`, for "did you mean", at most five: those equal
/// to it but for case and `-`, `_`, spaces and `'` (`tictactoe`, `tic-tac-toe`), then those
/// a few edits away, then those that begin with it so written (`silvermans` →
/// `silverman-s-chess`).
pub fn near_names<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let squeeze = |s: &str| {
        s.chars()
            .filter(|c| !matches!(c, '-' | '_' | ' ' | '\''))
            .collect::<String>()
            .to_lowercase()
    };
    let candidates: Vec<&str> = candidates.into_iter().filter(|c| *c != word).collect();
    let w = squeeze(word);
    let mut near: Vec<String> = vec![];
    let mut add = |c: &str| {
        if !near.iter().any(|x| x == c) {
            near.push(c.to_owned());
        }
    };
    for c in candidates.iter().filter(|c| squeeze(c) == w) {
        add(c);
    }
    for c in crate::text::suggestions(word, candidates.iter().copied()) {
        add(c);
    }
    if w.chars().count() >= 3 {
        for c in candidates.iter().filter(|c| squeeze(c).starts_with(&w)) {
            add(c);
        }
    }
    near.truncate(5);
    near
}

/// The game of `loaded` that `variant` names (its slug, title or the slug of a title), or
/// the default game. A title shared by several variants takes the first, with a warning
/// naming the slugs that select the others.
pub fn choose_game<'a>(
    loaded: &'a Loaded,
    variant: Option<&str>,
    shown: &str,
) -> Result<(&'a GameDef, Option<String>), SpecError> {
    let Some(v) = variant else {
        return loaded
            .default_game()
            .or(loaded.games.first())
            .map(|g| (g, None))
            .ok_or_else(|| SpecError::Unplayable(format!("`{shown}` defines no game")));
    };
    let titled: Vec<&GameDef> = loaded.games.iter().filter(|g| g.title == v).collect();
    if let Some(&first) = titled.first() {
        let warning = (titled.len() > 1).then(|| {
            let slugs: Vec<&str> = titled.iter().map(|g| g.slug.as_str()).collect();
            format!(
                "warning: `{shown}` has {} variants titled \"{v}\": playing the first, `{}`; select them by slug: {}",
                titled.len(),
                first.slug,
                slugs.join(", ")
            )
        });
        return Ok((first, warning));
    }
    let s = crate::expand::slug(v);
    if let Some(g) = loaded
        .games
        .iter()
        .find(|g| g.slug == v || (!s.is_empty() && g.slug == s))
    {
        return Ok((g, None));
    }
    let slugs: Vec<&str> = loaded.games.iter().map(|g| g.slug.as_str()).collect();
    let near = near_names(v, slugs.iter().copied());
    let mut sorted = slugs.clone();
    sorted.sort_unstable();
    let mut msg = format!("`{shown}` has no variant `{v}`");
    if !near.is_empty() {
        msg += &format!("\n  did you mean: {}?", near.join(", "));
    }
    msg += &format!("\n  available: {}", sorted.join(", "));
    Err(SpecError::NoVariant(msg, near))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> ResolveOptions {
        ResolveOptions::default()
    }

    #[test]
    fn bundled_names_slugs_and_variants() {
        let g = locate("chess", &opts()).unwrap();
        assert!(matches!(g.source, Source::Bundled(b) if b.name == "chess"));
        assert_eq!(g.variant, None);
        let g = locate("kiwipete", &opts()).unwrap();
        assert!(matches!(g.source, Source::Bundled(b) if b.name == "chess"));
        assert_eq!(g.variant.as_deref(), Some("kiwipete"));
        let g = locate("chess:position-3@alphabeta:depth=2", &opts()).unwrap();
        assert_eq!(g.variant.as_deref(), Some("position-3"));
        let ai = g.ai.unwrap();
        assert_eq!(ai.kind, crate::ai::AiKind::AlphaBeta);
        assert_eq!(ai.options, [("ai depth".to_owned(), "2".to_owned())]);
        let g = locate("tic-tac-toe@random", &opts()).unwrap();
        assert!(matches!(g.source, Source::Bundled(b) if b.name == "tictactoe"));
        assert!(locate("kiwipete:position-3", &opts()).is_err());
    }

    #[test]
    fn near_names_are_suggested() {
        let e = locate("chesss", &opts()).unwrap_err();
        assert!(
            matches!(&e, SpecError::NotFound(_, near) if near.first().map(String::as_str) == Some("chess")),
            "{e}"
        );
        let e = locate("tic_tac_toe", &opts()).unwrap_err();
        assert!(
            e.message()
                .contains("did you mean: tictactoe, tic-tac-toe?"),
            "{e}"
        );
        let e = locate("tictactoe@alphabta", &opts()).unwrap_err();
        assert!(e.message().contains("did you mean `alphabeta`?"), "{e}");
        let e = locate("no/such/dir/game.zrf:x", &opts()).unwrap_err();
        assert!(
            matches!(&e, SpecError::Unreadable(m) if m.starts_with("cannot read `no/such/dir/game.zrf`: no such file (in `no/such/dir/game.zrf:x`)")),
            "{e}"
        );
        assert_eq!(e.to_diagnostic().unwrap().code.id, "DZ0001");
    }

    /// A path that exists wins over reading `:` and `@` as separators.
    #[test]
    fn existing_paths_win() {
        let dir = std::env::temp_dir().join(format!("dagaz-resolve-{}", std::process::id()));
        let sub = dir.join("a:b@c");
        std::fs::create_dir_all(&sub).unwrap();
        let text = crate::games::find("tictactoe").unwrap().text;
        std::fs::write(sub.join("t.zrf"), text).unwrap();
        std::fs::write(sub.join("t.zrf@random"), text).unwrap();
        let o = ResolveOptions {
            base: Some(dir.clone()),
            ..opts()
        };
        let g = locate("a:b@c/t.zrf", &o).unwrap();
        assert!(matches!(&g.source, Source::File(p) if p.ends_with("a:b@c/t.zrf")));
        assert!(g.variant.is_none() && g.ai.is_none());
        let g = locate("a:b@c/t.zrf:tic-tac-toe@first", &o).unwrap();
        assert!(matches!(&g.source, Source::File(p) if p.ends_with("a:b@c/t.zrf")));
        assert_eq!(g.variant.as_deref(), Some("tic-tac-toe"));
        assert_eq!(g.ai.unwrap().kind, crate::ai::AiKind::First);
        // The file named `t.zrf@random` is that file, not t.zrf with an AI.
        let g = locate("a:b@c/t.zrf@random", &o).unwrap();
        assert!(matches!(&g.source, Source::File(p) if p.ends_with("t.zrf@random")));
        assert!(g.ai.is_none());
        let g = locate("a:b@c/t.zrf@random@mcts", &o).unwrap();
        assert!(matches!(&g.source, Source::File(p) if p.ends_with("t.zrf@random")));
        assert_eq!(g.ai.unwrap().kind, crate::ai::AiKind::Mcts);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn duplicate_titles_take_the_first_with_a_warning() {
        let text = "(game (title \"G\") (players A B) (turn-order A B) (board (grid (dimensions \"a_b\" \"1_2\"))) (piece (name P)) (draw-condition (A B) stalemated))\n(variant (title \"V\"))\n(variant (title \"V\"))\n";
        let loaded = load_text("g.zrf", text, Limits::default());
        let (g, w) = choose_game(&loaded, Some("V"), "g.zrf").unwrap();
        assert_eq!(g.slug, "v");
        let w = w.unwrap();
        assert!(
            w.contains("2 variants titled \"V\"") && w.contains("v, v-2"),
            "{w}"
        );
        let (g, w) = choose_game(&loaded, Some("v-2"), "g.zrf").unwrap();
        assert_eq!((g.slug.as_str(), w), ("v-2", None));
        let e = choose_game(&loaded, Some("v-3"), "g.zrf").unwrap_err();
        assert!(e.message().contains("did you mean: v-2"), "{e}");
        assert!(e.message().contains("available: g, v, v-2"), "{e}");
    }
}
