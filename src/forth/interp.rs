//! The text interpreter: reads Forth source word by word, executes or compiles each word,
//! converts numbers, and loads files (`LOAD name` relative to the loading file's folder).
//!
//! Tokens are separated by any byte up to the space (tabs and line ends included). Every
//! compiled cell remembers the token it came from, so errors at run time name the file,
//! line and column of the failing call.

use super::error::{FResult, ForthError, ForthErrorKind as K};
use super::vm::{Host, Input, PAD, PAD_SIZE, Vm, p};
use crate::span::FileId;
use std::path::{Path, PathBuf};
use std::sync::Arc;

impl Vm {
    /// Adds `text` as a source file named `name` and interprets it.
    pub fn interpret_str(&mut self, name: &str, text: &str, host: &mut dyn Host) -> FResult<()> {
        let id = Arc::make_mut(&mut self.sources).add_text(
            PathBuf::from(name),
            name.to_owned(),
            text.to_owned(),
        );
        self.interpret_file(id, host)
    }

    /// Reads and interprets the file at `path` (shown to users as `display`).
    pub fn load_path(&mut self, path: &Path, display: &str, host: &mut dyn Host) -> FResult<()> {
        let mut warnings = Vec::new();
        let id = Arc::make_mut(&mut self.sources)
            .load_regular(path, display.to_owned(), &mut warnings)
            .map_err(|d| ForthError::new(K::Load(d.message)))?;
        self.interpret_file(id, host)
    }

    /// Interprets a file already in the source map.
    pub fn interpret_file(&mut self, file: FileId, host: &mut dyn Host) -> FResult<()> {
        if self.inputs.len() >= self.limits.load_depth {
            return Err(K::Load(format!(
                "LOAD nested more than {} deep",
                self.limits.load_depth
            ))
            .into());
        }
        self.inputs.push(Input { file, pos: 0 });
        if self.lint.is_some() {
            self.lint_file_start(file);
        }
        let mut r = self.interpret_loop(host);
        if self.lint.is_some() && r.is_ok() {
            r = self.lint_file_end(file);
        }
        self.inputs.pop();
        if r.is_err() {
            self.set_state(false);
        }
        r
    }

    fn interpret_loop(&mut self, host: &mut dyn Host) -> FResult<()> {
        loop {
            let Some((start, len)) = self.parse_into_pad(b' ')? else {
                return Ok(());
            };
            let file = match self.inputs.last() {
                Some(i) => i.file,
                None => return Ok(()),
            };
            let token = (file, start, len);
            self.last_token = Some(token);
            if let Err(mut e) = self.interpret_token(token, host) {
                if e.place.is_none() {
                    e.place = self.place_of(token);
                }
                if self.lint.is_some() && self.lint_error(e.clone(), token) {
                    continue;
                }
                return Err(e);
            }
        }
    }

    pub(crate) fn interpret_token(
        &mut self,
        token: (FileId, u32, u32),
        host: &mut dyn Host,
    ) -> FResult<()> {
        let name = self.cstr(PAD)?.to_vec();
        if self.lint.is_some() {
            return self.lint_token(&name, token, host);
        }
        self.interpret_name(&name, token, host)
    }

    /// Executes or compiles the word or number `name` read at `token`.
    pub(crate) fn interpret_name(
        &mut self,
        name: &[u8],
        token: (FileId, u32, u32),
        host: &mut dyn Host,
    ) -> FResult<()> {
        self.sync_dict_index();
        if let Some(nfa) = self.lookup(name, true)? {
            let xt = nfa + 12;
            if self.compiling() && !self.is_immediate(nfa) {
                let at = self.here();
                self.comma(xt as i32)?;
                self.origins.insert(at, token);
                Ok(())
            } else {
                self.execute(xt, host)
            }
        } else if let Some(v) = parse_number(name, self.base()) {
            if self.compiling() {
                let at = self.here();
                let lit = self.primitive_xt(p::LIT)?;
                self.comma(lit as i32)?;
                self.comma(v)?;
                self.origins.insert(at, token);
                Ok(())
            } else {
                self.push(v)
            }
        } else {
            Err(K::UndefinedWord(String::from_utf8_lossy(name).into_owned()).into())
        }
    }

    /// Parses the next word of the input, delimited by `delim` (a space means any blank, and
    /// leading blanks are skipped), into `PAD` as a NUL-terminated string. Returns the
    /// word's byte offset and length in its file, or `None` at the end of the input (PAD
    /// then holds the empty string).
    pub(crate) fn parse_into_pad(&mut self, delim: u8) -> FResult<Option<(u32, u32)>> {
        let sources = Arc::clone(&self.sources);
        let Some(input) = self.inputs.last_mut() else {
            self.write_cstr(PAD, b"")?;
            return Ok(None);
        };
        let text = sources.get(input.file).text.as_bytes();
        let mut i = input.pos.min(text.len());
        let (start, end);
        if delim == b' ' {
            while i < text.len() && text[i] <= b' ' {
                i += 1;
            }
            start = i;
            while i < text.len() && text[i] > b' ' {
                i += 1;
            }
            end = i;
        } else {
            start = i;
            while i < text.len() && text[i] != delim {
                i += 1;
            }
            end = if delim == b'\n' && i > start && text[i - 1] == b'\r' {
                i - 1
            } else {
                i
            };
        }
        // Consume the delimiter that ended the word.
        if i < text.len() {
            i += 1;
        }
        input.pos = i;
        let file = input.file;
        if delim == b' ' && start < end {
            if let Some(l) = self.lint.as_mut() {
                l.last_parsed = Some((file, start as u32, (end - start) as u32));
            }
        }
        let word = &text[start..end];
        let word = &word[..word.len().min(PAD_SIZE as usize - 1)];
        self.write_cstr(PAD, word)?;
        if delim == b' ' && start == end {
            return Ok(None);
        }
        Ok(Some((start as u32, (end - start) as u32)))
    }

