//! The Recommend panel: objectives per share and overall, prices and billing (edits of the
//! scenario), and the space's bounds, then the engine's recommender run in slices ([`Tasks`])
//! with its progress and Cancel. When it is done the answer opens as variant B of compare mode
//! (as a sweep row's "Open as B" does), with its words, its certificate, each share's idle
//! quota and the recommended scenario's CloudFormation template.
//!
//! The form lives in the panel's context, keyed by share and type names, so nothing typed is
//! lost when the panel or its rows render again. An edit of the scenario stops a study in
//! progress; a finished one stays (opening it as B is such an edit).

use std::sync::Arc;

use leptos::prelude::*;
use quotasim::model::{catalogue_gpus, Billing, InstanceTypeInfo, Scenario};

use crate::recommend::{
    capacity_key, certificate, default_max, headline, idle_quota, label_of, misses, preemptions_key, price,
    price_key, progress_text, quota_key, value_text, wait_key, words, Bound, FieldProblem, RecommendBuilder,
    RecommendForm, Recommended, TimeUnit, MAX_RUNS_KEY, UTILIZATION_KEY,
};
use crate::ui::state::{use_app, AppState, Notice};
use crate::ui::task::Tasks;

/// What the panel shows below its form.
#[derive(Clone)]
enum RecView {
    /// In progress, on the scenario at revision `at` (once the scenario has changed it reads
    /// as stopped: see [`RecommendState::shown`]).
    Running {
        at: u64,
    },
    Done {
        rec: Arc<Recommended>,
        ms: f64,
    },
    Stopped(String),
}

/// Equal when it draws the same: the same answer (by identity), the same words.
impl PartialEq for RecView {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (RecView::Running { at: a }, RecView::Running { at: b }) => a == b,
            (RecView::Done { rec: a, ms: x }, RecView::Done { rec: b, ms: y }) => Arc::ptr_eq(a, b) && x == y,
            (RecView::Stopped(a), RecView::Stopped(b)) => a == b,
            _ => false,
        }
    }
}

/// The panel's state, provided once by the page so that it outlives the panel's renders.
#[derive(Clone, Copy)]
pub struct RecommendState {
    form: RwSignal<RecommendForm>,
    problems: RwSignal<Vec<FieldProblem>>,
    view: RwSignal<Option<RecView>>,
    /// The run in progress and the most there may be.
    progress: RwSignal<(u64, u32)>,
    tasks: Tasks,
}

impl RecommendState {
    /// Creates the panel's state and provides it: an edit of the scenario stops a study in
    /// progress (saying so).
    pub fn provide(app: AppState) -> RecommendState {
        let st = RecommendState {
            form: RwSignal::new(RecommendForm::default()),
            problems: RwSignal::new(Vec::new()),
            view: RwSignal::new(None),
            progress: RwSignal::new((0, 0)),
            tasks: Tasks::new(),
        };
        provide_context(st);
        // Its work stops with an edit; the view says so by itself (see `shown`).
        st.tasks.cancel_on_change(move || app.doc.revision.track());
        st
    }

    /// What the panel shows: a study started on a scenario that has changed since was stopped
    /// by the change.
    fn shown(self, app: AppState) -> Option<RecView> {
        let now = app.doc.revision.get();
        self.view.get().map(|v| match v {
            RecView::Running { at } if at != now => RecView::Stopped(
                "Stopped: the scenario changed while the study ran. Press Recommend to start again.".into(),
            ),
            v => v,
        })
    }
}

/// Opens the answer as variant B of compare mode, the scenario studied as baseline A, with
/// the study's objectives on the report card.
fn open_as_b(app: AppState, rec: &Recommended) {
    let b = match &rec.scenario {
        Ok(b) => b.clone(),
        Err(e) => {
            app.chrome
                .notice
                .set(Some(Notice::text(format!("The recommendation could not be applied: {e}"))));
            return;
        }
    };
    // A is the scenario studied: the one being edited (with its validation and run) unless it
    // has changed since (the answer opened already, or edited).
    if app.doc.scenario.with_untracked(|s| *s == rec.input) {
        app.baseline_from_b();
    } else {
        app.cmp.baseline.set(Some(rec.input.clone()));
    }
    app.doc.edit(|cur, r| {
        *cur = b;
        r.fit(cur);
    });
    app.cmp.objectives.set(Some(rec.objectives.clone()));
    app.chrome.notice.set(Some(Notice::text(
        "Compare mode: the recommendation opened as variant B, the scenario before it as baseline A; the report card checks the study's objectives.".to_string(),
    )));
}

