//! The R25 snapshot at the current instant: per share and instance type, own use, borrowed
//! (from whom), lent (to whom) and idle quota; type totals; and the jobs at the front of each
//! share's queue with their R17 reason (click to explain).

use leptos::prelude::*;

use crate::geometry::format_time;
use crate::ui::state::{use_app, Selection};

fn flows(v: &[quotasim::result::Flow]) -> String {
    v.iter().map(|f| format!("{} {}", f.instances, f.quota_share_name)).collect::<Vec<_>>().join(", ")
}

#[component]
pub fn SnapshotPanel() -> impl IntoView {
    let app = use_app();
    let waiting = Memo::new(move |_| {
        app.play.snapshot.track();
        app.with_cursor(|sim| {
            let sc = sim.scenario();
            quotasim::scenario::ShareId::all(sc.shares.len())
                .filter_map(|s| {
                    let q = sim.queued(s);
                    let front = *q.first()?;
                    Some((
                        front.index(),
                        sc.jobs[front.index()].name.as_str().to_owned(),
                        sc.shares[s.index()].name.clone(),
                        sim.status_reason(front).unwrap_or_default(),
                        q.len(),
                    ))
                })
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
    });
    // Share colours by name, built once per change of the shares or their colours.
    let colors = Memo::new(move |_| {
        let colors = app.share_colors();
        app.doc.scenario.with(|s| {
            s.quota_shares
                .iter()
                .zip(colors)
                .map(|(q, c)| (q.quota_share_name.clone(), c))
                .collect::<std::collections::HashMap<_, _>>()
        })
    });
    let color_of = move |name: &str| colors.with(|c| c.get(name).cloned()).unwrap_or_else(|| "#888".into());
    view! {
        <section class="card snapshot" aria-labelledby="snap-h">
            <header class="card-head">
                <h3 id="snap-h">{move || format!("Queue utilization at {}", format_time(app.play.now.get()))}</h3>
                <span class="muted">"R25 · GetJobQueueSnapshot"</span>
            </header>
            {move || match app.play.snapshot.get() {
                None => view! { <p class="muted">"No run yet."</p> }.into_any(),
                Some(snap) => view! {
                    <div class="type-totals">
                        {snap.types.iter().map(|t| view! {
                            <div class="total">
                                <strong>{t.capacity_unit.clone()}</strong>
                                <span>{format!("{} / {} in use", t.usage, t.service_environment_capacity.map_or("no limit".to_string(), |c| c.to_string()))}</span>
                                <span>{format!("free {}", t.free)}</span>
                                <span>{format!("pool {} of {} available", t.pool_available, t.pool_capacity)}</span>
                                <span>{format!("borrowed {}", t.borrowed)}</span>
                            </div>
                        }).collect_view()}
                    </div>
                    <div class="table-scroll" tabindex="0" role="region" aria-label="queue utilization per share">
                    <table class="grid-table snap-table">
                        <thead><tr>
                            <th scope="col">"share"</th><th scope="col">"type"</th><th scope="col">"quota"</th>
                            <th scope="col">"own use"</th><th scope="col">"borrowed (from)"</th><th scope="col">"lent (to)"</th>
                            <th scope="col">"idle"</th><th scope="col">"earmarked"</th>
                        </tr></thead>
                        <tbody>
                            {snap.shares.iter().map(|u| {
                                let c = color_of(&u.quota_share_name);
                                view! {
                                    <tr>
                                        <td><span class="dot" style:background=c></span>{u.quota_share_name.clone()}</td>
                                        <td class="muted">{u.capacity_unit.clone()}</td>
                                        <td class="num">{u.quota}</td>
                                        <td class="num">{u.within_quota}</td>
                                        <td class="num">{if u.over_quota > 0 { format!("{} ({})", u.over_quota, if u.borrowed_from.is_empty() { "over quota after update".into() } else { flows(&u.borrowed_from) }) } else { "0".into() }}</td>
                                        <td class="num">{if u.lent > 0 { format!("{} ({})", u.lent, flows(&u.lent_to)) } else { "0".into() }}</td>
                                        <td class="num">{u.idle}</td>
                                        <td class="num">{u.earmarked}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    </div>
                    <p class="counts muted">{format!(
                        "jobs: {} not submitted · {} runnable · {} scheduled/starting · {} running · {} succeeded · {} failed",
                        snap.job_counts.not_submitted, snap.job_counts.runnable, snap.job_counts.scheduled + snap.job_counts.starting,
                        snap.job_counts.running, snap.job_counts.succeeded, snap.job_counts.failed)}</p>
                }.into_any(),
            }}
            <h4>"Waiting at the front of each queue"</h4>
            <ul class="waiting-list">
                {move || {
                    let w = waiting.get();
                    if w.is_empty() {
                        return view! { <li class="muted">"No job is waiting."</li> }.into_any();
                    }
                    w.into_iter().map(|(j, name, share, reason, n)| {
                        let c = color_of(&share);
                        view! {
                            <li>
                                <button class="link waiting-job" on:click=move |_| app.chrome.selection.set(Some(Selection::Job(j)))>
                                    <span class="dot" style:background=c></span>
                                    <strong>{name}</strong>
                                </button>
                                <span class="muted">{format!(" {share} · {n} queued · ")}</span>
                                <span class="reason">{reason}</span>
                            </li>
                        }
                    }).collect_view().into_any()
                }}
            </ul>
        </section>
    }
}
