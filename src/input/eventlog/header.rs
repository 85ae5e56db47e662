//! The `.hp` header strings an eventlog's events make: the JOB line from the program's
//! command line (as the runtime's heap profiler prints it), the DATE from its wall clock.

/// Whether an RTS identifier (`GHC-9.0.2 rts_thr_p`) names a profiling runtime: its
/// flavour has a `p` way.
pub(super) fn is_profiling_rts(rts: &[u8]) -> bool {
    let flavour = rts.rsplit(|&b| b == b' ').next().unwrap_or_default();
    flavour.split(|&b| b == b'_').any(|way| way == b"p")
}

/// The `.hp`'s JOB line from the program's full command line: the program's name, then
/// (in a profiling runtime) its own arguments, ` +RTS` and the RTS options, as
/// `initHeapProfiling` prints them. Options from `GHCRTS` or `-with-rtsopts` are not in
/// the eventlog's command line, so a JOB that had them lacks them here.
pub fn job_of(args: &[&[u8]], profiled: bool) -> Vec<u8> {
    let Some((prog, rest)) = args.split_first() else {
        return Vec::new();
    };
    let mut job = prog.rsplit(|&b| b == b'/').next().unwrap_or(prog).to_vec();
    if !profiled {
        return job;
    }
    let mut program = Vec::new();
    let mut rts = Vec::new();
    let mut in_rts = false;
    for (k, &a) in rest.iter().enumerate() {
        match a {
            b"+RTS" => in_rts = true,
            b"-RTS" => in_rts = false,
            b"--RTS" => {
                program.extend_from_slice(&rest[k + 1..]);
                break;
            }
            _ if in_rts => rts.push(a),
            _ => program.push(a),
        }
    }
    for a in program {
        job.push(b' ');
        job.extend_from_slice(a);
    }
    job.extend_from_slice(b" +RTS");
    for a in rts {
        job.push(b' ');
        job.extend_from_slice(a);
    }
    job
}

/// The `.hp`'s DATE from the wall-clock time: `ctime` in local time without the seconds
/// (`Sun Nov 22 23:09 2026`), as the runtime's `time_str` writes it. The local time zone
/// is the `TZ` environment variable's, as for the runtime.
pub fn date_of(unix_seconds: u64) -> Vec<u8> {
    let Some(t) = local_time(unix_seconds) else {
        return Vec::new();
    };
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{} {} {:2} {:02}:{:02} {}",
        DAYS[t.weekday % 7],
        MONTHS[t.month % 12],
        t.day,
        t.hour,
        t.minute,
        t.year
    )
    .into_bytes()
}

struct LocalTime {
    year: i64,
    month: usize,
    day: u32,
    weekday: usize,
    hour: u32,
    minute: u32,
}

#[cfg(unix)]
fn local_time(unix_seconds: u64) -> Option<LocalTime> {
    let t = libc::time_t::try_from(unix_seconds).ok()?;
    // SAFETY: localtime_r writes only into `tm`, which lives on this stack frame.
    let tm = unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&t, &mut tm).is_null() {
            return None;
        }
        tm
    };
    Some(LocalTime {
        year: i64::from(tm.tm_year) + 1900,
        month: usize::try_from(tm.tm_mon).ok()?,
        day: u32::try_from(tm.tm_mday).ok()?,
        weekday: usize::try_from(tm.tm_wday).ok()?,
        hour: u32::try_from(tm.tm_hour).ok()?,
        minute: u32::try_from(tm.tm_min).ok()?,
    })
}

/// Without the C library's time zones, UTC.
#[cfg(not(unix))]
fn local_time(unix_seconds: u64) -> Option<LocalTime> {
    let days = (unix_seconds / 86400) as i64;
    let secs = unix_seconds % 86400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as usize;
    let year = yoe + era * 400 + i64::from(month <= 2);
    Some(LocalTime {
        year,
        month: month - 1,
        day,
        weekday: ((days + 4).rem_euclid(7)) as usize,
        hour: (secs / 3600) as u32,
        minute: (secs / 60 % 60) as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_job_is_the_program_its_arguments_and_the_rts_options() {
        let args: Vec<&[u8]> = vec![
            b"../dir/Leak",
            b"a b",
            b"+RTS",
            b"-hc",
            b"-l",
            b"-RTS",
            b"x",
        ];
        assert_eq!(job_of(&args, true), b"Leak a b x +RTS -hc -l");
        assert_eq!(job_of(&args, false), b"Leak");
        let args: Vec<&[u8]> = vec![b"p", b"+RTS", b"-hT", b"--RTS", b"+RTS", b"y"];
        assert_eq!(job_of(&args, true), b"p +RTS y +RTS -hT");
        assert_eq!(job_of(&[b"p"], true), b"p +RTS");
        assert_eq!(job_of(&[], true), b"");
    }

    #[test]
    fn profiling_runtimes_are_told_by_their_flavour() {
        assert!(is_profiling_rts(b"GHC-9.0.2 rts_p"));
        assert!(is_profiling_rts(b"GHC-8.2.0.20170507 rts_thr_p"));
        assert!(is_profiling_rts(b"GHC-9.4.7 rts_thr_debug_p"));
        assert!(!is_profiling_rts(b"GHC-9.0.2 rts_thr"));
        assert!(!is_profiling_rts(b"GHC-9.2.1 rts_v"));
    }
}
