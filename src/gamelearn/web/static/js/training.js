// @ts-check
// Train from the page, as mscroggs' MENACE page does: "train against random / perfect / itself for
// N games" runs on the server (POST /api/learners/{kind}/training); the page polls it, moves a
// progress bar, redraws every box the learner can have with its beads as they change, and charts
// the yardstick's grade (the share of the suite's positions where its move keeps the value) over
// the games it trained.  It knows no rule and no learner: every figure comes from the server.
// beyond.js draws the folded panel and loads this module when it is first opened.  Its state is the
// store's slice "train"; an answer for a game or learner no longer shown is dropped (its ticket).
import { $, el, needStyle, playerName, svgEl, svgText } from "./dom.js";
import { api, ApiError } from "./api.js";
import { boxNode } from "./learners.js";
import { refreshChart } from "./chart.js";
import { pct, plural } from "./format.js";
import { store } from "./store.js";

await needStyle("/static/views.css");

const POLL_MS = 400;
const OPPONENT_TEXT = { random: "random", perfect: "perfect", mixed: "mixed (perfect, half its moves random)", self: "itself" };
const OPPONENT_SHORT = { random: "random", perfect: "perfect", mixed: "mixed", self: "itself" };
/** The panel's state: the game and learner it follows, the poll's timer, the latest status. */
const train = () => store.get().train;
const update = (patch) => store.set({ train: { ...train(), ...patch } });
store.set({ train: { view: null, kind: null, side: null, timer: null, status: null, current: () => false } });

// The panel follows the game in play: its first learner, where the server trains that learner.
export async function followGame(view) {
  const panel = view && (view.learners || [])[0];
  const kind = panel ? panel.kind : null;
  // A run belongs to the learner and the game, not to one game played: a new game of the same
  // learner keeps the panel (and a run going on) as it is.
  const before = train();
  if (before.view && view && before.view.game === view.game && kind === before.kind) { update({ view }); return; }
  const current = store.ticket("train");  // a newer game or learner makes older answers moot
  update({ view, kind, side: panel ? panel.side : null, current });
  const root = ensurePanel();
  const trains = kind && (store.get().games[view.game]?.players || []).some((player) => player.name === kind && player.trains);
  if (!trains) { root.hidden = true; return; }  // a learner that trains elsewhere (Teeko's, az): not asked
  let status;
  try {
    status = await api("GET", `/api/learners/${kind}/training?game=${encodeURIComponent(view.game)}`);
  } catch (error) {
    root.hidden = true;  // a learner that trains elsewhere (Teeko's, az): no panel, nothing to say
    return;
  }
  if (!current()) return;
  root.hidden = false;
  draw(status);
  if (status.running) poll(); else loadBoxes();
}

// The panel's body, in the folded panel beyond.js made (#training, its title #training-title).
function ensurePanel() {
  const root = $("training");
  if ($("training-form")) return root;
  $("training-body").append(
    el("form", { id: "training-form", class: "training-form", onsubmit: (event) => { event.preventDefault(); start(); } },
      el("label", {}, "Against ", el("select", { id: "train-opponent" },
        ...Object.entries(OPPONENT_TEXT).map(([value, text]) => el("option", { value, text })))),
      el("label", {}, "for ", el("input", { id: "train-games", type: "number", min: "1", step: "1", value: "100", inputmode: "numeric" }), " games"),
      // Blank: the server draws a seed, and the status line names it, so any run can be replayed.
      el("label", {}, "seed ", el("input", { id: "train-seed", type: "number", min: "0", step: "1", placeholder: "any", inputmode: "numeric" })),
      el("button", { id: "train-start", type: "submit", class: "primary", text: "Train" }),
      el("button", { id: "train-stop", type: "button", hidden: true, text: "Stop", onclick: stop })),
    el("progress", { id: "train-progress", max: "1", value: "0", "aria-label": "training progress" }),
    el("p", { id: "train-status", class: "caption", role: "status" }),
    el("div", { id: "train-chart", class: "train-chart" }),
    el("p", { id: "train-chart-caption", class: "caption" }),
    el("div", { id: "train-runs", class: "train-runs" }),
    el("div", { id: "train-advice", class: "train-advice", hidden: true }),
    el("h3", { id: "train-boxes-title", class: "train-boxes-title" }),
    el("div", { id: "train-boxes", class: "boxes train-boxes", tabindex: "0", role: "region", "aria-labelledby": "train-boxes-title" }));
  return root;
}

