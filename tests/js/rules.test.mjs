// Unit tests of src/play/rules.js (the player's pure rules), run with `node --test tests/js/`.
import test from 'node:test';
import assert from 'node:assert/strict';
import R from '../../src/play/rules.js';

// A 4x4 killer (2x2 boxes) with its solution:
//   1 2 | 3 4
//   3 4 | 1 2
//   ----+----
//   2 1 | 4 3
//   4 3 | 2 1
const solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
const regions = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3];
function killer(extra = {}) {
  return {
    id: 't', key: 'k', size: 4, boxRows: 2, boxCols: 2, regions, solution, variant: 'killer',
    givens: new Array(16).fill(0),
    cages: [
      { sum: 3, cells: [0, 1] }, { sum: 7, cells: [2, 3] }, { sum: 7, cells: [4, 5] }, { sum: 3, cells: [6, 7] },
      { sum: 3, cells: [8, 9] }, { sum: 7, cells: [10, 11] }, { sum: 7, cells: [12, 13] }, { sum: 3, cells: [14, 15] },
    ],
    path: [], making: [], ...extra,
  };
}

test('a valid puzzle passes validation and broken ones name the field', () => {
  assert.equal(R.validate(killer()), null);
  assert.match(R.validate(killer({ size: 17 })), /"size"/);
  assert.match(R.validate(killer({ givens: [1] })), /"givens"/);
  assert.match(R.validate(killer({ solution: new Array(16).fill(0) })), /"solution"/);
  assert.match(R.validate(killer({ regions: new Array(16).fill(4) })), /"regions"/);
  assert.match(R.validate(killer({ cages: [{ sum: 3, cells: [0, 99] }] })), /outside the grid/);
  assert.match(R.validate(killer({ cages: [{ sum: 3, cells: [0] }, { sum: 1, cells: [0] }] })), /"cages": cell r1c1 lies in two cages/);
  const wrongGiven = new Array(16).fill(0);
  wrongGiven[5] = 1;
  assert.match(R.validate(killer({ givens: wrongGiven })), /r2c2 disagrees/);
  assert.match(R.validate(null), /not a JSON object/);
  assert.match(R.validate(killer({ path: [{ text: 'x', placements: [[16, 1]] }] })), /step 1 of "path" .*\[16,1\]/);
  assert.match(R.validate(killer({ path: [{ text: 'x', eliminations: [[3, 5]] }] })), /step 1 of "path"/, 'digit 5 on a 4x4');
  assert.match(R.validate(killer({ path: [{ cells: [0] }] })), /needs a "text"/);
  assert.match(R.validate(killer({ making: [{ stage: 'seed', text: 'x', grid: [1] }] })), /stage 1 of "making": "grid"/);
  assert.match(R.validate(killer({ making: [{ stage: 'cages', text: 'x', cages: [{ sum: 3, cells: [0, 0] }] }] })), /stage 1 of "making": "cages": cell r1c1 lies in two cages/);
  assert.equal(R.validate(killer({ path: [{ text: 'x', cells: [1], placements: [[1, 2]], eliminations: [[2, 4]] }], making: [{ stage: 'done', text: 'x' }] })), null);
});

test('keys map to digits: 1-9 then A-G, within the grid size', () => {
  assert.equal(R.digitFromKey('7', 9), 7);
  assert.equal(R.digitFromKey('a', 16), 10);
  assert.equal(R.digitFromKey('G', 16), 16);
  assert.equal(R.digitFromKey('7', 6), 0);
  assert.equal(R.digitFromKey('A', 9), 0);
  assert.equal(R.digitFromKey('0', 9), 0);
  assert.equal(R.digitFromKey('Enter', 9), 0);
});

test('a digit repeated in a row marks both cells and nothing else', () => {
  const data = killer({ cages: [] });
  const g = R.geometry(data);
  const v = new Array(16).fill(0);
  v[0] = 2; v[3] = 2; v[5] = 3;
  const bad = R.conflicts(g, v);
  assert.deepEqual(bad.map((b, i) => (b ? i : -1)).filter((i) => i >= 0), [0, 3]);
});

test('repeats in a column, a box and a cage are conflicts too', () => {
  const data = killer();
  const g = R.geometry(data);
  let v = new Array(16).fill(0);
  v[1] = 4; v[13] = 4; // column 2
  assert.deepEqual(idx(R.conflicts(g, v)), [1, 13]);
  v = new Array(16).fill(0);
  v[10] = 1; v[15] = 1; // box 4, different row and column
  assert.deepEqual(idx(R.conflicts(g, v)), [10, 15]);
  // Two cells that share only a cage: different row, column and region.
  const d2 = killer({ regions: [0, 1, 1, 0, 2, 3, 3, 2, 0, 1, 1, 0, 2, 3, 3, 2], cages: [{ sum: 5, cells: [0, 5] }] });
  const g2 = R.geometry(d2);
  assert.ok(!g2.houses.slice(0, 12).some((h) => h.includes(0) && h.includes(5)), 'no row, column or region holds both');
  v = new Array(16).fill(0);
  v[0] = 2; v[5] = 2;
  assert.deepEqual(idx(R.conflicts(g2, v)), [0, 5]);
  v[5] = 3;
  assert.deepEqual(idx(R.conflicts(g2, v)), []);
});

