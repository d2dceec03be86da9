//! The compiled-model stage (`dagaz convert --stage model`): a [`Model`] as an
//! [`Element`] tree — players, turn order, directions, positions with their neighbour
//! tables, zones, attributes, move types, pieces with their move programs, setup, goals,
//! options and the bytecode listing. Layout documented in `docs/formats.md`.

use super::SCHEMA_VERSION;
use super::element::Element;
use crate::model::{Model, NONE};

fn names(list: &[String], idx: impl IntoIterator<Item = u32>) -> String {
    idx.into_iter()
        .map(|i| list.get(i as usize).map_or("?", String::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One game's model.
pub fn model_element(m: &Model) -> Element {
    let players: Vec<String> = m.players.iter().map(|p| p.name.clone()).collect();
    let nd = m.num_directions() as u32;
    let mut model = Element::new("model").attr("title", &m.title);

    model = model.child(
        Element::new("players").children(m.players.iter().enumerate().map(|(i, p)| {
            Element::new("player")
                .attr("index", i)
                .attr("name", &p.name)
                .attr("random", p.random)
        })),
    );

    let turns = m.turns.iter().enumerate().map(|(i, t)| {
        let mut e = Element::new("turn")
            .attr("index", i)
            .attr("player", &players[t.player.index()])
            .attr("pieces-of", &players[t.pieces_of.index()]);
        if let Some(ty) = t.move_type {
            e = e.attr("move-type", &m.move_types[ty.index()]);
        }
        e
    });
    model = model.child(
        Element::new("turn-order")
            .attr("repeat-from", m.repeat_from)
            .children(turns),
    );

    model = model.child(Element::new("directions").children((0..nd).map(|d| {
        let opp = m.opposite[d as usize];
        let mut e = Element::new("direction")
            .attr("index", d)
            .attr("name", &m.directions[d as usize]);
        if opp != NONE {
            e = e.attr("opposite", &m.directions[opp as usize]);
        }
        e
    })));

    model = model.child(
        Element::new("positions").children(m.position_ids().map(|p| {
            let mut e = Element::new("position")
                .attr("index", p.get())
                .attr("name", &m.positions[p.index()]);
            if m.dummy_positions.contains(p) {
                e = e.attr("dummy", true);
            }
            e.children((0..nd).filter_map(|d| {
                let to = m.link(p, d);
                (!to.is_none()).then(|| {
                    Element::new("link")
                        .attr("direction", &m.directions[d as usize])
                        .attr("to", &m.positions[to.index()])
                })
            }))
        })),
    );

    let mut zones = Element::new("zones");
    for (pi, per_player) in m.zone_sets.iter().enumerate() {
        for (zi, set) in per_player.iter().enumerate() {
            if !set.is_empty() {
                zones = zones.child(
                    Element::new("zone")
                        .attr("name", &m.zones[zi])
                        .attr("player", &players[pi])
                        .attr(
                            "positions",
                            names(&m.positions, set.iter().map(|p| p.get())),
                        ),
                );
            }
        }
    }
    model = model.child(zones);

    model = model.child(
        Element::new("attributes").children(
            m.attributes
                .iter()
                .enumerate()
                .map(|(i, a)| Element::new("attribute").attr("index", i).attr("name", a)),
        ),
    );
    model = model.child(
        Element::new("move-types").children(m.move_types.iter().enumerate().map(|(i, t)| {
            Element::new("move-type")
                .attr("index", i)
                .attr("name", t)
                .attr("priority", m.priority_rank.get(i).copied().unwrap_or(0))
        })),
    );

    model = model.child(
        Element::new("pieces").children(m.piece_types.iter().enumerate().map(|(i, t)| {
            let mut e = Element::new("piece").attr("index", i).attr("name", &t.name);
            if let Some(n) = &t.notation {
                e = e.attr("notation", n);
            }
            if t.dummy {
                e = e.attr("dummy", true);
            }
            let attrs: Vec<u32> = (0..m.attributes.len() as u32)
                .filter(|a| t.attrs >> a & 1 == 1)
                .collect();
            e = e.attr("attributes-set", names(&m.attributes, attrs));
            let blocks = |kind: &'static str, bs: &[crate::model::Block]| {
                bs.iter()
                    .map(|b| {
                        Element::new("block")
                            .attr("kind", kind)
                            .attr("start", b.start)
                            .attr("move-type", &m.move_types[b.move_type.index()])
                    })
                    .collect::<Vec<_>>()
            };
            e.children(blocks("move", &t.moves))
                .children(blocks("drop", &t.drops))
        })),
    );

    let mut setup = Element::new("setup");
    for &(pos, pc) in &m.setup {
        setup = setup.child(
            Element::new("piece")
                .attr("position", &m.positions[pos.index()])
                .attr("owner", &players[crate::model::piece::owner(pc).index()])
                .attr(
                    "type",
                    &m.piece_types[crate::model::piece::ty(pc).index()].name,
                ),
        );
    }
    for &(pl, ty, count) in &m.hand_setup {
        setup = setup.child(
            Element::new("hand")
                .attr("player", &players[pl.index()])
                .attr("type", &m.piece_types[ty as usize].name)
                .attr("count", count),
        );
    }
    model = model.child(setup);

    model = model.child(Element::new("goals").children(m.goals.iter().map(|g| {
        Element::new("goal")
            .attr("kind", format!("{:?}", g.kind).to_lowercase())
            .attr("players", names(&players, g.players.iter().copied()))
            .text(format!("{:?}", g.cond))
    })));
    let o = &m.options;
    model = model.child(
        Element::new("options")
            .attr("pass-turn", format!("{:?}", o.pass_turn).to_lowercase())
            .attr("pass-partial", o.pass_partial)
            .attr("recycle-captures", o.recycle_captures)
            .attr(
                "maximal-captures",
                format!("{:?}", o.maximal_captures).to_lowercase(),
            )
            .attr("include-off-pieces", o.include_off_pieces),
    );
    model.child(
        Element::new("code").children(
            m.code
                .iter()
                .enumerate()
                .map(|(i, op)| Element::new("op").attr("index", i).text(op_text(op))),
        ),
    )
}

/// One instruction as the listing shows it: its Rust form, with [`NONE`] (no position, no
/// owner, no type) written `NONE` rather than as the number it is stored as.
pub fn op_text(op: &crate::model::Op) -> String {
    format!("{op:?}").replace(&NONE.to_string(), "NONE")
}

/// The bytecode of a model, one `index: instruction` per line (what `convert --stage
/// model` shows in its `<code>` element), for reading and for snapshot tests.
pub fn listing(m: &Model) -> String {
    m.code
        .iter()
        .enumerate()
        .map(|(i, op)| format!("{i}: {}\n", op_text(op)))
        .collect()
}

/// The document for several games: `<models schema-version stage source>` around one
/// `<model>` per game.
pub fn models_element(source: &str, models: &[Model]) -> Element {
    Element::new("models")
        .attr("schema-version", SCHEMA_VERSION)
        .attr("stage", "model")
        .attr("source", source)
        .children(models.iter().map(model_element))
}
