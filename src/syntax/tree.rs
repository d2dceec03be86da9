//! The syntax tree: lists, atoms, numbers, strings and comments, each with its span.
//!
//! The same tree type serves the `syntax` stage (comments kept) and the `expanded` stage
//! (comments dropped, macros expanded, variants merged). Strings, numbers and symbols stay
//! distinct kinds.

use crate::source::Span;
use std::sync::Arc;

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

/// The children of a node: shared, copied on write, and no allocation when there are none
/// (leaves). Reads go through `Deref` to a `Vec<Node>`.
#[derive(Clone, Default)]
pub struct Items(Option<Arc<Vec<Node>>>);

static NO_ITEMS: Vec<Node> = Vec::new();

impl Items {
    /// Identifies the shared list (`None` when empty), e.g. to measure a subtree once.
    pub fn shared_id(&self) -> Option<*const Vec<Node>> {
        self.0.as_ref().map(Arc::as_ptr)
    }
}

impl std::ops::Deref for Items {
    type Target = Vec<Node>;
    fn deref(&self) -> &Vec<Node> {
        self.0.as_deref().unwrap_or(&NO_ITEMS)
    }
}

impl From<Vec<Node>> for Items {
    fn from(v: Vec<Node>) -> Self {
        Items((!v.is_empty()).then(|| Arc::new(v)))
    }
}

impl PartialEq for Items {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Items {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// A node. Leaves keep their text in `text` (strings without quotes, comments without the
/// `;`); lists keep their children in `items`.
///
/// The children are shared ([`Items`]): cloning a node is cheap and a clone shares its
/// subtrees until one of them is changed ([`Node::items_mut`] copies on write). Variants,
/// which copy their base game, so share the base's sections instead of duplicating them.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub span: Span,
    pub text: String,
    pub items: Items,
}

impl Node {
    pub fn leaf(kind: Kind, text: impl Into<String>, span: Span) -> Node {
        Node {
            kind,
            span,
            text: text.into(),
            items: Items::default(),
        }
    }

    pub fn list(items: Vec<Node>, span: Span) -> Node {
        Node {
            kind: Kind::List,
            span,
            text: String::new(),
            items: Items::from(items),
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
                .zip(other.items.iter())
                .all(|(a, b)| a.same_tree(b))
    }

    /// The children, to change: copied first when shared with another tree.
    pub fn items_mut(&mut self) -> &mut Vec<Node> {
        Arc::make_mut(self.items.0.get_or_insert_with(Default::default))
    }

    /// Takes the children out, leaving none (copies them when shared).
    pub fn take_items(&mut self) -> Vec<Node> {
        std::mem::take(self.items_mut())
    }

    /// Number of nodes in this tree.
    pub fn size(&self) -> usize {
        1 + self.items.iter().map(Node::size).sum::<usize>()
    }

    /// Removes comments at every depth.
    pub fn strip_comments(&mut self) {
        if !self
            .items
            .iter()
            .any(|n| n.kind == Kind::Comment || !n.items.is_empty())
        {
            return;
        }
        let items = self.items_mut();
        items.retain(|n| n.kind != Kind::Comment);
        for n in items {
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
