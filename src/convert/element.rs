//! A generic element tree (name, attributes, children or text) and its XML and JSON
//! forms, used for the compiled-model stage (`docs/formats.md`, "Model stage").
//!
//! The JSON mirrors the XML by one rule that an XSLT stylesheet can apply
//! (`xslt-equivalents/model-to-json.xsl`): an element is an object whose first key is
//! `element` (the element name), then one key per attribute in order (`-` in names becomes
//! `_`; values that are canonical integers are JSON numbers, `true` and `false` are JSON
//! booleans, all others strings), then
//! `children` (an array, when the element has child elements) or `text` (when it has text).

use super::json::string;
use super::xml::{escape_attr, escape_text};
use std::fmt::Write as _;

/// One element.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Element {
    pub name: &'static str,
    pub attrs: Vec<(&'static str, String)>,
    pub children: Vec<Element>,
    pub text: Option<String>,
}

impl Element {
    pub fn new(name: &'static str) -> Self {
        Element {
            name,
            ..Default::default()
        }
    }

    /// Adds an attribute (builder style).
    pub fn attr(mut self, key: &'static str, value: impl ToString) -> Self {
        self.attrs.push((key, value.to_string()));
        self
    }

    /// Adds a child (builder style).
    pub fn child(mut self, c: Element) -> Self {
        self.children.push(c);
        self
    }

    pub fn children(mut self, cs: impl IntoIterator<Item = Element>) -> Self {
        self.children.extend(cs);
        self
    }

    pub fn text(mut self, t: impl Into<String>) -> Self {
        self.text = Some(t.into());
        self
    }
}

/// True when `s` is a canonical integer (`0`, `-12`, `7`; not `007` or `+1`).
pub fn is_canonical_int(s: &str) -> bool {
    let d = s.strip_prefix('-').unwrap_or(s);
    !d.is_empty()
        && d.len() <= 15
        && d.bytes().all(|b| b.is_ascii_digit())
        && (d == "0" || !d.starts_with('0'))
        && s != "-0"
}

/// The XML document (declaration, two-space indentation, `\n` after every line).
pub fn to_xml(root: &Element) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml(root, 0, &mut out);
    out
}

fn xml(e: &Element, depth: usize, out: &mut String) {
    out.extend(std::iter::repeat_n(' ', depth * 2));
    let _ = write!(out, "<{}", e.name);
    for (k, v) in &e.attrs {
        let _ = write!(out, " {k}=\"");
        escape_attr(v, out);
        out.push('"');
    }
    if let Some(t) = &e.text {
        out.push('>');
        escape_text(t, out);
        let _ = writeln!(out, "</{}>", e.name);
    } else if e.children.is_empty() {
        out.push_str("/>\n");
    } else {
        out.push_str(">\n");
        for c in &e.children {
            xml(c, depth + 1, out);
        }
        out.extend(std::iter::repeat_n(' ', depth * 2));
        let _ = writeln!(out, "</{}>", e.name);
    }
}

/// The JSON document: one line and a newline.
pub fn to_json(root: &Element) -> String {
    let mut out = String::new();
    json(root, &mut out);
    out.push('\n');
    out
}

fn json(e: &Element, out: &mut String) {
    out.push_str("{\"element\":");
    string(e.name, out);
    for (k, v) in &e.attrs {
        out.push(',');
        string(&k.replace('-', "_"), out);
        out.push(':');
        if is_canonical_int(v) || v == "true" || v == "false" {
            out.push_str(v);
        } else {
            string(v, out);
        }
    }
    if let Some(t) = &e.text {
        out.push_str(",\"text\":");
        string(t, out);
    } else if !e.children.is_empty() {
        out.push_str(",\"children\":[");
        for (i, c) in e.children.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            json(c, out);
        }
        out.push(']');
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_and_json_mirror_each_other() {
        let e = Element::new("model")
            .attr("schema-version", 1)
            .attr("title", "A \"b\" & c")
            .child(Element::new("op").attr("index", "007").text("x<y"))
            .child(Element::new("empty"));
        assert_eq!(
            to_xml(&e),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model schema-version=\"1\" title=\"A &quot;b&quot; &amp; c\">\n  <op index=\"007\">x&lt;y</op>\n  <empty/>\n</model>\n"
        );
        assert_eq!(
            to_json(&e),
            "{\"element\":\"model\",\"schema_version\":1,\"title\":\"A \\\"b\\\" & c\",\"children\":[{\"element\":\"op\",\"index\":\"007\",\"text\":\"x<y\"},{\"element\":\"empty\"}]}\n"
        );
    }
}
