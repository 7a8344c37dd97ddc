//! Component tests in headless Chromium: mount the app into a fresh element, act, let the
//! reactive system settle, and check the DOM.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use quotasim_playground::persist;
use quotasim_playground::persist::Saved;
use quotasim_playground::presets;
use quotasim_playground::ui::state::Notice;
use quotasim_playground::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn notebook() -> Saved {
    Saved {
        scenario: presets::scenario(presets::NOTEBOOK).unwrap(),
        colors: Vec::new(),
        preset: Some("notebook".into()),
        now: 0,
        baseline: None,
        objectives: None,
    }
}

struct Mounted {
    root: web_sys::HtmlElement,
    _handle: leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

impl Mounted {
    fn q(&self, sel: &str) -> Option<web_sys::Element> {
        self.root.query_selector(sel).ok().flatten()
    }
    fn all(&self, sel: &str) -> u32 {
        self.root.query_selector_all(sel).map(|l| l.length()).unwrap_or(0)
    }
    fn text(&self, sel: &str) -> String {
        self.q(sel).and_then(|e| e.text_content()).unwrap_or_default()
    }
    fn all_texts(&self, sel: &str) -> Vec<String> {
        let Ok(list) = self.root.query_selector_all(sel) else { return Vec::new() };
        (0..list.length()).filter_map(|i| list.item(i)).filter_map(|n| n.text_content()).collect()
    }
    fn click(&self, sel: &str) {
        let el = self.q(sel).unwrap_or_else(|| panic!("no element {sel}"));
        match el.dyn_ref::<web_sys::HtmlElement>() {
            Some(h) => h.click(),
            None => {
                let init = web_sys::EventInit::new();
                init.set_bubbles(true);
                let ev = web_sys::Event::new_with_event_init_dict("click", &init).unwrap();
                el.dispatch_event(&ev).unwrap();
            }
        }
    }
    /// Clicks the first `sel` whose text is `text`.
    fn click_text(&self, sel: &str, text: &str) {
        let list = self.root.query_selector_all(sel).unwrap();
        let el = (0..list.length())
            .filter_map(|i| list.get(i)?.dyn_into::<web_sys::HtmlElement>().ok())
            .find(|e| e.text_content().unwrap_or_default().trim() == text)
            .unwrap_or_else(|| panic!("no {sel} reading {text}"));
        el.click();
    }
    fn type_into(&self, sel: &str, value: &str) {
        let el: web_sys::HtmlInputElement =
            self.q(sel).unwrap_or_else(|| panic!("no input {sel}")).dyn_into().unwrap();
        el.set_value(value);
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        el.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap()).unwrap();
    }
}

fn mount(saved: Saved) -> Mounted {
    mount_with(saved, None)
}

fn mount_with(saved: Saved, notice: Option<Notice>) -> Mounted {
    let doc = web_sys::window().unwrap().document().unwrap();
    let root: web_sys::HtmlElement = doc.create_element("div").unwrap().dyn_into().unwrap();
    doc.body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone(), move || match notice {
        Some(n) => view! { <App saved=saved notice=n /> }.into_any(),
        None => view! { <App saved=saved /> }.into_any(),
    });
    Mounted { root, _handle: handle }
}

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

fn scenario_name(m: &Mounted) -> String {
    let el: web_sys::HtmlInputElement = m.q("input[aria-label='scenario name']").unwrap().dyn_into().unwrap();
    el.value()
}

async fn settle() {
    for _ in 0..3 {
        leptos::task::tick().await;
        TimeoutFuture::new(20).await;
    }
}

#[wasm_bindgen_test]
async fn the_notebook_runs_and_shows_two_preemption_markers() {
    let m = mount(notebook());
    settle().await;
    assert!(m.text(".status").contains("4 jobs"), "status: {}", m.text(".status"));
    assert_eq!(m.all(".timeline path.marker"), 2);
    assert!(m.text(".preset-info h2").contains("notebook"));
    assert_eq!(m.all(".stats .stat"), 6);
}

#[wasm_bindgen_test]
async fn jump_to_end_moves_the_clock_and_the_snapshot() {
    let m = mount(notebook());
    settle().await;
    m.click("button[aria-label='jump to end']");
    settle().await;
    let max = m.q("input.scrubber").and_then(|e| e.get_attribute("max")).unwrap();
    let now = m.q("[data-now]").and_then(|e| e.get_attribute("data-now")).unwrap();
    assert_eq!(now, max);
    // The slider steps by 5 minutes in this 8:22 run and says the time in words.
    assert_eq!(m.q("input.scrubber").and_then(|e| e.get_attribute("step")).as_deref(), Some("300"));
    assert_eq!(
        m.q("input.scrubber").and_then(|e| e.get_attribute("aria-valuetext")).as_deref(),
        Some("8:22 of 8:22")
    );
    assert!(m.text(".snapshot").contains("4 succeeded"), "{}", m.text(".snapshot"));
}

#[wasm_bindgen_test]
async fn clicking_a_marker_explains_the_reclaim() {
    let m = mount(notebook());
    settle().await;
    m.click(".timeline path.marker[data-pre='0']");
    settle().await;
    let text = m.text(".drawer");
    assert!(text.contains("qs1_job_med was preempted"), "{text}");
    assert!(text.contains("R18"), "{text}");
    // A rule chip opens the rule's statement in the page, and closes it again.
    assert!(m.q(".rule-text").is_none());
    m.click_text(".drawer button.rule", "R19");
    settle().await;
    let rule = m.text(".rule-text");
    assert!(rule.starts_with("R19 Victim choice.") && rule.contains("Lowest priority first"), "{rule}");
    assert_eq!(
        m.q(".drawer button.rule[aria-expanded='true']").and_then(|b| b.text_content()).as_deref(),
        Some("R19")
    );
    m.click_text(".drawer button.rule", "R21");
    settle().await;
    assert!(m.text(".rule-text").starts_with("R21 Preemption takes time."), "one statement at a time");
    m.click_text(".drawer button.rule", "R21");
    settle().await;
    assert!(m.q(".rule-text").is_none());
    m.click("button[aria-label='close explanation']");
    settle().await;
    assert!(m.q(".drawer").is_none());
}

#[wasm_bindgen_test]
async fn the_per_share_table_has_r26_as_a_rule_chip_that_opens_its_statement() {
    let m = mount(notebook());
    settle().await;
    let chip = "section[aria-labelledby='per-share-h'] button.rule";
    assert_eq!(m.text(chip), "R26");
    assert!(m.q("#per-share-rule").is_none());
    m.click(chip);
    settle().await;
    assert!(m.text("#per-share-rule").starts_with("R26 "), "{}", m.text("#per-share-rule"));
    assert_eq!(m.q(chip).and_then(|b| b.get_attribute("aria-expanded")).as_deref(), Some("true"));
    m.click(chip);
    settle().await;
    assert!(m.q("#per-share-rule").is_none());
}

#[wasm_bindgen_test]
async fn an_invalid_field_shows_its_problem_and_blocks_the_run() {
    let m = mount(notebook());
    settle().await;
    m.type_into("input[data-path='jobs[1].instanceCount']", "0");
    settle().await;
    assert!(m.q(".status.err").is_some());
    let cell = m.text("td.cell.invalid");
    assert!(cell.contains("instanceCount"), "{cell}");
    m.type_into("input[data-path='jobs[1].instanceCount']", "1");
    settle().await;
    assert!(m.q(".status.ok").is_some());
}

#[wasm_bindgen_test]
async fn play_advances_the_clock_and_pause_stops_it() {
    let m = mount(notebook());
    settle().await;
    m.click("button[aria-label='play']");
    TimeoutFuture::new(450).await;
    settle().await;
    m.click("button[aria-label='pause']");
    settle().await;
    let a: u64 = m.q("[data-now]").and_then(|e| e.get_attribute("data-now")).unwrap().parse().unwrap();
    assert!(a > 0, "the clock moved");
    TimeoutFuture::new(300).await;
    let b: u64 = m.q("[data-now]").and_then(|e| e.get_attribute("data-now")).unwrap().parse().unwrap();
    assert_eq!(a, b, "paused");
}

#[wasm_bindgen_test]
async fn edits_are_saved_to_local_storage_and_the_link() {
    let m = mount(notebook());
    settle().await;
    m.type_into("input[aria-label='scenario name']", "saved what-if");
    TimeoutFuture::new(600).await;
    let stored = web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item(quotasim_playground::persist::STORAGE_KEY)
        .unwrap()
        .unwrap();
    let saved = quotasim_playground::persist::from_json(&stored).unwrap();
    assert_eq!(saved.scenario.name.as_deref(), Some("saved what-if"));
    let hash = web_sys::window().unwrap().location().hash().unwrap();
    let linked = quotasim_playground::persist::from_hash(&hash).unwrap().unwrap();
    assert_eq!(linked.scenario, saved.scenario);
    drop(m);
}

#[wasm_bindgen_test]
async fn a_waiting_job_explains_its_reason() {
    let m = mount(notebook());
    settle().await;
    m.click("button[aria-label='step to next event']");
    settle().await;
    m.click(".waiting-job");
    settle().await;
    let text = m.text(".drawer");
    assert!(text.contains("CAPACITY"), "{text}");
    assert!(text.contains("R1"), "{text}");
}

#[wasm_bindgen_test]
async fn adding_and_duplicating_jobs_updates_the_table() {
    let m = mount(notebook());
    settle().await;
    assert_eq!(m.all("table.jobs tbody tr"), 4);
    m.click("button[aria-label='duplicate qs2_job']");
    settle().await;
    assert_eq!(m.all("table.jobs tbody tr"), 5);
    assert!(m.text(".status").contains("5 jobs"), "{}", m.text(".status"));
    m.click("button[aria-label='delete qs2_job-2']");
    settle().await;
    assert_eq!(m.all("table.jobs tbody tr"), 4);
}

