//! Start-time forecasts at the playhead: "When will it start?" in a waiting job's explanation
//! and the "Submit preview" card. Each forks the run after the playhead's instant with its
//! durations hidden and runs the forecast's replicates in slices ([`Tasks`]); a newer request
//! replaces one in progress, and an edit of the scenario cancels and clears both (they are of
//! the run before it). The forecast of a job of the run is drawn on its timeline lane.

use std::sync::Arc;

use leptos::prelude::*;
use quotasim::model::Job;
use quotasim::result::Status;

use crate::forecast::{
    actual_start, details, preview_svg, summary, would_preempt, Ask, Finished, ForecastBuilder, LaneForecast,
    REPLICATES, SEED,
};
use crate::geometry::format_time;
use crate::ui::dom;
use crate::ui::state::{use_app, AppState, Keyed};
use crate::ui::task::Tasks;

/// The width of the band's strip in the explanation (narrower screens scale it down).
const DRAWER_STRIP: f64 = 420.0;

/// A forecast asked for, as the page shows it.
#[derive(Clone, Debug)]
pub enum EtaView {
    /// Its replicates are running (`progress` from 0 to 1).
    Running { name: String, at: u64, progress: f64 },
    /// Made, in `ms` of computing.
    Done { f: Arc<Finished>, ms: f64 },
    /// It could not be made.
    Failed { name: String, at: u64, error: String },
}

impl EtaView {
    fn name(&self) -> &str {
        match self {
            EtaView::Running { name, .. } | EtaView::Failed { name, .. } => name,
            EtaView::Done { f, .. } => f.ask.name(),
        }
    }
}

/// The page's forecasts: the one of a job of the run and the submit preview, each computed in
/// slices of its own.
#[derive(Clone, Copy)]
pub struct EtaState {
    /// Both belong to the revision of the scenario they were asked at: an edit (a load too)
    /// puts them out of date.
    pub job: Keyed<u64, EtaView>,
    pub submit: Keyed<u64, EtaView>,
    /// Brings the lane of a job into view when its forecast is asked for (set by the timeline
    /// while it is on the page).
    reveal: StoredValue<Option<Callback<usize>>>,
    job_tasks: Tasks,
    submit_tasks: Tasks,
}

pub fn use_eta() -> EtaState {
    expect_context::<EtaState>()
}

impl EtaState {
    /// Creates the forecasts' state and provides it as context.
    pub fn provide(app: AppState) -> EtaState {
        let revision = Signal::from(app.doc.revision);
        let eta = EtaState {
            job: Keyed::new(revision),
            submit: Keyed::new(revision),
            reveal: StoredValue::new(None),
            job_tasks: Tasks::new(),
            submit_tasks: Tasks::new(),
        };
        provide_context(eta);
        // An edit (any change of the scenario, a load too) stops both: their work is of a
        // scenario gone (what they showed reads as absent by itself).
        for tasks in [eta.job_tasks, eta.submit_tasks] {
            tasks.cancel_on_change(move || app.doc.revision.track());
        }
        eta
    }

    /// Lets the timeline bring a job's lane into view when its forecast is asked for
    /// (`None`: the timeline has left the page).
    pub fn on_reveal(self, reveal: Option<Callback<usize>>) {
        let _ = self.reveal.try_set_value(reveal);
    }

    /// The finished forecast of a job of the run, as its lane draws it.
    pub fn lane(self) -> Option<LaneForecast> {
        self.job.with(|v| match v {
            Some(EtaView::Done { f, .. }) => LaneForecast::of(f),
            _ => None,
        })
    }
}

/// Starts a forecast of `ask` at the playhead, into `slot`, with `tasks`.
fn start(app: AppState, ask: Ask, slot: Keyed<u64, EtaView>, tasks: Tasks) {
    let name = ask.name().to_string();
    let now = app.play.now.get_untracked();
    let revision = slot.key_untracked();
    let fail = |error: &str| {
        tasks.cancel();
        slot.set(EtaView::Failed { name: name.clone(), at: now, error: error.to_string() });
    };
    if app.run.stale.get_untracked() {
        fail("the run is not of the scenario as it is now: wait for it to finish");
        return;
    }
    // The simulation standing at the playhead is kept as it is now; everything else is
    // computed in slices. The scenario is read in the first (an edit before it cancels the
    // forecast: effects run before the next slice).
    let built = app.run.handle.with_untracked(|h| {
        let h = h.as_ref()?;
        app.with_cursor(|sim| {
            let actual = match &ask {
                Ask::Job { index, .. } => actual_start(&h.data, *index, sim.now()),
                Ask::Submit(_) => None,
            };
            ForecastBuilder::new(sim.clone(), ask.clone(), REPLICATES, SEED, actual)
        })
    });
    let Some(mut b) = built else {
        fail("there is no run to fork yet");
        return;
    };
    dom::perf_mark("quotasim:forecast");
    slot.set(EtaView::Running { name: name.clone(), at: now, progress: 0.0 });
    tasks.start(
        move |out_of_time| {
            let out = app.doc.scenario.with_untracked(|s| b.advance(s, out_of_time));
            if out.is_none() {
                let p = b.progress();
                slot.update(|v| {
                    if let EtaView::Running { progress, .. } = v {
                        *progress = p;
                    }
                });
            }
            out
        },
        move |res, ms| {
            slot.set_at(
                revision,
                match res {
                    Ok(f) => EtaView::Done { f: Arc::new(f), ms },
                    Err(error) => EtaView::Failed { name, at: now, error },
                },
            );
            // From the request to the forecast drawn, for the page's measures.
            dom::after_next_paint(|| dom::perf_measure("quotasim:forecast-to-render", "quotasim:forecast"));
        },
    );
}

