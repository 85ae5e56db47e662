// A cost-centre profile's table on the page: the tree of stacks the library listed and summed
// (src/analysis/page/tree.rs), each row's individual and inherited figures in every measure the
// profile has; and eventlog samples' strip over time (strip.rs). This part folds rows, sorts callees
// by a column, weighs the flame graph by the measure chosen, and adds the samples of the stretch
// dragged on the strip (sums run from the end, every row after its caller, as the flame graph's do).
var hpgraphCosts = (function () {
  "use strict";
  // Rows whose inherited share of the measure chosen is at least this open at first.
  var OPEN_SHARE = 0.05;
  // Deeper rows are indented no further (their depth is in their tooltip).
  var MAX_INDENT = 40, el = hpgraphDom.el;

  // The table of `T` (the page data's `tree`) over `frames`, drawn into `table`; `shareOf` writes a fraction.
  function table(T, frames, shareOf, table) {
    var n = T.rows.length, callees = T.callees, open = new Uint8Array(n), sortBy = null, measure = T.chosen;
    // The figures shown: the whole profile's, or a stretch's samples (measure 0).
    var cur = { own: T.own.slice(), inherited: T.inherited.slice(), totals: T.measures.map(function (m) { return m.total; }) };
    // The columns: the name, its source, then each measure's individual and inherited figures as
    // shares (entries: the count, as GHC's report gives it).
    var columns = [{ head: "cost centre", name: true, value: function (r) { return frames[T.rows[r][0]]; } },
      { head: "source", name: true, value: function (r) { return T.sources[r]; } }];
    T.measures.forEach(function (m, k) {
      if (!m.inherited) return columns.push({ head: m.name, measure: k, value: function (r) { return cur.own[k][r]; }, text: String });
      [["individual", "own"], ["inherited", "inherited"]].forEach(function (c) {
        columns.push({ head: c[0] + " " + m.name, measure: k, kind: c[0], counts: m.counts, value: function (r) { return cur[c[1]][k][r]; },
          text: function (v) { return shareOf(cur.totals[k] > 0 ? v / cur.totals[k] : 0); } });
      });
    });
    function reopen() {
      for (var r = 0; r < n; r++) open[r] = T.rows[r][1] < 0 || cur.inherited[measure][r] >= OPEN_SHARE * cur.totals[measure] ? 1 : 0;
    }
    // Callees in the column sorted by (at first: the measure's inherited figure, largest first).
    function order(list) {
      var c = sortBy ? columns[sortBy.column] : null, down = sortBy ? sortBy.down : true;
      var key = c ? c.value : function (r) { return cur.inherited[measure][r]; };
      return list.slice().sort(function (a, b) { var d = hpgraphDom.compare(key(a), key(b)); return (down ? -d : d) || a - b; });
    }
    function head() {
      var tr = el("#tr", {});
      columns.forEach(function (c, k) {
        var th = el("#th", { class: c.name ? "name" : "", "data-column": k }, tr, c.head);
        hpgraphDom.sorted(th, sortBy ? sortBy.column === k : c.measure === measure && c.kind === "inherited", !sortBy || sortBy.down);
        hpgraphDom.sorts(th, function () { sortBy = { column: k, down: sortBy && sortBy.column === k ? !sortBy.down : !c.name }; draw(); });
      });
      table.tHead.replaceChildren(tr);
    }
    function row(body, r) {
      var depth = T.rows[r][2], tr = el("#tr", { "data-row": r, "data-depth": depth }, body), name = el("#td", { class: "name" }, tr);
      var cell = el("#span", { class: "stack", title: "depth " + depth }, name);
      cell.style.paddingLeft = Math.min(depth, MAX_INDENT) * 0.8 + "em";
      if (callees[r].length) el("#button", { type: "button", class: "fold", "aria-expanded": open[r] ? "true" : "false", "aria-label": (open[r] ? "fold " : "unfold ") + callees[r].length + " callees", "data-row": r }, cell, open[r] ? "▾" : "▸");
      else el("#span", { class: "fold" }, cell, "");
      el("#span", {}, cell, frames[T.rows[r][0]]);
      columns.slice(1).forEach(function (c) {
        var v = c.value(r);
        if (c.name) return el("#td", { class: "name source" }, tr, v);
        el("#td", { "data-value": v, title: c.counts ? v + " " + c.counts : "" }, tr, c.text(v));
      });
      if (open[r]) order(callees[r]).forEach(function (k) { row(body, k); });
    }
    function draw() {
      var body = el("#tbody", {});
      head();
      order(T.roots).forEach(function (r) { row(body, r); });
      if (T.hidden) el("#td", { class: "name", colspan: columns.length }, el("#tr", { class: "total" }, body),
        T.hidden + " smaller stacks are not listed: their figures are in their callers' inherited ones (--summary and --csv list every stack)");
      table.replaceChild(body, table.tBodies[0]);
      table.setAttribute("data-measure", T.measures[measure].name);
    }
    // One handler, whichever table drew last (a live page draws a new one per update).
    table.onclick = function (ev) {
      var b = ev.target.closest && ev.target.closest("button.fold");
      if (b) { var r = +b.dataset.row; open[r] ^= 1; draw(); }
    };
    reopen();
    draw();
    return {
      // Chooses measure `k`: the rows open as its shares say, its inherited figures sort them.
      measure: function (k) { measure = k; sortBy = null; reopen(); draw(); },
      chosen: function () { return measure; },
      // Opens every row (for scripts and tests).
      openAll: function () { open.fill(1); draw(); },
      // The samples of the strip's stretches `b0` to `b1` (null: the whole run's).
      stretch: function (b0, b1) {
        if (b0 === null) { cur.own[0] = T.own[0]; cur.inherited[0] = T.inherited[0]; cur.totals[0] = T.measures[0].total; } else {
          var own = new Float64Array(n), inh, r, total = 0;
          T.strip.rows.forEach(function (counts, r) { counts.forEach(function (c) { if (c[0] >= b0 && c[0] <= b1) own[r] += c[1]; }); });
          inh = Float64Array.from(own);
          for (r = n - 1; r >= 0; r--) { total += own[r]; if (T.rows[r][1] >= 0) inh[T.rows[r][1]] += inh[r]; }
          cur.own[0] = own; cur.inherited[0] = inh; cur.totals[0] = total;
        }
        reopen(); draw();
      },
      // Each row's part of the flame graph in the measure chosen, at its leaf (`which`: 0 the tree,
      // 1 the inverted one): its inherited figure less its listed callees', for rows whose stack `passes`.
      weigh: function (own, which, passes) {
        var inh = cur.inherited[measure], part = Float64Array.from(inh), r;
        for (r = 0; r < n; r++) if (T.rows[r][1] >= 0) part[T.rows[r][1]] -= inh[r];
        for (r = 0; r < n; r++) if (part[r] > inh[r] * 1e-12 && passes(this.stackName(r))) own[T.leaves[r][which]] += part[r];
        return own;
      },
      // A row's stack as GHC names it, innermost first.
      stackName: function (r) {
        for (var out = []; r >= 0; r = T.rows[r][1]) out.push(frames[T.rows[r][0]]);
        return out.join("/");
      }
    };
  }

  // The strip of samples over time `S` (the tree's `strip`) in `svg`, `width` wide: a bar per stretch,
  // stacked from the bottom by the rows the library chose (`S.coloured`), each in its colour and named
  // on hover (`paint(row)`: [fill, name]), the rest grey on top; its time axis `axis(t0, t1, n)` ([time,
  // label] pairs, the library's labelling); a drag calls `chosen(b0, b1)`, a double-click `chosen(null)`.
  function strip(S, svg, width, axis, chosen, paint) {
    var B = S.totals.length, H = 48, peak = Math.max.apply(null, S.totals) || 1, w = width / B, drag = null, pick = null, parts = S.totals.map(function () { return []; });
    var t0 = S.edges[0], t1 = S.edges[B], X = function (t) { return (t - t0) / (t1 - t0) * width; };
    svg.setAttribute("viewBox", "0 0 " + width + " " + (H + 16));
    svg.replaceChildren();
    S.coloured.forEach(function (r) { S.rows[r].forEach(function (c) { parts[c[0]].push([r, c[1]]); }); });
    S.totals.forEach(function (v, b) {
      var y = H, rest = parts[b].reduce(function (left, p) { return left - p[1]; }, v), bar = function (n, p, row) {
        if (n > 0) el("title", {}, el("rect", { class: "stretch", x: (b * w).toFixed(2), width: Math.max(0.5, w - 0.3).toFixed(2), y: (y -= n / peak * H).toFixed(2), height: (n / peak * H).toFixed(2), fill: p[0], "data-stretch": b, "data-row": row, "data-samples": n }, svg), p[1] + ": " + n);
      };
      parts[b].forEach(function (p) { bar(p[1], paint(p[0]), p[0]); });
      bar(rest, ["#777", "other stacks"], -1);
    });
    el("path", { d: "M0 " + H + "H" + width, stroke: "#000", "stroke-width": 0.6 }, svg);
    axis(t0, t1, Math.max(2, Math.floor(width / 90))).forEach(function (t) {
      el("path", { d: "M" + X(t[0]) + " " + H + "v3", stroke: "#000" }, svg);
      el("text", { x: X(t[0]), y: H + 13, "font-size": 10, "text-anchor": "middle" }, svg, t[1]);
    });
    var shade = el("rect", { class: "chosen", y: 0, height: H, x: 0, width: 0, fill: "rgba(0,90,200,0.18)", "pointer-events": "none" }, svg);
    var binAt = function (ev) { var r = svg.getBoundingClientRect(); return Math.max(0, Math.min(B - 1, Math.floor((ev.clientX - r.left) / r.width * B))); };
    function show(b0, b1) {
      pick = b0 === null ? null : [Math.min(b0, b1), Math.max(b0, b1)];
      shade.setAttribute("x", pick ? (pick[0] * w).toFixed(2) : 0);
      shade.setAttribute("width", pick ? ((pick[1] - pick[0] + 1) * w).toFixed(2) : 0);
      if (pick) { svg.dataset.from = pick[0]; svg.dataset.to = pick[1]; } else { delete svg.dataset.from; delete svg.dataset.to; }
    }
    svg.onmousedown = function (ev) { if (ev.button === 0 && !ev.preventDefault()) { drag = binAt(ev); show(drag, drag); } };
    svg.onmousemove = function (ev) { if (drag !== null) show(drag, binAt(ev)); };
    window.addEventListener("mouseup", function () { if (drag === null) return; drag = null; chosen(pick[0], pick[1]); });
    svg.ondblclick = function () { show(null); chosen(null); };
    // For scripts and tests: the stretches `b0` to `b1` chosen as a drag would.
    return { choose: function (b0, b1) { show(b0, b1); chosen(b0 === null ? null : pick[0], b0 === null ? null : pick[1]); } };
  }
  return { table: table, strip: strip };
})();
