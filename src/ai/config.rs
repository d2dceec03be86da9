//! An AI's configuration, read from a variant's `(option "ai …" …)` forms (see docs/ai.md).
//!
//! Zillions ignores options it does not know, so these forms are plain ZRF. Unknown `ai …`
//! options and bad values are reported as problems, never ignored silently.

use crate::syntax::{Kind, Node};

/// Which algorithm picks the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AiKind {
    /// Uniformly random legal move.
    Random,
    /// The first legal move, in generation order.
    First,
    /// One-ply evaluation: the move whose resulting position evaluates best.
    Greedy,
    /// Iterative-deepening alpha-beta (chance turns are played as if by an opponent who
    /// picks the worst outcome; use `expectimax` for dice games).
    AlphaBeta,
    /// Expectimax: chance turns average over the random player's moves.
    Expectimax,
    /// Monte-Carlo tree search (UCT) with random playouts.
    Mcts,
    /// The game program's own engine (an Axiom variant's `{players}` engines).
    Program,
}

impl AiKind {
    pub const NAMES: [&'static str; 7] = [
        "random",
        "first",
        "greedy",
        "alphabeta",
        "expectimax",
        "mcts",
        "program",
    ];

    pub fn parse(s: &str) -> Option<AiKind> {
        Some(match s {
            "random" => AiKind::Random,
            "first" => AiKind::First,
            "greedy" => AiKind::Greedy,
            "alphabeta" | "alpha-beta" | "negamax" => AiKind::AlphaBeta,
            "expectimax" => AiKind::Expectimax,
            "mcts" | "uct" => AiKind::Mcts,
            "program" => AiKind::Program,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            AiKind::Random => "random",
            AiKind::First => "first",
            AiKind::Greedy => "greedy",
            AiKind::AlphaBeta => "alphabeta",
            AiKind::Expectimax => "expectimax",
            AiKind::Mcts => "mcts",
            AiKind::Program => "program",
        }
    }
}

/// Weights of the evaluation terms (see `crate::ai::eval`).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub material: f64,
    pub mobility: f64,
    pub progress: f64,
    pub capture: f64,
    pub zone: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            material: 1.0,
            mobility: 0.0,
            progress: 0.0,
            capture: 0.0,
            zone: 0.0,
        }
    }
}

/// Search limits per move. `None` means "no limit of this kind".
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Search depth in plies of the players (chance plies are not counted).
    pub depth: Option<u32>,
    /// Nodes (positions made) per move.
    pub nodes: Option<u64>,
    /// Playouts per move (MCTS).
    pub playouts: Option<u64>,
    /// Wall-clock time per move, in milliseconds. Breaks reproducibility.
    pub time_ms: Option<u64>,
}

/// A complete AI configuration.
///
/// Fields will grow: build one with `Default` (the random player),
/// [`AiConfig::from_options`] or [`crate::ai_config`], and set the fields to change.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AiConfig {
    pub kind: AiKind,
    pub weights: Weights,
    /// Zone for the zone term.
    pub zone: Option<String>,
    /// Direction along which progress is measured.
    pub progress_direction: String,
    /// Piece values for the material term, by type name (default 1; 0 = ignored by every
    /// term).
    pub values: Vec<(String, f64)>,
    pub limits: Limits,
}

impl Default for AiConfig {
    fn default() -> Self {
        AiConfig {
            kind: AiKind::Random,
            weights: Weights::default(),
            zone: None,
            progress_direction: "next".to_owned(),
            values: vec![],
            limits: Limits::default(),
        }
    }
}

/// Every `(option "NAME" VALUE)` of a merged game form, in order, as (name, value text).
pub fn options_of(form: &Node) -> Vec<(String, String)> {
    form.items
        .iter()
        .filter(|n| n.head() == Some("option"))
        .filter_map(|n| {
            let a = n.args();
            let name = a
                .first()
                .filter(|x| x.kind == Kind::Str || x.kind == Kind::Atom)?;
            let value = a.get(1).and_then(|v| v.word()).unwrap_or("");
            Some((name.text.clone(), value.to_owned()))
        })
        .collect()
}

/// True for option names that configure the AI (and so do not change the rules).
pub fn is_ai_option(name: &str) -> bool {
    name == "ai" || name.starts_with("ai ")
}

fn number(name: &str, v: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("option \"{name}\": `{v}` is not a number"))
}

fn count(name: &str, v: &str) -> Result<u64, String> {
    v.parse::<u64>()
        .ok()
        .filter(|&x| x > 0)
        .ok_or_else(|| format!("option \"{name}\": `{v}` is not a positive integer"))
}

crate::error::message_error!(
    /// A bad `ai …` option, or an evaluation term naming a zone, direction or piece type the
    /// game lacks.
    AiConfigError
);

