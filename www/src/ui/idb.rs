//! The page's IndexedDB store: one object store of texts by key, for saves too large for
//! localStorage (which holds about 5 MB per origin). A text is stored as a `Blob` of its UTF-8
//! bytes: made from the page's bytes without decoding them into a JavaScript string, and stored
//! without copying it whole inside the task (a 40 MB string took some 60 ms of the page to
//! decode and clone). Each call opens the database, does one transaction and waits for it to
//! complete; errors are short sentences.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbRequest, IdbTransaction, IdbTransactionMode};

const DB: &str = "quotasim-playground";
const STORE: &str = "saves";

/// A promise settled by `on(ok, err)`'s two callbacks.
fn settle(on: impl FnOnce(JsValue, JsValue)) -> js_sys::Promise {
    let mut on = Some(on);
    js_sys::Promise::new(&mut |resolve: js_sys::Function, reject: js_sys::Function| {
        let ok = Closure::once_into_js(move |v: JsValue| {
            let _ = resolve.call1(&JsValue::UNDEFINED, &v);
        });
        let err = Closure::once_into_js(move |v: JsValue| {
            let _ = reject.call1(&JsValue::UNDEFINED, &v);
        });
        if let Some(on) = on.take() {
            on(ok, err);
        }
    })
}

/// Waits for `req` to succeed, giving its result.
async fn request(req: &IdbRequest) -> Result<JsValue, String> {
    let r = req.clone();
    let p = settle(|ok, err| {
        let r2 = r.clone();
        let done = Closure::once_into_js(move |_: JsValue| {
            let f: &js_sys::Function = ok.unchecked_ref();
            let _ = f.call1(&JsValue::UNDEFINED, &r2.result().unwrap_or(JsValue::UNDEFINED));
        });
        r.set_onsuccess(Some(done.unchecked_ref()));
        r.set_onerror(Some(err.unchecked_ref()));
    });
    JsFuture::from(p).await.map_err(|_| describe(req.error().ok().flatten()))
}

fn describe(e: Option<web_sys::DomException>) -> String {
    e.map_or_else(|| String::from("the browser refused"), |e| format!("{}: {}", e.name(), e.message()))
}

/// Waits for `tx` to commit.
async fn committed(tx: &IdbTransaction) -> Result<(), String> {
    let t = tx.clone();
    let p = settle(|ok, err| {
        t.set_oncomplete(Some(ok.unchecked_ref()));
        t.set_onerror(Some(err.unchecked_ref()));
        t.set_onabort(Some(err.unchecked_ref()));
    });
    JsFuture::from(p).await.map(|_| ()).map_err(|_| describe(tx.error()))
}

async fn open() -> Result<IdbDatabase, String> {
    let factory = crate::ui::dom::window()
        .and_then(|w| w.indexed_db().ok().flatten())
        .ok_or_else(|| String::from("this browser offers no IndexedDB"))?;
    let req = factory.open_with_u32(DB, 1).map_err(|_| String::from("IndexedDB could not be opened"))?;
    let r = req.clone();
    let upgrade = Closure::once_into_js(move |_: JsValue| {
        if let Ok(db) = r.result() {
            let db: IdbDatabase = db.unchecked_into();
            let _ = db.create_object_store(STORE);
        }
    });
    req.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
    Ok(request(&req).await?.unchecked_into())
}

/// Stores `value` under `key`, replacing what was there.
pub async fn put(key: &str, value: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(value.as_bytes()));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts)
        .map_err(|_| String::from("the value could not be stored"))?;
    let db = open().await?;
    let tx = db
        .transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)
        .map_err(|_| String::from("no transaction"))?;
    let store = tx.object_store(STORE).map_err(|_| String::from("no object store"))?;
    store
        .put_with_key(&blob, &JsValue::from_str(key))
        .map_err(|_| String::from("the value could not be stored"))?;
    let r = committed(&tx).await;
    db.close();
    r
}

/// The text stored under `key`, if any (a `Blob`, or a string as earlier versions stored it).
pub async fn get(key: &str) -> Result<Option<String>, String> {
    let db = open().await?;
    let tx = db.transaction_with_str(STORE).map_err(|_| String::from("no transaction"))?;
    let store = tx.object_store(STORE).map_err(|_| String::from("no object store"))?;
    let req = store.get(&JsValue::from_str(key)).map_err(|_| String::from("the value could not be read"))?;
    let v = request(&req).await;
    db.close();
    let v = v?;
    match v.dyn_into::<web_sys::Blob>() {
        Ok(blob) => JsFuture::from(blob.text())
            .await
            .map(|t| t.as_string())
            .map_err(|_| String::from("the saved value could not be read")),
        Err(v) => Ok(v.as_string()),
    }
}
