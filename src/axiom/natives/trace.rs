//! Trace analysis for the move-word cache (`crate::axiom::memo`): which traced effects of
//! a move word can be replayed, or the move they list copied or made from a template, and
//! the replays themselves.

use super::{Runtime, n};
use crate::axiom::memo;
use crate::axiom::program::{REC_CAPTURES, REC_NOTATION};
use crate::forth::error::{FResult, ForthErrorKind as K};
use crate::forth::vm::{CELL, Vm};

/// Memory above `HERE` under which a move word that is not dominated is not replayed by
/// [`Runtime::replay_unlisted`]: opening its record and compiling its actions could fail
/// for want of room, as the long way would.
const UNLISTED_ROOM: u32 = 1 << 16;

/// The largest template of a listed move kept ([`Runtime::template_of`]), in bytes.
const MAX_TEMPLATE: u32 = 512;

/// What a replayable host word leaves of a move that is never listed (a better priority
/// dominates it, or its word does not add it: the record, notation and captures of such a
/// move are never read): see [`Runtime::replay_unlisted`].
#[derive(Clone, Copy)]
enum Lasting {
    /// Nothing: `add-move`, the notation words, type and owner changes.
    Nothing,
    /// The last position (`$lastPos`): the word's last argument (`at`, the `-at` words), else
    /// the current position.
    LastPos { at: bool },
    /// `move`: the destination becomes the last position (the origin's cell is read, as
    /// the long way reads it).
    Move,
    /// `repetition-reset`: the repetition history is cleared.
    RepetitionReset,
    /// An immediate board edit: the position (argument 0) emptied.
    Remove,
    /// An immediate board edit: a piece (argument 0) put on a position (argument 1).
    Add,
}

impl Lasting {
    /// What host word `id` leaves; None: the word has no shortcut.
    fn of(id: u32) -> Option<Lasting> {
        Some(match id {
            n::ADD_MOVE
            | n::STRING
            | n::NUMBER
            | n::CHANGE_TYPE
            | n::CHANGE_TYPE_AT
            | n::CHANGE_OWNER
            | n::CHANGE_OWNER_AT => Lasting::Nothing,
            n::CAPTURE_AT
            | n::CREATE_AT
            | n::CREATE_PLAYER_AT
            | n::CREATE_TYPE_AT
            | n::DROP_PIECE_AT
            | n::CREATE_PLAYER_TYPE_AT => Lasting::LastPos { at: true },
            n::CAPTURE
            | n::DROP
            | n::CREATE
            | n::CREATE_PLAYER
            | n::CREATE_TYPE
            | n::DROP_PIECE
            | n::CREATE_PLAYER_TYPE => Lasting::LastPos { at: false },
            n::MOVE => Lasting::Move,
            n::REP_RESET => Lasting::RepetitionReset,
            n::REMOVE_Z | n::REMOVE_U | n::REMOVE_PIECE => Lasting::Remove,
            n::ADD_Z | n::ADD_U | n::ADD_PIECE => Lasting::Add,
            _ => return None,
        })
    }
}

impl Runtime {
    /// Replays `events`, the effects of a move word whose move is opened (as
    /// [`MemoStats::replayed`](memo::MemoStats) counts them), then drops what is
    /// left of its move (`end_move`). When the last event is `add-move`, the move it opens
    /// for the word's next actions is not opened at all: the word has none, and opening it
    /// and dropping it leaves nothing but `HERE` aligned, which the listing leaves it.
    pub(crate) fn replay_move(
        &mut self,
        vm: &mut Vm,
        events: &[crate::forth::trace::Event],
    ) -> FResult<()> {
        match Self::before_add_move(events) {
            Some(rest) => {
                memo::apply_effects(rest, vm, self)?;
                self.list_pending(vm)?;
            }
            None => memo::apply_effects(events, vm, self)?,
        }
        self.end_move(vm)
    }

