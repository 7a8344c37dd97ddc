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
        explanation: "alpha (RESERVE) and beta (LEND) run the same bursty workload, four instances for two hours \
            every six hours; gamma (LEND_AND_BORROW) always has more work than its quota. gamma borrows beta's \
            idle quota but never alpha's (R4): alpha's jobs start at once, yet its instances sit idle most of \
            the day, while beta's capacity stays busy and its bursts reclaim from gamma. Compare the shares' \
            utilization and gamma's borrowed GPU-hours.",
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
