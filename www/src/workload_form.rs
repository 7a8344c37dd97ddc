//! The workload generator's form, as text the user types, and its translation to and from the
//! scenario's `workload` section (expanded by the engine's one generator).
//!
//! Lists are typed as `value:weight` pairs separated by commas (`1:3, 2, 8`: one instance three
//! times as often as two or eight); a value without `:weight` has weight 1.

use quotasim::model::Scenario;
use quotasim::workload::{
    ArrivalRate, Distribution, DurationSpec, PercentOf, ShareWorkload, WeightedPriority, WeightedSize,
    WeightedType, Workload,
};

/// One quota share's row of the form.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareRow {
    pub share: String,
    /// Whether the share submits generated work.
    pub on: bool,
    pub weight: String,
    pub instance_type: String,
    /// Arrivals per hour, or 24 of them (one per hour of the day) separated by commas; empty:
    /// paced by the offered load.
    pub arrivals: String,
    pub sizes: String,
    pub priorities: String,
    /// Index into [`Distribution::ALL`].
    pub distribution: usize,
    pub min_seconds: String,
    pub max_seconds: String,
    /// An empirical distribution's values (kept as they came: the form does not edit them).
    pub values: Vec<i64>,
    /// The section's entry the row was read from: what the form does not show (the entry's
    /// own job count, an instance type mix, a checkpoint mix, retries) is written back from
    /// it while the fields that show it are as they were read.
    pub kept: Option<ShareWorkload>,
    pub checkpoint_percent: String,
    pub checkpoint_every: String,
}

/// The whole form.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub jobs: String,
    pub load_percent: String,
    pub seed: String,
    pub start_at: String,
    pub rows: Vec<ShareRow>,
}

/// A problem with the form: the field (as labelled on screen) and what is wrong.
pub type FormError = String;

fn types_of(s: &Scenario, share: &str) -> Vec<String> {
    let mut out: Vec<String> = s
        .quota_shares
        .iter()
        .find(|q| q.quota_share_name == share)
        .map(|q| q.capacity_limits.iter().map(|l| l.capacity_unit.clone()).collect())
        .unwrap_or_default();
    if out.is_empty() {
        out.push(crate::edit::first_type(s));
    }
    out
}

/// The instance types a share's row may pick: the share's own first, then the service
/// environment's.
pub fn type_choices(s: &Scenario, share: &str) -> Vec<String> {
    let mut out = types_of(s, share);
    for l in &s.service_environment.capacity_limits {
        if !out.contains(&l.capacity_unit) {
            out.push(l.capacity_unit.clone());
        }
    }
    out
}

fn pairs<T: ToString>(items: impl Iterator<Item = (T, i64)>) -> String {
    items
        .map(|(v, w)| if w == 1 { v.to_string() } else { format!("{}:{w}", v.to_string()) })
        .collect::<Vec<_>>()
        .join(", ")
}

fn default_row(s: &Scenario, share: &str) -> ShareRow {
    ShareRow {
        share: share.to_string(),
        on: true,
        weight: "1".into(),
        instance_type: types_of(s, share).remove(0),
        arrivals: String::new(),
        sizes: "1:3, 2:2, 4".into(),
        priorities: "0:3, 10".into(),
        distribution: 3,
        min_seconds: "1800".into(),
        max_seconds: "86400".into(),
        values: Vec::new(),
        kept: None,
        checkpoint_percent: "80".into(),
        checkpoint_every: "900".into(),
    }
}

