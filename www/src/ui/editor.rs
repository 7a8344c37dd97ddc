//! The editor sidebar: tabs for capacity, shares, jobs, actions and settings, with the
//! number of problems in each.

use leptos::prelude::*;

use crate::edit::section_of;
use crate::ui::actions::ActionsEditor;
use crate::ui::capacity::CapacityEditor;
use crate::ui::jobs::JobsEditor;
use crate::ui::problems::ProblemsPanel;
use crate::ui::settings::SettingsEditor;
use crate::ui::shares::SharesEditor;
use crate::ui::state::{use_app, Tab};

const TABS: [(Tab, &str, &str); 5] = [
    (Tab::Capacity, "Capacity", "capacity"),
    (Tab::Shares, "Shares", "shares"),
    (Tab::Jobs, "Jobs", "jobs"),
    (Tab::Actions, "Actions", "actions"),
    (Tab::Settings, "Settings", "settings"),
];

#[component]
pub fn Editor() -> impl IntoView {
    let app = use_app();
    let count = move |sec: &'static str| {
        app.doc.problems.with(|p| p.iter().filter(|x| x.is_error() && section_of(&x.path) == sec).count())
    };
    view! {
        <aside class="editor" aria-label="scenario editor">
            // The outline of the page: the editor's sections (h3) sit under this heading, as the
            // results' cards sit under the scenario's title (h2).
            <h2 class="sr-only">"Scenario editor"</h2>
            <ProblemsPanel />
            <div class="tabs-bar">
            <div class="tabs" role="tablist">
                {TABS.iter().map(|(tab, label, sec)| {
                    let tab = *tab;
                    let sec: &'static str = sec;
                    view! {
                        <button
                            role="tab"
                            id=format!("tab-{sec}")
                            aria-selected=move || if app.chrome.tab.get() == tab { "true" } else { "false" }
                            class:active=move || app.chrome.tab.get() == tab
                            on:click=move |_| app.chrome.tab.set(tab)
                        >
                            {*label}
                            {move || { let n = count(sec); (n > 0).then(|| view! { <span class="tab-err">{n}</span> }) }}
                        </button>
                    }
                }).collect_view()}
            </div>
                <button
                    class="icon-btn widen"
                    aria-pressed=move || if app.chrome.wide_editor.get() { "true" } else { "false" }
                    aria-label=move || if app.chrome.wide_editor.get() { "narrow the editor" } else { "widen the editor" }
                    title=move || if app.chrome.wide_editor.get() { "narrow the editor" } else { "widen the editor" }
                    on:click=move |_| app.chrome.wide_editor.update(|w| *w = !*w)
                >
                    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
                        <path d="M1 8h14M11 4l4 4-4 4M5 4L1 8l4 4" fill="none" stroke="currentColor" stroke-width="1.6" />
                    </svg>
                </button>
            </div>
            <div class="tab-panel" role="tabpanel">
                {move || match app.chrome.tab.get() {
                    Tab::Capacity => view! { <CapacityEditor /> }.into_any(),
                    Tab::Shares => view! { <SharesEditor /> }.into_any(),
                    Tab::Jobs => view! { <JobsEditor /> }.into_any(),
                    Tab::Actions => view! { <ActionsEditor /> }.into_any(),
                    Tab::Settings => view! { <SettingsEditor /> }.into_any(),
                }}
            </div>
        </aside>
    }
}
