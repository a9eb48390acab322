// @ts-check
// The analysis board's panel in the review: the legal moves of the position shown, each with its
// perfect value (where the server can read the game's solution) and what the player seated on
// the side to move makes of it in its own terms (MENACE's beads, the thesis memory's record,
// ntuple's value, az's prior).  Each value comes with its distance ("X wins in 5": plies to the
// end with best play), and the perfect player's best line from the position follows the moves.
// Every figure is the server's (POST /api/analysis); a move picked here is played as a click on
// the board is.
import { el } from "./dom.js";
import { lineText, moveValueText, valueClass, valueSign } from "./format.js";

/**
 * @param {HTMLElement} root the panel's table holder
 * @param {any} answer the server's position (POST /api/analysis), or null while it comes
 * @param {string[]} symbols the sides' symbols
 * @param {(move: string) => void} pick plays a move
 */
export function drawAnalysis(root, answer, symbols, pick) {
  if (!answer) { root.replaceChildren(el("p", { class: "caption", text: "Reading the position…" })); return; }
  if (answer.over) { root.replaceChildren(el("p", { class: "caption", text: "The game is over here: no move to try." })); return; }
  const mover = symbols[answer.to_move], other = symbols[1 - answer.to_move];
  const perfect = answer.perfect || { available: false, reason: "", moves: {} };
  const seat = (answer.learners || [])[0] || null;
  const opinion = seat && seat.view;
  const lines = [];
  if (!perfect.available) lines.push(el("p", { class: "caption", text: `No perfect values here: ${unavailable(perfect.reason)}` }));
  if (seat) {
    const who = `${seat.name} (${symbols[seat.side]})`;
    lines.push(el("p", { class: "caption seat-view", text: opinion ? `${who}, to move: ${opinion.note}.` : `${who}, to move: ${seat.none}.` }));
  }
  if (!perfect.available && !opinion) {  // nothing to set beside the moves: a compact row of them
    const buttons = answer.legal_moves.map((move) => el("button", { type: "button", class: "try", "data-move": move, text: move,
      "aria-label": `try ${mover} ${move}`, onclick: () => pick(move) }));
    root.replaceChildren(...lines, el("p", { class: "caption", text: `Each move ${mover} can play here:` }), el("div", { class: "try-list" }, ...buttons));
    return;
  }
  const head = el("tr", {}, el("th", { scope: "col", text: `${mover} plays` }),
    perfect.available ? el("th", { scope: "col", text: "Perfect play" }) : null,
    opinion ? el("th", { scope: "col", text: `${seat.name}'s view` }) : null);
  const rows = answer.legal_moves.map((move) => {
    const entry = perfect.available && perfect.moves[move] ? perfect.moves[move] : null;
    const value = entry ? entry.value : null;
    const own = opinion && opinion.moves[move];
    return el("tr", { "data-move": move },
      el("td", {}, el("button", { type: "button", class: "try", text: move, "aria-label": `try ${mover} ${move}`, onclick: () => pick(move) })),
      perfect.available ? el("td", {}, value === null ? "–"
        : el("span", { class: `value ${valueClass(value)}`, "data-value": String(value), "data-distance": entry.distance === null ? "" : String(entry.distance),
          text: `${valueSign(value)} ${moveValueText(entry, mover, other)}` })) : null,
      opinion ? el("td", { class: "own", text: own ? own.text : "nothing of its own" }) : null);
  });
  const table = el("table", { class: "analysis-moves" },
    el("caption", { text: `Each move ${mover} can play here${perfect.available ? ", with its value under perfect play for " + mover : ""}` }),
    el("thead", {}, head), el("tbody", {}, ...rows));
  const best = perfect.available ? perfect.best_line || [] : [];
  const end = !perfect.best_line_over ? " …" : perfect.value === 0 ? ", a draw" : `, ${perfect.value > 0 ? mover : other} wins`;
  const line = best.length ? el("p", { class: "caption best-line" }, el("strong", { text: "Best line: " }),
    el("span", { class: "line", text: `${lineText(best, symbols, answer.moves.length)}${end}` })) : null;
  root.replaceChildren(...lines, table, line || "");
}

// The server's reason, without a terminal command: the review offers Teeko's build itself.
function unavailable(reason) {
  return /solved table|table/.test(String(reason)) ? "the game's solved table is not built on this server (the review offers to build it)" : reason;
}
