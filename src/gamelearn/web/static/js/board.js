// @ts-check
// The board: squares as a grid (arrow keys move the focus, Enter or Space picks), a pawn picked by
// a click or dragged to its square, the legal targets of the picked pawn dotted, the last move,
// the winning line and (in a review) the best move drawn as an arrow.  It knows no rule: the legal
// moves come from the server, and a move is the squares' names put together.  In a game whose
// moves are columns (Connect Four) a click anywhere in a column, or the column's number on the
// keyboard, plays it: the server says where each column's disc lands (the model's `drops`).
import { el, svgEl } from "./dom.js";
import { valueClass, valueSign } from "./format.js";

// The games whose moves name a column, not a square (web/views.py COLUMN_GAMES).
const COLUMN_GAMES = new Set(["connect4"]);

export class Board {
  constructor(root, onMove, onRefused) {
    this.root = root;
    this.onMove = onMove;          // (move) => void
    this.onRefused = onRefused;    // (text) => void: a click the legal moves refuse
    this.model = null;
    this.selected = null;
    this.focus = 0;                // the square that has the keyboard focus
    this.drag = null;
    this.suppressClick = false;
    this.preview = null;           // the square a disc would land on, in the column under the pointer
    root.setAttribute("role", "grid");
    root.addEventListener("keydown", (event) => this.key(event));
    root.addEventListener("pointerdown", (event) => this.pointerDown(event));
    window.addEventListener("pointermove", (event) => this.pointerMove(event));
    window.addEventListener("pointerup", (event) => this.pointerUp(event));
    root.addEventListener("pointerover", (event) => this.showDrop(event));
    root.addEventListener("pointerleave", () => this.showDrop(null));
  }

  // A column game: moves are columns, and the rows are never turned over (discs fall down).
  byColumns() { return Boolean(this.model) && COLUMN_GAMES.has(this.model.game); }

  // The legal move (a column) whose disc lands in the board's column `c`, per the server's drops.
  columnMove(c) {
    const drops = this.model.drops || {};
    return Object.keys(drops).find((move) => drops[move] % this.model.columns === c) ?? null;
  }

  // model: {id, game, rows, columns, names, marks, last, win, legal, interactive, locked, flipped,
  //         values (square -> value) | null, arrow (squares) | null, plies, over, label,
  //         drops (a column game's legal move -> the square its disc lands on)}
  render(model) {
    const keepFocus = this.root.contains(document.activeElement);
    if (!this.model || this.model.id !== model.id || this.model.plies !== model.plies) this.selected = null;
    this.model = model;
    const root = this.root;
    root.dataset.game = model.game;
    root.dataset.id = model.id || "";
    root.dataset.plies = String(model.plies);
    root.dataset.over = model.over ? "yes" : "no";
    root.dataset.locked = model.locked ? "yes" : "no";
    root.dataset.flipped = model.flipped ? "yes" : "no";
    root.dataset.moves = this.byColumns() ? "columns" : "squares";
    root.setAttribute("aria-label", model.label || "board");
    root.setAttribute("aria-busy", model.locked ? "true" : "false");
    // Rows as well as columns share the square board: a row never grows past it (and is cut).
    root.style.gridTemplateColumns = `repeat(${model.columns}, minmax(0, 1fr))`;
    root.style.gridTemplateRows = `repeat(${model.rows}, minmax(0, 1fr))`;
    root.style.aspectRatio = `${model.columns} / ${model.rows}`;  // square squares on any board
    this.preview = null;
    const targets = this.targets();
    const rows = [];
    for (let vr = 0; vr < model.rows; vr++) {
      const row = el("div", { class: "row", role: "row" });
      for (let vc = 0; vc < model.columns; vc++) {
        const sq = this.squareAt(vr, vc);
        row.append(this.square(sq, vr, vc, targets));
      }
      rows.push(row);
    }
    root.replaceChildren(...rows, this.overlay());
    if (keepFocus) this.focusSquare(this.focus);
  }

  // Turned over for the second player's view, but never a column game's: its discs fall down.
  flipped() { return this.model.flipped && !this.byColumns(); }

  squareAt(vr, vc) {
    const m = this.model;
    const r = this.flipped() ? m.rows - 1 - vr : vr;
    const c = this.flipped() ? m.columns - 1 - vc : vc;
    return r * m.columns + c;
  }

  visualOf(sq) {
    const m = this.model;
    const r = Math.floor(sq / m.columns), c = sq % m.columns;
    return this.flipped() ? [m.rows - 1 - r, m.columns - 1 - c] : [r, c];
  }

