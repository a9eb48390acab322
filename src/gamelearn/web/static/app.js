// gamelearn's page: vanilla JS, no library, nothing from the internet.
// It knows no rule: the server sends the legal moves, and a click becomes a move in the game's
// notation (a square's name, or two: from and to) that the server checks and plays.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const BEAD_COLOURS = ["#e76f51", "#2a9d8f", "#e9c46a", "#264653", "#8e44ad", "#f4a261", "#3a86ff", "#6a994e", "#b5179e"];

const page = {
  games: {},        // name -> info from /api/games
  view: null,       // the game in progress, as the server last described it
  selected: null,   // the square of the pawn picked for a step
  analysis: null,   // the perfect player's values for the position on the board
  timer: null,      // autoplay of computer-against-computer games
  decisions: {},    // side -> the learner's last decision (box and bead, recall)
};

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!response.ok) {
    const detail = data && data.detail ? data.detail : `${response.status} ${response.statusText}`;
    throw new Error(detail);
  }
  return data;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  return node;
}

function say(text, kind) {
  const box = $("message");
  box.textContent = text || "";
  box.className = kind || "";
}

// Setup ------------------------------------------------------------------------------------------

async function init() {
  const games = await api("GET", "/api/games");
  const select = $("game-select");
  for (const info of games) {
    page.games[info.name] = info;
    select.append(el("option", { value: info.name, text: info.name }));
  }
  select.addEventListener("change", () => chooseGame(select.value));
  $("new-game").addEventListener("click", newGame);
  $("analysis-toggle").addEventListener("change", refreshAnalysis);
  $("step").addEventListener("click", computerMove);
  $("autoplay").addEventListener("click", toggleAutoplay);
  const wanted = new URLSearchParams(location.search).get("game");
  chooseGame(wanted && page.games[wanted] ? wanted : games[0].name);
}

function chooseGame(name) {
  const info = page.games[name];
  $("game-select").value = name;
  $("first-player").value = info.defaults[0];
  $("second-player").value = info.defaults[1];
  $("first-label").textContent = `First (${info.symbols[0]})`;
  $("second-label").textContent = `Second (${info.symbols[1]})`;
  const list = $("player-specs");
  list.replaceChildren(...info.players.map((p) => el("option", { value: p.name, text: p.summary })));
}

async function newGame() {
  stopAutoplay();
  const seedText = $("seed").value.trim();
  const body = {
    game: $("game-select").value,
    players: [$("first-player").value.trim(), $("second-player").value.trim()],
  };
  if (seedText !== "") body.seed = Number(seedText);
  try {
    const view = await api("POST", "/api/games", body);
    page.decisions = {};
    say("");
    show(view);
    refreshChart();
  } catch (error) {
    say(error.message);
  }
}

// Playing ----------------------------------------------------------------------------------------

function squareWidth(view) { return view.square_names[0].length; }

function isPlacement(view) {
  return view.legal_moves.length > 0 && view.legal_moves.every((m) => m.length === squareWidth(view));
}

async function clickSquare(square) {
  const view = page.view;
  if (!view) return;
  if (view.over) { say("The game is over: start a new one."); return; }
  if (!view.human_to_move) { say("Wait: it is the computer's turn."); return; }
  const name = view.square_names[square];
  if (isPlacement(view)) { await sendMove(name); return; }
  const movable = (sq) => view.legal_moves.some((m) => m.startsWith(view.square_names[sq]));
  if (page.selected === null || page.selected === square) {
    if (page.selected === square) { page.selected = null; drawBoard(); return; }
    if (!movable(square)) {
      say(`Pick one of your pawns that can move (${view.symbols[view.to_move]}).`);
      return;
    }
    page.selected = square;
    say("");
    drawBoard();
    return;
  }
  if (movable(square) && !view.legal_moves.includes(view.square_names[page.selected] + name)) {
    page.selected = square;  // another of one's own pawns: pick it instead
    drawBoard();
    return;
  }
  const move = view.square_names[page.selected] + name;
  await sendMove(move);
}

async function sendMove(move) {
  const view = page.view;
  try {
    const next = await api("POST", `/api/games/${view.id}/move`, { move });
    page.selected = null;
    say("");
    show(next);
  } catch (error) {
    page.selected = null;
    drawBoard();
    say(error.message);  // the game's own words: the move and why it is illegal
  }
}

async function computerMove() {
  const view = page.view;
  if (!view || view.over) { stopAutoplay(); return; }
  try {
    show(await api("POST", `/api/games/${view.id}/advance`));
  } catch (error) {
    stopAutoplay();
    say(error.message);
  }
}

function toggleAutoplay() {
  if (page.timer) { stopAutoplay(); return; }
  $("autoplay").textContent = "Pause";
  page.timer = setInterval(computerMove, 350);
}

