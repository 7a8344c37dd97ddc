//! Start-time forecasts at the playhead: "When will it start?" for a job waiting there, and
//! "Submit preview" for a job submitted there. Both fork the run after the playhead's instant
//! with the engine ([`quotasim::eta::fork`]: the R28 state with every duration hidden, as a
//! person at that instant would know it), run the forecast's replicates a slice at a time, and
//! hold the band against what the full run did. The text, the band's geometry and its markup
//! are pure and tested natively.

use std::fmt::Write;

use quotasim::eta::{fork, Band, Durations, EtaOptions, EtaReport, Forecast, JobEta, Outcome};
use quotasim::model::{Job, Scenario};
use quotasim::Simulation;

use crate::geometry::{format_duration, format_time, time_ticks, Scale};
use crate::run::RunData;
use crate::text::escape;

/// Replicates a forecast runs.
pub const REPLICATES: u32 = quotasim::eta::DEFAULT_REPLICATES;
/// The draws' seed.
pub const SEED: u64 = 0;

/// What a forecast answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// When job `index` of the run (named `name`), waiting at the playhead, starts.
    Job { index: usize, name: String },
    /// When a job submitted at the playhead starts, and whom it preempts.
    Submit(Box<Job>),
}

impl Ask {
    /// The name of the job forecast.
    pub fn name(&self) -> &str {
        match self {
            Ask::Job { name, .. } => name,
            Ask::Submit(j) => &j.job_name,
        }
    }
}

/// A forecast made.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The playhead's instant: the state forecast is the one after it.
    pub at: u64,
    pub ask: Ask,
    pub report: EtaReport,
    /// What the state at `at` does not carry exactly (R28), if anything.
    pub inexact: Vec<String>,
    /// When the job started in the full run after `at` (a job of the run only).
    pub actual: Option<u64>,
}

impl Finished {
    /// The forecast of the job asked about.
    pub fn job(&self) -> Option<&JobEta> {
        self.report.jobs.iter().find(|j| j.job_name == self.ask.name())
    }
}

/// The first start of job `j` in `run` after instant `at` (its dispatch at `at` itself is in
/// the state already), if it started again before the run ended.
pub fn actual_start(run: &RunData, j: usize, at: u64) -> Option<u64> {
    run.jobs.get(j)?.attempts.iter().map(|a| a.started_at).find(|&t| t > at)
}

/// A free job name for a submitted job: `base`, else `base-2`, `base-3`...
pub fn free_name(state: &Scenario, base: &str) -> String {
    let taken = |n: &str| state.jobs.iter().any(|j| j.job_name == n);
    if !taken(base) {
        return base.to_string();
    }
    (2..).map(|k| format!("{base}-{k}")).find(|n| !taken(n)).unwrap_or_default()
}

/// A forecast being computed a slice at a time: the fork (the state after the playhead's
/// instant with its durations hidden), then the forecast prepared (the state validated, the
/// duration sources found), each a slice of its own, then the replicates one by one. Driven to
/// the end, the report is [`Forecast::run`]'s.
pub struct ForecastBuilder {
    at: u64,
    ask: Ask,
    actual: Option<u64>,
    inexact: Vec<String>,
    replicates: u32,
    seed: u64,
    stage: Stage,
}

enum Stage {
    /// The run standing at the playhead.
    Fork(Box<Simulation>),
    /// The state forked, and what to forecast in it.
    Prepare(Box<(Scenario, EtaOptions)>),
    Running {
        forecast: Box<Forecast>,
        outcomes: Vec<Outcome>,
    },
    Done,
}

impl ForecastBuilder {
    /// A forecast of `ask` from the state after `sim`'s current instant (the simulation is
    /// kept, so moving the playhead later changes nothing); `actual` is the truth to compare
    /// with. Nothing is computed here.
    pub fn new(
        sim: Simulation,
        ask: Ask,
        replicates: u32,
        seed: u64,
        actual: Option<u64>,
    ) -> ForecastBuilder {
        ForecastBuilder {
            at: sim.now(),
            ask,
            actual,
            inexact: Vec::new(),
            replicates,
            seed,
            stage: Stage::Fork(Box::new(sim)),
        }
    }

