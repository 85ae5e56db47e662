//! The bands of a profile as columns of numbers, one value per sample: what the CSV,
//! JSON and summary outputs read.
//!
//! A column is either one identifier of the profile or the merged `OTHER` band of a
//! selection. Values are not copied into a dense matrix up front: a long eventlog can
//! have thousands of names over tens of thousands of samples, so a column is made dense
//! one at a time ([`Table::column`]) or walked row by row ([`Table::for_each_row`]).

use std::borrow::Cow;

use crate::profile::Profile;
use crate::select::{Selection, Source};

/// Columns over a profile's samples.
pub struct Table<'a> {
    /// The profile the columns read.
    pub profile: &'a Profile,
    /// Each column's name and data, in output order.
    pub columns: Vec<(Cow<'a, [u8]>, Source)>,
}

impl<'a> Table<'a> {
    /// Every band of the profile, in order of first appearance.
    pub fn all(profile: &'a Profile) -> Table<'a> {
        let columns = profile
            .bands
            .names()
            .iter()
            .enumerate()
            .map(|(k, n)| (Cow::Borrowed(&n[..]), Source::Ident(k as u32)))
            .collect();
        Table { profile, columns }
    }

    /// The bands of a selection (bottom band first, `OTHER` included).
    pub fn selected(profile: &'a Profile, selection: Selection) -> Table<'a> {
        let columns = selection
            .bands
            .into_iter()
            .map(|b| (Cow::Owned(b.name.into_vec()), b.source))
            .collect();
        Table { profile, columns }
    }

    /// Number of rows (samples).
    pub fn rows(&self) -> usize {
        self.profile.times.len()
    }

    /// Column `k` with a value for every sample: 0 where the band has no point, the sum
    /// where a name occurs twice in one sample.
    pub fn column(&self, k: usize) -> Vec<f64> {
        let mut values = vec![0.0; self.rows()];
        for (s, v) in self.columns[k].1.points(self.profile) {
            values[s as usize] += v;
        }
        values
    }

    /// Calls `f(row, values)` for every sample in order, `values` holding one number per
    /// column; memory stays one row.
    pub fn for_each_row(&self, mut f: impl FnMut(usize, &[f64])) {
        let mut cursors: Vec<_> = self
            .columns
            .iter()
            .map(|(_, src)| src.points(self.profile).peekable())
            .collect();
        let mut row = vec![0.0; self.columns.len()];
        for r in 0..self.rows() {
            for (cell, points) in row.iter_mut().zip(&mut cursors) {
                *cell = 0.0;
                while let Some((_, v)) = points.next_if(|&(s, _)| s as usize == r) {
                    *cell += v;
                }
            }
            f(r, &row);
        }
    }

    /// The sum, at every sample, of the columns whose names `keep` takes; `None` when
    /// it takes none (a pattern that matches no band, a life a profile has not).
    pub fn summed(&self, keep: impl Fn(&[u8]) -> bool) -> Option<Vec<f64>> {
        let mut values = vec![0.0; self.rows()];
        let mut any = false;
        for (k, (name, _)) in self.columns.iter().enumerate() {
            if keep(name) {
                any = true;
                for (s, v) in self.columns[k].1.points(self.profile) {
                    values[s as usize] += v;
                }
            }
        }
        any.then_some(values)
    }

    /// The sum of the table's columns at every sample (for every band of the profile,
    /// the same as [`Profile::totals`]).
    pub fn totals(&self) -> Vec<f64> {
        let mut totals = vec![0.0; self.rows()];
        for (_, src) in &self.columns {
            for (s, v) in src.points(self.profile) {
                totals[s as usize] += v;
            }
        }
        totals
    }
}