/// Starts the study of the scenario as it is.
fn start(app: AppState, st: RecommendState) {
    st.tasks.cancel();
    let form = st.form.get_untracked();
    let built = app.doc.scenario.with_untracked(|s| RecommendBuilder::new(s, &form));
    let mut b = match built {
        Ok(b) => b,
        Err(ps) => {
            st.problems.set(ps);
            st.view.set(None);
            return;
        }
    };
    st.problems.set(Vec::new());
    crate::ui::dom::perf_mark("quotasim:recommend");
    st.progress.set(b.progress());
    st.view.set(Some(RecView::Running { at: app.doc.revision.get_untracked() }));
    let (view, progress) = (st.view, st.progress);
    st.tasks.start(
        move |out_of_time| {
            let out = b.advance(out_of_time);
            if out.is_none() {
                progress.set(b.progress());
            }
            out
        },
        move |res, ms| {
            match res {
                Ok(rec) => {
                    let rec = Arc::new(rec);
                    let _ = view.try_set(Some(RecView::Done { rec: rec.clone(), ms }));
                    // Compare mode in a task of its own, once the answer is drawn.
                    if rec.report.feasible {
                        crate::ui::dom::after_next_paint(move || open_as_b(app, &rec));
                    }
                }
                Err(e) => {
                    let _ = view.try_set(Some(RecView::Stopped(format!("No answer: {e}"))));
                }
            }
            crate::ui::dom::after_next_paint(|| {
                crate::ui::dom::perf_measure("quotasim:recommend-to-render", "quotasim:recommend")
            });
        },
    );
}

/// Sets type `ty`'s price in the scenario (an entry in `instanceTypes` made if needed, with
/// the catalogue's GPU count).
fn set_price(s: &mut Scenario, ty: &str, p: Option<f64>) {
    match s.instance_types.iter_mut().find(|t| t.name == ty) {
        Some(t) => t.price_per_hour = p,
        None if p.is_some() => s.instance_types.push(InstanceTypeInfo {
            name: ty.to_string(),
            gpus: catalogue_gpus(ty).unwrap_or(0),
            price_per_hour: p,
        }),
        None => {}
    }
}

