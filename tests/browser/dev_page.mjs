// Dev-only page builder: turns `sudoku-press export --format jsonl` (+ `explain --format jsonl`)
// output into a player page following the data contract, for the browser tests until the binary's
// `render --format html` exists. Usage:
//   node tests/browser/dev_page.mjs PUZZLE.jsonl [EXPLAIN.jsonl] > page.html
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Cell index of a name like `r10c6` on an N grid. */
function cellIndex(name, n) {
  const m = /^r(\d+)c(\d+)$/.exec(name);
  if (!m) throw new Error(`dev_page: cannot read the cell name ${JSON.stringify(name)}`);
  return (+m[1] - 1) * n + (+m[2] - 1);
}

/** The contract's JSON object for one exported puzzle and its explain steps. */
export function playerData(puzzle, steps = [], making = []) {
  const n = puzzle.size;
  let regions;
  if (Array.isArray(puzzle.regions)) {
    regions = new Array(n * n).fill(0);
    puzzle.regions.forEach((cells, r) => cells.forEach((c) => { regions[c] = r; }));
  } else {
    const br = puzzle.box_rows, bc = puzzle.box_cols;
    regions = Array.from({ length: n * n }, (_, i) => {
      const r = Math.floor(i / n), c = i % n;
      return Math.floor(r / br) * (n / bc) + Math.floor(c / bc);
    });
  }
  const variant = puzzle.variant;
  const title = `${variant[0].toUpperCase()}${variant.slice(1)} ${n}x${n} · #${puzzle.id}`;
  return {
    id: String(puzzle.id),
    key: createHash('sha256').update(JSON.stringify([puzzle.givens, puzzle.cages, regions])).digest('hex').slice(0, 32),
    title, variant, size: n,
    boxRows: Array.isArray(puzzle.regions) ? null : puzzle.box_rows,
    boxCols: Array.isArray(puzzle.regions) ? null : puzzle.box_cols,
    regions, givens: puzzle.givens, cages: puzzle.cages || [], solution: puzzle.solution,
    level: puzzle.level, score: puzzle.score,
    path: steps.map((s) => ({
      technique: s.technique, name: s.name, level: s.tier, text: s.text, hints: s.hints || [],
      cells: s.cells.map((c) => cellIndex(c, n)),
      placements: s.placements.map(([c, d]) => [cellIndex(c, n), d]),
      eliminations: s.eliminations.map(([c, d]) => [cellIndex(c, n), d]),
    })),
    making,
  };
}

const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A whole page holding the given players, with the same strict CSP the binary's pages carry. */
export function page(players, title = 'sudoku-press player (dev page)') {
  const css = readFileSync(path.join(root, 'src/play/player.css'), 'utf8');
  const js = readFileSync(path.join(root, 'src/play/rules.js'), 'utf8') + '\n' + readFileSync(path.join(root, 'src/play/player.js'), 'utf8');
  const csp = `default-src 'none'; script-src ${sha(js)}; style-src ${sha(css)}; img-src data:; base-uri 'none'; form-action 'none'`;
  // The skeleton of play-page's src/play/page.html: title, level line, notes, then the data.
  const sections = players.map((d) => {
    const json = JSON.stringify(d).replace(/</g, '\\u003c');
    const id = escapeHtml(d.id);
    return `<section class="sp-player" id="p-${id}" aria-labelledby="p-${id}-title">\n<h2 id="p-${id}-title">${escapeHtml(d.title)}</h2>\n` +
      `<p class="sp-meta">${escapeHtml(`${d.level} · score ${d.score}`)}</p>\n` +
      (d.making.length ? '' : '<p class="sp-note sp-making-note">No record of how this puzzle was made (dev page).</p>\n') +
      `<script type="application/json" class="sp-data">${json}</script>\n</section>`;
  }).join('\n');
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)}</title>\n` +
    `<style>${css}</style>\n</head>\n<body>\n<header class="sp-page-header">\n<h1>${escapeHtml(title)}</h1>\n` +
    `<nav class="sp-links" aria-label="Pages"><a href="#" rel="prev">Previous day</a><a href="#">Archive</a></nav>\n</header>\n` +
    `<main>\n${sections}\n</main>\n<footer class="sp-page-footer"><p>Made by sudoku-press.</p></footer>\n<script>${js}</script>\n</body>\n</html>\n`;
}

/** JSON lines of a file, skipping blanks. */
export function jsonLines(file) {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [puzzles, explain] = process.argv.slice(2);
  if (!puzzles) {
    console.error('usage: node tests/browser/dev_page.mjs PUZZLE.jsonl [EXPLAIN.jsonl] > page.html');
    process.exit(2);
  }
  const rows = jsonLines(puzzles);
  const steps = explain ? jsonLines(explain).filter((s) => s.type === 'step') : [];
  const players = rows.map((p, i) => playerData(p, steps.filter((s) => s.puzzle === i)));
  process.stdout.write(page(players));
}
