//! The quota share editor (R2, R4): up to 20 shares, each a card.

use std::sync::Arc;

use leptos::prelude::*;
use quotasim::model::{CapacityLimit, QuotaShare, ShareState, Strategy, Toggle};

use crate::edit::{first_type, rename_share, unique_share_name};
use crate::palette::{color_of, is_hex_color};
use crate::rows::List;
use crate::ui::fields::{check_field, field_error, select_field, text_field};
use crate::ui::keyed::Pos;
use crate::ui::limits::limits_editor;
use crate::ui::state::use_app;

#[component]
pub fn SharesEditor() -> impl IntoView {
    let app = use_app();
    let len = Memo::new(move |_| app.doc.scenario.with(|s| s.quota_shares.len()));
    let add = move |_| {
        app.doc.edit(|s, r| {
            if s.quota_shares.len() < 20 {
                r.push(List::Shares, 1);
                let name = unique_share_name(s);
                let ty = first_type(s);
                s.quota_shares.push(QuotaShare::new(
                    &name,
                    Strategy::LendAndBorrow,
                    vec![CapacityLimit::new(&ty, 1)],
                ));
            }
        })
    };
    let top_err = field_error(String::from("quotaShares"));
    view! {
        <section class="editor-section" aria-labelledby="shares-h">
            <h3 id="shares-h">"Quota shares " <span class="count">{move || format!("{} / 20", len.get())}</span></h3>
            <p class="help">
                "A share's capacity limits are its own quota. RESERVE keeps idle quota private; LEND lends it; "
                "LEND_AND_BORROW lends and may borrow others' idle quota, up to its borrow limit (R4, R14)."
            </p>
            <span class="field-error" role="alert">{move || top_err.get()}</span>
            <For each=move || app.doc.rows.with(|r| r.ids(List::Shares).to_vec()) key=|id| *id children=share_card />
            <button class="btn" on:click=add disabled=move || { len.get() >= 20 }>"+ Add quota share"</button>
        </section>
    }
}

