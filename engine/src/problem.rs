//! A problem found in a scenario or an input file: the path of the field, a severity and a
//! message a person understands, bounded in length and free of control characters.

use alloc::format;
use alloc::string::String;
use core::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Severity {
    Error,
    Warning,
}

/// One thing wrong (or worth knowing) about a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Problem {
    /// Path of the field in the scenario JSON, e.g. `jobs[3].instanceCount`; empty for the root.
    pub path: String,
    pub severity: Severity,
    pub message: String,
}

/// The longest problem message, in bytes: a message quoting a huge value from the input is
/// cut, so a hostile file cannot make an error report of its own size.
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

impl Problem {
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem { path: bounded(path.into()), severity: Severity::Error, message: bounded(message.into()) }
    }
    pub fn warning(path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem { path: bounded(path.into()), severity: Severity::Warning, message: bounded(message.into()) }
    }
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
        if self.path.is_empty() {
            write!(f, "{sev}: {}", self.message)
        } else {
            write!(f, "{sev}: {}: {}", self.path, self.message)
        }
    }
}
