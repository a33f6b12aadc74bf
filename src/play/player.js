// player.js: the sudoku-press player's DOM side. Mounts every `.sp-player` section of the page
// (its `.sp-data` JSON follows the player data contract), draws the grid (cells as HTML, lines and
// cages as SVG), and wires keyboard, mouse/touch, keypad, timer, progress, hints and the replays.
// The rules themselves live in rules.js (the global `SudokuRules`).
(function () {
  'use strict';
  var R = typeof SudokuRules !== 'undefined' ? SudokuRules : null;
  var MODES = [['value', 'Digit'], ['centre', 'Centre'], ['corner', 'Corner']];
  var READING = 'afbhicgd'; // corner-mark places: a b c d corners, f g top/bottom middle, h i sides

  /** A new element with a class, text and attributes (each optional). */
  function el(tag, cls, text, attrs) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  function button(cls, text, title, attrs) {
    var b = el('button', cls, text, attrs);
    b.type = 'button';
    if (title) b.title = title;
    return b;
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; });
  }
  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function fail(section, message) {
    section.appendChild(el('p', 'sp-error', 'This puzzle cannot be shown: ' + message + '.', { role: 'alert' }));
  }

  function mount(section) {
    if (section.getAttribute('data-mounted')) return;
    section.setAttribute('data-mounted', '1');
    if (!R) return fail(section, 'the page lacks its rules script (rules.js)');
    var script = section.querySelector('script.sp-data'), data;
    try { data = JSON.parse(script ? script.textContent : ''); } catch (e) {
      return fail(section, 'its data is not valid JSON (' + e.message + ')');
    }
    var why = R.expand(data) || R.validate(data);
    if (why) return fail(section, why);
    ['cages', 'path', 'making'].forEach(function (k) { data[k] = data[k] || []; });
    try { new Player(section, data); } catch (e) {
      console.error(e); // a bug, not bad data: say so on the page and in the console
      fail(section, 'the player failed (' + e.message + ')');
    }
  }

  /** One player: its state, its elements and its event handlers. */
  function Player(section, data) {
    var self = this;
    this.data = data;
    this.n = data.size;
    this.geom = R.geometry(data);
    this.tones = data.cages.length ? R.shadeCages(this.geom) : [];
    this.uid = (section.id || 'sp') + '-';
    this.storeKey = 'sudoku-press:' + (data.key || data.id);
    this.state = R.newState(data);
    this.history = new R.History();
    this.sel = [this.firstEmpty()];
    this.mode = 'value';
    this.elapsed = 0;
    this.solvedIn = null;
    this.paused = false;
    this.options = { check: false, reveal: false, shade: false };
    this.hint = null;
    this.replay = null;
    this.load();
    this.build(section);
    this.render();
    this.lastTick = Date.now();
    this.timer = setInterval(function () { self.tick(); }, 1000);
    document.addEventListener('visibilitychange', function () { self.tick(); if (document.hidden) self.save(); });
    window.addEventListener('pagehide', function () { self.tick(); self.save(); });
  }

  Player.prototype.firstEmpty = function () {
    var g = this.data.givens;
    for (var i = 0; i < g.length; i++) if (!g[i]) return i;
    return 0;
  };

  Player.prototype.load = function () {
    var st = storage(), raw = null;
    try { raw = st && JSON.parse(st.getItem(this.storeKey)); } catch (e) { raw = null; }
    var got = raw && R.decodeProgress(this.data, raw);
    if (got) {
      this.state = got.state;
      this.elapsed = got.elapsed;
      this.solvedIn = got.solvedIn;
    }
    if (raw && raw.o && typeof raw.o === 'object') {
      for (var k in this.options) this.options[k] = raw.o[k] === true;
    }
    if (this.solvedIn == null && R.isSolved(this.state.values, this.data.solution)) this.solvedIn = this.elapsed;
  };

  Player.prototype.save = function () {
    var st = storage();
    if (!st) return;
    var o = R.encodeProgress(this.data, this.state, this.elapsed, this.solvedIn);
    o.o = this.options;
    try { st.setItem(this.storeKey, JSON.stringify(o)); } catch (e) { /* full or refused: play on */ }
  };

  Player.prototype.running = function () {
    return !this.paused && this.solvedIn == null && !this.replay && !document.hidden;
  };

  Player.prototype.tick = function () {
    var now = Date.now();
    if (this.running()) this.elapsed += Math.min(now - this.lastTick, 5000);
    this.lastTick = now;
    this.timeEl.textContent = R.formatTime(this.solvedIn != null ? this.solvedIn : this.elapsed);
    if (now - (this.lastSave || 0) > 5000) { this.lastSave = now; this.save(); }
  };

  // ---- building the DOM -------------------------------------------------------------------

  Player.prototype.build = function (section) {
    var self = this, d = this.data, n = this.n;
    var app = el('div', 'sp-app' + (d.cages.length ? ' sp-killer' : ''));
    var main = el('div', 'sp-main');
    var side = el('div', 'sp-side');

    var top = el('div', 'sp-top');
    // The page may already say level and score above the player (play-page's template does).
    var minutes = d.minutes ? d.minutes[0] + '–' + d.minutes[1] + ' min' : null;
    var meta = section.querySelector('.sp-meta') ? '' : [d.level, d.score != null ? 'score ' + d.score : null, minutes].filter(Boolean).join(' · ');
    top.appendChild(el('span', 'sp-meta', meta));
    this.timeEl = el('span', 'sp-time', '00:00', { role: 'timer', 'aria-label': 'Time' });
    top.appendChild(this.timeEl);
    this.pauseBtn = button('sp-pause', 'Pause');
    this.pauseBtn.addEventListener('click', function () { self.setPaused(!self.paused); });
    top.appendChild(this.pauseBtn);
    main.appendChild(top);

    var board = el('div', 'sp-board');
    app.style.setProperty('--n', n);
    var grid = el('div', 'sp-grid', null, { role: 'grid', 'aria-label': d.title || 'Sudoku ' + n + 'x' + n, 'aria-rowcount': n, 'aria-colcount': n });
    this.cells = [];
    var firstOfCage = this.firstOfCage = {};
    d.cages.forEach(function (c) { firstOfCage[Math.min.apply(null, c.cells)] = c.sum; });
    for (var r = 0; r < n; r++) {
      var row = el('div', 'sp-row', null, { role: 'row' });
      for (var c = 0; c < n; c++) {
        var i = r * n + c, cell = el('div', 'sp-cell', null, { role: 'gridcell', id: this.uid + 'c' + i, tabindex: -1, 'data-cell': i });
        if (firstOfCage[i] != null) cell.appendChild(el('span', 'sp-sum', firstOfCage[i]));
        cell.appendChild(el('span', 'sp-marks'));
        cell.appendChild(el('span', 'sp-val'));
        row.appendChild(cell);
        this.cells.push(cell);
      }
      grid.appendChild(row);
    }
    grid.addEventListener('click', function (e) {
      var t = e.target.closest('.sp-cell');
      if (t) self.select(+t.getAttribute('data-cell'), e.ctrlKey || e.metaKey || e.shiftKey);
    });
    grid.addEventListener('keydown', function (e) { self.onKey(e); });
    this.grid = grid;
    board.appendChild(grid);
    this.lines = el('div', 'sp-lines', null, { 'aria-hidden': 'true' });
    board.appendChild(this.lines);
    this.cover = el('div', 'sp-cover', 'Paused');
    board.appendChild(this.cover);
    main.appendChild(board);
    this.drawLines(d.cages);

    side.appendChild(this.buildKeypad());
    side.appendChild(this.buildTools(section));
    this.status = el('p', 'sp-status', null, { role: 'status', 'aria-live': 'polite' });
    side.appendChild(this.status);
    app.appendChild(main);
    app.appendChild(side);
    app.addEventListener('keydown', function (e) {
      if (self.replay && e.key === 'Escape') { e.preventDefault(); self.stopReplay(); }
    });
    section.appendChild(app);
    if (this.solvedIn != null) this.say('Solved in ' + R.formatTime(this.solvedIn) + '.');
  };

  Player.prototype.buildKeypad = function () {
    var self = this, n = this.n, pad = el('div', 'sp-keypad', null, { role: 'group', 'aria-label': 'Keypad' });
    pad.style.setProperty('--kn', n <= 9 ? n : 8);
    pad.style.setProperty('--kw', n <= 4 ? 2 : n <= 9 ? 3 : 4);
    var modes = el('div', 'sp-modes');
    this.modeBtns = MODES.map(function (m) {
      var b = button('sp-mode', m[1], m[0] === 'value' ? 'Enter digits' : m[1] + ' pencil marks');
      b.addEventListener('click', function () { self.setMode(m[0]); self.refocus(); });
      modes.appendChild(b);
      return b;
    });
    pad.appendChild(modes);
    var digits = el('div', 'sp-digits');
    for (var dgt = 1; dgt <= n; dgt++) {
      (function (v) {
        var b = button('sp-key', v, null, { 'aria-label': 'Digit ' + v });
        b.addEventListener('click', function () { self.enter(v, self.mode); self.refocus(); });
        digits.appendChild(b);
      })(dgt);
    }
    pad.appendChild(digits);
    var edit = el('div', 'sp-edit');
    [['Erase', function () { self.enter(0, 'value'); }], ['Undo', function () { self.undo(); }], ['Redo', function () { self.redo(); }]]
      .forEach(function (a) {
        var b = button('sp-act', a[0]);
        b.addEventListener('click', function () { a[1](); self.refocus(); });
        edit.appendChild(b);
      });
    pad.appendChild(edit);
    return pad;
  };

  Player.prototype.buildTools = function (section) {
    var self = this, d = this.data, tools = el('div', 'sp-tools');
    var row = el('div', 'sp-toolrow');
    this.hintBtn = button('sp-tool', 'Hint', 'The next step that applies to your grid (press again for more)');
    this.hintBtn.addEventListener('click', function () { self.giveHint(); });
    this.watchBtn = button('sp-tool', 'Watch it solve');
    this.watchBtn.addEventListener('click', function () { self.startReplay('solve'); });
    this.madeBtn = button('sp-tool', 'How it was made');
    this.madeBtn.addEventListener('click', function () { self.startReplay('made'); });
    this.revealBtn = button('sp-tool', 'Reveal cell', 'Put the solution\'s digit in the selected cells');
    this.revealBtn.addEventListener('click', function () { self.reveal(); self.refocus(); });
    this.againBtn = button('sp-tool', 'Play again', 'Clear your digits, marks and time');
    this.againBtn.addEventListener('click', function () { self.restart(); });
    [this.hintBtn, this.watchBtn, this.madeBtn, this.revealBtn, this.againBtn].forEach(function (b) { row.appendChild(b); });
    tools.appendChild(row);
    // Without a path or a making record the buttons go, and the page says why: the page's own
    // note when it has one, else the data's note, else a general one.
    var notes = [];
    if (!d.path.length) {
      this.hintBtn.hidden = this.watchBtn.hidden = true;
      if (!section.querySelector('.sp-path-note')) notes.push(d.pathNote || 'Hint and Watch it solve are off: this page carries no solving path.');
    }
    if (!d.making.length) {
      this.madeBtn.hidden = true;
      if (!section.querySelector('.sp-making-note')) notes.push(d.makingNote || 'How it was made is off: this page carries no record of the puzzle\'s making.');
    }
    if (notes.length) tools.appendChild(el('p', 'sp-note', notes.join(' ')));

    var opts = el('details', 'sp-options');
    opts.appendChild(el('summary', null, 'Options'));
    var list = [['check', 'Check against the solution'], ['reveal', 'Offer "Reveal cell"']];
    if (d.cages.length) list.push(['shade', 'Shade cages']);
    list.forEach(function (o) {
      var label = el('label', 'sp-opt'), box = el('input');
      box.type = 'checkbox';
      box.checked = self.options[o[0]];
      box.addEventListener('change', function () { self.options[o[0]] = box.checked; self.save(); self.render(); });
      label.appendChild(box);
      label.appendChild(document.createTextNode(' ' + o[1]));
      opts.appendChild(label);
    });
    opts.appendChild(el('p', 'sp-note', 'Keys: arrows move; 1-9' + (this.n > 9 ? ', then A-G for 10-' + this.n : '') +
      ' enter digits; Shift+digit adds a corner mark, Ctrl+digit a centre mark; Space switches Digit/Centre/Corner;' +
      ' Backspace erases; Ctrl+Z undoes, Ctrl+Y redoes.'));
    tools.appendChild(opts);

    var rp = el('div', 'sp-replay', null, { role: 'group', 'aria-label': 'Replay controls' });
    this.rpTitle = el('span', 'sp-rp-title');
    rp.appendChild(this.rpTitle);
    var acts = [['Back', function () { self.replayStep(-1); }], ['Play', function () { self.replayPlay(); }],
      ['Step', function () { self.replayStep(1); }], ['Close', function () { self.stopReplay(); }]];
    this.rpBtns = acts.map(function (a) {
      var b = button('sp-act', a[0]);
      b.addEventListener('click', a[1]);
      rp.appendChild(b);
      return b;
    });
    rp.hidden = true;
    this.rpBox = rp;
    tools.appendChild(rp);
    return tools;
  };

  /** Region borders, thin cell lines and the (inset, dashed) cage outlines as one SVG. */
  Player.prototype.drawLines = function (cages, sums) {
    var n = this.n, reg = this.data.regions, thin = '', thick = '', i, r, c;
    for (i = 1; i < n; i++) thin += 'M' + i + ' 0V' + n + 'M0 ' + i + 'H' + n;
    for (r = 0; r < n; r++) {
      for (c = 0; c < n; c++) {
        i = r * n + c;
        if (c + 1 < n && reg[i] !== reg[i + 1]) thick += 'M' + (c + 1) + ' ' + r + 'V' + (r + 1);
        if (r + 1 < n && reg[i] !== reg[i + n]) thick += 'M' + c + ' ' + (r + 1) + 'H' + (c + 1);
      }
    }
    var s = '<svg class="sp-svg" viewBox="0 0 ' + n + ' ' + n + '" preserveAspectRatio="none" focusable="false">' +
      '<path class="sp-thin" d="' + thin + '"/>';
    (cages || []).forEach(function (cage, k) {
      s += '<path class="sp-cage" data-cage="' + k + '" d="' + R.cageOutline(n, cage.cells, 0.125) + '"/>';
      if (sums) {
        var first = Math.min.apply(null, cage.cells);
        s += '<text class="sp-svgsum" x="' + (first % n + 0.07) + '" y="' + (Math.floor(first / n) + 0.3) + '">' + esc(cage.sum) + '</text>';
      }
    });
    s += '<path class="sp-thick" d="' + thick + '"/><rect class="sp-thick" x="0" y="0" width="' + n + '" height="' + n + '"/></svg>';
    this.lines.innerHTML = s;
    this.cagePaths = this.lines.querySelectorAll('.sp-cage');
  };

  // ---- input --------------------------------------------------------------------------------

  Player.prototype.editable = function () {
    return this.solvedIn == null && !this.paused && !this.replay;
  };

  Player.prototype.select = function (cell, add) {
    if (add) {
      var at = this.sel.indexOf(cell);
      if (at >= 0 && this.sel.length > 1) this.sel.splice(at, 1);
      else if (at < 0) this.sel.push(cell);
      this.sel.sort(function (a, b) { return a - b; });
      if (this.sel.indexOf(cell) >= 0) this.primary = cell;
    } else {
      this.sel = [cell];
      this.primary = cell;
    }
    this.render();
    this.refocus();
  };

  Player.prototype.refocus = function () {
    var c = this.primary != null && this.sel.indexOf(this.primary) >= 0 ? this.primary : this.sel[0];
    if (this.cells[c]) this.cells[c].focus({ preventScroll: true });
  };

  Player.prototype.setMode = function (m) {
    this.mode = m;
    this.modeBtns.forEach(function (b, k) { b.setAttribute('aria-pressed', MODES[k][0] === m ? 'true' : 'false'); });
  };

  Player.prototype.onKey = function (e) {
    var n = this.n, k = e.key, cur = this.primary != null ? this.primary : this.sel[0];
    var r = Math.floor(cur / n), c = cur % n, to = -1;
    if (this.replay) return;
    if (k === 'ArrowUp') to = ((r + n - 1) % n) * n + c;
    else if (k === 'ArrowDown') to = ((r + 1) % n) * n + c;
    else if (k === 'ArrowLeft') to = r * n + (c + n - 1) % n;
    else if (k === 'ArrowRight') to = r * n + (c + 1) % n;
    else if (k === 'Home') to = r * n;
    else if (k === 'End') to = r * n + n - 1;
    if (to >= 0) { e.preventDefault(); this.select(to, e.shiftKey); return; }
    var ctrl = e.ctrlKey || e.metaKey;
    if (ctrl && (k === 'z' || k === 'Z')) { e.preventDefault(); if (e.shiftKey) this.redo(); else this.undo(); return; }
    if (ctrl && (k === 'y' || k === 'Y')) { e.preventDefault(); this.redo(); return; }
    if (k === 'Backspace' || k === 'Delete') { e.preventDefault(); this.enter(0, 'value'); return; }
    if (k === ' ') {
      e.preventDefault();
      var at = MODES.map(function (m) { return m[0]; }).indexOf(this.mode);
      this.setMode(MODES[(at + 1) % MODES.length][0]);
      this.say('Mode: ' + MODES[(at + 1) % MODES.length][1] + '.');
      return;
    }
    // Shift turns a digit into a corner mark and Ctrl/Alt into a centre mark; e.code gives the digit
    // when Shift changed e.key (Shift+1 is "!").
    var dgt = R.digitFromKey(k, n);
    if (!dgt && /^(Digit|Numpad)[1-9]$/.test(e.code || '')) dgt = R.digitFromKey(e.code.slice(-1), n);
    if (!dgt && /^Key[A-G]$/.test(e.code || '')) dgt = R.digitFromKey(e.code.slice(-1), n);
    if (!dgt) return;
    e.preventDefault();
    var mode = e.shiftKey ? 'corner' : ctrl || e.altKey ? 'centre' : this.mode;
    this.enter(dgt, mode);
  };

  Player.prototype.enter = function (digit, mode) {
    if (!this.editable()) return;
    var changes = R.input(this.geom, this.data.givens, this.state, this.sel, digit, mode);
    if (!changes.length) return;
    R.apply(this.state, changes, 'after');
    this.history.push(changes);
    this.afterMove();
  };

  Player.prototype.undo = function () {
    if (!this.editable()) return;
    var ch = this.history.undo();
    if (ch) { R.apply(this.state, ch, 'before'); this.afterMove(); }
  };

  Player.prototype.redo = function () {
    if (!this.editable()) return;
    var ch = this.history.redo();
    if (ch) { R.apply(this.state, ch, 'after'); this.afterMove(); }
  };

  Player.prototype.reveal = function () {
    if (!this.editable() || !this.options.reveal) return;
    var self = this, changes = [];
    this.sel.forEach(function (cell) {
      var ch = R.input(self.geom, self.data.givens, self.state, [cell], self.data.solution[cell], 'value');
      R.apply(self.state, ch, 'after');
      changes = changes.concat(ch);
    });
    if (changes.length) { this.history.push(changes); this.afterMove(); }
  };

  Player.prototype.afterMove = function () {
    // The hint's highlight stays while its step still applies to the grid.
    var h = this.hint && R.selectHint(this.data, this.state);
    if (!h || h.kind !== 'step' || h.index !== this.hint.index) this.hint = null;
    if (R.isSolved(this.state.values, this.data.solution)) {
      this.tick();
      this.solvedIn = this.elapsed;
      this.say('Solved in ' + R.formatTime(this.solvedIn) + '!');
    } else if (this.state.values.indexOf(0) < 0) {
      this.say('The grid is full, but not every digit is right yet.');
    }
    this.save();
    this.render();
  };

  Player.prototype.restart = function () {
    this.state = R.newState(this.data);
    this.history = new R.History();
    this.elapsed = 0;
    this.solvedIn = null;
    this.hint = null;
    this.setPaused(false);
    this.say('A fresh start: the clock is back at zero.');
    this.save();
    this.tick();
    this.render();
  };

  Player.prototype.setPaused = function (p) {
    this.tick();
    this.paused = p && this.solvedIn == null;
    this.pauseBtn.textContent = this.paused ? 'Resume' : 'Pause';
    this.render();
    this.save();
  };

  Player.prototype.say = function (text) {
    this.status.textContent = text;
  };

  // ---- hints and replays ---------------------------------------------------------------------

  Player.prototype.giveHint = function () {
    if (this.replay) return;
    var h = R.selectHint(this.data, this.state);
    if (h.kind === 'step') {
      var hints = (h.step.hints || []).filter(function (x) { return x !== h.step.text; }), level = this.hint && this.hint.index === h.index ? this.hint.level + 1 : 0;
      level = Math.min(level, hints.length);
      var text = level < hints.length ? hints[level] : h.step.text;
      var total = hints.length + 1;
      // The first, vaguest hint names the kind of step only; the cells light up from the second on.
      this.hint = { index: h.index, level: level, cells: level > 0 || total === 1 ? h.cells : [] };
      this.say('Hint ' + (level + 1) + ' of ' + total + ': ' + text);
    } else {
      this.hint = { index: -1, level: 0, cells: h.cells };
      this.say('Hint: ' + h.text);
    }
    this.render();
  };

  Player.prototype.startReplay = function (kind) {
    var list = kind === 'solve' ? this.data.path : this.data.making;
    if (!list || !list.length) return;
    this.tick();
    this.hint = null;
    this.replay = { kind: kind, at: 0, len: list.length, timer: null };
    this.rpBox.hidden = false;
    this.rpTitle.textContent = kind === 'solve' ? 'Watch it solve' : 'How it was made';
    this.showReplay();
  };

  Player.prototype.stopReplay = function () {
    if (!this.replay) return;
    clearInterval(this.replay.timer);
    this.replay = null;
    this.rpBox.hidden = true;
    this.drawLines(this.data.cages);
    this.lastTick = Date.now();
    this.say('');
    this.render();
    this.refocus();
  };

  Player.prototype.replayStep = function (by) {
    var rp = this.replay;
    if (!rp) return;
    rp.at = Math.max(0, Math.min(rp.len, rp.at + by));
    if (rp.at === rp.len && rp.timer) this.replayPlay();
    this.showReplay();
  };

  Player.prototype.replayPlay = function () {
    var self = this, rp = this.replay;
    if (!rp) return;
    if (rp.timer) { clearInterval(rp.timer); rp.timer = null; }
    else {
      if (rp.at >= rp.len) rp.at = 0;
      rp.timer = setInterval(function () { self.replayStep(1); }, rp.kind === 'solve' ? 1200 : 1800);
    }
    this.rpBtns[1].textContent = rp.timer ? 'Pause' : 'Play';
    this.showReplay();
  };

  Player.prototype.showReplay = function () {
    var rp = this.replay;
    if (rp.kind === 'solve') {
      var step = this.data.path[rp.at];
      this.say(step ? 'Step ' + (rp.at + 1) + ' of ' + rp.len + ': ' + step.text : 'Solved: all ' + rp.len + ' steps shown.');
    } else {
      var m = this.data.making[Math.min(rp.at, rp.len - 1)];
      // The text names the stage and says the verdict in words ("Done: expert, score 20.2.").
      this.say('Stage ' + (Math.min(rp.at, rp.len - 1) + 1) + ' of ' + rp.len + ': ' + m.text);
    }
    this.render();
  };

  /** What the replay shows: values, candidates, highlighted cells, and the cages of that moment. */
  Player.prototype.replayView = function () {
    var rp = this.replay, d = this.data, len = this.geom.len;
    if (rp.kind === 'solve') {
      var r = R.replay(d, this.geom, rp.at), step = d.path[rp.at] || {}, elim = {}, place = {};
      (step.eliminations || []).forEach(function (e) { elim[e[0]] = (elim[e[0]] || 0) | (1 << e[1]); });
      (step.placements || []).forEach(function (p) { place[p[0]] = 1 << p[1]; });
      return { values: r.values, cand: r.cand, elim: elim, place: place, hl: step.cells || [] };
    }
    // "How it was made": the latest grid, cages and givens recorded up to this stage.
    var grid = null, cages = null, givens = null;
    for (var k = 0; k <= Math.min(rp.at, rp.len - 1); k++) {
      var m = d.making[k];
      if (m.grid) grid = m.grid;
      if (m.cages) cages = m.cages;
      if (m.givens) givens = m.givens;
    }
    if (!rp.drawn || cages !== rp.cages) { rp.drawn = true; rp.cages = cages; this.drawLines(cages || [], true); }
    var values = givens || grid || new Array(len).fill(0);
    return { values: values, cand: null, elim: {}, place: {}, hl: [], faint: !givens && !!grid, cages: cages || [] };
  };

  // ---- drawing --------------------------------------------------------------------------------

  Player.prototype.render = function () {
    var self = this, d = this.data, n = this.n, st = this.state;
    var view = this.replay ? this.replayView() : null;
    var values = view ? view.values : st.values;
    var bad = R.conflicts(this.geom, values);
    var cageSt = view ? [] : R.cageStates(this.geom, values);
    var solved = this.solvedIn != null;
    var hl = {};
    (view ? view.hl : this.hint ? this.hint.cells : []).forEach(function (c) { hl[c] = true; });
    var selSet = {};
    if (!view) this.sel.forEach(function (c) { selSet[c] = true; });
    var prim = this.primary != null && selSet[this.primary] ? this.primary : this.sel[0];
    var peers = {};
    if (!view && !solved) this.geom.peers[prim].forEach(function (p) { peers[p] = true; });
    var same = !view && values[prim] ? values[prim] : 0;
    var showCages = !view || this.replay.kind === 'solve';
    var firstOf = this.firstOfCage;
    this.cells.forEach(function (cell, i) {
      var v = values[i], given = !!d.givens[i] && (!view || !view.faint);
      var wrong = !view && self.options.check && v && v !== d.solution[i] && !d.givens[i];
      var cls = 'sp-cell';
      if (given) cls += ' sp-given';
      else if (v) cls += view && view.faint ? ' sp-faint' : ' sp-entered';
      if (self.options.shade && d.cages.length && showCages && self.geom.cageOf[i] >= 0) cls += ' sp-t' + self.tones[self.geom.cageOf[i]];
      if (selSet[i]) cls += ' sp-sel';
      else if (hl[i]) cls += ' sp-hl';
      else if (same && v === same) cls += ' sp-same';
      else if (peers[i]) cls += ' sp-peer';
      if (hl[i] && selSet[i]) cls += ' sp-hl';
      if (bad[i]) cls += ' sp-bad';
      if (wrong) cls += ' sp-wrong';
      if (cell.className !== cls) cell.className = cls;
      cell.tabIndex = i === prim ? 0 : -1;
      var valEl = cell.querySelector('.sp-val'), marksEl = cell.querySelector('.sp-marks');
      valEl.textContent = v ? v : '';
      var html = '';
      if (!v && view && view.cand) html = self.candHtml(view.cand[i], view.elim[i] || 0, view.place[i] || 0);
      else if (!v && !view) html = self.marksHtml(st.centre[i], st.corner[i], self.geom.cageOf[i] >= 0 && firstOf[i]);
      if (marksEl.innerHTML !== html) marksEl.innerHTML = html;
      var marks = !v && !view ? R.maskDigits(st.centre[i] | st.corner[i]) : [];
      var k = self.geom.cageOf[i];
      cell.setAttribute('aria-label', R.cellLabel(n, i, v, given, marks, k >= 0 ? d.cages[k].sum : null, bad[i], wrong));
      if (bad[i] || wrong) cell.setAttribute('aria-invalid', 'true');
      else cell.removeAttribute('aria-invalid');
      cell.setAttribute('aria-selected', selSet[i] ? 'true' : 'false');
    });
    if (!view || showCages) {
      for (var k = 0; k < this.cagePaths.length; k++) {
        var bc = cageSt[k] === 'over' || cageSt[k] === 'wrong';
        this.cagePaths[k].setAttribute('class', bc ? 'sp-cage sp-cage-bad' : 'sp-cage');
      }
    }
    this.cells.forEach(function (cell, i) {
      var sum = cell.querySelector('.sp-sum'), k = self.geom.cageOf[i];
      if (sum) sum.className = cageSt[k] === 'over' || cageSt[k] === 'wrong' ? 'sp-sum sp-sum-bad' : 'sp-sum';
    });
    this.grid.setAttribute('data-state', solved ? 'solved' : 'solving');
    if (view || solved) this.grid.setAttribute('aria-readonly', 'true');
    else this.grid.removeAttribute('aria-readonly');
    this.grid.parentNode.className = 'sp-board' + (this.paused ? ' sp-paused' : '') + (solved ? ' sp-done' : '') + (view ? ' sp-replaying' : '') + (view && !showCages ? ' sp-made' : '');
    this.modeBtns.forEach(function (b, j) { b.setAttribute('aria-pressed', MODES[j][0] === self.mode ? 'true' : 'false'); });
    this.revealBtn.hidden = !this.options.reveal || solved;
    this.againBtn.hidden = !solved && !this.history.done.length && this.elapsed < 1000;
    this.hintBtn.disabled = solved;
    this.pauseBtn.disabled = solved;
    this.pauseBtn.hidden = !!view; // the clock stands still during a replay, which has its own Pause
    this.timeEl.textContent = R.formatTime(solved ? this.solvedIn : this.elapsed);
  };

  /** Pencil marks: centre digits in the middle, corner digits along the edges. */
  Player.prototype.marksHtml = function (centre, corner, sum) {
    var html = '';
    if (corner) {
      // Corner marks in the corners first, then the edge middles (SudokuPad's order); the top left
      // is the sum's; more marks than places wrap along the edges instead.
      var cs = R.maskDigits(corner), places = (sum ? '' : 'a') + 'bcdfghi', slots = places.slice(0, cs.length).split('');
      // The places in use, in reading order, take the digits in ascending order.
      slots.sort(function (x, y) { return READING.indexOf(x) - READING.indexOf(y); });
      html += '<span class="sp-corner' + (cs.length > places.length ? ' sp-wrap' : '') + '">' + cs.map(function (x, j) {
        return '<span class="sp-at-' + (slots[j] || 'x') + '">' + x + '</span>';
      }).join('') + '</span>';
    }
    if (centre) {
      var ds = R.maskDigits(centre);
      html += '<span class="sp-centre' + (ds.length > 4 ? ' sp-many' : '') + '">' + esc(ds.join('')) + '</span>';
    }
    return html;
  };

  /** Candidates of the solve replay in a small grid; this step's eliminations and placement marked. */
  Player.prototype.candHtml = function (cand, elim, place) {
    var n = this.n, cols = Math.ceil(Math.sqrt(n)), html = '<span class="sp-cands sp-cc' + cols + '">';
    for (var dg = 1; dg <= n; dg++) {
      var b = 1 << dg, cls = elim & b ? ' class="sp-out"' : place & b ? ' class="sp-in"' : '';
      html += '<span' + cls + '>' + (cand & b ? dg : '') + '</span>';
    }
    return html + '</span>';
  };

  function mountAll() {
    var list = document.querySelectorAll('.sp-player');
    for (var i = 0; i < list.length; i++) mount(list[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll);
  else mountAll();
})();
