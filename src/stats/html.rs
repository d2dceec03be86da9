//! A self-contained HTML page of match summaries (`dagaz stats --html`).
//!
//! [`HtmlReport`] is plain data: the match summaries and optional sections (a crosstable and
//! a round robin's joint ratings, both of [`super::ratings`], per-opening results) that
//! other parts of the library fill in when they have them; [`HtmlReport::render`] turns it into one page of text, which the caller
//! writes (atomically). The page loads nothing: its CSS is inline, its charts are inline SVG,
//! it has no script, and its Content-Security-Policy forbids every load, so a browser makes
//! no request when it opens it. Every text that comes from records (player specs, titles,
//! seat names) is escaped. The markup is well-formed XML as well as HTML (every element
//! closed, void elements self-closed, only numeric character references beside the five
//! of XML), so that tests can parse it with an XML reader.

use super::ratings::{Crosstable, PlayerRating, TournamentSummary};
use super::{Score, Summary};

/// The page's input: summaries and optional sections. Build it with [`HtmlReport::new`],
/// then set the optional sections that are known.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HtmlReport {
    /// The page's title and heading.
    pub title: String,
    /// Where the records came from (file names), shown under the heading.
    pub sources: Vec<String>,
    /// One summary per match, in the order the page lists them.
    pub matches: Vec<Summary>,
    /// Points of every player against every other (several matches over three or more
    /// players), best score first.
    pub crosstable: Option<Crosstable>,
    /// A round robin or gauntlet whose joint ratings the page shows (its rated players,
    /// under [`TournamentSummary::ratings_note`]).
    pub tournament: Option<TournamentSummary>,
    /// Results per opening (records that carry the opening they started from).
    pub openings: Option<Vec<OpeningRow>>,
}

impl HtmlReport {
    /// A report of `matches` from the files `sources`, with a title naming the players,
    /// the crosstable of the matches when there is one ([`Crosstable::of_matches`]), and the results per opening
    /// when the runs had an opening book.
    pub fn new(matches: Vec<Summary>, sources: Vec<String>) -> HtmlReport {
        let openings: Vec<OpeningRow> = matches
            .iter()
            .flat_map(|s| {
                s.openings.iter().map(move |o| {
                    OpeningRow::new(
                        format!("{} vs {}", s.players[0], s.players[1]),
                        match o.line {
                            Some(l) => format!("line {l}: {}", o.name),
                            None => o.name.clone(),
                        },
                        [o.wins_a, o.draws, o.wins_b],
                        o.score_a,
                    )
                })
            })
            .collect();
        let title = match matches.as_slice() {
            [s] => format!("{} vs {}", s.players[0], s.players[1]),
            _ => {
                let mut names: Vec<&str> = matches
                    .iter()
                    .flat_map(|s| s.players.iter().map(String::as_str))
                    .collect();
                names.sort_unstable();
                names.dedup();
                format!(
                    "{} matches, {} players",
                    matches.len(),
                    names.len().max(usize::from(!matches.is_empty()))
                )
            }
        };
        HtmlReport {
            title,
            sources,
            crosstable: Crosstable::of_matches(&matches),
            matches,
            tournament: None,
            openings: (!openings.is_empty()).then_some(openings),
        }
    }

    /// The page, as text.
    pub fn render(&self) -> String {
        Page::default().render(self)
    }
}

/// A pairing's results over the games that started from one opening.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningRow {
    /// The pairing (`A vs B`).
    pub pairing: String,
    /// The opening: its moves or the name of its setup.
    pub opening: String,
    pub wins_a: u64,
    pub draws: u64,
    pub wins_b: u64,
    /// A's score with its interval.
    pub score: Score,
}

impl OpeningRow {
    pub fn new(
        pairing: String,
        opening: String,
        [wins_a, draws, wins_b]: [u64; 3],
        score: Score,
    ) -> OpeningRow {
        OpeningRow {
            pairing,
            opening,
            wins_a,
            draws,
            wins_b,
            score,
        }
    }
}

/// A match with a score between its players: two or more seats (not a solitaire).
fn is_scored(s: &Summary) -> bool {
    s.seat_count != 1 && s.score_a.games > 0
}

/// `text` with the characters that HTML and XML give a meaning escaped, and the control
/// characters that XML 1.0 does not allow replaced by U+FFFD.
pub fn escape(text: &str) -> String {
    let mut o = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            '\t' | '\n' | '\r' => o.push(c),
            c if c.is_control() => o.push('\u{fffd}'),
            c => o.push(c),
        }
    }
    o
}

/// At most `max` characters of `text`, with an ellipsis when cut.
fn short(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// `49.1–59.0%`.
fn pct_range(s: &Score) -> String {
    format!("{:.1}–{:.1}%", 100.0 * s.low, 100.0 * s.high)
}

fn signed(x: f64) -> String {
    // −0 prints as 0.
    let r = x.round();
    if r == 0.0 {
        "0".to_owned()
    } else {
        format!("{r:+.0}").replace('-', "−")
    }
}

fn elo_text(x: Option<f64>, inf: &str) -> String {
    x.map_or(inf.to_owned(), signed)
}

/// Points with halves as `½`: `7½`, `½`, `7`; other fractions with two decimals.
fn points(x: f64) -> String {
    let halves = (x * 2.0).round();
    if (x * 2.0 - halves).abs() > 1e-6 {
        return format!("{x:.2}");
    }
    let whole = (halves / 2.0).floor();
    match (whole as i64, halves as i64 % 2 != 0) {
        (0, true) => "½".to_owned(),
        (w, true) => format!("{w}½"),
        (w, false) => w.to_string(),
    }
}

/// A round step for about `target` intervals over `span`: 1, 2 or 5 times a power of ten.
fn nice_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|&s| s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * mag)
}

