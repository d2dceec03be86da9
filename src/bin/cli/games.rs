//! `dagaz games`: the bundled games, their variants and the AI each variant plays.

use crate::common::{OK, usage_error, write_output};
use dagaz::ai::AiConfig;
use dagaz::expand::{Limits, load_text};

/// List the bundled games, their variants (by slug, usable as autoplay players) and AIs.
///
/// Examples:
///   dagaz games
///   dagaz games --json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args) -> u8 {
    let mut text = String::new();
    let mut rows = vec![];
    for b in dagaz::games::all() {
        let loaded = load_text(&format!("{}.zrf", b.name), b.text, Limits::default());
        text += &format!("{}\n", b.name);
        for g in &loaded.games {
            let ai = AiConfig::from_form(&g.form)
                .map(|c| c.describe())
                .unwrap_or_else(|e| format!("invalid: {e}"));
            text += &format!(
                "  {:<24} {:<28} {}\n",
                g.slug,
                format!("\"{}\"", g.title),
                ai
            );
            rows.push(serde_json::json!({"game": b.name, "slug": g.slug, "title": g.title, "default": g.is_default, "ai": ai}));
        }
    }
    let data = if a.json {
        serde_json::to_string_pretty(&serde_json::json!({"schema_version": 1, "variants": rows}))
            .unwrap_or_default()
            + "\n"
    } else {
        text
    };
    match write_output(None, data.as_bytes()) {
        Ok(()) => OK,
        Err(e) => usage_error(&e),
    }
}
