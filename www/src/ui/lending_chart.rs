//! Who lends how much to whom over time (R15 attribution), per instance type.

use leptos::prelude::*;

use crate::charts::{lending_svg, time_scale, M_LEFT};
use crate::ui::export::ExportButtons;
use crate::ui::state::use_app;

const HEIGHT: f64 = 170.0;

#[component]
pub fn LendingCharts() -> impl IntoView {
    let app = use_app();
    let n = Memo::new(move |_| app.run.handle.with(|r| r.as_ref().map_or(0, |r| r.data.types.len())));
    let width = Memo::new(move |_| (app.chrome.width.get() - 40.0).max(300.0));
    let key = move || {
        let colors = app.share_colors();
        app.run
            .handle
            .with(|r| r.as_ref().map(|r| crate::charts::lending_key(&r.data, &colors)).unwrap_or_default())
    };
    view! {
        <section class="card" aria-labelledby="lend-h">
            <header class="card-head">
                <h3 id="lend-h">"Lending: who lends to whom"</h3>
                <div class="legend">
                    {move || key().into_iter().map(|k| {
                        let label = format!("{} lends to {}", k.lender, k.borrower);
                        view! {
                            <span class="legend-item" title=label.clone() aria-label=label>
                                <span class="swatch swatch-flow" style:background=k.background></span>
                                {format!("{} → {}", k.lender, k.borrower)}
                            </span>
                        }
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
                    <figure class="chart" data-export-scope="">
                        <figcaption><span>{name}</span><ExportButtons name=Signal::derive(move || format!("lending-{}", name())) /></figcaption>
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
