// The learners at the table: HER's, HIM's and MENACE's matchboxes with their beads, the thesis
// memory's recall for its last move, what each learned from the game, Export and Reset.
import { $, el, say, svgEl } from "./dom.js";
import { api } from "./api.js";
import { refreshChart } from "./chart.js";

const BEAD_COLOURS = ["#e76f51", "#2a9d8f", "#e9c46a", "#264653", "#8e44ad", "#f4a261", "#3a86ff", "#6a994e", "#b5179e"];
const page = { view: null, decisions: {} };

export function squareWidth(view) { return view.square_names[0].length; }

export function drawLearners(view, decisions) {
  page.view = view;
  page.decisions = decisions;
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
      // Red only for a lesson from a game the learner lost.
      const lost = view.over && view.winner !== null && view.winner !== panel.side;
      root.append(el("p", { class: lost ? "learned lost" : "learned", text: `After this game: ${parts.join("; ")}.` }));
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
    // The panel empties at once: what it showed was the memory just forgotten.
    for (const node of document.querySelectorAll(`.learner[data-kind="${kind}"]`)) {
      node.replaceChildren(el("h3", { text: kind }), el("p", { class: "caption reset-note", text: "Forgotten: it starts again from nothing at the next game." }));
    }
    refreshChart(view);
  } catch (error) {
    say(error.message);
  }
}