/// The card of the share with stable id `id`; its index (and the paths of its fields) follow
/// it as shares before it are added or deleted.
fn share_card(id: u64) -> impl IntoView {
    let app = use_app();
    let pos = Pos::new(move || app.doc.position(List::Shares, id));
    let (ix, at) = (move || pos.now(), move || pos.at());
    let path = move |f: &'static str| {
        Signal::derive(move || format!("quotaShares[{}].{f}", pos.index().unwrap_or(0)))
    };
    let name = move || {
        app.doc
            .scenario
            .with(|s| s.quota_shares.get(ix()).map(|q| q.quota_share_name.clone()).unwrap_or_default())
    };
    let strategy = Memo::new(move |_| {
        app.doc.scenario.with(|s| s.quota_shares.get(ix()).map(|q| q.resource_sharing_configuration.strategy))
    });
    let color = move || {
        let n = name();
        app.doc.colors.with(|c| color_of(c, &n, ix()))
    };
    let name_f = text_field("Name", path("quotaShareName"), name, move |v| {
        let old =
            app.doc.scenario.with_untracked(|s| s.quota_shares.get(at()).map(|q| q.quota_share_name.clone()));
        app.doc.update(|s| rename_share(s, at(), &v));
        if let Some(old) = old {
            app.doc.colors.update(|c| {
                for (n, _) in c.iter_mut() {
                    if *n == old {
                        *n = v.clone();
                    }
                }
            });
        }
    });
    let strat_f = select_field(
        "Strategy",
        path("resourceSharingConfiguration.strategy"),
        || ["RESERVE", "LEND", "LEND_AND_BORROW"].iter().map(|s| (s.to_string(), s.to_string())).collect(),
        move || strategy.get().map(|s| s.as_str().to_string()).unwrap_or_default(),
        move |v| {
            let st = match v.as_str() {
                "RESERVE" => Strategy::Reserve,
                "LEND" => Strategy::Lend,
                _ => Strategy::LendAndBorrow,
            };
            app.doc.update(|s| {
                if let Some(q) = s.quota_shares.get_mut(at()) {
                    q.resource_sharing_configuration.strategy = st;
                    if st != Strategy::LendAndBorrow {
                        q.resource_sharing_configuration.borrow_limit = None;
                    }
                }
            })
        },
    );
    let bl_path = path("resourceSharingConfiguration.borrowLimit");
    let bl_err = field_error(bl_path);
    let borrow = move || {
        app.doc
            .scenario
            .with(|s| s.quota_shares.get(ix()).and_then(|q| q.resource_sharing_configuration.borrow_limit))
    };
    let unlimited = move || borrow().is_none_or(|b| b == -1);
    let borrow_ui = move || {
        (strategy.get() == Some(Strategy::LendAndBorrow) || bl_err.get().is_some()).then(|| {
            view! {
                <div class="field" class:invalid=move || bl_err.get().is_some()>
                    <span class="field-label">"Borrow limit (% of quota)"</span>
                    <div class="inline-row">
                        {check_field("unlimited", unlimited, move |on| {
                            app.doc.update(|s| {
                                if let Some(q) = s.quota_shares.get_mut(at()) {
                                    q.resource_sharing_configuration.borrow_limit = if on { None } else { Some(100) };
                                }
                            })
                        })}
                        <input
                            type="number"
                            min="-1"
                            aria-label="borrow limit in percent of the quota"
                            data-path=bl_path
                            disabled=unlimited
                            prop:value=move || if unlimited() { String::from("unlimited") } else { borrow().map(|b| b.to_string()).unwrap_or_default() }
                            on:input=move |ev| {
                                if let Ok(n) = event_target_value(&ev).trim().parse::<i64>() {
                                    app.doc.update(|s| {
                                        if let Some(q) = s.quota_shares.get_mut(at()) {
                                            q.resource_sharing_configuration.borrow_limit = Some(n);
                                        }
                                    })
                                }
                            }
                        />
                    </div>
                    <span class="field-error" role="alert">{move || bl_err.get()}</span>
                </div>
            }
        })
    };
    let insh = check_field(
        "In-share preemption (R20)",
        move || {
            app.doc.scenario.with(|s| {
                s.quota_shares
                    .get(ix())
                    .is_some_and(|q| q.preemption_configuration.in_share_preemption == Toggle::Enabled)
            })
        },
        move |on| {
            app.doc.update(|s| {
                if let Some(q) = s.quota_shares.get_mut(at()) {
                    q.preemption_configuration.in_share_preemption =
                        if on { Toggle::Enabled } else { Toggle::Disabled };
                }
            })
        },
    );
    let enabled = check_field(
        "Enabled (a DISABLED share rejects new jobs)",
        move || {
            app.doc
                .scenario
                .with(|s| s.quota_shares.get(ix()).is_some_and(|q| q.state == ShareState::Enabled))
        },
        move |on| {
            app.doc.update(|s| {
                if let Some(q) = s.quota_shares.get_mut(at()) {
                    q.state = if on { ShareState::Enabled } else { ShareState::Disabled };
                }
            })
        },
    );
    let limits = limits_editor(
        path("capacityLimits"),
        Arc::new(move |s| s.quota_shares.get(at()).map(|q| q.capacity_limits.clone()).unwrap_or_default()),
        Arc::new(move |s, v| {
            if let Some(q) = s.quota_shares.get_mut(at()) {
                q.capacity_limits = v;
            }
        }),
        5,
        1,
    );
    let warn = Signal::derive(move || {
        app.doc.problems.with(|ps| {
            ps.iter()
                .filter(|x| !x.is_error() && x.path.starts_with(&format!("quotaShares[{}]", ix())))
                .map(|x| x.message.clone())
                .collect::<Vec<_>>()
        })
    });
    let jobs = Memo::new(move |_| {
        let n = name();
        app.doc.scenario.with(|s| s.jobs.iter().filter(|j| j.quota_share_name == n).count())
    });
    // Deleting a share asks first; the scenario before goes to the history.
    let confirming = RwSignal::new(false);
    let delete = move |_| {
        confirming.set(false);
        app.doc.remember(&app.current());
        app.doc.edit(|s, r| {
            let i = at();
            if i < s.quota_shares.len() {
                s.quota_shares.remove(i);
                r.remove(List::Shares, i);
            }
        })
    };
    view! {
        <article class="share-card" style:border-left-color=color>
            <Show when=move || confirming.get()>
                <p class="confirm" role="alert">
                    {move || format!("Delete {} ({} jobs name it)? The scenario before goes to History. ", name(), jobs.get())}
                    <button class="btn danger" on:click=delete>"Delete"</button>
                    <button class="btn ghost" on:click=move |_| confirming.set(false)>"Cancel"</button>
                </p>
            </Show>
            <header class="share-card-head">
                <input
                    type="color"
                    aria-label=move || format!("colour of {}", name())
                    prop:value=color
                    on:input=move |ev| {
                        let c = event_target_value(&ev);
                        if is_hex_color(&c) {
                            let n = name();
                            app.doc.colors.update(|cs| {
                                cs.retain(|(x, _)| *x != n);
                                cs.push((n, c));
                            });
                        }
                    }
                />
                <strong>{name}</strong>
                <span class="muted">{move || format!("{} jobs", jobs.get())}</span>
                <button
                    class="icon-btn"
                    aria-label=move || format!("delete quota share {}", name())
                    title="delete share"
                    on:click=move |_| confirming.set(true)
                >
                    "×"
                </button>
            </header>
            <div class="form-grid">{name_f} {strat_f}</div>
            {borrow_ui}
            <div class="checks">{insh} {enabled}</div>
            <div class="field">
                <span class="field-label">"Capacity limits (own quota, 1 to 5 types)"</span>
                {limits}
            </div>
            {move || warn.get().into_iter().map(|w| view! { <p class="warn-inline">{w}</p> }).collect_view()}
        </article>
    }
}
