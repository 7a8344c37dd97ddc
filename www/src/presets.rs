//! Built-in scenarios, each with a paragraph that says what to look at.

use quotasim::json::parse_scenario;
use quotasim::model::Scenario;

/// A built-in scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    pub explanation: &'static str,
    pub json: &'static str,
}

pub const NOTEBOOK: &Preset = &PRESETS[0];

pub const PRESETS: [Preset; 7] = [
    Preset {
        id: "notebook",
        title: "AWS example notebook walk-through",
        explanation: "The scenario of the SageMaker quota-management example notebook. Three shares own one \
            ml.g5.xlarge each: qs1 (LEND_AND_BORROW, borrow limit 200 %, in-share preemption on), qs2 (LEND) \
            and qs3 (RESERVE). qs1 submits three jobs with priorities 3, 2 and 1: the first runs on its quota, \
            the second borrows qs2's idle instance, the third waits because qs3 never lends. At 0:15 a job \
            arrives in qs2 and reclaims its instance (R18): qs1's borrowing job is preempted. At 0:30 the \
            waiting job is raised to priority 4 and preempts qs1's priority-3 job inside the share (R20). \
            qs3's instance stays idle throughout.",
        json: include_str!("../presets/notebook.json"),
    },
    Preset {
        id: "reclaim",
        title: "Reclaim in action",
        explanation: "research (LEND_AND_BORROW) starts eight one-instance jobs on a fleet of eight: four on its \
            own quota and four borrowed from prod (LEND), whose quota is idle. From 1:00 prod's own jobs \
            arrive one every ten minutes; each fits prod's quota but the lending pool is empty, so it reclaims \
            one borrowed instance (R18). The victim is research's most recently dispatched job (R19), which \
            keeps its capacity for the 120 s grace period (R21) and loses the work since its last checkpoint.",
        json: include_str!("../presets/reclaim.json"),
    },
    Preset {
        id: "in-share",
        title: "In-share priority preemption",
        explanation: "vision and nlp are RESERVE shares of four instances, each full of priority-10 sweeps. At \
            2:00 a priority-500 job needing two instances arrives in each. vision has in-share preemption \
            ENABLED, so its two most recently dispatched sweeps are preempted and the urgent job starts after \
            the grace period (R20, R19). nlp has it DISABLED: its urgent job waits at the front of the queue \
            until sweeps finish, about six hours later.",
        json: include_str!("../presets/in-share.json"),
    },
    Preset {
        id: "reserve-vs-lend",
        title: "RESERVE vs LEND: the utilization trade-off",
        explanation: "alpha (RESERVE) and beta (LEND) each own four ml.p4d.24xlarge and run three four-instance, \
            two-hour bursts (alpha at 0:00, 6:00 and 12:00; beta at 0:00, 5:00 and 11:00); \
            gamma (LEND_AND_BORROW, no borrow limit) always has more work than its quota of four. Between bursts \
            gamma borrows beta's idle instances but never alpha's (R4). alpha's bursts start at once, but its \
            instances are busy only 35 % of the run. beta lends 30 instance-hours; its bursts at 5:00 and 11:00 \
            find them lent and reclaim them (R18: eight of gamma's jobs preempted, four each time), starting \
            after the two-minute grace period (R21). Compare the lent column, gamma's borrowed GPU-hours and its \
            lost work.",
        json: include_str!("../presets/reserve-vs-lend.json"),
    },
    Preset {
        id: "checkpoints",
        title: "Checkpoints save work",
        explanation: "burst borrows three ml.p5.48xlarge from owner. At 3:25 owner submits a three-instance job \
            and reclaims all three at once (R18). The borrowed jobs checkpoint every 10 minutes, every hour and \
            never: they lose about 5 minutes, 25 minutes and 3 h 25 min of training (R8). Look at the red \
            lost-work shading on the timeline and at lost GPU-hours and goodput in the table.",
        json: include_str!("../presets/checkpoints.json"),
    },
    Preset {
        id: "lowering",
        title: "Lowering a limit",
        explanation: "platform (LEND) runs six jobs on its quota of six. At 2:00 an update lowers its quota to \
            three and raises apps' to five: nothing is preempted at once; platform is simply over quota (R22). \
            When apps' jobs arrive at 3:00 they reclaim platform's over-quota jobs with the reason 'Capacity \
            limit reduced'. At 6:00 the service environment shrinks from eight to six instances: usage is above \
            the new limit, so victims are chosen immediately (R23) and keep running through their grace period.",
        json: include_str!("../presets/lowering.json"),
    },
    Preset {
        id: "openb-trace",
        title: "Real trace: Alibaba openb, three busy days",
        explanation: "307 real pod arrivals and run times from the Alibaba GPU cluster trace v2023 (openb, \
            trace days 116 to 118, pods asking for whole GPUs that ran; Weng et al., USENIX ATC'23, research use \
            with attribution), imported by quotasim import trace --format openb. The trace has no teams, so \
            shares are a synthetic reading of each pod's QoS class: LS pods go to latency-sensitive (LEND, \
            priority 100), BE pods to best-effort (LEND_AND_BORROW, priority 0), Guaranteed and Burstable pods \
            to guaranteed (LEND_AND_BORROW, 100 % borrow limit, priority 200). One GPU is one ml.g5.xlarge; \
            durations are deletion minus scheduling time, clamped to 60 s .. 2 days; every job checkpoints \
            every 30 minutes. www/presets/derive-openb.sh makes it.",
        json: include_str!("../presets/openb-3days.json"),
    },
];

