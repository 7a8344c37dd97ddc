//! The top bar: presets, the scenario's name, run status, import/export and the share link.

use leptos::prelude::*;

use crate::persist;
pub use crate::presets::BENCH_ID;
use crate::presets::{self, PRESETS};
use crate::ui::dom;
use crate::ui::state::{use_app, Notice};

/// Loads a preset (or the generated benchmark) by id.
pub fn load_preset(id: &str) {
    if let Some(s) = presets::builtin(id) {
        use_app().load(s, Vec::new(), Some(id.into()));
    }
}

#[component]
pub fn Header() -> impl IntoView {
    let app = use_app();
    let copied = RwSignal::new(false);
    let share = move |_| {
        let Some(hash) = persist::link_hash(&app.current()) else {
            let n = app.doc.scenario.with_untracked(|s| s.jobs.len());
            app.chrome.notice.set(Some(Notice::export(format!(
                "This scenario ({} jobs) is too large for a link: a link carries at most {} characters, about 5,000 jobs. Share it as a file instead.",
                crate::text::thousands(n as u64),
                crate::text::thousands(persist::MAX_SHARE_LINK_CHARS as u64)
            ))));
            return;
        };
        dom::copy_text(&dom::url_with_hash(&hash));
        copied.set(true);
        let _ = gloo_timers::callback::Timeout::new(1800, move || {
            copied.try_set(false);
        })
        .forget();
    };
    // The theme: the system's preference until the page's toggle chooses.
    let light = RwSignal::new(crate::ui::dom::light_theme_wanted());
    crate::ui::dom::apply_theme(light.get_untracked());
    let status = move || {
        let errors = app.doc.problems.with(|p| p.iter().any(|x| x.is_error()));
        if errors {
            ("status err", String::from("invalid — fix the problems to run"))
        } else if app.run.stale.get() && app.run.cancelled.get() {
            ("status busy", String::from("run cancelled"))
        } else if app.run.stale.get() {
            match app.run.progress.get() {
                Some(p) => ("status busy", format!("running… {:.0} %", p * 100.0)),
                None => ("status busy", String::from("running…")),
            }
        } else {
            let listed = app.doc.scenario.with(|s| s.jobs.len());
            // The run's jobs: the listed ones and those the `workload` section generates.
            let n = app.run.handle.with(|r| r.as_ref().map(|r| r.data.full().scenario().jobs.len()));
            let ms = app.run.ms.get();
            let took = if ms < 1.0 { String::from("<1 ms") } else { format!("{ms:.0} ms") };
            let jobs = match n {
                Some(n) if n > listed => format!("{n} jobs ({} generated)", n - listed),
                _ => format!("{listed} jobs"),
            };
            ("status ok", format!("{jobs} · ran in {took}"))
        }
    };
    view! {
        <header class="topbar">
            <div class="brand">
                <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true"><rect x="2" y="12" width="5" height="10" rx="1" fill="#4f8cff"/><rect x="9.5" y="6" width="5" height="16" rx="1" fill="#17c3b2"/><rect x="17" y="2" width="5" height="20" rx="1" fill="#f5a524"/></svg>
                <h1 class="brand-name">"Quotasim"</h1>
                <span class="brand-sub">"playground"</span>
            </div>
            <label class="field inline preset-pick">
                <span class="field-label">"Preset"</span>
                <select
                    aria-label="load a preset scenario"
                    on:change=move |ev| load_preset(&event_target_value(&ev))
                    prop:value=move || app.doc.preset.get().unwrap_or_default()
                >
                    <option value="">"(custom)"</option>
                    {PRESETS.iter().map(|p| view! { <option value=p.id>{p.title}</option> }).collect_view()}
                    <option value=BENCH_ID>{presets::BENCH_TITLE}</option>
                </select>
            </label>
            <input
                class="scenario-name"
                type="text"
                aria-label="scenario name"
                placeholder="untitled scenario"
                prop:value=move || app.doc.scenario.with(|s| s.name.clone().unwrap_or_default())
                on:input=move |ev| { let v = event_target_value(&ev); app.doc.update(|s| s.name = if v.is_empty() { None } else { Some(v) }) }
            />
            <span class=move || status().0 role="status" data-run-ms=move || format!("{:.1}", app.run.ms.get())>{move || status().1}</span>
            {move || app.run.progress.get().map(|p| view! {
                <progress class="run-progress" max="1" value=p aria-label="run progress"></progress>
                <button class="btn small" on:click=move |_| app.cancel_run()>"Cancel"</button>
            })}
            {move || (app.run.cancelled.get() && app.run.stale.get()).then(|| view! {
                <button class="btn small" on:click=move |_| app.rerun()>"Run"</button>
            })}
            <div class="top-actions">
                <div class="undo-redo" role="group" aria-label="undo and redo">
                    <button class="icon-btn" aria-label="undo" title="Undo (Ctrl+Z)" disabled=move || !app.doc.can_undo.get()
                        on:click=move |_| app.doc.undo_redo(false)>"↶"</button>
                    <button class="icon-btn" aria-label="redo" title="Redo (Ctrl+Shift+Z)" disabled=move || !app.doc.can_redo.get()
                        on:click=move |_| app.doc.undo_redo(true)>"↷"</button>
                </div>
                <button class="icon-btn theme-btn" aria-pressed=move || light.get().to_string() aria-label="light theme"
                    title=move || if light.get() { "Switch to the dark theme" } else { "Switch to the light theme" }
                    on:click=move |_| {
                        let l = !light.get_untracked();
                        light.set(l);
                        crate::ui::dom::apply_theme(l);
                        crate::ui::dom::storage_set(crate::ui::dom::THEME_KEY, if l { "light" } else { "dark" });
                    }>{move || if light.get() { "☾" } else { "☀" }}</button>
                <button class="btn" title="Start from a small empty scenario (the current one goes to History)"
                    on:click=move |_| app.load(crate::edit::new_scenario(), Vec::new(), None)>"New"</button>
                <crate::ui::compare::CompareButton />
                <button class="btn" on:click=move |_| app.chrome.history_open.set(true)>"History"</button>
                <button class="btn" on:click=move |_| { app.chrome.dialog.set(true); crate::ui::bridges::preload(); }>"Import / Export"</button>
                <button class="btn primary" on:click=share>{move || if copied.get() { "Link copied ✓" } else { "Copy share link" }}</button>
            </div>
        </header>
    }
}
