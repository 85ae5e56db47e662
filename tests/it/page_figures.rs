//! The page's figures are the library's: every rule `figures.js` applies at a zoom the
//! library cannot foresee (a window's figures and trend, its mean stack, the runtime's
//! account over it, the GC strip's columns, how numbers and times are written), run in
//! Node on generated windows and on real runs' eventlogs, gives what the library's
//! function gives on the same samples, to the bit where the script sums as Rust sums.
//! And the other way: every function the script hands the page is held here or in
//! `page_ticks.rs`, so a rule added to it without vectors fails.

use std::collections::BTreeSet;
use std::path::Path;

use hpgraph::analysis::page::{PageScale, TrendRule};
use hpgraph::analysis::stats::stats;
use hpgraph::analysis::window::Window;
use hpgraph::select::flame::{WhichCensus, stacks};
use hpgraph::units::{ByteUnits, Scale, TimeUnit, ValueUnit, human, seconds};
use serde_json::{Value, json};

use crate::common::Rng;

/// Runs `script` in Node as [`crate::page_ticks::node`] does, its numbers handed back as
/// the shortest text that reads back to them (serde_json's own reading of a number may
/// be a bit off), which [`number`] reads.
fn node(script: &str, cases: &Value) -> Value {
    crate::page_ticks::node(
        &format!(
            "JSON.parse(JSON.stringify({script}, (k, v) => typeof v === 'number' ? String(v) : v))"
        ),
        cases,
    )
}

/// The functions `figures.js` returns, each with the test that holds it to Rust.
const HELD: [(&str, &str); 10] = [
    ("fixed", "numbers_are_written_as_the_library_writes_them"),
    ("writer", "numbers_are_written_as_the_library_writes_them"),
    ("windowFigures", "a_windows_figures_are_the_librarys"),
    ("windowKey", "a_zooms_key_ranks_as_the_summary"),
    ("windowMean", "a_windows_mean_stack_is_the_flame_graphs"),
    (
        "runtimeFigures",
        "the_runtimes_account_of_a_window_is_stats",
    ),
    ("gcShares", "the_runtimes_account_of_a_window_is_stats"),
    (
        "timeAxis",
        "page_ticks::the_pages_time_labels_are_the_pictures",
    ),
    (
        "valueTicks",
        "page_ticks::the_pages_value_and_rate_labels_are_the_pictures",
    ),
    (
        "rateAxis",
        "page_ticks::the_pages_value_and_rate_labels_are_the_pictures",
    ),
];

#[test]
fn every_rule_the_script_hands_the_page_is_held_by_vectors() {
    let exported: BTreeSet<String> = serde_json::from_value(node("Object.keys(F)", &json!(null)))
        .expect("figures.js returns an object of functions");
    let held: BTreeSet<String> = HELD.iter().map(|h| h.0.to_string()).collect();
    assert_eq!(
        exported, held,
        "a function figures.js hands the page has no vectors here (or one held here is gone)"
    );
    // Each is called, in Node, by the test named beside it.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it");
    for (function, test) in HELD {
        let (file, test) = match test.split_once("::") {
            Some((module, test)) => (format!("{module}.rs"), test),
            None => ("page_figures.rs".into(), test),
        };
        let text = std::fs::read_to_string(dir.join(&file)).unwrap();
        let body = text
            .split_once(&format!("fn {test}() {{"))
            .unwrap_or_else(|| panic!("{file} has no test {test}"))
            .1;
        let body = body.split("\n#[test]").next().unwrap();
        assert!(
            body.contains(&format!("F.{function}(")),
            "{file}'s {test} does not call figures.js's {function}"
        );
    }
}

/// A generated run as a `.hp` of `bands` bands, its header and each sample's lines: its
/// times from 30 µs to days, some samples at the same time, bands that climb, saw,
/// plateau and tear down, absent (0) at some censuses, and at times a last census of an
/// empty heap.
struct Run {
    header: String,
    samples: Vec<String>,
}

impl Run {
    fn hp(&self, range: std::ops::RangeInclusive<usize>) -> String {
        self.header.clone() + &self.samples[range].concat()
    }
}

