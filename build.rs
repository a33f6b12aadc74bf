//! Build script: tells the tests whether the published puzzle sets (`$SUDOKU_PRESS_DATA`, else
//! `../shared/data`) are present, so that tests needing them show as *ignored* in cargo's summary
//! when they are absent (cfg `shared_data`), instead of passing without having run.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_data)");
    println!("cargo::rerun-if-env-changed=SUDOKU_PRESS_DATA");
    println!("cargo::rerun-if-changed=build.rs");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let data = std::env::var_os("SUDOKU_PRESS_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../shared/data"));
    if data.is_dir() {
        // Only an existing folder is watched: watching a missing path would rerun every build.
        println!("cargo::rerun-if-changed={}", data.display());
        println!("cargo::rustc-cfg=shared_data");
    }
}
