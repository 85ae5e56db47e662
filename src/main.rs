/// mimalloc: a report of 400,000 stacks is hundreds of thousands of small names and
/// frames made and freed, which glibc's allocator spends a fifth of the run on.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::ffi::{c_int, c_long};

/// The command line: private to the binary, so that a flag added is never a change to
/// the library's API. It maps flags to the library's options and prints what it says.
mod cli;

// mimalloc's own options (its static library, which `libmimalloc-sys` links in).
unsafe extern "C" {
    fn mi_option_set(option: c_int, value: c_long);
}

/// mimalloc's `mi_option_purge_delay` (its v3 `mi_option_t`): how long freed memory is
/// kept before it is handed back to the system.
const PURGE_DELAY: c_int = 15;

/// mimalloc keeps freed memory a second (its default, 1000 ms) before handing it back:
/// a long heap profile frees its reading's buffers as it builds its model, and holding
/// them made its peak 53 MB where hp2ps takes 43 MB (`gen_hp.py 100000 25 60 11` to
/// PostScript). After 2 ms it is 35–37 MB; the 73 MB report's flame graph takes 20 MB
/// less, and up to a tenth more time (0, the soonest, cost it a fifth). The
/// environment's `MIMALLOC_PURGE_DELAY` still decides, as mimalloc documents.
const PURGE_AFTER_MS: c_long = 2;

fn main() -> std::process::ExitCode {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's options, which it reads as it runs.
        unsafe { mi_option_set(PURGE_DELAY, PURGE_AFTER_MS) };
    }
    // A file past the size limit (`ulimit -f`) is a write that fails (EFBIG), said and
    // cleaned up as any failed write is, not a signal that kills the process and leaves
    // the output's temporary file behind.
    #[cfg(unix)]
    // SAFETY: sets SIGXFSZ's disposition to ignore before any thread is started.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    cli::main()
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe extern "C" {
        fn mi_option_get(option: c_int) -> c_long;
    }

    #[test]
    fn the_purge_delay_is_mimallocs_option_of_that_number() {
        // Its default (1000 ms) names the option: a renumbering in a newer mimalloc
        // would set another option, and fail here first.
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            return;
        }
        assert_eq!(unsafe { mi_option_get(PURGE_DELAY) }, 1000);
        unsafe { mi_option_set(PURGE_DELAY, PURGE_AFTER_MS) };
        assert_eq!(unsafe { mi_option_get(PURGE_DELAY) }, PURGE_AFTER_MS);
    }
}
