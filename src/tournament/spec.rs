//! Player specs: which variant of which rules plays.
//!
//! A spec is one of:
//! - a variant slug of a bundled game (`ur-random` is "Ur \[random\]" of `ur`), or a bundled
//!   game's name (its default variant), or `GAME:SLUG` (`ur:ur-simple`);
//! - `path/to/game.zrf` (its default variant) or `path/to/game.zrf:SLUG` (a variant by slug
//!   or title).
//!
//! Both players of a match must play the same rules: [`same_rules`] compares the merged
//! game forms without titles, descriptive texts and `ai …` options.

use crate::ai::AiConfig;
use crate::ai::config::is_ai_option;
use crate::expand::{GameDef, Limits, Loaded, load_path, load_text};
use crate::syntax::Node;
use std::path::Path;

/// A resolved player.
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
    pub ai: AiConfig,
}

impl PlayerSpec {
    /// The name Axiom's AutoPlay would print: the title with spaces turned into `-`
    /// ("Ur \[random\]" → "Ur-\[random\]").
    pub fn axiom_name(&self) -> String {
        self.title.replace(' ', "-")
    }
}

/// Every (slug, bundled game name) pair of the bundled games, default variants first.
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
    /// Not a file, a bundled game or a bundled variant; `suggestions` are near names.
    NotFound(String, Vec<String>),
    /// A file that cannot be read.
    Unreadable(String),
    /// The file has errors, defines no game, has no such variant, or bad `ai …` options.
    Invalid(String),
}

crate::error::message_enum!(SpecError {
    NotFound,
    Unreadable,
    Invalid
});

fn from_game(spec: &str, source: String, g: &GameDef) -> Result<PlayerSpec, SpecError> {
    let ai = AiConfig::from_form(&g.form)
        .map_err(|e| SpecError::Invalid(format!("`{spec}` ({}): {e}", g.title)))?;
    Ok(PlayerSpec {
        spec: spec.to_owned(),
        source,
        title: g.title.clone(),
        slug: g.slug.clone(),
        game: g.clone(),
        ai,
    })
}

fn pick(
    spec: &str,
    source: String,
    loaded: &Loaded,
    variant: Option<&str>,
) -> Result<PlayerSpec, SpecError> {
    if loaded.has_errors() {
        let first = loaded
            .diagnostics
            .iter()
            .find(|d| d.severity == crate::diagnostics::Severity::Error)
            .map(|d| d.message.clone())
            .unwrap_or_default();
        return Err(SpecError::Invalid(format!(
            "`{source}` has errors ({first}); run `dagaz lint {source}`"
        )));
    }
    let g = match variant {
        Some(v) => loaded.find_game(v).map_err(|d| {
            let mut m = format!("{}: {}", source, d.message);
            for n in &d.notes {
                m += &format!("\n  {n}");
            }
            SpecError::Invalid(m)
        })?,
        None => loaded
            .default_game()
            .ok_or_else(|| SpecError::Invalid(format!("`{source}` defines no game")))?,
    };
    from_game(spec, source, g)
}

/// Resolves a spec (see the module documentation). The error explains what was tried and
/// suggests near names.
pub fn resolve(spec: &str) -> Result<PlayerSpec, SpecError> {
    resolve_with(spec, &[])
}

/// [`resolve`], with folders where the includes of a rules file may also be read
/// (`--include-dir`).
pub fn resolve_with(
    spec: &str,
    include_dirs: &[std::path::PathBuf],
) -> Result<PlayerSpec, SpecError> {
    // A path, with an optional `:variant`.
    let (path_part, variant) = match spec.rsplit_once(':') {
        Some((p, v)) if !p.is_empty() && !v.is_empty() && !v.contains(['/', '\\']) => (p, Some(v)),
        _ => (spec, None),
    };
    for (p, v) in [(spec, None), (path_part, variant)] {
        let path = Path::new(p);
        if path.is_file() {
            let limits = Limits {
                include_dirs: include_dirs.to_vec(),
                ..Limits::default()
            };
            let loaded = load_path(path, p, limits)
                .map_err(|d| SpecError::Unreadable(format!("cannot read `{p}`: {}", d.message)))?;
            return pick(spec, p.to_owned(), &loaded, v);
        }
    }
    // A bundled game by name, `name:variant`, or a variant slug.
    if let Some(b) = crate::games::find(path_part) {
        let loaded = load_text(&format!("{}.zrf", b.name), b.text, Limits::default());
        return pick(spec, format!("bundled:{}", b.name), &loaded, variant);
    }
    let all = bundled_slugs();
    if let Some((_, name, _)) = all.iter().find(|(s, _, _)| s == spec) {
        let b = crate::games::find(name).expect("bundled game");
        let loaded = load_text(&format!("{}.zrf", b.name), b.text, Limits::default());
        return pick(spec, format!("bundled:{}", b.name), &loaded, Some(spec));
    }
    let names: Vec<&str> = all.iter().map(|(s, _, _)| s.as_str()).collect();
    let near = crate::text::suggestions(spec, names.iter().copied());
    let mut msg =
        format!("unknown player `{spec}`: not a file, a bundled game or a bundled variant");
    if !near.is_empty() {
        msg += &format!("\n  did you mean: {}?", near.join(", "));
    }
    msg += "\n  `dagaz games` lists the bundled games and variants; a file is given as path/to/game.zrf or path/to/game.zrf:variant-slug";
    Err(SpecError::NotFound(
        msg,
        near.iter().map(|s| s.to_string()).collect(),
    ))
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
}
