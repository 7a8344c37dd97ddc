//! Import and export: scenario or comparison JSON, AWS Batch output, Kueue YAML and CSV job logs
//! from dropped, chosen or pasted files (what was recognised and every problem shown with its
//! path; pasted text is kept), and as downloads scenario / results JSON, a results CSV and what
//! AWS or Kueue deploys (CloudFormation, an aws-cli script, Kueue YAML).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::csv::jobs_csv;
use crate::replace::Mode;
use crate::text::truncate;
use crate::ui::bridges::{self, ExportFormat, Outcome, TraceSettings};
use crate::ui::dom;
use crate::ui::state::use_app;

fn file_stem(app: &crate::ui::state::AppState) -> String {
    app.doc.scenario.with_untracked(|s| stem_of(s.name.as_deref()))
}

/// A file name stem from a scenario's name: lower-case letters, digits and dashes.
fn stem_of(name: Option<&str>) -> String {
    let n = name.unwrap_or("scenario");
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

/// Files larger than this (bytes) are imported in several tasks, so that the page can draw in
/// between.
const LARGE_IMPORT: usize = 1 << 20;

/// Downloads the scenario as compact JSON.
pub fn download_scenario(app: &crate::ui::state::AppState) {
    let preset = app.doc.preset.get_untracked();
    let json = app
        .doc
        .scenario
        .with_untracked(|s| quotasim::json::to_json(&crate::presets::for_export(preset.as_deref(), s)));
    dom::download(&format!("{}.json", file_stem(app)), "application/json", &json);
}

/// Downloads `s` (a valid scenario) in another tool's format as `{stem}-{format}...`, written
/// by the bridges module (loaded first if it is not yet).
async fn download_export(
    format: ExportFormat,
    stem: &str,
    s: &quotasim::model::Scenario,
) -> Result<(), String> {
    let text = bridges::export(format, s).await?;
    let (name, media) = format.file(stem);
    dom::download(&name, media, &text);
    Ok(())
}

/// Downloads the CloudFormation template of scenario `s`, named after it with `suffix`
/// (the Recommend panel's recommended scenario), or says why not.
pub async fn download_cloudformation_of(s: &quotasim::model::Scenario, suffix: &str) -> Result<(), String> {
    quotasim::validate(s).map_err(|ps| {
        format!(
            "only a valid scenario is exported: {}",
            ps.iter().find(|p| p.is_error()).map_or_else(String::new, |p| p.to_string())
        )
    })?;
    download_export(ExportFormat::CloudFormation, &format!("{}{suffix}", stem_of(s.name.as_deref())), s).await
}

#[component]
pub fn IoDialog() -> impl IntoView {
    let app = use_app();
    let text = RwSignal::new(String::new());
    let message = RwSignal::new(None::<(bool, String)>);
    let loaded = move |s: quotasim::model::Scenario| {
        app.load(s, Vec::new(), None);
        // The validation the run needs anyway (a memo), not a second one.
        let errors = app.doc.problems.with_untracked(|p| p.iter().filter(|x| x.is_error()).count());
        message.set(Some((
            true,
            if errors == 0 {
                "Imported.".into()
            } else {
                format!("Imported with {errors} validation error(s); fix them in the editor to run.")
            },
        )));
    };
    let import_scenario = move |t: String| match quotasim::json::parse_scenario(&t) {
        Ok(s) if t.len() > LARGE_IMPORT => {
            // Loading (validation, the editor's tables) in a task of its own: never one long
            // task with the parse.
            drop(t);
            leptos::task::spawn_local(async move {
                gloo_timers::future::TimeoutFuture::new(0).await;
                loaded(s);
            });
        }
        Ok(s) => loaded(s),
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
        // Only a file with a "kind" can be a comparison: others are not parsed twice.
        if let Some(c) = t.contains("\"kind\"").then(|| crate::persist::comparison_from_json(&t)).flatten() {
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
        if t.len() > LARGE_IMPORT {
            // The parse in a task of its own, after recognising the file's kind.
            leptos::task::spawn_local(async move {
                gloo_timers::future::TimeoutFuture::new(0).await;
                import_scenario(t);
            });
        } else {
            import_scenario(t)
        }
    };
    // Replace or merge configuration alone: the user's pick while the dialog is open, else
    // what suits the scenario (Replace when it has no jobs of its own).
    let picked = RwSignal::new(None::<Mode>);
    let default_mode = Memo::new(move |_| {
        let preset = app.doc.preset.get();
        app.doc.scenario.with(|s| crate::replace::default_mode(preset.as_deref(), s))
    });
    let mode = Signal::derive(move || picked.get().unwrap_or_else(|| default_mode.get()));
    // Each opening of the dialog starts from what suits the scenario: the pick goes with the
    // dialog's closing (the only ways it closes are below).
    let close = move || {
        picked.set(None);
        app.chrome.dialog.set(false);
    };
    let report = RwSignal::new(Vec::<String>::new());
    // Files being read by the importers (their module may still be on its way).
    let reading = RwSignal::new(None::<String>);
    let columns = RwSignal::new(String::new());
    let gpus = RwSignal::new(8i64);
    let imported_files =
        move |files: Vec<(String, String)>, imported: Result<Option<Outcome>, Vec<quotasim::Problem>>| {
            let lines = |recognised: Vec<String>, warnings: &[quotasim::Problem]| {
                let mut v: Vec<String> = recognised.into_iter().map(|r| format!("Recognised {r}")).collect();
                v.extend(warnings.iter().take(30).map(|w| truncate(&w.to_string(), 300)));
                if warnings.len() > 30 {
                    v.push(format!("… and {} more", warnings.len() - 30));
                }
                v
            };
            match imported {
                Ok(None) => {
                    if let Some((_, t)) = files.into_iter().next() {
                        import(t)
                    }
                }
                Ok(Some(Outcome::Configuration { configuration, recognised, warnings }))
                    if mode.get_untracked() == Mode::Replace =>
                {
                    let (next, r) =
                        app.doc.scenario.with_untracked(|s| crate::replace::replace(s, &configuration));
                    if app.doc.scenario.with_untracked(|s| *s == next) {
                        message.set(Some((true, crate::replace::UNCHANGED.into())));
                    } else {
                        let kept = app.replace_scenario(next);
                        message.set(Some((true, r.describe(kept))));
                    }
                    report.set(lines(recognised, &warnings));
                }
                Ok(Some(Outcome::Configuration { configuration, recognised, warnings })) => {
                    let mut changes = Vec::new();
                    app.doc.edit(|sc, _| changes = quotasim::merge::merge(sc, &configuration));
                    message.set(Some((
                        true,
                        if changes.is_empty() {
                            "Merged into the current scenario: nothing changed.".into()
                        } else {
                            format!("Merged into the current scenario: {}.", changes.join("; "))
                        },
                    )));
                    report.set(lines(recognised, &warnings));
                }
                Ok(Some(Outcome::New { scenario, recognised, warnings })) => {
                    let n = scenario.jobs.len();
                    app.load(*scenario, Vec::new(), None);
                    message.set(Some((
                        true,
                        format!(
                            "Imported a new scenario with {n} jobs; the previous one is in Recent scenarios."
                        ),
                    )));
                    report.set(lines(recognised, &warnings));
                }
                Err(p) => {
                    message.set(Some((false, "Not imported.".into())));
                    report.set(lines(Vec::new(), &p));
                }
            }
        };
    // Every file at once: AWS outputs, Kueue YAML and job logs go through the engine's
    // importers (in the bridges module); the playground's own JSON (one file) through `import`,
    // without them.
    let import_files = move |files: Vec<(String, String)>| {
        report.set(Vec::new());
        if let [(_, t)] = files.as_slice() {
            if bridges::is_own(t) {
                if let Some((_, t)) = files.into_iter().next() {
                    import(t)
                }
                return;
            }
        }
        let settings =
            TraceSettings { columns: columns.get_untracked(), gpus_per_instance: gpus.get_untracked() };
        // Said at once: the first import waits for the importers' module to arrive.
        let n = files.len();
        message.set(None);
        reading.set(Some(format!("Reading {n} file{}…", if n == 1 { "" } else { "s" })));
        leptos::task::spawn_local(async move {
            // A frame to draw the words before an import that may take a while.
            gloo_timers::future::TimeoutFuture::new(0).await;
            let imported = bridges::import(&files, &settings).await;
            let _ = reading.try_set(None);
            let imported = match imported {
                Ok(r) => r,
                Err(e) => {
                    message.set(Some((false, format!("Not imported: {e}."))));
                    return;
                }
            };
            imported_files(files, imported);
        });
    };
    let read_all = move |list: web_sys::FileList| {
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        if files.is_empty() {
            return;
        }
        app.note_import();
        leptos::task::spawn_local(async move {
            let mut read = Vec::new();
            for f in files {
                let name = f.name();
                match dom::read_file(f).await {
                    Ok(t) => read.push((name, t)),
                    Err(e) => {
                        message.set(Some((false, format!("{name}: {e}"))));
                        return;
                    }
                }
            }
            import_files(read);
        });
    };
    let on_file = move |ev: leptos::ev::Event| {
        if let Some(list) =
            ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).and_then(|i| i.files())
        {
            read_all(list);
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        if let Some(list) = ev.data_transfer().and_then(|d| d.files()) {
            read_all(list);
        }
    };
    let on_gpus = move |ev: leptos::ev::Event| {
        if let Ok(g) = event_target_value(&ev).parse::<i64>() {
            if (1..=1024).contains(&g) {
                gpus.set(g);
            }
        }
    };
    let valid = move || app.doc.scenario.with_untracked(|s| quotasim::validate(s).is_ok());
    let deploy = move |format: ExportFormat| {
        if !valid() {
            message.set(Some((
                false,
                "Fix the scenario's errors first: only a valid scenario is exported.".into(),
            )));
            return;
        }
        let stem = file_stem(&app);
        let s = app.doc.scenario.get_untracked();
        leptos::task::spawn_local(async move {
            if let Err(e) = download_export(format, &stem, &s).await {
                message.set(Some((false, format!("Not exported: {e}."))));
            }
        });
    };
    let export_scenario = move |_| download_scenario(&app);
    let show_scenario = move |_| {
        let preset = app.doc.preset.get_untracked();
        text.set(app.doc.scenario.with_untracked(|s| {
            quotasim::json::to_json_pretty(&crate::presets::for_export(preset.as_deref(), s))
        }))
    };
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
    let export_summary = move |_| {
        if let Some(r) = app.run.handle.get_untracked() {
            dom::download(
                &format!("{}-summary.csv", file_stem(&app)),
                "text/csv",
                &crate::decisions::summary_csv(&r.data),
            );
        }
    };
    let close_ref = NodeRef::<leptos::html::Button>::new();
    dom::dialog_focus(Signal::derive(move || app.chrome.dialog.get()), close_ref);
    let no_run = move || app.run.handle.with(|r| r.is_none()) || app.run.stale.get();
    view! {
        <Show when=move || app.chrome.dialog.get()>
            <div class="modal-backdrop" on:click=move |_| close()></div>
            <div class="modal" role="dialog" aria-modal="true" aria-labelledby="io-h"
                on:keydown=move |ev: leptos::ev::KeyboardEvent| { crate::ui::dom::keep_tab_inside(&ev); if ev.key() == "Escape" { ev.prevent_default(); close() } }>
                <div class="drawer-head">
                    <h3 id="io-h">"Import / Export"</h3>
                    <button class="icon-btn" aria-label="close" node_ref=close_ref on:click=move |_| close()>"×"</button>
                </div>
                <div class="modal-body">
                    <h4>"Export"</h4>
                    <div class="row-actions">
                        <button class="btn" on:click=export_scenario>"Scenario JSON"</button>
                        <button class="btn" on:click=show_scenario>"Show scenario JSON below"</button>
                        <button class="btn" on:click=export_results disabled=no_run>"Results JSON"</button>
                        <button class="btn" on:click=export_csv disabled=no_run>"Jobs CSV"</button>
                        <button class="btn" on:click=export_summary disabled=no_run>"Summary CSV"</button>
                        <Show when=move || app.cmp.baseline.with(Option::is_some)>
                            <button class="btn" on:click=export_comparison>"Comparison JSON (A, B, objectives)"</button>
                        </Show>
                    </div>
                    <div class="row-actions" role="group" aria-label="deploy the quota shares">
                        <button class="btn" on:click=move |_| deploy(ExportFormat::CloudFormation)>"CloudFormation template"</button>
                        <button class="btn" on:click=move |_| deploy(ExportFormat::AwsCli)>"aws-cli script"</button>
                        <button class="btn" on:click=move |_| deploy(ExportFormat::Kueue)>"Kueue YAML"</button>
                    </div>
                    <p class="muted small">"Exported scenarios are plain scenario-format JSON (share colours stay in the playground)."</p>
                    <h4>"Import"</h4>
                    <p class="muted small">
                        "A scenario or comparison (.json), AWS Batch output (describe-service-environments, list-quota-shares, "
                        "describe-quota-share, list-service-jobs, describe-service-job, EventBridge lines), Kueue YAML or a CSV job log. "
                        "Configuration alone replaces the current scenario's shares and service environment or merges into it, as chosen below; "
                        "anything with jobs becomes a new scenario."
                    </p>
                    <fieldset class="import-mode">
                        <legend class="field-label">"Configuration alone (Kueue YAML, AWS quota shares or a service environment)"</legend>
                        <div class="import-mode-options">
                            <label class="check">
                                <input type="radio" name="import-mode" value="replace"
                                    prop:checked=move || mode.get() == Mode::Replace
                                    on:change=move |_| picked.set(Some(Mode::Replace)) />
                                "Replace the shares and the environment"
                            </label>
                            <label class="check">
                                <input type="radio" name="import-mode" value="merge"
                                    prop:checked=move || mode.get() == Mode::Merge
                                    on:change=move |_| picked.set(Some(Mode::Merge)) />
                                "Merge"
                            </label>
                        </div>
                        <p class="muted small import-mode-hint">
                            {move || match mode.get() {
                                Mode::Replace => "The imported shares and service environment take the place of the current ones; \
                                    jobs that could no longer run are removed and named, and History keeps the previous scenario.",
                                Mode::Merge => "An imported share replaces the one of the same name or is added, and the imported \
                                    capacity replaces the environment's; the other shares and every job stay.",
                            }}
                            " "
                            {move || match default_mode.get() {
                                Mode::Replace => "Replace is the default here: this scenario has no jobs of its own (none, or a preset's or New's).",
                                Mode::Merge => "Merge is the default here: this scenario has jobs of its own.",
                            }}
                        </p>
                    </fieldset>
                    <div class="drop-zone" on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
                        <label class="field">
                            <span class="field-label">"Files (several AWS outputs at once), or drop them here"</span>
                            <input type="file" multiple accept=".json,.jsonl,.yaml,.yml,.csv,application/json,text/csv" on:change=on_file />
                        </label>
                    </div>
                    <details class="trace-options">
                        <summary>"CSV job logs"</summary>
                        <label class="field">
                            <span class="field-label">"Columns (FIELD=COLUMN; not needed for the openb pod list)"</span>
                            <input type="text" spellcheck="false" placeholder="submit=submit_time,duration=duration,gpus=gpu_num,team=vc"
                                prop:value=move || columns.get() on:input=move |ev| columns.set(event_target_value(&ev)) />
                        </label>
                        <label class="field">
                            <span class="field-label">"GPUs per instance"</span>
                            <input type="number" min="1" max="1024" prop:value=move || gpus.get().to_string()
                                on:input=on_gpus />
                        </label>
                    </details>
                    <label class="field">
                        <span class="field-label">"…or paste any of them"</span>
                        <textarea rows="12" spellcheck="false" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                    </label>
                    <div class="row-actions">
                        <button class="btn primary" on:click=move |_| { app.note_import(); import_files(vec![("pasted".into(), text.get_untracked())]) }>"Load pasted text"</button>
                        {move || reading.get().map(|m| view! { <span class="msg" role="status">{m}</span> })}
                        {move || message.get().map(|(ok, m)| view! { <span class=if ok { "msg ok" } else { "msg err" } role="alert">{m}</span> })}
                    </div>
                    <Show when=move || report.with(|r| !r.is_empty())>
                        <ul class="import-report" aria-label="what the import recognised and found">
                            {move || report.get().into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                        </ul>
                    </Show>
                </div>
            </div>
        </Show>
    }
}
