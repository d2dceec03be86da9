//! Places in source files: a [`FileId`] names a file of a [`crate::source::SourceMap`], a
//! [`Span`] a token in it. The lowest module: diagnostics and sources both use it.

/// Index of a file in a [`crate::source::SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A place in a source file: 1-based line and column (in characters), byte offset and
/// byte length of the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
    pub offset: u32,
    pub len: u32,
}
