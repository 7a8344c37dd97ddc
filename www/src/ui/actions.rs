//! Timed actions (R23): priority updates, terminations, quota share updates and capacity
//! changes.

use std::sync::Arc;

use leptos::prelude::*;
use quotasim::model::{
    Action, ActionKind, QuotaShareUpdate, ResourceSharing, SharePreemption, ShareState, Strategy, Toggle,
};

use crate::rows::List;
use crate::ui::fields::{field_error, num_field, select_field, text_field};
use crate::ui::keyed::Pos;
use crate::ui::limits::limits_editor;
use crate::ui::state::use_app;

/// A path under `actions[index]` of the card at `pos`, following the index.
fn action_path(pos: Pos, rest: &'static str) -> Signal<String> {
    Signal::derive(move || format!("actions[{}]{rest}", pos.now()))
}

const KINDS: [(&str, &str); 4] = [
    ("updateServiceJob", "Update priority"),
    ("terminateServiceJob", "Terminate job"),
    ("updateQuotaShare", "Update quota share"),
    ("updateServiceEnvironment", "Change capacity"),
];

fn default_action(kind: &str, s: &quotasim::model::Scenario, at: i64) -> Action {
    let job = s.jobs.first().map(|j| j.job_name.as_str().to_owned()).unwrap_or_default();
    let share = s.quota_shares.first().map(|q| q.quota_share_name.clone()).unwrap_or_default();
    let kind = match kind {
        "terminateServiceJob" => {
            ActionKind::TerminateServiceJob { job_name: job, reason: "Terminated by user".into() }
        }
        "updateQuotaShare" => ActionKind::UpdateQuotaShare(QuotaShareUpdate {
            quota_share_name: share,
            capacity_limits: s.quota_shares.first().map(|q| q.capacity_limits.clone()),
            ..QuotaShareUpdate::default()
        }),
        "updateServiceEnvironment" => ActionKind::UpdateServiceEnvironment {
            capacity_limits: s.service_environment.capacity_limits.clone(),
        },
        _ => ActionKind::UpdateServiceJob { job_name: job, scheduling_priority: 1 },
    };
    Action { at, kind }
}

#[component]
pub fn ActionsEditor() -> impl IntoView {
    let app = use_app();
    let len = Memo::new(move |_| app.doc.scenario.with(|s| s.actions.len()));
    let add = move |_| {
        app.doc.edit(|s, r| {
            let at = s.actions.last().map_or(3600, |a| a.at + 3600);
            let a = default_action("updateServiceJob", s, at);
            s.actions.push(a);
            r.push(List::Actions, 1);
        })
    };
    view! {
        <section class="editor-section" aria-labelledby="actions-h">
            <h3 id="actions-h">"Timed actions " <span class="count">{move || len.get()}</span></h3>
            <p class="help">"Applied at their time, before jobs submitted at that instant, in list order (R10, R23)."</p>
            <For each=move || app.doc.rows.with(|r| r.ids(List::Actions).to_vec()) key=|id| *id children=action_card />
            <button class="btn" on:click=add>"+ Add action"</button>
        </section>
    }
}

fn action_card(id: u64) -> impl IntoView {
    let app = use_app();
    let pos = Pos::new(move || app.doc.position(List::Actions, id));
    let kind = Memo::new(move |_| {
        app.doc.scenario.with(|s| s.actions.get(pos.now()).map(|a| a.kind.name()).unwrap_or(""))
    });
    let at = num_field(
        "At (seconds)",
        action_path(pos, ".at"),
        move || app.doc.scenario.with(|s| s.actions.get(pos.now()).map(|a| a.at)),
        move |v| {
            app.doc.update(|s| {
                if let (Some(a), Some(v)) = (s.actions.get_mut(pos.at()), v) {
                    a.at = v
                }
            })
        },
        false,
        "",
    );
    let kind_f = select_field(
        "Action",
        action_path(pos, ".kind"),
        || KINDS.iter().map(|(v, t)| (v.to_string(), t.to_string())).collect(),
        move || kind.get().to_string(),
        move |v| {
            app.doc.update(|s| {
                let i = pos.at();
                let at = s.actions.get(i).map_or(0, |a| a.at);
                let a = default_action(&v, s, at);
                if let Some(x) = s.actions.get_mut(i) {
                    *x = a;
                }
            })
        },
    );
    let body = move || match kind.get() {
        "updateServiceJob" => job_fields(pos, true).into_any(),
        "terminateServiceJob" => job_fields(pos, false).into_any(),
        "updateQuotaShare" => share_update_fields(pos).into_any(),
        _ => capacity_fields(pos).into_any(),
    };
    let err = field_error(action_path(pos, ""));
    view! {
        <article class="action-card">
            <header class="share-card-head">
                <strong>{move || format!("#{} {}", pos.number(), KINDS.iter().find(|k| k.0 == kind.get()).map_or("", |k| k.1))}</strong>
                <button class="icon-btn" aria-label=move || format!("delete action {}", pos.number()) on:click=move |_| app.doc.edit(|s, r| { let i = pos.at(); if i < s.actions.len() { s.actions.remove(i); r.remove(List::Actions, i) } })>"×"</button>
            </header>
            <div class="form-grid">{at} {kind_f}</div>
            {body}
            <span class="field-error">{move || err.get()}</span>
        </article>
    }
}