#[wasm_bindgen_test]
async fn text_that_is_not_a_whole_number_stays_in_the_field_with_its_problem() {
    let m = mount(notebook());
    settle().await;
    let sel = "input[data-path='jobs[1].instanceCount']";
    m.type_into(sel, "1.5");
    settle().await;
    let el: web_sys::HtmlInputElement = m.q(sel).unwrap().dyn_into().unwrap();
    assert_eq!(el.value(), "1.5", "what was typed is kept");
    let cell = m.text("td.cell.invalid");
    assert!(cell.contains("not a whole number"), "{cell}");
    m.type_into(sel, "2");
    settle().await;
    assert!(m.q("td.cell.invalid").is_none());
}

#[wasm_bindgen_test]
async fn a_job_typed_only_by_its_payload_shows_and_edits_the_payload() {
    let mut saved = notebook();
    let j = &mut saved.scenario.jobs[0];
    let ty = j.instance_type.take().map(String::from);
    j.instance_count = None;
    j.service_request_payload = Some(Box::new(quotasim::model::ServiceRequestPayload {
        instance_type: ty.clone(),
        instance_count: Some(1),
        ..Default::default()
    }));
    let m = mount(saved);
    settle().await;
    let select: web_sys::HtmlSelectElement =
        m.q("select[data-path='jobs[0].instanceType']").unwrap().dyn_into().unwrap();
    assert_eq!(Some(select.value()), ty, "the payload's instance type is shown");
    let count = "input[data-path='jobs[0].instanceCount']";
    let el: web_sys::HtmlInputElement = m.q(count).unwrap().dyn_into().unwrap();
    assert_eq!(el.value(), "1", "the payload's instance count is shown");
    // An edit changes the payload too, so the two never disagree.
    m.type_into(count, "2");
    settle().await;
    assert!(m.q("td.cell.invalid").is_none(), "{}", m.text("td.cell.invalid"));
    assert!(m.text(".status").contains("4 jobs"), "{}", m.text(".status"));
}

#[wasm_bindgen_test]
async fn importing_over_edited_work_keeps_it_in_history_and_offers_it_back() {
    storage().remove_item(persist::HISTORY_KEY).unwrap();
    let m = mount(notebook());
    settle().await;
    m.type_into("input[aria-label='scenario name']", "my what-if");
    settle().await;
    m.click_text(".top-actions button", "Import / Export");
    settle().await;
    let mut other = presets::scenario(presets::by_id("reclaim").unwrap()).unwrap();
    other.name = Some("imported".into());
    let area: web_sys::HtmlTextAreaElement = m.q(".modal textarea").unwrap().dyn_into().unwrap();
    area.set_value(&quotasim::json::to_json_pretty(&other));
    area.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    m.click_text(".modal button", "Load pasted text");
    settle().await;
    m.click("button[aria-label='close']");
    settle().await;
    assert_eq!(scenario_name(&m), "imported");
    let notice = m.text(".notice");
    assert!(notice.contains("“my what-if” (4 jobs) was replaced") && notice.contains("History"), "{notice}");

    // One click back; the imported scenario now waits in the history in its turn.
    m.click_text(".notice button", "Go back");
    settle().await;
    assert_eq!(scenario_name(&m), "my what-if");
    assert!(m.text(".notice").contains("“imported”"), "{}", m.text(".notice"));

    m.click_text(".top-actions button", "History");
    settle().await;
    assert_eq!(m.all(".history-list tbody tr"), 2);
    let names = m.text(".history-list tbody");
    assert!(names.contains("imported") && names.contains("my what-if"), "{names}");
    m.click("button[aria-label='restore imported']");
    settle().await;
    assert_eq!(scenario_name(&m), "imported");
    assert!(m.q(".history-list").is_none(), "the list closes");
    let stored = persist::history_from_json(&storage().get_item(persist::HISTORY_KEY).unwrap().unwrap());
    assert_eq!(stored[0].name, "my what-if", "kept across reloads");
}

#[wasm_bindgen_test]
async fn a_pasted_describe_quota_share_merges_into_the_current_scenario_and_says_what_changed() {
    let m = mount(notebook());
    settle().await;
    let name = scenario_name(&m);
    m.click_text(".top-actions button", "Import / Export");
    settle().await;
    // `aws batch describe-quota-share` output as AWS prints it, fields the format lacks included.
    let share = r#"{"quotaShareName":"team-x","quotaShareArn":"arn:aws:batch:us-east-1:123456789012:quota-share/q/team-x",
      "jobQueue":"q","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":2}],
      "resourceSharingConfiguration":{"strategy":"LEND_AND_BORROW","borrowLimit":50},
      "preemptionConfiguration":{"inSharePreemption":"ENABLED"},"state":"ENABLED","status":"VALID","tags":{}}"#;
    // On the preset as it ships, Replace is the default: Merge is chosen.
    let replace: web_sys::HtmlInputElement =
        m.q(".modal input[value='replace']").unwrap().dyn_into().unwrap();
    assert!(replace.checked(), "Replace is the default on a preset");
    m.click(".modal input[value='merge']");
    settle().await;
    let area: web_sys::HtmlTextAreaElement = m.q(".modal textarea").unwrap().dyn_into().unwrap();
    area.set_value(share);
    area.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    m.click_text(".modal button", "Load pasted text");
    // Said at once, while the importers (a module of their own in the page) read it.
    leptos::task::tick().await;
    assert_eq!(m.text(".modal .msg[role='status']"), "Reading 1 file…");
    settle().await;
    assert!(m.q(".modal .msg[role='status']").is_none(), "gone once read");
    let msg = m.text(".modal .msg");
    assert!(msg.contains("Merged into the current scenario: quota share team-x added"), "{msg}");
    assert!(
        m.text(".import-report").contains("pasted: 1 describe-quota-share"),
        "{}",
        m.text(".import-report")
    );
    m.click("button[aria-label='close']");
    settle().await;
    assert_eq!(scenario_name(&m), name, "the scenario stays; only the share is new");
    assert!(m.text(".status").contains("4 jobs"), "{}", m.text(".status"));
    m.click_text("[role='tab']", "Shares");
    settle().await;
    let cards = m.root.query_selector_all("article.share-card input[data-path$='.quotaShareName']").unwrap();
    let names: Vec<String> = (0..cards.length())
        .filter_map(|k| cards.get(k)?.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|i| i.value())
        .collect();
    assert_eq!(names, ["qs1", "qs2", "qs3", "team-x"]);
}

/// The legend's (name, swatch colour) pairs.
fn legend(m: &Mounted) -> Vec<(String, String)> {
    let items = m.root.query_selector_all(".legend[aria-label='legend'] .legend-item").unwrap();
    (0..items.length())
        .filter_map(|i| items.get(i)?.dyn_into::<web_sys::HtmlElement>().ok())
        .filter_map(|e| {
            let sw: web_sys::HtmlElement = e.query_selector(".swatch").ok()??.dyn_into().ok()?;
            let c = sw.style().get_property_value("background").ok()?;
            Some((e.text_content()?.trim().to_string(), c))
        })
        .filter(|(_, c)| !c.is_empty())
        .collect()
}

#[wasm_bindgen_test]
async fn an_invalid_edit_keeps_the_last_run_marked_stale_with_each_share_in_its_own_colour() {
    let m = mount(notebook());
    settle().await;
    let before = legend(&m);
    assert_eq!(before.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["qs1", "qs2", "qs3"]);
    assert!(m.q(".stale-note").is_none() && m.q(".results.stale").is_none());
    // Deleting qs1 (its jobs still name it) makes the scenario invalid: the old run stays,
    // marked, and qs2 and qs3 keep their colours instead of shifting to qs1's.
    m.click_text("[role='tab']", "Shares");
    settle().await;
    m.click("button[aria-label='delete quota share qs1']");
    settle().await;
    m.click_text(".share-card .confirm button", "Delete");
    settle().await;
    assert!(m.text(".stale-note").contains("from the last valid run"), "{}", m.text(".stale-note"));
    assert!(m.q(".results.stale").is_some());
    assert_eq!(legend(&m), before, "the legend still describes the run on screen");
    let card: web_sys::HtmlElement = m.q("article.share-card").unwrap().dyn_into().unwrap();
    let qs2 = &before[1].1;
    assert_eq!(
        &card.style().get_property_value("border-left-color").unwrap(),
        qs2,
        "qs2's card keeps qs2's colour"
    );
}

#[wasm_bindgen_test]
async fn delete_all_asks_first_and_keeps_the_jobs_in_history() {
    storage().remove_item(persist::HISTORY_KEY).unwrap();
    let m = mount(notebook());
    settle().await;
    m.click_text(".toolbar button", "Delete all");
    settle().await;
    assert!(m.text(".status").contains("4 jobs"), "nothing deleted yet: {}", m.text(".status"));
    assert!(m.text(".toolbar .confirm").contains("Delete 4 jobs?"), "{}", m.text(".toolbar .confirm"));
    m.click_text(".toolbar .confirm button", "Cancel");
    settle().await;
    assert!(m.q(".toolbar .confirm").is_none());
    m.click_text(".toolbar button", "Delete all");
    settle().await;
    m.click_text(".toolbar .confirm button", "Delete");
    settle().await;
    assert_eq!(m.text("#jobs-h .count"), "0");
    let stored = persist::history_from_json(&storage().get_item(persist::HISTORY_KEY).unwrap().unwrap());
    assert_eq!(stored[0].jobs, 4, "the scenario before is in the history");
}

fn press(key: &str, ctrl: bool, shift: bool) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_ctrl_key(ctrl);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    web_sys::window().unwrap().document().unwrap().body().unwrap().dispatch_event(&ev).unwrap();
}

