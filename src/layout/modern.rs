//! The `modern` figure style's choices, apart from the geometry: ticks at round values
//! labelled with just enough decimals, byte units, and names shortened in the middle.

use super::text::{helvetica_size, helvetica_width};
use super::ticks::{ceil_1_2_25_5, ceil_125};
use crate::units::{Scale, unit_for};

/// Ticks from `first` to `last` (the x axis: sample times), at most about `target` of them (the least
/// 1, 2, 2.5 or 5 step giving no more), at its multiples, each labelled with the fewest decimals that tell the step
/// apart: `0.02 0.04 0.06`, never `0.0 0.0 0.1`.
pub fn time_ticks(first: f64, last: f64, target: f64) -> Vec<(f64, String)> {
    match ceil_1_2_25_5((last - first) / target) {
        Some(step) => ticks_every(first, last, step),
        None => Vec::new(),
    }
}

/// Ticks at the multiples of `step` from `first` to `last`, labelled with the decimals
/// the step needs.
fn ticks_every(first: f64, last: f64, step: f64) -> Vec<(f64, String)> {
    let decimals = decimals(step);
    let mut out = Vec::new();
    let mut k = (first / step).ceil();
    loop {
        let v = k * step;
        if v > last + step * 1e-9 || out.len() > 1000 {
            break;
        }
        out.push((v, format!("{v:.decimals$}")));
        k += 1.0;
    }
    out
}

/// A time axis's ticks from `first` to `last`, about `target` of them, labelled as the
/// modern pictures and the page label them: where `seconds` (the profile's times are
/// seconds), a run of many minutes as a clock (`1h 30m`, [`clock_ticks`]), steps under
/// a hundredth of a second and axes that end before [`MILLISECOND_AXIS`] as
/// milliseconds (`20 ms`, shorter than `0.02 s`), else seconds (`0.25 s`); other units
/// bare (the axis's legend names them). The page's
/// `figures.js` `timeAxis` follows it step for step (a test holds the two equal).
pub fn time_axis(first: f64, last: f64, target: f64, seconds: bool) -> Vec<(f64, String)> {
    if let Some(ticks) = seconds.then(|| clock_ticks(first, last, target)).flatten() {
        return ticks;
    }
    let ms = seconds
        && ceil_125((last - first) / target).is_some_and(|step| in_milliseconds(first, last, step));
    in_unit(first, last, seconds, ms, |a, b, _| time_ticks(a, b, target))
}

/// An axis in seconds whose every label is under this many reads in milliseconds
/// whatever its step: a 40 ms run is `0 ms 10 ms 20 ms` at every width and zoom, not
/// `0 ms 5 ms` in a narrow figure and `0.00 s 0.01 s` in a wide one.
pub const MILLISECOND_AXIS: f64 = 0.1;

/// Whether an axis in seconds from `first` to `last` at `step` is labelled in
/// milliseconds: a step under a hundredth of a second (`20 ms`, shorter than `0.02 s`), or
/// every label under [`MILLISECOND_AXIS`].
fn in_milliseconds(first: f64, last: f64, step: f64) -> bool {
    step < 0.009 || first.abs().max(last.abs()) < MILLISECOND_AXIS
}

/// `ticks` (from `first` to `last` times `k`, and `k`) made in the time axis's unit and
/// labelled with it: milliseconds (`ms`, `k` 1000), seconds, or bare where the profile's
/// times are not `seconds`.
fn in_unit(
    first: f64,
    last: f64,
    seconds: bool,
    ms: bool,
    ticks: impl FnOnce(f64, f64, f64) -> Vec<(f64, String)>,
) -> Vec<(f64, String)> {
    let (k, unit) = match (seconds, ms) {
        (false, _) => (1.0, ""),
        (true, true) => (1e3, " ms"),
        (true, false) => (1.0, " s"),
    };
    (ticks(first * k, last * k, k).into_iter())
        .map(|(v, l)| (v / k, l + unit))
        .collect()
}

