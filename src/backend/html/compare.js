// The comparison page: a line through both runs' graphs at the pointer's time, with
// both runs' totals there, and a filter box for bands. Text only through textContent;
// no markup is built from data.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("hpgraph-data").textContent);
  var box = document.getElementById("chart"), svg = box.querySelector("svg");
  var tip = document.getElementById("tooltip"), NS = "http://www.w3.org/2000/svg";
  var W = hpgraphFigures.writer(D.scale, D.time_unit), value = W.value;
  // A vertical line per graph, hidden until the pointer is over one.
  var lines = D.panels.map(function (p) {
    var l = document.createElementNS(NS, "line");
    l.setAttribute("y1", p.y); l.setAttribute("y2", p.y + p.h);
    l.setAttribute("stroke", "#c00"); l.setAttribute("stroke-width", "0.75");
    l.setAttribute("class", "cursor"); l.style.display = "none";
    svg.appendChild(l);
    return l;
  });
  function at(p, t) {
    // The total at the last sample at or before t (none before the first).
    var lo = 0, hi = p.times.length - 1, k = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (p.times[mid] <= t) { k = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return k < 0 ? null : p.totals[k];
  }
  function point(ev) {
    var pt = svg.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }
  function hide() {
    tip.hidden = true;
    lines.forEach(function (l) { l.style.display = "none"; });
  }
  svg.addEventListener("mousemove", function (ev) {
    var q = point(ev), t = null;
    D.panels.forEach(function (p) {
      if (q.x >= p.x && q.x <= p.x + p.w && q.y >= p.y && q.y <= p.y + p.h) {
        t = p.t0 + (q.x - p.x) / p.w * p.xr;
      }
    });
    if (t === null) { hide(); return; }
    var rows = ["at " + W.pointer(t, 3)];
    D.panels.forEach(function (p, k) {
      var x = p.x + (t - p.t0) / p.xr * p.w, v = at(p, t);
      var inside = x >= p.x && x <= p.x + p.w;
      lines[k].style.display = inside ? "" : "none";
      lines[k].setAttribute("x1", x); lines[k].setAttribute("x2", x);
      rows.push((k === 0 ? "before: " : "after: ") + (v === null ? "not yet sampled" : value(v)));
    });
    tip.replaceChildren.apply(tip, rows.map(function (r) {
      var d = document.createElement("div"); d.textContent = r; return d;
    }));
    tip.hidden = false;
    var r = box.getBoundingClientRect();
    tip.style.left = Math.min(ev.clientX - r.left + 14, r.width - tip.offsetWidth) + "px";
    tip.style.top = (ev.clientY - r.top + 14) + "px";
  });
  svg.addEventListener("mouseleave", hide);

  // ---- the filter box ----
  var filter = document.getElementById("filter"), note = document.getElementById("filter-note");
  function apply() {
    var re = null;
    if (filter.value) {
      try { re = new RegExp(filter.value); filter.removeAttribute("aria-invalid"); note.textContent = ""; }
      catch (e) { filter.setAttribute("aria-invalid", "true"); note.textContent = "not a regular expression"; return; }
    } else { filter.removeAttribute("aria-invalid"); note.textContent = ""; }
    var shown = 0;
    document.querySelectorAll("#comparison tbody tr[data-band]").forEach(function (tr) {
      var ok = !re || re.test(tr.getAttribute("data-band"));
      tr.hidden = !ok;
      if (ok) shown++;
    });
    svg.querySelectorAll("[data-band]").forEach(function (e) {
      e.style.visibility = !re || re.test(e.getAttribute("data-band")) ? "" : "hidden";
    });
    if (re) note.textContent = shown + (shown === 1 ? " band" : " bands");
  }
  filter.addEventListener("input", apply);

  window.hpgraph = { data: function () { return D; } };
})();
