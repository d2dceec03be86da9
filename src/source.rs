//! Source files: reading bytes, decoding them to text, and mapping offsets to lines.
//!
//! Every file the toolchain reads (the main rules file and everything it includes) is held
//! in a [`SourceMap`] and named by a [`FileId`], so that spans stay small (`Copy`) and
//! diagnostics can print the offending line with a caret.
//!
//! Decoding never fails: valid UTF-8 is taken as it is (a leading byte-order mark is
//! dropped); anything else is decoded as Windows-1252, the encoding of ZoG-era files, with a
//! warning. Characters that XML 1.0 cannot carry are replaced by U+FFFD with a warning, so
//! that every tree can be written as XML.

use crate::diagnostics::{Diagnostic, codes};
use std::path::{Path, PathBuf};

pub use crate::span::{FileId, Span};

/// One decoded source file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path used to open the file.
    pub path: PathBuf,
    /// Path shown to users (as given, or relative to the main file's folder).
    pub display: String,
    /// Decoded text.
    pub text: String,
    /// Byte offset of the start of every line.
    line_starts: Vec<u32>,
    /// No snippet of this file is ever shown (an included file that is not ZRF: its text
    /// could be anything, secrets included). See [`SourceMap::hide_text`].
    pub hidden: bool,
}

impl SourceFile {
    /// Text of the 1-based line `line`, without its line ending.
    /// At most [`SNIPPET_CHARS`] characters of line `line` around column `col` (1-based), for
    /// a diagnostic: the excerpt (with `…` where the line was cut) and the column of `col`
    /// within it. A 50 MB one-line file gives a short snippet, not the whole line.
    pub fn snippet(&self, line: u32, col: u32) -> (String, u32) {
        if self.hidden {
            return (String::new(), 1);
        }
        let text = self.line_text(line);
        let col = col.max(1) as usize - 1;
        // Fast path: most lines are short.
        if text.len() <= SNIPPET_CHARS {
            return (text.to_owned(), col as u32 + 1);
        }
        let half = SNIPPET_CHARS / 2;
        let first = col.saturating_sub(half);
        let mut out = String::new();
        let mut new_col = col - first;
        if first > 0 {
            out.push('…');
            new_col += 1;
        }
        let mut chars = text.chars().skip(first);
        out.extend(chars.by_ref().take(SNIPPET_CHARS));
        if chars.next().is_some() {
            out.push('…');
        }
        (out, new_col as u32 + 1)
    }

    pub fn line_text(&self, line: u32) -> &str {
        let i = (line as usize).saturating_sub(1);
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self
            .line_starts
            .get(i + 1)
            .map(|&e| e as usize)
            .unwrap_or(self.text.len());
        self.text[start as usize..end].trim_end_matches(['\r', '\n'])
    }
}

/// Largest rules file read, in bytes (published files are below 1 MB). A longer input,
/// or an endless one such as `/dev/zero`, is refused without reading more than this.
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Reads at most [`MAX_SOURCE_BYTES`] bytes of `path`; more is an error.
pub fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let f = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    f.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {} MiB", MAX_SOURCE_BYTES >> 20),
        ));
    }
    Ok(bytes)
}

/// Longest source excerpt a diagnostic prints (see [`SourceFile::snippet`]).
pub const SNIPPET_CHARS: usize = 200;

