//! `recommend` and `recommendJson`: the engine's recommender (`quotasim recommend`), its runs
//! advanced a bounded number of instants at a time in the package's one slice loop.

use quotasim::recommend::{
    space::parse_space, CandidateRun, Config, Outcome, RecommendError, RecommendOptions, RecommendReport,
    RecommendStep, SpaceFile, Study, DEFAULT_MAX_RUNS, MAX_REPLICATES, MAX_RUNS,
};
use quotasim::Problem;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::{install_panic_hook, json_text, problems_error, shown, slices, to_js, to_json, OptionsObject};

const WHAT: &str = "quotasim: cannot recommend";

/// Instants a run advances per call of the slice loop's work: small enough that a slice ends
/// near its time whatever the scenario's size.
const INSTANTS: usize = 256;

/// Every key `recommend`'s options may have.
const RECOMMEND_KEYS: &[&str] =
    &["minimize", "space", "replicates", "confidence", "maxRuns", "signal", "onProgress"];

/// The options, read when the call is made.
struct Call {
    opts: RecommendOptions,
    space: SpaceFile,
    signal: Option<JsValue>,
    on_progress: Option<js_sys::Function>,
}

fn options(options: &JsValue) -> Result<Call, JsValue> {
    let o = OptionsObject::read(options, RECOMMEND_KEYS, "quotasim: invalid recommend options")?;
    let mut call = Call {
        opts: RecommendOptions::default(),
        space: SpaceFile::default(),
        signal: None,
        on_progress: None,
    };
    let whole = |key: &str, low: u32, high: u32| -> Result<Option<u32>, JsValue> {
        Ok(o.whole(key, i64::from(low), i64::from(high))?.map(|x| x as u32))
    };
    if let Some(v) = o.get("minimize") {
        call.opts.minimize = Some(
            v.as_string()
                .ok_or_else(|| o.fail("minimize", format!("must be a metric path, not {}", shown(&v))))?,
        );
    }
    if let Some(v) = o.get("space") {
        let text = json_text(&v, "a space").map_err(|p| o.fail("space", p.message))?;
        call.space = parse_space(&text).map_err(|p| {
            let at = if p.path.is_empty() {
                "options.space".to_string()
            } else {
                format!("options.space.{}", p.path)
            };
            problems_error(WHAT, &[Problem::error(at, p.message)])
        })?;
    }
    if let Some(n) = whole("replicates", 1, MAX_REPLICATES)? {
        call.opts.replicates = n;
    }
    call.opts.max_runs = whole("maxRuns", 1, MAX_RUNS)?.unwrap_or(DEFAULT_MAX_RUNS);
    if let Some(v) = o.get("confidence") {
        match v.as_f64() {
            Some(x) if x > 0.0 && x <= 1.0 => call.opts.confidence = x,
            _ => {
                return Err(o.fail("confidence", format!("must be above 0 and at most 1, not {}", shown(&v))))
            }
        }
    }
    if let Some(v) = o.get("signal") {
        call.signal = Some(slices::signal_option(v).map_err(|m| o.fail("signal", m))?);
    }
    if let Some(v) = o.get("onProgress") {
        call.on_progress = Some(v.dyn_into().map_err(|v| {
            o.fail("onProgress", format!("must be a function (runs, maxRuns), not {}", shown(&v)))
        })?);
    }
    Ok(call)
}

/// The option a usage problem names, as the package spells it (`--max-runs` is
/// `options.maxRuns`).
fn option_name(path: &str) -> String {
    match path {
        "--max-runs" => "options.maxRuns".into(),
        "--replicates" => "options.replicates".into(),
        "--confidence" => "options.confidence".into(),
        "--minimize" => "options.minimize".into(),
        p => p.to_string(),
    }
}

fn study(scenario: &str, objectives: &str, call: &Call) -> Result<Study, JsValue> {
    let s = quotasim::json::parse_scenario(scenario).map_err(|p| problems_error(WHAT, &[p]))?;
    let o = quotasim::objective::load_objectives(objectives).map_err(|ps| {
        let ps: Vec<Problem> =
            ps.into_iter().map(|p| Problem::error(format!("objectives.{}", p.path), p.message)).collect();
        problems_error(WHAT, &ps)
    })?;
    Study::new(&s, &o, &call.space, &call.opts).map_err(|e| match e {
        RecommendError::Usage(p) => problems_error(WHAT, &[Problem::error(option_name(&p.path), p.message)]),
        RecommendError::Invalid(ps) => problems_error(WHAT, &ps),
        RecommendError::Objectives(ps) => {
            let ps: Vec<Problem> = ps
                .into_iter()
                .map(|p| {
                    let at = if p.path.starts_with("--") {
                        option_name(&p.path)
                    } else {
                        format!("objectives.{}", p.path)
                    };
                    Problem::error(at, p.message)
                })
                .collect();
            problems_error(WHAT, &ps)
        }
        RecommendError::Space(ps) => {
            let ps: Vec<Problem> = ps
                .into_iter()
                .map(|p| Problem::error(format!("options.space.{}", p.path), p.message))
                .collect();
            problems_error(WHAT, &ps)
        }
    })
}

