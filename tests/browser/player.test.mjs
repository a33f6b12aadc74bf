// The player in a real browser: headless Chromium through chromedriver (W3C WebDriver over fetch)
// plays pages written by the real binary — a 9x9 killer, a jigsaw, a 6x6 killer and a 16x16
// killer — through the accessibility contract of issue 20 item 6, and checks that no request
// leaves the page. Screenshots at 1000 and 360 px go to output/screenshots/ (git-ignored; set
// SP_SCREENSHOTS to put them elsewhere). Run: node --test tests/browser/
// Environment: SUDOKU_PRESS_BIN (default target/release/sudoku-press); SP_REQUIRE_BROWSER=1 (set
// by .ci/run) turns a missing binary, chromium or chromedriver into a failure instead of a skip.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Browser, Keys } from './webdriver.mjs';
import { jsonLines, page, playerData } from './dev_page.mjs';
import { checkNoRequests, chromedriver, chromium, clickButton, findHint, keyOf, shots, skip, sp, state, typeSolution } from './playing.mjs';
import R from '../../src/play/rules.js';

/** The puzzles played: (name, generate flags). */
const PUZZLES = [
  ['killer9', ['--count', '1', '--seed', '21']],
  ['jigsaw9', ['--variant', 'jigsaw', '--count', '1', '--seed', '4']],
  ['killer6', ['--size', '6', '--count', '1', '--seed', '3']],
  ['killer16', ['--size', '16', '--count', '1', '--seed', '6']],
  // Beyond the four: the other variant and the smallest size.
  ['killerjigsaw9', ['--variant', 'killer-jigsaw', '--count', '1', '--seed', '4']],
  ['classic4', ['--variant', 'classic', '--size', '4', '--count', '1', '--seed', '2']],
];

/**
 * The page of puzzle 1 of `db`: the binary's own `render --format html` when it has one, else the
 * dev page builder fed by `export --format jsonl` and `explain --format jsonl`.
 */
function makePage(dir, name, db) {
  const out = path.join(dir, name);
  if (/\bhtml\b/.test(sp(['render', '--help'], dir))) {
    sp(['render', '--format', 'html', '--db', db, '1', '-o', out], dir);
    const html = readdirSync(out).filter((f) => f.endsWith('.html'));
    assert.equal(html.length, 1, `render --format html wrote ${html.join(', ')} into ${out}`);
    return path.join(out, html[0]);
  }
  mkdirSync(out);
  const jsonl = path.join(out, 'puzzle.jsonl');
  writeFileSync(jsonl, sp(['export', '--db', db, '--format', 'jsonl'], dir));
  const steps = sp(['explain', '--format', 'jsonl', jsonl], dir).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const file = path.join(out, '1.html');
  const puzzle = jsonLines(jsonl)[0];
  writeFileSync(file, page([playerData(puzzle, steps.filter((s) => s.type === 'step'), name === 'killer6' ? madeUp(puzzle) : [])]));
  return file;
}

/**
 * A stand-in "How it was made" record (the binary records the real one once it renders pages):
 * the solution as the seed grid, the cages laid, a check, and the givens.
 */
function madeUp(p) {
  return [
    { stage: 'seed', text: 'A solution grid from the seed.', grid: p.solution },
    { stage: 'cages', text: 'Cages laid over it.', cages: p.cages },
    { stage: 'check', text: 'The solver counts the solutions.', verdict: 'unique' },
    { stage: 'givens', text: 'No givens are needed.', givens: p.givens },
    { stage: 'done', text: 'Done.' },
  ];
}