  square(sq, vr, vc, targets) {
    const m = this.model;
    const mark = m.marks[sq];
    const name = m.names[sq];
    const classes = ["square"];
    if ((vr + vc) % 2) classes.push("dark");
    if (m.last.includes(sq)) classes.push("last");
    if (m.win.includes(sq)) classes.push("winning");
    if (this.selected === sq) classes.push("selected");
    if (targets.has(sq)) classes.push("target");
    const what = mark === "." ? "empty" : mark;
    const columns = this.byColumns();
    const column = sq % m.columns;
    // A column game's square by its column (the move's number) and its row from the bottom.
    const said = columns ? `column ${column + 1}, row ${m.rows - Math.floor(sq / m.columns)}` : name;
    const target = columns ? ", your disc lands here" : ", a legal target";
    const button = el("button", {
      class: classes.join(" "), type: "button", role: "gridcell", tabindex: sq === this.focus ? "0" : "-1",
      "data-square": String(sq), "data-name": name, "data-mark": mark, "data-column": String(column),
      "aria-label": `${said}: ${what}${m.win.includes(sq) ? ", winning" : ""}${targets.has(sq) ? target : ""}`,
      "aria-selected": this.selected === sq ? "true" : "false",
      onclick: () => this.click(sq),
      onfocus: () => { this.focus = sq; },
    });
    // A column game names its columns along the bottom row (the moves), no square of its own.
    if (!columns) button.append(el("span", { class: "name", text: name, "aria-hidden": "true" }));
    else if (vr === m.rows - 1) button.append(el("span", { class: "name column-name", text: String(column + 1), "aria-hidden": "true" }));
    if (mark !== ".") {
      if (m.game === "tictactoe") button.append(el("span", { class: `piece-${mark}`, text: mark, "aria-hidden": "true" }));
      else button.append(el("span", { class: `pawn pawn-${mark}`, "aria-hidden": "true" }));
    }
    if (targets.has(sq)) button.append(el("span", { class: "dot", "aria-hidden": "true" }));
    const value = this.valueAt(sq);
    if (value !== null) button.append(el("span", { class: `value ${valueClass(value)}`, text: valueSign(value) }));
    return button;
  }

  // The arrow of a review's best move (or a ring for a placement), over the board.
  overlay() {
    const m = this.model;
    const svg = svgEl("svg", { class: "overlay", viewBox: `0 0 ${m.columns} ${m.rows}`, "aria-hidden": "true", preserveAspectRatio: "none" });
    if (m.arrow && m.arrow.length) {
      const centre = (sq) => { const [r, c] = this.visualOf(sq); return [c + 0.5, r + 0.5]; };
      if (m.arrow.length === 1) {
        const [x, y] = centre(m.arrow[0]);
        svg.append(svgEl("circle", { class: "best", cx: x, cy: y, r: 0.36 }));
      } else {
        const [x1, y1] = centre(m.arrow[0]), [x2, y2] = centre(m.arrow[1]);
        const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
        const ux = dx / len, uy = dy / len;
        const tipX = x2 - ux * 0.18, tipY = y2 - uy * 0.18;
        const baseX = tipX - ux * 0.3, baseY = tipY - uy * 0.3;
        svg.append(svgEl("line", { class: "best", x1, y1, x2: baseX, y2: baseY }));
        svg.append(svgEl("polygon", {
          class: "best-head",
          points: `${tipX},${tipY} ${baseX - uy * 0.2},${baseY + ux * 0.2} ${baseX + uy * 0.2},${baseY - ux * 0.2}`,
        }));
      }
      svg.dataset.best = m.arrow.map((sq) => m.names[sq]).join("");
    }
    return svg;
  }

  width() { return this.model.names[0].length; }

  isPlacement() {
    const legal = this.model.legal;
    return legal.length > 0 && legal.every((move) => move.length === this.width());
  }

  movable(sq) {
    const name = this.model.names[sq];
    return this.model.legal.some((move) => move.length > this.width() && move.startsWith(name));
  }

  targets() {
    const m = this.model, found = new Set();
    if (!m || !m.interactive) return found;
    if (this.byColumns()) {
      for (const sq of Object.values(m.drops || {})) found.add(sq);
      return found;
    }
    if (this.selected !== null) {
      const from = m.names[this.selected];
      for (const move of m.legal) {
        if (move.length > this.width() && move.startsWith(from)) found.add(m.names.indexOf(move.slice(this.width())));
      }
    }
    return found;
  }

  valueAt(sq) {
    const m = this.model;
    if (!m.values) return null;
    const name = m.names[sq];
    if (this.byColumns()) {  // a column's value on the square its disc would land on
      const move = Object.keys(m.drops || {}).find((key) => m.drops[key] === sq);
      return move !== undefined && move in m.values ? m.values[move] : null;
    }
    if (this.isPlacement()) return name in m.values ? m.values[name] : null;
    if (this.selected === null) return null;
    const move = m.names[this.selected] + name;
    return move in m.values ? m.values[move] : null;
  }

