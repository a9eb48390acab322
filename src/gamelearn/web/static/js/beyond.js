// What the page has beyond playing, as lichess, teeko.cc and mscroggs' MENACE have it: the
// review's evaluation graph, moves that animate, training a learner from the page, and a service
// worker so that the page opens offline.  main.js calls installBeyond once, with the review and
// a way to read the game in play; everything else here follows the page's own state.
import { $ } from "./dom.js";
import { EvalGraph } from "./evalgraph.js";
import { animateMoves } from "./motion.js";
import { followGame } from "./training.js";

export function installBeyond({ review, view }) {
  animateMoves($("board"));
  // The graph sits in the review, over its list of moves, and steps with it.
  const graph = new EvalGraph((ply) => review.go(ply));
  $("review-moves").before(graph.root);
  const go = review.go.bind(review);
  review.go = (at) => { go(at); graph.draw(review.data, review.at, review.info ? review.info.symbols : ["X", "O"]); };
  const unavailable = review.unavailable.bind(review);
  review.unavailable = () => { unavailable(); graph.draw(null); };
  // The training panel follows the game in play (a new game, a game opened from the address).
  const follow = () => followGame(view());
  new MutationObserver(follow).observe($("board"), { attributes: true, attributeFilter: ["data-id"] });
  follow();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => { /* offline use is a bonus */ });
}
