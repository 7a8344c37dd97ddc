//! The share colour legend shared by the charts.

use leptos::prelude::*;

use crate::ui::state::use_app;

#[component]
pub fn Legend(#[prop(optional)] hatched: bool) -> impl IntoView {
    let app = use_app();
    let items = move || {
        // The run's shares (what the charts draw), each in its own colour.
        let colors = app.share_colors();
        app.share_names_shown()
            .into_iter()
            .zip(colors)
            .map(|(n, c)| view! { <span class="legend-item"><span class="swatch" style:background=c></span>{n}</span> })
            .collect_view()
    };
    view! {
        <div class="legend" aria-label="legend">
            {items}
            {hatched.then(|| view! {
                <span class="legend-item"><span class="swatch solid-demo"></span>"own quota"</span>
                <span class="legend-item"><span class="swatch hatch-demo"></span>"borrowed"</span>
                <span class="legend-item"><span class="swatch line-demo"></span>"capacity"</span>
                <span class="legend-item"><span class="swatch dot-demo"></span>"quotas (stacked)"</span>
            })}
        </div>
    }
}
