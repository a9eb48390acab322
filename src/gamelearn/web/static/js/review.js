// @ts-check
// The review of a finished game (or any game this browser kept), move by move: each position's
// exact value on a bar, each move graded against the perfect player (best, keeps, mistake,
// blunder), the best move drawn on the board.  Teeko's review needs its solved table: where it is
// not built the panel says so and offers to build it, with a progress bar.  Over the list of moves,
// the evaluation graph (evalgraph.js) steps with it.  main.js loads this module (and the graph)
// when a review is first opened.
import { $, el, needStyle, playerName } from "./dom.js";
import { api, problem } from "./api.js";
import { EvalGraph } from "./evalgraph.js";
import { watchTable } from "./tables.js";
import { capitalised, lossText, plural, positionText } from "./format.js";

await needStyle("/static/views.css");

const GRADE_TEXT = {
  best: "best",
  keeps: "keeps the result (not the quickest)",
  mistake: "mistake: a win thrown to a draw, or a draw to a loss",
  blunder: "blunder: a win thrown to a loss",
};

export class Review {
  // show(model | null): draws a position on the board (null: back to the game in play).
  constructor(show) {
    this.show = show;
    this.data = null;
    this.at = 0;
    this.source = null;
    this.info = null;
    this.graph = new EvalGraph((ply) => this.go(ply));
    $("review-moves").before(this.graph.root);
    $("review-close").addEventListener("click", () => this.close());
    $("review-first").addEventListener("click", () => this.go(0));
    $("review-prev").addEventListener("click", () => this.go(this.at - 1));
    $("review-next").addEventListener("click", () => this.go(this.at + 1));
    $("review-last").addEventListener("click", () => this.go(this.data ? this.data.plies.length : 0));
    $("review").addEventListener("keydown", (event) => {
      if (event.target.closest && event.target.closest("select")) return;
      if (event.key === "ArrowLeft") { event.preventDefault(); this.go(this.at - 1); }
      if (event.key === "ArrowRight") { event.preventDefault(); this.go(this.at + 1); }
    });
    $("records").addEventListener("change", () => {
      const id = $("records").value;
      if (id) this.open({ record: id }, this.info);
    });
  }

  get active() { return !$("review").hidden; }

  async open(source, info) {
    this.source = source;
    this.info = info;
    $("review").hidden = false;
    $("review").dataset.state = "loading";
    const path = source.record ? `/api/records/${encodeURIComponent(source.record)}/review` : `/api/games/${encodeURIComponent(source.game)}/review`;
    try {
      this.data = await api("GET", path);
    } catch (error) {
      $("review-summary").textContent = problem(error);
      $("review").dataset.state = "failed";
      return;
    }
    this.listRecords();
    if (!this.data.available) { this.unavailable(); return; }
    $("review-table").hidden = true;
    $("review").dataset.state = "ready";
    this.drawMoves();
    this.go(this.data.plies.length);
    $("review").focus();
  }

  close() {
    $("review").hidden = true;
    this.data = null;
    this.show(null);
  }

  async listRecords() {
    try {
      const records = await api("GET", `/api/records?game=${encodeURIComponent(this.data.game)}`);
      const select = $("records");
      select.replaceChildren(el("option", { value: "", text: `Your ${this.data.game} games (${records.length})` }),
        ...records.map((r) => el("option", {
          value: String(r.id),
          text: `#${r.id} ${r.players.map(playerName).join(" vs ")}: ${r.winner === null ? "draw" : `${this.info.symbols[r.winner]} won`} (${r.plies} plies)`,
        })));
      if (this.source.record) select.value = String(this.source.record);
    } catch (error) { /* the list is a convenience; the review itself is shown */ }
  }

  unavailable() {
    const data = this.data;
    $("review").dataset.state = "unavailable";
    $("review-moves").replaceChildren();
    this.graph.draw(null);
    $("review-summary").textContent = "No review for this game yet: it is graded against the game's solved table, which this server has not built.";
    $("review-table").hidden = false;
    this.pollTable(false);
  }