    /// How far it is, from 0 to 1 (replicates run of those asked).
    pub fn progress(&self) -> f64 {
        match &self.stage {
            Stage::Fork(_) | Stage::Prepare(_) => 0.0,
            Stage::Running { outcomes, .. } => outcomes.len() as f64 / self.replicates.max(1) as f64,
            Stage::Done => 1.0,
        }
    }

    /// The state after the playhead's instant, durations hidden, and the forecast's options.
    /// `scenario` is the one the simulation runs (expanded here when it has a `workload`).
    fn fork(&mut self, sim: &Simulation, scenario: &Scenario) -> Result<(Scenario, EtaOptions), String> {
        let state = if scenario.workload.is_some() {
            let expanded = quotasim::workload::expanded(scenario).map_err(|p| problems_text(scenario, &p))?;
            fork::forecast_state(sim, &expanded)
        } else {
            fork::forecast_state(sim, scenario)
        };
        let mut opts = EtaOptions { replicates: self.replicates, seed: self.seed, ..EtaOptions::default() };
        match &mut self.ask {
            Ask::Job { name, .. } => opts.jobs = vec![name.clone()],
            Ask::Submit(job) => {
                job.job_name = free_name(&state.scenario, &job.job_name).into();
                job.submit_at = state.scenario.settings.start_at;
                opts.submit = Some((**job).clone());
                // Only the submitted job (whom it preempts is in its own forecast).
                opts.jobs = vec![String::from(job.job_name.as_str())];
            }
        }
        self.inexact = state.inexact;
        Ok((state.scenario, opts))
    }

    /// Works until the forecast is made or `out_of_time()` says to stop (asked after every
    /// replicate; the fork and the preparation each end a slice); returns the forecast, or why
    /// there is none, once. `scenario` is the one the simulation runs, read by the first slice
    /// only (so it need not be copied).
    pub fn advance(
        &mut self,
        scenario: &Scenario,
        out_of_time: &mut dyn FnMut() -> bool,
    ) -> Option<Result<Finished, String>> {
        loop {
            match core::mem::replace(&mut self.stage, Stage::Done) {
                Stage::Fork(sim) => {
                    match self.fork(&sim, scenario) {
                        Ok(p) => self.stage = Stage::Prepare(Box::new(p)),
                        Err(e) => return Some(Err(e)),
                    }
                    return None;
                }
                Stage::Prepare(p) => {
                    let (state, opts) = *p;
                    let forecast = match Forecast::new(&state, opts) {
                        Ok(f) => f,
                        Err(problems) => return Some(Err(problems_text(&state, &problems))),
                    };
                    let n = forecast.replicates() as usize;
                    self.stage =
                        Stage::Running { forecast: Box::new(forecast), outcomes: Vec::with_capacity(n) };
                    return None;
                }
                Stage::Running { forecast, mut outcomes } => {
                    if outcomes.len() == forecast.replicates() as usize {
                        return Some(Ok(Finished {
                            at: self.at,
                            ask: self.ask.clone(),
                            report: forecast.report(&outcomes),
                            inexact: core::mem::take(&mut self.inexact),
                            actual: self.actual,
                        }));
                    }
                    match forecast.replicate(outcomes.len() as u32) {
                        Ok(o) => outcomes.push(o),
                        Err(e) => return Some(Err(e)),
                    }
                    self.stage = Stage::Running { forecast, outcomes };
                }
                Stage::Done => return None,
            }
            if out_of_time() {
                return None;
            }
        }
    }
}