fn run(rng: &mut Rng, samples: usize, bands: usize) -> Run {
    let span = 10f64.powf(-4.5 + 9.8 * rng.unit());
    let start = if rng.unit() < 0.4 {
        0.0
    } else {
        span * 20.0 * rng.unit()
    };
    let mut t = start;
    let gap = span / samples.max(1) as f64;
    let shapes: Vec<(usize, f64)> = (0..bands)
        .map(|_| {
            (
                (rng.unit() * 5.0) as usize,
                10f64.powf(2.0 + 7.0 * rng.unit()),
            )
        })
        .collect();
    let empty_end = rng.unit() < 0.3;
    let mut out = Vec::new();
    for i in 0..samples {
        let x = i as f64 / samples.max(2) as f64;
        let mut text = format!("BEGIN_SAMPLE {t}\n");
        for (b, &(shape, size)) in shapes.iter().enumerate() {
            let noise = 0.9 + 0.2 * rng.unit();
            let v = match shape {
                0 => size * (0.1 + x) * noise,
                1 => size * (0.3 + (i % 7) as f64 / 7.0),
                2 => size * x.min(0.3) * noise,
                3 if x > 0.8 => size * 0.2,
                3 => size * (0.2 + x),
                _ => size * (1.0 - x) * noise,
            };
            let absent = rng.unit() < 0.1 || (empty_end && i + 1 == samples);
            if !absent {
                text += &format!("b{b}\t{}\n", v.round());
            }
        }
        text += &format!("END_SAMPLE {t}\n");
        out.push(text);
        if rng.unit() > 0.05 {
            t += gap * (0.2 + 1.6 * rng.unit());
        }
    }
    Run {
        header: "JOB \"gen\"\nDATE \"x\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n".into(),
        samples: out,
    }
}

/// A run's samples as the page holds them: the times, each band's name and value at
/// every sample (0 where it has none) and the heap's total, all from the library's model.
struct Samples {
    times: Vec<f64>,
    totals: Vec<f64>,
    bands: Vec<(String, Vec<f64>)>,
}

fn samples(hp: &str) -> Samples {
    let parsed = hpgraph::input::parse(hp.as_bytes()).expect("a generated .hp reads");
    let profile = parsed.profile.series();
    let n = profile.samples();
    let bands = (profile.bands.iter())
        .map(|(name, series)| {
            let mut dense = vec![0.0; n];
            series.for_each(|s, v| dense[s as usize] += v);
            (String::from_utf8_lossy(name).into_owned(), dense)
        })
        .collect();
    Samples {
        times: profile.times.clone(),
        totals: profile.totals(),
        bands,
    }
}

/// A number from the script, written as text ([`node`]).
fn number(v: &Value) -> f64 {
    let text = v
        .as_str()
        .unwrap_or_else(|| panic!("a number from the script: {v}"));
    text.parse()
        .unwrap_or_else(|_| panic!("a number from the script: {text}"))
}

/// Equal to the bit, 0 and -0 alike (JSON writes -0 as 0), NaN as NaN.
fn bits(what: &str, ours: f64, theirs: &Value) {
    let theirs = number(theirs);
    assert!(
        ours == theirs || (ours.is_nan() && theirs.is_nan()),
        "{what}: the library {ours:e}, the script {theirs:e}"
    );
}