#[wasm_bindgen_test]
async fn every_edit_undoes_and_redoes_with_the_buttons_and_the_keyboard() {
    let m = mount(notebook());
    settle().await;
    let name = scenario_name(&m);
    let undo = "button[aria-label='undo']";
    assert!(m.q(&format!("{undo}:disabled")).is_some(), "nothing to undo after a load");
    m.type_into("input[aria-label='scenario name']", "renamed");
    settle().await;
    // Wait past the burst window so the next edit is its own step.
    gloo_timers::future::TimeoutFuture::new(800).await;
    m.click_text(".toolbar button", "+ Add job");
    settle().await;
    assert!(m.text("#jobs-h .count").contains('5'), "{}", m.text("#jobs-h .count"));
    m.click(undo);
    settle().await;
    assert_eq!(m.text("#jobs-h .count"), "4", "the added job is gone");
    assert_eq!(scenario_name(&m), "renamed", "only one step back");
    press("z", true, false);
    settle().await;
    assert_eq!(scenario_name(&m), name, "Ctrl+Z: the name is back");
    press("z", true, true);
    settle().await;
    assert_eq!(scenario_name(&m), "renamed", "Ctrl+Shift+Z redoes");
    m.click("button[aria-label='redo']");
    settle().await;
    assert_eq!(m.text("#jobs-h .count"), "5");
    assert!(m.q("button[aria-label='redo']:disabled").is_some());
}

#[wasm_bindgen_test]
async fn a_change_that_does_not_say_where_rows_went_keeps_row_ids_colours_and_undo_in_step_at_once() {
    // A mounted page sets up the executor the state's effects run on.
    let _page = mount(notebook());
    let owner = Owner::new();
    owner.with(|| {
        let app = quotasim_playground::ui::state::AppState::provide(notebook(), None);
        let shares = app.doc.scenario.with_untracked(|s| s.quota_shares.len());
        app.doc.update(|s| {
            let mut q = s.quota_shares[0].clone();
            q.quota_share_name = "new-team".into();
            s.quota_shares.push(q);
        });
        // In the same task as the change, before any effect or render could run.
        let fits = app.doc.scenario.with_untracked(|s| app.doc.rows.with_untracked(|r| r.fits(s)));
        assert!(fits, "every row of the changed lists has an id");
        let ids = app.doc.rows.with_untracked(|r| r.ids(quotasim_playground::rows::List::Shares).to_vec());
        assert_eq!(ids.len(), shares + 1);
        assert!(
            app.doc.colors.with_untracked(|c| c.iter().any(|(n, _)| n == "new-team")),
            "the new share has its colour"
        );
        assert!(app.doc.can_undo.get_untracked(), "the change is an undo step");
        app.doc.undo_redo(false);
        assert_eq!(app.doc.scenario.with_untracked(|s| s.quota_shares.len()), shares);
        let back = app.doc.scenario.with_untracked(|s| app.doc.rows.with_untracked(|r| r.fits(s)));
        assert!(back, "undo puts row ids back in step too");
        assert!(app.doc.can_redo.get_untracked() && !app.doc.can_undo.get_untracked());
    });
    owner.cleanup();
}

#[wasm_bindgen_test]
async fn overlapping_markers_open_a_list_and_each_entry_explains_its_preemption() {
    let json = r#"{"serviceEnvironment":{"capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":2}]},
      "quotaShares":[
        {"quotaShareName":"lender","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":1}],"resourceSharingConfiguration":{"strategy":"LEND"}},
        {"quotaShareName":"borrower","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":1}],"resourceSharingConfiguration":{"strategy":"LEND_AND_BORROW","borrowLimit":-1}}],
      "jobs":[
        {"jobName":"long","quotaShareName":"borrower","instanceType":"ml.g5.xlarge","instanceCount":2,"submitAt":0,"durationSeconds":86400,"checkpointIntervalSeconds":60},
        {"jobName":"r1","quotaShareName":"lender","instanceType":"ml.g5.xlarge","instanceCount":1,"submitAt":100,"durationSeconds":60},
        {"jobName":"r2","quotaShareName":"lender","instanceType":"ml.g5.xlarge","instanceCount":1,"submitAt":400,"durationSeconds":60}]}"#;
    let saved = Saved {
        scenario: quotasim::json::parse_scenario(json).unwrap(),
        colors: Vec::new(),
        preset: None,
        now: 0,
        baseline: None,
        objectives: None,
    };
    let m = mount(saved);
    settle().await;
    assert!(m.q(".timeline path.marker").is_none(), "two reclaims 5 minutes apart in a day overlap");
    m.click(".timeline g.marker-group[data-group='0,1']");
    settle().await;
    let list = m.text(".marker-list");
    assert!(
        list.contains("2 preemptions here")
            && list.contains("long at 0:01:40")
            && list.contains("long at 0:06:40"),
        "{list}"
    );
    m.click_text(".marker-list button", "long at 0:06:40: Cross-share reclaim");
    settle().await;
    assert!(m.q(".marker-list").is_none(), "the list closes");
    assert!(m.text(".drawer").contains("long was preempted at 0:06:40"), "{}", m.text(".drawer"));
}

#[wasm_bindgen_test]
async fn a_job_is_found_by_name_or_status_and_opens_in_the_timeline_and_its_explanation() {
    let m = mount(notebook());
    settle().await;
    let search: web_sys::HtmlInputElement =
        m.q("input[aria-label='find a job by name']").unwrap().dyn_into().unwrap();
    search.set_value("MED");
    search.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    settle().await;
    assert_eq!(m.text(".found").trim(), "qs1_job_med (SUCCEEDED)");
    m.click_text(".found button", "qs1_job_med (SUCCEEDED)");
    settle().await;
    assert!(m.text(".drawer").contains("qs1_job_med at"), "{}", m.text(".drawer"));
    assert!(m.q(".timeline g.lane.selected").is_some(), "its lane is highlighted");
    search.set_value("nothing-like-this");
    search.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    settle().await;
    assert_eq!(m.text(".found").trim(), "No job matches.");
    search.set_value("");
    search.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    let status: web_sys::HtmlSelectElement =
        m.q("select[aria-label='find jobs by status']").unwrap().dyn_into().unwrap();
    status.set_value("preempted");
    status.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    settle().await;
    assert_eq!(m.root.query_selector_all(".found button").unwrap().length(), 2, "{}", m.text(".found"));
}

#[wasm_bindgen_test]
async fn the_theme_toggle_switches_light_and_dark_and_remembers_the_choice() {
    storage().remove_item(quotasim_playground::ui::dom::THEME_KEY).unwrap();
    let m = mount(notebook());
    settle().await;
    let root = web_sys::window().unwrap().document().unwrap().document_element().unwrap();
    // (The style sheet is not loaded here; the end-to-end test checks the colours.)
    let first = root.get_attribute("data-theme").unwrap();
    m.click(".theme-btn");
    settle().await;
    let second = root.get_attribute("data-theme").unwrap();
    assert_ne!(first, second);
    assert_eq!(
        storage().get_item(quotasim_playground::ui::dom::THEME_KEY).unwrap().as_deref(),
        Some(second.as_str())
    );
    m.click(".theme-btn");
    settle().await;
    assert_eq!(root.get_attribute("data-theme").unwrap(), first);
    storage().remove_item(quotasim_playground::ui::dom::THEME_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn the_import_dialog_takes_focus_and_gives_it_back_to_its_opener() {
    let m = mount(notebook());
    settle().await;
    let opener: web_sys::HtmlElement = {
        let list = m.root.query_selector_all(".top-actions button").unwrap();
        (0..list.length())
            .filter_map(|i| list.get(i)?.dyn_into::<web_sys::HtmlElement>().ok())
            .find(|e| e.text_content().unwrap_or_default().trim() == "Import / Export")
            .unwrap()
    };
    opener.focus().unwrap();
    opener.click();
    settle().await;
    gloo_timers::future::TimeoutFuture::new(50).await;
    let doc = web_sys::window().unwrap().document().unwrap();
    let active = doc.active_element().unwrap();
    assert_eq!(active.get_attribute("aria-label").as_deref(), Some("close"), "focus moves into the dialog");
    m.click("button[aria-label='close']");
    settle().await;
    gloo_timers::future::TimeoutFuture::new(50).await;
    let back = doc.active_element().unwrap();
    assert_eq!(
        back.text_content().unwrap_or_default().trim(),
        "Import / Export",
        "and back to the button that opened it"
    );
}

#[wasm_bindgen_test]
async fn an_edited_preset_is_marked_modified_and_its_walk_through_is_not_shown_as_the_run() {
    storage().remove_item(persist::HISTORY_KEY).unwrap();
    let m = mount(notebook());
    settle().await;
    let walk = m.text(".preset-info p");
    assert!(walk.contains("At 0:15 a job arrives in qs2"), "{walk}");
    m.type_into("input[data-path='jobs[3].submitAt']", "60");
    settle().await;
    assert!(m.text(".preset-info h2").contains("modified"), "{}", m.text(".preset-info h2"));
    let note = m.text(".preset-info p");
    assert!(
        !note.contains("At 0:15 a job arrives") && note.contains("no longer describes the run"),
        "{note}"
    );
    m.click_text(".preset-info button", "Restore the preset");
    settle().await;
    assert!(!m.text(".preset-info h2").contains("modified"));
    assert!(m.text(".preset-info p").contains("At 0:15 a job arrives in qs2"));
    let stored = persist::history_from_json(&storage().get_item(persist::HISTORY_KEY).unwrap().unwrap());
    assert_eq!(stored.len(), 1, "the edited version is kept in History");
}

#[wasm_bindgen_test]
async fn new_starts_a_small_valid_scenario_and_keeps_the_edited_one_in_history() {
    storage().remove_item(persist::HISTORY_KEY).unwrap();
    let m = mount(notebook());
    settle().await;
    m.type_into("input[aria-label='scenario name']", "my draft");
    settle().await;
    m.click_text(".top-actions button", "New");
    settle().await;
    assert_eq!(scenario_name(&m), "New scenario");
    assert_eq!(m.text("#jobs-h .count"), "2");
    assert!(m.text(".status").contains("2 jobs"), "runs at once: {}", m.text(".status"));
    let stored = persist::history_from_json(&storage().get_item(persist::HISTORY_KEY).unwrap().unwrap());
    assert_eq!(stored[0].name, "my draft");
}

#[wasm_bindgen_test]
async fn a_link_that_replaces_saved_work_says_so_and_goes_back() {
    storage().remove_item(persist::HISTORY_KEY).unwrap();
    let mut local = notebook();
    local.scenario.name = Some("local work".into());
    storage().set_item(persist::STORAGE_KEY, &persist::to_json(&local)).unwrap();
    let mut linked = notebook();
    linked.scenario.name = Some("from a link".into());
    let hash = persist::link_hash(&linked).unwrap();
    let history = web_sys::window().unwrap().history().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&hash)).unwrap();

    let (saved, notice, _) = quotasim_playground::ui::state::initial_state();
    assert_eq!(saved.scenario.name.as_deref(), Some("from a link"));
    let stored = persist::history_from_json(&storage().get_item(persist::HISTORY_KEY).unwrap().unwrap());
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].name, "local work");

    let m = mount_with(saved, notice);
    settle().await;
    let text = m.text(".notice");
    assert!(text.contains("The link opened another scenario") && text.contains("“local work”"), "{text}");
    m.click_text(".notice button", "Go back");
    settle().await;
    assert_eq!(scenario_name(&m), "local work");
    drop(m);
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#")).unwrap();
}

