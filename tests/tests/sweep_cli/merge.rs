//! `sweep-merge` refuses what is not the unsharded run: a shard cut short, shards of another
//! sweep (other values, another base), outputs with no rows, rows of an older format.

use std::path::{Path, PathBuf};

use quotasim_tests::cli::{quotasim, stderr};

use super::{setup, sweep_in, SWEEP};

/// The sweep's shards `1/n` ... `n/n`, each written to `<tag>-<i>.jsonl`.
fn shards(dir: &Path, tag: &str, n: u32) -> Vec<String> {
    (1..=n)
        .map(|i| {
            let out = sweep_in(dir, &["--shard", &format!("{i}/{n}")]);
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            let f = dir.join(format!("{tag}-{i}.jsonl"));
            std::fs::write(&f, &out.stdout).unwrap();
            f.display().to_string()
        })
        .collect()
}

fn merge(files: &[&str]) -> (Option<i32>, String, Vec<u8>) {
    let mut args = vec!["sweep-merge"];
    args.extend_from_slice(files);
    let o = quotasim(&args);
    (o.status.code(), stderr(&o), o.stdout)
}

/// `path` without its last `k` lines.
fn cut(path: &str, k: usize, to: PathBuf) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let kept = lines[..lines.len() - k].join("\n");
    std::fs::write(&to, if kept.is_empty() { kept } else { kept + "\n" }).unwrap();
    to.display().to_string()
}

#[test]
fn a_shard_cut_before_its_last_row_is_refused_naming_it() {
    let dir = setup("merge-cut", SWEEP);
    let s = shards(&dir, "shard", 3);
    // Shard 3/3 (rows 2, 5, 8) killed while writing row 8: a shorter sweep used to merge.
    let short = cut(&s[2], 1, dir.join("shard-3-cut.jsonl"));
    let (code, e, out) = merge(&[&s[0], &s[1], &short]);
    assert_eq!(code, Some(1), "{e}");
    assert!(out.is_empty());
    assert!(
        e.contains(&format!("error: {short}: row 8 is missing (rows 0 to 8 expected)"))
            && e.contains("shard 3/3"),
        "{e}"
    );
    // The same for one unsharded output cut short.
    let whole = dir.join("whole.jsonl");
    std::fs::write(&whole, sweep_in(&dir, &[]).stdout).unwrap();
    let short = cut(whole.to_str().unwrap(), 1, dir.join("whole-cut.jsonl"));
    let (code, e, _) = merge(&[&short]);
    assert_eq!(code, Some(1));
    assert!(e.contains(&format!("error: {short}: row 8 is missing")), "{e}");
    // A line cut in the middle is not a row, named with its line.
    let text = std::fs::read_to_string(&s[2]).unwrap();
    let half = dir.join("shard-3-half.jsonl");
    std::fs::write(&half, &text[..text.len() - 100]).unwrap();
    let (code, e, _) = merge(&[&s[0], &s[1], half.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(e.contains(&format!("error: {}:3: not a row", half.display())), "{e}");
}

#[test]
fn shards_of_another_sweep_are_refused_naming_the_file() {
    let dir = setup("merge-foreign", SWEEP);
    let s = shards(&dir, "shard", 3);
    // The same axis paths with other values.
    let other = setup("merge-foreign-values", &SWEEP.replace("[0, 100, 200]", "[0, 100, 300]"));
    let o = shards(&other, "other", 3);
    // The same sweep file over another base.
    let based = setup("merge-foreign-base", SWEEP);
    let nb = std::fs::read_to_string(based.join("nb.json")).unwrap();
    let changed = nb.replacen("\"durationSeconds\"", "\"timeoutSeconds\": 999999, \"durationSeconds\"", 1);
    assert_ne!(nb, changed);
    std::fs::write(based.join("nb.json"), changed).unwrap();
    let b = shards(&based, "based", 3);
    for foreign in [&o[1], &b[1]] {
        let (code, e, out) = merge(&[&s[0], foreign, &s[2]]);
        assert_eq!(code, Some(1), "{e}");
        assert!(out.is_empty());
        assert!(e.contains(&format!("error: {foreign}:1: row 1 is of another sweep than {}:1", s[0])), "{e}");
    }
    // Its own shards still merge into the bytes of one run.
    let (code, e, out) = merge(&[&s[0], &s[1], &s[2]]);
    assert_eq!(code, Some(0), "{e}");
    assert_eq!(out, sweep_in(&dir, &[]).stdout);
}

#[test]
fn outputs_without_rows_are_refused_and_an_empty_shard_is_not() {
    let dir = setup("merge-empty", SWEEP);
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let (code, e, out) = merge(&[empty.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{e}");
    assert!(out.is_empty());
    assert!(e.contains(&format!("error: {}: no rows", empty.display())), "{e}");
    // Nine rows in ten shards: shard 10/10 has no row, and the merge is the unsharded run.
    let s = shards(&dir, "ten", 10);
    assert!(std::fs::read(&s[9]).unwrap().is_empty());
    let files: Vec<&str> = s.iter().map(String::as_str).collect();
    let (code, e, out) = merge(&files);
    assert_eq!(code, Some(0), "{e}");
    assert_eq!(out, sweep_in(&dir, &[]).stdout);
}

#[test]
fn rows_without_a_fingerprint_are_refused() {
    let dir = setup("merge-old", SWEEP);
    let whole = sweep_in(&dir, &[]);
    let old: Vec<String> = String::from_utf8(whole.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("rows");
            o.remove("fingerprint");
            v.to_string()
        })
        .collect();
    let f = dir.join("old.jsonl");
    std::fs::write(&f, old.join("\n")).unwrap();
    let (code, e, _) = merge(&[f.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(e.contains("row 0 has no `rows` and `fingerprint`"), "{e}");
}
