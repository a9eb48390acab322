// @ts-check
// Looking at a position other than the game in play's now, loaded when first wanted (main.js):
// stepping back through the game in play, and the line of perfect values under the board
// ("Show perfect values") for whichever position the board shows.
import { $, el, say } from "./dom.js";
import { api, problem } from "./api.js";
import { moveValueText, valueClass, valueSign } from "./format.js";
import { store } from "./store.js";

const { get, set, subscribe } = store;

// Stepping back through the game in play without leaving it, as lichess lets a player look back
// mid-game: the board shows the position after `ply` moves, as the server replays the line
// (POST /api/analysis), locked; the game goes on meanwhile, and its next move (or », End, →
// past the last move) brings the board back to it.
const peeked = new Map();  // "id ply" -> the server's position, asked once

export async function peekAt(ply) {
  const { view } = get();
  if (!view || !$("review").hidden) return;  // the review has its own steps
  const at = Math.max(0, Math.min(view.moves.length, ply));
  if (at === view.moves.length) { set({ peek: null }); return; }
  const key = `${view.id} ${view.moves.slice(0, at).join(",")}`;
  set({ peek: { ply: at, answer: peeked.get(key) || null } });
  if (peeked.has(key)) return;
  try {
    const answer = await api("POST", "/api/analysis", { game: view.spec, moves: view.moves.slice(0, at), players: [] });
    peeked.set(key, answer);
    const { peek } = get();
    if (get().view === view && peek && peek.ply === at) set({ peek: { ply: at, answer } });
  } catch (error) {
    if (get().view === view) { set({ peek: null }); say(problem(error)); }
  }
}

export function peekModel(peek) {
  const answer = peek.answer;
  return { marks: answer.board, last: answer.last_squares, win: answer.winning_squares || [], legal: [], interactive: false,
    plies: peek.ply, over: answer.over, values: null, arrow: [] };
}

export function peekText(view, peek) {
  const where = peek.ply === 0 ? "The start" : `Move ${peek.ply} of ${view.moves.length}`;
  const answer = peek.answer;
  const there = !answer ? "" : answer.over ? (answer.winner === null ? ": a draw" : `: ${view.symbols[answer.winner]} won`) : `: ${view.symbols[answer.to_move]} to move`;
  return `${where}${there} (looking back: » or End for the game now)`;
}

subscribe(["peek", "view"], markPeek);  // after main.js draws the moves list
markPeek(get());

function markPeek({ peek }) {
  for (const item of $("moves").querySelectorAll("li")) {
    if (peek && Number(/** @type {HTMLElement} */ (item).dataset.ply) === peek.ply) item.setAttribute("aria-current", "true");
    else item.removeAttribute("aria-current");
  }
  document.body.dataset.peek = peek ? "yes" : "no";
}

// The line of perfect values under the board, for the position the board shows: the review's, an
// earlier one stepped back to, else the game in play's.  Moves in the game's order (the legal
// moves' list), whatever order the answer's keys come in.
/** @param {Readonly<PageState>} state */
export function drawHint({ view, analysis, reviewModel, peek }) {
  const panel = $("analysis");
  if (!$("analysis-toggle").checked) return;
  const unavailable = (text) => panel.replaceChildren(el("span", { class: "unavailable", text }));
  let hint;
  if (reviewModel) hint = reviewModel.hint;
  else if (view && peek) hint = peek.answer ? hintOf(peek.answer, view.symbols) : null;
  else if (view && view.over) hint = { over: true };
  else if (view && analysis && analysis.for === view.moves.length) {
    hint = { over: false, available: analysis.available, reason: analysis.reason, mover: view.symbols[view.to_move], other: view.symbols[1 - view.to_move],
      moves: view.legal_moves.filter((move) => analysis.moves[move]).map((move) => [move, analysis.moves[move]]) };
  }
  if (!hint) { unavailable("Reading the position…"); return; }
  if (hint.over) { unavailable("The game is over here: no move to value."); return; }
  if (!hint.available) { unavailable(hint.reason || "No perfect values here."); return; }
  // Each move with who wins after it and how soon ("4 + X wins in 7"), in the game's order.
  const items = hint.moves.map(([move, entry]) => el("span", { class: `mv value ${valueClass(entry.value)}`, "data-move": move,
    "data-value": String(entry.value), text: `${move} ${valueSign(entry.value)} ${moveValueText(entry, hint.mover, hint.other)}` }));
  panel.replaceChildren(el("div", { text: `Perfect play, for ${hint.mover} to move (+ win, = draw, − loss; plies to the end, the move counted):` }), ...items);
}

// An analysis answer (POST /api/analysis) as the hint line reads it.
function hintOf(answer, symbols) {
  const perfect = answer.perfect || { available: false, reason: "", moves: {} };
  return { over: answer.over, available: perfect.available, reason: perfect.reason,
    mover: answer.over ? "" : symbols[answer.to_move], other: answer.over ? "" : symbols[1 - answer.to_move],
    moves: perfect.available ? answer.legal_moves.map((move) => [move, perfect.moves[move]]) : [] };
}
