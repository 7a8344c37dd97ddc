//! What an import of a job log is told: the log's format and column mapping, the teams' and
//! priorities' values, the instances, and the rows to keep; checked before any row is read.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use crate::import_check::clean_name;
use crate::problem::Problem;

/// Which log: `openb` fixes the columns of the Alibaba pod list, `csv` reads `columns`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TraceFormat {
    /// The Alibaba GPU cluster trace v2023 pod list (`openb_pod_list_*.csv`), its columns fixed
    /// ([`Columns::openb`]).
    Openb,
    #[default]
    /// Any CSV job log, read through `columns` (the default).
    Csv,
}

/// The job fields a log can give, each the name of its column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    /// `name`: the column of job names; without it a job is named after its file and line.
    pub name: Option<String>,
    /// `submit`: the column of submission times (seconds, or ISO 8601); required.
    pub submit: Option<String>,
    /// `start`: the column of start times; with it, the run time is `end` - `start`, and a row with no start
    /// never ran and is skipped.
    pub start: Option<String>,
    /// `end`: the column of end times, for the run time when `duration` is not mapped.
    pub end: Option<String>,
    /// `duration`: the column of run times, in seconds.
    pub duration: Option<String>,
    /// `gpus`: the column of GPUs asked for; required.
    pub gpus: Option<String>,
    /// `gpuMilli`: the column of thousandths of a GPU, for logs that ask for fractions of one (openb): GPUs
    /// are `gpus` × `gpuMilli` ÷ 1000.
    pub gpu_milli: Option<String>,
    /// `team`: the column whose value names the job's quota share (through `teams`); without it every job
    /// goes to `default`.
    pub team: Option<String>,
    /// `priority`: the column of priorities, a whole number or a value named in `priorities`; 0 without it.
    pub priority: Option<String>,
    /// `status`: the column of final states; a `running` or `pending` row keeps its run time so far, counted
    /// as censored.
    pub status: Option<String>,
}

/// The field names `--columns` accepts.
pub const FIELDS: &[&str] =
    &["name", "submit", "start", "end", "duration", "gpus", "gpuMilli", "team", "priority", "status"];

impl Columns {
    /// The openb pod list's columns (`../shared/traces/alibaba-gpu-v2023-openb/README.md`).
    pub fn openb() -> Self {
        let s = |x: &str| Some(x.to_string());
        Columns {
            name: s("name"),
            submit: s("creation_time"),
            start: s("scheduled_time"),
            end: s("deletion_time"),
            duration: None,
            gpus: s("num_gpu"),
            gpu_milli: s("gpu_milli"),
            team: s("qos"),
            priority: None,
            status: s("pod_phase"),
        }
    }

    /// `submit=submit_time,duration=duration,gpus=gpu_num,team=vc`; every field named once.
    pub fn parse(spec: &str) -> Result<Self, Problem> {
        let mut c = Columns::default();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((field, column)) = part.split_once('=') else {
                return Err(Problem::error("columns", format!("{part:?} is not FIELD=COLUMN")));
            };
            let (field, column) = (field.trim(), column.trim());
            if column.is_empty() {
                return Err(Problem::error(format!("columns.{field}"), "names no column"));
            }
            let slot = c.slot(field).ok_or_else(|| {
                Problem::error(format!("columns.{field}"), format!("is not one of {}", FIELDS.join(", ")))
            })?;
            if slot.replace(column.to_string()).is_some() {
                return Err(Problem::error(format!("columns.{field}"), "is given twice"));
            }
        }
        Ok(c)
    }

    fn slot(&mut self, field: &str) -> Option<&mut Option<String>> {
        Some(match field {
            "name" => &mut self.name,
            "submit" => &mut self.submit,
            "start" => &mut self.start,
            "end" => &mut self.end,
            "duration" => &mut self.duration,
            "gpus" => &mut self.gpus,
            "gpuMilli" => &mut self.gpu_milli,
            "team" => &mut self.team,
            "priority" => &mut self.priority,
            "status" => &mut self.status,
            _ => return None,
        })
    }

    pub(super) fn named(&self) -> Vec<(&'static str, &str)> {
        let all = [
            ("name", &self.name),
            ("submit", &self.submit),
            ("start", &self.start),
            ("end", &self.end),
            ("duration", &self.duration),
            ("gpus", &self.gpus),
            ("gpuMilli", &self.gpu_milli),
            ("team", &self.team),
            ("priority", &self.priority),
            ("status", &self.status),
        ];
        all.iter().filter_map(|(f, c)| c.as_deref().map(|c| (*f, c))).collect()
    }
}