#[wasm_bindgen_test]
async fn a_link_with_the_saved_scenario_replaces_nothing() {
    let mut local = notebook();
    local.scenario.name = Some("same".into());
    storage().set_item(persist::STORAGE_KEY, &persist::to_json(&local)).unwrap();
    let history = web_sys::window().unwrap().history().unwrap();
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&persist::link_hash(&local).unwrap()))
        .unwrap();
    let (saved, notice, _) = quotasim_playground::ui::state::initial_state();
    assert_eq!(saved, local);
    assert!(notice.is_none(), "a reload of one's own link says nothing");
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#")).unwrap();
}

/// Marks `el` with a JS property that only this very node carries.
fn mark(el: &web_sys::Element, tag: &str) {
    js_sys::Reflect::set(el, &tag.into(), &wasm_bindgen::JsValue::TRUE).unwrap();
}

fn marked(el: &web_sys::Element, tag: &str) -> bool {
    js_sys::Reflect::get(el, &tag.into()).is_ok_and(|v| v.is_truthy())
}

/// Marks `el` as the node of the row `who`: a row kept by its id still says the same `who`
/// after a deletion above it, while a row rebuilt by position would say its old neighbour's.
fn mark_as(el: &web_sys::Element, who: &str) {
    js_sys::Reflect::set(el, &"keptAs".into(), &who.into()).unwrap();
}

fn marked_as(el: &web_sys::Element) -> Option<String> {
    js_sys::Reflect::get(el, &"keptAs".into()).ok().and_then(|v| v.as_string())
}

/// The elements matching `rows`, each with the value of its first input matching `input`.
fn rows_and_values(m: &Mounted, rows: &str, input: &str) -> Vec<(web_sys::Element, String)> {
    let list = m.root.query_selector_all(rows).unwrap();
    (0..list.length())
        .map(|i| {
            let row: web_sys::Element = list.get(i).unwrap().dyn_into().unwrap();
            let value: web_sys::HtmlInputElement =
                row.query_selector(input).unwrap().unwrap().dyn_into().unwrap();
            (row, value.value())
        })
        .collect()
}

/// The job rows, with the value of their name inputs.
fn job_rows(m: &Mounted) -> Vec<(web_sys::Element, String)> {
    rows_and_values(m, "table.jobs tbody tr", "input[data-path$='.jobName']")
}

#[wasm_bindgen_test]
async fn editing_one_job_row_leaves_the_other_rows_nodes_alone() {
    let m = mount(notebook());
    settle().await;
    let rows = job_rows(&m);
    assert_eq!(rows.len(), 4);
    // The row, its inputs and the options of its selects are all kept: nothing in it re-renders.
    for (tr, _) in &rows {
        mark(tr, "keptRow");
        let opts = tr.query_selector_all("option").unwrap();
        for k in 0..opts.length() {
            mark(&opts.get(k).unwrap().dyn_into().unwrap(), "keptOption");
        }
    }
    let options_kept = |tr: &web_sys::Element| {
        let opts = tr.query_selector_all("option").unwrap();
        opts.length() > 0
            && (0..opts.length()).all(|k| marked(&opts.get(k).unwrap().dyn_into().unwrap(), "keptOption"))
    };

    m.type_into("input[data-path='jobs[1].instanceCount']", "2");
    settle().await;
    m.type_into("input[data-path='jobs[1].submitAt']", "5");
    settle().await;
    for (k, (tr, name)) in job_rows(&m).iter().enumerate() {
        assert!(marked(tr, "keptRow"), "row {k} ({name}) is the same node");
        if k != 1 {
            assert!(options_kept(tr), "row {k} ({name}) did not re-render its options");
        }
    }

    // A renamed job keeps its row.
    m.type_into("input[data-path='jobs[1].jobName']", "renamed");
    settle().await;
    let after = job_rows(&m);
    assert_eq!(after[1].1, "renamed");
    assert!(after.iter().all(|(tr, _)| marked(tr, "keptRow")), "renaming keeps every row");

    // Deleting the first job removes its row only; the others keep their nodes and their jobs,
    // and their fields now point at their new indices.
    let names: Vec<String> = after.iter().map(|(_, n)| n.clone()).collect();
    for (tr, name) in &after {
        mark_as(tr, name);
    }
    m.click(&format!("button[aria-label='delete {}']", names[0]));
    settle().await;
    let left = job_rows(&m);
    assert_eq!(left.iter().map(|(_, n)| n.clone()).collect::<Vec<_>>(), names[1..]);
    for (k, (tr, name)) in left.iter().enumerate() {
        assert_eq!(marked_as(tr).as_ref(), Some(name), "{name} kept its row");
        let path =
            tr.query_selector("input[data-path$='.jobName']").unwrap().unwrap().get_attribute("data-path");
        assert_eq!(path.as_deref(), Some(format!("jobs[{k}].jobName").as_str()));
    }
    assert!(m.text(".status").contains("3 jobs"), "{}", m.text(".status"));
}

#[wasm_bindgen_test]
async fn deleting_a_share_keeps_the_other_share_cards() {
    let m = mount(notebook());
    settle().await;
    m.click_text("[role='tab']", "Shares");
    settle().await;
    let before = m.all("article.share-card");
    assert_eq!(before, 3);
    m.click_text(".editor-section button", "+ Add quota share");
    settle().await;
    let cards = m.root.query_selector_all("article.share-card").unwrap();
    assert_eq!(cards.length(), before + 1);
    let share_name = |card: &web_sys::Element| {
        card.query_selector("input[data-path$='.quotaShareName']")
            .unwrap()
            .unwrap()
            .dyn_into::<web_sys::HtmlInputElement>()
            .unwrap()
            .value()
    };
    for k in 0..cards.length() {
        let card: web_sys::Element = cards.get(k).unwrap().dyn_into().unwrap();
        mark_as(&card, &share_name(&card));
    }
    m.click("button[aria-label='delete quota share qs1']");
    settle().await;
    assert_eq!(
        m.root.query_selector_all("article.share-card").unwrap().length(),
        before + 1,
        "it asks first"
    );
    assert!(
        m.text(".share-card .confirm").contains("Delete qs1 (3 jobs name it)?"),
        "{}",
        m.text(".share-card .confirm")
    );
    m.click_text(".share-card .confirm button", "Delete");
    settle().await;
    let cards = m.root.query_selector_all("article.share-card").unwrap();
    assert_eq!(cards.length(), before);
    for k in 0..cards.length() {
        let card: web_sys::Element = cards.get(k).unwrap().dyn_into().unwrap();
        assert_eq!(marked_as(&card), Some(share_name(&card)), "card {k} is the same node");
        let path = card
            .query_selector("input[data-path$='.quotaShareName']")
            .unwrap()
            .unwrap()
            .get_attribute("data-path");
        assert_eq!(path.as_deref(), Some(format!("quotaShares[{k}].quotaShareName").as_str()));
    }
}

/// The capacity table's rows, with the value of their instance-type inputs.
fn type_rows(m: &Mounted) -> Vec<(web_sys::Element, String)> {
    rows_and_values(m, "table.cap-table tbody tr", "input[data-path$='.capacityUnit']")
}

#[wasm_bindgen_test]
async fn deleting_an_instance_type_keeps_the_other_rows_and_what_they_hold() {
    let m = mount(notebook());
    settle().await;
    m.click_text("[role='tab']", "Capacity");
    settle().await;
    m.click_text(".row-actions button", "Add type");
    settle().await;
    let pick: web_sys::HtmlSelectElement = m.q(".row-actions select").unwrap().dyn_into().unwrap();
    pick.set_value("ml.p4d.24xlarge");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    pick.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
    m.click_text(".row-actions button", "Add type");
    settle().await;
    let rows = type_rows(&m);
    let names: Vec<String> = rows.iter().map(|(_, n)| n.clone()).collect();
    assert_eq!(names, ["ml.g5.xlarge", "ml.p5.48xlarge", "ml.p4d.24xlarge"]);
    for (tr, name) in &rows {
        mark_as(tr, name);
    }
    m.type_into("input[data-path='serviceEnvironment.capacityLimits[1].maxCapacity']", "7");
    settle().await;
    assert!(type_rows(&m).iter().all(|(tr, n)| marked_as(tr).as_ref() == Some(n)), "an edit keeps every row");

    m.click("button[aria-label='remove ml.g5.xlarge']");
    settle().await;
    let left = type_rows(&m);
    assert_eq!(left.iter().map(|(_, n)| n.clone()).collect::<Vec<_>>(), names[1..]);
    for (k, (tr, name)) in left.iter().enumerate() {
        assert_eq!(marked_as(tr).as_ref(), Some(name), "{name} kept its row");
        let max: web_sys::HtmlInputElement =
            tr.query_selector("input[data-path$='.maxCapacity']").unwrap().unwrap().dyn_into().unwrap();
        assert_eq!(
            max.get_attribute("data-path").as_deref(),
            Some(format!("serviceEnvironment.capacityLimits[{k}].maxCapacity").as_str()),
            "{name}'s fields point at its new index"
        );
        assert_eq!(max.value(), if k == 0 { "7" } else { "4" }, "{name} keeps its limit");
    }
}