fn row_of(s: &Scenario, e: &ShareWorkload) -> ShareRow {
    let d = &e.duration;
    let ck = e.checkpoint.as_ref();
    ShareRow {
        share: e.quota_share_name.clone(),
        on: true,
        weight: e.weight.unwrap_or(1).to_string(),
        instance_type: e
            .instance_types
            .first()
            .map_or_else(|| types_of(s, &e.quota_share_name).remove(0), |t| t.name.clone()),
        arrivals: match &e.arrivals_per_hour {
            None => String::new(),
            Some(ArrivalRate::Flat(r)) => r.to_string(),
            Some(ArrivalRate::ByHour(v)) => v.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", "),
        },
        sizes: if e.sizes.is_empty() {
            "1".into()
        } else {
            pairs(e.sizes.iter().map(|z| (z.instances, z.weight)))
        },
        priorities: if e.priorities.is_empty() {
            "0".into()
        } else {
            pairs(e.priorities.iter().map(|z| (z.priority, z.weight)))
        },
        distribution: Distribution::ALL.iter().position(|(x, _)| *x == d.distribution).unwrap_or(3),
        min_seconds: d.min_seconds.to_string(),
        max_seconds: d.max_seconds.to_string(),
        values: d.values.clone(),
        kept: Some(e.clone()),
        checkpoint_percent: ck.map_or("0".into(), |c| c.percent.to_string()),
        checkpoint_every: ck.and_then(|c| c.values.first()).map_or("900".into(), |v| v.to_string()),
    }
}

/// The form for `s`: its `workload` section when it has one (shares without an entry are
/// off), else one row per share with defaults.
pub fn form_of(s: &Scenario) -> Form {
    let names: Vec<&str> = s.quota_shares.iter().map(|q| q.quota_share_name.as_str()).collect();
    match &s.workload {
        Some(w) => Form {
            // Entries with their own count show their sum (they keep it when written back).
            jobs: w.jobs.unwrap_or_else(|| w.shares.iter().filter_map(|e| e.jobs).sum()).to_string(),
            load_percent: w.load_percent.map_or(String::new(), |l| l.to_string()),
            seed: w.seed.to_string(),
            start_at: w.start_at.to_string(),
            rows: names
                .iter()
                .map(|n| match w.shares.iter().find(|e| e.quota_share_name == *n) {
                    Some(e) => row_of(s, e),
                    None => ShareRow { on: false, ..default_row(s, n) },
                })
                .collect(),
        },
        None => Form {
            jobs: (200 * names.len().max(1)).to_string(),
            load_percent: "90".into(),
            seed: "1".into(),
            start_at: "0".into(),
            rows: names.iter().map(|n| default_row(s, n)).collect(),
        },
    }
}

/// `1:3, 2, 8` as `(value, weight)` pairs.
pub fn parse_weighted(text: &str) -> Result<Vec<(i64, i64)>, String> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|x| !x.is_empty()) {
        let (v, w) = match item.split_once(':') {
            Some((v, w)) => (v.trim(), w.trim()),
            None => (item, "1"),
        };
        let v = v.parse::<i64>().map_err(|_| format!("'{v}' is not a whole number"))?;
        let w = w.parse::<i64>().map_err(|_| format!("weight '{w}' is not a whole number"))?;
        if w < 0 {
            return Err(format!("weight {w} is below 0"));
        }
        out.push((v, w));
    }
    if out.is_empty() {
        return Err("give at least one value".into());
    }
    Ok(out)
}

fn whole(field: &str, text: &str) -> Result<i64, FormError> {
    text.trim().parse::<i64>().map_err(|_| format!("{field}: '{}' is not a whole number", text.trim()))
}

