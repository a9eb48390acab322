// The page's wording of figures (src/gamelearn/web/static/js/format.js), run by node's own test
// runner: `node --test tests/js/`.  The oracles are the sentences the page promises.
import { test } from "node:test";
import assert from "node:assert/strict";
import { beadsText, capitalised, lineText, lossText, moveValueText, pct, plural, positionText, valueClass, valueSign } from "../../src/gamelearn/web/static/js/format.js";

test("counted nouns", () => {
  assert.equal(plural(1, "game"), "1 game");
  assert.equal(plural(0, "game"), "0 games");
  assert.equal(plural(3, "box", "boxes"), "3 boxes");
});

test("shares as percentages, to a tenth", () => {
  assert.equal(pct(0.4567), "45.7%");
  assert.equal(pct(1), "100%");
  assert.equal(pct(0), "0%");
  assert.equal(pct(null), "–");
  assert.equal(pct(undefined), "–");
});

test("a value's sign and class", () => {
  assert.deepEqual([1, 0, -2].map(valueSign), ["+", "=", "−"]);
  assert.deepEqual([3, 0, -1].map(valueClass), ["win", "draw", "loss"]);
});

test("a position's value in words, from the first player's side", () => {
  const symbols = ["X", "O"];
  assert.equal(positionText({ over: true, value: 1, distance: 0 }, symbols), "game over");
  assert.equal(positionText({ over: false, value: 0, distance: null }, symbols), "a draw with best play");
  assert.equal(positionText({ over: false, value: 1, distance: 3 }, symbols), "X wins in 3 with best play");
  assert.equal(positionText({ over: false, value: -1, distance: 1 }, symbols), "O wins in 1 with best play");
  assert.equal(capitalised("a draw with best play"), "A draw with best play");
});

test("which loss a move made, for the side that made it", () => {
  assert.equal(lossText(1, 0, 0), "a win thrown to a draw");
  assert.equal(lossText(0, 1, 1), "a draw thrown to a loss");  // O to move: X's values flip
  assert.equal(lossText(-1, 1, 1), "a win thrown to a loss");
});

test("a lesson's beads: copies counted, never repeated", () => {
  assert.equal(beadsText(["4"]), "bead 4");
  assert.equal(beadsText(["5", "5", "5"]), "beads 5 ×3");
  assert.equal(beadsText(["0", "2", "2"]), "beads 0, 2 ×2");
  assert.equal(beadsText(["0", "2"]), "beads 0, 2");
});

test("a move's value with its distance, for the side that plays it", () => {
  assert.equal(moveValueText({ value: 1, distance: 5 }, "X", "O"), "X wins in 5");
  assert.equal(moveValueText({ value: -1, distance: 4 }, "X", "O"), "O wins in 4");
  assert.equal(moveValueText({ value: -1, distance: 4 }, "O", "X"), "X wins in 4");
  assert.equal(moveValueText({ value: 0, distance: null }, "X", "O"), "draw");
  assert.equal(moveValueText({ value: 1 }, "W", "B"), "W wins", "no distance known: none said");
});

test("the best line, numbered by plies from the position on", () => {
  const line = [{ move: "8", side: 0 }, { move: "2", side: 1 }, { move: "6", side: 0 }];
  assert.equal(lineText(line, ["X", "O"], 4), "5. X 8 6. O 2 7. X 6");
  assert.equal(lineText([], ["X", "O"], 0), "");
  // A side that moves twice running (Teeko's Alternate drops) is named each time.
  assert.equal(lineText([{ move: "22", side: 0 }, { move: "11", side: 0 }], ["X", "O"], 0), "1. X 22 2. X 11");
});
