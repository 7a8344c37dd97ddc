//! Compare mode: the scenario being edited (B) against a baseline (A). B's changes from A,
//! each removable; A, B and the difference of the main metrics, marked better or worse; per
//! share deltas; A's and B's utilization on one time axis; the jobs whose fate changed; the
//! report card (objectives met or violated, fairness, reclaim latency, cost); replicates over
//! seeds of a generated workload.

use std::sync::Arc;

use leptos::prelude::*;
use quotasim::compare::Comparison;
use quotasim::objective::{Objective, Objectives};

use crate::charts::{lending_svg, utilization_svg};
use crate::compare_view::{
    fate_text, most_changed, overall, per_share, share_tables, show, show_delta, Fmt, MetricDef,
};
use crate::run::RunData;
use crate::ui::state::{use_app, Notice, Selection};
use crate::ui::task::Tasks;

/// Default objectives of a new report card.
fn default_objectives() -> Objectives {
    Objectives {
        format_version: 1,
        objectives: vec![
            Objective {
                metric: "perQuotaShare.*.waitSeconds.p95".into(),
                min: None,
                max: Some(4.0 * 3600.0),
            },
            Objective { metric: "overall.utilization".into(), min: Some(0.5), max: None },
            Objective { metric: "overall.fairness.jainIndex".into(), min: Some(0.8), max: None },
        ],
    }
}

/// The button in the top bar that enters or leaves compare mode.
#[component]
pub fn CompareButton() -> impl IntoView {
    let app = use_app();
    let toggle = move |_| {
        if app.cmp.baseline.with_untracked(Option::is_some) {
            app.cmp.set_baseline(None);
            app.chrome
                .notice
                .set(Some(Notice::text("Left compare mode; the scenario you edited (B) is kept.")));
        } else {
            app.baseline_from_b();
            if app.cmp.objectives.with_untracked(Option::is_none) {
                app.cmp.objectives.set(Some(default_objectives()));
            }
            app.chrome.notice.set(Some(Notice::text(
                "Compare mode: the scenario as it is now is baseline A. Edit it to make variant B; both run on every edit.",
            )));
        }
    };
    view! {
        <button
            class="btn"
            aria-pressed=move || app.cmp.baseline.with(Option::is_some).to_string()
            on:click=toggle
        >
            {move || if app.cmp.baseline.with(Option::is_some) { "Leave compare" } else { "Compare" }}
        </button>
    }
}

#[component]
pub fn ComparePanel() -> impl IntoView {
    let app = use_app();
    let active = Memo::new(move |_| app.cmp.baseline.with(Option::is_some));
    view! {
        <Show when=move || active.get()>
            <ComparePanelInner />
        </Show>
    }
}