    /// Replays, in place of opening a move of `move_type`, calling the replayable host
    /// words of `events` and dropping the move, the effects of a move word whose move
    /// is never listed: it would be dominated, or `events` never call `add-move`. Returns
    /// false (and does nothing) when the move could be listed, or an event has no
    /// shortcut: the caller then goes the long way.
    ///
    /// A dominated move stays dominated to its word's end (the best priority listed only
    /// changes when a move is recorded), and nothing reads its record, notation or
    /// captures: `add-move` drops it and opens the next, equally dominated. A move word
    /// that does not call `add-move` leaves its move to be dropped at its end, unread too.
    /// What outlives such a move is what the host words do besides: the last position
    /// (`$lastPos`, which the capture, drop and create words set), board edits, and
    /// `repetition-reset`. Reads that can fail are made as the long way makes them; a
    /// move that is not dominated is opened the long way when the memory left is short
    /// (where opening it could fail). Tested against the long way by playing with the
    /// move cache on and off.
    pub(crate) fn replay_unlisted(
        &mut self,
        vm: &mut Vm,
        move_type: i32,
        events: &[crate::forth::trace::Event],
    ) -> FResult<bool> {
        use crate::forth::trace::Event;
        let dominated = self.dominates(vm, move_type)?;
        if !dominated
            && (vm.room() < UNLISTED_ROOM
                || events.iter().any(|e| {
                    matches!(
                        *e,
                        Event::Native {
                            id: n::ADD_MOVE,
                            ..
                        }
                    )
                }))
        {
            return Ok(false);
        }
        if !events.iter().all(|e| match *e {
            Event::Native { id, .. } => Lasting::of(id).is_some(),
            Event::Write { .. } => true,
        }) {
            return Ok(false);
        }
        // What `begin_move` and `end_move` leave of a dominated move: `HERE` aligned.
        let h = vm.here().div_ceil(CELL) * CELL;
        vm.set_here(h)?;
        if let Some(g) = self.generation.as_mut() {
            g.move_type = move_type;
            g.dominated = dominated;
            g.notation.clear();
            g.pending = None;
        }
        for e in events {
            match *e {
                Event::Write { addr, value } => vm.set_cell(addr, value)?,
                Event::Native { id, args, n } => {
                    let args = &args[..n as usize];
                    let arg = |k: usize| {
                        args.get(k).copied().ok_or_else(|| {
                            crate::forth::ForthError::from(K::Host(format!(
                                "host word {id} without argument {k}"
                            )))
                        })
                    };
                    match Lasting::of(id) {
                        Some(Lasting::LastPos { at: true }) => {
                            self.set_last(vm, arg(args.len().wrapping_sub(1))?)?
                        }
                        Some(Lasting::LastPos { at: false }) => {
                            let pos = self.here_pos(vm)?;
                            self.set_last(vm, pos)?;
                        }
                        Some(Lasting::Move) => {
                            self.get(vm, arg(0)?)?;
                            self.set_last(vm, arg(1)?)?;
                        }
                        Some(Lasting::RepetitionReset) => self.history.clear(),
                        Some(Lasting::Remove) => self.put(vm, 0, arg(0)?)?,
                        Some(Lasting::Add) => self.put(vm, arg(0)?, arg(1)?)?,
                        Some(Lasting::Nothing) | None => {}
                    }
                }
            }
        }
        Ok(true)
    }

