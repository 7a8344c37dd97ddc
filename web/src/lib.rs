//! # quotasim-wasm
//!
//! JavaScript and TypeScript bindings of the Quotasim engine, built by wasm-pack into the npm
//! package `quotasim`.
//!
//! * One stateful class, [`Simulation`], and two plain functions, [`validate`] and
//!   [`generate`] (plus [`generate_json`]).
//! * Scenarios go in as plain JS objects or as JSON strings, in the shapes of the scenario
//!   format; results come out as plain JS objects in the result shapes (maps as plain objects,
//!   `null` where the JSON has `null`, integers as JS numbers, never `BigInt`).
//! * A scenario object is turned into JSON with `JSON.stringify` and parsed by the engine's
//!   own parser, so an object and a JSON string are accepted and rejected alike, and exactly
//!   as `quotasim run` does: unknown fields are rejected with their path.
//! * Every error is a JS `Error` whose message lists every problem with its field path and
//!   whose `problems` property holds them as `{ path, severity, message }` objects. Bad input
//!   is an error value, never a panic; `console_error_panic_hook` is installed only so that a
//!   bug in the engine would at least be reported in the console.
//! * The TypeScript declarations of every shape live in `src/types.d.ts`, generated from the
//!   engine's Rust types by `tests/typescript.rs` (which fails when the file is stale), and
//!   are embedded in the package's `.d.ts`; method signatures name those types.

use quotasim::change::{apply_changes, Change};
use quotasim::compare::{run_to_end, summary_of};
use quotasim::json::to_json;
use quotasim::metric::summary_value;
use quotasim::objective::{check, load_objectives};
use quotasim::{GenerateOptions, Problem, ValidScenario};
use serde::Serialize;
use wasm_bindgen::prelude::*;

mod recommend;
mod slices;

#[wasm_bindgen(typescript_custom_section)]
const SHAPES: &str = include_str!("types.d.ts");

/// Largest time JavaScript numbers carry exactly (2^53 - 1).
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

fn install_panic_hook() {
    console_error_panic_hook::set_once();
}

/// The serializer every result goes through: maps become plain objects, `None` becomes
/// `null` (as in the JSON), and integers become numbers (an integer above 2^53 - 1 is an
/// error, never a `BigInt`).
fn serializer() -> serde_wasm_bindgen::Serializer {
    serde_wasm_bindgen::Serializer::new()
        .serialize_maps_as_objects(true)
        .serialize_missing_as_null(true)
        .serialize_large_number_types_as_bigints(false)
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serializer())
        .map_err(|e| JsValue::from(js_sys::Error::new(&format!("quotasim: cannot convert a result: {e}"))))
}

/// A JS `Error` listing every problem, with the problems attached as `err.problems`.
fn problems_error(what: &str, problems: &[Problem]) -> JsValue {
    let errors = problems.iter().filter(|p| p.is_error()).count();
    let mut message = format!("{what}: {errors} error{}", if errors == 1 { "" } else { "s" });
    let warnings = problems.len() - errors;
    if warnings > 0 {
        message.push_str(&format!(", {warnings} warning{}", if warnings == 1 { "" } else { "s" }));
    }
    for p in problems {
        message.push_str("\n  ");
        message.push_str(&p.to_string());
    }
    let err = js_sys::Error::new(&message);
    let list = to_js(problems).unwrap_or(JsValue::NULL);
    // Setting a property on a fresh Error object cannot fail; ignore the Result anyway.
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("problems"), &list);
    err.into()
}

fn range_error(message: &str) -> JsValue {
    js_sys::RangeError::new(message).into()
}

/// The JSON text of a scenario (or of generate options) given as a string or as an object.
fn json_text(input: &JsValue, what: &str) -> Result<String, Problem> {
    if let Some(text) = input.as_string() {
        return Ok(text);
    }
    if input.is_undefined() || input.is_null() {
        let got = if input.is_null() { "null" } else { "undefined" };
        return Err(Problem::error("", format!("expected {what} (an object or a JSON string), not {got}")));
    }
    match js_sys::JSON::stringify(input) {
        Ok(s) => match s.as_string() {
            Some(text) => Ok(text),
            None => Err(Problem::error("", format!("expected {what} (an object or a JSON string)"))),
        },
        Err(e) => {
            let why = js_sys::Error::from(e).message();
            Err(Problem::error("", format!("{what} cannot be converted to JSON: {why}")))
        }
    }
}

/// Parses and validates a scenario given as an object or a JSON string.
fn load(input: &JsValue) -> Result<ValidScenario, Vec<Problem>> {
    let text = json_text(input, "a scenario").map_err(|p| vec![p])?;
    quotasim::json::load_scenario(&text)
}

/// Checks a number given from JavaScript: a whole number from 0 to 2^53 - 1.
fn whole(name: &str, t: f64) -> Result<u64, JsValue> {
    if !t.is_finite() || t < 0.0 || t.fract() != 0.0 || t > MAX_SAFE {
        return Err(range_error(&format!(
            "quotasim: {name} must be a whole number from 0 to 2^53 - 1, not {t}"
        )));
    }
    Ok(t as u64)
}

/// A running simulation of one scenario.
///
/// Times are whole seconds of simulated time from 0; capacities and usage are counted in
/// instances. The object owns memory inside the WebAssembly module: call `free()` when done
/// with it (or use `using` where explicit resource management is available); a freed object
/// throws when used.
#[wasm_bindgen]
pub struct Simulation {
    inner: quotasim::Simulation,
    warnings: Vec<Problem>,
}

#[wasm_bindgen]
impl Simulation {
    /// Validates the scenario (an object in the scenario format, or its JSON text) and starts
    /// a simulation at time 0. Throws an `Error` listing every problem (also as
    /// `err.problems`) when the scenario is invalid.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    ) -> Result<Simulation, JsValue> {
        install_panic_hook();
        let mut valid = load(&scenario).map_err(|p| problems_error("quotasim: invalid scenario", &p))?;
        let warnings = std::mem::take(&mut valid.warnings);
        Ok(Simulation { inner: quotasim::Simulation::new(valid), warnings })
    }

    /// Processes the next instant at which anything happens and returns its time (seconds),
    /// or `undefined` when nothing is left to happen. Throws an `Error` when a time or a sum
    /// would pass 2^53 - 1 (see `run()`).
    pub fn step(&mut self) -> Result<Option<f64>, JsValue> {
        let t = self.inner.step().map(|t| t as f64);
        self.check()?;
        Ok(t)
    }

    /// An `Error` when the results cannot be given exactly: a job's next time or a sum in the
    /// summary would pass 2^53 - 1.
    fn check(&self) -> Result<(), JsValue> {
        match self.inner.run_error() {
            None => Ok(()),
            Some(e) => Err(js_sys::Error::new(&format!("quotasim: {e}")).into()),
        }
    }

    /// Processes every instant up to and including `t` (seconds), then stands at `t`. A `t`
    /// earlier than `now()` does nothing. Throws a `RangeError` unless `t` is a whole number
    /// from 0 to 2^53 - 1.
    #[wasm_bindgen(js_name = runUntil)]
    pub fn run_until(&mut self, t: f64) -> Result<(), JsValue> {
        let t = whole("runUntil(t): t (seconds)", t)?;
        self.inner.run_until(t);
        self.check()
    }

    /// Runs until nothing is left to happen, or to `settings.horizonSeconds`. Throws an
    /// `Error` naming the job when a job's next time would come after 2^53 - 1 (the run stops
    /// before it), or naming the summary field when a sum would pass 2^53 - 1: results are
    /// never wrong or saturated numbers.
    pub fn run(&mut self) -> Result<(), JsValue> {
        self.inner.run();
        self.check()
    }

    /// The current simulated time, in seconds.
    pub fn now(&self) -> f64 {
        self.inner.now() as f64
    }

    /// Whether nothing is left to happen.
    #[wasm_bindgen(js_name = isDone)]
    pub fn is_done(&self) -> bool {
        self.inner.is_done()
    }

    /// The capacity picture now: per instance type and per quota share, in instances.
    #[wasm_bindgen(unchecked_return_type = "Snapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.snapshot())
    }

    /// The events so far, or those from index `from` on (for incremental reading: pass the
    /// previous `eventCount()`).
    #[wasm_bindgen(unchecked_return_type = "SimEvent[]")]
    pub fn events(&self, from: Option<f64>) -> Result<JsValue, JsValue> {
        let from = match from {
            Some(f) => whole("events(from): from", f)? as usize,
            None => 0,
        };
        to_js(&self.inner.events_from(from))
    }

    /// How many events have been recorded so far.
    #[wasm_bindgen(js_name = eventCount)]
    pub fn event_count(&self) -> f64 {
        self.inner.event_count() as f64
    }

    /// Every job as `DescribeServiceJob` would show it now, in scenario order.
    #[wasm_bindgen(unchecked_return_type = "JobResult[]")]
    pub fn jobs(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.jobs())
    }

    /// The metrics so far, per quota share and overall.
    #[wasm_bindgen(unchecked_return_type = "Summary")]
    pub fn summary(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.summary())
    }

    /// The whole result so far, in the result format (what `quotasim run` prints). Throws an
    /// `Error`, as `resultJson()` does, for a result whose JSON no JavaScript string could
    /// hold: as objects it would take gigabytes of the JavaScript heap, and its copy in
    /// WebAssembly memory could pass the 4 GiB a wasm32 module has.
    #[wasm_bindgen(unchecked_return_type = "SimResult")]
    pub fn result(&self) -> Result<JsValue, JsValue> {
        self.result_floor()?;
        to_js(&self.inner.result())
    }

    /// Refuses a result surely too large for one call (see `resultJson`).
    fn result_floor(&self) -> Result<(), JsValue> {
        // Every job and event takes at least this many bytes (measured: 381 and 115 at least,
        // 447 and 139 on average): a result surely too long is refused before it is built.
        let floor = self.inner.scenario().jobs.len() * 300 + self.inner.event_count() * 100;
        too_long_for_js(floor, "the result", RESULT_INSTEAD)
            .map_err(|m| JsValue::from(js_sys::Error::new(&m.replacen("would be", "would be at least", 1))))
    }

    /// The result as compact JSON text: the same bytes as `quotasim run` prints (without its
    /// final newline). Throws an `Error` saying how large the text would be when no JavaScript
    /// string can hold it (about 512 MiB: some 300,000 jobs with their events): use
    /// `summaryResult()`, `jobs()` or `events(from)` in parts instead.
    #[wasm_bindgen(js_name = resultJson)]
    pub fn result_json(&self) -> Result<String, JsValue> {
        self.result_floor()?;
        json_for_js(&self.inner.result(), "the result", RESULT_INSTEAD)
    }

    /// `formatVersion`, `endedAt` and `summary` only (what `quotasim run --summary` prints).
    #[wasm_bindgen(js_name = summaryResult, unchecked_return_type = "SummaryResult")]
    pub fn summary_result(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.summary_result())
    }

    /// The warnings validation found (errors would have stopped the constructor).
    #[wasm_bindgen(unchecked_return_type = "Problem[]")]
    pub fn warnings(&self) -> Result<JsValue, JsValue> {
        to_js(&self.warnings)
    }

    /// An independent copy of this simulation in its current state, to explore a what-if.
    /// The copy must be freed too.
    pub fn fork(&self) -> Simulation {
        Simulation { inner: self.inner.clone(), warnings: self.warnings.clone() }
    }
}