function idx(flags) {
  return flags.map((b, i) => (b ? i : -1)).filter((i) => i >= 0);
}

test('cage status: open, over the sum, full and right, full and wrong', () => {
  const data = killer();
  const g = R.geometry(data);
  const v = new Array(16).fill(0);
  assert.equal(R.cageStates(g, v)[0], 'open');
  v[0] = 3; // cage 3(2): 3 plus an empty cell worth at least 1 exceeds 3
  assert.equal(R.cageStates(g, v)[0], 'over');
  v[0] = 2;
  assert.equal(R.cageStates(g, v)[0], 'open');
  v[1] = 1;
  assert.equal(R.cageStates(g, v)[0], 'full');
  v[1] = 2;
  assert.equal(R.cageStates(g, v)[0], 'wrong');
  v[2] = 4; v[3] = 4; // 7(2) holding 8
  assert.equal(R.cageStates(g, v)[1], 'wrong');
});

test('placing a digit clears it from the pencil marks of its houses, not elsewhere', () => {
  const data = killer();
  const g = R.geometry(data);
  const s = R.newState(data);
  const bit = 1 << 3;
  for (let c = 0; c < 16; c++) { s.centre[c] = bit | (1 << 1); s.corner[c] = bit; }
  const ch = R.input(g, data.givens, s, [5], 3, 'value');
  R.apply(s, ch, 'after');
  assert.equal(s.values[5], 3);
  for (const p of g.peers[5]) {
    assert.equal(s.centre[p] & bit, 0, `centre mark 3 stays at ${R.cellName(p, 4)}`);
    assert.equal(s.corner[p] & bit, 0);
    assert.ok(s.centre[p] & (1 << 1), 'other marks stay');
  }
  // r4c3 (cell 14) shares no house with r2c2 (cell 5): its marks stay.
  assert.ok(!g.peers[5].includes(14));
  assert.ok(s.centre[14] & bit);
  // The placed cell keeps its own marks (hidden under the digit) for when it is cleared.
  assert.ok(s.centre[5] & bit);
  // Undo restores every mark.
  R.apply(s, ch, 'before');
  for (let c = 0; c < 16; c++) assert.equal(s.centre[c], bit | (1 << 1));
  assert.equal(s.values[5], 0);
});

test('givens never change, pencil marks toggle, erase clears the digit then the marks', () => {
  const data = killer();
  data.givens[0] = 1;
  const g = R.geometry(data);
  const s = R.newState(data);
  assert.deepEqual(R.input(g, data.givens, s, [0], 4, 'value'), []);
  R.apply(s, R.input(g, data.givens, s, [1, 2], 4, 'centre'), 'after');
  assert.equal(s.centre[1], 1 << 4);
  assert.equal(s.centre[2], 1 << 4);
  R.apply(s, R.input(g, data.givens, s, [1, 2], 4, 'centre'), 'after');
  assert.equal(s.centre[1], 0, 'all had the mark: it goes');
  R.apply(s, R.input(g, data.givens, s, [1], 2, 'corner'), 'after');
  R.apply(s, R.input(g, data.givens, s, [1], 2, 'value'), 'after');
  R.apply(s, R.input(g, data.givens, s, [1], 0, 'value'), 'after');
  assert.equal(s.values[1], 0);
  assert.equal(s.corner[1], 1 << 2, 'first erase keeps the marks');
  R.apply(s, R.input(g, data.givens, s, [1], 0, 'value'), 'after');
  assert.equal(s.corner[1], 0);
  assert.deepEqual(R.input(g, data.givens, s, [1], 0, 'value'), [], 'erasing an empty cell changes nothing');
});

test('undo and redo walk the history; a new move drops the redo branch', () => {
  const data = killer();
  const g = R.geometry(data);
  const s = R.newState(data);
  const h = new R.History();
  for (const [cell, d] of [[0, 1], [1, 2], [2, 3]]) {
    const ch = R.input(g, data.givens, s, [cell], d, 'value');
    R.apply(s, ch, 'after');
    h.push(ch);
  }
  R.apply(s, h.undo(), 'before');
  R.apply(s, h.undo(), 'before');
  assert.deepEqual(s.values.slice(0, 3), [1, 0, 0]);
  R.apply(s, h.redo(), 'after');
  assert.deepEqual(s.values.slice(0, 3), [1, 2, 0]);
  const ch = R.input(g, data.givens, s, [5], 4, 'value');
  R.apply(s, ch, 'after');
  h.push(ch);
  assert.equal(h.redo(), null, 'a new move clears the redo list');
  R.apply(s, h.undo(), 'before');
  R.apply(s, h.undo(), 'before');
  R.apply(s, h.undo(), 'before');
  assert.equal(h.undo(), null);
  assert.deepEqual(s.values, new Array(16).fill(0));
  h.push([]);
  assert.equal(h.redo() !== null, true, 'an empty change is not a move');
});

