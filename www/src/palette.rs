//! Share colours (playground-only data).

/// Distinct colours that read on a dark background, in the order new shares get them.
pub const PALETTE: [&str; 20] = [
    "#4f8cff", "#f5a524", "#17c3b2", "#e5484d", "#a78bfa", "#7ee081", "#ff7ab6", "#ffd166", "#4dd0e1",
    "#ff9f68", "#9aa5ff", "#c0e36b", "#f28dd2", "#66d9a5", "#ffb4a2", "#80b3ff", "#e0c068", "#b38bfa",
    "#5ad1ff", "#ff6b6b",
];

/// The colour of share `name`: its saved colour when that is a `#rrggbb` colour, else a palette
/// colour by position. Saved colours come from links and imports, so nothing else is trusted.
pub fn color_of(colors: &[(String, String)], name: &str, index: usize) -> String {
    colors
        .iter()
        .find(|(n, c)| n == name && is_hex_color(c))
        .map(|(_, c)| c.clone())
        .unwrap_or_else(|| PALETTE[index % PALETTE.len()].to_string())
}

/// Gives every share in `names` without a saved colour one of its own, the first palette colour
/// no saved colour uses (by position only when all are taken), so that a share keeps its colour
/// whatever happens to the others (deleted, reordered, or an invalid edit while the last run is
/// still on screen). Returns whether anything was added.
pub fn assign(colors: &mut Vec<(String, String)>, names: &[&str]) -> bool {
    let mut added = false;
    for (i, name) in names.iter().enumerate() {
        if colors.iter().any(|(n, c)| n == name && is_hex_color(c)) {
            continue;
        }
        let free = PALETTE.iter().find(|p| !colors.iter().any(|(_, c)| c.eq_ignore_ascii_case(p)));
        let c = free.map_or_else(|| PALETTE[i % PALETTE.len()].to_string(), |p| p.to_string());
        colors.retain(|(n, _)| n != name);
        colors.push((name.to_string(), c));
        added = true;
    }
    added
}

/// Whether `c` is a `#rrggbb` colour (anything else falls back to the palette).
pub fn is_hex_color(c: &str) -> bool {
    c.len() == 7 && c.starts_with('#') && c[1..].chars().all(|x| x.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_colours_win_over_the_palette() {
        let c = vec![("b".to_string(), "#000000".to_string())];
        assert_eq!(color_of(&c, "b", 0), "#000000");
        assert_eq!(color_of(&c, "a", 1), PALETTE[1]);
        assert_eq!(color_of(&c, "a", 21), PALETTE[1]);
        assert!(is_hex_color("#a0B1c2"));
        assert!(!is_hex_color("red"));
    }

    #[test]
    fn a_share_keeps_its_colour_when_another_is_deleted() {
        let mut c = Vec::new();
        assert!(assign(&mut c, &["a", "b", "c"]));
        let b = color_of(&c, "b", 1);
        assert_eq!(b, PALETTE[1]);
        // "a" is deleted: "b" is now first, and keeps its colour.
        assert!(!assign(&mut c, &["b", "c"]));
        assert_eq!(color_of(&c, "b", 0), b);
        // A new share takes a colour nobody uses.
        c.retain(|(n, _)| n != "a");
        assert!(assign(&mut c, &["b", "c", "d"]));
        assert_eq!(color_of(&c, "d", 2), PALETTE[0]);
    }

    #[test]
    fn a_colour_that_is_not_rrggbb_falls_back_to_the_palette() {
        let payload = "#fff\"/><img src=x onerror=alert(document.domain)>";
        let c = vec![("b".to_string(), payload.to_string()), ("c".to_string(), "#12345g".to_string())];
        assert_eq!(color_of(&c, "b", 2), PALETTE[2]);
        assert_eq!(color_of(&c, "c", 3), PALETTE[3]);
        assert!(!is_hex_color("#ffffff\""));
        assert!(!is_hex_color("#fff"));
        assert!(!is_hex_color("#ééé"), "multi-byte text of length 7 is not a colour");
    }
}
