//! Configuration alone (`describe-service-environments`, `list-quota-shares`,
//! `describe-quota-share`), to merge into a scenario on screen.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::read::{envs_of, records, shares_of, Kind};
use crate::import_check::Capped;
use crate::problem::Problem;

/// Configuration alone, to merge into a scenario: quota shares and a service environment
/// (`None` when the input has none), every problem, and what was recognised.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigurationImport {
    /// The quota shares and the service environment the files describe: a share read again replaces
    /// the one read before, and the service environment is the first of the last
    /// `describe-service-environments` record.
    pub configuration: crate::merge::Configuration,
    /// Every problem of reading the files (records skipped, numbers out of range), capped per file and kind.
    pub warnings: Vec<Problem>,
    /// What each file held, one line per file: `shares.json: 1 list-quota-shares`.
    pub recognised: Vec<String>,
}

/// When the files hold only configuration (`describe-service-environments`,
/// `list-quota-shares`, `describe-quota-share`), that configuration; `None` when any record
/// is a job or an event, or nothing is recognised (then `import` is the reader).
pub fn configuration(files: &[(String, String)]) -> Option<ConfigurationImport> {
    let mut problems = Capped::default();
    let mut c = crate::merge::Configuration::default();
    let mut recognised = Vec::new();
    for (file, text) in files {
        let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
        for (kind, v, at) in records(file, text, &mut problems) {
            *kinds.entry(kind.name()).or_default() += 1;
            match kind {
                Kind::ServiceEnvironments => {
                    let mut e = envs_of(&v, &at, file, &mut problems);
                    if !e.is_empty() {
                        c.service_environment = Some(e.swap_remove(0).0);
                    }
                }
                Kind::QuotaShares | Kind::QuotaShare => {
                    for (q, _) in shares_of(kind, v, &at, file, &mut problems) {
                        match c.quota_shares.iter_mut().find(|x| x.quota_share_name == q.quota_share_name) {
                            Some(x) => *x = q,
                            None => c.quota_shares.push(q),
                        }
                    }
                }
                _ => return None,
            }
        }
        let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        recognised
            .push(format!("{file}: {}", if list.is_empty() { "nothing".into() } else { list.join(", ") }));
    }
    (c.service_environment.is_some() || !c.quota_shares.is_empty()).then(|| ConfigurationImport {
        configuration: c,
        warnings: problems.finish(),
        recognised,
    })
}