/// The forecast's problems for a person: the state's `jobs[k]` named by the job's name (the
/// state is not the scenario on screen, so its indices mean nothing there).
fn problems_text(state: &Scenario, problems: &[quotasim::Problem]) -> String {
    let errors: Vec<String> = problems
        .iter()
        .filter(|p| p.is_error())
        .take(3)
        .map(|p| {
            let named = p
                .path
                .strip_prefix("jobs[")
                .and_then(|rest| {
                    let (k, field) = rest.split_once(']')?;
                    let job = state.jobs.get(k.parse::<usize>().ok()?)?;
                    Some(format!("{}{}", job.job_name, field))
                })
                .or_else(|| p.path.strip_prefix("--submit").map(|rest| format!("the submitted job{rest}")));
            match (named, p.path.is_empty()) {
                (Some(at), _) => format!("{at}: {}", p.message),
                (None, true) => p.message.clone(),
                (None, false) => format!("{}: {}", p.path, p.message),
            }
        })
        .collect();
    let more = problems.iter().filter(|p| p.is_error()).count().saturating_sub(errors.len());
    let mut out = errors.join("; ");
    if more > 0 {
        let _ = write!(out, " (and {more} more)");
    }
    out
}

/// Where the report's durations came from, in words.
pub fn durations_words(d: Durations) -> &'static str {
    match d {
        Durations::History => "durations from history",
        Durations::Workload => "durations from the workload section",
        Durations::Timeout => "durations from timeouts",
        Durations::Exact => "durations as written",
    }
}

/// What a source of drawn durations (`drawsBySource`) is, in words.
pub fn source_words(key: &str) -> &'static str {
    match key {
        "history" => "drawn from the Kaplan-Meier curve of its share and instance type",
        "timeout" => "its timeout",
        "twiceLargest" => "twice the longest seen, its share and type having fewer than 20 observations",
        "asWritten" => "its durationSeconds as written",
        "exact" => "exact",
        _ => "",
    }
}

/// A start `p` seconds after the fork, in words (`None`: past the horizon, `horizon` seconds).
fn after(p: Option<u64>, horizon: u64) -> String {
    p.map_or_else(|| format!("over {}", format_duration(horizon)), format_duration)
}

/// The forecast in one line: "Starts in p10 / p50 / p90 (… N replicates, durations from …),
/// actually started at X"; when more than 90 % of the replicates never start it within the
/// horizon, how many do not.
pub fn summary(f: &Finished) -> String {
    let Some(j) = f.job() else { return String::from("No forecast for this job.") };
    let r = &f.report;
    let horizon = r.horizon_at.saturating_sub(r.start_at);
    let how = format!("{} replicates, seed {}, {}", r.replicates, r.seed, durations_words(r.durations));
    let mut s = match j.start.p10 {
        None => format!(
            "Does not start within {} in {:.0} % of replicates (p10 past the horizon, from {}; {how})",
            format_duration(horizon),
            j.not_started_by_horizon * 100.0,
            format_time(f.at)
        ),
        Some(_) => format!(
            "Starts in {} / {} / {} (p10 / p50 / p90 after {}; {how})",
            after(j.start.p10, horizon),
            after(j.start.p50, horizon),
            after(j.start.p90, horizon),
            format_time(f.at)
        ),
    };
    if let Ask::Job { .. } = f.ask {
        match f.actual {
            Some(t) => {
                let _ = write!(
                    s,
                    ", actually started at {} (in {})",
                    format_time(t),
                    format_duration(t.saturating_sub(f.at))
                );
            }
            None => s.push_str(", and in the run it did not start again"),
        }
    }
    s.push('.');
    s
}