/// All files read for one job.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> Self {
        Self::default()
    }

    /// Marks a file whose text must never be shown in a diagnostic.
    pub fn hide_text(&mut self, id: FileId) {
        self.files[id.0 as usize].hidden = true;
    }

    /// Adds already-decoded text (used for bundled games and tests).
    pub fn add_text(&mut self, path: PathBuf, display: String, text: String) -> FileId {
        let line_starts = line_starts(&text);
        self.files.push(SourceFile {
            path,
            display,
            text,
            line_starts,
            hidden: false,
        });
        FileId(self.files.len() as u32 - 1)
    }

    /// Reads and decodes a file. I/O errors are returned as a `DZ0001` diagnostic; decoding
    /// problems are pushed to `warnings`.
    pub fn load(
        &mut self,
        path: &Path,
        display: String,
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<FileId, Diagnostic> {
        let bytes = read_capped(path).map_err(|e| {
            Diagnostic::error(
                codes::IO_ERROR,
                format!("cannot read `{}`: {}", path.display(), e),
            )
        })?;
        Ok(self.add_bytes(path.to_path_buf(), display, &bytes, warnings))
    }

    /// Like [`SourceMap::load`] for a file named by another file (an `include`): it must be
    /// a regular file (not a device, a FIFO or a folder), so that reading it ends.
    pub fn load_regular(
        &mut self,
        path: &Path,
        display: String,
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<FileId, Diagnostic> {
        let meta = std::fs::metadata(path).map_err(|e| {
            Diagnostic::error(
                codes::IO_ERROR,
                format!("cannot read `{}`: {}", path.display(), e),
            )
        })?;
        if !meta.is_file() {
            return Err(Diagnostic::error(
                codes::IO_ERROR,
                format!("`{}` is not a regular file", path.display()),
            ));
        }
        self.load(path, display, warnings)
    }

    /// Decodes bytes (see the module docs) and adds them.
    pub fn add_bytes(
        &mut self,
        path: PathBuf,
        display: String,
        bytes: &[u8],
        warnings: &mut Vec<Diagnostic>,
    ) -> FileId {
        let (text, decoded) = decode(bytes);
        let (text, replaced) = replace_invalid_xml_chars(text);
        let id = self.add_text(path, display.clone(), text);
        let raw = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let doubt = if decoded { cp1252_doubt(raw) } else { None };
        if let Some((at, why)) = doubt {
            // Every byte decodes to one character, so the offset in the text of byte `at`
            // is the length of the decoded prefix.
            let offset = decode(&raw[..at]).0.len();
            warnings.push(
                Diagnostic::warning(
                    codes::NOT_UTF8,
                    format!("`{display}` is not valid UTF-8, and {why}"),
                )
                .with_span(self.span_at(id, offset, 1)),
            );
        }
        if let Some((offset, count)) = replaced {
            let span = self.span_at(id, offset, 1);
            warnings.push(
                Diagnostic::warning(
                    codes::INVALID_CHARACTER,
                    format!("{count} control or non-character code point(s) replaced by U+FFFD"),
                )
                .with_span(span),
            );
        }
        id
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// Renames a file as shown to users.
    pub fn set_display(&mut self, id: FileId, display: String) {
        self.files[id.0 as usize].display = display;
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Span of `len` bytes at byte `offset` of file `id` (line and column computed).
    pub fn span_at(&self, id: FileId, offset: usize, len: usize) -> Span {
        let f = self.get(id);
        let line_idx = match f.line_starts.binary_search(&(offset as u32)) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = f.line_starts[line_idx] as usize;
        let offset = offset.min(f.text.len());
        let col = f
            .text
            .get(start..offset)
            .map_or(1, |s| s.chars().count() + 1);
        Span {
            file: id,
            line: line_idx as u32 + 1,
            col: col as u32,
            offset: offset as u32,
            len: len as u32,
        }
    }
}

fn line_starts(text: &str) -> Vec<u32> {
    let mut v = vec![0u32];
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => v.push(i as u32 + 1),
            b'\r' if b.get(i + 1) != Some(&b'\n') => v.push(i as u32 + 1),
            _ => {}
        }
        i += 1;
    }
    v
}

/// Windows-1252 code points for bytes 0x80..=0x9F. The five bytes that Windows-1252 leaves
/// undefined map to the C1 control with the same value, as the WHATWG encoding standard
/// does. Written out here because the table is tiny and a general-purpose encoding crate
/// would be a large dependency for 32 entries.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// Why a file that is not UTF-8 may not be Windows-1252 either, at which byte: a byte that
/// Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D); a UTF-8 sequence among the
/// Windows-1252 bytes (a file edited in both encodings: the UTF-8 letters read as `Ã©`);
/// a run of four or more letters from 0xC0–0xFF (a Cyrillic or Greek code page: Western
/// text has isolated accented letters). `None`: the bytes are plain Windows-1252 text,
/// which ZoG itself writes, and they are read right.
pub fn cp1252_doubt(raw: &[u8]) -> Option<(usize, &'static str)> {
    if let Some(i) = raw
        .iter()
        .position(|b| matches!(b, 0x81 | 0x8D | 0x8F | 0x90 | 0x9D))
    {
        return Some((i, "this byte is not Windows-1252 either"));
    }
    let mut run = 0;
    for (i, w) in raw.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        // A two-, three- or four-byte UTF-8 sequence: lead byte, then continuation bytes.
        let need = match a {
            0xC2..=0xDF => 1,
            0xE0..=0xEF => 2,
            0xF0..=0xF4 => 3,
            _ => 0,
        };
        if need > 0
            && (0x80..=0xBF).contains(&b)
            && raw[i + 1..]
                .iter()
                .take(need)
                .filter(|c| (0x80..=0xBF).contains(*c))
                .count()
                == need
        {
            return Some((
                i,
                "it mixes UTF-8 and Windows-1252: these characters are read as Windows-1252",
            ));
        }
        run = if a >= 0xC0 { run + 1 } else { 0 };
        if run >= 4 {
            return Some((
                i + 1 - run,
                "its letters look like another code page (Cyrillic or Greek?), read as Windows-1252",
            ));
        }
    }
    None
}

