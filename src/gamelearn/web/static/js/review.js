// @ts-check
// The review of a finished game (or any game this browser kept), move by move: each position's
// exact value on a bar, each move graded against the perfect player (best, keeps, mistake,
// blunder), the best move drawn on the board.  Teeko's review needs its solved table: where it is
// not built the panel says so and offers to build it, with a progress bar.  Over the list of moves,
// the evaluation graph (evalgraph.js) steps with it.  From any position the review is also an
// analysis board: another move played on the board (or picked in the panel) is sent with its line
// to the server (POST /api/analysis), which answers the position, its legal moves, their perfect
// values and the learner's own view; the line is kept as a variation in the move tree
// (movetree.js), drawn in the move list in brackets after the move it replaces.  main.js loads this
// module (and the graph) when a review is first opened, and hands it the moves made on the board.
//
// A finished game leaves the page as a text record (the format `gamelearn records` reads and
// writes): downloaded, opened from a file (the server replays and grades it), or shared as a
// read-only link (/?shared=TOKEN) that shows the game with the players' kinds and nothing of this
// browser.  A review's source is one of {game: id}, {record: id}, {shared: token}, {text, name}.
import { $, el, needStyle, playerName, say } from "./dom.js";
import { api, problem } from "./api.js";
import { EvalGraph } from "./evalgraph.js";
import { watchTable } from "./tables.js";
import { MoveTree, stepKey } from "./movetree.js";
import { drawAnalysis } from "./analysisboard.js";
import { capitalised, lossText, plural, positionText } from "./format.js";
import { store } from "./store.js";

await needStyle("/static/views.css");

const GRADE_TEXT = {
  best: "best",
  keeps: "keeps the result (not the quickest)",
  mistake: "mistake: a win thrown to a draw, or a draw to a loss",
  blunder: "blunder: a win thrown to a loss",
};

