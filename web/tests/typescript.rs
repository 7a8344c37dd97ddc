//! The package's TypeScript declarations are generated from one source: the engine's Rust
//! types and their serde attributes (`engine/src/{kernel/model/mod,kernel/model/serde_impls,kernel/result,kernel/problem,studies/compare,studies/eta/mod}.rs`, ...: `SOURCES`),
//! read with `syn`; the few shapes that exist only in the package (options holding JavaScript
//! objects: an `AbortSignal`, a callback) are written here, in [`PACKAGE_SHAPES`]. The output, `src/types.d.ts`, is committed and embedded by `src/lib.rs` in
//! the package's `.d.ts`. The first test fails when that file is stale;
//! `QUOTASIM_UPDATE_TYPES=1 cargo test -p quotasim-wasm --test typescript` rewrites it.
//!
//! The serde rules followed (those the engine uses): `rename_all` (`camelCase`,
//! `SCREAMING_SNAKE_CASE`, `lowercase`), `rename`, `default`, `skip_serializing(_if)`,
//! `deny_unknown_fields`, `serialize_with` on a `Vec<(String, T)>` (written as a map), and
//! `deserialize_with` that reads the field's own type (shape unchanged).
//! A field is optional (`?`) when the JSON may leave it out: on input when it has a default (or
//! is an `Option`), on output when it may be skipped. `Option<T>` is `T | null`, except on a
//! field of an output-only type that is skipped when empty. Types with a hand-written serde
//! impl are declared through the raw type their impl goes through (`Action` is `ActionRaw`).
//! Any Rust type the generator does not know makes it fail, never guess.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Fields, GenericArgument, Item, Lit, Meta, PathArguments, Token, Type};

const HEADER: &str = "\
// The scenario and result shapes of Quotasim, generated from the engine's Rust types by
// web/tests/typescript.rs. Do not edit: after changing those types run
// `QUOTASIM_UPDATE_TYPES=1 cargo test -p quotasim-wasm --test typescript`.
// Times are whole seconds of simulated time from 0; capacities are counted in instances.
";

/// The engine files whose types make up the shapes.
const SOURCES: &[&str] = &[
    "kernel/model/mod.rs",
    "kernel/model/workload.rs",
    "kernel/model/settings.rs",
    "kernel/result.rs",
    "kernel/problem.rs",
    "kernel/generate.rs",
    "kernel/model/serde_impls.rs",
    "studies/compare.rs",
    "studies/objective.rs",
    "kernel/workload.rs",
    "studies/sweep/file.rs",
    "studies/sweep/row.rs",
    "studies/replicates.rs",
    "bridges/aws/mod.rs",
    "bridges/aws/observed.rs",
    "studies/calibrate.rs",
    "studies/eta/options.rs",
    "studies/eta/report.rs",
    "studies/why/report.rs",
    "studies/recommend/report.rs",
    "studies/recommend/space.rs",
];

/// Where the shapes start: the scenario (input) first, then what the package returns.
const INPUT_ROOTS: &[&str] =
    &["Scenario", "GenerateOptions", "Objectives", "SweepFile", "AwsFile", "Observed", "SpaceFile"];
const OUTPUT_ROOTS: &[&str] = &[
    "Problem",
    "SimResult",
    "SummaryResult",
    "Snapshot",
    "BenchRun",
    "Comparison",
    "Report",
    "SweepRow",
    "ReplicateReport",
    "Calibration",
    "EtaReport",
    "WhyReport",
    "RecommendReport",
];

/// Types whose serde impl is hand-written (serde_impls.rs): the type it is written as, and
/// whether a JSON string of it is accepted too.
const WRITTEN_AS: &[(&str, &str, bool)] =
    &[("Action", "ActionRaw", false), ("ServiceRequestPayload", "PayloadRaw", true)];

