//! Kubernetes' vocabulary as the Kueue bridge uses it: the GPU resource, node labels and
//! annotations, quantities, object names, and GPUs per instance type.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use crate::model::{InstanceTypeInfo, GPU_CATALOGUE};
use crate::validate::MAX_SAFE;

/// The GPU resource name.
pub const GPU: &str = "nvidia.com/gpu";
/// The node label naming an instance type.
pub const TYPE_LABEL: &str = "node.kubernetes.io/instance-type";
/// The node label with a node's GPU count.
pub const GPU_LABEL: &str = "nvidia.com/gpu.count";
/// The Cohort annotation with the service environment's capacity per instance type.
pub const CAPACITY_ANNOTATION: &str = "quotasim.dev/service-environment-capacity";
/// The ClusterQueue annotation with its quota share's name, where the queue's own name had to
/// differ (a Kubernetes name is lower case, `_` is not allowed, and names must not collide).
pub const SHARE_ANNOTATION: &str = "quotasim.dev/quota-share-name";

/// A Kubernetes quantity as a number (`16`, `"16"`, `"1.5"`, `"2k"`); `None` if it is not one.
pub fn quantity(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let s = s.trim();
            let (num, mult) = match s.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
                Some((i, _)) => {
                    let m = match &s[i..] {
                        "k" => 1e3,
                        "M" => 1e6,
                        "G" => 1e9,
                        "Ki" => 1024.0,
                        "Mi" => 1024.0 * 1024.0,
                        "m" => 1e-3,
                        _ => return None,
                    };
                    (&s[..i], m)
                }
                None => (s, 1.0),
            };
            num.parse::<f64>().ok().map(|x| x * mult)
        }
        _ => None,
    }
}

/// GPUs per instance of a type: the scenario's `instanceTypes`, else the catalogue.
pub(super) fn gpus_of_type(name: &str, s_types: &[InstanceTypeInfo]) -> Option<i64> {
    s_types
        .iter()
        .find(|t| t.name == name && t.gpus > 0)
        .map(|t| t.gpus)
        .or_else(|| GPU_CATALOGUE.iter().find(|(n, _)| *n == name).map(|(_, g)| *g))
}

/// A Kubernetes object name from an instance type or a share name: lower case, `-` for
/// anything but letters, digits, `-` and `.`, each `.`-separated part starting and ending with
/// a letter or digit, at most 63 characters, `x` for nothing. A name that already is one is
/// kept as it is.
pub fn k8s_name(s: &str) -> String {
    if is_k8s_name(s) {
        return s.to_string();
    }
    let mapped: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c.to_ascii_lowercase() } else { '-' })
        .collect();
    // Each part between dots trimmed of `-` at its ends; empty parts dropped.
    let parts: Vec<&str> = mapped.split('.').map(|p| p.trim_matches('-')).filter(|p| !p.is_empty()).collect();
    let mut out = parts.join(".");
    out.truncate(63);
    while out.ends_with(['-', '.']) {
        out.pop();
    }
    if out.is_empty() {
        out.push('x');
    }
    out
}

/// Whether `s` is a Kubernetes object name (an RFC 1123 subdomain of at most 63 characters):
/// lower-case letters, digits, `-` and `.`, each `.`-separated part starting and ending with
/// a letter or digit.
pub fn is_k8s_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.split('.').all(|p| {
            !p.is_empty()
                && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !p.starts_with('-')
                && !p.ends_with('-')
        })
}

/// Kubernetes names for `names`, valid and unique: a name that already is one is kept; another
/// becomes its [`k8s_name`]; when names would share one, each that was changed gets `-` and the
/// first 8 hex digits of the SHA-256 of its own name (the name cut to make room), so the
/// suffix depends on the name alone, never on the order; `-2`, `-3` ... if still taken.
pub fn k8s_names(names: &[&str]) -> Vec<String> {
    use sha2::{Digest, Sha256};
    let base: Vec<String> = names.iter().map(|n| k8s_name(n)).collect();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for b in &base {
        *count.entry(b.as_str()).or_default() += 1;
    }
    let kept: alloc::collections::BTreeSet<&str> =
        names.iter().zip(&base).filter(|(n, b)| **n == b.as_str()).map(|(n, _)| *n).collect();
    let fit = |stem: &str, suffix: &str| {
        let mut stem = String::from(stem);
        while stem.len() + suffix.len() > 63 {
            stem.pop();
        }
        while stem.ends_with(['-', '.']) {
            stem.pop();
        }
        stem + suffix
    };
    let mut taken: alloc::collections::BTreeSet<String> = alloc::collections::BTreeSet::new();
    let mut out = Vec::with_capacity(names.len());
    for (n, b) in names.iter().zip(&base) {
        let changed = *n != b.as_str();
        let mut name = if changed && (count[b.as_str()] > 1 || kept.contains(b.as_str())) {
            let h = Sha256::digest(n.as_bytes());
            let hex: String = h.iter().take(4).map(|x| format!("{x:02x}")).collect();
            fit(b, &format!("-{hex}"))
        } else {
            b.clone()
        };
        let mut k = 2;
        while taken.contains(&name) {
            name = fit(b, &format!("-{k}"));
            k += 1;
        }
        taken.insert(name.clone());
        out.push(name);
    }
    out
}

/// A quantity in Kueue's YAML: a number up to 2^53 - 1, else its digits as a string (a
/// Kubernetes quantity may be either), so that no number in the output passes 2^53 - 1.
pub(super) fn kueue_quantity(n: i128) -> Value {
    match i64::try_from(n) {
        Ok(x) if (-MAX_SAFE..=MAX_SAFE).contains(&x) => x.into(),
        _ => Value::String(format!("{n}")),
    }
}
