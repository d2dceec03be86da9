//! Reads the tree XML of `docs/formats.md` back into a tree, so that `dagaz convert
//! tree.xml --to zrf` turns an XML file (possibly edited or produced by an XSLT pipeline)
//! back into ZRF. `file` attributes are not kept: every node is attributed to the XML file.
//!
//! Input is untrusted: lists nest at most [`MAX_NESTING`] deep (as in ZRF text, so later
//! stages never recurse deeper than for a parsed file), and a leaf whose text could not be
//! printed back as the same ZRF token (an atom with a blank, a parenthesis, `"` or `;`, a
//! string with `"`, a number that is not one, a comment with a line break) is rejected with
//! `DZ0004` instead of being written as different ZRF.

use crate::diagnostics::{Diagnostic, codes};
use crate::source::{FileId, Span};
use crate::syntax::parser::MAX_NESTING;
use crate::syntax::{Kind, Node};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// The stage named in the root element and the forms.
#[derive(Debug)]
pub struct XmlTree {
    pub stage: String,
    pub forms: Vec<Node>,
}

fn bad(msg: impl Into<String>, (line, col): (u32, u32)) -> Diagnostic {
    Diagnostic::error(codes::BAD_TREE_XML, msg).with_span(Span {
        file: FileId(0),
        line,
        col,
        offset: 0,
        len: 1,
    })
}

fn attr(e: &BytesStart, name: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == name.as_bytes())
        .and_then(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .ok()
                .map(|v| v.into_owned())
        })
}

fn node_start(e: &BytesStart, file: FileId) -> Result<Node, String> {
    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
    let kind = Kind::from_name(&name).ok_or_else(|| format!("unknown element <{name}>"))?;
    let num = |a: &str| attr(e, a).and_then(|v| v.parse::<u32>().ok()).unwrap_or(0);
    let span = Span {
        file,
        line: num("line"),
        col: num("col"),
        offset: 0,
        len: 0,
    };
    Ok(Node::leaf(kind, String::new(), span))
}

/// Why `n`'s text cannot be printed as one ZRF token of its kind, if it cannot.
fn unprintable(n: &Node) -> Option<&'static str> {
    let t = n.text.as_str();
    match n.kind {
        Kind::Atom if t.is_empty() => Some("an empty atom"),
        Kind::Atom
            if t.contains(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | ';')) =>
        {
            Some("an atom with a blank, a parenthesis, `\"` or `;`")
        }
        Kind::Number => {
            let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
            (digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()))
                .then_some("a number that is not `[+-]digits`")
        }
        Kind::Str if t.contains('"') => Some("a string with `\"` (ZRF has no escape for it)"),
        Kind::Comment if t.contains(['\n', '\r']) => Some("a comment with a line break"),
        _ => None,
    }
}

/// Parses tree XML text.
pub fn read_tree_xml(text: &str, file: FileId) -> Result<XmlTree, Diagnostic> {
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<Node> = Vec::new();
    let mut forms = Vec::new();
    let mut stage = None;
    // Line and column of a byte offset (only computed for an error).
    let line_of = |pos: u64| {
        let mut end = (pos as usize).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let before = &text[..end];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (
            before.matches('\n').count() as u32 + 1,
            before[line_start..].chars().count() as u32 + 1,
        )
    };
    loop {
        let pos = reader.buffer_position();
        let ev = reader
            .read_event()
            .map_err(|e| bad(format!("not well-formed XML: {e}"), line_of(pos)))?;
        match ev {
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == b"zrf" => {
                stage = Some(attr(&e, "stage").unwrap_or_default());
            }
            Event::Start(e) => {
                if stage.is_none() {
                    return Err(bad("the root element must be <zrf>", line_of(pos)));
                }
                if stack.len() >= MAX_NESTING {
                    return Err(bad(
                        format!("elements nested deeper than {MAX_NESTING} levels"),
                        line_of(pos),
                    ));
                }
                stack.push(node_start(&e, file).map_err(|m| bad(m, line_of(pos)))?);
            }
            Event::Empty(e) => {
                let n = node_start(&e, file).map_err(|m| bad(m, line_of(pos)))?;
                if let Some(why) = unprintable(&n) {
                    return Err(bad(
                        format!("cannot be written as ZRF: {why}"),
                        line_of(pos),
                    ));
                }
                match stack.last_mut() {
                    Some(p) => p.items_mut().push(n),
                    None => forms.push(n),
                }
            }
            Event::End(e) if e.name().as_ref() == b"zrf" => break,
            Event::End(_) => {
                let n = stack
                    .pop()
                    .ok_or_else(|| bad("unbalanced end tag", line_of(pos)))?;
                if let Some(why) = unprintable(&n) {
                    return Err(bad(
                        format!("cannot be written as ZRF: {why}"),
                        line_of(pos),
                    ));
                }
                match stack.last_mut() {
                    Some(p) => p.items_mut().push(n),
                    None => forms.push(n),
                }
            }
            Event::Text(t) => {
                if let Some(n) = stack.last_mut().filter(|n| n.kind != Kind::List) {
                    let t = t
                        .xml10_content()
                        .map_err(|e| bad(format!("not UTF-8 text: {e}"), line_of(pos)))?;
                    n.text.push_str(&t);
                }
            }
            Event::GeneralRef(r) => {
                let c = match r.resolve_char_ref() {
                    Ok(Some(c)) => c,
                    _ => match r.as_ref() {
                        b"amp" => '&',
                        b"lt" => '<',
                        b"gt" => '>',
                        b"quot" => '"',
                        b"apos" => '\'',
                        other => {
                            let other = String::from_utf8_lossy(other);
                            return Err(bad(format!("unknown entity &{other};"), line_of(pos)));
                        }
                    },
                };
                if let Some(n) = stack.last_mut().filter(|n| n.kind != Kind::List) {
                    n.text.push(c);
                }
            }
            Event::CData(t) => {
                if let Some(n) = stack.last_mut().filter(|n| n.kind != Kind::List) {
                    let t = t
                        .xml10_content()
                        .map_err(|e| bad(format!("not UTF-8 text: {e}"), line_of(pos)))?;
                    n.text.push_str(&t);
                }
            }
            Event::Eof => return Err(bad("the XML ends before </zrf>", line_of(pos))),
            _ => {}
        }
    }
    Ok(XmlTree {
        stage: stage.unwrap_or_default(),
        forms,
    })
}
