// One killer counted up to 2 by sigh's Interactive Sudoku Solver (JavaScript, one thread), for
// scripts/bench_sigh.sh. Usage: node scripts/bench_sigh.mjs SIGH_DIR FILE LINE
//   SIGH_DIR  a checkout of github.com/sigh/Interactive-Sudoku-Solver (its js/ folder is loaded)
//   FILE      puzzle JSON lines (../shared/data/README.md); LINE is the 1-based line to solve
// Prints one tab-separated row: id, search seconds, seconds with the solver's set-up, guesses,
// solutions (up to 2), whether the first solution is the stored one.
// The handlers are those sigh's SudokuBuilder makes for a 9x9 grid with 'Cage' constraints.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';

const [sighDir, file, lineArg] = process.argv.slice(2);
if (!sighDir || !file || !lineArg) {
  console.error('usage: node scripts/bench_sigh.mjs SIGH_DIR FILE LINE');
  process.exit(2);
}
globalThis.self = globalThis;
self.VERSION_PARAM = '';
const load = (path) => import(pathToFileURL(resolve(join(sighDir, path))).href);
const { SudokuSolver } = await load('js/solver/engine.js');
const Handlers = await load('js/solver/handlers.js');
const { Sum } = await load('js/solver/sum_handler.js');
const { CellGeometry } = await load('js/cell_geometry.js');
const { SudokuConstraintBase } = await load('js/sudoku_constraint.js');

const line = readFileSync(file, 'utf8').split('\n')[Number(lineArg) - 1];
const puzzle = JSON.parse(line);
if (puzzle.size !== 9 || (puzzle.givens || []).some((v) => v !== 0)) {
  console.error(`${file}:${lineArg}: this harness takes zero-given 9x9 killers only`);
  process.exit(2);
}

function* killerHandlers(geometry, cages) {
  for (const cells of SudokuConstraintBase.rowRegions(geometry)) yield new Handlers.AllDifferent(cells);
  for (const cells of SudokuConstraintBase.colRegions(geometry)) yield new Handlers.AllDifferent(cells);
  const boxes = SudokuConstraintBase.boxRegions(geometry, null);
  yield new Handlers.BoxInfo(boxes);
  for (const cells of boxes) yield new Handlers.AllDifferent(cells);
  for (const { sum, cells } of cages) {
    if (sum !== 0) yield new Sum(cells, sum);
    yield new Handlers.AllDifferent(cells);
  }
}

const newSolver = () => {
  const geometry = CellGeometry.fromGridSize(9);
  return new SudokuSolver([...killerHandlers(geometry, puzzle.cages)], geometry, null);
};
const t0 = performance.now();
const solver = newSolver();
const t1 = performance.now();
const count = solver.countSolutions(2);
const t2 = performance.now();
const guesses = solver.state().counters.guesses;
// The first solution again, untimed, to check it against the stored one.
const first = newSolver().nthSolution(0);
const matches = !puzzle.solution ? 'n/a' : first && first.every((v, i) => v === puzzle.solution[i]) ? 'yes' : 'NO';
console.log([puzzle.id ?? `${file}:${lineArg}`, ((t2 - t1) / 1000).toFixed(3), ((t2 - t0) / 1000).toFixed(3),
  guesses, count, matches].join('\t'));
