//! The heap as shares of itself (`--view share`, eventlog2html's "normalized" view): each
//! band's part of each census, the stack at every census 100% tall. The bands and their
//! order are the byte picture's — selected from the bytes, so the key and the table are
//! the same — and only their heights change: a picture of what the heap is made of over
//! the run, whatever its size.

use super::{Selection, Source};
use crate::profile::{Bands, Profile, Series};

/// What a share picture's value axis says.
pub const VALUE_UNIT: &[u8] = b"% of each census";

/// `profile` and `sel` with every value the band's percentage of its census: of the
/// stack the selection draws there (its bands and `OTHER`), so that the bands of every
/// census add to 100. A census that holds nothing stays 0. The runtime's own lines
/// (`--heap-lines`) are bytes, not shares: they are left out.
pub fn shares(mut profile: Profile, sel: &Selection) -> (Profile, Selection) {
    let n = profile.times.len();
    let mut totals = vec![0.0f64; n];
    for band in &sel.bands {
        for (s, v) in band.source.points(&profile) {
            if let Some(t) = totals.get_mut(s as usize) {
                *t += v;
            }
        }
    }
    let part = |s: u32, v: f64| match totals.get(s as usize) {
        Some(&t) if t > 0.0 => 100.0 * v / t,
        _ => 0.0,
    };
    let mut bands = Bands::default();
    for (name, series) in profile.bands.names().iter().zip(profile.bands.series()) {
        let mut shares = Series::default();
        for (s, v) in series.points() {
            shares.push(s, part(s, v));
        }
        bands.push(name.clone(), shares);
    }
    profile.bands = bands;
    profile.value_unit = VALUE_UNIT.to_vec();
    profile.units.value = crate::units::ValueUnit::Other;
    profile.heap = Default::default();
    let mut sel = sel.clone();
    for band in &mut sel.bands {
        if let Source::Other(values) = &mut band.source {
            for (s, v) in values.iter_mut().enumerate() {
                *v = part(s as u32, *v);
            }
        }
    }
    sel.y_range = 100.0;
    sel.area = 100.0 * sel.x_range;
    (profile, sel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_census_adds_to_a_hundred() {
        let text = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
                    BEGIN_SAMPLE 0\nEND_SAMPLE 0\n\
                    BEGIN_SAMPLE 1\na\t30\nb\t10\nEND_SAMPLE 1\n\
                    BEGIN_SAMPLE 2\na\t5\nb\t15\nEND_SAMPLE 2\n";
        let profile = crate::input::hp::parse(text.as_bytes()).unwrap().profile;
        let sel = crate::select::select(&profile, None, &Default::default());
        let (shares, sel) = shares(profile, &sel);
        let at = |name: &[u8], s: usize| {
            let k = shares
                .bands
                .names()
                .iter()
                .position(|n| &n[..] == name)
                .unwrap();
            (shares.bands.series()[k].points())
                .find(|p| p.0 as usize == s)
                .map_or(0.0, |p| p.1)
        };
        assert_eq!((at(b"a", 1), at(b"b", 1)), (75.0, 25.0));
        assert_eq!((at(b"a", 2), at(b"b", 2)), (25.0, 75.0));
        assert_eq!(sel.y_range, 100.0);
        assert_eq!(&shares.value_unit[..], VALUE_UNIT);
    }
}
