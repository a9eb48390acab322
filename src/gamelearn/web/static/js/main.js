// @ts-check
// gamelearn's page: the game in play.  It opens on a game ready to play (you against the game's
// learner, the players remembered per browser), keeps the game's id in the address (a reload or a
// server restart resumes it), locks the board while the computer thinks and drops clicks made
// then, and offers take back, resign, a new game, flip, the rules, analysis and a review.  What
// only some visits use is loaded when its view first opens: the new-game form's controls
// (picker.js), the review with its evaluation graph (review.js), training (beyond.js loads it)
// and the thesis memory (learners.js loads it), so the first load stays small.
import { $, el, learnPlayerNames, playerName, say } from "./dom.js";
import { api, ApiError, patiently, problem } from "./api.js";
import { follow, isAway, whenBack } from "./connection.js";
import { Board } from "./board.js";
import { differences, formTitle, parseSpec, playersForForm } from "./spec.js";
import { valueClass, valueSign } from "./format.js";
import { drawLearners } from "./learners.js";
import { refreshChart } from "./chart.js";
import { installBeyond } from "./beyond.js";

const FIRST_GAME = "tictactoe";
const MAX_SEED = 2 ** 31 - 1;  // the server's bound (NewGame.seed)
const page = {
  games: {}, view: null, busy: false, flipped: false, analysis: null, decisions: {}, timer: null,
  resignArmed: null, reviewModel: null,
};
let board;
let picker = null;  // the new-game form's controls (picker.js), once the form has been opened
let review = null;  // the review (review.js), once one has been opened

const remembered = (key, fallback) => {
  try { const v = localStorage.getItem(`gamelearn.${key}`); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
};
const remember = (key, value) => { try { localStorage.setItem(`gamelearn.${key}`, JSON.stringify(value)); } catch (e) { /* private mode */ } };

// `work()`, asked again each time the server comes back while it fails for want of the server (a
// page opened from the service worker's cache with the server stopped).
async function whenServed(work) {
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ApiError && error.away)) throw error;
      await waitForServer();
    }
  }
}

async function waitForServer() {
  $("status").textContent = "Waiting for the gamelearn server…";
  $("status").dataset.state = "waiting";
  await whenBack();
}

async function init() {
  // the players: when the form opens
  const games = await whenServed(() => api("GET", "/api/games?players=false"));
  learnPlayerNames(games);  // each kind's name and words, without its options
  for (const info of games) {
    page.games[info.name] = info;
    $("game-select").append(el("option", { value: info.name, text: info.name }));
  }
  board = new Board($("board"), sendMove, (text) => say(text));
  installBeyond({ view: () => page.view });
  $("setup").addEventListener("toggle", () => { if ($("setup").open) loadPicker().catch((error) => say(problem(error))); });
  $("game-select").addEventListener("change", () => {
    const name = $("game-select").value;
    choose(name, playersFor(name), formFor(name));
    startGame(chosenGame(), chosenSpecs());
  });
  $("new-game").addEventListener("click", () => {
    const specs = chosenSpecs();
    const seed = $("seed").value.trim();
    // A seed is a whole number: "1e400" would reach the server as null, a random game.
    if (seed !== "" && (!/^[0-9]{1,10}$/.test(seed) || Number(seed) > MAX_SEED)) {
      say(`Seed ${seed.slice(0, 24)} is not a whole number from 0 to ${MAX_SEED}; leave it empty for a random game.`);
      return;
    }
    startGame(chosenGame(), specs, seed);
  });
  $("rematch").addEventListener("click", () => page.view && startGame(page.view.spec, page.view.players));
  $("takeback").addEventListener("click", takeBack);
  $("resign").addEventListener("click", resign);
  $("flip").addEventListener("click", () => { page.flipped = !page.flipped; if (page.view) remember(`flipped.${page.view.game}`, page.flipped); drawAll(); });
  $("review-open").addEventListener("click", () => page.view && openReview({ game: page.view.id, over: page.view.over }, page.games[page.view.game]));
  $("analysis-toggle").addEventListener("change", refreshAnalysis);
  $("step").addEventListener("click", computerMove);
  $("autoplay").addEventListener("click", toggleAutoplay);
  window.addEventListener("popstate", () => openFromAddress());
  await openFromAddress();
}

