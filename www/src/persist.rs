//! Saving the playground: the scenario (exactly the scenario format) plus playground-only data
//! (share colours), as JSON, and compressed into a URL fragment.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use quotasim::model::Scenario;
use serde::{Deserialize, Serialize};

use crate::palette::is_hex_color;
use crate::presets;
use crate::text::truncate;

/// Everything a reload or a shared link restores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    pub scenario: Scenario,
    /// Share colours by share name; kept out of the scenario so exports stay valid.
    #[serde(default)]
    pub colors: Vec<(String, String)>,
    /// The preset the scenario started from, if any.
    #[serde(default)]
    pub preset: Option<String>,
    /// The instant the player stood at.
    #[serde(default)]
    pub now: u64,
    /// Compare mode: the baseline A the scenario (B) is compared with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Scenario>,
    /// The report card's objectives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objectives: Option<quotasim::objective::Objectives>,
}

/// Most share colours a saved state keeps: a scenario has at most 20 shares, and renamed or
/// deleted shares leave a few stale entries behind.
pub const MAX_COLORS: usize = 64;

impl Saved {
    /// What saved state read from a link, an import or storage may carry: `#rrggbb` colours
    /// only (at most [`MAX_COLORS`], for names no longer than a share name may be) and a known
    /// preset id. Everything else in it is untrusted text, escaped wherever it is shown.
    pub fn sanitized(mut self) -> Saved {
        self.colors.retain(|(n, c)| n.chars().count() <= quotasim::validate::MAX_NAME && is_hex_color(c));
        self.colors.truncate(MAX_COLORS);
        self.preset = self.preset.filter(|id| presets::is_known(id));
        self
    }
}

/// Compare mode exported as one file: baseline A, variant B and the report card's objectives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ComparisonFile {
    pub format_version: i64,
    /// Always `"comparison"`: what tells this file from a scenario.
    pub kind: String,
    pub a: Scenario,
    pub b: Scenario,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objectives: Option<quotasim::objective::Objectives>,
}

/// The comparison of `saved` as a file, when it is in compare mode.
pub fn comparison_json(saved: &Saved) -> Option<String> {
    let a = saved.baseline.clone()?;
    let f = ComparisonFile {
        format_version: 1,
        kind: "comparison".into(),
        a,
        b: saved.scenario.clone(),
        objectives: saved.objectives.clone(),
    };
    Some(quotasim::json::to_json_pretty(&f))
}

/// Reads a comparison file as strictly as a scenario; `None` when the text is not one (no
/// `"kind": "comparison"`), so that it can be read as a scenario instead.
pub fn comparison_from_json(text: &str) -> Option<Result<ComparisonFile, String>> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    if v.get("kind").and_then(|k| k.as_str()) != Some("comparison") {
        return None;
    }
    use serde::Deserialize;
    Some(ComparisonFile::deserialize(quotasim::strict::Strict(v)).map_err(|e| e.to_string()))
}

/// The localStorage key.
pub const STORAGE_KEY: &str = "quotasim-playground-v1";
/// The URL fragment prefix.
pub const HASH_PREFIX: &str = "#s=";

pub fn to_json(s: &Saved) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// Saved state written as JSON a part at a time, for states too large to write in one task
/// (100,000 jobs take some 300 ms): everything but the job lists is written at once, then the
/// jobs a slice at a time from the scenarios as they stand (the caller stops the writer when
/// they change). Each scenario's `jobs` comes last in its object; otherwise the text reads
/// back as [`to_json`]'s does.
pub struct JsonWriter {
    out: Vec<u8>,
    /// What is left to write, last first.
    steps: Vec<Step>,
}

enum Step {
    Text(String),
    /// The jobs of the scenario (`false`) or the baseline (`true`), from this index.
    Jobs(bool, usize),
}