    /// Whether replaying `events` as an unlisted move ([`Runtime::replay_unlisted`]) right
    /// after the same replay, at another position, changes nothing but the cursor: every
    /// event sets something (a cell, the last position, a board square, the history) to a
    /// value given by its own arguments, so the second replay sets each to what it already
    /// holds, and no event writes one of the `cursor` cells the generator sets before each
    /// word. Some(true): the events set the last position (a cursor cell), which then
    /// holds their value, not the word's position. (The current position's variant of the
    /// last-position words reads the cursor, which differs from word to word: None.)
    pub(crate) fn repeat_of(events: &[crate::forth::trace::Event], cursor: &[u32]) -> Option<bool> {
        use crate::forth::trace::Event;
        let mut sets_last = false;
        for e in events {
            match *e {
                Event::Native { id, .. } => match Lasting::of(id)? {
                    Lasting::LastPos { at: true } | Lasting::Move => sets_last = true,
                    Lasting::LastPos { at: false } => return None,
                    Lasting::Nothing
                    | Lasting::RepetitionReset
                    | Lasting::Remove
                    | Lasting::Add => {}
                },
                Event::Write { addr, .. } => {
                    if cursor.iter().any(|&c| addr < c + 4 && c < addr + 4) {
                        return None;
                    }
                }
            }
        }
        Some(sets_last)
    }

    /// Whether a move listed by replaying `events` leaves what the last unlisted replay
    /// set ([`Runtime::replay_unlisted`]: cells, board squares, the history, the last
    /// position) as it was, so that replaying that one's effects again still changes
    /// nothing but the cursor ([`Runtime::repeat_of`]): its events write no cell and edit
    /// no square, and may only set the last position (which the cursor of the repeat
    /// sets again) or clear the history (which the repeated effects leave alone or
    /// clear). A listing's own writes (its record, the list) are to memory no unlisted
    /// replay sets.
    pub(crate) fn leaves_unlisted(events: &[crate::forth::trace::Event]) -> bool {
        use crate::forth::trace::Event;
        events.iter().all(|e| match *e {
            Event::Native { id, .. } => matches!(
                Lasting::of(id),
                Some(
                    Lasting::Nothing
                        | Lasting::LastPos { .. }
                        | Lasting::Move
                        | Lasting::RepetitionReset
                )
            ),
            Event::Write { .. } => false,
        })
    }

    /// Whether a move word whose replay had `events` and listed one move can be listed
    /// again by copying that move's record ([`Runtime::relist`]) when its word replays
    /// the same `events` next, with nothing run or replayed in between: the events are
    /// `capture-at` and `repetition-reset` calls, then one `add-move`. Those record
    /// nothing that depends on the cursor the generator sets before each word: the
    /// notation and code of `capture-at` come from its argument, and the captures it
    /// counts from that position's cell, which nothing writes in between (no event writes
    /// memory; `capture-at` only compiles its removal). Some(true): the events set the
    /// last position (to `capture-at`'s argument).
    pub(crate) fn relistable(events: &[crate::forth::trace::Event]) -> Option<bool> {
        use crate::forth::trace::Event;
        let mut sets_last = false;
        for e in Self::before_add_move(events)? {
            match e {
                Event::Native {
                    id: n::CAPTURE_AT, ..
                } => sets_last = true,
                Event::Native {
                    id: n::REP_RESET, ..
                } => {}
                _ => return None,
            }
        }
        Some(sets_last)
    }

    /// The events before the last, when the last is an `add-move`.
    fn before_add_move(
        events: &[crate::forth::trace::Event],
    ) -> Option<&[crate::forth::trace::Event]> {
        match events.split_last() {
            Some((
                crate::forth::trace::Event::Native {
                    id: n::ADD_MOVE, ..
                },
                rest,
            )) => Some(rest),
            _ => None,
        }
    }

    /// Whether a move word whose replay had `events` and listed one move lists, at the
    /// same position for the same piece, the same record, code and text whenever it does
    /// so again, but for what [`Runtime::list_template`] redoes: the events are `drop`,
    /// `capture-at` and `repetition-reset` calls, then one `add-move`. `drop` notes and
    /// compiles the piece and position the generator set (the same for the same slot),
    /// `capture-at` its argument; their captures count from the board, which the
    /// template's use counts again.
    pub(crate) fn templatable(events: &[crate::forth::trace::Event]) -> bool {
        use crate::forth::trace::Event;
        Self::before_add_move(events).is_some_and(|rest| {
            rest.iter().all(|e| {
                matches!(
                    e,
                    Event::Native {
                        id: n::DROP | n::CAPTURE_AT | n::REP_RESET,
                        ..
                    }
                )
            })
        })
    }

