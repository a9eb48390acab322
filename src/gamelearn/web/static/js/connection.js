// @ts-check
// Following the game live, and saying when the server is away.  The page opens a server-sent
// event stream of its game (GET /api/games/{id}/events): every change made elsewhere (another
// tab) arrives on it at once.  A quiet stream beats (an event `beat` every 2 s), so "live" means
// an event or a beat came within STALE_MS; otherwise the page says "reconnecting…", asks the
// server and opens the stream again.  A server that does not answer gets one banner within 10 s,
// and is asked again until it answers; then the banner goes and `whenBack()` waiters go on.
import { $ } from "./dom.js";

const PROBE_MS = 2000;  // how often a server away is asked again
const STALE_MS = 5000;  // no event nor beat for this long: not live
const ASK_MS = 3000;    // a probe unanswered this long: the server is away
const live = {
  source: null, id: null, onNews: null, onBack: null, away: false, heard: 0, beats: 0,
  checking: false, lastCheck: 0, probe: undefined, watchdog: undefined, waiting: [],
};

function indicate(state) {
  const node = $("connection");
  if (!node || node.dataset.state === state) return;
  node.dataset.state = state;
  node.textContent = { live: "live", reconnecting: "reconnecting…", off: "" }[state];
  node.title = state === "live" ? "This page follows the game live: a move made in another tab shows here at once." : "";
}

export const isAway = () => live.away;

// Settles once the server answers again (at once where it is not away).
export const whenBack = () => (live.away ? new Promise((resolve) => live.waiting.push(resolve)) : Promise.resolve());

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
  const ask = async () => { if (await answers()) serverBack(); else live.probe = setTimeout(ask, PROBE_MS); };
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

// Follow game `id`: `onNews({ply, moves, over} | {gone})` after every change; `onBack()` once the
// server answers again after being away.  null: follow nothing.
export function follow(id, onNews = null, onBack = null) {
  live.onNews = onNews;
  live.onBack = onBack;
  if (id === live.id && live.source && live.source.readyState !== EventSource.CLOSED) return;
  live.id = id;
  open();
}

function heard() {
  live.heard = performance.now();
  $("connection").dataset.heard = String(++live.beats);
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
  if (live.watchdog === undefined) live.watchdog = setInterval(watch, 500);
}

// Silence for STALE_MS, whatever the socket says (refused, stalled, cut by a proxy): not live.
// The server is asked: away, the banner; there, the stream is opened again.
async function watch() {
  const now = performance.now();
  if (!live.id || live.away || now - live.heard < STALE_MS) return;
  indicate("reconnecting");
  if (live.checking || now - live.lastCheck < PROBE_MS) return;
  live.checking = true;
  live.lastCheck = now;
  try {
    if (!(await answers())) serverAway();
    else if (performance.now() - live.heard >= STALE_MS) open();
  } finally {
    live.checking = false;
  }
}
