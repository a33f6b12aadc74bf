// Helpers shared by the browser tests (player.test.mjs, feed.test.mjs): where the binary and the
// browser are, running the binary, and playing a player of a page through the accessibility
// contract of issue 20 item 6. `scope` is a CSS selector of one player's section (`#p-ID`) on a
// page of several; '' means the page's first player.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keys, which } from './webdriver.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bin = path.resolve(root, process.env.SUDOKU_PRESS_BIN || 'target/release/sudoku-press');
export const chromedriver = which(['chromedriver', '/usr/lib/chromium/chromedriver']);
export const chromium = which(['chromium', 'chromium-browser', 'google-chrome']);
export const shots = path.resolve(root, process.env.SP_SCREENSHOTS || 'output/screenshots');

const missing = [[existsSync(bin), `the binary ${bin} (cargo build --release, or set SUDOKU_PRESS_BIN)`],
  [chromedriver, 'chromedriver (apt-get install chromium-driver)'], [chromium, 'chromium (apt-get install chromium)']]
  .filter(([ok]) => !ok).map(([, what]) => what);
if (missing.length && process.env.SP_REQUIRE_BROWSER === '1') {
  throw new Error(`browser tests need ${missing.join(' and ')}`);
}
/** The `skip` option of a browser test: false, or what is missing. */
export const skip = missing.length ? `needs ${missing.join(' and ')}` : false;

/** Runs the binary in `cwd`; its stdout. */
export function sp(args, cwd) {
  return execFileSync(bin, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
}

/** The key that types digit `d` (10-16 are a-g; Shift would make them corner marks). */
export const keyOf = (d) => (d <= 9 ? String(d) : 'abcdefg'[d - 10]);

/** The `data-state` of the player's grid. */
export function state(b, scope = '') {
  return b.exec('return document.querySelector(arguments[0]).getAttribute("data-state")', `${scope} [role=grid]`.trim());
}

/** The player's data (its `sp-data` JSON). */
export function readPlayerData(b, scope = '') {
  return b.exec('return JSON.parse(document.querySelector(arguments[0]).textContent)', `${scope} .sp-data`.trim());
}

/**
 * Types the whole solution into the player's grid with the keyboard alone: digits and
 * ArrowRight along a row, then ArrowDown and Home.
 */
export async function typeSolution(b, data, scope = '') {
  const n = data.size;
  const cells = await b.findAll(`${scope} [role=gridcell]`.trim());
  await b.click(cells[0]);
  for (let r = 0; r < n; r++) {
    let keys = '';
    for (let c = 0; c < n; c++) {
      const i = r * n + c;
      if (!data.givens[i]) keys += keyOf(data.solution[i]);
      if (c + 1 < n) keys += Keys.right;
    }
    await b.keys(r + 1 < n ? keys + Keys.down + Keys.home : keys);
  }
}

/** Clicks the player's control whose accessible name matches (buttons, or checkboxes with 'input'). */
export async function clickButton(b, re, tag = 'button', scope = '') {
  const player = scope || '.sp-player';
  if (tag === 'input') await b.exec('document.querySelector(arguments[0]).open = true', `${player} .sp-options`);
  for (const el of await b.findAll(`${player} ${tag}`)) {
    if (re.test(await b.label(el)) && (await b.cmd('GET', `/element/${el}/displayed`))) return b.click(el);
  }
  throw new Error(`no ${tag} named ${re}`);
}

/** The player's button whose accessible name begins with "Hint". */
export async function findHint(b, scope = '') {
  for (const el of await b.findAll(`${scope || '.sp-player'} button`)) {
    if ((await b.label(el)).startsWith('Hint')) return el;
  }
  throw new Error('no button whose accessible name begins with "Hint"');
}

/**
 * Checks that no request left the pages loaded since the last call: Chrome's network log holds
 * only the given page addresses, the current page saw no resource load, and the console has no
 * error (CSP violations are logged as errors). Returns the addresses requested.
 */
export async function checkNoRequests(b, pages) {
  const requests = (await b.log('performance')).map((e) => JSON.parse(e.message).message)
    .filter((m) => m.method === 'Network.requestWillBeSent').map((m) => m.params.request.url);
  assert.ok(requests.length > 0, 'the performance log records requests');
  const left = [...new Set(requests)].filter((u) => !pages.includes(u));
  assert.deepEqual(left, [], 'only the pages themselves were loaded');
  assert.equal(await b.exec('return performance.getEntriesByType("resource").length'), 0);
  const errors = (await b.log('browser')).filter((e) => e.level === 'SEVERE');
  assert.deepEqual(errors.map((e) => e.message), []);
  return [...new Set(requests)];
}