    /// The record, code and text of the move listed last, as a template for
    /// [`Runtime::list_template`], when the generation has listed `before + 1` moves
    /// (see [`Runtime::listed_one`]).
    pub(crate) fn template_of(&self, vm: &Vm, before: u32) -> FResult<Option<memo::Template>> {
        let Some((rec, end)) = self.listed_one(vm, before)? else {
            return Ok(None);
        };
        let from = rec - REC_NOTATION;
        let size = (end.div_ceil(CELL) * CELL).wrapping_sub(from);
        let text_at = (vm.cell(from)? as u32).wrapping_sub(from);
        if size > MAX_TEMPLATE || text_at >= size {
            return Ok(None);
        }
        Ok(Some(memo::Template {
            bytes: vm.bytes(from, size)?.into(),
            text_at,
        }))
    }

    /// Lists, for a move word of `move_type` at `pos` replaying `events` (see
    /// [`Runtime::templatable`]) whose replay listed `template` before, the same move as
    /// replaying them the long way would, without running its host words: the template
    /// at `HERE` with its text pointers moved, its captures counted again from the board
    /// (a `drop` at `pos`, a `capture-at` at its argument, onto a piece), linked and
    /// counted; then the last position the events set, and the history cleared when they
    /// clear it. Returns false (and does nothing) when the move would be dominated or the
    /// memory left is short: the caller then goes the long way.
    pub(crate) fn list_template(
        &mut self,
        vm: &mut Vm,
        move_type: i32,
        template: &memo::Template,
        events: &[crate::forth::trace::Event],
        pos: i32,
    ) -> FResult<bool> {
        use crate::forth::trace::Event;
        let size = template.bytes.len() as u32;
        if self.dominates(vm, move_type)? || vm.room() < UNLISTED_ROOM.saturating_add(size) {
            return Ok(false);
        }
        if self.generation.is_none() {
            return Ok(false);
        }
        // What the host words would count and leave.
        let (mut captures, mut last, mut reset) = (0i32, None, false);
        for e in events {
            if let Event::Native { id, args, .. } = *e {
                let at = match id {
                    n::DROP => pos,
                    n::CAPTURE_AT => args[0],
                    n::REP_RESET => {
                        reset = true;
                        continue;
                    }
                    _ => continue,
                };
                if self.occupied(vm, at)? {
                    captures += 1;
                }
                last = Some(at);
            }
        }
        let h0 = vm.here().div_ceil(CELL) * CELL;
        let rec = h0 + REC_NOTATION;
        let text = h0 + template.text_at;
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        buf.extend_from_slice(&template.bytes);
        place_copy(&mut buf, self.layout.rec_string, text, 0);
        let c = (REC_NOTATION - REC_CAPTURES) as usize;
        buf[c..c + 4].copy_from_slice(&captures.to_le_bytes());
        let written = vm.write_bytes(h0, &buf);
        self.scratch = buf;
        written?;
        vm.set_here(h0 + size)?;
        if let Some(g) = self.generation.as_mut() {
            g.move_type = move_type;
            g.dominated = false;
            g.pending = None;
        }
        self.append_listed(vm, rec, move_type)?;
        if let Some(p) = last {
            self.set_last(vm, p)?;
        }
        if reset {
            self.history.clear();
        }
        Ok(true)
    }

