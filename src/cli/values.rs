//! Reading option values: sizes, lengths, times and the names of closed sets. Each
//! parser says what it wants when the value is wrong; clap prints it.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use hpgraph::engine::OutputKind;
use hpgraph::export::SummaryStyle;
use hpgraph::layout::Style;
use hpgraph::layout::paint::Palette;
use hpgraph::select::Axes;
use hpgraph::units::{length, length_unit};

/// A value of one of the library's closed sets, by the name the command line gives it.
/// (clap's `ValueEnum` cannot be implemented here for the library's types, and the
/// library knows nothing of clap: the names live with the flags.) `--help` lists the
/// names, and clap refuses any other with the list.
fn one_of<T>(values: Vec<(PossibleValue, T)>) -> impl TypedValueParser<Value = T>
where
    T: Copy + Send + Sync + 'static,
{
    let names: Vec<PossibleValue> = values.iter().map(|(name, _)| name.clone()).collect();
    PossibleValuesParser::new(names).map(move |given| {
        values
            .iter()
            .find(|(name, _)| name.get_name() == given)
            .map(|&(_, value)| value)
            .expect("PossibleValuesParser passes only the names it was given")
    })
}

/// `--style`'s names.
pub fn style() -> impl TypedValueParser<Value = Style> {
    one_of(vec![
        (PossibleValue::new("hp2ps"), Style::Hp2ps),
        (PossibleValue::new("modern"), Style::Modern),
    ])
}

/// `--palette`'s names: [`Palette::NAMES`].
pub fn palette() -> impl TypedValueParser<Value = Palette> {
    one_of(
        Palette::NAMES
            .iter()
            .map(|&(name, p)| (PossibleValue::new(name), p))
            .collect(),
    )
}

/// `--same-scale`'s axes.
pub fn axes() -> impl TypedValueParser<Value = Axes> {
    one_of(vec![
        (PossibleValue::new("x").help("The time axis only"), Axes::X),
        (PossibleValue::new("y").help("The value axis only"), Axes::Y),
        (PossibleValue::new("both").help("Both axes"), Axes::Both),
    ])
}

/// `--summary`'s and `--stats`' formats.
pub fn summary_style() -> impl TypedValueParser<Value = SummaryStyle> {
    one_of(vec![
        (PossibleValue::new("text"), SummaryStyle::Text),
        (PossibleValue::new("json"), SummaryStyle::Json),
        (PossibleValue::new("csv"), SummaryStyle::Csv),
    ])
}

/// `--format`'s names are the formats' extensions, in the order of
/// [`Format::ALL`](hpgraph::backend::Format::ALL) then
/// [`Export::FILES`](hpgraph::export::Export::FILES).
pub fn output_kind() -> impl TypedValueParser<Value = OutputKind> {
    one_of(
        OutputKind::all()
            .map(|k| (PossibleValue::new(k.name()), k))
            .collect(),
    )
}

/// `--members`'s count of panels: 1 to [`hpgraph::engine::members::MAX_MEMBER_PANELS`].
pub fn member_panels(text: &str) -> Result<usize, String> {
    let most = hpgraph::engine::members::MAX_MEMBER_PANELS;
    match text.parse::<usize>() {
        Ok(n) if (1..=most).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a number of members from 1 to {most}"
        )),
    }
}

/// `--flame`'s census: `peak`, `end`, `mean` or a time in sample units.
pub fn flame_when(text: &str) -> Result<hpgraph::select::flame::WhichCensus, String> {
    use hpgraph::select::flame::WhichCensus;
    match text {
        "peak" => Ok(WhichCensus::Peak),
        "end" => Ok(WhichCensus::End),
        "mean" => Ok(WhichCensus::Mean),
        _ => match text.trim_end_matches('s').parse::<f64>() {
            Ok(t) if t.is_finite() => Ok(WhichCensus::At(t)),
            _ => Err(format!(
                "`{text}` is not a census: peak, end, mean or a time in seconds (2.5)"
            )),
        },
    }
}

