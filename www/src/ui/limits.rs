//! An editor for a list of capacity limits (`{capacityUnit, maxCapacity}`), used by quota
//! shares, quota share updates and service environment updates.

use std::sync::Arc;

use leptos::prelude::*;
use quotasim::model::{CapacityLimit, Scenario};

use crate::ui::fields::field_error;
use crate::ui::keyed::LocalRows;
use crate::ui::state::use_app;

type Read = Arc<dyn Fn(&Scenario) -> Vec<CapacityLimit> + Send + Sync>;
type Write = Arc<dyn Fn(&mut Scenario, Vec<CapacityLimit>) + Send + Sync>;

/// Instance types to offer: the service environment's, then the catalogue's.
pub fn type_options(s: &Scenario) -> Vec<String> {
    let mut v: Vec<String> =
        s.service_environment.capacity_limits.iter().map(|l| l.capacity_unit.clone()).collect();
    for (n, _) in quotasim::model::GPU_CATALOGUE {
        if !v.iter().any(|x| x == n) {
            v.push(n.to_string());
        }
    }
    v
}

/// Capacity limits at `path`, read and written through `read` / `write`; at most `max` rows.
pub fn limits_editor(
    path: impl Into<Signal<String>>,
    read: Read,
    write: Write,
    max: usize,
    min_capacity: i64,
) -> impl IntoView {
    let app = use_app();
    let path: Signal<String> = path.into();
    let r = read.clone();
    let len = Memo::new(move |_| app.doc.scenario.with(|s| r(s).len()));
    let ids = LocalRows::new(len.get_untracked());
    let rows = {
        let (read, write) = (read.clone(), write.clone());
        view! {
            <For
                each=move || ids.fit(len.get())
                key=|id| *id
                children=move |id| {
                    let row = Row { path, id, ids, len };
                    limit_row(row, read.clone(), write.clone(), min_capacity)
                }
            />
        }
    };
    let group_err = field_error(path);
    let add = {
        let (read, write) = (read.clone(), write.clone());
        move |_| {
            app.doc.update(|s| {
                let mut v = read(s);
                let used: Vec<String> = v.iter().map(|l| l.capacity_unit.clone()).collect();
                let ty = type_options(s).into_iter().find(|t| !used.contains(t)).unwrap_or_default();
                v.push(CapacityLimit::new(&ty, 1));
                write(s, v);
            })
        }
    };
    view! {
        <div class="limits">
            <div class="limits-head"><span>"instance type"</span><span>"max instances"</span></div>
            {rows}
            <span class="field-error" role="alert">{move || group_err.get()}</span>
            <button class="btn small ghost" on:click=add disabled=move || { len.get() >= max }>
                "+ capacity limit"
            </button>
        </div>
    }
}

/// A limit row: the list's path, the row's id and the editor's ids and length.
#[derive(Clone, Copy)]
struct Row {
    path: Signal<String>,
    id: u64,
    ids: LocalRows,
    len: Memo<usize>,
}

fn limit_row(row: Row, read: Read, write: Write, min_capacity: i64) -> impl IntoView {
    let app = use_app();
    let Row { path, id, ids, len } = row;
    let pos = ids.pos(id, len);
    let (ix, at) = (move || pos.now(), move || pos.at());
    let p_unit = Signal::derive(move || format!("{}[{}].capacityUnit", path.get(), ix()));
    let p_max = Signal::derive(move || format!("{}[{}].maxCapacity", path.get(), ix()));
    let e_unit = field_error(p_unit);
    let e_max = field_error(p_max);
    let (r1, r2, r3) = (read.clone(), read.clone(), read.clone());
    let (w1, w2, w3) = (write.clone(), write.clone(), write.clone());
    let get_unit = move || {
        app.doc.scenario.with(|s| r1(s).get(ix()).map(|l| l.capacity_unit.clone()).unwrap_or_default())
    };
    let get_unit2 = get_unit.clone();
    view! {
        <div class="limit-row">
            <select
                aria-label=move || format!("instance type of capacity limit {}", pos.number())
                data-path=p_unit
                class:invalid=move || e_unit.get().is_some()
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    app.doc.update(|s| {
                        let mut l = r2(s);
                        if let Some(x) = l.get_mut(at()) {
                            x.capacity_unit = v;
                        }
                        w1(s, l);
                    })
                }
            >
                {move || {
                    let cur = get_unit();
                    let mut opts = app.doc.scenario.with(type_options);
                    if !opts.contains(&cur) {
                        opts.insert(0, cur.clone());
                    }
                    opts.into_iter()
                        .map(|o| {
                            let sel = o == cur;
                            view! { <option value=o.clone() selected=sel>{o.clone()}</option> }
                        })
                        .collect_view()
                }}
            </select>
            <input
                type="number"
                min=min_capacity
                aria-label=move || format!("max instances of {}", get_unit2())
                data-path=p_max
                class:invalid=move || e_max.get().is_some()
                prop:value=move || {
                    app.doc.scenario.with(|s| r3(s).get(ix()).map(|l| l.max_capacity.to_string()).unwrap_or_default())
                }
                on:input={
                    let read = read.clone();
                    move |ev| {
                        if let Ok(n) = event_target_value(&ev).trim().parse::<i64>() {
                            app.doc.update(|s| {
                                let mut l = read(s);
                                if let Some(x) = l.get_mut(at()) {
                                    x.max_capacity = n;
                                }
                                w2(s, l);
                            })
                        }
                    }
                }
            />
            <button
                class="icon-btn"
                aria-label=move || format!("remove capacity limit {}", pos.number())
                title="remove"
                on:click=move |_| {
                    app.doc.update(|s| {
                        let mut l = read(s);
                        let i = at();
                        if i < l.len() {
                            l.remove(i);
                            ids.remove(i);
                        }
                        w3(s, l);
                    })
                }
            >
                "×"
            </button>
            <span class="field-error">{move || e_unit.get().or_else(|| e_max.get())}</span>
        </div>
    }
}
