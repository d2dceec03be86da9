//! Writers (and a reader) for the tree formats of `docs/formats.md`: XML, JSON and ZRF,
//! and the element-tree form of the compiled model; and the ZRF → Axiom converter
//! ([`axiom`], which checks the names it writes against dagaz's Axiom layer).

pub mod axiom;
pub mod element;
pub mod json;
pub mod model;
pub mod xml;
pub mod xml_read;

use crate::source::FileId;
use crate::syntax::Node;

/// Version of the XML/JSON tree layout. Bumped on any change to the layout.
pub const SCHEMA_VERSION: u32 = 1;

/// A tree ready to be written: its stage, the source path as the user gave it, the forms, and
/// for each file id the name to print in `file` attributes (`None` for the main file).
pub struct TreeDoc<'a> {
    pub stage: &'a str,
    pub source: &'a str,
    pub forms: &'a [Node],
    pub file_names: &'a [Option<String>],
}

impl TreeDoc<'_> {
    fn file_of(&self, node: &Node) -> Option<&str> {
        let FileId(i) = node.span.file;
        self.file_names.get(i as usize).and_then(|n| n.as_deref())
    }
}