const path = [
  { technique: 'a', name: 'Step A', text: 'A: r1c1 ≠ 2', cells: [0], placements: [], eliminations: [[0, 2]] },
  { technique: 'b', name: 'Step B', text: 'B: r1c1 = 1', cells: [0, 1], placements: [[0, 1]], eliminations: [] },
  { technique: 'c', name: 'Step C', text: 'C: r1c2 = 2', cells: [1], placements: [[1, 2]], eliminations: [[5, 2]] },
];

test('a hint names a wrong digit before any step', () => {
  const data = killer({ path });
  const s = R.newState(data);
  s.values[7] = 1; // the solution has 2 at r2c4
  s.values[0] = 1; // right
  const h = R.selectHint(data, s);
  assert.equal(h.kind, 'wrong');
  assert.equal(h.cell, 7);
  assert.match(h.text, /^r2c4 /);
});

test('a hint is the first step that still changes the grid', () => {
  const data = killer({ path });
  const s = R.newState(data);
  let h = R.selectHint(data, s);
  assert.equal(h.kind, 'step');
  assert.equal(h.index, 0);
  assert.deepEqual(h.cells, [0]);
  assert.equal(h.text, 'A: r1c1 ≠ 2');
  // The player's centre marks at r1c1 already lack 2: the elimination has no effect, step B is next.
  s.centre[0] = (1 << 1) | (1 << 3);
  assert.equal(R.selectHint(data, s).index, 1);
  // r1c1 placed: steps A and B are done; C's placement at r1c2 is next.
  s.values[0] = 1;
  assert.equal(R.selectHint(data, s).index, 2);
  // r1c2 placed too, r2c2 (cell 5) still empty: C's elimination there still counts.
  s.values[1] = 2;
  assert.equal(R.selectHint(data, s).index, 2);
  s.values[5] = 4;
  assert.equal(R.selectHint(data, s).kind, 'none');
  assert.equal(R.selectHint(killer(), R.newState(killer())).kind, 'none', 'no path, no step');
});

test('the replay applies placements (and their houses) and eliminations step by step', () => {
  const data = killer({ path });
  const g = R.geometry(data);
  const r0 = R.replay(data, g, 0);
  assert.equal(r0.cand[0], 0b11110);
  const r1 = R.replay(data, g, 1);
  assert.equal(r1.cand[0], 0b11010);
  const r2 = R.replay(data, g, 2);
  assert.equal(r2.values[0], 1);
  assert.equal(r2.cand[1] & 0b10, 0, 'r1c2 lost 1 when r1c1 got it');
  assert.equal(r2.cand[15] & 0b10, 0b10, 'r4c4 keeps 1');
  assert.equal(R.replay(data, g, 99).values[1], 2);
});

test('cage shading uses four tones and touching cages never share one', () => {
  // A 9x9 with irregular cages of one to three cells, built from a fixed pattern.
  const n = 9, cages = [];
  const owner = new Array(81).fill(-1);
  for (let i = 0; i < 81; i++) {
    if (owner[i] >= 0) continue;
    const cells = [i];
    owner[i] = cages.length;
    const right = i % n + 1 < n ? i + 1 : -1;
    const down = i + n < 81 ? i + n : -1;
    const pick = (i * 7) % 3 === 0 ? down : right;
    if (pick >= 0 && owner[pick] < 0) { cells.push(pick); owner[pick] = cages.length; }
    cages.push({ sum: 1, cells });
  }
  const g = R.geometry({ size: n, regions: new Array(81).fill(0).map((_, i) => 3 * Math.floor(i / 27) + Math.floor((i % 9) / 3)), cages });
  const tones = R.shadeCages(g);
  const adj = R.cageNeighbours(g);
  adj.forEach((list, v) => {
    assert.ok(tones[v] >= 0 && tones[v] < 4, `cage ${v} tone ${tones[v]}`);
    for (const w of list) assert.notEqual(tones[v], tones[w], `touching cages ${v} and ${w}`);
  });
  assert.ok(adj.some((l) => l.length > 0));
});

