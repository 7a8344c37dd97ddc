//! Labelled inputs that show the validation problem of their field (matched by path).

use leptos::prelude::*;

use crate::edit::error_at;
use crate::ui::state::use_app;

/// The error message of the field at `path` (which may change, as a row moves), memoised so
/// that only the fields whose message changes update.
pub fn field_error(path: impl Into<Signal<String>>) -> Signal<Option<String>> {
    let app = use_app();
    let path = path.into();
    Memo::new(move |_| path.with(|path| app.doc.problems.with(|p| error_at(p, path)))).into()
}

fn parse_num(text: &str) -> Option<i64> {
    text.trim().parse::<i64>().ok()
}

/// Applies what was typed into a number input: a whole number is set; anything else is left
/// in the input as typed (nothing is lost) and explained next to it, and the scenario keeps
/// its last valid value until the text is fixed.
fn apply_num(text: &str, optional: bool, set: &impl Fn(Option<i64>), bad: RwSignal<Option<String>>) {
    if text.trim().is_empty() {
        if optional {
            bad.set(None);
            set(None)
        } else {
            bad.set(Some("a value is needed here".to_string()))
        }
    } else if let Some(v) = parse_num(text) {
        bad.set(None);
        set(Some(v))
    } else {
        bad.set(Some(format!("{} is not a whole number", text.trim())))
    }
}

/// A whole-number input with a visible label. `optional` fields accept an empty value (None).
pub fn num_field(
    label: &'static str,
    path: impl Into<Signal<String>>,
    get: impl Fn() -> Option<i64> + Send + Sync + 'static,
    set: impl Fn(Option<i64>) + 'static,
    optional: bool,
    hint: &'static str,
) -> impl IntoView {
    let path: Signal<String> = path.into();
    let problem = field_error(path);
    let bad = RwSignal::new(None::<String>);
    let err = Signal::derive(move || bad.get().or_else(|| problem.get()));
    view! {
        <label class="field" class:invalid=move || err.get().is_some()>
            <span class="field-label">{label}</span>
            <input
                type="text"
                inputmode="numeric"
                data-path=path
                placeholder=hint
                aria-invalid=move || if err.get().is_some() { "true" } else { "false" }
                prop:value=move || get().map(|v| v.to_string()).unwrap_or_default()
                on:input=move |ev| apply_num(&event_target_value(&ev), optional, &set, bad)
            />
            <span class="field-error" role="alert">{move || err.get()}</span>
        </label>
    }
}

/// A compact number input for table cells: the label is for screen readers, the problem shows
/// under the input.
pub fn num_cell(
    label: Signal<String>,
    path: Signal<String>,
    get: impl Fn() -> Option<i64> + Send + Sync + 'static,
    set: impl Fn(Option<i64>) + 'static,
    optional: bool,
) -> impl IntoView {
    let problem = field_error(path);
    let bad = RwSignal::new(None::<String>);
    let err = Signal::derive(move || bad.get().or_else(|| problem.get()));
    view! {
        <td class="cell" class:invalid=move || err.get().is_some()>
            <input
                type="text"
                inputmode="numeric"
                aria-label=label
                data-path=path
                placeholder=if optional { "–" } else { "" }
                aria-invalid=move || if err.get().is_some() { "true" } else { "false" }
                title=move || err.get().unwrap_or_default()
                prop:value=move || get().map(|v| v.to_string()).unwrap_or_default()
                on:input=move |ev| apply_num(&event_target_value(&ev), optional, &set, bad)
            />
            <span class="cell-error">{move || err.get()}</span>
        </td>
    }
}

/// A text input with a label and its field's problem.
pub fn text_field(
    label: &'static str,
    path: impl Into<Signal<String>>,
    get: impl Fn() -> String + Send + Sync + 'static,
    set: impl Fn(String) + 'static,
) -> impl IntoView {
    let path = path.into();
    let err = field_error(path);
    view! {
        <label class="field" class:invalid=move || err.get().is_some()>
            <span class="field-label">{label}</span>
            <input
                type="text"
                data-path=path
                spellcheck="false"
                aria-invalid=move || if err.get().is_some() { "true" } else { "false" }
                prop:value=get
                on:input=move |ev| set(event_target_value(&ev))
            />
            <span class="field-error" role="alert">{move || err.get()}</span>
        </label>
    }
}

/// A select with a label; `options` are `(value, text)`.
pub fn select_field(
    label: &'static str,
    path: impl Into<Signal<String>>,
    options: impl Fn() -> Vec<(String, String)> + Send + Sync + 'static,
    get: impl Fn() -> String + Send + Sync + 'static,
    set: impl Fn(String) + 'static,
) -> impl IntoView {
    let path = path.into();
    let err = field_error(path);
    let get = std::sync::Arc::new(get);
    let g2 = get.clone();
    view! {
        <label class="field" class:invalid=move || err.get().is_some()>
            <span class="field-label">{label}</span>
            <select
                data-path=path
                prop:value=move || g2()
                on:change=move |ev| set(event_target_value(&ev))
            >
                {move || {
                    let cur = get();
                    options()
                        .into_iter()
                        .map(|(v, t)| {
                            let sel = v == cur;
                            view! { <option value=v selected=sel>{t}</option> }
                        })
                        .collect_view()
                }}
            </select>
            <span class="field-error" role="alert">{move || err.get()}</span>
        </label>
    }
}

/// A checkbox with a label.
pub fn check_field(
    label: &'static str,
    get: impl Fn() -> bool + Send + Sync + 'static,
    set: impl Fn(bool) + 'static,
) -> impl IntoView {
    view! {
        <label class="check">
            <input type="checkbox" prop:checked=get on:change=move |ev| set(event_target_checked(&ev)) />
            <span>{label}</span>
        </label>
    }
}
