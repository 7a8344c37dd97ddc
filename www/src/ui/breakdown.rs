//! A job's wait over the run split by cause (`runnableSecondsByCause`), as a small stacked bar
//! with each cause named beside its time: the explanation panel shows it under the reason the
//! job waits now.

use leptos::prelude::*;

use crate::causes::{label, meaning, segments};
use crate::geometry::format_duration;
use crate::ui::state::use_app;

/// Job `j`'s breakdown in the finished run (nothing when it never waited).
#[component]
pub fn WaitBreakdown(j: usize) -> impl IntoView {
    let app = use_app();
    let parts = app.run.handle.with_untracked(|r| {
        let r = r.as_ref()?;
        let jobs = r.data.full().scenario().jobs.len();
        (j < jobs).then(|| {
            segments(&r.data.full().job_result(quotasim::scenario::JobId::at(j)).runnable_seconds_by_cause)
        })
    });
    let parts = parts.unwrap_or_default();
    if parts.is_empty() {
        return None;
    }
    let total: u64 = parts.iter().map(|p| p.1).sum();
    let summary = parts
        .iter()
        .map(|(c, s, _)| format!("{} {}", label(*c), format_duration(*s)))
        .collect::<Vec<_>>()
        .join(", ");
    Some(view! {
        <div class="breakdown">
            <h4>{format!("Its wait over the run, by cause: {}", format_duration(total))}</h4>
            <div class="cause-bar" role="img" aria-label=format!("wait by cause: {summary}")>
                {parts
                    .iter()
                    .map(|(c, s, f)| {
                        view! {
                            <span
                                class=format!("cause-seg cause-{}", c.key())
                                style:width=format!("{:.3}%", f * 100.0)
                                title=format!("{}: {} ({})", label(*c), format_duration(*s), meaning(*c))
                            ></span>
                        }
                    })
                    .collect_view()}
            </div>
            <ul class="cause-legend">
                {parts
                    .iter()
                    .map(|(c, s, f)| {
                        view! {
                            <li title=meaning(*c)>
                                <span class=format!("cause-swatch cause-{}", c.key())></span>
                                {format!("{} {} ({:.0} %)", label(*c), format_duration(*s), f * 100.0)}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </div>
    })
}