    /// Parses the name a defining word needs.
    pub(crate) fn parse_name(&mut self) -> FResult<Vec<u8>> {
        match self.parse_into_pad(b' ')? {
            Some(_) => Ok(self.cstr(PAD)?.to_vec()),
            None => Err(K::Compile("a defining word needs a name; the input ended".into()).into()),
        }
    }

    /// `LOAD name`: the file is looked for in the folder of the file being loaded, then in
    /// the VM's root folder, then in its include folders, its name in any case when the
    /// exact one is missing. It must be a `.4th` file inside those folders
    /// ([`crate::confine`]): an absolute name, a `..` that climbs out or a link that leads
    /// out is refused before anything is read (`DZ1016`).
    pub(crate) fn load_named(&mut self, name: &str, host: &mut dyn Host) -> FResult<()> {
        if name.is_empty() {
            return Err(K::Load("LOAD needs a file name".into()).into());
        }
        let path = self.locate_load(name)?;
        let display = path
            .strip_prefix(&self.root)
            .unwrap_or(&path)
            .display()
            .to_string();
        self.load_path(&path, &display, host)
    }

    /// Where `LOAD name` reads from (see [`Vm::load_named`]).
    fn locate_load(&self, name: &str) -> FResult<PathBuf> {
        use crate::confine::{Refusal, confined, is_absolute, is_inside};
        let written = name.replace('\\', "/");
        let refused = |why: &str| -> ForthError {
            K::LoadRefused(format!(
                "`LOAD {}` is refused: {why}",
                crate::text::printable(name)
            ))
            .into()
        };
        if is_absolute(&written) {
            return Err(refused(Refusal::Absolute.reason()));
        }
        if !written.to_ascii_lowercase().ends_with(".4th") {
            return Err(refused("LOAD reads only `.4th` files"));
        }
        let roots: Vec<&Path> = std::iter::once(self.root.as_path())
            .chain(self.include_dirs.iter().map(PathBuf::as_path))
            .collect();
        // The loading file's folder, when it is a folder of the project (text given to
        // the VM by name has none), then the roots.
        let here = self
            .inputs
            .last()
            .and_then(|i| {
                self.sources
                    .get(i.file)
                    .path
                    .parent()
                    .map(Path::to_path_buf)
            })
            .filter(|d| roots.iter().any(|r| d.starts_with(r)));
        let mut bases: Vec<&Path> = here.iter().map(PathBuf::as_path).collect();
        for r in &roots {
            if !bases.contains(r) {
                bases.push(r);
            }
        }
        let mut refusal = None;
        let mut tried = Vec::new();
        for base in bases {
            // A `..` may climb as far as the widest root that holds `base`.
            let home = roots
                .iter()
                .copied()
                .filter(|r| base.starts_with(r))
                .min_by_key(|r| r.components().count())
                .unwrap_or(base);
            let candidate = match confined(base, &written, home, &roots) {
                Ok(p) => p,
                Err(r) => {
                    refusal.get_or_insert(r);
                    continue;
                }
            };
            // As on Windows, where Axiom ran, a name matches in any case; the file matched
            // that way may be a link of its own.
            if let Some(found) = crate::fsutil::file_ignoring_case(&candidate) {
                if is_inside(&found, &roots) {
                    return Ok(found);
                }
                refusal.get_or_insert(Refusal::LinkOut);
                continue;
            }
            tried.push(candidate);
        }
        if let Some(r) = refusal {
            return Err(refused(r.reason()));
        }
        Err(K::Load(format!(
            "LOAD cannot find `{}` (looked for {})",
            crate::text::printable(name),
            tried
                .iter()
                .map(|p| format!("`{}`", p.display()))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into())
    }
}

/// Converts a token to a number in `base`: an optional `-` and digits; in base 10 a token
/// with a `.` is a single-precision float (`0.`, `1.5`), stored as its bits. Values wrap
/// to 32 bits (`FFFFFFFF` in hex is -1).
pub fn parse_number(token: &[u8], base: u32) -> Option<i32> {
    let (neg, digits) = match token {
        [b'-', rest @ ..] if !rest.is_empty() => (true, rest),
        _ => (false, token),
    };
    if digits.is_empty() {
        return None;
    }
    if base == 10 && digits.contains(&b'.') {
        let t = std::str::from_utf8(token).ok()?;
        if !t.bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        let f: f32 = t.parse().ok()?;
        return Some(f.to_bits() as i32);
    }
    let mut v: u64 = 0;
    for &c in digits {
        let d = (c as char).to_digit(base)? as u64;
        v = v * base as u64 + d;
        if v > u32::MAX as u64 {
            return None;
        }
    }
    let v = v as u32 as i32;
    Some(if neg { v.wrapping_neg() } else { v })
}
