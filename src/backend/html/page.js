// hpgraph's interactive page: hover for values, click a key entry to hide its band, drag
// to zoom (the key and the table then rank the bands of that window), double-click to
// reset, a filter box, three views (stacked, share, lines), and a click on the chart
// opens that census as a flame graph under it. Everything it needs is in the page: the
// numbers in the JSON block #hpgraph-data, the chart as inline SVG. No library; a file
// makes no request. Text from the profile reaches the page only as text nodes and
// attribute values, never as markup.
// The page of `hpgraph --serve` (body[data-live]) also follows its server's event stream
// and, when the profile changes, fetches the new page and swaps its parts in, keeping the
// hidden bands, the zoom, the view and the filter.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var box = document.getElementById("chart");
  var D = null, svg = null, page = null, P = null;
  var left = 0, top = 0, width = 1, height = 1, bottom = 1;
  var tip = document.getElementById("tooltip");
  var hidden = new Set();
  var view = null; // [from, to] while zoomed
  var mode = "stacked"; // or "share", "lines"
  var filter = null; // a RegExp while the filter box holds one
  var sortBy = { key: "share", down: true };
  var layer = null;
  var drag = null;
  var geometry = null; // what the last drawing used: times shown, stacks, scale
  var pointer = null; // where the pointer last was over the chart, to refresh the tooltip
  var individuals = []; // every band the page has on its own: drawn ones, then the pool
  var flame = null; // the open flame graph: { index, mean, inverted, root, focus }
  var flameFilter = null; // the filter the open flame graph was made with
  var lastDraw = 0;

  // ---- numbers: written and computed by figures.js, with the library's rules ----
  var F = hpgraphFigures, W = null;
  function human(v) { return W.value(v); }
  function seconds(t) { return W.time(t); }
  function valueTicks(top, target) {
    if (mode === "share") return [0, 0.25, 0.5, 0.75, 1].map(function (f) { return [f, (100 * f) + "%"]; });
    return F.valueTicks(top, target, W);
  }

  // ---- elements ----
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(name, attrs, parent, text) {
    var e = document.createElement(name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function fullRange() { return [P.t0, P.t0 + P.xr]; }

  // ---- which bands are drawn ----
  // The samples within [a, b], and the weight (area) of each value there.
  // `empty` when no sample lies within (i0 = i1 is then the one after, for drawing).
  function windowOf(a, b) {
    var T = D.times, n = T.length;
    var first = function (ok) { var lo = 0, hi = n; while (lo < hi) { var m = (lo + hi) >> 1; if (ok(T[m])) hi = m; else lo = m + 1; } return lo; };
    var i0 = first(function (t) { return t >= a; }), i1 = first(function (t) { return t > b; }) - 1;
    if (i1 < i0) { i0 = Math.max(0, Math.min(i0, n - 1)); return { i0: i0, i1: i0, empty: true }; }
    return { i0: i0, i1: i1, empty: false };
  }
  function area(values, w) {
    var T = D.times, s = 0;
    if (w.i1 === w.i0) return values[w.i0];
    for (var i = w.i0; i < w.i1; i++) s += (values[i] + values[i + 1]) / 2 * (T[i + 1] - T[i]);
    return s;
  }
  function sumOf(list) {
    var out = new Float64Array(D.times.length);
    list.forEach(function (s) { var v = s.values; for (var i = 0; i < v.length; i++) out[i] += v[i]; });
    return out;
  }
  // Bottom first. The whole run unfiltered is the picture's own selection; a window or a
  // filter ranks the bands it holds: the key's worth of the largest there, the rest as
  // OTHER.
  function series() {
    if (!view && !filter) return D.bands.map(function (b) { return { name: b.name, fill: b.fill, values: b.values, other: b.other }; });
    var range = view || fullRange(), w = windowOf(range[0], range[1]);
    var cands = individuals.filter(function (s) { return !filter || filter.test(s.name); });
    var ranked = cands.map(function (s) { return [area(s.values, w), s]; })
      .filter(function (p) { return p[0] > 0 || !view; })
      .sort(function (x, y) { return y[0] - x[0]; });
    var room = D.key_entries > 0 ? D.key_entries : Infinity;
    var rest = !filter && D.rest ? [D.rest[1]] : [];
    var out = [];
    if (ranked.length + (rest.length ? 1 : 0) > room) {
      var merged = ranked.slice(room - 1).map(function (p) { return p[1]; }).concat(rest);
      ranked = ranked.slice(0, room - 1);
      out.push({ name: "OTHER", fill: D.other_fill, values: sumOf(merged), other: true, count: merged.length });
    } else if (rest.length) {
      out.push({ name: rest[0].name, fill: D.other_fill, values: rest[0].values, other: true });
    }
    for (var k = ranked.length - 1; k >= 0; k--) out.push(ranked[k][1]);
    return out;
  }

  // ---- drawing ----
  function draw() {
    if (!D) return;
    var started = performance.now();
    if (!layer) {
      // The script draws from now on: the picture the file carries steps aside (before
      // the browser lays it out: its outlines hold every column of the run).
      svg.querySelectorAll(".band, .tick, .tick-label, .mark, .heap-line, .collection").forEach(function (e) { e.remove(); });
      layer = el("g", { id: "layer" }, page);
    }
    var vb = svg.viewBox.baseVal, pages = svg.querySelectorAll(":scope > g").length || 1;
    var pageTop = vb.height / pages * P.page, pageBottom = pageTop + vb.height / pages;
    // Where the pieces may go: the page, and a margin around it as far as the document
    // reaches (a tool clips an element's box to the window).
    var ctm = svg.getScreenCTM(), scale = ctm ? ctm.a : 1;
    var leftRoom = ctm ? (ctm.e + window.scrollX) / scale : 0;
    var room = {
      x0: vb.x - Math.min(40, leftRoom), x1: vb.x + vb.width + 40,
      y0: pageTop - 40, y1: pageBottom + 40
    };
    layer.textContent = "";
    var range = view || fullRange(), a = range[0], b = range[1];
    var T = D.times, n = T.length;
    var list = series();
    var w = windowOf(a, b);
    // The samples in view, and one either side so that the bands reach the edges.
    var i0 = Math.max(0, w.i0 - (T[w.i0] > a ? 1 : 0)), i1 = Math.min(n - 1, w.i1 + (T[w.i1] < b ? 1 : 0));
    var shown = [];
    list.forEach(function (s, k) { if (!hidden.has(s.name)) shown.push(k); });
    var stacks = [], total = new Float64Array(n), all = new Float64Array(n);
    shown.forEach(function (k) { var v = list[k].values; for (var i = i0; i <= i1; i++) all[i] += v[i]; });
    shown.forEach(function (k) {
      var v = list[k].values, lower = new Float64Array(n), upper = new Float64Array(n);
      for (var i = i0; i <= i1; i++) {
        lower[i] = mode === "lines" ? 0 : total[i];
        var x = mode === "share" ? (all[i] > 0 ? v[i] / all[i] : 0) : v[i];
        total[i] += x;
        upper[i] = mode === "lines" ? v[i] : total[i];
      }
      stacks.push([k, lower, upper]);
    });
    // The columns drawn: the samples in view, and the bands' values interpolated at the
    // edges of a zoomed range, so that nothing is drawn outside the graph.
    var cols = [];
    var at = function (t, i, j) { return { t: t, i: i, j: j, f: j === i ? 0 : (t - T[i]) / (T[j] - T[i]) }; };
    if (T[i0] < a && i0 < n - 1) cols.push(at(a, i0, i0 + 1));
    for (var i = i0; i <= i1; i++) if (T[i] >= a && T[i] <= b) cols.push(at(T[i], i, i));
    if (T[i1] > b && i1 > 0) cols.push(at(b, i1 - 1, i1));
    // One column per pixel on the screen: each slice of two pixels keeps two.
    cols = thinned(cols, all, width * scale / 2);
    var val = function (arr, c) { return arr[c.i] * (1 - c.f) + arr[c.j] * c.f; };
    var ymax = 0;
    if (mode === "share") ymax = 1;
    else if (mode === "stacked" && !view && !filter && hidden.size === 0) ymax = P.yr;
    else {
      stacks.forEach(function (s) { cols.forEach(function (c) { ymax = Math.max(ymax, val(s[2], c)); }); });
      // The heap lines stay on the graph, as the picture's own axis holds them.
      heapLines().forEach(function (h) { within(h.points, a, b).forEach(function (p) { ymax = Math.max(ymax, p[1]); }); });
      if (!(ymax > 0)) ymax = 1;
    }
    function X(t) { return left + (t - a) / (b - a) * width; }
    function Y(v) { return bottom - v / ymax * height; }
    geometry = { a: a, b: b, i0: i0, i1: i1, list: list, stacks: stacks, total: all, ymax: ymax, X: X, Y: Y };

    var bands = el("g", {}, layer);
    // Where each column is across, once for every band.
    var xs = new Float64Array(cols.length);
    cols.forEach(function (c, m) { xs[m] = num(X(c.t)); });
    stacks.forEach(function (s) {
      var band = list[s[0]], lower = s[1], upper = s[2], d = "", nc = cols.length, m;
      if (nc === 0) return;
      var U = new Float64Array(nc), L = new Float64Array(nc);
      for (m = 0; m < nc; m++) { U[m] = val(upper, cols[m]); L[m] = val(lower, cols[m]); }
      if (mode === "lines") {
        for (m = 0; m < nc; m++) d += (m ? "L" : "M") + xs[m] + " " + num(Y(U[m]));
        var line = el("path", {
          class: "band-line", d: d, fill: "none", stroke: band.fill, "stroke-width": 1.5,
          "data-band": band.name
        }, bands);
        el("title", {}, line).textContent = band.name;
        return;
      }
      // One outline per stretch where the band is above zero (with the columns either
      // side, where it rises from and falls to zero): the element is where the band is.
      var k = 0, x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity, y;
      var on = function (m) { return m < nc && U[m] > L[m]; };
      while (k < nc) {
        if (!(on(k) || on(k + 1))) { k++; continue; }
        var start = k;
        while (k + 1 < nc && (on(k) || on(k + 1))) k++;
        if (xs[start] < x0) x0 = xs[start];
        if (xs[k] > x1) x1 = xs[k];
        for (m = start; m <= k; m++) {
          y = num(Y(U[m]));
          if (y < y0) y0 = y;
          d += (m === start ? "M" : "L") + xs[m] + " " + y;
        }
        for (m = k; m >= start; m--) {
          y = num(Y(L[m]));
          if (y > y1) y1 = y;
          d += "L" + xs[m] + " " + y;
        }
        d += "Z";
        k++;
      }
      if (d === "") return;
      var path = el("path", {
        d: d, fill: band.fill, stroke: "#ffffff", "stroke-width": 0.25,
        "pointer-events": "fill", "data-band": band.name
      }, bands);
      el("title", {}, path).textContent = band.name;
      centre(path, { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, cols, lower, upper, val, X, Y, room);
    });
    // Heap lines over the bands, on the bytes' scale.
    if (mode !== "share") {
      heapLines().forEach(function (h) {
        var pts = within(h.points, a, b);
        if (pts.length < 2) return;
        var line = el("path", {
          class: "heap-line", fill: "none", stroke: h.stroke, "stroke-width": h.width, "pointer-events": "none",
          "stroke-dasharray": h.dash, "data-line": h.name,
          d: pts.map(function (p, i) { return (i ? "L" : "M") + num(X(p[0])) + " " + num(Y(p[1])); }).join("")
        }, bands);
        el("title", {}, line).textContent = h.name;
      });
      // The allocation rate on its own scale: its peak in the window at the top.
      var rate = rateInView(a, b);
      if (rate) {
        var rline = el("path", {
          class: "heap-line rate", fill: "none", stroke: D.rate_stroke, "stroke-width": 0.75, "pointer-events": "none",
          "data-line": "allocation rate", "data-peak": String(rate.peak),
          d: rate.points.map(function (p, i) { return (i ? "L" : "M") + num(X(p[0])) + " " + num(bottom - p[1] / rate.peak * height); }).join("")
        }, bands);
        el("title", {}, rline).textContent = rateName(rate);
      }
    }
    // The collections along the bottom, with the heap lines, as the picture marks them
    // (src/layout/mod.rs): as wide as each pause, major ones darker and taller, those
    // within half a unit sharing a mark.
    if (heapLines().length && D.runtime && D.runtime.gcs.length) {
      var strip = el("g", { class: "gc-strip", "pointer-events": "none" }, bands);
      el("rect", { x: left, y: bottom - 7, width: width, height: 7, fill: "#fff" }, strip);
      var marks = [];
      D.runtime.gcs.forEach(function (g) {
        if (g[0] < a || g[0] > b) return;
        var x0 = X(g[0]), x1 = Math.max(X(Math.min(g[1], b)), x0 + 0.4), major = g[2] > 0, m = marks[marks.length - 1];
        if (m && x0 <= m[1] + 0.5) { m[1] = Math.max(m[1], x1); m[2] = m[2] || major; } else marks.push([x0, x1, major]);
      });
      marks.forEach(function (m) {
        var h = m[2] ? 6 : 3;
        el("rect", { class: m[2] ? "gc major" : "gc", x: num(m[0]), y: bottom - h, width: num(m[1] - m[0]), height: h, fill: D.gc_fills[m[2] ? 1 : 0] }, strip);
      });
    }
    // Axes: ticks and labels at round values of the range in view.
    var clamp = function (v) { return Math.max(2, Math.min(7, v)); };
    var font = P.font || 10, em = font / 10;
    F.timeTicks(a, b, clamp(width / (70 * em))).forEach(function (t) {
      var x = X(t[0]);
      if (x - left >= width - P.x_legend) return;
      el("path", { class: "tick", d: "M" + x + " " + bottom + "v4", fill: "none" }, layer);
      var label = el("text", { class: "tick-label", x: x, y: bottom + 20 * em - 5, "font-size": font, "text-anchor": "middle", stroke: "none", fill: "black" }, layer);
      label.textContent = t[1];
    });
    valueTicks(ymax, clamp(height / (40 * em))).forEach(function (t) {
      var y = Y(t[0]);
      if (bottom - y >= height - P.y_legend) return;
      el("path", { class: "tick", d: "M" + left + " " + y + "h-4", fill: "none" }, layer);
      var label = el("text", { class: "tick-label", x: left - 5, y: y, "font-size": font, "text-anchor": "end", stroke: "none", fill: "black" }, layer);
      label.textContent = t[1];
    });
    // Marks: a dashed line across the graph, its text above it where there is room,
    // and on hover.
    var lastLabel = -Infinity;
    D.marks.forEach(function (m) {
      if (m.time < a || m.time > b) return;
      var x = X(m.time), text = m.text || "mark";
      el("path", { class: "mark-line", d: "M" + x + " " + top + "V" + bottom, stroke: "#333", "stroke-width": 0.6, "stroke-dasharray": "3 2", fill: "none", "pointer-events": "none" }, layer);
      var caret = el("path", { class: "mark", d: "M" + (x - 4) + " " + (bottom + 5) + "L" + x + " " + bottom + "L" + (x + 4) + " " + (bottom + 5) + "Z", fill: "black" }, layer);
      caret.dataset.text = text;
      el("title", {}, caret).textContent = text + " at " + seconds(m.time);
      if (x - lastLabel > 60 * em) {
        var end = x > left + width - 60 * em;
        var label = el("text", { class: "mark-label", x: end ? x - 2 : x + 2, y: top + 8 * em, "font-size": 7 * em, fill: "#333",
          "text-anchor": end ? "end" : "start", "pointer-events": "none" }, layer);
        label.textContent = text.length > 24 ? text.slice(0, 23) + "…" : text;
        lastLabel = x;
      }
    });
    // The y axis's legend says what the view measures.
    var legend = svg.querySelector('.axis-legend[transform*="rotate"]');
    if (legend) {
      if (legend.dataset.unit === undefined) legend.dataset.unit = legend.textContent;
      var says = mode === "share" ? "share" : legend.dataset.unit;
      if (legend.textContent !== says) legend.textContent = says;
    }
    document.getElementById("zoom-note").hidden = !view;
    drawRuntime(a, b);
    drawKey(list, a, b);
    drawTable();
    // The flame graph follows the window (its mean) and the filter.
    if (flame && (flame.mean || flameFilter !== (filter && filter.source))) reopenFlame();
    flameFilter = filter && filter.source;
    lastDraw = performance.now() - started;
  }

  // More columns than the screen has pixels are thinned as src/analysis/page.rs thins
  // samples: per slice of the width (`bins` of them), the columns of the highest and
  // lowest total, so that no peak or dip is lost. Both ends stay. A drawing step, not a
  // figure: the table and tooltips read every sample the page has.
  function thinned(cols, all, bins) {
    bins = Math.max(1, Math.floor(bins));
    if (cols.length <= 2 * bins) return cols;
    var a = cols[0].t, span = cols[cols.length - 1].t - a, out = [cols[0]], k = 1, last = cols.length - 1;
    var total = function (c) { return all[c.i] * (1 - c.f) + all[c.j] * c.f; };
    for (var b = 0; b < bins && k < last; b++) {
      var edge = a + span * (b + 1) / bins, lo = -1, hi = -1;
      for (; k < last && (cols[k].t <= edge || b === bins - 1); k++) {
        if (lo < 0 || total(cols[k]) < total(cols[lo])) lo = k;
        if (hi < 0 || total(cols[k]) > total(cols[hi])) hi = k;
      }
      if (lo < 0) continue;
      if (lo === hi) out.push(cols[lo]);
      else if (lo < hi) out.push(cols[lo], cols[hi]);
      else out.push(cols[hi], cols[lo]);
    }
    out.push(cols[last]);
    return out;
  }
  // A coordinate as path data: two decimals, without toFixed's cost.
  function num(v) { return Math.round(v * 100) / 100; }

  // Zero-length pieces centre a band path's bounding box on a point of the band, so
  // that "the middle of this element" (where test tools and assistive technology point)
  // is on the band. The centred box must hold the band and stay on the page, which
  // bounds where the point can be; within that, the point is where the band leaves it
  // the most room.
  function centre(path, bb, cols, lower, upper, val, X, Y, room) {
    var best = null, k;
    var xmin = (bb.x + bb.width + room.x0) / 2, xmax = (bb.x + room.x1) / 2;
    var ymin = (bb.y + bb.height + room.y0) / 2, ymax2 = (bb.y + room.y1) / 2;
    for (var q = 0; q <= 16 && xmin <= xmax; q++) {
      var x = xmin + (xmax - xmin) * q / 16;
      // The column pair around x, found by halving.
      var lo = 0, hi = cols.length - 1;
      if (hi < 1 || x < X(cols[0].t) || x > X(cols[hi].t)) continue;
      while (hi - lo > 1) { k = (lo + hi) >> 1; if (X(cols[k].t) <= x) lo = k; else hi = k; }
      var x0 = X(cols[lo].t), x1 = X(cols[hi].t);
      if (x1 <= x0) continue;
      var f = (x - x0) / (x1 - x0);
      var yUp = Y(val(upper, cols[lo]) * (1 - f) + val(upper, cols[hi]) * f);
      var yLo = Y(val(lower, cols[lo]) * (1 - f) + val(lower, cols[hi]) * f);
      var from = Math.max(yUp, ymin), to = Math.min(yLo, ymax2);
      if (to > from && (!best || to - from > best[2])) best = [x, (from + to) / 2, to - from];
    }
    if (best) {
      var hx = Math.max(best[0] - bb.x, bb.x + bb.width - best[0]);
      var hy = Math.max(best[1] - bb.y, bb.y + bb.height - best[1]);
      path.setAttribute("d", path.getAttribute("d") +
        "M" + num(best[0] - hx) + " " + num(best[1] - hy) + "l0 0" +
        "M" + num(best[0] + hx) + " " + num(best[1] + hy) + "l0 0");
    }
  }

  // A line's points within [a, b], and where it crosses a and b (drawn straight
  // between readings, as the pictures draw it), so that it reaches the window's edges.
  function within(points, a, b) {
    var out = [], n = points.length;
    var cross = function (p, q, t) { return [t, p[1] + (q[1] - p[1]) * (t - p[0]) / (q[0] - p[0])]; };
    for (var i = 0; i < n; i++) {
      var p = points[i];
      if (i > 0 && points[i - 1][0] < a && p[0] > a) out.push(cross(points[i - 1], p, a));
      if (p[0] >= a && p[0] <= b) out.push(p);
      if (i > 0 && points[i - 1][0] < b && p[0] > b) { out.push(cross(points[i - 1], p, b)); break; }
    }
    return out;
  }

  // The allocation rate's steps within [a, b] and their highest, or null.
  function rateInView(a, b) {
    var pts = within(D.allocation_rate || [], a, b);
    var peak = pts.reduce(function (m, p) { return Math.max(m, p[1]); }, 0);
    return pts.length > 1 && peak > 0 ? { points: pts, peak: peak } : null;
  }
  function rateName(rate) { return "allocation rate (peak " + W.value(rate.peak) + "/s)"; }

  function heapLines() {
    return [
      { name: "heap size", points: D.heap_size, width: 1.5, dash: "none", stroke: D.line_strokes[0] },
      { name: "blocks in use", points: D.heap_blocks, width: 0.75, dash: "1 2", stroke: D.line_strokes[1] },
      { name: "live bytes", points: D.heap_live, width: 1, dash: "4 2", stroke: D.line_strokes[2] }
    ].filter(function (h) { return h.points.length > 1; });
  }

  // ---- the runtime's figures for the window shown (figures.js) ----
  function drawRuntime(a, b) {
    var panel = document.getElementById("runtime");
    if (!panel) return;
    var R = D.runtime;
    panel.hidden = !R;
    if (!R) return;
    if (R.too_many) {
      panel.textContent = "The runtime: too many collections for the page; hpgraph --stats --from --to gives a window's figures.";
      return;
    }
    var f = F.runtimeFigures(R, a, b);
    var parts = [
      [W.share(f.gcShare) + " of elapsed time in GC", "gc-share", f.gcShare],
      [f.majors + " major collections (" + f.collections + " in all)", "collections", f.collections],
      ["longest pause " + W.time(f.maxPause), "max-pause", f.maxPause]
    ];
    if (f.allocated !== null) parts.push([W.value(f.allocated) + " allocated", "allocated", f.allocated]);
    var items = [document.createTextNode((view ? "This stretch" : "The whole run") + ", by the runtime: ")];
    parts.forEach(function (p, k) {
      if (k) items.push(document.createTextNode(", "));
      var span = html("span", { "data-figure": p[1], "data-value": String(p[2]) }, null, p[0]);
      items.push(span);
    });
    items.push(document.createTextNode(" (as hpgraph --stats --from --to gives them)."));
    panel.replaceChildren.apply(panel, items);
    panel.setAttribute("data-from", String(a));
    panel.setAttribute("data-to", String(b));
  }

  // ---- the key: the drawn bands, top first, and the heap lines ----
  function drawKey(list, a, b) {
    var items = [];
    for (var k = list.length - 1; k >= 0; k--) {
      var s = list[k], off = hidden.has(s.name);
      var li = html("li", { "data-band": s.name, tabindex: "0", role: "button", "aria-pressed": off ? "false" : "true" });
      if (off) li.classList.add("off");
      var sw = html("span", { class: "swatch" }, li);
      sw.style.background = s.fill;
      html("span", {}, li, s.count ? "OTHER (" + s.count + " bands)" : s.name);
      items.push(li);
    }
    if (mode !== "share") {
      heapLines().forEach(function (h) {
        var li = html("li", { class: "line", "data-line": h.name });
        var sw = html("span", { class: "swatch line-swatch" }, li);
        sw.style.borderTopWidth = h.width * 2 + "px";
        sw.style.borderTopStyle = h.dash === "none" ? "solid" : "dashed";
        sw.style.borderTopColor = h.stroke;
        html("span", {}, li, h.name);
        items.push(li);
      });
      var rate = rateInView(a, b);
      if (rate) {
        var li = html("li", { class: "line", "data-line": "allocation rate" });
        var sw = html("span", { class: "swatch line-swatch" }, li);
        sw.style.borderTopWidth = "2px";
        sw.style.borderTopColor = D.rate_stroke;
        html("span", {}, li, rateName(rate));
        items.push(li);
      }
    }
    key.replaceChildren.apply(key, items);
  }

  // ---- the table: every band the page has, the window's figures (figures.js) ----
  function sparkline(values, w, peak) {
    var s = el("svg", { class: "spark", width: 80, height: 16, viewBox: "0 0 80 16", "aria-hidden": "true" });
    var n = w.i1 - w.i0 + 1, buckets = Math.min(40, n), pts = [];
    for (var q = 0; q < buckets; q++) {
      var from = w.i0 + Math.floor(q * n / buckets), to = w.i0 + Math.floor((q + 1) * n / buckets);
      var m = 0;
      for (var i = from; i < Math.max(to, from + 1); i++) m = Math.max(m, values[i]);
      pts.push((buckets > 1 ? q * 79 / (buckets - 1) : 40).toFixed(1) + "," + (15 - (peak > 0 ? m / peak * 14 : 0)).toFixed(1));
    }
    el("polyline", { points: pts.join(" "), fill: "none", stroke: "#333", "stroke-width": 1 }, s);
    return s;
  }
  var tableFor = null; // the window, filter and order the table's rows are for
  var IPE = ["closure", "type", "module", "location"]; // info-table provenance, with -hi
  // A cell: its text as people read it, its exact number in data-value for scripts.
  function cell(tr, text, value, cls) {
    var td = html("td", cls ? { class: cls } : {}, tr, text);
    if (value !== undefined) td.setAttribute("data-value", String(value));
    return td;
  }
  function drawTable() {
    var table = document.getElementById("summary");
    if (!table || !table.tBodies.length) return;
    var wanted = [view && view[0], view && view[1], filter && filter.source, sortBy.key, sortBy.down, D.times.length, individuals.length].join("|");
    if (wanted === tableFor) return;
    tableFor = wanted;
    var range = view || fullRange(), w = windowOf(range[0], range[1]);
    var win = F.windowFigures(D.times, D.totals, w.i0, w.i1, D.trend);
    // A band without a value in a zoomed window is not in it, as --summary --from --to
    // leaves it out.
    var data = [];
    individuals.forEach(function (s) {
      if (w.empty || (filter && !filter.test(s.name))) return;
      var st = win.figures(s.values), ipe = s.ipe || {};
      if (view && !(st.peak > 0)) return;
      st.s = s; st.name = s.name;
      IPE.forEach(function (c) { st[c] = ipe[c] || ""; });
      data.push(st);
    });
    var k = sortBy.key, sign = sortBy.down ? -1 : 1;
    data.sort(function (x, y) {
      var p = x[k], q = y[k];
      if (typeof p === "string") return sign * (p < q ? -1 : p > q ? 1 : 0);
      return sign * (p - q) || (y.share - x.share);
    });
    var body = document.createElement("tbody");
    data.forEach(function (r) {
      var tr = html("tr", { class: r.trend, "data-band": r.name }, body);
      html("td", { class: "spark" }, tr).appendChild(sparkline(r.s.values, w, r.peak));
      cell(tr, r.name, undefined, "name");
      cell(tr, W.share(r.share), r.share);
      cell(tr, human(r.peak), r.peak);
      cell(tr, seconds(r.at), r.at);
      cell(tr, human(r.mean), r.mean);
      cell(tr, W.growth(r.growth), r.growth);
      cell(tr, W.r2(r.r2), r.r2);
      cell(tr, r.trend, r.trend);
      if (D.ipe) IPE.forEach(function (c) { cell(tr, r[c], undefined, "name"); });
    });
    if (D.rest && !filter) {
      var tr = html("tr", { class: "total" }, body);
      html("td", {}, tr);
      html("td", { class: "name" }, tr, D.rest[0] + " smaller bands, not on their own in this page: --summary lists them");
    }
    table.replaceChild(body, table.tBodies[0]);
    // The window the figures are over, in the profile's time unit, for scripts too.
    table.setAttribute("data-from", String(range[0]));
    table.setAttribute("data-to", String(range[1]));
    table.setAttribute("data-trend-from", String(win.trendFrom));
    table.setAttribute("data-trend-to", String(win.trendTo));
    var caption = document.getElementById("table-window");
    if (caption) {
      caption.textContent = w.empty ? "no census in the window " + seconds(range[0]) + " to " + seconds(range[1]) :
        (view ? "the window " + seconds(range[0]) + " to " + seconds(range[1]) : "the whole run") +
        (filter ? ", bands matching the filter" : "") + " · " + data.length + " bands · trend over its last quarter, " +
        seconds(win.trendFrom) + " to " + seconds(win.trendTo) + ", where a line explains R² ≥ " + D.trend.r2 + " of the movement";
    }
    table.querySelectorAll("th[data-sort]").forEach(function (th) {
      th.setAttribute("aria-sort", th.dataset.sort === sortBy.key ? (sortBy.down ? "descending" : "ascending") : "none");
    });
  }

  // ---- the pointer ----
  function svgPoint(ev) {
    var m = svg && svg.getScreenCTM();
    if (!m) return null;
    var p = svg.createSVGPoint();
    p.x = ev.clientX; p.y = ev.clientY;
    return p.matrixTransform(m.inverse());
  }
  function nearest(t) {
    var g = geometry, T = D.times, best = g.i0;
    for (var i = g.i0; i <= g.i1; i++) if (Math.abs(T[i] - t) < Math.abs(T[best] - t)) best = i;
    return best;
  }
  // The tooltip: its lines, the first in bold when `bold`. Each reaches the page as
  // text, never as markup: a profile's names and units are not the page's to run.
  function showTip(ev, lines, bold, data) {
    tip.replaceChildren();
    lines.forEach(function (line, k) {
      if (k) tip.appendChild(document.createElement("br"));
      var node = document.createTextNode(line);
      if (k === 0 && bold) {
        var b = document.createElement("b");
        b.appendChild(node);
        node = b;
      }
      tip.appendChild(node);
    });
    tip.hidden = false;
    var r = box.getBoundingClientRect();
    var x = ev.clientX - r.left + 14, y = ev.clientY - r.top + 14;
    if (x + tip.offsetWidth > r.width) x = Math.max(0, ev.clientX - r.left - tip.offsetWidth - 14);
    tip.style.left = x + "px";
    tip.style.top = y + "px";
    for (var k in data) tip.dataset[k] = data[k];
  }
  function move(ev) {
    if (!D || !geometry) return;
    var p = svgPoint(ev);
    if (!p) return;
    pointer = { clientX: ev.clientX, clientY: ev.clientY };
    if (drag) {
      drag.x1 = Math.max(left, Math.min(left + width, p.x));
      drag.rect.setAttribute("x", Math.min(drag.x0, drag.x1));
      drag.rect.setAttribute("width", Math.abs(drag.x1 - drag.x0));
      return;
    }
    if (ev.target.classList && ev.target.classList.contains("mark")) {
      showTip(ev, [ev.target.dataset.text], false, { band: "", text: ev.target.dataset.text });
      return;
    }
    if (p.x < left || p.x > left + width || p.y < top || p.y > bottom) { tip.hidden = true; return; }
    var g = geometry, t = g.a + (p.x - left) / width * (g.b - g.a), i = nearest(t);
    var v = (bottom - p.y) / height * g.ymax, name = ev.target.getAttribute && ev.target.getAttribute("data-band");
    if (!name) {
      var best = Infinity;
      g.stacks.forEach(function (s) {
        if (mode === "lines") {
          var dist = Math.abs(g.Y(s[2][i]) - p.y);
          if (dist < 6 && dist < best) { best = dist; name = g.list[s[0]].name; }
        } else if (v >= s[1][i] && v < s[2][i]) name = g.list[s[0]].name;
      });
    }
    var time = seconds(D.times[i]), all = g.total[i];
    if (!name) {
      showTip(ev, [time, "all shown bands: " + human(all)], false, { band: "", time: D.times[i], value: all });
      return;
    }
    var band = g.list.find(function (b) { return b.name === name; });
    var value = band.values[i], share = W.share(all > 0 ? value / all : 0);
    showTip(ev, [band.count ? "OTHER (" + band.count + " bands)" : name, human(value) + " (" + share + " of the shown heap) at " + time], true,
      { band: name, time: D.times[i], value: value });
  }
  box.addEventListener("mousemove", move);
  box.addEventListener("mouseleave", function () { tip.hidden = true; pointer = null; });
  box.addEventListener("mousedown", function (ev) {
    if (!D) return;
    var p = svgPoint(ev);
    if (!p || p.x < left || p.x > left + width || p.y < top || p.y > bottom || ev.button !== 0) return;
    ev.preventDefault();
    drag = { x0: p.x, x1: p.x, rect: el("rect", { class: "zoom", x: p.x, y: top, width: 0, height: height, fill: "rgba(0,90,200,0.15)", stroke: "none" }, layer) };
  });
  window.addEventListener("mouseup", function () {
    if (!drag) return;
    var d = drag, g = geometry;
    drag = null;
    d.rect.remove();
    var t = function (x) { return g.a + (x - left) / width * (g.b - g.a); };
    // A click opens that census as a flame graph; a drag zooms.
    if (Math.abs(d.x1 - d.x0) < 3) { openFlame(nearest(t(d.x0))); return; }
    zoom(t(Math.min(d.x0, d.x1)), t(Math.max(d.x0, d.x1)));
  });
  box.addEventListener("dblclick", function () { zoom(null); });
  function zoom(a, b) { view = a === null ? null : [a, b]; draw(); }

  // ---- the key ----
  function toggle(entry) {
    var name = entry.getAttribute("data-band");
    if (hidden.has(name)) hidden.delete(name); else hidden.add(name);
    draw();
  }
  var key = document.getElementById("key");
  key.addEventListener("click", function (ev) {
    var entry = ev.target.closest("[data-band]");
    if (entry) toggle(entry);
  });
  key.addEventListener("keydown", function (ev) {
    var entry = ev.target.closest("[data-band]");
    if (entry && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); toggle(entry); }
  });
  document.getElementById("reset").addEventListener("click", function () { zoom(null); });

  // ---- the controls: view, filter, sorting ----
  var viewChoice = document.getElementById("view");
  viewChoice.addEventListener("change", function () { setView(viewChoice.value); });
  function setView(m) { mode = m; viewChoice.value = m; draw(); }
  var filterBox = document.getElementById("filter"), filterNote = document.getElementById("filter-note");
  filterBox.addEventListener("input", function () { setFilter(filterBox.value); });
  function setFilter(text) {
    filterBox.value = text;
    if (!text) { filter = null; filterNote.textContent = ""; filterBox.removeAttribute("aria-invalid"); draw(); return; }
    try {
      filter = new RegExp(text, "i");
      filterBox.removeAttribute("aria-invalid");
      var n = individuals.filter(function (s) { return filter.test(s.name); }).length;
      filterNote.textContent = n + " of " + individuals.length + " bands match";
    } catch (e) {
      filterBox.setAttribute("aria-invalid", "true");
      filterNote.textContent = "not a regular expression: " + e.message;
      return;
    }
    draw();
  }
  document.querySelectorAll("#summary th[data-sort]").forEach(function (th) {
    th.addEventListener("click", function () {
      var k = th.dataset.sort;
      var words = k === "name" || IPE.indexOf(k) >= 0;
      sortBy = { key: k, down: sortBy.key === k ? !sortBy.down : !words };
      drawTable();
    });
  });

  // ---- the flame graph of one census ----
  var flameBox = document.getElementById("flame");
  // The flame graph's rows at most: a frame at the last row stands for all under it.
  var MAX_ROWS = 60;
  var flameInfo = document.getElementById("flame-info");
  // A census (or the window's mean) as a tree of frames: each band's stack, outermost
  // first, as the library split its name (indices into D.frames, each with its colour in
  // D.frame_fills). Inverted, each stack goes in from its innermost frame. Only the bands
  // the filter box lets through.
  function tree(weigh, inverted) {
    var root = { name: "all", bytes: 0, own: 0, kids: new Map(), parent: null, depth: 0 };
    var add = function (stack, v, cut, placed) {
      var at = root, n = stack.length;
      root.bytes += v;
      for (var k = 0; k < n; k++) {
        var d = inverted ? n - 1 - k : k, f = stack[d];
        var next = at.kids.get(f);
        if (!next) {
          next = { name: D.frames[f], fill: D.frame_fills[f], bytes: 0, own: 0, kids: new Map(), parent: at, depth: at.depth + 1, cut: cut && d === 0,
            placed: placed !== undefined && placed !== null && d === placed };
          at.kids.set(f, next);
        }
        next.bytes += v;
        at = next;
      }
      at.own += v;
    };
    individuals.forEach(function (s) {
      if (filter && !filter.test(s.name)) return;
      var v = weigh(s.values);
      if (v > 0) add(s.stack, v, s.cut, s.placed);
    });
    if (!filter && D.rest) {
      var v = weigh(D.rest[1].values);
      if (v > 0) add(D.rest[1].stack, v, false);
    }
    return root;
  }
  function stackOf(node) {
    var out = [];
    for (var n = node; n && n.parent; n = n.parent) out.push(n.name);
    // GHC's order, innermost first: an inverted graph's path from its root already is.
    if (flame && flame.inverted) out.reverse();
    return out.join("/");
  }
  // Opens (or redraws) the flame graph: `index` a census, or null for the mean of the
  // window shown; the graph follows the zoom, the filter and the inverted box.
  function openFlame(index, mean) {
    var inverted = document.getElementById("flame-inverted").checked;
    var range = view || fullRange(), w = windowOf(range[0], range[1]);
    var weigh = mean
      ? function (v) { return F.windowMean(D.times, v, w.i0, w.i1); }
      : function (v) { return v[index]; };
    flame = { index: index, mean: !!mean, inverted: inverted, from: D.times[w.i0], to: D.times[w.i1] };
    flame.root = tree(weigh, inverted);
    flame.focus = flame.root;
    flameBox.hidden = false;
    if (mean) {
      flameBox.removeAttribute("data-time");
      // The window as the table states it; the title says which samples it spans.
      flameBox.setAttribute("data-from", range[0]);
      flameBox.setAttribute("data-to", range[1]);
    } else {
      flameBox.setAttribute("data-time", D.times[index]);
      flameBox.removeAttribute("data-from");
      flameBox.removeAttribute("data-to");
    }
    flameBox.setAttribute("data-inverted", inverted ? "true" : "false");
    drawFlame();
  }
  function reopenFlame() {
    if (flame) openFlame(flame.mean ? null : Math.min(flame.index, D.times.length - 1), flame.mean);
  }
  function drawFlame() {
    var f = flame, root = f.root, focus = f.focus;
    var W = Math.max(300, flameBox.clientWidth || 800), ROW = 18;
    var depth = 0;
    (function walk(n) { depth = Math.max(depth, n.depth); n.kids.forEach(walk); })(root);
    var rows = Math.min(depth + 1, MAX_ROWS);
    var s = document.getElementById("flame-svg");
    s.setAttribute("viewBox", "0 0 " + W + " " + rows * ROW);
    s.setAttribute("height", rows * ROW);
    s.textContent = "";
    var what = f.mean
      ? "Each stack's mean from " + seconds(f.from) + " to " + seconds(f.to)
      : "The heap at " + seconds(D.times[f.index]);
    if (filter) what += " (bands matching the filter)";
    if (f.inverted) what += ", inverted (what holds the bytes at the bottom)";
    document.getElementById("flame-title").textContent = what + ": " +
      human(root.bytes) + (focus !== root ? " · within " + stackOf(focus) + " (click all to see everything)" : " · click a frame to zoom into it");
    var scale = focus.bytes > 0 ? W / focus.bytes : 0;
    var drawn = 0;
    // The focus's callers span the width; its callees share it by bytes.
    for (var up = focus; up; up = up.parent) box1(up, 0, W);
    function box1(n, x, w) {
      var y = (rows - 1 - n.depth) * ROW;
      if (n.depth >= MAX_ROWS) return;
      var g = el("g", { class: "frame", "data-stack": nameOf(n), "data-bytes": n.bytes, "data-own": n.own }, s);
      var rect = el("rect", { x: x.toFixed(2), y: y, width: Math.max(0, w - 0.5).toFixed(2), height: ROW - 1, fill: n === root ? "#c8c8c8" : n.narrow ? "#e0e0e0" : n.cut ? "#999" : n.fill || D.other_fill, rx: 1 }, g);
      if (n.self) rect.setAttribute("fill-opacity", "0.5");
      if (w > 30) {
        var t = el("text", { x: (x + 3).toFixed(2), y: y + 12.5, "font-size": 11, fill: "#111" }, g);
        var room = Math.floor((w - 6) / 6.2), label = n.name;
        t.textContent = label.length > room ? label.slice(0, Math.max(1, room - 1)) + "…" : label;
      }
      el("title", {}, g).textContent = describe(n);
      g.node = n;
      n.g = g;
      drawn++;
    }
    // Callees narrower than half a pixel are one grey box per caller, after the others;
    // a frame at the last row stands for everything under it.
    (function place(n, x) {
      var cx = x, narrow = { bytes: 0, count: 0 };
      // What the stack holds itself, paler, before its callees: the boxes with nothing
      // on them add up to the census, as in the figures hpgraph draws.
      if (n.own > 0 && n.kids.size > 0 && n.depth + 1 < MAX_ROWS) {
        var ow = n.own * scale;
        if (ow >= 0.5) {
          box1({ name: n.name, fill: n.fill, stackText: nameOf(n) + " (its own)", self: true, bytes: n.own, own: n.own, kids: new Map(), parent: n, depth: n.depth + 1 }, cx, ow);
          cx += ow;
        } else { narrow.bytes += n.own; narrow.count++; }
        if (n.g) n.g.setAttribute("data-own", 0);
      }
      Array.from(n.kids.values()).sort(function (p, q) { return p.name < q.name ? -1 : p.name > q.name ? 1 : 0; })
        .forEach(function (c) {
          var w = c.bytes * scale;
          if (w >= 0.5 && c.depth < MAX_ROWS) { box1(c, cx, w); place(c, cx); cx += w; }
          else { narrow.bytes += c.bytes; narrow.count++; }
        });
      if (narrow.count && n.depth + 1 < MAX_ROWS) {
        box1({ name: narrow.count + " narrower parts", bytes: narrow.bytes, own: narrow.bytes, kids: new Map(), parent: n, depth: n.depth + 1, narrow: true }, cx, narrow.bytes * scale);
      } else if (narrow.count && n.g) {
        n.g.setAttribute("data-own", n.own + narrow.bytes);
      }
    })(focus, 0);
    f.drawn = drawn;
  }
  function nameOf(n) { return n.stackText || (n.parent ? stackOf(n) : "all"); }
  function describe(n) {
    var text = nameOf(n) + ": " + human(n.bytes) + " (" + W.share(flame.root.bytes > 0 ? n.bytes / flame.root.bytes : 0) + ")";
    if (n.own > 0 && n.own < n.bytes && !n.self) text += ", its own " + human(n.own);
    if (n.cut) text += " (GHC cut this name at -L: its callers are unknown)";
    if (n.placed) text += " (GHC cut this stack at -L: placed under the frame its kept name begins)";
    return text;
  }
  var flameSvg = document.getElementById("flame-svg");
  flameSvg.addEventListener("mousemove", function (ev) {
    var g = ev.target.closest && ev.target.closest("g.frame");
    flameInfo.textContent = g && g.node ? describe(g.node) : "";
  });
  flameSvg.addEventListener("click", function (ev) {
    var g = ev.target.closest && ev.target.closest("g.frame");
    if (!g || !g.node || g.node.narrow || g.node.self) return;
    flame.focus = g.node === flame.focus ? (g.node.parent || g.node) : g.node;
    drawFlame();
  });
  document.getElementById("flame-close").addEventListener("click", function () { flameBox.hidden = true; flame = null; });
  document.getElementById("flame-mean").addEventListener("click", function () { openFlame(null, true); });
  document.getElementById("flame-inverted").addEventListener("change", reopenFlame);

  // Takes up the page's data and chart (at load, and after each live update).
  function install() {
    D = JSON.parse(document.getElementById("hpgraph-data").textContent);
    svg = box.querySelector("svg");
    layer = null;
    geometry = null;
    if (!D || !svg) { D = null; return; }
    page = svg.querySelectorAll(":scope > g")[D.plot.page];
    P = D.plot;
    left = P.x; top = P.y; width = P.w; height = P.h; bottom = P.y + P.h;
    W = F.writer(D.scale, D.time_unit);
    tableFor = null;
    individuals = D.bands.filter(function (b) { return !b.other; })
      .concat(D.pool);
    // A zoom outside the run (a new run started) is forgotten.
    if (view) {
      var f = fullRange();
      if (view[1] <= f[0] || view[0] >= f[1]) view = null;
    }
    draw();
    if (!flame && D.flame_inverted) document.getElementById("flame-inverted").checked = true;
    if (flame) reopenFlame();
    else if (D.flame_mean) openFlame(null, true);
    else if (D.flame_at !== null && D.flame_at !== undefined) {
      var T = D.times, best = 0;
      for (var i = 0; i < T.length; i++) if (Math.abs(T[i] - D.flame_at) < Math.abs(T[best] - D.flame_at)) best = i;
      openFlame(best);
    }
  }
  install();
  var readyAt = performance.now();

  // ---- live: follow the server ----
  var updates = 0;
  if (document.body.hasAttribute("data-live")) follow();
  function follow() {
    var status = document.getElementById("live-status");
    var shown = null; // the server and version the page shows
    var busy = false, again = null;
    function say(state, text) {
      status.setAttribute("data-status", state);
      status.textContent = text;
    }
    function clock() { return new Date().toLocaleTimeString(); }
    function swap(doc) {
      ["h1", ".about", "#hpgraph-data"].forEach(function (sel) {
        var mine = document.querySelector(sel), theirs = doc.querySelector(sel);
        if (mine && theirs) mine.replaceWith(document.adoptNode(theirs));
      });
      var chart = doc.querySelector("#chart svg"), old = box.querySelector("svg");
      if (chart) {
        chart = document.adoptNode(chart);
        if (old) old.replaceWith(chart); else box.insertBefore(chart, box.firstChild);
      }
      install();
      if (pointer && !tip.hidden) {
        move({ clientX: pointer.clientX, clientY: pointer.clientY,
          target: document.elementFromPoint(pointer.clientX, pointer.clientY) || svg });
      }
    }
    function fetchPage(want) {
      if (busy) { again = want; return; }
      busy = true;
      fetch("/", { cache: "no-store" }).then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.text();
      }).then(function (text) {
        swap(new DOMParser().parseFromString(text, "text/html"));
        shown = want;
        updates++;
      }).catch(function () {}).then(function () {
        busy = false;
        if (again) { var next = again; again = null; fetchPage(next); }
      });
    }
    function connect() {
      var source = new EventSource("/events");
      source.onmessage = function (ev) {
        var e = JSON.parse(ev.data), at = e.server + "/" + e.version;
        if (e.status === "waiting") say("waiting", "waiting for the program to write its profile…");
        else if (e.status === "restarted") say("restarted", "the program started again: waiting for its first samples (the last run is shown)");
        else if (e.status === "ended") say("ended", "ended · " + e.samples + " samples · the program's stream is closed (the last picture is shown)");
        else if (e.status === "reconnecting") say("reconnecting", "lost the program's eventlog: connecting again… (the last picture is shown)");
        else say("live", "live · " + e.samples + " samples · updated " + clock());
        if ((e.status === "live" || e.status === "ended") && at !== shown) fetchPage(at);
      };
      source.onerror = function () {
        say("reconnecting", "lost the connection to hpgraph: reconnecting…");
        // The browser retries by itself unless the stream failed for good.
        if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
      };
    }
    connect();
  }

  // For scripts, tests and the benchmark: the numbers the page draws, how many live
  // updates it took, and the controls a reader has, each redrawing at once.
  window.hpgraph = {
    data: function () { return D; },
    updates: function () { return updates; },
    zoom: zoom,
    window: function () { return view || fullRange(); },
    view: setView,
    filter: setFilter,
    flame: function (t) { openFlame(nearest(t)); return flame.drawn; },
    flameMean: function () { openFlame(null, true); return flame.drawn; },
    flameInverted: function (on) { document.getElementById("flame-inverted").checked = !!on; reopenFlame(); return flame && flame.drawn; },
    maxFlameRows: MAX_ROWS,
    keyNames: function () { return geometry ? geometry.list.map(function (s) { return s.name; }).reverse() : []; },
    lastDraw: function () { return lastDraw; },
    readyAt: function () { return readyAt; }
  };
})();