/// The details under the summary: the draws by source, the share of replicates that never
/// start it within the horizon or preempt it after it starts, and whom a submitted job preempts.
pub fn details(f: &Finished) -> Vec<String> {
    let r = &f.report;
    let mut out = Vec::new();
    let draws: Vec<String> = r
        .draws_by_source
        .iter()
        .map(|(k, v)| format!("{k} {} ({})", crate::text::thousands(*v), source_words(k)))
        .collect();
    out.push(format!(
        "Durations drawn, by source: {}. Every unfinished job's duration is drawn in every replicate: the state after {} knows none of them.",
        draws.join("; "),
        format_time(f.at)
    ));
    if let Some(j) = f.job() {
        out.push(format!(
            "Not started within {} in {:.0} % of replicates; preempted after it starts in {:.0} %.",
            format_duration(r.horizon_at.saturating_sub(r.start_at)),
            j.not_started_by_horizon * 100.0,
            j.preempted_after_start * 100.0
        ));
    }
    if !f.inexact.is_empty() {
        out.push(format!("The state at {} is not exact (R28): {}.", format_time(f.at), f.inexact.join("; ")));
    }
    out
}

/// Whom a submitted job would preempt: `(job, probability)`, most likely first.
pub fn would_preempt(f: &Finished) -> Vec<(String, f64)> {
    let mut v: Vec<(String, f64)> = f
        .job()
        .map(|j| j.would_preempt.iter().map(|v| (v.job_name.clone(), v.probability)).collect())
        .unwrap_or_default();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

/// The band's x positions over a time scale: from p10 to p90, the p50 tick, cut to `[left,
/// right]`. `open` when p90 is past the horizon (the band runs to the horizon, or the edge).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BandX {
    pub x10: f64,
    pub x90: f64,
    pub x50: Option<f64>,
    pub open: bool,
}

/// Narrowest band drawn, in pixels (p10 = p90 is still seen).
pub const MIN_BAND_PX: f64 = 3.0;

/// The band of `band` (seconds after `at`) over `sx`, cut to `[left, right]`; `None` when
/// p10 is past the horizon (no band to draw) or the band is out of view.
pub fn band_x(sx: &Scale, at: u64, band: &Band, horizon_at: u64, (left, right): (f64, f64)) -> Option<BandX> {
    let p10 = band.p10?;
    let x = |d: u64| sx.map(at.saturating_add(d) as f64);
    let (a, open) = (x(p10), band.p90.is_none());
    let b = band.p90.map_or_else(|| sx.map(horizon_at as f64), x);
    if b < left || a > right {
        return None;
    }
    let (x10, mut x90) = (a.max(left), b.min(right));
    if x90 - x10 < MIN_BAND_PX {
        x90 = x10 + MIN_BAND_PX;
    }
    let x50 = band.p50.map(x).filter(|v| (left..=right).contains(v));
    Some(BandX { x10, x90, x50, open })
}

/// A forecast drawn on a job's lane of the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneForecast {
    /// The job's index in the run.
    pub job: usize,
    pub at: u64,
    pub band: Band,
    pub horizon_at: u64,
    /// Its start in the full run.
    pub actual: Option<u64>,
    /// What its tooltip says.
    pub title: String,
}

impl LaneForecast {
    /// The lane's forecast of `f` (a job of the run).
    pub fn of(f: &Finished) -> Option<LaneForecast> {
        let Ask::Job { index, .. } = f.ask else { return None };
        let j = f.job()?;
        Some(LaneForecast {
            job: index,
            at: f.at,
            band: j.start,
            horizon_at: f.report.horizon_at,
            actual: f.actual,
            title: summary(f),
        })
    }
}

