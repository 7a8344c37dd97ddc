//! Import and export: scenario JSON from a file or pasted text (parse problems shown with their
//! path; the text is kept), scenario / results JSON and a results CSV as downloads.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::csv::jobs_csv;
use crate::text::truncate;
use crate::ui::dom;
use crate::ui::state::use_app;

fn file_stem(app: &crate::ui::state::AppState) -> String {
    let n = app.doc.scenario.with_untracked(|s| s.name.clone()).unwrap_or_else(|| "scenario".into());
    let s: String = n
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c.to_ascii_lowercase() } else { '-' })
        .collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() {
        "scenario".into()
    } else {
        s.chars().take(60).collect()
    }
}

#[component]
pub fn IoDialog() -> impl IntoView {
    let app = use_app();
    let text = RwSignal::new(String::new());
    let message = RwSignal::new(None::<(bool, String)>);
    let import_scenario = move |t: String| match quotasim::json::parse_scenario(&t) {
        Ok(s) => {
            let errors =
                quotasim::validate(&s).err().map_or(0, |p| p.iter().filter(|x| x.is_error()).count());
            app.load(s, Vec::new(), None);
            message.set(Some((
                true,
                if errors == 0 {
                    "Imported.".into()
                } else {
                    format!("Imported with {errors} validation error(s); fix them in the editor to run.")
                },
            )));
        }
        // A parse message may quote a whole string of the input: keep it to a line or two.
        Err(p) => message.set(Some((
            false,
            truncate(
                &format!(
                    "Not imported: {}{}",
                    if p.path.is_empty() { String::new() } else { format!("{}: ", p.path) },
                    p.message
                ),
                300,
            ),
        ))),
    };
    let import = move |t: String| {
        if let Some(c) = crate::persist::comparison_from_json(&t) {
            match c {
                Ok(f) => {
                    app.load(f.b, Vec::new(), None);
                    app.cmp.baseline.set(Some(f.a));
                    if f.objectives.is_some() {
                        app.cmp.objectives.set(f.objectives);
                    }
                    message.set(Some((
                        true,
                        "Imported a comparison: A is the baseline, B is in the editor.".into(),
                    )));
                }
                Err(e) => message.set(Some((false, truncate(&format!("Not imported: {e}"), 300)))),
            }
            return;
        }
        import_scenario(t)
    };
    let on_file = move |ev: leptos::ev::Event| {
        let file = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|i| i.files())
            .and_then(|f| f.get(0));
        if let Some(f) = file {
            leptos::task::spawn_local(async move {
                match dom::read_file(f).await {
                    Ok(t) => {
                        text.set(t.clone());
                        import(t);
                    }
                    Err(e) => message.set(Some((false, e))),
                }
            });
        }
    };
    let export_scenario = move |_| {
        let json = app.doc.scenario.with_untracked(quotasim::json::to_json_pretty);
        dom::download(&format!("{}.json", file_stem(&app)), "application/json", &json);
    };
    let show_scenario = move |_| text.set(app.doc.scenario.with_untracked(quotasim::json::to_json_pretty));
    let export_comparison = move |_| {
        if let Some(json) = crate::persist::comparison_json(&app.current()) {
            dom::download(&format!("{}-comparison.json", file_stem(&app)), "application/json", &json);
        }
    };
    let export_results = move |_| {
        if let Some(r) = app.run.handle.get_untracked() {
            dom::download(
                &format!("{}-result.json", file_stem(&app)),
                "application/json",
                &quotasim::json::to_json(&r.data.result()),
            );
        }
    };
    let export_csv = move |_| {
        if let Some(r) = app.run.handle.get_untracked() {
            dom::download(&format!("{}-jobs.csv", file_stem(&app)), "text/csv", &jobs_csv(&r.data.jobs));
        }
    };
    let no_run = move || app.run.handle.with(|r| r.is_none()) || app.run.stale.get();
    view! {
        <Show when=move || app.chrome.dialog.get()>
            <div class="modal-backdrop" on:click=move |_| app.chrome.dialog.set(false)></div>
            <div class="modal" role="dialog" aria-modal="true" aria-labelledby="io-h"
                on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { app.chrome.dialog.set(false) }>
                <header class="drawer-head">
                    <h3 id="io-h">"Import / Export"</h3>
                    <button class="icon-btn" aria-label="close" on:click=move |_| app.chrome.dialog.set(false)>"×"</button>
                </header>
                <div class="modal-body">
                    <h4>"Export"</h4>
                    <div class="row-actions">
                        <button class="btn" on:click=export_scenario>"Scenario JSON"</button>
                        <button class="btn" on:click=show_scenario>"Show scenario JSON below"</button>
                        <button class="btn" on:click=export_results disabled=no_run>"Results JSON"</button>
                        <button class="btn" on:click=export_csv disabled=no_run>"Jobs CSV"</button>
                        <Show when=move || app.cmp.baseline.with(Option::is_some)>
                            <button class="btn" on:click=export_comparison>"Comparison JSON (A, B, objectives)"</button>
                        </Show>
                    </div>
                    <p class="muted small">"Exported scenarios are plain scenario-format JSON (share colours stay in the playground)."</p>
                    <h4>"Import"</h4>
                    <label class="field">
                        <span class="field-label">"Scenario file (.json)"</span>
                        <input type="file" accept=".json,application/json" on:change=on_file />
                    </label>
                    <label class="field">
                        <span class="field-label">"…or paste scenario JSON (AWS describe-quota-share output fits in quotaShares)"</span>
                        <textarea rows="12" spellcheck="false" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                    </label>
                    <div class="row-actions">
                        <button class="btn primary" on:click=move |_| import(text.get_untracked())>"Load pasted JSON"</button>
                        {move || message.get().map(|(ok, m)| view! { <span class=if ok { "msg ok" } else { "msg err" } role="alert">{m}</span> })}
                    </div>
                </div>
            </div>
        </Show>
    }
}
