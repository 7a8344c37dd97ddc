//! Replicated sweeps (`quotasim sweep --replicates N`): every point on N seeds of the base's
//! workload, the median, min and max per point, the front over the medians, the same bytes
//! whatever the threads or shards, and the seed refused as an axis.

use std::path::{Path, PathBuf};

use quotasim_tests::cli::{fixture, quotasim, stderr, stdout};
use serde_json::Value;

const SWEEP: &str = r#"{"base":"base.json",
  "axes":[{"path":"quotaShares[alpha].resourceSharingConfiguration.borrowLimit","values":[-1,0,50]}],
  "frontier":["perQuotaShare.alpha.waitSeconds.p95:min","perQuotaShare.beta.waitSeconds.p95:min"]}"#;

fn setup(name: &str, sweep: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-rsweep-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Alpha borrows from beta; both submit a generated workload (seed 11).
    std::fs::copy(fixture("two-teams-workload.json"), dir.join("base.json")).unwrap();
    std::fs::write(dir.join("sweep.json"), sweep).unwrap();
    dir
}

fn sweep(dir: &Path, args: &[&str]) -> std::process::Output {
    let file = dir.join("sweep.json");
    let mut all = vec!["sweep", file.to_str().unwrap()];
    all.extend_from_slice(args);
    quotasim(&all)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[test]
fn each_point_reports_the_median_min_and_max_of_its_seeds_runs() {
    let dir = setup("stats", SWEEP);
    let out = sweep(&dir, &["--replicates", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows: Vec<Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 3);
    let base = dir.join("base.json");
    for row in &rows {
        assert_eq!(row["replicates"], 3);
        assert_eq!(row["seeds"], serde_json::json!([11, 12, 13]));
        assert!(row.get("summary").is_none(), "a replicated row has statistics, not one summary");
        // Each seed's run by hand: the borrow limit does not change what the workload draws,
        // so `run --set` with the seed and the point's change runs that seed's jobs.
        let mut waits = Vec::new();
        for seed in [11, 12, 13] {
            let set_seed = format!("workload.seed={seed}");
            let change = row["changes"][0].as_str().unwrap();
            let run =
                quotasim(&["run", base.to_str().unwrap(), "--summary", "--set", &set_seed, "--set", change]);
            let v: Value = serde_json::from_slice(&run.stdout).unwrap();
            waits.push(v["summary"]["perQuotaShare"]["alpha"]["waitSeconds"]["p95"].as_f64().unwrap());
        }
        let got = &row["stats"]["summary"]["perQuotaShare"]["alpha"]["waitSeconds"]["p95"];
        assert_eq!(got["median"].as_f64(), Some(median(waits.clone())), "{row}");
        let (lo, hi) = waits.iter().fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(*x), b.max(*x)));
        assert_eq!((got["min"].as_f64(), got["max"].as_f64()), (Some(lo), Some(hi)));
        // The goal is the same spread, and the front is over the medians.
        assert_eq!(&row["objectives"]["perQuotaShare.alpha.waitSeconds.p95:min"], got);
    }
    // Unlimited borrowing wins both medians here; a zero limit loses alpha's.
    let front: Vec<bool> = rows.iter().map(|r| r["frontier"].as_bool().unwrap()).collect();
    assert_eq!(front, [true, false, false], "{}", stdout(&out));
}

#[test]
fn threads_and_shards_give_the_same_bytes_in_jsonl_and_csv() {
    let dir = setup("shards", &SWEEP.replace("\"frontier\"", "\"replicates\":3,\"frontier\""));
    let one = sweep(&dir, &["--threads", "1"]);
    let two = sweep(&dir, &["--threads", "2"]);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(one.stdout, two.stdout);
    assert!(stdout(&one).contains("\"replicates\":3,\"seeds\":[11,12,13]"), "the file's replicates");
    let files: Vec<String> = (1..=2)
        .map(|i| {
            let out = sweep(&dir, &["--shard", &format!("{i}/2")]);
            let f = dir.join(format!("s{i}.jsonl"));
            std::fs::write(&f, &out.stdout).unwrap();
            f.display().to_string()
        })
        .collect();
    let merged = quotasim(&["sweep-merge", &files[0], &files[1]]);
    assert_eq!(merged.stdout, one.stdout, "{}", stderr(&merged));
    let csv = sweep(&dir, &["--format", "csv"]);
    let merged = quotasim(&["sweep-merge", &files[0], &files[1], "--format", "csv"]);
    assert_eq!(merged.stdout, csv.stdout);
    let header = stdout(&csv).lines().next().unwrap().to_string();
    assert!(header.contains("perQuotaShare.alpha.waitSeconds.p95.median"), "{header}");
    // --replicates overrides the file: another replicate count is another sweep.
    let four = sweep(&dir, &["--replicates", "4", "--shard", "1/2"]);
    let f = dir.join("four.jsonl");
    std::fs::write(&f, &four.stdout).unwrap();
    let mixed = quotasim(&["sweep-merge", &files[1], f.to_str().unwrap()]);
    assert_eq!(mixed.status.code(), Some(1));
    assert!(stderr(&mixed).contains("another sweep"), "{}", stderr(&mixed));
}

#[test]
fn the_seed_is_never_an_axis_and_listed_jobs_have_no_seeds() {
    let dir = setup("refused", r#"{"base":"base.json","axes":[{"path":"workload.seed","values":[1,2]}]}"#);
    let out = sweep(&dir, &["--replicates", "5"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("axes[0].path: the seed is not a policy axis"), "{}", stderr(&out));
    // Without replicates a seed axis still runs (one sample per seed).
    assert_eq!(sweep(&dir, &[]).status.code(), Some(0));
    let listed = quotasim(&["generate", "--jobs", "20", "--shares", "2", "--seed", "3"]);
    std::fs::write(dir.join("base.json"), &listed.stdout).unwrap();
    std::fs::write(
        dir.join("sweep.json"),
        r#"{"base":"base.json","axes":[{"path":"settings.preemptionGraceSeconds","values":[60,120]}]}"#,
    )
    .unwrap();
    let out = sweep(&dir, &["--replicates", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("replicates: replicates draw each point's jobs"), "{}", stderr(&out));
}
