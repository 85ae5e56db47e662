// The page's lists that are not its bands (src/analysis/page/lists.rs): a root or retainer
// profile's members, a ticky-ticky run's counters. Each is a table of rows the library
// weighed; this part sorts them by a heading and writes the first `limit` rows, each
// cell as text. The members' rows are buttons: choosing one shows the bands of its sets.
var hpgraphLists = (function () {
  "use strict";
  var el = hpgraphDom.el, attrs = hpgraphDom.attrs;

  // A sortable table in `table` of `rows`: `columns` are [heading, field, write], the first the name;
  // `limit` rows at most, `more` said under them; `pick(k)` (optional) when a row (its index in `rows`)
  // is chosen, its row then pressed, or `pick(null)` when chosen again.
  function table(table, columns, rows, limit, more, pick) {
    var sortBy = { k: 1, down: true }, chosen = null, order = rows.map(function (r, k) { return k; });
    var head = el("#tr", {});
    columns.forEach(function (c, i) {
      hpgraphDom.sorts(el("#th", { "data-sort": c[1], class: i ? "" : "name" }, head, c[0]), function () { sortBy = { k: i, down: sortBy.k === i ? !sortBy.down : i > 0 }; draw(); });
    });
    table.tHead.replaceChildren(head);
    function draw() {
      var f = columns[sortBy.k][1], sign = sortBy.down ? -1 : 1, body = el("#tbody", {});
      order.sort(function (x, y) {
        return sign * hpgraphDom.compare(rows[x][f], rows[y][f]) || x - y;
      });
      order.slice(0, limit).forEach(function (k) {
        var tr = el("#tr", { "data-row": k }, body);
        if (pick) attrs(tr, { tabindex: "0", role: "button", "aria-pressed": chosen === k, class: chosen === k ? "chosen" : "" });
        columns.forEach(function (c, i) { el("#td", { class: i ? "" : "name", "data-value": rows[k][c[1]] }, tr, c[2](rows[k][c[1]])); });
      });
      if (rows.length > limit || more) el("#td", { class: "name", colspan: columns.length }, el("#tr", { class: "total" }, body),
        (rows.length > limit ? rows.length - limit + " more, not listed here (--top sets how many are)" : "") + (rows.length > limit && more ? " · " : "") + (more || ""));
      table.replaceChild(body, table.tBodies[0]);
      columns.forEach(function (c, i) { hpgraphDom.sorted(table.tHead.rows[0].cells[i], i === sortBy.k, sortBy.down); });
    }
    function choose(ev) {
      var tr = ev.target.closest("tr[data-row]");
      if (!tr || !hpgraphDom.activates(ev)) return;
      var k = +tr.dataset.row;
      chosen = chosen === k ? null : k;
      draw();
      pick(chosen);
    }
    // On the table, which keeps its listeners as its rows are written anew.
    if (pick) { table.addEventListener("click", choose); table.addEventListener("keydown", choose); }
    draw();
    return { draw: draw, choose: function (k) { chosen = k; draw(); pick(k); }, chosen: function () { return chosen; } };
  }

  // The members' table (D.members) in the section `box`; `pick(k)` shows member k's view.
  function members(box, M, W, limit, pick) {
    box.hidden = false;
    box.querySelector("h2").textContent = M.roots ? "Roots: the bytes each holds" : "Retainers: the bytes each holds";
    var notes = [];
    if (M.left_out) notes.push(M.left_out + " members past the page's limit, not weighed");
    if (M.unknown_sets) notes.push(M.unknown_sets + " bands whose set the run's report does not list, counted for no member");
    return table(box.querySelector("table"), [
      [M.roots ? "root" : "retainer", "name", String],
      ["reachable at its peak", "reachable_peak", W.value],
      ["alone at its peak", "alone_peak", W.value],
      ["sets holding it", "sets", String]
    ], M.list.map(function (m) { return Object.assign({ sets: m.bands.length + m.unshown }, m); }), limit, notes.join(" · "), pick);
  }

  // The ticky counters' table (D.ticky) in the section `box`.
  function ticky(box, C, limit) {
    box.hidden = false;
    var count = function (n) { return n.toLocaleString("en-US"); };
    return table(box.querySelector("table"), [
      ["counter", "name", String],
      ["Alloc: bytes its code allocated", "allocs", count],
      ["Alloc'd: bytes allocated of it", "allocd", count],
      ["entries", "entries", count]
    ], C, limit, "", null);
  }

  return { members: members, ticky: ticky };
})();
