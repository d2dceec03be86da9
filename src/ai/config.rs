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

fn number(v: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("`{v}` is not a number"))
}

fn count(v: &str) -> Result<u64, String> {
    v.parse::<u64>()
        .ok()
        .filter(|&x| x > 0)
        .ok_or_else(|| format!("`{v}` is not a positive integer"))
}

/// Sets the `ai …` option `name` (not `"ai"` itself) to `v`. `Ok(false)`: no such option;
/// `Err`: why the value is bad.
fn set_option(c: &mut AiConfig, name: &str, v: &str) -> Result<bool, String> {
    match name {
        "ai depth" => {
            c.limits.depth =
                Some(u32::try_from(count(v)?).map_err(|_| format!("`{v}` is too large a depth"))?)
        }
        "ai nodes" => c.limits.nodes = Some(count(v)?),
        "ai playouts" => c.limits.playouts = Some(count(v)?),
        "ai time" => c.limits.time_ms = Some(count(v)?),
        "ai weight material" => c.weights.material = number(v)?,
        "ai weight mobility" => c.weights.mobility = number(v)?,
        "ai weight progress" => c.weights.progress = number(v)?,
        "ai weight capture" => c.weights.capture = number(v)?,
        "ai weight zone" => c.weights.zone = number(v)?,
        "ai zone" => c.zone = Some(v.to_owned()),
        "ai progress" => c.progress_direction = v.to_owned(),
        _ => match name.strip_prefix("ai value ") {
            Some(ty) if !ty.trim().is_empty() => c.values.push((ty.trim().to_owned(), number(v)?)),
            _ => return Ok(false),
        },
    }
    Ok(true)
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
            if n == "ai" {
                c.kind = AiKind::parse(v).ok_or_else(|| {
                    format!(
                        "option \"ai\": unknown AI `{v}` (known: {})",
                        AiKind::NAMES.join(", ")
                    )
                })?;
                continue;
            }
            match set_option(&mut c, n, v) {
                Ok(true) => {}
                Ok(false) => return Err(format!("unknown AI option \"{n}\" (see docs/ai.md)")),
                Err(why) => return Err(format!("option \"{n}\": {why}")),
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

/// The settings of an AI named on the command line (`@AI:key=value,…`): each key and the
/// `ai …` option it stands for. `material`, `mobility` and `capture` are short for their
/// `weight-…` keys; `zone` and `progress` name the zone and the direction, as their options
/// do. `value-TYPE` (any piece type) is handled apart.
pub const SETTING_KEYS: [(&str, &str); 14] = [
    ("depth", "ai depth"),
    ("nodes", "ai nodes"),
    ("playouts", "ai playouts"),
    ("time", "ai time"),
    ("material", "ai weight material"),
    ("mobility", "ai weight mobility"),
    ("capture", "ai weight capture"),
    ("weight-material", "ai weight material"),
    ("weight-mobility", "ai weight mobility"),
    ("weight-capture", "ai weight capture"),
    ("weight-progress", "ai weight progress"),
    ("weight-zone", "ai weight zone"),
    ("zone", "ai zone"),
    ("progress", "ai progress"),
];

/// Whether an AI of kind `kind` reads the option `option` (so that a setting it would
/// ignore is refused instead).
fn reads(kind: AiKind, option: &str) -> bool {
    let searcher = matches!(kind, AiKind::AlphaBeta | AiKind::Expectimax);
    let evaluates = searcher || kind == AiKind::Greedy;
    match option {
        "ai depth" => searcher,
        "ai nodes" | "ai time" => searcher || kind == AiKind::Mcts,
        "ai playouts" => kind == AiKind::Mcts,
        _ => evaluates,
    }
}

/// The keys an AI of kind `kind` takes, for messages (the short forms of the weights).
fn keys_of(kind: AiKind) -> Vec<&'static str> {
    let long = ["weight-material", "weight-mobility", "weight-capture"];
    let mut keys: Vec<&str> = SETTING_KEYS
        .iter()
        .filter(|(k, o)| reads(kind, o) && !long.contains(k))
        .map(|(k, _)| *k)
        .collect();
    if reads(kind, "ai value") {
        keys.push("value-TYPE");
    }
    keys
}

/// An AI named on the command line: `NAME[:key=value,…]`, the part after `@` of a player
/// spec (docs/ai.md, docs/autoplay.md). The names are those of the `"ai"` option, the keys
/// those of the `ai …` options ([`SETTING_KEYS`], `value-TYPE`).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AiSpec {
    /// The text as given (after the `@`).
    pub text: String,
    pub kind: AiKind,
    /// The `ai …` options the settings stand for, as (option name, value), in order.
    pub options: Vec<(String, String)>,
}

