//! The per-share workload generator: Poisson arrivals, a duration distribution, instance
//! counts, priorities and checkpoints, appended to the jobs (or replacing a share's jobs).

use leptos::prelude::*;

use crate::genwork::{check, generate, parse_list, Distribution, WorkloadSpec};
use crate::ui::state::use_app;

fn num_input<T: std::str::FromStr + ToString + Copy + Send + Sync + 'static>(
    label: &'static str,
    sig: RwSignal<T>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <input
                type="number"
                prop:value=move || sig.get().to_string()
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).trim().parse::<T>() {
                        sig.set(v)
                    }
                }
            />
        </label>
    }
}

fn text_input(label: &'static str, sig: RwSignal<String>) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <input type="text" prop:value=move || sig.get() on:input=move |ev| sig.set(event_target_value(&ev)) />
        </label>
    }
}

#[component]
pub fn Generator() -> impl IntoView {
    let app = use_app();
    let share = RwSignal::new(String::new());
    let count = RwSignal::new(20u32);
    let per_hour = RwSignal::new(4.0f64);
    let start = RwSignal::new(0u64);
    let dist = RwSignal::new(3usize);
    let min = RwSignal::new(1800u64);
    let max = RwSignal::new(4 * 3600u64);
    let counts = RwSignal::new(String::from("1, 2"));
    let prios = RwSignal::new(String::from("0, 10"));
    let ckpt = RwSignal::new(600u64);
    let seed = RwSignal::new(1u64);
    let message = RwSignal::new(None::<String>);
    let shares = Memo::new(move |_| {
        app.doc
            .scenario
            .with(|s| s.quota_shares.iter().map(|q| q.quota_share_name.clone()).collect::<Vec<_>>())
    });
    let build = move || -> Result<WorkloadSpec, String> {
        let sh = {
            let s = share.get_untracked();
            if s.is_empty() {
                shares
                    .get_untracked()
                    .first()
                    .cloned()
                    .ok_or_else(|| String::from("add a quota share first"))?
            } else {
                s
            }
        };
        let ty = app.doc.scenario.with_untracked(|s| {
            s.quota_shares
                .iter()
                .find(|q| q.quota_share_name == sh)
                .and_then(|q| q.capacity_limits.first())
                .map(|l| l.capacity_unit.clone())
                .unwrap_or_else(|| crate::edit::first_type(s))
        });
        let spec = WorkloadSpec {
            share: sh,
            instance_type: ty,
            count: count.get_untracked(),
            per_hour: per_hour.get_untracked(),
            start_at: start.get_untracked(),
            distribution: Distribution::ALL[dist.get_untracked().min(3)].0,
            min_seconds: min.get_untracked(),
            max_seconds: max.get_untracked(),
            instance_counts: parse_list(&counts.get_untracked())
                .map_err(|e| format!("instance counts: {e}"))?,
            priorities: parse_list(&prios.get_untracked()).map_err(|e| format!("priorities: {e}"))?,
            checkpoint_seconds: ckpt.get_untracked(),
            retries: None,
            seed: seed.get_untracked(),
        };
        check(&spec)?;
        Ok(spec)
    };
    let apply = move |replace: bool| match build() {
        Err(e) => message.set(Some(e)),
        Ok(spec) => {
            app.doc.edit(|s, r| {
                if replace {
                    let keep: Vec<bool> = s.jobs.iter().map(|j| j.quota_share_name != spec.share).collect();
                    s.jobs.retain(|j| j.quota_share_name != spec.share);
                    r.retain(crate::rows::List::Jobs, |i| keep[i]);
                }
                let jobs = generate(s, &spec);
                r.push(crate::rows::List::Jobs, jobs.len());
                s.jobs.extend(jobs);
            });
            message.set(Some(format!("added {} jobs to {}", spec.count, spec.share)));
            seed.update(|s| *s += 1);
        }
    };
    view! {
        <details class="generator">
            <summary>"Workload generator"</summary>
            <div class="form-grid">
                <label class="field">
                    <span class="field-label">"Quota share"</span>
                    <select on:change=move |ev| share.set(event_target_value(&ev))>
                        {move || shares.get().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect_view()}
                    </select>
                </label>
                {num_input("Jobs", count)}
                {num_input("Arrivals per hour (Poisson)", per_hour)}
                {num_input("First arrival at (s)", start)}
                <label class="field">
                    <span class="field-label">"Duration distribution"</span>
                    <select on:change=move |ev| dist.set(event_target_value(&ev).parse().unwrap_or(3))>
                        {Distribution::ALL.iter().enumerate().map(|(k, (_, t))| view! { <option value=k.to_string() selected=k == 3>{*t}</option> }).collect_view()}
                    </select>
                </label>
                {num_input("Min duration (s)", min)}
                {num_input("Max duration (s)", max)}
                {text_input("Instance counts (pick from)", counts)}
                {text_input("Priorities (pick from)", prios)}
                {num_input("Checkpoint every (s, 0 = never)", ckpt)}
                {num_input("Seed", seed)}
            </div>
            <div class="row-actions">
                <button class="btn primary" on:click=move |_| apply(false)>"Add jobs"</button>
                <button class="btn" on:click=move |_| apply(true)>"Replace this share's jobs"</button>
                <span class="muted" role="status">{move || message.get()}</span>
            </div>
        </details>
    }
}
