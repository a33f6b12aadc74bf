use sudoku_press::generator::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size: u8 = args.get(1).map_or(4, |s| s.parse().unwrap());
    let count: u64 = args.get(2).map_or(20, |s| s.parse().unwrap());
    let c = GeneratorConfig {
        size,
        ..GeneratorConfig::default()
    };
    for i in 0..count {
        match generate_puzzle(&c, 1, i) {
            Outcome::Generated(g) => println!(
                "{i} ok calls={} repairs={} cages={}",
                g.metrics.solver_calls, g.metrics.repairs, g.metrics.cage_count
            ),
            Outcome::Rejected(r) => println!("{i} {r:?}"),
        }
    }
}
