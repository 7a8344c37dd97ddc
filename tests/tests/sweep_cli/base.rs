//! A sweep's `base` names a file from inside a file that may come from a shared folder: only
//! a regular file is read, and a file that is not a scenario is never quoted.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use quotasim_tests::cli::bin;

use super::setup;

fn sweep_over(name: &str, base: &str) -> (Option<i32>, String) {
    let sweep = format!(
        r#"{{"formatVersion":1,"base":{},"axes":[{{"path":"settings.backfill","values":[true]}}]}}"#,
        Value::from(base)
    );
    let dir = setup(name, &sweep);
    let mut child = Command::new(bin())
        .args(["sweep", dir.join("sweep.json").to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A FIFO must not make it wait: give it a minute at most, then fail.
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("sweep over {base} did not finish");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
}

use serde_json::Value;

#[test]
fn a_base_that_is_not_a_regular_file_is_refused_without_reading_it() {
    let fifo = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-sweep-{}-fifo", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for base in ["/dev/zero", fifo.to_str().unwrap(), "/tmp"] {
        let (code, e) = sweep_over("special-base", base);
        assert_eq!(code, Some(1), "{base}: {e}");
        assert!(e.contains(&format!("error: base: {base} is not a regular file")), "{base}: {e}");
    }
}

#[test]
fn a_base_that_is_not_a_scenario_is_never_quoted() {
    let dir = setup("secret-base", "{}");
    let cases = [
        ("secret.json", r#"{"password": "hunter2", "token": ["s3cr3t"]}"#, "JSON, but not a scenario"),
        ("secret.txt", "AKIAIOSFODNN7EXAMPLE hunter2\n", "not JSON at line 1, column 1"),
        ("cut.json", r#"{"password": "hunter2"#, "JSON cut short at line 1"),
        ("typed.json", r#"[{"password": "hunter2"}]"#, "JSON, but not a scenario"),
    ];
    for (file, text, says) in cases {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let (code, e) = sweep_over("secret-base", path.to_str().unwrap());
        assert_eq!(code, Some(1), "{file}: {e}");
        assert!(e.contains(says), "{file}: {e}");
        for secret in ["hunter2", "s3cr3t", "AKIA"] {
            assert!(!e.contains(secret), "{file} is quoted: {e}");
        }
    }
    // A scenario with a problem is still described in full.
    let bad = dir.join("bad-scenario.json");
    std::fs::write(&bad, r#"{"serviceEnvironment":{"capacityLimits":[]},"settings":{"graceSeconds":1}}"#)
        .unwrap();
    let (code, e) = sweep_over("secret-base", bad.to_str().unwrap());
    assert_eq!(code, Some(1));
    assert!(e.contains("base: settings.graceSeconds: unknown field `graceSeconds`"), "{e}");
}
