//! One band's data points: runs of consecutive samples, 8 bytes a point.

/// Below this, sums of whole numbers in doubles are exact.
const EXACT_SUM: u64 = 1 << 53;

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
    values: Values,
    /// Second and later occurrences in one sample, in file order.
    repeats: Vec<(u32, f64)>,
    /// Sample of the latest value plus one (0: none yet), to append without looking
    /// at the runs.
    next: u32,
    /// Sum of the values while they are all narrow (see [`Series::total`]), kept as
    /// points arrive so that selecting bands need not read every point again.
    sum: u64,
}

/// A series' values: whole numbers below 2^32 (heap sizes in bytes, nearly always) take
/// four bytes each; the first value that does not fit turns the series into doubles.
#[derive(Debug, Clone, PartialEq)]
enum Values {
    Narrow(Vec<u32>),
    Wide(Vec<f64>),
}

impl Default for Values {
    fn default() -> Self {
        Values::Narrow(Vec::new())
    }
}

impl Values {
    fn len(&self) -> usize {
        match self {
            Values::Narrow(v) => v.len(),
            Values::Wide(v) => v.len(),
        }
    }

    fn get(&self, i: usize) -> f64 {
        match self {
            Values::Narrow(v) => f64::from(v[i]),
            Values::Wide(v) => v[i],
        }
    }

    #[inline]
    fn narrow(x: f64) -> Option<u32> {
        // `as` saturates, so a fraction, a negative or a too large value does not
        // survive the round trip.
        let n = x as u32;
        (f64::from(n) == x && x.is_sign_positive()).then_some(n)
    }

    fn widen(&mut self) -> &mut Vec<f64> {
        if let Values::Narrow(n) = self {
            *self = Values::Wide(n.iter().map(|&x| f64::from(x)).collect());
        }
        match self {
            Values::Wide(w) => w,
            Values::Narrow(_) => unreachable!(),
        }
    }

    /// Appends `x`; returns it as an integer if it was stored narrow.
    #[inline]
    fn push(&mut self, x: f64) -> Option<u32> {
        if let Values::Narrow(n) = self
            && let Some(x) = Self::narrow(x)
        {
            n.push(x);
            return Some(x);
        }
        self.widen().push(x);
        None
    }

    fn extend(&mut self, other: &Values) {
        match (&mut *self, other) {
            (Values::Narrow(a), Values::Narrow(b)) => {
                a.reserve_exact(b.len());
                a.extend_from_slice(b);
            }
            (_, Values::Narrow(b)) => {
                let a = self.widen();
                a.reserve_exact(b.len());
                a.extend(b.iter().map(|&x| f64::from(x)));
            }
            (_, Values::Wide(b)) => {
                let a = self.widen();
                a.reserve_exact(b.len());
                a.extend_from_slice(b);
            }
        }
    }

    fn for_each_in(&self, start: usize, end: usize, mut f: impl FnMut(usize, f64)) {
        match self {
            Values::Narrow(v) => {
                for (i, &x) in v[start..end].iter().enumerate() {
                    f(i, f64::from(x));
                }
            }
            Values::Wide(v) => {
                for (i, &x) in v[start..end].iter().enumerate() {
                    f(i, x);
                }
            }
        }
    }