/// TypeScript names: raw serde types get the name of what they are, and `Event` is `SimEvent`
/// so that it does not shadow the DOM's `Event` in a user's module.
const TS_NAMES: &[(&str, &str)] = &[
    ("ActionRaw", "Action"),
    ("UpdateServiceJobRaw", "UpdateServiceJob"),
    ("TerminateRaw", "TerminateServiceJob"),
    ("UpdateSeRaw", "UpdateServiceEnvironment"),
    ("PayloadRaw", "ServiceRequestPayload"),
    ("ResourceConfigRaw", "ResourceConfig"),
    ("StoppingConditionRaw", "StoppingCondition"),
    ("CheckpointConfigRaw", "CheckpointConfig"),
    ("Event", "SimEvent"),
    // The forecast's shapes share one prefix, next to every other shape of the package.
    ("JobEta", "EtaJob"),
    ("Band", "EtaBand"),
    ("BandIso", "EtaBandIso"),
    ("Victim", "EtaVictim"),
    ("Durations", "EtaDurations"),
    ("Arrivals", "EtaArrivals"),
    ("Found", "WhyChange"),
    ("JobChange", "WhyJobChange"),
    ("Harmed", "WhyHarmed"),
    ("Harm", "WhyHarm"),
    ("ShareEffect", "WhyShareEffect"),
    ("TriedReport", "WhyTried"),
    ("Tried", "WhyTriedEntry"),
    ("Tested", "WhyTested"),
    ("TriedOutcome", "WhyOutcome"),
    ("EventKind", "WhyEventKind"),
    ("PreemptionInfo", "WhyPreemption"),
];

/// Shapes of the package's own (no Rust type has them): `eta`'s and `sweep`'s options, whose
/// `signal`, `onProgress` and `onRow` are JavaScript objects, and `importTrace`'s. Typed without the DOM library, as every declaration is.
/// `eta_options_are_the_ones_lib_rs_reads` keeps the keys those of `src/lib.rs`.
const PACKAGE_SHAPES: &str = r#"/**
 * What `eta` and `etaJson` forecast and how: `quotasim eta`'s options, with its defaults.
 * `null` is the same as leaving a field out.
 */
