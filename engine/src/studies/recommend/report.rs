//! The recommendation and its proof: the report's shape (JSON) and its text.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::search::State;
use super::space::Config;
use super::study::{median, Evaluation, Study, FORMAT_VERSION};
use crate::sweep::{pareto, Goal};

/// `quotasim recommend`'s report.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecommendReport {
    /// `formatVersion`: the report format's version, 1.
    pub format_version: u32,
    /// `feasible`: a candidate met every objective (else `recommended` is the closest one).
    pub feasible: bool,
    /// `proven`: the certificate is complete (every cheaper step ran and broke an objective);
    /// `false` when the run budget stopped the search first.
    pub proven: bool,
    /// `minimize`: `capacityPerHour`, or the metric path minimised.
    pub minimize: String,
    /// `costUnit`: what the cost counts: `pricePerHour`, `instances` or `metric`.
    pub cost_unit: String,
    /// `seeds`: the workload seeds each candidate ran on (empty for listed jobs).
    pub seeds: Vec<i64>,
    /// `confidence`: the fraction of seeds an objective must be met on.
    pub confidence: f64,
    /// `runs`: single-seed runs made; `maxRuns`: the budget.
    pub runs: u64,
    /// `maxRuns`: the budget of single-seed runs (`--max-runs`).
    pub max_runs: u32,
    /// `input`: the scenario as given.
    pub input: Candidate,
    /// `recommended`: the answer (or, when nothing is feasible, the closest candidate).
    pub recommended: Candidate,
    /// `saves`: the input's cost minus the recommendation's, when both meet every objective or
    /// the cost is `capacityPerHour`.
    pub saves: Option<f64>,
    /// `certificate`: every step that would lower the cost from the answer, each with its
    /// retries, and what it breaks.
    pub certificate: Vec<CertEntry>,
    /// `sensitivity`: what each other sharing (and added field's value) does at the answer.
    pub sensitivity: Vec<Sensitivity>,
    /// `front`: the candidates on the front of cost (lower is better) against the tightest
    /// objective's slack (higher is better), cheapest first.
    pub front: Vec<Point>,
    /// `cheapest`: the five cheapest candidates seen that meet every objective.
    pub cheapest: Vec<Point>,
    /// `idleQuota`: per share, quota neither used nor lent over the run, in the input and in
    /// the answer.
    pub idle_quota: Vec<IdleQuota>,
    /// `notes`: what the reader should know about this search.
    pub notes: Vec<String>,
}

/// A candidate: its changes from the input, its cost and its verdicts.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    /// `set`: the changes from the input scenario, as `--set PATH=VALUE`.
    pub set: Vec<String>,
    /// `words`: the same per share, in words.
    pub words: Vec<String>,
    /// `cost`: what it costs, in `costUnit`; `null` when the minimised metric has no value.
    pub cost: Option<f64>,
    /// `feasible`: whether it meets every objective on enough seeds (`confidence`), no job left unfinished.
    pub feasible: bool,
    /// `verdicts`: each objective's value on it, `noUnfinishedJobs` first.
    pub verdicts: Vec<VerdictOut>,
}

/// An objective's value on a candidate: the median over the seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerdictOut {
    /// `objective`: which objective: `objectives[i]` of the objectives file, or `noUnfinishedJobs`.
    pub objective: String,
    /// `metric`: the metric path, with a share in place of `*`.
    pub metric: String,
    /// `min`: the smallest value that meets it (inclusive); `null` when it has no lower bound.
    pub min: Option<f64>,
    /// `max`: the largest value that meets it (inclusive); `null` when it has no upper bound.
    pub max: Option<f64>,
    /// `value`: the metric's median over the seeds that ran; `null` when it has none.
    pub value: Option<f64>,
    /// `slack`: how far inside its bounds the value is, relative to the bound (negative:
    /// outside); `null` for a `null` value.
    pub slack: Option<f64>,
    /// `metOnSeeds`: on how many seeds it is met.
    pub met_on_seeds: usize,
    /// `met`: whether it is met on enough seeds (`confidence`).
    pub met: bool,
}

