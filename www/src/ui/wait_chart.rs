//! Wait time (first start − submit) per share as a cumulative distribution: a step line per
//! share in its colour, the jobs that never started counted in the key, and each share's p50
//! and p90 in a small table (the chart's text alternative).

use leptos::prelude::*;

use crate::ui::export::ExportButtons;
use crate::ui::state::use_app;
use crate::waits::{legend_text, quantile_text, share_waits, wait_cdf_svg_of};

const HEIGHT: f64 = 220.0;

#[component]
pub fn WaitChart() -> impl IntoView {
    let app = use_app();
    let width = Memo::new(move |_| (app.chrome.width.get() - 40.0).max(280.0));
    // Gathered (and sorted) once a run, drawn from that.
    let shares = Memo::new(move |_| {
        app.run.handle.with(|r| r.as_ref().map(|r| share_waits(&r.data)).unwrap_or_default())
    });
    let svg = Memo::new(move |_| {
        let colors = app.share_colors();
        let w = width.get();
        if app.run.handle.with(Option::is_none) {
            return String::new();
        }
        shares.with(|s| wait_cdf_svg_of(s, &colors, w, HEIGHT))
    });
    let has_run = move || app.run.handle.with(Option::is_some);
    view! {
        <section class="card wait-cdf" aria-labelledby="wait-h" data-export-scope="">
            <header class="card-head">
                <h3 id="wait-h">"Wait time by share"</h3>
                <div class="legend" aria-label="shares, their jobs and the jobs never started">
                    {move || {
                        let colors = app.share_colors();
                        shares.get().iter().enumerate().map(|(i, s)| {
                            let c = colors.get(i).cloned().unwrap_or_default();
                            view! { <span class="legend-item"><span class="swatch line-swatch" style:background=c></span>{legend_text(s)}</span> }
                        }).collect_view()
                    }}
                </div>
                <ExportButtons name="wait-time-cdf" />
            </header>
            <Show when=has_run fallback=|| view! { <p class="muted">"Nothing to show yet: the scenario has not run."</p> }>
                <p class="muted small-note">"Share of each team's jobs started within a wait (first start − submit). Jobs that never started count in the total, so a line below 100\u{a0}% at the right edge means some never ran."</p>
                {move || (app.start() > 0).then(|| view! {
                    <p class="muted small-note">"A live state (R28): jobs that had started before its startAt (running then, or preempted before it) are left out, as in the summary; a job queued at startAt waits from its submitAt."</p>
                })}
                <figure class="chart">
                    <div class="chart-area" style:height=format!("{HEIGHT}px")>
                        <div class="svg-host" inner_html=move || svg.get()></div>
                    </div>
                </figure>
                <div class="table-scroll" tabindex="0" role="region" aria-label="wait time percentiles per share">
                    <table class="grid-table wait-table">
                        <caption class="sr-only">"Wait time percentiles per share, of all its jobs"</caption>
                        <thead><tr>
                            <th scope="col">"share"</th><th scope="col">"jobs"</th><th scope="col">"never started"</th>
                            <th scope="col">"wait p50"</th><th scope="col">"wait p90"</th>
                        </tr></thead>
                        <tbody>
                            {move || {
                                let colors = app.share_colors();
                                shares.get().into_iter().enumerate().map(|(i, s)| {
                                    let c = colors.get(i).cloned().unwrap_or_default();
                                    let n = s.total();
                                    view! {
                                        <tr>
                                            <td><span class="dot" style:background=c></span>{s.name.clone()}</td>
                                            <td class="num">{n}</td>
                                            <td class="num">{s.censored}</td>
                                            <td class="num">{quantile_text(s.quantile(0.5), n)}</td>
                                            <td class="num">{quantile_text(s.quantile(0.9), n)}</td>
                                        </tr>
                                    }
                                }).collect_view()
                            }}
                        </tbody>
                    </table>
                </div>
            </Show>
        </section>
    }
}