/// A time axis of four or five ticks where the 1-2-2.5-5 steps give three or fewer that
/// fit (`0.0 s 0.5 s 1.0 s` on a 1.5 s run whose `0.25 s` labels would not fit): its
/// step 4 times a power of ten (`0.0 s 0.4 s 0.8 s 1.2 s`), labelled as [`time_axis`]
/// labels; `None` where that step gives fewer than four, or the run is read as a clock.
pub fn time_axis_in_fours(first: f64, last: f64, seconds: bool) -> Option<Vec<(f64, String)>> {
    let span = last - first;
    let step = 4.0 * 10f64.powf((span / 4.0).log10().floor());
    if !(step.is_finite() && step > 0.0) || (seconds && step >= 50.0) {
        return None;
    }
    let ms = seconds && in_milliseconds(first, last, step);
    let ticks = in_unit(first, last, seconds, ms, |a, b, k| {
        ticks_every(a, b, step * k)
    });
    (ticks.len() >= 4).then_some(ticks)
}

/// Steps a clock reads at, in seconds: minutes and hours.
const CLOCK_STEPS: [f64; 13] = [
    60.0, 120.0, 300.0, 600.0, 900.0, 1200.0, 1800.0, 3600.0, 7200.0, 10800.0, 21600.0, 43200.0,
    86400.0,
];

/// Ticks in seconds for a run long enough that its 1-2-5 step would be a minute or more
/// (`first` to `last`, about `target` of them): at a clock's steps (1, 2, 5, 10, 15, 20,
/// 30 minutes, 1, 2, 3, 6, 12, 24 hours), labelled as a clock reads (`45m`, `1h`,
/// `1h 30m`; `0` at the start), which reads better than `5,400 s`. `None` for a shorter
/// run: its labels stay seconds.
pub fn clock_ticks(first: f64, last: f64, target: f64) -> Option<Vec<(f64, String)>> {
    let want = (last - first) / target;
    if want.is_nan() || want < 50.0 {
        return None;
    }
    let step = CLOCK_STEPS
        .iter()
        .copied()
        .find(|&s| s >= want)
        .unwrap_or_else(|| (want / 86400.0).ceil() * 86400.0);
    let mut out = Vec::new();
    let mut k = (first / step).ceil();
    while k * step <= last + step * 1e-9 && out.len() <= 1000 {
        out.push((k * step, clock(k * step)));
        k += 1.0;
    }
    Some(out)
}

/// `t` seconds as a clock reads a whole number of minutes: `0`, `45m`, `2h`, `1h 30m`.
fn clock(t: f64) -> String {
    let minutes = (t / 60.0).round() as u64;
    match (minutes / 60, minutes % 60) {
        (0, 0) => "0".into(),
        (0, m) => format!("{m}m"),
        (h, 0) => format!("{h}h"),
        (h, m) => format!("{h}h {m}m"),
    }
}

/// The decimals a step needs: 0 from 1 up, 1 for 0.1 to 0.5, 2 for 0.01 to 0.05 and
/// for 0.25…: as many as make the step a whole number.
fn decimals(step: f64) -> usize {
    let mut d = 0;
    let mut s = step;
    while (s < 0.999_999 || (s - s.round()).abs() > 1e-6 * s) && d < 12 {
        s *= 10.0;
        d += 1;
    }
    d
}

/// Ticks from 0 to `top` (the y axis), at most about `target` of them: the unit is the largest
/// that `top` reaches on `scale` (B, kB, MB, GB, or KiB, MiB, GiB; k, M, G when the
/// values are not bytes), the step a 1-2-5 multiple of it, the labels with just enough
/// decimals: `0 MB 2.5 MB 5 MB` is never written `0M 2M 5M`.
pub fn value_ticks(top: f64, target: f64, scale: Scale) -> Vec<(f64, String)> {
    let (unit, name) = unit_for(top, scale);
    let Some(step) = ceil_125(top / unit / target) else {
        return Vec::new();
    };
    // Bytes come whole: no step under one (an empty graph's axis is 0 B and 1 B).
    let step = if scale != Scale::Plain && unit == 1.0 {
        step.max(1.0)
    } else {
        step
    };
    let decimals = decimals(step);
    let space = if name.is_empty() { "" } else { " " };
    (0..)
        .map(|k| k as f64 * step)
        .take_while(|&v| v * unit <= top * (1.0 + 1e-9))
        .take(1000)
        .map(|v| (v * unit, format!("{v:.decimals$}{space}{name}")))
        .collect()
}

