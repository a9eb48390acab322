// @ts-check
// The analysis board's move tree: a game's main line and every variation played from any of its
// positions, as lichess keeps them.  A node is a position, reached by its move from its parent;
// a node's first child continues its line, the others are variations.  Pure: no page, no rule
// (whether a move is legal is the server's say; the tree only keeps what was played).

/** @typedef {{id: number, parent: number | null, move: string, ply: number, children: number[], main: boolean}} MoveNode */
/** @typedef {{id: number, ply: number, move: string, variations: Line[]}} LineItem */
/** @typedef {LineItem[]} Line */

export class MoveTree {
  /** @param {string[]} mainLine the game's moves, from the start */
  constructor(mainLine) {
    /** @type {MoveNode[]} */
    this.nodes = [{ id: 0, parent: null, move: "", ply: 0, children: [], main: true }];
    let at = 0;
    for (const move of mainLine) at = this.add(at, move, true);
  }

  /** The root: the starting position. */
  get root() { return 0; }

  /** @param {number} id @returns {MoveNode} */
  node(id) {
    const found = this.nodes[id];
    if (!found) throw new RangeError(`no node ${id} in the move tree`);
    return found;
  }

  /**
   * The child of `parent` reached by `move`: the one there is, else a new one (a variation when
   * `parent` already has a child).
   * @param {number} parent @param {string} move @param {boolean} [main] @returns {number}
   */
  add(parent, move, main = false) {
    const from = this.node(parent);
    const known = from.children.find((id) => this.nodes[id].move === move);
    if (known !== undefined) return known;
    const id = this.nodes.length;
    this.nodes.push({ id, parent, move, ply: from.ply + 1, children: [], main: main && from.main });
    from.children.push(id);
    return id;
  }

  /** The moves from the start to `id`. @param {number} id @returns {string[]} */
  path(id) {
    const moves = [];
    for (let at = this.node(id); at.parent !== null; at = this.node(at.parent)) moves.unshift(at.move);
    return moves;
  }

  /** @param {number} id @returns {boolean} */
  isMain(id) { return this.node(id).main; }

  /** The main line's node after `ply` moves (the last one past its end). @param {number} ply */
  mainAt(ply) {
    let at = this.node(0);
    while (at.ply < ply && at.children.length) at = this.node(at.children[0]);
    return at.id;
  }

  /** The main-line node a variation left the main line at (`id` itself on the main line). @param {number} id */
  mainline(id) {
    let at = this.node(id);
    while (!at.main && at.parent !== null) at = this.node(at.parent);
    return at.id;
  }

  /** One move back (the start stays). @param {number} id */
  back(id) { const parent = this.node(id).parent; return parent === null ? id : parent; }

  /** One move on along the current line (its first child; the end stays). @param {number} id */
  forward(id) { const children = this.node(id).children; return children.length ? children[0] : id; }

  /** The end of the line `id` is on, following first children. @param {number} id */
  end(id) { let at = id; while (this.node(at).children.length) at = this.forward(at); return at; }

  /**
   * The line on from `id` (its first child and on) with the variations at each step, as a move
   * list writes them: after a move, the other moves that could have been played instead.
   * @param {number} [id] @returns {Line}
   */
  line(id = 0) {
    /** @type {Line} */
    const items = [];
    for (let at = this.node(id); at.children.length; at = this.node(at.children[0])) {
      const [next, ...others] = at.children;
      const variations = others.map((other) => [this.item(other), ...this.line(other)]);
      items.push({ ...this.item(next), variations });
    }
    return items;
  }

  /** @param {number} id @returns {LineItem} */
  item(id) {
    const node = this.node(id);
    return { id, ply: node.ply, move: node.move, variations: [] };
  }
}

/**
 * Where a key of lichess's analysis board goes from `id`: ← one move back, → one on along the
 * line, ↑ or Home to the start, ↓ or End to the end of the line; null for any other key.
 * @param {MoveTree} tree @param {number} id @param {string} key @returns {number | null}
 */
export function stepKey(tree, id, key) {
  if (key === "ArrowLeft") return tree.back(id);
  if (key === "ArrowRight") return tree.forward(id);
  if (key === "Home" || key === "ArrowUp") return tree.root;
  if (key === "End" || key === "ArrowDown") return tree.end(id);
  return null;
}