/// What to do instead of taking a result too large for one call.
const RESULT_INSTEAD: &str = "use summaryResult(), jobs() or events(from) in parts, or quotasim run";

/// The longest string JavaScript engines hold: V8's limit (2^29 - 24 UTF-16 code units), the
/// smallest of the major engines'.
pub const MAX_JS_STRING: usize = (1 << 29) - 24;

/// `v` as compact JSON text (the bytes `to_json` gives), measured first so that it is written
/// once into memory of its exact length (a text that doubles as it grows would need three
/// times its size of the 4 GiB a wasm32 module has); an `Error` naming `what` and how large
/// it would be when a JavaScript string cannot hold it, with what to do `instead`.
fn json_for_js<T: Serialize>(v: &T, what: &str, instead: &str) -> Result<String, JsValue> {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let fail = |m: String| JsValue::from(js_sys::Error::new(&m));
    let mut count = Count(0);
    serde_json::to_writer(&mut count, v).map_err(|e| fail(format!("quotasim: {e}")))?;
    too_long_for_js(count.0, what, instead).map_err(fail)?;
    let mut buf = Vec::with_capacity(count.0);
    serde_json::to_writer(&mut buf, v).map_err(|e| fail(format!("quotasim: {e}")))?;
    String::from_utf8(buf).map_err(|e| fail(format!("quotasim: {e}")))
}

/// Whether text of `bytes` bytes fits in a JavaScript string; the message when not.
fn too_long_for_js(bytes: usize, what: &str, instead: &str) -> Result<(), String> {
    if bytes <= MAX_JS_STRING {
        return Ok(());
    }
    Err(format!(
        "quotasim: {what} as JSON would be {} MiB, more than a JavaScript string holds ({} MiB): {instead}",
        bytes >> 20,
        MAX_JS_STRING >> 20
    ))
}

/// Checks a scenario (an object or its JSON text) and returns every problem found, errors and
/// warnings, each with the path of its field; an empty array means the scenario is fine.
/// Never throws for a bad scenario.
#[wasm_bindgen(unchecked_return_type = "Problem[]")]
pub fn validate(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    let problems = match load(&scenario) {
        Ok(valid) => valid.warnings,
        Err(problems) => problems,
    };
    to_js(&problems)
}

/// Changes as `"PATH=VALUE"` strings (`quotasim run --set`), from a JS array.
fn changes_of(changes: &JsValue) -> Result<Vec<Change>, JsValue> {
    let fail = |p: Problem| problems_error("quotasim: invalid changes", &[p]);
    if changes.is_undefined() || changes.is_null() {
        return Ok(Vec::new());
    }
    let list: Vec<String> = serde_wasm_bindgen::from_value(changes.clone()).map_err(|e| {
        fail(Problem::error("", format!("changes must be an array of \"PATH=VALUE\" strings ({e})")))
    })?;
    list.iter().map(|c| Change::parse(c).map_err(fail)).collect()
}

/// Parses a scenario (object or JSON text), applies `changes`, validates it.
fn load_changed(scenario: &JsValue, changes: &[Change], what: &str) -> Result<ValidScenario, JsValue> {
    let text = json_text(scenario, "a scenario").map_err(|p| problems_error(what, &[p]))?;
    let s = quotasim::json::parse_scenario(&text).map_err(|p| problems_error(what, &[p]))?;
    let s = if changes.is_empty() {
        s
    } else {
        apply_changes(&s, changes).map_err(|p| problems_error(what, &[p]))?
    };
    quotasim::validate(&s).map_err(|p| problems_error(what, &p))
}

fn run_error(e: quotasim::RunError) -> JsValue {
    js_sys::Error::new(&format!("quotasim: {e}")).into()
}

/// Applies changes by path (`quotasim run --set`) to a scenario and returns the changed
/// scenario; lists are addressed by name: `quotaShares[team-b].resourceSharingConfiguration.strategy=LEND`,
/// `quotaShares[team-a].capacityLimits[ml.p5.48xlarge].maxCapacity=12`, `jobs[*].checkpointIntervalSeconds=900`.
/// Throws an `Error` (with `err.problems`) naming a path that names nothing or a value of the
/// wrong type. The result is not validated (`validate` it, or run it).
#[wasm_bindgen(js_name = applyChanges, unchecked_return_type = "Scenario")]
pub fn apply_changes_js(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] changes: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    let what = "quotasim: cannot apply the changes";
    let changes = changes_of(&changes)?;
    let text = json_text(&scenario, "a scenario").map_err(|p| problems_error(what, &[p]))?;
    let s = quotasim::json::parse_scenario(&text).map_err(|p| problems_error(what, &[p]))?;
    let s = apply_changes(&s, &changes).map_err(|p| problems_error(what, &[p]))?;
    to_js(&s)
}

fn comparison(a: &JsValue, b: &JsValue, changes: &JsValue) -> Result<quotasim::compare::Comparison, JsValue> {
    let changes = changes_of(changes)?;
    let ra = run_to_end(load_changed(a, &[], "quotasim: invalid scenario A")?, true).map_err(run_error)?;
    let (b, what) = if b.is_undefined() || b.is_null() {
        (a, changes.iter().map(Change::text).collect())
    } else {
        let mut w = vec!["second file".to_string()];
        w.extend(changes.iter().map(Change::text));
        (b, w)
    };
    let rb =
        run_to_end(load_changed(b, &changes, "quotasim: invalid scenario B")?, true).map_err(run_error)?;
    Ok(quotasim::compare::compare(&ra, &rb, what))
}

/// Compares two policies on the same workload (`quotasim compare`): B is a second scenario,
/// or A with `changes` (`"PATH=VALUE"` strings) when `b` is `null` or `undefined`. Returns
/// each side's summary result, the per-share and overall deltas (B - A) of every summary
/// number, and the jobs whose fate differs, matched by name.
#[wasm_bindgen(unchecked_return_type = "Comparison")]
pub fn compare(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Scenario | string | null | undefined")] b: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string[]")] changes: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    to_js(&comparison(&a, &b, &changes)?)
}

/// [`compare`] as compact JSON text: the bytes `quotasim compare` prints (without its final
/// newline).
#[wasm_bindgen(js_name = compareJson)]
pub fn compare_json(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Scenario | string | null | undefined")] b: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string[]")] changes: JsValue,
) -> Result<String, JsValue> {
    install_panic_hook();
    Ok(to_json(&comparison(&a, &b, &changes)?))
}

fn report(
    scenario: &JsValue,
    objectives: &JsValue,
    baseline: &JsValue,
) -> Result<quotasim::objective::Report, JsValue> {
    let what = "quotasim: invalid objectives";
    let text = json_text(objectives, "objectives").map_err(|p| problems_error(what, &[p]))?;
    let objs = load_objectives(&text).map_err(|p| problems_error(what, &p))?;
    let r =
        run_to_end(load_changed(scenario, &[], "quotasim: invalid scenario")?, false).map_err(run_error)?;
    let base = if baseline.is_undefined() || baseline.is_null() {
        None
    } else {
        let b = run_to_end(load_changed(baseline, &[], "quotasim: invalid baseline")?, false)
            .map_err(run_error)?;
        Some(summary_value(&summary_of(&b)))
    };
    check(&objs, &summary_value(&summary_of(&r)), base.as_ref()).map_err(|p| problems_error(what, &p))
}

