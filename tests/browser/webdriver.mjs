// A small W3C WebDriver client over Node's built-in fetch, enough to drive Chromium through
// chromedriver in the browser tests (no npm dependency).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** The first of the given programs found on PATH (or as an absolute path), or null. */
export function which(names) {
  const dirs = (process.env.PATH || '').split(':');
  for (const name of names) {
    if (name.startsWith('/') && existsSync(name)) return name;
    for (const d of dirs) if (d && existsSync(`${d}/${name}`)) return `${d}/${name}`;
  }
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A running chromedriver and one browser session. */
export class Browser {
  static async start({ chromedriver, chromium, width = 1000, height = 1200 }) {
    const port = await freePort();
    const proc = spawn(chromedriver, [`--port=${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (d) => { err += d; });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        const r = await fetch(`${base}/status`);
        if ((await r.json()).value.ready) break;
      } catch { /* not listening yet */ }
      if (i > 100 || proc.exitCode !== null) {
        proc.kill();
        throw new Error(`chromedriver did not start on port ${port}: ${err}`);
      }
      await sleep(100);
    }
    const b = new Browser(base, proc);
    const args = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
      `--window-size=${width},${height}`, '--no-first-run', '--disable-extensions'];
    const options = { args };
    if (chromium) options.binary = chromium;
    const caps = { capabilities: { alwaysMatch: {
      browserName: 'chrome', 'goog:chromeOptions': options,
      'goog:loggingPrefs': { performance: 'ALL', browser: 'ALL' },
    } } };
    try {
      const s = await b.cmd('POST', '/session', caps);
      b.session = s.sessionId;
    } catch (e) {
      proc.kill();
      throw e;
    }
    return b;
  }

  constructor(base, proc) {
    this.base = base;
    this.proc = proc;
  }

  async cmd(method, path, body) {
    const url = this.base + (this.session && path !== '/session' ? `/session/${this.session}${path}` : path);
    const r = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    const j = await r.json();
    if (!r.ok || (j.value && j.value.error)) {
      throw new Error(`WebDriver ${method} ${path}: ${j.value && j.value.error}: ${j.value && j.value.message}`);
    }
    return j.value;
  }

  async quit() {
    try { if (this.session) await this.cmd('DELETE', ''); } catch { /* already gone */ }
    this.proc.kill();
  }

  go(url) { return this.cmd('POST', '/url', { url }); }
  refresh() { return this.cmd('POST', '/refresh', {}); }
  /** Runs a function body in the page; `arguments` are the args. */
  exec(script, ...args) { return this.cmd('POST', '/execute/sync', { script, args }); }
  async find(css) { return (await this.cmd('POST', '/element', { using: 'css selector', value: css }))[ELEMENT]; }
  async findAll(css) {
    return (await this.cmd('POST', '/elements', { using: 'css selector', value: css })).map((e) => e[ELEMENT]);
  }
  attr(el, name) { return this.cmd('GET', `/element/${el}/attribute/${name}`); }
  text(el) { return this.cmd('GET', `/element/${el}/text`); }
  label(el) { return this.cmd('GET', `/element/${el}/computedlabel`); }
  role(el) { return this.cmd('GET', `/element/${el}/computedrole`); }
  click(el) { return this.cmd('POST', `/element/${el}/click`, {}); }
  /** Types keys into whatever has focus, through the Actions API (real key events). */
  keys(text) {
    const actions = [];
    for (const ch of text) actions.push({ type: 'keyDown', value: ch }, { type: 'keyUp', value: ch });
    return this.cmd('POST', '/actions', { actions: [{ type: 'key', id: 'kbd', actions }] });
  }
  /** Presses a key with a modifier held (e.g. Keys.ctrl + 'z'). */
  chord(mod, key) {
    const actions = [{ type: 'keyDown', value: mod }, { type: 'keyDown', value: key }, { type: 'keyUp', value: key }, { type: 'keyUp', value: mod }];
    return this.cmd('POST', '/actions', { actions: [{ type: 'key', id: 'kbd', actions }] });
  }
  /** Emulates a viewport width (Chrome DevTools) so a layout can be checked at phone size. */
  viewport(width, height) {
    return this.cmd('POST', '/goog/cdp/execute', { cmd: 'Emulation.setDeviceMetricsOverride',
      params: { width, height, deviceScaleFactor: 1, mobile: width < 500 } });
  }
  /** A PNG of the whole page laid out `width` CSS px wide (a viewport as tall as the page). */
  async screenshot(width) {
    try {
      await this.viewport(width, 800);
      const height = await this.exec('return document.documentElement.scrollHeight');
      await this.viewport(width, height);
      const r = await this.cmd('POST', '/goog/cdp/execute', { cmd: 'Page.captureScreenshot', params: { format: 'png' } });
      return Buffer.from(r.data, 'base64');
    } finally {
      await this.cmd('POST', '/goog/cdp/execute', { cmd: 'Emulation.clearDeviceMetricsOverride', params: {} });
    }
  }
  /** Entries of Chrome's log of the given type ('performance' or 'browser') since the last call. */
  log(type) { return this.cmd('POST', '/se/log', { type }); }
}

export const Keys = { backspace: '\uE003', escape: '\uE00C', ctrl: '\uE009', shift: '\uE008', left: '\uE012', up: '\uE013', right: '\uE014', down: '\uE015', home: '\uE011' };