/// Writes the band (`class="eta-band"`), its p50 tick and the actual start, for a lane whose top
/// is `y` and which is `lane` high.
pub fn band_markup(
    out: &mut String,
    sx: &Scale,
    f: &LaneForecast,
    y: f64,
    lane: f64,
    (left, right): (f64, f64),
) {
    let Some(b) = band_x(sx, f.at, &f.band, f.horizon_at, (left, right)) else { return };
    let title = escape(&f.title);
    let _ = write!(
        out,
        "<g class=\"eta-band\" data-eta-job=\"{}\"><rect class=\"eta-range{}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"3\"/>",
        f.job,
        if b.open { " open" } else { "" },
        b.x10,
        y + 2.0,
        b.x90 - b.x10,
        lane - 4.0
    );
    if let Some(x) = b.x50 {
        let _ = write!(
            out,
            "<line class=\"eta-p50\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/>",
            y + 1.0,
            y + lane - 1.0
        );
    }
    let _ = write!(out, "<title>{title}</title></g>");
    if let Some(t) = f.actual {
        let x = sx.map(t as f64);
        if (left..=right).contains(&x) {
            let _ = write!(
                out,
                "<path class=\"eta-actual\" d=\"M{:.1},{:.1}L{:.1},{:.1}L{x:.1},{:.1}Z\"><title>actually started at {}</title></path>",
                x - 4.5,
                y + 1.0,
                x + 4.5,
                y + 1.0,
                y + 7.0,
                format_time(t)
            );
        }
    }
}