/// A certificate step.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CertEntry {
    /// `step`: the changes from the answer.
    pub step: Vec<String>,
    /// `words`: the same in words.
    pub words: Vec<String>,
    /// `set`: the changes from the input scenario (for `quotasim check ... --set`).
    pub set: Vec<String>,
    /// `cost`: the step's cost, in `costUnit`; `null` when it has none.
    pub cost: Option<f64>,
    /// `breaks`: the objectives it breaks (for `--minimize`: empty when it meets them all but
    /// is no better).
    pub breaks: Vec<VerdictOut>,
    /// `retries`: the step with the share's sharing (or an added field) re-chosen: each broke
    /// an objective too.
    pub retries: Vec<Retry>,
}

/// A certificate step's retry.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Retry {
    /// `step`: the changes from the answer, the share's sharing (or the added field) re-chosen.
    pub step: Vec<String>,
    /// `words`: the same in words.
    pub words: Vec<String>,
    /// `breaks`: the objectives it breaks.
    pub breaks: Vec<VerdictOut>,
}

/// A cost-neutral change at the answer and what it does to every objective.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sensitivity {
    /// `step`: the changes from the answer.
    pub step: Vec<String>,
    /// `words`: the same in words.
    pub words: Vec<String>,
    /// `feasible`: whether the answer with this change still meets every objective.
    pub feasible: bool,
    /// `cost`: its cost, in `costUnit`.
    pub cost: Option<f64>,
    /// `verdicts`: each objective's value with this change.
    pub verdicts: Vec<VerdictOut>,
}

/// A candidate on the front, or among the cheapest.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Point {
    /// `set`: the changes from the input scenario, as `--set PATH=VALUE`.
    pub set: Vec<String>,
    /// `words`: the same per share, in words.
    pub words: Vec<String>,
    /// `cost`: its cost, in `costUnit`; `null` when it has none.
    pub cost: Option<f64>,
    /// `tightestSlack`: the smallest slack over the objectives.
    pub tightest_slack: Option<f64>,
    /// `feasible`: whether it meets every objective.
    pub feasible: bool,
}

/// A share's idle quota.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IdleQuota {
    /// `quotaShareName`: the share.
    pub quota_share_name: String,
    /// `input`: instances of quota idle on average over the input's run (median over seeds).
    pub input: Option<f64>,
    /// `recommended`: the same in the answer.
    pub recommended: Option<f64>,
}

/// The pseudo-objective every candidate must meet: no job left unfinished.
pub const UNFINISHED: &str = "noUnfinishedJobs";

fn verdicts(st: &Study, e: &Evaluation) -> Vec<VerdictOut> {
    let mut out = Vec::new();
    let ok = |o: &super::study::Outcome| o.error.is_none();
    let unfinished: Vec<f64> = e.iter().filter(|o| ok(o)).map(|o| o.unfinished as f64).collect();
    let met = e.iter().filter(|o| ok(o) && o.unfinished == 0).count();
    out.push(VerdictOut {
        objective: UNFINISHED.to_string(),
        metric: "overall.unfinished".to_string(),
        min: None,
        max: Some(0.0),
        value: median(unfinished),
        slack: None,
        met_on_seeds: met,
        met: met >= st.need,
    });
    for (i, vs) in st.verdicts.iter().enumerate() {
        let vals: Vec<f64> = e.iter().filter(|o| ok(o)).filter_map(|o| o.values[i]).collect();
        let value = median(vals);
        let met = e.iter().filter(|o| ok(o) && vs.met(o.values[i])).count();
        out.push(VerdictOut {
            objective: vs.objective.clone(),
            metric: vs.metric.clone(),
            min: vs.min,
            max: vs.max,
            value,
            slack: vs.slack(value),
            met_on_seeds: met,
            met: met >= st.need,
        });
    }
    out
}

