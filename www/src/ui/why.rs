//! "What would have avoided this?" in the explanation panel of a preemption or a waiting job:
//! the engine's study made on demand in slices ([`Tasks`]), with its progress and a Cancel
//! button; each verified change with its side effects and "Try it", which opens compare mode
//! with the change applied as B. A change of the scenario or of the selection cancels it.

use std::sync::Arc;

use leptos::prelude::*;
use quotasim::why::WhyReport;

use crate::ui::state::{use_app, AppState, Keyed, Notice, Selection};
use crate::ui::task::Tasks;
use crate::why::{changes, headline, not_found, progress_text, WhyAsk, WhyBuilder, RUNS};

/// A study asked for, as the page shows it.
#[derive(Clone, Debug)]
pub enum WhyView {
    Running { ask: WhyAsk, text: String },
    Done { ask: WhyAsk, report: Arc<WhyReport>, ms: f64 },
    Failed { ask: WhyAsk, error: String },
}

impl WhyView {
    fn ask(&self) -> &WhyAsk {
        match self {
            WhyView::Running { ask, .. } | WhyView::Done { ask, .. } | WhyView::Failed { ask, .. } => ask,
        }
    }
}

/// The page's study (one at a time).
#[derive(Clone, Copy)]
pub struct WhyState {
    /// The study, with the revision of the scenario and the selection it was asked at: a
    /// change of either puts it out of date.
    view: Keyed<(u64, Option<Selection>), WhyView>,
    tasks: Tasks,
}

pub fn use_why() -> WhyState {
    expect_context::<WhyState>()
}

impl WhyState {
    /// Creates the study's state and provides it as context: a change of the scenario (a load
    /// too) or of the selection stops it and puts it out of date.
    pub fn provide(app: AppState) -> WhyState {
        let key = Memo::new(move |_| (app.doc.revision.get(), app.chrome.selection.get()));
        let why = WhyState { view: Keyed::new(key.into()), tasks: Tasks::new() };
        provide_context(why);
        // Its work stops with them (what it showed reads as absent by itself).
        why.tasks.cancel_on_change(move || key.track());
        why
    }

    fn clear(self) {
        self.tasks.cancel();
        self.view.clear();
    }
}

/// Starts the study of `ask` in the scenario being edited.
fn start(app: AppState, why: WhyState, ask: WhyAsk) {
    let fail = |error: String| {
        why.tasks.cancel();
        why.view.set(WhyView::Failed { ask: ask.clone(), error });
    };
    if app.run.stale.get_untracked() {
        fail("the run is not of the scenario as it is now: wait for it to finish".into());
        return;
    }
    let mut b = match app.doc.scenario.with_untracked(|s| WhyBuilder::new(s, &ask)) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    crate::ui::dom::perf_mark("quotasim:why");
    let text = progress_text(b.progress(), None);
    why.view.set(WhyView::Running { ask: ask.clone(), text });
    let view = why.view;
    let at = view.key_untracked();
    why.tasks.start(
        move |out_of_time| {
            let out = b.advance(out_of_time);
            if out.is_none() {
                let text = progress_text(b.progress(), b.running().as_deref());
                view.update(|v| {
                    if let WhyView::Running { text: t, .. } = v {
                        *t = text;
                    }
                });
            }
            out
        },
        move |res, ms| {
            view.set_at(
                at,
                match res {
                    Ok(r) => WhyView::Done { ask, report: Arc::new(r), ms },
                    Err(error) => WhyView::Failed { ask, error },
                },
            );
            crate::ui::dom::after_next_paint(|| {
                crate::ui::dom::perf_measure("quotasim:why-to-render", "quotasim:why")
            });
        },
    );
}