/// The `workload` section the form describes; the first problem names its field.
pub fn workload_of(f: &Form) -> Result<Workload, FormError> {
    let jobs = whole("Jobs in all", &f.jobs)?;
    let load = f.load_percent.trim();
    let load_percent = if load.is_empty() {
        None
    } else {
        Some(load.parse::<f64>().map_err(|_| format!("Offered load: '{load}' is not a number"))?)
    };
    let mut shares = Vec::new();
    for r in f.rows.iter().filter(|r| r.on) {
        let at = |field: &str| format!("{} {field}", r.share);
        let arrivals = r.arrivals.trim();
        let number = |x: &str| {
            x.trim()
                .parse::<f64>()
                .map_err(|_| format!("{}: '{}' is not a number", at("arrivals/h"), x.trim()))
        };
        let arrivals_per_hour = if arrivals.is_empty() {
            None
        } else if arrivals.contains(',') {
            Some(ArrivalRate::ByHour(arrivals.split(',').map(number).collect::<Result<_, _>>()?))
        } else {
            Some(ArrivalRate::Flat(number(arrivals)?))
        };
        let sizes = parse_weighted(&r.sizes).map_err(|e| format!("{}: {e}", at("sizes")))?;
        let prios = parse_weighted(&r.priorities).map_err(|e| format!("{}: {e}", at("priorities")))?;
        let percent = whole(&at("checkpoint %"), &r.checkpoint_percent)?;
        let every = whole(&at("checkpoint every"), &r.checkpoint_every)?;
        let kept = r.kept.as_ref();
        let instance_types = match kept {
            Some(k) if k.instance_types.first().is_some_and(|t| t.name == r.instance_type) => {
                k.instance_types.clone()
            }
            _ => vec![WeightedType { name: r.instance_type.clone(), weight: 1 }],
        };
        let checkpoint = match kept.and_then(|k| k.checkpoint.as_ref()) {
            Some(c) if c.percent == percent && c.values.first() == Some(&every) => Some(c.clone()),
            _ => (percent > 0).then(|| PercentOf { percent, values: vec![every] }),
        };
        shares.push(ShareWorkload {
            quota_share_name: r.share.clone(),
            weight: Some(whole(&at("weight"), &r.weight)?),
            jobs: kept.and_then(|k| k.jobs),
            arrivals_per_hour,
            instance_types,
            sizes: sizes.into_iter().map(|(instances, weight)| WeightedSize { instances, weight }).collect(),
            duration: DurationSpec {
                distribution: Distribution::ALL[r.distribution.min(Distribution::ALL.len() - 1)].0,
                min_seconds: whole(&at("min duration"), &r.min_seconds)?,
                max_seconds: whole(&at("max duration"), &r.max_seconds)?,
                values: if Distribution::ALL.get(r.distribution).map(|d| d.0) == Some(Distribution::Empirical)
                {
                    r.values.clone()
                } else {
                    Vec::new()
                },
            },
            priorities: prios
                .into_iter()
                .map(|(priority, weight)| WeightedPriority { priority, weight })
                .collect(),
            checkpoint,
            preemption_retries: kept.and_then(|k| k.preemption_retries.clone()),
        });
    }
    if shares.is_empty() {
        return Err("Turn on at least one quota share".into());
    }
    Ok(Workload {
        seed: whole("Seed", &f.seed)?,
        jobs: Some(jobs),
        load_percent,
        start_at: whole("First arrivals at", &f.start_at)?,
        shares,
    })
}

