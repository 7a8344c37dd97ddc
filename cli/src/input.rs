//! Reading inputs: every file at most [`MAX_INPUT_BYTES`], a problem naming the file when it
//! is not UTF-8 text, and a sweep's base only from a regular file, never quoted when it is not
//! a scenario.

use std::fs::File;
use std::io::{self, Read};
use std::process::ExitCode;

use quotasim::json::{parse_scenario, parse_scenario_pieces};
use quotasim::model::Scenario;
use quotasim::Problem;

use crate::{print_problems, say};

/// The most bytes any input may have, a scenario's included: 2,000,000 jobs (`MAX_JOBS`) of
/// a few hundred bytes each fit with room to spare, and a file that names `/dev/zero` or
/// a log grown without end stops here rather than at the end of memory.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Why an input could not be read: not there (a usage error, exit 2) or not usable text (an
/// invalid input, exit 1).
pub enum ReadError {
    Missing(String),
    Invalid(Problem),
}

/// How an input is named in messages.
pub fn name_of(path: &str) -> &str {
    if path == "-" {
        "standard input"
    } else {
        path
    }
}

fn too_large(path: &str) -> ReadError {
    ReadError::Invalid(Problem::error(
        name_of(path),
        format!("larger than {MAX_INPUT_BYTES} bytes (1 GiB), the most an input may be"),
    ))
}

/// At most `MAX_INPUT_BYTES` of a reader.
fn bounded(path: &str, r: impl Read) -> Result<Vec<u8>, ReadError> {
    let mut b = Vec::new();
    r.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut b)
        .map_err(|e| ReadError::Missing(format!("cannot read {}: {e}", name_of(path))))?;
    if b.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large(path));
    }
    Ok(b)
}

fn read_bytes(path: &str) -> Result<Vec<u8>, ReadError> {
    if path == "-" {
        return bounded(path, io::stdin().lock());
    }
    let f = File::open(path).map_err(|e| ReadError::Missing(format!("cannot read {path}: {e}")))?;
    bounded(path, f)
}

fn text_of(path: &str, b: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(b).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        ReadError::Invalid(Problem::error(
            name_of(path),
            format!("not UTF-8 text (invalid byte at offset {at})"),
        ))
    })
}

/// An input file's text (standard input for `-`).
pub fn read_text(path: &str) -> Result<String, ReadError> {
    text_of(path, read_bytes(path)?)
}

/// Reads an input file (or standard input for `-`); prints why not and gives the exit code.
pub fn read_input(path: &str) -> Result<String, ExitCode> {
    read_text(path).map_err(|e| report(&e))
}

/// A scenario file read and parsed. A regular file is read in pieces
/// ([`parse_scenario_pieces`]), so a file of a million jobs is not held as text and as jobs at
/// once; standard input, anything but a regular file, and a file not of the usual shape (or
/// one that cannot be read that way) are read whole, as [`read_input`] reads them. `Err`: the
/// file could not be read (said already; the exit code); `Ok(Err)`: what is wrong with it.
pub fn read_scenario(path: &str) -> Result<Result<Scenario, Problem>, ExitCode> {
    if path != "-" {
        let small = |f: &File| f.metadata().is_ok_and(|m| m.len() <= MAX_INPUT_BYTES);
        if let Ok(Some(mut f)) = open_regular(path).map(|f| f.filter(small)) {
            let mut total = 0u64;
            let read = |b: &mut [u8]| loop {
                match f.read(b) {
                    Ok(n) => {
                        total += n as u64;
                        return if total > MAX_INPUT_BYTES { Err(()) } else { Ok(n) };
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => return Err(()),
                }
            };
            if let Ok(Some(parsed)) = parse_scenario_pieces(read) {
                return Ok(parsed);
            }
        }
    }
    read_input(path).map(|text| parse_scenario(&text))
}

/// Prints why an input could not be read; the exit code.
pub fn report(e: &ReadError) -> ExitCode {
    match e {
        ReadError::Missing(m) => {
            say(&format!("quotasim: {m}"));
            ExitCode::from(2)
        }
        ReadError::Invalid(p) => {
            print_problems(std::slice::from_ref(p));
            ExitCode::from(1)
        }
    }
}

/// Files' texts, each with its path.
pub type Texts = Vec<(String, String)>;

/// The files of an import, named by their paths: a file that is not UTF-8 text (or too large)
/// is a problem naming it and is skipped, so the others are still read. A file that cannot be
/// opened stops the command (a usage error).
pub fn read_import(files: &[String]) -> Result<(Texts, Vec<Problem>), ExitCode> {
    let mut texts = Vec::new();
    let mut skipped = Vec::new();
    for f in files {
        match read_text(f) {
            Ok(t) => texts.push((f.clone(), t)),
            Err(ReadError::Invalid(p)) => {
                skipped.push(Problem::error(p.path, format!("{}; file skipped", p.message)))
            }
            Err(e) => return Err(report(&e)),
        }
    }
    Ok((texts, skipped))
}

/// Opens a file only when it is a regular file, without waiting on a FIFO or a device: the
/// open does not block, and the file opened is checked again (it may have been swapped).
#[cfg(unix)]
fn open_regular(path: &str) -> io::Result<Option<File>> {
    use std::os::unix::fs::OpenOptionsExt;
    if !std::fs::metadata(path)?.is_file() {
        return Ok(None);
    }
    let f = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    Ok(f.metadata()?.is_file().then_some(f))
}

#[cfg(not(unix))]
fn open_regular(path: &str) -> io::Result<Option<File>> {
    if !std::fs::metadata(path)?.is_file() {
        return Ok(None);
    }
    let f = File::open(path)?;
    Ok(f.metadata()?.is_file().then_some(f))
}

/// A file named inside another input (a sweep's base): read only when it is a regular file of
/// at most `MAX_INPUT_BYTES`. `what` names the field that named it (`base`).
pub fn read_regular(what: &str, path: &str) -> Result<String, ReadError> {
    let f = match open_regular(path) {
        Ok(Some(f)) => f,
        Ok(None) => {
            return Err(ReadError::Invalid(Problem::error(
                what,
                format!("{path} is not a regular file: only a regular file is read"),
            )))
        }
        Err(e) => return Err(ReadError::Missing(format!("{what}: cannot read {path}: {e}"))),
    };
    if f.metadata().map_or(0, |m| m.len()) > MAX_INPUT_BYTES {
        return Err(too_large(path));
    }
    text_of(path, bounded(path, f)?)
}
