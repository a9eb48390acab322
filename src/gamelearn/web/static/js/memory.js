// @ts-check
// The thesis memory on the page (Despotovic's 1999 thesis): its recall for the move it played (the
// positions its moves reach that it remembers, with the games X and O won from each) and its
// records, searchable by position.  learners.js loads this module for a thesis panel.
import { el, needStyle, svgEl } from "./dom.js";
import { api, problem } from "./api.js";
import { plural } from "./format.js";
import { store } from "./store.js";

await needStyle("/static/views.css");

// Draw the memory's views into `root`: `decision` is the learner's last decision (or none).
export function drawMemory(root, panel, view, decision) {
  drawRecall(root, panel, view, decision);
  drawMemorySearch(root, view, decision);
}

function drawRecall(root, panel, view, decision) {
  root.append(el("p", { class: "summary", text: `Memory: ${plural(panel.memory_entries, "position")}.` }));
  const recall = decision && decision.recall;
  if (!recall) {
    root.append(el("p", { class: "caption", text: "Its recall for the move it plays shows here." }));
    return;
  }
  if (!recall.length) {
    root.append(el("p", { class: "caption", text: `For ${decision.move || "its move"}: none of the positions it can reach is in its memory.` }));
    return;
  }
  const rows = recall.map((r) => el("tr", { class: r.chosen ? "chosen" : "", "data-record": String(r.record) },
    el("td", { text: r.move }), el("td", { text: `#${r.record}` }), el("td", { title: r.board }, miniBoard(view, r.board, 44)),
    el("td", { text: String(r.x_wins) }), el("td", { text: String(r.o_wins) }), el("td", { text: String(r.score) })));
  const table = el("table", {},
    el("tr", {}, el("th", { text: "move" }), el("th", { text: "record" }), el("th", { text: "position" }), el("th", { text: "X won" }), el("th", { text: "O won" }), el("th", { text: "score" })),
    ...rows);
  const adviser = decision.adviser ? ` (its choice came from: ${decision.adviser})` : "";
  const more = decision.recall_total > recall.length ? ` The first ${recall.length} of ${decision.recall_total}.` : "";
  const chosen = recall.find((r) => r.chosen);
  const decided = chosen ? el("p", { class: "summary decided", "data-record": String(chosen.record), text: `Its move ${decision.move} reaches record #${chosen.record} of its memory (X won ${chosen.x_wins}, O won ${chosen.o_wins} from there).` }) : null;
  root.append(el("div", { class: "recall" }, decided, el("p", { class: "caption", text: `It played ${decision.move}${adviser}. Recall: the positions its moves can reach that it remembers, with the games X and O won from each; score = wins minus losses for its side.${more}` }), table));
}

// The thesis memory's records, searchable by position.
function drawMemorySearch(root, view, decision) {
  const chosen = decision && decision.recall ? decision.recall.find((r) => r.chosen) : null;
  const input = el("input", { type: "search", class: "memory-query", value: store.get().memoryQuery, maxlength: "25", spellcheck: "false",
    placeholder: "a position: . X O or ? per square, from 00", "aria-label": "search the memory by position" });
  const results = el("div", { class: "memory-results" });
  const search = async () => {
    const query = input.value.trim();
    store.set({ memoryQuery: query });  // kept while the panel is drawn again
    let data;
    try { data = await api("GET", `/api/learners/thesis/memory?game=${encodeURIComponent(view.game)}&position=${encodeURIComponent(query)}`); } catch (error) {
      results.replaceChildren(el("p", { class: "unavailable", text: problem(error) }));
      return;
    }
    const rows = data.records.map((r) => el("tr", { class: chosen && chosen.record === r.record ? "decided" : "", "data-record": String(r.record) },
      el("td", { text: `#${r.record}` }), el("td", { title: r.board }, miniBoard(view, r.board, 40)),
      el("td", { text: String(r.x_wins) }), el("td", { text: String(r.o_wins) })));
    results.dataset.total = String(data.total);
    results.replaceChildren(
      el("p", { class: "caption", text: `${data.total} of its ${data.entries} records match${data.total > data.records.length ? ` (the first ${data.records.length} shown)` : ""}; a record stands for a position and its X/O swap.` }),
      el("table", {}, el("tr", {}, el("th", { text: "record" }), el("th", { text: "position" }), el("th", { text: "X won" }), el("th", { text: "O won" })), ...rows));
  };
  input.addEventListener("change", search);
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") search(); });
  root.append(el("details", { class: "memory" }, el("summary", { text: "Its memory, record by record" }), input, results));
  search();
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
