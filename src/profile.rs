//! The parsed heap profile: the resolved form of the `.hp` bytes.
//!
//! Nothing after the parser looks at the text format; it sees sample times, marks, header
//! strings and one compact [`Series`] per identifier. Identifiers keep the order in which
//! they first appeared, because hp2ps's tie-breaking depends on it (see `select::hash_order`).

/// Index of an identifier in [`Profile::names`] and [`Profile::series`].
pub type IdentId = u32;

/// A complete heap profile.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Profile {
    /// `JOB` string (raw bytes, as written by the runtime).
    pub job: Vec<u8>,
    /// `DATE` string.
    pub date: Vec<u8>,
    /// `SAMPLE_UNIT` string (the x axis legend).
    pub sample_unit: Vec<u8>,
    /// `VALUE_UNIT` string (the y axis legend).
    pub value_unit: Vec<u8>,
    /// `BEGIN_SAMPLE` time of every complete sample; these define the x axis.
    pub times: Vec<f64>,
    /// `MARK` times in file order.
    pub marks: Vec<f64>,
    /// Identifier names in order of first appearance.
    pub names: Vec<Box<[u8]>>,
    /// Data points of each identifier, indexed like `names`.
    pub series: Vec<Series>,
}

impl Profile {
    /// Number of complete samples.
    pub fn samples(&self) -> usize {
        self.times.len()
    }
}

/// The data points of one identifier, in file order.
///
/// Heap profiles are long runs of consecutive samples, so values are stored in runs
/// (8 bytes a point instead of a sample index next to every value). A name that occurs
/// twice in one sample keeps each occurrence as a point of its own: hp2ps adds them one
/// at a time after scaling, and the deviation sort squares them separately, so merging
/// them would change the output bytes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    runs: Vec<Run>,
    values: Vec<f64>,
    /// Second and later occurrences in one sample, in file order.
    repeats: Vec<(u32, f64)>,
    /// Sample of the latest value plus one (0: none yet), to append without looking
    /// at the runs.
    next: u32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Run {
    /// Sample of the run's first value.
    sample: u32,
    /// Index of the run's first value in `values`.
    start: u32,
}

impl Series {
    /// Appends a point; samples must not decrease from one call to the next.
    #[inline]
    pub fn push(&mut self, sample: u32, value: f64) {
        if sample + 1 == self.next {
            self.repeats.push((sample, value));
            return;
        }
        if sample != self.next || self.runs.is_empty() {
            self.runs.push(Run {
                sample,
                start: self.values.len() as u32,
            });
        }
        self.values.push(value);
        self.next = sample + 1;
    }

    /// Number of data points, repeats included.
    pub fn len(&self) -> usize {
        self.values.len() + self.repeats.len()
    }

    /// True when the identifier has no data point.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Data points `(sample, value)` in file order.
    pub fn points(&self) -> Points<'_> {
        Points {
            series: self,
            run: 0,
            index: 0,
            repeat: 0,
            pending_repeats_for: None,
        }
    }

    /// Releases spare capacity once parsing is done.
    pub fn shrink_to_fit(&mut self) {
        self.runs.shrink_to_fit();
        self.values.shrink_to_fit();
        self.repeats.shrink_to_fit();
    }
}

/// Iterator over a [`Series`] in file order: each sample's first value, then its repeats.
pub struct Points<'a> {
    series: &'a Series,
    run: usize,
    index: usize,
    repeat: usize,
    /// Sample whose repeats are due before the next primary value.
    pending_repeats_for: Option<u32>,
}

impl Iterator for Points<'_> {
    type Item = (u32, f64);

    fn next(&mut self) -> Option<(u32, f64)> {
        let s = self.series;
        if let Some(sample) = self.pending_repeats_for {
            if let Some(&(rs, v)) = s.repeats.get(self.repeat)
                && rs == sample
            {
                self.repeat += 1;
                return Some((rs, v));
            }
            self.pending_repeats_for = None;
        }
        if self.index >= s.values.len() {
            return None;
        }
        while self.run + 1 < s.runs.len() && s.runs[self.run + 1].start as usize <= self.index {
            self.run += 1;
        }
        let run = s.runs[self.run];
        let sample = run.sample + (self.index as u32 - run.start);
        let value = s.values[self.index];
        self.index += 1;
        self.pending_repeats_for = Some(sample);
        Some((sample, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_come_back_in_file_order_with_repeats_after_their_sample() {
        let mut s = Series::default();
        s.push(0, 1.0);
        s.push(1, 2.0);
        s.push(1, 3.0);
        s.push(1, 4.0);
        s.push(4, 5.0);
        s.push(5, 6.0);
        s.push(5, 7.0);
        let got: Vec<_> = s.points().collect();
        assert_eq!(
            got,
            vec![
                (0, 1.0),
                (1, 2.0),
                (1, 3.0),
                (1, 4.0),
                (4, 5.0),
                (5, 6.0),
                (5, 7.0)
            ]
        );
        assert_eq!(s.len(), 7);
    }

    #[test]
    fn a_gap_starts_a_new_run() {
        let mut s = Series::default();
        s.push(3, 1.0);
        s.push(7, 2.0);
        assert_eq!(s.points().collect::<Vec<_>>(), vec![(3, 1.0), (7, 2.0)]);
    }
}