/// A rate panel's ticks (the allocation rate's, under the heap graph) on an axis
/// `height` points tall, labels at least `spacing` apart: round steps (1, 2, 2.5 or 5 times a power of ten) from 0 to
/// the panel's top, a step's multiple at or over `peak`. Of the steps whose labels keep
/// apart (one step always may), the one whose top is nearest the peak, so that the line
/// fills the panel; the most labels, up to six, where tops are equal. Each label says
/// per second (`2.5 GB/s`). The top and the ticks; `None` without a positive peak.
pub fn rate_ticks(
    peak: f64,
    height: f64,
    spacing: f64,
    scale: Scale,
) -> Option<(f64, Vec<(f64, String)>)> {
    let (unit, name) = unit_for(peak, scale);
    let p = peak / unit;
    if !(p > 0.0 && p.is_finite()) {
        return None;
    }
    let decade = 10f64.powf(p.log10().floor());
    let mut best: Option<(f64, f64, f64)> = None; // (step, steps, top)
    for m in [0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 2.5, 5.0, 10.0] {
        let step = m * decade;
        let n = (p / step * (1.0 - 1e-9)).ceil().max(1.0);
        let top = n * step;
        let apart = n == 1.0 || height / n >= spacing;
        let better = best.is_none_or(|(_, bn, bt)| {
            top < bt * (1.0 - 1e-9) || (top <= bt * (1.0 + 1e-9) && n > bn)
        });
        if n <= 5.0 && apart && better {
            best = Some((step, n, top));
        }
    }
    let (step, n, top) = best?;
    let decimals = decimals(step);
    let space = if name.is_empty() { "" } else { " " };
    let ticks = (0..=n as usize)
        .map(|k| k as f64 * step)
        .map(|v| (v * unit, format!("{v:.decimals$}{space}{name}/s")))
        .collect();
    Some((top * unit, ticks))
}

/// `name` as it fits in `width` points at the key's size: whole if it fits, else its
/// first and last parts around `...`. A cost-centre stack (`a/b/c/d`) keeps whole labels
/// at both ends, taken in turn from the end and from the start after the first, so that
/// stacks that differ near either end stay apart (`mk/f30/.../main/Main.CAF`).
pub fn shortened(name: &[u8], width: f64) -> Vec<u8> {
    shortened_from(name, width, false)
}

/// Every name of a key shortened to `width`, still told apart where they can be: names
/// that would come out the same keep labels from their start alone instead
/// (`mk/f30/...` rather than `mk/.../Main.CAF`).
pub fn shortened_apart(names: &[&[u8]], width: f64) -> Vec<Vec<u8>> {
    let first: Vec<Vec<u8>> = names.iter().map(|n| shortened(n, width)).collect();
    let mut count: std::collections::HashMap<&[u8], usize> = Default::default();
    for s in &first {
        *count.entry(&s[..]).or_default() += 1;
    }
    let mut shown: Vec<Vec<u8>> = (names.iter().zip(&first))
        .map(|(name, short)| {
            if count[&short[..]] > 1 {
                shortened_from(name, width, true)
            } else {
                short.clone()
            }
        })
        .collect();
    // Any still alike show what differs (`super::distinct`).
    super::distinct::told_apart(names, &mut shown, width);
    shown
}

/// Widths of a name's pieces summed once, so that each candidate shortening is measured
/// in constant time: trying every length would otherwise measure the name once per
/// length, and a name of a megabyte would take minutes. A candidate whose sum comes
/// within rounding of the width is measured exactly, so the choice is the same as
/// measuring every candidate with [`helvetica_size`].
struct Measure<'a> {
    width: f64,
    /// How close to `width` (unscaled) a sum must come to be measured exactly.
    slack: f64,
    exact: &'a dyn Fn(&[u8]) -> f64,
}

