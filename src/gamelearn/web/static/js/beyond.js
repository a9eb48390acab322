// @ts-check
// What the page has beyond playing, as lichess, teeko.cc and mscroggs' MENACE have it: moves that
// animate, training a learner from the page, and a service worker so that the page opens
// offline.  main.js calls installBeyond once, with a way to read the game in play.  The training
// panel is folded: training.js (its form, bar, chart and every box) is loaded when it is first
// opened, or at once while a run goes on; until then this module only asks the server whether
// the learner at the table trains there.
import { $, el, playerName } from "./dom.js";
import { api } from "./api.js";
import { animateMoves } from "./motion.js";

const training = { module: null, key: null, token: 0 };

export function installBeyond({ view }) {
  animateMoves($("board"));
  // The training panel follows the game in play (a new game, a game opened from the address).
  const follow = () => followTraining(view(), view);
  new MutationObserver(follow).observe($("board"), { attributes: true, attributeFilter: ["data-id"] });
  follow();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => { /* offline use is a bonus */ });
}

async function followTraining(view, current) {
  if (training.module) { training.module.followGame(view); return; }
  const panel = view && (view.learners || [])[0];
  const key = panel ? `${view.game} ${panel.kind}` : null;
  if (key === training.key) return;  // a new game of the same learner: the panel stays as it is
  training.key = key;
  const token = ++training.token;
  const root = trainingPanel(current);
  if (!panel) { root.hidden = true; return; }
  let status;
  try {
    status = await api("GET", `/api/learners/${panel.kind}/training?game=${encodeURIComponent(view.game)}`);
  } catch (error) {
    if (training.token === token) root.hidden = true;  // a learner that trains elsewhere (Teeko's, az)
    return;
  }
  if (training.token !== token || training.module) return;
  $("training-title").textContent = `Train ${playerName(panel.kind)} (${view.symbols[panel.side]})`;
  root.dataset.kind = panel.kind;
  root.hidden = false;
  if (status.running) root.open = true;  // a run going on is shown (opening it loads the module)
}

function trainingPanel(current) {
  let root = $("training");
  if (root) return root;
  root = el("details", { id: "training", class: "panel", hidden: true },
    el("summary", {}, el("h2", { id: "training-title", class: "fold-title" })),
    el("div", { id: "training-body" }));
  $("chart-panel").before(root);
  root.addEventListener("toggle", async () => {
    if (!root.open || training.module) return;
    training.module = await import("./training.js");
    training.module.followGame(current());
  });
  return root;
}
