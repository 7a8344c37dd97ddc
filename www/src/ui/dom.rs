//! Small browser helpers: storage, the URL fragment, downloads, the clock.

use wasm_bindgen::JsCast;

pub fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// Milliseconds from the page's time origin.
pub fn now_ms() -> f64 {
    window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

pub fn storage_get(key: &str) -> Option<String> {
    window()?.local_storage().ok()??.get_item(key).ok()?
}

/// Stores `value`; a full or disabled storage is reported as `false`, never a panic.
pub fn storage_set(key: &str, value: &str) -> bool {
    window().and_then(|w| w.local_storage().ok().flatten()).is_some_and(|s| s.set_item(key, value).is_ok())
}

pub fn storage_remove(key: &str) {
    if let Some(s) = window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.remove_item(key);
    }
}

pub fn location_hash() -> String {
    window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Replaces the URL fragment without a new history entry.
pub fn replace_hash(hash: &str) {
    if let Some(h) = window().and_then(|w| w.history().ok()) {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
    }
}

/// The page URL with `hash` as its fragment (for share links).
pub fn url_with_hash(hash: &str) -> String {
    let Some(loc) = window().map(|w| w.location()) else { return hash.to_string() };
    let base = format!(
        "{}{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    );
    format!("{base}{hash}")
}

/// Offers `text` as a file download.
pub fn download(filename: &str, mime: &str, text: &str) {
    let Some(doc) = window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = doc.create_element("a") {
        if let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>() {
            a.set_href(&url);
            a.set_download(filename);
            a.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Copies text to the clipboard when the browser allows it.
pub fn copy_text(text: &str) {
    if let Some(w) = window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// The closest element (from the event target up) carrying `attr`, and its value.
pub fn closest_attr(ev: &web_sys::Event, attr: &str) -> Option<String> {
    let mut el: Option<web_sys::Element> = ev.target()?.dyn_into::<web_sys::Element>().ok();
    while let Some(e) = el {
        if let Some(v) = e.get_attribute(attr) {
            return Some(v);
        }
        el = e.parent_element();
    }
    None
}

/// Reads a chosen file's text.
pub async fn read_file(file: web_sys::File) -> Result<String, String> {
    let p = file.text();
    match wasm_bindgen_futures::JsFuture::from(p).await {
        Ok(v) => v.as_string().ok_or_else(|| String::from("the file is not text")),
        Err(_) => Err(String::from("the file could not be read")),
    }
}

/// The pointer's x position inside the element the listener is on.
pub fn local_x(ev: &web_sys::MouseEvent) -> f64 {
    let left = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map_or(0.0, |e| e.get_bounding_client_rect().left());
    ev.client_x() as f64 - left
}

/// Focuses the input of the field at `path` (its `data-path`), if it is on screen.
pub fn focus_path(path: &str) {
    let Some(doc) = window().and_then(|w| w.document()) else { return };
    let sel = format!("[data-path=\"{}\"]", path.replace('"', ""));
    if let Some(el) =
        doc.query_selector(&sel).ok().flatten().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// Where the page's theme choice is kept.
pub const THEME_KEY: &str = "quotasim-theme";

/// Whether the light theme shows: the page's own choice if one was made, else the system's
/// `prefers-color-scheme`.
pub fn light_theme_wanted() -> bool {
    match storage_get(THEME_KEY).as_deref() {
        Some("light") => true,
        Some("dark") => false,
        _ => window()
            .and_then(|w| w.match_media("(prefers-color-scheme: light)").ok().flatten())
            .is_some_and(|m| m.matches()),
    }
}

/// Shows the light (or dark) theme: `data-theme` on the root element, which the style sheet reads.
pub fn apply_theme(light: bool) {
    if let Some(root) = window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-theme", if light { "light" } else { "dark" });
    }
}

/// The element that has keyboard focus now, to give it back later.
pub fn focused() -> Option<web_sys::HtmlElement> {
    window()?.document()?.active_element()?.dyn_into::<web_sys::HtmlElement>().ok()
}

/// A dialog takes focus when `open` turns true (on the element `first` refers to) and gives it
/// back to whatever had it before when `open` turns false.
pub fn dialog_focus(
    open: leptos::prelude::Signal<bool>,
    first: leptos::prelude::NodeRef<leptos::html::Button>,
) {
    use leptos::prelude::*;
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    Effect::new(move |was: Option<bool>| {
        let now = open.get();
        if now && was != Some(true) {
            opener.set_value(focused());
            // The dialog's nodes exist after this render: focus on the next tick.
            let _ = gloo_timers::callback::Timeout::new(0, move || {
                if let Some(b) = first.get_untracked() {
                    let _ = b.focus();
                }
            })
            .forget();
        } else if !now && was == Some(true) {
            if let Some(el) = opener.get_value() {
                let _ = el.focus();
            }
        }
        now
    });
}

/// `performance.mark(name)`: the start of something the page measures.
pub fn perf_mark(name: &str) {
    if let Some(p) = window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// `performance.measure(name, start)`: from the latest mark `start` until now.
pub fn perf_measure(name: &str, start: &str) {
    if let Some(p) = window().and_then(|w| w.performance()) {
        let _ = p.measure_with_start_mark(name, start);
    }
}

/// Records the WebAssembly memory's size as a `performance.mark` named
/// `quotasim:wasm-memory`, its `detail` the size in bytes (memory only grows, so this is the
/// page's high-water mark so far).
pub fn mark_memory() {
    let Some(p) = window().and_then(|w| w.performance()) else { return };
    let bytes = js_sys::Reflect::get(&wasm_bindgen::memory(), &"buffer".into())
        .and_then(|b| js_sys::Reflect::get(&b, &"byteLength".into()))
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"detail".into(), &bytes.into());
    if let Ok(mark) = js_sys::Reflect::get(&p, &"mark".into()).and_then(|f| f.dyn_into::<js_sys::Function>())
    {
        let _ = mark.call2(&p, &"quotasim:wasm-memory".into(), &opts);
    }
}

/// Calls `f` once the next frame has been painted (a frame, then a task after it).
pub fn after_next_paint(f: impl FnOnce() + 'static) {
    let Some(w) = window() else { return };
    let cb = wasm_bindgen::closure::Closure::once_into_js(move || {
        gloo_timers::callback::Timeout::new(0, f).forget();
    });
    let _ = w.request_animation_frame(cb.unchecked_ref());
}