/// Checks a run against objectives (`quotasim check`): each objective with its value, `met`
/// or not, and with a baseline scenario its value there too. `report.met` is false when any
/// objective is violated. Throws an `Error` (with `err.problems`) for invalid objectives, a
/// metric that does not exist (listing the valid ones) or an invalid scenario.
#[wasm_bindgen(js_name = check, unchecked_return_type = "Report")]
pub fn check_objectives(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Objectives | string")] objectives: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Scenario | string")] baseline: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    to_js(&report(&scenario, &objectives, &baseline)?)
}

/// [`check_objectives`] as compact JSON text: the bytes `quotasim check --format json` prints.
#[wasm_bindgen(js_name = checkJson)]
pub fn check_json(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Objectives | string")] objectives: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Scenario | string")] baseline: JsValue,
) -> Result<String, JsValue> {
    install_panic_hook();
    Ok(to_json(&report(&scenario, &objectives, &baseline)?))
}

/// A sweep read and checked as `quotasim sweep` reads and checks it, before any row runs.
struct SweepRun {
    base: quotasim::model::Scenario,
    sweep: quotasim::sweep::Sweep,
    /// Frontier goals not checked on the base's shape (not a valid scenario): checked on the
    /// first row with a summary, as the command line checks them.
    check_later: bool,
}

fn sweep_run(text: &str, replicates: Option<u32>) -> Result<SweepRun, JsValue> {
    use quotasim::sweep::{check_goals, check_sweep, parse_sweep, shape_of, DEFAULT_MAX_ROWS};
    let mut f = parse_sweep(text).map_err(|p| problems_error(SWEEP, &[p]))?;
    if replicates.is_some() {
        f.replicates = replicates;
    }
    if !f.base.is_object() {
        let p = Problem::error("base", "in the package a sweep's base is a scenario object, not a file path");
        return Err(problems_error(SWEEP, &[p]));
    }
    let base = quotasim::json::parse_scenario(&f.base.to_string())
        .map_err(|p| problems_error(SWEEP, &[Problem::error(format!("base: {}", p.path), p.message)]))?;
    let sweep = check_sweep(&f, &base, DEFAULT_MAX_ROWS).map_err(|p| problems_error(SWEEP, &p))?;
    let mut check_later = false;
    if !sweep.goals.is_empty() {
        match quotasim::validate(&shape_of(&base)).ok().and_then(|v| run_to_end(v, false).ok()) {
            Some(r) => check_goals(&sweep.goals, &summary_value(&summary_of(&r)))
                .map_err(|p| problems_error(SWEEP, &p))?,
            None => check_later = true,
        }
    }
    Ok(SweepRun { base, sweep, check_later })
}

const SWEEP: &str = "quotasim: invalid sweep";

/// The options `sweep` and `sweepJsonl` take.
struct SweepCall {
    signal: Option<JsValue>,
    on_row: Option<js_sys::Function>,
    /// Overrides the sweep file's `replicates` (`quotasim sweep --replicates N`).
    replicates: Option<u32>,
}

/// Every key `sweep`'s options may have.
const SWEEP_KEYS: &[&str] = &["signal", "onRow", "replicates"];

fn sweep_options(options: &JsValue) -> Result<SweepCall, JsValue> {
    let o = OptionsObject::read(options, SWEEP_KEYS, "quotasim: invalid sweep options")?;
    let signal = match o.get("signal") {
        Some(v) => Some(slices::signal_option(v).map_err(|m| o.fail("signal", m))?),
        None => None,
    };
    let on_row = match o.get("onRow") {
        Some(v) => Some(
            v.dyn_into()
                .map_err(|v| o.fail("onRow", format!("must be a function (row, line), not {}", shown(&v))))?,
        ),
        None => None,
    };
    let most = i64::from(quotasim::sweep::seeds::MAX_REPLICATES);
    let replicates = o.whole("replicates", 1, most)?.map(|n| n as u32);
    Ok(SweepCall { signal, on_row, replicates })
}

/// Every row of the sweep in index order, with `frontier` set when it has goals: run a row at
/// a time in slices, yielding to the event loop before each slice when `yielding`, each row
/// given to `onRow` as it is done.
async fn sweep_all(
    text: String,
    call: SweepCall,
    yielding: bool,
) -> Result<Vec<quotasim::sweep::SweepRow>, JsValue> {
    use quotasim::sweep::{check_goals, front_values, pareto, run_row};
    let s = slices::Slices { signal: call.signal.as_ref(), yielding, what: "sweep" };
    s.check()?;
    let SweepRun { base, sweep, mut check_later } = sweep_run(&text, call.replicates)?;
    let mut rows = Vec::with_capacity(sweep.rows as usize);
    let row = |k: usize| -> Result<(), JsValue> {
        let r = run_row(&base, &sweep, k as u64);
        if let Some(summary) = r.summary.as_ref().filter(|_| check_later) {
            check_goals(&sweep.goals, &summary_value(summary)).map_err(|p| problems_error(SWEEP, &p))?;
            check_later = false;
        }
        if let Some(cb) = &call.on_row {
            cb.call2(&JsValue::UNDEFINED, &to_js(&r)?, &JsValue::from(to_json(&r)))?;
        }
        rows.push(r);
        Ok(())
    };
    slices::in_slices(&s, sweep.rows as usize, row, |_| Ok(())).await?;
    if !sweep.goals.is_empty() {
        let vals: Vec<Vec<Option<f64>>> = rows.iter().map(front_values).collect();
        for (r, on) in rows.iter_mut().zip(pareto(&sweep.goals, &vals)) {
            r.frontier = Some(on);
        }
    }
    Ok(rows)
}

/// The sweep's text and options, read when the call is made.
fn sweep_args(file: &JsValue, options: &JsValue) -> Result<(String, SweepCall), JsValue> {
    let call = sweep_options(options)?;
    let text = json_text(file, "a sweep").map_err(|p| problems_error(SWEEP, &[p]))?;
    Ok((text, call))
}

/// Runs every variant of a sweep (`quotasim sweep`): `base` is a scenario object, `axes` the
/// change paths and their values or ranges, `frontier` optional `"METRIC:max|min"` goals.
/// Resolves to the rows in index order (last axis fastest), each with its axis values, its
/// changes, its summary result (or the `error` that stopped it), and with goals each goal's
/// value and whether the row is on the Pareto front: the rows `sweepJsonl` gives, as plain
/// objects.
///
/// The sweep is checked, then its rows run one at a time in slices of about 25 ms, the event
/// loop running before each (a `setTimeout(0)`). `options.onRow(row, line)` is called as each
/// row is done, in index order, with the row and its JSON text: the line `quotasim sweep`
/// prints for it, less the `frontier` flag a sweep with goals has (it needs every row; the
/// resolved rows have it). When `options.signal` (an `AbortSignal`) is aborted, before the
/// start or between slices, the promise rejects with a `DOMException` named `AbortError`. It
/// rejects with an `Error` (with `err.problems`) for a bad sweep, naming the axis, before
/// anything runs, or naming the option that is wrong.
#[wasm_bindgen(unchecked_return_type = "Promise<SweepRow[]>")]
pub fn sweep(
    #[wasm_bindgen(unchecked_param_type = "SweepFile | string")] file: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SweepOptions")] options: JsValue,
) -> js_sys::Promise {
    install_panic_hook();
    // The arguments are read now: a caller may change its objects once the call returns.
    let (text, call) = match sweep_args(&file, &options) {
        Ok(x) => x,
        Err(e) => return js_sys::Promise::reject(&e),
    };
    wasm_bindgen_futures::future_to_promise(async move { to_js(&sweep_all(text, call, true).await?) })
}

/// [`sweep`] as JSON lines, synchronously: the bytes `quotasim sweep` prints for the same
/// sweep (without the final newline). It runs the same slices without yielding: `onRow` is
/// called as `sweep` calls it, and `signal` is checked before the start and before each slice
/// (so only `onRow` can abort it once started); an aborted sweep throws the `AbortError`.
#[wasm_bindgen(js_name = sweepJsonl)]
pub fn sweep_jsonl(
    #[wasm_bindgen(unchecked_param_type = "SweepFile | string")] file: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SweepOptions")] options: JsValue,
) -> Result<String, JsValue> {
    install_panic_hook();
    let (text, call) = sweep_args(&file, &options)?;
    let rows = slices::at_once(sweep_all(text, call, false))?;
    Ok(rows.iter().map(to_json).collect::<Vec<_>>().join("\n"))
}

/// An options object, its keys checked: `null` or `undefined` is no options, and an option
/// set to `null` is one left out.
struct OptionsObject<'a> {
    object: Option<&'a JsValue>,
    what: &'static str,
}