export interface EtaOptions {
  /** The jobs to forecast (`--job`); default: every queued job (and the submitted one). */
  jobs?: Array<string>;
  /** A job to submit at `startAt` (`--submit`, an object or its JSON text): its band and whom it would preempt. */
  submit?: Job | string;
  /** Changes to the state before forecasting (`--set`), `"PATH=VALUE"`; the draws stay the same. */
  set?: Array<string>;
  /** Replicates, 1 to 100000 (default 200). */
  replicates?: number;
  /** The draws' seed (default 0). */
  seed?: number;
  /** Seconds after `startAt` the runs stop at (default 86400). */
  horizon?: number;
  /**
   * Where durations come from (default: `"history"` when the state has one, else `"workload"`
   * when it has a `workload` section, else `"timeout"`).
   */
  durations?: "history" | "workload" | "timeout" | "exact";
  /**
   * Which jobs arrive after `startAt` (default `"listed"`; `"none"`: the queue as it is;
   * `"workload"`: drawn at the `workload` section's rates instead of the listed later jobs).
   */
  arrivals?: "listed" | "none" | "workload";
  /** Aborts the forecast: `eta` rejects (and `etaJson` throws) a `DOMException` named `AbortError`. */
  signal?: AbortSignalLike;
  /** Called after each slice of replicates: how many have run, of how many. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * What `why` and `whyJson` explain and how: `quotasim why`'s options, with its defaults.
 * `null` is the same as leaving a field out.
 */
export interface WhyOptions {
  /** The job's preemption to explain, from 1 (`--preemption`); default the first, or its wait when it is never preempted. */
  preemption?: number;
  /** For a wait: how many seconds earlier it must start (`--by`); default half its wait. */
  by?: number;
  /** Most runs of the scenario, the baseline included, 1 to 10000 (`--max-runs`, default 50). */
  maxRuns?: number;
}

/**
 * How `sweep` runs: `signal` aborts it, `onRow` sees each row as it is done, `replicates`
 * runs each point on several seeds.
 * `null` is the same as leaving a field out.
 */
export interface SweepOptions {
  /** Aborts the sweep: `sweep` rejects (and `sweepJsonl` throws) a `DOMException` named `AbortError`. */
  signal?: AbortSignalLike;
  /**
   * Called as each row is done, in index order: the row, and its JSON text (the line
   * `quotasim sweep` prints for it, less `frontier` when the sweep has goals: the front needs
   * every row, and the rows `sweep` resolves to have it).
   */
  onRow?: (row: SweepRow, line: string) => void;
  /**
   * Runs every point on this many seeds of the base's workload, 1 to 1000 (`quotasim sweep
   * --replicates N`): rows carry `replicates`, `seeds` and `stats` (the median, min and max
   * of every number) instead of `summary`. Overrides the sweep file's `replicates`.
   */
  replicates?: number;
}

/**
 * What `recommend` and `recommendJson` search and how: `quotasim recommend`'s options, with
 * its defaults, and how the call runs. `null` is the same as leaving a field out.
 */
export interface RecommendOptions {
  /** A metric path to minimise instead of `capacityPerHour` (`--minimize`, no `*`). */
  minimize?: string;
  /** The space file (`--space`): capacities and quotas bounded, sharing narrowed, fields fixed or added. */
  space?: SpaceFile | string;
  /** Seeds of the workload each candidate runs on, 1 to 1000 (`--replicates`, default 1). */
  replicates?: number;
  /** The fraction of the seeds on which an objective must be met, above 0 and at most 1 (`--confidence`, default 1). */
  confidence?: number;
  /** Most single-seed runs, 1 to 1000000 (`--max-runs`, default 1000). */
  maxRuns?: number;
  /** Aborts the study: `recommend` rejects (and `recommendJson` throws) a `DOMException` named `AbortError`. */
  signal?: AbortSignalLike;
  /** Called after each slice with the runs made so far and the budget. */
  onProgress?: (runs: number, maxRuns: number) => void;
}

/** A file given to `importTrace`: its name (in warnings) and its text. */
export interface TraceFile {
  name: string;
  text: string;
}

/**
 * How `importTrace` reads job logs: `quotasim import trace`'s flags, with its defaults.
 * `null` is the same as leaving a field out.
 */
export interface TraceOptions {
  /** `"openb"`: the Alibaba GPU trace's pod list; `"csv"`: any CSV log, read through `columns` (`--format`). */
  format: "openb" | "csv";
  /** The column of each field (`--columns`): an object, or `"submit=submit_time,gpus=gpu_num,..."`. */
  columns?: string | {
    name?: string; submit?: string; start?: string; end?: string; duration?: string;
    gpus?: string; gpuMilli?: string; team?: string; priority?: string; status?: string;
  };
  /** GPUs per instance, 1 to 1024 (default 8). */
  gpusPerInstance?: number;
  /** Default: ml.g5.xlarge, ml.g5.12xlarge or ml.p5.48xlarge for 1, 4 or 8 GPUs per instance. */
  instanceType?: string;
  /** Team values to quota share names (`--teams`): `{VALUE: SHARE}` or `"VALUE=SHARE,..."`. */
  teams?: string | Record<string, string>;
  /** Priority values to schedulingPriority (`--priorities`): `{VALUE: NUMBER}` or `"VALUE=NUMBER,..."`. */
  priorities?: string | Record<string, number>;
  /** GPUs per team (`--capacity`): two columns (team, GPUs) or one column per team (last row counts). */
  capacity?: TraceFile;
  /** The service environment's instances without `capacity` (default: the log's peak). */
  instances?: number;
  /** Keep rows submitted at or after this time of the log (seconds). */
  from?: number;
  /** Keep rows submitted before this time of the log (seconds). */
  to?: number;
  /** Skip rows asking for fewer GPUs (1 keeps whole-GPU openb pods). */
  minGpus?: number;
  /** Shorter runs are raised to this (seconds; default 1). */
  minDuration?: number;
  /** Longer runs are cut to this (seconds). */
  maxDuration?: number;
  /** `checkpointIntervalSeconds` of every job. */
  checkpointInterval?: number;
}

/** What `importTrace` gives: the scenario `quotasim import trace` writes, its warnings, what each file held. */
export interface TraceImport {
  scenario: Scenario;
  /** Each skip or clamp, and each row that could not be read (an `error`), with its file, line and field. */
  warnings: Array<Problem>;
  recognised: Array<string>;
}

/** What `eta` reads of an `AbortSignal` (any `AbortSignal` is one). */
export interface AbortSignalLike {
  readonly aborted: boolean;
}
"#;

/// Extra documentation for types whose own doc comment is about the Rust side.
const EXTRA_DOCS: &[(&str, &str)] = &[(
    "ActionRaw",
    "R23: an action applied at time `at`: exactly one of `updateServiceJob`, \
     `terminateServiceJob`, `updateQuotaShare` or `updateServiceEnvironment`.",
)];

#[derive(Default, Clone)]
struct Serde {
    rename_all: Option<String>,
    rename: Option<String>,
    default: bool,
    skip_ser: bool,
    skip: bool,
    deny_unknown: bool,
    /// The `serialize_with` function's name.
    serialize_with: Option<String>,
}

struct Field {
    name: String,
    ty: Type,
    serde: Serde,
    docs: Vec<String>,
}

enum Shape {
    Struct { fields: Vec<Field>, serde: Serde, ser: bool, de: bool },
    Enum { variants: Vec<(String, Vec<String>)> },
}

struct Decl {
    docs: Vec<String>,
    shape: Shape,
}

fn ts_name(rust: &str) -> String {
    TS_NAMES.iter().find(|(r, _)| *r == rust).map_or(rust, |(_, t)| t).to_string()
}

fn metas(attr: &Attribute) -> Vec<Meta> {
    attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        .map(|p| p.into_iter().collect())
        .unwrap_or_default()
}

/// The attributes an item has when the engine is built with its `serde` feature:
/// `#[cfg_attr(feature = "serde", X)]` counts as `#[X]`.
fn effective(attrs: &[Attribute]) -> Vec<Meta> {
    let mut out = Vec::new();
    for a in attrs {
        if a.path().is_ident("cfg_attr") {
            let ms = metas(a);
            let serde_cfg = matches!(ms.first(), Some(Meta::NameValue(nv))
                if nv.path.is_ident("feature") && lit_str(&nv.value).as_deref() == Some("serde"));
            if serde_cfg {
                out.extend(ms.into_iter().skip(1));
            }
        } else {
            out.push(a.meta.clone());
        }
    }
    out
}

fn lit_str(e: &Expr) -> Option<String> {
    match e {
        Expr::Lit(l) => match &l.lit {
            Lit::Str(s) => Some(s.value()),
            _ => None,
        },
        _ => None,
    }
}

fn cfg_enabled(attrs: &[Attribute]) -> bool {
    // `#[cfg(feature = "serde")]` fields exist in the build the package uses; no other
    // cfg is expected on these types.
    attrs.iter().filter(|a| a.path().is_ident("cfg")).all(|a| {
        let text = a.meta.require_list().map(|l| l.tokens.to_string()).unwrap_or_default();
        assert!(text.contains("\"serde\"") || text.contains("\"std\""), "unexpected cfg: {text}");
        !text.starts_with("not")
    })
}

fn serde_of(ms: &[Meta]) -> Serde {
    let mut s = Serde::default();
    for m in ms {
        let Meta::List(l) = m else { continue };
        if !l.path.is_ident("serde") {
            continue;
        }
        let inner: Vec<Meta> = l
            .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            .map(|p| p.into_iter().collect())
            .unwrap_or_else(|e| panic!("cannot read serde attribute: {e}"));
        for i in inner {
            let key = i.path().get_ident().map(|x| x.to_string()).unwrap_or_default();
            let value = match &i {
                Meta::NameValue(nv) => lit_str(&nv.value),
                _ => None,
            };
            match key.as_str() {
                "rename_all" => s.rename_all = value,
                "rename" => s.rename = value,
                "default" => s.default = true,
                "skip_serializing" | "skip_serializing_if" => s.skip_ser = true,
                "skip" => s.skip = true,
                "deny_unknown_fields" => s.deny_unknown = true,
                "serialize_with" => s.serialize_with = value,
                // The engine's `deserialize_with` functions read the field's own type (the job
                // list, refused past its size limit): the JSON shape is unchanged.
                "deserialize_with" => {}
                other => panic!("serde attribute `{other}` is not handled by the generator"),
            }
        }
    }
    s
}

fn derives(ms: &[Meta]) -> (bool, bool) {
    let (mut ser, mut de) = (false, false);
    for m in ms {
        let Meta::List(l) = m else { continue };
        if !l.path.is_ident("derive") {
            continue;
        }
        let paths =
            l.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated).expect("derive list");
        for p in paths {
            match p.segments.last().map(|s| s.ident.to_string()).as_deref() {
                Some("Serialize") => ser = true,
                Some("Deserialize") => de = true,
                _ => {}
            }
        }
    }
    (ser, de)
}

