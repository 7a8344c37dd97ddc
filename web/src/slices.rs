//! Long calls in slices: the one loop `eta`, `etaJson`, `sweep`, `sweepJsonl`, `recommend` and
//! `recommendJson` run their work (replicates, sweep rows, a study's runs) in.
//!
//! A slice runs items in order until the clock passes [`SLICE_MS`] (at least one item; a slice
//! cannot end inside an item). The asynchronous forms yield to the event loop (a
//! `setTimeout(0)`) before each slice, so timers, I/O and rendering go on between slices; the
//! synchronous forms run the same slices without yielding. The signal is checked before each
//! slice; an aborted call rejects (or throws) a `DOMException` named `AbortError`.

use std::future::Future;
use std::task::{Context, Poll, Waker};

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How long a slice runs items before it yields to the event loop: a slice ends at the first
/// item that ends after it, so the event loop waits this plus one item (and the first time,
/// the engine's code being compiled: a cold call's slices run longer).
pub const SLICE_MS: f64 = 25.0;

/// How a sliced call runs.
pub struct Slices<'a> {
    /// An `AbortSignal` (any object with a boolean `aborted`), checked before each slice.
    pub signal: Option<&'a JsValue>,
    /// Whether to yield to the event loop before each slice (the `Promise` forms).
    pub yielding: bool,
    /// What is aborted, for the `AbortError`'s message: "forecast", "sweep".
    pub what: &'static str,
}

impl Slices<'_> {
    /// The `AbortError` when the signal is already aborted.
    pub fn check(&self) -> Result<(), JsValue> {
        if aborted(self.signal) {
            Err(abort_error(self.what))
        } else {
            Ok(())
        }
    }
}

/// Runs `item(0)`, ..., `item(total - 1)` in slices, calling `after_slice(done)` after each
/// slice; what either returns as an error stops the call.
pub async fn in_slices(
    s: &Slices<'_>,
    total: usize,
    mut item: impl FnMut(usize) -> Result<(), JsValue>,
    mut after_slice: impl FnMut(usize) -> Result<(), JsValue>,
) -> Result<(), JsValue> {
    let done = std::cell::Cell::new(0);
    until_done(
        s,
        || {
            if done.get() < total {
                item(done.get())?;
                done.set(done.get() + 1);
            }
            Ok(done.get() >= total)
        },
        || after_slice(done.get()),
    )
    .await
}

/// Calls `work()` in slices until it says it is done (`Ok(true)`), calling `after_slice()`
/// after each slice: for work whose size is not known at the start (a study's runs, each
/// advanced a bounded number of instants per call).
pub async fn until_done(
    s: &Slices<'_>,
    mut work: impl FnMut() -> Result<bool, JsValue>,
    mut after_slice: impl FnMut() -> Result<(), JsValue>,
) -> Result<(), JsValue> {
    loop {
        if s.yielding {
            next_task().await?;
        }
        s.check()?;
        let until = js_sys::Date::now() + SLICE_MS;
        let mut finished = false;
        while !finished {
            finished = work()?;
            if js_sys::Date::now() >= until {
                break;
            }
        }
        after_slice()?;
        if finished {
            return Ok(());
        }
    }
}

/// Runs a sliced call that does not yield to its end, synchronously: nothing in it waits, so
/// one poll finishes it.
pub fn at_once<T>(call: impl Future<Output = Result<T, JsValue>>) -> Result<T, JsValue> {
    let mut call = std::pin::pin!(call);
    match call.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(r) => r,
        Poll::Pending => {
            Err(js_sys::Error::new("quotasim: a synchronous call waited for the event loop").into())
        }
    }
}

/// Reads an `AbortSignal` option: any object with a boolean `aborted` (an `AbortSignal` from any
/// realm) will do. The error is the message for the option.
pub fn signal_option(v: JsValue) -> Result<JsValue, String> {
    let aborted = js_sys::Reflect::get(&v, &JsValue::from_str("aborted")).ok().and_then(|a| a.as_bool());
    if !v.is_object() || aborted.is_none() {
        return Err(format!("must be an AbortSignal, not {}", crate::shown(&v)));
    }
    Ok(v)
}

fn aborted(signal: Option<&JsValue>) -> bool {
    signal.is_some_and(|s| {
        js_sys::Reflect::get(s, &JsValue::from_str("aborted")).ok().and_then(|a| a.as_bool()).unwrap_or(false)
    })
}

/// What an aborted call rejects with: a `DOMException` named `AbortError`, as `fetch` rejects,
/// or an `Error` of that name where `DOMException` does not exist.
fn abort_error(what: &str) -> JsValue {
    let message = format!("quotasim: the {what} was aborted");
    let ctor = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("DOMException"))
        .and_then(|c| c.dyn_into::<js_sys::Function>());
    if let Ok(ctor) = ctor {
        let args = js_sys::Array::of2(&JsValue::from_str(&message), &JsValue::from_str("AbortError"));
        if let Ok(e) = js_sys::Reflect::construct(&ctor, &args) {
            return e;
        }
    }
    let e = js_sys::Error::new(&message);
    e.set_name("AbortError");
    e.into()
}

/// Resolves a macrotask later (`setTimeout(fn, 0)`), so that the event loop runs timers, I/O
/// and rendering in between; in Node, browsers and workers alike.
async fn next_task() -> Result<(), JsValue> {
    let global = js_sys::global();
    let set_timeout = js_sys::Reflect::get(&global, &JsValue::from_str("setTimeout"))
        .and_then(|f| f.dyn_into::<js_sys::Function>())
        .map_err(|_| {
            JsValue::from(js_sys::Error::new("quotasim: no setTimeout to yield to the event loop with"))
        })?;
    let tick = js_sys::Promise::new(&mut |resolve, reject| {
        if let Err(e) = set_timeout.call2(&global, &resolve, &JsValue::from(0)) {
            let _ = reject.call1(&JsValue::UNDEFINED, &e);
        }
    });
    wasm_bindgen_futures::JsFuture::from(tick).await.map(drop)
}
