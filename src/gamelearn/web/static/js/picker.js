// @ts-check
// Choosing the players: for each seat a kind from the server's list, then that kind's options
// (their defaults and allowed values come from /api/games); the spec they make is shown in a
// text field, which someone who knows specs can also type into directly.  The game's own options
// (Teeko's forms) are chosen the same way, in forms.js.  main.js loads this module when the
// new-game form is first opened: until then the spec fields are all there is, and main.js fills
// them; the controls, once drawn, follow the fields as they stand.
import { $, el } from "./dom.js";
import { FormPicker } from "./forms.js";
import { parseSpec, playersForForm } from "./spec.js";

const SEATS = ["first", "second"];

export class Picker {
  constructor(games) {
    this.games = games;
    this.info = null;
    this.form = new FormPicker((spec) => this.formChanged(spec));
    for (const seat of SEATS) {
      $(`${seat}-kind`).addEventListener("change", () => { this.drawOptions(seat, {}); this.build(seat); });
      $(`${seat}-player`).addEventListener("input", () => this.parse(seat));
    }
  }

  setGame(name, specs, gameSpec) {
    this.info = this.games[name];
    $("game-select").value = name;
    this.form.setGame(this.info, gameSpec);
    SEATS.forEach((seat, side) => {
      $(`${seat}-label`).textContent = `${side === 0 ? "First" : "Second"} (${this.info.symbols[side]})`;
      $(`${seat}-kind`).replaceChildren(...this.info.players.map((p) => el("option", { value: p.name, text: p.name, title: p.summary })));
      $(`${seat}-player`).value = specs[side];
      this.parse(seat);
    });
    this.formChanged(this.form.spec());  // a form the game's default players cannot play
  }

  kind(name) { return this.info.players.find((p) => p.name === name); }

  drawOptions(seat, given) {
    const kind = this.kind($(`${seat}-kind`).value);
    $(`${seat}-summary`).textContent = kind ? kind.summary : "";
    const rows = (kind ? kind.options : []).map((option) => {
      const id = `${seat}-opt-${option.name}`;
      const value = option.name in given ? given[option.name] : "";
      let input;
      if (option.type === "switch") {
        input = el("select", { id, "data-option": option.name, "data-default": String(option.default) },
          ...option.values.map((v) => el("option", { value: v, text: v + (v === option.default ? " (default)" : "") })));
        input.value = value || option.default;
      } else {
        // an option with no default (ntuple's nodes: no cap) shows an empty field, not "null"
        const shown = option.default == null ? "" : String(option.default);
        const number = option.type === "int"
          ? { type: "number", min: option.min, max: option.max, step: 1, inputmode: "numeric" } : { type: "text" };
        input = el("input", { id, ...number, "data-option": option.name, "data-default": shown, placeholder: shown });
        input.value = value;
      }
      input.addEventListener("input", () => this.build(seat));
      input.addEventListener("change", () => this.build(seat));
      const range = option.type === "int" ? ` (${option.min}–${option.max})` : "";
      return el("label", { class: "option", title: option.help }, el("span", { text: `${option.name}${range}` }), input);
    });
    $(`${seat}-options`).replaceChildren(...rows);
  }

  // The controls -> the spec field.
  build(seat) {
    const kind = $(`${seat}-kind`).value;
    const parts = [];
    for (const input of $(`${seat}-options`).querySelectorAll("[data-option]")) {
      const value = input.value.trim();
      if (value !== "" && value !== input.dataset.default) parts.push(`${input.dataset.option}=${value}`);
    }
    $(`${seat}-player`).value = parts.length ? `${kind}:${parts.join(",")}` : kind;
  }

  // The spec field -> the controls (what they can show; the field itself is kept as typed).
  parse(seat) {
    const { name, given } = parseSpec($(`${seat}-player`).value);
    if (this.kind(name)) $(`${seat}-kind`).value = name;
    this.drawOptions(seat, this.kind(name) ? given : {});
  }

  specs() { return SEATS.map((seat) => $(`${seat}-player`).value.trim()); }

  gameSpec() { return this.form.spec(); }

  // A form other than the game's own gets the players the server offers first for forms, and back
  // again, unless the person chose others (spec.js).
  formChanged(spec) {
    const now = this.specs();
    const to = playersForForm(this.info, spec, now);
    if (to[0] !== now[0] || to[1] !== now[1]) SEATS.forEach((seat, side) => { $(`${seat}-player`).value = to[side]; this.parse(seat); });
  }
}
