//! lz-string `compressToBase64`, byte-compatible with the JavaScript library (npm lz-string 1.5.0)
//! that f-puzzles and SudokuPad use to pack puzzles into links.
//!
//! The payload comes from the `lz-str` crate, whose bits equal the JavaScript library's; only its
//! padding differs: `lz-str` 0.2.1 appends one `=` more than JavaScript whenever padding is needed
//! (`"a"` gives `IZA==`, JavaScript `IZA=`). We strip the padding and pad to a multiple of four,
//! as the JavaScript library does (research: publishing.md §4.3, adumbidiot/lz-str-rs#86).

/// `LZString.compressToBase64(text)`, exactly as the JavaScript library writes it.
pub fn compress_to_base64(text: &str) -> String {
    let raw = lz_str::compress_to_base64(text);
    let body = raw.trim_end_matches('=');
    let pad = (4 - body.len() % 4) % 4;
    format!("{body}{}", "=".repeat(pad))
}

/// `LZString.decompressFromBase64(text)`: `None` when the text is not an lz-string payload.
pub fn decompress_from_base64(text: &str) -> Option<String> {
    let wide = lz_str::decompress_from_base64(text)?;
    String::from_utf16(&wide).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads_like_javascript() {
        // The table of publishing.md §4.3, measured against npm lz-string 1.5.0.
        assert_eq!(compress_to_base64(""), "Q===");
        assert_eq!(compress_to_base64("a"), "IZA=");
        assert_eq!(compress_to_base64(r#"{"a":1}"#), "N4IghiBcCMC+Q===");
    }

    #[test]
    fn round_trips_any_text() {
        for text in ["", "a", "Killer – Tag 1 ✓ ü", &"R1C1,".repeat(300)] {
            let packed = compress_to_base64(text);
            assert_eq!(packed.len() % 4, 0, "{packed}");
            assert_eq!(decompress_from_base64(&packed).as_deref(), Some(text));
        }
    }
}