/// Asks when job `j` of the run, waiting at the playhead, starts.
pub fn forecast_job(app: AppState, eta: EtaState, j: usize) {
    let Some(name) = app.run.handle.with_untracked(|h| {
        h.as_ref().and_then(|h| h.data.full().scenario().jobs.get(j).map(|x| x.name.as_str().to_owned()))
    }) else {
        return;
    };
    if let Some(reveal) = eta.reveal.try_get_value().flatten() {
        reveal.run(j);
    }
    start(app, Ask::Job { index: j, name }, eta.job, eta.job_tasks);
}

/// The computing time, for the page's measures and the reader.
fn ms_text(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        format!("{ms:.0} ms")
    }
}

/// A forecast's state in words: progress with a Cancel button, the result, or why it failed.
fn view_of(v: EtaView, cancel: impl Fn() + Copy + 'static, extra: impl Fn(&Finished) -> AnyView) -> AnyView {
    match v {
        EtaView::Running { at, progress, .. } => view! {
            <p class="eta-progress" role="status">
                {format!("Forecasting from {}: {:.0} % of {REPLICATES} replicates… ", format_time(at), progress * 100.0)}
                <button class="btn small" on:click=move |_| cancel()>"Cancel"</button>
            </p>
        }
        .into_any(),
        EtaView::Failed { at, error, .. } => view! {
            <p class="eta-error" role="status">{format!("No forecast from {}: {error}.", format_time(at))}</p>
        }
        .into_any(),
        EtaView::Done { f, ms } => {
            let more = extra(&f);
            view! {
                <p class="eta-summary" role="status" data-ms=format!("{ms:.0}")>{summary(&f)}</p>
                {more}
                {details(&f).into_iter().map(|d| view! { <p class="muted small eta-detail">{d}</p> }).collect_view()}
                <p class="muted small">{format!("Computed in {} on this page's thread, in slices.", ms_text(ms))}</p>
            }
            .into_any()
        }
    }
}

/// The explanation's forecast block for job `j`: the button while it waits at the playhead,
/// and the forecast of it, if one was asked for.
#[component]
pub fn JobForecast(j: usize) -> impl IntoView {
    let app = use_app();
    let eta = use_eta();
    let waiting = Memo::new(move |_| {
        app.play.snapshot.track();
        !app.run.stale.get()
            && app
                .with_cursor(|sim| sim.status_of(quotasim::scenario::JobId::at(j)) == Some(Status::Runnable))
                .unwrap_or(false)
    });
    let name = Memo::new(move |_| {
        app.run
            .handle
            .with(|h| h.as_ref().and_then(|h| h.data.full().scenario().jobs.get(j).map(|x| x.name.clone())))
    });
    let mine = move || eta.job.get().filter(|v| name.with(|n| n.as_deref() == Some(v.name())));
    let cancel = move || {
        eta.job_tasks.cancel();
        eta.job.clear();
    };
    view! {
        <div class="eta" aria-label="start-time forecast">
            <Show when=move || waiting.get()>
                <button class="btn eta-ask" on:click=move |_| forecast_job(app, eta, j)>"When will it start?"</button>
                <span class="muted small">{move || format!(" forks the run after {} with every duration hidden and runs {REPLICATES} replicates", format_time(app.play.now.get()))}</span>
            </Show>
            {move || mine().map(|v| {
                let actual = match &v {
                    EtaView::Done { f, .. } => f.actual,
                    _ => None,
                };
                view_of(v, cancel, move |f| {
                    let svg = preview_svg(f, DRAWER_STRIP);
                    view! {
                        <div class="svg-host eta-preview" inner_html=svg></div>
                        {actual.map(|t| view! {
                            <button class="btn small" on:click=move |_| { app.play.playing.set(false); app.play.now.set(t) }>{format!("Go to the actual start, {}", format_time(t))}</button>
                        })}
                    }.into_any()
                })
            })}
        </div>
    }
}

