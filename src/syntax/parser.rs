//! The ZRF parser: the pest grammar (`grammars/zrf.pest`) splits text into tokens; this
//! module builds the tree from them with an explicit stack.
//!
//! Building the tree outside the grammar keeps the parser total: unbalanced parentheses and
//! unterminated strings become positioned diagnostics, and nesting is bounded by
//! [`MAX_NESTING`] instead of by the call stack.

use crate::diagnostics::{Diagnostic, codes};
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::tree::{Kind, Node};
use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "../grammars/zrf.pest"]
struct ZrfGrammar;

/// Deepest list nesting accepted. Real rules files stay below 20.
pub const MAX_NESTING: usize = 256;

/// The forms of one file and what was found while reading them.
#[derive(Debug)]
pub struct Parsed {
    pub forms: Vec<Node>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Tracks line and column while walking forward through the text.
struct Cursor<'a> {
    text: &'a str,
    offset: usize,
    line: u32,
    col: u32,
}

impl Cursor<'_> {
    fn advance_to(&mut self, target: usize) {
        let bytes = self.text.as_bytes();
        while self.offset < target {
            let b = bytes[self.offset];
            if b == b'\n' || (b == b'\r' && bytes.get(self.offset + 1) != Some(&b'\n')) {
                self.line += 1;
                self.col = 1;
            } else if b & 0xC0 != 0x80 {
                self.col += 1;
            }
            self.offset += 1;
        }
    }
}

/// Parses file `id` of `sources`.
pub fn parse(sources: &SourceMap, id: FileId) -> Parsed {
    parse_text(&sources.get(id).text, id)
}