impl AiConfig {
    /// Reads the `ai …` options of a merged game form. Without an `"ai"` option the AI is
    /// `random`. Errors name the bad option.
    pub fn from_form(form: &Node) -> Result<AiConfig, AiConfigError> {
        Self::from_options(&options_of(form))
    }

    pub fn from_options(opts: &[(String, String)]) -> Result<AiConfig, AiConfigError> {
        Self::read_options(opts).map_err(AiConfigError)
    }

    fn read_options(opts: &[(String, String)]) -> Result<AiConfig, String> {
        let mut c = AiConfig::default();
        for (name, v) in opts.iter().filter(|(n, _)| is_ai_option(n)) {
            let n = name.as_str();
            match n {
                "ai" => {
                    c.kind = AiKind::parse(v).ok_or_else(|| {
                        format!(
                            "option \"ai\": unknown AI `{v}` (known: {})",
                            AiKind::NAMES.join(", ")
                        )
                    })?
                }
                "ai depth" => c.limits.depth = Some(count(n, v)? as u32),
                "ai nodes" => c.limits.nodes = Some(count(n, v)?),
                "ai playouts" => c.limits.playouts = Some(count(n, v)?),
                "ai time" => c.limits.time_ms = Some(count(n, v)?),
                "ai weight material" => c.weights.material = number(n, v)?,
                "ai weight mobility" => c.weights.mobility = number(n, v)?,
                "ai weight progress" => c.weights.progress = number(n, v)?,
                "ai weight capture" => c.weights.capture = number(n, v)?,
                "ai weight zone" => c.weights.zone = number(n, v)?,
                "ai zone" => c.zone = Some(v.clone()),
                "ai progress" => c.progress_direction = v.clone(),
                _ => match n.strip_prefix("ai value ") {
                    Some(ty) if !ty.trim().is_empty() => {
                        c.values.push((ty.trim().to_owned(), number(n, v)?))
                    }
                    _ => return Err(format!("unknown AI option \"{n}\" (see docs/ai.md)")),
                },
            }
        }
        Ok(c)
    }

    /// A one-line description, e.g. `greedy (progress 10, material 0)`.
    pub fn describe(&self) -> String {
        if self.kind == AiKind::Program {
            return "program (the variant's own engines)".to_owned();
        }
        let w = &self.weights;
        let mut terms = vec![];
        for (name, x) in [
            ("material", w.material),
            ("mobility", w.mobility),
            ("progress", w.progress),
            ("capture", w.capture),
            ("zone", w.zone),
        ] {
            if x != 0.0 {
                terms.push(format!("{name} {x}"));
            }
        }
        // The limits in effect for this kind of AI (defaults included), and only those.
        let mut s = self.kind.name().to_owned();
        let l = &self.limits;
        match self.kind {
            AiKind::AlphaBeta | AiKind::Expectimax => {
                let default = if self.kind == AiKind::AlphaBeta {
                    super::DEFAULT_ALPHABETA_DEPTH
                } else {
                    super::DEFAULT_EXPECTIMAX_DEPTH
                };
                s += &format!(" depth {}", l.depth.unwrap_or(default));
            }
            AiKind::Mcts => {
                s += &format!(
                    " playouts {}",
                    l.playouts.unwrap_or(super::mcts::DEFAULT_PLAYOUTS)
                );
            }
            _ => {}
        }
        if matches!(
            self.kind,
            AiKind::AlphaBeta | AiKind::Expectimax | AiKind::Mcts
        ) {
            if let Some(n) = l.nodes {
                s += &format!(" nodes {n}");
            }
            if let Some(t) = l.time_ms {
                s += &format!(" time {t} ms");
            }
        }
        if !matches!(self.kind, AiKind::Random | AiKind::First | AiKind::Mcts) && !terms.is_empty()
        {
            s += &format!(" ({})", terms.join(", "));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn reads_options_and_rejects_unknown_ones() {
        let c = AiConfig::from_options(&opts(&[
            ("ai", "greedy"),
            ("ai weight progress", "10"),
            ("ai value Man", "3"),
            ("pass turn", "forced"),
        ]))
        .unwrap();
        assert_eq!(c.kind, AiKind::Greedy);
        assert_eq!(c.weights.progress, 10.0);
        assert_eq!(c.values, vec![("Man".to_owned(), 3.0)]);
        assert!(AiConfig::from_options(&opts(&[("ai", "deep-blue")])).is_err());
        assert!(AiConfig::from_options(&opts(&[("ai wieght zone", "1")])).is_err());
        assert!(AiConfig::from_options(&opts(&[("ai depth", "-1")])).is_err());
    }
}
