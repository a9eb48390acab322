// Reading and wording game specs (src/gamelearn/web/static/js/spec.js), run by node's own test
// runner.  The options are Teeko's as /api/games lists them (goals, drops, centre, steps).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { differences, formTitle, formWords, parseSpec, playersForForm, splitSpec } from "../../src/gamelearn/web/static/js/spec.js";

// The grammar's table, the same file tests/games/test_specs.py checks gamelearn.games.specs against.
const GRAMMAR = JSON.parse(readFileSync(new URL("../data/spec_grammar.json", import.meta.url), "utf8"));

test("the spec grammar reads every case of the table shared with the Python reader", () => {
  for (const { spec, name, options } of GRAMMAR.cases) {
    assert.deepEqual(splitSpec(spec), { name, options }, spec);
  }
});

const OPTIONS = [
  { name: "goals", default: "standard", values: ["standard", "advanced"] },
  { name: "drops", default: "ssss", values: ["ssss", "aaaa"], labels: { aaaa: "alternate", ssss: "standard" } },
  { name: "centre", default: "on", values: ["on", "off"] },
  { name: "steps", default: "king", values: ["king", "knight"] },
];

test("a spec's name and its options, a value holding '=' kept whole", () => {
  assert.deepEqual(parseSpec("teeko"), { name: "teeko", given: {} });
  assert.deepEqual(parseSpec(" teeko:goals=advanced, drops=aaaa "), { name: "teeko", given: { goals: "advanced", drops: "aaaa" } });
  assert.deepEqual(parseSpec("x:a=b=c"), { name: "x", given: { a: "b=c" } });
  assert.deepEqual(parseSpec(null), { name: "", given: {} });
});

test("only the options that differ from their defaults, in the game's order", () => {
  const found = differences("teeko:steps=knight,goals=standard,centre=off", OPTIONS);
  assert.deepEqual(found.map(([option, value]) => [option.name, value]), [["centre", "off"], ["steps", "knight"]]);
  assert.deepEqual(differences("teeko:goals=advanced", undefined), []);
});

test("a form in a few words, and its title", () => {
  assert.equal(formWords("teeko:goals=advanced,drops=aaaa,centre=off,steps=knight", OPTIONS),
    "advanced goals, alternate drops, centre off, knight steps");
  assert.equal(formTitle("teeko", "teeko", OPTIONS), "teeko");
  assert.equal(formTitle("teeko", "teeko:drops=aaaa", OPTIONS), "teeko · alternate drops");
});

test("a form other than the game's own gets the form players, unless the person chose others", () => {
  const info = { options: OPTIONS, defaults: ["human", "thesis"], form_defaults: ["human", "alphabeta"] };
  assert.deepEqual(playersForForm(info, "teeko:goals=advanced", ["human", "thesis"]), ["human", "alphabeta"]);
  assert.deepEqual(playersForForm(info, "teeko", ["human", "alphabeta"]), ["human", "thesis"]);
  assert.deepEqual(playersForForm(info, "teeko:goals=advanced", ["random", "perfect"]), ["random", "perfect"]);
  assert.deepEqual(playersForForm(undefined, "teeko", ["a", "b"]), ["a", "b"]);
});