fn tightest(v: &[VerdictOut]) -> Option<f64> {
    v.iter().filter_map(|x| x.slack).reduce(f64::min)
}

fn texts(st: &Study, from: &Config, to: &Config) -> Vec<String> {
    st.space
        .dims
        .iter()
        .enumerate()
        .filter(|(k, _)| from[*k] != to[*k])
        .map(|(k, d)| d.change(to[k] as usize).text())
        .collect()
}

fn set_of(st: &Study, c: &Config) -> Vec<String> {
    st.space.changes(c, &st.scenario).iter().map(|c| c.text()).collect()
}

fn candidate(st: &Study, c: &Config) -> Candidate {
    let e = st.runs.get(c).cloned().unwrap_or_default();
    let input = st.space.input();
    Candidate {
        set: set_of(st, c),
        words: st.space.words(&st.scenario, &input, c),
        cost: st.cost(c, &e),
        feasible: !e.is_empty() && st.feasible(&e),
        verdicts: verdicts(st, &e),
    }
}

fn idle(st: &Study, c: &Config, si: usize) -> Option<f64> {
    let e = st.runs.get(c)?;
    median(
        e.iter()
            .filter(|o| o.error.is_none() && o.span > 0)
            .map(|o| o.idle_seconds[si] / o.span as f64)
            .map(|x| libm::round(x * 100.0) / 100.0)
            .collect(),
    )
}

/// The report from the search's state.
pub(crate) fn build(st: &Study, s: &State) -> RecommendReport {
    let evaluated: Vec<&Config> = s.asked.iter().filter(|c| st.runs.contains_key(*c)).collect();
    // Infeasible: the closest candidate (fewest objectives broken, then the least slack lost).
    let closest = || {
        evaluated
            .iter()
            .min_by(|a, b| {
                let key = |c: &Config| {
                    let e = &st.runs[c];
                    let v = verdicts(st, e);
                    let broken = v.iter().filter(|x| !x.met).count();
                    let lost: f64 = v.iter().filter_map(|x| x.slack).filter(|x| *x < 0.0).map(|x| -x).sum();
                    (broken, lost)
                };
                let (ka, kb) = (key(a), key(b));
                ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
            })
            .map(|c| (*c).clone())
    };
    let best = s.best.clone().or_else(closest).unwrap_or_else(|| s.input.clone());
    let input = candidate(st, &s.input);
    let recommended = candidate(st, &best);
    // The input as given may not be a candidate the search ran (its capacity above the quotas
    // summed is lowered first, which changes no run): its verdicts are the start's.
    let input = if st.runs.contains_key(&s.input) {
        input
    } else {
        let start = s.asked.first().cloned().unwrap_or_else(|| s.input.clone());
        let e = st.runs.get(&start).cloned().unwrap_or_default();
        Candidate {
            cost: if st.opts.minimize.is_none() {
                Some(st.space.capacity_per_hour(&s.input))
            } else {
                st.cost(&start, &e)
            },
            feasible: !e.is_empty() && st.feasible(&e),
            verdicts: verdicts(st, &e),
            ..input
        }
    };
    let saves = match (input.cost, recommended.cost) {
        (Some(a), Some(b)) if recommended.feasible => Some(a - b),
        _ => None,
    };
    let breaks = |c: &Config| -> Vec<VerdictOut> {
        st.runs.get(c).map(|e| verdicts(st, e).into_iter().filter(|v| !v.met).collect()).unwrap_or_default()
    };
    let certificate = s
        .certificate
        .iter()
        .map(|step| {
            let c = &step.tries[0];
            CertEntry {
                step: texts(st, &best, c),
                words: st.space.words(&st.scenario, &best, c),
                set: set_of(st, c),
                cost: st.runs.get(c).and_then(|e| st.cost(c, e)),
                breaks: breaks(c),
                retries: step.tries[1..]
                    .iter()
                    .map(|r| Retry {
                        step: texts(st, &best, r),
                        words: st.space.words(&st.scenario, &best, r),
                        breaks: breaks(r),
                    })
                    .collect(),
            }
        })
        .collect();
    let sensitivity = s
        .sensitivity
        .iter()
        .filter_map(|(_, c)| {
            let e = st.runs.get(c)?;
            Some(Sensitivity {
                step: texts(st, &best, c),
                words: st.space.words(&st.scenario, &best, c),
                feasible: st.feasible(e),
                cost: st.cost(c, e),
                verdicts: verdicts(st, e),
            })
        })
        .collect();
    let (front, cheapest) = front(st, s, &evaluated, &best);
    let idle_quota = st
        .scenario
        .quota_shares
        .iter()
        .enumerate()
        .map(|(si, q)| IdleQuota {
            quota_share_name: q.quota_share_name.clone(),
            input: idle(st, s.asked.first().unwrap_or(&s.input), si),
            recommended: idle(st, &best, si),
        })
        .collect();
    let notes = notes(st, s);
    RecommendReport {
        format_version: FORMAT_VERSION,
        feasible: s.best.is_some(),
        proven: s.proven && s.best.is_some(),
        minimize: st.opts.minimize.clone().unwrap_or_else(|| "capacityPerHour".to_string()),
        cost_unit: match (&st.opts.minimize, st.space.priced()) {
            (Some(_), _) => "metric".to_string(),
            (None, true) => "pricePerHour".to_string(),
            (None, false) => "instances".to_string(),
        },
        seeds: st.seeds.iter().flatten().copied().collect(),
        confidence: st.opts.confidence,
        runs: st.runs_done(),
        max_runs: st.opts.max_runs,
        input,
        recommended,
        saves,
        certificate,
        sensitivity,
        front,
        cheapest,
        idle_quota,
        notes,
    }
}