#[component]
fn ComparePanelInner() -> impl IntoView {
    let app = use_app();
    let diffs = Memo::new(move |_| {
        app.doc.scenario.with(|b| {
            app.cmp
                .baseline
                .with(|a| a.as_ref().map(|a| quotasim::diff::differences(a, b)).unwrap_or_default())
        })
    });
    let undo = move |k: usize| {
        let Some(d) = diffs.with_untracked(|v| v.get(k).cloned()) else { return };
        let reverted = app.doc.scenario.with_untracked(|b| {
            app.cmp.baseline.with_untracked(|a| a.as_ref().map(|a| quotasim::diff::revert(a, b, &d)))
        });
        match reverted.unwrap_or_else(|| Err(quotasim::Problem::error("", "not in compare mode"))) {
            Ok(s) => app.doc.edit(|cur, r| {
                *cur = s;
                r.fit(cur);
            }),
            Err(p) => app.chrome.notice.set(Some(Notice::text(p.to_string()))),
        }
    };
    let changes = move || {
        let v = diffs.get();
        let n = v.len();
        if n == 0 {
            return view! { <p class="muted">"B is the same as A: edit the scenario to make a variant."</p> }
                .into_any();
        }
        let items = v
            .iter()
            .take(100)
            .enumerate()
            .map(|(k, d)| {
                let text = d.text();
                let label = format!("Undo: {text}");
                view! {
                    <li>
                        <span class="change-text">{text}</span>
                        <button class="btn small ghost" aria-label=label on:click=move |_| undo(k)>"Undo"</button>
                    </li>
                }
            })
            .collect_view();
        let more = (n > 100).then(|| view! { <li class="muted">{format!("… and {} more", n - 100)}</li> });
        view! { <ul class="change-list" aria-label="B's changes from A">{items}{more}</ul> }.into_any()
    };
    view! {
        <section class="card compare" aria-labelledby="compare-h">
            <header class="card-head">
                <h3 id="compare-h">"Compare: A (baseline) → B (what you edit)"</h3>
                <div class="row-actions">
                    <button class="btn small" on:click=move |_| app.baseline_from_b()>
                        "Make B the baseline"
                    </button>
                    <button class="btn small" on:click=move |_| app.swap_a_b()>
                        "Swap A and B"
                    </button>
                </div>
            </header>
            <h4>"B's changes"</h4>
            {changes}
            {move || match app.cmp.compared.get() {
                None => view! { <p class="muted">"Running both…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="field-error" role="alert">{e}</p> }.into_any(),
                Some(Ok(c)) => view! { <CompareResults c=c /> }.into_any(),
            }}
            <ReportCard />
            <Replicates />
        </section>
    }
}

#[component]
fn CompareResults(c: Arc<Comparison>) -> impl IntoView {
    let app = use_app();
    let cards = overall(&c)
        .into_iter()
        .map(|(d, x)| {
            let class = format!("stat cmp-stat {}", x.verdict.class());
            view! {
                <div class=class>
                    <div class="stat-label">{d.label}</div>
                    <div class="stat-value">{show_delta(d.fmt, x.delta)}</div>
                    <div class="stat-sub">{format!("A {} → B {}", show(d.fmt, x.a), show(d.fmt, x.b))}</div>
                </div>
            }
        })
        .collect_view();
    let tables = share_tables()
        .into_iter()
        .map(|(caption, cols)| {
            let defs: Vec<&'static MetricDef> = cols.iter().map(|x| x.def).collect();
            // Each group's header spans exactly its A, B and Δ columns; a border between groups.
            let head = cols
                .iter()
                .map(|x| view! { <th scope="colgroup" colspan="3" class="group" title=x.def.label>{x.label}</th> })
                .collect_view();
            let sub = cols
                .iter()
                .map(|_| {
                    view! {
                        <th scope="col" class="group-start">"A"</th>
                        <th scope="col">"B"</th>
                        <th scope="col">"Δ"</th>
                    }
                })
                .collect_view();
            let rows = per_share(&c, &defs)
                .into_iter()
                .map(|(name, cells)| {
                    let tds = cells
                        .iter()
                        .zip(&defs)
                        .map(|(x, d)| {
                            let class = format!("num {}", x.verdict.class());
                            view! {
                                <td class="num group-start">{show(d.fmt, x.a)}</td>
                                <td class="num">{show(d.fmt, x.b)}</td>
                                <td class=class>{show_delta(d.fmt, x.delta)}</td>
                            }
                        })
                        .collect_view();
                    view! { <tr><th scope="row">{name}</th>{tds}</tr> }
                })
                .collect_view();
            let label = format!("Per quota share, {}: A, B and the difference", caption.to_lowercase());
            view! {
                <div class="table-scroll" tabindex="0" role="region" aria-label=label>
                    <table class="grid-table metrics cmp-table">
                        <caption>{caption}</caption>
                        <thead>
                            <tr><th scope="col" rowspan="2">"share"</th>{head}</tr>
                            <tr>{sub}</tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
        })
        .collect_view();
    let n_changed = c.changed_jobs.len();
    let top = most_changed(&c, 30);
    let timeline_names: Vec<String> = top.iter().take(20).map(|j| j.job_name.clone()).collect();
    let jobs = top
        .into_iter()
        .map(|j| {
            let name = j.job_name.clone();
            let name_a = j.job_name.clone();
            let label = format!("Explain {name} in B");
            let label_a = format!("Explain {name} in A");
            let open_a = RwSignal::new(false);
            let explain_a = move || {
                if !open_a.get() {
                    return None;
                }
                let a = app.cmp.run_a.with(|r| r.as_ref().and_then(|r| r.as_ref().ok().cloned()))?;
                let j = a.job_index(&name_a)?;
                let sim = a.sim_at(app.play.now.get());
                let ex = crate::explain::job_now(&sim, quotasim::scenario::JobId::at(j));
                Some(view! {
                    <div class="explain-a" role="region" aria-label="explanation in A">
                        <strong>{format!("In A at {}: {}", crate::geometry::format_time(sim.now()), ex.title)}</strong>
                        {ex.paragraphs.into_iter().map(|p| view! { <p>{p}</p> }).collect_view()}
                    </div>
                })
            };
            let (fa, fb) = (fate_text(j.a.as_ref()), fate_text(j.b.as_ref()));
            let open = move |_| {
                let idx = app.run.handle.with_untracked(|r| r.as_ref().and_then(|r| r.data.job_index(&name)));
                if let Some(i) = idx {
                    app.chrome.selection.set(Some(Selection::Job(i)));
                }
            };
            view! {
                <li>
                    <button class="link-btn" aria-label=label on:click=open>{j.job_name.clone()}</button>
                    <span class="change-text">{j.description.clone()}</span>
                    <button
                        class="btn small ghost"
                        aria-label=label_a
                        aria-expanded=move || open_a.get().to_string()
                        on:click=move |_| open_a.update(|o| *o = !*o)
                    >
                        "in A"
                    </button>
                    <div class="muted fates">{format!("A: {fa} · B: {fb}")}</div>
                    {explain_a}
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="compare-results">
            <section class="stats" aria-label="A, B and the difference">{cards}</section>
            {tables}
            <CompareCharts />
            <CompareTimeline names=timeline_names />
            <h4>{format!("Jobs whose fate changed ({n_changed})")}</h4>
            <ul class="changed-jobs">{jobs}</ul>
        </div>
    }
}

/// A's and B's utilization per instance type, one above the other on one time axis: the
/// zoom and the cursor are the player's.
#[component]
fn CompareCharts() -> impl IntoView {
    let app = use_app();
    let svgs = Memo::new(move |_| {
        let colors = app.share_colors();
        let w = (app.chrome.width.get() - 40.0).max(360.0);
        let view = app.play.view.get();
        let a: Option<Arc<RunData>> =
            app.cmp.run_a.with(|r| r.as_ref().and_then(|r| r.as_ref().ok().cloned()));
        let b = app.run.handle.with(|r| r.as_ref().map(|r| r.data.clone()));
        let (Some(a), Some(b)) = (a, b) else { return Vec::new() };
        // A's colours follow the share names of B.
        let colors_a: Vec<String> = a
            .share_names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                b.share_names
                    .iter()
                    .position(|x| x == n)
                    .and_then(|k| colors.get(k).cloned())
                    .unwrap_or_else(|| crate::palette::color_of(&app.doc.colors.get_untracked(), n, i))
            })
            .collect();
        b.types
            .iter()
            .enumerate()
            .map(|(tb, t)| {
                let ta = a.types.iter().position(|x| x.name == t.name);
                let sa = ta.map(|ta| utilization_svg(&a, ta, &colors_a, w, 150.0, view)).unwrap_or_default();
                let sb = utilization_svg(&b, tb, &colors, w, 150.0, view);
                let la = ta.map(|ta| lending_svg(&a, ta, &colors_a, w, 110.0, view)).unwrap_or_default();
                let lb = lending_svg(&b, tb, &colors, w, 110.0, view);
                (t.name.clone(), sa, sb, la, lb)
            })
            .collect::<Vec<_>>()
    });
    view! {
        <h4>"Utilization and lending, A above B (zoom and cursor are the player's)"</h4>
        {move || {
            svgs.get()
                .into_iter()
                .map(|(name, sa, sb, la, lb)| {
                    view! {
                        <figure class="chart cmp-chart">
                            <figcaption>{format!("{name} utilization · A (baseline)")}</figcaption>
                            <div class="svg-host" tabindex="0" role="region" aria-label=format!("{name} utilization, A") inner_html=sa></div>
                            <figcaption>{format!("{name} utilization · B")}</figcaption>
                            <div class="svg-host" tabindex="0" role="region" aria-label=format!("{name} utilization, B") inner_html=sb></div>
                            <figcaption>{format!("{name} lent between shares · A")}</figcaption>
                            <div class="svg-host" tabindex="0" role="region" aria-label=format!("{name} lent between shares, A") inner_html=la></div>
                            <figcaption>{format!("{name} lent between shares · B")}</figcaption>
                            <div class="svg-host" tabindex="0" role="region" aria-label=format!("{name} lent between shares, B") inner_html=lb></div>
                        </figure>
                    }
                })
                .collect_view()
        }}
    }
}

/// The timeline of the jobs whose fate changed most, A above B, on the player's time axis.
///
/// At 100,000 jobs each side's drawing holds thousands of elements (the jobs whose fate changed
/// most are those preempted most), and putting both on the page in the task that shows the
/// comparison took over 100 ms: A's drawing goes in a slice after the comparison, B's in the
/// next, the drawings on screen staying until theirs replace them.
#[component]
fn CompareTimeline(names: Vec<String>) -> impl IntoView {
    let app = use_app();
    let names = StoredValue::new(names);
    let (drawn_a, drawn_b) = (RwSignal::new(None::<String>), RwSignal::new(None::<String>));
    // Draws side `b` (false: A) of the runs as they are now; `None` when a run is missing or
    // shows none of the jobs.
    let draw = move |b_side: bool| -> Option<String> {
        let colors = app.share_colors();
        let w = (app.chrome.width.get_untracked() - 40.0).max(360.0);
        let view = app.play.view.get_untracked();
        let a: Arc<RunData> =
            app.cmp.run_a.with_untracked(|r| r.as_ref().and_then(|r| r.as_ref().ok().cloned()))?;
        let b: Arc<RunData> = app.run.handle.with_untracked(|r| r.as_ref().map(|r| r.data.clone()))?;
        let lanes = |run: &RunData| -> Vec<usize> {
            names.with_value(|n| n.iter().filter_map(|x| run.job_index(x)).collect())
        };
        let (la, lb) = (lanes(&a), lanes(&b));
        if la.is_empty() && lb.is_empty() {
            return None;
        }
        if b_side {
            let wb = crate::geometry::row_window(lb.len(), lb.len(), 0);
            return Some(crate::charts::timeline_svg(
                &b,
                &lb,
                wb,
                &colors,
                w,
                crate::charts::Marks::default(),
                view,
            ));
        }
        let colors_a: Vec<String> = a
            .share_names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                b.share_names
                    .iter()
                    .position(|x| x == n)
                    .and_then(|k| colors.get(k).cloned())
                    .unwrap_or_else(|| crate::palette::color_of(&app.doc.colors.get_untracked(), n, i))
            })
            .collect();
        let wa = crate::geometry::row_window(la.len(), la.len(), 0);
        Some(crate::charts::timeline_svg(&a, &la, wa, &colors_a, w, crate::charts::Marks::default(), view))
    };
    // What the drawings show changed: A, then B, each in a slice of its own; a newer change
    // replaces the drawing in progress.
    let drawing = Tasks::new();
    Effect::new(move |_| {
        app.cmp.run_a.track();
        app.run.handle.track();
        app.chrome.width.track();
        app.play.view.track();
        app.doc.colors.track();
        let mut b_next = false;
        drawing.start(
            move |_| {
                let svg = draw(b_next);
                let side = if b_next { drawn_b } else { drawn_a };
                let _ = side.try_set(svg);
                core::mem::replace(&mut b_next, true).then_some(())
            },
            |(), _| {},
        );
    });
    let any = Memo::new(move |_| drawn_a.with(Option::is_some) || drawn_b.with(Option::is_some));
    let html = |d: RwSignal<Option<String>>| move || d.get().unwrap_or_default();
    view! {
        <Show when=move || any.get()>
            <h4>"Timeline of the jobs whose fate changed most, A above B"</h4>
            <figure class="chart cmp-chart cmp-timeline">
                <figcaption>"A (baseline)"</figcaption>
                <div class="svg-host" tabindex="0" role="region" aria-label="timeline of A" inner_html=html(drawn_a)></div>
                <figcaption>"B"</figcaption>
                <div class="svg-host" tabindex="0" role="region" aria-label="timeline of B" inner_html=html(drawn_b)></div>
            </figure>
        </Show>
    }
}

