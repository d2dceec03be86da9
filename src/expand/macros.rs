//! Macros: `(define NAME body…)` and their expansion.
//!
//! Every `define` is collected before anything is expanded, so calls may come before their
//! definition; a redefinition replaces the earlier one with a warning. A call is a list whose
//! head atom names a macro; it is replaced by the body forms, spliced into the enclosing list,
//! and the result is expanded again. `$k` is replaced textually in every atom and string of
//! the body (`$10` is read greedily); an atom that is exactly `$k` is replaced by the whole
//! argument, lists included. An unbound `$k` falls back to the arguments of the enclosing
//! calls, innermost first (dynamic scope, as z2j does), and is otherwise left as written,
//! with a warning (see `docs/semantics.md`).
//!
//! Expansion is bounded: at most [`Limits::max_depth`] nested calls and
//! [`Limits::max_nodes`] produced nodes. Exceeding either stops the expansion with an error
//! that names the chain of calls.

use crate::diagnostics::{Diagnostic, codes};
use crate::source::Span;
use crate::syntax::{Kind, Node};
use std::collections::{HashMap, HashSet};

/// Bounds on macro expansion.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_depth: usize,
    pub max_nodes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 64,
            max_nodes: 2_000_000,
        }
    }
}

/// A collected definition.
#[derive(Debug, Clone)]
pub struct Macro {
    pub name: String,
    pub span: Span,
    pub body: Vec<Node>,
    /// The whole `(define …)` form: from its `(` to the end of its last token.
    pub form: Span,
}

/// The span from `n`'s first character to the end of its last token (a list's own span is
/// only its `(`; the closing `)` is not recorded, so the range ends at the last item).
pub fn extent(n: &Node) -> Span {
    let mut last = n;
    while let Some(l) = last.items.last() {
        last = l;
    }
    let mut s = n.span;
    if last.span.file == s.file {
        s.len = (last.span.offset + last.span.len)
            .saturating_sub(s.offset)
            .max(s.len);
    }
    s
}

/// True when `inner` starts inside `outer`.
pub fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file
        && inner.offset >= outer.offset
        && inner.offset < outer.offset + outer.len
}

/// How one macro was called, for lint.
#[derive(Debug, Clone, Default)]
pub struct Usage {
    /// The largest `k` for which a `$k` (of this macro's body, or of a macro it calls that
    /// reads its caller's arguments) took an argument of a call of this macro.
    pub max_used: usize,
    /// The largest number of arguments a call passed, and the first call passing it.
    pub max_args: usize,
    pub max_args_call: Option<Span>,
    /// The first call written outside any macro body that led to this macro, and how
    /// many such calls there were.
    pub first_outer_call: Option<Span>,
    pub outer_calls: u32,
    last_outer_call: Option<Span>,
}

/// Removes the `define` forms from `forms` and returns them by name.
pub fn collect_defines(
    forms: &mut Vec<Node>,
    diags: &mut Vec<Diagnostic>,
) -> HashMap<String, Macro> {
    let mut macros: HashMap<String, Macro> = HashMap::new();
    forms.retain_mut(|f| {
        if f.head() != Some("define") {
            return true;
        }
        let form = extent(f);
        let mut items = std::mem::take(&mut f.items).into_iter().skip(1);
        match items.next() {
            Some(name) if name.kind == Kind::Atom => {
                let m = Macro {
                    form,
                    name: name.text.clone(),
                    span: name.span,
                    body: items.collect(),
                };
                if let Some(old) = macros.get(&m.name) {
                    diags.push(
                        Diagnostic::warning(
                            codes::MACRO_REDEFINED,
                            format!(
                                "macro `{}` is defined again; this definition replaces the one at line {}, column {}",
                                m.name, old.span.line, old.span.col
                            ),
                        )
                        .with_span(m.span),
                    );
                }
                macros.insert(m.name.clone(), m);
            }
            _ => diags.push(
                Diagnostic::error(
                    codes::MALFORMED_DEFINE,
                    "`define` needs a name (an atom) followed by the body",
                )
                .with_span(f.span),
            ),
        }
        false
    });
    macros
}

