//! Prints a tree back as ZRF text, with the layout specified in `docs/formats.md`.
//!
//! The printed text of a syntax-stage tree parses back to the same tree, comments
//! included. `xslt-equivalents/tree-to-zrf.xsl` reproduces this output byte for byte.

use crate::syntax::tree::{Kind, Node};

/// Prints a sequence of top-level forms.
pub fn print_forms(forms: &[Node]) -> String {
    let mut out = String::new();
    for (i, f) in forms.iter().enumerate() {
        if i > 0 && f.kind == Kind::List {
            out.push('\n');
        }
        print_node(f, 0, &mut out);
        out.push('\n');
    }
    out
}

fn is_leaf(n: &Node) -> bool {
    matches!(n.kind, Kind::Atom | Kind::Number | Kind::Str)
}

/// Appends `node` printed at indentation `indent`.
pub fn print_node(node: &Node, indent: usize, out: &mut String) {
    match node.kind {
        Kind::Atom | Kind::Number => out.push_str(&node.text),
        Kind::Str => {
            out.push('"');
            out.push_str(&node.text);
            out.push('"');
        }
        Kind::Comment => {
            out.push(';');
            out.push_str(&node.text);
        }
        Kind::List => {
            out.push('(');
            let lead = node.items.iter().take_while(|n| is_leaf(n)).count();
            for (i, n) in node.items[..lead].iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                print_node(n, indent, out);
            }
            for n in &node.items[lead..] {
                out.push('\n');
                push_spaces(out, indent + 2);
                print_node(n, indent + 2, out);
            }
            if node.items.last().is_some_and(|n| n.kind == Kind::Comment) {
                out.push('\n');
                push_spaces(out, indent);
            }
            out.push(')');
        }
    }
}

/// Prints a node on one line (comments dropped), for messages and tests.
pub fn print_compact(node: &Node) -> String {
    let mut out = String::new();
    compact(node, &mut out);
    out
}

fn compact(node: &Node, out: &mut String) {
    match node.kind {
        Kind::List => {
            out.push('(');
            let mut first = true;
            for n in node.items.iter().filter(|n| n.kind != Kind::Comment) {
                if !first {
                    out.push(' ');
                }
                first = false;
                compact(n, out);
            }
            out.push(')');
        }
        Kind::Comment => {}
        _ => print_node(node, 0, out),
    }
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;
    use crate::syntax::parser::parse_text;

    #[test]
    fn layout() {
        let forms = parse_text("(a b (c d) e ;x\n) (f) ()", FileId(0)).forms;
        assert_eq!(
            print_forms(&forms),
            "(a b\n  (c d)\n  e\n  ;x\n)\n\n(f)\n\n()\n"
        );
    }

    #[test]
    fn round_trip() {
        let src = "; head\n(game (title \"T;\")\n ((x) \"\") ; tail\n (p $1-a -3))";
        let a = parse_text(src, FileId(0)).forms;
        let printed = print_forms(&a);
        let b = parse_text(&printed, FileId(0));
        assert!(b.diagnostics.is_empty());
        assert!(crate::syntax::tree::same_forms(&a, &b.forms), "{printed}");
    }
}