  click(sq) {
    if (this.suppressClick) { this.suppressClick = false; return; }
    const m = this.model;
    this.focus = sq;
    if (!m || !m.interactive) return;
    if (m.locked) return;  // the computer is thinking: a click now is dropped, never queued
    const name = m.names[sq];
    if (this.byColumns()) { this.dropIn(sq % m.columns); return; }
    if (this.isPlacement()) { this.onMove(name); return; }
    if (this.selected === sq) { this.selected = null; this.render(m); return; }
    if (this.selected !== null) {
      const move = m.names[this.selected] + name;
      if (m.legal.includes(move) || !this.movable(sq)) {
        const from = this.selected;
        this.selected = null;
        this.onMove(m.names[from] + name);
        return;
      }
    }
    if (!this.movable(sq)) { this.onRefused("Pick one of your pawns that can move."); return; }
    this.selected = sq;
    this.onRefused("");
    this.render(m);
  }

  // A disc dropped in the board's column `c` (from 0): the column's move, where the server lists one.
  dropIn(c) {
    const move = this.columnMove(c);
    if (move === null) { this.onRefused(`No disc can go in column ${c + 1}: pick another.`); return; }
    this.onRefused("");
    this.onMove(move);
  }

  // The square a disc would land on in the column under the pointer, shown faintly.
  showDrop(event) {
    const m = this.model;
    const square = event && event.target.closest && event.target.closest(".square");
    let sq = null;
    if (square && m && m.interactive && !m.locked && this.byColumns()) {
      const move = this.columnMove(Number(square.dataset.column));
      sq = move === null ? null : m.drops[move];
    }
    if (sq === this.preview) return;
    for (const button of this.root.querySelectorAll(".square.preview")) button.classList.remove("preview");
    this.preview = sq;
    if (sq !== null) {
      const target = this.root.querySelector(`.square[data-square="${sq}"]`);
      if (target) target.classList.add("preview");
    }
  }

  // Keyboard: arrows move the focus across the board (as it is drawn), Home/End to the row's ends;
  // in a column game a column's number drops a disc there.
  key(event) {
    const m = this.model;
    if (!m) return;
    if (this.byColumns() && /^[1-9]$/.test(event.key) && Number(event.key) <= m.columns && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      if (m.interactive && !m.locked) this.dropIn(Number(event.key) - 1);
      return;
    }
    const [r, c] = this.visualOf(this.focus);
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Home: [0, -c], End: [0, m.columns - 1 - c] };
    const step = moves[event.key];
    if (!step) { if (event.key === "Escape" && this.selected !== null) { this.selected = null; this.render(m); } return; }
    event.preventDefault();
    const vr = Math.min(m.rows - 1, Math.max(0, r + step[0]));
    const vc = Math.min(m.columns - 1, Math.max(0, c + step[1]));
    this.focusSquare(this.squareAt(vr, vc));
  }

  focusSquare(sq) {
    this.focus = sq;
    for (const button of this.root.querySelectorAll(".square")) {
      button.tabIndex = Number(button.dataset.square) === sq ? 0 : -1;
    }
    const target = this.root.querySelector(`.square[data-square="${sq}"]`);
    if (target) target.focus();
  }

  // Drag and drop, with the pointer: a pawn that can move is carried to its square.
  pointerDown(event) {
    const m = this.model;
    const square = event.target.closest && event.target.closest(".square");
    if (!m || !square || !m.interactive || m.locked || this.isPlacement() || event.button !== 0) return;
    const sq = Number(square.dataset.square);
    if (!this.movable(sq)) return;
    this.drag = { from: sq, x: event.clientX, y: event.clientY, ghost: null };
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.ghost && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 6) {
      const pawn = this.root.querySelector(`.square[data-square="${drag.from}"] .pawn`);
      if (!pawn) { this.drag = null; return; }
      const box = pawn.getBoundingClientRect();
      drag.ghost = pawn.cloneNode(true);
      drag.ghost.classList.add("ghost");
      drag.ghost.style.width = `${box.width}px`;
      drag.ghost.style.height = `${box.height}px`;
      document.body.append(drag.ghost);
      if (this.selected !== drag.from) { this.selected = drag.from; this.render(this.model); }
    }
    if (drag.ghost) {
      drag.ghost.style.left = `${event.clientX}px`;
      drag.ghost.style.top = `${event.clientY}px`;
    }
  }

  pointerUp(event) {
    const drag = this.drag;
    this.drag = null;
    if (!drag || !drag.ghost) return;
    drag.ghost.remove();
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const square = /** @type {HTMLElement | null} */ (under && under.closest(".square"));
    const m = this.model;
    if (!square || !this.root.contains(square) || m.locked) return;
    const to = Number(square.dataset.square);
    if (to === drag.from) return;
    this.selected = null;
    this.onMove(m.names[drag.from] + m.names[to]);
  }
}
