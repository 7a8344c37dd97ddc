//! Running the `quotasim` binary from tests.
//!
//! The binary belongs to another package, so it is built once with `cargo build -p
//! quotasim-cli` into the same target directory and run from there.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The built `quotasim` binary.
pub fn bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let status = Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "quotasim-cli", "--bin", "quotasim"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building quotasim-cli failed");
        // target/debug/deps/<test>-<hash> -> target/debug/quotasim
        let exe = std::env::current_exe().unwrap();
        let dir = exe.parent().and_then(|d| d.parent()).expect("target dir");
        let p = dir.join(format!("quotasim{}", std::env::consts::EXE_SUFFIX));
        assert!(p.exists(), "no binary at {}", p.display());
        p
    })
}

/// A file of `tests/fixtures`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name)
}

/// Runs `quotasim` with `args`.
pub fn quotasim(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().expect("quotasim runs")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
