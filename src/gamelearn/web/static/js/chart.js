// @ts-check
// The learning chart: Gardner's letters (W won, L lost, D drawn) and a curve of each, always from
// the learner's side.  The letters are ten a line in a box of GARDNER_LINES lines that scrolls
// (a thousand games are a hundred lines), its latest games in view.
import { $, playerName, svgEl, svgText } from "./dom.js";
import { plural } from "./format.js";
import { api, problem } from "./api.js";

const GARDNER_LINES = 8;  // the lines in view; style.css sizes #gardner to them

export async function refreshChart(view) {
  if (!view) return;
  const learnerPanel = (view.learners || [])[0];
  const learner = learnerPanel ? learnerPanel.kind : "";
  $("chart-panel").hidden = !learner;  // the chart follows a learner; none at this table
  if (!learner) return;
  const query = `game=${encodeURIComponent(view.game)}` + (learner ? `&learner=${encodeURIComponent(learner)}` : "");
  try {
    drawChart(await api("GET", `/api/chart?${query}`), view.symbols, learnerPanel.side);
  } catch (error) {
    $("chart-caption").textContent = problem(error);
  }
}

// `symbols`, `side`: the game's marks and the learner's side in the game in play.  Where a mark is
// one of the chart's letters (hexapawn's W), the caption says the letters are results, not sides.
export function drawChart(chart, symbols = [], side = null) {
  const who = chart.learner ? playerName(chart.learner) : "the first computer";
  const clash = symbols.some((mark) => ["W", "L", "D"].includes(mark));
  const plays = side !== null && side !== undefined && symbols[side] ? `, who plays ${symbols[side]} here` : "";
  const legend = clash ? `W a game ${who} won, L one it lost, D drawn (results, not sides${plays})` : "W it won, L it lost, D drawn";
  $("chart-caption").textContent = `Drawn from the side of ${who} (${chart.game}): ${legend}. ` +
    `${plural(chart.games, "game")}: ${chart.wins} won, ${chart.losses} lost, ${chart.draws} drawn.`;
  const lines = [];
  for (let i = 0; i < chart.letters.length; i += 10) lines.push(chart.letters.slice(i, i + 10));
  const gardner = $("gardner");
  gardner.textContent = lines.join("\n");
  gardner.dataset.letters = chart.letters;
  // Past its lines the box scrolls, the latest games in view; it takes the focus only then, so
  // the keyboard can scroll it (axe: scrollable-region-focusable).
  const scrolls = lines.length > GARDNER_LINES;
  const named = [["tabindex", "0"], ["role", "region"], ["aria-label", `${who}'s games, a letter each, ten a line, the oldest first`]];
  for (const [name, value] of named) { if (scrolls) gardner.setAttribute(name, value); else gardner.removeAttribute(name); }
  gardner.scrollTop = gardner.scrollHeight;
  const width = 300, height = 160, pad = 26;
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `wins, losses and draws of ${who} over games` });
  const n = chart.letters.length;
  const series = { W: [0], L: [0], D: [0] };
  for (const letter of chart.letters) {
    for (const key of Object.keys(series)) {
      const list = series[key];
      list.push(list[list.length - 1] + (letter === key ? 1 : 0));
    }
  }
  const top = Math.max(1, ...Object.values(series).map((s) => s[s.length - 1]));
  const x = (i) => pad + (i / Math.max(1, n)) * (width - pad - 8);
  const y = (v) => height - pad - (v / top) * (height - pad - 10);
  svg.append(svgEl("line", { x1: pad, y1: height - pad, x2: width - 8, y2: height - pad, stroke: "#999" }));
  svg.append(svgEl("line", { x1: pad, y1: 10, x2: pad, y2: height - pad, stroke: "#999" }));
  const label = (text, attrs) => svg.append(svgText(text, Object.assign({ "font-size": 10, fill: "#555" }, attrs)));
  label("0", { x: pad - 10, y: height - pad + 4 });
  label(String(top), { x: 2, y: 14 });
  label(`games: ${n}`, { x: width - 70, y: height - 8 });
  const colours = { W: "#1e7a41", L: "#b3261e", D: "#5f6b7f" };  // style.css's --win, --loss, --draw (AA on white)
  const names = { W: "won", L: "lost", D: "drawn" };
  Object.entries(series).forEach(([key, values], i) => {
    const points = values.map((v, index) => `${x(index).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(svgEl("polyline", { points, fill: "none", stroke: colours[key], "stroke-width": 2, "data-series": key }));
    label(`${names[key]} ${values[values.length - 1]}`, { x: pad + 6 + i * 70, y: 20, fill: colours[key] });
  });
  $("curve").replaceChildren(svg);
}