fn docs_of(attrs: &[Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) if nv.path.is_ident("doc") => lit_str(&nv.value),
            _ => None,
        })
        .map(|d| {
            let d = d.strip_prefix(' ').unwrap_or(&d).to_string();
            // Rustdoc links read as code in TypeScript.
            d.replace("[`", "`").replace("`]", "`").replace("*/", "* /")
        })
        .collect()
}

fn camel(snake: &str) -> String {
    let mut out = String::new();
    for (i, part) in snake.split('_').enumerate() {
        if i == 0 {
            out.push_str(part);
        } else {
            let mut c = part.chars();
            if let Some(f) = c.next() {
                out.extend(f.to_uppercase());
                out.push_str(c.as_str());
            }
        }
    }
    out
}

fn screaming(pascal: &str) -> String {
    let mut out = String::new();
    for (i, c) in pascal.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_uppercase());
    }
    out
}

fn renamed(name: &str, rule: Option<&str>, variant: bool) -> String {
    match rule {
        None => name.to_string(),
        Some("camelCase") if !variant => camel(name),
        Some("camelCase") => {
            let mut c = name.chars();
            c.next().map_or_else(String::new, |f| f.to_lowercase().chain(c).collect())
        }
        Some("SCREAMING_SNAKE_CASE") if variant => screaming(name),
        Some("lowercase") if variant => name.to_lowercase(),
        Some(r) => panic!("rename_all = {r:?} is not handled by the generator"),
    }
}

