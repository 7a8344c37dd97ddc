//! The capacity editor: instance types with their GPU counts and the service environment's
//! limit per type (R1).

use leptos::prelude::*;
use quotasim::model::{CapacityLimit, GPU_CATALOGUE};

use crate::edit::{gpus_of, rename_type, set_gpus};
use crate::rows::List;
use crate::ui::fields::{field_error, text_field};
use crate::ui::keyed::Pos;
use crate::ui::state::use_app;

#[component]
pub fn CapacityEditor() -> impl IntoView {
    let app = use_app();
    let (pick, set_pick) = signal(String::from("ml.p5.48xlarge"));
    let add = move |_| {
        let ty = pick.get_untracked();
        app.doc.edit(|s, r| {
            if !s.service_environment.capacity_limits.iter().any(|l| l.capacity_unit == ty) {
                s.service_environment.capacity_limits.push(CapacityLimit::new(&ty, 4));
                r.push(List::Types, 1);
                if !s.instance_types.iter().any(|t| t.name == ty) {
                    if let Some(g) = quotasim::model::catalogue_gpus(&ty) {
                        set_gpus(s, &ty, g);
                    }
                }
            }
        })
    };
    let name_field = text_field(
        "Service environment name",
        String::from("serviceEnvironment.serviceEnvironmentName"),
        move || {
            app.doc
                .scenario
                .with(|s| s.service_environment.service_environment_name.clone().unwrap_or_default())
        },
        move |v| {
            app.doc.update(|s| {
                s.service_environment.service_environment_name = if v.is_empty() { None } else { Some(v) }
            })
        },
    );
    let list_err = field_error(String::from("serviceEnvironment.capacityLimits"));
    view! {
        <section class="editor-section" aria-labelledby="cap-h">
            <h3 id="cap-h">"Service environment"</h3>
            <p class="help">
                "Capacity is counted in instances of each type (R1). A job whose type has no limit here never runs. "
                "GPU counts only feed GPU-hour metrics."
            </p>
            {name_field}
            <table class="grid-table cap-table">
                <thead>
                    <tr><th>"Instance type"</th><th>"GPUs / instance"</th><th>"Max instances"</th><th><span class="sr-only">"Remove"</span></th></tr>
                </thead>
                <tbody>
                    <For each=move || app.doc.rows.with(|r| r.ids(List::Types).to_vec()) key=|id| *id children=type_row />
                </tbody>
            </table>
            <span class="field-error" role="alert">{move || list_err.get()}</span>
            <div class="row-actions">
                <label class="field inline">
                    <span class="field-label">"Add a SageMaker GPU type"</span>
                    <select on:change=move |ev| set_pick.set(event_target_value(&ev)) prop:value=move || pick.get()>
                        {GPU_CATALOGUE
                            .iter()
                            .map(|(n, g)| {
                                let sel = *n == "ml.p5.48xlarge";
                                view! { <option value=*n selected=sel>{format!("{n} ({g} GPUs)")}</option> }
                            })
                            .collect_view()}
                    </select>
                </label>
                <button class="btn" on:click=add>"Add type"</button>
            </div>
        </section>
    }
}

/// The row of the instance type with row id `id` (rows.rs): its paths and labels follow its
/// position, so deleting a row above it changes neither its inputs nor their focus.
fn type_row(id: u64) -> impl IntoView {
    let app = use_app();
    let pos = Pos::new(move || app.doc.position(List::Types, id));
    let (ix, at) = (move || pos.now(), move || pos.at());
    let name = move || {
        app.doc.scenario.with(|s| {
            s.service_environment
                .capacity_limits
                .get(ix())
                .map(|l| l.capacity_unit.clone())
                .unwrap_or_default()
        })
    };
    let p_unit = Signal::derive(move || format!("serviceEnvironment.capacityLimits[{}].capacityUnit", ix()));
    let p_max = Signal::derive(move || format!("serviceEnvironment.capacityLimits[{}].maxCapacity", ix()));
    let e_unit = field_error(p_unit);
    let e_max = field_error(p_max);
    let gpu_path = Memo::new(move |_| {
        let n = name();
        app.doc.scenario.with(|s| {
            s.instance_types
                .iter()
                .position(|t| t.name == n)
                .map(|k| format!("instanceTypes[{k}].gpus"))
                .unwrap_or_default()
        })
    });
    let e_gpu = Signal::derive(move || {
        let p = gpu_path.get();
        app.doc.problems.with(|ps| crate::edit::error_at(ps, &p))
    });
    let warn = Signal::derive(move || {
        app.doc.problems.with(|ps| {
            ps.iter().find(|p| p_max.with(|m| p.path == *m) && !p.is_error()).map(|p| p.message.clone())
        })
    });
    view! {
        <tr>
            <td class="cell" class:invalid=move || e_unit.get().is_some()>
                <input
                    type="text"
                    list="gpu-types"
                    spellcheck="false"
                    aria-label=move || format!("instance type {}", pos.number())
                    data-path=p_unit
                    prop:value=name
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        app.doc.update(|s| {
                            let old = s.service_environment.capacity_limits.get(at()).map(|l| l.capacity_unit.clone());
                            if let Some(old) = old {
                                rename_type(s, &old, &v);
                            }
                        })
                    }
                />
                <span class="cell-error">{move || e_unit.get()}</span>
            </td>
            <td class="cell" class:invalid=move || e_gpu.get().is_some()>
                <input
                    type="number"
                    min="0"
                    aria-label=move || format!("GPUs per {}", name())
                    prop:value=move || {
                        let n = name();
                        app.doc.scenario.with(|s| gpus_of(s, &n).to_string())
                    }
                    on:input=move |ev| {
                        if let Ok(g) = event_target_value(&ev).trim().parse::<i64>() {
                            let n = name();
                            app.doc.update(|s| set_gpus(s, &n, g));
                        }
                    }
                />
                <span class="cell-error">{move || e_gpu.get()}</span>
            </td>
            <td class="cell" class:invalid=move || e_max.get().is_some()>
                <input
                    type="number"
                    min="0"
                    aria-label=move || format!("service environment limit of {}", name())
                    data-path=p_max
                    prop:value=move || {
                        app.doc.scenario.with(|s| {
                            s.service_environment.capacity_limits.get(ix()).map(|l| l.max_capacity.to_string()).unwrap_or_default()
                        })
                    }
                    on:input=move |ev| {
                        if let Ok(n) = event_target_value(&ev).trim().parse::<i64>() {
                            app.doc.update(|s| {
                                if let Some(l) = s.service_environment.capacity_limits.get_mut(at()) {
                                    l.max_capacity = n;
                                }
                            })
                        }
                    }
                />
                <span class="cell-error">{move || e_max.get()}</span>
                <span class="cell-warn">{move || warn.get()}</span>
            </td>
            <td>
                <button
                    class="icon-btn"
                    aria-label=move || format!("remove {}", name())
                    on:click=move |_| {
                        app.doc.edit(|s, r| {
                            let i = at();
                            if i < s.service_environment.capacity_limits.len() {
                                s.service_environment.capacity_limits.remove(i);
                                r.remove(List::Types, i);
                            }
                        })
                    }
                >
                    "×"
                </button>
            </td>
        </tr>
    }
}
