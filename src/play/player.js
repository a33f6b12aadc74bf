// Placeholder player: the player-js branch replaces this file. It draws each puzzle of the page
// (read-only) from its sp-data JSON so that a page written today shows the grid.
"use strict";
(function () {
  for (const section of document.querySelectorAll(".sp-player")) {
    const data = JSON.parse(section.querySelector(".sp-data").textContent);
    const grid = document.createElement("div");
    grid.className = "sp-grid";
    grid.setAttribute("role", "grid");
    grid.dataset.state = "solving";
    grid.style.gridTemplateColumns = "repeat(" + data.size + ", 2.2em)";
    const sums = new Map(data.cages.map((c) => [Math.min(...c.cells), c.sum]));
    data.givens.forEach((v, i) => {
      const cell = document.createElement("div");
      cell.className = "sp-cell";
      cell.setAttribute("role", "gridcell");
      const r = Math.floor(i / data.size) + 1, c = (i % data.size) + 1;
      cell.setAttribute("aria-label", "r" + r + "c" + c + (v ? ", " + v : ", empty"));
      if (sums.has(i)) {
        const s = document.createElement("span");
        s.className = "sp-sum";
        s.textContent = sums.get(i);
        cell.append(s);
      }
      if (v) cell.append(String(v > 9 ? String.fromCharCode(55 + v) : v));
      grid.append(cell);
    });
    section.append(grid);
  }
})();
