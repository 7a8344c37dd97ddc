//! Who preempted whom: a table with a row per preempting share and a column per victim share,
//! each cell the number of preemptions (reclaims R18 and in-share R20 told apart) and the
//! GPU-hours of work they lost; preemptions without a preemptor (a capacity limit reduced,
//! R22/R23) get their own row. Downloadable as CSV.

use leptos::prelude::*;

use crate::decisions::{matrix_csv, preemption_matrix, MatrixCell};
use crate::ui::dom::download;
use crate::ui::state::use_app;

fn cell_view(c: &MatrixCell) -> AnyView {
    if c.count() == 0 {
        return view! { <td class="num muted">"–"</td> }.into_any();
    }
    let mut kinds = Vec::new();
    if c.reclaim > 0 {
        kinds.push(format!("{} reclaim", c.reclaim));
    }
    if c.in_share > 0 {
        kinds.push(format!("{} in-share", c.in_share));
    }
    if c.capacity > 0 {
        kinds.push(format!("{} limit reduced", c.capacity));
    }
    let kinds = kinds.join(" · ");
    view! {
        <td class="num mcell">
            <span class="m-count">{c.count()}</span>
            <span class="m-kinds">{kinds}</span>
            <span class="m-lost">{format!("{:.2} GPU\u{2011}h lost", c.gpu_hours_lost)}</span>
        </td>
    }
    .into_any()
}

#[component]
pub fn PreemptionMatrix() -> impl IntoView {
    let app = use_app();
    let m = Memo::new(move |_| app.run.handle.with(|r| r.as_ref().map(|r| preemption_matrix(&r.data))));
    let csv = move |_| {
        if let Some(m) = m.get_untracked() {
            download("preemption-matrix.csv", "text/csv", &matrix_csv(&m));
        }
    };
    view! {
        <section class="card matrix" aria-labelledby="matrix-h">
            <header class="card-head">
                <h3 id="matrix-h">"Who preempted whom"</h3>
                <span class="muted">"rows: preempting share · columns: victim share"</span>
                <button class="btn small" data-export="csv" on:click=csv>"CSV"</button>
            </header>
            {move || match m.get() {
                None => view! { <p class="muted">"Nothing to show yet: the scenario has not run."</p> }.into_any(),
                Some(m) if m.total() == 0 => view! { <p class="muted">"No preemptions in this run."</p> }.into_any(),
                Some(m) => {
                    let colors = app.share_colors();
                    let dot = move |i: usize| colors.get(i).cloned().unwrap_or_default();
                    let head = m.shares.iter().enumerate().map(|(i, n)| {
                        let c = dot(i);
                        view! { <th scope="col"><span class="dot" style:background=c></span>{n.clone()}</th> }
                    }).collect_view();
                    let rows = m.cells.iter().enumerate().map(|(i, row)| {
                        let c = dot(i);
                        view! {
                            <tr>
                                <th scope="row"><span class="dot" style:background=c></span>{m.shares[i].clone()}</th>
                                {row.iter().map(cell_view).collect_view()}
                            </tr>
                        }
                    }).collect_view();
                    let capacity = m.no_preemptor.iter().any(|c| c.count() > 0).then(|| view! {
                        <tr>
                            <th scope="row" class="muted">"limit reduced (no preemptor)"</th>
                            {m.no_preemptor.iter().map(cell_view).collect_view()}
                        </tr>
                    });
                    view! {
                        <div class="table-scroll" tabindex="0" role="region" aria-label="preemptions by preempting and victim share">
                            <table class="grid-table matrix-table">
                                <caption class="sr-only">"Preemptions by preempting share (rows) and victim share (columns), with the GPU-hours lost"</caption>
                                <thead><tr><th scope="col">"preemptor ↓ victim →"</th>{head}</tr></thead>
                                <tbody>{rows}{capacity}</tbody>
                            </table>
                        </div>
                    }.into_any()
                }
            }}
        </section>
    }
}
