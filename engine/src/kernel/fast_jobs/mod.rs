//! A fast reader for the usual shape of a scenario's job list (behind the `serde` feature).
//!
//! Generated workloads, traces and the playground write every job as a flat object of plain
//! names and whole numbers. [`split`] reads such a `jobs` list without serde's per-field
//! machinery and says where it lies in the text; [`crate::json::parse_scenario`] then reads the
//! rest of the file, with `[]` in the list's place, through serde as always. [`pieces::stream`] does
//! the same for a text that arrives in pieces (the command line reading a file), holding only
//! the jobs read and about a piece of text, not the whole text as well. It only ever reads
//! text serde reads to the very same jobs: anything else (an escape or a control character
//! in a string, a field it does not read, `null`, a fraction, an exponent, `-0`, a number of 19
//! digits, a duplicate or missing field, any syntax error, more than
//! [`crate::limits::MAX_JOBS`] jobs) makes it decline, and the whole file is read by serde as
//! before, so every error, with its path and position, is serde's. The differential fuzz
//! tests (`fuzz::fast_reader`) hold the two readers to the same result on every input.

use alloc::vec::Vec;

use crate::limits::MAX_JOBS;
use crate::model::{Job, JobPreemption};

mod digits;
pub(crate) mod pieces;

/// The top-level `jobs` list of a scenario text read fast: its jobs and the byte range of
/// its value; `None` when it is absent or not of the shape read here.
pub(crate) fn split(text: &str) -> Option<(Vec<Job>, core::ops::Range<usize>)> {
    let mut r = Reader::new(text, [NONE; 14]);
    let start = r.find_jobs()?;
    let jobs = r.jobs()?;
    Some((jobs, start..r.i))
}

struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    /// Per field (and [`NONE`], the start of a job): the field that followed it last.
    next: [u8; 14],
}

/// The place of "no field yet" in [`Reader::next`].
const NONE: u8 = 13;

/// The next step in a job list, as [`Reader::step`] takes them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Its `[`, and `]` if it is empty.
    Open,
    /// A job.
    Job,
    /// `,` or `]` after a job.
    After,
    /// Done: the text after the list follows.
    Closed,
}