fn parse_sources(dir: &Path) -> BTreeMap<String, Decl> {
    let mut decls = BTreeMap::new();
    for file in SOURCES {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for item in ast.items {
            let (name, decl) = match item {
                Item::Struct(s) => {
                    let ms = effective(&s.attrs);
                    let (ser, de) = derives(&ms);
                    let Fields::Named(named) = &s.fields else { continue };
                    let fields = named
                        .named
                        .iter()
                        .filter(|f| cfg_enabled(&f.attrs))
                        .map(|f| Field {
                            name: f.ident.as_ref().expect("named field").to_string(),
                            ty: f.ty.clone(),
                            serde: serde_of(&effective(&f.attrs)),
                            docs: docs_of(&f.attrs),
                        })
                        .collect();
                    let shape = Shape::Struct { fields, serde: serde_of(&ms), ser, de };
                    (s.ident.to_string(), Decl { docs: docs_of(&s.attrs), shape })
                }
                Item::Enum(e) => {
                    let ms = effective(&e.attrs);
                    let (ser, de) = derives(&ms);
                    if !(ser || de) || e.variants.iter().any(|v| !matches!(v.fields, Fields::Unit)) {
                        continue;
                    }
                    let serde = serde_of(&ms);
                    let variants = e
                        .variants
                        .iter()
                        .map(|v| {
                            let vs = serde_of(&effective(&v.attrs));
                            let n = vs.rename.clone().unwrap_or_else(|| {
                                renamed(&v.ident.to_string(), serde.rename_all.as_deref(), true)
                            });
                            (n, docs_of(&v.attrs))
                        })
                        .collect();
                    (e.ident.to_string(), Decl { docs: docs_of(&e.attrs), shape: Shape::Enum { variants } })
                }
                _ => continue,
            };
            assert!(decls.insert(name.clone(), decl).is_none(), "two types named {name}");
        }
    }
    decls
}

fn generic_args(seg: &syn::PathSegment) -> Vec<&Type> {
    match &seg.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

struct Gen<'a> {
    decls: &'a BTreeMap<String, Decl>,
    queue: VecDeque<(String, bool)>,
    seen: BTreeSet<String>,
}

