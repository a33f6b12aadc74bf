// The feed site in a real browser (issue 20 items 1 and 8): the real binary generates a small
// database and writes three consecutive days with `feed --out DIR`; headless Chromium opens
// index.html from file://, follows the archive to a day page and its previous/next links,
// plays a puzzle of the middle day to the end (data-state="solved", kept across a reload), and
// checks that no page made a request beyond the site's own files, then withdraws a day and
// follows its "withdrawn" page back to the archive. Screenshots of the archive, a day page and
// the withdrawn page at 1000 and 360 px go to output/screenshots/ (SP_SCREENSHOTS to move them).
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Browser } from './webdriver.mjs';
import { checkNoRequests, chromedriver, chromium, clickButton, findHint, readPlayerData, shots, skip, sp, state, typeSolution } from './playing.mjs';
import R from '../../src/play/rules.js';

const DAYS = ['2026-11-26', '2026-11-27', '2026-11-28'];

// Two 6x6 killers a day: cheap to generate, print and play, and two players on every page.
const SCHEDULE = `[feed]
name = "browser"
title = "Browser Daily"
base_url = "https://puzzles.test/daily/"
epoch = "2026-11-01"
recent = 3
[schedule]
all = ["killer-6-medium", "killer-6-medium"]
`;

test('the feed site works from file:// and its day pages play', { skip, timeout: 300_000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sp-feed-browser-'));
  const out = path.join(dir, 'site');
  sp(['generate', '--size', '6', '--level', 'medium', '--seed', '5', '--count', '8', '--threads', '1', '--db', 'p.db'], dir);
  writeFileSync(path.join(dir, 's.toml'), SCHEDULE);
  for (const date of DAYS) sp(['feed', '--db', 'p.db', '--schedule', 's.toml', '--date', date, '--out', out], dir);
  const url = (name) => pathToFileURL(path.join(out, name)).href;
  mkdirSync(shots, { recursive: true });
  const b = await Browser.start({ chromedriver, chromium, width: 1000, height: 1100 });
  try {
    // The archive: every day, newest first, each linking to its page.
    await b.log('performance'); // what follows is checked from here
    await b.log('browser');
    await b.go(url('index.html'));
    await b.exec('localStorage.clear()');
    const days = await b.exec('return [...document.querySelectorAll("ol.days li > a:first-child")].map((a) => a.getAttribute("href"))');
    assert.deepEqual(days, DAYS.map((d) => `${d}.html`).reverse());
    const summaries = await b.exec('return [...document.querySelectorAll("ol.days li > span")].map((s) => s.textContent)');
    assert.deepEqual(summaries, DAYS.map(() => 'Puzzles: 2\u00a0× Killer 6x6 · medium.'), 'slots are named in words');
    await shot(b, 'feed-index');
    const visited = [url('index.html')];

    // Follow the archive to the middle day, then its previous and next links and back.
    await b.click(await b.find(`ol.days a[href="${DAYS[1]}.html"]`));
    assert.equal(await b.exec('return location.href'), url(`${DAYS[1]}.html`));
    visited.push(url(`${DAYS[1]}.html`));
    await follow(b, 'prev', DAYS[0]);
    visited.push(url(`${DAYS[0]}.html`));
    assert.equal(await b.exec('return document.querySelector("a[rel=prev]")'), null, 'the first day has no previous day');
    await follow(b, 'next', DAYS[1]);
    await follow(b, 'next', DAYS[2]);
    visited.push(url(`${DAYS[2]}.html`));
    assert.equal(await b.exec('return document.querySelector("a[rel=next]")'), null, 'the last day has no next day');
    await follow(b, 'prev', DAYS[1]);

    // The day page: one player per puzzle, each with its links elsewhere, and the day's files.
    const hrefs = await b.exec('return [...document.querySelectorAll(".sp-page-header a")].map((a) => a.getAttribute("href"))');
    for (const h of ['index.html', `${DAYS[1]}.pdf`, `${DAYS[1]}.json`]) assert.ok(hrefs.includes(h), `the day page links to ${h}: ${hrefs}`);
    const players = await b.exec('return [...document.querySelectorAll(".sp-player")].map((s) => s.id)');
    assert.deepEqual(players, [`p-${DAYS[1]}-killer-6-medium-0`, `p-${DAYS[1]}-killer-6-medium-1`]);
    assert.equal((await b.findAll('[role=grid]')).length, 2, 'every puzzle is playable');
    for (const id of players) {
      const links = await b.exec('return [...document.querySelectorAll(`#${arguments[0]} .sp-player-links a`)].map((a) => a.href)', id);
      assert.ok(links.length === 2 && links[0].startsWith('https://sudokupad.app/') && links[1].startsWith('https://f-puzzles.com/'), `${id}: ${links}`);
    }
    await shot(b, 'feed-day');

    // Play the second puzzle to the end: a hint first, then the whole solution by keyboard.
    const scope = `#${players[1]}`;
    const data = await readPlayerData(b, scope);
    assert.equal(R.expand(data), null, 'the page data is in the compact form the player expands');
    assert.ok(data.path.length > 0 && data.making.length > 0, 'the day page embeds the hint path and the making');
    await b.click(await findHint(b, scope));
    const said = await b.text(await b.find(`${scope} [role=status]`));
    assert.ok(said.includes(data.path[0].hints[0]), `the hint "${said}" gives step 1`);
    await clickButton(b, /^How it was made/, 'button', scope);
    assert.match(await b.text(await b.find(`${scope} [role=status]`)), /^Stage 1 of \d+/);
    await clickButton(b, /^Close$/, 'button', scope);
    await typeSolution(b, data, scope);
    assert.equal(await state(b, scope), 'solved');
    assert.equal(await state(b, `#${players[0]}`), 'solving', 'the other puzzle is untouched');
    await b.refresh();
    assert.equal(await state(b, scope), 'solved', 'still solved after a reload');
    await shot(b, 'feed-day-solved');

    // No page loaded anything: the log holds the visited pages only.
    const requested = await checkNoRequests(b, visited);
    assert.deepEqual(requested.sort(), [...visited].sort());

    // Withdraw the first day: its page says so (base.html's head, the archive link), and the
    // archive lists the two others.
    sp(['feed', '--db', 'p.db', '--schedule', 's.toml', '--withdraw', DAYS[0], '--out', out], dir);
    await b.go(url(`${DAYS[0]}.html`));
    assert.match(await b.text(await b.find('body > p')), /were withdrawn/);
    assert.equal(await b.exec('return document.querySelectorAll("meta[http-equiv=Content-Security-Policy]").length'), 1);
    await shot(b, 'feed-withdrawn');
    await b.click(await b.find('nav a[rel=index]'));
    const left = await b.exec('return [...document.querySelectorAll("ol.days li > a:first-child")].map((a) => a.getAttribute("href"))');
    assert.deepEqual(left, [DAYS[2], DAYS[1]].map((d) => `${d}.html`));
  } finally {
    await b.quit();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Clicks the page's `rel` link (prev or next) and checks it led to `date`'s page. */
async function follow(b, rel, date) {
  await b.click(await b.find(`.sp-page-header a[rel=${rel}]`));
  assert.equal(await b.exec('return location.pathname.split("/").pop()'), `${date}.html`);
  assert.ok((await b.exec('return document.title')).endsWith(date));
}

/** Screenshots of the current page at 1000 and 360 px; at 360 nothing scrolls sideways. */
async function shot(b, name) {
  writeFileSync(path.join(shots, `${name}-1000.png`), await b.screenshot(1000));
  await b.viewport(360, 740);
  try {
    const scroll = await b.exec('return document.documentElement.scrollWidth');
    assert.ok(scroll <= 360, `${name} at 360 px scrolls sideways (${scroll} px wide)`);
  } finally {
    await b.cmd('POST', '/goog/cdp/execute', { cmd: 'Emulation.clearDeviceMetricsOverride', params: {} });
  }
  writeFileSync(path.join(shots, `${name}-360.png`), await b.screenshot(360));
}
