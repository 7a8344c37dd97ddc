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
            return Some((
                String::from("Synthetic: 10,000 generated jobs"),
                String::from(
                    "A deterministic synthetic workload from the engine's generator: six teams, two instance types, Poisson \
                     arrivals, heavy-tailed durations, mixed priorities and checkpoints, offered at 95 % of the owned \
                     capacity. Use it to feel the playground's speed; the timeline shows preempted jobs only.",
                ),
            ));
        }
        presets::by_id(&id).map(|p| (p.title.to_string(), p.explanation.to_string()))
    };
    let desc = move || app.doc.scenario.with(|s| s.description.clone());
    view! {
        <section class="preset-info" aria-label="about this scenario">
            {move || match text() {
                Some((t, e)) => view! { <h2>{t}</h2><p>{e}</p> }.into_any(),
                None => view! { <h2>{move || app.doc.scenario.with(|s| s.name.clone().unwrap_or_else(|| "Custom scenario".into()))}</h2><p>{desc}</p> }.into_any(),
            }}
        </section>
    }
}
