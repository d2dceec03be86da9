//! The syntax layer: the tree, the parser and the ZRF printer.

pub mod parser;
pub mod print;
pub mod tree;

pub use parser::{Parsed, parse, parse_text};
pub use print::print_forms;
pub use tree::{Kind, Node};
