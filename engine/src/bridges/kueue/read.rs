//! Reading Kueue documents: each recognised by its kind, ResourceFlavors as instance types,
//! Cohorts and ClusterQueues kept for the next stages, and what AWS cannot express said with its
//! document and field. The first of an import's three stages (read, map, assemble).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

use super::k8s::{quantity, GPU_LABEL, TYPE_LABEL};
use crate::import_check::{Capped, Origin};
use crate::problem::Problem;
use crate::validate::MAX_SAFE;

/// One parsed YAML document: its file, its position in the file (from 0) and its content.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The name of the file it came from.
    pub file: String,
    /// Its position among the file's documents, from 0 (problems say `document 1` for 0).
    pub index: usize,
    /// Its content, as a JSON value.
    pub value: Value,
}

fn at(d: &Document, path: &str) -> String {
    format!("{} document {}: {path}", d.file, d.index + 1)
}

/// A ResourceFlavor: its instance type and, when its node labels say, GPUs per instance.
pub(super) struct Flavor {
    pub instance_type: String,
    pub gpus: Option<i64>,
}

/// Problems of an import, at most [`crate::import_check::MAX_PER_FILE`] warnings and as many
/// errors listed per file, the rest counted: a file of a million documents gives a few dozen
/// lines.
#[derive(Default)]
pub(super) struct Problems {
    pub warnings: Capped,
    pub errors: Capped,
}

impl Problems {
    pub fn warn(&mut self, d: &Document, path: &str, message: impl Into<String>) {
        self.warnings.push_with(&d.file, "warnings", false, || Problem::warning(at(d, path), message));
    }
    pub fn error(&mut self, d: &Document, path: &str, message: impl Into<String>) {
        self.errors.push_with(&d.file, "errors", true, || Problem::error(at(d, path), message));
    }
}

/// A quantity of GPUs within 0..=2^53 - 1, or why not.
pub(super) fn gpu_quantity(v: &Value) -> Result<f64, &'static str> {
    match quantity(v) {
        Some(q) if (0.0..=MAX_SAFE as f64).contains(&q) => Ok(q),
        Some(_) => Err("a quantity from 0 to 2^53 - 1 GPUs is needed"),
        None => Err("not a quantity"),
    }
}

/// The files of the documents, in order of first appearance, to say where a share came from.
pub(super) struct Files<'a> {
    pub names: Vec<String>,
    index: BTreeMap<&'a str, usize>,
}

impl<'a> Files<'a> {
    fn new(docs: &'a [Document]) -> Self {
        let mut f = Files { names: Vec::new(), index: BTreeMap::new() };
        for d in docs {
            if !f.index.contains_key(d.file.as_str()) {
                f.index.insert(d.file.as_str(), f.names.len());
                f.names.push(d.file.clone());
            }
        }
        f
    }

    /// Where a document is, as an origin of what is made from it.
    pub fn origin(&self, d: &Document) -> Origin {
        Origin {
            file: self.index.get(d.file.as_str()).copied().unwrap_or(usize::MAX),
            at: format!("{} document {}", d.file, d.index + 1),
        }
    }
}

/// The documents read: flavors by name, how many of each kind, the cohorts and the queues.
pub(super) struct Read<'a> {
    pub flavors: BTreeMap<String, Flavor>,
    pub counts: BTreeMap<&'static str, usize>,
    pub cohorts: Vec<(String, &'a Document)>,
    pub queues: Vec<&'a Document>,
    pub files: Files<'a>,
}

/// Reads every document; what is not a Kueue object, or lacks a name, is a problem and
/// skipped.
pub(super) fn read<'a>(docs: &'a [Document], p: &mut Problems) -> Read<'a> {
    let mut r = Read {
        flavors: BTreeMap::new(),
        counts: BTreeMap::new(),
        cohorts: Vec::new(),
        queues: Vec::new(),
        files: Files::new(docs),
    };
    for d in docs {
        if d.value.is_null() {
            continue;
        }
        let kind = d.value.get("kind").and_then(Value::as_str).unwrap_or("");
        let name = d.value.pointer("/metadata/name").and_then(Value::as_str).map(String::from);
        let api = d.value.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let known = matches!(
            kind,
            "ResourceFlavor" | "ClusterQueue" | "Cohort" | "LocalQueue" | "WorkloadPriorityClass"
        );
        if !known {
            p.warn(d, "kind", format!("a {kind:?} is not a Kueue object this import reads; skipped"));
            continue;
        }
        if !api.starts_with("kueue.x-k8s.io/") {
            p.warn(d, "apiVersion", format!("{api:?} is not kueue.x-k8s.io; read as Kueue anyway"));
        }
        let Some(name) = name else {
            p.error(d, "metadata.name", format!("a {kind} needs metadata.name"));
            continue;
        };
        *r.counts
            .entry(match kind {
                "ResourceFlavor" => "ResourceFlavors",
                "ClusterQueue" => "ClusterQueues",
                "Cohort" => "Cohorts",
                "LocalQueue" => "LocalQueues",
                _ => "WorkloadPriorityClasses",
            })
            .or_default() += 1;
        match kind {
            "ResourceFlavor" => {
                let f = flavor(d, &name, p);
                r.flavors.insert(name, f);
            }
            "Cohort" => {
                cohort(d, p);
                r.cohorts.push((name, d));
            }
            "ClusterQueue" => r.queues.push(d),
            _ => {}
        }
    }
    r
}

/// A ResourceFlavor: its instance type label (else its name) and GPU count label.
fn flavor(d: &Document, name: &str, p: &mut Problems) -> Flavor {
    let labels = d.value.pointer("/spec/nodeLabels");
    let instance_type = labels
        .and_then(|l| l.get(TYPE_LABEL))
        .and_then(Value::as_str)
        .map_or_else(|| name.into(), String::from);
    let gpus = match labels.and_then(|l| l.get(GPU_LABEL)) {
        None => None,
        Some(v) => match quantity(v) {
            Some(g) if g >= 1.0 && g <= MAX_SAFE as f64 && libm::floor(g) == g => Some(g as i64),
            _ => {
                p.warn(d, &format!("spec.nodeLabels.{GPU_LABEL}"), "not a whole number of GPUs; ignored");
                None
            }
        },
    };
    Flavor { instance_type, gpus }
}

/// A Cohort's fields AWS has no equivalent of, said.
fn cohort(d: &Document, p: &mut Problems) {
    if d.value.pointer("/spec/parentName").is_some() || d.value.pointer("/spec/parent").is_some() {
        p.warn(
            d,
            "spec.parentName",
            "hierarchical cohorts have no AWS equivalent: the hierarchy is flattened into one job queue",
        );
    }
    if d.value.pointer("/spec/resourceGroups").is_some() {
        p.warn(d, "spec.resourceGroups", "quota held by a cohort itself has no AWS equivalent; ignored");
    }
    if d.value.pointer("/spec/fairSharing").is_some() {
        p.warn(d, "spec.fairSharing", "fair-sharing weights have no AWS equivalent; ignored");
    }
}
