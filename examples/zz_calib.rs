use sudoku_press::*;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let n = v["size"].as_u64().unwrap() as usize;
        let g = Geometry::standard(n).unwrap();
        let givens: Vec<u8> = v["givens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u8)
            .collect();
        let cages = v["cages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                Cage::new(
                    c["sum"].as_u64().unwrap() as u16,
                    c["cells"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| Cell::new(x.as_u64().unwrap() as u8))
                        .collect(),
                )
            })
            .collect();
        let p = Puzzle::new(g, Grid::from_values(n, givens).unwrap(), cages).unwrap();
        let r = solver::solve(&p, 2);
        let tag = v
            .get("book")
            .map(|b| b.to_string())
            .or(v.get("level").map(|b| b.to_string()))
            .unwrap_or_default();
        println!("{} {} {}", tag, r.stats.guesses, r.stats.nodes);
    }
}
