// @ts-check
// gamelearn's page: the game in play, its controls, the views loaded when opened (docs/web.md,
// "The page").  Its state is the store's: each part draws itself when its slices change.
import { $, el, learnPlayerNames, playerName, say } from "./dom.js";
import { api, ApiError, patiently, problem } from "./api.js";
import { follow, isAway, whenBack } from "./connection.js";
import { Board } from "./board.js";
import { differences, formTitle, parseSpec, playersForForm } from "./spec.js";
import { moveValueText, valueClass, valueSign } from "./format.js";
import "./learners.js";  // the learners' panels follow the game in play
import { refreshChart } from "./chart.js";
import { installBeyond } from "./beyond.js";
import { store } from "./store.js";

const FIRST_GAME = "tictactoe";
const MAX_SEED = 2 ** 31 - 1;  // the server's bound (NewGame.seed)
const { get, set, subscribe } = store;
const board = new Board($("board"), sendMove, (text) => say(text));
subscribe(["view", "flipped", "busy", "analysis", "reviewModel", "pending", "gone", "peek"], drawBoard);
subscribe(["view", "autoplay", "line", "foreign", "reviewModel", "peek"], drawStatus);
subscribe(["view", "analysis", "reviewModel", "peek"], () => showHint());
subscribe(["back"], ({ view }) => { if (view) refreshChart(view); });  // asked again once the server is back
subscribe(["view", "busy", "flipped", "autoplay", "peek"], setControls);
subscribe(["view", "foreign"], drawGame);
subscribe(["gone", "shared"], ({ gone, shared }) => Object.assign(document.body.dataset, { gone: gone ? "yes" : "no", shared: shared ? "yes" : "no" }));

const remembered = (key, fallback) => {
  try { const v = localStorage.getItem(`gamelearn.${key}`); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
};
const remember = (key, value) => { try { localStorage.setItem(`gamelearn.${key}`, JSON.stringify(value)); } catch (e) { /* private mode */ } };

// `work()`, asked again each time the server comes back while it fails for want of it (offline).
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
  set({ line: { text: "Waiting for the gamelearn server…", state: "waiting" } });
  await whenBack();
}

async function init() {
  // the players: when the form opens
  const games = await whenServed(() => api("GET", "/api/games?players=false"));
  learnPlayerNames(games);  // each kind's name and words, without its options
  set({ games: Object.fromEntries(games.map((info) => [info.name, info])) });
  for (const info of games) $("game-select").append(el("option", { value: info.name, text: info.name }));
  installBeyond();
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
  $("rematch").addEventListener("click", () => { const { view } = get(); if (view) startGame(view.spec, view.players); });
  $("takeback").addEventListener("click", takeBack);
  $("resign").addEventListener("click", resign);
  $("flip").addEventListener("click", () => {
    const { view, flipped } = get();
    set({ flipped: !flipped });
    if (view) remember(`flipped.${view.game}`, !flipped);
  });
  $("review-open").addEventListener("click", () => { const { view, games } = get(); if (view) openReview({ game: view.id, over: view.over }, games[view.game]); });
  $("record-file").addEventListener("change", openRecordFile);
  const at = () => { const { view, peek } = get(); return peek ? peek.ply : view ? view.moves.length : 0; };
  $("moves-first").addEventListener("click", () => lookAt(0));
  $("moves-prev").addEventListener("click", () => lookAt(at() - 1));
  $("moves-next").addEventListener("click", () => lookAt(at() + 1));
  $("moves-now").addEventListener("click", () => lookAt(Infinity));
  document.addEventListener("keydown", stepKeys);
  $("analysis-toggle").addEventListener("change", refreshAnalysis);
  $("step").addEventListener("click", computerMove);
  $("autoplay").addEventListener("click", toggleAutoplay);
  window.addEventListener("popstate", () => openFromAddress());
  await openFromAddress();
}

// The game, its form and the players, in the new-game form's fields; its controls follow them.
function choose(name, specs, gameSpec) {
  const info = get().games[name];
  const spec = gameSpec && parseSpec(gameSpec).name === name ? gameSpec : info.spec;
  const players = playersForForm(info, spec, specs);
  $("game-select").value = name;
  $("game-spec").value = spec;
  $("first-player").value = players[0];
  $("second-player").value = players[1];
  get().picker?.setGame(name, players, spec);
}