/// Decodes bytes as UTF-8 (dropping a BOM) or else as Windows-1252. The flag tells whether
/// the fallback was used.
pub fn decode(bytes: &[u8]) -> (String, bool) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_owned(), false),
        Err(_) => {
            let s = bytes
                .iter()
                .map(|&b| match b {
                    0x80..=0x9F => CP1252_HIGH[(b - 0x80) as usize],
                    _ => b as char,
                })
                .collect();
            (s, true)
        }
    }
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Replaces characters XML 1.0 cannot carry by U+FFFD; returns the byte offset of the first
/// replaced character (in the new text) and how many were replaced.
fn replace_invalid_xml_chars(text: String) -> (String, Option<(usize, usize)>) {
    if text.chars().all(is_xml_char) {
        return (text, None);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut first = None;
    let mut count = 0;
    for c in text.chars() {
        if is_xml_char(c) {
            out.push(c);
        } else {
            first.get_or_insert(out.len());
            count += 1;
            out.push('\u{FFFD}');
        }
    }
    (out, first.map(|f| (f, count)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_1252_doubts() {
        assert_eq!(cp1252_doubt(b"caf\xe9 \x93x\x94 na\xefve"), None);
        assert_eq!(cp1252_doubt(b"ab\x81c").map(|d| d.0), Some(2));
        // `é` in UTF-8 next to a Windows-1252 `é`.
        assert_eq!(cp1252_doubt(b"\xe9t\xc3\xa9").map(|d| d.0), Some(2));
        // A Cyrillic (Windows-1251) word.
        assert_eq!(
            cp1252_doubt(b"; \xe4\xee\xf1\xea\xe0").map(|d| d.0),
            Some(2)
        );
        assert_eq!(cp1252_doubt(b"\xc0\xe9\xe8"), None);
    }

    #[test]
    fn windows_1252_fallback() {
        let (s, fell_back) = decode(b"caf\xe9 \x93x\x94");
        assert!(fell_back);
        assert_eq!(s, "caf\u{e9} \u{201c}x\u{201d}");
        let (s, fell_back) = decode("\u{feff}é".as_bytes());
        assert!(!fell_back);
        assert_eq!(s, "é");
    }

    #[test]
    fn control_characters_are_replaced() {
        let mut m = SourceMap::new();
        let mut w = vec![];
        let id = m.add_bytes("x".into(), "x".into(), b"ab\x01c\n\x00", &mut w);
        assert_eq!(m.get(id).text, "ab\u{FFFD}c\n\u{FFFD}");
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].span.unwrap().col, 3);
    }

    #[test]
    fn lines_and_columns() {
        let mut m = SourceMap::new();
        let id = m.add_text("x".into(), "x".into(), "ab\r\nçd\re".into());
        let s = m.span_at(id, 6, 1); // 'd'
        assert_eq!((s.line, s.col), (2, 2));
        assert_eq!(m.get(id).line_text(2), "çd");
        assert_eq!(m.get(id).snippet(2, 2), ("çd".to_owned(), 2));
        assert_eq!(m.span_at(id, 8, 1).line, 3);
    }

    #[test]
    fn snippets_of_long_lines_are_cut_around_the_column() {
        let mut m = SourceMap::new();
        let long = format!("{}X{}", "a".repeat(5000), "b".repeat(5000));
        let id = m.add_bytes("x".into(), "x".into(), long.as_bytes(), &mut vec![]);
        let (snip, col) = m.get(id).snippet(1, 5001);
        assert!(snip.chars().count() <= SNIPPET_CHARS + 2, "{}", snip.len());
        assert_eq!(snip.chars().nth(col as usize - 1), Some('X'));
        assert!(snip.starts_with('…') && snip.ends_with('…'));
        let (snip, col) = m.get(id).snippet(1, 1);
        assert_eq!((snip.chars().next(), col), (Some('a'), 1));
    }
}
