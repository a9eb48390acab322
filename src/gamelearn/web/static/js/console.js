// @ts-check
// The 1999 thesis program's console page (/console; docs/thesis-tools.md).  The server runs the
// program (thesis/web.py, the same session as `gamelearn teeko console`): this page knows no
// rule of Teeko nor of the console.  It shows the lines the server sends, in a monospace screen,
// and sends each line typed at the prompt; the program's memory.m and stat.m download and load.
import { $ } from "./dom.js";
import { api, ApiError, problem } from "./api.js";
import { serverAway, serverBack } from "./connection.js";

/** @typedef {{memory_records: number, memory_bytes: number, side1_wins: number, side2_wins: number, stat: number[]}} ConsoleFiles */
/** @typedef {{screen: string[], prompt: string, finished: boolean, seed: number, original: boolean, files: ConsoleFiles}} ConsoleView */

/** A request is out: what is typed meanwhile waits in the field, never sent twice. */
let busy = false;
/** The lines on the screen now. @type {string[]} */
let shown = [];

// The new lines are added after those shown (the screen is a log: a screen reader reads what
// was added, not the whole screen again); a screen that is not a continuation is drawn anew.
/** @param {string[]} lines */
function drawScreen(lines) {
  const screen = $("console-screen");
  const goesOn = shown.length > 0 && shown.length <= lines.length && shown.every((line, i) => line === lines[i]);
  if (!goesOn) screen.textContent = lines.join("\n");
  else if (lines.length > shown.length) screen.append(document.createTextNode("\n" + lines.slice(shown.length).join("\n")));
  shown = lines;
  screen.dataset.lines = String(lines.length);
}

/** @param {ConsoleView} answer */
function draw(answer) {
  const screen = $("console-screen");
  drawScreen(answer.screen);
  screen.scrollTop = screen.scrollHeight;
  $("console-prompt").textContent = answer.finished ? "The program has ended. " : answer.prompt;
  const form = $("console-form");
  form.dataset.finished = answer.finished ? "yes" : "no";
  $("console-restart").classList.toggle("primary", answer.finished);
  $("console-original").checked = answer.original;
  document.body.dataset.mode = answer.original ? "original" : "fixed";
  drawFiles(answer.files);
  document.body.dataset.state = answer.finished ? "finished" : "ready";
}

/** @param {ConsoleFiles} files */
function drawFiles(files) {
  const records = files.memory_records;
  $("memory-summary").textContent = records
    ? `${records} ${records === 1 ? "position" : "positions"} (${files.memory_bytes} bytes): side 1 won ${files.side1_wins}, side 2 won ${files.side2_wins}.`
    : "empty: nothing learned yet.";
  $("memory-summary").dataset.records = String(records);
  const stat = files.stat;
  const sum = (/** @type {number} */ from) => stat[from] + stat[from + 1] + stat[from + 2];
  $("stat-summary").textContent =
    `autoplay ${sum(0)} games (X won ${stat[0]}, drawn ${stat[1]}, O won ${stat[2]}); ` +
    `against you ${sum(3) + sum(6)} (the program won ${stat[3] + stat[6]}, drawn ${stat[4] + stat[7]}, lost ${stat[5] + stat[8]}).`;
}

/** @param {boolean} on */
function setBusy(on) {
  busy = on;
  const finished = $("console-form").dataset.finished === "yes";
  $("console-line").disabled = on || finished;
  $("console-enter").disabled = on || finished;
  $("console-restart").disabled = on;
  $("console-original").disabled = on;
  $("console").setAttribute("aria-busy", on ? "true" : "false");
  if (!on && !finished) $("console-line").focus();
}

/** @param {string} text @param {string} [kind] */
function say(text, kind) {
  const box = $("console-message");
  box.textContent = text || "";
  box.className = kind || "";
}

/** @param {() => Promise<ConsoleView>} request */
async function exchange(request) {
  if (busy) return;
  setBusy(true);
  try {
    const answer = await request();
    say("");
    draw(answer);
  } catch (error) {
    say(problem(error), "error");
  } finally {
    setBusy(false);
  }
}

async function send(/** @type {Event} */ event) {
  event.preventDefault();
  const input = $("console-line");
  const line = input.value;
  if (busy) return;
  await exchange(async () => {
    const answer = await api("POST", "/api/console/line", { line });
    input.value = "";
    return answer;
  });
}

// A thesis file from the disk goes to the server as it is (its bytes), for the server to check.
/** @param {string} path @param {HTMLInputElement} picker */
async function upload(path, picker) {
  const file = picker.files && picker.files[0];
  if (!file) return;
  const message = $("files-message");
  message.className = "";
  delete message.dataset.loaded;
  message.textContent = `Loading ${file.name}…`;
  let response;
  try {
    response = await fetch(`${path}?name=${encodeURIComponent(file.name.slice(0, 100))}`, {
      method: "PUT", headers: { "Content-Type": "application/octet-stream" }, body: await file.arrayBuffer(),
    });
  } catch (error) {
    serverAway();
    message.textContent = "";
    return;
  } finally {
    picker.value = "";  // the same file chosen again loads again
  }
  serverBack();
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    message.className = "error";
    message.textContent = data && data.detail ? data.detail : `${response.status} ${response.statusText}`;
    return;
  }
  drawFiles(data);
  message.textContent = `Loaded ${file.name}.`;
  message.dataset.loaded = file.name;
}

async function init() {
  $("console-form").addEventListener("submit", send);
  $("console-restart").addEventListener("click", () => exchange(() => api("POST", "/api/console/restart", {})));
  // The switch starts the program again in the mode chosen, which the server keeps for this
  // browser; then it shows the mode the server answered with (as it was, if the request failed).
  const mode = $("console-original");
  mode.addEventListener("change", async () => {
    await exchange(() => api("POST", "/api/console/restart", { original: mode.checked }));
    mode.checked = document.body.dataset.mode === "original";
  });
  $("memory-upload").addEventListener("change", () => upload("/api/console/memory.m", $("memory-upload")));
  $("stat-upload").addEventListener("change", () => upload("/api/console/stat.m", $("stat-upload")));
  await exchange(() => api("GET", "/api/console"));
}

init().catch((error) => say(error instanceof ApiError ? problem(error) : String(error), "error"));