/// The study run to its report: its batches' runs started, advanced [`INSTANTS`] at a time
/// and finished in the slice loop, recorded in seed order.
async fn run(mut st: Study, call: &Call, yielding: bool) -> Result<RecommendReport, JsValue> {
    let s = slices::Slices { signal: call.signal.as_ref(), yielding, what: "recommendation" };
    s.check()?;
    let n = st.seed_count();
    let mut batch: Vec<Config> = Vec::new();
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut current: Option<CandidateRun> = None;
    let mut report: Option<RecommendReport> = None;
    let runs = std::cell::Cell::new(0u64);
    let max = call.opts.max_runs;
    let work = || -> Result<bool, JsValue> {
        if let Some(r) = current.as_mut() {
            if r.advance(INSTANTS) {
                outcomes.push(st.finish(r));
                current = None;
                runs.set(runs.get() + 1);
            }
            return Ok(false);
        }
        if outcomes.len() == batch.len() * n {
            // The batch is done: record it, and ask what comes next.
            for (c, e) in batch.drain(..).zip(outcomes.chunks(n.max(1)).map(<[Outcome]>::to_vec)) {
                st.record(c, e);
            }
            outcomes.clear();
            match st.next() {
                RecommendStep::Done(r) => {
                    report = Some(*r);
                    return Ok(true);
                }
                RecommendStep::Run(cs) => batch = cs,
            }
            return Ok(false);
        }
        let i = outcomes.len();
        match st.start(&batch[i / n], i % n) {
            Ok(r) => current = Some(r),
            Err(o) => outcomes.push(o),
        }
        Ok(false)
    };
    let progress = || -> Result<(), JsValue> {
        if let Some(cb) = &call.on_progress {
            cb.call2(&JsValue::UNDEFINED, &JsValue::from(runs.get() as f64), &JsValue::from(max))?;
        }
        Ok(())
    };
    slices::until_done(&s, work, progress).await?;
    report.ok_or_else(|| {
        JsValue::from(js_sys::Error::new("quotasim: the recommendation ended without a report"))
    })
}

fn args(scenario: &JsValue, objectives: &JsValue, opts: &JsValue) -> Result<(String, String, Call), JsValue> {
    let call = options(opts)?;
    let s = json_text(scenario, "a scenario").map_err(|p| problems_error(WHAT, &[p]))?;
    let o = json_text(objectives, "objectives")
        .map_err(|p| problems_error(WHAT, &[Problem::error("objectives", p.message)]))?;
    Ok((s, o, call))
}

/// Which quotas should we set? (`quotasim recommend`): the least costly quota shares and
/// service environment that meet every objective of `objectives` (the file `check` reads) on
/// the scenario's workload, with the certificate that every cheaper step breaks one. The
/// options are the command line's: `minimize` (a metric path; default `capacityPerHour`),
/// `space` (a space file, as an object or JSON text), `replicates` (1), `confidence` (1),
/// `maxRuns` (1000).
///
/// The runs are advanced in slices of about 25 ms, the event loop running before each (a
/// `setTimeout(0)`), so a page or a server stays responsive whatever the scenario's size;
/// `onProgress(runs, maxRuns)` is called after each slice. When `signal` (an `AbortSignal`)
/// is aborted, before the start or between slices, the promise rejects with a `DOMException`
/// named `AbortError`. It rejects with an `Error` (with `err.problems`) naming what is wrong:
/// `options.maxRuns`, `objectives.objectives[0].metric`, `options.space.axes[0].range`, or a
/// field of the scenario. The report is the one `recommendJson` gives, as plain objects;
/// `report.feasible` is `false` when nothing in the space meets the objectives (the command
/// line exits 3).
#[wasm_bindgen(unchecked_return_type = "Promise<RecommendReport>")]
pub fn recommend(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Objectives | string")] objectives: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "RecommendOptions")] options: JsValue,
) -> js_sys::Promise {
    install_panic_hook();
    // The arguments are read now: a caller may change its objects once the call returns.
    let (s, o, call) = match args(&scenario, &objectives, &options) {
        Ok(x) => x,
        Err(e) => return js_sys::Promise::reject(&e),
    };
    wasm_bindgen_futures::future_to_promise(async move {
        let st = study(&s, &o, &call)?;
        to_js(&run(st, &call, true).await?)
    })
}

/// [`recommend`] as compact JSON text, synchronously: the bytes `quotasim recommend SCENARIO
/// --objectives OBJ --format json` prints with the same options (without its final newline),
/// whatever its `--threads`. It runs the same slices without yielding: `onProgress` is called
/// as `recommend` calls it, and `signal` is checked before the start and before each slice.
#[wasm_bindgen(js_name = recommendJson)]
pub fn recommend_json(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Objectives | string")] objectives: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "RecommendOptions")] options: JsValue,
) -> Result<String, JsValue> {
    install_panic_hook();
    let (s, o, call) = args(&scenario, &objectives, &options)?;
    let st = study(&s, &o, &call)?;
    let r = slices::at_once(run(st, &call, false))?;
    Ok(to_json(&r))
}