/// The action cards, with the value of their `at` inputs.
fn action_cards(m: &Mounted) -> Vec<(web_sys::Element, String)> {
    rows_and_values(m, "article.action-card", "input[data-path$='.at']")
}

#[wasm_bindgen_test]
async fn deleting_an_action_keeps_the_other_action_cards() {
    let m = mount(notebook());
    settle().await;
    m.click_text("[role='tab']", "Actions");
    settle().await;
    m.click_text(".editor-section button", "+ Add action");
    settle().await;
    m.click_text(".editor-section button", "+ Add action");
    settle().await;
    let cards = action_cards(&m);
    assert_eq!(cards.iter().map(|(_, at)| at.as_str()).collect::<Vec<_>>(), ["1800", "5400", "9000"]);
    for (card, at) in &cards {
        mark_as(card, at);
    }
    m.type_into("input[data-path='actions[2].at']", "9100");
    settle().await;
    let kept = action_cards(&m).iter().map(|(c, _)| marked_as(c)).collect::<Vec<_>>();
    assert_eq!(
        kept,
        [Some("1800".to_string()), Some("5400".into()), Some("9000".into())],
        "an edit keeps every card"
    );

    m.click("button[aria-label='delete action 1']");
    settle().await;
    let left = action_cards(&m);
    assert_eq!(left.iter().map(|(_, at)| at.as_str()).collect::<Vec<_>>(), ["5400", "9100"]);
    for (k, (card, at)) in left.iter().enumerate() {
        let was = if at == "9100" { "9000" } else { at.as_str() };
        assert_eq!(marked_as(card).as_deref(), Some(was), "the card at {at} is the same node");
        let path =
            card.query_selector("input[data-path$='.at']").unwrap().unwrap().get_attribute("data-path");
        assert_eq!(path.as_deref(), Some(format!("actions[{k}].at").as_str()));
        assert!(
            card.text_content().unwrap_or_default().contains(&format!("#{}", k + 1)),
            "numbered {}",
            k + 1
        );
    }
}

#[wasm_bindgen_test]
async fn removing_a_capacity_limit_keeps_the_other_limit_rows() {
    let m = mount(notebook());
    settle().await;
    m.click_text("[role='tab']", "Shares");
    settle().await;
    let card = m.q("article.share-card").unwrap();
    let rows = |card: &web_sys::Element| {
        let list = card.query_selector_all(".limit-row").unwrap();
        (0..list.length())
            .map(|k| list.get(k).unwrap().dyn_into::<web_sys::Element>().unwrap())
            .collect::<Vec<_>>()
    };
    let add: web_sys::HtmlElement = (0..card.query_selector_all("button").unwrap().length())
        .filter_map(|k| {
            card.query_selector_all("button").unwrap().get(k)?.dyn_into::<web_sys::HtmlElement>().ok()
        })
        .find(|b| b.text_content().unwrap_or_default().trim() == "+ capacity limit")
        .unwrap();
    let first = rows(&card).len();
    add.click();
    settle().await;
    add.click();
    settle().await;
    let before = rows(&card);
    assert_eq!(before.len(), first + 2);
    let unit = |r: &web_sys::Element| {
        r.query_selector("select").unwrap().unwrap().dyn_into::<web_sys::HtmlSelectElement>().unwrap().value()
    };
    let units: Vec<String> = before.iter().map(unit).collect();
    for (r, u) in before.iter().zip(&units) {
        mark_as(r, u);
    }
    let max_of = |r: &web_sys::Element| {
        r.query_selector("input[type='number']")
            .unwrap()
            .unwrap()
            .dyn_into::<web_sys::HtmlInputElement>()
            .unwrap()
    };
    m.type_into("input[data-path='quotaShares[0].capacityLimits[1].maxCapacity']", "6");
    settle().await;
    assert!(rows(&card).iter().all(|r| marked_as(r) == Some(unit(r))), "an edit keeps every row");

    let remove: web_sys::HtmlElement = card
        .query_selector("button[aria-label='remove capacity limit 1']")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    remove.click();
    settle().await;
    let left = rows(&card);
    assert_eq!(left.iter().map(unit).collect::<Vec<_>>(), units[1..]);
    for (k, r) in left.iter().enumerate() {
        assert_eq!(marked_as(r), Some(unit(r)), "limit {k} is the same node");
        assert_eq!(
            max_of(r).get_attribute("data-path").as_deref(),
            Some(format!("quotaShares[0].capacityLimits[{k}].maxCapacity").as_str())
        );
    }
    assert_eq!(max_of(&left[0]).value(), "6", "the edited limit kept its value");
}

/// Clicks the checkbox of the first `label.check` reading `text` inside `scope`.
fn toggle_check(m: &Mounted, scope: &str, text: &str) {
    let list = m.root.query_selector_all(&format!("{scope} label.check")).unwrap();
    let label = (0..list.length())
        .filter_map(|i| list.get(i)?.dyn_into::<web_sys::Element>().ok())
        .find(|e| e.text_content().unwrap_or_default().trim() == text)
        .unwrap_or_else(|| panic!("no check {text}"));
    let input: web_sys::HtmlElement = label.query_selector("input").unwrap().unwrap().dyn_into().unwrap();
    input.click();
}

#[wasm_bindgen_test]
async fn compare_mode_shows_b_changes_and_the_priority_3_job_no_longer_preempted() {
    let m = mount(notebook());
    settle().await;
    assert!(m.q("section.compare").is_none(), "not in compare mode at first");
    m.click_text(".top-actions button", "Compare");
    settle().await;
    assert!(m.text("section.compare").contains("B is the same as A"), "{}", m.text("section.compare"));
    // Edit B: in-share preemption off in qs1.
    m.click_text("[role='tab']", "Shares");
    settle().await;
    toggle_check(&m, "article.share-card", "In-share preemption (R20)");
    settle().await;
    settle().await;
    let changes = m.text("ul.change-list");
    assert!(changes.contains("qs1 inSharePreemption: ENABLED → DISABLED"), "{changes}");
    let cards = m.text("section.compare .stats");
    assert!(cards.contains("Preemptions") && cards.contains("−1") && cards.contains("A 2 → B 1"), "{cards}");
    assert!(m.q("section.compare .cmp-stat.better").is_some(), "fewer preemptions is better");
    // Waits read as durations, never as a clock time (0:32 for 32 minutes).
    assert!(cards.contains("+3 h 28 min") && cards.contains("A 32 min → B 4 h"), "{cards}");
    // Per share, two tables whose group headers each span their A, B and Δ columns.
    assert_eq!(m.all("section.compare table.cmp-table"), 2);
    let groups = m.all("section.compare table.cmp-table th.group");
    assert_eq!(m.all("section.compare table.cmp-table th.group[colspan='3']"), groups);
    let heads = m.text("section.compare .compare-results");
    for h in ["GPU‑h lent", "Caused", "Goodput", "Reclaim latency p95", "Wait p95"] {
        assert!(heads.contains(h), "no column {h}: {heads}");
    }
    // Cells: the first row of each table is qs1, the second qs2; 5 groups of A, B, Δ per table.
    let qs1 = m.all_texts("section.compare table.cmp-table tbody tr:nth-child(1) td");
    let qs2 = m.all_texts("section.compare table.cmp-table tbody tr:nth-child(2) td");
    assert_eq!((qs1.len(), qs2.len()), (30, 30));
    // In A, qs1's high-priority job preempts its own low one (R20); in B it cannot.
    assert_eq!(qs1[24..27], ["1", "0", "−1"], "qs1 caused: {qs1:?}");
    // qs2 reclaims its lent instance from qs1 in both (R19), and lends for longer in B.
    assert_eq!(qs2[24..27], ["1", "1", "±0"], "qs2 caused: {qs2:?}");
    assert_eq!(qs2[3..6], ["3.78", "4.00", "+0.22"], "qs2 lent: {qs2:?}");
    let jobs = m.text("ul.changed-jobs");
    assert!(jobs.contains("qs1_job_high") && jobs.contains("no longer preempted"), "{jobs}");
    // A above B, per instance type.
    assert!(m.all("figure.cmp-chart .svg-host") >= 2);
    // The changed jobs' timelines, A above B.
    assert_eq!(m.all("figure.cmp-timeline .svg-host svg"), 2);
    // No prices in the notebook: the fairness table has no cost column (R26).
    let fairness = m.text("[aria-label='fairness per share'] thead");
    assert!(fairness.contains("reclaim p95") && !fairness.contains("cost"), "{fairness}");
    // A changed job explains itself in A too.
    m.click("button[aria-label='Explain qs1_job_high in A']");
    settle().await;
    assert!(m.text(".explain-a").starts_with("In A at"), "{}", m.text(".explain-a"));
    // The report card judges B against its objectives.
    assert!(m.q("details.report-card .badge").is_some());
    // A change undone leaves B equal to A again.
    m.click("button[aria-label='Undo: qs1 inSharePreemption: ENABLED → DISABLED']");
    settle().await;
    assert!(m.text("section.compare").contains("B is the same as A"));
    // A job of the list opens its explanation.
    m.click_text(".top-actions button", "Leave compare");
    settle().await;
    assert!(m.q("section.compare").is_none());
}

#[wasm_bindgen_test]
async fn compare_mode_and_objectives_are_saved_with_the_scenario() {
    let mut saved = notebook();
    let mut b = saved.scenario.clone();
    b.quota_shares[0].preemption_configuration.in_share_preemption = quotasim::model::Toggle::Disabled;
    saved.baseline = Some(saved.scenario.clone());
    saved.scenario = b;
    let text = quotasim_playground::persist::to_json(&saved);
    let back = quotasim_playground::persist::from_json(&text).expect("reads back");
    assert_eq!(back.baseline, saved.baseline);
    let m = mount(back);
    settle().await;
    settle().await;
    assert!(m.text("ul.changed-jobs").contains("qs1_job_high"), "{}", m.text("section.compare"));
}

