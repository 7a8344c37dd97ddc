//! Saving the playground: the scenario (exactly the scenario format) plus playground-only data
//! (share colours), as JSON, and compressed into a URL fragment.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use quotasim::model::Scenario;
use serde::{Deserialize, Serialize};

use crate::palette::is_hex_color;
use crate::presets;

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

/// The localStorage key.
pub const STORAGE_KEY: &str = "quotasim-playground-v1";
/// The URL fragment prefix.
pub const HASH_PREFIX: &str = "#s=";

pub fn to_json(s: &Saved) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

pub fn from_json(text: &str) -> Result<Saved, String> {
    serde_json::from_str::<Saved>(text).map(Saved::sanitized).map_err(|e| e.to_string())
}

/// `deflate` + base64url of the JSON.
pub fn encode(s: &Saved) -> String {
    let json = to_json(s);
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    URL_SAFE_NO_PAD.encode(packed)
}

/// The inverse of [`encode`]; any damage gives an error, never a panic.
pub fn decode(text: &str) -> Result<Saved, String> {
    let packed = URL_SAFE_NO_PAD.decode(text.trim().as_bytes()).map_err(|e| format!("not base64: {e}"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, 64 << 20)
        .map_err(|e| format!("not compressed data: {e:?}"))?;
    let json = String::from_utf8(json).map_err(|_| String::from("not UTF-8"))?;
    from_json(&json)
}

/// The saved state in a location hash (`#s=...`), if there is one.
pub fn from_hash(hash: &str) -> Option<Result<Saved, String>> {
    hash.strip_prefix(HASH_PREFIX).filter(|s| !s.is_empty()).map(decode)
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
        }
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

    #[test]
    fn damaged_links_are_errors() {
        assert!(decode("!!!").is_err());
        assert!(decode("AAAA").is_err());
        let e = encode(&saved());
        assert!(decode(&e[..e.len() / 2]).is_err());
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
    fn colours_stay_outside_the_scenario() {
        let s = saved();
        let scen = serde_json::to_string(&s.scenario).unwrap();
        assert!(!scen.contains("#4f8cff"));
        assert!(quotasim::json::parse_scenario(&scen).is_ok());
    }
}