const chosenSpecs = () => [$("first-player").value.trim(), $("second-player").value.trim()];
const chosenGame = () => $("game-spec").value.trim() || $("game-select").value;

async function loadPicker() {
  if (get().picker) return;
  const [{ Picker }, games] = await Promise.all([import("./picker.js"), api("GET", "/api/games")]);
  if (get().picker) return;
  const known = { ...get().games };
  for (const info of games) known[info.name] = { ...known[info.name], players: info.players };
  const picker = new Picker(known);
  set({ games: known, picker });
  picker.setGame($("game-select").value, chosenSpecs(), $("game-spec").value);  // as the fields stand now
  $("setup").dataset.ready = "yes";
}

// The game last played in this browser, else the first game.
function lastGame() {
  const name = remembered("game", FIRST_GAME);
  return name in get().games ? name : FIRST_GAME;
}

// The form of a game last played in this browser (Teeko's forms), else the game's own.
function formFor(name) {
  const kept = remembered(`form.${name}`, null);
  return typeof kept === "string" && parseSpec(kept).name === name ? kept : name;
}

function playersFor(name) {
  const kept = remembered(`players.${name}`, null);
  return Array.isArray(kept) && kept.length === 2 ? kept : get().games[name].defaults;
}

async function openFromAddress() {
  const params = new URLSearchParams(location.search);
  const shared = params.get("shared");
  if (shared) {  // a shared game's review alone, read-only
    noGame("A shared game");
    set({ gone: false, shared: true });
    await openReview({ shared }, null);
    return;
  }
  const id = params.get("id");
  if (id) {
    try {
      const view = await whenServed(() => api("GET", `/api/games/${encodeURIComponent(id)}`));
      choose(view.game, view.players, view.spec);
      show(view, { fresh: true });
      if (params.get("review") !== null) openReview({ game: view.id, over: view.over }, get().games[view.game]);
      return;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) { say(problem(error)); return; }
      gone(error.message);
      return;
    }
  }
  const wanted = params.get("game");  // a game's name, or a spec of one of its forms
  const wantedName = wanted ? parseSpec(wanted).name : "";
  const name = get().games[wantedName] ? wantedName : lastGame();
  choose(name, playersFor(name), name === wantedName ? wanted : formFor(name));
  await startGame(chosenGame(), chosenSpecs(), "", { replace: true });
  if (!get().view && isAway()) {  // the server went away as the page started: start when it is back
    await waitForServer();
    await openFromAddress();
  }
}

// The game in the address is not here: say so as the server says it, and offer a new one.
function gone(detail) {
  noGame("This game is gone", `${detail.charAt(0).toUpperCase()}${detail.slice(1)}.`, "gone");
  const name = lastGame();
  choose(name, playersFor(name), formFor(name));
  $("message").append(" ", el("button", { type: "button", id: "start-over", text: "Start a new game", onclick: () => startGame(chosenGame(), chosenSpecs()) }));
}

// No game on the board: only the status (and `detail` under it) and the way to a game.
function noGame(status, detail = "", state = "none") {
  follow(null);
  set({ view: null, line: { text: status, state }, pending: null, reviewModel: null, gone: true });
  say(detail, "");
}

// `spec`: a game's name, or a spec naming one of its forms ("teeko:goals=advanced").
async function startGame(spec, specs, seedText = "", options = {}) {
  stopAutoplay();
  if (!idle()) return;
  const body = { game: spec, players: specs };
  if (seedText !== "" && seedText !== undefined) body.seed = Number(seedText);
  const notice = slowNotice(specs, parseSpec(spec).name);
  try {
    const view = await withBusy(() => {
      // The game in play waits, locked, for the new one (whose computer may move first).
      set({ line: { text: "Starting a new game…", state: "thinking" }, pending: { locked: true } });
      return patiently("POST", "/api/games", body, waiting);
    });
    remember("game", view.game);
    remember(`form.${view.game}`, view.spec);
    remember(`players.${view.game}`, specs);
    const url = `${location.pathname}?id=${encodeURIComponent(view.id)}`;
    if (options.replace) history.replaceState(null, "", url); else history.pushState(null, "", url);
    say("");
    if (reviewing()) get().review?.close();
    $("setup-table").hidden = true;
    show(view, { fresh: true });
  } catch (error) {
    if (error instanceof ApiError && error.data && error.data.table) {
      // No game runs (not the one before); the form offers the build, then the game asked for starts.
      const asked = store.ticket("table");
      noGame(`No game yet: ${error.message}.`);
      import("./tables.js").then((tables) => tables.offerBuild(error, () => asked() && !get().view, () => startGame(spec, specs, seedText)));
      return;
    }
    if (get().view) {
      set({ line: null, pending: null });
      if (error instanceof ApiError && error.away) unsent("The new game", () => startGame(spec, specs, seedText));
      else say(problem(error));
    } else {  // no game to go back to: the status says why, alone (no busy dot beside a wait)
      const why = problem(error);
      set({ line: { text: why ? `No game yet: ${why}.` : "No game yet.", state: "waiting" }, pending: null });
      say("");
    }
  } finally {
    notice();
  }
}