impl Measure<'_> {
    /// Whether the candidate whose widths sum to `sum` (before the scale factor), built
    /// by `build` when it must be measured exactly, fits.
    fn fits(&self, sum: f64, build: impl FnOnce() -> Vec<u8>) -> bool {
        let limit = self.width;
        if sum < limit - self.slack {
            true
        } else if sum > limit + self.slack {
            false
        } else {
            (self.exact)(&build()) <= self.width
        }
    }
}

/// Running sums of `widths`: `sums[k]` is the width of the first `k`.
fn running(widths: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut sums = vec![0.0];
    let mut total = 0.0;
    for w in widths {
        total += w;
        sums.push(total);
    }
    sums
}

fn shortened_from(name: &[u8], width: f64, head_first: bool) -> Vec<u8> {
    // `helvetica_size` stops at a NUL: so does everything here.
    let name = &name[..crate::layout::text::c_len(name)];
    if helvetica_size(name) <= width {
        return name.to_vec();
    }
    const GAP: &[u8] = b"...";
    let bytes = running(name.iter().map(|&b| helvetica_width(b)));
    let total = bytes[name.len()];
    let measure = Measure {
        width,
        slack: 1e-9 * total.max(1.0),
        exact: &helvetica_size,
    };
    let slash = helvetica_width(b'/');
    let gap = GAP.iter().map(|&b| helvetica_width(b)).sum::<f64>();
    let mut parts: Vec<&[u8]> = name.split(|&b| b == b'/').collect();
    // A stack names its innermost frame first; a path (`/usr/bin/prog`, or after a
    // word and a space: a compared run's `before: /work/run.hp`) does not.
    let framed = !parts[0].is_empty() && !parts[0].ends_with(b" ");
    // GHC cuts a stack's name at `-L` characters with `...` (`writeHtml5String/runI...`):
    // its last frame is not whole, and what came after it is unknown, so the shortening
    // keeps frames from the start alone and never shows the piece.
    let cut = framed && parts.len() > 1 && name.ends_with(GAP);
    if cut {
        parts.pop();
    }
    if parts.len() > 2 || (framed && parts.len() > 1) || cut {
        let join = |head: usize, tail: usize| {
            let mut v: Vec<u8> = parts[..head].join(&b'/');
            v.push(b'/');
            v.extend_from_slice(GAP);
            for p in &parts[parts.len() - tail..] {
                v.push(b'/');
                v.extend_from_slice(p);
            }
            v
        };
        let sizes = running(
            parts
                .iter()
                .map(|p| p.iter().map(|&b| helvetica_width(b)).sum()),
        );
        let n = parts.len();
        // `head` parts and their slashes, `.../`, and a slash before each of `tail` parts.
        let sum = |head: usize, tail: usize| {
            sizes[head]
                + head as f64 * slash
                + gap
                + (sizes[n] - sizes[n - tail])
                + tail as f64 * slash
        };
        // The innermost frame (a stack's first) whole, where it fits at all: it says
        // where the memory is.
        let (mut head, mut tail) = (1, 0);
        let mut best = (framed && measure.fits(sum(1, 0), || join(1, 0))).then_some((1, 0));
        loop {
            // In turn from the end and the start; or, head first (or after GHC's cut),
            // labels from the start alone.
            let (h, t) = if head_first || cut {
                (head + 1, 0)
            } else if tail < head {
                (head, tail + 1)
            } else {
                (head + 1, tail)
            };
            // After GHC's cut every frame left is known whole: all of them may be kept.
            if h + t >= n + usize::from(cut) || !measure.fits(sum(h, t), || join(h, t)) {
                break;
            }
            (head, tail) = (h, t);
            best = Some((h, t));
        }
        if let Some((h, t)) = best {
            return join(h, t);
        }
    }
    if framed && parts.len() > 1 || cut {
        // The innermost frame and `...`, else as much of it as fits from its start, fewer
        // characters than the frame: a stack's start says where the memory is (its end
        // is the program's `main`), a label as long as the frame is the frame whole, and
        // a shortened label always shows its `...`.
        let frame = parts[0];
        let whole = [frame, GAP].concat();
        if measure.fits(bytes[frame.len()] + gap, || whole.clone()) {
            return whole;
        }
        let starts_char = |i: usize| name[i] & 0xc0 != 0x80;
        return (1..frame.len().saturating_sub(GAP.len()))
            .rev()
            .find(|&keep| {
                starts_char(keep)
                    && measure.fits(bytes[keep] + gap, || [&name[..keep], GAP].concat())
            })
            .map_or_else(|| GAP.to_vec(), |keep| [&name[..keep], GAP].concat());
    }
    // Characters from both ends, the end a little favoured (it says where).
    let n = name.len();
    let cut = |keep: usize| {
        let head = keep / 2;
        let mut v = name[..head].to_vec();
        v.extend_from_slice(GAP);
        v.extend_from_slice(&name[n - (keep - head)..]);
        v
    };
    // A cut inside a UTF-8 character would leave half of it, which no font draws.
    let starts_char = |i: usize| i == 0 || i == n || name[i] & 0xc0 != 0x80;
    for keep in (2..n).rev() {
        let head = keep / 2;
        if !starts_char(head) || !starts_char(n - (keep - head)) {
            continue;
        }
        let sum = bytes[head] + gap + (total - bytes[n - (keep - head)]);
        if measure.fits(sum, || cut(keep)) {
            return at_boundaries(name, head, keep - head).unwrap_or_else(|| cut(keep));
        }
    }
    GAP.to_vec()
}

