//! Recent scenarios: the work that links, imports and presets replaced, newest first, each
//! with its name, job count and when it was replaced, and a button to restore it.

use leptos::prelude::*;

use crate::persist::HistoryEntry;
use crate::ui::state::{use_app, Notice};

/// When an entry was saved, in the browser's locale.
fn saved_at(ms: f64) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms));
    String::from(d.to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED))
}

#[component]
pub fn HistoryDialog() -> impl IntoView {
    let app = use_app();
    let close = move || app.chrome.history_open.set(false);
    let restore = move |e: HistoryEntry| {
        close();
        match e.saved() {
            Ok(s) => app.load_saved(s),
            Err(err) => {
                app.chrome.notice.set(Some(Notice::text(format!("That entry could not be read ({err})"))))
            }
        }
    };
    let close_ref = NodeRef::<leptos::html::Button>::new();
    crate::ui::dom::dialog_focus(Signal::derive(move || app.chrome.history_open.get()), close_ref);
    view! {
        <Show when=move || app.chrome.history_open.get()>
            <div class="modal-backdrop" on:click=move |_| close()></div>
            <div class="modal history" role="dialog" aria-modal="true" aria-labelledby="history-h"
                on:keydown=move |ev: leptos::ev::KeyboardEvent| { crate::ui::dom::keep_tab_inside(&ev); if ev.key() == "Escape" { ev.prevent_default(); close() } }>
                <div class="drawer-head">
                    <h3 id="history-h">"Recent scenarios"</h3>
                    <button class="icon-btn" aria-label="close history" node_ref=close_ref on:click=move |_| close()>"×"</button>
                </div>
                <div class="modal-body">
                    <p class="muted small">
                        "Scenarios that a link, an import or a preset replaced, newest first (the last ten, kept in this browser). "
                        "Restoring one puts the current scenario here in its place."
                    </p>
                    {move || {
                        let h = app.doc.history.get();
                        if h.is_empty() {
                            return view! { <p class="muted">"Nothing has been replaced yet."</p> }.into_any();
                        }
                        view! {
                            <table class="grid-table history-list">
                                <thead><tr><th scope="col">"scenario"</th><th scope="col">"jobs"</th><th scope="col">"replaced"</th><th scope="col"></th></tr></thead>
                                <tbody>
                                    {h.into_iter().map(|e| {
                                        let label = format!("restore {}", e.name);
                                        let (name, jobs, at) = (e.name.clone(), e.jobs, saved_at(e.at));
                                        let e = StoredValue::new(e);
                                        view! {
                                            <tr>
                                                <td class="history-name">{name}</td>
                                                <td class="num">{jobs}</td>
                                                <td class="muted">{at}</td>
                                                <td><button class="btn small" aria-label=label on:click=move |_| restore(e.get_value())>"Restore"</button></td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                        }.into_any()
                    }}
                </div>
            </div>
        </Show>
    }
}