/// A size in bytes ([`hpgraph::units::size`]): a number with an optional unit, decimal
/// (`kB`, `MB`, `GB`, `TB`) or binary (`KiB`, `MiB`, `GiB`, `TiB`).
pub fn bytes(text: &str) -> Result<f64, String> {
    hpgraph::units::size(text).ok_or_else(|| {
        format!(
            "`{text}` is not a size: a number above 0, optionally with B, kB, MB, GB, TB, \
             KiB, MiB, GiB or TiB"
        )
    })
}

/// `--size WxH`: at least 2 inches by 1, at most 200 inches a side. A width without a
/// unit takes the height's (`8.5x6cm` is 8.5 cm by 6 cm), as a size is written.
pub fn figure_size(text: &str) -> Result<(f64, f64), String> {
    let bad =
        || format!("`{text}` is not a size: WIDTHxHEIGHT with in, cm, mm or pt, like 8cmx5cm");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h) = (
        length(w, length_unit(h)).ok_or_else(bad)?,
        length(h, None).ok_or_else(bad)?,
    );
    if w < 144.0 || h < 72.0 || w > 14_400.0 || h > 14_400.0 {
        return Err(format!(
            "`{text}` is {w:.0} x {h:.0} pt: a figure is at least 2 x 1 in (144 x 72 pt) and at most 200 in a side"
        ));
    }
    Ok((w, h))
}

pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err("a number of seconds above 0, like 2.5".into()),
    }
}

/// `--font-size`: 4 to 72 points.
pub(crate) fn font_size(text: &str) -> Result<f64, String> {
    match text.trim().trim_end_matches("pt").parse::<f64>() {
        Ok(pt) if (4.0..=72.0).contains(&pt) => Ok(pt),
        Ok(_) => Err("a font size is between 4 and 72 points".into()),
        Err(_) => Err(format!("`{text}` is not a size in points: 8, 9.5, 12pt")),
    }
}

/// A band-name pattern (the `regex` crate's syntax), matched anywhere in the name.
pub(crate) fn regex(text: &str) -> Result<regex::bytes::Regex, String> {
    hpgraph::profile::names::pattern(text).map_err(|e| e.to_string())
}

/// The latest time `--from` and `--to` take: a hundred years of seconds, beyond any
/// run, and short enough to print.
pub const MAX_INSTANT: f64 = 1e10;

/// A time of the run, 0 or later.
pub(crate) fn instant(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=MAX_INSTANT).contains(&s) => Ok(s),
        _ => Err(format!(
            "a time in seconds from 0 to {MAX_INSTANT:e}, like 2.5"
        )),
    }
}

/// A window's bound: a time, or a marker of the run (`mark:TEXT`, `mark:TEXT#N`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bound {
    /// Seconds.
    Time(f64),
    /// A marker, found in each run once it is read.
    Mark(hpgraph::select::marker::MarkRef),
}

impl Bound {
    /// The time, where the bound is one.
    pub(crate) fn time(&self) -> Option<f64> {
        match self {
            Bound::Time(t) => Some(*t),
            Bound::Mark(_) => None,
        }
    }

    /// The marker, where the bound is one.
    pub(crate) fn mark(&self) -> Option<hpgraph::select::marker::MarkRef> {
        match self {
            Bound::Time(_) => None,
            Bound::Mark(m) => Some(m.clone()),
        }
    }
}

pub(crate) fn bound(text: &str) -> Result<Bound, String> {
    match hpgraph::select::marker::MarkRef::parse(text) {
        Some(mark) => mark.map(Bound::Mark),
        None => instant(text).map(Bound::Time).map_err(|e| {
            format!("{e}, or a marker of the run: mark:TEXT (mark:TEXT#N for its Nth)")
        }),
    }
}

