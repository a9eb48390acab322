// @ts-check
// Following the game live, and saying when the server is away.  The page opens a server-sent
// event stream of its game (GET /api/games/{id}/events); every change made elsewhere (another tab,
// another window) arrives on it within a moment, and the page redraws.  A quiet stream beats (an
// event `beat`, every 2 s), so the indicator beside the status says "live" only while an event or
// a beat came within the last STALE_MS; otherwise it says "reconnecting…", asks the server, and
// opens the stream again.  A server that does not answer gets one banner at the top ("can't reach
// the gamelearn server; retrying") within 10 s of going away, and the page asks again until it
// answers; then the banner goes, whoever waits for it (`whenBack`) goes on, and the page catches up.
import { $ } from "./dom.js";

const PROBE_MS = 2000;       // how often a server away is asked again
const STALE_MS = 5000;       // no event nor beat for this long: the stream is not live
const WATCH_MS = 500;        // how often the watchdog looks
const ASK_MS = 3000;         // a server that has not answered a probe within this is away

/**
 * @typedef {{ply: number, moves: string[], over: boolean} | {gone: true}} News
 * @typedef {"live" | "reconnecting" | "off"} Indicated
 */

const live = {
  /** @type {EventSource | null} */ source: null,
  /** @type {string | null} */ id: null,
  /** @type {((news: News) => void) | null} */ onNews: null,
  /** @type {(() => void) | null} */ onBack: null,
  away: false,
  heard: 0,         // performance.now() of the last event or beat
  beats: 0,         // events and beats heard since the page opened (the indicator's data-heard)
  checking: false,  // a probe of a stale stream is out
  lastCheck: 0,
  /** @type {ReturnType<typeof setTimeout> | undefined} */ probe: undefined,
  /** @type {ReturnType<typeof setInterval> | undefined} */ watchdog: undefined,
  /** @type {Array<() => void>} */ waiting: [],
};

/** @param {Indicated} state */
function indicate(state) {
  const node = $("connection");
  if (!node) return;
  if (node.dataset.state === state) return;
  node.dataset.state = state;
  node.textContent = { live: "live", reconnecting: "reconnecting…", off: "" }[state];
  node.title = state === "live"
    ? "This page follows the game live: a move made in another tab shows here at once."
    : state === "reconnecting" ? "The page has heard nothing from the server for a few seconds and is trying again." : "";
}

/** Whether the page has found the server away (and shows the banner). */
export const isAway = () => live.away;

/** A promise that settles once the server answers again (at once where it is not away). */
export function whenBack() {
  if (!live.away) return Promise.resolve();
  return new Promise((resolve) => { live.waiting.push(() => resolve(undefined)); });
}

/** Whether the server answers within ASK_MS. */
async function answers() {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ASK_MS);
  try {
    await fetch("/", { method: "HEAD", cache: "no-store", signal: stop.signal });
    return true;
  } catch (error) {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

// A request failed for want of the server: say so once, and ask again until it answers.
export function serverAway() {
  if (live.away) return;
  live.away = true;
  $("offline").hidden = false;
  document.body.dataset.away = "yes";
  indicate("reconnecting");
  const ask = async () => {
    if (await answers()) serverBack(); else live.probe = setTimeout(ask, PROBE_MS);
  };
  clearTimeout(live.probe);
  live.probe = setTimeout(ask, PROBE_MS);
}

// The server answered: the banner goes, the stream is opened again, the page catches up.
export function serverBack() {
  if (!live.away) return;
  live.away = false;
  clearTimeout(live.probe);
  $("offline").hidden = true;
  document.body.dataset.away = "no";
  if (live.id) open();  // a stream that looked open while the server was away may be a dead socket
  if (live.onBack) live.onBack();
  for (const resume of live.waiting.splice(0)) resume();
}

/**
 * Follow game `id`: `onNews(news)` after every change; `onBack()` once the server answers again
 * after being away.  null: follow nothing.
 * @param {string | null} id
 * @param {(news: News) => void} [onNews]
 * @param {() => void} [onBack]
 */
export function follow(id, onNews, onBack) {
  live.onNews = onNews || null;
  live.onBack = onBack || null;
  if (id === live.id && live.source && live.source.readyState !== EventSource.CLOSED) return;
  live.id = id;
  open();
}

function heard() {
  live.heard = performance.now();
  live.beats += 1;
  const node = $("connection");
  if (node) node.dataset.heard = String(live.beats);
  indicate("live");
  serverBack();
}

function open() {
  if (live.source) live.source.close();
  live.source = null;
  if (!live.id) { indicate("off"); clearInterval(live.watchdog); live.watchdog = undefined; return; }
  const id = live.id;
  const source = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  live.source = source;
  live.heard = performance.now();  // a new stream has STALE_MS to say something
  source.addEventListener("beat", () => { if (live.source === source) heard(); });
  source.addEventListener("game", (event) => {
    if (live.source !== source) return;
    heard();
    if (live.id !== id || !live.onNews) return;
    try { live.onNews(JSON.parse(event.data)); } catch (error) { /* a garbled event: the next one will do */ }
  });
  if (live.watchdog === undefined) live.watchdog = setInterval(watch, WATCH_MS);
}

// Silence for STALE_MS, whatever the socket says: not live.  The server is asked; away, the
// banner; there, the stream is opened again (a stream refused, stalled or cut off by a proxy).
async function watch() {
  const now = performance.now();
  if (!live.id || live.away || now - live.heard < STALE_MS) return;
  indicate("reconnecting");
  if (live.checking || now - live.lastCheck < PROBE_MS) return;
  live.checking = true;
  live.lastCheck = now;
  try {
    if (!(await answers())) { serverAway(); return; }
    if (performance.now() - live.heard >= STALE_MS) open();
  } finally {
    live.checking = false;
  }
}