function stopAutoplay() {
  if (page.timer) clearInterval(page.timer);
  page.timer = null;
  $("autoplay").textContent = "Play it out";
}

function show(view) {
  const wasOver = page.view && page.view.id === view.id && page.view.over;
  page.view = view;
  page.selected = null;
  page.analysis = null;
  for (const event of view.events || []) {
    if (event.decision) page.decisions[event.side] = event.decision;
  }
  const computerEvents = (view.events || []).filter((e) => !e.human);
  if (computerEvents.length) {
    const last = computerEvents[computerEvents.length - 1];
    const text = last.move ? `${view.symbols[last.side]} (${last.by}) played ${last.move}.` : `${view.symbols[last.side]} (${last.by}) resigned: its box is empty.`;
    say(text, "info");
  }
  $("status").textContent = view.result;
  $("status").dataset.over = view.over ? "yes" : "no";
  const computers = !view.humans[0] && !view.humans[1];
  $("step").hidden = !computers || view.over;
  $("autoplay").hidden = !computers || view.over;
  if (view.over) stopAutoplay();
  drawBoard();
  drawMoves();
  drawLearners();
  refreshAnalysis();
  if (view.over && !wasOver) refreshChart();
}

function drawBoard() {
  const view = page.view;
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${view.columns}, 1fr)`;
  board.dataset.game = view.game;
  board.dataset.id = view.id;
  board.dataset.plies = String(view.moves.length);
  board.dataset.over = view.over ? "yes" : "no";
  const cells = [];
  for (let sq = 0; sq < view.board.length; sq++) {
    const mark = view.board[sq];
    const row = Math.floor(sq / view.columns), col = sq % view.columns;
    const classes = ["square"];
    if ((row + col) % 2) classes.push("dark");
    if (view.last_squares.includes(sq)) classes.push("last");
    if (page.selected === sq) classes.push("selected");
    const button = el("button", {
      class: classes.join(" "), type: "button", "data-square": String(sq), "data-name": view.square_names[sq],
      "data-mark": mark, "aria-label": `square ${view.square_names[sq]}: ${mark === "." ? "empty" : mark}`,
      onclick: () => clickSquare(sq),
    });
    button.append(el("span", { class: "name", text: view.square_names[sq] }));
    if (mark !== ".") {
      if (view.game === "tictactoe") button.append(el("span", { class: `piece-${mark}`, text: mark }));
      else button.append(el("span", { class: `pawn pawn-${mark}` }));
    }
    const value = analysisValue(sq);
    if (value !== null) button.append(el("span", { class: `value ${valueClass(value)}`, text: valueText(value) }));
    cells.push(button);
  }
  board.replaceChildren(...cells);
}

function drawMoves() {
  const view = page.view;
  $("moves").replaceChildren(...view.moves.map((m, i) => el("li", { text: `${view.symbols[i % 2]} ${m}` })));
}

// Analysis: the perfect player's value of each move ---------------------------------------------

async function refreshAnalysis() {
  const view = page.view;
  const panel = $("analysis");
  const on = $("analysis-toggle").checked;
  panel.hidden = !on;
  if (!on || !view) { page.analysis = null; if (view) drawBoard(); return; }
  if (view.over) { panel.replaceChildren(el("span", { class: "unavailable", text: "The game is over." })); return; }
  try {
    const analysis = await api("GET", `/api/games/${view.id}/analysis`);
    if (page.view !== view) return;
    page.analysis = analysis;
    if (!analysis.available) {
      panel.replaceChildren(el("span", { class: "unavailable", text: analysis.reason }));
      return;
    }
    const items = Object.entries(analysis.moves).map(([move, entry]) =>
      el("span", { class: `mv value ${valueClass(entry.value)}`, "data-move": move, text: `${move} ${valueText(entry.value)}` }));
    panel.replaceChildren(el("div", { text: "Perfect play, for the side to move (+ win, = draw, − loss):" }), ...items);
    drawBoard();
  } catch (error) {
    panel.replaceChildren(el("span", { class: "unavailable", text: error.message }));
  }
}

function analysisValue(square) {
  const analysis = page.analysis, view = page.view;
  if (!analysis || !analysis.available || !view) return null;
  const name = view.square_names[square];
  if (isPlacement(view)) return analysis.moves[name] ? analysis.moves[name].value : null;
  if (page.selected === null) return null;
  const entry = analysis.moves[view.square_names[page.selected] + name];
  return entry ? entry.value : null;
}

function valueClass(v) { return v > 0 ? "win" : v < 0 ? "loss" : "draw"; }
function valueText(v) { return v > 0 ? "+" : v < 0 ? "−" : "="; }

// Learners ---------------------------------------------------------------------------------------

function drawLearners() {
  const view = page.view;
  const panels = (view.learners || []).map(drawLearner);
  const heading = el("h2", { text: "Learners" });
  if (!panels.length) panels.push(el("p", { class: "caption", text: "No learner at this table: seat her or him (hexapawn), menace (tic-tac-toe) or thesis (Teeko) to watch one learn." }));
  $("learners").replaceChildren(heading, ...panels);
}

function drawLearner(panel) {
  const view = page.view;
  const root = el("div", { class: "learner", "data-kind": panel.kind, "data-side": String(panel.side) });
  root.append(el("h3", { text: `${panel.kind} (${view.symbols[panel.side]})` }));
  if (panel.error || panel.available === false) {
    root.append(el("p", { class: "unavailable", text: panel.error || panel.reason }));
    return root;
  }
  const actions = el("div", { class: "actions" },
    el("a", { href: `/api/learners/${panel.kind}/export?game=${view.game}`, download: "", text: panel.kind === "thesis" ? "Export memory.m" : "Export JSON" }),
    el("button", { type: "button", class: "reset", text: "Reset", onclick: () => resetLearner(panel.kind) }));
  root.append(actions);
  const learned = (view.learning || []).filter((l) => l.side === panel.side);
  const changedBoxes = new Set();
  for (const lesson of learned) {
    for (const change of lesson.changes) {
      changedBoxes.add(change.box);
      const parts = [];
      if (change.removed.length) parts.push(`bead ${change.removed.join(", ")} taken out of box ${change.box}`);
      if (change.added.length) parts.push(`bead ${change.added.join(", ")} added to box ${change.box}`);
      if (change.text) parts.push(change.text);
      root.append(el("p", { class: "learned", text: `After this game: ${parts.join("; ")}.` }));
    }
    if (view.over && !lesson.changes.length) {
      const why = { her: " (HER learns only from a loss)", thesis: " (the memory learns only from a won game that reached the moving phase)" }[panel.kind] || "";
      root.append(el("p", { class: "learned", text: `After this game: nothing changed${why}.` }));
    }
  }
  if (panel.boxes) drawBoxes(root, panel, changedBoxes);
  if (panel.recall !== undefined || panel.memory_entries !== undefined) drawRecall(root, panel);
  return root;
}

function drawBoxes(root, panel, changedBoxes) {
  const view = page.view;
  const decision = page.decisions[panel.side] || null;
  root.append(el("p", { class: "summary", text: `${panel.boxes_total} boxes, ${panel.beads_total} beads in them.` }));
  if (decision && decision.box) {
    const text = decision.resigned ? `It opened box ${decision.box}: empty, so it gave up.` : `It opened box ${decision.box}${decision.mirrored ? " (the board turned or mirrored)" : ""} and drew bead ${decision.bead}.`;
    root.append(el("p", { class: "summary decision", text }));
  }
  const wrap = el("div", { class: "boxes" });
  for (const box of panel.boxes) {
    const classes = ["box"];
    if (decision && decision.box === box.board) classes.push("opened");
    if (changedBoxes.has(box.board)) classes.push("changed");
    const node = el("div", { class: classes.join(" "), "data-box": box.board });
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
      beads.append(bead);
    });
    node.append(beads);
    wrap.append(node);
  }
  root.append(wrap);
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
      const t = svgEl("text", { x, y: y + cell * 0.2, "text-anchor": "middle", "font-size": cell * 0.6, "font-weight": 700, fill: mark === "X" ? "#22313f" : "#c1272d" });
      t.textContent = mark;
      svg.append(t);
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
      const t = svgEl("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 11, fill: count === 0 ? "#888" : "#fff" });
      t.textContent = String(count);
      svg.append(t);
    }
  });
  return svg;
}

function moveSquares(view, move) {
  const width = squareWidth(view), found = [];
  for (let i = 0; i < move.length; i += width) {
    const sq = view.square_names.indexOf(move.slice(i, i + width));
    if (sq >= 0) found.push(sq);
  }
  return found;
}

function drawRecall(root, panel) {
  const view = page.view;
  root.append(el("p", { class: "summary", text: `Memory: ${panel.memory_entries} positions.` }));
  const decision = page.decisions[panel.side];
  const recall = decision && decision.recall;
  if (!recall) {
    root.append(el("p", { class: "caption", text: "Its recall for the move it plays shows here." }));
    return;
  }
  if (!recall.length) {
    root.append(el("p", { class: "caption", text: `For ${decision.move || "its move"}: none of the positions it can reach is in its memory.` }));
    return;
  }
  const rows = recall.map((r) => el("tr", { class: r.chosen ? "chosen" : "" },
    el("td", { text: r.move }), el("td", { title: r.board }, miniBoard(view, r.board, 44)),
    el("td", { text: String(r.x_wins) }), el("td", { text: String(r.o_wins) }), el("td", { text: String(r.score) })));
  const table = el("table", {},
    el("tr", {}, el("th", { text: "move" }), el("th", { text: "position" }), el("th", { text: "X won" }), el("th", { text: "O won" }), el("th", { text: "score" })),
    ...rows);
  const adviser = decision.adviser ? ` (its choice came from: ${decision.adviser})` : "";
  const more = decision.recall_total > recall.length ? ` The first ${recall.length} of ${decision.recall_total}.` : "";
  root.append(el("div", { class: "recall" }, el("p", { class: "caption", text: `It played ${decision.move}${adviser}. Recall: the positions its moves can reach that it remembers, with the games X and O won from each; score = wins minus losses for its side.${more}` }), table));
}

function miniBoard(view, board, size) {
  // A remembered position, small: X and O as the board shows them.
  const n = view.columns, cell = size / n;
  const svg = svgEl("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": board });
  svg.append(svgEl("rect", { x: 0, y: 0, width: size, height: size, fill: "#efe8d6", stroke: "#c9c3b4" }));
  for (let sq = 0; sq < board.length; sq++) {
    if (board[sq] === ".") continue;
    const x = (sq % n) * cell + cell / 2, y = Math.floor(sq / n) * cell + cell / 2;
    svg.append(svgEl("circle", { cx: x, cy: y, r: cell * 0.38, fill: board[sq] === "X" ? "#22313f" : "#c1272d" }));
  }
  return svg;
}

async function resetLearner(kind) {
  const view = page.view;
  if (!confirm(`Forget everything ${kind} learned in this browser?`)) return;
  try {
    await api("POST", `/api/learners/${kind}/reset?game=${view.game}`);
    say(`${kind} starts again from nothing at the next game.`, "info");
    refreshChart();
  } catch (error) {
    say(error.message);
  }
}

// The learning chart: Gardner's letters and a curve ----------------------------------------------

async function refreshChart() {
  const view = page.view;
  if (!view) return;
  const learnerPanel = (view.learners || [])[0];
  const learner = learnerPanel ? learnerPanel.kind : "";
  const query = `game=${view.game}` + (learner ? `&learner=${learner}` : "");
  try {
    const chart = await api("GET", `/api/chart?${query}`);
    drawChart(chart);
  } catch (error) {
    $("chart-caption").textContent = error.message;
  }
}

function drawChart(chart) {
  const who = chart.learner ? chart.learner : "the first computer";
  $("chart-caption").textContent = `${chart.game}, from the side of ${who}: ${chart.games} games, ${chart.wins} won, ${chart.losses} lost, ${chart.draws} drawn.`;
  const lines = [];
  for (let i = 0; i < chart.letters.length; i += 10) lines.push(chart.letters.slice(i, i + 10));
  $("gardner").textContent = lines.join("\n");
  $("gardner").dataset.letters = chart.letters;
  const width = 300, height = 160, pad = 26;
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "wins and losses over games" });
  const n = chart.letters.length;
  const series = { W: [0], L: [0], D: [0] };
  for (const letter of chart.letters) {
    for (const key of Object.keys(series)) {
      const list = series[key];
      list.push(list[list.length - 1] + (letter === key ? 1 : 0));
    }
  }
  const top = Math.max(1, ...Object.values(series).map((s) => s[s.length - 1]));
  const x = (i) => pad + (i / Math.max(1, n)) * (width - pad - 8);
  const y = (v) => height - pad - (v / top) * (height - pad - 10);
  svg.append(svgEl("line", { x1: pad, y1: height - pad, x2: width - 8, y2: height - pad, stroke: "#999" }));
  svg.append(svgEl("line", { x1: pad, y1: 10, x2: pad, y2: height - pad, stroke: "#999" }));
  const label = (text, attrs) => { const t = svgEl("text", Object.assign({ "font-size": 10, fill: "#555" }, attrs)); t.textContent = text; svg.append(t); };
  label("0", { x: pad - 10, y: height - pad + 4 });
  label(String(top), { x: 2, y: 14 });
  label(`games: ${n}`, { x: width - 70, y: height - 8 });
  const colours = { W: "#2a9d55", L: "#d1495b", D: "#8d99ae" };
  const names = { W: "won", L: "lost", D: "drawn" };
  Object.entries(series).forEach(([key, values], i) => {
    const points = values.map((v, index) => `${x(index).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(svgEl("polyline", { points, fill: "none", stroke: colours[key], "stroke-width": 2, "data-series": key }));
    label(`${names[key]} ${values[values.length - 1]}`, { x: pad + 6 + i * 70, y: 20, fill: colours[key] });
  });
  $("curve").replaceChildren(svg);
}

init().catch((error) => say(`The page could not start: ${error.message}`));
