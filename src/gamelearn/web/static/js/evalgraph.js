// @ts-check
// The review's evaluation graph, as lichess's analysis board draws one, but exact: each position's
// value with best play (the server's review, from the first player's side) and its distance, move
// by move, with each move's grade mark (? a mistake, ?? a blunder).  A win is drawn higher the
// nearer it is (a win in 1 at the top); a draw on the middle line.  Clicking a point (or Enter on
// it) goes to that move.
import { el, svgEl, svgText } from "./dom.js";
import { positionText } from "./format.js";

const WIDTH = 320, HEIGHT = 120, LEFT = 34, RIGHT = 8, TOP = 8, BOTTOM = 8;
const MARK = { mistake: "?", blunder: "??" };

// The height of a position in -1..1: the value, scaled so that a nearer win stands higher.
export function height(position, farthest) {
  if (!position.value) return 0;
  const distance = position.over ? 0 : Math.max(1, position.distance || 1);
  return position.value * (1 - 0.5 * (distance / Math.max(1, farthest)));
}

export class EvalGraph {
  // go(ply): shows that ply of the review; the caller puts `root` where it goes.
  constructor(go) {
    this.root = el("figure", { id: "eval-graph", class: "eval-graph", hidden: true });
    this.caption = el("figcaption", { class: "caption" });
    this.go = go;
    this.key = null;
  }

  draw(data, at, symbols) {
    if (!data || !data.available) { this.root.hidden = true; this.key = null; return; }
    this.root.hidden = false;
    this.root.dataset.at = String(at);
    const key = `${data.game}|${data.moves.join(" ")}|${data.record || data.id}`;
    if (key !== this.key) { this.key = key; this.build(data, symbols); }
    const cursor = this.root.querySelector(".cursor");
    if (cursor) { const x = this.x(at); cursor.setAttribute("x1", x); cursor.setAttribute("x2", x); }
    for (const dot of this.root.querySelectorAll(".point")) dot.classList.toggle("current", Number(dot.dataset.ply) === at);
  }

  x(ply) { return LEFT + (ply / Math.max(1, this.plies)) * (WIDTH - LEFT - RIGHT); }
  y(h) { return TOP + (1 - h) / 2 * (HEIGHT - TOP - BOTTOM); }

  build(data, symbols) {
    const positions = data.positions;
    this.plies = positions.length - 1;
    const farthest = Math.max(1, ...positions.map((p) => (p.over ? 0 : p.distance || 0)));
    const svg = svgEl("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "group", "aria-label": "the exact value after each move" });
    svg.append(svgEl("rect", { class: "band first", x: LEFT, y: TOP, width: WIDTH - LEFT - RIGHT, height: (HEIGHT - TOP - BOTTOM) / 2 }));
    svg.append(svgEl("rect", { class: "band second", x: LEFT, y: this.y(0), width: WIDTH - LEFT - RIGHT, height: (HEIGHT - TOP - BOTTOM) / 2 }));
    svg.append(svgEl("line", { class: "zero", x1: LEFT, x2: WIDTH - RIGHT, y1: this.y(0), y2: this.y(0) }));
    svg.append(svgText(`${symbols[0]} wins`, { class: "axis", x: 2, y: TOP + 9 }));
    svg.append(svgText("draw", { class: "axis", x: 2, y: this.y(0) + 4 }));
    svg.append(svgText(`${symbols[1]} wins`, { class: "axis", x: 2, y: HEIGHT - BOTTOM }));
    const points = positions.map((p, i) => [this.x(i), this.y(height(p, farthest))]);
    svg.append(svgEl("polyline", { class: "value-line", points: points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ") }));
    svg.append(svgEl("line", { class: "cursor", x1: 0, x2: 0, y1: TOP, y2: HEIGHT - BOTTOM }));
    const step = (WIDTH - LEFT - RIGHT) / Math.max(1, this.plies);
    positions.forEach((position, i) => {
      const ply = i > 0 ? data.plies[i - 1] : null;
      const grade = ply ? ply.grade : "start";
      const value = positionText(position, symbols);
      const label = ply ? `move ${i}: ${symbols[ply.side]} ${ply.move}, ${grade}; ${value}` : `the start: ${value}`;
      // The target is the whole column of a ply, so a finger finds it on a phone.
      const hit = svgEl("rect", { class: "hit", x: (points[i][0] - step / 2).toFixed(1), y: 0, width: step.toFixed(1), height: HEIGHT,
        "data-ply": String(i), tabindex: "0", role: "button", "aria-label": label });
      hit.addEventListener("click", () => this.go(i));
      hit.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); this.go(i); } });
      svg.append(hit);
      svg.append(svgEl("circle", { class: `point grade-${grade}`, cx: points[i][0].toFixed(1), cy: points[i][1].toFixed(1), r: MARK[grade] ? 4 : 2.6, "data-ply": String(i), "data-grade": grade }));
      if (MARK[grade]) {
        const above = points[i][1] > HEIGHT / 2 ? -7 : 14;
        svg.append(svgText(MARK[grade], { class: `mark grade-${grade}`, x: (points[i][0] - 4).toFixed(1), y: (points[i][1] + above).toFixed(1) }));
      }
    });
    const marks = data.plies.filter((p) => MARK[p.grade]).length;
    this.caption.textContent = `The exact value after each move (higher: ${symbols[0]} wins sooner; lower: ${symbols[1]} does)` +
      `${marks ? `; ? a mistake, ?? a blunder` : ""}. Click a point to go to that move.`;
    this.root.replaceChildren(svg, this.caption);
  }
}
