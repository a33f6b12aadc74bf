// rules.js: the pure rules of the sudoku-press player (no DOM): houses, conflicts, cage status,
// pencil-mark clearing, hints, undo/redo, the solve replay, cage shading and cage outlines.
// Loaded as a classic script element it defines the global `SudokuRules`; in Node it is a CommonJS
// module (`require` or `import`), so `node --test tests/js/` tests the same file the page runs.
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.SudokuRules = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  /** The name of a cell, `r{row}c{col}`, 1-based. */
  function cellName(cell, n) {
    return 'r' + (Math.floor(cell / n) + 1) + 'c' + ((cell % n) + 1);
  }

  /** The digit a key stands for on an N-sized grid (1-9, then A-G for 10-16), or 0. */
  function digitFromKey(key, n) {
    var d = 0;
    if (/^[1-9]$/.test(key)) d = +key;
    else if (/^[a-gA-G]$/.test(key)) d = key.toUpperCase().charCodeAt(0) - 55;
    return d >= 1 && d <= n ? d : 0;
  }

  function isDigitArray(a, len, max) {
    if (!Array.isArray(a) || a.length !== len) return false;
    for (var i = 0; i < len; i++) {
      if (!Number.isInteger(a[i]) || a[i] < 0 || a[i] > max) return false;
    }
    return true;
  }

  /**
   * Expand the page's compact data in place (see `PathStep` and `MakingStep` in src/play/):
   * a step with a `place` gets its technique's name back in front of its `text` and the two
   * hints `explain --hints` prints; a stage with `drop`/`add` gets its whole `cages` layout.
   * Returns why the data cannot be expanded, or null.
   */
  function expand(data) {
    if (!data || typeof data !== 'object') return null;
    var names = data.techniques || {}, path = data.path, making = data.making, k;
    for (k = 0; Array.isArray(path) && k < path.length; k++) {
      var st = path[k];
      if (!st || typeof st.place !== 'string') continue;
      var t = names[st.technique];
      if (!t || typeof t.name !== 'string') return 'step ' + (k + 1) + ' of "path" names an unknown technique ' + JSON.stringify(st.technique);
      st.text = t.name + ': ' + st.text;
      st.hints = ['Look for a step of the kind "' + t.name + '".', t.name + ' in ' + st.place + '.'];
    }
    var layout = null;
    for (k = 0; Array.isArray(making) && k < making.length; k++) {
      var mk = making[k];
      if (mk && Array.isArray(mk.cages)) layout = mk.cages;
      if (!mk || (mk.drop == null && mk.add == null)) continue;
      if (!layout || !Array.isArray(mk.drop) || !Array.isArray(mk.add) || !mk.drop.every(function (i) { return Number.isInteger(i) && i >= 0 && i < layout.length; })) {
        return 'stage ' + (k + 1) + ' of "making": "drop" must name cages of the layout before it, and "add" must be a list';
      }
      layout = layout.filter(function (c, i) { return mk.drop.indexOf(i) < 0; }).concat(mk.add);
      mk.cages = layout;
    }
    return null;
  }

  /** Why the page data cannot be played (a sentence naming the field), or null when it can. */
  function validate(data) {
    if (!data || typeof data !== 'object') return 'the puzzle data is not a JSON object';
    var n = data.size;
    if (!Number.isInteger(n) || n < 1 || n > 16) return '"size" must be a whole number from 1 to 16, not ' + JSON.stringify(n);
    var len = n * n;
    if (!isDigitArray(data.givens, len, n)) return '"givens" must hold ' + len + ' digits from 0 to ' + n;
    if (!isDigitArray(data.solution, len, n) || data.solution.indexOf(0) >= 0) return '"solution" must hold ' + len + ' digits from 1 to ' + n;
    if (!isDigitArray(data.regions, len, n - 1)) return '"regions" must hold ' + len + ' region numbers from 0 to ' + (n - 1);
    for (var i = 0; i < len; i++) {
      if (data.givens[i] && data.givens[i] !== data.solution[i]) return 'given ' + cellName(i, n) + ' disagrees with the solution';
    }
    var why = checkCages(data.cages || [], n, '"cages"');
    if (why) return why;
    var lists = ['path', 'making'];
    for (var m = 0; m < lists.length; m++) {
      if (data[lists[m]] != null && !Array.isArray(data[lists[m]])) return '"' + lists[m] + '" must be a list';
    }
    var path = data.path || [], making = data.making || [], k, j;
    for (k = 0; k < path.length; k++) {
      var st = path[k], where = 'step ' + (k + 1) + ' of "path"';
      if (!st || typeof st.text !== 'string') return where + ' needs a "text"';
      if (st.cells != null && !isCellList(st.cells, len)) return where + ' names a cell outside the grid';
      var pairs = (st.placements || []).concat(st.eliminations || []);
      for (j = 0; j < pairs.length; j++) {
        var p = pairs[j];
        if (!Array.isArray(p) || !isCellList([p[0]], len) || !Number.isInteger(p[1]) || p[1] < 1 || p[1] > n) return where + ' has a placement or elimination ' + JSON.stringify(p) + ' outside the grid';
      }
    }
    for (k = 0; k < making.length; k++) {
      var mk = making[k], at = 'stage ' + (k + 1) + ' of "making"';
      if (!mk || typeof mk.text !== 'string' || typeof mk.stage !== 'string') return at + ' needs a "stage" and a "text"';
      if (mk.grid != null && !isDigitArray(mk.grid, len, n)) return at + ': "grid" must hold ' + len + ' digits';
      if (mk.givens != null && !isDigitArray(mk.givens, len, n)) return at + ': "givens" must hold ' + len + ' digits';
      if (mk.cages != null && (why = checkCages(mk.cages, n, at + ': "cages"'))) return why;
    }
    return null;
  }

  function isCellList(a, len) {
    return Array.isArray(a) && a.every(function (c) { return Number.isInteger(c) && c >= 0 && c < len; });
  }

  /** Why a cage list is broken (cells outside the grid or in two cages), or null. */
  function checkCages(cages, n, what) {
    if (!Array.isArray(cages)) return what + ' must be a list';
    var len = n * n, seen = new Array(len).fill(false);
    for (var k = 0; k < cages.length; k++) {
      var c = cages[k];
      if (!c || !Number.isInteger(c.sum) || !Array.isArray(c.cells) || !c.cells.length) return what + ': cage ' + (k + 1) + ' needs a whole "sum" and a non-empty "cells" list';
      if (!isCellList(c.cells, len)) return what + ': cage ' + (k + 1) + ' names a cell outside the grid';
      for (var j = 0; j < c.cells.length; j++) {
        if (seen[c.cells[j]]) return what + ': cell ' + cellName(c.cells[j], n) + ' lies in two cages';
        seen[c.cells[j]] = true;
      }
    }
    return null;
  }

  /** The houses of a puzzle: rows, columns, regions, then cages; and the houses of each cell. */
  function geometry(data) {
    var n = data.size, len = n * n, houses = [], kinds = [], i, r;
    for (r = 0; r < n; r++) {
      var row = [], col = [];
      for (i = 0; i < n; i++) { row.push(r * n + i); col.push(i * n + r); }
      houses.push(row); kinds.push('row');
      houses.push(col); kinds.push('column');
    }
    var regions = [];
    for (r = 0; r < n; r++) regions.push([]);
    for (i = 0; i < len; i++) regions[data.regions[i]].push(i);
    for (r = 0; r < n; r++) { houses.push(regions[r]); kinds.push('region'); }
    var cages = data.cages || [], cageOf = new Array(len).fill(-1), firstHouse = houses.length;
    cages.forEach(function (c, k) {
      houses.push(c.cells.slice()); kinds.push('cage');
      c.cells.forEach(function (cell) { cageOf[cell] = k; });
    });
    var cellHouses = [];
    for (i = 0; i < len; i++) cellHouses.push([]);
    houses.forEach(function (h, hi) { h.forEach(function (cell) { cellHouses[cell].push(hi); }); });
    var peers = cellHouses.map(function (hs, cell) {
      var set = {};
      hs.forEach(function (hi) { houses[hi].forEach(function (p) { if (p !== cell) set[p] = true; }); });
      return Object.keys(set).map(Number).sort(function (a, b) { return a - b; });
    });
    return { n: n, len: len, houses: houses, kinds: kinds, cellHouses: cellHouses, peers: peers,
      regions: data.regions, cages: cages, cageOf: cageOf, cageHouse: firstHouse };
  }

  /** For each cell, true when its digit repeats in one of its houses (every cell involved). */
  function conflicts(geom, values) {
    var bad = new Array(geom.len).fill(false);
    geom.houses.forEach(function (h) {
      var at = {};
      h.forEach(function (cell) {
        var d = values[cell];
        if (!d) return;
        if (at[d] === undefined) at[d] = [];
        at[d].push(cell);
      });
      Object.keys(at).forEach(function (d) {
        if (at[d].length > 1) at[d].forEach(function (cell) { bad[cell] = true; });
      });
    });
    return bad;
  }

  /**
   * The state of each cage: 'open', 'over' (its digits leave no room for the sum: they exceed it,
   * or the empty cells, each at least 1, can no longer fit), 'wrong' (full with another sum) or
   * 'full' (full with its sum).
   */
  function cageStates(geom, values) {
    return geom.cages.map(function (c) {
      var total = 0, empty = 0;
      c.cells.forEach(function (cell) { if (values[cell]) total += values[cell]; else empty++; });
      if (!empty) return total === c.sum ? 'full' : 'wrong';
      return total + empty > c.sum ? 'over' : 'open';
    });
  }

  /** True when every cell holds the solution's digit. */
  function isSolved(values, solution) {
    for (var i = 0; i < solution.length; i++) if (values[i] !== solution[i]) return false;
    return true;
  }

  /** A fresh player state: values (givens included) and centre/corner pencil marks as bitmasks. */
  function newState(data) {
    var len = data.size * data.size;
    return { values: data.givens.slice(), centre: new Array(len).fill(0), corner: new Array(len).fill(0) };
  }

  function snap(state, cell) {
    return { v: state.values[cell], centre: state.centre[cell], corner: state.corner[cell] };
  }

  /**
   * The change (a list of {cell, before, after}) that entering `digit` (0 erases) in `mode`
   * ('value', 'centre' or 'corner') makes to `cells`. Placing a digit also removes it from the
   * pencil marks of every cell that shares a house. Givens never change. Empty list: no change.
   */
  function input(geom, givens, state, cells, digit, mode) {
    var after = {}, order = [];
    function touch(cell) {
      if (!after[cell]) { after[cell] = snap(state, cell); order.push(cell); }
      return after[cell];
    }
    var targets = cells.filter(function (c) { return !givens[c]; });
    if (mode === 'value' || digit === 0) {
      targets.forEach(function (cell) {
        var s = touch(cell);
        if (digit === 0) {
          if (s.v) s.v = 0; else { s.centre = 0; s.corner = 0; }
          return;
        }
        s.v = digit;
        var bit = 1 << digit;
        geom.peers[cell].forEach(function (p) {
          if ((state.centre[p] | state.corner[p]) & bit) {
            var t = touch(p);
            t.centre &= ~bit; t.corner &= ~bit;
          }
        });
      });
    } else {
      var key = mode === 'corner' ? 'corner' : 'centre', bit = 1 << digit;
      var empty = targets.filter(function (c) { return !state.values[c]; });
      // Several cells: add the mark unless all have it already, as pencil tools usually do.
      var all = empty.every(function (c) { return state[key][c] & bit; });
      empty.forEach(function (cell) {
        var s = touch(cell);
        s[key] = all ? s[key] & ~bit : s[key] | bit;
      });
    }
    var changes = [];
    order.forEach(function (cell) {
      var b = snap(state, cell), a = after[cell];
      if (a.v !== b.v || a.centre !== b.centre || a.corner !== b.corner) changes.push({ cell: cell, before: b, after: a });
    });
    return changes;
  }

  /** Apply a change list to the state, forwards ('after') or backwards ('before'). */
  function apply(state, changes, side) {
    // Backwards in reverse order, so a cell changed twice in one move gets its first 'before'.
    (side === 'before' ? changes.slice().reverse() : changes).forEach(function (ch) {
      var s = ch[side];
      state.values[ch.cell] = s.v; state.centre[ch.cell] = s.centre; state.corner[ch.cell] = s.corner;
    });
  }

  /** Undo/redo history of change lists. */
  function History() { this.done = []; this.undone = []; }
  History.prototype.push = function (changes) {
    if (changes.length) { this.done.push(changes); this.undone = []; }
  };
  /** The change list to apply backwards, or null. */
  History.prototype.undo = function () {
    var c = this.done.pop();
    if (!c) return null;
    this.undone.push(c);
    return c;
  };
  /** The change list to apply forwards again, or null. */
  History.prototype.redo = function () {
    var c = this.undone.pop();
    if (!c) return null;
    this.done.push(c);
    return c;
  };

  /** Digits in a bitmask, ascending. */
  function maskDigits(mask) {
    var out = [];
    for (var d = 1; d <= 16; d++) if (mask & (1 << d)) out.push(d);
    return out;
  }

  /**
   * The hint for the player's state: a wrong digit first ({kind: 'wrong', cell}), else the first
   * step of the path that still changes the grid ({kind: 'step', index, step, cells}): a placement
   * in an empty cell, or an elimination in an empty cell whose centre marks (if any) still hold the
   * digit. {kind: 'none'} when no step applies.
   */
  function selectHint(data, state) {
    var n = data.size, i;
    for (i = 0; i < state.values.length; i++) {
      if (state.values[i] && state.values[i] !== data.solution[i]) {
        return { kind: 'wrong', cell: i, cells: [i], text: cellName(i, n) + ' holds a wrong digit: clear it first.' };
      }
    }
    var path = data.path || [];
    for (var k = 0; k < path.length; k++) {
      var step = path[k], live = false;
      (step.placements || []).forEach(function (p) { if (!state.values[p[0]]) live = true; });
      (step.eliminations || []).forEach(function (e) {
        var c = e[0], marks = state.centre[c];
        if (!state.values[c] && (!marks || marks & (1 << e[1]))) live = true;
      });
      if (live) return { kind: 'step', index: k, step: step, cells: step.cells || [], text: step.text };
    }
    return { kind: 'none', cells: [], text: isSolved(state.values, data.solution) ? 'Solved: no hint needed.' : 'No step of the path applies any more.' };
  }

  /**
   * The solve replay after `upto` steps of the path: values and candidate masks (bit d set when d is
   * still possible), plus the step's eliminations and placements for highlighting.
   */
  function replay(data, geom, upto) {
    var full = 0, d;
    for (d = 1; d <= geom.n; d++) full |= 1 << d;
    var values = data.givens.slice(), cand = new Array(geom.len).fill(full);
    function place(cell, digit) {
      values[cell] = digit; cand[cell] = 0;
      geom.peers[cell].forEach(function (p) { cand[p] &= ~(1 << digit); });
    }
    values.forEach(function (v, cell) { if (v) place(cell, v); });
    var path = data.path || [];
    for (var k = 0; k < upto && k < path.length; k++) {
      (path[k].eliminations || []).forEach(function (e) { cand[e[0]] &= ~(1 << e[1]); });
      (path[k].placements || []).forEach(function (p) { place(p[0], p[1]); });
    }
    return { values: values, cand: cand };
  }

  /** Cages that share an edge, per cage (ascending indices). */
  function cageNeighbours(geom) {
    var n = geom.n, adj = geom.cages.map(function () { return []; }), o = geom.cageOf;
    function link(a, b) {
      if (a !== b && a >= 0 && b >= 0 && adj[a].indexOf(b) < 0) { adj[a].push(b); adj[b].push(a); }
    }
    for (var i = 0; i < geom.len; i++) {
      if (i % n + 1 < n) link(o[i], o[i + 1]);
      if (i + n < geom.len) link(o[i], o[i + n]);
    }
    adj.forEach(function (l) { l.sort(function (a, b) { return a - b; }); });
    return adj;
  }

  /**
   * A tone 0..3 for each cage, touching cages apart: DSatur (Brélaz 1979) with backtracking, the
   * book's colouring (src/layout/shade.rs); four tones suffice since cage maps are planar.
   */
  function shadeCages(geom) {
    var adj = cageNeighbours(geom), colour = adj.map(function () { return -1; }), budget = 200000;
    function used(v) {
      var m = 0;
      adj[v].forEach(function (w) { if (colour[w] >= 0) m |= 1 << colour[w]; });
      return m;
    }
    function bits(m) { var c = 0; while (m) { c += m & 1; m >>= 1; } return c; }
    function search(left) {
      if (!left) return true;
      if (--budget < 0) return false;
      var next = -1, best = -1;
      for (var v = 0; v < adj.length; v++) {
        if (colour[v] >= 0) continue;
        var score = bits(used(v)) * 64 + adj[v].length;
        if (score > best) { best = score; next = v; }
      }
      var taken = used(next);
      for (var t = 0; t < 4; t++) {
        if (!(taken & (1 << t))) {
          colour[next] = t;
          if (search(left - 1)) return true;
        }
      }
      colour[next] = -1;
      return false;
    }
    if (!search(adj.length)) {
      // Not reached for planar maps; colour greedily rather than leave cages unshaded.
      colour = colour.map(function () { return -1; });
      adj.forEach(function (_, v) { var t = 0, m = used(v); while (m & (1 << t)) t++; colour[v] = t; });
    }
    return colour;
  }

  /**
   * The outline of a cage as SVG path data in cell units, inset by `inset` (e.g. 0.125): one
   * segment per cell edge on the border, lengthened or shortened at its ends so the segments meet.
   */
  function cageOutline(n, cells, inset) {
    var inCage = {};
    cells.forEach(function (c) { inCage[c] = true; });
    function has(r, c) { return r >= 0 && c >= 0 && r < n && c < n && !!inCage[r * n + c]; }
    function f(x) { return +x.toFixed(3); }
    var d = '';
    cells.forEach(function (cell) {
      var r = Math.floor(cell / n), c = cell % n;
      // For each side: the outward step (dr, dc) and the along-edge direction (ar, ac).
      [[-1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, -1], [0, -1, -1, 0]].forEach(function (s) {
        var dr = s[0], dc = s[1], ar = s[2], ac = s[3];
        if (has(r + dr, c + dc)) return;
        // End offset along the edge: -inset toward the cell when the neighbour along is outside,
        // +inset beyond the cell at a concave corner, 0 where the border runs straight on.
        function end(sign) {
          if (!has(r + sign * ar, c + sign * ac)) return -inset;
          return has(r + sign * ar + dr, c + sign * ac + dc) ? inset : 0;
        }
        var cy = r + 0.5, cx = c + 0.5, half = 0.5;
        var ey = cy + dr * (half - inset), ex = cx + dc * (half - inset);
        var a = half + end(-1), b = half + end(1);
        d += 'M' + f(ex - ac * a) + ' ' + f(ey - ar * a) + 'L' + f(ex + ac * b) + ' ' + f(ey + ar * b);
      });
    });
    return d;
  }

  /** Elapsed time as m:ss (or h:mm:ss from an hour on). */
  function formatTime(ms) {
    var s = Math.max(0, Math.floor(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    var ss = ('0' + (s % 60)).slice(-2);
    return h ? h + ':' + ('0' + m).slice(-2) + ':' + ss : ('0' + m).slice(-2) + ':' + ss;
  }

  /** The saved form of a state (player digits and marks, time, solved time) as a plain object. */
  function encodeProgress(data, state, elapsed, solvedIn) {
    return { v: state.values.map(function (v, i) { return data.givens[i] ? 0 : v; }),
      c: state.centre.slice(), k: state.corner.slice(), t: Math.round(elapsed), s: solvedIn == null ? null : solvedIn };
  }

  /** A state from saved progress, or null when the saved object does not fit this puzzle. */
  function decodeProgress(data, saved) {
    var n = data.size, len = n * n, full = (1 << (n + 1)) - 2;
    if (!saved || !isDigitArray(saved.v, len, n) || !isDigitArray(saved.c, len, full) || !isDigitArray(saved.k, len, full)) return null;
    var state = newState(data);
    for (var i = 0; i < len; i++) {
      if (data.givens[i]) continue;
      state.values[i] = saved.v[i]; state.centre[i] = saved.c[i] & full; state.corner[i] = saved.k[i] & full;
    }
    var t = Number.isFinite(saved.t) && saved.t > 0 ? saved.t : 0;
    var s = Number.isFinite(saved.s) && saved.s >= 0 ? saved.s : null;
    return { state: state, elapsed: t, solvedIn: s };
  }

  /** The accessible name of a cell: `r1c2, 5, cage 15, conflict` (value, cage sum, conflict). */
  function cellLabel(n, cell, value, given, marks, cageSum, conflict, wrong) {
    var parts = [cellName(cell, n)];
    parts.push(value ? (given ? 'given ' : '') + value : 'empty' + (marks.length ? ', marks ' + marks.join(' ') : ''));
    if (cageSum != null) parts.push('cage ' + cageSum);
    if (conflict) parts.push('conflict');
    if (wrong) parts.push('wrong digit');
    return parts.join(', ');
  }

  return { cellName: cellName, digitFromKey: digitFromKey, expand: expand, validate: validate, geometry: geometry,
    conflicts: conflicts, cageStates: cageStates, isSolved: isSolved, newState: newState, input: input,
    apply: apply, History: History, maskDigits: maskDigits, selectHint: selectHint, replay: replay,
    cageNeighbours: cageNeighbours, shadeCages: shadeCages, cageOutline: cageOutline,
    formatTime: formatTime, encodeProgress: encodeProgress, decodeProgress: decodeProgress,
    cellLabel: cellLabel };
});