// `remedy`: one the learner offers (its options, and/or the opponent to train against).
async function start(remedy = null) {
  const { view, kind, side, status } = train();
  if (!view || !kind) return;
  const games = Number($("train-games").value);
  if (remedy && remedy.opponent) {
    const specs = (status && status.opponent_specs) || {};
    const key = Object.keys(specs).find((name) => specs[name] === remedy.opponent);
    if (key) $("train-opponent").value = key;
  }
  const body = { opponent: $("train-opponent").value, games: Number.isInteger(games) ? games : 0, side };
  if (remedy && remedy.options) body.options = remedy.options;
  // Sent as typed: the server refuses, in one line, a seed that is not a whole number in range.
  const seed = $("train-seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  try {
    draw(await api("POST", `/api/learners/${kind}/training?game=${encodeURIComponent(view.game)}`, body));
    poll();
  } catch (error) {
    const wait = error instanceof ApiError && error.status === 503 ? ` (try again in ${error.retryAfter} s)` : "";
    $("train-status").textContent = `${error.message}${wait}`;
    $("train-status").dataset.state = "refused";
  }
}

async function stop() {
  const { view, kind } = train();
  if (!view || !kind) return;
  try { draw(await api("DELETE", `/api/learners/${kind}/training?game=${encodeURIComponent(view.game)}`)); } catch (error) {
    $("train-status").textContent = error.message;
  }
}

function poll() {
  clearTimeout(train().timer);
  const { view, kind, current } = train();
  update({ timer: setTimeout(async () => {
    if (!current()) return;
    let status;
    try { status = await api("GET", `/api/learners/${kind}/training?game=${encodeURIComponent(view.game)}`); } catch (error) {
      $("train-status").textContent = error.message;
      if (current()) poll();  // a moment's failure: ask again
      return;
    }
    if (!current()) return;
    draw(status);
    await loadBoxes();
    if (status.running) poll();
    else refreshChart(view);  // Gardner's chart counts the games it trained too
  }, POLL_MS) });
}

function draw(status) {
  update({ status });
  const { view, side } = train();
  const name = playerName(status.kind);
  const root = $("training");
  root.dataset.kind = status.kind;
  root.dataset.state = status.running ? "running" : status.error ? "failed" : status.played ? "done" : "idle";
  root.dataset.played = String(status.played);
  $("training-title").textContent = `Train ${name} (${view.symbols[side]})`;
  $("train-games").max = String(status.max_games || 1000);
  $("train-start").disabled = status.running;
  $("train-stop").hidden = !status.running;
  const bar = $("train-progress");
  bar.value = status.games ? status.played / status.games : 0;
  bar.hidden = !status.games;
  const against = status.opponent ? OPPONENT_TEXT[status.opponent] + (status.options ? `, ${status.options}` : "") : "";
  const tally = status.opponent === "self"
    ? `${status.draws} drawn, ${status.wins + status.losses} won by one side`
    : `${status.wins} won, ${status.losses} lost, ${status.draws} drawn`;
  let text = `Train ${name} on the server against a random mover, the perfect player or itself; each game is kept as a game played here.`;
  if (status.games) text = `${status.running ? "Training" : "Trained"} against ${against}: ${status.played} of ${plural(status.games, "game")} (${tally}), seed ${status.seed}.`;
  if (status.games && !status.running && !status.error) text += " Play again to play it as it is now.";
  if (status.error) text = status.error;
  $("train-status").textContent = text;
  $("train-status").dataset.state = root.dataset.state;
  drawGrades(status);
  drawRuns(status);
  drawAdvice(status);
}

// Each run's results, a bar a run (won, drawn, lost): what a remedy changed, side by side.
function drawRuns(status) {
  const runs = (status.runs || []).filter((run) => run.played);
  const root = $("train-runs");
  root.dataset.runs = String(runs.length);
  if (runs.length < 2) { root.replaceChildren(); return; }
  const width = 300, row = 22, left = 150, top = 4;
  const height = top + runs.length * row + 4;
  const label = (run, i) => `${i + 1} · ${OPPONENT_SHORT[run.opponent] || run.opponent}${run.options ? `, ${run.options}` : ""}`;
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": runs.map((run, i) => `run ${label(run, i)}: ${run.wins} won, ${run.draws} drawn, ${run.losses} lost`).join("; ") });
  runs.forEach((run, i) => {
    const y = top + i * row;
    svg.append(svgText(label(run, i), { class: "axis run-label", x: 0, y: y + 13 }));
    let x = left;
    for (const [key, count] of [["won", run.wins], ["drawn", run.draws], ["lost", run.losses]]) {
      const w = (count / run.played) * (width - left - 4);
      if (w > 0) svg.append(svgEl("rect", { class: `run-bar ${key}`, x: x.toFixed(1), y, width: w.toFixed(1), height: row - 6, "data-count": String(count) }));
      x += w;
    }
  });
  root.replaceChildren(el("h3", { text: "Each run: won, drawn, lost" }), svg,
    el("p", { class: "caption", text: runs.map((run, i) => `${i + 1}: ${run.wins} won, ${run.draws} drawn, ${run.losses} lost of ${run.played}`).join(" · ") }));
}

