//! The jobs table (R5): every job field, add / duplicate / delete, sort, filter by share, and
//! pages of 25 rows so that 10,000 jobs stay responsive.

use leptos::prelude::*;
use quotasim::model::JobPreemption;

use crate::edit::{duplicate_job, job_order, new_job, rename_job, SortKey};
use crate::ui::fields::{field_error, num_cell};
use crate::ui::generator::Generator;
use crate::ui::limits::type_options;
use crate::ui::state::use_app;

const PAGE: usize = 25;

#[component]
pub fn JobsEditor() -> impl IntoView {
    let app = use_app();
    let filter = RwSignal::new(String::new());
    let sort = RwSignal::new((SortKey::Index, false));
    let page = RwSignal::new(0usize);
    let order = Memo::new(move |_| {
        let f = filter.get();
        let (k, d) = sort.get();
        app.doc.scenario.with(|s| job_order(s, if f.is_empty() { None } else { Some(f.as_str()) }, k, d))
    });
    let pages = Memo::new(move |_| order.with(|o| o.len().div_ceil(PAGE).max(1)));
    let visible = Memo::new(move |_| {
        let p = page.get().min(pages.get() - 1);
        order.with(|o| o.iter().skip(p * PAGE).take(PAGE).copied().collect::<Vec<usize>>())
    });
    let shares = Memo::new(move |_| {
        app.doc
            .scenario
            .with(|s| s.quota_shares.iter().map(|q| q.quota_share_name.clone()).collect::<Vec<_>>())
    });
    let add = move |_| {
        let f = filter.get_untracked();
        app.doc.scenario.update(|s| {
            let j = new_job(s, if f.is_empty() { None } else { Some(f.as_str()) });
            s.jobs.push(j);
        });
        sort.set((SortKey::Index, false));
        page.set(usize::MAX / 2);
    };
    let header = move |label: &'static str, key: SortKey| {
        view! {
            <th scope="col">
                <button
                    class="sort"
                    class:active=move || sort.get().0 == key
                    aria-label=format!("sort by {label}")
                    on:click=move |_| sort.update(|(k, d)| if *k == key { *d = !*d } else { *k = key; *d = false })
                >
                    {label}
                    {move || match sort.get() {
                        (k, false) if k == key => " ▲",
                        (k, true) if k == key => " ▼",
                        _ => "",
                    }}
                </button>
            </th>
        }
    };
    let jobs_err = field_error("jobs".into());
    let total = Memo::new(move |_| app.doc.scenario.with(|s| s.jobs.len()));
    let clear = move |_| {
        let f = filter.get_untracked();
        app.doc.scenario.update(|s| {
            if f.is_empty() {
                s.jobs.clear();
            } else {
                s.jobs.retain(|j| j.quota_share_name != f);
            }
        })
    };
    view! {
        <section class="editor-section" aria-labelledby="jobs-h">
            <h3 id="jobs-h">"Jobs " <span class="count">{move || total.get()}</span></h3>
            <div class="toolbar">
                <label class="field inline">
                    <span class="field-label">"Share"</span>
                    <select on:change=move |ev| { filter.set(event_target_value(&ev)); page.set(0) } prop:value=move || filter.get()>
                        <option value="">"all shares"</option>
                        {move || shares.get().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <button class="btn primary" on:click=add>"+ Add job"</button>
                <button class="btn ghost" on:click=clear disabled=move || total.get() == 0>
                    {move || if filter.get().is_empty() { "Delete all".to_string() } else { format!("Delete {}'s jobs", filter.get()) }}
                </button>
            </div>
            <span class="field-error" role="alert">{move || jobs_err.get()}</span>
            <div class="table-scroll">
                <table class="grid-table jobs">
                    <thead>
                        <tr>
                            {header("#", SortKey::Index)}
                            {header("name", SortKey::Name)}
                            {header("share", SortKey::Share)}
                            {header("priority", SortKey::Priority)}
                            <th scope="col">"type"</th>
                            {header("count", SortKey::Count)}
                            {header("submit s", SortKey::Submit)}
                            {header("duration s", SortKey::Duration)}
                            <th scope="col" title="checkpoint interval, seconds">"ckpt s"</th>
                            <th scope="col" title="timeout per attempt, seconds">"timeout s"</th>
                            <th scope="col" title="preemptionRetriesBeforeTermination">"retries"</th>
                            <th scope="col"><span class="sr-only">"row actions"</span></th>
                        </tr>
                    </thead>
                    <tbody>
                        <For each=move || visible.get() key=|i| *i children=move |i| job_row(i, shares) />
                    </tbody>
                </table>
            </div>
            <nav class="pager" aria-label="job pages">
                <button class="btn small" on:click=move |_| page.update(|p| *p = (*p).min(pages.get_untracked() - 1).saturating_sub(1)) disabled=move || page.get().min(pages.get() - 1) == 0>"‹ Prev"</button>
                <span>{move || format!("page {} of {} · {} jobs shown", page.get().min(pages.get() - 1) + 1, pages.get(), order.with(|o| o.len()))}</span>
                <button class="btn small" on:click=move |_| page.update(|p| *p = (*p + 1).min(pages.get_untracked() - 1)) disabled=move || { page.get().min(pages.get() - 1) + 1 >= pages.get() }>"Next ›"</button>
            </nav>
            <Generator />
        </section>
    }
}

