// hpgraph's interactive page: hover, hide bands from the key, drag to zoom (the key and table
// rank that window's bands), a filter, three views, a census's flame graph on a click. The
// library prepared all it draws (src/analysis/page): the series at every resolution, flame
// frames in order, each line's name, width and colour; this script picks, scales, draws and
// reacts, computing only a window's figures (figures.js). A `--serve` page swaps in each new page.
(function () {
  "use strict";
  var F = hpgraphFigures, H = hpgraphDom, el = H.el, attrs = H.attrs, bisect = H.bisect, byId = document.getElementById.bind(document);
  var box = byId("chart"), tip = byId("tooltip"), key = byId("key"), flameBox = byId("flame"), flameSvg = byId("flame-svg");
  var D = null, W = null, P = null, svg = null, page = null, layer = null, individuals = [], left = 0, top = 0, width = 1, height = 1, bottom = 1, axis = 1, rateTop = 1, rateBottom = 1, samplesBottom = 1;
  var hidden = new Set(), view = null, mode = "stacked", filter = null, sortBy = { key: "share", down: true }, IPE = ["closure", "type", "module", "location"];
  var markFrom = null, member = null, lists = null, costs = null, samples = null, span = null, screen = null, drag = null, geometry = null, pointer = null, flame = null, flameFilter = null, lastDraw = 0, rowsFor = null, rows = null, tableFor = null, tableSoon = null;

  function titled(name, map, parent, title) { var e = el(name, map, parent); el("title", {}, e, title); return e; }
  function fullRange() { return [P.t0, P.t0 + P.xr]; }
  function num(v) { return Math.round(v * 100) / 100; }
  var first = function (p) { return p[0]; };
  // The samples within [a, b]; `empty` when none is (i0 is then the one after).
  function windowOf(a, b) {
    var T = D.times, i0 = bisect(T, a), i1 = bisect(T, b, null, true) - 1, j = Math.max(0, Math.min(i0, T.length - 1));
    return i1 < i0 ? { i0: j, i1: j, empty: true } : { i0: i0, i1: i1, empty: false };
  }
  // A band is shown when it matches the filter and, with a member chosen in the members' table, its set holds it.
  function passes(s) { return (!filter || filter.test(s.name)) && (!member || member.bands.has(s)); }
  function narrowed() { return !!(filter || member); }
  function narrowing() { return [filter && filter.source, member && member.name].join("|"); }
  // ---- the window: the table's figures (figures.js) and the key's ranking ----
  function windowRows() {
    var range = view || fullRange(), want = [range, narrowing()].join("|");
    if (want === rowsFor) return rows;
    var w = windowOf(range[0], range[1]), win = F.windowFigures(D.times, D.totals, w.i0, w.i1, D.trend), list = [];
    individuals.forEach(function (s) { var st = !w.empty && passes(s) && win.figures(s.values); if (st && (!view || st.peak > 0)) list.push(Object.assign(st, { s: s, name: s.name })); });
    return (rowsFor = want, rows = { range: range, w: w, win: win, list: list });
  }
  // Bottom first. Unzoomed and unfiltered, the picture's selection; else the window's bands as
  // its table ranks them (figures.js windowKey), those past the key's room OTHER.
  function series() {
    if (!view && !narrowed()) return D.bands;
    var list = windowRows().list, rest = !narrowed() && D.rest ? [D.rest[1]] : [], sum = new Float64Array(D.times.length);
    var k = F.windowKey(list.map(function (r) { return r.share; }), list.map(function (r) { return r.s.id; }), D.key_entries > 0 ? D.key_entries : Infinity, rest.length), over = k.own < k.order.length;
    var band = function (i) { return list[i].s; }, merged = k.order.slice(k.own).map(band).concat(rest);
    merged.forEach(function (s) { s.values.forEach(function (v, i) { sum[i] += v; }); });
    return (merged.length ? [{ name: over ? "OTHER" : rest[0].name, fill: D.other_fill, values: sum, other: true, count: over ? merged.length : 0 }] : []).concat(k.order.slice(0, k.own).reverse().map(band));
  }
  // ---- drawing ----
  // The columns drawn in [a, b], `px` at most: the finest level that fits; values interpolated at the edges.
  function columns(a, b, px) {
    var T = D.times, w = windowOf(a, b), cols = [], n = w.i1 - w.i0 + 1, i;
    var at = function (t, i, j) { return { t: t, i: i, j: j, f: j === i ? 0 : (t - T[i]) / (T[j] - T[i]) }; };
    if (w.empty) return w.i0 > 0 ? [at(a, w.i0 - 1, w.i0), at(b, w.i0 - 1, w.i0)] : [];
    if (w.i0 > 0 && T[w.i0] > a) cols.push(at(a, w.i0 - 1, w.i0));
    var level = D.levels.find(function (l) { return n * 2 / l.bin <= px; }) || D.levels[D.levels.length - 1];
    if (n <= px || !level) for (i = w.i0; i <= w.i1; i++) cols.push(at(T[i], i, i));
    else {
      var S = level.samples, q = bisect(S, w.i0), end = bisect(S, w.i1, null, true);
      if (S[q] !== w.i0) cols.push(at(T[w.i0], w.i0, w.i0));
      for (; q < end; q++) cols.push(at(T[S[q]], S[q], S[q]));
      if (S[end - 1] !== w.i1) cols.push(at(T[w.i1], w.i1, w.i1));
    }
    if (w.i1 < T.length - 1 && T[w.i1] < b) cols.push(at(b, w.i1, w.i1 + 1));
    return cols;
  }
  function draw() {
    if (!D) return;
    var started = performance.now(), range = view || fullRange(), a = range[0], b = range[1], list = series(), m;
    if (!layer) {
      // The script draws from now on: the picture the file carries steps aside.
      svg.querySelectorAll(".band, .tick, .tick-label, .mark, .heap-line, .panel-label, .collection, .capability, .sample, .unobserved").forEach(function (e) { e.remove(); });
      layer = el("g", { id: "layer" }, page);
    }
    layer.textContent = "";
    // Where the chart is on the screen: asked once (asking lays the page out), again on a resize.
    var ctm = screen || (screen = svg.getScreenCTM() && { a: svg.getScreenCTM().a, e: svg.getScreenCTM().e + window.scrollX });
    var cols = columns(a, b, width * (ctm ? ctm.a : 1) / 2), nc = cols.length, shown = list.filter(function (s) { return !hidden.has(s.name); });
    var val = function (v, c) { return c.f ? v[c.i] * (1 - c.f) + v[c.j] * c.f : v[c.i]; };
    var total = new Float64Array(nc), all = new Float64Array(nc), ymax = 0;
    shown.forEach(function (s) { for (m = 0; m < nc; m++) all[m] += val(s.values, cols[m]); });
    var stacks = shown.map(function (s) {
      for (var L = new Float64Array(nc), U = new Float64Array(nc), v, m = 0; m < nc; m++) {
        v = val(s.values, cols[m]); L[m] = mode === "lines" ? 0 : total[m];
        ymax = Math.max(ymax, U[m] = mode === "lines" ? v : (total[m] += mode === "share" ? (all[m] > 0 ? v / all[m] : 0) : v));
      }
      return { band: s, L: L, U: U };
    });
    // The heap lines stay on the graph, as the picture's own axis holds them.
    D.lines.forEach(function (l) { if (!l.rate) within(l.points, a, b).forEach(function (p) { ymax = Math.max(ymax, p[1]); }); });
    ymax = mode === "share" ? 1 : mode === "stacked" && !view && !narrowed() && hidden.size === 0 ? P.yr : ymax > 0 ? ymax : 1;
    var X = function (t) { return left + (t - a) / (b - a) * width; }, Y = function (v) { return bottom - v / ymax * height; };
    var g = el("g", {}, layer), xs = cols.map(function (c) { return num(X(c.t)); }), room = roomOf(ctm);
    geometry = { a: a, b: b, list: list, ymax: ymax, Y: Y };
    drawUnobserved(g, a, b, X);
    stacks.forEach(function (s) { drawBand(g, s, xs, Y, room); });
    if (mode !== "share") { geometry.rate = drawLines(g, a, b, X, Y); drawStrip(g, a, b); }
    drawAxes(ymax, X, Y, a, b); drawMarks(a, b, X);
    drawSampleRow(el("g", { class: "samples-row" }, layer), a, b, X);
    var legend = svg.querySelector('.axis-legend[transform*="rotate"]') || {}, said = legend.dataset || {};
    said.unit = said.unit || legend.textContent; legend.textContent = mode === "share" ? "share" : said.unit;
    byId("zoom-note").hidden = !view;
    drawRuntime(a, b); drawKey(list); followWindow();
    // The table follows when the browser is idle: the chart answers first.
    if (!tableSoon) tableSoon = requestIdleCallback(flush, { timeout: 300 });
    // The flame graph follows the window (its mean) and the filter.
    if (flame && (flame.mean || flameFilter !== narrowing())) reopenFlame();
    flameFilter = narrowing();
    lastDraw = performance.now() - started;
  }
  // The stretch of [a, b] before the first census, shaded and named where its name fits, as the picture (bands.rs unobserved).
  function drawUnobserved(g, a, b, X) {
    var T = D.times, x0 = X(a), w = X(Math.min(b, T[0])) - x0, font = P.font || 10, em = font / 10, fits = function (e) { return !e.getComputedTextLength || e.getComputedTextLength() <= w - em * 10; };
    if (!(T.length && P.t0 < T[0]) || w < 0.5) return;
    titled("path", { class: "unobserved", d: "M" + num(x0) + " " + num(top) + "h" + num(w) + "v" + num(height) + "h" + num(-w) + "Z", fill: D.unobserved_fill, stroke: "none" }, g, D.unobserved_names[0]);
    var label = el("text", { class: "unobserved", x: num(x0 + em * 5), y: num(top + font * 1.2), "font-size": font, stroke: "none", fill: "black", "pointer-events": "none" }, g, D.unobserved_names[0]);
    if (!fits(label)) label.textContent = D.unobserved_names[1];
    if (!fits(label)) label.remove();
  }
  // A band: an outline per stretch above zero (and the columns either side), or its line.
  function drawBand(g, s, xs, Y, room) {
    var U = s.U, L = s.L, nc = xs.length, d = "", m, k = 0, bb = { x: Infinity, y: Infinity, x1: -Infinity, y1: -Infinity }, y;
    for (m = 0; mode === "lines" && m < nc; m++) d += (m ? "L" : "M") + xs[m] + " " + num(Y(U[m]));
    if (mode === "lines") return nc && titled("path", { class: "band-line", d: d, fill: "none", stroke: s.band.fill, "stroke-width": 1.5, "data-band": s.band.name }, g, s.band.name);
    var on = function (m) { return m < nc && U[m] > L[m]; };
    for (; k < nc; k++) {
      if (!(on(k) || on(k + 1))) continue;
      var start = k;
      while (k + 1 < nc && (on(k) || on(k + 1))) k++;
      bb.x = Math.min(bb.x, xs[start]); bb.x1 = Math.max(bb.x1, xs[k]);
      for (m = start; m <= k; m++) { y = num(Y(U[m])); bb.y = Math.min(bb.y, y); d += (m === start ? "M" : "L") + xs[m] + " " + y; }
      for (m = k; m >= start; m--) { y = num(Y(L[m])); bb.y1 = Math.max(bb.y1, y); d += "L" + xs[m] + " " + y; }
      d += "Z";
    }
    if (d) centre(titled("path", { d: d, fill: s.band.fill, "pointer-events": "fill", "data-band": s.band.name }, g, s.band.name), bb, xs, U, L, Y, room);
  }
  // Zero-length pieces centre a band path's box on the band, where tools and assistive
  // technology point: within the page's reach, where the band leaves the most room.
  function roomOf(ctm) {
    var vb = svg.viewBox.baseVal, pages = svg.querySelectorAll(":scope > g").length || 1, pageTop = vb.height / pages * P.page;
    return { x0: vb.x - Math.min(40, ctm ? ctm.e / ctm.a : 0), x1: vb.x + vb.width + 40, y0: pageTop - 40, y1: pageTop + vb.height / pages + 40 };
  }
  function centre(path, bb, xs, U, L, Y, room) {
    var best = null, xmin = (bb.x1 + room.x0) / 2, xmax = (bb.x + room.x1) / 2, ymin = (bb.y1 + room.y0) / 2, ymax = (bb.y + room.y1) / 2;
    for (var q = 0; q <= 16 && xmin <= xmax && xs.length > 1; q++) {
      var x = xmin + (xmax - xmin) * q / 16, hi = bisect(xs, x), lo = hi - 1;
      if (hi === 0 || hi >= xs.length || xs[hi] <= xs[lo]) continue;
      var f = (x - xs[lo]) / (xs[hi] - xs[lo]), from = Math.max(Y(U[lo] * (1 - f) + U[hi] * f), ymin), to = Math.min(Y(L[lo] * (1 - f) + L[hi] * f), ymax);
      if (to > from && (!best || to - from > best[2])) best = [x, (from + to) / 2, to - from];
    }
    if (!best) return;
    var hx = Math.max(best[0] - bb.x, bb.x1 - best[0]), hy = Math.max(best[1] - bb.y, bb.y1 - best[1]), c = function (x, y) { return "M" + num(x) + " " + num(y) + "l0 0"; };
    path.setAttribute("d", path.getAttribute("d") + c(best[0] - hx, best[1] - hy) + c(best[0] + hx, best[1] + hy));
  }
  // A line's points within [a, b], and where it crosses a and b, as the pictures draw it.
  function within(points, a, b) {
    var i = Math.max(1, bisect(points, a, first)), out = [];
    var cross = function (p, q, t) { return [t, p[1] + (q[1] - p[1]) * (t - p[0]) / (q[0] - p[0])]; };
    if (i < points.length && points[i - 1][0] < a) out.push(cross(points[i - 1], points[i], a));
    for (i = i - 1; i < points.length && points[i][0] <= b; i++) if (points[i][0] >= a) out.push(points[i]);
    if (i > 0 && i < points.length && points[i - 1][0] < b) out.push(cross(points[i - 1], points[i], b));
    return out;
  }
  // The runtime's lines in the scene's styles; the allocation rate in its panel under the
  // graph, on its own axis up to a round value over its peak in the window (rate.rs).
  function drawLines(g, a, b, X, Y) {
    var peak = null;
    D.lines.forEach(function (l) {
      var pts = within(l.points, a, b), y = Y, top = pts.reduce(function (m, p) { return Math.max(m, p[1]); }, 0), panel = l.rate && top > 0 && P.rate > 0 && F.rateAxis(top, P.rate, (P.font || 10) / 10, W);
      if (pts.length < D.line_readings || (l.rate && !panel)) return;
      if (l.rate) { peak = top; y = function (v) { return rateBottom - v / panel.top * P.rate; }; drawRateAxis(panel, rateName(peak)); }
      titled("path", { class: l.rate ? "heap-line rate" : "heap-line", fill: "none", stroke: l.stroke, "stroke-width": l.width, "stroke-linejoin": l.join, "pointer-events": "none", "data-line": l.name,
        d: pts.map(function (p, i) { return (i ? "L" : "M") + num(X(p[0])) + " " + num(y(p[1])); }).join("") }, g, l.rate ? rateName(peak) : l.name);
    });
    return peak;
  }
  // The rate panel's ticks and its name (with the window's peak where it fits), as the picture's.
  function drawRateAxis(panel, name) {
    var font = P.font || 10, em = font / 10;
    panel.ticks.forEach(function (t) { var y = rateBottom - t[0] / panel.top * P.rate; tick("M" + left + " " + num(y) + "h-4", left - 5, num(y + 3.5 * em), "end", t[1]); });
    var label = el("text", { class: "panel-label", x: left + 2 * em, y: num(rateTop - 3.5 * em), "font-size": font, stroke: "none", fill: "black" }, layer, name);
    if (label.getComputedTextLength && label.getComputedTextLength() > width - 2 * em) label.textContent = "allocation rate";
  }
  function rateName(peak) { return "allocation rate (peak " + W.value(peak) + "/s)"; }
  // The collections in their row under the graph, as the picture: each column a bar as tall as
  // the share of its time spent collecting (figures.js gcShares), darker with a major collection;
  // none past the page's limit of collections (the runtime's line says so). Each capability's strip
  // above it, capability 0 the highest: per column its share running, its share collecting over that.
  function drawStrip(g, a, b) {
    var R = D.runtime, H = P.strip - P.caps - 2, base = axis - 1, strip = R && P.strip > 0 && el("g", { class: "gc-strip", "pointer-events": "none", stroke: "none" }, g);
    if (!strip) return;
    var n = Math.max(1, Math.floor(width)), w = width / n, C = F.gcShares(R.gcs, a, b, n), h = P.cap_row - 1;
    R.capabilities.forEach(function (c, i, all) {
      for (var y = base - (P.strip - P.caps) - (all.length - 1 - i) * P.cap_row, r = F.gcShares(c.running, a, b, n), q = F.gcShares(c.gc, a, b, n), j = 0; j < n; j++)
        [[0, r[j][0], "running"], [r[j][0], q[j][0], "collecting"]].forEach(function (s) { if (s[1] > 0) el("rect", { class: "capability " + s[2], x: num(left + j * w), y: num(y - (s[0] + s[1]) * h), width: num(w), height: num(s[1] * h), fill: s[2] === "running" ? D.running_fill : D.gc_fills[0], "data-capability": c.capability, "data-share": s[1] }, strip); });
    });
    // Columns alike (the same kind, heights within a twentieth of a unit) are one bar, as in the picture.
    for (var k = 0, end, top; H > 0 && k < n; k = end) {
      for (end = k + 1, top = C[k][0]; end < n && C[end][1] === C[k][1] && Math.abs(C[end][0] - C[k][0]) * H < 0.05; end++) top = Math.max(top, C[end][0]);
      if (top > 0) el("rect", { class: C[k][1] ? "gc major" : "gc", x: num(left + k * w), y: num(base - top * H), width: num((end - k) * w), height: num(top * H), fill: D.gc_fills[C[k][1] ? 1 : 0], "data-share": top }, strip);
    }
  }
  // The run's samples in their panel under the graph as the picture lays it out (D.samples_row): the window's part of each stretch's bar.
  function drawSampleRow(g, a, b, X) {
    var S = D.samples_row, E = S && S.edges, h = S && S.height / S.top, n;
    for (var k = 0, x, w, y, c; S && k + 1 < E.length; k++) for (x = X(Math.max(E[k], a)), w = X(Math.min(E[k + 1], b)) - x, y = samplesBottom, c = 0; w > 0 && c < S.bars.length; c++) if ((n = S.bars[c][2][k]) > 0)
      titled("rect", { class: "sample", x: num(x), width: num(w), y: num(y -= n * h), height: num(n * h), fill: S.bars[c][1], "data-from": E[k], "data-to": E[k + 1], "data-samples": n }, g, S.bars[c][0] + ": " + n + " samples");
  }
  // A tick (its path `d`) and its label at (x, y).
  function tick(d, x, y, anchor, label) {
    el("path", { class: "tick", d: d, fill: "none" }, layer);
    el("text", { class: "tick-label", x: x, y: y, "font-size": P.font || 10, "text-anchor": anchor, stroke: "none", fill: "black" }, layer, label);
  }
  // Ticks and labels at round values of the range in view.
  function drawAxes(ymax, X, Y, a, b) {
    var clamp = function (v) { return Math.max(2, Math.min(7, v)); }, em = (P.font || 10) / 10;
    // Each time label says its unit, as the pictures' do (`0.25 s`, `20 ms`, `1h 30m`); another unit is the axis's legend.
    F.timeAxis(a, b, clamp(width / (70 * em)), D.scale.seconds).forEach(function (t) { if (X(t[0]) - left < width - P.x_legend) tick("M" + X(t[0]) + " " + axis + "v4", X(t[0]), axis + 20 * em - 5, "middle", t[1]); });
    (mode === "share" ? [0, 0.25, 0.5, 0.75, 1].map(function (f) { return [f, 100 * f + "%"]; }) : F.valueTicks(ymax, clamp(height / (40 * em)), W))
      .forEach(function (t) { if (bottom - Y(t[0]) < height - P.y_legend) tick("M" + left + " " + Y(t[0]) + "h-4", left - 5, Y(t[0]), "end", t[1]); });
  }
  // Marks: a dashed line across the graph, its text above it where there is room, and on hover.
  function drawMarks(a, b, X) {
    var lastLabel = -Infinity, em = (P.font || 10) / 10;
    D.marks.filter(function (m) { return m.time >= a && m.time <= b; }).forEach(function (m) {
      var x = X(m.time), text = m.text || "mark", end = x > left + width - 60 * em;
      el("path", { class: "mark-line", d: "M" + x + " " + top + "V" + bottom, stroke: "#333", "stroke-width": 0.6, "stroke-dasharray": "3 2", fill: "none", "pointer-events": "none" }, layer);
      titled("path", { class: "mark", "data-text": text, "data-time": m.time, d: "M" + (x - 4) + " " + (axis + 5) + "L" + x + " " + axis + "L" + (x + 4) + " " + (axis + 5) + "Z", fill: "black" }, layer, text + " at " + W.time(m.time));
      if (x - lastLabel > 60 * em) el("text", { class: "mark-label", x: end ? x - 2 : x + 2, y: top + 8 * em, "font-size": 7 * em, fill: "#333", "text-anchor": end ? "end" : "start",
        "pointer-events": "none" }, layer, text.length > 24 ? text.slice(0, 23) + "…" : text) && (lastLabel = x);
    });
  }
  // The runtime's figures for the stretch chosen, else for the run from its start to its end (not the censuses'
  // span), as --stats --from --to gives them (figures.js); the run's line headed as the library says.
  function drawRuntime(a, b) {
    var R = D.runtime;
    if (R && !view) a = 0, b = R.end;
    var panel = byId("runtime"), f = R && !R.too_many && F.runtimeFigures(R, a, b), items = [(view ? "This stretch" : R && R.heading) + ", by the runtime: "];
    if (!panel || (panel.hidden = !R)) return;
    if (!f) { panel.textContent = "The runtime: too many collections for the page; hpgraph --stats --from --to gives a window's figures."; return; }
    [[W.share(f.gcShare) + " of elapsed time in GC", "gc-share", f.gcShare], [f.majors + " major collections (" + f.collections + " in all)", "collections", f.collections],
      ["longest pause " + W.time(f.maxPause), "max-pause", f.maxPause]].concat(f.allocated === null ? [] : [[W.value(f.allocated) + " allocated", "allocated", f.allocated]])
      .forEach(function (p, k) { items.push(k ? ", " : "", el("#span", { "data-figure": p[1], "data-value": String(p[2]) }, null, p[0])); });
    panel.replaceChildren.apply(panel, items.concat(" (as hpgraph --stats --from --to gives them)."));
    attrs(panel, { "data-from": a, "data-to": b });
  }
  // The key: the drawn bands, top first, and the runtime's lines.
  function drawKey(list) {
    var items = list.slice().reverse().map(function (s) {
      var off = hidden.has(s.name), li = el("#li", { "data-band": s.name, title: s.name, tabindex: "0", role: "button", "aria-pressed": !off, class: off ? "off" : "" });
      el("#span", { class: "swatch" }, li).style.background = s.fill;
      el("#span", { class: "name" }, li, s.count ? "OTHER (" + s.count + " bands)" : s.shown || s.name);
      return li;
    });
    if (mode !== "share") D.lines.forEach(function (l) {
      if (l.rate && !geometry.rate) return;
      var li = el("#li", { class: "line", "data-line": l.name }), sw = el("#span", { class: "swatch line-swatch" }, li).style;
      sw.borderTop = Math.max(1, 2 * l.width) + "px solid " + l.stroke;
      items.push(el("#span", {}, li, l.rate ? rateName(geometry.rate) : l.name).parentNode);
    });
    key.replaceChildren.apply(key, items);
  }

  function sparkline(values, w, peak) {
    var s = el("svg", { class: "spark", width: 80, height: 16, viewBox: "0 0 80 16", "aria-hidden": "true" }), n = w.i1 - w.i0 + 1, buckets = Math.min(40, n), pts = [];
    for (var q = 0; q < buckets; q++) {
      for (var i = w.i0 + Math.floor(q * n / buckets), to = Math.max(w.i0 + Math.floor((q + 1) * n / buckets), i + 1), m = 0; i < to; i++) m = Math.max(m, values[i]);
      pts.push((buckets > 1 ? q * 79 / (buckets - 1) : 40).toFixed(1) + "," + (15 - (peak > 0 ? m / peak * 14 : 0)).toFixed(1));
    }
    el("polyline", { points: pts.join(" "), fill: "none", stroke: "#333", "stroke-width": 1 }, s);
    return s;
  }
  function flush() { cancelIdleCallback(tableSoon); tableSoon = null; if (D) drawTable(); }
  function drawTable() { // every band the page has, sorted, with the window's figures
    var table = byId("summary"), r = windowRows(), range = r.range, w = r.w, win = r.win, sec = W.time, k = sortBy.key, sign = sortBy.down ? -1 : 1, body = el("#tbody", {});
    if (!table || [rowsFor, k, sign].join("|") === tableFor) return;
    tableFor = [rowsFor, k, sign].join("|");
    var field = function (x) { return x[k] === undefined ? (x.s.ipe || {})[k] || "" : x[k]; };
    r.list.slice().sort(function (x, y) { var p = field(x), q = field(y); return sign * H.compare(p, q) || (y.share - x.share); })
      .forEach(function (r) {
      var tr = el("#tr", { class: r.trend, "data-band": r.name }, body);
      el("#td", { class: "spark" }, tr).appendChild(sparkline(r.s.values, w, r.peak));
      el("#td", { class: "name" }, tr, r.name);
      [[W.share, "share"], [W.value, "peak"], [sec, "at"], [W.value, "mean"], [W.growth, "growth"], [W.r2, "r2"], [String, "trend"]]
        .forEach(function (c) { el("#td", { "data-value": r[c[1]] }, tr, r.trend === "unjudged" && (c[1] === "growth" || c[1] === "r2") ? "-" : c[0](r[c[1]])); });
      if (D.ipe) IPE.forEach(function (c) { el("#td", { class: "name" }, tr, (r.s.ipe || {})[c] || ""); });
    });
    if (D.rest && !narrowed()) el("#td", { class: "name" }, el("#tr", { class: "total" }, body), D.rest[0] + " smaller bands, not on their own in this page: --summary lists them").before(el("#td", {}));
    table.replaceChild(body, table.tBodies[0]);
    // The window the figures are over, in the profile's time unit, for scripts too.
    attrs(table, { "data-from": range[0], "data-to": range[1], "data-trend-from": win.trendFrom, "data-trend-to": win.trendTo });
    byId("table-window").textContent = w.empty ? "no census in the window " + sec(range[0]) + " to " + sec(range[1]) :
      (view ? "the window " + sec(range[0]) + " to " + sec(range[1]) : "the whole run") + narrowedText() + " · " + r.list.length +
      " bands · " + (!win.judged ? "too few censuses for a trend (" + win.body + " before the exit and teardown, " + D.trend.least + " needed; censuses more often, +RTS -i, give more): none is judged" :
      "trend over its last " + Math.round(D.trend.window * 100) + "%" + (win.teardownFrom === null ? "" : " before the teardown from " + sec(win.teardownFrom)) + ", " + sec(win.trendFrom) + " to " + sec(win.trendTo) + ", where a line explains R² ≥ " + W.r2(win.needed) + " of the movement");
    table.querySelectorAll("th[data-sort]").forEach(function (th) { H.sorted(th, th.dataset.sort === k, sortBy.down); });
  }
  // ---- the pointer ----
  function svgPoint(ev) { var m = svg && svg.getScreenCTM(); return m && new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse()); }
  function inside(p) { return p && p.x >= left && p.x <= left + width && p.y >= top && p.y <= bottom; }
  function timeAt(x) { return geometry.a + (x - left) / width * (geometry.b - geometry.a); }
  function nearest(t) { var T = D.times, i = Math.min(bisect(T, t), T.length - 1); return i > 0 && Math.abs(T[i - 1] - t) <= Math.abs(T[i] - t) ? i - 1 : i; }
  // The tooltip: its lines, the first in bold when `bold`; each reaches the page as text.
  function showTip(ev, lines, bold, data) {
    tip.replaceChildren();
    lines.forEach(function (line, k) { if (k) el("#br", {}, tip); tip.appendChild(k === 0 && bold ? el("#b", {}, null, line) : document.createTextNode(line)); });
    tip.hidden = false;
    H.place(tip, box, ev);
    for (var k in data) tip.dataset[k] = data[k];
  }
  function move(ev) {
    var p = D && geometry && svgPoint(ev), g = geometry, t = ev.target;
    if (!p) return;
    pointer = { clientX: ev.clientX, clientY: ev.clientY };
    if (drag) { drag.x1 = Math.max(left, Math.min(left + width, p.x)); attrs(drag.rect, { x: Math.min(drag.x0, drag.x1), width: Math.abs(drag.x1 - drag.x0) }); return; }
    if (t.classList && t.classList.contains("mark")) { showTip(ev, [t.dataset.text], false, { band: "", text: t.dataset.text }); return; }
    if (!inside(p)) { tip.hidden = true; return; }
    // Before the first census (an eventlog's graph starts with the program): no census to show.
    if (timeAt(p.x) < D.times[0]) { showTip(ev, [D.unobserved_names[0], "no census saw the heap before " + W.time(D.times[0])], true, { band: "", time: "" }); return; }
    var i = nearest(timeAt(p.x)), v = (bottom - p.y) / height * g.ymax, name = t.getAttribute && t.getAttribute("data-band"), below = 0, best = 6;
    var shown = g.list.filter(function (s) { return !hidden.has(s.name); }), all = shown.reduce(function (sum, s) { return sum + s.values[i]; }, 0);
    var share = function (x) { return mode === "share" ? (all > 0 ? x / all : 0) : x; };
    if (!name) shown.forEach(function (s) {
      var x = s.values[i], off = Math.abs(g.Y(x) - p.y);
      if (mode === "lines" ? off < best && (best = off, true) : v >= share(below) && v < share(below + x)) name = s.name;
      below += x;
    });
    var time = W.time(D.times[i]), band = name && g.list.find(function (b) { return b.name === name; }), x = band ? band.values[i] : all;
    showTip(ev, band ? [band.count ? "OTHER (" + band.count + " bands)" : name, W.value(x) + " (" + W.share(all > 0 ? x / all : 0) + " of the shown heap) at " + time]
      .concat(band.set ? ["retainer set: " + band.set] : []) : [time, "all shown bands: " + W.value(all)],
      !!band, { band: band ? name : "", time: D.times[i], value: x });
  }
  box.addEventListener("mousemove", move); box.addEventListener("mouseleave", function () { tip.hidden = true; pointer = null; });
  box.addEventListener("mousedown", function (ev) {
    var p = D && svgPoint(ev);
    if (inside(p) && ev.button === 0 && !ev.preventDefault()) drag = { x0: p.x, x1: p.x, rect: el("rect", { class: "zoom", x: p.x, y: top, width: 0, height: height, fill: "rgba(0,90,200,0.15)", stroke: "none" }, layer) };
  });
  // A click opens that census as a flame graph; a drag zooms.
  window.addEventListener("mouseup", function () {
    var d = drag;
    if (!(drag = null) && d) d.rect.remove();
    if (d && Math.abs(d.x1 - d.x0) < 3) openFlame(nearest(timeAt(d.x0)));
    else if (d) zoom(timeAt(Math.min(d.x0, d.x1)), timeAt(Math.max(d.x0, d.x1)));
  });
  box.addEventListener("dblclick", function () { zoom(null); }); window.addEventListener("resize", function () { screen = null; });
  // A click on a marker, then on another: the window between them (the first one red till then).
  box.addEventListener("click", function (ev) { var t = ev.target, m = t.classList && t.classList.contains("mark") ? Number(t.getAttribute("data-time")) : null; if (m === null) return; if (markFrom === null) { markFrom = m; t.setAttribute("fill", "#c00"); } else { if (m !== markFrom) zoom(Math.min(markFrom, m), Math.max(markFrom, m)); markFrom = null; } });
  function zoom(a, b) { view = a === null ? null : [a, b]; draw(); }
  // ---- the key and the controls: view, filter, sorting ----
  function toggle(ev) {
    var entry = ev.target.closest("[data-band]"), name = entry && entry.getAttribute("data-band");
    if (entry && H.activates(ev)) { if (!hidden.delete(name)) hidden.add(name); draw(); }
  }
  key.addEventListener("click", toggle);
  key.addEventListener("keydown", toggle);
  byId("reset").addEventListener("click", function () { zoom(null); });
  var viewChoice = byId("view"), filterBox = byId("filter"), filterNote = byId("filter-note");
  viewChoice.addEventListener("change", function () { setView(viewChoice.value); });
  function setView(m) { mode = viewChoice.value = m; draw(); }
  filterBox.addEventListener("input", function () { setFilter(filterBox.value); });
  function setFilter(text) {
    filterBox.value = text;
    var re = H.pattern(filterBox, filterNote);
    if (re === undefined) return;
    filter = re;
    filterNote.textContent = filter ? individuals.filter(passes).length + " of " + individuals.length + " bands match" : "";
    draw();
  }
  document.querySelectorAll("#summary th[data-sort]").forEach(function (th) {
    var k = th.dataset.sort;
    H.sorts(th, function () { sortBy = { key: k, down: sortBy.key === k ? !sortBy.down : !(k === "name" || IPE.indexOf(k) >= 0) }; drawTable(); });
  });
  // ---- the flame graph of a census or of the window's mean: the library laid out its frames (D.flame);
  // each band's value goes to its leaf, and flame.js sums, places and draws ----
  var heapFlame = hpgraphFlame.view({ svg: flameSvg, title: byId("flame-title"), info: byId("flame-info") });
  function openFlame(index, mean) {
    var inverted = byId("flame-inverted").checked, range = view || fullRange(), w = windowOf(range[0], range[1]);
    var N = (inverted ? D.flame.inverted : D.flame.tree).nodes, own = new Float64Array(N.length);
    // A cost profile's flame graph is its table's rows in the measure chosen.
    if (costs) costs.weigh(own, inverted ? 1 : 0, function (name) { return !filter || filter.test(name); });
    else individuals.concat(!narrowed() && D.rest ? [D.rest[1]] : []).forEach(function (s) {
      var v = !passes(s) ? 0 : mean ? F.windowMean(D.times, D.totals, s.values, w.i0, w.i1) : s.values[index];
      if (v > 0) own[s.leaf[inverted ? 1 : 0]] += v;
    });
    var shown = span || D.samples_span;
    flame = { index: index, mean: !!mean };
    ["data-time", "data-from", "data-to"].forEach(function (a) { flameBox.removeAttribute(a); });
    attrs(flameBox, mean ? { "data-from": range[0], "data-to": range[1], "data-inverted": inverted } : { "data-time": D.times[index], "data-inverted": inverted }).hidden = false;
    flame.drawn = heapFlame.show({ N: N, own: own, S: D, W: W, inverted: inverted, after: counted(), heading: (D.report ? (shown ? "The samples from " + W.time(shown[0]) + " to " + W.time(shown[1]) : "The whole run") +
      (costs ? ", by " + D.tree.measures[costs.chosen()].name : "") : mean ? "Each stack's mean from " + W.time(D.times[w.i0]) + " to " + W.time(D.times[w.i1]) : "The heap at " + W.time(D.times[index])) +
      (narrowed() ? " (" + narrowedText().slice(2) + ")" : "") + (inverted ? ", inverted (what holds the bytes at the bottom)" : "") });
  }
  function narrowedText() { return (filter ? ", bands matching the filter" : "") + (member ? ", the sets that hold " + member.name : ""); }
  function reopenFlame() { if (flame) openFlame(flame.mean ? null : Math.min(flame.index, D.times.length - 1), flame.mean); }
  byId("flame-close").addEventListener("click", function () { flameBox.hidden = true; flame = null; });
  byId("flame-mean").addEventListener("click", function () { openFlame(null, true); });
  byId("flame-inverted").addEventListener("change", reopenFlame);
  // ---- a cost profile: its table of stacks and the measure its flame graph is weighed by ----
  var measureChoice = byId("measure");
  function installCosts() {
    var T = D.tree, table = byId("costs"), k = costs ? costs.chosen() : T && T.chosen;
    costs = T && table ? hpgraphCosts.table(T, D.frames, W.share, table) : null;
    if (!costs) return;
    measureChoice.replaceChildren.apply(measureChoice, T.measures.map(function (m, j) { return el("#option", { value: j }, null, m.name + " (" + m.counts + ")"); }));
    measureChoice.parentNode.hidden = T.measures.length < 2;
    // Samples over time: a stretch dragged on the strip weighs the table and flame graph.
    var stripBox = byId("strip");
    if (stripBox && !(stripBox.hidden = !T.strip)) samples = hpgraphCosts.strip(T.strip, byId("strip-svg"), Math.max(300, stripBox.clientWidth), function (a, b, n) { return F.timeAxis(a, b, n, T.measures[0].scale.seconds); }, stretch, function (r) { return [D.frame_fills[T.rows[r][0]], costs.stackName(r)]; });
    // One census, the whole run's: no view over time, no window's mean, nothing to close.
    ["view", "flame-mean", "flame-close"].forEach(function (id) { var e = byId(id); (e.closest("label") || e).hidden = true; });
    setMeasure(Math.min(k, T.measures.length - 1));
  }
  // What a cost profile's flame graph counts when it is not bytes: `309 ticks`.
  function counted() { return costs ? D.tree.measures[costs.chosen()].after : ""; }
  function stretch(b0, b1) {
    costs.stretch(b0, b1);
    span = b0 === null ? null : [D.tree.strip.edges[b0], D.tree.strip.edges[b1 + 1]];
    reopenFlame();
  }
  function setMeasure(k) {
    if (typeof k === "string") k = D.tree.measures.findIndex(function (m) { return m.name === k; });
    if (!costs || !(k >= 0)) return;
    measureChoice.value = String(k);
    W = F.writer(D.tree.measures[k].scale);
    if (costs.chosen() !== k) costs.measure(k);
    reopenFlame();
  }
  measureChoice.addEventListener("change", function () { setMeasure(+measureChoice.value); });
  // ---- the same run's cost-centre samples beside a heap profile (D.cost_samples), weighed by the chart's window ----
  var samplesFlame = null, beside = null;
  function installSamples() {
    var S = D.cost_samples, part = byId("samples"), T = S && S.tree, E = T && T.strip && T.strip.edges;
    beside = null;
    if (!part || (part.hidden = !T)) return;
    if (!samplesFlame) {
      samplesFlame = hpgraphFlame.view({ svg: byId("samples-flame-svg"), title: byId("samples-title"), info: byId("samples-info") });
      byId("samples-inverted").addEventListener("change", drawSamples);
    }
    beside = { S: S, W: F.writer(T.measures[0].scale), E: E, table: hpgraphCosts.table(T, S.frames, F.writer(T.measures[0].scale).share, byId("samples-costs")), at: null };
  }
  function followWindow() {
    if (!beside) return;
    var E = beside.E, B = E ? E.length - 1 : 0, b0 = null, b1 = null;
    if (view && E) { b0 = Math.max(0, bisect(E, view[0], null, true) - 1); b1 = Math.min(B - 1, bisect(E, view[1]) - 1); }
    if ([b0, b1].join() === beside.at) return;
    beside.at = [b0, b1].join();
    beside.b = [b0, b1];
    beside.table.stretch(b0, b1);
    drawSamples();
  }
  function drawSamples() {
    var S = beside.S, b0 = beside.b[0], b1 = beside.b[1], inverted = byId("samples-inverted").checked, E = beside.E;
    var N = (inverted ? S.flame.inverted : S.flame.tree).nodes, own = beside.table.weigh(new Float64Array(N.length), inverted ? 1 : 0, function () { return true; });
    var t = b0 === null ? S.samples_span : b1 < b0 ? view : [E[b0], E[b1 + 1]];
    attrs(byId("samples"), { "data-from": t[0], "data-to": t[1], "data-inverted": inverted });
    beside.drawn = samplesFlame.show({ N: N, own: own, S: S, W: beside.W, inverted: inverted, after: S.tree.measures[0].after,
      heading: (b0 === null ? "The whole run's samples, " : "The samples ") + "from " + beside.W.time(t[0]) + " to " + beside.W.time(t[1]) + (inverted ? ", inverted (what spends at the bottom)" : "") });
  }

  // ---- the lists beside the bands (lists.js): a profile's members, each a view of the bands
  // of the sets that hold it; a ticky run's counters ----
  function installLists() {
    var M = D.members, C = D.ticky, was = member && member.name;
    if (!byId("members")) return; // a report's page has neither
    byId("members").hidden = !M; byId("ticky").hidden = !C;
    member = null;
    lists = M ? hpgraphLists.members(byId("members"), M, W, D.table_rows, setMember) : null;
    if (C) hpgraphLists.ticky(byId("ticky"), C, D.table_rows);
    // A live page keeps the member chosen.
    var again = M && was !== null ? M.list.findIndex(function (m) { return m.name === was; }) : -1;
    if (again >= 0) lists.choose(again); else memberNote();
  }
  function setMember(k) {
    var m = k === null ? null : D.members.list[k];
    member = m && { name: m.name, unshown: m.unshown, bands: new Set(m.bands.map(function (b) { return individuals[b]; })) };
    memberNote();
    if (geometry) draw();
  }
  function memberNote() {
    byId("members-note").textContent = !member ? "" : "Shown: the " + member.bands.size + " bands of the sets that hold " + member.name +
      ", stacked: its reachable bytes over time" + (member.unshown ? " (" + member.unshown + " more among the smaller bands, not on their own in this page)" : "") + ". Click it again to show every band.";
  }

  // Takes up the page's data and chart (at load, and after each live update).
  function install() {
    D = JSON.parse(byId("hpgraph-data").textContent);
    svg = box.querySelector("svg");
    layer = geometry = rowsFor = tableFor = screen = null;
    if (!D || !svg) return (D = null);
    P = D.plot; W = F.writer(D.scale); page = svg.querySelectorAll(":scope > g")[P.page];
    left = P.x; top = P.y; width = P.w; height = P.h; bottom = P.y + P.h;
    samplesBottom = bottom + (D.samples_row ? D.samples_row.gap + D.samples_row.height : 0); rateTop = samplesBottom + (P.rate_gap || 0); rateBottom = rateTop + (P.rate || 0); axis = rateBottom + (P.strip || 0);
    individuals = D.bands.filter(function (b) { return !b.other; }).concat(D.pool); if (D.view && readyAt === undefined) mode = byId("view").value = D.view;
    installCosts();
    installSamples();
    installLists();
    // A zoom outside the run (a new run started) is forgotten.
    if (view && (view[1] <= fullRange()[0] || view[0] >= fullRange()[1])) view = null;
    draw();
    if (!flame && D.flame_inverted) byId("flame-inverted").checked = true;
    if (flame || D.flame_mean || D.flame_at !== null) flame ? reopenFlame() : openFlame(D.flame_mean ? null : nearest(D.flame_at), D.flame_mean);
  }
  install();
  var readyAt = performance.now(), updates = 0;
  // ---- live: follow the server; it says what the program is doing ----
  if (document.body.hasAttribute("data-live")) (function follow() {
    var status = byId("live-status"), shown = null, busy = false, again = null;
    function swap(doc) {
      ["h1", ".about", "#hpgraph-data", "#chart svg"].forEach(function (sel) {
        var mine = document.querySelector(sel), theirs = doc.querySelector(sel);
        if (theirs && mine) mine.replaceWith(document.adoptNode(theirs)); else if (theirs && sel === "#chart svg") box.prepend(document.adoptNode(theirs));
      });
      install(); flush();
      if (pointer && !tip.hidden) move({ clientX: pointer.clientX, clientY: pointer.clientY, target: document.elementFromPoint(pointer.clientX, pointer.clientY) || svg });
    }
    function fetchPage(want) {
      if (busy) return (again = want);
      busy = true;
      fetch("/", { cache: "no-store" }).then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (text) { swap(new DOMParser().parseFromString(text, "text/html")); shown = want; updates++; })
        .catch(function () {}).then(function () { busy = false; if (again) { var next = again; again = null; fetchPage(next); } });
    }
    function say(state, text) { status.setAttribute("data-status", state); status.textContent = text; }
    (function connect() {
      var source = new EventSource("/events");
      source.onmessage = function (ev) {
        var e = JSON.parse(ev.data), at = e.server + "/" + e.version;
        say(e.status, e.says);
        if ((e.status === "live" || e.status === "ended") && at !== shown) fetchPage(at);
      };
      // The browser retries by itself unless the stream failed for good.
      source.onerror = function () { say("reconnecting", "lost the connection to hpgraph: reconnecting…"); if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000); };
    })();
  })();

  // For scripts, tests and the benchmark: the numbers the page draws, how many live updates
  // it took, and the controls a reader has, each redrawing at once (the table too).
  var now = function (f) { return function (x, y) { f(x, y); flush(); }; };
  window.hpgraph = {
    zoom: now(zoom), view: now(setView), filter: now(setFilter), member: now(function (k) { lists.choose(k); }), data: function () { return D; }, updates: function () { return updates; },
    window: function () { return view || fullRange(); }, lastDraw: function () { return lastDraw; }, readyAt: function () { return readyAt; },
    flame: function (t) { openFlame(nearest(t)); return flame.drawn; }, flameMean: function () { openFlame(null, true); return flame.drawn; },
    flameInverted: function (on) { byId("flame-inverted").checked = !!on; reopenFlame(); return flame && flame.drawn; },
    measure: function (name) { setMeasure(name); return flame && flame.drawn; }, costs: function () { return costs; },
    stretch: function (b0, b1) { samples.choose(b0, b1); return flame && flame.drawn; },
    samples: function () { return beside && { drawn: beside.drawn, at: beside.b, table: beside.table }; },
    samplesInverted: function (on) { byId("samples-inverted").checked = !!on; drawSamples(); return beside.drawn; },
    get maxFlameRows() { return D ? D.flame.rows : 0; },
    keyNames: function () { return geometry ? geometry.list.map(function (s) { return s.name; }).reverse() : []; }
  };
})();
