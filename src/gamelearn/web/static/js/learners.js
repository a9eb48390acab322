// @ts-check
// The learners at the table: HER's, HIM's and MENACE's matchboxes with their beads, the thesis
// memory's recall for its last move, what each learned from the game, Export and Reset.  The
// thesis memory's views are in memory.js, loaded when a thesis panel is first drawn.
import { $, el, playerName, say, svgEl, svgText } from "./dom.js";
import { api, problem } from "./api.js";
import { refreshChart } from "./chart.js";
import { beadsText, plural } from "./format.js";
import { store } from "./store.js";

const BEAD_COLOURS = ["#e76f51", "#2a9d8f", "#e9c46a", "#264653", "#8e44ad", "#f4a261", "#3a86ff", "#6a994e", "#b5179e"];
// The label on each bead: dark ink on the light beads, white on the dark (4.5:1 or more on each).
const BEAD_INK = ["#1d232b", "#1d232b", "#1d232b", "#fff", "#fff", "#1d232b", "#1d232b", "#1d232b", "#fff"];
const SHOWS = [["opened", "opened in this game"], ["emptied", "emptied"], ["all", "all"]];

store.subscribe(["view", "decisions", "shows", "back"], drawLearners);  // back: what failed while the server was away

function drawLearners({ view }) {
  if (!view) { $("learners").replaceChildren(); return; }
  const panels = (view.learners || []).map(drawLearner);
  const heading = el("h2", { text: "Learners" });
  if (!panels.length) panels.push(el("p", { class: "caption", text: view.no_learner }));
  $("learners").replaceChildren(heading, ...panels);
}

function drawLearner(panel) {
  const { view, decisions } = store.get();
  const root = el("div", { class: "learner", "data-kind": panel.kind, "data-side": String(panel.side) });
  root.append(el("h3", { text: `${playerName(panel.kind)} (${view.symbols[panel.side]})` }));
  if (panel.error || panel.available === false) {
    root.append(el("p", { class: "unavailable", text: panel.error || panel.reason }));
    return root;
  }
  const actions = el("div", { class: "actions" },
    el("a", { href: `/api/learners/${panel.kind}/export?game=${view.game}`, download: "", text: panel.export_label }),
    el("button", { type: "button", class: "reset", text: "Reset", onclick: () => resetLearner(panel.kind) }));
  root.append(actions);
  const learned = (view.learning || []).filter((l) => l.side === panel.side);
  const changedBoxes = new Set();
  for (const lesson of learned) {
    for (const change of lesson.changes) {
      changedBoxes.add(change.box);
      const parts = [];
      if (change.removed.length) parts.push(`${beadsText(change.removed)} taken out of box ${change.box}`);
      if (change.added.length) parts.push(`${beadsText(change.added)} added to box ${change.box}`);
      if (change.text) parts.push(change.text);
      // Red only for a lesson from a game the learner lost.
      const lost = lesson.lost === undefined ? view.over && view.winner !== null && view.winner !== panel.side : lesson.lost;
      root.append(el("p", { class: lost ? "learned lost" : "learned", text: `After this game: ${parts.join("; ")}.` }));
    }
    if (view.over && !lesson.changes.length) {
      const why = panel.learns_when ? ` (${panel.learns_when})` : "";
      root.append(el("p", { class: "learned", text: `After this game: nothing changed${why}.` }));
    }
  }
  if (panel.advice) {  // why it is stuck, in its own words (its empty boxes), and what would help
    const remedies = panel.advice.remedies.map((r) => r.label).join("; ");
    root.append(el("p", { class: "advice", text: panel.advice.text + (remedies ? ` What helps (under “Train ${playerName(panel.kind)}”): ${remedies}.` : "") }));
  }
  if (panel.boxes) drawBoxes(root, panel, changedBoxes);
  if (panel.recall !== undefined || panel.memory_entries !== undefined) {
    const slot = el("div", { class: "memory-views" });  // keeps its place while memory.js loads
    root.append(slot);
    import("./memory.js").then((memory) => memory.drawMemory(slot, panel, view, decisions[panel.side]));
  }
  return root;
}

