//! The components (wasm32 only). [`App`] lays out the page; every component reads the one
//! [`state::AppState`] context.

pub mod actions;
pub mod breakdown;
pub mod bridges;
pub mod capacity;
pub mod compare;
pub mod dom;
pub mod editor;
pub mod explain_panel;
pub mod export;
pub mod fields;
pub mod forecast;
pub mod generator;
pub mod header;
pub mod history;
pub mod idb;
pub mod io;
pub mod jobs;
pub mod keyed;
pub mod legend;
pub mod lending_chart;
pub mod limits;
pub mod matrix;
pub mod preset_info;
pub mod problems;
pub mod recommend;
pub mod settings;
pub mod shares;
pub mod snapshot;
pub mod state;
pub mod summary;
pub mod sweep;
pub mod task;
pub mod timeline;
pub mod transport;
pub mod util_chart;
pub mod wait_chart;
pub mod why;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::persist::Saved;
use state::{AppState, Notice};

/// The whole page for a starting state.
#[component]
pub fn App(
    saved: Saved,
    #[prop(optional)] notice: Option<Notice>,
    /// Read the autosave from IndexedDB once the page is up ([`AppState::restore_large_save`]).
    #[prop(optional)]
    restore: bool,
) -> impl IntoView {
    let app = AppState::provide(saved, notice);
    forecast::EtaState::provide(app);
    why::WhyState::provide(app);
    recommend::RecommendState::provide(app);
    generator::FormState::provide(app);
    if restore {
        app.restore_large_save();
    }
    let main_ref = NodeRef::<leptos::html::Main>::new();
    let measure = move || {
        if let Some(el) = main_ref.get_untracked() {
            let w = el.client_width() as f64;
            if w > 0.0 {
                app.chrome.width.set(w - 32.0);
            }
        }
    };
    Effect::new(move |_| {
        if main_ref.get().is_some() {
            measure();
        }
    });
    // The main column changes width when the editor is widened.
    Effect::new(move |_| {
        app.chrome.wide_editor.track();
        gloo_timers::callback::Timeout::new(30, measure).forget();
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    // Ctrl+Z / Ctrl+Shift+Z (and Ctrl+Y; Cmd on a Mac) undo and redo edits, except inside a
    // text field, where the field's own undo applies first.
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if !(ev.ctrl_key() || ev.meta_key()) {
            return;
        }
        let key = ev.key().to_ascii_lowercase();
        if key != "z" && key != "y" {
            return;
        }
        let in_text = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|e| {
            matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA") || e.has_attribute("contenteditable")
        });
        if in_text {
            return;
        }
        ev.prevent_default();
        app.doc.undo_redo(key == "y" || ev.shift_key());
    });
    on_cleanup(move || keys.remove());
    on_cleanup(move || resize.remove());
    // The results on screen are those of the last valid run: said so while the scenario differs.
    let stale_note = move || {
        let has_run = app.run.handle.with(Option::is_some);
        let invalid = app.doc.problems.with(|p| p.iter().any(|x| x.is_error()));
        // Small scenarios re-run within one slice: only a run that takes longer is marked
        // pending (no flicker).
        let pending = app.run.stale.get() && app.run.progress.with(Option::is_some);
        let cancelled = app.run.stale.get() && app.run.cancelled.get();
        (has_run && (invalid || pending || cancelled)).then_some(if invalid {
            "These results are from the last valid run: the scenario has errors, fix them to run it again."
        } else if cancelled {
            "These results are from an earlier version: the run of the edited scenario was cancelled. Edit or press Run to run it."
        } else {
            "These results are from the last run: the edited scenario is running…"
        })
    };
    view! {
        <div class="app">
            <a class="skip-link" href="#player">"Skip to the player"</a>
            <header::Header />
            {move || app.chrome.notice.get().map(|n| {
                let back = n.back.map(|b| {
                    let b = StoredValue::new(*b);
                    view! { <button class="btn small" on:click=move |_| app.load_saved(b.get_value())>"Go back"</button> }
                });
                let export = n.export.then(|| view! {
                    <button class="btn small" on:click=move |_| io::download_scenario(&app)>"Download scenario JSON"</button>
                });
                view! {
                    <div class="notice" role="status">
                        <span class="notice-text">{n.text}</span>
                        {back}
                        {export}
                        <button class="icon-btn" aria-label="dismiss" on:click=move |_| app.chrome.notice.set(None)>"×"</button>
                    </div>
                }
            })}
            <div class="layout" class:wide=move || app.chrome.wide_editor.get()>
                <editor::Editor />
                <main class="main" node_ref=main_ref>
                    <preset_info::PresetInfo />
                    <compare::ComparePanel />
                    <div class="sticky-transport" id="player" tabindex="-1"><transport::Transport /></div>
                    {move || stale_note().map(|t| view! { <p class="stale-note" role="status">{t}</p> })}
                    <div class="results" class:stale=move || stale_note().is_some()>
                        <summary::Summary />
                        <util_chart::UtilizationCharts />
                        <timeline::Timeline />
                        <div class="two-col">
                            <snapshot::SnapshotPanel />
                            <forecast::SubmitPreview />
                        </div>
                        <lending_chart::LendingCharts />
                        <wait_chart::WaitChart />
                        <matrix::PreemptionMatrix />
                    </div>
                    <sweep::SweepPanel />
                    <recommend::RecommendPanel />
                    <footer class="foot muted">
                        "Quotasim simulates AWS Batch quota management for SageMaker Training job queues. Rules R1–R27 are from the project's semantics spec."
                    </footer>
                </main>
            </div>
            <explain_panel::ExplainPanel />
            <io::IoDialog />
            <history::HistoryDialog />
            <datalist id="gpu-types">
                {quotasim::model::GPU_CATALOGUE.iter().map(|(n, _)| view! { <option value=*n></option> }).collect_view()}
            </datalist>
        </div>
    }
}

/// Mounts the app into `parent` with a given starting state (used by the browser tests).
pub fn mount(parent: web_sys::HtmlElement, saved: Saved) {
    let handle = leptos::mount::mount_to(parent, move || view! { <App saved=saved /> });
    handle.forget();
}

/// Starts the app in the page's body, restoring a shared link or the autosave.
pub fn start() {
    // `restore`: the autosave is in IndexedDB, read once the page is up.
    let (saved, notice, restore) = state::initial_state();
    let Some(body) = dom::window().and_then(|w| w.document()).and_then(|d| d.body()) else { return };
    let handle = leptos::mount::mount_to(body, move || match notice {
        Some(n) => view! { <App saved=saved notice=n restore=restore /> }.into_any(),
        None => view! { <App saved=saved restore=restore /> }.into_any(),
    });
    handle.forget();
}