impl AiSpec {
    /// Parses `NAME[:key=value,…]`. Unknown names and keys get a "did you mean"; a key the
    /// AI would ignore (`depth` for `greedy`), a key given twice and a bad value are errors.
    pub fn parse(text: &str) -> Result<AiSpec, AiConfigError> {
        let (name, settings) = match text.split_once(':') {
            Some((n, s)) => (n.trim(), Some(s)),
            None => (text.trim(), None),
        };
        let aliases = ["alpha-beta", "negamax", "uct"];
        let kind = AiKind::parse(name).ok_or_else(|| {
            let near =
                crate::text::name_suggestion(name, AiKind::NAMES.iter().chain(aliases.iter()));
            AiConfigError(format!(
                "unknown AI `{name}`{} (known: {})",
                near.map(|n| format!(", did you mean `{n}`?"))
                    .unwrap_or_default(),
                AiKind::NAMES.join(", ")
            ))
        })?;
        let mut spec = AiSpec {
            text: text.to_owned(),
            kind,
            options: vec![],
        };
        let Some(settings) = settings else {
            return Ok(spec);
        };
        if kind == AiKind::Program {
            return Err(AiConfigError(
                "the program's own engines take no settings here (`--depth` sets the depth of `$NegamaxMove`)"
                    .to_owned(),
            ));
        }
        let mut scratch = AiConfig::default();
        for item in settings.split(',') {
            let Some((key, value)) = item.split_once('=') else {
                return Err(AiConfigError(format!(
                    "`{item}` is not a setting (write key=value, e.g. depth=4)"
                )));
            };
            let (key, value) = (key.trim(), value.trim());
            let option = match key
                .strip_prefix("value-")
                .or_else(|| key.strip_prefix("value "))
            {
                Some(ty) if !ty.trim().is_empty() => format!("ai value {}", ty.trim()),
                _ => {
                    let k = key.replace([' ', '_'], "-");
                    match SETTING_KEYS.iter().find(|(x, _)| *x == k) {
                        Some((_, o)) => (*o).to_owned(),
                        None => {
                            let mut known: Vec<&str> =
                                SETTING_KEYS.iter().map(|(k, _)| *k).collect();
                            known.push("value-TYPE");
                            let near = crate::text::name_suggestion(&k, known.iter());
                            return Err(AiConfigError(format!(
                                "unknown setting `{key}`{} ({} takes: {})",
                                near.map(|n| format!(", did you mean `{n}`?"))
                                    .unwrap_or_default(),
                                kind.name(),
                                keys_of(kind).join(", ")
                            )));
                        }
                    }
                }
            };
            if !reads(kind, &option) {
                let takes = keys_of(kind);
                return Err(AiConfigError(format!(
                    "{} does not use `{key}` ({})",
                    kind.name(),
                    if takes.is_empty() {
                        format!("{} takes no settings", kind.name())
                    } else {
                        format!("it takes: {}", takes.join(", "))
                    }
                )));
            }
            if matches!(option.as_str(), "ai zone" | "ai progress") && number(value).is_ok() {
                return Err(AiConfigError(format!(
                    "`{key}` names the {} of the {key} term; its weight is `weight-{key}={value}`",
                    if key == "zone" { "zone" } else { "direction" }
                )));
            }
            if spec.options.iter().any(|(o, _)| *o == option) {
                return Err(AiConfigError(format!("`{key}` is given twice")));
            }
            match set_option(&mut scratch, &option, value) {
                Ok(_) => {}
                Err(why) => {
                    return Err(AiConfigError(format!("`{key}`: {why}")));
                }
            }
            spec.options.push((option, value.to_owned()));
        }
        Ok(spec)
    }

