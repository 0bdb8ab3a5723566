use engine::*;
use std::time::Instant;
#[test]
fn smoke() {
    let data = std::fs::read_to_string("/work/shared/data/ffo40-59.obf").unwrap();
    let n: usize = std::env::var("NFFO").ok().and_then(|s| s.parse().ok()).unwrap_or(2);
    let t0 = Instant::now();
    let mut tot = 0;
    for line in data.lines().take(n) {
        let pos = Position::from_obf(line).unwrap();
        let t = Instant::now();
        let s = solve(&pos);
        tot += s.nodes;
        println!("{} -> {:?} in {:?}", &line[66..80.min(line.len())], s, t.elapsed());
    }
    println!("TOTAL nodes {tot} in {:?}", t0.elapsed());
}