impl<'a> OptionsObject<'a> {
    fn read(options: &'a JsValue, keys: &[&str], what: &'static str) -> Result<Self, JsValue> {
        if options.is_undefined() || options.is_null() {
            return Ok(OptionsObject { object: None, what });
        }
        let o = OptionsObject { object: Some(options), what };
        if !options.is_object() || js_sys::Array::is_array(options) || options.is_function() {
            return Err(problems_error(what, &[Problem::error("options", "must be an object")]));
        }
        let object: &js_sys::Object = options.unchecked_ref();
        for key in js_sys::Object::keys(object).iter() {
            let key = key.as_string().unwrap_or_default();
            if !keys.contains(&key.as_str()) {
                return Err(o.fail(&key, format!("unknown option, expected one of {}", keys.join(", "))));
            }
        }
        Ok(o)
    }

    fn get(&self, key: &str) -> Option<JsValue> {
        let v = js_sys::Reflect::get(self.object?, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
        (!v.is_undefined() && !v.is_null()).then_some(v)
    }

    /// An `Error` naming `options.<field>`.
    fn fail(&self, field: &str, message: String) -> JsValue {
        problems_error(self.what, &[Problem::error(format!("options.{field}"), message)])
    }

    /// The option `key` as a whole number from `low` to `high`, `None` when it is left out, or
    /// an `Error` naming it.
    fn whole(&self, key: &str, low: i64, high: i64) -> Result<Option<i64>, JsValue> {
        let Some(v) = self.get(key) else { return Ok(None) };
        match v.as_f64() {
            Some(x) if x.is_finite() && x.fract() == 0.0 && x >= low as f64 && x <= high as f64 => {
                Ok(Some(x as i64))
            }
            _ => {
                Err(self.fail(key, format!("must be a whole number from {low} to {high}, not {}", shown(&v))))
            }
        }
    }
}

/// Compares two policies over `replicates` seeds of their `workload` section (`quotasim
/// compare --replicates`): per share and metric, the median, min and max of A, B and the
/// paired delta, and how many seeds agree on its direction. Throws an `Error` when a side has
/// no `workload` section.
#[wasm_bindgen(js_name = compareReplicates, unchecked_return_type = "ReplicateReport")]
pub fn compare_replicates(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Scenario | string | null | undefined")] b: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[] | null | undefined")] changes: JsValue,
    replicates: f64,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    to_js(&replicate_report(&a, &b, &changes, replicates)?)
}

/// [`compare_replicates`] as compact JSON text: the bytes `quotasim compare --replicates N`
/// prints.
#[wasm_bindgen(js_name = compareReplicatesJson)]
pub fn compare_replicates_json(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Scenario | string | null | undefined")] b: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[] | null | undefined")] changes: JsValue,
    replicates: f64,
) -> Result<String, JsValue> {
    install_panic_hook();
    Ok(to_json(&replicate_report(&a, &b, &changes, replicates)?))
}

fn replicate_report(
    a: &JsValue,
    b: &JsValue,
    changes: &JsValue,
    replicates: f64,
) -> Result<quotasim::replicates::ReplicateReport, JsValue> {
    let n = whole("replicates", replicates)?;
    if !(1..=1000).contains(&n) {
        return Err(problems_error(
            "quotasim: invalid replicates",
            &[Problem::error("replicates", format!("must be 1 to 1000, not {n}"))],
        ));
    }
    let changes = if changes.is_undefined() || changes.is_null() { Vec::new() } else { changes_of(changes)? };
    let parse = |v: &JsValue, cs: &[Change], what: &str| -> Result<quotasim::model::Scenario, JsValue> {
        let text = json_text(v, "a scenario").map_err(|p| problems_error(what, &[p]))?;
        let s = quotasim::json::parse_scenario(&text).map_err(|p| problems_error(what, &[p]))?;
        if cs.is_empty() {
            Ok(s)
        } else {
            apply_changes(&s, cs).map_err(|p| problems_error(what, &[p]))
        }
    };
    let sa = parse(a, &[], "quotasim: invalid scenario A")?;
    let (sb, what) = if b.is_undefined() || b.is_null() {
        (parse(a, &changes, "quotasim: invalid scenario B")?, changes.iter().map(Change::text).collect())
    } else {
        let mut w = vec!["second file".to_string()];
        w.extend(changes.iter().map(Change::text));
        (parse(b, &changes, "quotasim: invalid scenario B")?, w)
    };
    let no_workload = |side: &str| {
        problems_error(
            "quotasim: replicates need a workload section",
            &[Problem::error("workload", format!("scenario {side} has no `workload` section"))],
        )
    };
    let base = sa.workload.as_ref().map(|w| w.seed).ok_or_else(|| no_workload("A"))?;
    sb.workload.as_ref().ok_or_else(|| no_workload("B"))?;
    let seeds = quotasim::replicates::seeds(base, n as u32);
    let mut pairs = Vec::with_capacity(seeds.len());
    for &seed in &seeds {
        // One seed at a time: each side expanded, run and dropped before the next.
        match quotasim::replicates::run_seed(&sa, &sb, seed) {
            Ok(pair) => pairs.push(pair),
            Err(quotasim::replicates::Failure::Invalid { a, problems }) => {
                let what = if a { "quotasim: invalid scenario A" } else { "quotasim: invalid scenario B" };
                return Err(problems_error(what, &problems));
            }
            Err(quotasim::replicates::Failure::Run { message, .. }) => {
                return Err(js_sys::Error::new(&format!("quotasim: {message}")).into())
            }
        }
    }
    Ok(quotasim::replicates::report(seeds, &pairs, what))
}

/// The jobs a scenario's `workload` section expands to, after its listed jobs, with the
/// section removed: what runs (`quotasim run --print-scenario`). Throws an `Error` (with
/// `err.problems`) naming each problem of the section.
#[wasm_bindgen(js_name = expandWorkload, unchecked_return_type = "Scenario")]
pub fn expand_workload(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    let what = "quotasim: invalid workload";
    let text = json_text(&scenario, "a scenario").map_err(|p| problems_error(what, &[p]))?;
    let s = quotasim::json::parse_scenario(&text).map_err(|p| problems_error(what, &[p]))?;
    to_js(&quotasim::workload::expanded(&s).map_err(|p| problems_error(what, &p))?)
}

/// What `fitWorkload` returns: the fitted scenario and how it was fitted.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FittedWorkload {
    scenario: quotasim::model::Scenario,
    warnings: Vec<Problem>,
}

/// The scenario with its listed jobs replaced by a `workload` section fitted to them
/// (`quotasim fit-workload`): per share, the arrival rate (one per hour of the day when the
/// jobs span 3 days or more), the instance type, size, priority, checkpoint and retry mixes,
/// and the durations (empirical with 20 jobs or more). Returns `{scenario, warnings}`; each
/// seed of the section is then another history like it (replicates), and `eta` can draw
/// arrivals from it. Throws an `Error` (with `err.problems`) naming what cannot be fitted.
#[wasm_bindgen(js_name = fitWorkload)]
pub fn fit_workload(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    let what = "quotasim: cannot fit a workload";
    let text = json_text(&scenario, "a scenario").map_err(|p| problems_error(what, &[p]))?;
    let s = quotasim::json::parse_scenario(&text).map_err(|p| problems_error(what, &[p]))?;
    let f = quotasim::fit_workload::fit_workload(&s).map_err(|p| problems_error(what, &p))?;
    to_js(&FittedWorkload { scenario: f.scenario, warnings: f.warnings })
}

/// What `importKueue` returns: the scenario, every warning with its document and field, and
/// what was recognised.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct KueueImport {
    scenario: quotasim::model::Scenario,
    warnings: Vec<Problem>,
    recognised: Vec<String>,
}

/// Kueue ClusterQueues, Cohorts, ResourceFlavors, LocalQueues and WorkloadPriorityClasses
/// (multi-document YAML) as a scenario (`quotasim import kueue`): `{scenario, warnings,
/// recognised}`. `gpusPerInstance` is used for flavors whose node labels do not say. Throws an
/// `Error` (with `err.problems`, each naming its document and field) when nothing can be
/// imported.
#[wasm_bindgen(js_name = importKueue)]
pub fn import_kueue(
    yaml_text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] gpus_per_instance: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    let what = "quotasim: cannot import the Kueue objects";
    let gpus = match gpus_per_instance.as_f64() {
        None => None,
        Some(g) => Some(whole("gpusPerInstance", g)? as i64),
    };
    let (docs, mut problems) = quotasim::yaml::documents("input", yaml_text);
    match quotasim::kueue::import(&docs, gpus) {
        Ok(r) if !problems.iter().any(Problem::is_error) => {
            problems.extend(r.warnings);
            to_js(&KueueImport { scenario: r.scenario, warnings: problems, recognised: r.recognised })
        }
        Ok(r) => {
            problems.extend(r.warnings);
            Err(problems_error(what, &problems))
        }
        Err(p) => {
            problems.extend(p);
            Err(problems_error(what, &problems))
        }
    }
}

/// What `importAws` returns: the scenario, what actually happened, every warning with its file,
/// line and field, and what was recognised in each file.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AwsImport {
    scenario: quotasim::model::Scenario,
    observed: quotasim::aws::Observed,
    warnings: Vec<Problem>,
    recognised: Vec<String>,
}

