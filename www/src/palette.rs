//! Share colours (playground-only data).

/// Distinct colours that read on a dark background, in the order new shares get them.
pub const PALETTE: [&str; 20] = [
    "#4f8cff", "#f5a524", "#17c3b2", "#e5484d", "#a78bfa", "#7ee081", "#ff7ab6", "#ffd166", "#4dd0e1",
    "#ff9f68", "#9aa5ff", "#c0e36b", "#f28dd2", "#66d9a5", "#ffb4a2", "#80b3ff", "#e0c068", "#b38bfa",
    "#5ad1ff", "#ff6b6b",
];

/// The colour of share `name`: its saved colour, or a palette colour by position.
pub fn color_of(colors: &[(String, String)], name: &str, index: usize) -> String {
    colors
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, c)| c.clone())
        .unwrap_or_else(|| PALETTE[index % PALETTE.len()].to_string())
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
}