    /// The AI this spec gives a variant whose own AI is `variant`: the algorithm, its limits
    /// and the weights come from the spec (defaults for what it leaves out, docs/ai.md);
    /// what describes the game's pieces and board (`ai value TYPE`, `ai zone`,
    /// `ai progress`) is kept from the variant unless the spec sets it.
    pub fn apply(&self, variant: &AiConfig) -> AiConfig {
        let mut c = AiConfig {
            kind: self.kind,
            values: variant.values.clone(),
            zone: variant.zone.clone(),
            progress_direction: variant.progress_direction.clone(),
            ..AiConfig::default()
        };
        for (o, v) in &self.options {
            // Checked by `parse`.
            let _ = set_option(&mut c, o, v);
        }
        c
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
        assert!(AiConfig::from_options(&opts(&[("ai depth", "4294967296")])).is_err());
    }

    #[test]
    fn ai_specs_of_the_command_line() {
        let s = AiSpec::parse("alphabeta:depth=4,material=1,value-Man=3,weight-zone=2").unwrap();
        assert_eq!(s.kind, AiKind::AlphaBeta);
        assert_eq!(
            s.options,
            opts(&[
                ("ai depth", "4"),
                ("ai weight material", "1"),
                ("ai value Man", "3"),
                ("ai weight zone", "2"),
            ])
        );
        // The variant's pieces, zone and direction stay; its algorithm, limits and weights
        // are replaced.
        let variant = AiConfig::from_options(&opts(&[
            ("ai", "greedy"),
            ("ai weight capture", "100"),
            ("ai value Bonus", "0"),
            ("ai zone", "rosettes"),
            ("ai nodes", "50"),
        ]))
        .unwrap();
        let c = s.apply(&variant);
        assert_eq!(c.kind, AiKind::AlphaBeta);
        assert_eq!(c.limits.depth, Some(4));
        assert_eq!(c.limits.nodes, None);
        assert_eq!(c.weights.capture, 0.0);
        assert_eq!(c.weights.zone, 2.0);
        assert_eq!(c.zone.as_deref(), Some("rosettes"));
        assert_eq!(
            c.values,
            [("Bonus".to_owned(), 0.0), ("Man".to_owned(), 3.0)]
        );
        assert_eq!(c.describe(), "alphabeta depth 4 (material 1, zone 2)");
        let m = AiSpec::parse("uct:playouts=500")
            .unwrap()
            .apply(&AiConfig::default());
        assert_eq!(m.describe(), "mcts playouts 500");
        assert_eq!(AiSpec::parse("random").unwrap().options, []);
    }

    #[test]
    fn bad_ai_specs_are_explained() {
        let err = |s: &str| AiSpec::parse(s).unwrap_err().0;
        assert!(err("alphabta").contains("unknown AI `alphabta`, did you mean `alphabeta`?"));
        assert!(err("mcts:playout=3").contains("did you mean `playouts`?"));
        assert!(err("greedy:depth=3").contains("greedy does not use `depth`"));
        assert!(err("random:nodes=3").contains("random takes no settings"));
        assert!(err("mcts:material=1").contains("mcts does not use `material`"));
        assert!(err("alphabeta:depth=0").contains("`depth`: `0` is not a positive integer"));
        assert!(err("alphabeta:material=x").contains("`x` is not a number"));
        assert!(err("alphabeta:depth=2,depth=3").contains("`depth` is given twice"));
        assert!(err("alphabeta:depth").contains("`depth` is not a setting"));
        assert!(err("greedy:progress=10").contains("its weight is `weight-progress=10`"));
        assert!(err("program:depth=3").contains("take no settings here"));
    }
}