/// AWS Batch history as a scenario (`quotasim import aws`): `files` is an array of
/// `{name, text}` (describe-service-environments, list-quota-shares, describe-quota-share,
/// list-service-jobs pages, describe-service-job output, EventBridge JSON lines, in any mix).
/// Returns `{scenario, observed, warnings, recognised}`; `nowMillis` ends the runs of jobs still
/// running (default: the latest time in the input); `stateAtMillis` imports the live queue at
/// that instant instead, as an R28 state (`quotasim import aws --state-at`). Throws an `Error`
/// (with `err.problems`) when nothing can be imported.
#[wasm_bindgen(js_name = importAws)]
pub fn import_aws(
    #[wasm_bindgen(unchecked_param_type = "AwsFile[]")] files: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] now_millis: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] state_at_millis: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    let what = "quotasim: cannot import the AWS history";
    let files: Vec<quotasim::aws::AwsFile> = serde_wasm_bindgen::from_value(files).map_err(|e| {
        problems_error(what, &[Problem::error("files", format!("an array of {{name, text}} objects: {e}"))])
    })?;
    let now = match now_millis.as_f64() {
        None => None,
        Some(t) => Some(whole("nowMillis", t)? as i64),
    };
    let state_at = match state_at_millis.as_f64() {
        None => None,
        Some(t) => Some(whole("stateAtMillis", t)? as i64),
    };
    if now.is_some() && state_at.is_some() {
        return Err(problems_error(
            what,
            &[Problem::error(
                "stateAtMillis",
                "a state at an instant ends running attempts there: leave nowMillis out",
            )],
        ));
    }
    let inputs: Vec<(String, String)> = files.into_iter().map(|f| (f.name, f.text)).collect();
    match quotasim::aws::import_with(&inputs, quotasim::aws::ImportOptions { now, state_at }) {
        Ok(r) => to_js(&AwsImport {
            scenario: r.scenario,
            observed: r.observed,
            warnings: r.warnings,
            recognised: r.recognised,
        }),
        Err(p) => Err(problems_error(what, &p)),
    }
}

/// What `importTrace` returns: the scenario, every warning (and every row that could not be
/// read, as an error) with its file, line and field, and what each file held.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TraceImport {
    scenario: quotasim::model::Scenario,
    warnings: Vec<Problem>,
    recognised: Vec<String>,
}

/// Every key `importTrace`'s options may have: `quotasim import trace`'s flags.
const TRACE_KEYS: &[&str] = &[
    "format",
    "columns",
    "gpusPerInstance",
    "instanceType",
    "teams",
    "priorities",
    "capacity",
    "instances",
    "from",
    "to",
    "minGpus",
    "minDuration",
    "maxDuration",
    "checkpointInterval",
];

const TRACE: &str = "quotasim: cannot import the trace";

/// A `{name, text}` file.
fn named_file(v: &JsValue) -> Option<(String, String)> {
    let field = |k: &str| js_sys::Reflect::get(v, &JsValue::from_str(k)).ok().and_then(|x| x.as_string());
    if !v.is_object() {
        return None;
    }
    Some((field("name")?, field("text")?))
}

/// `VALUE=NAME` pairs as the command line spells them, or an object `{VALUE: NAME}`.
fn trace_pairs(o: &OptionsObject, key: &str) -> Result<Vec<(String, JsValue)>, JsValue> {
    let Some(v) = o.get(key) else { return Ok(Vec::new()) };
    if let Some(spec) = v.as_string() {
        let pairs = quotasim::trace::parse_pairs(key, &spec).map_err(|p| o.fail(key, p.message))?;
        return Ok(pairs.into_iter().map(|(a, b)| (a, JsValue::from(b))).collect());
    }
    if !v.is_object() || js_sys::Array::is_array(&v) || v.is_function() {
        return Err(o.fail(key, format!("must be an object or \"VALUE=NAME,...\" text, not {}", shown(&v))));
    }
    let entries = js_sys::Object::entries(v.unchecked_ref());
    Ok(entries
        .iter()
        .map(|e| {
            let e: js_sys::Array = e.unchecked_into();
            (e.get(0).as_string().unwrap_or_default(), e.get(1))
        })
        .collect())
}