/// A number for an SVG attribute: two decimals at most.
fn n(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// One row of an error-bar chart.
struct Bar {
    label: String,
    value: f64,
    low: f64,
    high: f64,
    /// Shown right of the plot.
    text: String,
    /// The row's tooltip and accessible text.
    tip: String,
}

/// The horizontal axis of an error-bar chart.
struct Axis {
    min: f64,
    max: f64,
    /// A dashed line (even score, zero Elo).
    reference: Option<f64>,
    ticks: Vec<f64>,
    tick_label: fn(f64) -> String,
}

const STYLE: &str = r#"
:root{--fg:#1f2328;--muted:#5b6570;--bg:#ffffff;--panel:#f6f8fa;--line:#d8dee4;--grid:#e6eaef;
--a:#2563c9;--b:#d2691e;--d:#9aa4ae;--hi:#eaf1fb;--lo:#fbeee4}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9aa6b2;--bg:#0f1419;--panel:#161b22;
--line:#30363d;--grid:#262c34;--a:#5b9bf0;--b:#f0954d;--d:#6e7781;--hi:#15253d;--lo:#3a2616}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg)}
body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1080px;margin:0 auto;padding:36px 28px 56px}
header{border-bottom:1px solid var(--line);padding-bottom:18px}
.kicker{margin:0;color:var(--muted);font-size:13px;letter-spacing:.06em;text-transform:uppercase}
h1{font-size:28px;line-height:1.25;margin:4px 0 6px;font-weight:650;overflow-wrap:anywhere}
h2{font-size:20px;margin:0 0 6px;font-weight:650}
h3{font-size:15px;margin:0 0 4px;font-weight:600;overflow-wrap:anywhere}
p{margin:0 0 10px}
.meta,.lead{color:var(--muted)}
.lead{max-width:72ch}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:6px 8px;margin:14px 0 0;padding:0}
nav a{display:inline-block;padding:3px 11px;border:1px solid var(--line);border-radius:999px;
color:var(--fg);text-decoration:none;font-size:13px;background:var(--panel)}
nav a:hover{border-color:var(--a)}
section{margin-top:40px}
.wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;font-size:14px}
caption{text-align:left;color:var(--muted);font-size:13px;padding-bottom:6px}
th,td{padding:7px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{font-size:12px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.04em;
border-bottom:2px solid var(--line);white-space:nowrap}
tbody th{font-weight:normal}
.n{text-align:right;white-space:nowrap}
.c{text-align:center}
.sub{display:block;color:var(--muted);font-size:12px}
.spec{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:13px;overflow-wrap:anywhere}
.who{display:grid;grid-template-columns:auto 1fr;align-items:baseline}
.wide{min-width:15em}
.ttl{color:var(--muted)}
.tag{display:inline-block;min-width:18px;padding:0 5px;margin-right:6px;border-radius:4px;font-size:11px;
font-weight:700;color:#fff;text-align:center;line-height:18px}
.tag.a{background:var(--a)}.tag.b{background:var(--b)}
.note{display:block;color:var(--muted);font-size:12px;margin-top:2px}
.big{font-size:16px;font-weight:600}
figure{margin:14px 0 0;padding:14px 16px 10px;background:var(--panel);border:1px solid var(--line);border-radius:10px}
figure+.wrap{margin-top:20px}
figure{overflow-x:auto}
svg.bars{min-width:600px}
figcaption{color:var(--muted);font-size:13px;margin-top:6px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:16px;margin-top:14px}
.grid figure{margin:0}
svg.chart{display:block;width:100%;height:auto}
svg text{fill:var(--fg);font-size:12px;font-family:inherit}
svg .axis text,svg text.muted{fill:var(--muted)}
svg.hist text{font-size:11px}
svg .gridline{stroke:var(--grid);stroke-width:1}
svg .ref{stroke:var(--muted);stroke-width:1;stroke-dasharray:4 4}
svg .baseline{stroke:var(--muted);stroke-width:1}
svg .band{fill:var(--bg);opacity:.55}
svg .whisker{stroke:var(--a);stroke-width:2.5;stroke-linecap:round}
svg .dot{fill:var(--a);stroke:var(--bg);stroke-width:2}
svg .bar{fill:var(--a)}
svg .bar:hover,svg .dot:hover{opacity:.8}
svg .mean{stroke:var(--b);stroke-width:2;stroke-dasharray:5 3}
svg text.meanlabel{fill:var(--b);font-weight:600}
svg .wa{fill:var(--a)}svg .wd{fill:var(--d)}svg .wb{fill:var(--b)}
svg.wdl{display:block;margin-top:5px;border-radius:3px}
.legend{display:flex;flex-wrap:wrap;gap:4px 16px;color:var(--muted);font-size:12px;margin-top:8px}
.key{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.key.a{background:var(--a)}.key.b{background:var(--b)}.key.d{background:var(--d)}
table.cross{width:auto;min-width:60%}
table.cross td.c{min-width:64px}
td.self{background:var(--panel);color:var(--muted)}
td.s4{background:var(--hi)}td.s0{background:var(--lo)}
.ends{display:flex;flex-wrap:wrap;gap:2px 12px;font-size:12px;color:var(--muted);margin-top:4px}
footer{margin-top:48px;padding-top:16px;border-top:1px solid var(--line);color:var(--muted);font-size:13px}
footer ul{padding-left:18px;margin:6px 0 12px}
footer li{margin:3px 0}
"#;

/// The page being written, with a counter for unique element ids.
#[derive(Default)]
struct Page {
    ids: usize,
}

impl Page {
    fn id(&mut self, stem: &str) -> String {
        self.ids += 1;
        format!("{stem}-{}", self.ids)
    }

    fn render(&mut self, r: &HtmlReport) -> String {
        let scored: Vec<(usize, &Summary)> = r
            .matches
            .iter()
            .enumerate()
            .filter(|(_, s)| s.seat_count != 1)
            .collect();
        let solo: Vec<(usize, &Summary)> = r
            .matches
            .iter()
            .enumerate()
            .filter(|(_, s)| s.seat_count == 1)
            .collect();
        let labels = pairing_labels(&r.matches);
        let with_score: Vec<(usize, &Summary)> = scored
            .iter()
            .copied()
            .filter(|(_, s)| is_scored(s))
            .collect();
        let with_lengths: Vec<(usize, &Summary)> = r
            .matches
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.lengths.is_empty())
            .collect();
        // (id, heading, body)
        let mut sections: Vec<(&str, &str, String)> = vec![];
        if !scored.is_empty() {
            sections.push(("matches", "Matches", self.matches(&scored)));
        }
        if let Some(c) = &r.crosstable {
            sections.push(("crosstable", "Crosstable", self.crosstable(c)));
        }
        if let Some(t) = &r.tournament {
            let rated: Vec<(&PlayerRating, f64)> = t.ratings.rated().collect();
            let body = self.ratings(&t.ratings_note(), &rated);
            sections.push(("ratings", "Ratings", body));
        }
        if !with_score.is_empty() {
            sections.push((
                "pairings",
                "Score per pairing",
                self.pairings(&with_score, &labels),
            ));
            sections.push((
                "first-player",
                "First-player advantage",
                self.first_player(&with_score, &labels),
            ));
        }
        if !with_lengths.is_empty() {
            sections.push((
                "lengths",
                "Game length",
                self.lengths(&with_lengths, &labels),
            ));
        }
        if let Some(rows) = &r.openings {
            sections.push(("openings", "Openings", self.openings(rows)));
        }
        if !solo.is_empty() {
            sections.push(("solitaires", "One-seat games", self.solo(&solo, &labels)));
        }
        if sections.is_empty() {
            sections.push((
                "matches",
                "Matches",
                "<p class=\"lead\">The records hold no finished game.</p>\n".to_owned(),
            ));
        }

        let games: u64 = r.matches.iter().map(|s| s.games).sum();
        let mut o = String::new();
        o += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
        o += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n";
        o += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"/>\n";
        o += &format!(
            "<meta name=\"generator\" content=\"dagaz {}\"/>\n",
            env!("CARGO_PKG_VERSION")
        );
        o += &format!(
            "<title>{} · dagaz tournament report</title>\n",
            escape(&r.title)
        );
        o += "<style>";
        o += STYLE;
        o += "</style>\n</head>\n<body>\n<main>\n<header>\n";
        o += "<p class=\"kicker\">dagaz tournament report</p>\n";
        o += &format!("<h1>{}</h1>\n", escape(&r.title));
        let mut meta = format!(
            "{} game{} in {} match{}",
            games,
            if games == 1 { "" } else { "s" },
            r.matches.len(),
            if r.matches.len() == 1 { "" } else { "es" }
        );
        if !r.sources.is_empty() {
            let files: Vec<String> = r
                .sources
                .iter()
                .map(|f| format!("<span class=\"spec\">{}</span>", escape(f)))
                .collect();
            meta += &format!(" · from {}", files.join(", "));
        }
        o += &format!("<p class=\"meta\">{meta}</p>\n");
        o += "<nav aria-label=\"Sections\">\n<ul>\n";
        for (id, h, _) in &sections {
            o += &format!("<li><a href=\"#{id}\">{h}</a></li>\n");
        }
        o += "<li><a href=\"#reading\">How to read</a></li>\n</ul>\n</nav>\n</header>\n";
        for (id, h, body) in &sections {
            o += &format!(
                "<section id=\"{id}\" aria-labelledby=\"{id}-h\">\n<h2 id=\"{id}-h\">{h}</h2>\n{body}</section>\n"
            );
        }
        o += &footer(r);
        o += "</main>\n</body>\n</html>\n";
        o
    }

    /// One row per match: players, seed, games, W/D/L, score and Elo with intervals.
    fn matches(&mut self, scored: &[(usize, &Summary)]) -> String {
        let mut o = String::new();
        o += "<p class=\"lead\">Results of each match from player A's side: A's wins, the draws and B's wins; A's score (a draw counts a half) and the Elo difference A − B, each with its 95% interval.</p>\n";
        o += "<div class=\"wrap\">\n<table>\n<thead><tr><th scope=\"col\" class=\"n\">#</th><th scope=\"col\">Players</th><th scope=\"col\" class=\"n\">Seed</th><th scope=\"col\" class=\"n\">Games</th><th scope=\"col\">A wins · draws · B wins</th><th scope=\"col\" class=\"n\">Score of A</th><th scope=\"col\" class=\"n\">Elo A − B</th><th scope=\"col\" class=\"n\">Mean length</th></tr></thead>\n<tbody>\n";
        for (row, &(_, s)) in scored.iter().enumerate() {
            let mut notes: Vec<String> = vec![];
            if !s.swap {
                notes.push("no swap: A always moved first".to_owned());
            }
            if s.seat_count >= 3 {
                notes.push(format!(
                    "{} seats: A and B alternate over them; A's score is its seats' share of the points",
                    s.seat_count
                ));
            }
            if s.adjudicated > 0 {
                notes.push(format!(
                    "{} draw{} adjudicated at the ply cap",
                    s.adjudicated,
                    if s.adjudicated == 1 { "" } else { "s" }
                ));
            }
            if s.errors > 0 {
                notes.push(format!("{} game(s) failed with an error", s.errors));
            }
            if s.interrupted > 0 {
                notes.push(format!(
                    "{} game(s) interrupted, not counted",
                    s.interrupted
                ));
            }
            if s.repetition_off {
                notes.push("repetition off".to_owned());
            }
            let notes: String = notes
                .iter()
                .map(|t| format!("<span class=\"note\">{}</span>", escape(t)))
                .collect();
            let wdl = self.wdl(s.wins_a, s.draws, s.wins_b, &s.players);
            let inf = if s.score_a.score >= 1.0 {
                "+∞"
            } else {
                "−∞"
            };
            o += &format!(
                "<tr><td class=\"n\">{}</td><th scope=\"row\" class=\"wide\">{}{}{}</th><td class=\"n\">{}</td><td class=\"n\">{}</td><td><span class=\"big\">{} · {} · {}</span>{}</td><td class=\"n\"><span class=\"big\">{}</span><span class=\"sub\">95% CI {}</span></td><td class=\"n\"><span class=\"big\">{}</span><span class=\"sub\">{} … {}</span></td><td class=\"n\">{:.1} plies</td></tr>\n",
                row + 1,
                who("a", &s.players[0], &s.titles[0]),
                who("b", &s.players[1], &s.titles[1]),
                notes,
                s.run_seed,
                s.games,
                s.wins_a,
                s.draws,
                s.wins_b,
                wdl,
                pct(s.score_a.score),
                pct_range(&s.score_a),
                if s.score_a.games == 0 {
                    "–".to_owned()
                } else {
                    elo_text(s.elo.elo, inf)
                },
                elo_text(s.elo.low, "−∞"),
                elo_text(s.elo.high, "+∞"),
                s.mean_plies
            );
        }
        o += "</tbody>\n</table>\n</div>\n";
        o += "<div class=\"legend\"><span><span class=\"key a\"></span>A's wins</span><span><span class=\"key d\"></span>draws</span><span><span class=\"key b\"></span>B's wins</span></div>\n";
        o
    }

    /// A small stacked bar of A's wins, draws and B's wins.
    fn wdl(&mut self, w: u64, d: u64, l: u64, players: &[String; 2]) -> String {
        let total = (w + d + l) as f64;
        if total == 0.0 {
            return String::new();
        }
        let width = 150.0;
        let id = self.id("wdl");
        let tip = format!(
            "{} won {w}, {d} draw{}, {} won {l}",
            players[0],
            if d == 1 { "" } else { "s" },
            players[1]
        );
        let mut o = format!(
            "<svg class=\"wdl\" width=\"150\" height=\"8\" viewBox=\"0 0 150 8\" role=\"img\" aria-labelledby=\"{id}\"><title id=\"{id}\">{}</title>",
            escape(&tip)
        );
        let mut x = 0.0;
        for (k, class) in [(w, "wa"), (d, "wd"), (l, "wb")] {
            let len = width * k as f64 / total;
            if k > 0 {
                o += &format!(
                    "<rect class=\"{class}\" x=\"{}\" y=\"0\" width=\"{}\" height=\"8\"/>",
                    n(x),
                    n(len)
                );
            }
            x += len;
        }
        o += "</svg>";
        o
    }

    fn crosstable(&mut self, c: &Crosstable) -> String {
        let mut o = String::new();
        o += "<p class=\"lead\">Points of the player in each row against the player in each column (a draw counts a half), over the games they played; players ordered by score. Hover a cell for wins, draws and losses.</p>\n";
        o += "<div class=\"wrap\">\n<table class=\"cross\">\n<thead><tr><th scope=\"col\" class=\"n\">#</th><th scope=\"col\">Player</th>";
        for (k, name) in c.players.iter().enumerate() {
            o += &format!(
                "<th scope=\"col\" class=\"c\" title=\"{}\">{}</th>",
                escape(name),
                k + 1
            );
        }
        o += "<th scope=\"col\" class=\"n\">Games</th><th scope=\"col\" class=\"n\">Points</th><th scope=\"col\" class=\"n\">Score</th></tr></thead>\n<tbody>\n";
        for (i, (name, row)) in c.players.iter().zip(&c.cells).enumerate() {
            o += &format!(
                "<tr><td class=\"n\">{}</td><th scope=\"row\"><span class=\"spec\">{}</span><span class=\"sub\">{}</span></th>",
                i + 1,
                escape(name),
                escape(&c.titles[i])
            );
            for (j, cell) in row.iter().enumerate() {
                match cell {
                    _ if i == j => o += "<td class=\"c self\">—</td>",
                    None => o += "<td class=\"c\"><span class=\"ttl\">·</span></td>",
                    Some(x) => {
                        let s = x.score;
                        let class = if s >= 0.65 {
                            " s4"
                        } else if s <= 0.35 {
                            " s0"
                        } else {
                            ""
                        };
                        let tip = format!(
                            "{} against {}: {} win{}, {} draw{}, {} loss{} ({})",
                            name,
                            c.players[j],
                            x.wins,
                            if x.wins == 1 { "" } else { "s" },
                            x.draws,
                            if x.draws == 1 { "" } else { "s" },
                            x.losses,
                            if x.losses == 1 { "" } else { "es" },
                            pct(s)
                        );
                        o += &format!(
                            "<td class=\"c{class}\" title=\"{}\">{}<span class=\"sub\">of {}</span></td>",
                            escape(&tip),
                            points(x.points),
                            x.games
                        );
                    }
                }
            }
            let total = &c.totals[i];
            let score = total.score.map_or_else(|| "–".to_owned(), pct);
            o += &format!(
                "<td class=\"n\">{}</td><td class=\"n big\">{}</td><td class=\"n\">{}</td></tr>\n",
                total.games,
                points(total.points),
                score
            );
        }
        o += "</tbody>\n</table>\n</div>\n";
        o
    }

    /// The rating table of `rows` (rated players and their ratings) under `note`.
    fn ratings(&mut self, note: &str, rows: &[(&PlayerRating, f64)]) -> String {
        let mut o = String::new();
        if !note.is_empty() {
            o += &format!("<p class=\"lead\">{}</p>\n", escape(note));
        }
        o += "<div class=\"wrap\">\n<table>\n<thead><tr><th scope=\"col\" class=\"n\">#</th><th scope=\"col\">Player</th><th scope=\"col\" class=\"n\">Elo</th><th scope=\"col\" class=\"n\">95% interval</th><th scope=\"col\" class=\"n\">Games</th><th scope=\"col\" class=\"n\">Points</th></tr></thead>\n<tbody>\n";
        for (i, &(x, elo)) in rows.iter().enumerate() {
            o += &format!(
                "<tr><td class=\"n\">{}</td><th scope=\"row\"><span class=\"spec\">{}</span></th><td class=\"n big\">{}</td><td class=\"n\">{} … {}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
                i + 1,
                escape(&x.player),
                signed(elo),
                elo_text(x.low, "−∞"),
                elo_text(x.high, "+∞"),
                x.games,
                points(x.points)
            );
        }
        o += "</tbody>\n</table>\n</div>\n";
        if rows.is_empty() {
            return o;
        }
        let ends = |f: fn(&PlayerRating) -> Option<f64>| {
            rows.iter()
                .filter_map(move |&(x, _)| f(x))
                .chain(rows.iter().map(|&(_, elo)| elo))
        };
        let lo = ends(|x| x.low).fold(0.0f64, f64::min);
        let hi = ends(|x| x.high).fold(0.0f64, f64::max);
        let step = nice_step((hi - lo).max(1.0), 5.0);
        let (min, max) = ((lo / step).floor() * step, (hi / step).ceil() * step);
        let ticks = ticks(min, max, step);
        let bars: Vec<Bar> = rows
            .iter()
            .map(|&(x, elo)| Bar {
                label: x.player.clone(),
                value: elo,
                low: x.low.unwrap_or(min),
                high: x.high.unwrap_or(max),
                text: signed(elo),
                tip: format!(
                    "{}: Elo {}, 95% interval {} … {}",
                    x.player,
                    signed(elo),
                    elo_text(x.low, "−∞"),
                    elo_text(x.high, "+∞")
                ),
            })
            .collect();
        let chart = self.error_bars(
            "Ratings with their 95% intervals",
            &bars,
            &Axis {
                min,
                max,
                reference: Some(0.0),
                ticks,
                tick_label: signed,
            },
        );
        o += &format!(
            "<figure>\n{chart}<figcaption>Dot: the rating; bar: its 95% interval.</figcaption>\n</figure>\n"
        );
        o
    }

    fn pairings(&mut self, scored: &[(usize, &Summary)], labels: &[String]) -> String {
        let bars: Vec<Bar> = scored
            .iter()
            .map(|&(i, s)| Bar {
                label: labels[i].clone(),
                value: s.score_a.score,
                low: s.score_a.low,
                high: s.score_a.high,
                text: format!("{} ({})", pct(s.score_a.score), pct_range(&s.score_a)),
                tip: format!(
                    "{}: score of {} {} over {} games, 95% CI {}",
                    labels[i],
                    s.players[0],
                    pct(s.score_a.score),
                    s.score_a.games,
                    pct_range(&s.score_a)
                ),
            })
            .collect();
        let chart = self.error_bars(
            "Score of the first-named player per pairing",
            &bars,
            &percent_axis(),
        );
        format!(
            "<p class=\"lead\">The score of the first-named player (A) in each pairing, with its 95% interval. Intervals that cross the dashed line at 50% do not tell the players apart.</p>\n<figure>\n{chart}<figcaption>Dot: A's score; bar: Wilson's 95% score interval; dashed line: an even match.</figcaption>\n</figure>\n"
        )
    }

    fn first_player(&mut self, scored: &[(usize, &Summary)], labels: &[String]) -> String {
        let bars: Vec<Bar> = scored
            .iter()
            .map(|&(i, s)| Bar {
                label: labels[i].clone(),
                value: s.first_player.score,
                low: s.first_player.low,
                high: s.first_player.high,
                text: format!(
                    "{} ({})",
                    pct(s.first_player.score),
                    pct_range(&s.first_player)
                ),
                tip: format!(
                    "{}: the first seat scored {} over {} games, 95% CI {}",
                    labels[i],
                    pct(s.first_player.score),
                    s.first_player.games,
                    pct_range(&s.first_player)
                ),
            })
            .collect();
        let chart = self.error_bars("Score of the first seat per match", &bars, &percent_axis());
        let mut o = format!(
            "<p class=\"lead\">The score of whoever moved first, whichever player it was. Above 50%, moving first is an advantage.</p>\n<figure>\n{chart}<figcaption>Dot: the first seat's score; bar: its 95% interval; dashed line: no advantage.</figcaption>\n</figure>\n"
        );
        o += "<div class=\"wrap\">\n<table>\n<caption>Results per seat (whoever held it)</caption>\n<thead><tr><th scope=\"col\">Match</th><th scope=\"col\">Seat</th><th scope=\"col\" class=\"n\">Moves</th><th scope=\"col\" class=\"n\">Wins</th><th scope=\"col\" class=\"n\">Draws</th><th scope=\"col\" class=\"n\">Losses</th><th scope=\"col\" class=\"n\">Score</th></tr></thead>\n<tbody>\n";
        for &(i, s) in scored {
            for (k, x) in s.seats.iter().enumerate() {
                let head = if k == 0 {
                    format!(
                        "<th scope=\"rowgroup\" rowspan=\"{}\"><span class=\"spec\">{}</span></th>",
                        s.seats.len(),
                        escape(&labels[i])
                    )
                } else {
                    String::new()
                };
                o += &format!(
                    "<tr>{head}<td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}<span class=\"sub\">95% CI {}</span></td></tr>\n",
                    escape(&x.seat),
                    ordinal(x.position + 1),
                    x.wins,
                    x.draws,
                    x.losses,
                    pct(x.score.score),
                    pct_range(&x.score)
                );
            }
        }
        o += "</tbody>\n</table>\n</div>\n";
        o
    }

    fn lengths(&mut self, matches: &[(usize, &Summary)], labels: &[String]) -> String {
        let mut o = String::new();
        o += "<p class=\"lead\">How many plies the finished games took (random players' plies, such as dice, included), with the mean, and how the games ended.</p>\n<div class=\"grid\">\n";
        for &(i, s) in matches {
            let chart = self.histogram(s, &labels[i]);
            let e = &s.ends;
            let mut ends: Vec<String> = vec![];
            for (k, what) in [
                (e.goal, "by a goal"),
                (e.repetition, "by repetition"),
                (e.no_moves, "with no move"),
                (e.ply_cap, "at the ply cap"),
                (e.unrecorded, "not recorded"),
            ] {
                if k > 0 {
                    ends.push(format!("<span>{k} {what}</span>"));
                }
            }
            o += &format!(
                "<figure>\n<h3><span class=\"spec\">{}</span></h3>\n{chart}<figcaption>{} finished games · mean {:.1} plies<span class=\"ends\">{}</span></figcaption>\n</figure>\n",
                escape(&labels[i]),
                s.games - s.errors,
                s.mean_plies,
                ends.join("")
            );
        }
        o += "</div>\n";
        o
    }

    /// A bar chart of a match's game-length buckets, gaps filled with empty buckets.
    fn histogram(&mut self, s: &Summary, label: &str) -> String {
        let (Some(first), Some(last)) = (s.lengths.first(), s.lengths.last()) else {
            return String::new();
        };
        let width = (first.to - first.from).max(1);
        let mut buckets: Vec<(u32, u32, u64)> = vec![];
        let mut from = first.from;
        while from < last.to {
            let games = s
                .lengths
                .iter()
                .find(|b| b.from == from)
                .map_or(0, |b| b.games);
            buckets.push((from, from + width, games));
            from += width;
        }
        let (w, h) = (340.0, 200.0);
        let (left, right, top, bottom) = (34.0, 12.0, 24.0, 36.0);
        let (x0, x1, y0, y1) = (left, w - right, top, h - bottom);
        let top_count = buckets.iter().map(|b| b.2).max().unwrap_or(0).max(1) as f64;
        let step = nice_step(top_count, 4.0).max(1.0);
        let ymax = (top_count / step).ceil() * step;
        let span = f64::from(last.to - first.from);
        let xs = |p: f64| x0 + (p - f64::from(first.from)) / span * (x1 - x0);
        let ys = |c: f64| y1 - c / ymax * (y1 - y0);
        let id = self.id("len");
        let mut o = format!(
            "<svg class=\"chart hist\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"{id}-t {id}-d\">\n<title id=\"{id}-t\">Game lengths of {}</title>\n<desc id=\"{id}-d\">{} finished games in buckets of {} plies from {} to {}; mean {:.1} plies.</desc>\n",
            n(w),
            n(h),
            n(w),
            n(h),
            escape(label),
            s.games - s.errors,
            width,
            first.from,
            last.to,
            s.mean_plies
        );
        o += "<g class=\"axis\">";
        for t in ticks(0.0, ymax, step) {
            let y = ys(t);
            o += &format!(
                "<line class=\"gridline\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                n(x0),
                n(x1),
                n(y),
                n(y),
                n(x0 - 6.0),
                n(y + 4.0),
                t
            );
        }
        // Buckets of one ply are labelled under their bar; wider ones at their edges.
        let every = buckets.len().div_ceil(7).max(1);
        let centre = if width == 1 { 0.5 } else { 0.0 };
        let mut edges: Vec<u32> = buckets.iter().step_by(every).map(|b| b.0).collect();
        if width > 1 && buckets.len() % every == 0 {
            edges.push(last.to);
        }
        for e in edges {
            o += &format!(
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                n(xs(f64::from(e) + centre)),
                n(y1 + 16.0),
                e
            );
        }
        o += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">plies</text>",
            n((x0 + x1) / 2.0),
            n(h - 3.0)
        );
        o += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"start\">games</text>",
            n(4.0),
            n(12.0)
        );
        o += "</g>\n";
        let bw = (x1 - x0) / buckets.len() as f64;
        let gap = if bw > 6.0 { 1.5 } else { 0.0 };
        for &(from, to, games) in &buckets {
            let count = format!("{games} game{}", if games == 1 { "" } else { "s" });
            let tip = if to - from == 1 {
                format!("{from} plies: {count}")
            } else {
                format!("{from}–{} plies: {count}", to - 1)
            };
            let y = ys(games as f64);
            o += &format!(
                "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{}</title></rect>\n",
                n(xs(f64::from(from)) + gap / 2.0),
                n(y),
                n((bw - gap).max(0.5)),
                n(y1 - y),
                escape(&tip)
            );
        }
        // A game of p plies is drawn over [p, p + 1): the mean sits half a ply right.
        let mx = xs(s.mean_plies + 0.5);
        let anchor = if mx > (x0 + x1) / 2.0 { "end" } else { "start" };
        let dx = if anchor == "end" { -4.0 } else { 4.0 };
        o += &format!(
            "<line class=\"mean\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"><title>mean {:.1} plies</title></line><text class=\"meanlabel\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\">mean {:.1}</text>\n",
            n(mx),
            n(mx),
            n(y0 - 6.0),
            n(y1),
            s.mean_plies,
            n(mx + dx),
            n(y0 - 8.0),
            s.mean_plies
        );
        o += &format!(
            "<line class=\"baseline\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>\n</svg>\n",
            n(x0),
            n(x1),
            n(y1),
            n(y1)
        );
        o
    }

    fn openings(&mut self, rows: &[OpeningRow]) -> String {
        let mut o = String::new();
        o += "<p class=\"lead\">Results of each pairing per opening, from the first-named player's side.</p>\n";
        o += "<div class=\"wrap\">\n<table>\n<thead><tr><th scope=\"col\">Pairing</th><th scope=\"col\">Opening</th><th scope=\"col\" class=\"n\">Games</th><th scope=\"col\">A wins · draws · B wins</th><th scope=\"col\" class=\"n\">Score of A</th></tr></thead>\n<tbody>\n";
        for x in rows {
            o += &format!(
                "<tr><td><span class=\"spec\">{}</span></td><th scope=\"row\"><span class=\"spec\">{}</span></th><td class=\"n\">{}</td><td>{} · {} · {}</td><td class=\"n\">{}<span class=\"sub\">95% CI {}</span></td></tr>\n",
                escape(&x.pairing),
                escape(&x.opening),
                x.score.games,
                x.wins_a,
                x.draws,
                x.wins_b,
                pct(x.score.score),
                pct_range(&x.score)
            );
        }
        o += "</tbody>\n</table>\n</div>\n";
        if rows.is_empty() {
            return o;
        }
        let several = rows.iter().any(|x| x.pairing != rows[0].pairing);
        let bars: Vec<Bar> = rows
            .iter()
            .map(|x| {
                let label = if several {
                    format!("{} · {}", x.pairing, x.opening)
                } else {
                    x.opening.clone()
                };
                Bar {
                    tip: format!(
                        "{}: score of A {} over {} games, 95% CI {}",
                        label,
                        pct(x.score.score),
                        x.score.games,
                        pct_range(&x.score)
                    ),
                    label,
                    value: x.score.score,
                    low: x.score.low,
                    high: x.score.high,
                    text: format!("{} ({})", pct(x.score.score), pct_range(&x.score)),
                }
            })
            .collect();
        let chart = self.error_bars("Score of A per opening", &bars, &percent_axis());
        o += &format!(
            "<figure>\n{chart}<figcaption>Dot: A's score after the opening; bar: its 95% interval.</figcaption>\n</figure>\n"
        );
        o
    }

    fn solo(&mut self, matches: &[(usize, &Summary)], labels: &[String]) -> String {
        let mut o = String::new();
        o += "<p class=\"lead\">Games with one seat (solitaires, or one AI against random players): each game is solved, failed, drawn or unfinished (stopped at the ply cap).</p>\n";
        o += "<div class=\"wrap\">\n<table>\n<thead><tr><th scope=\"col\">Match</th><th scope=\"col\">Player</th><th scope=\"col\" class=\"n\">Games</th><th scope=\"col\" class=\"n\">Solved</th><th scope=\"col\" class=\"n\">Failed</th><th scope=\"col\" class=\"n\">Drawn</th><th scope=\"col\" class=\"n\">Unfinished</th><th scope=\"col\" class=\"n\">Solve rate</th><th scope=\"col\" class=\"n\">Plies to a solution</th></tr></thead>\n<tbody>\n";
        for &(i, s) in matches {
            for x in &s.solo {
                let k = usize::from(x.player == "B");
                o += &format!(
                    "<tr><td class=\"wide\"><span class=\"spec\">{}</span></td><th scope=\"row\" class=\"wide\">{}</th><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\"><span class=\"big\">{}</span><span class=\"sub\">95% CI {}</span></td><td class=\"n\">{}</td></tr>\n",
                    escape(&labels[i]),
                    who(if k == 0 { "a" } else { "b" }, &s.players[k], &s.titles[k]),
                    x.games,
                    x.solved,
                    x.lost + x.stuck + x.repeated,
                    x.drawn,
                    x.unfinished,
                    pct(x.solve_rate.score),
                    pct_range(&x.solve_rate),
                    x.mean_plies_solved
                        .map_or("–".to_owned(), |m| format!("{m:.1}"))
                );
            }
        }
        o += "</tbody>\n</table>\n</div>\n";
        o
    }

    /// A horizontal chart: one row per bar, a dot at the value and a whisker over the
    /// interval, the value's text at the right.
    fn error_bars(&mut self, title: &str, rows: &[Bar], axis: &Axis) -> String {
        const W: f64 = 900.0;
        const ROW: f64 = 32.0;
        const TOP: f64 = 8.0;
        const BOTTOM: f64 = 30.0;
        const MAX_LABEL: usize = 46;
        let longest = rows
            .iter()
            .map(|r| r.label.chars().count().min(MAX_LABEL))
            .max()
            .unwrap_or(0);
        let x0 = (longest as f64 * 7.0 + 22.0).clamp(120.0, 340.0);
        let x1 = W - 190.0;
        let h = TOP + ROW * rows.len() as f64 + BOTTOM;
        let span = (axis.max - axis.min).max(1e-9);
        let xs = |v: f64| x0 + (v.clamp(axis.min, axis.max) - axis.min) / span * (x1 - x0);
        let id = self.id("bars");
        let mut o = format!(
            "<svg class=\"chart bars\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"{id}-t\">\n<title id=\"{id}-t\">{}</title>\n",
            n(W),
            n(h),
            n(W),
            n(h),
            escape(title)
        );
        for k in 0..rows.len() {
            if k % 2 == 0 {
                o += &format!(
                    "<rect class=\"band\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                    n(TOP + ROW * k as f64),
                    n(W),
                    n(ROW)
                );
            }
        }
        o += "\n<g class=\"axis\">";
        let yb = TOP + ROW * rows.len() as f64;
        for &t in &axis.ticks {
            let x = xs(t);
            o += &format!(
                "<line class=\"gridline\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                n(x),
                n(x),
                n(TOP),
                n(yb),
                n(x),
                n(yb + 18.0),
                escape(&(axis.tick_label)(t))
            );
        }
        if let Some(r) = axis.reference {
            let x = xs(r);
            o += &format!(
                "<line class=\"ref\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>",
                n(x),
                n(x),
                n(TOP - 4.0),
                n(yb)
            );
        }
        o += "</g>\n";
        for (k, r) in rows.iter().enumerate() {
            let yc = TOP + ROW * k as f64 + ROW / 2.0;
            let (lo, hi, v) = (xs(r.low), xs(r.high), xs(r.value));
            o += &format!(
                "<g><title>{}</title><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text><line class=\"whisker\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/><line class=\"whisker\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/><line class=\"whisker\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/><circle class=\"dot\" cx=\"{}\" cy=\"{}\" r=\"6\"/><text x=\"{}\" y=\"{}\">{}</text></g>\n",
                escape(&r.tip),
                n(x0 - 12.0),
                n(yc + 4.0),
                escape(&short(&r.label, MAX_LABEL)),
                n(lo),
                n(hi),
                n(yc),
                n(yc),
                n(lo),
                n(lo),
                n(yc - 6.0),
                n(yc + 6.0),
                n(hi),
                n(hi),
                n(yc - 6.0),
                n(yc + 6.0),
                n(v),
                n(yc),
                n(x1 + 16.0),
                n(yc + 4.0),
                escape(&r.text)
            );
        }
        o += "</svg>\n";
        o
    }
}