#[test]
fn a_windows_figures_are_the_librarys() {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    let counts = [1, 2, 3, 4, 8, 15, 16, 17, 24, 40, 100, 300];
    let mut cases = Vec::new();
    let mut windows = 0;
    while windows < 1200 {
        let n = counts[(rng.unit() * counts.len() as f64) as usize];
        let r = run(&mut rng, n, 3);
        let s = samples(&r.hp(0..=n - 1));
        assert_eq!(s.times.len(), n, "every census read");
        let mut ranges = vec![(0, n - 1)];
        for _ in 0..4 {
            let i0 = (rng.unit() * n as f64) as usize;
            let i1 = i0 + (rng.unit() * (n - i0) as f64) as usize;
            ranges.push((i0, i1.min(n - 1)));
        }
        windows += ranges.len();
        cases.push((s, ranges));
    }
    let input: Vec<Value> = (cases.iter())
        .map(|(s, ranges)| {
            let bands: Vec<&Vec<f64>> = s.bands.iter().map(|b| &b.1).collect();
            json!({"T": s.times, "totals": s.totals, "bands": bands, "ranges": ranges})
        })
        .collect();
    let script = "C.cases.map(c => c.ranges.map(([i0, i1]) => { \
        const w = F.windowFigures(c.T, c.totals, i0, i1, C.rule); \
        return { w: w, bands: c.bands.map(v => w.figures(v)) }; }))";
    let got = node(
        script,
        &json!({"rule": serde_json::to_value(TrendRule::LIBRARY).unwrap(), "cases": input}),
    );
    let mut trends = BTreeSet::new();
    for (k, (s, ranges)) in cases.iter().enumerate() {
        for (r, &(i0, i1)) in ranges.iter().enumerate() {
            let theirs = &got[k][r];
            let what = format!("run {k} ({} samples), window {i0}..={i1}", s.times.len());
            let window = Window::new(&s.times[i0..=i1], &s.totals[i0..=i1]);
            let w = &theirs["w"];
            let (from, to) = window.trend_span();
            bits(&format!("{what}: trend from"), from, &w["trendFrom"]);
            bits(&format!("{what}: trend to"), to, &w["trendTo"]);
            bits(
                &format!("{what}: needed R²"),
                window.needed_r2(),
                &w["needed"],
            );
            assert_eq!(window.body() as f64, number(&w["body"]), "{what}: body");
            assert_eq!(
                window.teardown_from(),
                (!w["teardownFrom"].is_null()).then(|| number(&w["teardownFrom"])),
                "{what}: teardown"
            );
            for (b, (_, values)) in s.bands.iter().enumerate() {
                let f = window.figures(&values[i0..=i1]);
                let t = &theirs["bands"][b];
                let what = format!("{what}, band {b}");
                bits(&format!("{what}: peak"), f.peak, &t["peak"]);
                bits(&format!("{what}: at"), f.peak_time, &t["at"]);
                bits(&format!("{what}: mean"), f.mean, &t["mean"]);
                bits(&format!("{what}: share"), f.share, &t["share"]);
                bits(&format!("{what}: growth"), f.growth, &t["growth"]);
                bits(&format!("{what}: R²"), f.r2, &t["r2"]);
                assert_eq!(f.trend.word(), t["trend"], "{what}: trend");
                trends.insert(f.trend.word());
            }
        }
    }
    assert_eq!(
        trends.len(),
        4,
        "every verdict among the windows (growing, flat, shrinking, unjudged): {trends:?}"
    );
}