#[wasm_bindgen_test]
async fn the_generator_makes_work_for_every_share_in_one_click_and_reseeds_in_another() {
    let m = mount(notebook());
    settle().await;
    m.click_text("[role='tab']", "Jobs");
    settle().await;
    let rows = m.all("table.gen-table tbody tr");
    assert_eq!(rows, 3, "one row per quota share");
    // Each share its own instance type and sizes, all at once.
    assert!(m.q("select[aria-label='qs3 instance type']").is_some());
    m.type_into("input[aria-label='Jobs in all (split by weight)']", "90");
    m.click_text(".generator button", "Generate");
    settle().await;
    settle().await;
    let status = m.text(".gen-status");
    assert!(status.contains("90 generated jobs (seed 1)"), "{status}");
    assert!(status.contains("qs1 30") && status.contains("qs2 30") && status.contains("qs3 30"), "{status}");
    // The status pill counts the generated jobs with the listed ones.
    let jobs_with = m.text(".status");
    assert!(jobs_with.contains("94 jobs (90 generated)"), "{jobs_with}");
    m.click_text(".generator button", "Another seed");
    settle().await;
    assert!(m.text(".gen-status").contains("(seed 2)"), "{}", m.text(".gen-status"));
    // Listing them makes them ordinary jobs.
    m.click_text(".generator button", "List the generated jobs");
    settle().await;
    assert!(m.text(".gen-status").contains("No generated jobs"), "{}", m.text(".gen-status"));
    assert!(m.text("#jobs-h").contains("94"), "4 listed + 90 generated: {}", m.text("#jobs-h"));
    // What is typed in the form stays through edits that keep the shares...
    let weight = |m: &Mounted, share: &str| -> Option<String> {
        let el: web_sys::HtmlInputElement =
            m.q(&format!("input[aria-label='{share} weight']"))?.dyn_into().unwrap();
        Some(el.value())
    };
    m.type_into("input[aria-label='qs2 weight']", "7");
    settle().await;
    m.click_text("button[role='tab']", "Settings");
    settle().await;
    m.type_into("input[data-path='settings.preemptionGraceSeconds']", "61");
    settle().await;
    m.click_text("[role='tab']", "Jobs");
    settle().await;
    assert_eq!(weight(&m, "qs2").as_deref(), Some("7"), "typed, kept through an edit of the settings");
    // ...and a renamed share gets its row, the form made afresh from the scenario.
    m.click_text("button[role='tab']", "Shares");
    settle().await;
    m.type_into("input[data-path='quotaShares[2].quotaShareName']", "qs9");
    settle().await;
    m.click_text("[role='tab']", "Jobs");
    settle().await;
    assert_eq!(m.all("table.gen-table tbody tr"), 3);
    assert!(weight(&m, "qs3").is_none(), "the old name's row is gone");
    assert!(weight(&m, "qs9").is_some(), "the renamed share has its row");
    assert_ne!(weight(&m, "qs2").as_deref(), Some("7"), "the form is the scenario's again");
}

#[wasm_bindgen_test]
async fn a_sweep_runs_every_combination_marks_the_front_and_opens_a_row_as_b() {
    let m = mount(notebook());
    settle().await;
    m.click("details.sweep summary");
    settle().await;
    // A sweep runs a row at a time, showing how far it is, and can be cancelled.
    m.click_text("details.sweep button", "Run sweep");
    leptos::task::tick().await;
    assert_eq!(m.text("details.sweep span[role='status']"), "row 0 of 15");
    m.click_text("details.sweep button", "Cancel sweep");
    settle().await;
    assert!(m.q("details.sweep [role='status']").is_none() && m.q("details.sweep circle").is_none());
    m.click_text("details.sweep button", "Run sweep");
    assert!(until(10_000, || m.text("details.sweep p[role='status']").starts_with("15 rows")).await);
    let status = m.text("details.sweep p[role='status']");
    assert!(status.starts_with("15 rows"), "5 borrow limits x 3 grace periods: {status}");
    assert!(!status.contains("could not run"), "{status}");
    assert_eq!(m.all("details.sweep .sweep-scatter circle[data-row]"), 15);
    assert!(m.all("details.sweep tr.on-front") >= 1);
    // The default axis is the LEND_AND_BORROW share's borrow limit: one colour per value, named.
    assert_eq!(m.all("details.sweep .sweep-scatter circle.dot:not([data-row])"), 5, "a legend of 5 limits");
    let svg = m.text("details.sweep .sweep-scatter svg");
    assert!(svg.contains("borrowLimit:") && svg.contains("overall.waitSeconds.p95 (h)"), "{svg}");
    // Another goal redraws the chart and its front at once, without running again.
    m.type_into("input[aria-label='Goal y metric path']", "perQuotaShare.qs2.waitSeconds.p95");
    settle().await;
    let label = m.q("details.sweep .sweep-scatter svg").unwrap().get_attribute("aria-label").unwrap();
    assert!(label.contains("perQuotaShare.qs2.waitSeconds.p95"), "{label}");
    assert!(m.q("details.sweep progress").is_none(), "nothing runs again");
    assert!(m.text("details.sweep thead").contains("perQuotaShare.qs2.waitSeconds.p95 (h)"));
    // Listed jobs have no seeds to draw: the seeds field says why.
    let seeds: web_sys::HtmlInputElement =
        m.q("input[aria-label='seeds per point']").unwrap().dyn_into().unwrap();
    assert!(seeds.disabled() && seeds.title().contains("workload"), "{}", seeds.title());
    m.type_into("input[aria-label='Goal y metric path']", "overall.waitSeconds.p95");
    // A bad axis is named before anything runs.
    m.type_into("input[aria-label='axis 1 path']", "quotaShares[nope].state");
    m.click_text("details.sweep button", "Run sweep");
    settle().await;
    assert!(m.text("details.sweep [role='alert']").contains("axes[0]"), "{}", m.text("details.sweep"));
    m.type_into(
        "input[aria-label='axis 1 path']",
        "quotaShares[qs1].resourceSharingConfiguration.borrowLimit",
    );
    m.click_text("details.sweep button", "Run sweep");
    assert!(until(10_000, || m.text("details.sweep p[role='status']").starts_with("15 rows")).await);
    // Row 0 (borrow limit 0, grace 60) opens as variant B of compare mode.
    m.click("button[aria-label='Open as B: row 0']");
    settle().await;
    settle().await;
    let changes = m.text("ul.change-list");
    assert!(changes.contains("qs1 borrowLimit") && changes.contains("preemptionGraceSeconds"), "{changes}");
}

#[wasm_bindgen_test]
async fn typing_in_a_sweep_axis_keeps_its_input_and_removing_one_keeps_the_other() {
    let m = mount(notebook());
    settle().await;
    m.click("details.sweep summary");
    settle().await;
    let path = |k: usize| -> web_sys::HtmlInputElement {
        m.q(&format!("input[aria-label='axis {k} path']")).unwrap().dyn_into().unwrap()
    };
    mark_as(&path(1), "first");
    mark_as(&path(2), "second");
    // Each keystroke updates the axes: the input being typed in must stay (and keep focus).
    m.type_into("input[aria-label='axis 1 path']", "settings.scheduledSeconds");
    settle().await;
    m.type_into("input[aria-label='axis 2 values']", "0, 120");
    settle().await;
    assert_eq!(
        (marked_as(&path(1)), marked_as(&path(2))),
        (Some("first".into()), Some("second".into())),
        "typing re-renders no axis"
    );
    let second = path(2).value();
    m.click("button[aria-label='remove axis 1']");
    settle().await;
    assert_eq!(m.all(".sweep-axis"), 1);
    let left = path(1);
    assert_eq!(marked_as(&left).as_deref(), Some("second"), "the second axis kept its row");
    assert_eq!(left.value(), second);
    let values: web_sys::HtmlInputElement =
        m.q("input[aria-label='axis 1 values']").unwrap().dyn_into().unwrap();
    assert_eq!(values.value(), "0, 120");
}

/// a lends, b borrows; both submit a workload section (seed 1), so both have seeds to draw.
fn two_teams_with_a_workload() -> quotasim::model::Scenario {
    let text = r#"{"formatVersion":1,
        "serviceEnvironment":{"serviceEnvironmentName":"se","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":4}]},
        "quotaShares":[
          {"quotaShareName":"a","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":2}],"resourceSharingConfiguration":{"strategy":"LEND"}},
          {"quotaShareName":"b","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":2}],"resourceSharingConfiguration":{"strategy":"LEND_AND_BORROW","borrowLimit":-1}}],
        "workload":{"seed":1,"jobs":120,"shares":[
          {"quotaShareName":"a","arrivalsPerHour":1,"instanceTypes":[{"name":"ml.g5.xlarge","weight":1}],
            "duration":{"distribution":"fixed","minSeconds":1800,"maxSeconds":1800}},
          {"quotaShareName":"b","arrivalsPerHour":6,"instanceTypes":[{"name":"ml.g5.xlarge","weight":1}],
            "duration":{"distribution":"fixed","minSeconds":1800,"maxSeconds":1800}}]}}"#;
    quotasim::json::parse_scenario(text).expect("parses")
}

