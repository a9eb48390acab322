// @ts-check
// Small DOM helpers shared by every module of the page (no library, nothing from the internet).
/** The element of the page with this id (its kind, input or button, is the page's to know). @type {(id: string) => any} */
export const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

/** @param {string} tag @param {Record<string, any>} [attrs] @param {...any} children @returns {any} */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** @param {string} tag @param {Record<string, any>} [attrs] @returns {any} */
export function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  return node;
}

export function svgText(text, attrs) {
  const node = svgEl("text", attrs);
  node.textContent = text;
  return node;
}

// One line under the board: an error (red) or information (kind "info").
export function say(text, kind) {
  const box = $("message");
  box.textContent = text || "";
  box.className = kind || "";
}

// How a player is named in a sentence: the name the server gives its kind in /api/games (Gardner's
// HER and HIM, Michie's MENACE), else the spec's kind.
const NAMES = {};
export function learnPlayerNames(games) {
  for (const info of games) for (const player of info.players) NAMES[player.name] = player.title;
}
export function playerName(spec) {
  const kind = String(spec || "").split(":")[0].trim();
  return NAMES[kind] || kind;
}


// A stylesheet of a view loaded when the view first opens (views.css): added once; the promise
// settles when it has loaded, so a module that awaits it draws nothing unstyled.
export function needStyle(href) {
  /** @type {any} */
  let link = document.querySelector(`link[rel="stylesheet"][href="${href}"]`);
  if (!link) {
    link = el("link", { rel: "stylesheet", href });
    link.loaded = new Promise((resolve) => { link.onload = resolve; link.onerror = resolve; });
    document.head.append(link);
  }
  return link.loaded || Promise.resolve();
}