impl Gen<'_> {
    fn want(&mut self, rust: &str, input: bool) {
        if self.seen.insert(rust.to_string()) {
            self.queue.push_back((rust.to_string(), input));
        }
    }

    /// The TypeScript type of a Rust type; `strip_option` drops one `Option` level.
    fn ty(&mut self, t: &Type, input: bool, strip_option: bool) -> String {
        match t {
            Type::Reference(r) => self.ty(&r.elem, input, strip_option),
            Type::Path(p) => {
                let seg = p.path.segments.last().expect("type path");
                let name = seg.ident.to_string();
                let args = generic_args(seg);
                match name.as_str() {
                    "String" | "str" | "CompactString" => "string".into(),
                    "bool" => "boolean".into(),
                    "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize"
                    | "f32" | "f64" => "number".into(),
                    "Ignored" | "IgnoredAny" | "Value" => "unknown".into(),
                    // A sweep row's goal values: each goal's metric value, in the file's order
                    // (in a replicated sweep, its median, min and max over the seeds).
                    "GoalValues" => "Record<string, number | Spread | null>".into(),
                    // `arrivalsPerHour`: one rate, or 24 (one per hour of the day).
                    "ArrivalRate" => "number | Array<number>".into(),
                    "BTreeMap" => {
                        assert!(args.len() == 2, "BTreeMap<String, T>");
                        format!("Record<string, {}>", self.ty(args[1], input, false))
                    }
                    // The engine's JSON maps are metric maps: a metric path to a number or null
                    // (the deltas of a comparison).
                    "Map" => {
                        assert!(args.len() == 2, "Map<String, Value>");
                        "Record<string, number | null>".into()
                    }
                    "Option" => {
                        let inner = self.ty(args[0], input, false);
                        if strip_option || inner.ends_with("| null") || inner == "unknown" {
                            inner
                        } else {
                            format!("{inner} | null")
                        }
                    }
                    "Vec" => format!("Array<{}>", self.ty(args[0], input, false)),
                    "Box" => self.ty(args[0], input, strip_option),
                    other => {
                        if let Some((_, raw, string_too)) = WRITTEN_AS.iter().find(|(t, _, _)| *t == other) {
                            self.want(raw, input);
                            let n = ts_name(raw);
                            return if *string_too { format!("{n} | string") } else { n };
                        }
                        assert!(
                            self.decls.contains_key(other),
                            "the generator does not know the Rust type `{other}`"
                        );
                        self.want(other, input);
                        ts_name(other)
                    }
                }
            }
            // A tuple is a JSON array of its elements.
            Type::Tuple(t) if !t.elems.is_empty() => {
                let elems: Vec<String> = t.elems.iter().map(|e| self.ty(e, input, false)).collect();
                format!("[{}]", elems.join(", "))
            }
            other => panic!("the generator does not handle the type `{}`", quote_type(other)),
        }
    }

    /// A field written by a `serialize_with` function: the wait breakdown's seconds by cause
    /// (every cause, or only those with time), or a `Vec<(String, T)>` written as a map.
    fn written_with(&mut self, with: &str, t: &Type, input: bool) -> String {
        match with {
            "ser_causes_all" => "RunnableSecondsByCause".into(),
            "ser_causes_nonzero" => "Partial<RunnableSecondsByCause>".into(),
            _ => self.pairs_as_record(t, input),
        }
    }

    /// `Vec<(String, T)>` written as a map by a `serialize_with` function.
    fn pairs_as_record(&mut self, t: &Type, input: bool) -> String {
        if let Type::Path(p) = t {
            let seg = p.path.segments.last().expect("type path");
            if seg.ident == "Vec" {
                if let Some(Type::Tuple(tup)) = generic_args(seg).first() {
                    if tup.elems.len() == 2 {
                        let k = self.ty(&tup.elems[0], input, false);
                        assert_eq!(k, "string", "map keys must be strings");
                        return format!("Record<string, {}>", self.ty(&tup.elems[1], input, false));
                    }
                }
            }
        }
        panic!("serialize_with on `{}` is not handled by the generator", quote_type(t))
    }

    fn declare(&mut self, rust: &str, input: bool, out: &mut String) {
        let decl = &self.decls[rust];
        let name = ts_name(rust);
        let mut docs = decl.docs.clone();
        if let Some((_, d)) = EXTRA_DOCS.iter().find(|(n, _)| *n == rust) {
            docs = vec![d.to_string()];
        }
        match &decl.shape {
            Shape::Enum { variants } => {
                let mut docs = docs;
                for (v, vd) in variants {
                    if !vd.is_empty() {
                        docs.push(format!("- `\"{v}\"`: {}", vd.join(" ")));
                    }
                }
                write_docs(out, "", &docs);
                let alts: Vec<String> = variants.iter().map(|(v, _)| format!("\"{v}\"")).collect();
                let _ = writeln!(out, "export type {name} = {};", alts.join(" | "));
            }
            Shape::Struct { fields, serde, ser, de } => {
                assert!(*ser || *de, "{rust} is not serialized");
                write_docs(out, "", &docs);
                let _ = writeln!(out, "export interface {name} {{");
                for f in fields {
                    if f.serde.skip {
                        continue;
                    }
                    let key = f
                        .serde
                        .rename
                        .clone()
                        .unwrap_or_else(|| renamed(&f.name, serde.rename_all.as_deref(), false));
                    let is_option = matches!(&f.ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option"));
                    let optional =
                        f.serde.skip_ser || (*de && (f.serde.default || serde.default || is_option));
                    // On an output-only type a skipped-when-empty `Option` is never `null`.
                    let strip = !*de && f.serde.skip_ser && is_option;
                    let ty = if let Some(with) = &f.serde.serialize_with {
                        self.written_with(with, &f.ty, input)
                    } else {
                        self.ty(&f.ty, input, strip)
                    };
                    write_docs(out, "  ", &f.docs);
                    let q = if optional { "?" } else { "" };
                    let _ = writeln!(out, "  {}{q}: {ty};", ts_key(&key));
                }
                if input && *de && !serde.deny_unknown {
                    let _ = writeln!(out, "  /** Other fields are accepted and ignored. */");
                    let _ = writeln!(out, "  [key: string]: unknown;");
                }
                let _ = writeln!(out, "}}");
            }
        }
        out.push('\n');
    }
}

