//! The problems panel: every validation error and warning, with its field path; a click opens
//! the editor tab the field is in.

use leptos::prelude::*;
use quotasim::Severity;

use crate::edit::section_of;
use crate::ui::dom;
use crate::ui::state::{use_app, Tab};

#[component]
pub fn ProblemsPanel() -> impl IntoView {
    let app = use_app();
    let errors = Memo::new(move |_| {
        app.doc.problems.with(|p| p.iter().filter(|x| x.severity == Severity::Error).count())
    });
    let warnings = Memo::new(move |_| {
        app.doc.problems.with(|p| p.iter().filter(|x| x.severity == Severity::Warning).count())
    });
    let open = move |path: String| {
        let tab = match section_of(&path) {
            "shares" => Tab::Shares,
            "jobs" => Tab::Jobs,
            "actions" => Tab::Actions,
            "settings" => Tab::Settings,
            _ => Tab::Capacity,
        };
        app.chrome.tab.set(tab);
        // Then move the focus to the field itself, once the tab has rendered.
        gloo_timers::callback::Timeout::new(60, move || dom::focus_path(&path)).forget();
    };
    view! {
        <section class="problems" aria-label="validation problems" aria-live="polite">
            <div class="problems-head">
                {move || if errors.get() == 0 {
                    view! { <span class="badge ok">"✓ valid"</span> }.into_any()
                } else {
                    view! { <span class="badge err">{format!("{} error{} — not run", errors.get(), if errors.get() == 1 { "" } else { "s" })}</span> }.into_any()
                }}
                {move || (warnings.get() > 0).then(|| view! { <span class="badge warn">{format!("{} warning{}", warnings.get(), if warnings.get() == 1 { "" } else { "s" })}</span> })}
            </div>
            <ul class="problem-list">
                {move || app.doc.problems.get().into_iter().take(50).map(|p| {
                    let path = p.path.clone();
                    let cls = if p.is_error() { "problem error" } else { "problem warning" };
                    view! {
                        <li class=cls>
                            <button class="link" on:click=move |_| open(path.clone())>
                                <code>{if p.path.is_empty() { String::from("scenario") } else { p.path.clone() }}</code>
                            </button>
                            " " {p.message.clone()}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}
