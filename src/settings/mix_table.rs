//! The default level mix (`generator::mix::DEFAULT_MIX`) as the Markdown table README.md carries.

use super::variant_name;
use crate::generator::mix::DEFAULT_MIX;

/// The default mix as a Markdown table: per variant and sides, the side the reach was measured
/// on, each level's target share of the stored puzzles with the measured share of items aimed at
/// it that are made where below 100% (in brackets; `–` for a level without a share), and the
/// share of work items expected to be stored.
pub fn default_mix_table() -> String {
    let mut out = String::from(
        "| variant | sides | measured | easy | medium | hard | expert | extreme | items stored |\n\
         |---|---|---|--:|--:|--:|--:|--:|--:|\n",
    );
    for r in DEFAULT_MIX {
        let sides = if r.from == r.to {
            format!("{0}x{0}", r.from)
        } else {
            format!("{0}x{0} – {1}x{1}", r.from, r.to)
        };
        let cells: Vec<String> = r
            .percent
            .iter()
            .zip(&r.reach)
            .map(|(&p, &reach)| match (p, reach) {
                (0, 0) => "–".to_string(),
                (0, r) => format!("– ({r}%)"),
                (p, 100) => format!("{p}%"),
                (p, r) => format!("{p}% ({r}%)"),
            })
            .collect();
        out += &format!(
            "| {0} | {sides} | {2}x{2} | {1} | {3:.0}% |\n",
            variant_name(r.variant),
            cells.join(" | "),
            r.measured,
            r.stored_percent()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    /// README.md shows the table the code draws from (paste the printed table to update it).
    #[test]
    fn the_readme_carries_the_default_mix() {
        let readme = include_str!("../../README.md");
        let table = super::default_mix_table();
        assert!(
            readme.contains(&table),
            "README.md's default-mix table differs from the code's; replace it with:\n{table}"
        );
    }
}