impl JsonWriter {
    /// A writer of `saved` with the job lists of `scenario` and `baseline` (`saved`'s own job
    /// lists are not written: they may be left empty).
    pub fn new(saved: &Saved) -> JsonWriter {
        let mut v = serde_json::to_value(saved).unwrap_or(serde_json::Value::Null);
        let mut steps = Vec::new();
        let Some(top) = v.as_object_mut() else { return JsonWriter { out: Vec::new(), steps } };
        let mut text = String::from("{");
        for (i, (k, val)) in top.iter_mut().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&serde_json::to_string(k).unwrap_or_default());
            text.push(':');
            let jobs_of = match k.as_str() {
                "scenario" => Some(false),
                "baseline" => Some(true),
                _ => None,
            };
            match (jobs_of, val.as_object_mut()) {
                (Some(side), Some(o)) => {
                    o.remove("jobs");
                    let body = serde_json::to_string(o).unwrap_or_default();
                    text.push_str(&body[..body.len() - 1]);
                    text.push_str(if o.is_empty() { "\"jobs\":[" } else { ",\"jobs\":[" });
                    steps.push(Step::Text(core::mem::take(&mut text)));
                    steps.push(Step::Jobs(side, 0));
                    text.push_str("]}");
                }
                _ => text.push_str(&serde_json::to_string(val).unwrap_or_default()),
            }
        }
        text.push('}');
        steps.push(Step::Text(text));
        steps.reverse();
        JsonWriter { out: Vec::new(), steps }
    }

    /// Writes until `out_of_time` says stop or all is written; returns the JSON once it is
    /// whole. `scenario` and `baseline` are the state's job lists, the same at every call.
    pub fn advance(
        &mut self,
        scenario: &[quotasim::model::Job],
        baseline: &[quotasim::model::Job],
        out_of_time: &mut dyn FnMut() -> bool,
    ) -> Option<String> {
        while let Some(step) = self.steps.pop() {
            match step {
                Step::Text(t) => self.out.extend_from_slice(t.as_bytes()),
                Step::Jobs(side, from) => {
                    let jobs = if side { baseline } else { scenario };
                    let mut i = from;
                    while i < jobs.len() {
                        if i > 0 {
                            self.out.push(b',');
                        }
                        let _ = serde_json::to_writer(&mut self.out, &jobs[i]);
                        i += 1;
                        if i % 64 == 0 && i < jobs.len() && out_of_time() {
                            self.steps.push(Step::Jobs(side, i));
                            return None;
                        }
                    }
                }
            }
        }
        // serde_json writes UTF-8 only; the check is one pass over the whole.
        Some(String::from_utf8(core::mem::take(&mut self.out)).unwrap_or_default())
    }
}

/// Reads saved state as strictly as a scenario file: objects only where the format has
/// them, nothing after the state.
pub fn from_json(text: &str) -> Result<Saved, String> {
    use serde::Deserialize;
    let mut de = serde_json::Deserializer::from_str(text);
    let saved = Saved::deserialize(quotasim::strict::Strict(&mut de)).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(saved.sanitized())
}

/// The longest `#s=` link the playground reads, in characters after the prefix (browsers cap
/// URLs at about 2 MB).
pub const MAX_LINK_CHARS: usize = 1_500_000;
/// The longest link the playground writes or copies: about 100 kB, some 5,000 generated jobs,
/// which chat tools, mail and browsers' address bars carry whole. Larger scenarios are saved
/// in the browser and shared as files.
pub const MAX_SHARE_LINK_CHARS: usize = 100_000;
/// Scenario JSON compresses about 14:1 (16:1 at best for generated jobs); JSON longer than
/// this cannot make a link of [`MAX_SHARE_LINK_CHARS`], so it is not compressed to find out.
const MAX_LINKABLE_JSON: usize = 32 * MAX_SHARE_LINK_CHARS;
/// Saves longer than this (characters of JSON) go to IndexedDB; shorter ones to localStorage,
/// which holds about 5 MB per origin, shared with the History.
pub const MAX_LOCAL_SAVE_CHARS: usize = 1_000_000;
/// The localStorage key that says the autosave is in IndexedDB (under [`STORAGE_KEY`]).
pub const LARGE_SAVE_KEY: &str = "quotasim-playground-large-v1";
/// The most a link may inflate to, in bytes. Scenario JSON compresses about 16:1, so a link at
/// [`MAX_LINK_CHARS`] (about 1.1 MB of deflate data, some 90,000 jobs) inflates to about
/// 18 MB; this leaves room for more repetitive scenarios, and stops a crafted link (deflate
/// reaches about 1000:1) before it takes the page's memory.
pub const MAX_INFLATED_BYTES: usize = 32 << 20;
/// Longest parse message a notice repeats (parse errors may quote whole strings of the input).
const MAX_DETAIL_CHARS: usize = 120;

