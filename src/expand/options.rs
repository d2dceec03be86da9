//! Option sections of a game: `(option "name" value)` and the ZoG 1.x keyword forms that
//! say the same thing as a section of their own, such as `(maximal-captures true)` or
//! `(pass-turn forced)`.
//!
//! A keyword form is the option's name with its blanks written as `-`; it means exactly what
//! the `option` form means (docs/semantics.md, "Keyword forms of options"). Variant merging,
//! the model compiler and lint all read options through [`option_section`], so the two
//! spellings override each other in variants and never disagree.

use crate::syntax::Node;

/// The option names Zillions of Games knows (the v2 names; `../shared/docs/zrf-semantics.md`
/// §5). Each also has a keyword form (blanks written as `-`).
pub const ZOG_OPTIONS: &[&str] = &[
    "allow flipping",
    "animate captures",
    "animate drops",
    "discard cascades",
    "highlight goals",
    "include off-pieces",
    "maximal captures",
    "pass partial",
    "pass turn",
    "prevent flipping",
    "progressive levels",
    "recycle captures",
    "recycle promotions",
    "show moves list",
    "smart moves",
];

/// The option name that a keyword section head stands for (`maximal-captures` →
/// `maximal captures`), when it is the keyword form of a ZoG option.
pub fn keyword_option(head: &str) -> Option<&'static str> {
    if !head.contains('-') {
        return None;
    }
    ZOG_OPTIONS.iter().copied().find(|o| {
        o.len() == head.len()
            && o.bytes()
                .zip(head.bytes())
                .all(|(a, b)| a == b || (a == b' ' && b == b'-'))
    })
}

/// An option section read the same way whatever its spelling.
#[derive(Clone, Copy, Debug)]
pub struct OptionSection<'a> {
    /// The option's name as written in `(option "name" …)`, or the v2 name of a keyword form.
    pub name: &'a str,
    /// The value node (`true`, `false`, `forced`, `2`, …), when there is one.
    pub value: Option<&'a Node>,
    /// True for a ZoG 1.x keyword form.
    pub keyword: bool,
}

/// Reads `section` as an option, in either spelling; `None` for other sections (and for an
/// `(option)` without a name).
pub fn option_section(section: &Node) -> Option<OptionSection<'_>> {
    let head = section.head()?;
    let args = section.args();
    if head == "option" {
        return Some(OptionSection {
            name: args.first().and_then(Node::word)?,
            value: args.get(1),
            keyword: false,
        });
    }
    Some(OptionSection {
        name: keyword_option(head)?,
        value: args.first(),
        keyword: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;
    use crate::syntax::parse_text;

    #[test]
    fn both_spellings_read_alike() {
        let forms = parse_text(
            r#"(option "maximal captures" 2) (maximal-captures 2) (pass-turn forced) (maximal captures) (option "x-y" true) (turn-order A)"#,
            FileId(0),
        )
        .forms;
        let read: Vec<Option<(&str, Option<&str>, bool)>> = forms
            .iter()
            .map(|f| option_section(f).map(|o| (o.name, o.value.and_then(Node::word), o.keyword)))
            .collect();
        assert_eq!(
            read,
            vec![
                Some(("maximal captures", Some("2"), false)),
                Some(("maximal captures", Some("2"), true)),
                Some(("pass turn", Some("forced"), true)),
                None,
                Some(("x-y", Some("true"), false)),
                None,
            ]
        );
        assert_eq!(
            keyword_option("include-off-pieces"),
            Some("include off-pieces")
        );
        assert_eq!(keyword_option("include-off-pieces-x"), None);
    }
}
