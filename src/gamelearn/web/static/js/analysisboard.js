// @ts-check
// The analysis board's panel in the review: the legal moves of the position shown, each with its
// perfect value (where the server can read the game's solution) and what the player seated on
// the side to move makes of it in its own terms (MENACE's beads, the thesis memory's record,
// ntuple's value, az's prior).  Every figure is the server's (POST /api/analysis); a move picked
// here is played as a click on the board is.
import { el } from "./dom.js";
import { valueClass, valueSign } from "./format.js";

const VALUE_WORD = { win: "win", draw: "draw", loss: "loss" };

/**
 * @param {HTMLElement} root the panel's table holder
 * @param {any} answer the server's position (POST /api/analysis), or null while it comes
 * @param {string[]} symbols the sides' symbols
 * @param {(move: string) => void} pick plays a move
 */
export function drawAnalysis(root, answer, symbols, pick) {
  if (!answer) { root.replaceChildren(el("p", { class: "caption", text: "Reading the position…" })); return; }
  if (answer.over) { root.replaceChildren(el("p", { class: "caption", text: "The game is over here: no move to try." })); return; }
  const mover = symbols[answer.to_move];
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
    const value = perfect.available && perfect.moves[move] ? perfect.moves[move].value : null;
    const own = opinion && opinion.moves[move];
    return el("tr", { "data-move": move },
      el("td", {}, el("button", { type: "button", class: "try", text: move, "aria-label": `try ${mover} ${move}`, onclick: () => pick(move) })),
      perfect.available ? el("td", {}, value === null ? "–"
        : el("span", { class: `value ${valueClass(value)}`, "data-value": String(value), text: `${valueSign(value)} ${VALUE_WORD[valueClass(value)]}` })) : null,
      opinion ? el("td", { class: "own", text: own ? own.text : "nothing of its own" }) : null);
  });
  const table = el("table", { class: "analysis-moves" },
    el("caption", { text: `Each move ${mover} can play here${perfect.available ? ", with its value under perfect play for " + mover : ""}` }),
    el("thead", {}, head), el("tbody", {}, ...rows));
  root.replaceChildren(...lines, table);
}

// The server's reason, without a terminal command: the review offers Teeko's build itself.
function unavailable(reason) {
  return /solved table|table/.test(String(reason)) ? "the game's solved table is not built on this server (the review offers to build it)" : reason;
}
