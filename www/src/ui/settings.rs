//! Simulation settings: the [decided] rules that are cheap to vary.

use leptos::prelude::*;
use quotasim::model::VictimOrder;

use crate::ui::fields::{check_field, num_field, select_field};
use crate::ui::state::use_app;

#[component]
pub fn SettingsEditor() -> impl IntoView {
    let app = use_app();
    macro_rules! secs {
        ($label:expr, $path:expr, $field:ident) => {
            num_field(
                $label,
                format!("settings.{}", $path),
                move || app.doc.scenario.with(|s| Some(s.settings.$field)),
                move |v| {
                    if let Some(v) = v {
                        app.doc.update(|s| s.settings.$field = v)
                    }
                },
                false,
                "",
            )
        };
    }
    view! {
        <section class="editor-section" aria-labelledby="settings-h">
            <h3 id="settings-h">"Settings"</h3>
            <label class="field">
                <span class="field-label">"Scenario description"</span>
                <textarea
                    class="scenario-description"
                    rows="3"
                    placeholder="what this scenario is for (exported with it)"
                    prop:value=move || app.doc.scenario.with(|s| s.description.clone().unwrap_or_default())
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        app.doc.update(|s| s.description = if v.trim().is_empty() { None } else { Some(v) })
                    }
                ></textarea>
            </label>
            <div class="form-grid">
                {secs!("Preemption grace (s, R21)", "preemptionGraceSeconds", preemption_grace_seconds)}
                {secs!("SCHEDULED time (s, R6)", "scheduledSeconds", scheduled_seconds)}
                {secs!("STARTING time (s, R6)", "startingSeconds", starting_seconds)}
                {secs!("Checkpoint save time (s, R8)", "checkpointSaveSeconds", checkpoint_save_seconds)}
                {num_field(
                    "Horizon (s, empty = run to the end)",
                    String::from("settings.horizonSeconds"),
                    move || app.doc.scenario.with(|s| s.settings.horizon_seconds),
                    move |v| app.doc.update(|s| s.settings.horizon_seconds = v),
                    true,
                    "until done",
                )}
                {select_field(
                    "Victim order (R19 step 2)",
                    String::from("settings.victimOrder"),
                    || vec![("aws".into(), "most recently dispatched first".into()), ("leastLostWork".into(), "least lost work first".into())],
                    move || app.doc.scenario.with(|s| if s.settings.victim_order == VictimOrder::Aws { "aws" } else { "leastLostWork" }.to_string()),
                    move |v| app.doc.update(|s| s.settings.victim_order = if v == "aws" { VictimOrder::Aws } else { VictimOrder::LeastLostWork }),
                )}
            </div>
            <div class="checks">
                {check_field("Backfill: later jobs may pass a blocked front job (R12)", move || app.doc.scenario.with(|s| s.settings.backfill), move |on| app.doc.update(|s| s.settings.backfill = on))}
                {check_field("Checkpoint on stop, if the grace period allows (R8)", move || app.doc.scenario.with(|s| s.settings.checkpoint_on_stop), move |on| app.doc.update(|s| s.settings.checkpoint_on_stop = on))}
            </div>
        </section>
    }
}
