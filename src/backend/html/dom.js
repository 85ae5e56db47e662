// The pages' few ways with the document, shared by every part of every page (the
// comparison's too): an element whose text is only ever text, its attributes, a place in a
// sorted list, a table's cells in order, a heading that sorts, a tooltip kept in its box, a
// filter's pattern.
// Nothing here computes a figure (that is figures.js). Profile text reaches a page only as
// text, through `el` (tests/it/layers.rs holds every script to it).
var hpgraphDom = (function () {
  "use strict";
  function attrs(e, map) { for (var k in map) e.setAttribute(k, map[k]); return e; }
  // An element: SVG, or HTML when its name starts with "#"; its text, if any, as text.
  function el(name, map, parent, text) {
    var e = attrs(name.charAt(0) === "#" ? document.createElement(name.slice(1)) : document.createElementNS("http://www.w3.org/2000/svg", name), map);
    if (text !== undefined) e.textContent = text;
    return parent ? parent.appendChild(e) : e;
  }
  // The first index of the sorted `list` whose key (`keyOf` of an item, else the item) is at least (`after`: more than) `t`.
  function bisect(list, t, keyOf, after) {
    for (var lo = 0, hi = list.length, m, k; lo < hi;) { m = (lo + hi) >> 1; k = keyOf ? keyOf(list[m]) : list[m]; if (after ? k <= t : k < t) lo = m + 1; else hi = m; }
    return lo;
  }
  // Two cells of a column: names in order, figures by size.
  function compare(p, q) { return typeof p === "string" ? (p < q ? -1 : p > q ? 1 : 0) : p - q; }
  // Whether `ev` asks a control to act: a click, or Enter or Space on it (its default then prevented).
  function activates(ev) { return (ev.type !== "keydown" || ev.key === "Enter" || ev.key === " ") && !ev.preventDefault(); }
  // A heading `th` that sorts its table by `sort()`, from the keyboard too; `sorted` marks it.
  function sorts(th, sort) { th.tabIndex = 0; ["click", "keydown"].forEach(function (t) { th.addEventListener(t, function (ev) { if (activates(ev)) sort(); }); }); }
  function sorted(th, by, down) { th.setAttribute("aria-sort", !by ? "none" : down ? "descending" : "ascending"); }
  // `tip` beside the pointer of `ev`, to its left where the right would leave `box`.
  function place(tip, box, ev) {
    var r = box.getBoundingClientRect(), x = ev.clientX - r.left + 14;
    tip.style.left = (x + tip.offsetWidth > r.width ? Math.max(0, x - tip.offsetWidth - 28) : x) + "px"; tip.style.top = ev.clientY - r.top + 14 + "px";
  }
  // A filter box's pattern, case blind on every page (null when `input` is empty), or undefined
  // when it is not one: the box then marked and `note` saying why.
  function pattern(input, note) {
    try { var re = input.value ? new RegExp(input.value, "i") : null; } catch (e) {
      note.textContent = "not a regular expression: " + e.message;
      return void input.setAttribute("aria-invalid", "true");
    }
    input.removeAttribute("aria-invalid");
    return re;
  }
  return { attrs: attrs, el: el, bisect: bisect, compare: compare, activates: activates, sorts: sorts, sorted: sorted, place: place, pattern: pattern };
})();