/// `deflate` + base64url of the JSON.
pub fn encode(s: &Saved) -> String {
    let json = to_json(s);
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    URL_SAFE_NO_PAD.encode(packed)
}

/// The `#s=` fragment for `s`, unless it is longer than [`MAX_SHARE_LINK_CHARS`].
pub fn link_hash(s: &Saved) -> Option<String> {
    link_hash_of(&to_json(s))
}

/// [`link_hash`] of the saved state's JSON ([`to_json`]).
pub fn link_hash_of(json: &str) -> Option<String> {
    if json.len() > MAX_LINKABLE_JSON {
        return None;
    }
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    let encoded = URL_SAFE_NO_PAD.encode(packed);
    (encoded.len() <= MAX_SHARE_LINK_CHARS).then(|| format!("{HASH_PREFIX}{encoded}"))
}

/// The inverse of [`encode`]. Any damage gives a short message (under 200 characters, never
/// the data), never a panic; nothing inflates past [`MAX_INFLATED_BYTES`].
pub fn decode(text: &str) -> Result<Saved, String> {
    use miniz_oxide::inflate::TINFLStatus;
    let text = text.trim();
    if text.len() > MAX_LINK_CHARS {
        return Err(format!(
            "too long: {} characters, where a link carries at most {MAX_LINK_CHARS}",
            text.len()
        ));
    }
    let packed =
        URL_SAFE_NO_PAD.decode(text.as_bytes()).map_err(|_| String::from("damaged: not base64url text"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_INFLATED_BYTES).map_err(
        |e| match e.status {
            TINFLStatus::HasMoreOutput => {
                format!("too large: it inflates past the {} MiB a link may hold", MAX_INFLATED_BYTES >> 20)
            }
            TINFLStatus::FailedCannotMakeProgress => {
                String::from("damaged: its compressed data is cut short")
            }
            _ => String::from("damaged: not valid compressed data"),
        },
    )?;
    let json = String::from_utf8(json).map_err(|_| String::from("damaged: not UTF-8 text"))?;
    from_json(&json).map_err(|e| format!("not a saved scenario: {}", truncate(&e, MAX_DETAIL_CHARS)))
}

/// The saved state in a location hash (`#s=...`), if there is one.
pub fn from_hash(hash: &str) -> Option<Result<Saved, String>> {
    hash.strip_prefix(HASH_PREFIX).filter(|s| !s.is_empty()).map(decode)
}

/// The localStorage key of the recent scenarios.
pub const HISTORY_KEY: &str = "quotasim-playground-history-v1";
/// How many distinct scenarios the history keeps.
pub const HISTORY_LEN: usize = 10;
/// Most characters the history takes in localStorage (entries are compressed like links); the
/// oldest entries go first, so the history never crowds out the autosave.
pub const HISTORY_MAX_CHARS: usize = 1_500_000;
/// Longest name a history entry or a notice shows.
const SHOWN_NAME_CHARS: usize = 60;

/// A scenario the user had before something replaced it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// When it was replaced, in milliseconds since the Unix epoch.
    pub at: f64,
    /// Its name as shown (see [`shown_name`]).
    pub name: String,
    pub jobs: usize,
    /// The instant the player stood at.
    #[serde(default)]
    pub now: u64,
    /// The saved state without `now`, encoded like a link: equal states give equal text.
    pub data: String,
}