// Why the learner is stuck, in its own words, and the remedies it offers: one click trains with one.
function drawAdvice(status) {
  const root = $("train-advice");
  const advice = !status.running && status.advice;
  root.hidden = !advice;
  if (!advice) { root.replaceChildren(); return; }
  const name = playerName(status.kind);
  const parts = [el("h3", { text: `Why ${name} is stuck` }), el("p", { class: "advice-text", text: advice.text })];
  if (advice.places.length) parts.push(el("p", { class: "caption advice-places", text: `Empty: ${advice.places.map((b) => `box ${b}`).join(", ")}.` }));
  if (advice.remedies.length) {
    parts.push(el("ul", { class: "remedies" }, ...advice.remedies.map((remedy) => el("li", {},
      el("button", { type: "button", class: "remedy", "data-options": remedy.options, "data-opponent": remedy.opponent,
        text: `Train with this: ${remedy.label}`, onclick: () => start(remedy) }),
      el("span", { class: "caption", text: ` ${remedy.text}.` })))));
  }
  root.replaceChildren(...parts);
}

// The yardstick's grade over the games trained: keeps (the headline), best and blunders.
function drawGrades(status) {
  const points = status.points || [];
  const chart = $("train-chart");
  chart.dataset.points = String(points.length);
  if (!points.length) { chart.replaceChildren(); $("train-chart-caption").textContent = ""; return; }
  const width = 300, height = 150, pad = 30;
  const last = points[points.length - 1];
  const first = points[0];
  const span = Math.max(1, last.games - first.games);
  const x = (g) => pad + ((g - first.games) / span) * (width - pad - 10);
  const y = (share) => height - 20 - share * (height - 34);
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `grade over the games trained: keeps the value in ${pct(first.keeps)} at first, ${pct(last.keeps)} now` });
  for (const share of [0, 0.5, 1]) {
    svg.append(svgEl("line", { class: "grid", x1: pad, x2: width - 10, y1: y(share), y2: y(share) }));
    svg.append(svgText(`${share * 100}%`, { class: "axis", x: 2, y: y(share) + 4 }));
  }
  svg.append(svgText(`games trained: ${last.games}`, { class: "axis", x: width - 110, y: height - 4 }));
  // Where each run after the first began (a remedy's effect starts there).
  points.forEach((p, i) => {
    if (i === 0 || p.run === points[i - 1].run) return;
    const at = x(points[i - 1].games).toFixed(1);
    svg.append(svgEl("line", { class: "run-start", x1: at, x2: at, y1: y(1), y2: y(0) }));
    svg.append(svgText(`run ${p.run + 1}`, { class: "axis", x: Number(at) + 2, y: y(1) + 10 }));
  });
  const series = [["keeps", "keeps"], ["best", "best"], ["blunders", "blunders"]];
  series.forEach(([key, label], i) => {
    const line = points.map((p) => `${x(p.games).toFixed(1)},${y(p[key]).toFixed(1)}`).join(" ");
    svg.append(svgEl("polyline", { class: `series ${key}`, points: line, "data-series": key }));
    for (const p of points) svg.append(svgEl("circle", { class: `series-dot ${key}`, cx: x(p.games).toFixed(1), cy: y(p[key]).toFixed(1), r: 2.5 }));
    svg.append(svgText(`${label} ${pct(last[key])}`, { class: `legend-text ${key}`, x: pad + 6 + i * 86, y: 12 }));
  });
  chart.replaceChildren(svg);
  $("train-chart-caption").textContent = `Graded as gamelearn grade grades it: a frozen, greedy copy chooses a move in each position of ${status.suite || "the suite"}`
    + `; its move keeps the value in ${pct(last.keeps)} of them (${pct(first.keeps)} before), is best in ${pct(last.best)}, throws the game in ${pct(last.blunders)}.`;
}

// Every box it can have, with its beads as the store keeps them (a box not met yet: as it will open).
async function loadBoxes() {
  const { view, kind, side, current } = train();
  const list = $("train-boxes");
  let data;
  try { data = await api("GET", `/api/learners/${kind}/every-box?game=${encodeURIComponent(view.game)}&side=${side}`); } catch (error) {
    list.replaceChildren();
    $("train-boxes-title").textContent = "";
    return;
  }
  if (!current()) return;
  $("train-boxes-title").textContent = `Every box: ${plural(data.total, "box", "boxes")}, ${data.opened} opened so far`;
  list.dataset.total = String(data.total);
  list.dataset.opened = String(data.opened);
  // Only the boxes whose beads changed are drawn again (MENACE has 304).
  const known = new Map([...list.children].map((node) => [node.dataset.box, node]));
  const nodes = data.boxes.map((box) => {
    const key = JSON.stringify(box.beads) + box.opened;
    const old = known.get(box.board);
    if (old && old.dataset.key === key) return old;
    const node = boxNode(view, box, null, new Set());
    node.dataset.key = key;
    if (!box.opened) node.classList.add("unopened");
    else if (old) node.classList.add("changed-now");
    return node;
  });
  if (nodes.some((node, i) => list.children[i] !== node) || nodes.length !== list.children.length) list.replaceChildren(...nodes);
}