/// A zoom's key is the window's summary (`--summary --from --to`): the bands the page
/// shows there, in the summary's order, and as many on their own as select's band limit
/// keeps before it merges the rest into OTHER, the page's smaller bands (`extra`) counted
/// as one band beside them.
#[test]
fn a_zooms_key_ranks_as_the_summary() {
    use hpgraph::analysis::{summarise, table::Table};
    use hpgraph::select::{SelectOptions, select};
    let mut rng = Rng(0x94d0_49bb_1331_11eb);
    let rooms = [1, 2, 3, 5, 8, 20, 0];
    let (mut input, mut ours, mut ties) = (Vec::new(), Vec::new(), 0);
    while input.len() < 1000 {
        let n = 1 + (rng.unit() * 80.0) as usize;
        let bands = 1 + (rng.unit() * 30.0) as usize;
        let mut r = run(&mut rng, n, bands);
        // Every third run has a twin of its first band: equal shares, which the summary
        // ranks in the profile's order whatever order the page holds them in.
        if input.len() % 3 == 0 {
            for s in &mut r.samples {
                let value = s
                    .lines()
                    .find_map(|l| l.strip_prefix("b0\t"))
                    .map(str::to_owned);
                if let (Some(v), Some(end)) = (value, s.rfind("END_SAMPLE")) {
                    s.insert_str(end, &format!("twin\t{v}\n"));
                }
            }
        }
        let whole = samples(&r.hp(0..=n - 1));
        let i0 = (rng.unit() * n as f64) as usize;
        let i1 = (i0 + (rng.unit() * (n - i0) as f64) as usize).min(n - 1);
        let Ok(parsed) = hpgraph::input::parse(r.hp(i0..=i1).as_bytes()) else {
            continue; // no band in the window: no key to rank
        };
        let window = parsed.profile.series();
        let summary = summarise(&Table::all(window), None, (None, None));
        // The page shows a zoom's bands with something in it, in the window's order.
        let shown: Vec<String> = (window.bands.names().iter())
            .map(|name| String::from_utf8_lossy(name).into_owned())
            .filter(|name| {
                summary
                    .bands
                    .iter()
                    .any(|b| &b.name == name && b.peak > 0.0)
            })
            .collect();
        let ranked: Vec<&String> = (summary.bands.iter())
            .map(|b| &b.name)
            .filter(|name| shown.contains(name))
            .collect();
        let (room, extra) = (rooms[input.len() % rooms.len()], input.len() / 7 % 2);
        // The band limit's own count, from select on those bands and the extra one.
        let mut hp = r.header.clone();
        for i in i0..=i1 {
            let t = whole.times[i];
            hp += &format!("BEGIN_SAMPLE {t}\n");
            for (name, values) in whole.bands.iter().filter(|b| shown.contains(&b.0)) {
                hp += &format!("{name}\t{}\n", values[i]);
            }
            hp += ["", "rest\t1\n"][extra];
            hp += &format!("END_SAMPLE {t}\n");
        }
        let limited = hpgraph::input::parse(hp.as_bytes()).unwrap().profile;
        let mut options = SelectOptions::default();
        (options.threshold, options.band_limit) = (0.0, room);
        let bands = select(limited.series(), None, &options).bands;
        let other = bands.iter().any(|b| &b.name[..] == b"OTHER");
        let own = bands.len() - if other { 1 } else { extra };
        // The page holds the bands in an order of its own (the picture's, then its pool),
        // each with its place in the profile (`PageBand::id`).
        let mut held: Vec<usize> = (0..shown.len()).collect();
        for k in (1..held.len()).rev() {
            held.swap(k, (rng.unit() * (k + 1) as f64) as usize);
        }
        let values: Vec<&Vec<f64>> = (held.iter())
            .map(|&p| &whole.bands.iter().find(|b| b.0 == shown[p]).unwrap().1)
            .collect();
        ties += usize::from(["b0", "twin"].iter().all(|t| shown.iter().any(|s| s == t)));
        input.push(
            json!({"T": whole.times, "totals": whole.totals, "bands": values, "ids": held,
            "i0": i0, "i1": i1, "room": room, "extra": extra}),
        );
        let shown: Vec<String> = held.iter().map(|&p| shown[p].clone()).collect();
        ours.push((shown, ranked.into_iter().cloned().collect::<Vec<_>>(), own));
    }
    let got = node(
        "C.cases.map(c => { const w = F.windowFigures(c.T, c.totals, c.i0, c.i1, C.rule); \
            return F.windowKey(c.bands.map(v => w.figures(v).share), c.ids, c.room || Infinity, c.extra); })",
        &json!({"rule": serde_json::to_value(TrendRule::LIBRARY).unwrap(), "cases": input}),
    );
    let (mut merged, mut all_merged) = (0, 0);
    for (k, (shown, ranked, own)) in ours.iter().enumerate() {
        let key = &got[k];
        let order: Vec<&String> = (key["order"].as_array().unwrap().iter())
            .map(|i| &shown[number(i) as usize])
            .collect();
        let what = format!("case {k}: {} bands, room {}", shown.len(), input[k]["room"]);
        assert_eq!(
            order,
            ranked.iter().collect::<Vec<_>>(),
            "{what}: the order"
        );
        assert_eq!(number(&key["own"]) as usize, *own, "{what}: on their own");
        merged += usize::from(*own < shown.len());
        all_merged += usize::from(ranked.len() > 1 && *own == 0);
    }
    assert!(merged > 300, "many keys merge bands into OTHER: {merged}");
    assert!(ties > 100, "many keys rank two equal shares: {ties}");
    assert!(
        all_merged > 10,
        "some keys hold no band on its own: {all_merged}"
    );
}