fn ts_key(k: &str) -> String {
    if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !k.starts_with(|c: char| c.is_ascii_digit())
    {
        k.to_string()
    } else {
        format!("\"{k}\"")
    }
}

fn quote_type(t: &Type) -> String {
    quote::ToTokens::to_token_stream(t).to_string()
}

fn write_docs(out: &mut String, indent: &str, docs: &[String]) {
    if docs.is_empty() {
        return;
    }
    if docs.len() == 1 {
        let _ = writeln!(out, "{indent}/** {} */", docs[0]);
        return;
    }
    let _ = writeln!(out, "{indent}/**");
    for d in docs {
        if d.is_empty() {
            let _ = writeln!(out, "{indent} *");
        } else {
            let _ = writeln!(out, "{indent} * {d}");
        }
    }
    let _ = writeln!(out, "{indent} */");
}

fn engine_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/src")
}

/// Every shape the package takes or returns, reached from the roots, in the order reached.
fn declarations() -> String {
    let decls = parse_sources(&engine_src());
    let mut g = Gen { decls: &decls, queue: VecDeque::new(), seen: BTreeSet::new() };
    for r in INPUT_ROOTS {
        g.want(r, true);
    }
    for r in OUTPUT_ROOTS {
        g.want(r, false);
    }
    let mut out = String::from(HEADER);
    out.push('\n');
    while let Some((rust, input)) = g.queue.pop_front() {
        g.declare(&rust, input, &mut out);
    }
    out.push_str(&causes_shape());
    out.push_str(PACKAGE_SHAPES);
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// The wait breakdown's keys, from the engine's `WaitCause` (its `key` is the JSON key).
fn causes_shape() -> String {
    let mut out = String::from(
        "/**\n * Seconds `RUNNABLE` by what held the job at each instant (the wait breakdown): its share's\n \
         * front job's R17 cause, the quota reason split by what binds, or `behind` its share's front\n \
         * job (R12). A job's result lists only causes with time; a summary lists every cause.\n */\n\
         export interface RunnableSecondsByCause {\n",
    );
    for c in quotasim::WaitCause::ALL {
        let _ = writeln!(out, "  {}: number;", c.key());
    }
    out.push_str("}\n\n");
    out
}

#[test]
fn generated_typescript_declarations_are_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/types.d.ts");
    let fresh = declarations();
    if std::env::var_os("QUOTASIM_UPDATE_TYPES").is_some() {
        std::fs::write(&path, &fresh).expect("write src/types.d.ts");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "web/src/types.d.ts is stale: the engine's types changed. Regenerate it with \
         `QUOTASIM_UPDATE_TYPES=1 cargo test -p quotasim-wasm --test typescript` and commit it."
    );
}

#[test]
fn every_shape_the_package_names_is_declared() {
    let d = declarations();
    for name in [
        "Scenario",
        "Settings",
        "QuotaShare",
        "Job",
        "Action",
        "ServiceRequestPayload",
        "GenerateOptions",
        "Problem",
        "SimResult",
        "SummaryResult",
        "JobResult",
        "SimEvent",
        "Summary",
        "Metrics",
        "Snapshot",
    ] {
        let declared = d.contains(&format!("export interface {name} {{"))
            || d.contains(&format!("export type {name} = "));
        assert!(declared, "{name} is not declared");
    }
    // The method signatures in src/lib.rs name only declared types.
    // Every source file of the package: the options of a call may be read in its own module.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    let lib: String = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
    for chunk in lib.split("_type = \"").skip(1) {
        let ty = chunk.split('"').next().unwrap();
        for word in ty.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
            if !["string", "number", "boolean", "null", "undefined", "Promise"].contains(&word) {
                assert!(
                    d.contains(&format!("export interface {word} {{")),
                    "lib.rs names undeclared `{word}`"
                );
            }
        }
    }
}

