//! The sweep panel: vary up to three settings of the scenario over values or ranges, run
//! every combination, and see the trade-off between two goals with the Pareto front; a row
//! opens as variant B of compare mode, or becomes the scenario.

use leptos::prelude::*;
use quotasim::sweep::SweepRow;

use crate::sweep_view::{
    default_axis, default_goals, front_of, mark_front, metric_of, metric_paths, prepare, scatter_svg, short,
    sweep_file, AxisForm, GoalForm,
};
use crate::ui::keyed::LocalRows;
use crate::ui::state::{use_app, Notice};
use crate::ui::task::Tasks;

/// The most rows the page runs at once.
const MAX_ROWS: u64 = 500;

#[component]
pub fn SweepPanel() -> impl IntoView {
    let app = use_app();
    let first_axis = app.doc.scenario.with_untracked(default_axis);
    let axes = RwSignal::new(vec![
        first_axis,
        AxisForm { path: "settings.preemptionGraceSeconds".into(), values: "60..300 step 120".into() },
    ]);
    let (x0, y0) = default_goals();
    let gx = RwSignal::new(x0);
    let gy = RwSignal::new(y0);
    // Seeds per point: only a scenario with a workload section has seeds to draw.
    let replicates = RwSignal::new(1u32);
    let has_workload = Memo::new(move |_| app.doc.scenario.with(|s| s.workload.is_some()));
    let paths = Memo::new(move |_| app.doc.scenario.with(metric_paths));
    let rows = RwSignal::new(None::<Result<Vec<SweepRow>, String>>);
    let selected = RwSignal::new(None::<u64>);
    // Rows done and to do while a sweep runs; a cancelled or replaced sweep stops after the
    // row it is running.
    let progress = RwSignal::new(None::<(u64, u64)>);
    let sweeps = Tasks::new();
    let go = move |_| {
        let s = app.doc.scenario.get_untracked();
        let n = if has_workload.get_untracked() { replicates.get_untracked() } else { 1 };
        let sweep = sweep_file(&s, &axes.get_untracked(), &gx.get_untracked(), &gy.get_untracked(), n)
            .and_then(|f| prepare(&s, &f, MAX_ROWS));
        selected.set(None);
        sweeps.cancel();
        let sweep = match sweep {
            Ok(sw) => sw,
            Err(e) => {
                progress.set(None);
                rows.set(Some(Err(e)));
                return;
            }
        };
        rows.set(None);
        progress.set(Some((0, sweep.rows)));
        // Rows in slices (a row is run whole), the page drawing in between.
        let mut out = Vec::new();
        sweeps.start(
            move |out_of_time| {
                while (out.len() as u64) < sweep.rows {
                    out.push(quotasim::sweep::run_row(&s, &sweep, out.len() as u64));
                    progress.set(Some((out.len() as u64, sweep.rows)));
                    if out_of_time() {
                        return None;
                    }
                }
                let mut out = core::mem::take(&mut out);
                mark_front(&sweep, &mut out);
                Some(out)
            },
            move |out, _| {
                progress.set(None);
                rows.set(Some(Ok(out)));
            },
        );
    };
    let cancel = move |_| {
        sweeps.cancel();
        progress.set(None);
    };
    let row_changes = move |k: u64| -> Vec<quotasim::change::Change> {
        rows.with_untracked(|r| {
            r.as_ref()
                .and_then(|r| r.as_ref().ok())
                .and_then(|v| v.iter().find(|x| x.row == k))
                .map(|x| x.changes.iter().filter_map(|c| quotasim::change::Change::parse(c).ok()).collect())
                .unwrap_or_default()
        })
    };
    let as_b = move |k: u64| {
        let changes = row_changes(k);
        match app.doc.scenario.with_untracked(|base| quotasim::change::apply_changes(base, &changes)) {
            Ok(b) => {
                // The scenario as it is becomes A, with its validation and run; a replicated
                // point's seeds become the replicates' (both sides keep the base's workload seed).
                app.baseline_from_b();
                let seeds = rows.with_untracked(|r| match r {
                    Some(Ok(v)) => v.first().and_then(|r| r.seeds.as_ref()).map_or(0, Vec::len),
                    _ => 0,
                });
                if seeds > 1 {
                    app.cmp.seeds.set(seeds as u32);
                }
                app.doc.edit(|cur, r| {
                    *cur = b;
                    r.fit(cur);
                });
                app.chrome.notice.set(Some(Notice::text(format!(
                    "Row {k} opened as variant B; the scenario before it is baseline A."
                ))));
            }
            Err(p) => app.chrome.notice.set(Some(Notice::text(p.to_string()))),
        }
    };
    // Axis rows keyed by a stable id: typing in one re-renders nothing, and removing one keeps
    // the others (and their focus).
    let n_axes = Memo::new(move |_| axes.with(|a| a.len()));
    let axis_ids = LocalRows::new(n_axes.get_untracked());
    let axis_row = move |id: u64| {
        let pos = axis_ids.pos(id, n_axes);
        view! {
            <div class="sweep-axis">
                <input
                    type="text"
                    class="mono"
                    aria-label=move || format!("axis {} path", pos.number())
                    prop:value=move || axes.with(|a| a.get(pos.now()).map(|x| x.path.clone()).unwrap_or_default())
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        axes.update(|a| if let Some(x) = a.get_mut(pos.at()) { x.path = v })
                    }
                />
                <input
                    type="text"
                    aria-label=move || format!("axis {} values", pos.number())
                    prop:value=move || axes.with(|a| a.get(pos.now()).map(|x| x.values.clone()).unwrap_or_default())
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        axes.update(|a| if let Some(x) = a.get_mut(pos.at()) { x.values = v })
                    }
                />
                <button
                    class="btn small ghost"
                    aria-label=move || format!("remove axis {}", pos.number())
                    on:click=move |_| {
                        let i = pos.at();
                        axes.update(|a| {
                            if i < a.len() {
                                a.remove(i);
                                axis_ids.remove(i);
                            }
                        })
                    }
                >
                    "×"
                </button>
            </div>
        }
    };
    let axis_rows = view! { <For each=move || axis_ids.fit(n_axes.get()) key=|id| *id children=axis_row /> };
    // A goal is any metric path (per share too), offered from the scenario's own; changing it
    // redraws the chart and its front without running the sweep again.
    let goal_select = move |label: &'static str, sig: RwSignal<GoalForm>| {
        view! {
            <span class="field inline goal-field">
                <span class="field-label">{label}</span>
                <input
                    type="text"
                    class="mono goal-path"
                    list="sweep-metric-paths"
                    aria-label=format!("{label} metric path")
                    prop:value=move || sig.with(|g| g.path.clone())
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        sig.update(|g| g.path = v.trim().to_string())
                    }
                />
                <select
                    aria-label=format!("{label} direction")
                    on:change=move |ev| { let max = event_target_value(&ev) == "max"; sig.update(|g| g.maximise = max) }
                >
                    <option value="max" selected=move || sig.with(|g| g.maximise)>"max"</option>
                    <option value="min" selected=move || sig.with(|g| !g.maximise)>"min"</option>
                </select>
            </span>
        }
    };
    let results = move || {
        let r = rows.get()?;
        Some(match r {
            Err(e) => view! { <p class="field-error" role="alert">{e}</p> }.into_any(),
            Ok(v) => {
                let (x, y) = (gx.get(), gy.get());
                let front = front_of(&v, &x, &y);
                let width = (app.chrome.width.get() - 60.0).clamp(280.0, 720.0);
                let svg = scatter_svg(&v, (&x, &y), &front, width, 300.0, selected.get());
                let on_front = front.iter().filter(|f| **f).count();
                let seeds = v.first().and_then(|r| r.seeds.clone());
                let failed = v.iter().filter(|r| r.error.is_some()).count();
                let head = v
                    .first()
                    .map(|r| {
                        r.changes
                            .iter()
                            .map(|c| c.split('=').next().unwrap_or_default().to_string())
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default();
                let body = v
                    .iter()
                    .zip(front.iter().copied())
                    .map(|(r, front)| {
                        let k = r.row;
                        let cells = r.values.iter().map(|x| view! { <td class="num">{x.to_string()}</td> }).collect_view();
                        // In the goal's unit; a replicated point: the median, then min to max.
                        let cell = |g: &GoalForm| {
                            metric_of(r, &g.path).map_or("–".to_string(), |(m, s)| match s {
                                Some((lo, hi)) => format!("{} ({} to {})", short(g.display(m)), short(g.display(lo)), short(g.display(hi))),
                                None => short(g.display(m)),
                            })
                        };
                        let (c0, c1) = (cell(&x), cell(&y));
                        view! {
                            <tr class:on-front=front class:selected=move || selected.get() == Some(k)>
                                <td class="num">{k}</td>
                                {cells}
                                <td class="num">{c0}</td>
                                <td class="num">{c1}</td>
                                <td>{if front { "front" } else { "" }}</td>
                                <td>{r.error.clone().unwrap_or_default()}</td>
                                <td>
                                    <button class="btn small" aria-label=format!("Open as B: row {k}") on:click=move |_| as_b(k)>"Open as B"</button>
                                </td>
                            </tr>
                        }
                    })
                    .collect_view();
                let heads =
                    head.into_iter().map(|h| view! { <th scope="col" class="mono">{h}</th> }).collect_view();
                let (lx, ly) = (x.label(), y.label());
                let over = seeds.map_or(String::new(), |s| {
                    format!(
                        "; each point the median over seeds {} to {} (min to max in brackets)",
                        s.first().copied().unwrap_or(0),
                        s.last().copied().unwrap_or(0)
                    )
                });
                view! {
                    <p role="status">{format!("{} rows, {on_front} on the front{}{over}", v.len(), if failed > 0 { format!(", {failed} could not run") } else { String::new() })}</p>
                    <div
                        class="svg-host sweep-scatter"
                        inner_html=svg
                        on:click=move |ev: leptos::ev::MouseEvent| {
                            use wasm_bindgen::JsCast;
                            let row = ev
                                .target()
                                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                                .and_then(|e| e.get_attribute("data-row"))
                                .and_then(|r| r.parse().ok());
                            if row.is_some() {
                                selected.set(row);
                            }
                        }
                    ></div>
                    <div class="table-scroll" tabindex="0" role="region" aria-label="sweep rows">
                        <table class="grid-table sweep-rows">
                            <thead><tr><th scope="col">"row"</th>{heads}<th scope="col">{lx}</th><th scope="col">{ly}</th><th scope="col">"front"</th><th scope="col">"error"</th><th scope="col"><span class="sr-only">"actions"</span></th></tr></thead>
                            <tbody>{body}</tbody>
                        </table>
                    </div>
                }
                .into_any()
            }
        })
    };
    view! {
        <details class="card sweep">
            <summary><h3 class="inline">"Sweep: the trade-off curve"</h3></summary>
            <p class="muted">
                "Each axis is a change path (as in quotasim sweep) and its values (0, 50, 100) or a range (4..16 step 4). "
                "Every combination runs; the chart shows two goals and the rows no other beats on both."
            </p>
            {axis_rows}
            <div class="row-actions">
                <button
                    class="btn small"
                    disabled=move || axes.with(|a| a.len() >= 3)
                    on:click=move |_| axes.update(|a| a.push(AxisForm { path: "settings.scheduledSeconds".into(), values: "0, 60, 300".into() }))
                >
                    "+ Axis"
                </button>
                <label class="field inline">
                    <span class="field-label">"Seeds per point"</span>
                    <input
                        type="number"
                        min="1"
                        max="50"
                        class="num-input"
                        aria-label="seeds per point"
                        disabled=move || !has_workload.get()
                        title=move || if has_workload.get() { "Each point runs on this many seeds of the workload; the front is over the medians.".to_string() } else { "Seeds are drawn from a workload section; this scenario lists its jobs one by one (fit a workload to them in the workload generator).".to_string() }
                        prop:value=move || replicates.get().to_string()
                        on:input=move |ev| replicates.set(event_target_value(&ev).parse::<u32>().unwrap_or(1).clamp(1, 50))
                    />
                </label>
                <button class="btn primary" on:click=go>"Run sweep"</button>
            </div>
            <div class="row-actions">
                {goal_select("Goal x", gx)}
                {goal_select("Goal y", gy)}
                <datalist id="sweep-metric-paths">
                    {move || paths.get().into_iter().map(|p| view! { <option value=p></option> }).collect_view()}
                </datalist>
            </div>
            {move || progress.get().map(|(done, all)| view! {
                <div class="row-actions">
                    <progress class="run-progress" max=all.to_string() value=done.to_string() aria-label="sweep progress"></progress>
                    <span role="status">{format!("row {done} of {all}")}</span>
                    <button class="btn small" on:click=cancel>"Cancel sweep"</button>
                </div>
            })}
            {results}
        </details>
    }
}