/// The 0–100% axis of score charts.
fn percent_axis() -> Axis {
    Axis {
        min: 0.0,
        max: 1.0,
        reference: Some(0.5),
        ticks: vec![0.0, 0.25, 0.5, 0.75, 1.0],
        tick_label: |t| format!("{:.0}%", 100.0 * t),
    }
}

/// `min`, `min + step`, … up to `max`.
fn ticks(min: f64, max: f64, step: f64) -> Vec<f64> {
    let count = ((max - min) / step).round().max(0.0) as usize;
    (0..=count.min(50)).map(|k| min + step * k as f64).collect()
}

/// `A vs B` for every match, with the seed added where two matches share their players.
fn pairing_labels(matches: &[Summary]) -> Vec<String> {
    let plain: Vec<String> = matches
        .iter()
        .map(|s| format!("{} vs {}", s.players[0], s.players[1]))
        .collect();
    plain
        .iter()
        .zip(matches)
        .map(|(l, s)| {
            if plain.iter().filter(|x| *x == l).count() > 1 {
                format!("{l} (seed {})", s.run_seed)
            } else {
                l.clone()
            }
        })
        .collect()
}

/// A player's spec and title, with its A or B tag.
fn who(tag: &str, spec: &str, title: &str) -> String {
    format!(
        "<span class=\"who\"><span class=\"tag {tag}\">{}</span><span><span class=\"spec\">{}</span> <span class=\"ttl\">{}</span></span></span>",
        tag.to_uppercase(),
        escape(spec),
        escape(title)
    )
}

