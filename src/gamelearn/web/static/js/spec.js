// @ts-check
// Game specs ("teeko:goals=advanced,drops=aaaa"), read and worded for the page: the form of a game
// (Teeko's forms of Scarne's book) in a few words, and the players a form gets.  Which values are
// legal is the server's say (/api/games' `options`); this only reads what a spec says.

/**
 * A game's option as /api/games lists it.
 * @typedef {{name: string, default: string, values: string[], labels?: Record<string, string>, help?: string}} GameOption
 * @typedef {{options?: GameOption[], defaults: string[], form_defaults?: string[]}} GameInfo
 */

// The one spec grammar, as gamelearn.games.specs reads it: NAME[:KEY=VALUE,...], where a piece
// with no "=" after an option continues that option's value (a value may hold a comma), and a
// value may hold "=".  Both readers are checked against one table, tests/data/spec_grammar.json.
// "ntuple:name=t,memory=a,b.m" -> {name: "ntuple", options: [["name", "t"], ["memory", "a,b.m"]]}
/** @param {unknown} spec @returns {{name: string, options: Array<[string, string | null]>}} */
export function splitSpec(spec) {
  const text = String(spec || "").trim();
  const colon = text.indexOf(":");
  const name = (colon < 0 ? text : text.slice(0, colon)).trim();
  const rest = colon < 0 ? "" : text.slice(colon + 1);
  /** @type {Array<[string, string | null]>} */
  const options = [];
  if (!rest.trim()) return { name, options };
  for (const piece of rest.split(",")) {
    const eq = piece.indexOf("=");
    const last = options[options.length - 1];
    if (eq < 0 && last && last[1] !== null) {
      last[1] = `${last[1]},${piece}`;
      continue;
    }
    options.push(eq < 0 ? [piece.trim(), null] : [piece.slice(0, eq).trim(), piece.slice(eq + 1)]);
  }
  return { name, options: options.map(([key, value]) => /** @type {[string, string | null]} */ ([key, value === null ? null : value.trim()])) };
}

// "teeko:goals=advanced,drops=aaaa" -> {name: "teeko", given: {goals: "advanced", drops: "aaaa"}}
/** @param {unknown} spec @returns {{name: string, given: Record<string, string>}} */
export function parseSpec(spec) {
  const { name, options } = splitSpec(spec);
  /** @type {Record<string, string>} */
  const given = {};
  for (const [key, value] of options) if (key) given[key] = value ?? "";
  return { name, given };
}

// The options of a spec that differ from their defaults, in the game's order: [option, value].
/** @param {string} spec @param {GameOption[] | undefined} options @returns {Array<[GameOption, string]>} */
export function differences(spec, options) {
  const { given } = parseSpec(spec);
  return (options || []).filter((o) => o.name in given && given[o.name] !== o.default).map((o) => /** @type {[GameOption, string]} */ ([o, given[o.name]]));
}

// The form in a few words: "advanced goals, alternate drops, centre off, knight steps".
/** @param {string} spec @param {GameOption[] | undefined} options */
export function formWords(spec, options) {
  return differences(spec, options).map(([option, value]) => {
    if (option.values.includes("on") && option.values.includes("off")) return `${option.name} ${value}`;
    const label = (option.labels || {})[value] || value;
    return `${label} ${option.name}`;
  }).join(", ");
}

// "teeko · advanced goals, alternate drops" (or the bare name for a game's standard form).
/** @param {string} name @param {string} spec @param {GameOption[] | undefined} options */
export function formTitle(name, spec, options) {
  const words = formWords(spec, options);
  return words ? `${name} · ${words}` : name;
}

// The players for a form of a game: a form other than the game's own gets the players the server
// offers first for forms (the thesis plays Standard Teeko only), and back again, unless the
// person chose others (`specs`, as they stand).
/** @param {GameInfo | undefined} info @param {string} spec @param {string[]} specs @returns {string[]} */
export function playersForForm(info, spec, specs) {
  if (!info || !info.form_defaults) return specs;
  const other = differences(spec, info.options).length > 0;
  const [from, to] = other ? [info.defaults, info.form_defaults] : [info.form_defaults, info.defaults];
  return specs[0] === from[0] && specs[1] === from[1] ? [...to] : specs;
}
