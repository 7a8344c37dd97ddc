//! Summary cards and the per-share table (R26).

use leptos::prelude::*;
use quotasim::result::Metrics;

use crate::geometry::format_duration;
use crate::ui::state::use_app;

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "–".into(), |x| format!("{:.1} %", x * 100.0))
}

fn secs(v: Option<u64>) -> String {
    v.map_or_else(|| "–".into(), format_duration)
}

fn hours(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

fn card(label: &'static str, value: String, sub: String) -> impl IntoView {
    view! {
        <div class="stat">
            <span class="stat-label">{label}</span>
            <span class="stat-value">{value}</span>
            <span class="stat-sub">{sub}</span>
        </div>
    }
}

#[component]
pub fn Summary() -> impl IntoView {
    let app = use_app();
    let colors = Memo::new(move |_| app.share_colors());
    // The wait-by-cause columns: hidden until asked for (one click).
    let by_cause = RwSignal::new(false);
    // R26's statement under the table's header, open from its chip as in the explanations.
    let rule_open = RwSignal::new(false);
    view! {
        {move || app.run.handle.with(|r| r.as_ref().map(|r| {
            let s = &r.data.summary;
            let o: &Metrics = &s.overall;
            let causes = crate::causes::shown(&s.per_quota_share);
            let cause_heads = causes
                .iter()
                .map(|&c| view! { <th scope="col" class="cause-col" hidden=move || !by_cause.get() title=crate::causes::meaning(c)>{crate::causes::label(c)}</th> })
                .collect_view();
            let rows = s.per_quota_share.iter().enumerate().map(|(i, (name, m))| {
                let c = colors.with(|c| c.get(i).cloned().unwrap_or_default());
                let why = format!(
                    "{} cross-share reclaim · {} in-share · {} capacity limit reduced · {} restarted the instant their grace ended",
                    m.preemptions.cross_share,
                    m.preemptions.in_share,
                    m.preemptions.capacity_limit_reduced,
                    m.preemptions.restarted_at_once
                );
                view! {
                    <tr>
                        <td><span class="dot" style:background=c></span>{name.clone()}</td>
                        <td class="num">{format!("{}/{}", m.succeeded, m.jobs)}</td>
                        <td class="num">{pct(m.utilization)}</td>
                        <td class="num">{hours(m.gpu_hours_own)}</td>
                        <td class="num">{hours(m.gpu_hours_borrowed)}</td>
                        <td class="num">{hours(m.gpu_hours_lent)}</td>
                        <td class="num">{secs(m.wait_seconds.p50)}</td>
                        <td class="num">{secs(m.wait_seconds.p95)}</td>
                        <td class="num" title=why>{m.preemptions.total}</td>
                        <td class="num">{m.preemptions.caused}</td>
                        <td class="num">{format!("{:.2}", m.lost_gpu_hours)}</td>
                        <td class="num">{pct(m.goodput)}</td>
                        <td class="num">{m.never_runnable}</td>
                        {causes
                            .iter()
                            .map(|&c| {
                                let t = secs(Some(m.runnable_seconds_by_cause.get(c)));
                                view! { <td class="num cause-col" hidden=move || !by_cause.get()>{t}</td> }
                            })
                            .collect_view()}
                    </tr>
                }
            }).collect_view();
            view! {
                <section class="stats" aria-label="summary">
                    {card("Utilization", pct(o.utilization), String::from("of service environment capacity"))}
                    {card("GPU-hours", hours(o.gpu_hours), format!("{} own · {} borrowed", hours(o.gpu_hours_own), hours(o.gpu_hours_borrowed)))}
                    {card("Wait p50 / p95", format!("{} / {}", secs(o.wait_seconds.p50), secs(o.wait_seconds.p95)), format!("max {}", secs(o.wait_seconds.max)))}
                    {card("Preemptions", o.preemptions.total.to_string(), preemption_detail(&o.preemptions))}
                    {card("Lost GPU-hours", format!("{:.2}", o.lost_gpu_hours), String::from("training since the last checkpoint"))}
                    {card("Goodput", pct(o.goodput), format!("{} of {} jobs succeeded", o.succeeded, o.jobs))}
                </section>
                <section class="card" aria-labelledby="per-share-h">
                    <header class="card-head">
                        <h3 id="per-share-h">"Per quota share"</h3>
                        <button
                            class="btn small ghost"
                            aria-pressed=move || by_cause.get().to_string()
                            title="Time RUNNABLE of the share's jobs, summed, split by the cause that held them (runnableSecondsByCause)"
                            on:click=move |_| by_cause.update(|v| *v = !*v)
                        >
                            {move || if by_cause.get() { "Hide wait by cause" } else { "Wait by cause" }}
                        </button>
                        <button class="rule" title=crate::rules::rule("R26").map_or("", |x| x.title)
                            aria-controls="per-share-rule" aria-expanded=move || rule_open.get().to_string()
                            on:click=move |_| rule_open.update(|v| *v = !*v)>"R26"</button>
                    </header>
                    {move || rule_open.get().then(|| crate::rules::rule("R26")).flatten().map(|rule| view! {
                        <div class="rule-text" id="per-share-rule" role="note" aria-label="rule R26">
                            <strong>{format!("{} {}. ", rule.id, rule.title)}</strong>{rule.text}
                        </div>
                    })}
                    <div class="table-scroll" tabindex="0" role="region" aria-label="per-share metrics table">
                        <table class="grid-table metrics">
                            <thead><tr>
                                <th scope="col">"share"</th><th scope="col">"done"</th><th scope="col">"utilization"</th>
                                <th scope="col">"GPU\u{2011}h own"</th><th scope="col">"GPU\u{2011}h borrowed"</th>
                                <th scope="col" title="GPU-hours of this share's quota used by other shares (R15)">"GPU\u{2011}h lent"</th>
                                <th scope="col">"wait p50"</th><th scope="col">"wait p95"</th>
                                <th scope="col" title="preemptions its jobs suffered (hover a number for the reasons)">"preempted"</th>
                                <th scope="col" title="preemptions its jobs triggered, as the preemptor's share">"caused"</th>
                                <th scope="col">"lost GPU\u{2011}h"</th><th scope="col">"goodput"</th><th scope="col" title="never runnable">"stuck"</th>
                                {cause_heads}
                            </tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                </section>
            }
        }))}
    }
}

/// The preemption card's detail: by reason, and how many bought nothing (the victim restarted
/// the instant its grace ended), when any did.
fn preemption_detail(p: &quotasim::result::PreemptionCounts) -> String {
    let mut t =
        format!("{} reclaim · {} in-share · {} limit", p.cross_share, p.in_share, p.capacity_limit_reduced);
    if p.restarted_at_once > 0 {
        t.push_str(&format!(" · {} restarted at once", p.restarted_at_once));
    }
    t
}
