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
//! [`Limits::max_bytes`] bytes of produced nodes (each node counts its struct size plus its
//! text, so strings glued through `$k` count too; see [`node_bytes`]). Exceeding either stops
//! the expansion with an error that names the chain of calls. The check runs before a glued
//! string is built, so a file that doubles a string at each level stops before allocating it.

use crate::diagnostics::{Diagnostic, codes};
use crate::source::Span;
use crate::syntax::{Kind, Node};
use std::collections::{HashMap, HashSet};

/// Bounds on loading a rules file: macro expansion, the copies variant merging makes, and
/// the folders besides the main file's that includes may read.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Folders (`--include-dir`) where includes may also be found and read, after the
    /// including file's own folder; see [`crate::expand::include`].
    pub include_dirs: Vec<std::path::PathBuf>,
    /// Nested macro calls.
    pub max_depth: usize,
    /// Bytes of nodes produced by macro expansion, counted by [`node_bytes`].
    pub max_bytes: usize,
    /// Bytes of the merged games (base games and variants), each counted at its full size
    /// by [`node_bytes`]. Variants share their base game's subtrees in memory, but each game
    /// is compiled (and linted) on its own, so this bounds that work.
    pub max_merged_bytes: usize,
}

/// The default byte budget: 1 GiB. The largest expansion in the shared corpus counts
/// 5.5 MB; the largest published file we know (Zillions-era Dakon, whose sowing is unrolled
/// into 98 piece types) counts 479 MB (see `docs/semantics.md`, "Limits").
pub const DEFAULT_MAX_BYTES: usize = 1 << 30;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            include_dirs: Vec::new(),
            max_depth: 64,
            max_bytes: DEFAULT_MAX_BYTES,
            max_merged_bytes: 2 * DEFAULT_MAX_BYTES,
        }
    }
}

/// What one node costs against the budget: the node struct plus its text bytes.
pub const fn leaf_bytes(text_len: usize) -> usize {
    std::mem::size_of::<Node>() + text_len
}

/// Bytes of a whole tree as the budget counts them: [`leaf_bytes`] for every node.
pub fn node_bytes(n: &Node) -> usize {
    leaf_bytes(n.text.len()) + n.items.iter().map(node_bytes).sum::<usize>()
}

