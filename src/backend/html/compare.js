// The comparison page: a line through both runs' graphs at the pointer's time, with both
// runs' totals there and the band under the pointer named, and a filter box for bands.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("hpgraph-data").textContent), W = hpgraphFigures.writer(D.scale), H = hpgraphDom;
  var box = document.getElementById("chart"), svg = box.querySelector("svg"), tip = document.getElementById("tooltip");
  var filter = document.getElementById("filter"), note = document.getElementById("filter-note");
  // A vertical line per graph, hidden until the pointer is over one.
  var lines = D.panels.map(function (p) { return H.el("line", { y1: p.y, y2: p.y + p.h, stroke: "#c00", "stroke-width": "0.75", class: "cursor", style: "display: none" }, svg); });
  // The total at the last sample at or before t (none before the first).
  function at(p, t) { var i = H.bisect(p.times, t, null, true); return i ? p.totals[i - 1] : null; }
  function hide() { tip.hidden = true; lines.forEach(function (l) { l.style.display = "none"; }); }
  svg.addEventListener("mousemove", function (ev) {
    var q = svg.createSVGPoint(), t = null;
    q.x = ev.clientX; q.y = ev.clientY;
    q = q.matrixTransform(svg.getScreenCTM().inverse());
    D.panels.forEach(function (p) { if (q.x >= p.x && q.x <= p.x + p.w && q.y >= p.y && q.y <= p.y + p.h) t = p.t0 + (q.x - p.x) / p.w * p.xr; });
    if (t === null) { hide(); return; }
    var rows = ["at " + W.pointer(t, 3)], band = ev.target.closest && ev.target.closest("[data-band]");
    D.panels.forEach(function (p, k) {
      var x = p.x + (t - p.t0) / p.xr * p.w, v = at(p, t);
      lines[k].style.display = x >= p.x && x <= p.x + p.w ? "" : "none";
      lines[k].setAttribute("x1", x); lines[k].setAttribute("x2", x);
      rows.push((k === 0 ? "before: " : "after: ") + (v === null ? "not yet sampled" : W.value(v)));
    });
    if (band) rows.push("band: " + band.getAttribute("data-band"));
    tip.replaceChildren.apply(tip, rows.map(function (r) { return H.el("#div", {}, null, r); }));
    tip.hidden = false;
    H.place(tip, box, ev);
  });
  svg.addEventListener("mouseleave", hide);
  // The filter box: rows and bands whose name it does not match are hidden.
  filter.addEventListener("input", function () {
    var re = H.pattern(filter, note), shown = 0;
    if (re === undefined) return;
    document.querySelectorAll("#comparison tbody tr[data-band]").forEach(function (tr) { shown += (tr.hidden = re && !re.test(tr.getAttribute("data-band"))) ? 0 : 1; });
    svg.querySelectorAll("[data-band]").forEach(function (e) { e.style.visibility = !re || re.test(e.getAttribute("data-band")) ? "" : "hidden"; });
    note.textContent = re ? shown + (shown === 1 ? " band" : " bands") : "";
  });
  window.hpgraph = { data: function () { return D; } };
})();