export class Review {
  // leave(): the review closed (the board is the game in play's again); games(): every game's
  // info, by name.
  constructor(leave, games) {
    this.leave = leave;
    this.games = games;
    this.data = null;
    this.at = 0;
    this.source = null;
    this.info = null;
    this.tree = new MoveTree([]);
    this.title = "";  // what the board shows, where it is not the game in play
    this.node = 0;           // the move tree's node shown
    this.trees = new Map();  // each reviewed game's tree, kept while the page lives
    this.boards = new Map(); // the server's answer for each line played ("4 0 8"), asked once
    this.graph = new EvalGraph((ply) => this.go(ply));
    $("review-moves").before(this.graph.root);
    $("review-close").addEventListener("click", () => this.close());
    $("review-first").addEventListener("click", () => this.goNode(this.tree.root));
    $("review-prev").addEventListener("click", () => this.goNode(this.tree.back(this.node)));
    $("review-next").addEventListener("click", () => this.goNode(this.tree.forward(this.node)));
    $("review-last").addEventListener("click", () => this.goNode(this.tree.end(this.node)));
    $("review-mainline").addEventListener("click", () => {
      this.goNode(this.tree.mainline(this.node));
      $("review").focus();  // the button hides on the main line: the arrow keys go on from here
    });
    // The keys of lichess's analysis board, wherever the focus is but on a control of its own
    // (the board's arrows move between its squares; a field or list keeps its keys).
    document.addEventListener("keydown", (event) => {
      if (!this.active || !this.data || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = /** @type {any} */ (event.target);
      if (target && target.closest && target.closest("input, select, textarea, #board, [contenteditable]")) return;
      const to = stepKey(this.tree, this.node, event.key);
      if (to === null) return;
      event.preventDefault();
      this.goNode(to);
    });
    $("records").addEventListener("change", () => {
      const id = $("records").value;
      if (id) this.open({ record: id }, this.info);
    });
    $("records").closest("label").after(recordTools());
    $("record-share").addEventListener("click", () => this.share());
    $("record-copy").addEventListener("click", () => this.copyLink());
    $("record-file-again").addEventListener("change", () => {
      const input = $("record-file-again"), file = input.files && input.files[0];
      input.value = "";  // the same file can be chosen again
      if (file) this.openFile(file, this.info);
    });
  }

  get active() { return !$("review").hidden; }

  async open(source, info) {
    this.source = source;
    this.info = info;
    $("review").hidden = false;
    $("review").dataset.state = "loading";
    $("review").dataset.source = source.shared ? "shared" : source.text !== undefined ? "text" : "own";
    $("review-close").textContent = source.shared ? "Start a game of your own" : "Back to the game";
    try {
      this.data = await fetchReview(source);
    } catch (error) {
      if (this.source !== source) return;  // another review was asked for meanwhile
      this.failed(source.text !== undefined ? recordProblem(error, source) : problem(error));
      return;
    }
    if (this.source !== source) return;
    $("record-tools").dataset.failed = "no";
    // The reviewed game's info (board, square names, symbols): a record opened from a file or a
    // shared link need not be of the game in play.
    this.info = this.games()[this.data.game] || info;
    // A form of another size than the game's own (connect4:columns=5,rows=4) is drawn at its size.
    if (this.data.rows) this.info = { ...this.info, rows: this.data.rows, columns: this.data.columns, square_names: this.data.square_names };
    // A game from elsewhere (a file, a link) says above the board what it is, in place of the
    // game in play's status; the game in play's own review needs no such line.
    const players = (this.data.players || []).map(playerName).join(" vs ");
    this.title = source.shared ? `A shared ${this.data.spec} game: ${players}`
      : source.text !== undefined ? `A ${this.data.spec} record${source.name ? ` (${source.name})` : ""}: ${players}` : "";
    this.listRecords();
    this.drawRecordTools();
    const key = `${this.data.spec} ${this.data.moves.join(" ")} ${this.data.record || this.data.id}`;
    if (!this.trees.has(key)) this.trees.set(key, new MoveTree(this.data.moves));
    this.tree = this.trees.get(key);
    // Without the solved table there are no grades, but the board still plays and the learner
    // still shows its view (the analysis board asks the server for the rules, not the table).
    if (!this.data.available) { this.unavailable(); this.drawMoves(); this.go(this.data.moves.length); return; }
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
    this.leave();
  }

  // A position on the board, over the game in play (the store's `reviewModel`: what the board
  // draws; a game from elsewhere says what it is above it, `foreign`); null: the game in play.
  show(model) {
    $("eval").hidden = !model;
    $("eval-text").hidden = !model;
    document.body.dataset.reviewing = model ? "yes" : "no";
    document.body.dataset.foreign = model && this.title ? "yes" : "no";
    if (!model) store.set({ reviewModel: null, foreign: "" });
    else store.set(this.title ? { reviewModel: model, foreign: this.title, line: null } : { reviewModel: model });
  }


  // Download, share and open: what the source allows (a game still in play has no record yet).
  drawRecordTools() {
    const source = this.source, download = $("record-download");
    const href = recordHref(source);
    const ready = Boolean(href) && source.over !== false;
    download.setAttribute("aria-disabled", ready ? "false" : "true");
    download.setAttribute("href", ready ? href : "#");
    download.setAttribute("download", source.name || "");
    $("record-share").hidden = !(source.game || source.record);
    $("record-share").disabled = !ready;
    $("record-caption").textContent = !ready
      ? "The record can be downloaded and shared once the game is over."
      : source.shared ? "A shared game: anyone with the link sees this review, and nothing of the browser that shared it."
      : "A text anyone can read, and gamelearn can replay and grade (gamelearn review FILE).";
    if (source.shared) this.showLink(`${location.origin}/?shared=${encodeURIComponent(source.shared)}`);
    else $("record-link").hidden = true;
  }

  async share() {
    const source = this.source;
    const path = source.record ? `/api/records/${encodeURIComponent(source.record)}/share` : `/api/games/${encodeURIComponent(source.game)}/share`;
    try {
      const link = await api("POST", path);
      if (this.source !== source) return;
      this.showLink(`${location.origin}/?shared=${encodeURIComponent(link.token)}`);
      say("The link shows this game's review to anyone who opens it.", "info");
    } catch (error) { say(problem(error)); }
  }

  showLink(url) {
    $("record-link").hidden = false;
    $("record-link-url").value = url;
  }

  async copyLink() {
    const input = $("record-link-url");
    input.select();
    try { await navigator.clipboard.writeText(input.value); say("Link copied.", "info"); }
    catch (error) { say("Select the link and copy it (the browser did not let the page copy it).", "info"); }
  }

  // A record file chosen by the person (from the page's controls, any time): read here, replayed
  // and graded by the server.  A file that is no text (a picture, a program) is said so here.
  async openFile(file, info) {
    if (info && !this.info) this.info = info;
    const text = await file.text();
    if (/[\u0000\uFFFD]/.test(text)) {  // a NUL, or bytes that are no UTF-8: not a text file
      this.source = { text: "", name: file.name };
      $("review").hidden = false;
      this.failed(`${file.name} is not a game record: it is not a text file. A record is the text gamelearn writes ` +
        "(Download the record, or gamelearn records export).");
      $("review").focus();
      return;
    }
    await this.open({ text, name: file.name, size: file.size }, this.info);
  }

  // A record that could not be opened: nothing of what was shown before stays (its board, its
  // title, its moves), and the summary says what was wrong.
  failed(why) {
    this.data = null;
    this.title = "";
    this.node = 0;
    $("review").dataset.state = "failed";
    $("review").dataset.line = "main";
    $("review-summary").textContent = why;
    for (const id of ["review-moves", "analysis-moves"]) $(id).replaceChildren();
    $("review-caption").textContent = "";
    $("review-position").textContent = "";
    $("review-mainline").hidden = true;
    $("review-table").hidden = true;
    $("record-tools").dataset.failed = "yes";
    $("records").closest("label").hidden = true;
    this.graph.draw(null);
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
      select.closest("label").hidden = records.length === 0;  // nothing kept yet: nothing to pick
    } catch (error) { /* the list is a convenience; the review itself is shown */ }
  }

