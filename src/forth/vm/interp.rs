//! The inner interpreter: [`Vm::execute`], the loop that runs threaded code with the
//! commonest primitives in it, and the other primitives.

use super::trace::replayable_primitive;
use super::{
    A_BASE, A_CONTEXT, A_CURRENT, A_DP, A_ENTRY, A_STATE, CELL, FLAG_HIDDEN, FLAG_IMMEDIATE,
    HALT_XT, Host, NATIVE_BASE, PAD, UNDEFINED_XT, Vm, p,
};
use crate::forth::error::{FResult, ForthError, ForthErrorKind as K};

/// `a b -- a∘b` on the data stack of `$vm`, the value `$e` of `a` and `b`.
macro_rules! bin {
    ($vm:ident, |$a:ident, $b:ident| $e:expr) => {{
        let $b = $vm.pop()?;
        let $a = $vm.pop()?;
        $vm.push($e)?;
    }};
}

/// `a b -- flag` on the data stack of `$vm`, the flag of `$e`.
macro_rules! cmp {
    ($vm:ident, |$a:ident, $b:ident| $e:expr) => {{
        let $b = $vm.pop()?;
        let $a = $vm.pop()?;
        $vm.push_flag($e)?;
    }};
}

impl Vm {
    // ----- execution -----