/// Parses a preset's scenario.
pub fn scenario(p: &Preset) -> Result<Scenario, String> {
    parse_scenario(p.json).map_err(|e| e.to_string())
}

/// The id of the generated 10,000-job benchmark (made by the engine's generator, not a file).
pub const BENCH_ID: &str = "generated-10k";
/// Its title and walk-through (what its run shows; tested against the run).
pub const BENCH_TITLE: &str = "Synthetic: 10,000 generated jobs";
pub const BENCH_EXPLANATION: &str = "A deterministic synthetic workload from the engine's generator: six teams, \
    two instance types, 10,000 jobs arriving over the first 2.8 days for an offered load of 95 % of the owned \
    capacity, with heavy-tailed durations, mixed priorities and checkpoints. The run lasts 6 days: the longest \
    jobs and the queues that built up take three more days to drain, so utilization over the whole run is 46 %, \
    the overall wait p95 is 2.9 days and 1,872 preemptions happen. Use it to feel the playground's speed; the \
    timeline shows preempted jobs only.";

/// Whether `id` names a built-in scenario (a preset or the generated benchmark).
pub fn is_known(id: &str) -> bool {
    id == BENCH_ID || by_id(id).is_some()
}

/// The scenario of a built-in id: a preset's, or the generated benchmark's.
pub fn builtin(id: &str) -> Option<Scenario> {
    if id == BENCH_ID {
        Some(quotasim::generate(&quotasim::GenerateOptions::new(10_000, 6, 2, 7)))
    } else {
        by_id(id).and_then(|p| scenario(p).ok())
    }
}

/// Whether `scenario` is exactly the built-in scenario `preset` names: losing it loses nothing.
pub fn is_pristine(preset: Option<&str>, scenario: &Scenario) -> bool {
    preset.and_then(builtin).is_some_and(|b| b == *scenario)
}

/// `scenario` as it is exported: a built-in scenario that was edited (`preset` names it) loses
/// the built-in description it still carries, which describes the preset, not the edit; a
/// description the user wrote stays.
pub fn for_export(preset: Option<&str>, scenario: &Scenario) -> Scenario {
    let mut s = scenario.clone();
    if let Some(b) = preset.and_then(builtin) {
        if b != *scenario && b.description.is_some() && b.description == scenario.description {
            s.description = None;
        }
    }
    s
}