fn ordinal(k: usize) -> String {
    let suffix = match (k % 10, k % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
}

/// How to read the page, and where it came from.
fn footer(r: &HtmlReport) -> String {
    let mut o = String::new();
    o += "<footer id=\"reading\">\n<h2>How to read this page</h2>\n<ul>\n";
    o += "<li><strong>Score</strong>: points over games, a win counting 1 and a draw a half (with three or more seats, a player's share of its seats' points). Its interval is Wilson's 95% score interval (E. B. Wilson, 1927).</li>\n";
    o += "<li><strong>Elo</strong>: the rating difference −400·log10(1/s − 1) that gives the score s, applied to the score and to its interval's ends; ±∞ when one side scored everything.</li>\n";
    o += "<li><strong>First-player advantage</strong>: the score of whoever held the first seat, counted over both players.</li>\n";
    if r.crosstable.is_some() {
        o += "<li><strong>Crosstable</strong>: the points of the row's player against the column's, pooled over the matches between them; shaded cells mark a score of 65% or more (blue) or 35% or less (orange).</li>\n";
    }
    o += "</ul>\n";
    o += &format!(
        "<p>Written by dagaz {} (<span class=\"spec\">dagaz stats --html</span>); the page loads nothing from the network.</p>\n</footer>\n",
        env!("CARGO_PKG_VERSION")
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameRecord, GameResult, RunSettings, SeatOutcome, SeatRecord};
    use crate::stats::Accumulator;

    /// A two-seat game of `a` against `b`, `a` first when `a_first`: `winner` is `A`, `B`
    /// or `None` for a draw.
    fn game(a: &str, b: &str, index: u64, winner: Option<&str>, plies: u32) -> GameRecord {
        let a_first = index % 2 == 0;
        let settings = RunSettings::new(
            [a.to_owned(), b.to_owned()],
            [format!("{a} title"), format!("{b} title")],
            100,
        );
        let points = |p: &str| match winner {
            None => 0.5,
            Some(w) if w == p => 1.0,
            Some(_) => 0.0,
        };
        let seat = |name: &str, p: &str| SeatRecord {
            seat: name.to_owned(),
            player: p.to_owned(),
            points: Some(points(p)),
            result: Some(match winner {
                None => SeatOutcome::Draw,
                Some(w) if w == p => SeatOutcome::Win,
                Some(_) => SeatOutcome::Loss,
            }),
            rank: None,
        };
        let (first, second) = if a_first { ("A", "B") } else { ("B", "A") };
        GameRecord {
            schema_version: 2,
            run_seed: 1,
            game_index: index,
            game_seed: index,
            settings,
            seats: vec![seat("White", first), seat("Black", second)],
            result: if winner.is_some() {
                GameResult::Win
            } else {
                GameResult::Draw
            },
            winner: winner.map(str::to_owned),
            score_a: Some(points("A")),
            adjudicated: false,
            end: Some(crate::record::GameEnd::Goal),
            plies,
            moves: vec![],
            captures: [0, 0],
            nodes: [0, 0],
            search_cuts: [0, 0],
            time_ms: Some(0.0),
            error: None,
            identity: None,
            opening: None,
        }
    }

    /// A match of `a` against `b`: `w` wins of A, `d` draws, `l` wins of B.
    fn summary(a: &str, b: &str, w: u64, d: u64, l: u64) -> Summary {
        let mut acc = Accumulator::default();
        let mut i = 0;
        for (count, winner) in [(w, Some("A")), (d, None), (l, Some("B"))] {
            for _ in 0..count {
                acc.add(&game(a, b, i, winner, 10 + i as u32 * 7));
                i += 1;
            }
        }
        acc.summary().unwrap()
    }

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(
            escape("<script>alert('x') & \"y\"</script>\u{1}"),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;\u{fffd}"
        );
        assert_eq!(escape("Ur [simple] é"), "Ur [simple] é");
    }

    #[test]
    fn formats_points_percentages_and_elo() {
        assert_eq!(points(7.5), "7½");
        assert_eq!(points(0.5), "½");
        assert_eq!(points(3.0), "3");
        assert_eq!(points(1.0 / 3.0), "0.33");
        assert_eq!(signed(-0.2), "0");
        assert_eq!(signed(-12.6), "−13");
        assert_eq!(signed(190.85), "+191");
        assert_eq!(nice_step(37.0, 4.0), 10.0);
        assert_eq!(nice_step(8.0, 4.0), 2.0);
        assert_eq!(nice_step(300.0, 5.0), 100.0);
        assert_eq!(ticks(0.0, 40.0, 10.0), vec![0.0, 10.0, 20.0, 30.0, 40.0]);
        assert_eq!(short("abcdef", 4), "abc…");
        assert_eq!(n(12.0), "12");
        assert_eq!(n(1.255), "1.25");
    }

    #[test]
    fn crosstable_pools_matches_and_orders_players_by_score() {
        let crosstable = Crosstable::of_matches;
        // x beats y 3-1 (one draw), y beats z 2-0, z draws x 1-1 (all drawn: 2 draws).
        let m = vec![
            summary("x", "y", 3, 1, 0),
            summary("y", "z", 2, 0, 0),
            summary("z", "x", 0, 2, 0),
        ];
        let c = crosstable(&m).unwrap();
        // x: 3.5 + 1 = 4.5 of 6 (75%); y: 0.5 + 2 = 2.5 of 6; z: 0 + 1 = 1 of 4.
        assert_eq!(c.players, ["x", "y", "z"]);
        assert_eq!(c.titles, ["x title", "y title", "z title"]);
        assert_eq!(c.totals[0].points, 4.5);
        assert_eq!(c.totals[0].games, 6);
        assert_eq!(c.totals[1].points, 2.5);
        assert_eq!(c.totals[2].points, 1.0);
        let xy = c.cells[0][1].unwrap();
        assert_eq!((xy.wins, xy.draws, xy.losses, xy.points), (3, 1, 0, 3.5));
        let yx = c.cells[1][0].unwrap();
        assert_eq!((yx.wins, yx.draws, yx.losses, yx.points), (0, 1, 3, 0.5));
        assert!(c.cells[0][0].is_none());
        // Two matches between the same players pool; two players make no crosstable.
        assert!(crosstable(&m[..1]).is_none());
        let again = vec![
            summary("x", "y", 1, 0, 0),
            summary("y", "x", 1, 0, 0),
            summary("x", "z", 0, 0, 1),
        ];
        let c = crosstable(&again).unwrap();
        let x = c.players.iter().position(|p| p == "x").unwrap();
        let y = c.players.iter().position(|p| p == "y").unwrap();
        let xy = c.cells[x][y].unwrap();
        assert_eq!((xy.games, xy.points), (2, 1.0));
        // Self-play is left out.
        assert!(crosstable(&[summary("x", "x", 1, 0, 1), summary("y", "z", 1, 0, 0)]).is_none());
    }

    #[test]
    fn optional_sections_render_only_when_given() {
        let mut r = HtmlReport::new(vec![summary("x", "y", 3, 1, 2)], vec!["g.jsonl".into()]);
        let page = r.render();
        assert!(page.contains("<section id=\"matches\""));
        assert!(page.contains("<section id=\"pairings\""));
        assert!(page.contains("<section id=\"lengths\""));
        assert!(page.contains("<section id=\"first-player\""));
        for absent in ["crosstable", "ratings", "openings", "solitaires"] {
            assert!(!page.contains(&format!("id=\"{absent}\"")), "{absent}");
        }
        // A's score 3.5 of 6.
        assert!(page.contains("58.3%"), "{page}");
        // A round robin of three, one of which (<z>) lost every game: not rated.
        let t = crate::record::Tournament {
            players: vec!["x".into(), "y".into(), "<z>".into()],
            titles: vec!["X".into(), "Y".into(), "Z".into()],
            gauntlet: false,
            self_play: false,
            pair: [0, 0],
        };
        let tally = |games: u64, wins_a: u64, wins_b: u64| {
            let mut x = crate::stats::ratings::PairTally {
                games,
                wins_a,
                wins_b,
                draws: games - wins_a - wins_b,
                ..Default::default()
            };
            x.points_a = wins_a as f64 + x.draws as f64 / 2.0;
            x.points_a_sq = wins_a as f64 + x.draws as f64 / 4.0;
            x
        };
        let results = [
            ([0, 1], tally(6, 3, 2)),
            ([0, 2], tally(2, 2, 0)),
            ([1, 2], tally(2, 2, 0)),
        ];
        r.tournament = Some(TournamentSummary::new(7, &t, 6, &results));
        r.openings = Some(vec![OpeningRow::new(
            "x vs y".into(),
            "Pawn e2 - e4".into(),
            [2, 0, 1],
            Score::of(2.0, 3),
        )]);
        let page = r.render();
        assert!(page.contains("<section id=\"ratings\""));
        assert!(page.contains("Joint Elo of the round robin (seed 7)"));
        assert!(page.contains("Not rated: &lt;z&gt; (−∞: gave up every point to them)."));
        assert!(page.contains("<span class=\"spec\">x</span></th><td class=\"n big\">+29</td>"));
        assert!(!page.contains("<span class=\"spec\">&lt;z&gt;</span></th><td class=\"n big\">"));
        assert!(page.contains("<section id=\"openings\""));
        assert!(page.contains("Pawn e2 - e4") && page.contains("66.7%"));
    }

    #[test]
    fn histogram_fills_gaps_between_buckets() {
        // Lengths 10 and 80: buckets of 10, the six empty ones between drawn as zero bars.
        let mut acc = Accumulator::default();
        acc.add(&game("x", "y", 0, Some("A"), 10));
        acc.add(&game("x", "y", 1, Some("A"), 80));
        let s = acc.summary().unwrap();
        assert_eq!(s.lengths.len(), 2);
        let svg = Page::default().histogram(&s, "x vs y");
        assert_eq!(svg.matches("<rect class=\"bar\"").count(), 8, "{svg}");
        assert!(svg.contains("10–19 plies: 1 game<"));
        assert!(svg.contains("30–39 plies: 0 games"));
    }
}
