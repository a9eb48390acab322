// Following the game live, and saying when the server is away.  The page opens a server-sent
// event stream of its game (GET /api/games/{id}/events); every change made elsewhere (another tab,
// another window) arrives on it within a moment, and the page redraws.  The indicator beside the
// status says "live" or "reconnecting…"; a server that cannot be reached gets one banner at the
// top ("can't reach the gamelearn server; retrying"), and the page retries until it answers.
import { $ } from "./dom.js";

const PROBE_MS = 2000;       // how often a server away is asked again
const SETTLE_MS = 1500;      // a stream that reopens within this is not worth a "reconnecting…"
const REOPEN_MS = 3000;      // a stream refused (an HTTP error) is opened again after this
const live = { source: null, id: null, onNews: null, onBack: null, away: false, probe: null, settle: null, reopen: null };

function indicate(state) {
  const node = $("connection");
  if (!node) return;
  node.dataset.state = state;
  node.textContent = { live: "live", reconnecting: "reconnecting…", off: "" }[state];
  node.title = state === "live" ? "This page follows the game live: a move made in another tab shows here at once." : "";
}

// A request failed for want of the server: say so once, and ask again until it answers.
export function serverAway() {
  if (live.away) return;
  live.away = true;
  $("offline").hidden = false;
  document.body.dataset.away = "yes";
  indicate("reconnecting");
  const ask = async () => {
    try {
      await fetch("/", { method: "HEAD", cache: "no-store" });
      serverBack();
    } catch (error) {
      live.probe = setTimeout(ask, PROBE_MS);
    }
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
}

// Follow game `id`: `onNews({ply, moves, over} | {gone})` after every change; `onBack()` once the
// server answers again after being away.  null: follow nothing.
export function follow(id, onNews, onBack) {
  live.onNews = onNews;
  live.onBack = onBack;
  if (id === live.id && live.source && live.source.readyState !== EventSource.CLOSED) return;
  live.id = id;
  open();
}

function open() {
  if (live.source) live.source.close();
  clearTimeout(live.reopen);
  live.source = null;
  if (!live.id) { indicate("off"); return; }
  const id = live.id;
  const source = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  live.source = source;
  source.addEventListener("open", () => {
    clearTimeout(live.settle);
    indicate("live");
    serverBack();
  });
  source.addEventListener("game", (event) => {
    if (live.id !== id || !live.onNews) return;
    try { live.onNews(JSON.parse(event.data)); } catch (error) { /* a garbled event: the next one will do */ }
  });
  source.addEventListener("error", () => {
    if (live.source !== source) return;
    // The stream ends every few seconds by design and the browser reopens it at once: only a
    // stream still not open after SETTLE_MS is a connection lost.
    clearTimeout(live.settle);
    live.settle = setTimeout(async () => {
      if (live.source !== source || source.readyState === EventSource.OPEN) return;
      indicate("reconnecting");
      try { await fetch("/", { method: "HEAD", cache: "no-store" }); } catch (error) { serverAway(); }
    }, SETTLE_MS);
    if (source.readyState === EventSource.CLOSED) {  // refused (a 404 or a 503): the browser gives up, the page does not
      live.reopen = setTimeout(() => { if (live.source === source) open(); }, REOPEN_MS);
    }
  });
}
