// @ts-check
// Moves animate: when the board is drawn again one or more plies on, the last move's piece slides
// from the square it left to the one it reached (a pawn's move, a capture), or a placed piece
// drops in; in a column game (Connect Four) the disc falls down its column from the top, faster
// as it falls.  It reads only the drawn board (its "last" squares, which is empty and which is not):
// no rule.  prefers-reduced-motion stops it (and, in theme.css, the thinking pulse).
// The board says where it stands for tests and the curious: data-animated is the ply count of the
// last move animated (or let through unanimated), data-moved how ("slid", "dropped" or "still"),
// data-motion "full" or "reduced"; data-moved is "fell" for a column game's disc.
const SLIDE_MS = 220;
const FALL_MS = 120;  // a fall of one square; a longer one takes as long as its square root (gravity)
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

export function animateMoves(board) {
  let seen = { id: board.dataset.id, plies: Number(board.dataset.plies || 0) };
  const mark = () => { board.dataset.motion = reduced.matches ? "reduced" : "full"; };
  mark();
  reduced.addEventListener("change", mark);
  new MutationObserver(() => {
    const id = board.dataset.id, plies = Number(board.dataset.plies || 0);
    const onward = id === seen.id && plies > seen.plies;
    const fresh = id !== seen.id || plies !== seen.plies;
    seen = { id, plies };
    if (!fresh) return;
    if (!onward || reduced.matches) { board.dataset.moved = "still"; board.dataset.animated = String(plies); return; }
    slide(board, plies);
  }).observe(board, { childList: true });
}

function slide(board, plies) {
  const last = [...board.querySelectorAll(".square.last")];
  const piece = (square) => square.querySelector(".pawn, [class^='piece-']");
  const to = last.find((square) => piece(square));
  const from = last.find((square) => !piece(square));
  const moving = to && piece(to);
  if (!moving) { board.dataset.moved = "still"; board.dataset.animated = String(plies); return; }
  let animation;
  if (from) {
    const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
    const dx = a.left + a.width / 2 - (b.left + b.width / 2), dy = a.top + a.height / 2 - (b.top + b.height / 2);
    animation = moving.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: SLIDE_MS, easing: "ease-out" });
  } else if (board.dataset.moves === "columns") {
    // From just over the column's top square down to where it rests: a fall of `squares` squares.
    const top = board.querySelector(`.square[data-column="${to.dataset.column}"]`) || to;
    const b = to.getBoundingClientRect();
    const dy = top.getBoundingClientRect().top - b.top - b.height * 0.5;
    const squares = Math.max(0.5, -dy / Math.max(1, b.height));
    animation = moving.animate([{ transform: `translateY(${dy}px)` }, { transform: "translateY(0)" }],
      { duration: FALL_MS * Math.sqrt(squares), easing: "cubic-bezier(0.55, 0, 1, 0.45)" });
  } else {
    animation = moving.animate([{ transform: "scale(0.4)", opacity: 0.2 }, { transform: "scale(1)", opacity: 1 }],
      { duration: SLIDE_MS, easing: "ease-out" });
  }
  board.dataset.moved = from ? "slid" : board.dataset.moves === "columns" ? "fell" : "dropped";
  board.dataset.animating = "yes";
  const done = () => { board.dataset.animating = "no"; board.dataset.animated = String(plies); };
  animation.finished.then(done, done);
}