// The game, its form and the players the new-game form holds: its fields, which main.js fills and
// reads; the controls (picker.js), once loaded, follow them.
function choose(name, specs, gameSpec) {
  const info = page.games[name];
  const spec = gameSpec && parseSpec(gameSpec).name === name ? gameSpec : info.spec;
  const players = playersForForm(info, spec, specs);
  $("game-select").value = name;
  $("game-spec").value = spec;
  $("first-player").value = players[0];
  $("second-player").value = players[1];
  if (picker) picker.setGame(name, players, spec);
}

const chosenSpecs = () => [$("first-player").value.trim(), $("second-player").value.trim()];
const chosenGame = () => $("game-spec").value.trim() || $("game-select").value;

async function loadPicker() {
  if (picker) return;
  const [{ Picker }, games] = await Promise.all([import("./picker.js"), api("GET", "/api/games")]);
  if (picker) return;
  for (const info of games) page.games[info.name].players = info.players;
  picker = new Picker(page.games);
  picker.setGame($("game-select").value, chosenSpecs(), $("game-spec").value);  // as the fields stand now
  $("setup").dataset.ready = "yes";
}

// The game last played in this browser, else the first game.
function lastGame() {
  const name = remembered("game", FIRST_GAME);
  return name in page.games ? name : FIRST_GAME;
}

// The form of a game last played in this browser (Teeko's forms), else the game's own.
function formFor(name) {
  const kept = remembered(`form.${name}`, null);
  return typeof kept === "string" && parseSpec(kept).name === name ? kept : name;
}

function playersFor(name) {
  const kept = remembered(`players.${name}`, null);
  return Array.isArray(kept) && kept.length === 2 ? kept : page.games[name].defaults;
}

async function openFromAddress() {
  const params = new URLSearchParams(location.search);
  const shared = params.get("shared");
  if (shared) {  // a shared game's review alone, read-only
    noGame("A shared game");
    Object.assign(document.body.dataset, { gone: "no", shared: "yes" });
    await openReview({ shared }, null);
    return;
  }
  const id = params.get("id");
  if (id) {
    try {
      const view = await whenServed(() => api("GET", `/api/games/${encodeURIComponent(id)}`));
      choose(view.game, view.players, view.spec);
      show(view, { fresh: true });
      if (params.get("review") !== null) openReview({ game: view.id, over: view.over }, page.games[view.game]);
      return;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) { say(problem(error)); return; }
      gone(error.message);
      return;
    }
  }
  const wanted = params.get("game");  // a game's name, or a spec of one of its forms
  const wantedName = wanted ? parseSpec(wanted).name : "";
  const name = page.games[wantedName] ? wantedName : lastGame();
  choose(name, playersFor(name), name === wantedName ? wanted : formFor(name));
  await startGame(chosenGame(), chosenSpecs(), "", { replace: true });
  if (!page.view && isAway()) {  // the server went away as the page started: start when it is back
    await waitForServer();
    await openFromAddress();
  }
}

// The game in the address is not here: say so as the server says it, and offer a new one.
function gone(detail) {
  noGame("This game is gone", `${detail.charAt(0).toUpperCase()}${detail.slice(1)}.`);
  $("status").dataset.state = "gone";
  const name = lastGame();
  choose(name, playersFor(name), formFor(name));
  $("message").append(" ", el("button", { type: "button", id: "start-over", text: "Start a new game", onclick: () => startGame(chosenGame(), chosenSpecs()) }));
}

// No game on the board: only the status (and `detail` under it) and the way to a game.
function noGame(status, detail = "") {
  page.view = null;
  follow(null);
  document.body.dataset.gone = "yes";
  $("status").textContent = status;
  $("status").dataset.state = "none";
  $("players-line").textContent = "";
  $("board").replaceChildren();
  $("board").dataset.id = "";
  $("moves").replaceChildren();
  $("learners").replaceChildren();
  say(detail, "");
  setControls();
}

