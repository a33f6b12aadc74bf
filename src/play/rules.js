// Placeholder for the player's rules (conflicts, cage sums, pencil marks, hint selection):
// the player-js branch replaces this file. Kept as a classic script (no modules) that the
// page inlines before player.js.
"use strict";
