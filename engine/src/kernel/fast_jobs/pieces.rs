//! The fast reader of job lists ([`super`]) for a text that arrives in pieces: the command
//! line reading a file holds the jobs read and about a piece of text, not the whole text as
//! well.

use alloc::string::String;
use alloc::vec::Vec;

use super::{Reader, Step, NONE};
use crate::model::Job;

/// What [`stream`] read of a scenario text given in pieces.
#[derive(Debug)]
pub(crate) enum Streamed {
    /// The job list read fast: the text before it, its jobs, the text after it.
    Split { head: String, jobs: Vec<Job>, tail: String },
    /// The whole text: its top-level `jobs` list is absent or not found by the time the text
    /// ended, and all of it is still here.
    Whole(String),
    /// Not of the shape read here (or not UTF-8) after part of the text was let go: it has to
    /// be read again, whole.
    Again,
}

/// The bytes read from the source at a time.
pub(super) const PIECE: usize = 1 << 20;

/// A step of the job list that fails within this many bytes of the end of the text read so
/// far is tried again with the next piece (it may have been cut there); one that fails
/// further in is not of the shape read here. A job longer than this is left to serde.
pub(super) const SLACK: usize = 1 << 16;

/// [`super::split`] of a text that arrives in pieces from `read` (which fills the buffer it is
/// given and says how many bytes it wrote, 0 at the end): only the jobs read and about a piece
/// of text are held at a time. The jobs are those [`super::split`] reads from the whole text,
/// by the same steps ([`Reader::step`]). A step that fails near the end of the text held is
/// tried again with the next piece; past the most jobs allowed, that reads one piece more
/// before giving up.
pub(crate) fn stream<E>(read: impl FnMut(&mut [u8]) -> Result<usize, E>) -> Result<Streamed, E> {
    let mut p = Pieces { read, buf: Vec::new(), filled: 0, eof: false };
    // The text before the list, read again from its start each time it has doubled.
    let mut tried = 0;
    let (start, head) = loop {
        p.more()?;
        if p.filled < 2 * tried && !p.eof {
            continue;
        }
        tried = p.filled;
        let Some(text) = p.text() else { return Ok(Streamed::Again) };
        let mut r = Reader::new(text, [NONE; 14]);
        match r.find_jobs() {
            // Where the list starts, unless the space before it may go on in the next piece.
            Some(start) if start < text.len() || p.eof => break (start, String::from(&text[..start])),
            Some(_) => {}
            None if p.eof => return Ok(Streamed::Whole(text.into())),
            None => {}
        }
    };
    p.consume(start);
    let mut jobs = Vec::new();
    let mut next = [NONE; 14];
    let mut at = Step::Open;
    loop {
        let Some(text) = p.text() else { return Ok(Streamed::Again) };
        let mut r = Reader::new(text, next);
        // The end of the last step taken.
        let mut done = 0;
        let ended = loop {
            if at == Step::Closed {
                break true;
            }
            match r.step(at, &mut jobs) {
                Some(step) => {
                    at = step;
                    done = r.i;
                }
                None if !p.eof && text.len() - done < SLACK => break false,
                None => return Ok(Streamed::Again),
            }
        };
        next = r.next;
        p.consume(done);
        if ended {
            break;
        }
        p.more()?;
    }
    while !p.eof {
        p.more()?;
    }
    p.buf.truncate(p.filled);
    match String::from_utf8(p.buf) {
        Ok(tail) => Ok(Streamed::Split { head, jobs, tail }),
        Err(_) => Ok(Streamed::Again),
    }
}

/// The text of a source read so far and not yet let go: `buf[..filled]`.
struct Pieces<F> {
    read: F,
    buf: Vec<u8>,
    filled: usize,
    eof: bool,
}

impl<E, F: FnMut(&mut [u8]) -> Result<usize, E>> Pieces<F> {
    /// Reads at most a piece more.
    fn more(&mut self) -> Result<(), E> {
        if self.buf.len() < self.filled + PIECE {
            self.buf.resize(self.filled + PIECE, 0);
        }
        let n = (self.read)(&mut self.buf[self.filled..self.filled + PIECE])?;
        self.filled += n.min(PIECE);
        self.eof = n == 0;
        Ok(())
    }

    /// The text held up to its last whole character, or `None` when it is not UTF-8.
    fn text(&self) -> Option<&str> {
        let b = &self.buf[..self.filled];
        match core::str::from_utf8(b) {
            Ok(t) => Some(t),
            // A character cut at the end of the text held: complete with the next piece.
            Err(e) if e.error_len().is_none() && !self.eof => {
                core::str::from_utf8(&b[..e.valid_up_to()]).ok()
            }
            Err(_) => None,
        }
    }

    /// Lets the first `n` bytes go.
    fn consume(&mut self, n: usize) {
        self.buf.copy_within(n..self.filled, 0);
        self.filled -= n;
    }
}