// `spec`: a game's name, or a spec naming one of its forms ("teeko:goals=advanced").
async function startGame(spec, specs, seedText = "", options = {}) {
  stopAutoplay();
  if (page.busy) return;
  const body = { game: spec, players: specs };
  if (seedText !== "" && seedText !== undefined) body.seed = Number(seedText);
  const notice = slowNotice(specs, parseSpec(spec).name);
  try {
    const view = await withBusy(() => {
      // The game in play waits, locked, for the new one (whose computer may move first).
      $("status").textContent = "Starting a new game…";
      $("status").dataset.state = "thinking";
      if (page.view) board.render(boardModel(page.view, { locked: true }));
      return patiently("POST", "/api/games", body, waiting);
    });
    remember("game", view.game);
    remember(`form.${view.game}`, view.spec);
    remember(`players.${view.game}`, specs);
    const url = `${location.pathname}?id=${encodeURIComponent(view.id)}`;
    if (options.replace) history.replaceState(null, "", url); else history.pushState(null, "", url);
    page.decisions = {};
    say("");
    if (review && reviewing()) review.close();
    $("setup-table").hidden = true;
    show(view, { fresh: true });
  } catch (error) {
    if (error instanceof ApiError && error.data && error.data.table) {
      // No game runs (not the one before: not what was asked for); the form offers the build,
      // and the game asked for starts once the table is there.
      const asked = (page.asked = {});
      noGame(`No game yet: ${error.message}.`);
      import("./tables.js").then((tables) => tables.offerBuild(error, () => page.asked === asked && !page.view, () => startGame(spec, specs, seedText)));
      return;
    }
    if (page.view) drawAll(); else setControls();
    say(problem(error));
  } finally {
    notice();
  }
}

// The busy flag, up while a request that changes the game is out: the board is locked and the
// controls are off, and a click made meanwhile is dropped, never queued.  Down however it ends.
async function withBusy(work) {
  page.busy = true;
  setControls();
  try {
    return await work();
  } finally {
    page.busy = false;
  }
}

function waiting(seconds, detail) {
  say(`The server is busy with other players' moves: trying again in ${seconds} s…`, "info busy");
}

// Playing

async function sendMove(move) {
  if (reviewing()) { if (review) review.play(move); return; }  // the analysis board's move
  const view = page.view;
  if (!view || page.busy || !view.human_to_move) return;  // dropped, never queued
  const notice = slowNotice([view.players[1 - view.to_move]], view.game);
  try {
    // The ply it was made on: made on a board another tab has changed, it is refused with the
    // game as it is now (409, under `game`), and that is drawn.
    const next = await withBusy(() => {
      showPending(view, move);
      return patiently("POST", `/api/games/${view.id}/move`, { move, ply: view.moves.length }, waiting);
    });
    notice();
    say("");
    show(next);
  } catch (error) {
    notice();
    const fresh = error instanceof ApiError && error.status === 409 && error.data && error.data.game;
    if (fresh && fresh.id === view.id) {
      show(fresh);
      say("The game moved on in another tab: this is the board now.", "info");
      return;
    }
    show(view);
    say(problem(error));  // the game's own words: the move and why it is illegal
  }
}

// A player whose first move is slow to come (az loads its network): the server's words say why.
// The server says whether its warm-up has made the player for the game yet (GET /api/warm-up):
// not yet, and it is said at once; ready, and it is not; a server that warms nothing leaves it to
// a timer.  `specs`: the players about to move.  Returns what ends the notice.
const warmUp = { ready: new Set() };  // "kind game" the server has said is ready

function slowNotice(specs, game) {
  const known = page.games[game]?.players || [];
  const slow = specs
    .map((spec) => known.find((player) => player.name === String(spec || "").split(":")[0].trim()))
    .find((player) => player?.first_move_wait);
  if (!slow || warmUp.ready.has(`${slow.name} ${game}`)) return () => {};
  const words = slow.first_move_wait;
  let over = false;
  const tell = () => { if (!over && page.busy) say(words, "info loading"); };
  const timer = setTimeout(tell, 1200);
  api("GET", "/api/warm-up").then(({ kinds }) => {
    const state = (kinds[slow.name] || {})[game];
    if (state === "ready") { warmUp.ready.add(`${slow.name} ${game}`); clearTimeout(timer); } else if (state) tell();
  }).catch(() => { /* the timer says it */ });
  return () => {
    over = true;
    clearTimeout(timer);
    if ($("message").textContent === words) say("");
  };
}