#[wasm_bindgen_test]
async fn a_sweep_with_seeds_per_point_shows_medians_with_their_spread_and_a_front_over_points() {
    let s = two_teams_with_a_workload();
    let m = mount(Saved {
        scenario: s,
        colors: Vec::new(),
        preset: None,
        now: 0,
        baseline: None,
        objectives: None,
    });
    settle().await;
    m.click("details.sweep summary");
    settle().await;
    // The default axis is b's borrow limit, b being the share that borrows.
    let path: web_sys::HtmlInputElement = m.q("input[aria-label='axis 1 path']").unwrap().dyn_into().unwrap();
    assert_eq!(path.value(), "quotaShares[b].resourceSharingConfiguration.borrowLimit");
    m.click("button[aria-label='remove axis 2']");
    m.type_into("input[aria-label='seeds per point']", "3");
    settle().await;
    m.click_text("details.sweep button", "Run sweep");
    assert!(until(30_000, || m.text("details.sweep p[role='status']").starts_with("5 rows")).await);
    let status = m.text("details.sweep p[role='status']");
    assert!(status.contains("the median over seeds 1 to 3"), "{status}");
    assert!(m.all("details.sweep .sweep-scatter line.whisker") >= 5, "min to max over the seeds");
    let cells = m.all_texts("details.sweep tbody tr:first-child td");
    assert!(cells.iter().any(|c| c.contains(" to ")), "median (min to max): {cells:?}");
    // A point opened as B: compare's replicates run on the point's 3 seeds, not 5.
    m.click("button[aria-label='Open as B: row 0']");
    settle().await;
    settle().await;
    let seeds: web_sys::HtmlInputElement =
        m.q("div.replicates input[type='number']").unwrap().dyn_into().unwrap();
    assert_eq!(seeds.value(), "3");
}

#[wasm_bindgen_test]
async fn replicates_say_better_or_worse_in_the_words_of_the_command_line() {
    // B makes a RESERVE: b can no longer borrow a's idle instances.
    let a = two_teams_with_a_workload();
    let mut b = a.clone();
    b.quota_shares[0].resource_sharing_configuration.strategy = quotasim::model::Strategy::Reserve;
    let m = mount(Saved {
        scenario: b,
        colors: Vec::new(),
        preset: None,
        now: 0,
        baseline: Some(a),
        objectives: None,
    });
    settle().await;
    m.click_text("button", "Run both on these seeds");
    assert!(until(30_000, || m.q("div[aria-label='replicates'] tbody tr").is_some()).await, "the table");
    let table = m.text("div[aria-label='replicates'] tbody");
    // b's waits grow on every seed: worse, as `quotasim compare --replicates` says.
    assert!(table.contains("Wait p95") && table.contains("5/5 worse"), "{table}");
    let words = m.all_texts("div[aria-label='replicates'] tbody tr td:last-child");
    assert!(
        words.iter().all(|w| ["better", "worse", "same", "up", "down"].iter().any(|x| w.ends_with(x))),
        "{words:?}"
    );
    // Per share, grouped: b's group says at a glance that its wait p95 is worse on every seed,
    // and its rows (lent hours and preemptions caused too) fold away and back.
    let groups = m.all_texts("div[aria-label='replicates'] tbody.share-group tr.group-row");
    assert_eq!(groups.len(), 2, "{groups:?}");
    assert!(groups[1].starts_with("▾ b") && groups[1].contains("5/5 worse"), "{groups:?}");
    let b_rows = "div[aria-label='replicates'] tbody.share-group:nth-of-type(3) tr.share-metric";
    let texts = m.all_texts(b_rows);
    assert!(texts.iter().any(|t| t.starts_with("GPU-hours lent")), "{texts:?}");
    assert!(!m.text("div[aria-label='replicates']").contains("Cost"), "no prices, no cost row");
    assert!(texts.iter().any(|t| t.starts_with("Wait p95") && t.ends_with("5/5 worse")), "{texts:?}");
    m.click("button[aria-label='b: per-share metrics']");
    settle().await;
    assert_eq!(m.all(&format!("{b_rows}[hidden]")), texts.len() as u32, "b's rows folded");
    assert_eq!(
        m.all("div[aria-label='replicates'] tbody.share-group:nth-of-type(2) tr.share-metric[hidden]"),
        0
    );
    m.click("button[aria-label='b: per-share metrics']");
    settle().await;
    assert_eq!(m.all(&format!("{b_rows}[hidden]")), 0);
}

fn generated(jobs: u64) -> Saved {
    Saved {
        scenario: quotasim::generate::generate(&quotasim::generate::GenerateOptions::new(jobs, 4, 2, 1)),
        colors: Vec::new(),
        preset: None,
        now: 0,
        baseline: None,
        objectives: None,
    }
}

/// Waits (up to `ms`) until `f` holds.
async fn until(ms: u32, mut f: impl FnMut() -> bool) -> bool {
    for _ in 0..ms / 5 {
        if f() {
            return true;
        }
        TimeoutFuture::new(5).await;
    }
    f()
}

#[wasm_bindgen_test]
async fn a_long_run_shows_its_progress_and_can_be_cancelled_and_run_again() {
    let m = mount(generated(50_000));
    assert!(until(20_000, || m.q("progress.run-progress").is_some()).await, "a long run shows its progress");
    let status = m.text(".status");
    assert!(status.starts_with("running…") && status.ends_with('%'), "{status}");
    m.click_text("button", "Cancel");
    settle().await;
    assert_eq!(m.text(".status"), "run cancelled");
    assert!(m.q("progress.run-progress").is_none());
    // Nothing finishes behind the user's back.
    TimeoutFuture::new(1500).await;
    assert_eq!(m.text(".status"), "run cancelled");
    m.click_text("button", "Run");
    assert!(until(60_000, || m.text(".status").contains("50000 jobs")).await, "{}", m.text(".status"));
    // An edit while a run is in progress replaces it: the results are the edited scenario's.
    m.click_text("button[role='tab']", "Settings");
    settle().await;
    m.type_into("input[data-path='settings.preemptionGraceSeconds']", "61");
    assert!(until(20_000, || m.q("progress.run-progress").is_some()).await);
    m.type_into("input[data-path='settings.preemptionGraceSeconds']", "62");
    assert!(until(60_000, || m.q(".status.ok").is_some()).await);
    drop(m);
}

/// Chooses `value` in the select `sel`, as a person does (a bubbling `change`).
fn choose(m: &Mounted, sel: &str, value: &str) {
    let el: web_sys::HtmlSelectElement =
        m.q(sel).unwrap_or_else(|| panic!("no select {sel}")).dyn_into().unwrap();
    el.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    el.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
}

fn now_ms() -> f64 {
    web_sys::window().unwrap().performance().unwrap().now()
}

/// Waits (up to `ms` of the clock) until `f` holds, looking every 5 ms; also returns the longest
/// the page kept the thread between two looks (milliseconds), which is its longest freeze.
async fn until_watching(ms: f64, mut f: impl FnMut() -> bool) -> (bool, f64) {
    let t0 = now_ms();
    let mut longest = 0.0f64;
    loop {
        if f() {
            return (true, longest);
        }
        if now_ms() - t0 > ms {
            return (false, longest);
        }
        let t = now_ms();
        TimeoutFuture::new(5).await;
        longest = longest.max(now_ms() - t - 5.0);
    }
}

#[wasm_bindgen_test]
async fn compare_mode_at_20000_listed_jobs_shows_the_engine_s_comparison() {
    use quotasim::compare::{compare, run_to_end};
    let saved = generated(20_000);
    // What the engine says of the two scenarios, run here on their own first (this freezes).
    let a = saved.scenario.clone();
    let mut b = a.clone();
    let from = a.quota_shares[0].resource_sharing_configuration.strategy;
    let (to, to_name) = match from {
        quotasim::model::Strategy::Reserve => (quotasim::model::Strategy::LendAndBorrow, "LEND_AND_BORROW"),
        _ => (quotasim::model::Strategy::Reserve, "RESERVE"),
    };
    b.quota_shares[0].resource_sharing_configuration.strategy = to;
    b.quota_shares[0].resource_sharing_configuration.borrow_limit = None;
    let ra = run_to_end(quotasim::validate(&a).unwrap(), true).unwrap();
    let rb = run_to_end(quotasim::validate(&b).unwrap(), true).unwrap();
    let c = compare(&ra, &rb, Vec::new());
    drop((ra, rb));
    assert!(!c.changed_jobs.is_empty(), "the change changes fates");

    let m = mount(saved);
    assert!(until(60_000, || m.q(".status.ok").is_some()).await, "{}", m.text(".status"));
    settle().await;
    m.click_text(".top-actions button", "Compare");
    // A is B as it is: B's run is A's, and nothing differs.
    let heading = |m: &Mounted| m.text("section.compare .compare-results h4:last-of-type");
    let (shown, enter_freeze) =
        until_watching(60_000.0, || heading(&m) == "Jobs whose fate changed (0)").await;
    assert!(shown, "{}", m.text("section.compare"));
    assert!(m.text("section.compare").contains("B is the same as A"));
    // B: the first share's strategy changed.
    m.click_text("[role='tab']", "Shares");
    settle().await;
    let path = "select[data-path='quotaShares[0].resourceSharingConfiguration.strategy']";
    let from_name = m.q(path).unwrap().dyn_into::<web_sys::HtmlSelectElement>().unwrap().value();
    assert_ne!(from_name, to_name);
    choose(&m, path, to_name);
    let expected = format!("Jobs whose fate changed ({})", c.changed_jobs.len());
    let (shown, edit_freeze) = until_watching(120_000.0, || heading(&m) == expected).await;
    assert!(shown, "{} (expected {expected})", heading(&m));
    console_log!("compare mode at 20,000 listed jobs: longest freeze {enter_freeze:.0} ms entering, {edit_freeze:.0} ms on the edit");
    let changes = m.text("ul.change-list");
    assert!(changes.contains(&format!("strategy: {from_name} → {to_name}")), "{changes}");
    assert!(!m.text("section.compare").contains("B is the same as A"));
    // The most changed job first, with the engine's description of it.
    let first = quotasim_playground::compare_view::most_changed(&c, 1)[0];
    let listed = m.text("ul.changed-jobs li:first-child");
    assert!(listed.starts_with(&first.job_name) && listed.contains(&first.description), "{listed}");
    // The overall cards: A's and B's preemptions as the engine counts them.
    let pre = |s: &quotasim::result::SummaryResult| s.summary.overall.preemptions.total;
    let cards = m.text("section.compare .stats");
    assert!(cards.contains(&format!("A {} → B {}", pre(&c.a), pre(&c.b))), "{cards}");
    drop(m);
}

