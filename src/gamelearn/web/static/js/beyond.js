// @ts-check
// Beyond playing: moves that animate, a service worker, and the folded training panel, which
// follows the game in play and loads training.js when opened (docs/web.md, "Beyond").
import { $, el, playerName } from "./dom.js";
import { api } from "./api.js";
import { animateMoves } from "./motion.js";
import { store } from "./store.js";

export function installBeyond() {
  animateMoves($("board"));
  // The training panel follows the game in play (a new game, a game opened from the address).
  const follow = () => followTraining(store.get().view);
  store.subscribe(["view"], follow);
  follow();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => { /* offline use is a bonus */ });
}

async function followTraining(view) {
  const { training } = store.get();
  if (training.module) { training.module.followGame(view); return; }
  const panel = view && (view.learners || [])[0];
  const key = panel ? `${view.game} ${panel.kind}` : null;
  if (key === training.key) return;  // a new game of the same learner: the panel stays as it is
  store.set({ training: { ...training, key } });
  const current = store.ticket("training");
  const root = trainingPanel();
  // Only a learner that trains from the page here is asked its training (Teeko's, az's train with
  // gamelearn train: asking would be a 400 in every Teeko page's log).
  const kind = panel && (store.get().games[view.game]?.players || []).find((player) => player.name === panel.kind);
  if (!panel || !kind || !kind.trains) { root.hidden = true; return; }
  let status;
  try {
    status = await api("GET", `/api/learners/${panel.kind}/training?game=${encodeURIComponent(view.game)}`);
  } catch (error) {
    if (current()) root.hidden = true;  // a learner that trains elsewhere (Teeko's, az)
    return;
  }
  if (!current() || store.get().training.module) return;
  $("training-title").textContent = `Train ${playerName(panel.kind)} (${view.symbols[panel.side]})`;
  root.dataset.kind = panel.kind;
  root.hidden = false;
  if (status.running) root.open = true;  // a run going on is shown (opening it loads the module)
}

function trainingPanel() {
  let root = $("training");
  if (root) return root;
  root = el("details", { id: "training", class: "panel", hidden: true },
    el("summary", {}, el("h2", { id: "training-title", class: "fold-title" })),
    el("div", { id: "training-body" }));
  $("chart-panel").before(root);
  root.addEventListener("toggle", async () => {
    if (!root.open || store.get().training.module) return;
    const module = await import("./training.js");
    store.set({ training: { ...store.get().training, module } });
    module.followGame(store.get().view);
  });
  return root;
}