/// The bytes that end a plain string: its closing quote, or what serde must read (an escape,
/// a control character).
static ENDS_PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// The length of the plain text at the start of `b`: the offset of its first byte that
/// [`ENDS_PLAIN`] marks, eight bytes at a time (SWAR: for each byte, whether it is a quote, a
/// backslash or below 0x20; the lowest marked byte of a word is exact, as borrows only carry
/// upwards), then byte by byte for the last few.
#[inline]
fn plain_len(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while i + 8 <= b.len() {
        let x = word(b, i);
        let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
        let hit = zero(x ^ (ONES * u64::from(b'"')))
            | zero(x ^ (ONES * u64::from(b'\\')))
            | x.wrapping_sub(ONES * 0x20) & !x & HIGH;
        if hit != 0 {
            return Some(i + (hit.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    b[i..].iter().position(|&c| ENDS_PLAIN[c as usize]).map(|k| i + k)
}

/// The fields read here, by index (the bit that records each), as keys are written: in
/// quotes (at least nine bytes each, see [`same`]).
const KEYS: [&str; 13] = [
    "\"jobName\"",
    "\"quotaShareName\"",
    "\"schedulingPriority\"",
    "\"instanceType\"",
    "\"instanceCount\"",
    "\"submitAt\"",
    "\"durationSeconds\"",
    "\"startedAt\"",
    "\"previousAttempts\"",
    "\"completedWorkSeconds\"",
    "\"checkpointIntervalSeconds\"",
    "\"timeoutSeconds\"",
    "\"preemptionConfiguration\"",
];

/// The index of a field read here, or `None`.
fn field(key: &str) -> Option<u32> {
    KEYS.iter().position(|&k| &k[1..k.len() - 1] == key).map(|i| i as u32)
}

/// The eight bytes of `b` from `i`, as one number.
#[inline(always)]
fn word(b: &[u8], i: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(w)
}

/// Whether `text` starts with `key`, of at least eight bytes, compared eight bytes at a time
/// (the last word overlapping the one before): a call to `memcmp` for each key of each job
/// cost more than the comparison itself.
#[inline]
fn same(text: &[u8], key: &[u8]) -> bool {
    let n = key.len();
    let Some(text) = text.get(..n) else { return false };
    let mut i = 0;
    while i + 8 < n {
        if word(text, i) != word(key, i) {
            return false;
        }
        i += 8;
    }
    word(text, n - 8) == word(key, n - 8)
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text`, with the field order `next` seen so far.
    fn new(text: &'a str, next: [u8; 14]) -> Self {
        Reader { text, b: text.as_bytes(), i: 0, next }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// JSON whitespace (RFC 8259: space, tab, line feed, carriage return).
    #[inline]
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    #[inline]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek() == Some(c)).then(|| self.i += 1)
    }

    /// A string with neither escapes nor control characters: its text between the quotes.
    #[inline]
    fn plain_str(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let len = plain_len(&self.b[start..])?;
        self.i = start + len;
        self.eat(b'"')?;
        // Both ends are ASCII quotes of a `str`, so this is a whole UTF-8 string.
        Some(&self.text[start..start + len])
    }

    /// A whole number as serde_json reads one into an `i64`: an optional minus, then `0` or
    /// digits without a leading zero; at most 18 digits (so it cannot overflow), never `-0`
    /// (serde_json reads that as a float). A fraction or exponent after it is refused by the
    /// caller, which expects `,` or `}`.
    #[inline]
    fn int(&mut self) -> Option<i64> {
        let neg = self.eat(b'-').is_some();
        let start = self.i;
        let mut v: i64 = 0;
        if let Some((n, short)) = digits::short_run(&self.b[start..]) {
            v = short as i64;
            self.i += n;
        } else {
            while let Some(c @ b'0'..=b'9') = self.peek() {
                if self.i - start == 18 {
                    return None;
                }
                v = v * 10 + i64::from(c - b'0');
                self.i += 1;
            }
        }
        let digits = self.i - start;
        // One test of all three (`|`, `&`: no branch on how long the number was).
        if (digits == 0) | (digits > 1) & (self.b.get(start) == Some(&b'0')) | neg & (v == 0) {
            return None;
        }
        Some(if neg { -v } else { v })
    }

    /// One job object of the fields [`field`] knows, each at most once, with `jobName` and
    /// `quotaShareName`, after any space (a piece of text may start with the space after a
    /// comma), read onto the end of `jobs` (built where it stays: a job is 208 bytes, and
    /// moving it into the list cost more than reading its numbers).
    fn job(&mut self, jobs: &mut Vec<Job>) -> Option<()> {
        self.ws();
        jobs.push(Job::default());
        let read = jobs.last_mut().and_then(|job| self.fields(job));
        if read.is_none() {
            jobs.pop();
        }
        read
    }

    /// The object of [`Self::job`], into `job`.
    fn fields(&mut self, job: &mut Job) -> Option<()> {
        self.eat(b'{')?;
        self.ws();
        let mut seen = 0u16;
        let mut prev = NONE;
        loop {
            let field = self.key(prev)?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            if seen & 1 << field != 0 {
                return None;
            }
            seen |= 1 << field;
            self.next[prev as usize] = field as u8;
            prev = field as u8;
            match field {
                0 => job.job_name = self.plain_str()?.into(),
                1 => job.quota_share_name = self.plain_str()?.into(),
                2 => job.scheduling_priority = self.int()?,
                3 => job.instance_type = Some(self.plain_str()?.into()),
                4 => job.instance_count = Some(self.int()?),
                5 => job.submit_at = self.int()?,
                6 => job.duration_seconds = Some(self.int()?),
                7 => job.started_at = Some(self.int()?),
                8 => job.previous_attempts = self.int()?,
                9 => job.completed_work_seconds = self.int()?,
                10 => job.checkpoint_interval_seconds = Some(self.int()?),
                11 => job.timeout_seconds = Some(self.int()?),
                _ => job.preemption_configuration = Some(self.preemption()?),
            }
            if !self.more(b'}')? {
                return (seen & 0b11 == 0b11).then_some(());
            }
        }
    }

    /// After an entry of an object or list closed by `close`: `true` after a comma (another
    /// entry follows), `false` after `close`, `None` after anything else.
    #[inline]
    fn more(&mut self, close: u8) -> Option<bool> {
        self.ws();
        let c = self.peek()?;
        self.i += 1;
        if c == b',' {
            self.ws();
            Some(true)
        } else {
            (c == close).then_some(false)
        }
    }

    /// A key: the field that followed `prev` in the jobs read so far if the text holds its
    /// name there (files write every job's fields in one order), else whichever field it
    /// names.
    #[inline]
    fn key(&mut self, prev: u8) -> Option<u32> {
        let guess = self.next[prev as usize];
        if let Some(key) = KEYS.get(guess as usize) {
            if self.b.get(self.i..).is_some_and(|t| same(t, key.as_bytes())) {
                self.i += key.len();
                return Some(u32::from(guess));
            }
        }
        field(self.plain_str()?)
    }

    /// `preemptionConfiguration`: `{}` or `{"preemptionRetriesBeforeTermination": N}`.
    fn preemption(&mut self) -> Option<JobPreemption> {
        self.eat(b'{')?;
        self.ws();
        let mut p = JobPreemption::default();
        if self.eat(b'}').is_none() {
            if self.plain_str()? != "preemptionRetriesBeforeTermination" {
                return None;
            }
            self.ws();
            self.eat(b':')?;
            self.ws();
            p.preemption_retries_before_termination = Some(self.int()?);
            self.ws();
            self.eat(b'}')?;
        }
        Some(p)
    }

    /// Step `at` of a job list from here (a job read onto `jobs`): the step after it, or
    /// `None` where the text is not of the shape read here or ends. Each step ends on a byte
    /// it checks (a closing quote, `,`, `}` or `]`), so it is taken only on text that holds
    /// all of it: [`pieces::stream`] takes the same steps on a text cut anywhere.
    #[inline]
    fn step(&mut self, at: Step, jobs: &mut Vec<Job>) -> Option<Step> {
        Some(match at {
            Step::Open => {
                self.eat(b'[')?;
                self.ws();
                if self.peek()? == b']' {
                    self.i += 1;
                    Step::Closed
                } else {
                    Step::Job
                }
            }
            Step::Job if jobs.len() == MAX_JOBS => return None,
            Step::Job => {
                self.job(jobs)?;
                Step::After
            }
            Step::After => {
                if self.more(b']')? {
                    Step::Job
                } else {
                    Step::Closed
                }
            }
            Step::Closed => Step::Closed,
        })
    }

    /// The job list: `[`, jobs separated by commas, `]`.
    fn jobs(&mut self) -> Option<Vec<Job>> {
        let mut jobs = Vec::new();
        let mut at = Step::Open;
        while at != Step::Closed {
            at = self.step(at, &mut jobs)?;
        }
        Some(jobs)
    }

    /// Any string, escapes skipped: its raw bytes between the quotes.
    fn any_str(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        loop {
            match self.peek()? {
                b'"' => break,
                b'\\' => self.i += 2,
                _ => self.i += 1,
            }
        }
        let s = self.b.get(start..self.i)?;
        self.i += 1;
        Some(s)
    }

    /// Skips one value: a string, an object or list with everything nested in it, or a
    /// scalar up to the byte that ends it. Exact on valid JSON, which is all that matters: the
    /// text before the list is read by serde again, unchanged.
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => {
                self.any_str()?;
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.any_str()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth -= 1,
                        _ => {}
                    }
                    self.i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => {
                while !matches!(self.peek()?, b',' | b'}' | b']' | b' ' | b'\n' | b'\t' | b'\r') {
                    self.i += 1;
                }
            }
        }
        Some(())
    }

    /// The offset of the value of the top-level key `jobs`, written without escapes (an
    /// escaped spelling of it is left to serde, which then finds the key twice and says so, or
    /// reads the file itself when it is the only one).
    fn find_jobs(&mut self) -> Option<usize> {
        self.ws();
        self.eat(b'{')?;
        self.ws();
        loop {
            let key = self.any_str()?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            if key == b"jobs" {
                return Some(self.i);
            }
            self.skip_value()?;
            self.ws();
            self.eat(b',')?;
            self.ws();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::pieces::{stream, Streamed, PIECE, SLACK};
    use super::*;
    use crate::json::{parse_scenario, parse_scenario_serde};
    use alloc::format;
    use alloc::string::String;

    fn scenario(jobs: &str) -> String {
        format!(
            r#"{{"serviceEnvironment": {{"serviceEnvironmentName": "se", "capacityLimits": [{{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 8}}]}},
               "quotaShares": [{{"quotaShareName": "a", "capacityLimits": [{{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 8}}],
                                 "resourceSharingConfiguration": {{"strategy": "RESERVE"}}}}],
               "jobs": {jobs}}}"#
        )
    }

    /// [`stream`] of `text` given at most `size` bytes at a time, and how many it took.
    fn in_pieces(text: &[u8], size: usize) -> (Streamed, usize) {
        let mut at = 0;
        let read = |buf: &mut [u8]| -> Result<usize, ()> {
            let n = size.min(buf.len()).min(text.len() - at);
            buf[..n].copy_from_slice(&text[at..at + n]);
            at += n;
            Ok(n)
        };
        let s = stream(read).unwrap();
        (s, at)
    }

    /// Whether the fast reader reads `text`, after checking that `parse_scenario` gives what
    /// serde alone gives, and that the text read in pieces of any size gives what it gives
    /// whole: the same jobs and the text around them when it reads the list, else the whole
    /// text (no list found) or "read it again".
    fn fast(text: &str) -> bool {
        assert_eq!(parse_scenario(text), parse_scenario_serde(text), "{text}");
        let whole = split(text);
        for size in [1, 2, 3, 7, 64, PIECE] {
            match (&whole, in_pieces(text.as_bytes(), size).0) {
                (Some((jobs, at)), Streamed::Split { head, jobs: read, tail }) => {
                    assert_eq!(
                        (head.as_str(), &read, tail.as_str()),
                        (&text[..at.start], jobs, &text[at.end..]),
                        "{text}"
                    );
                }
                (None, Streamed::Whole(t)) => assert_eq!(t, text),
                (None, Streamed::Again) => {}
                (whole, pieces) => panic!("{size}-byte pieces of {text}: {pieces:?}, whole: {whole:?}"),
            }
        }
        whole.is_some()
    }

    #[test]
    fn the_usual_shape_is_read_fast_and_exactly() {
        for jobs in [
            "[]",
            r#"[{"jobName": "j1", "quotaShareName": "a", "instanceType": "ml.p5.48xlarge", "durationSeconds": 60}]"#,
            "[ {\"quotaShareName\":\"a\",\"jobName\":\"j\u{e9}\",\"schedulingPriority\":-5,\"instanceCount\":2,\
             \"submitAt\":0,\"durationSeconds\":999999999999999999,\"startedAt\":3,\"previousAttempts\":1,\
             \"completedWorkSeconds\":0,\"checkpointIntervalSeconds\":600,\"timeoutSeconds\":7,\
             \"preemptionConfiguration\":{\"preemptionRetriesBeforeTermination\":2}}\r\n,\t{\"jobName\":\"k\",\
             \"quotaShareName\":\"a\",\"preemptionConfiguration\":{ }} ]",
        ] {
            assert!(fast(&scenario(jobs)), "{jobs}");
            assert!(parse_scenario(&scenario(jobs)).is_ok(), "{jobs}");
        }
        let s =
            parse_scenario(&scenario(r#"[{"jobName": "j1", "quotaShareName": "a", "durationSeconds": 60}]"#));
        assert_eq!(s.unwrap().jobs[0].duration_seconds, Some(60));
    }

    #[test]
    fn anything_else_is_left_to_serde() {
        for jobs in [
            r#"[{"jobName": "j\u0031", "quotaShareName": "a"}]"#,
            r#"[{"jobName": "j\n", "quotaShareName": "a"}]"#,
            "[{\"jobName\": \"j\u{1}\", \"quotaShareName\": \"a\"}]",
            r#"[{"jobName": "j", "quotaShareName": "a", "submitAt": -0}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "submitAt": 01}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "submitAt": 1.0}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "submitAt": 1e3}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "submitAt": 9223372036854775807}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "submitAt": 1000000000000000000}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "submitAt": -}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "durationSeconds": null}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "jobName": "k"}]"#,
            r#"[{"jobName": "j"}]"#,
            r#"[{}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "jobArn": "x"}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "preemptionConfiguration": {"x": 1}}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "preemptionConfiguration": null}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a"},]"#,
            r#"[{"jobName": "j", "quotaShareName": "a",}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a"}"#,
            r#"[{"jobName": "j", "quotaShareName": 5}]"#,
            r#"[{"jobName": "j", "quotaShareName": "a", "serviceRequestPayload": "{}"}]"#,
            r#"{"jobName": "j", "quotaShareName": "a"}"#,
            "null",
        ] {
            assert!(!fast(&scenario(jobs)), "{jobs}");
        }
    }

    #[test]
    fn only_the_top_level_list_written_plainly_is_read_fast() {
        let job = r#"[{"jobName": "j", "quotaShareName": "a"}]"#;
        // A `jobs` key inside another value, and keys with quotes and braces in their strings.
        let nested = format!(
            r#"{{"name": "{{\"jobs\": []}}", "description": "x\\", "settings": {{}}, "jobs": {job}}}"#
        );
        assert!(fast(&nested));
        // The list twice, or spelled with an escape: serde reads it, or says it is there twice.
        let twice = format!(r#"{{"jobs": {job}, "jobs": {job}}}"#);
        assert!(fast(&twice) && parse_scenario(&twice).unwrap_err().message.contains("duplicate field"));
        assert!(!fast(&format!(r#"{{"jo\u0062s": {job}}}"#)));
        let both = format!(r#"{{"jo\u0062s": {job}, "jobs": {job}}}"#);
        assert!(fast(&both) && parse_scenario(&both).unwrap_err().message.contains("duplicate field"));
        // Data after the scenario: the fast reader reads the list, serde refuses the rest.
        let after = format!("{} []", scenario(job));
        assert!(fast(&after) && parse_scenario(&after).is_err());
        assert!(!fast(&format!(r#"[{{"jobs": {job}}}]"#)));
    }

    #[test]
    fn plain_strings_end_at_the_first_quote_backslash_or_control_character() {
        for (text, len) in [
            ("", None),
            ("abc", None),
            ("abc\"", Some(3)),
            ("abcdefghijklmnop\"", Some(16)),
            ("abcdefgh\\ijklmnop\"", Some(8)),
            ("ab\u{1f}cdefghij\"", Some(2)),
            ("\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\"", Some(10)),
            ("abcdefg\u{7f}\"", Some(8)),
        ] {
            assert_eq!(plain_len(text.as_bytes()), len, "{text:?}");
        }
    }

    #[test]
    fn text_that_is_not_utf8_is_read_again_whole() {
        let text = scenario("[{\"jobName\": \"j\u{e9}\", \"quotaShareName\": \"a\"}]");
        let bytes = text.as_bytes();
        let e9 = bytes.iter().position(|&c| c == 0xc3).unwrap();
        // A byte that starts no character, in a job, before the list and after it.
        for at in [e9, 10, bytes.len() - 1] {
            let mut bad = bytes.to_vec();
            bad.insert(at, 0xff);
            for size in [1, 5, PIECE] {
                assert!(matches!(in_pieces(&bad, size).0, Streamed::Again), "{at} {size}");
            }
        }
        // A character cut at the end of the text.
        let mut cut = bytes.to_vec();
        cut.push(0xc3);
        assert!(matches!(in_pieces(&cut, 3).0, Streamed::Again));
    }

    #[test]
    fn a_list_read_in_pieces_stops_at_a_job_it_does_not_read_far_from_where_the_text_ends() {
        let job = r#"{"jobName": "j", "quotaShareName": "a", "durationSeconds": 60}"#;
        let jobs = |bad: usize| {
            let mut v: Vec<&str> = alloc::vec![job; 40_000];
            v[bad] = r#"{"jobName": "j\u0031", "quotaShareName": "a"}"#;
            format!("[{}]", v.join(","))
        };
        let text = scenario(&jobs(100));
        let (s, taken) = in_pieces(text.as_bytes(), PIECE);
        assert!(matches!(s, Streamed::Again));
        assert!(taken < text.len(), "read {taken} of {} bytes", text.len());
        // Near the end of a piece, the job is tried again with the next one first.
        let bad = (PIECE - 200) / (job.len() + 1);
        let text = scenario(&jobs(bad));
        assert!(text.len() > PIECE + SLACK);
        assert!(matches!(in_pieces(text.as_bytes(), PIECE).0, Streamed::Again));
        // Many pieces, every job read.
        let text = scenario(&format!("[{}]", [job; 40_000].join(",\n")));
        match in_pieces(text.as_bytes(), PIECE).0 {
            Streamed::Split { jobs, .. } => assert_eq!(jobs, split(&text).unwrap().0),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn keys_are_compared_exactly_at_every_length_and_position() {
        let text = b"\"abcdefghijklmnopqrstuvwxyz0123456789\", ";
        for n in 8..=30 {
            let key = &text[..n];
            assert!(same(text, key), "{n}");
            assert!(same(key, key), "{n}");
            assert!(!same(&key[..n - 1], key), "shorter text, {n}");
            for k in 0..n {
                let mut other = text.to_vec();
                other[k] ^= 0x20;
                assert!(!same(&other, key), "{n} {k}");
            }
        }
        for k in KEYS {
            assert!(k.len() >= 9 && k.starts_with('"') && k.ends_with('"'), "{k}");
        }
    }
}