fn num_text(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// The result below the form.
fn result_view(app: AppState, rec: Arc<Recommended>, ms: f64) -> AnyView {
    let r = &rec.report;
    let labels = &rec.labels;
    let feasible = r.feasible;
    let word_items = words(r).into_iter().map(|w| view! { <li>{w}</li> }).collect_view();
    let missed = (!feasible).then(|| {
        let m = misses(r, labels);
        view! {
            <p class="rec-miss-head">"What it misses:"</p>
            <ul class="rec-misses">{m.into_iter().map(|x| view! { <li>{x}</li> }).collect_view()}</ul>
        }
    });
    let verdict_rows = r
        .input
        .verdicts
        .iter()
        .zip(&r.recommended.verdicts)
        .map(|(a, b)| {
            let label = label_of(b, labels);
            view! {
                <tr>
                    <td>{label}</td>
                    <td class="num">{value_text(&a.metric, a.value)}</td>
                    <td class="num">{value_text(&b.metric, b.value)}</td>
                    <td class:rec-met=b.met class:rec-broken=!b.met>{if b.met { "met" } else { "missed" }}</td>
                </tr>
            }
        })
        .collect_view();
    let steps = certificate(r, labels);
    let cert = (!steps.is_empty()).then(|| {
        let items = steps
            .into_iter()
            .map(|c| {
                let retries = (!c.retries.is_empty()).then(|| {
                    let each = c.each.clone();
                    view! {
                        <details class="rec-retries">
                            <summary class="small">{c.retries.clone()}</summary>
                            <ul class="small muted">{each.into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}</ul>
                        </details>
                    }
                });
                view! {
                    <li class="rec-step">
                        <span class="rec-step-words">{c.words}</span>
                        ": "
                        <span class="rec-step-breaks">{c.breaks}</span>
                        {retries}
                    </li>
                }
            })
            .collect_view();
        let title = if r.proven {
            "Certificate: each step that would lower the cost, run, and what it breaks"
        } else {
            "Certificate (not complete: the run budget ran out)"
        };
        view! {
            <h4>{title}</h4>
            <ol class="rec-cert" aria-label="certificate">{items}</ol>
        }
    });
    let idle = idle_quota(r)
        .into_iter()
        .map(|(s, v)| view! { <tr><td>{s}</td><td class="num">{v}</td></tr> })
        .collect_view();
    let notes = r.notes.clone();
    let rec_b = rec.clone();
    let rec_cf = rec.clone();
    let cf_error = RwSignal::new(None::<String>);
    let download = move |_| {
        let rec = rec_cf.clone();
        leptos::task::spawn_local(async move {
            let out = match &rec.scenario {
                Ok(s) => {
                    crate::ui::io::download_cloudformation_of(
                        s,
                        if feasible { "-recommended" } else { "-closest" },
                    )
                    .await
                }
                Err(e) => Err(e.clone()),
            };
            let _ = cf_error.try_set(out.err());
        });
    };
    view! {
        <div class="rec-result" data-feasible=feasible.to_string()>
            <p class="rec-headline" role="status" data-ms=format!("{ms:.0}")>{headline(r)}</p>
            <h4>{if feasible { "The recommendation" } else { "The closest candidate" }}</h4>
            <ul class="rec-words">{word_items}</ul>
            {missed}
            <div class="row-actions">
                <button class="btn small primary" on:click=move |_| open_as_b(app, &rec_b)>
                    {if feasible { "Open as B again" } else { "Open the closest as B" }}
                </button>
                <button class="btn small" on:click=download>
                    {if feasible { "Download CloudFormation (recommended)" } else { "Download CloudFormation (closest)" }}
                </button>
            </div>
            {move || cf_error.get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
            <div class="table-scroll" tabindex="0" role="region" aria-label="objectives, scenario and recommended">
                <table class="grid-table rec-verdicts">
                    <thead><tr><th scope="col">"objective"</th><th scope="col">"scenario"</th><th scope="col">{if feasible { "recommended" } else { "closest" }}</th><th scope="col">"verdict"</th></tr></thead>
                    <tbody>{verdict_rows}</tbody>
                </table>
            </div>
            {cert}
            <h4>"Idle quota per share"</h4>
            <p class="muted small">
                {format!("Instances of quota neither used nor lent, on average over the run: scenario → {}.", if feasible { "recommended" } else { "closest" })}
            </p>
            <div class="table-scroll" tabindex="0" role="region" aria-label="idle quota per share">
                <table class="grid-table rec-idle">
                    <thead><tr><th scope="col">"share"</th><th scope="col">"idle quota"</th></tr></thead>
                    <tbody>{idle}</tbody>
                </table>
            </div>
            {(!notes.is_empty()).then(|| view! {
                <ul class="muted small rec-notes">{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            })}
            <p class="muted small">{format!("Computed in {} on this page's thread, in slices.", if ms >= 1000.0 { format!("{:.1} s", ms / 1000.0) } else { format!("{ms:.0} ms") })}</p>
        </div>
    }
    .into_any()
}

#[component]
pub fn RecommendPanel() -> impl IntoView {
    let app = use_app();
    let st = expect_context::<RecommendState>();
    let form = st.form;
    let problems = st.problems;
    let shares = Memo::new(move |_| {
        app.doc
            .scenario
            .with(|s| s.quota_shares.iter().map(|q| q.quota_share_name.clone()).collect::<Vec<_>>())
    });
    let types = Memo::new(move |_| {
        app.doc.scenario.with(|s| {
            s.service_environment.capacity_limits.iter().map(|c| c.capacity_unit.clone()).collect::<Vec<_>>()
        })
    });
    // (share, type) of every quota the space has.
    let quotas = Memo::new(move |_| {
        app.doc.scenario.with(|s| {
            s.quota_shares
                .iter()
                .flat_map(|q| {
                    q.capacity_limits
                        .iter()
                        .map(move |c| (q.quota_share_name.clone(), c.capacity_unit.clone()))
                })
                .filter(|(_, t)| s.service_environment.capacity_limits.iter().any(|c| c.capacity_unit == *t))
                .collect::<Vec<_>>()
        })
    });
    let bad = move |key: String| problems.with(|p| p.iter().any(|x| x.field == key));
    // Drawn again only when what it shows changes, not at every edit.
    let shown = Memo::new(move |_| st.shown(app));
    let running = move || matches!(shown.get(), Some(RecView::Running { .. }));

    let goal_rows = move || {
        shares
            .get()
            .into_iter()
            .map(|name| {
                let (n1, n2, n3, n4, n5) = (name.clone(), name.clone(), name.clone(), name.clone(), name.clone());
                let (wk, pk) = (wait_key(&name), preemptions_key(&name));
                let wk2 = wk.clone();
                view! {
                    <tr>
                        <th scope="row">{name.clone()}</th>
                        <td class="cell rec-wait">
                            <input type="text" inputmode="decimal" placeholder="–"
                                aria-label=format!("{name}: p95 wait at most")
                                data-field=wk.clone()
                                aria-invalid=move || if bad(wk.clone()) { "true" } else { "false" }
                                prop:value=move || form.with(|f| f.goals.get(&n1).map(|g| g.wait.clone()).unwrap_or_default())
                                on:input=move |ev| { let v = event_target_value(&ev); form.update(|f| f.goals.entry(n2.clone()).or_default().wait = v) }
                            />
                            <select aria-label=format!("{name}: p95 wait unit") data-field=wk2
                                on:change=move |ev| { let v = event_target_value(&ev); form.update(|f| f.goals.entry(n3.clone()).or_default().unit = TimeUnit::from_label(&v)) }>
                                {TimeUnit::ALL.into_iter().map(|u| {
                                    let n = name.clone();
                                    view! { <option value=u.label() selected=move || form.with(|f| f.goals.get(&n).map(|g| g.unit).unwrap_or_default() == u)>{u.label()}</option> }
                                }).collect_view()}
                            </select>
                        </td>
                        <td class="cell">
                            <input type="text" inputmode="numeric" placeholder="–"
                                aria-label=format!("{name}: preemptions at most")
                                data-field=pk.clone()
                                aria-invalid=move || if bad(pk.clone()) { "true" } else { "false" }
                                prop:value=move || form.with(|f| f.goals.get(&n4).map(|g| g.preemptions.clone()).unwrap_or_default())
                                on:input=move |ev| { let v = event_target_value(&ev); form.update(|f| f.goals.entry(n5.clone()).or_default().preemptions = v) }
                            />
                        </td>
                    </tr>
                }
            })
            .collect_view()
    };

    let price_rows = move || {
        types
            .get()
            .into_iter()
            .map(|ty| {
                let (t1, t2) = (ty.clone(), ty.clone());
                let key = price_key(&ty);
                let key2 = key.clone();
                let shown = move || {
                    form.with(|f| f.prices.get(&t1).cloned()).unwrap_or_else(|| {
                        app.doc.scenario.with(|s| {
                            s.instance_types
                                .iter()
                                .find(|i| i.name == t1)
                                .and_then(|i| i.price_per_hour)
                                .map(num_text)
                                .unwrap_or_default()
                        })
                    })
                };
                let on_input = move |ev| {
                    let v = event_target_value(&ev);
                    let parsed = price(&t2, &v);
                    form.update(|f| {
                        f.prices.insert(t2.clone(), v);
                    });
                    match parsed {
                        Ok(p) => {
                            problems.update(|ps| ps.retain(|x| x.field != key2));
                            app.doc.update(|s| set_price(s, &t2, p));
                        }
                        Err(m) => problems.update(|ps| {
                            ps.retain(|x| x.field != key2);
                            ps.push(FieldProblem { field: key2.clone(), message: m });
                        }),
                    }
                };
                let k = key.clone();
                view! {
                    <label class="field inline rec-price">
                        <span class="field-label mono">{format!("{ty} per hour")}</span>
                        <input type="text" inputmode="decimal" placeholder="no price" data-field=key
                            aria-invalid=move || if bad(k.clone()) { "true" } else { "false" }
                            prop:value=shown on:input=on_input />
                    </label>
                }
            })
            .collect_view()
    };

    let billing = move || {
        let on_change = move |ev| {
            let v = event_target_value(&ev);
            app.doc.update(|s| {
                s.settings.billing = if v == "committed" { Billing::Committed } else { Billing::OnDemand }
            })
        };
        view! {
            <label class="field inline">
                <span class="field-label">"Billing"</span>
                <select aria-label="billing" on:change=on_change>
                    <option value="onDemand" selected=move || app.doc.scenario.with(|s| s.settings.billing == Billing::OnDemand)>"on demand (instances held)"</option>
                    <option value="committed" selected=move || app.doc.scenario.with(|s| s.settings.billing == Billing::Committed)>"committed (capacity)"</option>
                </select>
            </label>
        }
    };

    // One row of the bounds table: a capacity (share None) or a quota.
    let bound_row = move |share: Option<String>, ty: String| {
        let what = match &share {
            None => format!("capacity {ty}"),
            Some(s) => format!("{s} quota {ty}"),
        };
        let key_of = {
            let (share, ty) = (share.clone(), ty.clone());
            move |end: &str| match &share {
                None => capacity_key(&ty, end),
                Some(s) => quota_key(s, &ty, end),
            }
        };
        let now = {
            let (share, ty) = (share.clone(), ty.clone());
            move || {
                app.doc.scenario.with(|s| {
                    let limits = match &share {
                        None => Some(&s.service_environment.capacity_limits),
                        Some(n) => s
                            .quota_shares
                            .iter()
                            .find(|q| q.quota_share_name == *n)
                            .map(|q| &q.capacity_limits),
                    };
                    limits
                        .and_then(|l| l.iter().find(|c| c.capacity_unit == ty))
                        .map_or("–".to_string(), |c| c.max_capacity.to_string())
                })
            }
        };
        let hi = {
            let ty = ty.clone();
            move || app.doc.scenario.with(|s| default_max(s, &ty)).to_string()
        };
        let get = {
            let (share, ty) = (share.clone(), ty.clone());
            move || {
                form.with(|f| match &share {
                    None => f.capacity.get(&ty).cloned(),
                    Some(s) => f.quotas.get(&(s.clone(), ty.clone())).cloned(),
                })
                .unwrap_or_default()
            }
        };
        let set = {
            let (share, ty) = (share.clone(), ty.clone());
            move |g: &dyn Fn(&mut Bound)| {
                form.update(|f| match &share {
                    None => g(f.capacity.entry(ty.clone()).or_default()),
                    Some(s) => g(f.quotas.entry((s.clone(), ty.clone())).or_default()),
                })
            }
        };
        let (g1, g2, g3, g4) = (get.clone(), get.clone(), get.clone(), get);
        let (s1, s2, s3) = (set.clone(), set.clone(), set);
        let (kmin, kmax) = (key_of("min"), key_of("max"));
        let (kmin2, kmax2) = (kmin.clone(), kmax.clone());
        view! {
            <tr>
                <th scope="row" class="mono">{what.clone()}</th>
                <td class="num">{now}</td>
                <td class="cell">
                    <input type="text" inputmode="numeric" placeholder="1" aria-label=format!("{what}: min")
                        data-field=kmin.clone() aria-invalid=move || if bad(kmin2.clone()) { "true" } else { "false" }
                        disabled=move || g1().fixed
                        prop:value=move || g2().min
                        on:input=move |ev| { let v = event_target_value(&ev); s1(&|b| b.min = v.clone()) } />
                </td>
                <td class="cell">
                    <input type="text" inputmode="numeric" placeholder=hi aria-label=format!("{what}: max")
                        data-field=kmax.clone() aria-invalid=move || if bad(kmax2.clone()) { "true" } else { "false" }
                        disabled=move || g3().fixed
                        prop:value=move || g4().max
                        on:input=move |ev| { let v = event_target_value(&ev); s2(&|b| b.max = v.clone()) } />
                </td>
                <td class="cell rec-fixed">
                    <input type="checkbox" aria-label=format!("{what}: fixed")
                        prop:checked=move || get_fixed(form, &share, &ty)
                        on:change=move |ev| { let on = event_target_checked(&ev); s3(&|b| b.fixed = on) } />
                </td>
            </tr>
        }
    };
    let bound_rows = move || {
        let caps = types.get().into_iter().map(|t| bound_row(None, t)).collect_view();
        let qs = quotas.get().into_iter().map(|(s, t)| bound_row(Some(s), t)).collect_view();
        view! { {caps}{qs} }
    };
    let sharing_rows = move || {
        shares
            .get()
            .into_iter()
            .map(|name| {
                let (n1, n2, n3) = (name.clone(), name.clone(), name.clone());
                let now = move || {
                    app.doc.scenario.with(|s| {
                        s.quota_shares
                            .iter()
                            .position(|q| q.quota_share_name == n3)
                            .map(|si| quotasim::recommend::space::strategy_of(s, si).to_string())
                            .unwrap_or_default()
                    })
                };
                view! {
                    <label class="check rec-sharing">
                        <input type="checkbox"
                            prop:checked=move || form.with(|f| !f.sharing_fixed.contains(&n1))
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                form.update(|f| { if on { f.sharing_fixed.remove(&n2); } else { f.sharing_fixed.insert(n2.clone()); } })
                            } />
                        <span>{format!("{name}'s sharing may change (now ")}{now}")"</span>
                    </label>
                }
            })
            .collect_view()
    };

    let cancel = move |_| {
        if st.tasks.cancel() {
            let (run, max) = st.progress.get_untracked();
            st.view.set(Some(RecView::Stopped(format!("Cancelled at run {run} of at most {max}."))));
        }
    };
    let results = move || {
        shown.get().map(|v| match v {
            RecView::Running { .. } => view! {
                <div class="row-actions rec-progress">
                    <progress class="run-progress" max=move || st.progress.get().1.to_string() value=move || st.progress.get().0.to_string() aria-label="recommend progress"></progress>
                    <span role="status" class="rec-progress-text">{move || progress_text(st.progress.get())}</span>
                    <button class="btn small" on:click=cancel>"Cancel"</button>
                </div>
            }
            .into_any(),
            RecView::Stopped(m) => view! { <p class="rec-stopped" role="status">{m}</p> }.into_any(),
            RecView::Done { rec, ms } => result_view(app, rec, ms),
        })
    };
    let problem_list = move || {
        let ps = problems.get();
        (!ps.is_empty()).then(|| {
            view! {
                <ul class="field-error rec-problems" role="alert" aria-label="problems with the form">
                    {ps.into_iter().map(|p| view! { <li>{p.message}</li> }).collect_view()}
                </ul>
            }
        })
    };
    view! {
        <details class="card recommend">
            <summary><h3 class="inline">"Recommend: the least costly quotas that meet every objective"</h3></summary>
            <p class="muted">
                "Searches capacity, every share's quota and its sharing for the least costly setting (capacity × price per hour, or instances without prices) that meets every objective below on this scenario's jobs, and proves it: each cheaper step is run and breaks an objective. The answer opens as variant B of compare mode."
            </p>
            <div class="rec-grid">
                <fieldset class="rec-box">
                    <legend>"Objectives"</legend>
                    <div class="table-scroll" tabindex="0" role="region" aria-label="objectives per share">
                        <table class="grid-table rec-goals">
                            <thead><tr><th scope="col">"share"</th><th scope="col">"p95 wait at most"</th><th scope="col">"preemptions at most"</th></tr></thead>
                            <tbody>{goal_rows}</tbody>
                        </table>
                    </div>
                    <label class="field inline">
                        <span class="field-label">"Overall utilization at least (%)"</span>
                        <input type="text" inputmode="decimal" placeholder="–" class="rec-util"
                            data-field=UTILIZATION_KEY
                            aria-invalid=move || if bad(UTILIZATION_KEY.into()) { "true" } else { "false" }
                            prop:value=move || form.with(|f| f.utilization.clone())
                            on:input=move |ev| { let v = event_target_value(&ev); form.update(|f| f.utilization = v) } />
                    </label>
                </fieldset>
                <fieldset class="rec-box">
                    <legend>"Prices and billing (edits of the scenario)"</legend>
                    {price_rows}
                    {billing}
                </fieldset>
            </div>
            <fieldset class="rec-box">
                <legend>"What may change"</legend>
                <p class="muted small">"Empty bounds: from 1 to twice the larger of the capacity and the quotas summed."</p>
                <div class="table-scroll" tabindex="0" role="region" aria-label="bounds of capacity and quotas">
                    <table class="grid-table rec-bounds">
                        <thead><tr><th scope="col">"capacity or quota"</th><th scope="col">"now"</th><th scope="col">"min"</th><th scope="col">"max"</th><th scope="col">"fixed"</th></tr></thead>
                        <tbody>{bound_rows}</tbody>
                    </table>
                </div>
                <div class="checks rec-sharings">{sharing_rows}</div>
            </fieldset>
            {problem_list}
            <div class="row-actions">
                <label class="field inline">
                    <span class="field-label">"Runs at most"</span>
                    <input type="text" inputmode="numeric" placeholder="1000" class="rec-max-runs"
                        data-field=MAX_RUNS_KEY
                        aria-invalid=move || if bad(MAX_RUNS_KEY.into()) { "true" } else { "false" }
                        prop:value=move || form.with(|f| f.max_runs.clone())
                        on:input=move |ev| { let v = event_target_value(&ev); form.update(|f| f.max_runs = v) } />
                </label>
                <button class="btn primary rec-go" disabled=running on:click=move |_| start(app, st)>"Recommend"</button>
            </div>
            {results}
        </details>
    }
}

fn get_fixed(form: RwSignal<RecommendForm>, share: &Option<String>, ty: &str) -> bool {
    form.with(|f| match share {
        None => f.capacity.get(ty).is_some_and(|b| b.fixed),
        Some(s) => f.quotas.get(&(s.clone(), ty.to_string())).is_some_and(|b| b.fixed),
    })
}