// News of the game from its live stream: a change made elsewhere (another tab) is fetched and
// drawn; this page's own request in flight brings its own answer.
function onNews(news) {
  const view = page.view;
  if (!view || page.busy) return;
  if (!news.gone && news.moves.join(",") === view.moves.join(",") && news.over === view.over) return;
  refresh();
}

async function refresh() {
  const view = page.view;
  if (!view || page.busy) return;
  try {
    const fresh = await api("GET", `/api/games/${encodeURIComponent(view.id)}`);
    if (page.view !== view || page.busy) return;
    if (fresh.moves.join(",") !== view.moves.join(",") || fresh.over !== view.over) show(fresh);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && page.view === view) gone(error.message);
  }
}

// The move sent, drawn at once (its squares' marks moved; the server decides if it stands), and
// the board locked while the other side thinks.
function showPending(view, move) {
  const width = view.square_names[0].length;
  const names = [];
  for (let i = 0; i < move.length; i += width) names.push(move.slice(i, i + width));
  const squares = names.map((n) => view.square_names.indexOf(n));
  const marks = view.board.split("");
  const mover = view.symbols[view.pawn_side ?? view.to_move];  // an Alternate drop places the other's pawn
  if (squares.length === 1) marks[squares[0]] = mover;
  else if (squares.length === 2) { marks[squares[1]] = marks[squares[0]]; marks[squares[0]] = "."; }
  const other = 1 - view.to_move;
  const thinking = view.humans[other] ? `${view.symbols[other]} to move` : `${playerName(view.players[other])} is thinking…`;
  $("status").textContent = thinking;
  $("status").dataset.state = "thinking";
  board.render(boardModel(view, { marks: marks.join(""), last: squares, locked: true, plies: view.moves.length + 1 }));
  setControls();
}

async function computerMove() {
  const view = page.view;
  if (!view || view.over || page.busy) { if (!view || view.over) stopAutoplay(); return; }
  const notice = slowNotice([view.players[view.to_move]], view.game);
  try {
    // The ply it was asked on, as a move is sent: another tab's move first, and the game as it
    // is now comes back (409), drawn, not a second computer move.
    const next = await withBusy(() => patiently("POST", `/api/games/${view.id}/advance`, { ply: view.moves.length }, waiting));
    notice();
    show(next);
  } catch (error) {
    notice();
    stopAutoplay();
    const fresh = error instanceof ApiError && error.status === 409 && error.data && error.data.game;
    if (fresh && fresh.id === view.id) { show(fresh); return; }
    say(problem(error));
    setControls();
  }
}

function toggleAutoplay() {
  if (page.timer) { stopAutoplay(); return; }
  $("autoplay").textContent = "Pause";
  page.timer = setInterval(computerMove, 350);
  drawStatus();
}

function stopAutoplay() {
  if (page.timer) clearInterval(page.timer);
  page.timer = null;
  $("autoplay").textContent = "Play it out";
  drawStatus();
}

async function takeBack() {
  const view = page.view;
  if (!view || page.busy) return;
  try {
    show(await withBusy(() => api("POST", `/api/games/${view.id}/takeback`)));
    say("Taken back.", "info");
  } catch (error) { say(problem(error)); }
}

async function resign() {
  const view = page.view;
  if (!view || page.busy || view.over) return;
  if (!page.resignArmed) {  // two clicks: a resignation is not undone
    $("resign").textContent = "⚑ Really resign?";
    page.resignArmed = setTimeout(() => { page.resignArmed = null; $("resign").textContent = "⚑ Resign"; }, 4000);
    return;
  }
  clearTimeout(page.resignArmed);
  page.resignArmed = null;
  $("resign").textContent = "⚑ Resign";
  try {
    show(await withBusy(() => api("POST", `/api/games/${view.id}/resign`)));
    say("");  // the last move's line goes: the status says the game ended
  } catch (error) { say(problem(error)); }
}

// What the page shows