fn trace_options(options: &JsValue) -> Result<quotasim::trace::TraceOptions, JsValue> {
    use quotasim::trace::{Columns, TraceFormat, TraceOptions, FIELDS};
    let o = OptionsObject::read(options, TRACE_KEYS, "quotasim: invalid trace options")?;
    if o.object.is_none() {
        return Err(problems_error(
            "quotasim: invalid trace options",
            &[Problem::error("options.format", "is required: \"openb\" or \"csv\"")],
        ));
    }
    let text = |key: &str| -> Result<Option<String>, JsValue> {
        match o.get(key) {
            None => Ok(None),
            Some(v) => match v.as_string() {
                Some(s) if !s.is_empty() => Ok(Some(s)),
                _ => Err(o.fail(key, format!("must be a non-empty string, not {}", shown(&v)))),
            },
        }
    };
    let whole_in = |key: &str, low: f64, high: f64| o.whole(key, low as i64, high as i64);
    let format = match text("format")?.as_deref() {
        Some("openb") => TraceFormat::Openb,
        Some("csv") => TraceFormat::Csv,
        got => {
            let got = got.map_or_else(|| "nothing".to_string(), |g| format!("{g:?}"));
            return Err(o.fail("format", format!("must be \"openb\" or \"csv\", not {got}")));
        }
    };
    let columns = match o.get("columns") {
        None => Columns::default(),
        Some(v) if v.is_string() => {
            Columns::parse(&v.as_string().unwrap_or_default()).map_err(|p| o.fail(&p.path, p.message))?
        }
        Some(_) => {
            let mut c = Columns::default();
            for (field, column) in trace_pairs(&o, "columns")? {
                let column = match column.as_string() {
                    Some(col) if !col.is_empty() => col,
                    _ => {
                        return Err(o.fail(
                            &format!("columns.{field}"),
                            format!("must name a column (a string), not {}", shown(&column)),
                        ))
                    }
                };
                let slot = match field.as_str() {
                    "name" => &mut c.name,
                    "submit" => &mut c.submit,
                    "start" => &mut c.start,
                    "end" => &mut c.end,
                    "duration" => &mut c.duration,
                    "gpus" => &mut c.gpus,
                    "gpuMilli" => &mut c.gpu_milli,
                    "team" => &mut c.team,
                    "priority" => &mut c.priority,
                    "status" => &mut c.status,
                    _ => {
                        return Err(o.fail(
                            &format!("columns.{field}"),
                            format!("is not one of {}", FIELDS.join(", ")),
                        ))
                    }
                };
                *slot = Some(column);
            }
            c
        }
    };
    let teams = trace_pairs(&o, "teams")?
        .into_iter()
        .map(|(value, share)| match share.as_string() {
            Some(name) if !name.is_empty() && !value.is_empty() => Ok((value, name)),
            _ => {
                Err(o.fail(&format!("teams.{value}"), format!("must be a share name, not {}", shown(&share))))
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let priorities = trace_pairs(&o, "priorities")?
        .into_iter()
        .map(|(value, p)| {
            let n =
                p.as_f64().or_else(|| p.as_string().and_then(|t| t.parse::<i64>().ok().map(|n| n as f64)));
            match n {
                Some(n) if n.is_finite() && n.fract() == 0.0 && n.abs() <= MAX_SAFE => Ok((value, n as i64)),
                _ => {
                    Err(o
                        .fail(&format!("priorities.{value}"), format!("{} is not a whole number", shown(&p))))
                }
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let capacity = match o.get("capacity") {
        None => None,
        Some(v) => Some(named_file(&v).ok_or_else(|| {
            o.fail("capacity", format!("must be a {{name, text}} file, not {}", shown(&v)))
        })?),
    };
    let min_gpus = match o.get("minGpus") {
        None => None,
        Some(v) => match v.as_f64() {
            Some(x) if x.is_finite() && x >= 0.0 => Some(x),
            _ => return Err(o.fail("minGpus", format!("must be a number of GPUs, not {}", shown(&v)))),
        },
    };
    Ok(TraceOptions {
        format,
        columns,
        gpus_per_instance: whole_in("gpusPerInstance", 1.0, 1024.0)?.unwrap_or(8),
        instance_type: text("instanceType")?,
        teams,
        priorities,
        capacity,
        instances: whole_in("instances", 1.0, MAX_SAFE)?,
        from: whole_in("from", -MAX_SAFE, MAX_SAFE)?,
        to: whole_in("to", -MAX_SAFE, MAX_SAFE)?,
        min_gpus,
        min_duration: whole_in("minDuration", 1.0, MAX_SAFE)?,
        max_duration: whole_in("maxDuration", 1.0, MAX_SAFE)?,
        checkpoint_interval: whole_in("checkpointInterval", 1.0, MAX_SAFE)?,
    })
}

/// The name the package gives an option the engine names (`columns.submit` is
/// `options.columns.submit`); a file's name stays as it is.
fn trace_path(path: &str) -> String {
    let option = match path.strip_prefix("columns.") {
        Some(field) => quotasim::trace::FIELDS.contains(&field),
        None => TRACE_KEYS.contains(&path),
    };
    if option {
        format!("options.{path}")
    } else {
        path.to_string()
    }
}

/// Job logs as a scenario (`quotasim import trace`): `files` is an array of `{name, text}` CSV
/// files of the same layout, `options` are the command line's flags: `format` (`"openb"`, the
/// Alibaba GPU trace's pod list, or `"csv"`, read through `columns`; required), `columns`
/// (`{submit: "submit_time", gpus: "gpu_num", ...}` or the command line's
/// `"submit=submit_time,gpus=gpu_num"`), `gpusPerInstance` (default 8), `instanceType`, `teams`
/// (`{VALUE: SHARE}` or `"VALUE=SHARE,..."`), `priorities` (`{VALUE: NUMBER}` or
/// `"VALUE=NUMBER,..."`), `capacity` (a `{name, text}` file of GPUs per team), `instances`,
/// `from`, `to`, `minGpus`, `minDuration`, `maxDuration` and `checkpointInterval`. Returns
/// `{scenario, warnings, recognised}`; the scenario is the one `quotasim import trace` writes.
/// A row that could not be read is skipped, with an `error` in `warnings` naming its file, line
/// and field (the command line exits 1 then). Throws an `Error` (with `err.problems`) naming
/// the option that is wrong, or when nothing can be imported.
#[wasm_bindgen(js_name = importTrace, unchecked_return_type = "TraceImport")]
pub fn import_trace(
    #[wasm_bindgen(unchecked_param_type = "TraceFile[]")] files: JsValue,
    #[wasm_bindgen(unchecked_param_type = "TraceOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    if !js_sys::Array::is_array(&files) {
        let p = Problem::error(
            "files",
            format!("must be an array of {{name, text}} files, not {}", shown(&files)),
        );
        return Err(problems_error(TRACE, &[p]));
    }
    let inputs = js_sys::Array::from(&files)
        .iter()
        .enumerate()
        .map(|(i, f)| {
            named_file(&f).ok_or_else(|| {
                let p =
                    Problem::error(format!("files[{i}]"), "must be a {name, text} file with string fields");
                problems_error(TRACE, &[p])
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let o = trace_options(&options)?;
    match quotasim::trace::import(&inputs, &o) {
        Ok(r) => to_js(&TraceImport { scenario: r.scenario, warnings: r.warnings, recognised: r.recognised }),
        Err(mut ps) => {
            for p in &mut ps {
                p.path = trace_path(&p.path);
            }
            Err(problems_error(TRACE, &ps))
        }
    }
}

/// A run of the scenario as EventBridge JSON lines, preceded by its service environment and
/// quota shares as AWS's describe output (`quotasim run --events-format eventbridge`); times
/// are epoch milliseconds from `originMillis` (default 2026-01-01T00:00:00Z).
#[wasm_bindgen(js_name = eventbridgeJsonl)]
pub fn eventbridge_jsonl(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] origin_millis: JsValue,
) -> Result<String, JsValue> {
    install_panic_hook();
    let what = "quotasim: cannot run the scenario";
    let text = json_text(&scenario, "a scenario").map_err(|p| problems_error(what, &[p]))?;
    let s = quotasim::json::parse_scenario(&text).map_err(|p| problems_error(what, &[p]))?;
    let origin = match origin_millis.as_f64() {
        None => quotasim::aws::DEFAULT_ORIGIN_MILLIS,
        Some(t) => whole("originMillis", t)? as i64,
    };
    let valid = quotasim::validate(&s).map_err(|p| problems_error(what, &p))?;
    let s = quotasim::workload::expanded(&s).map_err(|p| problems_error(what, &p))?;
    let mut sim = quotasim::Simulation::new(valid);
    sim.run();
    if let Some(e) = sim.run_error() {
        return Err(JsValue::from(js_sys::Error::new(&format!("quotasim: {e}"))));
    }
    let r = sim.result();
    let lines: Vec<String> = quotasim::aws::eventbridge(&s, &r, origin)
        .map_err(|p| problems_error(what, &[Problem::error("originMillis", p.message)]))?
        .iter()
        .map(quotasim::json::to_json)
        .collect();
    let bytes = lines.iter().map(|l| l.len() + 1).sum::<usize>().saturating_sub(1);
    too_long_for_js(bytes, "the EventBridge lines", "run quotasim run --events-format eventbridge")
        .map_err(|m| JsValue::from(js_sys::Error::new(&m)))?;
    Ok(lines.join("\n"))
}

/// Replays the scenario and puts it next to what was observed (`quotasim calibrate --format
/// json`): per share simulated vs observed wait p50/p95, preemptions and GPU-hours, and the
/// jobs whose simulated fate differs most.
#[wasm_bindgen(unchecked_return_type = "Calibration")]
pub fn calibrate(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Observed | string")] observed: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    let what = "quotasim: cannot calibrate";
    let text = json_text(&scenario, "a scenario").map_err(|p| problems_error(what, &[p]))?;
    let s = quotasim::json::parse_scenario(&text).map_err(|p| problems_error(what, &[p]))?;
    let valid = quotasim::validate(&s).map_err(|p| problems_error(what, &p))?;
    let otext = json_text(&observed, "observed jobs").map_err(|p| problems_error(what, &[p]))?;
    let obs: quotasim::aws::Observed = serde_json::from_str(&otext).map_err(|e| {
        problems_error(what, &[Problem::error("observed", format!("not an observed-jobs file: {e}"))])
    })?;
    quotasim::calibrate::check_observed(&obs).map_err(|p| problems_error(what, &p))?;
    let gpus = quotasim::calibrate::gpus_by_share(&valid);
    let fail = |e: quotasim::RunError| JsValue::from(js_sys::Error::new(&format!("quotasim: {e}")));
    let bare = match quotasim::calibrate::without_startup(&valid) {
        Some(v) => Some(quotasim::compare::run_to_end(v, true).map_err(fail)?),
        None => None,
    };
    let startup = (valid.settings.scheduled, valid.settings.starting);
    let r = quotasim::compare::run_to_end(valid, true).map_err(fail)?;
    let mut c = quotasim::calibrate::calibrate(&r, &obs, &gpus).map_err(|p| problems_error(what, &[p]))?;
    if let Some(bare) = &bare {
        quotasim::calibrate::explain_startup(&mut c, startup.0, startup.1, bare);
    }
    to_js(&c)
}

/// What AWS (or Kueue) deploys for the scenario's quota shares (`quotasim export`): `format`
/// is `"cloudformation"` (a JSON template), `"cloudformation-yaml"`, `"aws-cli"` (a shell
/// script) or `"kueue"` (multi-document YAML). Throws an `Error` for an invalid scenario or an
/// unknown format.
#[wasm_bindgen(js_name = exportScenario)]
pub fn export_scenario(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    format: &str,
) -> Result<String, JsValue> {
    install_panic_hook();
    let what = "quotasim: cannot export the scenario";
    let text = json_text(&scenario, "a scenario").map_err(|p| problems_error(what, &[p]))?;
    let s = quotasim::json::parse_scenario(&text).map_err(|p| problems_error(what, &[p]))?;
    quotasim::validate(&s).map_err(|p| problems_error(what, &p))?;
    Ok(match format {
        "cloudformation" => quotasim::json::to_json_pretty(&quotasim::export::cloudformation(&s)),
        "cloudformation-yaml" => quotasim::yaml::to_yaml(&quotasim::export::cloudformation(&s)),
        "aws-cli" => quotasim::export::aws_cli(&s),
        "kueue" => quotasim::yaml::to_yaml_documents(&quotasim::kueue::export(&s).0),
        other => {
            return Err(problems_error(
                what,
                &[Problem::error(
                    "format",
                    format!("{other:?} is not cloudformation, cloudformation-yaml, aws-cli or kueue"),
                )],
            ))
        }
    })
}

fn generate_options(options: &JsValue) -> Result<GenerateOptions, JsValue> {
    let fail = |p: Problem| problems_error("quotasim: invalid generate options", &[p]);
    let o: GenerateOptions = if options.is_undefined() || options.is_null() {
        GenerateOptions::default()
    } else {
        let text = json_text(options, "generate options").map_err(fail)?;
        let de = &mut serde_json::Deserializer::from_str(&text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." { String::new() } else { path };
            let message = e.into_inner().to_string();
            let message = match message.rfind(" at line ") {
                Some(i) => message[..i].to_string(),
                None => message,
            };
            fail(Problem::error(path, message))
        })?
    };
    o.check().map_err(|(field, msg)| fail(Problem::error(field, msg)))?;
    Ok(o)
}

/// A synthetic, deterministic scenario (Poisson arrivals, heavy-tailed durations, mixed
/// priorities): the same options give the same scenario as `quotasim generate`. Options not
/// given take their defaults (`jobs` 1000, `shares` 4, `instanceTypes` 2, `seed` 1,
/// `loadPercent` 95, `checkpointPercent` 80). Throws an `Error` (with `err.problems`) for an
/// option out of range or unknown.
#[wasm_bindgen(unchecked_return_type = "Scenario")]
pub fn generate(
    #[wasm_bindgen(unchecked_optional_param_type = "GenerateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    let o = generate_options(&options)?;
    to_js(&quotasim::generate(&o))
}

/// Like `generate`, as compact JSON text: the same bytes as `quotasim generate` prints
/// (without its final newline).
#[wasm_bindgen(js_name = generateJson)]
pub fn generate_json(
    #[wasm_bindgen(unchecked_optional_param_type = "GenerateOptions")] options: JsValue,
) -> Result<String, JsValue> {
    install_panic_hook();
    let o = generate_options(&options)?;
    Ok(to_json(&quotasim::generate(&o)))
}

/// The benchmark workload of `quotasim bench` for a number of jobs (20 quota shares, 5
/// instance types, seed 42), generated and validated once when constructed, so that `run`
/// times the simulation alone, as the native benchmark does.
#[wasm_bindgen]
pub struct BenchWorkload {
    valid: std::sync::Arc<ValidScenario>,
}

#[wasm_bindgen]
impl BenchWorkload {
    /// Generates and validates the workload. Throws an `Error` for a job count out of range.
    #[wasm_bindgen(constructor)]
    pub fn new(jobs: f64) -> Result<BenchWorkload, JsValue> {
        install_panic_hook();
        let o = GenerateOptions::benchmark(whole("jobs", jobs)?);
        o.check().map_err(|(field, msg)| {
            problems_error("quotasim: invalid benchmark size", &[Problem::error(field, msg)])
        })?;
        let valid = quotasim::validate(&quotasim::generate(&o))
            .map_err(|p| problems_error("quotasim: invalid generated scenario", &p))?;
        Ok(BenchWorkload { valid: std::sync::Arc::new(valid) })
    }

    /// Simulates the whole workload once, with the R24 event list recorded (as `result()`
    /// needs) or only counted (as `summaryResult()` needs).
    #[wasm_bindgen(unchecked_return_type = "BenchRun")]
    pub fn run(&self, record_events: bool) -> Result<JsValue, JsValue> {
        let mut sim = quotasim::Simulation::with_shared(
            self.valid.clone(),
            quotasim::Options { record_events, ..quotasim::Options::default() },
        );
        sim.run();
        to_js(&sim.bench_run())
    }
}

/// The options `eta` and `etaJson` take (`quotasim eta`'s flags), checked field by field.
struct EtaCall {
    set: Vec<String>,
    submit: Option<String>,
    opts: quotasim::eta::EtaOptions,
    signal: Option<JsValue>,
    on_progress: Option<js_sys::Function>,
}

/// Every key `options` may have.
const ETA_KEYS: &[&str] = &[
    "jobs",
    "submit",
    "set",
    "replicates",
    "seed",
    "horizon",
    "durations",
    "arrivals",
    "signal",
    "onProgress",
];

fn eta_options(options: &JsValue) -> Result<EtaCall, JsValue> {
    use quotasim::eta::{Arrivals, Durations, EtaOptions, DEFAULT_HORIZON, MAX_REPLICATES};
    let fail = |field: &str, message: String| {
        problems_error(
            "quotasim: invalid eta options",
            &[Problem::error(format!("options.{field}"), message)],
        )
    };
    let mut call = EtaCall {
        set: Vec::new(),
        submit: None,
        opts: EtaOptions::default(),
        signal: None,
        on_progress: None,
    };
    if options.is_undefined() || options.is_null() {
        return Ok(call);
    }
    if !options.is_object() || js_sys::Array::is_array(options) || options.is_function() {
        let p = Problem::error("options", "must be an object");
        return Err(problems_error("quotasim: invalid eta options", &[p]));
    }
    let object: &js_sys::Object = options.unchecked_ref();
    for key in js_sys::Object::keys(object).iter() {
        let key = key.as_string().unwrap_or_default();
        if !ETA_KEYS.contains(&key.as_str()) {
            return Err(fail(&key, format!("unknown option, expected one of {}", ETA_KEYS.join(", "))));
        }
    }
    let get = |key: &str| -> Option<JsValue> {
        // `null` is an option left out, as `undefined` is.
        let v = js_sys::Reflect::get(options, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
        (!v.is_undefined() && !v.is_null()).then_some(v)
    };
    let strings = |key: &str, what: &str| -> Result<Vec<String>, JsValue> {
        match get(key) {
            None => Ok(Vec::new()),
            Some(v) if js_sys::Array::is_array(&v) => js_sys::Array::from(&v)
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    x.as_string().ok_or_else(|| {
                        fail(&format!("{key}[{i}]"), format!("must be a string, not {}", shown(&x)))
                    })
                })
                .collect(),
            Some(v) => Err(fail(key, format!("must be an array of {what}, not {}", shown(&v)))),
        }
    };
    let number = |key: &str, low: u64, high: u64| -> Result<Option<u64>, JsValue> {
        let Some(v) = get(key) else { return Ok(None) };
        match v.as_f64() {
            Some(x) if x.is_finite() && x.fract() == 0.0 && x >= low as f64 && x <= high as f64 => {
                Ok(Some(x as u64))
            }
            _ => Err(fail(key, format!("must be a whole number from {low} to {high}, not {}", shown(&v)))),
        }
    };
    call.opts.jobs = strings("jobs", "job names")?;
    call.set = strings("set", "\"PATH=VALUE\" strings")?;
    if let Some(v) = get("submit") {
        call.submit = Some(json_text(&v, "a job").map_err(|p| fail("submit", p.message))?);
    }
    if let Some(n) = number("replicates", 1, u64::from(MAX_REPLICATES))? {
        call.opts.replicates = n as u32;
    }
    call.opts.seed = number("seed", 0, MAX_SAFE as u64)?.unwrap_or(0);
    call.opts.horizon = number("horizon", 1, MAX_SAFE as u64)?.unwrap_or(DEFAULT_HORIZON);
    call.opts.durations = match get("durations").map(|v| v.as_string().ok_or(v)) {
        None => None,
        Some(Ok(s)) if s == "history" => Some(Durations::History),
        Some(Ok(s)) if s == "workload" => Some(Durations::Workload),
        Some(Ok(s)) if s == "timeout" => Some(Durations::Timeout),
        Some(Ok(s)) if s == "exact" => Some(Durations::Exact),
        Some(v) => {
            let got = v.map_or_else(|v| shown(&v), |s| format!("{s:?}"));
            return Err(fail(
                "durations",
                format!("must be \"history\", \"workload\", \"timeout\" or \"exact\", not {got}"),
            ));
        }
    };
    call.opts.arrivals = match get("arrivals").map(|v| v.as_string().ok_or(v)) {
        None => Arrivals::Listed,
        Some(Ok(s)) if s == "listed" => Arrivals::Listed,
        Some(Ok(s)) if s == "none" => Arrivals::None,
        Some(Ok(s)) if s == "workload" => Arrivals::Workload,
        Some(v) => {
            let got = v.map_or_else(|v| shown(&v), |s| format!("{s:?}"));
            return Err(fail("arrivals", format!("must be \"listed\", \"none\" or \"workload\", not {got}")));
        }
    };
    if let Some(v) = get("signal") {
        call.signal = Some(slices::signal_option(v).map_err(|m| fail("signal", m))?);
    }
    if let Some(v) = get("onProgress") {
        call.on_progress = Some(v.dyn_into().map_err(|v| {
            fail("onProgress", format!("must be a function (done, total), not {}", shown(&v)))
        })?);
    }
    Ok(call)
}

/// A JS value as an error message quotes it: a number or a string itself, anything else its
/// type (`null`, `boolean`, `object`, ...).
fn shown(v: &JsValue) -> String {
    if let Some(x) = v.as_f64() {
        return format!("{x}");
    }
    if let Some(s) = v.as_string() {
        return format!("{s:?}");
    }
    if v.is_null() {
        return String::from("null");
    }
    v.js_typeof().as_string().unwrap_or_default()
}

/// The name the package gives an option the engine names as the command line spells it
/// (`--job[0]` is `options.jobs[0]`, `--submit.jobName` is `options.submit.jobName`); a path in
/// the state stays as it is.
fn option_path(path: &str) -> String {
    let Some(flag) = path.strip_prefix("--") else { return path.to_string() };
    match flag.strip_prefix("job[") {
        Some(rest) => format!("options.jobs[{rest}"),
        None => format!("options.{flag}"),
    }
}

/// The forecast of the state (its JSON text) as `call` asks: read and prepared by the engine
/// exactly as `quotasim eta` reads and prepares it.
fn forecast(text: &str, call: &EtaCall) -> Result<quotasim::eta::Forecast, JsValue> {
    quotasim::eta::prepare(text, &call.set, call.submit.as_deref(), call.opts.clone()).map_err(|mut ps| {
        for p in &mut ps {
            p.path = option_path(&p.path);
        }
        problems_error("quotasim: cannot forecast", &ps)
    })
}

fn state_text(state: &JsValue) -> Result<String, JsValue> {
    json_text(state, "a state").map_err(|p| problems_error("quotasim: cannot forecast", &[p]))
}

/// Calls `onProgress(done, total)` when given; what it throws stops the forecast.
fn progress(call: &EtaCall, done: usize, total: u32) -> Result<(), JsValue> {
    match &call.on_progress {
        Some(cb) => {
            cb.call2(&JsValue::UNDEFINED, &JsValue::from(done as f64), &JsValue::from(total)).map(drop)
        }
        None => Ok(()),
    }
}

/// Start-time forecasts from a live state (`quotasim eta`): for each queued job (or those in
/// `options.jobs`, and `options.submit`), when it starts over `options.replicates` replicates
/// (p10, p50, p90, mean), why it waits now and who is ahead of it, and whom a submitted job
/// would preempt. `state` is an R28 scenario (what `quotasim run --print-state-at T` writes).
/// The options are the command line's, with its defaults: `jobs` (`--job`), `submit` (a job,
/// `--submit`), `set` (`"PATH=VALUE"` changes, `--set`), `replicates` (200), `seed` (0),
/// `horizon` (86400 s), `durations` (`"history"` when the state has one, else `"workload"`
/// when it has a `workload` section, else `"timeout"`; or `"exact"`), `arrivals` (`"listed"`,
/// `"none"` or `"workload"`).
///
/// The state is prepared, then the replicates run in slices of about 25 ms, the event loop
/// running before each (a `setTimeout(0)`); `onProgress(done, total)` is called after the
/// preparation (`done` 0) and after each slice. When `signal` (an `AbortSignal`) is aborted,
/// before the start or between slices, the promise rejects with a `DOMException` named
/// `AbortError`. It rejects with an `Error` (with `err.problems`) naming an option
/// (`options.replicates`) or a field of the state that is wrong. The report is the one
/// `etaJson` gives, as plain objects.
#[wasm_bindgen(unchecked_return_type = "Promise<EtaReport>")]
pub fn eta(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] state: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "EtaOptions")] options: JsValue,
) -> js_sys::Promise {
    install_panic_hook();
    // The arguments are read now: a caller may change its objects once the call returns.
    let read = eta_options(&options).and_then(|call| Ok((state_text(&state)?, call)));
    let (text, call) = match read {
        Ok(x) => x,
        Err(e) => return js_sys::Promise::reject(&e),
    };
    wasm_bindgen_futures::future_to_promise(async move { to_js(&eta_report(text, call, true).await?) })
}

/// The forecast `eta` and `etaJson` make: prepared in one step that cannot be cut, then the
/// replicates in slices, yielding to the event loop before each when `yielding`.
async fn eta_report(
    text: String,
    call: EtaCall,
    yielding: bool,
) -> Result<quotasim::eta::EtaReport, JsValue> {
    let s = slices::Slices { signal: call.signal.as_ref(), yielding, what: "forecast" };
    s.check()?;
    let f = forecast(&text, &call)?;
    let total = f.replicates();
    let mut outcomes = Vec::with_capacity(total as usize);
    progress(&call, 0, total)?;
    let replicate = |i: usize| -> Result<(), JsValue> {
        let o = f
            .replicate(i as u32)
            .map_err(|e| JsValue::from(js_sys::Error::new(&format!("quotasim: {e}"))))?;
        outcomes.push(o);
        Ok(())
    };
    slices::in_slices(&s, total as usize, replicate, |done| progress(&call, done, total)).await?;
    Ok(f.report(&outcomes))
}

/// `eta` as compact JSON text, synchronously: the bytes `quotasim eta STATE --format json`
/// prints with the same options (without its final newline), whatever its `--threads`. It runs
/// the same slices without yielding: `onProgress` is called as `eta` calls it, and `signal` is
/// checked before the start and before each slice (so only `onProgress` can abort it once
/// started); an aborted forecast throws the `AbortError`.
#[wasm_bindgen(js_name = etaJson)]
pub fn eta_json(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] state: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "EtaOptions")] options: JsValue,
) -> Result<String, JsValue> {
    install_panic_hook();
    let call = eta_options(&options)?;
    let text = state_text(&state)?;
    Ok(to_json(&slices::at_once(eta_report(text, call, false))?))
}

