// A flame graph on the page: the library laid out its frames (src/analysis/page/flame.rs:
// each node as [label, parent, end, flags, depth], every node after its parent); the page
// gives each node what it holds itself, and this part sums from the end, places and draws
// the frames, zooms into a clicked one and says a hovered one's figures. The heap's flame
// graph and the cost-centre samples' beside it are two of these.
var hpgraphFlame = (function () {
  "use strict";
  var ROW = 18, el = hpgraphDom.el, attrs = hpgraphDom.attrs;

  // A flame graph drawn in `parts.svg`, titled in `parts.title`, a hovered frame said in `parts.info`.
  function view(parts) {
    var f = null, svg = parts.svg;
    // Shows `g`: the nodes `N` and each one's own weight `own`; `S` has the frames' labels, fills and
    // inks (`frames`, `frame_fills`, `frame_inks`, `other_fill`) and the notes (`flame.notes`); `W` writes
    // figures, `after` follows one (` ticks`), `heading` leads the title, `inverted` says which tree `N` is.
    // How many frames it drew.
    function show(g) {
      var N = g.N, bytes = Float64Array.from(g.own);
      for (var i = N.length - 1; i > 0; i--) bytes[N[i][1]] += bytes[i];
      f = Object.assign(g, { bytes: bytes, focus: 0 });
      draw();
      return f.drawn;
    }
    function draw() {
      var N = f.N, bytes = f.bytes, own = f.own, focus = f.focus, S = f.S, Wd = Math.max(300, svg.parentNode.clientWidth || 800), i, rows = 1, narrow = new Map();
      for (i = 1; i < N.length; i++) if (bytes[i] > 0) rows = Math.max(rows, N[i][4] + 1);
      attrs(svg, { viewBox: "0 0 " + Wd + " " + rows * ROW, height: rows * ROW });
      svg.textContent = "";
      parts.title.textContent = f.heading + ": " + f.W.value(bytes[0]) + f.after +
        (focus ? " · within " + stackOf(focus) + " (click all to see everything)" : " · click a frame to zoom into it");
      var scale = bytes[focus] > 0 ? Wd / bytes[focus] : 0, x = new Float64Array(N.length), placed = new Uint8Array(N.length);
      f.drawn = 0;
      function frame(node, at, w, depth) {
        var y = (rows - 1 - depth) * ROW, room = Math.floor((w - 6) / 6.2), label = node.name;
        var g = el("g", { class: "frame", "data-stack": node.stack, "data-bytes": node.bytes, "data-own": node.own }, svg);
        el("rect", { x: at.toFixed(2), y: y, width: Math.max(0, w - 0.5).toFixed(2), height: ROW - 1, rx: 1, "fill-opacity": node.self ? 0.5 : 1,
          fill: node.k === 0 ? "#c8c8c8" : node.narrow ? "#e0e0e0" : node.cut ? "#999" : node.fill || S.other_fill }, g);
        if (w > 30) el("text", { x: (at + 3).toFixed(2), y: y + 12.5, "font-size": 11, fill: node.ink || "#111" }, g, label.length > room ? label.slice(0, Math.max(1, room - 1)) + "…" : label);
        el("title", {}, g, describe(node));
        g.node = node;
        f.drawn++;
      }
      var nodeOf = function (k) { return { k: k, name: k ? S.frames[N[k][0]] : "all", fill: S.frame_fills[N[k][0]], ink: k && S.frame_inks[N[k][0]], stack: stackOf(k), bytes: bytes[k], own: own[k], cut: N[k][3] & 1, placed: N[k][3] & 2 }; };
      var join = function (k, v) { var s = narrow.get(k) || { bytes: 0, count: 0 }; s.bytes += v; s.count++; narrow.set(k, s); };
      // A frame, then what it holds itself, paler, before its callees (bare boxes add up to the whole).
      function place(k, at, w) {
        var node = nodeOf(k), ow = own[k] * scale, apart = own[k] > 0 && bytes[k] > own[k] && N[k][4] + 1 < rows;
        if (apart) node.own = 0;
        frame(node, at, w, N[k][4]);
        x[k] = at; placed[k] = 1;
        if (apart && ow >= 0.5) { frame({ name: node.name, fill: node.fill, stack: node.stack + " (its own)", self: true, bytes: own[k], own: own[k] }, at, ow, N[k][4] + 1); x[k] += ow; }
        else if (apart) join(k, own[k]);
      }
      // The focus's callers span the width; its callees share it by weight.
      for (var up = focus; up; up = N[up][1]) if (up !== focus || !focus) frame(nodeOf(up), 0, Wd, N[up][4]);
      if (focus) frame(nodeOf(0), 0, Wd, 0);
      place(focus, 0, Wd);
      for (i = focus + 1; i < N[focus][2]; i++) {
        var p = N[i][1], w = bytes[i] * scale;
        if (placed[p] && bytes[i] > 0 && w >= 0.5) { place(i, x[p], w); x[p] += w; continue; }
        if (placed[p] && bytes[i] > 0) join(p, bytes[i]);
        i = N[i][2] - 1;
      }
      // Callees narrower than half a pixel are one grey box per caller, after the others.
      narrow.forEach(function (s, k) { frame({ narrow: true, name: s.count + " narrower parts", stack: s.count + " narrower parts", bytes: s.bytes, own: s.bytes }, x[k], s.bytes * scale, N[k][4] + 1); });
    }
    // A node's stack as GHC writes it, innermost first.
    function stackOf(k) {
      for (var out = [], N = f.N; k; k = N[k][1]) out.push(f.S.frames[N[k][0]]);
      return out.length ? (f.inverted ? out.reverse() : out).join("/") : "all";
    }
    function describe(n) {
      return n.stack + ": " + f.W.value(n.bytes) + " (" + f.W.share(f.bytes[0] > 0 ? n.bytes / f.bytes[0] : 0) + ")" + (n.own > 0 && n.own < n.bytes && !n.self ? ", its own " + f.W.value(n.own) : "") +
        (n.cut ? f.S.flame.notes[0] : "") + (n.placed ? f.S.flame.notes[1] : "");
    }
    var frameOf = function (ev) { var g = ev.target.closest && ev.target.closest("g.frame"); return g && g.node; };
    svg.addEventListener("mousemove", function (ev) { var n = frameOf(ev); parts.info.textContent = n ? describe(n) : ""; });
    svg.addEventListener("click", function (ev) { var n = frameOf(ev); if (n && !n.narrow && !n.self) { f.focus = n.k === f.focus ? f.N[n.k][1] : n.k; draw(); } });
    return { show: show };
  }
  return { view: view };
})();