function drawBoxes(root, panel, changedBoxes) {
  const { decisions, shows } = store.get();
  const decision = decisions[panel.side] || null;
  root.append(el("p", { class: "summary", text: `${plural(panel.boxes_total, "box", "boxes")}, ${plural(panel.beads_total, "bead")} in them.` }));
  if (decision && decision.box) {
    const text = decision.resigned ? `It opened box ${decision.box}: empty, so it gave up.` : `It opened box ${decision.box}${decision.mirrored ? " (the board turned or mirrored)" : ""} and drew bead ${decision.bead}.`;
    root.append(el("p", { class: "summary decision", text }));
  }
  // Every box, browsable: those opened in this game, the emptied ones, or all of them.
  const show = shows[panel.kind] || (panel.kind === "menace" ? "opened" : "all");
  const list = el("div", { class: "boxes", "data-show": show, "aria-live": "polite" });
  const filters = el("div", { class: "filters", role: "group", "aria-label": "which boxes to show" },
    ...SHOWS.map(([key, label]) => el("button", {
      type: "button", "data-show": key, "aria-pressed": key === show ? "true" : "false", text: label,
      onclick: () => store.set({ shows: { ...store.get().shows, [panel.kind]: key } }),
    })));
  root.append(filters, list);
  loadBoxes(panel, list, show, 0, changedBoxes, decision);
  if (panel.kind === "menace") {
    const chart = el("div", { class: "first-box" });
    root.append(chart);
    loadFirstBox(panel, chart);
  }
}

async function loadBoxes(panel, list, show, offset, changedBoxes, decision) {
  const { view } = store.get();
  const query = `game=${encodeURIComponent(view.game)}&show=${show}&offset=${offset}&game_id=${encodeURIComponent(view.id)}`;
  let data;
  try { data = await api("GET", `/api/learners/${panel.kind}/boxes?${query}`); } catch (error) {
    list.replaceChildren(el("p", { class: "unavailable", text: problem(error) || "The boxes show again once the server is back." }));
    return;
  }
  if (!list.isConnected) return;  // the panel was drawn again meanwhile
  if (offset === 0) list.replaceChildren();
  list.querySelector(".more")?.remove();
  list.dataset.total = String(data.total);
  for (const box of data.boxes) list.append(boxNode(view, box, decision, changedBoxes));
  const shown = data.offset + data.boxes.length;
  if (shown < data.total) {
    list.append(el("button", { type: "button", class: "more", text: `Show ${Math.min(60, data.total - shown)} more of ${data.total - shown}`, onclick: () => loadBoxes(panel, list, show, shown, changedBoxes, decision) }));
  }
  if (!data.total) {
    const none = { opened: "It has opened no box in this game yet.", emptied: "No box is empty.", all: "No box yet: it makes each one the first time it meets the position." }[show];
    list.append(el("p", { class: "caption", text: none }));
  }
}

export function boxNode(view, box, decision, changedBoxes) {
  const classes = ["box"];
  if (decision && decision.box === box.board) classes.push("opened");
  if (changedBoxes.has(box.board)) classes.push("changed");
  if (box.count === 0) classes.push("emptied");
  const node = el("div", { class: classes.join(" "), "data-box": box.board, "data-count": String(box.count) });
  node.append(boxPicture(view, box));
  const beads = el("div", { class: "beads" });
  box.beads.forEach(([move, count], i) => {
    const colour = BEAD_COLOURS[i % BEAD_COLOURS.length];
    if (count === 0) {
      beads.append(el("span", { class: "bead empty", "data-move": move, title: `no bead left for ${move}`, text: move }));
      return;
    }
    const drawn = decision && decision.box === box.board && decision.bead === move;
    const label = count > 1 ? `${move}×${count}` : move;
    const bead = el("span", { class: `bead${drawn ? " drawn" : ""}`, "data-move": move, "data-count": String(count), text: label });
    bead.style.background = colour;
    bead.style.color = BEAD_INK[i % BEAD_INK.length];
    beads.append(bead);
  });
  node.append(beads);
  return node;
}