impl HistoryEntry {
    pub fn new(saved: &Saved, at: f64) -> HistoryEntry {
        let data = encode(&Saved { now: 0, ..saved.clone() });
        HistoryEntry { at, name: shown_name(saved), jobs: saved.scenario.jobs.len(), now: saved.now, data }
    }

    /// The saved state back, read as untrusted as a link is.
    pub fn saved(&self) -> Result<Saved, String> {
        decode(&self.data).map(|s| Saved { now: self.now, ..s })
    }
}

/// A saved state's name for people: the scenario's name, else its preset's title, cut short.
pub fn shown_name(saved: &Saved) -> String {
    let name = saved
        .scenario
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .or_else(|| saved.preset.as_deref().and_then(presets::by_id).map(|p| p.title.to_string()))
        .unwrap_or_else(|| String::from("untitled scenario"));
    truncate(&name, SHOWN_NAME_CHARS)
}

/// The history stored under [`HISTORY_KEY`]; anything unreadable reads as no history.
pub fn history_from_json(text: &str) -> Vec<HistoryEntry> {
    let mut h: Vec<HistoryEntry> = serde_json::from_str(text).unwrap_or_default();
    h.retain(|e| e.data.len() <= MAX_LINK_CHARS && e.at.is_finite());
    for e in &mut h {
        e.name = truncate(&e.name, SHOWN_NAME_CHARS);
    }
    h.truncate(HISTORY_LEN);
    h
}

pub fn history_to_json(h: &[HistoryEntry]) -> String {
    serde_json::to_string(h).unwrap_or_default()
}

