// The page's store (src/gamelearn/web/static/js/store.js), run by node's own test runner: patches
// merge, each renderer runs once per flush and only for the slices it follows, and a request's
// ticket is current until a later one for the same slice is taken.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createStore, store } from "../../src/gamelearn/web/static/js/store.js";

// A store whose flushes wait in a queue until the test runs them, so "scheduled" is observable.
function manual(initial) {
  const queue = [];
  const made = createStore(initial, (flush) => queue.push(flush));
  return { store: made, queue, runQueued: () => { for (const flush of queue.splice(0)) flush(); } };
}

test("set merges its patch into the state, leaving the other slices as they were", () => {
  const { store: s } = manual({ view: null, busy: false, flipped: false });
  s.set({ busy: true });
  s.set({ flipped: true });
  assert.deepEqual(s.get(), { view: null, busy: true, flipped: true });
});

test("the state is never changed in place: a state read before a set keeps its values", () => {
  const { store: s } = manual({ busy: false });
  const before = s.get();
  s.set({ busy: true });
  assert.equal(before.busy, false);
  assert.equal(s.get().busy, true);
});

test("many patches in one task schedule one flush, and each renderer runs once in it", () => {
  const { store: s, queue, runQueued } = manual({ a: 0, b: 0 });
  const seen = [];
  s.subscribe(["a", "b"], (state) => seen.push([state.a, state.b]));
  s.set({ a: 1 });
  s.set({ b: 2 });
  s.set({ a: 3 });
  assert.equal(queue.length, 1);
  assert.deepEqual(seen, []);  // nothing drawn before the flush
  runQueued();
  assert.deepEqual(seen, [[3, 2]]);  // once, with the latest state
});

test("a renderer runs only when one of its slices changed", () => {
  const { store: s, runQueued } = manual({ view: "v1", busy: false, shows: {} });
  const runs = { board: 0, learners: 0 };
  s.subscribe(["view", "busy"], () => runs.board++);
  s.subscribe(["view", "shows"], () => runs.learners++);
  s.set({ busy: true });
  runQueued();
  assert.deepEqual(runs, { board: 1, learners: 0 });
  s.set({ shows: { menace: "all" } });
  runQueued();
  assert.deepEqual(runs, { board: 1, learners: 1 });
  s.set({ view: "v2" });
  runQueued();
  assert.deepEqual(runs, { board: 2, learners: 2 });
});

test("a patch that changes nothing (the same values, by identity) schedules nothing", () => {
  const decisions = { 0: "box" };
  const { store: s, queue } = manual({ busy: false, decisions });
  let runs = 0;
  s.subscribe(["busy", "decisions"], () => runs++);
  s.set({ busy: false, decisions });
  assert.equal(queue.length, 0);
  s.set({ decisions: { ...decisions } });  // a new object is a change, even with the same contents
  assert.equal(queue.length, 1);
  s.flush();
  assert.equal(runs, 1);
});

test("flush renders at once; the flush scheduled before it then finds nothing to do", () => {
  const { store: s, runQueued } = manual({ a: 0 });
  let runs = 0;
  s.subscribe(["a"], () => runs++);
  s.set({ a: 1 });
  s.flush();
  assert.equal(runs, 1);
  runQueued();
  assert.equal(runs, 1);
});

test("a renderer that sets a slice schedules a second flush, in which its followers run", () => {
  const { store: s, queue, runQueued } = manual({ view: null, autoplay: 7 });
  const labels = [];
  s.subscribe(["view"], (state) => { if (state.view === "over") s.set({ autoplay: null }); });
  s.subscribe(["autoplay"], (state) => labels.push(state.autoplay ? "Pause" : "Play it out"));
  s.set({ view: "over" });
  runQueued();
  assert.deepEqual(labels, []);
  assert.equal(queue.length, 1);
  runQueued();
  assert.deepEqual(labels, ["Play it out"]);
});

test("an unsubscribed renderer runs no more", () => {
  const { store: s } = manual({ a: 0 });
  let runs = 0;
  const stop = s.subscribe(["a"], () => runs++);
  s.set({ a: 1 });
  s.flush();
  stop();
  s.set({ a: 2 });
  s.flush();
  assert.equal(runs, 1);
});

test("a ticket is current until a later ticket for its slice is taken; other slices do not touch it", () => {
  const { store: s } = manual({});
  const first = s.ticket("training");
  const other = s.ticket("analysis");
  assert.equal(first(), true);
  const second = s.ticket("training");
  assert.equal(first(), false);  // the answer it stands for came too late: dropped
  assert.equal(second(), true);
  assert.equal(other(), true);
});

test("the page's store flushes after the current task's synchronous work (a microtask)", async () => {
  const seen = [];
  const stop = store.subscribe(["busy"], (state) => seen.push(state.busy));
  store.set({ busy: true });
  store.set({ busy: false });
  store.set({ busy: true });
  assert.deepEqual(seen, []);
  await Promise.resolve();
  assert.deepEqual(seen, [true]);
  stop();
  store.set({ busy: false });
  await Promise.resolve();
  assert.deepEqual(seen, [true]);
});