/// Expands every macro call in `forms`.
pub struct Expander<'a> {
    macros: &'a HashMap<String, Macro>,
    limits: Limits,
    produced: usize,
    /// Calls being expanded: (macro name, call span, arguments).
    chain: Vec<(String, Span, Vec<Node>)>,
    pub diagnostics: Vec<Diagnostic>,
    aborted: bool,
    warned_unbound: HashSet<(String, usize)>,
    /// Names of the macros called at least once.
    pub called: HashSet<String>,
    /// How each macro was called.
    pub usage: HashMap<String, Usage>,
    /// The calls written outside macro bodies, with their extent and macro name, in order.
    pub outer_calls: Vec<(Span, String)>,
}

impl<'a> Expander<'a> {
    pub fn new(macros: &'a HashMap<String, Macro>, limits: Limits) -> Self {
        Expander {
            macros,
            limits,
            produced: 0,
            chain: Vec::new(),
            diagnostics: Vec::new(),
            aborted: false,
            warned_unbound: HashSet::new(),
            called: HashSet::new(),
            usage: HashMap::new(),
            outer_calls: Vec::new(),
        }
    }

    /// Expands a sequence of forms. On a limit error the result is incomplete and an error
    /// diagnostic is recorded.
    pub fn expand_forms(&mut self, forms: &[Node]) -> Vec<Node> {
        let mut out = Vec::with_capacity(forms.len());
        self.expand_into(forms, &mut out);
        out
    }

    fn expand_into(&mut self, items: &[Node], out: &mut Vec<Node>) {
        for item in items {
            if self.aborted {
                return;
            }
            if item.kind != Kind::List {
                out.push(item.clone());
                continue;
            }
            let mac = item.head().and_then(|h| self.macros.get(h));
            match mac {
                Some(m) => self.expand_call(m, item, out),
                None => {
                    let mut children = Vec::with_capacity(item.items.len());
                    self.expand_into(&item.items, &mut children);
                    out.push(Node::list(children, item.span));
                }
            }
        }
    }

    fn expand_call(&mut self, m: &Macro, call: &Node, out: &mut Vec<Node>) {
        if self.chain.len() >= self.limits.max_depth {
            let msg = format!(
                "macro expansion nested deeper than {} calls: {}",
                self.limits.max_depth,
                self.describe_chain(&m.name)
            );
            self.abort(codes::EXPANSION_TOO_DEEP, msg, call.span);
            return;
        }
        if !self.called.contains(&m.name) {
            self.called.insert(m.name.clone());
        }
        let args = call.args().to_vec();
        let outer = match self.chain.first() {
            Some(c) => c.1,
            None => {
                let e = extent(call);
                self.outer_calls.push((e, m.name.clone()));
                e
            }
        };
        let u = self.usage.entry(m.name.clone()).or_default();
        // Outer calls are expanded one after the other: count each once.
        if u.last_outer_call != Some(outer) {
            u.outer_calls += 1;
            u.last_outer_call = Some(outer);
        }
        u.first_outer_call.get_or_insert(outer);
        if args.len() > u.max_args || u.max_args_call.is_none() {
            u.max_args = u.max_args.max(args.len());
            u.max_args_call = Some(call.span);
        }
        self.chain.push((m.name.clone(), outer, args));
        let body: Vec<Node> = m.body.iter().map(|n| self.substitute(n, &m.name)).collect();
        self.produced += body.iter().map(Node::size).sum::<usize>();
        if self.produced > self.limits.max_nodes {
            let msg = format!(
                "macro expansion produced more than {} nodes: {}",
                self.limits.max_nodes,
                self.describe_chain("")
            );
            self.abort(codes::EXPANSION_TOO_LARGE, msg, call.span);
        } else {
            self.expand_into(&body, out);
        }
        self.chain.pop();
    }