  pollTable(start) {
    const game = this.data.spec || this.data.game;  // each form of Teeko has its own table
    const nodes = { status: $("table-status"), bar: $("table-progress"), button: $("table-build") };
    return watchTable(game, nodes, {
      start,
      otherwise: this.data.reason,
      stillWanted: () => Boolean(this.data) && (this.data.spec || this.data.game) === game,
      onReady: () => { if (this.source) this.open(this.source, this.info); },
    });
  }

  drawMoves() {
    const data = this.data, info = this.info;
    const items = data.plies.map((ply, i) => el("li", { class: `grade-${ply.grade}`, "data-ply": String(i + 1), "data-grade": ply.grade },
      el("button", { type: "button", onclick: () => this.go(i + 1), "aria-label": `move ${i + 1}: ${info.symbols[ply.side]} ${ply.move}, ${ply.grade}` },
        el("span", { class: "mv", text: `${info.symbols[ply.side]} ${ply.move}` }),
        el("span", { class: `badge ${ply.grade}`, text: badge(ply.grade) }))));
    $("review-moves").replaceChildren(...items);
    // The yardstick first (the value kept where a move could lose it), then every move's grade.
    const counts = (data.grades || []).map((c, side) => {
      const m = (data.measure || [])[side];
      const kept = m && m.positions ? `kept the value in ${m.keeps} of ${m.positions} positions where a move could lose it; ` : "";
      return `${info.symbols[side]} (${playerName(data.players[side])}): ${kept}${c.best} best, ${c.keeps} keeps, ${plural(c.mistake, "mistake")}, ${plural(c.blunder, "blunder")}`;
    });
    $("review-summary").textContent = counts.join(" · ");
  }

  go(at) {
    const data = this.data;
    if (!data || !data.available) return;
    this.at = Math.max(0, Math.min(data.plies.length, at));
    const position = data.positions[this.at];
    const ply = this.at > 0 ? data.plies[this.at - 1] : null;
    for (const item of $("review-moves").children) item.classList.toggle("current", Number(item.dataset.ply) === this.at);
    const current = $("review-moves").querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
    const info = this.info;
    // The bar: the exact value from the first player's side (full: it wins, half: a draw).
    const share = position.value > 0 ? 100 : position.value < 0 ? 0 : 50;
    $("eval-fill").style.height = `${share}%`;
    $("eval").dataset.value = String(position.value);
    $("eval").dataset.game = data.game;
    const text = capitalised(positionText(position, info.symbols));
    $("eval-text").textContent = text;
    $("eval").setAttribute("aria-label", text);
    let caption = `Start: ${positionText(position, info.symbols)}.`;
    if (ply) {
      const better = ply.grade === "best" || ply.grade === "keeps" ? "" : ` ${bestText(ply.best)}`;
      const what = lossText(data.positions[this.at - 1].value, position.value, ply.side);
      const grade = ply.grade === "mistake" || ply.grade === "blunder" ? `${ply.grade}: ${what}` : GRADE_TEXT[ply.grade];
      caption = `Move ${this.at}: ${info.symbols[ply.side]} ${ply.move}, ${grade}.${better}`;
    }
    $("review-caption").textContent = caption;
    $("review-caption").dataset.grade = ply ? ply.grade : "";
    $("review-position").textContent = `${this.at} / ${data.plies.length}`;
    this.show({
      board: position.board,
      last: ply ? ply.squares : [],
      arrow: ply && ply.grade !== "best" && ply.grade !== "keeps" ? ply.best_squares : [],
      win: position.winning_squares || [],
      plies: this.at,
    });
    this.graph.draw(data, this.at, info.symbols);
  }
}

// "12 s so far, about 15 s left": the time left read off the progress made in the time taken.
// The best moves, all of them: the board draws the first in green.
function bestText(best) {
  if (!best || !best.length) return "";
  if (best.length === 1) return `Best was ${best[0]} (in green on the board).`;
  const listed = `${best.slice(0, -1).join(", ")} or ${best[best.length - 1]}`;
  return `Best was one of ${listed} (${best[0]} is drawn in green).`;
}

function badge(grade) {
  return { best: "✓", keeps: "=", mistake: "?", blunder: "??" }[grade] || grade;
}
