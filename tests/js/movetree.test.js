// The analysis board's move tree (src/gamelearn/web/static/js/movetree.js), run by node's own
// test runner: `node --test tests/js/`.  The oracle is the tree's promise: every node's path is
// the moves played to reach it, variations hang where they left their line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MoveTree, stepKey } from "../../src/gamelearn/web/static/js/movetree.js";

const MAIN = ["4", "0", "8", "2"];

test("the main line is the game's moves, each node's path its moves so far", () => {
  const tree = new MoveTree(MAIN);
  let at = tree.root;
  for (let ply = 0; ply <= MAIN.length; ply++) {
    assert.equal(tree.mainAt(ply), at);
    assert.deepEqual(tree.path(at), MAIN.slice(0, ply));
    assert.ok(tree.isMain(at));
    at = tree.forward(at);
  }
  assert.equal(tree.end(tree.root), tree.mainAt(MAIN.length));
  assert.equal(tree.forward(tree.end(0)), tree.end(0), "the end stays");
  assert.equal(tree.back(tree.root), tree.root, "the start stays");
  assert.equal(tree.mainAt(99), tree.end(0));
});

test("a variation keeps its moves, is not the main line, and leads back to where it left it", () => {
  const tree = new MoveTree(MAIN);
  const branch = tree.mainAt(1);  // after 4: O played 0; try 1 instead
  const tried = tree.add(branch, "1");
  const deeper = tree.add(tried, "7");
  assert.deepEqual(tree.path(deeper), ["4", "1", "7"]);
  assert.ok(!tree.isMain(tried) && !tree.isMain(deeper));
  assert.equal(tree.mainline(deeper), branch);
  assert.equal(tree.back(deeper), tried);
  assert.equal(tree.forward(tried), deeper);
  assert.equal(tree.end(tried), deeper);
  // the same move again is the same node; the main line's own move is the main node
  assert.equal(tree.add(branch, "1"), tried);
  assert.equal(tree.add(branch, "0"), tree.mainAt(2));
  assert.equal(tree.nodes.length, MAIN.length + 3);
  assert.throws(() => tree.node(99), RangeError);
});

test("the move list: the line on, each variation after the move it could replace", () => {
  const tree = new MoveTree(MAIN);
  const tried = tree.add(tree.mainAt(1), "1");
  tree.add(tried, "7");
  const other = tree.add(tree.mainAt(1), "2");
  const nested = tree.add(tree.add(tried, "8"), "0");  // a variation inside the variation
  const line = tree.line();
  assert.deepEqual(line.map((item) => item.move), MAIN);
  assert.deepEqual(line.map((item) => item.ply), [1, 2, 3, 4]);
  const variations = line[1].variations;  // the moves O could have played instead of 0
  assert.deepEqual(variations.map((v) => v.map((item) => item.move)), [["1", "7"], ["2"]]);
  assert.equal(variations[1][0].id, other);
  assert.deepEqual(variations[0][0].variations, []);
  assert.deepEqual(variations[0][1].variations.map((v) => v.map((item) => item.move)), [["8", "0"]]);  // 8 instead of 7
  assert.equal(variations[0][1].variations[0][1].id, nested);
  assert.ok(line.every((item, i) => i === 1 || item.variations.length === 0));
});

test("lichess's keys: ← back, → on, ↑ and Home to the start, ↓ and End to the line's end", () => {
  const tree = new MoveTree(MAIN);
  const branch = tree.mainAt(2);
  const tried = tree.add(branch, "6");
  const deeper = tree.add(tried, "3");
  assert.equal(stepKey(tree, tried, "ArrowLeft"), branch);
  assert.equal(stepKey(tree, tried, "ArrowRight"), deeper);
  assert.equal(stepKey(tree, tried, "End"), deeper, "the variation's own end, not the main line's");
  assert.equal(stepKey(tree, tried, "ArrowDown"), deeper);
  assert.equal(stepKey(tree, tried, "Home"), tree.root);
  assert.equal(stepKey(tree, tried, "ArrowUp"), tree.root);
  assert.equal(stepKey(tree, tree.root, "End"), tree.mainAt(MAIN.length), "from the start: the main line's end");
  assert.equal(stepKey(tree, tree.root, "ArrowLeft"), tree.root, "the start stays");
  assert.equal(stepKey(tree, tried, "a"), null);
  assert.equal(stepKey(tree, tried, "Enter"), null);
});