#[test]
fn a_windows_mean_stack_is_the_flame_graphs() {
    let mut rng = Rng(0x2b99_2ddf_a232_49d6);
    let (mut input, mut ours) = (Vec::new(), Vec::new());
    while input.len() < 1000 {
        let n = 1 + (rng.unit() * 60.0) as usize;
        let r = run(&mut rng, n, 4);
        let s = samples(&r.hp(0..=n - 1));
        let i0 = (rng.unit() * n as f64) as usize;
        let i1 = (i0 + (rng.unit() * (n - i0) as f64) as usize).min(n - 1);
        // The window as a profile of its own: the flame graph of its mean.
        let parsed = hpgraph::input::parse(r.hp(i0..=i1).as_bytes()).unwrap();
        let (_, stacks) = stacks(parsed.profile.series(), WhichCensus::Mean);
        let means: Vec<f64> = (s.bands.iter())
            .map(|(name, _)| {
                (stacks.iter())
                    .find(|stack| stack.band == name.as_bytes())
                    .map_or(0.0, |stack| stack.bytes)
            })
            .collect();
        let bands: Vec<&Vec<f64>> = s.bands.iter().map(|b| &b.1).collect();
        input.push(json!({"T": s.times, "totals": s.totals, "bands": bands, "i0": i0, "i1": i1}));
        ours.push(means);
    }
    let got = node(
        "C.map(c => c.bands.map(v => F.windowMean(c.T, c.totals, v, c.i0, c.i1)))",
        &json!(input),
    );
    let mut spans = 0;
    for (k, means) in ours.iter().enumerate() {
        let (i0, i1) = (
            input[k]["i0"].as_u64().unwrap(),
            input[k]["i1"].as_u64().unwrap(),
        );
        spans += usize::from(i1 > i0);
        for (b, &mean) in means.iter().enumerate() {
            bits(
                &format!("case {k} ({i0}..={i1}), band {b}"),
                mean,
                &got[k][b],
            );
        }
    }
    assert!(spans > 800, "most windows span several censuses: {spans}");
}

#[test]
fn numbers_are_written_as_the_library_writes_them() {
    use hpgraph::analysis::summary::time_text;
    let mut rng = Rng(0x9fb2_1c65_1e98_df25);
    // Values across magnitudes, either sign, whole and not, and exact ties at each
    // number of decimals (`0.125` to 2, `2.5` to 0), which Rust rounds to even.
    let mut values = vec![0.0, 1.0, 999.0, 1000.0, 99.95, 9.995, 0.125, 2.5, -2.5];
    while values.len() < 3000 {
        let x = 10f64.powf(-4.0 + 17.0 * rng.unit());
        let x = match values.len() % 4 {
            0 => x.round(),
            1 => (x * 8.0).round() / 8.0,
            _ => x,
        };
        values.push(if rng.unit() < 0.2 && x != 0.0 { -x } else { x });
    }
    let decimals: Vec<usize> = (0..values.len()).map(|k| k % 4).collect();
    for (value, units) in [
        (ValueUnit::Bytes, ByteUnits::Decimal),
        (ValueUnit::Bytes, ByteUnits::Binary),
        (ValueUnit::Other, ByteUnits::Decimal),
    ] {
        for (time, word) in [(TimeUnit::Seconds, "seconds"), (TimeUnit::Other, "ticks")] {
            let page = PageScale::of(value, units, time, word.as_bytes());
            let got = node(
                "C.values.map((v, k) => { const W = F.writer(C.scale); \
                 return [W.value(v), W.time(v), W.share(v), W.r2(v), W.growth(v), F.fixed(v, C.decimals[k])]; })",
                &json!({"scale": page, "values": values, "decimals": decimals}),
            );
            let scale = Scale::new(value, units);
            for (k, &v) in values.iter().enumerate() {
                let d = decimals[k];
                let sign = if v < 0.0 { "-" } else { "+" };
                let per = if time == TimeUnit::Seconds { "/s" } else { "" };
                let ours = [
                    human(v, scale),
                    time_text(time, word, v),
                    format!("{:.1}%", v * 100.0),
                    format!("{v:.2}"),
                    format!("{sign}{}{per}", human(v.abs(), scale)),
                    format!("{v:.d$}"),
                ];
                for (what, (ours, theirs)) in ["value", "time", "share", "R²", "growth", "fixed"]
                    .iter()
                    .zip(ours.iter().zip(got[k].as_array().unwrap()))
                {
                    assert_eq!(
                        theirs, ours,
                        "{what} of {v:e} ({d} decimals), {value:?} {units:?} {time:?}"
                    );
                }
            }
        }
    }
    // No number is written with a sign it does not have: -0 is 0, as the script writes it.
    for scale in [
        Scale::new(ValueUnit::Bytes, ByteUnits::Decimal),
        Scale::Plain,
    ] {
        assert_eq!(human(-0.0, scale), human(0.0, scale));
    }
    assert_eq!(seconds(-0.0), seconds(0.0));
}