/// Opens compare mode with `set` (`PATH=VALUE`) applied as B; the scenario as it is is A.
fn try_it(app: AppState, set: &str) {
    let changes: Result<Vec<quotasim::change::Change>, String> = set
        .split(' ')
        .filter(|c| !c.is_empty())
        .map(|c| quotasim::change::Change::parse(c).map_err(|p| p.to_string()))
        .collect();
    let applied = changes.and_then(|changes| {
        app.doc
            .scenario
            .with_untracked(|base| quotasim::change::apply_changes(base, &changes).map_err(|p| p.to_string()))
    });
    match applied {
        Ok(b) => {
            app.baseline_from_b();
            app.doc.edit(|cur, r| {
                *cur = b;
                r.fit(cur);
            });
            app.chrome.notice.set(Some(Notice::text(format!(
                "Compare mode: {set} applied as variant B; the scenario before it is baseline A."
            ))));
            // The comparison is what the reader asked for: bring it into view once drawn.
            crate::ui::dom::after_next_paint(|| {
                let doc = web_sys::window().and_then(|w| w.document());
                if let Some(el) = doc.and_then(|d| d.query_selector("section.compare").ok().flatten()) {
                    el.scroll_into_view();
                }
            });
        }
        Err(e) => app.chrome.notice.set(Some(Notice::text(e))),
    }
}

fn ms_text(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        format!("{ms:.0} ms")
    }
}

/// The report in the panel: the verified changes, then what was not found or not tried.
fn report_view(app: AppState, r: &WhyReport, ms: f64) -> AnyView {
    let items = changes(r)
        .into_iter()
        .map(|c| {
            let set = c.set.clone();
            let label = format!("Try it: {}", c.set);
            view! {
                <li class="why-change">
                    <div class="why-change-head">
                        <code class="change-text">{c.set.clone()}</code>
                        <span class="muted small">{format!("({})", c.entry)}</span>
                        <button class="btn small primary why-try" aria-label=label on:click=move |_| try_it(app, &set)>"Try it"</button>
                    </div>
                    <p class="small">{c.own}</p>
                    <p class="small">{c.harmed}</p>
                    <ul class="why-shares small muted">
                        {c.shares.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}
                    </ul>
                </li>
            }
        })
        .collect_view();
    let missed = not_found(r);
    view! {
        <p class="why-summary" role="status" data-ms=format!("{ms:.0}")>{headline(r)}</p>
        <ol class="why-changes" aria-label="changes that would have avoided it">{items}</ol>
        {(!missed.is_empty()).then(|| view! {
            <details class="why-missed">
                <summary>{format!("Not found or not tried ({})", missed.len())}</summary>
                <ul class="small muted">{missed.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
            </details>
        })}
        <p class="muted small">{format!("Computed in {} on this page's thread, in slices.", ms_text(ms))}</p>
    }
    .into_any()
}

/// The explanation's "What would have avoided this?" block for `ask`.
#[component]
pub fn WhyAvoid(ask: WhyAsk) -> impl IntoView {
    let app = use_app();
    let why = use_why();
    let key = ask.clone();
    let mine = move || why.view.get().filter(|v| *v.ask() == key);
    let cancel = move || why.clear();
    let ask_btn = ask.clone();
    view! {
        <section class="why" aria-label="what would have avoided this">
            <h4>"What would have avoided this?"</h4>
            {move || match mine() {
                None => {
                    let a = ask_btn.clone();
                    view! {
                        <button class="btn why-ask" on:click=move |_| start(app, why, a.clone())>"What would have avoided this?"</button>
                        <p class="muted small">{format!("Tries single changes of the scenario (priority, borrow limit, grace period, quota, …), each verified by a full re-run, within {RUNS} runs.")}</p>
                    }
                    .into_any()
                }
                Some(WhyView::Running { text, .. }) => view! {
                    <p class="why-progress" role="status">
                        {text}" "
                        <button class="btn small" on:click=move |_| cancel()>"Cancel"</button>
                    </p>
                }
                .into_any(),
                Some(WhyView::Failed { error, .. }) => {
                    view! { <p class="why-error" role="status">{format!("No answer: {error}")}</p> }.into_any()
                }
                Some(WhyView::Done { report, ms, .. }) => report_view(app, &report, ms),
            }}
        </section>
    }
}