function show(view, options = {}) {
  const before = page.view;
  document.body.dataset.gone = "no";
  const wasOver = before && before.id === view.id && before.over;
  if (!before || before.game !== view.game) page.flipped = remembered(`flipped.${view.game}`, false);
  page.view = view;
  page.analysis = null;
  follow(view.id, onNews, refresh);
  if (options.fresh) page.decisions = {};
  for (const event of view.events || []) if (event.decision) page.decisions[event.side] = event.decision;
  const computerEvents = (view.events || []).filter((e) => !e.human);
  if (computerEvents.length) {
    const last = computerEvents[computerEvents.length - 1];
    say(last.move ? playedText(view, last) : `${playerName(last.by)} resigned: its box is empty.`, "info");
  }
  drawAll();
  refreshAnalysis();
  if (options.fresh || (view.over && !wasOver)) refreshChart(view);
  // A game resumed while its computer was to move (a restart in the middle of its thought).
  if (view.computer_to_move && view.humans.some(Boolean) && !page.busy) computerMove();
}

// "thesis played 22", or, where the computer put down the other side's pawn (an Alternate drop
// round of Teeko), "alphabeta put your pawn on 10": whose pawn it was, read off the board.
function playedText(view, event) {
  const name = playerName(event.by);
  const square = view.square_names.indexOf(event.move);
  const mark = square < 0 ? null : view.board[square];
  if (mark === null || mark === "." || mark === view.symbols[event.side]) return `${name} played ${event.move}.`;
  const yours = view.humans.filter(Boolean).length === 1 && view.humans[view.symbols.indexOf(mark)];
  return `${name} put ${yours ? "your" : `${mark}'s`} pawn on ${event.move}.`;
}

function drawAll() {
  const view = page.view;
  if (!view) return;
  const info = page.games[view.game];
  const names = view.players.map((spec, side) => (view.humans[side] && view.humans.filter(Boolean).length === 1 ? "You" : playerName(spec)));
  const title = formTitle(view.game, view.spec, info.options);
  // Each side with its own mark as the board draws it: which colour is yours is never a guess.
  const seat = (side) => el("span", { class: "seat-name", "data-side": String(side) }, mark(view, side), `${names[side]} (${view.symbols[side]})`);
  $("players-line").replaceChildren(seat(0), " vs ", seat(1), ` · ${title}`);
  document.title = `${title} · gamelearn`;
  drawStatus();
  $("rules-title").textContent = `Rules of ${title}`;
  $("rules-text").textContent = view.rules || info.rules;
  const changed = differences(view.spec, info.options);
  $("rules-form").hidden = changed.length === 0;
  $("rules-form").replaceChildren(...changed.map(([option, value]) =>
    el("li", {}, el("strong", { text: `${option.name}=${value}` }), `: ${option.help}`)));
  if (reviewing() && page.reviewModel) board.render(page.reviewModel);
  else board.render(boardModel(view, {}));
  drawMoves(view);
  drawLearners(view, page.decisions);
  setControls();
}

// The status line: the server's words, with the mark of the side to move beside them.
function drawStatus() {
  const view = page.view;
  if (!view) return;
  const computers = !view.humans[0] && !view.humans[1];
  const state = view.over ? "over" : view.human_to_move ? "your-move" : computers && !page.timer && !page.busy ? "paused" : "thinking";
  const mover = view.over ? null : view.pawn_side ?? view.to_move;
  $("status").replaceChildren(...(mover === null || mover === undefined ? [] : [mark(view, mover)]), view.result);
  $("status").dataset.state = state;
  $("status").dataset.over = view.over ? "yes" : "no";
}

// A side's mark, small: the disc of its pawns (Teeko, hexapawn) or its letter (tic-tac-toe).
function mark(view, side) {
  const symbol = view.symbols[side];
  // No text of its own (a letter is drawn by CSS from data-symbol): the line reads as the server said it.
  if (view.game === "tictactoe") return el("span", { class: `mark piece-${symbol}`, "data-symbol": symbol, "aria-hidden": "true" });
  return el("span", { class: `mark disc pawn-${symbol}`, "aria-hidden": "true" });
}

function boardModel(view, overrides) {
  const values = page.analysis && page.analysis.available && page.analysis.for === view.moves.length
    ? Object.fromEntries(Object.entries(page.analysis.moves).map(([m, e]) => [m, e.value])) : null;
  const model = Object.assign({
    id: view.id, game: view.game, rows: view.rows, columns: view.columns, names: view.square_names,
    marks: view.board, last: view.last_squares, win: view.winning_squares || [],
    legal: view.human_to_move ? view.legal_moves : [], interactive: view.human_to_move, locked: page.busy,
    flipped: page.flipped, values, arrow: [], plies: view.moves.length, over: view.over,
  }, overrides);
  model.label = `${model.game} board, ${model.rows} by ${model.columns}; arrow keys move between squares, Enter plays`;
  return model;
}