/// Every key `why`'s options may have.
const WHY_KEYS: &[&str] = &["preemption", "by", "maxRuns"];

/// The name the package gives an option the engine names as the command line spells it.
fn why_path(path: &str) -> String {
    match path {
        "--job" => "jobName".into(),
        "--preemption" => "options.preemption".into(),
        "--by" => "options.by".into(),
        "--max-runs" => "options.maxRuns".into(),
        p => p.into(),
    }
}

/// The report `why` and `whyJson` give, read and made exactly as `quotasim why` makes it.
fn why_report(
    scenario: &JsValue,
    job_name: &JsValue,
    options: &JsValue,
) -> Result<quotasim::why::WhyReport, JsValue> {
    use quotasim::why::{WhyError, WhyOptions, DEFAULT_MAX_RUNS, MAX_RUNS};
    const WHAT: &str = "quotasim: cannot explain";
    let fail = |path: &str, message: String| problems_error(WHAT, &[Problem::error(path, message)]);
    let Some(job) = job_name.as_string() else {
        return Err(fail("jobName", format!("must be a job's name (a string), not {}", shown(job_name))));
    };
    let mut opts = WhyOptions { job, preemption: None, by: None, max_runs: DEFAULT_MAX_RUNS };
    if !(options.is_undefined() || options.is_null()) {
        if !options.is_object() || js_sys::Array::is_array(options) || options.is_function() {
            return Err(fail("options", "must be an object".into()));
        }
        let object: &js_sys::Object = options.unchecked_ref();
        for key in js_sys::Object::keys(object).iter() {
            let key = key.as_string().unwrap_or_default();
            if !WHY_KEYS.contains(&key.as_str()) {
                return Err(fail(
                    &format!("options.{key}"),
                    format!("unknown option, expected one of {}", WHY_KEYS.join(", ")),
                ));
            }
        }
        let number = |key: &str, low: u64, high: u64| -> Result<Option<u64>, JsValue> {
            // `null` is an option left out, as `undefined` is.
            let v = js_sys::Reflect::get(options, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
            if v.is_undefined() || v.is_null() {
                return Ok(None);
            }
            match v.as_f64() {
                Some(x) if x.is_finite() && x.fract() == 0.0 && x >= low as f64 && x <= high as f64 => {
                    Ok(Some(x as u64))
                }
                _ => Err(fail(
                    &format!("options.{key}"),
                    format!("must be a whole number from {low} to {high}, not {}", shown(&v)),
                )),
            }
        };
        opts.preemption = number("preemption", 1, u64::from(u32::MAX))?.map(|k| k as u32);
        opts.by = number("by", 1, MAX_SAFE as u64)?;
        if let Some(m) = number("maxRuns", 1, u64::from(MAX_RUNS))? {
            opts.max_runs = m as u32;
        }
    }
    let text = json_text(scenario, "a scenario").map_err(|p| problems_error(WHAT, &[p]))?;
    let s = quotasim::json::parse_scenario(&text).map_err(|p| problems_error(WHAT, &[p]))?;
    quotasim::why::why(&s, &opts).map_err(|e| match e {
        WhyError::Usage(mut p) => {
            p.path = why_path(&p.path);
            problems_error(WHAT, &[p])
        }
        WhyError::Invalid(ps) => problems_error(WHAT, &ps),
        WhyError::Run(m) => JsValue::from(js_sys::Error::new(&format!("quotasim: {m}"))),
    })
}

/// "What would have avoided this?" (`quotasim why`): for the job's preemption (the
/// `options.preemption`-th, default the first) or, when it is never preempted, its wait, the
/// single changes of a fixed catalogue that reach the target (preempted fewer times and
/// finishing no later; for a wait, starting `options.by` seconds earlier, default half its
/// wait), each verified by a full re-run, smallest on its ladder for a numeric field, with its
/// side effects on other jobs; fewest jobs harmed first. `options.maxRuns` bounds the runs
/// (default 50, the baseline included). Each change's `set` are `"PATH=VALUE"` changes for
/// `applyChanges` or `compare`. Runs synchronously. It throws an `Error` (with `err.problems`)
/// naming the option (`options.preemption`, `jobName`) or the scenario's field that is wrong.
#[wasm_bindgen(unchecked_return_type = "WhyReport")]
pub fn why(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(js_name = jobName, unchecked_param_type = "string")] job_name: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "WhyOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    install_panic_hook();
    to_js(&why_report(&scenario, &job_name, &options)?)
}

/// [`why`] as compact JSON text: the bytes `quotasim why SCENARIO --job NAME --format json`
/// prints with the same options (without its final newline).
#[wasm_bindgen(js_name = whyJson)]
pub fn why_json(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(js_name = jobName, unchecked_param_type = "string")] job_name: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "WhyOptions")] options: JsValue,
) -> Result<String, JsValue> {
    install_panic_hook();
    Ok(to_json(&why_report(&scenario, &job_name, &options)?))
}

/// Bytes of WebAssembly linear memory now. Linear memory never shrinks, so this is also the
/// module's memory high-water mark.
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        (core::arch::wasm32::memory_size(0) * 65536) as f64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    #[test]
    fn text_longer_than_a_javascript_string_is_refused_with_its_size() {
        assert!(too_long_for_js(MAX_JS_STRING, "the result", "x").is_ok());
        let e = too_long_for_js(1_403_051_535, "the result", "use summaryResult()").unwrap_err();
        assert_eq!(
            e,
            "quotasim: the result as JSON would be 1338 MiB, more than a JavaScript string holds (511 MiB): use summaryResult()"
        );
    }
}
