//! The jobs table (R5): every job field, add / duplicate / delete, sort, filter by share, and
//! pages of 25 rows so that 10,000 jobs stay responsive.

use leptos::prelude::*;
use quotasim::model::JobPreemption;

use crate::edit::{duplicate_job, job_order, new_job, rename_job, SortKey};
use crate::rows::List;
use crate::ui::fields::{field_error, num_cell};
use crate::ui::generator::Generator;
use crate::ui::keyed::Pos;
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
    // The rows of the page, by stable id: an edit keeps every row's node, a deletion only
    // removes its own.
    let visible = Memo::new(move |_| {
        let p = page.get().min(pages.get() - 1);
        order.with(|o| {
            app.doc.rows.with(|r| {
                let ids = r.ids(List::Jobs);
                o.iter().skip(p * PAGE).take(PAGE).filter_map(|&i| ids.get(i).copied()).collect::<Vec<u64>>()
            })
        })
    });
    let shares = Memo::new(move |_| {
        app.doc
            .scenario
            .with(|s| s.quota_shares.iter().map(|q| q.quota_share_name.clone()).collect::<Vec<_>>())
    });
    // Instance types to offer: the service environment's, else the catalogue's.
    let types = Memo::new(move |_| {
        app.doc.scenario.with(|s| {
            let opts: Vec<String> =
                s.service_environment.capacity_limits.iter().map(|l| l.capacity_unit.clone()).collect();
            if opts.is_empty() {
                type_options(s)
            } else {
                opts
            }
        })
    });
    let add = move |_| {
        let f = filter.get_untracked();
        app.doc.edit(|s, r| {
            let j = new_job(s, if f.is_empty() { None } else { Some(f.as_str()) });
            s.jobs.push(j);
            r.push(List::Jobs, 1);
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
    let jobs_err = field_error(String::from("jobs"));
    let total = Memo::new(move |_| app.doc.scenario.with(|s| s.jobs.len()));
    // Deleting jobs asks first, and the scenario before it goes to the history (restorable).
    let confirming = RwSignal::new(false);
    let clear = move |_| {
        confirming.set(false);
        let f = filter.get_untracked();
        app.doc.remember(&app.current());
        app.doc.edit(|s, r| {
            let keep: Vec<bool> = s.jobs.iter().map(|j| !f.is_empty() && j.quota_share_name != f).collect();
            s.jobs.retain(|j| !f.is_empty() && j.quota_share_name != f);
            r.retain(List::Jobs, |i| keep[i]);
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
                <Show when=move || !confirming.get()>
                    <button class="btn ghost" on:click=move |_| confirming.set(true) disabled=move || total.get() == 0>
                        {move || if filter.get().is_empty() { "Delete all".to_string() } else { format!("Delete {}'s jobs", filter.get()) }}
                    </button>
                </Show>
                <Show when=move || confirming.get()>
                    <span class="confirm" role="alert">
                        {move || {
                            let n = app.doc.scenario.with(|s| {
                                let f = filter.get();
                                s.jobs.iter().filter(|j| f.is_empty() || j.quota_share_name == f).count()
                            });
                            format!("Delete {n} job{}? The scenario before goes to History. ", if n == 1 { "" } else { "s" })
                        }}
                        <button class="btn danger" on:click=clear>"Delete"</button>
                        <button class="btn ghost" on:click=move |_| confirming.set(false)>"Cancel"</button>
                    </span>
                </Show>
            </div>
            <span class="field-error" role="alert">{move || jobs_err.get()}</span>
            <p class="muted generated-note">
                {move || {
                    app.doc.scenario.with(|s| {
                        s.workload.as_ref().map(|w| {
                            let shared = w.shares.iter().any(|e| e.jobs.is_none());
                            let n = if shared { w.jobs.unwrap_or(0) } else { 0 }
                                + w.shares.iter().filter_map(|e| e.jobs).sum::<i64>();
                            format!(
                                "The table lists the jobs written one by one; the workload section adds {n} generated jobs (seed {}), shown in the run. The generator below edits or lists them.",
                                w.seed
                            )
                        })
                    })
                }}
            </p>
            <div class="table-scroll" tabindex="0" role="region" aria-label="jobs">
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
                        <For each=move || visible.get() key=|id| *id children=move |id| job_row(id, shares, types) />
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

/// The row of the job with stable id `id`: it reads its job through a memo, so edits of other
/// rows leave it (and its nodes) alone; its index, paths and labels follow the job as rows
/// before it are added or deleted.
fn job_row(id: u64, shares: Memo<Vec<String>>, types: Memo<Vec<String>>) -> impl IntoView {
    let app = use_app();
    let pos = Pos::new(move || app.doc.position(List::Jobs, id));
    let job = Memo::new(move |_| pos.index().and_then(|i| app.doc.scenario.with(|s| s.jobs.get(i).cloned())));
    let at = move || pos.at();
    let n = move || pos.index().map_or(0, |i| i + 1);
    let path = move |field: &'static str| {
        Signal::derive(move || format!("jobs[{}].{field}", pos.index().unwrap_or(0)))
    };
    let label = move |what: &'static str| Signal::derive(move || format!("{what} of job {}", n()));
    let labelled = move |what: &'static str, unit: &'static str| {
        Signal::derive(move || format!("{what} of job {} {unit}", n()))
    };
    let get = move |f: fn(&quotasim::model::Job) -> Option<i64>| move || job.with(|j| j.as_ref().and_then(f));
    let upd = move |f: fn(&mut quotasim::model::Job, Option<i64>)| {
        move |v: Option<i64>| {
            app.doc.update(|s| {
                if let Some(j) = s.jobs.get_mut(at()) {
                    f(j, v)
                }
            })
        }
    };
    let name = move || job.with(|j| j.as_ref().map(|j| j.job_name.as_str().to_owned()).unwrap_or_default());
    let share =
        move || job.with(|j| j.as_ref().map(|j| j.quota_share_name.as_str().to_owned()).unwrap_or_default());
    // A job may give its type and count only in its serviceRequestPayload (R5); the cells show
    // those and edits keep both places in step.
    let ty = move || {
        job.with(|j| {
            j.as_ref()
                .and_then(|j| {
                    j.instance_type.as_deref().or_else(|| {
                        j.service_request_payload.as_ref().and_then(|x| x.instance_type.as_deref())
                    })
                })
                .map(str::to_owned)
                .unwrap_or_default()
        })
    };
    let e_name = field_error(path("jobName"));
    let e_share = field_error(path("quotaShareName"));
    let e_type_direct = field_error(path("instanceType"));
    let e_type_payload = field_error(path("serviceRequestPayload.ResourceConfig.InstanceType"));
    let e_type = Signal::derive(move || e_type_direct.get().or_else(|| e_type_payload.get()));
    let explain = move |_| {
        if let Some(run) = app.run.handle.get_untracked() {
            let n = name();
            // The row's index when the run is of the scenario as it is, else the job by name.
            let same = run.data.jobs.get(at()).is_some_and(|j| j.job_name == n);
            if let Some(j) = if same { Some(at()) } else { run.data.job_index(&n) } {
                app.chrome.selection.set(Some(crate::ui::state::Selection::Job(j)));
            }
        }
    };
    view! {
        <tr data-row=id>
            <td class="muted num">{n}</td>
            <td class="cell wide" class:invalid=move || e_name.get().is_some()>
                <input type="text" spellcheck="false" aria-label=label("name") data-path=path("jobName")
                    prop:value=name on:input=move |ev| { let v = event_target_value(&ev); app.doc.update(|s| rename_job(s, at(), &v)) } />
                <span class="cell-error">{move || e_name.get()}</span>
            </td>
            <td class="cell" class:invalid=move || e_share.get().is_some()>
                <select aria-label=label("quota share") data-path=path("quotaShareName")
                    on:change=move |ev| { let v = event_target_value(&ev); app.doc.update(|s| if let Some(j) = s.jobs.get_mut(at()) { j.quota_share_name = v.into() }) }>
                    {move || {
                        let cur = share();
                        let mut opts = shares.get();
                        if !opts.contains(&cur) { opts.insert(0, cur.clone()); }
                        opts.into_iter().map(|o| { let sel = o == cur; view! { <option value=o.clone() selected=sel>{o.clone()}</option> } }).collect_view()
                    }}
                </select>
                <span class="cell-error">{move || e_share.get()}</span>
            </td>
            {num_cell(label("priority"), path("schedulingPriority"), get(|j| Some(j.scheduling_priority)), upd(|j, v| if let Some(v) = v { j.scheduling_priority = v }), false)}
            <td class="cell" class:invalid=move || e_type.get().is_some()>
                <select aria-label=label("instance type") data-path=path("instanceType")
                    on:change=move |ev| { let v = event_target_value(&ev); app.doc.update(|s| if let Some(j) = s.jobs.get_mut(at()) { set_type(j, v) }) }>
                    {move || {
                        let cur = ty();
                        let mut opts = types.get();
                        if !opts.contains(&cur) { opts.insert(0, cur.clone()); }
                        opts.into_iter().map(|o| { let sel = o == cur; view! { <option value=o.clone() selected=sel>{o.clone()}</option> } }).collect_view()
                    }}
                </select>
                <span class="cell-error">{move || e_type.get()}</span>
            </td>
            {num_cell(label("instance count"), path("instanceCount"),
                get(|j| j.instance_count.or_else(|| j.service_request_payload.as_ref().and_then(|x| x.instance_count))),
                upd(set_count), false)}
            {num_cell(labelled("submit time", "in seconds"), path("submitAt"), get(|j| Some(j.submit_at)), upd(|j, v| if let Some(v) = v { j.submit_at = v }), false)}
            {num_cell(labelled("duration", "in seconds"), path("durationSeconds"), get(|j| j.duration_seconds), upd(|j, v| if let Some(v) = v { j.duration_seconds = Some(v) }), false)}
            {num_cell(labelled("checkpoint interval", "in seconds"), path("checkpointIntervalSeconds"), get(|j| j.checkpoint_interval_seconds), upd(|j, v| j.checkpoint_interval_seconds = v), true)}
            {num_cell(labelled("timeout", "in seconds"), path("timeoutSeconds"), get(|j| j.timeout_seconds), upd(|j, v| j.timeout_seconds = v), true)}
            {num_cell(label("preemption retries"), path("preemptionConfiguration.preemptionRetriesBeforeTermination"),
                get(|j| j.preemption_configuration.as_ref().and_then(|p| p.preemption_retries_before_termination)),
                upd(|j, v| j.preemption_configuration = v.map(|r| JobPreemption { preemption_retries_before_termination: Some(r) })), true)}
            <td class="row-btns">
                <button class="icon-btn" title="explain this job now" aria-label=move || format!("explain {}", name()) on:click=explain>"?"</button>
                <button class="icon-btn" title="duplicate" aria-label=move || format!("duplicate {}", name())
                    on:click=move |_| app.doc.edit(|s, r| { let i = at(); if i < s.jobs.len() { duplicate_job(s, i); r.insert(List::Jobs, i + 1) } })>"⧉"</button>
                <button class="icon-btn" title="delete" aria-label=move || format!("delete {}", name())
                    on:click=move |_| app.doc.edit(|s, r| { let i = at(); if i < s.jobs.len() { s.jobs.remove(i); r.remove(List::Jobs, i) } })>"×"</button>
            </td>
        </tr>
    }
}

/// Sets a job's instance type, in its serviceRequestPayload too when that names one.
fn set_type(j: &mut quotasim::model::Job, v: String) {
    if let Some(x) = j.service_request_payload.as_mut().filter(|x| x.instance_type.is_some()) {
        x.instance_type = Some(v.clone());
    }
    j.instance_type = Some(v.into());
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