/// The front of cost (min) against the tightest slack (max) over every candidate run, by
/// cost, and the five cheapest feasible candidates.
fn front(st: &Study, s: &State, evaluated: &[&Config], best: &Config) -> (Vec<Point>, Vec<Point>) {
    // The front: cost (min) against the tightest slack (max), over every candidate run.
    let points: Vec<Point> = evaluated
        .iter()
        .map(|c| {
            let e = &st.runs[*c];
            let v = verdicts(st, e);
            Point {
                set: set_of(st, c),
                words: st.space.words(&st.scenario, &s.input, c),
                cost: st.cost(c, e),
                tightest_slack: tightest(&v),
                feasible: st.feasible(e),
            }
        })
        .collect();
    let goals = [
        Goal { metric: "cost".to_string(), maximise: false },
        Goal { metric: "tightestSlack".to_string(), maximise: true },
    ];
    let rows: Vec<Vec<Option<f64>>> = points.iter().map(|p| alloc::vec![p.cost, p.tightest_slack]).collect();
    let on = pareto(&goals, &rows);
    let by_cost =
        |a: &Point, b: &Point| a.cost.unwrap_or(f64::INFINITY).total_cmp(&b.cost.unwrap_or(f64::INFINITY));
    let mut front: Vec<Point> = Vec::new();
    let answer = evaluated.iter().position(|c| *c == best);
    for (k, (p, _)) in points.iter().zip(&on).enumerate().filter(|(_, (_, o))| **o) {
        // Candidates that tie on both are one point: the answer stands for its ties, else the
        // first run.
        let tie = |q: &Point| q.cost == p.cost && q.tightest_slack == p.tightest_slack;
        match front.iter().position(tie) {
            None => front.push(p.clone()),
            Some(i) if Some(k) == answer => front[i] = p.clone(),
            Some(_) => {}
        }
    }
    if let Some(a) = answer.filter(|&a| !on[a]) {
        // The answer ties with a point on the front without being on it itself (a tie is
        // all on or all off): it stands for that point.
        if let Some(i) = front
            .iter()
            .position(|q| q.cost == points[a].cost && q.tightest_slack == points[a].tightest_slack)
        {
            front[i] = points[a].clone();
        }
    }
    front.sort_by(by_cost);
    let mut cheapest: Vec<Point> = Vec::new();
    for p in points.iter().filter(|p| p.feasible) {
        if !cheapest.iter().any(|q| q.set == p.set) {
            cheapest.push(p.clone());
        }
    }
    cheapest.sort_by(by_cost);
    cheapest.truncate(5);
    (front, cheapest)
}

