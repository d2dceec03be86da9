//! The syntax tree: lists, atoms, numbers, strings and comments, each with its span.
//!
//! The same tree type serves the `syntax` stage (comments kept) and the `expanded` stage
//! (comments dropped, macros expanded, variants merged). Strings, numbers and symbols stay
//! distinct kinds.

use crate::source::Span;

/// The five node kinds of a ZRF file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    List,
    Atom,
    Number,
    Str,
    Comment,
}

impl Kind {
    /// Name used in XML element names and JSON `kind` values.
    pub fn name(self) -> &'static str {
        match self {
            Kind::List => "list",
            Kind::Atom => "atom",
            Kind::Number => "number",
            Kind::Str => "string",
            Kind::Comment => "comment",
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        Some(match s {
            "list" => Kind::List,
            "atom" => Kind::Atom,
            "number" => Kind::Number,
            "string" => Kind::Str,
            "comment" => Kind::Comment,
            _ => return None,
        })
    }
}

/// A node. Leaves keep their text in `text` (strings without quotes, comments without the
/// `;`); lists keep their children in `items`.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub span: Span,
    pub text: String,
    pub items: Vec<Node>,
}

impl Node {
    pub fn leaf(kind: Kind, text: impl Into<String>, span: Span) -> Node {
        Node {
            kind,
            span,
            text: text.into(),
            items: Vec::new(),
        }
    }

    pub fn list(items: Vec<Node>, span: Span) -> Node {
        Node {
            kind: Kind::List,
            span,
            text: String::new(),
            items,
        }
    }

    /// An atom or a number, chosen by the text (`[+-]?[0-9]+` is a number).
    pub fn symbol(text: String, span: Span) -> Node {
        let kind = if is_number(&text) {
            Kind::Number
        } else {
            Kind::Atom
        };
        Node::leaf(kind, text, span)
    }

    pub fn is_list(&self) -> bool {
        self.kind == Kind::List
    }

    /// The text of the first child when the node is a list starting with an atom.
    pub fn head(&self) -> Option<&str> {
        match self.items.first() {
            Some(n) if self.kind == Kind::List && n.kind == Kind::Atom => Some(&n.text),
            _ => None,
        }
    }

    /// The atom text, if the node is an atom.
    pub fn atom(&self) -> Option<&str> {
        (self.kind == Kind::Atom).then_some(self.text.as_str())
    }

    /// The text of an atom, number or string.
    pub fn word(&self) -> Option<&str> {
        matches!(self.kind, Kind::Atom | Kind::Number | Kind::Str).then_some(self.text.as_str())
    }

    /// Children after the head.
    pub fn args(&self) -> &[Node] {
        self.items.get(1..).unwrap_or(&[])
    }

    /// The first child list whose head is `head` (e.g. the `(name …)` of a piece).
    pub fn child_form(&self, head: &str) -> Option<&Node> {
        self.args().iter().find(|c| c.head() == Some(head))
    }

    /// The value of a `(name X)` child (pieces, zones): `X`.
    pub fn name_value(&self) -> Option<&Node> {
        self.child_form("name").and_then(|n| n.args().first())
    }

    /// True when both trees have the same kinds, texts and nesting (spans ignored).
    pub fn same_tree(&self, other: &Node) -> bool {
        self.kind == other.kind
            && self.text == other.text
            && self.items.len() == other.items.len()
            && self
                .items
                .iter()
                .zip(&other.items)
                .all(|(a, b)| a.same_tree(b))
    }

    /// Number of nodes in this tree.
    pub fn size(&self) -> usize {
        1 + self.items.iter().map(Node::size).sum::<usize>()
    }

    /// Removes comments at every depth.
    pub fn strip_comments(&mut self) {
        self.items.retain(|n| n.kind != Kind::Comment);
        for n in &mut self.items {
            n.strip_comments();
        }
    }
}

/// True when `s` is a ZRF integer: an optional sign and at least one digit.
pub fn is_number(s: &str) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// True when two form sequences are the same trees.
pub fn same_forms(a: &[Node], b: &[Node]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_tree(y))
}