#[test]
fn required_and_optional_fields_follow_the_json() {
    let d = declarations();
    assert!(!d.contains("bigint"), "integers cross as numbers");
    // Always written, possibly null.
    assert!(d.contains("  statusReason: string | null;"));
    assert!(d.contains("  firstStartedAt: number | null;"));
    // Written only on preemption events; `preemptedBy` may be null there.
    assert!(d.contains("  preemptedBy?: string | null;"));
    assert!(d.contains("  reason?: string;"));
    // Inputs with defaults may be left out.
    assert!(d.contains("  settings?: Settings;"));
    assert!(d.contains("  horizonSeconds?: number | null;"));
    assert!(d.contains("  jobs?: number;"));
    // Required inputs.
    assert!(d.contains("  serviceEnvironment: ServiceEnvironment;"));
    assert!(d.contains("  durationSeconds: number;"));
    // Maps are records; hand-written shapes go through their raw types.
    assert!(d.contains("  perQuotaShare: Record<string, Metrics>;"));
    assert!(d.contains("  actions?: Array<Action>;"));
    assert!(d.contains("  updateServiceJob?: UpdateServiceJob | null;"));
    assert!(d.contains("ServiceRequestPayload | string"));
    assert!(d.contains("export type Strategy = \"RESERVE\" | \"LEND\" | \"LEND_AND_BORROW\";"));
    assert!(d.contains("export type Severity = \"error\" | \"warning\";"));
    // AWS fields that are accepted and ignored are typed, so that pasted output type-checks.
    assert!(d.contains("  quotaShareArn?: unknown;"));
}

#[test]
fn eta_shapes_follow_the_report_json_and_the_options_lib_rs_reads() {
    let d = declarations();
    // The report's JSON: camelCase fields, a position as a pair, optional skipped fields.
    for line in [
        "export type EtaDurations = \"history\" | \"workload\" | \"timeout\" | \"exact\";",
        "export type EtaArrivals = \"listed\" | \"none\" | \"workload\" | \"resampled\";",
        "  drawsBySource: Record<string, number>;",
        "  jobs: Array<EtaJob>;",
        "  start: EtaBand;",
        "  startIso?: EtaBandIso;",
        "  p50: number | null;",
        "  cause: string | null;",
        "  position: [number, number] | null;",
        "  wouldPreempt?: Array<EtaVictim>;",
        "  originEpochMs?: number;",
    ] {
        assert!(d.contains(line), "missing `{line}`");
    }
    // EtaOptions has exactly the keys lib.rs accepts (ETA_KEYS).
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let keys =
        lib.split("const ETA_KEYS").nth(1).and_then(|t| t.split(';').next()).expect("ETA_KEYS in lib.rs");
    let accepted: BTreeSet<&str> = keys.split('"').skip(1).step_by(2).collect();
    let block =
        PACKAGE_SHAPES.split("export interface EtaOptions {").nth(1).unwrap().split("\n}").next().unwrap();
    let declared: BTreeSet<&str> = block
        .lines()
        .filter_map(|l| l.strip_prefix("  ").and_then(|l| l.split_once("?:")).map(|(k, _)| k))
        .collect();
    assert_eq!(accepted, declared, "EtaOptions in PACKAGE_SHAPES and ETA_KEYS in src/lib.rs");
    assert_eq!(accepted.len(), 10);
}

/// The keys `const {keys}` in src/lib.rs accepts are the fields of `{shape}` in PACKAGE_SHAPES.
fn options_follow_lib_rs(keys: &str, shape: &str, n: usize) {
    // Every source file of the package: the options of a call may be read in its own module.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    let lib: String = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
    let list = lib
        .split(&format!("const {keys}"))
        .nth(1)
        .and_then(|t| t.split(';').next())
        .unwrap_or_else(|| panic!("{keys} in lib.rs"));
    let accepted: BTreeSet<&str> = list.split('"').skip(1).step_by(2).collect();
    let block = PACKAGE_SHAPES
        .split(&format!("export interface {shape} {{"))
        .nth(1)
        .unwrap()
        .split("\n}")
        .next()
        .unwrap();
    let declared: BTreeSet<&str> = block
        .lines()
        .filter_map(|l| {
            l.strip_prefix("  ").and_then(|l| l.split_once(':')).map(|(k, _)| k.trim_end_matches('?'))
        })
        .filter(|k| k.chars().all(|c| c.is_ascii_alphanumeric()))
        .collect();
    assert_eq!(accepted, declared, "{shape} in PACKAGE_SHAPES and {keys} in src/lib.rs");
    assert_eq!(accepted.len(), n);
}

#[test]
fn sweep_options_are_the_ones_lib_rs_reads() {
    options_follow_lib_rs("SWEEP_KEYS", "SweepOptions", 3);
}

#[test]
fn recommend_options_are_the_ones_the_package_reads() {
    options_follow_lib_rs("RECOMMEND_KEYS", "RecommendOptions", 7);
}

#[test]
fn trace_options_are_the_ones_lib_rs_reads() {
    options_follow_lib_rs("TRACE_KEYS", "TraceOptions", 14);
}
