// @ts-check
// Following the game live (its event stream beats every 2 s: "live" is an event or a beat within
// STALE_MS), and saying when the server is away (docs/web.md, "Live tabs").
import { $ } from "./dom.js";
import { store } from "./store.js";

// Clocks in the stream's beats, as the served page says them (2 s by default).
const BEAT_MS = Number($("connection")?.dataset.beatMs) || 2000;
const PROBE_MS = BEAT_MS;        // how often a server away is asked again (2 s)
const STALE_MS = 2.5 * BEAT_MS;  // no event nor beat for this long: not live (5 s)
const ASK_MS = 1.5 * BEAT_MS;    // a probe unanswered this long: the server is away (3 s)
const WATCH_MS = BEAT_MS / 4;    // how often the silence is looked at (0.5 s)
const live = () => store.get().live;  // the stream, its timers, and whether the server is away
const update = (patch) => store.set({ live: { ...live(), ...patch } });

function indicate(state) {
  const node = $("connection");
  if (!node || node.dataset.state === state) return;
  node.dataset.state = state;
  node.textContent = { live: "live", reconnecting: "reconnecting…", off: "" }[state];
  node.title = state === "live" ? "This page follows the game live: a move made in another tab shows here at once." : "";
}

export const isAway = () => live().away;

// Settles once the server answers again (at once where it is not away).
export const whenBack = () => (isAway() ? new Promise((resolve) => update({ waiting: [...live().waiting, resolve] })) : Promise.resolve());

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
  if (isAway()) return;
  update({ away: true });
  $("offline").hidden = false;
  document.body.dataset.away = "yes";
  indicate("reconnecting");
  const ask = async () => { if (await answers()) serverBack(); else update({ probe: setTimeout(ask, PROBE_MS) }); };
  clearTimeout(live().probe);
  update({ probe: setTimeout(ask, PROBE_MS) });
}

// The server answered: the banner goes, the stream is opened again, the page catches up.
export function serverBack() {
  if (!isAway()) return;
  const { probe, id, onBack } = live();
  update({ away: false });
  clearTimeout(probe);
  $("offline").hidden = true;
  document.body.dataset.away = "no";
  if (id) open();  // a stream that looked open while the server was away may be a dead socket
  if (onBack) onBack();
  // The panels that asked the server while it was away (a learner's boxes, the chart) ask again.
  store.set({ back: store.get().back + 1 });
  const { waiting } = live();
  update({ waiting: [] });
  for (const resume of waiting) resume();
}

// Follow game `id`: `onNews({ply, moves, over} | {gone})` after every change; `onBack()` once the
// server answers again after being away.  null: follow nothing.
export function follow(id, onNews = null, onBack = null) {
  const { source } = live();
  update({ onNews, onBack });
  if (id === live().id && source && source.readyState !== EventSource.CLOSED) return;
  update({ id });
  open();
}

function heard() {
  const beats = live().beats + 1;
  update({ heard: performance.now(), beats });
  $("connection").dataset.heard = String(beats);
  indicate("live");
  serverBack();
}

function open() {
  const { source: old, id, watchdog } = live();
  if (old) old.close();
  if (!id) { indicate("off"); clearInterval(watchdog); update({ source: null, watchdog: 0 }); return; }
  const source = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  update({ source, heard: performance.now() });  // a new stream has STALE_MS to say something
  source.addEventListener("beat", () => { if (live().source === source) heard(); });
  source.addEventListener("game", (event) => {
    if (live().source !== source) return;
    heard();
    const { id: now, onNews } = live();
    if (now !== id || !onNews) return;
    try { onNews(JSON.parse(event.data)); } catch (error) { /* a garbled event: the next one will do */ }
  });
  if (!watchdog) update({ watchdog: setInterval(watch, WATCH_MS) });
}

// Silence for STALE_MS, whatever the socket says (refused, stalled, cut by a proxy): not live.
// The server is asked: away, the banner; there, the stream is opened again.
async function watch() {
  const now = performance.now(), { id, away, heard: last, checking, lastCheck } = live();
  if (!id || away || now - last < STALE_MS) return;
  indicate("reconnecting");
  if (checking || now - lastCheck < PROBE_MS) return;
  update({ checking: true, lastCheck: now });
  try {
    if (!(await answers())) serverAway();
    else if (performance.now() - live().heard >= STALE_MS) open();
  } finally {
    update({ checking: false });
  }
}