function drawMoves(view) {
  const list = $("moves");
  list.replaceChildren(...view.moves.map((m, i) => el("li", { "data-move": m, text: `${view.symbols[i % 2]} ${m}` })));
  list.scrollTop = list.scrollHeight;
}

function setControls() {
  const view = page.view;
  const has = Boolean(view);
  const someone = has && view.humans.some(Boolean);
  $("takeback").hidden = !someone;
  $("takeback").disabled = !has || page.busy || !view.can_take_back;
  $("resign").hidden = !someone || view.over;
  $("resign").disabled = page.busy;
  $("rematch").disabled = !has || page.busy;
  $("flip").disabled = !has;
  $("flip").setAttribute("aria-pressed", page.flipped ? "true" : "false");
  $("review-open").disabled = !has || view.moves.length === 0;
  const computers = has && !view.humans[0] && !view.humans[1];
  $("step").hidden = !computers || view.over;
  $("autoplay").hidden = !computers || view.over;
  if (has && view.over) stopAutoplay();
}

// The review, loaded when it is first opened.
const reviewing = () => !$("review").hidden;

async function openReview(source, info) {
  if (!review) {
    const { Review } = await import("./review.js");
    review = review || new Review(showReviewPosition, () => page.games);
  }
  review.open(source, info);
}

// The review draws a position of the game `info` on the board; null: back to the game in play.
function showReviewPosition(info, position) {
  const view = page.view;
  $("eval").hidden = !position;
  $("eval-text").hidden = !position;
  document.body.dataset.reviewing = position ? "yes" : "no";
  document.body.dataset.foreign = position && position.title ? "yes" : "no";
  if (!position) {
    page.reviewModel = null;
    if (view) { drawAll(); board.render(boardModel(view, {})); }
    else if (document.body.dataset.shared === "yes") { document.body.dataset.shared = "no"; startGame(chosenGame(), chosenSpecs()); }
    return;
  }
  if (position.title) { $("players-line").textContent = ""; $("status").textContent = position.title; }
  page.reviewModel = boardModel(view || { id: "shared", moves: [] }, {
    game: info.name, rows: info.rows, columns: info.columns, names: info.square_names,
    id: `review-${position.key || ""}`, marks: position.board, last: position.last, win: position.win,
    legal: position.legal || [], interactive: Boolean(position.legal && position.legal.length), locked: false,
    values: position.values || null, arrow: position.arrow, plies: position.plies, over: false,
  });
  board.render(page.reviewModel);
}

// Analysis: the perfect player's value of each move

async function refreshAnalysis() {
  const view = page.view;
  const panel = $("analysis");
  const on = $("analysis-toggle").checked;
  panel.hidden = !on;
  if (!on || !view) { page.analysis = null; if (view && !reviewing()) board.render(boardModel(view, {})); return; }
  if (view.over) { panel.replaceChildren(el("span", { class: "unavailable", text: "The game is over." })); return; }
  try {
    const analysis = await api("GET", `/api/games/${view.id}/analysis`);
    if (page.view !== view) return;
    analysis.for = view.moves.length;
    page.analysis = analysis;
    if (!analysis.available) { panel.replaceChildren(el("span", { class: "unavailable", text: analysis.reason })); return; }
    const items = Object.entries(analysis.moves).map(([move, entry]) =>
      el("span", { class: `mv value ${valueClass(entry.value)}`, "data-move": move, text: `${move} ${valueSign(entry.value)}` }));
    panel.replaceChildren(el("div", { text: "Perfect play, for the side to move (+ win, = draw, − loss):" }), ...items);
    if (!reviewing()) board.render(boardModel(view, {}));
  } catch (error) {
    panel.replaceChildren(el("span", { class: "unavailable", text: problem(error) }));
  }
}

init().catch((error) => say(problem(error) && `The page could not start: ${error.message}`));
