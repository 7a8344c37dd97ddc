//! Who lends how much to whom over time (R15 attribution), per instance type.

use leptos::prelude::*;

use crate::charts::{lending_svg, time_scale, M_LEFT};
use crate::ui::state::use_app;

const HEIGHT: f64 = 170.0;

#[component]
pub fn LendingCharts() -> impl IntoView {
    let app = use_app();
    let n = Memo::new(move |_| app.run.handle.with(|r| r.as_ref().map_or(0, |r| r.data.types.len())));
    let width = Memo::new(move |_| (app.chrome.width.get() - 40.0).max(360.0));
    let pairs = move || {
        let colors = app.share_colors();
        app.run.handle.with(|r| {
            let Some(r) = r.as_ref() else { return Vec::new() };
            let mut v: Vec<(String, String, String)> = Vec::new();
            for t in &r.data.types {
                for (l, b, _) in &t.flows {
                    let k = (
                        r.data.share_names[*l].clone(),
                        r.data.share_names[*b].clone(),
                        colors.get(*l).cloned().unwrap_or_default(),
                    );
                    if !v.contains(&k) {
                        v.push(k);
                    }
                }
            }
            v
        })
    };
    view! {
        <section class="card" aria-labelledby="lend-h">
            <header class="card-head">
                <h3 id="lend-h">"Lending: who lends to whom"</h3>
                <div class="legend">
                    {move || pairs().into_iter().map(|(l, b, c)| view! {
                        <span class="legend-item"><span class="swatch" style:background=c></span>{format!("{l} → {b}")}</span>
                    }).collect_view()}
                    <span class="legend-item muted">"fill = lender, stripes = borrower"</span>
                </div>
            </header>
            {move || (0..n.get()).map(|ti| {
                let svg = Memo::new(move |_| {
                    let colors = app.share_colors();
                    let w = width.get();
                    app.run.handle.with(|r| r.as_ref().map(|r| lending_svg(&r.data, ti, &colors, w, HEIGHT, app.play.view.get())).unwrap_or_default())
                });
                let name = move || app.run.handle.with(|r| r.as_ref().and_then(|r| r.data.types.get(ti)).map(|t| t.name.clone()).unwrap_or_default());
                let cx = move || {
                    let (a, b) = app.window();
                    time_scale(a, b, M_LEFT, width.get()).map(app.play.now.get() as f64).clamp(M_LEFT, width.get())
                };
                view! {
                    <figure class="chart">
                        <figcaption>{name}</figcaption>
                        <div class="chart-area" style:height=format!("{HEIGHT}px")>
                            <div class="svg-host" inner_html=move || svg.get()></div>
                            <div class="cursor" style:left=move || format!("{:.1}px", cx())></div>
                        </div>
                    </figure>
                }
            }).collect_view()}
        </section>
    }
}