/// A preset by id.
pub fn by_id(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_runs() {
        for p in &PRESETS {
            let s = scenario(p).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            let v = quotasim::validate(&s).unwrap_or_else(|e| panic!("{}: {e:?}", p.id));
            let mut sim = quotasim::Simulation::new(v);
            sim.run();
            assert!(sim.now() > 0, "{}", p.id);
        }
    }

    #[test]
    fn an_edited_preset_is_exported_without_the_preset_s_description() {
        let s = builtin("reserve-vs-lend").unwrap();
        assert!(s.description.is_some());
        assert_eq!(for_export(Some("reserve-vs-lend"), &s), s, "a preset as it ships keeps its text");
        let mut e = s.clone();
        e.settings.preemption_grace_seconds = 60;
        let out = for_export(Some("reserve-vs-lend"), &e);
        assert_eq!(out.description, None);
        assert_eq!(out.settings, e.settings);
        e.description = Some("grace 60 s: does beta wait less?".into());
        assert_eq!(for_export(Some("reserve-vs-lend"), &e), e, "the user's own description stays");
        assert_eq!(for_export(None, &s), s);
    }

    #[test]
    fn built_in_scenarios_are_known_and_pristine_until_edited() {
        let mut s = builtin("notebook").unwrap();
        assert!(is_pristine(Some("notebook"), &s));
        assert!(!is_pristine(None, &s));
        assert!(!is_pristine(Some("reclaim"), &s));
        s.name = Some("edited".into());
        assert!(!is_pristine(Some("notebook"), &s));
        assert_eq!(builtin(BENCH_ID).unwrap().jobs.len(), 10_000);
        assert!(is_known(BENCH_ID) && is_known("notebook") && !is_known("nope"));
    }

    use crate::run::RunData;
    use quotasim::result::PreemptionKind;

    /// A preset's run, with what its walk-through talks about, by name.
    struct Facts {
        run: RunData,
        scenario: Scenario,
    }

    impl Facts {
        fn of(id: &str) -> Facts {
            let scenario = builtin(id).expect("a built-in scenario");
            Facts { run: RunData::compute(quotasim::validate(&scenario).expect("valid")), scenario }
        }
        fn job(&self, name: &str) -> &quotasim::result::JobResult {
            &self.run.jobs[self.run.job_index(name).unwrap_or_else(|| panic!("no job {name}"))]
        }
        fn start(&self, name: &str) -> u64 {
            self.job(name).first_started_at.unwrap_or_else(|| panic!("{name} never started"))
        }
        fn name(&self, j: u32) -> &str {
            &self.run.jobs[j as usize].job_name
        }
        /// (decided at, victim, preemptor or "", kind, lost seconds), in log order.
        fn preemptions(&self) -> Vec<(u64, &str, &str, PreemptionKind, u64)> {
            let mut v: Vec<_> = self
                .run
                .preemptions
                .iter()
                .map(|p| {
                    (
                        p.decided_at,
                        self.name(p.victim.0),
                        p.preemptor.map_or("", |j| self.name(j.0)),
                        p.kind,
                        p.lost,
                    )
                })
                .collect();
            v.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
            v
        }
        /// (lender, borrower) pairs that ever lend, by share name.
        fn flows(&self) -> Vec<(&str, &str)> {
            let mut v: Vec<(&str, &str)> = self
                .run
                .types
                .iter()
                .flat_map(|t| t.flows.iter().filter(|f| f.2.iter().any(|&n| n > 0)))
                .map(|f| (self.run.share_names[f.0].as_str(), self.run.share_names[f.1].as_str()))
                .collect();
            v.sort();
            v.dedup();
            v
        }
        fn metrics(&self, share: &str) -> &quotasim::result::Metrics {
            &self.run.summary.per_quota_share.iter().find(|(n, _)| n == share).expect("share").1
        }
        /// Instances in use by `share` (own and borrowed) at any sample.
        fn peak_use(&self, share: &str) -> u64 {
            let s = self.run.share_index(share).expect("share");
            self.run
                .types
                .iter()
                .flat_map(|t| t.own[s].iter().zip(&t.borrowed[s]).map(|(a, b)| a + b))
                .max()
                .unwrap_or(0)
        }
        fn percent(x: Option<f64>) -> u64 {
            (x.expect("a utilization") * 100.0).round() as u64
        }
    }

    const H: u64 = 3600;
    const M: u64 = 60;

    #[test]
    fn preset_notebook_text_matches_its_run() {
        let f = Facts::of("notebook");
        let t = by_id("notebook").unwrap().explanation;
        assert!(t.contains("priorities 3, 2 and 1") && t.contains("At 0:15") && t.contains("At 0:30"));
        // The first runs on its quota, the second borrows qs2's instance, the third waits.
        assert_eq!((f.start("qs1_job_high"), f.start("qs1_job_med")), (0, 0));
        assert!(f.start("qs1_job_low") > 0);
        assert_eq!(f.flows(), vec![("qs2", "qs1")], "qs1 borrows from qs2 only; qs3 never lends");
        // 0:15: qs2's job reclaims; 0:30: the raised job preempts the priority-3 one in the share.
        assert_eq!(
            f.preemptions(),
            vec![
                (15 * M, "qs1_job_med", "qs2_job", PreemptionKind::CrossShare, 300),
                (30 * M, "qs1_job_high", "qs1_job_low", PreemptionKind::InShare, 0),
            ]
        );
        assert_eq!(f.job("qs1_job_low").scheduling_priority, 4);
        assert_eq!(f.peak_use("qs3"), 0, "qs3's instance stays idle throughout");
    }

    #[test]
    fn preset_reclaim_text_matches_its_run() {
        let f = Facts::of("reclaim");
        for k in 0..8 {
            assert_eq!(f.start(&format!("research-{k}")), 0, "eight jobs start at once");
        }
        assert_eq!(f.flows(), vec![("prod", "research")]);
        assert!(f.metrics("research").instance_seconds_borrowed > 0);
        // From 1:00 one prod job every ten minutes, each reclaiming the latest dispatched job,
        // which keeps its instance through the 120 s grace period and loses its unsaved work.
        let p = f.preemptions();
        assert_eq!(
            p.iter().map(|x| (x.0, x.1, x.2, x.3)).collect::<Vec<_>>(),
            vec![
                (H, "research-7", "prod-0", PreemptionKind::CrossShare),
                (H + 10 * M, "research-6", "prod-1", PreemptionKind::CrossShare),
                (H + 20 * M, "research-5", "prod-2", PreemptionKind::CrossShare),
            ]
        );
        for (at, _, by, _, _) in &p {
            assert_eq!(f.start(by), at + 120, "{by} starts after the grace period");
        }
        assert!(p.iter().any(|x| x.4 > 0), "work since the last checkpoint is lost");
    }

    #[test]
    fn preset_in_share_text_matches_its_run() {
        let f = Facts::of("in-share");
        let t = by_id("in-share").unwrap().explanation;
        assert!(t.contains("At 2:00") && t.contains("about six hours later"));
        // vision (ENABLED): its two most recently dispatched sweeps are preempted at 2:00 and the
        // urgent job starts after the grace period.
        assert_eq!(
            f.preemptions().iter().map(|x| (x.0, x.1, x.2, x.3)).collect::<Vec<_>>(),
            vec![
                (2 * H, "sweep-2", "deadline-run", PreemptionKind::InShare),
                (2 * H, "sweep-3", "deadline-run", PreemptionKind::InShare),
            ]
        );
        assert!(f.start("sweep-2") < f.start("sweep-3") && f.start("sweep-1") < f.start("sweep-2"));
        assert_eq!(f.start("deadline-run"), 2 * H + 120);
        // nlp (DISABLED): its urgent job waits about six hours for a sweep to finish.
        let wait = f.start("urgent-eval") - f.job("urgent-eval").submit_at;
        assert!((5 * H + 45 * M..=6 * H + 15 * M).contains(&wait), "{wait} s");
    }

    #[test]
    fn preset_reserve_vs_lend_text_matches_its_run() {
        let f = Facts::of("reserve-vs-lend");
        let t = by_id("reserve-vs-lend").unwrap().explanation;
        for (job, at) in [
            ("alpha-0", 0),
            ("alpha-1", 6 * H),
            ("alpha-2", 12 * H),
            ("beta-0", 0),
            ("beta-1", 5 * H),
            ("beta-2", 11 * H),
        ] {
            assert_eq!(f.job(job).submit_at, at, "{job}");
        }
        // gamma borrows beta's quota, never alpha's.
        assert_eq!(f.flows(), vec![("beta", "gamma")]);
        // alpha's bursts start at once; its instances are busy 35 % of the run.
        for k in 0..3 {
            let j = format!("alpha-{k}");
            assert_eq!(f.start(&j), f.job(&j).submit_at);
        }
        assert!(t.contains("35 %"));
        assert_eq!(Facts::percent(f.metrics("alpha").utilization), 35);
        // beta lends 30 instance-hours; its 5:00 and 11:00 bursts reclaim four each, starting
        // after the two-minute grace period.
        assert!(t.contains("30 instance-hours"));
        assert_eq!((f.metrics("beta").instance_seconds_lent as f64 / H as f64).round(), 30.0);
        let p = f.preemptions();
        assert!(t.contains("eight of gamma's jobs preempted, four each time"));
        assert_eq!(p.len(), 8);
        for (at, victim, by, kind, _) in &p {
            assert!(victim.starts_with("gamma-") && *kind == PreemptionKind::CrossShare);
            assert_eq!((*at, *by), if *at == 5 * H { (5 * H, "beta-1") } else { (11 * H, "beta-2") });
        }
        assert_eq!(p.iter().filter(|x| x.0 == 5 * H).count(), 4);
        assert_eq!((f.start("beta-0"), f.start("beta-1"), f.start("beta-2")), (0, 5 * H + 120, 11 * H + 120));
        assert!(f.metrics("gamma").lost_gpu_hours > 0.0);
    }

    #[test]
    fn preset_checkpoints_text_matches_its_run() {
        let f = Facts::of("checkpoints");
        assert_eq!(f.flows(), vec![("owner", "burst")]);
        let p = f.preemptions();
        assert!(p
            .iter()
            .all(|x| x.0 == 3 * H + 25 * M && x.2 == "owner-a" && x.3 == PreemptionKind::CrossShare));
        let lost = |name: &str| p.iter().find(|x| x.1 == name).map(|x| x.4);
        // About 5 minutes, 25 minutes and 3 h 25 min of training lost.
        assert_eq!(
            (lost("ckpt-10min"), lost("ckpt-1h"), lost("no-ckpt")),
            (Some(5 * M), Some(25 * M), Some(3 * H + 25 * M))
        );
        assert_eq!(p.len(), 3, "all three at once");
    }

    #[test]
    fn preset_lowering_text_matches_its_run() {
        let f = Facts::of("lowering");
        for k in 0..6 {
            assert_eq!(f.start(&format!("big-{k}")), 0, "platform runs six jobs");
        }
        let p = f.preemptions();
        // Nothing at 2:00; at 3:00 apps' jobs reclaim with "Capacity limit reduced"; at 6:00
        // the smaller service environment chooses victims at once (no preemptor).
        assert!(p.iter().all(|x| x.0 != 2 * H && x.3 == PreemptionKind::CapacityReduced), "{p:?}");
        let at3: Vec<_> = p.iter().filter(|x| (3 * H..3 * H + 5 * M).contains(&x.0)).collect();
        assert!(
            at3.len() >= 2 && at3.iter().all(|x| x.1.starts_with("big-") && x.2.starts_with("apps-")),
            "{at3:?}"
        );
        let at6: Vec<_> = p.iter().filter(|x| x.0 == 6 * H).collect();
        assert!(!at6.is_empty() && at6.iter().all(|x| x.2.is_empty()), "{at6:?}");
        // They keep running through their grace period.
        for x in at6 {
            assert!(f.job(x.1).attempts.iter().any(|a| a.stopped_at == Some(6 * H + 120)), "{}", x.1);
        }
    }

    #[test]
    fn preset_openb_text_matches_its_scenario() {
        let f = Facts::of("openb-trace");
        assert!(by_id("openb-trace")
            .unwrap()
            .explanation
            .starts_with(&format!("{} real pod", f.scenario.jobs.len())));
        let shares: Vec<(&str, &str)> = f
            .scenario
            .quota_shares
            .iter()
            .map(|q| (q.quota_share_name.as_str(), q.resource_sharing_configuration.strategy.as_str()))
            .collect();
        assert!(
            shares.contains(&("latency-sensitive", "LEND"))
                && shares.contains(&("best-effort", "LEND_AND_BORROW"))
        );
        assert!(f.scenario.jobs.iter().all(|j| j.checkpoint_interval_seconds == Some(1800)));
        assert!(f
            .scenario
            .jobs
            .iter()
            .all(|j| j.duration_seconds.is_some_and(|d| (60..=2 * 86_400).contains(&d))));
    }

    #[test]
    fn generated_10k_text_matches_its_run() {
        let f = Facts::of(BENCH_ID);
        let t = BENCH_EXPLANATION;
        assert_eq!(f.scenario.jobs.len(), 10_000);
        assert_eq!(f.scenario.quota_shares.len(), 6);
        assert_eq!(f.scenario.instance_types.len(), 2);
        let last = f.scenario.jobs.iter().map(|j| j.submit_at).max().unwrap() as f64;
        assert!(t.contains("first 2.8 days") && (last / 86_400.0 * 10.0).round() == 28.0, "{last}");
        // Offered over the arrivals: the demand against the owned capacity, near 95 %.
        let owned: i64 = f
            .scenario
            .quota_shares
            .iter()
            .flat_map(|q| q.capacity_limits.iter().map(|c| c.max_capacity))
            .sum();
        let demand: f64 = f
            .scenario
            .jobs
            .iter()
            .map(|j| (j.duration_seconds.unwrap_or(0) * j.instance_count.unwrap_or(1)) as f64)
            .sum();
        let offered = demand / (owned as f64 * last);
        assert!((0.85..=1.0).contains(&offered), "{offered}");
        assert!(t.contains("lasts 6 days") && (f.run.end as f64 / 86_400.0).floor() == 6.0, "{}", f.run.end);
        assert!(t.contains("whole run is 46 %"));
        assert_eq!(Facts::percent(f.run.summary.overall.utilization), 46);
        let p95 = f.run.summary.overall.wait_seconds.p95.unwrap() as f64 / 86_400.0;
        assert!(t.contains("p95 is 2.9 days") && (p95 * 10.0).round() == 29.0, "{p95}");
        assert!(
            t.contains("1,872 preemptions") && f.run.preemptions.len() == 1872,
            "{}",
            f.run.preemptions.len()
        );
    }

    #[test]
    fn presets_show_what_their_text_promises() {
        let count = |id: &str| {
            let s = scenario(by_id(id).unwrap()).unwrap();
            let mut sim = quotasim::Simulation::new(quotasim::validate(&s).unwrap());
            sim.run();
            sim.preemptions().len()
        };
        assert_eq!(count("notebook"), 2);
        assert_eq!(count("reclaim"), 3);
        assert_eq!(count("in-share"), 2);
        assert_eq!(count("checkpoints"), 3);
        assert!(count("lowering") >= 3);
    }
}
