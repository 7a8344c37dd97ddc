//! The playground's bridges, a wasm module of their own: the engine's importers (AWS Batch
//! outputs, Kueue YAML, CSV job logs) with the YAML reader, and the deploy exports
//! (CloudFormation, AWS CLI, Kueue YAML). The page loads it when the Import / Export dialog
//! first needs it, so its first load does not carry them.
//!
//! The page and the module share nothing but text: each request and reply is JSON in the
//! engine's own formats ([`wire`]). The page links this crate as a library for the types and
//! the encoding only; the module's exports exist with the `module` feature (`build.sh`).

pub mod importer;
pub mod wire;

pub use importer::{kind_of, FileKind, Outcome, TraceSettings};
pub use wire::{
    export_reply, export_request, handle_export, handle_import, import_reply, import_request, ExportFormat,
};

/// The module's exports, called by the page with a request and answering with a reply (both
/// JSON text, see [`wire`]).
#[cfg(feature = "module")]
mod exports {
    use wasm_bindgen::prelude::*;

    /// Reads files that are not the playground's own JSON (an [`crate::wire`] import request).
    #[wasm_bindgen(js_name = importFiles)]
    pub fn import_files(request: &str) -> String {
        crate::handle_import(request)
    }

    /// Writes a scenario in another tool's format (an [`crate::wire`] export request).
    #[wasm_bindgen(js_name = exportScenario)]
    pub fn export_scenario(request: &str) -> String {
        crate::handle_export(request)
    }
}