fn job_fields(pos: Pos, priority: bool) -> impl IntoView {
    let app = use_app();
    let key = if priority { ".updateServiceJob.jobName" } else { ".terminateServiceJob.jobName" };
    let name = text_field(
        "Job name",
        action_path(pos, key),
        move || {
            app.doc.scenario.with(|s| match s.actions.get(pos.now()).map(|a| &a.kind) {
                Some(ActionKind::UpdateServiceJob { job_name, .. })
                | Some(ActionKind::TerminateServiceJob { job_name, .. }) => job_name.clone(),
                _ => String::new(),
            })
        },
        move |v| {
            app.doc.update(|s| match s.actions.get_mut(pos.at()).map(|a| &mut a.kind) {
                Some(ActionKind::UpdateServiceJob { job_name, .. })
                | Some(ActionKind::TerminateServiceJob { job_name, .. }) => *job_name = v,
                _ => {}
            })
        },
    );
    let second = if priority {
        num_field(
            "New priority (0-9999)",
            action_path(pos, ".updateServiceJob.schedulingPriority"),
            move || {
                app.doc.scenario.with(|s| match s.actions.get(pos.now()).map(|a| &a.kind) {
                    Some(ActionKind::UpdateServiceJob { scheduling_priority, .. }) => {
                        Some(*scheduling_priority)
                    }
                    _ => None,
                })
            },
            move |v| {
                app.doc.update(|s| {
                    if let (Some(ActionKind::UpdateServiceJob { scheduling_priority, .. }), Some(v)) =
                        (s.actions.get_mut(pos.at()).map(|a| &mut a.kind), v)
                    {
                        *scheduling_priority = v
                    }
                })
            },
            false,
            "",
        )
        .into_any()
    } else {
        text_field(
            "Reason",
            action_path(pos, ".terminateServiceJob.reason"),
            move || {
                app.doc.scenario.with(|s| match s.actions.get(pos.now()).map(|a| &a.kind) {
                    Some(ActionKind::TerminateServiceJob { reason, .. }) => reason.clone(),
                    _ => String::new(),
                })
            },
            move |v| {
                app.doc.update(|s| {
                    if let Some(ActionKind::TerminateServiceJob { reason, .. }) =
                        s.actions.get_mut(pos.at()).map(|a| &mut a.kind)
                    {
                        *reason = v
                    }
                })
            },
        )
        .into_any()
    };
    view! { <div class="form-grid">{name} {second}</div> }
}

fn with_update<R>(
    s: &quotasim::model::Scenario,
    i: usize,
    f: impl FnOnce(&QuotaShareUpdate) -> R,
) -> Option<R> {
    match s.actions.get(i).map(|a| &a.kind) {
        Some(ActionKind::UpdateQuotaShare(u)) => Some(f(u)),
        _ => None,
    }
}

fn update_mut(s: &mut quotasim::model::Scenario, i: usize, f: impl FnOnce(&mut QuotaShareUpdate)) {
    if let Some(ActionKind::UpdateQuotaShare(u)) = s.actions.get_mut(i).map(|a| &mut a.kind) {
        f(u)
    }
}

