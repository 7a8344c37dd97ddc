//! A problem found in a scenario or an input file: the path of the field, a severity and a
//! message a person understands, bounded in length and free of control characters.

use alloc::format;
use alloc::string::String;
use core::fmt;

/// How serious a [`Problem`] is; `error` or `warning` in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Severity {
    /// Something is wrong; a scenario with an error does not run.
    Error,
    /// Worth knowing (R3 oversubscription, capacity no share owns, ...); nothing is refused.
    Warning,
}

/// One thing wrong (or worth knowing) about a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Problem {
    /// `path`: the field's path in the scenario JSON, e.g. `jobs[3].instanceCount`; empty for
    /// the root.
    pub path: String,
    /// `severity`: an error or a warning.
    pub severity: Severity,
    /// `message`: what is wrong, for a person; at most [`MAX_MESSAGE`] bytes, control characters
    /// escaped.
    pub message: String,
}

/// The longest problem message, in bytes: a message quoting a huge value from the input is
/// cut, so a hostile file cannot make an error report of its own size. It bounds a problem's
/// whole line too (severity, path and message), and every other message ([`message_line`]).
pub const MAX_MESSAGE: usize = 4096;

/// Text from the input as it may be shown anywhere, a terminal included: control characters
/// (escape sequences, bells, NULs) become `\u{..}` escapes, never sent.
pub fn printable(s: &str) -> String {
    s.chars().fold(String::with_capacity(s.len()), |mut out, c| {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
        out
    })
}

/// A path or message made [`printable`] (it may quote the input) and cut to at most
/// [`MAX_MESSAGE`] bytes (on a character boundary), saying so.
fn bounded(s: String) -> String {
    let mut s = if s.contains(char::is_control) { printable(&s) } else { s };
    if s.len() > MAX_MESSAGE {
        let mut at = MAX_MESSAGE - 40;
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        let n = s.len();
        s.truncate(at);
        s.push_str(&format!("... ({n} bytes, cut)"));
    }
    s
}

/// One line of a message for a person, whatever it quotes: control characters escaped
/// ([`printable`]) and at most [`MAX_MESSAGE`] bytes, cut on a character boundary, saying so.
/// Every message a front end writes goes through it, a [`Problem`]'s line included.
pub fn message_line(s: &str) -> String {
    bounded(String::from(s))
}

impl Problem {
    /// An error at `path`; path and message are made [`printable`] and cut to [`MAX_MESSAGE`]
    /// bytes.
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem { path: bounded(path.into()), severity: Severity::Error, message: bounded(message.into()) }
    }
    /// A warning at `path`; path and message are made [`printable`] and cut to [`MAX_MESSAGE`]
    /// bytes.
    pub fn warning(path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem { path: bounded(path.into()), severity: Severity::Warning, message: bounded(message.into()) }
    }
    /// Whether it is an error (a scenario with one does not run).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        // The path and the message are each bounded; the line is bounded as a whole.
        let line = if self.path.is_empty() {
            format!("{sev}: {}", self.message)
        } else {
            format!("{sev}: {}: {}", self.path, self.message)
        };
        f.write_str(&bounded(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn a_problem_line_is_bounded_as_a_whole_and_escaped() {
        let p = Problem::error("p".repeat(10_000), "m\u{1b}".repeat(10_000));
        let line = p.to_string();
        assert!(line.len() <= MAX_MESSAGE, "{} bytes", line.len());
        assert!(!line.contains('\u{1b}'));
        assert!(line.starts_with("error: ppp"), "{line}");
        assert!(line.ends_with("bytes, cut)"), "{line}");
        let m = message_line(&alloc::format!("row \u{1b}[2J{}", "x".repeat(100_000)));
        assert!(m.len() <= MAX_MESSAGE && m.starts_with("row \\u{1b}[2J"), "{}", &m[..20]);
        assert_eq!(message_line("short"), "short");
    }
}
