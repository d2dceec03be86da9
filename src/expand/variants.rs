//! Variants: each `(variant …)` is merged into a copy of the nearest preceding `(game …)`.
//!
//! Merging rules (`../shared/docs/zrf-semantics.md` §1.5): `piece` sections are replaced by
//! name and new ones added; `option`s are overridden one name at a time, in either spelling
//! (`(option "pass turn" …)` or `(pass-turn …)`, see [`super::options`]); if the variant has
//! any goal (`win-condition`, `loss-condition`, `draw-condition`, `count-condition`) all the
//! base goals are dropped; every other section (`title`, `players`, `board`, …) replaces all
//! sections of the same keyword. `(default)` marks the initially selected game and is not
//! copied. A game titled `-` is a menu separator and is not playable.
//!
//! A variant written before the file's first `(game …)` inherits from that game (the one
//! after it); only a file with no game at all reads its variants as complete games
//! (docs/semantics.md, "A variant with no game before it").

use super::options::option_section;
use crate::diagnostics::{Diagnostic, codes};
use crate::syntax::{Kind, Node};

/// One playable game: a base game or a variant merged into its base.
#[derive(Debug, Clone)]
pub struct GameDef {
    /// The title, or `Game N` when the form has none.
    pub title: String,
    /// Lowercased title with runs of other characters turned into `-`.
    pub slug: String,
    /// True for the one game selected initially (`(default)`, or else the first game).
    pub is_default: bool,
    /// Index of the base game among the file's `game` forms (0-based; `usize::MAX` for a
    /// variant with no game before it, which is read as a game of its own).
    pub base_index: usize,
    /// True when this is a variant.
    pub is_variant: bool,
    /// The merged `(game …)` form.
    pub form: Node,
}

const GOALS: [&str; 4] = [
    "win-condition",
    "loss-condition",
    "draw-condition",
    "count-condition",
];

/// Turns a title into a slug: `Ur [random]` → `ur-random`.
pub fn slug(title: &str) -> String {
    let mut s = String::with_capacity(title.len());
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            s.push(c);
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    while s.ends_with('-') {
        s.pop();
    }
    s
}

fn title_of(form: &Node) -> Option<String> {
    form.args()
        .iter()
        .find(|n| n.head() == Some("title"))
        .and_then(|t| t.args().first())
        .and_then(|t| t.word().map(str::to_owned))
}

fn piece_name(n: &Node) -> Option<&str> {
    n.name_value().and_then(Node::word)
}

fn option_name(n: &Node) -> Option<&str> {
    option_section(n).map(|o| o.name)
}

/// Merges `variant` sections into a copy of `base` sections.
fn merge(base: &[Node], variant: &[Node]) -> Vec<Node> {
    let mut out: Vec<Node> = base.to_vec();
    if variant
        .iter()
        .any(|s| s.head().is_some_and(|h| GOALS.contains(&h)))
    {
        out.retain(|s| !s.head().is_some_and(|h| GOALS.contains(&h)));
    }
    let mut replaced: Vec<String> = Vec::new();
    for sec in variant {
        let Some(head) = sec.head() else {
            out.push(sec.clone());
            continue;
        };
        match head {
            "default" => {}
            h if GOALS.contains(&h) => out.push(sec.clone()),
            "piece" => {
                let name = piece_name(sec);
                match out.iter().position(|s| {
                    s.head() == Some("piece") && name.is_some() && piece_name(s) == name
                }) {
                    Some(i) => out[i] = sec.clone(),
                    None => out.push(sec.clone()),
                }
            }
            _ if option_section(sec).is_some() => {
                // `(option "pass turn" …)` and `(pass-turn …)` name the same option.
                let name = option_name(sec);
                match out.iter().position(|s| option_name(s) == name) {
                    Some(i) => out[i] = sec.clone(),
                    None => out.push(sec.clone()),
                }
            }
            h => {
                if replaced.iter().any(|r| r == h) {
                    // A second section of the same keyword in the variant: keep both.
                    out.push(sec.clone());
                    continue;
                }
                replaced.push(h.to_owned());
                match out.iter().position(|s| s.head() == Some(h)) {
                    Some(i) => {
                        out[i] = sec.clone();
                        let mut j = out.len();
                        while j > i + 1 {
                            j -= 1;
                            if out[j].head() == Some(h) {
                                out.remove(j);
                            }
                        }
                    }
                    None => out.push(sec.clone()),
                }
            }
        }
    }
    out
}