/// What the reader should know: a budget that ran out, prices missing, a workload section.
fn notes(st: &Study, s: &State) -> Vec<String> {
    let mut notes = Vec::new();
    if s.budget_out {
        notes.push(format!(
            "the run budget ({} runs) ran out before the search ended: the answer is the best found, not proven; \
             raise --max-runs",
            st.opts.max_runs
        ));
    }
    if st.opts.minimize.is_none() && !st.space.priced() {
        notes.push("no instance type has a price: the cost counts instances".to_string());
    } else if st.opts.minimize.is_none() && st.space.prices.iter().any(Option::is_none) {
        let free: Vec<&str> = st
            .space
            .types
            .iter()
            .zip(&st.space.prices)
            .filter(|(_, p)| p.is_none())
            .map(|(t, _)| t.as_str())
            .collect();
        notes.push(format!(
            "{} ha{} no price: {} nothing",
            free.join(", "),
            if free.len() == 1 { "s" } else { "ve" },
            if free.len() == 1 { "it costs" } else { "they cost" }
        ));
    }
    if st.scenario.workload.is_some() {
        notes.push(
            "every candidate ran the jobs the workload section gives at the input's quotas; the workload \
             section sizes and paces jobs by the quotas it is expanded at, so to check a step exactly, apply \
             it to the expanded input (`quotasim run SCENARIO --print-scenario`), not to a scenario that \
             keeps the section"
                .to_string(),
        );
    }
    notes
}

fn num(x: Option<f64>) -> String {
    match x {
        None => "null".to_string(),
        Some(v) if v == libm::trunc(v) && v.abs() < 1e15 => format!("{}", v as i64),
        Some(v) => format!("{:.3}", v).trim_end_matches('0').trim_end_matches('.').to_string(),
    }
}

fn bound(v: &VerdictOut) -> String {
    match (v.min, v.max) {
        (Some(a), Some(b)) => format!("{} to {}", num(Some(a)), num(Some(b))),
        (Some(a), None) => format!("at least {}", num(Some(a))),
        (None, Some(b)) => format!("at most {}", num(Some(b))),
        (None, None) => String::new(),
    }
}

fn broke(v: &[VerdictOut]) -> String {
    if v.is_empty() {
        return "meets every objective".to_string();
    }
    let parts: Vec<String> = v
        .iter()
        .map(|b| format!("breaks {} {} = {} ({})", b.objective, b.metric, num(b.value), bound(b)))
        .collect();
    parts.join("; ")
}

/// A step's retries: a line per set of objectives broken, with the range of their values and
/// the retries that broke them.
fn retries_text(rs: &[Retry]) -> String {
    let names = |r: &Retry| r.breaks.iter().map(|b| b.metric.clone()).collect::<Vec<_>>();
    let mut groups: Vec<(Vec<String>, Vec<&Retry>)> = Vec::new();
    for r in rs {
        match groups.iter_mut().find(|g| g.0 == names(r)) {
            Some(g) => g.1.push(r),
            None => groups.push((names(r), alloc::vec![r])),
        }
    }
    let mut out = String::new();
    for (_, group) in groups {
        let first = group[0];
        // What each retry re-chose: the last words of its share's change.
        let last = |r: &Retry| r.words.last().cloned().unwrap_or_default();
        let share = last(first).split_once(':').map_or(String::new(), |x| format!("{}'s ", x.0));
        let what: Vec<String> = group
            .iter()
            .map(|r| {
                let w = last(r);
                let change = w.rsplit(", ").next().unwrap_or("").to_string();
                change.rsplit(" -> ").next().unwrap_or("").to_string()
            })
            .collect();
        let parts: Vec<String> = first
            .breaks
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let vals: Vec<f64> = group.iter().filter_map(|r| r.breaks[i].value).collect();
                let lo = vals.iter().copied().reduce(f64::min);
                let hi = vals.iter().copied().reduce(f64::max);
                let range = if lo == hi { num(lo) } else { format!("{} to {}", num(lo), num(hi)) };
                format!("breaks {} {} = {range} ({})", b.objective, b.metric, bound(b))
            })
            .collect();
        let verdict = if parts.is_empty() { "meets every objective".to_string() } else { parts.join("; ") };
        out.push_str(&format!("      with {share}sharing {}: {verdict}\n", what.join(" | ")));
    }
    out
}