#[wasm_bindgen_test]
async fn a_scenario_too_large_for_local_storage_is_saved_in_indexeddb_and_comes_back() {
    storage().clear().unwrap();
    let big = generated(20_000);
    assert!(persist::to_json(&big).len() > persist::MAX_LOCAL_SAVE_CHARS);
    let m = mount(big.clone());
    assert!(until(30_000, || m.q(".status.ok").is_some()).await);
    m.type_into("input[aria-label='scenario name']", "large what-if");
    // Saved after the pause, in IndexedDB: localStorage only says where.
    TimeoutFuture::new(2500).await;
    assert!(storage().get_item(persist::LARGE_SAVE_KEY).unwrap().is_some());
    assert!(storage().get_item(persist::STORAGE_KEY).unwrap().is_none());
    assert_eq!(web_sys::window().unwrap().location().hash().unwrap(), "", "too large for a link");
    drop(m);
    // A new page: the start-up scenario, then the large save read back.
    let (saved, notice, restore) = quotasim_playground::ui::state::initial_state();
    assert!(restore && notice.is_none());
    let doc = web_sys::window().unwrap().document().unwrap();
    let root: web_sys::HtmlElement = doc.create_element("div").unwrap().dyn_into().unwrap();
    doc.body().unwrap().append_child(&root).unwrap();
    let handle =
        leptos::mount::mount_to(root.clone(), move || view! { <App saved=saved restore=true /> }.into_any());
    let m = Mounted { root, _handle: handle };
    assert!(until(20_000, || scenario_name(&m) == "large what-if").await, "{}", scenario_name(&m));
    assert!(until(60_000, || m.text(".status").contains("20000 jobs")).await, "{}", m.text(".status"));
    drop(m);
    storage().clear().unwrap();
}

#[wasm_bindgen_test]
async fn a_scenario_too_large_for_a_link_says_so_and_offers_the_file() {
    let m = mount(generated(10_000));
    assert!(until(30_000, || m.q(".status.ok").is_some()).await);
    m.click_text("button", "Copy share link");
    settle().await;
    let notice = m.text(".notice-text");
    assert!(notice.contains("too large for a link") && notice.contains("10,000 jobs"), "{notice}");
    assert!(m
        .q(".notice button")
        .is_some_and(|b| b.text_content().unwrap_or_default() == "Download scenario JSON"));
    drop(m);
}

/// Dispatches a keydown of `key` on `el` (bubbling, as a key press does); whether the page
/// took it over (`preventDefault`).
fn key_on(el: &web_sys::Element, key: &str, shift: bool) -> bool {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    !el.dispatch_event(&ev).unwrap()
}

fn active() -> web_sys::Element {
    web_sys::window().unwrap().document().unwrap().active_element().unwrap()
}

/// A top-bar button by its text.
fn top_button(m: &Mounted, text: &str) -> web_sys::HtmlElement {
    let list = m.root.query_selector_all(".top-actions button").unwrap();
    (0..list.length())
        .filter_map(|i| list.get(i)?.dyn_into::<web_sys::HtmlElement>().ok())
        .find(|e| e.text_content().unwrap_or_default().trim() == text)
        .unwrap_or_else(|| panic!("no top-bar button {text}"))
}

#[wasm_bindgen_test]
async fn tab_and_shift_tab_stay_inside_the_open_dialogs_and_escape_gives_focus_back() {
    let m = mount(notebook());
    settle().await;
    // Import / Export: its first control is the close button, its last "Load pasted text".
    let opener = top_button(&m, "Import / Export");
    opener.focus().unwrap();
    opener.click();
    settle().await;
    TimeoutFuture::new(50).await;
    let close = m.q(".modal button[aria-label='close']").unwrap();
    assert_eq!(active(), close, "the dialog takes focus");
    assert!(key_on(&close, "Tab", true), "Shift+Tab on the first control is kept in the dialog");
    let last = active();
    assert_eq!(last.text_content().unwrap_or_default(), "Load pasted text", "and goes to the last one");
    assert!(key_on(&last, "Tab", false), "Tab on the last control is kept in the dialog");
    assert_eq!(active(), close, "and goes back to the first");
    // In between, Tab is the browser's own (to the next control, inside the dialog).
    let middle = m.q(".modal textarea").unwrap();
    middle.dyn_ref::<web_sys::HtmlElement>().unwrap().focus().unwrap();
    assert!(!key_on(&middle, "Tab", false));
    assert_eq!(active(), middle);
    key_on(&middle, "Escape", false);
    settle().await;
    assert!(m.q(".modal").is_none(), "Escape closes the dialog");
    assert_eq!(active(), opener.clone().into(), "and focus is back on its opener");

    // History, with nothing in it: the close button is its only control, and Tab stays on it.
    let opener = top_button(&m, "History");
    opener.focus().unwrap();
    opener.click();
    settle().await;
    TimeoutFuture::new(50).await;
    let close = m.q(".modal.history button[aria-label='close history']").unwrap();
    assert_eq!(active(), close);
    assert!(key_on(&close, "Tab", false));
    assert_eq!(active(), close, "Tab does not leave the dialog");
    assert!(key_on(&close, "Tab", true));
    assert_eq!(active(), close, "nor does Shift+Tab");
    key_on(&close, "Escape", false);
    settle().await;
    assert!(m.q(".modal").is_none());
    assert_eq!(active(), opener.into(), "focus is back on History");
}

#[wasm_bindgen_test]
async fn closing_the_explanation_gives_focus_back_to_the_marker_that_opened_it() {
    let m = mount(notebook());
    settle().await;
    let marker = m.q(".timeline path.marker[data-pre='1']").unwrap();
    let focus =
        js_sys::Reflect::get(&marker, &"focus".into()).unwrap().dyn_into::<js_sys::Function>().unwrap();
    focus.call0(&marker).unwrap();
    assert_eq!(active(), marker);
    key_on(&marker, "Enter", false);
    settle().await;
    assert!(m.text(".drawer").contains("qs1_job_high"), "{}", m.text(".drawer"));
    assert_eq!(active().get_attribute("aria-label").as_deref(), Some("close explanation"));
    key_on(&active(), "Escape", false);
    settle().await;
    assert!(m.q(".drawer").is_none());
    let back = active();
    assert_ne!(back.tag_name(), "BODY", "focus does not drop to the page");
    assert_eq!(
        back.get_attribute("data-pre").as_deref(),
        Some("1"),
        "it is back on the marker: {}",
        back.outer_html()
    );
}

#[wasm_bindgen_test]
async fn escape_closes_the_dialog_over_the_explanation_and_leaves_the_explanation_open() {
    let m = mount(notebook());
    settle().await;
    m.click(".timeline path.marker[data-pre='0']");
    settle().await;
    assert!(m.q(".drawer").is_some());
    let opener = top_button(&m, "Import / Export");
    opener.focus().unwrap();
    opener.click();
    settle().await;
    TimeoutFuture::new(50).await;
    key_on(&active(), "Escape", false);
    settle().await;
    assert!(m.q(".modal").is_none(), "Esc closes the dialog");
    assert!(m.q(".drawer").is_some(), "and only the dialog");
    assert_eq!(active(), opener.into());
    key_on(&active(), "Escape", false);
    settle().await;
    assert!(m.q(".drawer").is_none(), "the next Esc closes the explanation");
}

#[wasm_bindgen_test]
async fn the_description_is_edited_in_settings_undone_like_any_edit_and_saved() {
    let m = mount(notebook());
    settle().await;
    m.click_text("button[role='tab']", "Settings");
    settle().await;
    let area = || -> web_sys::HtmlTextAreaElement {
        m.q("textarea.scenario-description").unwrap().dyn_into().unwrap()
    };
    let before = area().value();
    area().set_value("What if qs3 lent its instance?");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    area().dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap()).unwrap();
    TimeoutFuture::new(800).await;
    let stored = persist::from_json(&storage().get_item(persist::STORAGE_KEY).unwrap().unwrap()).unwrap();
    assert_eq!(stored.scenario.description.as_deref(), Some("What if qs3 lent its instance?"));
    m.click("button[aria-label='undo']");
    settle().await;
    assert_eq!(area().value(), before);
    drop(m);
}

#[wasm_bindgen_test]
async fn the_decision_panels_show_waits_per_share_who_preempted_whom_and_offer_every_chart_as_files() {
    let m = mount(notebook());
    settle().await;
    // The wait-time distribution: a line per share with jobs, a row per share.
    assert_eq!(m.all(".wait-cdf svg path.cdf"), 2);
    assert_eq!(m.all(".wait-cdf tbody tr"), 3);
    assert!(m.text(".wait-cdf .legend").contains("qs3: no jobs"), "{}", m.text(".wait-cdf .legend"));
    assert!(m.text(".wait-cdf svg desc").starts_with("qs1: p50 "), "{}", m.text(".wait-cdf svg desc"));
    // The matrix: qs2 reclaimed from qs1 (row 2, column qs1), qs1 preempted inside itself.
    let cell = |r: u32| m.text(&format!(".matrix-table tbody tr:nth-child({r}) td:nth-child(2)"));
    assert!(cell(2).contains("1 reclaim"), "{}", cell(2));
    assert!(cell(1).contains("1 in-share"), "{}", cell(1));
    assert_eq!(m.all(".matrix-table tbody tr"), 3, "no capacity row: no limit was reduced");
    // Every chart has its two download buttons next to it.
    let charts = m.all(".svg-host svg");
    assert!(charts >= 4, "{charts} charts");
    assert_eq!(
        m.all("[data-export-scope] button[data-export='svg']"),
        m.all("[data-export-scope] button[data-export='png']")
    );
    assert_eq!(
        m.all("[data-export-scope] button[data-export='svg']"),
        4,
        "utilization, timeline, lending, waits"
    );
    assert_eq!(m.all(".matrix button[data-export='csv']"), 1);
}