/// The band in a strip of its own (a submitted job has no lane; the explanation shows it
/// too): the time from the playhead to a little past p90 (or the horizon) and the actual start,
/// its ticks, the band, its p50 tick labelled, and the actual start. `width` is the strip's
/// width in pixels; it has a `viewBox`, so it may be drawn narrower.
pub fn preview_svg(f: &Finished, width: f64) -> String {
    const H: f64 = 64.0;
    const L: f64 = 14.0;
    let mut out = String::with_capacity(2048);
    let Some(j) = f.job() else { return out };
    let horizon = f.report.horizon_at.saturating_sub(f.at);
    let mut far = j.start.p90.or(j.start.p50).unwrap_or(horizon);
    if let Some(t) = f.actual {
        far = far.max(t.saturating_sub(f.at));
    }
    let far = far.max(60);
    let t1 = (f.at + far + far / 8).min(f.report.horizon_at.max(f.at + 60)).max(f.at + 60);
    let right = (width - L).max(L + 10.0);
    let sx = Scale::new(f.at as f64, t1 as f64, L, right);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{H:.0}\" viewBox=\"0 0 {width:.0} {H:.0}\" role=\"img\" aria-label=\"{}\">",
        escape(&format!("Start band of {}: {}", j.job_name, summary(f)))
    );
    for t in time_ticks(f.at, t1, ((right - L) / 80.0).max(2.0) as usize) {
        let x = sx.map(t as f64);
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"16\" y2=\"44\"/>\
             <text class=\"tick\" x=\"{x:.1}\" y=\"58\" text-anchor=\"middle\">{}</text>",
            format_time(t)
        );
    }
    let lane = LaneForecast {
        job: 0,
        at: f.at,
        band: j.start,
        horizon_at: f.report.horizon_at,
        actual: f.actual,
        title: summary(f),
    };
    let mut band = String::new();
    band_markup(&mut band, &sx, &lane, 16.0, 28.0, (L, right));
    out.push_str(&band.replace(" data-eta-job=\"0\"", ""));
    if !band.contains("eta-range") {
        let _ = write!(
            out,
            "<text class=\"empty\" x=\"{:.1}\" y=\"34\" text-anchor=\"middle\">Not started within the horizon in most replicates</text>",
            width / 2.0
        );
    }
    // Labels above the strip: p50, and the actual start where it is not on top of it.
    let label = |out: &mut String, x: f64, text: &str, class: &str| {
        let anchor = if x < L + 40.0 {
            "start"
        } else if x > right - 40.0 {
            "end"
        } else {
            "middle"
        };
        let _ = write!(
            out,
            "<text class=\"{class}\" x=\"{x:.1}\" y=\"11\" text-anchor=\"{anchor}\">{}</text>",
            escape(text)
        );
    };
    let x50 = j.start.p50.map(|d| sx.map((f.at + d) as f64)).filter(|x| (L..=right).contains(x));
    if let (Some(x), Some(d)) = (x50, j.start.p50) {
        label(&mut out, x, &format!("p50 {}", format_time(f.at + d)), "eta-label");
    }
    if let Some(t) = f.actual {
        let x = sx.map(t as f64);
        if (L..=right).contains(&x) && x50.is_none_or(|p| (p - x).abs() > 110.0) {
            label(&mut out, x, &format!("actual {}", format_time(t)), "eta-label actual");
        }
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn notebook() -> (Scenario, RunData) {
        let s = presets::scenario(presets::NOTEBOOK).unwrap();
        let r = RunData::compute(quotasim::validate(&s).unwrap());
        (s, r)
    }

    fn scale() -> Scale {
        // 0..1000 s over 100..1100 px: a pixel a second.
        Scale::new(0.0, 1000.0, 100.0, 1100.0)
    }

    fn band(p10: Option<u64>, p50: Option<u64>, p90: Option<u64>) -> Band {
        Band { p10, p50, p90, mean: None }
    }

    #[test]
    fn a_band_runs_from_p10_to_p90_after_the_fork_with_its_p50_tick() {
        let b = band_x(&scale(), 200, &band(Some(100), Some(250), Some(400)), 5000, (100.0, 1100.0)).unwrap();
        assert_eq!(b, BandX { x10: 400.0, x90: 700.0, x50: Some(550.0), open: false });
    }

    #[test]
    fn a_band_past_the_horizon_is_open_to_it_and_cut_to_the_plot() {
        let b = band_x(&scale(), 200, &band(Some(100), Some(250), None), 900, (100.0, 1100.0)).unwrap();
        assert_eq!((b.x10, b.x90, b.open), (400.0, 1000.0, true));
        // Zoomed in: cut at the plot's edges, the p50 tick out of view is left out.
        let b = band_x(&scale(), 200, &band(Some(100), Some(600), Some(700)), 5000, (450.0, 650.0)).unwrap();
        assert_eq!((b.x10, b.x90, b.x50), (450.0, 650.0, None));
        // Out of view, or never starting within the horizon: nothing.
        assert!(
            band_x(&scale(), 200, &band(Some(100), Some(100), Some(100)), 5000, (600.0, 1100.0)).is_none()
        );
        assert!(band_x(&scale(), 200, &band(None, None, None), 5000, (100.0, 1100.0)).is_none());
    }

    #[test]
    fn a_band_of_one_instant_is_still_seen() {
        let b = band_x(&scale(), 0, &band(Some(300), Some(300), Some(300)), 5000, (100.0, 1100.0)).unwrap();
        assert_eq!((b.x10, b.x90), (400.0, 400.0 + MIN_BAND_PX));
    }

    fn forecast_at(at: u64, ask: Ask) -> Finished {
        let (s, r) = notebook();
        let sim = r.sim_at(at);
        let actual = match &ask {
            Ask::Job { index, .. } => actual_start(&r, *index, at),
            Ask::Submit(_) => None,
        };
        let mut b = ForecastBuilder::new(sim, ask, 40, SEED, actual);
        let mut slices = 0;
        loop {
            slices += 1;
            let last = b.progress();
            if let Some(out) = b.advance(&s, &mut || true) {
                assert!(slices > 40, "a slice per replicate: {slices}");
                return out.expect("a forecast");
            }
            assert!(b.progress() >= last);
        }
    }

    #[test]
    fn a_forecast_in_slices_is_the_engines_forecast_of_the_hidden_fork() {
        let (s, r) = notebook();
        let low = r.job_index("qs1_job_low").unwrap();
        let f = forecast_at(900, Ask::Job { index: low, name: "qs1_job_low".into() });
        // The engine's own forecast of the same fork, all at once.
        let st = fork::forecast_state(&r.sim_at(900), &s);
        let opts = EtaOptions { jobs: vec!["qs1_job_low".into()], replicates: 40, ..EtaOptions::default() };
        let whole = Forecast::new(&st.scenario, opts).unwrap().run().unwrap();
        assert_eq!(f.report, whole);
        assert_eq!(f.at, 900);
        let j = f.job().unwrap();
        assert!(j.start.p10 <= j.start.p50 && j.start.p50 <= j.start.p90, "{:?}", j.start);
        assert_eq!(f.actual, actual_start(&r, low, 900));
        assert!(f.actual.is_some_and(|t| t > 900));
        let text = summary(&f);
        assert!(text.starts_with("Starts in ") && text.contains("40 replicates"), "{text}");
        assert!(text.contains("actually started at"), "{text}");
        assert!(details(&f)[0].starts_with("Durations drawn, by source: "), "{:?}", details(&f));
        let lane = LaneForecast::of(&f).unwrap();
        assert_eq!((lane.job, lane.at), (low, 900));
        let strip = preview_svg(&f, 420.0);
        assert!(strip.contains("class=\"eta-actual\"") && strip.contains(">p50 "), "{strip}");
    }

    #[test]
    fn a_submitted_job_gets_a_free_name_a_band_and_whom_it_preempts() {
        let mut job = Job::new("qs1_job_high", "qs3", "ml.g5.xlarge", 1, 0, 600);
        job.scheduling_priority = 5;
        let f = forecast_at(1000, Ask::Submit(Box::new(job)));
        assert_eq!(f.ask.name(), "qs1_job_high-2", "the name is free in the state");
        let j = f.job().unwrap();
        assert!(j.submitted && j.start.p50.is_some());
        let svg = preview_svg(&f, 400.0);
        assert!(svg.contains("class=\"eta-band\"") && svg.contains("eta-p50"), "{svg}");
        assert!(svg.contains(">p50 ") && svg.contains("viewBox=\"0 0 400 64\""), "{svg}");
        assert!(!svg.contains("data-eta-job"));
        assert_eq!(would_preempt(&f).len(), j.would_preempt.len());
    }

    #[test]
    fn a_forecast_that_cannot_be_made_says_why_naming_the_job() {
        // At 0 nothing has run: no history, no timeouts, durations hidden.
        let (s, r) = notebook();
        let mut b = ForecastBuilder::new(
            r.sim_at(0),
            Ask::Job { index: 2, name: "qs1_job_low".into() },
            10,
            SEED,
            None,
        );
        assert!(b.advance(&s, &mut || false).is_none(), "the fork is a slice of its own");
        let e = b.advance(&s, &mut || false).unwrap().unwrap_err();
        assert!(e.contains("qs1_job_") && !e.contains("jobs["), "{e}");
        assert!(b.advance(&s, &mut || false).is_none());
    }

    #[test]
    fn the_actual_start_is_the_first_dispatch_after_the_fork() {
        let (_, r) = notebook();
        let med = r.job_index("qs1_job_med").unwrap();
        let starts: Vec<u64> = r.jobs[med].attempts.iter().map(|a| a.started_at).collect();
        assert!(starts.len() >= 2, "{starts:?}");
        assert_eq!(actual_start(&r, med, starts[0]), Some(starts[1]));
        assert_eq!(actual_start(&r, med, r.end), None);
    }

    #[test]
    fn lane_band_markup_has_the_band_tick_and_actual_start() {
        let f = LaneForecast {
            job: 3,
            at: 200,
            band: band(Some(100), Some(250), Some(400)),
            horizon_at: 5000,
            actual: Some(500),
            title: "a <b>".into(),
        };
        let mut out = String::new();
        band_markup(&mut out, &scale(), &f, 30.0, 22.0, (100.0, 1100.0));
        assert!(out.contains("<g class=\"eta-band\" data-eta-job=\"3\">"), "{out}");
        assert!(out.contains("x=\"400.0\"") && out.contains("width=\"300.0\""), "{out}");
        assert!(out.contains("class=\"eta-p50\" x1=\"550.0\""), "{out}");
        assert!(out.contains("class=\"eta-actual\"") && out.contains("actually started at 0:08:20"), "{out}");
        assert!(out.contains("a &lt;b&gt;"), "escaped");
    }
}