// The busy flag, up while a request that changes the game is out (the board locked, the controls
// off), down however it ends; `idle()`, the guard every action asks first: a click is dropped.
async function withBusy(work) {
  set({ busy: true });
  try {
    return await work();
  } finally {
    set({ busy: false });
  }
}

const idle = () => !get().busy;

// A full server: the wait alone, in the status line (not a busy "Starting…" beside it).
function waiting(seconds, detail) {
  set({ line: { text: `The server is busy with other players' moves: trying again in ${seconds} s…`, state: "waiting" } });
  say("");
}

// Playing

async function sendMove(move) {
  if (reviewing()) { get().review?.play(move); return; }  // the analysis board's move
  const { view } = get();
  if (!view || !idle() || !view.human_to_move) return;  // dropped, never queued
  const notice = slowNotice([view.players[1 - view.to_move]], view.game);
  try {
    // Sent with its ply: a board another tab changed is refused with the game as it is (409), drawn.
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
    if (error instanceof ApiError && error.away) { unsent(`Your move ${move}`, () => sendMove(move)); return; }
    say(problem(error));  // the game's own words: the move and why it is illegal
  }
}

// A click made while the server is away did nothing there: said so, with the way to send it
// again (the banner says the server is away; this says what became of the click).
function unsent(what, again) {
  say(`${what} was not sent: the server is away, and nothing changed. `, "info unsent");
  $("message").append(el("button", { type: "button", id: "send-again", text: "Send it again",
    onclick: () => { say(""); again(); } }));
}

// A slow first move (az loads its network), said at once if the server's warm-up has not made the
// player yet, else after a timer.  `specs`: the players about to move; returns what ends it.
function slowNotice(specs, game) {
  const { games, warm } = get();  // warm: "kind game" the server has said is ready
  const known = games[game]?.players || [];
  const slow = specs
    .map((spec) => known.find((player) => player.name === String(spec || "").split(":")[0].trim()))
    .find((player) => player?.first_move_wait);
  if (!slow || warm.has(`${slow.name} ${game}`)) return () => {};
  const words = slow.first_move_wait;
  let over = false;
  const tell = () => { if (!over && !idle()) say(words, "info loading"); };
  const timer = setTimeout(tell, 1200);
  api("GET", "/api/warm-up").then(({ kinds }) => {
    const state = (kinds[slow.name] || {})[game];
    if (state === "ready") { set({ warm: new Set(get().warm).add(`${slow.name} ${game}`) }); clearTimeout(timer); } else if (state) tell();
  }).catch(() => { /* the timer says it */ });
  return () => {
    over = true;
    clearTimeout(timer);
    if ($("message").textContent === words) say("");
  };
}

// News from the live stream: a change made elsewhere is fetched and drawn (a request of this page
// in flight brings its own answer).
function onNews(news) {
  const { view } = get();
  if (!view || !idle()) return;
  if (!news.gone && news.moves.join(",") === view.moves.join(",") && news.over === view.over) return;
  refresh();
}

async function refresh() {
  const { view } = get();
  if (!view || !idle()) return;
  try {
    const fresh = await api("GET", `/api/games/${encodeURIComponent(view.id)}`);
    if (get().view !== view || !idle()) return;
    if (fresh.moves.join(",") !== view.moves.join(",") || fresh.over !== view.over) show(fresh);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && get().view === view) gone(error.message);
  }
}

