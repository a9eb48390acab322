// @ts-check
// A game's solved table, built from the page (POST /api/tables/{spec}/build): the status line, a
// progress bar that moves as positions are settled, and a button, wherever a view needs the table
// (the review, the new-game form when a player plays from it).  One build at a time on the server.
import { $ } from "./dom.js";
import { api, problem } from "./api.js";
import { capitalised } from "./format.js";

const POLL_MS = 500;

/**
 * @typedef {{status: HTMLElement, bar: HTMLProgressElement, button: HTMLButtonElement}} TableNodes
 * @typedef {{ready: boolean, buildable: boolean, building: boolean, fraction: number, stage?: string,
 *   elapsed?: number | null, error?: string}} TableStatus
 */

/**
 * The time so far, and the time the progress so far says is left.
 * @param {TableStatus} status
 */
export function timeLeft(status) {
  const spent = status.elapsed;
  if (spent === null || spent === undefined) return "";
  const left = status.fraction >= 0.1 ? Math.max(1, Math.round((spent * (1 - status.fraction)) / status.fraction)) : null;
  return ` (${Math.round(spent)} s so far${left === null ? "" : `, about ${left} s left`})`;
}

/**
 * Show where the table of `spec` stands in `nodes`, start its build when `start`, follow a build
 * until it ends, and call `onReady()` once the table is there.  `stillWanted()` false: stop
 * following (the view closed or moved on).  `otherwise`: the line for a table that cannot be built here.
 * @param {string} spec
 * @param {TableNodes} nodes
 * @param {{start?: boolean, onReady?: () => void, stillWanted?: () => boolean, otherwise?: string}} [options]
 */
export async function watchTable(spec, nodes, options = {}) {
  const { start = false, onReady = () => {}, stillWanted = () => true, otherwise = "" } = options;
  /** @type {TableStatus} */
  let status;
  try {
    status = await api(start ? "POST" : "GET", `/api/tables/${encodeURIComponent(spec)}${start ? "/build" : ""}`);
  } catch (error) {
    nodes.status.textContent = problem(error);
    return;
  }
  if (!stillWanted()) return;
  nodes.button.hidden = !status.buildable || status.building || status.ready;
  nodes.button.onclick = () => watchTable(spec, nodes, { ...options, start: true });
  nodes.bar.hidden = !status.building;
  nodes.bar.value = status.fraction;
  nodes.bar.setAttribute("aria-label", `building the ${spec} table`);
  // One estimate, the one measured (docs/solve.md), and while it builds the time it has taken
  // and the time its progress so far says is left.
  nodes.status.textContent = status.building
    ? `Building the ${spec} table: ${status.stage}, ${Math.round(status.fraction * 100)}%${timeLeft(status)}…`
    : status.ready ? "The table is built."
      : !status.buildable ? status.error || otherwise
        : `${status.error ? `${status.error}. ` : ""}It can be built here: about 20 s on an idle server, longer on a busy one, and about 300 MB of memory while it builds.`;
  if (status.building) { setTimeout(() => { if (stillWanted()) watchTable(spec, nodes, { ...options, start: false }); }, POLL_MS); return; }
  if (status.ready) onReady();
}

/**
 * A player chosen in the new-game form plays from a table the server has not built (`error`, a
 * 400 whose answer names the `table`): the form offers the build beside the players, and
 * `start()` starts the game asked for once it is built, while `stillWanted()`.
 * @param {{message: string, data: {table: string}}} error
 * @param {() => boolean} stillWanted
 * @param {() => void} start
 */
export function offerBuild(error, stillWanted, start) {
  const box = $("setup-table");
  $("setup").open = true;
  box.hidden = false;
  $("setup-table-why").textContent = `${capitalised(error.message)}. Build it here and the game starts when it is ready, or choose another player.`;
  const nodes = { status: $("setup-table-status"), bar: $("setup-table-progress"), button: $("setup-table-build") };
  const wanted = () => stillWanted() && !box.hidden;
  watchTable(error.data.table, nodes, { stillWanted: wanted, onReady: () => { if (wanted()) start(); } });
  box.scrollIntoView({ block: "nearest" });
}