    fn abort(&mut self, code: crate::diagnostics::Code, msg: String, span: Span) {
        let outer = self.chain.first().map(|c| c.1).unwrap_or(span);
        let outer = Span {
            len: outer.len.min(1),
            ..outer
        };
        self.diagnostics.push(
            Diagnostic::error(code, msg)
                .with_span(outer)
                .with_note(format!(
                    "the innermost call is at line {}, column {}",
                    span.line, span.col
                )),
        );
        self.aborted = true;
    }

    fn describe_chain(&self, next: &str) -> String {
        let names: Vec<&str> = self
            .chain
            .iter()
            .map(|c| c.0.as_str())
            .chain((!next.is_empty()).then_some(next))
            .collect();
        if names.len() <= 12 {
            names.join(" -> ")
        } else {
            format!(
                "{} -> … -> {}",
                names[..6].join(" -> "),
                names[names.len() - 6..].join(" -> ")
            )
        }
    }

    /// Looks up argument `k` (1-based) in the innermost call, then outwards; records that
    /// the macro of the call that had it uses its `k`-th argument.
    fn argument(&mut self, k: usize) -> Option<&Node> {
        if k == 0 {
            return None;
        }
        let i = self.chain.iter().rposition(|c| c.2.len() >= k)?;
        let name = &self.chain[i].0;
        if let Some(u) = self.usage.get_mut(name) {
            u.max_used = u.max_used.max(k);
        }
        self.chain[i].2.get(k - 1)
    }

    fn substitute(&mut self, n: &Node, macro_name: &str) -> Node {
        match n.kind {
            Kind::List => Node::list(
                n.items
                    .iter()
                    .map(|c| self.substitute(c, macro_name))
                    .collect(),
                n.span,
            ),
            Kind::Atom | Kind::Str if n.text.contains('$') => {
                if n.kind == Kind::Atom
                    && let Some(k) = whole_parameter(&n.text)
                    && let Some(arg) = self.argument(k)
                {
                    return arg.clone();
                }
                let text = self.substitute_text(&n.text, n.span, macro_name, n.kind == Kind::Str);
                if n.kind == Kind::Str {
                    Node::leaf(Kind::Str, text, n.span)
                } else {
                    Node::symbol(text, n.span)
                }
            }
            _ => n.clone(),
        }
    }

    fn substitute_text(
        &mut self,
        text: &str,
        span: Span,
        macro_name: &str,
        in_string: bool,
    ) -> String {
        let mut out = String::with_capacity(text.len() + 16);
        let mut rest = text;
        while let Some(i) = rest.find('$') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                out.push('$');
                rest = after;
                continue;
            }
            let k: usize = after[..digits].parse().unwrap_or(usize::MAX);
            match self.argument(k).map(|a| (a.kind, a.text.clone())) {
                Some((Kind::List, _)) => {
                    self.diagnostics.push(
                        Diagnostic::error(
                            codes::BAD_SUBSTITUTION,
                            format!(
                                "argument ${k} of `{macro_name}` is a list and cannot be glued into {}",
                                if in_string { "a string" } else { "an atom" }
                            ),
                        )
                        .with_span(span),
                    );
                    out.push_str(&rest[i..i + 1 + digits]);
                }
                Some((_, t)) => {
                    if !in_string && t.contains(|c: char| c.is_whitespace() || "()\";".contains(c))
                    {
                        self.diagnostics.push(
                            Diagnostic::error(
                                codes::BAD_SUBSTITUTION,
                                format!("argument ${k} of `{macro_name}` (\"{t}\") cannot be glued into an atom"),
                            )
                            .with_span(span),
                        );
                    }
                    out.push_str(&t);
                }
                None => {
                    if self.warned_unbound.insert((macro_name.to_owned(), k)) {
                        self.diagnostics.push(
                            Diagnostic::warning(
                                codes::UNBOUND_PARAMETER,
                                format!("`${k}` has no argument in this call of `{macro_name}`; left as written"),
                            )
                            .with_span(span),
                        );
                    }
                    out.push_str(&rest[i..i + 1 + digits]);
                }
            }
            rest = &after[digits..];
        }
        out.push_str(rest);
        out
    }
}