test('a cage outline is inset: a single cell gives a square 1/8 inside it', () => {
  const d = R.cageOutline(3, [4], 0.125);
  const segs = d.split('M').filter(Boolean).map((s) => s.split('L').map((p) => p.split(' ').map(Number)));
  assert.equal(segs.length, 4);
  for (const seg of segs) for (const [x, y] of seg) {
    assert.ok([1.125, 1.875].includes(x) && [1.125, 1.875].includes(y), `${x},${y}`);
  }
});

test('an L-shaped cage outline meets at its concave corner', () => {
  // Cells r1c1, r2c1, r2c2 of a 3x3: the concave corner is at x=1, y=1; the inset lines meet 1/8 off it.
  const d = R.cageOutline(3, [0, 3, 4], 0.125);
  const pts = d.split('M').filter(Boolean).flatMap((s) => s.split('L').map((p) => p.trim()));
  assert.ok(pts.includes('0.875 1.125'), d);
  // Every end point is shared by exactly two segments: the outline is closed.
  const count = {};
  for (const p of pts) count[p] = (count[p] || 0) + 1;
  for (const [p, c] of Object.entries(count)) assert.equal(c % 2, 0, `${p} ends ${c} segments in ${d}`);
});

test('times read m:ss, then h:mm:ss', () => {
  assert.equal(R.formatTime(0), '00:00');
  assert.equal(R.formatTime(65_400), '01:05');
  assert.equal(R.formatTime(3_600_000 + 61_000), '1:01:01');
});

test('progress round-trips and a foreign or broken save is refused', () => {
  const data = killer();
  data.givens[0] = 1;
  const s = R.newState(data);
  s.values[1] = 2; s.centre[2] = 1 << 3; s.corner[3] = 1 << 4;
  const saved = JSON.parse(JSON.stringify(R.encodeProgress(data, s, 12345, null)));
  const back = R.decodeProgress(data, saved);
  assert.deepEqual(back.state, s);
  assert.equal(back.elapsed, 12345);
  assert.equal(back.solvedIn, null);
  assert.equal(R.decodeProgress(data, { ...saved, v: [1, 2] }), null);
  assert.equal(R.decodeProgress(data, { ...saved, v: saved.v.map(() => 9) }), null);
  assert.equal(R.decodeProgress(data, 'junk'), null);
});

test('a cell label starts with its name, then value, cage sum and conflict', () => {
  assert.equal(R.cellLabel(9, 10, 5, false, [], 17, true, false), 'r2c2, 5, cage 17, conflict');
  assert.equal(R.cellLabel(16, 15, 0, false, [1, 2], null, false, false), 'r1c16, empty, marks 1 2');
  assert.equal(R.cellLabel(9, 80, 3, true, [], null, false, false), 'r9c9, given 3');
});

test('expand rebuilds the compact path and making of a page', () => {
  const data = killer({
    techniques: { hidden_single: { name: 'Hidden single', level: 'easy' } },
    path: [{ technique: 'hidden_single', text: 'r1c1 = 1 in row 1', place: 'row 1', placements: [[0, 1]] }],
    making: [
      { stage: 'cages', text: 'laid', cages: [{ sum: 3, cells: [0, 1] }, { sum: 7, cells: [2, 3] }, { sum: 4, cells: [4] }] },
      { stage: 'check', text: 'one solution', verdict: 'unique' },
      { stage: 'level', text: 'merged', drop: [0, 2], add: [{ sum: 7, cells: [0, 1, 4] }] },
    ],
  });
  assert.equal(R.expand(data), null);
  assert.equal(data.path[0].text, 'Hidden single: r1c1 = 1 in row 1');
  assert.deepEqual(data.path[0].hints, ['Look for a step of the kind "Hidden single".', 'Hidden single in row 1.']);
  assert.deepEqual(data.making[2].cages, [{ sum: 7, cells: [2, 3] }, { sum: 7, cells: [0, 1, 4] }]);
  assert.equal(data.making[1].cages, undefined, 'a stage without a layout change keeps none');
  assert.equal(R.validate(data), null);
  // A page in the long form (no "place") is left as it is.
  const long = killer({ path: [{ technique: 't', text: 'T: x', hints: ['a', 'b'] }] });
  assert.equal(R.expand(long), null);
  assert.equal(long.path[0].text, 'T: x');
  // Broken compact data is named, not thrown.
  assert.match(R.expand(killer({ path: [{ technique: 'nope', text: 'x', place: 'row 1' }] })), /step 1 of "path" names an unknown technique "nope"/);
  assert.match(R.expand(killer({ making: [{ stage: 'level', text: 'x', drop: [0], add: [] }] })), /stage 1 of "making": "drop"/);
  assert.match(R.expand(killer({ making: [{ stage: 'cages', text: 'x', cages: [{ sum: 3, cells: [0] }] }, { stage: 'level', text: 'x', drop: [5], add: [] }] })), /stage 2 of "making"/);
});