/// The page's data: the JSON a page of `input` carries, as the page's script reads it.
fn page_data(input: &Path) -> Value {
    let dir = crate::common::Scratch::new("page-figures");
    crate::common::hpgraph_ok(&dir.0, &[input.to_str().unwrap(), "-o", "page.html"]);
    let html = std::fs::read_to_string(dir.path("page.html")).unwrap();
    let start = html.find("id=\"hpgraph-data\">").unwrap() + "id=\"hpgraph-data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).expect("the page's data is JSON")
}

#[test]
fn the_runtimes_account_of_a_window_is_stats() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut rng = Rng(0x6c07_8965_d5a3_8b11);
    let mut windows = 0;
    // Real runs of three GHCs: heap profiles, two capabilities collecting in parallel,
    // three generations, the non-moving heap.
    for log in [
        "eventlog/MapBuild-hT.eventlog",
        "eventlog-9.6/Leak-hT.eventlog",
        "eventlog-9.10/ManyCC-hc.eventlog",
        "stats/ghc-9.0.2/MapBuild-N2.eventlog",
        "stats/ghc-9.6.6/Leak-G3.eventlog",
        "stats/ghc-9.10.3/MapBuild-nonmoving.eventlog",
    ] {
        let path = root.join(log);
        let data = page_data(&path);
        let r = &data["runtime"];
        assert!(
            r["gcs"].as_array().is_some_and(|g| g.len() > 3),
            "{log}: collections"
        );
        let file = std::fs::File::open(&path).unwrap();
        let parsed =
            hpgraph::input::read_file(&file, hpgraph::input::Options::new().with_runtime(true))
                .unwrap();
        let runtime = &parsed.profile.series().runtime;
        let end = runtime.end;
        let mut cases = Vec::new();
        for k in 0..300 {
            let (a, b) = match k {
                0 => (0.0, end),
                1 => (end / 2.0, end * 2.0),
                _ => {
                    let a = end * rng.unit();
                    (a, a + (end - a) * rng.unit().powi(3))
                }
            };
            cases.push((a, b, 1 + (rng.unit() * 900.0) as usize));
        }
        let got = node(
            "C.cases.map(([a, b, n]) => [F.runtimeFigures(C.R, a, b), F.gcShares(C.R.gcs, a, b, n)])",
            &json!({"R": r, "cases": cases}),
        );
        for (k, &(a, b, n)) in cases.iter().enumerate() {
            let what = format!("{log} from {a} to {b}");
            let s = stats(runtime, Some(a), Some(b));
            let f = &got[k][0];
            let share = if s.total_elapsed > 0.0 {
                s.gc_elapsed / s.total_elapsed
            } else {
                0.0
            };
            bits(&format!("{what}: GC share"), share, &f["gcShare"]);
            let collections: u64 = s.generations.iter().map(|g| g.collections).sum();
            let majors: u64 = s.generations.iter().skip(1).map(|g| g.collections).sum();
            let longest = s
                .generations
                .iter()
                .map(|g| g.max_pause)
                .fold(0.0, f64::max);
            assert_eq!(
                number(&f["collections"]),
                collections as f64,
                "{what}: collections"
            );
            assert_eq!(
                number(&f["majors"]),
                majors as f64,
                "{what}: major collections"
            );
            bits(&format!("{what}: longest pause"), longest, &f["maxPause"]);
            assert_eq!(
                (!f["allocated"].is_null()).then(|| number(&f["allocated"])),
                s.allocated.map(|n| n as f64),
                "{what}: allocated"
            );
            let columns = runtime.gc_shares(a, b, n);
            let theirs = got[k][1].as_array().unwrap();
            assert_eq!(theirs.len(), columns.len(), "{what}: {n} columns");
            for (c, (ours, theirs)) in columns.iter().zip(theirs).enumerate() {
                bits(&format!("{what}: column {c} of {n}"), ours.0, &theirs[0]);
                assert_eq!(
                    theirs[1].as_bool(),
                    Some(ours.1),
                    "{what}: column {c}'s major"
                );
            }
            windows += 1;
        }
    }
    assert!(windows >= 1000);
}
