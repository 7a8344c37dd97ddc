//! JSON in and out, with field paths in errors (behind the `serde` feature).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Deserialize;

use crate::model::Scenario;
use crate::strict::Strict;
use crate::validate::{validate, Problem, ValidScenario};

/// Parses scenario JSON. A syntax error, a wrong type (an array where an object belongs
/// included), an unknown field or data after the scenario is one problem with the field's path
/// and the line and column where the parser stopped.
pub fn parse_scenario(text: &str) -> Result<Scenario, Problem> {
    // A job list of the usual shape is read by the fast reader and the rest of the file, with
    // `[]` in its place, by serde; anything else, errors included, by serde alone.
    if let Some((jobs, at)) = crate::kernel::fast_jobs::split(text) {
        if let Some(s) = outlined(&text[..at.start], jobs, &text[at.end..]) {
            return Ok(s);
        }
    }
    parse_scenario_serde(text)
}

/// [`parse_scenario`] of a text read in pieces from `read`, which fills the buffer it is given
/// and says how many bytes it wrote, 0 at the end (as `std::io::Read::read` does). A job list
/// of the usual shape is read as the text arrives, so a file of a million jobs is not held as
/// text and as jobs at once. `Ok(None)`: the text is not of that shape (or not UTF-8), found
/// after part of it was let go; read it whole and give it to [`parse_scenario`], which reads
/// it or says what is wrong and where. `Err`: what `read` failed with.
pub fn parse_scenario_pieces<E>(
    read: impl FnMut(&mut [u8]) -> Result<usize, E>,
) -> Result<Option<Result<Scenario, Problem>>, E> {
    use crate::kernel::fast_jobs::pieces::{stream, Streamed};
    Ok(match stream(read)? {
        Streamed::Whole(text) => Some(parse_scenario(&text)),
        Streamed::Again => None,
        Streamed::Split { head, jobs, tail } => outlined(&head, jobs, &tail).map(Ok),
    })
}

/// The scenario whose text is `head`, an empty job list and `tail` (read by serde), with
/// `jobs` (read fast) as its job list; `None` when that text is not a scenario.
fn outlined(head: &str, jobs: Vec<crate::model::Job>, tail: &str) -> Option<Scenario> {
    let mut s = plain(&[head, "[]", tail].concat())?;
    s.jobs = jobs;
    Some(s)
}

/// The scenario if `text` is one, read without tracking paths.
fn plain(text: &str) -> Option<Scenario> {
    let mut de = serde_json::Deserializer::from_str(text);
    let s = Scenario::deserialize(Strict(&mut de)).ok()?;
    de.end().is_ok().then_some(s)
}

/// [`parse_scenario`] by serde alone, without the fast reader of job lists: what it falls
/// back to, public so that tests can hold the two to the same result.
#[doc(hidden)]
pub fn parse_scenario_serde(text: &str) -> Result<Scenario, Problem> {
    // Tracking the path costs a third of the parse; it is needed only to describe an error,
    // so a file is parsed again with it only when the plain parse fails.
    if let Some(s) = plain(text) {
        return Ok(s);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, Scenario>(Strict(&mut de)) {
        Ok(s) => match de.end() {
            Ok(()) => Ok(s),
            Err(e) => Err(Problem::error(
                "",
                format!(
                    "data after the scenario (line {}, column {}): a file holds one scenario",
                    e.line(),
                    e.column()
                ),
            )),
        },
        Err(e) => {
            let path = e.path().to_string();
            // serde_path_to_error writes `?` for a step it could not name (a truncated
            // file): keep the part of the path that is known.
            let path = path.split(".?").next().unwrap_or("").trim_end_matches('?').to_string();
            let path = if path == "." { String::new() } else { path };
            let inner = e.into_inner();
            let msg = strip_position(&format!("{inner}"));
            let where_ = if inner.line() > 0 {
                format!(" (line {}, column {})", inner.line(), inner.column())
            } else {
                String::new()
            };
            let msg = if inner.is_syntax() || inner.is_eof() {
                format!("invalid JSON: {msg}{where_}")
            } else {
                format!("{msg}{where_}")
            };
            Err(Problem::error(path, msg))
        }
    }
}

fn strip_position(s: &str) -> String {
    match s.rfind(" at line ") {
        Some(i) => String::from(&s[..i]),
        None => String::from(s),
    }
}

/// Parses and validates: the scenario with its warnings, or every problem.
pub fn load_scenario(text: &str) -> Result<ValidScenario, Vec<Problem>> {
    let s = parse_scenario(text).map_err(|p| alloc::vec![p])?;
    validate(&s)
}

/// Compact JSON of any result shape; deterministic (R27).
pub fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// Pretty JSON (two-space indent).
pub fn to_json_pretty<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
