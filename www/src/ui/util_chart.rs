//! Utilization over time per instance type, stacked by share (own solid, borrowed hatched),
//! with capacity and quota reference lines, a cursor at the current instant and a tooltip.

use leptos::prelude::*;

use crate::charts::{time_scale, utilization_svg, M_LEFT};
use crate::geometry::format_time;
use crate::ui::export::ExportButtons;
use crate::ui::legend::Legend;
use crate::ui::state::use_app;

const HEIGHT: f64 = 230.0;

#[component]
pub fn UtilizationCharts() -> impl IntoView {
    let app = use_app();
    let n = Memo::new(move |_| app.run.handle.with(|r| r.as_ref().map_or(0, |r| r.data.types.len())));
    view! {
        <section class="card" aria-labelledby="util-h">
            <header class="card-head">
                <h3 id="util-h">"Utilization by quota share"</h3>
                <Legend hatched=true />
            </header>
            {move || (0..n.get()).map(|ti| view! { <UtilChart ti=ti /> }).collect_view()}
            {move || (n.get() == 0).then(|| view! { <p class="muted">"Nothing to show yet: the scenario has not run."</p> })}
        </section>
    }
}

#[component]
fn UtilChart(ti: usize) -> impl IntoView {
    let app = use_app();
    let hover = RwSignal::new(None::<(f64, u64)>);
    let width = Memo::new(move |_| (app.chrome.width.get() - 40.0).max(300.0));
    let svg = Memo::new(move |_| {
        let colors = app.share_colors();
        let w = width.get();
        app.play.view.track();
        app.run.handle.with(|r| {
            r.as_ref()
                .map(|r| utilization_svg(&r.data, ti, &colors, w, HEIGHT, app.play.view.get_untracked()))
                .unwrap_or_default()
        })
    });
    let title = move || {
        app.run.handle.with(|r| {
            r.as_ref()
                .and_then(|r| r.data.types.get(ti))
                .map(|t| {
                    format!("{} · {} GPU{} per instance", t.name, t.gpus, if t.gpus == 1 { "" } else { "s" })
                })
                .unwrap_or_default()
        })
    };
    let type_name = move || {
        app.run.handle.with(|r| {
            r.as_ref().and_then(|r| r.data.types.get(ti)).map(|t| t.name.clone()).unwrap_or_default()
        })
    };
    let scale = move || {
        let (a, b) = app.window();
        time_scale(a, b, M_LEFT, width.get())
    };
    let cursor_x = move || scale().map(app.play.now.get() as f64).clamp(M_LEFT, width.get());
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let x = crate::ui::dom::local_x(&ev);
        let t = scale().invert(x).max(0.0) as u64;
        if x >= M_LEFT && t <= app.window().1 {
            hover.set(Some((x, t)));
        } else {
            hover.set(None);
        }
    };
    let tooltip = move || {
        let (x, t) = hover.get()?;
        let colors = app.share_colors();
        app.run.handle.with(|r| {
            let r = r.as_ref()?;
            let ts = r.data.types.get(ti)?;
            let i = r.data.sample_index(t);
            let rows: Vec<_> = r
                .data
                .share_names
                .iter()
                .enumerate()
                .filter(|(s, _)| ts.own[*s][i] + ts.borrowed[*s][i] + ts.quota[*s][i] > 0)
                .map(|(s, n)| {
                    let c = colors.get(s).cloned().unwrap_or_default();
                    view! {
                        <div class="tt-row">
                            <span class="dot" style:background=c></span>
                            <span class="tt-name">{n.clone()}</span>
                            <span>{format!("{} own", ts.own[s][i])}</span>
                            <span class="tt-b">{format!("{} borrowed", ts.borrowed[s][i])}</span>
                            <span class="muted">{format!("quota {}", ts.quota[s][i])}</span>
                        </div>
                    }
                })
                .collect();
            let used: u64 = (0..r.data.share_names.len()).map(|s| ts.own[s][i] + ts.borrowed[s][i]).sum();
            let left = if x > width.get() - 260.0 { x - 250.0 } else { x + 14.0 };
            Some(view! {
                <div class="tooltip" style:left=format!("{left:.0}px") style:top="8px">
                    <div class="tt-time">{format_time(t)} {if r.data.exact { "" } else { " (sampled)" }}</div>
                    <div class="tt-total">{format!("{used} of {} instances in use ({} GPUs)", ts.capacity[i], used * ts.gpus)}</div>
                    {rows}
                </div>
            })
        })
    };
    view! {
        <figure class="chart" data-export-scope="">
            <figcaption><span>{title}</span><ExportButtons name=Signal::derive(move || format!("utilization-{}", type_name())) /></figcaption>
            <div
                class="chart-area"
                style:height=format!("{HEIGHT}px")
                on:mousemove=on_move
                on:mouseleave=move |_| hover.set(None)
                on:click=move |_| if let Some((_, t)) = hover.get_untracked() { app.play.playing.set(false); app.play.now.set(t) }
            >
                <div class="svg-host" inner_html=move || svg.get()></div>
                <div class="cursor" style:left=move || format!("{:.1}px", cursor_x())></div>
                {move || hover.get().map(|(x, _)| view! { <div class="hover-line" style:left=format!("{x:.1}px")></div> })}
                {tooltip}
            </div>
        </figure>
    }
}