    /// The move listed last (its record and the end of its notation's text), when the
    /// generation has listed `before + 1` moves: the word just replayed listed one.
    pub(crate) fn listed_one(&self, vm: &Vm, before: u32) -> FResult<Option<(u32, u32)>> {
        let Some(g) = self.generation.as_ref() else {
            return Ok(None);
        };
        if g.count != before.wrapping_add(1) || g.pending.is_some() {
            return Ok(None);
        }
        let rec = g.tail;
        let text = vm.cell(rec - REC_NOTATION)? as u32;
        let end = text + vm.cstr(text)?.len() as u32 + 1;
        // The record, its code and its text, in one piece just below `HERE`.
        let ok = rec >= REC_NOTATION && text > rec && vm.here() == end.div_ceil(CELL) * CELL;
        Ok(ok.then_some((rec, end)))
    }

    /// Moves listed so far in the generation.
    pub(crate) fn listed_count(&self) -> u32 {
        self.generation.as_ref().map_or(0, |g| g.count)
    }

    /// Lists, for the move word replaying the events of the move listed last (`rec`, its
    /// text ending at `end`; see [`Runtime::relistable`]), the same move again, as
    /// replaying them the long way would: a copy of its record, code and text at `HERE`
    /// with its pointers moved, linked after it and counted, the history cleared when the
    /// events clear it. The last position is left to the caller
    /// (the cursor it defers). Returns the new record and text end; None (nothing done)
    /// when the move would not be listed (a better priority is listed) or memory is short.
    pub(crate) fn relist(
        &mut self,
        vm: &mut Vm,
        move_type: i32,
        listed: (u32, u32),
        events: &[crate::forth::trace::Event],
    ) -> FResult<Option<(u32, u32)>> {
        Ok(self
            .relist_run(vm, move_type, listed, events, 1, &[])?
            .map(|(_, last)| last))
    }

    /// [`Runtime::relist`] `times` times in a row, each copy made of the one before, as
    /// many move words replaying the same events one after the other would list them; stops
    /// where one would not be listed. Returns how many were listed and the last copy.
    /// Nothing is done (None) when the copies would write a cell the VM watches, or one
    /// of `kept` (reads the words between are known to hold by): the words between would
    /// then no longer be known to do what they did.
    pub(crate) fn relist_run(
        &mut self,
        vm: &mut Vm,
        move_type: i32,
        (rec, end): (u32, u32),
        events: &[crate::forth::trace::Event],
        times: u64,
        kept: &[crate::forth::trace::Read],
    ) -> FResult<Option<(u64, (u32, u32))>> {
        use crate::forth::trace::Event;
        if times == 0 || self.dominates(vm, move_type)? || vm.room() < UNLISTED_ROOM {
            return Ok(None);
        }
        let header = match self.generation.as_ref() {
            Some(g) if g.tail == rec && g.pending.is_none() && vm.cell(rec)? == 0 => g.header,
            _ => return Ok(None),
        };
        let h0 = vm.here().div_ceil(CELL) * CELL;
        if times > 1 {
            // What the copies write: the records at `HERE` (all of one size), the link of
            // the record before the first, the list's count (and `HERE`, which no trace
            // reads).
            let size = (end.div_ceil(CELL) * CELL).wrapping_sub(rec - REC_NOTATION);
            let span = u32::try_from(times)
                .ok()
                .and_then(|t| t.checked_mul(size))
                .filter(|s| h0.checked_add(*s).is_some());
            let Some(span) = span else {
                return Ok(None);
            };
            let written = [(h0, span), (rec, CELL), (header + 4, CELL)];
            let touched = |a: u32, len: u32| {
                let e = a.saturating_add(len);
                written
                    .iter()
                    .any(|&(w, l)| a < w.saturating_add(l) && w < e)
            };
            if written.iter().any(|&(a, len)| vm.watches(a, len))
                || kept.iter().any(|r| touched(r.addr, r.width as u32))
            {
                return Ok(None);
            }
        }
        // Each copy is the one before (the first: the listed record, with its code and
        // text padded to the next cell) moved up by its size: its text pointer moved with
        // it, its link 0, and the link of the one before pointing at it. They are made in
        // a buffer and written at once.
        let from = rec - REC_NOTATION;
        let Some(size) = (end.div_ceil(CELL) * CELL).checked_sub(from) else {
            return Ok(None);
        };
        let text_at = (vm.cell(from)? as u32).wrapping_sub(from);
        // (The first copy's room is checked above; the next ones' as each would be: copy
        // `i`, at `h0 + i * size`, fits when it starts at most `UNLISTED_ROOM` below the
        // end.)
        let top = u64::from(vm.mem_len()).saturating_sub(u64::from(UNLISTED_ROOM));
        let fitting = top.saturating_sub(u64::from(h0)) / u64::from(size.max(1)) + 1;
        let listed = times.min(fitting);
        let rec_string = self.layout.rec_string;
        let place = |i: u32, copy: &mut [u8]| {
            let at = h0 + i * size;
            let text = at.wrapping_add(text_at);
            let next = if u64::from(i) + 1 < listed {
                at + size + REC_NOTATION
            } else {
                0
            };
            place_copy(copy, rec_string, text, next);
        };
        // (`listed` fits in a u32: the copies fit in the memory.)
        if !vm.write_copies((from, size), h0, listed as u32, place) {
            let mut buf = std::mem::take(&mut self.scratch);
            buf.clear();
            let template = vm.bytes(from, size)?;
            for i in 0..listed as u32 {
                let o = buf.len();
                buf.extend_from_slice(template);
                place(i, &mut buf[o..]);
            }
            let written = vm.write_bytes(h0, &buf);
            self.scratch = buf;
            written?;
        }
        vm.set_cell(rec, (h0 + REC_NOTATION) as i32)?;
        let last = h0 + (listed as u32 - 1) * size;
        let (prev, prev_end) = (last + REC_NOTATION, end.wrapping_add(last - from));
        // `add-move` ends by opening the next record, which the word's end drops: that
        // leaves `HERE` aligned (and the generation's pending move as it was after the
        // copied one; memory above `HERE` is not reproduced, as elsewhere in the cache).
        vm.set_here(last + size)?;
        if let Some(g) = self.generation.as_mut() {
            g.tail = prev;
            g.count = g.count.wrapping_add(listed as u32);
            vm.set_cell(header + 4, g.count as i32)?;
        }
        if events.iter().any(|e| {
            matches!(
                e,
                Event::Native {
                    id: n::REP_RESET,
                    ..
                }
            )
        }) {
            self.history.clear();
        }
        Ok(Some((listed, (prev, prev_end))))
    }
}

