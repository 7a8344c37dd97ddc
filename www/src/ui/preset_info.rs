//! The explanation paragraph of the loaded preset.

use leptos::prelude::*;

use crate::presets;
use crate::ui::header::BENCH_ID;
use crate::ui::state::use_app;

#[component]
pub fn PresetInfo() -> impl IntoView {
    let app = use_app();
    let text = move || {
        let id = app.doc.preset.get()?;
        if id == BENCH_ID {
            return Some((String::from(presets::BENCH_TITLE), String::from(presets::BENCH_EXPLANATION)));
        }
        presets::by_id(&id).map(|p| (p.title.to_string(), p.explanation.to_string()))
    };
    let desc = move || app.doc.scenario.with(|s| s.description.clone());
    // An edited preset: its walk-through no longer describes the run, so it is not shown as if
    // it did. The built-in scenario is made once per preset, compared on every edit.
    let original = Memo::new(move |_| app.doc.preset.get().and_then(|id| presets::builtin(&id)));
    let modified =
        Memo::new(move |_| original.with(|o| o.as_ref().is_some_and(|o| app.doc.scenario.with(|s| s != o))));
    let restore = move |_| {
        if let (Some(id), Some(s)) = (app.doc.preset.get_untracked(), original.get_untracked()) {
            app.load(s, app.doc.colors.get_untracked(), Some(id));
        }
    };
    view! {
        <section class="preset-info" aria-label="about this scenario">
            {move || match text() {
                Some((t, _)) if modified.get() => view! {
                    <h2>{t}" "<span class="badge modified">"modified"</span></h2>
                    <p class="muted">
                        "You have changed this preset, so its walk-through no longer describes the run on screen. "
                        <button class="link-btn" on:click=restore>"Restore the preset"</button>
                        " (your version goes to History)."
                    </p>
                }.into_any(),
                Some((t, e)) => view! { <h2>{t}</h2><p>{e}</p> }.into_any(),
                None => view! { <h2>{move || app.doc.scenario.with(|s| s.name.clone().unwrap_or_else(|| "Custom scenario".into()))}</h2><p>{desc}</p> }.into_any(),
            }}
        </section>
    }
}