pub(crate) fn dpi(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(d) if d.is_finite() && (1.0..=2400.0).contains(&d) => Ok(d),
        _ => Err("the resolution is a number of dots per inch from 1 to 2400, like 300".into()),
    }
}

pub(crate) fn interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err("the interval is a number of seconds above 0, like 0.5".into()),
    }
}

/// hp2ps's `-e` width: a number read like `atof`, in inches or millimetres when the text
/// ends in `in` or `mm`, else in points; more than 2 inches.
pub(crate) fn eps_width(text: &str) -> Result<f64, String> {
    let mut w = super::argv::atof(text);
    if text.ends_with("in") {
        w *= 72.0;
    } else if text.ends_with("mm") {
        w *= 2.834646;
    }
    if !w.is_finite() {
        return Err("the width must be a finite number".into());
    }
    if w <= 144.0 {
        // hp2ps reads any other ending as points: `8.5cm` is 8.5pt. Say so rather than
        // that 8.5 cm is under 2 inches.
        if text.trim().ends_with("cm") {
            return Err(format!(
                "-e reads in, mm or points, as hp2ps does: {text} reads as {w}pt; \
                 give the width in mm ({}mm)",
                w * 10.0
            ));
        }
        return Err("the width must be more than 2in (144pt)".into());
    }
    Ok(w)
}

pub(crate) fn threshold(text: &str) -> Result<f64, String> {
    let t: f64 = text.parse().map_err(|_| format!("not a number: {text}"))?;
    if !(0.0..=5.0).contains(&t) {
        return Err("the threshold must be between 0 and 5 percent".into());
    }
    Ok(t)
}

/// `--min-share`: a percentage from 0 to 100.
pub(crate) fn share(text: &str) -> Result<f64, String> {
    let t: f64 =
        (text.trim_end_matches('%').parse()).map_err(|_| format!("not a number: {text}"))?;
    if !(0.0..=100.0).contains(&t) {
        return Err("the share must be between 0 and 100 percent".into());
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::bytes;

    #[test]
    fn figure_sizes_read_their_units() {
        let (w, h) = super::figure_size("8cmx5cm").unwrap();
        assert!((w - 226.771).abs() < 1e-3 && (h - 141.732).abs() < 1e-3);
        assert_eq!(super::figure_size("6inx4in"), Ok((432.0, 288.0)));
        assert_eq!(super::figure_size("400x300"), Ok((400.0, 300.0)));
        assert_eq!(super::figure_size("400pt x 300pt"), Ok((400.0, 300.0)));
        // One unit after both numbers is both's.
        assert_eq!(super::figure_size("6x4in"), Ok((432.0, 288.0)));
        assert_eq!(super::figure_size("300ptx3in"), Ok((300.0, 216.0)));
        assert!(super::figure_size("1inx1in").is_err());
        assert!(super::figure_size("8cm").is_err());
        assert!(super::figure_size("axb").is_err());
    }

    #[test]
    fn an_eps_width_in_centimetres_is_told_to_be_millimetres() {
        assert_eq!(super::eps_width("120mm").map(f64::round), Ok(340.0));
        let e = super::eps_width("8.5cm").unwrap_err();
        assert!(e.contains("8.5pt") && e.contains("85mm"), "{e}");
        let e = super::eps_width("1in").unwrap_err();
        assert!(e.contains("more than 2in"), "{e}");
    }

    #[test]
    fn sizes_read_decimal_and_binary_units() {
        assert_eq!(bytes("2GB"), Ok(2e9));
        assert_eq!(bytes("512MiB"), Ok(536870912.0));
        assert_eq!(bytes("1e9"), Ok(1e9));
        assert_eq!(bytes("1.5 kB"), Ok(1500.0));
        assert_eq!(bytes("300B"), Ok(300.0));
        assert!(bytes("0").is_err());
        assert!(bytes("GB").is_err());
        assert!(bytes("2 parsecs").is_err());
        assert!(bytes("inf").is_err());
    }
}
