//! The program, running: its standard input, output and error are its own (hpgraph
//! writes nothing to them while it runs), and a signal that stops hpgraph stops it too.
//!
//! A signal from the terminal (Ctrl-C, a closed terminal) reaches the program and
//! hpgraph at once, as the foreground process group: it is not sent again, for GHC's
//! runtime takes a second SIGINT as "stop now", without the eventlog's last events.
//! A signal sent to hpgraph alone (`kill`, a supervisor) is sent on to the program. The
//! process is reaped under the same lock the forwarding takes, so a signal never reaches
//! a process that has taken the program's number since. On Linux the program is also
//! ended (SIGTERM) if hpgraph is killed outright: no process outlives it.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::exfiltrator::WithOrigin;
use signal_hook::iterator::{Handle, SignalsInfo};
use signal_hook::low_level::siginfo::Cause;

/// How often a running program is looked at: between looks hpgraph sleeps.
const POLL: Duration = Duration::from_millis(20);

/// How a program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this status.
    Exited(i32),
    /// A signal ended it.
    Signalled(i32),
}

impl Ended {
    fn of(status: ExitStatus) -> Ended {
        use std::os::unix::process::ExitStatusExt;
        match (status.code(), status.signal()) {
            (Some(code), _) => Ended::Exited(code),
            (None, Some(signal)) => Ended::Signalled(signal),
            (None, None) => Ended::Exited(1),
        }
    }

    /// Whether it failed (a non-zero status, or a signal).
    pub fn failed(self) -> bool {
        self != Ended::Exited(0)
    }

    /// The status a shell gives it: its own, or 128 + the signal's number.
    pub fn code(self) -> u8 {
        match self {
            Ended::Exited(c) => u8::try_from(c).unwrap_or(1),
            Ended::Signalled(s) => u8::try_from(128 + s).unwrap_or(255),
        }
    }
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Ended::Exited(c) => write!(f, "exited with status {c}"),
            Ended::Signalled(s) => write!(f, "was ended by signal {s} ({})", signal_name(s)),
        }
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGPIPE => "SIGPIPE",
        _ => "a signal",
    }
}

/// The program, started: dropped before it is waited for, it is killed and reaped, so
/// no process outlives hpgraph.
pub struct Running {
    /// `None` once reaped; locked by the forwarding.
    child: Arc<Mutex<Option<Child>>>,
    /// The last signal hpgraph was sent (0: none).
    caught: Arc<AtomicI32>,
    signals: Handle,
    ended: Option<Ended>,
}

/// Starts `program` with `rts` between `+RTS` and `-RTS`, then `args`, its standard
/// streams hpgraph's.
pub fn start(program: &Path, rts: &[OsString], args: &[OsString]) -> std::io::Result<Running> {
    let mut signals = SignalsInfo::<WithOrigin>::new([SIGINT, SIGTERM, SIGHUP])?;
    let handle = signals.handle();
    let mut command = Command::new(program);
    command.arg("+RTS").args(rts).arg("-RTS").args(args);
    // hpgraph killed outright (SIGKILL: no handler runs) still ends the program: the
    // system sends it SIGKILL when the thread that started it, this one, ends. Not
    // SIGTERM: a program that ignores it outlived hpgraph. Every signal hpgraph is sent
    // and survives is passed on as it came; this one fires only where hpgraph is gone.
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl(2) is async-signal-safe and touches only the child's own state,
        // between fork and exec.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    let child = command.spawn();
    let child = match child {
        Ok(c) => Arc::new(Mutex::new(Some(c))),
        Err(e) => {
            handle.close();
            return Err(e);
        }
    };
    let caught = Arc::new(AtomicI32::new(0));
    let (forward_to, seen) = (Arc::clone(&child), Arc::clone(&caught));
    std::thread::spawn(move || {
        for origin in signals.forever() {
            seen.store(origin.signal, Ordering::SeqCst);
            if origin.cause == Cause::Kernel {
                continue; // the terminal's: the program has it already
            }
            let held = forward_to.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(child) = held.as_ref()
                && let Ok(pid) = libc::pid_t::try_from(child.id())
            {
                // SAFETY: kill(2) takes any pid and signal; the child is not yet
                // reaped (the lock is held), so the pid is still the program's.
                unsafe { libc::kill(pid, origin.signal) };
            }
        }
    });
    Ok(Running {
        child,
        caught,
        signals: handle,
        ended: None,
    })
}

impl Running {
    /// How it ended, once it has (looked at now, without waiting).
    pub fn try_ended(&mut self) -> std::io::Result<Option<Ended>> {
        if self.ended.is_none() {
            let mut held = self.child.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(status) = held.as_mut().map(Child::try_wait).transpose()?.flatten() {
                *held = None;
                self.ended = Some(Ended::of(status));
            }
        }
        Ok(self.ended)
    }

    /// Waits for it to end.
    pub fn wait(&mut self) -> std::io::Result<Ended> {
        loop {
            if let Some(ended) = self.try_ended()? {
                return Ok(ended);
            }
            std::thread::sleep(POLL);
        }
    }

    /// The signal (its number) hpgraph was last sent while the program ran, if any.
    pub fn interrupted(&self) -> Option<i32> {
        Some(self.caught.load(Ordering::SeqCst)).filter(|s| *s != 0)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.signals.close();
        let mut held = self.child.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(mut child) = held.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_as_a_shell_reads_them() {
        assert_eq!(Ended::Exited(3).code(), 3);
        assert_eq!(Ended::Signalled(SIGINT).code(), 130);
        assert!(!Ended::Exited(0).failed());
        assert_eq!(
            Ended::Signalled(SIGINT).to_string(),
            "was ended by signal 2 (SIGINT)"
        );
    }
}
