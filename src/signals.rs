//! Ctrl-C and SIGTERM (SIGHUP too): the one handler of the process. A command that can stop
//! gracefully (`generate`) asks for a flag that the first signal sets; otherwise, and at a
//! second signal, the temporary files of unfinished outputs are removed and the process ends
//! with exit code 130.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use sudoku_press::atomic_file;

/// Exit code after an interrupt (128 + SIGINT), as shells report it.
pub const INTERRUPTED: u8 = 130;

/// The flag of a command that stops gracefully, when one asked for it.
static GRACEFUL: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Install the handler (once, before the command runs). Without one (a handler already
/// installed by an embedding program), a signal simply ends the process.
pub fn install() {
    let _ = ctrlc::set_handler(on_signal);
}

/// A flag the first Ctrl-C or SIGTERM sets instead of ending the process (the command stops
/// after the work in hand); a second signal ends it at once.
pub fn graceful_stop() -> Arc<AtomicBool> {
    Arc::clone(GRACEFUL.get_or_init(|| Arc::new(AtomicBool::new(false))))
}

fn on_signal() {
    if let Some(flag) = GRACEFUL.get() {
        if !flag.swap(true, Ordering::SeqCst) {
            return;
        }
        eprintln!("\nstopped; run the same command again to continue");
    }
    atomic_file::remove_live_temporaries();
    std::process::exit(i32::from(INTERRUPTED));
}
