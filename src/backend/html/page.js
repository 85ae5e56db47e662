// hpgraph's interactive page: hover for values, click a key entry to hide its band, drag
// to zoom, double-click to reset. Everything it needs is in the page: the numbers in the
// JSON block #hpgraph-data, the chart as inline SVG. No library; a file makes no request.
// The page of `hpgraph --serve` (body[data-live]) also follows its server's event stream
// and, when the profile changes, fetches the new page and swaps its parts in, keeping the
// hidden bands, the zoom and the tooltip.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var box = document.getElementById("chart");
  var D = null, svg = null, page = null, P = null;
  var left = 0, top = 0, width = 1, height = 1, bottom = 1;
  var tip = document.getElementById("tooltip");
  var hidden = new Set();
  var view = null; // [from, to] while zoomed
  var layer = null;
  var drag = null;
  var geometry = null; // what the last drawing used: times shown, stacks, scale
  var pointer = null; // where the pointer last was over the chart, to refresh the tooltip

  // ---- numbers as people read them (src/units.rs) ----
  var DECIMAL = [[1e12, "TB"], [1e9, "GB"], [1e6, "MB"], [1e3, "kB"], [1, "B"]];
  var BINARY = [[1099511627776, "TiB"], [1073741824, "GiB"], [1048576, "MiB"], [1024, "KiB"], [1, "B"]];
  var PLAIN = [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"], [1, ""]];
  var bytes = false, units = PLAIN;
  function unitFor(v) {
    for (var i = 0; i < units.length; i++) if (Math.abs(v) >= units[i][0]) return units[i];
    return units[units.length - 1];
  }
  function human(v) {
    var u = unitFor(v), x = v / u[0];
    var d = u[0] === 1 && x === Math.floor(x) ? 0 : Math.abs(x) >= 99.95 ? 0 : Math.abs(x) >= 9.995 ? 1 : 2;
    return x.toFixed(d) + (bytes && u[1] ? " " : "") + u[1];
  }
  function seconds(t) {
    var a = Math.abs(t);
    var d = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 || t === 0 ? 2 : 3;
    return t.toFixed(d) + (D.sample_unit === "seconds" ? " s" : " " + D.sample_unit);
  }
  // hp2ps's Round (src/layout/ticks.rs): 1, 2 or 5 times a power of ten.
  function round125(y) {
    if (!(y > 0) || !isFinite(y)) return null;
    var steps = 0, f = function (v) { return v > 4 ? 5 : v > 1 ? 2 : 1; };
    if (y > 10) { while (y > 10) { y /= 10; steps++; } y = f(y); while (steps--) y *= 10; }
    else if (y < 1) { while (y < 1) { y *= 10; steps++; } y = f(y); while (steps--) y /= 10; }
    else y = f(y);
    return y;
  }
  function decimals(step) {
    var d = 0;
    while (step < 0.999999 && d < 12) { step *= 10; d++; }
    return d;
  }
  function timeTicks(a, b, target) {
    var step = round125((b - a) / target), out = [];
    if (!step) return out;
    var d = decimals(step);
    for (var k = Math.ceil(a / step); out.length < 1000; k++) {
      var v = k * step;
      if (v > b + step * 1e-9) break;
      out.push([v, v.toFixed(d)]);
    }
    return out;
  }
  function valueTicks(top, target) {
    var u = unitFor(top), step = round125(top / u[0] / target), out = [];
    if (!step) return out;
    var d = decimals(step), space = u[1] ? " " : "";
    for (var k = 0; k * step * u[0] <= top * (1 + 1e-9) && out.length < 1000; k++) {
      out.push([k * step * u[0], (k * step).toFixed(d) + space + u[1]]);
    }
    return out;
  }

  // ---- drawing ----
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function fullRange() { return [P.t0, P.t0 + P.xr]; }

  function visibleBands() {
    var out = [];
    D.bands.forEach(function (b, k) { if (!hidden.has(b.name)) out.push(k); });
    return out;
  }

  function draw() {
    if (!D) return;
    if (!layer) {
      // The script draws from now on: the picture the file carries steps aside.
      svg.querySelectorAll(".band, .tick, .tick-label, .mark, .heap-line").forEach(function (e) { e.remove(); });
      layer = el("g", { id: "layer" }, page);
    }
    layer.textContent = "";
    var range = view || fullRange(), a = range[0], b = range[1];
    var T = D.times, n = T.length;
    // The samples in view, and one either side so that the bands reach the edges.
    var i0 = 0, i1 = n - 1;
    while (i0 < n - 1 && T[i0 + 1] < a) i0++;
    while (i1 > 0 && T[i1 - 1] > b) i1--;
    var shown = visibleBands();
    var stacks = [], total = new Float64Array(n);
    shown.forEach(function (k) {
      var v = D.bands[k].values, lower = Float64Array.from(total);
      for (var i = i0; i <= i1; i++) total[i] += v[i];
      stacks.push([k, lower, Float64Array.from(total)]);
    });
    // The columns drawn: the samples in view, and the bands' values interpolated at the
    // edges of a zoomed range, so that nothing is drawn outside the graph.
    var cols = [];
    var at = function (t, i, j) { return { t: t, i: i, j: j, f: j === i ? 0 : (t - T[i]) / (T[j] - T[i]) }; };
    if (T[i0] < a && i0 < n - 1) cols.push(at(a, i0, i0 + 1));
    for (var i = i0; i <= i1; i++) if (T[i] >= a && T[i] <= b) cols.push(at(T[i], i, i));
    if (T[i1] > b && i1 > 0) cols.push(at(b, i1 - 1, i1));
    var val = function (arr, c) { return arr[c.i] * (1 - c.f) + arr[c.j] * c.f; };
    var ymax = 0;
    if (!view && hidden.size === 0) ymax = P.yr;
    else {
      cols.forEach(function (c) { ymax = Math.max(ymax, val(total, c)); });
      if (!(ymax > 0)) ymax = 1;
    }
    function X(t) { return left + (t - a) / (b - a) * width; }
    function Y(v) { return bottom - v / ymax * height; }
    geometry = { a: a, b: b, i0: i0, i1: i1, stacks: stacks, total: total, ymax: ymax, X: X };

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
    var bands = el("g", {}, layer);
    stacks.forEach(function (s) {
      var band = D.bands[s[0]], lower = s[1], upper = s[2], d = [];
      if (cols.length === 0) return;
      // One outline per stretch where the band is above zero (with the columns either
      // side, where it rises from and falls to zero): the element is where the band is.
      var on = cols.map(function (c) { return val(upper, c) > val(lower, c); });
      var k = 0;
      while (k < cols.length) {
        if (!(on[k] || on[k + 1])) { k++; continue; }
        var start = k;
        while (k + 1 < cols.length && (on[k] || on[k + 1])) k++;
        for (var m = start; m <= k; m++) d.push((m === start ? "M" : "L") + X(cols[m].t).toFixed(2) + " " + Y(val(upper, cols[m])).toFixed(2));
        for (m = k; m >= start; m--) d.push("L" + X(cols[m].t).toFixed(2) + " " + Y(val(lower, cols[m])).toFixed(2));
        d.push("Z");
        k++;
      }
      if (d.length === 0) return;
      var path = el("path", {
        d: d.join(""), fill: band.fill, stroke: "#ffffff", "stroke-width": 0.25,
        "pointer-events": "fill", "data-band": band.name
      }, bands);
      el("title", {}, path).textContent = band.name;
      // Zero-length pieces centre the path's bounding box on a point of the band, so
      // that "the middle of this element" (where test tools and assistive technology
      // point) is on the band. The centred box must hold the band and stay on the page,
      // which bounds where the point can be; within that, the point is where the band
      // leaves it the most room.
      var bb = path.getBBox(), best = null;
      var xmin = (bb.x + bb.width + room.x0) / 2, xmax = (bb.x + room.x1) / 2;
      var ymin = (bb.y + bb.height + room.y0) / 2, ymax2 = (bb.y + room.y1) / 2;
      for (var q = 0; q <= 16 && xmin <= xmax; q++) {
        var x = xmin + (xmax - xmin) * q / 16;
        for (k = 0; k + 1 < cols.length; k++) {
          var x0 = X(cols[k].t), x1 = X(cols[k + 1].t);
          if (x < x0 || x > x1 || x1 <= x0) continue;
          var f = (x - x0) / (x1 - x0);
          var yUp = Y(val(upper, cols[k]) * (1 - f) + val(upper, cols[k + 1]) * f);
          var yLo = Y(val(lower, cols[k]) * (1 - f) + val(lower, cols[k + 1]) * f);
          var from = Math.max(yUp, ymin), to = Math.min(yLo, ymax2);
          if (to > from && (!best || to - from > best[2])) best = [x, (from + to) / 2, to - from];
        }
      }
      if (best) {
        var hx = Math.max(best[0] - bb.x, bb.x + bb.width - best[0]);
        var hy = Math.max(best[1] - bb.y, bb.y + bb.height - best[1]);
        path.setAttribute("d", path.getAttribute("d") +
          "M" + (best[0] - hx).toFixed(2) + " " + (best[1] - hy).toFixed(2) + "l0 0" +
          "M" + (best[0] + hx).toFixed(2) + " " + (best[1] + hy).toFixed(2) + "l0 0");
      }
    });
    // Heap lines over the bands.
    [[D.heap_size, 1.5, "heap size"], [D.heap_live, 0.75, "live bytes"]].forEach(function (h) {
      var pts = h[0].filter(function (p) { return p[0] >= a && p[0] <= b; });
      if (pts.length < 2) return;
      el("path", {
        class: "heap-line", fill: "none", stroke: "#000", "stroke-width": h[1], "pointer-events": "none",
        d: pts.map(function (p, i) { return (i ? "L" : "M") + X(p[0]).toFixed(2) + " " + Y(p[1]).toFixed(2); }).join("")
      }, bands);
    });
    // Axes: ticks and labels at round values of the range in view.
    var clamp = function (v) { return Math.max(2, Math.min(7, v)); };
    var font = P.font || 10, em = font / 10;
    timeTicks(a, b, clamp(width / (70 * em))).forEach(function (t) {
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
    // Marks: a caret under the axis, its text on hover.
    D.marks.forEach(function (m) {
      if (m.time < a || m.time > b) return;
      var x = X(m.time);
      var caret = el("path", { class: "mark", d: "M" + (x - 4) + " " + (bottom + 5) + "L" + x + " " + bottom + "L" + (x + 4) + " " + (bottom + 5) + "Z", fill: "black" }, layer);
      caret.dataset.text = m.text || "mark";
      el("title", {}, caret).textContent = (m.text || "mark") + " at " + seconds(m.time);
    });
    document.getElementById("zoom-note").hidden = !view;
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
    if (!D) return;
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
      g.stacks.forEach(function (s) { if (v >= s[1][i] && v < s[2][i]) name = D.bands[s[0]].name; });
    }
    var time = seconds(D.times[i]), all = g.total[i];
    if (!name) {
      showTip(ev, [time, "all shown bands: " + human(all)], false, { band: "", time: D.times[i], value: all });
      return;
    }
    var band = D.bands.find(function (b) { return b.name === name; });
    var value = band.values[i], share = all > 0 ? (100 * value / all).toFixed(1) + "%" : "0%";
    showTip(ev, [name, human(value) + " (" + share + " of the shown heap) at " + time], true,
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
    if (Math.abs(d.x1 - d.x0) < 3) return;
    var t = function (x) { return g.a + (x - left) / width * (g.b - g.a); };
    view = [t(Math.min(d.x0, d.x1)), t(Math.max(d.x0, d.x1))];
    draw();
  });
  box.addEventListener("dblclick", function () { view = null; draw(); });

  // ---- the key ----
  function toggle(entry) {
    var name = entry.getAttribute("data-band");
    if (hidden.has(name)) hidden.delete(name); else hidden.add(name);
    entry.classList.toggle("off", hidden.has(name));
    entry.setAttribute("aria-pressed", hidden.has(name) ? "false" : "true");
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
  document.getElementById("reset").addEventListener("click", function () { view = null; draw(); });

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
    bytes = D.value_unit === "bytes";
    units = bytes ? (D.binary_units ? BINARY : DECIMAL) : PLAIN;
    key.querySelectorAll("[data-band]").forEach(function (entry) {
      var off = hidden.has(entry.getAttribute("data-band"));
      entry.classList.toggle("off", off);
      entry.setAttribute("aria-pressed", off ? "false" : "true");
    });
    // A zoom outside the run (a new run started) is forgotten.
    if (view) {
      var f = fullRange();
      if (view[1] <= f[0] || view[0] >= f[1]) view = null;
    }
    draw();
  }
  install();

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
      ["h1", ".about", "#summary", "#hpgraph-data"].forEach(function (sel) {
        var mine = document.querySelector(sel), theirs = doc.querySelector(sel);
        if (mine && theirs) mine.replaceWith(document.adoptNode(theirs));
      });
      var chart = doc.querySelector("#chart svg"), old = box.querySelector("svg");
      if (chart) {
        chart = document.adoptNode(chart);
        if (old) old.replaceWith(chart); else box.insertBefore(chart, box.firstChild);
      }
      key.replaceChildren.apply(key, Array.from(doc.getElementById("key").childNodes)
        .map(function (n) { return document.adoptNode(n); }));
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

  // For scripts and tests: the numbers the page draws, and how many live updates it took.
  window.hpgraph = {
    data: function () { return D; },
    updates: function () { return updates; }
  };
})();