    /// Says whether the caller catches `$Exit` (`ExitMove`) itself, as a move generator
    /// does around a move word; returns the previous setting, for the caller to restore.
    pub(crate) fn set_exit_caught(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.exit_caught, on)
    }

    /// Runs the word whose execution token (CFA) is `xt` until it returns. Re-entrant: host
    /// words may call it. On error the return stack is restored; the data stack is left as
    /// it was at the failure.
    pub fn execute(&mut self, xt: u32, host: &mut dyn Host) -> FResult<()> {
        let rs_len = self.rs.len();
        let floor = self.rs_floor;
        self.rs_floor = rs_len;
        let mut ip = A_ENTRY + 4;
        let mut steps = self.steps;
        let r = if self.tracing {
            self.run::<true>(xt, &mut ip, &mut steps, host)
        } else {
            self.run::<false>(xt, &mut ip, &mut steps, host)
        };
        self.steps = steps;
        let r = r.map_err(|e| match e.kind {
            // Not an error but a move word's way out, caught by the move generator at once:
            // naming the word and the place would be work thrown away (a fifth of a race
            // game's time). Anywhere else it is an error like the others.
            K::ExitMove if self.exit_caught => e,
            _ => {
                let e = self.annotate(e, ip);
                self.add_call_site(e, rs_len)
            }
        });
        self.rs.truncate(rs_len);
        self.rs_floor = floor;
        r
    }

    /// When `e` happened in the runtime files or has no place, names the innermost call
    /// found among the return addresses above `rs_len` that lies in the program's own files.
    fn add_call_site(&self, mut e: ForthError, rs_len: usize) -> ForthError {
        let in_runtime = e
            .place
            .as_ref()
            .is_none_or(|p| crate::forth::lint::is_runtime_file(&p.file));
        if e.called_from.is_some() || !in_runtime {
            return e;
        }
        let frames = self.rs.get(rs_len..).unwrap_or(&[]);
        for &ret in frames.iter().rev() {
            let at = (ret as u32).wrapping_sub(CELL);
            let Some(place) = self.origins.get(&at).and_then(|o| self.place_of(*o)) else {
                continue;
            };
            if !crate::forth::lint::is_runtime_file(&place.file) {
                e.called_from = Some((place, self.word_containing(at)));
                break;
            }
        }
        e
    }

    /// The inner interpreter. The step count lives in `steps` (a local of
    /// [`Vm::execute`], kept in a register) and is written to `self.steps` only around
    /// calls that may read it or run nested code: host words and the other primitives.
    #[inline(always)]
    fn run<const T: bool>(
        &mut self,
        xt: u32,
        ip: &mut u32,
        steps: &mut u64,
        host: &mut dyn Host,
    ) -> FResult<()> {
        let mut w = xt;
        let mut limit = self.step_limit;
        loop {
            *steps += 1;
            if *steps > limit {
                return Err(K::StepBudget(limit).into());
            }
            let code = match self.code_rd::<T>(w) {
                Ok(c) => c,
                Err(_) => return Err(K::BadXt(w as i32).into()),
            };
            match code {
                // Guards first, so that every primitive number below is one jump table.
                c if c < 0 => {
                    // A word made by a DOES> defining word.
                    let body = !c as u32;
                    if self.is_fetch_exit::<T>(body) {
                        // A constant (`DOES> @`): its value in one dispatch instead of
                        // three, counted as the three steps it stands for.
                        *steps += 2;
                        if *steps > limit {
                            return Err(K::StepBudget(limit).into());
                        }
                        let v = self.code_rd::<T>(w + CELL)?;
                        self.push(v)?;
                    } else {
                        self.push((w + CELL) as i32)?;
                        self.rpush(*ip as i32)?;
                        *ip = body;
                    }
                }
                c if c >= NATIVE_BASE => {
                    self.steps = *steps;
                    let id = (c - NATIVE_BASE) as u32;
                    if T {
                        self.trace_native(id, host);
                    }
                    let r = host.native(self, id);
                    if T {
                        self.trace.in_native = false;
                    }
                    // (A host word may also have set a new budget.)
                    (*steps, limit) = (self.steps, self.step_limit);
                    r?;
                }
                p::DOCOL => {
                    if let Some(v) = self.var_fetch_exit::<T>(w + CELL) {
                        // `: name VAR @ ;` (Axiom's `here`, `from`, `current-player`…):
                        // the variable's value in one dispatch, counted as the four steps
                        // it stands for.
                        *steps += 3;
                        if *steps > limit {
                            return Err(K::StepBudget(limit).into());
                        }
                        self.push(v)?;
                    } else {
                        self.rpush(*ip as i32)?;
                        *ip = w + CELL;
                    }
                }
                p::EXIT => *ip = self.rpop()? as u32,
                p::LIT => {
                    let v = self.code_rd::<T>(*ip)?;
                    *ip += CELL;
                    self.push(v)?;
                }
                p::BRANCH => *ip = self.code_rd::<T>(*ip)? as u32,
                p::ZBRANCH => {
                    if self.pop()? == 0 {
                        *ip = self.code_rd::<T>(*ip)? as u32;
                    } else {
                        *ip += CELL;
                    }
                }
                p::HALT => return Ok(()),
                p::DOVAR => {
                    // `VAR @`, the commonest pair in Axiom's code, in one dispatch, counted
                    // as the two steps it stands for.
                    let fetch = self.prim_xts[p::FETCH as usize];
                    if self.code_rd::<T>(*ip).ok() == Some(fetch as i32) {
                        *steps += 1;
                        if *steps > limit {
                            return Err(K::StepBudget(limit).into());
                        }
                        *ip += CELL;
                        let v = self.rd::<T>(w + CELL)?;
                        self.push(v)?;
                    } else {
                        self.push((w + CELL) as i32)?;
                    }
                }
                p::EXECUTE => {
                    w = self.pop()? as u32;
                    // The pseudo tokens of the VM's own threads are no words.
                    if w == UNDEFINED_XT || w == HALT_XT {
                        return Err(K::BadXt(w as i32).into());
                    }
                    continue;
                }
                p::DO => {
                    let start = self.pop()?;
                    let limit = self.pop()?;
                    self.rpush(limit)?;
                    self.rpush(start)?;
                }
                p::LOOP => {
                    let i = self.rpeek(0)?.wrapping_add(1);
                    let limit = self.rpeek(1)?;
                    if i < limit {
                        let n = self.rs.len();
                        self.rs[n - 1] = i;
                        *ip = self.code_rd::<T>(*ip)? as u32;
                    } else {
                        self.rpop()?;
                        self.rpop()?;
                        *ip += CELL;
                    }
                }
                p::PLUSLOOP => {
                    let step = self.pop()?;
                    let i = self.rpeek(0)?.wrapping_add(step);
                    let limit = self.rpeek(1)?;
                    let go_on = if step >= 0 { i < limit } else { i >= limit };
                    if go_on {
                        let n = self.rs.len();
                        self.rs[n - 1] = i;
                        *ip = self.code_rd::<T>(*ip)? as u32;
                    } else {
                        self.rpop()?;
                        self.rpop()?;
                        *ip += CELL;
                    }
                }
                p::LEAVE => {
                    // The loop's two cells must be this run's (above the floor): `LEAVE`
                    // outside a loop fails rather than write a caller's frame or index
                    // below the stack.
                    self.rpeek(1)?;
                    let i = self.rpeek(0)?;
                    let n = self.rs.len();
                    self.rs[n - 2] = i;
                }
                p::DOES => {
                    // Runtime of DOES>: the latest word runs the code after DOES>.
                    let nfa = self.latest();
                    self.set_cell(nfa.wrapping_add(12), !(*ip as i32))?;
                    *ip = self.rpop()? as u32;
                }
                p::COMPILE => {
                    let v = self.code_rd::<T>(*ip)?;
                    *ip += CELL;
                    self.comma(v)?;
                }
                // The words that may run nested code or charge bulk work (the step count
                // in memory, around the call).
                p::LOAD
                | p::CMOVE
                | p::FILL
                | p::TYPE
                | p::SCOUNT
                | p::SMOVE
                | p::HEADER
                | p::ERROR
                | p::UNDEFINED => {
                    self.steps = *steps;
                    let r = self.primitive(code, host);
                    *steps = self.steps;
                    r?;
                }
                // The commonest primitives of Axiom's code, here rather than in
                // `primitive` (without its call).
                p::FETCH => {
                    let a = self.pop()? as u32;
                    let v = self.rd::<T>(a)?;
                    self.push(v)?;
                }
                p::STORE => {
                    let a = self.pop()? as u32;
                    let v = self.pop()?;
                    self.set_cell(a, v)?;
                }
                p::EQ => cmp!(self, |a, b| a == b),
                p::NOT | p::ZEQ => {
                    let a = self.pop()?;
                    self.push_flag(a == 0)?;
                }
                p::ADD => bin!(self, |a, b| a.wrapping_add(b)),
                p::AND => bin!(self, |a, b| a & b),
                p::OR => bin!(self, |a, b| a | b),
                p::DROP | p::FDROP => {
                    self.pop()?;
                }
                // (A float is one cell: the float stack words are the cell words.)
                p::DUP | p::FDUP => {
                    let a = *self
                        .ds
                        .last()
                        .ok_or_else(|| ForthError::new(K::StackUnderflow))?;
                    self.push(a)?;
                }
                p::SWAP | p::FSWAP => {
                    let n = self.ds.len();
                    if n < 2 {
                        return Err(K::StackUnderflow.into());
                    }
                    self.ds.swap(n - 1, n - 2);
                }
                p::OVER | p::FOVER => self.pick(1)?,
                p::TOR => {
                    let v = self.pop()?;
                    self.rpush(v)?;
                }
                p::RFROM => {
                    let v = self.rpop()?;
                    self.push(v)?;
                }
                p::RFETCH | p::R | p::I => {
                    let v = self.rpeek(0)?;
                    self.push(v)?;
                }
                p::SUB => bin!(self, |a, b| a.wrapping_sub(b)),
                p::MUL => bin!(self, |a, b| a.wrapping_mul(b)),
                p::INC => bin1(self, |a| a.wrapping_add(1))?,
                p::DEC => bin1(self, |a| a.wrapping_sub(1))?,
                p::LT => cmp!(self, |a, b| a < b),
                p::GT => cmp!(self, |a, b| a > b),
                p::ZNE => {
                    let a = self.pop()?;
                    self.push_flag(a != 0)?;
                }
                p::ZLT => {
                    let a = self.pop()?;
                    self.push_flag(a < 0)?;
                }
                p::ZGT => {
                    let a = self.pop()?;
                    self.push_flag(a > 0)?;
                }
                p::TRUE => self.push(-1)?,
                p::FALSE => self.push(0)?,
                _ => self.primitive(code, host)?,
            }
            let next = self.code_rd::<T>(*ip)?;
            *ip += CELL;
            w = next as u32;
        }
    }

    /// When the code at `body` is `VAR @ EXIT` (a colon definition that reads a variable),
    /// the variable's value.
    #[inline(always)]
    fn var_fetch_exit<const T: bool>(&mut self, body: u32) -> Option<i32> {
        let var = self.code_rd::<T>(body).ok()? as u32;
        if self.code_rd::<T>(var).ok()? != p::DOVAR
            || self.code_rd::<T>(body + CELL).ok()? != self.prim_xts[p::FETCH as usize] as i32
            || self.code_rd::<T>(body + 2 * CELL).ok()? != self.prim_xts[p::EXIT as usize] as i32
        {
            return None;
        }
        self.rd::<T>(var + CELL).ok()
    }

    /// Whether the code at `body` is `@ EXIT` (the body of a constant made by DOES>).
    #[inline(always)]
    fn is_fetch_exit<const T: bool>(&mut self, body: u32) -> bool {
        let (fetch, exit) = (
            self.prim_xts[p::FETCH as usize],
            self.prim_xts[p::EXIT as usize],
        );
        self.code_rd::<T>(body).ok() == Some(fetch as i32)
            && self.code_rd::<T>(body + CELL).ok() == Some(exit as i32)
    }

    /// The primitives that do not touch the instruction pointer, other than the commonest
    /// ones, which the inner interpreter runs itself.
    fn primitive(&mut self, code: i32, host: &mut dyn Host) -> FResult<()> {
        if self.tracing && !replayable_primitive(code) {
            self.note_effect("a primitive that compiles, reads text or writes output");
        }
        macro_rules! fbin {
            (|$a:ident, $b:ident| $e:expr) => {{
                let $b = f32::from_bits(self.pop()? as u32);
                let $a = f32::from_bits(self.pop()? as u32);
                self.push(($e as f32).to_bits() as i32)?;
            }};
        }
        macro_rules! fcmp {
            (|$a:ident, $b:ident| $e:expr) => {{
                let $b = f32::from_bits(self.pop()? as u32);
                let $a = f32::from_bits(self.pop()? as u32);
                self.push_flag($e)?;
            }};
        }
        match code {
            p::ROT => {
                let c = self.pop()?;
                let b = self.pop()?;
                let a = self.pop()?;
                self.push(b)?;
                self.push(c)?;
                self.push(a)?;
            }
            p::MROT => {
                let c = self.pop()?;
                let b = self.pop()?;
                let a = self.pop()?;
                self.push(c)?;
                self.push(a)?;
                self.push(b)?;
            }
            p::NIP => {
                let b = self.pop()?;
                self.pop()?;
                self.push(b)?;
            }
            p::TUCK => {
                let b = self.pop()?;
                let a = self.pop()?;
                self.push(b)?;
                self.push(a)?;
                self.push(b)?;
            }
            p::QDUP => {
                let a = *self
                    .ds
                    .last()
                    .ok_or_else(|| ForthError::new(K::StackUnderflow))?;
                if a != 0 {
                    self.push(a)?;
                }
            }
            p::TWODUP | p::F2DUP => {
                self.pick(1)?;
                self.pick(1)?;
            }
            p::TWODROP => {
                self.pop()?;
                self.pop()?;
            }
            p::TWOSWAP => {
                let d = self.pop()?;
                let c = self.pop()?;
                let b = self.pop()?;
                let a = self.pop()?;
                for v in [c, d, a, b] {
                    self.push(v)?;
                }
            }
            p::TWOOVER => {
                self.pick(3)?;
                self.pick(3)?;
            }
            p::PICK => {
                let n = self.pop()?;
                if n < 0 {
                    return Err(K::StackUnderflow.into());
                }
                self.pick(n as usize)?;
            }
            p::ROLL => {
                let n = self.pop()?;
                let len = self.ds.len();
                if n < 0 || n as usize >= len {
                    return Err(K::StackUnderflow.into());
                }
                let v = self.ds.remove(len - 1 - n as usize);
                self.push(v)?;
            }
            p::DEPTH => self.push(self.ds.len() as i32)?,
            p::J => {
                let v = self.rpeek(2)?;
                self.push(v)?;
            }
            p::DIV => {
                let b = self.pop()?;
                let a = self.pop()?;
                if b == 0 {
                    return Err(K::DivisionByZero.into());
                }
                self.push(a.wrapping_div(b))?;
            }
            p::MOD => {
                let b = self.pop()?;
                let a = self.pop()?;
                if b == 0 {
                    return Err(K::DivisionByZero.into());
                }
                self.push(a.wrapping_rem(b))?;
            }
            p::DIVMOD => {
                let b = self.pop()?;
                let a = self.pop()?;
                if b == 0 {
                    return Err(K::DivisionByZero.into());
                }
                self.push(a.wrapping_rem(b))?;
                self.push(a.wrapping_div(b))?;
            }
            p::MULDIV => {
                let c = self.pop()?;
                let b = self.pop()?;
                let a = self.pop()?;
                if c == 0 {
                    return Err(K::DivisionByZero.into());
                }
                self.push(((a as i64 * b as i64) / c as i64) as i32)?;
            }
            p::INC2 => bin1(self, |a| a.wrapping_add(2))?,
            p::DEC2 => bin1(self, |a| a.wrapping_sub(2))?,
            p::MUL2 => bin1(self, |a| a.wrapping_shl(1))?,
            p::DIV2 => bin1(self, |a| a >> 1)?,
            p::NEGATE => bin1(self, |a| a.wrapping_neg())?,
            p::ABS => bin1(self, |a| a.wrapping_abs())?,
            p::MIN => bin!(self, |a, b| a.min(b)),
            p::MAX => bin!(self, |a, b| a.max(b)),
            p::XOR => bin!(self, |a, b| a ^ b),
            p::INVERT => bin1(self, |a| !a)?,
            p::LSHIFT => bin!(self, |a, b| if (0..32).contains(&b) {
                ((a as u32) << b) as i32
            } else {
                0
            }),
            p::RSHIFT => bin!(self, |a, b| if (0..32).contains(&b) {
                ((a as u32) >> b) as i32
            } else {
                0
            }),
            p::NE => cmp!(self, |a, b| a != b),
            p::LE => cmp!(self, |a, b| a <= b),
            p::GE => cmp!(self, |a, b| a >= b),
            p::ULT => cmp!(self, |a, b| (a as u32) < (b as u32)),
            p::CFETCH => {
                let a = self.pop()? as u32;
                let v = self.read_byte(a)?;
                self.push(v as i32)?;
            }
            p::CSTORE => {
                let a = self.pop()? as u32;
                let v = self.pop()?;
                self.set_byte(a, v as u8)?;
            }
            p::PLUSSTORE => {
                let a = self.pop()? as u32;
                let v = self.pop()?;
                let old = self.read_cell(a)?;
                self.set_cell(a, old.wrapping_add(v))?;
            }
            p::INCR | p::DECR => {
                let a = self.pop()? as u32;
                let old = self.read_cell(a)?;
                let d = if code == p::INCR { 1 } else { -1 };
                self.set_cell(a, old.wrapping_add(d))?;
            }
            p::CMOVE => {
                let n = self.pop()?;
                let dst = self.pop()? as u32;
                let src = self.pop()? as u32;
                if n > 0 {
                    let n = n as u32;
                    self.bytes(src, n)?;
                    self.bytes(dst, n)?;
                    self.charge_bytes(n as u64)?;
                    self.note_write(dst, n, None);
                    self.mem.cmove(src as usize, dst as usize, n as usize);
                }
            }
            p::FILL => {
                let c = self.pop()?;
                let n = self.pop()?;
                let a = self.pop()? as u32;
                if n > 0 {
                    self.bytes(a, n as u32)?;
                    self.charge_bytes(n as u64)?;
                    self.note_write(a, n as u32, None);
                    let a = a as usize;
                    if let Some(b) = self.mem.range_mut(a..a + n as usize) {
                        b.fill(c as u8);
                    }
                }
            }
            p::COMMA => {
                let v = self.pop()?;
                self.comma(v)?;
            }
            p::CCOMMA => {
                let v = self.pop()?;
                let h = self.allot(1)?;
                self.set_byte(h, v as u8)?;
            }
            p::HERE => self.push(self.here() as i32)?,
            p::PADW => self.push(PAD as i32)?,
            p::STATE => self.push(A_STATE as i32)?,
            p::BASE => self.push(A_BASE as i32)?,
            p::DP => self.push(A_DP as i32)?,
            p::CURRENT => self.push(A_CURRENT as i32)?,
            p::CONTEXT => self.push(A_CONTEXT as i32)?,
            p::COLON => {
                let name = self.parse_name()?;
                self.create_header(&name, p::DOCOL)?;
                self.set_flags_of_latest(FLAG_HIDDEN);
                self.set_state(true);
            }
            p::SEMI => {
                let xt = self.primitive_xt(p::EXIT)?;
                self.comma(xt as i32)?;
                self.clear_flags_of_latest(FLAG_HIDDEN);
                self.set_state(false);
            }
            p::IMMEDIATE => self.set_flags_of_latest(FLAG_IMMEDIATE),
            p::LBRACKET => self.set_state(false),
            p::RBRACKET => self.set_state(true),
            p::BUILDS | p::CREATE => {
                let name = self.parse_name()?;
                self.create_header(&name, p::DOVAR)?;
            }
            p::HEADER => {
                let a = self.pop()? as u32;
                let name = self.charged_cstr(a)?.to_vec();
                self.create_header(&name, p::DOVAR)?;
            }
            p::DOESC => {
                let xt = self.primitive_xt(p::DOES)?;
                self.comma(xt as i32)?;
            }
            p::WORD => {
                let delim = self.pop()? as u8;
                self.parse_into_pad(delim)?;
            }
            p::MFIND => {
                self.parse_into_pad(b' ')?;
                let name = self.cstr(PAD)?.to_vec();
                self.sync_dict_index();
                // Spelled exactly: a program asks `-FIND` whether it has defined a name
                // yet (Axiom's `{move-type}` defines a move type it does not find), and
                // Splut's `continue-type` is not its `CONTINUE-TYPE`.
                let nfa = self.lookup(&name, false)?.unwrap_or(0);
                self.push(nfa as i32)?;
            }
            p::CFATOPFA => bin1(self, |a| a.wrapping_add(CELL as i32))?,
            p::NUMBERSTR => {
                let n = self.pop()?;
                let s = self.format_number(n, false);
                self.write_cstr(PAD, s.as_bytes())?;
            }
            p::LOAD => {
                self.parse_into_pad(b' ')?;
                let name = self.cstring(PAD);
                self.load_named(&name, host)?;
            }
            p::UNDEFINED => {
                let a = self.pop()? as u32;
                if self.lint.is_some() {
                    // Recorded; the caller gets the placeholder's execution token.
                    self.lint_undefined_tick(a)?;
                    return Ok(());
                }
                self.charged_cstr(a)?;
                return Err(K::UndefinedWord(self.cstring(a)).into());
            }
            p::UNDEF => {
                return Err(K::UndefinedWord(crate::forth::lint::PLACEHOLDER.into()).into());
            }
            p::ERROR => {
                let a = self.pop()? as u32;
                self.charged_cstr(a)?;
                return Err(K::Abort(self.cstring(a)).into());
            }
            p::ABORT => return Err(K::Abort("ABORT".into()).into()),
            p::EMIT => {
                let c = self.pop()?;
                self.emit(&[c as u8]);
            }
            p::TYPE => {
                let a = self.pop()? as u32;
                let s = self.charged_cstr(a)?.to_vec();
                self.emit(&s);
            }
            p::DOT | p::UDOT => {
                let n = self.pop()?;
                let s = self.format_number(n, code == p::UDOT);
                self.emit(s.as_bytes());
                self.emit(b" ");
            }
            p::SCOUNT => {
                let a = self.pop()? as u32;
                let n = self.charged_cstr(a)?.len();
                self.push(n as i32)?;
            }
            p::SMOVE => {
                let dst = self.pop()? as u32;
                let src = self.pop()? as u32;
                // (The scan charged pays for the copy as well: both are `BYTES_PER_STEP`
                // bytes a step.)
                let s = self.charged_cstr(src)?.to_vec();
                self.write_cstr(dst, &s)?;
            }
            p::FADD => fbin!(|a, b| a + b),
            p::FSUB => fbin!(|a, b| a - b),
            p::FMUL => fbin!(|a, b| a * b),
            p::FDIV => fbin!(|a, b| a / b),
            p::FLT => fcmp!(|a, b| a < b),
            p::FGT => fcmp!(|a, b| a > b),
            p::FEQ => fcmp!(|a, b| a == b),
            p::FZLT => {
                let a = f32::from_bits(self.pop()? as u32);
                self.push_flag(a < 0.0)?;
            }
            p::FZEQ => {
                let a = f32::from_bits(self.pop()? as u32);
                self.push_flag(a == 0.0)?;
            }
            p::STOF => {
                let a = self.pop()?;
                self.push((a as f32).to_bits() as i32)?;
            }
            p::FTOS => {
                let a = f32::from_bits(self.pop()? as u32);
                // `as` saturates and maps NaN to 0: never a panic.
                self.push(a as i32)?;
            }
            p::FDOT => {
                let a = f32::from_bits(self.pop()? as u32);
                let s = format!("{a} ");
                self.emit(s.as_bytes());
            }
            other => return Err(K::BadXt(other).into()),
        }
        Ok(())
    }

    #[inline(always)]
    fn pick(&mut self, n: usize) -> FResult<()> {
        let len = self.ds.len();
        if n >= len {
            return Err(K::StackUnderflow.into());
        }
        let v = self.ds[len - 1 - n];
        self.push(v)
    }

    /// The execution token of a primitive.
    pub(crate) fn primitive_xt(&self, id: i32) -> FResult<u32> {
        match self.prim_xts.get(id as usize) {
            Some(&xt) if xt != 0 => Ok(xt),
            _ => Err(K::BadXt(id).into()),
        }
    }
}

/// Applies `f` to the top of the data stack.
#[inline(always)]
fn bin1(vm: &mut Vm, f: impl Fn(i32) -> i32) -> FResult<()> {
    match vm.ds.last_mut() {
        Some(v) => {
            *v = f(*v);
            Ok(())
        }
        None => Err(K::StackUnderflow.into()),
    }
}