fn share_update_fields(pos: Pos) -> impl IntoView {
    let app = use_app();
    let share = select_field(
        "Quota share",
        action_path(pos, ".updateQuotaShare.quotaShareName"),
        move || {
            app.doc.scenario.with(|s| {
                s.quota_shares
                    .iter()
                    .map(|q| (q.quota_share_name.clone(), q.quota_share_name.clone()))
                    .collect()
            })
        },
        move || {
            app.doc
                .scenario
                .with(|s| with_update(s, pos.now(), |u| u.quota_share_name.clone()).unwrap_or_default())
        },
        move |v| app.doc.update(|s| update_mut(s, pos.at(), |u| u.quota_share_name = v)),
    );
    let strategy = select_field(
        "Strategy",
        action_path(pos, ".updateQuotaShare.resourceSharingConfiguration.strategy"),
        || {
            ["unchanged", "RESERVE", "LEND", "LEND_AND_BORROW"]
                .iter()
                .map(|x| (x.to_string(), x.to_string()))
                .collect()
        },
        move || {
            app.doc.scenario.with(|s| {
                with_update(s, pos.now(), |u| {
                    u.resource_sharing_configuration.as_ref().map(|r| r.strategy.as_str().to_string())
                })
                .flatten()
                .unwrap_or_else(|| "unchanged".into())
            })
        },
        move |v| {
            app.doc.update(|s| {
                update_mut(s, pos.at(), |u| {
                    u.resource_sharing_configuration = match v.as_str() {
                        "RESERVE" => Some(ResourceSharing::new(Strategy::Reserve, None)),
                        "LEND" => Some(ResourceSharing::new(Strategy::Lend, None)),
                        "LEND_AND_BORROW" => Some(ResourceSharing::new(Strategy::LendAndBorrow, None)),
                        _ => None,
                    }
                })
            })
        },
    );
    let borrow = num_field(
        "Borrow limit % (empty = unlimited)",
        action_path(pos, ".updateQuotaShare.resourceSharingConfiguration.borrowLimit"),
        move || {
            app.doc.scenario.with(|s| {
                with_update(s, pos.now(), |u| {
                    u.resource_sharing_configuration.as_ref().and_then(|r| r.borrow_limit)
                })
                .flatten()
            })
        },
        move |v| {
            app.doc.update(|s| {
                update_mut(s, pos.at(), |u| {
                    if let Some(r) = u.resource_sharing_configuration.as_mut() {
                        r.borrow_limit = v
                    }
                })
            })
        },
        true,
        "unlimited",
    );
    let insh = select_field(
        "In-share preemption",
        action_path(pos, ".updateQuotaShare.preemptionConfiguration"),
        || ["unchanged", "ENABLED", "DISABLED"].iter().map(|x| (x.to_string(), x.to_string())).collect(),
        move || {
            app.doc.scenario.with(|s| {
                with_update(s, pos.now(), |u| {
                    u.preemption_configuration.as_ref().map(|c| {
                        if c.in_share_preemption == Toggle::Enabled { "ENABLED" } else { "DISABLED" }
                            .to_string()
                    })
                })
                .flatten()
                .unwrap_or_else(|| "unchanged".into())
            })
        },
        move |v| {
            app.doc.update(|s| {
                update_mut(s, pos.at(), |u| {
                    u.preemption_configuration = match v.as_str() {
                        "ENABLED" => Some(SharePreemption { in_share_preemption: Toggle::Enabled }),
                        "DISABLED" => Some(SharePreemption { in_share_preemption: Toggle::Disabled }),
                        _ => None,
                    }
                })
            })
        },
    );
    let state = select_field(
        "State",
        action_path(pos, ".updateQuotaShare.state"),
        || ["unchanged", "ENABLED", "DISABLED"].iter().map(|x| (x.to_string(), x.to_string())).collect(),
        move || {
            app.doc.scenario.with(|s| {
                with_update(s, pos.now(), |u| {
                    u.state.map(|c| if c == ShareState::Enabled { "ENABLED" } else { "DISABLED" }.to_string())
                })
                .flatten()
                .unwrap_or_else(|| "unchanged".into())
            })
        },
        move |v| {
            app.doc.update(|s| {
                update_mut(s, pos.at(), |u| {
                    u.state = match v.as_str() {
                        "ENABLED" => Some(ShareState::Enabled),
                        "DISABLED" => Some(ShareState::Disabled),
                        _ => None,
                    }
                })
            })
        },
    );
    let has_limits = Memo::new(move |_| {
        app.doc.scenario.with(|s| with_update(s, pos.now(), |u| u.capacity_limits.is_some()).unwrap_or(false))
    });
    let limits_ui = {
        move || {
            has_limits.get().then(|| {
                limits_editor(
                    action_path(pos, ".updateQuotaShare.capacityLimits"),
                    Arc::new(move |s| {
                        with_update(s, pos.now(), |u| u.capacity_limits.clone().unwrap_or_default())
                            .unwrap_or_default()
                    }),
                    Arc::new(move |s, v| update_mut(s, pos.at(), |u| u.capacity_limits = Some(v))),
                    5,
                    1,
                )
            })
        }
    };
    view! {
        <div class="form-grid">{share} {strategy} {borrow} {insh} {state}</div>
        <label class="check">
            <input
                type="checkbox"
                prop:checked=move || has_limits.get()
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    app.doc.update(|s| {
                        let cur = with_update(s, pos.at(), |u| u.quota_share_name.clone()).unwrap_or_default();
                        let lim = s.quota_shares.iter().find(|q| q.quota_share_name == cur).map(|q| q.capacity_limits.clone()).unwrap_or_default();
                        update_mut(s, pos.at(), |u| u.capacity_limits = if on { Some(lim) } else { None })
                    })
                }
            />
            <span>"Replace the capacity limits"</span>
        </label>
        {limits_ui}
    }
}

fn capacity_fields(pos: Pos) -> impl IntoView {
    limits_editor(
        action_path(pos, ".updateServiceEnvironment.capacityLimits"),
        Arc::new(move |s| match s.actions.get(pos.now()).map(|a| &a.kind) {
            Some(ActionKind::UpdateServiceEnvironment { capacity_limits }) => capacity_limits.clone(),
            _ => Vec::new(),
        }),
        Arc::new(move |s, v| {
            if let Some(ActionKind::UpdateServiceEnvironment { capacity_limits }) =
                s.actions.get_mut(pos.at()).map(|a| &mut a.kind)
            {
                *capacity_limits = v
            }
        }),
        20,
        0,
    )
}