// The move sent, drawn at once (the server decides if it stands), locked while the other thinks.
function showPending(view, move) {
  const width = view.square_names[0].length;
  const names = [];
  for (let i = 0; i < move.length; i += width) names.push(move.slice(i, i + width));
  // a column game's disc lands where the server said it would (its drops), not on a named square
  const squares = view.drops && move in view.drops ? [view.drops[move]] : names.map((n) => view.square_names.indexOf(n));
  const marks = view.board.split("");
  const mover = view.symbols[view.pawn_side ?? view.to_move];  // an Alternate drop places the other's pawn
  if (squares.length === 1) marks[squares[0]] = mover;
  else if (squares.length === 2) { marks[squares[1]] = marks[squares[0]]; marks[squares[0]] = "."; }
  const other = 1 - view.to_move;
  const thinking = view.humans[other] ? `${view.symbols[other]} to move` : `${playerName(view.players[other])} is thinking…`;
  set({ line: { text: thinking, state: "thinking" }, pending: { marks: marks.join(""), last: squares, locked: true, plies: view.moves.length + 1 } });
}

async function computerMove() {
  const { view } = get();
  if (!view || view.over || !idle()) { if (!view || view.over) stopAutoplay(); return; }
  const notice = slowNotice([view.players[view.to_move]], view.game);
  try {
    // Sent with its ply, as a move is: after another tab's move, the game as it is (409), drawn.
    const next = await withBusy(() => patiently("POST", `/api/games/${view.id}/advance`, { ply: view.moves.length }, waiting));
    notice();
    show(next);
  } catch (error) {
    notice();
    stopAutoplay();
    const fresh = error instanceof ApiError && error.status === 409 && error.data && error.data.game;
    if (fresh && fresh.id === view.id) { show(fresh); return; }
    if (error instanceof ApiError && error.away) { unsent("The computer's move", computerMove); return; }
    say(problem(error));
  }
}

function toggleAutoplay() {
  if (get().autoplay) { stopAutoplay(); return; }
  set({ autoplay: setInterval(computerMove, 350) });
}

function stopAutoplay() {
  clearInterval(get().autoplay);
  set({ autoplay: null });
}

async function takeBack() {
  const { view } = get();
  if (!view || !idle()) return;
  try {
    show(await withBusy(() => api("POST", `/api/games/${view.id}/takeback`)));
    say("Taken back.", "info");
  } catch (error) {
    if (error instanceof ApiError && error.away) unsent("Take back", takeBack); else say(problem(error));
  }
}

async function resign() {
  const { view, resignArmed } = get();
  if (!view || !idle() || view.over) return;
  if (!resignArmed) {  // two clicks: a resignation is not undone
    $("resign").textContent = "⚑ Really resign?";
    set({ resignArmed: setTimeout(() => { set({ resignArmed: null }); $("resign").textContent = "⚑ Resign"; }, 4000) });
    return;
  }
  clearTimeout(resignArmed);
  set({ resignArmed: null });
  $("resign").textContent = "⚑ Resign";
  try {
    show(await withBusy(() => api("POST", `/api/games/${view.id}/resign`)));
    say("");  // the last move's line goes: the status says the game ended
  } catch (error) {
    if (error instanceof ApiError && error.away) unsent("Your resignation", () => { set({ resignArmed: true }); resign(); });
    else say(problem(error));
  }
}

// What the page shows

function show(view, options = {}) {
  const before = get().view;
  const wasOver = before && before.id === view.id && before.over;
  const decisions = options.fresh ? {} : { ...get().decisions };
  for (const event of view.events || []) if (event.decision) decisions[event.side] = event.decision;
  const flipped = !before || before.game !== view.game ? remembered(`flipped.${view.game}`, false) : get().flipped;
  const moved = !before || before.id !== view.id || before.moves.length !== view.moves.length;
  set({ view, flipped, decisions, analysis: null, line: null, pending: null, gone: false, ...(moved ? { peek: null } : {}) });
  follow(view.id, onNews, refresh);
  const computerEvents = (view.events || []).filter((e) => !e.human);
  if (computerEvents.length) {
    const last = computerEvents[computerEvents.length - 1];
    say(last.move ? playedText(view, last) : `${playerName(last.by)} resigned: its box is empty.`, "info");
  }
  if (view.over) stopAutoplay();
  refreshAnalysis();
  if (options.fresh || (view.over && !wasOver)) refreshChart(view);
  // A game resumed while its computer was to move (a restart in the middle of its thought).
  if (view.computer_to_move && view.humans.some(Boolean) && idle()) computerMove();
}