/// How to read a log (`quotasim import trace`'s options).
#[derive(Clone, Debug, PartialEq)]
pub struct TraceOptions {
    /// Which log it is (`--format`).
    pub format: TraceFormat,
    /// For `csv`; with `openb`, a field given here replaces the pod list's column.
    pub columns: Columns,
    /// GPUs per instance (`--gpus-per-instance`, default 8): a job's instances are ceil(GPUs ÷ this).
    pub gpus_per_instance: i64,
    /// Default: `ml.g5.xlarge` (1 GPU), `ml.g5.12xlarge` (4) or `ml.p5.48xlarge` (8).
    pub instance_type: Option<String>,
    /// Team value → quota share name.
    pub teams: Vec<(String, String)>,
    /// Priority value → schedulingPriority.
    pub priorities: Vec<(String, i64)>,
    /// A capacity file: its name and text.
    pub capacity: Option<(String, String)>,
    /// The service environment's instances without a capacity file.
    pub instances: Option<i64>,
    /// Keep rows submitted in [from, to), in the log's own seconds.
    pub from: Option<i64>,
    /// The end of that window, excluded (`--to`); `None`: no end.
    pub to: Option<i64>,
    /// Skip rows asking for fewer GPUs (e.g. 1 keeps only whole-GPU openb pods).
    pub min_gpus: Option<f64>,
    /// Run times shorter than this many seconds are raised to it (`--min-duration`; at least 1, the default).
    pub min_duration: Option<i64>,
    /// Run times longer than this many seconds are cut to it (`--max-duration`); `None`: no cut.
    pub max_duration: Option<i64>,
    /// Every job's `checkpointIntervalSeconds` (`--checkpoint-interval`); `None`: no checkpoints.
    pub checkpoint_interval: Option<i64>,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            format: TraceFormat::Csv,
            columns: Columns::default(),
            gpus_per_instance: 8,
            instance_type: None,
            teams: Vec::new(),
            priorities: Vec::new(),
            capacity: None,
            instances: None,
            from: None,
            to: None,
            min_gpus: None,
            min_duration: None,
            max_duration: None,
            checkpoint_interval: None,
        }
    }
}

/// `A=x,B=y` as pairs; `what` names the option in a problem.
pub fn parse_pairs(what: &str, spec: &str) -> Result<Vec<(String, String)>, Problem> {
    spec.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('=')
                .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                .filter(|(a, b)| !a.is_empty() && !b.is_empty())
                .ok_or_else(|| Problem::error(what, format!("{p:?} is not VALUE=NAME")))
        })
        .collect()
}

/// The instance type with `gpus` GPUs an import uses when none is given.
fn default_instance_type(gpus: i64) -> Option<&'static str> {
    match gpus {
        1 => Some("ml.g5.xlarge"),
        4 => Some("ml.g5.12xlarge"),
        8 => Some("ml.p5.48xlarge"),
        _ => None,
    }
}

/// The options checked: the instance type and the columns to read (the format's, with those
/// `columns` names), or the one problem that stops the import.
pub(super) fn check(o: &TraceOptions) -> Result<(String, Columns), Vec<Problem>> {
    if o.gpus_per_instance < 1 {
        return Err(vec![Problem::error("gpusPerInstance", "must be at least 1")]);
    }
    let instance_type = match (&o.instance_type, default_instance_type(o.gpus_per_instance)) {
        (Some(t), _) => t.clone(),
        (None, Some(t)) => t.to_string(),
        (None, None) => {
            return Err(vec![Problem::error(
                "instanceType",
                format!(
                    "give the instance type for {} GPUs per instance (defaults exist for 1, 4 and 8)",
                    o.gpus_per_instance
                ),
            )])
        }
    };
    let mut columns = match o.format {
        TraceFormat::Openb => Columns::openb(),
        TraceFormat::Csv => Columns::default(),
    };
    for (field, col) in o.columns.named() {
        if let Some(slot) = columns.slot(field) {
            *slot = Some(col.to_string());
        }
    }
    if columns.submit.is_none() {
        return Err(vec![Problem::error("columns.submit", "is required: the column of submission times")]);
    }
    if columns.gpus.is_none() {
        return Err(vec![Problem::error("columns.gpus", "is required: the column of GPUs asked for")]);
    }
    if columns.duration.is_none() && columns.end.is_none() {
        return Err(vec![Problem::error(
            "columns.duration",
            "is required (or columns.end, with columns.start or the submit time)",
        )]);
    }
    Ok((instance_type, columns))
}

/// The teams' and priorities' values an import maps (`--teams`, `--priorities`).
pub(super) struct Naming<'a> {
    teams: BTreeMap<&'a str, &'a str>,
    pub priorities: BTreeMap<&'a str, i64>,
}

impl<'a> Naming<'a> {
    pub fn new(o: &'a TraceOptions) -> Self {
        Naming {
            teams: o.teams.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect(),
            priorities: o.priorities.iter().map(|(a, b)| (a.as_str(), *b)).collect(),
        }
    }

    /// The quota share of a team value: its mapped name, else the value, made a valid name.
    pub fn share_of(&self, v: &str) -> String {
        clean_name(self.teams.get(v).copied().unwrap_or(v))
    }
}