/// Puts `saved` first in the history (an entry of the same state moves up), keeping at most
/// [`HISTORY_LEN`] entries and [`HISTORY_MAX_CHARS`]. Returns whether it was kept (a state too
/// large for a link is not).
pub fn remember(history: &mut Vec<HistoryEntry>, saved: &Saved, at: f64) -> bool {
    let entry = HistoryEntry::new(saved, at);
    if entry.data.len() > MAX_LINK_CHARS.min(HISTORY_MAX_CHARS) {
        return false;
    }
    history.retain(|e| e.data != entry.data);
    history.insert(0, entry);
    history.truncate(HISTORY_LEN);
    let mut total = 0;
    history.retain(|e| {
        total += e.data.len() + e.name.len() + 64;
        total <= HISTORY_MAX_CHARS
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn saved() -> Saved {
        Saved {
            scenario: presets::scenario(presets::NOTEBOOK).unwrap(),
            colors: vec![("qs1".into(), "#4f8cff".into())],
            preset: Some("notebook".into()),
            now: 1800,
            baseline: None,
            objectives: None,
        }
    }

    #[test]
    fn a_state_written_in_slices_reads_back_as_the_whole_one() {
        let gen =
            |n, seed| quotasim::generate::generate(&quotasim::generate::GenerateOptions::new(n, 4, 2, seed));
        let mut cases = vec![saved()];
        let mut s = saved();
        s.scenario = gen(3_000, 1);
        s.baseline = Some(gen(2_000, 2));
        s.objectives = Some(quotasim::objective::Objectives { format_version: 1, objectives: Vec::new() });
        cases.push(s.clone());
        s.baseline.as_mut().unwrap().jobs.clear();
        cases.push(s.clone());
        s.scenario.jobs.clear();
        cases.push(s);
        for saved in cases {
            let (jobs_a, jobs_b) =
                (saved.scenario.jobs.clone(), saved.baseline.as_ref().map(|b| b.jobs.clone()));
            let mut header = saved.clone();
            header.scenario.jobs.clear();
            if let Some(b) = &mut header.baseline {
                b.jobs.clear();
            }
            let mut w = JsonWriter::new(&header);
            let (mut slices, mut calls) = (0, 0);
            let json = loop {
                slices += 1;
                let mut tick = || {
                    calls += 1;
                    calls % 3 == 0
                };
                if let Some(j) = w.advance(&jobs_a, jobs_b.as_deref().unwrap_or(&[]), &mut tick) {
                    break j;
                }
            };
            assert_eq!(from_json(&json).unwrap(), saved.clone().sanitized());
            let (x, y): (serde_json::Value, serde_json::Value) =
                (serde_json::from_str(&json).unwrap(), serde_json::from_str(&to_json(&saved)).unwrap());
            assert_eq!(x, y, "the same JSON value as the whole write");
            let jobs = saved.scenario.jobs.len() + saved.baseline.as_ref().map_or(0, |b| b.jobs.len());
            assert!(slices >= jobs / (3 * 64), "{jobs} jobs written in {slices} slices");
        }
    }

    #[test]
    fn a_comparison_file_round_trips_and_a_scenario_is_not_one() {
        let mut s = saved();
        assert!(comparison_json(&s).is_none(), "not in compare mode");
        s.baseline = Some(s.scenario.clone());
        s.scenario.settings.preemption_grace_seconds = 300;
        let text = comparison_json(&s).unwrap();
        let f = comparison_from_json(&text).unwrap().unwrap();
        assert_eq!((f.a, f.b), (s.baseline.clone().unwrap(), s.scenario.clone()));
        assert!(comparison_from_json(&quotasim::json::to_json(&s.scenario)).is_none());
        let bad = text.replace("\"kind\"", "\"extra\": 1, \"kind\"");
        assert!(comparison_from_json(&bad).unwrap().is_err());
    }

    #[test]
    fn url_encoding_round_trips_exactly() {
        let s = saved();
        let e = encode(&s);
        assert!(e.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(decode(&e).unwrap(), s);
        assert_eq!(from_hash(&format!("#s={e}")).unwrap().unwrap(), s);
        assert!(from_hash("#other").is_none());
    }

    /// The error of decoding `text`, checked to be short.
    fn short_error(text: &str) -> String {
        let e = decode(text).expect_err("damaged");
        assert!(e.chars().count() < 200, "{} characters: {}", e.len(), truncate(&e, 300));
        e
    }

    fn deflated(bytes: &[u8]) -> String {
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(bytes, 9))
    }

    #[test]
    fn damaged_links_are_short_errors() {
        assert!(short_error("!!!").contains("not base64url"));
        assert!(short_error("AAAA").contains("damaged"));
        assert!(short_error("bm90IGNvbXByZXNzZWQgYXQgYWxs").contains("not valid compressed data"));
        let e = encode(&saved());
        assert!(short_error(&e[..(e.len() / 2) & !3]).contains("cut short"));
    }

    #[test]
    fn a_truncated_large_link_reports_in_a_sentence_not_its_data() {
        // A long scenario cut short used to print the partly inflated buffer (millions of characters).
        let s = Saved {
            scenario: quotasim::generate(&quotasim::GenerateOptions::new(2_000, 4, 2, 7)),
            colors: Vec::new(),
            preset: None,
            now: 0,
            baseline: None,
            objectives: None,
        };
        let e = encode(&s);
        assert!(short_error(&e[..(e.len() * 3 / 4) & !3]).contains("cut short"));
    }

    #[test]
    fn links_that_inflate_past_the_bound_are_refused() {
        let bomb = deflated(&vec![b' '; MAX_INFLATED_BYTES + 1]);
        assert!(bomb.len() < 100_000, "a small link: {}", bomb.len());
        assert!(short_error(&bomb).contains("inflates past"));
        let long = "A".repeat(MAX_LINK_CHARS + 1);
        assert!(short_error(&long).contains("too long"));
    }

    #[test]
    fn links_with_wrong_types_or_huge_strings_are_short_errors() {
        assert!(short_error(&deflated(b"{\"scenario\": 5}")).contains("not a saved scenario"));
        let huge = format!("{{\"scenario\": {{\"jobs\": \"{}\"}}}}", "x".repeat(1_000_000));
        short_error(&deflated(huge.as_bytes()));
        assert!(short_error(&deflated(&[0xff, 0xfe, 0x00])).contains("UTF-8"));
    }

    #[test]
    fn saved_state_is_read_as_strictly_as_a_scenario_file() {
        let good = to_json(&saved());
        assert!(from_json(&good).is_ok());
        assert!(from_json(&format!("{good} {good}")).is_err(), "data after the state");
        let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
        v["scenario"]["settings"] = serde_json::json!([0, 0, 0, true]);
        let e = from_json(&v.to_string()).unwrap_err();
        assert!(e.contains("expected struct Settings"), "an array for the settings object: {e}");
    }

    #[test]
    fn a_link_is_offered_only_when_it_can_be_read_back() {
        let s = saved();
        let hash = link_hash(&s).unwrap();
        assert_eq!(from_hash(&hash).unwrap().unwrap(), s);
    }

    #[test]
    fn saved_state_keeps_only_rrggbb_colours_and_known_presets() {
        let payload = "#fff\"/><img src=x onerror=alert(document.domain)>";
        let mut s = saved();
        s.colors.push(("qs2".into(), payload.into()));
        s.colors.push(("qs3".into(), "red".into()));
        s.preset = Some("<b>nope</b>".into());
        let back = decode(&encode(&s)).unwrap();
        assert_eq!(back.colors, vec![("qs1".to_string(), "#4f8cff".to_string())]);
        assert_eq!(back.preset, None);
        let json = from_json(&to_json(&s)).unwrap();
        assert_eq!(json.colors.len(), 1, "the autosave is read the same way");
        s.colors = (0..200).map(|i| (format!("s{i}"), "#000000".to_string())).collect();
        assert_eq!(from_json(&to_json(&s)).unwrap().colors.len(), MAX_COLORS);
    }

    #[test]
    fn the_history_keeps_ten_distinct_states_newest_first() {
        let mut h = Vec::new();
        let mut s = saved();
        for i in 0..12 {
            s.scenario.name = Some(format!("what-if {i}"));
            assert!(remember(&mut h, &s, i as f64));
        }
        assert_eq!(h.len(), HISTORY_LEN);
        assert_eq!(h[0].name, "what-if 11");
        assert_eq!(h[0].jobs, 4);
        s.scenario.name = Some("what-if 5".into());
        s.now = 99;
        remember(&mut h, &s, 100.0);
        assert_eq!(h.len(), HISTORY_LEN, "the same state moves up instead of repeating");
        assert_eq!((h[0].name.as_str(), h[0].at), ("what-if 5", 100.0));
        assert_eq!(h[0].saved().unwrap(), s);
        let back = history_from_json(&history_to_json(&h));
        assert_eq!(back, h);
        assert!(history_from_json("{not json").is_empty());
        assert!(history_from_json("[{\"at\": 1, \"name\": 5}]").is_empty());
    }

    #[test]
    fn history_entries_are_read_like_links() {
        let payload = "#fff\"/><img src=x onerror=alert(1)>";
        let mut s = saved();
        s.colors.push(("qs2".into(), payload.into()));
        s.scenario.name = Some("x".repeat(500));
        let e = HistoryEntry::new(&s, 1.0);
        assert_eq!(e.name.chars().count(), 60);
        assert_eq!(e.saved().unwrap().colors.len(), 1, "the bad colour is dropped on the way back");
        let mut bad = e.clone();
        bad.data = "AAAA".into();
        assert!(bad.saved().unwrap_err().len() < 200);
    }

    #[test]
    fn colours_stay_outside_the_scenario() {
        let s = saved();
        let scen = serde_json::to_string(&s.scenario).unwrap();
        assert!(!scen.contains("#4f8cff"));
        assert!(quotasim::json::parse_scenario(&scen).is_ok());
    }
}
