//! Hostile input to the bridges from the command line: files that are not text, outputs that
//! would overwrite inputs, and (with the engine's importers) numbers and names that would make
//! an invalid scenario.

use quotasim_tests::cli::{quotasim, stderr, stdout};
use serde_json::Value;

use super::temp;

const SHARES: &str = r#"{"quotaShares":[{"quotaShareName":"a","capacityLimits":[{"capacityUnit":"ml.p5.48xlarge","maxCapacity":2}],
  "resourceSharingConfiguration":{"strategy":"LEND"}}]}"#;

#[test]
fn a_file_that_is_not_utf8_is_named_and_skipped_and_the_others_imported() {
    let good = temp("utf8-good.json", SHARES);
    let bad = std::env::temp_dir().join(format!("quotasim-bridges-{}-latin1.json", std::process::id()));
    let latin1 = b"{\"quotaShares\":[{\"quotaShareName\":\"caf\xe9\"}]}";
    let at = latin1.iter().position(|b| *b == 0xe9).unwrap();
    std::fs::write(&bad, latin1).unwrap();
    let bad = bad.display().to_string();
    for (kind, extra) in [("aws", &[][..]), ("trace", &["--format", "openb"][..]), ("kueue", &[][..])] {
        let mut args = vec!["import", kind];
        args.extend_from_slice(extra);
        args.extend([good.as_str(), bad.as_str()]);
        let o = quotasim(&args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{kind}: {e}");
        assert!(
            e.contains(&format!("error: {bad}: not UTF-8 text (invalid byte at offset {at}); file skipped")),
            "{kind}: {e}"
        );
        if kind == "aws" {
            // The other file is still imported.
            let s: Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(s["quotaShares"][0]["quotaShareName"], "a", "{kind}");
        }
    }
    // Every command names the file that is not text.
    let o = quotasim(&["validate", &bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with(&format!("error: {bad}: not UTF-8 text")), "{}", stderr(&o));
}

#[test]
fn observed_may_not_overwrite_an_input() {
    let input = temp("observed-self.json", SHARES);
    let link = format!("{input}.link");
    let _ = std::fs::remove_file(&link);
    std::fs::hard_link(&input, &link).unwrap();
    for out in [
        input.clone(),
        link,
        format!("{}/../{}", std::env::temp_dir().display(), {
            let p = std::path::Path::new(&input);
            format!(
                "{}/{}",
                p.parent().unwrap().file_name().unwrap().to_str().unwrap(),
                p.file_name().unwrap().to_str().unwrap()
            )
        }),
    ] {
        let o = quotasim(&["import", "aws", &input, "--observed", &out]);
        assert_eq!(o.status.code(), Some(2), "{out}: {}", stderr(&o));
        assert!(stderr(&o).contains("it would be overwritten"), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&input).unwrap(), SHARES, "the input is untouched");
        assert!(stdout(&o).is_empty());
    }
}
