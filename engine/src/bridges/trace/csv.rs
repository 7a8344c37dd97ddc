//! CSV records (RFC 4180 quoting, with `csv-core`), each with the line it starts on.

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

/// One CSV record with the line it starts on.
pub(super) struct Row {
    pub(super) line: u64,
    pub(super) fields: Vec<String>,
}

/// Splits CSV text into records (RFC 4180 quoting) with `csv-core`.
pub(super) fn csv_rows(text: &str) -> Vec<Row> {
    let mut rdr = csv_core::Reader::new();
    let mut input = text.as_bytes();
    let mut out = vec![0u8; 4096];
    let mut ends = vec![0usize; 64];
    let (mut nout, mut nend) = (0, 0);
    let mut rows = Vec::new();
    let mut line = 1u64;
    let mut start_line = 1u64;
    loop {
        if nout == 0 && nend == 0 {
            // Blank lines between records: counted here so a record knows its first line.
            while let Some(rest) = input.strip_prefix(b"\n").or_else(|| input.strip_prefix(b"\r\n")) {
                input = rest;
                line += 1;
            }
            start_line = line;
        }
        let (res, nin, o, e) = rdr.read_record(input, &mut out[nout..], &mut ends[nend..]);
        line += input[..nin].iter().filter(|b| **b == b'\n').count() as u64;
        input = &input[nin..];
        nout += o;
        nend += e;
        match res {
            csv_core::ReadRecordResult::InputEmpty => {
                if input.is_empty() {
                    // Tells the reader the input has ended.
                    continue_end(&mut rdr, &mut out, &mut ends, &mut nout, &mut nend, &mut rows, start_line);
                    break;
                }
            }
            csv_core::ReadRecordResult::OutputFull => {
                let n = out.len() * 2;
                out.resize(n, 0);
            }
            csv_core::ReadRecordResult::OutputEndsFull => {
                let n = ends.len() * 2;
                ends.resize(n, 0);
            }
            csv_core::ReadRecordResult::Record => {
                push_row(&out[..nout], &ends[..nend], start_line, &mut rows);
                nout = 0;
                nend = 0;
            }
            csv_core::ReadRecordResult::End => break,
        }
    }
    rows
}

fn continue_end(
    rdr: &mut csv_core::Reader,
    out: &mut Vec<u8>,
    ends: &mut Vec<usize>,
    nout: &mut usize,
    nend: &mut usize,
    rows: &mut Vec<Row>,
    start_line: u64,
) {
    loop {
        let (res, _, o, e) = rdr.read_record(&[], &mut out[*nout..], &mut ends[*nend..]);
        *nout += o;
        *nend += e;
        match res {
            csv_core::ReadRecordResult::Record => {
                push_row(&out[..*nout], &ends[..*nend], start_line, rows);
                *nout = 0;
                *nend = 0;
            }
            csv_core::ReadRecordResult::OutputFull => {
                let n = out.len() * 2;
                out.resize(n, 0);
            }
            csv_core::ReadRecordResult::OutputEndsFull => {
                let n = ends.len() * 2;
                ends.resize(n, 0);
            }
            _ => return,
        }
    }
}

fn push_row(out: &[u8], ends: &[usize], line: u64, rows: &mut Vec<Row>) {
    let mut fields = Vec::with_capacity(ends.len());
    let mut from = 0;
    for &e in ends {
        fields.push(String::from_utf8_lossy(&out[from..e]).trim().to_string());
        from = e;
    }
    // A blank line is no record.
    if !(fields.len() == 1 && fields[0].is_empty()) {
        rows.push(Row { line, fields });
    }
}