/// `name`'s first `head` and last `tail` bytes around `...`, each end taken back to a
/// `.` or `/` between its words (`Parser.Syntax...Syntax.foldr`, not
/// `Parser.Syntax....r.Syntax.foldr`), so that both ends stay readable; `None` when an
/// end would keep less than half of what fits, and the cut stays where it was. Only
/// ever shorter than the cut it replaces: it still fits.
fn at_boundaries(name: &[u8], head: usize, tail: usize) -> Option<Vec<u8>> {
    let boundary = |b: u8| b == b'.' || b == b'/';
    let n = name.len();
    let h = name[..head].iter().rposition(|&b| boundary(b))?;
    let t = n - tail + name[n - tail..].iter().position(|&b| boundary(b))? + 1;
    if 2 * h < head || 2 * (n - t) < tail || h == 0 || t >= n {
        return None;
    }
    let mut v = name[..h].to_vec();
    v.extend_from_slice(b"...");
    v.extend_from_slice(&name[t..]);
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::ByteUnits;

    const DECIMAL: Scale = Scale::Bytes(ByteUnits::Decimal);

    /// GHC's heap profile names a stack innermost first and cuts it at `-L` characters
    /// (25 by default) with `...` (rts/ProfHeap.c `fprint_ccs`): the shortening keeps the
    /// innermost frame whole and never shows the frame GHC cut short.
    #[test]
    fn a_stack_cut_by_ghc_keeps_its_innermost_frame_whole() {
        let cut = b"writeHtml5String/runI...";
        let at = |s: &[u8]| helvetica_size(s) + 0.01;
        assert_eq!(
            shortened(cut, at(cut)),
            cut.to_vec(),
            "it fits: GHC's own text"
        );
        let narrower = at(cut) - 0.1;
        assert_eq!(shortened(cut, narrower), b"writeHtml5String/...".to_vec());
        let frame_and_gap = at(b"writeHtml5String...");
        assert_eq!(
            shortened(cut, frame_and_gap),
            b"writeHtml5String...".to_vec()
        );
        // Narrower: as much of the frame as fits, fewer characters than it has, and `...`.
        let short = shortened(cut, frame_and_gap - 0.1);
        assert!(
            short.starts_with(b"writeHtml") && short.ends_with(b"..."),
            "{short:?}"
        );
        assert!(short.len() < b"writeHtml5String".len());
        // A whole stack keeps its innermost frame and then its callers from both ends.
        let whole = b"guardDisabled/readMarkdown/runIO/main";
        assert_eq!(
            shortened(whole, at(b"guardDisabled/.../main")),
            b"guardDisabled/.../main".to_vec()
        );
        assert_eq!(
            shortened(whole, at(b"guardDisabled/...")),
            b"guardDisabled/...".to_vec()
        );
        // A path has no innermost frame: it is cut at both ends as any name is.
        let path = b"/home/someone/bin/a-program-with-a-long-name";
        let short = shortened(path, at(b"/home/some...long-name"));
        assert!(
            short.starts_with(b"/home") && short.ends_with(b"name"),
            "{short:?}"
        );
    }

    #[test]
    fn four_time_labels_where_the_ladder_gives_three() {
        let labels = |t: Option<Vec<(f64, String)>>| {
            t.map(|t| t.into_iter().map(|(_, l)| l).collect::<Vec<_>>())
        };
        assert_eq!(
            labels(time_axis_in_fours(0.0, 1.476, true)),
            Some(vec![
                "0.0 s".into(),
                "0.4 s".into(),
                "0.8 s".into(),
                "1.2 s".into()
            ])
        );
        assert_eq!(
            labels(time_axis_in_fours(0.0, 0.000121, true)).unwrap()[3],
            "0.12 ms"
        );
        assert_eq!(
            labels(time_axis_in_fours(0.0, 130.0, false)).unwrap()[1],
            "40"
        );
        assert_eq!(time_axis_in_fours(0.0, 1.0, true), None, "three at 0.4 s");
        assert_eq!(time_axis_in_fours(0.0, 7200.0, true), None, "a clock's run");
        assert_eq!(time_axis_in_fours(0.0, 0.0, true), None);
    }

    #[test]
    fn a_rate_axis_reaches_just_over_its_peak_with_labels_apart() {
        let labels = |t: Vec<(f64, String)>| t.into_iter().map(|t| t.1).collect::<Vec<_>>();
        // A short panel: one step, the least round value over the peak.
        let (top, ticks) = rate_ticks(2.37e9, 27.0, 15.0, DECIMAL).unwrap();
        assert_eq!(
            (top, labels(ticks)),
            (2.5e9, vec!["0.0 GB/s".into(), "2.5 GB/s".into()])
        );
        // A tall one: the same top in more steps.
        let (top, ticks) = rate_ticks(2.37e9, 110.0, 15.0, DECIMAL).unwrap();
        assert_eq!(top, 2.5e9);
        assert_eq!(labels(ticks)[..2], ["0.0 GB/s", "0.5 GB/s"]);
        // Every label is at least the spacing from the next, unless there is one step.
        for (peak, height) in [(1.05e6, 40.0), (9.9e8, 30.0), (123.0, 200.0), (7.0e3, 16.0)] {
            let (top, ticks) = rate_ticks(peak, height, 15.0, DECIMAL).unwrap();
            let steps = (ticks.len() - 1) as f64;
            assert!(top >= peak && ticks.last().unwrap().0 == top, "{peak}");
            assert!(steps == 1.0 || height / steps >= 15.0, "{peak} {height}");
        }
        assert!(rate_ticks(0.0, 50.0, 15.0, DECIMAL).is_none());
    }
    const BINARY: Scale = Scale::Bytes(ByteUnits::Binary);

    fn labels(t: &[(f64, String)]) -> Vec<&str> {
        t.iter().map(|(_, l)| l.as_str()).collect()
    }

    #[test]
    fn bytes_are_labelled_whole() {
        // An empty graph's axis of one byte: 0 B and 1 B, never 0.2 B.
        assert_eq!(labels(&value_ticks(1.0, 7.0, DECIMAL)), ["0 B", "1 B"]);
        assert_eq!(
            labels(&value_ticks(3.0, 7.0, BINARY)),
            ["0 B", "1 B", "2 B", "3 B"]
        );
        // A count without a unit may step in fractions.
        assert_eq!(
            labels(&value_ticks(1.0, 2.0, Scale::Plain)),
            ["0.0", "0.5", "1.0"]
        );
    }

    #[test]
    fn a_short_run_has_distinct_time_labels() {
        let t = time_ticks(0.0, 0.1, 7.0);
        assert_eq!(labels(&t), ["0.00", "0.02", "0.04", "0.06", "0.08", "0.10"]);
        let t = time_ticks(0.013, 0.11, 7.0);
        assert_eq!(labels(&t)[0], "0.02");
        let t = time_ticks(0.0, 340.0, 7.0);
        assert_eq!(labels(&t), ["0", "50", "100", "150", "200", "250", "300"]);
        for (first, last) in [(0.0, 0.1), (0.0, 0.003), (1.0, 1.0001), (0.0, 12345.0)] {
            let t = time_ticks(first, last, 7.0);
            let mut l = labels(&t);
            l.dedup();
            assert_eq!(l.len(), t.len(), "{first}..{last}: {t:?}");
        }
    }

    #[test]
    fn a_long_run_reads_as_a_clock() {
        assert_eq!(clock_ticks(0.0, 340.0, 7.0), None);
        let t = clock_ticks(0.0, 5400.0, 7.0).unwrap();
        assert_eq!(
            labels(&t),
            ["0", "15m", "30m", "45m", "1h", "1h 15m", "1h 30m"]
        );
        let t = clock_ticks(0.0, 40_000.0, 7.0).unwrap();
        assert_eq!(labels(&t), ["0", "2h", "4h", "6h", "8h", "10h"]);
        let t = clock_ticks(100.0, 1000.0, 7.0).unwrap();
        assert_eq!(labels(&t)[0], "5m");
    }

    #[test]
    fn byte_ticks_have_units_and_just_enough_decimals() {
        let t = value_ticks(71_082_648.0, 7.0, DECIMAL);
        // 71 MB / 7 rounds up to a step of 20 MB: at most the target's number of ticks.
        assert_eq!(labels(&t), ["0 MB", "20 MB", "40 MB", "60 MB"]);
        let t = value_ticks(3_500_000.0, 7.0, DECIMAL);
        assert_eq!(labels(&t)[1], "0.5 MB");
        let t = value_ticks(512.0 * 1_048_576.0, 7.0, BINARY);
        assert_eq!(labels(&t)[1], "100 MiB");
        let t = value_ticks(800.0, 7.0, DECIMAL);
        assert_eq!(labels(&t)[1], "200 B");
        let t = value_ticks(2_000_000.0, 7.0, Scale::Plain);
        assert_eq!(labels(&t)[1], "0.5 M");
    }

    #[test]
    fn long_names_are_shortened_in_the_middle() {
        let name = b"producer077/loop/go/step/main.final/main";
        let short = shortened(name, helvetica_size(b"producer077/loop/.../main") + 0.1);
        assert_eq!(short, b"producer077/loop/.../main");
        let a = shortened(b"mk/f30/main.fs/main.lists/main/Main.CAF", 120.0);
        let b = shortened(b"mk/f29/main.fs/main.lists/main/Main.CAF", 120.0);
        assert_ne!(a, b, "{}", String::from_utf8_lossy(&a));
        let names: [&[u8]; 3] = [
            b"mk/f30/main.fs/main.lists/main/Main.CAF",
            b"mk/f29/main.fs/main.lists/main/Main.CAF",
            b"main/Main.CAF",
        ];
        let narrow = helvetica_size(b"mk/f30/main.fs/...") + 1.0;
        let short = shortened_apart(&names, narrow);
        assert_eq!(short[0], b"mk/f30/main.fs/...");
        assert_ne!(short[0], short[1]);
        assert_eq!(short[2], b"main/Main.CAF");
        assert_eq!(shortened(b"short", 100.0), b"short");
        let s = shortened(b"averyveryverylongnamewithoutslashes", 60.0);
        assert!(helvetica_size(&s) <= 60.0 && s.windows(3).any(|w| w == b"..."));
    }

    /// The shortening as first written: every candidate measured whole. Quadratic, and
    /// the reference the linear one must agree with.
    fn measured_every_time(name: &[u8], width: f64) -> Vec<u8> {
        if helvetica_size(name) <= width {
            return name.to_vec();
        }
        let mut parts: Vec<&[u8]> = name.split(|&b| b == b'/').collect();
        let framed = !parts[0].is_empty() && !parts[0].ends_with(b" ");
        let cut = framed && parts.len() > 1 && name.ends_with(b"...");
        if cut {
            parts.pop();
        }
        let join = |head: usize, tail: usize| {
            let mut v: Vec<u8> = parts[..head].join(&b'/');
            v.extend_from_slice(b"/...");
            for p in &parts[parts.len() - tail..] {
                v.push(b'/');
                v.extend_from_slice(p);
            }
            v
        };
        let fits = |v: &[u8]| helvetica_size(v) <= width;
        if parts.len() > 2 || (framed && parts.len() > 1) || cut {
            let (mut head, mut tail) = (1, 0);
            let mut best = (framed && fits(&join(1, 0))).then(|| join(1, 0));
            loop {
                let (h, t) = if cut {
                    (head + 1, 0)
                } else if tail < head {
                    (head, tail + 1)
                } else {
                    (head + 1, tail)
                };
                if h + t >= parts.len() + usize::from(cut) || !fits(&join(h, t)) {
                    break;
                }
                (head, tail, best) = (h, t, Some(join(h, t)));
            }
            if let Some(v) = best {
                return v;
            }
        }
        if framed && parts.len() > 1 || cut {
            let frame = parts[0];
            if fits(&[frame, b"..."].concat()) {
                return [frame, b"..."].concat();
            }
            for keep in (1..frame.len().saturating_sub(3)).rev() {
                let v = [&name[..keep], b"..."].concat();
                if name[keep] & 0xc0 != 0x80 && fits(&v) {
                    return v;
                }
            }
            return b"...".to_vec();
        }
        let n = name.len();
        let starts_char = |i: usize| i == 0 || i == n || name[i] & 0xc0 != 0x80;
        for keep in (2..n).rev() {
            if !starts_char(keep / 2) || !starts_char(n - (keep - keep / 2)) {
                continue;
            }
            let mut v = name[..keep / 2].to_vec();
            v.extend_from_slice(b"...");
            v.extend_from_slice(&name[n - (keep - keep / 2)..]);
            if helvetica_size(&v) <= width {
                // The chosen cut, then taken back to word boundaries (a rule of its
                // own, tested below).
                return at_boundaries(name, keep / 2, keep - keep / 2).unwrap_or(v);
            }
        }
        b"...".to_vec()
    }

    #[test]
    fn a_cut_never_splits_a_utf8_character() {
        let name = "main:Main.Mätzchenäöü".as_bytes();
        for width in 10..80 {
            let short = shortened(name, f64::from(width));
            assert!(std::str::from_utf8(&short).is_ok(), "{width}: {short:?}");
        }
    }

    #[test]
    fn a_cut_name_keeps_whole_words_at_both_ends() {
        let name = b"Parser.Syntax.Internal.traverse.foldr";
        let short = shortened(name, helvetica_size(b"Parser.Syntax.Inte...verse.foldr"));
        assert_eq!(short, b"Parser.Syntax...traverse.foldr");
        assert!(helvetica_size(&short) <= helvetica_size(b"Parser.Syntax.Inte...verse.foldr"));
        // An end that would lose more than half keeps its characters.
        assert_eq!(at_boundaries(b"abcdefghij.k", 6, 5), None);
    }

    #[test]
    fn shortening_measures_sums_yet_chooses_as_measuring_every_candidate() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let alphabet =
            b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./(),: \xc3\xa4";
        for _ in 0..3000 {
            let len = 1 + next() % 120;
            let name: Vec<u8> = (0..len)
                .map(|_| alphabet[next() % alphabet.len()])
                .collect();
            let width = (next() % 400) as f64 + 0.5;
            assert_eq!(
                shortened(&name, width),
                measured_every_time(&name, width),
                "{} at {width}",
                String::from_utf8_lossy(&name)
            );
        }
    }

    #[test]
    fn a_megabyte_name_is_shortened_in_linear_time() {
        // Measured every time, this took minutes; a sum a byte, it takes milliseconds.
        let long = vec![b'a'; 1 << 20];
        let stack: Vec<u8> = (0..150_000)
            .map(|i| format!("f{i}"))
            .collect::<Vec<_>>()
            .join("/")
            .into_bytes();
        let started = std::time::Instant::now();
        for name in [&long, &stack] {
            let short = shortened(name, 200.0);
            assert!(
                helvetica_size(&short) <= 200.0 && short.len() > 20,
                "{}",
                short.len()
            );
        }
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    }
}
