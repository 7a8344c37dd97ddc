//! The sweep panel: vary up to three settings of the scenario over values or ranges, run
//! every combination, and see the trade-off between two goals with the Pareto front; a row
//! opens as variant B of compare mode, or becomes the scenario.

use leptos::prelude::*;
use quotasim::sweep::SweepRow;

use crate::sweep_view::{goal_value, mark_front, prepare, scatter_svg, sweep_file, AxisForm, GOALS};
use crate::ui::state::{use_app, Notice};
use crate::ui::task::Tasks;

/// The most rows the page runs at once.
const MAX_ROWS: u64 = 500;

#[component]
pub fn SweepPanel() -> impl IntoView {
    let app = use_app();
    let first_share = app.doc.scenario.with_untracked(|s| {
        s.quota_shares.first().map(|q| q.quota_share_name.clone()).unwrap_or_else(|| "team-a".into())
    });
    let axes = RwSignal::new(vec![
        AxisForm {
            path: format!("quotaShares[{first_share}].resourceSharingConfiguration.borrowLimit"),
            values: "0, 50, 100, 200, -1".into(),
        },
        AxisForm { path: "settings.preemptionGraceSeconds".into(), values: "60..300 step 120".into() },
    ]);
    let gx = RwSignal::new(0usize);
    let gy = RwSignal::new(1usize);
    let rows = RwSignal::new(None::<Result<Vec<SweepRow>, String>>);
    let selected = RwSignal::new(None::<u64>);
    // Rows done and to do while a sweep runs; a cancelled or replaced sweep stops after the
    // row it is running.
    let progress = RwSignal::new(None::<(u64, u64)>);
    let sweeps = Tasks::new();
    let go = move |_| {
        let s = app.doc.scenario.get_untracked();
        let sweep = sweep_file(&s, &axes.get_untracked(), gx.get_untracked(), gy.get_untracked())
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
                // The scenario as it is becomes A, with its validation and run.
                app.baseline_from_b();
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
    let axis_rows = move || {
        let n = axes.with(|a| a.len());
        (0..n)
            .map(|i| {
                view! {
                    <div class="sweep-axis">
                        <input
                            type="text"
                            class="mono"
                            aria-label=format!("axis {} path", i + 1)
                            prop:value=move || axes.with(|a| a.get(i).map(|x| x.path.clone()).unwrap_or_default())
                            on:input=move |ev| {
                                let v = event_target_value(&ev);
                                axes.update(|a| if let Some(x) = a.get_mut(i) { x.path = v })
                            }
                        />
                        <input
                            type="text"
                            aria-label=format!("axis {} values", i + 1)
                            prop:value=move || axes.with(|a| a.get(i).map(|x| x.values.clone()).unwrap_or_default())
                            on:input=move |ev| {
                                let v = event_target_value(&ev);
                                axes.update(|a| if let Some(x) = a.get_mut(i) { x.values = v })
                            }
                        />
                        <button
                            class="btn small ghost"
                            aria-label=format!("remove axis {}", i + 1)
                            on:click=move |_| axes.update(|a| { if i < a.len() { a.remove(i); } })
                        >
                            "×"
                        </button>
                    </div>
                }
            })
            .collect_view()
    };
    let goal_select = move |label: &'static str, sig: RwSignal<usize>| {
        view! {
            <label class="field inline">
                <span class="field-label">{label}</span>
                <select on:change=move |ev| sig.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {GOALS
                        .iter()
                        .enumerate()
                        .map(|(k, (name, _, max))| {
                            let sel = sig.get_untracked() == k;
                            view! { <option value=k.to_string() selected=sel>{format!("{name} ({})", if *max { "max" } else { "min" })}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
        }
    };
    let results = move || {
        let r = rows.get()?;
        Some(match r {
            Err(e) => view! { <p class="field-error" role="alert">{e}</p> }.into_any(),
            Ok(v) => {
                let (lx, ly) = (GOALS[gx.get_untracked()].0, GOALS[gy.get_untracked()].0);
                let width = (app.chrome.width.get() - 60.0).clamp(280.0, 720.0);
                let svg = scatter_svg(&v, (lx, ly), width, 260.0, selected.get());
                let on_front = v.iter().filter(|r| r.frontier == Some(true)).count();
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
                    .map(|r| {
                        let k = r.row;
                        let cells = r.values.iter().map(|x| view! { <td class="num">{x.to_string()}</td> }).collect_view();
                        let g = |i: usize| goal_value(r, i).map_or("–".to_string(), |x| if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x:.3}") });
                        let front = r.frontier == Some(true);
                        view! {
                            <tr class:on-front=front class:selected=move || selected.get() == Some(k)>
                                <td class="num">{k}</td>
                                {cells}
                                <td class="num">{g(0)}</td>
                                <td class="num">{g(1)}</td>
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
                view! {
                    <p role="status">{format!("{} rows, {on_front} on the front{}", v.len(), if failed > 0 { format!(", {failed} could not run") } else { String::new() })}</p>
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
                    on:click=move |_| axes.update(|a| a.push(AxisForm { path: "workload.seed".into(), values: "1, 2, 3".into() }))
                >
                    "+ Axis"
                </button>
                {goal_select("Goal x", gx)}
                {goal_select("Goal y", gy)}
                <button class="btn primary" on:click=go>"Run sweep"</button>
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
