//! The self-contained HTML page: players in the `page.html` template, the player's CSS and JS
//! inlined, and a strict Content-Security-Policy that allows exactly those two inline blocks.
//!
//! The template crate is minijinja: the skeleton stays a plain template file in the repository
//! (`src/play/page.html`, embedded with `include_str!`) that the JS and feed engineers can read
//! and edit without a derive or a build-time config file; a template named `*.html` escapes every
//! value by default, and the only unescaped values are the three marked `| safe` (the CSS, the JS
//! and each player's JSON, which `data::to_script_json` makes safe for a `<script>` element).
//! It has no proc macros to build (2 shared cores) and no dependencies beyond serde; an error in
//! the template shows in the first test that renders a page, since the template is compiled in.

use super::data::{to_script_json, PlayerData};
use crate::grader::Minutes;
use base64::Engine;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::Write;

/// The page skeleton.
const PAGE_TEMPLATE: &str = include_str!("page.html");
/// The player's rules (conflicts, cage sums, pencil marks, hint selection), inlined first.
pub const RULES_JS: &str = include_str!("rules.js");
/// The player, inlined after the rules; it mounts every `.sp-player` of the page.
pub const PLAYER_JS: &str = include_str!("player.js");
/// The player's style sheet.
pub const PLAYER_CSS: &str = include_str!("player.css");

/// Why a page could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The template failed to render (a bug in `page.html`).
    #[error("the page template failed: {0}")]
    Template(#[from] minijinja::Error),
    /// Writing the page failed.
    #[error("cannot write the page: {0}")]
    Io(#[from] std::io::Error),
}

/// A link in the page's header (e.g. the feed's previous and next days, its archive, its PDF).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Link {
    /// The words shown.
    pub label: String,
    /// The address: keep it relative (a page that links elsewhere still loads nothing from there).
    pub href: String,
    /// An optional `rel` (`prev`, `next`, `index`).
    pub rel: Option<String>,
}

/// What a page shows around its players.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageInfo {
    /// The page's `<title>` and heading.
    pub title: String,
    /// A paragraph under the heading.
    pub intro: Option<String>,
    /// Links in the header.
    pub links: Vec<Link>,
    /// A line at the foot of the page.
    pub footer: Option<String>,
    /// More CSS for this page, appended to the player's (and covered by the same hash).
    pub extra_css: String,
    /// Links shown under a player, by the player's id (e.g. the feed's SudokuPad and f-puzzles
    /// links of each puzzle).
    pub player_links: std::collections::BTreeMap<String, Vec<Link>>,
}

/// One player as the template sees it.
#[derive(Serialize)]
struct PlayerView<'a> {
    id: &'a str,
    title: &'a str,
    meta: String,
    json: String,
    path_note: Option<&'a str>,
    making_note: Option<&'a str>,
    links: &'a [Link],
}

#[derive(Serialize)]
struct PageView<'a> {
    title: &'a str,
    show_heading: bool,
    intro: Option<&'a str>,
    links: &'a [Link],
    footer: Option<&'a str>,
    csp: String,
    css: &'a str,
    js: &'a str,
    players: Vec<PlayerView<'a>>,
}

/// The inline script of every page: the rules, then the player.
pub fn page_script() -> String {
    format!("{RULES_JS}\n{PLAYER_JS}")
}

/// `'sha256-…'` of an inline block's exact text, as a CSP source.
pub fn csp_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The page's Content-Security-Policy: nothing may load, only the inline `script` and `style`
/// blocks with these exact texts may run or apply, images only from `data:` URLs.
pub fn content_security_policy(script: &str, style: &str) -> String {
    format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; form-action 'none'",
        csp_hash(script),
        csp_hash(style)
    )
}

/// Write a page holding `players` (each a `<section class="sp-player" id="p-ID">` with its
/// `sp-data` JSON) into `w`, with the player's CSS and JS inlined and a strict CSP.
pub fn write_page<W: Write>(
    w: &mut W,
    players: &[PlayerData],
    info: &PageInfo,
) -> Result<(), PageError> {
    let css = format!("{PLAYER_CSS}{}", info.extra_css);
    let js = page_script();
    // A page of one player titled like it shows the player's heading only.
    let show_heading = !matches!(players, [p] if p.title == info.title);
    let view = PageView {
        title: &info.title,
        show_heading,
        intro: info.intro.as_deref(),
        links: &info.links,
        footer: info.footer.as_deref(),
        csp: content_security_policy(&js, &css),
        css: &css,
        js: &js,
        players: players.iter().map(|p| player_view(p, info)).collect(),
    };
    let mut env = minijinja::Environment::new();
    env.add_template("page.html", PAGE_TEMPLATE)?;
    let template = env.get_template("page.html")?;
    let html = template.render(minijinja::value::Value::from(minijinja::value::Serde(
        &view,
    )))?;
    w.write_all(html.as_bytes())?;
    Ok(())
}

/// A page holding `players`, as a string.
pub fn page_html(players: &[PlayerData], info: &PageInfo) -> Result<String, PageError> {
    let mut out = Vec::new();
    write_page(&mut out, players, info)?;
    Ok(String::from_utf8(out).expect("the template writes UTF-8"))
}

fn player_view<'a>(p: &'a PlayerData, info: &'a PageInfo) -> PlayerView<'a> {
    let mut level = match p.level.as_str() {
        "unrated" | "" => "not rated".to_string(),
        level => format!("{level}, score {:.1}", p.score),
    };
    if let Some([low, high]) = p.minutes {
        level.push_str(&format!(", about {}", Minutes { low, high }.label()));
    }
    PlayerView {
        id: &p.id,
        title: &p.title,
        meta: level,
        json: to_script_json(p),
        path_note: p.path_note.as_deref(),
        making_note: p.making_note.as_deref(),
        links: info.player_links.get(&p.id).map_or(&[], Vec::as_slice),
    }
}
