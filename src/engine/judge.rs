//! `--check`'s conditions judged on the profile a job renders (or two runs'), as the
//! job sees it: `--stats` keeps the whole run for its own window, so its conditions see
//! the filter's part of it, as `--summary` would.

use super::model::dispatch;
use super::{Job, ProfileKind, View};
use crate::check::{self, Check, Judged, Unjudged, report::Verdicts};
use crate::profile::Model;

/// `checks` judged on `profile` (made ready for `job` by [`super::subject`]), named `name`;
/// `None` without any.
pub fn judge(
    job: &Job,
    checks: &[Check],
    name: &str,
    model: &Model,
) -> Result<Option<Verdicts>, Unjudged> {
    if checks.is_empty() {
        return Ok(None);
    }
    let cut = match &job.view {
        View::Data(d) if !d.export.reads_bands() => {
            dispatch!(model, k => k.clone().filtered(&job.filter).ok().map(Model::from))
        }
        _ => None,
    };
    let model = cut.as_ref().unwrap_or(model);
    let of: &dyn Judged = dispatch!(model, k => k);
    let run = check::Run::new(name, of, (job.filter.from, job.filter.to));
    let conditions = (checks.iter())
        .map(|c| check::judge(c, run))
        .collect::<Result<_, _>>()?;
    Ok(Some(Verdicts {
        input: name.to_string(),
        conditions,
        unjudged: None,
    }))
}

/// `checks` judged on two runs (each a name and its profile): a change from `before`
/// to `after`, or `after`'s level.
pub fn judge_change(
    job: &Job,
    checks: &[Check],
    before: (&str, &dyn Judged),
    after: (&str, &dyn Judged),
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
                check::Run::new(b.0, b.1, window),
                check::Run::new(a.0, a.1, window),
            )
        })
        .collect::<Result<_, _>>()?;
    Ok(Some(Verdicts {
        input: format!("{} → {}", before.0, after.0),
        conditions,
        unjudged: None,
    }))
}

/// Why no condition can be judged on an input as read: it was not read whole (a cut, a
/// stretch that does not read), and `--check-partial` does not accept the part.
pub fn unread(job: &Job, parsed: &crate::input::Parsed) -> Option<String> {
    if job.judge_partial {
        return None;
    }
    let w = parsed.warnings.iter().find(|w| w.loses_data())?;
    Some(format!(
        "the input was not read whole ({w}); --check-partial judges the part that was read"
    ))
}
