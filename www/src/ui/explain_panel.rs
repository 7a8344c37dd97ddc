//! The explanation drawer: why a job was preempted, or why it waits, in words and rules.

use leptos::prelude::*;

use crate::explain::{self, Explanation};
use crate::geometry::format_time;
use crate::ui::state::{use_app, Selection};
use crate::why::{preemption_number, WhyAsk};

#[component]
pub fn ExplainPanel() -> impl IntoView {
    let app = use_app();
    let ex = Memo::new(move |_| {
        let sel = app.chrome.selection.get()?;
        app.play.snapshot.track();
        app.run.handle.with(|r| {
            let r = r.as_ref()?;
            Some(match sel {
                Selection::Preemption(p) => {
                    let rec = r.data.preemptions.get(p)?;
                    (
                        explain::preemption(
                            rec,
                            &r.data.preemptions,
                            &r.data.sim_at(rec.decided_at),
                            r.data.full(),
                        ),
                        Some(rec.decided_at),
                    )
                }
                Selection::Job(j) => {
                    (app.with_cursor(|sim| explain::job_now(sim, quotasim::scenario::JobId::at(j)))?, None)
                }
            })
        })
    });
    // What "What would have avoided this?" studies: the preemption's victim and its number, or
    // the job (its first preemption, or its wait).
    let why_ask = move || {
        let sel = app.chrome.selection.get_untracked()?;
        app.run.handle.with_untracked(|r| {
            let r = r.as_ref()?;
            let jobs = &r.data.full().scenario().jobs;
            Some(match sel {
                Selection::Preemption(p) => {
                    let rec = r.data.preemptions.get(p)?;
                    WhyAsk {
                        job: jobs.get(rec.victim.index())?.name.as_str().to_owned(),
                        preemption: preemption_number(&r.data.preemptions, p),
                    }
                }
                Selection::Job(j) => WhyAsk { job: jobs.get(j)?.name.as_str().to_owned(), preemption: None },
            })
        })
    };
    let close = move || app.chrome.selection.set(None);
    // The rule whose statement is open under the chips (one at a time).
    // Kept with the selection it was opened in: another selection shows none open.
    let opened = RwSignal::new(None::<(Option<Selection>, &'static str)>);
    let open_rule = Memo::new(move |_| {
        let sel = app.chrome.selection.get();
        opened.with(|o| o.filter(|(at, _)| *at == sel).map(|(_, r)| r))
    });
    let close_ref = NodeRef::<leptos::html::Button>::new();
    // What had focus when the panel opened (a chart marker, a lane label, a search result):
    // focus goes back to it when the panel closes, never to the page's body.
    let opener = StoredValue::new_local(None::<web_sys::Element>);
    // Move keyboard focus into the panel when it opens or changes.
    Effect::new(move |was_open: Option<bool>| {
        let open = app.chrome.selection.get().is_some();
        if open {
            if was_open != Some(true) {
                opener.set_value(crate::ui::dom::focused_element());
            }
            if let Some(b) = close_ref.get() {
                let _ = b.focus();
            }
        } else if was_open == Some(true) {
            // Only when focus was in the panel (now gone) or nowhere: a click elsewhere keeps
            // what it focused.
            // After this update has been drawn: a chart redrawn for the closed selection has
            // replaced the marker by then.
            if let Some(el) = opener.get_value() {
                let _ = gloo_timers::callback::Timeout::new(0, move || {
                    let lost = crate::ui::dom::focused_element()
                        .is_none_or(|e| e.closest(".drawer").ok().flatten().is_some());
                    if lost {
                        crate::ui::dom::return_focus(&el);
                    }
                })
                .forget();
            }
            opener.set_value(None);
        }
        open
    });
    let esc = window_event_listener(leptos::ev::keydown, move |ev| {
        // Esc closes the topmost thing only: a dialog over the panel takes it first.
        if ev.key() == "Escape" && !ev.default_prevented() {
            app.chrome.selection.set(None);
        }
    });
    on_cleanup(move || esc.remove());
    view! {
        {move || ex.get().map(|(e, at): (Explanation, Option<u64>)| view! {
            <aside class="drawer" role="dialog" aria-modal="false" aria-labelledby="ex-title">
                <div class="drawer-head">
                    <div>
                        <span class="kind">{e.kind.clone()}</span>
                        <h3 id="ex-title">{e.title.clone()}</h3>
                    </div>
                    <button class="icon-btn" node_ref=close_ref aria-label="close explanation" on:click=move |_| close()>"×"</button>
                </div>
                <div class="drawer-body">
                    {e.paragraphs.iter().map(|p| view! { <p>{p.clone()}</p> }).collect_view()}
                    {(!e.candidates.is_empty()).then(|| view! {
                        <h4>"Candidates considered, in order"</h4>
                        <p class="muted small">"R19: lowest priority first, then the most recently dispatched (least work at risk), then the best fit for the shortfall, then the latest submission."</p>
                        <table class="grid-table cands">
                            <thead><tr><th scope="col">"#"</th><th scope="col">"job"</th><th scope="col">"share"</th><th scope="col">"priority"</th><th scope="col">"instances"</th><th scope="col">"dispatched"</th><th scope="col">"outcome"</th></tr></thead>
                            <tbody>
                                {e.candidates.iter().map(|c| view! {
                                    <tr class:chosen=c.chosen>
                                        <td class="num">{c.rank}</td>
                                        <td>{c.job.clone()}</td>
                                        <td>{c.share.clone()}</td>
                                        <td class="num">{c.priority}</td>
                                        <td class="num">{c.instances}</td>
                                        <td class="num">{c.dispatched_at.map(format_time).unwrap_or_default()}</td>
                                        <td>{if c.chosen { "preempted" } else { "spared" }}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    })}
                    <div class="rules" role="group" aria-label="rules applied">
                        {e.rules.iter().map(|r| {
                            let r: &'static str = r;
                            let title = crate::rules::rule(r).map_or("", |x| x.title);
                            view! {
                                <button class="rule" title=title aria-controls="rule-text"
                                    aria-expanded=move || (open_rule.get() == Some(r)).to_string()
                                    on:click=move |_| {
                                        let sel = app.chrome.selection.get_untracked();
                                        opened.set((open_rule.get_untracked() != Some(r)).then_some((sel, r)));
                                    }>{r}</button>
                            }
                        }).collect_view()}
                    </div>
                    {move || open_rule.get().and_then(crate::rules::rule).map(|rule| view! {
                        <div class="rule-text" id="rule-text" role="note" aria-label=format!("rule {}", rule.id)>
                            <strong>{format!("{} {}. ", rule.id, rule.title)}</strong>{rule.text}
                        </div>
                    })}
                    {match app.chrome.selection.get_untracked() {
                        Some(Selection::Job(j)) => Some(view! {
                            <crate::ui::breakdown::WaitBreakdown j=j />
                            <crate::ui::forecast::JobForecast j=j />
                        }),
                        _ => None,
                    }}
                    {why_ask().map(|ask| view! { <crate::ui::why::WhyAvoid ask=ask /> })}
                    {at.map(|t| view! {
                        <button class="btn" on:click=move |_| { app.play.playing.set(false); app.play.now.set(t) }>{format!("Go to {}", format_time(t))}</button>
                    })}
                </div>
            </aside>
        })}
    }
}