// "thesis played 22", or where it put down the other side's pawn (Teeko's Alternate drops),
// "alphabeta put your pawn on 10": whose pawn, read off the board.
function playedText(view, event) {
  const name = playerName(event.by);
  const square = view.square_names.indexOf(event.move);
  const mark = square < 0 ? null : view.board[square];
  if (mark === null || mark === "." || mark === view.symbols[event.side]) return `${name} played ${event.move}.`;
  const yours = view.humans.filter(Boolean).length === 1 && view.humans[view.symbols.indexOf(mark)];
  return `${name} put ${yours ? "your" : `${mark}'s`} pawn on ${event.move}.`;
}

// The game's own lines: its players, its form's title and rules, its moves (none: no game).
function drawGame({ view, games, foreign }) {
  if (!view) { $("players-line").textContent = ""; $("moves").replaceChildren(); return; }
  const info = games[view.game];
  const names = view.players.map((spec, side) => (view.humans[side] && view.humans.filter(Boolean).length === 1 ? "You" : playerName(spec)));
  const title = formTitle(view.game, view.spec, info.options);
  // Each side with its own mark as the board draws it: which colour is yours is never a guess.
  const seat = (side) => el("span", { class: "seat-name", "data-side": String(side) }, mark(view, side), `${names[side]} (${view.symbols[side]})`);
  $("players-line").replaceChildren(...(foreign ? [] : [seat(0), " vs ", seat(1), ` · ${title}`]));
  document.title = `${title} · gamelearn`;
  $("rules-title").textContent = `Rules of ${title}`;
  $("rules-text").textContent = view.rules || info.rules;
  const changed = differences(view.spec, info.options);
  $("rules-form").hidden = changed.length === 0;
  $("rules-form").replaceChildren(...changed.map(([option, value]) =>
    el("li", {}, el("strong", { text: `${option.name}=${value}` }), `: ${option.help}`)));
  drawMoves(view);
}

// The board: the review's position, else the game in play (`pending`: drawn before the answer);
// emptied when the page has no game (`gone`).
function drawBoard({ view, reviewModel, pending, gone, peek }) {
  if (reviewModel && !pending) board.render(boardModel(view || { id: "shared", moves: [] }, reviewModel));
  else if (view && peek && peek.answer && lookback && !pending) board.render(boardModel(view, lookback.peekModel(peek)));
  else if (view) board.render(boardModel(view, pending || {}));
  else if (gone) { $("board").replaceChildren(); $("board").dataset.id = ""; }
}

// The status line: the page's own `line`, else what a game from elsewhere is (`foreign`), else the
// server's words and the mark of the side to move.
function drawStatus({ view, busy, autoplay, line, foreign, reviewModel, peek }) {
  if (line) { $("status").textContent = line.text; $("status").dataset.state = line.state; return; }
  // The review's position, or an earlier one of the game in play: the line says which, and who
  // moves there (not the game's end).
  if (reviewModel && reviewModel.status) { $("status").textContent = reviewModel.status; $("status").dataset.state = "review"; return; }
  if (foreign) { $("status").textContent = foreign; return; }
  if (view && peek && lookback) { $("status").textContent = lookback.peekText(view, peek); $("status").dataset.state = "review"; return; }
  if (!view) return;
  const computers = !view.humans[0] && !view.humans[1];
  const state = view.over ? "over" : view.human_to_move ? "your-move" : computers && !autoplay && !busy ? "paused" : "thinking";
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
  const { analysis, busy, flipped } = get();
  const values = analysis && analysis.available && analysis.for === view.moves.length
    ? Object.fromEntries(Object.entries(analysis.moves).map(([m, e]) => [m, e.value])) : null;
  const model = Object.assign({
    id: view.id, game: view.game, rows: view.rows, columns: view.columns, names: view.square_names,
    marks: view.board, last: view.last_squares, win: view.winning_squares || [],
    legal: view.human_to_move ? view.legal_moves : [], interactive: view.human_to_move, locked: busy,
    flipped, values, arrow: [], plies: view.moves.length, over: view.over, drops: view.human_to_move ? view.drops : {},
  }, overrides);
  model.label = `${model.game} board, ${model.rows} by ${model.columns}; arrow keys move between squares, Enter plays`;
  return model;
}

