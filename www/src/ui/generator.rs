//! The workload generator: every quota share at once (weight, instance type, sizes,
//! priorities, durations, checkpoints), written as the scenario's `workload` section and
//! expanded by the engine's one generator; "Another seed" re-generates in one click.

use leptos::prelude::*;
use quotasim::workload::Distribution;

use crate::ui::state::{use_app, AppState, Keyed};
use crate::workload_form::{describe, form_of, type_choices, workload_of, Form, ShareRow};

/// The form as typed, for the shares it was made for: the rows follow the shares (a share
/// added or renamed gets its row, the form made afresh from the scenario), nothing typed is
/// lost while they stay. Provided once by the page, so that it outlives the Jobs tab.
#[derive(Clone, Copy)]
pub struct FormState {
    typed: Keyed<Vec<String>, Form>,
    /// The form of the scenario, made again when its shares change.
    fresh: Memo<Form>,
}

impl FormState {
    /// Creates the form's state and provides it as context.
    pub fn provide(app: AppState) -> FormState {
        let form = FormState::new(app);
        provide_context(form);
        form
    }

    fn new(app: AppState) -> FormState {
        let names = Memo::new(move |_| {
            app.doc
                .scenario
                .with(|s| s.quota_shares.iter().map(|q| q.quota_share_name.clone()).collect::<Vec<_>>())
        });
        let fresh = Memo::new(move |_| {
            names.track();
            app.doc.scenario.with_untracked(form_of)
        });
        FormState { typed: Keyed::new(names.into()), fresh }
    }

    fn with<R>(&self, f: impl FnOnce(&Form) -> R) -> R {
        self.typed.with(|t| match t {
            Some(t) => f(t),
            None => self.fresh.with(f),
        })
    }

    fn with_untracked<R>(&self, f: impl FnOnce(&Form) -> R) -> R {
        self.typed.with_untracked(|t| match t {
            Some(t) => f(t),
            None => self.fresh.with_untracked(f),
        })
    }

    fn update(&self, f: impl FnOnce(&mut Form)) {
        let mut next = self.with_untracked(Form::clone);
        f(&mut next);
        self.typed.set(next);
    }

    fn set(&self, next: Form) {
        self.typed.set(next);
    }
}

/// A text input bound to one field of the form.
fn form_input(
    form: FormState,
    label: String,
    class: &'static str,
    get: impl Fn(&Form) -> String + Send + Sync + 'static,
    set: impl Fn(&mut Form, String) + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <input
            type="text"
            class=class
            aria-label=label
            prop:value=move || form.with(|f| get(f))
            on:input=move |ev| {
                let v = event_target_value(&ev);
                form.update(|f| set(f, v))
            }
        />
    }
}

/// A text field of row `i`.
fn row_input(
    form: FormState,
    i: usize,
    label: &'static str,
    field: fn(&mut ShareRow) -> &mut String,
) -> impl IntoView {
    let share = form.with_untracked(|f| f.rows.get(i).map(|r| r.share.clone()).unwrap_or_default());
    view! {
        <td>
            {form_input(
                form,
                format!("{share} {label}"),
                "gen-cell",
                move |f| f.rows.get(i).map(|r| field(&mut r.clone()).clone()).unwrap_or_default(),
                move |f, v| {
                    if let Some(r) = f.rows.get_mut(i) {
                        *field(r) = v;
                    }
                },
            )}
        </td>
    }
}