/// "Submit preview": a job submitted at the playhead, its start band and whom it would preempt.
#[component]
pub fn SubmitPreview() -> impl IntoView {
    let app = use_app();
    let eta = use_eta();
    let shares = Memo::new(move |_| {
        app.run.handle.with(|r| r.as_ref().map(|r| r.data.share_names.clone()).unwrap_or_default())
    });
    let types = Memo::new(move |_| {
        app.run.handle.with(|r| {
            r.as_ref()
                .map(|r| r.data.full().scenario().types.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });
    let share = RwSignal::new(String::new());
    let ty = RwSignal::new(String::new());
    let count = RwSignal::new(String::from("1"));
    let priority = RwSignal::new(String::from("0"));
    let duration = RwSignal::new(String::new());
    let width = Memo::new(move |_| (app.chrome.width.get() - 32.0).clamp(260.0, 1200.0));
    let chosen = move |sel: RwSignal<String>, all: Memo<Vec<String>>| {
        let s = sel.get();
        all.with(|v| if v.contains(&s) { s } else { v.first().cloned().unwrap_or_default() })
    };
    let submit = move || {
        let whole = |s: String, what: &str| -> Result<i64, String> {
            s.trim().parse::<i64>().map_err(|_| format!("{what} must be a whole number"))
        };
        let job = (|| -> Result<Job, String> {
            let mut j = Job::new(
                "preview",
                &chosen(share, shares),
                &chosen(ty, types),
                whole(count.get_untracked(), "the instance count")?,
                0,
                0,
            );
            j.scheduling_priority = whole(priority.get_untracked(), "the priority")?;
            let d = duration.get_untracked();
            j.duration_seconds = if d.trim().is_empty() { None } else { Some(whole(d, "the duration")?) };
            Ok(j)
        })();
        match job {
            Ok(j) => start(app, Ask::Submit(Box::new(j)), eta.submit, eta.submit_tasks),
            Err(e) => {
                eta.submit_tasks.cancel();
                eta.submit.set(EtaView::Failed {
                    name: String::from("preview"),
                    at: app.play.now.get_untracked(),
                    error: e,
                })
            }
        }
    };
    let cancel = move || {
        eta.submit_tasks.cancel();
        eta.submit.clear();
    };
    let disabled = move || app.run.handle.with(Option::is_none) || app.run.stale.get();
    view! {
        <section class="card submit-preview" aria-labelledby="sp-h">
            <header class="card-head">
                <h3 id="sp-h">{move || format!("Submit preview at {}", format_time(app.play.now.get()))}</h3>
                <span class="muted">{format!("if a job were submitted now · {REPLICATES} replicates, durations hidden")}</span>
            </header>
            <form class="submit-form" on:submit=move |ev| { ev.prevent_default(); submit() }>
                <label class="field">
                    <span class="field-label">"Share"</span>
                    <select aria-label="share of the submitted job" on:change=move |ev| share.set(event_target_value(&ev))>
                        {move || shares.get().into_iter().map(|n| {
                            let sel = chosen(share, shares) == n;
                            view! { <option value=n.clone() selected=sel>{n.clone()}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span class="field-label">"Instance type"</span>
                    <select aria-label="instance type of the submitted job" on:change=move |ev| ty.set(event_target_value(&ev))>
                        {move || types.get().into_iter().map(|n| {
                            let sel = chosen(ty, types) == n;
                            view! { <option value=n.clone() selected=sel>{n.clone()}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span class="field-label">"Instances"</span>
                    <input type="number" min="1" step="1" aria-label="instance count of the submitted job" prop:value=move || count.get() on:input=move |ev| count.set(event_target_value(&ev)) />
                </label>
                <label class="field">
                    <span class="field-label">"Priority"</span>
                    <input type="number" min="0" max="9999" step="1" aria-label="scheduling priority of the submitted job" prop:value=move || priority.get() on:input=move |ev| priority.set(event_target_value(&ev)) />
                </label>
                <label class="field">
                    <span class="field-label">"Duration s (optional)"</span>
                    <input type="number" min="1" step="1" placeholder="drawn" aria-label="duration in seconds of the submitted job (optional)" prop:value=move || duration.get() on:input=move |ev| duration.set(event_target_value(&ev)) />
                </label>
                <button class="btn primary" type="submit" disabled=disabled>"Preview"</button>
            </form>
            {move || eta.submit.get().map(|v| view_of(v, cancel, move |f| {
                let strip = f.clone();
                let victims = would_preempt(f);
                view! {
                    <div class="svg-host eta-preview" inner_html=move || preview_svg(&strip, width.get())></div>
                    {if victims.is_empty() {
                        view! { <p class="muted small">"It would preempt no job in any replicate."</p> }.into_any()
                    } else {
                        view! {
                            <p class="small">"It would preempt:"</p>
                            <ul class="eta-victims">
                                {victims.into_iter().map(|(n, p)| view! { <li>{format!("{n} in {:.0} % of replicates", p * 100.0)}</li> }).collect_view()}
                            </ul>
                        }.into_any()
                    }}
                }.into_any()
            }))}
        </section>
    }
}