// MENACE's first box over its games: the beads of each of its moves after each game, as on
// mscroggs' MENACE page.  One box, chosen once (the server's `box`), charted from the game after
// which it exists (`from_game`): before that there is no box, and no point is drawn.
async function loadFirstBox(panel, chart) {
  const { view } = store.get();
  let data;
  try { data = await api("GET", `/api/learners/${panel.kind}/first-box?game=${encodeURIComponent(view.game)}`); } catch (error) {
    chart.replaceChildren(el("p", { class: "unavailable", text: problem(error) }));
    return;
  }
  const who = playerName(panel.kind);
  chart.dataset.games = String(data.games);
  chart.dataset.box = data.box;
  if (data.from_game === null || data.from_game === undefined) {
    chart.dataset.from = "";
    chart.replaceChildren(el("h4", { text: `${who}'s first box` }),
      el("p", { class: "caption", text: `No box yet: ${who} makes its first box the first time it moves, and it is charted from then on.` }));
    return;
  }
  chart.dataset.from = String(data.from_game);
  const width = 300, height = 150, pad = 26;
  const points = data.series.map((point, game) => [game, point]).filter(([, point]) => point !== null);
  const top = Math.max(1, ...points.map(([, point]) => Math.max(0, ...Object.values(point))));
  const first = data.from_game, span = Math.max(1, data.games - first);
  const x = (game) => pad + ((game - first) / span) * (width - pad - 8);
  const y = (v) => height - pad - (v / top) * (height - pad - 12);
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `beads in ${who}'s first box after games ${first} to ${data.games}` });
  svg.append(svgEl("line", { x1: pad, y1: height - pad, x2: width - 8, y2: height - pad, stroke: "#767676" }));
  svg.append(svgEl("line", { x1: pad, y1: 8, x2: pad, y2: height - pad, stroke: "#767676" }));
  const label = (text, attrs) => svg.append(svgText(text, Object.assign({ "font-size": 10, fill: "#4a4a4a" }, attrs)));
  label("0", { x: pad - 10, y: height - pad + 4 });
  label(String(top), { x: 2, y: 14 });
  label(`game ${first}`, { x: pad, y: height - 8, "data-end": "first" });
  if (data.games !== first) label(`game ${data.games}`, { x: width - 60, y: height - 8, "data-end": "last" });
  data.moves.forEach((move, i) => {
    const line = points.map(([game, point]) => `${x(game).toFixed(1)},${y(point[move] || 0).toFixed(1)}`).join(" ");
    svg.append(svgEl("polyline", { points: line, fill: "none", stroke: BEAD_COLOURS[i % BEAD_COLOURS.length], "stroke-width": 2, "data-move": move }));
    if (points.length === 1) {  // one game so far: a line of one point draws nothing, so a dot
      const [game, point] = points[0];
      svg.append(svgEl("circle", { cx: x(game), cy: y(point[move] || 0), r: 3.5, fill: BEAD_COLOURS[i % BEAD_COLOURS.length] }));
    }
  });
  const latest = points[points.length - 1][1];
  const legend = el("div", { class: "legend" }, ...data.moves.map((move, i) => {
    const swatch = el("span", { class: "swatch" });
    swatch.style.background = BEAD_COLOURS[i % BEAD_COLOURS.length];
    return el("span", { class: "legend-item", "data-move": move }, swatch, `${move}: ${latest[move] || 0}`);
  }));
  const since = first === data.games ? `after game ${first}` : `from game ${first} to game ${data.games}`;
  const which = data.empty_board
    ? `The box for the empty board, ${since}: the beads of each opening move after each game.`
    : `It plays second here, so it never meets the empty board: this is the box it opened first in its first game, ${data.box} (opened first in ${data.opened_first} of its ${plural(data.games, "game")}), ${since}.`;
  chart.replaceChildren(
    el("h4", { text: `${who}'s first box, ${data.box}, over ${plural(data.games, "game")}` }),
    el("p", { class: "caption", text: which }),
    svg, legend);
}

