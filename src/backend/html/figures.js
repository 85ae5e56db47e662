// hpgraph's figures for a view: the one part of a page's script that computes numbers,
// with the library's rules, handed over in the page's data (the units as parsed, the
// trend's thresholds). Each function repeats the Rust one its comment names bit for bit (the
// same sums in the same order), held to it by vectors both ways (tests/it/page_figures.rs, page_ticks.rs).
var hpgraphFigures = (function () {
  "use strict";
  // `x` with `d` decimals, an exact tie rounded to even as Rust's `{:.d}` rounds it.
  function fixed(x, d) {
    var s = x.toFixed(d), exact = Math.abs(x).toFixed(Math.min(100, d + 30));
    var point = exact.indexOf("."), rest = exact.slice(point + 1 + d);
    if (!/^50*$/.test(rest)) return s;
    // A tie: toFixed took the larger magnitude; even keeps the smaller when its last digit is even.
    var kept = exact.slice(0, d ? point + 1 + d : point);
    return +kept.charAt(kept.length - 1) % 2 === 1 ? s : (x < 0 && /[1-9]/.test(kept) ? "-" : "") + kept;
  }
  // A writer of values and times on `scale` ({units: [[size, name], …] largest first,
  // space, seconds, time}), as units.rs writes them (three significant digits, ties to even).
  function writer(scale) {
    var units = scale.units, after = scale.time ? " " + scale.time : "";
    function unitFor(v) {
      for (var i = 0; i < units.length; i++) if (Math.abs(v) >= units[i][0]) return units[i];
      return [1, units[units.length - 1][1]];
    }
    function value(v) {
      var u = unitFor(v), x = v / u[0], d = (u[0] === 1 && x === Math.floor(x)) || Math.abs(x) >= 99.95 ? 0 : Math.abs(x) >= 9.995 ? 1 : 2;
      return fixed(x, d) + (u[1] && scale.space ? " " : "") + u[1];
    }
    function time(t) {
      var a = Math.abs(t);
      return scale.seconds ? fixed(t, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 || t === 0 ? 2 : 3) + " s" : String(t) + after;
    }
    return {
      unitFor: unitFor, value: value, time: time,
      // A trend line's slope: signed, per second when times are seconds.
      growth: function (g) { return (g < 0 ? "-" : "+") + value(Math.abs(g)) + (scale.seconds ? "/s" : ""); },
      share: function (f) { return fixed(f * 100, 1) + "%"; },
      r2: function (r) { return fixed(r, 2); },
      // A pointer's time on a time axis.
      pointer: function (t, d) { return fixed(t, d) + after; }
    };
  }
  // ---- a window's figures ----
  function peakOf(v, i0, i1) {
    for (var k = 0, m = -Infinity, i = i0; i <= i1; i++) if (v[i] > m) { m = v[i]; k = i - i0; }
    return [k, m];
  }
  function weight(T, v, i0, i1) {
    if (!(i1 > i0)) return v[i0];
    for (var s = -0, i = i0; i < i1; i++) s += (T[i + 1] - T[i]) * (v[i] + v[i + 1]) / 2;
    return s;
  }
  // src/select/mod.rs `Line`: slope and R², the samples where the band is 0 in one term.
  function slope(T, v, j0, j1) {
    var n = j1 - j0 + 1, i, d, st = 0, spread = 0, den = 0, sv = 0, num = 0, own = 0, vv = 0, k = 0, mt, mv;
    for (i = j0; i <= j1; i++) st += T[i];
    for (mt = st / n, i = j0; i <= j1; i++) { d = T[i] - mt; spread += d; den += d * d; if (v[i] !== 0) sv += v[i]; }
    if (n < 2 || den <= 0) return [0, 0];
    for (mv = sv / n, i = j0; i <= j1; i++) if (v[i] !== 0) { d = T[i] - mt; num += d * (v[i] - mv); own += d; vv += (v[i] - mv) * (v[i] - mv); k++; }
    num -= mv * (spread - own); vv += (n - k) * (mv * mv);
    return [num / den, vv > 0 ? Math.min(1, Math.max(0, num * num / (den * vv))) : 0];
  }
  // The window of samples i0..i1, `totals` the whole heap at each, `rule` the trend's
  // thresholds. Its `figures(values)` are a band's, as Window::figures gives them.
  function windowFigures(T, totals, i0, i1, rule) {
    var end = i1 + 1, by = i0, top, k;
    while (end - i0 > 3 && totals[end - 1] === 0) end--;
    // `teardown`: the highest census in the last third of the time (the last of equals), high enough, and a fall to the last census: left out.
    var high = peakOf(totals, i0, end - 1)[1], from = i0, tearSince = T[end - 1] - (T[end - 1] - T[i0]) * rule.span;
    while (from < end && T[from] < tearSince) from++;
    for (top = from, k = from; k < end; k++) if (totals[k] >= totals[top]) top = k;
    var tear = top - i0 >= 2 && top + 1 < end && totals[top] > 0 && totals[top] >= rule.high * high && totals[end - 1] <= rule.fall * totals[top];
    if (tear) end = top + 1;
    var since = T[end - 1] - (T[end - 1] - T[i0]) * rule.window;
    while (by < end && T[by] < since) by++;
    var j0 = Math.min(by, Math.max(i0, end - rule.samples)), j1 = end - 1, heapPeak = peakOf(totals, i0, i1)[1], whole = weight(T, totals, i0, i1);
    // Window::body: whether the body has censuses enough for its trend to be judged;
    // window::needed_r2: the R² a slope T standard errors from flat needs over n samples.
    var judged = end - i0 >= rule.least, n = j1 - j0 + 1, needed = n <= 2 ? 1 : rule.t * rule.t / (rule.t * rule.t + (n - 2));
    return {
      trendFrom: T[j0], trendTo: T[j1], teardownFrom: tear ? T[top] : null, judged: judged, body: end - i0, needed: needed,
      figures: function (v) {
        var p = peakOf(v, i0, i1), fit = slope(T, v, j0, j1), change = fit[0] * (T[j1] - T[j0]);
        var least = Math.max(rule.change * p[1], rule.share * heapPeak), fits = fit[1] >= needed;
        for (var sum = -0, i = i0; i <= i1; i++) sum += v[i];
        return {
          peak: p[1], at: T[i0 + p[0]], mean: sum / (i1 - i0 + 1), share: whole > 0 ? weight(T, v, i0, i1) / whole : 0, growth: fit[0], r2: fit[1],
          trend: !judged ? "unjudged" : p[1] > 0 && fits && change > least ? "growing" : p[1] > 0 && fits && change < -least ? "shrinking" : "flat"
        };
      }
    };
  }
  // A window's key: its bands' indices as the summary ranks them (summary.rs `summarise`:
  // largest share first, equal shares in the profile's order, `ids`) and how many the key's
  // `room` holds on their own: with more bands than room (`extra` beside them, the page's
  // smaller bands as one), one fewer, the rest merged into OTHER as select.rs `limit_bands` merges.
  function windowKey(shares, ids, room, extra) {
    var order = shares.map(function (s, i) { return i; }).sort(function (i, j) { return shares[j] - shares[i] || ids[i] - ids[j]; });
    return { order: order, own: order.length + extra > room ? room - 1 : order.length };
  }
  // ---- the runtime's figures over a window, as `hpgraph --stats --from a --to b` takes it: the collections
  // that start in it, GC time up to its end, allocation as the difference of the counters' running sum across it ----
  function runtimeFigures(R, a, b) {
    b = Math.min(b, R.end);
    var gc = 0, collections = 0, majors = 0, maxPause = 0, A = R.allocated;
    R.gcs.forEach(function (g) {
      if (g[0] < a || g[0] > b) return;
      collections++, majors += g[2] > 0 ? 1 : 0;
      maxPause = Math.max(maxPause, g[1] - g[0]), gc += Math.min(g[1], b) - g[0];
    });
    // The running sum after the last reading at or before t (strictly before, `before`).
    function at(t, before) {
      var lo = 0, hi = A.length;
      while (lo < hi) { var m = (lo + hi) >> 1; if (before ? A[m][0] < t : A[m][0] <= t) lo = m + 1; else hi = m; }
      return lo ? A[lo - 1][1] : 0;
    }
    return { gcShare: b - a > 0 ? gc / (b - a) : 0, collections: collections, majors: majors, maxPause: maxPause, allocated: A.length ? at(b, false) - at(a, true) : null };
  }
  // The GC strip's columns from a to b, n of them: each one's share of time in the collections `gcs`
  // ([start, end, generation]), at most 1, and whether a major one falls in it (profile/mod.rs `Runtime::gc_shares`).
  function gcShares(gcs, a, b, n) {
    var step = (b - a) / n, out = Array.from({ length: step > 0 ? n : 0 }, function () { return [0, false]; });
    var col = function (t) { return Math.min(n - 1, Math.max(0, Math.floor((t - a) / step))); };
    if (step > 0) gcs.forEach(function (g) {
      if (g[0] > b || g[1] < a) return;
      for (var s = Math.max(g[0], a), e = Math.min(g[1], b), k = col(s); k <= col(e); k++) {
        out[k][0] += Math.max(0, Math.min(e, a + (k + 1) * step) - Math.max(s, a + k * step)) / step;
        out[k][1] = out[k][1] || g[2] > 0;
      }
    });
    out.forEach(function (c) { c[0] = Math.min(1, c[0]); });
    return out;
  }
  // ---- ticks for a zoomed axis: [value, label] pairs, as the modern pictures' ----
  // The least 1, 2 or 5 times a power of ten at least `y` (ticks.rs `ceil_125`); for
  // time, 2.5 too where it is at least `y` (`ceil_1_2_25_5`).
  function ceil125(y, quarters) {
    if (!(y > 0) || !isFinite(y)) return null;
    var decade = Math.pow(10, Math.floor(Math.log10(y))), s = [1, 2, 5, 10].map(function (m) { return m * decade; }).find(function (s) { return s >= y * (1 - 1e-9); });
    return quarters && Math.abs(s / Math.pow(10, Math.floor(Math.log10(s))) - 5) < 1e-9 && s / 2 >= y * (1 - 1e-9) ? s / 2 : s;
  }
  // The decimals that make a step whole (modern.rs `decimals`): 0.25 has 2.
  function decimals(step) {
    for (var d = 0; (step < 0.999999 || Math.abs(step - Math.round(step)) > 1e-6 * step) && d < 12; d++) step *= 10;
    return d;
  }
  // At most about `target` round values from a to b; `timeAxis` labels them as modern.rs `time_axis` does.
  function timeTicks(a, b, target) {
    var step = ceil125((b - a) / target, true), out = [], d = decimals(step);
    for (var k = Math.ceil(a / step); step && out.length < 1000 && k * step <= b + step * 1e-9; k++) out.push([k * step, (k * step).toFixed(d)]);
    return out;
  }
  function timeAxis(a, b, target, seconds) {
    // Milliseconds for a step under a hundredth of a second or an axis that ends before a
    // tenth (modern.rs `in_milliseconds`, MILLISECOND_AXIS).
    var want = (b - a) / target, out = [], k, c = ceil125(want), f = seconds && c && (c < 0.009 || Math.max(Math.abs(a), Math.abs(b)) < 0.1) ? 1e3 : 1, step = seconds && want >= 50 && ([60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 21600, 43200, 86400].find(function (s) { return s >= want; }) || Math.ceil(want / 86400) * 86400);
    var clock = function (t) { var m = Math.round(t / 60), h = Math.floor(m / 60); m %= 60; return h ? h + "h" + (m ? " " + m + "m" : "") : m ? m + "m" : "0"; };
    for (k = Math.ceil(a / step); step && k * step <= b + step * 1e-9 && out.length <= 1000; k++) out.push([k * step, clock(k * step)]);
    return step ? out : timeTicks(a * f, b * f, target).map(function (t) { return [t[0] / f, t[1] + (seconds ? (f > 1 ? " ms" : " s") : "")]; });
  }
  // Round values from 0 to top in the unit `write` gives top.
  function valueTicks(top, target, write) {
    // Bytes come whole (modern.rs `value_ticks`): no step under one.
    var u = write.unitFor(top), s = ceil125(top / u[0] / target), step = s && u[0] === 1 && u[1] ? Math.max(1, s) : s, out = [], d = decimals(step), space = u[1] ? " " : "";
    for (var k = 0; step && k * step * u[0] <= top * (1 + 1e-9) && out.length < 1000; k++) out.push([k * step * u[0], (k * step).toFixed(d) + space + u[1]]);
    return out;
  }
  // The rate panel's axis `height` tall (modern.rs `rate_ticks`): of the round steps whose labels stay a
  // line and a half apart, the one whose top (a multiple at or over the peak) is nearest it; most labels on ties.
  function rateAxis(peak, height, em, write) {
    var u = write.unitFor(peak), p = peak / u[0], decade = Math.pow(10, Math.floor(Math.log10(p))), best = null, k, out = [];
    if (!(p > 0) || !isFinite(p)) return null;
    [0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10].forEach(function (m) {
      var step = m * decade, n = Math.max(1, Math.ceil(p / step * (1 - 1e-9))), top = n * step;
      if (n <= 5 && (n === 1 || height / n >= 15 * em) && (!best || top < best.top * (1 - 1e-9) || (top <= best.top * (1 + 1e-9) && n > best.n))) best = { step: step, n: n, top: top };
    });
    for (k = 0; k <= best.n; k++) out.push([k * best.step * u[0], (k * best.step).toFixed(decimals(best.step)) + (u[1] ? " " : "") + u[1] + "/s"]);
    return { top: best.top * u[0], ticks: out };
  }
  // A stack's mean over the samples i0..i1 by trapezoids, each sample's value counting for
  // half the time to the sample before it and half to the one after, in sample order; over
  // no time, its value at the first of the highest censuses (stacked.rs `heap_weights`).
  function windowMean(T, totals, v, i0, i1) {
    if (!(i1 > i0) || !(T[i1] > T[i0])) return v[i0 + peakOf(totals, i0, i1)[0]];
    for (var span = T[i1] - T[i0], w = 0, s = i0; s <= i1; s++) if (v[s] !== 0) w += v[s] * ((T[Math.min(s + 1, i1)] - T[Math.max(s - 1, i0)]) / 2 / span);
    return w;
  }
  return { writer: writer, windowFigures: windowFigures, windowKey: windowKey, windowMean: windowMean, runtimeFigures: runtimeFigures, gcShares: gcShares, timeAxis: timeAxis, valueTicks: valueTicks, rateAxis: rateAxis, fixed: fixed };
})();