/// Points a move's record copied at the start of `copy` (its hidden cells first) at its new
/// place: its text pointers (the hidden cell and the record's string field, when the
/// layout has one) at `text`, its link at `next`.
fn place_copy(copy: &mut [u8], rec_string: Option<u32>, text: u32, next: u32) {
    copy[..4].copy_from_slice(&text.to_le_bytes());
    let link = REC_NOTATION as usize;
    copy[link..link + 4].copy_from_slice(&next.to_le_bytes());
    if let Some(cell) = rec_string.and_then(|off| {
        let s = link + off as usize;
        copy.get_mut(s..s + 4)
    }) {
        cell.copy_from_slice(&text.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::axiom::state::State;
    use crate::forth::trace::{Event, MAX_REPLAY_ARGS};

    fn started() -> State {
        let file = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/axiom/capture/Capture.4th");
        let p = crate::axiom::Program::load(&file, None).unwrap();
        State::new(&p, 1).unwrap()
    }

    fn value(s: &mut State, src: &str) -> i32 {
        s.vm.clear_stacks();
        s.vm.interpret_str("t.4th", src, &mut s.rt).unwrap();
        let v = s.vm.pop().unwrap();
        s.vm.clear_stacks();
        v
    }

    fn native(id: u32, args: &[i32]) -> Event {
        let mut a = [0; MAX_REPLAY_ARGS];
        a[..args.len()].copy_from_slice(args);
        Event::Native {
            id,
            args: a,
            n: args.len() as u8,
        }
    }

    /// Sets the cursor as the generator does before a move word at `pos` for `piece`.
    fn cursor(s: &mut State, pos: i32, piece: i32) {
        let l = s.rt.layout;
        for (a, v) in [
            (l.from, pos),
            (l.pos, pos),
            (l.piece, piece),
            (l.last_pos, pos),
        ] {
            s.vm.set_cell(a, v).unwrap();
        }
    }

    /// A move listed from a template is the one the long way lists: the same memory,
    /// `HERE`, last position, repetition history and list, with its captures counted
    /// again from the board as it is now.
    #[test]
    fn a_template_lists_what_the_long_way_lists() {
        let mut s = started();
        let (b2, c3, a1) = (
            value(&mut s, "b2"),
            value(&mut s, "c3"),
            value(&mut s, "a1"),
        );
        let board = s.vm.cell(s.rt.layout.board).unwrap() as u32;
        let b1 = value(&mut s, "b1");
        let pawn = s.vm.cell(board + 4 * b1 as u32).unwrap();
        let shapes = [
            vec![native(n::DROP, &[]), native(n::ADD_MOVE, &[])],
            vec![
                native(n::CAPTURE_AT, &[c3]),
                native(n::REP_RESET, &[]),
                native(n::ADD_MOVE, &[]),
            ],
            vec![
                native(n::DROP, &[]),
                native(n::CAPTURE_AT, &[a1]),
                native(n::ADD_MOVE, &[]),
            ],
        ];
        for events in &shapes {
            assert!(Runtime::templatable(events));
            for occupied in [false, true] {
                let mut s = started();
                s.rt.history.extend([7, 8]);
                s.rt.begin_generation(&mut s.vm).unwrap();
                // The template: the move listed once the long way, at b2.
                cursor(&mut s, b2, pawn);
                s.rt.begin_move(&mut s.vm, 0).unwrap();
                s.rt.replay_move(&mut s.vm, events).unwrap();
                let t = s.rt.template_of(&s.vm, 0).unwrap().expect("a template");
                // The board as it is at the next listing (`c3` and `b2` taken or not), and
                // positions since the last reset.
                s.rt.history.push(9);
                for p in [b2, c3] {
                    s.vm.set_cell(board + 4 * p as u32, if occupied { pawn } else { 0 })
                        .unwrap();
                }
                let (mut long, mut short) = (s.clone(), s);
                for st in [&mut long, &mut short] {
                    cursor(st, b2, pawn);
                }
                long.rt.begin_move(&mut long.vm, 0).unwrap();
                long.rt.replay_move(&mut long.vm, events).unwrap();
                assert!(
                    short
                        .rt
                        .list_template(&mut short.vm, 0, &t, events, b2)
                        .unwrap()
                );
                assert_eq!(long.vm.here(), short.vm.here());
                let here = long.vm.here();
                assert!(long.vm.bytes(0, here).unwrap() == short.vm.bytes(0, here).unwrap());
                assert_eq!(long.rt.history, short.rt.history);
                assert_eq!(
                    long.rt.history.is_empty(),
                    events.len() == 3 && events[1] == native(n::REP_RESET, &[])
                );
                for st in [&mut long, &mut short] {
                    st.rt.finish_generation(&mut st.vm, &mut st.moves).unwrap();
                }
                assert_eq!(long.moves, short.moves);
                assert_eq!(long.moves.len(), 2);
                let captures = (0..2).map(|i| short.captures(i)).collect::<Vec<_>>();
                let notes = (0..2).map(|i| short.notation(i)).collect::<Vec<_>>();
                assert_eq!(
                    captures,
                    (0..2).map(|i| long.captures(i)).collect::<Vec<_>>()
                );
                assert_eq!(notes, (0..2).map(|i| long.notation(i)).collect::<Vec<_>>());
                if occupied {
                    assert!(captures[1] > 0, "{events:?}");
                }
            }
        }
    }
}
