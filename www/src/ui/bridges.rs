//! The bridges module (`www/bridges`: the importers, the YAML reader, the deploy exports), a
//! wasm module of its own that the page loads when the Import / Export dialog first needs it
//! (`www/start.js` fetches it once), so the first load does not carry it. Requests and
//! replies are JSON text ([`quotasim_playground_bridges::wire`]).
//!
//! With the `inline-bridges` feature (the component tests, which run without Trunk's build)
//! the same requests are answered in this module, through the same encoding.

use quotasim::model::Scenario;
use quotasim::Problem;
use quotasim_playground_bridges as bridges;
pub use quotasim_playground_bridges::{ExportFormat, Outcome, TraceSettings};

/// Whether `text` is the playground's own JSON (a scenario or a comparison), which the page
/// reads itself, without the bridges.
pub fn is_own(text: &str) -> bool {
    bridges::kind_of(text) == bridges::FileKind::Own
}

/// Starts loading the module (the dialog has opened), so that it is there when a file comes.
pub fn preload() {
    #[cfg(not(feature = "inline-bridges"))]
    let _ = remote::load();
}

/// Imports files that are not the playground's own JSON (see [`bridges::importer::import`]);
/// the outer error: the module could not be loaded or answer.
#[allow(clippy::type_complexity)]
pub async fn import(
    files: &[(String, String)],
    settings: &TraceSettings,
) -> Result<Result<Option<Outcome>, Vec<Problem>>, String> {
    let reply = call("importFiles", &bridges::import_request(files, settings)).await?;
    bridges::import_reply(&reply)
}

/// `s` in another tool's format.
pub async fn export(format: ExportFormat, s: &Scenario) -> Result<String, String> {
    let reply = call("exportScenario", &bridges::export_request(format, s)).await?;
    bridges::export_reply(&reply)
}

#[cfg(feature = "inline-bridges")]
async fn call(name: &str, request: &str) -> Result<String, String> {
    Ok(match name {
        "importFiles" => bridges::handle_import(request),
        _ => bridges::handle_export(request),
    })
}

#[cfg(not(feature = "inline-bridges"))]
async fn call(name: &str, request: &str) -> Result<String, String> {
    remote::call(name, request).await
}

#[cfg(not(feature = "inline-bridges"))]
mod remote {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    #[wasm_bindgen]
    extern "C" {
        /// The module's exports, loaded and initialised once (`www/start.js`).
        #[wasm_bindgen(catch, js_name = quotasimBridges)]
        fn bridges_module() -> Result<js_sys::Promise, JsValue>;
    }

    fn text(e: &JsValue) -> String {
        e.dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| format!("{e:?}"))
    }

    pub(super) fn load() -> Result<js_sys::Promise, String> {
        bridges_module().map_err(|e| format!("the importers could not be loaded: {}", text(&e)))
    }

    pub(super) async fn call(name: &str, request: &str) -> Result<String, String> {
        let module = wasm_bindgen_futures::JsFuture::from(load()?)
            .await
            .map_err(|e| format!("the importers could not be loaded: {}", text(&e)))?;
        let f = js_sys::Reflect::get(&module, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .ok_or_else(|| format!("the importers' module has no {name}"))?;
        let out = f
            .call1(&JsValue::NULL, &JsValue::from_str(request))
            .map_err(|e| format!("the importers failed: {}", text(&e)))?;
        out.as_string().ok_or_else(|| format!("the importers' {name} answered no text"))
    }
}
