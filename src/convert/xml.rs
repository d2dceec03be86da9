//! Writes a tree as XML (layout in `docs/formats.md`).

use super::{SCHEMA_VERSION, TreeDoc};
use crate::syntax::{Kind, Node};
use std::fmt::Write as _;

/// The whole document, ending with a newline.
pub fn to_xml(doc: &TreeDoc) -> String {
    let mut out = String::with_capacity(doc.forms.iter().map(Node::size).sum::<usize>() * 48);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = write!(
        out,
        "<zrf schema-version=\"{SCHEMA_VERSION}\" stage=\"{}\" source=\"",
        doc.stage
    );
    escape_attr(doc.source, &mut out);
    out.push_str("\">\n");
    for f in doc.forms {
        write_node(doc, f, 1, &mut out);
    }
    out.push_str("</zrf>\n");
    out
}

fn write_node(doc: &TreeDoc, n: &Node, depth: usize, out: &mut String) {
    out.extend(std::iter::repeat_n(' ', depth * 2));
    let name = n.kind.name();
    let _ = write!(
        out,
        "<{name} line=\"{}\" col=\"{}\"",
        n.span.line, n.span.col
    );
    if let Some(f) = doc.file_of(n) {
        out.push_str(" file=\"");
        escape_attr(f, out);
        out.push('"');
    }
    if n.kind == Kind::List {
        if let Some(h) = n.head() {
            out.push_str(" head=\"");
            escape_attr(h, out);
            out.push('"');
        }
        if n.items.is_empty() {
            out.push_str("/>\n");
            return;
        }
        out.push_str(">\n");
        for c in n.items.iter() {
            write_node(doc, c, depth + 1, out);
        }
        out.extend(std::iter::repeat_n(' ', depth * 2));
        out.push_str("</list>\n");
    } else {
        out.push('>');
        escape_text(&n.text, out);
        let _ = writeln!(out, "</{name}>");
    }
}

/// Escapes element text (`docs/formats.md`).
pub(crate) fn escape_text(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            _ => out.push(c),
        }
    }
}

/// Escapes an attribute value (`docs/formats.md`).
pub(crate) fn escape_attr(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            _ => out.push(c),
        }
    }
}