function boxPicture(view, box) {
  // A box's position, with an arrow for each move (hexapawn, as Gardner drew them) or its bead
  // count on the square (tic-tac-toe); a move whose beads are all gone is a faint dashed arrow.
  const size = 98, n = view.columns, cell = size / n;
  const svg = svgEl("svg", { viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": `box ${box.board}` });
  const centre = (sq) => [(sq % n) * cell + cell / 2, Math.floor(sq / n) * cell + cell / 2];
  for (let sq = 0; sq < box.board.length; sq++) {
    const [x, y] = centre(sq);
    svg.append(svgEl("rect", { x: x - cell / 2 + 0.5, y: y - cell / 2 + 0.5, width: cell - 1, height: cell - 1, fill: (sq + Math.floor(sq / n)) % 2 ? "#e2d8bf" : "#efe8d6" }));
    const mark = box.board[sq];
    if (mark === "W" || mark === "B") svg.append(svgEl("circle", { cx: x, cy: y, r: cell * 0.28, fill: mark === "W" ? "#fff" : "#333", stroke: "#333", "stroke-width": 2 }));
    else if (mark === "X" || mark === "O") {
      svg.append(svgText(mark, { x, y: y + cell * 0.2, "text-anchor": "middle", "font-size": cell * 0.6, "font-weight": 700, fill: mark === "X" ? "#22313f" : "#c1272d" }));
    }
  }
  box.beads.forEach(([move, count], i) => {
    const colour = BEAD_COLOURS[i % BEAD_COLOURS.length];
    const squares = moveSquares(view, move);
    if (squares.length === 2) {
      const [x1, y1] = centre(squares[0]), [x2, y2] = centre(squares[1]);
      const line = svgEl("line", { x1, y1, x2: x1 + (x2 - x1) * 0.8, y2: y1 + (y2 - y1) * 0.8, stroke: colour, "stroke-width": 4, "stroke-linecap": "round" });
      if (count === 0) { line.setAttribute("stroke-dasharray", "4 4"); line.setAttribute("opacity", "0.35"); }
      svg.append(line);
      svg.append(svgEl("circle", { cx: x1 + (x2 - x1) * 0.8, cy: y1 + (y2 - y1) * 0.8, r: 4, fill: count === 0 ? "none" : colour, stroke: colour, opacity: count === 0 ? 0.35 : 1 }));
    } else if (squares.length === 1) {
      const [x, y] = centre(squares[0]);
      svg.append(svgEl("circle", { cx: x, cy: y, r: cell * 0.3, fill: count === 0 ? "none" : colour, stroke: colour, "stroke-width": 2, "stroke-dasharray": count === 0 ? "3 3" : "" }));
      svg.append(svgText(String(count), { x, y: y + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 600, fill: count === 0 ? "#595959" : BEAD_INK[i % BEAD_INK.length] }));
    }
  });
  return svg;
}

function moveSquares(view, move) {
  const width = view.square_names[0].length, found = [];
  for (let i = 0; i < move.length; i += width) {
    const sq = view.square_names.indexOf(move.slice(i, i + width));
    if (sq >= 0) found.push(sq);
  }
  return found;
}

async function resetLearner(kind) {
  const { view } = store.get();
  if (!confirm(`Forget everything ${kind} learned in this browser?`)) return;
  try {
    await api("POST", `/api/learners/${kind}/reset?game=${view.game}`);
    say(`${playerName(kind)} starts again from nothing at the next game.`, "info");
    // The panel empties at once: what it showed was the memory just forgotten.
    for (const node of document.querySelectorAll(`.learner[data-kind="${kind}"]`)) {
      node.replaceChildren(el("h3", { text: playerName(kind) }), el("p", { class: "caption reset-note", text: "Forgotten: it starts again from nothing at the next game." }));
    }
    refreshChart(view);
  } catch (error) {
    say(problem(error));
  }
}

