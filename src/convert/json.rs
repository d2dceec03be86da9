//! Writes a tree as JSON, mirroring the XML one to one (layout in `docs/formats.md`).
//!
//! Written by hand rather than through serde so that the byte layout (key order, escapes)
//! is exactly the documented one that the XSLT stylesheet reproduces.

use super::{SCHEMA_VERSION, TreeDoc};
use crate::syntax::{Kind, Node};
use std::fmt::Write as _;

/// The whole document: one line of JSON and a newline.
pub fn to_json(doc: &TreeDoc) -> String {
    let mut out = String::with_capacity(doc.forms.iter().map(Node::size).sum::<usize>() * 48);
    let _ = write!(out, "{{\"schema_version\":{SCHEMA_VERSION},\"stage\":");
    string(doc.stage, &mut out);
    out.push_str(",\"source\":");
    string(doc.source, &mut out);
    out.push_str(",\"forms\":[");
    for (i, f) in doc.forms.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        node(doc, f, &mut out);
    }
    out.push_str("]}\n");
    out
}

fn node(doc: &TreeDoc, n: &Node, out: &mut String) {
    let _ = write!(
        out,
        "{{\"kind\":\"{}\",\"line\":{},\"col\":{}",
        n.kind.name(),
        n.span.line,
        n.span.col
    );
    if let Some(f) = doc.file_of(n) {
        out.push_str(",\"file\":");
        string(f, out);
    }
    if n.kind == Kind::List {
        if let Some(h) = n.head() {
            out.push_str(",\"head\":");
            string(h, out);
        }
        out.push_str(",\"items\":[");
        for (i, c) in n.items.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            node(doc, c, out);
        }
        out.push_str("]}");
    } else {
        out.push_str(",\"text\":");
        string(&n.text, out);
        out.push('}');
    }
}

/// A JSON string with the documented escapes.
pub(crate) fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            _ => out.push(c),
        }
    }
    out.push('"');
}