fn job_row(i: usize, shares: Memo<Vec<String>>) -> impl IntoView {
    let app = use_app();
    let p = format!("jobs[{i}]");
    let get = move |f: fn(&quotasim::model::Job) -> Option<i64>| {
        move || app.doc.scenario.with(|s| s.jobs.get(i).and_then(f))
    };
    let upd = move |f: fn(&mut quotasim::model::Job, Option<i64>)| {
        move |v: Option<i64>| {
            app.doc.scenario.update(|s| {
                if let Some(j) = s.jobs.get_mut(i) {
                    f(j, v)
                }
            })
        }
    };
    let name =
        move || app.doc.scenario.with(|s| s.jobs.get(i).map(|j| j.job_name.clone()).unwrap_or_default());
    let share = move || {
        app.doc.scenario.with(|s| s.jobs.get(i).map(|j| j.quota_share_name.clone()).unwrap_or_default())
    };
    // A job may give its type and count only in its serviceRequestPayload (R5); the cells show
    // those and edits keep both places in step.
    let ty = move || {
        app.doc.scenario.with(|s| {
            s.jobs
                .get(i)
                .and_then(|j| {
                    j.instance_type
                        .clone()
                        .or_else(|| j.service_request_payload.as_ref().and_then(|x| x.instance_type.clone()))
                })
                .unwrap_or_default()
        })
    };
    let e_name = field_error(format!("{p}.jobName"));
    let e_share = field_error(format!("{p}.quotaShareName"));
    let e_type_direct = field_error(format!("{p}.instanceType"));
    let e_type_payload = field_error(format!("{p}.serviceRequestPayload.ResourceConfig.InstanceType"));
    let e_type = Signal::derive(move || e_type_direct.get().or_else(|| e_type_payload.get()));
    let explain = move |_| {
        if let Some(run) = app.run.handle.get_untracked() {
            let n = name();
            if let Some(j) = run.data.job_index(&n) {
                app.chrome.selection.set(Some(crate::ui::state::Selection::Job(j)));
            }
        }
    };
    view! {
        <tr>
            <td class="muted num">{i + 1}</td>
            <td class="cell wide" class:invalid=move || e_name.get().is_some()>
                <input type="text" spellcheck="false" aria-label=format!("name of job {}", i + 1) data-path=format!("{p}.jobName")
                    prop:value=name on:input=move |ev| { let v = event_target_value(&ev); app.doc.scenario.update(|s| rename_job(s, i, &v)) } />
                <span class="cell-error">{move || e_name.get()}</span>
            </td>
            <td class="cell" class:invalid=move || e_share.get().is_some()>
                <select aria-label=format!("quota share of job {}", i + 1) data-path=format!("{p}.quotaShareName")
                    on:change=move |ev| { let v = event_target_value(&ev); app.doc.scenario.update(|s| if let Some(j) = s.jobs.get_mut(i) { j.quota_share_name = v }) }>
                    {move || {
                        let cur = share();
                        let mut opts = shares.get();
                        if !opts.contains(&cur) { opts.insert(0, cur.clone()); }
                        opts.into_iter().map(|o| { let sel = o == cur; view! { <option value=o.clone() selected=sel>{o.clone()}</option> } }).collect_view()
                    }}
                </select>
                <span class="cell-error">{move || e_share.get()}</span>
            </td>
            {num_cell(format!("priority of job {}", i + 1), format!("{p}.schedulingPriority"), get(|j| Some(j.scheduling_priority)), upd(|j, v| if let Some(v) = v { j.scheduling_priority = v }), false)}
            <td class="cell" class:invalid=move || e_type.get().is_some()>
                <select aria-label=format!("instance type of job {}", i + 1) data-path=format!("{p}.instanceType")
                    on:change=move |ev| { let v = event_target_value(&ev); app.doc.scenario.update(|s| if let Some(j) = s.jobs.get_mut(i) { set_type(j, v) }) }>
                    {move || {
                        let cur = ty();
                        let mut opts = app.doc.scenario.with(|s| s.service_environment.capacity_limits.iter().map(|l| l.capacity_unit.clone()).collect::<Vec<_>>());
                        if opts.is_empty() { opts = app.doc.scenario.with(type_options); }
                        if !opts.contains(&cur) { opts.insert(0, cur.clone()); }
                        opts.into_iter().map(|o| { let sel = o == cur; view! { <option value=o.clone() selected=sel>{o.clone()}</option> } }).collect_view()
                    }}
                </select>
                <span class="cell-error">{move || e_type.get()}</span>
            </td>
            {num_cell(format!("instance count of job {}", i + 1), format!("{p}.instanceCount"),
                get(|j| j.instance_count.or_else(|| j.service_request_payload.as_ref().and_then(|x| x.instance_count))),
                upd(set_count), false)}
            {num_cell(format!("submit time of job {} in seconds", i + 1), format!("{p}.submitAt"), get(|j| Some(j.submit_at)), upd(|j, v| if let Some(v) = v { j.submit_at = v }), false)}
            {num_cell(format!("duration of job {} in seconds", i + 1), format!("{p}.durationSeconds"), get(|j| Some(j.duration_seconds)), upd(|j, v| if let Some(v) = v { j.duration_seconds = v }), false)}
            {num_cell(format!("checkpoint interval of job {} in seconds", i + 1), format!("{p}.checkpointIntervalSeconds"), get(|j| j.checkpoint_interval_seconds), upd(|j, v| j.checkpoint_interval_seconds = v), true)}
            {num_cell(format!("timeout of job {} in seconds", i + 1), format!("{p}.timeoutSeconds"), get(|j| j.timeout_seconds), upd(|j, v| j.timeout_seconds = v), true)}
            {num_cell(format!("preemption retries of job {}", i + 1), format!("{p}.preemptionConfiguration.preemptionRetriesBeforeTermination"),
                get(|j| j.preemption_configuration.as_ref().and_then(|p| p.preemption_retries_before_termination)),
                upd(|j, v| j.preemption_configuration = v.map(|r| JobPreemption { preemption_retries_before_termination: Some(r) })), true)}
            <td class="row-btns">
                <button class="icon-btn" title="explain this job now" aria-label=move || format!("explain {}", name()) on:click=explain>"?"</button>
                <button class="icon-btn" title="duplicate" aria-label=move || format!("duplicate {}", name()) on:click=move |_| app.doc.scenario.update(|s| duplicate_job(s, i))>"⧉"</button>
                <button class="icon-btn" title="delete" aria-label=move || format!("delete {}", name()) on:click=move |_| app.doc.scenario.update(|s| if i < s.jobs.len() { s.jobs.remove(i); })>"×"</button>
            </td>
        </tr>
    }
}

/// Sets a job's instance type, in its serviceRequestPayload too when that names one.
fn set_type(j: &mut quotasim::model::Job, v: String) {
    if let Some(x) = j.service_request_payload.as_mut().filter(|x| x.instance_type.is_some()) {
        x.instance_type = Some(v.clone());
    }
    j.instance_type = Some(v);
}

/// Sets a job's instance count, in its serviceRequestPayload too when that gives one.
fn set_count(j: &mut quotasim::model::Job, v: Option<i64>) {
    if v.is_none() {
        return;
    }
    if let Some(x) = j.service_request_payload.as_mut().filter(|x| x.instance_count.is_some()) {
        x.instance_count = v;
    }
    j.instance_count = v;
}