  unavailable() {
    const data = this.data;
    $("review").dataset.state = "unavailable";
    this.graph.draw(null);
    $("review-summary").textContent = "No review for this game yet: it is graded against the game's solved table, which this server has not built. " +
      "Its moves can still be stepped through and other moves tried on the board, without perfect values.";
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

  // The main line as graded moves, each side in its own column (the first side's on the left,
  // whatever came before); each variation in brackets, on a row of its own after the move it
  // could have replaced (a variation inside one nested in its brackets).  A row a variation cut
  // short leaves its first column empty ("…"), as lichess writes it.
  drawMoves() {
    const data = this.data, info = this.info;
    const items = [];
    let column = 0;  // the next free column of the row: 0 (a new row), 1 (the first side's is taken)
    this.tree.line().forEach((item, i) => {
      const ply = data.plies[i] || { side: this.sideOf(item.id), move: item.move, grade: "" };  // ungraded: no table
      const side = ply.side === 1 ? 1 : 0;
      if (side === 1 && column === 0) items.push(el("li", { class: "gap", "aria-hidden": "true", text: "…" }));
      column = side === 0 ? 1 : 0;
      const graded = ply.grade ? `, ${ply.grade}` : "";
      items.push(el("li", { class: `grade-${ply.grade} side-${side}`, "data-ply": String(i + 1), "data-grade": ply.grade, "data-node": String(item.id), "data-side": String(side) },
        el("button", { type: "button", onclick: () => this.go(i + 1), "aria-label": `move ${i + 1}: ${info.symbols[ply.side]} ${ply.move}${graded}` },
          el("span", { class: "mv", text: `${info.symbols[ply.side]} ${ply.move}` }),
          ply.grade ? el("span", { class: `badge ${ply.grade}`, text: badge(ply.grade) }) : null)));
      if (item.variations.length) {
        items.push(el("li", { class: "variations" }, ...item.variations.map((line) => this.variation(line))));
        column = 0;  // the main line goes on on a row of its own
      }
    });
    $("review-moves").replaceChildren(...items);
    if (!data.available) return;  // the summary says why there are no grades
    // The yardstick first (the value kept where a move could lose it), then every move's grade.
    const counts = (data.grades || []).map((c, side) => {
      const m = (data.measure || [])[side];
      const kept = m && m.positions ? `kept the value in ${m.keeps} of ${m.positions} positions where a move could lose it; ` : "";
      return `${info.symbols[side]} (${playerName(data.players[side])}): ${kept}${c.best} best, ${c.keeps} keeps, ${plural(c.mistake, "mistake")}, ${plural(c.blunder, "blunder")}`;
    });
    $("review-summary").textContent = counts.join(" · ");
  }

  variation(line) {
    const parts = [];
    for (const item of line) {
      const symbol = this.info.symbols[this.sideOf(item.id)];
      parts.push(el("button", { type: "button", class: "node", "data-node": String(item.id), onclick: () => this.goNode(item.id),
        "aria-label": `variation, move ${item.ply}: ${symbol} ${item.move}`, text: `${item.ply}. ${symbol} ${item.move}` }));
      for (const inner of item.variations) parts.push(this.variation(inner));
    }
    return el("span", { class: "variation" }, "(", ...parts, ")");
  }

  // A ply of the main line (the graph and the lists name plies).
  go(at) {
    const data = this.data;
    if (!data) return;
    this.goNode(this.tree.mainAt(Math.max(0, Math.min(data.moves.length, at))));
  }

  goNode(id) {
    const data = this.data;
    if (!data) return;
    this.node = id;
    const main = this.tree.isMain(id);
    const ply = this.tree.node(id).ply;
    this.at = main ? ply : this.tree.node(this.tree.mainline(id)).ply;
    for (const item of $("review-moves").querySelectorAll("[data-node]")) {
      const here = Number(item.dataset.node) === id;
      item.classList.toggle("current", here);
      if (here) item.setAttribute("aria-current", "true"); else item.removeAttribute("aria-current");
    }
    const current = $("review-moves").querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
    $("review-mainline").hidden = main;
    $("review").dataset.line = main ? "main" : "variation";
    const answer = this.boards.get(this.key(id));
    if (main && data.available) this.drawMain(ply); else this.drawAnswered(id, answer, main);
    this.graph.draw(data, this.at, this.info.symbols);
    drawAnalysis($("analysis-moves"), answer ? named(answer, data) : null, this.info.symbols, (move) => this.play(move));
    if (!answer) this.analyse(id);
  }

  // The answer's key: the game as reviewed (its form, its players) and the node's line.
  key(id) { return this.lineKey(this.tree.path(id)); }

  lineKey(line) { return `${this.data.spec}|${(this.data.players || []).join(",")}|${line.join(" ")}`; }

  // Who played the node's move: the side to move before it, as the server said.
  sideOf(id) {
    const node = this.tree.node(id);
    const before = node.parent === null ? null : this.boards.get(this.key(node.parent));
    return before && before.to_move !== null ? before.to_move : (node.ply - 1) % 2;
  }

  // The server's answer for the node's line, asked once; drawn if the node is still the one shown.
  async analyse(id) {
    const line = this.tree.path(id), data = this.data;
    try {
      const answer = await api("POST", "/api/analysis", { game: data.spec || data.game, moves: line, players: seated(data) });
      this.boards.set(this.lineKey(line), answer);
      if (this.data === data && this.node === id) this.goNode(id);
    } catch (error) {
      if (this.data === data && this.node === id) $("analysis-moves").replaceChildren(el("p", { class: "caption", text: problem(error) }));
    }
  }

  // A move tried from the position shown: the server plays it (or says why not) and the line is
  // kept in the tree (the game's own move is its main line's node).
  async play(move) {
    const data = this.data, from = this.node;
    if (!data) return;
    const line = [...this.tree.path(from), move];
    let answer = this.boards.get(this.lineKey(line));
    if (!answer) {
      try {
        answer = await api("POST", "/api/analysis", { game: data.spec || data.game, moves: line, players: seated(data) });
      } catch (error) { say(problem(error)); return; }
      if (this.data !== data || this.node !== from) return;  // the review moved on meanwhile
      this.boards.set(this.lineKey(line), answer);
    }
    say("");
    const id = this.tree.add(from, move);
    this.drawMoves();
    this.goNode(id);
  }

  // The board, bar and caption of a main-line position, from the review; the analysis adds the
  // legal moves and their values once it comes.
  drawMain(at) {
    const data = this.data, info = this.info;
    const position = data.positions[at];
    const ply = at > 0 ? data.plies[at - 1] : null;
    this.bar(position);
    let caption = `Start: ${positionText(position, info.symbols)}.`;
    if (ply) {
      const better = ply.grade === "best" || ply.grade === "keeps" ? "" : ` ${bestText(ply.best)}`;
      const what = lossText(data.positions[at - 1].value, position.value, ply.side);
      const grade = ply.grade === "mistake" || ply.grade === "blunder" ? `${ply.grade}: ${what}` : GRADE_TEXT[ply.grade];
      caption = `Move ${at}: ${info.symbols[ply.side]} ${ply.move}, ${grade}.${better}`;
    }
    $("review-caption").textContent = caption;
    $("review-caption").dataset.grade = ply ? ply.grade : "";
    $("review-position").textContent = `${at} / ${data.plies.length}`;
    this.show(this.model(this.node, {
      board: position.board,
      last: ply ? ply.squares : [],
      arrow: ply && ply.grade !== "best" && ply.grade !== "keeps" ? ply.best_squares : [],
      win: position.winning_squares || [],
      plies: at,
      status: this.statusText(`Move ${at} of ${data.plies.length}`, position.over, position.value, position.to_move),
    }));
  }

  // The status line over the board while it shows a position of the review: which one, and who
  // is to move there or how it ended (not the game in play's end).
  statusText(where, over, value, toMove) {
    const symbols = this.info.symbols;
    const now = !over ? `${symbols[toMove]} to move` : value > 0 ? `${symbols[0]} won` : value < 0 ? `${symbols[1]} won` : "a draw";
    return `${this.title ? `${this.title} · ` : ""}${where}: ${now}`;
  }

  // A variation's position (or, without the solved table, any position), all from the server's
  // answer for its line.
  // Its caption is the main line's: the grade, which loss a mistake made (from the values before
  // and after it) and the best moves there, drawn as an arrow.
  drawAnswered(id, answer, main) {
    const info = this.info, node = this.tree.node(id);
    const before = node.parent === null ? null : this.boards.get(this.key(node.parent));
    const perfect = before && before.perfect && before.perfect.available ? before.perfect : null;
    const entry = perfect && perfect.moves[node.move];
    const grade = entry && entry.grade ? entry.grade : "";
    const side = node.parent === null ? 0 : this.sideOf(id);
    if (answer && answer.value !== undefined) this.bar({ value: answer.value, distance: answer.distance, over: answer.over });
    else if (answer) this.bar(null);
    let graded = grade ? `, ${GRADE_TEXT[grade] || grade}` : "";
    const lost = (grade === "mistake" || grade === "blunder") && answer && answer.value !== undefined && before.value !== undefined;
    if (lost) graded = `, ${grade}: ${lossText(before.value, answer.value, side)}`;
    const best = perfect && grade !== "best" && grade !== "keeps" ? bestOf(before.legal_moves, perfect.moves) : [];
    const better = best.length ? ` ${bestText(best)}` : "";
    const what = node.parent === null ? "Start" : `${main ? "Move" : "Variation, move"} ${node.ply}: ${info.symbols[side]} ${node.move}${graded}`;
    $("review-caption").textContent = `${what}.${better}`;
    $("review-caption").dataset.grade = grade;
    $("review-position").textContent = main ? `${node.ply} / ${this.data.moves.length}` : `variation, move ${node.ply}`;
    if (!answer) return;
    const where = node.parent === null ? "The start" : main ? `Move ${node.ply} of ${this.data.moves.length}` : `Variation, move ${node.ply}`;
    const value = answer.over ? (answer.winner === null ? 0 : answer.winner === 0 ? 1 : -1) : 0;
    this.show(this.model(id, {
      board: answer.board, last: answer.last_squares, win: answer.winning_squares || [], plies: node.ply,
      arrow: best.length ? perfect.moves[best[0]].squares || [] : [],
      status: this.statusText(where, answer.over, value, answer.to_move),
    }));
  }

  // The bar: the exact value from the first player's side (full: it wins, half: a draw); null:
  // no exact value here (no solved table), said so.
  bar(position) {
    const data = this.data;
    if (!position) {
      $("eval-fill").style.height = "50%";
      $("eval").dataset.value = "";
      $("eval-text").textContent = "No exact value: the game's solved table is not built";
      $("eval").setAttribute("aria-label", "no exact value");
      return;
    }
    const share = position.value > 0 ? 100 : position.value < 0 ? 0 : 50;
    $("eval-fill").style.height = `${share}%`;
    $("eval").dataset.value = String(position.value);
    $("eval").dataset.game = data.game;
    const text = capitalised(positionText(position, this.info.symbols));
    $("eval-text").textContent = text;
    $("eval").setAttribute("aria-label", text);
  }

  // What the board draws (board.js's model, over the game in play's): the position of the
  // reviewed game, with the moves the analysis says can be tried from it.
  model(id, position) {
    const answer = this.boards.get(this.key(id)), info = this.info;
    const perfect = answer && answer.perfect;
    const values = perfect && perfect.available ? Object.fromEntries(Object.entries(perfect.moves).map(([m, e]) => [m, e.value])) : null;
    const legal = (answer && answer.legal_moves) || [];
    // The line under the board ("Show perfect values") reads this position too, in the game's
    // move order.
    const hint = answer ? { over: answer.over, mover: answer.over ? "" : info.symbols[answer.to_move], other: answer.over ? "" : info.symbols[1 - answer.to_move],
      available: Boolean(perfect && perfect.available), reason: perfect ? perfect.reason : "",
      moves: perfect && perfect.available ? legal.map((move) => [move, perfect.moves[move]]) : [] } : null;
    return {
      game: info.name, rows: info.rows, columns: info.columns, names: info.square_names, id: `review-${id}`,
      marks: position.board, last: position.last, win: position.win, legal, interactive: legal.length > 0,
      locked: false, values, arrow: position.arrow, plies: position.plies, over: false, status: position.status, hint,
      drops: (answer && answer.drops) || {},
    };
  }
}

// The players as the analysis board seats them: a record's people (names, not kinds) as human.
function seated(data) {
  return data.seats && data.seats.length ? data.seats : data.players || [];
}

// The answer with the seat named as the record names its player ("Ana", not "human").
function named(answer, data) {
  const seat = (answer.learners || [])[0];
  const people = data.seats || [];
  if (!seat || !people.length || people[seat.side] === (data.players || [])[seat.side]) return answer;
  const name = data.players[seat.side];
  return { ...answer, learners: [{ ...seat, name, none: `${name} has no view of its own: a person, who keeps no knowledge here` }] };
}

// The best moves of a position from its values (each move's grade against the best there).
function bestOf(legal, moves) {
  return (legal || Object.keys(moves)).filter((move) => moves[move] && moves[move].grade === "best");
}

// "12 s so far, about 15 s left": the time left read off the progress made in the time taken.
// The best moves, all of them: the board draws the first in green.
function bestText(best) {
  if (!best || !best.length) return "";
  if (best.length === 1) return `Best was ${best[0]} (in green on the board).`;
  const listed = `${best.slice(0, -1).join(", ")} or ${best[best.length - 1]}`;
  return `Best was one of ${listed} (${best[0]} is drawn in green).`;
}

// The panel's part for the game as a text record: download, share a link, open a file.
function recordTools() {
  return el("section", { id: "record-tools", class: "record-tools", "aria-labelledby": "record-tools-title" },
    el("h3", { id: "record-tools-title", text: "The game as a record" }),
    el("p", { id: "record-caption", class: "caption" }),
    el("div", { class: "record-actions" },
      el("a", { id: "record-download", class: "button-link", href: "#", download: "", text: "Download the record" }),
      el("button", { id: "record-share", type: "button", text: "Share a link" }),
      // The page's own "Open a record…" is under the board, set aside while a review fills it.
      el("label", { class: "record-open button-link" }, "Open another record…",
        el("input", { id: "record-file-again", type: "file", accept: ".txt,text/plain" }))),
    el("div", { id: "record-link", class: "record-link", hidden: true },
      el("input", { id: "record-link-url", type: "text", readonly: true, "aria-label": "the link to this game, for anyone to open" }),
      el("button", { id: "record-copy", type: "button", text: "Copy" })));
}

// What went wrong opening a record's text, in plain words: a file too big (the size limit in
// KB, read off the server's 413), a text that is no record (the server's line and reason).
export function recordProblem(error, source) {
  const name = source.name || "The record";
  if (error && error.status === 413) {
    const limit = /(\d+) bytes/.exec(String(error.message));
    const most = limit ? ` this server opens records of up to ${Math.floor(Number(limit[1]) / 1024)} KB` : ` ${error.message}`;
    const size = source.size ? ` (${Math.ceil(source.size / 1024).toLocaleString("en")} KB)` : "";
    return `${name} is too big to be a game record${size}:${most}. A record is a short text: a game's tags and moves.`;
  }
  if (error && error.status === 400) return `${name} could not be opened as a game record: ${error.message}.`;
  return problem(error);
}

// The review of a source: a game of this browser, a kept record, a shared link or a record's text.
function fetchReview(source) {
  if (source.shared) return api("GET", `/api/shared/${encodeURIComponent(source.shared)}`);
  if (source.text !== undefined) return api("POST", "/api/records/review", source.text);
  if (source.record) return api("GET", `/api/records/${encodeURIComponent(source.record)}/review`);
  return api("GET", `/api/games/${encodeURIComponent(source.game)}/review`);
}

// Where the source's text record is served; a text opened here is offered back as it was read.
function recordHref(source) {
  if (source.shared) return `/api/shared/${encodeURIComponent(source.shared)}/record`;
  if (source.text !== undefined) return URL.createObjectURL(new Blob([source.text], { type: "text/plain" }));
  if (source.record) return `/api/records/${encodeURIComponent(source.record)}/record`;
  return `/api/games/${encodeURIComponent(source.game)}/record`;
}

function badge(grade) {
  return { best: "✓", keeps: "=", mistake: "?", blunder: "??" }[grade] || grade;
}
