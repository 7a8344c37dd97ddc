//! Small browser helpers: storage, the URL fragment, downloads, the clock.

use wasm_bindgen::JsCast;

pub fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// Whether the page is hidden (its tab in the background, or being closed).
pub fn page_hidden() -> bool {
    window().and_then(|w| w.document()).is_some_and(|d| d.hidden())
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
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    download_blob(filename, &blob);
}

/// Offers `blob` as a file download (an `<a download>` with an object URL).
pub fn download_blob(filename: &str, blob: &web_sys::Blob) {
    let Some(doc) = window().and_then(|w| w.document()) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else { return };
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

/// The element that has keyboard focus now, HTML or SVG (a chart marker), unless it is the
/// body.
pub fn focused_element() -> Option<web_sys::Element> {
    let doc = window()?.document()?;
    let el = doc.active_element()?;
    (el.tag_name() != "BODY").then_some(el)
}

/// Focuses any element, HTML or SVG (`focus()` is on both, in different interfaces).
pub fn focus_element(el: &web_sys::Element) -> bool {
    js_sys::Reflect::get(el, &"focus".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .is_some_and(|f| f.call0(el).is_ok())
}

/// Gives focus back to `el` after a panel or dialog closes. A chart redrawn in the meantime has
/// replaced its markers: then the element of the same kind and data (`data-pre`, `data-job`,
/// `data-group`) is focused in its place, and failing that the player, so that focus never
/// drops to the page's body.
pub fn return_focus(el: &web_sys::Element) {
    if el.is_connected() && focus_element(el) {
        return;
    }
    let Some(doc) = window().and_then(|w| w.document()) else { return };
    let same = ["data-pre", "data-job", "data-group"].iter().find_map(|a| {
        let v = el.get_attribute(a)?;
        let sel = format!("{}[{a}=\"{}\"]", el.tag_name().to_ascii_lowercase(), v.replace(['"', '\\'], ""));
        doc.query_selector(&sel).ok().flatten()
    });
    let fallback = || doc.get_element_by_id("player");
    if let Some(e) = same.or_else(fallback) {
        focus_element(&e);
    }
}

/// What a dialog's Tab moves between: its enabled, shown controls, in document order.
const TABBABLE: &str = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), \
    textarea:not([disabled]), summary, [tabindex]:not([tabindex=\"-1\"])";

/// Keeps Tab and Shift+Tab inside the element the keydown listener is on (a modal dialog):
/// from its last control Tab goes to its first, from its first Shift+Tab goes to its last.
pub fn keep_tab_inside(ev: &web_sys::KeyboardEvent) {
    if ev.key() != "Tab" {
        return;
    }
    let Some(dialog) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return;
    };
    let Ok(list) = dialog.query_selector_all(TABBABLE) else { return };
    let items: Vec<web_sys::Element> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<web_sys::Element>().ok())
        // Shown only: an element in a closed <details> or under display: none has no boxes.
        .filter(|e| {
            let r = e.get_bounding_client_rect();
            r.width() > 0.0 || r.height() > 0.0
        })
        .collect();
    let (Some(first), Some(last)) = (items.first(), items.last()) else {
        ev.prevent_default();
        return;
    };
    let active = focused_element();
    let inside = active.as_ref().is_some_and(|a| dialog.contains(Some(a)));
    let target = if ev.shift_key() {
        (!inside || active.as_ref() == Some(first)).then_some(last)
    } else {
        (!inside || active.as_ref() == Some(last)).then_some(first)
    };
    if let Some(t) = target {
        ev.prevent_default();
        focus_element(t);
    }
}

/// A dialog takes focus when `open` turns true (on the element `first` refers to) and gives it
/// back to whatever had it before when `open` turns false.
pub fn dialog_focus(
    open: leptos::prelude::Signal<bool>,
    first: leptos::prelude::NodeRef<leptos::html::Button>,
) {
    use leptos::prelude::*;
    let opener = StoredValue::new_local(None::<web_sys::Element>);
    Effect::new(move |was: Option<bool>| {
        let now = open.get();
        if now && was != Some(true) {
            opener.set_value(focused_element());
            // The dialog's nodes exist after this render: focus on the next tick.
            let _ = gloo_timers::callback::Timeout::new(0, move || {
                if let Some(b) = first.get_untracked() {
                    let _ = b.focus();
                }
            })
            .forget();
        } else if !now && was == Some(true) {
            if let Some(el) = opener.get_value() {
                return_focus(&el);
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