/// The report as text.
pub fn text(r: &RecommendReport) -> String {
    let mut out = String::new();
    let unit = match r.cost_unit.as_str() {
        "pricePerHour" => " per hour",
        "instances" => " instances",
        _ => "",
    };
    if r.feasible {
        out.push_str(&format!("Recommended: {} = {}{unit}", r.minimize, num(r.recommended.cost)));
        if let Some(s) = r.saves {
            out.push_str(&format!(" (input {}{unit}, saves {})", num(r.input.cost), num(Some(s))));
        }
        out.push('\n');
    } else {
        out.push_str("Nothing in the space meets every objective. The closest candidate:\n");
    }
    if r.recommended.words.is_empty() {
        out.push_str("  (the input as it is)\n");
    }
    for w in &r.recommended.words {
        out.push_str(&format!("  {w}\n"));
    }
    out.push_str(&format!(
        "\nObjectives (input -> recommended{}):\n",
        if r.seeds.len() > 1 { ", medians over the seeds" } else { "" }
    ));
    for (a, b) in r.input.verdicts.iter().zip(&r.recommended.verdicts) {
        out.push_str(&format!(
            "  {:<8} {} {}: {} -> {} ({}; slack {})\n",
            if b.met { "met" } else { "VIOLATED" },
            b.objective,
            b.metric,
            num(a.value),
            num(b.value),
            bound(b),
            b.slack.map_or("-".to_string(), |s| format!("{:.0}%", s * 100.0)),
        ));
    }
    if r.feasible {
        out.push_str(&format!(
            "\nCertificate ({}): every step that would lower the cost, and what it breaks:\n",
            if r.proven { "locally optimal" } else { "NOT complete: the run budget ran out" }
        ));
        for c in &r.certificate {
            out.push_str(&format!("  {}: {}\n", c.words.join("; "), broke(&c.breaks)));
            out.push_str(&retries_text(&c.retries));
        }
        if !r.sensitivity.is_empty() {
            out.push_str("\nSensitivity (same cost):\n");
            for s in &r.sensitivity {
                out.push_str(&format!(
                    "  {}: {}\n",
                    s.words.join("; "),
                    broke(&s.verdicts.iter().filter(|v| !v.met).cloned().collect::<Vec<_>>())
                ));
            }
        }
    }
    out.push_str("\nIdle quota (instances on average, input -> recommended):\n");
    for q in &r.idle_quota {
        out.push_str(&format!("  {}: {} -> {}\n", q.quota_share_name, num(q.input), num(q.recommended)));
    }
    out.push_str("\nCost against the tightest objective's slack (the front of every candidate run):\n");
    for p in &r.front {
        out.push_str(&format!(
            "  {}{unit}, {} {}{}\n",
            num(p.cost),
            if p.feasible { "tightest slack" } else { "misses an objective, by" },
            p.tightest_slack.map_or("-".to_string(), |s| format!("{:.0}%", s.abs() * 100.0)),
            if p.words.is_empty() { ": the input".to_string() } else { format!(": {}", p.words.join("; ")) }
        ));
    }
    for n in &r.notes {
        out.push_str(&format!("\nNote: {n}\n"));
    }
    out.push_str(&format!("\nRuns: {} of {}\n", r.runs, r.max_runs));
    out
}