/// The parameter numbers `$k` used anywhere in a macro body, sorted and deduplicated.
pub fn parameters_used(body: &[Node]) -> Vec<usize> {
    fn walk(n: &Node, out: &mut Vec<usize>) {
        if matches!(n.kind, Kind::Atom | Kind::Str) {
            let mut rest = n.text.as_str();
            while let Some(i) = rest.find('$') {
                let after = &rest[i + 1..];
                let digits = after.bytes().take_while(u8::is_ascii_digit).count();
                if let Ok(k) = after[..digits].parse() {
                    out.push(k);
                }
                rest = &after[digits..];
            }
        }
        for c in &n.items {
            walk(c, out);
        }
    }
    let mut out = vec![];
    for n in body {
        walk(n, &mut out);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// `Some(k)` when `text` is exactly `$k`.
fn whole_parameter(text: &str) -> Option<usize> {
    let d = text.strip_prefix('$')?;
    (!d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        .then(|| d.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;
    use crate::syntax::parse_text;
    use crate::syntax::print::print_compact;

    fn expand(src: &str) -> (String, Vec<Diagnostic>) {
        expand_with(src, Limits::default())
    }

    fn expand_with(src: &str, limits: Limits) -> (String, Vec<Diagnostic>) {
        let mut forms = parse_text(src, FileId(0)).forms;
        let mut diags = vec![];
        let macros = collect_defines(&mut forms, &mut diags);
        let mut e = Expander::new(&macros, limits);
        let out = e.expand_forms(&forms);
        diags.extend(e.diagnostics);
        (
            out.iter().map(print_compact).collect::<Vec<_>>().join(" "),
            diags,
        )
    }

    #[test]
    fn forward_calls_splicing_and_textual_substitution() {
        let (out, d) = expand("(x (m a 10)) (define m mark (go $1) \"p/$1.bmp\" $1-moved? $2)");
        assert!(d.is_empty());
        assert_eq!(out, "(x mark (go a) \"p/a.bmp\" a-moved? 10)");
    }

    #[test]
    fn greedy_dollar_ten_and_list_arguments() {
        let (out, _) = expand("(define m $10 $1) (m (a b) 2 3 4 5 6 7 8 9 ten)");
        assert_eq!(out, "ten (a b)");
    }

    #[test]
    fn nested_calls_and_dynamic_fallback() {
        let (out, d) = expand("(define in ($1 $2)) (define out (in $1)) (out x y)");
        assert_eq!(out, "(x y)");
        assert!(d.is_empty());
    }

    #[test]
    fn unbound_parameter_warns_and_stays() {
        let (out, d) = expand("(define m $3) (z (m a))");
        assert_eq!(out, "(z $3)");
        assert_eq!(d[0].code, codes::UNBOUND_PARAMETER);
    }

    #[test]
    fn redefinition_warns_and_last_wins() {
        let (out, d) = expand("(define m 1) (define m 2) (z (m))");
        assert_eq!(out, "(z 2)");
        assert_eq!(d[0].code, codes::MACRO_REDEFINED);
    }

    #[test]
    fn recursion_is_bounded_and_names_the_chain() {
        let (_, d) = expand("(define a (b)) (define b (a)) (a)");
        assert_eq!(d[0].code, codes::EXPANSION_TOO_DEEP);
        assert!(d[0].message.contains("a -> b -> a"), "{}", d[0].message);
    }

    #[test]
    fn exponential_growth_is_bounded() {
        let mut src = String::from("(define m0 x)");
        for i in 1..40 {
            src += &format!("(define m{i} (m{p}) (m{p}))", p = i - 1);
        }
        src += "(m39)";
        let (_, d) = expand_with(
            &src,
            Limits {
                max_depth: 64,
                max_nodes: 100_000,
            },
        );
        assert_eq!(d[0].code, codes::EXPANSION_TOO_LARGE);
    }
}