/// `n` bytes in a message: `2 GiB`, `256 MiB`, `12.5 MiB`, `900 KiB`.
pub fn human_bytes(n: usize) -> String {
    if n >= 1 << 30 && n % (1 << 30) == 0 {
        format!("{} GiB", n >> 30)
    } else if n >= 1 << 20 {
        let m = n as f64 / (1u64 << 20) as f64;
        if m.fract() == 0.0 {
            format!("{m:.0} MiB")
        } else {
            format!("{m:.1} MiB")
        }
    } else {
        format!("{} KiB", n.div_ceil(1024))
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
    /// The largest number of arguments a call passed, and where the arguments of the first
    /// call passing it are.
    pub max_args: usize,
    pub max_args_call: Option<Vec<Span>>,
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
        let mut items = f.take_items().into_iter().skip(1);
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
    /// For each first byte of a macro name, the name lengths (bit `len`, lengths of 63 and
    /// more share bit 63): most list heads are not macros and are ruled out without hashing.
    first_len: Box<[u64; 256]>,
    limits: Limits,
    /// Bytes produced so far ([`node_bytes`]).
    produced: usize,
    /// Nodes produced so far.
    produced_nodes: usize,
    /// Set when a substitution would pass the byte budget.
    over_budget: bool,
    /// Calls being expanded: (macro name, call span, arguments).
    chain: Vec<(String, Span, Vec<Node>)>,
    pub diagnostics: Vec<Diagnostic>,
    aborted: bool,
    warned_unbound: HashSet<(String, usize)>,
    /// Names of the macros called at least once.
    pub called: HashSet<String>,
    /// `(macro, k)`: a `$k` written in a macro called (directly or not) by `macro` found no
    /// k-th argument in its own call and took `macro`'s (dynamic scope). `macro` then uses
    /// its parameter k even when its own body never writes `$k`.
    pub dynamic_uses: HashSet<(String, usize)>,
    /// How each macro was called.
    pub usage: HashMap<String, Usage>,
    /// The calls written outside macro bodies, with their extent and macro name, in order.
    pub outer_calls: Vec<(Span, String)>,
}

impl<'a> Expander<'a> {
    pub fn new(macros: &'a HashMap<String, Macro>, limits: Limits) -> Self {
        let mut first_len = Box::new([0u64; 256]);
        for name in macros.keys() {
            if let Some(&b) = name.as_bytes().first() {
                first_len[b as usize] |= 1 << name.len().min(63);
            }
        }
        Expander {
            macros,
            first_len,
            limits,
            produced: 0,
            produced_nodes: 0,
            over_budget: false,
            chain: Vec::new(),
            diagnostics: Vec::new(),
            aborted: false,
            warned_unbound: HashSet::new(),
            called: HashSet::new(),
            dynamic_uses: HashSet::new(),
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

    /// The macro named `name`, if any.
    fn lookup(&self, name: &str) -> Option<&'a Macro> {
        let b = *name.as_bytes().first()?;
        if self.first_len[b as usize] & (1 << name.len().min(63)) == 0 {
            return None;
        }
        self.macros.get(name)
    }

    /// Bytes and nodes produced by macro calls so far (what the budget counts).
    pub fn produced(&self) -> (usize, usize) {
        (self.produced, self.produced_nodes)
    }

    /// Expands borrowed forms (the file's own text).
    fn expand_into(&mut self, items: &[Node], out: &mut Vec<Node>) {
        for item in items {
            if self.aborted {
                return;
            }
            if item.kind != Kind::List {
                out.push(item.clone());
                continue;
            }
            let mac = item.head().and_then(|h| self.lookup(h));
            match mac {
                Some(m) => {
                    if self.chain.is_empty() {
                        self.outer_calls.push((extent(item), m.name.clone()));
                    }
                    self.expand_call(m, item.span, item.args().to_vec(), out)
                }
                None => {
                    let mut children = Vec::with_capacity(item.items.len());
                    self.expand_into(&item.items, &mut children);
                    out.push(Node::list(children, item.span));
                }
            }
        }
    }

    /// Expands forms produced by a macro body, moving them instead of copying.
    fn expand_owned(&mut self, items: Vec<Node>, out: &mut Vec<Node>) {
        for mut item in items {
            if self.aborted {
                return;
            }
            if item.kind != Kind::List {
                out.push(item);
                continue;
            }
            let mac = item.head().and_then(|h| self.lookup(h));
            match mac {
                Some(m) => {
                    let args = if item.items.is_empty() {
                        vec![]
                    } else {
                        item.items_mut().split_off(1)
                    };
                    self.expand_call(m, item.span, args, out)
                }
                None => {
                    self.expand_list(&mut item);
                    out.push(item);
                }
            }
        }
    }

    /// Expands the calls inside `list`, which is not a call itself. When none of its
    /// children is a call, the children with calls inside are expanded where they are,
    /// without rebuilding the list, and subtrees without calls are not touched.
    fn expand_list(&mut self, list: &mut Node) {
        let has_call = list
            .items
            .iter()
            .any(|c| c.head().and_then(|h| self.lookup(h)).is_some());
        if has_call {
            let mut children = Vec::with_capacity(list.items.len());
            self.expand_owned(list.take_items(), &mut children);
            list.items = children.into();
        } else {
            // Children with a call somewhere inside; the others are left as they are (shared
            // with a macro body or an argument, they are not copied).
            let inner: Vec<usize> = (0..list.items.len())
                .filter(|&i| self.contains_call(&list.items[i]))
                .collect();
            if inner.is_empty() {
                return;
            }
            let items = list.items_mut();
            for i in inner {
                if self.aborted {
                    return;
                }
                self.expand_list(&mut items[i]);
            }
        }
    }

    fn expand_call(&mut self, m: &Macro, call: Span, args: Vec<Node>, out: &mut Vec<Node>) {
        if self.chain.len() >= self.limits.max_depth {
            let msg = format!(
                "macro expansion nested deeper than {} calls: {}",
                self.limits.max_depth,
                self.describe_chain(&m.name)
            );
            self.abort(codes::EXPANSION_TOO_DEEP, msg, call);
            return;
        }
        if !self.called.contains(&m.name) {
            self.called.insert(m.name.clone());
        }
        // The outermost call that led here (pushed by `expand_into`, which expands the
        // file's own text: every chain starts there).
        let outer = self.outer_calls.last().map_or(call, |o| o.0);
        let u = self.usage.entry(m.name.clone()).or_default();
        // Outer calls are expanded one after the other: count each once.
        if u.last_outer_call != Some(outer) {
            u.outer_calls += 1;
            u.last_outer_call = Some(outer);
        }
        u.first_outer_call.get_or_insert(outer);
        if args.len() > u.max_args || u.max_args_call.is_none() {
            u.max_args = u.max_args.max(args.len());
            u.max_args_call = Some(args.iter().map(|a| a.span).collect());
        }
        self.chain.push((m.name.clone(), call, args));
        let body: Vec<Node> = m
            .body
            .iter()
            .map(|n| self.substitute(n, &m.name).unwrap_or_else(|| n.clone()))
            .collect();
        if self.over_budget || self.produced > self.limits.max_bytes {
            let msg = format!(
                "macro expansion produced more than {} of nodes and text: {}",
                human_bytes(self.limits.max_bytes),
                self.describe_chain("")
            );
            self.abort(codes::EXPANSION_TOO_LARGE, msg, call);
        } else {
            self.expand_owned(body, out);
        }
        self.chain.pop();
    }

    /// Counts `bytes` (of `nodes` nodes) against the budget.
    fn charge(&mut self, bytes: usize, nodes: usize) {
        self.produced = self.produced.saturating_add(bytes);
        self.produced_nodes += nodes;
        if self.produced > self.limits.max_bytes {
            self.over_budget = true;
        }
    }

    fn abort(&mut self, code: crate::diagnostics::Code, msg: String, span: Span) {
        let outer = self.chain.first().map(|c| c.1).unwrap_or(span);
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

    /// Looks up argument `k` (1-based) in the innermost call, then outwards (recording a
    /// use found outwards in [`Expander::dynamic_uses`]).
    fn argument(&mut self, k: usize) -> Option<&Node> {
        let i = self.argument_frame(k)?;
        self.chain[i].2.get(k - 1)
    }

    /// The index in `chain` of the call whose k-th argument `$k` takes (see
    /// [`Expander::argument`]).
    fn argument_frame(&mut self, k: usize) -> Option<usize> {
        if k == 0 {
            return None;
        }
        let i = self.chain.iter().rposition(|c| c.2.len() >= k)?;
        if i + 1 != self.chain.len() && !self.dynamic_uses.contains(&(self.chain[i].0.clone(), k)) {
            self.dynamic_uses.insert((self.chain[i].0.clone(), k));
        }
        if let Some(u) = self.usage.get_mut(&self.chain[i].0) {
            u.max_used = u.max_used.max(k);
        }
        Some(i)
    }

    /// Substitutes the call's arguments for `$k` in `n`, counting every node of `n` against
    /// the budget. `None` when nothing in `n` changed: the caller shares `n` (a cheap clone)
    /// instead of copying it.
    fn substitute(&mut self, n: &Node, macro_name: &str) -> Option<Node> {
        if self.over_budget {
            // Stop copying; the caller reports the error.
            return Some(Node::list(vec![], n.span));
        }
        match n.kind {
            Kind::List => {
                self.charge(leaf_bytes(n.text.len()), 1);
                let mut changed: Option<Vec<Node>> = None;
                for (i, c) in n.items.iter().enumerate() {
                    match self.substitute(c, macro_name) {
                        Some(new) => changed
                            .get_or_insert_with(|| {
                                let mut v = Vec::with_capacity(n.items.len());
                                v.extend(n.items[..i].iter().cloned());
                                v
                            })
                            .push(new),
                        None => {
                            if let Some(v) = &mut changed {
                                v.push(c.clone());
                            }
                        }
                    }
                }
                changed.map(|v| Node::list(v, n.span))
            }
            Kind::Atom | Kind::Str if n.text.contains('$') => {
                let frame = if n.kind == Kind::Atom {
                    whole_parameter(&n.text).and_then(|k| Some((k, self.argument_frame(k)?)))
                } else {
                    None
                };
                if let Some((k, i)) = frame {
                    let arg = &self.chain[i].2[k - 1];
                    let (bytes, nodes) = (node_bytes(arg), arg.size());
                    if self.produced.saturating_add(bytes) > self.limits.max_bytes {
                        self.over_budget = true;
                        return Some(Node::list(vec![], n.span));
                    }
                    let copy = self.chain[i].2[k - 1].clone();
                    self.charge(bytes, nodes);
                    return Some(copy);
                }
                let text = self.substitute_text(&n.text, n.span, macro_name, n.kind == Kind::Str);
                self.charge(leaf_bytes(text.len()), 1);
                Some(if n.kind == Kind::Str {
                    Node::leaf(Kind::Str, text, n.span)
                } else {
                    Node::symbol(text, n.span)
                })
            }
            _ => {
                self.charge(leaf_bytes(n.text.len()), 1);
                None
            }
        }
    }

    /// True when a macro call is anywhere inside `n` (not counting `n` itself).
    fn contains_call(&self, n: &Node) -> bool {
        n.items.iter().any(|c| {
            !c.items.is_empty()
                && (c.head().is_some_and(|h| self.lookup(h).is_some()) || self.contains_call(c))
        })
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
            let arg_len = self.argument(k).map_or(0, |a| a.text.len());
            if self.produced.saturating_add(out.len() + arg_len) > self.limits.max_bytes {
                // Gluing would pass the budget: stop before allocating.
                self.over_budget = true;
                return String::new();
            }
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
        for c in n.items.iter() {
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
        let mut e = Expander::new(&macros, limits.clone());
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
                max_bytes: 1 << 20,
                ..Limits::default()
            },
        );
        assert_eq!(d[0].code, codes::EXPANSION_TOO_LARGE);
        assert!(d[0].message.contains("1 MiB"), "{}", d[0].message);
    }

    #[test]
    fn node_size_is_the_documented_one() {
        // docs/semantics.md ("Limits") and the DZ0207 explanation state it.
        #[cfg(target_pointer_width = "64")]
        assert_eq!(std::mem::size_of::<Node>(), 56);
    }

    #[test]
    fn string_gluing_is_bounded_before_allocation() {
        // Each level doubles the string: level 30 would be 1 GiB of text.
        let mut src = String::from("(define s0 $1)");
        for i in 1..=30 {
            src += &format!("(define s{i} (s{p} \"$1$1\"))", p = i - 1);
        }
        src += "(game (s30 \"ab\"))";
        let limits = Limits {
            max_depth: 64,
            max_bytes: 4 << 20,
            ..Limits::default()
        };
        let mut forms = parse_text(&src, FileId(0)).forms;
        let mut diags = vec![];
        let macros = collect_defines(&mut forms, &mut diags);
        let mut e = Expander::new(&macros, limits.clone());
        e.expand_forms(&forms);
        assert_eq!(e.diagnostics[0].code, codes::EXPANSION_TOO_LARGE);
        // Stopped within the budget, not after building the next (doubled) string.
        assert!(e.produced().0 <= limits.max_bytes, "{:?}", e.produced());
    }

    #[test]
    fn large_expansions_within_the_budget_pass() {
        // 22 x 100 x 1,000 atoms: 2.2 M produced nodes, about 125 MB by the budget's count.
        let atoms = vec!["x"; 1000].join(" ");
        let src = format!(
            "(define m0 {atoms}) (define m1 {}) (define m2 {}) (game (m2))",
            vec!["(m0)"; 100].join(" "),
            vec!["(m1)"; 22].join(" ")
        );
        let mut forms = parse_text(&src, FileId(0)).forms;
        let mut diags = vec![];
        let macros = collect_defines(&mut forms, &mut diags);
        let mut e = Expander::new(&macros, Limits::default());
        let out = e.expand_forms(&forms);
        assert!(e.diagnostics.is_empty(), "{:?}", e.diagnostics);
        assert_eq!(out[0].items.len(), 1 + 2_200_000);
        assert!(e.produced().1 > 2_200_000, "{:?}", e.produced());
    }
}
