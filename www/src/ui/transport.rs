//! Playback: play, pause, step to the previous / next event, speed, jump to start / end and a
//! scrubber to any instant. The playback timer (gloo-timers) is cancelled on pause and cleanup.

use gloo_timers::callback::Interval;
use leptos::prelude::*;

use crate::geometry::format_time;
use crate::ui::state::use_app;

const SPEEDS: [(u64, &str); 7] = [
    (0, "auto (20 s)"),
    (60, "1 min / s"),
    (600, "10 min / s"),
    (3600, "1 h / s"),
    (6 * 3600, "6 h / s"),
    (86400, "1 day / s"),
    (7 * 86400, "1 week / s"),
];
const TICK_MS: u32 = 100;

fn icon(d: &'static str) -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
            <path d=d fill="currentColor" />
        </svg>
    }
}

#[component]
pub fn Transport() -> impl IntoView {
    let app = use_app();
    let timer: StoredValue<Option<Interval>, LocalStorage> = StoredValue::new_local(None);
    let end = Memo::new(move |_| app.end());
    // A live state (R28) begins at its startAt: the player's start.
    let start = Memo::new(move |_| app.start());
    // The ticks while playing (the timer is the world outside; its ticks move the playhead).
    Effect::new(move |_| {
        if app.play.playing.get() {
            let iv = Interval::new(TICK_MS, move || {
                let e = end.get_untracked();
                let per_sec = match app.play.speed.get_untracked() {
                    0 => (e / 20).max(1),
                    s => s,
                };
                let step = (per_sec * TICK_MS as u64 / 1000).max(1);
                let next = (app.play.now.get_untracked() + step).min(e);
                app.play.now.set(next);
                if next >= e {
                    app.play.playing.set(false);
                }
            });
            timer.set_value(Some(iv));
        } else {
            timer.set_value(None);
        }
    });
    on_cleanup(move || {
        let _ = timer.try_set_value(None);
    });
    let step_to = move |forward: bool| {
        app.play.playing.set(false);
        let now = app.play.now.get_untracked();
        let t = app.run.handle.with_untracked(|r| {
            r.as_ref().and_then(|r| if forward { r.data.next_instant(now) } else { r.data.prev_instant(now) })
        });
        if let Some(t) = t {
            app.play.now.set(t);
        } else if forward {
            app.play.now.set(end.get_untracked());
        } else {
            app.play.now.set(start.get_untracked());
        }
    };
    let disabled = move || app.run.handle.with(|r| r.is_none());
    // Zooms the charts' time window by `factor` around the current instant.
    let zoom = move |factor: f64| {
        let (s, end) = (start.get_untracked(), end.get_untracked().max(start.get_untracked() + 1));
        let whole = end - s;
        let (a, b) = app.window();
        let span = (((b - a) as f64 * factor) as u64).clamp(60.min(whole), whole);
        let now = app.play.now.get_untracked().clamp(s, end);
        let a = now.saturating_sub(span / 2).clamp(s, end - span);
        app.play.view.set((a, a + span));
    };
    view! {
        <div class="transport" role="group" aria-label="playback">
            <button class="icon-btn big" aria-label="jump to start" title="jump to start" on:click=move |_| { app.play.playing.set(false); app.play.now.set(start.get_untracked()) } disabled=disabled>{icon("M3 3h2v10H3zM13 3v10L6 8z")}</button>
            <button class="icon-btn big" aria-label="step to previous event" title="previous event" on:click=move |_| step_to(false) disabled=disabled>{icon("M10 3v10L3 8zM11 3h2v10h-2z")}</button>
            <button
                class="icon-btn big play"
                aria-label=move || if app.play.playing.get() { "pause" } else { "play" }
                title=move || if app.play.playing.get() { "pause" } else { "play" }
                on:click=move |_| {
                    let play = !app.play.playing.get_untracked();
                    // Play at the end starts again from the start.
                    if play && app.play.now.get_untracked() >= end.get_untracked() {
                        app.play.now.set(start.get_untracked());
                    }
                    app.play.playing.set(play);
                }
                disabled=disabled
            >
                {move || if app.play.playing.get() { icon("M4 3h3v10H4zM9 3h3v10H9z") } else { icon("M4 2.5v11L13.5 8z") }}
            </button>
            <button class="icon-btn big" aria-label="step to next event" title="next event" on:click=move |_| step_to(true) disabled=disabled>{icon("M6 3v10l7-5zM3 3h2v10H3z")}</button>
            <button class="icon-btn big" aria-label="jump to end" title="jump to end" on:click=move |_| { app.play.playing.set(false); app.play.now.set(end.get_untracked()) } disabled=disabled>{icon("M3 3v10l7-5zM11 3h2v10h-2z")}</button>
            <input
                class="scrubber"
                type="range"
                min=move || start.get().to_string()
                aria-label="current instant"
                max=move || end.get().to_string()
                step=move || crate::geometry::slider_step(end.get() - start.get().min(end.get())).to_string()
                aria-valuetext=move || format!("{} of {}", format_time(app.play.now.get()), format_time(end.get()))
                prop:value=move || app.play.now.get().to_string()
                on:input=move |ev| {
                    if let Ok(t) = event_target_value(&ev).parse::<u64>() {
                        app.play.playing.set(false);
                        app.play.now.set(t);
                    }
                }
            />
            <span class="clock" aria-live="off">
                <strong data-now=move || app.play.now.get().to_string()>{move || format_time(app.play.now.get())}</strong>
                " / " {move || format_time(end.get())}
            </span>
            <div class="zoom" role="group" aria-label="chart time window">
                <button class="btn small" aria-label="zoom in around the current instant" title="zoom in" on:click=move |_| zoom(0.5) disabled=disabled>"+"</button>
                <button class="btn small" aria-label="zoom out" title="zoom out" on:click=move |_| zoom(2.0) disabled=disabled>"−"</button>
                <button class="btn small" aria-label="fit: show the whole run" title="show the whole run" on:click=move |_| app.play.view.set((0, u64::MAX)) disabled=disabled>"fit"</button>
            </div>
            <label class="field inline">
                <span class="field-label">"Speed"</span>
                <select on:change=move |ev| app.play.speed.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {SPEEDS.iter().map(|(v, t)| view! { <option value=v.to_string()>{*t}</option> }).collect_view()}
                </select>
            </label>
        </div>
    }
}