test('the player plays four puzzles to the end in headless Chromium', { skip, timeout: 600_000 }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sp-browser-'));
  const b = await Browser.start({ chromedriver, chromium, width: 1000, height: 1100 });
  mkdirSync(shots, { recursive: true });
  try {
    for (const [name, flags] of PUZZLES) {
      await t.test(name, async () => {
        const db = path.join(dir, `${name}.db`);
        sp(['generate', ...flags, '--threads', '1', '--db', db], dir);
        const url = pathToFileURL(makePage(dir, name, db)).href;
        await playOne(b, name, url);
      });
    }
    await t.test('two players on one page, and a player with broken data', async () => {
      await severalPlayers(b, dir);
    });
  } finally {
    await b.quit();
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A page of several players (as the feed's day page is): each plays on its own. A player whose
 * data is broken says why in an alert and leaves the others working.
 */
async function severalPlayers(b, dir) {
  const six = playerData(JSON.parse(sp(['export', '--db', path.join(dir, 'killer6.db'), '--format', 'jsonl'], dir).split('\n')[0]));
  const broken = { ...six, id: 'broken', key: 'broken', givens: [1, 2] };
  const other = { ...six, id: 'other', key: 'other', title: 'The same 6x6 again' };
  const file = path.join(dir, 'several.html');
  writeFileSync(file, page([six, broken, other]));
  await b.go(pathToFileURL(file).href);
  await b.exec('localStorage.clear()');
  await b.refresh();
  assert.equal((await b.findAll('[role=grid]')).length, 2);
  const alert = await b.find('[role=alert]');
  assert.match(await b.text(alert), /^This puzzle cannot be shown: "givens" must hold 36 digits from 0 to 6\.$/);
  const firstCells = await b.findAll('#p-1 [role=gridcell]');
  const otherCells = await b.findAll('#p-other [role=gridcell]');
  const cell = six.givens.indexOf(0);
  await b.click(otherCells[cell]);
  await b.keys(String(six.solution[cell]));
  assert.match(await b.attr(otherCells[cell], 'aria-label'), new RegExp(`^r\\d+c\\d+, ${six.solution[cell]},`));
  assert.match(await b.attr(firstCells[cell], 'aria-label'), /, empty/, 'the first player did not change');
  const ids = await b.exec('return [...document.querySelectorAll("[id]")].map((e) => e.id)');
  assert.equal(new Set(ids).size, ids.length, 'element ids are unique on the page');
}

async function playOne(b, name, url) {
  await b.go(url);
  await b.exec('localStorage.clear()');
  await b.refresh();
  await b.log('performance'); // drop what the clearing load logged; the checks below see every later load
  const data = await b.exec('return JSON.parse(document.querySelector(".sp-data").textContent)');
  assert.equal(R.expand(data), null, 'the page data is in the compact form the player expands');
  const n = data.size;
  const grid = await b.find('[role=grid]');
  assert.equal(await b.role(grid), 'grid');
  assert.equal(await state(b), 'solving');
  const cells = await b.findAll('[role=gridcell]');
  assert.equal(cells.length, n * n, 'one gridcell per cell');
  const labelOf = (i) => b.attr(cells[i], 'aria-label');
  const invalid = async (i) => (await b.attr(cells[i], 'aria-invalid')) === 'true';
  const name1 = (i) => `r${Math.floor(i / n) + 1}c${(i % n) + 1},`;
  for (const i of [0, n + 1, n * n - 1]) assert.ok((await labelOf(i)).startsWith(name1(i)), `label of cell ${i}: ${await labelOf(i)}`);

  // A digit that repeats one in its row: both cells are marked invalid.
  const row = [...Array(n).keys()].find((r) => data.givens.slice(r * n, r * n + n).filter((v) => !v).length >= 2);
  const empties = [...Array(n).keys()].map((c) => row * n + c).filter((i) => !data.givens[i]);
  const givenInRow = [...Array(n).keys()].map((c) => row * n + c).find((i) => data.givens[i]);
  const [a, bCell] = givenInRow === undefined ? empties : [empties[0], givenInRow];
  const digit = givenInRow === undefined ? data.solution[a] : data.givens[givenInRow];
  await b.click(cells[a]);
  await b.keys(keyOf(digit));
  if (givenInRow === undefined) {
    await b.click(cells[bCell]);
    await b.keys(keyOf(digit));
  }
  assert.ok(await invalid(a), `${name1(a)} holds ${digit} twice in its row: aria-invalid`);
  assert.ok(await invalid(bCell), `${name1(bCell)} repeats it: aria-invalid`);
  assert.match(await labelOf(a), new RegExp(`^${name1(a)} ${digit}, .*conflict`));

  // A pencil mark clears itself when the digit is placed in the same house.
  await b.keys(Keys.backspace); // clears the second copy (or nothing on a given)
  await b.click(cells[a]);
  await b.keys(Keys.backspace);
  assert.ok(!(await invalid(a)), 'the conflict is gone with the digit');
  const [p, q] = empties;
  await b.click(cells[p]);
  await b.keys(' '); // Digit -> Centre mode
  await b.keys(keyOf(data.solution[q]));
  assert.match(await labelOf(p), new RegExp(`, marks ${data.solution[q]}\\b`));
  await b.keys('  '); // Centre -> Corner -> Digit
  await b.click(cells[q]);
  await b.keys(keyOf(data.solution[q]));
  assert.doesNotMatch(await labelOf(p), /marks/, 'placing the digit in the row cleared the mark');
  await b.keys(Keys.backspace);

  // Undo and redo from the keyboard.
  await b.click(cells[p]);
  await b.keys(keyOf(data.solution[p]));
  await b.chord(Keys.ctrl, 'z');
  assert.match(await labelOf(p), /, empty/, 'Ctrl+Z took the digit back');
  await b.chord(Keys.ctrl, 'y');
  assert.match(await labelOf(p), new RegExp(`^${name1(p)} ${data.solution[p]}(,|$)`), 'Ctrl+Y put it back');
  await b.keys(Keys.backspace);

  // Pause covers the grid, stops the clock and the keys; Resume goes on.
  if (name === 'killer6') {
    await clickButton(b, /^Pause$/);
    const time = await b.text(await b.find('[role=timer]'));
    assert.ok(await b.exec('return document.querySelector(".sp-cover").offsetParent !== null'), 'the cover hides the grid');
    await b.exec(`document.querySelectorAll('[role=gridcell]')[${p}].focus()`); // the cover takes clicks
    await b.keys(keyOf(data.solution[p]));
    assert.match(await labelOf(p), /, empty/, 'no digit goes in while paused');
    await new Promise((r) => setTimeout(r, 2200));
    assert.equal(await b.text(await b.find('[role=timer]')), time, 'the clock stands still');
    await clickButton(b, /^Resume$/);
  }

  // "Check against the solution" (off by default) marks a wrong digit that breaks no rule.
  await b.click(cells[p]);
  await b.keys(keyOf((data.solution[p] % n) + 1));
  const quiet = await invalid(p);
  await clickButton(b, /^Check against the solution/, 'input');
  assert.ok(await invalid(p), 'checked against the solution, the wrong digit is invalid');
  assert.match(await labelOf(p), /wrong digit/);
  await clickButton(b, /^Check against the solution/, 'input');
  assert.equal(await invalid(p), quiet, 'unchecked, only rule breaks count again');
  await b.click(cells[p]);
  await b.keys(Keys.backspace);

  // "Reveal cell" appears only once offered in the options; it is undoable like any move.
  assert.equal(await b.exec('return [...document.querySelectorAll(".sp-player button")].some((e) => e.textContent === "Reveal cell" && e.offsetParent)'), false);
  await clickButton(b, /^Offer "Reveal cell"/, 'input');
  await b.click(cells[p]);
  await clickButton(b, /^Reveal cell$/);
  assert.match(await labelOf(p), new RegExp(`^${name1(p)} ${data.solution[p]}(,|$)`));
  await clickButton(b, /^Undo$/);
  assert.match(await labelOf(p), /, empty/);
  await clickButton(b, /^Offer "Reveal cell"/, 'input');

  // Hint: a wrong digit is named first; on a clean grid the first step of the path.
  const hintBtn = await findHint(b);
  const status = await b.find('[role=status]');
  const wrongCell = empties[1];
  await b.click(cells[wrongCell]);
  await b.keys(keyOf((data.solution[wrongCell] % n) + 1));
  await b.click(hintBtn);
  assert.match(await b.text(status), new RegExp(`^Hint: ${name1(wrongCell).slice(0, -1)} holds a wrong digit`));
  await b.click(cells[wrongCell]);
  await b.keys(Keys.backspace);
  assert.equal((await b.findAll('.sp-entered')).length, 0, 'the grid holds the givens only again');
  await b.click(hintBtn);
  const step = data.path[0];
  const said = await b.text(status);
  assert.ok(said.includes(step.hints && step.hints.length ? step.hints[0] : step.text), `status "${said}" gives step 1 "${step.text}"`);
  await b.click(hintBtn);
  await b.click(hintBtn);
  assert.ok((await b.text(status)).includes(step.text), 'pressed again, the hint gives the whole step');

  if (name === 'killer9') await clickButton(b, /^Shade cages/, 'input');
  // A few digits and pencil marks away from the step, for the screenshots: the hint stays lit.
  const used = new Set([...(step.cells || []), ...(step.placements || []).map((x) => x[0]), ...(step.eliminations || []).map((x) => x[0])]);
  const free = [...Array(n * n).keys()].filter((i) => !data.givens[i] && !used.has(i)).reverse();
  for (const i of free.slice(0, 3)) {
    await b.click(cells[i]);
    await b.keys(keyOf(data.solution[i]));
  }
  await b.click(cells[free[3]]);
  await b.chord(Keys.ctrl, keyOf(data.solution[free[3]]));
  await b.chord(Keys.ctrl, keyOf((data.solution[free[3]] % n) + 1));
  await b.click(cells[free[4]]);
  for (const d of [1, 2, 3]) await b.chord(Keys.shift, keyOf(d));
  assert.match(await labelOf(free[4]), /, marks 1 2 3(,|$)/, 'Shift+digit sets corner marks');
  assert.ok((await b.findAll('.sp-hl')).length > 0, 'the hint cells are still highlighted');
  await screenshots(b, name, cells[a]);
  if (name === 'killer9') await printed(b, name);
  await replays(b, name, data, status);

  // The whole solution, typed with the keyboard alone: digits, ArrowRight, then ArrowDown and Home.
  await typeSolution(b, data);
  assert.equal(await state(b), 'solved');
  assert.match(await b.text(status), /^Solved in \d\d:\d\d/);
  await b.refresh();
  assert.equal(await state(b), 'solved', 'still solved after a reload');
  assert.equal((await b.findAll('[aria-invalid=true]')).length, 0);

  // No request left the page: Chrome's network log holds the page's own file only, the page saw
  // no resource load, and the console has no error (CSP violations are logged as errors).
  assert.deepEqual(await checkNoRequests(b, [url]), [url], 'only the page itself was loaded');
}

/** "Watch it solve" steps through the path; "How it was made" through the making, when present. */
async function replays(b, name, data, status) {
  await clickButton(b, /^Watch it solve/);
  assert.match(await b.text(status), new RegExp(`^Step 1 of ${data.path.length}: `));
  await clickButton(b, /^Step$/);
  await clickButton(b, /^Step$/);
  assert.ok((await b.text(status)).startsWith(`Step 3 of ${data.path.length}: ${data.path[2].text}`));
  await clickButton(b, /^Back$/);
  assert.match(await b.text(status), /^Step 2 of/);
  if (name === 'killer9') {
    writeFileSync(path.join(shots, `${name}-watch-1000.png`), await b.screenshot(1000));
    await clickButton(b, /^Play$/);
    await new Promise((r) => setTimeout(r, 2600));
    await clickButton(b, /^Pause$/);
    const at = Number(/^Step (\d+) of/.exec(await b.text(status))[1]);
    assert.ok(at >= 3 && at <= 6, `Play went on from step 2 to step ${at} in 2.6 s`);
  }
  await b.keys(Keys.escape);
  assert.equal(await b.text(status), '', 'Escape closed the replay');
  if (data.making.length) {
    await clickButton(b, /^How it was made/);
    assert.equal(await b.text(status), `Stage 1 of ${data.making.length}: ${data.making[0].text}`);
    for (let k = 1; k < data.making.length; k++) await clickButton(b, /^Step$/);
    const last = data.making[data.making.length - 1].text;
    assert.equal(await b.text(status), `Stage ${data.making.length} of ${data.making.length}: ${last}`, 'each word once');
    writeFileSync(path.join(shots, `${name}-made-1000.png`), await b.screenshot(1000));
    await clickButton(b, /^Close$/);
  }
}

/** The print stylesheet prints the puzzle alone: no keypad, tools, timer or player digits. */
async function printed(b, name) {
  await b.cmd('POST', '/goog/cdp/execute', { cmd: 'Emulation.setEmulatedMedia', params: { media: 'print' } });
  try {
    const shown = await b.exec(`const vis = (s) => [...document.querySelectorAll(s)].some((e) => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden');
      return { grid: vis('[role=grid]'), keypad: vis('.sp-keypad'), tools: vis('.sp-tools'), timer: vis('.sp-time'), entered: vis('.sp-entered .sp-val') };`);
    assert.deepEqual(shown, { grid: true, keypad: false, tools: false, timer: false, entered: false });
    writeFileSync(path.join(shots, `${name}-print.png`), await b.screenshot(1000));
  } finally {
    await b.cmd('POST', '/goog/cdp/execute', { cmd: 'Emulation.setEmulatedMedia', params: { media: '' } });
  }
}

/** Screenshots at 1000 and 360 px; at 360 the grid and keypad fit with no sideways scrolling. */
async function screenshots(b, name, focusCell) {
  await b.click(focusCell);
  try {
    writeFileSync(path.join(shots, `${name}-1000.png`), await b.screenshot(1000));
    await b.viewport(360, 740);
    const fit = await b.exec(`const w = document.documentElement.clientWidth;
      const right = (s) => document.querySelector(s).getBoundingClientRect().right;
      return { scroll: document.documentElement.scrollWidth, w, grid: right('[role=grid]'), keypad: right('.sp-keypad') };`);
    assert.ok(fit.scroll <= 360 && fit.grid <= fit.w && fit.keypad <= fit.w, `${name} at 360 px: ${JSON.stringify(fit)}`);
    writeFileSync(path.join(shots, `${name}-360.png`), await b.screenshot(360));
  } finally {
    await b.cmd('POST', '/goog/cdp/execute', { cmd: 'Emulation.clearDeviceMetricsOverride', params: {} });
  }
}
