//! What the second module costs an import: a generated 100,000-job CSV job log imported
//! directly and through the wire (the request, the module's import and reply, the page reading
//! the reply), three times; both give the same outcome.
//! `cargo run --release -p quotasim-playground-bridges --example wire_cost`

use quotasim_playground_bridges::*;
use std::time::Instant;
fn main() {
    let n = 100_000;
    let mut log = String::from("id,team,gpus,t,d\n");
    for i in 0..n {
        log.push_str(&format!("j{i},t{},{},{},{}\n", i % 7, 8 * (1 + i % 3), i * 3, 600 + i % 5000));
    }
    let files = vec![("log.csv".to_string(), log)];
    let t = TraceSettings {
        columns: "name=id,team=team,gpus=gpus,submit=t,duration=d".into(),
        gpus_per_instance: 8,
    };
    for _ in 0..3 {
        let a = Instant::now();
        let direct = importer::import(&files, &t);
        let d = a.elapsed();
        let a = Instant::now();
        let req = import_request(&files, &t);
        let b = Instant::now();
        let rep = handle_import(&req);
        let c = Instant::now();
        let back = import_reply(&rep).unwrap();
        let e = Instant::now();
        assert_eq!(back, direct);
        println!(
            "direct {:?}; wire: request {:?}, module {:?}, reply read {:?}; reply {} MB",
            d,
            b - a,
            c - b,
            e - c,
            rep.len() / 1_000_000
        );
    }
}