/// Parses `text`, attributing spans to file `file`.
pub fn parse_text(text: &str, file: FileId) -> Parsed {
    let mut diagnostics = Vec::new();
    let pairs = match ZrfGrammar::parse(Rule::file, text) {
        Ok(p) => p,
        Err(e) => {
            // The grammar accepts every input; this is a safety net, not an expected path.
            let (line, col) = match e.line_col {
                pest::error::LineColLocation::Pos(p) | pest::error::LineColLocation::Span(p, _) => {
                    p
                }
            };
            diagnostics.push(
                Diagnostic::error(codes::UNTERMINATED_STRING, format!("cannot tokenize: {e}"))
                    .with_span(Span {
                        file,
                        line: line as u32,
                        col: col as u32,
                        offset: 0,
                        len: 1,
                    }),
            );
            return Parsed {
                forms: vec![],
                diagnostics,
            };
        }
    };
    let mut cur = Cursor {
        text,
        offset: 0,
        line: 1,
        col: 1,
    };
    // Stack of open lists: (span of the `(`, children so far).
    let mut stack: Vec<(Span, Vec<Node>)> = Vec::new();
    let mut top: Vec<Node> = Vec::new();
    let mut too_deep_reported = false;
    // Depth of lists opened beyond MAX_NESTING and flattened into their parent.
    let mut overflow = 0usize;
    // The first `(` at the start of a line opened while a list was still open: a top-level
    // form (`(define`, `(game`) swallowed by the form before it, whose `)` is then likely
    // missing just before this line.
    let mut swallowed: Option<Span> = None;
    for pair in pairs {
        let rule = pair.as_rule();
        if rule == Rule::EOI {
            break;
        }
        let s = pair.as_span();
        cur.advance_to(s.start());
        let span = Span {
            file,
            line: cur.line,
            col: cur.col,
            offset: s.start() as u32,
            len: (s.end() - s.start()) as u32,
        };
        let node = match rule {
            Rule::paren if s.as_str() == "(" => {
                if span.col == 1 && !stack.is_empty() && swallowed.is_none() {
                    swallowed = Some(span);
                }
                if stack.len() >= MAX_NESTING {
                    if !too_deep_reported {
                        diagnostics.push(
                            Diagnostic::error(
                                codes::NESTING_TOO_DEEP,
                                format!("lists nested deeper than {MAX_NESTING} levels"),
                            )
                            .with_span(span),
                        );
                        too_deep_reported = true;
                    }
                    overflow += 1;
                } else {
                    stack.push((span, Vec::new()));
                }
                continue;
            }
            Rule::paren => {
                if overflow > 0 {
                    overflow -= 1;
                    continue;
                }
                match stack.pop() {
                    Some((open, items)) => Node::list(items, open),
                    None => {
                        diagnostics.push(
                            Diagnostic::error(
                                codes::UNMATCHED_CLOSE,
                                "unmatched `)`: no list is open here",
                            )
                            .with_span(span),
                        );
                        continue;
                    }
                }
            }
            Rule::string => {
                let body = pair.into_inner().next().map_or("", |p| p.as_str());
                Node::leaf(Kind::Str, body, span)
            }
            Rule::unterminated => {
                diagnostics.push(
                    Diagnostic::error(
                        codes::UNTERMINATED_STRING,
                        "unterminated string: no closing `\"` before the end of the file",
                    )
                    .with_span(Span { len: 1, ..span }),
                );
                continue;
            }
            Rule::comment => Node::leaf(Kind::Comment, &s.as_str()[1..], span),
            Rule::atom => Node::symbol(s.as_str().to_owned(), span),
            _ => continue,
        };
        match stack.last_mut() {
            Some((_, items)) => items.push(node),
            None => top.push(node),
        }
    }
    if let Some((open, _)) = stack.first() {
        let innermost = stack.last().map(|(s, _)| *s).unwrap_or(*open);
        let mut d = Diagnostic::error(
            codes::UNCLOSED_LIST,
            format!(
                "unclosed list: {} `(` not closed at the end of the file",
                stack.len()
            ),
        )
        .with_span(*open);
        if innermost != *open {
            d = d.with_note(format!(
                "the innermost unclosed list opens at line {}, column {}",
                innermost.line, innermost.col
            ));
        }
        if let Some(at) = swallowed {
            d = d.with_note(format!(
                "a `)` is likely missing before line {}: the `(` that starts that line, at column 1, opens inside the list that is not closed",
                at.line
            ));
        }
        diagnostics.push(d);
        // Close what is open so the caller still gets a tree.
        while let Some((open, items)) = stack.pop() {
            let node = Node::list(items, open);
            match stack.last_mut() {
                Some((_, items)) => items.push(node),
                None => top.push(node),
            }
        }
    }
    Parsed {
        forms: top,
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Parsed {
        parse_text(text, FileId(0))
    }

    #[test]
    fn tokens_and_kinds() {
        let r = p("(a -12 \"x;y\" ; c\n $1-b)");
        assert!(r.diagnostics.is_empty());
        let l = &r.forms[0];
        let kinds: Vec<_> = l.items.iter().map(|n| n.kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::Atom,
                Kind::Number,
                Kind::Str,
                Kind::Comment,
                Kind::Atom
            ]
        );
        assert_eq!(l.items[2].text, "x;y");
        assert_eq!(l.items[3].text, " c");
        assert_eq!((l.items[4].span.line, l.items[4].span.col), (2, 2));
    }

    #[test]
    fn multiline_and_empty_strings_and_backslashes() {
        let r = p("(a \"\" \"x\r\ny\" \"C:\\dir\\f.bmp\")");
        let l = &r.forms[0];
        assert_eq!(l.items[1].text, "");
        assert_eq!(l.items[2].text, "x\r\ny");
        assert_eq!(l.items[3].text, "C:\\dir\\f.bmp");
    }

    #[test]
    fn unbalanced_input_is_reported_with_positions() {
        let r = p("(a (b)\n");
        assert_eq!(r.diagnostics[0].code, codes::UNCLOSED_LIST);
        assert_eq!(r.diagnostics[0].span.unwrap().col, 1);
        let r = p("(a))");
        assert_eq!(r.diagnostics[0].code, codes::UNMATCHED_CLOSE);
        assert_eq!(r.diagnostics[0].span.unwrap().col, 4);
        let r = p("(a \"open");
        assert!(
            r.diagnostics
                .iter()
                .any(|d| d.code == codes::UNTERMINATED_STRING)
        );
    }

    /// A macro whose `)` is missing swallows the forms after it: the finding names the
    /// line where the next top-level form starts, before which the `)` likely belongs.
    #[test]
    fn a_missing_paren_points_at_the_swallowed_form() {
        let src = "(define step\n  (n (verify empty?) add)\n\n(game\n  (title \"x\"))\n";
        let r = p(src);
        let d = &r.diagnostics[0];
        assert_eq!(d.code, codes::UNCLOSED_LIST);
        assert_eq!(d.span.map(|s| s.line), Some(1));
        assert!(
            d.notes
                .iter()
                .any(|n| n.contains("likely missing before line 4")),
            "{:?}",
            d.notes
        );
        // Closed forms side by side give no such note.
        let r = p("(a\n (b)\n");
        assert!(r.diagnostics[0].notes.iter().all(|n| !n.contains("likely")));
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let text = "(".repeat(100_000) + &")".repeat(100_000);
        let r = p(&text);
        assert_eq!(r.diagnostics.len(), 1);
        assert_eq!(r.diagnostics[0].code, codes::NESTING_TOO_DEEP);
    }
}
