// A cost-centre profile's table on the page: the tree of stacks the library listed and
// summed (src/analysis/page/tree.rs), each row's individual and inherited figures in every
// measure the profile has. This part folds and unfolds rows, sorts each row's callees by
// a column, and weighs the flame graph by the measure chosen; it computes nothing else.
// Profile text reaches the page only as text.
var hpgraphCosts = (function () {
  "use strict";
  // Rows whose inherited share of the measure chosen is at least this open at first.
  var OPEN_SHARE = 0.05;
  // Deeper rows are indented no further (their depth is in their tooltip).
  var MAX_INDENT = 40;

  // The table of `T` (the page data's `tree`) over `frames`, drawn with `el` into the
  // table `table`; `shareOf` writes a fraction.
  function table(T, frames, el, shareOf, table) {
    var n = T.rows.length, callees = T.callees, open = new Uint8Array(n), sortBy = null, measure = T.chosen;
    // The columns: the name, its source, then each measure's individual and inherited
    // figures (entries: the count, as GHC's report gives it).
    var columns = [{ head: "cost centre", name: true, value: function (r) { return frames[T.rows[r][0]]; } },
      { head: "source", name: true, value: function (r) { return T.sources[r]; } }];
    T.measures.forEach(function (m, k) {
      var total = m.total, counts = m.counts;
      if (m.name === "entries") return columns.push({ head: "entries", measure: k, value: function (r) { return T.own[k][r]; }, text: String });
      [["individual ", T.own], ["inherited ", T.inherited]].forEach(function (c) {
        columns.push({ head: c[0] + m.name, measure: k, kind: c[0].trim(), counts: counts, value: function (r) { return c[1][k][r]; },
          text: function (v) { return shareOf(total > 0 ? v / total : 0); } });
      });
    });
    function reopen() {
      for (var r = 0; r < n; r++) open[r] = T.rows[r][1] < 0 || T.inherited[measure][r] >= OPEN_SHARE * T.measures[measure].total ? 1 : 0;
    }
    // Callees in the column sorted by (at first: the measure's inherited figure, largest first).
    function order(list) {
      var c = sortBy ? columns[sortBy.column] : null, down = sortBy ? sortBy.down : true;
      var key = c ? c.value : function (r) { return T.inherited[measure][r]; };
      var cmp = function (p, q) { return typeof p === "string" ? (p < q ? -1 : p > q ? 1 : 0) : p - q; };
      return list.slice().sort(function (a, b) { var d = cmp(key(a), key(b)); return (down ? -d : d) || a - b; });
    }
    function head() {
      var tr = el("#tr", {});
      columns.forEach(function (c, k) {
        var th = el("#th", { class: c.name ? "name" : "", "data-column": k, "aria-sort": sortBy && sortBy.column === k ? (sortBy.down ? "descending" : "ascending") : "none" }, tr, c.head);
        if (c.measure === measure && c.kind === "inherited" && !sortBy) th.setAttribute("aria-sort", "descending");
        th.addEventListener("click", function () { sortBy = { column: k, down: sortBy && sortBy.column === k ? !sortBy.down : !c.name }; draw(); });
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
      // Each row's part of the flame graph in the measure chosen, at its leaf (`which`: 0
      // the tree, 1 the inverted one): its inherited figure less its listed callees',
      // only for rows whose stack `passes`.
      weigh: function (own, which, passes) {
        var inh = T.inherited[measure], part = Float64Array.from(inh), r;
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
  return { table: table };
})();
