//! YAML in and out for the bridges (Kueue files, CloudFormation as YAML), with the `yaml`
//! feature (it needs `std`): documents become JSON values for the pure mappings.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Deserialize;
use serde_json::Value;

use crate::kueue::Document;
use crate::problem::Problem;

/// The most documents one text may hold.
pub const MAX_DOCUMENTS: usize = 1_000_000;

/// Splits YAML text into its documents, as JSON values. A document that does not parse is a
/// problem with its file, document and line; a syntax error ends the stream (nothing after it
/// can be read reliably), but what came before is kept.
pub fn documents(file: &str, text: &str) -> (Vec<Document>, Vec<Problem>) {
    let mut docs = Vec::new();
    let mut problems = Vec::new();
    for (index, de) in serde_norway::Deserializer::from_str(text).enumerate() {
        if index >= MAX_DOCUMENTS {
            problems
                .push(Problem::error(file, format!("more than {MAX_DOCUMENTS} documents: stopped reading")));
            break;
        }
        match Value::deserialize(de) {
            Ok(value) => docs.push(Document { file: file.to_string(), index, value }),
            Err(e) => {
                let line = e.location().map_or(String::new(), |l| format!(", line {}", l.line()));
                problems.push(Problem::error(
                    format!("{file} document {}{line}", index + 1),
                    format!("not YAML: {e}"),
                ));
                break;
            }
        }
    }
    (docs, problems)
}

/// A value as YAML.
pub fn to_yaml(v: &Value) -> String {
    serde_norway::to_string(v).unwrap_or_default()
}

/// Documents as one multi-document YAML text.
pub fn to_yaml_documents(docs: &[Value]) -> String {
    docs.iter().map(|d| format!("---\n{}", to_yaml(d))).collect()
}
