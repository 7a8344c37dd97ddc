//! The preemption timeline: a lane per job (a window of lanes at a time), attempts as bars,
//! preemptions as markers coloured by reason, checkpoints as ticks, lost work shaded. A click
//! (or Enter) on a marker or a waiting segment opens its explanation.

use leptos::prelude::*;

use crate::charts::{find_jobs, kind_color, lane_jobs, time_scale, timeline_svg, Marks, TL_LEFT};
use crate::explain::kind_label;
use crate::geometry::row_window;
use crate::ui::dom::closest_attr;
use crate::ui::export::ExportButtons;
use crate::ui::forecast::use_eta;
use crate::ui::state::{use_app, Selection};
use quotasim::PreemptionKind;

const LANES: usize = 18;

#[component]
pub fn Timeline() -> impl IntoView {
    let app = use_app();
    let share = RwSignal::new(String::new());
    let only_pre = RwSignal::new(None::<bool>);
    let offset = RwSignal::new(0usize);
    // Large runs start with only the preempted jobs, when there are any.
    let big = Memo::new(move |_| {
        app.run
            .handle
            .with(|r| r.as_ref().is_some_and(|r| r.data.jobs.len() > 200 && !r.data.preemptions.is_empty()))
    });
    let only = move || only_pre.get().unwrap_or_else(|| big.get());
    // Job search: by part of the name, the share filter above and a status.
    let query = RwSignal::new(String::new());
    let status = RwSignal::new(String::new());
    let found = Memo::new(move |_| {
        let (q, st, sh) = (query.get(), status.get(), share.get());
        if q.trim().is_empty() && st.is_empty() {
            return Vec::new();
        }
        app.run.handle.with(|r| {
            r.as_ref()
                .map(|r| {
                    find_jobs(&r.data, &q, r.data.share_index(&sh), &st, 12)
                        .into_iter()
                        .map(|j| {
                            (
                                j,
                                r.data.jobs[j].job_name.clone(),
                                r.data.jobs[j].status.map_or("-", |s| s.as_str()),
                            )
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let lanes = Memo::new(move |_| {
        let sh = share.get();
        let only = only();
        app.run.handle.with(|r| {
            r.as_ref()
                .map(|r| {
                    let s = r.data.share_index(&sh);
                    lane_jobs(&r.data, s, only)
                })
                .unwrap_or_default()
        })
    });
    let window = Memo::new(move |_| row_window(lanes.with(|l| l.len()), LANES, offset.get()));
    let width = Memo::new(move |_| (app.chrome.width.get() - 40.0).max(480.0));
    let selected = move || match app.chrome.selection.get() {
        Some(Selection::Job(j)) => Some(j),
        Some(Selection::Preemption(p)) => app
            .run
            .handle
            .with(|r| r.as_ref().and_then(|r| r.data.preemptions.get(p)).map(|x| x.victim.index())),
        None => None,
    };
    let eta = use_eta();
    // A finished start-time forecast, drawn on its job's lane (progress does not redraw).
    let forecast = Memo::new(move |_| eta.lane());
    let svg = Memo::new(move |_| {
        let colors = app.share_colors();
        let w = window.get();
        let wd = width.get();
        let sel = selected();
        let win = app.play.view.get();
        forecast.with(|f| {
            let marks = Marks { selected: sel, forecast: f.as_ref() };
            app.run.handle.with(|r| {
                r.as_ref()
                    .map(|r| lanes.with(|l| timeline_svg(&r.data, l, w, &colors, wd, marks, win)))
                    .unwrap_or_default()
            })
        })
    });
    // The preemptions of a group marker, listed under the toolbar until one is chosen.
    let group = RwSignal::new(Vec::<usize>::new());
    let activate = move |ev: &web_sys::Event| {
        if let Some(g) = closest_attr(ev, "data-group") {
            group.set(g.split(',').filter_map(|x| x.parse().ok()).collect());
            return true;
        }
        if let Some(p) = closest_attr(ev, "data-pre").and_then(|v| v.parse::<usize>().ok()) {
            group.set(Vec::new());
            app.chrome.selection.set(Some(Selection::Preemption(p)));
            return true;
        }
        if let Some(j) = closest_attr(ev, "data-wait").and_then(|v| v.parse::<usize>().ok()) {
            if let Some(at) = closest_attr(ev, "data-at").and_then(|v| v.parse::<u64>().ok()) {
                app.play.playing.set(false);
                app.play.now.set(at);
            }
            app.chrome.selection.set(Some(Selection::Job(j)));
            return true;
        }
        if let Some(j) = closest_attr(ev, "data-job").and_then(|v| v.parse::<usize>().ok()) {
            app.chrome.selection.set(Some(Selection::Job(j)));
            return true;
        }
        false
    };
    let shares = Memo::new(move |_| {
        app.run.handle.with(|r| r.as_ref().map(|r| r.data.share_names.clone()).unwrap_or_default())
    });
    let cx = move || {
        let (a, b) = app.window();
        time_scale(a, b, TL_LEFT, width.get()).map(app.play.now.get() as f64).clamp(TL_LEFT, width.get())
    };
    let total = move || lanes.with(|l| l.len());
    // Shows job `j`: its lane in view (every job listed if the filter hid it) and its explanation.
    let jump = move |j: usize| {
        if !lanes.with_untracked(|l| l.contains(&j)) {
            only_pre.set(Some(false));
        }
        if let Some(pos) = lanes.with_untracked(|l| l.iter().position(|&x| x == j)) {
            offset.set(pos);
        }
        app.chrome.selection.set(Some(Selection::Job(j)));
    };
    // The lane of a job whose start is being forecast comes into view (asked by the forecast,
    // while the timeline is on the page).
    eta.on_reveal(Some(Callback::new(move |j: usize| {
        if !lanes.with_untracked(|l| l.contains(&j)) {
            only_pre.set(Some(false));
        }
        let w = window.get_untracked();
        if let Some(pos) = lanes.with_untracked(|l| l.iter().position(|&x| x == j)) {
            if pos < w.first || pos >= w.first + w.count {
                offset.set(pos);
            }
        }
    })));
    on_cleanup(move || eta.on_reveal(None));
    view! {
        <section class="card" aria-labelledby="tl-h" data-export-scope="">
            <header class="card-head">
                <h3 id="tl-h">"Jobs and preemptions"</h3>
                <ExportButtons name="timeline" />
                <div class="legend">
                    {[PreemptionKind::CrossShare, PreemptionKind::InShare, PreemptionKind::CapacityReduced].iter().map(|k| view! {
                        <span class="legend-item"><span class="diamond" style:background=kind_color(*k)></span>{kind_label(*k)}</span>
                    }).collect_view()}
                    <span class="legend-item"><span class="swatch hatch-demo"></span>"share borrowing (band), borrowed at dispatch (notch)"</span>
                    <span class="legend-item"><span class="group-demo"></span>"several preemptions (opens a list)"</span>
                    <span class="legend-item"><span class="swatch lost-demo"></span>"lost work"</span>
                    <span class="legend-item"><span class="swatch ckpt-demo"></span>"checkpoint"</span>
                    <span class="legend-item"><span class="swatch wait-demo"></span>"waiting"</span>
                    {move || forecast.with(Option::is_some).then(|| view! {
                        <span class="legend-item"><span class="swatch eta-demo"></span>"forecast start p10–p90, p50 tick; ▼ actual start"</span>
                    })}
                </div>
            </header>
            <div class="toolbar">
                <label class="field inline">
                    <span class="field-label">"Share"</span>
                    <select on:change=move |ev| { share.set(event_target_value(&ev)); offset.set(0) }>
                        <option value="">"all shares"</option>
                        {move || shares.get().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <label class="check">
                    <input type="checkbox" prop:checked=only on:change=move |ev| { only_pre.set(Some(event_target_checked(&ev))); offset.set(0) } />
                    <span>"only preempted jobs"</span>
                </label>
                <label class="field inline">
                    <span class="field-label">"Find"</span>
                    <input type="search" aria-label="find a job by name" placeholder="job name" spellcheck="false"
                        prop:value=move || query.get() on:input=move |ev| query.set(event_target_value(&ev))
                        on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Enter" { if let Some((j, _, _)) = found.get_untracked().first() { jump(*j) } } />
                </label>
                <label class="field inline">
                    <span class="field-label">"Status"</span>
                    <select aria-label="find jobs by status" on:change=move |ev| status.set(event_target_value(&ev))>
                        <option value="">"any"</option>
                        {["RUNNABLE", "RUNNING", "SUCCEEDED", "FAILED", "preempted"].into_iter().map(|v| view! { <option value=v>{v}</option> }).collect_view()}
                    </select>
                </label>
                <span class="spacer"></span>
                <button class="btn small" aria-label="previous jobs" on:click=move |_| offset.update(|o| *o = window.get_untracked().first.saturating_sub(LANES)) disabled=move || window.get().first == 0>"▲"</button>
                <span class="muted">{move || { let w = window.get(); if total() == 0 { "no jobs".to_string() } else { format!("jobs {}–{} of {}", w.first + 1, w.first + w.count, total()) } }}</span>
                <button class="btn small" aria-label="next jobs" on:click=move |_| offset.update(|o| *o = window.get_untracked().first + LANES) disabled=move || { let w = window.get(); w.first + w.count >= total() }>"▼"</button>
            </div>
            <Show when=move || !query.with(|q| q.trim().is_empty()) || !status.with(String::is_empty)>
                <div class="found" role="group" aria-label="jobs found">
                    {move || {
                        let f = found.get();
                        if f.is_empty() {
                            return view! { <span class="muted">"No job matches."</span> }.into_any();
                        }
                        f.into_iter().map(|(j, name, st)| view! {
                            <button class="btn small" on:click=move |_| jump(j)>{format!("{name} ({st})")}</button>
                        }).collect_view().into_any()
                    }}
                </div>
            </Show>
            <Show when=move || group.with(|g| !g.is_empty())>
                <div class="marker-list" role="group" aria-label="preemptions at this marker"
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { group.set(Vec::new()) }>
                    <span class="muted">{move || format!("{} preemptions here:", group.with(Vec::len))}</span>
                    {move || app.run.handle.with(|r| {
                        let Some(r) = r.as_ref() else { return Vec::new() };
                        let sc = r.data.full().scenario();
                        group.get().into_iter().filter_map(|pi| {
                            let p = r.data.preemptions.get(pi)?;
                            let text = format!(
                                "{} at {}: {}",
                                sc.jobs[p.victim.index()].name,
                                crate::geometry::format_time(p.decided_at),
                                kind_label(p.kind)
                            );
                            Some(view! {
                                <button class="btn small" on:click=move |_| { group.set(Vec::new()); app.chrome.selection.set(Some(Selection::Preemption(pi))) }>{text}</button>
                            })
                        }).collect::<Vec<_>>()
                    })}
                    <button class="icon-btn" aria-label="close the list" on:click=move |_| group.set(Vec::new())>"×"</button>
                </div>
            </Show>
            <div
                class="chart-area timeline"
                on:click=move |ev| { activate(&ev); }
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if (ev.key() == "Enter" || ev.key() == " ") && activate(&ev) {
                        ev.prevent_default();
                    }
                }
                on:wheel=move |ev: leptos::ev::WheelEvent| {
                    if total() > LANES && ev.delta_y().abs() > 0.0 {
                        ev.prevent_default();
                        let w = window.get_untracked();
                        offset.set(if ev.delta_y() > 0.0 { w.first + 3 } else { w.first.saturating_sub(3) });
                    }
                }
            >
                <div class="svg-host" inner_html=move || svg.get()></div>
                <div class="cursor" style:left=move || format!("{:.1}px", cx())></div>
            </div>
        </section>
    }
}