#[component]
pub fn Generator() -> impl IntoView {
    let app = use_app();
    let form = expect_context::<FormState>();
    let message = RwSignal::new(None::<String>);
    let summary = Memo::new(move |_| app.doc.scenario.with(|s| s.workload.as_ref().map(|_| describe(s))));
    let write = move |next_seed: bool| {
        if next_seed {
            form.update(|f| {
                let s = f.seed.trim().parse::<i64>().unwrap_or(0);
                f.seed = (s + 1).to_string();
            });
        }
        match form.with_untracked(workload_of) {
            Err(e) => message.set(Some(e)),
            Ok(w) => {
                let seed = w.seed;
                app.doc.edit(|s, _| s.workload = Some(w));
                message.set(Some(format!("Generated with seed {seed}.")));
            }
        }
    };
    let expand = move |_| {
        let expanded = app.doc.scenario.with_untracked(quotasim::workload::expanded);
        match expanded {
            Err(p) => message.set(Some(p.first().map(|p| p.to_string()).unwrap_or_default())),
            Ok(e) => {
                let added = e.jobs.len() - app.doc.scenario.with_untracked(|s| s.jobs.len());
                app.doc.edit(|s, r| {
                    r.push(crate::rows::List::Jobs, added);
                    *s = e;
                });
                message
                    .set(Some(format!("{added} generated jobs are now listed jobs, editable one by one.")));
            }
        }
    };
    // A history of listed jobs (an import, a trace) gets a section fitted to it: replicates
    // then have seeds to draw, and forecasts a model of arrivals.
    let listed = Memo::new(move |_| app.doc.scenario.with(|s| (s.jobs.len(), s.workload.is_some())));
    let fit = move |_| match app.doc.scenario.with_untracked(quotasim::fit_workload::fit_workload) {
        Err(p) => message.set(Some(p.first().map(|p| p.to_string()).unwrap_or_default())),
        Ok(f) => {
            let n = app.doc.scenario.with_untracked(|s| s.jobs.len());
            let shares = f.scenario.workload.as_ref().map_or(0, |w| w.shares.len());
            let notes: Vec<String> = f.warnings.iter().map(|w| w.message.clone()).collect();
            form.set(form_of(&f.scenario));
            app.doc.edit(|s, r| {
                r.retain(crate::rows::List::Jobs, |_| false);
                *s = f.scenario;
            });
            message.set(Some(format!(
                "The {n} listed jobs are now a workload section fitted to them ({shares} shares; {}). Undo brings them back.",
                notes.join("; ")
            )));
        }
    };
    let remove = move |_| {
        app.doc.edit(|s, _| s.workload = None);
        message.set(Some("The generated jobs were removed; listed jobs are kept.".into()));
    };
    let rows = move || {
        let n = form.with(|f| f.rows.len());
        (0..n)
            .map(|i| {
                let share = form.with_untracked(|f| f.rows[i].share.clone());
                let choices = app.doc.scenario.with_untracked(|s| type_choices(s, &share));
                let on_label = format!("{share} submits generated work");
                view! {
                    <tr>
                        <th scope="row">
                            <label class="gen-share">
                                <input
                                    type="checkbox"
                                    aria-label=on_label
                                    prop:checked=move || form.with(|f| f.rows.get(i).is_some_and(|r| r.on))
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        form.update(|f| {
                                            if let Some(r) = f.rows.get_mut(i) {
                                                r.on = on
                                            }
                                        })
                                    }
                                />
                                {share.clone()}
                            </label>
                        </th>
                        {row_input(form, i, "weight", |r| &mut r.weight)}
                        <td>
                            <select
                                class="gen-cell"
                                aria-label=format!("{share} instance type")
                                on:change=move |ev| {
                                    let v = event_target_value(&ev);
                                    form.update(|f| {
                                        if let Some(r) = f.rows.get_mut(i) {
                                            r.instance_type = v
                                        }
                                    })
                                }
                            >
                                {choices
                                    .into_iter()
                                    .map(|t| {
                                        let sel = form.with_untracked(|f| f.rows[i].instance_type == t);
                                        view! { <option value=t.clone() selected=sel>{t.clone()}</option> }
                                    })
                                    .collect_view()}
                            </select>
                        </td>
                        {row_input(form, i, "arrivals per hour", |r| &mut r.arrivals)}
                        {row_input(form, i, "sizes", |r| &mut r.sizes)}
                        {row_input(form, i, "priorities", |r| &mut r.priorities)}
                        <td>
                            <select
                                class="gen-cell"
                                aria-label=format!("{share} duration distribution")
                                on:change=move |ev| {
                                    let k = event_target_value(&ev).parse().unwrap_or(3);
                                    form.update(|f| {
                                        if let Some(r) = f.rows.get_mut(i) {
                                            r.distribution = k
                                        }
                                    })
                                }
                            >
                                {Distribution::ALL
                                    .iter()
                                    .enumerate()
                                    .map(|(k, (_, t))| {
                                        let sel = form.with_untracked(|f| f.rows[i].distribution == k);
                                        view! { <option value=k.to_string() selected=sel>{*t}</option> }
                                    })
                                    .collect_view()}
                            </select>
                        </td>
                        {row_input(form, i, "min duration (s)", |r| &mut r.min_seconds)}
                        {row_input(form, i, "max duration (s)", |r| &mut r.max_seconds)}
                        {row_input(form, i, "checkpoint %", |r| &mut r.checkpoint_percent)}
                        {row_input(form, i, "checkpoint every (s)", |r| &mut r.checkpoint_every)}
                    </tr>
                }
            })
            .collect_view()
    };
    let top = |label: &'static str, get: fn(&Form) -> String, set: fn(&mut Form, String)| {
        view! {
            <label class="field">
                <span class="field-label">{label}</span>
                {form_input(form, label.to_string(), "", get, set)}
            </label>
        }
    };
    view! {
        <details class="generator" open=move || app.doc.scenario.with_untracked(|s| s.workload.is_some())>
            <summary>"Workload generator"</summary>
            <p class="muted">
                "Generates work for every quota share at once, as the scenario's workload section: "
                "the same seed always gives the same jobs. Lists are value:weight pairs (1:3, 2 = one instance three times as often as two). "
                "Shares without arrivals/h are paced by the offered load."
            </p>
            <div class="form-grid">
                {top("Jobs in all (split by weight)", |f| f.jobs.clone(), |f, v| f.jobs = v)}
                {top("Offered load (% of owned capacity)", |f| f.load_percent.clone(), |f, v| f.load_percent = v)}
                {top("First arrivals at (s)", |f| f.start_at.clone(), |f, v| f.start_at = v)}
                {top("Seed", |f| f.seed.clone(), |f, v| f.seed = v)}
            </div>
            <div class="table-scroll" tabindex="0" role="region" aria-label="Generated work per quota share">
                <table class="gen-table">
                    <thead>
                        <tr>
                            <th scope="col">"Share"</th>
                            <th scope="col">"Weight"</th>
                            <th scope="col">"Instance type"</th>
                            <th scope="col">"Arrivals/h"</th>
                            <th scope="col">"Sizes"</th>
                            <th scope="col">"Priorities"</th>
                            <th scope="col">"Durations"</th>
                            <th scope="col">"Min (s)"</th>
                            <th scope="col">"Max (s)"</th>
                            <th scope="col">"Checkpoint %"</th>
                            <th scope="col">"Every (s)"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <div class="row-actions">
                <button class="btn primary" on:click=move |_| write(false)>"Generate"</button>
                <button
                    class="btn"
                    disabled=move || summary.get().is_none()
                    on:click=move |_| write(true)
                >
                    "Another seed"
                </button>
                <button class="btn" disabled=move || summary.get().is_none() on:click=expand>
                    "List the generated jobs"
                </button>
                <button class="btn" disabled=move || summary.get().is_none() on:click=remove>
                    "Remove generated jobs"
                </button>
                <button
                    class="btn"
                    disabled=move || listed.with(|&(n, section)| n == 0 || section)
                    title="Replace the listed jobs by a workload section fitted to them (rates by hour of the day, mixes, durations), for replicates and forecasts"
                    on:click=fit
                >
                    "Fit a workload to the listed jobs"
                </button>
            </div>
            <p class="muted gen-status" role="status">
                {move || match summary.get() {
                    Some(Ok(t)) => t,
                    Some(Err(e)) => format!("The workload section has a problem: {e}"),
                    None => String::from("No generated jobs."),
                }}
                " "
                {move || message.get()}
            </p>
        </details>
    }
}
