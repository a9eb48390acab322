// @ts-check
// How the page writes its figures, in one place: a game's exact value and its distance, shares as
// percentages, and counted nouns ("1 game", "2 games").  The values are the server's, from the
// first player's side or the side to move as each caller says: this module only words them.

// "1 game", "2 games"; "1 box", "3 boxes".
/** @param {number} n @param {string} word @param {string} [many] */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

// 0.4567 -> "45.7%"; no share yet -> "–".
/** @param {number | null | undefined} share */
export function pct(share) {
  return share === null || share === undefined ? "–" : `${Math.round(share * 1000) / 10}%`;
}

// A value's sign as the analysis marks it (+ a win, = a draw, − a loss), and its CSS class.
export const valueSign = (/** @type {number} */ v) => (v > 0 ? "+" : v < 0 ? "−" : "=");
export const valueClass = (/** @type {number} */ v) => (v > 0 ? "win" : v < 0 ? "loss" : "draw");

// A position's value in words, from the first player's side: "X wins in 3 with best play",
// "a draw with best play", "game over".
/** @param {{over: boolean, value: number, distance: number | null}} position @param {string[]} symbols */
export function positionText(position, symbols) {
  if (position.over) return "game over";
  if (!position.value) return "a draw with best play";
  const distance = position.distance ? ` in ${position.distance}` : "";
  return `${symbols[position.value > 0 ? 0 : 1]} wins${distance} with best play`;
}

// A move's value with its distance, as the analysis lists it: "X wins in 5" (plies to the end
// with best play, the move counted), "draw".  `entry`: the server's value for the side to move
// (`mover`; `other` is the side that moves next).
/** @param {{value: number, distance?: number | null}} entry @param {string} mover @param {string} other */
export function moveValueText(entry, mover, other) {
  if (!entry.value) return "draw";
  const distance = entry.distance ? ` in ${entry.distance}` : "";
  return `${entry.value > 0 ? mover : other} wins${distance}`;
}

// The same, as a sentence starts: "Game over", "A draw with best play".
export const capitalised = (/** @type {string} */ text) => text.charAt(0).toUpperCase() + text.slice(1);

// Which loss a move made, from the values (first player's side) before and after it:
// "a win thrown to a draw".
/** @param {number} before @param {number} after @param {number} side */
export function lossText(before, after, side) {
  const sign = side === 0 ? 1 : -1;
  const name = (v) => (v > 0 ? "win" : v < 0 ? "loss" : "draw");
  return `a ${name(Math.sign(before) * sign)} thrown to a ${name(Math.sign(after) * sign)}`;
}

// The beads of a lesson, a bead's copies counted: ["0"] -> "bead 0", ["5", "5", "5"] -> "beads 5 ×3",
// ["0", "2", "2"] -> "beads 0, 2 ×2".
/** @param {string[]} beads */
export function beadsText(beads) {
  const counts = new Map();
  for (const bead of beads) counts.set(bead, (counts.get(bead) || 0) + 1);
  const parts = [...counts].map(([bead, n]) => (n === 1 ? bead : `${bead} ×${n}`));
  return `${beads.length === 1 ? "bead" : "beads"} ${parts.join(", ")}`;
}
