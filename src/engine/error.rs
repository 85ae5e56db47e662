//! Why the engine made nothing of an input: a typed error a library caller can match on
//! and the command line prints (`hpgraph: prog.hp: …`), each message saying what to do.

use crate::check::Unjudged;
use crate::select::filter::Empty;

/// Why nothing was made of an input (or of two runs compared).
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The job asks what this profile cannot give: `--inverted` of a picture that is no
    /// flame graph, `--stats` of a profile without the runtime's events, a window that
    /// starts past them. `why` says what to do.
    Unfit {
        /// The input, once the engine knows which.
        input: Option<String>,
        /// What is wrong and what to do.
        why: String,
    },
    /// The filter (`--include`, `--exclude`, `--from`, `--to`) kept nothing of it.
    Filtered {
        /// The input, once the engine knows which.
        input: Option<String>,
        /// What was left empty.
        error: Empty,
    },
    /// A retainer profile's sets could not be named from its run's report (the message
    /// names the report).
    Sets(String),
    /// A condition cannot be judged on it: a band no name matches, a figure it lacks.
    Check(Unjudged),
    /// Two runs cannot be compared: other units, or no runtime's events to compare (the
    /// message names the runs).
    Compare(String),
}

impl Error {
    /// The error said of `input` (as messages name it), where it did not say which.
    pub(super) fn of(self, name: &str) -> Error {
        match self {
            Error::Unfit { input: None, why } => Error::Unfit {
                input: Some(name.to_string()),
                why,
            },
            Error::Filtered { input: None, error } => Error::Filtered {
                input: Some(name.to_string()),
                error,
            },
            e => e,
        }
    }

    /// [`Error::Unfit`] of an input not named yet.
    pub(super) fn unfit(why: impl Into<String>) -> Error {
        Error::Unfit {
            input: None,
            why: why.into(),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let named = |f: &mut std::fmt::Formatter<'_>, input: &Option<String>| match input {
            Some(name) => write!(f, "{name}: "),
            None => Ok(()),
        };
        match self {
            Error::Unfit { input, why } => {
                named(f, input)?;
                f.write_str(why)
            }
            Error::Filtered { input, error } => {
                named(f, input)?;
                error.fmt(f)
            }
            Error::Sets(why) | Error::Compare(why) => f.write_str(why),
            Error::Check(error) => error.fmt(f),
        }
    }
}

/// Each message already says its cause: printing a chain would say it twice.
impl std::error::Error for Error {}

impl From<Unjudged> for Error {
    fn from(error: Unjudged) -> Error {
        Error::Check(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Input, Job, Picture, View};

    #[test]
    fn a_library_caller_is_told_which_input_and_what_in_a_variant_it_can_match() {
        let hp = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
                   BEGIN_SAMPLE 0.00\nmain\t1200\nEND_SAMPLE 0.00\n";
        let picture = Picture::new(
            crate::backend::Format::Svg,
            Default::default(),
            Default::default(),
        );
        let mut job = Job {
            read: Default::default(),
            filter: Default::default(),
            view: View::Graph(picture),
            binary: None,
            judge_partial: false,
        };
        job.filter.include = vec![regex::bytes::Regex::new("^nothing$").unwrap()];
        let input = Input {
            name: "a.hp",
            parsed: crate::input::parse(hp).unwrap(),
            sets: crate::input::prof::retainers::Sets::None,
        };
        let Err(error) = crate::engine::run(&job, input, None, &[], &mut |_, _| {}) else {
            panic!("a filter that keeps nothing is refused");
        };
        assert!(
            matches!(
                &error,
                Error::Filtered { input: Some(name), error: Empty::NoBands } if name == "a.hp"
            ),
            "{error:?}"
        );
        assert_eq!(
            error.to_string(),
            "a.hp: no band name passes --include and --exclude"
        );
    }
}