function drawMoves(view) {
  const list = $("moves");
  list.replaceChildren(...view.moves.map((m, i) => el("li", { "data-move": m, "data-ply": String(i + 1), text: `${view.symbols[i % 2]} ${m}` })));
  list.scrollTop = list.scrollHeight;
}

// Looking back through the game in play, and the values line under the board: lookback.js,
// loaded when first wanted (a key, « ‹, "Show perfect values").
let lookback = null;
const looking = () => import("./lookback.js").then((module) => (lookback = module));
const lookAt = (ply) => looking().then((module) => module.peekAt(ply));
const showHint = () => { if ($("analysis-toggle").checked) looking().then((module) => module.drawHint(get())); };

function stepKeys(event) {
  const { view, peek } = get();
  if (!view || reviewing() || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = /** @type {any} */ (event.target);
  if (target && target.closest && target.closest("input, select, textarea, #board, [contenteditable], #setup, #right")) return;
  const now = peek ? peek.ply : view.moves.length;
  const to = { ArrowLeft: now - 1, ArrowRight: now + 1, Home: 0, ArrowUp: 0, End: Infinity, ArrowDown: Infinity }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  lookAt(to);
}


function setControls({ view, busy, flipped, autoplay, peek }) {
  const has = Boolean(view);
  const someone = has && view.humans.some(Boolean);
  $("takeback").hidden = !someone;
  $("takeback").disabled = !has || busy || !view.can_take_back;
  $("resign").hidden = !someone || view.over;
  $("resign").disabled = busy;
  $("rematch").disabled = !has || busy;
  $("flip").disabled = !has;
  $("flip").setAttribute("aria-pressed", flipped ? "true" : "false");
  $("review-open").disabled = !has || view.moves.length === 0;
  const at = peek ? peek.ply : has ? view.moves.length : 0;
  $("moves-first").disabled = $("moves-prev").disabled = at === 0;
  $("moves-next").disabled = $("moves-now").disabled = !peek;
  const computers = has && !view.humans[0] && !view.humans[1];
  $("step").hidden = !computers || view.over;
  $("autoplay").hidden = !computers || view.over;
  $("autoplay").textContent = autoplay ? "Pause" : "Play it out";
}

// The review, loaded when it is first opened.
const reviewing = () => !$("review").hidden;

async function loadReview() {
  if (!get().review) {
    const { Review } = await import("./review.js");
    if (!get().review) set({ review: new Review(leaveReview, () => get().games) });
  }
  set({ peek: null });
  return get().review;
}

async function openReview(source, info) {
  (await loadReview()).open(source, info);
}

// "Open a record…", any time (before the first move too): the file is read and opened in the
// review, which says in plain words what was wrong with one it cannot open.
async function openRecordFile() {
  const input = $("record-file");
  const file = input.files && input.files[0];
  input.value = "";  // the same file can be chosen again
  if (!file) return;
  const { view, games } = get();
  (await loadReview()).openFile(file, view ? games[view.game] : null);
}

// The review closed: on a shared game's page (no game of its own), a game of one's own starts.
function leaveReview() {
  const { view, shared } = get();
  if (!view && shared) {
    const name = lastGame();  // the person's own last game and players, as a first visit gets
    set({ shared: false });
    choose(name, playersFor(name), formFor(name));
    startGame(chosenGame(), chosenSpecs());
  }
}

// Analysis: the perfect player's value of each move

async function refreshAnalysis() {
  const { view } = get();
  const on = $("analysis-toggle").checked;
  $("analysis").hidden = !on;
  if (!on || !view || view.over) { set({ analysis: null }); showHint(); return; }
  let analysis;
  try {
    analysis = await api("GET", `/api/games/${view.id}/analysis`);
  } catch (error) {
    analysis = { available: false, reason: problem(error), moves: {} };
  }
  if (get().view !== view) return;
  set({ analysis: { ...analysis, for: view.moves.length } });
}

init().catch((error) => say(problem(error) && `The page could not start: ${error.message}`));