/// Objectives editable in the page, their verdicts for B (with A's values), fairness,
/// reclaim latency and cost per share.
#[component]
fn ReportCard() -> impl IntoView {
    let app = use_app();
    let text = RwSignal::new(
        app.cmp
            .objectives
            .with_untracked(|o| quotasim::json::to_json_pretty(o.as_ref().unwrap_or(&default_objectives()))),
    );
    let error = RwSignal::new(None::<String>);
    let apply = move |_| match quotasim::objective::load_objectives(&text.get_untracked()) {
        Ok(o) => {
            error.set(None);
            app.cmp.objectives.set(Some(o));
        }
        Err(p) => error.set(Some(p.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))),
    };
    let report = Memo::new(move |_| {
        let objs = app.cmp.objectives.get()?;
        let b = app.run.handle.get()?;
        let a = app.cmp.run_a.with(|r| r.as_ref().and_then(|r| r.as_ref().ok().cloned()));
        let sb = quotasim::metric::summary_value(&b.data.summary_result());
        let sa = a.map(|a| quotasim::metric::summary_value(&a.summary_result()));
        Some(quotasim::objective::check(&objs, &sb, sa.as_ref()))
    });
    let verdicts = move || {
        match report.get() {
        None => view! { <p class="muted">"No objectives yet."</p> }.into_any(),
        Some(Err(p)) => {
            view! { <p class="field-error" role="alert">{p.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; ")}</p> }
                .into_any()
        }
        Some(Ok(r)) => {
            let met = r.met;
            let rows = r
                .verdicts
                .into_iter()
                .map(|v| {
                    let badge = if v.met { "badge met" } else { "badge violated" };
                    let bound = match (v.min, v.max) {
                        (Some(lo), Some(hi)) => format!("{lo} to {hi}"),
                        (Some(lo), None) => format!("≥ {lo}"),
                        (None, Some(hi)) => format!("≤ {hi}"),
                        (None, None) => String::new(),
                    };
                    let num = |x: Option<f64>| x.map_or("null".to_string(), |x| format!("{:.4}", x).trim_end_matches('0').trim_end_matches('.').to_string());
                    let base = v.baseline.map(num).unwrap_or_else(|| "–".into());
                    view! {
                        <tr>
                            <td><span class=badge>{if v.met { "met" } else { "violated" }}</span></td>
                            <td>{v.metric}</td>
                            <td class="num">{bound}</td>
                            <td class="num">{base}</td>
                            <td class="num">{num(v.value)}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <p class=if met { "verdict met" } else { "verdict violated" } role="status">
                    {if met { "B meets every objective." } else { "B violates an objective." }}
                </p>
                <div class="table-scroll" tabindex="0" role="region" aria-label="objectives, B against A">
                    <table class="grid-table">
                        <thead><tr><th scope="col">"verdict"</th><th scope="col">"metric"</th><th scope="col">"bound"</th><th scope="col">"A"</th><th scope="col">"B"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
            .into_any()
        }
    }
    };
    let team = move || {
        app.run.handle.with(|r| {
            let r = r.as_ref()?;
            let s = &r.data.summary;
            // No prices, no cost (R26): the column is left out rather than a column of dashes.
            let priced = s.per_quota_share.iter().any(|(_, m)| m.cost.is_some());
            let rows = s
                .per_quota_share
                .iter()
                .map(|(name, m)| {
                    let f = &m.fairness;
                    let cost = priced.then(|| {
                        view! { <td class="num">{m.cost.map_or("–".into(), |c| format!("{c:.2}"))}</td> }
                    });
                    view! {
                        <tr>
                            <th scope="row">{name.clone()}</th>
                            <td class="num">{f.entitlement_ratio.map_or("–".into(), |x| format!("{x:.2}"))}</td>
                            <td class="num">{format!("{:.0}", m.fairness_deficit_instance_seconds as f64 / 3600.0)}</td>
                            <td class="num">{m.reclaim_latency_seconds.p95.map_or("–".into(), crate::geometry::format_duration)}</td>
                            {cost}
                        </tr>
                    }
                })
                .collect_view();
            let cost_head = priced.then(|| view! { <th scope="col">"cost"</th> });
            let jain = s.overall.fairness.jain_index.map_or("–".into(), |j| format!("{j:.3}"));
            Some(view! {
                <p>{format!("Jain's index of B: {jain}")}</p>
                <div class="table-scroll" tabindex="0" role="region" aria-label="fairness per share">
                    <table class="grid-table">
                        <thead><tr><th scope="col">"share"</th><th scope="col">"entitlement held"</th><th scope="col">"deficit (instance-h)"</th><th scope="col">"reclaim p95"</th>{cost_head}</tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            })
        })
    };
    view! {
        <details class="report-card" open=true>
            <summary><h4 class="inline">"Report card"</h4></summary>
            <label class="field">
                <span class="field-label">"Objectives (JSON: metric paths with min and/or max)"</span>
                <textarea class="mono" rows="6" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            </label>
            <div class="row-actions">
                <button class="btn small" on:click=apply>"Check objectives"</button>
                <span class="field-error" role="alert">{move || error.get()}</span>
            </div>
            {verdicts}
            {team}
        </details>
    }
}

/// With a generated workload on both sides: A and B over several seeds.
#[component]
fn Replicates() -> impl IntoView {
    let app = use_app();
    let n = app.cmp.seeds;
    let out = RwSignal::new(None::<Result<quotasim::replicates::ReplicateReport, String>>);
    // The shares whose rows are open: every share of a small scenario, none of a large one.
    let open = RwSignal::new(std::collections::BTreeSet::<String>::new());
    let possible = Memo::new(move |_| {
        app.doc.scenario.with(|b| b.workload.is_some())
            && app.cmp.baseline.with(|a| a.as_ref().is_some_and(|a| a.workload.is_some()))
    });
    // Seeds done so far and in all, while the replicates run (in slices: one side's run at a
    // time, each stepped until the slice is over).
    let progress = RwSignal::new(None::<(usize, usize)>);
    let tasks = Tasks::new();
    let run = move |_| {
        let (Some(a), b) = (app.cmp.baseline.get_untracked(), app.doc.scenario.get_untracked()) else {
            return;
        };
        let base = a.workload.as_ref().map_or(0, |w| w.seed);
        let seeds: Vec<i64> = (0..n.get_untracked().clamp(1, 50) as i64).map(|k| base + k).collect();
        progress.set(Some((0, seeds.len())));
        let mut pairs: Vec<quotasim::replicates::Pair> = Vec::new();
        let mut done_a: Option<quotasim::result::SummaryResult> = None;
        let mut sim: Option<quotasim::Simulation> = None;
        let all = seeds.clone();
        let step = move |out_of_time: &mut dyn FnMut() -> bool| -> Option<Result<_, String>> {
            use quotasim::replicates::{side_result, side_simulation, Failure};
            let said = |f: Failure, seed: i64| match f {
                Failure::Invalid { problems, .. } => {
                    format!("seed {seed}: {}", problems.first().map(|x| x.to_string()).unwrap_or_default())
                }
                Failure::Run { message, .. } => format!("seed {seed}: {message}"),
            };
            while !out_of_time() {
                let Some(&seed) = all.get(pairs.len()) else {
                    return Some(Ok(quotasim::replicates::report(all.clone(), &pairs, Vec::new())));
                };
                // A then B of each seed, one side's expanded scenario held at a time.
                let is_a = done_a.is_none();
                let s = match sim.as_mut() {
                    Some(s) => s,
                    None => match side_simulation(if is_a { &a } else { &b }, seed, is_a) {
                        Ok(s) => sim.insert(s),
                        Err(f) => return Some(Err(said(f, seed))),
                    },
                };
                if !crate::run::run_slice(s, out_of_time) {
                    return None;
                }
                let finished = sim.take().expect("a side is running");
                match side_result(&finished, is_a) {
                    Err(f) => return Some(Err(said(f, seed))),
                    Ok(r) if is_a => done_a = Some(r),
                    Ok(r) => {
                        pairs.push((done_a.take().expect("A ran first"), r));
                        progress.set(Some((pairs.len(), all.len())));
                    }
                }
            }
            None
        };
        tasks.start(step, move |result, _ms| {
            progress.set(None);
            match result {
                Err(e) => out.set(Some(Err(e))),
                Ok(report) => {
                    if report.per_quota_share.len() <= 4 {
                        open.set(report.per_quota_share.iter().map(|(n, _)| n.clone()).collect());
                    } else {
                        open.set(Default::default());
                    }
                    out.set(Some(Ok(report)));
                }
            }
        });
    };
    let status = move || {
        progress.get().map(|(k, n)| {
            view! {
                <p class="muted small" role="status">
                    <progress max=n.to_string() value=k.to_string()></progress>
                    {format!(" seed {} of {n}", (k + 1).min(n))}
                </p>
            }
        })
    };
    let table = move || match out.get() {
        None => None,
        Some(Err(e)) => Some(view! { <p class="field-error" role="alert">{e}</p> }.into_any()),
        Some(Ok(r)) => {
            let n = r.seeds.len();
            // One row per metric the map has: median [min, max] of A, of B and of Δ, and how
            // many seeds agree, in the CLI's words (better or worse where the metric has a way).
            let rows_of = |map: &std::collections::BTreeMap<String, quotasim::replicates::MetricStats>,
                           defs: &[&'static MetricDef],
                           share: Option<String>| {
                defs.iter()
                    .filter_map(|d| {
                        let st = map.get(d.path)?;
                        // No prices set: no cost row (R26's cost is null on every seed).
                        if d.path == "cost" && st.a.is_none() && st.b.is_none() {
                            return None;
                        }
                        let sp = |x: Option<quotasim::replicates::Spread>| {
                            x.map_or("–".into(), |x| format!("{} [{}, {}]", show(d.fmt, Some(x.median)), show(d.fmt, Some(x.min)), show(d.fmt, Some(x.max))))
                        };
                        let dir = st.direction(d.higher_is_better);
                        let delta = st.delta.map_or("–".into(), |x| {
                            format!("{} [{}, {}]", show_delta(d.fmt, Some(x.median)), show_delta(d.fmt, Some(x.min)), show_delta(d.fmt, Some(x.max)))
                        });
                        let hidden = share.clone().map(|name| move || !open.with(|o| o.contains(&name)));
                        Some(view! {
                            <tr class:share-metric=hidden.is_some() hidden=move || hidden.as_ref().is_some_and(|h| h())>
                                <th scope="row">{d.label}</th>
                                <td class="num">{sp(st.a)}</td>
                                <td class="num">{sp(st.b)}</td>
                                <td class="num">{delta}</td>
                                <td class="num">{format!("{}/{n} {dir}", st.agree)}</td>
                            </tr>
                        })
                    })
                    .collect_view()
            };
            let main: Vec<&'static MetricDef> = crate::compare_view::MAIN.iter().collect();
            let per_share: Vec<&'static MetricDef> = crate::compare_view::MAIN
                .iter()
                .chain(crate::compare_view::SHARE_ONLY)
                .filter(|d| d.path != "fairness.jainIndex")
                .collect();
            let overall = rows_of(&r.overall, &main, None);
            // Per share, grouped and collapsible; the group's row says its wait p95 at a glance.
            let shares = r
                .per_quota_share
                .iter()
                .map(|(name, map)| {
                    let key = name.clone();
                    let toggle = move |_| {
                        open.update(|o| {
                            if !o.remove(&key) {
                                o.insert(key.clone());
                            }
                        })
                    };
                    let k2 = name.clone();
                    let expanded = Signal::derive(move || open.with(|o| o.contains(&k2)));
                    let glance = map.get("waitSeconds.p95").map_or(String::new(), |st| {
                        let d = st.delta.map_or("–".into(), |x| show_delta(Fmt::Seconds, Some(x.median)));
                        format!("wait p95 Δ {d}, {}/{n} {}", st.agree, st.direction(Some(false)))
                    });
                    let label = format!("{name}: per-share metrics");
                    view! {
                        <tbody class="share-group">
                            <tr class="group-row">
                                <th scope="rowgroup" colspan="5">
                                    <button class="btn small ghost" aria-expanded=move || expanded.get().to_string() aria-label=label on:click=toggle>
                                        {move || if expanded.get() { "▾ " } else { "▸ " }}
                                        {name.clone()}
                                    </button>
                                    <span class="muted small">{glance}</span>
                                </th>
                            </tr>
                            {rows_of(map, &per_share, Some(name.clone()))}
                        </tbody>
                    }
                })
                .collect_view();
            Some(
                view! {
                    <div class="table-scroll" tabindex="0" role="region" aria-label="replicates">
                        <table class="grid-table replicates-table">
                            <thead><tr><th scope="col">"metric"</th><th scope="col">"A median [min, max]"</th><th scope="col">"B"</th><th scope="col">"Δ"</th><th scope="col">"seeds agreeing"</th></tr></thead>
                            <tbody><tr class="group-row"><th scope="rowgroup" colspan="5">"overall"</th></tr>{overall}</tbody>
                            {shares}
                        </table>
                    </div>
                }
                .into_any(),
            )
        }
    };
    view! {
        <Show
            when=move || possible.get()
            fallback=|| {
                view! {
                    <div class="replicates">
                        <h4>"Replicates: is the difference real?"</h4>
                        <p class="muted">
                            "Replicates draw the jobs again from a workload section's seeds, and A or B lists its jobs one by one (an imported history or trace). "
                            "Leave compare mode and use “Fit a workload to the listed jobs” in the workload generator, then compare again."
                        </p>
                    </div>
                }
            }
        >
            <div class="replicates">
                <h4>"Replicates: is the difference real?"</h4>
                <label class="field inline">
                    <span class="field-label">"Seeds"</span>
                    <input type="number" min="1" max="50" prop:value=move || n.get().to_string() on:input=move |ev| { if let Ok(v) = event_target_value(&ev).parse() { n.set(v) } } />
                </label>
                <button class="btn small" on:click=run>"Run both on these seeds"</button>
                {status}
                {table}
            </div>
        </Show>
    }
}