/// The slug of `title`, made distinct from the slugs of `games` by a `-2`, `-3`, … suffix,
/// so that a second variant with the same title can still be selected (lint warns about
/// the duplicate title: `duplicate-variant`).
fn unique_slug(games: &[GameDef], title: &str) -> String {
    let base = slug(title);
    let taken = |s: &str| games.iter().any(|g| g.slug == s);
    if !taken(&base) {
        return base;
    }
    (2..)
        .map(|k| format!("{base}-{k}"))
        .find(|s| !taken(s))
        .unwrap_or(base)
}

/// Builds the playable games of an expanded file. When the games, each counted at its full
/// size by [`super::macros::node_bytes`] (variants share their base's subtrees in memory, but
/// each game is compiled on its own), pass `max_bytes` in all, merging stops with `DZ0207
/// expansion-too-large` and the games built so far are returned.
pub fn merge_variants(
    forms: &[Node],
    diags: &mut Vec<Diagnostic>,
    max_bytes: usize,
) -> Vec<GameDef> {
    let mut games: Vec<GameDef> = Vec::new();
    let mut copied = 0usize;
    // Sizes of sections already counted, by their shared children: a variant's sections are
    // mostly its base's, so each is measured once.
    let mut sizes: std::collections::HashMap<*const Vec<Node>, usize> = Default::default();
    // Variants written before the file's first game inherit from that game (see below).
    let mut base: Option<(usize, &Node)> = forms
        .iter()
        .find(|f| f.head() == Some("game"))
        .map(|g| (0, g));
    let mut game_count = 0usize;
    for form in forms {
        match form.head() {
            Some("game") => {
                base = Some((game_count, form));
                game_count += 1;
                let title = title_of(form).unwrap_or_else(|| format!("Game {game_count}"));
                games.push(GameDef {
                    slug: unique_slug(&games, &title),
                    title,
                    is_default: false,
                    base_index: game_count - 1,
                    is_variant: false,
                    form: form.clone(),
                });
            }
            Some("variant") => {
                let (bi, base_sections): (usize, &[Node]) = match base {
                    Some((bi, b)) => (bi, b.args()),
                    None => {
                        diags.push(
                            Diagnostic::warning(
                                codes::VARIANT_WITHOUT_GAME,
                                "the file has no `game`: this `variant` is read as a complete game of its own",
                            )
                            .with_span(form.span),
                        );
                        (usize::MAX, &[])
                    }
                };
                let mut items = vec![Node::leaf(Kind::Atom, "game", form.items[0].span)];
                items.extend(merge(base_sections, form.args()));
                let merged = Node::list(items, form.span);
                let title =
                    title_of(&merged).unwrap_or_else(|| format!("Variant {}", games.len() + 1));
                games.push(GameDef {
                    slug: unique_slug(&games, &title),
                    title,
                    is_default: form.args().iter().any(|s| s.head() == Some("default")),
                    base_index: bi,
                    is_variant: true,
                    form: merged,
                });
            }
            _ => continue,
        }
        if let Some(g) = games.last() {
            let size: usize = super::macros::leaf_bytes(g.form.text.len())
                + g.form
                    .items
                    .iter()
                    .map(|sec| match sec.items.shared_id() {
                        Some(id) => *sizes
                            .entry(id)
                            .or_insert_with(|| super::macros::node_bytes(sec)),
                        None => super::macros::node_bytes(sec),
                    })
                    .sum::<usize>();
            copied = copied.saturating_add(size);
            if copied > max_bytes {
                let n = games.len();
                games.pop();
                diags.push(
                    Diagnostic::error(
                        codes::EXPANSION_TOO_LARGE,
                        format!(
                            "the games and variants amount to more than {} of expanded rules; merging stopped at game {n}",
                            super::macros::human_bytes(max_bytes)
                        ),
                    )
                    .with_span(form.span)
                    .with_note("each variant is its base game merged with the variant's sections, and is checked on its own"),
                );
                break;
            }
        }
    }
    games.retain(|g| g.title != "-");
    if !games.iter().any(|g| g.is_default) {
        if let Some(g) = games.first_mut() {
            g.is_default = true;
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;
    use crate::syntax::parse_text;
    use crate::syntax::print::print_compact;

    #[test]
    fn slugs() {
        assert_eq!(slug("Ur [random]"), "ur-random");
        assert_eq!(slug("  Position 3 "), "position-3");
    }

    #[test]
    fn merge_rules() {
        let src = r#"(game (title "G") (players A B) (piece (name P) (x 1)) (piece (name Q))
              (option "o1" true) (option "o2" true) (win-condition (A) stalemated) (loss-condition (A) x))
            (variant (title "V") (piece (name P) (x 2)) (piece (name R)) (option "o2" false)
              (draw-condition (A) y) (default))"#;
        let forms = parse_text(src, FileId(0)).forms;
        let mut d = vec![];
        let games = merge_variants(&forms, &mut d, usize::MAX);
        assert!(d.is_empty());
        assert_eq!(games.len(), 2);
        assert!(games[1].is_default && !games[0].is_default);
        assert_eq!(
            print_compact(&games[1].form),
            r#"(game (title "V") (players A B) (piece (name P) (x 2)) (piece (name Q)) (option "o1" true) (option "o2" false) (piece (name R)) (draw-condition (A) y))"#
        );
    }

    #[test]
    fn variants_before_the_first_game_inherit_from_it() {
        let src = r#"(variant (title "Early") (board-setup (A (P b1))))
            (game (title "G") (players A B) (piece (name P)) (board-setup (A (P a1))))
            (variant (title "Late") (players X Y))"#;
        let forms = parse_text(src, FileId(0)).forms;
        let mut d = vec![];
        let games = merge_variants(&forms, &mut d, usize::MAX);
        assert!(d.is_empty(), "{d:?}");
        let printed: Vec<String> = games.iter().map(|g| print_compact(&g.form)).collect();
        assert_eq!(
            printed,
            vec![
                r#"(game (title "Early") (players A B) (piece (name P)) (board-setup (A (P b1))))"#,
                r#"(game (title "G") (players A B) (piece (name P)) (board-setup (A (P a1))))"#,
                r#"(game (title "Late") (players X Y) (piece (name P)) (board-setup (A (P a1))))"#,
            ]
        );
        assert_eq!(games[0].base_index, 0);
        // A file of variants only: each is a game of its own, with a warning.
        let forms = parse_text(r#"(variant (title "V") (players A B))"#, FileId(0)).forms;
        let games = merge_variants(&forms, &mut d, usize::MAX);
        assert_eq!(games[0].base_index, usize::MAX);
        assert_eq!(d.len(), 1);
    }

    #[test]
    fn merged_copies_are_bounded() {
        let mut src = String::from("(game (title \"G\") (big");
        src += &" (x y z)".repeat(1000);
        src += "))";
        for i in 0..300 {
            src += &format!(" (variant (title \"V{i}\"))");
        }
        let forms = parse_text(&src, FileId(0)).forms;
        let one = crate::expand::macros::node_bytes(&forms[0]);
        let mut d = vec![];
        let games = merge_variants(&forms, &mut d, 50 * one);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].code, codes::EXPANSION_TOO_LARGE);
        assert!(games.len() < 50, "{}", games.len());
        let mut d = vec![];
        assert_eq!(merge_variants(&forms, &mut d, usize::MAX).len(), 301);
        assert!(d.is_empty());
    }
}