    fn shrink_to_fit(&mut self) {
        match self {
            Values::Narrow(v) => v.shrink_to_fit(),
            Values::Wide(v) => v.shrink_to_fit(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Run {
    /// Sample of the run's first value.
    sample: u32,
    /// Index of the run's first value in `values`.
    start: u32,
}

impl Series {
    /// One series of `parts` added sample by sample, over `samples` samples: a point
    /// wherever any part has one.
    pub fn sum<'a>(parts: impl IntoIterator<Item = &'a Series>, samples: usize) -> Series {
        let mut sums = vec![0.0f64; samples];
        let mut present = vec![false; samples];
        for s in parts {
            s.for_each(|i, v| {
                sums[i as usize] += v;
                present[i as usize] = true;
            });
        }
        let mut merged = Series::default();
        for (i, (&v, &here)) in sums.iter().zip(&present).enumerate() {
            if here {
                merged.push(i as u32, v);
            }
        }
        merged
    }

    /// Appends a point; samples must not decrease from one call to the next.
    #[inline]
    pub fn push(&mut self, sample: u32, value: f64) {
        if sample + 1 == self.next {
            self.repeats.push((sample, value));
            if let Some(n) = Values::narrow(value) {
                self.sum += u64::from(n);
            } else {
                // Not a whole number below 2^32: the plain sum is no longer the total.
                self.values.widen();
            }
            return;
        }
        if sample != self.next || self.runs.is_empty() {
            self.runs.push(Run {
                sample,
                start: self.values.len() as u32,
            });
        }
        if let Some(n) = self.values.push(value) {
            self.sum += u64::from(n);
        }
        self.next = sample + 1;
    }

    /// Number of data points, repeats included.
    pub fn len(&self) -> usize {
        self.values.len() + self.repeats.len()
    }

    /// True when the identifier has no data point.
    pub fn is_empty(&self) -> bool {
        self.values.len() == 0
    }

    /// hp2ps's total of the series: each value added in file order to an integer that
    /// is truncated every time (`total = (i64)((double)total + value)`). While every
    /// value is a whole number below 2^32 and the sum stays below 2^53 that is the plain
    /// sum, kept as points arrive; otherwise the points are walked in file order.
    pub fn total(&self) -> i64 {
        match self.values {
            Values::Narrow(_) if self.sum < EXACT_SUM => self.sum as i64,
            _ => {
                let mut t = 0i64;
                self.for_each(|_, v| t = (t as f64 + v) as i64);
                t
            }
        }
    }

    /// Calls `f(sample, value)` for every point in file order; faster than [`points`]
    /// when the order among a sample's repeats does not matter to the caller's sums
    /// being done per sample in file order (it does not: repeats follow their sample).
    ///
    /// [`points`]: Series::points
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(u32, f64)) {
        if !self.repeats.is_empty() {
            self.points().for_each(|(s, v)| f(s, v));
            return;
        }
        for (k, run) in self.runs.iter().enumerate() {
            let end = self
                .runs
                .get(k + 1)
                .map_or(self.values.len(), |r| r.start as usize);
            self.values
                .for_each_in(run.start as usize, end, |i, v| f(run.sample + i as u32, v));
        }
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

    /// Appends the points of `later`, whose sample numbers count from `offset`: the
    /// series of a file read in two parts, made whole.
    pub fn append(&mut self, later: Series, offset: u32) {
        let base = self.values.len() as u32;
        // Exactly once, to the final size: appending is done to every series at once
        // when a file read in two parts is joined, and slack would add up.
        self.runs.reserve_exact(later.runs.len());
        self.runs.extend(later.runs.iter().map(|r| Run {
            sample: r.sample + offset,
            start: r.start + base,
        }));
        self.values.extend(&later.values);
        self.repeats
            .extend(later.repeats.iter().map(|&(s, v)| (s + offset, v)));
        if later.next != 0 {
            self.next = later.next + offset;
        }
        self.sum += later.sum;
    }

    /// The series with samples `2i` and `2i + 1` merged into sample `i`: the larger of
    /// the two, each the sum of its occurrences.
    pub(super) fn merged_in_pairs(&self) -> Series {
        let mut merged = Series::default();
        let mut at: Option<(u32, f64, f64)> = None; // (old sample, its sum, the pair's max)
        let put = |merged: &mut Series, (sample, sum, max): (u32, f64, f64)| {
            merged.push(sample / 2, max.max(sum));
        };
        for (sample, v) in self.points() {
            at = Some(match at {
                Some((s, sum, max)) if s == sample => (s, sum + v, max),
                Some((s, sum, max)) if s / 2 == sample / 2 => (sample, v, max.max(sum)),
                Some(done) => {
                    put(&mut merged, done);
                    (sample, v, f64::NEG_INFINITY)
                }
                None => (sample, v, f64::NEG_INFINITY),
            });
        }
        if let Some(done) = at {
            put(&mut merged, done);
        }
        merged.shrink_to_fit();
        merged
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
        let value = s.values.get(self.index);
        self.index += 1;
        self.pending_repeats_for = Some(sample);
        Some((sample, value))
    }
}
