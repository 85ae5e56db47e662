//! `--check`'s conditions judged on the profile a job renders (or two runs'), as the
//! job sees it: `--stats` keeps the whole run for its own window, so its conditions see
//! the filter's part of it, as `--summary` would.

use super::{Job, Make};
use crate::check::{self, Check, Unjudged, report::Verdicts};
use crate::profile::Profile;

/// `checks` judged on `profile` (made ready for `job` by [`super::kept`]), named `name`;
/// `None` without any.
pub fn judge(
    job: &Job,
    checks: &[Check],
    name: &str,
    profile: &Profile,
) -> Result<Option<Verdicts>, Unjudged> {
    if checks.is_empty() {
        return Ok(None);
    }
    let cut = match &job.make {
        Make::Data(d) if !d.export.reads_bands() => job.filter.apply(profile.clone()).ok(),
        _ => None,
    };
    let run = check::Run {
        name,
        profile: cut.as_ref().unwrap_or(profile),
        window: (job.filter.from, job.filter.to),
    };
    let conditions = (checks.iter())
        .map(|c| check::judge(c, run))
        .collect::<Result<_, _>>()?;
    Ok(Some(Verdicts {
        input: name.to_string(),
        conditions,
    }))
}

/// `checks` judged on two runs (each a name and its profile): a change from `before`
/// to `after`, or `after`'s level.
pub fn judge_change(
    job: &Job,
    checks: &[Check],
    before: (&str, &Profile),
    after: (&str, &Profile),
) -> Result<Option<Verdicts>, Unjudged> {
    if checks.is_empty() {
        return Ok(None);
    }
    let window = (job.filter.from, job.filter.to);
    let (b, a) = (before, after);
    let conditions = (checks.iter())
        .map(|c| {
            check::judge_change(
                c,
                check::Run {
                    name: b.0,
                    profile: b.1,
                    window,
                },
                check::Run {
                    name: a.0,
                    profile: a.1,
                    window,
                },
            )
        })
        .collect::<Result<_, _>>()?;
    Ok(Some(Verdicts {
        input: format!("{} → {}", before.0, after.0),
        conditions,
    }))
}