/// How many jobs each share's entry gets, as text (`team-a 120, team-b 80`), or the engine's
/// first problem with its path.
pub fn describe(s: &Scenario) -> Result<String, String> {
    let jobs =
        quotasim::workload::expand(s).map_err(|p| p.first().map(|p| p.to_string()).unwrap_or_default())?;
    let Some(w) = &s.workload else { return Ok(String::new()) };
    let parts: Vec<String> = w
        .shares
        .iter()
        .map(|e| {
            let n = jobs.iter().filter(|j| j.quota_share_name == e.quota_share_name).count();
            format!("{} {n}", e.quota_share_name)
        })
        .collect();
    Ok(format!("{} generated jobs (seed {}): {}", jobs.len(), w.seed, parts.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn notebook() -> Scenario {
        presets::scenario(presets::NOTEBOOK).expect("preset parses")
    }

    #[test]
    fn a_fitted_section_s_hourly_rates_and_empirical_values_survive_the_form() {
        // A history over 4 days: the fit gives rates per hour of the day and, with 20 jobs or
        // more per share, empirical durations; the form shows and gives back both.
        let mut s = notebook();
        let template = s.jobs[0].clone();
        s.jobs = (0..60)
            .map(|k| {
                let mut j = template.clone();
                j.job_name = format!("h-{k}").into();
                j.submit_at = k * 6000;
                j.duration_seconds = Some(600 + 60 * k);
                j
            })
            .collect();
        s.actions.clear();
        let fitted = quotasim::fit_workload::fit_workload(&s).expect("a fit").scenario;
        let f = form_of(&fitted);
        let row = f.rows.iter().find(|r| r.on).expect("the share with jobs");
        assert_eq!(row.arrivals.split(',').count(), 24, "{}", row.arrivals);
        assert_eq!(Distribution::ALL[row.distribution].0, Distribution::Empirical);
        let w = workload_of(&f).expect("the form gives a section back");
        let e = &w.shares[0];
        let original = &fitted.workload.as_ref().unwrap().shares[0];
        assert_eq!(e.arrivals_per_hour, original.arrivals_per_hour);
        assert_eq!(e.duration, original.duration);
        // What the form does not show comes back too: "Generate" and "Another seed" after a
        // fit give the fitted jobs, not none.
        assert_eq!(ShareWorkload { weight: original.weight, ..e.clone() }, *original);
        assert_eq!(f.jobs, "60");
        let next = Scenario { workload: Some(w), ..fitted.clone() };
        assert_eq!(quotasim::workload::expand(&next).unwrap().len(), 60);
    }

    #[test]
    fn a_form_for_every_share_makes_a_valid_workload_in_one_step() {
        let mut s = notebook();
        let f = form_of(&s);
        assert_eq!(f.rows.len(), s.quota_shares.len());
        s.workload = Some(workload_of(&f).expect("defaults are valid"));
        let v = quotasim::validate(&s).expect("valid with its generated jobs");
        assert_eq!(v.jobs.len(), s.jobs.len() + 200 * s.quota_shares.len());
        assert!(describe(&s).unwrap().contains("generated jobs (seed 1)"));
    }

    #[test]
    fn the_form_reads_back_the_section_it_wrote() {
        let mut s = notebook();
        let mut f = form_of(&s);
        f.rows[1].on = false;
        f.rows[0].sizes = "1:3, 2".into();
        f.rows[0].arrivals = "2.5".into();
        f.seed = "9".into();
        let w = workload_of(&f).unwrap();
        assert_eq!(w.shares.len(), s.quota_shares.len() - 1);
        s.workload = Some(w.clone());
        let back = form_of(&s);
        assert_eq!(back.rows[0].sizes, "1:3, 2");
        assert_eq!(back.rows[0].arrivals, "2.5");
        assert!(!back.rows[1].on);
        assert_eq!(workload_of(&back).unwrap(), w);
    }

    #[test]
    fn another_seed_is_other_jobs() {
        let mut s = notebook();
        let mut f = form_of(&s);
        s.workload = Some(workload_of(&f).unwrap());
        let a = quotasim::workload::expand(&s).unwrap();
        f.seed = "2".into();
        s.workload = Some(workload_of(&f).unwrap());
        assert_ne!(a, quotasim::workload::expand(&s).unwrap());
    }

    #[test]
    fn bad_text_names_its_field() {
        let s = notebook();
        let mut f = form_of(&s);
        f.rows[0].sizes = "1:x".into();
        assert!(workload_of(&f).unwrap_err().contains("sizes: weight 'x'"));
        let mut f = form_of(&s);
        f.jobs = "many".into();
        assert!(workload_of(&f).unwrap_err().starts_with("Jobs in all"));
        assert_eq!(parse_weighted("1:3, 2,8").unwrap(), vec![(1, 3), (2, 1), (8, 1)]);
        assert!(parse_weighted(" ").is_err());
        let mut f = form_of(&s);
        for r in &mut f.rows {
            r.on = false;
        }
        assert!(workload_of(&f).is_err());
    }
}
